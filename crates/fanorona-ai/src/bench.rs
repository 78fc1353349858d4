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

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use fanorona_core::{Game, Position, Turn};

use crate::baseline::Baseline;
use crate::nnue::Network;
use crate::{Limits, SearchOptions, Searcher};

/// The benchmark positions: the start, openings, middlegames and endgames of the standard
/// board (taken from engine games), and the starts of the 5x5 and 3x3 boards.
pub const POSITIONS: [&str; 12] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BB1BBBBBB/BBB1BBBBB/BWBWWBWBW/WWWWW1WWW/WWWWWWWWW b",
    "B2W5/B4BBBB/1W5BW/W8/3B3WW w 0 5",
    "B2B2B1B/B3BB1BB/B2WW4/W2WW3W/1W1WW4 w 0 5",
    "4BBBB1/BB1BBBB1B/3WWB1BW/W3WWWWW/5WWWW w 0 5",
    "5B3/3B1B2B/B6B1/5W2W/5WWW1 w 0 9",
    "2B3B2/9/9/3W5/WW1W5 w 3 9",
    "B2W5/9/9/4B1W1W/8W w 0 9",
    "3B2BB1/9/W8/5W3/9 w 11 18",
    "7B1/5W1B1/9/9/5W3 w 3 24",
    "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w",
    "BBB/B1W/WWW w",
];

/// Which engine a benchmark runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub enum BenchEngine {
    /// This engine ([`Searcher`], one thread).
    #[default]
    Current,
    /// The frozen v0.1.0 engine ([`crate::baseline`]), for comparisons of speed per node and
    /// of the depth reached within the same limits.
    Baseline,
}

/// The result of one benchmark position.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct PositionReport {
    /// The position string.
    pub fen: &'static str,
    /// The best turn found.
    pub best: Turn,
    /// Nodes searched.
    pub nodes: u64,
    /// The last completed depth.
    pub depth: u32,
    /// Time spent.
    pub time: Duration,
}

/// The result of a benchmark run.
#[derive(Clone, Debug)]
#[non_exhaustive]
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
pub fn run(depth: u32, progress: impl FnMut(usize, &PositionReport)) -> Report {
    run_with(BenchEngine::Current, &Limits::depth(depth), progress)
}

/// Searches each of [`POSITIONS`] within `limits` with `engine` (one thread, a fresh 16 MiB
/// table each), calling `progress` after each position. [`Report::depth`] is the depth limit
/// when there is one, else the least depth completed over the positions.
///
/// With a node or time limit this shows how deep each engine gets on the same budget:
///
/// ```
/// use fanorona_ai::Limits;
/// use fanorona_ai::bench::{self, BenchEngine};
///
/// let now = bench::run_with(BenchEngine::Current, &Limits::nodes(3000), |_, _| {});
/// let v0 = bench::run_with(BenchEngine::Baseline, &Limits::nodes(3000), |_, _| {});
/// assert!(now.positions.iter().all(|p| p.nodes <= 3000));
/// assert_eq!(v0.positions.len(), now.positions.len());
/// ```
///
/// # Panics
///
/// Never for the built-in positions (they are valid and not finished).
pub fn run_with(
    engine: BenchEngine,
    limits: &Limits,
    progress: impl FnMut(usize, &PositionReport),
) -> Report {
    bench(engine, Searcher::new(HASH_MB), limits, progress)
}

/// As [`run_with`] for this engine, evaluating the standard board with `network` (`None`:
/// the hand evaluation everywhere; see [`Searcher::set_network`]): the benchmark of a
/// network's speed and of its search's signature.
///
/// ```
/// use fanorona_ai::{Limits, bench, nnue::Network};
///
/// let hand = bench::run_with_network(None, &Limits::depth(2), |_, _| {});
/// let net = bench::run_with_network(Some(Network::embedded()), &Limits::depth(2), |_, _| {});
/// assert_eq!(hand.positions.len(), net.positions.len());
/// ```
///
/// # Panics
///
/// Never for the built-in positions (they are valid and not finished).
pub fn run_with_network(
    network: Option<Arc<Network>>,
    limits: &Limits,
    progress: impl FnMut(usize, &PositionReport),
) -> Report {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_network(network);
    bench(BenchEngine::Current, searcher, limits, progress)
}

/// As [`run_with`] for this engine with `threads` search threads (Lazy SMP,
/// [`Searcher::set_threads`]) and its default evaluation: the time to a fixed depth with one
/// thread against several shows what the helper threads add (their nodes count in
/// [`PositionReport::nodes`]). Under a node limit the threads share it, each about
/// `nodes / threads`. Unlike one thread, several give node counts and times that change
/// from run to run (the threads race), so compare medians of repeated runs.
///
/// ```
/// use fanorona_ai::{Limits, bench};
///
/// let one = bench::run_with_threads(1, &Limits::depth(3), |_, _| {});
/// let two = bench::run_with_threads(2, &Limits::depth(3), |_, _| {});
/// assert_eq!(one.nodes, bench::run(3, |_, _| {}).nodes);
/// assert!(two.positions.iter().all(|p| p.depth == 3));
/// ```
///
/// # Panics
///
/// Never for the built-in positions (they are valid and not finished).
pub fn run_with_threads(
    threads: usize,
    limits: &Limits,
    progress: impl FnMut(usize, &PositionReport),
) -> Report {
    let mut searcher = Searcher::new(HASH_MB);
    searcher.set_threads(threads);
    bench(BenchEngine::Current, searcher, limits, progress)
}

fn bench(
    engine: BenchEngine,
    mut searcher: Searcher,
    limits: &Limits,
    mut progress: impl FnMut(usize, &PositionReport),
) -> Report {
    let stop = AtomicBool::new(false);
    let mut v0 = Baseline::new(HASH_MB);
    let start = Instant::now();
    let mut positions = Vec::with_capacity(POSITIONS.len());
    for (i, fen) in POSITIONS.iter().enumerate() {
        let game = Game::new(Position::from_fen(fen).expect("benchmark positions are valid"));
        // The two engines' results are different types with the same four fields.
        let (best, nodes, depth, time) = match engine {
            BenchEngine::Current => {
                searcher.clear();
                let r = searcher
                    .search(&game, limits, &SearchOptions::default(), &stop, |_| {})
                    .expect("benchmark positions are not finished");
                (r.best, r.nodes, r.depth, r.time)
            }
            BenchEngine::Baseline => {
                v0.clear();
                let r = v0
                    .search(&game, limits, &stop)
                    .expect("benchmark positions are not finished");
                (r.best, r.nodes, r.depth, r.time)
            }
        };
        let report = PositionReport {
            fen,
            best,
            nodes,
            depth,
            time,
        };
        progress(i, &report);
        positions.push(report);
    }
    Report {
        depth: limits
            .depth
            .unwrap_or_else(|| positions.iter().map(|p| p.depth).min().unwrap_or(0)),
        nodes: positions.iter().map(|p| p.nodes).sum(),
        time: start.elapsed(),
        positions,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_is_valid_and_unfinished() {
        for fen in POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            assert!(pos.outcome().is_none(), "{fen}");
        }
    }

    #[test]
    fn node_counts_at_depth_3_are_the_search_signature() {
        // A regression pin, as in the criterion benchmark: update these numbers (from
        // `fanorona bench --depth 3 --json`) only when the search is changed on purpose.
        // The pin is the hand evaluation's tree (`fanorona bench --depth 3 --no-nnue --json`).
        let report = run_with_network(None, &Limits::depth(3), |_, _| {});
        let nodes: Vec<u64> = report.positions.iter().map(|p| p.nodes).collect();
        assert_eq!(
            nodes,
            vec![23128, 16659, 45, 102, 4274, 109, 218, 33, 216, 21, 2510, 66]
        );
        assert_eq!(report.nodes, 47_381);
        for p in &report.positions {
            assert!(Position::from_fen(p.fen).unwrap().is_legal(&p.best));
        }
    }

    #[test]
    fn the_default_search_is_the_embedded_networks_when_it_is_on() {
        let default = run(3, |_, _| {});
        let hand = run_with_network(None, &Limits::depth(3), |_, _| {});
        let net = run_with_network(Some(Network::embedded()), &Limits::depth(3), |_, _| {});
        let expected = if crate::nnue::NNUE_BY_DEFAULT {
            &net
        } else {
            &hand
        };
        assert_eq!(default.nodes, expected.nodes);
        assert_ne!(net.nodes, hand.nodes, "the network searches another tree");
        for p in &default.positions {
            assert!(Position::from_fen(p.fen).unwrap().is_legal(&p.best));
        }
    }
}
