//! Search benchmarks. Each asserts the node count of its search first, so that a speed
//! change can never hide a change of behaviour (update the counts when the search changes on
//! purpose; `fanorona bench` prints them).

use criterion::{Criterion, criterion_group, criterion_main};
use fanorona_ai::bench;

fn benchmark(c: &mut Criterion) {
    let report = bench::run(BENCH_DEPTH, |_, _| {});
    assert_eq!(
        report.nodes, EXPECTED_NODES,
        "the search changed: update EXPECTED_NODES"
    );
    c.bench_function("bench positions, depth 5", |b| {
        b.iter(|| bench::run(BENCH_DEPTH, |_, _| {}).nodes);
    });
    // The static evaluation (material, mobility, structure, threats) of the benchmark
    // positions: the hot path of every leaf.
    let positions: Vec<fanorona_core::Position> = bench::POSITIONS
        .iter()
        .map(|f| fanorona_core::Position::from_fen(f).expect("valid"))
        .collect();
    c.bench_function("evaluate, 12 positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| fanorona_ai::evaluate(std::hint::black_box(p)))
                .sum::<i32>()
        });
    });
}

/// The depth of the criterion run (the CLI's `fanorona bench` defaults to a deeper one).
const BENCH_DEPTH: u32 = 5;
/// Total nodes of `bench::run(5)`.
const EXPECTED_NODES: u64 = 112_855;

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = benchmark
}
criterion_main!(benches);
