//! Turns (a paika or a chain of capture steps) and their steps.

use core::fmt;

use crate::{Bitboard, BoardSize, Direction, Point};

/// How a single step moves and captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum StepKind {
    /// A move to an adjacent empty point that captures nothing (only when no capture exists).
    Paika,
    /// Captures the enemy line ahead of the point moved to (`A`).
    Approach,
    /// Captures the enemy line behind the point moved from (`W`).
    Withdrawal,
}

impl StepKind {
    /// The letter written after a capture step: `A` or `W`; none for paika.
    pub const fn letter(self) -> Option<char> {
        match self {
            StepKind::Paika => None,
            StepKind::Approach => Some('A'),
            StepKind::Withdrawal => Some('W'),
        }
    }

    /// Whether the step captures.
    pub const fn is_capture(self) -> bool {
        !matches!(self, StepKind::Paika)
    }
}

impl fmt::Display for StepKind {
    /// The kind's name: `paika`, `approach` or `withdrawal`.
    ///
    /// ```
    /// use fanorona_core::StepKind;
    /// assert_eq!(StepKind::Withdrawal.to_string(), "withdrawal");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            StepKind::Paika => "paika",
            StepKind::Approach => "approach",
            StepKind::Withdrawal => "withdrawal",
        })
    }
}

/// One step of a turn: a stone moves from a point to an adjacent one.
///
/// `Debug` writes it as in turn text: `Step(d3-e3W)`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Step {
    /// The point the stone leaves.
    pub from: Point,
    /// The point the stone arrives on.
    pub to: Point,
    /// The direction of the move.
    pub dir: Direction,
    /// Paika, approach or withdrawal.
    pub kind: StepKind,
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Step({self})")
    }
}

impl fmt::Display for Step {
    /// The step in turn text: `c3-b4` (paika), `d3-e3W`, `f2-e3A`.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::standard();
    /// let turn = pos.parse_turn("d3-e3W")?;
    /// let step = turn.steps().next().unwrap();
    /// assert_eq!(step.to_string(), "d3-e3W");
    /// # Ok::<(), fanorona_core::TurnError>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)?;
        match self.kind.letter() {
            Some(c) => write!(f, "{c}"),
            None => Ok(()),
        }
    }
}

/// The most steps a turn can have: a chain never lands twice on the same point.
pub const MAX_STEPS: usize = 64;

/// A complete turn: a paika, a chain of one or more capture steps by one stone, or (in
/// Fanoron-Telo) the placement of a new stone, written as its point: `b2`.
///
/// A `Turn` is made by the move generator ([`Position::legal_turns`](crate::Position::legal_turns)),
/// by parsing turn text against a position, or by a [`TurnBuilder`](crate::TurnBuilder); it
/// records its path, the stones it captures and the board size for printing. `Display` writes
/// the literature's notation: `c3-b4` (paika), `f2-e3A`, `d2-d1W-e1A`.
///
/// # Examples
///
/// ```
/// use fanorona_core::Position;
///
/// let pos = Position::standard();
/// let turns = pos.legal_turns();
/// let text: Vec<String> = turns.iter().map(|t| t.to_string()).collect();
/// assert_eq!(text.len(), 5);
/// assert!(text.contains(&"f2-e3A".to_owned()));
/// let turn = pos.parse_turn("d3-e3W")?;
/// assert_eq!(turn.captured().count(), 1);
/// # Ok::<(), fanorona_core::TurnError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// Each step as a nibble: direction in bits 0..3, withdrawal flag in bit 3.
    path: [u64; 4],
    captured: u64,
    from: u8,
    to: u8,
    len: u8,
    capture: bool,
    size: BoardSize,
}

impl Turn {
    /// A paika.
    #[inline]
    pub(crate) fn paika(size: BoardSize, from: u8, dir: usize, to: u8) -> Turn {
        Turn {
            path: [dir as u64, 0, 0, 0],
            captured: 0,
            from,
            to,
            len: 1,
            capture: false,
            size,
        }
    }

    /// A placement (Fanoron-Telo): a new stone on the empty point `at`.
    #[inline]
    pub(crate) fn place(size: BoardSize, at: u8) -> Turn {
        Turn {
            path: [0; 4],
            captured: 0,
            from: at,
            to: at,
            len: 0,
            capture: false,
            size,
        }
    }

    /// An empty capture turn from `from`, to be extended by [`Turn::push_capture`].
    #[inline]
    pub(crate) fn start_capture(size: BoardSize, from: u8) -> Turn {
        Turn {
            path: [0; 4],
            captured: 0,
            from,
            to: from,
            len: 0,
            capture: true,
            size,
        }
    }

    /// This turn extended by one capture step.
    #[inline]
    pub(crate) fn push_capture(
        mut self,
        dir: usize,
        withdrawal: bool,
        to: u8,
        captured: u64,
    ) -> Turn {
        let i = self.len as usize;
        let nibble = dir as u64 | (u64::from(withdrawal) << 3);
        self.path[i / 16] |= nibble << ((i % 16) * 4);
        self.len += 1;
        self.to = to;
        self.captured |= captured;
        self
    }

    /// The index of the starting point (for the crate's hot loops).
    #[inline]
    pub(crate) fn start_index(&self) -> u8 {
        self.from
    }

    /// The index of the end point (for the crate's hot loops).
    #[inline]
    pub(crate) fn end_index(&self) -> u8 {
        self.to
    }

    /// The point the moving stone starts from.
    #[inline]
    pub fn from(&self) -> Point {
        Point::new(self.size, self.from)
    }

    /// The point the moving stone ends on.
    #[inline]
    pub fn to(&self) -> Point {
        Point::new(self.size, self.to)
    }

    /// Number of steps: 1 for a paika, the chain's length for a capture, 0 for a placement.
    #[inline]
    #[allow(clippy::len_without_is_empty, reason = "see is_placement")]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the turn captures (then every step captures).
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.capture
    }

    /// Whether the turn is a paika (a single non-capturing step).
    #[inline]
    pub fn is_paika(&self) -> bool {
        !self.capture && self.len == 1
    }

    /// Whether the turn places a new stone on the board (Fanoron-Telo's first turns): then
    /// [`Turn::from`] and [`Turn::to`] are both the point, and the turn has no steps.
    #[inline]
    pub fn is_placement(&self) -> bool {
        self.len == 0 && !self.capture
    }

    /// Every stone the turn captures, over all its steps.
    #[inline]
    pub fn captured(&self) -> Bitboard {
        Bitboard::from_bits(self.captured)
    }

    /// The points of the stones the turn captures, lowest index first, on the turn's own
    /// board (no board size to pass).
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let turn = Position::standard().parse_turn("f2-e3A")?;
    /// let names: Vec<String> = turn.captured_points().map(|p| p.to_string()).collect();
    /// assert_eq!(names, ["d4", "c5"]);
    /// # Ok::<(), fanorona_core::TurnError>(())
    /// ```
    #[inline]
    pub fn captured_points(&self) -> crate::Points {
        self.captured().points(self.size)
    }

    /// The board size the turn was made for.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The steps of the turn in order.
    pub fn steps(&self) -> impl ExactSizeIterator<Item = Step> + '_ {
        let geo = self.size.geometry();
        let mut at = self.from;
        (0..self.len as usize).map(move |i| {
            let nibble = (self.path[i / 16] >> ((i % 16) * 4)) & 0xf;
            let dir = Direction::from_index(nibble as usize & 7);
            let kind = if !self.capture {
                StepKind::Paika
            } else if nibble & 8 != 0 {
                StepKind::Withdrawal
            } else {
                StepKind::Approach
            };
            let from = Point::new(self.size, at);
            at = geo.neighbour_raw(at, dir.index());
            Step {
                from,
                to: Point::new(self.size, at),
                dir,
                kind,
            }
        })
    }

    /// Every point the moving stone occupies during the turn, the start included.
    pub fn path(&self) -> impl Iterator<Item = Point> + '_ {
        core::iter::once(self.from()).chain(self.steps().map(|s| s.to))
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from())?;
        for step in self.steps() {
            write!(f, "-{}", step.to)?;
            if let Some(c) = step.kind.letter() {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

/// Turns are ordered by board size, then starting point, then their steps (direction and
/// capture kind, step by step, a turn before its longer extensions), then the stones they
/// capture: a total order consistent with `Eq`, for sorted lists and ordered maps.
///
/// ```
/// use fanorona_core::Position;
///
/// let pos = Position::standard();
/// let mut turns = pos.legal_turns().to_vec();
/// turns.sort();
/// assert!(turns.windows(2).all(|w| w[0] < w[1]));
/// assert_eq!(turns[0].to_string(), "d2-e3A");
/// ```
impl Ord for Turn {
    fn cmp(&self, other: &Turn) -> core::cmp::Ordering {
        let key = |t: &Turn| {
            let steps: crate::StepList = t.steps().collect();
            let steps: smallvec::SmallVec<[(u8, u8); 16]> = steps
                .iter()
                .map(|s| (s.dir.index() as u8, s.kind as u8))
                .collect();
            (
                t.size.rows(),
                t.size.cols(),
                t.from,
                t.capture,
                steps,
                t.captured,
            )
        };
        key(self).cmp(&key(other))
    }
}

impl PartialOrd for Turn {
    fn partial_cmp(&self, other: &Turn) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Turn({self})")
    }
}

#[cfg(feature = "serde")]
impl Turn {
    /// Rebuilds a turn from its text on a board and the stones it captures: the inverse of
    /// what serde writes. Checks the shape (adjacent steps along lines, capture letters on
    /// every step of a capture and on none of a paika), not legality in a position, which
    /// [`Position::play`](crate::Position::play) checks.
    fn from_parts(size: BoardSize, text: &str, captured: &[Point]) -> Result<Turn, String> {
        let parsed = crate::TurnText::parse(text, size).map_err(|e| e.to_string())?;
        let geo = size.geometry();
        let mut mask = 0u64;
        for p in captured {
            if !size.contains(*p) {
                return Err(format!("captured point {p} is not on the {size} board"));
            }
            mask |= 1 << p.index();
        }
        let from = parsed.from().index() as u8;
        let steps = parsed.steps();
        let letters = steps.iter().filter(|(_, k)| k.is_some()).count();
        let mut turn = match (steps.len(), letters) {
            (1, 0) => {
                if mask != 0 {
                    return Err("a paika captures nothing".to_owned());
                }
                let to = steps[0].0.index() as u8;
                Turn::paika(size, from, geo.direction_raw(from, to), to)
            }
            (n, l) if n > 0 && l == n => Turn::start_capture(size, from),
            _ => {
                return Err(
                    "every step of a capture has its letter A or W, a paika has none".to_owned(),
                );
            }
        };
        let mut at = from;
        for &(to, kind) in steps {
            let to = to.index() as u8;
            if geo.adjacent[at as usize] >> to & 1 == 0 {
                return Err(format!(
                    "{} is not next to {} along a line",
                    Point::new(size, to),
                    Point::new(size, at)
                ));
            }
            if let Some(kind) = kind {
                let dir = geo.direction_raw(at, to);
                turn = turn.push_capture(dir, kind == StepKind::Withdrawal, to, 0);
            }
            at = to;
        }
        turn.captured = mask;
        Ok(turn)
    }
}

/// With serde, a turn is written with its board and the stones it captures, so that it reads
/// back by itself: `{"board": "5x9", "text": "d2-d1W-e1A", "captured": ["c1", "f1"]}`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(
    rename = "Turn",
    expecting = "a turn: its board, text and captured points",
    deny_unknown_fields
)]
struct TurnRepr {
    board: BoardSize,
    text: String,
    captured: Vec<String>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Turn {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        TurnRepr {
            board: self.size,
            text: self.to_string(),
            captured: self
                .captured()
                .points(self.size)
                .map(|p| p.to_string())
                .collect(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Turn {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Turn, D::Error> {
        use serde::de::Error;
        let repr = TurnRepr::deserialize(d)?;
        if repr.text.len() > crate::record::MAX_TURN {
            return Err(D::Error::custom(format_args!(
                "turn text longer than {} bytes",
                crate::record::MAX_TURN
            )));
        }
        if repr.captured.len() > 64 {
            return Err(D::Error::custom("more than 64 captured points"));
        }
        let captured = repr
            .captured
            .iter()
            .map(|name| {
                repr.board.parse_point(name).ok_or_else(|| {
                    D::Error::custom(format_args!(
                        "{} is not a point of the {} board",
                        crate::escape::quoted(&crate::notation::excerpt(name)),
                        repr.board
                    ))
                })
            })
            .collect::<Result<Vec<Point>, D::Error>>()?;
        Turn::from_parts(repr.board, &repr.text, &captured).map_err(D::Error::custom)
    }
}
