//! Layered retrograde analysis: the reachable positions split by material, for boards whose
//! reachable positions do not fit [`retro`](super::retro)'s tables.
//!
//! Captures are irreversible, so the reachable positions fall into *material classes*
//! (White's and Black's stone counts, either side to move) linked only downwards by captures;
//! inside a class the only turns are paikas. A position is stored as one 64-bit number (the
//! colex rank of White's stones, of Black's stones among the other points, and the side to
//! move), each class as a sorted array of those numbers.
//!
//! 1. *Enumerate*, classes by decreasing number of stones: a class's entries are complete once
//!    every class with more stones has been walked; walking the class's paikas closes it, and
//!    its captures feed the classes below.
//! 2. *Label*, classes by increasing number of stones: captures lead to classes already
//!    labelled; paikas stay in the class, whose graph is labelled like
//!    [`retro`](super::retro)'s (cycles are draws).
//!
//! Memory: 10 bytes per reachable position (its number and its label), plus, for the class
//! being worked on, a hash set while enumerating (about 16 bytes a position) or its paika
//! edges while labelling (8 bytes an edge, 24 a position). The rules must not need counters
//! (no no-capture limit, no opening restriction).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::{self, Budget, Value, layered, retro};
//! use fanorona_core::BoardSize;
//!
//! let start = solve::start("3x5".parse()?);
//! let l = layered::solve(&start, &Budget::default(), &mut |_| {})?;
//! let r = retro::solve(&start, &Budget::default(), &mut |_| {})?;
//! assert_eq!((l.value, l.distance), (r.value, r.distance));
//! // retro also counts the positions where a side has no stones left; layered does not.
//! assert!(l.states < r.states);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

use fanorona_core::{Bitboard, BoardSize, Color, Position, Rules, Setup, StuckRule, Turn};

use super::graph::{self, Start};
use super::index::{BINOM, rank, spread, squeeze, unrank};
use super::{Budget, Progress, SolveError, Value};

/// The result of a layered retrograde analysis.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct LayeredSolution {
    /// The value of the start for its side to move.
    pub value: Value,
    /// Turns to the end under best play (0 for a draw).
    pub distance: u16,
    /// A best first turn (the fastest win, a drawing turn or the slowest loss); `None` when
    /// the game is over at the start.
    pub best: Option<Turn>,
    /// Positions reachable from the start.
    pub states: u64,
    /// Material classes holding reachable positions.
    pub classes: u64,
    /// Positions in the largest class.
    pub largest_class: u64,
    /// Distinct paika edges inside classes.
    pub edges: u64,
    /// Reachable positions that are wins, draws and losses for their side to move.
    pub counts: [u64; 3],
    /// Peak bytes of the solver's tables.
    pub bytes: u64,
    /// Time taken.
    pub time: Duration,
}

#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn write_u64(&mut self, v: u64) {
        let mut h = v.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 29;
        self.0 = h.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ (h >> 32);
    }
}

type Set = HashSet<u64, BuildHasherDefault<Mix>>;

struct Coder {
    size: BoardSize,
    n: usize,
    rules: Rules,
}

impl Coder {
    fn class_of(pos: &Position) -> (usize, usize) {
        (
            pos.stones(Color::White).count() as usize,
            pos.stones(Color::Black).count() as usize,
        )
    }

    fn encode(&self, pos: &Position) -> u64 {
        let white = pos.stones(Color::White).bits();
        let black = pos.stones(Color::Black).bits();
        let b = black.count_ones() as usize;
        let w = white.count_ones() as usize;
        let idx = rank(white) * BINOM[self.n - w][b] + rank(squeeze(black, white));
        idx * 2 + u64::from(pos.side_to_move() == Color::Black)
    }

    fn decode(&self, w: usize, b: usize, code: u64) -> Position {
        let idx = code / 2;
        let per = BINOM[self.n - w][b];
        let white = unrank(idx / per, w);
        let black = spread(unrank(idx % per, b), white);
        Position::from_setup(
            {
                let mut setup = Setup::empty(self.size);
                setup.white = Bitboard::from_bits(white);
                setup.black = Bitboard::from_bits(black);
                setup.side_to_move = if code & 1 == 1 {
                    Color::Black
                } else {
                    Color::White
                };
                setup.no_capture_count = 0;
                setup.turn_number = 2;
                setup
            },
            self.rules,
        )
        .expect("codes come from valid positions")
    }
}

/// One class: its positions' codes, sorted, and their labels (0 draw, otherwise 1 + distance;
/// odd distances are wins).
#[derive(Default)]
struct Class {
    codes: Vec<u64>,
    labels: Vec<u16>,
}

impl Class {
    fn label(&self, code: u64) -> Option<(Value, u16)> {
        let i = self.codes.binary_search(&code).ok()?;
        Some(decode_label(self.labels[i]))
    }
}

fn decode_label(l: u16) -> (Value, u16) {
    match l {
        0 => (Value::Draw, 0),
        l if (l - 1) % 2 == 1 => (Value::Win, l - 1),
        l => (Value::Loss, l - 1),
    }
}

/// Solves `start` by layered retrograde analysis of every position reachable from it.
///
/// # Errors
///
/// [`SolveError::MemoryLimit`] or [`SolveError::TimeLimit`] when a budget of `budget` runs
/// out; [`SolveError::Unsupported`] when the rules need counters (a no-capture limit or the
/// opening restriction).
pub fn solve(
    start: &Position,
    budget: &Budget,
    progress: &mut dyn FnMut(Progress),
) -> Result<LayeredSolution, SolveError> {
    let clock = budget.clock();
    let rules = start.rules();
    if rules.no_capture_limit().is_some() || rules.opening_restriction() {
        return Err(SolveError::Unsupported(
            "layered retrograde analysis needs the no-capture limit and the opening restriction off",
        ));
    }
    let coder = Coder {
        size: start.size(),
        n: start.size().len(),
        rules,
    };
    let (w0, b0) = Coder::class_of(start);
    let width = b0 + 1;
    let mut classes: Vec<Class> = (0..(w0 + 1) * width).map(|_| Class::default()).collect();
    let mut pending: Vec<Vec<u64>> = vec![Vec::new(); (w0 + 1) * width];
    pending[w0 * width + b0].push(coder.encode(start));
    let mut stored = 0u64;
    let mut peak = 0u64;
    let mut states = 0u64;
    let mut largest = 0u64;
    let mut class_count = 0u64;
    let mut steps = 0u64;
    // 1. Enumerate, classes by decreasing total.
    for total in (2..=w0 + b0).rev() {
        for w in 1..=w0.min(total - 1) {
            let b = total - w;
            if b == 0 || b > b0 {
                continue;
            }
            let ci = w * width + b;
            let mut incoming = core::mem::take(&mut pending[ci]);
            if incoming.is_empty() {
                continue;
            }
            incoming.sort_unstable();
            incoming.dedup();
            let mut set: Set = Set::default();
            set.reserve(incoming.len());
            let mut frontier = incoming;
            set.extend(frontier.iter().copied());
            while let Some(code) = frontier.pop() {
                steps += 1;
                if steps.is_multiple_of(1 << 16) {
                    clock.check("enumeration")?;
                    let pend: u64 = pending.iter().map(|p| p.capacity() as u64 * 8).sum();
                    let bytes =
                        stored + pend + set.capacity() as u64 * 16 + frontier.capacity() as u64 * 8;
                    peak = peak.max(bytes);
                    budget.check_bytes(bytes, "enumeration")?;
                    progress(Progress {
                        stage: "enumerate",
                        done: states + set.len() as u64,
                        total: 0,
                    });
                }
                let pos = coder.decode(w, b, code);
                pos.for_each_turn(|turn| {
                    let child = pos.play_unchecked(&turn);
                    if turn.is_capture() {
                        let (cw, cb) = Coder::class_of(&child);
                        if cw > 0 && cb > 0 {
                            pending[cw * width + cb].push(coder.encode(&child));
                        }
                    } else {
                        let c = coder.encode(&child);
                        if set.insert(c) {
                            frontier.push(c);
                        }
                    }
                });
                // Keep the lists of the classes below free of repeats.
                if steps.is_multiple_of(1 << 20) {
                    for p in &mut pending {
                        if p.len() > 1 << 20 {
                            p.sort_unstable();
                            p.dedup();
                        }
                    }
                }
            }
            let mut codes: Vec<u64> = set.into_iter().collect();
            codes.sort_unstable();
            states += codes.len() as u64;
            largest = largest.max(codes.len() as u64);
            class_count += 1;
            stored += codes.len() as u64 * 10;
            classes[ci].codes = codes;
        }
    }
    // 2. Label, classes by increasing total.
    let mut edges = 0u64;
    let mut counts = [0u64; 3];
    for total in 2..=w0 + b0 {
        for w in 1..=w0.min(total - 1) {
            let b = total - w;
            if b == 0 || b > b0 {
                continue;
            }
            let ci = w * width + b;
            let codes = core::mem::take(&mut classes[ci].codes);
            if codes.is_empty() {
                continue;
            }
            let n = codes.len();
            let mut succ_offsets: Vec<u64> = Vec::with_capacity(n + 1);
            succ_offsets.push(0);
            let mut succ: Vec<u32> = Vec::new();
            let mut start_state = Start {
                count: vec![0; n],
                loss_dist: vec![0; n],
                blocked: vec![false; n],
                wins: Vec::new(),
            };
            let mut kids: Vec<u32> = Vec::with_capacity(64);
            for (i, &code) in codes.iter().enumerate() {
                steps += 1;
                if steps.is_multiple_of(1 << 16) {
                    clock.check("labelling")?;
                    let bytes = stored + n as u64 * 24 + succ.capacity() as u64 * 8;
                    peak = peak.max(bytes);
                    budget.check_bytes(bytes, "labelling")?;
                    progress(Progress {
                        stage: "link",
                        done: i as u64,
                        total: n as u64,
                    });
                }
                let pos = coder.decode(w, b, code);
                kids.clear();
                let mut ext_min_loss: Option<u16> = None;
                let mut ext_max_win: Option<u16> = None;
                let mut blocked = false;
                pos.for_each_turn(|turn| {
                    let child = pos.play_unchecked(&turn);
                    let (cw, cb) = Coder::class_of(&child);
                    if !turn.is_capture() {
                        let c = coder.encode(&child);
                        let j = codes
                            .binary_search(&c)
                            .expect("paika children are enumerated");
                        kids.push(j as u32);
                        return;
                    }
                    if cw == 0 || cb == 0 {
                        ext_min_loss = Some(0);
                        return;
                    }
                    let (v, d) = classes[cw * width + cb]
                        .label(coder.encode(&child))
                        .expect("capture children are enumerated");
                    match v {
                        Value::Loss => ext_min_loss = Some(ext_min_loss.map_or(d, |m| m.min(d))),
                        Value::Win => ext_max_win = Some(ext_max_win.map_or(d, |m| m.max(d))),
                        Value::Draw => blocked = true,
                    }
                });
                if let Some(d) = ext_min_loss {
                    start_state.wins.push((d + 1, i as u32));
                }
                if rules.stuck() == StuckRule::Draws && !pos.has_legal_turn() {
                    blocked = true;
                }
                kids.sort_unstable();
                kids.dedup();
                start_state.count[i] = kids.len() as u32;
                start_state.loss_dist[i] = ext_max_win.map_or(0, |d| d + 1);
                start_state.blocked[i] = blocked;
                succ.extend_from_slice(&kids);
                succ_offsets.push(succ.len() as u64);
            }
            edges += succ.len() as u64;
            let preds = graph::reverse(n, &succ_offsets, &succ);
            drop(succ);
            drop(succ_offsets);
            let labels = graph::label(&preds, start_state, &clock, progress)?;
            let mut out = Vec::with_capacity(n);
            for i in 0..n {
                out.push(match labels.value[i] {
                    graph::UNKNOWN => {
                        counts[1] += 1;
                        0
                    }
                    v => {
                        counts[if v == graph::WIN { 0 } else { 2 }] += 1;
                        labels.dist[i].saturating_add(1)
                    }
                });
            }
            classes[ci].codes = codes;
            classes[ci].labels = out;
        }
    }
    let lookup = |p: &Position| -> Option<(Value, u16)> {
        let (w, b) = Coder::class_of(p);
        if p.stones(p.side_to_move()).is_empty() {
            return Some((Value::Loss, 0));
        }
        if w > w0 || b > b0 {
            return None;
        }
        classes[w * width + b].label(coder.encode(p))
    };
    let root = start.with_rules_unchecked(rules);
    let (value, distance) =
        lookup(&root).ok_or(SolveError::Internal("the start was not labelled"))?;
    let rank_of = |v: Value, d: u16| -> i32 {
        match v {
            Value::Loss => 100_000 - i32::from(d),
            Value::Draw => 0,
            Value::Win => -100_000 + i32::from(d),
        }
    };
    let mut best: Option<(Turn, i32)> = None;
    for turn in root.legal_turns() {
        let (v, d) = lookup(&root.play_unchecked(&turn))
            .ok_or(SolveError::Internal("a child was not labelled"))?;
        let r = rank_of(v, d);
        if best.is_none_or(|(_, br)| r > br) {
            best = Some((turn, r));
        }
    }
    Ok(LayeredSolution {
        value,
        distance,
        best: best.map(|b| b.0),
        states,
        classes: class_count,
        largest_class: largest,
        edges,
        counts,
        bytes: peak.max(stored),
        time: clock.elapsed(),
    })
}
