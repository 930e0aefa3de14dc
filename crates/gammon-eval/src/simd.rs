//! The only place with CPU-specific code: the forward pass of a net,
//! compiled twice, once plain and once for AVX2 + FMA, and chosen at run time.
//!
//! Both versions are the same Rust code ([`forward_body`], inlined into each);
//! the compiler vectorizes it for the instruction set of the function it is
//! inlined into. Results may differ in the last bits between the two (FMA
//! rounds once), never more.
#![allow(unsafe_code)]

use crate::mlp::OUTPUTS;

/// The weights of a net as flat slices: `w1` is `inputs x hidden` row-major,
/// `w2` is `OUTPUTS x hidden`.
#[derive(Clone, Copy, Debug)]
pub struct NetSlices<'a> {
    /// First layer, one row of `hidden` weights per input.
    pub w1: &'a [f32],
    /// Hidden biases.
    pub b1: &'a [f32],
    /// Output weights.
    pub w2: &'a [f32],
    /// Output biases.
    pub b2: &'a [f32],
}

/// Hidden activations into `hidden` and the five output pre-activations
/// (before the output sigmoid) for the sparse input (`index`, `value`).
#[inline]
pub fn forward(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has AVX2 and FMA, checked on the line above.
            return unsafe { forward_avx2(net, index, value, hidden) };
        }
    }
    forward_body(net, index, value, hidden)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn forward_avx2(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    forward_body(net, index, value, hidden)
}

#[inline(always)]
fn forward_body(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    let h = net.b1.len();
    let hidden = &mut hidden[..h];
    if h % CHUNK == 0 {
        first_layer_chunked(net, index, value, hidden);
    } else {
        first_layer(net, index, value, hidden);
    }
    output_layer(net, hidden)
}

/// Hidden units per pass of [`first_layer_chunked`]: 64 floats are 8 AVX2
/// registers, which stay in registers across all input rows.
const CHUNK: usize = 64;

/// The first layer, `CHUNK` hidden units at a time: for each chunk, the
/// rows of the non-zero inputs are added into an accumulator held in
/// registers (a whole-width accumulator would not fit and goes through
/// memory on every row). Each unit sums the same terms in the same order as
/// [`first_layer`], so the results are identical.
#[inline(always)]
fn first_layer_chunked(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) {
    let h = hidden.len();
    for (c, (out, bias)) in hidden.chunks_exact_mut(CHUNK).zip(net.b1.chunks_exact(CHUNK)).enumerate() {
        let mut acc = [0.0f32; CHUNK];
        acc.copy_from_slice(bias);
        for (&i, &v) in index.iter().zip(value) {
            let start = usize::from(i) * h + c * CHUNK;
            let Some(row) = net.w1.get(start..start + CHUNK) else { continue };
            // v * w is exactly w for the (common) inputs of 1.0.
            for (a, w) in acc.iter_mut().zip(row) {
                *a += v * w;
            }
        }
        out.copy_from_slice(&acc);
    }
}

#[inline(always)]
fn first_layer(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) {
    let h = hidden.len();
    hidden.copy_from_slice(net.b1);
    for (&i, &v) in index.iter().zip(value) {
        let start = usize::from(i) * h;
        let row = &net.w1[start..start + h];
        if v == 1.0 {
            for (a, w) in hidden.iter_mut().zip(row) {
                *a += w;
            }
        } else {
            for (a, w) in hidden.iter_mut().zip(row) {
                *a += v * w;
            }
        }
    }
}

#[inline(always)]
fn output_layer(net: NetSlices<'_>, hidden: &mut [f32]) -> [f32; OUTPUTS] {
    let h = hidden.len();
    for a in hidden.iter_mut() {
        *a = sigmoid_approx(*a);
    }
    let mut out = [0.0f32; OUTPUTS];
    for (k, o) in out.iter_mut().enumerate() {
        let row = &net.w2[k * h..(k + 1) * h];
        // Sixteen partial sums keep the dot product in vector registers.
        let mut acc = [0.0f32; 16];
        let mut chunks_w = row.chunks_exact(16);
        let mut chunks_a = hidden.chunks_exact(16);
        for (w, a) in (&mut chunks_w).zip(&mut chunks_a) {
            for j in 0..16 {
                acc[j] += w[j] * a[j];
            }
        }
        let mut sum: f32 = chunks_w.remainder().iter().zip(chunks_a.remainder()).map(|(w, a)| w * a).sum();
        sum += acc.iter().sum::<f32>();
        *o = sum + net.b2[k];
    }
    out
}

/// The logistic function with a fast `exp`: `2^(-x log2 e)` split into an
/// integer power, set in the exponent bits, and a degree-6 polynomial for the
/// fraction in [-1/2, 1/2]. Within 3e-7 of the exact value; branch-free so
/// that loops over it vectorize.
#[inline(always)]
pub fn sigmoid_approx(x: f32) -> f32 {
    const ROUND: f32 = 12_582_912.0; // 1.5 * 2^23: adding it rounds to an integer
    let t = (-x).clamp(-30.0, 30.0) * std::f32::consts::LOG2_E;
    let n = (t + ROUND) - ROUND;
    let f = t - n;
    let p = 1.0
        + f * (std::f32::consts::LN_2
            + f * (0.240_226_5 + f * (0.055_504_11 + f * (0.009_618_129 + f * (0.001_333_355 + f * 0.000_154_035_3)))));
    let scale = f32::from_bits(((n as i32 + 127) as u32) << 23);
    1.0 / (1.0 + p * scale)
}
