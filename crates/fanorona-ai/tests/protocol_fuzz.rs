//! A fuzz target for the engine protocol's line parser and loop (proptest, on the stable
//! toolchain): arbitrary bytes, arbitrary lines and sequences of plausible commands. Asserts
//! that the loop never panics or fails, that every `go` is answered by exactly one
//! `bestmove`, and that the output is only protocol lines, short, without control
//! characters.
//!
//! CI runs a few cases; run it longer with, for instance,
//! `PROPTEST_CASES=20000 nice cargo test -p fanorona-ai --test protocol_fuzz`.
//! Inputs that once failed are kept as plain tests at the end.

use std::io::Cursor;

use fanorona_ai::protocol::{self, MAX_LINE, SharedBuffer};
use proptest::prelude::*;

/// The number of `go` commands the loop reads before it ends: the lines are split and
/// decoded as the protocol does (lines that are not UTF-8 or too long are not commands), and
/// `quit` ends the loop.
fn expected_gos(input: &[u8]) -> usize {
    let mut gos = 0;
    let mut lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if input.ends_with(b"\n") || input.is_empty() {
        lines.pop();
    }
    for line in lines {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE {
            continue;
        }
        let Ok(text) = std::str::from_utf8(line) else {
            continue;
        };
        match text.split_whitespace().next() {
            Some("go") => gos += 1,
            Some("quit") => break,
            _ => {}
        }
    }
    gos
}

/// Runs the protocol on `input` and checks the answers.
fn check(input: &[u8]) {
    let out = SharedBuffer::default();
    protocol::run(Cursor::new(input.to_vec()), out.clone()).expect("no I/O error in memory");
    let text = out.text();
    let bestmoves = text.lines().filter(|l| l.starts_with("bestmove ")).count();
    assert_eq!(
        bestmoves,
        expected_gos(input),
        "input: {:?}\noutput:\n{text}",
        String::from_utf8_lossy(input)
    );
    for line in text.lines() {
        assert!(
            ["id ", "option ", "info ", "bestmove "]
                .iter()
                .any(|p| line.starts_with(p))
                || line == "uciok"
                || line == "readyok",
            "unexpected line {line:?}"
        );
        assert!(!line.chars().any(char::is_control), "{line:?}");
        if line.starts_with("info string") {
            assert!(line.len() <= 600, "long message {line:?}");
        }
    }
}

fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u64..6).prop_map(|n| n.to_string()),
        (0u64..3000).prop_map(|n| n.to_string()),
        Just("-5".to_owned()),
        Just("18446744073709551615".to_owned()),
        Just("99999999999999999999".to_owned()),
        Just("x".to_owned()),
        Just(String::new()),
    ]
}

fn turn_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "f2-e3A",
            "d3e3W",
            "d3-e3A",
            "e2-e3A",
            "d2-e3A",
            "c3-b4",
            "a1-b2A-a3W",
            "zz",
            "-",
            "e3",
            "f2-e3A-e4W-d4",
            "i5i4",
        ])
        .prop_map(str::to_owned),
        "[a-j][0-9]{1,2}(-?[a-j][0-9][AW]?){0,3}",
    ]
}

fn go_command() -> impl Strategy<Value = String> {
    let arg = prop_oneof![
        prop::sample::select(vec![
            "depth",
            "nodes",
            "movetime",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "mate",
            "multipv",
        ])
        .prop_flat_map(|k| number().prop_map(move |n| format!("{k} {n}"))),
        Just("infinite".to_owned()),
        Just("ponder".to_owned()),
        prop::collection::vec(turn_text(), 0..4)
            .prop_map(|ts| format!("searchmoves {}", ts.join(" "))),
        "[a-z]{1,8}",
    ];
    prop::collection::vec(arg, 0..5).prop_map(|args| format!("go {}", args.join(" ")))
}

fn setoption() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "1",
            "2",
            "0",
            "65536",
            "16385",
            "18446744073709551615",
            "x"
        ])
        .prop_map(|v| format!("setoption name Hash value {v}")),
        (0u32..300).prop_map(|v| format!("setoption name MultiPV value {v}")),
        prop::sample::select(vec![
            "novice", "beginner", "casual", "club", "strong", "maximum", "expert", "13", "14",
        ])
        .prop_map(|v| format!("setoption name Level value {v}")),
        prop::sample::select(vec!["5x9", "5x5", "3x3", "3x7", "9x9", "4x4", "x", "99x99"])
            .prop_map(|v| format!("setoption name Board value {v}")),
        prop::sample::select(vec!["", "<empty>", "no-such-folder"])
            .prop_map(|v| format!("setoption name Tablebase value {v}")),
        prop::sample::select(vec![
            "standard",
            "stuck=draws",
            "repetition=off",
            "no-capture-limit=2",
            "bogus",
        ])
        .prop_map(|v| format!("setoption name Rules value {v}")),
        prop::sample::select(vec![
            "repetition",
            "no-capture-limit",
            "stuck",
            "opening-restriction"
        ])
        .prop_flat_map(|n| number().prop_map(move |v| format!("setoption name {n} value {v}"))),
        "setoption [a-z ]{0,20}",
    ]
}

fn position() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::collection::vec(turn_text(), 0..6)
            .prop_map(|ts| format!("position startpos moves {}", ts.join(" "))),
        Just("position startpos".to_owned()),
        Just("position fen 9/9/2B6/9/W1B6 w".to_owned()),
        Just("position fen 9/9/9/9/W8 b".to_owned()),
        "position fen [WB1-9/]{0,30} [wb] ?[0-9]{0,3}",
        "position [a-z ]{0,12}",
    ]
}

/// One input line (without its end), bytes and all.
fn line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => go_command().prop_map(String::into_bytes),
        3 => setoption().prop_map(String::into_bytes),
        3 => position().prop_map(String::into_bytes),
        3 => prop::sample::select(vec![
            "uci", "isready", "ucinewgame", "stop", "d", "ponderhit", "debug on", "", "   ",
            "go", "stop stop", "quit", "  go  infinite ",
        ])
        .prop_map(|s| s.as_bytes().to_vec()),
        2 => prop::collection::vec(any::<u8>(), 0..40),
        1 => "[ -~\u{80}-\u{10FFFF}\t\r]{0,40}".prop_map(String::into_bytes),
    ]
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn command_sequences_never_panic_and_every_go_is_answered(
        lines in prop::collection::vec(line(), 0..14),
        crlf in any::<bool>(),
        last_newline in any::<bool>(),
    ) {
        let end: &[u8] = if crlf { b"\r\n" } else { b"\n" };
        let mut input = lines.join(end);
        if last_newline && !input.is_empty() {
            input.extend_from_slice(end);
        }
        check(&input);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        check(&bytes);
    }
}

#[test]
fn long_lines_and_bad_bytes_around_go() {
    let mut input = b"go depth 1\n".to_vec();
    input.extend(std::iter::repeat_n(b'g', MAX_LINE + 10));
    input.extend_from_slice(b"\ngo \xff\ngo infinite\r\nquit\ngo\n");
    check(&input);
    assert_eq!(expected_gos(&input), 2);
}
