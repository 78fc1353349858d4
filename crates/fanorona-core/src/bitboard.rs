//! Sets of points as 64-bit masks.

use core::fmt;
use core::ops::{
    BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Sub, SubAssign,
};

use crate::{BoardSize, Point};

/// A set of points, one bit per point index (`rank * columns + file`).
///
/// A bitboard does not know its board: [`Bitboard::points`] lists its points on a given
/// board. The bits are available as a `u64` ([`Bitboard::bits`], [`Bitboard::from_bits`])
/// for engines that compute with them.
///
/// # Examples
///
/// ```
/// use fanorona_core::{Bitboard, BoardSize};
///
/// let size = BoardSize::DIMY;
/// let [a1, c2] = ["a1", "c2"].map(|n| size.parse_point(n).unwrap());
/// let set = a1.bit() | c2.bit();
/// assert_eq!(set.count(), 2);
/// assert!(set.contains(c2));
/// assert_eq!(set.points(size).collect::<Vec<_>>(), [a1, c2]);
/// assert_eq!(set.bits(), 1 << 0 | 1 << 7);
/// assert_eq!(Bitboard::from_bits(set.bits()), set);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// The set with these bits: bit `i` stands for the point with index `i`.
    #[inline]
    pub const fn from_bits(bits: u64) -> Bitboard {
        Bitboard(bits)
    }

    /// The bits of the set: bit `i` stands for the point with index `i`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether the set holds the index of `point`.
    #[inline]
    pub const fn contains(self, point: Point) -> bool {
        self.0 >> point.index() & 1 == 1
    }

    /// Adds the index of `point` to the set; returns whether it was new.
    ///
    /// ```
    /// use fanorona_core::{Bitboard, BoardSize};
    ///
    /// let e3 = BoardSize::STANDARD.parse_point("e3").unwrap();
    /// let mut set = Bitboard::EMPTY;
    /// assert!(set.insert(e3));
    /// assert!(!set.insert(e3));
    /// assert!(set.remove(e3));
    /// assert!(set.is_empty());
    /// ```
    #[inline]
    pub fn insert(&mut self, point: Point) -> bool {
        let new = !self.contains(point);
        self.0 |= 1 << point.index();
        new
    }

    /// Removes the index of `point` from the set; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, point: Point) -> bool {
        let had = self.contains(point);
        self.0 &= !(1 << point.index());
        had
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The points of the set on the board of `size`, lowest index first (indices past the
    /// board are left out).
    #[inline]
    pub fn points(self, size: BoardSize) -> Points {
        Points {
            bits: self.0 & size.geometry().all().0,
            size,
        }
    }

    /// The lowest point of the set on the board of `size`, if any.
    #[inline]
    pub fn first(self, size: BoardSize) -> Option<Point> {
        self.points(size).next()
    }
}

/// The set of the points' indices.
///
/// ```
/// use fanorona_core::{Bitboard, BoardSize};
///
/// let size = BoardSize::STANDARD;
/// let set: Bitboard = ["a1", "e5"].iter().filter_map(|n| size.parse_point(n)).collect();
/// assert_eq!(set.count(), 2);
/// assert_eq!(set.first(size).map(|p| p.to_string()), Some("a1".to_owned()));
/// ```
impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(points: I) -> Bitboard {
        Bitboard(points.into_iter().fold(0, |bits, p| bits | 1 << p.index()))
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#x})", self.0)
    }
}

/// Iterator over the points of a [`Bitboard`] on one board, lowest index first; made by
/// [`Bitboard::points`].
#[derive(Clone, Debug)]
pub struct Points {
    bits: u64,
    size: BoardSize,
}

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.bits == 0 {
            return None;
        }
        let p = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Point::new(self.size, p))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Points {}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}

bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

/// The difference: the points of `self` not in `rhs` (`a - b` is `a & !b`).
///
/// ```
/// use fanorona_core::{Bitboard, BoardSize};
///
/// let [a1, c2] = ["a1", "c2"].map(|n| BoardSize::DIMY.parse_point(n).unwrap());
/// let both = a1.bit() | c2.bit();
/// assert_eq!(both - c2.bit(), a1.bit());
/// assert_eq!(both & c2.bit(), c2.bit());
/// assert_eq!(both ^ a1.bit(), c2.bit());
/// let mut set = both;
/// set -= a1.bit();
/// assert_eq!(set, c2.bit());
/// ```
impl Sub for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn sub(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & !rhs.0)
    }
}

impl SubAssign for Bitboard {
    #[inline]
    fn sub_assign(&mut self, rhs: Bitboard) {
        self.0 &= !rhs.0;
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement over all 64 bits: mask it with [`Geometry::all`](crate::Geometry::all)
    /// to stay on a board.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Bitboard {
    /// As its bits, a number.
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(self.0)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Bitboard {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Bitboard, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(Bitboard)
    }
}
