//! `fanorona convert`: between FGN, JSON, JSON Lines and (import only) Boardspace records.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{Result, bail};
use clap::Args;
use fanorona_core::record::{FgnWriter, GameRecord, WriteError};

use super::records::{
    Format, GameSource, check_exact, display_name, open_input, open_output, thousands,
};
use super::records_json::JsonSink;
use crate::progress;

/// Convert game records between FGN, JSON, JSON Lines and Boardspace (import only).
///
/// Formats come from the file extensions (.fgn, .json, .jsonl, .sgf) unless --from/--to say
/// otherwise; `-` or no OUTPUT means standard input/output, whose format --from/--to must then
/// give. Every format is read game by game, in memory bounded by the largest game.
/// Nothing is dropped, changed or invented: a game that cannot be converted exactly (a turn
/// number that does not fit, an impossible Date tag, an unknown JSON field, a text past a limit
/// of the formats) is reported with its place (FILE:LINE:COLUMN: game N: ...), the other
/// games are still converted, and the exit status is 1. Boardspace games are replayed by the
/// rules on import.
///
/// Examples:
///   fanorona convert games.fgn games.json
///   fanorona convert games.json games.fgn
///   fanorona convert games.fgn games.jsonl            # JSON Lines: one game a line
///   fanorona convert archive.sgf archive.fgn          # import from Boardspace.net
///   fanorona convert --to json games.fgn > games.json
///   cat games.fgn | fanorona convert --from fgn --to fgn -   # canonical FGN
#[derive(Args, Debug)]
#[command(verbatim_doc_comment)]
pub struct ConvertArgs {
    /// Input file, or `-` for standard input.
    #[arg(value_name = "INPUT")]
    pub input: String,
    /// Output file; `-` or none writes standard output.
    #[arg(value_name = "OUTPUT")]
    pub output: Option<String>,
    /// Input format (default: from INPUT's extension).
    #[arg(long, value_name = "FMT")]
    pub from: Option<Format>,
    /// Output format (default: from OUTPUT's extension).
    #[arg(long, value_name = "FMT")]
    pub to: Option<Format>,
}

/// Writes records in one format.
enum Sink<'a> {
    Fgn(FgnWriter<&'a mut dyn Write>),
    Json(JsonSink<&'a mut dyn Write>),
}

impl Sink<'_> {
    /// Writes one game. `Err(Ok(message))`: the game cannot be converted (nothing written);
    /// `Err(Err(message))`: the output failed.
    fn write(&mut self, record: &GameRecord) -> Result<(), Result<String, String>> {
        match self {
            Sink::Fgn(w) => w.write(record).map_err(|e| match e {
                WriteError::Io(e) => Err(crate::output::io_text(&e)),
                e => Ok(e.to_string()),
            }),
            Sink::Json(w) => w
                .write(record)
                .map_err(|e| e.map_err(|e| crate::output::io_text(&e))),
        }
    }

    /// Finishes the output; the error as words.
    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Fgn(w) => w.finish().map(drop).map_err(|e| match e {
                WriteError::Io(e) => crate::output::io_text(&e),
                e => e.to_string(),
            }),
            Sink::Json(w) => w.finish().map(drop).map_err(|e| crate::output::io_text(&e)),
        }
    }
}

/// Runs `fanorona convert`.
pub fn run(args: &ConvertArgs) -> Result<ExitCode> {
    let from = Format::choose(args.from, &args.input, "input")?;
    let out_path = args.output.as_deref().unwrap_or("-");
    let to = Format::choose(args.to, out_path, "output")?;
    if to == Format::Boardspace {
        bail!("Boardspace is an import format: convert to fgn or json");
    }
    let name = display_name(&args.input);
    crate::output::refuse_same_file(&[&args.input], out_path)?;
    // The output as messages name it.
    let out_name = match out_path {
        "-" => "standard output".to_owned(),
        p => crate::output::shown(p).into_owned(),
    };
    let (input, len) = open_input(&args.input)?;
    let mut source = GameSource::new(from, input)?;
    let mut output = open_output(args.output.as_deref())?;
    let mut sink = match to {
        Format::Fgn => Sink::Fgn(FgnWriter::new(&mut output)),
        Format::Jsonl => Sink::Json(JsonSink::lines(&mut output)),
        _ => Sink::Json(JsonSink::array(&mut output)),
    };
    let bar = len.map_or_else(indicatif::ProgressBar::hidden, |len| {
        progress::bar(len, "convert")
    });
    let (mut converted, mut failed) = (0u64, 0u64);
    let mut index = 0usize;
    let mut fatal = false;
    while let Some(item) = source.next() {
        index += 1;
        match item {
            Ok(record) => {
                let game = record.source.as_ref().map_or(index, |s| s.game);
                let start = record.source.as_ref().map(|s| s.start).unwrap_or_default();
                let written = match check_exact(&record) {
                    Ok(()) => sink.write(&record).map_err(|e| e.map(|msg| (start, msg))),
                    Err(place) => Err(Ok(place)),
                };
                match written {
                    Ok(()) => converted += 1,
                    Err(Err(msg)) => {
                        bar.finish_and_clear();
                        bail!("cannot write {out_name}: {msg}")
                    }
                    Err(Ok((at, msg))) => {
                        failed += 1;
                        bar.suspend(|| {
                            errln!(
                                "{name}:{}:{}: game {game}: cannot convert: {msg}",
                                at.line,
                                at.column
                            );
                        });
                    }
                }
            }
            Err(e) => {
                failed += 1;
                bar.suspend(|| {
                    errln!(
                        "{name}:{}:{}: game {}: {}",
                        e.at.line,
                        e.at.column,
                        e.game,
                        e.message
                    );
                });
                if e.fatal {
                    fatal = true;
                    break;
                }
            }
        }
        bar.set_position(source.bytes_read());
    }
    bar.finish_and_clear();
    if fatal {
        // The input could not be read to its end: the destination stays as it was.
        drop(output);
        errln!(
            "converted {} game(s) before the error; {} left as it was",
            thousands(converted),
            display_name(out_path)
        );
        return Ok(ExitCode::from(2));
    }
    sink.finish()
        .map_err(|e| anyhow::anyhow!("cannot write {out_name}: {e}"))?;
    output.finish()?;
    if failed > 0 {
        errln!(
            "converted {} game(s) from {from} to {to}; {} game(s) NOT converted (see above)",
            thousands(converted),
            thousands(failed)
        );
    } else {
        errln!(
            "converted {} game(s) from {from} to {to}",
            thousands(converted)
        );
    }
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
