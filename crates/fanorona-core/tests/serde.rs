//! The serde forms of the public data types.
#![cfg(feature = "serde")]

use fanorona_core::{BoardSize, Outcome, Position, Rules, StuckRule};

#[test]
fn serde_forms() {
    assert_eq!(serde_json::to_string(&BoardSize::DIMY).unwrap(), "\"5x5\"");
    let size: BoardSize = serde_json::from_str("\"3x7\"").unwrap();
    assert_eq!((size.rows(), size.cols()), (3, 7));
    assert!(serde_json::from_str::<BoardSize>("\"9x9\"").is_err());

    let rules = Rules {
        stuck: StuckRule::Draws,
        no_capture_limit: None,
        ..Rules::STANDARD
    };
    let pos = Position::start(BoardSize::TELO).with_rules(rules);
    let json = serde_json::to_value(pos).unwrap();
    assert_eq!(json["fen"], "BBB/B1W/WWW w");
    assert_eq!(json["rules"]["stuck"], "draws");
    let back: Position = serde_json::from_value(json).unwrap();
    assert_eq!(back, pos);

    let turn = Position::standard().parse_turn("d3-e3W").unwrap();
    assert_eq!(serde_json::to_string(&turn).unwrap(), "\"d3-e3W\"");

    let outcome: Outcome =
        serde_json::from_str(r#"{"winner":"black","reason":"no-stones"}"#).unwrap();
    assert_eq!(outcome.result_str(), "0-1");
}
