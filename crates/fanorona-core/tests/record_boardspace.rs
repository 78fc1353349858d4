//! Import of Boardspace.net records: tags, turns (chains, paika, picks and drops), results,
//! and errors with their locations.

use fanorona_core::record::boardspace::{BoardspaceReader, ImportErrorKind};
use fanorona_core::record::{Element, GameRecord, GameResult};

const SAMPLE: &str = include_str!("data/boardspace-sample.sgf");

fn games() -> Vec<Result<GameRecord, fanorona_core::record::boardspace::ImportError>> {
    BoardspaceReader::new(SAMPLE.as_bytes()).collect()
}

#[test]
fn robot_style_game_with_chains_paika_and_resignation() {
    let all = games();
    assert_eq!(all.len(), 4);
    let g = all[0].as_ref().expect("game 1 imports");
    let tags: Vec<(&str, &str)> = g
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()))
        .collect();
    assert_eq!(
        tags,
        [
            ("Site", "boardspace.net"),
            ("Date", "2025.07.17"),
            ("Time", "17:24:45 PDT"),
            ("White", "ann"),
            ("Black", "bob"),
            ("Result", "0-1"),
            ("WhiteRanking", "1520"),
            ("WhiteClock", "0:00:47"),
            ("BlackCountry", "Madagascar"),
            ("BlackClock", "0:01:14"),
            ("BoardspaceName", "FA-ann-bob-2025-07-17-1724"),
            ("BoardspaceVV", "1"),
        ]
    );
    let turns: Vec<&str> = g.turns().collect();
    let expected = "f2-e3A f3-f2A e3-d4W e4-e3A-f2A d2-e3A g4-g5W-f4A-e4A d3-e3W-d4W-c3W-d2W \
                    h4-g5W b3-b4A c4-c3A-d4W i2-i3A d4-d3A i3-h4A d3-d4";
    assert_eq!(turns, expected.split_whitespace().collect::<Vec<_>>());
    assert_eq!(
        g.movetext.last(),
        Some(&Element::Comment("White resigns".into()))
    );
    assert_eq!(g.result, Some(GameResult::BlackWins));
    // The imported record is valid FGN and replays by the rules.
    assert!(g.validate(1).is_valid());
    g.to_fgn().expect("writable");
}

#[test]
fn mouse_style_game_with_colour_map_and_agreed_draw() {
    let all = games();
    let g = all[1].as_ref().expect("game 2 imports");
    // CM[1,0]: P0 (cat) is Black, P1 (dan) White.
    assert_eq!(g.tag("White"), Some("dan"));
    assert_eq!(g.tag("Black"), Some("cat"));
    assert_eq!(g.tag("Date"), Some("2024.03.05"), "from the game name");
    assert_eq!(g.tag("Termination"), Some("draw by agreement"));
    assert_eq!(g.tag("BoardspaceTC"), Some("15 min"));
    assert_eq!(g.tag("FEN"), None, "White moves first as usual");
    // Remove F 3 chose the approach; the drop back on d4 undid d4-d3.
    assert_eq!(g.turns().collect::<Vec<_>>(), ["d3-e3A", "f4-f3A"]);
    assert_eq!(
        g.movetext[2..],
        [
            Element::Comment("White offers a draw".into()),
            Element::Comment("draw agreed".into())
        ]
    );
    assert_eq!(g.result, Some(GameResult::Draw));
    assert!(g.validate(2).is_valid());
}

#[test]
fn illegal_action_is_located_and_the_next_game_still_imports() {
    let all = games();
    let e = all[2].as_ref().expect_err("game 3 has an illegal capture");
    assert_eq!(e.game, 3);
    assert_eq!((e.at.line, e.at.column), (60, 2));
    match &e.kind {
        ImportErrorKind::Action { action, reason } => {
            assert_eq!(action, "1 Capture A C 3 D 4");
            assert!(
                reason.contains("no legal approach step from c3 to d4"),
                "{reason}"
            );
        }
        other => panic!("unexpected {other:?}"),
    }
    let g = all[3].as_ref().expect("game 4 imports");
    assert_eq!(g.turns().collect::<Vec<_>>(), ["f2-e3A"]);
    assert_eq!(g.result, Some(GameResult::BlackWins));
    assert_eq!(
        g.movetext.last(),
        Some(&Element::Comment("White lost on time".into()))
    );
}

#[test]
fn malformed_records() {
    let cases: [(&str, &str); 7] = [
        ("(;GM[Chess])", "not a Fanorona game: GM[Chess]"),
        ("(;SU[fanorona])", "no GM[Fanorona]"),
        (
            "(;GM[Fanorona];P0[Start P0];P0[Capture A F 2 E 3]",
            "no closing ')'",
        ),
        (
            "(;GM[Fanorona];P0[Start P0];P0[Capture A F 2 E 3",
            "no closing ']'",
        ),
        (
            "(;GM[Fanorona];P0[Start P0];P0[Pickb D 3 0];P0[Dropb E 3])",
            "middle of a turn",
        ),
        ("(;GM[Fanorona];P0[Start P0];P0[Edit])", "Edit actions"),
        (
            "(;GM[Fanorona];P0[Start P0];P1[Capture A D 5 D 4])",
            "Black acts, but it is White's turn",
        ),
    ];
    for (text, message) in cases {
        let all: Vec<_> = BoardspaceReader::new(text.as_bytes()).collect();
        assert_eq!(all.len(), 1, "{text}");
        let e = all[0].as_ref().expect_err(text);
        assert!(e.to_string().contains(message), "{text}: {e}");
    }
    // A game that starts with Black to move gets a position string.
    let text = "(;GM[Fanorona];P1[Start P1];P1[Capture A D 4 E 3];P1[done])";
    let g = BoardspaceReader::new(text.as_bytes())
        .next()
        .expect("a game")
        .expect("imports");
    assert_eq!(
        g.tag("FEN"),
        Some("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b")
    );
    assert!(g.validate(1).is_valid(), "{:?}", g.validate(1).problems);
}
