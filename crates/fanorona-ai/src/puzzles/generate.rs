//! Making puzzles: candidate positions from games, the criterion of [`check`](mod@super::check),
//! themes from what the winning turn does, and a rating from how hard the solution is to
//! find.
//!
//! [`Generator::consider`] takes a candidate position and keeps it as a puzzle when it passes
//! the criterion: by the endgame tables when they cover it (a [`PuzzleKind::WinIn`]),
//! otherwise by search (a [`PuzzleKind::Tactic`]). The command `fanorona puzzles` feeds it
//! positions from game records and self-play (`docs/puzzles.md`).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::puzzles::generate::{Config, Generator};
//! use fanorona_core::Position;
//!
//! let mut generator = Generator::new(Config::default(), None);
//! // The start of the game: every capture is about equal, no puzzle.
//! assert!(generator.consider(&Position::standard()).is_none());
//! ```

use std::collections::HashSet;

use fanorona_core::{GameKind, Position, Turn};

use super::check;
use super::{MAX_RATING, MIN_RATING, Puzzle, PuzzleKind, Theme};
use crate::Searcher;
use crate::solve::tablebase::Tablebase;

/// How puzzles are made.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The depth of the search that finds and checks tactics (plies).
    pub depth: u32,
    /// Candidates with more stones than this are not searched (a search of a crowded
    /// position at the depth is slow, and its tactics are rare).
    pub max_stones: u32,
    /// The prefix of the ids: puzzle `n` is `{prefix}{n}`, `n` counting from [`Config::first_id`].
    pub prefix: String,
    /// The number of the first puzzle.
    pub first_id: usize,
}

impl Default for Config {
    /// Depth 6, at most 44 stones (all), ids `p1`, `p2`, ...
    fn default() -> Config {
        Config {
            depth: 6,
            max_stones: 44,
            prefix: "p".into(),
            first_id: 1,
        }
    }
}

impl Config {
    /// A configuration with this depth and id prefix, the defaults otherwise.
    pub fn new(depth: u32, prefix: &str) -> Config {
        Config {
            depth,
            prefix: prefix.to_owned(),
            ..Config::default()
        }
    }
}

/// Turns candidate positions into puzzles, skipping positions seen before.
pub struct Generator {
    config: Config,
    searcher: Searcher,
    tables: Option<Tablebase>,
    seen: HashSet<(u64, u16)>,
    made: usize,
    /// Candidates considered, and searched or probed.
    pub considered: u64,
}

impl core::fmt::Debug for Generator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Generator")
            .field("config", &self.config)
            .field("tables", &self.tables)
            .field("made", &self.made)
            .field("considered", &self.considered)
            .finish_non_exhaustive()
    }
}

impl Generator {
    /// A generator with `config`, using `tables` (if any) for the positions they cover.
    pub fn new(config: Config, tables: Option<Tablebase>) -> Generator {
        Generator {
            config,
            searcher: check::searcher(),
            tables,
            seen: HashSet::new(),
            made: 0,
            considered: 0,
        }
    }

    /// Whether the tables cover `pos` (its material), so that [`Generator::consider`] judges
    /// it by them.
    pub fn covered(&self, pos: &Position) -> bool {
        self.tables.as_ref().is_some_and(|t| t.probe(pos).is_some())
    }

    /// Judges a candidate: the puzzle it makes (numbered with the next id), or `None` when
    /// it makes none, was seen before, or the game is over there.
    pub fn consider(&mut self, pos: &Position) -> Option<Puzzle> {
        if pos.outcome().is_some() || pos.rules().game() == GameKind::Telo {
            return None;
        }
        // Counters aside: the same stones and side are the same puzzle.
        if !self.seen.insert((pos.zobrist(), pos.no_capture_count())) {
            return None;
        }
        let stones = pos.occupied().count();
        self.considered += 1;
        let (solution, kind, found_depth) = if self.covered(pos) {
            let tables = self.tables.as_ref().expect("covered");
            let (solution, turns) = check::table_solution(tables, pos).ok()??;
            (solution, PuzzleKind::WinIn { turns }, None)
        } else {
            if stones > self.config.max_stones {
                return None;
            }
            let depth = self.config.depth;
            let (fams, choices) =
                check::families_and_choices(&mut self.searcher, pos, depth).ok()?;
            let solution = check::tactic_solution(&fams)?;
            let first = solution[0].steps().next();
            // The depth from which the engine's best turn begins with the solution's step.
            let found = (0..choices.len())
                .rev()
                .take_while(|&i| choices[i] == first)
                .last()
                .map_or(depth, |i| i as u32 + 1);
            (solution, PuzzleKind::Tactic { depth }, Some(found))
        };
        let themes = themes(pos, &solution, kind);
        let families = count_families(pos);
        let rating = rating(&solution, kind, &themes, families, found_depth);
        let id = format!("{}{}", self.config.prefix, self.config.first_id + self.made);
        let puzzle = Puzzle::new(&id, *pos, solution, kind, themes, rating).ok()?;
        self.made += 1;
        Some(puzzle)
    }
}

/// The number of turn families (distinct first steps) of `pos`.
pub fn count_families(pos: &Position) -> usize {
    let mut firsts = Vec::new();
    for t in pos.legal_turns() {
        let f = t.steps().next();
        if !firsts.contains(&f) {
            firsts.push(f);
        }
    }
    firsts.len()
}

/// The shortest solution turn (the first of the shortest, in order).
fn shortest(solution: &[Turn]) -> Turn {
    *solution
        .iter()
        .min_by_key(|t| t.len())
        .expect("a solution has a turn")
}

/// The themes of a puzzle from what its winning turn does (see [`Theme`]): judged on the
/// shortest solution turn, the least the solver must do.
pub fn themes(pos: &Position, solution: &[Turn], kind: PuzzleKind) -> Vec<Theme> {
    let turn = shortest(solution);
    let mut out = Vec::new();
    if turn.len() >= 3 && turn.is_capture() {
        out.push(Theme::Chain);
    }
    if turn.is_paika() {
        out.push(Theme::Quiet);
    }
    // A step of the turn that could have captured the other way, which no solution does.
    let mut builder = pos.begin_turn();
    let mut made = Vec::new();
    for step in turn.steps() {
        if step.kind.is_capture() {
            let other = builder
                .legal_steps()
                .into_iter()
                .find(|s| s.from == step.from && s.to == step.to && s.kind != step.kind);
            if let Some(other) = other {
                let mut alt = made.clone();
                alt.push(other);
                let starts =
                    |t: &Turn| t.len() >= alt.len() && t.steps().zip(&alt).all(|(a, b)| a == *b);
                if !solution.iter().any(starts) && !out.contains(&Theme::Choice) {
                    out.push(Theme::Choice);
                }
            }
        }
        if builder.play_step(step).is_err() {
            break;
        }
        made.push(step);
    }
    let after = pos.play_unchecked(&turn);
    let taken = turn.captured().count();
    let reply = after
        .legal_turns()
        .iter()
        .map(|t| t.captured().count())
        .max()
        .unwrap_or(0);
    if reply > taken {
        out.push(Theme::Sacrifice);
    }
    if matches!(kind, PuzzleKind::WinIn { .. }) || pos.occupied().count() <= 8 {
        out.push(Theme::Endgame);
    }
    if pos.rules().game() == GameKind::Vela {
        out.push(Theme::Vela);
    }
    out.sort();
    out
}

/// A puzzle's initial rating from its difficulty (`docs/puzzles.md`, "Ratings"):
///
/// 900, plus 100 for each search depth beyond the first that the engine needs before its
/// best turn begins with the solution's step for good (`found_depth`; for a win in N, N
/// takes its place), plus 60 for each doubling of the turn families to choose from, plus
/// 40 for each step of the shortest solution turn beyond the first (up to 8), plus 120 for a
/// sacrifice, 100 for a quiet move and 80 for an approach-or-withdraw choice; clamped to
/// [`MIN_RATING`]..=[`MAX_RATING`].
pub fn rating(
    solution: &[Turn],
    kind: PuzzleKind,
    themes: &[Theme],
    families: usize,
    found_depth: Option<u32>,
) -> u16 {
    let depth = match kind {
        PuzzleKind::WinIn { turns } => f64::from(turns),
        PuzzleKind::Tactic { depth } => f64::from(found_depth.unwrap_or(depth)),
    };
    let steps = shortest(solution).len().clamp(1, 8) as f64;
    let mut r = 900.0 + 100.0 * (depth - 1.0).max(0.0);
    r += 60.0 * (families.max(1) as f64).log2();
    r += 40.0 * (steps - 1.0);
    for (theme, bonus) in [
        (Theme::Sacrifice, 120.0),
        (Theme::Quiet, 100.0),
        (Theme::Choice, 80.0),
    ] {
        if themes.contains(&theme) {
            r += bonus;
        }
    }
    (r.round() as u16).clamp(MIN_RATING, MAX_RATING)
}
