use std::sync::atomic::AtomicBool;

use fanorona_core::record::GameResult;
use fanorona_core::{BoardSize, Game, Position, Rules};

use super::build::{BuildConfig, build_tree, tally};
use super::*;

const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

fn book_text(turns: &str) -> String {
    format!("fanorona-book 1\nboard 5x9\nrules standard\nposition {START}\n{turns}")
}

fn err(text: &str) -> ParseError {
    Book::parse(text).unwrap_err()
}

#[test]
fn reads_entries_with_results_scores_and_searches() {
    let book = Book::parse(&book_text(
        "# comment\nturn d2-e3A 3 1 2 -12 8 20000\nturn f2-e3A 0 0 0 win2 5 900\nturn e2-e3A 1 0 0 - 0 0\n",
    ))
    .unwrap();
    assert_eq!((book.len(), book.turn_count()), (1, 3));
    let start = Position::standard();
    let e = book.entries(&start);
    assert_eq!(e[0].turn.to_string(), "d2-e3A");
    assert_eq!(
        (e[0].wins, e[0].draws, e[0].losses, e[0].games()),
        (3, 1, 2, 6)
    );
    assert_eq!(e[0].practical(), Some(3.5 / 6.0));
    assert_eq!(
        (e[0].score, e[0].depth, e[0].nodes),
        (Some(Score::Cp(-12)), 8, 20000)
    );
    assert_eq!(e[1].score, Some(Score::Win(2)));
    assert_eq!((e[2].score, e[2].practical()), (None, Some(1.0)));
    // The counters of the asked position do not matter; the stones and side to move do.
    let later = Position::from_fen(&format!("{START} 7 12")).unwrap();
    assert_eq!(book.entries(&later).len(), 3);
    let after = start.play(&e[0].turn).unwrap();
    assert!(book.entries(&after).is_empty());
    // Another board or other rules: nothing.
    let other = start
        .with_rules(Rules::STANDARD.with_compulsory_continuation(true))
        .unwrap();
    assert!(book.entries(&other).is_empty());
}

#[test]
fn text_round_trips() {
    let text = book_text("turn d2-e3A 3 1 2 -12 8 20000\nturn f2-e3A 0 0 0 win-3 5 900\n");
    let book = Book::parse(&text).unwrap();
    let again = book.to_text(&["made by hand".to_owned()]);
    assert!(again.starts_with("fanorona-book 1\n# made by hand\nboard 5x9\nrules standard\n"));
    assert_eq!(
        again.lines().skip(2).collect::<Vec<_>>(),
        text.lines().skip(1).collect::<Vec<_>>()
    );
    assert_eq!(Book::parse(&again).unwrap().to_text(&[]), book.to_text(&[]));
}

#[test]
fn errors_say_the_line_and_what() {
    assert_eq!(err("").kind, ParseErrorKind::NotABook);
    assert_eq!(err("opening-book 1\n").kind, ParseErrorKind::NotABook);
    let e = err("fanorona-book 2\nboard 5x9\n");
    assert_eq!((e.line, e.kind), (1, ParseErrorKind::Version("2".into())));
    let e = err(&format!("fanorona-book 1\nboard 5x9\nposition {START}\n"));
    assert_eq!(
        (e.line, e.kind),
        (3, ParseErrorKind::MissingHeader("rules"))
    );
    let e = err("fanorona-book 1\nboard 5x9\nboard 5x5\n");
    assert_eq!(e.line, 3);
    assert!(e.to_string().contains("a second `board`"), "{e}");
    let e = err("fanorona-book 1\nboard 5x9\nrules standard\nturn d2-e3A 0 0 0 - 0 0\n");
    assert_eq!((e.line, e.kind), (4, ParseErrorKind::TurnWithoutPosition));
    // A turn that is not legal at the start (no capture there from a1).
    let e = err(&book_text("turn a1-b2 0 0 0 - 0 0\n"));
    assert_eq!(e.line, 5);
    assert!(matches!(e.kind, ParseErrorKind::Turn(_)), "{e}");
    let e = err(&book_text(
        "turn d2-e3A 0 0 0 - 0 0\nturn d2-e3A 1 0 0 - 0 0\n",
    ));
    assert_eq!(
        (e.line, e.kind),
        (6, ParseErrorKind::DuplicateTurn { first: 5 })
    );
    let e = err(&book_text(&format!("position {START}\n")));
    assert_eq!(
        (e.line, e.kind),
        (5, ParseErrorKind::DuplicatePosition { first: 4 })
    );
    let e = err(&book_text("turn d2-e3A 1 x 0 - 0 0\n"));
    assert_eq!(e.to_string(), "line 5: draws: cannot read \"x\"");
    let e = err(&book_text("turn d2-e3A 1 0 0 - 3 0\n"));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Field { field: "score", .. }
    ));
    let e = err(&book_text("turn d2-e3A 1 0 0 win0 3 0\n"));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Field { field: "score", .. }
    ));
    let e = err(&book_text("turn d2-e3A 1 0 0\n"));
    assert!(matches!(
        e.kind,
        ParseErrorKind::Field { field: "turn", .. }
    ));
    let e = err(&book_text("move d2-e3A\n"));
    assert_eq!(
        (e.line, e.kind),
        (5, ParseErrorKind::UnknownRecord("move".into()))
    );
    let e = err(&book_text(&format!("# {}\n", "x".repeat(MAX_LINE))));
    assert_eq!((e.line, e.kind), (5, ParseErrorKind::TooLong));
    let e = err(
        "fanorona-book 1\nboard 5x9\nrules standard\nposition BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\n",
    );
    assert_eq!(e.line, 4);
    assert!(matches!(e.kind, ParseErrorKind::Position(_)), "{e}");
    let e = err("fanorona-book 1\nboard 5x9\nrules standard\nposition 9/9/9/9/8W b\n");
    assert!(e.to_string().contains("over"), "{e}");
}

#[test]
fn a_header_alone_is_an_empty_book_and_load_names_the_file() {
    let b = Book::parse("fanorona-book 1\nrules standard\nboard 5x5\n").unwrap();
    assert!(b.is_empty());
    assert_eq!(b.size(), BoardSize::DIMY);
    let e = Book::load("/nonexistent/x.book").unwrap_err();
    assert!(matches!(e, LoadError::Io { .. }));
    assert!(e.to_string().starts_with("/nonexistent/x.book: "), "{e}");
    let dir = std::env::temp_dir().join(format!("fanorona-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.book");
    std::fs::write(
        &path,
        "fanorona-book 1\nboard 5x9\nrules standard\nturn x 0 0 0 - 0 0\n",
    )
    .unwrap();
    let e = Book::load(&path).unwrap_err();
    assert!(
        e.to_string()
            .ends_with("bad.book: line 4: a turn before any position"),
        "{e}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A book tampered with in memory (as a corrupt file could never be read): an entry whose turn
/// is not legal in its position, and a position filed under another one's hash (a collision).
#[test]
fn a_corrupt_or_colliding_book_never_yields_an_illegal_turn() {
    let start = Position::standard();
    let a = start.parse_turn("d2-e3A").unwrap();
    let after = start.play(&a).unwrap();
    let reply = after.legal_turns()[0];
    assert!(!start.is_legal(&reply));
    let mut book = Book::parse(&book_text("turn d2-e3A 0 0 0 10 1 10\n")).unwrap();
    // An illegal turn slipped into the start's entries, scored best.
    let mut bad = BookEntry::new(reply);
    bad.score = Some(Score::Cp(500));
    bad.wins = 100;
    book.positions[0].1.push(bad);
    assert_eq!(book.entries(&start).len(), 1);
    for seed in 0..200 {
        assert_eq!(book.pick(&start, seed), Some(a));
    }
    // The position after d2-e3A filed under its own hash, holding the start's entries: the
    // stones differ, so nothing is found for it, and the start is still found.
    book.index.entry(after.zobrist()).or_default().push(0);
    assert!(book.entries(&after).is_empty());
    assert_eq!(book.pick(&after, 1), None);
    // And the start's hash pointing at a position with other stones first.
    let mut other = Book::new(BoardSize::STANDARD, Rules::STANDARD);
    other.insert(&after, BookEntry::new(reply)).unwrap();
    other.index.clear();
    other.index.insert(start.zobrist(), vec![0]);
    assert!(other.entries(&start).is_empty());
    assert_eq!(other.pick(&start, 3), None);
}

#[test]
fn insert_refuses_what_is_not_a_book_turn() {
    let start = Position::standard();
    let mut book = Book::new(BoardSize::STANDARD, Rules::STANDARD);
    let after = start.play(&start.parse_turn("d2-e3A").unwrap()).unwrap();
    let reply = after.legal_turns()[0];
    assert_eq!(
        book.insert(&start, BookEntry::new(reply)),
        Err(InsertError::IllegalTurn)
    );
    let dimy = Position::start(BoardSize::DIMY);
    let t = dimy.legal_turns()[0];
    assert_eq!(
        book.insert(&dimy, BookEntry::new(t)),
        Err(InsertError::OtherGame)
    );
    assert!(book.is_empty());
}

#[test]
fn pick_keeps_to_the_margin_and_weighs_by_results() {
    // Equal scores; d2-e3A won 10 of 10, f2-e3A lost 10 of 10; e2-e3A is 50 cp worse.
    let book = Book::parse(&book_text(
        "turn d2-e3A 10 0 0 0 5 100\nturn f2-e3A 0 0 10 0 5 100\nturn e2-e3A 10 0 0 -50 5 100\n",
    ))
    .unwrap();
    let start = Position::standard();
    let [d, f, e] = ["d2-e3A", "f2-e3A", "e2-e3A"].map(|t| start.parse_turn(t).unwrap());
    let mut counts = [0; 3];
    for seed in 0..2000 {
        let t = book.pick(&start, seed).unwrap();
        assert_eq!(book.pick(&start, seed), Some(t), "reproducible");
        counts[[d, f, e].iter().position(|x| *x == t).unwrap()] += 1;
    }
    // Weights (21/22)² = 0.911 and (1/22)² = 0.0021: f2-e3A about 0.2% of the time.
    assert_eq!(counts[2], 0);
    assert!(counts[1] < 20, "{counts:?}");
    assert!(counts[0] > 1980, "{counts:?}");
    // A wider margin lets e2-e3A in.
    let wide = PickOptions { margin: 60 };
    assert!((0..200).any(|s| book.pick_with(&start, &wide, s) == Some(e)));
    // Unscored turns are chosen only when none is scored, and only with games.
    let book = Book::parse(&book_text(
        "turn d2-e3A 1 0 0 - 0 0\nturn f2-e3A 0 0 0 - 0 0\n",
    ))
    .unwrap();
    assert!((0..100).all(|s| book.pick(&start, s) == Some(d)));
}

#[test]
fn tally_counts_for_the_side_that_played_the_turn() {
    let mut book = Book::parse(&book_text("turn d2-e3A 0 0 0 10 1 10\n")).unwrap();
    let start = Position::standard();
    let d = start.parse_turn("d2-e3A").unwrap();
    let after = start.play(&d).unwrap();
    let reply = after.legal_turns()[0];
    book.insert(&after, BookEntry::new(reply)).unwrap();
    let mut game = Game::default();
    game.play(&d).unwrap();
    game.play(&reply).unwrap();
    // White (who played d2-e3A) wins: a win for it, a loss for Black's reply.
    assert_eq!(tally(&mut book, &game, GameResult::WhiteWins, false), 2);
    assert_eq!(tally(&mut book, &game, GameResult::Draw, false), 2);
    assert_eq!(tally(&mut book, &game, GameResult::Unknown, false), 0);
    let e = book.entries(&start)[0];
    assert_eq!((e.wins, e.draws, e.losses), (1, 1, 0));
    let e = book.entries(&after)[0];
    assert_eq!((e.wins, e.draws, e.losses), (0, 1, 1));
    // A turn the book lacks: added only when asked.
    let mut game = Game::default();
    let f = start.parse_turn("f2-e3A").unwrap();
    game.play(&f).unwrap();
    assert_eq!(tally(&mut book, &game, GameResult::BlackWins, false), 0);
    assert_eq!(tally(&mut book, &game, GameResult::BlackWins, true), 1);
    let e = book
        .entries(&start)
        .into_iter()
        .find(|e| e.turn == f)
        .unwrap();
    assert_eq!((e.wins, e.losses, e.score), (0, 1, None));
}

#[test]
fn a_small_build_is_legal_and_reproducible() {
    let mut config = BuildConfig::new(BoardSize::DIMY, Rules::STANDARD);
    config.plies = 3;
    config.width = 2;
    config.nodes = 300;
    config.jobs = 2;
    let stop = AtomicBool::new(false);
    let book = build_tree(&config, &stop, |_, _| {}).unwrap();
    // The setup, at most 2 replies, at most 4 positions after those: 1 to 7 positions.
    assert!((2..=7).contains(&book.len()), "{}", book.len());
    let start = Position::start(BoardSize::DIMY);
    // Every turn of the setup (one per distinct result) is scored.
    assert_eq!(book.entries(&start).len(), start.unique_turns().len());
    for (pos, entries) in book.iter() {
        for e in entries {
            assert!(pos.is_legal(&e.turn));
            assert!(e.score.is_some() && e.nodes > 0);
        }
    }
    config.jobs = 1;
    let again = build_tree(&config, &stop, |_, _| {}).unwrap();
    assert_eq!(again.to_text(&[]), book.to_text(&[]));
    let mut played = 0;
    super::build::self_play(&book, &config, 0, 2, &stop, |_, game| {
        assert!(game.outcome().is_some());
        played += 1;
    });
    assert_eq!(played, 2);
}

#[test]
fn the_shipped_books_are_read() {
    for size in [BoardSize::STANDARD, BoardSize::DIMY] {
        let book = shipped(size, Rules::STANDARD).expect("shipped");
        assert_eq!(book.size(), size);
        let start = Position::start(size);
        assert!(!book.entries(&start).is_empty(), "{size}");
        assert!(start.is_legal(&book.pick(&start, 1).unwrap()));
        for (pos, entries) in book.iter() {
            assert!(entries.iter().all(|e| pos.is_legal(&e.turn)));
        }
    }
    assert!(shipped(BoardSize::TELO, Rules::STANDARD).is_none());
    assert!(shipped(BoardSize::STANDARD, Rules::VELA).is_none());
}
