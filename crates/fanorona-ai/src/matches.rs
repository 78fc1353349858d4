//! Matches between two players: games with alternating colours from the start or from a set
//! of openings, in parallel, and the result as wins, draws, losses and an Elo difference.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::matches::{MatchConfig, play_match};
//! use fanorona_core::{BoardSize, Position};
//!
//! let config = MatchConfig {
//!     games: 2,
//!     openings: vec![Position::start(BoardSize::TELO)],
//!     ..MatchConfig::default()
//! };
//! let result = play_match(&"greedy".parse()?, &"random".parse()?, &config, |_, _| {})?;
//! assert_eq!(result.wins + result.draws + result.losses, 2);
//! assert_eq!(result.games.len(), 2);
//! # Ok::<(), fanorona_ai::players::PlayerError>(())
//! ```

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use fanorona_core::{Color, EndReason, Game, Outcome, Position};

use crate::Limits;
use crate::players::{Player, PlayerError, PlayerSpec};
use crate::rng::mix;

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Number of games.
    pub games: usize,
    /// Starting positions; game `i` starts from opening `(i / 2) % len`, each opening twice
    /// with colours swapped. Empty means the standard start.
    pub openings: Vec<Position>,
    /// Limits for engine players whose description names none (`--movetime`).
    pub limits: Option<Limits>,
    /// Games played at once.
    pub threads: usize,
    /// A game still running after this many turns is adjudicated a draw.
    pub max_turns: usize,
    /// Seed of the players' randomness (each game derives its own).
    pub seed: u64,
    /// Random legal turns played from each opening before the players take over (the same
    /// for both games of a pair), so that deterministic players meet in varied positions.
    pub random_plies: usize,
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            games: 2,
            openings: Vec::new(),
            limits: None,
            threads: 1,
            max_turns: 1000,
            seed: 1,
            random_plies: 0,
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// The game's number, from 0.
    pub index: usize,
    /// Name of the player with White.
    pub white: String,
    /// Name of the player with Black.
    pub black: String,
    /// Whether the first player of the match had White.
    pub first_is_white: bool,
    /// The game.
    pub game: Game,
    /// The result: by the rules, or a draw adjudicated at the turn limit (reason
    /// [`EndReason::Agreement`]).
    pub outcome: Outcome,
}

impl MatchGame {
    /// The first player's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn first_score(&self) -> f64 {
        match self.outcome.winner {
            None => 0.5,
            Some(c) => {
                if (c == Color::White) == self.first_is_white {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }
}

/// The result of a match, counted for the first player.
#[derive(Clone, Debug)]
pub struct MatchResult {
    /// Games the first player won.
    pub wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games the first player lost.
    pub losses: usize,
    /// Every game, in order.
    pub games: Vec<MatchGame>,
}

impl MatchResult {
    /// The Elo difference of the first player over the second, with its error margin.
    pub fn elo(&self) -> Elo {
        elo(self.wins, self.draws, self.losses)
    }
}

/// An Elo difference estimated from a match, with the 95% error margin.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Elo {
    /// The difference; infinite when one side scored everything.
    pub diff: f64,
    /// Half the width of the 95% confidence interval; infinite when it is unbounded.
    pub margin: f64,
}

fn elo_of(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The Elo difference for `wins`, `draws` and `losses` of the first player, with its 95%
/// margin from the variance of the game scores.
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::elo;
///
/// let e = elo(60, 20, 20); // 70% score
/// assert!((e.diff - 147.2).abs() < 0.1);
/// assert!(e.margin > 50.0 && e.margin < 90.0);
/// assert_eq!(elo(5, 0, 5).diff, 0.0);
/// assert!(elo(10, 0, 0).diff.is_infinite());
/// ```
pub fn elo(wins: usize, draws: usize, losses: usize) -> Elo {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return Elo {
            diff: 0.0,
            margin: f64::INFINITY,
        };
    }
    let p = (wins as f64 + draws as f64 / 2.0) / n;
    let diff = if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        elo_of(p)
    };
    let var = (wins as f64 * (1.0 - p).powi(2)
        + draws as f64 * (0.5 - p).powi(2)
        + losses as f64 * p.powi(2))
        / n;
    let se = (var / n).sqrt();
    let (lo, hi) = (p - 1.959_964 * se, p + 1.959_964 * se);
    let margin = if lo <= 0.0 || hi >= 1.0 {
        f64::INFINITY
    } else {
        (elo_of(hi) - elo_of(lo)) / 2.0
    };
    Elo { diff, margin }
}

/// Plays one game from `start` to its end (or `max_turns`).
///
/// # Errors
///
/// A [`PlayerError`] of either player. A player answering an illegal turn is a
/// [`PlayerError::Protocol`].
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: Position,
    max_turns: usize,
) -> Result<(Game, Outcome), PlayerError> {
    white.new_game()?;
    black.new_game()?;
    let mut game = Game::new(start);
    loop {
        if let Some(o) = game.outcome() {
            return Ok((game, o));
        }
        if game.turns().len() >= max_turns {
            return Ok((game, Outcome::draw(EndReason::Agreement)));
        }
        let player: &mut dyn Player = match game.position().side_to_move() {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let turn = player.choose(&game)?;
        if game.play(turn).is_err() {
            return Err(PlayerError::Protocol {
                command: player.name(),
                reason: format!("played the illegal turn {turn} in {}", game.position()),
            });
        }
    }
}

/// Plays a match of `config.games` games between `first` and `second`, alternating colours,
/// on up to `config.threads` threads; `progress` is called as each game ends (with the number
/// of games finished so far).
///
/// # Errors
///
/// The first [`PlayerError`] of any game (the match stops).
pub fn play_match(
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    progress: impl Fn(usize, &MatchGame) + Sync,
) -> Result<MatchResult, PlayerError> {
    let openings = if config.openings.is_empty() {
        vec![Position::standard()]
    } else {
        config.openings.clone()
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<MatchGame>>> = Mutex::new(vec![None; config.games]);
    let error: Mutex<Option<PlayerError>> = Mutex::new(None);
    let threads = config.threads.clamp(1, config.games.max(1));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= config.games || error.lock().map(|e| e.is_some()).unwrap_or(true) {
                        break;
                    }
                    match play_one(first, second, config, &openings, i) {
                        Ok(g) => {
                            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                            progress(n, &g);
                            if let Ok(mut r) = results.lock() {
                                r[i] = Some(g);
                            }
                        }
                        Err(e) => {
                            if let Ok(mut slot) = error.lock() {
                                slot.get_or_insert(e);
                            }
                            break;
                        }
                    }
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    let games: Vec<MatchGame> = results
        .into_inner()
        .unwrap_or_else(|p| p.into_inner())
        .into_iter()
        .flatten()
        .collect();
    let mut result = MatchResult {
        wins: 0,
        draws: 0,
        losses: 0,
        games,
    };
    for g in &result.games {
        match g.first_score() {
            1.0 => result.wins += 1,
            0.0 => result.losses += 1,
            _ => result.draws += 1,
        }
    }
    Ok(result)
}

fn play_one(
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    openings: &[Position],
    i: usize,
) -> Result<MatchGame, PlayerError> {
    let pair = i / 2;
    let start = randomised(
        openings[pair % openings.len()],
        config.random_plies,
        mix(config.seed ^ 0x5EED ^ pair as u64),
    );
    let first_is_white = i.is_multiple_of(2);
    let seed = mix(config.seed.wrapping_add(i as u64));
    let mut a = first.build(seed, config.limits)?;
    let mut b = second.build(mix(seed), config.limits)?;
    let (white, black) = if first_is_white {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let (game, outcome) = play_game(white.as_mut(), black.as_mut(), start, config.max_turns)?;
    Ok(MatchGame {
        index: i,
        white: white.name(),
        black: black.name(),
        first_is_white,
        game,
        outcome,
    })
}

/// `start` after up to `plies` random legal turns (fewer if the game would end).
fn randomised(start: Position, plies: usize, seed: u64) -> Position {
    let mut rng = crate::Rng::new(seed);
    let mut game = Game::new(start);
    for _ in 0..plies {
        let turns = game.position().legal_turns();
        let t = turns[rng.below(turns.len() as u64) as usize];
        let mut next = game.clone();
        if next.play(t).is_err() || next.outcome().is_some() {
            break;
        }
        game = next;
    }
    *game.position()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_matches_hand_computed_values() {
        // 75%: -400 log10(1/0.75 - 1) = 400 log10(3) = 190.85
        let e = elo(3, 0, 1);
        assert!((e.diff - 190.85).abs() < 0.01);
        let e = elo(10, 0, 10);
        assert_eq!(e.diff, 0.0);
        // p = 0.5, variance 0.25, se = 0.5 / sqrt(20) = 0.1118; p +- 1.96 se = 0.2809..0.7191;
        // elo(0.7191) = 163.5, so the margin is 163.5.
        assert!((e.margin - 163.5).abs() < 0.5, "{}", e.margin);
        assert_eq!(elo(0, 0, 4).diff, f64::NEG_INFINITY);
        // All draws: no variance, so no margin.
        assert_eq!(elo(0, 4, 0).margin, 0.0);
    }

    #[test]
    fn colours_alternate_and_results_count_for_the_first_player() {
        let config = MatchConfig {
            games: 4,
            threads: 2,
            ..MatchConfig::default()
        };
        let r = play_match(
            &"engine:depth=2".parse().unwrap(),
            &"random".parse().unwrap(),
            &config,
            |_, _| {},
        )
        .unwrap();
        assert_eq!(r.games.len(), 4);
        for (i, g) in r.games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert_eq!(g.first_is_white, i % 2 == 0);
            assert_eq!(g.game.outcome(), Some(g.outcome));
        }
        // A depth-2 search beats random play.
        assert_eq!(r.wins, 4, "{r:?}");
    }

    #[test]
    fn random_openings_are_shared_by_a_pair_and_differ_between_pairs() {
        let config = MatchConfig {
            games: 4,
            random_plies: 3,
            max_turns: 0,
            ..MatchConfig::default()
        };
        let r = play_match(
            &"random".parse().unwrap(),
            &"random".parse().unwrap(),
            &config,
            |_, _| {},
        )
        .unwrap();
        let starts: Vec<Position> = r.games.iter().map(|g| *g.game.start()).collect();
        assert_eq!(starts[0], starts[1]);
        assert_eq!(starts[2], starts[3]);
        assert_ne!(starts[0], starts[2]);
        assert_eq!(starts[0].turn_number(), 2); // three turns: White, Black, White
    }

    #[test]
    fn the_turn_limit_adjudicates_a_draw() {
        let mut a = PlayerSpec::Random.build(1, None).unwrap();
        let mut b = PlayerSpec::Random.build(2, None).unwrap();
        let (game, outcome) = play_game(a.as_mut(), b.as_mut(), Position::standard(), 3).unwrap();
        assert_eq!(game.turns().len(), 3);
        assert_eq!(outcome, Outcome::draw(EndReason::Agreement));
    }
}
