//! A fuzz target for the opening-suite reader (`fanorona_ai::openings::parse`, what
//! `fanorona match --openings FILE` reads), on the stable toolchain (proptest): arbitrary text
//! and line-level mutations of the built-in suite. Properties: no panic; an error names a line
//! of the input (its last line for a suite without positions) with a short message; what is read
//! is exactly the suite's distinct positions, which read back from their position strings.
//!
//! CI runs the default number of cases; a long run is
//! `PROPTEST_CASES=100000 nice cargo test -p fanorona-ai --test openings_fuzz`.

use std::collections::HashSet;

use fanorona_ai::openings::{MAX_LINE, SUITE_5X9, parse};
use fanorona_core::{Position, Rules};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// The suite's lines holding a position (not comments).
fn suite_lines() -> Vec<&'static str> {
    SUITE_5X9
        .lines()
        .filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty())
        .collect()
}

/// Reads `text` and checks the properties that hold whatever it is.
fn check(text: &str) {
    let lines = text.lines().count();
    match parse(text, Rules::STANDARD) {
        Ok(positions) => {
            assert!(!positions.is_empty());
            let mut seen = HashSet::new();
            for p in &positions {
                assert!(seen.insert(p.zobrist()), "a position read twice");
                assert!(p.outcome().is_none(), "a finished game read");
                let back = Position::from_fen_with(&p.to_fen(), Rules::STANDARD)
                    .expect("a position read reads back");
                assert_eq!(back, *p);
            }
        }
        Err(e) => {
            assert!(
                (1..=lines.max(1)).contains(&e.line),
                "line {} of {lines}",
                e.line
            );
            assert!(e.column >= 1, "column {}", e.column);
            assert!(
                e.message.len() <= 2 * MAX_LINE,
                "a {}-byte message",
                e.message.len()
            );
        }
    }
}

/// One change to the suite, line by line.
#[derive(Clone, Debug)]
enum Edit {
    /// Drops a line.
    Drop(usize),
    /// Repeats a line.
    Repeat(usize),
    /// Replaces a byte of a line by another (kept as UTF-8 text).
    Byte(usize, usize, char),
    /// Cuts a line short.
    Cut(usize, usize),
    /// Adds a comment or an empty line.
    Comment(usize, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Drop),
        any::<usize>().prop_map(Edit::Repeat),
        (any::<usize>(), any::<usize>(), any::<char>()).prop_map(|(l, i, c)| Edit::Byte(l, i, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(l, i)| Edit::Cut(l, i)),
        (any::<usize>(), "[ #a-z]{0,12}").prop_map(|(l, t)| Edit::Comment(l, t)),
    ]
}

fn apply(lines: &mut Vec<String>, e: &Edit) {
    if lines.is_empty() {
        return;
    }
    let n = lines.len();
    match e {
        Edit::Drop(l) => {
            lines.remove(l % n);
        }
        Edit::Repeat(l) => {
            let line = lines[l % n].clone();
            lines.insert(l % n, line);
        }
        Edit::Byte(l, i, c) => {
            let line = &mut lines[l % n];
            let chars: Vec<char> = line.chars().collect();
            if !chars.is_empty() {
                let mut chars = chars;
                let at = i % chars.len();
                chars[at] = *c;
                *line = chars.into_iter().collect();
            }
        }
        Edit::Cut(l, i) => {
            let line = &mut lines[l % n];
            let chars: Vec<char> = line.chars().collect();
            *line = chars[..i % (chars.len() + 1)].iter().collect();
        }
        Edit::Comment(l, t) => lines.insert(l % n, t.clone()),
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn arbitrary_text_never_panics(text in "(?s).{0,400}") {
        check(&text);
    }

    #[test]
    fn position_like_text_never_panics(text in "([WBwb1-9/ #\n]{0,30}\n){0,8}") {
        check(&text);
    }

    #[test]
    fn mutated_suites_never_panic(
        take in 1usize..12,
        edits in prop::collection::vec(edit(), 0..8),
    ) {
        let mut lines: Vec<String> =
            suite_lines().into_iter().take(take).map(str::to_owned).collect();
        for e in &edits {
            apply(&mut lines, e);
        }
        check(&lines.join("\n"));
    }

    #[test]
    fn distinct_positions_read_back_exactly(take in 1usize..40, skip in 0usize..200) {
        let lines: Vec<&str> = suite_lines().into_iter().skip(skip).take(take).collect();
        prop_assume!(!lines.is_empty());
        let read = parse(&lines.join("\n"), Rules::STANDARD).expect("the built-in lines read");
        // Independent of the reader: each line's position string, parsed on its own.
        let expected: Vec<Position> = lines
            .iter()
            .map(|l| {
                let fen = l.split('#').next().unwrap_or_default().trim();
                Position::from_fen_with(fen, Rules::STANDARD).expect("a position")
            })
            .collect();
        prop_assert_eq!(read, expected);
    }
}

/// A line past the limit is an error at that line, without reading the position.
#[test]
fn a_long_line_is_an_error_at_its_line() {
    let first = suite_lines()[0];
    let text = format!("{first}\n{}\n", "9".repeat(MAX_LINE + 1));
    let e = parse(&text, Rules::STANDARD).expect_err("too long");
    assert_eq!(e.line, 2);
    assert!(e.message.contains("longer than"), "{}", e.message);
}

/// A repeated position names the line of its first appearance.
#[test]
fn a_repeated_position_names_its_first_line() {
    let lines = suite_lines();
    let text = format!("{}\n# note\n{}\n{}\n", lines[0], lines[1], lines[0]);
    let e = parse(&text, Rules::STANDARD).expect_err("repeated");
    assert_eq!(
        (e.line, e.message.as_str()),
        (4, "the same position as line 1")
    );
}
