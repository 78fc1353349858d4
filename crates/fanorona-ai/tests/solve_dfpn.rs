//! df-pn against retrograde analysis (an independent method: no search, no repetition
//! bookkeeping), its proofs as certificates checked by the independent checker, and
//! checkpoints.

use fanorona_ai::solve::dfpn::{CheckpointError, Dfpn};
use fanorona_ai::solve::{self, Budget, Value, retro, verify};
use fanorona_core::{BoardSize, Position};

fn value_by_dfpn(pos: &Position) -> Value {
    let us = pos.side_to_move();
    let mut win = Dfpn::new(pos, us).unwrap();
    if win.run(&Budget::default(), &mut |_| {}).unwrap().proved == Some(true) {
        return Value::Win;
    }
    let mut loss = Dfpn::new(pos, us.other()).unwrap();
    match loss.run(&Budget::default(), &mut |_| {}).unwrap().proved {
        Some(true) => Value::Loss,
        _ => Value::Draw,
    }
}

fn check_certificate(search: &mut Dfpn, expected: &str) {
    let cert = search.certificate().unwrap().expect("proved");
    let mut text = Vec::new();
    cert.write_to(&mut text).unwrap();
    let report = verify::verify(std::io::Cursor::new(&text), &verify::Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.value, expected);
}

#[test]
fn dfpn_agrees_with_retrograde_analysis_on_reachable_positions() {
    for size in [
        BoardSize::TELO,
        BoardSize::new(3, 5).unwrap(),
        BoardSize::new(5, 3).unwrap(),
    ] {
        let start = solve::start(size);
        let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
        assert_eq!(value_by_dfpn(&start), r.value, "{size}");
        // A spread of reachable positions of each value, repetitions and all.
        let mut counts = [0usize; 3];
        let mut seen = [0usize; 3];
        for (pos, v, _) in r.positions() {
            let slot = match v {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            };
            if pos.outcome().is_some() {
                continue;
            }
            seen[slot] += 1;
            if !seen[slot].is_multiple_of(7) || counts[slot] >= 12 {
                continue;
            }
            counts[slot] += 1;
            assert_eq!(value_by_dfpn(&pos), v, "{size} {}", pos.to_fen());
        }
        assert!(counts.iter().all(|&c| c > 0), "{size}: {counts:?}");
    }
}

#[test]
fn dfpn_proofs_are_certificates_the_checker_accepts() {
    for size in [
        BoardSize::TELO,
        BoardSize::new(3, 5).unwrap(),
        BoardSize::new(7, 3).unwrap(),
    ] {
        let start = solve::start(size);
        let mut s = Dfpn::new(&start, start.side_to_move()).unwrap();
        let r = s.run(&Budget::default(), &mut |_| {}).unwrap();
        assert_eq!(
            r.proved,
            Some(true),
            "{size}: every one is a first-player win"
        );
        check_certificate(&mut s, "win");
    }
    // A loss: White to move, Black wins (hand-checked: White's lone a1 stone must step to a2
    // or b1 next to Black's a3/b2... taken from retrograde analysis's reachable losses).
    let start = solve::start(BoardSize::TELO);
    let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
    let (lost, _, _) = r
        .positions()
        .find(|p| p.1 == Value::Loss && p.2 >= 4)
        .expect("a loss in 4 or more");
    let mut s = Dfpn::new(&lost, lost.side_to_move().other()).unwrap();
    assert_eq!(
        s.run(&Budget::default(), &mut |_| {}).unwrap().proved,
        Some(true)
    );
    check_certificate(&mut s, "loss");
}

/// The search is deterministic: the same position, attacker and budget give the same run
/// (expansions, table, cut-backs) and byte-identical checkpoints, also when the table is cut
/// back (which keeps some entries of equal work and drops others). Before the table's hasher
/// was fixed, its random seed changed which entries survived a cut-back, and with them the
/// search's course and its table size from run to run.
#[test]
fn dfpn_is_deterministic_even_when_its_table_is_cut_back() {
    let start = solve::start(BoardSize::new(3, 7).unwrap());
    let budget = Budget::default().with_max_bytes(192 << 10);
    let mut runs = Vec::new();
    for i in 0..3 {
        let mut s = Dfpn::new(&start, start.side_to_move()).unwrap();
        let r = s.run(&budget, &mut |_| {}).unwrap();
        assert!(r.collections > 0, "the table was cut back");
        let file =
            std::env::temp_dir().join(format!("fanorona-dfpn-det-{}-{i}.ckpt", std::process::id()));
        s.save(&file).unwrap();
        let bytes = std::fs::read(&file).unwrap();
        std::fs::remove_file(&file).unwrap();
        runs.push((
            r.proved,
            r.expanded,
            r.entries,
            r.collections,
            r.bytes,
            bytes,
        ));
    }
    assert!(runs.windows(2).all(|w| w[0] == w[1]));
}

/// 3x7 in 256 KiB: the table is cut back and the search still decides (measured: 16,576
/// expansions, 6,764 entries, one cut-back, the same on every run since the search is
/// deterministic). Budgets are not monotone: in 128 KiB the proofs, which are never dropped,
/// fill the table (123.98 KiB of slots) and the search stops, while 96 KiB decides after 9
/// cut-backs.
#[test]
fn a_small_table_still_decides_and_checkpoints_resume() {
    let start = solve::start(BoardSize::new(3, 7).unwrap());
    let budget = Budget::default().with_max_bytes(256 << 10);
    let mut s = Dfpn::new(&start, start.side_to_move()).unwrap();
    let r = s.run(&budget, &mut |_| {}).unwrap();
    assert_eq!(r.proved, Some(true));
    assert!(r.collections > 0, "the table was cut back");
    // The table's slots never take more than the budget.
    assert!(r.bytes <= 256 << 10, "within the budget: {}", r.bytes);
    check_certificate(&mut s, "win");
    // Save, load into a fresh search: it answers at once from the table.
    let file = std::env::temp_dir().join(format!("fanorona-dfpn-{}.ckpt", std::process::id()));
    s.save(&file).unwrap();
    let mut t = Dfpn::new(&start, start.side_to_move()).unwrap();
    t.load(&file, &Budget::default()).unwrap();
    assert_eq!(t.entries(), s.entries());
    let again = t.run(&Budget::default(), &mut |_| {}).unwrap();
    assert_eq!((again.proved, again.expanded), (Some(true), 0));
    // Another position's checkpoint is refused.
    let mut other = Dfpn::new(&solve::start(BoardSize::TELO), start.side_to_move()).unwrap();
    assert!(other.load(&file, &Budget::default()).is_err());
    std::fs::remove_file(&file).unwrap();
}

/// Disproofs become bound certificates: for a reachable draw (both searches disproved) each
/// side's never-losing strategy; for a win, the loser's attack disproved gives `win-or-draw`.
#[test]
fn dfpn_disproofs_are_bound_certificates_the_checker_accepts() {
    for size in [BoardSize::TELO, BoardSize::new(3, 5).unwrap()] {
        let start = solve::start(size);
        let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
        let mut done = [0usize; 2];
        let mut seen = 0usize;
        for (pos, v, _) in r.positions() {
            if pos.outcome().is_some() || v == Value::Loss {
                continue;
            }
            seen += 1;
            let slot = usize::from(v == Value::Draw);
            if !seen.is_multiple_of(5) || done[slot] >= 6 {
                continue;
            }
            done[slot] += 1;
            let us = pos.side_to_move();
            // The opponent cannot force a win: the side to move's closed strategy.
            let mut s = Dfpn::new(&pos, us.other()).unwrap();
            assert_eq!(
                s.run(&Budget::default(), &mut |_| {}).unwrap().proved,
                Some(false)
            );
            let cert = s.disproof_certificate().unwrap().expect("disproved");
            let mut text = Vec::new();
            cert.write_to(&mut text).unwrap();
            let report = verify::verify(std::io::Cursor::new(&text), &verify::Limits::default())
                .unwrap_or_else(|e| panic!("{size} {}: {e}", pos.to_fen()));
            assert_eq!(report.value, "win-or-draw");
            if v == Value::Draw {
                let mut s = Dfpn::new(&pos, us).unwrap();
                assert_eq!(
                    s.run(&Budget::default(), &mut |_| {}).unwrap().proved,
                    Some(false)
                );
                let cert = s.disproof_certificate().unwrap().expect("disproved");
                let mut text = Vec::new();
                cert.write_to(&mut text).unwrap();
                let report =
                    verify::verify(std::io::Cursor::new(&text), &verify::Limits::default())
                        .unwrap_or_else(|e| panic!("{size} {}: {e}", pos.to_fen()));
                assert_eq!(report.value, "draw-or-loss");
            }
        }
        assert!(done.iter().all(|&d| d > 0), "{size}: {done:?}");
    }
}

/// The offset of the first record of a checkpoint: after its seven header lines.
fn records_start(bytes: &[u8]) -> usize {
    let mut at = 0;
    for _ in 0..7 {
        at += bytes[at..].iter().position(|&b| b == b'\n').unwrap() + 1;
    }
    at
}

/// Rewrites a checkpoint's end line with the right checksum (FNV-1a 64 of what precedes it,
/// computed here independently of the solver).
fn reseal(bytes: &mut Vec<u8>) {
    let body = bytes.len() - 21;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &bytes[..body] {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    bytes.truncate(body);
    bytes.extend_from_slice(format!("end {h:016x}\n").as_bytes());
}

/// Checkpoints carry their board, rules, start, attacker and a checksum: a damaged, edited or
/// foreign one is refused where it goes wrong, and the table is never replaced by a bad one.
/// (Setting pn = 0 in every record used to turn "Black cannot force a win" into "can".)
#[test]
fn damaged_and_foreign_checkpoints_are_refused_where_they_go_wrong() {
    let start = solve::start(BoardSize::TELO);
    let black = fanorona_core::Color::Black;
    let mut s = Dfpn::new(&start, black).unwrap();
    // White wins 3x3: Black's attack is disproved.
    assert_eq!(
        s.run(&Budget::default(), &mut |_| {}).unwrap().proved,
        Some(false)
    );
    let file = std::env::temp_dir().join(format!("fanorona-dfpn-bad-{}.ckpt", std::process::id()));
    s.save(&file).unwrap();
    let good = std::fs::read(&file).unwrap();
    let text = String::from_utf8_lossy(&good[..records_start(&good)]).into_owned();
    assert!(
        text.starts_with("fanorona-dfpn 2\nboard 3x3\nrules "),
        "{text}"
    );
    assert!(text.contains("\nattacker black\n"), "{text}");
    let entries = s.entries() as usize;
    assert_eq!(good.len(), records_start(&good) + entries * 30 + 21);
    let load = |bytes: &[u8], budget: &Budget| {
        std::fs::write(&file, bytes).unwrap();
        let mut t = Dfpn::new(&start, black).unwrap();
        let r = t.load(&file, budget);
        (r, t.entries())
    };
    assert_eq!(load(&good, &Budget::default()).1, s.entries());
    // Every record proved (pn = 0), checksum left as it was: refused at the end line.
    let first = records_start(&good);
    let mut forged = good.clone();
    for i in 0..entries {
        forged[first + i * 30 + 16..first + i * 30 + 20].copy_from_slice(&0u32.to_le_bytes());
    }
    let (e, kept) = load(&forged, &Budget::default());
    assert!(e.is_err(), "a forged table is refused");
    assert_eq!(kept, 0, "the table is not replaced by a refused checkpoint");
    // A record's work changed (any value is in range there): the checksum finds it.
    let mut forged = good.clone();
    forged[first + 24] ^= 1;
    let (e, kept) = load(&forged, &Budget::default());
    let e = e.unwrap_err();
    assert!(e.to_string().contains("checksum mismatch"), "{e}");
    assert!(
        matches!(&e, CheckpointError::Format { at, .. } if at.starts_with(&format!("byte {}", good.len() - 21))),
        "{e}"
    );
    assert_eq!(kept, 0, "the table is not replaced by a refused checkpoint");
    // Both numbers 0 with the checksum fixed: refused at that record.
    let mut both = good.clone();
    both[first + 30 + 16..first + 30 + 24].copy_from_slice(&[0; 8]);
    reseal(&mut both);
    let e = load(&both, &Budget::default()).0.unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("record 2 (byte {})", first + 30)),
        "{e}"
    );
    // A key off the board, checksum fixed: refused at that record, no panic.
    let mut off = good.clone();
    off[first..first + 8].copy_from_slice(&u64::MAX.to_le_bytes());
    reseal(&mut off);
    let e = load(&off, &Budget::default()).0.unwrap_err();
    assert!(
        e.to_string()
            .starts_with(&format!("record 1 (byte {first})")),
        "{e}"
    );
    // Another board, rules or attacker (checksum fixed): refused at that header line.
    for (from, to, line) in [
        ("board 3x3", "board 3x5", 2),
        ("stuck=loses", "stuck=draws", 3),
        ("attacker black", "attacker white", 5),
    ] {
        let head = text.replacen(from, to, 1);
        let mut other = head.into_bytes();
        other.extend_from_slice(&good[first..]);
        reseal(&mut other);
        let e = load(&other, &Budget::default()).0.unwrap_err();
        assert!(
            matches!(e, CheckpointError::Foreign { line: l, .. } if l == line),
            "{from}: {e}"
        );
    }
    // Truncated: the size does not match the count (line 6).
    let e = load(&good[..good.len() - 40], &Budget::default())
        .0
        .unwrap_err();
    assert!(e.to_string().starts_with("line 6:"), "{e}");
    // A count larger than the file: refused before anything is reserved.
    let huge = text.replacen(
        &format!("entries {entries}\n"),
        "entries 2000000000000\n",
        1,
    );
    let e = load(huge.as_bytes(), &Budget::default()).0.unwrap_err();
    assert!(e.to_string().starts_with("line 6:"), "{e}");
    // The memory budget holds while loading: the table's slots are 28 bytes, at least 5/4
    // of the entries (80% full), and the budget less a 32nd is the slots' room: 35 bytes an
    // entry and a 32nd more, 36.2; 35 is too little, 37 enough.
    let small = Budget::default().with_max_bytes(entries as u64 * 35);
    let e = load(&good, &small).0.unwrap_err();
    assert!(matches!(e, CheckpointError::MemoryLimit { .. }), "{e}");
    let roomy = Budget::default().with_max_bytes(entries as u64 * 37 + 64);
    assert_eq!(load(&good, &roomy).1, s.entries());
    // The format-1 checkpoints (no checksum, no rules) are not read.
    let e = load(b"fanorona-dfpn 1\n3/3/3 w\n", &Budget::default())
        .0
        .unwrap_err();
    assert!(
        e.to_string().starts_with("line 1:") && e.to_string().contains("format 1"),
        "{e}"
    );
    std::fs::remove_file(&file).unwrap();
}

/// The 5x5 start is a draw (retrograde analysis; Schadd et al.): White's win disproved, and
/// the closed strategy read from the table with the positions already in it taken as
/// disproved, so the few children whose disproofs relied on the search's path are searched
/// again cheaply (the certificate needed 12.5 million expansions on top of the search's
/// 250,000 before it did so); the table keeps only what holds on every path.
#[test]
fn a_disproof_certificate_is_read_cheaply_and_leaves_the_table_clean() {
    let start = fanorona_ai::solve::start(fanorona_core::BoardSize::new(5, 5).unwrap());
    let mut s = Dfpn::new(&start, fanorona_core::Color::White).unwrap();
    assert_eq!(
        s.run(&Budget::default(), &mut |_| {}).unwrap().proved,
        Some(false)
    );
    let before = s.status();
    let cert = s.disproof_certificate().unwrap().expect("disproved");
    let after = s.status();
    assert!(
        after.expanded - before.expanded < before.expanded / 10,
        "{} expansions for the certificate after {}",
        after.expanded - before.expanded,
        before.expanded
    );
    assert_eq!(after.disproofs, before.disproofs);
    let mut text = Vec::new();
    cert.write_to(&mut text).unwrap();
    let report = verify::verify(std::io::Cursor::new(&text), &verify::Limits::default()).unwrap();
    assert_eq!(report.value, "draw-or-loss");
    // The table still serves: a second certificate (its searches now find what the first
    // one's proved, so it may choose other turns) checks as well.
    let again = s.disproof_certificate().unwrap().expect("disproved");
    let mut text = Vec::new();
    again.write_to(&mut text).unwrap();
    let report = verify::verify(std::io::Cursor::new(&text), &verify::Limits::default()).unwrap();
    assert_eq!(report.value, "draw-or-loss");
    assert_eq!(s.status().disproofs, before.disproofs);
}
