//! Ratings of players and puzzles: the Glicko-2 system.
//!
//! Implemented from Mark Glickman's published algorithm ("Example of the Glicko-2 system",
//! Boston University, 2013): ratings on the Glicko scale (1500 for a new player), a rating
//! deviation (how uncertain the rating is) and a volatility (how erratic the player is). The
//! system constant τ is [`TAU`]; the volatility iteration stops at [`EPSILON`].
//!
//! A puzzle attempt is a game against the puzzle: solved is a win (score 1), failed a loss
//! (score 0), against an opponent rated with the puzzle's rating and the deviation
//! [`PUZZLE_DEVIATION`]. Each attempt is a rating period of its own
//! ([`Rating::after_attempt`]).

/// The system constant τ: how much the volatility may change in a period (Glickman suggests
/// 0.3 to 1.2; his worked example uses 0.5).
pub const TAU: f64 = 0.5;
/// The convergence tolerance of the volatility iteration.
pub const EPSILON: f64 = 0.000_001;
/// The factor between the Glicko scale and the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;
/// The rating of a new player.
pub const DEFAULT_RATING: f64 = 1500.0;
/// The rating deviation of a new player.
pub const DEFAULT_DEVIATION: f64 = 350.0;
/// The volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// The rating deviation given to a puzzle when it is the opponent of an attempt: puzzles
/// keep fixed ratings, known about as well as an established player's.
pub const PUZZLE_DEVIATION: f64 = 80.0;
/// The smallest rating deviation a player keeps, so that a rating never freezes.
pub const MIN_DEVIATION: f64 = 30.0;

/// A Glicko-2 rating: the rating, its deviation and the volatility, on the Glicko scale.
///
/// # Examples
///
/// Glickman's worked example: a player rated 1500 (deviation 200, volatility 0.06) beats an
/// opponent rated 1400 (30) and loses to 1550 (100) and 1700 (300) in one period.
///
/// ```
/// use fanorona_ai::puzzles::Rating;
///
/// let player = Rating::new(1500.0, 200.0, 0.06);
/// let games = [
///     (Rating::new(1400.0, 30.0, 0.06), 1.0),
///     (Rating::new(1550.0, 100.0, 0.06), 0.0),
///     (Rating::new(1700.0, 300.0, 0.06), 0.0),
/// ];
/// let after = player.update(&games);
/// assert!((after.rating - 1464.06).abs() < 0.01);
/// assert!((after.deviation - 151.52).abs() < 0.01);
/// assert!((after.volatility - 0.05999).abs() < 0.00001);
///
/// // A puzzle attempt: a new player solves a puzzle rated 1600 and gains points.
/// let player = Rating::default().after_attempt(1600, true);
/// assert!(player.rating > 1500.0 && player.deviation < 350.0);
/// ```
#[derive(Clone, Copy, PartialEq, Debug)]
#[non_exhaustive]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// The rating deviation: about a 95% interval of ±2 deviations around the rating.
    pub deviation: f64,
    /// The volatility: the expected fluctuation of the rating.
    pub volatility: f64,
}

impl Default for Rating {
    /// A new player: 1500, deviation 350, volatility 0.06.
    fn default() -> Rating {
        Rating::new(DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY)
    }
}

/// Glickman's g(φ): how much an opponent's uncertainty damps the result.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (core::f64::consts::PI * core::f64::consts::PI)).sqrt()
}

/// The expected score against an opponent (μ, φ on the Glicko-2 scale).
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Rating {
    /// A rating with these values; values that are not finite, or a deviation or volatility
    /// that is not positive, are replaced by those of a new player.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating: if rating.is_finite() {
                rating
            } else {
                DEFAULT_RATING
            },
            deviation: if deviation.is_finite() && deviation > 0.0 {
                deviation
            } else {
                DEFAULT_DEVIATION
            },
            volatility: if volatility.is_finite() && volatility > 0.0 {
                volatility
            } else {
                DEFAULT_VOLATILITY
            },
        }
    }

    /// The rating after one rating period with these games: each an opponent and the score
    /// (1 a win, 0.5 a draw, 0 a loss). With no games the deviation grows (Glickman's step
    /// 6 alone). Glickman's steps 1 to 8, with [`TAU`] and [`EPSILON`].
    #[must_use]
    pub fn update(&self, games: &[(Rating, f64)]) -> Rating {
        // Step 2: to the Glicko-2 scale.
        let mu = (self.rating - DEFAULT_RATING) / SCALE;
        let phi = self.deviation / SCALE;
        let sigma = self.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Rating::new(self.rating, phi_star * SCALE, sigma);
        }
        // Steps 3 and 4: the estimated variance and the improvement.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for (opp, score) in games {
            let mu_j = (opp.rating - DEFAULT_RATING) / SCALE;
            let phi_j = opp.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            v_inv += gj * gj * e * (1.0 - e);
            sum += gj * (score.clamp(0.0, 1.0) - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (TAU * TAU)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * TAU) < 0.0 && k < 1000.0 {
                k += 1.0;
            }
            a - k * TAU
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        let mut rounds = 0;
        while (big_b - big_a).abs() > EPSILON && rounds < 1000 {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
            rounds += 1;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        // Step 8: back to the Glicko scale.
        Rating::new(mu_new * SCALE + DEFAULT_RATING, phi_new * SCALE, sigma_new)
    }

    /// The rating after one puzzle attempt, a rating period of its own: a win (solved) or a
    /// loss against the puzzle's rating with [`PUZZLE_DEVIATION`]. The deviation never falls
    /// below [`MIN_DEVIATION`].
    #[must_use]
    pub fn after_attempt(&self, puzzle_rating: u16, solved: bool) -> Rating {
        let puzzle = Rating::new(
            f64::from(puzzle_rating),
            PUZZLE_DEVIATION,
            DEFAULT_VOLATILITY,
        );
        let mut next = self.update(&[(puzzle, if solved { 1.0 } else { 0.0 })]);
        next.deviation = next.deviation.max(MIN_DEVIATION);
        next
    }

    /// The expected score against `opponent` (the chance of solving a puzzle rated so, with
    /// [`PUZZLE_DEVIATION`] as the opponent's deviation), between 0 and 1.
    pub fn expected_against(&self, opponent: &Rating) -> f64 {
        expected(
            (self.rating - DEFAULT_RATING) / SCALE,
            (opponent.rating - DEFAULT_RATING) / SCALE,
            opponent.deviation / SCALE,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's worked example ("Example of the Glicko-2 system", section "Example
    /// calculation"): 1500/200/0.06 against 1400/30 (win), 1550/100 (loss), 1700/300
    /// (loss) gives 1464.06, 151.52 and 0.05999 (his intermediate values: v = 1.7785,
    /// Δ = -0.4834, σ' = 0.05999).
    #[test]
    fn glickman_example() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let opp = |r, rd| Rating::new(r, rd, 0.06);
        let after = player.update(&[
            (opp(1400.0, 30.0), 1.0),
            (opp(1550.0, 100.0), 0.0),
            (opp(1700.0, 300.0), 0.0),
        ]);
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.000_01, "{after:?}");
    }

    #[test]
    fn a_period_without_games_widens_the_deviation() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        let after = player.update(&[]);
        // φ* = sqrt(φ² + σ²) on the Glicko-2 scale: sqrt((200/173.7178)² + 0.06²) * 173.7178.
        let expected = ((200.0f64 / SCALE).powi(2) + 0.0036).sqrt() * SCALE;
        assert!((after.deviation - expected).abs() < 1e-9);
        assert_eq!(after.rating, 1500.0);
    }

    #[test]
    fn attempts_move_the_rating_the_right_way() {
        let p = Rating::default();
        let won = p.after_attempt(1500, true);
        let lost = p.after_attempt(1500, false);
        assert!(won.rating > 1500.0 && lost.rating < 1500.0);
        // Symmetric around an equal opponent.
        assert!(((won.rating - 1500.0) + (lost.rating - 1500.0)).abs() < 1e-6);
        // Solving an easy puzzle gains less than solving a hard one.
        assert!(p.after_attempt(1000, true).rating < p.after_attempt(2000, true).rating);
        // Many failures never push the deviation under the floor, nor the values to NaN.
        let mut r = p;
        for _ in 0..500 {
            r = r.after_attempt(3000, false);
        }
        assert!(r.deviation >= MIN_DEVIATION && r.rating.is_finite());
    }

    #[test]
    fn bad_values_are_replaced() {
        let r = Rating::new(f64::NAN, -1.0, 0.0);
        assert_eq!(r, Rating::default());
    }
}
