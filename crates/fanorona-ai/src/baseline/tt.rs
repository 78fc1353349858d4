//! The transposition table of v0.1.0 (copied from `src/tt.rs` at commit 81132a4).

use fanorona_core::Turn;

use super::params::{MAX_PLY, WIN_BOUND};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    /// The true value.
    Exact,
    /// The true value is at least this (a beta cutoff).
    Lower,
    /// The true value is at most this (no move raised alpha).
    Upper,
}

/// A compact key for a turn: its start, its end and the stones it captures. Two turns with the
/// same key lead to the same position, so the key is all the search needs. Never 0.
#[inline]
pub(super) fn turn_key(turn: &Turn) -> u64 {
    let captured = turn.captured().bits().wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xFFF;
    captured | (turn.to().index() as u64) << 6 | turn.from().index() as u64 | 1 << 63
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    turn: u64,
    score: i32,
    depth: i16,
    bound: u8,
    age: u8,
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    /// The best turn's key ([`turn_key`]), 0 when none was stored.
    pub(super) turn: u64,
    /// The score, already adjusted to the probing ply for wins and losses.
    pub(super) score: i32,
    /// The depth the score was searched to.
    pub(super) depth: i32,
    /// What the score means.
    pub(super) bound: Bound,
}

/// A fixed-size, always-allocated hash table of search results.
pub(super) struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of about `mb` MiB (rounded down to a power of two entries; at least 1024).
    pub(super) fn new(mb: usize) -> TranspositionTable {
        let want = (mb.max(1) << 20) / size_of::<Entry>();
        let len = if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        }
        .max(1024);
        TranspositionTable {
            entries: vec![Entry::default(); len],
            mask: len - 1,
            age: 0,
        }
    }

    /// Forgets everything.
    pub(super) fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub(super) fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    /// Looks up `hash`; `ply` converts stored win/loss distances to this node.
    #[inline]
    pub(super) fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let e = &self.entries[hash as usize & self.mask];
        if e.key != hash {
            return None;
        }
        let bound = match e.bound {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        Some(Hit {
            turn: e.turn,
            score: from_tt(e.score, ply),
            depth: i32::from(e.depth),
            bound,
        })
    }

    /// Stores a result for `hash` searched at `ply`. Keeps the turn of an earlier entry of
    /// the same position when the new result has none.
    #[inline]
    pub(super) fn store(
        &mut self,
        hash: u64,
        ply: usize,
        turn: u64,
        score: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age;
        let e = &mut self.entries[hash as usize & self.mask];
        let same = e.key == hash;
        if !same && e.age == age && i32::from(e.depth) > depth + 2 && bound != Bound::Exact {
            return;
        }
        let turn = if turn == 0 && same { e.turn } else { turn };
        *e = Entry {
            key: hash,
            turn,
            score: to_tt(score, ply),
            depth: depth.clamp(-1, i32::from(i16::MAX)) as i16,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            age,
        };
    }
}

/// Win/loss scores are stored as distances from the stored node, not from the root.
#[inline]
fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn from_tt(score: i32, ply: usize) -> i32 {
    debug_assert!(ply <= MAX_PLY);
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::baseline::params::WIN;
    use fanorona_core::Position;

    #[test]
    fn store_and_probe_round_trip_with_win_distances() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.entries.len().is_power_of_two());
        assert!(tt.entries.len() * size_of::<Entry>() <= 1 << 20);
        let h = 0x1234_5678_9abc_def0;
        // A win in 3 plies seen from ply 5 is a win in 8 from the root...
        tt.store(h, 5, 77, WIN - 8, 4, Bound::Exact);
        let hit = tt.probe(h, 2).unwrap();
        // ...and a win in 5 from a node at ply 2.
        assert_eq!(hit.score, WIN - 5);
        assert_eq!((hit.turn, hit.depth, hit.bound), (77, 4, Bound::Exact));
        assert!(tt.probe(h ^ 1, 2).is_none());
        tt.clear();
        assert!(tt.probe(h, 2).is_none());
    }

    #[test]
    fn turn_keys_tell_the_opening_turns_apart() {
        let pos = Position::standard();
        let keys: Vec<u64> = pos.legal_turns().iter().map(turn_key).collect();
        assert_eq!(keys.len(), 5);
        for (i, a) in keys.iter().enumerate() {
            assert_ne!(*a, 0);
            for b in &keys[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
