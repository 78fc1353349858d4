//! The JSON form of game records (needs the `serde` feature): its documented shape, and
//! text -> JSON -> text keeping everything.
#![cfg(feature = "serde")]

use fanorona_core::record::{GameRecord, Reader};
use proptest::prelude::*;

const TEXT: &str = "[Event \"Casual game\"]\n[White \"Rakoto\"]\n[Black \"Rabe\"]\n[Result \"*\"]\n[Opening \"centre approach\"]\n\n1. f2-e3A { the usual opening } 1... d5-d4A $1 *\n\n";

#[test]
fn documented_shape() {
    let record = Reader::new(TEXT.as_bytes())
        .read_record()
        .expect("valid")
        .expect("a game");
    let json = serde_json::to_value(&record).expect("serializable");
    let expected = serde_json::json!({
        "tags": [
            { "name": "Event", "value": "Casual game" },
            { "name": "White", "value": "Rakoto" },
            { "name": "Black", "value": "Rabe" },
            { "name": "Result", "value": "*" },
            { "name": "Opening", "value": "centre approach" }
        ],
        "movetext": [
            { "turn": "f2-e3A" },
            { "comment": " the usual opening " },
            { "turn": "d5-d4A" },
            { "nag": 1 }
        ],
        "result": "*"
    });
    assert_eq!(json, expected);
    // No result token: null.
    let open = Reader::new(&b"1. f2-e3A"[..])
        .read_record()
        .expect("valid")
        .expect("a game");
    assert_eq!(
        serde_json::to_value(&open).expect("ok")["result"],
        serde_json::Value::Null
    );
}

#[test]
fn text_json_text_keeps_everything() {
    let record = Reader::new(TEXT.as_bytes())
        .read_record()
        .expect("valid")
        .expect("a game");
    let json = serde_json::to_string_pretty(&record).expect("serializable");
    let back: GameRecord = serde_json::from_str(&json).expect("deserializable");
    assert_eq!(back, record);
    assert_eq!(back.to_fgn().expect("writable"), TEXT);
}

#[test]
fn bad_json_is_an_error() {
    let bad = r#"{"tags": [], "movetext": [{"move": "f2-e3A"}], "result": "*"}"#;
    assert!(serde_json::from_str::<GameRecord>(bad).is_err());
    let bad = r#"{"tags": [], "movetext": [], "result": "2-0"}"#;
    assert!(serde_json::from_str::<GameRecord>(bad).is_err());
}

proptest! {
    #[test]
    fn generated_text_json_text(
        names in prop::collection::vec("[A-Z][a-z]{0,6}", 0..5),
        values in prop::collection::vec("[^\n\r]{0,12}", 5),
        comment in "[^}\\[]{0,30}",
    ) {
        let mut text = String::new();
        for (n, v) in names.iter().zip(&values) {
            let escaped = v.replace('\\', "\\\\").replace('"', "\\\"");
            text.push_str(&format!("[{n} \"{escaped}\"]\n"));
        }
        text.push_str(&format!("1. f2-e3A {{{comment}}} 1... d5-d4A 1/2-1/2\n"));
        let record = Reader::new(text.as_bytes()).read_record().expect("valid").expect("a game");
        let canonical = record.to_fgn().expect("writable");
        let json = serde_json::to_string(&record).expect("ok");
        let back: GameRecord = serde_json::from_str(&json).expect("ok");
        prop_assert_eq!(back.to_fgn().expect("writable"), canonical);
    }
}
