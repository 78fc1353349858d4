//! Turn text as in the literature: `c3-b4` (paika), `f2-e3A` (approach), `d2-d1W-e1A` (a
//! chain), read against a position.
//!
//! A turn is its path: the starting point, then each point the stone steps to, separated by
//! `-`; a capture step carries `A` (approach) or `W` (withdrawal). The dashless form used by
//! engine protocols (`d2d1We1A`) is read too. When a step can capture only one way, its letter
//! may be left out; when both are possible, leaving it out is an ambiguity error.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::{Position, TurnError};
//!
//! let pos = Position::standard();
//! assert_eq!(pos.parse_turn("d3e3W")?.to_string(), "d3-e3W");
//! assert!(matches!(pos.parse_turn("d3-e3"), Err(TurnError::Ambiguous { .. })));
//! assert!(matches!(pos.parse_turn("c3-b4"), Err(TurnError::Illegal { .. })));
//! assert!(matches!(pos.parse_turn("c3-x4"), Err(TurnError::Syntax(_))));
//! # Ok::<(), TurnError>(())
//! ```

use core::fmt;

use smallvec::SmallVec;

use crate::{BoardSize, IllegalReason, Point, Position, StepKind, Turn};

/// The syntax of a turn text, read without a position: the starting point, then each point
/// stepped to with the capture letter when one was written.
///
/// ```
/// use fanorona_core::{BoardSize, StepKind, TurnText};
///
/// let text = TurnText::parse("d2-d1W-e1", BoardSize::STANDARD)?;
/// assert_eq!(text.from().to_string(), "d2");
/// let steps: Vec<(String, Option<StepKind>)> =
///     text.steps().iter().map(|(p, k)| (p.to_string(), *k)).collect();
/// assert_eq!(steps, [("d1".to_owned(), Some(StepKind::Withdrawal)), ("e1".to_owned(), None)]);
/// # Ok::<(), fanorona_core::TurnSyntaxError>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TurnText {
    from: Point,
    steps: SmallVec<[(Point, Option<StepKind>); 8]>,
}

/// What is syntactically wrong with a turn text.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct TurnSyntaxError {
    /// Byte offset in the text where the problem is.
    pub offset: usize,
    /// What was expected there.
    pub expected: &'static str,
    /// The text that was read.
    pub text: String,
}

impl fmt::Display for TurnSyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let found = self.text.get(self.offset..).and_then(|s| s.chars().next());
        match found {
            Some(c) => write!(
                f,
                "turn {}, character {}: expected {}, found {}",
                crate::escape::quoted(&self.text),
                self.offset + 1,
                self.expected,
                crate::escape::quoted(&c)
            ),
            None => write!(
                f,
                "turn {}: expected {} after the end",
                crate::escape::quoted(&self.text),
                self.expected
            ),
        }
    }
}

impl std::error::Error for TurnSyntaxError {}

/// Why a turn text cannot be played in a position.
///
/// # Examples
///
/// ```
/// use fanorona_core::{IllegalReason, Position, TurnError};
///
/// let pos = Position::standard();
/// match pos.parse_turn("d3-e3") {
///     Err(TurnError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["d3-e3A", "d3-e3W"]),
///     other => panic!("{other:?}"),
/// }
/// match pos.parse_turn("a1-a2") {
///     Err(TurnError::Illegal { reason: IllegalReason::Occupied(p), .. }) => assert_eq!(p.to_string(), "a2"),
///     other => panic!("{other:?}"),
/// }
/// let e = pos.parse_turn("d3-x3").unwrap_err();
/// assert!(matches!(e, TurnError::Syntax(ref s) if s.offset == 3));
/// assert!(e.to_string().starts_with("turn \"d3-x3\", character 4: expected "));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum TurnError {
    /// The text is not a turn at all.
    Syntax(TurnSyntaxError),
    /// The text is a well-formed turn, but not legal in the position.
    Illegal {
        /// The text (at most its first 40 characters).
        text: String,
        /// Why.
        reason: IllegalReason,
    },
    /// More than one legal turn matches (a capture letter was left out where both captures
    /// are possible).
    Ambiguous {
        /// The text.
        text: String,
        /// The matching turns, written in full.
        candidates: Vec<String>,
    },
}

impl fmt::Display for TurnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TurnError::Syntax(e) => e.fmt(f),
            TurnError::Illegal { text, reason } => write!(
                f,
                "illegal turn {text}: {reason}",
                text = crate::escape::quoted(&text)
            ),
            TurnError::Ambiguous { text, candidates } => write!(
                f,
                "ambiguous turn {text}: could be {}",
                candidates.join(" or "),
                text = crate::escape::quoted(&text)
            ),
        }
    }
}

impl std::error::Error for TurnError {}

impl From<TurnSyntaxError> for TurnError {
    fn from(e: TurnSyntaxError) -> TurnError {
        TurnError::Syntax(e)
    }
}

impl TurnText {
    /// Reads the syntax of a turn on a board of `size`.
    ///
    /// # Errors
    ///
    /// [`TurnSyntaxError`] with the offset of the first character that does not fit.
    pub fn parse(text: &str, size: BoardSize) -> Result<TurnText, TurnSyntaxError> {
        let bytes = text.as_bytes();
        let err = |offset: usize, expected: &'static str| TurnSyntaxError {
            offset,
            expected,
            text: text.to_owned(),
        };
        let point_at = |i: usize| -> Result<Point, TurnSyntaxError> {
            match bytes.get(i..i + 2) {
                Some([f @ b'a'..=b'i', r @ b'1'..=b'9']) => size
                    .point(f - b'a', r - b'1')
                    .ok_or_else(|| err(i, "a point on the board")),
                Some([b'a'..=b'i', _]) => Err(err(i + 1, "a rank digit")),
                _ => Err(err(i, "a point such as e3")),
            }
        };
        let from = point_at(0)?;
        let mut i = 2;
        let mut steps = SmallVec::new();
        if bytes.len() == 2 {
            // A point alone: a placement (Fanoron-Telo).
            return Ok(TurnText { from, steps });
        }
        while i < bytes.len() || steps.is_empty() {
            if bytes.get(i) == Some(&b'-') {
                i += 1;
            }
            let to = point_at(i)?;
            i += 2;
            let kind = match bytes.get(i) {
                Some(b'A') => Some(StepKind::Approach),
                Some(b'W') => Some(StepKind::Withdrawal),
                _ => None,
            };
            if kind.is_some() {
                i += 1;
            }
            steps.push((to, kind));
            if steps.len() > crate::turn::MAX_STEPS {
                return Err(err(i, "the end of the turn"));
            }
        }
        Ok(TurnText { from, steps })
    }

    /// The starting point.
    pub fn from(&self) -> Point {
        self.from
    }

    /// Each point stepped to, with the capture letter when one was written; none for a
    /// placement (the text is the point alone, as in `b2`).
    pub fn steps(&self) -> &[(Point, Option<StepKind>)] {
        &self.steps
    }

    /// Whether `turn` has this path (and these capture letters where written).
    pub fn matches(&self, turn: &Turn) -> bool {
        turn.from() == self.from
            && turn.len() == self.steps.len()
            && turn
                .steps()
                .zip(&self.steps)
                .all(|(s, (to, kind))| s.to == *to && kind.is_none_or(|k| k == s.kind))
    }
}

impl Position {
    /// Reads turn text and finds the legal turn it names.
    ///
    /// # Errors
    ///
    /// [`TurnError::Syntax`] when the text is not a turn, [`TurnError::Illegal`] when it is
    /// not legal here, [`TurnError::Ambiguous`] when a left-out capture letter matters.
    pub fn parse_turn(&self, text: &str) -> Result<Turn, TurnError> {
        let parsed = TurnText::parse(text.trim(), self.size())?;
        if parsed.steps.is_empty() && self.rules.game != crate::GameKind::Telo {
            return Err(TurnError::Syntax(TurnSyntaxError {
                offset: 2,
                expected: "a step such as -e3 (a point alone is a Fanoron-Telo placement)",
                text: text.trim().to_owned(),
            }));
        }
        let mut found: SmallVec<[Turn; 2]> = SmallVec::new();
        self.for_each_turn_from(parsed.from, |t| {
            if parsed.matches(&t) {
                found.push(t);
            }
        });
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(TurnError::Illegal {
                text: excerpt(text.trim()),
                reason: self.illegal_reason(parsed.from, &parsed.steps),
            }),
            _ => Err(TurnError::Ambiguous {
                text: text.trim().to_owned(),
                candidates: found.iter().map(Turn::to_string).collect(),
            }),
        }
    }
}

/// At most the first 40 characters of a text quoted in an error, then `...`.
pub(crate) fn excerpt(text: &str) -> String {
    match text.char_indices().nth(40) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text.to_owned(),
    }
}
