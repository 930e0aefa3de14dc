//! Net inputs: what a network sees of a position.
//!
//! Every encoding is from the side on roll ("us"), with a block for us and the
//! same block for the opponent (computed on the switched position), so no
//! "whose turn" unit is needed. Inputs are produced sparse: most units are
//! zero, and the first layer only adds the rows of the units that are not.
//!
//! # Contact encoding ([`ContactEncoding`], version 1): 2 x 120 units
//!
//! Per side, for each of its points 1..24, gnubg's four units: exactly 1,
//! exactly 2, 3 or more, and (n - 3) / 2 above 3 checkers (96 units); the bar
//! as a thermometer: 1+, 2+, 3+ and (n - 3) / 2 (4); checkers borne off in
//! three ramps of five (3). Then 17 handcrafted features, each scaled to
//! about 0..1:
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
//!
//! # Race encoding ([`RaceEncoding`], version 1): 2 x 116 units
//!
//! Per side: the four point units on points 1..24 (96); borne off one-hot,
//! exactly k for k = 1..14 (14); borne off / 15; pip count / 100; crossovers
//! (quadrant boundaries checkers must still cross) / 10; checkers outside the
//! home board / 15; wastage proxy: checkers on points 1-2 / 15.

use gammon_rules::Position;

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

    #[inline]
    fn push(&mut self, index: usize, value: f32) {
        if value != 0.0 {
            self.index.push(index as u16);
            self.value.push(value);
        }
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

/// Contact positions: raw board plus handcrafted features, 240 units.
#[derive(Debug, Clone, Copy)]
pub struct ContactEncoding;

/// Race positions (no contact): raw board plus race features, 232 units.
#[derive(Debug, Clone, Copy)]
pub struct RaceEncoding;

const POINT_UNITS: usize = 96;
const CONTACT_SIDE: usize = POINT_UNITS + 4 + 3 + CONTACT_FEATURES;
const CONTACT_FEATURES: usize = 17;
const RACE_SIDE: usize = POINT_UNITS + 14 + 5;

impl Encoding for ContactEncoding {
    const LEN: usize = 2 * CONTACT_SIDE;
    const VERSION: u32 = 1;

    fn encode(pos: &Position, out: &mut SparseInputs) {
        out.clear();
        contact_side(pos, 0, out);
        contact_side(&pos.switched(), CONTACT_SIDE, out);
    }
}

impl Encoding for RaceEncoding {
    const LEN: usize = 2 * RACE_SIDE;
    const VERSION: u32 = 1;

    fn encode(pos: &Position, out: &mut SparseInputs) {
        out.clear();
        race_side(pos, 0, out);
        race_side(&pos.switched(), RACE_SIDE, out);
    }
}

/// gnubg's four units for a point with `n` checkers.
#[inline]
fn point_units(n: u8, base: usize, out: &mut SparseInputs) {
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

fn raw_points(pos: &Position, base: usize, out: &mut SparseInputs) {
    let mut mine = pos.my_occupied() & !(1 << 25);
    while mine != 0 {
        let p = mine.trailing_zeros() as usize;
        mine &= mine - 1;
        point_units(pos.my_checkers(p), base + 4 * (p - 1), out);
    }
}

fn contact_side(pos: &Position, base: usize, out: &mut SparseInputs) {
    raw_points(pos, base, out);
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
    let (features, in_play) = features_and_count(pos);
    let off = (15 - in_play) as f32;
    let o = b + 4;
    out.push(o, off.min(5.0) / 5.0);
    out.push(o + 1, (off - 5.0).clamp(0.0, 5.0) / 5.0);
    out.push(o + 2, (off - 10.0).clamp(0.0, 5.0) / 5.0);
    let f = o + 3;
    for (i, v) in features.into_iter().enumerate() {
        out.push(f + i, v);
    }
}

/// The 17 handcrafted features of the side on roll, in the table's order.
pub fn contact_features(pos: &Position) -> [f32; CONTACT_FEATURES] {
    features_and_count(pos).0
}

/// The features, and the checkers the side on roll still has in play: one
/// pass over its checkers gathers the pip count, timing and the rest.
fn features_and_count(pos: &Position) -> ([f32; CONTACT_FEATURES], u32) {
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
    let mut m = mine;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        let n = u32::from(pos.my_checkers(p));
        pips += n * p as u32;
        in_play += n;
        if p <= 24 {
            // Timing: checkers beyond two on a made point, or not on one.
            let spare = if n >= 2 { n - 2 } else { n };
            timing += spare * (p as u32 - 1);
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
    let (hit_any, hit_two) = hit_chances(pos);
    let enter_fail = if pos.my_bar() > 0 {
        // Entering points are my 19..24 = his home board, made points block.
        let closed = (pos.blocked_points() >> 19 & 0x3F).count_ones() as f32;
        (closed / 6.0) * (closed / 6.0)
    } else {
        0.0
    };
    let features = [
        pips as f32 / 167.0,
        break_contact as f32 / 167.0,
        free_pips as f32 / 100.0,
        back_checker as f32 / 25.0,
        back_anchor as f32 / 24.0,
        forward_anchor,
        hit_any,
        hit_two,
        escape_chance(pos),
        longest_run(made) as f32 / 6.0,
        (made & 0x7E).count_ones() as f32 / 6.0,
        (back_checkers + u32::from(pos.my_bar())) as f32 / 5.0,
        blots as f32 / 5.0,
        anchors.count_ones().min(2) as f32 / 2.0,
        enter_fail,
        timing as f32 / 100.0,
        stripped as f32 / 10.0,
    ];
    (features, in_play)
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

/// Share of the 36 rolls that can hit at least one blot, and that can hit
/// two (one with each die, or with a double). An approximation of the legal
/// plays: intermediate landing points must be open, checkers on the bar
/// enter first, other rules are ignored.
pub fn hit_chances(pos: &Position) -> (f32, f32) {
    let blots = pos.their_blots();
    if blots == 0 {
        return (0.0, 0.0);
    }
    let open = !pos.blocked_points() & POINTS;
    let bar = pos.my_bar();
    let sources = if bar > 0 { 1 << 25 } else { pos.my_occupied() & POINTS };
    // Per die: blots hit directly, and points reached (open) as a first step.
    let mut direct = [0u32; 7];
    let mut via = [0u32; 7];
    for (d, (hit, reach)) in direct.iter_mut().zip(via.iter_mut()).enumerate().skip(1) {
        *hit = (sources >> d) & blots;
        *reach = (sources >> d) & open;
    }
    // Branch-free over the rolls (the outcomes are data-dependent and would
    // mispredict), and without `count_ones` (no POPCNT in the baseline
    // target): "two or more" is "a mask with two bits" or "a second step that hits".
    let two_bits = |m: u32| m & m.wrapping_sub(1) != 0;
    let can_combine = bar <= 1;
    let mut any = 0u32;
    let mut two = 0u32;
    for &(a, b) in &NON_DOUBLES {
        let (da, db) = (direct[a], direct[b]);
        let combo = ((via[a] >> b) | (via[b] >> a)) & blots != 0;
        let hits = (da != 0) | (db != 0) | (combo & can_combine);
        // Two different blots, one hit with each die.
        let double_hit = (da != 0) & (db != 0) & two_bits(da | db);
        any += 2 * u32::from(hits);
        two += 2 * u32::from(double_hit);
    }
    // Doubles: the same checker (or others) stepping up to four times; two
    // hits in all (the same blot reached at two steps counts twice).
    let steps = if bar > 0 { 5u32.saturating_sub(u32::from(bar)) } else { 4 };
    for d in 1..=6 {
        let mut reach = sources;
        let (mut once, mut twice) = (false, false);
        for _ in 0..steps {
            reach = (reach >> d) & open;
            let h = reach & blots;
            twice |= two_bits(h) | ((h != 0) & once);
            once |= h != 0;
        }
        any += u32::from(once);
        two += u32::from(twice);
    }
    (any as f32 / 36.0, two as f32 / 36.0)
}

/// Share of the 36 rolls with which our rearmost checker gets past the
/// opponent's points in the 12 points in front of it (1.0 if none block).
pub fn escape_chance(pos: &Position) -> f32 {
    let mine = pos.my_occupied();
    if mine == 0 {
        return 1.0;
    }
    let back = 31 - mine.leading_zeros();
    let blocks = pos.blocked_points();
    let window = if back > 13 { ((1u32 << back) - 1) & !((1u32 << (back - 12)) - 1) } else { (1u32 << back) - 1 };
    let in_front = blocks & window;
    if in_front == 0 {
        return 1.0;
    }
    // Past the lowest blocking point in front of it.
    let lowest = in_front.trailing_zeros();
    let target = (1u32 << lowest) - 1;
    let open = !blocks & POINTS;
    let start = 1u32 << back;
    // Points reached (open) with one die.
    let mut step = [0u32; 7];
    for (d, s) in step.iter_mut().enumerate().skip(1) {
        *s = (start >> d) & open;
    }
    // Branch-free over the rolls, as in `hit_chances`.
    let mut escapes = 0u32;
    for &(a, b) in &NON_DOUBLES {
        let one = step[a] | step[b];
        let two = ((step[a] >> b) | (step[b] >> a)) & open;
        escapes += 2 * u32::from((one | two) & target != 0);
    }
    for d in 1..=6 {
        let mut reach = start;
        let mut got = false;
        for _ in 0..4 {
            reach = (reach >> d) & open;
            got |= reach & target != 0;
        }
        escapes += u32::from(got);
    }
    escapes as f32 / 36.0
}

fn race_side(pos: &Position, base: usize, out: &mut SparseInputs) {
    raw_points(pos, base, out);
    let off = pos.borne_off().0;
    let o = base + POINT_UNITS;
    if (1..=14).contains(&off) {
        out.push(o + usize::from(off) - 1, 1.0);
    }
    let f = o + 14;
    let (pips, _) = pos.pip_count();
    let mut crossovers = 0u32;
    let mut outside = 0u32;
    let mut low = 0u32;
    let mut m = pos.my_occupied() & POINTS;
    while m != 0 {
        let p = m.trailing_zeros() as usize;
        m &= m - 1;
        let n = u32::from(pos.my_checkers(p));
        crossovers += n * ((p as u32 - 1) / 6);
        if p > 6 {
            outside += n;
        }
        if p <= 2 {
            low += n;
        }
    }
    out.push(f, f32::from(off) / 15.0);
    out.push(f + 1, pips as f32 / 100.0);
    out.push(f + 2, crossovers as f32 / 10.0);
    out.push(f + 3, outside as f32 / 15.0);
    out.push(f + 4, low as f32 / 15.0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_rules::ALL_ROLLS;

    fn dense<E: Encoding>(pos: &Position) -> Vec<f32> {
        let mut s = SparseInputs::with_capacity(E::LEN);
        E::encode(pos, &mut s);
        assert!(s.index.windows(2).all(|w| w[0] < w[1]), "indices increase");
        assert!(s.index.iter().all(|&i| usize::from(i) < E::LEN));
        s.to_dense(E::LEN)
    }

    #[test]
    fn starting_position_is_symmetric() {
        let x = dense::<ContactEncoding>(&Position::STARTING);
        let half = x.len() / 2;
        assert_eq!(x[..half], x[half..]);
        // 6-point with 5 checkers: the >=3 unit and (5-3)/2 = 1.
        assert_eq!(x[4 * 5 + 2], 1.0);
        assert_eq!(x[4 * 5 + 3], 1.0);
        assert_eq!(x[4 * 23 + 1], 1.0, "two on the 24-point");
    }

    #[test]
    fn sides_swap_when_the_position_is_switched() {
        let p = Position::from_position_id("sGfwATDgc/ABMA").unwrap();
        let (a, b) = (dense::<ContactEncoding>(&p), dense::<ContactEncoding>(&p.switched()));
        let half = a.len() / 2;
        assert_eq!(a[..half], b[half..]);
        assert_eq!(a[half..], b[..half]);
    }

    #[test]
    fn hit_chances_of_a_direct_six() {
        // My checker on my 13-point; his blot on my 7-point; nothing else near.
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[12] = 1;
        me[0] = 14;
        him[25 - 7 - 1] = 1; // his 18-point = my 7
        him[0] = 14;
        let p = Position::from_boards(&me, &him).unwrap();
        // Hits with any 6 (11 rolls), 5-1, 4-2 (4 rolls), 3-3 (3+3), 2-2 (2+2+2): 17 rolls.
        // 1-1 reaches only 4 pips. Total 11 + 4 + 1 + 1 = 17.
        let (any, _) = hit_chances(&p);
        assert!((any - 17.0 / 36.0).abs() < 1e-6, "{any}");
    }

    /// The straightforward version of `hit_chances`: every roll, every step,
    /// hits counted with `count_ones`.
    fn hit_chances_reference(pos: &Position) -> (f32, f32) {
        let blots = pos.their_blots();
        if blots == 0 {
            return (0.0, 0.0);
        }
        let open = !pos.blocked_points() & POINTS;
        let bar = pos.my_bar();
        let sources = if bar > 0 { 1 << 25 } else { pos.my_occupied() & POINTS };
        let (mut any, mut two) = (0, 0);
        for dice in ALL_ROLLS {
            let (a, b) = (u32::from(dice.high()), u32::from(dice.low()));
            let (ta, tb) = ((sources >> a) & blots, (sources >> b) & blots);
            let mut hits = ta != 0 || tb != 0;
            let double_hit;
            if dice.is_double() {
                let steps = if bar > 0 { 5u32.saturating_sub(u32::from(bar)) } else { 4 };
                let mut reach = sources;
                let mut count = 0;
                for _ in 0..steps {
                    reach = (reach >> a) & open;
                    count += (reach & blots).count_ones();
                }
                hits |= count > 0;
                double_hit = count >= 2;
            } else {
                if bar <= 1 && !hits {
                    let (va, vb) = ((sources >> a) & open, (sources >> b) & open);
                    hits = ((va >> b) & blots) != 0 || ((vb >> a) & blots) != 0;
                }
                double_hit = ta != 0 && tb != 0 && (ta | tb).count_ones() >= 2;
            }
            any += dice.weight() * u32::from(hits);
            two += dice.weight() * u32::from(double_hit);
        }
        (any as f32 / 36.0, two as f32 / 36.0)
    }

    /// The straightforward version of `escape_chance`'s count over the rolls.
    fn escape_reference(pos: &Position) -> f32 {
        let mine = pos.my_occupied();
        if mine == 0 {
            return 1.0;
        }
        let back = 31 - mine.leading_zeros();
        let blocks = pos.blocked_points();
        let window = if back > 13 { ((1u32 << back) - 1) & !((1u32 << (back - 12)) - 1) } else { (1u32 << back) - 1 };
        let in_front = blocks & window;
        if in_front == 0 {
            return 1.0;
        }
        let target = (1u32 << in_front.trailing_zeros()) - 1;
        let open = !blocks & POINTS;
        let start = 1u32 << back;
        let mut n = 0;
        for dice in ALL_ROLLS {
            let (a, b) = (dice.high(), dice.low());
            let ok = if dice.is_double() {
                let mut reach = start;
                let mut got = false;
                for _ in 0..4 {
                    reach = (reach >> a) & open;
                    got |= reach & target != 0;
                }
                got
            } else {
                let one = ((start >> a) | (start >> b)) & open;
                let two = (((start >> a) & open) >> b | ((start >> b) & open) >> a) & open;
                (one | two) & target != 0
            };
            n += dice.weight() * u32::from(ok);
        }
        n as f32 / 36.0
    }

    #[test]
    fn shots_and_escapes_equal_the_references_on_many_positions() {
        let mut list = gammon_rules::MoveList::new();
        let mut frontier = vec![Position::STARTING];
        let mut checked = 0;
        // Positions two plies deep from the start, and their switches.
        for _ in 0..2 {
            let mut next = Vec::new();
            for p in &frontier {
                for d in ALL_ROLLS {
                    list.generate(p, d);
                    next.extend_from_slice(list.positions());
                }
            }
            frontier = next;
        }
        for p in frontier.iter().step_by(7) {
            for q in [*p, p.switched()] {
                assert_eq!(hit_chances(&q), hit_chances_reference(&q), "{q:?}");
                assert_eq!(escape_chance(&q), escape_reference(&q), "{q:?}");
                checked += 1;
            }
        }
        assert!(checked > 10_000);
    }

    #[test]
    fn race_encoding_counts_checkers_off() {
        let p = Position::from_position_id("8H0AAEgAAAAAAA").unwrap();
        let x = dense::<RaceEncoding>(&p);
        // I have 13 off: unit 96 + 12.
        assert_eq!(x[POINT_UNITS + 12], 1.0);
    }

    #[test]
    fn escape_from_behind_a_prime_is_hard() {
        // My back checker on my 24-point behind his points on my 18..23 (a 6-prime).
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[23] = 1;
        me[5] = 14;
        for q in 2..8 {
            him[q - 1] = 2; // his 2..7 = my 23..18
        }
        him[12] = 3;
        let p = Position::from_boards(&me, &him).unwrap();
        assert_eq!(escape_chance(&p), 0.0);
        // Only his 18-point (my 7) made in front of my 13-point checker. Escaping
        // means reaching my 6-point or lower (7+ pips) without landing on 7:
        // 6-1..6-5 via the small die first (10 rolls), 5-2 5-3 5-4 (6), 5-5 (1),
        // 4-3 (2), 4-4 (1) = 20. 6-6 and 3-3 land on 7 first; the rest are short.
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[12] = 1;
        me[0] = 14;
        him[17] = 2; // his 18 = my 7
        him[0] = 13;
        let p = Position::from_boards(&me, &him).unwrap();
        assert!((escape_chance(&p) - 20.0 / 36.0).abs() < 1e-6, "{}", escape_chance(&p));
    }
}
