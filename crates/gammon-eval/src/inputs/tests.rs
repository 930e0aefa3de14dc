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

/// A blockade mask with the points `ds` pips ahead blocked.
fn blockade(ds: &[u32]) -> u32 {
    ds.iter().map(|d| 1 << (12 - d)).sum()
}

#[test]
fn escaping_rolls_past_blockades() {
    assert_eq!(escapes_past(0), 36);
    // One point 6 ahead: every non-double summing to 7+ (9 rolls, twice),
    // and 4-4 and 5-5; 2-2, 3-3 and 6-6 land on it, 1-1 falls short.
    assert_eq!(escapes_past(blockade(&[6])), 20);
    assert_eq!(escapes_past(blockade(&[1, 2, 3, 4, 5, 6])), 0, "a full prime");
    // Only 5-5 gets past a point 12 ahead (4-4 and 6-6 land on it).
    assert_eq!(escapes_past(blockade(&[12])), 1);
    // Points 1 and 2 ahead: only 3-3 to 6-6 and the non-doubles but 2-1.
    assert_eq!(escapes_past(blockade(&[1, 2])), 36 - 2 - 2);
}

#[test]
fn escapes_from_reads_the_points_in_front() {
    // His anchor on my 18-point: from my 24-point it is 6 ahead.
    let mut me = [0u8; 25];
    let mut him = [0u8; 25];
    me[23] = 1;
    me[1] = 14;
    him[25 - 18 - 1] = 2;
    him[23] = 13; // on my 1-point, out of the way
    let p = Position::from_boards(&me, &him).unwrap();
    assert_eq!(escapes_from(p.blocked_points(), 24), 20);
    assert_eq!(escapes_from(p.blocked_points(), 17), 36, "already past it");
    assert_eq!(escapes_from(p.blocked_points(), 25), escapes_past(blockade(&[7])), "from the bar");
}

#[test]
fn pip_loss_of_a_direct_six() {
    // As below: 17 rolls hit the blot on my 7-point, each costs him 7 pips.
    let mut me = [0u8; 25];
    let mut him = [0u8; 25];
    me[12] = 1;
    me[0] = 14;
    him[25 - 7 - 1] = 1;
    him[0] = 14;
    let h = hit_stats(&Position::from_boards(&me, &him).unwrap());
    assert!((h.pip_loss - 17.0 * 7.0 / (36.0 * 24.0)).abs() < 1e-6, "{h:?}");
}

#[test]
fn backbone_of_connected_and_split_points() {
    assert_eq!(backbone(0b11 << 5), 0.0, "adjacent points");
    assert_eq!(backbone(1 << 6 | 1 << 20), 1.0, "14 pips apart");
    assert!((backbone(1 << 6 | 1 << 15) - 0.5).abs() < 1e-6, "9 pips apart: (12 - 9) / 6");
    assert_eq!(backbone(1 << 6), 1.0, "one point");
}

/// Every result of two moves from the start (all rolls, with repeats).
fn two_plies_deep() -> Vec<Position> {
    let mut list = gammon_rules::MoveList::new();
    let mut frontier = vec![Position::STARTING];
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
    frontier
}

#[test]
fn features_stay_in_range() {
    for p in two_plies_deep().iter().step_by(13) {
        for (i, f) in contact_features(p).into_iter().enumerate() {
            assert!(f.is_finite() && (0.0..=4.0).contains(&f), "feature {i} = {f} in {p:?}");
        }
    }
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
    let any = hit_stats(&p).any;
    assert!((any - 17.0 / 36.0).abs() < 1e-6, "{any}");
}

/// The straightforward version of `hit_stats`' two shares: every roll, every step,
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

/// Is my point `point` held by the opponent (two or more of his checkers)?
/// Off the board (below 1) nothing is blocked.
fn held_by_opponent(pos: &Position, point: i32) -> bool {
    (1..=24).contains(&point) && pos.their_checkers(point as usize) >= 2
}

/// Rolls (of 36) with which my checker on point `from` (bar = 25) gets past
/// the opponent's points among the 12 in front of it, counted from that
/// definition: each of the 36 rolls, each way of moving that checker alone
/// (either die, both dice in either order, a double up to four times),
/// every landing point open; past means beyond the farthest of those points
/// (off the board counts). 36 when none of them is held.
fn escaping_rolls_reference(pos: &Position, from: usize) -> u32 {
    escaping_rolls_where(from, true, |p| held_by_opponent(pos, p))
}

/// [`escaping_rolls_reference`] seeing only the 12 points in front of the
/// checker held, as [`escapes_from`] does: a double's step beyond them
/// (5-5's third) lands as if open.
fn escaping_rolls_in_window(pos: &Position, from: usize) -> u32 {
    escaping_rolls_where(from, true, |p| p >= from as i32 - 12 && held_by_opponent(pos, p))
}

/// [`escaping_rolls_reference`] with every landing on the board, as
/// `ESCAPE` ([`escape_chance`]) counts: a move past my 1-point never
/// escapes.
fn escaping_rolls_on_the_board(pos: &Position, from: usize) -> u32 {
    escaping_rolls_where(from, false, |p| held_by_opponent(pos, p))
}

/// [`escaping_rolls_reference`] with the points `held` says are held, and
/// landings off the board allowed or not.
fn escaping_rolls_where(from: usize, off_the_board: bool, held: impl Fn(i32) -> bool) -> u32 {
    let from = from as i32;
    let Some(farthest) = (from - 12..from).filter(|&p| held(p)).min() else {
        return 36;
    };
    // Moves the checker by `steps` in turn: does it end past `farthest`
    // without landing on a held point?
    let escapes_by = |steps: &[i32]| {
        let mut point = from;
        for die in steps {
            point -= die;
            if held(point) || (point < 1 && !off_the_board) {
                return false;
            }
        }
        point < farthest
    };
    let mut rolls = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            let escapes = if a == b {
                (1..=4).any(|n| escapes_by(&[a; 4][..n]))
            } else {
                escapes_by(&[a]) || escapes_by(&[b]) || escapes_by(&[a, b]) || escapes_by(&[b, a])
            };
            rolls += u32::from(escapes);
        }
    }
    rolls
}

/// `escape_chance` from its definition: the escaping rolls of my rearmost
/// checker, 1.0 when I have none left.
fn escape_reference(pos: &Position) -> f32 {
    match (1..=25).rev().find(|&p| pos.my_checkers(p) > 0) {
        Some(rearmost) => escaping_rolls_reference(pos, rearmost) as f32 / 36.0,
        None => 1.0,
    }
}

/// On these positions no escape goes past my 1-point. Beyond them the
/// code and the definition part: `escape_chance` never counts a move past
/// my 1-point, and `escapes_from` sees only the 12 points in front (a
/// double may land on a held point farther on).
#[test]
fn shots_and_escapes_equal_the_references_on_many_positions() {
    let mut checked = 0;
    // Positions two plies deep from the start, and their switches.
    for p in two_plies_deep().iter().step_by(7) {
        for q in [*p, p.switched()] {
            let h = hit_stats(&q);
            assert_eq!((h.any, h.two), hit_chances_reference(&q), "{q:?}");
            assert_eq!(escape_chance(&q), escape_reference(&q), "{q:?}");
            for from in (1..=25).filter(|&p| q.my_checkers(p) > 0) {
                assert_eq!(
                    u32::from(escapes_from(q.blocked_points(), from)),
                    escaping_rolls_reference(&q, from),
                    "{q:?} {from}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 10_000);
}

/// The first version of [`escape_chance`], a loop over the rolls on
/// point masks: the table version must give the same bits.
fn escape_chance_by_rolls(pos: &Position) -> f32 {
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
    let step: Vec<u32> = (0..7).map(|d| if d == 0 { 0 } else { (start >> d) & open }).collect();
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

/// Positions along random games from the start, both sides' views:
/// openings, middle games, crashed boards and bearoffs with contact.
pub(crate) fn random_game_positions(games: u64) -> Vec<Position> {
    use gammon_rules::{DiceSource, MoveList, RandomDice};
    let mut dice = RandomDice::new(5, 0);
    let mut list = MoveList::new();
    let mut out = Vec::new();
    for game in 0..games {
        let mut pos = Position::STARTING;
        for turn in 0..300u64 {
            if pos.my_occupied() == 0 || pos.their_occupied() == 0 {
                break;
            }
            out.extend([pos, pos.switched()]);
            list.generate(&pos, dice.roll());
            let n = list.len();
            pos = if n == 0 { pos.switched() } else { list.positions()[((game * 31 + turn) as usize * 7919) % n] };
        }
    }
    out
}

/// The first version of [`hit_stats`], a loop over the table of rolls:
/// the unrolled version must give the same bits.
fn hit_stats_by_rolls(pos: &Position) -> HitStats {
    let bar = pos.my_bar();
    let sources = if bar > 0 { 1 << 25 } else { pos.my_occupied() & POINTS };
    // Checkers move down: only blots below our rearmost checker can be hit.
    let blots = pos.their_blots() & ((1u32 << top_point(sources)) - 1);
    if blots == 0 {
        return HitStats::default();
    }
    let open = !pos.blocked_points() & POINTS;
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
    let combine_mask = if bar <= 1 { u32::MAX } else { 0 };
    let mut any = 0u32;
    let mut two = 0u32;
    let mut loss = 0u32;
    for &(a, b) in &NON_DOUBLES {
        let (da, db) = (direct[a], direct[b]);
        let combo = ((via[a] >> b) | (via[b] >> a)) & blots & combine_mask;
        let hit = da | db | combo;
        // Two different blots, one hit with each die.
        let double_hit = (da != 0) & (db != 0) & two_bits(da | db);
        any += 2 * u32::from(hit != 0);
        two += 2 * u32::from(double_hit);
        loss += 2 * top_point(hit);
    }
    // Doubles: the same checker (or others) stepping up to four times; two
    // hits in all (the same blot reached at two steps counts twice).
    let steps = if bar > 0 { 5u32.saturating_sub(u32::from(bar)) } else { 4 };
    for d in 1..=6 {
        let mut reach = sources;
        let (mut once, mut twice) = (false, false);
        let mut hit = 0u32;
        for _ in 0..steps {
            reach = (reach >> d) & open;
            let h = reach & blots;
            twice |= two_bits(h) | ((h != 0) & once);
            once |= h != 0;
            hit |= h;
        }
        any += u32::from(once);
        two += u32::from(twice);
        loss += top_point(hit);
    }
    HitStats { any: any as f32 / 36.0, two: two as f32 / 36.0, pip_loss: loss as f32 / (36.0 * 24.0) }
}

#[test]
fn hit_stats_equal_the_loop_over_the_rolls() {
    let positions = random_game_positions(400);
    let mut shots = 0;
    for p in &positions {
        let (h, want) = (hit_stats(p), hit_stats_by_rolls(p));
        let bits = |h: HitStats| [h.any, h.two, h.pip_loss].map(f32::to_bits);
        assert_eq!(bits(h), bits(want), "{}", p.to_position_id());
        shots += usize::from(h.any > 0.0);
    }
    assert!(shots > 10_000, "{shots} of {} positions with shots", positions.len());
}

#[test]
fn escape_chance_equals_the_loop_over_the_rolls() {
    let positions = random_game_positions(400);
    assert!(positions.len() > 40_000);
    let mut blocked = 0;
    for p in &positions {
        let e = escape_chance(p);
        assert_eq!(e.to_bits(), escape_chance_by_rolls(p).to_bits(), "{}", p.to_position_id());
        blocked += usize::from(e < 1.0);
    }
    assert!(blocked > 10_000, "{blocked} of {} positions with a blockade", positions.len());
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

#[test]
fn encoding_many_at_once_gives_each_position_its_own_units() {
    // Every length up to two groups of eight and beyond, and positions with
    // and without shots, on the bar, crashed.
    let positions = random_game_positions(60);
    let mut many = vec![SparseInputs::with_capacity(ContactEncoding::LEN); 40];
    let mut one = SparseInputs::with_capacity(ContactEncoding::LEN);
    for (k, chunk) in positions.chunks(37).enumerate() {
        let run = &chunk[..chunk.len().min(k % 20 + 1)];
        ContactEncoding::encode_many(run, &mut many);
        for (p, got) in run.iter().zip(&many) {
            ContactEncoding::encode(p, &mut one);
            assert_eq!(got.index, one.index, "{}", p.to_position_id());
            let bits = |s: &SparseInputs| s.value.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(got), bits(&one), "{}", p.to_position_id());
        }
    }
}

/// Every feature, version 3's included, with every kernel (AVX-512, AVX2,
/// portable: those this CPU has), bit for bit; the positions give each
/// version 3 feature values other than its commonest.
#[test]
fn features_computed_in_lanes_equal_one_position_at_a_time() {
    let positions = random_game_positions(100);
    let bits = |f: &[f32]| f.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    for unit in CONTACT_FEATURES_V2..CONTACT_FEATURES {
        let values: std::collections::HashSet<u32> =
            positions.iter().map(|p| contact_features(p)[unit].to_bits()).collect();
        assert!(values.len() >= 6, "feature {unit}: {} values", values.len());
    }
    let mut sides = SideLanes::default();
    let mut lanes = FeatureLanes::default();
    for kernel in crate::simd::Kernel::available() {
        for group in positions.chunks(SHOT_LANES) {
            sides.clear_points();
            for (i, p) in group.iter().enumerate() {
                sides.set(i, p);
            }
            super::lanes::contact_features_lanes_with(kernel, &sides, &mut lanes);
            for (l, p) in group.iter().enumerate() {
                let got: Vec<f32> = lanes.features.iter().map(|f| f[l]).collect();
                let want = contact_features(p);
                assert_eq!(bits(&got), bits(&want), "{} {}", kernel.name(), p.to_position_id());
                let in_play: u32 = (1..=25).map(|q| u32::from(p.my_checkers(q))).sum();
                assert_eq!(lanes.in_play[l], in_play);
            }
        }
    }
}

// Contact encoding version 3's features (27..=33), each against a
// reference written from its definition, and worked examples.

const ESCAPE: usize = 8;
const ESCAPE_MISSED: usize = 27;
const TIMING_G: usize = 28;
const CONTAIN_FIXED: usize = 29;
const ENTER: usize = 30;
const BACKRESCAPES: usize = 31;
const FORWARD_ANCHOR: usize = 5;
const FORWARD_ANCHOR_OUTER: usize = 32;

/// My rearmost checker's point (bar = 25), if any is left.
fn rearmost(pos: &Position) -> Option<usize> {
    (1..=25).rev().find(|&p| pos.my_checkers(p) > 0)
}

/// `ESCAPE_MISSED` from its definition: the escaping rolls of my rearmost
/// checker, the 12 points in front of it seen, less those landing on the
/// board (`ESCAPE`'s); 0 with none left.
fn escape_missed_reference(pos: &Position) -> f32 {
    rearmost(pos)
        .map_or(0.0, |p| (escaping_rolls_in_window(pos, p) - escaping_rolls_on_the_board(pos, p)) as f32 / 36.0)
}

/// gnubg's timing, step by step on gnubg's boards (index `i` = point
/// `i + 1`, 24 = bar): 24 a checker on the bar; from index 23 down to 12
/// while behind his rearmost checker, a blot or the checkers beyond two;
/// then down to 6 every checker; then the home board from index 5 down:
/// above two adds, below two takes spares while they last.
fn timing_reference(pos: &Position) -> f32 {
    let (me, him) = pos.to_boards();
    // His rearmost checker in my indices (-1: on the bar; none: -1 too,
    // below every index, as gnubg's scan gives).
    let his_rearmost_own = (0..25).rev().find(|&i| him[i] > 0).map_or(-1, |i| i as i32);
    let his_back = 23 - his_rearmost_own;
    let n = |i: i32| i32::from(me[i as usize]);
    let (mut t, mut spares) = (24 * n(24), n(24));
    let mut i = 23;
    while i >= 12 && i > his_back {
        if n(i) > 0 && n(i) != 2 {
            let s = if n(i) > 2 { n(i) - 2 } else { 1 };
            spares += s;
            t += i * s;
        }
        i -= 1;
    }
    while i >= 6 {
        spares += n(i);
        t += i * n(i);
        i -= 1;
    }
    for i in (0..6).rev() {
        if n(i) > 2 {
            t += i * (n(i) - 2);
            spares += n(i) - 2;
        } else if n(i) < 2 && spares >= 2 - n(i) {
            t -= i * (2 - n(i));
            spares -= 2 - n(i);
        }
    }
    t.max(0) as f32 / 100.0
}

/// `CONTAIN_FIXED` from its definition: the fewest escaping rolls from my
/// points 16..=24, whoever is there.
fn contain_fixed_reference(pos: &Position) -> f32 {
    let fewest = (16..=24).map(|q| escaping_rolls_in_window(pos, q)).min().unwrap();
    1.0 - fewest as f32 / 36.0
}

/// `ENTER` from its definition: for each of the 36 rolls, the pips of the
/// dice my checkers on the bar cannot use, a die of `d` entering on my
/// point `25 - d` unless he holds it.
fn enter_reference(pos: &Position) -> f32 {
    let bar = pos.my_bar();
    if bar == 0 {
        return 0.0;
    }
    let closed = |d: usize| held_by_opponent(pos, 25 - d as i32);
    let mut loss = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            loss += if a == b {
                // Nothing enters, or the first enters and the rest play on.
                if closed(a) {
                    4 * a
                } else {
                    0
                }
            } else {
                // Each die enters a checker while checkers are on the bar;
                // with one there, an open die enters it and the other plays.
                match (closed(a), closed(b), bar) {
                    (true, true, _) => a + b,
                    (true, false, 2..) => a,
                    (false, true, 2..) => b,
                    _ => 0,
                }
            };
        }
    }
    loss as f32 / 294.0
}

/// `BACKRESCAPES` from its definition: the rolls whose pip total my
/// rearmost checker can play with both dice (a die's point open first, the
/// total's point open, a double's two steps) past the nearest held point
/// among the 12 in front of it; 0 when none is held.
fn backrescapes_reference(pos: &Position) -> f32 {
    let Some(from) = rearmost(pos) else { return 0.0 };
    let from = from as i32;
    let held = |d: i32| held_by_opponent(pos, from - d);
    let Some(nearest) = (1..=12).find(|&d| held(d)) else { return 0.0 };
    let mut rolls = 0;
    for a in 1..=6 {
        for b in 1..=6 {
            rolls += u32::from(a + b > nearest && !held(a + b) && (!held(a) || !held(b)));
        }
    }
    rolls as f32 / 36.0
}

/// `FORWARD_ANCHOR_OUTER` from its definition: with none of my points made
/// in his home board (my 19..24), my made point on his 7..11 (my 18..14)
/// nearest his home board, his point number / 6.
fn forward_anchor_outer_reference(pos: &Position) -> f32 {
    let made = |p: usize| pos.my_checkers(p) >= 2;
    if (19..=24).any(made) {
        return 0.0;
    }
    (14..=18).rev().find(|&p| made(p)).map_or(0.0, |p| (25 - p) as f32 / 6.0)
}

#[test]
fn version_3_features_equal_their_references_on_every_position() {
    let positions = random_game_positions(400);
    let (mut trapped_in_v2, mut missed, mut doubles_beyond, mut on_bar, mut outer) = (0, 0, 0, 0, 0);
    for p in &positions {
        let f = contact_features(p);
        let id = p.to_position_id();
        let want = [
            (ESCAPE, rearmost(p).map_or(1.0, |q| escaping_rolls_on_the_board(p, q) as f32 / 36.0)),
            (ESCAPE_MISSED, escape_missed_reference(p)),
            (TIMING_G, timing_reference(p)),
            (CONTAIN_FIXED, contain_fixed_reference(p)),
            (ENTER, enter_reference(p)),
            (BACKRESCAPES, backrescapes_reference(p)),
            (FORWARD_ANCHOR_OUTER, forward_anchor_outer_reference(p)),
        ];
        for (unit, value) in want {
            assert_eq!(f[unit].to_bits(), value.to_bits(), "feature {unit} of {id}: {} against {value}", f[unit]);
        }
        trapped_in_v2 += usize::from(f[ESCAPE] == 0.0 && f[ESCAPE_MISSED] > 0.0);
        missed += usize::from(f[ESCAPE_MISSED] > 0.0);
        if let Some(q) = rearmost(p) {
            doubles_beyond += usize::from(escaping_rolls_in_window(p, q) != escaping_rolls_reference(p, q));
        }
        on_bar += usize::from(f[ENTER] > 0.0);
        outer += usize::from(f[FORWARD_ANCHOR_OUTER] > 0.0);
    }
    // The positions hold cases of each: checkers read as trapped by
    // `ESCAPE` that escape (and others whose escapes it undercounts, a few
    // percent of the positions), checkers on the bar against made points,
    // outer anchors; and the rare 5-5 whose third step, beyond the 12 points
    // seen, would land on a held point (the window's only blind spot).
    assert!(trapped_in_v2 > 50, "{trapped_in_v2}");
    assert!(missed > trapped_in_v2 && missed < positions.len() / 10, "{missed} of {}", positions.len());
    assert!(on_bar > 1000, "{on_bar}");
    assert!(outer > 1000, "{outer}");
    assert!(doubles_beyond < positions.len() / 100, "{doubles_beyond}");
}

/// `escapes_from` on every point holding a checker of every position: the
/// reference without the restriction of
/// `shots_and_escapes_equal_the_references_on_many_positions` (landings off
/// the board are open in both).
#[test]
fn escapes_from_equals_the_reference_from_every_point() {
    let mut off_board = 0;
    for p in random_game_positions(200) {
        for from in (1..=25).filter(|&q| p.my_checkers(q) > 0) {
            let got = u32::from(escapes_from(p.blocked_points(), from));
            assert_eq!(got, escaping_rolls_in_window(&p, from), "{} {from}", p.to_position_id());
            off_board += usize::from(from <= 12 && got < 36);
        }
    }
    assert!(off_board > 1000, "{off_board}");
}

fn features_of(id: &str) -> [f32; CONTACT_FEATURES] {
    contact_features(&Position::from_position_id(id).unwrap())
}

/// The ace-point game of the issue (#25): my last checker outside is on my
/// 8-point, the rest home; his only point in front of it is his anchor on
/// my 1-point (my 19-21 behind it are his). `ESCAPE` sees no escape (every
/// way past the anchor leaves the board); `ESCAPE_MISSED` adds the 17
/// rolls of 8 pips or more that do not land on the 1-point: 6-2 to 6-5,
/// 5-3 and 5-4 (12), and 2-2, 3-3, 4-4, 5-5 and 6-6 (the escape chance
/// counting a landing off the board as open: 0 + 17). `BACKRESCAPES` (must
/// pass the nearest held point with the pip total, doubles in two steps):
/// the 12 and 4-4, 5-5, 6-6, 15 (gnubg's I_BACKRESCAPES of this position).
/// With his anchor on my 2-point (6 ahead) instead: 20 rolls get past it,
/// of which `ESCAPE` sees 6 (those ending exactly on my 1-point: 6-1, 5-2,
/// 4-3, each twice), `ESCAPE_MISSED` the other 14; gnubg's rule: the 9
/// non-doubles of 7 or more twice, 4-4 and 5-5 (6-6's first step lands on
/// it), 20. With it on my 5-point the checker escapes within the board:
/// `ESCAPE` 32, nothing missed, `BACKRESCAPES` 32.
#[test]
fn escapes_in_an_ace_point_game() {
    let f = features_of("eO8DADDcvScAAA");
    let p = Position::from_position_id("eO8DADDcvScAAA").unwrap();
    assert_eq!((p.my_checkers(8), p.their_checkers(1), rearmost(&p)), (1, 2, Some(8)));
    assert_eq!(escapes_from(p.blocked_points(), 8), 17);
    assert_eq!((f[ESCAPE], f[ESCAPE_MISSED], f[BACKRESCAPES]), (0.0, 17.0 / 36.0, 15.0 / 36.0));
    let f = features_of("eO8DABjcvScAAA");
    assert_eq!((f[ESCAPE], f[ESCAPE_MISSED], f[BACKRESCAPES]), (6.0 / 36.0, 14.0 / 36.0, 20.0 / 36.0));
    let f = features_of("eO8DAAPunicAAA");
    assert_eq!((f[ESCAPE], f[ESCAPE_MISSED], f[BACKRESCAPES]), (32.0 / 36.0, 0.0, 32.0 / 36.0));
}

/// A back game: I hold his ace and 3-points (my 24 and 22) with a checker
/// on the bar, 3 on my 13, 2 on my 8, 3 on my 6, 2 on my 5; his rearmost
/// checker is on my 10. gnubg's timing: the bar checker 24 pips; behind
/// him, the 13-point's third checker 12; past him, both checkers of my
/// 8-point 7 each (50 pips, 4 spares); my 6-point's third adds 5 (55, 5
/// spares); my empty 4- and 3-points take 2 spares each, 2 x 3 and 2 x 2
/// pips (45, 1 spare); the 2- and 1-points find too few spares: 45 / 100.
/// `TIMING` counts the bar as nothing: (3 - 2) x 12 + (3 - 2) x 5 = 17. The
/// same checker on my 4-point instead of the bar: 24 (gnubg), 20 (gammon).
/// Entering: his 6, 5, 4 and 2-points (my 19, 20, 21, 23) are closed, my
/// 24 and 22 open: the four closed doubles lose 4 x (6 + 5 + 4 + 2) = 68
/// pips, the 12 rolls with both dice closed their sums (2 x 51), 170 / 294.
#[test]
fn timing_and_entering_in_a_back_game() {
    let mut me = [0u8; 25];
    for (p, n) in [(25, 1), (24, 2), (22, 2), (13, 3), (8, 2), (6, 3), (5, 2)] {
        me[p - 1] = n;
    }
    // His points in his numbering: my 10 = his 15, my 19 = his 6, ...
    let mut him = [0u8; 25];
    for (p, n) in [(15, 2), (6, 4), (5, 4), (4, 3), (2, 2)] {
        him[p - 1] = n;
    }
    let pos = Position::from_boards(&me, &him).unwrap();
    let f = contact_features(&pos);
    assert_eq!(f[TIMING_G], 45.0 / 100.0);
    assert_eq!(f[15], 17.0 / 100.0, "TIMING");
    assert_eq!(f[ENTER], 170.0 / 294.0);
    me[24] = 0;
    me[3] = 1;
    let f = contact_features(&Position::from_boards(&me, &him).unwrap());
    assert_eq!((f[TIMING_G], f[15]), (24.0 / 100.0, 20.0 / 100.0));
    assert_eq!(f[ENTER], 0.0, "none on the bar");
}

/// Entering against his 5- and 6-points: with one checker on the bar, 5-5
/// and 6-6 lose 20 and 24 pips and 6-5 its 11 (twice), 66; with two, each
/// roll of a 5 or a 6 and a 1-4 also loses the blocked die: 2 x 4 x (5 + 6)
/// more, 154. Against a closed board every pip is lost: 1.
#[test]
fn pips_lost_entering() {
    let enter = |bar: u8, closed: &[usize]| {
        let (mut me, mut him) = ([0u8; 25], [0u8; 25]);
        me[24] = bar;
        me[5] = 15 - bar;
        let mut left = 15u8;
        for &c in closed {
            him[c - 1] = 2;
            left -= 2;
        }
        him[12] = left;
        contact_features(&Position::from_boards(&me, &him).unwrap())[ENTER]
    };
    assert_eq!(enter(1, &[5, 6]), 66.0 / 294.0);
    assert_eq!(enter(2, &[5, 6]), 154.0 / 294.0);
    assert_eq!(enter(3, &[5, 6]), 154.0 / 294.0);
    assert_eq!(enter(1, &[1, 2, 3, 4, 5, 6]), 1.0);
    assert_eq!(enter(1, &[]), 0.0);
}

/// His only point that can hold a checker of mine in his outfield or home
/// board is his bar point (my 18); his other checkers are deep in my home
/// board. The hardest of my points 16..24 to escape from is 6 pips behind
/// it (my 24): 20 rolls pass a point 6 ahead, so `CONTAIN_FIXED` is 16 / 36
/// although none of my checkers is back there (`CONTAINED`, which follows
/// my rearmost checker, reads 0).
#[test]
fn fixed_containment_wherever_my_checkers_are() {
    let (mut me, mut him) = ([0u8; 25], [0u8; 25]);
    me[5] = 5;
    me[4] = 5;
    me[3] = 5;
    him[6] = 2; // his 7 = my 18
    him[21] = 5; // his 22..24 = my 3..1
    him[22] = 4;
    him[23] = 4;
    let f = contact_features(&Position::from_boards(&me, &him).unwrap());
    let contained = 1.0 - 20.0 / 36.0;
    assert_eq!(f[CONTAIN_FIXED], contained);
    assert!((contained - 16.0 / 36.0).abs() < 1e-7);
    assert_eq!(f[18], 0.0, "CONTAINED");
}

/// From the start, my anchor on his ace point is my forward anchor (1/6).
/// Once both back checkers have moved up to his bar point (my 18), I have
/// no point in his home board: `FORWARD_ANCHOR` reads 0 and
/// `FORWARD_ANCHOR_OUTER` his 7 / 6; on his 11 (my 14), 11 / 6. My
/// midpoint (his 12) does not count: every position that has kept it would
/// have the unit.
#[test]
fn forward_anchor_outside_his_home_board() {
    let f = contact_features(&Position::STARTING);
    assert_eq!((f[FORWARD_ANCHOR], f[FORWARD_ANCHOR_OUTER]), (1.0 / 6.0, 0.0));
    let (mut me, him) = Position::STARTING.to_boards();
    me[23] = 0;
    me[17] = 2;
    let f = contact_features(&Position::from_boards(&me, &him).unwrap());
    assert_eq!((f[FORWARD_ANCHOR], f[FORWARD_ANCHOR_OUTER]), (0.0, 7.0 / 6.0));
    me[17] = 0;
    me[13] = 2;
    let f = contact_features(&Position::from_boards(&me, &him).unwrap());
    assert_eq!(f[FORWARD_ANCHOR_OUTER], 11.0 / 6.0);
    me[13] = 0;
    me[12] += 2;
    let f = contact_features(&Position::from_boards(&me, &him).unwrap());
    assert_eq!(f[FORWARD_ANCHOR_OUTER], 0.0);
}
