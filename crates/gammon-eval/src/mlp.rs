//! A multilayer perceptron with one hidden layer of sigmoids and five
//! sigmoid outputs, stored in `ndarray` arrays, evaluated from sparse inputs.
//!
//! The first layer keeps one row of `hidden` weights per input unit, so a
//! forward pass adds only the rows of the non-zero units (about a quarter of
//! them) and skips the multiply for units equal to 1. Hidden sigmoids use a
//! fast exponential (within 3e-7 of the exact sigmoid).

use crate::inputs::SparseInputs;
use crate::simd::{self, NetSlices};
use ndarray::{Array1, Array2};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

pub use crate::probabilities::OUTPUTS;

/// The weights of one network.
#[derive(Clone, Debug, PartialEq)]
pub struct Mlp {
    /// `inputs x hidden`: row `i` holds input `i`'s weights to every hidden unit.
    pub w1: Array2<f32>,
    /// Hidden biases.
    pub b1: Array1<f32>,
    /// `OUTPUTS x hidden`.
    pub w2: Array2<f32>,
    /// Output biases.
    pub b2: Array1<f32>,
}

/// Activations kept from a forward pass, for training.
#[derive(Clone, Debug)]
pub struct Activations {
    /// Hidden unit outputs.
    pub hidden: Vec<f32>,
    /// Network outputs.
    pub output: [f32; OUTPUTS],
}

impl Mlp {
    /// A network with weights drawn uniformly from `±scale`, reproducibly
    /// from `seed`.
    pub fn random(inputs: usize, hidden: usize, scale: f32, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut draw = |_| rng.random_range(-scale..=scale);
        Mlp {
            w1: Array2::from_shape_fn((inputs, hidden), |x| draw(x.0)),
            b1: Array1::from_shape_fn(hidden, &mut draw),
            w2: Array2::from_shape_fn((OUTPUTS, hidden), |x| draw(x.0)),
            b2: Array1::zeros(OUTPUTS),
        }
    }

    /// This net with `hidden` hidden units (at least its own): the new units
    /// get random input weights in ±`scale` (reproducible from `seed`) and
    /// zero output weights, so the grown net computes exactly what this one
    /// does until training gives the new units a say.
    pub fn grown(&self, hidden: usize, scale: f32, seed: u64) -> Mlp {
        let old = self.hidden();
        let hidden = hidden.max(old);
        let fresh = Mlp::random(self.inputs(), hidden, scale, seed);
        Mlp {
            w1: Array2::from_shape_fn((self.inputs(), hidden), |(i, j)| {
                if j < old {
                    self.w1[(i, j)]
                } else {
                    fresh.w1[(i, j)]
                }
            }),
            b1: Array1::from_shape_fn(hidden, |j| if j < old { self.b1[j] } else { fresh.b1[j] }),
            w2: Array2::from_shape_fn((OUTPUTS, hidden), |(k, j)| if j < old { self.w2[(k, j)] } else { 0.0 }),
            b2: self.b2.clone(),
        }
    }

    /// Number of input units.
    pub fn inputs(&self) -> usize {
        self.w1.nrows()
    }

    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// Number of weights and biases.
    pub fn parameter_count(&self) -> usize {
        self.w1.len() + self.b1.len() + self.w2.len() + self.b2.len()
    }

    /// The five outputs for `x`; `hidden` is scratch space of `self.hidden()` values.
    #[inline]
    pub fn forward(&self, x: &SparseInputs, hidden: &mut [f32]) -> [f32; OUTPUTS] {
        self.forward_reading(self.w1.as_slice().unwrap_or_default(), x, hidden)
    }

    /// [`Mlp::forward`] reading the first layer from `w1`, a copy of
    /// `self.w1` (an aligned one: `simd::AlignedFloats`); the same bits.
    #[inline]
    pub fn forward_reading(&self, w1: &[f32], x: &SparseInputs, hidden: &mut [f32]) -> [f32; OUTPUTS] {
        let slices = NetSlices {
            w1,
            b1: self.b1.as_slice().unwrap_or_default(),
            w2: self.w2.as_slice().unwrap_or_default(),
            b2: self.b2.as_slice().unwrap_or_default(),
        };
        simd::forward(slices, &x.index, &x.value, hidden).map(sigmoid)
    }

    /// Forward pass keeping the activations.
    pub fn activations(&self, x: &SparseInputs) -> Activations {
        let mut hidden = vec![0.0; self.hidden()];
        let output = self.forward(x, &mut hidden);
        Activations { hidden, output }
    }

    /// One gradient step of squared error through the output sigmoids:
    /// moves each output `k` toward `target[k]` by `rate * (target - output)`
    /// times its gradient (the TD(0) update).
    pub fn train_toward(&mut self, x: &SparseInputs, act: &Activations, target: &[f32; OUTPUTS], rate: f32) {
        let h = self.hidden();
        let mut delta_out = [0.0f32; OUTPUTS];
        for k in 0..OUTPUTS {
            let y = act.output[k];
            delta_out[k] = (target[k] - y) * y * (1.0 - y);
        }
        // Hidden deltas use the output weights before they change.
        let mut delta_hidden = vec![0.0f32; h];
        {
            let w2 = self.w2.as_slice().unwrap_or_default();
            for (k, &d) in delta_out.iter().enumerate() {
                if d == 0.0 {
                    continue;
                }
                for (j, dh) in delta_hidden.iter_mut().enumerate() {
                    *dh += d * w2[k * h + j];
                }
            }
        }
        for (j, dh) in delta_hidden.iter_mut().enumerate() {
            let a = act.hidden[j];
            *dh *= a * (1.0 - a) * rate;
        }
        {
            let w2 = self.w2.as_slice_mut().unwrap_or_default();
            for (k, &d) in delta_out.iter().enumerate() {
                let step = rate * d;
                for (w, &a) in w2[k * h..(k + 1) * h].iter_mut().zip(&act.hidden) {
                    *w += step * a;
                }
                self.b2[k] += step;
            }
        }
        for (b, &d) in self.b1.iter_mut().zip(&delta_hidden) {
            *b += d;
        }
        let w1 = self.w1.as_slice_mut().unwrap_or_default();
        for (&i, &v) in x.index.iter().zip(&x.value) {
            let start = usize::from(i) * h;
            for (w, &d) in w1[start..start + h].iter_mut().zip(&delta_hidden) {
                *w += v * d;
            }
        }
    }

    /// Adds `other - base` to `self`, parameter by parameter: merges the
    /// change one worker made to its copy of `base`.
    pub fn add_difference(&mut self, other: &Mlp, base: &Mlp) {
        self.w1.zip_mut_with(&(&other.w1 - &base.w1), |a, d| *a += d);
        self.b1.zip_mut_with(&(&other.b1 - &base.b1), |a, d| *a += d);
        self.w2.zip_mut_with(&(&other.w2 - &base.w2), |a, d| *a += d);
        self.b2.zip_mut_with(&(&other.b2 - &base.b2), |a, d| *a += d);
    }

    /// A net of the same shape with every parameter zero (a gradient or
    /// trace accumulator).
    pub fn zeros_like(&self) -> Mlp {
        Mlp {
            w1: Array2::zeros(self.w1.raw_dim()),
            b1: Array1::zeros(self.b1.raw_dim()),
            w2: Array2::zeros(self.w2.raw_dim()),
            b2: Array1::zeros(self.b2.raw_dim()),
        }
    }

    /// Multiplies every parameter by `factor`.
    pub fn scale(&mut self, factor: f32) {
        self.w1.mapv_inplace(|x| x * factor);
        self.b1.mapv_inplace(|x| x * factor);
        self.w2.mapv_inplace(|x| x * factor);
        self.b2.mapv_inplace(|x| x * factor);
    }

    /// Adds `factor * other`, parameter by parameter.
    pub fn add_scaled(&mut self, factor: f32, other: &Mlp) {
        self.w1.scaled_add(factor, &other.w1);
        self.b1.scaled_add(factor, &other.b1);
        self.w2.scaled_add(factor, &other.w2);
        self.b2.scaled_add(factor, &other.b2);
    }

    /// Adds `scale` times the gradient of output `k` at input `x` (whose
    /// forward pass gave `act`) to `into`, a net of the same shape.
    pub fn add_output_gradient(&self, x: &SparseInputs, act: &Activations, k: usize, scale: f32, into: &mut Mlp) {
        let h = self.hidden();
        let y = act.output[k];
        let d = scale * y * (1.0 - y);
        into.b2[k] += d;
        let mut delta_hidden = vec![0.0f32; h];
        for (j, (dh, &a)) in delta_hidden.iter_mut().zip(&act.hidden).enumerate() {
            into.w2[[k, j]] += d * a;
            *dh = d * self.w2[[k, j]] * a * (1.0 - a);
        }
        for (b, &dh) in into.b1.iter_mut().zip(&delta_hidden) {
            *b += dh;
        }
        let w1 = into.w1.as_slice_mut().unwrap_or_default();
        for (&i, &v) in x.index.iter().zip(&x.value) {
            let start = usize::from(i) * h;
            for (w, &dh) in w1[start..start + h].iter_mut().zip(&delta_hidden) {
                *w += v * dh;
            }
        }
    }

    /// True if every parameter is a finite number.
    pub fn is_finite(&self) -> bool {
        self.w1.iter().chain(&self.b1).chain(&self.w2).chain(&self.b2).all(|x| x.is_finite())
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The fast logistic function the hidden layer uses.
#[inline]
pub fn fast_sigmoid(x: f32) -> f32 {
    simd::sigmoid_approx(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fast_sigmoid_is_accurate() {
        let mut worst = 0.0f32;
        let mut x = -40.0f32;
        while x < 40.0 {
            worst = worst.max((fast_sigmoid(x) - sigmoid(x)).abs());
            x += 0.01;
        }
        assert!(worst < 3e-7, "{worst}");
    }

    fn sparse(dense: &[f32]) -> SparseInputs {
        let mut s = SparseInputs::with_capacity(dense.len());
        for (i, &v) in dense.iter().enumerate() {
            if v != 0.0 {
                s.index.push(i as u16);
                s.value.push(v);
            }
        }
        s
    }

    #[test]
    fn a_grown_net_computes_the_same() {
        let net = Mlp::random(20, 8, 0.5, 1);
        let big = net.grown(72, 0.5, 2);
        assert_eq!((big.inputs(), big.hidden()), (20, 72));
        let x = sparse(&[
            1.0, 0.0, 0.5, 1.0, 0.0, 0.0, 2.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.3, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0,
        ]);
        let (mut h, mut hb) = (vec![0.0; 8], vec![0.0; 72]);
        let (a, b) = (net.forward(&x, &mut h), big.forward(&x, &mut hb));
        for (u, v) in a.iter().zip(&b) {
            assert!((u - v).abs() < 1e-6, "{a:?} {b:?}");
        }
        assert_eq!(hb[..8], h[..], "the old units are unchanged");
        assert!(hb[8..].iter().any(|&v| (v - 0.5).abs() > 1e-3), "the new units are live");
    }

    #[test]
    fn forward_matches_a_dense_computation() {
        let net = Mlp::random(7, 12, 0.5, 1);
        let x = [1.0, 0.0, 0.5, 0.0, 2.0, 1.0, 0.0];
        let mut scratch = vec![0.0; 12];
        let out = net.forward(&sparse(&x), &mut scratch);
        for (k, &got) in out.iter().enumerate() {
            let mut o = net.b2[k];
            for j in 0..12 {
                let mut a = net.b1[j];
                for (i, &xi) in x.iter().enumerate() {
                    a += xi * net.w1[[i, j]];
                }
                o += net.w2[[k, j]] * sigmoid(a);
            }
            assert!((got - sigmoid(o)).abs() < 1e-5);
        }
    }

    #[test]
    fn training_moves_outputs_toward_the_target() {
        let mut net = Mlp::random(7, 12, 0.5, 2);
        let x = sparse(&[1.0, 0.0, 0.5, 0.0, 2.0, 1.0, 0.0]);
        let target = [0.9, 0.1, 0.0, 0.3, 0.05];
        let before = net.activations(&x);
        let error = |o: &[f32; 5]| o.iter().zip(&target).map(|(a, b)| (a - b) * (a - b)).sum::<f32>();
        for _ in 0..50 {
            let act = net.activations(&x);
            net.train_toward(&x, &act, &target, 0.5);
        }
        let after = net.activations(&x);
        assert!(error(&after.output) < error(&before.output) * 0.2);
    }

    #[test]
    fn gradient_matches_finite_differences() {
        // The update direction for one output is its gradient: compare a w1 entry.
        let net = Mlp::random(5, 4, 0.8, 3);
        let x = sparse(&[1.0, 0.3, 0.0, 0.7, 0.0]);
        let act = net.activations(&x);
        let mut target = act.output;
        target[0] += 1.0; // only output 0 pulls
        let mut moved = net.clone();
        let rate = 1e-3;
        moved.train_toward(&x, &act, &target, rate);
        let eps = 1e-3;
        let mut plus = net.clone();
        plus.w1[[1, 2]] += eps;
        let mut minus = net.clone();
        minus.w1[[1, 2]] -= eps;
        let numeric = (plus.activations(&x).output[0] - minus.activations(&x).output[0]) / (2.0 * eps);
        let analytic = (moved.w1[[1, 2]] - net.w1[[1, 2]]) / rate;
        assert!((numeric - analytic).abs() < 1e-3, "{numeric} vs {analytic}");
    }
}
