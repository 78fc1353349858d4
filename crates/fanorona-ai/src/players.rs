//! Players for matches: random, greedy (largest capture), the engine at a level or limit, and
//! an external engine that speaks the engine protocol.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::players::PlayerSpec;
//! use fanorona_core::Game;
//!
//! let spec: PlayerSpec = "engine:casual".parse()?;
//! let mut player = spec.build(1, None)?;
//! let turn = player.choose(&Game::default())?;
//! assert!(Game::default().position().is_legal(&turn));
//! assert_eq!(player.name(), "engine:casual");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::{Game, Turn};

use crate::baseline::Baseline;
use crate::rng::{Rng, mix};
use crate::{Level, Limits, SearchOptions, Searcher};

/// Hash size of engine players in matches, in MiB (several play at once).
pub const MATCH_HASH_MB: usize = 8;

/// Something that chooses turns in a game.
pub trait Player: Send {
    /// The player's name in results and records.
    fn name(&self) -> String;

    /// Prepares for a new game.
    ///
    /// # Errors
    ///
    /// A [`PlayerError`] when an external engine fails.
    fn new_game(&mut self) -> Result<(), PlayerError> {
        Ok(())
    }

    /// A legal turn for the side to move of `game` (which is not over).
    ///
    /// # Errors
    ///
    /// A [`PlayerError`] when an external engine fails or answers an illegal turn.
    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError>;
}

/// What went wrong with a player.
#[derive(Debug)]
pub enum PlayerError {
    /// A player description that cannot be read.
    Spec {
        /// The description.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// An external engine could not be started or talked to.
    Io {
        /// The engine's command.
        command: String,
        /// The error.
        error: std::io::Error,
    },
    /// An external engine broke the protocol (ended, or answered something unexpected).
    Protocol {
        /// The engine's command.
        command: String,
        /// What happened.
        reason: String,
    },
    /// The game was over when a turn was asked for.
    GameOver,
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Spec { spec, reason } => write!(f, "player {spec:?}: {reason}"),
            PlayerError::Io { command, error } => write!(f, "engine {command:?}: {error}"),
            PlayerError::Protocol { command, reason } => {
                write!(f, "engine {command:?}: {reason}")
            }
            PlayerError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for PlayerError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlayerError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// A description of a player, as written on the command line:
///
/// | text | player |
/// |---|---|
/// | `random` | a uniformly random legal turn |
/// | `greedy` | a turn capturing the most stones (ties broken at random) |
/// | `engine` | this engine at full strength |
/// | `engine:LEVEL` | this engine at a level (`beginner`, `casual`, `strong`, `maximum`) |
/// | `engine:depth=N`, `engine:nodes=N`, `engine:movetime=MS` | this engine at a fixed limit |
/// | `engine:v0`, `engine:v0:movetime=MS`, ... | the frozen v0.1.0 engine ([`crate::baseline`]), same limit options |
/// | `uci:COMMAND ARGS` | an external engine speaking the engine protocol |
///
/// Engine options combine with `:`, as in `engine:casual:movetime=50`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlayerSpec {
    /// Random legal turns.
    Random,
    /// The largest capture.
    Greedy,
    /// This engine.
    Engine {
        /// The level (its imperfection, and its limits when none are given).
        level: Option<Level>,
        /// Limits given in the description.
        limits: Option<Limits>,
    },
    /// An external engine: the program and its arguments.
    External(Vec<String>),
    /// The frozen engine of v0.1.0 ([`crate::baseline`]), the fixed opponent of strength
    /// tests: `engine:v0[:depth=N|nodes=N|movetime=MS]`.
    Baseline {
        /// Limits given in the description.
        limits: Option<Limits>,
    },
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Engine { level, limits } => {
                f.write_str("engine")?;
                if let Some(l) = level {
                    write!(f, ":{l}")?;
                }
                if let Some(l) = limits {
                    if let Some(d) = l.depth {
                        write!(f, ":depth={d}")?;
                    }
                    if let Some(n) = l.nodes {
                        write!(f, ":nodes={n}")?;
                    }
                    if let Some(t) = l.movetime {
                        write!(f, ":movetime={}", t.as_millis())?;
                    }
                }
                Ok(())
            }
            PlayerSpec::External(cmd) => write!(f, "uci:{}", cmd.join(" ")),
            PlayerSpec::Baseline { limits } => {
                f.write_str("engine:v0")?;
                limits.map_or(Ok(()), |l| write_limits(f, &l))
            }
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerError> {
        let err = |reason: String| PlayerError::Spec {
            spec: s.to_owned(),
            reason,
        };
        let s = s.trim();
        if let Some(cmd) = s.strip_prefix("uci:") {
            let words: Vec<String> = cmd.split_whitespace().map(str::to_owned).collect();
            if words.is_empty() {
                return Err(err("uci: needs a command".to_owned()));
            }
            return Ok(PlayerSpec::External(words));
        }
        let mut parts = s.split(':');
        match parts.next().unwrap_or_default() {
            "random" if s == "random" => Ok(PlayerSpec::Random),
            "greedy" if s == "greedy" => Ok(PlayerSpec::Greedy),
            "engine" if s == "engine:v0" || s.starts_with("engine:v0:") => {
                let rest = s.strip_prefix("engine:v0").unwrap_or_default();
                match format!("engine{rest}").parse()? {
                    PlayerSpec::Engine {
                        level: None,
                        limits,
                    } => Ok(PlayerSpec::Baseline { limits }),
                    _ => Err(err("engine:v0 takes limits only, no level".to_owned())),
                }
            }
            "engine" => {
                let mut level = None;
                let mut limits: Option<Limits> = None;
                for part in parts {
                    if let Some((key, value)) = part.split_once('=') {
                        let n: u64 = value
                            .parse()
                            .map_err(|_| err(format!("{key} takes a number, not {value:?}")))?;
                        let l = limits.get_or_insert_with(Limits::default);
                        match key {
                            "depth" => l.depth = Some(n.min(u64::from(u32::MAX)) as u32),
                            "nodes" => l.nodes = Some(n),
                            "movetime" => l.movetime = Some(Duration::from_millis(n)),
                            _ => {
                                return Err(err(format!(
                                    "unknown engine option {key:?} (known: depth, nodes, movetime)"
                                )));
                            }
                        }
                    } else {
                        level = Some(part.parse::<Level>().map_err(|e| err(e.to_string()))?);
                    }
                }
                Ok(PlayerSpec::Engine { level, limits })
            }
            _ => Err(err(
                "expected random, greedy, engine[:LEVEL][:depth=N|nodes=N|movetime=MS] or uci:COMMAND"
                    .to_owned(),
            )),
        }
    }
}

impl PlayerSpec {
    /// Makes the player. `seed` drives its randomness (for a reproducible match, give each
    /// game its own seed); `default_limits` (a match's `--movetime`) applies to engines whose
    /// description names no limit.
    ///
    /// # Errors
    ///
    /// [`PlayerError::Io`] or [`PlayerError::Protocol`] when an external engine does not start
    /// or does not complete the handshake.
    pub fn build(
        &self,
        seed: u64,
        default_limits: Option<Limits>,
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer {
                rng: Rng::new(seed),
            }),
            PlayerSpec::Greedy => Box::new(GreedyPlayer {
                rng: Rng::new(seed),
            }),
            PlayerSpec::Engine { level, limits } => {
                let limits = limits
                    .or(default_limits)
                    .unwrap_or_else(|| level.unwrap_or(Level::Strong).limits());
                // A level's own depth cap stays in force under a match's time limit.
                let limits = match (level, limits.depth) {
                    (Some(l), None) => match l.limits().depth {
                        Some(d) => limits.with_depth(d),
                        None => limits,
                    },
                    _ => limits,
                };
                Box::new(EnginePlayer {
                    name: self.to_string(),
                    searcher: Searcher::new(MATCH_HASH_MB),
                    level: *level,
                    limits,
                    seed,
                })
            }
            PlayerSpec::Baseline { limits } => Box::new(BaselinePlayer {
                name: self.to_string(),
                engine: Baseline::new(MATCH_HASH_MB),
                limits: limits
                    .or(default_limits)
                    .unwrap_or_else(|| Level::Strong.limits()),
            }),
            PlayerSpec::External(cmd) => Box::new(ExternalPlayer::start(
                cmd,
                default_limits.unwrap_or(Limits::movetime(Duration::from_millis(100))),
            )?),
        })
    }
}

/// Plays uniformly random legal turns.
pub struct RandomPlayer {
    rng: Rng,
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_owned()
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let turns = game.position().legal_turns();
        if turns.is_empty() {
            return Err(PlayerError::GameOver);
        }
        Ok(turns[self.rng.below(turns.len() as u64) as usize])
    }
}

/// Plays a turn that captures the most stones (a random one among equals).
pub struct GreedyPlayer {
    rng: Rng,
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_owned()
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let turns = game.position().legal_turns();
        let most = turns
            .iter()
            .map(|t| t.captured().count())
            .max()
            .ok_or(PlayerError::GameOver)?;
        let best: Vec<Turn> = turns
            .into_iter()
            .filter(|t| t.captured().count() == most)
            .collect();
        Ok(best[self.rng.below(best.len() as u64) as usize])
    }
}

/// This engine at a level or limit.
pub struct EnginePlayer {
    name: String,
    searcher: Searcher,
    level: Option<Level>,
    limits: Limits,
    seed: u64,
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.searcher.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let stop = AtomicBool::new(false);
        let seed = mix(self.seed ^ game.turns().len() as u64);
        let result = match self.level {
            Some(level) => {
                level.play_with(&mut self.searcher, game, &self.limits, seed, &stop, |_| {})
            }
            None => {
                self.searcher
                    .search(game, &self.limits, &SearchOptions::default(), &stop, |_| {})
            }
        };
        result.map(|r| r.best).map_err(|_| PlayerError::GameOver)
    }
}

/// Writes `:depth=N:nodes=N:movetime=MS` for the limits that are set.
fn write_limits(f: &mut fmt::Formatter<'_>, l: &Limits) -> fmt::Result {
    if let Some(d) = l.depth {
        write!(f, ":depth={d}")?;
    }
    if let Some(n) = l.nodes {
        write!(f, ":nodes={n}")?;
    }
    if let Some(t) = l.movetime {
        write!(f, ":movetime={}", t.as_millis())?;
    }
    Ok(())
}

/// The frozen v0.1.0 engine ([`crate::baseline`]) at a limit.
pub struct BaselinePlayer {
    name: String,
    engine: Baseline,
    limits: Limits,
}

impl Player for BaselinePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let stop = AtomicBool::new(false);
        self.engine
            .search(game, &self.limits, &stop)
            .map(|r| r.best)
            .map_err(|_| PlayerError::GameOver)
    }
}

/// An external engine process speaking the engine protocol.
pub struct ExternalPlayer {
    command: Vec<String>,
    name: String,
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    limits: Limits,
}

impl ExternalPlayer {
    /// Starts the engine and completes the handshake (`uci` ... `uciok`).
    ///
    /// # Errors
    ///
    /// [`PlayerError::Io`] when it cannot be started, [`PlayerError::Protocol`] when it does
    /// not answer `uciok`.
    pub fn start(command: &[String], limits: Limits) -> Result<ExternalPlayer, PlayerError> {
        let text = command.join(" ");
        let io = |error| PlayerError::Io {
            command: text.clone(),
            error,
        };
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io)?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = BufReader::new(child.stdout.take().expect("piped"));
        let mut p = ExternalPlayer {
            command: command.to_vec(),
            name: format!("uci:{text}"),
            child,
            stdin,
            stdout,
            limits,
        };
        p.send("uci")?;
        let mut name = None;
        p.read_until(|l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.to_owned());
            }
            l == "uciok"
        })?;
        if let Some(n) = name {
            p.name = n;
        }
        Ok(p)
    }

    fn text(&self) -> String {
        self.command.join(" ")
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|error| PlayerError::Io {
                command: self.text(),
                error,
            })
    }

    /// Reads lines until `done` says so; returns that line.
    fn read_until(&mut self, mut done: impl FnMut(&str) -> bool) -> Result<String, PlayerError> {
        let mut line = String::new();
        loop {
            line.clear();
            let n = self
                .stdout
                .read_line(&mut line)
                .map_err(|error| PlayerError::Io {
                    command: self.text(),
                    error,
                })?;
            if n == 0 {
                return Err(PlayerError::Protocol {
                    command: self.text(),
                    reason: "the engine ended its output".to_owned(),
                });
            }
            let l = line.trim();
            if done(l) {
                return Ok(l.to_owned());
            }
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.send("ucinewgame")?;
        self.send("isready")?;
        self.read_until(|l| l == "readyok").map(|_| ())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let rules = game.start().rules();
        self.send(&format!(
            "setoption name Rules value {}",
            rules.to_full_string()
        ))?;
        let mut pos = format!("position fen {}", game.start().to_fen());
        if !game.turns().is_empty() {
            pos.push_str(" moves");
            for t in game.turns() {
                pos.push(' ');
                pos.push_str(&t.to_string());
            }
        }
        self.send(&pos)?;
        let l = self.limits;
        let mut go = "go".to_owned();
        if let Some(d) = l.depth {
            go.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = l.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        if let Some(t) = l.movetime {
            go.push_str(&format!(" movetime {}", t.as_millis()));
        }
        self.send(&go)?;
        let line = self.read_until(|l| l.starts_with("bestmove"))?;
        let text = line.split_whitespace().nth(1).unwrap_or_default();
        game.position()
            .parse_turn(text)
            .map_err(|e| PlayerError::Protocol {
                command: self.text(),
                reason: format!("answered an unusable turn: {e}"),
            })
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Position;

    #[test]
    fn specs_read_and_print() {
        for text in [
            "random",
            "greedy",
            "engine",
            "engine:beginner",
            "engine:strong:movetime=100",
            "engine:depth=6",
            "engine:v0",
            "engine:v0:movetime=200",
            "engine:v0:nodes=5000",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "uci:./fanorona engine".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::External(vec!["./fanorona".to_owned(), "engine".to_owned()])
        );
        for bad in [
            "",
            "randomly",
            "engine:expert",
            "engine:depth=x",
            "engine:speed=3",
            "uci:",
            "engine:v0:casual",
            "engine:v0x",
            "engine:v0:speed=1",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn greedy_takes_the_largest_capture() {
        // White a1, e1; Black c1, g1, h1. e1-f1A takes g1 and h1; a1-b1A and e1-d1A take
        // c1 alone.
        let game = Game::new(Position::from_fen("9/9/9/9/W1B1W1BB1 w").unwrap());
        let mut p = PlayerSpec::Greedy.build(3, None).unwrap();
        let t = p.choose(&game).unwrap();
        assert_eq!(t.captured().count(), 2);
    }

    #[test]
    fn random_is_reproducible_and_legal() {
        let game = Game::default();
        let mut a = PlayerSpec::Random.build(5, None).unwrap();
        let mut b = PlayerSpec::Random.build(5, None).unwrap();
        let (x, y) = (a.choose(&game).unwrap(), b.choose(&game).unwrap());
        assert_eq!(x, y);
        assert!(game.position().is_legal(&x));
    }

    #[test]
    fn the_v0_baseline_plays_legal_turns_within_its_limits() {
        let spec: PlayerSpec = "engine:v0:nodes=2000".parse().unwrap();
        assert_eq!(
            spec,
            PlayerSpec::Baseline {
                limits: Some(Limits::nodes(2_000))
            }
        );
        let mut p = spec.build(1, None).unwrap();
        assert_eq!(p.name(), "engine:v0:nodes=2000");
        let mut game = Game::default();
        for _ in 0..6 {
            let t = p.choose(&game).unwrap();
            game.play(t).expect("a legal turn");
        }
        // A match's --movetime applies when the description names no limit.
        let mut timed = PlayerSpec::Baseline { limits: None }
            .build(1, Some(Limits::movetime(Duration::from_millis(30))))
            .unwrap();
        let started = std::time::Instant::now();
        let t = timed.choose(&game).unwrap();
        assert!(started.elapsed() < Duration::from_millis(30 + 40));
        assert!(game.position().is_legal(&t));
    }

    #[test]
    fn a_missing_external_engine_is_an_error() {
        let spec: PlayerSpec = "uci:/nonexistent/engine-binary".parse().unwrap();
        assert!(matches!(spec.build(0, None), Err(PlayerError::Io { .. })));
    }
}
