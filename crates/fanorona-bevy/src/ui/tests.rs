//! Headless tests of the user interface: the confirmation dialog, the menu by keys, the
//! buttons that keep their places, the evaluation in words.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use fanorona_core::{Color as Side, Position};

use super::panel::{ActionSlot, LeftPanel, Live};
use super::widgets::{Act, Action, Confirm, Focus, Focusable};
use crate::Screen;
use crate::game::engine::MinThink;
use crate::game::flow::{Command, Match, Player};
use crate::game::persist::GamesDir;
use crate::test_support::*;

fn ui_app(games: Option<PathBuf>, screen: Screen) -> App {
    use bevy::input::keyboard::KeyboardInput;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(english())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(Match::new(
            Position::standard(),
            [Player::Human, Player::Human],
            1,
        ))
        .insert_resource(GamesDir(games))
        .init_resource::<UiScale>()
        .init_state::<Screen>()
        .insert_state(screen)
        .init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .add_message::<KeyboardInput>()
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::persist::plugin,
            crate::game::engine::plugin,
            crate::game::input::plugin,
            crate::game::export::plugin,
            crate::analysis::plugin,
            crate::analysis::review::plugin,
            crate::tutorial::plugin,
            crate::browser::plugin,
            crate::ui::plugin,
            crate::i18n::plugin,
        ));
    app.update();
    app.update();
    app
}

fn act(app: &mut App, action: Action) {
    app.world_mut().write_message(Act::new(action));
    app.update();
}

fn screen(app: &App) -> Screen {
    *app.world().resource::<State<Screen>>().get()
}

fn pending(app: &App) -> Option<Action> {
    app.world().resource::<Confirm>().0.clone()
}

fn key(app: &mut App, code: KeyCode) {
    press_key(
        app,
        code,
        bevy::input::keyboard::Key::Unidentified(bevy::input::keyboard::NativeKey::Unidentified),
    );
    app.update();
}

fn ctrl_key(app: &mut App, code: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::ControlLeft);
    key(app, code);
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(KeyCode::ControlLeft);
    keys.clear();
}

#[test]
fn resign_and_a_new_game_over_one_in_progress_ask_first() {
    let mut app = ui_app(None, Screen::Playing);
    // Nothing played yet: a new game throws nothing away and asks nothing.
    act(&mut app, Action::Game(Command::NewGame));
    assert_eq!(pending(&app), None);
    send(&mut app, Command::PlayText("f2-e3A".into()));
    assert_eq!(turns(&app), ["f2-e3A"]);
    // Resign asks; Esc says no and the game goes on (and the menu does not open).
    act(&mut app, Action::Game(Command::Resign));
    assert_eq!(pending(&app), Some(Action::Game(Command::Resign)));
    assert!(game(&app).outcome().is_none());
    key(&mut app, KeyCode::Escape);
    assert_eq!(pending(&app), None);
    assert!(game(&app).outcome().is_none());
    assert_eq!(screen(&app), Screen::Playing);
    // Asked again, Enter says yes: Black (to move) resigns.
    act(&mut app, Action::Game(Command::Resign));
    key(&mut app, KeyCode::Enter);
    app.update();
    let outcome = game(&app).outcome().expect("resigned");
    assert_eq!(outcome.winner, Some(Side::White));
    // Over a finished game a new game asks nothing.
    act(&mut app, Action::Game(Command::NewGame));
    assert_eq!(pending(&app), None);
    assert!(turns(&app).is_empty());
    // Ctrl+N over a game in progress asks; the dialog's "yes" button starts it.
    send(&mut app, Command::PlayText("f2-e3A".into()));
    ctrl_key(&mut app, KeyCode::KeyN);
    assert_eq!(pending(&app), Some(Action::Game(Command::NewGame)));
    assert_eq!(turns(&app), ["f2-e3A"]);
    let yes = app
        .world_mut()
        .query::<(Entity, &super::widgets::ConfirmAnswer)>()
        .iter(app.world())
        .find(|(_, a)| a.0)
        .map(|(e, _)| e)
        .expect("the dialog shows a yes button");
    app.world_mut().entity_mut(yes).insert(Interaction::Pressed);
    app.update();
    app.update();
    assert_eq!(pending(&app), None);
    assert!(turns(&app).is_empty());
}

#[test]
fn the_menu_is_used_by_keys() {
    let dir = temp_dir("menu-keys");
    let mut app = ui_app(Some(dir.clone()), Screen::Playing);
    // Esc drops a selection first (f2 can capture, so it can be selected).
    click(&mut app, "f2");
    assert!(game(&app).selected().is_some());
    key(&mut app, KeyCode::Escape);
    assert_eq!(screen(&app), Screen::Playing);
    assert!(game(&app).selected().is_none());
    send(&mut app, Command::PlayText("f2-e3A".into()));
    // Ctrl+S saves the game.
    ctrl_key(&mut app, KeyCode::KeyS);
    app.update();
    let saved = std::fs::read_dir(&dir).expect("games folder").count();
    assert_eq!(saved, 1, "Ctrl+S saved one record");
    // With nothing to drop, Esc opens the menu.
    key(&mut app, KeyCode::Escape);
    assert_eq!(screen(&app), Screen::Menu);
    app.update();
    // The focus starts on the first button ("Back to the game"); Tab and the arrows move it.
    let order = |app: &mut App| -> Vec<(u32, Entity, Action)> {
        let mut all: Vec<(u32, Entity, Action)> = app
            .world_mut()
            .query::<(Entity, &Focusable, &Action)>()
            .iter(app.world())
            .map(|(e, f, a)| (f.0, e, a.clone()))
            .collect();
        all.sort_by_key(|(f, e, _)| (*f, *e));
        all
    };
    let buttons = order(&mut app);
    assert_eq!(buttons[0].2, Action::Continue);
    assert_eq!(buttons[1].2, Action::Start);
    assert!(
        buttons
            .iter()
            .any(|(_, _, a)| *a == Action::Cycle(crate::ui::Choice::Level))
    );
    let focused = |app: &App| app.world().resource::<Focus>().0;
    assert_eq!(focused(&app), Some(buttons[0].1));
    key(&mut app, KeyCode::Tab);
    assert_eq!(focused(&app), Some(buttons[1].1));
    key(&mut app, KeyCode::ArrowUp);
    assert_eq!(focused(&app), Some(buttons[0].1));
    key(&mut app, KeyCode::ArrowUp);
    assert_eq!(focused(&app), Some(buttons.last().expect("buttons").1));
    // The focused button is outlined.
    let outline = app
        .world()
        .get::<Outline>(buttons.last().expect("buttons").1)
        .expect("an outline");
    assert_eq!(outline.color, crate::ui::ACCENT);
    // Back to "Start new game" and Enter: the game in progress is thrown away only after a
    // yes (Enter again).
    key(&mut app, KeyCode::ArrowDown);
    key(&mut app, KeyCode::Tab);
    assert_eq!(focused(&app), Some(buttons[1].1));
    key(&mut app, KeyCode::Enter);
    assert_eq!(pending(&app), Some(Action::Start));
    assert_eq!(screen(&app), Screen::Menu);
    key(&mut app, KeyCode::Enter);
    app.update();
    assert_eq!(screen(&app), Screen::Playing);
    assert!(turns(&app).is_empty());
    // F10 opens the menu, Esc goes back to the game.
    key(&mut app, KeyCode::F10);
    assert_eq!(screen(&app), Screen::Menu);
    key(&mut app, KeyCode::Escape);
    assert_eq!(screen(&app), Screen::Playing);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Everything above each always-shown button of the left panel, in the panel's order: the
/// entity, its display and (for a text) its number of lines.
fn above_buttons(app: &mut App) -> Vec<(Entity, Display, usize)> {
    let panel = app
        .world_mut()
        .query_filtered::<Entity, With<LeftPanel>>()
        .single(app.world())
        .expect("the left panel");
    let children: Vec<Entity> = app
        .world()
        .get::<Children>(panel)
        .expect("panel children")
        .iter()
        .collect();
    let slot = children
        .iter()
        .position(|c| app.world().get::<ActionSlot>(*c).is_some())
        .expect("the slot of the situation's buttons");
    children[..=slot]
        .iter()
        .map(|&c| {
            let display = app
                .world()
                .get::<Node>(c)
                .map_or(Display::Flex, |n| n.display);
            let lines = app
                .world()
                .get::<Text>(c)
                .map_or(0, |t| t.0.lines().count());
            (c, display, lines)
        })
        .collect()
}

#[test]
fn the_buttons_keep_their_places_when_the_texts_grow() {
    let mut app = ui_app(None, Screen::Playing);
    let before = above_buttons(&mut app);
    // Above the fixed buttons: the title and two lines of one line each; no text that can
    // grow (message, analysis, clocks, thinking) comes before a button.
    let live_above: Vec<Live> = before
        .iter()
        .filter_map(|(e, _, _)| app.world().get::<Live>(*e).copied())
        .collect();
    assert_eq!(live_above, [Live::Turn, Live::Stones]);
    // The situation's buttons appear in a slot of fixed height.
    let slot = before.last().expect("the slot").0;
    assert!(matches!(
        app.world().get::<Node>(slot).expect("node").height,
        Val::Px(h) if h > 20.0
    ));
    // Now everything that changes: a long message, analysis on, a chain in progress (End
    // turn shows), then the approach-or-withdrawal choice, a draw offer hidden.
    app.world_mut().resource_mut::<Match>().set_message(
        crate::i18n::Msg::new("flow-refused")
            .with("error", "A long message\nthat takes\nthree lines"),
    );
    app.world_mut()
        .write_message(crate::analysis::AnalysisRequest::Toggle);
    app.update();
    *app.world_mut().resource_mut::<Match>() = Match::new(
        Position::from_fen(CHAIN).expect("valid"),
        [Player::Human, Player::Human],
        1,
    );
    app.update();
    click(&mut app, "a1");
    click(&mut app, "b1");
    app.update();
    assert!(game(&app).can_end_turn(), "{}", game(&app).message());
    let during = above_buttons(&mut app);
    assert_eq!(before.len(), during.len());
    for ((e1, d1, l1), (e2, d2, l2)) in before.iter().zip(&during) {
        assert_eq!(
            (e1, d1),
            (e2, d2),
            "a node above the buttons changed its display"
        );
        assert!(*l1 <= 1 && *l2 <= 1, "one line each");
    }
    // The Offer draw button is only hidden when it does not apply, never removed.
    let draw = app
        .world_mut()
        .query::<(&Action, &Node)>()
        .iter(app.world())
        .find(|(a, _)| **a == Action::Game(Command::OfferDraw))
        .map(|(_, n)| n.display)
        .expect("an Offer draw button");
    assert_eq!(draw, Display::Flex);
}

#[test]
fn the_evaluation_has_a_unit() {
    use crate::analysis::Report;
    use fanorona_ai::Score;
    let report = |score: Score, side: Side| Report {
        depth: 4,
        score,
        side,
        pv: Vec::new(),
        nodes: 10,
        finished: true,
        lines: Vec::new(),
    };
    let words = |r: &Report| super::panel::evaluation_words(r).to_string();
    assert_eq!(
        words(&report(Score::Cp(125), Side::White)),
        "White is 1.25 stones ahead"
    );
    assert_eq!(
        words(&report(Score::Cp(100), Side::Black)),
        "Black is 1.00 stone ahead"
    );
    assert_eq!(
        words(&report(Score::Cp(-250), Side::Black)),
        "White is 2.50 stones ahead"
    );
    assert_eq!(words(&report(Score::Cp(4), Side::White)), "about equal");
    assert_eq!(
        words(&report(Score::Win(3), Side::Black)),
        "Black wins in 3"
    );
}

#[test]
fn the_panel_text_follows_the_board_not_the_game() {
    let mut app = ui_app(None, Screen::Playing);
    *app.world_mut().resource_mut::<Match>() = Match::new(
        Position::from_fen(CHAIN).expect("valid"),
        [Player::Human, Player::Human],
        1,
    );
    app.update();
    let text = |app: &mut App, which: Live| -> String {
        app.world_mut()
            .query::<(&Live, &Text)>()
            .iter(app.world())
            .find(|(l, _)| **l == which)
            .map(|(_, t)| t.0.clone())
            .expect("the live text")
    };
    // Three black stones: c1, b3, i5; the chain's first capture takes c1 at once.
    assert_eq!(text(&mut app, Live::Stones), "Stones: White 1, Black 3");
    click(&mut app, "a1");
    click(&mut app, "b1");
    app.update();
    assert!(!game(&app).partial_steps().is_empty());
    assert_eq!(text(&mut app, Live::Stones), "Stones: White 1, Black 2");
    // While stones move, the lines about the board wait for the board (a click waits for the
    // animation too, so the step is played here directly).
    app.world_mut()
        .resource_mut::<crate::game::flow::Animating>()
        .0 = true;
    app.world_mut()
        .resource_mut::<Match>()
        .apply(&Command::Click(pt("b2")));
    app.update();
    assert_eq!(text(&mut app, Live::Stones), "Stones: White 1, Black 2");
    app.world_mut()
        .resource_mut::<crate::game::flow::Animating>()
        .0 = false;
    app.update();
    assert_eq!(text(&mut app, Live::Stones), "Stones: White 1, Black 1");
    // Looking back, the header is about the position on the board.
    send(&mut app, Command::View(Some(0)));
    app.update();
    assert_eq!(text(&mut app, Live::Turn), "At the start: White to move");
    assert_eq!(text(&mut app, Live::Stones), "Stones: White 1, Black 3");
}
