//! Match statistics as cutechess-cli and fishtest compute them: the Elo difference with its
//! 95% error margin from game results (trinomial) or from colour-swapped game pairs
//! (pentanomial), and the sequential probability ratio test (SPRT) on pairs.
//!
//! The SPRT is the generalized SPRT of fishtest with the logistic Elo model: for each of the
//! two hypotheses `Elo = elo0` and `Elo = elo1`, the pair-score distribution closest to the
//! observed one (maximum likelihood) with the expected score `1 / (1 + 10^(-Elo/400))` is
//! found, and the log-likelihood ratio of the observed pairs under the two is compared with
//! the bounds `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`.

use core::fmt;

/// The 97.5% quantile of the standard normal distribution.
const Z_975: f64 = 1.959_963_984_540_054;

/// Counts of zero in the pair distribution are replaced by this (as fishtest does), so that
/// the likelihoods stay finite.
const REGULARIZE: f64 = 1e-3;

/// An Elo difference estimated from a match, with the 95% error margin.
#[derive(Clone, Copy, PartialEq, Debug)]
#[non_exhaustive]
pub struct Elo {
    /// The difference; infinite when one side scored everything.
    pub diff: f64,
    /// Half the width of the 95% confidence interval; infinite when it is unbounded.
    pub margin: f64,
}

/// The Elo difference of an expected score.
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::elo_of_score;
///
/// assert_eq!(elo_of_score(0.5), 0.0);
/// assert!((elo_of_score(0.75) - 190.85).abs() < 0.01); // 400 log10(3)
/// ```
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score of an Elo difference (the logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo and margin from per-sample scores `values` (in 0..=1) with their counts.
fn elo_from(values: &[f64], counts: &[u64]) -> Elo {
    let n: f64 = counts.iter().map(|&c| c as f64).sum();
    if n == 0.0 {
        return Elo {
            diff: 0.0,
            margin: f64::INFINITY,
        };
    }
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    let se = (var / n).sqrt();
    let (lo, hi) = (mean - Z_975 * se, mean + Z_975 * se);
    let margin = if lo <= 0.0 || hi >= 1.0 {
        f64::INFINITY
    } else {
        (elo_of_score(hi) - elo_of_score(lo)) / 2.0
    };
    Elo {
        diff: elo_of_score(mean),
        margin,
    }
}

/// The Elo difference for `wins`, `draws` and `losses` of the first player, with its 95%
/// margin from the variance of the game scores (games taken as independent).
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::elo;
///
/// let e = elo(60, 20, 20); // 70% score
/// assert!((e.diff - 147.2).abs() < 0.1);
/// assert!(e.margin > 50.0 && e.margin < 90.0);
/// assert_eq!(elo(5, 0, 5).diff, 0.0);
/// assert!(elo(10, 0, 0).diff.is_infinite());
/// ```
pub fn elo(wins: usize, draws: usize, losses: usize) -> Elo {
    elo_from(
        &[0.0, 0.5, 1.0],
        &[losses as u64, draws as u64, wins as u64],
    )
}

/// Game pairs (the same opening, colours swapped) counted by the first player's score in
/// the pair: `counts[k]` pairs scored `k / 2` points (0, 0.5, 1, 1.5, 2).
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::Pentanomial;
///
/// let p = Pentanomial { counts: [0, 1, 2, 4, 3] };
/// assert_eq!(p.pairs(), 10);
/// assert_eq!(p.score(), Some(0.725));
/// let e = p.elo();
/// assert!((e.diff - 168.40).abs() < 0.01);
/// assert!((e.margin - 138.41).abs() < 0.01);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub struct Pentanomial {
    /// Pairs scoring 0, 0.5, 1, 1.5 and 2 points for the first player.
    pub counts: [u64; 5],
}

/// The score of a pair class as a fraction of the pair's 2 points.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl Pentanomial {
    /// Counts a pair in which the first player scored `points` (0, 0.5, 1, 1.5 or 2).
    pub fn add(&mut self, points: f64) {
        let k = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    /// The number of pairs.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The first player's mean score per game, if any pair was played.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            PAIR_SCORES
                .iter()
                .zip(self.counts)
                .map(|(s, c)| s * c as f64)
                .sum::<f64>()
                / n as f64
        })
    }

    /// The Elo difference with its 95% margin from the variance of the pair scores (which
    /// accounts for the correlation of the two games of a pair).
    pub fn elo(&self) -> Elo {
        elo_from(&PAIR_SCORES, &self.counts)
    }
}

impl fmt::Display for Pentanomial {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.counts;
        write!(f, "[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// The parameters of an SPRT: the Elo differences of the two hypotheses and the error
/// probabilities.
///
/// # Examples
///
/// ```
/// use fanorona_ai::matches::{Pentanomial, Sprt, SprtDecision};
///
/// let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05)?;
/// let (lower, upper) = sprt.bounds();
/// assert!((upper - 2.944).abs() < 0.001 && (lower + 2.944).abs() < 0.001);
/// // A long run of pairs won by the first player accepts H1.
/// let status = sprt.status(&Pentanomial { counts: [20, 100, 300, 200, 80] });
/// assert_eq!(status.decision, Some(SprtDecision::H1));
/// # Ok::<(), fanorona_ai::matches::SprtError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Debug)]
#[non_exhaustive]
pub struct Sprt {
    /// The Elo difference of the null hypothesis H0.
    pub elo0: f64,
    /// The Elo difference of the alternative hypothesis H1.
    pub elo1: f64,
    /// The probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The probability of accepting H0 when H1 holds.
    pub beta: f64,
}

/// Bad SPRT parameters.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SprtError(String);

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SprtError {}

/// What an SPRT decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// The null hypothesis (`Elo = elo0`) is accepted: the log-likelihood ratio fell below
    /// the lower bound.
    H0,
    /// The alternative hypothesis (`Elo = elo1`) is accepted: the ratio rose above the upper
    /// bound.
    H1,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, PartialEq, Debug)]
#[non_exhaustive]
pub struct SprtStatus {
    /// The log-likelihood ratio.
    pub llr: f64,
    /// The lower bound (H0 below it).
    pub lower: f64,
    /// The upper bound (H1 above it).
    pub upper: f64,
    /// The decision, once a bound is crossed.
    pub decision: Option<SprtDecision>,
}

impl Sprt {
    /// Checked parameters: finite Elo values with `elo0 < elo1`, and `alpha`, `beta` in
    /// `(0, 0.5)`.
    ///
    /// # Errors
    ///
    /// [`SprtError`] saying which parameter is wrong.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if !elo0.is_finite() || !elo1.is_finite() || elo0.abs() > 1000.0 || elo1.abs() > 1000.0 {
            return Err(SprtError(format!(
                "the SPRT's Elo bounds must be numbers from -1000 to 1000, not {elo0}, {elo1}"
            )));
        }
        if elo0 >= elo1 {
            return Err(SprtError(format!(
                "the SPRT's ELO0 must be below ELO1, not {elo0}, {elo1}"
            )));
        }
        for (name, p) in [("alpha", alpha), ("beta", beta)] {
            if !(p > 0.0 && p < 0.5) {
                return Err(SprtError(format!(
                    "the SPRT's {name} must lie strictly between 0 and 0.5, not {p}"
                )));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds of the log-likelihood ratio: `(ln(beta / (1 - alpha)), ln((1 - beta) /
    /// alpha))`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 over H0 for these pairs (0 when there are none).
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = pairs
            .counts
            .iter()
            .map(|&c| if c == 0 { REGULARIZE } else { c as f64 })
            .collect();
        let n: f64 = counts.iter().sum();
        let pdf: Vec<(f64, f64)> = PAIR_SCORES
            .iter()
            .zip(&counts)
            .map(|(&a, &c)| (a, c / n))
            .collect();
        n * llr_per_sample(&pdf, score_of_elo(self.elo0), score_of_elo(self.elo1))
    }

    /// The test's state for these pairs.
    pub fn status(&self, pairs: &Pentanomial) -> SprtStatus {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        };
        SprtStatus {
            llr,
            lower,
            upper,
            decision,
        }
    }
}

/// The distribution closest to `pdf` (maximum likelihood) among those on the same values
/// with mean `s`: `p_i / (1 + x (a_i - s))`, where `x` solves the secular equation
/// `sum p_i (a_i - s) / (1 + x (a_i - s)) = 0`. `s` must lie strictly between the smallest
/// and the largest value.
fn mle_with_mean(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let vmin = pdf.iter().map(|(a, _)| a - s).fold(f64::INFINITY, f64::min);
    let vmax = pdf
        .iter()
        .map(|(a, _)| a - s)
        .fold(f64::NEG_INFINITY, f64::max);
    // Every 1 + x v must stay positive: x in (-1 / vmax, -1 / vmin).
    let (mut lo, mut hi) = (-1.0 / vmax, -1.0 / vmin);
    let f = |x: f64| -> f64 {
        pdf.iter()
            .map(|(a, p)| p * (a - s) / (1.0 + x * (a - s)))
            .sum()
    };
    // f decreases from +inf to -inf on the interval: bisect to the last bit.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let x = 0.5 * (lo + hi);
    pdf.iter().map(|(a, p)| p / (1.0 + x * (a - s))).collect()
}

/// The log-likelihood ratio per sample of `E = s1` over `E = s0` for the observed `pdf`.
fn llr_per_sample(pdf: &[(f64, f64)], s0: f64, s1: f64) -> f64 {
    let q0 = mle_with_mean(pdf, s0);
    let q1 = mle_with_mean(pdf, s1);
    pdf.iter()
        .zip(q0.iter().zip(&q1))
        .map(|((_, p), (a, b))| p * (b / a).ln())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn trinomial_elo_matches_hand_computed_values() {
        // 75%: -400 log10(1/0.75 - 1) = 400 log10(3) = 190.85
        let e = elo(3, 0, 1);
        assert!(close(e.diff, 190.85, 0.01));
        let e = elo(10, 0, 10);
        assert_eq!(e.diff, 0.0);
        // p = 0.5, variance 0.25, se = 0.5 / sqrt(20) = 0.1118; p +- 1.96 se = 0.2809..0.7191;
        // elo(0.7191) = 163.5, so the margin is 163.5.
        assert!(close(e.margin, 163.5, 0.5), "{}", e.margin);
        assert_eq!(elo(0, 0, 4).diff, f64::NEG_INFINITY);
        // All draws: no variance, so no margin.
        assert_eq!(elo(0, 4, 0).margin, 0.0);
    }

    #[test]
    fn pentanomial_elo_matches_a_hand_computed_case() {
        // Pairs [0, 1, 2, 4, 3]: mean (0.25 + 2 * 0.5 + 4 * 0.75 + 3) / 10 = 0.725;
        // variance 0.1 * 0.475^2 + 0.2 * 0.225^2 + 0.4 * 0.025^2 + 0.3 * 0.275^2 = 0.055625;
        // se = sqrt(0.055625 / 10) = 0.0745822; interval 0.725 -+ 1.959964 se
        // = 0.578820 .. 0.871180; Elo -400 log10(1 / 0.725 - 1) = 168.402,
        // margin (elo(0.871180) - elo(0.578820)) / 2 = 138.408.
        let p = Pentanomial {
            counts: [0, 1, 2, 4, 3],
        };
        let e = p.elo();
        assert!(close(e.diff, 168.402, 0.001), "{e:?}");
        assert!(close(e.margin, 138.408, 0.001), "{e:?}");
        // Symmetric pairs: no difference.
        let e = Pentanomial {
            counts: [1, 2, 4, 2, 1],
        }
        .elo();
        assert!(close(e.diff, 0.0, 1e-9));
        // Every pair drawn 1-1: score 0.5 without variance.
        let e = Pentanomial {
            counts: [0, 0, 7, 0, 0],
        }
        .elo();
        assert_eq!((e.diff, e.margin), (0.0, 0.0));
    }

    #[test]
    fn pairs_are_counted_by_points() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.0] {
            p.add(points);
        }
        assert_eq!(p.counts, [1, 1, 2, 1, 3]);
        assert_eq!(p.to_string(), "[1, 1, 2, 1, 3]");
    }

    #[test]
    fn the_maximum_likelihood_step_matches_a_closed_form() {
        // On two values 0.5 and 1 the only distribution with mean s puts 2 (1 - s) on 0.5.
        // Observed 0.4 / 0.6; s0 = 0.6 gives (0.8, 0.2), s1 = 0.7 gives (0.6, 0.4):
        // LLR = 0.4 ln(0.6 / 0.8) + 0.6 ln(0.4 / 0.2) = 0.300815.
        let pdf = [(0.5, 0.4), (1.0, 0.6)];
        let q = mle_with_mean(&pdf, 0.6);
        assert!(close(q[0], 0.8, 1e-12) && close(q[1], 0.2, 1e-12), "{q:?}");
        assert!(close(llr_per_sample(&pdf, 0.6, 0.7), 0.300_815, 1e-6));
        // A distribution whose mean is already s is its own closest one.
        let pdf = [(0.0, 0.25), (0.5, 0.5), (1.0, 0.25)];
        let q = mle_with_mean(&pdf, 0.5);
        assert!(q.iter().zip(&pdf).all(|(a, (_, b))| close(*a, *b, 1e-12)));
    }

    #[test]
    fn llr_matches_an_independent_computation() {
        // Values from a separate implementation of fishtest's formulas (Python, bisection
        // on the secular equation, zero counts replaced by 1e-3), not from this code.
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        for (counts, expected) in [
            ([10, 20, 40, 25, 5], -0.437_486_232_891),
            ([3, 40, 100, 50, 7], 1.096_771_762_301),
        ] {
            let llr = sprt.llr(&Pentanomial { counts });
            assert!(close(llr, expected, 1e-9), "{counts:?}: {llr}");
        }
        let llr = Sprt::new(-5.0, 5.0, 0.05, 0.05).unwrap().llr(&Pentanomial {
            counts: [0, 1, 2, 4, 3],
        });
        assert!(close(llr, 0.287_694_844_774, 1e-9), "{llr}");
        let llr = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().llr(&Pentanomial {
            counts: [5, 30, 80, 60, 25],
        });
        assert!(close(llr, 1.856_105_931_150, 1e-9), "{llr}");
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn sprt_bounds_and_decisions() {
        let sprt = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
        let (lo, hi) = sprt.bounds();
        // ln(0.05 / 0.95) = -2.944439
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        let lost = sprt.status(&Pentanomial {
            counts: [80, 200, 300, 100, 20],
        });
        assert_eq!(lost.decision, Some(SprtDecision::H0), "{lost:?}");
        let open = sprt.status(&Pentanomial {
            counts: [1, 2, 4, 2, 1],
        });
        assert_eq!(open.decision, None);
        let s = Sprt::new(0.0, 10.0, 0.1, 0.2).unwrap();
        let (lo, hi) = s.bounds();
        assert!(close(lo, (0.2f64 / 0.9).ln(), 1e-12) && close(hi, 8f64.ln(), 1e-12));
    }

    #[test]
    fn bad_sprt_parameters_are_errors() {
        assert!(Sprt::new(10.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 0.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.0, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, 0.05, 0.5).is_err());
        assert!(Sprt::new(f64::NAN, 10.0, 0.05, 0.05).is_err());
        assert!(Sprt::new(0.0, 10.0, f64::NAN, 0.05).is_err());
    }

    #[test]
    fn logistic_model_round_trips() {
        for e in [-300.0, -10.0, 0.0, 5.0, 250.0] {
            assert!(close(elo_of_score(score_of_elo(e)), e, 1e-9));
        }
    }
}
