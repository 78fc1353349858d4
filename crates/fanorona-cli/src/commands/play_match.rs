//! `fanorona match`: games between two players in colour-swapped pairs, with the result,
//! pentanomial statistics, an Elo difference and an optional SPRT.

mod resume;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::Args;
use fanorona_ai::Limits;
use fanorona_ai::matches::{
    MatchConfig, MatchError, MatchGame, MatchResult, Shard, Sprt, SprtDecision, SprtStatus, Stop,
    Tally, Termination, TimeControl, TurnTimes, resume_match,
};
use fanorona_ai::openings;
use fanorona_ai::players::{PlayerSpec, Timeouts};
use fanorona_core::record::{Element, GameRecord, GameResult, Tag};
use fanorona_core::{BoardSize, Color, Position, Rules};
use serde_json::json;

use crate::options::{RuleArgs, limits, ranged};
use crate::output::{OutputFile, shown_path};
use crate::progress;

/// Play games between two players and report the score, the Elo difference with its error
/// margin, pentanomial pair counts and, with --sprt, a sequential test.
///
/// A player is `random`, `greedy` (largest capture; `greedy:random=P` plays P per cent of its
/// turns at random, a stand-in for a new player), `engine` (full strength),
/// `engine:LEVEL` (a playing level, `novice` to `maximum`, as the protocol's Level option),
/// `engine:depth=N`, `engine:nodes=N`, `engine:movetime=MS`, `engine:threads=N`, `engine:eval=classic|nnue` (the hand evaluation
/// or the embedded networks), `engine:evalfile=PATH` (a network file; options combine, each
/// once: `engine:strong:movetime=50:threads=2`), `engine:v0` (the frozen v0.1.0 engine, the
/// baseline of strength claims), or `uci:COMMAND`, an external engine speaking the
/// engine protocol; `option.NAME=VALUE` words after its command set its options, as in
/// cutechess-cli (`uci:./other option.Threads=2 option.Hash=64`): an option the engine does
/// not list after `uci`, or rejects, stops the match before the first game. Results count for
/// the first player.
///
/// Games come in pairs from the same opening with colours swapped. On 5x9 under the standard
/// rules the openings are the built-in suite (near-equal positions four turns deep); else the
/// setup. A player that crashes, does not answer in time, breaks the protocol or plays an
/// illegal turn loses that game (the reason is in the record) and the match goes on. With
/// --out, each game is written as it ends: whatever happens, the games finished are kept.
/// --resume --out FILE goes on with the match whose games FILE holds (checked to be this
/// match's: same players, limits, openings, random turns, turn limit, seed and rules), counts
/// them, and plays the games missing, up to --games. A finished match prints the command that
/// reruns it. The summary gives each player's turn times (median, 99th percentile, maximum)
/// beside the search times the engines report, to tell an engine's overrun from the
/// machine's. --tc plays on a game clock. --shard K/N plays a part of the match on one
/// machine, --merge counts the parts' games files as the whole match.
///
/// Examples:
///   fanorona match engine:strong greedy --games 20 --movetime 100
///   fanorona match engine engine:casual --sprt 0,10 --games 20000 --concurrency 2 --nodes 20000
///   fanorona match engine "uci:./other-engine --uci" --movetime 200 --out games.fgn --json
///   fanorona match engine:threads=2 "uci:./fanorona engine option.Threads=1" --movetime 1000
///   fanorona match engine engine:v0 --movetime 1000 --games 200 --out long.fgn --resume
///   fanorona match engine engine:v0 --tc 10+0.1 --games 100 --out clock.fgn
///   fanorona match engine engine:v0 --movetime 200 --games 400 --shard 2/4 --out s2.fgn
///   fanorona match engine engine:v0 --movetime 200 --games 400 --merge s1.fgn s2.fgn s3.fgn s4.fgn
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct MatchArgs {
    /// The first player (results count for it).
    pub first: String,
    /// The second player.
    pub second: String,
    /// Number of games; with --sprt, the most (default 10, with --sprt 100000).
    #[arg(long, value_parser = ranged::<u64>(1..=limits::GAMES))]
    pub games: Option<u64>,
    /// Milliseconds per turn for engines whose description names no limit.
    #[arg(long, value_name = "MS", value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub movetime: Option<u64>,
    /// Depth per turn for engines whose description names no limit.
    #[arg(long, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: Option<u32>,
    /// Nodes per turn for engines whose description names no limit.
    #[arg(long, value_parser = ranged::<u64>(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Play on a game clock, as cutechess-cli's tc=: each player starts with SECONDS and gains
    /// INC seconds after each turn (`--tc 10+0.1`, `--tc 60`). Engines get their clock with
    /// each turn (`go wtime btime winc binc` for external ones); a turn longer than the
    /// player's clock plus --time-margin loses the game on time (Termination "time forfeit").
    /// Engines whose description names no limit play on the clock alone.
    #[arg(long, value_name = "SECONDS[+INC]")]
    pub tc: Option<TimeControl>,
    /// With --tc: how far past its clock a turn may go before it is lost on time (the latency
    /// of a process and its pipes, as cutechess-cli's timemargin).
    #[arg(long, value_name = "MS", default_value_t = 50, requires = "tc", value_parser = ranged::<u64>(0..=limits::MOVETIME_MS))]
    pub time_margin: u64,
    /// A file of starting positions, one position string per line (`#` starts a comment);
    /// pair k starts from the k-th position (cycling).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["no_openings", "board"])]
    pub openings: Option<PathBuf>,
    /// Start every pair from the setup, not from the built-in suite.
    #[arg(long)]
    pub no_openings: bool,
    /// Play this many random turns from each opening before the players take over (the same
    /// turns for both games of a pair; a start that repeats an earlier pair's is drawn again).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = ranged::<u32>(0..=limits::TURNS))]
    pub random_plies: u32,
    /// The board (rows x columns) when there is no --openings file.
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Games played at once, one thread each (give each engine a core of its own).
    #[arg(long, default_value_t = 1, value_parser = ranged::<u16>(1..=limits::THREADS))]
    pub concurrency: u16,
    /// The old name of --concurrency.
    #[arg(long, hide = true, conflicts_with = "concurrency", value_parser = ranged::<u16>(1..=limits::THREADS))]
    pub threads: Option<u16>,
    /// A game still running after this many turns is adjudicated a draw (Termination
    /// "adjudication").
    #[arg(long, default_value_t = 1000, value_parser = ranged::<u32>(1..=limits::TURNS))]
    pub max_turns: u32,
    /// Seed of the players' randomness and of random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run a sequential probability ratio test of Elo = ELO0 against Elo = ELO1 (logistic
    /// Elo, pentanomial pairs) and stop when it decides.
    #[arg(long, value_name = "ELO0,ELO1")]
    pub sprt: Option<String>,
    /// The SPRT's probability of accepting ELO1 when ELO0 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    /// The SPRT's probability of accepting ELO0 when ELO1 holds.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// External engines: the wait for `uciok` after `uci`.
    #[arg(long, value_name = "MS", default_value_t = 10_000, value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub handshake_timeout: u64,
    /// External engines: the wait for `readyok` after the options are sent (an engine may load
    /// endgame tables or a network first).
    #[arg(long, value_name = "MS", default_value_t = 60_000, value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub setup_timeout: u64,
    /// External engines: the wait for `bestmove` beyond the turn's movetime (default 10000),
    /// or in all for a turn without a time limit (default 120000).
    #[arg(long, value_name = "MS", value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub turn_timeout: Option<u64>,
    /// External engines: the wait for the process to end after `quit`, before it is killed.
    #[arg(long, value_name = "MS", default_value_t = 2_000, value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub quit_timeout: u64,
    /// Write every game to this file as FGN records, each as it ends.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Go on with the match whose games --out holds: they are counted, kept, and the games
    /// missing are played (a missing file starts the match). Games of another match (other
    /// players, limits, openings, random turns, turn limit, seed or rules) are refused.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// Play only part K of N of the match: the pairs p with p % N = K - 1, with the openings,
    /// random turns and seeds they have in the whole match (a pair is never split). An SPRT
    /// does not stop a shard; --merge counts the shards' games as the whole match.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Play nothing: count the games of these games files (the --out files of the shards of
    /// this match) as one match and print its summary, as the whole match played in one place
    /// would. The files must hold every game of the match (--games), each once, all of this
    /// match (same players, limits, openings, random turns, turn limit, seed and rules).
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["out", "resume", "shard"])]
    pub merge: Vec<PathBuf>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Where the openings come from.
enum Source {
    Builtin(usize),
    File(PathBuf, usize),
    Setup,
}

impl Source {
    fn describe(&self) -> String {
        match self {
            Source::Builtin(n) => format!("the built-in 5x9 suite ({n} positions)"),
            Source::File(p, n) => format!("{} ({n} positions)", p.display()),
            Source::Setup => "the setup".to_owned(),
        }
    }
}

fn read_openings(path: &Path, rules: Rules) -> Result<Vec<Position>> {
    use std::io::Read;
    const MAX_BYTES: u64 = 64 << 20;
    let name = shown_path(path);
    // At most one byte past the limit is read, whatever the file is (a device or a pipe has
    // no length to check first: /dev/zero never ends).
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_BYTES + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {name}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        bail!(
            "{name}: larger than {} MiB, not an opening suite",
            MAX_BYTES >> 20
        );
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{name}: not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to() + 1
        )
    })?;
    openings::parse(&text, rules).with_context(|| format!("in {name}"))
}

/// A comment's text as FGN can hold it (no braces, no line breaks).
fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '{' => '(',
            '}' => ')',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

/// The record of a finished game, with its `Termination`, the match's settings and the
/// longest turn of each side.
fn record(g: &MatchGame, settings: &resume::Settings) -> GameRecord {
    let start = g.game.start();
    let result = match g.winner {
        Some(Color::White) => GameResult::WhiteWins,
        Some(Color::Black) => GameResult::BlackWins,
        None => GameResult::Draw,
    };
    let mut tags = vec![
        ("Event", "fanorona match".to_owned()),
        ("Round", (g.index + 1).to_string()),
        ("White", comment_text(&g.white)),
        ("Black", comment_text(&g.black)),
        ("Result", g.result_str().to_owned()),
    ];
    if start.size() != BoardSize::STANDARD {
        tags.push(("Board", start.size().to_string()));
    }
    let rules = start.rules().to_string();
    if !rules.is_empty() {
        tags.push(("Rules", rules));
    }
    if Position::start_with(start.size(), start.rules())
        .ok()
        .as_ref()
        != Some(start)
    {
        tags.push(("FEN", start.to_fen()));
    }
    tags.push(("Termination", g.termination.tag().to_owned()));
    if let Some(tc) = settings.time_control() {
        tags.push(("TimeControl", tc.to_string()));
    }
    tags.extend(settings.tags().iter().cloned());
    if let Some(shard) = settings.shard() {
        tags.push(("MatchShard", shard.to_string()));
    }
    tags.push((
        resume::LONGEST_TURN,
        resume::longest_turn_text(g.longest_turn),
    ));
    tags.push((resume::TURN_TIMES, resume::turn_times_text(&g.turn_times)));
    let mut movetext: Vec<Element> = g
        .game
        .turns()
        .iter()
        .map(|t| Element::Turn(t.to_string()))
        .collect();
    movetext.push(Element::Comment(comment_text(&g.description())));
    GameRecord::new(
        tags.into_iter()
            .map(|(name, value)| Tag {
                name: name.to_owned(),
                value,
            })
            .collect(),
        movetext,
        Some(result),
    )
}

/// The games file: a journal (see [`OutputFile::journal`]) opened before the first game, each
/// game appended as it ends.
struct Out {
    file: OutputFile,
    games: usize,
    settings: resume::Settings,
    /// Line breaks written before the next game, so that it starts after an empty line
    /// (the games file of an earlier run may end without one).
    separator: &'static str,
}

impl Out {
    fn write(&mut self, g: &MatchGame) -> Result<(), String> {
        let text = record(g, &self.settings)
            .to_fgn()
            .map_err(|e| e.to_string())?;
        let text = format!("{}{text}", self.separator);
        self.file
            .append(text.as_bytes())
            .map_err(|e| crate::output::error_text(&e))?;
        self.games += 1;
        self.separator = "";
        Ok(())
    }
}

fn parse_sprt(args: &MatchArgs) -> Result<Option<Sprt>> {
    let Some(text) = &args.sprt else {
        return Ok(None);
    };
    let parts: Vec<&str> = text.split(',').map(str::trim).collect();
    let [a, b] = parts[..] else {
        bail!(
            "--sprt takes ELO0,ELO1 (such as 0,10), not {text}",
            text = fanorona_core::escape::quoted(&text)
        );
    };
    let num = |s: &str| -> Result<f64> {
        s.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .with_context(|| {
                format!(
                    "--sprt: {s} is not a number",
                    s = fanorona_core::escape::quoted(&s)
                )
            })
    };
    Ok(Some(
        Sprt::new(num(a)?, num(b)?, args.alpha, args.beta).context("in --sprt")?,
    ))
}

/// The number of games: as given, else 10, or 100000 with an SPRT (which stops the match
/// when it decides).
fn games(args: &MatchArgs) -> u64 {
    args.games
        .unwrap_or(if args.sprt.is_some() { 100_000 } else { 10 })
}

/// A word as a POSIX shell reads it back.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_./:=,@+-%".contains(c));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The command that plays this match again: every option that decides the games, and --out
/// (with --resume when it was given) so that the games go to the same file; --json, which only
/// changes how the summary is printed, is left out.
fn rerun_command(args: &MatchArgs, rules: Rules) -> String {
    let mut words: Vec<String> = vec![
        "fanorona".into(),
        "match".into(),
        args.first.clone(),
        args.second.clone(),
        "--games".into(),
        games(args).to_string(),
    ];
    let mut opt = |name: &str, value: String| {
        // A value that starts with `-` (a negative SPRT bound) is not read as an option.
        if value.starts_with('-') {
            words.push(format!("--{name}={value}"));
        } else {
            words.push(format!("--{name}"));
            words.push(value);
        }
    };
    if let Some(v) = args.movetime {
        opt("movetime", v.to_string());
    }
    if let Some(v) = args.depth {
        opt("depth", v.to_string());
    }
    if let Some(v) = args.nodes {
        opt("nodes", v.to_string());
    }
    if let Some(tc) = args.tc {
        opt("tc", tc.to_string());
        opt("time-margin", args.time_margin.to_string());
    }
    if let Some(p) = &args.openings {
        opt("openings", p.display().to_string());
    } else {
        opt("board", args.board.clone());
    }
    if rules != Rules::STANDARD {
        opt("rules", rules.to_full_string());
    }
    if args.random_plies > 0 {
        opt("random-plies", args.random_plies.to_string());
    }
    opt("concurrency", args.concurrency.to_string());
    opt("max-turns", args.max_turns.to_string());
    opt("seed", args.seed.to_string());
    if let Some(s) = &args.sprt {
        opt("sprt", s.clone());
        opt("alpha", args.alpha.to_string());
        opt("beta", args.beta.to_string());
    }
    let external = [&args.first, &args.second]
        .iter()
        .any(|p| p.trim().starts_with("uci:"));
    if external {
        opt("handshake-timeout", args.handshake_timeout.to_string());
        opt("setup-timeout", args.setup_timeout.to_string());
        if let Some(t) = args.turn_timeout {
            opt("turn-timeout", t.to_string());
        }
        opt("quit-timeout", args.quit_timeout.to_string());
    }
    if args.no_openings {
        words.push("--no-openings".into());
    }
    if let Some(shard) = args.shard {
        words.push("--shard".into());
        words.push(shard.to_string());
    }
    if let Some(out) = &args.out {
        words.push("--out".into());
        words.push(out.display().to_string());
        if args.resume {
            words.push("--resume".into());
        }
    }
    words
        .iter()
        .map(|w| shell_word(w))
        .collect::<Vec<_>>()
        .join(" ")
}

fn show_elo(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.to_owned()
    } else {
        format!("{x:+.1}")
    }
}

fn show_margin(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else {
        "inf".to_owned()
    }
}

fn finite(x: f64) -> serde_json::Value {
    if x.is_finite() { json!(x) } else { json!(null) }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A player's turn times in the JSON summary: count, median, 99th percentile, maximum (ms)
/// and, with a movetime, the turns over it.
fn times_json(t: &TurnTimes, limit: Option<Duration>) -> serde_json::Value {
    // To the tenth of a millisecond the times are kept to.
    let q = |d: Option<Duration>| d.map_or(json!(null), |d| json!((ms(d) * 10.0).round() / 10.0));
    json!({
        "turns": t.count(),
        "median": q(t.median()),
        "p99": q(t.p99()),
        "max": q(t.max()),
        "over_movetime": limit.map(|l| t.over(l)),
    })
}

/// `median M, p99 P, max X ms` of a player's turn times, or `none`.
fn times_text(t: &TurnTimes) -> String {
    match (t.median(), t.p99(), t.max()) {
        (Some(m), Some(p), Some(x)) => {
            format!("median {:.1}, p99 {:.1}, max {:.1} ms", ms(m), ms(p), ms(x))
        }
        _ => "none".to_owned(),
    }
}

fn decision_name(d: SprtDecision) -> &'static str {
    match d {
        SprtDecision::H0 => "H0",
        SprtDecision::H1 => "H1",
    }
}

fn progress_line(t: &Tally, status: Option<SprtStatus>) -> String {
    let mut s = format!("+{} ={} -{}", t.wins, t.draws, t.losses);
    if t.pentanomial.pairs() > 0 {
        let e = t.pentanomial.elo();
        s.push_str(&format!(
            ", Elo {} +- {}",
            show_elo(e.diff),
            show_margin(e.margin)
        ));
    }
    if let Some(st) = status {
        s.push_str(&format!(
            ", LLR {:.2} ({:.2}, {:.2})",
            st.llr, st.lower, st.upper
        ));
    }
    s
}

/// A forfeit, as the summary lists it.
struct Forfeit {
    round: usize,
    loser: String,
    tag: &'static str,
    detail: String,
}

/// The most forfeits listed one by one in the summary (all are counted).
const FORFEITS_LISTED: usize = 20;

/// Lists a forfeit for the summary (the first [`FORFEITS_LISTED`]).
fn note_forfeit(forfeits: &Mutex<Vec<Forfeit>>, g: &MatchGame) {
    if let Termination::Forfeit {
        loser, ref detail, ..
    } = g.termination
    {
        let mut list = forfeits.lock().unwrap_or_else(|p| p.into_inner());
        if list.len() < FORFEITS_LISTED {
            list.push(Forfeit {
                round: g.index + 1,
                loser: if loser == Color::White {
                    g.white.clone()
                } else {
                    g.black.clone()
                },
                tag: g.termination.tag(),
                detail: detail.clone(),
            });
        }
    }
}

/// Runs `fanorona match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode> {
    let first: PlayerSpec = args.first.parse()?;
    let second: PlayerSpec = args.second.parse()?;
    let rules = args.rules.rules()?;
    let sprt = parse_sprt(args)?;
    // The output is checked, and its journal made, before anything else is done; with
    // --resume, once the games it holds are read and found to be this match's (until then
    // the file is left alone).
    if let (Some(path), Some(openings)) = (&args.out, &args.openings) {
        crate::output::refuse_same_file(&[&openings.to_string_lossy()], &path.to_string_lossy())?;
    }
    let mut journal = match &args.out {
        Some(path) if !args.resume => Some(OutputFile::journal(path)?),
        _ => None,
    };
    let (opening_list, source) = match &args.openings {
        Some(path) => {
            let list = read_openings(path, rules)?;
            let n = list.len();
            (list, Source::File(path.clone(), n))
        }
        None => {
            let size: BoardSize = args.board.parse().context("in --board")?;
            match openings::builtin(size, rules).filter(|_| !args.no_openings) {
                Some(list) => {
                    let n = list.len();
                    (list, Source::Builtin(n))
                }
                None => (
                    vec![Position::start_with(size, rules).context("in --board")?],
                    Source::Setup,
                ),
            }
        }
    };
    let mut limits = Limits::default();
    limits.movetime = args.movetime.map(Duration::from_millis);
    limits.depth = args.depth;
    limits.nodes = args.nodes;
    let mut timeouts = Timeouts::default();
    timeouts.handshake = Duration::from_millis(args.handshake_timeout);
    timeouts.setup = Duration::from_millis(args.setup_timeout);
    timeouts.quit = Duration::from_millis(args.quit_timeout);
    if let Some(t) = args.turn_timeout {
        timeouts.turn_margin = Duration::from_millis(t);
        timeouts.turn_untimed = Duration::from_millis(t);
    }
    let mut config = MatchConfig::default();
    config.games = usize::try_from(games(args)).context("--games")?;
    config.openings = opening_list;
    // On a clock, engines whose description names no limit play on the clock alone.
    config.limits = (limits != Limits::default() || args.tc.is_some()).then_some(limits);
    config.time_control = args.tc;
    config.time_margin = Duration::from_millis(args.time_margin);
    config.shard = args.shard;
    config.concurrency = usize::from(args.threads.unwrap_or(args.concurrency));
    config.max_turns = args.max_turns as usize;
    config.seed = args.seed;
    config.random_plies = args.random_plies as usize;
    config.timeouts = timeouts;
    config.sprt = sprt;
    config.keep_games = false;
    let settings = resume::Settings::new(&first, &second, &config);
    let mut resumed = if args.merge.is_empty() {
        Vec::new()
    } else {
        merged(&args.merge, &settings, rules, config.games)?
    };
    let mut separator = "";
    if let (Some(path), true) = (&args.out, args.resume) {
        let old = resume::read(path, &settings, rules)?;
        let mut file = OutputFile::journal(path)?;
        if let Some(old) = old {
            // Written back as it was; the new games start after an empty line.
            let bytes = old.bytes;
            if !bytes.is_empty() {
                file.append(&bytes)?;
                separator = if bytes.ends_with(b"\n\n") {
                    ""
                } else if bytes.ends_with(b"\n") {
                    "\n"
                } else {
                    "\n\n"
                };
            }
            resumed = old.games;
        }
        journal = Some(file);
    }
    let out = Mutex::new(journal.map(|file| Out {
        file,
        games: 0,
        settings,
        separator,
    }));
    let forfeits = Mutex::new(Vec::new());
    for g in &resumed {
        note_forfeit(&forfeits, g);
    }
    let resumed_games = resumed.len();
    let bar = progress::bar(games(args), "match");
    bar.inc(resumed_games as u64);
    let result = resume_match(&first, &second, &config, resumed, |g, tally| {
        bar.set_message(progress_line(tally, tally.sprt));
        bar.inc(1);
        note_forfeit(&forfeits, g);
        match out.lock().unwrap_or_else(|p| p.into_inner()).as_mut() {
            Some(o) => o.write(g),
            None => Ok(()),
        }
    });
    bar.finish_and_clear();
    // The games finished are kept whether or not the match ended well.
    let out = out.into_inner().unwrap_or_else(|p| p.into_inner());
    let written = out.as_ref().map(|o| o.games);
    let committed = out.map(|o| o.file.commit()).transpose();
    let result = result.map_err(|e| match (&e, &args.out) {
        (MatchError::Resume { .. }, Some(path)) => anyhow::anyhow!("{}: {e}", shown_path(path)),
        _ => anyhow::Error::new(e),
    })?;
    let forfeits = forfeits.into_inner().unwrap_or_else(|p| p.into_inner());
    let summary = Summary {
        first: &first,
        second: &second,
        result: &result,
        config: &config,
        source: &source,
        command: rerun_command(args, rules),
        forfeits: &forfeits,
        resumed: resumed_games,
        merged: args.merge.len(),
    };
    let mut stdout = crate::output::stdout();
    if args.json {
        let mut v = summary.json();
        v["out"] = json!(args.out.as_ref().map(|p| shown_path(p)));
        v["games_written"] = json!(written);
        v["resumed"] = json!(resumed_games);
        v["merged_files"] = json!(args.merge.len());
        v["shard"] = json!(args.shard.map(|s| s.to_string()));
        writeln!(stdout, "{v}")?;
    } else {
        summary.text(&mut stdout)?;
    }
    committed?;
    if let Stop::Aborted(e) = &result.stop {
        bail!("the match stopped: {e}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The games of the games files of a match's shards (--merge), checked to be this match's,
/// each game once, all `games` of them.
fn merged(
    paths: &[PathBuf],
    settings: &resume::Settings,
    rules: Rules,
    games: usize,
) -> Result<Vec<MatchGame>> {
    let mut all = Vec::new();
    let mut from: std::collections::HashMap<usize, String> = std::collections::HashMap::new();
    for path in paths {
        let name = shown_path(path);
        let Some(read) = resume::read(path, settings, rules)? else {
            bail!("{name}: no such games file to merge");
        };
        for g in read.games {
            if let Some(other) = from.insert(g.index, name.clone()) {
                bail!(
                    "round {} is in {other} and in {name}: a games file given twice, or shards \
                     that overlap (another --shard N, or a file resumed with other shards)",
                    g.index + 1
                );
            }
            all.push(g);
        }
    }
    let missing: Vec<usize> = (0..games).filter(|i| !from.contains_key(i)).collect();
    if let Some(first) = missing.first() {
        let listed: Vec<String> = missing
            .iter()
            .take(10)
            .map(|i| (i + 1).to_string())
            .collect();
        bail!(
            "the files hold {} of the match's {games} games (--games): {} rounds missing \
             (rounds {}{}), from round {}: a shard not given, or not finished (finish it with \
             its --shard K/N --out FILE --resume)",
            games - missing.len(),
            missing.len(),
            listed.join(", "),
            if missing.len() > 10 { ", ..." } else { "" },
            first + 1
        );
    }
    Ok(all)
}

/// What the summary is made of.
struct Summary<'a> {
    first: &'a PlayerSpec,
    second: &'a PlayerSpec,
    result: &'a MatchResult,
    config: &'a MatchConfig,
    source: &'a Source,
    command: String,
    forfeits: &'a [Forfeit],
    /// Games counted from the games file of an earlier run (--resume) or from the files
    /// merged.
    resumed: usize,
    /// Games files merged (--merge).
    merged: usize,
}

impl Summary<'_> {
    fn sprt_status(&self) -> Option<(Sprt, SprtStatus)> {
        let t = &self.result.tally;
        self.config
            .sprt
            .map(|s| (s, t.sprt.unwrap_or_else(|| s.status(&t.pentanomial))))
    }

    fn json(&self) -> serde_json::Value {
        let (result, config) = (self.result, self.config);
        let t = &result.tally;
        let movetime = config.limits.and_then(|l| l.movetime);
        let by_games = t.elo();
        let by_pairs = t.pentanomial.elo();
        let (elo, basis) = if t.pentanomial.pairs() > 0 {
            (by_pairs, "pairs")
        } else {
            (by_games, "games")
        };
        let sprt = self.sprt_status().map(|(s, status)| {
            let (decision, after) = match &result.stop {
                Stop::Sprt {
                    decision, games, ..
                } => (json!(decision_name(*decision)), json!(games)),
                _ => (json!(null), json!(null)),
            };
            json!({
                "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                "llr": status.llr, "lower": status.lower, "upper": status.upper,
                "decision": decision, "decided_after_games": after,
            })
        });
        let stop = match &result.stop {
            Stop::Completed => "completed",
            Stop::Sprt { .. } => "sprt",
            Stop::Aborted(_) => "aborted",
            _ => "other",
        };
        let (source_name, file) = match self.source {
            Source::Builtin(_) => ("builtin", None),
            Source::File(p, _) => ("file", Some(shown_path(p))),
            Source::Setup => ("setup", None),
        };
        let forfeits: Vec<serde_json::Value> = self
            .forfeits
            .iter()
            .map(|f| {
                json!({"round": f.round, "player": f.loser, "termination": f.tag,
                       "detail": f.detail})
            })
            .collect();
        json!({
            "first": self.first.to_string(),
            "second": self.second.to_string(),
            "games": t.games(),
            "wins": t.wins,
            "draws": t.draws,
            "losses": t.losses,
            "score": t.score().map_or(json!(null), |s| json!(s)),
            "elo": finite(elo.diff),
            "elo_margin": finite(elo.margin),
            "elo_basis": basis,
            "elo_games": finite(by_games.diff),
            "elo_games_margin": finite(by_games.margin),
            "pairs": t.pentanomial.pairs(),
            "pentanomial": t.pentanomial.counts,
            "faults": {"first": t.first_faults, "second": t.second_faults},
            "longest_turn_ms": {
                "first": t.first_longest_turn.as_secs_f64() * 1000.0,
                "second": t.second_longest_turn.as_secs_f64() * 1000.0,
            },
            "turn_times_ms": {
                "first": times_json(&t.first_turn_times, movetime),
                "second": times_json(&t.second_turn_times, movetime),
            },
            "search_times_ms": {
                "first": times_json(&t.first_search_times, movetime),
                "second": times_json(&t.second_search_times, movetime),
            },
            "forfeits": forfeits,
            "terminations": t.terminations,
            "repeated_games": t.repeated_games,
            "sprt": sprt,
            "stop": stop,
            "openings": {
                "source": source_name,
                "file": file,
                "positions": config.openings.len(),
                "random_plies": config.random_plies,
                "distinct_starts": result.distinct_starts,
            },
            "max_turns": config.max_turns,
            "time_control": config.time_control.map(|tc| tc.to_string()),
            "time_margin_ms": config.time_control.map(|_| config.time_margin.as_millis() as u64),
            "concurrency": config.concurrency,
            "seed": config.seed,
            "notes": result.notes,
            "command": self.command,
        })
    }

    fn text(&self, w: &mut impl Write) -> Result<()> {
        let (result, config) = (self.result, self.config);
        let t = &result.tally;
        writeln!(
            w,
            "{} vs {}: {} games, +{} ={} -{}, score {:.1}%",
            self.first,
            self.second,
            t.games(),
            t.wins,
            t.draws,
            t.losses,
            t.score().unwrap_or(0.0) * 100.0
        )?;
        if t.pentanomial.pairs() > 0 {
            let e = t.pentanomial.elo();
            writeln!(
                w,
                "  Elo {} +- {} (95%, from {} pairs; pentanomial {})",
                show_elo(e.diff),
                show_margin(e.margin),
                t.pentanomial.pairs(),
                t.pentanomial
            )?;
        }
        let e = t.elo();
        writeln!(
            w,
            "  Elo {} +- {} (95%, games counted one by one)",
            show_elo(e.diff),
            show_margin(e.margin)
        )?;
        let ends: Vec<String> = t
            .terminations
            .iter()
            .map(|(tag, n)| format!("{tag} {n}"))
            .collect();
        writeln!(w, "  game ends: {}", ends.join(", "))?;
        writeln!(
            w,
            "  longest turn: first player {:.0} ms, second player {:.0} ms{}",
            t.first_longest_turn.as_secs_f64() * 1000.0,
            t.second_longest_turn.as_secs_f64() * 1000.0,
            config
                .limits
                .and_then(|l| l.movetime)
                .map_or(String::new(), |m| format!(
                    " (--movetime {})",
                    m.as_millis()
                ))
        )?;
        let movetime = config.limits.and_then(|l| l.movetime);
        for (name, walls, searches) in [
            ("first", &t.first_turn_times, &t.first_search_times),
            ("second", &t.second_turn_times, &t.second_search_times),
        ] {
            if walls.count() == 0 {
                continue;
            }
            let over = |t: &TurnTimes| {
                movetime.map_or(String::new(), |m| {
                    format!(", {} over --movetime", t.over(m))
                })
            };
            let search = if searches.count() > 0 {
                format!(
                    "; the engine's own search times: {}{}",
                    times_text(searches),
                    over(searches)
                )
            } else {
                String::new()
            };
            writeln!(
                w,
                "  turn times, {name} player: {}{}{search}",
                times_text(walls),
                over(walls)
            )?;
        }
        if let Some(tc) = config.time_control {
            writeln!(
                w,
                "  time control: {tc} (seconds + increment; margin {} ms), lost on time: {}",
                config.time_margin.as_millis(),
                t.terminations.get("time forfeit").copied().unwrap_or(0)
            )?;
        }
        if t.first_faults + t.second_faults > 0 {
            writeln!(
                w,
                "  forfeits: first player {}, second player {}",
                t.first_faults, t.second_faults
            )?;
            for f in self.forfeits {
                writeln!(
                    w,
                    "    round {}: {} ({}): {}",
                    f.round, f.loser, f.tag, f.detail
                )?;
            }
        }
        if let Some((s, status)) = self.sprt_status() {
            let verdict = match &result.stop {
                Stop::Sprt {
                    decision, games, ..
                } => format!("{} accepted after {games} games", decision_name(*decision)),
                _ => "no decision".to_owned(),
            };
            writeln!(
                w,
                "  SPRT Elo0 {} Elo1 {} (alpha {}, beta {}): LLR {:.3} (bounds {:.3}, {:.3}): \
                 {verdict}",
                s.elo0, s.elo1, s.alpha, s.beta, status.llr, status.lower, status.upper
            )?;
        }
        if t.repeated_games > 0 {
            writeln!(
                w,
                "  repeated games: {} of {} played exactly as an earlier game (the same start, \
                 colours and turns); the Elo and the SPRT count them as new games: more \
                 openings or --random-plies give distinct ones",
                t.repeated_games,
                t.games()
            )?;
        }
        let random = if config.random_plies > 0 {
            format!(" + {} random turns", config.random_plies)
        } else {
            String::new()
        };
        writeln!(
            w,
            "  openings: {}{random}, {} distinct starts; adjudication at {} turns",
            self.source.describe(),
            result.distinct_starts,
            config.max_turns
        )?;
        if self.merged > 0 {
            writeln!(
                w,
                "  merged: {} games from {} games files",
                self.resumed, self.merged
            )?;
        } else if self.resumed > 0 {
            writeln!(
                w,
                "  resumed: {} games counted from the games file, {} played now",
                self.resumed,
                t.games() - self.resumed
            )?;
        }
        for note in &result.notes {
            writeln!(w, "  note: {note}")?;
        }
        writeln!(w, "rerun: {}", self.command)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_words_read_back() {
        assert_eq!(shell_word("engine:depth=3"), "engine:depth=3");
        assert_eq!(shell_word("uci:./x --uci"), "'uci:./x --uci'");
        assert_eq!(shell_word("it's"), r"'it'\''s'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn comments_hold_no_braces_or_line_breaks() {
        assert_eq!(comment_text("a}b{c\nd"), "a)b(c d");
    }
}
