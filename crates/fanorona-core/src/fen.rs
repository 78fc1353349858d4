//! Position strings: `BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w`.
//!
//! Ranks are listed from the top (the highest rank) down, separated by `/`; `W` and `B` are
//! stones, a digit is a run of that many empty points. The board size is implied by the number
//! of ranks and their width. Then, after a space, the side to move (`w` or `b`). Two optional
//! numbers may follow, as in chess: the count of consecutive turns without capture and the turn
//! number (default `0 1`). Last, a word names the game when it is not the capture game: `vela`
//! or `telo` (see [`GameKind`]); the rules given to the reader supply the game otherwise.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::{BoardSize, Color, Position};
//!
//! let pos = Position::from_fen("BBBBB/BBBBB/BW1BW/WWWWW/WWWWW w")?;
//! assert_eq!(pos.size(), BoardSize::DIMY);
//! assert_eq!(pos, Position::start(BoardSize::DIMY));
//! let err = Position::from_fen("BBB/B1X/WWW w").unwrap_err();
//! assert_eq!(err.to_string(), "position string, rank 2, character 3: 'X' is not W, B or a digit");
//! // Fanoron-Telo's empty board, and a Vela position: the game travels with the position.
//! let telo = Position::from_fen("3/3/3 w telo")?;
//! assert_eq!(telo.legal_turns().len(), 9);
//! assert_eq!(telo.to_fen(), "3/3/3 w telo");
//! # Ok::<(), fanorona_core::FenError>(())
//! ```

use core::fmt;

use crate::{
    Bitboard, BoardSize, Color, GameKind, Position, PositionError, Rules, Setup, SizeError,
};

/// What is wrong with a position string, and where.
///
/// # Examples
///
/// ```
/// use fanorona_core::{FenError, Position};
///
/// match Position::from_fen("3/1X1/3 w") {
///     Err(FenError::BadChar { rank, column, found }) => assert_eq!((rank, column, found), (2, 2, 'X')),
///     other => panic!("{other:?}"),
/// }
/// let e = Position::from_fen("3/3/3 x").unwrap_err();
/// assert!(matches!(e, FenError::BadSide { .. }));
/// assert_eq!(e.to_string(), "position string: side to move must be w or b, not \"x\"");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FenError {
    /// The string is empty.
    Empty,
    /// The number of ranks is not a supported row count.
    RankCount {
        /// Ranks found.
        found: usize,
    },
    /// A rank character is not `W`, `B` or a digit 1-9.
    BadChar {
        /// The board rank (1 is the bottom rank).
        rank: u8,
        /// Position of the character within that rank's text, from 1.
        column: usize,
        /// The character found.
        found: char,
    },
    /// A rank is not as wide as the first (top) rank.
    RankWidth {
        /// The board rank (1 is the bottom rank).
        rank: u8,
        /// Width of the top rank.
        expected: usize,
        /// Width of this rank.
        found: usize,
    },
    /// The rows and columns do not form a supported board.
    Size(SizeError),
    /// The side to move is missing.
    MissingSide,
    /// The side to move is not `w` or `b`.
    BadSide {
        /// The text found.
        found: String,
    },
    /// A counter field is not a number in range.
    BadCounter {
        /// Which counter: `no-capture count` or `turn number`.
        field: &'static str,
        /// The text found.
        found: String,
    },
    /// Text after the last field.
    ExtraField {
        /// The text found.
        found: String,
    },
    /// The last field is a word that names no game (`vela` or `telo`).
    BadGame {
        /// The text found.
        found: String,
    },
    /// The position string names another game than the rules it is read under.
    GameConflict {
        /// The game the position string names.
        found: GameKind,
        /// The game of the rules.
        rules: GameKind,
    },
    /// The fields are well formed but the setup is not usable.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("position string")?;
        match self {
            FenError::Empty => write!(f, " is empty"),
            FenError::RankCount { found } => write!(
                f,
                " has {found} rank(s); a board has 3, 5, 7 or 9 ranks separated by '/'"
            ),
            FenError::BadChar {
                rank,
                column,
                found,
            } => write!(
                f,
                ", rank {rank}, character {column}: {found} is not W, B or a digit",
                found = crate::escape::quoted(&found)
            ),
            FenError::RankWidth {
                rank,
                expected,
                found,
            } => write!(
                f,
                ", rank {rank}: {found} points wide, but the top rank has {expected}"
            ),
            FenError::Size(e) => write!(f, ": {e}"),
            FenError::MissingSide => write!(f, ": the side to move (w or b) is missing"),
            FenError::BadSide { found } => {
                write!(
                    f,
                    ": side to move must be w or b, not {found}",
                    found = crate::escape::quoted(&found)
                )
            }
            FenError::BadCounter { field, found } => {
                write!(
                    f,
                    ": {field} must be a number, not {found}",
                    found = crate::escape::quoted(&found)
                )
            }
            FenError::ExtraField { found } => write!(
                f,
                ": unexpected text {found} at the end",
                found = crate::escape::quoted(&found)
            ),
            FenError::BadGame { found } => {
                write!(
                    f,
                    ": the game must be vela or telo, not {found}",
                    found = crate::escape::quoted(&found)
                )
            }
            FenError::GameConflict { found, rules } => write!(
                f,
                ": it names the game {}, but the rules are those of {}",
                found.name(),
                rules.name()
            ),
            FenError::Position(e) => write!(f, ": {e}"),
        }
    }
}

/// [`source`](std::error::Error::source) is the wrapped [`SizeError`] or [`PositionError`]
/// (whose message `Display` already includes); none for the other variants.
///
/// ```
/// use std::error::Error;
/// use fanorona_core::{Position, SizeError};
///
/// let e = Position::from_fen("WWWW/WWWW/WWWW w").unwrap_err(); // 4 columns
/// assert!(e.source().is_some_and(|s| s.is::<SizeError>()));
/// ```
impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Size(e) => Some(e),
            FenError::Position(e) => Some(e),
            _ => None,
        }
    }
}

impl Position {
    /// Reads a position string under the standard rules (those of Vela or Fanoron-Telo when
    /// the string names that game).
    ///
    /// # Errors
    ///
    /// [`FenError`], saying which rank and character is wrong.
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, Rules::STANDARD)
    }

    /// Reads a position string under the given rules. A game named by the string replaces the
    /// capture game of `rules`.
    ///
    /// # Errors
    ///
    /// [`FenError`], saying which rank and character is wrong;
    /// [`FenError::GameConflict`] when the string names a game and `rules` another one than
    /// the capture game.
    pub fn from_fen_with(fen: &str, mut rules: Rules) -> Result<Position, FenError> {
        let (setup, game) = parse_setup(fen)?;
        if let Some(game) = game {
            if rules.game != GameKind::Capture && rules.game != game {
                return Err(FenError::GameConflict {
                    found: game,
                    rules: rules.game,
                });
            }
            rules.game = game;
        }
        Position::from_setup(setup, rules).map_err(FenError::Position)
    }

    /// The position string, with the counters only when they are not `0 1`, and the game when
    /// it is not the capture game.
    pub fn to_fen(&self) -> String {
        let size = self.size();
        let mut out = String::with_capacity(size.len() + 16);
        for rank in (0..size.rows()).rev() {
            let mut run = 0u8;
            for file in 0..size.cols() {
                let p = size.point(file, rank).expect("on the board");
                match self.stone_at(p) {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            out.push((b'0' + run) as char);
                            run = 0;
                        }
                        out.push(if c == Color::White { 'W' } else { 'B' });
                    }
                }
            }
            if run > 0 {
                out.push((b'0' + run) as char);
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side_to_move().char());
        if self.no_capture_count() != 0 || self.turn_number() != 1 {
            out.push_str(&format!(
                " {} {}",
                self.no_capture_count(),
                self.turn_number()
            ));
        }
        if self.rules.game != GameKind::Capture {
            out.push(' ');
            out.push_str(self.rules.game.name());
        }
        out
    }
}

impl core::str::FromStr for Position {
    type Err = FenError;

    /// Reads a position string under the standard rules, as [`Position::from_fen`] does;
    /// `Display` writes it back.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos: Position = "BBB/B1W/WWW w".parse()?;
    /// assert_eq!(pos.to_string().parse::<Position>()?, pos);
    /// # Ok::<(), fanorona_core::FenError>(())
    /// ```
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

fn parse_setup(fen: &str) -> Result<(Setup, Option<GameKind>), FenError> {
    let mut fields = fen.split_ascii_whitespace();
    let board = fields.next().ok_or(FenError::Empty)?;
    let ranks: Vec<&str> = board.split('/').collect();
    let rows = ranks.len();
    if !matches!(rows, 3 | 5 | 7 | 9) {
        return Err(FenError::RankCount { found: rows });
    }
    // Read each rank into a row of cells, top rank first.
    let mut cells: Vec<Vec<Option<Color>>> = Vec::with_capacity(rows);
    let mut width = None;
    for (i, text) in ranks.iter().enumerate() {
        let rank = (rows - i) as u8;
        let mut row = Vec::new();
        for (column, ch) in text.chars().enumerate() {
            match ch {
                'W' => row.push(Some(Color::White)),
                'B' => row.push(Some(Color::Black)),
                '1'..='9' => row.extend((0..ch as u8 - b'0').map(|_| None)),
                _ => {
                    return Err(FenError::BadChar {
                        rank,
                        column: column + 1,
                        found: ch,
                    });
                }
            }
            if row.len() > 9 {
                // No board is wider than 9: stop before a huge digit run grows further.
                break;
            }
        }
        match width {
            None => width = Some(row.len()),
            Some(w) if w != row.len() => {
                return Err(FenError::RankWidth {
                    rank,
                    expected: w,
                    found: row.len(),
                });
            }
            Some(_) => {}
        }
        cells.push(row);
    }
    let cols = width.unwrap_or(0);
    let size = BoardSize::new(rows as u8, cols.min(255) as u8).map_err(FenError::Size)?;
    let mut white = 0u64;
    let mut black = 0u64;
    for (i, row) in cells.iter().enumerate() {
        let rank = (rows - 1 - i) as u8;
        for (file, cell) in row.iter().enumerate() {
            let p = size.point(file as u8, rank).expect("size checked");
            match cell {
                Some(Color::White) => white |= 1 << p.index(),
                Some(Color::Black) => black |= 1 << p.index(),
                None => {}
            }
        }
    }
    let side = match fields.next() {
        None => return Err(FenError::MissingSide),
        Some("w" | "W") => Color::White,
        Some("b" | "B") => Color::Black,
        Some(other) => {
            return Err(FenError::BadSide {
                found: other.to_owned(),
            });
        }
    };
    let mut rest: Vec<&str> = fields.collect();
    let game = match rest.last() {
        Some(word) if word.starts_with(|c: char| c.is_ascii_alphabetic()) => {
            let game = match *word {
                "vela" => GameKind::Vela,
                "telo" => GameKind::Telo,
                _ => {
                    return Err(FenError::BadGame {
                        found: (*word).to_owned(),
                    });
                }
            };
            rest.pop();
            Some(game)
        }
        _ => None,
    };
    let mut fields = rest.into_iter();
    let mut counter = |field: &'static str, default: u16| match fields.next() {
        None => Ok(default),
        Some(t) => t.parse::<u16>().map_err(|_| FenError::BadCounter {
            field,
            found: t.to_owned(),
        }),
    };
    let no_capture_count = counter("no-capture count", 0)?;
    let turn_number = counter("turn number", 1)?;
    if let Some(extra) = fields.next() {
        return Err(FenError::ExtraField {
            found: extra.to_owned(),
        });
    }
    let setup = Setup {
        white: Bitboard::from_bits(white),
        black: Bitboard::from_bits(black),
        side_to_move: side,
        no_capture_count,
        turn_number,
        ..Setup::empty(size)
    };
    Ok((setup, game))
}
