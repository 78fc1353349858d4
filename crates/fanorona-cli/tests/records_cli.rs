//! `fanorona validate`, `convert` and `show` as a user runs them: output, exit status, files.

use std::path::PathBuf;

fn data(name: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    root.join(name).to_str().expect("UTF-8 path").to_owned()
}

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{Dir, fanorona as run, fanorona_stdin as run_stdin, stderr, stdout};

#[test]
fn validate_valid_file() {
    let o = run(&["validate", &data("valid.fgn")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("checked 3 games (0 invalid), 5 turns, in "),
        "{out}"
    );
    assert!(o.stderr.is_empty(), "quiet when piped: {}", stderr(&o));
}

#[test]
fn validate_reports_every_problem_with_its_place() {
    let path = data("malformed.fgn");
    let o = run(&["validate", &path]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    let p = |rest: &str| format!("{path}:{rest}");
    let expected = [
        p(
            "6:8: game 2: bad tag \"unterminated tag value]\": unterminated tag value: no closing '\"' before the end of the line",
        ),
        p(
            "13:21: game 3, turn 2 (White): illegal turn \"c3-b4\": the stone on c3 belongs to the side not to move; legal: f1-f2A, e3-f2W, e3-d2W, e3-d2W-d3A, g3-f2W, e3-d3A, e3-d3A-d2W, e3-d3A-d2W-c3A, e3-d3A-d2W-c3A-d4A, e3-d3W, e3-d3W-d2W, e1-d2A, e1-d2A-d3A",
        ),
        p("17:4: game 4, turn 1 (White): ambiguous turn \"d3-e3\": could be d3-e3A or d3-e3W"),
        p(
            "22:13: game 5: result 1-0 contradicts the final position: Black wins (all stones captured), so the result is 0-1",
        ),
        p(
            "26:11: game 6: bad token \"d5-dx\": expected a turn such as f2-e3A: points a1 to i9, '-', capture letters A or W",
        ),
        p(
            "29:1: game 7: bad tag [Board]: \"4x4\": unsupported board size 4x4 (rows and columns are odd, 3 to 9, at most 64 points: 3x3 3x5 3x7 3x9 5x3 5x5 5x7 5x9 7x3 7x5 7x7 7x9 9x3 9x5 9x7)",
        ),
        p(
            "35:11: game 8, turn 1 (Black): turn number \"2...\" does not fit: the next turn is Black's turn 1 (\"1...\")",
        ),
        p("39:11: game 9: unterminated comment \"this comment never ends\\n\": no closing '}'"),
        p("43:11: game 10: result 0-1 does not match the tag [Result \"1-0\"] (line 41)"),
    ];
    assert_eq!(&lines[..lines.len() - 1], &expected);
    assert!(
        lines[lines.len() - 1].starts_with("checked 11 games (9 invalid), 9 turns, in "),
        "{out}"
    );
}

#[test]
fn validate_json_report() {
    let o = run(&[
        "validate",
        "--json",
        &data("malformed.fgn"),
        &data("valid.fgn"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON object");
    assert_eq!(v["games"], 14);
    assert_eq!(v["invalid"], 9);
    assert_eq!(v["valid"], false);
    let problems = v["files"][0]["problems"].as_array().expect("problems");
    assert_eq!(problems.len(), 9);
    let illegal = &problems[1];
    assert_eq!(illegal["kind"], "illegal");
    assert_eq!(illegal["game"], 3);
    assert_eq!(
        (illegal["line"].as_u64(), illegal["column"].as_u64()),
        (Some(13), Some(21))
    );
    assert_eq!(illegal["turn"], 2);
    assert_eq!(illegal["side"], "white");
    assert_eq!(illegal["text"], "c3-b4");
    assert_eq!(illegal["legal"].as_array().expect("legal").len(), 13);
    let kinds: Vec<&str> = problems
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "syntax",
            "illegal",
            "ambiguous",
            "result",
            "syntax",
            "tag",
            "turn-number",
            "syntax",
            "result"
        ]
    );
    assert_eq!(v["files"][1]["games"], 3);
    assert_eq!(v["files"][1]["invalid"], 0);
}

#[test]
fn validate_exit_codes_for_usage_and_io_errors() {
    let o = run(&["validate", "/no/such/file.fgn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("cannot open \"/no/such/file.fgn\""),
        "{}",
        stderr(&o)
    );
    assert_eq!(run(&["validate"]).status.code(), Some(2));
    assert_eq!(run(&["validate", "--bogus", "x"]).status.code(), Some(2));
}

#[test]
fn validate_standard_input_and_garbage() {
    let o = run_stdin(&["validate", "-"], b"1. f2-e3A d5-d4A *\n");
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).starts_with("checked 1 game (0 invalid), 2 turns"));
    // Binary garbage, invalid UTF-8 and a huge line: errors, no crash, the last game checked.
    let mut input = vec![0u8, 0xFF, 0xFE, b'\n'];
    input.extend_from_slice(b"[White \"\xC3(\"]\n\n*\n\n1. f2-e3A {");
    input.extend(std::iter::repeat_n(b'z', 3 << 20));
    input.extend_from_slice(b"} *\n\n[Event \"ok\"]\n\n1. d3-e3W *\n");
    let o = run_stdin(&["validate", "-"], &input);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("<stdin>:1:1: game 1: unexpected text"),
        "{out}"
    );
    assert!(
        out.contains("game 2: the tag value is not valid UTF-8"),
        "{out}"
    );
    assert!(
        out.contains("game 3: comment too long (more than 1048576 bytes)"),
        "{out}"
    );
    assert!(
        out.contains("checked 4 games (3 invalid), 1 turns"),
        "{out}"
    );
}

#[test]
fn convert_round_trips_fgn_json_fgn() {
    let scratch = Dir::new();
    let dir = &scratch.0;
    let json = dir.join("valid.json");
    let fgn = dir.join("valid.fgn");
    let o = run(&["convert", &data("valid.fgn"), json.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("converted 3 game(s) from fgn to json"));
    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).expect("JSON");
    assert_eq!(value.as_array().expect("array").len(), 3);
    assert_eq!(value[0]["tags"][0]["name"], "Event");
    assert_eq!(value[0]["movetext"][1]["comment"], "the usual opening");
    assert_eq!(value[0]["movetext"][4]["nag"], 1);
    assert_eq!(value[2]["result"], "0-1");
    let o = run(&["convert", json.to_str().unwrap(), fgn.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The fixture is canonical FGN: it comes back byte for byte.
    assert_eq!(
        std::fs::read_to_string(&fgn).unwrap(),
        std::fs::read_to_string(data("valid.fgn")).unwrap()
    );
    // Standard input and output, formats given.
    let input = std::fs::read(data("valid.fgn")).unwrap();
    let o = run_stdin(&["convert", "--from", "fgn", "--to", "json", "-"], &input);
    assert_eq!(o.status.code(), Some(0));
    let piped: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert_eq!(piped, value);
}

#[test]
fn convert_imports_boardspace_and_reports_what_it_cannot() {
    let o = run(&["convert", &data("boardspace-sample.sgf"), "--to", "fgn"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(
            "boardspace-sample.sgf:60:2: game 3: cannot import action \"1 Capture A C 3 D 4\""
        ),
        "{err}"
    );
    assert!(err.contains("1 game(s) NOT converted"), "{err}");
    let out = stdout(&o);
    assert_eq!(out.matches("[Site \"boardspace.net\"]").count(), 3);
    assert!(
        out.contains("7. i3-h4A\nd3-d4 {White resigns} 0-1"),
        "{out}"
    );
    // What it imports validates.
    let o = run_stdin(&["validate", "-"], out.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
}

#[test]
fn convert_usage_errors() {
    let o = run(&["convert", &data("valid.fgn"), "--to", "boardspace"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("import format"));
    let o = run_stdin(&["convert", "-"], b"*");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--from"));
    let o = run(&["convert", &data("valid.fgn"), "out.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot tell the format"));
    // A JSON record that FGN cannot hold: an error with the game number, never a changed text.
    let bad = br#"[{"tags": [], "movetext": [{"comment": "has a } brace"}], "result": "*"}]"#;
    let o = run_stdin(&["convert", "--from", "json", "--to", "fgn", "-"], bad);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("game 1: cannot convert: comment 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn show_text_diagram() {
    let o = run(&["show", "--board", "3x3"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "3  B---B---B\n   | \\ | / |\n2  B---.---W\n   | / | \\ |\n1  W---W---W\n   a   b   c\n\nBBB/B1W/WWW w\nWhite to move, turn 1\n"
    );
    // A game at a turn, with the last turn marked.
    let o = run(&["show", &data("valid.fgn"), "--game", "3"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "3  *---.---.\n   | \\ | / |\n2  b---.---.\n   | / | \\ |\n1  x---.---.\n   a   b   c\n\n3/B2/3 w 0 2\ngame over: Black wins (all stones captured)\nlast turn a3-a2A, captured a1  [* path, w/b the stone that moved, x captured]\n"
    );
    let o = run(&["show", &data("valid.fgn"), "--turn", "1w"]);
    assert!(
        stdout(&o).contains("last turn f2-e3A, captured d4 c5"),
        "{}",
        stdout(&o)
    );
    let o = run(&["show", &data("valid.fgn"), "--turn", "9"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the game has only 3 turn(s)"));
}

#[test]
fn show_svg_diagram() {
    let scratch = Dir::new();
    let path = scratch.0.join("board.svg");
    let o = run(&["show", "--play", "f2-e3A", "--svg", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let svg = std::fs::read_to_string(&path).unwrap();
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    // 76 orthogonal segments and 32 diagonals on 5x9.
    assert_eq!(svg.matches("<line ").count(), 108);
    // 42 stones after f2-e3A (two captured), two ghosts of the captured ones, the path, the
    // start dot and the ring round the stone that moved.
    assert_eq!(svg.matches("stroke-width=\"2\"/>").count(), 42);
    assert_eq!(svg.matches("stroke-dasharray").count(), 2);
    assert_eq!(svg.matches("<polyline ").count(), 1);
    assert_eq!(svg.matches(">a</text>").count(), 1);
    assert!(svg.contains(
        "<title>Fanorona position BB1BBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b</title>"
    ));
    // To standard output too.
    let o = run(&[
        "show",
        "--fen",
        "BBB/B1W/WWW w",
        "--format",
        "svg",
        "--no-coordinates",
    ]);
    let svg = stdout(&o);
    assert_eq!(svg.matches("<circle ").count(), 8);
    assert!(!svg.contains("<text"));
}

#[test]
fn every_command_has_help_with_examples() {
    for cmd in ["validate", "convert", "show", "perft", "divide"] {
        let o = run(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd}");
        assert!(stdout(&o).contains("Examples:"), "{cmd}: {}", stdout(&o));
    }
    // The top-level help too (README: "every command, with examples").
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stdout(&o).contains("\nExamples:\n  fanorona perft 5"),
        "{}",
        stdout(&o)
    );
}
