//! Building a turn step by step, for interactive clients.

use core::fmt;

use crate::movegen;
use crate::{Bitboard, Color, Direction, Point, Position, Step, StepKind, StepList, Turn};

/// Builds a turn one step at a time, as a player makes it on a board.
///
/// Before the first step, [`TurnBuilder::legal_steps`] lists every legal first step (capture
/// steps when a capture exists, otherwise paika). After a capture step it lists the legal
/// continuation steps of the same stone, and [`TurnBuilder::can_end`] says whether the turn may
/// stop here. When a move from one point to another allows both approach and withdrawal, the
/// list holds two steps with the same points and different kinds: the caller chooses.
///
/// The steps offered are exactly those that lead to the turns of
/// [`Position::legal_turns`] (a property test checks it).
///
/// # Examples
///
/// ```
/// use fanorona_core::{Position, StepKind};
///
/// let pos = Position::standard();
/// let mut builder = pos.begin_turn();
/// // d3 to e3 can approach (f3) or withdraw (c3): two steps with the same points.
/// let both: Vec<_> = builder
///     .legal_steps()
///     .into_iter()
///     .filter(|s| s.from == pos.size().parse_point("d3").unwrap())
///     .collect();
/// assert_eq!(both.len(), 2);
/// let withdraw = both.iter().find(|s| s.kind == StepKind::Withdrawal).unwrap();
/// builder.play_step(*withdraw)?;
/// assert!(builder.can_end());
/// let turn = builder.finish()?;
/// assert_eq!(turn.to_string(), "d3-e3W");
/// assert_eq!(turn, pos.parse_turn("d3-e3W").unwrap());
/// # Ok::<(), fanorona_core::StepError>(())
/// ```
#[derive(Clone, Debug)]
pub struct TurnBuilder {
    start: Position,
    me: u64,
    opp: u64,
    turn: Option<Turn>,
    visited: u64,
    last: usize,
}

/// Why a step or the end of a turn was refused.
///
/// ```
/// use fanorona_core::{Position, StepError};
///
/// let pos = Position::standard();
/// let mut builder = pos.begin_turn();
/// let step = builder.legal_steps()[0];
/// builder.play_step(step)?;
/// match builder.play_step(step) {
///     Err(e @ StepError::Illegal(_)) => assert!(e.to_string().starts_with("illegal ")),
///     other => panic!("{other:?}"),
/// }
/// # Ok::<(), StepError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum StepError {
    /// The step is not among [`TurnBuilder::legal_steps`]; it names its points (see
    /// [`Step`]'s `Display`).
    Illegal(Step),
    /// The turn cannot end yet: no step was made, or compulsory continuation demands more.
    CannotEnd,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Illegal(s) => write!(f, "illegal {} step {s}", s.kind),
            StepError::CannotEnd => write!(f, "the turn cannot end here"),
        }
    }
}

impl std::error::Error for StepError {}

impl Position {
    /// Starts building a turn step by step.
    pub fn begin_turn(&self) -> TurnBuilder {
        TurnBuilder {
            start: *self,
            me: self.stones[self.side.index()],
            opp: self.stones[self.side.other().index()],
            turn: None,
            visited: 0,
            last: 8,
        }
    }
}

impl TurnBuilder {
    /// The position the turn started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The steps legal now: first steps before any step, continuation steps during a chain,
    /// none after a paika or when the chain cannot go on.
    pub fn legal_steps(&self) -> StepList {
        let mut out = StepList::new();
        let pos = &self.start;
        let size = pos.size();
        let kind = |wd: bool| {
            if wd {
                StepKind::Withdrawal
            } else {
                StepKind::Approach
            }
        };
        match self.turn {
            None => {
                let (masks, any) = movegen::capture_masks(pos);
                if any {
                    movegen::first_capture_steps(pos, &masks, |from, d, wd, to, _| {
                        out.push(Step {
                            from: Point::new(size, from),
                            to: Point::new(size, to),
                            dir: Direction::from_index(d),
                            kind: kind(wd),
                        });
                    });
                } else {
                    movegen::paika_steps(pos, u64::MAX, |from, d, to| {
                        out.push(Step {
                            from: Point::new(size, from),
                            to: Point::new(size, to),
                            dir: Direction::from_index(d),
                            kind: StepKind::Paika,
                        });
                    });
                }
            }
            Some(turn) => {
                if turn.is_paika() || pos.is_opening_restricted() {
                    return out;
                }
                let at = turn.to().index() as u8;
                movegen::continuation_steps(
                    pos,
                    at,
                    self.me,
                    self.opp,
                    self.visited,
                    self.last,
                    |d, wd, to, _| {
                        out.push(Step {
                            from: Point::new(size, at),
                            to: Point::new(size, to),
                            dir: Direction::from_index(d),
                            kind: kind(wd),
                        });
                    },
                );
            }
        }
        out
    }

    /// The legal steps from `from` now (see [`TurnBuilder::legal_steps`]): what a client
    /// highlights when a player picks up a stone.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::standard();
    /// let builder = pos.begin_turn();
    /// let d3 = pos.size().parse_point("d3").unwrap();
    /// // d3-e3 approaches or withdraws: two steps to the same point.
    /// assert_eq!(builder.steps_from(d3).len(), 2);
    /// let c3 = pos.size().parse_point("c3").unwrap();
    /// assert!(builder.steps_from(c3).is_empty()); // c3 cannot capture
    /// ```
    pub fn steps_from(&self, from: Point) -> StepList {
        let mut steps = self.legal_steps();
        steps.retain(|s| s.from == from);
        steps
    }

    /// The legal steps from `from` to `to` now: none, one, or two when the move can approach
    /// or withdraw (the player then chooses the capture).
    ///
    /// ```
    /// use fanorona_core::{Position, StepKind};
    ///
    /// let pos = Position::standard();
    /// let mut builder = pos.begin_turn();
    /// let [d3, e3, f2] = ["d3", "e3", "f2"].map(|n| pos.size().parse_point(n).unwrap());
    /// let kinds: Vec<StepKind> = builder.steps_between(d3, e3).iter().map(|s| s.kind).collect();
    /// assert!(kinds.len() == 2 && kinds.contains(&StepKind::Approach) && kinds.contains(&StepKind::Withdrawal));
    /// let only = builder.steps_between(f2, e3);
    /// assert_eq!(only.len(), 1);
    /// builder.play_step(only[0])?;
    /// assert_eq!(builder.finish()?.to_string(), "f2-e3A");
    /// # Ok::<(), fanorona_core::StepError>(())
    /// ```
    pub fn steps_between(&self, from: Point, to: Point) -> StepList {
        let mut steps = self.legal_steps();
        steps.retain(|s| s.from == from && s.to == to);
        steps
    }

    /// Takes back the last step and returns it (`None` before the first step). The builder is
    /// then as it was before that step.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::standard();
    /// let mut builder = pos.begin_turn();
    /// let first = builder.legal_steps()[0];
    /// builder.play_step(first)?;
    /// assert_eq!(builder.undo_step(), Some(first));
    /// assert!(builder.turn_so_far().is_none());
    /// assert_eq!(builder.legal_steps().len(), 5);
    /// assert_eq!(builder.undo_step(), None);
    /// # Ok::<(), fanorona_core::StepError>(())
    /// ```
    pub fn undo_step(&mut self) -> Option<Step> {
        let turn = self.turn?;
        let steps: StepList = turn.steps().collect();
        let (last, before) = steps.split_last()?;
        let mut again = self.start.begin_turn();
        for step in before {
            again
                .play_step(*step)
                .expect("a step that was legal is legal again from the same start");
        }
        *self = again;
        Some(*last)
    }

    /// The stones `step` would capture now (empty for a paika or an illegal step).
    pub fn captured_by(&self, step: Step) -> Bitboard {
        let opp = self.opp;
        let geo = self.start.geometry();
        let start = match step.kind {
            StepKind::Paika => return Bitboard::EMPTY,
            StepKind::Approach => geo.neighbour(step.to, step.dir),
            StepKind::Withdrawal => geo.neighbour(step.from, step.dir.opposite()),
        };
        let dir = match step.kind {
            StepKind::Withdrawal => step.dir.opposite(),
            _ => step.dir,
        };
        match start {
            Some(p) if self.legal_steps().contains(&step) => Bitboard::from_bits(
                movegen::capture_line(&self.start, p.index() as u8, dir.index(), opp),
            ),
            _ => Bitboard::EMPTY,
        }
    }

    /// Makes a step.
    ///
    /// # Errors
    ///
    /// [`StepError::Illegal`] when the step is not one of [`TurnBuilder::legal_steps`]; the
    /// builder is unchanged.
    pub fn play_step(&mut self, step: Step) -> Result<(), StepError> {
        if !self.legal_steps().contains(&step) {
            return Err(StepError::Illegal(step));
        }
        let size = self.start.size();
        let (from, to, d) = (
            step.from.index() as u8,
            step.to.index() as u8,
            step.dir.index(),
        );
        if step.kind == StepKind::Paika {
            self.turn = Some(Turn::paika(size, from, d, to));
        } else {
            let captured = self.captured_by(step).bits();
            let base = self.turn.unwrap_or_else(|| Turn::start_capture(size, from));
            self.turn = Some(base.push_capture(d, step.kind == StepKind::Withdrawal, to, captured));
            self.opp &= !captured;
        }
        self.me ^= (1u64 << from) | (1u64 << to);
        self.visited |= (1u64 << from) | (1u64 << to);
        self.last = d;
        Ok(())
    }

    /// The steps made so far, as a (possibly unfinished) turn.
    pub fn turn_so_far(&self) -> Option<Turn> {
        self.turn
    }

    /// Whether the turn may end now: after a paika, or after a capture step unless compulsory
    /// continuation demands another.
    pub fn can_end(&self) -> bool {
        match self.turn {
            None => false,
            Some(t) if t.is_paika() => true,
            Some(_) => !self.start.rules().compulsory_continuation || self.legal_steps().is_empty(),
        }
    }

    /// Whether no further step is possible (the turn is over once it can end).
    pub fn is_complete(&self) -> bool {
        self.turn.is_some() && self.legal_steps().is_empty()
    }

    /// The moving stone's point during a chain.
    pub fn current_point(&self) -> Option<Point> {
        self.turn.map(|t| t.to())
    }

    /// The points the moving stone has occupied this turn (it may not return to them).
    pub fn visited(&self) -> Bitboard {
        Bitboard::from_bits(self.visited)
    }

    /// The direction of the last step (the next step may not repeat it).
    pub fn last_direction(&self) -> Option<Direction> {
        (self.last < 8).then(|| Direction::from_index(self.last))
    }

    /// The stones of `color` on the board as it stands after the steps so far.
    pub fn stones(&self, color: Color) -> Bitboard {
        if color == self.start.side_to_move() {
            Bitboard::from_bits(self.me)
        } else {
            Bitboard::from_bits(self.opp)
        }
    }

    /// Ends the turn.
    ///
    /// # Errors
    ///
    /// [`StepError::CannotEnd`] when [`TurnBuilder::can_end`] is false.
    pub fn finish(&self) -> Result<Turn, StepError> {
        match self.turn {
            Some(t) if self.can_end() => Ok(t),
            _ => Err(StepError::CannotEnd),
        }
    }
}
