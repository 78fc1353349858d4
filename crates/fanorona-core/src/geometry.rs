//! Board sizes, points, directions and the neighbour tables of every supported board.

use core::fmt;
use core::str::FromStr;

use crate::Bitboard;

/// The size of a board: an odd number of rows (ranks) and columns (files), each from 3 to 9,
/// with at most 64 points.
///
/// Sizes are written rows x columns as in the literature: the standard board of
/// Fanoron-Tsivy is `5x9` (5 ranks, 9 files).
///
/// # Examples
///
/// ```
/// use fanorona_core::BoardSize;
///
/// let size: BoardSize = "5x9".parse()?;
/// assert_eq!(size, BoardSize::STANDARD);
/// assert_eq!((size.rows(), size.cols(), size.len()), (5, 9, 45));
/// assert!("9x9".parse::<BoardSize>().is_err()); // 81 points do not fit 64
/// # Ok::<(), fanorona_core::SizeError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct BoardSize {
    index: u8,
}

/// The supported (rows, columns) pairs, in the order of [`BoardSize::ALL`].
const SIZES: [(u8, u8); 15] = [
    (5, 9),
    (5, 5),
    (3, 3),
    (3, 5),
    (5, 3),
    (3, 7),
    (7, 3),
    (5, 7),
    (7, 5),
    (3, 9),
    (9, 3),
    (7, 7),
    (7, 9),
    (9, 7),
    (9, 5),
];

impl BoardSize {
    /// Fanoron-Tsivy, the standard game: 5 ranks by 9 files.
    pub const STANDARD: BoardSize = BoardSize { index: 0 };
    /// Fanoron-Dimy: 5 by 5.
    pub const DIMY: BoardSize = BoardSize { index: 1 };
    /// The 3 by 3 board (Fanoron-Telo's board, played here as the capture game).
    pub const TELO: BoardSize = BoardSize { index: 2 };

    /// Every supported size, the standard board first.
    pub const ALL: [BoardSize; 15] = {
        let mut all = [BoardSize { index: 0 }; 15];
        let mut i = 0;
        while i < 15 {
            all[i] = BoardSize { index: i as u8 };
            i += 1;
        }
        all
    };

    /// The board with `rows` ranks and `cols` files.
    ///
    /// # Errors
    ///
    /// [`SizeError`] when either count is even, outside 3..=9, or the board has more than 64
    /// points (9x9).
    pub const fn new(rows: u8, cols: u8) -> Result<BoardSize, SizeError> {
        let mut i = 0;
        while i < SIZES.len() {
            if SIZES[i].0 == rows && SIZES[i].1 == cols {
                return Ok(BoardSize { index: i as u8 });
            }
            i += 1;
        }
        Err(SizeError { rows, cols })
    }

    /// Number of ranks (rows), counted bottom to top.
    #[inline]
    pub const fn rows(self) -> u8 {
        SIZES[self.index as usize].0
    }

    /// Number of files (columns), counted left to right.
    #[inline]
    pub const fn cols(self) -> u8 {
        SIZES[self.index as usize].1
    }

    /// Number of points on the board.
    #[inline]
    #[allow(clippy::len_without_is_empty, reason = "a board is never empty")]
    pub const fn len(self) -> usize {
        self.rows() as usize * self.cols() as usize
    }

    /// A small number unique to this size (its position in [`BoardSize::ALL`]).
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// The neighbour tables of this size.
    #[inline]
    pub fn geometry(self) -> &'static Geometry {
        &GEOMETRIES[self.index as usize]
    }

    /// The point on `file` (0 = `a`) and `rank` (0 = `1`), if it is on the board.
    ///
    /// ```
    /// use fanorona_core::BoardSize;
    /// let size = BoardSize::STANDARD;
    /// assert_eq!(size.point(4, 2).unwrap().to_string(), "e3");
    /// assert_eq!(size.point(9, 0), None);
    /// ```
    #[inline]
    pub const fn point(self, file: u8, rank: u8) -> Option<Point> {
        if file < self.cols() && rank < self.rows() {
            Some(Point {
                index: rank * self.cols() + file,
                size: self,
            })
        } else {
            None
        }
    }

    /// The point with this index (`rank * columns + file`), if it is on the board.
    ///
    /// ```
    /// use fanorona_core::BoardSize;
    /// let size = BoardSize::DIMY;
    /// assert_eq!(size.point_at(7).map(|p| p.to_string()), Some("c2".to_owned()));
    /// assert_eq!(size.point_at(25), None);
    /// ```
    #[inline]
    pub const fn point_at(self, index: usize) -> Option<Point> {
        if index < self.len() {
            Some(Point {
                index: index as u8,
                size: self,
            })
        } else {
            None
        }
    }

    /// Whether `point` is a point of this board (a point of another board never is).
    #[inline]
    pub const fn contains(self, point: Point) -> bool {
        point.size.index == self.index
    }

    /// Parses a point name such as `e3` on this board.
    ///
    /// ```
    /// use fanorona_core::BoardSize;
    /// let size = BoardSize::DIMY;
    /// assert_eq!(size.parse_point("e5"), size.point(4, 4));
    /// assert_eq!(size.parse_point("f1"), None);
    /// ```
    pub fn parse_point(self, name: &str) -> Option<Point> {
        match name.as_bytes() {
            [f @ b'a'..=b'i', r @ b'1'..=b'9'] => self.point(f - b'a', r - b'1'),
            _ => None,
        }
    }

    /// Reads a point name such as `e3` on this board, with an error that says why not (the
    /// `Option` form is [`BoardSize::parse_point`]).
    ///
    /// # Errors
    ///
    /// [`PointError`] when the text is not a file letter and a rank digit of this board.
    ///
    /// ```
    /// use fanorona_core::BoardSize;
    ///
    /// let size = BoardSize::DIMY;
    /// assert_eq!(size.read_point("e5")?.to_string(), "e5");
    /// let e = size.read_point("f1").unwrap_err();
    /// assert_eq!(e.to_string(), "\"f1\" is not a point of the 5x5 board (files a to e, ranks 1 to 5)");
    /// # Ok::<(), fanorona_core::PointError>(())
    /// ```
    pub fn read_point(self, name: &str) -> Result<Point, PointError> {
        self.parse_point(name).ok_or_else(|| PointError {
            text: crate::notation::excerpt(name),
            size: self,
        })
    }

    /// All points of this board, `a1` first, rank by rank.
    pub fn points(self) -> impl ExactSizeIterator<Item = Point> + Clone {
        (0..self.len() as u8).map(move |index| Point { index, size: self })
    }
}

/// `BoardSize(5x9)`.
///
/// ```
/// use fanorona_core::BoardSize;
/// assert_eq!(format!("{:?}", BoardSize::STANDARD), "BoardSize(5x9)");
/// ```
impl fmt::Debug for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BoardSize({self})")
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows(), self.cols())
    }
}

impl FromStr for BoardSize {
    type Err = SizeError;

    /// Parses `RxC` (rows x columns), such as `5x9`.
    fn from_str(s: &str) -> Result<BoardSize, SizeError> {
        let bad = SizeError { rows: 0, cols: 0 };
        let (r, c) = s.trim().split_once(['x', 'X']).ok_or(bad)?;
        let rows: u8 = r.trim().parse().map_err(|_| bad)?;
        let cols: u8 = c.trim().parse().map_err(|_| bad)?;
        BoardSize::new(rows, cols)
    }
}

/// A text that names no point of a board ([`BoardSize::read_point`]).
///
/// ```
/// use fanorona_core::BoardSize;
///
/// let e = BoardSize::STANDARD.read_point("a6").unwrap_err();
/// assert_eq!((e.text.as_str(), e.size), ("a6", BoardSize::STANDARD));
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct PointError {
    /// The text read (at most its first 40 characters).
    pub text: String,
    /// The board it was read on.
    pub size: BoardSize,
}

impl fmt::Display for PointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} is not a point of the {} board (files a to {}, ranks 1 to {})",
            self.text,
            self.size,
            char::from(b'a' + self.size.cols() - 1),
            self.size.rows()
        )
    }
}

impl std::error::Error for PointError {}

/// The error for a board size that is not supported.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct SizeError {
    /// The rows asked for (0 when the text could not be read as `RxC`).
    pub rows: u8,
    /// The columns asked for (0 when the text could not be read as `RxC`).
    pub cols: u8,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rows == 0 && self.cols == 0 {
            write!(f, "board size must be written ROWSxCOLUMNS, such as 5x9")?;
        } else {
            write!(f, "unsupported board size {}x{}", self.rows, self.cols)?;
        }
        write!(
            f,
            " (rows and columns are odd, 3 to 9, at most 64 points: 3x3 3x5 3x7 3x9 5x3 5x5 5x7 5x9 7x3 7x5 7x7 7x9 9x3 9x5 9x7)"
        )
    }
}

impl std::error::Error for SizeError {}

/// A point of a board, which it knows: points are made only by a [`BoardSize`] (checked) or
/// by the crate's own types, so a point is always on its board, and a point of one board is
/// never taken for a point of another ([`BoardSize::contains`] and [`Position::stone_at`]
/// tell them apart).
///
/// Its index is `rank * columns + file`, so `a1` is 0. `Display` writes its name, such as
/// `e3`.
///
/// [`Position::stone_at`]: crate::Position::stone_at
///
/// # Examples
///
/// ```
/// use fanorona_core::BoardSize;
///
/// let e3 = BoardSize::STANDARD.parse_point("e3").unwrap();
/// assert_eq!((e3.file(), e3.rank(), e3.index()), (4, 2, 22));
/// assert_eq!(e3.to_string(), "e3");
/// // The same name on the 5x5 board is another point.
/// let small = BoardSize::DIMY.parse_point("e3").unwrap();
/// assert_ne!(e3, small);
/// assert!(!BoardSize::DIMY.contains(e3));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point {
    index: u8,
    size: BoardSize,
}

impl Point {
    /// A point from an index known to be on the board of `size`.
    #[inline]
    pub(crate) const fn new(size: BoardSize, index: u8) -> Point {
        debug_assert!((index as usize) < size.len());
        Point { index, size }
    }

    /// The point's index on its board, `rank * columns + file`.
    #[inline]
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// The board the point belongs to.
    #[inline]
    pub const fn size(self) -> BoardSize {
        self.size
    }

    /// The file, 0 for `a`.
    #[inline]
    pub const fn file(self) -> u8 {
        self.index % self.size.cols()
    }

    /// The rank, 0 for rank `1`.
    #[inline]
    pub const fn rank(self) -> u8 {
        self.index / self.size.cols()
    }

    /// The single-point bitboard.
    #[inline]
    pub const fn bit(self) -> Bitboard {
        Bitboard::from_bits(1u64 << self.index)
    }
}

/// `Point(a2)`: its name (the board is not written; `{:#?}` is the same).
///
/// ```
/// use fanorona_core::BoardSize;
/// let a2 = BoardSize::STANDARD.parse_point("a2").unwrap();
/// assert_eq!(format!("{a2:?}"), "Point(a2)");
/// ```
impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({self})")
    }
}

impl PartialOrd for Point {
    fn partial_cmp(&self, other: &Point) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Point {
    /// By board (in the order of [`BoardSize::ALL`]), then by index.
    fn cmp(&self, other: &Point) -> core::cmp::Ordering {
        (self.size.index, self.index).cmp(&(other.size.index, other.index))
    }
}

impl fmt::Display for Point {
    /// The point's name: its file as a letter from `a`, its rank as a digit from `1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

impl PartialEq<&str> for Point {
    /// Whether the point has this name.
    fn eq(&self, other: &&str) -> bool {
        let b = other.as_bytes();
        b.len() == 2 && b[0] == b'a' + self.file() && b[1] == b'1' + self.rank()
    }
}

impl From<Point> for Bitboard {
    fn from(point: Point) -> Bitboard {
        point.bit()
    }
}

/// One of the eight directions of the board's lines. North is towards higher ranks (Black's
/// side of the starting position), east towards higher files.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Direction {
    /// Towards higher ranks.
    N = 0,
    /// Towards higher ranks and files.
    NE = 1,
    /// Towards higher files.
    E = 2,
    /// Towards lower ranks and higher files.
    SE = 3,
    /// Towards lower ranks.
    S = 4,
    /// Towards lower ranks and files.
    SW = 5,
    /// Towards lower files.
    W = 6,
    /// Towards higher ranks and lower files.
    NW = 7,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::N,
        Direction::NE,
        Direction::E,
        Direction::SE,
        Direction::S,
        Direction::SW,
        Direction::W,
        Direction::NW,
    ];

    /// The direction from its number (`0` = north, clockwise), modulo 8.
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Direction::ALL[i & 7]
    }

    /// The direction's number, 0 (north) to 7 (north-west), clockwise.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::from_index(self as usize + 4)
    }

    /// Whether the direction runs along a diagonal (only possible from a strong point).
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        self as u8 & 1 == 1
    }

    /// (file, rank) steps of this direction.
    #[inline]
    pub const fn offset(self) -> (i8, i8) {
        match self {
            Direction::N => (0, 1),
            Direction::NE => (1, 1),
            Direction::E => (1, 0),
            Direction::SE => (1, -1),
            Direction::S => (0, -1),
            Direction::SW => (-1, -1),
            Direction::W => (-1, 0),
            Direction::NW => (-1, 1),
        }
    }
}

impl fmt::Display for Direction {
    /// The compass name in capitals: `N`, `NE`, `E`, `SE`, `S`, `SW`, `W`, `NW`.
    ///
    /// ```
    /// use fanorona_core::Direction;
    /// assert_eq!(Direction::SW.to_string(), "SW");
    /// assert_eq!("sw".parse::<Direction>(), Ok(Direction::SW));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Direction {
    /// The compass name in capitals: `N`, `NE`, `E`, `SE`, `S`, `SW`, `W`, `NW`.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::N => "N",
            Direction::NE => "NE",
            Direction::E => "E",
            Direction::SE => "SE",
            Direction::S => "S",
            Direction::SW => "SW",
            Direction::W => "W",
            Direction::NW => "NW",
        }
    }
}

impl FromStr for Direction {
    type Err = DirectionError;

    /// Reads a compass name in either case: `N`, `ne`, ...
    fn from_str(s: &str) -> Result<Direction, DirectionError> {
        Direction::ALL
            .into_iter()
            .find(|d| d.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| DirectionError {
                text: crate::notation::excerpt(s),
            })
    }
}

/// A text that names no direction (see [`Direction`]'s `FromStr`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DirectionError {
    text: String,
}

impl DirectionError {
    /// The text that was read (at most its first 40 characters).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for DirectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a direction (N, NE, E, SE, S, SW, W or NW)",
            crate::escape::quoted(&self.text)
        )
    }
}

impl std::error::Error for DirectionError {}

/// The points `p` for which `p + delta` is in `bb`; callers mask out bits that wrapped
/// around an edge.
#[inline(always)]
pub(crate) fn shift_toward(bb: u64, delta: i8) -> u64 {
    if delta > 0 { bb >> delta } else { bb << -delta }
}

/// Marks a missing neighbour in [`Geometry`]'s tables.
const NONE: u8 = u8::MAX;

/// Neighbour tables and masks of one board size, computed at compile time.
///
/// # Examples
///
/// ```
/// use fanorona_core::{BoardSize, Direction};
///
/// let size = BoardSize::STANDARD;
/// let geo = size.geometry();
/// let e3 = size.parse_point("e3").unwrap();
/// let d3 = size.parse_point("d3").unwrap();
/// assert!(geo.is_strong(e3));
/// assert!(!geo.is_strong(d3));
/// assert_eq!(geo.neighbour(e3, Direction::NE), size.parse_point("f4"));
/// assert_eq!(geo.neighbour(d3, Direction::NE), None); // weak points have no diagonals
/// assert_eq!(geo.strong_points().count(), 23);
/// ```
#[derive(Debug)]
pub struct Geometry {
    size: BoardSize,
    all: u64,
    strong: u64,
    neighbours: [[u8; 8]; 64],
    /// Points that have a neighbour in each direction.
    pub(crate) step1: [u64; 8],
    /// Points that have a neighbour and a second point beyond it in each direction.
    pub(crate) step2: [u64; 8],
    /// The index difference of one step in each direction.
    pub(crate) delta: [i8; 8],
    /// For each point, its neighbours along lines.
    pub(crate) adjacent: [u64; 64],
    /// The direction of a step, indexed by its index difference plus 16.
    pub(crate) dir_of_delta: [u8; 32],
}

impl Geometry {
    const fn build(size: BoardSize) -> Geometry {
        let rows = size.rows() as i8;
        let cols = size.cols() as i8;
        let mut g = Geometry {
            size,
            all: 0,
            strong: 0,
            neighbours: [[NONE; 8]; 64],
            step1: [0; 8],
            step2: [0; 8],
            delta: [0; 8],
            adjacent: [0; 64],
            dir_of_delta: [NONE; 32],
        };
        let mut d = 0;
        while d < 8 {
            let (dx, dy) = Direction::ALL[d].offset();
            g.delta[d] = dy * cols + dx;
            g.dir_of_delta[(g.delta[d] + 16) as usize] = d as u8;
            d += 1;
        }
        let mut y = 0;
        while y < rows {
            let mut x = 0;
            while x < cols {
                let p = (y * cols + x) as usize;
                g.all |= 1 << p;
                let strong = (x + y) % 2 == 0;
                if strong {
                    g.strong |= 1 << p;
                }
                let mut d = 0;
                while d < 8 {
                    let dir = Direction::ALL[d];
                    if strong || !dir.is_diagonal() {
                        let (dx, dy) = dir.offset();
                        let (x1, y1) = (x + dx, y + dy);
                        if x1 >= 0 && x1 < cols && y1 >= 0 && y1 < rows {
                            g.neighbours[p][d] = (y1 * cols + x1) as u8;
                            g.adjacent[p] |= 1 << (y1 * cols + x1);
                            g.step1[d] |= 1 << p;
                            let (x2, y2) = (x1 + dx, y1 + dy);
                            if x2 >= 0 && x2 < cols && y2 >= 0 && y2 < rows {
                                g.step2[d] |= 1 << p;
                            }
                        }
                    }
                    d += 1;
                }
                x += 1;
            }
            y += 1;
        }
        g
    }

    /// The board size these tables describe.
    #[inline]
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Every point of the board.
    #[inline]
    pub fn all(&self) -> Bitboard {
        Bitboard::from_bits(self.all)
    }

    /// The strong points: those where diagonal lines cross (file + rank even).
    #[inline]
    pub fn strong(&self) -> Bitboard {
        Bitboard::from_bits(self.strong)
    }

    /// Iterates over the strong points.
    pub fn strong_points(&self) -> impl Iterator<Item = Point> + '_ {
        self.strong().points(self.size)
    }

    /// Whether diagonal lines pass through `point` (false for a point of another board).
    #[inline]
    pub fn is_strong(&self, point: Point) -> bool {
        self.size.contains(point) && self.strong >> point.index & 1 == 1
    }

    /// The point next to `point` along a line in `dir`, if there is one (none for a point of
    /// another board).
    #[inline]
    pub fn neighbour(&self, point: Point, dir: Direction) -> Option<Point> {
        if !self.size.contains(point) {
            return None;
        }
        match self.neighbours[point.index()][dir.index()] {
            NONE => None,
            n => Some(Point::new(self.size, n)),
        }
    }

    /// The raw neighbour index, [`u8::MAX`] when there is none.
    #[inline]
    pub(crate) fn neighbour_raw(&self, point: u8, dir: usize) -> u8 {
        self.neighbours[point as usize][dir]
    }

    /// The points that have a neighbour in direction `dir` lying in `set`: `set` moved one
    /// step against `dir` along the board's lines (diagonal steps only from strong points).
    ///
    /// With `set` the empty points, `stones & geo.toward(empty, dir)` are the stones that can
    /// step in `dir`.
    ///
    /// ```
    /// use fanorona_core::{BoardSize, Direction};
    ///
    /// let size = BoardSize::DIMY;
    /// let geo = size.geometry();
    /// let c3 = size.parse_point("c3").unwrap();
    /// assert_eq!(geo.toward(c3.bit(), Direction::N), size.parse_point("c2").unwrap().bit());
    /// // b2 is strong: its north-east neighbour is c3.
    /// assert_eq!(geo.toward(c3.bit(), Direction::NE), size.parse_point("b2").unwrap().bit());
    /// // b1 is weak: it has no diagonal to c2.
    /// let c2 = size.parse_point("c2").unwrap();
    /// assert!(geo.toward(c2.bit(), Direction::NE).is_empty());
    /// ```
    #[inline]
    pub fn toward(&self, set: Bitboard, dir: Direction) -> Bitboard {
        let d = dir.index();
        Bitboard::from_bits(self.step1[d] & shift_toward(set.bits(), self.delta[d]))
    }

    /// The direction of the step from `from` to its neighbour `to`.
    #[inline(always)]
    pub(crate) fn direction_raw(&self, from: u8, to: u8) -> usize {
        self.dir_of_delta[(to.wrapping_sub(from).wrapping_add(16) & 31) as usize] as usize
    }

    /// Every line segment of the board between two adjacent points, each listed once: the
    /// orthogonal lines and the diagonals through the strong points. For drawing boards.
    pub fn lines(&self) -> impl Iterator<Item = (Point, Point)> + '_ {
        self.size.points().flat_map(move |p| {
            [Direction::N, Direction::NE, Direction::E, Direction::SE]
                .into_iter()
                .filter_map(move |d| self.neighbour(p, d).map(|q| (p, q)))
        })
    }
}

static GEOMETRIES: [Geometry; 15] = {
    // A const block keeps the 15 tables in read-only memory, built by the compiler.
    [
        Geometry::build(BoardSize::ALL[0]),
        Geometry::build(BoardSize::ALL[1]),
        Geometry::build(BoardSize::ALL[2]),
        Geometry::build(BoardSize::ALL[3]),
        Geometry::build(BoardSize::ALL[4]),
        Geometry::build(BoardSize::ALL[5]),
        Geometry::build(BoardSize::ALL[6]),
        Geometry::build(BoardSize::ALL[7]),
        Geometry::build(BoardSize::ALL[8]),
        Geometry::build(BoardSize::ALL[9]),
        Geometry::build(BoardSize::ALL[10]),
        Geometry::build(BoardSize::ALL[11]),
        Geometry::build(BoardSize::ALL[12]),
        Geometry::build(BoardSize::ALL[13]),
        Geometry::build(BoardSize::ALL[14]),
    ]
};

#[cfg(feature = "serde")]
impl serde::Serialize for BoardSize {
    /// As its text, such as `"5x9"`.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for BoardSize {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<BoardSize, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// With serde, a point is written with its board: `{"board": "5x9", "name": "e3"}`.
#[cfg(feature = "serde")]
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(
    rename = "Point",
    expecting = "a point: its board and name",
    deny_unknown_fields
)]
struct PointRepr<'a> {
    board: BoardSize,
    #[serde(borrow)]
    name: std::borrow::Cow<'a, str>,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        PointRepr {
            board: self.size,
            name: self.to_string().into(),
        }
        .serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        let repr = PointRepr::deserialize(d)?;
        repr.board.parse_point(&repr.name).ok_or_else(|| {
            serde::de::Error::custom(format_args!(
                "{} is not a point of the {} board",
                crate::escape::quoted(&crate::notation::excerpt(&repr.name)),
                repr.board
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_odd_sizes_up_to_64_points() {
        let mut expected = Vec::new();
        for r in [3u8, 5, 7, 9] {
            for c in [3u8, 5, 7, 9] {
                if u32::from(r) * u32::from(c) <= 64 {
                    expected.push((r, c));
                }
            }
        }
        let mut got: Vec<_> = BoardSize::ALL
            .iter()
            .map(|s| (s.rows(), s.cols()))
            .collect();
        got.sort_unstable();
        assert_eq!(got, expected);
        assert!(BoardSize::new(9, 9).is_err());
        assert!(BoardSize::new(4, 5).is_err());
        assert!(BoardSize::new(1, 3).is_err());
    }

    #[test]
    fn standard_board_line_count() {
        // 5x9: orthogonal segments 5 ranks * 8 + 9 files * 4 = 76. Each of the 4 * 8 unit
        // squares has its two strong corners on one of its diagonals, so holds one diagonal
        // segment: 32.
        let geo = BoardSize::STANDARD.geometry();
        assert_eq!(geo.lines().count(), 76 + 32);
        assert_eq!(geo.strong().count(), 23);
    }
}
