//! The benchmark: fixed positions searched to a fixed depth with a fresh table each. The
//! total node count is the signature of the search: any change to what the search does
//! changes it, while a change of speed alone does not.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::bench;
//!
//! let report = bench::run(2, |_, _| {});
//! assert_eq!(report.positions.len(), bench::POSITIONS.len());
//! assert_eq!(report.nodes, report.positions.iter().map(|p| p.nodes).sum::<u64>());
//! ```

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use fanorona_core::{Game, Position, Turn};

use crate::{Limits, SearchOptions, Searcher};

/// The benchmark positions: the start, openings, middlegames and endgames of the standard
/// board (position strings), and two smaller boards.
pub const POSITIONS: [&str; 12] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BB1BBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b",
    "BBBBBBBBB/BBBB1BBBB/BWBW1BWBW/WWWWB1WWW/WWWW1WWWW w",
    "BBBB1BBBB/BBB1BBBBB/1WBWB1WBW/W1W1WWWWW/WWWWWWWWW w",
    "B1BBB1BBB/BBB3B1/2B3W1B/W1W1WW2W/WWWW1WWWW b",
    "1BB2B1BB/B1B1B3/3W1BW2/1W3WW1W/W1W1W1WW1 w",
    "B3B3B/1B2B1B2/2W3W1B/1W1W1W3/W3W3W b",
    "2B3B2/4B4/9/3W1W3/2W6 w",
    "9/2B3B2/4W4/1W5B1/9 b",
    "9/1B7/9/4W4/9 w",
    "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w",
    "B1BB1/1BB1B/BW1W1/W1WWW/WWW1W b",
];

/// The result of one benchmark position.
#[derive(Clone, Debug)]
pub struct PositionReport {
    /// The position string.
    pub fen: &'static str,
    /// The best turn found.
    pub best: Turn,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// The result of a benchmark run.
#[derive(Clone, Debug)]
pub struct Report {
    /// The depth searched.
    pub depth: u32,
    /// Each position's result.
    pub positions: Vec<PositionReport>,
    /// Total nodes.
    pub nodes: u64,
    /// Total time.
    pub time: Duration,
}

impl Report {
    /// Nodes per second over the whole run.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-6)) as u64
    }
}

/// Table size of the benchmark searches, in MiB.
pub const HASH_MB: usize = 16;

/// Searches each of [`POSITIONS`] to `depth` with a fresh 16 MiB table, calling `progress`
/// after each position with its index and result.
///
/// # Panics
///
/// Never for the built-in positions (they are valid and not finished).
pub fn run(depth: u32, mut progress: impl FnMut(usize, &PositionReport)) -> Report {
    let stop = AtomicBool::new(false);
    let mut searcher = Searcher::new(HASH_MB);
    let start = Instant::now();
    let mut positions = Vec::with_capacity(POSITIONS.len());
    for (i, fen) in POSITIONS.iter().enumerate() {
        searcher.clear();
        let game = Game::new(Position::from_fen(fen).expect("benchmark positions are valid"));
        let r = searcher
            .search(
                &game,
                &Limits::depth(depth),
                &SearchOptions::default(),
                &stop,
                |_| {},
            )
            .expect("benchmark positions are not finished");
        let report = PositionReport {
            fen,
            best: r.best,
            nodes: r.nodes,
            time: r.time,
        };
        progress(i, &report);
        positions.push(report);
    }
    Report {
        depth,
        nodes: positions.iter().map(|p| p.nodes).sum(),
        time: start.elapsed(),
        positions,
    }
}
