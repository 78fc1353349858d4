//! Benchmarks of game records: reading FGN, and reading plus validating by the rules.
//!
//! The input is generated in memory: random legal games (a seeded xorshift generator, so the
//! text is the same on every run) written as canonical FGN. Each benchmark asserts the number
//! of games and turns it saw, so a speed change can never hide a behaviour change.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fanorona_core::record::{
    Control, Element, GameRecord, GameResult, Reader, Tag, Validator, Visitor,
};
use fanorona_core::{Game, Position};

/// Games in the generated file.
const GAMES: usize = 20_000;

/// Marsaglia's xorshift64.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal game of at most 150 turns, with its result when the rules decide it.
fn random_game(rng: &mut XorShift, n: usize) -> GameRecord {
    let mut game = Game::new(Position::standard());
    let mut movetext = Vec::new();
    while game.outcome().is_none() && game.turns().len() < 150 {
        let turns = game.position().legal_turns();
        let turn = turns[(rng.next() % turns.len() as u64) as usize];
        game.play(&turn).expect("a legal turn");
        movetext.push(Element::Turn(turn.to_string()));
    }
    let result = game
        .outcome()
        .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
    let tag = |name: &str, value: String| Tag {
        name: name.to_owned(),
        value,
    };
    GameRecord::new(
        vec![
            tag("Event", "Random games".into()),
            tag("Round", n.to_string()),
            tag("Result", result.as_str().into()),
        ],
        movetext,
        Some(result),
    )
}

/// The FGN text of `GAMES` random games and their number of turns.
fn generate() -> (Vec<u8>, u64) {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut text = Vec::new();
    let mut turns = 0;
    for n in 1..=GAMES {
        let record = random_game(&mut rng, n);
        turns += record.turns().count() as u64;
        text.extend_from_slice(record.to_fgn().expect("writable").as_bytes());
    }
    (text, turns)
}

/// Counts turns without keeping anything: the tokenizer alone.
struct CountTurns(u64);

impl Visitor for CountTurns {
    type Output = ();
    fn end_tags(&mut self) -> Control {
        Control::Continue
    }
    fn turn(&mut self, _text: &str, _at: fanorona_core::record::Location) {
        self.0 += 1;
    }
    fn end_game(&mut self, _end: fanorona_core::record::Location) {}
}

fn records(c: &mut Criterion) {
    let (text, turns) = generate();
    let mut group = c.benchmark_group("record");
    group.sample_size(10);
    group.throughput(Throughput::Elements(turns));
    group.bench_function("read", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&text[..]));
            let mut counter = CountTurns(0);
            let mut games = 0;
            while reader.read_game(&mut counter).expect("valid FGN").is_some() {
                games += 1;
            }
            assert_eq!((games, counter.0), (GAMES, turns));
        });
    });
    group.bench_function("read+validate", |b| {
        b.iter(|| {
            let mut reader = Reader::new(black_box(&text[..]));
            let mut validator = Validator::new();
            let (mut games, mut replayed) = (0, 0u64);
            while let Some(report) = reader.read_game(&mut validator).expect("valid FGN") {
                assert!(report.is_valid(), "{:?}", report.problems);
                games += 1;
                replayed += report.turns as u64;
            }
            assert_eq!((games, replayed), (GAMES, turns));
        });
    });
    group.bench_function("read records", |b| {
        b.iter(|| {
            let reader = Reader::new(black_box(&text[..]));
            let n: usize = reader
                .records()
                .map(|r| r.expect("valid").movetext.len())
                .sum();
            assert_eq!(n as u64, turns);
        });
    });
    group.finish();
}

criterion_group!(benches, records);
criterion_main!(benches);
