//! Headless tests of the level slider and the rating from the results against the levels.

use std::time::Duration;

use bevy::prelude::*;
use fanorona_ai::Level;
use fanorona_core::{Color as Side, Position};

use super::{LevelStep, estimate, level_of, level_text, record};
use crate::Screen;
use crate::game::engine::MinThink;
use crate::game::flow::{Command, Match, Player};
use crate::game::persist::GamesDir;
use crate::settings::Settings;
use crate::test_support::*;
use crate::ui::widgets::{Act, Action};

fn menu_app(game: Match) -> App {
    use bevy::input::keyboard::KeyboardInput;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(Settings::default())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(game)
        .insert_resource(GamesDir(None))
        .init_resource::<UiScale>()
        .init_state::<Screen>()
        .insert_state(Screen::Menu)
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
            super::plugin,
        ));
    app.update();
    app.update();
    app
}

#[test]
fn the_level_slider_offers_every_level_and_chooses_one() {
    let mut app = menu_app(Match::new(
        Position::standard(),
        [Player::Human, Player::Human],
        1,
    ));
    assert!(Level::ALL.len() >= 8);
    let mut steps: Vec<u8> = app
        .world_mut()
        .query::<&LevelStep>()
        .iter(app.world())
        .map(|s| s.0)
        .collect();
    steps.sort_unstable();
    let all: Vec<u8> = (1..=Level::ALL.len() as u8).collect();
    assert_eq!(steps, all);
    // The default: the beginner, the second level from the bottom.
    assert_eq!(
        level_of(app.world().resource::<Settings>().level()),
        Level::Beginner
    );
    // A segment pressed: that level.
    app.world_mut().write_message(Act::new(Action::Level(7)));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Settings>().level(), 7);
    assert_eq!(level_of(7), Level::ALL[6]);
    let fill: Vec<(u8, Color)> = app
        .world_mut()
        .query::<(&LevelStep, &BackgroundColor)>()
        .iter(app.world())
        .map(|(s, b)| (s.0, b.0))
        .collect();
    for (number, color) in fill {
        let filled = color == crate::ui::ACCENT;
        assert_eq!(filled, number <= 7, "level {number}");
    }
    let text = crate::i18n::Tr::english().msg(&level_text(7));
    assert!(text.contains(Level::ALL[6].name()), "{text}");
    // Out of range: clamped to the strongest.
    app.world_mut().write_message(Act::new(Action::Level(200)));
    app.update();
    assert_eq!(
        app.world().resource::<Settings>().level(),
        Level::ALL.len() as u8
    );
}

#[test]
fn a_finished_game_against_the_engine_counts_once_for_the_rating() {
    // White a1 takes Black's last stone with a1-b1A: the person (White) wins against the
    // engine at level 2.
    let mut app = menu_app(Match::new(
        Position::from_fen("9/9/9/9/W1B6 w").expect("valid"),
        [Player::Human, Player::Engine],
        2,
    ));
    assert!(estimate(app.world().resource::<Settings>()).is_none());
    send(&mut app, Command::PlayText("a1-b1A".into()));
    app.update();
    app.update();
    let settings = app.world().resource::<Settings>();
    assert_eq!(settings.level_results.len(), 1);
    let counted = settings.level_results.clone();
    let r = &settings.level_results[0];
    assert_eq!(
        (r.level.as_str(), r.wins, r.draws, r.losses),
        ("beginner", 1, 0, 0)
    );
    let rating = estimate(settings).expect("one game");
    assert_eq!(rating.games, 1);
    // A win is evidence of more than the level's strength.
    assert!(rating.elo > f64::from(Level::Beginner.elo()));
    // A finished game opened afterwards (a record) is not a result of the person's.
    let mut finished =
        fanorona_core::Game::new(Position::from_fen("9/9/9/9/W1B6 w").expect("valid"));
    let turn = finished.position().parse_turn("a1-b1A").expect("legal");
    finished.play(&turn).expect("legal");
    app.insert_resource(Match::from_game(
        finished,
        [Player::Human, Player::Engine],
        2,
    ));
    app.update();
    app.update();
    assert_eq!(app.world().resource::<Settings>().level_results, counted);
}

#[test]
fn results_add_up_per_level() {
    let mut settings = Settings::default();
    record(&mut settings, 2, Side::White, Some(Side::White));
    record(&mut settings, 2, Side::Black, Some(Side::White));
    record(&mut settings, 2, Side::White, None);
    record(&mut settings, 3, Side::Black, Some(Side::Black));
    let summary: Vec<(String, u32, u32, u32)> = settings
        .level_results
        .iter()
        .map(|r| (r.level.clone(), r.wins, r.draws, r.losses))
        .collect();
    assert_eq!(
        summary,
        [
            (Level::ALL[1].name().to_string(), 1, 1, 1),
            (Level::ALL[2].name().to_string(), 1, 0, 0)
        ]
    );
    // Even against one level: that level's Elo.
    let mut even = Settings::default();
    record(&mut even, 5, Side::White, Some(Side::White));
    record(&mut even, 5, Side::White, Some(Side::Black));
    let r = estimate(&even).expect("games");
    assert!(
        (r.elo - f64::from(Level::ALL[4].elo())).abs() < 0.5,
        "{}",
        r.elo
    );
}
