//! `fanorona engine`, `analyse`, `match` and `bench` as a user (or a GUI) runs them.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{fanorona, fanorona_stdin, stdout};

#[test]
fn engine_speaks_the_protocol_on_stdin_and_stdout() {
    let out = fanorona_stdin(
        &["engine"],
        b"uci\nisready\nposition startpos moves f2e3A\ngo depth 3\n",
    );
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
    let out = fanorona(&["bench", "--depth", "3", "--no-nnue", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // The same signature as the library's pinned node counts at depth 3 (hand evaluation).
    assert_eq!(v["nodes"], 47_381);
    assert_eq!(v["positions"].as_array().unwrap().len(), 12);
    assert!(v["nps"].as_u64().unwrap() > 0);
}

#[test]
fn bench_runs_the_v0_engine_and_node_budgets() {
    // v0.1.0's own `fanorona bench --depth 3` printed these per-position counts.
    let out = fanorona(&["bench", "--engine", "v0", "--depth", "3", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let nodes: Vec<u64> = v["positions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["nodes"].as_u64().unwrap())
        .collect();
    assert_eq!(
        nodes,
        vec![17532, 34257, 65, 138, 4518, 145, 269, 32, 286, 20, 2057, 66]
    );
    // Within a node budget each position stays within it and reports the depth it completed.
    let out = fanorona(&["bench", "--nodes", "50000", "--json"]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    for p in v["positions"].as_array().unwrap() {
        assert!(p["nodes"].as_u64().unwrap() <= 50_000, "{p}");
        assert!(p["depth"].as_u64().unwrap() >= 1, "{p}");
    }
    // The text summary of a budget gives the depths reached, not the least alone (a position
    // with one legal turn is answered at depth 1).
    let out = fanorona(&["bench", "--nodes", "5000", "--no-nnue"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("5000 nodes a position: "), "{last}");
    let depths: Vec<u32> = text
        .lines()
        .filter_map(|l| l.split(" nodes depth ").nth(1))
        .map(|d| d.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    let mut sorted = depths.clone();
    sorted.sort_unstable();
    let expected = format!(
        "depth reached: median {}, {} to {}",
        sorted[sorted.len() / 2],
        sorted[0],
        sorted[sorted.len() - 1]
    );
    assert_eq!(depths.len(), 12, "{text}");
    assert!(last.ends_with(&expected), "{last} / {expected}");
}

#[test]
fn bad_players_are_reported() {
    let out = fanorona(&["match", "engine:expert", "random"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown level"));
}

#[test]
fn tune_fits_the_weights_to_match_games_and_refuses_unknown_names() {
    let dir = std::env::temp_dir().join(format!("fanorona-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let games = dir.join("games.fgn");
    // A game the side a stone up won, by hand: White a1 and c1 against Black i5; White has no
    // capture, plays a1-a2, and the record says White won.
    std::fs::write(
        &games,
        "[FEN \"8B/9/9/9/W1W6 w\"]\n[Result \"1-0\"]\n\n1. a1-a2 1-0\n\n\
         [Result \"*\"]\n\n1. f2-e3A *\n",
    )
    .unwrap();
    let out = fanorona(&["tune", games.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    // One finished game, one without a result (skipped); the quiet positions of the first are
    // the start (White to move) and the one after a1-a2 (Black to move).
    assert_eq!(v["games"], 1);
    assert_eq!(v["skipped"], 1);
    assert_eq!(v["positions"], 2);
    assert!(v["loss_after"].as_f64().unwrap() <= v["loss_before"].as_f64().unwrap() + 1e-9);
    assert_eq!(v["weights"].as_object().unwrap().len(), 9);
    let bad = fanorona(&["tune", games.to_str().unwrap(), "--fix", "NOPE"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no weight \"NOPE\""));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn bench_and_analyse_switch_the_evaluation() {
    let nodes = |args: &[&str]| {
        let out = fanorona(args);
        assert!(out.status.success(), "{args:?}");
        let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        v["nodes"].as_u64().unwrap()
    };
    // The hand evaluation's signature (before the network became the default).
    let hand = nodes(&["bench", "--depth", "3", "--no-nnue", "--json"]);
    assert_eq!(hand, 47_381);
    // The embedded network is the default: another tree.
    let net = nodes(&["bench", "--depth", "3", "--nnue", "--json"]);
    assert_ne!(net, hand);
    assert_eq!(nodes(&["bench", "--depth", "3", "--json"]), net);
    // White a1, c1 against Black i5: the material network (a copy of the engine's test
    // fixture `fanorona-ai/nets/material-h2.nnue`, built by hand: docs/engine.md) says one
    // stone, 99 after the counter's 1/200.
    let material = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/material-h2.nnue");
    let bytes = std::fs::read(material).unwrap();
    // The same file: its checksum, the last 8 bytes, is the fixture's.
    assert_eq!(
        bytes[bytes.len() - 8..],
        0xe03d_0fe0_a058_e18e_u64.to_le_bytes()
    );
    let out = fanorona(&[
        "analyse",
        "--fen",
        "8B/9/9/9/W1W6 w",
        "--depth",
        "1",
        "--eval-file",
        material,
        "--json",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["score"], "cp 99", "{v}");
    let bad = fanorona(&[
        "bench",
        "--depth",
        "1",
        "--eval-file",
        "/nonexistent/net.nnue",
    ]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("cannot load the network"));
}

#[test]
fn bench_with_threads_reaches_the_depth_and_refuses_what_it_cannot_do() {
    // Two threads: every position to the depth asked, the helpers' nodes counted, the thread
    // count in the JSON.
    let out = fanorona(&["bench", "--depth", "4", "--threads", "2", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["threads"], 2);
    for p in v["positions"].as_array().unwrap() {
        assert_eq!(p["depth"], 4, "{p}");
    }
    // One thread is the plain benchmark.
    let one = fanorona(&["bench", "--depth", "3", "--threads", "1", "--json"]);
    let plain = fanorona(&["bench", "--depth", "3", "--json"]);
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(&stdout(&one)).unwrap(),
        serde_json::from_str(&stdout(&plain)).unwrap(),
    );
    assert_eq!(a["nodes"], b["nodes"]);
    // The frozen engine has no threads; a chosen evaluation is for one thread.
    let out = fanorona(&["bench", "--engine", "v0", "--threads", "2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = fanorona(&["bench", "--threads", "2", "--no-nnue"]);
    assert_eq!(out.status.code(), Some(2));
    let out = fanorona(&["bench", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
}
