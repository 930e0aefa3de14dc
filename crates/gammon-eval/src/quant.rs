//! A quantised copy of a net's first layer, for fast evaluation (as NNUE
//! engines do): `i16` weights, inputs in fixed point, exact `i32` sums, then
//! the hidden sigmoids and the output layer in float.
//!
//! Exact integer sums make two things possible. The result does not depend
//! on the order of the rows or on the CPU (AVX-512, AVX2 or portable: same
//! bits). And the sums can be updated from the previous evaluation's (subtract the rows
//! of inputs that went away, add the new ones): the candidate moves of a roll
//! differ from each other in about half of their 54 active contact inputs,
//! so [`QuantNet::forward`] updates nets of 256 hidden units or more when
//! that is cheaper than starting over, with the same result either way.
//!
//! No overflow is possible: a hidden unit's sum is at most the largest
//! |bias| plus the largest |weight| times the sum of the |inputs|, all in
//! integer units. [`QuantNet::new`] chooses the finest weight scale at which
//! that fits in `i32` for inputs summing to [`INPUT_BUDGET`] or more (it
//! declines a net for which that scale would be too coarse), and keeps the
//! exact integer limit; [`QuantNet::forward`] declines an evaluation whose
//! inputs sum to more, or with an input beyond [`MAX_INPUT`]. The caller then
//! uses the float net. (Contact inputs sum to about 20-30.)

use crate::inputs::SparseInputs;
use crate::mlp::{sigmoid, Mlp, OUTPUTS};
pub use crate::simd::Kernel;
use crate::simd::{self, QUANT_BLOCK};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The largest |input value| the quantised net takes (contact inputs reach
/// 5.5, race inputs less).
pub const MAX_INPUT: f32 = 8.0;
/// Inputs are stored in units of 2^-10: 8 is 8192, and the difference of two
/// inputs (an incremental update) still fits in `i16`.
const INPUT_SHIFT: i32 = 10;
/// The sum of |inputs| every quantised net takes at least.
pub const INPUT_BUDGET: f32 = 64.0;
/// The coarsest weight scale accepted, 2^-8: a coarser one would move the
/// evaluations visibly.
const MIN_WEIGHT_SHIFT: i32 = 8;
/// The finest weight scale used: 2^-14 is far below the float net's noise.
const MAX_WEIGHT_SHIFT: i32 = 14;

/// The smallest hidden layer updated from the previous evaluation: finding
/// the change costs about what it saves at 128 units and less at 256
/// (measured with AVX2: even at 128, about 25% faster at 256).
const INCREMENTAL_FROM: usize = 256;

/// Gives each quantised net an id, so that a scratch knows whose sums it holds.
static NEXT_ID: AtomicUsize = AtomicUsize::new(1);

/// A net with a quantised first layer.
#[derive(Clone, Debug)]
pub struct QuantNet {
    id: usize,
    inputs: usize,
    hidden: usize,
    /// `inputs x hidden` row-major, in units of 2^-`weight_shift`.
    w1: Vec<i16>,
    /// Hidden biases in units of 2^-(`weight_shift` + `INPUT_SHIFT`).
    b1: Vec<i32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    weight_shift: i32,
    /// The largest sum of |inputs| (in units of 2^-`INPUT_SHIFT`) for which
    /// no sum can overflow.
    input_limit: u64,
}

/// Scratch space for [`QuantNet::forward`]: the first-layer sums of the last
/// evaluation and the inputs they were made from.
#[derive(Clone, Debug, Default)]
pub struct QuantScratch {
    /// Id of the net whose sums `acc` holds; 0 for none.
    owner: usize,
    index: Vec<u16>,
    value: Vec<i16>,
    acc: Vec<i32>,
    new_value: Vec<i16>,
    diff_index: Vec<u16>,
    diff_value: Vec<i16>,
    /// One value per input, zero between calls: where [`QuantScratch::diff`]
    /// nets the old and new values of each input.
    delta: Vec<i16>,
}

impl QuantScratch {
    /// Empty scratch space (it grows to fit on first use).
    pub fn new() -> Self {
        Self::default()
    }
}

impl QuantNet {
    /// The quantised copy of `net`, or `None` if `net` has a hidden layer that
    /// is not a multiple of 16 units, or weights too large for a fine enough
    /// scale (then the float net is the one to use).
    pub fn new(net: &Mlp) -> Option<QuantNet> {
        let (inputs, hidden) = (net.inputs(), net.hidden());
        if hidden == 0 || !hidden.is_multiple_of(QUANT_BLOCK) || !net.is_finite() {
            return None;
        }
        let w1 = net.w1.as_slice()?;
        let largest = w1.iter().fold(0.0f64, |m, &w| m.max(f64::from(w).abs()));
        let largest_bias = net.b1.iter().fold(0.0f64, |m, &b| m.max(f64::from(b).abs()));
        // Rounding is monotonic: the largest quantised values are these.
        let limits = |shift: i32| {
            let w_max = (largest * f64::from(shift).exp2()).round();
            let b_max = (largest_bias * f64::from(shift + INPUT_SHIFT).exp2()).round();
            if w_max > f64::from(i16::MAX) || b_max > f64::from(i32::MAX) {
                return None;
            }
            let (w_max, b_max) = (w_max as u64, b_max as u64);
            Some((i32::MAX as u64 - b_max).checked_div(w_max).unwrap_or(u64::MAX))
        };
        let budget = (f64::from(INPUT_BUDGET) * f64::from(1 << INPUT_SHIFT)) as u64;
        let (weight_shift, input_limit) = (MIN_WEIGHT_SHIFT..=MAX_WEIGHT_SHIFT)
            .rev()
            .find_map(|shift| limits(shift).filter(|&l| l >= budget).map(|l| (shift, l)))?;
        let scale = f64::from(weight_shift).exp2();
        let mut q1 = vec![0i16; inputs * hidden];
        for i in 0..inputs {
            for j in 0..hidden {
                let w = (f64::from(w1[i * hidden + j]) * scale).round() as i16;
                q1[i * hidden + j] = w;
            }
        }
        let bias_scale = f64::from(weight_shift + INPUT_SHIFT).exp2();
        let b1 = net.b1.iter().map(|&b| (f64::from(b) * bias_scale).round() as i32).collect();
        Some(QuantNet {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            inputs,
            hidden,
            w1: q1,
            b1,
            w2: net.w2.iter().copied().collect(),
            b2: net.b2.to_vec(),
            weight_shift,
            input_limit,
        })
    }

    /// Number of hidden units.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The weights are stored in units of 2^-`weight_shift()`.
    pub fn weight_shift(&self) -> i32 {
        self.weight_shift
    }

    /// The five outputs for `x` (as [`Mlp::forward`] gives them, within the
    /// quantisation's error), or `None` if an input is beyond [`MAX_INPUT`]
    /// or outside the net, the inputs sum to more than the net's limit (at
    /// least [`INPUT_BUDGET`]), or they are not in increasing order. `hidden`
    /// is scratch space of `self.hidden()` values.
    pub fn forward(&self, x: &SparseInputs, s: &mut QuantScratch, hidden: &mut [f32]) -> Option<[f32; OUTPUTS]> {
        self.forward_with(Kernel::best(), x, s, hidden)
    }

    /// [`QuantNet::forward`] with the kernel `k` (the same bits with any).
    pub fn forward_with(
        &self,
        k: Kernel,
        x: &SparseInputs,
        s: &mut QuantScratch,
        hidden: &mut [f32],
    ) -> Option<[f32; OUTPUTS]> {
        if x.index.len() != x.value.len() || hidden.len() < self.hidden || !self.quantise_inputs(x, s) {
            return None;
        }
        if s.owner != self.id || self.hidden < INCREMENTAL_FROM || !s.diff(&x.index, self.inputs) {
            s.acc.clear();
            s.acc.extend_from_slice(&self.b1);
            simd::quant_add_rows_with(k, &self.w1, &x.index, &s.new_value, &mut s.acc);
        } else {
            simd::quant_add_rows_with(k, &self.w1, &s.diff_index, &s.diff_value, &mut s.acc);
        }
        s.owner = self.id;
        s.index.clear();
        s.index.extend_from_slice(&x.index);
        std::mem::swap(&mut s.value, &mut s.new_value);
        let scale = (-(self.weight_shift + INPUT_SHIFT) as f32).exp2();
        Some(simd::dequantised_output_with(k, &s.acc, scale, &self.w2, &self.b2).map(sigmoid))
    }

    /// Fills `s.new_value` with `x`'s values in fixed point; false if one is
    /// out of range, an index is outside the net, or the indices do not increase.
    fn quantise_inputs(&self, x: &SparseInputs, s: &mut QuantScratch) -> bool {
        // Adding and subtracting 1.5 * 2^23 rounds to the nearest integer
        // (|x| <= 8192 here), inline where `f32::round` is a library call.
        const ROUND: f32 = 12_582_912.0;
        s.new_value.resize(x.value.len(), 0);
        let mut ok = x.index.last().is_none_or(|&i| usize::from(i) < self.inputs);
        let mut total = 0u64;
        let mut next = 0u32; // the smallest index allowed next
        for ((&i, &v), q) in x.index.iter().zip(&x.value).zip(s.new_value.iter_mut()) {
            let in_range = v.abs() <= MAX_INPUT; // false for NaN too
            ok &= in_range & (u32::from(i) >= next);
            next = u32::from(i) + 1;
            let x = if in_range { v * (1 << INPUT_SHIFT) as f32 } else { 0.0 };
            *q = ((x + ROUND) - ROUND) as i16;
            total += u64::from(q.unsigned_abs());
        }
        ok && total <= self.input_limit
    }
}

impl QuantScratch {
    /// The change from the inputs `acc` holds to (`index`, `new_value`), as
    /// rows and multiples in `diff_*`; false if it is no cheaper than
    /// starting over. Branch-free: the old values are subtracted from and
    /// the new ones added to a dense array, whose non-zero entries are then
    /// collected (and reset to zero).
    fn diff(&mut self, index: &[u16], inputs: usize) -> bool {
        self.delta.resize(inputs, 0);
        let delta = &mut self.delta;
        // Values are within ±8192, so every net change fits in i16.
        for (&i, &v) in self.index.iter().zip(&self.value) {
            delta[usize::from(i)] -= v;
        }
        for (&i, &v) in index.iter().zip(&self.new_value) {
            delta[usize::from(i)] += v;
        }
        let most = self.index.len() + index.len();
        self.diff_index.resize(most, 0);
        self.diff_value.resize(most, 0);
        let mut n = 0;
        for &i in self.index.iter().chain(index) {
            let d = std::mem::take(&mut delta[usize::from(i)]);
            self.diff_index[n] = i;
            self.diff_value[n] = d;
            n += usize::from(d != 0);
        }
        self.diff_index.truncate(n);
        self.diff_value.truncate(n);
        n < index.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Random sparse inputs over `inputs` units: about a third active, half
    /// of those exactly 1, the others in 0..2.
    fn random_inputs(inputs: usize, rng: &mut ChaCha8Rng) -> SparseInputs {
        let mut s = SparseInputs::with_capacity(inputs);
        for i in 0..inputs {
            if rng.random_range(0..3) == 0 {
                s.index.push(i as u16);
                s.value.push(if rng.random_range(0..2) == 0 { 1.0 } else { rng.random_range(0.001..2.0) });
            }
        }
        s
    }

    /// `x` with a few units switched on or off or changed, as the next
    /// candidate move's inputs would be.
    fn nearby(x: &SparseInputs, inputs: usize, rng: &mut ChaCha8Rng) -> SparseInputs {
        let mut dense = x.to_dense(inputs);
        for _ in 0..4 {
            let i = rng.random_range(0..inputs);
            dense[i] = if dense[i] == 0.0 { rng.random_range(0.1..1.5) } else { 0.0 };
        }
        let mut s = SparseInputs::with_capacity(inputs);
        for (i, &v) in dense.iter().enumerate() {
            if v != 0.0 {
                s.index.push(i as u16);
                s.value.push(v);
            }
        }
        s
    }

    #[test]
    fn matches_the_float_net_closely() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for hidden in [16, 48, 128] {
            let net = Mlp::random(60, hidden, 0.5, hidden as u64);
            let q = QuantNet::new(&net).unwrap();
            let (mut s, mut h) = (QuantScratch::new(), vec![0.0; hidden]);
            let mut worst = 0.0f32;
            for _ in 0..200 {
                let x = random_inputs(60, &mut rng);
                let want = net.forward(&x, &mut h);
                let got = q.forward(&x, &mut s, &mut h).unwrap();
                for (a, b) in want.iter().zip(&got) {
                    worst = worst.max((a - b).abs());
                }
            }
            // Weights in units of 2^-11 or finer and inputs of 2^-10: errors
            // of a few 1e-4 in a pre-activation, less after the sigmoid.
            assert!(worst < 1e-3, "{hidden} hidden: {worst}");
            assert!(q.weight_shift() >= 11, "{}", q.weight_shift());
        }
    }

    #[test]
    fn an_update_gives_exactly_the_sums_of_a_fresh_start() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let net = Mlp::random(80, INCREMENTAL_FROM, 0.5, 3);
        let q = QuantNet::new(&net).unwrap();
        let (mut kept, mut h) = (QuantScratch::new(), vec![0.0; net.hidden()]);
        let mut x = random_inputs(80, &mut rng);
        let mut updates = 0;
        for _ in 0..100 {
            let next = nearby(&x, 80, &mut rng);
            let got = q.forward(&next, &mut kept, &mut h).unwrap();
            let mut fresh = QuantScratch::new();
            let want = q.forward(&next, &mut fresh, &mut h).unwrap();
            assert_eq!(got, want);
            assert_eq!(kept.acc, fresh.acc);
            // Whether the next call updates: a handful of changed rows does.
            let mut probe = kept.clone();
            let after = nearby(&next, 80, &mut rng);
            assert!(q.quantise_inputs(&after, &mut probe));
            updates += usize::from(probe.diff(&after.index, 80));
            x = next;
        }
        assert!(updates > 90, "the updates were exercised: {updates}");
    }

    #[test]
    fn the_largest_sum_allowed_does_not_overflow() {
        // Every weight 1.5, bias -3: at 2^-14 (the finest) the weights are
        // 24,576 units, and inputs summing to 85 (in units of 2^-10) keep a
        // sum within i32; so 80 is taken and computed exactly, 88 declined.
        let mut net = Mlp::random(20, 16, 0.5, 4);
        net.w1.fill(1.5);
        net.b1.fill(-3.0);
        let q = QuantNet::new(&net).unwrap();
        assert_eq!(q.weight_shift(), MAX_WEIGHT_SHIFT);
        let mut s = QuantScratch::new();
        let ten = SparseInputs { index: (0..10).collect(), value: vec![MAX_INPUT; 10] };
        q.forward(&ten, &mut s, &mut [0.0; 16]).unwrap();
        let want = 10.0 * 1.5 * f64::from(MAX_INPUT) - 3.0;
        let got = f64::from(s.acc[0]) * f64::from(-(q.weight_shift() + INPUT_SHIFT)).exp2();
        assert!(got == want && want * f64::from(q.weight_shift() + INPUT_SHIFT).exp2() > 1.9e9, "{got} vs {want}");
        assert!(s.acc.iter().all(|&a| a == s.acc[0]));
        let eleven = SparseInputs { index: (0..11).collect(), value: vec![MAX_INPUT; 11] };
        assert!(q.forward(&eleven, &mut s, &mut [0.0; 16]).is_none());
    }

    #[test]
    fn declines_what_it_cannot_do_exactly() {
        assert!(QuantNet::new(&Mlp::random(10, 24, 0.5, 1)).is_none(), "24 hidden: not whole blocks");
        let mut huge = Mlp::random(10, 16, 0.5, 1);
        huge.w1[(3, 3)] = 1e6;
        assert!(QuantNet::new(&huge).is_none(), "weights beyond any fine scale");
        let q = QuantNet::new(&Mlp::random(10, 16, 0.5, 1)).unwrap();
        let mut s = QuantScratch::new();
        let mut h = vec![0.0; 16];
        for (index, value) in [
            (vec![1, 4], vec![1.0, MAX_INPUT * 1.01]),
            (vec![1, 4], vec![1.0, f32::NAN]),
            (vec![4, 1], vec![1.0, 1.0]),
            (vec![1, 1], vec![1.0, 1.0]),
            (vec![1, 10], vec![1.0, 1.0]),
        ] {
            let x = SparseInputs { index, value };
            assert!(q.forward(&x, &mut s, &mut h).is_none(), "{x:?}");
        }
        let x = SparseInputs { index: vec![1, 4], value: vec![1.0, -MAX_INPUT] };
        assert!(q.forward(&x, &mut s, &mut h).is_some());
    }
}
