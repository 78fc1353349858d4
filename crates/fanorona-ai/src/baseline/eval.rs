//! The static evaluation of v0.1.0 (copied from `src/eval.rs` at commit 81132a4): material,
//! mobility, strong points, structure and, in the endgame, pressure towards the enemy.

use fanorona_core::{Bitboard, Color, Direction, Geometry, Position};

use super::params::{
    ENDGAME_PROXIMITY, ENDGAME_STONES, ISOLATED, MOBILITY, NO_CAPTURE_SCALE, STONE, STRONG_POINT,
    TEMPO, TRADE_OFFSET, TRADE_WEIGHT,
};

/// Mobility (steps to empty neighbours) and isolated stones of one side.
#[inline]
fn side_terms(geo: &Geometry, me: Bitboard, empty: Bitboard) -> (i32, i32) {
    let mut steps = 0;
    let mut friended = Bitboard::EMPTY;
    for dir in Direction::ALL {
        steps += (me & geo.toward(empty, dir)).count();
        friended |= geo.toward(me, dir);
    }
    (steps as i32, (me & !friended).count() as i32)
}

/// Sum of files and ranks of the stones in `bb`.
fn centre_sums(bb: u64, cols: u8) -> (i32, i32) {
    let (mut fx, mut fy) = (0, 0);
    let mut b = bb;
    while b != 0 {
        let p = b.trailing_zeros() as u8;
        b &= b - 1;
        fx += i32::from(p % cols);
        fy += i32::from(p / cols);
    }
    (fx, fy)
}

/// The evaluation of `pos` from White's side, before the no-capture scaling and tempo.
fn white_score(pos: &Position) -> i32 {
    let geo = pos.geometry();
    let cols = pos.size().cols();
    let strong = geo.strong().bits();
    let w = pos.stones(Color::White).bits();
    let b = pos.stones(Color::Black).bits();
    let empty = pos.empty();
    let (nw, nb) = (w.count_ones() as i32, b.count_ones() as i32);
    let diff = nw - nb;
    let mut s = diff * STONE;
    s += diff * TRADE_WEIGHT / (nw + nb + TRADE_OFFSET);
    s += STRONG_POINT * ((w & strong).count_ones() as i32 - (b & strong).count_ones() as i32);
    let (mw, iw) = side_terms(geo, Bitboard::from_bits(w), empty);
    let (mb, ib) = side_terms(geo, Bitboard::from_bits(b), empty);
    s += MOBILITY * (mw - mb) + ISOLATED * (iw - ib);
    if diff != 0 && (nw + nb) as u32 <= ENDGAME_STONES && nw > 0 && nb > 0 {
        // Distance between the armies' centres (Chebyshev), in points.
        let (wx, wy) = centre_sums(w, cols);
        let (bx, by) = centre_sums(b, cols);
        let dx = (wx * nb - bx * nw).abs() / (nw * nb);
        let dy = (wy * nb - by * nw).abs() / (nw * nb);
        let dist = dx.max(dy);
        s -= diff.signum() * ENDGAME_PROXIMITY * dist;
    }
    s
}

/// The static evaluation of `pos` in centi-stones from the side to move's point of view
/// (positive: good for the side to move).
///
/// It does not look at captures the side to move has pending; the search resolves those
/// before it trusts this number (see the quiescence search).
pub(super) fn evaluate(pos: &Position) -> i32 {
    let mut s = white_score(pos);
    if let Some(limit) = pos
        .rules()
        .no_capture_limit()
        .map(core::num::NonZeroU16::get)
    {
        let full = NO_CAPTURE_SCALE * i32::from(limit);
        let n = i32::from(pos.no_capture_count().min(limit));
        s = s * (full - n) / full;
    }
    let s = if pos.side_to_move() == Color::White {
        s
    } else {
        -s
    };
    s + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    #[test]
    fn symmetric_positions_score_the_tempo() {
        assert_eq!(evaluate(&Position::standard()), TEMPO);
        let black_to_move = pos("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b");
        assert_eq!(evaluate(&black_to_move), TEMPO);
    }

    #[test]
    fn material_dominates_and_flips_with_the_side() {
        // White: a1, c1; Black: i5. White is one stone up.
        let w = pos("8B/9/9/9/W1W6 w");
        let b = pos("8B/9/9/9/W1W6 b");
        assert!(evaluate(&w) > STONE / 2);
        assert!(evaluate(&b) < -STONE / 2);
        assert_eq!(evaluate(&w) - TEMPO, -(evaluate(&b) - TEMPO));
    }

    #[test]
    fn a_lead_is_worth_more_with_fewer_stones() {
        let few = pos("8B/9/9/9/W1W6 w");
        // 18 stones each, mirror images: only the tempo remains.
        let many = pos("BBBBBBBBB/BBBBBBBBB/9/WWWWWWWWW/WWWWWWWWW w");
        // The same with one black stone less: White one up, but with 35 stones on the board.
        let many_up = pos("BBBBBBBBB/BBBBBBBB1/9/WWWWWWWWW/WWWWWWWWW w");
        assert!(evaluate(&few) > evaluate(&many_up));
        assert_eq!(evaluate(&many), TEMPO);
    }

    #[test]
    fn the_no_capture_counter_shrinks_a_lead() {
        let fresh = pos("8B/9/9/9/W1W6 w 0 30");
        let stale = pos("8B/9/9/9/W1W6 w 90 30");
        assert!(evaluate(&stale) < evaluate(&fresh));
        assert!(evaluate(&stale) > 0);
        let off: Rules = "no-capture-limit=off".parse().unwrap();
        assert_eq!(
            evaluate(&stale.with_rules_unchecked(off)),
            evaluate(&fresh.with_rules_unchecked(off))
        );
    }
}
