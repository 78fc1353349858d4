//! Perft vectors from `tests/perft.txt`, checked against the crate's generator and, within a
//! node budget, against the independent simple generator of `common/naive.rs`.
//!
//! Set `FANORONA_NAIVE_LIMIT` to a larger count (for example 20000000) to check the bigger
//! vectors with the simple generator too; it takes minutes.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::naive;
use fanorona_core::{Position, perft};

struct Vector {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn vectors() -> Vec<Vector> {
    let text = include_str!("perft.txt");
    let mut out: Vec<Vector> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').expect("key and value");
        match key {
            "id" => out.push(Vector {
                id: value.to_owned(),
                fen: String::new(),
                counts: Vec::new(),
            }),
            "fen" => out.last_mut().expect("id first").fen = value.to_owned(),
            "perft" => {
                let (d, c) = value.split_once(' ').expect("depth and count");
                out.last_mut()
                    .expect("id first")
                    .counts
                    .push((d.parse().unwrap(), c.parse().unwrap()));
            }
            _ => panic!("perft.txt line {}: unknown key {key}", n + 1),
        }
    }
    out
}

#[test]
fn literature_values() {
    // The rules brief: from the standard start, 5, 39 and 724 turn sequences of length 1..3.
    let start = Position::standard();
    assert_eq!(perft::perft(&start, 1), 5);
    assert_eq!(perft::perft(&start, 2), 39);
    assert_eq!(perft::perft(&start, 3), 724);
    let mut names: Vec<String> = start.legal_turns().iter().map(|t| t.to_string()).collect();
    names.sort();
    assert_eq!(names, ["d2-e3A", "d3-e3A", "d3-e3W", "e2-e3A", "f2-e3A"]);
}

#[test]
fn perft_vectors() {
    let limit: u64 = std::env::var("FANORONA_NAIVE_LIMIT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(400_000);
    let vectors = vectors();
    assert!(vectors.len() >= 10);
    for v in &vectors {
        let pos = Position::from_fen(&v.fen).unwrap_or_else(|e| panic!("{}: {e}", v.id));
        assert_eq!(pos.to_fen(), v.fen, "{}: position string round trip", v.id);
        let board = naive::Board::from_fen(&v.fen).expect("the reference parser reads the vector");
        for &(depth, count) in &v.counts {
            assert_eq!(perft::perft(&pos, depth), count, "{} perft {depth}", v.id);
            if count <= limit {
                assert_eq!(board.perft(depth), count, "{} naive perft {depth}", v.id);
            }
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let pos = Position::standard();
    let divide = perft::divide(&pos, 4);
    assert_eq!(divide.len(), 5);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 18026);
}

#[test]
fn unique_counts_distinct_positions() {
    // From the 3x3 start all four turns lead to different positions; the unique count can
    // never exceed the plain count, and at depth 1 it is the number of distinct children.
    let pos = Position::from_fen("BBB/B1W/WWW w").unwrap();
    assert_eq!(perft::perft_unique(&pos, 1), 4);
    for depth in 1..=6 {
        assert!(perft::perft_unique(&pos, depth) <= perft::perft(&pos, depth));
    }
    // Independent count: distinct boards after each naive turn, per node, two plies deep.
    let board = naive::Board::from_fen("BBB/B1W/WWW w").unwrap();
    let mut total = 0;
    let mut seen = std::collections::HashSet::new();
    for t in board.turns() {
        if seen.insert(t.after.clone()) {
            let mut inner = std::collections::HashSet::new();
            for u in t.after.turns() {
                inner.insert(u.after);
            }
            total += inner.len() as u64;
        }
    }
    assert_eq!(perft::perft_unique(&pos, 2), total);
}

/// The naive generator's count of distinct positions `depth` turns deep, merging equal
/// children at every node.
fn naive_unique(board: &naive::Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut seen = std::collections::HashSet::new();
    let mut total = 0;
    for t in board.turns() {
        if seen.insert(t.after.clone()) {
            total += naive_unique(&t.after, depth - 1);
        }
    }
    total
}

#[test]
fn unique_counts_match_the_naive_generator_where_chains_meet() {
    // Black's h4 reaches f1 by two paths taking the same stones: 28 turns, 27 positions.
    let fen = "BB3B1BB/BB3WBBB/5W2W/WB4WWW/4W2WW b 0 5";
    let pos = Position::from_fen(fen).unwrap();
    let board = naive::Board::from_fen(fen).unwrap();
    assert_eq!(naive_unique(&board, 1), 27);
    for depth in 1..=2 {
        let n = naive_unique(&board, depth);
        assert_eq!(perft::perft_unique(&pos, depth), n, "depth {depth}");
    }
    let mid = "1BB1BBBB1/B1BB1BBBB/BW1W1BWBW/WWWW1WWWW/W1WWWWWWW w";
    let pos = Position::from_fen(mid).unwrap();
    let board = naive::Board::from_fen(mid).unwrap();
    assert_eq!(perft::perft_unique(&pos, 2), naive_unique(&board, 2));
    // Bulk counting at the last ply agrees with the list of unique turns.
    for t in pos.legal_turns() {
        let next = pos.play(&t).unwrap();
        assert_eq!(next.count_unique_turns(), next.unique_turns().len() as u64);
    }
}
