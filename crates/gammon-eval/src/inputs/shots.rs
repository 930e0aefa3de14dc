//! The side on roll's shots at the opponent's blots ([`hit_stats`]): the
//! count over the 36 rolls, for one position or for [`SHOT_LANES`] at once
//! in vector lanes.

use super::POINTS;
use gammon_rules::Position;

/// What the side on roll's shots are worth: see [`hit_stats`].
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HitStats {
    /// Share of the 36 rolls that hit at least one blot.
    pub any: f32,
    /// Share that can hit two (one with each die, or with a double).
    pub two: f32,
    /// Pips the opponent loses to the costliest hit, averaged over the 36
    /// rolls, / 24 (a blot on our point `p` loses `p` pips when hit).
    pub pip_loss: f32,
}

/// Highest point in `m` (0 if empty): the pips a hit there costs.
#[inline]
pub(super) fn top_point(m: u32) -> u32 {
    (32 - m.leading_zeros()).saturating_sub(1)
}

/// The side on roll's shots: rolls that hit, that hit two, and the pips
/// they cost. An approximation of the legal plays: intermediate landing
/// points must be open, checkers on the bar enter first, other rules are
/// ignored.
pub fn hit_stats(pos: &Position) -> HitStats {
    let words = ShotWords::of(pos);
    if words.blots == 0 {
        return HitStats::default();
    }
    words.stats()
}

/// Positions whose shots [`hit_stats_of_lanes`] counts at once.
pub(crate) const SHOT_LANES: usize = 16;

/// The shots of [`SHOT_LANES`] positions (or sides), one [`ShotWords`] field
/// per array, so that the count over the rolls runs in vector lanes.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct ShotLanes {
    sources: [u32; SHOT_LANES],
    blots: [u32; SHOT_LANES],
    open: [u32; SHOT_LANES],
    combined: [u32; SHOT_LANES],
    steps: [u32; SHOT_LANES],
}

impl ShotLanes {
    /// Lane `i` takes the shots of `pos` (the side on roll's).
    #[inline]
    pub(crate) fn set(&mut self, i: usize, pos: &Position) {
        let w = ShotWords::of(pos);
        if i < SHOT_LANES {
            (self.sources[i], self.blots[i], self.open[i]) = (w.sources, w.blots, w.open);
            (self.combined[i], self.steps[i]) = (w.combined, w.steps);
        }
    }
}

/// [`hit_stats`] of every lane of `lanes`, the same values: the counts of
/// [`ShotWords::stats`] lane by lane, a loop the compiler turns into vector
/// code where the kernel's instruction set allows (it is inlined into
/// the contact features' lane code, which `simd::run_lanes` compiles).
#[inline(always)]
pub(crate) fn hit_stats_of_lanes(lanes: &ShotLanes, out: &mut [HitStats; SHOT_LANES]) {
    let mut any = [0.0f32; SHOT_LANES];
    let mut two = [0.0f32; SHOT_LANES];
    let mut loss = [0.0f32; SHOT_LANES];
    for i in 0..SHOT_LANES {
        let w = ShotWords {
            sources: lanes.sources[i],
            blots: lanes.blots[i],
            open: lanes.open[i],
            combined: lanes.combined[i],
            steps: lanes.steps[i],
        };
        let h = w.stats();
        (any[i], two[i], loss[i]) = (h.any, h.two, h.pip_loss);
    }
    for (i, o) in out.iter_mut().enumerate() {
        *o = HitStats { any: any[i], two: two[i], pip_loss: loss[i] };
    }
}

/// What [`hit_stats`] needs of a position, in five words.
#[derive(Clone, Copy, Debug, Default)]
struct ShotWords {
    sources: u32,
    /// Opponent blots below our rearmost checker (only those can be hit).
    blots: u32,
    open: u32,
    /// The blots a non-double can hit using both dice.
    combined: u32,
    /// Doubles: steps of the die, fewer when some must enter first.
    steps: u32,
}

impl ShotWords {
    #[inline]
    fn of(pos: &Position) -> Self {
        let bar = pos.my_bar();
        let sources = if bar > 0 { 1 << 25 } else { pos.my_occupied() & POINTS };
        // Checkers move down: only blots below our rearmost checker can be hit.
        let blots = pos.their_blots() & ((1u32 << top_point(sources)) - 1);
        ShotWords {
            sources,
            blots,
            open: !pos.blocked_points() & POINTS,
            // With two or more on the bar a non-double cannot hit with both dice.
            combined: if bar <= 1 { blots } else { 0 },
            steps: if bar > 0 { 5u32.saturating_sub(u32::from(bar)) } else { 4 },
        }
    }

    /// The counts over the 36 rolls, without a branch (no blots: zeros).
    #[inline(always)]
    fn stats(self) -> HitStats {
        let ShotWords { sources, blots, open, combined, steps } = self;
        let shots = Shots {
            direct: std::array::from_fn(|d| (sources >> d) & blots),
            via: std::array::from_fn(|d| (sources >> d) & open),
            combined,
            sources,
            blots,
            open,
            steps,
        };
        // Every roll written out with its dice as constants (a loop over a table
        // of rolls shifted by variable counts and was not unrolled).
        let mut sum = RollSums::default();
        shots.non_double::<2, 1>(&mut sum);
        shots.non_double::<3, 1>(&mut sum);
        shots.non_double::<3, 2>(&mut sum);
        shots.non_double::<4, 1>(&mut sum);
        shots.non_double::<4, 2>(&mut sum);
        shots.non_double::<4, 3>(&mut sum);
        shots.non_double::<5, 1>(&mut sum);
        shots.non_double::<5, 2>(&mut sum);
        shots.non_double::<5, 3>(&mut sum);
        shots.non_double::<5, 4>(&mut sum);
        shots.non_double::<6, 1>(&mut sum);
        shots.non_double::<6, 2>(&mut sum);
        shots.non_double::<6, 3>(&mut sum);
        shots.non_double::<6, 4>(&mut sum);
        shots.non_double::<6, 5>(&mut sum);
        shots.double::<1>(&mut sum);
        shots.double::<2>(&mut sum);
        shots.double::<3>(&mut sum);
        shots.double::<4>(&mut sum);
        shots.double::<5>(&mut sum);
        shots.double::<6>(&mut sum);
        let RollSums { any, two, loss } = sum;
        HitStats { any: any as f32 / 36.0, two: two as f32 / 36.0, pip_loss: loss as f32 / (36.0 * 24.0) }
    }
}

/// What [`hit_stats`] knows before looking at the rolls.
struct Shots {
    /// Per die value: the blots it hits directly.
    direct: [u32; 7],
    /// Per die value: the open points it reaches, as a first step.
    via: [u32; 7],
    /// The blots a non-double can hit using both dice.
    combined: u32,
    sources: u32,
    blots: u32,
    open: u32,
    steps: u32,
}

/// [`hit_stats`]' counts over the rolls, in 36ths (pips, for `loss`).
#[derive(Default)]
struct RollSums {
    any: u32,
    two: u32,
    loss: u32,
}

impl Shots {
    /// Branch-free (the outcomes are data-dependent and would mispredict),
    /// and without `count_ones` (no POPCNT in the baseline target): "two or
    /// more" is "a mask with two bits" or "a second step that hits".
    #[inline(always)]
    fn two_bits(m: u32) -> bool {
        m & m.wrapping_sub(1) != 0
    }

    /// The roll `A`-`B` (`A` > `B`), which comes up twice in 36.
    #[inline(always)]
    fn non_double<const A: usize, const B: usize>(&self, sum: &mut RollSums) {
        let (da, db) = (self.direct[A], self.direct[B]);
        let combo = ((self.via[A] >> B) | (self.via[B] >> A)) & self.combined;
        let hit = da | db | combo;
        // Two different blots, one hit with each die.
        let double_hit = (da != 0) & (db != 0) & Self::two_bits(da | db);
        sum.any += 2 * u32::from(hit != 0);
        sum.two += 2 * u32::from(double_hit);
        sum.loss += 2 * top_point(hit);
    }

    /// The double `D`: the same checker (or others) stepping up to four
    /// times; two hits in all (the same blot reached at two steps counts
    /// twice).
    #[inline(always)]
    fn double<const D: u32>(&self, sum: &mut RollSums) {
        let mut reach = self.sources;
        let (mut once, mut twice) = (false, false);
        let mut hit = 0u32;
        for step in 0..4 {
            // Steps beyond `steps` reach nothing.
            let allowed = if step < self.steps { u32::MAX } else { 0 };
            reach = (reach >> D) & self.open & allowed;
            let h = reach & self.blots;
            twice |= Self::two_bits(h) | ((h != 0) & once);
            once |= h != 0;
            hit |= h;
        }
        sum.any += u32::from(once);
        sum.two += u32::from(twice);
        sum.loss += top_point(hit);
    }
}
