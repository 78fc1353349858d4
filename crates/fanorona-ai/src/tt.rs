//! The transposition table: search results keyed by the core's Zobrist hash.
//!
//! The table is shared by the threads of a search (Lazy SMP) without locks: an entry is three
//! atomic words (the turn, the packed score/depth/bound/age, and a check word, the hash xor the
//! other two). A probe that reads the words of two different writes finds a check that does not
//! match its hash and treats the entry as empty, so a torn entry is never believed.

use core::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

use fanorona_core::Turn;

use crate::params::{MAX_PLY, WIN_BOUND};

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
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
pub fn turn_key(turn: &Turn) -> u64 {
    let captured = turn.captured().bits().wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xFFF;
    captured | (turn.to().index() as u64) << 6 | turn.from().index() as u64 | 1 << 63
}

/// One slot: `check` is `hash ^ turn ^ data`, `data` packs the score (bits 0..32), the depth
/// (32..48), the bound (48..56) and the age (56..64). All zero when empty.
#[derive(Default)]
struct Entry {
    check: AtomicU64,
    turn: AtomicU64,
    data: AtomicU64,
}

/// The fields of an entry, read at once.
#[derive(Clone, Copy)]
struct Fields {
    hash: u64,
    turn: u64,
    score: i32,
    depth: i16,
    bound: u8,
    age: u8,
}

impl Entry {
    #[inline]
    fn load(&self) -> Fields {
        let check = self.check.load(Ordering::Relaxed);
        let turn = self.turn.load(Ordering::Relaxed);
        let data = self.data.load(Ordering::Relaxed);
        Fields {
            hash: check ^ turn ^ data,
            turn,
            score: data as u32 as i32,
            depth: (data >> 32) as u16 as i16,
            bound: (data >> 48) as u8,
            age: (data >> 56) as u8,
        }
    }

    #[inline]
    fn save(&self, f: &Fields) {
        let data = u64::from(f.score as u32)
            | u64::from(f.depth as u16) << 32
            | u64::from(f.bound) << 48
            | u64::from(f.age) << 56;
        self.turn.store(f.turn, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
        self.check.store(f.hash ^ f.turn ^ data, Ordering::Relaxed);
    }

    #[inline]
    fn is_empty(&self) -> bool {
        self.check.load(Ordering::Relaxed) == 0 && self.data.load(Ordering::Relaxed) == 0
    }

    #[inline]
    fn clear(&self) {
        self.check.store(0, Ordering::Relaxed);
        self.turn.store(0, Ordering::Relaxed);
        self.data.store(0, Ordering::Relaxed);
    }
}

/// What a probe finds.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Hit {
    /// The best turn's key ([`turn_key`]), 0 when none was stored.
    pub turn: u64,
    /// The score, already adjusted to the probing ply for wins and losses.
    pub score: i32,
    /// The depth the score was searched to.
    pub depth: i32,
    /// What the score means.
    pub bound: Bound,
}

impl Hit {
    /// Whether the stored score decides a node searched with the window `(alpha, beta)`: an
    /// exact score always does, a lower bound when it reaches `beta`, an upper bound when it
    /// stays at or below `alpha`. The depth is the caller's to check.
    #[inline]
    pub(crate) fn cuts(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

/// A fixed-size, always-allocated hash table of search results, shared by the threads of a
/// search (probes and stores take `&self`).
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

/// The largest table size in MiB the engine accepts (16 GiB: what a machine with 24 GiB of
/// memory can hold next to everything else). The engine protocol advertises it as the `Hash`
/// option's maximum.
pub const MAX_HASH_MB: usize = 16 * 1024;

/// Why a table of the size asked for cannot be made.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum HashSizeError {
    /// The size is 0 or above [`MAX_HASH_MB`].
    OutOfRange {
        /// The size asked for, in MiB.
        mb: usize,
    },
    /// The system could not give the memory.
    NoMemory {
        /// The size asked for, in MiB.
        mb: usize,
    },
    /// The table would not fit in the memory the machine has available (`MemAvailable` of
    /// `/proc/meminfo`): refused before anything is allocated.
    TooLarge {
        /// The size asked for, in MiB.
        mb: usize,
        /// The memory available, in MiB.
        available_mb: u64,
    },
}

impl fmt::Display for HashSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HashSizeError::OutOfRange { mb } => {
                write!(f, "hash size {mb} MiB is out of range 1..={MAX_HASH_MB}")
            }
            HashSizeError::NoMemory { mb } => {
                write!(
                    f,
                    "cannot allocate a hash table of {mb} MiB: not enough memory"
                )
            }
            HashSizeError::TooLarge { mb, available_mb } => {
                write!(
                    f,
                    "cannot allocate a hash table of {mb} MiB: this machine has {available_mb} \
                     MiB of memory available"
                )
            }
        }
    }
}

impl std::error::Error for HashSizeError {}

impl TranspositionTable {
    /// A table of about `mb` MiB (rounded down to a power of two entries; at least 1024).
    /// Sizes are clamped to `1..=`[`MAX_HASH_MB`].
    ///
    /// # Panics
    ///
    /// When the memory cannot be allocated (as [`Vec`] does); use
    /// [`TranspositionTable::try_new`] for sizes that come from users.
    pub fn new(mb: usize) -> TranspositionTable {
        match TranspositionTable::try_new(mb.clamp(1, MAX_HASH_MB)) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table of about `mb` MiB (rounded down to a power of two entries; at least 1024),
    /// or an error when `mb` is out of `1..=`[`MAX_HASH_MB`], more than the machine's
    /// available memory, or the memory cannot be had. Never aborts the process on a failed
    /// allocation. The memory is asked for zeroed; from 256 MiB the system gives it page by
    /// page as the search fills the table, so that even a table of many GiB is made at once.
    ///
    /// # Errors
    ///
    /// [`HashSizeError::OutOfRange`], [`HashSizeError::NoMemory`].
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_ai::tt::{HashSizeError, TranspositionTable};
    ///
    /// assert_eq!(TranspositionTable::try_new(1)?.len(), 32768);
    /// assert!(matches!(
    ///     TranspositionTable::try_new(usize::MAX),
    ///     Err(HashSizeError::OutOfRange { .. })
    /// ));
    /// # Ok::<(), HashSizeError>(())
    /// ```
    pub fn try_new(mb: usize) -> Result<TranspositionTable, HashSizeError> {
        if !(1..=MAX_HASH_MB).contains(&mb) {
            return Err(HashSizeError::OutOfRange { mb });
        }
        let len = TranspositionTable::entries_for(mb);
        if let Some(available) = available_memory()
            && (len * size_of::<Entry>()) as u64 > available
        {
            return Err(HashSizeError::TooLarge {
                mb,
                available_mb: available >> 20,
            });
        }
        let entries = zeroed_entries(len).ok_or(HashSizeError::NoMemory { mb })?;
        // A table below LAZY_BYTES is touched now, once, rather than page by page during the
        // first searches (a page fault costs microseconds, in a virtual machine more).
        if len * size_of::<Entry>() < LAZY_BYTES {
            entries.iter().for_each(Entry::clear);
        }
        Ok(TranspositionTable {
            entries,
            mask: len - 1,
            age: 0,
        })
    }

    /// The number of entries of a table of `mb` MiB (`mb` at most [`MAX_HASH_MB`]).
    fn entries_for(mb: usize) -> usize {
        let want = (mb.max(1) << 20) / size_of::<Entry>();
        if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        }
        .max(1024)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (never: it always has at least 1024).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything. A large table (256 MiB or more) is replaced by a fresh
    /// zeroed one when the memory can be had, so that it is cleared at once and its memory
    /// is taken again only as it is used; a smaller one (or one whose replacement cannot be
    /// had) is emptied in place, which is faster than new pages for the few MiB of a match
    /// player's table.
    pub fn clear(&mut self) {
        let fresh = (self.entries.len() * size_of::<Entry>() >= LAZY_BYTES)
            .then(|| zeroed_entries(self.entries.len()))
            .flatten();
        match fresh {
            Some(fresh) => self.entries = fresh,
            None => self.entries.iter().for_each(Entry::clear),
        }
        self.age = 0;
    }

    /// Marks the start of a new search: older entries become the first to be replaced.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1).max(1);
    }

    /// Per mille of entries used by the current search (from the first thousand entries).
    pub fn hashfull(&self) -> u32 {
        let n = self.entries.len().min(1000);
        let used = self.entries[..n]
            .iter()
            .filter(|e| !e.is_empty() && e.load().age == self.age)
            .count();
        (used * 1000 / n) as u32
    }

    /// Looks up `hash`; `ply` converts stored win/loss distances to this node.
    #[inline]
    pub fn probe(&self, hash: u64, ply: usize) -> Option<Hit> {
        let e = self.entries[hash as usize & self.mask].load();
        if e.hash != hash || e.age == 0 && e.turn == 0 && e.score == 0 && e.depth == 0 {
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
    pub fn store(&self, hash: u64, ply: usize, turn: u64, score: i32, depth: i32, bound: Bound) {
        let age = self.age;
        let slot = &self.entries[hash as usize & self.mask];
        let e = slot.load();
        let same = e.hash == hash;
        if !same && e.age == age && i32::from(e.depth) > depth + 2 && bound != Bound::Exact {
            return;
        }
        let turn = if turn == 0 && same { e.turn } else { turn };
        slot.save(&Fields {
            hash,
            turn,
            score: to_tt(score, ply),
            depth: depth.clamp(-1, i32::from(i16::MAX)) as i16,
            bound: match bound {
                Bound::Exact => 0,
                Bound::Lower => 1,
                Bound::Upper => 2,
            },
            age,
        });
    }
}

/// The size from which a table's memory is taken page by page as the search uses it (and
/// [`TranspositionTable::clear`] replaces the table by fresh zeroed memory instead of
/// emptying its entries one by one): 256 MiB. Smaller tables are touched when made, where
/// it takes milliseconds.
const LAZY_BYTES: usize = 256 << 20;

/// `len` empty entries in zeroed memory, or `None` when the allocator refuses them (never an
/// abort). Zeroed memory of this size comes fresh from the system (`calloc`, `mmap`), which
/// gives its pages only when they are first touched: the table costs memory as the search
/// fills it, and making it takes no time.
#[allow(
    unsafe_code,
    reason = "alloc_zeroed is the only stable way to get lazily zeroed memory fallibly"
)]
fn zeroed_entries(len: usize) -> Option<Vec<Entry>> {
    let layout = std::alloc::Layout::array::<Entry>(len).ok()?;
    if layout.size() == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout's size is not zero (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
    if ptr.is_null() {
        return None;
    }
    // SAFETY: `ptr` comes from the global allocator with the layout of an array of `len`
    // entries, which is the size and alignment a `Vec<Entry>` of capacity `len` has; every
    // entry is three `AtomicU64`s, for which all-zero bytes are a valid value (0), so the
    // `len` entries are initialised.
    Some(unsafe { Vec::from_raw_parts(ptr.cast::<Entry>(), len, len) })
}

/// The memory the system can still give without swapping, in bytes: `MemAvailable` of
/// `/proc/meminfo` on Linux; `None` elsewhere (then only the allocator decides). Without it a
/// large allocation may succeed on paper and the process be killed when it fills the table.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
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
    use crate::params::WIN;
    use fanorona_core::Position;

    #[test]
    fn store_and_probe_round_trip_with_win_distances() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.len().is_power_of_two());
        assert!(tt.len() * size_of::<Entry>() <= 1 << 20);
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
    fn sizes_out_of_range_or_beyond_memory_are_errors_not_aborts() {
        for mb in [0, MAX_HASH_MB + 1, 65536, usize::MAX, usize::MAX >> 20] {
            assert_eq!(
                TranspositionTable::try_new(mb).err(),
                Some(HashSizeError::OutOfRange { mb })
            );
        }
        // The largest size: 16 GiB rounds down to 2^29 entries of 24 bytes (12 GiB), which
        // the allocator is asked for without aborting the process. (It is not touched here.)
        assert_eq!(
            TranspositionTable::entries_for(MAX_HASH_MB) * size_of::<Entry>(),
            12 << 30
        );
        // More than the address space: refused, no abort.
        assert!(zeroed_entries(usize::MAX / 8).is_none());
        assert!(zeroed_entries(1 << 50).is_none());
        let small = zeroed_entries(1024).unwrap();
        assert_eq!(small.len(), 1024);
        assert!(small.iter().all(Entry::is_empty));
        // The largest table: more than the memory available is refused before anything is
        // allocated, naming what there is; otherwise it is made at once (its pages are given
        // only when touched).
        let started = std::time::Instant::now();
        match (TranspositionTable::try_new(MAX_HASH_MB), available_memory()) {
            (Err(HashSizeError::TooLarge { mb, available_mb }), Some(bytes)) => {
                assert_eq!(mb, MAX_HASH_MB);
                assert!(available_mb < 12 << 10 && available_mb <= bytes >> 20);
            }
            (Ok(t), _) => {
                assert_eq!(t.len(), 1 << 29);
                assert!(started.elapsed() < std::time::Duration::from_secs(5));
            }
            (Err(HashSizeError::NoMemory { .. }), _) => {}
            (other, available) => panic!("{:?} with {available:?}", other.err()),
        }
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
