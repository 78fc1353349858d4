//! `fanorona book build` and `book show` as a user runs them.

#[allow(dead_code, reason = "each test binary uses part of the helpers")]
mod common;

use common::{Dir, fanorona, stderr, stdout};
use fanorona_core::{BoardSize, Position};

fn build(dir: &Dir, name: &str, games: &str, extra: &[&str]) -> String {
    let out_path = dir.path(name);
    let mut args = vec![
        "book",
        "build",
        "--board",
        "5x5",
        "--plies",
        "3",
        "--width",
        "2",
        "--nodes",
        "300",
        "--games",
        games,
        "--game-nodes",
        "200",
        "--out",
        &out_path,
    ];
    args.extend_from_slice(extra);
    let out = fanorona(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("book: "), "{}", stdout(&out));
    std::fs::read_to_string(&out_path).unwrap()
}

#[test]
fn build_is_reproducible_whatever_the_jobs_and_resumes() {
    let dir = Dir::new();
    let a = build(&dir, "a.book", "6", &[]);
    assert!(a.starts_with("fanorona-book 1\n# Opening book: "), "{a}");
    assert!(a.contains("\nboard 5x5\nrules standard\nposition BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w\n"));
    let b = build(&dir, "b.book", "6", &["--jobs", "2"]);
    assert_eq!(a, b);
    // The six games of this build: each counted once on the setup's turns.
    let book = fanorona_ai::book::Book::parse(&a).unwrap();
    let start = Position::start(BoardSize::DIMY);
    let games: u64 = book.entries(&start).iter().map(|e| e.games()).sum();
    assert_eq!(games, 6);
    // Played in two runs through --games-out: the same book.
    let games_out = dir.path("games.fgn");
    build(&dir, "c.book", "4", &["--games-out", &games_out]);
    let text = std::fs::read_to_string(&games_out).unwrap();
    assert_eq!(text.matches("[BookGame ").count(), 4);
    let c = build(
        &dir,
        "c.book",
        "6",
        &["--games-out", &games_out, "--resume"],
    );
    assert_eq!(
        std::fs::read_to_string(&games_out)
            .unwrap()
            .matches("[BookGame ")
            .count(),
        6
    );
    assert_eq!(c, a);
    // Another seed's games are refused.
    let out = fanorona(&[
        "book",
        "build",
        "--board",
        "5x5",
        "--plies",
        "2",
        "--nodes",
        "100",
        "--games",
        "1",
        "--seed",
        "9",
        "--games-out",
        &games_out,
        "--resume",
        "--out",
        &dir.path("d.book"),
    ]);
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("give the same seed"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn build_counts_recorded_games() {
    let dir = Dir::new();
    let fgn = dir.path("g.fgn");
    // A 5x5 game that starts with a turn the tree may not hold: it is added, unscored.
    std::fs::write(&fgn, "[Board \"5x5\"]\n[Result \"0-1\"]\n\n1. c2-c3A 0-1\n").unwrap();
    let out = fanorona(&[
        "book",
        "build",
        "--board",
        "5x5",
        "--plies",
        "1",
        "--nodes",
        "100",
        "--games",
        "0",
        "--records",
        &fgn,
        "--out",
        &dir.path("r.book"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.path("r.book")).unwrap();
    // Black won: a loss for White's c2-c3A.
    assert!(
        text.lines().any(|l| l.starts_with("turn c2-c3A 0 0 1 ")),
        "{text}"
    );
}

#[test]
fn show_prints_the_shipped_books_turns_as_text_and_json() {
    let out = fanorona(&["book", "show"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "position BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\nbook shipped ("
        ),
        "{text}"
    );
    assert!(text.lines().nth(2).unwrap().starts_with("turn "), "{text}");
    let out = fanorona(&["book", "show", "--board", "5x5", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(v["position"], "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w");
    let turns = v["turns"].as_array().unwrap();
    assert!(!turns.is_empty());
    let start = Position::start(BoardSize::DIMY);
    for t in turns {
        assert!(start.is_legal(&start.parse_turn(t["turn"].as_str().unwrap()).unwrap()));
    }
    // Out of the book.
    let out = fanorona(&["book", "show", "9/9/9/9/W1BB5 w"]);
    assert!(
        stdout(&out).ends_with("no book turn here\n"),
        "{}",
        stdout(&out)
    );
    // A bad book file names the file and line.
    let dir = Dir::new();
    let bad = dir.path("bad.book");
    std::fs::write(&bad, "fanorona-book 1\nboard 5x9\n").unwrap();
    let out = fanorona(&["book", "show", "--book", &bad]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("bad.book: line 2: the header has no `rules` line"),
        "{}",
        stderr(&out)
    );
}
