//! Retrograde analysis of every position reachable from a start.
//!
//! 1. *Enumerate*: a breadth-first walk from the start numbers every reachable position (an
//!    open-addressing hash table maps keys to numbers) and records each position's distinct
//!    children in compressed sparse rows.
//! 2. *Reverse*: the child lists become parent lists.
//! 3. *Label*: terminal positions are losses (no stones, or stuck under the default rule) or
//!    draws (stuck under the stuck-draws rule, or the no-capture limit reached); then, level by
//!    level in increasing distance, a position with a losing child is a win and a position
//!    whose children all win is a loss. What is left is a draw: each side can keep the game
//!    going forever, which is how cycles are handled.
//!
//! Memory: about 16 bytes per position for its key, 4 to 8 for the hash table, 8 for each of
//! the two row-offset arrays, 10 for the labels, and 4 bytes per edge for the children and
//! again for the parents (both live at the peak).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, Value, retro};
//! use fanorona_core::BoardSize;
//!
//! let solution = retro::solve(&solve::start(BoardSize::TELO), &Budget::default(), &mut |_| {})?;
//! println!("3x3: {} in {} turns, {} positions", solution.value, solution.distance, solution.states);
//! assert!(solution.states > 100);
//! # Ok::<(), fanorona_ai::solve::SolveError>(())
//! ```

use std::time::Duration;

use fanorona_core::{Position, Turn};

use super::graph::{self, Labels, Start};
use super::key::{Key, Keyer, mix};
use super::{Budget, Progress, SolveError, Value};

const EMPTY: u32 = u32::MAX;

/// Numbers keys: an open-addressing table of indices into `keys`.
struct Index {
    keys: Vec<Key>,
    slots: Vec<u32>,
}

impl Index {
    fn new() -> Index {
        Index {
            keys: Vec::new(),
            slots: vec![EMPTY; 1 << 10],
        }
    }

    fn bytes(&self) -> u64 {
        (self.keys.capacity() * 16 + self.slots.len() * 4) as u64
    }

    #[inline]
    fn find(&self, key: Key) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = mix(key) as usize & mask;
        loop {
            let id = self.slots[i];
            if id == EMPTY {
                return None;
            }
            if self.keys[id as usize] == key {
                return Some(id);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    fn insert(&mut self, key: Key) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = mix(key) as usize & mask;
        loop {
            let id = self.slots[i];
            if id == EMPTY {
                let id = self.keys.len() as u32;
                self.keys.push(key);
                self.slots[i] = id;
                if self.keys.len() * 2 > self.slots.len() {
                    self.grow();
                }
                return id;
            }
            if self.keys[id as usize] == key {
                return id;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let len = self.slots.len() * 2;
        self.slots = vec![EMPTY; len];
        let mask = len - 1;
        for (id, &key) in self.keys.iter().enumerate() {
            let mut i = mix(key) as usize & mask;
            while self.slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = id as u32;
        }
    }
}

/// The result of a retrograde analysis: the start's value and the value of every position
/// reachable from it.
#[non_exhaustive]
pub struct Solution {
    /// The value of the start for its side to move.
    pub value: Value,
    /// Turns to the end under best play (0 for a draw).
    pub distance: u16,
    /// A best first turn: the fastest win, a drawing turn or the slowest loss; `None` when the
    /// game is over at the start.
    pub best: Option<Turn>,
    /// Positions reachable from the start (the start included).
    pub states: u64,
    /// Distinct (position, child) pairs.
    pub edges: u64,
    /// Reachable positions that are wins, draws and losses for their side to move.
    pub counts: [u64; 3],
    /// Peak bytes of the solver's tables.
    pub bytes: u64,
    /// Time taken.
    pub time: Duration,
    keyer: Keyer,
    index: Index,
    labels: Labels,
}

impl core::fmt::Debug for Solution {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Solution")
            .field("value", &self.value)
            .field("distance", &self.distance)
            .field("best", &self.best)
            .field("states", &self.states)
            .field("edges", &self.edges)
            .finish_non_exhaustive()
    }
}

impl Solution {
    /// The value and distance of any position reachable from the start (under the same rules),
    /// or `None` for a position that is not.
    pub fn probe(&self, pos: &Position) -> Option<(Value, u16)> {
        let id = self.index.find(self.keyer.key(pos))? as usize;
        Some(self.label(id))
    }

    fn label(&self, id: usize) -> (Value, u16) {
        match self.labels.value[id] {
            graph::WIN => (Value::Win, self.labels.dist[id]),
            graph::LOSS => (Value::Loss, self.labels.dist[id]),
            _ => (Value::Draw, 0),
        }
    }

    /// A best turn in `pos` (reachable from the start): the fastest win, a drawing turn or the
    /// slowest loss, with the value of the position it leads to for the opponent.
    pub fn best_turn(&self, pos: &Position) -> Option<(Turn, Value, u16)> {
        let mut best: Option<(Turn, Value, u16)> = None;
        let rank = |v: Value, d: u16| -> i32 {
            match v {
                Value::Loss => 100_000 - i32::from(d),
                Value::Draw => 0,
                Value::Win => -100_000 + i32::from(d),
            }
        };
        for turn in pos.legal_turns() {
            let (v, d) = self.probe(&pos.play_unchecked(&turn))?;
            if best.is_none_or(|(_, bv, bd)| rank(v, d) > rank(bv, bd)) {
                best = Some((turn, v, d));
            }
        }
        best
    }

    /// A line of best play from the start, at most `max` turns long (it stops at the end of
    /// the game; a drawn line goes on until `max`).
    pub fn best_line(&self, max: usize) -> Vec<Turn> {
        let mut pos = self.keyer.position(self.index.keys[0]);
        let mut line = Vec::new();
        while line.len() < max {
            let Some((turn, _, _)) = self.best_turn(&pos) else {
                break;
            };
            line.push(turn);
            pos = pos.play_unchecked(&turn);
        }
        line
    }

    /// Every reachable position with its value and distance, in the order they were found.
    pub fn positions(&self) -> impl Iterator<Item = (Position, Value, u16)> + '_ {
        (0..self.index.keys.len()).map(move |id| {
            let (v, d) = self.label(id);
            (self.keyer.position(self.index.keys[id]), v, d)
        })
    }
}

/// Solves `start` by retrograde analysis of every position reachable from it, under the rules
/// of `start`.
///
/// # Errors
///
/// [`SolveError::MemoryLimit`] or [`SolveError::TimeLimit`] when a budget of `limits` runs
/// out; [`SolveError::Key`] when the rules need counters the board cannot hold.
pub fn solve(
    start: &Position,
    limits: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<Solution, SolveError> {
    let clock = limits.clock();
    let rules = start.rules();
    let keyer = Keyer::new(start.size(), rules)?;
    let mut index = Index::new();
    index.insert(keyer.key(start));
    let mut succ_offsets: Vec<u64> = vec![0];
    let mut succ: Vec<u32> = Vec::new();
    let mut blocked: Vec<bool> = Vec::new();
    let mut kids: Vec<u32> = Vec::with_capacity(256);
    let mut done = 0usize;
    let mut peak = 0u64;
    while done < index.keys.len() {
        if done.is_multiple_of(1 << 14) {
            clock.check("enumeration")?;
            let bytes = index.bytes()
                + succ_offsets.capacity() as u64 * 8
                + succ.capacity() as u64 * 4
                + blocked.capacity() as u64;
            peak = peak.max(bytes);
            limits.check_bytes(bytes, "enumeration")?;
            progress(Progress {
                stage: "enumerate",
                done: done as u64,
                total: index.keys.len() as u64,
            });
            if index.keys.len() >= (u32::MAX - 1) as usize {
                return Err(SolveError::MemoryLimit {
                    limit: limits.max_bytes.unwrap_or(u64::MAX),
                    reached: bytes,
                    what: "enumeration (more than 4 billion positions)",
                });
            }
        }
        let pos = keyer.position(index.keys[done]);
        kids.clear();
        let mut block = false;
        if let Some(outcome) = pos.outcome() {
            block = outcome.winner.is_none();
        } else if rules
            .no_capture_limit()
            .map(core::num::NonZeroU16::get)
            .is_some_and(|limit| pos.no_capture_count() >= limit)
        {
            block = true;
        } else {
            pos.for_each_turn(|turn| {
                let child = pos.play_unchecked(&turn);
                kids.push(index.insert(keyer.key(&child)));
            });
            kids.sort_unstable();
            kids.dedup();
        }
        succ.extend_from_slice(&kids);
        succ_offsets.push(succ.len() as u64);
        blocked.push(block);
        done += 1;
    }
    let n = index.keys.len();
    let count: Vec<u32> = succ_offsets
        .windows(2)
        .map(|w| (w[1] - w[0]) as u32)
        .collect();
    let preds_bytes = (n as u64 + 1) * 8 + succ.len() as u64 * 4;
    let bytes = index.bytes()
        + succ_offsets.capacity() as u64 * 8
        + succ.capacity() as u64 * 4
        + blocked.capacity() as u64
        + n as u64 * 4
        + preds_bytes;
    peak = peak.max(bytes);
    limits.check_bytes(bytes, "reversing the graph")?;
    progress(Progress {
        stage: "reverse",
        done: 0,
        total: n as u64,
    });
    let preds = graph::reverse(n, &succ_offsets, &succ);
    let edges = succ.len() as u64;
    drop(succ);
    drop(succ_offsets);
    let labels = graph::label(
        &preds,
        Start {
            count,
            loss_dist: vec![0; n],
            blocked,
            wins: Vec::new(),
        },
        &clock,
        progress,
    )?;
    peak = peak.max(index.bytes() + preds.bytes() + n as u64 * 10);
    drop(preds);
    let mut counts = [0u64; 3];
    for &v in &labels.value {
        counts[match v {
            graph::WIN => 0,
            graph::UNKNOWN => 1,
            _ => 2,
        }] += 1;
    }
    let mut solution = Solution {
        value: Value::Draw,
        distance: 0,
        best: None,
        states: n as u64,
        edges,
        counts,
        bytes: peak,
        time: Duration::ZERO,
        keyer,
        index,
        labels,
    };
    let (value, distance) = solution.label(0);
    solution.value = value;
    solution.distance = distance;
    if start.outcome().is_none()
        && rules
            .no_capture_limit()
            .map(core::num::NonZeroU16::get)
            .is_none_or(|limit| start.no_capture_count() < limit)
    {
        solution.best = solution.best_turn(start).map(|(t, _, _)| t);
    }
    solution.time = clock.elapsed();
    Ok(solution)
}
