//! What a trial reports ([`Sample`]) and the statistics over trials: exact
//! fixed-point sums (so that any split of the trials sums to the same bits),
//! estimates with their 95% intervals, and the paired differences between
//! the moves of a roll.

use super::{RolloutError, RolloutResult};
use ethnum::I256;
use gammon_eval::Probabilities;
use serde::{Deserialize, Serialize};

/// The normal z value of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A mean with its standard error and 95% interval.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct Estimate {
    /// The sample mean.
    pub mean: f64,
    /// Its standard error: 0 for identical trials, and NaN — no standard
    /// error — below two trials (JSON `null`, `n/a` in text), never a
    /// false 0 with a zero-width interval.
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

    /// The estimate of `factor × x + offset`: a change of units.
    pub fn linear(&self, factor: f64, offset: f64) -> Self {
        Estimate::new(factor * self.mean + offset, factor.abs() * self.standard_error)
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
}

/// Samples are summed exactly, as integers in units of `2^-FRACTION_BITS`
/// (about 1e-12): integer sums do not depend on the order or grouping of
/// the additions, so a rollout split into shards and merged gives the very
/// same sums, and so the same means and standard errors to the last bit, as
/// one run, whatever the thread count. Rounding each sample to this grid
/// moves a mean by less than 1e-12, far below any standard error.
const FRACTION_BITS: i32 = 40;
/// `2^FRACTION_BITS`.
const SCALE: f64 = (1u64 << FRACTION_BITS) as f64;
/// The largest magnitude a sample may have (`2^22`, so that its fixed-point
/// value fits an `i64`, sums of `2^64` of them an `i128` and their squares
/// an `I256`); real samples are below 200 (a backgammon at the largest cube,
/// plus the luck adjustment).
pub const MAX_SAMPLE: f64 = (1u64 << 22) as f64;

/// A sample as a fixed-point integer.
///
/// # Errors
/// [`RolloutError::Sample`] for a value that is not a number or beyond
/// [`MAX_SAMPLE`] (only a broken evaluator produces one).
fn fixed(x: f64) -> Result<i64, RolloutError> {
    if !(x.is_finite() && x.abs() <= MAX_SAMPLE) {
        return Err(RolloutError::Sample(x));
    }
    // Scaling by a power of two is exact; the rounding is the only step.
    Ok((x * SCALE).round() as i64)
}

/// A 256-bit integer sum, stored as its two 128-bit words.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(i128, u128)", into = "(i128, u128)")]
struct Wide(I256);

impl From<(i128, u128)> for Wide {
    fn from((hi, lo): (i128, u128)) -> Self {
        Wide(I256::from_words(hi, lo as i128))
    }
}

impl From<Wide> for (i128, u128) {
    fn from(w: Wide) -> Self {
        let (hi, lo) = w.0.into_words();
        (hi, lo as u128)
    }
}

impl Wide {
    fn add(&mut self, x: i128) {
        self.0 += I256::from(x);
    }
}

/// `(n * squares - sum^2) / (n^2 (n - 1))`, the squared standard error of
/// the mean of `n` samples with these exact sums, in fixed-point units
/// squared; the numerator is exact.
fn squared_standard_error(n: u64, sum: i128, squares: I256) -> f64 {
    if n < 2 {
        // One trial says nothing about the spread.
        return f64::NAN;
    }
    let sum = I256::from(sum);
    let numerator = I256::from(n) * squares - sum * sum;
    let n = n as f64;
    numerator.as_f64().max(0.0) / (n * n * (n - 1.0))
}

/// Exact sums of one value over the trials: count, sum and sum of squares.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Moments {
    n: u64,
    sum: i128,
    squares: Wide,
}

impl Moments {
    fn add(&mut self, q: i64) {
        self.n += 1;
        self.sum += i128::from(q);
        self.squares.add(i128::from(q) * i128::from(q));
    }

    fn merge(&mut self, other: &Moments) {
        self.n += other.n;
        self.sum += other.sum;
        self.squares.0 += other.squares.0;
    }

    pub(super) fn mean(&self) -> f64 {
        if self.n == 0 {
            return 0.0;
        }
        self.sum as f64 / self.n as f64 / SCALE
    }

    pub(super) fn estimate(&self) -> Estimate {
        let se = squared_standard_error(self.n, self.sum, self.squares.0).sqrt() / SCALE;
        Estimate::new(self.mean(), se)
    }
}

/// The exact sums of every value of the samples of one start position.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Acc {
    n: u64,
    probabilities: [Moments; 5],
    equity: Moments,
    cubeful: Moments,
}

impl Acc {
    /// Adds a sample; returns its headline value in fixed point.
    ///
    /// # Errors
    /// [`RolloutError::Sample`]: a value out of range.
    pub(super) fn add(&mut self, x: &Sample, cubeful: bool) -> Result<i64, RolloutError> {
        let probabilities = [
            fixed(x.probabilities[0])?,
            fixed(x.probabilities[1])?,
            fixed(x.probabilities[2])?,
            fixed(x.probabilities[3])?,
            fixed(x.probabilities[4])?,
        ];
        let (equity, cube) = (fixed(x.equity)?, fixed(x.cubeful)?);
        self.n += 1;
        for (m, q) in self.probabilities.iter_mut().zip(probabilities) {
            m.add(q);
        }
        self.equity.add(equity);
        self.cubeful.add(cube);
        Ok(if cubeful { cube } else { equity })
    }

    pub(super) fn merge(&mut self, other: &Acc) {
        self.n += other.n;
        for (m, o) in self.probabilities.iter_mut().zip(&other.probabilities) {
            m.merge(o);
        }
        self.equity.merge(&other.equity);
        self.cubeful.merge(&other.cubeful);
    }

    /// Whether every value counts `n` samples.
    pub(super) fn has_count(&self, n: u64) -> bool {
        self.n == n && self.probabilities.iter().chain([&self.equity, &self.cubeful]).all(|m| m.n == n)
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

/// Exact sums of the products of the headline values of every pair of
/// moves, for the standard errors of their paired differences.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Cross {
    m: usize,
    n: u64,
    sum: Vec<i128>,
    /// `products[i * m + j]` for `i <= j` (the rest stays zero).
    products: Vec<Wide>,
}

impl Cross {
    pub(super) fn new(m: usize) -> Self {
        Cross { m, n: 0, sum: vec![0; m], products: vec![Wide::default(); m * m] }
    }

    /// Adds one trial's headline values (fixed point), one per move.
    pub(super) fn add(&mut self, x: &[i64]) {
        self.n += 1;
        for i in 0..self.m {
            self.sum[i] += i128::from(x[i]);
            for j in i..self.m {
                self.products[i * self.m + j].add(i128::from(x[i]) * i128::from(x[j]));
            }
        }
    }

    /// Adds another tally's sums (of other trials, the same moves).
    pub(super) fn merge(&mut self, other: &Cross) {
        self.n += other.n;
        for (a, b) in self.sum.iter_mut().zip(&other.sum) {
            *a += b;
        }
        for (a, b) in self.products.iter_mut().zip(&other.products) {
            a.0 += b.0;
        }
    }

    /// Whether the sums are those of `m` moves over `n` trials.
    pub(super) fn is_consistent(&self, m: usize, n: u64) -> bool {
        self.m == m && self.n == n && self.sum.len() == m && self.products.len() == m * m
    }

    fn product(&self, i: usize, j: usize) -> I256 {
        let (i, j) = if i <= j { (i, j) } else { (j, i) };
        self.products[i * self.m + j].0
    }

    /// Mean and standard error of `x_i - x_j`, given the two means.
    pub(super) fn difference(&self, i: usize, j: usize, mean_i: f64, mean_j: f64) -> Estimate {
        if self.n < 2 || i == j {
            return Estimate::new(mean_i - mean_j, 0.0);
        }
        // The sums of d = x_i - x_j and of d^2, exactly.
        let two = I256::from(2);
        let squares = self.product(i, i) + self.product(j, j) - two * self.product(i, j);
        let sum = self.sum[i] - self.sum[j];
        let se = squared_standard_error(self.n, sum, squares).sqrt() / SCALE;
        Estimate::new(mean_i - mean_j, se)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moments_give_the_sample_mean_and_standard_error() {
        let mut m = Moments::default();
        for x in [1.0, 2.0, 3.0, 6.0] {
            m.add(fixed(x).unwrap());
        }
        let e = m.estimate();
        assert_eq!(e.mean, 3.0);
        // Sample variance 14/3, standard error sqrt(14/3 / 4).
        assert!((e.standard_error - (14.0f64 / 12.0).sqrt()).abs() < 1e-12);
        // Below two trials there is no standard error (it used to be 0, a
        // zero-width interval).
        for n in [0, 1] {
            let mut m = Moments::default();
            for _ in 0..n {
                m.add(fixed(0.5).unwrap());
            }
            let e = m.estimate();
            assert!(e.standard_error.is_nan() && e.low.is_nan() && e.high.is_nan(), "{n}: {e:?}");
            assert!(!e.contains(e.mean));
            assert_eq!(serde_json::to_value(e).unwrap()["standard_error"], serde_json::Value::Null);
        }
    }

    /// Values with every kind of rounding: luck-adjusted probabilities are
    /// arbitrary doubles.
    fn values(n: usize) -> Vec<f64> {
        (0..n).map(|i| ((i as f64 * 0.618_033_988_75).fract() - 0.3) * 2.7 + (i % 7) as f64 * 1e-9).collect()
    }

    #[test]
    fn sums_of_parts_are_the_sum_of_the_whole_to_the_last_bit() {
        let xs = values(1000);
        let mut whole = Moments::default();
        for &x in &xs {
            whole.add(fixed(x).unwrap());
        }
        // Parts in another order, of uneven sizes, merged in reverse.
        let mut parts = [Moments::default(); 3];
        for (i, &x) in xs.iter().enumerate().rev() {
            parts[(i * 7) % 3].add(fixed(x).unwrap());
        }
        let mut merged = Moments::default();
        for p in parts.iter().rev() {
            merged.merge(p);
        }
        assert_eq!(merged, whole);
        assert_eq!(merged.estimate().mean.to_bits(), whole.estimate().mean.to_bits());
        // And the estimate is the textbook one.
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let e = whole.estimate();
        assert!((e.mean - mean).abs() < 1e-11, "{} {mean}", e.mean);
        assert!((e.standard_error - (var / n).sqrt()).abs() < 1e-11);
    }

    #[test]
    fn a_sample_that_is_not_a_number_or_too_large_is_refused() {
        for x in [f64::NAN, f64::INFINITY, -MAX_SAMPLE * 2.0] {
            assert!(matches!(fixed(x), Err(RolloutError::Sample(_))), "{x}");
        }
        assert_eq!(fixed(-MAX_SAMPLE).unwrap(), -(1i64 << 62));
        assert_eq!(fixed(1.0).unwrap(), 1i64 << FRACTION_BITS);
    }

    #[test]
    fn paired_differences_have_the_standard_error_of_the_differences() {
        let a = values(300);
        let b: Vec<f64> = a.iter().enumerate().map(|(i, x)| x * 0.9 + (i % 5) as f64 * 0.01).collect();
        let mut cross = Cross::new(2);
        let mut halves = [Cross::new(2), Cross::new(2)];
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            let row = [fixed(*x).unwrap(), fixed(*y).unwrap()];
            cross.add(&row);
            halves[i % 2].add(&row);
        }
        let mut merged = halves[0].clone();
        merged.merge(&halves[1]);
        assert_eq!(merged, cross);
        let d: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
        let n = d.len() as f64;
        let mean = d.iter().sum::<f64>() / n;
        let var = d.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let e = cross.difference(0, 1, mean, 0.0);
        assert!((e.standard_error - (var / n).sqrt()).abs() < 1e-11, "{e:?}");
        assert_eq!(cross.difference(1, 1, 0.5, 0.5).standard_error, 0.0);
    }

    #[test]
    fn an_inverted_sample_is_the_other_side() {
        let s = Sample { probabilities: [0.6, 0.2, 0.05, 0.1, 0.01], equity: 0.34, cubeful: 0.5 };
        let i = s.inverted();
        assert_eq!(i.probabilities, [0.4, 0.1, 0.01, 0.2, 0.05]);
        assert_eq!((i.equity, i.cubeful), (-0.34, -0.5));
        assert_eq!(i.inverted(), s);
    }
}
