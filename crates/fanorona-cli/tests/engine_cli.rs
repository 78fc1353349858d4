//! `fanorona engine`, `analyse`, `match` and `bench` as a user (or a GUI) runs them.

use std::io::Write;
use std::process::{Command, Stdio};

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{fanorona, stdout};

#[test]
fn engine_speaks_the_protocol_on_stdin_and_stdout() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the fanorona binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nposition startpos moves f2e3A\ngo depth 3\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.lines().any(|l| l == "uciok"));
    assert!(text.lines().any(|l| l == "readyok"));
    // The end of the input stops the search (see engine_protocol.rs for searches that run
    // to their limit): there is exactly one answer, and it is legal.
    assert_eq!(
        text.lines().filter(|l| l.starts_with("bestmove ")).count(),
        1
    );
    let best = text
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap();
    // Black's reply after f2-e3A must be legal.
    let mut game = fanorona_core::Game::default();
    game.play_text("f2-e3A").unwrap();
    game.play_text(best).unwrap();
}

#[test]
fn analyse_finds_the_winning_capture() {
    let out = fanorona(&[
        "analyse",
        "--fen",
        "9/9/9/9/W1BB5 w",
        "--depth",
        "3",
        "--json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["best"], "a1-b1A");
    assert_eq!(v["score"], "win 1");
}

#[test]
fn analyse_with_several_threads_answers_a_legal_turn_in_time() {
    let started = std::time::Instant::now();
    let out = fanorona(&["analyse", "--threads", "2", "--movetime", "150", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Start-up and a loaded machine need more than the search's 150 ms; an unbounded or
    // thread-leaking search would not end at all.
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let best = v["best"].as_str().unwrap();
    assert!(fanorona_core::Position::standard().parse_turn(best).is_ok());
    let bad = fanorona(&["analyse", "--threads", "0", "--depth", "1"]);
    assert!(!bad.status.success());
}

#[test]
fn match_counts_for_the_first_player_and_writes_records() {
    let dir = std::env::temp_dir().join(format!("fanorona-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.fgn");
    let out = fanorona(&[
        "match",
        "engine:depth=2",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
        "--json",
        "--out",
        records.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["wins"], 2);
    assert_eq!(v["losses"], 0);
    let text = std::fs::read_to_string(&records).unwrap();
    assert_eq!(text.matches("[Event \"fanorona match\"]").count(), 2);
    assert!(text.contains("[White \"engine:depth=2\"]"));
    // The records replay by the rules.
    let check = fanorona(&["validate", records.to_str().unwrap()]);
    assert!(check.status.success());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_prints_nodes_and_speed() {
    let out = fanorona(&["bench", "--depth", "3", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The same signature as the library's pinned node counts at depth 3.
    assert_eq!(v["nodes"], 59_385);
    assert_eq!(v["positions"].as_array().unwrap().len(), 12);
    assert!(v["nps"].as_u64().unwrap() > 0);
}

#[test]
fn bad_players_are_reported() {
    let out = fanorona(&["match", "engine:expert", "random"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown level"));
}
