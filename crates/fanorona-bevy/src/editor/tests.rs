//! Headless tests of the position editor: positions the rules refuse (with the reason), a
//! legal one built by mouse and keyboard, and play from it. Expected strings and turns are
//! worked out by hand.

use bevy::prelude::*;
use fanorona_core::{BoardSize, Color as Side, GameKind, Position};

use super::{Brush, Editor, EditorCommand, PlayAs};
use crate::Screen;
use crate::game::flow::Player;
use crate::test_support::*;
use crate::ui::widgets::{Act, Action};

fn editor(app: &App) -> &Editor {
    app.world().resource::<Editor>()
}

/// The editor's message, in English.
fn message(app: &App) -> String {
    editor(app).message.to_string()
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

/// A command through the button's path (`Act`), as a click or `Enter` on the button sends it.
fn press(app: &mut App, command: EditorCommand) {
    app.world_mut()
        .write_message(Act::new(Action::Editor(command)));
    app.update();
    app.update();
}

fn open_editor(app: &mut App) {
    press(app, EditorCommand::Open);
    app.update();
    assert_eq!(screen(app), Screen::Editor);
}

#[test]
fn the_rules_refuse_positions_with_their_reason() {
    let mut app = client_app(Position::standard(), Screen::Menu);
    open_editor(&mut app);
    // It opens with the game's position: the standard start, legal.
    assert_eq!(editor(&app).size, BoardSize::STANDARD);
    assert_eq!(
        message(&app),
        "Legal position, White to move: play it, analyse it or copy it."
    );
    // Cleared, then one White stone on a1: Black has no stones.
    press(&mut app, EditorCommand::Clear);
    press(&mut app, EditorCommand::Press(pt("a1")));
    assert_eq!(
        message(&app),
        "Black has no stones: the game would already be over. Put at least one Black stone."
    );
    // Playing it is refused, and the editor stays.
    press(&mut app, EditorCommand::Play(PlayAs::TwoPeople));
    assert_eq!(screen(&app), Screen::Editor);
    assert!(message(&app).starts_with("Cannot start from this position."));
    // Black stones on a2, b2 and b1, all around a1, leave White (to move) no step at all:
    // White is stuck and loses.
    press(&mut app, EditorCommand::Brush(Brush::Black));
    for p in ["a2", "b2", "b1"] {
        press(&mut app, EditorCommand::Press(pt(p)));
    }
    assert_eq!(
        message(&app),
        "The game is already over here (Black wins: the side to move had no legal move.) \
         Change the stones or the side to move."
    );
    // Fanoron-Telo allows three stones a side: a fourth is refused by the core.
    press(&mut app, EditorCommand::Game);
    press(&mut app, EditorCommand::Game);
    assert_eq!(editor(&app).rules.game(), GameKind::Telo);
    assert_eq!(editor(&app).size, BoardSize::TELO);
    press(&mut app, EditorCommand::Brush(Brush::White));
    let telo = |name: &str| BoardSize::TELO.parse_point(name).expect("a 3x3 point");
    for p in ["a1", "b1", "c1", "a3"] {
        press(&mut app, EditorCommand::Press(telo(p)));
    }
    assert_eq!(
        message(&app),
        "Not a position: white has more than the three stones of Fanoron-Telo."
    );
    // Pressing a stone again takes it away: three stones, legal (Black to place).
    press(&mut app, EditorCommand::Press(telo("a3")));
    press(&mut app, EditorCommand::SideToMove);
    assert_eq!(editor(&app).side, Side::Black);
    assert_eq!(editor(&app).text().as_deref(), Some("3/3/WWW b telo"));
    // Three in a line: White has already won.
    assert!(
        message(&app).contains("White wins: three stones in a line"),
        "{}",
        message(&app)
    );
}

/// The CHAIN position of the tests (5x9: White a1; Black c1, b3, i5) built with the keyboard
/// cursor and copied as a string, then played between two people: a1-b1A takes c1.
#[test]
fn a_position_built_by_keys_is_played() {
    let mut app = client_app(Position::standard(), Screen::Menu);
    open_editor(&mut app);
    press(&mut app, EditorCommand::Clear);
    // The cursor starts in the middle (e3); a1 is four left and two down.
    tap(&mut app, KeyCode::ArrowLeft);
    for code in [
        KeyCode::ArrowLeft,
        KeyCode::ArrowLeft,
        KeyCode::ArrowLeft,
        KeyCode::ArrowLeft,
        KeyCode::ArrowDown,
        KeyCode::ArrowDown,
    ] {
        tap(&mut app, code);
    }
    tap(&mut app, KeyCode::Enter);
    assert_eq!(editor(&app).text().as_deref(), Some("9/9/9/9/W8 w"));
    // B chooses Black: c1, then b3, then i5.
    tap(&mut app, KeyCode::KeyB);
    for code in [KeyCode::ArrowRight, KeyCode::ArrowRight, KeyCode::Enter] {
        tap(&mut app, code);
    }
    for code in [
        KeyCode::ArrowLeft,
        KeyCode::ArrowUp,
        KeyCode::ArrowUp,
        KeyCode::Enter,
    ] {
        tap(&mut app, code);
    }
    for _ in 0..7 {
        tap(&mut app, KeyCode::ArrowRight);
    }
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::Enter);
    assert_eq!(editor(&app).text().as_deref(), Some(CHAIN));
    assert!(message(&app).starts_with("Legal position, White to move"));
    // Copy: without a clipboard the string is shown in the message.
    press(&mut app, EditorCommand::Copy);
    assert!(message(&app).contains(CHAIN), "{}", message(&app));
    // Play it: two people, from this position.
    press(&mut app, EditorCommand::Play(PlayAs::TwoPeople));
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app).game().start().to_fen(), CHAIN);
    assert_eq!(game(&app).players(), [Player::Human, Player::Human]);
    click(&mut app, "a1");
    click(&mut app, "b1");
    click(&mut app, "b2");
    assert_eq!(turns(&app), ["a1-b1A-b2A"]);
}

#[test]
fn a_typed_position_string_opens_and_plays_against_the_engine() {
    let mut app = client_app(Position::standard(), Screen::Menu);
    open_editor(&mut app);
    // P opens the line; the string is typed; Enter opens it.
    tap(&mut app, KeyCode::KeyP);
    assert_eq!(editor(&app).entry.as_deref(), Some(""));
    type_text(&mut app, "2B/3/W2 b");
    tap(&mut app, KeyCode::Enter);
    assert_eq!(editor(&app).entry, None);
    assert_eq!(editor(&app).size, BoardSize::new(3, 3).expect("3x3"));
    assert_eq!(editor(&app).text().as_deref(), Some("2B/3/W2 b"));
    assert!(message(&app).starts_with("Position string opened."));
    // A bad string is refused with the core's reason, and the position stays.
    press(&mut app, EditorCommand::OpenText("3/3/X2 w".into()));
    assert_eq!(
        message(&app),
        "\"3/3/X2 w\": position string, rank 1, character 1: 'X' is not W, B or a digit"
    );
    assert_eq!(editor(&app).text().as_deref(), Some("2B/3/W2 b"));
    // Without a clipboard (as here), pasting says so and keeps the position.
    press(&mut app, EditorCommand::Paste);
    assert_eq!(message(&app), "Nothing pasted: no clipboard here");
    assert_eq!(editor(&app).text().as_deref(), Some("2B/3/W2 b"));
    // Against the engine: the person takes the side to move (Black), the engine White.
    press(&mut app, EditorCommand::Play(PlayAs::AgainstEngine));
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    assert_eq!(game(&app).players(), [Player::Engine, Player::Human]);
    assert_eq!(game(&app).game().start().to_fen(), "2B/3/W2 b");
}
