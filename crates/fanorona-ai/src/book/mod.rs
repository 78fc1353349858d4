//! Opening books: for each position of the opening, the turns played there with their
//! practical results (wins, draws and losses in games) and the engine's score; the books
//! embedded in the engine for 5x9 and 5x5 ([`shipped`]); a reproducible choice of a book turn
//! for play ([`Book::pick`]); and their building from the engine's search and self-play
//! ([`build`]).
//!
//! The file format (text, versioned, one record a line) is specified in
//! [`docs/book.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/book.md).
//!
//! A book never makes the engine play an illegal turn: every turn is checked against the
//! position's legal turns (from `fanorona-core`) when the book is read, and again for the
//! position asked about by [`Book::entries`] (whose counters and rules may differ from the
//! book's), so that a turn that is not legal there is left out.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::book::{self, Book};
//! use fanorona_core::{BoardSize, Position, Rules};
//!
//! let text = "fanorona-book 1\nboard 5x9\nrules standard\n\
//!             position BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\n\
//!             turn d2-e3A 3 1 2 -12 8 20000\n\
//!             turn f2-e3A 1 0 0 - 0 0\n";
//! let book = Book::parse(text)?;
//! let start = Position::standard();
//! let entries = book.entries(&start);
//! assert_eq!(entries.len(), 2);
//! assert_eq!(entries[0].turn, start.parse_turn("d2-e3A")?);
//! assert_eq!((entries[0].wins, entries[0].draws, entries[0].losses), (3, 1, 2));
//! assert_eq!(entries[0].score, Some(fanorona_ai::Score::Cp(-12)));
//! // A reproducible choice: the same seed, the same turn; always a legal one.
//! let turn = book.pick(&start, 7).expect("the start is in the book");
//! assert_eq!(book.pick(&start, 7), Some(turn));
//! assert!(start.is_legal(&turn));
//!
//! // The shipped books.
//! let shipped = book::shipped(BoardSize::STANDARD, Rules::STANDARD).expect("a 5x9 book");
//! assert!(!shipped.entries(&start).is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod build;

use core::fmt;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use fanorona_core::{BoardSize, Position, Rules, Turn};

use crate::Score;
use crate::params::{WIN, WIN_BOUND};
use crate::rng::{Rng, mix};

/// The first line of a book file, before its version number.
pub const MAGIC: &str = "fanorona-book";
/// The version of the format this crate writes and reads.
pub const VERSION: u32 = 1;
/// The longest line of a book file, in bytes.
pub const MAX_LINE: usize = 1024;
/// The largest book file [`Book::load`] reads, in bytes.
pub const MAX_FILE: u64 = 64 << 20;

/// The shipped book for 5x9 under the standard rules (`book/5x9.book` in this crate, made by
/// `fanorona book build`).
pub const SHIPPED_5X9: &str = include_str!("../../book/5x9.book");
/// The shipped book for 5x5 (Fanoron-Dimy) under the standard rules (`book/5x5.book`).
pub const SHIPPED_5X5: &str = include_str!("../../book/5x5.book");

/// One turn of a book position, with what is known of it.
///
/// Results are from the point of view of the side that plays the turn (the side to move in the
/// book's position): `wins` counts the games it went on to win after this turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct BookEntry {
    /// The turn, legal in the position.
    pub turn: Turn,
    /// Games won by the side that played the turn.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost by the side that played the turn.
    pub losses: u32,
    /// The engine's score of the turn (the position's side to move's view: centi-stones or a
    /// forced win), from a search of the position restricted to this turn; `None` when the
    /// turn was not searched (it comes from games only).
    pub score: Option<Score>,
    /// The depth of that search (0 when not searched).
    pub depth: u32,
    /// The nodes of that search (0 when not searched).
    pub nodes: u64,
}

impl BookEntry {
    /// An entry for `turn` with no games and no score.
    pub fn new(turn: Turn) -> BookEntry {
        BookEntry {
            turn,
            wins: 0,
            draws: 0,
            losses: 0,
            score: None,
            depth: 0,
            nodes: 0,
        }
    }

    /// The games the turn was played in.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// The practical score, from 0 (all lost) to 1 (all won), draws counting one half;
    /// `None` without games.
    pub fn practical(&self) -> Option<f64> {
        let games = self.games();
        (games > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / games as f64)
    }
}

/// Orders scores: a forced win above every centi-stone score (a quicker one higher), a forced
/// loss below (a slower one higher).
pub(crate) fn score_key(score: Score) -> i64 {
    match score {
        Score::Cp(cp) => i64::from(cp),
        Score::Win(n) if n > 0 => i64::from(WIN) - i64::from(n),
        Score::Win(n) => -i64::from(WIN) - i64::from(n),
    }
}

/// The text of a score in a book file: centi-stones as a number, a forced win as `winN` (N
/// negative for a loss), `-` for none.
fn score_text(score: Option<Score>) -> String {
    match score {
        None => "-".to_owned(),
        Some(Score::Cp(cp)) => cp.to_string(),
        Some(Score::Win(n)) => format!("win{n}"),
    }
}

fn parse_score(text: &str) -> Option<Option<Score>> {
    if text == "-" {
        return Some(None);
    }
    if let Some(n) = text.strip_prefix("win") {
        let n: i32 = n.parse().ok()?;
        return (n != 0 && n.unsigned_abs() <= (WIN - WIN_BOUND) as u32)
            .then_some(Some(Score::Win(n)));
    }
    let cp: i32 = text.parse().ok()?;
    (cp.abs() < WIN_BOUND).then_some(Some(Score::Cp(cp)))
}

/// What is wrong with a line of a book.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The first line is not `fanorona-book VERSION`.
    NotABook,
    /// A version this crate does not read.
    Version(String),
    /// A line longer than [`MAX_LINE`] bytes.
    TooLong,
    /// A header line (`board`, `rules`) that cannot be read, or repeated, or after the first
    /// position.
    Header(String),
    /// The header lacks `board` or `rules` (at the first position, or the end).
    MissingHeader(&'static str),
    /// A position string that cannot be read, or not on the book's board, or a finished game.
    Position(String),
    /// The same position (stones and side to move) as an earlier line.
    DuplicatePosition {
        /// The line of the first one.
        first: usize,
    },
    /// A `turn` line before any position.
    TurnWithoutPosition,
    /// A turn that cannot be read or is not legal in the position.
    Turn(String),
    /// The same turn twice in a position.
    DuplicateTurn {
        /// The line of the first one.
        first: usize,
    },
    /// A field of a `turn` line that cannot be read.
    Field {
        /// The field's name.
        field: &'static str,
        /// The text found (shortened).
        text: String,
    },
    /// A line that is no record of the format.
    UnknownRecord(String),
}

/// A book text that cannot be read: where and what.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ParseErrorKind::NotABook => write!(f, "not a book (expected `{MAGIC} {VERSION}`)"),
            ParseErrorKind::Version(v) => {
                write!(
                    f,
                    "book format version {v}; this program reads version {VERSION}"
                )
            }
            ParseErrorKind::TooLong => write!(f, "longer than {MAX_LINE} bytes"),
            ParseErrorKind::Header(m) => write!(f, "{m}"),
            ParseErrorKind::MissingHeader(h) => write!(f, "the header has no `{h}` line"),
            ParseErrorKind::Position(m) => write!(f, "position: {m}"),
            ParseErrorKind::DuplicatePosition { first } => {
                write!(f, "the same position as line {first}")
            }
            ParseErrorKind::TurnWithoutPosition => write!(f, "a turn before any position"),
            ParseErrorKind::Turn(m) => write!(f, "turn: {m}"),
            ParseErrorKind::DuplicateTurn { first } => write!(f, "the same turn as line {first}"),
            ParseErrorKind::Field { field, text } => write!(
                f,
                "{field}: cannot read {}",
                fanorona_core::escape::quoted(text)
            ),
            ParseErrorKind::UnknownRecord(w) => write!(
                f,
                "unknown record {} (expected position or turn)",
                fanorona_core::escape::quoted(w)
            ),
        }
    }
}

impl std::error::Error for ParseError {}

/// A book file that cannot be loaded.
#[derive(Debug)]
#[non_exhaustive]
pub enum LoadError {
    /// The file cannot be read.
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        error: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE`].
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        size: u64,
    },
    /// The file's text is not a book.
    Parse {
        /// The file.
        path: PathBuf,
        /// Where and what.
        error: ParseError,
    },
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::TooLarge { path, size } => write!(
                f,
                "{}: {size} bytes, larger than a book may be ({MAX_FILE} bytes)",
                path.display()
            ),
            LoadError::Parse { path, error } => write!(f, "{}: {error}", path.display()),
        }
    }
}

impl std::error::Error for LoadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LoadError::Io { error, .. } => Some(error),
            LoadError::Parse { error, .. } => Some(error),
            LoadError::TooLarge { .. } => None,
        }
    }
}

/// Why an entry cannot be added to a book ([`Book::insert`]).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum InsertError {
    /// The position is on another board or under other rules than the book's.
    OtherGame,
    /// The game is over in the position.
    GameOver,
    /// The turn is not legal in the position.
    IllegalTurn,
}

impl fmt::Display for InsertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            InsertError::OtherGame => "the position is on another board or under other rules",
            InsertError::GameOver => "the game is over in the position",
            InsertError::IllegalTurn => "the turn is not legal in the position",
        })
    }
}

impl std::error::Error for InsertError {}

/// How [`Book::pick_with`] chooses among a position's turns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct PickOptions {
    /// Turns scored more than this many centi-stones below the best scored turn are never
    /// chosen.
    pub margin: i32,
}

impl Default for PickOptions {
    /// A margin of 30 centi-stones.
    fn default() -> PickOptions {
        PickOptions { margin: 30 }
    }
}

/// An opening book for one board and one set of rules. See the [module](self) and
/// [`docs/book.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/book.md).
#[derive(Clone, Debug)]
pub struct Book {
    size: BoardSize,
    rules: Rules,
    /// The positions in file order, each with its entries.
    positions: Vec<(Position, Vec<BookEntry>)>,
    /// Zobrist hash -> indices into `positions` (more than one only on a hash collision,
    /// which the lookup resolves by comparing the stones).
    index: HashMap<u64, Vec<usize>>,
}

impl Book {
    /// An empty book for `size` and `rules`.
    pub fn new(size: BoardSize, rules: Rules) -> Book {
        Book {
            size,
            rules,
            positions: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// The board.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The rules.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The number of positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether the book has no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The number of turns of all positions.
    pub fn turn_count(&self) -> usize {
        self.positions.iter().map(|(_, e)| e.len()).sum()
    }

    /// The positions (counters at `0 1`) and their entries, in the book's order.
    pub fn iter(&self) -> impl Iterator<Item = (&Position, &[BookEntry])> + '_ {
        self.positions.iter().map(|(p, e)| (p, e.as_slice()))
    }

    /// The index of a position with the stones and side to move of `pos`.
    fn find(&self, pos: &Position) -> Option<usize> {
        // The hash selects candidates; the stones and side to move decide (a collision of
        // two 64-bit hashes can never return the other position's turns).
        self.index
            .get(&pos.zobrist())?
            .iter()
            .copied()
            .find(|&i| self.positions[i].0.same_placement(pos))
    }

    /// Whether `pos` has an entry in the book (its stones and side to move, on the book's
    /// board and under its rules).
    pub fn contains(&self, pos: &Position) -> bool {
        self.same_game(pos) && self.find(pos).is_some()
    }

    fn same_game(&self, pos: &Position) -> bool {
        pos.size() == self.size && pos.rules() == self.rules
    }

    /// The book's turns for `pos` that are legal there, in the book's order (the builder
    /// writes them best score first). Empty when the position is not in the book, is on
    /// another board or under other rules, or the game is over there.
    pub fn entries(&self, pos: &Position) -> Vec<BookEntry> {
        if !self.same_game(pos) || pos.outcome().is_some() {
            return Vec::new();
        }
        match self.find(pos) {
            Some(i) => self.positions[i]
                .1
                .iter()
                .filter(|e| pos.is_legal(&e.turn))
                .copied()
                .collect(),
            None => Vec::new(),
        }
    }

    /// Adds `entry` for `pos` (the position is added if new), replacing an entry for the same
    /// turn.
    ///
    /// # Errors
    ///
    /// [`InsertError`] when the position is on another board or under other rules, is a
    /// finished game, or the turn is not legal there.
    pub fn insert(&mut self, pos: &Position, entry: BookEntry) -> Result<(), InsertError> {
        if !self.same_game(pos) {
            return Err(InsertError::OtherGame);
        }
        if pos.outcome().is_some() {
            return Err(InsertError::GameOver);
        }
        if !pos.is_legal(&entry.turn) {
            return Err(InsertError::IllegalTurn);
        }
        let i = self.index_of(pos);
        let entries = &mut self.positions[i].1;
        match entries.iter_mut().find(|e| e.turn == entry.turn) {
            Some(e) => *e = entry,
            None => entries.push(entry),
        }
        Ok(())
    }

    /// The entry of `turn` in `pos`, if the book has it.
    pub fn entry_mut(&mut self, pos: &Position, turn: &Turn) -> Option<&mut BookEntry> {
        if !self.same_game(pos) {
            return None;
        }
        let i = self.find(pos)?;
        self.positions[i].1.iter_mut().find(|e| e.turn == *turn)
    }

    /// The index of `pos`, added (with counters reset) if new.
    fn index_of(&mut self, pos: &Position) -> usize {
        if let Some(i) = self.find(pos) {
            return i;
        }
        let key = placement(pos);
        let i = self.positions.len();
        self.index.entry(key.zobrist()).or_default().push(i);
        self.positions.push((key, Vec::new()));
        i
    }

    /// Sorts each position's entries: scored turns best first, then the others by games.
    pub fn sort(&mut self) {
        for (_, entries) in &mut self.positions {
            entries.sort_by_key(|e| {
                (
                    core::cmp::Reverse(e.score.map(score_key)),
                    core::cmp::Reverse(e.games()),
                )
            });
        }
    }

    /// A turn of the book for `pos` for play, chosen with [`PickOptions::default`]; see
    /// [`Book::pick_with`].
    pub fn pick(&self, pos: &Position, seed: u64) -> Option<Turn> {
        self.pick_with(pos, &PickOptions::default(), seed)
    }

    /// A turn of the book for `pos` for play, reproducible from `seed`; `None` when the book
    /// has no legal turn there. Always legal in `pos` (see [`Book::entries`]).
    ///
    /// The candidates: when some turns are scored, those within [`PickOptions::margin`] of the
    /// best score (a forced loss only if nothing better is known); else every turn with games.
    /// Each is weighted by the square of its smoothed practical score, `((2w + d + 1) /
    /// (2(w + d + l) + 2))²` (an unplayed turn counts one half), so that turns that won more
    /// are played more, and one is drawn at random from `seed` and the position's hash.
    pub fn pick_with(&self, pos: &Position, options: &PickOptions, seed: u64) -> Option<Turn> {
        let entries = self.entries(pos);
        let best = entries.iter().filter_map(|e| e.score).map(score_key).max();
        let candidates: Vec<&BookEntry> = match best {
            Some(best) => {
                let floor = if best > -i64::from(WIN_BOUND) {
                    (best - i64::from(options.margin.max(0))).max(-i64::from(WIN_BOUND) + 1)
                } else {
                    best
                };
                entries
                    .iter()
                    .filter(|e| e.score.is_some_and(|s| score_key(s) >= floor))
                    .collect()
            }
            None => entries.iter().filter(|e| e.games() > 0).collect(),
        };
        if candidates.is_empty() {
            return None;
        }
        // Weights in millionths: p² with p = (2w + d + 1) / (2g + 2), at least 1.
        let weights: Vec<u64> = candidates
            .iter()
            .map(|e| {
                let num = 2 * u128::from(e.wins) + u128::from(e.draws) + 1;
                let den = 2 * u128::from(e.games()) + 2;
                ((num * num * 1_000_000) / (den * den)).max(1) as u64
            })
            .collect();
        let total: u64 = weights.iter().sum();
        let mut r = Rng::new(mix(seed ^ pos.zobrist())).below(total);
        for (e, w) in candidates.iter().zip(&weights) {
            if r < *w {
                return Some(e.turn);
            }
            r -= w;
        }
        candidates.last().map(|e| e.turn)
    }

    /// Reads a book (see the [format](self) in [`docs/book.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/book.md)).
    ///
    /// # Errors
    ///
    /// [`ParseError`] at the first line that breaks the format: a wrong first line or
    /// version, a missing or bad header, a position or turn that cannot be read, an illegal
    /// or repeated turn, a repeated position, a bad number.
    pub fn parse(text: &str) -> Result<Book, ParseError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut size: Option<BoardSize> = None;
        let mut rules: Option<Rules> = None;
        let mut book: Option<Book> = None;
        // The current position, its line, and the lines of its turns.
        let mut current: Option<(Position, usize)> = None;
        let mut first_lines: HashMap<usize, usize> = HashMap::new();
        let mut turn_lines: Vec<(Turn, usize)> = Vec::new();
        let mut last = 0;
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            last = line;
            let err = |kind| ParseError { line, kind };
            if raw.len() > MAX_LINE {
                return Err(err(ParseErrorKind::TooLong));
            }
            if line == 1 {
                let mut words = raw.split_whitespace();
                if words.next() != Some(MAGIC) {
                    return Err(err(ParseErrorKind::NotABook));
                }
                let version = words.next().unwrap_or_default();
                if version != VERSION.to_string() || words.next().is_some() {
                    return Err(err(ParseErrorKind::Version(shorten(
                        raw[MAGIC.len()..].trim(),
                    ))));
                }
                continue;
            }
            let trimmed = raw.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (record, rest) = trimmed
                .split_once(char::is_whitespace)
                .map_or((trimmed, ""), |(a, b)| (a, b.trim()));
            match record {
                "board" | "rules" => {
                    if book.is_some() {
                        return Err(err(ParseErrorKind::Header(format!(
                            "`{record}` after the first position"
                        ))));
                    }
                    if record == "board" {
                        if size.is_some() {
                            return Err(err(ParseErrorKind::Header("a second `board`".into())));
                        }
                        size = Some(rest.parse().map_err(|e: fanorona_core::SizeError| {
                            err(ParseErrorKind::Header(format!("board: {e}")))
                        })?);
                    } else {
                        if rules.is_some() {
                            return Err(err(ParseErrorKind::Header("a second `rules`".into())));
                        }
                        rules = Some(rest.parse().map_err(|e: fanorona_core::RulesError| {
                            err(ParseErrorKind::Header(format!("rules: {e}")))
                        })?);
                    }
                }
                "position" => {
                    let b = match &mut book {
                        Some(b) => b,
                        None => {
                            let s = size.ok_or(err(ParseErrorKind::MissingHeader("board")))?;
                            let r = rules.ok_or(err(ParseErrorKind::MissingHeader("rules")))?;
                            book.insert(Book::new(s, r))
                        }
                    };
                    let pos = Position::from_fen_with(rest, b.rules)
                        .map_err(|e| err(ParseErrorKind::Position(e.to_string())))?;
                    if pos.size() != b.size || pos.rules() != b.rules {
                        return Err(err(ParseErrorKind::Position(format!(
                            "not a {} position under the book's rules",
                            b.size
                        ))));
                    }
                    if pos.outcome().is_some() {
                        return Err(err(ParseErrorKind::Position(
                            "the game is over there".into(),
                        )));
                    }
                    if let Some(j) = b.find(&pos) {
                        return Err(err(ParseErrorKind::DuplicatePosition {
                            first: first_lines.get(&j).copied().unwrap_or(0),
                        }));
                    }
                    let j = b.index_of(&pos);
                    first_lines.insert(j, line);
                    current = Some((pos, line));
                    turn_lines.clear();
                }
                "turn" => {
                    let (Some(b), Some((pos, _))) = (&mut book, &current) else {
                        return Err(err(ParseErrorKind::TurnWithoutPosition));
                    };
                    let fields: Vec<&str> = rest.split_whitespace().collect();
                    if fields.len() != 7 {
                        return Err(err(ParseErrorKind::Field {
                            field: "turn",
                            text: format!(
                                "{} fields (expected 7: turn wins draws losses score depth nodes)",
                                fields.len()
                            ),
                        }));
                    }
                    let turn = pos
                        .parse_turn(fields[0])
                        .map_err(|e| err(ParseErrorKind::Turn(e.to_string())))?;
                    if let Some((_, first)) = turn_lines.iter().find(|(t, _)| *t == turn) {
                        return Err(err(ParseErrorKind::DuplicateTurn { first: *first }));
                    }
                    let count = |k: usize, field: &'static str| {
                        fields[k].parse::<u32>().map_err(|_| {
                            err(ParseErrorKind::Field {
                                field,
                                text: shorten(fields[k]),
                            })
                        })
                    };
                    let mut entry = BookEntry::new(turn);
                    entry.wins = count(1, "wins")?;
                    entry.draws = count(2, "draws")?;
                    entry.losses = count(3, "losses")?;
                    entry.score = parse_score(fields[4]).ok_or_else(|| {
                        err(ParseErrorKind::Field {
                            field: "score",
                            text: shorten(fields[4]),
                        })
                    })?;
                    entry.depth = count(5, "depth")?;
                    entry.nodes = fields[6].parse::<u64>().map_err(|_| {
                        err(ParseErrorKind::Field {
                            field: "nodes",
                            text: shorten(fields[6]),
                        })
                    })?;
                    if entry.score.is_none() && (entry.depth != 0 || entry.nodes != 0) {
                        return Err(err(ParseErrorKind::Field {
                            field: "score",
                            text: "- with a depth or nodes (an unscored turn has 0 0)".into(),
                        }));
                    }
                    // Checked legal by parse_turn; insert cannot fail.
                    b.insert(pos, entry)
                        .map_err(|e| err(ParseErrorKind::Turn(e.to_string())))?;
                    turn_lines.push((turn, line));
                }
                other => return Err(err(ParseErrorKind::UnknownRecord(shorten(other)))),
            }
        }
        if last == 0 {
            return Err(ParseError {
                line: 1,
                kind: ParseErrorKind::NotABook,
            });
        }
        match book {
            Some(b) => Ok(b),
            None => {
                let line = last;
                let s = size.ok_or(ParseError {
                    line,
                    kind: ParseErrorKind::MissingHeader("board"),
                })?;
                let r = rules.ok_or(ParseError {
                    line,
                    kind: ParseErrorKind::MissingHeader("rules"),
                })?;
                Ok(Book::new(s, r))
            }
        }
    }

    /// Reads a book file (at most [`MAX_FILE`] bytes).
    ///
    /// # Errors
    ///
    /// [`LoadError`] naming the file: it cannot be read, is too large, or is not a book
    /// (with the line).
    pub fn load(path: impl AsRef<Path>) -> Result<Book, LoadError> {
        use std::io::Read;
        let path = path.as_ref();
        let io = |error| LoadError::Io {
            path: path.to_owned(),
            error,
        };
        let file = std::fs::File::open(path).map_err(io)?;
        let size = file.metadata().map_err(io)?.len();
        if size > MAX_FILE {
            return Err(LoadError::TooLarge {
                path: path.to_owned(),
                size,
            });
        }
        let mut text = String::new();
        file.take(MAX_FILE + 1)
            .read_to_string(&mut text)
            .map_err(io)?;
        Book::parse(&text).map_err(|error| LoadError::Parse {
            path: path.to_owned(),
            error,
        })
    }

    /// The book as text in the format, with `comments` (each line written after `# `) after
    /// the header line.
    pub fn to_text(&self, comments: &[String]) -> String {
        let mut out = format!("{MAGIC} {VERSION}\n");
        for c in comments {
            for l in c.lines() {
                out.push_str("# ");
                out.push_str(l);
                out.push('\n');
            }
        }
        out.push_str(&format!("board {}\n", self.size));
        let rules = if self.rules == Rules::STANDARD {
            "standard".to_owned()
        } else {
            self.rules.to_string()
        };
        out.push_str(&format!("rules {rules}\n"));
        for (pos, entries) in &self.positions {
            out.push_str(&format!("position {}\n", placement_text(pos)));
            for e in entries {
                out.push_str(&format!(
                    "turn {} {} {} {} {} {} {}\n",
                    e.turn,
                    e.wins,
                    e.draws,
                    e.losses,
                    score_text(e.score),
                    e.depth,
                    e.nodes
                ));
            }
        }
        out
    }
}

/// `pos` with its counters reset (the book's key: stones, side to move, board, rules).
fn placement(pos: &Position) -> Position {
    let text = placement_text(pos);
    Position::from_fen_with(&text, pos.rules()).unwrap_or(*pos)
}

/// The position string's stones and side to move (no counters).
fn placement_text(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut words = fen.split_whitespace();
    let stones = words.next().unwrap_or_default();
    let side = words.next().unwrap_or_default();
    format!("{stones} {side}")
}

fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The book embedded in the engine for `size` under `rules`: 5x9 and 5x5 under the standard
/// rules; `None` for other boards and rules.
pub fn shipped(size: BoardSize, rules: Rules) -> Option<&'static Book> {
    static B5X9: OnceLock<Option<Book>> = OnceLock::new();
    static B5X5: OnceLock<Option<Book>> = OnceLock::new();
    if rules != Rules::STANDARD {
        return None;
    }
    let (cell, text) = if size == BoardSize::STANDARD {
        (&B5X9, SHIPPED_5X9)
    } else if size == BoardSize::DIMY {
        (&B5X5, SHIPPED_5X5)
    } else {
        return None;
    };
    // A test reads both shipped books: they parse.
    cell.get_or_init(|| Book::parse(text).ok()).as_ref()
}

#[cfg(test)]
mod tests;
