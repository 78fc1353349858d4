//! Option groups shared by several commands: the position to start from, the rule options and
//! the evaluation.

use std::ops::RangeInclusive;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use clap::Args;
use clap::builder::RangedU64ValueParser;
use fanorona_ai::nnue::Network;
use fanorona_core::{BoardSize, GameKind, Position, Rules};

/// Where a command starts: a position string, or the start of a board size.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Start from this position string (ranks from the top, `/` between ranks, then `w` or `b`,
    /// then `vela` or `telo` for those games).
    #[arg(long, value_name = "POSITION", conflicts_with = "board")]
    pub fen: Option<String>,
    /// Start from the setup of this board size, rows x columns (default 5x9 for the capture
    /// game and Vela; 3x3, the only board, for `--rules game=telo`).
    #[arg(long, value_name = "RxC")]
    pub board: Option<String>,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The rule options, each with its stable name.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// Rule options as one list, e.g. `stuck=draws,repetition=off`, and the game: `game=capture`
    /// (Fanoron-Tsivy and the other boards' capture game, the default), `game=vela` or
    /// `game=telo`; for Vela, `vela=montgomery` (default) or `vela=bell` (see docs/rules.md).
    #[arg(long, value_name = "LIST")]
    pub rules: Option<String>,
    /// Each player's first turn is a single capture step.
    #[arg(long)]
    pub opening_restriction: bool,
    /// A stone that can continue capturing must continue.
    #[arg(long)]
    pub compulsory_continuation: bool,
    /// A player with stones but no legal turn: `loses` (default) or `draws`.
    #[arg(long, value_name = "loses|draws")]
    pub stuck: Option<String>,
    /// Draw on this occurrence of a position (default 3), or `off`.
    #[arg(long, value_name = "N|off")]
    pub repetition: Option<String>,
    /// Draw after this many turns without a capture (default 100), or `off`.
    #[arg(long, value_name = "N|off")]
    pub no_capture_limit: Option<String>,
    /// Whose Vela `game=vela` plays: `montgomery` (default: the previous winner opens as
    /// White) or `bell` (the other side opens and must take one stone a turn).
    #[arg(long, value_name = "montgomery|bell")]
    pub vela: Option<String>,
}

impl RuleArgs {
    /// The rules these options describe, starting from the standard game.
    pub fn rules(&self) -> Result<Rules> {
        self.check_conflicts()?;
        let mut rules: Rules = match &self.rules {
            Some(list) => list.parse().context("in --rules")?,
            None => Rules::STANDARD,
        };
        if self.opening_restriction {
            rules = rules.with_opening_restriction(true);
        }
        if self.compulsory_continuation {
            rules = rules.with_compulsory_continuation(true);
        }
        if let Some(v) = &self.stuck {
            rules.set("stuck", v)?;
        }
        if let Some(v) = &self.repetition {
            rules.set("repetition", v)?;
        }
        if let Some(v) = &self.no_capture_limit {
            rules.set("no-capture-limit", v)?;
        }
        if let Some(v) = &self.vela {
            rules.set("vela", v)?;
        }
        Ok(rules)
    }
}

impl RuleArgs {
    /// Refuses a rule given twice, in --rules and by its own option, or twice in --rules.
    fn check_conflicts(&self) -> Result<()> {
        let mut listed: Vec<&str> = Vec::new();
        for item in self.rules.iter().flat_map(|l| l.split([',', ' '])) {
            let name = item.split_once('=').map_or(item, |(n, _)| n).trim();
            if name.is_empty() || name == "standard" {
                continue;
            }
            if listed.contains(&name) {
                bail!("--rules names {name} twice: give each rule once");
            }
            listed.push(name);
        }
        let own = [
            (self.opening_restriction, "opening-restriction"),
            (self.compulsory_continuation, "compulsory-continuation"),
            (self.stuck.is_some(), "stuck"),
            (self.repetition.is_some(), "repetition"),
            (self.no_capture_limit.is_some(), "no-capture-limit"),
            (self.vela.is_some(), "vela"),
        ];
        for (given, name) in own {
            if given && listed.contains(&name) {
                bail!("--{name} and --rules both set {name}: give it once");
            }
        }
        Ok(())
    }
}

impl PositionArgs {
    /// The starting position these options describe.
    pub fn position(&self) -> Result<Position> {
        let rules = self.rules.rules()?;
        match &self.fen {
            Some(fen) => Position::from_fen_with(fen, rules)
                .with_context(|| format!("in --fen {}", fanorona_core::escape::quoted(fen))),
            None => start_position(self.board.as_deref(), rules),
        }
    }
}

/// The start of the board `board` (rows x columns; by default 5x9, or 3x3 for Fanoron-Telo)
/// under `rules`, or why there is none (Fanoron-Telo on another board than 3x3).
pub fn start_position(board: Option<&str>, rules: Rules) -> Result<Position> {
    let size = match board {
        Some(b) => b.parse().context("in --board")?,
        None if rules.game() == GameKind::Telo => BoardSize::TELO,
        None => BoardSize::STANDARD,
    };
    Position::start_with(size, rules).context("in --board")
}

/// The ranges of the numeric options, checked by the argument parser with a message. The
/// limits keep every value usable: a time that fits a clock, a size that fits memory.
pub mod limits {
    /// Most plies of `perft` and `divide`.
    pub const PERFT_DEPTH: u64 = 64;
    /// Most plies of a search depth.
    pub const SEARCH_DEPTH: u64 = 100;
    /// Most milliseconds per search (about 11.6 days).
    pub const MOVETIME_MS: u64 = 1_000_000_000;
    /// Most seconds of a time budget (about 31.7 years).
    pub const SECONDS: f64 = 1e9;
    /// Largest transposition table, in MiB (the engine's own limit).
    pub const HASH_MB: u64 = fanorona_ai::MAX_HASH_MB as u64;
    /// Most games of a match.
    pub const GAMES: u64 = 10_000_000;
    /// Most games played at once.
    pub const THREADS: u64 = 1024;
    /// Most turns of a game, of a line or of random turns.
    pub const TURNS: u64 = 100_000;
    /// Largest game number in a record file.
    pub const GAME_NUMBER: u64 = u32::MAX as u64;
}

/// A parser of whole numbers in `range`, into `T`.
pub fn ranged<T>(range: RangeInclusive<u64>) -> RangedU64ValueParser<T>
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
    <T as TryFrom<u64>>::Error: std::error::Error + Send + Sync + 'static,
{
    RangedU64ValueParser::new().range(range)
}

/// A number of seconds: positive, finite, at most [`limits::SECONDS`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text.trim().parse().map_err(|_| {
        format!(
            "{text} is not a number of seconds",
            text = fanorona_core::escape::quoted(&text)
        )
    })?;
    if !(s > 0.0 && s <= limits::SECONDS) {
        return Err(format!(
            "{text} is not in 0 < SECONDS <= {:e}",
            limits::SECONDS
        ));
    }
    Ok(s)
}

/// The evaluation a search uses: `--eval-file`, `--nnue`, `--no-nnue`.
#[derive(Args, Debug, Clone)]
pub struct EvalArgs {
    /// Evaluate the positions of its board and game with the NNUE network in FILE
    /// (docs/nnue.md); the others as without it.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["nnue", "no_nnue"])]
    pub eval_file: Option<String>,
    /// Evaluate the standard board with the network built into the engine.
    #[arg(long, conflicts_with = "no_nnue")]
    pub nnue: bool,
    /// Evaluate with the hand evaluation everywhere.
    #[arg(long)]
    pub no_nnue: bool,
}

impl EvalArgs {
    /// The evaluation asked for: `None` when no option is given (the engine's default), else
    /// the network (`Some(None)`: the hand evaluation).
    pub fn network(&self) -> Result<Option<Option<Arc<Network>>>> {
        Ok(if let Some(path) = &self.eval_file {
            let net =
                Network::load(path).with_context(|| format!("cannot load the network {path}"))?;
            Some(Some(Arc::new(net)))
        } else if self.nnue {
            Some(Some(Network::embedded()))
        } else if self.no_nnue {
            Some(None)
        } else {
            None
        })
    }
}
