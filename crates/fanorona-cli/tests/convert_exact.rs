//! `fanorona convert` converts exactly or not at all: what cannot be converted exactly is a
//! located error (exit 1), never a change; JSON and JSON Lines are read game by game with real
//! locations.

use std::process::Output;

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{fanorona_stdin as run_stdin, stderr, stdout};

fn convert(from: &str, to: &str, input: &str) -> Output {
    run_stdin(
        &["convert", "--from", from, "--to", to, "-"],
        input.as_bytes(),
    )
}

#[test]
fn wrong_turn_numbers_are_not_renumbered() {
    let input =
        "[Event \"a\"]\n\n1. f2-e3A 2... d5-d4A *\n\n[Event \"b\"]\n\n1. f2-e3A 1... d5-d4A *\n";
    for to in ["fgn", "json", "jsonl"] {
        let o = convert("fgn", to, input);
        assert_eq!(o.status.code(), Some(1), "{to}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            err.contains("<stdin>:3:11: game 1: cannot convert: turn 1 (Black): turn number \"2...\" does not fit"),
            "{to}: {err}"
        );
        // The other game is converted.
        assert!(err.contains("converted 1 game(s)"), "{err}");
        assert!(stdout(&o).contains("\"b\""), "{to}");
        assert!(!stdout(&o).contains("\"a\""), "{to}");
    }
}

#[test]
fn impossible_dates_are_refused() {
    for date in ["2024.13.45", "2025.02.31"] {
        let input = format!("[Event \"e\"]\n[Date \"{date}\"]\n\n1. f2-e3A *\n");
        let o = convert("fgn", "json", &input);
        assert_eq!(o.status.code(), Some(1), "{date}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "<stdin>:2:1: game 1: cannot convert: bad tag [Date \"{date}\"]: "
            )),
            "{err}"
        );
    }
    let o = convert("fgn", "json", "[Date \"2024.02.29\"]\n\n*\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn unknown_json_fields_are_refused_at_their_place() {
    let input = "[\n  {\"tags\": [], \"movetext\": [], \"result\": \"*\"},\n  {\"tags\": [], \"movetext\": [], \"result\": \"*\", \"annotator\": \"x\"}\n]\n";
    let o = convert("json", "fgn", input);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    // `"annotator"` spans columns 47 to 57 of line 3 (serde_json points at its end).
    assert!(
        err.contains("<stdin>:3:57: game 2: bad JSON game object: unknown field `annotator`"),
        "{err}"
    );
    assert_eq!(stdout(&o), "*\n\n");
}

#[test]
fn json_syntax_errors_have_real_locations() {
    let input =
        "[\n{\"tags\": [],\n \"movetext\": [{\"turn\": \"f2-e3A\"}]\n \"result\": \"*\"}\n]";
    let o = run_stdin(&["validate", "--from", "json", "-"], input.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    // serde_json notices the missing ',' at the '"' of line 4, column 2.
    assert!(stdout(&o).contains("<stdin>:4:2: game 1"), "{}", stdout(&o));
}

#[test]
fn writer_limits_hold_for_every_output() {
    // A 515-byte turn in JSON: FGN and both JSON forms refuse it (it could not be read back).
    let long = format!("a1{}", "-a2-a1".repeat(85) + "-a2");
    assert_eq!(long.len(), 515);
    let input =
        format!("{{\"tags\": [], \"movetext\": [{{\"turn\": \"{long}\"}}], \"result\": \"*\"}}");
    for to in ["fgn", "jsonl"] {
        let o = convert("json", to, &input);
        assert_eq!(o.status.code(), Some(1), "{to}");
        assert!(stderr(&o).contains("turn too long"), "{to}: {}", stderr(&o));
    }
}

#[test]
fn json_lines_round_trip() {
    let fgn = "[Event \"a \\\"quoted\\\"\"]\n[Result \"1-0\"]\n\n1. f2-e3A {two\nlines} 1... d5-d4A $3 1-0\n\n1. d3-e3W *\n\n";
    let o = convert("fgn", "jsonl", fgn);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let jsonl = stdout(&o);
    assert_eq!(jsonl.lines().count(), 2, "{jsonl}");
    for line in jsonl.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("one JSON object a line");
    }
    let o = convert("jsonl", "fgn", &jsonl);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), fgn);
    // The array form converts to the same lines.
    let json = stdout(&convert("fgn", "json", fgn));
    assert_eq!(stdout(&convert("json", "jsonl", &json)), jsonl);
    // A bad line is reported at its line; the others are converted.
    let mixed = format!(
        "{}\n{{\"tags\": 1}}\n\n{}\n",
        jsonl.lines().next().unwrap(),
        jsonl.lines().nth(1).unwrap()
    );
    let o = convert("jsonl", "fgn", &mixed);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("<stdin>:2:10: game 2: bad JSON game object"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("converted 2 game(s)"), "{}", stderr(&o));
}
