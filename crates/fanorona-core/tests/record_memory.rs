//! Bounded memory on any input: a global allocator that keeps the peak of live heap bytes
//! shows that one huge game (a million comments, a million Boardspace properties) stays within
//! the per-game limits instead of growing with the input.

#![allow(
    unsafe_code,
    reason = "a global allocator that measures the heap must implement the unsafe GlobalAlloc"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use fanorona_core::record::Reader;
use fanorona_core::record::boardspace::BoardspaceReader;

struct Peak;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is forwarded unchanged to the system allocator; the counters are atomics,
// which never allocate.
unsafe impl GlobalAlloc for Peak {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Peak = Peak;

/// The peak of live heap bytes while `f` runs, above what was live before.
fn peak_during(f: impl FnOnce()) -> usize {
    let base = LIVE.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    f();
    PEAK.load(Ordering::Relaxed) - base
}

const MIB: usize = 1 << 20;

// One test function: the measurements must not overlap with other tests' allocations.
#[test]
fn one_huge_game_takes_bounded_memory() {
    // A million empty comments (2 MB of text): past the 262,144 tokens of a game. Without the
    // limit the record's elements alone take more than 50 MiB.
    let mut fgn = "{}".repeat(1_000_000).into_bytes();
    fgn.extend_from_slice(b" *\n\n1. f2-e3A *\n");
    let mut games = 0;
    let peak = peak_during(|| {
        for g in Reader::new(&fgn[..]).records() {
            games += 1;
            drop(g);
        }
    });
    assert_eq!(games, 2);
    assert!(peak < 32 * MIB, "FGN: {} MiB", peak / MIB);

    // A million `X[]` properties (3 MB): past the 65,536 properties of a game. Without the
    // limit the properties take more than 100 MiB.
    let mut sgf = b"(;GM[Fanorona]SU[fanorona]".to_vec();
    sgf.extend_from_slice("X[]".repeat(1_000_000).as_bytes());
    sgf.extend_from_slice(b")\n");
    let mut errors = 0;
    let peak = peak_during(|| {
        for g in BoardspaceReader::new(&sgf[..]) {
            errors += usize::from(g.is_err());
        }
    });
    assert_eq!(errors, 1);
    assert!(peak < 32 * MIB, "Boardspace: {} MiB", peak / MIB);
}
