//! Tests of the puzzle types, the format and the judge.

use fanorona_core::{BoardSize, Position, Step};

use super::*;

/// A chain puzzle (h6 of the shipped set): White's h2 takes g3... by approach, then f3 by
/// withdrawal... a chain of three steps.
const CHAIN: &str = "fanorona-puzzles 1\n\
    h6;3B1B1B1/5B1W1/7B1/7WW/1W5WW w 0 7;h2-g3A-f3W-f4A;tactic 6;chain;1040\n";

fn chain() -> Puzzle {
    PuzzleSet::parse(CHAIN).expect("parses").puzzles()[0].clone()
}

fn steps(p: &Puzzle, text: &str) -> Vec<Step> {
    p.position()
        .parse_turn(text)
        .expect("legal")
        .steps()
        .collect()
}

#[test]
fn judge_a_chain_step_by_step() {
    let p = chain();
    let full = steps(&p, "h2-g3A-f3W-f4A");
    assert_eq!(p.judge(&[], false), Verdict::Continue);
    assert_eq!(p.judge(&[], true), Verdict::Wrong);
    assert_eq!(p.judge(&full[..1], false), Verdict::Continue);
    assert_eq!(p.judge(&full[..2], false), Verdict::Continue);
    // Stopping the chain early is wrong.
    assert_eq!(p.judge(&full[..1], true), Verdict::Wrong);
    assert_eq!(p.judge(&full[..2], true), Verdict::Wrong);
    assert_eq!(p.judge(&full, true), Verdict::Solved);
    // Another first step is wrong at once.
    let other = p
        .position()
        .legal_turns()
        .iter()
        .find(|t| t.steps().next() != Some(full[0]))
        .copied()
        .expect("another family");
    assert_eq!(
        p.judge(&other.steps().collect::<Vec<_>>()[..1], false),
        Verdict::Wrong
    );
}

#[test]
fn judge_solved_when_the_turn_cannot_go_on() {
    // e4-d4A, e4-d4A-d5W and e4-d4A-d5W-c5A all win; the longest cannot go on.
    let set = PuzzleSet::parse(
        "fanorona-puzzles 1\nh7;BB5BB/BBB1W4/3B4W/6WWW/1W7 w 0 6;\
         e4-d4A e4-d4A-d5W e4-d4A-d5W-c5A;tactic 6;;960\n",
    )
    .expect("parses");
    let p = set.get("h7").expect("h7");
    assert_eq!(p.solution().len(), 3);
    let long = steps(p, "e4-d4A-d5W-c5A");
    assert_eq!(p.judge(&long[..1], true), Verdict::Solved);
    assert_eq!(p.judge(&long[..1], false), Verdict::Continue);
    assert_eq!(p.judge(&long, false), Verdict::Solved);
}

#[test]
fn the_format_round_trips() {
    let set = shipped();
    assert!(!set.is_empty());
    let text = set.to_string();
    assert!(text.starts_with("fanorona-puzzles 1\n"));
    let again: PuzzleSet = text.parse().expect("reparses");
    assert_eq!(again, set);
    // Windows line ends and blank lines and comments anywhere.
    let crlf = format!("# c\r\n\r\n{}", CHAIN.replace('\n', "\r\n"));
    assert_eq!(
        PuzzleSet::parse(&crlf).expect("crlf"),
        PuzzleSet::parse(CHAIN).expect("lf")
    );
}

fn error(text: &str) -> ParseError {
    PuzzleSet::parse(text).expect_err("must fail")
}

#[test]
fn parse_errors_say_where() {
    let e = error("");
    assert!(matches!(e.kind, ParseErrorKind::Header(_)));
    let e = error("# only\nfanorona-puzzles 2\n");
    assert_eq!((e.line, e.column), (2, 1));
    let h = "fanorona-puzzles 1\n";
    let e = error(&format!("{h}a;b;c\n"));
    assert_eq!(
        (e.line, e.column, e.kind),
        (2, 1, ParseErrorKind::FieldCount(3))
    );
    let fen = "3B1B1B1/5B1W1/7B1/7WW/1W5WW w 0 7";
    // Column of the second solution word: "x;" is 2, the position, ";" then the turns.
    let line = format!("x;{fen};h2-g3A zz;tactic 6;;1000");
    let e = error(&format!("{h}{line}\n"));
    assert_eq!(e.column, line.find("zz").unwrap() + 1);
    assert!(matches!(e.kind, ParseErrorKind::Turn(_)), "{e}");
    let line = format!("x; {fen} ;h2-g3A;tactic 6;chain twist;1000");
    let e = error(&format!("{h}{line}\n"));
    assert_eq!(e.column, line.find("twist").unwrap() + 1);
    assert!(e.to_string().contains("\"twist\" is not a theme"), "{e}");
    let line = format!("x;{fen};h2-g3A;tactic 0;;1000");
    let e = error(&format!("{h}{line}\n"));
    assert!(matches!(e.kind, ParseErrorKind::Kind(_)));
    assert_eq!(e.column, line.find("tactic").unwrap() + 1);
    let line = format!("x;{fen};h2-g3A;win 2;;99");
    let e = error(&format!("{h}{line}\n"));
    assert_eq!(e.kind, ParseErrorKind::Puzzle(PuzzleError::BadRating(99)));
    let line = format!("x;{fen};h2-g3A;win 2;;abc");
    assert!(matches!(
        error(&format!("{h}{line}\n")).kind,
        ParseErrorKind::Rating(_)
    ));
    let line = format!("x y;{fen};h2-g3A;win 2;;1000");
    assert!(matches!(
        error(&format!("{h}{line}\n")).kind,
        ParseErrorKind::Puzzle(PuzzleError::BadId(_))
    ));
    // Two families in one solution.
    let line = format!("x;{fen};h2-g3A g2-g3A;win 2;;1000");
    let e = error(&format!("{h}{line}\n"));
    assert!(
        matches!(
            e.kind,
            ParseErrorKind::Turn(_) | ParseErrorKind::Puzzle(PuzzleError::NotOneFamily { .. })
        ),
        "{e}"
    );
    let line = format!("x;{fen};h2-g3A h2-g3A;win 2;;1000");
    let e = error(&format!("{h}{line}\n"));
    assert!(
        matches!(
            e.kind,
            ParseErrorKind::Puzzle(PuzzleError::DuplicateTurn(_))
        ),
        "{e}"
    );
    let line = format!("x;{fen};;win 2;;1000");
    assert_eq!(
        error(&format!("{h}{line}\n")).kind,
        ParseErrorKind::Puzzle(PuzzleError::NoSolution)
    );
    let line = format!("x;{fen};h2-g3A;win 2;;1000");
    let e = error(&format!("{h}{line}\n{line}\n"));
    assert_eq!(
        (e.line, e.kind),
        (3, ParseErrorKind::DuplicateId("x".into()))
    );
    // Fanoron-Telo has no puzzles.
    let e = error(&format!("{h}x;3/1W1/3 b telo;a1;win 1;;1000\n"));
    assert!(
        matches!(e.kind, ParseErrorKind::Puzzle(PuzzleError::Telo)),
        "{e}"
    );
    // Never a panic on junk.
    for junk in [
        "fanorona-puzzles 1\n;;;;;\n",
        "fanorona-puzzles 1\n\u{fffd};é;;;;\n",
    ] {
        assert!(PuzzleSet::parse(junk).is_err());
    }
}

#[test]
fn filters_and_the_daily_puzzle() {
    let set = shipped();
    let n = set.len();
    assert_eq!(set.filter(None, None).count(), n);
    assert!(
        set.filter(Some(BoardSize::STANDARD), Some(Theme::Chain))
            .all(|p| p.has_theme(Theme::Chain) && p.size() == BoardSize::STANDARD)
    );
    assert!(
        set.filter(Some(BoardSize::STANDARD), Some(Theme::Chain))
            .count()
            > 0
    );
    let day = day_of_date(2026, 12, 2).expect("a date");
    let a = set.daily(day, None).expect("a puzzle").id().to_owned();
    assert_eq!(set.daily(day, None).expect("a puzzle").id(), a);
    // Different days pick different puzzles, not always the same one.
    let ids: std::collections::HashSet<&str> = (0..60)
        .filter_map(|d| set.daily(day + d, None))
        .map(Puzzle::id)
        .collect();
    assert!(ids.len() > 1);
    assert!(
        set.daily(day, Some(BoardSize::new(7, 7).expect("7x7")))
            .is_none()
    );
}

#[test]
fn days_of_dates() {
    // Independent values: 2000-01-01 is day 10957 (30 years, 7 of them leap).
    assert_eq!(day_of_date(2000, 1, 1), Some(10_957));
    assert_eq!(day_of_date(1969, 12, 31), Some(-1));
    assert_eq!(day_of_date(2024, 2, 29), Some(19_782));
    assert_eq!(day_of_date(2024, 13, 1), None);
    let t = std::time::UNIX_EPOCH + std::time::Duration::from_secs(10_957 * 86_400 + 3600);
    assert_eq!(day_number(t), 10_957);
}

#[test]
fn themes_parse_and_print() {
    for t in Theme::ALL {
        assert_eq!(t.to_string().parse::<Theme>(), Ok(t));
    }
    assert!("Chain".parse::<Theme>().is_err());
}

#[test]
fn a_puzzle_must_be_one_family_of_legal_turns() {
    let pos = Position::standard();
    let a = pos.parse_turn("d3-e3W").unwrap();
    let b = pos.parse_turn("f2-e3A").unwrap();
    let kind = PuzzleKind::Tactic { depth: 2 };
    assert!(matches!(
        Puzzle::new("x", pos, vec![a, b], kind, vec![], 1500),
        Err(PuzzleError::NotOneFamily { .. })
    ));
    let other = Position::from_fen("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w").unwrap();
    let c = other.parse_turn("c2-c3A").unwrap();
    assert!(matches!(
        Puzzle::new("x", pos, vec![c], kind, vec![], 1500),
        Err(PuzzleError::IllegalTurn(_))
    ));
    assert!(
        Puzzle::new(
            "x",
            pos,
            vec![a],
            PuzzleKind::WinIn { turns: 0 },
            vec![],
            1500
        )
        .is_err()
    );
}
