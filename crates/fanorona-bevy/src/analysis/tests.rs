//! Headless tests of the hint, analysis mode and the review.

#![allow(
    unused_imports,
    reason = "the imports shared by the client's test modules"
)]

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fanorona_core::{
    Bitboard, BoardSize, Color as Side, Direction, EndReason, Game, Point, Position, StepKind, Turn,
};

use crate::cli::LaunchOptions;
use crate::game::engine::{Engine, EngineAdapter, MinThink, Thinking};
use crate::game::flow::{BoardView, Command, Match, Player, StepPlayed};
use crate::game::persist::{GamesDir, Persist, PersistStatus, parse_record_text, record_text};
use crate::settings::{Settings, load_settings, save_settings};
use crate::test_support::*;

fn with_analysis(mut app: App) -> App {
    app.add_plugins(crate::analysis::plugin);
    app.update();
    app
}

#[test]
fn a_hint_is_drawn_as_the_path_of_a_legal_turn() {
    use crate::analysis::AnalysisRequest;
    let mut app = with_analysis(two_people(Position::standard()));
    app.world_mut().write_message(AnalysisRequest::Hint);
    app.update();
    update_until(&mut app, "a hint", |app| game(app).hint().is_some());
    let hint = game(&app).hint().expect("a hint");
    let openings = ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"];
    assert!(openings.contains(&hint.to_string().as_str()), "{hint}");
    assert_eq!(view(&app).hint, hint.path().collect::<Vec<_>>());
    assert!(
        game(&app).message().to_string().contains("Hint"),
        "{}",
        game(&app).message()
    );
    // Playing a turn makes the hint go away.
    send(&mut app, Command::PlayText(hint.to_string()));
    assert!(game(&app).hint().is_none());
    assert!(view(&app).hint.is_empty());
}

#[test]
fn a_hint_finds_the_winning_capture() {
    use crate::analysis::AnalysisRequest;
    // White a1 captures the last black stone with a1-b1A; any other turn does not win.
    let mut app = with_analysis(two_people(
        Position::from_fen("9/9/9/9/W1B6 w").expect("valid"),
    ));
    app.world_mut().write_message(AnalysisRequest::Hint);
    app.update();
    update_until(&mut app, "a hint", |app| game(app).hint().is_some());
    assert_eq!(
        game(&app).hint().map(|t| t.to_string()),
        Some("a1-b1A".into())
    );
    assert_eq!(view(&app).hint, vec![pt("a1"), pt("b1")]);
}

#[test]
fn analysis_mode_reports_depth_score_and_line_as_it_thinks() {
    use crate::analysis::{Analysis, AnalysisRequest};
    let mut app = with_analysis(two_people(
        Position::from_fen("9/9/9/9/W1B6 w").expect("valid"),
    ));
    app.world_mut().write_message(AnalysisRequest::Toggle);
    app.update();
    assert!(app.world().resource::<Analysis>().enabled);
    update_until(&mut app, "a report", |app| {
        let g = game(app).generation();
        app.world().resource::<Analysis>().report(g).is_some()
    });
    let g = game(&app).generation();
    let report = app
        .world()
        .resource::<Analysis>()
        .report(g)
        .expect("report")
        .clone();
    assert!(report.depth >= 1);
    assert_eq!(
        report.pv.first().map(|t| t.to_string()),
        Some("a1-b1A".into())
    );
    assert_eq!(report.score_text().to_string(), "White wins in 1");
    assert!((report.white_share() - 1.0).abs() < 1e-6);
    // a1-a2 is refused (capture is compulsory): the same position keeps its report.
    send(&mut app, Command::PlayText("a1-a2".into()));
    assert!(turns(&app).is_empty());
    assert_eq!(game(&app).generation(), g);
    assert!(app.world().resource::<Analysis>().report(g).is_some());
    // A new position does not show the old report.
    send(&mut app, Command::PlayText("a1-b1A".into()));
    let g3 = game(&app).generation();
    assert!(app.world().resource::<Analysis>().report(g3).is_none());
    // The game is over: nothing more to analyse, and no search runs.
    app.update();
    assert!(!app.world().resource::<Analysis>().searching());
    app.world_mut().write_message(AnalysisRequest::Toggle);
    app.update();
    assert!(!app.world().resource::<Analysis>().enabled);
}

/// The five legal first turns of the standard game (worked out by hand: only the stones next
/// to the empty centre e3 can move, and each move there captures).
const OPENINGS: [&str; 5] = ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"];

fn first_turns(app: &App) -> Vec<String> {
    let g = game(app).generation();
    app.world()
        .resource::<crate::analysis::Analysis>()
        .report(g)
        .map(|r| {
            r.lines
                .iter()
                .filter_map(|l| l.pv.first().map(ToString::to_string))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn analysis_shows_the_best_lines_each_with_score_and_depth() {
    use crate::analysis::{Analysis, AnalysisRequest};
    let mut app = with_analysis(two_people(Position::standard()));
    assert_eq!(app.world().resource::<Settings>().analysis_lines(), 3);
    app.world_mut().write_message(AnalysisRequest::Toggle);
    app.update();
    update_until(&mut app, "three lines at depth 2", |app| {
        let g = game(app).generation();
        app.world()
            .resource::<Analysis>()
            .report(g)
            .is_some_and(|r| r.lines.len() == 3 && r.lines.iter().all(|l| l.depth >= 2))
    });
    let firsts = first_turns(&app);
    let mut distinct = firsts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), 3, "{firsts:?}");
    assert!(
        firsts.iter().all(|t| OPENINGS.contains(&t.as_str())),
        "{firsts:?}"
    );
    let g = game(&app).generation();
    let report = app
        .world()
        .resource::<Analysis>()
        .report(g)
        .expect("a report")
        .clone();
    // The first line is the best line, and each line has a score of its own.
    assert_eq!(report.lines[0].pv.first(), report.pv.first());
    for line in &report.lines {
        assert!(!crate::analysis::score_text(line.score, Side::White).is_empty());
    }
    // Fewer lines: two.
    app.world_mut().write_message(AnalysisRequest::FewerLines);
    app.update();
    assert_eq!(app.world().resource::<Settings>().analysis_lines(), 2);
    assert!(first_turns(&app).len() <= 2);
    // Up to eight lines: the standard start has five turns, so every one of them is shown.
    for _ in 0..10 {
        app.world_mut().write_message(AnalysisRequest::MoreLines);
    }
    app.update();
    assert_eq!(app.world().resource::<Settings>().analysis_lines(), 8);
    update_until(&mut app, "every first turn", |app| {
        first_turns(app).len() == OPENINGS.len()
    });
    let mut firsts = first_turns(&app);
    firsts.sort();
    let mut all = OPENINGS.map(String::from).to_vec();
    all.sort();
    assert_eq!(firsts, all);
}

#[test]
fn evaluation_bar_and_line_text() {
    use crate::analysis::Report;
    use fanorona_ai::Score;
    let standard = Position::standard();
    let t1 = standard.parse_turn("d3-e3W").expect("legal");
    let mut after = Game::new(standard);
    after.play(&t1).expect("legal");
    let t2 = after.position().legal_turns()[0];
    let report = |score, side, pv: Vec<Turn>| Report {
        depth: 3,
        score,
        side,
        pv,
        nodes: 10,
        finished: true,
        lines: vec![],
    };
    let r = report(Score::Cp(0), Side::White, vec![t1, t2, t1]);
    assert!((r.white_share() - 0.5).abs() < 1e-6);
    assert_eq!(r.score_text().to_string(), "+0.00");
    assert_eq!(
        r.line_text(0, Side::White, 6),
        format!("1. {t1} {t2} 2. {t1}")
    );
    assert_eq!(r.line_text(1, Side::White, 2), format!("1... {t1} 2. {t2}"));
    // Black to move and a stone and a half ahead: White's share is below a half, and the
    // text is from White's side.
    let r = report(Score::Cp(150), Side::Black, vec![]);
    assert!(r.white_share() < 0.4);
    assert_eq!(r.score_text().to_string(), "-1.50");
    let r = report(Score::Win(-2), Side::Black, vec![]);
    assert_eq!(r.score_text().to_string(), "White wins in 2");
    assert!((r.white_share() - 1.0).abs() < 1e-6);
}

// ---------------------------------------------------------------- review

#[test]
fn mistakes_are_the_turns_that_lose_much_of_the_bar() {
    use crate::analysis::review::{Severity, mistakes};
    // White moves first. Turn 1 (White) 0.50 -> 0.45: fine. Turn 2 (Black) 0.45 -> 0.70:
    // Black lost 0.25, a mistake. Turn 3 (White) 0.70 -> 0.30: a blunder (0.40). Turn 4
    // unknown. Turn 5 (White) 0.20 -> 0.18: fine.
    let shares = [
        Some(0.5),
        Some(0.45),
        Some(0.7),
        Some(0.3),
        None,
        Some(0.2),
        Some(0.18),
    ];
    let found = mistakes(&shares, Side::White);
    let summary: Vec<(usize, Side, Severity)> = found
        .iter()
        .map(|m| (m.turn, m.mover, m.severity))
        .collect();
    assert_eq!(
        summary,
        [
            (2, Side::Black, Severity::Mistake),
            (3, Side::White, Severity::Blunder)
        ]
    );
    assert!((found[1].loss - 0.4).abs() < 1e-6);
    // Black moving first: the first turn is Black's.
    let found = mistakes(&[Some(0.5), Some(0.7)], Side::Black);
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].mover, found[0].severity),
        (Side::Black, Severity::Mistake)
    );
}

fn review_app(position: Position) -> App {
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(english())
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(Match::new(position, [Player::Human, Player::Human], 1))
        .init_state::<crate::Screen>()
        .insert_state(crate::Screen::Playing)
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::engine::plugin,
            crate::analysis::review::plugin,
            crate::i18n::plugin,
        ));
    app.update();
    app
}

#[test]
fn review_evaluates_every_position_and_draws_the_graph() {
    use crate::analysis::review::{GraphBar, Review, ReviewRequest};
    // White a1 takes Black's last stone with a1-b1A.
    let mut app = review_app(Position::from_fen("9/9/9/9/W1B6 w").expect("valid"));
    send(&mut app, Command::PlayText("a1-b1A".into()));
    app.world_mut().write_message(ReviewRequest::Toggle);
    app.update();
    update_until(&mut app, "the review", |app| {
        app.world().resource::<Review>().complete()
    });
    let review = app.world().resource::<Review>();
    let texts: Vec<String> = review
        .evals()
        .iter()
        .map(|e| e.as_ref().expect("evaluated").text.to_string())
        .collect();
    assert_eq!(texts, ["White wins in 1", "1-0"]);
    assert!(review.mistakes().is_empty());
    app.update();
    // One bar per position, each showing its position when clicked.
    let mut bars: Vec<(usize, crate::ui::Action)> = app
        .world_mut()
        .query::<(&GraphBar, &crate::ui::Action)>()
        .iter(app.world())
        .map(|(b, a)| (b.0, a.clone()))
        .collect();
    bars.sort_by_key(|b| b.0);
    assert_eq!(
        bars,
        [
            (0, crate::ui::Action::Game(Command::View(Some(0)))),
            (1, crate::ui::Action::Game(Command::View(Some(1)))),
        ]
    );
    let summary =
        crate::analysis::review::summary_text(app.world().resource::<Review>(), game(&app).game())
            .to_string();
    assert!(summary.contains("no mistakes"), "{summary}");
}

#[test]
fn review_marks_a_thrown_away_capture() {
    use crate::analysis::review::{Review, ReviewRequest};
    // White a1 can capture c1, d1 and e1 by approach (a1-b1A) or only a3 (a1-a2A); White
    // also has i5, far away. Taking one stone instead of three leaves White two stones against
    // three (`fanorona analyse` scores it 3.5 stones for Black at depth 8, against an equal
    // game after a1-b1A): a mistake by White on turn 1.
    let mut app = review_app(Position::from_fen("8W/9/B8/9/W1BBB4 w").expect("valid"));
    send(&mut app, Command::PlayText("a1-a2A".into()));
    assert_eq!(turns(&app), ["a1-a2A"]);
    app.world_mut().write_message(ReviewRequest::Toggle);
    app.update();
    update_until(&mut app, "the review", |app| {
        app.world().resource::<Review>().complete()
    });
    let found = app.world().resource::<Review>().mistakes();
    let evals = app.world().resource::<Review>().evals().to_vec();
    assert_eq!(found.len(), 1, "{found:?} {evals:?}");
    assert_eq!((found[0].turn, found[0].mover), (1, Side::White));
    let summary =
        crate::analysis::review::summary_text(app.world().resource::<Review>(), game(&app).game())
            .to_string();
    assert!(summary.contains("1. a1-a2A?"), "{summary}");
}

#[test]
fn analysis_looks_at_the_position_looked_back_at() {
    let mut app = with_analysis(two_people(Position::standard()));
    send(&mut app, Command::PlayText("f2-e3A".into()));
    assert_eq!(turns(&app).len(), 1);
    // Back to the start: the analysis is about White's first move, not Black's reply.
    send(&mut app, Command::View(Some(0)));
    assert_eq!(
        game(&app).message().to_string(),
        "Looking back at the start of the game (Esc: back)"
    );
    app.world_mut()
        .write_message(crate::analysis::AnalysisRequest::Toggle);
    app.update();
    update_until(&mut app, "a report on the start position", |app| {
        app.world()
            .resource::<crate::analysis::Analysis>()
            .report_for(game(app))
            .is_some_and(|r| r.depth >= 2)
    });
    let report = app
        .world()
        .resource::<crate::analysis::Analysis>()
        .report_for(game(&app))
        .expect("a report")
        .clone();
    assert_eq!(report.side, Side::White);
    let first = report.pv.first().expect("a best turn");
    assert!(Position::standard().is_legal(first), "{first}");
    // The current position (Black to move) has no report of its own yet.
    send(&mut app, Command::View(None));
    let current = app
        .world()
        .resource::<crate::analysis::Analysis>()
        .report_for(game(&app))
        .cloned();
    assert!(current.is_none_or(|r| r.side == Side::Black));
}

#[test]
fn turns_are_numbered_as_the_list_numbers_them() {
    use crate::game::flow::turn_number;
    assert_eq!(turn_number(1), "1.");
    assert_eq!(turn_number(2), "1...");
    assert_eq!(turn_number(13), "7.");
    assert_eq!(turn_number(16), "8...");
    let mut app = two_people(Position::standard());
    send(&mut app, Command::PlayText("f2-e3A".into()));
    // Any reply of Black's: the position after the first turn is then a past one.
    let reply = game(&app).game().position().legal_turns()[0].to_string();
    send(&mut app, Command::PlayText(reply));
    assert_eq!(turns(&app).len(), 2);
    send(&mut app, Command::View(Some(1)));
    assert_eq!(
        game(&app).message().to_string(),
        "Looking back at the position after 1. f2-e3A (Esc: back)"
    );
}

#[test]
fn the_hint_shows_the_rest_of_its_chain() {
    // a1-b1A takes c1, then b1-b2A takes b3 (see `CHAIN`).
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    let turn = Position::from_fen(CHAIN)
        .expect("valid")
        .legal_turns()
        .into_iter()
        .find(|t| t.to_string() == "a1-b1A-b2A")
        .expect("the chain is legal");
    let generation = game(&app).generation();
    send(&mut app, Command::ShowHint { generation, turn });
    assert_eq!(view(&app).hint, [pt("a1"), pt("b1"), pt("b2")]);
    // After the first step, the rest of the hinted chain is still shown.
    click(&mut app, "a1");
    click(&mut app, "b1");
    assert_eq!(game(&app).partial_steps().len(), 1);
    assert_eq!(view(&app).hint, [pt("b1"), pt("b2")]);
    // Ending the turn after the first capture ends the hint.
    send(&mut app, Command::EndTurn);
    assert!(view(&app).hint.is_empty());
}
