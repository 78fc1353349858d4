//! `fanorona bench`: the search benchmark, whose node count is the search's signature.

use std::io::Write;
use std::process::ExitCode;

use std::time::Duration;

use anyhow::Result;
use clap::{Args, ValueEnum};
use fanorona_ai::Limits;
use fanorona_ai::bench::{self, BenchEngine};
use serde_json::json;

use crate::options::{EvalArgs, limits, ranged};
use crate::progress;

/// Search fixed positions to a fixed depth; print total nodes and nodes per second.
///
/// The node count changes only when what the search does changes: compare it before and after
/// any change to the search. One thread, a fresh 16 MiB table per position. With --nodes or
/// --movetime instead of a depth, each position is searched within that budget and the depth
/// it completed is printed (how deep an engine gets on the same budget), and the last line gives
/// the median depth and the range (a position with a single legal turn is answered at once, at
/// depth 1); --engine v0 runs the frozen v0.1.0 engine instead of this one. --threads N
/// searches with N threads (Lazy SMP, the default evaluation): time to a fixed depth against
/// one thread shows what the helper threads add; with several threads the nodes and times
/// change from run to run, so compare repeated runs.
///
/// Examples:
///   fanorona bench
///   fanorona bench --depth 6 --json
///   fanorona bench --engine v0 --depth 6
///   fanorona bench --movetime 200
///   fanorona bench --depth 6 --eval-file net.nnue
///   fanorona bench --depth 11 --threads 2
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct BenchArgs {
    /// Search depth in plies (9 when no limit is given).
    #[arg(long, value_parser = ranged::<u32>(1..=limits::SEARCH_DEPTH))]
    pub depth: Option<u32>,
    /// Nodes per position.
    #[arg(long, value_parser = ranged::<u64>(1..=u64::MAX))]
    pub nodes: Option<u64>,
    /// Milliseconds per position.
    #[arg(long, value_name = "MS", value_parser = ranged::<u64>(1..=limits::MOVETIME_MS))]
    pub movetime: Option<u64>,
    /// The engine to run: this one, or the frozen v0.1.0 engine.
    #[arg(long, value_enum, default_value_t = Engine::Current)]
    pub engine: Engine,
    /// Search threads of this engine (Lazy SMP; default 1), with its default evaluation.
    #[arg(long, default_value_t = 1,
          value_parser = ranged::<usize>(1..=fanorona_ai::params::MAX_THREADS as u64))]
    pub threads: usize,
    #[command(flatten)]
    pub eval: EvalArgs,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// The engine a benchmark runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Engine {
    /// This engine.
    Current,
    /// The frozen v0.1.0 engine (the match player `engine:v0`).
    V0,
}

/// Runs `fanorona bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode> {
    let mut out = crate::output::stdout();
    let bar = progress::bar(bench::POSITIONS.len() as u64, "bench");
    let mut limits = Limits::default();
    limits.depth = args.depth;
    limits.nodes = args.nodes;
    limits.movetime = args.movetime.map(Duration::from_millis);
    if limits == Limits::default() {
        limits.depth = Some(9);
    }
    let engine = match args.engine {
        Engine::Current => BenchEngine::Current,
        Engine::V0 => BenchEngine::Baseline,
    };
    let network = args.eval.network()?;
    if network.is_some() && engine == BenchEngine::Baseline {
        anyhow::bail!(
            "--engine v0 has its own evaluation: --eval-file, --nnue and --no-nnue are for this engine"
        );
    }
    if args.threads > 1 && engine == BenchEngine::Baseline {
        anyhow::bail!("--engine v0 searches with one thread: --threads is for this engine");
    }
    if args.threads > 1 && network.is_some() {
        anyhow::bail!(
            "--threads runs this engine with its default evaluation: leave out --eval-file, \
             --nnue and --no-nnue"
        );
    }
    let step = |_: usize, p: &bench::PositionReport| {
        bar.set_message(p.fen.to_owned());
        bar.inc(1);
    };
    let report = match network {
        Some(net) => bench::run_with_network(net, &limits, step),
        None if args.threads > 1 => bench::run_with_threads(args.threads, &limits, step),
        None => bench::run_with(engine, &limits, step),
    };
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
                    "depth": p.depth,
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
                "threads": args.threads,
                "positions": positions,
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    for (i, p) in report.positions.iter().enumerate() {
        writeln!(
            out,
            "{:>2} {:<52} {:<22} {:>10} nodes depth {:>2} {:>6} ms",
            i + 1,
            p.fen,
            p.best.to_string(),
            p.nodes,
            p.depth,
            p.time.as_millis()
        )?;
    }
    writeln!(out, "{}", summary(args, &report))?;
    Ok(ExitCode::SUCCESS)
}

/// The last line: the depth searched, or with a node or time budget the depths reached (a
/// position with a single legal turn is answered at once, at depth 1, so the least depth says
/// little on its own).
fn summary(args: &BenchArgs, report: &bench::Report) -> String {
    let totals = format!(
        "{} nodes {} nps ({} ms)",
        report.nodes,
        report.nps(),
        report.time.as_millis()
    );
    if let Some(depth) = args.depth {
        return format!("depth {depth}: {totals}");
    }
    let mut depths: Vec<u32> = report.positions.iter().map(|p| p.depth).collect();
    depths.sort_unstable();
    let budget = match (args.nodes, args.movetime) {
        (Some(n), Some(ms)) => format!("{n} nodes or {ms} ms a position"),
        (Some(n), None) => format!("{n} nodes a position"),
        (None, Some(ms)) => format!("{ms} ms a position"),
        (None, None) => return format!("depth {}: {totals}", report.depth),
    };
    let (least, most) = (depths.first().copied(), depths.last().copied());
    let median = depths.get(depths.len() / 2).copied();
    format!(
        "{budget}: {totals}; depth reached: median {}, {} to {}",
        median.unwrap_or(0),
        least.unwrap_or(0),
        most.unwrap_or(0)
    )
}
