//! Headless tests of the game being played: flow, input, engine, clocks, sound, records,
//! export, the command line and the variants.

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

#[test]
fn capture_is_compulsory_and_marks_the_capturing_stones() {
    let mut app = two_people(Position::standard());
    // The five opening turns use the stones on d2, e2, f2 and d3.
    assert_eq!(view(&app).must_capture, bits(&["d2", "e2", "f2", "d3"]));
    assert!(view(&app).interactive);
    click(&mut app, "a1");
    assert_eq!(game(&app).selected(), None);
    assert!(
        game(&app).message().to_string().contains("compulsory"),
        "{}",
        game(&app).message()
    );
    click(&mut app, "e4");
    assert_eq!(game(&app).selected(), None);
    assert!(game(&app).message().to_string().contains("black stone"));
}

#[test]
fn selecting_a_stone_shows_its_destinations() {
    let mut app = two_people(Position::standard());
    click(&mut app, "d2");
    assert_eq!(game(&app).selected(), Some(pt("d2")));
    assert_eq!(view(&app).targets, vec![(pt("e3"), true)]);
    // Clicking it again drops the selection.
    click(&mut app, "d2");
    assert_eq!(game(&app).selected(), None);
    assert!(view(&app).targets.is_empty());
    // An empty point that is no destination changes nothing.
    click(&mut app, "f2");
    click(&mut app, "e1");
    assert_eq!(game(&app).selected(), Some(pt("f2")));
    assert!(game(&app).partial_steps().is_empty());
    assert!(turns(&app).is_empty());
}

#[test]
fn paika_move_and_drag_order() {
    // No capture anywhere: white a1, black i5. a1 may step to a2, b1 or b2.
    let mut app = two_people(Position::from_fen("8B/9/9/9/W8 w").expect("valid"));
    assert_eq!(view(&app).must_capture, Bitboard::EMPTY);
    click(&mut app, "a1");
    let mut targets = view(&app).targets.clone();
    targets.sort_by_key(|t| t.0.index());
    assert_eq!(
        targets,
        vec![(pt("b1"), false), (pt("a2"), false), (pt("b2"), false)]
    );
    click(&mut app, "b2");
    assert_eq!(turns(&app), vec!["a1-b2"]);
    assert_eq!(game(&app).side_to_move(), Side::Black);
}

#[test]
fn choosing_between_approach_and_withdrawal() {
    let mut app = two_people(Position::standard());
    click(&mut app, "d3");
    click(&mut app, "e3");
    // d3-e3 approaches f3 (g3 is white) or withdraws from c3 (b3 is white).
    let [a, w] = game(&app).choice().expect("a choice is pending");
    assert_eq!((a.kind, w.kind), (StepKind::Approach, StepKind::Withdrawal));
    assert_eq!(view(&app).choice, Some((bits(&["f3"]), bits(&["c3"]))));
    // A click elsewhere keeps the choice open.
    click(&mut app, "a5");
    assert!(game(&app).choice().is_some());
    assert!(turns(&app).is_empty());
    click(&mut app, "c3");
    // The stone on e3 has nowhere left to capture: the turn ends by itself.
    assert_eq!(turns(&app), vec!["d3-e3W"]);
    assert_eq!(game(&app).side_to_move(), Side::Black);
    assert_eq!(game(&app).game().position().stones(Side::Black).count(), 21);
    assert_eq!(game(&app).game().position().stone_at(pt("c3")), None);
    assert_eq!(
        game(&app).game().position().stone_at(pt("f3")),
        Some(Side::Black)
    );
}

#[test]
fn choosing_by_key() {
    let mut app = two_people(Position::standard());
    click(&mut app, "d3");
    click(&mut app, "e3");
    send(&mut app, Command::Choose(StepKind::Approach));
    assert_eq!(turns(&app), vec!["d3-e3A"]);
    assert_eq!(game(&app).game().position().stone_at(pt("f3")), None);
}

#[test]
fn chain_continues_with_the_same_stone() {
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    click(&mut app, "a1");
    click(&mut app, "b1");
    assert!(turns(&app).is_empty(), "the chain is still open");
    assert_eq!(game(&app).partial_steps().len(), 1);
    let v = view(&app).clone();
    assert!(v.chain);
    assert_eq!(v.selected, Some(pt("b1")));
    assert_eq!(v.targets, vec![(pt("b2"), true)]);
    assert_eq!(v.visited, bits(&["a1", "b1"]));
    assert_eq!(v.forbidden, Some((pt("b1"), Direction::E)));
    assert!(
        !v.stones.iter().any(|(p, _)| *p == pt("c1")),
        "c1 was captured"
    );
    assert!(game(&app).can_end_turn());
    // Another stone cannot take over during a chain.
    click(&mut app, "i5");
    assert_eq!(game(&app).partial_steps().len(), 1);
    click(&mut app, "b2");
    assert_eq!(turns(&app), vec!["a1-b1A-b2A"]);
    assert_eq!(
        game(&app).game().position().stones(Side::Black),
        bits(&["i5"])
    );
}

#[test]
fn chain_can_end_early_by_key() {
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    click(&mut app, "a1");
    click(&mut app, "b1");
    // Space ends the turn: the keyboard system turns the key into a command.
    app.init_resource::<ButtonInput<KeyCode>>();
    app.add_systems(
        Update,
        crate::game::input::keys_to_commands.before(crate::game::flow::FlowSet),
    );
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(KeyCode::Space);
    app.update();
    assert_eq!(turns(&app), vec!["a1-b1A"]);
    assert_eq!(game(&app).side_to_move(), Side::Black);
    assert!(game(&app).partial_steps().is_empty());
}

#[test]
fn steps_are_sent_to_the_animation_one_by_one() {
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    click(&mut app, "a1");
    click(&mut app, "b1");
    let messages = app.world().resource::<Messages<StepPlayed>>();
    let mut cursor = messages.get_cursor();
    let played: Vec<StepPlayed> = cursor.read(messages).copied().collect();
    assert_eq!(
        played,
        vec![StepPlayed {
            from: pt("a1"),
            to: pt("b1"),
            captured: bits(&["c1"])
        }]
    );
}

#[test]
fn undo_takes_back_the_chain_then_the_turn_and_redo_replays() {
    let mut app = app_with(Match::new(
        Position::from_fen(CHAIN).expect("valid"),
        [Player::Human, Player::Human],
        1,
    ));
    click(&mut app, "a1");
    click(&mut app, "b1");
    send(&mut app, Command::Undo);
    assert!(game(&app).partial_steps().is_empty());
    assert!(
        view(&app).stones.iter().any(|(p, _)| *p == pt("c1")),
        "c1 is back"
    );
    click(&mut app, "a1");
    click(&mut app, "b1");
    click(&mut app, "b2");
    assert_eq!(turns(&app).len(), 1);
    send(&mut app, Command::Undo);
    assert!(turns(&app).is_empty());
    assert_eq!(game(&app).redo_len(), 1);
    send(&mut app, Command::Redo);
    assert_eq!(turns(&app), vec!["a1-b1A-b2A"]);
    assert_eq!(game(&app).redo_len(), 0);
}

#[test]
fn undo_against_the_engine_returns_to_the_persons_turn() {
    // The person plays White; the engine's turns are played here by hand (no engine runs
    // while the engine side's turn is given directly).
    let mut game = Game::new(Position::standard());
    game.play_text("d3-e3W").expect("legal");
    let reply = game.position().legal_turns()[0];
    game.play(&reply).expect("legal");
    let mut app = app_with(Match::from_game(game, [Player::Human, Player::Human], 1));
    app.world_mut()
        .resource_mut::<Match>()
        .set_players([Player::Human, Player::Engine], 1);
    // White to move; undo removes Black's and White's turns.
    send(&mut app, Command::Undo);
    assert!(turns(&app).is_empty());
    assert_eq!(game_side(&app), Side::White);
    assert_eq!(app.world().resource::<Match>().redo_len(), 2);
}

fn game_side(app: &App) -> Side {
    game(app).side_to_move()
}

#[test]
fn the_game_ends_when_the_last_stone_is_captured() {
    let mut app = two_people(Position::from_fen("9/9/9/9/W1B6 w").expect("valid"));
    click(&mut app, "a1");
    click(&mut app, "b1");
    let outcome = game(&app).outcome().expect("game over");
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(outcome.reason, EndReason::NoStones);
    assert!(!view(&app).interactive);
    // The result is said once, on the result line; the message line says what comes next.
    let result = game(&app).result_text().expect("a result").to_string();
    assert!(result.contains("White wins"), "{result}");
    assert!(
        !game(&app).message().to_string().contains("White wins")
            && game(&app).message().to_string().contains("new game"),
        "{}",
        game(&app).message()
    );
    // Clicks after the end change nothing.
    click(&mut app, "b1");
    assert_eq!(turns(&app).len(), 1);
    assert!(game(&app).selected().is_none());
}

#[test]
fn resignation_and_draw_offer_between_people() {
    let mut app = two_people(Position::standard());
    send(&mut app, Command::OfferDraw);
    assert_eq!(game(&app).draw_offer(), Some(Side::White));
    click(&mut app, "d2");
    assert_eq!(
        game(&app).selected(),
        None,
        "the board waits for the answer"
    );
    send(&mut app, Command::AnswerDraw(false));
    assert!(game(&app).outcome().is_none());
    send(&mut app, Command::OfferDraw);
    send(&mut app, Command::AnswerDraw(true));
    assert_eq!(
        game(&app).outcome().map(|o| (o.winner, o.reason)),
        Some((None, EndReason::Agreement))
    );
    send(&mut app, Command::Undo);
    assert!(game(&app).outcome().is_none());
    send(&mut app, Command::Resign);
    assert_eq!(
        game(&app).outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Side::Black), EndReason::Resignation))
    );
}

#[test]
fn looking_back_shows_old_positions_and_blocks_the_board() {
    let mut app = two_people(Position::standard());
    click(&mut app, "d3");
    click(&mut app, "e3");
    click(&mut app, "c3");
    send(&mut app, Command::View(Some(0)));
    assert_eq!(game(&app).viewing(), Some(0));
    assert_eq!(view(&app).stones.len(), 44);
    assert!(!view(&app).interactive);
    click(&mut app, "f4");
    assert!(game(&app).selected().is_none());
    send(&mut app, Command::Cancel);
    assert_eq!(game(&app).viewing(), None);
    assert_eq!(view(&app).stones.len(), 43);
    assert_eq!(view(&app).last_path, vec![pt("d3"), pt("e3")]);
}

#[test]
fn new_game_starts_over() {
    let mut app = two_people(Position::standard());
    click(&mut app, "d2");
    click(&mut app, "e3");
    assert_eq!(turns(&app).len(), 1);
    send(&mut app, Command::NewGame);
    assert!(turns(&app).is_empty());
    assert_eq!(view(&app).stones.len(), 44);
}

/// Searches until told to stop; counts how often it was stopped.
struct Stubborn(Arc<AtomicBool>);

impl EngineAdapter for Stubborn {
    fn choose(
        &self,
        _: &Game,
        _: u8,
        _: Option<fanorona_ai::Clock>,
        stop: &AtomicBool,
    ) -> Option<Turn> {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !stop.load(Ordering::Relaxed) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(1));
        }
        self.0
            .store(stop.load(Ordering::Relaxed), Ordering::Relaxed);
        None
    }
}

#[test]
fn undo_cancels_the_engine_search() {
    let stopped = Arc::new(AtomicBool::new(false));
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(Settings::default())
        .insert_resource(Engine(Arc::new(Stubborn(stopped.clone()))))
        .insert_resource(Match::new(
            Position::standard(),
            [Player::Engine, Player::Human],
            1,
        ))
        .add_plugins((crate::game::flow::plugin, crate::game::engine::plugin));
    app.update();
    assert!(app.world().resource::<Thinking>().active());
    let flag = app
        .world()
        .resource::<Thinking>()
        .stop_flag()
        .expect("a search runs");
    send(&mut app, Command::NewGame);
    assert!(flag.load(Ordering::Relaxed), "the stop flag is raised");
    let deadline = Instant::now() + Duration::from_secs(5);
    while !stopped.load(Ordering::Relaxed) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        stopped.load(Ordering::Relaxed),
        "the search thread saw the flag"
    );
}

#[test]
fn the_engine_plays_its_turn_in_the_background() {
    let mut app = app_with(Match::new(
        Position::standard(),
        [Player::Engine, Player::Human],
        1,
    ));
    let deadline = Instant::now() + Duration::from_secs(20);
    while turns(&app).is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
    let played = turns(&app);
    assert_eq!(played.len(), 1);
    let openings = ["d2-e3A", "e2-e3A", "f2-e3A", "d3-e3A", "d3-e3W"];
    assert!(openings.contains(&played[0].as_str()), "{played:?}");
    assert_eq!(game(&app).side_to_move(), Side::Black);
    assert!(
        !app.world().resource::<Thinking>().active(),
        "the person is to move"
    );
}

#[test]
fn loading_a_bad_file_reports_and_keeps_the_game() {
    let dir = temp_dir("bad-load");
    let mut app = two_people(Position::standard());
    click(&mut app, "d2");
    click(&mut app, "e3");
    for (name, contents) in [
        ("garbage.fgn", &b"this is not a game\n\x00\xff"[..]),
        ("illegal.fgn", b"[Event \"x\"]\n\n1. a1-a2 *\n"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, contents).expect("write test file");
        app.world_mut().write_message(Persist::Load(path));
        app.update();
        let status = app.world().resource::<PersistStatus>().clone();
        assert!(status.error, "{name}: {status:?}");
        assert!(status.text.to_string().contains(name), "{status:?}");
        assert_eq!(turns(&app), vec!["d2-e3A"], "the game is untouched");
    }
    app.world_mut()
        .write_message(Persist::Load(dir.join("missing.fgn")));
    app.update();
    let status = app.world().resource::<PersistStatus>().clone();
    assert!(
        status.error && status.text.to_string().contains("missing.fgn"),
        "{status:?}"
    );
}

#[test]
fn save_then_load_restores_the_game() {
    let dir = temp_dir("save-load");
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    app.insert_resource(GamesDir(Some(dir.clone())));
    click(&mut app, "a1");
    click(&mut app, "b1");
    click(&mut app, "b2");
    app.world_mut().write_message(Persist::Save);
    app.update();
    let saved: Vec<PathBuf> = crate::game::persist::saved_games(&dir);
    assert_eq!(saved.len(), 1);
    send(&mut app, Command::NewGame);
    assert!(turns(&app).is_empty());
    app.world_mut()
        .write_message(Persist::Load(saved[0].clone()));
    app.update();
    app.update();
    assert!(!app.world().resource::<PersistStatus>().error);
    assert_eq!(turns(&app), vec!["a1-b1A-b2A"]);
    assert_eq!(
        game(&app).game().start().to_fen().split(' ').next(),
        CHAIN.split(' ').next()
    );
}

#[test]
fn record_text_round_trip() {
    let mut game = Game::new(Position::standard());
    game.play_text("d3-e3W").expect("legal");
    let reply = game.position().legal_turns()[0];
    game.play(&reply).expect("legal");
    let text = record_text(&game, [Player::Human, Player::Engine], 4).expect("writable");
    assert!(text.contains("[White \"Person\"]"), "{text}");
    assert!(text.contains("[Black \"fanorona-ai level 4\"]"), "{text}");
    assert!(text.contains("1. d3-e3W"), "{text}");
    let back = parse_record_text(&text).expect("own records load");
    assert_eq!(back.turns(), game.turns());
    // A resignation survives through the result token.
    game.resign(Side::White).expect("the game is in progress");
    let text = record_text(&game, [Player::Human, Player::Human], 1).expect("writable");
    let back = parse_record_text(&text).expect("loads");
    assert_eq!(back.outcome().map(|o| o.winner), Some(Some(Side::Black)));
    // Another board and a start position other than the setup.
    let small = Game::new(Position::from_fen("W1B/3/B1W w").expect("valid"));
    let text = record_text(&small, [Player::Human, Player::Human], 1).expect("writable");
    let back = parse_record_text(&text).expect("loads");
    assert_eq!(back.start(), small.start());
    let error = parse_record_text("[Result \"*\"]\n\n1. d3-d4A *\n").expect_err("illegal");
    assert!(error.contains("d3-d4A"), "{error}");
}

#[test]
fn settings_survive_a_restart_and_bad_files_are_reported() {
    let dir = temp_dir("settings");
    let path = dir.join("fanorona").join("settings.json");
    assert_eq!(
        load_settings(&path).expect("missing file gives defaults"),
        Settings::default()
    );
    let mut settings = Settings {
        level: 3,
        board: "5x5".into(),
        ..Settings::default()
    };
    let mut rules = settings.rules();
    rules = rules.with_compulsory_continuation(true);
    settings.set_rules(rules);
    save_settings(&path, &settings).expect("save");
    let back = load_settings(&path).expect("load");
    assert_eq!(back, settings);
    assert_eq!(back.board_size(), BoardSize::DIMY);
    assert!(back.rules().compulsory_continuation());
    std::fs::write(&path, "{ not json").expect("write");
    let error = load_settings(&path).expect_err("corrupt file");
    assert!(error.to_string().contains("settings.json"), "{error}");
    // Out-of-range values are repaired, not trusted: a level number no file ever wrote (the
    // files of four levels wrote 1 to 4) is the default level.
    std::fs::write(&path, r#"{"level": 99, "board": "4x4"}"#).expect("write");
    let repaired = load_settings(&path).expect("load");
    assert_eq!(
        (repaired.level, repaired.board.as_str()),
        (fanorona_ai::Level::Beginner.number(), "5x9")
    );
}

#[test]
fn command_line() {
    let args = |a: &[&str]| {
        LaunchOptions::parse_from_args(std::iter::once("fanorona-3d").chain(a.iter().copied()))
    };
    let o = args(&["--screenshot", "out.png", "--size", "640x360"]).expect("valid");
    assert_eq!(o.screenshot, Some(PathBuf::from("out.png")));
    assert_eq!(o.size, Some((640, 360)));
    assert_eq!(o.timeout, 120);
    let error = args(&["--size", "640"]).unwrap_err().to_string();
    assert!(error.contains("--size") && error.contains("WxH"), "{error}");
    assert!(args(&["--turn"]).is_err());
    let error = args(&["--turn", "3"]).unwrap_err().to_string();
    assert!(error.contains("--turn needs"), "{error}");
    assert!(args(&["--frobnicate"]).is_err());
    assert!(args(&["--timeout", "0"]).is_err());
    assert!(args(&["--position", "W1B/3/B1W w", "--game", "g.fgn"]).is_err());
    assert_eq!(
        args(&["--help"]).unwrap_err().kind(),
        clap::error::ErrorKind::DisplayHelp
    );
    let o = args(&["--game", "g.fgn", "--turn", "20", "--clicks", "b2, b3"]).expect("valid");
    assert_eq!(
        (o.turn, o.clicks),
        (Some(20), vec!["b2".to_string(), "b3".to_string()])
    );
    // A record as the argument is the same as --game.
    let o = args(&["games/x.sgf", "--turn", "4"]).expect("valid");
    assert_eq!(
        (o.game, o.file, o.turn),
        (Some(PathBuf::from("games/x.sgf")), None, Some(4))
    );
    assert_eq!(args(&["--tutorial"]).expect("valid").tutorial, Some(1));
    // High-DPI: a 1280x720 window at scale factor 2 has 2560x1440 pixels, 1280x720 logical.
    let o = args(&["--scale-factor", "2", "--size", "1280x720"]).expect("valid");
    assert_eq!(o.scale_factor, Some(2.0));
    let resolution = crate::window_resolution((1280, 720), o.scale_factor);
    assert_eq!(
        (resolution.physical_width(), resolution.physical_height()),
        (2560, 1440)
    );
    assert_eq!((resolution.width(), resolution.height()), (1280.0, 720.0));
    let resolution = crate::window_resolution((1280, 720), Some(1.5));
    assert_eq!(
        (resolution.physical_width(), resolution.width()),
        (1920, 1280.0)
    );
    assert_eq!(args(&["--browse"]).expect("valid").browse, Some(None));
    assert_eq!(
        args(&["--browse", "games"]).expect("valid").browse,
        Some(Some(PathBuf::from("games")))
    );
    assert_eq!(args(&[]).expect("valid").browse, None);
    assert!(args(&["--scale-factor", "0"]).is_err());
    assert!(args(&["--scale-factor", "x"]).is_err());
    assert_eq!(args(&["--tutorial", "3"]).expect("valid").tutorial, Some(3));
    assert!(args(&["--tutorial", "9"]).is_err());
}

#[test]
fn every_board_size_plays_by_clicks() {
    for size in BoardSize::ALL {
        let position = Position::start(size);
        let mut app = two_people(position);
        assert_eq!(view(&app).size, size);
        let stones = position.stones(Side::White).count() + position.stones(Side::Black).count();
        assert_eq!(view(&app).stones.len() as u32, stones, "{size}");
        // Play the first legal turn by clicking its path (choosing the line when asked).
        let turn = position.legal_turns()[0];
        let path: Vec<Point> = turn.path().collect();
        send(&mut app, Command::Click(path[0]));
        for (i, &p) in path.iter().enumerate().skip(1) {
            send(&mut app, Command::Click(p));
            if game(&app).choice().is_some() {
                let kind = turn.steps().nth(i - 1).expect("a step").kind;
                send(&mut app, Command::Choose(kind));
            }
        }
        if !game(&app).partial_steps().is_empty() {
            send(&mut app, Command::EndTurn);
        }
        assert_eq!(game(&app).game().turns(), &[turn], "{size}");
    }
}

#[test]
fn the_first_game_is_against_the_beginner_level() {
    let settings = Settings::default();
    assert_eq!(settings.level(), fanorona_ai::Level::Beginner.number());
    assert_eq!(
        crate::game::engine::ai_level(settings.level()),
        fanorona_ai::Level::Beginner
    );
    assert_eq!(settings.mode, crate::settings::Mode::HumanVsEngine);
}

#[test]
fn a_typed_turn_is_played_and_a_bad_one_explained() {
    let mut app = two_people(Position::standard());
    send(&mut app, Command::PlayText("d3-e3".into()));
    assert!(turns(&app).is_empty());
    assert!(
        game(&app).message().to_string().contains("d3-e3"),
        "ambiguous: {}",
        game(&app).message()
    );
    send(&mut app, Command::PlayText("a1-a2".into()));
    assert!(turns(&app).is_empty(), "a paika move while captures exist");
    send(&mut app, Command::PlayText(" f2-e3A ".into()));
    assert_eq!(turns(&app), vec!["f2-e3A"]);
    assert_eq!(game(&app).side_to_move(), Side::Black);
    // The typed turn is animated like a clicked one.
    let messages = app.world().resource::<Messages<StepPlayed>>();
    let played: Vec<StepPlayed> = messages.get_cursor().read(messages).copied().collect();
    assert_eq!(played.len(), 1);
    assert_eq!((played[0].from, played[0].to), (pt("f2"), pt("e3")));
    assert_eq!(played[0].captured, bits(&["d4", "c5"]));
}

#[test]
fn a_typed_turn_waits_for_a_chain_in_progress() {
    let mut app = two_people(Position::from_fen(CHAIN).expect("valid"));
    click(&mut app, "a1");
    click(&mut app, "b1");
    send(&mut app, Command::PlayText("a1-b1A-b2A".into()));
    assert!(turns(&app).is_empty());
    assert!(
        game(&app).message().to_string().contains("chain"),
        "{}",
        game(&app).message()
    );
    send(&mut app, Command::Undo);
    send(&mut app, Command::PlayText("a1-b1A-b2A".into()));
    assert_eq!(turns(&app), vec!["a1-b1A-b2A"]);
}

#[test]
fn typing_line_keys() {
    use crate::game::input::{EntryEffect, TurnEntry};
    use bevy::input::keyboard::Key;
    let mut entry = TurnEntry::default();
    let ch = |c: &str| Key::Character(c.into());
    assert_eq!(
        entry.key(&ch("a")),
        EntryEffect::Ignored,
        "closed: a shortcut"
    );
    assert_eq!(entry.key(&ch("T")), EntryEffect::Edited);
    assert!(entry.open);
    for c in ["f", "2", "-", "e", "3", "X"] {
        entry.key(&ch(c));
    }
    entry.key(&Key::Backspace);
    entry.key(&ch("A"));
    assert_eq!(entry.text, "f2-e3A");
    assert_eq!(entry.key(&Key::ArrowLeft), EntryEffect::Ignored);
    assert_eq!(entry.key(&Key::Enter), EntryEffect::Submit("f2-e3A".into()));
    assert!(!entry.open && entry.text.is_empty());
    entry.key(&ch("t"));
    entry.key(&ch("x"));
    assert_eq!(entry.key(&Key::Escape), EntryEffect::Closed);
    assert!(!entry.open && entry.text.is_empty());
}

#[test]
fn typed_keys_reach_the_game_and_not_the_shortcuts() {
    use bevy::input::keyboard::{Key, KeyboardInput};
    let mut app = two_people(Position::standard());
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<crate::game::input::TurnEntry>()
        .add_message::<KeyboardInput>()
        .add_systems(
            Update,
            (
                crate::game::input::type_turn,
                crate::game::input::keys_to_commands,
            )
                .chain()
                .before(crate::game::flow::FlowSet),
        );
    let press = press_key;
    press(&mut app, KeyCode::KeyT, Key::Character("t".into()));
    // `d3-e3W`: `W` would choose withdrawal and `3` nothing, as shortcuts; here they are text.
    for (code, c) in [
        (KeyCode::KeyD, "d"),
        (KeyCode::Digit3, "3"),
        (KeyCode::Minus, "-"),
        (KeyCode::KeyE, "e"),
        (KeyCode::Digit3, "3"),
        (KeyCode::KeyW, "W"),
    ] {
        press(&mut app, code, Key::Character(c.into()));
    }
    assert!(turns(&app).is_empty());
    // Enter plays the turn, and is not also taken as "end the turn".
    press(&mut app, KeyCode::Enter, Key::Enter);
    app.update();
    assert_eq!(turns(&app), vec!["d3-e3W"]);
    // `U` after the line closed is the undo shortcut again.
    press(&mut app, KeyCode::KeyU, Key::Character("u".into()));
    assert!(turns(&app).is_empty());
}

// ---------------------------------------------------------------- records, export

#[test]
fn records_of_every_format_open() {
    use crate::game::persist::{RecordFormat, game_from_record, load_game, read_record};
    let dir = temp_dir("formats");
    let open = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        load_game(&path)
    };
    let names = |game: &Game| -> Vec<String> { game.turns().iter().map(Turn::to_string).collect() };
    // The same two turns (the first two of the Boardspace sample, validated in the core's
    // tests) in FGN, JSON (array and object) and JSON Lines.
    let fgn = open("a.fgn", "[Result \"*\"]\n\n1. f2-e3A f3-f2A *\n").expect("FGN");
    assert_eq!(names(&fgn), ["f2-e3A", "f3-f2A"]);
    let object = r#"{"tags":[{"name":"Result","value":"*"}],"movetext":[{"turn":"f2-e3A"},{"turn":"f3-f2A"}],"result":"*"}"#;
    let json = open("b.json", &format!("[{object}]")).expect("JSON array");
    assert_eq!(names(&json), ["f2-e3A", "f3-f2A"]);
    let json = open("c.JSON", object).expect("JSON object");
    assert_eq!(names(&json), ["f2-e3A", "f3-f2A"]);
    let lines = open("d.jsonl", &format!("\n{object}\n{object}\n")).expect("JSON Lines");
    assert_eq!(names(&lines), ["f2-e3A", "f3-f2A"]);
    // The first game of the Boardspace sample: 14 turns, then White resigns (the core's
    // import test lists them).
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fanorona-core/tests/data/boardspace-sample.sgf");
    let boardspace = load_game(&sample).expect("Boardspace");
    assert_eq!(boardspace.turns().len(), 14);
    assert_eq!(names(&boardspace)[..3], ["f2-e3A", "f3-f2A", "e3-d4W"]);
    let outcome = boardspace.outcome().expect("resigned");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Side::Black), EndReason::Resignation)
    );
    // Errors name the place.
    let e = read_record("[{\"tags\": [}]", RecordFormat::Json).unwrap_err();
    // The `}` is the 12th character of the first line.
    assert!(e.starts_with("line 1, column 12"), "{e}");
    // In JSON Lines, the line of the file counts (the first line is blank).
    let e = read_record("\n{\"tags\": 3}", RecordFormat::JsonLines).unwrap_err();
    assert!(
        e.starts_with("line 2, column 10") && e.contains("invalid type"),
        "{e}"
    );
    let e = open("e.fgn", "1. f2-e3A e3-d4A *\n")
        .unwrap_err()
        .to_string();
    assert!(e.contains("e.fgn") && e.contains("e3-d4A"), "{e}");
    let record = read_record("1. a1-a2 *", RecordFormat::Fgn).expect("readable");
    assert!(
        game_from_record(&record).is_err(),
        "a1-a2 is not legal at the start"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_are_replaced_whole() {
    use crate::game::persist::write_atomically;
    let dir = temp_dir("atomic");
    let path = dir.join("sub").join("x.txt");
    write_atomically(&path, b"first").expect("write");
    write_atomically(&path, b"second").expect("replace");
    assert_eq!(std::fs::read(&path).expect("read"), b"second");
    // Nothing else is left in the folder (no temporary file).
    let entries: Vec<_> = std::fs::read_dir(dir.join("sub"))
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(entries, vec![std::ffi::OsString::from("x.txt")]);
    // A folder in the way is an error, and the folder is untouched.
    std::fs::create_dir_all(dir.join("taken")).expect("dir");
    assert!(write_atomically(&dir.join("taken"), b"x").is_err());
    assert!(dir.join("taken").is_dir());
    let _ = std::fs::remove_dir_all(&dir);
}

fn with_export(mut app: App, dir: Option<PathBuf>) -> App {
    app.insert_resource(GamesDir(dir))
        .add_plugins(crate::game::export::plugin);
    app.update();
    app
}

#[test]
fn export_position_and_game() {
    use crate::game::export::{Export, LastExport};
    let dir = temp_dir("export");
    let mut app = with_export(two_people(Position::standard()), Some(dir.clone()));
    let last = |app: &App| app.world().resource::<LastExport>().clone();
    app.world_mut().write_message(Export::CopyPosition);
    app.update();
    // The standard start as docs/notation.md writes it. No clipboard in a test: the text is
    // shown instead, and the failure said.
    let e = last(&app);
    assert_eq!(
        e.text,
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w"
    );
    assert!(e.failed && game(&app).message().to_string().contains(&e.text));
    send(&mut app, Command::PlayText("f2-e3A".into()));
    send(&mut app, Command::PlayText("f3-f2A".into()));
    app.world_mut().write_message(Export::CopyGame);
    app.update();
    let fgn = last(&app).text;
    let back = parse_record_text(&fgn).expect("the exported FGN reads back");
    assert_eq!(
        back.turns().iter().map(Turn::to_string).collect::<Vec<_>>(),
        ["f2-e3A", "f3-f2A"]
    );
    // Looking back, the position shown is exported.
    send(&mut app, Command::View(Some(0)));
    app.world_mut().write_message(Export::SavePosition);
    app.update();
    let e = last(&app);
    assert!(!e.failed, "{}", e.outcome);
    assert_eq!(
        e.text,
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w"
    );
    let files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|f| f.expect("entry").path())
        .collect();
    assert_eq!(files.len(), 1);
    let name = files[0]
        .file_name()
        .expect("name")
        .to_string_lossy()
        .into_owned();
    assert!(
        name.starts_with("position-") && name.ends_with(".txt"),
        "{name}"
    );
    assert_eq!(
        std::fs::read_to_string(&files[0]).expect("read"),
        format!("{}\n", e.text)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

// ---------------------------------------------------------------- clocks

/// An app whose clock advances exactly `step` per update.
fn timed_app(game: Match, control: Option<(Duration, Duration)>, step: Duration) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(step))
        .insert_resource(Settings {
            animation: crate::settings::AnimationSpeed::Off,
            ..Settings::default()
        })
        .insert_resource(game)
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(crate::game::clock::Clocks::new(control))
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::engine::plugin,
            crate::game::clock::plugin,
            crate::game::sound::plugin,
        ));
    app.update();
    app
}

fn left(app: &App, side: Side) -> Duration {
    app.world()
        .resource::<crate::game::clock::Clocks>()
        .left(side)
        .expect("clocks on")
}

#[test]
fn clocks_run_for_the_side_to_move_add_increments_and_flag() {
    let ms = Duration::from_millis;
    let mut app = timed_app(
        Match::new(Position::standard(), [Player::Human, Player::Human], 1),
        Some((ms(1000), ms(500))),
        ms(100),
    );
    // The first update starts the clocks; each later one takes 100 ms from White.
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(left(&app, Side::White), ms(700));
    assert_eq!(left(&app, Side::Black), ms(1000));
    // White plays: +500 ms; now Black's clock runs.
    send(&mut app, Command::PlayText("f2-e3A".into()));
    app.update();
    assert_eq!(left(&app, Side::White), ms(1200), "700 ms left, then +500");
    assert_eq!(left(&app, Side::Black), ms(800));
    // Black lets the clock run out: White wins on time.
    for _ in 0..8 {
        app.update();
    }
    assert_eq!(left(&app, Side::Black), Duration::ZERO);
    let outcome = game(&app).outcome().expect("over");
    assert_eq!(outcome.winner, Some(Side::White));
    assert_eq!(game(&app).flagged(), Some(Side::Black));
    assert_eq!(
        game(&app).result_text().map(|m| m.to_string()).as_deref(),
        Some("White wins: Black ran out of time.")
    );
    // The clocks stop when the game is over.
    let white = left(&app, Side::White);
    app.update();
    assert_eq!(left(&app, Side::White), white);
    assert_eq!(crate::game::clock::clock_text(ms(754_000)), "12:34");
    assert_eq!(crate::game::clock::clock_text(ms(12_345)), "0:12.3");
}

#[test]
fn a_new_game_resets_the_clocks_and_the_menu_choice_sets_them() {
    use crate::game::clock::TimeControl;
    let ms = Duration::from_millis;
    let mut app = timed_app(
        Match::new(Position::standard(), [Player::Human, Player::Human], 1),
        None,
        ms(100),
    );
    assert_eq!(
        app.world()
            .resource::<crate::game::clock::Clocks>()
            .left(Side::White),
        None
    );
    app.world_mut().resource_mut::<Settings>().clock = TimeControl::ThreePlusTwo;
    send(&mut app, Command::NewGame);
    app.update();
    assert_eq!(left(&app, Side::White), ms(180_000 - 100));
    assert_eq!(
        TimeControl::ThreePlusTwo.label().to_string(),
        "3 min + 2 s a turn"
    );
    assert_eq!(TimeControl::OneMinute.label().to_string(), "1 min");
    // Every choice of the menu, and they are distinct.
    let mut settings = Settings::default();
    let mut seen = vec![settings.clock];
    for _ in 1..TimeControl::ALL.len() {
        crate::ui::Choice::Clock.cycle(&mut settings);
        seen.push(settings.clock);
    }
    assert_eq!(seen, TimeControl::ALL);
}

/// An engine that records the clock it was given and plays the first legal turn.
struct ClockSpy(std::sync::Mutex<Vec<Option<fanorona_ai::Clock>>>);

impl EngineAdapter for ClockSpy {
    fn choose(
        &self,
        game: &Game,
        _: u8,
        clock: Option<fanorona_ai::Clock>,
        _: &AtomicBool,
    ) -> Option<Turn> {
        if let Ok(mut seen) = self.0.lock() {
            seen.push(clock);
        }
        game.position().legal_turns().first().copied()
    }
}

#[test]
fn the_engine_plays_within_its_clock() {
    let ms = Duration::from_millis;
    let spy = Arc::new(ClockSpy(std::sync::Mutex::new(Vec::new())));
    let mut app = App::new();
    app.insert_resource(Engine(spy.clone()));
    let game_match = Match::new(Position::standard(), [Player::Engine, Player::Human], 1);
    app.add_plugins(MinimalPlugins)
        .insert_resource(bevy::time::TimeUpdateStrategy::ManualDuration(ms(10)))
        .insert_resource(Settings::default())
        .insert_resource(game_match)
        .insert_resource(MinThink(Duration::ZERO))
        .insert_resource(crate::game::clock::Clocks::new(Some((
            ms(60_000),
            ms(1000),
        ))))
        .add_plugins((
            crate::game::flow::plugin,
            crate::game::engine::plugin,
            crate::game::clock::plugin,
        ));
    update_until(&mut app, "the engine's turn", |app| !turns(app).is_empty());
    let seen = spy.0.lock().expect("lock").clone();
    let clock = seen.first().copied().flatten().expect("a clock was given");
    assert_eq!(clock.increment, ms(1000));
    assert!(clock.remaining <= ms(60_000) && clock.remaining > ms(59_000));
    // The real engine's limits: the clock's budget is what stops it (60 s, no moves to go).
    let limits = fanorona_ai::Limits::default().with_clock(clock);
    let (_, hard) = limits.time_budget().expect("a budget");
    assert!(hard < ms(60_000) / 10, "{hard:?}");
}

// ---------------------------------------------------------------- sound

#[test]
fn generated_sounds_are_valid_wav() {
    use crate::game::sound::{SAMPLE_RATE, SoundCue, samples, wav_bytes};
    let place = samples(SoundCue::Place);
    let wav = wav_bytes(&place);
    // RIFF/WAVE header of 16-bit mono PCM (the layout of the WAVE format).
    assert_eq!(&wav[0..4], b"RIFF");
    assert_eq!(
        u32::from_le_bytes(wav[4..8].try_into().expect("4")),
        wav.len() as u32 - 8
    );
    assert_eq!(&wav[8..16], b"WAVEfmt ");
    assert_eq!(u16::from_le_bytes([wav[20], wav[21]]), 1, "PCM");
    assert_eq!(u16::from_le_bytes([wav[22], wav[23]]), 1, "mono");
    assert_eq!(
        u32::from_le_bytes(wav[24..28].try_into().expect("4")),
        SAMPLE_RATE
    );
    assert_eq!(u16::from_le_bytes([wav[34], wav[35]]), 16, "bits");
    assert_eq!(&wav[36..40], b"data");
    assert_eq!(
        u32::from_le_bytes(wav[40..44].try_into().expect("4")) as usize,
        place.len() * 2
    );
    for cue in [
        SoundCue::Place,
        SoundCue::Capture(1),
        SoundCue::Capture(5),
        SoundCue::GameOver,
    ] {
        let s = samples(cue);
        let peak = s.iter().fold(0.0_f32, |m, x| m.max(x.abs()));
        assert!(peak > 0.1 && peak <= 1.0, "{cue:?}: peak {peak}");
    }
    // Bigger captures sound longer (one click per stone, up to eight).
    let len = |n| samples(SoundCue::Capture(n)).len();
    assert!(len(1) < len(3) && len(3) < len(8));
    assert_eq!(len(8), len(20));
}

#[test]
fn sound_cues_follow_the_game_and_mute() {
    use crate::game::sound::{SoundCue, SoundLog};
    let ms = Duration::from_millis;
    // White a1 and b5; Black c1 and h5: a1-b2 is a paika move... capture first: a1-b1A
    // takes c1; Black h5-i5? Keep it small: the game below, by the rules.
    let mut app = timed_app(
        Match::new(
            Position::from_fen("9/9/9/9/W1B6 w").expect("valid"),
            [Player::Human, Player::Human],
            1,
        ),
        None,
        ms(10),
    );
    let log = |app: &App| app.world().resource::<SoundLog>().0.clone();
    send(&mut app, Command::PlayText("a1-b1A".into()));
    app.update();
    assert_eq!(log(&app), [SoundCue::Capture(1), SoundCue::GameOver]);
    // A paika move: a knock. Muted: nothing.
    let mut app = timed_app(
        Match::new(
            Position::from_fen("8B/9/9/9/W8 w").expect("valid"),
            [Player::Human, Player::Human],
            1,
        ),
        None,
        ms(10),
    );
    send(&mut app, Command::PlayText("a1-b2".into()));
    app.update();
    assert_eq!(log(&app), [SoundCue::Place]);
    app.world_mut().resource_mut::<Settings>().muted = true;
    send(&mut app, Command::PlayText("i5-h5".into()));
    app.update();
    assert_eq!(log(&app), [SoundCue::Place]);
}

#[test]
fn capture_sounds_wait_for_the_animation() {
    use crate::game::sound::{SoundCue, SoundLog};
    let ms = Duration::from_millis;
    let mut app = timed_app(
        Match::new(Position::standard(), [Player::Human, Player::Human], 1),
        None,
        ms(50),
    );
    app.world_mut().resource_mut::<Settings>().animation = crate::settings::AnimationSpeed::Normal;
    // f2-e3A captures d4 and c5: the sound comes when the stone lands (0.35 s).
    send(&mut app, Command::PlayText("f2-e3A".into()));
    let log = |app: &App| app.world().resource::<SoundLog>().0.clone();
    for _ in 0..5 {
        app.update();
    }
    assert!(log(&app).is_empty(), "250 ms: still sliding");
    for _ in 0..3 {
        app.update();
    }
    assert_eq!(log(&app), [SoundCue::Capture(2)]);
}

#[test]
fn process_cpu_time_from_proc_stat() {
    use crate::batch::{parse_proc_stat_cpu, process_cpu_line};
    // pid, the command name (holding a space and a parenthesis), state, fields 4 to 13, then
    // utime 250 and stime 50 ticks of 10 ms.
    let stat = "4242 (fanorona 3d)) R 1 2 3 4 5 6 7 8 9 10 250 50 0 0 20 0 3";
    assert_eq!(parse_proc_stat_cpu(stat), Some(Duration::from_millis(3000)));
    assert_eq!(parse_proc_stat_cpu("4242 (x) R 1 2"), None);
    assert_eq!(parse_proc_stat_cpu("garbage"), None);
    assert!(process_cpu_line(Duration::from_millis(3000), 100).contains("30.0 ms over 100 frames"));
    #[cfg(target_os = "linux")]
    assert!(crate::batch::process_cpu_time().is_some());
}

#[test]
fn benchmark_report_separates_cpu_and_present_time() {
    use crate::batch::{benchmark_report, summarize};
    let s = summarize(&[4.0, 1.0, 3.0, 2.0]).expect("values");
    // Nearest rank on [1, 2, 3, 4]: the median is rank round(1.5) = 2 (from 0), p95 rank 3.
    assert_eq!((s.mean, s.median, s.p95, s.max), (2.5, 3.0, 4.0, 4.0));
    assert_eq!(summarize(&[]), None);
    // The main and render worlds run in parallel: a frame's CPU time is the larger of them.
    let report = benchmark_report(&[10.0, 10.0], &[3.0, 5.0], &[4.0, 2.0], &[6.0, 7.0]);
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines.len(), 5, "{report}");
    assert!(
        lines[0].starts_with("frame    frames: 2 mean: 10.0 ms (100.0 fps)"),
        "{report}"
    );
    assert!(
        lines[1].starts_with("cpu      frames: 2 mean: 4.5 ms (222.2 fps)"),
        "{report}"
    );
    assert!(
        lines[4].starts_with("present  frames: 2 mean: 6.5 ms"),
        "{report}"
    );
}

// ---------------------------------------------------------------- variants

#[test]
fn vela_and_fanoron_telo_are_chosen_in_the_menu_and_played() {
    use crate::ui::Choice;
    use fanorona_core::GameKind;
    let mut settings = Settings::default();
    assert_eq!(Choice::Game.value(&settings).to_string(), "Fanorona");
    Choice::Game.cycle(&mut settings);
    assert_eq!(settings.rules().game(), GameKind::Vela);
    assert_eq!(settings.board_size(), BoardSize::STANDARD);
    // Vela (docs/rules.md): White, the previous winner, opens and makes only paika moves
    // while it has more than five stones; the capture game's start has captures.
    let vela = settings.start_position();
    let legal = vela.legal_turns();
    assert!(!legal.is_empty() && legal.iter().all(Turn::is_paika));
    assert!(
        Position::standard()
            .legal_turns()
            .iter()
            .all(Turn::is_capture)
    );
    Choice::Game.cycle(&mut settings);
    assert_eq!(settings.rules().game(), GameKind::Telo);
    assert_eq!(settings.board_size(), BoardSize::TELO);
    // Fanoron-Telo keeps its board.
    Choice::Board.cycle(&mut settings);
    assert_eq!(settings.board_size(), BoardSize::TELO);
    // Back to Fanorona: the standard board again.
    let mut back = settings.clone();
    Choice::Game.cycle(&mut back);
    assert_eq!(
        (back.rules().game(), back.board_size()),
        (GameKind::Capture, BoardSize::STANDARD)
    );

    // Fanoron-Telo on the empty 3x3 board: stones are placed by clicks, then three in a row
    // wins. White a1, b1, c1 (the bottom rank) against Black a3, b3.
    let mut app = two_people(settings.start_position());
    let p = |name: &str| BoardSize::TELO.parse_point(name).expect("a 3x3 point");
    assert_eq!(
        view(&app).targets.len(),
        9,
        "every point of the empty board"
    );
    assert!(
        game(&app).message().to_string().contains("place"),
        "{}",
        game(&app).message()
    );
    for name in ["a1", "a3", "b1", "b3", "c1"] {
        send(&mut app, Command::Click(p(name)));
    }
    assert_eq!(turns(&app), ["a1", "a3", "b1", "b3", "c1"]);
    let outcome = game(&app).outcome().expect("three in a line");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(Side::White), EndReason::Alignment)
    );
    assert_eq!(
        game(&app).result_text().map(|m| m.to_string()).as_deref(),
        Some("White wins: three stones in a line.")
    );
    // A record of it reads back (the rules go in the record).
    let text = record_text(game(&app).game(), game(&app).players(), 1).expect("writable");
    let back = parse_record_text(&text).expect("reads back");
    assert_eq!(back.turns(), game(&app).game().turns());
}

#[test]
fn vela_turns_are_made_by_clicks_under_vela_rules() {
    use fanorona_core::Rules;
    // docs/rules.md, Vela: White opens with a paika that gives Black a capture (e2-e3 gives
    // none, so it is refused), and Black's capture takes one stone only.
    let start = Position::start_with(BoardSize::STANDARD, Rules::VELA).expect("Vela's start");
    let mut app = two_people(start);
    let p = |name: &str| BoardSize::STANDARD.parse_point(name).expect("a 5x9 point");
    // e2 has no legal move: picking it up and clicking e3 plays nothing.
    send(&mut app, Command::Click(p("e2")));
    send(&mut app, Command::Click(p("e3")));
    assert!(turns(&app).is_empty(), "{:?}", turns(&app));
    send(&mut app, Command::Click(p("d3")));
    send(&mut app, Command::Click(p("e3")));
    assert_eq!(turns(&app), ["d3-e3"]);
    // Black d4-d3 approaches d2: in the capture game it would take d2 and d1; here d2 only.
    send(&mut app, Command::Click(p("d4")));
    send(&mut app, Command::Click(p("d3")));
    assert_eq!(turns(&app), ["d3-e3", "d4-d3A"]);
    let pos = *game(&app).game().position();
    assert_eq!(pos.stones(Side::White).count(), 21);
    assert_eq!(pos.stone_at(p("d2")), None);
    assert_eq!(pos.stone_at(p("d1")), Some(Side::White));
}

/// The engine level a settings file reads as.
fn level_of(json: &str) -> u8 {
    serde_json::from_str::<crate::settings::Settings>(json)
        .expect("settings")
        .level
}

#[test]
fn the_level_is_saved_by_name_and_old_numbers_keep_their_level() {
    let settings = crate::settings::Settings {
        level: fanorona_ai::Level::Casual.number(),
        ..crate::settings::Settings::default()
    };
    let json = serde_json::to_string(&settings).expect("json");
    assert!(json.contains(r#""level":"casual""#), "{json}");
    assert_eq!(level_of(&json), fanorona_ai::Level::Casual.number());
    // Files written before the fourteen levels numbered four levels from 1.
    assert_eq!(
        level_of(r#"{"level":1}"#),
        fanorona_ai::Level::Beginner.number()
    );
    assert_eq!(
        level_of(r#"{"level":2}"#),
        fanorona_ai::Level::Casual.number()
    );
    assert_eq!(
        level_of(r#"{"level":3}"#),
        fanorona_ai::Level::Strong.number()
    );
    assert_eq!(
        level_of(r#"{"level":4}"#),
        fanorona_ai::Level::Maximum.number()
    );
    // A hand-edited file cannot break the game: anything else is the default level.
    for odd in [
        r#"{"level":0}"#,
        r#"{"level":99}"#,
        r#"{"level":"grandmaster"}"#,
        r#"{"level":[1]}"#,
    ] {
        assert_eq!(
            level_of(odd),
            fanorona_ai::Level::Beginner.number(),
            "{odd}"
        );
    }
    assert_eq!(
        level_of(r#"{"level":"maximum"}"#),
        fanorona_ai::Level::Maximum.number()
    );
}
