//! NNUE: an efficiently updatable neural network evaluation, one network per [`Variant`]
//! (board and game; the networks of the standard 5x9 game and of Vela are embedded).
//!
//! A [`Network`] has one hidden layer per perspective (White's, and Black's on the board
//! turned by 180 degrees) over twice the board's points as inputs (90 on 5x9): a stone of the
//! perspective's side or of its opponent on each point. The hidden sums (the *accumulators*) depend only on
//! the stones, so the search keeps them per ply and updates a position's from another's by the
//! stones that differ, instead of summing all stones again. The file format is specified in
//! [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md); the use in the search in [`docs/engine.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine.md) (Evaluation). The training data
//! ([`data`]) and the trainer ([`train`]) make the networks (`fanorona nnue label|train`).
//!
//! # Examples
//!
//! ```
//! use std::sync::Arc;
//! use fanorona_ai::nnue::Network;
//! use fanorona_ai::Searcher;
//! use fanorona_core::Position;
//!
//! let net = Network::embedded();
//! let eval = net.evaluate(&Position::standard());
//! assert!(eval.is_some());
//! // A searcher takes a network for the standard board (None: the hand evaluation).
//! let mut searcher = Searcher::new(4);
//! searcher.set_network(Some(Arc::clone(&net)));
//! searcher.set_network(None);
//! ```

pub mod data;
mod network;
pub mod train;
mod variant;

pub use network::{MAGIC, MAGIC_V2, MAGIC_V3, MAX_BUCKETS, MAX_HIDDEN, Network, NetworkError};
pub use variant::{Variant, VariantError};

use fanorona_core::Position;

use crate::params::MAX_PLY;
use network::stones_of;

/// The standard game's embedded network file (`crates/fanorona-ai/nets/`; how it was made:
/// [`docs/engine.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine.md) and [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)).
pub(crate) const EMBEDDED: &[u8] = include_bytes!("../../nets/n2-h128-l05.nnue");

/// Every embedded network file, one per variant, the standard game's first (each passed an
/// SPRT against the hand evaluation on its board: [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md), The nets).
pub(crate) const EMBEDDED_NETS: &[&[u8]] = &[EMBEDDED, EMBEDDED_VELA];

/// Vela's embedded network file (`crates/fanorona-ai/nets/`; how it was made: [`docs/nnue.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/nnue.md)).
pub(crate) const EMBEDDED_VELA: &[u8] = include_bytes!("../../nets/vela1-h128-l05.nnue");

/// A network built by hand: material only (a test fixture; its construction is in
/// [`docs/engine.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine.md)).
#[cfg(test)]
pub(crate) const MATERIAL: &[u8] = include_bytes!("../../nets/material-h2.nnue");

/// Whether a new [`crate::Searcher`] evaluates standard-board positions with the embedded
/// network (see [`docs/engine.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/engine.md), Evaluation): on since the embedded network beat the hand
/// evaluation in an SPRT.
pub const NNUE_BY_DEFAULT: bool = true;

/// The accumulators of one search thread: per ply, the stones of the last position evaluated
/// there and its accumulators. A position at ply `p` starts from the entry at `p` (often a
/// sibling) or `p - 1` (often its parent) or `p - 2`, whichever differs by the fewest stones,
/// and is refreshed from scratch when every base differs by at least as many stones as it has.
pub(crate) struct Accumulators<'a> {
    net: &'a Network,
    /// 2 * lanes per ply (the hidden units padded to a multiple of 16): White's perspective,
    /// then Black's.
    acc: Box<[i16]>,
    /// Per ply: the stones (White's, Black's bits) the accumulators hold, if any.
    stones: Box<[Option<[u64; 2]>]>,
}

impl<'a> Accumulators<'a> {
    /// An empty stack for `net`.
    pub(crate) fn new(net: &'a Network) -> Accumulators<'a> {
        let plies = MAX_PLY + 2;
        Accumulators {
            net,
            acc: vec![0; plies * 2 * net.lanes()].into_boxed_slice(),
            stones: vec![None; plies].into_boxed_slice(),
        }
    }

    /// The network's evaluation of `pos`, reached at `ply` of the search (centi-stones, side
    /// to move's view, with the no-capture factor).
    pub(crate) fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let ply = ply.min(self.stones.len() - 1);
        let lanes = 2 * self.net.lanes();
        let to = stones_of(pos);
        // A full refresh adds one row per stone; an update one per changed stone.
        let mut best_cost = (to[0].count_ones() + to[1].count_ones()) as usize;
        let mut base = None;
        for q in [Some(ply), ply.checked_sub(1), ply.checked_sub(2)]
            .into_iter()
            .flatten()
        {
            if let Some(from) = self.stones[q] {
                let cost =
                    ((from[0] ^ to[0]).count_ones() + (from[1] ^ to[1]).count_ones()) as usize;
                if cost < best_cost {
                    best_cost = cost;
                    base = Some((q, from));
                }
            }
        }
        match base {
            Some((q, from)) => {
                if q != ply {
                    self.acc
                        .copy_within(q * lanes..(q + 1) * lanes, ply * lanes);
                }
                let acc = &mut self.acc[ply * lanes..(ply + 1) * lanes];
                self.net.update(from, to, acc);
            }
            None => {
                let acc = &mut self.acc[ply * lanes..(ply + 1) * lanes];
                self.net.refresh(to, acc);
            }
        }
        self.stones[ply] = Some(to);
        self.net
            .finish(pos, &self.acc[ply * lanes..(ply + 1) * lanes])
    }
}

#[cfg(test)]
pub(crate) mod tests;
