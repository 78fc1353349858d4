//! Every text of keyboard play and the screen reader, in one place: the turn played in words
//! ("White e2 to e3, approach, captures 3"), whose turn it is, the point under the keyboard
//! cursor, and the names of the look and text size settings.

use fanorona_core::{Color as Side, StepKind, Turn};

use crate::game::flow::{BoardView, Player, side_name};
use crate::settings::TextSize;

/// A turn in words, for the screen reader: who moved, the path, the kind of each step and the
/// stones captured.
///
/// - a placement (Fanoron-Telo): `Black places a stone on b2`;
/// - a paika: `White c3 to d3, paika`;
/// - a capture: `White f2 to e3, approach, captures 2`; a chain names each step's kind in
///   order: `White c1 to d2 to e2, approach, withdrawal, captures 5`.
pub fn turn_words(turn: &Turn, mover: Side) -> String {
    let side = side_name(mover);
    if turn.is_placement() {
        return format!("{side} places a stone on {}", turn.from());
    }
    let path: Vec<String> = turn.path().map(|p| p.to_string()).collect();
    let path = path.join(" to ");
    if !turn.is_capture() {
        return format!("{side} {path}, paika");
    }
    let kinds: Vec<&str> = turn.steps().map(|s| kind_word(s.kind)).collect();
    let count = turn.captured().count();
    format!("{side} {path}, {}, captures {count}", kinds.join(", "))
}

/// A step's kind as a word: `paika`, `approach`, `withdrawal`.
pub fn kind_word(kind: StepKind) -> &'static str {
    match kind {
        StepKind::Approach => "approach",
        StepKind::Withdrawal => "withdrawal",
        _ => "paika",
    }
}

/// Whose turn it is: `Black to move`, `Black (engine) to move`.
pub fn to_move_words(side: Side, player: Player) -> String {
    match player {
        Player::Engine => format!("{} (engine) to move", side_name(side)),
        Player::Human => format!("{} to move", side_name(side)),
    }
}

/// The announcement after turns were played: each turn in words, then whose turn it is or the
/// result.
pub fn played_words(turns: &[String], next: &str) -> String {
    let mut parts: Vec<String> = turns.to_vec();
    parts.push(next.to_string());
    parts.join(". ")
}

/// The announcement after undo.
pub fn taken_back_words(next: &str) -> String {
    format!("Turn taken back. {next}")
}

/// The announcement of a new game.
pub fn new_game_words(size: fanorona_core::BoardSize, next: &str) -> String {
    format!("New game on the {size} board. {next}")
}

/// The announcement of a game opened from a record.
pub fn loaded_words(turns: usize, next: &str) -> String {
    format!("Game opened after {turns} turns. {next}")
}

/// The announcement when the game screen opens: how to play by keys.
pub fn game_screen_words(next: &str) -> String {
    format!(
        "Game. {next}. Arrow keys move the cursor on the board, Enter or Space selects a stone \
         and steps, End ends a chain, A or W chooses approach or withdrawal, Tab reaches the \
         buttons."
    )
}

/// The point under the keyboard cursor in words: its name, its stone and what can be done
/// there (`d3, White stone, can capture`; `e3, empty, capture here`).
pub fn point_words(view: &BoardView, point: fanorona_core::Point) -> String {
    let mut words = vec![point.to_string()];
    match view.stones.iter().find(|(p, _)| *p == point) {
        Some((_, side)) => words.push(format!("{} stone", side_name(*side))),
        None => words.push("empty".to_string()),
    }
    if view.selected == Some(point) {
        words.push(if view.chain {
            "capturing stone: press Enter here or End to end the turn".to_string()
        } else {
            "selected".to_string()
        });
    }
    if view.must_capture.contains(point) {
        words.push("can capture".to_string());
    }
    if let Some((_, capture)) = view.targets.iter().find(|(p, _)| *p == point) {
        words.push(if view.selected.is_none() {
            "place a stone here".to_string()
        } else if *capture {
            "capture here".to_string()
        } else {
            "move here".to_string()
        });
    }
    if let Some((approach, withdrawal)) = view.choice {
        if approach.contains(point) {
            words.push("approach line: Enter or A captures it".to_string());
        }
        if withdrawal.contains(point) {
            words.push("withdrawal line: Enter or W captures it".to_string());
        }
    }
    if view.last_captured.contains(point) {
        words.push("captured last turn".to_string());
    }
    words.join(", ")
}

/// The label of the board's node for the screen reader.
pub fn board_label(point: Option<String>) -> String {
    match point {
        Some(p) => format!("Board, cursor on {p}"),
        None => "Board".to_string(),
    }
}

/// The menu's name of the high-contrast setting.
pub const CONTRAST_LABEL: &str = "High contrast";
/// The menu's name of the text size setting.
pub const TEXT_SIZE_LABEL: &str = "Text size";

/// A text size's name in the menu.
pub fn text_size_words(size: TextSize) -> &'static str {
    match size {
        TextSize::Small => "Small",
        TextSize::Normal => "Normal",
        TextSize::Large => "Large",
        TextSize::Huge => "Huge",
    }
}

/// The high-contrast setting's value in the menu.
pub fn contrast_words(on: bool) -> &'static str {
    if on { "On" } else { "Off" }
}
