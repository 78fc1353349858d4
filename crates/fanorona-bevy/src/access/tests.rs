//! Headless tests of playing by keys, the screen reader's nodes and announcements, and the
//! high-contrast look with the text size. Expected turns and texts are worked out by hand
//! from the rules of the game.

use accesskit::{Live, Role};
use bevy::a11y::AccessibilityNode;
use bevy::prelude::*;
use fanorona_core::{Color as Side, EndReason, Position};

use super::{Announcer, BoardCursor, BoardNode, LiveRegion, board_step, words};
use crate::Screen;
use crate::game::flow::Match;
use crate::i18n::{Language, Tr};
use crate::settings::{Settings, TextSize, load_settings, save_settings};
use crate::test_support::*;
use crate::ui::widgets::{Act, Action, Focus, Focusable};

fn cursor(app: &App) -> Option<String> {
    let c = app.world().resource::<BoardCursor>();
    c.point.filter(|_| c.shown).map(|p| p.to_string())
}

fn announced(app: &App) -> String {
    app.world().resource::<Announcer>().msg.to_string()
}

#[test]
fn announcements_name_the_turn_in_words() {
    // The standard start: f2-e3A moves f2 to e3 and captures d4 and c5 (the approach line
    // towards d4: d4 B, c5 B, then the edge).
    let start = Position::standard();
    let turn = start.parse_turn("f2-e3A").expect("legal");
    assert_eq!(
        words::turn_words(&turn, Side::White).to_string(),
        "White f2 to e3, approach, captures 2"
    );
    // The same in French and Malagasy (locales/fr/access.ftl, locales/mg/access.ftl).
    let words_in = |language| Tr::new(language).msg(&words::turn_words(&turn, Side::White));
    assert_eq!(
        words_in(Language::French),
        "Blanc f2 vers e3, approche, prend 2 pierres"
    );
    assert_eq!(
        words_in(Language::Malagasy),
        "Fotsy f2 ho any e3, fanatonana, nihinana vato 2"
    );
    // A chain: a1-b1A takes c1 (next on the rank), then b1-b2A takes b3 (next on the file).
    let chain = Position::from_fen(CHAIN).expect("position");
    let turn = chain.parse_turn("a1-b1A-b2A").expect("legal");
    assert_eq!(
        words::turn_words(&turn, Side::White).to_string(),
        "White a1 to b1 to b2, approach, approach, captures 2"
    );
    // d3-e3W at the start withdraws from c3 (then b3 is White's: one stone).
    let turn = start.parse_turn("d3-e3W").expect("legal");
    assert_eq!(
        words::turn_words(&turn, Side::White).to_string(),
        "White d3 to e3, withdrawal, captures 1"
    );
    // A paika: a lone White stone on a1 of the 3x3 board, Black on c2: no step of a1 comes
    // next to c2 or leaves it behind, so nothing is captured.
    let paika = Position::from_fen("3/2B/W2 w").expect("position");
    let turn = paika.parse_turn("a1-a2").expect("legal");
    assert_eq!(
        words::turn_words(&turn, Side::White).to_string(),
        "White a1 to a2, paika"
    );
    // Fanoron-Telo's placement.
    let telo = Position::from_fen("3/3/W2 b telo").expect("position");
    let turn = telo.parse_turn("b2").expect("legal");
    assert_eq!(
        words::turn_words(&turn, Side::Black).to_string(),
        "Black places a stone on b2"
    );
}

#[test]
fn arrows_follow_the_view() {
    // From White's side up is a rank further, right a file further; from Black's side
    // (turned half a circle) the other way round; a quarter turn swaps them.
    assert_eq!(board_step(0.0, (0, 1)), (0, 1));
    assert_eq!(board_step(0.0, (1, 0)), (1, 0));
    assert_eq!(board_step(std::f32::consts::PI, (0, 1)), (0, -1));
    assert_eq!(board_step(std::f32::consts::PI, (1, 0)), (-1, 0));
    assert_eq!(board_step(std::f32::consts::FRAC_PI_2, (1, 0)), (0, 1));
}

/// A whole game with the keyboard alone, two people: "9/9/1B7/9/W1B6 w" (White a1; Black c1
/// and b3). White must capture: a1-b1A takes c1, then b1 could go on (b1-b2A takes b3) but
/// White ends the chain with End. Black must capture: b3-b2A takes b1, White's last stone,
/// and Black wins.
#[test]
fn a_whole_game_by_keyboard() {
    let mut app = client_app(
        Position::from_fen("9/9/1B7/9/W1B6 w").expect("position"),
        Screen::Playing,
    );
    // The first arrow shows the cursor on the stone that must capture.
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(cursor(&app).as_deref(), Some("a1"));
    assert!(announced(&app).starts_with("a1, White stone, can capture"));
    tap(&mut app, KeyCode::Enter);
    assert_eq!(
        game(&app).selected().map(|p| p.to_string()).as_deref(),
        Some("a1")
    );
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(cursor(&app).as_deref(), Some("b1"));
    assert!(
        announced(&app).contains("capture here"),
        "{}",
        announced(&app)
    );
    tap(&mut app, KeyCode::Space);
    assert_eq!(game(&app).partial_steps().len(), 1);
    // End ends the chain: the turn is played and announced.
    tap(&mut app, KeyCode::End);
    assert_eq!(turns(&app), ["a1-b1A"]);
    assert_eq!(
        announced(&app),
        "White a1 to b1, approach, captures 1. Black to move"
    );
    // Black: up twice to b3, select, down to b2, step.
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::ArrowUp);
    assert_eq!(cursor(&app).as_deref(), Some("b3"));
    tap(&mut app, KeyCode::Enter);
    tap(&mut app, KeyCode::ArrowDown);
    tap(&mut app, KeyCode::Enter);
    assert_eq!(turns(&app), ["a1-b1A", "b3-b2A"]);
    let outcome = game(&app).outcome().expect("the game is over");
    assert_eq!(outcome.winner, Some(Side::Black));
    assert_eq!(outcome.reason, EndReason::NoStones);
    assert_eq!(
        announced(&app),
        "Black b3 to b2, approach, captures 1. Black wins: all stones of the loser were \
         captured."
    );
}

#[test]
fn choosing_approach_or_withdrawal_and_buttons_by_keyboard() {
    // At the start d3-e3 captures either f3 (approach) or c3 (withdrawal).
    let mut app = client_app(Position::standard(), Screen::Playing);
    tap(&mut app, KeyCode::ArrowUp);
    // The cursor starts on the first stone that must capture (d2, lowest index), moves to
    // d3, selects it and steps right to e3: the game asks which.
    let start = cursor(&app).expect("shown");
    assert_eq!(start, "d2");
    tap(&mut app, KeyCode::ArrowUp);
    tap(&mut app, KeyCode::Enter);
    tap(&mut app, KeyCode::ArrowRight);
    assert_eq!(cursor(&app).as_deref(), Some("e3"));
    tap(&mut app, KeyCode::Enter);
    assert!(game(&app).choice().is_some());
    // Moving the cursor onto f3 says it is the approach line; Enter there takes it.
    tap(&mut app, KeyCode::ArrowRight);
    assert!(
        announced(&app).contains("approach line"),
        "{}",
        announced(&app)
    );
    tap(&mut app, KeyCode::Enter);
    assert_eq!(turns(&app), ["d3-e3A"]);
    // Tab leaves the board for the panel's first button (Undo); Enter presses it.
    tap(&mut app, KeyCode::Tab);
    let focused = app
        .world()
        .resource::<Focus>()
        .0
        .expect("a button has the focus");
    assert_eq!(
        app.world().get::<Action>(focused),
        Some(&Action::Game(crate::game::flow::Command::Undo))
    );
    tap(&mut app, KeyCode::Enter);
    assert!(turns(&app).is_empty());
    assert_eq!(announced(&app), "Turn taken back. White to move");
    // Shift+Tab comes back to the board, whose cursor is where it was.
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ShiftLeft);
    tap(&mut app, KeyCode::Tab);
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .release(KeyCode::ShiftLeft);
    assert_eq!(app.world().resource::<Focus>().0, None);
    assert_eq!(cursor(&app).as_deref(), Some("f3"));
    // Every focusable button of the game screen is reachable: Tab goes round them all.
    let count = app
        .world_mut()
        .query::<&Focusable>()
        .iter(app.world())
        .count();
    assert!(count >= 14, "{count} focusable buttons");
    for _ in 0..count {
        tap(&mut app, KeyCode::Tab);
        assert!(app.world().resource::<Focus>().0.is_some());
    }
    tap(&mut app, KeyCode::Tab);
    assert_eq!(app.world().resource::<Focus>().0, None);
}

#[test]
fn the_screen_reader_sees_buttons_texts_the_board_and_the_announcements() {
    let mut app = client_app(Position::standard(), Screen::Menu);
    app.world_mut().resource_mut::<Settings>().mode = crate::settings::Mode::TwoPlayers;
    app.update();
    let nodes: Vec<(Role, Option<String>, Option<String>)> = app
        .world_mut()
        .query::<&AccessibilityNode>()
        .iter(app.world())
        .map(|n| {
            (
                n.role(),
                n.label().map(str::to_string),
                n.value().map(str::to_string),
            )
        })
        .collect();
    let has = |role: Role, label: &str| {
        nodes
            .iter()
            .any(|(r, l, _)| *r == role && l.as_deref() == Some(label))
    };
    // Buttons by their text; a setting's button by its name and value.
    assert!(has(Role::Button, "Start new game [Ctrl+N]"), "{nodes:?}");
    assert!(has(Role::Button, "Players: Two players"), "{nodes:?}");
    assert!(has(Role::Button, "High contrast: Off"), "{nodes:?}");
    assert!(
        nodes
            .iter()
            .any(|(r, _, v)| *r == Role::Label && v.as_deref() == Some("Fanorona"))
    );
    // Changing a setting renames its button.
    app.world_mut()
        .write_message(Act::new(Action::Cycle(crate::ui::Choice::Contrast)));
    app.update();
    app.update();
    let labels: Vec<String> = app
        .world_mut()
        .query::<&AccessibilityNode>()
        .iter(app.world())
        .filter_map(|n| n.label().map(str::to_string))
        .collect();
    assert!(
        labels.iter().any(|l| l == "High contrast: On"),
        "{labels:?}"
    );
    // The live region is a polite status whose value is the newest announcement.
    app.world_mut().write_message(Act::new(Action::Continue));
    app.update();
    app.update();
    send(
        &mut app,
        crate::game::flow::Command::PlayText("f2-e3A".into()),
    );
    app.update();
    let live = app
        .world_mut()
        .query_filtered::<&AccessibilityNode, With<LiveRegion>>()
        .single(app.world())
        .expect("the live region")
        .clone();
    assert_eq!(live.role(), Role::Status);
    assert_eq!(live.live(), Some(Live::Polite));
    assert_eq!(
        live.value(),
        Some("White f2 to e3, approach, captures 2. Black to move")
    );
    // On the game screen the board has AccessKit's focus, named with the cursor's point.
    tap(&mut app, KeyCode::ArrowLeft);
    let board = app
        .world_mut()
        .query_filtered::<(Entity, &AccessibilityNode), With<BoardNode>>()
        .single(app.world())
        .map(|(e, n)| (e, n.label().map(str::to_string)))
        .expect("the board's node");
    assert_eq!(
        app.world().resource::<bevy_input_focus::InputFocus>().get(),
        Some(board.0)
    );
    assert!(
        board
            .1
            .as_deref()
            .is_some_and(|l| l.starts_with("Board, cursor on ")),
        "{board:?}"
    );
}

#[test]
fn high_contrast_and_text_size_are_applied_and_remembered() {
    let mut app = client_app(Position::standard(), Screen::Playing);
    let panel = app
        .world_mut()
        .query_filtered::<Entity, With<crate::ui::panel::LeftPanel>>()
        .single(app.world())
        .expect("the left panel");
    let background = |app: &App| app.world().get::<BackgroundColor>(panel).expect("bg").0;
    let usual = background(&app);
    assert!(super::look::BACKGROUNDS.iter().any(|(u, _)| *u == usual));
    app.world_mut().resource_mut::<Settings>().high_contrast = true;
    app.world_mut().resource_mut::<Settings>().text_size = TextSize::Large;
    app.update();
    app.update();
    let contrast = super::look::BACKGROUNDS
        .iter()
        .find(|(u, _)| *u == usual)
        .map(|(_, c)| *c);
    assert_eq!(Some(background(&app)), contrast);
    // Every text in the theme's colours is white or nearly (no dimmed grey), every button
    // has a white border.
    let colors: Vec<Color> = app
        .world_mut()
        .query::<&TextColor>()
        .iter(app.world())
        .map(|c| c.0)
        .collect();
    assert!(!colors.contains(&crate::ui::theme::DIM));
    assert!(!colors.contains(&crate::ui::theme::TEXT));
    assert!(colors.contains(&Color::WHITE));
    let borders: Vec<Color> = app
        .world_mut()
        .query_filtered::<&BorderColor, With<Button>>()
        .iter(app.world())
        .map(|b| b.top)
        .collect();
    assert!(!borders.is_empty() && borders.iter().all(|c| *c == Color::WHITE));
    // The text size reaches the layout; the UI scale is 1.25 times the window's.
    let layout = *app.world().resource::<crate::ui::layout::Layout>();
    assert_eq!(layout.text_size, TextSize::Large);
    let room = layout.screen_panels();
    assert_eq!(room.left, crate::ui::LEFT_EDGE * 1.25);
    // Off again: the usual colours come back exactly.
    app.world_mut().resource_mut::<Settings>().high_contrast = false;
    app.update();
    assert_eq!(background(&app), usual);
    // Both settings survive a restart.
    let dir = temp_dir("look");
    let path = dir.join("settings.json");
    let settings = Settings {
        high_contrast: true,
        text_size: TextSize::Huge,
        ..Settings::default()
    };
    save_settings(&path, &settings).expect("save");
    let text = std::fs::read_to_string(&path).expect("read");
    assert!(text.contains("\"high-contrast\": true"), "{text}");
    assert!(text.contains("\"text-size\": \"huge\""), "{text}");
    assert_eq!(load_settings(&path).expect("load"), settings);
    let _ = std::fs::remove_dir_all(&dir);
    // The menu cycles them.
    let mut s = Settings::default();
    crate::ui::Choice::TextSize.cycle(&mut s);
    assert_eq!(s.text_size, TextSize::Large);
    crate::ui::Choice::Contrast.cycle(&mut s);
    assert!(s.high_contrast);
    let _: &Match = game(&app);
}
