//! Option groups shared by several commands: the position to start from and the rule options.

use anyhow::{Context, Result};
use clap::Args;
use fanorona_core::{BoardSize, Position, Rules};

/// Where a command starts: a position string, or the start of a board size.
#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// Start from this position string (ranks from the top, `/` between ranks, then `w` or `b`).
    #[arg(long, value_name = "POSITION", conflicts_with = "board")]
    pub fen: Option<String>,
    /// Start from the setup of this board size, rows x columns (5x9 is the standard game).
    #[arg(long, value_name = "RxC", default_value = "5x9")]
    pub board: String,
    #[command(flatten)]
    pub rules: RuleArgs,
}

/// The rule options, each with its stable name.
#[derive(Args, Debug, Clone, Default)]
pub struct RuleArgs {
    /// Rule options as one list, e.g. `stuck=draws,repetition=off` (see docs/rules.md).
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
}

impl RuleArgs {
    /// The rules these options describe, starting from the standard game.
    pub fn rules(&self) -> Result<Rules> {
        let mut rules: Rules = match &self.rules {
            Some(list) => list.parse().context("in --rules")?,
            None => Rules::STANDARD,
        };
        if self.opening_restriction {
            rules.opening_restriction = true;
        }
        if self.compulsory_continuation {
            rules.compulsory_continuation = true;
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
        Ok(rules)
    }
}

impl PositionArgs {
    /// The starting position these options describe.
    pub fn position(&self) -> Result<Position> {
        let rules = self.rules.rules()?;
        match &self.fen {
            Some(fen) => Position::from_fen_with(fen, rules)
                .with_context(|| format!("in --fen {:?}", crate::output::sanitize(fen))),
            None => {
                let size: BoardSize = self.board.parse().context("in --board")?;
                Ok(Position::start_with(size, rules))
            }
        }
    }
}
