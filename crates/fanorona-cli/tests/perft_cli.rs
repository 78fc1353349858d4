//! `fanorona perft` and `fanorona divide` as a user runs them.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{fanorona, stdout};

#[test]
fn perft_prints_the_total_last() {
    let out = fanorona(&["perft", "3"]);
    assert!(out.status.success());
    // 724 from the literature; the last line is the count alone.
    assert_eq!(stdout(&out).lines().last(), Some("724"));
}

#[test]
fn divide_lists_each_opening_turn() {
    let out = fanorona(&["divide", "1"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let mut lines: Vec<&str> = text.lines().filter(|l| l.contains(':')).collect();
    lines.sort_unstable();
    assert_eq!(
        lines,
        [
            "d2-e3A: 1",
            "d3-e3A: 1",
            "d3-e3W: 1",
            "e2-e3A: 1",
            "f2-e3A: 1"
        ]
    );
    assert_eq!(text.lines().last(), Some("5"));
}

#[test]
fn board_and_fen_options() {
    // The 3x3 start: four captures into the centre (hand-checked), each a different position.
    let out = fanorona(&["perft", "1", "--board", "3x3"]);
    assert_eq!(stdout(&out).lines().last(), Some("4"));
    let out = fanorona(&["perft", "1", "--fen", "BBB/B1W/WWW w", "--unique"]);
    assert_eq!(stdout(&out).lines().last(), Some("4"));
    // Under the opening restriction, the first turn has no chains: still 5 at the start.
    let out = fanorona(&["perft", "1", "--opening-restriction"]);
    assert_eq!(stdout(&out).lines().last(), Some("5"));
}

#[test]
fn json_output() {
    let out = fanorona(&["divide", "2", "--json"]);
    assert!(out.status.success());
    let value: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(value["total"], 39);
    assert_eq!(value["turns"].as_array().map(Vec::len), Some(5));
}

#[test]
fn bad_input_is_a_usage_error() {
    let out = fanorona(&["perft", "2", "--fen", "BBB/B1X/WWW w"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("rank 2, character 3"), "{err}");
    let out = fanorona(&["perft", "2", "--board", "4x4"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unsupported board size 4x4"));
    let out = fanorona(&["perft", "2", "--rules", "stuck=maybe"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("stuck takes loses or draws"));
}
