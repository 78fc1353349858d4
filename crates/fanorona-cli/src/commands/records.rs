//! Shared by `validate`, `convert` and `show`: record formats, opening inputs and outputs,
//! and reading games of any format one at a time.

use std::borrow::Cow;
use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::Path;

use anyhow::{Context, Result, bail};
use clap::ValueEnum;
use fanorona_core::record::boardspace::BoardspaceReader;
use fanorona_core::record::{GameRecord, Location, Reader, check_date};

use super::records_json::JsonGames;

/// A game-record format.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Format {
    /// FGN, Fanorona Game Notation (`.fgn`).
    Fgn,
    /// The JSON form of FGN records (`.json`): an array of game objects.
    Json,
    /// JSON Lines (`.jsonl`): one game object a line.
    Jsonl,
    /// Boardspace.net's SGF-like records (`.sgf`), import only.
    Boardspace,
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Fgn => "fgn",
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Boardspace => "boardspace",
        })
    }
}

impl Format {
    /// The format a file name's extension implies.
    pub fn from_path(path: &str) -> Option<Format> {
        let ext = Path::new(path).extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "fgn" | "pgn" => Some(Format::Fgn),
            "json" => Some(Format::Json),
            "jsonl" | "ndjson" => Some(Format::Jsonl),
            "sgf" => Some(Format::Boardspace),
            _ => None,
        }
    }

    /// The format given, else the one of the path's extension.
    pub fn choose(given: Option<Format>, path: &str, what: &str) -> Result<Format> {
        if let Some(f) = given {
            return Ok(f);
        }
        if path == "-" {
            bail!(
                "the {what} is standard input/output: say its format with --{what_flag}",
                what_flag = if what == "input" { "from" } else { "to" }
            );
        }
        match Format::from_path(path) {
            Some(f) => Ok(f),
            None => bail!(
                "cannot tell the format of {path} from its extension (.fgn, .json, .jsonl, .sgf): use --{}",
                if what == "input" { "from" } else { "to" },
                path = fanorona_core::escape::quoted(&path)
            ),
        }
    }
}

/// The name a path is reported under: `<stdin>` for `-`, control characters escaped.
pub fn display_name(path: &str) -> Cow<'_, str> {
    crate::output::shown(path)
}

/// An input file (or standard input for `-`) and its size when known.
pub fn open_input(path: &str) -> Result<(Box<dyn Read>, Option<u64>)> {
    if path == "-" {
        return Ok((Box::new(io::stdin().lock()), None));
    }
    let file =
        File::open(path).with_context(|| format!("cannot open \"{}\"", display_name(path)))?;
    let len = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(BufReader::with_capacity(1 << 16, file)), len))
}

/// An output file (or standard output for `-` or none), written whole or not at all: call
/// [`Output::finish`](crate::output::Output::finish) on success.
pub fn open_output(path: Option<&str>) -> Result<crate::output::Output> {
    crate::output::Output::open(path)
}

/// A game that could not be read, with its place.
#[derive(Debug)]
pub struct GameError {
    /// The game, counted from 1.
    pub game: usize,
    /// Where.
    pub at: Location,
    /// What is wrong.
    pub message: String,
    /// Whether reading cannot go on (an I/O error).
    pub fatal: bool,
}

impl GameError {
    /// An error of a reader: an I/O error (`fatal`) is in the game being read (from 1, also
    /// before the first game) and its message has no `(os error N)`.
    fn new(game: usize, at: Location, message: String, fatal: bool) -> GameError {
        if fatal {
            GameError {
                game: game.max(1),
                at,
                message: crate::output::without_os_error(&message),
                fatal,
            }
        } else {
            GameError {
                game,
                at,
                message,
                fatal,
            }
        }
    }
}

/// Reads games of any format one at a time.
pub enum GameSource {
    /// FGN, streamed.
    Fgn(Reader<Box<dyn Read>>),
    /// JSON (an array or JSON Lines), streamed game by game.
    Json(JsonGames<Box<dyn Read>>),
    /// Boardspace, streamed.
    Boardspace(BoardspaceReader<Box<dyn Read>>),
}

impl GameSource {
    /// A source of `format` over `input`.
    pub fn new(format: Format, input: Box<dyn Read>) -> Result<GameSource> {
        Ok(match format {
            Format::Fgn => GameSource::Fgn(Reader::new(input)),
            Format::Boardspace => GameSource::Boardspace(BoardspaceReader::new(input)),
            Format::Json => GameSource::Json(JsonGames::array(input)),
            Format::Jsonl => GameSource::Json(JsonGames::lines(input)),
        })
    }

    /// Bytes of input consumed so far.
    pub fn bytes_read(&self) -> u64 {
        match self {
            GameSource::Fgn(r) => r.bytes_read(),
            GameSource::Boardspace(r) => r.bytes_read(),
            GameSource::Json(r) => r.bytes_read(),
        }
    }
}

impl Iterator for GameSource {
    type Item = Result<GameRecord, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self {
            GameSource::Fgn(r) => r
                .read_record()
                .transpose()
                .map(|res| res.map_err(|e| GameError::new(e.game, e.at, e.message(), e.is_io()))),
            GameSource::Boardspace(r) => r.next().map(|res| {
                res.map_err(|e| {
                    let io = matches!(
                        e.kind,
                        fanorona_core::record::boardspace::ImportErrorKind::Io(_)
                    );
                    GameError::new(e.game, e.at, e.message(), io)
                })
            }),
            GameSource::Json(r) => r.next(),
        }
    }
}

/// Checks that a record read from one format can be written to another exactly: its turn
/// numbers are the ones the writers give (they are not stored in JSON and FGN writers number
/// the turns themselves), and its `[Date]` is a possible date. Returns where and what.
pub fn check_exact(record: &GameRecord) -> Result<(), (Location, String)> {
    record
        .check_turn_numbers()
        .map_err(|p| (p.at, p.to_string()))?;
    let src = record.source.as_ref();
    for (i, tag) in record.tags.iter().enumerate() {
        if tag.name == "Date"
            && let Err(e) = check_date(&tag.value)
        {
            let at = src
                .and_then(|s| s.tags.get(i).copied().or(Some(s.start)))
                .unwrap_or_default();
            return Err((
                at,
                format!(
                    "bad tag [Date {}]: {}",
                    fanorona_core::escape::quoted(&tag.value),
                    e.reason
                ),
            ));
        }
    }
    Ok(())
}

/// Groups digits by thousands: `5230` as `5,230`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(5230), "5,230");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn formats_from_extensions() {
        assert_eq!(Format::from_path("a/b.FGN"), Some(Format::Fgn));
        assert_eq!(Format::from_path("x.json"), Some(Format::Json));
        assert_eq!(Format::from_path("x.sgf"), Some(Format::Boardspace));
        assert_eq!(Format::from_path("x.txt"), None);
        assert!(Format::choose(None, "-", "input").is_err());
        assert_eq!(
            Format::choose(Some(Format::Json), "-", "input").unwrap(),
            Format::Json
        );
    }
}
