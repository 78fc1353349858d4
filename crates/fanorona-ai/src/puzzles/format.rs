//! The puzzle format: one header line, then one puzzle a line ([`docs/puzzles.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/puzzles.md)).

use core::fmt;

use fanorona_core::{FenError, Position, Rules, TurnError};

use super::{Puzzle, PuzzleError, PuzzleKind, PuzzleSet, Theme, ThemeError};

/// The header line that opens every puzzle file.
pub(crate) const HEADER: &str = "fanorona-puzzles 1";

/// What is wrong with a puzzle file, and where.
///
/// ```
/// use fanorona_ai::puzzles::{ParseErrorKind, PuzzleSet};
///
/// let e = PuzzleSet::parse("fanorona-puzzles 1\np1;9/9/9/9/X8 w;a1-b1;tactic 4;;1500\n").unwrap_err();
/// assert_eq!((e.line, e.column), (2, 4));
/// assert!(matches!(e.kind, ParseErrorKind::Position(_)));
/// assert!(e.to_string().starts_with("line 2, column 4: "));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct ParseError {
    /// The line, from 1.
    pub line: usize,
    /// The column (in characters, from 1) where the wrong field or word begins.
    pub column: usize,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong in a [`ParseError`].
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The first line that is not blank or a comment is not `fanorona-puzzles 1`.
    Header(String),
    /// A puzzle line has this many `;`-separated fields instead of 6.
    FieldCount(usize),
    /// The position string does not parse.
    Position(FenError),
    /// A solution turn does not parse or is not legal in the position.
    Turn(TurnError),
    /// The kind is not `tactic D` (depth 1 to 64) or `win N` (1 to 1000).
    Kind(String),
    /// A word of the themes names no theme.
    Theme(ThemeError),
    /// The rating is not a whole number.
    Rating(String),
    /// The fields parse but do not make a puzzle.
    Puzzle(PuzzleError),
    /// An earlier puzzle has this id.
    DuplicateId(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}: ", self.line, self.column)?;
        let q = fanorona_core::escape::quoted;
        match &self.kind {
            ParseErrorKind::Header(found) => {
                write!(f, "expected the header {HEADER:?}, found {}", q(found))
            }
            ParseErrorKind::FieldCount(n) => write!(
                f,
                "{n} fields separated by ';', expected 6 (id; position; solution; kind; themes; rating)"
            ),
            ParseErrorKind::Position(e) => write!(f, "{e}"),
            ParseErrorKind::Turn(e) => write!(f, "solution: {e}"),
            ParseErrorKind::Kind(k) => write!(
                f,
                "kind {} is not 'tactic D' (depth 1 to 64) or 'win N' (1 to 1000)",
                q(k)
            ),
            ParseErrorKind::Theme(e) => write!(f, "{e}"),
            ParseErrorKind::Rating(r) => write!(f, "rating {} is not a whole number", q(r)),
            ParseErrorKind::Puzzle(e) => write!(f, "{e}"),
            ParseErrorKind::DuplicateId(id) => write!(f, "the id {} is taken", q(id)),
        }
    }
}

impl std::error::Error for ParseError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseErrorKind::Position(e) => Some(e),
            ParseErrorKind::Turn(e) => Some(e),
            ParseErrorKind::Theme(e) => Some(e),
            ParseErrorKind::Puzzle(e) => Some(e),
            _ => None,
        }
    }
}

/// The words of `text` with the character column (from 1) where each begins, counting from
/// `start`.
fn words(text: &str, start: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut begin: Option<(usize, usize)> = None;
    for (col, (byte, ch)) in (start..).zip(text.char_indices()) {
        if ch.is_whitespace() {
            if let Some((c, b)) = begin.take() {
                out.push((c, &text[b..byte]));
            }
        } else if begin.is_none() {
            begin = Some((col, byte));
        }
    }
    if let Some((c, b)) = begin {
        out.push((c, &text[b..]));
    }
    out
}

fn parse_kind(text: &str) -> Option<PuzzleKind> {
    let mut it = text.split_whitespace();
    let kind = match (it.next()?, it.next()?) {
        ("tactic", d) => {
            let depth: u32 = d.parse().ok()?;
            (1..=64)
                .contains(&depth)
                .then_some(PuzzleKind::Tactic { depth })?
        }
        ("win", n) => {
            let turns: u16 = n.parse().ok()?;
            (1..=1000)
                .contains(&turns)
                .then_some(PuzzleKind::WinIn { turns })?
        }
        _ => return None,
    };
    it.next().is_none().then_some(kind)
}

pub(crate) fn parse(text: &str) -> Result<PuzzleSet, ParseError> {
    let mut header = false;
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for (n, raw) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = raw.strip_suffix('\r').unwrap_or(raw);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let err = |column: usize, kind: ParseErrorKind| ParseError {
            line: line_no,
            column,
            kind,
        };
        if !header {
            if trimmed != HEADER {
                return Err(err(1, ParseErrorKind::Header(trimmed.to_owned())));
            }
            header = true;
            continue;
        }
        // Each field with the column where it begins (after leading blanks).
        let mut fields: Vec<(usize, &str)> = Vec::new();
        let mut col = 1;
        for part in line.split(';') {
            let lead = part.chars().take_while(|c| c.is_whitespace()).count();
            fields.push((col + lead, part.trim()));
            col += part.chars().count() + 1;
        }
        if fields.len() != 6 {
            return Err(err(1, ParseErrorKind::FieldCount(fields.len())));
        }
        let (id_col, id) = fields[0];
        let (pos_col, fen) = fields[1];
        let position = Position::from_fen_with(fen, Rules::STANDARD)
            .map_err(|e| err(pos_col, ParseErrorKind::Position(e)))?;
        let (sol_col, sol) = fields[2];
        let mut solution = Vec::new();
        for (c, word) in words(sol, sol_col) {
            let turn = position
                .parse_turn(word)
                .map_err(|e| err(c, ParseErrorKind::Turn(e)))?;
            solution.push(turn);
        }
        let (kind_col, kind_text) = fields[3];
        let kind = parse_kind(kind_text)
            .ok_or_else(|| err(kind_col, ParseErrorKind::Kind(kind_text.to_owned())))?;
        let (theme_col, theme_text) = fields[4];
        let mut themes = Vec::new();
        for (c, word) in words(theme_text, theme_col) {
            themes.push(
                word.parse::<Theme>()
                    .map_err(|e| err(c, ParseErrorKind::Theme(e)))?,
            );
        }
        let (rating_col, rating_text) = fields[5];
        let rating: u16 = rating_text
            .parse()
            .map_err(|_| err(rating_col, ParseErrorKind::Rating(rating_text.to_owned())))?;
        let puzzle = Puzzle::new(id, position, solution, kind, themes, rating).map_err(|e| {
            let column = match e {
                PuzzleError::BadId(_) => id_col,
                PuzzleError::BadRating(_) => rating_col,
                PuzzleError::BadKind => kind_col,
                PuzzleError::Telo => pos_col,
                _ => sol_col,
            };
            err(column, ParseErrorKind::Puzzle(e))
        })?;
        if !ids.insert(puzzle.id.clone()) {
            return Err(err(id_col, ParseErrorKind::DuplicateId(puzzle.id)));
        }
        puzzles.push(puzzle);
    }
    if !header {
        return Err(ParseError {
            line: text.lines().count().max(1),
            column: 1,
            kind: ParseErrorKind::Header(String::new()),
        });
    }
    Ok(PuzzleSet { puzzles })
}

/// One puzzle as a line of the format (no line feed).
pub(crate) fn line(p: &Puzzle) -> String {
    let solution: Vec<String> = p.solution.iter().map(ToString::to_string).collect();
    let themes: Vec<&str> = p.themes.iter().map(|t| t.name()).collect();
    format!(
        "{};{};{};{};{};{}",
        p.id,
        p.position.to_fen(),
        solution.join(" "),
        p.kind,
        themes.join(" "),
        p.rating
    )
}

pub(crate) fn write(set: &PuzzleSet, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    writeln!(f, "{HEADER}")?;
    for p in &set.puzzles {
        writeln!(f, "{}", line(p))?;
    }
    Ok(())
}
