//! Every text of the position editor, in one place.

use fanorona_core::{BoardSize, Color as Side, GameKind};

use super::Brush;
use crate::game::flow::side_name;

/// The menu's button that opens the editor.
pub const OPEN_EDITOR: &str = "Position editor";
/// The editor's title.
pub const TITLE: &str = "Position editor";
/// The help lines at the panel's end.
pub const HELP: &str = "Click a point (or move the cursor with the arrows and press Enter) to \
put the chosen stone there; again to take it away.\nW, B, Delete: choose what to put. S: side \
to move. P: type a position string. Ctrl+V: paste one. Esc: menu.";

/// The board button's text.
pub fn board_button(size: BoardSize) -> String {
    format!("Board: {size}")
}

/// The game button's text.
pub fn game_button(game: GameKind) -> String {
    let name = match game {
        GameKind::Vela => "Vela",
        GameKind::Telo => "Fanoron-Telo",
        _ => "Fanorona",
    };
    format!("Game: {name}")
}

/// The side-to-move button's text.
pub fn side_button(side: Side) -> String {
    format!("{} to move [S]", side_name(side))
}

/// A brush button's text; the chosen one is marked.
pub fn brush_button(brush: Brush, chosen: bool) -> String {
    let name = match brush {
        Brush::White => "Put White [W]",
        Brush::Black => "Put Black [B]",
        Brush::Empty => "Remove [Del]",
    };
    if chosen {
        format!("> {name}")
    } else {
        name.to_string()
    }
}

/// The other buttons.
pub const CLEAR: &str = "Clear";
/// Back to the start position of the board and game.
pub const RESET: &str = "Start position";
/// Play against the engine.
pub const PLAY_ENGINE: &str = "Play vs engine";
/// Play between two people.
pub const PLAY_PEOPLE: &str = "Play (two people)";
/// Analyse the position.
pub const ANALYSE: &str = "Analyse";
/// Copy the position string.
pub const COPY: &str = "Copy string";
/// Paste a position string.
pub const PASTE: &str = "Paste [Ctrl+V]";
/// Type a position string.
pub const TYPE: &str = "Type string [P]";
/// Back to the menu.
pub const MENU: &str = "Menu [Esc]";

/// The stones on the board.
pub fn stones_line(white: u32, black: u32) -> String {
    format!("Stones: White {white}, Black {black}")
}

/// The position string line.
pub fn string_line(fen: &str) -> String {
    format!("Position string: {fen}")
}

/// The line while a position string is typed.
pub fn entry_line(text: &str) -> String {
    format!("Type a position string: {text}_ (Enter opens it, Esc closes)")
}

/// A legal position.
pub fn legal(side: Side) -> String {
    format!(
        "Legal position, {} to move: play it, analyse it or copy it.",
        side_name(side)
    )
}

/// The core refused the stones (its own reason).
pub fn refused(reason: &str) -> String {
    format!("Not a position: {reason}.")
}

/// A side without stones in a capture game.
pub fn no_stones(side: Side) -> String {
    format!(
        "{} has no stones: the game would already be over. Put at least one {} stone.",
        side_name(side),
        side_name(side)
    )
}

/// The position is already decided by the rules.
pub fn decided(result: &str) -> String {
    format!("The game is already over here ({result}) Change the stones or the side to move.")
}

/// Play, analyse or copy asked of a position that is not playable.
pub fn not_playable(reason: &str) -> String {
    format!("Cannot start from this position. {reason}")
}

/// The position string was copied, or where it went.
pub fn copied(outcome: &str) -> String {
    format!("Position string {outcome}.")
}

/// The copy went to the clipboard.
pub const TO_CLIPBOARD: &str = "copied to the clipboard";

/// No clipboard: the string is shown instead.
pub fn no_clipboard(fen: &str) -> String {
    format!("not copied (no clipboard here); it is {fen}")
}

/// A pasted or typed position string opened.
pub const OPENED: &str = "Position string opened.";

/// A pasted or typed position string the core refused.
pub fn bad_string(text: &str, reason: &str) -> String {
    format!("{text:?}: {reason}")
}

/// The clipboard could not be read.
pub fn no_paste(reason: &str) -> String {
    format!("Nothing pasted: {reason}")
}

/// The announcement when the editor opens.
pub fn opened_words(size: BoardSize) -> String {
    format!(
        "Position editor, {size} board. Arrow keys move the cursor, Enter puts or removes a \
         stone, W and B choose the colour, Delete removes, S changes the side to move, Tab \
         reaches the buttons."
    )
}
