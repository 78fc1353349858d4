//! Headless tests of the Puzzles screen, with small puzzles whose solutions are worked out by
//! hand from the rules.

use std::sync::Arc;
use std::time::Duration;

use bevy::prelude::*;
use fanorona_ai::puzzles::{Puzzle, PuzzleKind, PuzzleSet, Theme};
use fanorona_core::{BoardSize, Position};

use super::{Attempt, PuzzleCommand, PuzzleLibrary, PuzzleScreen, next_puzzle};
use crate::game::engine::MinThink;
use crate::game::flow::Command;
use crate::settings::Settings;
use crate::test_support::*;

/// White a1 against Black c1 and b3: a1-b1A takes c1 and the same stone goes on with b1-b2A,
/// taking b3, Black's last stone. a1-b1A is the only capture, so the only first step.
fn chain_puzzle(id: &str, fen: &str, rating: u16) -> Puzzle {
    let position = Position::from_fen(fen).expect("valid");
    let turn = position.parse_turn("a1-b1A-b2A").expect("legal");
    Puzzle::new(
        id,
        position,
        vec![turn],
        PuzzleKind::WinIn { turns: 1 },
        vec![Theme::Endgame],
        rating,
    )
    .expect("a well-formed puzzle")
}

/// White a1 can take c1, d1 and e1 by approach (a1-b1A) or only a3 (a1-a2A).
fn choice_puzzle() -> Puzzle {
    let position = Position::from_fen("8W/9/B8/9/W1BBB4 w").expect("valid");
    let turn = position.parse_turn("a1-b1A").expect("legal");
    Puzzle::new(
        "three",
        position,
        vec![turn],
        PuzzleKind::Tactic { depth: 4 },
        vec![],
        1500,
    )
    .expect("a well-formed puzzle")
}

fn puzzle_app(puzzles: Vec<Puzzle>) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(Settings::default())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(PuzzleLibrary(Arc::new(
            PuzzleSet::new(puzzles).expect("distinct ids"),
        )))
        .init_state::<crate::Screen>()
        .add_plugins((crate::game::flow::plugin, super::plugin));
    app.update();
    app.world_mut().write_message(PuzzleCommand::Open);
    app.update();
    app.update();
    app
}

fn screen(app: &App) -> &PuzzleScreen {
    app.world().resource::<PuzzleScreen>()
}

/// The screen's feedback in English.
fn feedback(app: &App) -> String {
    crate::i18n::Tr::english().msg(&screen(app).feedback)
}

fn settings(app: &App) -> &Settings {
    app.world().resource::<Settings>()
}

#[test]
fn a_puzzle_solved_step_by_step_raises_the_rating_and_the_streak() {
    let mut app = puzzle_app(vec![chain_puzzle("chain", "9/9/1B7/9/W1B6 w", 1500)]);
    assert_eq!(
        screen(&app).puzzle.as_ref().map(|p| p.id().to_string()),
        Some("chain".into())
    );
    assert_eq!(
        *app.world().resource::<State<crate::Screen>>().get(),
        crate::Screen::Playing
    );
    click(&mut app, "a1");
    click(&mut app, "b1");
    // One step of the chain: go on.
    assert_eq!(screen(&app).attempt, Attempt::Solving);
    click(&mut app, "b2");
    assert_eq!(turns(&app), ["a1-b1A-b2A"]);
    assert_eq!(screen(&app).attempt, Attempt::Solved);
    assert!(
        feedback(&app).starts_with("Solved: a1-b1A-b2A wins. Rating"),
        "{}",
        feedback(&app)
    );
    assert!(settings(&app).puzzle_rating > 1500.0);
    assert!(settings(&app).puzzle_deviation < 350.0);
    assert_eq!(
        (
            settings(&app).puzzle_streak,
            settings(&app).puzzle_best_streak
        ),
        (1, 1)
    );
}

#[test]
fn a_chain_stopped_early_is_a_miss_and_the_solution_is_shown() {
    let mut app = puzzle_app(vec![chain_puzzle("chain", "9/9/1B7/9/W1B6 w", 1500)]);
    app.world_mut().resource_mut::<Settings>().puzzle_streak = 4;
    click(&mut app, "a1");
    click(&mut app, "b1");
    send(&mut app, Command::EndTurn);
    assert_eq!(screen(&app).attempt, Attempt::Missed);
    let said = feedback(&app);
    assert!(said.contains("a1-b1A stops the chain too early"), "{said}");
    assert!(said.contains("The solution: a1-b1A-b2A"), "{said}");
    assert!(settings(&app).puzzle_rating < 1500.0);
    assert_eq!(settings(&app).puzzle_streak, 0);
    // The position again, with the solution's arrow.
    app.update();
    app.update();
    assert!(turns(&app).is_empty());
    assert_eq!(
        game(&app).hint().map(|t| t.to_string()),
        Some("a1-b1A-b2A".into())
    );
    // Playing the solution now: solved, not rated again.
    let rating = settings(&app).puzzle_rating;
    send(&mut app, Command::PlayText("a1-b1A-b2A".into()));
    assert_eq!(screen(&app).attempt, Attempt::Solved);
    assert_eq!(settings(&app).puzzle_rating, rating);
}

#[test]
fn a_wrong_turn_fails_the_puzzle() {
    let mut app = puzzle_app(vec![choice_puzzle()]);
    send(&mut app, Command::PlayText("a1-a2A".into()));
    assert_eq!(screen(&app).attempt, Attempt::Missed);
    assert!(
        feedback(&app).contains("a1-a2A is not the solution"),
        "{}",
        feedback(&app)
    );
    assert!(settings(&app).puzzle_rating < 1500.0);
    // Again: the same puzzle, not rated a second time.
    app.world_mut().write_message(PuzzleCommand::Retry);
    app.update();
    app.update();
    assert_eq!(screen(&app).attempt, Attempt::Solving);
    let rating = settings(&app).puzzle_rating;
    send(&mut app, Command::PlayText("a1-b1A".into()));
    assert_eq!(screen(&app).attempt, Attempt::Solved);
    assert_eq!(settings(&app).puzzle_rating, rating);
}

#[test]
fn filters_by_board_and_theme_and_the_daily_puzzle() {
    let big = chain_puzzle("big", "9/9/1B7/9/W1B6 w", 1500);
    let small = chain_puzzle("small", "5/5/1B3/5/W1B2 w", 1500);
    let mut app = puzzle_app(vec![big.clone(), small.clone(), choice_puzzle()]);
    let board = |app: &App| screen(app).puzzle.as_ref().map(Puzzle::size);
    // All boards, then 5x9, then 5x5.
    app.world_mut().write_message(PuzzleCommand::CycleBoard);
    app.update();
    app.update();
    assert_eq!(screen(&app).board, Some(BoardSize::STANDARD));
    assert_eq!(board(&app), Some(BoardSize::STANDARD));
    app.world_mut().write_message(PuzzleCommand::CycleBoard);
    app.update();
    app.update();
    assert_eq!(board(&app), Some(BoardSize::DIMY));
    assert_eq!(game(&app).size(), BoardSize::DIMY);
    // The endgame theme on 5x5: the small chain.
    app.world_mut().write_message(PuzzleCommand::CycleTheme);
    app.world_mut().write_message(PuzzleCommand::CycleTheme);
    app.world_mut().write_message(PuzzleCommand::CycleTheme);
    app.world_mut().write_message(PuzzleCommand::CycleTheme);
    app.update();
    app.update();
    assert_eq!(screen(&app).theme, Some(Theme::Endgame));
    assert_eq!(
        screen(&app).puzzle.as_ref().map(|p| p.id().to_string()),
        Some("small".into())
    );
    // The daily puzzle of the 5x5 board: the set's choice for today.
    app.world_mut().write_message(PuzzleCommand::Daily);
    app.update();
    app.update();
    let set = app.world().resource::<PuzzleLibrary>().0.clone();
    let today = fanorona_ai::puzzles::day_number(std::time::SystemTime::now());
    assert!(screen(&app).daily);
    assert_eq!(
        screen(&app).puzzle.as_ref().map(|p| p.id().to_string()),
        set.daily(today, Some(BoardSize::DIMY))
            .map(|p| p.id().to_string())
    );
    // The next puzzle is the nearest to the player's rating not seen yet.
    let easy = chain_puzzle("easy", "9/9/1B7/9/W1B6 w", 900);
    let set = PuzzleSet::new(vec![easy, big]).expect("ids");
    assert_eq!(
        next_puzzle(&set, None, None, 1000.0, &[]).map(Puzzle::id),
        Some("easy")
    );
    assert_eq!(
        next_puzzle(&set, None, None, 1000.0, &["easy".into()]).map(Puzzle::id),
        Some("big")
    );
    let _ = small;
}

#[test]
fn the_shipped_set_opens() {
    let library = PuzzleLibrary::default();
    assert!(library.0.filter(Some(BoardSize::STANDARD), None).count() > 0);
}
