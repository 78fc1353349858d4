//! Fanoron-Telo solved: every position reachable from the empty 3x3 board, with its exact value
//! by retrograde analysis ([`docs/solver.md`](https://github.com/fanorona-rs/fanorona/blob/main/docs/solver.md), section "Fanoron-Telo").
//!
//! The game is tiny (three stones each on nine points), so the whole graph of reachable
//! positions is built forward with the turn generator of `fanorona-core`, then solved backward
//! in rounds: round 0 marks the positions whose side to move has lost (the opponent has three
//! in a line, or under `stuck=loses` the side to move has no turn); round `n` marks a position
//! won in `n` plies when some turn leads to a position lost in `n - 1`, and lost in `n` plies
//! when every turn leads to a position already won. What is left when a round marks nothing is
//! a draw: neither side can force a line, and play goes round until the repetition rule ends
//! it. The distances are the shortest wins and the longest losses, so a side following them
//! never repeats a position: the values hold under any repetition rule.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::solve::Value;
//! use fanorona_ai::telo::TeloSolution;
//! use fanorona_core::{Position, Rules};
//!
//! let solution = TeloSolution::solve(Rules::TELO)?;
//! // White a3 b3, Black a2 b2, White to place: c3 wins at once.
//! let pos = Position::from_fen("WW1/BB1/3 w telo")?;
//! assert_eq!(solution.value(&pos), Some((Value::Win, 1)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;

use fanorona_core::{BoardSize, GameKind, Position, PositionError, Rules, StuckRule};

use crate::solve::Value;

/// The value of every Fanoron-Telo position reachable from the start, for the side to move,
/// with the distance in plies to the end of the game for a win or a loss (0 for a draw).
#[derive(Clone, Debug)]
pub struct TeloSolution {
    rules: Rules,
    index: HashMap<Key, usize>,
    positions: Vec<Position>,
    values: Vec<(Value, u16)>,
    rounds: u16,
}

/// A position without its counters: the stones and the side to move.
type Key = (u64, u64, bool);

fn key(pos: &Position) -> Key {
    (
        pos.stones(fanorona_core::Color::White).bits(),
        pos.stones(fanorona_core::Color::Black).bits(),
        pos.side_to_move() == fanorona_core::Color::White,
    )
}

impl TeloSolution {
    /// Builds every position reachable from the empty board under `rules` (their `game` is
    /// taken as `telo`) and solves them.
    ///
    /// # Errors
    ///
    /// None in practice: the error of [`Position::start_with`], kept as a value.
    pub fn solve(mut rules: Rules) -> Result<TeloSolution, PositionError> {
        rules = rules.with_game(GameKind::Telo);
        let start = Position::start_with(BoardSize::TELO, rules)?;
        // Forward: every reachable position and its successors.
        let mut index: HashMap<Key, usize> = HashMap::new();
        let mut positions = vec![start];
        let mut successors: Vec<Vec<usize>> = Vec::new();
        index.insert(key(&start), 0);
        let mut next = 0;
        while next < positions.len() {
            let pos = positions[next];
            let mut succ = Vec::new();
            for turn in pos.legal_turns() {
                let after = pos.play_unchecked(&turn);
                let k = key(&after);
                let i = *index.entry(k).or_insert_with(|| {
                    positions.push(after);
                    positions.len() - 1
                });
                if !succ.contains(&i) {
                    succ.push(i);
                }
            }
            successors.push(succ);
            next += 1;
        }
        // Backward, in rounds of one ply.
        let n = positions.len();
        let mut values: Vec<Option<(Value, u16)>> = vec![None; n];
        for (i, pos) in positions.iter().enumerate() {
            if successors[i].is_empty() {
                // A line of three stands (the side that made it wins), or the side to move
                // is stuck.
                let lined = pos
                    .outcome()
                    .is_some_and(|o| o.winner == Some(pos.side_to_move().other()));
                values[i] = Some(if lined || rules.stuck() == StuckRule::Loses {
                    (Value::Loss, 0)
                } else {
                    (Value::Draw, 0)
                });
            }
        }
        let mut round: u16 = 0;
        loop {
            round += 1;
            let mut marked = Vec::new();
            for i in 0..n {
                if values[i].is_some() {
                    continue;
                }
                let succ = &successors[i];
                if succ
                    .iter()
                    .any(|&j| values[j] == Some((Value::Loss, round - 1)))
                {
                    marked.push((i, (Value::Win, round)));
                } else if succ
                    .iter()
                    .all(|&j| matches!(values[j], Some((Value::Win, _))))
                {
                    marked.push((i, (Value::Loss, round)));
                }
            }
            if marked.is_empty() {
                break;
            }
            for (i, v) in marked {
                values[i] = Some(v);
            }
        }
        Ok(TeloSolution {
            rules,
            index,
            positions,
            values: values
                .into_iter()
                .map(|v| v.unwrap_or((Value::Draw, 0)))
                .collect(),
            rounds: round - 1,
        })
    }

    /// The value of `pos` for its side to move and the distance in plies to the end of the
    /// game under best play (0 for a draw); `None` for a position not reachable from the
    /// start (or not a Fanoron-Telo position).
    pub fn value(&self, pos: &Position) -> Option<(Value, u16)> {
        if pos.rules().game() != GameKind::Telo {
            return None;
        }
        self.index.get(&key(pos)).map(|&i| self.values[i])
    }

    /// The value of the start (the empty board, White to place).
    pub fn start(&self) -> (Value, u16) {
        self.values[0]
    }

    /// The rules solved under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Every reachable position with its value, the start first.
    pub fn iter(&self) -> impl Iterator<Item = (&Position, (Value, u16))> {
        self.positions.iter().zip(self.values.iter().copied())
    }

    /// How many reachable positions are won, drawn and lost for their side to move.
    pub fn counts(&self) -> [usize; 3] {
        let mut c = [0; 3];
        for (v, _) in &self.values {
            c[match v {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            }] += 1;
        }
        c
    }

    /// The longest win or loss, in plies.
    pub fn longest(&self) -> u16 {
        self.rounds
    }
}
