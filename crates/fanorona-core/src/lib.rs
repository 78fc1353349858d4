//! The rules of Fanorona, the Malagasy board game: boards of every odd size, positions, legal
//! turns (paika, approach, withdrawal, capture chains), the outcome of games, Zobrist hashing,
//! the notations (point names, turn text, position strings) and game records.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::{Color, Game, Position};
//!
//! let mut game = Game::new(Position::standard());
//! // Every legal turn of the start: the five captures into the centre.
//! let turns: Vec<String> = game.position().legal_turns().iter().map(|t| t.to_string()).collect();
//! assert_eq!(turns.len(), 5);
//! game.play_text("f2-e3A")?;
//! assert_eq!(game.position().side_to_move(), Color::Black);
//! assert_eq!(game.position().stones(Color::Black).count(), 20);
//! # Ok::<(), fanorona_core::PlayError>(())
//! ```
//!
//! The main types:
//! - [`BoardSize`], [`Point`], [`Direction`] and [`Geometry`]: the board; a point is made by
//!   its board and knows it;
//! - [`Position`]: stones, side to move, [`Rules`]; [`Position::legal_turns`],
//!   [`Position::play`] (checked) and [`Position::play_unchecked`] (for engines);
//! - [`Turn`] and [`Step`]: what a player does; [`TurnBuilder`] builds a turn step by step;
//! - [`Game`] and [`Outcome`]: history, repetition, results;
//! - [`fen`] (position strings), [`notation`] (turn text) and [`record`] (game records);
//! - [`perft()`]: counting turn sequences;
//! - [`reference`](mod@reference): a simple, independent second move generator for checking.
//!
//! # Conventions
//!
//! - Checked by default: a name that does not say `unchecked` never trusts its input, and
//!   answers a wrong one with a typed error that says why ([`PlayError`], [`TurnError`],
//!   [`IllegalReason`], ...). Error enums and the enums that will grow are
//!   `#[non_exhaustive]`.
//! - Arguments: small `Copy` values (at most 16 bytes: [`Point`], [`Color`], [`Step`],
//!   [`BoardSize`], [`Rules`]) are passed by value, [`Turn`] and [`Position`] by reference;
//!   results are owned.
//! - Text forms: every type with a text form has `Display` and `FromStr` (or a parse function
//!   that needs a board or a position) that round-trip.
//!
//! # Features
//!
//! - `serde`: `Serialize` and `Deserialize` for the data types. Deserializing goes through the
//!   same checks as parsing: a position string is read, rules are validated, turns are replayed.
//!
//! # Speed
//!
//! Unoptimised, the move generator is about five times slower: set
//! `[profile.dev.package.fanorona-core] opt-level = 3` in a dependent workspace for fast debug
//! builds (see the crate README).

#![cfg_attr(docsrs, feature(doc_cfg))]

mod bitboard;
mod builder;
mod color;
pub mod escape;
pub mod fen;
mod game;
mod geometry;
mod illegal;
mod list;
mod movegen;
pub mod notation;
mod outcome;
pub mod perft;
mod position;
pub mod record;
pub mod reference;
mod rules;
mod turn;
mod variants;
mod zobrist;

pub use bitboard::{Bitboard, Points};
pub use builder::{StepError, TurnBuilder};
pub use color::{Color, ColorError};
pub use fen::FenError;
pub use game::{Game, PlayError};
pub use geometry::{BoardSize, Direction, DirectionError, Geometry, Point, PointError, SizeError};
pub use illegal::IllegalReason;
pub use list::{StepList, StepListIntoIter, TurnList, TurnListIntoIter};
pub use notation::{TurnError, TurnSyntaxError, TurnText};
pub use outcome::{EndReason, Outcome};
pub use perft::perft;
pub use position::{Position, PositionError, Setup};
pub use rules::{GameKind, Rules, RulesError, StuckRule, VelaRule};
pub use turn::{MAX_STEPS, Step, StepKind, Turn};

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_type_sizes() {
        // Turns and positions are copied in move generation and search: keep them small.
        assert_eq!(core::mem::size_of::<Turn>(), 48);
        assert!(core::mem::size_of::<Position>() <= 48);
    }
}
