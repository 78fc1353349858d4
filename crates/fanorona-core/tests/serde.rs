//! The serde forms of the public data types.
#![cfg(feature = "serde")]

use fanorona_core::{
    BoardSize, Color, Game, Outcome, PlayError, Point, Position, Rules, StuckRule, Turn,
};

#[test]
fn serde_forms() {
    assert_eq!(serde_json::to_string(&BoardSize::DIMY).unwrap(), "\"5x5\"");
    let size: BoardSize = serde_json::from_str("\"3x7\"").unwrap();
    assert_eq!((size.rows(), size.cols()), (3, 7));
    assert!(serde_json::from_str::<BoardSize>("\"9x9\"").is_err());

    let rules = Rules::STANDARD
        .with_stuck(StuckRule::Draws)
        .with_no_capture_limit(None);
    let pos = Position::start(BoardSize::TELO).with_rules(rules).unwrap();
    let json = serde_json::to_value(pos).unwrap();
    assert_eq!(json["fen"], "BBB/B1W/WWW w");
    assert_eq!(json["rules"]["stuck"], "draws");
    let back: Position = serde_json::from_value(json).unwrap();
    assert_eq!(back, pos);

    let turn = Position::standard().parse_turn("d3-e3W").unwrap();
    assert_eq!(
        serde_json::to_string(&turn).unwrap(),
        r#"{"board":"5x9","text":"d3-e3W","captured":["c3"]}"#
    );

    let outcome: Outcome =
        serde_json::from_str(r#"{"winner":"black","reason":"no-stones"}"#).unwrap();
    assert_eq!(outcome.result_str(), "0-1");
}

/// Rules read from JSON pass the checks of the text form: what `Display` writes always parses
/// back (issue 11: `repetition: 1` and `no-capture-limit: 0` were accepted).
#[test]
fn rules_are_validated_on_the_way_in() {
    for bad in [
        r#"{"repetition": 1}"#,
        r#"{"repetition": 0}"#,
        r#"{"no-capture-limit": 0}"#,
        r#"{"stuck": "passes"}"#,
        r#"{"repetiton": 3}"#,
    ] {
        assert!(serde_json::from_str::<Rules>(bad).is_err(), "{bad}");
    }
    let rules: Rules =
        serde_json::from_str(r#"{"repetition": 2, "no-capture-limit": null}"#).unwrap();
    assert_eq!(rules.repetition(), Some(2));
    assert_eq!(rules.no_capture_limit(), None);
    assert_eq!(rules.to_string(), "repetition=2,no-capture-limit=off");
    assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules);
    let json = serde_json::to_string(&rules).unwrap();
    assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
    assert_eq!(
        serde_json::from_str::<Rules>("{}").unwrap(),
        Rules::STANDARD
    );
}

/// A turn reads back by itself, and a tampered one is refused by the checks of its shape or,
/// when only its captures are wrong, by checked play.
#[test]
fn turns_read_back() {
    let pos = Position::standard();
    for turn in pos.legal_turns() {
        let json = serde_json::to_string(&turn).unwrap();
        let back: Turn = serde_json::from_str(&json).unwrap();
        assert_eq!(back, turn, "{json}");
        assert!(pos.play(&back).is_ok());
    }
    // f2-e3A captures d4 and c5 (hand-checked on the start position).
    let f2 = r#"{"board":"5x9","text":"f2-e3A","captured":["d4","c5"]}"#;
    let turn: Turn = serde_json::from_str(f2).unwrap();
    assert_eq!(turn, pos.parse_turn("f2-e3A").unwrap());
    // Captures that the turn does not make: well formed, but not legal here.
    let wrong = r#"{"board":"5x9","text":"f2-e3A","captured":["d4"]}"#;
    let turn: Turn = serde_json::from_str(wrong).unwrap();
    assert!(matches!(pos.play(&turn), Err(PlayError::Illegal { .. })));
    for bad in [
        r#"{"board":"5x9","text":"f2-e3","captured":["d4"]}"#,
        r#"{"board":"5x9","text":"f2-d4A","captured":[]}"#,
        r#"{"board":"5x9","text":"f2-e3A-e4","captured":[]}"#,
        r#"{"board":"5x5","text":"f2-e3A","captured":[]}"#,
        r#"{"board":"5x9","text":"f2-e3A","captured":["j9"]}"#,
        r#"{"board":"9x9","text":"f2-e3A","captured":[]}"#,
    ] {
        assert!(serde_json::from_str::<Turn>(bad).is_err(), "{bad}");
    }
}

#[test]
fn points_carry_their_board() {
    let e3 = BoardSize::STANDARD.parse_point("e3").unwrap();
    let json = serde_json::to_string(&e3).unwrap();
    assert_eq!(json, r#"{"board":"5x9","name":"e3"}"#);
    assert_eq!(serde_json::from_str::<Point>(&json).unwrap(), e3);
    assert!(serde_json::from_str::<Point>(r#"{"board":"3x3","name":"e3"}"#).is_err());
}

/// A game is its start and its turns, replayed when read; a resignation is kept.
#[test]
fn games_round_trip() {
    let mut game = Game::new(Position::start(BoardSize::DIMY));
    game.play_text("b2-c3A").unwrap();
    game.play_text("c5-d4A").unwrap();
    game.resign(Color::White).unwrap();
    let json = serde_json::to_value(&game).unwrap();
    assert_eq!(json["turns"], serde_json::json!(["b2-c3A", "c5-d4A"]));
    assert_eq!(json["start"]["fen"], "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    let back: Game = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back, game);
    assert_eq!(back.outcome(), game.outcome());

    let mut illegal = json.clone();
    illegal["turns"] = serde_json::json!(["b2-c3A", "b2-c3A"]);
    let err = serde_json::from_value::<Game>(illegal).unwrap_err();
    assert!(err.to_string().starts_with("turn 2: "), "{err}");
    let mut no_reason = json;
    no_reason["end"] = serde_json::json!({"winner": "white", "reason": "no-stones"});
    assert!(serde_json::from_value::<Game>(no_reason).is_err());
}

/// A turn the rules refuse, read from JSON text, is reported with its line and column (those
/// of the end of the turn's string), also when the turns come before the start.
#[test]
fn refused_turns_in_json_say_where() {
    let text = "{\n  \"start\": {\"fen\": \"BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\"},\n  \"turns\": [\n    \"b2-c3A\",\n    \"b2-c3A\"\n  ]\n}";
    let err = serde_json::from_str::<Game>(text).unwrap_err();
    // Line 5 is `    "b2-c3A"`: the string ends at column 12.
    assert_eq!((err.line(), err.column()), (5, 12), "{err}");
    assert!(err.to_string().starts_with("turn 2: "), "{err}");
    assert!(err.to_string().ends_with(" at line 5 column 12"), "{err}");
    // Turns before the start are played once the start is known; the place is then the end of
    // the game's object, but still a place.
    let late = "{\"turns\": [\"b2-c3A\", \"zz\"],\n \"start\": {\"fen\": \"BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\"}}";
    let err = serde_json::from_str::<Game>(late).unwrap_err();
    assert!(err.to_string().starts_with("turn 2: "), "{err}");
    assert_eq!(err.line(), 2, "{err}");
    // Duplicate and missing fields are refused, as before.
    assert!(serde_json::from_str::<Game>(r#"{"turns": []}"#).is_err());
    assert!(serde_json::from_str::<Game>(r#"{"start": {"fen": "3/3/3 w"}}"#).is_err());
    assert!(
        serde_json::from_str::<Game>(r#"{"start": {"fen": "3/3/3 w"}, "turns": [], "x": 1}"#)
            .is_err()
    );
}

/// Error messages name the public types, never the private forms they are read through.
#[test]
fn messages_name_public_types() {
    for err in [
        serde_json::from_str::<Rules>("\"stuck\"")
            .unwrap_err()
            .to_string(),
        serde_json::from_str::<Turn>("3").unwrap_err().to_string(),
        serde_json::from_str::<Point>("[]").unwrap_err().to_string(),
        serde_json::from_str::<Position>("1")
            .unwrap_err()
            .to_string(),
        serde_json::from_str::<Game>("1").unwrap_err().to_string(),
    ] {
        assert!(!err.contains("Repr"), "{err}");
    }
    let err = serde_json::from_str::<Rules>("\"stuck\"")
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("expected rules: an object of rule options"),
        "{err}"
    );
}
