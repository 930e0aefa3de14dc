//! The only place with CPU-specific code: the forward pass of a net, the
//! quantised first layer and other modules' lane code ([`LaneCode`], such as
//! the contact features of eight positions at once), each in versions for
//! AVX-512 (with and without VNNI), AVX2 and any CPU, the best one the CPU
//! has chosen at run time ([`Kernel::best`]), and the 64-byte-aligned
//! storage their loads read ([`AlignedFloats`]). It imports nothing of the
//! modules whose code it compiles.
//!
//! One file on purpose: all `unsafe` and every `target_feature` of the
//! project is here, behind safe functions (about 530 lines; tests 100).
//!
//! The float versions are the same Rust code ([`forward_body`],
//! [`dequantised_output_body`]) inlined into functions compiled for each
//! instruction set; the compiler vectorizes it for that set. The quantised
//! first layer is written with intrinsics. Every version gives the same bits:
//! the integer sums are exact, and the float code does the same operations in
//! the same order in each (Rust never fuses a multiply and an add on its own).
#![allow(unsafe_code)]

use crate::probabilities::OUTPUTS;
use std::sync::atomic::{AtomicU8, Ordering};

/// An instruction set the kernels here are compiled for. Only those the CPU
/// has can be made ([`Kernel::best`], [`Kernel::available`]), so using one
/// is always safe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel(Path);

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Path {
    Portable,
    /// AVX2 and FMA.
    Avx2,
    /// AVX-512 F and BW.
    Avx512,
    /// AVX-512 F, BW and VNNI (`vpdpwssd`: multiply, add pairs, accumulate).
    Avx512Vnni,
}

/// The kernel [`Kernel::best`] found, as `Path as u8 + 1`; 0 before the first call.
static BEST: AtomicU8 = AtomicU8::new(0);

const PATHS: [Path; 4] = [Path::Portable, Path::Avx2, Path::Avx512, Path::Avx512Vnni];

impl Kernel {
    /// The fastest kernel this CPU runs, or, where the environment variable
    /// `GAMMON_SIMD` names one (`portable`, `avx2`, `avx512`, `avx512-vnni`),
    /// the fastest up to that one, to measure or rule out a kernel. Every
    /// kernel gives the same results.
    #[inline]
    pub fn best() -> Kernel {
        match BEST.load(Ordering::Relaxed) {
            0 => {
                let k = Kernel::choose();
                BEST.store(k.0 as u8 + 1, Ordering::Relaxed);
                k
            }
            n => Kernel(PATHS[usize::from(n - 1)]),
        }
    }

    #[cold]
    fn choose() -> Kernel {
        let cap = std::env::var("GAMMON_SIMD").ok().and_then(|v| PATHS.into_iter().find(|&p| Kernel(p).name() == v));
        let best = Kernel::detect();
        Kernel(cap.map_or(best, |c| c.min(best)))
    }

    fn detect() -> Path {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::is_x86_feature_detected as has;
            // CD (vector leading zeros) comes with every AVX-512 CPU but the
            // Xeon Phi, which lacks BW anyway.
            if has!("avx512f") && has!("avx512bw") && has!("avx512cd") {
                return if has!("avx512vnni") { Path::Avx512Vnni } else { Path::Avx512 };
            }
            if Kernel::has_avx2() {
                return Path::Avx2;
            }
        }
        Path::Portable
    }

    /// Every kernel this CPU runs, the portable one first and the best last.
    /// Every kernel this CPU runs (whatever `GAMMON_SIMD` says), the
    /// portable one first.
    pub fn available() -> Vec<Kernel> {
        // Each kernel's features include those of the ones before it.
        let best = Kernel::detect();
        PATHS.into_iter().filter(|&p| p <= best).map(Kernel).collect()
    }

    fn has_avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma")
        }
        #[cfg(not(target_arch = "x86_64"))]
        false
    }

    /// A short name: `portable`, `avx2`, `avx512` or `avx512-vnni`.
    pub fn name(self) -> &'static str {
        match self.0 {
            Path::Portable => "portable",
            Path::Avx2 => "avx2",
            Path::Avx512 => "avx512",
            Path::Avx512Vnni => "avx512-vnni",
        }
    }
}

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

/// Floats stored from a 64-byte boundary, so that a row of a net's first
/// layer whose length is a multiple of 16 never splits a cache line under
/// AVX-512's 64-byte loads. A `Vec<f32>` starts wherever the allocator puts
/// it (16 bytes past a page for large ones): measured, 1-ply analysis ran
/// 15-18% slower when the first layer landed there than when it happened
/// to start on a 64-byte boundary.
#[derive(Clone, Debug, Default)]
pub struct AlignedFloats {
    blocks: Vec<Block64>,
    len: usize,
}

#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(64))]
struct Block64([f32; 16]);

impl AlignedFloats {
    /// A copy of `values`.
    pub fn from_slice(values: &[f32]) -> Self {
        let blocks = values
            .chunks(16)
            .map(|c| {
                let mut b = Block64::default();
                b.0[..c.len()].copy_from_slice(c);
                b
            })
            .collect();
        AlignedFloats { blocks, len: values.len() }
    }

    /// The values, starting on a 64-byte boundary.
    pub fn as_slice(&self) -> &[f32] {
        // SAFETY: `Block64` is `repr(C)` over `[f32; 16]` with no padding
        // (64 bytes, align 64), so the blocks are `16 * blocks.len()`
        // contiguous, initialised floats, of which the first `len` are the
        // values (`len <= 16 * blocks.len()` by construction).
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr().cast::<f32>(), self.len) }
    }
}

/// Hidden activations into `hidden` and the five output pre-activations
/// (before the output sigmoid) for the sparse input (`index`, `value`).
#[inline]
pub fn forward(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    forward_with(Kernel::best(), net, index, value, hidden)
}

/// [`forward`] with the kernel `k`.
#[inline]
pub fn forward_with(k: Kernel, net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Kernel` is only made for a CPU that has its features.
        Path::Avx512 | Path::Avx512Vnni => unsafe { forward_avx512(net, index, value, hidden) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Path::Avx2 => unsafe { forward_avx2(net, index, value, hidden) },
        _ => forward_body::<CHUNK>(net, index, value, hidden),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn forward_avx2(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    forward_body::<CHUNK>(net, index, value, hidden)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn forward_avx512(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) -> [f32; OUTPUTS] {
    // 128 floats are 8 of AVX-512's 32 registers: a 128-unit layer reads
    // each input row once, whole.
    forward_body::<{ 2 * CHUNK }>(net, index, value, hidden)
}

/// The forward pass, the first layer `WIDE` units at a time where the layer
/// divides into such chunks, else [`CHUNK`] at a time.
#[inline(always)]
fn forward_body<const WIDE: usize>(
    net: NetSlices<'_>,
    index: &[u16],
    value: &[f32],
    hidden: &mut [f32],
) -> [f32; OUTPUTS] {
    let h = net.b1.len();
    let hidden = &mut hidden[..h];
    if h.is_multiple_of(WIDE) {
        first_layer_chunked::<WIDE>(net, index, value, hidden);
    } else if h.is_multiple_of(CHUNK) {
        first_layer_chunked::<CHUNK>(net, index, value, hidden);
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
fn first_layer_chunked<const C: usize>(net: NetSlices<'_>, index: &[u16], value: &[f32], hidden: &mut [f32]) {
    let h = hidden.len();
    for (c, (out, bias)) in hidden.chunks_exact_mut(C).zip(net.b1.chunks_exact(C)).enumerate() {
        let mut acc = [0.0f32; C];
        acc.copy_from_slice(bias);
        for (&i, &v) in index.iter().zip(value) {
            let start = usize::from(i) * h + c * C;
            let Some(row) = net.w1.get(start..start + C) else { continue };
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

/// Code written for vector lanes (plain Rust over arrays of lanes, every
/// function it calls `#[inline(always)]`) that [`run_lanes`] compiles for a
/// kernel's instruction set, where the compiler keeps it in vector
/// registers. The contact features of eight positions at once
/// (`inputs::lanes`) are such code; the trait lets this file compile them
/// without knowing what they compute.
pub(crate) trait LaneCode {
    /// Runs the code; always inlined into the kernel's function.
    fn run(self);
}

/// Runs `code` compiled for the kernel `k`'s instruction set. Every kernel
/// runs the same Rust operations in the same order, so the results are the
/// same bits.
#[inline]
pub(crate) fn run_lanes<C: LaneCode>(k: Kernel, code: C) {
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Kernel` is only made for a CPU that has its features.
        Path::Avx512 | Path::Avx512Vnni => unsafe { run_lanes_avx512(code) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Path::Avx2 => unsafe { run_lanes_avx2(code) },
        _ => code.run(),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512cd")]
fn run_lanes_avx512<C: LaneCode>(code: C) {
    code.run()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn run_lanes_avx2<C: LaneCode>(code: C) {
    code.run()
}

/// Hidden units per block of the quantised first layer: one AVX2 register of
/// `i16` weights.
pub const QUANT_BLOCK: usize = 16;

/// Adds `value[k]` times row `index[k]` of the quantised first layer `w`
/// (one row of `acc.len()` `i16` weights per input) to the accumulator
/// `acc`, in wrapping `i32` arithmetic, with the kernel `k`.
///
/// The vector versions take the rows two at a time, interleaved, so that
/// each multiply-add does a product per 16-bit lane. Integer arithmetic is
/// exact, so every version (and any order of rows) gives the same bits;
/// wrapping makes a sum whose final value fits in `i32` right even where a
/// partial sum does not (an incremental update subtracts and adds).
///
/// # Panics
/// If `acc.len()` is not a multiple of [`QUANT_BLOCK`], `index` and `value`
/// differ in length, or a row lies outside `w`.
#[inline]
pub fn quant_add_rows_with(k: Kernel, w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32]) {
    let h = acc.len();
    assert!(h.is_multiple_of(QUANT_BLOCK) && index.len() == value.len(), "quantised layer shape");
    assert!(index.iter().all(|&i| (usize::from(i) + 1) * h <= w.len()), "row outside the layer");
    match k.0 {
        // SAFETY (all three): a `Kernel` is only made for a CPU that has its
        // features; the shapes and rows were checked above.
        #[cfg(target_arch = "x86_64")]
        Path::Avx512Vnni => unsafe { quant_add_rows_avx512_vnni(w, index, value, acc) },
        #[cfg(target_arch = "x86_64")]
        Path::Avx512 => unsafe { quant_add_rows_avx512(w, index, value, acc) },
        #[cfg(target_arch = "x86_64")]
        Path::Avx2 => unsafe { quant_add_rows_avx2(w, index, value, acc) },
        _ => quant_add_rows_portable(w, index, value, acc),
    }
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

/// Units `start .. start + K * QUANT_BLOCK` of [`quant_add_rows_with`].
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

/// Units per AVX-512 block: one register of `i16` weights.
const WIDE_BLOCK: usize = 32;
/// Blocks per AVX-512 pass: 256 units, 16 of the 32 registers of sums.
const WIDE_PASS: usize = 8;

/// The AVX-512 versions of [`quant_add_rows_with`]: the AVX2 version's method on
/// registers twice as wide, with or without VNNI's fused multiply-add-pairs-
/// and-accumulate (`vpdpwssd`).
macro_rules! quant_avx512 {
    ($rows:ident, $pass:ident, $features:literal, $mac:expr) => {
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        fn $rows(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32]) {
            let h = acc.len();
            let mut start = 0;
            while start + WIDE_PASS * WIDE_BLOCK <= h {
                $pass::<WIDE_PASS>(w, index, value, acc, start);
                start += WIDE_PASS * WIDE_BLOCK;
            }
            while start + WIDE_BLOCK <= h {
                $pass::<1>(w, index, value, acc, start);
                start += WIDE_BLOCK;
            }
            if start < h {
                quant_pass_avx2::<1>(w, index, value, acc, start);
            }
        }

        /// Units `start .. start + K * WIDE_BLOCK` of [`quant_add_rows_with`].
        #[cfg(target_arch = "x86_64")]
        #[target_feature(enable = $features)]
        #[inline]
        fn $pass<const K: usize>(w: &[i16], index: &[u16], value: &[i16], acc: &mut [i32], start: usize) {
            use std::arch::x86_64::{
                __m512i, _mm512_add_epi32, _mm512_loadu_si512, _mm512_permutex2var_epi32, _mm512_set1_epi32,
                _mm512_setr_epi32, _mm512_setzero_si512, _mm512_storeu_si512, _mm512_unpackhi_epi16,
                _mm512_unpacklo_epi16,
            };
            let h = acc.len();
            let width = K * WIDE_BLOCK;
            // Per block, units 0-3, 8-11, 16-19, 24-27 in `low`, the others
            // in `high` (the 128-bit lanes of the interleaving unpacks).
            let mut low = [_mm512_setzero_si512(); K];
            let mut high = [_mm512_setzero_si512(); K];
            let mut k = 0;
            while k < index.len() {
                let (i0, v0) = (index[k], value[k]);
                // An odd row out pairs with itself, times zero.
                let (i1, v1) = if k + 1 < index.len() { (index[k + 1], value[k + 1]) } else { (i0, 0) };
                let r0 = &w[usize::from(i0) * h + start..][..width];
                let r1 = &w[usize::from(i1) * h + start..][..width];
                let both = _mm512_set1_epi32(i32::from(v0 as u16) | (i32::from(v1 as u16) << 16));
                for b in 0..K {
                    // SAFETY: both rows hold `width` values, so 32 from `b * 32` are in them.
                    let (x0, x1) = unsafe {
                        (
                            _mm512_loadu_si512(r0[b * WIDE_BLOCK..].as_ptr().cast::<__m512i>()),
                            _mm512_loadu_si512(r1[b * WIDE_BLOCK..].as_ptr().cast::<__m512i>()),
                        )
                    };
                    let mac = $mac;
                    low[b] = mac(low[b], _mm512_unpacklo_epi16(x0, x1), both);
                    high[b] = mac(high[b], _mm512_unpackhi_epi16(x0, x1), both);
                }
                k += 2;
            }
            // Back in unit order: lane j of `low` and of `high` hold units
            // 8j..8j+3 and 8j+4..8j+7.
            let first = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23);
            let second = _mm512_setr_epi32(8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31);
            let out = &mut acc[start..start + width];
            for b in 0..K {
                let a = &mut out[b * WIDE_BLOCK..(b + 1) * WIDE_BLOCK];
                let units = [
                    _mm512_permutex2var_epi32(low[b], first, high[b]),
                    _mm512_permutex2var_epi32(low[b], second, high[b]),
                ];
                for (half, u) in units.into_iter().enumerate() {
                    // SAFETY: `a` holds 32 i32, two registers' worth, read and written in place.
                    unsafe {
                        let p = a.as_mut_ptr().add(16 * half).cast::<__m512i>();
                        _mm512_storeu_si512(p, _mm512_add_epi32(_mm512_loadu_si512(p), u));
                    }
                }
            }
        }
    };
}

quant_avx512!(quant_add_rows_avx512, quant_pass_avx512, "avx512f,avx512bw", |sum, x, v| {
    std::arch::x86_64::_mm512_add_epi32(sum, std::arch::x86_64::_mm512_madd_epi16(x, v))
});
quant_avx512!(quant_add_rows_avx512_vnni, quant_pass_avx512_vnni, "avx512f,avx512bw,avx512vnni", |sum, x, v| {
    std::arch::x86_64::_mm512_dpwssd_epi32(sum, x, v)
});

/// The rest of a forward pass from the first layer's sums, with the kernel
/// `k`: dequantises `acc` (times `scale`), applies the hidden sigmoid and
/// the output layer (`w2`: `OUTPUTS x acc.len()`). Returns the output
/// pre-activations.
///
/// # Panics
/// If `acc.len()` is not a multiple of [`QUANT_BLOCK`] or `w2` and `b2` do
/// not fit it.
#[inline]
pub fn dequantised_output_with(k: Kernel, acc: &[i32], scale: f32, w2: &[f32], b2: &[f32]) -> [f32; OUTPUTS] {
    assert!(
        acc.len().is_multiple_of(QUANT_BLOCK) && w2.len() == OUTPUTS * acc.len() && b2.len() == OUTPUTS,
        "quantised output layer shape"
    );
    match k.0 {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Kernel` is only made for a CPU that has its features.
        Path::Avx512 | Path::Avx512Vnni => unsafe { dequantised_output_avx512(acc, scale, w2, b2) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Path::Avx2 => unsafe { dequantised_output_avx2(acc, scale, w2, b2) },
        _ => dequantised_output_body(acc, scale, w2, b2),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn dequantised_output_avx2(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32]) -> [f32; OUTPUTS] {
    dequantised_output_body(acc, scale, w2, b2)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn dequantised_output_avx512(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32]) -> [f32; OUTPUTS] {
    dequantised_output_body(acc, scale, w2, b2)
}

/// One pass over the hidden units, [`QUANT_BLOCK`] at a time: dequantise,
/// sigmoid, and add into each output's sixteen partial sums, so that the
/// activations never go through memory. The same operations in the same
/// order as [`output_layer`] on the dequantised sums.
#[inline(always)]
fn dequantised_output_body(acc: &[i32], scale: f32, w2: &[f32], b2: &[f32]) -> [f32; OUTPUTS] {
    const B: usize = QUANT_BLOCK;
    let h = acc.len();
    let mut sums = [[0.0f32; B]; OUTPUTS];
    for (c, a) in acc.chunks_exact(B).enumerate() {
        let mut s = [0.0f32; B];
        for (s, &a) in s.iter_mut().zip(a) {
            *s = sigmoid_approx(a as f32 * scale);
        }
        for (k, sum) in sums.iter_mut().enumerate() {
            let w = &w2[k * h + c * B..][..B];
            for j in 0..B {
                sum[j] += w[j] * s[j];
            }
        }
    }
    let mut out = [0.0f32; OUTPUTS];
    for ((o, sum), &b) in out.iter_mut().zip(&sums).zip(b2) {
        *o = sum.iter().sum::<f32>() + b;
    }
    out
}
#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn aligned_floats_start_on_a_cache_line_and_keep_every_value() {
        for len in [0, 1, 15, 16, 17, 250 * 128] {
            let values: Vec<f32> = (0..len).map(|i| i as f32 * 0.5 - 3.0).collect();
            let aligned = AlignedFloats::from_slice(&values);
            assert_eq!(aligned.as_slice(), &values[..], "{len}");
            assert_eq!(aligned.as_slice().as_ptr().addr() % 64, 0, "{len}");
            assert_eq!(aligned.clone().as_slice().as_ptr().addr() % 64, 0, "a clone too");
        }
    }

    #[test]
    fn the_kernels_listed_start_portable_and_end_with_the_best() {
        let all = Kernel::available();
        assert_eq!(all[0].name(), "portable");
        assert!(all.contains(&Kernel::best()));
        let names: Vec<_> = all.iter().map(|k| k.name()).collect();
        let mut unique = names.clone();
        unique.dedup();
        assert_eq!(names, unique);
    }

    #[test]
    fn every_quantised_version_gives_the_same_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let shapes = [(16, 0), (16, 1), (48, 20), (64, 21), (128, 20), (144, 21), (256, 21), (272, 5), (528, 22)];
        for (h, rows) in shapes {
            let inputs = 30;
            let w: Vec<i16> = (0..inputs * h).map(|_| rng.random_range(-32767..=32767)).collect();
            let index: Vec<u16> = (0..rows).map(|_| rng.random_range(0..inputs as u16)).collect();
            let value: Vec<i16> = (0..rows).map(|_| rng.random_range(-16384..=16384)).collect();
            let start: Vec<i32> = (0..h).map(|_| rng.random()).collect();
            let mut want = start.clone();
            quant_add_rows_portable(&w, &index, &value, &mut want);
            let mut got = start.clone();
            quant_add_rows_with(Kernel::best(), &w, &index, &value, &mut got);
            assert_eq!(got, want, "{h} units, {rows} rows, best version");
            for k in Kernel::available() {
                let mut got = start.clone();
                quant_add_rows_with(k, &w, &index, &value, &mut got);
                assert_eq!(got, want, "{h} units, {rows} rows, {}", k.name());
            }
        }
    }

    #[test]
    fn every_output_version_gives_the_same_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        for h in [16, 48, 128, 256, 272] {
            // Sums spanning the sigmoid's range and beyond, at a scale of 2^-24.
            let acc: Vec<i32> = (0..h).map(|_| rng.random_range(-400_000_000..=400_000_000)).collect();
            let scale = (-24.0f32).exp2();
            let w2: Vec<f32> = (0..OUTPUTS * h).map(|_| rng.random_range(-1.0..1.0)).collect();
            let b2: Vec<f32> = (0..OUTPUTS).map(|_| rng.random_range(-1.0..1.0)).collect();
            // The float net's output layer on the dequantised sums.
            let mut hidden: Vec<f32> = acc.iter().map(|&a| a as f32 * scale).collect();
            let want = output_layer(NetSlices { w1: &[], b1: &[], w2: &w2, b2: &b2 }, &mut hidden);
            for k in Kernel::available() {
                let got = dequantised_output_with(k, &acc, scale, &w2, &b2);
                assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "{h} units, {}", k.name());
            }
        }
    }

    #[test]
    fn every_float_version_gives_the_same_bits() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for h in [16, 64, 100, 128, 256] {
            let inputs = 40;
            let w1: Vec<f32> = (0..inputs * h).map(|_| rng.random_range(-0.5..0.5)).collect();
            let b1: Vec<f32> = (0..h).map(|_| rng.random_range(-0.5..0.5)).collect();
            let w2: Vec<f32> = (0..OUTPUTS * h).map(|_| rng.random_range(-0.5..0.5)).collect();
            let b2: Vec<f32> = (0..OUTPUTS).map(|_| rng.random_range(-0.5..0.5)).collect();
            let net = NetSlices { w1: &w1, b1: &b1, w2: &w2, b2: &b2 };
            let index: Vec<u16> = (0..inputs as u16).filter(|_| rng.random_range(0..2) == 0).collect();
            let value: Vec<f32> = index
                .iter()
                .map(|_| if rng.random_range(0..2) == 0 { 1.0 } else { rng.random_range(0.0..2.0) })
                .collect();
            let mut hidden = vec![0.0; h];
            let want = forward_body::<CHUNK>(net, &index, &value, &mut hidden);
            let want_hidden = hidden.clone();
            for k in Kernel::available() {
                let got = forward_with(k, net, &index, &value, &mut hidden);
                assert_eq!(got.map(f32::to_bits), want.map(f32::to_bits), "{h} units, {}", k.name());
                assert_eq!(hidden, want_hidden, "{h} units, {}", k.name());
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
