//! Texel tuning: the evaluation's weights fitted to the results of games.
//!
//! The evaluation ([`crate::evaluate`]) is linear in its weights: a sum of weights times
//! [`Terms`](crate::eval::Terms), scaled by the no-capture factor, plus the tempo. Given
//! positions from games, each labelled with the game's result for its side to move (1, 1/2
//! or 0), the fit finds the weights whose evaluation `e` best predicts the result as
//! `1 / (1 + exp(-K e))`: logistic regression, solved exactly by Newton's method (the
//! cross-entropy loss is convex). Weights can be held at their values (the stone's, say): then
//! `K` is fitted with the others, and the held weights keep the scale (a stone stays 100
//! centi-stones). With no weight held, `K` is fitted to the starting weights first and then
//! held, so the fitted evaluation keeps the old one's scale.
//!
//! Only quiet positions count (the side to move has no capture, the game is not over): those
//! are the positions the search takes the evaluation of. `fanorona tune` reads games from FGN
//! files (for instance a match's `--out`) and prints the fitted weights for `params.rs`.
//!
//! # Examples
//!
//! ```
//! use fanorona_ai::tune::{Sample, current_weights, features, fit, loss};
//! use fanorona_core::Position;
//!
//! // Two positions from games won by the side that was a stone up, two drawn.
//! let up = Position::from_fen("8B/9/9/9/W1W6 w")?;
//! let even = Position::from_fen("8B/9/9/9/W8 w")?;
//! let samples = vec![
//!     Sample { features: features(&up), result: 1.0 },
//!     Sample { features: features(&even), result: 0.5 },
//! ];
//! let fitted = fit(&samples, &current_weights(), &[false; 9], 0.0, 20);
//! assert!(fitted.loss <= loss(&samples, &current_weights(), fitted.k) + 1e-9);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use fanorona_core::{Game, Position};

use crate::eval::terms;
use crate::params::{
    ENDGAME_PROXIMITY, ISOLATED, MOBILITY, STONE, STRONG_POINT, TEMPO, THREAT, THREATENED,
    TRADE_OFFSET, TRADE_WEIGHT,
};

/// Number of weights.
pub const N: usize = 9;

/// The names of the weights, in the order of [`features`], as in `params.rs`.
pub const NAMES: [&str; N] = [
    "STONE",
    "TRADE_WEIGHT",
    "STRONG_POINT",
    "MOBILITY",
    "ISOLATED",
    "ENDGAME_PROXIMITY",
    "THREATENED",
    "THREAT",
    "TEMPO",
];

/// The weights of the engine as built, in the order of [`NAMES`].
pub fn current_weights() -> [f64; N] {
    [
        STONE,
        TRADE_WEIGHT,
        STRONG_POINT,
        MOBILITY,
        ISOLATED,
        ENDGAME_PROXIMITY,
        THREATENED,
        THREAT,
        TEMPO,
    ]
    .map(f64::from)
}

/// The features of `pos` from the side to move's view: [`crate::evaluate`] is (up to
/// rounding) the sum of these times [`current_weights`].
///
/// ```
/// use fanorona_ai::{evaluate, tune};
/// use fanorona_core::Position;
///
/// let pos = Position::from_fen("2B3B2/9/9/3W5/WW1W5 w 3 9")?;
/// let f = tune::features(&pos);
/// let e: f64 = f.iter().zip(tune::current_weights()).map(|(f, w)| f * w).sum();
/// assert!((e - f64::from(evaluate(&pos))).abs() <= 2.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn features(pos: &Position) -> [f64; N] {
    let t = terms(pos);
    let scale = f64::from(t.scale_num) / f64::from(t.scale_den);
    let trade = f64::from(t.material) / f64::from(t.stones + TRADE_OFFSET);
    [
        f64::from(t.material) * scale,
        trade * scale,
        f64::from(t.strong) * scale,
        f64::from(t.mobility) * scale,
        f64::from(t.isolated) * scale,
        -f64::from(t.distance) * scale,
        f64::from(t.threatened) * scale,
        f64::from(t.threat) * scale,
        1.0,
    ]
}

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Its [`features`].
    pub features: [f64; N],
    /// The game's result for the side to move: 1 won, 0.5 drawn, 0 lost.
    pub result: f64,
}

/// The samples of one finished game: every quiet position (the side to move has no capture)
/// before the end, labelled with `white_score`, the result for White (1, 0.5 or 0).
///
/// ```
/// use fanorona_ai::tune::samples;
/// use fanorona_core::Game;
///
/// // White must capture at the start: not a quiet position, so no sample.
/// assert!(samples(&Game::default(), 1.0).is_empty());
/// ```
pub fn samples(game: &Game, white_score: f64) -> Vec<Sample> {
    game.positions()
        .iter()
        .filter(|p| !p.has_capture() && p.has_legal_turn() && p.outcome().is_none())
        .map(|p| Sample {
            features: features(p),
            result: if p.side_to_move() == fanorona_core::Color::White {
                white_score
            } else {
                1.0 - white_score
            },
        })
        .collect()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn dot(a: &[f64; N], b: &[f64; N]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// The mean cross-entropy of predicting each sample's result as `sigmoid(k * eval)` with
/// `weights` (in nats; lower is better; 0.693 is a coin toss).
pub fn loss(samples: &[Sample], weights: &[f64; N], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(k * dot(&s.features, weights)).clamp(1e-12, 1.0 - 1e-12);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// The `K` that fits `weights` best (golden-section search on the convex loss).
pub fn best_k(samples: &[Sample], weights: &[f64; N]) -> f64 {
    let (mut lo, mut hi) = (1e-5_f64, 0.2_f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..100 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if loss(samples, weights, a) <= loss(samples, weights, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The result of [`fit`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct Fit {
    /// The fitted weights.
    pub weights: [f64; N],
    /// The scale: results are predicted as `sigmoid(k * eval)`.
    pub k: f64,
    /// The loss of the fitted weights ([`loss`]).
    pub loss: f64,
    /// The loss of the starting weights at their best `K`.
    pub start_loss: f64,
}

/// Fits the weights to `samples` by Newton's method on the cross-entropy, starting from
/// `start`, the weights marked in `fixed` held at their starting values (and `K` fitted with
/// the others; with none held, `K` is that of the start, see [`best_k`]), with a ridge penalty
/// of `ridge` (per sample, on the weights in units of `K`; 0 for none) pulling towards
/// `start`. Runs at most `iterations` Newton steps.
pub fn fit(
    samples: &[Sample],
    start: &[f64; N],
    fixed: &[bool; N],
    ridge: f64,
    iterations: usize,
) -> Fit {
    let k0 = best_k(samples, start);
    let start_loss = loss(samples, start, k0);
    if samples.is_empty() {
        return Fit {
            weights: *start,
            k: k0,
            loss: start_loss,
            start_loss,
        };
    }
    // Work in logit units, beta = k * w. Without fixed weights every beta is free and K stays
    // k0 (the scale of the start). With fixed weights, their part of the evaluation becomes
    // one column whose coefficient is K itself (free), held in the first fixed weight's slot;
    // the other fixed slots leave the system.
    let anchor = fixed.iter().position(|&f| f);
    let row = |s: &Sample| -> [f64; N] {
        let mut r = s.features;
        if let Some(a) = anchor {
            r[a] = (0..N)
                .filter(|&i| fixed[i])
                .map(|i| start[i] * s.features[i])
                .sum();
            for (i, x) in r.iter_mut().enumerate() {
                if fixed[i] && i != a {
                    *x = 0.0;
                }
            }
        }
        r
    };
    let mut prior = start.map(|w| w * k0);
    if let Some(a) = anchor {
        prior[a] = k0;
    }
    let mut beta = prior;
    let n = samples.len() as f64;
    for _ in 0..iterations {
        let mut grad = [0.0; N];
        let mut hess = [[0.0; N]; N];
        for s in samples {
            let f = row(s);
            let z: f64 = f.iter().zip(&beta).map(|(f, b)| f * b).sum();
            let p = sigmoid(z);
            let r = p - s.result;
            let w = (p * (1.0 - p)).max(1e-9);
            for i in 0..N {
                grad[i] += r * f[i] / n;
                for j in 0..N {
                    hess[i][j] += w * f[i] * f[j] / n;
                }
            }
        }
        for i in 0..N {
            grad[i] += ridge * (beta[i] - prior[i]);
            // A little damping keeps features that never vary from making the system singular.
            hess[i][i] += ridge + 1e-9;
            if fixed[i] && Some(i) != anchor {
                // Out of the system: no step for this slot, no coupling to the others.
                grad[i] = 0.0;
                hess[i] = [0.0; N];
                for row in &mut hess {
                    row[i] = 0.0;
                }
                hess[i][i] = 1.0;
            }
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut change = 0.0_f64;
        for i in 0..N {
            beta[i] -= step[i];
            change = change.max(step[i].abs());
        }
        if change < 1e-10 {
            break;
        }
    }
    let k = anchor.map_or(k0, |a| beta[a]);
    let mut weights = beta.map(|b| b / k);
    for i in 0..N {
        if fixed[i] {
            weights[i] = start[i];
        }
    }
    Fit {
        weights,
        k,
        loss: loss(samples, &weights, k),
        start_loss,
    }
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting; `None` when singular.
fn solve(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in col + 1..N {
            let f = a[row][col] / a[col][col];
            let pivot_row = a[col];
            for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= f * p;
            }
            b[row] -= f * b[col];
        }
    }
    let mut x = [0.0; N];
    for row in (0..N).rev() {
        let s: f64 = (row + 1..N).map(|c| a[row][c] * x[c]).sum();
        x[row] = (b[row] - s) / a[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::evaluate;
    use crate::rng::Rng;

    #[test]
    fn the_features_reproduce_the_evaluation() {
        // Positions of the benchmark and from random play: the linear form agrees with the
        // integer evaluation up to its rounding.
        let mut rng = Rng::new(7);
        for fen in crate::bench::POSITIONS {
            let mut pos = Position::from_fen(fen).unwrap();
            for _ in 0..40 {
                let e: f64 = dot(&features(&pos), &current_weights());
                assert!(
                    (e - f64::from(evaluate(&pos))).abs() <= 3.0,
                    "{fen}: {e} vs {}",
                    evaluate(&pos)
                );
                let turns = pos.legal_turns();
                if turns.is_empty() || pos.outcome().is_some() {
                    break;
                }
                pos = pos
                    .play(&turns[rng.below(turns.len() as u64) as usize])
                    .unwrap();
            }
        }
    }

    #[test]
    fn the_fit_recovers_the_weights_that_made_the_data() {
        // Synthetic data: results drawn from sigmoid(K * w.f) with known w and K = 0.01. The
        // fit holds the K that suits its start (the truth with the stone at 100 and the rest 0,
        // whose best K is close to the true one) and must find the other weights again.
        let truth = [100.0, 300.0, 5.0, 3.0, -8.0, 4.0, -20.0, -10.0, 12.0];
        let k = 0.01;
        let mut rng = Rng::new(42);
        let mut unit = || rng.below(1 << 30) as f64 / f64::from(1 << 30);
        let mut samples = Vec::new();
        for _ in 0..60_000 {
            let mut f = [0.0; N];
            f[0] = (unit() * 7.0).floor() - 3.0;
            f[1] = f[0] / (unit() * 40.0 + 4.0);
            for x in f.iter_mut().take(8).skip(2) {
                *x = (unit() * 11.0).floor() - 5.0;
            }
            f[8] = 1.0;
            let p = sigmoid(k * dot(&f, &truth));
            samples.push(Sample {
                features: f,
                result: if unit() < p { 1.0 } else { 0.0 },
            });
        }
        let start = [100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let got = fit(&samples, &start, &[false; N], 0.0, 30);
        // The product K * w is what the data determine.
        for i in 0..N {
            let (fitted, true_logit) = (got.weights[i] * got.k, truth[i] * k);
            assert!(
                (fitted - true_logit).abs() < 0.03 + 0.1 * true_logit.abs(),
                "{}: {:?} k {}",
                NAMES[i],
                got.weights,
                got.k
            );
        }
        assert!(got.loss < got.start_loss);
    }

    #[test]
    fn fixed_weights_stay_and_the_others_still_improve() {
        let mut rng = Rng::new(3);
        let samples: Vec<Sample> = (0..2000)
            .map(|i| {
                let mut f = [0.0; N];
                for x in &mut f {
                    *x = rng.below(9) as f64 - 4.0;
                }
                Sample {
                    features: f,
                    result: if f[3] > 0.0 || i % 5 == 0 { 1.0 } else { 0.0 },
                }
            })
            .collect();
        let start = current_weights();
        let mut fixed = [false; N];
        fixed[0] = true;
        fixed[1] = true;
        let got = fit(&samples, &start, &fixed, 0.0, 30);
        assert!((got.weights[0] - start[0]).abs() < 1e-9);
        assert!((got.weights[1] - start[1]).abs() < 1e-9);
        assert!(got.weights[3] > start[3]);
        assert!(got.loss < got.start_loss);
    }

    #[test]
    fn the_linear_solver_solves_a_hand_checked_system() {
        // x = 1, y = 2, z = 3, the rest 0 (identity).
        let mut a = [[0.0; N]; N];
        for (i, row) in a.iter_mut().enumerate() {
            row[i] = 1.0;
        }
        a[0][1] = 2.0; // x + 2y = 5
        a[1][2] = -1.0; // y - z = -1
        let mut b = [0.0; N];
        b[0] = 5.0;
        b[1] = -1.0;
        b[2] = 3.0;
        let x = solve(a, b).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12);
        assert!((x[2] - 3.0).abs() < 1e-12);
    }
}
