//! The static evaluation: material first, then mobility, strong points, structure and, in the
//! endgame, pressure towards the enemy. All weights live in [`crate::params`].
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::evaluate;
//! use fanorona_core::Position;
//!
//! // The start is symmetric: only the tempo bonus of the side to move remains.
//! let start = Position::standard();
//! assert_eq!(evaluate(&start), fanorona_ai::params::TEMPO);
//! // After f2-e3A White is two stones up; Black, to move, sees that as about -200.
//! let after = start.play(&start.parse_turn("f2-e3A")?);
//! assert!(evaluate(&after) < -150);
//! # Ok::<(), fanorona_core::TurnError>(())
//! ```

use std::sync::OnceLock;

use fanorona_core::{BoardSize, Color, Direction, Position};

use crate::params::{
    ENDGAME_PROXIMITY, ENDGAME_STONES, ISOLATED, MOBILITY, NO_CAPTURE_SCALE, STONE, STRONG_POINT,
    TEMPO, TRADE_OFFSET, TRADE_WEIGHT,
};

/// Per-board masks for the evaluation, derived from the core's geometry.
struct Tables {
    /// Points that have a neighbour in each direction.
    has: [u64; 8],
    /// Index difference of a step in each direction.
    delta: [i8; 8],
    strong: u64,
    cols: u8,
}

fn tables(size: BoardSize) -> &'static Tables {
    static ALL: OnceLock<Vec<Tables>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        BoardSize::ALL
            .iter()
            .map(|&size| {
                let geo = size.geometry();
                let cols = size.cols() as i8;
                let mut t = Tables {
                    has: [0; 8],
                    delta: [0; 8],
                    strong: geo.strong().0,
                    cols: size.cols(),
                };
                for dir in Direction::ALL {
                    let (dx, dy) = dir.offset();
                    t.delta[dir.index()] = dy * cols + dx;
                    for p in size.points() {
                        if geo.neighbour(p, dir).is_some() {
                            t.has[dir.index()] |= 1u64 << p.0;
                        }
                    }
                }
                t
            })
            .collect()
    });
    &all[size.index()]
}

/// The points `p` for which `p + delta` is in `bb` (callers mask out wrapped bits).
#[inline(always)]
fn toward(bb: u64, delta: i8) -> u64 {
    if delta > 0 { bb >> delta } else { bb << -delta }
}

/// Mobility (steps to empty neighbours) and isolated stones of one side.
#[inline]
fn side_terms(t: &Tables, me: u64, empty: u64) -> (i32, i32) {
    let mut steps = 0;
    let mut friended = 0u64;
    for d in 0..8 {
        steps += (me & t.has[d] & toward(empty, t.delta[d])).count_ones();
        friended |= t.has[d] & toward(me, t.delta[d]);
    }
    (steps as i32, (me & !friended).count_ones() as i32)
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
    let t = tables(pos.size());
    let w = pos.stones(Color::White).0;
    let b = pos.stones(Color::Black).0;
    let empty = pos.empty().0;
    let (nw, nb) = (w.count_ones() as i32, b.count_ones() as i32);
    let diff = nw - nb;
    let mut s = diff * STONE;
    s += diff * TRADE_WEIGHT / (nw + nb + TRADE_OFFSET);
    s += STRONG_POINT * ((w & t.strong).count_ones() as i32 - (b & t.strong).count_ones() as i32);
    let (mw, iw) = side_terms(t, w, empty);
    let (mb, ib) = side_terms(t, b, empty);
    s += MOBILITY * (mw - mb) + ISOLATED * (iw - ib);
    if diff != 0 && (nw + nb) as u32 <= ENDGAME_STONES && nw > 0 && nb > 0 {
        // Distance between the armies' centres (Chebyshev), in points.
        let (wx, wy) = centre_sums(w, t.cols);
        let (bx, by) = centre_sums(b, t.cols);
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
pub fn evaluate(pos: &Position) -> i32 {
    let mut s = white_score(pos);
    if let Some(limit) = pos.rules().no_capture_limit {
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
            evaluate(&stale.with_rules(off)),
            evaluate(&fresh.with_rules(off))
        );
    }
}
