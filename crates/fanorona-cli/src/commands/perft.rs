//! `fanorona perft` and `fanorona divide`: count turn sequences to check the rules.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Result, bail};
use clap::Args;
use fanorona_core::{Position, Turn, perft};
use serde_json::json;

use crate::options::{PositionArgs, limits, ranged};
use crate::progress;

/// Count the sequences of DEPTH legal turns from a position.
///
/// Each chain stopping point and each approach/withdrawal choice is a turn of its own. The last
/// line of the output is the total alone; timing goes to standard error.
///
/// Examples:
///   fanorona perft 3                      # 724 from the standard start
///   fanorona perft 4 --board 5x5
///   fanorona perft 2 --fen "BBB/B1W/WWW w"
///   fanorona perft 5 --unique             # count turns to the same position once
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct PerftArgs {
    /// Number of turns (plies).
    #[arg(value_parser = ranged::<u32>(0..=limits::PERFT_DEPTH))]
    pub depth: u32,
    #[command(flatten)]
    pub position: PositionArgs,
    /// At each node, count the turns that lead to the same position only once.
    #[arg(long)]
    pub unique: bool,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Perft for each legal turn: the count below each turn, then the total.
///
/// Examples:
///   fanorona divide 3
///   fanorona divide 2 --fen "BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w"
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct DivideArgs {
    #[command(flatten)]
    pub perft: PerftArgs,
}

fn counts(pos: &Position, depth: u32, unique: bool) -> Vec<(Turn, u64)> {
    let children: Vec<(Turn, Position)> = if unique {
        perft::unique_children(pos)
    } else {
        pos.legal_turns()
            .into_iter()
            .map(|t| (t, pos.play_unchecked(&t)))
            .collect()
    };
    let bar = progress::bar(children.len() as u64, "perft");
    let out = children
        .into_iter()
        .map(|(turn, next)| {
            bar.set_message(turn.to_string());
            let n = if unique {
                perft::perft_unique(&next, depth - 1)
            } else {
                perft::perft(&next, depth - 1)
            };
            bar.inc(1);
            (turn, n)
        })
        .collect();
    bar.finish_and_clear();
    out
}

fn run(args: &PerftArgs, divide: bool) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    if args.depth == 0 && divide {
        bail!("divide needs a depth of at least 1");
    }
    let pos = args.position.position()?;
    let start = Instant::now();
    let (per_turn, total) = if args.depth == 0 {
        (Vec::new(), 1)
    } else {
        let c = counts(&pos, args.depth, args.unique);
        let total = c.iter().map(|(_, n)| n).sum();
        (c, total)
    };
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let mut value = json!({
            "position": pos.to_fen(),
            "depth": args.depth,
            "unique": args.unique,
            "total": total,
            "seconds": secs,
        });
        if divide {
            value["turns"] = per_turn
                .iter()
                .map(|(t, n)| json!({"turn": t.to_string(), "count": n}))
                .collect();
        }
        writeln!(out, "{value}")?;
        return Ok(ExitCode::SUCCESS);
    }
    if divide {
        for (t, n) in &per_turn {
            writeln!(out, "{t}: {n}")?;
        }
        writeln!(out)?;
    }
    errln!(
        "perft {} of {}: {} in {:.3} s ({:.1} million/s)",
        args.depth,
        pos.to_fen(),
        total,
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    writeln!(out, "{total}")?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `fanorona perft`.
pub fn run_perft(args: &PerftArgs) -> Result<ExitCode> {
    run(args, false)
}

/// Runs `fanorona divide`.
pub fn run_divide(args: &DivideArgs) -> Result<ExitCode> {
    run(&args.perft, true)
}
