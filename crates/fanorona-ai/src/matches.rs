//! Matches between two players: games in colour-swapped pairs from a set of openings, in
//! parallel, scored as wins, draws, losses, pentanomial pair counts, an Elo difference with
//! its error margin, and optionally a sequential probability ratio test (SPRT) that stops the
//! match when it decides.
//!
//! A player's fault (an external engine that crashes, does not answer in time, breaks the
//! protocol or plays an illegal turn) loses that game, with the reason in the game's
//! [`Termination`]; the match goes on. A game still running at the turn limit is adjudicated
//! a draw ([`Termination::Adjudicated`]).
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::matches::{MatchConfig, play_match};
//! use fanorona_core::{BoardSize, Position};
//!
//! let mut config = MatchConfig::default();
//! config.games = 2;
//! config.openings = vec![Position::start(BoardSize::TELO)];
//! let result = play_match(&"greedy".parse()?, &"random".parse()?, &config, |_, _| Ok(()))?;
//! let t = result.tally;
//! assert_eq!(t.wins + t.draws + t.losses, 2);
//! assert_eq!(t.pentanomial.pairs(), 1);
//! assert_eq!(result.games.len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod stats;
mod times;

use core::fmt;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fanorona_core::{Color, EndReason, Game, Position};

pub use self::stats::{
    Elo, Pentanomial, Sprt, SprtDecision, SprtError, SprtStatus, elo, elo_of_score, score_of_elo,
};
pub use self::times::{TimeControl, TurnTime, TurnTimes};
use crate::Limits;
use crate::players::{Player, PlayerError, PlayerSpec, Timeouts};
use crate::rng::mix;
use crate::tt::turn_key;

/// How a match is played.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchConfig {
    /// Number of games (the most, when an SPRT may stop the match earlier).
    pub games: usize,
    /// Starting positions: pair `k` (games `2k` and `2k + 1`, the first player White in the
    /// first) starts from opening `k % len`. Empty means the standard start.
    pub openings: Vec<Position>,
    /// Limits for engine players whose description names none (`--movetime`).
    pub limits: Option<Limits>,
    /// Games played at once, one thread each.
    pub concurrency: usize,
    /// A game still running after this many turns is adjudicated a draw.
    pub max_turns: usize,
    /// Seed of the players' randomness (each game derives its own) and of random openings.
    pub seed: u64,
    /// Random legal turns played from each opening before the players take over (the same
    /// for both games of a pair), so that deterministic players meet in varied positions.
    /// Starts that repeat an earlier pair's are drawn again (up to 64 times).
    pub random_plies: usize,
    /// Time-outs for external engines.
    pub timeouts: Timeouts,
    /// Stop when this test decides (after a complete pair).
    pub sprt: Option<Sprt>,
    /// Keep every finished game in [`MatchResult::games`] (else they are only handed to the
    /// callback, and memory stays bounded however many games are played).
    pub keep_games: bool,
    /// Play on a game clock: each player's clock is given to it with every turn (an external
    /// engine gets `go wtime btime winc binc`), and a player whose turn takes longer than its
    /// clock plus [`Self::time_margin`] loses on time ([`FaultKind::Timeout`], tag `time
    /// forfeit`).
    pub time_control: Option<TimeControl>,
    /// How far past its clock a turn may go before it is lost on time (the latency of a
    /// process and its pipes, as cutechess-cli's `timemargin`).
    pub time_margin: Duration,
    /// Play only this part of the match (its pairs, whole, with the starts and seeds they
    /// have in the whole match); an SPRT is computed but does not stop a shard.
    pub shard: Option<Shard>,
}

/// A part of a match: shard `K/N` plays the pairs `p` with `p % N == K - 1`, each pair with the
/// start and seeds it has in the whole match, so that the games of the N shards together are
/// the games of the whole match.
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::Shard;
///
/// let s: Shard = "2/3".parse()?;
/// assert_eq!((s.index(), s.count()), (2, 3));
/// assert!(s.has_game(2) && s.has_game(3) && s.has_game(8));
/// assert!(!s.has_game(0) && !s.has_game(4));
/// assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Shard {
    index: usize,
    count: usize,
}

impl Shard {
    /// Shard `index` (from 1) of `count`; `None` unless `1 <= index <= count`.
    pub fn new(index: usize, count: usize) -> Option<Shard> {
        (index >= 1 && index <= count).then_some(Shard { index, count })
    }

    /// Its number, from 1.
    pub fn index(self) -> usize {
        self.index
    }

    /// The number of shards.
    pub fn count(self) -> usize {
        self.count
    }

    /// Whether game `index` of the match (its pair `index / 2`) is in this shard.
    pub fn has_game(self, index: usize) -> bool {
        (index / 2) % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;

    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("{text:?} is not a shard K/N (1 <= K <= N), such as 2/8");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let k: usize = k.trim().parse().map_err(|_| bad())?;
        let n: usize = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

impl Default for MatchConfig {
    fn default() -> MatchConfig {
        MatchConfig {
            games: 2,
            openings: Vec::new(),
            limits: None,
            concurrency: 1,
            max_turns: 1000,
            seed: 1,
            random_plies: 0,
            timeouts: Timeouts::default(),
            sprt: None,
            keep_games: true,
            time_control: None,
            time_margin: DEFAULT_TIME_MARGIN,
            shard: None,
        }
    }
}

/// The default [`MatchConfig::time_margin`]: 50 ms.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(50);

/// The kind of a player's fault that lost a game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum FaultKind {
    /// The player could not be started for the game (or failed its handshake).
    Start,
    /// The engine ended (exited or closed its output) during the game.
    Crash,
    /// The engine did not answer in time.
    Timeout,
    /// The player answered a turn that is not legal.
    IllegalTurn,
    /// The engine broke the protocol.
    Protocol,
    /// The engine cannot play under the match's conditions (an option it lacks or rejects).
    Unsupported,
}

impl FaultKind {
    /// The kind of a player error.
    pub fn of(error: &PlayerError) -> FaultKind {
        match error {
            PlayerError::Timeout { .. } => FaultKind::Timeout,
            PlayerError::Ended { .. } => FaultKind::Crash,
            PlayerError::IllegalTurn { .. } => FaultKind::IllegalTurn,
            PlayerError::Unsupported { .. } => FaultKind::Unsupported,
            PlayerError::Io { .. } => FaultKind::Start,
            _ => FaultKind::Protocol,
        }
    }

    /// A short name: `start failure`, `crash`, `time-out`, `illegal turn`, `protocol
    /// violation`, `unsupported option`.
    pub const fn name(self) -> &'static str {
        match self {
            FaultKind::Start => "start failure",
            FaultKind::Crash => "crash",
            FaultKind::Timeout => "time-out",
            FaultKind::IllegalTurn => "illegal turn",
            FaultKind::Protocol => "protocol violation",
            FaultKind::Unsupported => "unsupported option",
        }
    }
}

/// How a match game ended.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Termination {
    /// By the rules (the game's [`Game::outcome`]).
    Rules(EndReason),
    /// Stopped at the match's turn limit and adjudicated a draw.
    Adjudicated {
        /// The turn limit.
        turns: usize,
    },
    /// Lost by a player's fault.
    Forfeit {
        /// The faulty player's colour.
        loser: Color,
        /// The kind of fault.
        kind: FaultKind,
        /// What happened, in words.
        detail: String,
    },
}

impl Termination {
    /// The value of a record's `Termination` tag, after PGN's: `normal`, `adjudication`,
    /// `time forfeit`, `illegal turn`, `abandoned` (a crash or start failure), `protocol
    /// violation`, `unsupported option`.
    pub fn tag(&self) -> &'static str {
        match self {
            Termination::Rules(_) => "normal",
            Termination::Adjudicated { .. } => "adjudication",
            Termination::Forfeit { kind, .. } => match kind {
                FaultKind::Timeout => "time forfeit",
                FaultKind::IllegalTurn => "illegal turn",
                FaultKind::Crash | FaultKind::Start => "abandoned",
                FaultKind::Protocol => "protocol violation",
                FaultKind::Unsupported => "unsupported option",
            },
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchGame {
    /// The game's number, from 0; games `2k` and `2k + 1` are pair `k`.
    pub index: usize,
    /// Name of the player with White.
    pub white: String,
    /// Name of the player with Black.
    pub black: String,
    /// Whether the first player of the match had White.
    pub first_is_white: bool,
    /// The game (its turns; a forfeited game ends where the fault happened).
    pub game: Game,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// The longest time White and Black took for a turn (index 0 White, 1 Black), waits for
    /// an engine that did not answer included.
    pub longest_turn: [Duration; 2],
    /// The time of every turn asked of a player, in order (White's turns at even places when
    /// White moved first), the turn of a fault included; empty when unknown (a game read
    /// back from a file written before the times were).
    pub turn_times: Vec<TurnTime>,
}

impl MatchGame {
    /// Game `index` of a match (for [`resume_match`]): `game` as played, its `winner` and
    /// `termination`. The first player has White in the even games, as [`play_match`] plays
    /// them; the names are empty and the longest turns zero until set.
    ///
    /// ```
    /// use fanorona_ai::matches::{MatchGame, Termination};
    /// use fanorona_core::{EndReason, Game};
    ///
    /// let mut g = MatchGame::new(3, Game::default(), None, Termination::Rules(EndReason::Repetition));
    /// g.white = "engine".into();
    /// assert_eq!((g.pair(), g.first_is_white), (1, false));
    /// ```
    pub fn new(
        index: usize,
        game: Game,
        winner: Option<Color>,
        termination: Termination,
    ) -> MatchGame {
        MatchGame {
            index,
            white: String::new(),
            black: String::new(),
            first_is_white: index.is_multiple_of(2),
            game,
            winner,
            termination,
            longest_turn: [Duration::ZERO; 2],
            turn_times: Vec::new(),
        }
    }

    /// The pair the game belongs to.
    pub fn pair(&self) -> usize {
        self.index / 2
    }

    /// The first player's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn first_score(&self) -> f64 {
        match self.winner {
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

    /// The result token: `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// How the game ended, in words (`White wins (all stones captured)`, `Draw adjudicated
    /// at the 1000-turn limit`, `Black wins: White (NAME) forfeits by time-out: ...`).
    pub fn description(&self) -> String {
        let side = |c: Color| if c == Color::White { "White" } else { "Black" };
        match &self.termination {
            Termination::Rules(reason) => match self.winner {
                Some(c) => format!("{} wins ({})", side(c), reason.description()),
                None => format!("Draw ({})", reason.description()),
            },
            Termination::Adjudicated { turns } => {
                format!("Draw adjudicated at the {turns}-turn limit")
            }
            Termination::Forfeit {
                loser,
                kind,
                detail,
            } => {
                let name = if *loser == Color::White {
                    &self.white
                } else {
                    &self.black
                };
                format!(
                    "{} wins: {} ({name}) forfeits by {}: {detail}",
                    side(!*loser),
                    side(*loser),
                    kind.name()
                )
            }
        }
    }
}

/// Counts of a match so far, for the first player.
#[derive(Clone, PartialEq, Debug, Default)]
#[non_exhaustive]
pub struct Tally {
    /// Games the first player won.
    pub wins: usize,
    /// Drawn games.
    pub draws: usize,
    /// Games the first player lost.
    pub losses: usize,
    /// Complete pairs by the first player's points in them.
    pub pentanomial: Pentanomial,
    /// Games lost by a fault of the first player.
    pub first_faults: usize,
    /// Games lost by a fault of the second player.
    pub second_faults: usize,
    /// The SPRT's state, when the match runs one.
    pub sprt: Option<SprtStatus>,
    /// Games by the [`Termination::tag`] of their end.
    pub terminations: BTreeMap<&'static str, usize>,
    /// The longest time the first player took for a turn.
    pub first_longest_turn: Duration,
    /// The longest time the second player took for a turn.
    pub second_longest_turn: Duration,
    /// The wall times of the first player's turns (games whose times are known).
    pub first_turn_times: TurnTimes,
    /// The wall times of the second player's turns.
    pub second_turn_times: TurnTimes,
    /// The search times the first player reported for its turns (an engine's own account).
    pub first_search_times: TurnTimes,
    /// The search times the second player reported for its turns.
    pub second_search_times: TurnTimes,
    /// Games played exactly as an earlier game of the match: the same start, the same
    /// colours and the same turns. Deterministic players (engines at a fixed node count or
    /// depth) repeat every game whose start repeats: such a game adds nothing to what the
    /// earlier one showed, yet the Elo and the SPRT count it as new evidence.
    pub repeated_games: usize,
}

impl Tally {
    /// Finished games.
    pub fn games(&self) -> usize {
        self.wins + self.draws + self.losses
    }

    /// The first player's mean score per game, if a game was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (self.wins as f64 + self.draws as f64 / 2.0) / n as f64)
    }

    /// The Elo difference from the games taken one by one.
    pub fn elo(&self) -> Elo {
        elo(self.wins, self.draws, self.losses)
    }
}

/// Why a match ended.
#[derive(Clone, PartialEq, Debug)]
#[non_exhaustive]
pub enum Stop {
    /// Every game was played.
    Completed,
    /// The SPRT decided, after this many finished games (games already running were
    /// finished and counted).
    Sprt {
        /// The decision.
        decision: SprtDecision,
        /// The test's state when it decided.
        status: SprtStatus,
        /// Games finished when it decided.
        games: usize,
    },
    /// The game callback failed (the match's output could not be written); no game was
    /// started after it.
    Aborted(String),
}

/// The result of a match.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct MatchResult {
    /// The counts for the first player.
    pub tally: Tally,
    /// Every finished game, in order of index (empty unless [`MatchConfig::keep_games`]).
    pub games: Vec<MatchGame>,
    /// Why the match ended.
    pub stop: Stop,
    /// Distinct starting positions (stones and side to move) among the pairs played.
    pub distinct_starts: usize,
    /// Things about the conditions worth knowing (an engine assumed to play the standard
    /// rules because it advertises no rule option, random openings that had to repeat).
    pub notes: Vec<String>,
}

/// Why a match could not be played.
#[derive(Debug)]
#[non_exhaustive]
pub enum MatchError {
    /// A player failed before the first game (it cannot start, or cannot play under the
    /// match's conditions).
    Player {
        /// `first` or `second`.
        which: &'static str,
        /// What went wrong.
        error: PlayerError,
    },
    /// The configuration cannot be played.
    Config(String),
    /// A finished game handed to [`resume_match`] is not a game of this match.
    Resume {
        /// The game's number, from 0 (its record's `Round` is one more).
        index: usize,
        /// Why it does not belong.
        reason: String,
    },
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Player { which, error } => write!(f, "the {which} player: {error}"),
            MatchError::Config(s) => f.write_str(s),
            MatchError::Resume { index, reason } => {
                write!(f, "the finished game of round {}: {reason}", index + 1)
            }
        }
    }
}

impl std::error::Error for MatchError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            MatchError::Player { error, .. } => Some(error),
            MatchError::Config(_) | MatchError::Resume { .. } => None,
        }
    }
}

/// A game's end.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct GameEnd {
    /// The game as played.
    pub game: Game,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// How it ended.
    pub termination: Termination,
    /// The longest time White and Black took for a turn (index 0 White, 1 Black).
    pub longest_turn: [Duration; 2],
    /// The time of every turn asked of a player, in order.
    pub turn_times: Vec<TurnTime>,
}

fn forfeit(game: Game, loser: Color, error: &PlayerError) -> GameEnd {
    GameEnd {
        game,
        winner: Some(!loser),
        termination: Termination::Forfeit {
            loser,
            kind: FaultKind::of(error),
            detail: error.to_string(),
        },
        longest_turn: [Duration::ZERO; 2],
        turn_times: Vec::new(),
    }
}

/// Plays one game from `start` to its end, to `max_turns` (a draw by adjudication), or to a
/// player's fault (a loss of that player). Never fails: whatever a player does ends the game
/// with a result.
pub fn play_game(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: Position,
    max_turns: usize,
) -> GameEnd {
    let game = Game::new(start);
    if let Err(e) = white.new_game(&start) {
        return forfeit(game, Color::White, &e);
    }
    if let Err(e) = black.new_game(&start) {
        return forfeit(game, Color::Black, &e);
    }
    play_on(white, black, game, max_turns, None)
}

/// As [`play_game`], on a game clock: before each turn both clocks are given to the player
/// ([`Player::set_clocks`]); the turn's wall time is taken off the mover's clock and the
/// increment added; a turn longer than the mover's clock plus `margin` loses the game on
/// time ([`FaultKind::Timeout`]).
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::matches::{TimeControl, play_game_on_clock};
/// use fanorona_ai::players::PlayerSpec;
/// use fanorona_core::{BoardSize, Position};
///
/// let mut white = "greedy".parse::<PlayerSpec>()?.build(1, None)?;
/// let mut black = "engine:depth=1".parse::<PlayerSpec>()?.build(2, None)?;
/// let tc = TimeControl::new(Duration::from_secs(10), Duration::from_millis(100));
/// let start = Position::start(BoardSize::TELO);
/// let margin = Duration::from_millis(50);
/// let end = play_game_on_clock(white.as_mut(), black.as_mut(), start, 200, tc, margin);
/// assert!(!end.game.turns().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_game_on_clock(
    white: &mut dyn Player,
    black: &mut dyn Player,
    start: Position,
    max_turns: usize,
    time_control: TimeControl,
    margin: Duration,
) -> GameEnd {
    let game = Game::new(start);
    if let Err(e) = white.new_game(&start) {
        return forfeit(game, Color::White, &e);
    }
    if let Err(e) = black.new_game(&start) {
        return forfeit(game, Color::Black, &e);
    }
    play_on(white, black, game, max_turns, Some((time_control, margin)))
}

fn play_on(
    white: &mut dyn Player,
    black: &mut dyn Player,
    mut game: Game,
    max_turns: usize,
    clock: Option<(TimeControl, Duration)>,
) -> GameEnd {
    let mut remaining = [clock.map_or(Duration::ZERO, |(tc, _)| tc.time); 2];
    let mut longest = [Duration::ZERO; 2];
    let mut times = Vec::new();
    let mut end = loop {
        if let Some(o) = game.outcome() {
            break GameEnd {
                game,
                winner: o.winner,
                termination: Termination::Rules(o.reason),
                longest_turn: longest,
                turn_times: Vec::new(),
            };
        }
        if game.turns().len() >= max_turns {
            break GameEnd {
                game,
                winner: None,
                termination: Termination::Adjudicated { turns: max_turns },
                longest_turn: longest,
                turn_times: Vec::new(),
            };
        }
        let side = game.position().side_to_move();
        let player: &mut dyn Player = match side {
            Color::White => &mut *white,
            Color::Black => &mut *black,
        };
        let me = usize::from(side == Color::Black);
        if let Some((tc, _)) = clock {
            player.set_clocks([
                crate::Clock::new(remaining[0], tc.increment),
                crate::Clock::new(remaining[1], tc.increment),
            ]);
        }
        let started = Instant::now();
        let chosen = player.choose(&game);
        let wall = started.elapsed();
        let slot = &mut longest[me];
        *slot = (*slot).max(wall);
        times.push(TurnTime::new(wall, player.search_time()));
        if let Some((tc, margin)) = clock {
            if wall > remaining[me] + margin {
                let detail = format!(
                    "lost on time: the turn took {:.1} ms with {:.1} ms on its clock (margin \
                     {} ms)",
                    wall.as_secs_f64() * 1000.0,
                    remaining[me].as_secs_f64() * 1000.0,
                    margin.as_millis()
                );
                break GameEnd {
                    game,
                    winner: Some(!side),
                    termination: Termination::Forfeit {
                        loser: side,
                        kind: FaultKind::Timeout,
                        detail,
                    },
                    longest_turn: longest,
                    turn_times: Vec::new(),
                };
            }
            remaining[me] = remaining[me].saturating_sub(wall) + tc.increment;
        }
        let turn = match chosen {
            Ok(t) => t,
            Err(e) => break forfeit(game, side, &e),
        };
        if let Err(e) = game.play(&turn) {
            let error = PlayerError::IllegalTurn {
                player: player.name(),
                answer: turn.to_string(),
                reason: e.to_string(),
            };
            break forfeit(game, side, &error);
        }
    };
    end.longest_turn = longest;
    end.turn_times = times;
    end
}

/// The state shared by a match's threads.
struct Shared {
    tally: Tally,
    /// The first player's score in the finished game of each half-finished pair.
    pending: HashMap<usize, f64>,
    /// Finished games, when kept.
    games: Vec<MatchGame>,
    stop: Option<Stop>,
    /// Fingerprints of the finished games (see [`Tally::repeated_games`]).
    played: HashSet<u64>,
}

/// Hands out game numbers and the starts of their pairs.
struct Schedule<'a> {
    config: &'a MatchConfig,
    openings: &'a [Position],
    next: usize,
    /// Starts of pairs whose second game is not handed out yet.
    open_pairs: HashMap<usize, Position>,
    /// Hashes of the starts used (random openings: to draw again on a repeat).
    seen: HashSet<u64>,
    repeated: usize,
    /// Games already played (a resumed match): not handed out, but their pairs' starts are
    /// still drawn in turn, so that every later pair starts where it would have.
    done: HashSet<usize>,
    /// A game taken by [`Schedule::peek`], handed out next.
    peeked: Option<(usize, Position)>,
}

impl<'a> Schedule<'a> {
    fn new(config: &'a MatchConfig, openings: &'a [Position], done: HashSet<usize>) -> Self {
        Schedule {
            config,
            openings,
            next: 0,
            open_pairs: HashMap::new(),
            seen: HashSet::new(),
            repeated: 0,
            done,
            peeked: None,
        }
    }

    /// Whether a game is left to hand out (it is then handed out by the next `next`).
    fn peek(&mut self, stopping: bool) -> bool {
        if self.peeked.is_none() {
            self.peeked = self.next(stopping);
        }
        self.peeked.is_some()
    }

    /// The next game and its start; none when the match is over or stopping (then only the
    /// second games of pairs already begun are handed out, so that every pair is complete).
    fn next(&mut self, stopping: bool) -> Option<(usize, Position)> {
        if let Some(game) = self.peeked.take() {
            return Some(game);
        }
        loop {
            let (i, start) = self.next_start(stopping)?;
            let mine = self.config.shard.is_none_or(|s| s.has_game(i));
            if mine && !self.done.contains(&i) {
                return Some((i, start));
            }
        }
    }

    /// The next game, played already or not, and its start.
    fn next_start(&mut self, stopping: bool) -> Option<(usize, Position)> {
        let i = self.next;
        let begun = |i: usize| self.done.contains(&i) || self.done.contains(&(i + 1));
        if i >= self.config.games || (stopping && i.is_multiple_of(2) && !begun(i)) {
            return None;
        }
        self.next += 1;
        let pair = i / 2;
        if let Some(start) = self.open_pairs.remove(&pair) {
            return Some((i, start));
        }
        let start = self.start_of(pair);
        if i + 1 < self.config.games {
            self.open_pairs.insert(pair, start);
        }
        Some((i, start))
    }

    /// Opening `pair % len`, after `random_plies` random turns drawn again (up to 64 times)
    /// while the result repeats an earlier pair's start.
    fn start_of(&mut self, pair: usize) -> Position {
        let base = self.openings[pair % self.openings.len()];
        if self.config.random_plies == 0 {
            if pair < self.openings.len() {
                self.seen.insert(base.zobrist());
            }
            return base;
        }
        let mut start = base;
        for attempt in 0..64u64 {
            start = randomised(
                base,
                self.config.random_plies,
                // The seed is mixed on its own first: `seed ^ pair` alone would give seeds
                // that differ in low bits the same starts in another order.
                mix(mix(self.config.seed ^ 0x5EED) ^ (pair as u64) ^ (attempt << 40)),
            );
            if !self.seen.contains(&start.zobrist()) {
                break;
            }
        }
        if !self.seen.insert(start.zobrist()) {
            self.repeated += 1;
        }
        start
    }
}

/// Plays a match of up to `config.games` games between `first` and `second` in
/// colour-swapped pairs, `config.concurrency` games at once; `on_game` is called as each
/// game ends (one call at a time, with the counts including that game): write the game
/// there, so that no finished game is lost whatever happens later. An error from `on_game`
/// ends the match ([`Stop::Aborted`]) after the games already running.
///
/// Both players are started once before the first game to check that they run and accept
/// the match's conditions. Memory stays bounded whatever the number of games when
/// `config.keep_games` is false.
///
/// # Errors
///
/// [`MatchError::Player`] when a player fails that check, [`MatchError::Config`] for zero
/// games. Faults during the games are not errors: they lose the game.
pub fn play_match(
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    on_game: impl Fn(&MatchGame, &Tally) -> Result<(), String> + Sync,
) -> Result<MatchResult, MatchError> {
    resume_match(first, second, config, Vec::new(), on_game)
}

/// Goes on with a match of which the games `finished` were played already (read back from
/// its games file, for example): they are counted first, in the order of their numbers, as if
/// just played (W/D/L, pairs, the SPRT, which may then already have decided), and every other
/// game of the match is played as [`play_match`] would play it, from the same start with the
/// same seed. So, with deterministic players (fixed depth or nodes), an interrupted match
/// resumed gives the games and the statistics of the same match played at once. `on_game`
/// is called for the new games only; [`MatchResult::games`] holds both when kept.
///
/// The caller checks that the players and limits are the match's; this function checks what
/// it can see: each game's number (below `config.games`, given once), its colours (the first
/// player White in even games) and its start, which must be the one the match's openings,
/// random turns and seed give its pair.
///
/// # Errors
///
/// [`MatchError::Resume`] for a finished game that is not one of this match; otherwise as
/// [`play_match`]. Nothing is played when an error is returned.
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::{MatchConfig, play_match, resume_match};
///
/// let (first, second) = ("engine:depth=1".parse()?, "greedy".parse()?);
/// let mut half = MatchConfig::default();
/// half.games = 2;
/// half.max_turns = 20;
/// let played = play_match(&first, &second, &half, |_, _| Ok(()))?;
/// // Later: the same match, 4 games in all, goes on from game 2.
/// let mut all = half.clone();
/// all.games = 4;
/// let resumed = resume_match(&first, &second, &all, played.games, |g, _| {
///     assert!(g.index >= 2);
///     Ok(())
/// })?;
/// assert_eq!(resumed.tally.games(), 4);
/// assert_eq!(resumed.tally.pentanomial.pairs(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resume_match(
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    mut finished: Vec<MatchGame>,
    on_game: impl Fn(&MatchGame, &Tally) -> Result<(), String> + Sync,
) -> Result<MatchResult, MatchError> {
    if config.games == 0 {
        return Err(MatchError::Config("a match needs at least one game".into()));
    }
    let openings = if config.openings.is_empty() {
        vec![Position::standard()]
    } else {
        config.openings.clone()
    };
    finished.sort_by_key(|g| g.index);
    let done = check_finished(&finished, config, &openings)?;
    let mut shared = Shared {
        tally: Tally::default(),
        pending: HashMap::new(),
        games: Vec::new(),
        stop: None,
        played: HashSet::new(),
    };
    for g in finished {
        record(&mut shared, g, config, &|_: &MatchGame, _: &Tally| Ok(()));
    }
    let left = config.games - done.len();
    let mut schedule = Schedule::new(config, &openings, done);
    let mut notes = Vec::new();
    // Players are checked only when a game is left to play (a finished match resumed is
    // only counted).
    if schedule.peek(shared.stop.is_some()) {
        for (which, spec) in [("first", first), ("second", second)] {
            check_player(spec, config, openings[0], &mut notes)
                .map_err(|error| MatchError::Player { which, error })?;
        }
    }
    let schedule = Mutex::new(schedule);
    let stopping = AtomicBool::new(shared.stop.is_some());
    let shared = Mutex::new(shared);
    let threads = config.concurrency.clamp(1, left.max(1));
    let work = || {
        loop {
            let next = schedule
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .next(stopping.load(Ordering::SeqCst));
            let Some((i, start)) = next else { break };
            let g = play_one(first, second, config, start, i);
            let mut s = shared.lock().unwrap_or_else(|p| p.into_inner());
            record(&mut s, g, config, &on_game);
            if s.stop.is_some() {
                stopping.store(true, Ordering::SeqCst);
            }
        }
    };
    // Threads the system cannot give (a process or memory limit) are not started: the games
    // are played by those that could be had, or on this thread when none could.
    let started = std::thread::scope(|scope| {
        let mut started = 0;
        while started < threads && crate::threads::spawn_scoped(scope, work).is_some() {
            started += 1;
        }
        if started == 0 {
            work();
        }
        started
    });
    if started < threads {
        notes.push(format!(
            "the system could not start {} of the {threads} game threads (--concurrency): \
             the games were played {} at a time",
            threads - started,
            started.max(1)
        ));
    }
    let schedule = schedule.into_inner().unwrap_or_else(|p| p.into_inner());
    if schedule.repeated > 0 {
        notes.push(format!(
            "{} of {} random openings repeat an earlier one (64 draws found no new one)",
            schedule.repeated,
            schedule.next.div_ceil(2)
        ));
    }
    let mut s = shared.into_inner().unwrap_or_else(|p| p.into_inner());
    s.games.sort_by_key(|g| g.index);
    Ok(MatchResult {
        tally: s.tally,
        games: s.games,
        stop: s.stop.unwrap_or(Stop::Completed),
        distinct_starts: schedule.seen.len(),
        notes,
    })
}

/// Checks that the finished games of a resumed match are games of this match (see
/// [`resume_match`]); their numbers.
fn check_finished(
    finished: &[MatchGame],
    config: &MatchConfig,
    openings: &[Position],
) -> Result<HashSet<usize>, MatchError> {
    let mut done = HashSet::new();
    let Some(last) = finished.last().map(|g| g.index) else {
        return Ok(done);
    };
    let error = |index, reason: String| Err(MatchError::Resume { index, reason });
    if last >= config.games {
        return error(
            last,
            format!("the match has {} games (more with --games)", config.games),
        );
    }
    let mut schedule = Schedule::new(config, openings, HashSet::new());
    let mut starts = Vec::with_capacity(last + 1);
    while let Some((i, start)) = schedule.next_start(false) {
        starts.push(start);
        if i == last {
            break;
        }
    }
    for g in finished {
        if !done.insert(g.index) {
            return error(g.index, "given twice".to_owned());
        }
        if let Some(s) = config.shard.filter(|s| !s.has_game(g.index)) {
            return error(g.index, format!("not a game of shard {s}"));
        }
        if g.first_is_white != g.index.is_multiple_of(2) {
            let has = if g.index.is_multiple_of(2) {
                "White"
            } else {
                "Black"
            };
            return error(
                g.index,
                format!("the first player has {has} in this match's game, not in this one"),
            );
        }
        let (start, expected) = (g.game.start(), &starts[g.index]);
        if start.size() != expected.size()
            || start.rules() != expected.rules()
            || start.to_fen() != expected.to_fen()
        {
            return error(
                g.index,
                format!(
                    "it starts from {} ({}, rules {}), but this match's openings, random turns \
                     and seed start it from {} ({}, rules {})",
                    start.to_fen(),
                    start.size(),
                    start.rules().to_full_string(),
                    expected.to_fen(),
                    expected.size(),
                    expected.rules().to_full_string()
                ),
            );
        }
    }
    Ok(done)
}

/// A hash of what makes a game the same as another: its start, who had White, and its turns.
fn game_fingerprint(g: &MatchGame) -> u64 {
    let mut h = mix(g.game.start().zobrist() ^ u64::from(g.first_is_white));
    for t in g.game.turns() {
        h = mix(h ^ turn_key(t));
    }
    h
}

/// Counts a finished game, hands it to `on_game`, and checks the SPRT.
fn record(
    s: &mut Shared,
    g: MatchGame,
    config: &MatchConfig,
    on_game: &(impl Fn(&MatchGame, &Tally) -> Result<(), String> + Sync),
) {
    let score = g.first_score();
    let t = &mut s.tally;
    match score {
        1.0 => t.wins += 1,
        0.0 => t.losses += 1,
        _ => t.draws += 1,
    }
    *t.terminations.entry(g.termination.tag()).or_insert(0) += 1;
    if !s.played.insert(game_fingerprint(&g)) {
        t.repeated_games += 1;
    }
    let (mine, theirs) = if g.first_is_white { (0, 1) } else { (1, 0) };
    t.first_longest_turn = t.first_longest_turn.max(g.longest_turn[mine]);
    t.second_longest_turn = t.second_longest_turn.max(g.longest_turn[theirs]);
    let white_first = g.game.start().side_to_move() == Color::White;
    for (k, time) in g.turn_times.iter().enumerate() {
        // The side of the k-th turn: the side to move at the start, then alternately.
        let white = k.is_multiple_of(2) == white_first;
        let (walls, searches) = if white == g.first_is_white {
            (&mut t.first_turn_times, &mut t.first_search_times)
        } else {
            (&mut t.second_turn_times, &mut t.second_search_times)
        };
        walls.add(time.wall);
        if let Some(s) = time.search {
            searches.add(s);
        }
    }
    if let Termination::Forfeit { loser, .. } = g.termination {
        if (loser == Color::White) == g.first_is_white {
            t.first_faults += 1;
        } else {
            t.second_faults += 1;
        }
    }
    match s.pending.remove(&g.pair()) {
        Some(other) => t.pentanomial.add(score + other),
        None => {
            s.pending.insert(g.pair(), score);
        }
    }
    if let Some(sprt) = &config.sprt {
        let status = sprt.status(&t.pentanomial);
        t.sprt = Some(status);
        // A shard plays all its games: the test decides on the merged games.
        if let (Some(decision), None, None) = (status.decision, &s.stop, config.shard) {
            s.stop = Some(Stop::Sprt {
                decision,
                status,
                games: t.games(),
            });
        }
    }
    if let Err(e) = on_game(&g, &s.tally)
        && s.stop.is_none()
    {
        s.stop = Some(Stop::Aborted(e));
    }
    if config.keep_games {
        s.games.push(g);
    }
}

/// Starts a player once and tells it the match's rules, to find a player that cannot play
/// before any game.
fn check_player(
    spec: &PlayerSpec,
    config: &MatchConfig,
    start: Position,
    notes: &mut Vec<String>,
) -> Result<(), PlayerError> {
    if let PlayerSpec::External { command, options } = spec {
        let mut p = crate::players::ExternalPlayer::start_with(
            command,
            config.limits.unwrap_or_default(),
            config.timeouts,
        )?;
        p.set_options(options)?;
        if !p.has_option("Rules")
            && !fanorona_core::Rules::NAMES
                .iter()
                // `game` and `vela` are needed only for another game or account.
                .filter(|n| **n != "game" && **n != "vela")
                .all(|n| p.has_option(n))
        {
            notes.push(format!(
                "{spec} advertises no rule option (Rules): it is assumed to play the standard \
                 rules"
            ));
        }
        p.new_game(&start)
    } else {
        spec.build_with(0, config.limits, config.timeouts)?
            .new_game(&start)
    }
}

fn play_one(
    first: &PlayerSpec,
    second: &PlayerSpec,
    config: &MatchConfig,
    start: Position,
    i: usize,
) -> MatchGame {
    let first_is_white = i.is_multiple_of(2);
    let seed = mix(config.seed.wrapping_add(i as u64));
    let (first_color, second_color) = if first_is_white {
        (Color::White, Color::Black)
    } else {
        (Color::Black, Color::White)
    };
    let built = first
        .build_with(seed, config.limits, config.timeouts)
        .map_err(|e| (first_color, e))
        .and_then(|a| {
            second
                .build_with(mix(seed), config.limits, config.timeouts)
                .map(|b| (a, b))
                .map_err(|e| (second_color, e))
        });
    let (white, black, end) = match built {
        Ok((mut a, mut b)) => {
            let (white, black) = if first_is_white {
                (&mut a, &mut b)
            } else {
                (&mut b, &mut a)
            };
            let end = match config.time_control {
                Some(tc) => play_game_on_clock(
                    white.as_mut(),
                    black.as_mut(),
                    start,
                    config.max_turns,
                    tc,
                    config.time_margin,
                ),
                None => play_game(white.as_mut(), black.as_mut(), start, config.max_turns),
            };
            (white.name(), black.name(), end)
        }
        Err((loser, e)) => {
            let names = if first_is_white {
                (first.to_string(), second.to_string())
            } else {
                (second.to_string(), first.to_string())
            };
            let end = forfeit(Game::new(start), loser, &e);
            (names.0, names.1, end)
        }
    };
    MatchGame {
        index: i,
        white,
        black,
        first_is_white,
        game: end.game,
        winner: end.winner,
        termination: end.termination,
        longest_turn: end.longest_turn,
        turn_times: end.turn_times,
    }
}

/// `start` after up to `plies` random legal turns (fewer if the game would end).
fn randomised(start: Position, plies: usize, seed: u64) -> Position {
    let mut rng = crate::Rng::new(seed);
    let mut game = Game::new(start);
    for _ in 0..plies {
        let turns = game.position().legal_turns();
        if turns.is_empty() {
            break;
        }
        let t = turns[rng.below(turns.len() as u64) as usize];
        let mut next = game.clone();
        if next.play(&t).is_err() || next.outcome().is_some() {
            break;
        }
        game = next;
    }
    *game.position()
}

#[cfg(test)]
mod tests;
