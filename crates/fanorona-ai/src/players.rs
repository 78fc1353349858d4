//! Players for matches: random, greedy (largest capture), the engine at a level or limit, and
//! an external engine that speaks the engine protocol.
//!
//! Every wait on an external engine has a time-out ([`Timeouts`]); an engine that does not
//! answer in time, ends, answers garbage or plays an illegal turn is a [`PlayerError`] (a
//! match scores it as a loss of that player and goes on), and its process is killed.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::players::PlayerSpec;
//! use fanorona_core::{Game, Position};
//!
//! let spec: PlayerSpec = "engine:casual".parse()?;
//! let mut player = spec.build(1, None)?;
//! player.new_game(&Position::standard())?;
//! let turn = player.choose(&Game::default())?;
//! assert!(Game::default().position().is_legal(&turn));
//! assert_eq!(player.name(), "engine:casual");
//!
//! // An option given twice is an error, not silently resolved.
//! assert!("engine:depth=1:depth=2".parse::<PlayerSpec>().is_err());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::fmt;
use core::str::FromStr;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fanorona_core::{Color, Game, Position, Rules, Turn};

use crate::baseline::Baseline;
use crate::params::MAX_THREADS;
use crate::rng::{Rng, mix};
use crate::{Clock, Level, Limits, SearchOptions, Searcher};

/// Hash size of engine players in matches, in MiB (several play at once).
pub const MATCH_HASH_MB: usize = 8;

/// The longest line read from an external engine, in bytes; a longer line is a protocol
/// violation (and is never held in memory whole).
pub const MAX_ENGINE_LINE: usize = 64 * 1024;

/// The most `option` lines an external engine may send before `uciok`: more is a protocol
/// error, so that what is kept of a handshake stays small (engines list a few dozen).
pub const MAX_ENGINE_OPTIONS: usize = 1000;

/// The longest option name an external engine may advertise, in bytes: a longer one is a
/// protocol error.
pub const MAX_OPTION_NAME: usize = 256;

/// Lines of an external engine read ahead of the match, at most.
const ENGINE_LINES_QUEUED: usize = 256;

/// The process ids of the external engines started and not yet reaped.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<u32>> {
    RUNNING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Kills every external engine still running, with the processes it started, for a program
/// about to exit without dropping its players (interrupted by Ctrl-C or SIGTERM): they would
/// outlive it. A player dropped normally asks its engine to quit and kills it after
/// [`Timeouts::quit`] anyway.
pub fn kill_running_engines() {
    let pids = running().clone();
    for pid in pids {
        kill_tree(pid);
    }
}

/// Kills an engine and the processes it started: on Unix each engine leads a process group of
/// its own (a shell script's `sleep` would otherwise outlive a killed shell).
#[cfg(unix)]
fn kill_tree(pid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pid}")])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(windows)]
fn kill_tree(pid: u32) {
    let _ = Command::new("taskkill")
        .args(["/F", "/T", "/PID", &pid.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

#[cfg(not(any(unix, windows)))]
fn kill_tree(_pid: u32) {}

/// The command for an engine: on Unix, in a process group of its own (see [`kill_tree`]).
fn engine_command(program: &str) -> Command {
    #[cfg_attr(not(unix), allow(unused_mut))]
    let mut command = Command::new(program);
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command
}

/// Something that chooses turns in a game.
pub trait Player: Send {
    /// The player's name in results and records.
    fn name(&self) -> String;

    /// Prepares for a new game from `start`: an external engine is told the game's rule
    /// options here, once per game, and confirms them.
    ///
    /// # Errors
    ///
    /// A [`PlayerError`] when an external engine fails or cannot play under these rules.
    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        let _ = start;
        Ok(())
    }

    /// A legal turn for the side to move of `game` (which is not over).
    ///
    /// # Errors
    ///
    /// A [`PlayerError`] when an external engine fails or answers an illegal turn.
    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError>;

    /// The time the player says its last [`Player::choose`] searched: this engine's own
    /// measure, an external engine's last `info ... time MS` before its `bestmove`; `None`
    /// for players that do not search or say nothing. A match compares it with the wall time
    /// it measured (the difference is the time spent outside the search).
    fn search_time(&self) -> Option<Duration> {
        None
    }

    /// The game clocks (index 0 White, 1 Black) for the next [`Player::choose`], in a match
    /// played on a clock: an engine shares its time out by them (an external engine gets
    /// `go wtime btime winc binc`). Players that do not search ignore them.
    fn set_clocks(&mut self, clocks: [Clock; 2]) {
        let _ = clocks;
    }
}

/// What went wrong with a player.
#[derive(Debug)]
#[non_exhaustive]
pub enum PlayerError {
    /// A player description that cannot be read.
    Spec {
        /// The description.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// An external engine could not be started or written to.
    Io {
        /// The engine's command.
        command: String,
        /// The error.
        error: std::io::Error,
    },
    /// An external engine ended (exited, crashed or closed its output).
    Ended {
        /// The engine's command.
        command: String,
        /// What was being waited for.
        waiting_for: &'static str,
    },
    /// An external engine did not answer in time.
    Timeout {
        /// The engine's command.
        command: String,
        /// What was being waited for (`uciok`, `readyok`, `bestmove`).
        waiting_for: &'static str,
        /// How long it was waited for.
        after: Duration,
    },
    /// An external engine broke the protocol (a line too long or not UTF-8, a malformed
    /// answer).
    Protocol {
        /// The engine's command.
        command: String,
        /// What happened.
        reason: String,
    },
    /// An external engine does not advertise an option the match needs (after `uci`), or
    /// answered an error when it was set.
    Unsupported {
        /// The engine's command.
        command: String,
        /// The option.
        option: String,
        /// What the engine said, or that it does not advertise the option.
        reason: String,
    },
    /// A player answered a turn that is not legal in the position (or no turn at all).
    IllegalTurn {
        /// The player's name.
        player: String,
        /// The answer, at most 80 characters of it.
        answer: String,
        /// Why it cannot be played.
        reason: String,
    },
    /// The game was over when a turn was asked for.
    GameOver,
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Spec { spec, reason } => write!(
                f,
                "player {spec}: {reason}",
                spec = fanorona_core::escape::quoted(&spec)
            ),
            PlayerError::Io { command, error } => write!(
                f,
                "engine {command}: {error}",
                command = fanorona_core::escape::quoted(&command)
            ),
            PlayerError::Ended {
                command,
                waiting_for,
            } => write!(
                f,
                "engine {command} ended while a {waiting_for} was awaited",
                command = fanorona_core::escape::quoted(&command)
            ),
            PlayerError::Timeout {
                command,
                waiting_for,
                after,
            } => write!(
                f,
                "engine {command} sent no {waiting_for} within {:.1} s",
                after.as_secs_f64(),
                command = fanorona_core::escape::quoted(&command)
            ),
            PlayerError::Protocol { command, reason } => {
                write!(
                    f,
                    "engine {command}: {reason}",
                    command = fanorona_core::escape::quoted(&command)
                )
            }
            PlayerError::Unsupported {
                command,
                option,
                reason,
            } => write!(
                f,
                "engine {command}: option {option}: {reason}",
                command = fanorona_core::escape::quoted(&command)
            ),
            PlayerError::IllegalTurn {
                player,
                answer,
                reason,
            } => write!(
                f,
                "{player} answered {answer}: {reason}",
                answer = fanorona_core::escape::quoted(&answer)
            ),
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

/// How long a match waits for an external engine before it gives up on it (scores the game
/// as lost by that engine and kills its process).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::players::Timeouts;
///
/// let mut t = Timeouts::default();
/// t.handshake = Duration::from_secs(30); // a slow-starting engine
/// assert_eq!(t.turn(Some(Duration::from_millis(200))), Duration::from_millis(10_200));
/// assert_eq!(t.turn(None), Duration::from_secs(120));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Timeouts {
    /// The wait for `uciok` after `uci`.
    pub handshake: Duration,
    /// The wait for `readyok` after the options (and each game's rule options) are sent: an
    /// engine may load endgame tables or a network before it answers, which takes longer than
    /// starting.
    pub setup: Duration,
    /// The wait for `bestmove` beyond the turn's `movetime`.
    pub turn_margin: Duration,
    /// The wait for `bestmove` when the turn has no `movetime` (depth or node limits).
    pub turn_untimed: Duration,
    /// The wait for the process to end after `quit`; then it is killed.
    pub quit: Duration,
}

impl Default for Timeouts {
    /// 10 s for the handshake, 60 s for the setup, `movetime` + 10 s (or 120 s without a time
    /// limit) for a turn, 2 s after `quit`.
    fn default() -> Timeouts {
        Timeouts {
            handshake: Duration::from_secs(10),
            setup: Duration::from_secs(60),
            turn_margin: Duration::from_secs(10),
            turn_untimed: Duration::from_secs(120),
            quit: Duration::from_secs(2),
        }
    }
}

impl Timeouts {
    /// The same time-out for every wait (tests, and engines that must answer at once).
    pub fn all(wait: Duration) -> Timeouts {
        Timeouts {
            handshake: wait,
            setup: wait,
            turn_margin: wait,
            turn_untimed: wait,
            quit: wait,
        }
    }

    /// The wait for `bestmove` for a turn searched for `movetime` (if any).
    pub fn turn(&self, movetime: Option<Duration>) -> Duration {
        match movetime {
            Some(t) => t.saturating_add(self.turn_margin),
            None => self.turn_untimed,
        }
    }
}

/// A description of a player, as written on the command line:
///
/// | text | player |
/// |---|---|
/// | `random` | a uniformly random legal turn |
/// | `greedy` | a turn capturing the most stones (ties broken at random) |
/// | `greedy:random=P` | the same, but P per cent of its turns (0 to 100) are random legal turns: a stand-in for a new player |
/// | `engine` | this engine at full strength |
/// | `engine:LEVEL` | this engine at a level (`beginner`, `casual`, `strong`, `maximum`) |
/// | `engine:depth=N`, `engine:nodes=N`, `engine:movetime=MS` | this engine at a fixed limit |
/// | `engine:threads=N` | this engine searching with N threads (Lazy SMP), with any of the above |
/// | `engine:ownbook=true`, `engine:ownbook=false` | this engine playing from its shipped opening book ([`crate::book`]) or not, with any of the above; by default only `engine:maximum` does |
/// | `engine:eval=classic`, `engine:eval=nnue`, `engine:evalfile=PATH` | this engine with the hand evaluation, the embedded networks, or the network in `PATH` (no `:` in it) on its board and game (the embedded ones elsewhere), with any of the above |
/// | `engine:v0`, `engine:v0:movetime=MS`, ... | the frozen v0.1.0 engine ([`crate::baseline`]), same limit options |
/// | `uci:COMMAND ARGS` | an external engine speaking the engine protocol |
/// | `uci:COMMAND ARGS option.NAME=VALUE ...` | the same, given engine options (`setoption`) after `uci`, as cutechess-cli's `option.NAME=VALUE` |
///
/// Engine options combine with `:`, as in `engine:casual:movetime=50:threads=2`; each may be
/// given once (a second level or a repeated option is an error). The `option.` words of an
/// external engine come after its command and arguments (from the first such word on, every
/// word is one); a name given twice (letter case ignored) is an error.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PlayerSpec {
    /// Random legal turns.
    Random,
    /// The largest capture.
    Greedy,
    /// The largest capture, but a random turn `random` per cent of the time.
    GreedyRandom {
        /// Per cent of the turns played at random, 0 to 100.
        random: u8,
    },
    /// This engine.
    Engine {
        /// The level (its imperfection, and its limits when none are given).
        level: Option<Level>,
        /// Limits given in the description.
        limits: Option<Limits>,
        /// Search threads (Lazy SMP, see [`Searcher::set_threads`]); `None` is one.
        threads: Option<usize>,
        /// The evaluation; `None` is the searcher's default (see [`Searcher::set_network`]).
        eval: Option<EngineEval>,
        /// Whether it plays from the shipped opening book ([`crate::book::shipped`]) where
        /// the book has a turn; `None`: only at the `maximum` level.
        book: Option<bool>,
    },
    /// An external engine.
    External {
        /// The program and its arguments.
        command: Vec<String>,
        /// Options (name, value) set with `setoption` after `uci`, in this order.
        options: Vec<(String, String)>,
    },
    /// The frozen engine of v0.1.0 ([`crate::baseline`]), the fixed opponent of strength
    /// tests: `engine:v0[:depth=N|nodes=N|movetime=MS]`.
    Baseline {
        /// Limits given in the description.
        limits: Option<Limits>,
    },
}

/// The evaluation of an engine player (`engine:eval=classic|nnue`, `engine:evalfile=PATH`).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum EngineEval {
    /// The hand evaluation everywhere ([`crate::evaluate`]).
    Classic,
    /// The embedded networks, each on its board and game ([`crate::nnue::Network::embedded_all`]).
    Embedded,
    /// The network in this file on its board and game, the embedded ones on the others.
    File(std::path::PathBuf),
}

impl fmt::Display for EngineEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineEval::Classic => f.write_str("eval=classic"),
            EngineEval::Embedded => f.write_str("eval=nnue"),
            EngineEval::File(path) => write!(f, "evalfile={}", path.display()),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::GreedyRandom { random } => write!(f, "greedy:random={random}"),
            PlayerSpec::Engine {
                level,
                limits,
                threads,
                eval,
                book,
            } => {
                f.write_str("engine")?;
                if let Some(l) = level {
                    write!(f, ":{l}")?;
                }
                if let Some(l) = limits {
                    write_limits(f, l)?;
                }
                if let Some(n) = threads {
                    write!(f, ":threads={n}")?;
                }
                if let Some(e) = eval {
                    write!(f, ":{e}")?;
                }
                if let Some(b) = book {
                    write!(f, ":ownbook={b}")?;
                }
                Ok(())
            }
            PlayerSpec::External { command, options } => {
                write!(f, "uci:{}", command.join(" "))?;
                for (name, value) in options {
                    write!(f, " option.{name}={value}")?;
                }
                Ok(())
            }
            PlayerSpec::Baseline { limits } => {
                f.write_str("engine:v0")?;
                limits.map_or(Ok(()), |l| write_limits(f, &l))
            }
        }
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

/// The `:`-separated options of a player description, each usable once: a small reader that
/// new player kinds reuse.
struct SpecOptions<'a> {
    spec: &'a str,
    seen: Vec<&'a str>,
}

impl<'a> SpecOptions<'a> {
    fn error(&self, reason: String) -> PlayerError {
        PlayerError::Spec {
            spec: self.spec.to_owned(),
            reason,
        }
    }

    /// Marks `key` as given; an error when it was given before.
    fn once(&mut self, key: &'a str) -> Result<(), PlayerError> {
        if self.seen.contains(&key) {
            return Err(self.error(format!("{key} is given twice")));
        }
        self.seen.push(key);
        Ok(())
    }

    /// A number option's value.
    fn number(&self, key: &str, value: &str, max: u64) -> Result<u64, PlayerError> {
        match value.parse::<u64>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n),
            _ => Err(self.error(format!(
                "{key} takes a number from 1 to {max}, not {value}",
                value = fanorona_core::escape::quoted(&value)
            ))),
        }
    }

    /// Reads engine options: a level, limits and threads.
    fn engine(&mut self, parts: impl Iterator<Item = &'a str>) -> Result<EngineParts, PlayerError> {
        let mut level = None;
        let mut limits: Option<Limits> = None;
        let mut threads = None;
        let mut eval = None;
        let mut book = None;
        for part in parts {
            if let Some((key, value)) = part.split_once('=') {
                if key == "threads" {
                    self.once("threads")?;
                    threads = Some(self.number(key, value, MAX_THREADS as u64)? as usize);
                    continue;
                }
                if key == "ownbook" {
                    self.once("ownbook")?;
                    book = Some(match value {
                        "true" => true,
                        "false" => false,
                        _ => {
                            return Err(self.error(format!(
                                "ownbook takes true or false, not {value}",
                                value = fanorona_core::escape::quoted(&value)
                            )));
                        }
                    });
                    continue;
                }
                if key == "eval" || key == "evalfile" {
                    self.once("eval")?;
                    eval = Some(match (key, value) {
                        ("eval", "classic") => EngineEval::Classic,
                        ("eval", "nnue") => EngineEval::Embedded,
                        ("evalfile", path) if !path.is_empty() => {
                            EngineEval::File(std::path::PathBuf::from(path))
                        }
                        _ => {
                            return Err(self.error(format!(
                                "{key}={value}: expected eval=classic, eval=nnue or \
                                 evalfile=PATH",
                                value = fanorona_core::escape::quoted(&value)
                            )));
                        }
                    });
                    continue;
                }
                let l = limits.get_or_insert_with(Limits::default);
                match key {
                    "depth" => {
                        self.once("depth")?;
                        l.depth = Some(self.number(key, value, u64::from(u16::MAX))? as u32);
                    }
                    "nodes" => {
                        self.once("nodes")?;
                        l.nodes = Some(self.number(key, value, u64::MAX)?);
                    }
                    "movetime" => {
                        self.once("movetime")?;
                        l.movetime =
                            Some(Duration::from_millis(self.number(key, value, 86_400_000)?));
                    }
                    _ => {
                        return Err(self.error(format!(
                            "unknown engine option {key} (known: depth, nodes, movetime, threads, \
                             eval, evalfile, ownbook)",
                            key = fanorona_core::escape::quoted(&key)
                        )));
                    }
                }
            } else {
                let parsed = part
                    .parse::<Level>()
                    .map_err(|e| self.error(e.to_string()))?;
                if level.is_some() {
                    return Err(self.error("more than one level is given".to_owned()));
                }
                level = Some(parsed);
            }
        }
        Ok(EngineParts {
            level,
            limits,
            threads,
            eval,
            book,
        })
    }

    /// Reads an external engine's words: the command, then `option.NAME=VALUE` words.
    fn external(&mut self, words: &'a str) -> Result<PlayerSpec, PlayerError> {
        let mut command = Vec::new();
        let mut options: Vec<(String, String)> = Vec::new();
        for word in words.split_whitespace() {
            let Some(option) = word.strip_prefix("option.") else {
                if !options.is_empty() {
                    return Err(self.error(format!(
                        "{word} follows an option.NAME=VALUE word: the engine's command and \
                         arguments come first, its options last",
                        word = fanorona_core::escape::quoted(&word)
                    )));
                }
                command.push(word.to_owned());
                continue;
            };
            match option.split_once('=') {
                Some((name, value)) if !name.is_empty() && !value.is_empty() => {
                    if options.iter().any(|(n, _)| n.eq_ignore_ascii_case(name)) {
                        return Err(self.error(format!("option {name} is given twice")));
                    }
                    options.push((name.to_owned(), value.to_owned()));
                }
                _ => {
                    return Err(self.error(format!(
                        "{word}: an engine option is written option.NAME=VALUE",
                        word = fanorona_core::escape::quoted(&word)
                    )));
                }
            }
        }
        if command.is_empty() {
            return Err(self.error("uci: needs a command".to_owned()));
        }
        Ok(PlayerSpec::External { command, options })
    }
}

/// What an `engine` description says.
struct EngineParts {
    level: Option<Level>,
    limits: Option<Limits>,
    threads: Option<usize>,
    eval: Option<EngineEval>,
    book: Option<bool>,
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerError> {
        let spec = s.trim();
        let mut options = SpecOptions {
            spec: s,
            seen: Vec::new(),
        };
        if let Some(words) = spec.strip_prefix("uci:") {
            return options.external(words);
        }
        let mut parts = spec.split(':');
        let kind = parts.next().unwrap_or_default();
        match kind {
            "random" if spec == "random" => Ok(PlayerSpec::Random),
            "greedy" if spec == "greedy" => Ok(PlayerSpec::Greedy),
            "greedy" => {
                let value = spec
                    .strip_prefix("greedy:random=")
                    .ok_or_else(|| options.error("expected greedy or greedy:random=P".into()))?;
                match value.parse::<u8>() {
                    Ok(random) if random <= 100 => Ok(PlayerSpec::GreedyRandom { random }),
                    _ => Err(options.error(
                        "greedy:random=P takes a per cent of random turns from 0 to 100".into(),
                    )),
                }
            }
            "engine" if spec == "engine:v0" || spec.starts_with("engine:v0:") => {
                let e = options.engine(parts.skip(1))?;
                if e.level.is_some() || e.threads.is_some() || e.eval.is_some() || e.book.is_some()
                {
                    return Err(options.error(
                        "engine:v0 takes limits only, no level, threads, evaluation or book (it \
                         searches with one thread and its own evaluation)"
                            .to_owned(),
                    ));
                }
                Ok(PlayerSpec::Baseline { limits: e.limits })
            }
            "engine" => {
                let e = options.engine(parts)?;
                // Their noisy, exact root search runs one thread whatever it is given.
                if let (Some(level), Some(2..)) = (e.level, e.threads)
                    && level.is_imperfect()
                {
                    return Err(options.error(format!(
                        "engine:{level} searches with one thread (its evaluation noise needs \
                         one): threads is for the levels from club on or no level"
                    )));
                }
                Ok(PlayerSpec::Engine {
                    level: e.level,
                    limits: e.limits,
                    threads: e.threads,
                    eval: e.eval,
                    book: e.book,
                })
            }
            _ => Err(options.error(
                "expected random, greedy, engine[:LEVEL][:depth=N|nodes=N|movetime=MS][:threads=N] \
                 or uci:COMMAND [option.NAME=VALUE ...]"
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
    /// [`PlayerError::Io`], [`PlayerError::Ended`] or [`PlayerError::Timeout`] when an
    /// external engine does not start or does not complete the handshake.
    pub fn build(
        &self,
        seed: u64,
        default_limits: Option<Limits>,
    ) -> Result<Box<dyn Player>, PlayerError> {
        self.build_with(seed, default_limits, Timeouts::default())
    }

    /// As [`PlayerSpec::build`], with the time-outs for an external engine.
    ///
    /// # Errors
    ///
    /// As [`PlayerSpec::build`].
    pub fn build_with(
        &self,
        seed: u64,
        default_limits: Option<Limits>,
        timeouts: Timeouts,
    ) -> Result<Box<dyn Player>, PlayerError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer {
                rng: Rng::new(seed),
            }),
            PlayerSpec::Greedy => Box::new(GreedyPlayer {
                rng: Rng::new(seed),
                random: 0,
            }),
            PlayerSpec::GreedyRandom { random } => Box::new(GreedyPlayer {
                rng: Rng::new(seed),
                random: u64::from(*random),
            }),
            PlayerSpec::Engine {
                level,
                limits,
                threads,
                eval,
                book,
            } => {
                let mut p = EnginePlayer::new(
                    self.to_string(),
                    *level,
                    limits.or(default_limits),
                    threads.unwrap_or(1),
                    seed,
                );
                p.book = book.unwrap_or(*level == Some(Level::Maximum));
                match eval {
                    None => {}
                    Some(EngineEval::Classic) => p.searcher.set_network(None),
                    Some(EngineEval::Embedded) => p.searcher.use_embedded_networks(),
                    Some(EngineEval::File(path)) => {
                        let net =
                            crate::nnue::Network::load(path).map_err(|e| PlayerError::Spec {
                                spec: self.to_string(),
                                reason: format!("evalfile: {e}"),
                            })?;
                        p.searcher.set_network(Some(Arc::new(net)));
                    }
                }
                Box::new(p)
            }
            PlayerSpec::Baseline { limits } => Box::new(BaselinePlayer {
                name: self.to_string(),
                engine: Baseline::new(MATCH_HASH_MB),
                limits: limits
                    .or(default_limits)
                    .unwrap_or_else(|| Level::Strong.limits()),
                searched: None,
                clocks: None,
            }),
            PlayerSpec::External { command, options } => {
                let mut p = ExternalPlayer::start_with(
                    command,
                    default_limits.unwrap_or(Limits::movetime(Duration::from_millis(100))),
                    timeouts,
                )?;
                p.set_options(options)?;
                Box::new(p)
            }
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

/// Plays a turn that captures the most stones (a random one among equals); with a share of
/// random turns, a random legal turn that often instead.
pub struct GreedyPlayer {
    rng: Rng,
    /// Per cent of the turns played at random.
    random: u64,
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        if self.random == 0 {
            "greedy".to_owned()
        } else {
            format!("greedy:random={}", self.random)
        }
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let turns = game.position().legal_turns();
        if self.random > 0 && self.rng.below(100) < self.random {
            if turns.is_empty() {
                return Err(PlayerError::GameOver);
            }
            return Ok(turns[self.rng.below(turns.len() as u64) as usize]);
        }
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
    searched: Option<Duration>,
    clocks: Option<[Clock; 2]>,
    /// Plays from the shipped book where it has a turn.
    book: bool,
}

impl EnginePlayer {
    /// The engine at `level` (its imperfection; its limits when `limits` is `None`), searching
    /// with `threads` threads.
    fn new(
        name: String,
        level: Option<Level>,
        limits: Option<Limits>,
        threads: usize,
        seed: u64,
    ) -> EnginePlayer {
        let limits = limits.unwrap_or_else(|| level.unwrap_or(Level::Strong).limits());
        // A level's own depth cap stays in force under a match's time limit.
        let limits = match (level, limits.depth) {
            (Some(l), None) => match l.limits().depth {
                Some(d) => limits.with_depth(d),
                None => limits,
            },
            _ => limits,
        };
        let mut searcher = Searcher::new(MATCH_HASH_MB);
        searcher.set_threads(threads);
        EnginePlayer {
            name,
            searcher,
            level,
            limits,
            seed,
            searched: None,
            clocks: None,
            book: false,
        }
    }
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _start: &Position) -> Result<(), PlayerError> {
        self.searcher.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let stop = AtomicBool::new(false);
        let seed = mix(self.seed ^ game.turns().len() as u64);
        let clocks = self.clocks.take();
        if self.book {
            let pos = game.position();
            if let Some(turn) = crate::book::shipped(pos.size(), pos.rules())
                .and_then(|b| b.pick(pos, seed))
                .filter(|t| pos.is_legal(t))
            {
                self.searched = Some(Duration::ZERO);
                return Ok(turn);
            }
        }
        let limits = on_clock(self.limits, clocks, game);
        let result = match self.level {
            Some(level) => level.play_with(&mut self.searcher, game, &limits, seed, &stop, |_| {}),
            None => self
                .searcher
                .search(game, &limits, &SearchOptions::default(), &stop, |_| {}),
        };
        self.searched = result.as_ref().ok().map(|r| r.time);
        result.map(|r| r.best).map_err(|_| PlayerError::GameOver)
    }

    fn search_time(&self) -> Option<Duration> {
        self.searched
    }

    fn set_clocks(&mut self, clocks: [Clock; 2]) {
        self.clocks = Some(clocks);
    }
}

/// `limits` with the side to move's clock, when the match gives clocks.
fn on_clock(limits: Limits, clocks: Option<[Clock; 2]>, game: &Game) -> Limits {
    match clocks {
        Some(c) => {
            let mine = c[usize::from(game.position().side_to_move() == Color::Black)];
            limits.with_clock(mine)
        }
        None => limits,
    }
}

/// The frozen v0.1.0 engine ([`crate::baseline`]) at a limit.
pub struct BaselinePlayer {
    name: String,
    engine: Baseline,
    limits: Limits,
    searched: Option<Duration>,
    clocks: Option<[Clock; 2]>,
}

impl Player for BaselinePlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, _start: &Position) -> Result<(), PlayerError> {
        self.engine.clear();
        Ok(())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let stop = AtomicBool::new(false);
        let limits = on_clock(self.limits, self.clocks.take(), game);
        let result = self.engine.search(game, &limits, &stop);
        self.searched = result.as_ref().ok().map(|r| r.time);
        result.map(|r| r.best).map_err(|_| PlayerError::GameOver)
    }

    fn search_time(&self) -> Option<Duration> {
        self.searched
    }

    fn set_clocks(&mut self, clocks: [Clock; 2]) {
        self.clocks = Some(clocks);
    }
}

/// A line from an external engine, or why none can come.
enum Incoming {
    Line(String),
    End,
    Bad(String),
}

/// An external engine process speaking the engine protocol.
///
/// Its output is read by a thread of its own and its input written by another, so that no
/// wait can block beyond its time-out whatever the engine does; on any failure, and when the
/// player is dropped, the process is ended (`quit`, then killed after [`Timeouts::quit`]).
pub struct ExternalPlayer {
    command: String,
    name: String,
    child: Child,
    input: Option<Sender<String>>,
    output: Receiver<Incoming>,
    limits: Limits,
    timeouts: Timeouts,
    options: BTreeSet<String>,
    dead: bool,
    searched: Option<Duration>,
    clocks: Option<[Clock; 2]>,
}

impl ExternalPlayer {
    /// Starts the engine and completes the handshake (`uci` ... `uciok`), with the default
    /// time-outs.
    ///
    /// # Errors
    ///
    /// As [`ExternalPlayer::start_with`].
    pub fn start(command: &[String], limits: Limits) -> Result<ExternalPlayer, PlayerError> {
        ExternalPlayer::start_with(command, limits, Timeouts::default())
    }

    /// Starts the engine and completes the handshake (`uci` ... `uciok`), reading the
    /// options it advertises.
    ///
    /// # Errors
    ///
    /// [`PlayerError::Io`] when it cannot be started, [`PlayerError::Timeout`] or
    /// [`PlayerError::Ended`] when it does not answer `uciok`.
    pub fn start_with(
        command: &[String],
        limits: Limits,
        timeouts: Timeouts,
    ) -> Result<ExternalPlayer, PlayerError> {
        let text = command.join(" ");
        let Some((program, args)) = command.split_first() else {
            return Err(PlayerError::Spec {
                spec: "uci:".to_owned(),
                reason: "uci: needs a command".to_owned(),
            });
        };
        let io = |error| PlayerError::Io {
            command: text.clone(),
            error,
        };
        let mut child = engine_command(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io)?;
        let (Some(mut stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io(std::io::Error::other("no pipe to the engine")));
        };
        running().push(child.id());
        let (input, to_engine) = channel::<String>();
        // Bounded: an engine that floods its output waits for the match to read it.
        let (from_engine, output) = sync_channel(ENGINE_LINES_QUEUED);
        // Threads are detached: a process that leaves a child holding its pipes open must
        // not hold up the match.
        let spawned = std::thread::Builder::new()
            .name("engine-input".to_owned())
            .spawn(move || {
                for line in to_engine {
                    if writeln!(stdin, "{line}")
                        .and_then(|()| stdin.flush())
                        .is_err()
                    {
                        break;
                    }
                }
            })
            .and_then(|_| {
                std::thread::Builder::new()
                    .name("engine-output".to_owned())
                    .spawn(move || read_lines(stdout, &from_engine))
            });
        let mut p = ExternalPlayer {
            command: text.clone(),
            name: format!("uci:{text}"),
            child,
            input: Some(input),
            output,
            limits,
            timeouts,
            options: BTreeSet::new(),
            dead: false,
            searched: None,
            clocks: None,
        };
        spawned.map_err(io)?;
        p.send("uci");
        let mut name = None;
        let mut options = BTreeSet::new();
        p.wait_for("uciok", timeouts.handshake, |l| {
            if let Some(n) = l.strip_prefix("id name ") {
                name = Some(n.trim().to_owned());
            } else if let Some(rest) = l.strip_prefix("option name ") {
                let option = rest.split(" type ").next().unwrap_or(rest).trim();
                if option.len() > MAX_OPTION_NAME {
                    return Err(format!(
                        "an option name of {} bytes before uciok (at most {MAX_OPTION_NAME})",
                        option.len()
                    ));
                }
                options.insert(option.to_ascii_lowercase());
                if options.len() > MAX_ENGINE_OPTIONS {
                    return Err(format!(
                        "more than {MAX_ENGINE_OPTIONS} options before uciok"
                    ));
                }
            }
            Ok(l == "uciok")
        })?;
        if let Some(n) = name.filter(|n| !n.is_empty()) {
            p.name = n;
        }
        p.options = options;
        Ok(p)
    }

    /// Whether the engine advertised the option `name` (letter case ignored) after `uci`.
    pub fn has_option(&self, name: &str) -> bool {
        self.options.contains(&name.to_ascii_lowercase())
    }

    /// Sets engine options (name, value) with `setoption`, then `isready`: an option the
    /// engine did not advertise after `uci`, or an `info string error...` line before
    /// `readyok`, is [`PlayerError::Unsupported`] (and the process is killed), as for the
    /// rule options.
    ///
    /// # Errors
    ///
    /// [`PlayerError::Unsupported`], or a time-out, end or protocol violation while waiting
    /// for `readyok`.
    pub fn set_options(&mut self, options: &[(String, String)]) -> Result<(), PlayerError> {
        if options.is_empty() {
            return Ok(());
        }
        if let Some((name, _)) = options.iter().find(|(n, _)| !self.has_option(n)) {
            self.kill();
            return Err(PlayerError::Unsupported {
                command: self.command.clone(),
                option: name.clone(),
                reason: "not advertised after uci".to_owned(),
            });
        }
        let shown: Vec<String> = options.iter().map(|(n, v)| format!("{n}={v}")).collect();
        let shown = shown.join(", ");
        for (name, value) in options {
            self.send(&format!("setoption name {name} value {value}"));
        }
        self.send("isready");
        let command = self.command.clone();
        self.wait_for("readyok", self.timeouts.setup, |l| {
            match l.strip_prefix("info string ") {
                Some(msg) if msg.to_ascii_lowercase().starts_with("error") => {
                    Err(format!("rejected ({shown}): {}", clip(msg)))
                }
                _ => Ok(l == "readyok"),
            }
        })
        .map_err(|e| match e {
            PlayerError::Protocol { reason, .. } if reason.starts_with("rejected") => {
                PlayerError::Unsupported {
                    command,
                    option: shown.clone(),
                    reason,
                }
            }
            e => e,
        })?;
        Ok(())
    }

    fn send(&mut self, line: &str) {
        // A failed send shows as the engine's end or silence when its answer is awaited.
        if let Some(input) = &self.input {
            let _ = input.send(line.to_owned());
        }
    }

    /// Reads lines until `done` says so, for at most `timeout`; returns that line. On any
    /// failure the process is killed.
    fn wait_for(
        &mut self,
        what: &'static str,
        timeout: Duration,
        mut done: impl FnMut(&str) -> Result<bool, String>,
    ) -> Result<String, PlayerError> {
        let deadline = Instant::now() + timeout;
        let failure = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            // Checked here too: an engine that floods its output never lets a receive wait.
            if left.is_zero() {
                break PlayerError::Timeout {
                    command: self.command.clone(),
                    waiting_for: what,
                    after: timeout,
                };
            }
            match self.output.recv_timeout(left) {
                Ok(Incoming::Line(line)) => match done(&line) {
                    Ok(true) => return Ok(line),
                    Ok(false) => {}
                    Err(reason) => {
                        break PlayerError::Protocol {
                            command: self.command.clone(),
                            reason,
                        };
                    }
                },
                Ok(Incoming::Bad(reason)) => {
                    break PlayerError::Protocol {
                        command: self.command.clone(),
                        reason,
                    };
                }
                Ok(Incoming::End) | Err(RecvTimeoutError::Disconnected) => {
                    break PlayerError::Ended {
                        command: self.command.clone(),
                        waiting_for: what,
                    };
                }
                Err(RecvTimeoutError::Timeout) => {
                    break PlayerError::Timeout {
                        command: self.command.clone(),
                        waiting_for: what,
                        after: timeout,
                    };
                }
            }
        };
        self.kill();
        Err(failure)
    }

    fn kill(&mut self) {
        self.input = None;
        kill_tree(self.child.id());
        let _ = self.child.kill();
        self.forget();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Takes the process off the list of engines to kill on an interruption (where it can,
    /// before the process is reaped, so that a process id used again is not killed).
    fn forget(&self) {
        let pid = self.child.id();
        running().retain(|&p| p != pid);
    }

    /// Sets the game's rules: `Rules` when the engine advertises it, else each rule option;
    /// the standard rules need no option. Then `isready`, and an error line before `readyok`
    /// is a rejection.
    fn set_rules(&mut self, rules: Rules) -> Result<(), PlayerError> {
        let mut sent = Vec::new();
        if self.has_option("Rules") {
            sent.push(format!(
                "setoption name Rules value {}",
                rules.to_full_string()
            ));
        } else if Rules::NAMES
            .iter()
            // `game` is needed only for another game than the capture game, `vela` only for
            // another account than Montgomery's (the full text leaves them out otherwise).
            .filter(|n| match **n {
                "game" => rules.game() != fanorona_core::GameKind::Capture,
                "vela" => rules.vela() != fanorona_core::VelaRule::Montgomery,
                _ => true,
            })
            .all(|n| self.has_option(n))
        {
            for pair in rules.to_full_string().split(',') {
                if let Some((name, value)) = pair.split_once('=') {
                    sent.push(format!("setoption name {name} value {value}"));
                }
            }
        } else if rules != Rules::STANDARD {
            let reason = format!(
                "not advertised after uci, and the match plays {} (the engine would play \
                 other rules)",
                rules.to_full_string()
            );
            self.kill();
            return Err(PlayerError::Unsupported {
                command: self.command.clone(),
                option: "Rules".to_owned(),
                reason,
            });
        }
        for line in &sent {
            self.send(line);
        }
        self.send("isready");
        let command = self.command.clone();
        self.wait_for("readyok", self.timeouts.setup, |l| {
            if sent.is_empty() {
                return Ok(l == "readyok");
            }
            match l.strip_prefix("info string ") {
                Some(msg) if msg.to_ascii_lowercase().starts_with("error") => Err(format!(
                    "rejected the rule options ({}): {}",
                    rules.to_full_string(),
                    clip(msg)
                )),
                _ => Ok(l == "readyok"),
            }
        })
        .map_err(|e| match e {
            PlayerError::Protocol { reason, .. } if reason.starts_with("rejected") => {
                PlayerError::Unsupported {
                    command,
                    option: "Rules".to_owned(),
                    reason,
                }
            }
            e => e,
        })?;
        Ok(())
    }
}

/// The `time MS` of an `info` line (not of `info string`), if any.
fn info_time(line: &str) -> Option<Duration> {
    let rest = line.strip_prefix("info ")?;
    if rest.starts_with("string") {
        return None;
    }
    let mut words = rest.split_whitespace();
    while let Some(w) = words.next() {
        match w {
            // The rest of the line is free text or turns.
            "string" | "pv" => return None,
            "time" => return words.next()?.parse().ok().map(Duration::from_millis),
            _ => {}
        }
    }
    None
}

/// At most 80 characters of an engine's text, for messages and records.
fn clip(text: &str) -> String {
    let mut out: String = text.chars().take(80).collect();
    if text.chars().nth(80).is_some() {
        out.push_str("...");
    }
    out
}

fn read_lines(stdout: impl Read, to: &SyncSender<Incoming>) {
    let mut reader = BufReader::new(stdout);
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let got = (&mut reader)
            .take(MAX_ENGINE_LINE as u64 + 1)
            .read_until(b'\n', &mut buf);
        let message = match got {
            Ok(0) => Incoming::End,
            Ok(_) if buf.len() > MAX_ENGINE_LINE => {
                Incoming::Bad(format!("sent a line longer than {MAX_ENGINE_LINE} bytes"))
            }
            Ok(_) => match std::str::from_utf8(&buf) {
                Ok(text) => Incoming::Line(text.trim().to_owned()),
                Err(_) => Incoming::Bad("sent a line that is not UTF-8".to_owned()),
            },
            Err(e) => Incoming::Bad(format!("cannot be read: {e}")),
        };
        let last = !matches!(message, Incoming::Line(_));
        if to.send(message).is_err() || last {
            return;
        }
    }
}

impl Player for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn new_game(&mut self, start: &Position) -> Result<(), PlayerError> {
        self.send("ucinewgame");
        self.set_rules(start.rules())
    }

    fn choose(&mut self, game: &Game) -> Result<Turn, PlayerError> {
        let mut pos = format!("position fen {}", game.start().to_fen());
        if !game.turns().is_empty() {
            pos.push_str(" moves");
            for t in game.turns() {
                pos.push(' ');
                pos.push_str(&t.to_string());
            }
        }
        self.send(&pos);
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
        let mut timeout = self.timeouts.turn(l.movetime);
        if let Some([w, b]) = self.clocks.take() {
            go.push_str(&format!(
                " wtime {} btime {} winc {} binc {}",
                w.remaining.as_millis(),
                b.remaining.as_millis(),
                w.increment.as_millis(),
                b.increment.as_millis()
            ));
            // The clock is the limit: waited for, and the usual margin beyond it.
            let mine = if game.position().side_to_move() == Color::White {
                w
            } else {
                b
            };
            let on_clock = mine.remaining + self.timeouts.turn_margin;
            timeout = if l.movetime.is_some() || l.depth.is_some() || l.nodes.is_some() {
                timeout.min(on_clock)
            } else {
                on_clock
            };
        }
        self.send(&go);
        let mut searched = None;
        self.searched = None;
        let line = self.wait_for("bestmove", timeout, |l| {
            if let Some(t) = info_time(l) {
                searched = Some(t);
            }
            Ok(l == "bestmove" || l.starts_with("bestmove "))
        })?;
        self.searched = searched;
        let text = line.split_whitespace().nth(1).unwrap_or_default();
        game.position()
            .parse_turn(text)
            .map_err(|e| PlayerError::IllegalTurn {
                player: self.name.clone(),
                answer: clip(text),
                reason: e.to_string(),
            })
    }

    fn search_time(&self) -> Option<Duration> {
        self.searched
    }

    fn set_clocks(&mut self, clocks: [Clock; 2]) {
        self.clocks = Some(clocks);
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        if self.dead {
            return;
        }
        self.send("quit");
        self.input = None; // closes the engine's input once the line is written
        let deadline = Instant::now() + self.timeouts.quit;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) | Err(_) => {
                    self.forget();
                    return;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
        kill_tree(self.child.id());
        let _ = self.child.kill();
        self.forget();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print() {
        for text in [
            "random",
            "greedy",
            "greedy:random=20",
            "greedy:random=0",
            "engine",
            "engine:beginner",
            "engine:strong:movetime=100",
            "engine:depth=6",
            "engine:depth=6:nodes=1000",
            "engine:threads=2",
            "engine:strong:movetime=50:threads=3",
            "engine:casual:threads=1",
            "engine:v0",
            "engine:v0:movetime=200",
            "engine:v0:nodes=5000",
            "engine:nodes=10000:eval=classic",
            "engine:strong:threads=2:eval=nnue",
            "engine:movetime=200:evalfile=/tmp/net.nnue",
            "engine:nodes=5000:ownbook=true",
            "engine:maximum:ownbook=false",
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
        }
        assert_eq!(
            "uci:./fanorona engine".parse::<PlayerSpec>().unwrap(),
            PlayerSpec::External {
                command: vec!["./fanorona".to_owned(), "engine".to_owned()],
                options: Vec::new(),
            }
        );
        let spec: PlayerSpec = "uci:./x --uci option.Threads=2 option.Hash=64"
            .parse()
            .unwrap();
        assert_eq!(
            spec,
            PlayerSpec::External {
                command: vec!["./x".to_owned(), "--uci".to_owned()],
                options: vec![
                    ("Threads".to_owned(), "2".to_owned()),
                    ("Hash".to_owned(), "64".to_owned())
                ],
            }
        );
        assert_eq!(
            spec.to_string(),
            "uci:./x --uci option.Threads=2 option.Hash=64"
        );
        for bad in [
            "",
            "randomly",
            "engine:expert",
            "engine:depth=x",
            "engine:depth=0",
            "engine:movetime=-5",
            "engine:speed=3",
            "uci:",
            "random:depth=3",
            "greedy:random=101",
            "greedy:random=x",
            "greedy:depth=2",
            "engine:v0:casual",
            "engine:v0x",
            "engine:v0:speed=1",
            "engine:v0:nodes=5:nodes=6",
            "engine:threads=0",
            "engine:threads=257",
            "engine:threads=x",
            "engine:v0:threads=2",
            "uci:option.Threads=2",
            "uci:./x option.Threads=2 --uci",
            "uci:./x option.Threads",
            "uci:./x option.=2",
            "uci:./x option.Threads=",
            "engine:ownbook=yes",
            "engine:ownbook=true:ownbook=false",
            "engine:v0:ownbook=true",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn conflicting_spec_options_are_errors() {
        for (bad, says) in [
            ("engine:depth=1:depth=2", "depth is given twice"),
            (
                "engine:movetime=5:nodes=9:movetime=5",
                "movetime is given twice",
            ),
            ("engine:casual:strong", "more than one level"),
            ("engine:casual:casual", "more than one level"),
            ("engine:threads=1:threads=2", "threads is given twice"),
            ("engine:casual:threads=2", "searches with one thread"),
            ("engine:threads=4:beginner", "searches with one thread"),
            (
                "uci:./x option.Threads=1 option.threads=2",
                "option threads is given twice",
            ),
        ] {
            let e = bad.parse::<PlayerSpec>().unwrap_err().to_string();
            assert!(e.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn an_engine_with_its_book_plays_book_turns_from_the_start() {
        let start = Position::standard();
        let book = crate::book::shipped(start.size(), start.rules()).unwrap();
        let booked: Vec<Turn> = book.entries(&start).iter().map(|e| e.turn).collect();
        for seed in 0..12 {
            let mut p = "engine:nodes=200:ownbook=true"
                .parse::<PlayerSpec>()
                .unwrap()
                .build(seed, None)
                .unwrap();
            let t = p.choose(&Game::default()).unwrap();
            assert!(booked.contains(&t), "{t}");
            assert_eq!(p.search_time(), Some(Duration::ZERO));
        }
        // The maximum level uses it by default; ownbook=false turns it off (then it searches).
        let mut p = "engine:maximum:movetime=20"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(1, None)
            .unwrap();
        assert!(booked.contains(&p.choose(&Game::default()).unwrap()));
        assert_eq!(p.search_time(), Some(Duration::ZERO));
        let mut p = "engine:maximum:movetime=20:ownbook=false"
            .parse::<PlayerSpec>()
            .unwrap()
            .build(1, None)
            .unwrap();
        p.choose(&Game::default()).unwrap();
        assert!(p.search_time().is_some_and(|t| t > Duration::ZERO));
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
    fn greedy_with_random_turns_plays_some_smaller_captures() {
        // Same position as above: always random would take c1 alone about two times in three.
        let game = Game::new(Position::from_fen("9/9/9/9/W1B1W1BB1 w").unwrap());
        let mut always = PlayerSpec::GreedyRandom { random: 100 }
            .build(3, None)
            .unwrap();
        let mut never = PlayerSpec::GreedyRandom { random: 0 }
            .build(3, None)
            .unwrap();
        let mut small = 0;
        for _ in 0..60 {
            let t = always.choose(&game).unwrap();
            assert!(game.position().is_legal(&t));
            if t.captured().count() < 2 {
                small += 1;
            }
            assert_eq!(never.choose(&game).unwrap().captured().count(), 2);
        }
        assert!(small > 10, "{small} of 60 random turns took one stone");
        assert_eq!(always.name(), "greedy:random=100");
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
            game.play(&t).expect("a legal turn");
        }
        // A match's --movetime applies when the description names no limit.
        let mut timed = PlayerSpec::Baseline { limits: None }
            .build(1, Some(Limits::movetime(Duration::from_millis(30))))
            .unwrap();
        // Scheduling on a loaded machine only adds delay, so the quickest of a few tries is the
        // player's own overrun: it must stay within 40 ms of the limit.
        let mut quickest = Duration::MAX;
        for _ in 0..5 {
            let started = std::time::Instant::now();
            let t = timed.choose(&game).unwrap();
            quickest = quickest.min(started.elapsed());
            assert!(game.position().is_legal(&t));
            if quickest < Duration::from_millis(30 + 40) {
                break;
            }
        }
        assert!(quickest < Duration::from_millis(30 + 40), "{quickest:?}");
    }

    #[test]
    fn engine_threads_reach_the_search() {
        let spec: PlayerSpec = "engine:nodes=3000:threads=2".parse().unwrap();
        let PlayerSpec::Engine {
            level,
            limits,
            threads,
            ..
        } = spec
        else {
            panic!("{spec:?}")
        };
        assert_eq!((level, threads), (None, Some(2)));
        let mut p = EnginePlayer::new(spec.to_string(), level, limits, 2, 7);
        assert_eq!(p.searcher.threads(), 2);
        assert_eq!(p.name(), "engine:nodes=3000:threads=2");
        let game = Game::default();
        let t = p.choose(&game).unwrap();
        assert!(game.position().is_legal(&t));
        // Without the option, one thread.
        let one = EnginePlayer::new("engine".to_owned(), None, limits, 1, 7);
        assert_eq!(one.searcher.threads(), 1);
    }

    #[test]
    fn the_evaluation_options_reach_the_search() {
        for (text, want) in [
            ("engine:nodes=300:eval=classic", Some(EngineEval::Classic)),
            ("engine:nodes=300:eval=nnue", Some(EngineEval::Embedded)),
            ("engine:nodes=300", None),
        ] {
            let spec: PlayerSpec = text.parse().unwrap();
            let PlayerSpec::Engine { eval, .. } = &spec else {
                panic!("{spec:?}")
            };
            assert_eq!(eval, &want);
            let mut p = spec.build(3, None).unwrap();
            let game = Game::default();
            assert!(game.position().is_legal(&p.choose(&game).unwrap()));
        }
        // A network file that cannot be loaded is an error of the description.
        let spec: PlayerSpec = "engine:evalfile=/nonexistent/net.nnue".parse().unwrap();
        match spec.build(0, None) {
            Err(PlayerError::Spec { reason, .. }) => {
                assert!(reason.contains("evalfile"), "{reason}")
            }
            other => panic!("{:?}", other.map(|p| p.name())),
        }
        for bad in [
            "engine:eval=fast",
            "engine:evalfile=",
            "engine:eval=classic:evalfile=x.nnue",
            "engine:eval=nnue:eval=nnue",
            "engine:v0:eval=classic",
        ] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_missing_external_engine_is_an_error() {
        let spec: PlayerSpec = "uci:/nonexistent/engine-binary".parse().unwrap();
        assert!(matches!(spec.build(0, None), Err(PlayerError::Io { .. })));
    }

    #[test]
    fn timeouts_add_the_margin_to_the_movetime() {
        let t = Timeouts::all(Duration::from_millis(50));
        assert_eq!(
            t.turn(Some(Duration::from_millis(100))),
            Duration::from_millis(150)
        );
        assert_eq!(t.turn(None), Duration::from_millis(50));
        assert_eq!(clip(&"x".repeat(100)).len(), 83);
    }
}
