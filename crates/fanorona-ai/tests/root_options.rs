//! `searchmoves` and `MultiPV` at the search root: [`SearchOptions::root_turns`] and
//! [`SearchOptions::multipv`].

use std::sync::atomic::AtomicBool;

use fanorona_ai::{Info, Level, Limits, Score, SearchError, SearchOptions, Searcher};
use fanorona_core::{Game, Position, Turn};

fn game(fen: &str) -> Game {
    Game::new(Position::from_fen(fen).unwrap())
}

fn turn(game: &Game, text: &str) -> Turn {
    game.position().parse_turn(text).unwrap()
}

fn search(game: &Game, limits: Limits, options: &SearchOptions) -> (Vec<Info>, Turn) {
    let mut infos = Vec::new();
    let r = Searcher::new(1)
        .search(game, &limits, options, &AtomicBool::new(false), |i| {
            infos.push(i.clone());
        })
        .unwrap();
    (infos, r.best)
}

/// Orders scores: a nearer win first, a later loss before a sooner one.
fn rank(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Win(n) if n > 0 => 1_000_000_000 - i64::from(n),
        Score::Win(n) => -1_000_000_000 - i64::from(n),
    }
}

#[test]
fn root_turns_restrict_the_answer_and_every_line() {
    // White a1 takes both black stones (c1, c3) with a1-b2A-a3W, a win in one; a1-b1A and
    // a1-b2A take one each. Restricted to a1-b1A, the engine must answer it.
    let g = game("9/9/2B6/9/W1B6 w");
    let all = g.position().legal_turns();
    assert_eq!(all.len(), 3, "a1-b2A, a1-b2A-a3W, a1-b1A");
    let other = turn(&g, "a1-b1A");
    let options = SearchOptions::default().with_root_turns(vec![other]);
    let (infos, best) = search(&g, Limits::depth(3), &options);
    assert_eq!(best, other);
    assert_eq!(infos.len(), 3);
    assert!(infos.iter().all(|i| i.pv[0] == other && i.multipv == 1));
    assert!(infos.iter().all(|i| i.score != Score::Win(1)));
    // Unrestricted, it takes the win.
    let (_, best) = search(&g, Limits::depth(3), &SearchOptions::default());
    assert_eq!(best, turn(&g, "a1-b2A-a3W"));
}

#[test]
fn root_turns_that_are_not_legal_are_left_out_or_an_error() {
    let start = Game::default();
    let legal = turn(&start, "f2-e3A");
    // A turn of another position: b2-c2 from a position where it is legal.
    let elsewhere = game("9/9/9/9/1W6B w");
    let foreign = turn(&elsewhere, "b1-c1");
    assert!(!start.position().is_legal(&foreign));
    let options = SearchOptions::default().with_root_turns(vec![foreign, legal]);
    let (_, best) = search(&start, Limits::depth(2), &options);
    assert_eq!(best, legal);
    let only_foreign = SearchOptions::default().with_root_turns(vec![foreign]);
    let err = Searcher::new(1)
        .search(
            &start,
            &Limits::depth(2),
            &only_foreign,
            &AtomicBool::new(false),
            |_| {},
        )
        .unwrap_err();
    assert_eq!(err, SearchError::NoRootTurn);
}

#[test]
fn multipv_reports_the_best_lines_in_order_after_each_iteration() {
    let g = Game::default();
    let options = SearchOptions::default().with_multipv(3);
    let (infos, best) = search(&g, Limits::depth(4), &options);
    // Four iterations of three lines each, numbered 1, 2, 3.
    assert_eq!(infos.len(), 12);
    for (n, chunk) in infos.chunks(3).enumerate() {
        let depth = n as u32 + 1;
        assert!(chunk.iter().all(|i| i.depth == depth));
        assert_eq!(
            chunk.iter().map(|i| i.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        // Three different root turns, each line legal from the root, best first.
        let firsts: Vec<Turn> = chunk.iter().map(|i| i.pv[0]).collect();
        assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
        for i in chunk {
            let mut replay = g.clone();
            for t in &i.pv {
                replay.play(t).unwrap();
            }
        }
        assert!(rank(chunk[0].score) >= rank(chunk[1].score));
        assert!(rank(chunk[1].score) >= rank(chunk[2].score));
    }
    assert_eq!(infos[9].pv[0], best);
}

#[test]
fn multipv_scores_are_the_exact_scores_of_the_root_turns() {
    // Every root turn searched alone (a fresh searcher restricted to it) scores the same as
    // the line that turn gets in a search of all lines.
    let g = game("9/9/2B6/9/W1B6 w");
    let options = SearchOptions::default().with_multipv(9);
    let (infos, _) = search(&g, Limits::depth(3), &options);
    let last: Vec<&Info> = infos.iter().filter(|i| i.depth == 3).collect();
    // More lines asked than root turns: one line per turn.
    assert_eq!(last.len(), 3);
    assert_eq!(last[0].score, Score::Win(1));
    assert_eq!(last[0].pv[0], turn(&g, "a1-b2A-a3W"));
    for line in last {
        let alone = SearchOptions::default().with_root_turns(vec![line.pv[0]]);
        let (alone, _) = search(&g, Limits::depth(3), &alone);
        assert_eq!(alone.last().unwrap().score, line.score, "{}", line.pv[0]);
    }
}

#[test]
fn a_mate_limit_stops_at_the_first_win_in_time_and_bounds_the_depth() {
    // a1-b2A-a3W wins at once: `mate 3` stops after depth 1 instead of going to depth 5.
    let g = game("9/9/2B6/9/W1B6 w");
    let (infos, best) = search(&g, Limits::mate(3), &SearchOptions::default());
    assert_eq!(best, turn(&g, "a1-b2A-a3W"));
    assert_eq!(infos.len(), 1);
    assert_eq!(infos[0].score, Score::Win(1));
    // No win in the opening: `mate 2` searches 3 plies and stops.
    let (infos, _) = search(&Game::default(), Limits::mate(2), &SearchOptions::default());
    assert_eq!(infos.last().unwrap().depth, 3);
}

#[test]
fn levels_keep_the_root_turns() {
    let g = Game::default();
    let only = turn(&g, "d2-e3A");
    let options = SearchOptions::default()
        .with_root_turns(vec![only])
        .with_noise(0, 7);
    for level in [Level::Beginner, Level::Casual] {
        let r = level
            .play_with_options(
                &mut Searcher::new(1),
                &g,
                &Limits::depth(2),
                &options,
                &AtomicBool::new(false),
                |_| {},
            )
            .unwrap();
        assert_eq!(r.best, only, "{level}");
    }
}
