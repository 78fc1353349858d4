//! How a game ends.

use core::fmt;

use crate::Color;

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
#[non_exhaustive]
pub enum EndReason {
    /// The loser has no stones left.
    NoStones,
    /// The side to move has stones but no legal turn (a loss, or a draw by rule option).
    Stuck,
    /// The same position occurred the number of times the repetition rule names.
    Repetition,
    /// The no-capture limit was reached.
    NoCaptureLimit,
    /// A player resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
    /// The winner has three stones in a line (Fanoron-Telo).
    Alignment,
    /// Under Bell's Vela (`game=vela,vela=bell`), the side receiving the handicap has no
    /// capture while the other side still has more than five stones: it loses, whatever the
    /// `stuck` option says.
    NoVelaCapture,
}

impl EndReason {
    /// A short description, such as `all stones captured`.
    pub const fn description(self) -> &'static str {
        match self {
            EndReason::NoStones => "all stones captured",
            EndReason::Stuck => "no legal turn",
            EndReason::Repetition => "repetition",
            EndReason::NoCaptureLimit => "no-capture limit",
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::Alignment => "three in a line",
            EndReason::NoVelaCapture => "no capture in Vela",
        }
    }
}

/// The result of a finished game: the winner (none for a draw) and the reason.
///
/// # Examples
///
/// ```
/// use fanorona_core::{Color, EndReason, Outcome};
///
/// let o = Outcome::win(Color::Black, EndReason::NoStones);
/// assert_eq!(o.result_str(), "0-1");
/// assert_eq!(o.to_string(), "Black wins (all stones captured)");
/// assert_eq!(Outcome::draw(EndReason::Repetition).result_str(), "1/2-1/2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

impl Outcome {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// The result token of game records: `1-0` (White wins), `0-1` or `1/2-1/2`.
    pub const fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl fmt::Display for EndReason {
    /// The [`EndReason::description`], such as `all stones captured`.
    ///
    /// ```
    /// use fanorona_core::EndReason;
    /// assert_eq!(EndReason::NoCaptureLimit.to_string(), "no-capture limit");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.description())
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(Color::White) => write!(f, "White wins ({})", self.reason.description()),
            Some(Color::Black) => write!(f, "Black wins ({})", self.reason.description()),
            None => write!(f, "Draw ({})", self.reason.description()),
        }
    }
}
