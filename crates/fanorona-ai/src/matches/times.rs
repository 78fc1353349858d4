//! Turn times of a match: each turn's wall time as the match measured it and the search time
//! the engine reported, and their distribution over the turns of a player.

use std::collections::BTreeMap;
use std::time::Duration;

/// The time of one turn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct TurnTime {
    /// The wall time the match measured, from asking the player to its answer (the engine's
    /// search, and for an external engine the pipes and the process's scheduling).
    pub wall: Duration,
    /// The time the engine itself says it searched (this engine's search result, an external
    /// engine's last `info ... time MS`); `None` for players that search nothing or say
    /// nothing.
    pub search: Option<Duration>,
}

impl TurnTime {
    /// A turn that took `wall` in all, of which the engine says it searched `search`.
    ///
    /// ```
    /// use std::time::Duration;
    /// use fanorona_ai::matches::TurnTime;
    ///
    /// let t = TurnTime::new(Duration::from_millis(203), Some(Duration::from_millis(200)));
    /// assert_eq!(t.wall.as_millis(), 203);
    /// ```
    pub fn new(wall: Duration, search: Option<Duration>) -> TurnTime {
        TurnTime { wall, search }
    }
}

/// The distribution of a player's turn times, to a tenth of a millisecond (the resolution
/// of the games file's `TurnTimesMs` tag, so that a resumed or merged match counts the same
/// numbers). Memory grows with the number of distinct times, not of turns.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::matches::TurnTimes;
///
/// let mut t = TurnTimes::default();
/// for ms in [10, 20, 30, 40, 400] {
///     t.add(Duration::from_millis(ms));
/// }
/// assert_eq!(t.count(), 5);
/// assert_eq!(t.median(), Some(Duration::from_millis(30)));
/// assert_eq!(t.max(), Some(Duration::from_millis(400)));
/// assert_eq!(t.over(Duration::from_millis(200)), 1);
/// ```
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TurnTimes {
    /// Turns by their time in tenths of a millisecond.
    counts: BTreeMap<u64, u64>,
    total: u64,
}

/// Tenths of a millisecond, rounded to the nearest.
fn tenths(d: Duration) -> u64 {
    u64::try_from(d.as_micros().saturating_add(50) / 100).unwrap_or(u64::MAX)
}

impl TurnTimes {
    /// Counts a turn of `time`.
    pub fn add(&mut self, time: Duration) {
        *self.counts.entry(tenths(time)).or_insert(0) += 1;
        self.total += 1;
    }

    /// Counts every turn of `other`.
    pub fn merge(&mut self, other: &TurnTimes) {
        for (&k, &n) in &other.counts {
            *self.counts.entry(k).or_insert(0) += n;
        }
        self.total += other.total;
    }

    /// Turns counted.
    pub fn count(&self) -> u64 {
        self.total
    }

    /// The `q`-quantile (0 to 1) by the nearest rank: the smallest time at or below which at
    /// least `q` of the turns fall; `None` with no turn.
    pub fn quantile(&self, q: f64) -> Option<Duration> {
        if self.total == 0 {
            return None;
        }
        // Nearest rank, from 1: ceil(q * n), at least 1.
        let rank = ((q.clamp(0.0, 1.0) * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut seen = 0;
        for (&k, &n) in &self.counts {
            seen += n;
            if seen >= rank {
                return Some(Duration::from_micros(k * 100));
            }
        }
        self.max()
    }

    /// The median (nearest rank).
    pub fn median(&self) -> Option<Duration> {
        self.quantile(0.5)
    }

    /// The 99th percentile (nearest rank).
    pub fn p99(&self) -> Option<Duration> {
        self.quantile(0.99)
    }

    /// The longest turn.
    pub fn max(&self) -> Option<Duration> {
        self.counts
            .last_key_value()
            .map(|(&k, _)| Duration::from_micros(k * 100))
    }

    /// Turns that took longer than `limit`.
    pub fn over(&self, limit: Duration) -> u64 {
        self.counts
            .range(tenths(limit).saturating_add(1)..)
            .map(|(_, &n)| n)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_by_nearest_rank() {
        let ms = Duration::from_millis;
        let mut t = TurnTimes::default();
        assert_eq!((t.median(), t.p99(), t.max()), (None, None, None));
        // 1..=100 ms: nearest-rank median is the 50th value, p99 the 99th.
        for i in (1..=100).rev() {
            t.add(ms(i));
        }
        assert_eq!(t.median(), Some(ms(50)));
        assert_eq!(t.p99(), Some(ms(99)));
        assert_eq!(t.max(), Some(ms(100)));
        assert_eq!(t.quantile(0.0), Some(ms(1)));
        assert_eq!(t.over(ms(90)), 10);
        // Rounded to tenths of a millisecond.
        let mut u = TurnTimes::default();
        u.add(Duration::from_micros(200_049));
        u.add(Duration::from_micros(200_050));
        assert_eq!(u.max(), Some(Duration::from_micros(200_100)));
        assert_eq!(u.over(ms(200)), 1);
        u.merge(&t);
        assert_eq!(u.count(), 102);
    }
}
