//! Turn generation, counting and playing never touch the heap: a counting global allocator
//! proves it.

#![allow(
    unsafe_code,
    reason = "a global allocator that counts allocations must implement the unsafe GlobalAlloc"
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use fanorona_core::{BoardSize, Position, perft};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded unchanged to the system allocator; the counter is a
// const-initialised thread-local, which itself never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn generation_allocates_nothing() {
    let positions: Vec<Position> = [
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
        "BBWBBBBBB/4BBBBB/BW4WBW/W2WWWWWW/1W1WWWWWW b",
        "BBBBB/BBBBB/BBBB1/BBW2/B1BBW/WW2W/WW2W/WW2W/WW2W b",
        "1B1BB2B1/3B1W2B/B5W1W/W6WW/1W1W3WW b",
    ]
    .iter()
    .map(|f| Position::from_fen(f).unwrap())
    .chain([
        Position::start(BoardSize::DIMY),
        Position::start(BoardSize::TELO),
    ])
    .collect();

    let before = allocations();
    let mut total = 0u64;
    for pos in &positions {
        let turns = pos.legal_turns();
        for t in &turns {
            let next = pos.play_unchecked(t);
            total += next.count_turns();
            total += u64::from(next.has_legal_turn());
        }
        pos.for_each_turn(|t| total += t.len() as u64);
        total += perft::perft(pos, 3);
        let mut builder = pos.begin_turn();
        if let Some(step) = builder.legal_steps().first().copied() {
            builder.play_step(step).unwrap();
            total += builder.legal_steps().len() as u64;
        }
    }
    let after = allocations();
    assert!(total > 0);
    assert_eq!(after - before, 0, "turn generation allocated on the heap");
}
