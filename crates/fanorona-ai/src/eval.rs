//! The static evaluation: material first, then mobility, strong points, structure, threats
//! and, in the endgame, pressure towards the enemy. All weights live in [`crate::params`];
//! they were fitted to game results by `fanorona tune` (Texel's method, see [`crate::tune`]).
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
//! // After f2-e3A White is two stones up: Black, to move, scores it below zero.
//! let after = start.play(&start.parse_turn("f2-e3A")?)?;
//! assert!(evaluate(&after) < 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use fanorona_core::{Bitboard, Direction, Geometry, Position};

use crate::params::{
    ENDGAME_PROXIMITY, ENDGAME_STONES, ISOLATED, MOBILITY, NO_CAPTURE_SCALE, STONE, STRONG_POINT,
    TEMPO, THREAT, THREATENED, TRADE_OFFSET, TRADE_WEIGHT,
};

/// The evaluation's terms of one position from the side to move's view, before the weights
/// (see [`terms`]). Differences are "own minus the opponent's".
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct Terms {
    /// Own stones minus the opponent's.
    pub material: i32,
    /// Stones on the board, both sides.
    pub stones: i32,
    /// Stones on strong points, own minus the opponent's.
    pub strong: i32,
    /// Steps to an empty neighbour, own minus the opponent's.
    pub mobility: i32,
    /// Stones with no friendly neighbour, own minus the opponent's.
    pub isolated: i32,
    /// Endgame only (at most [`ENDGAME_STONES`] stones, material unequal): the distance in
    /// points between the two armies' centres, signed by the material (positive when the side
    /// to move is ahead); 0 otherwise.
    pub distance: i32,
    /// Own stones the opponent could take as the first stone of a capture, were it its turn;
    /// 0 when the side to move has a capture itself.
    pub threatened: i32,
    /// 1 when [`Terms::threatened`] is not 0; else 0.
    pub threat: i32,
    /// The no-capture factor: the scaled part of the score is multiplied by
    /// `scale_num / scale_den` (1/1 without a no-capture limit).
    pub scale_num: i32,
    /// See [`Terms::scale_num`].
    pub scale_den: i32,
}

/// Each set moved one step against each direction ([`Geometry::toward`] for the eight
/// directions, by [`Direction::index`]): computed once per evaluation and shared by its terms.
#[inline]
fn towards(geo: &Geometry, set: Bitboard) -> [Bitboard; 8] {
    Direction::ALL.map(|dir| geo.toward(set, dir))
}

/// Mobility (steps to empty neighbours) and isolated stones of one side, from the side's
/// stones and the moved sets of the empty points and of the side's stones.
#[inline]
fn side_terms(me: Bitboard, to_empty: &[Bitboard; 8], to_me: &[Bitboard; 8]) -> (i32, i32) {
    let mut steps = 0;
    let mut friended = Bitboard::EMPTY;
    for d in 0..8 {
        steps += (me & to_empty[d]).count();
        friended |= to_me[d];
    }
    (steps as i32, (me & !friended).count() as i32)
}

/// Whether `attackers` could capture anything from `victims`, were it their turn (the test of
/// [`capturable`] being empty, from the moved sets).
#[inline]
fn can_capture(
    attackers: Bitboard,
    empty: Bitboard,
    to_attackers: &[Bitboard; 8],
    to_victims: &[Bitboard; 8],
    to_empty: &[Bitboard; 8],
) -> bool {
    let mut any = Bitboard::EMPTY;
    for d in 0..8 {
        let back = (d + 4) & 7;
        // An empty point with a victim ahead and an attacker behind (approach), or an
        // attacker with an empty point ahead and a victim behind (withdrawal).
        any |= empty & to_victims[d] & to_attackers[back];
        any |= attackers & to_empty[d] & to_victims[back];
    }
    !any.is_empty()
}

/// [`capturable`] from the moved sets.
#[inline]
fn capturable_from(
    geo: &Geometry,
    attackers: Bitboard,
    victims: Bitboard,
    empty: Bitboard,
    to_attackers: &[Bitboard; 8],
    to_victims: &[Bitboard; 8],
    to_empty: &[Bitboard; 8],
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for (d, dir) in Direction::ALL.into_iter().enumerate() {
        let back = dir.opposite();
        let landing = empty & to_victims[d] & to_attackers[back.index()];
        out |= victims & geo.toward(landing, back);
        let movers = attackers & to_empty[d] & to_victims[back.index()];
        out |= victims & geo.toward(movers, dir);
    }
    out
}

/// The stones of `victims` that `attackers` could take as the first stone of a capture by
/// approach or withdrawal, were it their turn (the lines of stones behind them are not
/// counted).
#[inline]
pub fn capturable(
    geo: &Geometry,
    attackers: Bitboard,
    victims: Bitboard,
    empty: Bitboard,
) -> Bitboard {
    let mut out = Bitboard::EMPTY;
    for dir in Direction::ALL {
        let back = dir.opposite();
        // Approach: an attacker steps in `dir` to an empty point next to the victim.
        let landing = empty & geo.toward(victims, dir) & geo.toward(attackers, back);
        out |= victims & geo.toward(landing, back);
        // Withdrawal: an attacker next to the victim steps away from it in `dir`.
        let movers = attackers & geo.toward(empty, dir) & geo.toward(victims, back);
        out |= victims & geo.toward(movers, dir);
    }
    out
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

/// The no-capture factor of `pos` as (numerator, denominator): 1 with a fresh counter, down
/// linearly to `(NO_CAPTURE_SCALE - 1) / NO_CAPTURE_SCALE` at the limit (1/1 without one).
#[inline]
pub(crate) fn no_capture_scale(pos: &Position) -> (i32, i32) {
    // The no-capture limit scales the score only in games with captures (not in Telo's
    // alignment game).
    let limit = pos
        .rules()
        .no_capture_limit()
        .map(core::num::NonZeroU16::get)
        .filter(|_| pos.rules().game().captures());
    match limit {
        Some(limit) => {
            let full = NO_CAPTURE_SCALE * i32::from(limit);
            (full - i32::from(pos.no_capture_count().min(limit)), full)
        }
        None => (1, 1),
    }
}

/// The evaluation's terms of `pos` from the side to move's view.
///
/// ```
/// use fanorona_ai::eval::terms;
/// use fanorona_core::Position;
///
/// // White: a1, c1; Black: b1 and i5.
/// let pos = Position::from_fen("8B/9/9/9/WBW6 b").unwrap();
/// let t = terms(&pos);
/// assert_eq!((t.material, t.stones), (0, 4));
/// // Black to move has no capture; b1 is attacked (c1 withdraws to d1), i5 is not.
/// assert_eq!((t.threatened, t.threat), (1, 1));
/// // White to move has a capture: no threat terms.
/// assert_eq!(terms(&pos.null_move()).threatened, 0);
/// ```
pub fn terms(pos: &Position) -> Terms {
    let geo = pos.geometry();
    let us = pos.side_to_move();
    let me = pos.stones(us);
    let them = pos.stones(us.other());
    let empty = pos.empty();
    let (nm, nt) = (me.count() as i32, them.count() as i32);
    let material = nm - nt;
    let strong = geo.strong();
    let to_empty = towards(geo, empty);
    let to_me = towards(geo, me);
    let to_them = towards(geo, them);
    let (mm, im) = side_terms(me, &to_empty, &to_me);
    let (mt, it) = side_terms(them, &to_empty, &to_them);
    let mut distance = 0;
    if material != 0 && (nm + nt) as u32 <= ENDGAME_STONES && nm > 0 && nt > 0 {
        // Distance between the armies' centres (Chebyshev), in points.
        let cols = pos.size().cols();
        let (ax, ay) = centre_sums(me.bits(), cols);
        let (bx, by) = centre_sums(them.bits(), cols);
        let dx = (ax * nt - bx * nm).abs() / (nm * nt);
        let dy = (ay * nt - by * nm).abs() / (nm * nt);
        distance = material.signum() * dx.max(dy);
    }
    // The threats count in quiet positions only: a side that must capture is judged by its
    // captures (the search plays them out), and its evaluation stays symmetric.
    let threatened = if can_capture(me, empty, &to_me, &to_them, &to_empty) {
        0
    } else {
        capturable_from(geo, them, me, empty, &to_them, &to_me, &to_empty).count() as i32
    };
    let (scale_num, scale_den) = no_capture_scale(pos);
    Terms {
        material,
        stones: nm + nt,
        strong: (me & strong).count() as i32 - (them & strong).count() as i32,
        mobility: mm - mt,
        isolated: im - it,
        distance,
        threatened,
        threat: i32::from(threatened > 0),
        scale_num,
        scale_den,
    }
}

/// The static evaluation of `pos` in centi-stones from the side to move's point of view
/// (positive: good for the side to move).
///
/// It does not look at captures the side to move has pending; the search resolves those
/// before it trusts this number (see the quiescence search).
pub fn evaluate(pos: &Position) -> i32 {
    let t = terms(pos);
    let mut s = t.material * STONE;
    s += t.material * TRADE_WEIGHT / (t.stones + TRADE_OFFSET);
    s += STRONG_POINT * t.strong + MOBILITY * t.mobility + ISOLATED * t.isolated;
    s -= ENDGAME_PROXIMITY * t.distance;
    s += THREATENED * t.threatened + THREAT * t.threat;
    s * t.scale_num / t.scale_den + TEMPO
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Rules;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap()
    }

    /// The threat terms computed the direct way, one capture test per stone and direction
    /// from the definitions (approach: step to the empty point before the victim; withdrawal:
    /// step away from the victim to an empty point).
    fn threatened_by_definition(pos: &Position) -> i32 {
        let geo = pos.geometry();
        let us = pos.side_to_move();
        let size = pos.size();
        let attacks = |att: Bitboard, vic: Bitboard| -> Vec<u8> {
            let mut out = Vec::new();
            for v in vic.points(size) {
                let hit = Direction::ALL.into_iter().any(|dir| {
                    // Approach along `dir`: attacker at v - 2 dir steps to the empty v - dir.
                    let back = dir.opposite();
                    let approach = geo.neighbour(v, back).is_some_and(|l| {
                        pos.empty().contains(l)
                            && geo.neighbour(l, back).is_some_and(|a| att.contains(a))
                    });
                    // Withdrawal: an attacker at v - dir steps to the empty v - 2 dir.
                    let withdrawal = geo.neighbour(v, back).is_some_and(|a| {
                        att.contains(a)
                            && geo
                                .neighbour(a, back)
                                .is_some_and(|e| pos.empty().contains(e))
                    });
                    approach || withdrawal
                });
                if hit {
                    out.push(v.index() as u8);
                }
            }
            out
        };
        let me = pos.stones(us);
        let them = pos.stones(us.other());
        if attacks(me, them).is_empty() {
            attacks(them, me).len() as i32
        } else {
            0
        }
    }

    #[test]
    fn threat_terms_match_their_definition_in_played_positions() {
        let mut rng = crate::rng::Rng::new(7);
        let mut checked = 0;
        for _ in 0..40 {
            let mut p = Position::standard();
            while p.outcome().is_none() {
                let t = terms(&p);
                assert_eq!(t.threatened, threatened_by_definition(&p), "{p}");
                assert_eq!(t.threat, i32::from(t.threatened > 0));
                checked += 1;
                let turns = p.legal_turns();
                p = p.play_unchecked(&turns[rng.below(turns.len() as u64) as usize]);
            }
        }
        assert!(checked > 1000);
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
