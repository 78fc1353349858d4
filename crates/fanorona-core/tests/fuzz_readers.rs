//! Fuzz targets for the readers, on the stable toolchain (proptest, no sanitizers): arbitrary
//! bytes and structured mutations of valid records for the FGN reader, the Boardspace importer
//! and the position-string parser. Properties: no panic, every error located inside the input,
//! and whatever the writer accepts to write reads back as the same records.
//!
//! CI runs the default number of cases (a few hundred, seconds); a long run is
//! `PROPTEST_CASES=200000 nice cargo test --release -p fanorona-core --test fuzz_readers`.
//! Crash inputs found by long runs are kept as the `regression_*` tests at the end.

use fanorona_core::record::boardspace::BoardspaceReader;
use fanorona_core::record::{Element, FgnWriter, GameRecord, GameResult, Reader, Tag};
use fanorona_core::{Position, Rules};
use proptest::prelude::*;

const VALID: &str = include_str!("data/valid.fgn");
const MALFORMED: &str = include_str!("data/malformed.fgn");
const BOARDSPACE: &str = include_str!("data/boardspace-sample.sgf");
const FENS: [&str; 4] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW b 3 12",
    "B2/3/W2 b",
    "9/9/4W4/9/9 w 0 65535",
];

/// Tokens that matter to the grammars, inserted by the mutations.
const DICTIONARY: [&[u8]; 34] = [
    b"{",
    b"}",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"\n",
    b"\r\n",
    b"1.",
    b"3...",
    b"65535.",
    b"65536.",
    b"$",
    b"$256",
    b"*",
    b"1-0",
    b"1/2-1/2",
    b"(",
    b")",
    b";",
    b"\xEF\xBB\xBF",
    b"\xFF",
    b"\xC3",
    b"[FEN \"",
    b"[Date \"2024.02.31\"]",
    b"f2-e3A",
    b"a1-a2-a1",
    b"X[]",
    b"P0[",
    b"(;",
    b"GM[Fanorona]",
    b" ",
    b"/",
    b"9",
];

/// One mutation: what, where, and with what.
#[derive(Clone, Debug)]
enum Mutation {
    Insert(usize, u8),
    Delete(usize, usize),
    Replace(usize, u8),
    Duplicate(usize, usize, usize),
    Token(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), 1usize..16).prop_map(|(p, n)| Mutation::Delete(p, n)),
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::Replace(p, b)),
        (any::<usize>(), 1usize..64, any::<usize>())
            .prop_map(|(p, n, q)| Mutation::Duplicate(p, n, q)),
        (any::<usize>(), 0..DICTIONARY.len()).prop_map(|(p, t)| Mutation::Token(p, t)),
    ]
}

/// Applies the mutations to `seed`.
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
            Mutation::Replace(p, c) if !b.is_empty() => {
                let i = at(p, b.len());
                b[i] = c;
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

/// The FGN reader's properties on any input.
fn check_fgn(input: &[u8]) {
    let mut reader = Reader::new(input);
    let mut records = Vec::new();
    let mut games = 0;
    loop {
        match reader.read_record() {
            Ok(Some(r)) => records.push(r),
            Ok(None) => break,
            Err(e) => {
                assert!(e.at.offset <= input.len() as u64, "{e}");
                assert!(e.game >= 1);
                let _ = e.to_string();
            }
        }
        games += 1;
        assert!(games <= input.len() + 1, "the reader makes progress");
    }
    for r in &records {
        let _ = r.validate(1);
        let _ = r.check_turn_numbers();
    }
    check_written_reads_back(&records);
}

/// Whatever the FGN writer writes reads back as the same records.
fn check_written_reads_back(records: &[GameRecord]) {
    let mut out = Vec::new();
    let mut written = Vec::new();
    let mut writer = FgnWriter::new(&mut out);
    for r in records {
        if writer.write(r).is_ok() {
            written.push(r.clone());
        }
    }
    writer.finish().expect("a Vec");
    let back: Vec<GameRecord> = Reader::new(&out[..])
        .records()
        .map(|r| r.expect("the writer's text reads back"))
        .collect();
    assert_eq!(back, written, "{}", String::from_utf8_lossy(&out));
}

fn check_boardspace(input: &[u8]) {
    let mut records = Vec::new();
    for (i, item) in BoardspaceReader::new(input).enumerate() {
        assert!(i <= input.len(), "the importer makes progress");
        match item {
            Ok(r) => {
                assert!(r.validate(1).is_valid(), "an imported game replays");
                records.push(r);
            }
            Err(e) => {
                assert!(e.at.offset <= input.len() as u64, "{e}");
                let _ = e.to_string();
            }
        }
    }
    check_written_reads_back(&records);
}

fn check_position(text: &str) {
    let other: Rules = "stuck=draws,repetition=off".parse().expect("rule options");
    for rules in [Rules::STANDARD, other] {
        if let Ok(p) = Position::from_fen_with(text, rules) {
            let again = Position::from_fen_with(&p.to_fen(), rules).expect("its own text");
            assert_eq!(again, p, "{text:?}");
            assert_eq!(again.to_fen(), p.to_fen());
            let _ = p.parse_turn("f2-e3A");
        }
    }
    let _ = Position::standard().parse_turn(text);
}

/// Any record, made of texts full of the grammar's special characters.
fn arb_record() -> impl Strategy<Value = GameRecord> {
    let text = "[\\[\\]{}\"\\\\\n\r\t a-zA-Z0-9$*.\\-/é]{0,24}";
    let tag = prop_oneof![
        ("[A-Za-z0-9_]{1,8}", text).prop_map(|(name, value)| Tag { name, value }),
        (text, text).prop_map(|(name, value)| Tag { name, value }),
        prop::sample::select(FENS.to_vec()).prop_map(|f| Tag {
            name: "FEN".into(),
            value: f.into(),
        }),
    ];
    let element = prop_oneof![
        "[a-i][1-9](-?[a-i][1-9][AW]?){1,4}".prop_map(Element::Turn),
        text.prop_map(Element::Turn),
        text.prop_map(Element::Comment),
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
        prop::collection::vec(element, 0..8),
        result,
    )
        .prop_map(|(tags, movetext, result)| GameRecord::new(tags, movetext, result))
}

proptest! {
    #[test]
    fn any_record_the_writer_writes_reads_back(
        records in prop::collection::vec(arb_record(), 1..4),
    ) {
        check_written_reads_back(&records);
    }

    #[test]
    fn fgn_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..512)) {
        check_fgn(&input);
    }

    #[test]
    fn fgn_mutated_records(
        seed in 0usize..2,
        mutations in prop::collection::vec(mutation(), 1..12),
    ) {
        let seed = [VALID, MALFORMED][seed].as_bytes();
        check_fgn(&mutate(seed, &mutations));
    }

    #[test]
    fn boardspace_arbitrary_bytes(input in prop::collection::vec(any::<u8>(), 0..512)) {
        check_boardspace(&input);
    }

    #[test]
    fn boardspace_mutated_records(mutations in prop::collection::vec(mutation(), 1..12)) {
        check_boardspace(&mutate(BOARDSPACE.as_bytes(), &mutations));
    }

    #[test]
    fn position_strings(text in "[WB1-9/ wb0-9]{0,60}") {
        check_position(&text);
    }

    #[test]
    fn position_strings_mutated(
        seed in 0..FENS.len(),
        mutations in prop::collection::vec(mutation(), 1..6),
    ) {
        let bytes = mutate(FENS[seed].as_bytes(), &mutations);
        check_position(&String::from_utf8_lossy(&bytes));
    }
}
