//! The contact features of [`SHOT_LANES`] sides at once (both sides of eight
//! positions), in vector lanes: the same values as
//! [`features_and_count`](super::features_and_count), bit for bit.
//!
//! Every loop here has the lanes innermost and no branch that depends on a
//! lane, so that the compiler turns it into vector code
//! ([`contact_features_lanes`] has `simd::run_lanes` compile it for the
//! CPU's instruction set): a loop over a side's checkers becomes a loop over every point, a
//! point without checkers adding nothing (integer sums are exact; a float sum
//! of non-negative terms is unchanged by adding 0.0), and the branches of the
//! one-position code become selects. The table lookups are the same tables
//! widened to 32-bit entries, which vector gathers read.

// Each lane loop reads and writes several arrays at the same lane, which an
// index states most plainly.
#![allow(clippy::needless_range_loop)]

use super::shots::{hit_stats_of_lanes, HitStats, ShotLanes, SHOT_LANES};
use super::{CONTACT_FEATURES, ENTER_LOSS, ESCAPES, ESCAPES_NEAR, POINTS, ROLLS_WITH_DIE, ROLLS_WITH_SUM};
use crate::simd::{run_lanes, Kernel, LaneCode};
use gammon_rules::Position;

const L: usize = SHOT_LANES;

/// What the features of [`L`] sides need, one array per quantity.
#[derive(Clone, Debug)]
pub struct SideLanes {
    /// `counts[p][l]`: our checkers on point `p` (bar = 25) in lane `l`.
    counts: [[u32; L]; 26],
    mine: [u32; L],
    made: [u32; L],
    theirs: [u32; L],
    blocks: [u32; L],
    shots: ShotLanes,
}

impl Default for SideLanes {
    fn default() -> Self {
        SideLanes {
            counts: [[0; L]; 26],
            mine: [0; L],
            made: [0; L],
            theirs: [0; L],
            blocks: [0; L],
            shots: ShotLanes::default(),
        }
    }
}

/// The features of every lane, `features[f][l]`, and each lane's checkers
/// still in play.
#[derive(Clone, Debug)]
pub struct FeatureLanes {
    pub(super) features: [[f32; L]; CONTACT_FEATURES],
    pub(super) in_play: [u32; L],
}

impl Default for FeatureLanes {
    fn default() -> Self {
        FeatureLanes { features: [[0.0; L]; CONTACT_FEATURES], in_play: [0; L] }
    }
}

impl SideLanes {
    /// Our checkers on point `p` in lane `l`.
    #[inline(always)]
    pub(super) fn checkers(&self, p: usize, l: usize) -> u8 {
        self.counts.get(p).and_then(|c| c.get(l)).map_or(0, |&n| n as u8)
    }

    /// Empties every lane's points (before [`set`](Self::set)).
    pub(super) fn clear_points(&mut self) {
        self.counts = [[0; L]; 26];
    }

    /// Lane `i` takes the side on roll of `pos` (its points must be empty).
    pub(super) fn set(&mut self, i: usize, pos: &Position) {
        if i >= L {
            return;
        }
        let mut m = pos.my_occupied();
        while m != 0 {
            let p = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(point) = self.counts.get_mut(p) {
                point[i] = u32::from(pos.my_checkers(p));
            }
        }
        self.mine[i] = pos.my_occupied();
        self.made[i] = pos.my_made_points();
        self.theirs[i] = pos.their_occupied();
        self.blocks[i] = pos.blocked_points();
        self.shots.set(i, pos);
    }
}

/// Every bit set when `b`, none otherwise: a select by masking, which the
/// compiler keeps in vector registers (an `if` in these loops became masked
/// stores to memory and loads back, which stall).
#[inline(always)]
fn all_ones(b: bool) -> u32 {
    0u32.wrapping_sub(u32::from(b))
}

/// The contact features of every lane of `sides`, compiled for the best
/// kernel's instruction set, where they run in vector lanes.
pub(crate) fn contact_features_lanes(sides: &SideLanes, out: &mut FeatureLanes) {
    contact_features_lanes_with(Kernel::best(), sides, out);
}

/// [`contact_features_lanes`] with the kernel `k`.
pub(crate) fn contact_features_lanes_with(k: Kernel, sides: &SideLanes, out: &mut FeatureLanes) {
    run_lanes(k, ContactLanes { sides, out });
}

/// The contact features of every lane as code for [`run_lanes`].
struct ContactLanes<'a> {
    sides: &'a SideLanes,
    out: &'a mut FeatureLanes,
}

impl LaneCode for ContactLanes<'_> {
    #[inline(always)]
    fn run(self) {
        contact_features_of_lanes(self.sides, self.out);
    }
}

/// [`features_and_count`](super::features_and_count) of every lane of `s`.
#[inline(always)]
fn contact_features_of_lanes(s: &SideLanes, out: &mut FeatureLanes) {
    let mut hits = [HitStats::default(); L];
    hit_stats_of_lanes(&s.shots, &mut hits);
    // Our rearmost checker (bar = 25; 0 with none left).
    let back_checker: [u32; L] = std::array::from_fn(|l| 31 - s.mine[l].leading_zeros().min(31));

    // The pass over our checkers, point by point.
    let (mut pips, mut in_play, mut timing) = ([0u32; L], [0u32; L], [0u32; L]);
    let (mut break_contact, mut free_pips) = ([0u32; L], [0u32; L]);
    let (mut back_checkers, mut blots, mut stripped) = ([0u32; L], [0u32; L], [0u32; L]);
    // gnubg's timing outside our home board: its pips and spare checkers.
    let (mut timing_g, mut timing_spares) = ([0u32; L], [0u32; L]);
    // The opponent's rearmost checker, in our numbering (his bar = 0).
    let his_back: [u32; L] = std::array::from_fn(|l| s.theirs[l].trailing_zeros());
    for (p, counts) in s.counts.iter().enumerate().skip(1) {
        let pu = p as u32;
        for l in 0..L {
            let n = counts[l];
            pips[l] += n * pu;
            in_play[l] += n;
            let beyond = all_ones(pu > his_back[l]);
            break_contact[l] += n.wrapping_mul(pu.wrapping_sub(his_back[l])) & beyond;
            free_pips[l] += (n * pu) & !beyond;
        }
        if p <= 24 {
            for l in 0..L {
                let n = counts[l];
                // Checkers beyond two on a made point, or not on one.
                let spare = if n >= 2 { n - 2 } else { n };
                timing[l] += spare * (pu - 1);
            }
        }
        if p >= 7 {
            let keeps_two = (13..=24).contains(&p);
            for l in 0..L {
                let n = counts[l];
                let spare = n - (2 & all_ones(n >= 2));
                // Behind his rearmost checker, a point of 13..24 keeps two.
                let keep = all_ones(keeps_two & (pu > his_back[l]));
                let s = (spare & keep) | (n & !keep);
                timing_g[l] += s * (pu - 1);
                timing_spares[l] += s;
            }
        }
        if p >= 19 {
            for l in 0..L {
                back_checkers[l] += counts[l];
            }
        }
        if (7..19).contains(&p) {
            for l in 0..L {
                blots[l] += u32::from(counts[l] == 1);
            }
        }
        if p <= 3 {
            for l in 0..L {
                stripped[l] += counts[l].saturating_sub(1);
            }
        }
    }

    // Every feature of every lane is written below.
    let f = &mut out.features;
    for l in 0..L {
        let made = s.made[l];
        let back_anchor = if made == 0 { 0 } else { 31 - made.leading_zeros() };
        let anchors = made & (0x3F << 19);
        let forward_anchor = if anchors == 0 { 0.0 } else { 25u32.wrapping_sub(anchors.trailing_zeros()) as f32 / 6.0 };
        let closed = (s.blocks[l] >> 19 & 0x3F).count_ones() as f32;
        let enter_fail = if s.counts[25][l] > 0 { (closed / 6.0) * (closed / 6.0) } else { 0.0 };
        let (back_game, back_game1) = match anchors.count_ones() {
            0 => (0.0, 0.0),
            1 => (0.0, back_checkers[l] as f32 / 8.0),
            _ => ((back_checkers[l] as f32 - 3.0) / 4.0, 0.0),
        };
        f[0][l] = pips[l] as f32 / 167.0;
        f[1][l] = break_contact[l] as f32 / 167.0;
        f[2][l] = free_pips[l] as f32 / 100.0;
        f[3][l] = back_checker[l] as f32 / 25.0;
        f[4][l] = back_anchor as f32 / 24.0;
        f[5][l] = forward_anchor;
        f[6][l] = hits[l].any;
        f[7][l] = hits[l].two;
        f[10][l] = (made & 0x7E).count_ones() as f32 / 6.0;
        f[11][l] = (back_checkers[l] + s.counts[25][l]) as f32 / 5.0;
        f[12][l] = blots[l] as f32 / 5.0;
        f[13][l] = anchors.count_ones().min(2) as f32 / 2.0;
        f[14][l] = enter_fail;
        f[15][l] = timing[l] as f32 / 100.0;
        f[16][l] = stripped[l] as f32 / 10.0;
        f[17][l] = hits[l].pip_loss;
        f[25][l] = back_game;
        f[26][l] = back_game1;
        // gnubg's pips lost entering, from the table (0 with none on the bar).
        let bar_class = s.counts[25][l].min(2);
        f[30][l] = ENTER_LOSS_WIDE[((s.blocks[l] >> 19) & 0x3F | bar_class << 6) as usize] as f32 / 294.0;
        // Our point on his 7..11 nearest his home board, with none in it.
        let outer = made & (0x1F << 14) & !all_ones(anchors != 0);
        let outer_anchor = 25u32.wrapping_sub(31u32.wrapping_sub(outer.leading_zeros())) as f32 / 6.0;
        f[32][l] = f32::from_bits(outer_anchor.to_bits() & all_ones(outer != 0));
    }
    longest_run_of_lanes(&s.made, &mut f[9]);
    containment_of_lanes(s, &back_checker, f);
    let mut escapes = [0u32; L];
    escape_chance_of_lanes(s, &back_checker, &mut escapes);
    back_escapes_of_lanes(s, &back_checker, &escapes, f);
    home_timing_of_lanes(s, &timing_g, &timing_spares, &mut f[28]);
    moment2_of_lanes(s, &pips, &in_play, &mut f[23]);
    backbone_of_lanes(&s.made, &mut f[24]);
    out.in_play = in_play;
}

/// A 32-bit copy of a table of smaller integers, made at compile time:
/// vector gathers read 32-bit entries.
macro_rules! widened {
    ($table:expr, $n:expr) => {{
        let mut out = [0u32; $n];
        let mut i = 0;
        while i < $n {
            out[i] = $table[i] as u32;
            i += 1;
        }
        out
    }};
}

static ESCAPES_WIDE: [u32; 4096] = widened!(ESCAPES, 4096);
static ESCAPES_NEAR_WIDE: [u32; 4096] = widened!(ESCAPES_NEAR, 4096);
static ENTER_LOSS_WIDE: [u32; 192] = widened!(ENTER_LOSS, 192);

/// Containment (features 18-21), mobility (22) and the fixed containment
/// (29) of every lane: the fewest escaping rolls from the points our
/// rearmost checker still has to pass, and from our points 16..24 (as
/// [`containment`](super::containment)).
#[inline(always)]
fn containment_of_lanes(s: &SideLanes, back_checker: &[u32; L], f: &mut [[f32; L]; CONTACT_FEATURES]) {
    let (mut fewest_near, mut fewest_far, mut mobility) = ([36u32; L], [36u32; L], [0u32; L]);
    let mut fewest_fixed = [36u32; L];
    for q in (7..=25usize).rev() {
        let qu = q as u32;
        for l in 0..L {
            // Bits q-12 .. q-1 of the blocks (points below 1 are never blocked).
            let blocks = s.blocks[l];
            let window = if q >= 12 { blocks >> (q - 12) } else { blocks << (12 - q) } & 0xFFF;
            let e = ESCAPES_WIDE[window as usize];
            let active = all_ones(qu <= back_checker[l]);
            let e_held = (e & active) | (36 & !active);
            fewest_far[l] = fewest_far[l].min(e_held);
            if q >= 16 {
                fewest_near[l] = fewest_near[l].min(e_held);
            }
            if (16..=24).contains(&q) {
                fewest_fixed[l] = fewest_fixed[l].min(e);
            }
            mobility[l] += (s.counts[q][l] * (qu - 6) * e) & active;
        }
    }
    for l in 0..L {
        let contained = 1.0 - fewest_near[l] as f32 / 36.0;
        let contained_far = 1.0 - fewest_far[l] as f32 / 36.0;
        f[18][l] = contained;
        f[19][l] = contained * contained;
        f[20][l] = contained_far;
        f[21][l] = contained_far * contained_far;
        f[22][l] = mobility[l] as f32 / 3600.0;
        f[29][l] = 1.0 - fewest_fixed[l] as f32 / 36.0;
    }
}

/// `ESCAPE` (8) of every lane from its count of escaping rolls, and the two
/// escape counts of our rearmost checker read from tables (`ESCAPE_MISSED`,
/// 27, and `BACKRESCAPES`, 31), at its window of the blocks as
/// [`escape_window`](super::escape_window) takes it: both shifts, the one
/// that applies selected.
#[inline(always)]
fn back_escapes_of_lanes(
    s: &SideLanes,
    back_checker: &[u32; L],
    escapes: &[u32; L],
    f: &mut [[f32; L]; CONTACT_FEATURES],
) {
    for l in 0..L {
        let (blocks, q) = (s.blocks[l], back_checker[l]);
        let down = all_ones(q >= 12);
        let window = ((blocks.wrapping_shr(q.wrapping_sub(12)) & down)
            | (blocks.wrapping_shl(12u32.wrapping_sub(q)) & !down))
            & 0xFFF;
        f[8][l] = escapes[l] as f32 / 36.0;
        f[27][l] = ESCAPES_WIDE[window as usize].saturating_sub(escapes[l]) as f32 / 36.0;
        f[31][l] = ESCAPES_NEAR_WIDE[window as usize] as f32 / 36.0;
    }
}

/// `TIMING_G` (28) of every lane from the pips and spares outside the home
/// board (as [`home_timing`](super::home_timing)): the six home points in
/// turn, each step taken or not by a mask.
#[inline(always)]
fn home_timing_of_lanes(s: &SideLanes, pips: &[u32; L], spares: &[u32; L], out: &mut [f32; L]) {
    let mut t: [i32; L] = std::array::from_fn(|l| pips[l] as i32);
    let mut spares: [i32; L] = std::array::from_fn(|l| spares[l] as i32);
    for p in (1..=6usize).rev() {
        let weight = p as i32 - 1;
        for l in 0..L {
            let d = s.counts[p][l] as i32 - 2;
            let take = all_ones(spares[l] + d >= 0) as i32;
            t[l] += (weight * d) & take;
            spares[l] += d & take;
        }
    }
    for l in 0..L {
        out[l] = t[l].max(0) as f32 / 100.0;
    }
}

static ROLLS_WITH_DIE_WIDE: [u32; 64] = widened!(ROLLS_WITH_DIE, 64);
static ROLLS_WITH_SUM_WIDE: [u32; 512] = widened!(ROLLS_WITH_SUM, 512);

/// [`escape_chance`](super::escape_chance) of every lane, in rolls (of 36).
#[inline(always)]
fn escape_chance_of_lanes(s: &SideLanes, back_checker: &[u32; L], out: &mut [u32; L]) {
    for l in 0..L {
        let (mine, blocks, back) = (s.mine[l], s.blocks[l], back_checker[l]);
        let below_back = 1u32.wrapping_shl(back).wrapping_sub(1);
        let beyond_window = 1u32.wrapping_shl(back.wrapping_sub(12)).wrapping_sub(1) & all_ones(back > 13);
        let in_front = blocks & below_back & !beyond_window;
        // Distance to the farthest blocking point in front (1..=12).
        let far = back.wrapping_sub(in_front.trailing_zeros()) & 31;
        let ahead = (!blocks & POINTS).wrapping_shl(31u32.wrapping_sub(back)).reverse_bits();
        let past = ahead & !(2u32.wrapping_shl(far).wrapping_sub(1));
        let single = ROLLS_WITH_DIE_WIDE[((past >> 1) & 0x3F) as usize];
        let through = ROLLS_WITH_DIE_WIDE[((ahead >> 1) & 0x3F) as usize];
        let both = ROLLS_WITH_SUM_WIDE[((past >> 3) & 0x1FF) as usize];
        let mut escapes = 2 * (single | (both & through)).count_ones();
        for d in 1..=6u32 {
            let (mut free, mut got) = (1u32, 0u32);
            for k in 1..=4u32 {
                free &= ahead >> (k * d);
                got |= free & (past >> (k * d));
            }
            escapes += got & 1;
        }
        let open_road = all_ones((mine == 0) | (in_front == 0));
        out[l] = (36 & open_road) | (escapes & !open_road);
    }
}

/// `longest_run(made) / 6` of every lane.
#[inline(always)]
fn longest_run_of_lanes(made: &[u32; L], out: &mut [f32; L]) {
    let mut m = *made;
    let mut n = [0u32; L];
    for _ in 0..25 {
        for l in 0..L {
            n[l] += u32::from(m[l] != 0);
            m[l] &= m[l] << 1;
        }
    }
    for l in 0..L {
        out[l] = n[l] as f32 / 6.0;
    }
}

/// `moment2(pos, pips, in_play) / 400` of every lane.
#[inline(always)]
fn moment2_of_lanes(s: &SideLanes, pips: &[u32; L], in_play: &[u32; L], out: &mut [f32; L]) {
    let mean: [f32; L] = std::array::from_fn(|l| pips[l] as f32 / in_play[l] as f32);
    let (mut sum, mut count) = ([0.0f32; L], [0u32; L]);
    for (p, counts) in s.counts.iter().enumerate().skip(1) {
        for l in 0..L {
            let n = counts[l];
            let d = p as f32 - mean[l];
            let behind = all_ones((n > 0) & (d > 0.0));
            sum[l] += f32::from_bits((n as f32 * d * d).to_bits() & behind);
            count[l] += n & behind;
        }
    }
    for l in 0..L {
        let m = if in_play[l] == 0 || count[l] == 0 { 0.0 } else { sum[l] / count[l] as f32 };
        out[l] = m / 400.0;
    }
}

/// `backbone(made)` of every lane.
#[inline(always)]
fn backbone_of_lanes(made: &[u32; L], out: &mut [f32; L]) {
    let (mut sum, mut links) = ([0.0f32; L], [0u32; L]);
    for p in 1..=24u32 {
        for l in 0..L {
            let higher = made[l] >> (p + 1);
            let linked = ((made[l] >> p) & 1 != 0) & (higher != 0);
            let gap = higher.trailing_zeros() + 1;
            let near = all_ones(gap <= 6);
            let term =
                f32::from_bits(1.0f32.to_bits() & near | ((12u32.wrapping_sub(gap)) as f32 / 6.0).to_bits() & !near);
            let term = f32::from_bits(term.to_bits() & all_ones(gap <= 11));
            sum[l] += f32::from_bits(term.to_bits() & all_ones(linked));
            links[l] += u32::from(linked);
        }
    }
    for l in 0..L {
        out[l] = if made[l].count_ones() < 2 { 1.0 } else { 1.0 - sum[l] / links[l] as f32 };
    }
}
