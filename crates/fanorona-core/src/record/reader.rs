//! The streaming FGN reader: a byte-level tokenizer that reports each game's tags, turns,
//! comments and result to a [`Visitor`], game by game, with the location of every token.

use core::fmt;
use std::io::{self, Read};

use super::GameResult;
use super::limits::{
    MAX_COMMENT, MAX_GAME_BYTES, MAX_MOVETEXT, MAX_TAG_NAME, MAX_TAG_VALUE, MAX_TAGS, MAX_TURN,
    MAX_TURN_NUMBER,
};

/// Where a token starts in the input: line and column (both from 1, columns counted in
/// characters) and the byte offset from the start (from 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Location {
    /// The line, from 1.
    pub line: u64,
    /// The column in characters, from 1.
    pub column: u64,
    /// The byte offset, from 0.
    pub offset: u64,
}

impl fmt::Display for Location {
    /// `line:column`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// What a [`Visitor`] wants done with the movetext of the current game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Control {
    /// Report the movetext.
    Continue,
    /// Skip the movetext (it is still read to find the end of the game and its errors).
    SkipMovetext,
}

/// Receives the tokens of each game from a [`Reader`]. Every method but
/// [`Visitor::end_game`] has a default that does nothing.
///
/// For each game the reader calls `begin_game`, then `tag` for each tag, `end_tags` once, then
/// the movetext callbacks in order, then `end_game`, whose value [`Reader::read_game`] returns.
/// When the game has a syntax error, the calls stop at the error, `end_game` is not called and
/// `read_game` returns the error instead; the next game starts with `begin_game` again.
pub trait Visitor {
    /// What the visitor makes of a game.
    type Output;

    /// A new game begins (`game` counts from 1) at `at`.
    fn begin_game(&mut self, game: usize, at: Location) {
        let _ = (game, at);
    }
    /// A tag, its value unescaped.
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        let _ = (name, value, at);
    }
    /// The tag section is over.
    fn end_tags(&mut self) -> Control {
        Control::Continue
    }
    /// A turn number: `number.` (`black` false) or `number...` (`black` true).
    fn turn_number(&mut self, number: u32, black: bool, at: Location) {
        let _ = (number, black, at);
    }
    /// A turn, as written (syntactically a turn; not yet checked against a position).
    fn turn(&mut self, text: &str, at: Location) {
        let _ = (text, at);
    }
    /// A numeric annotation glyph `$n`.
    fn nag(&mut self, nag: u8, at: Location) {
        let _ = (nag, at);
    }
    /// A comment, its text between the braces kept as written.
    fn comment(&mut self, text: &str, at: Location) {
        let _ = (text, at);
    }
    /// The result token that ends the game.
    fn result(&mut self, result: GameResult, at: Location) {
        let _ = (result, at);
    }
    /// The game is over; `end` is where the reader stopped.
    fn end_game(&mut self, end: Location) -> Self::Output;
}

/// What is wrong with the input.
#[derive(Debug)]
#[non_exhaustive]
pub enum ReadErrorKind {
    /// The input could not be read. The reader stops.
    Io(io::Error),
    /// A tag does not follow `[Name "value"]`; says what was expected.
    Tag(&'static str),
    /// A comment has no closing `}` before the end of the input or before a line that starts
    /// with `[`.
    UnterminatedComment,
    /// A token of the movetext is malformed; says what was expected.
    Token(&'static str),
    /// Text that starts no element of the movetext.
    Unexpected,
    /// A variation `(`: FGN has none.
    Variation,
    /// Bytes that are not UTF-8 in a tag or a comment.
    InvalidUtf8(&'static str),
    /// A token longer than the reader's limit.
    TooLong {
        /// What kind of token.
        what: &'static str,
        /// The limit in bytes.
        limit: usize,
    },
    /// A game with more tags or movetext tokens than the reader's limit.
    TooMany {
        /// What there are too many of: `tags` or `movetext tokens`.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for ReadErrorKind {
    /// What is wrong, without the offending text or the location: `bad tag: expected ']'`.
    ///
    /// ```
    /// use fanorona_core::record::Reader;
    ///
    /// let err = Reader::new(&b"1. f2-e3A (d5-d4A) *"[..]).read_record().unwrap_err();
    /// assert_eq!(err.kind.to_string(), "variations '(...)' are not supported");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            ReadErrorKind::Tag(what) => write!(f, "bad tag: {what}"),
            ReadErrorKind::UnterminatedComment => {
                write!(f, "unterminated comment: no closing '}}'")
            }
            ReadErrorKind::Token(what) => write!(f, "bad token: {what}"),
            ReadErrorKind::Unexpected => write!(f, "unexpected text: not part of FGN movetext"),
            ReadErrorKind::Variation => write!(f, "variations '(...)' are not supported"),
            ReadErrorKind::InvalidUtf8(what) => write!(f, "{what} is not valid UTF-8"),
            ReadErrorKind::TooLong { what, limit } => {
                write!(f, "{what} too long (more than {limit} bytes)")
            }
            ReadErrorKind::TooMany { what, limit } => {
                write!(f, "too many {what} in one game (more than {limit})")
            }
        }
    }
}

/// A syntax or I/O error, with the game it spoils and its location.
///
/// After a syntax error the reader has already skipped to the end of the bad game: the next
/// [`Reader::read_game`] reads the next game.
#[derive(Debug)]
#[non_exhaustive]
pub struct ReadError {
    /// The game, counted from 1.
    pub game: usize,
    /// Where the problem is.
    pub at: Location,
    /// The offending text (shortened, invalid bytes replaced).
    pub text: String,
    /// What is wrong.
    pub kind: ReadErrorKind,
}

impl ReadError {
    /// Whether this is an I/O error (the reader stops) rather than a syntax error.
    pub fn is_io(&self) -> bool {
        matches!(self.kind, ReadErrorKind::Io(_))
    }

    /// A message without the location: `bad tag: expected ']' ...`.
    pub fn message(&self) -> String {
        match &self.kind {
            ReadErrorKind::Io(e) => format!("cannot read: {e}"),
            ReadErrorKind::Tag(what) => {
                format!("bad tag {}: {what}", crate::escape::quoted(&self.text))
            }
            ReadErrorKind::UnterminatedComment => {
                format!(
                    "unterminated comment {}: no closing '}}'",
                    crate::escape::quoted(&self.text)
                )
            }
            ReadErrorKind::Token(what) => {
                format!("bad token {}: {what}", crate::escape::quoted(&self.text))
            }
            ReadErrorKind::Unexpected => {
                format!(
                    "unexpected text {}: not part of FGN movetext",
                    crate::escape::quoted(&self.text)
                )
            }
            ReadErrorKind::Variation => "variations '(...)' are not supported".to_owned(),
            ReadErrorKind::InvalidUtf8(what) => format!("{what} is not valid UTF-8"),
            ReadErrorKind::TooLong { what, limit } => {
                format!("{what} too long (more than {limit} bytes)")
            }
            ReadErrorKind::TooMany { what, limit } => {
                format!("too many {what} in one game (more than {limit})")
            }
        }
    }
}

impl ReadError {
    /// The error located in a named file, displayed as `FILE:LINE:COL: game N: message`,
    /// the form editors and compilers use.
    ///
    /// ```
    /// use fanorona_core::record::Reader;
    ///
    /// let text = "1. f2-e3A *\n\n1. d3-e3W (d5-d4A) *\n";
    /// let mut reader = Reader::new(text.as_bytes());
    /// assert!(reader.read_record().is_ok());
    /// let err = reader.read_record().unwrap_err();
    /// assert_eq!(
    ///     err.in_file("club.fgn").to_string(),
    ///     "club.fgn:3:11: game 2: variations '(...)' are not supported"
    /// );
    /// ```
    pub fn in_file<'a>(&'a self, file: &'a str) -> InFile<'a> {
        InFile { error: self, file }
    }
}

/// A [`ReadError`] with its file name, from [`ReadError::in_file`]: displays as
/// `FILE:LINE:COL: game N: message`.
#[derive(Debug)]
pub struct InFile<'a> {
    error: &'a ReadError,
    file: &'a str,
}

impl fmt::Display for InFile<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = self.error;
        write!(
            f,
            "{}:{}:{}: game {}: {}",
            self.file,
            e.at.line,
            e.at.column,
            e.game,
            e.message()
        )
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}, line {}: {}",
            self.game,
            self.at,
            self.message()
        )
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ReadErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

const BUF_SIZE: usize = 1 << 16;
/// How much of an offending token an error keeps.
const EXCERPT: usize = 40;

/// Reads FGN games one at a time from any [`Read`] (buffering is done inside; the input is
/// never held in memory as a whole).
///
/// # Examples
///
/// ```
/// use fanorona_core::record::{GameResult, Reader};
///
/// let text = "[White \"Rakoto\"]\n\n1. f2-e3A {good} d5-d4A 1-0\n\n1. d3-e3W *\n";
/// let mut reader = Reader::new(text.as_bytes());
/// let first = reader.read_record()?.expect("a game");
/// assert_eq!(first.tag("White"), Some("Rakoto"));
/// assert_eq!(first.turns().collect::<Vec<_>>(), ["f2-e3A", "d5-d4A"]);
/// assert_eq!(first.result, Some(GameResult::WhiteWins));
/// let second = reader.read_record()?.expect("a game");
/// assert!(second.tags.is_empty());
/// assert!(reader.read_record()?.is_none());
/// # Ok::<(), fanorona_core::record::ReadError>(())
/// ```
pub struct Reader<R> {
    inner: R,
    state: ReadState,
}

/// The state of a [`Reader`], whatever it reads from: the parsing code works on it through a
/// [`Cursor`], compiled once in this crate (with this crate's optimisation level) rather than
/// for each reader type in the crate that uses it.
pub(super) struct ReadState {
    buf: Box<[u8]>,
    pos: usize,
    len: usize,
    eof: bool,
    failed: bool,
    line: u64,
    column: u64,
    offset: u64,
    games: usize,
    word: Vec<u8>,
    value: Vec<u8>,
}

impl<R: Read> Reader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            inner,
            state: ReadState {
                buf: vec![0; BUF_SIZE].into_boxed_slice(),
                pos: 0,
                len: 0,
                eof: false,
                failed: false,
                line: 1,
                column: 1,
                offset: 0,
                games: 0,
                word: Vec::with_capacity(64),
                value: Vec::with_capacity(64),
            },
        }
    }

    /// The location of the next byte.
    pub fn location(&self) -> Location {
        self.state.location()
    }

    /// Bytes consumed so far.
    pub fn bytes_read(&self) -> u64 {
        self.state.offset
    }

    /// Games begun so far.
    pub fn games_read(&self) -> usize {
        self.state.games
    }

    /// The parser over this reader's input and state.
    #[inline]
    fn cursor(&mut self) -> Cursor<'_> {
        Cursor {
            src: &mut self.inner,
            st: &mut self.state,
        }
    }

    /// The next byte, without consuming it; `None` at the end of the input.
    #[inline]
    pub(super) fn peek(&mut self) -> io::Result<Option<u8>> {
        self.cursor().peek()
    }

    /// Consumes the byte returned by the last `peek`.
    #[inline]
    pub(super) fn bump(&mut self, b: u8) {
        self.state.bump(b);
    }

    /// Skips white space; returns the number of line feeds crossed.
    pub(super) fn skip_ws(&mut self) -> io::Result<u32> {
        self.cursor().skip_ws()
    }

    /// Skips a UTF-8 byte-order mark.
    pub(super) fn skip_bom(&mut self) -> io::Result<()> {
        self.cursor().skip_bom()
    }

    /// Reads the next game into `visitor`.
    ///
    /// Returns `Ok(None)` at the end of the input (or after an I/O error was reported).
    ///
    /// # Errors
    ///
    /// [`ReadError`] for a syntax error in the game (the reader has skipped the rest of the
    /// game and can go on) or an I/O error (the reader stops).
    pub fn read_game<V: Visitor>(
        &mut self,
        visitor: &mut V,
    ) -> Result<Option<V::Output>, ReadError> {
        let mut v = DynAdapter {
            visitor,
            output: None,
        };
        self.cursor().read_game(&mut v)?;
        Ok(v.output)
    }

    /// Reads the next game as a [`GameRecord`](super::GameRecord).
    ///
    /// # Errors
    ///
    /// As [`Reader::read_game`].
    pub fn read_record(&mut self) -> Result<Option<super::GameRecord>, ReadError> {
        self.cursor().read_record()
    }

    /// An iterator over the games as owned records. A syntax error is an `Err` item for that
    /// game; the iteration goes on with the next game. It ends after an I/O error.
    pub fn records(self) -> Records<R> {
        Records { reader: self }
    }
}

impl ReadState {
    /// The location of the next byte.
    fn location(&self) -> Location {
        Location {
            line: self.line,
            column: self.column,
            offset: self.offset,
        }
    }

    /// Consumes the byte returned by the last `peek`.
    #[inline]
    fn bump(&mut self, b: u8) {
        self.pos += 1;
        self.offset += 1;
        if b == b'\n' {
            self.line += 1;
            self.column = 1;
        } else if b & 0xC0 != 0x80 {
            self.column += 1;
        }
    }
}

/// [`Visitor`] without its output type, so that the parser takes it as a trait object: the
/// adapter keeps the output of `end_game`.
trait DynVisitor {
    fn begin_game(&mut self, game: usize, at: Location);
    fn tag(&mut self, name: &str, value: &str, at: Location);
    fn end_tags(&mut self) -> Control;
    fn turn_number(&mut self, number: u32, black: bool, at: Location);
    fn turn(&mut self, text: &str, at: Location);
    fn nag(&mut self, nag: u8, at: Location);
    fn comment(&mut self, text: &str, at: Location);
    fn result(&mut self, result: GameResult, at: Location);
    fn end_game(&mut self, end: Location);
}

/// A [`Visitor`] as a [`DynVisitor`], with the output of its game once it ends.
struct DynAdapter<'a, V: Visitor> {
    visitor: &'a mut V,
    output: Option<V::Output>,
}

impl<V: Visitor> DynVisitor for DynAdapter<'_, V> {
    fn begin_game(&mut self, game: usize, at: Location) {
        self.visitor.begin_game(game, at);
    }
    fn tag(&mut self, name: &str, value: &str, at: Location) {
        self.visitor.tag(name, value, at);
    }
    fn end_tags(&mut self) -> Control {
        self.visitor.end_tags()
    }
    fn turn_number(&mut self, number: u32, black: bool, at: Location) {
        self.visitor.turn_number(number, black, at);
    }
    fn turn(&mut self, text: &str, at: Location) {
        self.visitor.turn(text, at);
    }
    fn nag(&mut self, nag: u8, at: Location) {
        self.visitor.nag(nag, at);
    }
    fn comment(&mut self, text: &str, at: Location) {
        self.visitor.comment(text, at);
    }
    fn result(&mut self, result: GameResult, at: Location) {
        self.visitor.result(result, at);
    }
    fn end_game(&mut self, end: Location) {
        self.output = Some(self.visitor.end_game(end));
    }
}

/// The parser: a reader's state and its input as a trait object. Nothing here is generic,
/// so a dependent crate runs this crate's compiled code whatever its reader type.
pub(super) struct Cursor<'a> {
    src: &'a mut dyn Read,
    st: &'a mut ReadState,
}

impl core::ops::Deref for Cursor<'_> {
    type Target = ReadState;
    #[inline]
    fn deref(&self) -> &ReadState {
        self.st
    }
}

impl core::ops::DerefMut for Cursor<'_> {
    #[inline]
    fn deref_mut(&mut self) -> &mut ReadState {
        self.st
    }
}

impl Cursor<'_> {
    /// The next byte, without consuming it; `None` at the end of the input.
    #[inline]
    pub(super) fn peek(&mut self) -> io::Result<Option<u8>> {
        if self.pos < self.len {
            return Ok(Some(self.buf[self.pos]));
        }
        if self.eof {
            return Ok(None);
        }
        loop {
            match self.src.read(&mut self.st.buf) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(None);
                }
                Ok(n) => {
                    self.pos = 0;
                    self.len = n;
                    return Ok(Some(self.buf[0]));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn error(&self, at: Location, text: &[u8], kind: ReadErrorKind) -> ReadError {
        let cut = &text[..text.len().min(EXCERPT)];
        ReadError {
            game: self.games,
            at,
            text: String::from_utf8_lossy(cut).into_owned(),
            kind,
        }
    }

    fn io_error(&mut self, e: io::Error) -> ReadError {
        self.failed = true;
        let at = self.location();
        self.error(at, b"", ReadErrorKind::Io(e))
    }

    /// Skips white space; returns the number of line feeds crossed.
    pub(super) fn skip_ws(&mut self) -> io::Result<u32> {
        let mut newlines = 0;
        while let Some(b) = self.peek()? {
            match b {
                b'\n' => newlines += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => break,
            }
            self.bump(b);
        }
        Ok(newlines)
    }

    /// Skips the rest of the line (not the line feed).
    fn skip_line(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if b == b'\n' {
                break;
            }
            self.bump(b);
        }
        Ok(())
    }

    /// Consumes bytes up to white space or the start of a comment or tag, keeping the first
    /// ones in `self.word` for the error text.
    fn skip_token(&mut self) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'{' | b'[') {
                break;
            }
            if self.word.len() < EXCERPT {
                self.word.push(b);
            }
            self.bump(b);
        }
        Ok(())
    }

    /// Reads a run of bytes of `class` into `self.word` (at most `limit`); returns whether the
    /// run was longer than the limit.
    fn read_word(&mut self, class: fn(u8) -> bool, limit: usize) -> io::Result<bool> {
        self.word.clear();
        let mut long = false;
        while let Some(b) = self.peek()? {
            if !class(b) {
                break;
            }
            if self.word.len() < limit {
                self.word.push(b);
            } else {
                long = true;
            }
            self.bump(b);
        }
        Ok(long)
    }

    /// Reads the next game into `v` (see [`Reader::read_game`]); `v` has the game's output
    /// when there was a game.
    fn read_game(&mut self, v: &mut dyn DynVisitor) -> Result<(), ReadError> {
        if self.failed {
            return Ok(());
        }
        match self.read_game_inner(v) {
            Ok(out) => out,
            Err(e) => Err(self.io_error(e)),
        }
    }

    /// Reads the next game as a [`GameRecord`](super::GameRecord).
    fn read_record(&mut self) -> Result<Option<super::GameRecord>, ReadError> {
        let mut builder = super::RecordBuilder::default();
        let mut v = DynAdapter {
            visitor: &mut builder,
            output: None,
        };
        self.read_game(&mut v)?;
        Ok(v.output)
    }

    #[allow(
        clippy::type_complexity,
        reason = "an I/O result around the game's result"
    )]
    fn read_game_inner(&mut self, v: &mut dyn DynVisitor) -> io::Result<Result<(), ReadError>> {
        if self.offset == 0 {
            self.skip_bom()?;
        }
        self.skip_ws()?;
        if self.peek()?.is_none() {
            return Ok(Ok(()));
        }
        self.games += 1;
        let start = self.location();
        v.begin_game(self.games, start);
        let mut error: Option<ReadError> = None;
        let mut in_tags = true;
        let mut tags_seen = false;
        let mut skip = false;
        let (mut tags, mut tokens) = (0usize, 0usize);
        loop {
            let newlines = self.skip_ws()?;
            let Some(b) = self.peek()? else { break };
            let at = self.location();
            if b == b'[' && (!in_tags || (tags_seen && newlines >= 2)) {
                // A new tag section: the next game.
                break;
            }
            if error.is_none() && self.offset - start.offset > MAX_GAME_BYTES as u64 {
                error = Some(self.too_long_game(at));
            }
            if b == b'[' {
                tags_seen = true;
                tags += 1;
                if tags > MAX_TAGS && error.is_none() {
                    error = Some(self.error(
                        at,
                        b"",
                        ReadErrorKind::TooMany {
                            what: "tags",
                            limit: MAX_TAGS,
                        },
                    ));
                }
                match self.read_tag()? {
                    Ok(()) => {
                        if error.is_none() {
                            let name = core::str::from_utf8(&self.word).expect("ASCII name");
                            match core::str::from_utf8(&self.value) {
                                Ok(value) => v.tag(name, value, at),
                                Err(_) => {
                                    let text = self.value.clone();
                                    error = Some(self.error(
                                        at,
                                        &text,
                                        ReadErrorKind::InvalidUtf8("the tag value"),
                                    ));
                                }
                            }
                        }
                    }
                    Err(e) => {
                        if error.is_none() {
                            error = Some(e);
                        }
                        self.skip_line()?;
                    }
                }
                continue;
            }
            if in_tags {
                in_tags = false;
                if error.is_none() {
                    skip = v.end_tags() == Control::SkipMovetext;
                }
            }
            // Every movetext token counts but the result (a number token is counted once it
            // turns out to be a turn number).
            if !matches!(b, b'*' | b'0'..=b'9') {
                self.count_token(&mut tokens, at, &mut error);
            }
            let quiet = skip || error.is_some();
            match b {
                b'{' => match self.read_comment()? {
                    Ok(()) => {
                        if !quiet {
                            match core::str::from_utf8(&self.value) {
                                Ok(text) => v.comment(text, at),
                                Err(_) => {
                                    let text = self.value.clone();
                                    error = Some(self.error(
                                        at,
                                        &text,
                                        ReadErrorKind::InvalidUtf8("the comment"),
                                    ));
                                }
                            }
                        }
                    }
                    Err(e) => {
                        if error.is_none() {
                            error = Some(e);
                        }
                    }
                },
                b'*' => {
                    self.bump(b);
                    if !quiet {
                        v.result(GameResult::Unknown, at);
                    }
                    break;
                }
                b'$' => {
                    self.bump(b);
                    let long = self.read_word(|c| c.is_ascii_digit(), 8)?;
                    let nag = core::str::from_utf8(&self.word)
                        .ok()
                        .and_then(|s| s.parse::<u8>().ok());
                    match nag {
                        Some(n) if !long => {
                            if !quiet {
                                v.nag(n, at);
                            }
                        }
                        _ => {
                            if error.is_none() {
                                let mut text = b"$".to_vec();
                                text.extend_from_slice(&self.word);
                                error = Some(self.error(
                                    at,
                                    &text,
                                    ReadErrorKind::Token("a NAG is '$' and a number from 0 to 255"),
                                ));
                            }
                        }
                    }
                }
                b'0'..=b'9' => {
                    let long = self
                        .read_word(|c| matches!(c, b'0'..=b'9' | b'.' | b'/' | b'-'), MAX_TURN)?;
                    match self.classify_number(long) {
                        Ok(Number::Result(r)) => {
                            if !quiet {
                                v.result(r, at);
                            }
                            break;
                        }
                        Ok(Number::Turn(n, black)) => {
                            self.count_token(&mut tokens, at, &mut error);
                            if !quiet && error.is_none() {
                                v.turn_number(n, black, at);
                            }
                        }
                        Err(expected) => {
                            if error.is_none() {
                                let text = self.word.clone();
                                error = Some(self.error(at, &text, ReadErrorKind::Token(expected)));
                            }
                        }
                    }
                }
                b'a'..=b'z' | b'A'..=b'Z' => {
                    let long =
                        self.read_word(|c| c.is_ascii_alphanumeric() || c == b'-', MAX_TURN)?;
                    if long {
                        if error.is_none() {
                            let text = self.word.clone();
                            error = Some(self.error(
                                at,
                                &text,
                                ReadErrorKind::TooLong {
                                    what: "turn",
                                    limit: MAX_TURN,
                                },
                            ));
                        }
                    } else if let Err(expected) = check_turn_syntax(&self.word) {
                        if error.is_none() {
                            let text = self.word.clone();
                            error = Some(self.error(at, &text, ReadErrorKind::Token(expected)));
                        }
                    } else if !quiet {
                        let text = core::str::from_utf8(&self.word).expect("ASCII turn");
                        v.turn(text, at);
                    }
                }
                _ => {
                    self.word.clear();
                    let kind = if b == b'(' {
                        ReadErrorKind::Variation
                    } else {
                        ReadErrorKind::Unexpected
                    };
                    // Consume at least the offending byte, then the rest of the token.
                    self.word.push(b);
                    self.bump(b);
                    self.skip_token()?;
                    if error.is_none() {
                        let text = self.word.clone();
                        error = Some(self.error(at, &text, kind));
                    }
                }
            }
        }
        if error.is_none() && self.offset - start.offset > MAX_GAME_BYTES as u64 {
            error = Some(self.too_long_game(self.location()));
        }
        if let Some(e) = error {
            return Ok(Err(e));
        }
        if in_tags {
            v.end_tags();
        }
        v.end_game(self.location());
        Ok(Ok(()))
    }

    /// Counts one movetext token; past [`MAX_MOVETEXT`], sets the game's error.
    fn count_token(&self, tokens: &mut usize, at: Location, error: &mut Option<ReadError>) {
        *tokens += 1;
        if *tokens > MAX_MOVETEXT && error.is_none() {
            *error = Some(self.error(
                at,
                b"",
                ReadErrorKind::TooMany {
                    what: "movetext tokens",
                    limit: MAX_MOVETEXT,
                },
            ));
        }
    }

    /// The error of a game longer than [`MAX_GAME_BYTES`], noticed at `at`.
    fn too_long_game(&self, at: Location) -> ReadError {
        self.error(
            at,
            b"",
            ReadErrorKind::TooLong {
                what: "game",
                limit: MAX_GAME_BYTES,
            },
        )
    }

    fn skip_bom(&mut self) -> io::Result<()> {
        // A UTF-8 byte-order mark is three bytes; check them one at a time.
        if self.peek()? == Some(0xEF)
            && self.len - self.pos >= 3
            && self.buf[self.pos + 1] == 0xBB
            && self.buf[self.pos + 2] == 0xBF
        {
            self.pos += 3;
            self.offset += 3;
        }
        Ok(())
    }

    /// Reads `[Name "value"]`: the name into `self.word`, the unescaped value into
    /// `self.value`.
    fn read_tag(&mut self) -> io::Result<Result<(), ReadError>> {
        let start = self.location();
        self.bump(b'[');
        self.word.clear();
        self.value.clear();
        let blank = |c: u8| c == b' ' || c == b'\t';
        while let Some(b) = self.peek()? {
            if !blank(b) {
                break;
            }
            self.bump(b);
        }
        let name_at = self.location();
        let long = self.read_word(|c| c.is_ascii_alphanumeric() || c == b'_', MAX_TAG_NAME)?;
        if long {
            let text = self.word.clone();
            return Ok(Err(self.error(
                name_at,
                &text,
                ReadErrorKind::TooLong {
                    what: "tag name",
                    limit: MAX_TAG_NAME,
                },
            )));
        }
        if self.word.is_empty() {
            return Ok(Err(self.tag_error(
                "expected a tag name (letters, digits, '_') after '['",
            )?));
        }
        let mut spaced = false;
        while let Some(b) = self.peek()? {
            if !blank(b) {
                break;
            }
            spaced = true;
            self.bump(b);
        }
        if self.peek()? != Some(b'"') || !spaced {
            let what = if spaced {
                "expected '\"' to open the tag value"
            } else {
                "expected a space and a quoted value after the tag name"
            };
            return Ok(Err(self.tag_error(what)?));
        }
        let quote_at = self.location();
        self.bump(b'"');
        let mut long = false;
        loop {
            let Some(b) = self.peek()? else {
                let text = self.value.clone();
                return Ok(Err(self.error(
                    quote_at,
                    &text,
                    ReadErrorKind::Tag("unterminated tag value: no closing '\"'"),
                )));
            };
            match b {
                b'"' => {
                    self.bump(b);
                    break;
                }
                b'\n' | b'\r' => {
                    let text = self.value.clone();
                    return Ok(Err(self.error(
                        quote_at,
                        &text,
                        ReadErrorKind::Tag(
                            "unterminated tag value: no closing '\"' before the end of the line",
                        ),
                    )));
                }
                b'\\' => {
                    let escape_at = self.location();
                    self.bump(b);
                    match self.peek()? {
                        Some(c @ (b'"' | b'\\')) => {
                            self.bump(c);
                            if self.value.len() < MAX_TAG_VALUE {
                                self.value.push(c);
                            } else {
                                long = true;
                            }
                        }
                        _ => {
                            let mut e = self.tag_error(
                                "bad escape in the tag value: only \\\" and \\\\ exist",
                            )?;
                            e.at = escape_at;
                            e.text.insert(0, '\\');
                            return Ok(Err(e));
                        }
                    }
                }
                _ => {
                    self.bump(b);
                    if self.value.len() < MAX_TAG_VALUE {
                        self.value.push(b);
                    } else {
                        long = true;
                    }
                }
            }
        }
        if long {
            let text = self.value.clone();
            return Ok(Err(self.error(
                start,
                &text,
                ReadErrorKind::TooLong {
                    what: "tag value",
                    limit: MAX_TAG_VALUE,
                },
            )));
        }
        while let Some(b) = self.peek()? {
            if !blank(b) {
                break;
            }
            self.bump(b);
        }
        if self.peek()? != Some(b']') {
            return Ok(Err(self.tag_error("expected ']' after the tag value")?));
        }
        self.bump(b']');
        Ok(Ok(()))
    }

    /// A tag error at the current byte, quoting the rest of the line.
    fn tag_error(&mut self, what: &'static str) -> io::Result<ReadError> {
        let at = self.location();
        let mut text = Vec::new();
        if let Some(b) = self.peek()?
            && b != b'\n'
        {
            // Quote a little of what follows, without consuming it.
            let end = (self.pos + EXCERPT).min(self.len);
            let rest = &self.buf[self.pos..end];
            let cut = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
            text.extend_from_slice(&rest[..cut]);
        }
        Ok(self.error(at, &text, ReadErrorKind::Tag(what)))
    }

    /// Reads `{...}` into `self.value`.
    fn read_comment(&mut self) -> io::Result<Result<(), ReadError>> {
        let start = self.location();
        self.bump(b'{');
        self.value.clear();
        let mut long = false;
        let mut line_start = false;
        loop {
            let Some(b) = self.peek()? else {
                let text = self.value.clone();
                return Ok(Err(self.error(
                    start,
                    &text,
                    ReadErrorKind::UnterminatedComment,
                )));
            };
            if b == b'}' {
                self.bump(b);
                break;
            }
            if line_start && b == b'[' {
                let text = self.value.clone();
                return Ok(Err(self.error(
                    start,
                    &text,
                    ReadErrorKind::UnterminatedComment,
                )));
            }
            line_start = b == b'\n';
            self.bump(b);
            if self.value.len() < MAX_COMMENT {
                self.value.push(b);
            } else {
                long = true;
            }
        }
        if long {
            let text = self.value.clone();
            return Ok(Err(self.error(
                start,
                &text,
                ReadErrorKind::TooLong {
                    what: "comment",
                    limit: MAX_COMMENT,
                },
            )));
        }
        Ok(Ok(()))
    }

    fn classify_number(&self, long: bool) -> Result<Number, &'static str> {
        let w = &self.word[..];
        match w {
            b"1-0" => return Ok(Number::Result(GameResult::WhiteWins)),
            b"0-1" => return Ok(Number::Result(GameResult::BlackWins)),
            b"1/2-1/2" => return Ok(Number::Result(GameResult::Draw)),
            _ => {}
        }
        const EXPECTED: &str =
            "expected a turn number ('12.' or '12...') or a result (1-0, 0-1, 1/2-1/2)";
        if long {
            return Err(EXPECTED);
        }
        let digits = w.iter().take_while(|c| c.is_ascii_digit()).count();
        let (num, rest) = w.split_at(digits);
        let black = match rest {
            b"." => false,
            b"..." => true,
            _ => return Err(EXPECTED),
        };
        let n = core::str::from_utf8(num)
            .ok()
            .and_then(|s| s.parse::<u32>().ok())
            .filter(|&n| (1..=MAX_TURN_NUMBER).contains(&n))
            .ok_or("a turn number is a number from 1 to 65535")?;
        Ok(Number::Turn(n, black))
    }
}

enum Number {
    Result(GameResult),
    Turn(u32, bool),
}

/// The iterator of [`Reader::records`].
pub struct Records<R> {
    reader: Reader<R>,
}

impl<R: Read> Iterator for Records<R> {
    type Item = Result<super::GameRecord, ReadError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_record().transpose()
    }
}

impl<R> Records<R> {
    /// The reader underneath (for its location and counters).
    pub fn reader(&self) -> &Reader<R> {
        &self.reader
    }
}

/// Checks the board-independent syntax of a turn token: `point ( ['-'] point ['A'|'W'] )+`,
/// or a point alone (a placement, in Fanoron-Telo).
///
/// # Errors
///
/// What was expected at the first byte that does not fit.
pub fn check_turn_syntax(word: &[u8]) -> Result<(), &'static str> {
    let point = |i: usize| -> Result<(), &'static str> {
        match word.get(i..i + 2) {
            Some([b'a'..=b'i', b'1'..=b'9']) => Ok(()),
            _ => {
                Err("expected a turn such as f2-e3A: points a1 to i9, '-', capture letters A or W")
            }
        }
    };
    point(0)?;
    if word.len() == 2 {
        return Ok(());
    }
    let mut i = 2;
    let mut steps = 0;
    while i < word.len() || steps == 0 {
        if word.get(i) == Some(&b'-') {
            i += 1;
        }
        point(i)?;
        i += 2;
        if matches!(word.get(i), Some(b'A' | b'W')) {
            i += 1;
        }
        steps += 1;
    }
    Ok(())
}
