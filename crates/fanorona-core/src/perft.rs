//! Counting turn sequences, the standard check of a move generator.
//!
//! `perft(pos, n)` counts the sequences of `n` legal turns from `pos`. The last ply is counted
//! in bulk: at depth 1 the turns are counted without being played. Game-level rules
//! (repetition, no-capture limit) do not stop the count; a position without legal turns
//! contributes nothing.
//!
//! # Examples
//!
//! ```
//! use fanorona_core::{perft, Position};
//!
//! // From the literature: 5, 39 and 724 turn sequences of length 1, 2 and 3.
//! let pos = Position::standard();
//! assert_eq!(perft::perft(&pos, 1), 5);
//! assert_eq!(perft::perft(&pos, 2), 39);
//! assert_eq!(perft::perft(&pos, 3), 724);
//! ```

use crate::{Position, Turn};

/// The number of turn sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_turns(),
        _ => {
            let mut total = 0;
            pos.for_each_turn(|t| total += perft(&pos.play_unchecked(&t), depth - 1));
            total
        }
    }
}

/// Perft for each legal turn: the turn and the count below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Turn, u64)> {
    pos.legal_turns()
        .into_iter()
        .map(|t| (t, perft(&pos.play_unchecked(&t), depth.saturating_sub(1))))
        .collect()
}

/// Like [`perft`], but at each node the turns that lead to the same position are counted once
/// (and only one of them is followed): the count over [`Position::unique_turns`]. The last ply
/// is counted in bulk ([`Position::count_unique_turns`]).
pub fn perft_unique(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_unique_turns(),
        _ => pos
            .unique_turns()
            .iter()
            .map(|t| perft_unique(&pos.play_unchecked(t), depth - 1))
            .sum(),
    }
}

/// [`divide`] with [`perft_unique`]: for each turn leading to a distinct position (the first
/// such turn in generation order), the unique count below it.
pub fn divide_unique(pos: &Position, depth: u32) -> Vec<(Turn, u64)> {
    unique_children(pos)
        .into_iter()
        .map(|(t, p)| (t, perft_unique(&p, depth.saturating_sub(1))))
        .collect()
}

/// The legal turns that lead to distinct positions ([`Position::unique_turns`]), each with its
/// position.
pub fn unique_children(pos: &Position) -> Vec<(Turn, Position)> {
    pos.unique_turns()
        .into_iter()
        .map(|t| (t, pos.play_unchecked(&t)))
        .collect()
}
