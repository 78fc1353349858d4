//! What the endgame tables give the engine on endgames reached from the opening suite.
//!
//! Endgames: games of the engine against itself from the built-in 5x9 opening suite (cycled,
//! a different node budget each turn so that games differ), each stopped at its first position
//! with at most the tables' number of stones. Two measurements on them:
//!
//! 1. **A match**, the engine with the tables against the same engine without, at the same
//!    fixed node budget a turn, a colour-swapped pair of games from each endgame (the engine
//!    with the tables plays the side to move in one game and the other side in the other), at
//!    most 200 turns a game (then a draw). The score of the engine with the tables, its Elo
//!    difference and a 95% interval from the spread of the pairs' scores (pentanomial: the
//!    pair is the unit, which accounts for the two games of a pair being correlated).
//! 2. **Conversion against perfect defence**: from each endgame the tables rate won or drawn
//!    for the side to move, the engine for that side, without and then with the tables,
//!    against the tables' perfect defence (the slowest loss, or a drawing turn): how often it
//!    keeps the value, with 95% Wilson intervals.
//!
//! Heavy (it plays games), so ignored by default. Run with the tables of a directory (default:
//! the committed 4-stone tables):
//!
//! ```sh
//! FANORONA_TABLES=DIR FANORONA_GAMES=1200 FANORONA_NODES=2000 \
//!   cargo test --release -p fanorona-ai --test solve_tables_engine -- --ignored --nocapture
//! ```
//!
//! `FANORONA_GAMES` is the number of games played from the suite to find endgames (most give
//! one), `FANORONA_NODES` the node budget a turn. `FANORONA_BASE_TABLES=DIR2` gives the other
//! engine (the one "without") the tables of `DIR2`, to measure what the larger tables add to
//! smaller ones: the seventh stone is `FANORONA_TABLES` with the classes up to 7 stones and
//! `FANORONA_BASE_TABLES` with those up to 6.

mod common;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_ai::solve::Value;
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_ai::{Limits, SearchOptions, Searcher, openings};
use fanorona_core::{BoardSize, Color, Game, Position, Rules};

/// Turns a game may last from its endgame before it is called a draw.
const MAX_TURNS: usize = 200;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn best(searcher: &mut Searcher, pos: &Position, nodes: u64) -> fanorona_core::Turn {
    let stop = AtomicBool::new(false);
    searcher
        .search(
            &Game::new(*pos),
            &Limits::nodes(nodes),
            &SearchOptions::default(),
            &stop,
            |_| {},
        )
        .expect("a legal turn")
        .best
}

/// Plays `pos` out, the engine for its side to move against perfect play by the tables (the
/// slowest loss, or a drawing turn), for at most [`MAX_TURNS`] turns: whether the engine keeps
/// the value (a win: it wins; a draw: it does not lose).
fn play_out(
    searcher: &mut Searcher,
    tables: &Tablebase,
    pos: &Position,
    value: Value,
    nodes: u64,
) -> bool {
    let us = pos.side_to_move();
    let mut pos = *pos;
    for _ in 0..MAX_TURNS {
        if let Some(o) = pos.outcome() {
            return match value {
                Value::Win => o.winner == Some(us),
                _ => o.winner != Some(us.other()),
            };
        }
        let turn = if pos.side_to_move() == us {
            best(searcher, &pos, nodes)
        } else {
            tables.best_turn(&pos).expect("covered").0
        };
        pos = pos.play_unchecked(&turn);
    }
    // Not won within the limit: a draw kept, a win not converted.
    value == Value::Draw
}

/// One game from `pos`: `with` (the engine probing the tables) plays `with_side`, `without`
/// the other side, each with a fresh search state. The score of `with`: 1, 1/2 or 0.
fn game(
    with: &mut Searcher,
    without: &mut Searcher,
    pos: &Position,
    with_side: Color,
    nodes: u64,
) -> f64 {
    with.clear();
    without.clear();
    let mut pos = *pos;
    for _ in 0..MAX_TURNS {
        if let Some(o) = pos.outcome() {
            return match o.winner {
                Some(w) if w == with_side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
        let turn = if pos.side_to_move() == with_side {
            best(with, &pos, nodes)
        } else {
            best(without, &pos, nodes)
        };
        pos = pos.play_unchecked(&turn);
    }
    0.5
}

/// The Wilson 95% interval of `k` successes in `n`.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n, z) = (k as f64, n as f64, 1.96f64);
    let p = k / n;
    let c = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let h = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (c - h, c + h)
}

/// The Elo difference of a score fraction (clamped away from 0 and 1).
fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-4, 1.0 - 1e-4);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Mean score a game and its 95% interval from pair scores (each 0 to 2): the pair is the
/// sampling unit (pentanomial model), the interval `mean +- 1.96 * sd / sqrt(pairs)`.
fn pair_stats(pairs: &[f64]) -> (f64, f64, f64) {
    let n = pairs.len() as f64;
    let per_game: Vec<f64> = pairs.iter().map(|p| p / 2.0).collect();
    let mean = per_game.iter().sum::<f64>() / n;
    let var = per_game.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    (mean, mean - half, mean + half)
}

#[test]
fn pair_statistics_by_hand() {
    // Pairs 2, 1, 1, 0: per game 1, 1/2, 1/2, 0; mean 1/2; sample variance 1/6.
    let (m, lo, hi) = pair_stats(&[2.0, 1.0, 1.0, 0.0]);
    assert!((m - 0.5).abs() < 1e-12);
    let half = 1.96 * (1.0f64 / 6.0 / 4.0).sqrt();
    assert!((lo - (0.5 - half)).abs() < 1e-12 && (hi - (0.5 + half)).abs() < 1e-12);
    // 75% is +190.85 Elo (400 * log10(3)); 50% is 0.
    assert!((elo(0.75) - 190.848_501_887_864_9).abs() < 1e-9);
    assert!(elo(0.5).abs() < 1e-12);
    // Wilson interval of 14/14: (78.5%, 100%).
    let (lo, hi) = wilson(14, 14);
    assert!((lo - 0.7847).abs() < 1e-3 && (hi - 1.0).abs() < 1e-9);
}

#[test]
#[ignore = "plays games; see the module documentation for the command"]
fn engine_gain_on_endgames_from_the_opening_suite() {
    let dir = match std::env::var("FANORONA_TABLES") {
        Ok(dir) => dir,
        Err(_) => match common::repository_dir("tables") {
            Some(dir) => dir.display().to_string(),
            None => return,
        },
    };
    let games = env_or("FANORONA_GAMES", 40) as usize;
    let nodes = env_or("FANORONA_NODES", 2000);
    let tables = Arc::new(Tablebase::load(&dir).expect("tables"));
    let size = BoardSize::STANDARD;
    let max = tables.max_stones(size);
    assert!(max >= 2, "no complete tables of 5x9 in {dir}");
    let suite = openings::builtin(size, Rules::STANDARD).expect("the built-in suite");
    // Endgames: the first position of each game with at most `max` stones.
    let mut player = Searcher::new(16);
    let mut endgames: Vec<(Position, Value)> = Vec::new();
    for (i, opening) in suite.iter().cycle().take(games).enumerate() {
        // The tables' rules: no no-capture limit (games that last are cut at 300 turns).
        let mut pos = opening.with_rules_unchecked(fanorona_ai::solve::solver_rules());
        for ply in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let stones = pos.occupied().count();
            if stones <= max
                && let Some(p) = tables.probe(&pos)
            {
                endgames.push((pos, p.wdl));
                break;
            }
            let n = nodes / 2 + (i as u64 * 37 + ply as u64 * 11) % nodes;
            let turn = best(&mut player, &pos, n);
            pos = pos.play_unchecked(&turn);
        }
    }
    let mut without = Searcher::new(16);
    let mut with = Searcher::new(16);
    with.set_tablebase(Some(tables.clone()));
    // The other engine's tables, if any: what the larger tables add to these.
    let mut other = "without tables".to_owned();
    if let Ok(base) = std::env::var("FANORONA_BASE_TABLES") {
        let base = Tablebase::load(&base).expect("base tables");
        println!(
            "the other engine has the tables up to {} stones",
            base.max_stones(size)
        );
        other = format!("with the tables up to {} stones", base.max_stones(size));
        without.set_tablebase(Some(Arc::new(base)));
    }
    let by_value = |v: Value| endgames.iter().filter(|e| e.1 == v).count();
    let stones: Vec<usize> = (2..=max)
        .map(|n| {
            endgames
                .iter()
                .filter(|e| e.0.occupied().count() == n)
                .count()
        })
        .collect();
    println!(
        "{games} games from the 5x9 suite, {nodes} nodes a turn, tables up to {max} stones: {} endgames ({} won, {} drawn, {} lost for the side to move; by stones from 2: {stones:?})",
        endgames.len(),
        by_value(Value::Win),
        by_value(Value::Draw),
        by_value(Value::Loss),
    );

    // 1. The match.
    let mut pairs = Vec::new();
    let mut pentanomial = [0u64; 5];
    let (mut wins, mut draws, mut losses) = (0u64, 0u64, 0u64);
    let mut lost_a_kept_value = Vec::new();
    for (pos, value) in &endgames {
        let mover = pos.side_to_move();
        let a = game(&mut with, &mut without, pos, mover, nodes);
        let b = game(&mut with, &mut without, pos, mover.other(), nodes);
        for (score, side_value) in [(a, *value), (b, value.flip())] {
            if score > 0.75 {
                wins += 1;
            } else if score < 0.25 {
                losses += 1;
            } else {
                draws += 1;
            }
            // The engine with the tables never loses what the tables say it holds.
            if score < 0.25 && side_value != Value::Loss {
                lost_a_kept_value.push(pos.to_fen());
            }
        }
        pentanomial[((a + b) * 2.0) as usize] += 1;
        pairs.push(a + b);
    }
    if !pairs.is_empty() {
        let (mean, lo, hi) = pair_stats(&pairs);
        println!(
            "match, with the tables up to {max} stones against the engine {other}, {} pairs ({} games): +{wins} ={draws} -{losses}, pairs by score 0/0.5/1/1.5/2: {pentanomial:?}",
            pairs.len(),
            2 * pairs.len()
        );
        println!(
            "  score {:.1}% (95% interval {:.1}% to {:.1}%), Elo {:+.0} (95% interval {:+.0} to {:+.0})",
            100.0 * mean,
            100.0 * lo,
            100.0 * hi,
            elo(mean),
            elo(lo),
            elo(hi)
        );
    }

    // 2. Conversion against perfect defence.
    let (mut kept_without, mut kept_with) = ([0u64; 2], [0u64; 2]);
    let mut counts = [0u64; 2];
    for (pos, value) in endgames.iter().filter(|e| e.1 != Value::Loss) {
        let slot = usize::from(*value == Value::Draw);
        counts[slot] += 1;
        for (searcher, kept) in [
            (&mut without, &mut kept_without),
            (&mut with, &mut kept_with),
        ] {
            searcher.clear();
            if play_out(searcher, &tables, pos, *value, nodes) {
                kept[slot] += 1;
            }
        }
    }
    for (name, slot) in [("won", 0), ("drawn", 1)] {
        for (how, kept) in [(other.as_str(), kept_without), ("with tables", kept_with)] {
            let (lo, hi) = wilson(kept[slot], counts[slot]);
            println!(
                "  {name}: converted or held {how} against perfect defence: {}/{} ({:.1}%, 95% interval {:.1}% to {:.1}%)",
                kept[slot],
                counts[slot],
                100.0 * kept[slot] as f64 / counts[slot].max(1) as f64,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    // With the tables the engine converts every win and holds every draw, against perfect
    // defence and in the match.
    assert_eq!(kept_with, counts);
    assert!(
        lost_a_kept_value.is_empty(),
        "the engine with the tables lost from {lost_a_kept_value:?}"
    );
}
