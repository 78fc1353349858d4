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
    // The network evaluation from scratch (every stone's row added, both perspectives): an
    // upper bound of the search's cost, which updates the accumulators by the changed stones.
    for hidden in [2, 256] {
        let net = fanorona_ai::nnue::Network::from_bytes(&network_bytes(hidden))
            .expect("a valid network");
        c.bench_function(&format!("nnue evaluate, H = {hidden}, 12 positions"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .filter_map(|p| net.evaluate(std::hint::black_box(p)))
                    .sum::<i32>()
            });
        });
    }
}

/// A network file (docs/nnue.md) of `hidden` units with small pseudo-random weights.
fn network_bytes(hidden: usize) -> Vec<u8> {
    let mut out = b"FANNUE\x00\x01".to_vec();
    for v in [5u32, 9, 90, hidden as u32] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for v in [255i32, 64, 400] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = |span: i64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ((x % (2 * span as u64 + 1)) as i64 - span) as i16
    };
    for _ in 0..90 * hidden {
        out.extend_from_slice(&next(300).to_le_bytes());
    }
    for _ in 0..hidden {
        out.extend_from_slice(&next(2000).to_le_bytes());
    }
    for _ in 0..2 * hidden {
        out.extend_from_slice(&next(100).to_le_bytes());
    }
    out.extend_from_slice(&0i32.to_le_bytes());
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &out {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    out.extend_from_slice(&h.to_le_bytes());
    out
}

/// The depth of the criterion run (the CLI's `fanorona bench` defaults to a deeper one).
const BENCH_DEPTH: u32 = 5;
/// Total nodes of `bench::run(5)` (the embedded network's tree).
const EXPECTED_NODES: u64 = 47_403;

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = benchmark
}
criterion_main!(benches);
