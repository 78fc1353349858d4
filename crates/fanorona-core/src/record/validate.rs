//! Replaying game records by the rules: the validating layer on top of the reader.

use core::fmt;

use super::{GameResult, Location, ReadError, Tag, Visitor};
use crate::{BoardSize, Color, Game, GameKind, Outcome, Position, Rules, Turn, TurnError};

/// The kind of a [`Problem`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum ProblemKind {
    /// The text does not parse (a reader error, or a turn that names no point of the board).
    Syntax,
    /// A turn that is not legal in its position (or comes after the end of the game).
    Illegal,
    /// A turn text that matches more than one legal turn.
    Ambiguous,
    /// A turn number that does not fit the position.
    TurnNumber,
    /// The result contradicts the final position or the `[Result]` tag.
    Result,
    /// A known tag with a value it does not take, or repeated.
    Tag,
}

impl ProblemKind {
    /// The kind's name as the reports write it: `syntax`, `illegal`, `ambiguous`,
    /// `turn-number`, `result`, `tag`.
    pub const fn name(self) -> &'static str {
        match self {
            ProblemKind::Syntax => "syntax",
            ProblemKind::Illegal => "illegal",
            ProblemKind::Ambiguous => "ambiguous",
            ProblemKind::TurnNumber => "turn-number",
            ProblemKind::Result => "result",
            ProblemKind::Tag => "tag",
        }
    }
}

impl fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One thing wrong with a game. It may gain fields (it is `#[non_exhaustive]`): make one with
/// [`Problem::new`] and set fields.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Problem {
    /// What kind of problem.
    pub kind: ProblemKind,
    /// Where the offending text starts.
    pub at: Location,
    /// The turn number and the side to move, for problems with a turn.
    pub turn: Option<(u32, Color)>,
    /// The offending text.
    pub text: String,
    /// What is wrong, in words (the offending text quoted).
    pub message: String,
    /// The legal turns at that point, when a turn is illegal.
    pub legal: Vec<String>,
}

impl Problem {
    /// A problem of `kind` at `at`, said by `message`, with no turn, offending text or legal
    /// turns.
    ///
    /// ```
    /// use fanorona_core::record::{Location, Problem, ProblemKind};
    ///
    /// let p = Problem::new(ProblemKind::Syntax, Location::default(), "no game here");
    /// assert_eq!(p.to_string(), "no game here");
    /// ```
    pub fn new(kind: ProblemKind, at: Location, message: impl Into<String>) -> Problem {
        Problem {
            kind,
            at,
            turn: None,
            text: String::new(),
            message: message.into(),
            legal: Vec::new(),
        }
    }
}

/// How many legal turns a problem's `Display` lists.
const LEGAL_SHOWN: usize = 20;

impl fmt::Display for Problem {
    /// `turn 7 (White): illegal turn "d2-d1W": no legal turn follows this path; legal: ...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((n, side)) = self.turn {
            let side = match side {
                Color::White => "White",
                Color::Black => "Black",
            };
            write!(f, "turn {n} ({side}): ")?;
        }
        f.write_str(&self.message)?;
        if !self.legal.is_empty() {
            let shown: Vec<&str> = self
                .legal
                .iter()
                .take(LEGAL_SHOWN)
                .map(String::as_str)
                .collect();
            write!(f, "; legal: {}", shown.join(", "))?;
            if self.legal.len() > LEGAL_SHOWN {
                write!(f, ", ... ({} in all)", self.legal.len())?;
            }
        }
        Ok(())
    }
}

/// The outcome of checking one game. It may gain fields (it is `#[non_exhaustive]`): make one
/// with [`GameReport::new`] and set fields.
#[derive(Clone, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct GameReport {
    /// The game's number in its input, from 1.
    pub game: usize,
    /// Where the game starts.
    pub start: Location,
    /// Turns replayed legally.
    pub turns: usize,
    /// The game's result: its token, else its `[Result]` tag, else `*`.
    pub result: GameResult,
    /// What the rules decide in the final position, when the replay got to the end.
    pub outcome: Option<Outcome>,
    /// Every problem found, in input order.
    pub problems: Vec<Problem>,
}

impl GameReport {
    /// The report of game `game` (from 1) starting at `start`: no turn replayed, result `*`,
    /// no problem yet.
    ///
    /// ```
    /// use fanorona_core::record::{GameReport, Location, Problem, ProblemKind};
    ///
    /// let mut report = GameReport::new(1, Location::default());
    /// assert!(report.is_valid());
    /// report.problems.push(Problem::new(ProblemKind::Syntax, Location::default(), "cut off"));
    /// assert!(!report.is_valid());
    /// ```
    pub fn new(game: usize, start: Location) -> GameReport {
        GameReport {
            game,
            start,
            turns: 0,
            result: GameResult::Unknown,
            outcome: None,
            problems: Vec::new(),
        }
    }

    /// Whether the game has no problem.
    pub fn is_valid(&self) -> bool {
        self.problems.is_empty()
    }

    /// The report of a game the reader could not read: one `syntax` problem.
    pub fn from_read_error(e: &ReadError) -> GameReport {
        GameReport {
            game: e.game,
            start: e.at,
            turns: 0,
            result: GameResult::Unknown,
            outcome: None,
            problems: vec![Problem {
                kind: ProblemKind::Syntax,
                at: e.at,
                turn: None,
                text: e.text.clone(),
                message: e.message(),
                legal: Vec::new(),
            }],
        }
    }
}

/// Why the tags do not give a starting position.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct StartError {
    /// The tag at fault: `Variant`, `Board`, `Rules` or `FEN`.
    pub tag: &'static str,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad tag [{}]: {}", self.tag, self.message)
    }
}

impl std::error::Error for StartError {}

/// The board and the game of a `[Variant]` name.
fn variant_size(name: &str) -> Option<(BoardSize, GameKind)> {
    match name.to_ascii_lowercase().as_str() {
        "fanoron-tsivy" => Some((BoardSize::STANDARD, GameKind::Capture)),
        "fanoron-dimy" => Some((BoardSize::DIMY, GameKind::Capture)),
        "fanoron-telo" => Some((BoardSize::TELO, GameKind::Telo)),
        "fanorona-3x3" => Some((BoardSize::TELO, GameKind::Capture)),
        "vela" => Some((BoardSize::STANDARD, GameKind::Vela)),
        _ => None,
    }
}

/// Whether a `[Rules]` text names the `game` option itself.
fn names_game(rules: &str) -> bool {
    rules
        .split([',', ' '])
        .any(|item| item.split('=').next().is_some_and(|n| n.trim() == "game"))
}

/// The start position from the values of `[Variant]`, `[Board]`, `[Rules]` and `[FEN]`.
fn build_start(
    variant: Option<&str>,
    board: Option<&str>,
    rules: Option<&str>,
    fen: Option<&str>,
) -> Result<Position, StartError> {
    let rules_text = rules;
    let err = |tag, message: String| StartError { tag, message };
    let by_variant = match variant {
        None => None,
        Some(v) => Some(variant_size(v).ok_or_else(|| {
            err(
                "Variant",
                format!(
                    "unknown variant {v} (known: Fanoron-Tsivy, Fanoron-Dimy, Fanoron-Telo, \
                     Fanorona-3x3, Vela)",
                    v = crate::escape::quoted(&v)
                ),
            )
        })?),
    };
    let game = by_variant.map(|(_, g)| g);
    let by_variant = by_variant.map(|(s, _)| s);
    let by_board = match board {
        None => None,
        Some(b) => Some(
            b.parse::<BoardSize>()
                .map_err(|e| err("Board", format!("{b}: {e}", b = crate::escape::quoted(&b))))?,
        ),
    };
    if let (Some(v), Some(b)) = (by_variant, by_board)
        && v != b
    {
        return Err(err(
            "Board",
            format!(
                "board {b} does not match variant {} ({v})",
                variant.unwrap_or("")
            ),
        ));
    }
    let size = by_board.or(by_variant);
    let mut rules: Rules = match rules {
        None => Rules::STANDARD,
        Some(r) => r.parse().map_err(|e| err("Rules", format!("{e}")))?,
    };
    // A record of one game never replays under another's rules: the variant names the game,
    // and a [Rules] tag that names another one is an error.
    if let Some(g) = game {
        if rules.game != g && names_game(rules_text.unwrap_or("")) {
            return Err(err(
                "Rules",
                format!(
                    "game={} does not match variant {} (game={})",
                    rules.game.name(),
                    variant.unwrap_or(""),
                    g.name()
                ),
            ));
        }
        rules.game = g;
    }
    let size = match (size, rules.game) {
        (None, GameKind::Telo) => Some(BoardSize::TELO),
        (s, _) => s,
    };
    match fen {
        None => Position::start_with(size.unwrap_or(BoardSize::STANDARD), rules)
            .map_err(|e| err("Rules", format!("{e}"))),
        Some(f) => {
            let pos = Position::from_fen_with(f, rules).map_err(|e| err("FEN", format!("{e}")))?;
            let game_named = game.is_some() || names_game(rules_text.unwrap_or(""));
            if game_named && pos.rules().game != rules.game {
                return Err(err(
                    "FEN",
                    format!(
                        "the position is one of game={}, the record's game is {}",
                        pos.rules().game.name(),
                        rules.game.name()
                    ),
                ));
            }
            match size {
                Some(s) if s != pos.size() => Err(err(
                    "FEN",
                    format!("the position is on a {} board, the game on {s}", pos.size()),
                )),
                _ => Ok(pos),
            }
        }
    }
}

/// The position a game with these tags starts from (section 4.2 of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)).
///
/// # Errors
///
/// [`StartError`] naming the tag whose value is not usable.
///
/// # Examples
///
/// ```
/// use fanorona_core::BoardSize;
/// use fanorona_core::record::{Tag, start_position};
///
/// let tags = vec![Tag { name: "Variant".into(), value: "Fanoron-Dimy".into() }];
/// assert_eq!(start_position(&tags)?.size(), BoardSize::DIMY);
/// # Ok::<(), fanorona_core::record::StartError>(())
/// ```
pub fn start_position(tags: &[Tag]) -> Result<Position, StartError> {
    let get = |name: &str| {
        tags.iter()
            .find(|t| t.name == name)
            .map(|t| t.value.as_str())
    };
    build_start(get("Variant"), get("Board"), get("Rules"), get("FEN"))
}

/// The tags validation knows, in the order of a bit mask.
const KNOWN: [&str; 11] = [
    "Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "Board", "FEN",
    "Rules",
];

/// A `[Date]` value that is not a possible date (see [`check_date`]).
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct DateError {
    /// The value.
    pub value: String,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for DateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "bad date {}: {}",
            crate::escape::quoted(&self.value),
            self.reason
        )
    }
}

impl std::error::Error for DateError {}

/// The days of a month of a year (Gregorian calendar).
const fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whether the digits `pattern` (with `?` for any digit) can be `n`.
fn fits(pattern: &[u8], n: u32) -> bool {
    let mut n = n;
    for &c in pattern.iter().rev() {
        let digit = b'0' + (n % 10) as u8;
        if c != b'?' && c != digit {
            return false;
        }
        n /= 10;
    }
    n == 0
}

/// Checks a `[Date]` value: `YYYY.MM.DD`, with `?` for unknown digits (`2024.05.??`,
/// `????.??.??`), naming a possible date of the Gregorian calendar: some year, month and day
/// that fit the known digits must exist (months 01 to 12, days 01 to the month's length,
/// February 29 only in a leap year). Section 4.2 of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md).
///
/// # Errors
///
/// [`DateError`] saying what is wrong.
///
/// # Examples
///
/// ```
/// use fanorona_core::record::check_date;
///
/// assert!(check_date("2024.05.18").is_ok());
/// assert!(check_date("2024.??.??").is_ok());
/// assert!(check_date("2024.02.29").is_ok());
/// assert!(check_date("2023.02.29").is_err());
/// assert!(check_date("2024.02.31").is_err());
/// assert!(check_date("2024.13.45").is_err());
/// assert!(check_date("18 May 2024").is_err());
/// ```
pub fn check_date(value: &str) -> Result<(), DateError> {
    let fail = |reason: String| {
        Err(DateError {
            value: value.to_owned(),
            reason,
        })
    };
    let b = value.as_bytes();
    let part = |s: &[u8]| s.iter().all(|c| c.is_ascii_digit() || *c == b'?');
    if !(b.len() == 10
        && b[4] == b'.'
        && b[7] == b'.'
        && part(&b[..4])
        && part(&b[5..7])
        && part(&b[8..]))
    {
        return fail("expected YYYY.MM.DD, with '?' for unknown digits".to_owned());
    }
    let (year, month, day) = (&b[..4], &b[5..7], &b[8..]);
    let months = || (1..=12).filter(|&m| fits(month, m));
    if months().next().is_none() {
        return fail(format!("month {} does not exist", &value[5..7]));
    }
    if !(1..=31).any(|d| fits(day, d)) {
        return fail(format!("day {} does not exist", &value[8..]));
    }
    // Some day of some month of some year must fit; February 29 needs a leap year.
    let leap_year = || (0..=9999).any(|y| fits(year, y) && days_in_month(y, 2) == 29);
    let possible = months().any(|m| {
        (1..=31).any(|d| {
            fits(day, d) && (d <= days_in_month(1, m) || (m == 2 && d == 29 && leap_year()))
        })
    });
    if possible {
        Ok(())
    } else if months().eq([2]) && fits(day, 29) {
        fail("February 29 is only in a leap year".to_owned())
    } else {
        fail(format!(
            "day {} does not exist in month {}",
            &value[8..],
            &value[5..7]
        ))
    }
}

/// A [`Visitor`] that replays each game by the rules and returns a [`GameReport`].
///
/// It checks the known tags, the syntax of each turn against the board, each turn's legality
/// (and ambiguity), the turn numbers, and the result (section 4.4 of [`docs/notation.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/notation.md)). After
/// an illegal turn the rest of the game's turns are not checked. Reuse one validator for many
/// games.
///
/// # Examples
///
/// ```
/// use fanorona_core::record::{ProblemKind, Reader, Validator};
///
/// let text = "1. f2-e3A d5-d4A 2. c3-b4 *\n";
/// let mut validator = Validator::new();
/// let report = Reader::new(text.as_bytes()).read_game(&mut validator)?.expect("a game");
/// assert_eq!(report.turns, 2);
/// let problem = &report.problems[0];
/// assert_eq!(problem.kind, ProblemKind::Illegal);
/// assert_eq!((problem.at.line, problem.at.column), (1, 21));
/// assert!(problem.to_string().starts_with("turn 2 (White): illegal turn \"c3-b4\""));
/// # Ok::<(), fanorona_core::record::ReadError>(())
/// ```
#[derive(Default, Debug)]
pub struct Validator {
    game_no: usize,
    start: Location,
    seen: u16,
    setup: [Option<(String, Location)>; 4],
    result_tag: Option<(GameResult, Location)>,
    token: Option<(GameResult, Location)>,
    /// The game as replayed so far (`None` when the tags give no usable start).
    game: Option<Game>,
    stopped: bool,
    turns: usize,
    problems: Vec<Problem>,
}

impl Validator {
    /// A validator.
    pub fn new() -> Validator {
        Validator::default()
    }

    /// The game as far as it was replayed, after [`Visitor::end_game`].
    pub fn take_game(&mut self) -> Option<Game> {
        self.game.take()
    }

    /// The current position of the replay.
    fn position(&self) -> Option<&Position> {
        self.game.as_ref().map(Game::position)
    }

    /// What the rules decide now (the game's record has no resignation or agreement yet).
    fn rules_outcome(&self) -> Option<Outcome> {
        self.game.as_ref()?.outcome()
    }

    fn problem(&mut self, kind: ProblemKind, at: Location, text: &str, message: String) {
        self.problems.push(Problem {
            kind,
            at,
            turn: None,
            text: text.to_owned(),
            message,
            legal: Vec::new(),
        });
    }
}

impl Visitor for Validator {
    type Output = GameReport;

    fn begin_game(&mut self, game: usize, at: Location) {
        self.game_no = game;
        self.start = at;
        self.seen = 0;
        self.setup = Default::default();
        self.result_tag = None;
        self.token = None;
        self.game = None;
        self.stopped = false;
        self.turns = 0;
        self.problems.clear();
    }

    fn tag(&mut self, name: &str, value: &str, at: Location) {
        let Some(k) = KNOWN.iter().position(|&n| n == name) else {
            return;
        };
        if self.seen & (1 << k) != 0 {
            self.problem(
                ProblemKind::Tag,
                at,
                value,
                format!("bad tag [{name}]: repeated (a known tag appears once per game)"),
            );
            return;
        }
        self.seen |= 1 << k;
        match name {
            "Date" => {
                if let Err(e) = check_date(value) {
                    self.problem(
                        ProblemKind::Tag,
                        at,
                        value,
                        format!(
                            "bad tag [Date {value}]: {}",
                            e.reason,
                            value = crate::escape::quoted(&value)
                        ),
                    );
                }
            }
            "Result" => match value.parse::<GameResult>() {
                Ok(r) => self.result_tag = Some((r, at)),
                Err(e) => self.problem(
                    ProblemKind::Tag,
                    at,
                    value,
                    format!("bad tag [Result]: {e}"),
                ),
            },
            "Variant" | "Board" | "Rules" | "FEN" => {
                let i = k - 7;
                self.setup[i] = Some((value.to_owned(), at));
            }
            _ => {}
        }
    }

    fn end_tags(&mut self) -> super::Control {
        let value = |i: usize| self.setup[i].as_ref().map(|(v, _)| v.as_str());
        match build_start(value(0), value(1), value(3), value(2)) {
            Ok(pos) => self.game = Some(Game::new(pos)),
            Err(e) => {
                let i = match e.tag {
                    "Variant" => 0,
                    "Board" => 1,
                    "FEN" => 2,
                    _ => 3,
                };
                let (text, at) = self.setup[i].clone().unwrap_or_default();
                self.problem(ProblemKind::Tag, at, &text, e.to_string());
                self.stopped = true;
            }
        }
        super::Control::Continue
    }

    fn turn_number(&mut self, number: u32, black: bool, at: Location) {
        if self.stopped {
            return;
        }
        let Some(pos) = self.position() else { return };
        let expected = u32::from(pos.turn_number());
        let side = pos.side_to_move();
        if number != expected || black != (side == Color::Black) {
            let dots = if black { "..." } else { "." };
            let want = if side == Color::Black { "..." } else { "." };
            let text = format!("{number}{dots}");
            let message = format!(
                "turn number {text} does not fit: the next turn is {}'s turn {expected} (\"{expected}{want}\")",
                if side == Color::White {
                    "White"
                } else {
                    "Black"
                },
                text = crate::escape::quoted(&text)
            );
            self.problems.push(Problem {
                kind: ProblemKind::TurnNumber,
                at,
                turn: Some((expected, side)),
                text,
                message,
                legal: Vec::new(),
            });
        }
    }

    fn turn(&mut self, text: &str, at: Location) {
        if self.stopped {
            return;
        }
        let Some(&pos) = self.position() else { return };
        let label = Some((u32::from(pos.turn_number()), pos.side_to_move()));
        let (kind, message, legal) = if let Some(o) = self.rules_outcome() {
            (
                ProblemKind::Illegal,
                format!(
                    "illegal turn {text}: the game is already over ({o})",
                    text = crate::escape::quoted(&text)
                ),
                Vec::new(),
            )
        } else {
            match find_turn(&pos, text) {
                Ok(turn) => {
                    if let Some(game) = self.game.as_mut() {
                        game.play_unchecked(&turn);
                    }
                    self.turns += 1;
                    return;
                }
                Err(TurnError::Syntax(e)) => (ProblemKind::Syntax, e.to_string(), Vec::new()),
                Err(e @ TurnError::Ambiguous { .. }) => {
                    (ProblemKind::Ambiguous, e.to_string(), Vec::new())
                }
                Err(e @ TurnError::Illegal { .. }) => (
                    ProblemKind::Illegal,
                    e.to_string(),
                    pos.legal_turns().iter().map(ToString::to_string).collect(),
                ),
            }
        };
        self.problems.push(Problem {
            kind,
            at,
            turn: label,
            text: text.to_owned(),
            message,
            legal,
        });
        self.stopped = true;
    }

    fn result(&mut self, result: GameResult, at: Location) {
        self.token = Some((result, at));
    }

    fn end_game(&mut self, _end: Location) -> GameReport {
        let mut result = GameResult::Unknown;
        if let Some((tag, tag_at)) = self.result_tag {
            result = tag;
            if let Some((token, at)) = self.token
                && token != tag
            {
                self.problem(
                    ProblemKind::Result,
                    at,
                    token.as_str(),
                    format!(
                        "result {token} does not match the tag [Result \"{tag}\"] (line {})",
                        tag_at.line
                    ),
                );
            }
        }
        let mut where_ = self.result_tag.map(|(_, at)| at);
        if let Some((token, at)) = self.token {
            result = token;
            where_ = Some(at);
        }
        let mut outcome = None;
        if !self.stopped && self.position().is_some() {
            outcome = self.rules_outcome();
            if let Some(o) = outcome {
                let decided = GameResult::from_outcome(&o);
                if result != GameResult::Unknown && result != decided {
                    self.problem(
                        ProblemKind::Result,
                        where_.unwrap_or(self.start),
                        result.as_str(),
                        format!(
                            "result {result} contradicts the final position: {o}, so the result is {decided}"
                        ),
                    );
                }
            }
        }
        GameReport {
            game: self.game_no,
            start: self.start,
            turns: self.turns,
            result,
            outcome,
            problems: core::mem::take(&mut self.problems),
        }
    }
}

/// Finds the legal turn a text names (one generation of the legal turns; see
/// [`Position::parse_turn`]).
fn find_turn(pos: &Position, text: &str) -> Result<Turn, TurnError> {
    pos.parse_turn(text)
}
