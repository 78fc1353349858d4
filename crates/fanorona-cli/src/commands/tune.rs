//! `fanorona tune`: Texel tuning of the evaluation weights from game records.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use clap::Args;
use fanorona_ai::tune::{self, NAMES, Sample};
use fanorona_core::record::{GameResult, Reader};
use serde_json::json;

use crate::options::{limits, ranged};
use crate::output::shown_path;

/// Fit the evaluation's weights to the results of games (Texel's method): print the fitted
/// weights for params.rs, with the loss before and after.
///
/// Every quiet position (the side to move has no capture) of every finished game in the FGN
/// files is labelled with the game's result for its side to move; the weights are fitted by
/// logistic regression (Newton's method; the scale K fitted to the engine's weights, then held). Games without a
/// result (`*`) or that do not replay by the rules are skipped and counted. The data come from
/// matches, e.g. `fanorona match engine:nodes=4000 engine:v0:nodes=4000 --games 400 --out
/// games.fgn`; several files add up.
///
/// Examples:
///   fanorona tune games.fgn
///   fanorona tune a.fgn b.fgn --ridge 0.001 --json
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct TuneArgs {
    /// FGN files of finished games.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Ridge penalty pulling the weights towards the engine's (per position, in logit units).
    #[arg(long, default_value_t = 0.0)]
    pub ridge: f64,
    /// Weights held at the engine's values (names as printed, comma-separated), e.g.
    /// `STONE,TRADE_WEIGHT`.
    #[arg(long, value_name = "NAMES", value_delimiter = ',')]
    pub fix: Vec<String>,
    /// Newton steps at most.
    #[arg(long, default_value_t = 50, value_parser = ranged::<usize>(1..=limits::TURNS))]
    pub iterations: usize,
    /// Print the result as JSON.
    #[arg(long)]
    pub json: bool,
}

/// Runs `fanorona tune`.
pub fn run(args: &TuneArgs) -> Result<ExitCode> {
    if !(args.ridge.is_finite() && args.ridge >= 0.0) {
        bail!("--ridge must be a number >= 0, not {}", args.ridge);
    }
    let mut fixed = [false; tune::N];
    for name in &args.fix {
        let Some(i) = NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name.trim()))
        else {
            bail!(
                "--fix: no weight {} (known: {})",
                fanorona_core::escape::quoted(&name.chars().take(40).collect::<String>()),
                NAMES.join(", ")
            );
        };
        fixed[i] = true;
    }
    let mut samples: Vec<Sample> = Vec::new();
    let (mut games, mut skipped) = (0u64, 0u64);
    for path in &args.files {
        let file = std::fs::File::open(path)
            .with_context(|| format!("cannot open {}", shown_path(path)))?;
        let mut reader = Reader::new(std::io::BufReader::new(file));
        loop {
            let record = match reader.read_record() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) if e.is_io() => {
                    bail!("{}: {}", shown_path(path), e.message());
                }
                Err(_) => {
                    skipped += 1;
                    continue;
                }
            };
            let white = match record.result {
                Some(GameResult::WhiteWins) => 1.0,
                Some(GameResult::BlackWins) => 0.0,
                Some(GameResult::Draw) => 0.5,
                _ => {
                    skipped += 1;
                    continue;
                }
            };
            let (game, report) = record.replay();
            let Some(game) = game.filter(|_| report.is_valid()) else {
                skipped += 1;
                continue;
            };
            games += 1;
            samples.extend(tune::samples(&game, white));
        }
    }
    if samples.is_empty() {
        bail!("no quiet position in a finished game: nothing to fit");
    }
    let start = tune::current_weights();
    let fit = tune::fit(&samples, &start, &fixed, args.ridge, args.iterations);
    let mut out = crate::output::stdout();
    if args.json {
        let weights: serde_json::Map<String, serde_json::Value> = NAMES
            .iter()
            .zip(fit.weights)
            .map(|(n, w)| ((*n).to_owned(), json!(w)))
            .collect();
        writeln!(
            out,
            "{}",
            json!({
                "games": games,
                "skipped": skipped,
                "positions": samples.len(),
                "k": fit.k,
                "loss_before": fit.start_loss,
                "loss_after": fit.loss,
                "weights": weights,
            })
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{games} games ({skipped} skipped), {} quiet positions",
        samples.len()
    )?;
    writeln!(
        out,
        "loss {:.5} -> {:.5} (cross-entropy per position), K {:.6}",
        fit.start_loss, fit.loss, fit.k
    )?;
    writeln!(out, "{:<20} {:>10} {:>10}", "weight", "engine", "fitted")?;
    for ((name, now), new) in NAMES.iter().zip(start).zip(fit.weights) {
        writeln!(out, "{name:<20} {now:>10.1} {new:>10.1}")?;
    }
    Ok(ExitCode::SUCCESS)
}
