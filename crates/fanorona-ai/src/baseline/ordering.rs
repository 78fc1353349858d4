//! Move ordering: the transposition table's turn, then captures by the number of stones they
//! take, then killer turns, then the history of cutoffs.

use fanorona_core::{Color, Turn, TurnList};
use smallvec::SmallVec;

use super::params::{HISTORY_MAX, ORDER_CAPTURE, ORDER_KILLER, ORDER_PER_STONE, ORDER_TT};
use super::tt::turn_key;

/// Two quiet turns per ply that recently caused a cutoff.
pub(super) type Killers = [u64; 2];

/// Cutoff history by side, start point and end point.
pub(super) struct History {
    table: [[[i32; 64]; 64]; 2],
}

impl Default for History {
    fn default() -> History {
        History {
            table: [[[0; 64]; 64]; 2],
        }
    }
}

impl History {
    /// Halves every entry: older searches count less.
    pub(super) fn age(&mut self) {
        for side in &mut self.table {
            for row in side.iter_mut() {
                for v in row.iter_mut() {
                    *v /= 2;
                }
            }
        }
    }

    #[inline]
    fn update(&mut self, side: Color, from: u8, to: u8, bonus: i32) {
        let v = &mut self.table[side.index()][from as usize][to as usize];
        // Saturating update: the entry moves towards +-HISTORY_MAX.
        *v += bonus - *v * bonus.abs() / HISTORY_MAX;
    }

    /// A turn caused a cutoff at `depth`.
    #[inline]
    pub(super) fn reward(&mut self, side: Color, turn: &Turn, depth: i32) {
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.update(
            side,
            turn.from().index() as u8,
            turn.to().index() as u8,
            bonus,
        );
    }

    /// A quiet turn was tried before the one that caused a cutoff.
    #[inline]
    pub(super) fn punish(&mut self, side: Color, from: u8, to: u8, depth: i32) {
        let bonus = (depth * depth).min(HISTORY_MAX / 4);
        self.update(side, from, to, -bonus);
    }

    #[inline]
    fn get(&self, side: Color, turn: &Turn) -> i32 {
        self.table[side.index()][turn.from().index()][turn.to().index()]
    }
}

/// Ordering scores of `turns`, one per turn.
#[inline]
pub(super) fn score_turns(
    turns: &TurnList,
    tt_turn: u64,
    killers: &Killers,
    history: &History,
    side: Color,
) -> SmallVec<[i32; 64]> {
    turns
        .iter()
        .map(|t| {
            let key = turn_key(t);
            if key == tt_turn {
                ORDER_TT
            } else if t.is_capture() {
                ORDER_CAPTURE + t.captured().count() as i32 * ORDER_PER_STONE + history.get(side, t)
            } else if key == killers[0] {
                ORDER_KILLER
            } else if key == killers[1] {
                ORDER_KILLER - 1
            } else {
                history.get(side, t)
            }
        })
        .collect()
}

/// Removes and returns the turn with the highest score.
#[inline]
pub(super) fn pick_next(turns: &mut TurnList, scores: &mut SmallVec<[i32; 64]>) -> Option<Turn> {
    if turns.is_empty() {
        return None;
    }
    let mut best = 0;
    for i in 1..scores.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    scores.swap_remove(best);
    Some(turns.swap_remove(best))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Position;

    #[test]
    fn bigger_captures_come_first_and_the_table_turn_before_all() {
        let pos = Position::standard();
        let mut turns = pos.legal_turns();
        let history = History::default();
        // d2-e3A, e2-e3A and f2-e3A capture two stones; d3-e3A and d3-e3W one each.
        let mut scores = score_turns(&turns, 0, &[0, 0], &history, Color::White);
        let mut order = Vec::new();
        while let Some(t) = pick_next(&mut turns, &mut scores) {
            order.push(t.captured().count());
        }
        assert_eq!(order, vec![2, 2, 2, 1, 1]);

        let mut turns = pos.legal_turns();
        let last = *turns.last().unwrap();
        let mut scores = score_turns(&turns, turn_key(&last), &[0, 0], &history, Color::White);
        assert_eq!(pick_next(&mut turns, &mut scores), Some(last));
    }

    #[test]
    fn history_saturates() {
        let mut h = History::default();
        let t = Position::standard().legal_turns()[0];
        for _ in 0..10_000 {
            h.reward(Color::White, &t, 60);
        }
        let v = h.get(Color::White, &t);
        assert!(v > 0 && v <= HISTORY_MAX);
        h.age();
        assert_eq!(h.get(Color::White, &t), v / 2);
    }
}
