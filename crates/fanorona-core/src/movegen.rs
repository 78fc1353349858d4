//! Turn generation: capture steps from bitboard masks, capture chains by depth-first search.
//!
//! Nothing here allocates: turns go to a [`Sink`], which may store them on the stack, count
//! them, or hand them to a closure.

use crate::geometry::shift_toward as toward;
use crate::{GameKind, Position, Turn, TurnList};

/// Marks a missing neighbour.
const NONE: u8 = u8::MAX;

/// Where generated turns go.
pub(crate) trait Sink {
    /// Whether the sink needs the turns themselves; a sink that only counts gets the counts
    /// in bulk through [`Sink::add`] instead.
    const BUILDS: bool = true;
    fn push(&mut self, turn: Turn);
    /// Adds `n` turns without building them (only called when `BUILDS` is false).
    fn add(&mut self, n: u64) {
        let _ = n;
    }
}

impl Sink for TurnList {
    #[inline]
    fn push(&mut self, turn: Turn) {
        TurnList::push(self, turn);
    }
}

/// Counts turns.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    const BUILDS: bool = false;
    #[inline]
    fn push(&mut self, _: Turn) {
        self.0 += 1;
    }
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
}

/// Passes on only the first of the turns that share a start, an end and captured stones: such
/// turns lead to the same position (the mover leaves the same point for the same point, the
/// same enemy stones are gone), so one of them stands for all.
pub(crate) struct Unique<'a, S> {
    inner: &'a mut S,
    /// (start, end, captured) of the capture turns passed on so far.
    seen: smallvec::SmallVec<[(u8, u8, u64); 32]>,
    /// A one-word filter of `seen`: bit [`Unique::slot`] of each; a turn whose bit is clear
    /// is new without a look at `seen`.
    filter: u64,
}

impl<'a, S: Sink> Unique<'a, S> {
    #[inline]
    pub(crate) fn new(inner: &'a mut S) -> Unique<'a, S> {
        Unique {
            inner,
            seen: smallvec::SmallVec::new(),
            filter: 0,
        }
    }

    /// The filter bit of a turn: its end and a hash of its captured stones.
    #[inline]
    fn slot(to: u8, captured: u64) -> u64 {
        1u64 << ((u64::from(to) ^ captured.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) & 63)
    }
}

impl<S: Sink> Sink for Unique<'_, S> {
    #[inline]
    fn push(&mut self, turn: Turn) {
        // Paika turns are all different: one step from a start to an end, capturing nothing.
        if turn.is_capture() {
            let key = (turn.start_index(), turn.end_index(), turn.captured().bits());
            let bit = Self::slot(key.1, key.2);
            if self.filter & bit != 0 && self.seen.contains(&key) {
                return;
            }
            self.filter |= bit;
            self.seen.push(key);
        }
        self.inner.push(turn);
    }
}

/// Hands turns to a closure.
pub(crate) struct FnSink<F>(pub F);

impl<F: FnMut(Turn)> Sink for FnSink<F> {
    #[inline]
    fn push(&mut self, turn: Turn) {
        (self.0)(turn);
    }
}

/// For each direction, the stones of the side to move that can capture by approach and by
/// withdrawal with a first step in that direction; and whether any can.
#[inline]
pub(crate) fn capture_masks(pos: &Position) -> (([u64; 8], [u64; 8]), bool) {
    let geo = pos.geo;
    let me = pos.stones[pos.side.index()];
    let opp = pos.stones[pos.side.other().index()];
    let empty = geo.all().bits() & !(me | opp);
    let mut approach = [0u64; 8];
    let mut withdrawal = [0u64; 8];
    let mut any = 0;
    for d in 0..8 {
        let delta = geo.delta[d];
        let movers = me & geo.step1[d] & toward(empty, delta);
        let a = movers & geo.step2[d] & toward(opp, delta.wrapping_mul(2));
        let w = movers & geo.step1[(d + 4) & 7] & toward(opp, -delta);
        approach[d] = a;
        withdrawal[d] = w;
        any |= a | w;
    }
    ((approach, withdrawal), any != 0)
}

/// Whether the side to move has any legal turn.
pub(crate) fn has_legal_turn(pos: &Position) -> bool {
    if pos.rules.game == GameKind::Telo {
        return crate::variants::telo_has_legal_turn(pos);
    }
    if crate::variants::bell_receiver(pos) {
        return capture_masks(pos).1;
    }
    let geo = pos.geo;
    let me = pos.stones[pos.side.index()];
    let empty = geo.all().bits() & !(me | pos.stones[pos.side.other().index()]);
    (0..8).any(|d| me & geo.step1[d] & toward(empty, geo.delta[d]) != 0)
}

/// The unbroken line of enemy stones starting at `start` and running in direction `dir`.
#[inline(always)]
pub(crate) fn capture_line(pos: &Position, mut start: u8, dir: usize, opp: u64) -> u64 {
    let mut line = 0;
    while start != NONE && opp >> start & 1 == 1 {
        line |= 1u64 << start;
        start = pos.geo.neighbour_raw(start, dir);
    }
    line
}

/// Calls `f(dir, withdrawal, to, captured)` for each capture step available to the stone on
/// `at`, given the stones `me` and `opp`, the points the stone may not land on (`visited`) and
/// the direction it may not repeat (`last`, 8 for none).
#[inline(always)]
pub(crate) fn continuation_steps(
    pos: &Position,
    at: u8,
    me: u64,
    opp: u64,
    visited: u64,
    last: usize,
    mut f: impl FnMut(usize, bool, u8, u64),
) {
    let geo = pos.geo;
    let mut targets = geo.adjacent[at as usize] & !(me | opp | visited);
    if last < 8 {
        let repeat = geo.neighbour_raw(at, last);
        if repeat != NONE {
            targets &= !(1u64 << repeat);
        }
    }
    while targets != 0 {
        let to = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        let d = geo.direction_raw(at, to);
        let beyond = geo.neighbour_raw(to, d);
        if beyond != NONE && opp >> beyond & 1 == 1 {
            f(d, false, to, capture_line(pos, beyond, d, opp));
        }
        let back = (d + 4) & 7;
        let behind = geo.neighbour_raw(at, back);
        if behind != NONE && opp >> behind & 1 == 1 {
            f(d, true, to, capture_line(pos, behind, back, opp));
        }
    }
}

/// Calls `f(from, dir, withdrawal, to, captured)` for every capture step available to the side
/// to move as the first step of a turn.
#[inline(always)]
pub(crate) fn first_capture_steps(
    pos: &Position,
    masks: &([u64; 8], [u64; 8]),
    mut f: impl FnMut(u8, usize, bool, u8, u64),
) {
    let opp = pos.stones[pos.side.other().index()];
    for d in 0..8 {
        let back = (d + 4) & 7;
        let mut a = masks.0[d];
        while a != 0 {
            let from = a.trailing_zeros() as u8;
            a &= a - 1;
            let to = pos.geo.neighbour_raw(from, d);
            let beyond = pos.geo.neighbour_raw(to, d);
            f(from, d, false, to, capture_line(pos, beyond, d, opp));
        }
        let mut w = masks.1[d];
        while w != 0 {
            let from = w.trailing_zeros() as u8;
            w &= w - 1;
            let to = pos.geo.neighbour_raw(from, d);
            let behind = pos.geo.neighbour_raw(from, back);
            f(from, d, true, to, capture_line(pos, behind, back, opp));
        }
    }
}

/// Calls `f(from, dir, to)` for every paika of the side to move (legal only when no capture
/// exists).
#[inline(always)]
pub(crate) fn paika_steps(pos: &Position, only: u64, mut f: impl FnMut(u8, usize, u8)) {
    let geo = pos.geo;
    let empty = geo.all().bits() & !(pos.stones[0] | pos.stones[1]);
    let me = pos.stones[pos.side.index()] & only;
    for d in 0..8 {
        let delta = geo.delta[d];
        let mut movers = me & geo.step1[d] & toward(empty, delta);
        while movers != 0 {
            let from = movers.trailing_zeros() as u8;
            movers &= movers - 1;
            f(from, d, (from as i8 + delta) as u8);
        }
    }
}

/// Generates every legal turn of `pos` into `sink`, or only those of the stones in `only`.
#[inline]
pub(crate) fn generate<S: Sink>(pos: &Position, only: u64, sink: &mut S) {
    if pos.rules.game != GameKind::Capture && crate::variants::generate(pos, only, sink) {
        return;
    }
    let (mut masks, any_capture) = capture_masks(pos);
    if only != u64::MAX {
        for d in 0..8 {
            masks.0[d] &= only;
            masks.1[d] &= only;
        }
    }
    if !S::BUILDS {
        debug_assert_eq!(only, u64::MAX, "counting is for all stones");
        sink.add(count(pos, &masks, any_capture));
        return;
    }
    if !any_capture {
        let size = pos.size();
        paika_steps(pos, only, |from, d, to| {
            sink.push(Turn::paika(size, from, d, to))
        });
        return;
    }
    let me = pos.stones[pos.side.index()];
    let opp = pos.stones[pos.side.other().index()];
    let restricted = pos.is_opening_restricted();
    let size = pos.size();
    first_capture_steps(pos, &masks, |from, d, wd, to, captured| {
        let turn = Turn::start_capture(size, from).push_capture(d, wd, to, captured);
        if restricted {
            sink.push(turn);
            return;
        }
        let me2 = me ^ (1u64 << from) ^ (1u64 << to);
        let opp2 = opp & !captured;
        let visited = (1u64 << from) | (1u64 << to);
        extend(pos, sink, turn, me2, opp2, visited, d);
    });
}

/// Emits `turn` (a chain that just landed on `turn.to()`) and every legal extension of it.
/// Returns nothing; under compulsory continuation only chains that cannot continue are emitted.
fn extend<S: Sink>(
    pos: &Position,
    sink: &mut S,
    turn: Turn,
    me: u64,
    opp: u64,
    visited: u64,
    last: usize,
) {
    let compulsory = pos.rules.compulsory_continuation;
    if !compulsory {
        sink.push(turn);
    }
    let at = turn.end_index();
    let mut continued = false;
    continuation_steps(pos, at, me, opp, visited, last, |d, wd, to, captured| {
        continued = true;
        let next = turn.push_capture(d, wd, to, captured);
        extend(
            pos,
            sink,
            next,
            me ^ (1u64 << at) ^ (1u64 << to),
            opp & !captured,
            visited | (1u64 << to),
            d,
        );
    });
    if compulsory && !continued {
        sink.push(turn);
    }
}

/// The number of legal turns, without building them: paika counted by popcount, chains by a
/// depth-first search that carries only the board.
#[inline]
fn count(pos: &Position, masks: &([u64; 8], [u64; 8]), any_capture: bool) -> u64 {
    let geo = pos.geo;
    let me = pos.stones[pos.side.index()];
    if !any_capture {
        let empty = geo.all().bits() & !(me | pos.stones[pos.side.other().index()]);
        return (0..8)
            .map(|d| u64::from((me & geo.step1[d] & toward(empty, geo.delta[d])).count_ones()))
            .sum();
    }
    if pos.is_opening_restricted() {
        return (0..8)
            .map(|d| u64::from(masks.0[d].count_ones() + masks.1[d].count_ones()))
            .sum();
    }
    let opp = pos.stones[pos.side.other().index()];
    let mut n = 0;
    first_capture_steps(pos, masks, |from, d, _, to, captured| {
        let visited = (1u64 << from) | (1u64 << to);
        n += count_chains(pos, to, me ^ visited, opp & !captured, visited, d);
    });
    n
}

/// The number of legal turns leading to distinct positions (see [`Unique`]), without building
/// them: the chains are walked carrying only the board and what they captured.
pub(crate) fn count_unique(pos: &Position) -> u64 {
    if pos.rules.game != GameKind::Capture {
        let mut n = Counter(0);
        if crate::variants::generate(pos, u64::MAX, &mut Unique::new(&mut n)) {
            return n.0;
        }
    }
    let (masks, any_capture) = capture_masks(pos);
    if !any_capture || pos.is_opening_restricted() {
        // Paika turns, and single capture steps, never share a start, end and capture.
        return count(pos, &masks, any_capture);
    }
    let me = pos.stones[pos.side.index()];
    let opp = pos.stones[pos.side.other().index()];
    let mut seen: smallvec::SmallVec<[(u8, u8, u64); 64]> = smallvec::SmallVec::new();
    first_capture_steps(pos, &masks, |from, d, _, to, captured| {
        let visited = (1u64 << from) | (1u64 << to);
        let mut add = |to: u8, captured: u64| {
            let key = (from, to, captured);
            if !seen.contains(&key) {
                seen.push(key);
            }
        };
        unique_chains(
            pos,
            to,
            me ^ visited,
            opp & !captured,
            visited,
            d,
            captured,
            &mut add,
        );
    });
    seen.len() as u64
}

/// Calls `add(end, captured)` for every turn ending on or after the chain that just landed on
/// `at`, having captured `captured` so far.
#[allow(clippy::too_many_arguments, reason = "the state of a chain walk")]
fn unique_chains(
    pos: &Position,
    at: u8,
    me: u64,
    opp: u64,
    visited: u64,
    last: usize,
    captured: u64,
    add: &mut impl FnMut(u8, u64),
) {
    let mut continued = false;
    continuation_steps(pos, at, me, opp, visited, last, |d, _, to, more| {
        continued = true;
        let moved = (1u64 << at) | (1u64 << to);
        unique_chains(
            pos,
            to,
            me ^ moved,
            opp & !more,
            visited | (1u64 << to),
            d,
            captured | more,
            add,
        );
    });
    if !pos.rules.compulsory_continuation || !continued {
        add(at, captured);
    }
}

/// The number of turns ending on or after the chain that just landed on `at`.
fn count_chains(pos: &Position, at: u8, me: u64, opp: u64, visited: u64, last: usize) -> u64 {
    let mut n = 0;
    let mut continued = false;
    continuation_steps(pos, at, me, opp, visited, last, |d, _, to, captured| {
        continued = true;
        let moved = (1u64 << at) | (1u64 << to);
        n += count_chains(
            pos,
            to,
            me ^ moved,
            opp & !captured,
            visited | (1u64 << to),
            d,
        );
    });
    if !pos.rules.compulsory_continuation || !continued {
        n += 1;
    }
    n
}
