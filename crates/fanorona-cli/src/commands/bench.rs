//! `fanorona bench`: the search benchmark, whose node count is the search's signature.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use clap::Args;
use fanorona_ai::bench;
use serde_json::json;

use crate::options::{limits, ranged};
use crate::progress;

/// Search fixed positions to a fixed depth; print total nodes and nodes per second.
///
/// The node count changes only when what the search does changes: compare it before and after
/// any change to the search. One thread, a fresh 16 MiB table per position.
///
/// Examples:
///   fanorona bench
///   fanorona bench --depth 6 --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BenchArgs {
    /// Search depth in plies.
    #[arg(long, default_value_t = 9, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: u32,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fanorona bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    let bar = progress::bar(bench::POSITIONS.len() as u64, "bench");
    let report = bench::run(args.depth.max(1), |_, p| {
        bar.set_message(p.fen.to_owned());
        bar.inc(1);
    });
    bar.finish_and_clear();
    if args.json {
        let positions: Vec<_> = report
            .positions
            .iter()
            .map(|p| {
                json!({
                    "position": p.fen,
                    "best": p.best.to_string(),
                    "nodes": p.nodes,
                    "ms": p.time.as_millis() as u64,
                })
            })
            .collect();
        writeln!(
            out,
            "{}",
            json!({
                "depth": report.depth,
                "nodes": report.nodes,
                "nps": report.nps(),
                "ms": report.time.as_millis() as u64,
                "positions": positions,
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, p) in report.positions.iter().enumerate() {
        writeln!(
            out,
            "{:>2} {:<52} {:<22} {:>10} nodes {:>6} ms",
            i + 1,
            p.fen,
            p.best.to_string(),
            p.nodes,
            p.time.as_millis()
        )?;
    }
    writeln!(
        out,
        "depth {}: {} nodes {} nps ({} ms)",
        report.depth,
        report.nodes,
        report.nps(),
        report.time.as_millis()
    )?;
    Ok(ExitCode::SUCCESS)
}
