//! Building a turn step by step, for interactive clients.
//!
//! The builder writes no rule of its own: it keeps the position's legal turns
//! ([`Position::legal_turns`], which follows the game of the rules: the capture game, Vela or
//! Fanoron-Telo) and narrows them to those that begin with the steps made so far.

use core::fmt;

use crate::movegen;
use crate::{
    Bitboard, Color, Direction, Point, Position, Step, StepKind, StepList, Turn, TurnList,
};

/// Builds a turn one step at a time, as a player makes it on a board.
///
/// Before the first step, [`TurnBuilder::legal_steps`] lists every legal first step (capture
/// steps when a capture exists, otherwise paika). After a capture step it lists the legal
/// continuation steps of the same stone, and [`TurnBuilder::can_end`] says whether the turn may
/// stop here. When a move from one point to another allows both approach and withdrawal, the
/// list holds two steps with the same points and different kinds: the caller chooses.
///
/// The builder follows the game of the position's rules: in Vela's first phase the restricted
/// side is offered only its legal paika moves and the other side single capture steps that
/// take one stone; in Fanoron-Telo's placement phase there is no step but a placement
/// ([`TurnBuilder::legal_placements`], [`TurnBuilder::place`]), then one paika step a turn.
///
/// The steps offered are exactly those that lead to the turns of [`Position::legal_turns`],
/// and [`TurnBuilder::finish`] returns the legal turn itself (a property test checks it for
/// every game, board size and rule option).
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
///
/// A placement in Fanoron-Telo:
///
/// ```
/// use fanorona_core::{BoardSize, Position, Rules};
///
/// let pos = Position::start_with(BoardSize::TELO, Rules::TELO)?;
/// let mut builder = pos.begin_turn();
/// assert!(builder.legal_steps().is_empty());
/// assert_eq!(builder.legal_placements().count(), 9);
/// let b2 = pos.size().parse_point("b2").unwrap();
/// builder.place(b2)?;
/// let turn = builder.finish()?;
/// assert!(turn.is_placement());
/// assert_eq!(turn.to_string(), "b2");
/// assert!(pos.play(&turn).is_ok());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct TurnBuilder {
    start: Position,
    /// The legal turns of `start` that begin with the steps made so far (after a placement:
    /// that placement).
    turns: TurnList,
    /// The number of steps made so far.
    depth: usize,
    me: u64,
    opp: u64,
    turn: Option<Turn>,
    visited: u64,
    last: usize,
}

/// Why a step, a placement or the end of a turn was refused.
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
    /// The point is not among [`TurnBuilder::legal_placements`]: not the placement phase of
    /// Fanoron-Telo, a point taken, or a step or placement already made.
    IllegalPlacement(Point),
    /// The turn cannot end yet: no step was made, or compulsory continuation demands more.
    CannotEnd,
}

impl fmt::Display for StepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepError::Illegal(s) => write!(f, "illegal {} step {s}", s.kind),
            StepError::IllegalPlacement(p) => write!(f, "illegal placement on {p}"),
            StepError::CannotEnd => write!(f, "the turn cannot end here"),
        }
    }
}

impl std::error::Error for StepError {}

impl Position {
    /// Starts building a turn step by step (see [`TurnBuilder`]).
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let builder = Position::standard().begin_turn();
    /// assert_eq!(builder.legal_steps().len(), 5);
    /// ```
    pub fn begin_turn(&self) -> TurnBuilder {
        TurnBuilder {
            start: *self,
            turns: self.legal_turns(),
            depth: 0,
            me: self.stones[self.side.index()],
            opp: self.stones[self.side.other().index()],
            turn: None,
            visited: 0,
            last: 8,
        }
    }
}

/// The `n`th step of `turn` (counting from 0), if it has that many.
fn nth_step(turn: &Turn, n: usize) -> Option<Step> {
    if n < turn.len() {
        turn.steps().nth(n)
    } else {
        None
    }
}

impl TurnBuilder {
    /// The position the turn started from.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// Whether a placement was made (then no step follows).
    fn placed(&self) -> bool {
        self.turn.is_some_and(|t| t.is_placement())
    }

    /// The steps legal now: first steps before any step, continuation steps during a chain,
    /// none after a paika or a placement, or when the chain cannot go on.
    pub fn legal_steps(&self) -> StepList {
        let mut out = StepList::new();
        if self.placed() {
            return out;
        }
        for turn in self.turns.iter() {
            if let Some(step) = nth_step(turn, self.depth)
                && !out.contains(&step)
            {
                out.push(step);
            }
        }
        out
    }

    /// The points where a stone may be placed now: the empty points during Fanoron-Telo's
    /// placement phase, before anything is placed; empty otherwise.
    ///
    /// ```
    /// use fanorona_core::Position;
    ///
    /// let pos = Position::from_fen("3/1W1/3 b")?;
    /// let pos = pos.with_rules("game=telo".parse()?)?;
    /// let places = pos.begin_turn().legal_placements();
    /// assert_eq!(places.count(), 8);
    /// assert!(!places.contains(pos.size().parse_point("b2").unwrap()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn legal_placements(&self) -> Bitboard {
        if self.turn.is_some() {
            return Bitboard::EMPTY;
        }
        self.turns
            .iter()
            .filter(|t| t.is_placement())
            .map(|t| t.to())
            .collect()
    }

    /// Places a new stone on `at` (Fanoron-Telo's placement phase): the whole turn, which
    /// [`TurnBuilder::finish`] then returns.
    ///
    /// # Errors
    ///
    /// [`StepError::IllegalPlacement`] when `at` is not one of
    /// [`TurnBuilder::legal_placements`]; the builder is unchanged.
    pub fn place(&mut self, at: Point) -> Result<(), StepError> {
        if !self.legal_placements().contains(at) || at.size() != self.start.size() {
            return Err(StepError::IllegalPlacement(at));
        }
        self.turns.retain(|t| t.is_placement() && t.to() == at);
        let turn = self.turns[0];
        self.turn = Some(turn);
        self.me |= 1u64 << at.index();
        self.visited |= 1u64 << at.index();
        Ok(())
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
    /// then as it was before that step. A placement is taken back too, and returns `None`
    /// (it is not a step).
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
        let mut again = self.start.begin_turn();
        if turn.is_placement() {
            *self = again;
            return None;
        }
        let steps: StepList = turn.steps().collect();
        let (last, before) = steps.split_last()?;
        for step in before {
            again
                .play_step(*step)
                .expect("a step that was legal is legal again from the same start");
        }
        *self = again;
        Some(*last)
    }

    /// The stones `step` would capture now (empty for a paika or an illegal step).
    ///
    /// In Vela's first phase a capture takes only the first stone of the line:
    ///
    /// ```
    /// use fanorona_core::{BoardSize, Position, Rules};
    ///
    /// let pos = Position::start(BoardSize::STANDARD).with_rules(Rules::VELA)?;
    /// // White (restricted) moves first: no capture is offered.
    /// let builder = pos.begin_turn();
    /// assert!(builder.legal_steps().iter().all(|s| !s.kind.is_capture()));
    /// let pos = pos.play(&pos.parse_turn("d3-e3")?)?;
    /// // Black's d4-d3 approach would take d2 and d1 in the capture game; here only d2.
    /// let builder = pos.begin_turn();
    /// assert_eq!(builder.legal_steps().len(), 3);
    /// let [d4, d3, d2] = ["d4", "d3", "d2"].map(|n| pos.size().parse_point(n).unwrap());
    /// let step = builder.steps_between(d4, d3)[0];
    /// assert_eq!(builder.captured_by(step).points(pos.size()).collect::<Vec<_>>(), [d2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn captured_by(&self, step: Step) -> Bitboard {
        if !step.kind.is_capture() || self.placed() {
            return Bitboard::EMPTY;
        }
        let geo = self.start.geometry();
        let (start, dir) = match step.kind {
            StepKind::Withdrawal => (
                geo.neighbour(step.from, step.dir.opposite()),
                step.dir.opposite(),
            ),
            _ => (geo.neighbour(step.to, step.dir), step.dir),
        };
        let Some(start) = start else {
            return Bitboard::EMPTY;
        };
        // The line the step strikes, as far as the rules of the game let it capture: the
        // stones every legal turn that begins this way captures (Vela's first phase takes
        // only the first stone).
        let mut taken = None;
        for turn in self.turns.iter() {
            if nth_step(turn, self.depth) == Some(step) {
                *taken.get_or_insert(u64::MAX) &= turn.captured().bits();
            }
        }
        match taken {
            Some(taken) => Bitboard::from_bits(
                movegen::capture_line(&self.start, start.index() as u8, dir.index(), self.opp)
                    & taken,
            ),
            None => Bitboard::EMPTY,
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
        let depth = self.depth;
        self.turns.retain(|t| nth_step(t, depth) == Some(step));
        self.depth += 1;
        self.me ^= (1u64 << from) | (1u64 << to);
        self.visited |= (1u64 << from) | (1u64 << to);
        self.last = d;
        Ok(())
    }

    /// The steps made so far, as a (possibly unfinished) turn; a placement once made.
    pub fn turn_so_far(&self) -> Option<Turn> {
        self.turn
    }

    /// The legal turn made of exactly the steps (or the placement) made so far, if any.
    fn finished(&self) -> Option<Turn> {
        self.turn?;
        self.turns.iter().copied().find(|t| t.len() == self.depth)
    }

    /// Whether the turn may end now: after a paika or a placement, or after a capture step
    /// unless compulsory continuation demands another.
    pub fn can_end(&self) -> bool {
        self.finished().is_some()
    }

    /// Whether no further step is possible (the turn is over once it can end).
    pub fn is_complete(&self) -> bool {
        self.turn.is_some() && self.legal_steps().is_empty()
    }

    /// The moving stone's point during a chain (the placed stone's point after a placement).
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

    /// Ends the turn and returns it: the legal turn of [`Position::legal_turns`] made of the
    /// steps (or the placement) made, ready for [`Position::play`].
    ///
    /// # Errors
    ///
    /// [`StepError::CannotEnd`] when [`TurnBuilder::can_end`] is false.
    pub fn finish(&self) -> Result<Turn, StepError> {
        self.finished().ok_or(StepError::CannotEnd)
    }
}
