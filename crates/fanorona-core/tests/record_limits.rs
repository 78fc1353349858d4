//! Exact conversion and bounded memory: whatever the writer writes the reader reads (write ->
//! read round trips at every limit, refusals one past it), every reader stops at its limits
//! with a located error and goes on with the next game, turn numbers are never renumbered
//! silently, dates must exist, and Boardspace property names are kept whole.

use fanorona_core::record::boardspace::{BoardspaceReader, ImportError};
use fanorona_core::record::{
    Element, GameRecord, GameResult, LimitError, MAX_COMMENT, MAX_GAME_BYTES, MAX_MOVETEXT,
    MAX_TAG_VALUE, MAX_TAGS, MAX_TURN, MAX_TURN_NUMBER, ProblemKind, ReadError, ReadErrorKind,
    Reader, Tag, WriteError, check_date,
};

fn read_all(text: &str) -> Vec<Result<GameRecord, ReadError>> {
    Reader::new(text.as_bytes()).records().collect()
}

fn read_one(text: &str) -> GameRecord {
    Reader::new(text.as_bytes())
        .read_record()
        .expect("readable")
        .expect("a game")
}

/// Writes a record and reads it back: the same record, one game.
fn round_trip(record: &GameRecord) {
    let text = record.to_fgn().expect("writable");
    let back = read_all(&text);
    assert_eq!(back.len(), 1);
    let back = back
        .into_iter()
        .next()
        .unwrap()
        .expect("the writer's text reads back");
    assert_eq!(&back, record);
}

fn game(tags: Vec<Tag>, movetext: Vec<Element>) -> GameRecord {
    GameRecord::new(tags, movetext, Some(GameResult::Unknown))
}

fn tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.into(),
        value: value.into(),
    }
}

fn turn(text: impl Into<String>) -> Element {
    Element::Turn(text.into())
}

// ---- Turn numbers: never renumbered silently --------------------------------------------

#[test]
fn wrong_turn_numbers_are_refused_with_their_place() {
    // Hand-checked: White's turn 1 then Black's turn 1, then White's turn 2.
    for good in [
        "1. f2-e3A d5-d4A 2. g3-f2W *",
        "1. f2-e3A 1... d5-d4A *",
        "f2-e3A 1... d5-d4A *",
        "1. {before} f2-e3A {after} 1... d5-d4A 2. *",
        "[FEN \"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b 0 7\"]\n\n7... d5-d4A 8. f2-e3A *",
    ] {
        assert_eq!(read_one(good).check_turn_numbers(), Ok(()), "{good}");
    }
    for (bad, column, text) in [
        ("5. f2-e3A *", 1, "5."),
        ("1. f2-e3A 2... d5-d4A *", 11, "2..."),
        ("1. f2-e3A d5-d4A 2... g3-f2W *", 18, "2..."),
        ("1... f2-e3A *", 1, "1..."),
        ("1. f2-e3A d5-d4A 1. *", 18, "1."),
    ] {
        let p = read_one(bad).check_turn_numbers().expect_err(bad);
        assert_eq!(p.kind, ProblemKind::TurnNumber, "{bad}");
        assert_eq!((p.at.line, p.at.column), (1, column), "{bad}");
        assert_eq!(p.text, text, "{bad}");
    }
    // A [FEN] that is not a position: the numbers cannot be checked, so they are refused.
    let p = read_one("[FEN \"nonsense\"]\n\n1. f2-e3A *")
        .check_turn_numbers()
        .expect_err("unreadable FEN");
    assert_eq!((p.at.line, p.at.column), (3, 1));
    // Without numbers, nothing to check.
    assert!(read_one("f2-e3A d5-d4A *").check_turn_numbers().is_ok());
}

#[test]
fn turn_numbers_stop_at_65535_in_reader_and_writer() {
    assert_eq!(MAX_TURN_NUMBER, 65_535);
    let err = Reader::new(&b"65536. f2-e3A *"[..])
        .read_record()
        .expect_err("past the largest turn number");
    assert!(matches!(err.kind, ReadErrorKind::Token(_)), "{err}");
    assert_eq!((err.at.line, err.at.column), (1, 1));
    // A game from White's turn 65535: two turns can be numbered, a third cannot.
    let fen = tag(
        "FEN",
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w 0 65535",
    );
    let two = game(vec![fen.clone()], vec![turn("f2-e3A"), turn("d5-d4A")]);
    assert!(
        two.to_fgn()
            .expect("writable")
            .contains("65535. f2-e3A d5-d4A")
    );
    round_trip(&two);
    let three = game(
        vec![fen],
        vec![turn("f2-e3A"), turn("d5-d4A"), turn("g3-f2W")],
    );
    assert!(matches!(
        three.to_fgn(),
        Err(WriteError::Limit(LimitError::TurnNumber { index: 2 }))
    ));
}

// ---- Texts at their limits ----------------------------------------------------------------

#[test]
fn turn_texts_round_trip_up_to_512_bytes_and_no_further() {
    // "a1" then steps "-a2", "-a1", ...: 2 + 3k bytes.
    let chain = |steps: usize| {
        let mut t = String::from("a1");
        for i in 0..steps {
            t.push_str(if i % 2 == 0 { "-a2" } else { "-a1" });
        }
        t
    };
    let longest = chain(170);
    assert_eq!(longest.len(), MAX_TURN);
    round_trip(&game(vec![], vec![turn(longest)]));
    let too_long = game(vec![], vec![turn(chain(171))]);
    assert!(matches!(
        too_long.to_fgn(),
        Err(WriteError::Limit(LimitError::TooLong {
            what: "turn",
            index: 0,
            ..
        }))
    ));
    // The reader refuses the same text.
    let text = format!("{} *", chain(171));
    let err = Reader::new(text.as_bytes())
        .read_record()
        .expect_err("too long");
    assert!(matches!(
        err.kind,
        ReadErrorKind::TooLong { what: "turn", .. }
    ));
}

#[test]
fn tag_values_and_comments_round_trip_at_their_limits() {
    // Escapes count once, as the unescaped value.
    let value = "\"\\".repeat(MAX_TAG_VALUE / 2);
    assert_eq!(value.len(), MAX_TAG_VALUE);
    round_trip(&game(vec![tag("Annotator", value.clone())], vec![]));
    let over = game(vec![tag("Annotator", value + "x")], vec![]);
    assert!(over.to_fgn().is_err());
    let comment = "c".repeat(MAX_COMMENT);
    round_trip(&game(vec![], vec![Element::Comment(comment.clone())]));
    let over = game(vec![], vec![Element::Comment(comment + "c")]);
    assert!(over.to_fgn().is_err());
}

// ---- Per-game limits: tags, tokens, bytes -------------------------------------------------

#[test]
fn tags_per_game_are_capped_in_reader_and_writer() {
    let tags = |n: usize| {
        (0..n)
            .map(|i| tag(&format!("T{i}"), "v"))
            .collect::<Vec<_>>()
    };
    round_trip(&game(tags(MAX_TAGS), vec![turn("f2-e3A")]));
    let over = game(tags(MAX_TAGS + 1), vec![turn("f2-e3A")]);
    assert!(matches!(
        over.to_fgn(),
        Err(WriteError::Limit(LimitError::TooMany { what: "tags", .. }))
    ));
    // The reader stops at the 1025th tag (line 1025) and reads the next game.
    let mut text = String::new();
    for i in 0..=MAX_TAGS {
        text.push_str(&format!("[T{i} \"v\"]\n"));
    }
    text.push_str("\n1. f2-e3A *\n\n[Event \"next\"]\n\n1. f2-e3A *\n");
    let games = read_all(&text);
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().expect_err("too many tags");
    assert!(
        matches!(err.kind, ReadErrorKind::TooMany { what: "tags", .. }),
        "{err}"
    );
    assert_eq!((err.at.line, err.at.column), (MAX_TAGS as u64 + 1, 1));
    assert_eq!(
        games[1].as_ref().expect("next game").tag("Event"),
        Some("next")
    );
}

#[test]
fn movetext_tokens_per_game_are_capped_in_reader_and_writer() {
    // Tokens are turns, comments, NAGs and the turn numbers the writer adds.
    let mut movetext = vec![Element::Nag(1); MAX_MOVETEXT - 2];
    movetext.push(turn("f2-e3A")); // written "1. f2-e3A": two tokens
    let at_limit = game(vec![], movetext.clone());
    round_trip(&at_limit);
    movetext.insert(0, Element::Nag(2));
    let over = game(vec![], movetext);
    assert!(matches!(
        over.to_fgn(),
        Err(WriteError::Limit(LimitError::TooMany { .. }))
    ));
    // The reader: a game of empty comments one past the limit, then another game.
    let mut text = "{}".repeat(MAX_MOVETEXT + 1);
    text.push_str(" *\n\n1. f2-e3A *\n");
    let games = read_all(&text);
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().expect_err("too many tokens");
    assert!(matches!(err.kind, ReadErrorKind::TooMany { .. }), "{err}");
    assert_eq!(err.at.column, 2 * MAX_MOVETEXT as u64 + 1);
    assert!(games[1].is_ok());
}

#[test]
fn game_bytes_are_capped_in_reader_and_writer() {
    // Sixteen comments, separated by one byte each, and the final "\n\n": exactly the limit.
    let mut movetext: Vec<Element> = (0..15)
        .map(|_| Element::Comment("c".repeat(MAX_COMMENT)))
        .collect();
    let used = 15 * (MAX_COMMENT + 2) + 15 + 2;
    movetext.push(Element::Comment("c".repeat(MAX_GAME_BYTES - used - 2)));
    let mut at_limit = game(vec![], movetext);
    at_limit.result = None;
    let text = at_limit.to_fgn().expect("at the limit");
    assert_eq!(text.len(), MAX_GAME_BYTES);
    round_trip(&at_limit);
    // One byte more: the writer refuses, and so does the reader.
    if let Some(Element::Comment(c)) = at_limit.movetext.last_mut() {
        c.push('c');
    }
    assert!(matches!(
        at_limit.to_fgn(),
        Err(WriteError::Limit(LimitError::TooLong { what: "game", .. }))
    ));
    // One more space between the first two comments.
    let mut long_text = text.clone();
    long_text.insert(MAX_COMMENT + 2, ' ');
    let err = Reader::new(long_text.as_bytes())
        .read_record()
        .expect_err("too long");
    assert!(
        matches!(err.kind, ReadErrorKind::TooLong { what: "game", .. }),
        "{err}"
    );
}

// ---- Dates ------------------------------------------------------------------------------

#[test]
fn dates_must_exist() {
    for good in [
        "2024.05.18",
        "2024.02.29",
        "2000.02.29",
        "????.02.29",
        "20?4.02.29",
        "2024.??.31",
        "2024.?2.3?",
        "????.??.??",
        "2024.12.31",
        "2024.1?.??",
    ] {
        assert_eq!(check_date(good), Ok(()), "{good}");
    }
    for bad in [
        "2024.13.45",
        "2024.13.01",
        "2024.00.10",
        "2024.05.00",
        "2024.02.31",
        "2023.02.29",
        "1900.02.29",
        "2024.04.31",
        "2024.?4.31",
        "2024.2?.01",
        "2024.05.4?",
        "2024.5.18",
        "2024-05-18",
        "",
    ] {
        assert!(check_date(bad).is_err(), "{bad}");
    }
    // Validation reports an impossible date as a bad tag, at the tag.
    let record = read_one("[Event \"e\"]\n[Date \"2024.02.31\"]\n\n1. f2-e3A *");
    let report = record.validate(1);
    assert_eq!(report.problems.len(), 1);
    let p = &report.problems[0];
    assert_eq!(p.kind, ProblemKind::Tag);
    assert_eq!((p.at.line, p.at.column), (2, 1));
}

// ---- Boardspace -------------------------------------------------------------------------

fn import(sgf: &str) -> Vec<Result<GameRecord, ImportError>> {
    BoardspaceReader::new(sgf.as_bytes()).collect()
}

const HEADER: &str = "(;GM[Fanorona]SU[fanorona]P0[id \"ann\"]P1[id \"bob\"]";
const MOVES: &str = ";P0[0 Start P0];P0[1 Capture A F 2 E 3];P0[2 done])\n";

#[test]
fn boardspace_property_names_are_kept_whole_or_refused() {
    let name = format!("X{}", "Y".repeat(40));
    let games = import(&format!("{HEADER}{name}[v]{MOVES}"));
    let record = games[0].as_ref().expect("imports");
    assert_eq!(record.tag(&format!("Boardspace{name}")), Some("v"));
    round_trip(record);
    let long = "Z".repeat(246);
    let games = import(&format!("{HEADER}\n{long}[v]{MOVES}{HEADER}{MOVES}"));
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().expect_err("name too long");
    assert_eq!((err.at.line, err.at.column), (2, 1));
    assert!(err.to_string().contains("too long"), "{err}");
    assert!(games[1].is_ok());
}

#[test]
fn boardspace_dates_must_exist() {
    let dt = |dt: &str| format!("{HEADER}\nDT[{dt}]{MOVES}");
    let ok = import(&dt("Thu Feb 29 17:24:45 PDT 2024"));
    assert_eq!(
        ok[0].as_ref().expect("a leap day").tag("Date"),
        Some("2024.02.29")
    );
    for bad in [
        "Sat Feb 31 17:24:45 PDT 2025",
        "Thu Feb 29 17:24:45 PDT 2025",
    ] {
        let err = import(&dt(bad)).remove(0).expect_err(bad);
        assert_eq!((err.at.line, err.at.column), (2, 1), "{bad}");
        assert!(err.to_string().contains("impossible date"), "{err}");
    }
    let gn = import(&format!("{HEADER}\nGN[FA-ann-bob-2024-13-45-1724]{MOVES}"));
    let err = gn[0].as_ref().expect_err("month 13");
    assert_eq!((err.at.line, err.at.column), (2, 1));
}

#[test]
fn boardspace_properties_per_game_are_capped() {
    // One past the limit of properties: an error, and the next game is read.
    let props = "X[]".repeat(fanorona_core::record::limits::MAX_PROPERTIES);
    let games = import(&format!("{HEADER}{props}{MOVES}{HEADER}{MOVES}"));
    assert_eq!(games.len(), 2);
    let err = games[0].as_ref().expect_err("too many properties");
    assert!(err.to_string().contains("too many properties"), "{err}");
    assert!(games[1].is_ok());
    // Below it, more header properties than tags a game may have: refused, not truncated.
    let props: String = (0..=MAX_TAGS).map(|i| format!("X{i}[v]")).collect();
    let err = import(&format!("{HEADER}{props}{MOVES}")).remove(0);
    assert!(
        err.expect_err("too many tags")
            .to_string()
            .contains("too many tags")
    );
}

// ---- JSON (serde) -----------------------------------------------------------------------

#[cfg(feature = "serde")]
mod json {
    use super::*;

    #[test]
    fn unknown_fields_are_refused() {
        for bad in [
            r#"{"tags": [], "movetext": [], "result": "*", "site": "x"}"#,
            r#"{"tags": [{"name": "A", "value": "b", "x": 1}], "movetext": [], "result": "*"}"#,
            r#"{"tags": [], "movetext": [{"turn": "f2-e3A", "nag": 1}], "result": "*"}"#,
        ] {
            let e = serde_json::from_str::<GameRecord>(bad).expect_err(bad);
            assert!(e.line() >= 1, "{bad}: {e}");
        }
    }

    #[test]
    fn limits_apply_when_deserializing() {
        let tags: Vec<String> = (0..=MAX_TAGS)
            .map(|i| format!(r#"{{"name": "T{i}", "value": ""}}"#))
            .collect();
        let text = format!(r#"{{"tags": [{}], "movetext": []}}"#, tags.join(","));
        let e = serde_json::from_str::<GameRecord>(&text).expect_err("too many tags");
        assert!(e.to_string().contains("too many tags"), "{e}");
        let text = format!(
            r#"{{"tags": [], "movetext": [{{"turn": "{}"}}]}}"#,
            "a".repeat(513)
        );
        let e = serde_json::from_str::<GameRecord>(&text).expect_err("too long");
        assert!(e.to_string().contains("turn too long"), "{e}");
        // At the limits: accepted.
        let text = format!(
            r#"{{"tags": [{}], "movetext": []}}"#,
            tags[..MAX_TAGS].join(",")
        );
        assert_eq!(
            serde_json::from_str::<GameRecord>(&text)
                .expect("at the limit")
                .tags
                .len(),
            MAX_TAGS
        );
    }
}

#[test]
fn boardspace_messages_quote_a_short_prefix() {
    let long = "z".repeat(60_000);
    for sgf in [
        format!("(;GM[{long}]SU[fanorona]{MOVES}"),
        format!("(;GM[Fanorona]SU[{long}]{MOVES}"),
        format!("{HEADER};P0[0 Start P0];P0[1 Frobnicate {long}];P0[2 done])"),
        format!("{HEADER}CM[{long}]{MOVES}"),
    ] {
        let err = import(&sgf).remove(0).expect_err("bad");
        let message = err.to_string();
        assert!(message.len() < 300, "{} bytes", message.len());
        assert!(message.contains("zzz..."), "{message}");
    }
}
