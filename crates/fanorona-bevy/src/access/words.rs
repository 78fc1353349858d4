//! Every text of keyboard play and the screen reader, as messages (`locales/<code>/access.ftl`):
//! the turn played in words ("White e2 to e3, approach, captures 3"), whose turn it is, the
//! point under the keyboard cursor.

use fanorona_core::{BoardSize, Color as Side, Point, StepKind, Turn};

use crate::game::flow::{BoardView, Player, side_name};
use crate::i18n::{Arg, Msg};

/// A turn in words, for the screen reader: who moved, the path, the kind of each step and the
/// stones captured. In English:
///
/// - a placement (Fanoron-Telo): `Black places a stone on b2`;
/// - a paika: `White c3 to d3, paika`;
/// - a capture: `White f2 to e3, approach, captures 2`; a chain names each step's kind in
///   order: `White c1 to d2 to e2, approach, withdrawal, captures 5`.
pub fn turn_words(turn: &Turn, mover: Side) -> Msg {
    let side = side_name(mover);
    if turn.is_placement() {
        return Msg::new("access-turn-placement")
            .with("side", side)
            .with("point", turn.from().to_string());
    }
    // "a1", then "a1 to b1", then "(a1 to b1) to b2": each point added to the path so far.
    let mut points = turn.path();
    let first: Arg = points
        .next()
        .map(|p| p.to_string())
        .unwrap_or_default()
        .into();
    let path = points.fold(first, |path, p| {
        Msg::new("access-path")
            .with("path", path)
            .with("point", p.to_string())
            .into()
    });
    if !turn.is_capture() {
        return Msg::new("access-turn-paika")
            .with("side", side)
            .with("path", path);
    }
    let kinds = list(
        "access-kinds",
        // i18n: not text (the message's argument names)
        ["kinds", "kind"],
        turn.steps().map(|s| kind_word(s.kind)),
    );
    Msg::new("access-turn-capture")
        .with("side", side)
        .with("path", path)
        .with("kinds", kinds)
        .with("count", turn.captured().count())
}

/// Items joined by a message that puts one more after the others (`{ $list }, { $item }`).
fn list(
    id: &'static str,
    [rest, item]: [&'static str; 2],
    items: impl Iterator<Item = Msg>,
) -> Msg {
    items
        .reduce(|joined, next| Msg::new(id).with(rest, joined).with(item, next))
        .unwrap_or_default()
}

/// A step's kind as a word: `paika`, `approach`, `withdrawal`.
pub fn kind_word(kind: StepKind) -> Msg {
    Msg::new(match kind {
        StepKind::Approach => "access-kind-approach",
        StepKind::Withdrawal => "access-kind-withdrawal",
        _ => "access-kind-paika",
    })
}

/// Whose turn it is: `Black to move`, `Black (engine) to move`.
pub fn to_move_words(side: Side, player: Player) -> Msg {
    let id = match player {
        Player::Engine => "flow-engine-to-move",
        Player::Human => "flow-to-move",
    };
    Msg::new(id).with("side", side_name(side))
}

/// Two sentences, one after the other.
fn sentences(first: Msg, second: Msg) -> Msg {
    Msg::new("access-sentences")
        .with("first", first)
        .with("second", second)
}

/// The announcement after turns were played: each turn in words, then whose turn it is or the
/// result.
pub fn played_words(turns: Vec<Msg>, next: Msg) -> Msg {
    turns
        .into_iter()
        .chain(std::iter::once(next))
        .reduce(sentences)
        .unwrap_or_default()
}

/// The announcement after undo.
pub fn taken_back_words(next: Msg) -> Msg {
    Msg::new("access-taken-back").with("next", next)
}

/// The announcement of a new game.
pub fn new_game_words(size: BoardSize, next: Msg) -> Msg {
    Msg::new("access-new-game")
        .with("size", size.to_string())
        .with("next", next)
}

/// The announcement of a game opened from a record.
pub fn loaded_words(turns: usize, next: Msg) -> Msg {
    Msg::new("access-loaded")
        .with("turns", turns)
        .with("next", next)
}

/// The announcement when the game screen opens: how to play by keys.
pub fn game_screen_words(next: Msg) -> Msg {
    Msg::new("access-game-screen").with("next", next)
}

/// The point under the keyboard cursor in words: its name, its stone and what can be done
/// there (`d3, White stone, can capture`; `e3, empty, capture here`).
pub fn point_words(view: &BoardView, point: Point) -> Msg {
    let mut words = vec![Msg::new("access-point").with("point", point.to_string())];
    words.push(Msg::new(
        match view.stones.iter().find(|(p, _)| *p == point) {
            Some((_, Side::White)) => "access-white-stone",
            Some(_) => "access-black-stone",
            None => "access-empty",
        },
    ));
    if view.selected == Some(point) {
        words.push(Msg::new(if view.chain {
            "access-capturing"
        } else {
            "access-selected"
        }));
    }
    if view.must_capture.contains(point) {
        words.push(Msg::new("access-can-capture"));
    }
    if let Some((_, capture)) = view.targets.iter().find(|(p, _)| *p == point) {
        words.push(Msg::new(if view.selected.is_none() {
            "access-place-here"
        } else if *capture {
            "access-capture-here"
        } else {
            "access-move-here"
        }));
    }
    if let Some((approach, withdrawal)) = view.choice {
        if approach.contains(point) {
            words.push(Msg::new("access-approach-line"));
        }
        if withdrawal.contains(point) {
            words.push(Msg::new("access-withdrawal-line"));
        }
    }
    if view.last_captured.contains(point) {
        words.push(Msg::new("access-captured-last"));
    }
    // i18n: not text (the message's argument names)
    list("access-list", ["list", "item"], words.into_iter())
}

/// The label of the board's node for the screen reader.
pub fn board_label(point: Option<Msg>) -> Msg {
    match point {
        Some(p) => Msg::new("access-board-cursor").with("point", p),
        None => Msg::new("access-board"),
    }
}
