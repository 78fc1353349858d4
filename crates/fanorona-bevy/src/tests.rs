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

use crate::cli::LaunchOptions;
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
    assert_eq!(args(&["--tutorial", "3"]).expect("valid").tutorial, Some(3));
    assert!(args(&["--tutorial", "9"]).is_err());
}

#[test]
fn every_board_size_is_offered_and_the_camera_fits_it() {
    use crate::board::board_extent;
    use crate::camera::{Orbit, board_bounds, panel_gap};
    let choices = crate::settings::board_choices();
    assert_eq!(choices.len(), 15);
    assert_eq!(choices[0], BoardSize::STANDARD);
    for size in BoardSize::ALL {
        assert!(choices.contains(&size), "{size} is offered");
    }
    // Cycling the menu's board setting visits every size and comes back.
    let mut settings = Settings::default();
    let mut seen = vec![settings.board_size()];
    for _ in 0..15 {
        crate::ui::Choice::Board.cycle(&mut settings);
        seen.push(settings.board_size());
    }
    assert_eq!(seen[15], BoardSize::STANDARD);
    seen.pop();
    seen.sort_by_key(|s| (s.rows(), s.cols()));
    seen.dedup();
    assert_eq!(seen.len(), 15);
    for size in BoardSize::ALL {
        for window in [
            Vec2::new(1280.0, 720.0),
            Vec2::new(1920.0, 1080.0),
            Vec2::new(800.0, 600.0),
            Vec2::new(1000.0, 1200.0),
        ] {
            let (xmin, xmax) = panel_gap(window);
            for yaw in [0.0, std::f32::consts::PI] {
                let extent = board_extent(size);
                let orbit = Orbit::home(extent, window, yaw);
                let (lo, hi) = board_bounds(&orbit, extent, window);
                let tol = 0.01;
                assert!(
                    lo.x >= xmin - tol
                        && hi.x <= xmax + tol
                        && lo.y >= -1.0 - tol
                        && hi.y <= 1.0 + tol,
                    "{size} in {window}: board {lo}..{hi}, room x {xmin}..{xmax}"
                );
                // It fills the room: nearly all of the width between the panels or of the height.
                let fill = ((hi.x - lo.x) / (xmax - xmin)).max((hi.y - lo.y) / 2.0);
                assert!(fill > 0.9, "{size} in {window}: fills only {fill}");
                // Centred between the panels.
                assert!(
                    ((lo.x + hi.x) - (xmin + xmax)).abs() < 0.02,
                    "{size} {window}"
                );
            }
        }
    }
}

#[test]
fn every_board_size_plays_by_clicks() {
    for size in BoardSize::ALL {
        let position = Position::start(size);
        let mut app = two_people(position);
        assert_eq!(view(&app).size, size);
        let stones = position.stones(Side::White).count() + position.stones(Side::Black).count();
        assert_eq!(view(&app).stones.len() as u32, stones as u32, "{size}");
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
    assert_eq!(settings.level(), 1);
    assert_eq!(
        crate::engine::ai_level(settings.level()),
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
        game(&app).message().contains("d3-e3"),
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
        game(&app).message().contains("chain"),
        "{}",
        game(&app).message()
    );
    send(&mut app, Command::Undo);
    send(&mut app, Command::PlayText("a1-b1A-b2A".into()));
    assert_eq!(turns(&app), vec!["a1-b1A-b2A"]);
}

#[test]
fn typing_line_keys() {
    use crate::input::{EntryEffect, TurnEntry};
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
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};
    let mut app = two_people(Position::standard());
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<crate::input::TurnEntry>()
        .add_message::<KeyboardInput>()
        .add_systems(
            Update,
            (crate::input::type_turn, crate::input::keys_to_commands)
                .chain()
                .before(crate::flow::FlowSet),
        );
    let press = |app: &mut App, code: KeyCode, key: Key| {
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
    };
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

fn with_analysis(mut app: App) -> App {
    app.add_plugins(crate::analysis::plugin);
    app.update();
    app
}

fn update_until(app: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(app) {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(5));
        app.update();
    }
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
        game(&app).message().contains("Hint"),
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
    assert_eq!(report.score_text(), "White wins in 1");
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

#[test]
fn evaluation_bar_and_line_text() {
    use crate::analysis::Report;
    use fanorona_ai::Score;
    let standard = Position::standard();
    let t1 = standard.parse_turn("d3-e3W").expect("legal");
    let mut after = Game::new(standard);
    after.play(t1).expect("legal");
    let t2 = after.position().legal_turns()[0];
    let report = |score, side, pv: Vec<Turn>| Report {
        depth: 3,
        score,
        side,
        pv,
        nodes: 10,
        finished: true,
    };
    let r = report(Score::Cp(0), Side::White, vec![t1, t2, t1]);
    assert!((r.white_share() - 0.5).abs() < 1e-6);
    assert_eq!(r.score_text(), "+0.00");
    assert_eq!(
        r.line_text(0, Side::White, 6),
        format!("1. {t1} {t2} 2. {t1}")
    );
    assert_eq!(r.line_text(1, Side::White, 2), format!("1... {t1} 2. {t2}"));
    // Black to move and a stone and a half ahead: White's share is below a half, and the
    // text is from White's side.
    let r = report(Score::Cp(150), Side::Black, vec![]);
    assert!(r.white_share() < 0.4);
    assert_eq!(r.score_text(), "-1.50");
    let r = report(Score::Win(-2), Side::Black, vec![]);
    assert_eq!(r.score_text(), "White wins in 2");
    assert!((r.white_share() - 1.0).abs() < 1e-6);
}

fn tutorial_app() -> App {
    use crate::Screen;
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, bevy::state::app::StatesPlugin))
        .insert_resource(Settings::default())
        .insert_resource(MinThink(Duration::ZERO))
        .init_state::<Screen>()
        .add_plugins((
            crate::flow::plugin,
            crate::engine::plugin,
            crate::tutorial::plugin,
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
            assert!(!t.passed, "lesson {i}: {wrong} is wrong");
            assert_eq!(t.wrong_tries, 1);
            assert!(
                t.feedback.starts_with("Not quite") && t.feedback.contains(wrong),
                "lesson {i}: {}",
                t.feedback
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
        assert!(t.feedback.starts_with("Right!"), "{}", t.feedback);
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
        game(&app).message().contains("compulsory"),
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
