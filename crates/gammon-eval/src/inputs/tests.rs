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
    let from = from as i32;
    let Some(farthest) = (from - 12..from).filter(|&p| held_by_opponent(pos, p)).min() else {
        return 36;
    };
    // Moves the checker by `steps` in turn: does it end past `farthest`
    // without landing on a held point?
    let escapes_by = |steps: &[i32]| {
        let mut point = from;
        for die in steps {
            point -= die;
            if held_by_opponent(pos, point) {
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
fn random_game_positions(games: u64) -> Vec<Position> {
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

#[test]
fn features_computed_in_lanes_equal_one_position_at_a_time() {
    let positions = random_game_positions(100);
    let bits = |f: &[f32]| f.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
    let mut sides = SideLanes::default();
    let mut lanes = FeatureLanes::default();
    for kernel in crate::simd::Kernel::available() {
        for group in positions.chunks(SHOT_LANES) {
            sides.clear_points();
            for (i, p) in group.iter().enumerate() {
                sides.set(i, p);
            }
            crate::simd::contact_features_lanes_with(kernel, &sides, &mut lanes);
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
