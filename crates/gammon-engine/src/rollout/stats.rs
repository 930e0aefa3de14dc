//! What a trial reports ([`Sample`]) and the statistics over trials: running
//! means and variances in trial order, estimates with their 95% intervals,
//! and the paired differences between the moves of a roll.

use super::RolloutResult;
use gammon_eval::Probabilities;
use serde::{Deserialize, Serialize};

/// The normal z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean with its standard error and 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Its standard error (0 with a single trial or identical trials).
    pub standard_error: f64,
    /// Lower end of the normal 95% interval, `mean - 1.96 SE`.
    pub low: f64,
    /// Upper end, `mean + 1.96 SE`.
    pub high: f64,
}

impl Estimate {
    /// An estimate from its mean and standard error.
    pub fn new(mean: f64, standard_error: f64) -> Self {
        Estimate { mean, standard_error, low: mean - Z95 * standard_error, high: mean + Z95 * standard_error }
    }

    /// True if `value` is inside the 95% interval (ends included).
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// Five probabilities (or differences of them) in `f64`, in the order of
/// [`Probabilities::to_array`].
pub(super) type Five = [f64; 5];

pub(super) fn five(p: &Probabilities) -> Five {
    p.to_array().map(f64::from)
}

/// The same probabilities seen by the other side.
pub(super) fn invert(v: &Five) -> Five {
    [1.0 - v[0], v[3], v[4], v[1], v[2]]
}

/// A difference of probabilities seen by the other side.
pub(super) fn invert_difference(d: &Five) -> Five {
    [-d[0], d[3], d[4], d[1], d[2]]
}

/// The cubeless money equity of five probabilities.
pub(super) fn equity_of(v: &Five) -> f64 {
    2.0 * v[0] - 1.0 + v[1] - v[3] + v[2] - v[4]
}

/// One trial's values, for the starting player.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Sample {
    /// The five probabilities (luck-adjusted with variance reduction).
    pub(super) probabilities: Five,
    /// Their cubeless equity.
    pub(super) equity: f64,
    /// The cubeful equity (0 in cubeless rollouts).
    pub(super) cubeful: f64,
}

impl Sample {
    /// The same trial seen by the other side.
    pub(super) fn inverted(&self) -> Self {
        Sample { probabilities: invert(&self.probabilities), equity: -self.equity, cubeful: -self.cubeful }
    }

    /// The equity the rollout ranks by: cubeful in cubeful rollouts.
    pub(super) fn headline(&self, cubeful: bool) -> f64 {
        if cubeful {
            self.cubeful
        } else {
            self.equity
        }
    }
}

/// Running mean and variance of one value: sums of `x - shift` (the first
/// value), for precision, added in trial order.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Moments {
    n: u64,
    shift: f64,
    sum: f64,
    sum_sq: f64,
}

impl Moments {
    fn add(&mut self, x: f64) {
        if self.n == 0 {
            self.shift = x;
        }
        self.n += 1;
        let d = x - self.shift;
        self.sum += d;
        self.sum_sq += d * d;
    }

    pub(super) fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.shift + self.sum / self.n as f64
    }

    /// The sample variance.
    fn variance(&self) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        ((self.sum_sq - self.sum * self.sum / n) / (n - 1.0)).max(0.0)
    }

    pub(super) fn estimate(&self) -> Estimate {
        let se = if self.n < 2 { 0.0 } else { (self.variance() / self.n as f64).sqrt() };
        Estimate::new(self.mean(), se)
    }
}

/// The running statistics of every value of the samples of one start
/// position.
#[derive(Debug, Clone, Default)]
pub(super) struct Acc {
    n: u64,
    probabilities: [Moments; 5],
    equity: Moments,
    cubeful: Moments,
}

impl Acc {
    pub(super) fn add(&mut self, x: &Sample) {
        self.n += 1;
        for (m, &v) in self.probabilities.iter_mut().zip(&x.probabilities) {
            m.add(v);
        }
        self.equity.add(x.equity);
        self.cubeful.add(x.cubeful);
    }

    /// The statistics of the equity the rollout ranks by.
    pub(super) fn headline(&self, cubeful: bool) -> &Moments {
        if cubeful {
            &self.cubeful
        } else {
            &self.equity
        }
    }

    pub(super) fn result(&self, cubeful: bool, target_reached: bool, interrupted: bool) -> RolloutResult {
        RolloutResult {
            trials: self.n,
            probabilities: self.probabilities.map(|m| m.estimate()),
            equity: self.equity.estimate(),
            cubeful: if cubeful { Some(self.cubeful.estimate()) } else { None },
            target_reached,
            interrupted,
        }
    }
}

/// Sums of products of the headline equities of every pair of moves, for
/// the standard errors of their differences.
#[derive(Debug, Clone)]
pub(super) struct Cross {
    m: usize,
    shift: Vec<f64>,
    sum: Vec<f64>,
    products: Vec<f64>,
    n: u64,
}

impl Cross {
    pub(super) fn new(m: usize) -> Self {
        Cross { m, shift: vec![0.0; m], sum: vec![0.0; m], products: vec![0.0; m * m], n: 0 }
    }

    pub(super) fn add(&mut self, x: &[f64]) {
        if self.n == 0 {
            self.shift.copy_from_slice(x);
        }
        self.n += 1;
        let d: Vec<f64> = x.iter().zip(&self.shift).map(|(a, b)| a - b).collect();
        for i in 0..self.m {
            self.sum[i] += d[i];
            for j in 0..self.m {
                self.products[i * self.m + j] += d[i] * d[j];
            }
        }
    }

    /// The sample covariance of moves `i` and `j`.
    fn covariance(&self, i: usize, j: usize) -> f64 {
        if self.n < 2 {
            return 0.0;
        }
        let n = self.n as f64;
        (self.products[i * self.m + j] - self.sum[i] * self.sum[j] / n) / (n - 1.0)
    }

    /// Mean and standard error of `x_i - x_j`.
    pub(super) fn difference(&self, i: usize, j: usize, mean_i: f64, mean_j: f64) -> Estimate {
        if self.n < 2 || i == j {
            return Estimate::new(mean_i - mean_j, 0.0);
        }
        let var = (self.covariance(i, i) + self.covariance(j, j) - 2.0 * self.covariance(i, j)).max(0.0);
        Estimate::new(mean_i - mean_j, (var / self.n as f64).sqrt())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_give_the_sample_mean_and_standard_error() {
        let mut m = Moments::default();
        for x in [1.0, 2.0, 3.0, 6.0] {
            m.add(x);
        }
        let e = m.estimate();
        assert_eq!(e.mean, 3.0);
        // Sample variance 14/3, standard error sqrt(14/3 / 4).
        assert!((e.standard_error - (14.0f64 / 12.0).sqrt()).abs() < 1e-12);
        assert_eq!(Moments::default().estimate(), Estimate::new(0.0, 0.0));
    }

    #[test]
    fn an_inverted_sample_is_the_other_side() {
        let s = Sample { probabilities: [0.6, 0.2, 0.05, 0.1, 0.01], equity: 0.34, cubeful: 0.5 };
        let i = s.inverted();
        assert_eq!(i.probabilities, [0.4, 0.1, 0.01, 0.2, 0.05]);
        assert_eq!((i.equity, i.cubeful), (-0.34, -0.5));
        assert_eq!(i.inverted(), s);
        assert_eq!(s.headline(true), 0.5);
        assert_eq!(s.headline(false), 0.34);
    }
}
