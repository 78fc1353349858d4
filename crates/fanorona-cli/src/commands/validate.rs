//! `fanorona validate`: replay every game of record files by the rules and report each problem
//! with its place.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use fanorona_core::record::{GameReport, Problem, Reader, Validator};
use serde_json::{Value, json};

use super::records::{Format, GameSource, display_name, open_input, thousands};
use crate::progress;

/// Check game records: replay every game by the rules.
///
/// For each problem, one line: FILE:LINE:COLUMN: game N, turn T (Side): what is wrong, with the
/// legal turns when a turn is illegal. Kinds of problem: the text does not parse, a turn is
/// illegal or ambiguous, a turn number does not fit, the result contradicts the final position
/// or the [Result] tag, a tag has a bad value. Every game is checked, whatever the others hold.
/// The last line sums up. Exit status: 0 when all games are valid, 1 when any is invalid, 2 on
/// usage or I/O errors.
///
/// Examples:
///   fanorona validate games.fgn
///   fanorona validate a.fgn b.fgn --json > report.json
///   cat games.fgn | fanorona validate -
///   fanorona validate archive.sgf          # Boardspace records, by extension
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ValidateArgs {
    /// Record files; `-` reads standard input.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<String>,
    /// Input format (default: from each file's extension, FGN when unknown or `-`).
    #[arg(long, value_name = "FMT")]
    pub from: Option<Format>,
    /// Print the report as one JSON object instead of lines.
    #[arg(long)]
    pub json: bool,
}

/// Counts over all files.
#[derive(Default)]
struct Totals {
    games: u64,
    invalid: u64,
    turns: u64,
    io_errors: u64,
}

/// One problem as a line of the report.
fn problem_line(file: &str, game: usize, p: &Problem) -> String {
    let sep = if p.turn.is_some() { "," } else { ":" };
    format!("{file}:{}:{}: game {game}{sep} {p}", p.at.line, p.at.column)
}

fn problem_json(game: usize, p: &Problem) -> Value {
    json!({
        "game": game,
        "line": p.at.line,
        "column": p.at.column,
        "offset": p.at.offset,
        "kind": p.kind.name(),
        "turn": p.turn.map(|(n, _)| n),
        "side": p.turn.map(|(_, c)| c.name()),
        "text": p.text,
        "message": p.message,
        "legal": p.legal,
    })
}

/// Validates one input; returns its JSON part.
fn validate_file(
    path: &str,
    format: Format,
    json_out: bool,
    totals: &mut Totals,
    out: &mut dyn Write,
) -> Result<Value> {
    let shown = display_name(path);
    let name: &str = &shown;
    let (input, len) = open_input(path)?;
    let bar = len.map_or_else(indicatif::ProgressBar::hidden, |len| {
        progress::bar(len, name)
    });
    let mut problems_json = Vec::new();
    let mut file_games = 0u64;
    let mut file_invalid = 0u64;
    let mut report = |r: &GameReport, totals: &mut Totals, out: &mut dyn Write| -> Result<()> {
        totals.games += 1;
        file_games += 1;
        totals.turns += r.turns as u64;
        if !r.is_valid() {
            totals.invalid += 1;
            file_invalid += 1;
        }
        for p in &r.problems {
            if json_out {
                problems_json.push(problem_json(r.game, p));
            } else {
                let line = problem_line(name, r.game, p);
                writeln!(out, "{}", crate::output::sanitize(&line))?;
            }
        }
        Ok(())
    };
    let mut fatal = None;
    match format {
        Format::Fgn => {
            // The streaming path: tokens go straight to the validator, no records are built.
            let mut reader = Reader::new(input);
            let mut validator = Validator::new();
            loop {
                match reader.read_game(&mut validator) {
                    Ok(Some(r)) => report(&r, totals, out)?,
                    Ok(None) => break,
                    Err(e) if e.is_io() => {
                        fatal = Some(format!(
                            "{name}: {}",
                            crate::output::without_os_error(&e.message())
                        ));
                        break;
                    }
                    Err(e) => report(&GameReport::from_read_error(&e), totals, out)?,
                }
                if reader.games_read() % 256 == 0 {
                    bar.set_position(reader.bytes_read());
                }
            }
        }
        _ => {
            let mut source = GameSource::new(format, input)?;
            let mut index = 0;
            while let Some(item) = source.next() {
                index += 1;
                match item {
                    Ok(record) => report(&record.validate(index), totals, out)?,
                    Err(e) if e.fatal => {
                        fatal = Some(format!(
                            "{name}:{}:{}: {}",
                            e.at.line, e.at.column, e.message
                        ));
                        break;
                    }
                    Err(e) => {
                        let mut r = GameReport::new(e.game, e.at);
                        r.problems.push(Problem::new(
                            fanorona_core::record::ProblemKind::Syntax,
                            e.at,
                            e.message,
                        ));
                        report(&r, totals, out)?;
                    }
                }
                bar.set_position(source.bytes_read());
            }
        }
    }
    bar.finish_and_clear();
    if let Some(msg) = &fatal {
        totals.io_errors += 1;
        if !json_out {
            errln!("error: {msg}");
        }
    }
    Ok(json!({
        "file": name,
        "games": file_games,
        "invalid": file_invalid,
        "error": fatal,
        "problems": problems_json,
    }))
}

/// Runs `fanorona validate`.
pub fn run(args: &ValidateArgs) -> Result<ExitCode> {
    let start = Instant::now();
    let mut totals = Totals::default();
    let mut out = std::io::BufWriter::new(crate::output::stdout());
    let mut files = Vec::new();
    for path in &args.files {
        let format = args
            .from
            .or_else(|| Format::from_path(path))
            .unwrap_or(Format::Fgn);
        match validate_file(path, format, args.json, &mut totals, &mut out) {
            Ok(v) => files.push(v),
            Err(e) => {
                totals.io_errors += 1;
                if !args.json {
                    out.flush()?;
                    errln!("error: {}", crate::output::error_text(&e));
                }
                // The same fields as a file that could be read (docs/cli/validate.md).
                files.push(json!({
                    "file": display_name(path),
                    "games": 0,
                    "invalid": 0,
                    "error": crate::output::error_text(&e),
                    "problems": [],
                }));
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    if args.json {
        let value = json!({
            "files": files,
            "games": totals.games,
            "invalid": totals.invalid,
            "turns": totals.turns,
            "io_errors": totals.io_errors,
            "seconds": secs,
            "valid": totals.invalid == 0 && totals.io_errors == 0,
        });
        writeln!(out, "{value}")?;
    } else {
        writeln!(
            out,
            "checked {} game{} ({} invalid), {} turns, in {:.2} s",
            thousands(totals.games),
            if totals.games == 1 { "" } else { "s" },
            thousands(totals.invalid),
            thousands(totals.turns),
            secs
        )?;
    }
    out.flush()?;
    Ok(if totals.io_errors > 0 {
        ExitCode::from(2)
    } else if totals.invalid > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
