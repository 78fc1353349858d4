//! Every text of the position editor, as messages (`locales/<code>/editor.ftl`).

use fanorona_core::{BoardSize, Color as Side, GameKind};

use super::Brush;
use crate::game::flow::side_name;
use crate::i18n::{Arg, Msg};

/// The game button's text.
pub fn game_button(game: GameKind) -> Msg {
    Msg::new(match game {
        GameKind::Vela => "editor-game-vela",
        GameKind::Telo => "editor-game-telo",
        _ => "editor-game-capture",
    })
}

/// The board button's text.
pub fn board_button(size: BoardSize) -> Msg {
    Msg::new("editor-board").with("size", size.to_string())
}

/// The side-to-move button's text.
pub fn side_button(side: Side) -> Msg {
    Msg::new(match side {
        Side::White => "editor-white-to-move",
        Side::Black => "editor-black-to-move",
    })
}

/// A brush button's text; the chosen one is marked.
pub fn brush_button(brush: Brush, chosen: bool) -> Msg {
    let name = Msg::new(match brush {
        Brush::White => "editor-put-white",
        Brush::Black => "editor-put-black",
        Brush::Empty => "editor-remove",
    });
    if chosen {
        Msg::new("editor-chosen").with("brush", name)
    } else {
        name
    }
}

/// The stones on the board.
pub fn stones_line(white: u32, black: u32) -> Msg {
    Msg::new("editor-stones")
        .with("white", white)
        .with("black", black)
}

/// The position string line.
pub fn string_line(fen: &str) -> Msg {
    Msg::new("editor-string").with("fen", fen)
}

/// The line while a position string is typed.
pub fn entry_line(text: &str) -> Msg {
    Msg::new("editor-entry").with("text", text)
}

/// A legal position.
pub fn legal(side: Side) -> Msg {
    Msg::new("editor-legal").with("side", side_name(side))
}

/// The core refused the stones (its own reason, in English).
pub fn refused(reason: &str) -> Msg {
    Msg::new("editor-refused").with("reason", reason)
}

/// A side without stones in a capture game.
pub fn no_stones(side: Side) -> Msg {
    Msg::new(match side {
        Side::White => "editor-no-white",
        Side::Black => "editor-no-black",
    })
}

/// The position is already decided by the rules.
pub fn decided(result: Msg) -> Msg {
    Msg::new("editor-decided").with("result", result)
}

/// Play, analyse or copy asked of a position that is not playable.
pub fn not_playable(reason: Msg) -> Msg {
    Msg::new("editor-not-playable").with("reason", reason)
}

/// The position string went to the clipboard.
pub fn copied() -> Msg {
    Msg::new("editor-copied")
}

/// No clipboard: the string is shown instead.
pub fn no_clipboard(fen: &str) -> Msg {
    Msg::new("editor-no-clipboard").with("fen", fen)
}

/// A pasted or typed position string opened.
pub fn opened(verdict: Msg) -> Msg {
    Msg::new("editor-opened").with("verdict", verdict)
}

/// A pasted or typed position string the core refused.
pub fn bad_string(text: &str, reason: &str) -> Msg {
    Msg::new("editor-bad-string")
        .with("text", text)
        .with("reason", reason)
}

/// The clipboard could not be read.
pub fn no_paste(reason: impl Into<Arg>) -> Msg {
    Msg::new("editor-no-paste").with("reason", reason)
}

/// The announcement when the editor opens.
pub fn opened_words(size: BoardSize, verdict: Msg) -> Msg {
    Msg::new("editor-opened-words")
        .with("size", size.to_string())
        .with("verdict", verdict)
}

/// The announcement after a press on a point: the point, what is there now, the verdict.
pub fn pressed(point: &str, what: Msg, verdict: Msg) -> Msg {
    Msg::new("editor-pressed")
        .with("point", point)
        .with("what", what)
        .with("verdict", verdict)
}
