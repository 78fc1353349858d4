//! Checking a puzzle: does exactly one turn family win, and which turns of it?
//!
//! Two methods, one for each [`PuzzleKind`]:
//!
//! - **Search** ([`tactic_solution`]): the engine's fixed-depth search (one thread, a fresh
//!   table, the hand evaluation, an exact score for every root turn: a reproducible
//!   computation) scores every legal turn. Turns are grouped into families by their first
//!   step, a family scoring as its best turn. The position is a puzzle when exactly one family
//!   scores at least [`WIN_SCORE`] (two stones, or a forced win), every other family at most
//!   [`OTHER_SCORE`] (half a stone), and there are at least two families. The solution is
//!   the winning family's turns that score at least [`WIN_SCORE`].
//! - **Tables** ([`table_solution`]): the endgame tables give the exact value of the position
//!   and of the position after every legal turn. The position is a puzzle when the side to
//!   move wins, the turns that keep the win all begin with one step, and some other first
//!   step exists. The solution is exactly the turns that keep the win.
//!
//! [`check`] re-checks a stored puzzle by its kind: the solution it finds must be the stored
//! one, and for a win in N the number of turns must match.

use core::fmt;
use std::sync::atomic::AtomicBool;

use fanorona_core::{Game, Position, Step, Turn};

use super::{Puzzle, PuzzleKind};
use crate::solve::Value;
use crate::solve::tablebase::Tablebase;
use crate::{Limits, SearchError, SearchOptions, Searcher};

/// The least score (centi-stones) of the winning family: two stones.
pub const WIN_SCORE: i32 = 200;
/// The most score (centi-stones) of every other family: half a stone.
pub const OTHER_SCORE: i32 = 50;
/// The transposition table of a checking search, in MiB.
pub const HASH_MB: usize = 16;

/// A turn family: the legal turns that begin with one step, each with its score.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Family {
    /// The first step shared by the turns.
    pub first: Step,
    /// The family's score: its best turn's (centi-stones, side to move's view; wins near
    /// [`crate::params::WIN`]).
    pub best: i32,
    /// Every legal turn of the family with its score.
    pub turns: Vec<(Turn, i32)>,
}

/// Why a puzzle did not pass [`check`].
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum CheckError {
    /// The search could not run (the game is over in the position).
    Search(SearchError),
    /// No table covers the position or a position after one of its turns.
    Uncovered,
    /// The position is not a puzzle by the criterion, or its solution is not the stored one.
    Fails(String),
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Search(e) => write!(f, "cannot search: {e}"),
            CheckError::Uncovered => write!(f, "the endgame tables do not cover the position"),
            CheckError::Fails(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for CheckError {}

/// A searcher as the checking searches use it: one thread, the hand evaluation, no tables,
/// a [`HASH_MB`] table. [`families`] clears it before each search.
pub fn searcher() -> Searcher {
    let mut s = Searcher::new(HASH_MB);
    s.set_network(None);
    s.set_tablebase(None);
    s.set_threads(1);
    s
}

/// The families of `pos` with their scores at `depth` (see the module documentation), best
/// family first, then in the order of their first step; `searcher` should come from
/// [`searcher`] (it is cleared first, so that the scores depend on nothing else).
///
/// # Errors
///
/// [`SearchError`] when the game is over in `pos`.
pub fn families(
    searcher: &mut Searcher,
    pos: &Position,
    depth: u32,
) -> Result<Vec<Family>, SearchError> {
    families_and_choices(searcher, pos, depth).map(|(f, _)| f)
}

/// [`families`] and the first step of the best turn after each iteration, from depth 1.
pub(crate) fn families_and_choices(
    searcher: &mut Searcher,
    pos: &Position,
    depth: u32,
) -> Result<(Vec<Family>, Vec<Option<Step>>), SearchError> {
    searcher.clear();
    let mut choices: Vec<Option<Step>> = Vec::new();
    let game = Game::new(*pos);
    let stop = AtomicBool::new(false);
    let options = SearchOptions::default().with_exact_root();
    let result = searcher.search(&game, &Limits::depth(depth), &options, &stop, |info| {
        if info.multipv <= 1 {
            let at = info.depth as usize;
            if choices.len() < at {
                choices.resize(at, None);
            }
            choices[at - 1] = info.pv.first().and_then(|t| t.steps().next());
        }
    })?;
    // The search scores the turns that reach distinct positions; a turn reaching the same
    // position by another path has the same score.
    let scored: Vec<(Position, i32)> = result
        .root_moves
        .iter()
        .map(|m| (pos.play_unchecked(&m.turn), m.value))
        .collect();
    let mut out: Vec<Family> = Vec::new();
    for turn in pos.legal_turns() {
        let after = pos.play_unchecked(&turn);
        let Some(&(_, value)) = scored.iter().find(|(p, _)| *p == after) else {
            continue;
        };
        let first = turn
            .steps()
            .next()
            .expect("a turn of the capture game has a step");
        match out.iter_mut().find(|f| f.first == first) {
            Some(f) => {
                f.best = f.best.max(value);
                f.turns.push((turn, value));
            }
            None => out.push(Family {
                first,
                best: value,
                turns: vec![(turn, value)],
            }),
        }
    }
    out.sort_by_key(|f| core::cmp::Reverse(f.best));
    Ok((out, choices))
}

/// The solution by search, if the families make a puzzle: exactly one family scores at least
/// [`WIN_SCORE`], all others at most [`OTHER_SCORE`], and there are at least two; the
/// solution is that family's turns scoring at least [`WIN_SCORE`], sorted.
pub fn tactic_solution(families: &[Family]) -> Option<Vec<Turn>> {
    let (best, others) = families.split_first()?;
    if others.is_empty() || best.best < WIN_SCORE || others.iter().any(|f| f.best > OTHER_SCORE) {
        return None;
    }
    let mut turns: Vec<Turn> = best
        .turns
        .iter()
        .filter(|(_, v)| *v >= WIN_SCORE)
        .map(|(t, _)| *t)
        .collect();
    turns.sort();
    Some(turns)
}

/// The solution by the endgame tables, and the side to move's turns to the end: `Ok(None)`
/// when the position is not a puzzle (not a win, the winning turns of more than one
/// family, or a single family in all), `Ok(Some((turns, n)))` when it is.
///
/// A win counts only when it comes before the position's no-capture limit.
///
/// # Errors
///
/// [`CheckError::Uncovered`] when the tables do not cover the position or a position after
/// one of its turns.
pub fn table_solution(
    tables: &Tablebase,
    pos: &Position,
) -> Result<Option<(Vec<Turn>, u16)>, CheckError> {
    let limit = pos
        .rules()
        .no_capture_limit()
        .map(core::num::NonZeroU16::get);
    let holds = |p: &Position, probe: crate::solve::tablebase::Probe| {
        limit.is_none_or(|l| probe.holds_under_limit(p.no_capture_count(), l))
    };
    let probe = tables.probe(pos).ok_or(CheckError::Uncovered)?;
    if probe.wdl != Value::Win || !holds(pos, probe) || pos.outcome().is_some() {
        return Ok(None);
    }
    let mut winning: Vec<Turn> = Vec::new();
    let mut firsts: Vec<Step> = Vec::new();
    for turn in pos.legal_turns() {
        let first = turn
            .steps()
            .next()
            .expect("a turn of the capture game has a step");
        if !firsts.contains(&first) {
            firsts.push(first);
        }
        let after = pos.play_unchecked(&turn);
        let child = tables.probe(&after).ok_or(CheckError::Uncovered)?;
        if child.wdl == Value::Loss && holds(&after, child) {
            winning.push(turn);
        }
    }
    let Some(first) = winning.first().and_then(|t| t.steps().next()) else {
        return Ok(None);
    };
    if firsts.len() < 2 || winning.iter().any(|t| t.steps().next() != Some(first)) {
        return Ok(None);
    }
    winning.sort();
    Ok(Some((winning, probe.distance.div_ceil(2))))
}

/// Re-checks `puzzle` by its kind: a [`PuzzleKind::Tactic`] by a search at its depth with
/// `searcher` (from [`searcher`]), a [`PuzzleKind::WinIn`] by `tables`. Passes when the
/// criterion holds and the solution found is the stored one (and the number of turns, for a
/// win in N).
///
/// # Errors
///
/// [`CheckError`] says why the puzzle fails.
pub fn check(
    puzzle: &Puzzle,
    searcher: &mut Searcher,
    tables: Option<&Tablebase>,
) -> Result<(), CheckError> {
    let text = |turns: &[Turn]| {
        turns
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    match puzzle.kind() {
        PuzzleKind::Tactic { depth } => {
            let fams = families(searcher, puzzle.position(), depth).map_err(CheckError::Search)?;
            match tactic_solution(&fams) {
                Some(s) if s == puzzle.solution() => Ok(()),
                Some(s) => Err(CheckError::Fails(format!(
                    "the search at depth {depth} finds the solution {}, not {}",
                    text(&s),
                    text(puzzle.solution())
                ))),
                None => Err(CheckError::Fails(format!(
                    "at depth {depth} the families score {}: not one clear winner",
                    fams.iter()
                        .map(|f| format!("{} {}", f.first, f.best))
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            }
        }
        PuzzleKind::WinIn { turns } => {
            let tables = tables.ok_or(CheckError::Uncovered)?;
            match table_solution(tables, puzzle.position())? {
                Some((s, n)) if s == puzzle.solution() && n == turns => Ok(()),
                Some((s, n)) => Err(CheckError::Fails(format!(
                    "the tables give the solution {} winning in {n}, not {} in {turns}",
                    text(&s),
                    text(puzzle.solution())
                ))),
                None => Err(CheckError::Fails(
                    "by the tables exactly one family does not keep the win".into(),
                )),
            }
        }
    }
}
