//! Fuzz targets for the JSON and JSON Lines readers, on the stable toolchain (proptest):
//! arbitrary bytes and structured mutations of valid documents. Properties: no panic, the
//! reader ends, every error is located inside the input, and whatever the writers accept to
//! write reads back as the same records.
//!
//! CI runs the default number of cases; a long run is
//! `PROPTEST_CASES=200000 nice cargo test -p fanorona-cli --bin fanorona records_json::fuzz`.

use fanorona_core::record::{Element, GameRecord, GameResult, Reader, Tag};
use proptest::prelude::*;

use super::{JsonGames, JsonSink};

const VALID: &str = include_str!("../../../tests/data/valid.fgn");

/// Tokens that matter to JSON, inserted by the mutations.
const DICTIONARY: [&[u8]; 24] = [
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b",",
    b":",
    b"\n",
    b"\r\n",
    b"null",
    b"1",
    b"-1e999",
    b"\"\\u0000\"",
    b"\"\\ud800\"",
    b"\xFF",
    b"\xC3",
    b"{\"turn\": \"f2-e3A\"}",
    b"{\"nag\": 256}",
    b"\"extra\": 1,",
    b"\"tags\": []",
    b"[[[[[[[[",
    b"]]]]]]]]",
    b" ",
];

/// One byte-level mutation: what, where, and with what. The same engine as fanorona-core's
/// `tests/fuzz_readers.rs` (which adds `Replace`) with a JSON dictionary; not shared on
/// purpose: each crate's tests must build from its own package (`cargo package`, so no path
/// dev-dependency or file outside the crate), and fanorona-core's public API carries no test
/// support.
#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, u8),
    Delete(usize, usize),
    Duplicate(usize, usize, usize),
    Token(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 1usize..16).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (any::<usize>(), 1usize..64, any::<usize>())
            .prop_map(|(p, n, q)| Mutation::Duplicate(p, n, q)),
        (any::<usize>(), 0..DICTIONARY.len()).prop_map(|(p, t)| Mutation::Token(p, t)),
    ]
}

fn mutate(seed: &[u8], mutations: &[Mutation]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for m in mutations {
        let at = |p: usize, len: usize| if len == 0 { 0 } else { p % len };
        match *m {
            Mutation::Insert(p, c) => {
                let i = at(p, b.len() + 1);
                b.insert(i, c);
            }
            Mutation::Delete(p, n) if !b.is_empty() => {
                let i = at(p, b.len());
                let end = (i + n).min(b.len());
                b.drain(i..end);
            }
            Mutation::Duplicate(p, n, q) if !b.is_empty() => {
                let i = at(p, b.len());
                let slice = b[i..(i + n).min(b.len())].to_vec();
                let j = at(q, b.len() + 1);
                b.splice(j..j, slice);
            }
            Mutation::Token(p, t) => {
                let i = at(p, b.len() + 1);
                b.splice(i..i, DICTIONARY[t].iter().copied());
            }
            _ => {}
        }
    }
    b
}

/// A writer of JSON Lines (`lines`) or of a JSON array, into memory.
fn sink(lines: bool) -> JsonSink<Vec<u8>> {
    if lines {
        JsonSink::lines(Vec::new())
    } else {
        JsonSink::array(Vec::new())
    }
}

/// A reader of JSON Lines (`lines`) or of a JSON array.
fn games(input: &[u8], lines: bool) -> JsonGames<&[u8]> {
    if lines {
        JsonGames::lines(input)
    } else {
        JsonGames::array(input)
    }
}

/// The valid records of the fixture, as a JSON array and as JSON Lines.
fn seeds() -> [Vec<u8>; 2] {
    let records: Vec<GameRecord> = Reader::new(VALID.as_bytes())
        .records()
        .map(|r| r.expect("valid fixture"))
        .collect();
    let mut out = [Vec::new(), Vec::new()];
    for (i, lines) in [false, true].into_iter().enumerate() {
        let mut sink = sink(lines);
        for r in &records {
            sink.write(r).expect("writable");
        }
        out[i] = sink.finish().expect("a Vec");
    }
    out
}

fn check(input: &[u8], lines: bool) {
    let reader = games(input, lines);
    let mut records = Vec::new();
    let mut count = 0;
    for item in reader {
        count += 1;
        assert!(count <= input.len() + 2, "the reader ends");
        match item {
            Ok(r) => {
                // Every element of an accepted game object is located.
                let src = r.source.as_ref().expect("located");
                assert_eq!(src.movetext.len(), r.movetext.len());
                assert_eq!(src.tags.len(), r.tags.len());
                records.push(r);
            }
            Err(e) => {
                assert!(e.at.offset <= input.len() as u64, "{e:?}");
                assert!(e.at.line >= 1 && e.at.column >= 1, "{e:?}");
            }
        }
    }
    for r in &records {
        let _ = r.validate(1);
    }
    // Whatever the writers write reads back as the same records.
    for lines in [false, true] {
        let (written, back) = round_trip(&records, lines);
        assert_eq!(back, written);
    }
}

/// Writes `records` as JSON Lines (`lines`) or a JSON array and reads the text back: the
/// records the writer took, and the records read.
fn round_trip(records: &[GameRecord], lines: bool) -> (Vec<GameRecord>, Vec<GameRecord>) {
    let mut sink = sink(lines);
    let mut written = Vec::new();
    for r in records {
        if sink.write(r).is_ok() {
            written.push(r.clone());
        }
    }
    let out = sink.finish().expect("a Vec");
    let back = games(&out[..], lines)
        .map(|r| r.expect("the writer's text reads back"))
        .collect();
    (written, back)
}

/// Any record with any texts.
fn arb_record() -> impl Strategy<Value = GameRecord> {
    let tag = (any::<String>(), any::<String>()).prop_map(|(name, value)| Tag { name, value });
    let element = prop_oneof![
        any::<String>().prop_map(Element::Turn),
        any::<String>().prop_map(Element::Comment),
        any::<u8>().prop_map(Element::Nag),
    ];
    let result = prop::option::of(prop::sample::select(vec![
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
        GameResult::Unknown,
    ]));
    (
        prop::collection::vec(tag, 0..4),
        prop::collection::vec(element, 0..6),
        result,
    )
        .prop_map(|(tags, movetext, result)| GameRecord::new(tags, movetext, result))
}

proptest! {
    #[test]
    fn any_record_the_json_writers_write_reads_back(
        records in prop::collection::vec(arb_record(), 0..4),
    ) {
        for lines in [false, true] {
            let (written, back) = round_trip(&records, lines);
            prop_assert_eq!(&written, &records, "any text fits in JSON");
            prop_assert_eq!(&back, &records);
        }
    }

    #[test]
    fn json_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..256)) {
        check(&input, false);
        check(&input, true);
    }

    #[test]
    fn json_mutated_documents(
        seed in 0usize..2,
        mutations in prop::collection::vec(mutation(), 1..10),
    ) {
        let input = mutate(&seeds()[seed], &mutations);
        check(&input, false);
        check(&input, true);
    }
}
