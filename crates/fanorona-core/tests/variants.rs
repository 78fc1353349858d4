//! Vela and Fanoron-Telo (`docs/rules.md`): hand-checked rule cases, and the turn generator
//! against the plain-array reference generator ([`fanorona_core::reference`]) extended to both.

use fanorona_core::record::{GameRecord, Reader};
use fanorona_core::reference::{Board, Variant};
use fanorona_core::{
    BoardSize, Color, EndReason, FenError, Game, GameKind, Outcome, Position, PositionError, Rules,
    TurnError, VelaRule, perft,
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
    "game=vela".parse().unwrap()
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
        let mut board = Board::from_fen(&pos.to_fen())
            .unwrap()
            .with_variant(variant);
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
            pos = pos.play(&turn).unwrap();
            assert_eq!(pos.zobrist(), pos.compute_zobrist());
            let text = turn.to_string();
            board = board
                .turns()
                .into_iter()
                .find(|t| t.text == text)
                .expect("the reference has the turn")
                .after;
            assert_eq!(
                Board::from_fen(&pos.to_fen()).unwrap().cells(),
                board.cells()
            );
        }
    }
}

#[test]
fn vela_white_surrenders_stones_and_black_takes_them_singly() {
    let pos = Position::start_with(BoardSize::STANDARD, vela()).unwrap();
    assert!(pos.is_vela_phase());
    assert!(!pos.has_capture());
    // White (the previous winner) opens without capturing: a paika into e3 from d2, d3, e2 or
    // f2. e2-e3 would leave Black no capture (e2 has no black neighbour), so it is not legal:
    // White must surrender a stone when it can.
    assert_eq!(texts(&pos), ["d2-e3", "d3-e3", "f2-e3"]);
    assert!(pos.parse_turn("f2-e3A").is_err());
    assert!(pos.parse_turn("e2-e3").is_err());
    // Under the normal rules f2-e3 is a capture (d4 and c5).
    assert!(Position::standard().parse_turn("f2-e3A").is_ok());
    let next = pos.play(&pos.parse_turn("f2-e3").unwrap()).unwrap();
    assert_eq!(
        next.to_fen(),
        "BBBBBBBBB/BBBBBBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b 1 1 vela"
    );
    // Black must capture, one stone per turn: only f3 reaches f2, taking f1 by approach.
    assert!(next.has_capture());
    assert_eq!(texts(&next), ["f3-f2A"]);
    let after = next.play(&next.parse_turn("f3-f2A").unwrap()).unwrap();
    assert_eq!(after.stones(Color::White).count(), 21);
    // After d3-e3 Black has three single captures into d3: c3 approaching e3 or withdrawing
    // from b3, d4 approaching d2.
    let d3 = pos.play(&pos.parse_turn("d3-e3").unwrap()).unwrap();
    assert_eq!(texts(&d3), ["c3-d3A", "c3-d3W", "d4-d3A"]);
    for t in d3.legal_turns() {
        assert_eq!((t.len(), t.captured().count()), (1, 1));
    }
}

#[test]
fn vela_restriction_ends_when_white_is_down_to_five() {
    // White: a1 b1 c1 d1 e1 e2 (six stones); Black e4. Black takes e2 only, not e1 behind it.
    let pos = Position::from_fen_with("9/4B4/9/4W4/WWWWW4 b", vela()).unwrap();
    assert!(pos.is_vela_phase());
    assert_eq!(texts(&pos), ["e4-e3A"]);
    let next = pos.play(&pos.parse_turn("e4-e3A").unwrap()).unwrap();
    assert_eq!(next.to_fen(), "9/9/4B4/9/WWWWW4 w 0 2 vela");
    // Five white stones: normal play resumes and White must capture e3, by approach from e1
    // (up the file) or from c1 (up the diagonal through d2).
    assert!(!next.is_vela_phase());
    assert!(next.has_capture());
    assert_eq!(texts(&next), ["c1-d2A", "e1-e2A"]);
    // With six stones, White to move may not take e4 from e2 and moves instead.
    let white = Position::from_fen_with("9/4B4/9/4W4/WWWWW4 w", vela()).unwrap();
    assert!(!white.has_capture());
    assert!(white.legal_turns().iter().all(|t| t.is_paika()));
    assert!(texts(&white).contains(&"e2-e3".to_owned()));
    assert!(white.parse_turn("e2-e3A").is_err());
    // Under the normal rules the same position has the capture.
    let normal = Position::from_fen("9/4B4/9/4W4/WWWWW4 w").unwrap();
    assert_eq!(texts(&normal), ["e2-e3A"]);
}

#[test]
fn vela_chains_are_cut_to_one_step() {
    // Under the normal rules e4-e3A takes e2 and e1 and goes on (e3-d2A takes c1); in the Vela
    // phase Black's capture is the single step taking e2.
    let fen = "9/4B4/9/4W4/WWWWW4 b";
    let normal = Position::from_fen(fen).unwrap();
    assert!(normal.legal_turns().iter().any(|t| t.len() > 1));
    assert!(normal.parse_turn("e4-e3A-d2A").is_ok());
    let pos = Position::from_fen_with(fen, vela()).unwrap();
    let turns = pos.legal_turns();
    assert_eq!(turns.len(), 1);
    assert_eq!((turns[0].len(), turns[0].captured().count()), (1, 1));
    assert!(pos.parse_turn("e4-e3A-d2A").is_err());
}

#[test]
fn vela_perft_matches_the_reference() {
    let pos = Position::start_with(BoardSize::STANDARD, vela()).unwrap();
    // Hand-counted above: 3 openings, then 1 + 3 + 1 single captures.
    assert_eq!(perft::perft(&pos, 1), 3);
    assert_eq!(perft::perft(&pos, 2), 5);
    let board = Board::from_fen(&pos.to_fen())
        .unwrap()
        .with_variant(Variant::Vela);
    for depth in 1..=5 {
        assert_eq!(
            perft::perft(&pos, depth),
            board.perft(depth),
            "depth {depth}"
        );
    }
    // Near the end of the restriction: White with six and seven stones.
    for fen in [
        "9/4B4/9/4W4/WWWWW4 b",
        "WW1W1W3/3B1W3/2W1B4/1B3B3/B3B4 w",
        "WW1W1W3/3B1W3/2W1B4/1B3B3/B3B4 b",
    ] {
        let pos = Position::from_fen_with(fen, vela()).unwrap();
        let board = Board::from_fen(fen).unwrap().with_variant(Variant::Vela);
        for depth in 1..=4 {
            assert_eq!(
                perft::perft(&pos, depth),
                board.perft(depth),
                "{fen} {depth}"
            );
        }
        assert_eq!(
            perft::perft_unique(&pos, 1),
            perft::divide_unique(&pos, 1).len() as u64
        );
    }
    compare_playouts(
        Position::start_with(BoardSize::STANDARD, vela()).unwrap(),
        Variant::Vela,
        40,
        80,
    );
}

#[test]
fn vela_is_a_rule_option() {
    let r = vela();
    assert_eq!((r.game(), r), (GameKind::Vela, Rules::VELA));
    assert_eq!(r.to_string(), "game=vela");
    assert!(r.to_full_string().ends_with("game=vela"));
    assert!("game=maybe".parse::<Rules>().is_err());
    assert!("vela".parse::<Rules>().is_err());
}

fn telo() -> Position {
    Position::start_with(BoardSize::TELO, Rules::TELO).unwrap()
}

#[test]
fn telo_starts_empty_and_places_stones() {
    let pos = telo();
    assert_eq!(pos.to_fen(), "3/3/3 w telo");
    assert!(pos.is_placement_phase());
    assert!(pos.outcome().is_none());
    assert_eq!(pos.legal_turns().len(), 9);
    let b2 = pos.parse_turn("b2").unwrap();
    assert!(b2.is_placement());
    assert_eq!(b2.to_string(), "b2");
    let next = pos.play(&b2).unwrap();
    assert_eq!(next.to_fen(), "3/1W1/3 b 1 1 telo");
    assert_eq!(next.zobrist(), next.compute_zobrist());
    assert_eq!(next.legal_turns().len(), 8);
    assert!(matches!(
        next.parse_turn("b2"),
        Err(TurnError::Illegal { .. })
    ));
    assert!(matches!(
        next.parse_turn("b2-a1"),
        Err(TurnError::Illegal { .. })
    ));
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
    let board = Board::from_fen("3/3/3 w telo").unwrap();
    assert_eq!(board.variant(), Variant::Telo);
    for depth in 1..=8 {
        assert_eq!(
            perft::perft(&pos, depth),
            board.perft(depth),
            "depth {depth}"
        );
    }
    compare_playouts(telo(), Variant::Telo, 200, 60);
}

#[test]
fn telo_moves_one_step_along_the_lines() {
    // a3 W, b3 B / a2 B, b2 W / a1 W, c1 B: empty c3, c2, b1.
    let pos = Position::from_fen_with("WB1/BW1/W1B w", Rules::TELO).unwrap();
    assert!(!pos.is_placement_phase());
    assert_eq!(texts(&pos), ["a1-b1", "b2-b1", "b2-c2", "b2-c3"]);
    assert!(matches!(
        pos.parse_turn("c3"),
        Err(TurnError::Illegal { .. })
    ));
    // Nothing is captured: b2-c3 only moves.
    let next = pos.play(&pos.parse_turn("b2-c3").unwrap()).unwrap();
    assert_eq!(next.to_fen(), "WBW/B2/W1B b 1 1 telo");
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
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::Alignment)
    );
    assert!(game.position().legal_turns().is_empty());
    assert!(game.play_text("c1").is_err());
    // A line made by a move wins too: White a1 b1 c3, Black a3 a2 c1; b1-b2 makes the
    // diagonal a1 b2 c3, a1-b2 makes no line.
    let pos = Position::from_fen_with("B1W/B2/WWB w", Rules::TELO).unwrap();
    assert!(pos.outcome().is_none());
    let after = pos.play(&pos.parse_turn("a1-b2").unwrap()).unwrap();
    assert!(after.outcome().is_none());
    let win = pos.play(&pos.parse_turn("b1-b2").unwrap()).unwrap();
    let o = win.outcome().unwrap();
    assert_eq!(
        (o.winner, o.reason),
        (Some(Color::White), EndReason::Alignment)
    );
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
        Position::start_with(BoardSize::STANDARD, Rules::TELO).unwrap_err(),
        PositionError::WrongBoard(GameKind::Telo)
    );
    assert!(Position::from_fen_with("WWW/W2/3 b", Rules::TELO).is_err());
    // The 3x3 capture game keeps its start.
    assert_eq!(Position::start(BoardSize::TELO).to_fen(), "BBB/B1W/WWW w");
    let r: Rules = "game=telo".parse().unwrap();
    assert_eq!(r.game(), GameKind::Telo);
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
    assert_eq!(game.position().rules().game(), GameKind::Telo);
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
    let fgn = "[Variant \"Vela\"]\n\n1. f2-e3 f3-f2A *\n";
    let records = read(fgn);
    let (game, report) = records[0].replay();
    assert!(report.is_valid(), "{report:?}");
    let game = game.unwrap();
    assert_eq!(game.position().rules().game(), GameKind::Vela);
    assert_eq!(game.position().stones(Color::White).count(), 21);
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&records[0]).unwrap();
        let back: GameRecord = serde_json::from_str(&json).unwrap();
        assert!(back.replay().1.is_valid());
    }
    assert_eq!(game.position().stones(Color::Black).count(), 22);
    // Under the normal rules the same text is another game: f2-e3 reads as the capture
    // f2-e3A, which takes d4 and c5.
    let normal = fgn.replace("Vela", "Fanoron-Tsivy");
    let (normal_game, report) = read(&normal)[0].replay();
    assert!(report.is_valid());
    assert_eq!(
        normal_game.unwrap().position().stones(Color::Black).count(),
        20
    );
    // Without a variant, the Rules tag names the game; a Rules tag naming another game than
    // the variant's is refused.
    let by_rules = fgn.replace("[Variant \"Vela\"]", "[Rules \"game=vela\"]");
    assert!(read(&by_rules)[0].replay().1.is_valid());
    let mixed = fgn.replace(
        "[Variant \"Vela\"]",
        "[Variant \"Vela\"]\n[Rules \"game=capture\"]",
    );
    assert!(!read(&mixed)[0].replay().1.is_valid());
}

#[test]
fn position_strings_name_the_game() {
    // The game word makes the string self-contained: read under the standard rules, it gives
    // the variant's position, and it comes back out.
    let telo = Position::from_fen("WB1/BW1/W1B w telo").unwrap();
    assert_eq!(telo.rules().game(), GameKind::Telo);
    assert_eq!(telo.to_fen(), "WB1/BW1/W1B w telo");
    let vela = Position::from_fen("9/4B4/9/4W4/WWWWW4 b 3 7 vela").unwrap();
    assert_eq!(vela.rules(), Rules::VELA);
    assert!(vela.is_vela_phase());
    assert_eq!(vela.to_fen(), "9/4B4/9/4W4/WWWWW4 b 3 7 vela");
    // Without the word, the same board is a capture-game position.
    assert!(
        !Position::from_fen("9/4B4/9/4W4/WWWWW4 b")
            .unwrap()
            .is_vela_phase()
    );
    // The rules given to the reader supply the game when the string names none.
    assert_eq!(
        Position::from_fen_with("3/3/3 w", Rules::TELO)
            .unwrap()
            .rules()
            .game(),
        GameKind::Telo
    );
    assert!(matches!(
        Position::from_fen("3/3/3 w tela"),
        Err(FenError::BadGame { .. })
    ));
    assert!(matches!(
        Position::from_fen_with("3/3/3 w telo", Rules::VELA),
        Err(FenError::GameConflict { .. })
    ));
    // A Telo position string on another board is refused.
    assert!(Position::from_fen("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w telo").is_err());
    // In a record, the position string's game must be the record's.
    let fgn = "[Variant \"Fanoron-Tsivy\"]\n[FEN \"9/4B4/9/4W4/WWWWW4 b vela\"]\n\n*\n";
    assert!(!read(fgn)[0].replay().1.is_valid());
    let fgn = "[Variant \"Vela\"]\n[FEN \"9/4B4/9/4W4/WWWWW4 b vela\"]\n\n1... e4-e3A *\n";
    assert!(
        read(fgn)[0].replay().1.is_valid(),
        "{:?}",
        read(fgn)[0].replay().1
    );
    let fgn = "[FEN \"WB1/BW1/W1B w telo\"]\n\n1. b2-c3 *\n";
    assert!(read(fgn)[0].replay().1.is_valid());
}

fn bell() -> Rules {
    "game=vela,vela=bell".parse().unwrap()
}

#[test]
fn bell_vela_is_a_rule_option() {
    let r = bell();
    assert_eq!((r.game(), r.vela()), (GameKind::Vela, VelaRule::Bell));
    assert_eq!(r, Rules::VELA.with_vela(VelaRule::Bell));
    assert_eq!(r.to_string(), "game=vela,vela=bell");
    assert!(r.to_full_string().ends_with("game=vela,vela=bell"));
    assert_eq!(r.to_full_string().parse::<Rules>(), Ok(r));
    // Montgomery is the default and is written nowhere: existing texts keep their form.
    assert_eq!(Rules::VELA.vela(), VelaRule::Montgomery);
    let montgomery: Rules = "game=vela,vela=montgomery".parse().unwrap();
    assert_eq!(
        (montgomery, montgomery.to_string()),
        (Rules::VELA, "game=vela".to_owned())
    );
    let e = "game=vela,vela=wikipedia".parse::<Rules>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "rule option vela takes montgomery or bell, not \"wikipedia\""
    );
    assert!("vela=bell,vela=bell".parse::<Rules>().unwrap_err().repeated);
    #[cfg(feature = "serde")]
    {
        let json = serde_json::to_string(&r).unwrap();
        assert!(json.contains("\"vela\":\"bell\""), "{json}");
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), r);
        // A form written before the option existed reads as Montgomery's Vela.
        let old: Rules = serde_json::from_str(r#"{"game":"vela"}"#).unwrap();
        assert_eq!(old, Rules::VELA);
    }
}

/// Bell's Vela from the standard start: White, receiving the handicap, opens and must take one
/// stone. The five captures into e3 of the normal game stay, each cut to the first stone of
/// its line (no chain exists at the first turn of the normal game either):
/// d2-e3A takes f4 (not g5), e2-e3A e4 (not e5), f2-e3A d4 (not c5), d3-e3A f3, d3-e3W c3.
#[test]
fn bell_vela_opens_with_single_captures() {
    let pos = Position::start_with(BoardSize::STANDARD, bell()).unwrap();
    assert!(pos.is_vela_phase());
    assert!(pos.has_capture());
    assert_eq!(
        texts(&pos),
        ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]
    );
    let taken = |text: &str| {
        let t = pos.parse_turn(text).unwrap();
        assert_eq!(t.len(), 1);
        t.captured()
            .points(pos.size())
            .map(|p| p.to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(taken("d2-e3A"), ["f4"]);
    assert_eq!(taken("e2-e3A"), ["e4"]);
    assert_eq!(taken("f2-e3A"), ["d4"]);
    assert_eq!(taken("d3-e3A"), ["f3"]);
    assert_eq!(taken("d3-e3W"), ["c3"]);
    assert_eq!(perft::perft(&pos, 1), 5);
    // Black (the previous winner) never captures during the restriction.
    let next = pos.play(&pos.parse_turn("e2-e3A").unwrap()).unwrap();
    assert!(next.is_vela_phase() && !next.has_capture());
    assert!(next.legal_turns().iter().all(|t| t.is_paika()));
}

/// Hand-counted perft of Bell's Vela on the 5x5 board (Fanoron-Dimy), from its start:
///
/// ```text
/// 5  B B B B B
/// 4  B B B B B
/// 3  B W . B W      strong points: a1 c1 e1 b2 d2 a3 c3 e3 b4 d4 a5 c5 e5
/// 2  W W W W W
/// 1  W W W W W
///    a b c d e
/// ```
///
/// Depth 1: White must take one stone by a step into c3, the only empty point: b3-c3A (d3),
/// b3-c3W (a3), c2-c3A (c4), b2-c3A (d4), d2-c3A (b4); c2 and b2 and d2 withdraw from their
/// own stones c1, a1, e1. **5**.
///
/// Depth 2: Black may only make a paika into one of the two empty points that leaves White a
/// capture (any paika if none does).
/// - after b3-c3A (empty b3, d3; both weak points): a3-b3, b4-b3, d4-d3, three paikas, each
///   leaving a capture (a2-a3A takes a4; c3-d3W takes b3; c3-b3A takes a3): 3.
/// - after b3-c3W (empty a3, b3): a4-a3, b4-a3, b4-b3; c3-b3A takes a3 after the first two,
///   a2-a3A takes a4 after the third: 3.
/// - after c2-c3A (empty c2, c4; weak): nothing black reaches c2; b4-c4, d4-c4, c5-c4, each
///   leaving a capture (b3-b4A takes b5; c3-d4A takes e5; c3-c2W takes c4): 3.
/// - after b2-c3A (empty b2, d4): a3-b2 and c4, e4, d5, d3, c5, e5 into d4: 7 paikas. After
///   a3-b2, a2-a3A takes a4; after each of the others b3-b2W takes b4: 7.
/// - after d2-c3A (empty d2, b4): d3-d2 and a4, c4, b5, a5, c5, a3 into b4: 7 paikas. After
///   d3-d2, b3-b4A takes b5; after each of the others d1-d2A takes d3: 7.
///
/// 3 + 3 + 3 + 7 + 7 = **23**.
#[test]
fn bell_vela_hand_counted_perft_on_5x5() {
    let pos = Position::start_with(BoardSize::DIMY, bell()).unwrap();
    assert_eq!(
        texts(&pos),
        ["b2-c3A", "b3-c3A", "b3-c3W", "c2-c3A", "d2-c3A"]
    );
    assert_eq!(perft::perft(&pos, 1), 5);
    assert_eq!(perft::perft(&pos, 2), 23);
    let by_first: Vec<(String, u64)> = {
        let mut v: Vec<(String, u64)> = perft::divide(&pos, 2)
            .into_iter()
            .map(|(t, n)| (t.to_string(), n))
            .collect();
        v.sort();
        v
    };
    assert_eq!(
        by_first,
        [
            ("b2-c3A".to_owned(), 7),
            ("b3-c3A".to_owned(), 3),
            ("b3-c3W".to_owned(), 3),
            ("c2-c3A".to_owned(), 3),
            ("d2-c3A".to_owned(), 7),
        ]
    );
    // The reference generator, written apart, agrees at these depths and deeper.
    let board = Board::from_fen(&pos.to_fen())
        .unwrap()
        .with_variant(Variant::VelaBell);
    for depth in 1..=5 {
        assert_eq!(
            perft::perft(&pos, depth),
            board.perft(depth),
            "depth {depth}"
        );
    }
}

#[test]
fn bell_vela_black_gives_a_stone_when_it_can() {
    // 5x5, Black (the previous winner) with six stones c5 d5 e5 c4 d4 e4, White a1 alone.
    // White's a1 can capture only by approach, onto a2, b1 or b2, so only a black stone on a3,
    // c1 or c3 can be taken. Of Black's eight paikas (c4-b4, c4-c3, d4-d3, d4-c3, d4-e3,
    // e4-e3, c5-b5, c5-b4) only the two into c3 offer one.
    let pos = Position::from_fen_with("2BBB/2BBB/5/5/W4 b", bell()).unwrap();
    assert!(pos.is_vela_phase());
    assert_eq!(texts(&pos), ["c4-c3", "d4-c3"]);
    // Under Montgomery's Vela White is the giver: Black, with no capture, makes any paika.
    let montgomery = Position::from_fen_with("2BBB/2BBB/5/5/W4 b", vela()).unwrap();
    assert_eq!(montgomery.legal_turns().len(), 8);
    // After c4-c3 White takes c3 alone, not the line c3 d4 e5 behind it.
    let next = pos.play(&pos.parse_turn("c4-c3").unwrap()).unwrap();
    assert_eq!(texts(&next), ["a1-b2A"]);
    let after = next.play(&next.parse_turn("a1-b2A").unwrap()).unwrap();
    assert_eq!(after.to_fen(), "2BBB/3BB/5/1W3/5 b 0 2 vela");
    // Black is down to five: normal play, its paikas are no longer limited to offers.
    assert!(!after.is_vela_phase());
    let normal = Position::from_fen("2BBB/3BB/5/1W3/5 b").unwrap();
    assert_eq!(texts(&after), texts(&normal));
}

#[test]
fn bell_vela_white_without_a_capture_loses() {
    // Black e1 e2 e3 e4 e5 d5, White a1: no black paika brings a stone to a3, c1 or c3, so
    // none offers a capture and all ten are legal (e1-d1, e1-d2, e2-d2, e3-d3, e3-d2, e3-d4,
    // e4-d4, e5-d4, d5-c5, d5-d4).
    let pos = Position::from_fen_with("3BB/4B/4B/4B/W3B b", bell()).unwrap();
    assert_eq!(pos.legal_turns().len(), 10);
    let next = pos.play(&pos.parse_turn("e1-d1").unwrap()).unwrap();
    // White has steps but no capture: no turn, and it loses, even where a stuck side draws.
    assert!(!next.has_legal_turn() && next.legal_turns().is_empty());
    let lost = Outcome::win(Color::Black, EndReason::NoVelaCapture);
    assert_eq!(next.outcome(), Some(lost));
    assert_eq!(lost.to_string(), "Black wins (no capture in Vela)");
    let draws = bell().with_stuck(fanorona_core::StuckRule::Draws);
    let fen = next.to_fen();
    assert_eq!(
        Position::from_fen_with(&fen, draws).unwrap().outcome(),
        Some(lost)
    );
    // Under Montgomery's Vela the same White (receiving, not giving) makes a paika.
    let montgomery = Position::from_fen_with("3BB/4B/4B/4B/W3B w", vela()).unwrap();
    assert!(montgomery.outcome().is_none());
    // Through a game: the game ends there.
    let mut game = Game::new(pos);
    game.play(&pos.parse_turn("e1-d1").unwrap()).unwrap();
    assert_eq!(game.outcome(), Some(lost));
}

#[test]
fn bell_vela_matches_the_reference() {
    let pos = Position::start_with(BoardSize::STANDARD, bell()).unwrap();
    let board = Board::from_fen(&pos.to_fen())
        .unwrap()
        .with_variant(Variant::VelaBell);
    for depth in 1..=4 {
        assert_eq!(
            perft::perft(&pos, depth),
            board.perft(depth),
            "depth {depth}"
        );
    }
    for fen in [
        "2BBB/2BBB/5/5/W4 b",
        "3BB/4B/4B/4B/W3B b",
        "WW1W1W3/3B1W3/2W1B4/1B3B3/B3B4 w",
        "BB1B1B3/3W1B3/2B1W4/1W3W3/W3W4 w",
        "BB1B1B3/3W1B3/2B1W4/1W3W3/W3W4 b",
    ] {
        let pos = Position::from_fen_with(fen, bell()).unwrap();
        let board = Board::from_fen(fen)
            .unwrap()
            .with_variant(Variant::VelaBell);
        for depth in 1..=4 {
            assert_eq!(
                perft::perft(&pos, depth),
                board.perft(depth),
                "{fen} {depth}"
            );
        }
        assert_eq!(
            perft::perft_unique(&pos, 1),
            perft::divide_unique(&pos, 1).len() as u64
        );
    }
    for size in [BoardSize::STANDARD, BoardSize::DIMY] {
        compare_playouts(
            Position::start_with(size, bell()).unwrap(),
            Variant::VelaBell,
            40,
            80,
        );
    }
}

#[test]
fn bell_vela_records_carry_the_option() {
    // The Rules tag names the account; the game replays under it, and comes back out with it.
    let fgn = "[Variant \"Vela\"]\n[Rules \"vela=bell\"]\n\n1. e2-e3A *\n";
    let records = read(fgn);
    let (game, report) = records[0].replay();
    assert!(report.is_valid(), "{report:?}");
    let game = game.unwrap();
    assert_eq!(game.position().rules(), bell());
    assert_eq!(game.position().stones(Color::Black).count(), 21);
    // Under Montgomery's Vela (no Rules tag) White opens without capturing: refused.
    let montgomery = fgn.replace("[Rules \"vela=bell\"]\n", "");
    assert!(!read(&montgomery)[0].replay().1.is_valid());
    // A position string carries the game; the account comes with the rules it is read under.
    let pos = Position::from_fen_with("2BBB/2BBB/5/5/W4 b vela", bell()).unwrap();
    assert_eq!(pos.rules(), bell());
    // A game won by Bell's rule is written with its rules and result, and read back the same.
    let start = Position::from_fen_with("3BB/4B/4B/4B/W3B b vela", bell()).unwrap();
    let mut game = Game::new(start);
    game.play_text("e1-d1").unwrap();
    let record = GameRecord::from_game(&game);
    assert_eq!(record.tag("Rules"), Some("game=vela,vela=bell"));
    assert_eq!(record.tag("FEN"), Some("3BB/4B/4B/4B/W3B b vela"));
    assert_eq!(
        record.result,
        Some(fanorona_core::record::GameResult::BlackWins)
    );
    assert_eq!(record.to_game().unwrap(), game);
    let (_, report) = record.replay();
    assert!(report.is_valid(), "{report:?}");
}
