//! Net inputs: what a network sees of a position.
//!
//! Every encoding is from the side on roll ("us"), with a block for us and the
//! same block for the opponent (computed on the switched position), so no
//! "whose turn" unit is needed. Inputs are produced sparse: most units are
//! zero, and the first layer only adds the rows of the units that are not.
//!
//! One file for the unit layout below and the code that fills the units,
//! which change together (about 900 lines). The shots over the 36 rolls are in
//! `inputs/shots.rs`; the contact features of sixteen sides at once, in
//! vector lanes, for [`ContactEncoding::encode_many`], in `inputs/lanes.rs`;
//! the tests, with brute-force references for the shots, the escapes and
//! each version 3 feature, in `inputs/tests.rs`.
//!
//! # Contact encoding ([`ContactEncoding`], version 3): 2 x 136 units
//!
//! Per side, for each of its points 1..24, gnubg's four units: exactly 1,
//! exactly 2, 3 or more, and (n - 3) / 2 above 3 checkers (96 units); the bar
//! as a thermometer: 1+, 2+, 3+ and (n - 3) / 2 (4); checkers borne off in
//! three ramps of five (3). Then 33 handcrafted features, each scaled to
//! about 0..1. The first 17 are version 1's; version 2 appended the next 10,
//! modelled on gnubg's contact inputs; version 3 appended the last 6: the
//! escapes `ESCAPE` missed, and more of gnubg's inputs. Each version only
//! appends, so a net of an older version loads with zero weights on the
//! units it lacks and evaluates every position exactly as before
//! (`weights.rs`).
//!
//! | unit | feature |
//! |---|---|
//! | `PIPS` | pip count / 167 |
//! | `BREAK_CONTACT` | pips still needed to get every checker past the opponent's rearmost checker / 167 |
//! | `FREE_PIPS` | pips of checkers already past all opponent checkers / 100 |
//! | `BACK_CHECKER` | point of the rearmost checker (bar = 25) / 25 |
//! | `BACK_ANCHOR` | rearmost made point / 24 |
//! | `FORWARD_ANCHOR` | most advanced made point in the opponent's home board, (25 - p) / 6; 0 if none |
//! | `HIT_ANY` | share of the 36 rolls with which we can hit an opponent blot |
//! | `HIT_TWO` | share of the 36 rolls with which we can hit two blots (direct shots with each die) |
//! | `ESCAPE` | share of the 36 rolls that bring our rearmost checker past the opponent's blockade |
//! | `PRIME` | longest run of our made points / 6 |
//! | `HOME_POINTS` | made points in our home board / 6 |
//! | `BACK_CHECKERS` | our checkers in the opponent's home board or on the bar / 5 |
//! | `BLOTS` | our blots outside the opponent's home board / 5 |
//! | `ANCHORS` | our made points in the opponent's home board / 2 |
//! | `ENTER_FAIL` | with a checker on the bar: share of rolls that do not enter |
//! | `TIMING` | pips we can play before breaking our home board or points, / 100 |
//! | `STRIPPED` | checkers on our 1-3 points beyond the first on each / 10 (a crunched board) |
//! | `PIP_LOSS` | pips the opponent loses to our best hit, averaged over the 36 rolls, / 24 |
//! | `CONTAINED` | 1 - (fewest escaping rolls)/36 over the points from our rearmost checker to the opponent's 9-point: how well the opponent contains our back checkers |
//! | `CONTAINED_SQ` | its square |
//! | `CONTAINED_FAR` | the same over the points down to the opponent's 18-point (our 7) |
//! | `CONTAINED_FAR_SQ` | its square |
//! | `MOBILITY` | sum over our checkers outside our home board of (distance beyond our 6-point x escaping rolls) / 3600 |
//! | `MOMENT2` | mean squared distance behind our mean point of the checkers behind it / 400 |
//! | `BACKBONE` | 1 - connectivity of our made points (next made point within 6 pips counts 1, 7-11 pips partly) |
//! | `BACK_GAME` | with two or more anchors in the opponent's home board: (our checkers there and on the bar - 3) / 4 |
//! | `BACK_GAME1` | with exactly one anchor there: those checkers / 8 |
//! | `ESCAPE_MISSED` | (version 3) the escapes of our rearmost checker that `ESCAPE` misses, / 36: `ESCAPE` never counts a move past our 1-point, so a checker whose farthest block is the opponent's anchor on our ace or deuce point reads as trapped. `ESCAPE` + `ESCAPE_MISSED` is the escape chance with a landing off the board counting as open: [`escapes_from`] at that checker / 36, 1 with no checker left. Non-zero for about 6% of the sides of contact positions (bearing in against an anchor, ace-point and back games), so it costs almost nothing, where that escape chance as a unit of its own would be one more non-zero unit a side in nearly every position |
//! | `TIMING_G` | (version 3) gnubg's timing: pips we can play before our points break. Spare checkers, each worth (point - 1) pips, the bar 24: every checker on the bar, on our 7-12 points and on our 13-24 points already past the opponent's rearmost checker; on 13-24 behind it, a blot or the checkers beyond two. Then our home board from the 6-point down: the checkers beyond two on a point add (point - 1) pips each and become spares; each checker an empty point or a blot lacks takes a spare and (point - 1) pips while enough spares remain. At least 0, / 100. Unlike `TIMING`, a checker on the bar adds timing |
//! | `CONTAIN_FIXED` | (version 3) gnubg's containment: 1 - (fewest escaping rolls)/36 over our points 16-24 (the opponent's 9-point down to his ace, never the bar), wherever our checkers are: how strong his board is against a checker of ours hit later (gnubg's square of it is left out: one more non-zero unit a side in nearly every position for what the hidden layer can form) |
//! | `ENTER` | (version 3) with a checker on the bar: the pips we expect to lose entering, / 294 (1 when his board is closed). A blocked double loses its 4 x die pips, two blocked dice their sum; with two or more on the bar, a roll with one die blocked loses that die. 0 with none on the bar |
//! | `BACKRESCAPES` | (version 3) gnubg's second escape count for our rearmost checker: the rolls (of 36) that play both dice with it, the pip total landing on an open point beyond the *nearest* of the opponent's points among the 12 in front (doubles: two steps, both open), / 36; 0 when none of those points is his |
//! | `FORWARD_ANCHOR_OUTER` | (version 3) with no made point in the opponent's home board: our made point on his 7-11 points nearest his home board, (25 - p) / 6 (7/6 to 11/6, continuing `FORWARD_ANCHOR`); 0 otherwise. gnubg's forward anchor also looks at his 12-point (our midpoint), but gives it 2, as it gives no point at all; left out here, the unit is zero in most positions instead of in about half |
//!
//! "Escaping rolls" from a point count the rolls (of 36) that carry a checker
//! there past the farthest opponent point among the 12 in front of it, every
//! intermediate landing point open, a landing off the board counting as
//! open ([`escapes_from`]).
//!
//! Each version 3 feature is a definition from gnubg's `eval.c` (its
//! `I_TIMING`, `I_CONTAIN`, `I_ENTER`, `I_BACKRESCAPES` and the outer zone
//! of `I_FORWARD_ANCHOR`) written afresh here. gnubg puts the escape and
//! containment counts in the half of the side that blocks; these, like
//! `ESCAPE` and `CONTAINED`, are in the half of the side whose checkers are
//! blocked (both halves are fed to the net, so only the units' places
//! differ), and their escape counts are gammon's own table ([`escapes_from`]),
//! except `BACKRESCAPES`, gnubg's rule.
//!
//! # Race encoding ([`RaceEncoding`], version 1): 2 x 116 units
//!
//! Per side: the four point units on points 1..24 (96); borne off one-hot,
//! exactly k for k = 1..14 (14); borne off / 15; pip count / 100; crossovers
//! (quadrant boundaries checkers must still cross) / 10; checkers outside the
//! home board / 15; wastage proxy: checkers on points 1-2 / 15.

use gammon_rules::Position;

mod lanes;
mod shots;
pub(crate) use lanes::{contact_features_lanes, FeatureLanes, SideLanes};
#[cfg(test)]
use shots::top_point;
use shots::SHOT_LANES;
pub use shots::{hit_stats, HitStats};

/// A sparse input vector: indices of non-zero units and their values.
#[derive(Clone, Debug)]
pub struct SparseInputs {
    /// Unit indices, increasing.
    pub index: Vec<u16>,
    /// Values, same order.
    pub value: Vec<f32>,
}

impl SparseInputs {
    /// Empty, with room for `capacity` units.
    pub fn with_capacity(capacity: usize) -> Self {
        SparseInputs { index: Vec::with_capacity(capacity), value: Vec::with_capacity(capacity) }
    }

    /// Removes all units.
    pub fn clear(&mut self) {
        self.index.clear();
        self.value.clear();
    }

    /// The dense vector of `len` units.
    pub fn to_dense(&self, len: usize) -> Vec<f32> {
        let mut v = vec![0.0; len];
        for (&i, &x) in self.index.iter().zip(&self.value) {
            v[usize::from(i)] = x;
        }
        v
    }
}

/// The units of one position while it is encoded: a buffer on the stack
/// that takes each unit without a branch or a capacity check (a zero unit is
/// written and then overwritten by the next), copied out once at the end.
/// `N` is the encoding's length plus one, so that even an encoding whose
/// every unit is non-zero never writes past the end.
struct Units<const N: usize> {
    index: [u16; N],
    value: [f32; N],
    len: usize,
}

impl<const N: usize> Units<N> {
    #[inline(always)]
    fn new() -> Self {
        Units { index: [0; N], value: [0.0; N], len: 0 }
    }

    #[inline(always)]
    fn push(&mut self, index: usize, value: f32) {
        // Each unit is pushed at most once, so `len` stays below `N` and the
        // slots are always there. With `N` a power of two the slot is
        // `len` masked, which needs no bounds test; otherwise the bounds test
        // is a branch the processor predicts. `len` itself only waits for one
        // addition a unit.
        if N.is_power_of_two() {
            let k = self.len & (N - 1);
            self.index[k] = index as u16;
            self.value[k] = value;
        } else if let (Some(i), Some(v)) = (self.index.get_mut(self.len), self.value.get_mut(self.len)) {
            *i = index as u16;
            *v = value;
        }
        self.len += usize::from(value != 0.0);
    }

    /// Empties the buffer for the next position (the slots keep their
    /// contents, which pushes overwrite).
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    fn copy_to(&self, out: &mut SparseInputs) {
        out.clear();
        out.index.extend_from_slice(&self.index[..self.len]);
        out.value.extend_from_slice(&self.value[..self.len]);
    }
}

/// An input encoding: a fixed number of units, a version number stored in
/// weights files, and the encoder.
pub trait Encoding: Send + Sync {
    /// Number of input units.
    const LEN: usize;
    /// Stored in weights files; a net only loads with the version it was trained on.
    const VERSION: u32;
    /// Appends the units of `pos` (side on roll) to `out` (cleared first).
    fn encode(pos: &Position, out: &mut SparseInputs);
}

/// Contact positions: raw board plus handcrafted features, 272 units.
#[derive(Debug, Clone, Copy)]
pub struct ContactEncoding;

/// Race positions (no contact): raw board plus race features, 232 units.
#[derive(Debug, Clone, Copy)]
pub struct RaceEncoding;

const POINT_UNITS: usize = 96;
const CONTACT_SIDE: usize = POINT_UNITS + 4 + 3 + CONTACT_FEATURES;
const CONTACT_FEATURES: usize = 33;
/// Features of contact encoding version 1 (the first ones of the later versions).
pub const CONTACT_FEATURES_V1: usize = 17;
/// Features of contact encoding version 2 (the first ones of version 3).
pub const CONTACT_FEATURES_V2: usize = 27;

/// The units of one side of contact encoding `version` (1 to the current
/// one): each version appended features to the side's block, so a unit of
/// an older version is the unit of the same place in the block now.
pub const fn contact_side_units(version: u32) -> Option<usize> {
    let features = match version {
        1 => CONTACT_FEATURES_V1,
        2 => CONTACT_FEATURES_V2,
        3 => CONTACT_FEATURES,
        _ => return None,
    };
    Some(POINT_UNITS + 4 + 3 + features)
}
const RACE_SIDE: usize = POINT_UNITS + 14 + 5;

impl Encoding for ContactEncoding {
    const LEN: usize = 2 * CONTACT_SIDE;
    const VERSION: u32 = 3;

    fn encode(pos: &Position, out: &mut SparseInputs) {
        let mut units = Units::<{ Self::LEN + 1 }>::new();
        contact_side(pos, 0, &mut units);
        contact_side(&pos.switched(), CONTACT_SIDE, &mut units);
        units.copy_to(out);
    }
}

impl ContactEncoding {
    /// [`Encoding::encode`] of each of `positions` into the same place of
    /// `out` (which has at least as many), with the same units: the
    /// features of eight positions (both sides) are computed at once in
    /// vector lanes (`inputs/lanes.rs`).
    pub fn encode_many(positions: &[Position], out: &mut [SparseInputs]) {
        const GROUP: usize = SHOT_LANES / 2;
        let mut sides = SideLanes::default();
        let mut lanes = FeatureLanes::default();
        let mut them = [Position::default(); GROUP];
        // One buffer for every position, its length a power of two (see
        // `Units::push`).
        let mut units = Units::<{ (Self::LEN + 1).next_power_of_two() }>::new();
        for (group, outs) in positions.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
            sides.clear_points();
            for (i, (pos, t)) in group.iter().zip(them.iter_mut()).enumerate() {
                *t = pos.switched();
                sides.set(2 * i, pos);
                sides.set(2 * i + 1, t);
            }
            contact_features_lanes(&sides, &mut lanes);
            for (i, ((pos, t), o)) in group.iter().zip(&them).zip(outs.iter_mut()).enumerate() {
                units.clear();
                contact_side_with(pos, 0, (&sides, &lanes), 2 * i, &mut units);
                contact_side_with(t, CONTACT_SIDE, (&sides, &lanes), 2 * i + 1, &mut units);
                units.copy_to(o);
            }
        }
    }
}

impl Encoding for RaceEncoding {
    const LEN: usize = 2 * RACE_SIDE;
    const VERSION: u32 = 1;

    fn encode(pos: &Position, out: &mut SparseInputs) {
        let mut units = Units::<{ Self::LEN + 1 }>::new();
        race_side(pos, 0, &mut units);
        race_side(&pos.switched(), RACE_SIDE, &mut units);
        units.copy_to(out);
    }
}

/// gnubg's four units for a point with `n` checkers.
#[inline]
fn point_units<const N: usize>(n: u8, base: usize, out: &mut Units<N>) {
    match n {
        0 => {}
        1 => out.push(base, 1.0),
        2 => out.push(base + 1, 1.0),
        _ => {
            out.push(base + 2, 1.0);
            out.push(base + 3, (f32::from(n) - 3.0) / 2.0);
        }
    }
}

fn contact_side<const N: usize>(pos: &Position, base: usize, out: &mut Units<N>) {
    // The point units (from `base`) come with the features' pass over our checkers.
    let (features, in_play) = features_and_count(pos, base, out);
    contact_side_after_points(pos, base, in_play, out);
    let f = base + POINT_UNITS + 7;
    for (i, v) in features.into_iter().enumerate() {
        out.push(f + i, v);
    }
}

/// [`contact_side`] with the checkers and features of lane `l` of `sides`
/// and `lanes` (`lanes.rs`).
fn contact_side_with<const N: usize>(
    pos: &Position,
    base: usize,
    (sides, lanes): (&SideLanes, &FeatureLanes),
    l: usize,
    out: &mut Units<N>,
) {
    let mut m = pos.my_occupied() & POINTS;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        point_units(sides.checkers(p, l), base + 4 * (p - 1), out);
    }
    let in_play = lanes.in_play.get(l).copied().unwrap_or(0);
    contact_side_after_points(pos, base, in_play, out);
    let f = base + POINT_UNITS + 7;
    for (i, feature) in lanes.features.iter().enumerate() {
        out.push(f + i, feature.get(l).copied().unwrap_or(0.0));
    }
}

/// The units of a side after its points and before its features: bar and
/// borne off.
#[inline(always)]
fn contact_side_after_points<const N: usize>(pos: &Position, base: usize, in_play: u32, out: &mut Units<N>) {
    let bar = pos.my_bar();
    let b = base + POINT_UNITS;
    if bar >= 1 {
        out.push(b, 1.0);
    }
    if bar >= 2 {
        out.push(b + 1, 1.0);
    }
    if bar >= 3 {
        out.push(b + 2, 1.0);
        out.push(b + 3, (f32::from(bar) - 3.0) / 2.0);
    }
    let off = (15 - in_play) as f32;
    let o = b + 4;
    out.push(o, off.min(5.0) / 5.0);
    out.push(o + 1, (off - 5.0).clamp(0.0, 5.0) / 5.0);
    out.push(o + 2, (off - 10.0).clamp(0.0, 5.0) / 5.0);
}

/// The handcrafted features of the side on roll, in the table's order.
pub fn contact_features(pos: &Position) -> [f32; CONTACT_FEATURES] {
    features_and_count(pos, 0, &mut Units::<{ ContactEncoding::LEN + 1 }>::new()).0
}

/// The features, and the checkers the side on roll still has in play: one
/// pass over its checkers gathers the pip count, timing and the rest, and
/// pushes the point units of each point (from unit `base`).
fn features_and_count<const N: usize>(
    pos: &Position,
    base: usize,
    out: &mut Units<N>,
) -> ([f32; CONTACT_FEATURES], u32) {
    let mine = pos.my_occupied();
    let made = pos.my_made_points();
    let mut pips = 0u32;
    let mut in_play = 0u32;
    let mut timing = 0u32;
    // The opponent's rearmost checker, in my numbering (his bar = 0).
    let his_back = pos.their_occupied().trailing_zeros() as usize;
    let mut break_contact = 0u32;
    let mut free_pips = 0u32;
    let mut back_checkers = 0u32;
    let mut blots = 0u32;
    let mut stripped = 0u32;
    // gnubg's timing outside our home board: its pips and spare checkers.
    let (mut timing_g, mut timing_spares) = (0u32, 0u32);
    let mut m = mine;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        let checkers = pos.my_checkers(p);
        let n = u32::from(checkers);
        pips += n * p as u32;
        in_play += n;
        // Checkers beyond two on a made point, or not on one.
        let spare = if n >= 2 { n - 2 } else { n };
        if p <= 24 {
            point_units(checkers, base + 4 * (p - 1), out);
            timing += spare * (p as u32 - 1);
        }
        if p >= 7 {
            // Behind his rearmost checker, a point of 13..24 keeps two;
            // every other checker (the bar's too) is spare.
            let s = if (13..=24).contains(&p) && p > his_back { spare } else { n };
            timing_g += s * (p as u32 - 1);
            timing_spares += s;
        }
        if p > his_back {
            break_contact += n * (p - his_back) as u32;
        } else {
            free_pips += n * p as u32;
        }
        // Points 19..=25, so bar checkers count here and again below (as the
        // shipped nets were trained; encoding version 1).
        if p >= 19 {
            back_checkers += n;
        }
        if n == 1 && (7..19).contains(&p) {
            blots += 1;
        }
        if p <= 3 && n > 1 {
            stripped += n - 1;
        }
    }
    let back_checker = 31 - mine.leading_zeros().min(31);
    let back_anchor = if made == 0 { 0 } else { 31 - made.leading_zeros() };
    let anchors = made & (0x3F << 19);
    let forward_anchor = if anchors == 0 { 0.0 } else { (25 - anchors.trailing_zeros()) as f32 / 6.0 };
    let hits = hit_stats(pos);
    let enter_fail = if pos.my_bar() > 0 {
        // Entering points are my 19..24 = his home board, made points block.
        let closed = (pos.blocked_points() >> 19 & 0x3F).count_ones() as f32;
        (closed / 6.0) * (closed / 6.0)
    } else {
        0.0
    };
    let Containment { contained, contained_far, contained_fixed, mobility } = containment(pos, back_checker);
    let escape = escape_count(pos);
    let window = escape_window(pos.blocked_points(), back_checker);
    let bar_class = u32::from(pos.my_bar().min(2));
    let enter = ENTER_LOSS[(pos.blocked_points() >> 19 & 0x3F | bar_class << 6) as usize];
    let outer = made & (0x1F << 14);
    let forward_anchor_outer = if anchors == 0 && outer != 0 {
        // Our point on his 7..11 nearest his home board: the highest.
        (25 - (31 - outer.leading_zeros())) as f32 / 6.0
    } else {
        0.0
    };
    // `back_checkers` already counts the bar once.
    let (back_game, back_game1) = match anchors.count_ones() {
        0 => (0.0, 0.0),
        1 => (0.0, back_checkers as f32 / 8.0),
        _ => ((back_checkers as f32 - 3.0) / 4.0, 0.0),
    };
    let features = [
        pips as f32 / 167.0,
        break_contact as f32 / 167.0,
        free_pips as f32 / 100.0,
        back_checker as f32 / 25.0,
        back_anchor as f32 / 24.0,
        forward_anchor,
        hits.any,
        hits.two,
        escape as f32 / 36.0,
        longest_run(made) as f32 / 6.0,
        (made & 0x7E).count_ones() as f32 / 6.0,
        (back_checkers + u32::from(pos.my_bar())) as f32 / 5.0,
        blots as f32 / 5.0,
        anchors.count_ones().min(2) as f32 / 2.0,
        enter_fail,
        timing as f32 / 100.0,
        stripped as f32 / 10.0,
        hits.pip_loss,
        contained,
        contained * contained,
        contained_far,
        contained_far * contained_far,
        mobility,
        moment2(pos, pips, in_play) / 400.0,
        backbone(made),
        back_game,
        back_game1,
        // Never below 0: every escape `ESCAPE` counts, `escapes_from` counts.
        u32::from(ESCAPES[window]).saturating_sub(escape) as f32 / 36.0,
        home_timing(pos, timing_g, timing_spares) as f32 / 100.0,
        contained_fixed,
        f32::from(enter) / 294.0,
        f32::from(ESCAPES_NEAR[window]) / 36.0,
        forward_anchor_outer,
    ];
    (features, in_play)
}

/// gnubg's timing ([`features_and_count`]'s `TIMING_G`) from the pips and
/// spares of our checkers outside the home board: the home board from the
/// 6-point down adds the checkers beyond two on a point and, while the
/// spares last, fills each point holding fewer than two. Not below 0.
#[inline(always)]
fn home_timing(pos: &Position, pips: u32, spares: u32) -> i32 {
    let (mut t, mut spares) = (pips as i32, spares as i32);
    for p in (1..=6).rev() {
        // Beyond two: more spares; below two: spares needed.
        let d = i32::from(pos.my_checkers(p)) - 2;
        if spares + d >= 0 {
            t += (p as i32 - 1) * d;
            spares += d;
        }
    }
    t.max(0)
}

/// How far our rearmost checker is held back, and how freely our checkers
/// beyond our 6-point move: features `CONTAINED` to `MOBILITY`, and
/// `CONTAIN_FIXED`.
struct Containment {
    contained: f32,
    contained_far: f32,
    /// Over the fixed points 16..=24.
    contained_fixed: f32,
    /// Already scaled (/ 3600).
    mobility: f32,
}

/// [`Containment`] for the side on roll, whose rearmost checker is on
/// `back_checker` (bar = 25).
#[inline(always)]
fn containment(pos: &Position, back_checker: u32) -> Containment {
    let blocks = pos.blocked_points();
    // Containment: fewest escaping rolls from the points our rearmost checker
    // still has to pass (bar = 25), near (down to his 9-point, our 16) and far
    // (down to our 7).
    let (mut fewest_near, mut fewest_far) = (36u8, 36u8);
    let mut mobility = 0u32;
    for q in (7..=back_checker as usize).rev() {
        let e = escapes_from(blocks, q);
        fewest_far = fewest_far.min(e);
        if q >= 16 {
            fewest_near = fewest_near.min(e);
        }
        // Mobility: our checkers here, by distance beyond our 6-point.
        mobility += u32::from(pos.my_checkers(q)) * (q as u32 - 6) * u32::from(e);
    }
    // gnubg's fixed containment: his 9-point down to his ace, wherever our
    // checkers are (the bar never).
    let fewest_fixed = (16..=24).map(|q| escapes_from(blocks, q)).min().unwrap_or(36);
    Containment {
        contained: 1.0 - f32::from(fewest_near) / 36.0,
        contained_far: 1.0 - f32::from(fewest_far) / 36.0,
        contained_fixed: 1.0 - f32::from(fewest_fixed) / 36.0,
        mobility: mobility as f32 / 3600.0,
    }
}

/// Longest run of consecutive set bits.
fn longest_run(mut m: u32) -> u32 {
    let mut n = 0;
    while m != 0 {
        m &= m << 1;
        n += 1;
    }
    n
}

/// The 15 rolls of two different dice, larger first.
const NON_DOUBLES: [(usize, usize); 15] = [
    (2, 1),
    (3, 1),
    (3, 2),
    (4, 1),
    (4, 2),
    (4, 3),
    (5, 1),
    (5, 2),
    (5, 3),
    (5, 4),
    (6, 1),
    (6, 2),
    (6, 3),
    (6, 4),
    (6, 5),
];

/// Points from which a checker can land with one die (`open` = points not
/// blocked, bits 1..=24).
const POINTS: u32 = 0x1FF_FFFE;

/// Escaping rolls by blockade: entry `m` is for a checker with the points
/// 12 .. 1 pips in front of it blocked where bits 0 .. 11 of `m` are set.
static ESCAPES: [u8; 4096] = escape_table();

const fn escape_table() -> [u8; 4096] {
    let mut table = [0u8; 4096];
    let mut m = 0;
    while m < 4096 {
        table[m] = escapes_past(m as u32);
        m += 1;
    }
    table
}

/// Rolls (of 36) that carry a checker past the farthest blocked point of
/// blockade `m` (bit `12 - d` set: the point `d` pips ahead is blocked),
/// landing only on open points on the way.
const fn escapes_past(m: u32) -> u8 {
    if m == 0 {
        return 36;
    }
    // Farthest blocked distance: the lowest set bit.
    let far = 12 - m.trailing_zeros();
    let mut count = 0u8;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            let ok = if a == b {
                // Up to four steps of a.
                let mut step = 1;
                let mut free = true;
                let mut done = false;
                while step <= 4 && free && !done {
                    if blocked_at(m, step * a) {
                        free = false;
                    } else if step * a > far {
                        done = true;
                    }
                    step += 1;
                }
                done
            } else {
                // One step of a + b, through either die's point.
                a + b > far && !blocked_at(m, a + b) && (!blocked_at(m, a) || !blocked_at(m, b))
            };
            if ok {
                count += 1;
            }
            b += 1;
        }
        a += 1;
    }
    count
}

/// Is the point `d` pips ahead blocked in blockade `m`? (Beyond 12: open.)
const fn blocked_at(m: u32, d: u32) -> bool {
    d <= 12 && (m >> (12 - d)) & 1 != 0
}

/// Rolls (of 36) with which a checker of the side on roll on point `q`
/// (bar = 25) escapes past the opponent's points among the 12 in front of it.
/// `blocks` is [`Position::blocked_points`].
#[inline]
pub fn escapes_from(blocks: u32, q: usize) -> u8 {
    ESCAPES[escape_window(blocks, q as u32)]
}

/// The blockade in front of a checker on point `q` (bar = 25; 0: none), as
/// [`ESCAPES`] and [`ESCAPES_NEAR`] index it: bits q-12 .. q-1 of `blocks`
/// (points below 1 are never blocked).
#[inline(always)]
fn escape_window(blocks: u32, q: u32) -> usize {
    (((u64::from(blocks) << 12) >> q) & 0xFFF) as usize
}

/// gnubg's second escape count by blockade (`BACKRESCAPES`), indexed as
/// [`ESCAPES`].
static ESCAPES_NEAR: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut m = 0;
    while m < 4096 {
        table[m] = escapes_beyond_nearest(m as u32);
        m += 1;
    }
    table
};

/// Rolls (of 36) whose pip total a checker can play with both dice past
/// the nearest blocked point of blockade `m` (bits as in [`escapes_past`]):
/// the total lands on an open point beyond it (off the board counts as
/// open) and one of the dice lands on an open
/// point first; a double takes two steps, the first open. 0 with no
/// blocked point: gnubg's rule (its `anEscapes1` table), which counts
/// doubles' two steps only.
const fn escapes_beyond_nearest(m: u32) -> u8 {
    if m == 0 {
        return 0;
    }
    // Nearest blocked distance: the highest set bit.
    let nearest = 12 - (31 - m.leading_zeros());
    let mut count = 0u8;
    let mut a = 1;
    while a <= 6 {
        let mut b = 1;
        while b <= 6 {
            if a + b > nearest && !blocked_at(m, a + b) && (!blocked_at(m, a) || !blocked_at(m, b)) {
                count += 1;
            }
            b += 1;
        }
        a += 1;
    }
    count
}

/// Pips (of the 36 rolls together) a side with checkers on the bar loses
/// entering (`ENTER`): entry `closed | bar << 6`, where bit `k` of
/// `closed` says the opponent holds our point `19 + k` (a die of `6 - k`
/// enters there) and `bar` is the checkers on the bar, 2 for two or more.
/// A double with its point closed loses its 4 x die; a roll with both
/// points closed, its two dice; with two or more on the bar, a roll with one
/// point closed, that die. Nothing with none on the bar.
static ENTER_LOSS: [u16; 192] = {
    let mut table = [0u16; 192];
    let mut i = 64;
    while i < 192 {
        let (closed, two) = (i & 0x3F, i >= 128);
        let mut loss = 0;
        let mut a = 1;
        while a <= 6 {
            let mut b = 1;
            while b <= 6 {
                let (shut_a, shut_b) = ((closed >> (6 - a)) & 1 != 0, (closed >> (6 - b)) & 1 != 0);
                loss += if a == b {
                    if shut_a {
                        4 * a
                    } else {
                        0
                    }
                } else if shut_a && shut_b {
                    a + b
                } else if two && shut_a {
                    a
                } else if two && shut_b {
                    b
                } else {
                    0
                };
                b += 1;
            }
            a += 1;
        }
        table[i] = loss as u16;
        i += 1;
    }
    table
};

/// Mean squared distance behind the mean point of the checkers behind it.
fn moment2(pos: &Position, pips: u32, in_play: u32) -> f32 {
    if in_play == 0 {
        return 0.0;
    }
    let mean = pips as f32 / in_play as f32;
    let (mut sum, mut count) = (0.0f32, 0u32);
    let mut m = pos.my_occupied();
    while m != 0 {
        let p = m.trailing_zeros();
        m &= m - 1;
        let d = p as f32 - mean;
        if d > 0.0 {
            let n = u32::from(pos.my_checkers(p as usize));
            sum += n as f32 * d * d;
            count += n;
        }
    }
    if count == 0 {
        0.0
    } else {
        sum / count as f32
    }
}

/// 1 - connectivity of the made points: each made point but the rearmost
/// counts 1 if the next made point behind it is within 6 pips, (12 - gap) / 6
/// for gaps of 7 to 11, else 0; averaged. Fewer than two made points: 1.
fn backbone(made: u32) -> f32 {
    if made.count_ones() < 2 {
        return 1.0;
    }
    let (mut sum, mut links) = (0.0f32, 0u32);
    let mut m = made;
    while m & (m - 1) != 0 {
        let p = m.trailing_zeros();
        m &= m - 1;
        let gap = m.trailing_zeros() - p;
        sum += match gap {
            0..=6 => 1.0,
            7..=11 => (12 - gap) as f32 / 6.0,
            _ => 0.0,
        };
        links += 1;
    }
    1.0 - sum / links as f32
}

/// Share of the 36 rolls with which our rearmost checker gets past the
/// opponent's points in the 12 points in front of it (1.0 if none block).
/// A roll counts when the checker lands, on an open point on the board,
/// beyond the farthest of those points: with one die, with both (through
/// either die's point) or with up to four steps of a double. So a move
/// past our 1-point never counts (`ESCAPE_MISSED` counts those).
pub fn escape_chance(pos: &Position) -> f32 {
    escape_count(pos) as f32 / 36.0
}

/// [`escape_chance`] in rolls (of 36).
fn escape_count(pos: &Position) -> u32 {
    let mine = pos.my_occupied();
    if mine == 0 {
        return 36;
    }
    let back = 31 - mine.leading_zeros();
    let blocks = pos.blocked_points();
    let window = if back > 13 { ((1u32 << back) - 1) & !((1u32 << (back - 12)) - 1) } else { (1u32 << back) - 1 };
    let in_front = blocks & window;
    if in_front == 0 {
        return 36;
    }
    // Distance to the farthest blocking point in front of it (1..=12).
    let far = back - in_front.trailing_zeros();
    // Bit k: the point k pips ahead is open and on the board (point 0, his
    // bar, is not in `POINTS`; points past it shift out).
    let ahead = ((!blocks & POINTS) << (31 - back)).reverse_bits();
    let past = ahead & !((2u32 << far) - 1);
    // The 30 non-double rolls (15 pairs, each twice), one bit a pair: with
    // one die past, or both dice past through an open first landing.
    let single = ROLLS_WITH_DIE[(past >> 1) as usize & 0x3F];
    let through = ROLLS_WITH_DIE[(ahead >> 1) as usize & 0x3F];
    let both = ROLLS_WITH_SUM[(past >> 3) as usize & 0x1FF];
    let mut escapes = 2 * (single | (both & through)).count_ones();
    for d in 1..=6 {
        // Every landing up to the k-th open, the k-th past.
        let (mut free, mut got) = (1u32, 0u32);
        for k in 1..=4 {
            free &= ahead >> (k * d);
            got |= free & (past >> (k * d));
        }
        escapes += got & 1;
    }
    escapes
}

/// For each set of dice values (bit `v - 1` for value `v`), the non-double
/// rolls of [`NON_DOUBLES`] (bit `i` for entry `i`) showing one of them.
static ROLLS_WITH_DIE: [u16; 64] = {
    let mut table = [0u16; 64];
    let mut m = 0;
    while m < 64 {
        let mut i = 0;
        while i < NON_DOUBLES.len() {
            let (a, b) = NON_DOUBLES[i];
            if m & (1 << (a - 1)) != 0 || m & (1 << (b - 1)) != 0 {
                table[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    table
};

/// For each set of pip totals (bit `s - 3` for total `s`, 3 to 11), the
/// non-double rolls of [`NON_DOUBLES`] with one of those totals.
static ROLLS_WITH_SUM: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < NON_DOUBLES.len() {
            let (a, b) = NON_DOUBLES[i];
            if m & (1 << (a + b - 3)) != 0 {
                table[m] |= 1 << i;
            }
            i += 1;
        }
        m += 1;
    }
    table
};

fn race_side<const N: usize>(pos: &Position, base: usize, out: &mut Units<N>) {
    // One pass over our checkers: the point units (in increasing order)
    // and the sums of the features.
    let (mut pips, mut in_play, mut crossovers, mut outside, mut low) = (0u32, 0u32, 0u32, 0u32, 0u32);
    let mut m = pos.my_occupied();
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        let checkers = pos.my_checkers(p);
        let n = u32::from(checkers);
        pips += n * p as u32;
        in_play += n;
        // The bar (25) counts in the pips and the checkers in play only.
        if p <= 24 {
            point_units(checkers, base + 4 * (p - 1), out);
            crossovers += n * ((p as u32 - 1) / 6);
            if p > 6 {
                outside += n;
            }
            if p <= 2 {
                low += n;
            }
        }
    }
    let off = 15 - in_play;
    let o = base + POINT_UNITS;
    if (1..=14).contains(&off) {
        out.push(o + off as usize - 1, 1.0);
    }
    let f = o + 14;
    out.push(f, off as f32 / 15.0);
    out.push(f + 1, pips as f32 / 100.0);
    out.push(f + 2, crossovers as f32 / 10.0);
    out.push(f + 3, outside as f32 / 15.0);
    out.push(f + 4, low as f32 / 15.0);
}

#[cfg(test)]
pub(crate) mod tests;
