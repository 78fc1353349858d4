//! The canonical FGN writer.

use core::fmt;
use std::io;

use super::limits::{LimitError, MAX_GAME_BYTES, MAX_MOVETEXT, MAX_TURN_NUMBER};
use super::{Element, GameRecord, Location, Problem, ProblemKind, check_turn_syntax};
use crate::{Color, Position};

/// The column movetext lines are broken before.
const WIDTH: usize = 80;

/// Why a record cannot be written as FGN (nothing is ever changed to make it fit).
#[derive(Debug)]
#[non_exhaustive]
pub enum WriteError {
    /// A tag name is empty or has characters other than letters, digits and `_`, or is
    /// longer than 255 bytes.
    TagName(String),
    /// A tag value has a line break, or is longer than 65,536 bytes.
    TagValue {
        /// The tag's name.
        name: String,
    },
    /// A comment contains `}` or a line starting with `[`, or is longer than 1 MiB.
    Comment {
        /// Its index in the movetext.
        index: usize,
    },
    /// A turn is not written as the turn grammar says.
    Turn {
        /// Its index in the movetext.
        index: usize,
        /// The text.
        text: String,
    },
    /// The record has no tags, no movetext and no result: FGN has no text for it.
    Empty,
    /// Two games in a row would read back as one: the first has no result token and the
    /// second no tags.
    WouldMerge,
    /// The record breaks a limit of the readers (see [`super::limits`]): what the writer
    /// wrote could not be read back.
    Limit(LimitError),
    /// The output could not be written.
    Io(io::Error),
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::TagName(n) => write!(
                f,
                "tag name {n} cannot be written: names are 1 to 255 letters, digits or '_'",
                n = crate::escape::quoted(&n)
            ),
            WriteError::TagValue { name } => write!(
                f,
                "the value of tag {name} cannot be written: it has a line break or is too long",
                name = crate::escape::quoted(&name)
            ),
            WriteError::Comment { index } => write!(
                f,
                "comment {} of the movetext cannot be written: it contains '}}', a line starting with '[', or is too long",
                index + 1
            ),
            WriteError::Turn { index, text } => write!(
                f,
                "movetext element {}: {text} is not a turn text",
                index + 1,
                text = crate::escape::quoted(&text)
            ),
            WriteError::Empty => write!(
                f,
                "an empty record (no tags, turns or result) has no FGN text"
            ),
            WriteError::WouldMerge => write!(
                f,
                "a game without a result token followed by a game without tags would read back as one game"
            ),
            WriteError::Limit(e) => write!(f, "cannot be written: {e}"),
            WriteError::Io(e) => write!(f, "cannot write: {e}"),
        }
    }
}

impl std::error::Error for WriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WriteError::Io(e) => Some(e),
            _ => None,
        }
    }
}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Writes movetext tokens, breaking lines before column 80.
struct Lines {
    out: String,
    column: usize,
}

impl Lines {
    fn token(&mut self, text: &str) {
        let width = text.lines().next().map_or(0, |l| l.chars().count());
        if self.column > 0 {
            if self.column + 1 + width > WIDTH {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(text);
        match text.rfind('\n') {
            Some(i) => self.column = text[i + 1..].chars().count(),
            None => self.column += width,
        }
    }
}

impl GameRecord {
    /// The canonical FGN text of this game: tags one per line, an empty line, the movetext
    /// with turn numbers, lines broken before column 80, then an empty line.
    ///
    /// # Errors
    ///
    /// [`WriteError`] when a tag, comment or turn cannot be written as FGN (see
    /// [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)), or the record is empty.
    pub fn to_fgn(&self) -> Result<String, WriteError> {
        if self.tags.is_empty() && self.movetext.is_empty() && self.result.is_none() {
            return Err(WriteError::Empty);
        }
        let mut out = String::new();
        for tag in &self.tags {
            let name_ok = !tag.name.is_empty()
                && tag.name.len() <= super::MAX_TAG_NAME
                && tag
                    .name
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_');
            if !name_ok {
                return Err(WriteError::TagName(tag.name.clone()));
            }
            if tag.value.contains(['\n', '\r']) || tag.value.len() > super::MAX_TAG_VALUE {
                return Err(WriteError::TagValue {
                    name: tag.name.clone(),
                });
            }
            out.push('[');
            out.push_str(&tag.name);
            out.push_str(" \"");
            for c in tag.value.chars() {
                if c == '"' || c == '\\' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push_str("\"]\n");
        }
        self.check_limits().map_err(WriteError::Limit)?;
        if !self.tags.is_empty() {
            out.push('\n');
        }
        if self.movetext.is_empty() && self.result.is_none() {
            return Ok(out);
        }
        // Turn numbers follow the start position; an unreadable [FEN] leaves them out.
        let mut numbering = self.first_turn_number();
        let mut lines = Lines { out, column: 0 };
        let mut after_turn = false;
        let mut token = String::new();
        let mut tokens = self.movetext.len();
        for (index, element) in self.movetext.iter().enumerate() {
            token.clear();
            match element {
                Element::Turn(text) => {
                    if check_turn_syntax(text.as_bytes()).is_err() {
                        return Err(WriteError::Turn {
                            index,
                            text: text.clone(),
                        });
                    }
                    if let Some((n, side)) = &mut numbering {
                        if *n > MAX_TURN_NUMBER {
                            return Err(WriteError::Limit(LimitError::TurnNumber { index }));
                        }
                        match side {
                            Color::White => token.push_str(&format!("{n}. ")),
                            Color::Black if !after_turn => token.push_str(&format!("{n}... ")),
                            Color::Black => {}
                        }
                        if !token.is_empty() {
                            tokens += 1;
                        }
                        if *side == Color::Black {
                            *n += 1;
                        }
                        *side = side.other();
                    }
                    token.push_str(text);
                    after_turn = true;
                }
                Element::Comment(text) => {
                    if text.contains('}') || text.contains("\n[") || text.len() > super::MAX_COMMENT
                    {
                        return Err(WriteError::Comment { index });
                    }
                    token.push('{');
                    token.push_str(text);
                    token.push('}');
                    after_turn = false;
                }
                Element::Nag(n) => {
                    token.push_str(&format!("${n}"));
                    after_turn = false;
                }
            }
            lines.token(&token);
        }
        if let Some(r) = self.result {
            lines.token(r.as_str());
        }
        let mut out = lines.out;
        out.push_str("\n\n");
        if tokens > MAX_MOVETEXT {
            return Err(WriteError::Limit(LimitError::TooMany {
                what: "movetext tokens",
                limit: MAX_MOVETEXT,
            }));
        }
        if out.len() > MAX_GAME_BYTES {
            return Err(WriteError::Limit(LimitError::TooLong {
                what: "game",
                index: 0,
                limit: MAX_GAME_BYTES,
            }));
        }
        Ok(out)
    }

    /// The number and side of the first turn: from the `[FEN]` tag, else 1 and White; `None`
    /// when the `[FEN]` tag is not a position.
    fn first_turn_number(&self) -> Option<(u32, Color)> {
        match self.tag("FEN") {
            None => Some((1, Color::White)),
            Some(fen) => Position::from_fen(fen)
                .ok()
                .map(|p| (u32::from(p.turn_number()), p.side_to_move())),
        }
    }

    /// Checks the turn numbers the record was read with ([`Source::turn_numbers`]) against
    /// the numbers the writers give the turns: the writers never renumber a turn silently, so
    /// a conversion calls this first. A turn number must be the number of the next turn and
    /// say its side (`N.` White, `N...` Black), counting from the `[FEN]` start (section 4.1
    /// of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)). A record without a source, or read without turn numbers,
    /// passes.
    ///
    /// [`Source::turn_numbers`]: super::Source::turn_numbers
    ///
    /// # Errors
    ///
    /// The first turn number that does not fit, as a [`ProblemKind::TurnNumber`] problem at
    /// its place.
    ///
    /// # Examples
    ///
    /// ```
    /// use fanorona_core::record::Reader;
    ///
    /// let good = Reader::new(&b"1. f2-e3A 1... d5-d4A *"[..]).read_record()?.expect("a game");
    /// assert!(good.check_turn_numbers().is_ok());
    /// let bad = Reader::new(&b"1. f2-e3A 2... d5-d4A *"[..]).read_record()?.expect("a game");
    /// let problem = bad.check_turn_numbers().unwrap_err();
    /// assert_eq!((problem.at.line, problem.at.column), (1, 11));
    /// # Ok::<(), fanorona_core::record::ReadError>(())
    /// ```
    pub fn check_turn_numbers(&self) -> Result<(), Problem> {
        let Some(src) = &self.source else {
            return Ok(());
        };
        let mut numbers = src.turn_numbers.iter().peekable();
        let mut next = self.first_turn_number();
        for i in 0..=self.movetext.len() {
            while let Some(&&(idx, n, black, at)) = numbers.peek() {
                if idx > i {
                    break;
                }
                numbers.next();
                check_number(next, n, black, at)?;
            }
            if let (Some(Element::Turn(_)), Some((n, side))) = (self.movetext.get(i), &mut next) {
                if *side == Color::Black {
                    *n = n.saturating_add(1);
                }
                *side = side.other();
            }
        }
        Ok(())
    }
}

/// Checks one written turn number against the next turn's number and side.
fn check_number(
    next: Option<(u32, Color)>,
    number: u32,
    black: bool,
    at: Location,
) -> Result<(), Problem> {
    let text = format!("{number}{}", if black { "..." } else { "." });
    let Some((expected, side)) = next else {
        return Err(Problem {
            kind: ProblemKind::TurnNumber,
            at,
            turn: None,
            message: format!(
                "turn number {text} cannot be checked: the [FEN] tag is not a position",
                text = crate::escape::quoted(&text)
            ),
            text,
            legal: Vec::new(),
        });
    };
    if number == expected && black == (side == Color::Black) {
        return Ok(());
    }
    let (name, want) = match side {
        Color::White => ("White", "."),
        Color::Black => ("Black", "..."),
    };
    Err(Problem {
        kind: ProblemKind::TurnNumber,
        at,
        turn: Some((expected, side)),
        message: format!(
            "turn number {text} does not fit: the next turn is {name}'s turn {expected} (\"{expected}{want}\")",
            text = crate::escape::quoted(&text)
        ),
        text,
        legal: Vec::new(),
    })
}

/// Writes several games as one FGN stream, checking that they read back as the same games.
///
/// # Examples
///
/// ```
/// use fanorona_core::record::{FgnWriter, GameRecord, GameResult, Element};
///
/// let mut out = Vec::new();
/// let mut writer = FgnWriter::new(&mut out);
/// let game = GameRecord::new(
///     Vec::new(),
///     vec![Element::Turn("f2-e3A".into())],
///     Some(GameResult::Unknown),
/// );
/// writer.write(&game)?;
/// writer.write(&game)?;
/// assert_eq!(String::from_utf8(out).unwrap(), "1. f2-e3A *\n\n1. f2-e3A *\n\n");
/// # Ok::<(), fanorona_core::record::WriteError>(())
/// ```
pub struct FgnWriter<W> {
    out: W,
    open_end: bool,
    games: usize,
}

impl<W: io::Write> FgnWriter<W> {
    /// A writer to `out`.
    pub fn new(out: W) -> FgnWriter<W> {
        FgnWriter {
            out,
            open_end: false,
            games: 0,
        }
    }

    /// Writes one game.
    ///
    /// # Errors
    ///
    /// [`WriteError`] as [`GameRecord::to_fgn`], [`WriteError::WouldMerge`], or an I/O error.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), WriteError> {
        if self.open_end && record.tags.is_empty() {
            return Err(WriteError::WouldMerge);
        }
        let text = record.to_fgn()?;
        self.out.write_all(text.as_bytes())?;
        self.open_end = record.result.is_none();
        self.games += 1;
        Ok(())
    }

    /// Games written so far.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Flushes and returns the output.
    ///
    /// # Errors
    ///
    /// An I/O error from the flush.
    pub fn finish(mut self) -> Result<W, WriteError> {
        self.out.flush()?;
        Ok(self.out)
    }
}
