//! The FGN reader, writer and validator: token streams, locations, malformed input of every
//! kind, rule checks and round trips.

use fanorona_core::record::{
    Element, GameRecord, GameResult, Location, ProblemKind, ReadError, ReadErrorKind, Reader, Tag,
    Validator, Visitor,
};
use fanorona_core::{Color, EndReason, Game, Outcome, Position, Rules};

/// Logs every callback as a line of text.
#[derive(Default)]
struct Log(Vec<String>);

fn loc(at: Location) -> String {
    format!("{}:{}", at.line, at.column)
}

impl Visitor for Log {
    type Output = Vec<String>;
    fn begin_game(&mut self, game: usize, at: Location) {
        self.0 = vec![format!("begin {game} @{}", loc(at))];
    }
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.0.push(format!("tag {name}={value} @{}", loc(at)));
    }
    fn end_tags(&mut self) -> fanorona_core::record::Control {
        self.0.push("end_tags".into());
        fanorona_core::record::Control::Continue
    }
    fn turn_number(&mut self, number: u32, black: bool, at: Location) {
        self.0.push(format!(
            "number {number}{} @{}",
            if black { "..." } else { "." },
            loc(at)
        ));
    }
    fn turn(&mut self, text: &str, at: Location) {
        self.0.push(format!("turn {text} @{}", loc(at)));
    }
    fn nag(&mut self, nag: u8, at: Location) {
        self.0.push(format!("nag {nag} @{}", loc(at)));
    }
    fn comment(&mut self, text: &str, at: Location) {
        self.0.push(format!("comment {text:?} @{}", loc(at)));
    }
    fn result(&mut self, result: GameResult, at: Location) {
        self.0.push(format!("result {result} @{}", loc(at)));
    }
    fn end_game(&mut self, _end: Location) -> Vec<String> {
        std::mem::take(&mut self.0)
    }
}

/// Every game of `text`: its token log or its error.
fn events(text: &[u8]) -> Vec<Result<Vec<String>, ReadError>> {
    let mut reader = Reader::new(text);
    let mut log = Log::default();
    let mut out = Vec::new();
    loop {
        match reader.read_game(&mut log) {
            Ok(Some(e)) => out.push(Ok(e)),
            Ok(None) => return out,
            Err(e) => out.push(Err(e)),
        }
    }
}

fn records(text: &[u8]) -> Vec<Result<GameRecord, ReadError>> {
    Reader::new(text).records().collect()
}

#[test]
fn token_stream_with_locations() {
    let text = "[Event \"Club \\\"A\\\" \\\\ B\"]\n[White \"Rakoto\"]\n\n1. f2-e3A {centre, \nsharp} d5-d4A $1\n2.g3-f2W 2... c5-d5W 1-0\n";
    let games = events(text.as_bytes());
    assert_eq!(games.len(), 1);
    let log = games[0].as_ref().expect("valid");
    let expected = [
        "begin 1 @1:1",
        "tag Event=Club \"A\" \\ B @1:1",
        "tag White=Rakoto @2:1",
        "end_tags",
        "number 1. @4:1",
        "turn f2-e3A @4:4",
        "comment \"centre, \\nsharp\" @4:11",
        "turn d5-d4A @5:8",
        "nag 1 @5:15",
        "number 2. @6:1",
        "turn g3-f2W @6:3",
        "number 2... @6:10",
        "turn c5-d5W @6:15",
        "result 1-0 @6:22",
    ];
    assert_eq!(log, &expected);
}

#[test]
fn several_games_and_bare_movetext() {
    let text = "1. f2-e3A *\n\n[Event \"b\"]\n\n1. d3-e3W 0-1 1. e2-e3A 1/2-1/2\n[Event \"d\"]\n";
    let games: Vec<GameRecord> = records(text.as_bytes())
        .into_iter()
        .map(|r| r.expect("valid"))
        .collect();
    assert_eq!(games.len(), 4);
    assert!(games[0].tags.is_empty());
    assert_eq!(games[0].result, Some(GameResult::Unknown));
    assert_eq!(games[1].tag("Event"), Some("b"));
    assert_eq!(games[1].result, Some(GameResult::BlackWins));
    assert_eq!(games[2].turns().collect::<Vec<_>>(), ["e2-e3A"]);
    assert_eq!(games[2].result, Some(GameResult::Draw));
    // Tags alone, no movetext and no result: a game of its own.
    assert_eq!(games[3].tag("Event"), Some("d"));
    assert!(games[3].movetext.is_empty());
    assert_eq!(games[3].result, None);
    // The source numbers the games and places them.
    let src = games[1].source.as_ref().expect("read from text");
    assert_eq!((src.game, src.start.line, src.start.column), (2, 3, 1));
}

#[test]
fn a_blank_line_after_tags_separates_games_without_movetext() {
    let text = "[Event \"a\"]\n\n[Event \"b\"]\n[Site \"x\"]\n\n*\n";
    let games: Vec<GameRecord> = records(text.as_bytes())
        .into_iter()
        .map(|r| r.expect("valid"))
        .collect();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].tags.len(), 1);
    assert_eq!(games[1].tags.len(), 2);
    assert_eq!(games[1].result, Some(GameResult::Unknown));
}

#[test]
fn empty_input_and_byte_order_mark() {
    assert!(records(b"").is_empty());
    assert!(records(b"  \n\r\n\t").is_empty());
    let games = records(b"\xEF\xBB\xBF1. f2-e3A *");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].as_ref().expect("valid").turns().count(), 1);
}

/// The error of the first game of `text`, and the records of the games after it.
fn first_error(text: &[u8]) -> (ReadError, Vec<GameRecord>) {
    let mut all = records(text).into_iter();
    let err = all
        .next()
        .expect("a game")
        .expect_err("the first game is malformed");
    let rest = all.map(|r| r.expect("the next games are valid")).collect();
    (err, rest)
}

const NEXT: &str = "\n[Event \"next\"]\n\n1. f2-e3A *\n";

fn assert_next_game_survives(rest: &[GameRecord]) {
    assert_eq!(rest.len(), 1, "the game after the bad one is read");
    assert_eq!(rest[0].tag("Event"), Some("next"));
    assert_eq!(rest[0].turns().collect::<Vec<_>>(), ["f2-e3A"]);
}

#[test]
fn bad_tag_syntax() {
    let cases: [(&str, u64, u64, &str); 7] = [
        ("[Event \"x\"\n", 1, 11, "expected ']'"),
        ("[Event x\"]\n", 1, 8, "expected '\"'"),
        ("[\"x\"]\n", 1, 2, "expected a tag name"),
        ("[Event\"x\"]\n", 1, 7, "expected a space"),
        ("[Event \"a\\nb\"]\n", 1, 10, "bad escape"),
        ("[Event \"open\n", 1, 8, "unterminated tag value"),
        ("[Ev-ent \"x\"]\n", 1, 4, "expected a space"),
    ];
    for (bad, line, column, message) in cases {
        let text = format!("{bad}[Site \"s\"]\n\n1. f2-e3A *\n{NEXT}");
        let (err, rest) = first_error(text.as_bytes());
        assert!(matches!(err.kind, ReadErrorKind::Tag(_)), "{bad:?}: {err}");
        assert_eq!(
            (err.at.line, err.at.column),
            (line, column),
            "{bad:?}: {err}"
        );
        assert!(
            err.message().contains(message),
            "{bad:?}: {}",
            err.message()
        );
        assert_eq!(err.game, 1);
        assert_next_game_survives(&rest);
    }
}

#[test]
fn unterminated_comment() {
    // Up to a line that starts with '[': the next game is still read.
    let text = format!("1. f2-e3A {{never closed\nstill comment\n{NEXT}");
    let (err, rest) = first_error(text.as_bytes());
    assert!(matches!(err.kind, ReadErrorKind::UnterminatedComment));
    assert_eq!((err.at.line, err.at.column), (1, 11));
    assert!(
        err.to_string()
            .starts_with("game 1, line 1:11: unterminated comment")
    );
    assert_next_game_survives(&rest);
    // Up to the end of the input.
    let (err, rest) = first_error(b"1. f2-e3A { no end");
    assert!(matches!(err.kind, ReadErrorKind::UnterminatedComment));
    assert!(rest.is_empty());
}

#[test]
fn bad_movetext_tokens() {
    let cases: [(&str, u64, &str); 8] = [
        ("1. f2-e3 d5-x4 *", 10, "expected a turn such as f2-e3A"),
        ("1. Nf3 *", 4, "expected a turn such as f2-e3A"),
        ("1.5 f2-e3A *", 1, "expected a turn number"),
        ("1. f2-e3A (1... d5-d4A) *", 11, "variations"),
        ("1. f2-e3A! *", 10, "unexpected text \"!\""),
        ("1. f2-e3A ; comment\n*", 11, "unexpected text \";\""),
        ("1. f2-e3A $300 *", 11, "a NAG is"),
        ("0. f2-e3A *", 1, "a turn number is a number from 1"),
    ];
    for (bad, column, message) in cases {
        let text = format!("{bad}\n{NEXT}");
        let (err, rest) = first_error(text.as_bytes());
        assert_eq!((err.at.line, err.at.column), (1, column), "{bad:?}: {err}");
        assert!(
            err.message().contains(message),
            "{bad:?}: {}",
            err.message()
        );
        assert_next_game_survives(&rest);
    }
}

#[test]
fn truncated_file() {
    for cut in ["[Event \"trunc", "[Event \"x\"]\n\n1. f2-e3A {half", "[Eve"] {
        let games = records(cut.as_bytes());
        assert_eq!(games.len(), 1, "{cut:?}");
        assert!(games[0].is_err(), "{cut:?}");
    }
    // Cut between tokens: a game without a result token, which FGN accepts.
    let games = records(b"[Event \"x\"]\n\n1. f2-e3A d5-");
    let err = games[0].as_ref().expect_err("a half turn is an error");
    assert!(err.message().contains("expected a turn"), "{err}");
}

#[test]
fn binary_garbage() {
    let mut text = vec![0u8, 1, 2, 0xFF, 0xFE, b'{', 0x80, b'}', 7, 200];
    text.extend_from_slice(NEXT.as_bytes());
    let all = records(&text);
    assert!(all[0].is_err());
    let last = all
        .last()
        .expect("games")
        .as_ref()
        .expect("the last game is valid");
    assert_eq!(last.tag("Event"), Some("next"));
}

#[test]
fn invalid_utf8_in_tags_and_comments() {
    let text = b"[White \"Ra\xC3koto\"]\n\n*\n";
    let (err, _) = first_error(text);
    assert!(
        matches!(err.kind, ReadErrorKind::InvalidUtf8("the tag value")),
        "{err}"
    );
    let mut text = b"1. f2-e3A {bad \xFF byte} *\n".to_vec();
    text.extend_from_slice(NEXT.as_bytes());
    let (err, rest) = first_error(&text);
    assert!(
        matches!(err.kind, ReadErrorKind::InvalidUtf8("the comment")),
        "{err}"
    );
    assert_eq!((err.at.line, err.at.column), (1, 11));
    assert_next_game_survives(&rest);
    // Valid UTF-8 is kept, and columns count characters.
    let games = records("[White \"Rânaivo\"]\n\n{é} 1. f2-e3A *".as_bytes());
    let g = games[0].as_ref().expect("valid");
    assert_eq!(g.tag("White"), Some("Rânaivo"));
    let src = g.source.as_ref().expect("source");
    assert_eq!(src.movetext[1].column, 8);
}

#[test]
fn huge_lines_are_capped() {
    // A 2 MiB comment and a 1,000-byte turn token on one line.
    let mut text = String::from("1. f2-e3A {");
    text.push_str(&"x".repeat(2 << 20));
    text.push_str("} *\n1. ");
    text.push_str(&"a1".repeat(500));
    text.push_str(" *\n[Event \"x\"]\n[Site \"");
    text.push_str(&"y".repeat(70_000));
    text.push_str("\"]\n\n*");
    text.push_str(NEXT);
    let all = records(text.as_bytes());
    assert_eq!(all.len(), 4);
    let e0 = all[0].as_ref().expect_err("comment too long");
    assert!(
        matches!(
            e0.kind,
            ReadErrorKind::TooLong {
                what: "comment",
                ..
            }
        ),
        "{e0}"
    );
    assert!(e0.text.len() <= 40);
    let e1 = all[1].as_ref().expect_err("turn too long");
    assert!(
        matches!(e1.kind, ReadErrorKind::TooLong { what: "turn", .. }),
        "{e1}"
    );
    let e2 = all[2].as_ref().expect_err("tag value too long");
    assert!(
        matches!(
            e2.kind,
            ReadErrorKind::TooLong {
                what: "tag value",
                ..
            }
        ),
        "{e2}"
    );
    assert_next_game_survives(&[all[3].as_ref().expect("valid").clone()]);
}

fn validate(text: &str) -> Vec<fanorona_core::record::GameReport> {
    let mut reader = Reader::new(text.as_bytes());
    let mut v = Validator::new();
    let mut out = Vec::new();
    while let Some(r) = reader.read_game(&mut v).expect("syntactically valid") {
        out.push(r);
    }
    out
}

#[test]
fn valid_games() {
    let reports =
        validate("[Event \"x\"]\n[Result \"*\"]\n\n1. f2-e3A d5-d4A 2. g3-f2W *\n\n1. d3-e3W *\n");
    assert_eq!(reports.len(), 2);
    assert!(reports.iter().all(|r| r.is_valid()), "{reports:?}");
    assert_eq!((reports[0].turns, reports[1].turns), (3, 1));
    assert_eq!(reports[0].outcome, None);
}

#[test]
fn illegal_turn_lists_the_legal_ones() {
    let reports = validate("[Event \"x\"]\n\n1. f2-e3A d5-d4A 2. d2-d1W *\n");
    let p = &reports[0].problems[0];
    assert_eq!(p.kind, ProblemKind::Illegal);
    assert_eq!((p.at.line, p.at.column), (3, 21));
    assert_eq!(p.turn, Some((2, Color::White)));
    assert_eq!(p.text, "d2-d1W");
    let pos = Position::standard()
        .play(&Position::standard().parse_turn("f2-e3A").expect("legal"))
        .unwrap();
    let pos = pos.play(&pos.parse_turn("d5-d4A").expect("legal")).unwrap();
    let legal: Vec<String> = pos.legal_turns().iter().map(ToString::to_string).collect();
    assert_eq!(p.legal, legal);
    assert!(p.legal.contains(&"g3-f2W".to_owned()));
    let line = p.to_string();
    assert!(
        line.starts_with("turn 2 (White): illegal turn \"d2-d1W\": "),
        "{line}"
    );
    assert!(line.contains("; legal: "), "{line}");
    // The rest of the game is not checked: one problem only.
    assert_eq!(reports[0].problems.len(), 1);
    assert_eq!(reports[0].turns, 2);
}

#[test]
fn ambiguous_and_off_board_turns() {
    let reports = validate("1. d3-e3 *\n\n[Variant \"Fanoron-Dimy\"]\n\n1. f2-e3A *\n");
    assert_eq!(reports[0].problems[0].kind, ProblemKind::Ambiguous);
    assert!(reports[0].problems[0].message.contains("d3-e3A or d3-e3W"));
    // f2 does not exist on 5x5.
    assert_eq!(reports[1].problems[0].kind, ProblemKind::Syntax);
    assert!(
        reports[1].problems[0]
            .message
            .contains("a point on the board")
    );
}

#[test]
fn turn_numbers_are_checked() {
    let reports = validate("1. f2-e3A 2... d5-d4A 3. g3-f2W *\n");
    let kinds: Vec<_> = reports[0]
        .problems
        .iter()
        .map(|p| (p.kind, p.text.as_str(), p.at.column))
        .collect();
    assert_eq!(
        kinds,
        [
            (ProblemKind::TurnNumber, "2...", 11),
            (ProblemKind::TurnNumber, "3.", 23)
        ]
    );
    // Turn numbers follow a FEN start: Black to move in turn 7.
    let fen = "[FEN \"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b 0 7\"]\n\n7... d5-e3A *";
    let r = validate(fen);
    assert!(!r[0].is_valid());
    assert_eq!(r[0].problems[0].kind, ProblemKind::Illegal);
    let fen = "[FEN \"BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b 0 7\"]\n\n7... d4-e3A 8. d3-d4A *";
    let r = validate(fen);
    assert!(r[0].is_valid(), "{:?}", r[0].problems);
}

#[test]
fn results_are_checked() {
    // The token disagrees with the tag.
    let r = validate("[Result \"0-1\"]\n\n1. f2-e3A 1-0\n");
    assert_eq!(r[0].problems[0].kind, ProblemKind::Result);
    assert_eq!(r[0].problems[0].at.line, 3);
    // 3x3: Black captures White's last stone, so Black wins; "1-0" contradicts, "0-1" and
    // "*" are fine, and the tag alone is checked when there is no token.
    let start = "[FEN \"B2/3/W2 b\"]\n\n1... a3-a2A";
    let r = validate(&format!("{start} 1-0"));
    assert_eq!(r[0].problems.len(), 1);
    assert_eq!(r[0].problems[0].kind, ProblemKind::Result);
    assert!(
        r[0].problems[0]
            .message
            .contains("contradicts the final position: Black wins (all stones captured)")
    );
    assert_eq!(
        r[0].outcome,
        Some(Outcome::win(Color::Black, EndReason::NoStones))
    );
    assert!(validate(&format!("{start} 0-1"))[0].is_valid());
    assert!(validate(&format!("{start} *"))[0].is_valid());
    let r = validate("[Result \"1/2-1/2\"]\n[FEN \"B2/3/W2 b\"]\n\n1... a3-a2A\n");
    assert_eq!(r[0].problems[0].kind, ProblemKind::Result);
    // A decisive result in an undecided position: a resignation.
    assert!(validate("1. f2-e3A 0-1")[0].is_valid());
    // A turn after the end of the game.
    let r = validate("[FEN \"B2/3/W2 b\"]\n\n1... a3-a2A 2. a1-b1 0-1");
    assert_eq!(r[0].problems[0].kind, ProblemKind::Illegal);
    assert!(
        r[0].problems[0]
            .message
            .contains("the game is already over")
    );
}

#[test]
fn bad_tags() {
    let cases = [
        ("[Variant \"Fanoron-Fito\"]", "unknown variant"),
        ("[Board \"4x4\"]", "unsupported board size 4x4"),
        (
            "[Variant \"Fanoron-Dimy\"]\n[Board \"5x9\"]",
            "does not match variant",
        ),
        (
            "[Board \"5x5\"]\n[FEN \"BBB/B1W/WWW w\"]",
            "on a 3x3 board, the game on 5x5",
        ),
        ("[FEN \"BBB/B1X/WWW w\"]", "'X' is not W, B or a digit"),
        (
            "[Rules \"stuck=maybe\"]",
            "rule option stuck takes loses or draws",
        ),
        ("[Date \"18 May 2024\"]", "expected YYYY.MM.DD"),
        ("[Result \"2-0\"]", "is not a result"),
        ("[White \"a\"]\n[White \"b\"]", "repeated"),
    ];
    for (tags, message) in cases {
        let r = validate(&format!("{tags}\n\n*\n"));
        assert_eq!(r[0].problems.len(), 1, "{tags}: {:?}", r[0].problems);
        let p = &r[0].problems[0];
        assert_eq!(p.kind, ProblemKind::Tag, "{tags}");
        assert!(p.message.contains(message), "{tags}: {}", p.message);
    }
    // Known values are accepted, unknown tags are kept and ignored.
    let ok = "[Variant \"fanorona-3x3\"]\n[Board \"3x3\"]\n[Rules \"stuck=draws\"]\n[Date \"2024.??.??\"]\n[Opening \"x\"]\n[Opening \"y\"]\n\n1. c1-b2A *\n";
    let r = validate(ok);
    assert!(r[0].is_valid(), "{:?}", r[0].problems);
}

/// Marsaglia's xorshift64, for reproducible random games.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random legal game under `rules` and its record (numbered, with a comment now and then).
fn random_game(rng: &mut XorShift, rules: Rules) -> (Game, GameRecord) {
    let mut game = Game::new(
        Position::start_with(fanorona_core::BoardSize::STANDARD, rules).expect("a capture game"),
    );
    let mut movetext = Vec::new();
    while game.outcome().is_none() && game.turns().len() < 300 {
        let turns = game.position().legal_turns();
        let turn = turns[(rng.next() % turns.len() as u64) as usize];
        game.play(&turn).expect("legal");
        movetext.push(Element::Turn(turn.to_string()));
        if rng.next().is_multiple_of(10) {
            movetext.push(Element::Comment(format!(
                " after {} turns ",
                game.turns().len()
            )));
        }
    }
    let result = game
        .outcome()
        .map_or(GameResult::Unknown, |o| GameResult::from_outcome(&o));
    let mut tags = vec![Tag {
        name: "Result".into(),
        value: result.as_str().into(),
    }];
    if rules != Rules::STANDARD {
        tags.push(Tag {
            name: "Rules".into(),
            value: rules.to_string(),
        });
    }
    let record = GameRecord::new(tags, movetext, Some(result));
    (game, record)
}

#[test]
fn random_games_validate_and_round_trip() {
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);
    let all_rules = [
        Rules::STANDARD,
        "repetition=2,no-capture-limit=6".parse().expect("rules"),
        "stuck=draws,opening-restriction".parse().expect("rules"),
        "compulsory-continuation,repetition=off,no-capture-limit=off"
            .parse()
            .expect("rules"),
    ];
    let mut text = String::new();
    let mut expected = Vec::new();
    for i in 0..200 {
        let (game, record) = random_game(&mut rng, all_rules[i % all_rules.len()]);
        let written = record.to_fgn().expect("writable");
        // Record -> text -> record is the same record, and text -> record -> text the same text.
        let back = Reader::new(written.as_bytes())
            .read_record()
            .expect("readable")
            .expect("a game");
        assert_eq!(back, record);
        assert_eq!(back.to_fgn().expect("writable"), written);
        assert!(
            written.lines().all(|l| l.chars().count() <= 80),
            "{written}"
        );
        text.push_str(&written);
        expected.push(game);
    }
    // The validator replays them all, and its outcome is the Game's.
    let reports = validate(&text);
    assert_eq!(reports.len(), expected.len());
    for (report, game) in reports.iter().zip(&expected) {
        assert!(
            report.is_valid(),
            "game {}: {:?}",
            report.game,
            report.problems
        );
        assert_eq!(report.turns, game.turns().len());
        assert_eq!(report.outcome, game.outcome(), "game {}", report.game);
    }
    // And `replay` gives back the game itself.
    let record = Reader::new(text.as_bytes())
        .read_record()
        .expect("readable")
        .expect("a game");
    let (game, report) = record.replay();
    assert!(report.is_valid());
    assert_eq!(game.expect("replayed").turns(), expected[0].turns());
}

#[test]
fn writer_refuses_what_fgn_cannot_hold() {
    use fanorona_core::record::{FgnWriter, WriteError};
    let mut r = GameRecord::default();
    assert!(matches!(r.to_fgn(), Err(WriteError::Empty)));
    r.result = Some(GameResult::Unknown);
    assert_eq!(r.to_fgn().expect("writable"), "*\n\n");
    r.movetext.push(Element::Comment("a } brace".into()));
    assert!(matches!(r.to_fgn(), Err(WriteError::Comment { index: 0 })));
    r.movetext[0] = Element::Comment("x\n[Event".into());
    assert!(matches!(r.to_fgn(), Err(WriteError::Comment { index: 0 })));
    r.movetext[0] = Element::Turn("f2 e3".into());
    assert!(matches!(r.to_fgn(), Err(WriteError::Turn { index: 0, .. })));
    r.movetext.clear();
    r.set_tag("Bad Name", "x");
    assert!(matches!(r.to_fgn(), Err(WriteError::TagName(_))));
    r.tags.clear();
    r.set_tag("Event", "two\nlines");
    assert!(matches!(r.to_fgn(), Err(WriteError::TagValue { .. })));
    // Two games that would merge.
    let open = GameRecord::new(Vec::new(), vec![Element::Turn("f2-e3A".into())], None);
    let mut w = FgnWriter::new(Vec::new());
    w.write(&open).expect("first");
    assert!(matches!(w.write(&open), Err(WriteError::WouldMerge)));
}

#[test]
fn canonical_layout() {
    let text = "[Event   \"x\"]   [Site \"y\"]\n1.f2-e3A    {a  b}\n\n d5-d4A $3 1-0";
    let record = Reader::new(text.as_bytes())
        .read_record()
        .expect("valid")
        .expect("a game");
    assert_eq!(
        record.to_fgn().expect("writable"),
        "[Event \"x\"]\n[Site \"y\"]\n\n1. f2-e3A {a  b} 1... d5-d4A $3 1-0\n\n"
    );
    // Long games wrap before column 80 and keep each number with its turn.
    let mut long = String::new();
    let mut game = Game::default();
    let mut rng = XorShift(99);
    for _ in 0..40 {
        if game.outcome().is_some() {
            break;
        }
        let turns = game.position().legal_turns();
        let t = turns[(rng.next() % turns.len() as u64) as usize];
        game.play(&t).expect("legal");
        long.push_str(&format!("{t} "));
    }
    long.push('*');
    let record = Reader::new(long.as_bytes())
        .read_record()
        .expect("valid")
        .expect("a game");
    let out = record.to_fgn().expect("writable");
    for line in out.lines() {
        assert!(line.len() <= 80, "{line}");
        assert!(
            !line.ends_with('.'),
            "a number is kept with its turn: {line}"
        );
    }
}

#[test]
fn skipping_movetext_still_finds_the_game_end() {
    struct TagsOnly(Vec<String>);
    impl Visitor for TagsOnly {
        type Output = Vec<String>;
        fn tag(&mut self, name: &str, _value: &str, _at: Location) {
            self.0.push(name.to_owned());
        }
        fn end_tags(&mut self) -> fanorona_core::record::Control {
            fanorona_core::record::Control::SkipMovetext
        }
        fn turn(&mut self, _text: &str, _at: Location) {
            panic!("movetext was skipped");
        }
        fn end_game(&mut self, _end: Location) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }
    let text = "[A \"1\"]\n\n1. f2-e3A {[not a tag} *\n[B \"2\"]\n\n1. d3-e3W 1-0\n";
    let mut reader = Reader::new(text.as_bytes());
    let mut v = TagsOnly(Vec::new());
    assert_eq!(
        reader.read_game(&mut v).expect("ok"),
        Some(vec!["A".to_owned()])
    );
    assert_eq!(
        reader.read_game(&mut v).expect("ok"),
        Some(vec!["B".to_owned()])
    );
    assert_eq!(reader.read_game(&mut v).expect("ok"), None);
}

#[test]
fn records_keep_their_turn_numbers_for_validation() {
    let record = Reader::new(&b"1. f2-e3A 3... d5-d4A *"[..])
        .read_record()
        .expect("valid")
        .expect("a game");
    let report = record.validate(7);
    assert_eq!(report.game, 1, "the source's number wins");
    assert_eq!(report.problems.len(), 1);
    assert_eq!(report.problems[0].kind, ProblemKind::TurnNumber);
    assert_eq!(report.problems[0].at.column, 11);
    // A record made by a program has no numbers to check, and no source.
    let mut plain = record.clone();
    plain.source = None;
    let report = plain.validate(7);
    assert!(report.is_valid());
    assert_eq!(report.game, 7);
}
