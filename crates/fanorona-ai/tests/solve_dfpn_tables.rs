//! df-pn with endgame tables at its leaves ([`Dfpn::set_tables`]): the values of retrograde
//! analysis (an independent method), fewer positions expanded than without the tables, and
//! certificates that the independent checker accepts without the tables.

mod common;

use std::sync::Arc;

use fanorona_ai::solve::dfpn::Dfpn;
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_ai::solve::{self, Budget, Value, retro, verify};
use fanorona_core::{BoardSize, Position};

fn tables(size: BoardSize, stones: u32) -> Arc<Tablebase> {
    Arc::new(common::tables(size, stones))
}

/// Whether `attacker` can force a win from `pos`, by df-pn with `tables`; the search is
/// returned for its certificate.
fn search(pos: &Position, attacker: fanorona_core::Color, tables: &Arc<Tablebase>) -> (bool, Dfpn) {
    let mut s = Dfpn::new(pos, attacker).unwrap();
    s.set_tables(Arc::clone(tables));
    let r = s.run(&Budget::default(), &mut |_| {}).unwrap();
    (r.proved.expect("decided"), s)
}

/// The claim of the certificate of a decided search, as the checker reads it.
fn certified(s: &mut Dfpn, proved: bool) -> String {
    let cert = if proved {
        s.certificate()
    } else {
        s.disproof_certificate()
    }
    .unwrap()
    .expect("a certificate");
    let mut text = Vec::new();
    cert.write_to(&mut text).unwrap();
    verify::verify(std::io::Cursor::new(&text), &verify::Limits::default())
        .unwrap_or_else(|e| panic!("{e}"))
        .value
}

/// The value by df-pn with the tables, both sides' searches; each search's certificate must
/// pass the checker with the claim it makes.
fn value_with_tables(pos: &Position, tables: &Arc<Tablebase>) -> Value {
    let us = pos.side_to_move();
    let (win, mut s) = search(pos, us, tables);
    if win {
        assert_eq!(certified(&mut s, true), "win", "{}", pos.to_fen());
        return Value::Win;
    }
    assert_eq!(certified(&mut s, false), "draw-or-loss", "{}", pos.to_fen());
    let (loss, mut s) = search(pos, us.other(), tables);
    if loss {
        assert_eq!(certified(&mut s, true), "loss", "{}", pos.to_fen());
        Value::Loss
    } else {
        assert_eq!(certified(&mut s, false), "win-or-draw", "{}", pos.to_fen());
        Value::Draw
    }
}

#[test]
fn with_tables_df_pn_gives_retrograde_analysis_values_and_checked_certificates() {
    for size in [BoardSize::new(3, 5).unwrap(), BoardSize::new(5, 3).unwrap()] {
        let tb = tables(size, 4);
        let start = solve::start(size);
        let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
        assert_eq!(value_with_tables(&start, &tb), r.value, "{size}");
        // A spread of reachable positions of each value, with more stones than the tables
        // (the search runs into them) and with fewer (the tables answer at once).
        let mut counts = [[0usize; 2]; 3];
        let mut seen = 0usize;
        for (pos, v, _) in r.positions() {
            if pos.outcome().is_some() {
                continue;
            }
            seen += 1;
            let slot = match v {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            };
            let stones = pos.stones(fanorona_core::Color::White).count()
                + pos.stones(fanorona_core::Color::Black).count();
            let covered = usize::from(stones <= 4);
            if !seen.is_multiple_of(5) || counts[slot][covered] >= 5 {
                continue;
            }
            counts[slot][covered] += 1;
            assert_eq!(value_with_tables(&pos, &tb), v, "{size} {}", pos.to_fen());
        }
        assert!(
            counts.iter().flatten().filter(|&&c| c > 0).count() >= 5,
            "{size}: {counts:?}"
        );
    }
}

/// The tables spare the search the endgames: 3x7's proof (White wins) expands fewer
/// positions with the 4-stone tables, and its certificate, which spells the endgames out
/// from the tables, still passes the checker.
#[test]
fn tables_shorten_a_proof_and_its_certificate_stays_checkable() {
    let size = BoardSize::new(3, 7).unwrap();
    let start = solve::start(size);
    let mut plain = Dfpn::new(&start, start.side_to_move()).unwrap();
    let without = plain.run(&Budget::default(), &mut |_| {}).unwrap();
    let mut with = Dfpn::new(&start, start.side_to_move()).unwrap();
    assert_eq!(with.set_tables(tables(size, 4)), 4);
    let r = with.run(&Budget::default(), &mut |_| {}).unwrap();
    assert_eq!((without.proved, r.proved), (Some(true), Some(true)));
    assert!(with.table_hits() > 0);
    assert!(
        r.expanded < without.expanded,
        "with the tables {} expanded, without {}",
        r.expanded,
        without.expanded
    );
    assert_eq!(certified(&mut with, true), "win");
}

/// A position the tables cover is settled without expanding anything, and its certificate
/// comes from the tables alone. White's c1 stone takes Black's lone stone by approach
/// (c1-d2 toward e3), so White wins in one turn; Black, to move in the colour swap, cannot
/// win.
#[test]
fn a_position_the_tables_cover_is_settled_at_once() {
    let tb = tables(BoardSize::STANDARD, 2);
    let pos = Position::from_fen_with("9/9/4B4/9/2W6 w", solve::solver_rules()).unwrap();
    let mut s = Dfpn::new(&pos, fanorona_core::Color::White).unwrap();
    assert_eq!(s.set_tables(Arc::clone(&tb)), 2);
    let r = s.run(&Budget::default(), &mut |_| {}).unwrap();
    assert_eq!(
        (r.proved, r.proof_len, r.expanded),
        (Some(true), Some(1), 0)
    );
    assert_eq!(certified(&mut s, true), "win");
    let (black_wins, mut s) = search(&pos, fanorona_core::Color::Black, &tb);
    assert!(!black_wins);
    assert_eq!(certified(&mut s, false), "win-or-draw");
    // Against retrograde analysis on every position reachable from a 1v1 start.
    let pos = Position::from_fen_with("9/9/4B4/9/W8 w", solve::solver_rules()).unwrap();
    let r = retro::solve(&pos, &Budget::default(), &mut |_| {}).unwrap();
    for (p, v, _) in r
        .positions()
        .filter(|p| p.0.outcome().is_none())
        .step_by(37)
    {
        assert_eq!(value_with_tables(&p, &tb), v, "{}", p.to_fen());
    }
}

/// Tables of another board cover nothing: the search goes on as without them.
#[test]
fn tables_of_another_board_change_nothing() {
    let start = solve::start(BoardSize::new(3, 5).unwrap());
    let mut plain = Dfpn::new(&start, start.side_to_move()).unwrap();
    let without = plain.run(&Budget::default(), &mut |_| {}).unwrap();
    let mut s = Dfpn::new(&start, start.side_to_move()).unwrap();
    assert_eq!(s.set_tables(tables(BoardSize::TELO, 4)), 0);
    let r = s.run(&Budget::default(), &mut |_| {}).unwrap();
    assert_eq!((r.proved, r.expanded), (without.proved, without.expanded));
    assert_eq!(s.table_hits(), 0);
}
