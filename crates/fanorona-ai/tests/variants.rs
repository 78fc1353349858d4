//! The engine plays Vela and Fanoron-Telo (`docs/rules.md`): it finds and parries Telo's lines
//! of three (a game without captures), and whole engine games stay legal to their end.

use std::sync::atomic::AtomicBool;

use fanorona_ai::{Level, Limits, Score, SearchOptions, Searcher};
use fanorona_core::{BoardSize, Color, EndReason, Game, GameKind, Position, Rules};

fn best(pos: Position, depth: u32) -> (String, Score) {
    let game = Game::new(pos);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    let r = searcher
        .search(
            &game,
            &Limits::depth(depth),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .expect("a turn");
    (r.best.to_string(), r.score)
}

#[test]
fn telo_the_engine_completes_a_line() {
    // White a3 b3, Black a2 b2, White to place: c3 makes the top rank.
    let pos = Position::from_fen("WW1/BB1/3 w telo").unwrap();
    assert_eq!(best(pos, 4), ("c3".to_owned(), Score::Win(1)));
    // The win is a win even where a stuck side would only draw.
    let draws: Rules = "game=telo,stuck=draws".parse().unwrap();
    let pos = Position::from_fen_with("WW1/BB1/3 w", draws).unwrap();
    assert_eq!(best(pos, 4), ("c3".to_owned(), Score::Win(1)));
}

#[test]
fn telo_the_engine_blocks_a_line() {
    // White a3 b3 threatens c3; Black (one stone, a2) must place there: any other placement
    // lets White complete the rank.
    let pos = Position::from_fen("WW1/B2/3 b telo").unwrap();
    let (turn, score) = best(pos, 6);
    assert_eq!(turn, "c3");
    assert!(!matches!(score, Score::Win(n) if n < 0), "{score:?}");
}

/// Plays `plies` turns (or to the end) with the engine on both sides, checking each turn
/// against the position's legal turns.
fn engine_game(start: Position, depth: u32, plies: usize) -> Game {
    let mut game = Game::new(start);
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let r = searcher
            .search(
                &game,
                &Limits::depth(depth),
                &SearchOptions::default(),
                &stop,
                |_| {},
            )
            .expect("a game in progress has a turn");
        assert!(game.position().legal_turns().contains(&r.best));
        game.play(&r.best).expect("legal");
    }
    game
}

#[test]
fn telo_engine_games_end_legally() {
    let start = Position::start_with(BoardSize::TELO, Rules::TELO).unwrap();
    // Fanoron-Telo is a win for White in 9 plies (docs/solver.md): searching deep enough,
    // the engine finds it from the start and wins the game with a line of three.
    let (_, score) = best(start, 10);
    assert_eq!(score, Score::Win(5));
    let game = engine_game(start, 10, 200);
    let o = game.outcome().expect("over within 200 turns");
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::Alignment)
    );
    assert_eq!(game.turns().len(), 9);
    assert!(game.turns().iter().take(6).all(|t| t.is_placement()));
    assert!(game.turns().iter().skip(6).all(|t| t.is_paika()));
    // Shallow engines play to an end too, each turn legal.
    let game = engine_game(start, 3, 300);
    if let Some(o) = game.outcome() {
        assert!(matches!(
            o.reason,
            EndReason::Alignment | EndReason::Repetition
        ));
    }
    // A level for people plays it too, each turn legal, from the start and mid-game.
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(4);
    let mut g = Game::new(start);
    for seed in 0..12 {
        if g.outcome().is_some() {
            break;
        }
        let r = Level::Beginner
            .play(&mut searcher, &g, seed, &stop, |_| {})
            .unwrap();
        g.play(&r.best).expect("legal");
    }
}

#[test]
fn vela_engine_games_stay_legal() {
    let start = Position::start_with(BoardSize::STANDARD, Rules::VELA).unwrap();
    let game = engine_game(start, 3, 60);
    let mut pos = start;
    for turn in game.turns() {
        if pos.is_vela_phase() {
            match pos.side_to_move() {
                Color::White => assert!(turn.is_paika(), "{turn}"),
                Color::Black => assert!(turn.len() == 1 && turn.captured().count() <= 1),
            }
        }
        pos = pos.play(turn).expect("legal");
    }
    assert_eq!(game.position().rules().game(), GameKind::Vela);
    // Black took stones one at a time: after 60 turns White has lost some, Black none while
    // the phase lasted.
    assert!(game.position().stones(Color::White).count() < 22);
}

/// Runs the engine protocol on `input`, returning its output.
fn protocol(input: &str) -> String {
    let out = fanorona_ai::protocol::SharedBuffer::default();
    fanorona_ai::protocol::run(std::io::Cursor::new(input.as_bytes().to_vec()), out.clone())
        .expect("no I/O error in memory");
    out.text()
}

#[test]
fn the_engine_protocol_plays_both_games() {
    // Telo's rules bring the 3x3 board; a placement is a turn like any other.
    let out = protocol(
        "uci\nsetoption name Rules value game=telo\nucinewgame\nposition startpos moves b2 a1\n\
         go depth 4\nquit\n",
    );
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let pos = Position::from_fen("3/1W1/B2 w 2 2 telo").unwrap();
    assert!(
        pos.parse_turn(best.split(' ').next().unwrap()).is_ok(),
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
    // A position string with its game word, and a Telo position on another board refused.
    let out = protocol("position fen WW1/BB1/3 w telo\ngo depth 3\nquit\n");
    assert!(out.contains("bestmove c3"), "{out}");
    let out = protocol("setoption name game value telo\nsetoption name Board value 5x9\nquit\n");
    assert!(out.contains("error"), "{out}");
    // Vela by its option: White opens with a surrendering paika.
    let out = protocol("setoption name game value vela\nposition startpos\ngo depth 2\nquit\n");
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let vela = Position::start_with(BoardSize::STANDARD, Rules::VELA).unwrap();
    let turn = vela.parse_turn(best.split(' ').next().unwrap()).unwrap();
    assert!(turn.is_paika(), "{out}");
}

fn bell_rules() -> Rules {
    "game=vela,vela=bell".parse().unwrap()
}

#[test]
fn bell_vela_engine_games_stay_legal() {
    let start = Position::start_with(BoardSize::STANDARD, bell_rules()).unwrap();
    let game = engine_game(start, 3, 60);
    let mut pos = start;
    for turn in game.turns() {
        if pos.is_vela_phase() {
            match pos.side_to_move() {
                // White receives the handicap: one step, one stone, every turn.
                Color::White => assert!(turn.len() == 1 && turn.captured().count() == 1),
                Color::Black => assert!(turn.is_paika(), "{turn}"),
            }
        }
        pos = pos.play(turn).expect("legal");
    }
    assert_eq!(game.position().rules(), bell_rules());
    // White took a stone at each of its turns while Black had more than five.
    assert!(game.position().stones(Color::Black).count() < 22);
    if let Some(o) = game.outcome()
        && o.reason == EndReason::NoVelaCapture
    {
        assert_eq!(o.winner, Some(Color::Black));
    }
}

#[test]
fn bell_vela_the_engine_knows_a_receiver_without_capture_loses() {
    // 5x5: Black (the giver, six stones on the e-file and d5) against White's a1, which can
    // only take a stone brought to a3, c1 or c3. No black paika does, so any of them leaves
    // White without a capture: Black wins at once, even where a stuck side would draw.
    let rules = bell_rules().with_stuck(fanorona_core::StuckRule::Draws);
    let pos = Position::from_fen_with("3BB/4B/4B/4B/W3B b vela", rules).unwrap();
    assert_eq!(best(pos, 3).1, Score::Win(1));
    // Under Montgomery's Vela Black receives the handicap there, and nothing is decided.
    let montgomery = Rules::VELA.with_stuck(fanorona_core::StuckRule::Draws);
    let pos = Position::from_fen_with("3BB/4B/4B/4B/W3B b vela", montgomery).unwrap();
    assert_ne!(best(pos, 3).1, Score::Win(1));
}

#[test]
fn the_engine_protocol_plays_bell_vela() {
    let out = protocol("uci\nquit\n");
    assert!(
        out.contains("option name vela type combo default montgomery var montgomery var bell"),
        "{out}"
    );
    // By the single options, as a match sends them to an engine without `Rules`.
    let out = protocol(
        "setoption name game value vela\nsetoption name vela value bell\nposition startpos\n\
         go depth 2\nquit\n",
    );
    let best = out
        .lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .unwrap();
    let start = Position::start_with(BoardSize::STANDARD, bell_rules()).unwrap();
    let turn = start.parse_turn(best.split(' ').next().unwrap()).unwrap();
    assert_eq!((turn.len(), turn.captured().count()), (1, 1), "{out}");
    // The loss of a receiver without a capture, found by the search and told as game over.
    let out = protocol(
        "setoption name Rules value game=vela,vela=bell,stuck=draws\nsetoption name Board value 5x5\n\
         position fen 3BB/4B/4B/4B/W3B b vela\ngo depth 3\nquit\n",
    );
    assert!(out.contains("score win 1"), "{out}");
    let out = protocol(
        "setoption name Rules value game=vela,vela=bell\nsetoption name Board value 5x5\n\
         position fen 3BB/4B/4B/4B/W2B1 w vela\ngo depth 3\nquit\n",
    );
    assert!(out.contains("bestmove (none)"), "{out}");
    assert!(out.contains("no capture in Vela"), "{out}");
    let out = protocol("setoption name vela value wikipedia\nquit\n");
    assert!(out.contains("error"), "{out}");
}
