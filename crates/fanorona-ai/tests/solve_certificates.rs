//! Certificates: built for the small boards and checked by the independent checker; values
//! cross-checked with retrograde analysis; tampered certificates of every kind rejected.

mod common;

use std::io::Cursor;

use fanorona_ai::solve::certificate::Certificate;
use fanorona_ai::solve::verify::{self, ErrorKind, Limits, VerifyError};
use fanorona_ai::solve::{self, Budget, Value, retro};
use fanorona_core::{BoardSize, Position};

fn build(pos: &Position) -> Certificate {
    Certificate::build(pos, &Budget::default(), &mut |_| {}).expect("certificate")
}

fn text(cert: &Certificate) -> String {
    let mut out = Vec::new();
    let n = cert.write_to(&mut out).unwrap();
    assert_eq!(n, out.len() as u64);
    String::from_utf8(out).unwrap()
}

fn check(text: &str) -> Result<verify::Report, VerifyError> {
    verify::verify(Cursor::new(text.as_bytes()), &Limits::default())
}

/// Rewrites the `end` line with the right checksum for the lines before it.
fn reseal(lines: &[String]) -> String {
    let mut body = String::new();
    for l in lines.iter().filter(|l| !l.starts_with("end ")) {
        body.push_str(l);
        body.push('\n');
    }
    format!("{body}end {:016x}\n", verify::fnv1a(body.as_bytes()))
}

fn lines_of(text: &str) -> Vec<String> {
    text.lines().map(str::to_owned).collect()
}

/// Index of the first entry line of the `k`-th strategy and its count.
fn section(lines: &[String], k: usize) -> (usize, usize) {
    let (i, l) = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("strategy "))
        .nth(k)
        .expect("strategy");
    (i + 1, l.split(' ').nth(2).unwrap().parse().unwrap())
}

fn set_count(lines: &mut [String], k: usize, count: usize) {
    let (first, _) = section(lines, k);
    let mut parts: Vec<String> = lines[first - 1].split(' ').map(str::to_owned).collect();
    parts[2] = count.to_string();
    lines[first - 1] = parts.join(" ");
}

fn rejected(text: &str) -> VerifyError {
    check(text).expect_err("a tampered certificate must be rejected")
}

#[test]
fn small_boards_have_verified_certificates_matching_retrograde_analysis() {
    for size in [(3, 3), (3, 5), (5, 3), (7, 3), (3, 7)] {
        let size = BoardSize::new(size.0, size.1).unwrap();
        let start = solve::start(size);
        let cert = build(&start);
        let report = check(&text(&cert)).unwrap_or_else(|e| panic!("{size}: {e}"));
        assert_eq!(report.value, cert.claim().as_str());
        assert_eq!(report.board, size.to_string());
        assert_eq!(report.positions, cert.positions());
        if size.len() <= 15 {
            let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
            assert_eq!(cert.value(), Some(r.value), "{size}");
        }
        // The published values: every one of these boards is a first-player win.
        assert_eq!(cert.value(), Some(Value::Win), "{size}");
    }
}

#[test]
fn draws_and_losses_of_reachable_positions_are_certified() {
    // Every value on 3x3, from positions retrograde analysis labels (an independent method).
    let start = solve::start(BoardSize::TELO);
    let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
    let mut found = [0usize; 3];
    for (pos, value, _) in r.positions() {
        let slot = match value {
            Value::Win => 0,
            Value::Draw => 1,
            Value::Loss => 2,
        };
        if found[slot] >= 4 || pos.outcome().is_some() {
            continue;
        }
        found[slot] += 1;
        let cert = build(&pos);
        assert_eq!(cert.value(), Some(value), "{}", pos.to_fen());
        let report = check(&text(&cert)).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
        assert_eq!(report.value, value.as_str());
        assert_eq!(
            report.strategies.len(),
            if value == Value::Draw { 2 } else { 1 }
        );
    }
    assert_eq!(found, [4, 4, 4], "3x3 has reachable wins, draws and losses");
}

fn draw_certificate() -> String {
    static CERT: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    CERT.get_or_init(largest_draw_certificate).clone()
}

fn largest_draw_certificate() -> String {
    let start = solve::start(BoardSize::TELO);
    let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
    // The drawn position with the largest certificate, so that every tampering has room.
    let best = r
        .positions()
        .filter(|(p, v, _)| *v == Value::Draw && p.outcome().is_none())
        .map(|(p, _, _)| text(&build(&p)))
        .max_by_key(String::len)
        .expect("a draw");
    check(&best).unwrap();
    best
}

fn win_certificate() -> String {
    let t = text(&build(&solve::start(BoardSize::new(3, 5).unwrap())));
    check(&t).unwrap();
    t
}

#[test]
fn a_bad_checksum_is_rejected() {
    let t = win_certificate();
    let lines = lines_of(&t);
    let (first, _) = section(&lines, 0);
    // Change one turn, leaving the end line as it was.
    let mut bad = lines.clone();
    bad[first] = bad[first].replacen('-', "x", 1);
    let body: String = bad.iter().map(|l| format!("{l}\n")).collect();
    assert_eq!(rejected(&body).kind, ErrorKind::Checksum);
    // A truncated file.
    let cut = &t[..t.len() - 30];
    assert!(matches!(
        rejected(cut).kind,
        ErrorKind::Format | ErrorKind::Checksum
    ));
    // Text after the end line.
    assert_eq!(rejected(&format!("{t}x\n")).kind, ErrorKind::Format);
}

#[test]
fn a_missing_reply_is_rejected() {
    for t in [win_certificate(), draw_certificate()] {
        let lines = lines_of(&t);
        let (first, count) = section(&lines, 0);
        // Every position of a strategy is needed: dropping any one uncovers a reply.
        for i in first..first + count {
            let mut bad = lines.clone();
            bad.remove(i);
            set_count(&mut bad, 0, count - 1);
            let e = rejected(&reseal(&bad));
            assert!(
                matches!(e.kind, ErrorKind::MissingReply | ErrorKind::Start),
                "{e}"
            );
        }
    }
}

#[test]
fn a_wrong_turn_is_rejected() {
    let t = win_certificate();
    let lines = lines_of(&t);
    let (first, _) = section(&lines, 0);
    let mut bad = lines.clone();
    let (code, _) = bad[first].split_once(' ').unwrap();
    bad[first] = format!("{code} a1-a3");
    let e = rejected(&reseal(&bad));
    assert_eq!(e.kind, ErrorKind::IllegalTurn);
    assert_eq!(e.line, Some(first as u64 + 1));
    assert!(e.to_string().contains("a1-a3 is not a legal turn"), "{e}");
}

#[test]
fn a_cycle_in_a_win_proof_is_rejected() {
    let t = win_certificate();
    let lines = lines_of(&t);
    let (first, count) = section(&lines, 0);
    // The first position is the end of some line of play: move it last, so that a reply
    // refers forward.
    let mut bad = lines.clone();
    let moved = bad.remove(first);
    bad.insert(first + count - 1, moved);
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::NotEarlier);
    // A drawing strategy (closed, with cycles) cannot pass for an ordered one.
    let d = lines_of(&draw_certificate());
    let mut bad = d.clone();
    for l in &mut bad {
        if l.starts_with("strategy ") {
            *l = l.replace("closed", "ordered");
        }
    }
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::NotEarlier);
}

#[test]
fn a_lost_position_in_a_draw_set_is_rejected() {
    let t = draw_certificate();
    let mut lines = lines_of(&t);
    let (first, count) = section(&lines, 0);
    let side = lines[first - 1].split(' ').nth(1).unwrap().to_owned();
    // The strategy's side without a stone: it has lost.
    let lost = if side == "white" {
        "0:1c0 a1-a2"
    } else {
        "1c0:0 a1-a2"
    };
    lines.insert(first + count, lost.to_owned());
    set_count(&mut lines, 0, count + 1);
    let e = rejected(&reseal(&lines));
    assert_eq!(e.kind, ErrorKind::LostPosition, "{e}");
    assert_eq!(e.line, Some((first + count) as u64 + 1));
}

#[test]
fn wrong_claims_rules_and_duplicates_are_rejected() {
    let t = win_certificate();
    let lines = lines_of(&t);
    let mut bad = lines.clone();
    bad[4] = "value draw".to_owned();
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::Claim);
    let mut bad = lines.clone();
    bad[4] = "value loss".to_owned();
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::Claim);
    let mut bad = lines.clone();
    bad[2] = bad[2].replace("stuck=loses", "stuck=draws");
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::Rules);
    let (first, count) = section(&lines, 0);
    let mut bad = lines.clone();
    bad.insert(first + count, lines[first].clone());
    set_count(&mut bad, 0, count + 1);
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::Duplicate);
    // A draw's strategy for one side only.
    let d = lines_of(&draw_certificate());
    let (second, n) = section(&d, 1);
    let mut bad: Vec<String> = d[..second - 1].to_vec();
    bad.extend_from_slice(&d[second + n..]);
    assert_eq!(rejected(&reseal(&bad)).kind, ErrorKind::Claim);
    // Memory: the positions must fit the limit.
    let e = verify::verify(
        Cursor::new(t.as_bytes()),
        &Limits::default().with_max_bytes(100),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::MemoryLimit);
}

#[test]
fn the_committed_certificates_of_the_results_table_verify() {
    // The results table of docs/solver.md: the value of each board's standard start.
    let table = [
        ("3x3", "win"),
        ("3x5", "win"),
        ("5x3", "win"),
        ("7x3", "win"),
        ("3x7", "win"),
        ("5x5", "draw"),
        ("3x9", "win"),
        ("7x5", "win"),
        // Decided by df-pn (`solve --board 9x3 --prove white --dfpn --certificate FILE`).
        ("9x3", "win"),
        // Two bounds joined (`verify-proof --join`): Black's win disproved by proof-number
        // search, White's by df-pn with the 7-stone tables; Zstandard-compressed (84 MB).
        ("5x7", "draw"),
    ];
    let Some(dir) = common::repository_dir("tables/certificates") else {
        return;
    };
    for (board, value) in table {
        let plain = dir.join(format!("{board}.cert"));
        let report = if plain.exists() {
            verify::verify_file(&plain, &Limits::default())
        } else {
            let packed = dir.join(format!("{board}.cert.zst"));
            let mut text = Vec::new();
            let file = std::fs::File::open(&packed)
                .unwrap_or_else(|e| panic!("{}: {e}", packed.display()));
            std::io::Read::read_to_end(
                &mut ruzstd::decoding::StreamingDecoder::new(file).unwrap(),
                &mut text,
            )
            .unwrap();
            verify::verify(Cursor::new(text), &Limits::default())
        }
        .unwrap_or_else(|e| panic!("{board}: {e}"));
        assert_eq!(report.value, value, "{board}");
        assert_eq!(report.board, board);
        let (r, c) = board.split_once('x').unwrap();
        let size = BoardSize::new(r.parse().unwrap(), c.parse().unwrap()).unwrap();
        assert_eq!(report.start, solve::start(size).to_fen(), "{board}");
    }
}

#[test]
fn damaged_files_never_panic_the_checker() {
    let t = win_certificate();
    let bytes = t.as_bytes();
    // Every byte replaced by a few others, every prefix, and some hostile headers.
    for i in 0..bytes.len() {
        for b in [b'0', b'f', b'x', b' ', b'\n', 0xff] {
            let mut bad = bytes.to_vec();
            bad[i] = b;
            let _ = verify::verify(Cursor::new(&bad), &Limits::default());
        }
        let _ = verify::verify(Cursor::new(&bytes[..i]), &Limits::default());
    }
    for header in [
        "fanorona-certificate 1\nboard 99999999999999999x99999999999\n",
        "fanorona-certificate 1\nboard 9x9\n",
        "fanorona-certificate 1\nboard 3x3\nrules stuck=loses\n",
    ] {
        let e = check(header).unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::Format | ErrorKind::Rules),
            "{e}"
        );
    }
    // A header announcing more positions than memory allows is refused before reading them.
    let huge = t.replacen(
        "strategy white 29 ordered",
        "strategy white 999999999999 ordered",
        1,
    );
    assert_eq!(check(&huge).unwrap_err().kind, ErrorKind::MemoryLimit);
}

#[test]
fn certificates_are_saved_atomically() {
    let dir = std::env::temp_dir().join(format!("fanorona-cert-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("3x3.cert");
    let cert = build(&solve::start(BoardSize::TELO));
    let n = cert.save(&file).unwrap();
    assert_eq!(std::fs::metadata(&file).unwrap().len(), n);
    verify::verify_file(&file, &Limits::default()).unwrap();
    // Only the certificate is left: the temporary file was renamed.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    // A path without a file name is refused and leaves nothing behind.
    assert!(cert.save(&dir.join("..")).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bounds_prove_one_side_does_not_lose() {
    let start = solve::start(BoardSize::TELO);
    let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
    let mut seen = 0;
    for (pos, value, _) in r.positions().filter(|p| p.2 != 0 || p.1 == Value::Draw) {
        if pos.outcome().is_some() || seen >= 6 {
            continue;
        }
        seen += 1;
        let us = pos.side_to_move();
        for side in [us, us.other()] {
            let cert = Certificate::build_bound(&pos, side, &Budget::default(), &mut |_| {})
                .expect("certificate");
            let expected = match (value, side == us) {
                (Value::Draw, true) => "win-or-draw",
                (Value::Draw, false) => "draw-or-loss",
                (Value::Win, true) => "win-or-draw",
                (Value::Win, false) => "win",
                (Value::Loss, true) => "loss",
                (Value::Loss, false) => "draw-or-loss",
            };
            assert_eq!(cert.claim().as_str(), expected, "{}", pos.to_fen());
            let t = text(&cert);
            let report = check(&t).unwrap_or_else(|e| panic!("{}: {e}", pos.to_fen()));
            assert_eq!(report.value, expected);
            // The same strategy cannot pass for the opposite bound.
            let other = if expected == "win-or-draw" {
                "draw-or-loss"
            } else {
                "win-or-draw"
            };
            if expected.contains("-or-") {
                let lines: Vec<String> = lines_of(&t)
                    .into_iter()
                    .map(|l| {
                        if l.starts_with("value ") {
                            format!("value {other}")
                        } else {
                            l
                        }
                    })
                    .collect();
                assert_eq!(rejected(&reseal(&lines)).kind, ErrorKind::Claim);
            }
        }
    }
    assert_eq!(seen, 6);
}

/// The checker knows only the capture game: a start or rules naming another game are refused
/// at their line, never checked as the capture game (a 3x3 win re-labelled as Telo or Vela).
#[test]
fn starts_and_rules_of_other_games_are_refused_at_their_line() {
    let t = text(&build(&solve::start(BoardSize::TELO)));
    let lines = lines_of(&t);
    assert!(
        lines[3].starts_with("start ") && lines[3].ends_with(" w"),
        "{}",
        lines[3]
    );
    for (line_no, edit, kind) in [
        (4, format!("{} telo", lines[3]), ErrorKind::Rules),
        (4, format!("{} vela", lines[3]), ErrorKind::Rules),
        (4, format!("{} 0 1 telo", lines[3]), ErrorKind::Rules),
        (4, format!("{} 0 1", lines[3]), ErrorKind::Format),
        (4, format!("{} ", lines[3]), ErrorKind::Format),
        (4, lines[3].replacen(' ', "  ", 1), ErrorKind::Format),
        (3, format!("{},game=telo", lines[2]), ErrorKind::Rules),
        (3, format!("{},game=vela", lines[2]), ErrorKind::Rules),
        (
            3,
            lines[2].replace("repetition=3", "repetition=banana"),
            ErrorKind::Rules,
        ),
    ] {
        let mut bad = lines.clone();
        bad[line_no - 1] = edit.clone();
        let e = rejected(&reseal(&bad));
        assert_eq!(e.kind, kind, "{edit:?}: {e}");
        assert_eq!(e.line, Some(line_no as u64), "{edit:?}: {e}");
    }
    // The capture game named explicitly is the capture game.
    let mut named = lines.clone();
    named[2] = format!("{},game=capture", lines[2]);
    assert_eq!(check(&reseal(&named)).unwrap().value, "win");
}

/// A header count larger than the file can hold is refused before anything is reserved, even
/// when the memory limit would allow it (it used to abort reserving 48 GB).
#[test]
fn header_counts_are_bounded_by_the_file_size() {
    let t = text(&build(&solve::start(BoardSize::TELO)));
    let mut lines = lines_of(&t);
    let (first, _) = section(&lines, 0);
    set_count(&mut lines, 0, 2_000_000_000);
    let e = verify::verify(
        Cursor::new(reseal(&lines).as_bytes()),
        &Limits::default().with_max_bytes(64 << 30),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Format, "{e}");
    assert_eq!(e.line, Some(first as u64), "{e}");
    assert!(e.message.contains("2000000000"), "{e}");
}

/// Two bounds of a drawn position, each built by its own search, join into a draw that the
/// checker accepts; bounds that do not belong together are refused and nothing is written.
#[test]
fn bounds_of_a_draw_join_into_a_draw() {
    use fanorona_ai::solve::certificate::{JoinError, join_bounds};
    let start = solve::start(BoardSize::TELO);
    let r = retro::solve(&start, &Budget::default(), &mut |_| {}).unwrap();
    // Drawn positions by retrograde analysis (independent of the proof-number searches).
    let draws: Vec<Position> = r
        .positions()
        .filter(|(p, v, _)| *v == Value::Draw && p.outcome().is_none())
        .map(|(p, _, _)| p)
        .take(2)
        .collect();
    assert_eq!(draws.len(), 2);
    let dir = std::env::temp_dir().join(format!("fanorona-join-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let save = |pos: &Position, side, name: &str| {
        let cert = Certificate::build_bound(pos, side, &Budget::default(), &mut |_| {}).unwrap();
        let path = dir.join(name);
        cert.save(&path).unwrap();
        path
    };
    let us = draws[0].side_to_move();
    let wd = save(&draws[0], us, "wd.cert");
    let dl = save(&draws[0], us.other(), "dl.cert");
    let other_dl = save(&draws[1], draws[1].side_to_move().other(), "other.cert");
    let limits = Limits::default();
    let out = dir.join("draw.cert");
    // Either order; the result checks and claims the draw with both strategies.
    for (a, b) in [(&wd, &dl), (&dl, &wd)] {
        let report = join_bounds(a, b, &out, &limits).unwrap();
        assert_eq!(report.value, "draw");
        assert_eq!(report.strategies.len(), 2);
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(check(&text).unwrap().value, "draw");
        // The side to move's strategy first, then the opponent's, each copied whole.
        let wd_lines = lines_of(&std::fs::read_to_string(&wd).unwrap());
        let lines = lines_of(&text);
        assert_eq!(lines[5], wd_lines[5]);
        assert_eq!(
            report.positions,
            check(&std::fs::read_to_string(&wd).unwrap())
                .unwrap()
                .positions
                + check(&std::fs::read_to_string(&dl).unwrap())
                    .unwrap()
                    .positions
        );
    }
    std::fs::remove_file(&out).unwrap();
    // Two bounds of the same kind; bounds of different starts; a damaged input.
    assert!(matches!(
        join_bounds(&wd, &wd, &out, &limits),
        Err(JoinError::Mismatch(_))
    ));
    let e = join_bounds(&wd, &other_dl, &out, &limits).unwrap_err();
    assert!(
        matches!(&e, JoinError::Mismatch(m) if m.contains("start")),
        "{e}"
    );
    let damaged = dir.join("damaged.cert");
    let mut lines = lines_of(&std::fs::read_to_string(&dl).unwrap());
    lines.pop();
    std::fs::write(&damaged, lines.join("\n") + "\n").unwrap();
    let e = join_bounds(&wd, &damaged, &out, &limits).unwrap_err();
    assert!(
        matches!(&e, JoinError::Invalid { file, .. } if *file == damaged),
        "{e}"
    );
    // Nothing was left behind: no joined file, no temporary file.
    assert!(!out.exists());
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 4, "{names:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
