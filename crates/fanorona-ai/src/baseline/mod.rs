//! The engine of v0.1.0, frozen: its search, evaluation and numbers as released, kept as a
//! fixed opponent so that every later change of the engine is measured against the same
//! baseline (player `engine:v0` in matches).
//!
//! Nothing here changes again. It shares only the rules (`fanorona-core`) and the
//! [`Limits`] type with the rest of the crate; its search, move ordering, transposition table,
//! evaluation and parameters are private copies of those of commit 81132a4 (the released
//! 0.1.0 code). Its benchmark signature proves it: [`bench_nodes`] at depth 9 over
//! [`crate::bench::POSITIONS`] is 2,569,041 nodes, the count `fanorona bench` printed for
//! v0.1.0.
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use fanorona_ai::Limits;
//! use fanorona_ai::baseline::Baseline;
//! use fanorona_core::Game;
//!
//! let game = Game::default();
//! let mut v0 = Baseline::new(4);
//! let r = v0.search(&game, &Limits::depth(4), &AtomicBool::new(false))?;
//! assert!(game.position().is_legal(&r.best));
//! assert_eq!(r.depth, 4);
//! # Ok::<(), fanorona_ai::SearchError>(())
//! ```

mod eval;
mod ordering;
mod params;
mod search;
mod tt;

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::{Game, Position, Turn};

use crate::{Limits, SearchError};
use params::{CLOCK_MAX_PERCENT, CLOCK_MOVES, MAX_DEPTH, MOVE_OVERHEAD_MS, SOFT_PERCENT};

/// The answer of a baseline search.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct BaselineResult {
    /// The turn to play: always legal in the searched position.
    pub best: Turn,
    /// Its score in centi-stones from the side to move's view (wins near 30 000).
    pub value: i32,
    /// The last completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
}

/// The v0.1.0 engine with its memory (transposition table and history), reused from turn to
/// turn like [`crate::Searcher`].
pub struct Baseline {
    searcher: search::Searcher,
}

impl Baseline {
    /// A baseline engine with a transposition table of about `hash_mb` MiB.
    pub fn new(hash_mb: usize) -> Baseline {
        Baseline {
            searcher: search::Searcher::new(hash_mb),
        }
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.searcher.clear();
    }

    /// Searches the current position of `game` within `limits` as v0.1.0 did. Returns when a
    /// limit is reached or `stop` becomes true, always with a legal turn.
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game is already over.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<BaselineResult, SearchError> {
        self.searcher.search(game, limits, stop)
    }
}

/// The total nodes of the baseline over `positions` (FEN strings), each searched to `depth`
/// with a fresh 16 MiB table: v0.1.0's `fanorona bench` signature.
///
/// # Panics
///
/// When a position is not valid FEN or its game is over.
pub fn bench_nodes(positions: &[&str], depth: u32) -> u64 {
    let stop = AtomicBool::new(false);
    let mut b = Baseline::new(16);
    positions
        .iter()
        .map(|fen| {
            b.clear();
            let game = Game::new(Position::from_fen(fen).expect("a valid position"));
            b.search(&game, &Limits::depth(depth), &stop)
                .expect("an unfinished position")
                .nodes
        })
        .sum()
}

/// Whether time decides when the search stops (v0.1.0's `Limits::is_timed`).
fn is_timed(limits: &Limits) -> bool {
    !limits.infinite && (limits.movetime.is_some() || limits.clock.is_some())
}

/// The deepest iteration to run (v0.1.0's `Limits::max_depth`).
fn max_depth(limits: &Limits) -> u32 {
    if limits.infinite {
        return MAX_DEPTH;
    }
    limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH)
}

/// The time budget `(soft, hard)` (v0.1.0's `Limits::time_budget`).
fn time_budget(limits: &Limits) -> Option<(Duration, Duration)> {
    if limits.infinite {
        return None;
    }
    let overhead = Duration::from_millis(MOVE_OVERHEAD_MS);
    let mut hard: Option<Duration> = limits.movetime.map(|t| t.saturating_sub(overhead));
    let mut soft = hard;
    if let Some(c) = limits.clock {
        let left = c.remaining.saturating_sub(overhead);
        let moves = c.moves_to_go.unwrap_or(CLOCK_MOVES).clamp(1, CLOCK_MOVES);
        let share = left / moves + c.increment * 3 / 4;
        let cap = left * CLOCK_MAX_PERCENT as u32 / 100;
        let h = share.min(cap).max(Duration::from_millis(1));
        let s = h * SOFT_PERCENT as u32 / 100;
        hard = Some(hard.map_or(h, |x| x.min(h)));
        soft = Some(soft.map_or(s, |x| x.min(s)));
    }
    let hard = hard?.max(Duration::from_millis(1));
    let soft = soft.unwrap_or(hard).min(hard);
    Some((soft, hard))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    /// The benchmark positions of v0.1.0 (`src/bench.rs` at commit 81132a4).
    const POSITIONS: [&str; 12] = [
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

    #[test]
    fn the_node_counts_are_those_of_v0_1_0() {
        // The pins of v0.1.0: `fanorona bench --depth 3` gave these per-position counts,
        // and `fanorona bench` (depth 9) 2,569,041 nodes in total.
        let stop = AtomicBool::new(false);
        let mut b = Baseline::new(16);
        let nodes: Vec<u64> = POSITIONS
            .iter()
            .map(|fen| {
                b.clear();
                let game = Game::new(Position::from_fen(fen).unwrap());
                let r = b.search(&game, &Limits::depth(3), &stop).unwrap();
                assert!(game.position().is_legal(&r.best));
                r.nodes
            })
            .collect();
        assert_eq!(
            nodes,
            vec![17532, 34257, 65, 138, 4518, 145, 269, 32, 286, 20, 2057, 66]
        );
        assert_eq!(bench_nodes(&POSITIONS, 9), 2_569_041);
    }

    #[test]
    fn it_plays_legal_turns_to_the_end_of_a_game_within_its_limits() {
        let mut game = Game::default();
        let mut v0 = Baseline::new(1);
        let stop = AtomicBool::new(false);
        while game.outcome().is_none() && game.turns().len() < 200 {
            let limits = if game.turns().len() % 2 == 0 {
                Limits::nodes(3_000)
            } else {
                Limits::depth(3)
            };
            let r = v0.search(&game, &limits, &stop).unwrap();
            if let Some(n) = limits.nodes {
                assert!(r.nodes <= n);
            }
            game.play(&r.best).expect("a legal turn");
        }
        assert!(matches!(
            v0.search(&game, &Limits::depth(1), &stop),
            Err(SearchError::GameOver(_)) | Ok(_)
        ));
    }

    #[test]
    fn a_time_limit_is_kept_and_a_stop_still_answers() {
        let game = Game::default();
        let mut v0 = Baseline::new(1);
        // Scheduling on a loaded machine only adds delay, so the quickest of a few tries is the
        // search's own overrun: it must stay within 40 ms of the limit.
        let mut quickest = Duration::MAX;
        for _ in 0..5 {
            let started = Instant::now();
            let r = v0
                .search(
                    &game,
                    &Limits::movetime(Duration::from_millis(60)),
                    &AtomicBool::new(false),
                )
                .unwrap();
            quickest = quickest.min(started.elapsed());
            assert!(game.position().is_legal(&r.best));
            if quickest < Duration::from_millis(60 + 40) {
                break;
            }
        }
        assert!(quickest < Duration::from_millis(60 + 40), "{quickest:?}");
        let r = v0
            .search(&game, &Limits::infinite(), &AtomicBool::new(true))
            .unwrap();
        assert!(game.position().is_legal(&r.best));
    }
}
