//! The traditional games beside the capture game: Vela (the handicap game) and Fanoron-Telo
//! (the alignment game). [`docs/rules.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/rules.md) states their rules.
//!
//! Turn generation of the capture game ([`crate::movegen`]) hands over to [`generate`] when
//! one of them changes the turns of the position.

use crate::movegen::{Sink, capture_masks, paika_steps};
use crate::{Color, GameKind, Position, Turn, VelaRule};

/// The eight lines of three on the 3x3 board (three ranks, three files, two diagonals), as
/// bit masks of point indices (`rank * 3 + file`).
pub(crate) const TELO_LINES: [u64; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// How many stones each side has in Fanoron-Telo.
pub(crate) const TELO_STONES: u32 = 3;

/// Whether the stones `bb` cover one of the lines of three of the 3x3 board.
#[inline]
pub(crate) fn telo_aligned(bb: u64) -> bool {
    TELO_LINES.iter().any(|&line| (bb & line).count_ones() == 3)
}

/// The side that has three stones in a line in a Fanoron-Telo position, if any: the side that
/// just moved first (it made the line), else the side to move (possible only in a position
/// given from outside).
pub(crate) fn telo_winner(pos: &Position) -> Option<Color> {
    let last = pos.side.other();
    [last, pos.side]
        .into_iter()
        .find(|c| telo_aligned(pos.stones[c.index()]))
}

/// The side restricted during the Vela phase: the previous winner, who gives the handicap.
/// Under Montgomery it opens the game and so plays White; under Bell the other side opens, and
/// the previous winner plays Black.
#[inline]
pub(crate) fn vela_giver(pos: &Position) -> Color {
    pos.rules.vela.giver()
}

/// Whether the Vela restriction is in force: the game is Vela and the restricted side has
/// more than five stones.
#[inline]
pub(crate) fn vela_restricted(pos: &Position) -> bool {
    pos.rules
        .vela_phase(pos.stones[vela_giver(pos).index()].count_ones())
}

/// Whether the side to move receives the handicap under Bell's Vela while the restriction is
/// in force: it must capture, and without a capture it has no turn and loses.
#[inline]
pub(crate) fn bell_receiver(pos: &Position) -> bool {
    pos.rules.game == GameKind::Vela
        && pos.rules.vela == VelaRule::Bell
        && pos.side != vela_giver(pos)
        && vela_restricted(pos)
}

/// Whether the side to move must capture (and can): false for the restricted side during the
/// Vela phase and in Fanoron-Telo.
#[inline]
pub(crate) fn has_capture(pos: &Position) -> bool {
    match pos.rules.game {
        GameKind::Telo => false,
        _ => {
            if pos.side == vela_giver(pos) && vela_restricted(pos) {
                return false;
            }
            capture_masks(pos).1
        }
    }
}

/// Generates the turns of `pos` (those of the stones in `only`; for a placement, those onto
/// the points in `only`) when a traditional game changes them, and returns true; returns
/// false, generating nothing, when the turns are those of the capture game.
#[inline]
pub(crate) fn generate<S: Sink>(pos: &Position, only: u64, sink: &mut S) -> bool {
    if pos.rules.game == GameKind::Telo {
        generate_telo(pos, only, sink);
        return true;
    }
    if !vela_restricted(pos) {
        return false;
    }
    let size = pos.size();
    if pos.side == vela_giver(pos) {
        // The restricted side never captures, and it surrenders stones: when some of its paika
        // moves leave the other side a capture, only those are legal.
        let (mut offers, mut others) = (Vec::new(), Vec::new());
        paika_steps(pos, u64::MAX, |from, d, to| {
            let turn = Turn::paika(size, from, d, to);
            if offers_capture(pos, from, to) {
                offers.push(turn);
            } else {
                others.push(turn);
            }
        });
        let legal = if offers.is_empty() { others } else { offers };
        for turn in legal {
            if only & (1u64 << turn.start_index()) != 0 {
                sink.push(turn);
            }
        }
        return true;
    }
    let (mut masks, any) = capture_masks(pos);
    if !any {
        // Montgomery: the other side moves without capturing. Bell: it has no turn (and loses,
        // see `Position::outcome`).
        if pos.rules.vela == VelaRule::Montgomery {
            paika_steps(pos, only, |from, d, to| {
                sink.push(Turn::paika(size, from, d, to))
            });
        }
        return true;
    }
    for d in 0..8 {
        masks.0[d] &= only;
        masks.1[d] &= only;
    }
    // The other side captures one stone per turn: one step, the first stone of the line only.
    let geo = pos.geo;
    for d in 0..8 {
        let back = (d + 4) & 7;
        let mut a = masks.0[d];
        while a != 0 {
            let from = a.trailing_zeros() as u8;
            a &= a - 1;
            let to = geo.neighbour_raw(from, d);
            let beyond = geo.neighbour_raw(to, d);
            sink.push(Turn::start_capture(size, from).push_capture(d, false, to, 1u64 << beyond));
        }
        let mut w = masks.1[d];
        while w != 0 {
            let from = w.trailing_zeros() as u8;
            w &= w - 1;
            let to = geo.neighbour_raw(from, d);
            let behind = geo.neighbour_raw(from, back);
            sink.push(Turn::start_capture(size, from).push_capture(d, true, to, 1u64 << behind));
        }
    }
    true
}

/// Whether the paika `from`-`to` of the side to move leaves the other side a capture.
fn offers_capture(pos: &Position, from: u8, to: u8) -> bool {
    let mut next = *pos;
    next.stones[pos.side.index()] ^= (1u64 << from) | (1u64 << to);
    next.side = pos.side.other();
    capture_masks(&next).1
}

/// Fanoron-Telo: no turn once a line of three stands; placements while the side to move has
/// stones to place; otherwise one step along a line to an adjacent empty point.
fn generate_telo<S: Sink>(pos: &Position, only: u64, sink: &mut S) {
    if telo_winner(pos).is_some() {
        return;
    }
    let size = pos.size();
    if pos.stones[pos.side.index()].count_ones() < TELO_STONES {
        let mut empty = pos.empty().bits() & only;
        while empty != 0 {
            let at = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            sink.push(Turn::place(size, at));
        }
        return;
    }
    paika_steps(pos, only, |from, d, to| {
        sink.push(Turn::paika(size, from, d, to))
    });
}

/// Whether the side to move has a legal turn in Fanoron-Telo.
pub(crate) fn telo_has_legal_turn(pos: &Position) -> bool {
    let mut any = false;
    generate_telo(pos, u64::MAX, &mut crate::movegen::FnSink(|_| any = true));
    any
}
