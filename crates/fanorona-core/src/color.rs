//! The two sides.

use core::fmt;
use core::ops::Not;
use core::str::FromStr;

/// A side of the game. White moves first and starts on the lower ranks.
///
/// `Display` writes the name in lower case; `FromStr` reads the name in any case or the
/// letter of position strings.
///
/// ```
/// use fanorona_core::Color;
///
/// assert_eq!(Color::White.to_string(), "white");
/// assert_eq!("Black".parse::<Color>()?, Color::Black);
/// assert_eq!("w".parse::<Color>()?, Color::White);
/// assert!("red".parse::<Color>().is_err());
/// # Ok::<(), fanorona_core::ColorError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Color {
    /// The side that moves first, on ranks 1 and 2 of the standard board.
    White,
    /// The side that moves second, on ranks 4 and 5 of the standard board.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// `0` for White, `1` for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter used in position strings: `w` or `b`.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// The colour's name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Color {
    type Err = ColorError;

    /// Reads `white` or `black` (any case) or the letters `w` and `b` (either case).
    fn from_str(s: &str) -> Result<Color, ColorError> {
        match s {
            "w" | "W" => Ok(Color::White),
            "b" | "B" => Ok(Color::Black),
            _ if s.eq_ignore_ascii_case("white") => Ok(Color::White),
            _ if s.eq_ignore_ascii_case("black") => Ok(Color::Black),
            _ => Err(ColorError {
                text: crate::notation::excerpt(s),
            }),
        }
    }
}

/// A text that names no colour (see [`Color`]'s `FromStr`).
///
/// ```
/// use fanorona_core::Color;
///
/// let err = "red".parse::<Color>().unwrap_err();
/// assert_eq!(err.to_string(), "\"red\" is not a colour (white, black, w or b)");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ColorError {
    text: String,
}

impl ColorError {
    /// The text that was read (at most its first 40 characters).
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a colour (white, black, w or b)",
            crate::escape::quoted(&self.text)
        )
    }
}

impl std::error::Error for ColorError {}
