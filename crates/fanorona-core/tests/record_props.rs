//! Property tests of game records: arbitrary bytes never make a reader panic, and generated
//! records survive record -> FGN -> record unchanged.

use fanorona_core::record::boardspace::BoardspaceReader;
use fanorona_core::record::{Element, GameRecord, GameResult, Reader, Tag, Validator};
use proptest::prelude::*;

/// Reads and validates every game of `bytes`; returns the number of games seen.
fn read_all(bytes: &[u8]) -> usize {
    let mut reader = Reader::new(bytes);
    let mut validator = Validator::new();
    let mut games = 0;
    loop {
        match reader.read_game(&mut validator) {
            Ok(Some(report)) => {
                // Every report can be printed.
                for p in &report.problems {
                    assert!(!p.to_string().is_empty());
                }
            }
            Ok(None) => break,
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        games += 1;
        assert!(games <= bytes.len() + 1, "the reader always makes progress");
    }
    games
}

fn tag() -> impl Strategy<Value = Tag> {
    ("[A-Za-z][A-Za-z0-9_]{0,8}", "[^\n\r]{0,16}").prop_map(|(name, value)| Tag { name, value })
}

fn element() -> impl Strategy<Value = Element> {
    prop_oneof![
        "[a-i][1-9](-[a-i][1-9][AW]?){1,3}".prop_map(Element::Turn),
        "[a-i][1-9][a-i][1-9]".prop_map(Element::Turn),
        "[^}\\[]{0,20}".prop_map(Element::Comment),
        any::<u8>().prop_map(Element::Nag),
    ]
}

fn result() -> impl Strategy<Value = Option<GameResult>> {
    prop_oneof![
        Just(None),
        Just(Some(GameResult::WhiteWins)),
        Just(Some(GameResult::BlackWins)),
        Just(Some(GameResult::Draw)),
        Just(Some(GameResult::Unknown)),
    ]
}

fn record() -> impl Strategy<Value = GameRecord> {
    (
        prop::collection::vec(tag(), 0..6),
        prop::collection::vec(element(), 0..30),
        result(),
    )
        .prop_filter("FGN has no text for an empty record", |(t, m, r)| {
            !(t.is_empty() && m.is_empty() && r.is_none())
        })
        .prop_map(|(tags, movetext, result)| GameRecord::new(tags, movetext, result))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        read_all(&bytes);
        for game in BoardspaceReader::new(&bytes[..]) {
            if let Err(e) = game {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn fgn_like_text_never_panics(text in "[\\[\\]{}\"\\\\a-iAW1-9 .\\-*$/()\n;!x\u{e9}]{0,300}") {
        read_all(text.as_bytes());
    }

    #[test]
    fn boardspace_like_text_never_panics(
        text in "[(;)\\[\\]PGMSU01 a-iA-I1-5\n\\\\]{0,200}|\\(;GM\\[Fanorona\\]( ?;P[01]\\[([0-9]+ )?(Start P[01]|Capture [AW] [A-I] [1-5] [A-I] [1-5]|Move [A-I] [1-5] [A-I] [1-5]|Pickb [A-I] [1-5] 0|Dropb [A-I] [1-5]|Remove [A-I] [1-5] 0|done|Resign)\\]){0,12}\\)"
    ) {
        for game in BoardspaceReader::new(text.as_bytes()) {
            if let Err(e) = game {
                prop_assert!(!e.to_string().is_empty());
            }
        }
    }

    #[test]
    fn records_round_trip_through_fgn(games in prop::collection::vec(record(), 1..4)) {
        let mut out = Vec::new();
        let mut writer = fanorona_core::record::FgnWriter::new(&mut out);
        let mut written = Vec::new();
        for g in &games {
            // A game that would merge with the one before is refused, never changed.
            if writer.write(g).is_ok() {
                written.push(g.clone());
            }
        }
        let back: Vec<GameRecord> = Reader::new(&out[..])
            .records()
            .collect::<Result<_, _>>()
            .expect("the writer's output reads back");
        prop_assert_eq!(&back, &written);
        // And the text is stable.
        let mut again = Vec::new();
        let mut writer = fanorona_core::record::FgnWriter::new(&mut again);
        for g in &back {
            writer.write(g).expect("writable");
        }
        prop_assert_eq!(again, out);
    }
}
