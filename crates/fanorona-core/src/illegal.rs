//! Why a turn is not legal: the reasons shared by turn text ([`crate::TurnError`]) and
//! checked play ([`crate::PlayError`]).

use core::fmt;

use crate::{BoardSize, GameKind, Point, Position, StepKind};

/// Why a turn is not legal in a position, as far as it can be told simply.
///
/// # Examples
///
/// ```
/// use fanorona_core::{IllegalReason, Position, TurnError};
///
/// let pos = Position::standard();
/// let reason = |text| match pos.parse_turn(text) {
///     Err(TurnError::Illegal { reason, .. }) => reason,
///     other => panic!("{other:?}"),
/// };
/// assert!(matches!(reason("e3-e4"), IllegalReason::NoStone(p) if p == "e3"));
/// assert!(matches!(reason("e4-e3A"), IllegalReason::OpponentStone(p) if p == "e4"));
/// assert!(matches!(reason("d3-f3"), IllegalReason::NotAdjacent { .. }));
/// assert!(matches!(reason("a1-a2"), IllegalReason::Occupied(p) if p == "a2"));
/// assert_eq!(reason("e2-e3-d3"), IllegalReason::NoSuchPath);
/// assert_eq!(reason("a1-a2").to_string(), "a2 is not empty");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum IllegalReason {
    /// The turn was made for another board.
    WrongBoard {
        /// The board of the turn.
        turn: BoardSize,
        /// The board of the position.
        position: BoardSize,
    },
    /// The game is over in this position: no turn is legal.
    GameOver,
    /// There is no stone on the starting point.
    NoStone(Point),
    /// The stone on the starting point belongs to the side not to move.
    OpponentStone(Point),
    /// A step goes to a point that is not next to its start along a line of the board.
    NotAdjacent {
        /// Where the step starts.
        from: Point,
        /// Where it goes.
        to: Point,
    },
    /// The first step goes to a point that holds a stone.
    Occupied(Point),
    /// A paika while a capture is available: capturing is compulsory.
    CaptureCompulsory,
    /// More than one capture step on a first turn under the opening restriction.
    OpeningRestriction,
    /// A Fanoron-Telo placement while the side to move has all its stones on the board.
    MustMove,
    /// A Fanoron-Telo move while the side to move still places stones.
    MustPlace,
    /// The path is possible on the board, but no legal turn follows it (a capture letter that
    /// captures nothing, a chain that turns back, repeats a direction or revisits a point).
    NoSuchPath,
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalReason::WrongBoard { turn, position } => write!(
                f,
                "the turn is for the {turn} board, the position is on {position}"
            ),
            IllegalReason::GameOver => write!(f, "the game is over"),
            IllegalReason::NoStone(p) => write!(f, "there is no stone on {p}"),
            IllegalReason::OpponentStone(p) => {
                write!(f, "the stone on {p} belongs to the side not to move")
            }
            IllegalReason::NotAdjacent { from, to } => {
                write!(f, "{to} is not next to {from} along a line")
            }
            IllegalReason::Occupied(p) => write!(f, "{p} is not empty"),
            IllegalReason::CaptureCompulsory => {
                write!(f, "a capture is available, and capturing is compulsory")
            }
            IllegalReason::OpeningRestriction => write!(
                f,
                "the opening restriction allows a single capture step on the first turn"
            ),
            IllegalReason::MustMove => write!(f, "all three stones are on the board: move one"),
            IllegalReason::MustPlace => write!(f, "the side to move still places stones"),
            IllegalReason::NoSuchPath => write!(f, "no legal turn follows this path"),
        }
    }
}

impl Position {
    /// Why the turn from `from` along `steps` (each point stepped to, with its capture kind
    /// when known) is not legal here. Called once the turn is known not to be legal.
    pub(crate) fn illegal_reason(
        &self,
        from: Point,
        steps: &[(Point, Option<StepKind>)],
    ) -> IllegalReason {
        if self.outcome().is_some() {
            return IllegalReason::GameOver;
        }
        if self.rules().game() == GameKind::Telo {
            return match (steps.is_empty(), self.is_placement_phase()) {
                (true, false) => IllegalReason::MustMove,
                (false, true) => IllegalReason::MustPlace,
                (true, true) => IllegalReason::Occupied(from),
                (false, false) => IllegalReason::NoSuchPath,
            };
        }
        let Some(owner) = self.stone_at(from) else {
            return IllegalReason::NoStone(from);
        };
        if owner != self.side_to_move() {
            return IllegalReason::OpponentStone(from);
        }
        let geo = self.geometry();
        let mut at = from;
        for &(to, _) in steps {
            let adjacent = geo.adjacent[at.index()] >> to.index() & 1 == 1;
            if !adjacent {
                return IllegalReason::NotAdjacent { from: at, to };
            }
            at = to;
        }
        let Some(&(first, kind)) = steps.first() else {
            return IllegalReason::NoSuchPath;
        };
        if self.stone_at(first).is_some() {
            return IllegalReason::Occupied(first);
        }
        let paika = steps.len() == 1 && kind.is_none_or(|k| k == StepKind::Paika);
        if paika && self.has_capture() {
            let mut captures_there = false;
            self.for_each_turn_from(from, |t| {
                captures_there |= t.steps().next().is_some_and(|s| s.to == first);
            });
            if !captures_there {
                return IllegalReason::CaptureCompulsory;
            }
        }
        if steps.len() > 1 && self.is_opening_restricted() {
            return IllegalReason::OpeningRestriction;
        }
        IllegalReason::NoSuchPath
    }
}
