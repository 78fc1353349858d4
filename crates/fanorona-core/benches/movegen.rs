//! Benchmarks of the rules' hot paths: turn generation, playing turns and perft.
//!
//! Each benchmark asserts its node count, so a speed change can never hide a behaviour change.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fanorona_core::{BoardSize, Position, perft};

/// A middle-game position with long capture chains available.
const MIDDLE: &str = "1BB1BBBB1/B1BB1BBBB/BW1W1BWBW/WWWW1WWWW/W1WWWWWWW w";

fn perft_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    let start = Position::standard();
    // 431,852 turn sequences at depth 5 from the standard start (checked in tests/perft.rs).
    group.throughput(Throughput::Elements(431_852));
    group.bench_function("start/5", |b| {
        b.iter(|| assert_eq!(perft::perft(black_box(&start), 5), 431_852));
    });
    // The same with turns to the same position merged: 431,830, the count of the earlier
    // implementation that compared the positions themselves (tests/perft.rs checks the
    // merged counts against the independent generator of tests/common/naive.rs).
    group.throughput(Throughput::Elements(431_830));
    group.bench_function("unique start/5", |b| {
        b.iter(|| assert_eq!(perft::perft_unique(black_box(&start), 5), 431_830));
    });
    let dimy = Position::start(BoardSize::DIMY);
    let n = perft::perft(&dimy, 6);
    group.throughput(Throughput::Elements(n));
    group.bench_function("5x5/6", |b| {
        b.iter(|| assert_eq!(perft::perft(black_box(&dimy), 6), n));
    });
    group.finish();
}

fn movegen_bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("movegen");
    let middle = Position::from_fen(MIDDLE).expect("valid position");
    let count = middle.legal_turns().len();
    group.throughput(Throughput::Elements(count as u64));
    group.bench_function("legal_turns/middle", |b| {
        b.iter(|| assert_eq!(black_box(&middle).legal_turns().len(), count));
    });
    group.bench_function("count_turns/middle", |b| {
        b.iter(|| assert_eq!(black_box(&middle).count_turns(), count as u64));
    });
    let turns = middle.legal_turns();
    group.throughput(Throughput::Elements(turns.len() as u64));
    group.bench_function("play/middle", |b| {
        b.iter(|| {
            let mut h = 0u64;
            for t in &turns {
                h ^= black_box(&middle).play_unchecked(t).zobrist();
            }
            h
        });
    });
    group.finish();
}

criterion_group!(benches, perft_bench, movegen_bench);
criterion_main!(benches);
