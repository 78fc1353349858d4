//! Playing levels for people: limits plus a chosen, reproducible imperfection.

use core::fmt;
use core::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::{Game, Turn};

use crate::Limits;
use crate::params::{
    BEGINNER_BLIND, BEGINNER_CHAIN_BLIND, BEGINNER_DEPTH, BEGINNER_MARGIN, BEGINNER_NOISE,
    CASUAL_BLIND, CASUAL_DEPTH, CASUAL_MARGIN, CASUAL_NOISE, MAXIMUM_MOVETIME_MS, STRONG_NODES,
    WIN_BOUND,
};
use crate::rng::{Rng, mix};
use crate::search::{Info, SearchError, SearchOptions, SearchResult, Searcher};
use crate::tt::turn_key;

/// How well the engine plays.
///
/// | level | limit | imperfection |
/// |---|---|---|
/// | `beginner` | depth 1 | overlooks three turns in five, chains more often the longer they are (it sees the biggest single captures); noisy evaluation; any turn within 3 stones of the best |
/// | `casual` | depth 4 | overlooks a tenth of its turns; slight noise; any turn within 0.4 stones of the best |
/// | `strong` | 400 000 nodes | none |
/// | `maximum` | 3 s per turn (or the clock given) | none |
///
/// Beginner, casual and strong are reproducible: the same game, level and seed give the same
/// turn on any machine (maximum depends on the time).
///
/// # Examples
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use fanorona_ai::{Level, Searcher};
/// use fanorona_core::Game;
///
/// let game = Game::default();
/// let level: Level = "beginner".parse()?;
/// let mut searcher = Searcher::new(2);
/// let stop = AtomicBool::new(false);
/// let a = level.play(&mut searcher, &game, 7, &stop, |_| {})?;
/// let b = level.play(&mut searcher, &game, 7, &stop, |_| {})?;
/// assert_eq!(a.best, b.best);
/// assert!(game.position().is_legal(&a.best));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
#[non_exhaustive]
pub enum Level {
    /// Beatable by a new player: shallow, noisy, and content with a worse turn.
    Beginner,
    /// A club player's game: short-sighted now and then.
    Casual,
    /// Full strength within a fixed node budget.
    Strong,
    /// Full strength, as long as the time allows.
    #[default]
    Maximum,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [
        Level::Beginner,
        Level::Casual,
        Level::Strong,
        Level::Maximum,
    ];

    /// The level's name: `beginner`, `casual`, `strong` or `maximum`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Maximum => "maximum",
        }
    }

    /// The level by number, 0 (beginner) to 3 (maximum).
    pub fn from_index(index: u8) -> Option<Level> {
        Level::ALL.get(usize::from(index)).copied()
    }

    /// The level's number, 0 (beginner) to 3 (maximum).
    pub fn index(self) -> u8 {
        self as u8
    }

    /// The search limits of this level.
    pub fn limits(self) -> Limits {
        match self {
            Level::Beginner => Limits::depth(BEGINNER_DEPTH),
            Level::Casual => Limits::depth(CASUAL_DEPTH),
            Level::Strong => Limits::nodes(STRONG_NODES),
            Level::Maximum => Limits::movetime(Duration::from_millis(MAXIMUM_MOVETIME_MS)),
        }
    }

    /// The search options of this level with the noise seeded by `seed`.
    pub fn options(self, seed: u64) -> SearchOptions {
        let (noise, exact) = match self {
            Level::Beginner => (BEGINNER_NOISE, true),
            Level::Casual => (CASUAL_NOISE, true),
            Level::Strong | Level::Maximum => (0, false),
        };
        SearchOptions {
            eval_noise: noise,
            seed,
            exact_root: exact,
            ..SearchOptions::default()
        }
    }

    /// Per cent of its turns this level overlooks in a position (see [`Level::in_view`]).
    pub fn blind(self) -> u64 {
        match self {
            Level::Beginner => BEGINNER_BLIND,
            Level::Casual => CASUAL_BLIND,
            Level::Strong | Level::Maximum => 0,
        }
    }

    /// The turns of `game`'s position this level sees, as a person would: each turn is
    /// overlooked with the level's [`Level::blind`] chance, drawn from `seed`, the position and
    /// the turn (so the same game and seed overlook the same turns). The captures that take the
    /// most stones stay in view (the obvious ones), and so does at least one turn. The beginner
    /// is short-sighted: for it the obvious captures are the single steps that take the most,
    /// and a chain is overlooked more often the longer it is. Turns that reach the same
    /// position are seen or overlooked together. Empty when the level sees everything or the
    /// game has no legal turn.
    ///
    /// ```
    /// use fanorona_ai::Level;
    /// use fanorona_core::Game;
    ///
    /// let game = Game::default();
    /// assert!(Level::Strong.in_view(&game, 1).is_empty());
    /// let all = game.position().legal_turns().len();
    /// let seen = Level::Beginner.in_view(&game, 1);
    /// assert!(!seen.is_empty() && seen.len() <= all);
    /// assert_eq!(seen, Level::Beginner.in_view(&game, 1));
    /// // Some seeds overlook some of the opening captures.
    /// assert!((0..20).any(|seed| Level::Beginner.in_view(&game, seed).len() < all));
    /// ```
    pub fn in_view(self, game: &Game, seed: u64) -> Vec<Turn> {
        let blind = self.blind();
        let turns = game.position().legal_turns();
        if blind == 0 || turns.is_empty() {
            return Vec::new();
        }
        let short_sighted = self == Level::Beginner;
        let obvious = |t: &Turn| !short_sighted || t.len() <= 1;
        let most = turns
            .iter()
            .filter(|t| obvious(t))
            .map(|t| t.captured().count())
            .max()
            .unwrap_or(0);
        let pos_key = mix(seed ^ game.position().zobrist());
        let seen: Vec<Turn> = turns
            .iter()
            .filter(|t| {
                let blind = if short_sighted {
                    (blind + BEGINNER_CHAIN_BLIND * (t.len().saturating_sub(1) as u64)).min(95)
                } else {
                    blind
                };
                (most > 0 && obvious(t) && t.captured().count() == most)
                    || mix(pos_key ^ turn_key(t)) % 100 >= blind
            })
            .copied()
            .collect();
        if seen.is_empty() {
            // Keep the turn least likely to be overlooked.
            let t = turns
                .iter()
                .max_by_key(|t| mix(pos_key ^ turn_key(t)) % 100)
                .copied();
            return t.into_iter().collect();
        }
        seen
    }

    /// How far below the best score a turn may be and still be played.
    pub fn margin(self) -> i32 {
        match self {
            Level::Beginner => BEGINNER_MARGIN,
            Level::Casual => CASUAL_MARGIN,
            Level::Strong | Level::Maximum => 0,
        }
    }

    /// Chooses the turn this level plays from a finished search: the best turn for the strong
    /// levels; for the weaker ones a turn drawn (reproducibly, from `seed`) among those
    /// scoring within [`Level::margin`] of the best, better turns more likely. A forced win
    /// is never thrown away, and a turn that loses by force is never chosen over one that
    /// does not.
    pub fn choose(self, result: &SearchResult, seed: u64) -> Turn {
        let margin = self.margin();
        let best = result.value;
        if margin == 0 || result.root_moves.len() < 2 || best >= WIN_BOUND {
            return result.best;
        }
        let candidates: Vec<(Turn, i32)> = result
            .root_moves
            .iter()
            .filter(|m| m.value >= best - margin && m.value > -WIN_BOUND)
            .map(|m| (m.turn, margin - (best - m.value) + 1))
            .collect();
        let total: i64 = candidates.iter().map(|&(_, w)| i64::from(w)).sum();
        if candidates.is_empty() || total <= 0 {
            return result.best;
        }
        let mut rng = Rng::new(mix(seed ^ turn_key(&result.best)));
        let mut pick = rng.below(total as u64) as i64;
        for (turn, w) in candidates {
            if pick < i64::from(w) {
                return turn;
            }
            pick -= i64::from(w);
        }
        result.best
    }

    /// Searches with this level's limits and options and puts the level's choice in
    /// [`SearchResult::best`] (the rest of the result is the search's own).
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game is over.
    pub fn play(
        self,
        searcher: &mut Searcher,
        game: &Game,
        seed: u64,
        stop: &AtomicBool,
        info: impl FnMut(&Info),
    ) -> Result<SearchResult, SearchError> {
        self.play_with(searcher, game, &self.limits(), seed, stop, info)
    }

    /// As [`Level::play`], with other limits (a level's imperfection at a given time per
    /// turn, for instance).
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game is over.
    pub fn play_with(
        self,
        searcher: &mut Searcher,
        game: &Game,
        limits: &Limits,
        seed: u64,
        stop: &AtomicBool,
        info: impl FnMut(&Info),
    ) -> Result<SearchResult, SearchError> {
        let options = SearchOptions {
            seed,
            ..SearchOptions::default()
        };
        self.play_with_options(searcher, game, limits, &options, stop, info)
    }

    /// As [`Level::play_with`], with the root turns and lines of `options`
    /// ([`SearchOptions::root_turns`], [`SearchOptions::multipv`]) and its seed
    /// ([`SearchOptions::seed`]); the level sets the evaluation noise and root exactness, and,
    /// when `options` names no root turns, the turns it sees ([`Level::in_view`]).
    ///
    /// # Errors
    ///
    /// [`SearchError::GameOver`] when the game is over, [`SearchError::NoRootTurn`] when
    /// `options` restricts the root to turns that are not legal.
    pub fn play_with_options(
        self,
        searcher: &mut Searcher,
        game: &Game,
        limits: &Limits,
        options: &SearchOptions,
        stop: &AtomicBool,
        info: impl FnMut(&Info),
    ) -> Result<SearchResult, SearchError> {
        let seed = options.seed;
        let level = self.options(seed);
        let mut options = SearchOptions {
            eval_noise: level.eval_noise,
            exact_root: level.exact_root,
            ..options.clone()
        };
        if options.root_turns.is_empty() {
            options.root_turns = self.in_view(game, seed);
        }
        if self.margin() > 0 {
            // What the table and history remember from other searches would change move
            // ordering and reductions, and so the scores: start afresh to stay reproducible.
            searcher.clear();
        }
        let mut result = searcher.search(game, limits, &options, stop, info)?;
        let chosen = self.choose(&result, seed);
        if chosen != result.best {
            result.best = chosen;
            result.pv = vec![chosen];
            if let Some(m) = result.root_moves.iter().find(|m| m.turn == chosen) {
                result.value = m.value;
                result.score = crate::Score::from_value(m.value);
            }
        }
        Ok(result)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level name that is not one of the four.
///
/// ```
/// use fanorona_ai::Level;
///
/// let err = "expert".parse::<Level>().unwrap_err();
/// assert_eq!(err.given(), "expert");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LevelError(String);

impl LevelError {
    /// The text that was not a level.
    pub fn given(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown level {} (known: beginner, casual, strong, maximum, or 0-3)",
            fanorona_core::escape::quoted(&self.0)
        )
    }
}

impl std::error::Error for LevelError {}

impl FromStr for Level {
    type Err = LevelError;

    /// Reads a level name (any case) or number 0-3.
    fn from_str(s: &str) -> Result<Level, LevelError> {
        let lower = s.trim().to_ascii_lowercase();
        if let Ok(n) = lower.parse::<u8>() {
            return Level::from_index(n).ok_or_else(|| LevelError(s.to_owned()));
        }
        Level::ALL
            .into_iter()
            .find(|l| l.name() == lower || (lower == "max" && *l == Level::Maximum))
            .ok_or_else(|| LevelError(s.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_numbers_and_order() {
        for (i, l) in Level::ALL.into_iter().enumerate() {
            assert_eq!(l.index() as usize, i);
            assert_eq!(l.name().parse::<Level>(), Ok(l));
            assert_eq!(i.to_string().parse::<Level>(), Ok(l));
        }
        assert!(Level::Beginner < Level::Maximum);
        assert_eq!("MAX".parse::<Level>(), Ok(Level::Maximum));
        assert!("grandmaster".parse::<Level>().is_err());
        assert!("4".parse::<Level>().is_err());
    }

    #[test]
    fn the_weaker_levels_overlook_some_turns_but_never_the_biggest_captures() {
        // After f2-e3A (White takes two), Black has captures of different sizes.
        let mut game = Game::default();
        let t = game.position().parse_turn("f2-e3A").unwrap();
        game.play(&t).unwrap();
        let turns = game.position().legal_turns();
        let most = turns.iter().map(|t| t.captured().count()).max().unwrap();
        // The beginner always sees the single steps that take the most.
        let most_single = turns
            .iter()
            .filter(|t| t.len() == 1)
            .map(|t| t.captured().count())
            .max()
            .unwrap();
        let mut missed = 0;
        for seed in 0..20 {
            let seen = Level::Casual.in_view(&game, seed);
            assert!(
                turns
                    .iter()
                    .filter(|t| t.captured().count() == most)
                    .all(|t| seen.contains(t))
            );
            let seen = Level::Beginner.in_view(&game, seed);
            assert!(!seen.is_empty());
            assert!(seen.iter().all(|t| turns.contains(t)));
            assert!(
                turns
                    .iter()
                    .filter(|t| t.len() == 1 && t.captured().count() == most_single)
                    .all(|t| seen.contains(t))
            );
            missed += turns.len() - seen.len();
            // The level plays only what it sees.
            let r = Level::Beginner
                .play(
                    &mut Searcher::new(1),
                    &game,
                    seed,
                    &AtomicBool::new(false),
                    |_| {},
                )
                .unwrap();
            assert!(seen.contains(&r.best));
        }
        assert!(missed > 0);
        assert!(Level::Maximum.in_view(&game, 3).is_empty());
    }

    #[test]
    fn the_beginner_varies_with_the_seed_but_not_without_it() {
        let game = Game::default();
        let stop = AtomicBool::new(false);
        let mut s = Searcher::new(1);
        let mut seen = std::collections::HashSet::new();
        for seed in 0..12 {
            let a = Level::Beginner
                .play(&mut s, &game, seed, &stop, |_| {})
                .unwrap();
            let b = Level::Beginner
                .play(&mut s, &game, seed, &stop, |_| {})
                .unwrap();
            assert_eq!(a.best, b.best, "seed {seed} is not reproducible");
            seen.insert(a.best);
        }
        // From the start, three turns win two stones: the beginner does not always pick one.
        assert!(seen.len() >= 2, "only {seen:?}");
    }
}
