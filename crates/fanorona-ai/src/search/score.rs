//! Scores as the engine reports them: centi-stones, or a win at a known distance.

use core::fmt;

use crate::params::{WIN, WIN_BOUND};

/// A search score from the side to move's point of view.
///
/// `Display` writes the protocol form: `cp 35` (centi-stones, 100 = one stone) or `win 3`
/// (the side to move wins on its third turn from now at the latest, with best play), `win -2`
/// (the opponent wins on its second turn).
///
/// # Examples
///
/// ```
/// use fanorona_ai::{Score, params::WIN};
///
/// assert_eq!(Score::from_value(35).to_string(), "cp 35");
/// assert_eq!(Score::from_value(WIN - 1).to_string(), "win 1"); // wins with this turn
/// assert_eq!(Score::from_value(-(WIN - 4)).to_string(), "win -2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Score {
    /// A heuristic score in centi-stones.
    Cp(i32),
    /// A forced result: positive, the side to move wins within this many of its own turns;
    /// negative, the opponent wins within this many of its turns.
    Win(i32),
}

impl Score {
    /// The score the search's internal value stands for.
    pub fn from_value(value: i32) -> Score {
        if value >= WIN_BOUND {
            let plies = WIN - value;
            Score::Win((plies + 1) / 2)
        } else if value <= -WIN_BOUND {
            let plies = WIN + value;
            Score::Win(-(plies / 2).max(1))
        } else {
            Score::Cp(value)
        }
    }

    /// Whether the score is a forced win or loss.
    pub fn is_decisive(&self) -> bool {
        matches!(self, Score::Win(_))
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Win(n) => write!(f, "win {n}"),
        }
    }
}
