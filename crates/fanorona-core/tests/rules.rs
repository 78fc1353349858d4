//! Hand-checked cases for each rule, rule option, end of game and error message.

use fanorona_core::{
    BoardSize, Color, EndReason, FenError, Game, PlayError, Position, Rules, StepError, StuckRule,
    TurnError,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn texts(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_turns().iter().map(|t| t.to_string()).collect();
    v.sort();
    v
}

/// White c1 can capture c3 by approach (c1-c2A), then a2 by approach (c2-b2A): worked out by
/// hand on the 5x5 board.
const CHAIN: &str = "5/5/2B2/B4/2W2 w";

#[test]
fn chain_stopping_points_are_turns() {
    assert_eq!(texts(&pos(CHAIN)), ["c1-c2A", "c1-c2A-b2A"]);
}

#[test]
fn compulsory_continuation_keeps_only_full_chains() {
    let rules: Rules = "compulsory-continuation".parse().unwrap();
    let p = Position::from_fen_with(CHAIN, rules).unwrap();
    assert_eq!(texts(&p), ["c1-c2A-b2A"]);
    let mut b = p.begin_turn();
    assert_eq!(b.finish(), Err(StepError::CannotEnd));
    let first = b.legal_steps()[0];
    b.play_step(first).unwrap();
    assert!(!b.can_end(), "must continue while a capture is possible");
    let second = b.legal_steps()[0];
    assert_eq!(second.to.to_string(), "b2");
    b.play_step(second).unwrap();
    assert!(b.can_end());
    assert_eq!(b.finish().unwrap().to_string(), "c1-c2A-b2A");
}

#[test]
fn opening_restriction_applies_to_turn_one_only() {
    let rules: Rules = "opening-restriction=on".parse().unwrap();
    let first = Position::from_fen_with(CHAIN, rules).unwrap();
    assert_eq!(texts(&first), ["c1-c2A"]);
    let later = Position::from_fen_with("5/5/2B2/B4/2W2 w 0 2", rules).unwrap();
    assert_eq!(texts(&later), ["c1-c2A", "c1-c2A-b2A"]);
}

#[test]
fn no_repeated_direction() {
    // Rank 1 of 5x5 reads B W . . B. b1-c1W captures a1; from c1, d1 would approach e1 but
    // goes east again, which a chain may not do; no other step from c1 captures.
    let p = pos("5/5/5/5/BW2B w");
    assert_eq!(texts(&p), ["b1-c1W"]);
    assert!(matches!(
        p.parse_turn("b1-c1W-d1A"),
        Err(TurnError::Illegal { .. })
    ));
}

#[test]
fn no_revisit_of_the_starting_point() {
    // c3-c4A (takes c5), c4-d4A (takes e4), d4-d3A (takes d2): legal. Then d3-c3 would approach
    // b3, but c3 is where the stone started.
    let p = pos("2B2/4B/1BW2/3B1/5 w");
    let chain = p.parse_turn("c3-c4A-d4A-d3A").unwrap();
    assert_eq!(chain.captured().count(), 3);
    assert!(matches!(
        p.parse_turn("c3-c4A-d4A-d3A-c3A"),
        Err(TurnError::Illegal { .. })
    ));
    assert!(
        p.legal_turns()
            .iter()
            .all(|t| t.len() <= 3 || !t.to_string().ends_with("c3A"))
    );
}

#[test]
fn paika_only_without_captures() {
    // Far apart stones: no capture, so every adjacent empty point is a paika. a1 is strong:
    // three moves (a2, b1, b2); e5 likewise (d5, e4, d4).
    let p = pos("4B/5/5/5/W4 w");
    assert_eq!(texts(&p), ["a1-a2", "a1-b1", "a1-b2"]);
    assert!(!p.has_capture());
}

#[test]
fn capture_is_compulsory() {
    // In the chain position White must capture: the paika c1-d1 is illegal.
    let p = pos(CHAIN);
    let err = p.parse_turn("c1-d1").unwrap_err();
    assert!(matches!(err, TurnError::Illegal { .. }));
    assert!(err.to_string().contains("compulsory"), "{err}");
    let err = Position::standard().parse_turn("c3-b4").unwrap_err();
    assert!(err.to_string().contains("side not to move"), "{err}");
}

#[test]
fn stuck_player_loses_or_draws() {
    // Black's only stone is surrounded: no legal turn.
    let p = pos("WWW/WBW/WWW b");
    let o = p.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::Stuck));
    let draws = Rules::STANDARD.with_stuck(StuckRule::Draws);
    let o = p.with_rules(draws).unwrap().outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, EndReason::Stuck));
}

#[test]
fn no_stones_loses() {
    let o = pos("BBB/3/3 w").outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::NoStones)
    );
    assert_eq!(o.result_str(), "0-1");
}

#[test]
fn third_repetition_draws() {
    let mut game = Game::new(pos("4B/5/5/5/W4 w"));
    let shuffle = ["a1-b1", "e5-d5", "b1-a1", "d5-e5"];
    for (i, t) in shuffle.iter().chain(&shuffle).enumerate() {
        assert!(game.outcome().is_none(), "over before turn {}", i + 1);
        game.play_text(t).unwrap();
    }
    // The start position now stands for the third time.
    assert_eq!(game.repetitions(), 3);
    let o = game.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, EndReason::Repetition));
    assert!(matches!(
        game.play_text("a1-b1"),
        Err(PlayError::GameOver(_))
    ));
    // Undo brings the game back.
    game.undo();
    assert!(game.outcome().is_none());
}

#[test]
fn no_capture_limit_draws() {
    let rules: Rules = "no-capture-limit=3".parse().unwrap();
    let mut game = Game::new(Position::from_fen_with("4B/5/5/5/W4 w", rules).unwrap());
    for t in ["a1-b1", "e5-d5"] {
        game.play_text(t).unwrap();
    }
    assert!(game.outcome().is_none());
    game.play_text("b1-a1").unwrap();
    let o = game.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (None, EndReason::NoCaptureLimit));
}

#[test]
fn undo_restores_position_and_hash() {
    let mut game = Game::default();
    let start = *game.position();
    game.play_text("d3-e3W").unwrap();
    let reply = game.position().legal_turns()[0];
    game.play(&reply).unwrap();
    game.undo();
    game.undo();
    assert_eq!(*game.position(), start);
    assert_eq!(game.position().zobrist(), start.compute_zobrist());
    assert_eq!(game.undo(), None);
}

#[test]
fn resignation_and_agreement() {
    let mut game = Game::default();
    game.resign(Color::White).unwrap();
    let o = game.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::Black), EndReason::Resignation)
    );
    game.undo();
    assert!(game.outcome().is_none());
    game.agree_draw().unwrap();
    assert_eq!(game.outcome().unwrap().reason, EndReason::Agreement);
}

#[test]
fn position_string_errors_say_where() {
    let cases: [(&str, &str); 9] = [
        ("", "position string is empty"),
        ("BBB/WWW w", "has 2 rank(s)"),
        (
            "BBB/B1W/WWWW w",
            "rank 1: 4 points wide, but the top rank has 3",
        ),
        (
            "BBB/B1W/W?W w",
            "rank 1, character 2: '?' is not W, B or a digit",
        ),
        ("BBBB/B2W/WWWW w", "unsupported board size 3x4"),
        ("BBB/B1W/WWW", "side to move (w or b) is missing"),
        ("BBB/B1W/WWW x", "side to move must be w or b, not \"x\""),
        ("BBB/B1W/WWW w 0 1 2", "unexpected text \"2\""),
        (
            "BBB/B1W/WWW w 0 1 extra",
            "the game must be vela or telo, not \"extra\"",
        ),
    ];
    for (fen, message) in cases {
        let err = Position::from_fen(fen).unwrap_err();
        assert!(err.to_string().contains(message), "{fen:?}: {err}");
    }
    assert_eq!(
        Position::from_fen("BBB/B1W/W?W w").unwrap_err(),
        FenError::BadChar {
            rank: 1,
            column: 2,
            found: '?'
        }
    );
}

#[test]
fn turn_text_errors() {
    let p = Position::standard();
    // Syntax: where and what.
    let err = p.parse_turn("f2-z3A").unwrap_err();
    assert!(
        matches!(err, TurnError::Syntax(ref e) if e.offset == 3),
        "{err:?}"
    );
    let err = p.parse_turn("f2").unwrap_err();
    assert!(matches!(err, TurnError::Syntax(_)));
    let err = p.parse_turn("f2-j3A").unwrap_err();
    assert!(err.to_string().contains("character 4"), "{err}");
    // Off the 5x5 board.
    let dimy = Position::start(BoardSize::DIMY);
    assert!(matches!(
        dimy.parse_turn("f2-e3A"),
        Err(TurnError::Syntax(_))
    ));
    // Ambiguous: d3-e3 may approach or withdraw.
    match p.parse_turn("d3-e3").unwrap_err() {
        TurnError::Ambiguous { candidates, .. } => {
            assert_eq!(candidates.len(), 2);
        }
        other => panic!("{other:?}"),
    }
    // A letter may be left out where only one capture is possible.
    assert_eq!(p.parse_turn("f2-e3").unwrap().to_string(), "f2-e3A");
    // Wrong side.
    let err = p.parse_turn("d4-e3A").unwrap_err();
    assert!(err.to_string().contains("side not to move"), "{err}");
}

#[test]
fn start_positions_of_every_size() {
    for size in BoardSize::ALL {
        let p = Position::start(size);
        let (rows, cols) = (size.rows() as u32, size.cols() as u32);
        // Each side: the ranks on its half plus half the middle rank without the centre.
        let each = (rows / 2) * cols + cols / 2;
        assert_eq!(p.stones(Color::White).count(), each, "{size}");
        assert_eq!(p.stones(Color::Black).count(), each, "{size}");
        let centre = size.point((cols / 2) as u8, (rows / 2) as u8).unwrap();
        assert_eq!(p.empty(), centre.bit(), "{size}: only the centre is empty");
        assert!(p.legal_turns().iter().all(|t| t.is_capture()), "{size}");
    }
    assert_eq!(
        Position::start(BoardSize::STANDARD).to_fen(),
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w"
    );
}

#[test]
fn turns_of_one_stone() {
    // 3x7, White on e3, g2 and g1: only e3 can move (to e2); g1 and g2 block each other.
    let p = pos("1BBBWBB/BBBB1BW/BBBB1BW w 0 5");
    assert_eq!(texts(&p), ["e3-e2"]);
    for name in ["g1", "g2", "a3", "b3"] {
        let mut n = 0;
        p.for_each_turn_from(p.size().parse_point(name).unwrap(), |_| n += 1);
        assert_eq!(n, 0, "{name}");
    }
    let mut from_e3 = Vec::new();
    p.for_each_turn_from(p.size().parse_point("e3").unwrap(), |t| {
        from_e3.push(t.to_string())
    });
    assert_eq!(from_e3, ["e3-e2"]);
}
