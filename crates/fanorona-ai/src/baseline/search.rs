//! The frozen search of v0.1.0: iterative deepening over principal variation search with a
//! transposition table, move ordering, late move reductions and a capped quiescence search.
//!
//! Copied from `src/search/mod.rs` at commit 81132a4 with only what a baseline player does not
//! use taken out: endgame-table probes, evaluation noise, exact root scores and progress
//! reports. None of these ran in a player's search, so the nodes visited and the turns
//! chosen are those of v0.1.0.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fanorona_core::{Game, Position, StuckRule, Turn, TurnList};

use super::eval::evaluate;
use super::ordering::{History, Killers, pick_next, score_turns};
use super::params::{
    ASPIRATION_DELTA, ASPIRATION_MAX_DELTA, ASPIRATION_MIN_DEPTH, CHECK_EVERY, DRAW, INFINITY,
    LMR_BASE, LMR_DIVISOR, LMR_MIN_DEPTH, LMR_MIN_MOVE, MAX_PLY, QS_MAX_MOVES, QS_MAX_PLY,
    QS_STAND_PAT_MARGIN, WIN, WIN_BOUND,
};
use super::tt::{Bound, TranspositionTable, turn_key};
use super::{BaselineResult, is_timed, max_depth, time_budget};
use crate::SearchError;
use crate::limits::Limits;

/// A root turn and its score from the last completed iteration.
#[derive(Clone, Copy, Debug)]
struct RootMove {
    turn: Turn,
    value: i32,
}

/// The searcher's memory, reused from turn to turn.
pub(super) struct Searcher {
    tt: TranspositionTable,
    history: Box<History>,
}

impl Searcher {
    pub(super) fn new(hash_mb: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new(History::default()),
        }
    }

    pub(super) fn clear(&mut self) {
        self.tt.clear();
        *self.history = History::default();
    }

    pub(super) fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<BaselineResult, SearchError> {
        if let Some(o) = game.outcome() {
            return Err(SearchError::GameOver(o));
        }
        let root = *game.position();
        let start = Instant::now();
        let budget = time_budget(limits);
        self.tt.new_search();
        self.history.age();
        let rules = root.rules();
        let mut w = Worker {
            tt: &mut self.tt,
            history: &mut self.history,
            killers: Box::new([[0; 2]; MAX_PLY + 2]),
            hashes: game.positions().iter().map(Position::zobrist).collect(),
            root_index: game.positions().len() - 1,
            nodes: 0,
            stop,
            hard: budget.map(|(_, hard)| start + hard),
            node_limit: if limits.infinite {
                u64::MAX
            } else {
                limits.nodes.unwrap_or(u64::MAX).max(1)
            },
            aborted: false,
            repetition: rules.repetition(),
            no_capture_limit: rules.no_capture_limit().map(core::num::NonZeroU16::get),
            stuck: rules.stuck(),
            best: None,
        };
        w.hashes.reserve(MAX_PLY + 2);

        let mut turns = root.legal_turns();
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
        let mut result = BaselineResult {
            best: root_moves[0].turn,
            value: -evaluate(&root.play_unchecked(&root_moves[0].turn)),
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };

        let max_depth = max_depth(limits);
        let timed = is_timed(limits);
        let single = root_moves.len() == 1;
        let mut prev = result.value;
        for depth in 1..=max_depth {
            let (mut delta, mut alpha, mut beta) =
                if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < WIN_BOUND {
                    (
                        ASPIRATION_DELTA,
                        (prev - ASPIRATION_DELTA).max(-INFINITY),
                        (prev + ASPIRATION_DELTA).min(INFINITY),
                    )
                } else {
                    (INFINITY, -INFINITY, INFINITY)
                };
            let value = loop {
                let v = w.root(&root, &mut root_moves, depth as i32, alpha, beta);
                if w.aborted {
                    break v;
                }
                if v <= alpha && alpha > -INFINITY {
                    beta = (alpha + beta) / 2;
                    alpha = (v - delta).max(-INFINITY);
                } else if v >= beta && beta < INFINITY {
                    beta = (v + delta).min(INFINITY);
                } else {
                    break v;
                }
                delta = delta.saturating_mul(2);
                if delta > ASPIRATION_MAX_DELTA {
                    alpha = -INFINITY;
                    beta = INFINITY;
                }
            };
            if w.aborted {
                // A turn that beat the previous best in the unfinished iteration (or any
                // finished turn of depth 1) is better informed than the last answer.
                if let Some((turn, value)) = w.best.take() {
                    result.best = turn;
                    result.value = value;
                }
                break;
            }
            w.best = None;
            // Best first; the sort is stable, so equal bounds keep their earlier order.
            root_moves.sort_by_key(|m| -m.value);
            prev = value;
            result.best = root_moves[0].turn;
            result.value = value;
            result.depth = depth;
            let elapsed = start.elapsed();
            if timed && single {
                break;
            }
            if let Some((soft, _)) = budget
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
        }
        result.nodes = w.nodes;
        result.time = start.elapsed();
        Ok(result)
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

/// The state of one running search.
struct Worker<'a> {
    tt: &'a mut TranspositionTable,
    history: &'a mut History,
    killers: Box<[Killers; MAX_PLY + 2]>,
    /// Hashes of the game's positions, then of the positions on the search path.
    hashes: Vec<u64>,
    /// Index of the root position in `hashes`.
    root_index: usize,
    nodes: u64,
    stop: &'a AtomicBool,
    hard: Option<Instant>,
    node_limit: u64,
    aborted: bool,
    repetition: Option<u8>,
    no_capture_limit: Option<u16>,
    stuck: StuckRule,
    /// The best root turn of the current iteration so far: (turn, score).
    best: Option<(Turn, i32)>,
}

impl Worker<'_> {
    /// Counts a node and tells whether the search must stop.
    #[inline]
    fn enter(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return true;
        }
        self.nodes += 1;
        if self.nodes & (CHECK_EVERY - 1) == 0
            && (self.stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h))
        {
            self.aborted = true;
            return true;
        }
        false
    }

    /// The score of a side with no legal turn.
    #[inline]
    fn stuck_score(&self, ply: usize) -> i32 {
        match self.stuck {
            StuckRule::Draws => DRAW,
            // Loses, and any rule added later until the engine learns it.
            _ => -WIN + ply as i32,
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
                DRAW
            } else {
                self.stuck_score(ply)
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
                    return Some(DRAW);
                }
                seen += 1;
                if seen >= u32::from(n) {
                    return Some(DRAW);
                }
            }
            dist += 2;
        }
        None
    }

    /// One iteration at the root over `moves` (kept in their order; each gets its score).
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [RootMove],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INFINITY;
        for (i, m) in moves.iter_mut().enumerate() {
            let child = pos.play_unchecked(&m.turn);
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
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
                self.best = Some((m.turn, score));
                if score >= beta {
                    break;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if let Some((t, _)) = &self.best {
            self.tt
                .store(pos.zobrist(), 0, turn_key(t), best, depth, bound);
        }
        best
    }

    /// Principal variation search below the root.
    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        if self.enter() {
            return 0;
        }
        let us = pos.side_to_move();
        if pos.stones(us).is_empty() {
            return -WIN + ply as i32;
        }
        if let Some(draw) = self.draw_by_rule(pos, ply) {
            return draw;
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
            if !pv_node && hit.depth >= depth {
                let cut = match hit.bound {
                    Bound::Exact => true,
                    Bound::Lower => hit.score >= beta,
                    Bound::Upper => hit.score <= alpha,
                };
                if cut {
                    return hit.score;
                }
            }
        }
        let mut turns: TurnList = pos.legal_turns();
        if turns.is_empty() {
            return self.stuck_score(ply);
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
            let child = pos.play_unchecked(&t);
            let is_killer = key == killers[0] || key == killers[1];
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
        if self.enter() {
            return 0;
        }
        let us = pos.side_to_move();
        if pos.stones(us).is_empty() {
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
                return self.stuck_score(ply);
            }
            return evaluate(pos);
        }
        let stand_pat = evaluate(pos);
        if qply >= QS_MAX_PLY || ply >= MAX_PLY - 1 {
            return stand_pat;
        }
        if stand_pat - QS_STAND_PAT_MARGIN >= beta {
            return stand_pat;
        }
        let mut turns: TurnList = pos.legal_turns();
        let mut scores = score_turns(&turns, 0, &[0, 0], self.history, us);
        let mut best = -INFINITY;
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
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
