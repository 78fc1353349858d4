//! Helpers shared by the headless tests of every folder (one test binary): an `App` with
//! `MinimalPlugins`, simulated clicks, keys and buttons as messages, assertions on the world.
//! Expected turns and captures are worked out by hand from the rules of the game.

#![allow(dead_code, reason = "each folder's tests use some of the helpers")]

use std::path::PathBuf;
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fanorona_core::{Bitboard, BoardSize, Point, Position, Turn};

use crate::game::engine::MinThink;
use crate::game::flow::{BoardView, Command, Match, Player};
use crate::settings::Settings;

pub(crate) fn pt(name: &str) -> Point {
    BoardSize::STANDARD
        .parse_point(name)
        .expect("a point of the standard board")
}

pub(crate) fn bits(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b | pt(n).bit())
}

/// The default settings, in English whatever the machine's locale (tests read English texts).
pub(crate) fn english() -> Settings {
    Settings {
        language: Some(crate::i18n::Language::English),
        ..Settings::default()
    }
}

pub(crate) fn app_with(game: Match) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(english())
        .insert_resource(game)
        .insert_resource(MinThink(Duration::ZERO))
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::persist::plugin,
            crate::game::engine::plugin,
        ));
    app.update();
    app
}

pub(crate) fn two_people(position: Position) -> App {
    app_with(Match::new(position, [Player::Human, Player::Human], 1))
}

pub(crate) fn send(app: &mut App, command: Command) {
    app.world_mut().write_message(command);
    app.update();
}

pub(crate) fn click(app: &mut App, point: &str) {
    send(app, Command::Click(pt(point)));
}

pub(crate) fn game(app: &App) -> &Match {
    app.world().resource::<Match>()
}

pub(crate) fn view(app: &App) -> &BoardView {
    app.world().resource::<BoardView>()
}

pub(crate) fn turns(app: &App) -> Vec<String> {
    game(app)
        .game()
        .turns()
        .iter()
        .map(Turn::to_string)
        .collect()
}

/// Temporary directory unique to one test.
pub(crate) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fanorona-bevy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

// A single white stone on a1, black on c1 and b3, and a black stone far away on i5:
// a1-b1A captures c1, then b1-b2A may capture b3.
pub(crate) const CHAIN: &str = "8B/9/1B7/9/W1B6 w";

pub(crate) fn press_key(app: &mut App, code: KeyCode, key: bevy::input::keyboard::Key) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::KeyboardInput;
    app.world_mut().write_message(KeyboardInput {
        key_code: code,
        logical_key: key,
        state: ButtonState::Pressed,
        text: None,
        repeat: false,
        window: Entity::PLACEHOLDER,
    });
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(code);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(code);
    keys.clear();
}

/// Updates `app` until `done`, failing after 30 seconds.
pub(crate) fn update_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(app) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
}
