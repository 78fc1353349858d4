//! What the endgame tables give the engine on endgames reached from the opening suite: how
//! often it converts a won endgame (and holds a drawn one) against perfect defence by the
//! tables, with and without the tables, at a fixed node budget a turn.
//!
//! Heavy (it plays games), so ignored by default. Run with the tables of a directory (default:
//! the committed 4-stone tables):
//!
//! ```sh
//! FANORONA_TABLES=DIR FANORONA_GAMES=60 FANORONA_NODES=2000 \
//!   cargo test --release -p fanorona-ai --test solve_tables_engine -- --ignored --nocapture
//! ```

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_ai::solve::Value;
use fanorona_ai::solve::tablebase::Tablebase;
use fanorona_ai::{Limits, SearchOptions, Searcher, openings};
use fanorona_core::{BoardSize, Game, Position, Rules};

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
/// slowest loss, or a drawing turn), for at most 200 turns: whether the engine keeps the value
/// (a win: it wins; a draw: it does not lose).
fn play_out(
    searcher: &mut Searcher,
    tables: &Tablebase,
    pos: &Position,
    value: Value,
    nodes: u64,
) -> bool {
    let us = pos.side_to_move();
    let mut pos = *pos;
    for _ in 0..200 {
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
    // Not won within 200 turns: a draw kept, a win not converted.
    value == Value::Draw
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

#[test]
#[ignore = "plays games; see the module documentation for the command"]
fn engine_gain_on_endgames_from_the_opening_suite() {
    let dir = std::env::var("FANORONA_TABLES")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../tables").to_owned());
    let games = env_or("FANORONA_GAMES", 40) as usize;
    let nodes = env_or("FANORONA_NODES", 2000);
    let tables = Arc::new(Tablebase::load(&dir).expect("tables"));
    let size = BoardSize::STANDARD;
    let max = tables.max_stones(size);
    assert!(max >= 2, "no complete tables of 5x9 in {dir}");
    let suite = openings::builtin(size, Rules::STANDARD).expect("the built-in suite");
    // Endgames: the first position of each game (engine against itself, a different node
    // budget for each colour so that games differ) with at most `max` stones and a value the
    // engine can keep (a win or a draw for the side to move).
    let mut player = Searcher::new(16);
    let mut endgames: Vec<(Position, Value)> = Vec::new();
    for (i, opening) in suite.iter().cycle().take(games).enumerate() {
        // The tables' rules: no no-capture limit (games that last are cut at 300 turns).
        let mut pos = opening.with_rules(fanorona_ai::solve::solver_rules());
        for ply in 0..300 {
            if pos.outcome().is_some() {
                break;
            }
            let stones = pos.occupied().count();
            if stones <= max
                && let Some(p) = tables.probe(&pos)
            {
                if p.wdl != Value::Loss {
                    endgames.push((pos, p.wdl));
                }
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
    let (mut kept_without, mut kept_with) = ([0u64; 2], [0u64; 2]);
    let mut counts = [0u64; 2];
    for (pos, value) in &endgames {
        let slot = usize::from(*value == Value::Draw);
        counts[slot] += 1;
        for (searcher, kept) in [
            (&mut without, &mut kept_without),
            (&mut with, &mut kept_with),
        ] {
            if play_out(searcher, &tables, pos, *value, nodes) {
                kept[slot] += 1;
            }
        }
    }
    println!(
        "{} games from the 5x9 suite, {} nodes a turn, tables up to {max} stones: {} endgames ({} won, {} drawn for the side to move)",
        games,
        nodes,
        endgames.len(),
        counts[0],
        counts[1]
    );
    for (name, slot) in [("won", 0), ("drawn", 1)] {
        for (how, kept) in [("without tables", kept_without), ("with tables", kept_with)] {
            let (lo, hi) = wilson(kept[slot], counts[slot]);
            println!(
                "  {name}: converted or held {how}: {}/{} ({:.1}%, 95% interval {:.1}% to {:.1}%)",
                kept[slot],
                counts[slot],
                100.0 * kept[slot] as f64 / counts[slot].max(1) as f64,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    // With the tables the engine converts every win and holds every draw.
    assert_eq!(kept_with, counts);
}
