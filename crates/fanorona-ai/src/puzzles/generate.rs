//! Making puzzles: candidate positions from games, the criterion of [`check`](mod@super::check),
//! themes from what the winning turn does, and a rating from how hard the solution is to
//! find.
//!
//! [`Generator::consider`] takes a candidate position and keeps it as a puzzle when it passes
//! the criterion: by the endgame tables when they cover it (a [`PuzzleKind::WinIn`]),
//! otherwise by search (a [`PuzzleKind::Tactic`]). The command `fanorona puzzles` feeds it
//! positions from game records and self-play ([`docs/puzzles.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/puzzles.md)).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::puzzles::generate::{Config, Generator};
//! use fanorona_core::Position;
//!
//! let mut generator = Generator::new(Config::default(), None);
//! // The start of the game: every capture is about equal, no puzzle.
//! assert!(generator.consider(&Position::standard(), "start").is_none());
//! ```

use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

use fanorona_core::{BoardSize, Color, Game, GameKind, Position, Rules, Setup, Turn};

use super::check;
use super::{MAX_RATING, MIN_RATING, Puzzle, PuzzleKind, Theme};
use crate::solve::tablebase::Tablebase;
use crate::{Limits, Rng, SearchOptions, Searcher};

/// How puzzles are made.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Config {
    /// The depth of the search that finds and checks tactics (plies).
    pub depth: u32,
    /// Candidates with more stones than this are not searched (a search of a crowded
    /// position at the depth is slow, and its tactics are rare).
    pub max_stones: u32,
}

impl Default for Config {
    /// Depth 6, at most 44 stones (all).
    fn default() -> Config {
        Config {
            depth: 6,
            max_stones: 44,
        }
    }
}

impl Config {
    /// A configuration with this depth, the defaults otherwise.
    pub fn new(depth: u32) -> Config {
        Config {
            depth,
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
    /// Candidates considered, and searched or probed.
    pub considered: u64,
}

impl core::fmt::Debug for Generator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Generator")
            .field("config", &self.config)
            .field("tables", &self.tables)
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
            considered: 0,
        }
    }

    /// Whether the tables cover `pos` (its material), so that [`Generator::consider`] judges
    /// it by them.
    pub fn covered(&self, pos: &Position) -> bool {
        self.tables.as_ref().is_some_and(|t| t.probe(pos).is_some())
    }

    /// Marks `pos` as seen: [`Generator::consider`] will skip it (resuming a run).
    /// Returns whether it was new.
    pub fn mark_seen(&mut self, pos: &Position) -> bool {
        self.seen.insert((pos.zobrist(), pos.no_capture_count()))
    }

    /// Judges a candidate: the puzzle it makes, with the id `id`, or `None` when it makes
    /// none, was seen before (the same stones, side to move and count of turns without
    /// capture), or the game is over there.
    pub fn consider(&mut self, pos: &Position, id: &str) -> Option<Puzzle> {
        if !self.mark_seen(pos) {
            return None;
        }
        self.judge(pos, id)
    }

    /// Judges a candidate as [`Generator::consider`] does, without asking or marking whether
    /// it was seen (for callers that remove repeats themselves, and judge in parallel with
    /// one generator a thread).
    ///
    /// Before the search that decides, two cheaper ones (the same depth without exact scores
    /// for every turn) skip positions whose best turn scores under [`check::WIN_SCORE`], or
    /// whose other families, searched without the best turn's, score over
    /// [`check::OTHER_SCORE`]: they would not pass. Only the deciding search's scores make
    /// the puzzle.
    pub fn judge(&mut self, pos: &Position, id: &str) -> Option<Puzzle> {
        if pos.outcome().is_some() || pos.rules().game() == GameKind::Telo {
            return None;
        }
        self.considered += 1;
        if count_families(pos) < 2 {
            return None;
        }
        let stones = pos.occupied().count();
        let (solution, kind, found_depth) = if self.covered(pos) {
            let tables = self.tables.as_ref().expect("covered");
            let (solution, turns) = check::table_solution(tables, pos).ok()??;
            (solution, PuzzleKind::WinIn { turns }, None)
        } else {
            if stones > self.config.max_stones {
                return None;
            }
            let depth = self.config.depth;
            self.searcher.clear();
            let stop = AtomicBool::new(false);
            let quick = self
                .searcher
                .search(
                    &Game::new(*pos),
                    &Limits::depth(depth),
                    &SearchOptions::default(),
                    &stop,
                    |_| {},
                )
                .ok()?;
            if quick.value < check::WIN_SCORE {
                return None;
            }
            // The best of the other families, searched alone, must stay under the bar.
            let family = quick.best.steps().next();
            let others: Vec<Turn> = pos
                .legal_turns()
                .iter()
                .filter(|t| t.steps().next() != family)
                .copied()
                .collect();
            self.searcher.clear();
            let rest = self
                .searcher
                .search(
                    &Game::new(*pos),
                    &Limits::depth(depth),
                    &SearchOptions::default().with_root_turns(others),
                    &stop,
                    |_| {},
                )
                .ok()?;
            if rest.value > check::OTHER_SCORE {
                return None;
            }
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
        Puzzle::new(id, *pos, solution, kind, themes, rating).ok()
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

/// A puzzle's initial rating from its difficulty ([`docs/puzzles.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/puzzles.md), "Ratings"):
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

/// A self-play game for candidates: from the start of `size` under the standard rules, two
/// random turns, then the engine's search with `nodes` nodes a turn and evaluation noise of
/// up to `noise` centi-stones (so that both sides make mistakes worth punishing), to the end
/// or `max_turns` turns. Reproducible: the same arguments give the same game.
///
/// # Errors
///
/// [`SearchError`](crate::SearchError) only for a game over at the start (never with a
/// board of the capture game).
pub fn self_play(
    size: BoardSize,
    nodes: u64,
    noise: i32,
    seed: u64,
    max_turns: usize,
) -> Result<Game, crate::SearchError> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(Position::start(size));
    let mut searcher = check::searcher();
    let stop = AtomicBool::new(false);
    while game.outcome().is_none() && game.turns().len() < max_turns {
        let turn = if game.turns().len() < 2 {
            let turns = game.position().legal_turns();
            turns[rng.below(turns.len() as u64) as usize]
        } else {
            let options = SearchOptions::default().with_noise(noise, rng.next_u64());
            searcher
                .search(&game, &Limits::nodes(nodes), &options, &stop, |_| {})?
                .best
        };
        game.play_unchecked(&turn);
    }
    Ok(game)
}

/// A random position of `size` under the standard rules with 3 to `max_stones` stones (each
/// side at least one), either side to move, the game not over: a candidate for a win in N
/// within the endgame tables. `None` when `max_stones` is under 3 or the draw gave a
/// position whose game is over (draw again).
pub fn random_endgame(size: BoardSize, max_stones: u32, rng: &mut Rng) -> Option<Position> {
    if max_stones < 3 {
        return None;
    }
    let total = 3 + rng.below(u64::from(max_stones - 2)) as u32;
    let white = 1 + rng.below(u64::from(total - 1)) as u32;
    let points: Vec<_> = size.points().collect();
    let mut setup = Setup::empty(size);
    let mut placed = 0;
    while placed < total {
        let p = points[rng.below(points.len() as u64) as usize];
        if setup.white.contains(p) || setup.black.contains(p) {
            continue;
        }
        if placed < white {
            setup.white.insert(p);
        } else {
            setup.black.insert(p);
        }
        placed += 1;
    }
    if rng.below(2) == 1 {
        setup.side_to_move = Color::Black;
    }
    let pos = Position::from_setup(setup, Rules::STANDARD).ok()?;
    pos.outcome().is_none().then_some(pos)
}

/// Shuffles `items` in place (Fisher-Yates with [`Rng`]): the same seed, the same order.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..items.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::Verdict;

    /// A hand-checked win in 1 by the tables (generated here: 5x5, up to 3 stones). White's
    /// only stone b2 against Black b4 and c3, White to move: b2-b3 by approach takes b4, and
    /// the chain goes on b3-a3 by withdrawal, taking c3: no black stone left. Stopping at b3
    /// loses (c3 withdraws to d3 and takes b3); the other family, b2-a1 by withdrawal, takes
    /// c3 but leaves one stone against one, no forced win (the tables' value of that
    /// position is checked below).
    #[test]
    fn a_hand_checked_endgame_is_found() {
        let rules = crate::solve::solver_rules();
        let (tables, _) = Tablebase::generate(
            BoardSize::DIMY,
            rules,
            3,
            &crate::solve::Budget::default(),
            &mut |_| {},
        )
        .expect("tables");
        let pos = Position::from_fen("5/1B3/2B2/1W3/5 w").expect("position");
        let other = pos.parse_turn("b2-a1W").expect("legal");
        let after = pos.play_unchecked(&other).with_rules_unchecked(rules);
        assert_ne!(
            tables.probe(&after).expect("covered").wdl,
            crate::solve::Value::Loss
        );
        let mut generator = Generator::new(Config::default(), Some(tables));
        assert!(generator.covered(&pos));
        let p = generator.consider(&pos, "e1").expect("a puzzle");
        assert_eq!(p.kind(), PuzzleKind::WinIn { turns: 1 });
        let text: Vec<String> = p.solution().iter().map(ToString::to_string).collect();
        assert_eq!(text, ["b2-b3A-a3W"]);
        assert_eq!(p.themes(), [Theme::Endgame]);
        let steps: Vec<_> = p.solution()[0].steps().collect();
        assert_eq!(p.judge(&steps[..1], true), Verdict::Wrong);
        assert_eq!(p.judge(&steps, false), Verdict::Solved);
        // Seen once: not again.
        assert!(generator.consider(&pos, "e2").is_none());
    }

    #[test]
    fn self_play_is_reproducible() {
        let a = self_play(BoardSize::DIMY, 200, 100, 7, 40).expect("game");
        let b = self_play(BoardSize::DIMY, 200, 100, 7, 40).expect("game");
        assert_eq!(a.turns(), b.turns());
        assert!(a.turns().len() > 2);
        let c = self_play(BoardSize::DIMY, 200, 100, 8, 40).expect("game");
        assert_ne!(a.turns(), c.turns());
    }

    #[test]
    fn random_endgames_are_valid() {
        let mut rng = Rng::new(3);
        let mut made = 0;
        for _ in 0..200 {
            if let Some(p) = random_endgame(BoardSize::STANDARD, 4, &mut rng) {
                let n = p.occupied().count();
                assert!((3..=4).contains(&n));
                assert!(p.stones(Color::White).count() > 0 && p.stones(Color::Black).count() > 0);
                made += 1;
            }
        }
        assert!(made > 150);
        assert!(random_endgame(BoardSize::STANDARD, 2, &mut rng).is_none());
    }

    #[test]
    fn shuffles_are_reproducible_permutations() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 9);
        shuffle(&mut b, 9);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        a.sort_unstable();
        assert_eq!(a, (0..50).collect::<Vec<_>>());
    }
}
