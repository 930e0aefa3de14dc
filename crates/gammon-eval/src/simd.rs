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
    let r = t + ROUND;
    let n = r - ROUND;
    let f = t - n;
    let p = 1.0
        + f * (std::f32::consts::LN_2
            + f * (0.240_226_5 + f * (0.055_504_11 + f * (0.009_618_129 + f * (0.001_333_355 + f * 0.000_154_035_3)))));
    // `n` as an integer: the low mantissa bits of `r` hold it (|n| <= 44, far
    // below 2^22). The same value as `n as i32`, but `as` saturates, which the
    // compiler cannot vectorize; integer arithmetic on the bits it can.
    let n_int = (r.to_bits() as i32).wrapping_sub(ROUND.to_bits() as i32);
    let scale = f32::from_bits(((n_int + 127) as u32) << 23);
    1.0 / (1.0 + p * scale)
}

/// Hidden units per block of the quantised first layer: one AVX2 register of
/// `i16` weights.
pub const QUANT_BLOCK: usize = 16;

/// Adds `value[k]` times row `index[k]` of the quantised first layer `w`
/// (one row of `acc.len()` `i16` weights per input) to the accumulator
/// `acc`, in wrapping `i32` arithmetic.
///
/// The AVX2 version takes the rows two at a time, interleaved, so that each
/// multiply-add does 16 useful products. Integer arithmetic is exact, so
/// both versions (and any order of rows) give the same bits; wrapping makes
/// a sum whose final value fits in `i32` right even where a partial sum does
/// not (an incremental update subtracts and adds).
///
/// # Panics
/// If `acc.len()` is not a multiple of [`QUANT_BLOCK`], `index` and `value`
/// differ in length, or a row lies outside `w`.
#[inline]
pub fn quant_add_rows(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32]) {
    let h = acc.len();
    assert!(h % QUANT_BLOCK == 0 && index.len() == value.len(), "quantised layer shape");
    assert!(index.iter().all(|&i| (usize::from(i) + 1) * h <= w.len()), "row outside the layer");
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2, checked on the line above; the shapes
            // and rows were checked above.
            unsafe { quant_add_rows_avx2(w, index, value, acc) };
            return;
        }
    }
    quant_add_rows_portable(w, index, value, acc);
}

fn quant_add_rows_portable(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32]) {
    let h = acc.len();
    for (&i, &v) in index.iter().zip(value) {
        let row = &w[usize::from(i) * h..][..h];
        let v = i32::from(v);
        for (a, &x) in acc.iter_mut().zip(row) {
            *a = a.wrapping_add(i32::from(x) * v);
        }
    }
}

/// Blocks of [`QUANT_BLOCK`] units whose accumulators stay in registers
/// across all rows (8 of AVX2's 16 registers).
const QUANT_PASS: usize = 4;

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn quant_add_rows_avx2(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32]) {
    let h = acc.len();
    let mut start = 0;
    while start + QUANT_PASS * QUANT_BLOCK <= h {
        quant_pass_avx2::<QUANT_PASS>(w, index, value, acc, start);
        start += QUANT_PASS * QUANT_BLOCK;
    }
    while start < h {
        quant_pass_avx2::<1>(w, index, value, acc, start);
        start += QUANT_BLOCK;
    }
}

/// Units `start .. start + K * QUANT_BLOCK` of [`quant_add_rows`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
fn quant_pass_avx2<const K: usize>(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32], start: usize) {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi32, _mm256_loadu_si256, _mm256_madd_epi16, _mm256_permute2x128_si256, _mm256_set1_epi32,
        _mm256_setzero_si256, _mm256_storeu_si256, _mm256_unpackhi_epi16, _mm256_unpacklo_epi16,
    };
    let h = acc.len();
    let width = K * QUANT_BLOCK;
    // Per block, units 0-3 and 8-11 in `low`, 4-7 and 12-15 in `high` (the
    // lanes of the interleaving unpacks).
    let mut low = [_mm256_setzero_si256(); K];
    let mut high = [_mm256_setzero_si256(); K];
    let mut k = 0;
    while k < index.len() {
        let (i0, v0) = (index[k], value[k]);
        // An odd row out pairs with itself, times zero.
        let (i1, v1) = if k + 1 < index.len() { (index[k + 1], value[k + 1]) } else { (i0, 0) };
        let r0 = &w[usize::from(i0) * h + start..][..width];
        let r1 = &w[usize::from(i1) * h + start..][..width];
        // Each pair (row 0's weight, row 1's weight) times (v0, v1).
        let both = _mm256_set1_epi32(i32::from(v0 as u16) | (i32::from(v1 as u16) << 16));
        for b in 0..K {
            // SAFETY: both rows hold `width` values, so 16 from `b * 16` are in them.
            let (x0, x1) = unsafe {
                (
                    _mm256_loadu_si256(r0[b * QUANT_BLOCK..].as_ptr().cast::<__m256i>()),
                    _mm256_loadu_si256(r1[b * QUANT_BLOCK..].as_ptr().cast::<__m256i>()),
                )
            };
            low[b] = _mm256_add_epi32(low[b], _mm256_madd_epi16(_mm256_unpacklo_epi16(x0, x1), both));
            high[b] = _mm256_add_epi32(high[b], _mm256_madd_epi16(_mm256_unpackhi_epi16(x0, x1), both));
        }
        k += 2;
    }
    let out = &mut acc[start..start + width];
    for b in 0..K {
        let first = _mm256_permute2x128_si256::<0x20>(low[b], high[b]); // units 0-7
        let second = _mm256_permute2x128_si256::<0x31>(low[b], high[b]); // units 8-15
        let a = &mut out[b * QUANT_BLOCK..(b + 1) * QUANT_BLOCK];
        // SAFETY: `a` holds 16 i32, two registers' worth, read and written in place.
        unsafe {
            let p = a.as_mut_ptr().cast::<__m256i>();
            _mm256_storeu_si256(p, _mm256_add_epi32(_mm256_loadu_si256(p), first));
            let q = a.as_mut_ptr().add(8).cast::<__m256i>();
            _mm256_storeu_si256(q, _mm256_add_epi32(_mm256_loadu_si256(q), second));
        }
    }
}

/// The rest of a forward pass from the first layer's sums: dequantises
/// `acc` (times `scale`) into `hidden`, applies the hidden sigmoid and the
/// output layer (`w2`: `OUTPUTS x hidden`). Returns the output
/// pre-activations.
#[inline]
pub fn dequantised_output(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU has AVX2 and FMA, checked on the line above.
            return unsafe { dequantised_output_avx2(acc, scale, w2, b2, hidden) };
        }
    }
    dequantised_output_body(acc, scale, w2, b2, hidden)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dequantised_output_avx2(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    dequantised_output_body(acc, scale, w2, b2, hidden)
}

#[inline(always)]
fn dequantised_output_body(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    let hidden = &mut hidden[..acc.len()];
    for (x, &a) in hidden.iter_mut().zip(acc) {
        *x = a as f32 * scale;
    }
    output_layer(NetSlices { w1: &[], b1: &[], w2, b2 }, hidden)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_quantised_version_gives_the_same_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for (h, rows) in [(16, 0), (16, 1), (48, 20), (64, 21), (128, 20), (144, 21), (256, 21)] {
            let inputs = 30;
            let w: Vec<i16> = (0..inputs * h).map(|_| rng.random_range(-32767..=32767)).collect();
            let index: Vec<u16> = (0..rows).map(|_| rng.random_range(0..inputs as u16)).collect();
            let value: Vec<i16> = (0..rows).map(|_| rng.random_range(-16384..=16384)).collect();
            let start: Vec<i32> = (0..h).map(|_| rng.random()).collect();
            let mut want = start.clone();
            quant_add_rows_portable(&w, &index, &value, &mut want);
            let mut got = start.clone();
            quant_add_rows(&w, &index, &value, &mut got);
            assert_eq!(got, want, "{h} units, {rows} rows, best version");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut got = start.clone();
                // SAFETY: the CPU has AVX2; the shapes are quant_add_rows's.
                unsafe { quant_add_rows_avx2(&w, &index, &value, &mut got) };
                assert_eq!(got, want, "{h} units, {rows} rows, AVX2");
            }
        }
    }

    #[test]
    fn the_vectorised_sigmoid_is_the_scalar_one() {
        // The same function, once in a loop the compiler vectorises.
        let xs: Vec<f32> = (0..4000).map(|i| (i as f32 - 2000.0) * 0.02).collect();
        let mut hidden = xs.clone();
        let w2 = vec![0.0; OUTPUTS * xs.len()];
        let _ = output_layer(NetSlices { w1: &[], b1: &[], w2: &w2, b2: &[0.0; OUTPUTS] }, &mut hidden);
        for (x, y) in xs.iter().zip(&hidden) {
            assert_eq!(sigmoid_approx(*x).to_bits(), y.to_bits(), "{x}");
        }
    }
}
