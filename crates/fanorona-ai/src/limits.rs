//! What stops a search: depth, nodes, time per turn, a game clock with increment, or nothing
//! but an explicit stop.

use std::time::Duration;

use crate::Score;
use crate::params::{CLOCK_MAX_PERCENT, CLOCK_MOVES, MAX_DEPTH, MOVE_OVERHEAD_MS, SOFT_PERCENT};

/// The longest time budget: longer times are cut to it, so that a deadline never overflows
/// the system's clock (a year is as good as forever for a search).
pub(crate) const MAX_BUDGET: Duration = Duration::from_secs(365 * 24 * 3600);

/// The side to move's game clock. Made with [`Clock::new`] (it may gain fields: it is
/// `#[non_exhaustive]`).
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::{Clock, Limits};
///
/// let clock = Clock::new(Duration::from_secs(60), Duration::from_secs(1)).with_moves_to_go(20);
/// let limits = Limits::default().with_clock(clock);
/// assert_eq!(limits.clock.map(|c| c.moves_to_go), Some(Some(20)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each turn.
    pub increment: Duration,
    /// Turns to play until the next time control, when there is one.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// A clock with `remaining` time and `increment` per turn, and no time control ahead.
    pub fn new(remaining: Duration, increment: Duration) -> Clock {
        Clock {
            remaining,
            increment,
            moves_to_go: None,
        }
    }

    /// This clock with `turns` to play until the next time control.
    pub fn with_moves_to_go(mut self, turns: u32) -> Clock {
        self.moves_to_go = Some(turns);
        self
    }
}

/// The limits of one search. Several may be set; the search stops at the first one reached.
/// With none set (and `infinite` false) the search runs to [`MAX_DEPTH`] or until stopped.
///
/// Whatever the limits, the search answers with a legal turn when one exists: even a one-node
/// limit or a stop before the first iteration finishes yields the best turn by move ordering.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::Limits;
///
/// let quick = Limits::movetime(Duration::from_millis(100));
/// let fixed = Limits::depth(6).with_nodes(1_000_000);
/// assert_eq!(fixed.depth, Some(6));
/// assert_eq!(quick.movetime, Some(Duration::from_millis(100)));
/// let clock = Limits::clock(Duration::from_secs(60), Duration::from_secs(1));
/// assert!(clock.clock.is_some());
/// ```
///
/// `Limits` may gain fields (it is `#[non_exhaustive]`): make it with the constructors and the
/// `with_` methods, or from [`Limits::default`] (no limit) by setting fields.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
#[non_exhaustive]
pub struct Limits {
    /// Stop after completing this many plies of iterative deepening.
    pub depth: Option<u32>,
    /// Stop after visiting this many nodes.
    pub nodes: Option<u64>,
    /// Stop after this long.
    pub movetime: Option<Duration>,
    /// Share the game clock out over the remaining turns.
    pub clock: Option<Clock>,
    /// Look for a forced win within this many of the side to move's own turns (UCI's
    /// `mate`): the search goes at most `2 * mate - 1` plies deep (unless [`Self::depth`]
    /// says less) and stops as soon as it has found such a win.
    pub mate: Option<u32>,
    /// Search until stopped: the depth, node, time and win limits are ignored.
    pub infinite: bool,
}

impl Limits {
    /// Search to a fixed depth in plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for a fixed time.
    pub fn movetime(time: Duration) -> Limits {
        Limits {
            movetime: Some(time),
            ..Limits::default()
        }
    }

    /// Play on a game clock with `remaining` time and `increment` per turn.
    pub fn clock(remaining: Duration, increment: Duration) -> Limits {
        Limits {
            clock: Some(Clock::new(remaining, increment)),
            ..Limits::default()
        }
    }

    /// Search until stopped.
    pub fn infinite() -> Limits {
        Limits {
            infinite: true,
            ..Limits::default()
        }
    }

    /// Look for a forced win within `turns` of the side to move's own turns.
    pub fn mate(turns: u32) -> Limits {
        Limits {
            mate: Some(turns),
            ..Limits::default()
        }
    }

    /// These limits with a depth limit added.
    pub fn with_depth(mut self, depth: u32) -> Limits {
        self.depth = Some(depth);
        self
    }

    /// These limits with a node limit added.
    pub fn with_nodes(mut self, nodes: u64) -> Limits {
        self.nodes = Some(nodes);
        self
    }

    /// These limits with a time limit added.
    pub fn with_movetime(mut self, time: Duration) -> Limits {
        self.movetime = Some(time);
        self
    }

    /// These limits with a game clock added.
    pub fn with_clock(mut self, clock: Clock) -> Limits {
        self.clock = Some(clock);
        self
    }

    /// These limits with a forced-win search added (see [`Limits::mate`]).
    pub fn with_mate(mut self, turns: u32) -> Limits {
        self.mate = Some(turns);
        self
    }

    /// Whether time decides when the search stops (movetime or clock), so that a position
    /// with a single legal turn is answered at once.
    pub fn is_timed(&self) -> bool {
        !self.infinite && (self.movetime.is_some() || self.clock.is_some())
    }

    /// Whether any limit ends the search by itself (else only a stop does, or the deepest
    /// iteration [`MAX_DEPTH`]).
    pub fn is_limited(&self) -> bool {
        !self.infinite
            && (self.depth.is_some()
                || self.nodes.is_some()
                || self.movetime.is_some()
                || self.clock.is_some()
                || self.mate.is_some())
    }

    /// The deepest iteration to run.
    pub fn max_depth(&self) -> u32 {
        if self.infinite {
            return MAX_DEPTH;
        }
        let mate = self.mate.map(|n| n.saturating_mul(2).saturating_sub(1));
        let depth = match (self.depth, mate) {
            (Some(d), Some(m)) => d.min(m),
            (d, m) => d.or(m).unwrap_or(MAX_DEPTH),
        };
        depth.clamp(1, MAX_DEPTH)
    }

    /// Whether `value` (a completed iteration's score, internal scale) is a win the
    /// [`Self::mate`] limit asks for, so that the search can stop.
    pub fn is_win_found(&self, value: i32) -> bool {
        match (self.infinite, self.mate) {
            (false, Some(n)) => {
                matches!(Score::from_value(value), Score::Win(k) if k > 0 && k.unsigned_abs() <= n)
            }
            _ => false,
        }
    }

    /// The time budget: `(soft, hard)`. No new iteration starts after `soft`; the search is
    /// abandoned at `hard`. `None` when time does not limit the search.
    pub fn time_budget(&self) -> Option<(Duration, Duration)> {
        if self.infinite {
            return None;
        }
        let overhead = Duration::from_millis(MOVE_OVERHEAD_MS);
        let mut hard: Option<Duration> = self.movetime.map(|t| t.saturating_sub(overhead));
        let mut soft = hard;
        if let Some(c) = self.clock {
            let left = c.remaining.saturating_sub(overhead);
            let moves = c.moves_to_go.unwrap_or(CLOCK_MOVES).clamp(1, CLOCK_MOVES);
            // Saturating: the times come from users and may be absurd.
            let share = (left / moves).saturating_add(c.increment.saturating_mul(3) / 4);
            let cap = left.saturating_mul(CLOCK_MAX_PERCENT as u32) / 100;
            let h = share.min(cap).max(Duration::from_millis(1));
            let s = h.saturating_mul(SOFT_PERCENT as u32) / 100;
            hard = Some(hard.map_or(h, |x| x.min(h)));
            soft = Some(soft.map_or(s, |x| x.min(s)));
        }
        let hard = hard?.clamp(Duration::from_millis(1), MAX_BUDGET);
        let soft = soft.unwrap_or(hard).min(hard);
        Some((soft, hard))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_budget_keeps_the_overhead() {
        let (soft, hard) = Limits::movetime(Duration::from_millis(100))
            .time_budget()
            .unwrap();
        assert_eq!(hard, Duration::from_millis(100 - MOVE_OVERHEAD_MS));
        assert_eq!(soft, hard);
    }

    #[test]
    fn clock_budget_spreads_time_and_never_spends_most_of_it() {
        let l = Limits::clock(Duration::from_secs(50), Duration::ZERO);
        let (soft, hard) = l.time_budget().unwrap();
        // (50 s - overhead) / 25 turns, just under 2 s; the soft limit a fraction of it.
        assert!(hard < Duration::from_secs(2) && hard > Duration::from_millis(1900));
        assert!(soft < hard);
        let low = Limits::clock(Duration::from_millis(100), Duration::from_secs(5));
        let (_, hard) = low.time_budget().unwrap();
        assert!(hard <= Duration::from_millis(40));
    }

    #[test]
    fn absurd_times_saturate_instead_of_overflowing() {
        let huge = Duration::from_millis(u64::MAX);
        let mut l = Limits::clock(huge, huge);
        l.clock.as_mut().unwrap().moves_to_go = Some(0);
        let (soft, hard) = l.time_budget().unwrap();
        assert_eq!(hard, MAX_BUDGET);
        assert!(soft <= hard);
        let (soft, hard) = Limits::movetime(huge).time_budget().unwrap();
        assert_eq!((soft, hard), (MAX_BUDGET, MAX_BUDGET));
        // The deadline can be computed.
        assert!(std::time::Instant::now().checked_add(hard).is_some());
    }

    #[test]
    fn mate_limits_the_depth_and_stops_at_a_win_in_time() {
        use crate::params::WIN;
        assert_eq!(Limits::mate(1).max_depth(), 1);
        assert_eq!(Limits::mate(3).max_depth(), 5);
        assert_eq!(Limits::mate(3).with_depth(2).max_depth(), 2);
        assert_eq!(Limits::mate(u32::MAX).max_depth(), MAX_DEPTH);
        assert_eq!(Limits::mate(0).max_depth(), 1);
        // A win on the side to move's 2nd turn (3 plies) answers `mate 2`, not `mate 1`.
        assert!(Limits::mate(2).is_win_found(WIN - 3));
        assert!(!Limits::mate(1).is_win_found(WIN - 3));
        assert!(!Limits::mate(5).is_win_found(-(WIN - 2)));
        assert!(!Limits::mate(5).is_win_found(30));
        assert!(Limits::mate(2).is_limited());
        assert!(!Limits::default().is_limited());
        let mut l = Limits::infinite();
        l.depth = Some(3);
        assert!(!l.is_limited());
    }

    #[test]
    fn untimed_limits_have_no_budget() {
        assert!(Limits::depth(3).time_budget().is_none());
        assert!(Limits::infinite().time_budget().is_none());
        assert_eq!(Limits::default().max_depth(), MAX_DEPTH);
        assert_eq!(Limits::depth(0).max_depth(), 1);
        let mut l = Limits::infinite();
        l.depth = Some(3);
        assert_eq!(l.max_depth(), MAX_DEPTH);
    }
}
