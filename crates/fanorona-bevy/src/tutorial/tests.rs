//! Headless tests of the lessons and their judges.

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

fn tutorial_app() -> App {
    use crate::Screen;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(english())
        .insert_resource(MinThink(Duration::ZERO))
        .init_state::<Screen>()
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::engine::plugin,
            crate::tutorial::plugin,
            crate::i18n::plugin,
        ));
    app.update();
    app.world_mut()
        .write_message(crate::tutorial::TutorialCommand::Start);
    app.update();
    app.update();
    app
}

fn lesson(app: &App) -> crate::tutorial::Tutorial {
    app.world().resource::<crate::tutorial::Tutorial>().clone()
}

fn small(name: &str) -> Point {
    BoardSize::DIMY
        .parse_point(name)
        .expect("a point of the 5x5 board")
}

#[test]
fn every_lesson_explains_a_wrong_try_and_passes_the_right_turn() {
    use crate::tutorial::{LESSONS, TutorialCommand};
    // For each lesson: a wrong but legal turn (if the lesson has one) and the right turn,
    // worked out by hand from the positions and the rules.
    let cases: [(Option<&str>, &str); 7] = [
        (None, "a1-b2"),
        (Some("e2-e1W"), "c1-c2A"),
        (Some("e1-e2A"), "c2-c1W"),
        (Some("b3-c3W"), "b3-c3A"),
        (Some("a1-b1A"), "a1-b1A-b2A"),
        (None, "e1-d2A"),
        (Some("a1-b1A"), "a1-b1A-b2A"),
    ];
    let mut app = tutorial_app();
    assert_eq!(
        *app.world().resource::<State<crate::Screen>>().get(),
        crate::Screen::Playing
    );
    for (i, (wrong, right)) in cases.iter().enumerate() {
        assert_eq!(lesson(&app).lesson, i);
        assert_eq!(game(&app).size(), BoardSize::DIMY, "lesson {i}");
        assert_eq!(*game(&app).game().start(), LESSONS[i].start());
        if let Some(wrong) = wrong {
            send(&mut app, Command::PlayText((*wrong).into()));
            app.update();
            let t = lesson(&app);
            let feedback = t.feedback.to_string();
            assert!(!t.passed, "lesson {i}: {wrong} is wrong");
            assert_eq!(t.wrong_tries, 1);
            assert!(
                feedback.starts_with("Not quite") && feedback.contains(wrong),
                "lesson {i}: {feedback}"
            );
            assert!(
                turns(&app).is_empty(),
                "lesson {i}: the position is set again"
            );
        }
        send(&mut app, Command::PlayText((*right).into()));
        app.update();
        let t = lesson(&app);
        assert!(t.passed, "lesson {i}: {right} passes ({})", t.feedback);
        assert!(
            t.feedback.to_string().starts_with("Right!"),
            "{}",
            t.feedback
        );
        app.world_mut().write_message(TutorialCommand::Next);
        app.update();
        app.update();
    }
    // After the last lesson the tutorial ends on the menu.
    assert!(
        app.world()
            .get_resource::<crate::tutorial::Tutorial>()
            .is_none()
    );
    assert_eq!(
        *app.world().resource::<State<crate::Screen>>().get(),
        crate::Screen::Menu
    );
}

#[test]
fn tutorial_lessons_by_clicks_and_refused_moves() {
    use crate::tutorial::TutorialCommand;
    let mut app = tutorial_app();
    // Lesson 1 by clicks: a1 then b2.
    send(&mut app, Command::Click(small("a1")));
    send(&mut app, Command::Click(small("b2")));
    app.update();
    assert!(lesson(&app).passed);
    // Lesson 6 (compulsory capture): a paika step is refused by the rules, with a reason.
    for _ in 0..5 {
        app.world_mut().write_message(TutorialCommand::Next);
        app.update();
    }
    app.update();
    assert_eq!(lesson(&app).lesson, 5);
    send(&mut app, Command::Click(small("a1")));
    send(&mut app, Command::Click(small("a2")));
    assert!(turns(&app).is_empty());
    assert!(
        game(&app).message().to_string().contains("compulsory"),
        "{}",
        game(&app).message()
    );
    // "Again" sets the lesson up anew; "Back" goes one lesson back.
    send(&mut app, Command::Click(small("b2")));
    app.update();
    assert!(lesson(&app).passed);
    app.world_mut().write_message(TutorialCommand::Retry);
    app.update();
    assert!(!lesson(&app).passed && turns(&app).is_empty());
    app.world_mut().write_message(TutorialCommand::Previous);
    app.update();
    assert_eq!(lesson(&app).lesson, 4);
    app.world_mut().write_message(TutorialCommand::Exit);
    app.update();
    app.update();
    assert_eq!(
        *app.world().resource::<State<crate::Screen>>().get(),
        crate::Screen::Menu
    );
}

#[test]
fn every_lesson_accepts_exactly_the_turns_it_asks_for() {
    use crate::tutorial::LESSONS;
    // Per lesson, every turn that does what the task says, worked out by hand from the
    // positions: any other legal turn, even one of the right kind (an approach that takes
    // other stones), is refused.
    let right: [&[&str]; 7] = [
        &["a1-a2", "a1-b1", "a1-b2"],
        &["c1-c2A"],
        &["c2-c1W", "c2-c1W-d2A"],
        &["b3-c3A"],
        &["a1-b1A-b2A"],
        &["a1-b2A", "e1-d2A"],
        &["a1-b1A-b2A"],
    ];
    for (i, lesson) in LESSONS.iter().enumerate() {
        let start = lesson.start();
        let mut accepted: Vec<String> = start
            .legal_turns()
            .iter()
            .filter(|t| lesson.judge_turn(&start, t).is_ok())
            .map(Turn::to_string)
            .collect();
        accepted.sort();
        let mut expected: Vec<String> = right[i].iter().map(|s| (*s).to_string()).collect();
        expected.sort();
        assert_eq!(accepted, expected, "lesson {}", i + 1);
    }
    // The case a player met: in lesson 2, c1-d2A is an approach but takes e3.
    let lesson = &LESSONS[1];
    let start = lesson.start();
    let wrong = start
        .legal_turns()
        .into_iter()
        .find(|t| t.to_string() == "c1-d2A")
        .expect("c1-d2A is legal in lesson 2");
    let why = lesson
        .judge_turn(&start, &wrong)
        .expect_err("c1-d2A is wrong");
    assert_eq!(
        why.to_string(),
        "c1-d2A captured 1 stone on e3, but this lesson asks for the stones on c3 and c4."
    );
    let right = start
        .legal_turns()
        .into_iter()
        .find(|t| t.to_string() == "c1-c2A")
        .expect("c1-c2A is legal");
    let praise = lesson.judge_turn(&start, &right).expect("c1-c2A is right");
    assert!(
        praise.to_string().contains("captured 2 stones by approach"),
        "{praise}"
    );
    assert_eq!(crate::tutorial::stones(1).to_string(), "1 stone");
    assert_eq!(crate::tutorial::stones(3).to_string(), "3 stones");
}

#[test]
fn after_a_right_answer_the_board_rests() {
    let mut app = tutorial_app();
    // Lesson 1: a1-b2 is right; Black (e5) is then to move in the game, but the lesson is over.
    send(&mut app, Command::PlayText("a1-b2".into()));
    app.update();
    assert!(lesson(&app).passed);
    let v = view(&app);
    assert!(!v.interactive && v.targets.is_empty() && v.must_capture == Bitboard::EMPTY);
    send(&mut app, Command::Click(small("e5")));
    app.update();
    assert_eq!(game(&app).selected(), None, "the board takes no clicks");
    assert_eq!(turns(&app), ["a1-b2"]);
}
