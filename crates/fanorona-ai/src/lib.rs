//! The Fanorona engine: an alpha-beta search over complete turns with a transposition table,
//! move ordering and a quiescence search for forced captures; levels for people; an engine
//! protocol in the style of UCI; players and matches to measure strength.
//!
//! The rules come from `fanorona-core` alone: the engine generates turns, plays them and
//! judges outcomes only through it.
//!
//! # Examples
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use fanorona_ai::{Level, Limits, SearchOptions, Searcher};
//! use fanorona_core::Game;
//!
//! let mut game = Game::default();
//! let mut searcher = Searcher::new(8);
//! let stop = AtomicBool::new(false);
//! // Full strength at a fixed depth.
//! let result = searcher.search(&game, &Limits::depth(4), &SearchOptions::default(), &stop, |_| {})?;
//! println!("best {} score {} pv {}", result.best, result.score, result.pv_text());
//! game.play(&result.best).expect("the engine plays legal turns");
//! // A level for people, reproducible with a seed.
//! let reply = Level::Beginner.play(&mut searcher, &game, 42, &stop, |_| {})?;
//! game.play(&reply.best).expect("legal");
//! # Ok::<(), fanorona_ai::SearchError>(())
//! ```
//!
//! The main items:
//! - [`Searcher`] (search with memory), [`search`] (one-off), [`Limits`], [`SearchOptions`],
//!   [`SearchResult`], [`Info`], [`Score`];
//! - [`Engine`] and [`SearchHandle`]: the search on a background thread, with stop;
//! - [`Level`]: fourteen playing levels from novice to maximum, with their Elo, and
//!   [`estimate_rating`]: a player's rating from their results against them;
//! - [`evaluate`] and [`params`]: the evaluation and every tunable number;
//! - [`protocol`]: the engine protocol loop; [`players`], [`matches`](mod@matches) and
//!   [`openings`]: matches with pentanomial Elo and SPRT, opening suites;
//!   [`bench`](mod@bench): the node-count benchmark; [`baseline`]: the frozen v0.1.0 engine;
//! - [`puzzles`]: puzzles (one winning turn family, by search or the endgame tables), their
//!   format, the shipped set, judging an attempt step by step, Glicko-2 ratings;
//! - [`book`]: opening books (the shipped 5x9 and 5x5 books, their format, choice and
//!   building);
//! - [`telo`]: Fanoron-Telo solved by retrograde analysis.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub mod baseline;
pub mod bench;
pub mod book;
mod engine;
pub mod eval;
mod level;
mod limits;
pub mod matches;
pub mod nnue;
pub mod openings;
pub mod params;
pub mod players;
pub mod protocol;
pub mod puzzles;
mod rng;
mod search;
pub mod solve;
pub mod telo;
pub mod threads;
pub mod tt;
pub mod tune;

pub use engine::{Engine, SearchHandle, search};
pub use eval::evaluate;
pub use level::{Level, LevelError, RATING_PRIOR_SD, RatingEstimate, estimate_rating};
pub use limits::{Clock, Limits};
pub use rng::Rng;
pub use search::{Info, RootMove, Score, SearchError, SearchOptions, SearchResult, Searcher};
pub use tt::{HashSizeError, MAX_HASH_MB};

/// The README's example, compiled and run as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
