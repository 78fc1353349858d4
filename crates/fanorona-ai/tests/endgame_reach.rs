//! How often played games reach the endgame tables: for each game record file, how many of
//! its 5x9 games pass through a position with at most `N` stones on the board (both sides
//! still having stones, so the position is in the tables of `N` stones), for `N` from 4 to 8,
//! and how many turns into the game that happens.
//!
//! A measurement over recorded games (by default every match file under `docs/matches/`),
//! so ignored by default:
//!
//! ```sh
//! cargo test --release -p fanorona-ai --test endgame_reach -- --ignored --nocapture
//! FANORONA_RECORDS="a.fgn b.fgn" cargo test --release -p fanorona-ai --test endgame_reach -- --ignored --nocapture
//! ```
//!
//! Every game is replayed by the core's rules; a game that does not replay fails the test.

mod common;

use std::fs::File;
use std::io::BufReader;
use std::path::PathBuf;

use fanorona_core::record::Reader;
use fanorona_core::{BoardSize, Color, Position};

/// The smallest and largest stone counts reported.
const COUNTS: std::ops::RangeInclusive<u32> = 4..=8;

/// The stones on the board when both sides have some (else `None`: the game is over).
fn stones_in_tables(pos: &Position) -> Option<u32> {
    let (w, b) = (
        pos.stones(Color::White).count(),
        pos.stones(Color::Black).count(),
    );
    (w > 0 && b > 0).then_some(w + b)
}

/// What one file's games show.
#[derive(Default)]
struct Reach {
    games: usize,
    /// Per count of [`COUNTS`]: games reaching it, and the sum of the plies at which they did.
    reached: Vec<(usize, usize)>,
}

fn measure(file: &PathBuf) -> Reach {
    let f = File::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut reach = Reach {
        reached: vec![(0, 0); COUNTS.clone().count()],
        ..Reach::default()
    };
    for (i, record) in Reader::new(BufReader::new(f)).records().enumerate() {
        let record = record.unwrap_or_else(|e| panic!("{}: game {}: {e}", file.display(), i + 1));
        let (game, report) = record.replay();
        let game = game.unwrap_or_else(|| {
            panic!(
                "{}: game {} does not replay: {:?}",
                file.display(),
                i + 1,
                report
            )
        });
        if game.start().size() != BoardSize::STANDARD {
            continue;
        }
        reach.games += 1;
        for (k, n) in COUNTS.enumerate() {
            let first = game
                .positions()
                .iter()
                .position(|p| stones_in_tables(p).is_some_and(|s| s <= n));
            if let Some(ply) = first {
                reach.reached[k].0 += 1;
                reach.reached[k].1 += ply;
            }
        }
    }
    reach
}

#[test]
#[ignore = "a measurement over recorded games; run with --ignored"]
fn how_often_games_reach_the_tables() {
    let files: Vec<PathBuf> = match std::env::var("FANORONA_RECORDS") {
        Ok(list) => list.split_whitespace().map(PathBuf::from).collect(),
        Err(_) => {
            let Some(dir) = common::repository_dir("docs/matches") else {
                return;
            };
            let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
                .expect("docs/matches")
                .map(|e| e.expect("an entry").path())
                .filter(|p| p.extension().is_some_and(|x| x == "fgn"))
                .collect();
            v.sort();
            v
        }
    };
    assert!(!files.is_empty(), "no record files");
    print!("{:<40} {:>6}", "file", "games");
    for n in COUNTS {
        print!(" {:>16}", format!("<= {n} stones"));
    }
    println!();
    for file in &files {
        let r = measure(file);
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned());
        print!("{:<40} {:>6}", name.unwrap_or_default(), r.games);
        for (k, _) in COUNTS.enumerate() {
            let (games, plies) = r.reached[k];
            let pct = if r.games > 0 {
                100.0 * games as f64 / r.games as f64
            } else {
                0.0
            };
            let ply = if games > 0 {
                format!("{:.0}", plies as f64 / games as f64)
            } else {
                "-".to_string()
            };
            print!(" {:>16}", format!("{pct:.1}% @{ply}"));
        }
        println!();
        // Fewer stones are reached only after more: the counts can only grow with N.
        for w in r.reached.windows(2) {
            assert!(
                w[0].0 <= w[1].0,
                "{}: counts must grow with N",
                file.display()
            );
        }
    }
}
