//! The 1.0 API's guarantees: checked play with reasons, points that know their board, text
//! forms that round-trip, the turn builder's client helpers, games to records and back.
//! Expected values are hand-checked on the positions written out below.

use fanorona_core::record::{GameRecord, GameResult, Reader};
use fanorona_core::{
    BoardSize, Color, Direction, Game, IllegalReason, PlayError, Position, Rules, StepKind,
    TurnError,
};

fn reason(pos: &Position, text: &str) -> IllegalReason {
    match pos.parse_turn(text) {
        Err(TurnError::Illegal { reason, .. }) => reason,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn illegal_turns_say_why() {
    // 5x5: White c3 can approach a1 (c3-b2A), so White e1's paika e1-e2 is not allowed.
    let pos = Position::from_fen("5/5/2W2/5/B3W w").unwrap();
    assert_eq!(reason(&pos, "e1-e2"), IllegalReason::CaptureCompulsory);
    assert!(pos.parse_turn("c3-b2A").is_ok());
    // a1 is Black's; b1 holds nothing; c3-e3 is two points away.
    assert!(matches!(reason(&pos, "a1-a2"), IllegalReason::OpponentStone(p) if p == "a1"));
    assert!(matches!(reason(&pos, "b1-b2"), IllegalReason::NoStone(p) if p == "b1"));
    assert!(matches!(
        reason(&pos, "c3-e3"),
        IllegalReason::NotAdjacent { from, to } if from == "c3" && to == "e3"
    ));
    // White has no stones: the game is over.
    let over = Position::from_fen("5/5/5/5/B4 w").unwrap();
    assert_eq!(reason(&over, "a1-a2"), IllegalReason::GameOver);
    // Under the opening restriction, a first turn is a single capture step.
    let rules: Rules = "opening-restriction".parse().unwrap();
    let start = Position::standard().with_rules(rules).unwrap();
    assert_eq!(
        reason(&start, "d3-e3W-e4"),
        IllegalReason::OpeningRestriction
    );
}

#[test]
fn checked_play_refuses_what_unchecked_would_garble() {
    let big = Position::standard();
    let small = Position::start(BoardSize::DIMY);
    // b2-c3A on 5x5 (captures d4 and e5): on 5x9, b2 and c3 are other points.
    let turn = small.parse_turn("b2-c3A").unwrap();
    assert_eq!(
        big.play(&turn),
        Err(PlayError::Illegal {
            turn,
            reason: IllegalReason::WrongBoard {
                turn: BoardSize::DIMY,
                position: BoardSize::STANDARD
            }
        })
    );
    // A stale turn: after b2-c3A, b2 is empty.
    let next = small.play(&turn).unwrap();
    assert!(matches!(
        next.play(&turn),
        Err(PlayError::Illegal { reason: IllegalReason::NoStone(p), .. }) if p == "b2"
    ));
    let message = next.play(&turn).unwrap_err().to_string();
    assert_eq!(message, "illegal turn b2-c3A: there is no stone on b2");
}

#[test]
fn points_belong_to_their_board() {
    let e3_big = BoardSize::STANDARD.parse_point("e3").unwrap();
    let e3_small = BoardSize::DIMY.parse_point("e3").unwrap();
    assert_eq!((e3_big.index(), e3_small.index()), (22, 14));
    assert_ne!(e3_big, e3_small);
    // The 5x5 start has a white stone on e2 (index 9 on 5x5); the 5x9 point with index 9 is
    // a2, which is not a point of the 5x5 board at all, so it holds nothing there.
    let small = Position::start(BoardSize::DIMY);
    let a2_big = BoardSize::STANDARD.point_at(9).unwrap();
    assert_eq!(a2_big.to_string(), "a2");
    assert_eq!(small.stone_at(a2_big), None);
    assert_eq!(
        small.stone_at(BoardSize::DIMY.point_at(9).unwrap()),
        Some(Color::White)
    );
    assert_eq!(small.geometry().neighbour(e3_big, Direction::N), None);
    let mut turns = 0;
    small.for_each_turn_from(BoardSize::STANDARD.parse_point("b2").unwrap(), |_| {
        turns += 1
    });
    assert_eq!(turns, 0);
    assert_eq!(BoardSize::DIMY.point_at(25), None);
    assert_eq!(BoardSize::TELO.point(3, 0), None);
}

#[test]
fn text_forms_round_trip() {
    for fen in [
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
        "BBB/B1W/WWW w",
        "5/5/2W2/5/B3W b 7 12",
    ] {
        let pos: Position = fen.parse().unwrap();
        assert_eq!(pos.to_string(), fen);
        assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
    }
    assert_eq!(Position::default(), Position::standard());
    for c in Color::ALL {
        assert_eq!(c.to_string().parse::<Color>().unwrap(), c);
    }
    for d in Direction::ALL {
        assert_eq!(d.to_string().parse::<Direction>().unwrap(), d);
    }
    assert!("up".parse::<Direction>().is_err());
    // Steps name their points.
    let pos = Position::standard();
    let turn = pos.parse_turn("f2-e3A").unwrap();
    let step = turn.steps().next().unwrap();
    assert_eq!(step.to_string(), "f2-e3A");
    assert_eq!(step.kind.to_string(), "approach");
    assert_eq!(step.dir.to_string(), "NW");
}

#[test]
fn builder_steps_for_clients() {
    // Standard start: d3 can reach e3 by approach (takes f3) or withdrawal (takes c3).
    let pos = Position::standard();
    let size = pos.size();
    let [d3, e3] = ["d3", "e3"].map(|n| size.parse_point(n).unwrap());
    let mut builder = pos.begin_turn();
    let both = builder.steps_between(d3, e3);
    let kinds: Vec<StepKind> = both.iter().map(|s| s.kind).collect();
    assert_eq!(kinds.len(), 2);
    assert!(kinds.contains(&StepKind::Approach) && kinds.contains(&StepKind::Withdrawal));
    let by = |k| *both.iter().find(|s| s.kind == k).unwrap();
    let (approach, withdrawal) = (by(StepKind::Approach), by(StepKind::Withdrawal));
    assert_eq!(builder.steps_from(d3).len(), 2);
    // The five first steps of the start, all into e3.
    assert_eq!(builder.legal_steps().len(), 5);
    assert!(builder.legal_steps().iter().all(|s| s.to == e3));
    builder.play_step(withdrawal).unwrap();
    assert_eq!(builder.finish().unwrap().to_string(), "d3-e3W");
    assert_eq!(builder.undo_step(), Some(withdrawal));
    assert_eq!(builder.turn_so_far(), None);
    assert_eq!(builder.stones(Color::Black), pos.stones(Color::Black));
    builder.play_step(approach).unwrap();
    assert_eq!(builder.finish().unwrap().to_string(), "d3-e3A");
}

#[test]
fn games_to_records_and_back() {
    // A game from a position string under other rules: the record names all three.
    let rules: Rules = "stuck=draws".parse().unwrap();
    let start = Position::from_fen_with("5/5/2W2/5/B3W w", rules).unwrap();
    let mut game = Game::new(start);
    game.play_text("c3-b2A").unwrap();
    let record = GameRecord::from_game(&game);
    assert_eq!(record.tag("Board"), Some("5x5"));
    assert_eq!(record.tag("Rules"), Some("stuck=draws"));
    assert_eq!(record.tag("FEN"), Some("5/5/2W2/5/B3W w"));
    // Black has no stones left: White won by the rules.
    assert_eq!(record.result, Some(GameResult::WhiteWins));
    assert_eq!(record.tag("Result"), Some("1-0"));
    let back = record.to_game().unwrap();
    assert_eq!(back, game);
    // Through FGN text too.
    let text = record.to_fgn().unwrap();
    let read = Reader::new(text.as_bytes()).read_record().unwrap().unwrap();
    assert_eq!(read.to_game().unwrap(), game);

    // An agreed draw in the middle of a game is read back as one.
    let mut drawn = Game::default();
    drawn.play_text("f2-e3A").unwrap();
    drawn.agree_draw().unwrap();
    let back = GameRecord::from_game(&drawn).to_game().unwrap();
    assert_eq!(back, drawn);
    assert_eq!(back.decided(), drawn.decided());
}

#[test]
fn read_errors_are_located_in_files() {
    let text = "[Event \"x\"]\n\n1. f2-e3A {open\n";
    let err = Reader::new(text.as_bytes()).read_record().unwrap_err();
    assert_eq!(err.kind.to_string(), "unterminated comment: no closing '}'");
    let located = err.in_file("games/club.fgn").to_string();
    assert!(
        located.starts_with("games/club.fgn:3:11: game 1: "),
        "{located}"
    );
}

/// Every `Rules` value can be written and read back: there is no way to build one that the
/// text form refuses (issue 11: `repetition: 1` was possible through the public fields).
#[test]
fn every_rules_value_round_trips_through_text() {
    use core::num::NonZeroU16;
    use fanorona_core::{GameKind, StuckRule};
    for game in [GameKind::Capture, GameKind::Vela, GameKind::Telo] {
        for stuck in [StuckRule::Loses, StuckRule::Draws] {
            for repetition in [None, Some(2), Some(3), Some(255)] {
                for limit in [
                    None,
                    NonZeroU16::new(1),
                    NonZeroU16::new(100),
                    NonZeroU16::new(65535),
                ] {
                    for (o, c) in [(false, false), (true, false), (false, true), (true, true)] {
                        let rules = Rules::STANDARD
                            .with_game(game)
                            .with_stuck(stuck)
                            .with_no_capture_limit(limit)
                            .with_opening_restriction(o)
                            .with_compulsory_continuation(c)
                            .with_repetition(repetition)
                            .unwrap();
                        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
                        assert_eq!(rules.to_full_string().parse::<Rules>().unwrap(), rules);
                    }
                }
            }
        }
    }
    assert!(Rules::STANDARD.with_repetition(Some(1)).is_err());
    assert!(Rules::STANDARD.with_repetition(Some(0)).is_err());
    assert!("repetition=1".parse::<Rules>().is_err());
    assert!("no-capture-limit=0".parse::<Rules>().is_err());
}

/// With debug assertions, the unchecked path still refuses a stale turn (f2 is empty after
/// f2-e3A) instead of making a position the rules cannot reach.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "play_unchecked")]
fn unchecked_play_asserts_in_debug_builds() {
    let pos = Position::standard();
    let turn = pos.parse_turn("f2-e3A").unwrap();
    let next = pos.play(&turn).unwrap();
    let _ = next.play_unchecked(&turn);
}

#[test]
fn constructors_answer_wrong_input_with_errors() {
    use fanorona_core::{Bitboard, GameKind, PositionError, Setup};
    // Every board with every game: a start, or `WrongBoard` for Fanoron-Telo off 3x3 (the
    // traditional game is played on the 3x3 board only); never a panic.
    for size in BoardSize::ALL {
        for rules in [Rules::STANDARD, Rules::VELA, Rules::TELO] {
            let start = Position::start_with(size, rules);
            if rules.game() == GameKind::Telo && size != BoardSize::TELO {
                assert_eq!(
                    start,
                    Err(PositionError::WrongBoard(GameKind::Telo)),
                    "{size}"
                );
            } else {
                let start = start.unwrap_or_else(|e| panic!("{size} {rules}: {e}"));
                assert_eq!(start.rules(), rules);
                assert_eq!(start.size(), size);
            }
            // Changing rules is checked the same way.
            let changed = Position::start(size).with_rules(rules);
            assert_eq!(
                changed.is_err(),
                rules.game() == GameKind::Telo,
                "{size} {rules}"
            );
        }
    }
    // The 3x3 Telo board is empty at the start; the 3x3 capture game has its eight stones.
    assert_eq!(
        Position::start_with(BoardSize::TELO, Rules::TELO).map(|p| p.to_fen()),
        Ok("3/3/3 w telo".to_owned())
    );
    assert_eq!(Position::start(BoardSize::TELO).to_fen(), "BBB/B1W/WWW w");
    // A setup is checked: stones off the board, overlapping stones, turn 0, too many Telo stones.
    let size = BoardSize::TELO;
    let mut setup = Setup::empty(size);
    setup.white = Bitboard::from_bits(1 << 9);
    assert_eq!(
        Position::from_setup(setup, Rules::STANDARD),
        Err(PositionError::OffBoard { index: 9 })
    );
    setup.white = Bitboard::from_bits(0b11);
    setup.black = Bitboard::from_bits(0b10);
    assert_eq!(
        Position::from_setup(setup, Rules::STANDARD),
        Err(PositionError::Overlap(size.point(1, 0).unwrap()))
    );
    setup.black = Bitboard::EMPTY;
    setup.turn_number = 0;
    assert_eq!(
        Position::from_setup(setup, Rules::STANDARD),
        Err(PositionError::ZeroTurnNumber)
    );
    setup.turn_number = 1;
    setup.white = Bitboard::from_bits(0b1111);
    assert_eq!(
        Position::from_setup(setup, Rules::TELO),
        Err(PositionError::TooManyStones(Color::White))
    );
}
