//! Vela and Fanoron-Telo (`docs/rules.md`): hand-checked rule cases, and the turn generator
//! against the plain-array reference generator ([`fanorona_core::reference`]) extended to both.

use fanorona_core::reference::{Board, Variant};
use fanorona_core::record::{GameRecord, Reader};
use fanorona_core::{
    BoardSize, Color, EndReason, Game, GameKind, Position, PositionError, Rules, TurnError, perft,
};

fn read(text: &str) -> Vec<GameRecord> {
    let mut reader = Reader::new(text.as_bytes());
    let mut out = Vec::new();
    while let Some(r) = reader.read_record().unwrap() {
        out.push(r);
    }
    out
}

fn vela() -> Rules {
    "vela".parse().unwrap()
}

fn texts(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_turns().iter().map(|t| t.to_string()).collect();
    v.sort();
    v
}

fn reference_texts(board: &Board) -> Vec<String> {
    let mut v: Vec<String> = board.turns().into_iter().map(|t| t.text).collect();
    v.sort();
    v
}

/// Plays pseudo-random games with both generators side by side, comparing the turn lists and
/// the positions after every turn.
fn compare_playouts(start: Position, variant: Variant, games: u64, plies: usize) {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..games {
        let mut pos = start;
        let mut board = Board::from_fen(&pos.to_fen()).unwrap().with_variant(variant);
        for _ in 0..plies {
            assert_eq!(texts(&pos), reference_texts(&board), "turns of {pos}");
            let turns = pos.legal_turns();
            if turns.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let turn = turns[(seed % turns.len() as u64) as usize];
            pos = pos.play(&turn);
            assert_eq!(pos.hash(), pos.compute_hash());
            let text = turn.to_string();
            board = board
                .turns()
                .into_iter()
                .find(|t| t.text == text)
                .expect("the reference has the turn")
                .after;
            assert_eq!(Board::from_fen(&pos.to_fen()).unwrap().cells(), board.cells());
        }
    }
}

#[test]
fn vela_white_captures_one_stone_and_black_only_moves() {
    let pos = Position::start_with(BoardSize::STANDARD, vela());
    assert!(pos.is_vela_phase());
    // The same five opening turns, but each takes only the stone next to the centre line.
    assert_eq!(
        texts(&pos),
        ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]
    );
    let turn = pos.parse_turn("f2-e3A").unwrap();
    assert_eq!(turn.captured().count(), 1); // d4 only; c5 stays
    let next = pos.play(&turn);
    assert_eq!(next.to_fen(), "BBBBBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b");
    // Black may not capture: 7 paika moves, into d4 (from c5, d5, e5, c4, e4, c3) and f2
    // (from f3), although under the normal rules it would have to capture.
    assert!(!next.has_capture());
    assert!(Position::standard().play(&turn).has_capture());
    let black = texts(&next);
    assert_eq!(
        black,
        ["c3-d4", "c4-d4", "c5-d4", "d5-d4", "e4-d4", "e5-d4", "f3-f2"]
    );
    assert!(next.legal_turns().iter().all(|t| t.is_paika()));
}

#[test]
fn vela_restriction_ends_when_black_is_down_to_five() {
    // Black: a5 b5 c5 d5 e5 e4 (six stones); White e2. White captures e4 only, not e5.
    let pos = Position::from_fen_with("BBBBB4/4B4/9/4W4/9 w", vela()).unwrap();
    assert!(pos.is_vela_phase());
    assert_eq!(texts(&pos), ["e2-e3A"]);
    let next = pos.play(&pos.parse_turn("e2-e3A").unwrap());
    assert_eq!(next.to_fen(), "BBBBB4/9/4W4/9/9 b 0 2");
    // Five black stones: normal play resumes and Black must capture: e5-e4A takes e3.
    assert!(!next.is_vela_phase());
    assert!(next.has_capture());
    assert_eq!(texts(&next), ["e5-e4A"]);
    // With six stones, Black to move may not take e2 from e4 and moves instead.
    let black = Position::from_fen_with("BBBBB4/4B4/9/4W4/9 b", vela()).unwrap();
    assert!(!black.has_capture());
    assert!(black.legal_turns().iter().all(|t| t.is_paika()));
    assert!(texts(&black).contains(&"e4-e3".to_owned()));
    assert!(black.parse_turn("e4-e3A").is_err());
    // Under the normal rules the same position has the capture.
    let normal = Position::from_fen("BBBBB4/4B4/9/4W4/9 b").unwrap();
    assert_eq!(texts(&normal), ["e4-e3A"]);
}

#[test]
fn vela_chains_are_cut_to_one_step() {
    // Normally d2-e3A would go on (e3-f3? no: a chain). Here White's capture is a single step
    // even where a chain exists: the standard start gives chains after the first exchange.
    let pos = Position::start_with(BoardSize::STANDARD, vela());
    for t in pos.legal_turns() {
        assert_eq!(t.len(), 1);
        assert_eq!(t.captured().count(), 1);
    }
}

#[test]
fn vela_perft_matches_the_reference() {
    let pos = Position::start_with(BoardSize::STANDARD, vela());
    let board = Board::from_fen(&pos.to_fen())
        .unwrap()
        .with_variant(Variant::Vela);
    for depth in 1..=4 {
        assert_eq!(perft::perft(&pos, depth), board.perft(depth), "depth {depth}");
    }
    assert_eq!(perft::perft(&pos, 1), 5);
    // Near the end of the restriction: Black with six and seven stones.
    for fen in [
        "BBBBB4/4B4/9/4W4/9 w",
        "BB1B1B3/3W1B3/2B1W4/1W3W3/W3W4 w",
        "BB1B1B3/3W1B3/2B1W4/1W3W3/W3W4 b",
    ] {
        let pos = Position::from_fen_with(fen, vela()).unwrap();
        let board = Board::from_fen(fen).unwrap().with_variant(Variant::Vela);
        for depth in 1..=4 {
            assert_eq!(perft::perft(&pos, depth), board.perft(depth), "{fen} {depth}");
            assert_eq!(
                perft::perft_unique(&pos, 1),
                perft::divide_unique(&pos, 1).len() as u64
            );
        }
    }
    compare_playouts(
        Position::start_with(BoardSize::STANDARD, vela()),
        Variant::Vela,
        40,
        80,
    );
}

#[test]
fn vela_is_a_rule_option() {
    let r = vela();
    assert!(r.vela);
    assert_eq!(r.to_string(), "vela=on");
    assert!(r.to_full_string().contains("vela=on"));
    assert!("vela=maybe".parse::<Rules>().is_err());
}

fn telo() -> Position {
    Position::try_start(BoardSize::TELO, Rules::TELO).unwrap()
}

#[test]
fn telo_starts_empty_and_places_stones() {
    let pos = telo();
    assert_eq!(pos.to_fen(), "3/3/3 w");
    assert!(pos.is_placement_phase());
    assert!(pos.outcome().is_none());
    assert_eq!(pos.legal_turns().len(), 9);
    let b2 = pos.parse_turn("b2").unwrap();
    assert!(b2.is_placement());
    assert_eq!(b2.to_string(), "b2");
    let next = pos.play(&b2);
    assert_eq!(next.to_fen(), "3/1W1/3 b");
    assert_eq!(next.hash(), next.compute_hash());
    assert_eq!(next.legal_turns().len(), 8);
    assert!(matches!(next.parse_turn("b2"), Err(TurnError::Illegal { .. })));
    assert!(matches!(next.parse_turn("b2-a1"), Err(TurnError::Illegal { .. })));
    // In the capture game a point alone is not a turn.
    assert!(matches!(
        Position::standard().parse_turn("e3"),
        Err(TurnError::Syntax(_))
    ));
}

#[test]
fn telo_hand_counted_perft() {
    // Placements: 9*8*7*6*5 sequences of five; White's three stones make a line in
    // 8 lines * 3! orders * 6*5 black placements = 1440 of them, which end the game; the rest
    // each allow four black placements.
    let pos = telo();
    let hand = [9, 72, 504, 3024, 15120, (15120 - 1440) * 4];
    for (depth, &n) in (1..).zip(hand.iter()) {
        assert_eq!(perft::perft(&pos, depth), n, "depth {depth}");
    }
    let board = Board::from_fen("3/3/3 w")
        .unwrap()
        .with_variant(Variant::Telo);
    for depth in 1..=8 {
        assert_eq!(perft::perft(&pos, depth), board.perft(depth), "depth {depth}");
    }
    compare_playouts(telo(), Variant::Telo, 200, 60);
}

#[test]
fn telo_moves_one_step_along_the_lines() {
    // a3 W, b3 B / a2 B, b2 W / a1 W, c1 B: empty c3, c2, b1.
    let pos = Position::from_fen_with("WB1/BW1/W1B w", Rules::TELO).unwrap();
    assert!(!pos.is_placement_phase());
    assert_eq!(texts(&pos), ["a1-b1", "b2-b1", "b2-c2", "b2-c3"]);
    assert!(matches!(pos.parse_turn("c3"), Err(TurnError::Illegal { .. })));
    // Nothing is captured: b2-c3 only moves.
    let next = pos.play(&pos.parse_turn("b2-c3").unwrap());
    assert_eq!(next.to_fen(), "WBW/B2/W1B b 1 1");
}

#[test]
fn telo_three_in_a_line_wins() {
    let mut game = Game::new(telo());
    for t in ["b2", "b1", "a1", "a2"] {
        game.play_text(t).unwrap();
    }
    assert!(game.outcome().is_none());
    game.play_text("c3").unwrap(); // a1, b2, c3: the diagonal
    let o = game.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::Alignment));
    assert!(game.position().legal_turns().is_empty());
    assert!(game.play_text("c1").is_err());
    // A line made by a move wins too: White a1 b1 c3, Black a3 a2 c1; b1-b2 makes the
    // diagonal a1 b2 c3, a1-b2 makes no line.
    let pos = Position::from_fen_with("B1W/B2/WWB w", Rules::TELO).unwrap();
    assert!(pos.outcome().is_none());
    let after = pos.play(&pos.parse_turn("a1-b2").unwrap());
    assert!(after.outcome().is_none());
    let win = pos.play(&pos.parse_turn("b1-b2").unwrap());
    let o = win.outcome().unwrap();
    assert_eq!((o.winner, o.reason), (Some(Color::White), EndReason::Alignment));
}

#[test]
fn telo_never_leaves_a_side_without_a_move() {
    // Every placement of three stones each without a line leaves the side to move a step: a
    // blocked corner needs the centre and both edge neighbours, and the three blockers of a
    // blocked group always form a line. So the stuck rule never decides Fanoron-Telo.
    let mut checked = 0;
    for w in 0u64..512 {
        for b in 0u64..512 {
            if w.count_ones() != 3 || b.count_ones() != 3 || w & b != 0 {
                continue;
            }
            let fen = telo_fen(w, b);
            let pos = Position::from_fen_with(&fen, Rules::TELO).unwrap();
            if pos.outcome().is_none() {
                assert!(!pos.legal_turns().is_empty(), "{fen}");
                checked += 1;
            }
        }
    }
    assert!(checked > 0);
}

fn telo_fen(w: u64, b: u64) -> String {
    let mut ranks = Vec::new();
    for rank in (0..3).rev() {
        let mut r = String::new();
        for file in 0..3 {
            let bit = 1u64 << (rank * 3 + file);
            r.push(if w & bit != 0 {
                'W'
            } else if b & bit != 0 {
                'B'
            } else {
                '1'
            });
        }
        ranks.push(r.replace("111", "3").replace("11", "2"));
    }
    format!("{} w", ranks.join("/"))
}

#[test]
fn telo_positions_are_checked() {
    assert_eq!(
        Position::try_start(BoardSize::STANDARD, Rules::TELO).unwrap_err(),
        PositionError::WrongBoard(GameKind::Telo)
    );
    assert!(Position::from_fen_with("WWW/W2/3 b", Rules::TELO).is_err());
    // The 3x3 capture game keeps its start.
    assert_eq!(Position::start(BoardSize::TELO).to_fen(), "BBB/B1W/WWW w");
    let r: Rules = "game=telo".parse().unwrap();
    assert_eq!(r.game, GameKind::Telo);
    assert_eq!(r.to_string(), "game=telo");
}

#[test]
fn telo_record_replays_and_round_trips_through_json() {
    let fgn = "[Variant \"Fanoron-Telo\"]\n[Result \"1-0\"]\n\n1. b2 b1 2. a1 a2 3. c3 1-0\n";
    let records = read(fgn);
    let record: &GameRecord = &records[0];
    let (game, report) = record.replay();
    assert!(report.is_valid(), "{report:?}");
    let game = game.unwrap();
    assert_eq!(game.position().rules().game, GameKind::Telo);
    assert_eq!(game.outcome().unwrap().reason, EndReason::Alignment);
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(record).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, record);
        assert!(back.replay().1.is_valid());
    }
    // The same turns do not replay as the capture game on the 3x3 board.
    let capture = fgn.replace("Fanoron-Telo", "Fanorona-3x3");
    let records = read(&capture);
    assert!(!records[0].replay().1.is_valid());
    // A Rules tag naming another game than the variant's is refused.
    let mixed = fgn.replace("[Result", "[Rules \"game=capture\"]\n[Result");
    let records = read(&mixed);
    assert!(!records[0].replay().1.is_valid());
}

#[test]
fn vela_record_replays_and_round_trips_through_json() {
    let fgn = "[Variant \"Fanoron-Tsivy\"]\n[Rules \"vela\"]\n\n1. f2-e3A f3-f2 *\n";
    let records = read(fgn);
    let (game, report) = records[0].replay();
    assert!(report.is_valid(), "{report:?}");
    let game = game.unwrap();
    assert_eq!(game.position().stones(Color::Black).count(), 21);
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&records[0]).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert!(back.replay().1.is_valid());
    }
    // Under the normal rules Black's paika is illegal (it must capture).
    let normal = fgn.replace("[Rules \"vela\"]\n", "");
    let records = read(&normal);
    assert!(!records[0].replay().1.is_valid());
}
