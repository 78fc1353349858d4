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

/// A game clock for a match: each player starts with `time` and gains `increment` after each
/// of its turns, as cutechess-cli's `tc=TIME+INC`. Written and read as `SECONDS+SECONDS`
/// (`10+0.1`), or `SECONDS` with no increment.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use fanorona_ai::matches::TimeControl;
///
/// let tc: TimeControl = "10+0.1".parse()?;
/// assert_eq!(tc.time, Duration::from_secs(10));
/// assert_eq!(tc.increment, Duration::from_millis(100));
/// assert_eq!(tc.to_string(), "10+0.1");
/// assert!("10+".parse::<TimeControl>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub struct TimeControl {
    /// The time on each player's clock at the start.
    pub time: Duration,
    /// The time added after each turn.
    pub increment: Duration,
}

impl TimeControl {
    /// `time` at the start and `increment` per turn.
    pub fn new(time: Duration, increment: Duration) -> TimeControl {
        TimeControl { time, increment }
    }
}

/// Seconds as written in a time control: up to 3 decimals, no trailing zeros.
fn seconds_text(d: Duration) -> String {
    let ms = d.as_millis();
    let (s, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        s.to_string()
    } else {
        format!("{s}.{frac:03}").trim_end_matches('0').to_owned()
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", seconds_text(self.time))?;
        if !self.increment.is_zero() {
            write!(f, "+{}", seconds_text(self.increment))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        // At most a day on the clock, a minute of increment, to the millisecond.
        let secs = |s: &str, max: f64| -> Result<Duration, String> {
            let x: f64 = s
                .trim()
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite() && (0.0..=max).contains(x))
                .ok_or_else(|| format!("{s:?} is not a number of seconds from 0 to {max}"))?;
            Ok(Duration::from_millis((x * 1000.0).round() as u64))
        };
        let (time, increment) = match text.split_once('+') {
            Some((t, i)) => (secs(t, 86_400.0)?, secs(i, 60.0)?),
            None => (secs(text, 86_400.0)?, Duration::ZERO),
        };
        if time.is_zero() {
            return Err(format!(
                "time control {text:?}: the clock must start above 0 (SECONDS+INCREMENT, such as 10+0.1)"
            ));
        }
        Ok(TimeControl { time, increment })
    }
}
