//! Building a book from the engine's own search and self-play (`fanorona book build`).
//!
//! 1. **The tree** ([`build_tree`]): from the setup, breadth first, every turn of each position
//!    (one turn per distinct result, [`Position::unique_turns`]) is scored by a search of the
//!    position restricted to that turn, with a fixed number of nodes, one thread and a cleared
//!    table, so that the score is the same on every machine, under any load and with any
//!    number of jobs. The best [`BuildConfig::width`] turns within [`BuildConfig::margin`] of
//!    the best are followed, to [`BuildConfig::plies`] turns from the setup and at most
//!    [`BuildConfig::max_positions`] positions.
//! 2. **Self-play** ([`self_play`]): games from the setup; in a book position a turn is drawn at
//!    random (from the game's seed) among those within the margin of the best score, out of
//!    the book the engine plays with a fixed number of nodes. Each game's result is
//!    [`tally`]ed on the book turns it played: the practical results.
//! 3. Games from elsewhere (records of matches, imported games) are tallied the same way; a
//!    turn they play in a book position that the book lacks is added without a score.
//!
//! Game `i` of a build depends only on the book, the configuration and `i`: a build split
//! into parts, or interrupted and resumed, gives the same book.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use fanorona_core::record::GameResult;
use fanorona_core::{BoardSize, Color, Game, Position, PositionError, Rules, Turn};

use super::{Book, BookEntry, score_key};
use crate::rng::{Rng, mix};
use crate::threads::spawn_scoped;
use crate::{Limits, SearchOptions, Searcher};

/// The hash table of each search of a build, in MiB (cleared before each scoring search).
const HASH_MB: usize = 4;

/// The longest self-play game, in turns; a longer one (which the no-capture and repetition
/// rules make impossible under the standard rules) is left out.
const MAX_GAME_TURNS: usize = 2000;

/// What a build makes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildConfig {
    /// The board.
    pub size: BoardSize,
    /// The rules.
    pub rules: Rules,
    /// Turns from the setup to the book's last positions.
    pub plies: usize,
    /// Turns followed from each position.
    pub width: usize,
    /// Turns scored more than this many centi-stones below the best are not followed (nor
    /// played in self-play).
    pub margin: i32,
    /// Nodes of each scoring search.
    pub nodes: u64,
    /// The most positions of the book.
    pub max_positions: usize,
    /// Nodes of each self-play search.
    pub game_nodes: u64,
    /// Evaluation noise of the self-play searches, up to this many centi-stones either way,
    /// seeded by the game (see [`SearchOptions::eval_noise`]): games that leave the book by
    /// the same turns still differ, so that their results say more than one game would.
    pub game_noise: i32,
    /// The seed of the self-play games.
    pub seed: u64,
    /// Threads working at once (the results do not depend on it).
    pub jobs: usize,
}

impl BuildConfig {
    /// The defaults for `size` and `rules`: 8 plies, width 3, margin 40, 20,000-node scores,
    /// at most 2,000 positions, 5,000-node self-play turns with 10 centi-stones of noise, seed
    /// 1, one job.
    pub fn new(size: BoardSize, rules: Rules) -> BuildConfig {
        BuildConfig {
            size,
            rules,
            plies: 8,
            width: 3,
            margin: 40,
            nodes: 20_000,
            max_positions: 2_000,
            game_nodes: 5_000,
            game_noise: 10,
            seed: 1,
            jobs: 1,
        }
    }
}

/// Why a build cannot run.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BuildError {
    /// The board has no setup under the rules.
    Start(PositionError),
    /// The build was stopped.
    Stopped,
}

impl core::fmt::Display for BuildError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            BuildError::Start(e) => write!(f, "no setup: {e}"),
            BuildError::Stopped => f.write_str("stopped"),
        }
    }
}

impl std::error::Error for BuildError {}

/// Scores the opening tree (step 1 of the [module](self)). `progress` is called with the
/// positions scored and the positions known so far.
///
/// # Errors
///
/// [`BuildError::Start`] when the board has no setup under the rules, [`BuildError::Stopped`]
/// when `stop` is set.
pub fn build_tree(
    config: &BuildConfig,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize, usize),
) -> Result<Book, BuildError> {
    let start = Position::start_with(config.size, config.rules).map_err(BuildError::Start)?;
    let mut book = Book::new(config.size, config.rules);
    if start.outcome().is_some() {
        return Ok(book);
    }
    // Positions known (in the book or queued), to follow each one once.
    let mut known: Vec<Position> = vec![start];
    let mut level: Vec<Game> = vec![Game::new(start)];
    let mut scored = 0;
    for ply in 0..config.plies {
        if level.is_empty() {
            break;
        }
        let results = score_level(&level, config, stop, |n| progress(scored + n, known.len()))?;
        scored += level.len();
        let mut next = Vec::new();
        for (game, entries) in level.iter().zip(results) {
            let pos = *game.position();
            for e in &entries {
                // Legal by construction (the turns come from the position).
                let _ = book.insert(&pos, *e);
            }
            if ply + 1 == config.plies {
                continue;
            }
            let best = entries.iter().filter_map(|e| e.score).map(score_key).max();
            let Some(best) = best else { continue };
            for e in entries.iter().take(config.width) {
                let Some(s) = e.score else { continue };
                if score_key(s) < best - i64::from(config.margin) {
                    continue;
                }
                let mut child = game.clone();
                if child.play(&e.turn).is_err() || child.outcome().is_some() {
                    continue;
                }
                let cpos = *child.position();
                if known.iter().any(|k| k.same_placement(&cpos)) {
                    continue;
                }
                if known.len() >= config.max_positions {
                    break;
                }
                known.push(cpos);
                next.push(child);
            }
        }
        progress(scored, known.len());
        level = next;
    }
    book.sort();
    Ok(book)
}

/// Scores every turn of each game's position, `config.jobs` positions at a time; the entries
/// of each position best first.
fn score_level(
    level: &[Game],
    config: &BuildConfig,
    stop: &AtomicBool,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Vec<BookEntry>>, BuildError> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Vec<BookEntry>>>> = Mutex::new(vec![None; level.len()]);
    let work = || {
        let mut searcher = Searcher::new(HASH_MB);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= level.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            let entries = score_position(&mut searcher, &level[i], config.nodes, stop);
            results.lock().unwrap_or_else(|p| p.into_inner())[i] = Some(entries);
            done.fetch_add(1, Ordering::Relaxed);
        }
    };
    std::thread::scope(|s| {
        // Threads only as the system can give them; none: the work runs here.
        let started: Vec<_> = (0..config.jobs.max(1))
            .map_while(|_| spawn_scoped(s, work))
            .collect();
        if started.is_empty() {
            work();
        }
        // Progress from this thread while the workers run.
        loop {
            let d = done.load(Ordering::Relaxed);
            progress(d);
            if d >= level.len() || stop.load(Ordering::Relaxed) {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        for t in started {
            let _ = t.join();
        }
    });
    if stop.load(Ordering::Relaxed) {
        return Err(BuildError::Stopped);
    }
    Ok(results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .map(Option::unwrap_or_default)
        .collect())
}

/// Each turn of the game's position with its score from a `nodes`-node search restricted to
/// it (one thread, a cleared table), best first.
pub fn score_position(
    searcher: &mut Searcher,
    game: &Game,
    nodes: u64,
    stop: &AtomicBool,
) -> Vec<BookEntry> {
    let pos = game.position();
    let mut entries = Vec::new();
    for turn in pos.unique_turns() {
        searcher.clear();
        let options = SearchOptions::default().with_root_turns(vec![turn]);
        let mut e = BookEntry::new(turn);
        if let Ok(r) = searcher.search(game, &Limits::nodes(nodes), &options, stop, |_| {}) {
            e.score = Some(r.score);
            e.depth = r.depth;
            e.nodes = r.nodes;
        }
        entries.push(e);
    }
    entries.sort_by_key(|e| core::cmp::Reverse(e.score.map(score_key)));
    entries
}

/// The book turns self-play chooses among in `pos`: those scored within `margin` of the best.
fn playable(book: &Book, pos: &Position, margin: i32) -> Vec<Turn> {
    let entries = book.entries(pos);
    let Some(best) = entries.iter().filter_map(|e| e.score).map(score_key).max() else {
        return Vec::new();
    };
    entries
        .iter()
        .filter(|e| {
            e.score
                .is_some_and(|s| score_key(s) >= best - i64::from(margin))
        })
        .map(|e| e.turn)
        .collect()
}

/// Plays self-play game number `index` of a build (step 2 of the [module](self)) with
/// `searcher` (cleared first). The game depends only on the book, the configuration and
/// `index`. `None` when `stop` is set or the game runs past 2,000 turns.
pub fn play_game(
    book: &Book,
    config: &BuildConfig,
    index: u64,
    searcher: &mut Searcher,
    stop: &AtomicBool,
) -> Option<Game> {
    let start = Position::start_with(config.size, config.rules).ok()?;
    let mut game = Game::new(start);
    let game_seed = mix(config.seed ^ mix(index.wrapping_add(1)));
    let mut rng = Rng::new(game_seed);
    let options = SearchOptions::default().with_noise(config.game_noise.max(0), game_seed);
    searcher.clear();
    while game.outcome().is_none() {
        if stop.load(Ordering::Relaxed) || game.turns().len() >= MAX_GAME_TURNS {
            return None;
        }
        let choices = playable(book, game.position(), config.margin);
        let turn = if choices.is_empty() {
            let r = searcher
                .search(
                    &game,
                    &Limits::nodes(config.game_nodes),
                    &options,
                    stop,
                    |_| {},
                )
                .ok()?;
            r.best
        } else {
            choices[rng.below(choices.len() as u64) as usize]
        };
        game.play(&turn).ok()?;
    }
    Some(game)
}

/// Plays self-play games `first..first + count` (`config.jobs` at a time), handing each
/// finished game to `on_game` with its number, in any order. Stops early when `stop` is set.
pub fn self_play(
    book: &Book,
    config: &BuildConfig,
    first: u64,
    count: u64,
    stop: &AtomicBool,
    mut on_game: impl FnMut(u64, Game),
) {
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel::<(u64, Game)>();
    let work = |tx: std::sync::mpsc::Sender<(u64, Game)>| {
        let mut searcher = Searcher::new(HASH_MB);
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed) as u64;
            if i >= count || stop.load(Ordering::Relaxed) {
                break;
            }
            if let Some(g) = play_game(book, config, first + i, &mut searcher, stop)
                && tx.send((first + i, g)).is_err()
            {
                break;
            }
        }
    };
    std::thread::scope(|s| {
        // Threads only as the system can give them; none: the games are played here.
        let started: Vec<_> = (0..config.jobs.max(1))
            .map_while(|_| {
                let tx = tx.clone();
                spawn_scoped(s, move || work(tx))
            })
            .collect();
        if started.is_empty() {
            work(tx.clone());
        }
        drop(tx);
        for (i, g) in rx {
            on_game(i, g);
        }
    });
}

/// Adds a game's result to the book turns it played, from the start of the game while its
/// positions are in the book; returns how many turns were counted. With `add`, a turn that a
/// book position lacks is added (unscored). A game with an unknown result counts nothing.
///
/// A turn counts for the book's entry that reaches the same position (the book keeps one turn
/// of each set of turns with the same start, end and captured stones).
pub fn tally(book: &mut Book, game: &Game, result: GameResult, add: bool) -> usize {
    let winner = match result {
        GameResult::WhiteWins => Some(Color::White),
        GameResult::BlackWins => Some(Color::Black),
        GameResult::Draw => None,
        GameResult::Unknown => return 0,
    };
    let mut counted = 0;
    for (i, turn) in game.turns().iter().enumerate() {
        let Some(pos) = game.position_at(i) else {
            break;
        };
        if !book.contains(pos) {
            break;
        }
        let Ok(after) = pos.play(turn) else { break };
        // The book's entry for this turn, or one reaching the same position.
        let same = book
            .entries(pos)
            .into_iter()
            .find(|e| e.turn == *turn)
            .or_else(|| {
                book.entries(pos).into_iter().find(|e| {
                    pos.play(&e.turn).is_ok_and(|p| {
                        p.same_placement(&after) && e.turn.captured() == turn.captured()
                    })
                })
            })
            .map(|e| e.turn);
        let key = match same {
            Some(t) => t,
            None if add => {
                if book.insert(pos, BookEntry::new(*turn)).is_err() {
                    break;
                }
                *turn
            }
            None => break,
        };
        let Some(e) = book.entry_mut(pos, &key) else {
            break;
        };
        match winner {
            None => e.draws = e.draws.saturating_add(1),
            Some(c) if c == pos.side_to_move() => e.wins = e.wins.saturating_add(1),
            Some(_) => e.losses = e.losses.saturating_add(1),
        }
        counted += 1;
    }
    counted
}
