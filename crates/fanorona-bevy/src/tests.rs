//! Headless tests of the game flow: an `App` with `MinimalPlugins`, simulated clicks, keys and
//! buttons as messages, assertions on the world. Expected turns and captures are worked out by
//! hand from the rules in `shared/rules.md`.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use bevy::prelude::*;
use fanorona_core::{
    Bitboard, BoardSize, Color as Side, Direction, EndReason, Game, Point, Position, StepKind, Turn,
};

use crate::cli::{ArgError, Parsed, parse_args};
use crate::engine::{Engine, EngineAdapter, MinThink, Thinking};
use crate::flow::{BoardView, Command, Match, Player, StepPlayed};
use crate::persist::{GamesDir, Persist, PersistStatus, parse_record_text, record_text};
use crate::settings::{Settings, load_settings, save_settings};

fn pt(name: &str) -> Point {
    BoardSize::STANDARD
        .parse_point(name)
        .expect("a point of the standard board")
}

fn bits(names: &[&str]) -> Bitboard {
    names.iter().fold(Bitboard::EMPTY, |b, n| b | pt(n).bit())
}

fn app_with(game: Match) -> App {
    let mut app = App::new();
    app.add_plugins(MinimalPlugins)
        .insert_resource(Settings::default())
        .insert_resource(game)
        .insert_resource(MinThink(Duration::ZERO))
        .add_plugins((
            crate::flow::plugin,
            crate::persist::plugin,
            crate::engine::plugin,
        ));
    app.update();
    app
}

fn two_people(position: Position) -> App {
    app_with(Match::new(position, [Player::Human, Player::Human], 1))
}

fn send(app: &mut App, command: Command) {
    app.world_mut().write_message(command);
    app.update();
}

fn click(app: &mut App, point: &str) {
    send(app, Command::Click(pt(point)));
}

fn game(app: &App) -> &Match {
    app.world().resource::<Match>()
}

fn view(app: &App) -> &BoardView {
    app.world().resource::<BoardView>()
}

fn turns(app: &App) -> Vec<String> {
    game(app)
        .game()
        .turns()
        .iter()
        .map(Turn::to_string)
        .collect()
}

/// Temporary directory unique to one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("fanorona-bevy-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

// A single white stone on a1, black on c1 and b3, and a black stone far away on i5:
// a1-b1A captures c1, then b1-b2A may capture b3.
const CHAIN: &str = "8B/9/1B7/9/W1B6 w";

#[test]
fn capture_is_compulsory_and_marks_the_capturing_stones() {
    let mut app = two_people(Position::standard());
    // The five opening turns use the stones on d2, e2, f2 and d3.
    assert_eq!(view(&app).must_capture, bits(&["d2", "e2", "f2", "d3"]));
    assert!(view(&app).interactive);
    click(&mut app, "a1");
    assert_eq!(game(&app).selected(), None);
    assert!(
        game(&app).message().contains("compulsory"),
        "{}",
        game(&app).message()
    );
    click(&mut app, "e4");
    assert_eq!(game(&app).selected(), None);
    assert!(game(&app).message().contains("black stone"));
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
        crate::input::keys_to_commands.before(crate::flow::FlowSet),
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
    game.play(reply).expect("legal");
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
    assert!(
        game(&app).message().contains("White wins"),
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
    fn choose(&self, _: &Game, _: u8, stop: &AtomicBool) -> Option<Turn> {
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
        .add_plugins((crate::flow::plugin, crate::engine::plugin));
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
        assert!(status.text.contains(name), "{status:?}");
        assert_eq!(turns(&app), vec!["d2-e3A"], "the game is untouched");
    }
    app.world_mut()
        .write_message(Persist::Load(dir.join("missing.fgn")));
    app.update();
    let status = app.world().resource::<PersistStatus>().clone();
    assert!(
        status.error && status.text.contains("missing.fgn"),
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
    let saved: Vec<PathBuf> = crate::persist::saved_games(&dir);
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
    game.play(reply).expect("legal");
    let text = record_text(&game, [Player::Human, Player::Engine], 4).expect("writable");
    assert!(text.contains("[White \"Person\"]"), "{text}");
    assert!(text.contains("[Black \"fanorona-ai level 4\"]"), "{text}");
    assert!(text.contains("1. d3-e3W"), "{text}");
    let back = parse_record_text(&text).expect("own records load");
    assert_eq!(back.turns(), game.turns());
    // A resignation survives through the result token.
    game.resign(Side::White);
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
    rules.compulsory_continuation = true;
    settings.set_rules(rules);
    save_settings(&path, &settings).expect("save");
    let back = load_settings(&path).expect("load");
    assert_eq!(back, settings);
    assert_eq!(back.board_size(), BoardSize::DIMY);
    assert!(back.rules().compulsory_continuation);
    std::fs::write(&path, "{ not json").expect("write");
    let error = load_settings(&path).expect_err("corrupt file");
    assert!(error.to_string().contains("settings.json"), "{error}");
    // Out-of-range values are repaired, not trusted.
    std::fs::write(&path, r#"{"level": 99, "board": "4x4"}"#).expect("write");
    let repaired = load_settings(&path).expect("load");
    assert_eq!((repaired.level, repaired.board.as_str()), (4, "5x9"));
}

#[test]
fn command_line() {
    let args = |a: &[&str]| parse_args(a.iter().map(|s| s.to_string()));
    let Ok(Parsed::Run(o)) = args(&["--screenshot", "out.png", "--size", "640x360"]) else {
        panic!("valid arguments");
    };
    assert_eq!(o.screenshot, Some(PathBuf::from("out.png")));
    assert_eq!(o.size, Some((640, 360)));
    assert_eq!(o.timeout, 120);
    assert_eq!(
        args(&["--size", "640"]).unwrap_err().to_string(),
        "option --size: \"640\" is not a size WxH between 64 and 8192, like 1280x720"
    );
    assert_eq!(
        args(&["--turn"]),
        Err(ArgError::MissingValue("--turn".into()))
    );
    assert_eq!(
        args(&["--turn", "3"]),
        Err(ArgError::Conflict("--turn needs --game"))
    );
    assert_eq!(
        args(&["--frobnicate"]),
        Err(ArgError::Unknown("--frobnicate".into()))
    );
    assert_eq!(args(&["--help"]), Ok(Parsed::Help));
    let Ok(Parsed::Run(o)) = args(&["--game", "g.fgn", "--turn", "20", "--clicks", "b2, b3"])
    else {
        panic!("valid arguments");
    };
    assert_eq!(
        (o.turn, o.clicks),
        (Some(20), vec!["b2".to_string(), "b3".to_string()])
    );
}
