//! The board and game a network or a data file is for.

use core::fmt;

use fanorona_core::{BoardSize, GameKind, Position, Rules};

/// The most points a board may have for a network: the stones are bits of a `u64`.
pub(crate) const MAX_POINTS: usize = 64;

/// What a network evaluates and what a data file holds: a board size and a game (the capture
/// game or Vela), each under the standard rule options ([`Variant::rules`]).
///
/// The standard game on 5x9 is [`Variant::STANDARD`]; Fanoron-Dimy is the capture game on
/// 5x5; Vela is played on 5x9. Fanoron-Telo, the alignment game, has no networks.
///
/// ```
/// use fanorona_ai::nnue::Variant;
/// use fanorona_core::{BoardSize, GameKind, Position, Rules};
///
/// assert_eq!(Variant::of(&Position::standard()), Some(Variant::STANDARD));
/// let dimy = Variant::new(BoardSize::DIMY, GameKind::Capture)?;
/// assert_eq!((dimy.points(), dimy.inputs(), dimy.to_string()), (25, 50, "5x5".to_string()));
/// let vela = Variant::new(BoardSize::STANDARD, GameKind::Vela)?;
/// assert_eq!(vela.to_string(), "5x9 vela");
/// // Other rule options than the variant's standard ones are not a variant of a network.
/// let rules = Rules::STANDARD.with_opening_restriction(true);
/// assert_eq!(Variant::of(&Position::start_with(BoardSize::STANDARD, rules)?), None);
/// assert!(Variant::new(BoardSize::TELO, GameKind::Telo).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Variant {
    size: BoardSize,
    game: GameKind,
}

/// Why a board and game are not a [`Variant`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum VariantError {
    /// No supported board has these ranks and files.
    Board {
        /// Ranks.
        rows: u32,
        /// Files.
        cols: u32,
    },
    /// A game without networks (Fanoron-Telo), or a game code that is not known.
    Game {
        /// The game's code (0 capture, 1 Vela, 2 Telo, others unknown).
        code: u32,
    },
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VariantError::Board { rows, cols } => {
                write!(f, "no {rows}x{cols} board is supported")
            }
            VariantError::Game { code: 2 } => f.write_str("Fanoron-Telo (game 2) has no networks"),
            VariantError::Game { code } => {
                write!(f, "game {code} is not known (0 capture, 1 Vela)")
            }
        }
    }
}

impl std::error::Error for VariantError {}

impl Variant {
    /// The standard game: the capture game on the 5x9 board.
    pub const STANDARD: Variant = Variant {
        size: BoardSize::STANDARD,
        game: GameKind::Capture,
    };

    /// The variant of `size` and `game`.
    ///
    /// # Errors
    ///
    /// [`VariantError::Game`] for Fanoron-Telo (and any game other than the capture game and
    /// Vela), [`VariantError::Board`] for Vela on another board than 5x9.
    pub fn new(size: BoardSize, game: GameKind) -> Result<Variant, VariantError> {
        match game {
            GameKind::Capture => {}
            GameKind::Vela if size == BoardSize::STANDARD => {}
            GameKind::Vela => {
                return Err(VariantError::Board {
                    rows: u32::from(size.rows()),
                    cols: u32::from(size.cols()),
                });
            }
            _ => {
                return Err(VariantError::Game {
                    code: game_code(game),
                });
            }
        }
        if size.len() > MAX_POINTS {
            return Err(VariantError::Board {
                rows: u32::from(size.rows()),
                cols: u32::from(size.cols()),
            });
        }
        Ok(Variant { size, game })
    }

    /// The variant of the ranks, files and game code of a file's header (0 the capture game,
    /// 1 Vela).
    ///
    /// # Errors
    ///
    /// As [`Variant::new`], and [`VariantError::Board`] for sizes that are not a board.
    pub fn from_codes(rows: u32, cols: u32, game: u32) -> Result<Variant, VariantError> {
        let size = u8::try_from(rows)
            .ok()
            .zip(u8::try_from(cols).ok())
            .and_then(|(r, c)| BoardSize::new(r, c).ok())
            .ok_or(VariantError::Board { rows, cols })?;
        let game = match game {
            0 => GameKind::Capture,
            1 => GameKind::Vela,
            code => return Err(VariantError::Game { code }),
        };
        Variant::new(size, game)
    }

    /// The variant `pos` is played in, when its rules are that variant's
    /// ([`Variant::rules`]); `None` for other rule options and for Fanoron-Telo.
    pub fn of(pos: &Position) -> Option<Variant> {
        let v = Variant::new(pos.size(), pos.rules().game()).ok()?;
        (pos.rules() == v.rules()).then_some(v)
    }

    /// The board.
    pub const fn size(self) -> BoardSize {
        self.size
    }

    /// The game.
    pub const fn game(self) -> GameKind {
        self.game
    }

    /// The game's code in the file headers: 0 the capture game, 1 Vela.
    pub const fn game_code(self) -> u32 {
        game_code(self.game)
    }

    /// The rules of the variant: the standard options, with its game.
    pub const fn rules(self) -> Rules {
        Rules::STANDARD.with_game(self.game)
    }

    /// The board's points.
    pub const fn points(self) -> usize {
        self.size.len()
    }

    /// A network's inputs per perspective: own and opposing stones on each point.
    pub const fn inputs(self) -> usize {
        2 * self.size.len()
    }
}

/// `5x9`, `5x5`, `5x9 vela`.
impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.size.rows(), self.size.cols())?;
        if self.game != GameKind::Capture {
            write!(f, " {}", self.game.name())?;
        }
        Ok(())
    }
}

const fn game_code(game: GameKind) -> u32 {
    match game {
        GameKind::Capture => 0,
        GameKind::Vela => 1,
        _ => 2,
    }
}
