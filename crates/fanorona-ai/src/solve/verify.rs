//! The independent checker of certificates (`fanorona verify-proof`).
//!
//! It trusts nothing of the solver: it reads the certificate format of [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md) with
//! its own parser and generates turns with [`fanorona_core::reference`], the plain-array move
//! generator that shares no code with the fast one (this module uses nothing else of the
//! workspace, and none of the solver's code).
//!
//! It reads the file twice, streaming, one line at a time:
//!
//! 1. the header, the checksum (FNV-1a 64 of every byte before the `end` line) and every
//!    strategy position, kept as 24 bytes each (two stone masks and a line number) in one
//!    sorted array: duplicates are found there;
//! 2. each strategy line: its turn must be legal in its position, and every reply of the
//!    opponent must lead to a position of the same strategy (in an `ordered` strategy, one on
//!    an earlier line, which proves that the strategy has no cycle).
//!
//! With the start's conditions (a strategy for the side to move contains the start; every
//! reply from the start is covered by a strategy of the other side) and the claim's (a win:
//! the side to move's ordered strategy; a loss: the opponent's; a draw: a strategy for each
//! side; a bound, `win-or-draw` or `draw-or-loss`: one strategy, for the side to move or the
//! other), this proves the claimed value under the solver's rules: an ordered strategy ends the
//! game in the winner's favour within as many of its turns as it has lines, and a closed one
//! never loses.
//!
//! Memory: 24 bytes a position of the certificate, plus one line and one position's turns at a
//! time; [`Limits::max_bytes`] refuses a certificate that would need more, before reading its
//! positions, and so does a count in a strategy's header larger than the rest of the file can
//! hold (6 bytes a position line at least): nothing is reserved on a header's word alone, and
//! what is reserved is reserved fallibly (an allocation that fails is a
//! [`ErrorKind::MemoryLimit`] error, never an abort).
//!
//! Only the capture game is checked: a `start` line naming another game (`vela`, `telo`) and a
//! `rules` line with another `game` are refused ([`ErrorKind::Rules`]), and so is a `start`
//! with anything else after the side to move ([`ErrorKind::Format`]): nothing is read as the
//! capture game that says it is not.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::verify::{self, ErrorKind, Limits};
//!
//! // 3x3, Black to move without a turn: White has won already (an empty ordered strategy).
//! let body = "fanorona-certificate 1\nboard 3x3\n\
//!     rules opening-restriction=off,compulsory-continuation=off,stuck=loses,repetition=3,no-capture-limit=off\n\
//!     start 3/3/WW1 b\nvalue loss\nstrategy white 0 ordered\n";
//! let text = format!("{body}end {:016x}\n", verify::fnv1a(body.as_bytes()));
//! let report = verify::verify(std::io::Cursor::new(text.as_bytes()), &Limits::default()).unwrap();
//! assert_eq!(report.value, "loss");
//! let bad = text.replace("value loss", "value draw");
//! let err = verify::verify(std::io::Cursor::new(bad.as_bytes()), &Limits::default()).unwrap_err();
//! assert_eq!(err.kind, ErrorKind::Checksum);
//! ```

use core::fmt;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use fanorona_core::reference::{Board, Cell};

/// The longest line accepted, in bytes.
pub const MAX_LINE: usize = 4096;

/// The fewest bytes a position line can take (`0:0 T` and its new line): header counts are
/// bounded by the file's size with it before anything is reserved.
const MIN_ENTRY_LINE: u64 = 6;

/// Bytes of memory per strategy position.
pub const BYTES_PER_POSITION: u64 = 24;

/// Limits of a check.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Limits {
    /// Most bytes the positions of the certificate may take (24 a position).
    pub max_bytes: u64,
}

impl Default for Limits {
    /// 4 GiB.
    fn default() -> Limits {
        Limits { max_bytes: 4 << 30 }
    }
}

impl Limits {
    /// These limits with at most `bytes` of positions.
    ///
    /// ```
    /// let limits = fanorona_ai::solve::verify::Limits::default().with_max_bytes(1 << 20);
    /// assert_eq!(limits.max_bytes, 1 << 20);
    /// ```
    pub fn with_max_bytes(mut self, bytes: u64) -> Limits {
        self.max_bytes = bytes;
        self
    }
}

/// What a checked certificate proves.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Report {
    /// The board, such as `5x5`.
    pub board: String,
    /// The start position as written in the certificate.
    pub start: String,
    /// `win`, `draw`, `loss`, `win-or-draw` or `draw-or-loss` for the start's side to move.
    pub value: String,
    /// Each strategy: side (`white` or `black`), positions, ordered.
    pub strategies: Vec<(String, u64, bool)>,
    /// Positions in all strategies.
    pub positions: u64,
    /// Replies checked (turns of the opponent after a strategy's turn).
    pub replies: u64,
    /// Bytes of the file.
    pub bytes: u64,
    /// Bytes of memory the positions took.
    pub memory: u64,
}

/// The kind of a [`VerifyError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    Io,
    /// A line does not follow the format.
    Format,
    /// The checksum of the `end` line does not match the contents.
    Checksum,
    /// The rules are not the solver's default rules.
    Rules,
    /// The strategies do not match the claimed value.
    Claim,
    /// A position appears twice in the strategies.
    Duplicate,
    /// A strategy's turn is not legal in its position.
    IllegalTurn,
    /// A strategy's position has no legal turn: its side has lost there.
    LostPosition,
    /// A reply leads to a position no strategy line covers.
    MissingReply,
    /// In an ordered strategy, a reply leads to a position on the same or a later line (the
    /// strategy could go round a cycle).
    NotEarlier,
    /// The start position is not covered.
    Start,
    /// The certificate needs more memory than allowed.
    MemoryLimit,
}

/// Why a certificate was rejected, with the line (1-based) where known.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct VerifyError {
    /// What kind of problem.
    pub kind: ErrorKind,
    /// The line of the certificate, when the problem has one.
    pub line: Option<u64>,
    /// The explanation.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for VerifyError {}

fn err(kind: ErrorKind, line: Option<u64>, message: impl Into<String>) -> VerifyError {
    VerifyError {
        kind,
        line,
        message: message.into(),
    }
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a, 64 bits, of `bytes`: the checksum of the `end` line.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv_continue(FNV_OFFSET, bytes)
}

fn fnv_continue(mut hash: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// Reads lines of at most [`MAX_LINE`] bytes, hashing them and counting lines and bytes.
struct Lines<R: Read> {
    r: BufReader<R>,
    buf: Vec<u8>,
    line: u64,
    bytes: u64,
    hash: u64,
}

impl<R: Read> Lines<R> {
    fn new(r: R) -> Lines<R> {
        Lines {
            r: BufReader::with_capacity(1 << 16, r),
            buf: Vec::with_capacity(256),
            line: 0,
            bytes: 0,
            hash: FNV_OFFSET,
        }
    }

    /// The next line without its newline; `None` at the end of the file. `hash` says whether
    /// the line counts in the checksum.
    fn next(&mut self, hash: bool) -> Result<Option<&str>, VerifyError> {
        self.buf.clear();
        let n = (&mut self.r)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| err(ErrorKind::Io, Some(self.line + 1), e.to_string()))?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        self.bytes += n as u64;
        if self.buf.last() != Some(&b'\n') {
            return Err(err(
                ErrorKind::Format,
                Some(self.line),
                if n > MAX_LINE {
                    format!("line longer than {MAX_LINE} bytes")
                } else {
                    "the file ends in the middle of a line (truncated?)".to_owned()
                },
            ));
        }
        if hash {
            self.hash = fnv_continue(self.hash, &self.buf);
        }
        self.buf.pop();
        std::str::from_utf8(&self.buf)
            .map(Some)
            .map_err(|_| err(ErrorKind::Format, Some(self.line), "not UTF-8 text"))
    }

    fn expect(&mut self, what: &str) -> Result<String, VerifyError> {
        let line = self.line + 1;
        match self.next(true)? {
            Some(l) => Ok(l.to_owned()),
            None => Err(err(
                ErrorKind::Format,
                Some(line),
                format!("the file ends where {what} should be"),
            )),
        }
    }
}

/// The header of a certificate.
struct Header {
    rows: usize,
    cols: usize,
    start: Board,
    start_text: String,
    value: String,
}

/// A strategy's header line.
struct Section {
    side: Cell,
    count: u64,
    ordered: bool,
}

/// A position of a strategy: White's stones, Black's stones with the side to move in bit 63,
/// and its line.
#[derive(Clone, Copy)]
struct Entry {
    white: u64,
    black: u64,
    line: u32,
}

fn side_name(c: Cell) -> &'static str {
    match c {
        Cell::White => "White",
        Cell::Black => "Black",
        Cell::Empty => "nobody",
    }
}

fn read_header<R: Read>(lines: &mut Lines<R>) -> Result<Header, VerifyError> {
    let magic = lines.expect("the first line")?;
    if magic != "fanorona-certificate 1" {
        return Err(err(
            ErrorKind::Format,
            Some(1),
            format!(
                "not a certificate of version 1: {magic} instead of \"fanorona-certificate 1\"",
                magic = fanorona_core::escape::quoted(&magic)
            ),
        ));
    }
    let field = |lines: &mut Lines<R>, name: &str| -> Result<(String, u64), VerifyError> {
        let l = lines.expect(name)?;
        let line = lines.line;
        match l.strip_prefix(name).and_then(|r| r.strip_prefix(' ')) {
            Some(v) => Ok((v.to_owned(), line)),
            None => Err(err(
                ErrorKind::Format,
                Some(line),
                format!(
                    "expected \"{name} ...\", found {l}",
                    l = fanorona_core::escape::quoted(&l)
                ),
            )),
        }
    };
    let (board, line) = field(lines, "board")?;
    let dims: Option<(usize, usize)> = board
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    let Some((rows, cols)) = dims else {
        return Err(err(
            ErrorKind::Format,
            Some(line),
            format!(
                "board {board} is not ROWSxCOLUMNS",
                board = fanorona_core::escape::quoted(&board)
            ),
        ));
    };
    let odd = |n: usize| (3..=9).contains(&n) && n % 2 == 1;
    if !odd(rows)
        || !odd(cols)
        || rows * cols > 63
        || Board::new(rows, cols, vec![Cell::Empty; rows * cols], Cell::White).is_err()
    {
        return Err(err(
            ErrorKind::Format,
            Some(line),
            format!("board {board} is not supported (odd sizes 3 to 9, at most 63 points)"),
        ));
    }
    let (rules, line) = field(lines, "rules")?;
    check_rules(&rules).map_err(|m| err(ErrorKind::Rules, Some(line), m))?;
    let (start_text, line) = field(lines, "start")?;
    check_start(&start_text).map_err(|(kind, m)| err(kind, Some(line), m))?;
    let start = Board::from_fen(&start_text)
        .map_err(|e| err(ErrorKind::Format, Some(line), format!("start: {e}")))?;
    if (start.rows(), start.cols()) != (rows, cols) {
        return Err(err(
            ErrorKind::Format,
            Some(line),
            format!(
                "the start is a {}x{} position on a {board} board",
                start.rows(),
                start.cols()
            ),
        ));
    }
    let (value, line) = field(lines, "value")?;
    if !matches!(
        value.as_str(),
        "win" | "draw" | "loss" | "win-or-draw" | "draw-or-loss"
    ) {
        return Err(err(
            ErrorKind::Format,
            Some(line),
            format!(
                "value {value} is not win, draw, loss, win-or-draw or draw-or-loss",
                value = fanorona_core::escape::quoted(&value)
            ),
        ));
    }
    Ok(Header {
        rows,
        cols,
        start,
        start_text,
        value,
    })
}

/// The start must be exactly the board and the side to move: the checker knows only the
/// capture game, so a game word (`vela`, `telo`) or anything else after the side is refused
/// rather than ignored (counters play no part under the checked rules, and the format has none).
fn check_start(text: &str) -> Result<(), (ErrorKind, String)> {
    let fields: Vec<&str> = text.split(' ').collect();
    if let Some(game) = fields
        .iter()
        .skip(1)
        .find(|f| matches!(**f, "vela" | "telo"))
    {
        return Err((
            ErrorKind::Rules,
            format!(
                "start: the game {game}: certificates are of the capture game only, the only game \
             the checker knows",
                game = fanorona_core::escape::quoted(&game)
            ),
        ));
    }
    if fields.len() != 2 {
        return Err((
            ErrorKind::Format,
            format!(
                "start: {text} is not the board and the side to move separated by one space (a \
             certificate's start is of the capture game, without counters or other fields)",
                text = fanorona_core::escape::quoted(&text)
            ),
        ));
    }
    Ok(())
}

/// The rules must be the solver's: no opening restriction, no compulsory continuation, stuck
/// loses, no no-capture limit, the capture game; the repetition count (2 to 255, or off) does
/// not matter (see [`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md)).
fn check_rules(text: &str) -> Result<(), String> {
    let required = [
        ("opening-restriction", "off"),
        ("compulsory-continuation", "off"),
        ("stuck", "loses"),
        ("no-capture-limit", "off"),
    ];
    let mut seen = [false; 4];
    for pair in text.split(',') {
        let (name, value) = pair.split_once('=').ok_or_else(|| {
            format!(
                "rules: {pair} is not NAME=VALUE",
                pair = fanorona_core::escape::quoted(&pair)
            )
        })?;
        if name == "repetition" {
            let valid = value == "off" || value.parse::<u8>().is_ok_and(|n| n >= 2);
            if !valid {
                return Err(format!(
                    "rules: repetition={value}: not a count from 2 to 255 nor off"
                ));
            }
            continue;
        }
        if name == "game" {
            if value == "capture" {
                continue;
            }
            return Err(format!(
                "rules: game={value}: certificates are of the capture game only, the only game \
                 the checker knows"
            ));
        }
        let Some(i) = required.iter().position(|r| r.0 == name) else {
            return Err(format!(
                "rules: unknown option {name}",
                name = fanorona_core::escape::quoted(&name)
            ));
        };
        if value != required[i].1 {
            return Err(format!(
                "rules: {name}={value}, but certificates are checked under {name}={}",
                required[i].1
            ));
        }
        seen[i] = true;
    }
    if let Some(i) = seen.iter().position(|s| !s) {
        return Err(format!("rules: {} is not given", required[i].0));
    }
    Ok(())
}

/// A strategy's header line, or `None` for the `end` line (returned with its checksum).
fn parse_section(text: &str, line: u64) -> Result<Result<Section, u64>, VerifyError> {
    if let Some(hex) = text.strip_prefix("end ") {
        if hex.len() != 16 {
            return Err(err(
                ErrorKind::Format,
                Some(line),
                "the end line's checksum must be 16 hexadecimal digits",
            ));
        }
        return u64::from_str_radix(hex, 16)
            .map(Err)
            .map_err(|_| err(ErrorKind::Format, Some(line), "bad checksum digits"));
    }
    let parts: Vec<&str> = text.split(' ').collect();
    let bad = || {
        err(
            ErrorKind::Format,
            Some(line),
            format!(
                "expected \"strategy white|black COUNT ordered|closed\" or \"end CHECKSUM\", found {text}",
                text = fanorona_core::escape::quoted(&text)
            ),
        )
    };
    if parts.len() != 4 || parts[0] != "strategy" {
        return Err(bad());
    }
    let side = match parts[1] {
        "white" => Cell::White,
        "black" => Cell::Black,
        _ => return Err(bad()),
    };
    let count: u64 = parts[2].parse().map_err(|_| bad())?;
    let ordered = match parts[3] {
        "ordered" => true,
        "closed" => false,
        _ => return Err(bad()),
    };
    Ok(Ok(Section {
        side,
        count,
        ordered,
    }))
}

/// Parses `WHITE:BLACK TURN` into the masks and the turn text.
fn parse_entry(text: &str, line: u64, points: usize) -> Result<(u64, u64, &str), VerifyError> {
    let bad = |m: String| err(ErrorKind::Format, Some(line), m);
    let (code, turn) = text.split_once(' ').ok_or_else(|| {
        bad(format!(
            "expected \"WHITE:BLACK TURN\", found {text}",
            text = fanorona_core::escape::quoted(&text)
        ))
    })?;
    if turn.is_empty() || turn.contains(' ') {
        return Err(bad(format!(
            "expected one turn after the position, found {turn}",
            turn = fanorona_core::escape::quoted(&turn)
        )));
    }
    let (w, b) = code.split_once(':').ok_or_else(|| {
        bad(format!(
            "position {code} is not WHITE:BLACK",
            code = fanorona_core::escape::quoted(&code)
        ))
    })?;
    let hex = |s: &str| {
        if s.is_empty() || s.len() > 16 {
            None
        } else {
            u64::from_str_radix(s, 16).ok()
        }
    };
    let (Some(w), Some(b)) = (hex(w), hex(b)) else {
        return Err(bad(format!(
            "position {code}: masks must be 1 to 16 hexadecimal digits",
            code = fanorona_core::escape::quoted(&code)
        )));
    };
    let outside = !((1u64 << points) - 1);
    if (w | b) & outside != 0 {
        return Err(bad(format!(
            "position {code} has stones off the board",
            code = fanorona_core::escape::quoted(&code)
        )));
    }
    if w & b != 0 {
        return Err(bad(format!(
            "position {code} has two stones on one point",
            code = fanorona_core::escape::quoted(&code)
        )));
    }
    Ok((w, b, turn))
}

fn key_of(board: &Board) -> (u64, u64) {
    let mut w = 0u64;
    let mut b = 0u64;
    for (i, c) in board.cells().iter().enumerate() {
        match c {
            Cell::White => w |= 1 << i,
            Cell::Black => b |= 1 << i,
            Cell::Empty => {}
        }
    }
    if board.side() == Cell::Black {
        b |= 1 << 63;
    }
    (w, b)
}

fn board_of(h: &Header, w: u64, b: u64, side: Cell) -> Board {
    let cells = (0..h.rows * h.cols)
        .map(|i| {
            if w >> i & 1 == 1 {
                Cell::White
            } else if b >> i & 1 == 1 {
                Cell::Black
            } else {
                Cell::Empty
            }
        })
        .collect();
    Board::new(h.rows, h.cols, cells, side).expect("the size was checked")
}

fn code(board: &Board) -> String {
    let (w, b) = key_of(board);
    format!(
        "{w:x}:{:x} ({} to move)",
        b & !(1 << 63),
        side_name(board.side())
    )
}

/// The positions of all strategies, sorted, for exact look-ups.
struct Index {
    entries: Vec<Entry>,
}

impl Index {
    fn find(&self, board: &Board) -> Option<u32> {
        let (w, b) = key_of(board);
        self.entries
            .binary_search_by(|e| (e.white, e.black).cmp(&(w, b)))
            .ok()
            .map(|i| self.entries[i].line)
    }
}

/// Checks the certificate read from `file`.
///
/// # Errors
///
/// [`VerifyError`] for a certificate that does not prove its claim, or cannot be read.
pub fn verify_file(file: &Path, limits: &Limits) -> Result<Report, VerifyError> {
    // Not a FIFO, a socket or a device: a FIFO would block the open, and none can be read
    // twice. (A directory fails on its first read, with the system's own words.)
    if let Ok(meta) = std::fs::metadata(file)
        && !meta.is_file()
        && !meta.is_dir()
    {
        return Err(err(
            ErrorKind::Io,
            None,
            format!(
                "cannot open {}: not a regular file (a certificate is read twice, from a \
                 file): refused without opening it",
                file.display()
            ),
        ));
    }
    let f = File::open(file).map_err(|e| {
        err(
            ErrorKind::Io,
            None,
            format!("cannot open {}: {e}", file.display()),
        )
    })?;
    verify(f, limits)
}

/// Checks a certificate read (twice, from the beginning) from `input`.
///
/// # Errors
///
/// [`VerifyError`] for a certificate that does not prove its claim, or cannot be read.
pub fn verify<R: Read + Seek>(mut input: R, limits: &Limits) -> Result<Report, VerifyError> {
    // The file's length bounds what its header counts may reserve.
    let file_len = input
        .seek(SeekFrom::End(0))
        .and_then(|n| input.seek(SeekFrom::Start(0)).map(|_| n))
        .map_err(|e| err(ErrorKind::Io, None, e.to_string()))?;
    // Pass 1: header, positions, checksum.
    let mut lines = Lines::new(&mut input);
    let h = read_header(&mut lines)?;
    let mut sections: Vec<Section> = Vec::new();
    let mut entries: Vec<Entry> = Vec::new();
    let points = h.rows * h.cols;
    let (hash, expected_hash) = loop {
        let line = lines.line + 1;
        let before = lines.hash;
        let head = lines.expect("a strategy or the end line")?;
        let section = match parse_section(&head, line)? {
            Ok(s) => s,
            // The end line itself is not part of the checksum.
            Err(checksum) => break (before, checksum),
        };
        if sections.iter().any(|s| s.side == section.side) {
            return Err(err(
                ErrorKind::Claim,
                Some(line),
                format!("a second strategy for {}", side_name(section.side)),
            ));
        }
        let needed = (entries.len() as u64)
            .saturating_add(section.count)
            .saturating_mul(BYTES_PER_POSITION);
        if needed > limits.max_bytes {
            return Err(err(
                ErrorKind::MemoryLimit,
                Some(line),
                format!(
                    "the certificate's positions need {needed} bytes, more than the limit of {}",
                    limits.max_bytes
                ),
            ));
        }
        // Never reserve more than the rest of the file can hold: a position line has at
        // least MIN_ENTRY_LINE bytes.
        let room = file_len.saturating_sub(lines.bytes) / MIN_ENTRY_LINE;
        if section.count > room {
            return Err(err(
                ErrorKind::Format,
                Some(line),
                format!(
                    "the strategy announces {} positions, but the {} bytes left in the file hold \
                     at most {room} position lines",
                    section.count,
                    file_len.saturating_sub(lines.bytes)
                ),
            ));
        }
        // Within the file's size and the limit; the allocation may still fail.
        usize::try_from(section.count)
            .ok()
            .and_then(|n| entries.try_reserve_exact(n).ok())
            .ok_or_else(|| {
                err(
                    ErrorKind::MemoryLimit,
                    Some(line),
                    format!(
                        "cannot allocate {} bytes for the strategy's positions",
                        section.count.saturating_mul(BYTES_PER_POSITION)
                    ),
                )
            })?;
        for _ in 0..section.count {
            let text = lines.expect("a strategy position")?;
            let line = lines.line;
            if line > u64::from(u32::MAX) {
                return Err(err(ErrorKind::MemoryLimit, Some(line), "too many lines"));
            }
            let (w, b, _) = parse_entry(&text, line, points)?;
            let side_bit = if section.side == Cell::Black {
                1 << 63
            } else {
                0
            };
            entries.push(Entry {
                white: w,
                black: b | side_bit,
                line: line as u32,
            });
        }
        sections.push(section);
    };
    let end_line = lines.line;
    let bytes = lines.bytes;
    if lines.next(false)?.is_some() {
        return Err(err(
            ErrorKind::Format,
            Some(end_line + 1),
            "text after the end line",
        ));
    }
    if hash != expected_hash {
        return Err(err(
            ErrorKind::Checksum,
            Some(end_line),
            format!(
                "checksum mismatch: the contents hash to {hash:016x}, the end line says {expected_hash:016x} (the file was altered or damaged)"
            ),
        ));
    }
    entries.sort_unstable_by_key(|e| (e.white, e.black));
    if let Some(w) = entries
        .windows(2)
        .find(|w| (w[0].white, w[0].black) == (w[1].white, w[1].black))
    {
        let (a, b) = (w[0].line.min(w[1].line), w[0].line.max(w[1].line));
        return Err(err(
            ErrorKind::Duplicate,
            Some(u64::from(b)),
            format!("the position of line {a} appears again"),
        ));
    }
    let index = Index { entries };

    // The claim and the start.
    let mover = h.start.side();
    let sides: Vec<Cell> = sections.iter().map(|s| s.side).collect();
    let claim_ok = match h.value.as_str() {
        "win" => sides == [mover] && sections[0].ordered,
        "loss" => sides == [mover.other()] && sections[0].ordered,
        "win-or-draw" => sides == [mover],
        "draw-or-loss" => sides == [mover.other()],
        _ => sides.len() == 2,
    };
    if !claim_ok {
        return Err(err(
            ErrorKind::Claim,
            None,
            format!(
                "a {} for {} needs {}",
                h.value,
                side_name(mover),
                match h.value.as_str() {
                    "win" => format!("one ordered strategy, for {}", side_name(mover)),
                    "loss" => format!("one ordered strategy, for {}", side_name(mover.other())),
                    "win-or-draw" => format!("one strategy, for {}", side_name(mover)),
                    "draw-or-loss" => format!("one strategy, for {}", side_name(mover.other())),
                    _ => "a strategy for each side".to_owned(),
                }
            ),
        ));
    }
    let start_turns = h.start.turns();
    for s in &sections {
        if s.side == mover {
            if index.find(&h.start).is_none() {
                return Err(err(
                    ErrorKind::Start,
                    None,
                    format!(
                        "the start {} is not in {}'s strategy",
                        h.start_text,
                        side_name(s.side)
                    ),
                ));
            }
        } else {
            for t in &start_turns {
                if index.find(&t.after).is_none() {
                    return Err(err(
                        ErrorKind::MissingReply,
                        None,
                        format!(
                            "{}'s strategy does not cover the start's turn {}, which leads to {}",
                            side_name(s.side),
                            t.text,
                            code(&t.after)
                        ),
                    ));
                }
            }
        }
    }

    // Pass 2: every line's turn and every reply.
    drop(lines);
    input
        .seek(SeekFrom::Start(0))
        .map_err(|e| err(ErrorKind::Io, None, e.to_string()))?;
    let mut lines = Lines::new(&mut input);
    read_header(&mut lines)?;
    let mut replies = 0u64;
    for s in &sections {
        lines.expect("a strategy")?;
        for _ in 0..s.count {
            let text = lines.expect("a strategy position")?;
            let line = lines.line;
            let (w, b, turn) = parse_entry(&text, line, points)?;
            let board = board_of(&h, w, b, s.side);
            let turns = board.turns();
            if turns.is_empty() {
                return Err(err(
                    ErrorKind::LostPosition,
                    Some(line),
                    format!(
                        "{} has no legal turn in {}: a lost position",
                        side_name(s.side),
                        code(&board)
                    ),
                ));
            }
            let Some(chosen) = turns.iter().find(|t| t.text == turn) else {
                let legal: Vec<&str> = turns.iter().map(|t| t.text.as_str()).collect();
                return Err(err(
                    ErrorKind::IllegalTurn,
                    Some(line),
                    format!(
                        "{turn} is not a legal turn in {}; the legal turns are {}",
                        code(&board),
                        legal.join(" ")
                    ),
                ));
            };
            for reply in chosen.after.turns() {
                replies += 1;
                match index.find(&reply.after) {
                    None => {
                        return Err(err(
                            ErrorKind::MissingReply,
                            Some(line),
                            format!(
                                "after {turn}, the reply {} leads to {}, which the strategy does not cover",
                                reply.text,
                                code(&reply.after)
                            ),
                        ));
                    }
                    Some(at) if s.ordered && u64::from(at) >= line => {
                        return Err(err(
                            ErrorKind::NotEarlier,
                            Some(line),
                            format!(
                                "after {turn}, the reply {} leads to the position of line {at}, not an earlier line: an ordered strategy must refer only backwards, or it could go round a cycle",
                                reply.text
                            ),
                        ));
                    }
                    Some(_) => {}
                }
            }
        }
    }
    if lines.hash != hash {
        return Err(err(
            ErrorKind::Io,
            None,
            "the file changed between the two passes",
        ));
    }
    Ok(Report {
        board: format!("{}x{}", h.rows, h.cols),
        start: h.start_text,
        value: h.value,
        strategies: sections
            .iter()
            .map(|s| (side_name(s.side).to_ascii_lowercase(), s.count, s.ordered))
            .collect(),
        positions: index.entries.len() as u64,
        replies,
        bytes,
        memory: index.entries.len() as u64 * BYTES_PER_POSITION,
    })
}
