//! The search: iterative deepening over principal variation search (alpha-beta with null
//! windows), a transposition table, move ordering (table move, captures by size, killers,
//! history), late move reductions, and a quiescence search that resolves the captures the side
//! to move is forced to make. Repetition and the no-capture limit are scored as draws inside
//! the tree.
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use fanorona_ai::{Limits, SearchOptions, Searcher};
//! use fanorona_core::Game;
//!
//! let game = Game::default();
//! let mut searcher = Searcher::new(4);
//! let stop = AtomicBool::new(false);
//! let result = searcher.search(&game, &Limits::depth(4), &SearchOptions::default(), &stop, |info| {
//!     println!("depth {} score {} pv {}", info.depth, info.score, info.pv_text());
//! })?;
//! assert!(game.position().is_legal(&result.best));
//! assert_eq!(result.depth, 4);
//! # Ok::<(), fanorona_ai::SearchError>(())
//! ```

mod ordering;
mod score;

use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use fanorona_core::{
    Game, GameKind, Outcome, Position, Rules, StuckRule, Turn, TurnList, VelaRule,
};

use crate::eval::evaluate;
use crate::limits::Limits;
use crate::nnue::{Accumulators, NNUE_BY_DEFAULT, Network, Variant};
use crate::params::{
    ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, CAPTURE_LMR_MIN_MOVE,
    CHECK_EVERY, DRAW, FUTILITY_MARGIN, FUTILITY_MAX_DEPTH, IIR_MIN_DEPTH, INFINITY, LMP_BASE,
    LMP_MAX_DEPTH, LMR_BASE, LMR_DIVISOR, LMR_MIN_DEPTH, LMR_MIN_MOVE, MAX_CONTEMPT, MAX_PLY,
    MAX_THREADS, NMP_BASE, NMP_DIVISOR, NMP_MIN_DEPTH, NMP_MIN_STONES, QS_DEPTH, QS_MAX_MOVES,
    QS_MAX_PLY, QS_STAND_PAT_MARGIN, RFP_MARGIN, RFP_MAX_DEPTH, TM_NEXT_ITERATION_PERCENT,
    TM_STABLE_ITERATIONS, TM_STABLE_PERCENT, TM_UNSTABLE_PERCENT, WIN, WIN_BOUND,
};
use crate::rng::mix;
use crate::solve::Value;
use crate::solve::tablebase::Tablebase;
use crate::tt::{Bound, HashSizeError, TranspositionTable, turn_key};

use ordering::{History, Killers, pick_next, score_turns};
pub use score::Score;

/// How a search plays, beyond its limits: the imperfections of the weaker levels.
///
/// The default is the full-strength engine searching every root turn for the single best.
/// It may gain fields (it is `#[non_exhaustive]`): start from [`SearchOptions::default`] and
/// use the `with_` methods (or set fields).
///
/// # Examples
///
/// ```
/// use fanorona_ai::{Limits, SearchOptions, search};
/// use fanorona_core::Game;
/// use std::sync::atomic::AtomicBool;
///
/// let game = Game::default();
/// let only = game.position().legal_turns()[0];
/// let options = SearchOptions::default().with_root_turns(vec![only]).with_multipv(1);
/// let result = search(&game, &Limits::depth(3), &options, &AtomicBool::new(false), |_| {})?;
/// assert_eq!(result.best, only);
/// # Ok::<(), fanorona_ai::SearchError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct SearchOptions {
    /// Random noise added to every static evaluation, up to this many centi-stones either way
    /// (0: none). The noise of a position depends only on its hash and [`Self::seed`], so a
    /// search is reproducible.
    pub eval_noise: i32,
    /// Seed of the evaluation noise.
    pub seed: u64,
    /// Search every root turn with a full window, so that [`SearchResult::root_moves`] holds
    /// an exact score for each (slower; the levels that choose among good turns need it).
    pub exact_root: bool,
    /// Search only these turns at the root (UCI's `searchmoves`); empty: every legal turn.
    /// Turns that are not legal in the searched position are left out; when none is legal
    /// the search fails with [`SearchError::NoRootTurn`].
    pub root_turns: Vec<Turn>,
    /// Search this many best root turns (UCI's `MultiPV`), each with an exact score and its
    /// own principal variation, reported by [`Info::multipv`] after every iteration. 0 and 1
    /// both mean the best turn only; more than the number of root turns means all of them.
    pub multipv: usize,
    /// Contempt, in centi-stones: how much worse than an even position the side to move at
    /// the root rates a draw by repetition or by the no-capture limit (its opponent rates
    /// them that much better). 0, the default, scores every draw 0, as analysis wants; a
    /// player that wants to win against a weaker opponent gives it a small positive value
    /// and avoids repeating positions that it can play on from. Draws the endgame tables
    /// prove stay 0 (they are draws whatever is played), as do draws of a stuck side.
    pub contempt: i32,
}

impl SearchOptions {
    /// These options with evaluation noise of up to `noise` centi-stones, seeded by `seed`.
    pub fn with_noise(mut self, noise: i32, seed: u64) -> SearchOptions {
        self.eval_noise = noise;
        self.seed = seed;
        self
    }

    /// These options with an exact score for every root turn ([`Self::exact_root`]).
    pub fn with_exact_root(mut self) -> SearchOptions {
        self.exact_root = true;
        self
    }

    /// These options searching only `turns` at the root ([`Self::root_turns`]).
    pub fn with_root_turns(mut self, turns: Vec<Turn>) -> SearchOptions {
        self.root_turns = turns;
        self
    }

    /// These options searching the `lines` best root turns ([`Self::multipv`]).
    pub fn with_multipv(mut self, lines: usize) -> SearchOptions {
        self.multipv = lines;
        self
    }

    /// These options with `contempt` centi-stones of contempt for draws ([`Self::contempt`]).
    pub fn with_contempt(mut self, contempt: i32) -> SearchOptions {
        self.contempt = contempt;
        self
    }
}

/// Progress of a search, sent after each completed iteration.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Info {
    /// Which line this is, from 1 (the best) to [`SearchOptions::multipv`]: with several
    /// lines, one `Info` per line arrives after each iteration, best first.
    pub multipv: usize,
    /// The completed depth in plies.
    pub depth: u32,
    /// The deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of this line's turn.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started.
    pub time: Duration,
    /// The principal variation: this line's turn and the expected replies.
    pub pv: Vec<Turn>,
    /// Per mille of the transposition table used by this search.
    pub hashfull: u32,
}

impl Info {
    /// The principal variation in turn notation, separated by spaces.
    pub fn pv_text(&self) -> String {
        pv_text(&self.pv)
    }
}

fn pv_text(pv: &[Turn]) -> String {
    pv.iter().map(Turn::to_string).collect::<Vec<_>>().join(" ")
}

/// A root turn and its score from the last completed iteration.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct RootMove {
    /// The turn.
    pub turn: Turn,
    /// Its score (internal scale, see [`Score::from_value`]). Exact with
    /// [`SearchOptions::exact_root`]; otherwise exact only for the best turn (the best
    /// [`SearchOptions::multipv`] turns) and an upper bound for the others.
    pub value: i32,
}

/// The answer of a search.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SearchResult {
    /// The turn to play: always legal in the searched position.
    pub best: Turn,
    /// Its score.
    pub score: Score,
    /// Its score on the internal scale (centi-stones; wins near [`crate::params::WIN`]).
    pub value: i32,
    /// The last completed depth (0 when the search stopped before depth 1 finished; the turn
    /// is then the first by move ordering).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time spent.
    pub time: Duration,
    /// The principal variation, starting with [`Self::best`].
    pub pv: Vec<Turn>,
    /// Every searched root turn with its score, best first.
    pub root_moves: Vec<RootMove>,
    /// The threads that searched (at least 1): [`Searcher::threads`], or 1 for searches that
    /// use one thread (see [`Searcher::set_threads`]), less [`Self::threads_not_started`].
    pub threads: usize,
    /// The threads of the search that the system could not start (a process or an
    /// address-space limit): the search went on with the others.
    pub threads_not_started: usize,
}

impl SearchResult {
    /// The principal variation in turn notation.
    pub fn pv_text(&self) -> String {
        pv_text(&self.pv)
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

fn nps(nodes: u64, time: Duration) -> u64 {
    (nodes as f64 / time.as_secs_f64().max(1e-6)) as u64
}

/// The report of a search's answer when it is not the last iteration's line (a stopped
/// iteration's better turn, a helper's deeper iteration): one line, at the answer's depth.
fn answer_info(
    result: &SearchResult,
    nodes: u64,
    seldepth: u32,
    hashfull: u32,
    start: Instant,
) -> Info {
    let elapsed = start.elapsed();
    Info {
        multipv: 1,
        depth: result.depth,
        seldepth,
        score: result.score,
        nodes,
        nps: nps(nodes, elapsed),
        time: elapsed,
        pv: result.pv.clone(),
        hashfull,
    }
}

/// Why there is nothing to search.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SearchError {
    /// The game is over (no stones, no legal turn, repetition, no-capture limit, or decided).
    GameOver(Outcome),
    /// [`SearchOptions::root_turns`] names no legal turn of the searched position.
    NoRootTurn,
    /// The system could not start the thread of the search (a process or memory limit), of
    /// this kind of error (see [`crate::Engine`]).
    NoThread(std::io::ErrorKind),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::GameOver(o) => write!(f, "nothing to search: the game is over ({o})"),
            SearchError::NoRootTurn => {
                write!(f, "nothing to search: none of the turns to search is legal")
            }
            SearchError::NoThread(kind) => {
                write!(f, "the system cannot start the search's thread: {kind}")
            }
        }
    }
}

impl std::error::Error for SearchError {}

/// A search engine with its memory (transposition table and history), reused from turn to
/// turn. One `Searcher` searches one position at a time; run it on a background thread (see
/// [`crate::Engine`]) and stop it through the stop flag.
pub struct Searcher {
    tt: TranspositionTable,
    history: Box<History>,
    tables: Option<Arc<Tablebase>>,
    networks: Vec<Arc<Network>>,
    threads: usize,
}

impl Searcher {
    /// A searcher with a transposition table of about `hash_mb` MiB (clamped to
    /// `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB)).
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated; use [`Searcher::try_new`] for sizes that come
    /// from users.
    pub fn new(hash_mb: usize) -> Searcher {
        Searcher::with_table(TranspositionTable::new(hash_mb))
    }

    /// A searcher with a transposition table of about `hash_mb` MiB, or an error when the
    /// size is out of `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB) or the memory cannot be had.
    ///
    /// # Errors
    ///
    /// [`HashSizeError`].
    pub fn try_new(hash_mb: usize) -> Result<Searcher, HashSizeError> {
        TranspositionTable::try_new(hash_mb).map(Searcher::with_table)
    }

    fn with_table(tt: TranspositionTable) -> Searcher {
        Searcher {
            tt,
            history: Box::new(History::default()),
            tables: None,
            networks: if NNUE_BY_DEFAULT {
                Network::embedded_all().to_vec()
            } else {
                Vec::new()
            },
            threads: 1,
        }
    }

    /// Evaluates with the networks built into the engine ([`Network::embedded_all`]), each
    /// on its variant, and no others.
    pub(crate) fn use_embedded_networks(&mut self) {
        self.networks = Network::embedded_all().to_vec();
    }

    /// Searches with `threads` threads (Lazy SMP: they share the transposition table, the
    /// first reports and answers, the others fill the table from their own searches of the
    /// same position). Clamped to `1..=`[`MAX_THREADS`]. With more than one thread a search
    /// is no longer reproducible node for node; searches with evaluation noise or exact root
    /// scores (the weaker levels) always use one thread, and a node limit is shared out
    /// between the threads.
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// The number of search threads (see [`Searcher::set_threads`]).
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Lets the search probe endgame tables (see [`crate::solve::tablebase`]): positions
    /// inside the search with few enough stones take their exact value from the tables.
    /// `None` turns probing off.
    pub fn set_tablebase(&mut self, tables: Option<Arc<Tablebase>>) {
        self.tables = tables;
    }

    /// Evaluates the positions of `network`'s [`Variant`] (its board and game under the
    /// standard rule options, see [`crate::nnue`]) with it, in place of the network that
    /// variant had; the other variants keep theirs. `None` removes every network: the hand
    /// evaluation ([`crate::evaluate`]) everywhere. Positions no network covers (other
    /// boards, other rule options) always use the hand evaluation. A new searcher uses
    /// [`Network::embedded_all`], each on its variant, when
    /// [`NNUE_BY_DEFAULT`](crate::nnue::NNUE_BY_DEFAULT) says so, else the hand evaluation.
    ///
    /// ```
    /// use fanorona_ai::{Searcher, nnue::{Network, Variant}};
    ///
    /// let mut searcher = Searcher::new(1);
    /// searcher.set_network(Some(Network::embedded()));
    /// assert!(searcher.network().is_some());
    /// assert!(searcher.network_for(Variant::STANDARD).is_some());
    /// searcher.set_network(None);
    /// assert!(searcher.network().is_none());
    /// assert!(searcher.networks().is_empty());
    /// ```
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        match network {
            Some(net) => {
                self.networks.retain(|n| n.variant() != net.variant());
                self.networks.push(net);
            }
            None => self.networks.clear(),
        }
    }

    /// The network the search evaluates the standard game's positions with (see
    /// [`Searcher::set_network`]).
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network_for(Variant::STANDARD)
    }

    /// The network the search evaluates `variant`'s positions with, if any.
    pub fn network_for(&self, variant: Variant) -> Option<&Arc<Network>> {
        self.networks.iter().find(|n| n.variant() == variant)
    }

    /// Every network the search uses, one per variant (see [`Searcher::set_network`]).
    pub fn networks(&self) -> &[Arc<Network>] {
        &self.networks
    }

    /// Forgets everything learnt (for a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = History::default();
    }

    /// Replaces the transposition table by one of about `hash_mb` MiB (clamped to
    /// `1..=`[`MAX_HASH_MB`](crate::tt::MAX_HASH_MB)).
    ///
    /// # Panics
    ///
    /// When the table cannot be allocated; see [`Searcher::try_resize`].
    pub fn resize(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Replaces the transposition table by one of about `hash_mb` MiB, or keeps the old
    /// table and returns an error when the new one cannot be had.
    ///
    /// # Errors
    ///
    /// [`HashSizeError`].
    pub fn try_resize(&mut self, hash_mb: usize) -> Result<(), HashSizeError> {
        self.tt = TranspositionTable::try_new(hash_mb)?;
        Ok(())
    }

    /// Searches the current position of `game` (its history counts for repetitions) within
    /// `limits`, calling `info` after each completed iteration. Returns when a limit is
    /// reached or `stop` becomes true, always with a legal turn.
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game is already over, [`SearchError::NoRootTurn`]
    /// when [`SearchOptions::root_turns`] names no legal turn.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        mut info: impl FnMut(&Info),
    ) -> Result<SearchResult, SearchError> {
        if let Some(o) = game.outcome() {
            return Err(SearchError::GameOver(o));
        }
        let root = *game.position();
        let mut turns = root.legal_turns();
        if !options.root_turns.is_empty() {
            turns.retain(|t| options.root_turns.contains(t));
            if turns.is_empty() {
                return Err(SearchError::NoRootTurn);
            }
        }
        // Turns with the same start, end and captured stones reach the same position: search
        // one of them (the first asked for).
        let mut keys: Vec<u64> = Vec::with_capacity(turns.len());
        turns.retain(|t| {
            let k = turn_key(t);
            let new = !keys.contains(&k);
            keys.push(k);
            new
        });
        let start = Instant::now();
        let budget = limits.time_budget();
        self.tt.new_search();
        self.history.age();
        let rules = root.rules();
        let tables = self
            .tables
            .as_deref()
            .filter(|t| t.max_stones(root.size()) >= 2 && t.rules(root.size()).is_some());
        let table_stones = tables.map_or(0, |t| t.max_stones(root.size()));
        let threads = if options.eval_noise > 0 || options.exact_root {
            1
        } else {
            self.threads
        };
        let node_limit = if limits.infinite {
            u64::MAX
        } else {
            (limits.nodes.unwrap_or(u64::MAX) / threads as u64).max(1)
        };
        let helpers_stop = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        // A network knows its board and game under the standard rule options only.
        let network = self.networks.iter().find(|n| n.covers(&root)).map(|n| &**n);
        // The depth the main thread is searching (helpers never search shallower) and the deepest
        // iteration a helper completed.
        let main_depth = AtomicU32::new(0);
        let helper_best: Mutex<Option<Completed>> = Mutex::new(None);
        let setup = Setup {
            tables,
            network,
            table_stones,
            tt: &self.tt,
            game,
            hard: budget.map(|(_, hard)| start + hard),
            node_limit,
            noise: options.eval_noise.max(0),
            selective: options.eval_noise <= 0 && !options.exact_root,
            contempt: options.contempt.clamp(-MAX_CONTEMPT, MAX_CONTEMPT),
            seed: options.seed,
            rules,
        };
        let mut w = setup.worker(&mut self.history, stop, None);

        let tt_turn = w.tt.probe(root.zobrist(), 0).map_or(0, |h| h.turn);
        let mut scores = score_turns(&turns, tt_turn, &[0, 0], w.history, root.side_to_move());
        let mut root_moves: Vec<RootMove> = Vec::with_capacity(turns.len());
        while let Some(t) = pick_next(&mut turns, &mut scores) {
            root_moves.push(RootMove {
                turn: t,
                value: -INFINITY,
            });
        }
        // The answer if nothing completes: the first turn by move ordering.
        let mut result = SearchResult {
            best: root_moves[0].turn,
            score: Score::Cp(0),
            value: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![root_moves[0].turn],
            root_moves: Vec::new(),
            threads: 1,
            threads_not_started: 0,
        };
        result.value = -w.eval_child(&root.play_unchecked(&root_moves[0].turn));
        result.score = Score::from_value(result.value);

        let max_depth = limits.max_depth();
        let timed = limits.is_timed();
        // Under a game clock the time saved on one turn is spent on later ones, so the search
        // manages it (see `TimeManager`); a fixed movetime is used to the end.
        let mut manager = match budget {
            Some((soft, hard)) if limits.clock.is_some() && limits.movetime.is_none() => {
                Some(TimeManager::new(soft, hard))
            }
            _ => None,
        };
        let single = root_moves.len() == 1;
        let lines = options.multipv.clamp(1, root_moves.len());
        let mut prev = result.value;
        // Per line of the iteration: its score and principal variation.
        let mut line_pvs: Vec<(i32, Vec<Turn>)> = Vec::with_capacity(lines);
        let helper_moves = root_moves.clone();
        std::thread::scope(|scope| {
            // Helpers that the system cannot give (a process limit, an address-space limit)
            // are not started: the search goes on with those that could be had.
            let helpers: Vec<_> = (1..threads)
                .map_while(|id| {
                    let mut moves = helper_moves.clone();
                    let (setup, root, helpers_stop, helper_nodes) =
                        (&setup, &root, &helpers_stop, &helper_nodes);
                    let shared = HelperShared {
                        main_depth: &main_depth,
                        best: &helper_best,
                    };
                    crate::threads::spawn_scoped(scope, move || {
                        let mut history = Box::new(History::default());
                        let mut hw = setup.worker(&mut history, helpers_stop, Some(helper_nodes));
                        hw.helper(root, &mut moves, max_depth, id, options, shared);
                        hw.nodes
                    })
                })
                .collect();
            result.threads = helpers.len() + 1;
            result.threads_not_started = threads - result.threads;
            for depth in 1..=max_depth {
                main_depth.store(depth, Ordering::Relaxed);
                line_pvs.clear();
                // Line k searches the turns the lines before it did not take: the best of them
                // becomes root_moves[k].
                for k in 0..lines {
                    let value =
                        w.root_line(&root, &mut root_moves[k..], depth, prev, k == 0, options);
                    if w.aborted {
                        break;
                    }
                    let pv = w.pv_turns(&root);
                    // Best first; the sort is stable, so equal bounds keep their earlier order.
                    root_moves[k..].sort_by_key(|m| -m.value);
                    let pv = if pv.first() == Some(&root_moves[k].turn) {
                        pv
                    } else {
                        vec![root_moves[k].turn]
                    };
                    if k == 0 {
                        w.best = None;
                        prev = value;
                        result.best = root_moves[0].turn;
                        result.value = value;
                        result.score = Score::from_value(value);
                        result.pv.clone_from(&pv);
                    }
                    line_pvs.push((value, pv));
                }
                if w.aborted {
                    // A turn that beat the previous best in the unfinished iteration (or any
                    // finished turn of depth 1) is better informed than the last answer. (When
                    // the best line finished, the result already holds it.)
                    if line_pvs.is_empty()
                        && let Some((turn, value, pv)) = w.best.take()
                    {
                        result.best = turn;
                        result.value = value;
                        result.score = Score::from_value(value);
                        result.pv = pv;
                        // The last report is the answer: its line, at the depth completed.
                        if result.depth > 0 {
                            let nodes = w.nodes + helper_nodes.load(Ordering::Relaxed);
                            let seldepth = w.seldepth as u32;
                            info(&answer_info(
                                &result,
                                nodes,
                                seldepth,
                                w.tt.hashfull(),
                                start,
                            ));
                        }
                    }
                    break;
                }
                w.best = None;
                if lines > 1 {
                    // A later line can score above an earlier one (a reduced null-window search
                    // that failed low, searched again with a full window): show them best first.
                    // Both sorts are stable, so the turns stay with their lines.
                    root_moves[..lines].sort_by_key(|m| -m.value);
                    line_pvs.sort_by_key(|(v, _)| -v);
                    let (value, pv) = &line_pvs[0];
                    prev = *value;
                    result.best = root_moves[0].turn;
                    result.value = *value;
                    result.score = Score::from_value(*value);
                    result.pv.clone_from(pv);
                }
                result.depth = depth;
                let value = result.value;
                let elapsed = start.elapsed();
                for (k, (v, pv)) in line_pvs.iter().enumerate() {
                    info(&Info {
                        multipv: k + 1,
                        depth,
                        seldepth: w.seldepth as u32,
                        score: Score::from_value(*v),
                        nodes: w.nodes + helper_nodes.load(Ordering::Relaxed),
                        nps: nps(w.nodes + helper_nodes.load(Ordering::Relaxed), elapsed),
                        time: elapsed,
                        pv: pv.clone(),
                        hashfull: w.tt.hashfull(),
                    });
                }
                if timed && single {
                    break;
                }
                if let Some(m) = manager.as_mut() {
                    if !m.next_iteration(elapsed, result.best) {
                        break;
                    }
                } else if let Some((soft, _)) = budget
                    && elapsed >= soft
                {
                    break;
                }
                if w.nodes >= w.node_limit || w.stop.load(Ordering::Relaxed) {
                    break;
                }
                if timed && value.abs() >= WIN_BOUND && depth as i32 > WIN - value.abs() + 1 {
                    break;
                }
                if limits.is_win_found(value) {
                    break;
                }
            }
            helpers_stop.store(true, Ordering::Relaxed);
            for h in helpers {
                match h.join() {
                    Ok(n) => result.nodes += n,
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
        });
        // A helper that completed a deeper iteration than the main thread (which stopped in
        // the middle of its next one) knows more: its answer is the search's. Only for one
        // line: the lines of a multi-line search are the main thread's.
        let deeper = helper_best
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .filter(|c| lines == 1 && c.depth > result.depth);
        if let Some(c) = deeper {
            result.best = c.pv[0];
            result.value = c.value;
            result.score = Score::from_value(c.value);
            result.depth = c.depth;
            result.pv = c.pv;
            if let Some(m) = root_moves.iter().position(|m| m.turn == result.best) {
                root_moves[..=m].rotate_right(1);
            }
            let nodes = w.nodes + result.nodes;
            let seldepth = w.seldepth as u32;
            info(&answer_info(
                &result,
                nodes,
                seldepth,
                w.tt.hashfull(),
                start,
            ));
        }
        result.seldepth = w.seldepth as u32;
        result.nodes += w.nodes;
        result.time = start.elapsed();
        result.root_moves = root_moves;
        Ok(result)
    }
}

/// Time management under a game clock: after each completed iteration, whether to start
/// another. The budget's soft limit is stretched while the best turn keeps changing and
/// shrunk once it has stayed the same for a few iterations; an iteration that would not
/// finish before the hard limit (predicted from the last one's time) is not started.
#[derive(Clone, Copy, Debug)]
struct TimeManager {
    soft: Duration,
    hard: Duration,
    /// When the last iteration ended (time since the start).
    last_end: Duration,
    best: Option<Turn>,
    /// Completed iterations in a row with the same best turn.
    stable: u32,
}

impl TimeManager {
    fn new(soft: Duration, hard: Duration) -> TimeManager {
        TimeManager {
            soft,
            hard,
            last_end: Duration::ZERO,
            best: None,
            stable: 0,
        }
    }

    /// An iteration ended at `elapsed` with `best` the best turn: whether to start the next.
    fn next_iteration(&mut self, elapsed: Duration, best: Turn) -> bool {
        let took = elapsed.saturating_sub(self.last_end);
        self.last_end = elapsed;
        let changed = self.best.is_some_and(|b| b != best);
        if self.best == Some(best) {
            self.stable += 1;
        } else {
            self.stable = 0;
        }
        self.best = Some(best);
        let percent = if changed {
            TM_UNSTABLE_PERCENT
        } else if self.stable >= TM_STABLE_ITERATIONS {
            TM_STABLE_PERCENT
        } else {
            100
        };
        let target = (self.soft * percent / 100).min(self.hard);
        let predicted = took * TM_NEXT_ITERATION_PERCENT / 100;
        elapsed < target && elapsed + predicted <= self.hard
    }
}

/// Reductions by (depth, move number), in plies.
fn lmr_table() -> &'static [[u8; 64]; 64] {
    static TABLE: OnceLock<[[u8; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [[0u8; 64]; 64];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let x = f64::from(LMR_BASE) / 100.0
                    + (d as f64).ln() * (m as f64).ln() / (f64::from(LMR_DIVISOR) / 100.0);
                *r = x.max(0.0) as u8;
            }
        }
        t
    })
}

/// An iteration a helper thread completed: its depth, score and principal variation (never
/// empty: its first turn is the helper's best).
struct Completed {
    depth: u32,
    value: i32,
    pv: Vec<Turn>,
}

/// What the threads of a search share beyond the table.
#[derive(Clone, Copy)]
struct HelperShared<'a> {
    /// The depth of the main thread's current iteration.
    main_depth: &'a AtomicU32,
    /// The deepest iteration a helper completed.
    best: &'a Mutex<Option<Completed>>,
}

/// What every thread of one search starts from.
struct Setup<'a> {
    tables: Option<&'a Tablebase>,
    network: Option<&'a Network>,
    table_stones: u32,
    tt: &'a TranspositionTable,
    game: &'a Game,
    hard: Option<Instant>,
    node_limit: u64,
    noise: i32,
    selective: bool,
    contempt: i32,
    seed: u64,
    rules: Rules,
}

impl<'a> Setup<'a> {
    /// A worker with its own killers, path and counters.
    fn worker<'b>(
        &'b self,
        history: &'b mut History,
        stop: &'b AtomicBool,
        published: Option<&'b AtomicU64>,
    ) -> Worker<'b>
    where
        'a: 'b,
    {
        let mut hashes: Vec<u64> = self
            .game
            .positions()
            .iter()
            .map(Position::zobrist)
            .collect();
        hashes.reserve(MAX_PLY + 2);
        Worker {
            tables: self.tables,
            table_stones: self.table_stones,
            tb_hits: 0,
            nnue: self.network.map(Accumulators::new),
            tt: self.tt,
            history,
            published,
            killers: Box::new([[0; 2]; MAX_PLY + 2]),
            hashes,
            root_index: self.game.positions().len() - 1,
            pv: Box::new([[0; MAX_PLY + 1]; MAX_PLY + 1]),
            pv_len: [0; MAX_PLY + 1],
            nodes: 0,
            seldepth: 0,
            stop,
            hard: self.hard,
            node_limit: self.node_limit,
            aborted: false,
            noise: self.noise,
            selective: self.selective,
            contempt: self.contempt,
            seed: self.seed,
            repetition: self.rules.repetition(),
            // Fanoron-Telo captures nothing, and its games know no no-capture limit.
            no_capture_limit: self
                .rules
                .no_capture_limit()
                .map(core::num::NonZeroU16::get)
                .filter(|_| self.rules.game().captures()),
            stuck: self.rules.stuck(),
            null_allowed: true,
            best: None,
        }
    }
}

/// The state of one running search.
struct Worker<'a> {
    /// Endgame tables, when loaded for this board.
    tables: Option<&'a Tablebase>,
    /// The tables cover every position with at most this many stones.
    table_stones: u32,
    /// Successful table probes.
    tb_hits: u64,
    /// The network's accumulators, when the network evaluates this search's positions.
    nnue: Option<Accumulators<'a>>,
    tt: &'a TranspositionTable,
    history: &'a mut History,
    /// Where a helper thread adds its nodes as it goes (for progress reports).
    published: Option<&'a AtomicU64>,
    killers: Box<[Killers; MAX_PLY + 2]>,
    /// Hashes of the game's positions, then of the positions on the search path.
    hashes: Vec<u64>,
    /// Index of the root position in `hashes`.
    root_index: usize,
    pv: Box<[[u64; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    nodes: u64,
    seldepth: usize,
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: u64,
    aborted: bool,
    noise: i32,
    /// Whether the pruning from the static evaluation and the internal iterative reduction
    /// apply: only in the full-strength search. Searches with evaluation noise or exact root
    /// scores (the weaker levels, the puzzle checks) search without them, as before they
    /// existed, so that the levels' measured ratings and the puzzles' verdicts stay.
    selective: bool,
    /// Contempt for draws by rule, from the root's side to move ([`SearchOptions::contempt`]).
    contempt: i32,
    seed: u64,
    repetition: Option<u8>,
    no_capture_limit: Option<u16>,
    stuck: StuckRule,
    /// Whether a null move may be tried (not twice in a row).
    null_allowed: bool,
    /// The best root turn of the current iteration so far: (turn, score, pv).
    best: Option<(Turn, i32, Vec<Turn>)>,
}

impl Worker<'_> {
    /// Counts a node and tells whether the search must stop.
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0 {
            if let Some(p) = self.published {
                p.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h) {
                self.aborted = true;
                return true;
            }
        }
        self.pv_len[ply] = ply;
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        false
    }

    /// The static evaluation (the network's or the hand evaluation) of `pos`, reached at
    /// `ply`, with this search's noise.
    #[inline]
    fn eval(&mut self, pos: &Position, ply: usize) -> i32 {
        let e = match self.nnue.as_mut() {
            Some(acc) => acc.evaluate(pos, ply),
            None => evaluate(pos),
        };
        if self.noise == 0 {
            return e;
        }
        let span = 2 * self.noise as u64 + 1;
        e + (mix(pos.zobrist() ^ self.seed) % span) as i32 - self.noise
    }

    /// The static evaluation of a child position, without counting it as a node.
    fn eval_child(&mut self, pos: &Position) -> i32 {
        self.eval(pos, 1)
    }

    /// The score of a side with no legal turn: stuck, or facing a line of three (Fanoron-Telo)
    /// or without a capture while receiving Bell's Vela handicap, which lose whatever the stuck
    /// rule says (the core's [`Position::outcome`] decides).
    #[inline]
    fn stuck_score(&self, pos: &Position, ply: usize) -> i32 {
        if pos.rules().game() != GameKind::Capture
            && pos.outcome().is_some_and(|o| o.winner.is_some())
        {
            return -WIN + ply as i32;
        }
        match self.stuck {
            StuckRule::Draws => DRAW,
            // Loses, and any rule added later until the engine learns it.
            _ => -WIN + ply as i32,
        }
    }

    /// The score of a draw by rule at `ply`, for its side to move: the root's side (at even
    /// plies) rates it `contempt` below even, its opponent that much above.
    #[inline]
    fn rule_draw(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            DRAW - self.contempt
        } else {
            DRAW + self.contempt
        }
    }

    /// Whether the position, reached in the search, is drawn by repetition or by the
    /// no-capture limit (`Some(score)`), as the game's rules would decide.
    #[inline]
    fn draw_by_rule(&self, pos: &Position, ply: usize) -> Option<i32> {
        let count = pos.no_capture_count();
        if let Some(limit) = self.no_capture_limit
            && count >= limit
        {
            return Some(if pos.has_legal_turn() {
                self.rule_draw(ply)
            } else {
                self.stuck_score(pos, ply)
            });
        }
        let n = self.repetition?;
        let window = usize::from(count);
        if window < 2 {
            return None;
        }
        let h = pos.zobrist();
        let len = self.hashes.len();
        let mut seen = 1u32;
        let mut dist = 2;
        while dist <= window && dist <= len {
            let i = len - dist;
            if self.hashes[i] == h {
                if i > self.root_index {
                    return Some(self.rule_draw(ply));
                }
                seen += 1;
                if seen >= u32::from(n) {
                    return Some(self.rule_draw(ply));
                }
            }
            dist += 2;
        }
        None
    }

    /// The exact value of `pos` from the endgame tables, when they cover it and the result
    /// stands under the no-capture limit.
    #[inline]
    fn probe_tables(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let tables = self.tables?;
        // The tables hold the capture game: not Fanoron-Telo, nor Vela's first phase.
        if pos.occupied().count() > self.table_stones
            || pos.rules().game() == GameKind::Telo
            || pos.is_vela_phase()
        {
            return None;
        }
        let p = tables.probe(pos)?;
        if let Some(limit) = self.no_capture_limit
            && !p.holds_under_limit(pos.no_capture_count(), limit)
        {
            return None;
        }
        self.tb_hits += 1;
        let d = i32::from(p.distance);
        Some(match p.wdl {
            Value::Draw => DRAW,
            Value::Win => WIN - ply as i32 - d,
            Value::Loss => -WIN + ply as i32 + d,
        })
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, key: u64) {
        self.pv[ply][ply] = key;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// The root's principal variation as turns, replayed against the rules.
    fn pv_turns(&self, root: &Position) -> Vec<Turn> {
        let mut pos = *root;
        let mut out = Vec::new();
        for &key in &self.pv[0][..self.pv_len[0]] {
            let Some(t) = pos.legal_turns().into_iter().find(|t| turn_key(t) == key) else {
                break;
            };
            out.push(t);
            pos = pos.play_unchecked(&t);
        }
        out
    }

    /// A helper thread's search (Lazy SMP): iterative deepening of the root over `moves`
    /// until stopped; what it finds reaches the main thread through the shared
    /// transposition table.
    ///
    /// The helper searches the depth the main thread is on, but starts each iteration on
    /// another root turn (helper `id` on the turn `id` places after the best so far, the
    /// turns before it last). One depth ahead with the main thread's order, as before, most
    /// of a helper's nodes repeated the main thread's next iteration (bench depth 12: 1.14x
    /// the time to depth for 1.52x the nodes); rotated at the same depth, the helper fills
    /// the table with the other turns' subtrees while the main thread is on the first
    /// (docs/engine.md, *Two threads*).
    fn helper(
        &mut self,
        root: &Position,
        moves: &mut [RootMove],
        max_depth: u32,
        id: usize,
        options: &SearchOptions,
        shared: HelperShared<'_>,
    ) {
        let mut prev = 0;
        let mut depth = 1 + (id % 2) as u32;
        loop {
            // Never behind the main thread: what a shallower iteration stores, it has.
            depth = depth.max(shared.main_depth.load(Ordering::Relaxed));
            if depth > max_depth {
                break;
            }
            // Best first after the last iteration; start on another turn than the main thread.
            moves.rotate_left(id % moves.len());
            let value = self.root_line(root, moves, depth, prev, true, options);
            if self.aborted {
                break;
            }
            self.best = None;
            moves.sort_by_key(|m| -m.value);
            prev = value;
            let pv = self.pv_turns(root);
            let pv = if pv.first() == Some(&moves[0].turn) {
                pv
            } else {
                vec![moves[0].turn]
            };
            let mut best = shared.best.lock().unwrap_or_else(PoisonError::into_inner);
            if best.as_ref().is_none_or(|b| depth > b.depth) {
                *best = Some(Completed { depth, value, pv });
            }
            drop(best);
            depth += 1;
        }
    }

    /// One line of an iteration at the root over `moves`: the best line (`first`) within an
    /// aspiration window around `prev` (the last iteration's score), the other lines of a
    /// multi-line search with a full window. Returns the line's score.
    fn root_line(
        &mut self,
        root: &Position,
        moves: &mut [RootMove],
        depth: u32,
        prev: i32,
        first: bool,
        options: &SearchOptions,
    ) -> i32 {
        let exact = options.exact_root;
        let (mut delta, mut alpha, mut beta) =
            if first && depth >= ASPIRATION_MIN_DEPTH && !exact && prev.abs() < WIN_BOUND {
                (
                    ASPIRATION_DELTA,
                    (prev - ASPIRATION_DELTA).max(-INFINITY),
                    (prev + ASPIRATION_DELTA).min(INFINITY),
                )
            } else {
                (INFINITY, -INFINITY, INFINITY)
            };
        loop {
            let v = self.root(root, moves, depth as i32, alpha, beta, exact, first);
            if self.aborted {
                return v;
            }
            if v <= alpha && alpha > -INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITY);
            } else if v >= beta && beta < INFINITY {
                beta = (v + delta).min(INFINITY);
            } else {
                return v;
            }
            delta = delta.saturating_mul(2);
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// One iteration at the root over `moves` (kept in their order; each gets its score).
    /// `store`: record the result for the root position in the table (only for the best
    /// line: the others exclude better turns).
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        exact: bool,
        store: bool,
    ) -> i32 {
        self.pv_len[0] = 0;
        let mut best = -INFINITY;
        for (i, m) in moves.iter_mut().enumerate() {
            let child = pos.play_unchecked(&m.turn);
            let key = turn_key(&m.turn);
            let score = if i == 0 || exact {
                let a = if exact { -INFINITY } else { alpha };
                -self.negamax(&child, depth - 1, -beta, -a, 1)
            } else {
                let mut s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
                }
                s
            };
            if self.aborted {
                return best;
            }
            m.value = score;
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                self.update_pv(0, key);
                let pv = self.pv_turns(pos);
                self.best = Some((m.turn, score, pv));
                if score >= beta && !exact {
                    break;
                }
            }
        }
        if store && !exact {
            let bound = if best >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            if let Some((t, _, _)) = &self.best {
                self.tt
                    .store(pos.zobrist(), 0, turn_key(t), best, depth, bound);
            }
        }
        best
    }

    /// Principal variation search below the root.
    fn negamax(
        &mut self,
        pos: &Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        if self.enter(ply) {
            return 0;
        }
        let us = pos.side_to_move();
        // No stones loses in the capture games (a Fanoron-Telo side places its first ones).
        if pos.stones(us).is_empty() && pos.rules().game().captures() {
            return -WIN + ply as i32;
        }
        if let Some(draw) = self.draw_by_rule(pos, ply) {
            return draw;
        }
        if let Some(v) = self.probe_tables(pos, ply) {
            return v;
        }
        // Mate distance pruning: no result here beats a win found nearer the root.
        alpha = alpha.max(-WIN + ply as i32);
        beta = beta.min(WIN - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let pv_node = beta - alpha > 1;
        let hash = pos.zobrist();
        let mut tt_turn = 0;
        if let Some(hit) = self.tt.probe(hash, ply) {
            tt_turn = hit.turn;
            if !pv_node && hit.depth >= depth && hit.cuts(alpha, beta) {
                return hit.score;
            }
        }
        if self.selective && tt_turn == 0 && depth >= IIR_MIN_DEPTH {
            depth -= 1;
        }
        // A quiet position off the principal variation: the null move and the pruning below
        // stand on its static evaluation (a side that must capture is not at rest: no
        // evaluation stands for it; nor for a receiver of Bell's Vela, whom having no capture
        // loses).
        let bell_receiver = pos.rules().vela() == VelaRule::Bell && pos.is_vela_phase();
        let quiet = !pv_node && !pos.has_capture() && !bell_receiver;
        // The evaluation for the pruning of the full-strength search (not in Fanoron-Telo,
        // where no side ever has a capture); other searches evaluate only for the null move.
        let static_eval = if quiet && self.selective && pos.rules().game().captures() {
            Some(self.eval(pos, ply))
        } else {
            None
        };
        // Reverse futility: near the horizon, a quiet position this far above beta stays
        // above it whatever is played.
        if let Some(e) = static_eval
            && depth <= RFP_MAX_DEPTH
            && beta.abs() < WIN_BOUND
            && e - RFP_MARGIN * depth >= beta
        {
            return e;
        }
        // Null move: in a quiet position where even passing would keep the score at beta, a
        // reduced search of the opponent moving twice that still fails high means this node
        // fails high too.
        if quiet
            && depth >= NMP_MIN_DEPTH
            && self.null_allowed
            && beta.abs() < WIN_BOUND
            && pos.stones(us).count() >= NMP_MIN_STONES
            && static_eval.unwrap_or_else(|| self.eval(pos, ply)) >= beta
        {
            let r = NMP_BASE + depth / NMP_DIVISOR;
            self.hashes.push(hash);
            self.null_allowed = false;
            let s = -self.negamax(&pos.null_move(), depth - 1 - r, -beta, -beta + 1, ply + 1);
            self.null_allowed = true;
            self.hashes.pop();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s >= WIN_BOUND { beta } else { s };
            }
        }
        let mut turns = TurnList::new();
        pos.unique_turns_into(&mut turns);
        if turns.is_empty() {
            return self.stuck_score(pos, ply);
        }
        let quiet_node = !turns[0].is_capture();
        let killers = self.killers[ply];
        let mut scores = score_turns(&turns, tt_turn, &killers, self.history, us);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_key = 0;
        let mut tried_quiet: [(u8, u8); 64] = [(0, 0); 64];
        let mut n_quiet = 0;
        self.hashes.push(hash);
        let mut i = 0;
        while let Some(t) = pick_next(&mut turns, &mut scores) {
            let key = turn_key(&t);
            let is_killer = key == killers[0] || key == killers[1];
            // Near the horizon, once one turn is searched and no loss is certain: late quiet
            // turns are skipped, and so are all but the likeliest ones when even a good
            // margin would not lift the evaluation to alpha.
            if let Some(e) = static_eval
                && quiet_node
                && i > 0
                && best > -WIN_BOUND
            {
                if depth <= LMP_MAX_DEPTH && i as i32 >= LMP_BASE + depth * depth {
                    break;
                }
                if depth <= FUTILITY_MAX_DEPTH
                    && !is_killer
                    && key != tt_turn
                    && e + FUTILITY_MARGIN * depth <= alpha
                {
                    i += 1;
                    continue;
                }
            }
            let child = pos.play_unchecked(&t);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let r = if quiet_node
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVE
                    && !is_killer
                    && key != tt_turn
                {
                    let r = i32::from(lmr_table()[depth.min(63) as usize][i.min(63)]);
                    r.min(depth - 1).max(0)
                } else if !quiet_node
                    && depth >= LMR_MIN_DEPTH
                    && i >= CAPTURE_LMR_MIN_MOVE
                    && key != tt_turn
                {
                    1
                } else {
                    0
                };
                let mut s = -self.negamax(&child, depth - 1 - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1);
                }
                s
            };
            if self.aborted {
                self.hashes.pop();
                return 0;
            }
            i += 1;
            if score > best {
                best = score;
                best_key = key;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, key);
                    if score >= beta {
                        self.history.reward(us, &t, depth);
                        if quiet_node {
                            let k = &mut self.killers[ply];
                            if k[0] != key {
                                k[1] = k[0];
                                k[0] = key;
                            }
                            for &(from, to) in &tried_quiet[..n_quiet] {
                                self.history.punish(us, from, to, depth);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet_node && n_quiet < tried_quiet.len() {
                tried_quiet[n_quiet] = (t.from().index() as u8, t.to().index() as u8);
                n_quiet += 1;
            }
        }
        self.hashes.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let store_key = if bound == Bound::Upper { 0 } else { best_key };
        self.tt.store(hash, ply, store_key, best, depth, bound);
        best
    }

    /// Quiescence: a side that must capture is not at rest, so its captures are searched
    /// (they remove stones, so this ends); a side without captures stands on the evaluation.
    fn qsearch(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, qply: i32) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        let us = pos.side_to_move();
        // No stones loses in the capture games (a Fanoron-Telo side places its first ones).
        if pos.stones(us).is_empty() && pos.rules().game().captures() {
            return -WIN + ply as i32;
        }
        // Below the first quiescence ply every turn captured: nothing can repeat.
        if qply == 0
            && ply > 0
            && let Some(draw) = self.draw_by_rule(pos, ply)
        {
            return draw;
        }
        if !pos.has_capture() {
            if !pos.has_legal_turn() {
                return self.stuck_score(pos, ply);
            }
            return self.eval(pos, ply);
        }
        // A capture sequence reached by another order of the same captures is searched once:
        // the table remembers capture positions of the quiescence search too (at depth
        // QS_DEPTH, below every main-search depth, so they never cut a main-search node).
        let hash = pos.zobrist();
        let mut tt_turn = 0;
        if let Some(hit) = self.tt.probe(hash, ply) {
            tt_turn = hit.turn;
            if hit.cuts(alpha, beta) {
                return hit.score;
            }
        }
        let stand_pat = self.eval(pos, ply);
        if qply >= QS_MAX_PLY || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        if stand_pat - QS_STAND_PAT_MARGIN >= beta {
            return stand_pat;
        }
        let mut turns = TurnList::new();
        pos.unique_turns_into(&mut turns);
        let mut scores = score_turns(&turns, tt_turn, &[0, 0], self.history, us);
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_key = 0;
        let mut searched = 0;
        while let Some(t) = pick_next(&mut turns, &mut scores) {
            if searched == QS_MAX_MOVES {
                break;
            }
            searched += 1;
            let child = pos.play_unchecked(&t);
            let score = -self.qsearch(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_key = turn_key(&t);
                    self.update_pv(ply, best_key);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(hash, ply, best_key, best, QS_DEPTH, bound);
        best
    }
}

#[cfg(test)]
mod tests;
