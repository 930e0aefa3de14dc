//! The one-sided bearoff database: hand-computed distributions and race
//! values, internal consistency (sums, monotonicity, the Bellman equation
//! against the plain move generator), a Monte Carlo check of the policy, and
//! agreement with gnubg's bearoff evaluations in the oracle.
#![allow(clippy::unwrap_used)]

use gammon_eval::bearoff::{bearoff_db, home_layouts, index, layout, successors, BearoffDb, Layout, LAYOUTS};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{Dice, Position, ALL_ROLLS};
use gammon_testkit::{read_oracle, EvalRecord};

fn db() -> &'static BearoffDb {
    bearoff_db()
}

fn close(a: f32, b: f64, tol: f64) -> bool {
    (f64::from(a) - b).abs() <= tol
}

fn assert_dist(points: Layout, expected: &[f64]) {
    let d = db().distribution(&points).unwrap();
    assert_eq!(d.len(), expected.len(), "{points:?}: {d:?}");
    for (k, (&p, &e)) in d.iter().zip(expected).enumerate() {
        assert!(close(p, e, 1e-6), "{points:?} k={k}: {p} vs {e}");
    }
}

/// A position from both sides' home layouts (side on roll first).
fn race(us: Layout, them: Layout) -> Position {
    let mut a = [0u8; 25];
    let mut b = [0u8; 25];
    a[..6].copy_from_slice(&us);
    b[..6].copy_from_slice(&them);
    Position::from_boards(&a, &b).unwrap()
}

#[test]
fn hand_computed_distributions() {
    // Nothing left: 0 rolls.
    assert_dist([0; 6], &[1.0]);
    // One checker on the ace point: any roll bears it off.
    assert_dist([1, 0, 0, 0, 0, 0], &[0.0, 1.0]);
    // Two on the ace point: any roll.
    assert_dist([2, 0, 0, 0, 0, 0], &[0.0, 1.0]);
    // Two on the 2-point: both off unless a non-double has a 1 (2-1 ... 6-1,
    // 10/36: the 1 can only move 2/1); 1-1 plays 2/1/off twice.
    assert_dist([0, 2, 0, 0, 0, 0], &[0.0, 26.0 / 36.0, 10.0 / 36.0]);
    // One checker on the 6-point fails to come off only with 2-1 (3 pips),
    // 3-1 (4), 4-1 and 3-2 (5), two ways each, and 1-1 (4 pips): 9/36. It
    // then stands on the 3-, 2- or 1-point, off with any roll.
    assert_dist([0, 0, 0, 0, 0, 1], &[0.0, 27.0 / 36.0, 9.0 / 36.0]);
    assert!(close(db().expected_rolls(&[0, 0, 0, 0, 0, 1]).unwrap(), 1.25, 1e-6));
    // Three on the ace point: a double takes all, any other roll leaves one.
    assert_dist([3, 0, 0, 0, 0, 0], &[0.0, 1.0 / 6.0, 5.0 / 6.0]);
    // Four: the same (a non-double leaves two, off next roll).
    assert_dist([4, 0, 0, 0, 0, 0], &[0.0, 1.0 / 6.0, 5.0 / 6.0]);
    assert!(close(db().expected_rolls(&[4, 0, 0, 0, 0, 0]).unwrap(), 11.0 / 6.0, 1e-6));
    // Two on the 6-point: a non-double bears off at most one (the other
    // checker would need a 6 by one die). Doubles: 1-1 (4 pips) and 2-2 (8)
    // fall short of 12; 3-3 plays 6/3/off twice; 4-4 6/2 6/2 then both off
    // from the 2-point, now the highest; 5-5 6/1 6/1 1/off 1/off; 6-6. So
    // P(1 roll) = 4/36.
    let d = db().distribution(&[0, 0, 0, 0, 0, 2]).unwrap();
    assert!(close(d[1], 4.0 / 36.0, 1e-6), "{d:?}");
}

/// Fifteen checkers on the ace point: no choice of move; a double removes
/// four, any other roll two. An independent recursion over the count.
#[test]
fn all_on_the_ace_point_follow_the_simple_recursion() {
    for n in 1..=15usize {
        // dist[n][k] by f(n, k) = 1/6 f(n-4, k-1) + 5/6 f(n-2, k-1).
        let mut f = vec![vec![0.0f64; 10]; 16];
        f[0][0] = 1.0;
        for m in 1..=n {
            for k in 1..10 {
                f[m][k] = f[m.saturating_sub(4)][k - 1] / 6.0 + 5.0 * f[m.saturating_sub(2)][k - 1] / 6.0;
            }
        }
        let mut points = [0u8; 6];
        points[0] = n as u8;
        let d = db().distribution(&points).unwrap();
        for (k, &p) in d.iter().enumerate() {
            assert!(close(p, f[n][k], 1e-6), "{n} on the ace, k={k}: {p} vs {}", f[n][k]);
        }
        assert!(f[n][d.len()..].iter().all(|&p| p == 0.0));
    }
}

#[test]
fn distributions_sum_to_one_and_means_agree() {
    let db = db();
    let mut longest = 0;
    for r in 0..LAYOUTS {
        let l = layout(r).unwrap();
        let d = db.distribution(&l).unwrap();
        let sum: f64 = d.iter().map(|&p| f64::from(p)).sum();
        assert!((sum - 1.0).abs() < 1e-5, "{l:?} sums to {sum}");
        assert!(d.last().is_some_and(|&p| p > 0.0), "{l:?}");
        let mean: f64 = d.iter().enumerate().map(|(k, &p)| k as f64 * f64::from(p)).sum();
        assert!(close(db.expected_rolls(&l).unwrap(), mean, 1e-4), "{l:?}");
        longest = longest.max(d.len() - 1);
        let g = db.first_off_distribution(&l).unwrap();
        let gsum: f64 = g.iter().map(|&p| f64::from(p)).sum();
        assert!((gsum - 1.0).abs() < 1e-5, "{l:?} first-off sums to {gsum}");
        let total: u8 = l.iter().sum();
        if total < 15 {
            assert_eq!(g, &[1.0]);
            assert_eq!(db.expected_rolls_to_first_off(&l).unwrap(), 0.0);
        }
    }
    assert_eq!(longest, db.max_rolls());
    // 15 on the 6-point: 90 pips. It is the slowest layout.
    let slowest = db.distribution(&[0, 0, 0, 0, 0, 15]).unwrap();
    assert_eq!(slowest.len() - 1, db.max_rolls());
    println!("max rolls = {}", db.max_rolls());
}

/// Adding a checker anywhere never shortens the bear-off. (Moving a checker
/// to a higher point sometimes does: with 3 on the ace and one on the
/// 3-point, a 2-1 cannot bear off two checkers, while 2, 1, 1 on the lowest
/// three points can; so only additions are checked.)
#[test]
fn adding_a_checker_never_helps() {
    let db = db();
    for r in 0..LAYOUTS {
        let l = layout(r).unwrap();
        let e = db.expected_rolls(&l).unwrap();
        if l.iter().sum::<u8>() == 15 {
            continue;
        }
        for p in 0..6 {
            let mut more = l;
            more[p] += 1;
            assert!(db.expected_rolls(&more).unwrap() >= e, "{more:?} vs {l:?}");
        }
    }
    // The paradox above, by hand in expected rolls: moving up helps here.
    assert!(db.expected_rolls(&[2, 1, 1, 0, 0, 0]).unwrap() < db.expected_rolls(&[3, 0, 1, 0, 0, 0]).unwrap());
}

/// The stored values satisfy the Bellman equation with the best move found
/// among *all* results of the plain move generator (not the chains the
/// builder uses), for every 7th layout.
#[test]
fn bellman_equation_against_the_move_generator() {
    let db = db();
    for r in (1..LAYOUTS).step_by(7) {
        let l = layout(r).unwrap();
        let mut e = 1.0f64;
        let mut d = vec![0.0f64; db.distribution(&l).unwrap().len()];
        let full = l.iter().sum::<u8>() == 15;
        let mut eg = 1.0f64;
        for dice in ALL_ROLLS {
            let w = f64::from(dice.weight()) / 36.0;
            let results = successors(&l, dice).unwrap();
            let best = results.iter().map(|n| db.expected_rolls(n).unwrap()).fold(f32::INFINITY, f32::min);
            assert_eq!(db.expected_rolls(&db.best_move(&l, dice).unwrap()).unwrap(), best);
            e += w * f64::from(best);
            let chosen = db.best_move(&l, dice).unwrap();
            for (k, &p) in db.distribution(&chosen).unwrap().iter().enumerate() {
                d[k + 1] += w * f64::from(p);
            }
            if full {
                let g =
                    results.iter().map(|n| db.expected_rolls_to_first_off(n).unwrap()).fold(f32::INFINITY, f32::min);
                eg += w * f64::from(g);
            }
        }
        assert!(close(db.expected_rolls(&l).unwrap(), e, 1e-5), "{l:?}");
        for (k, (&p, &q)) in db.distribution(&l).unwrap().iter().zip(&d).enumerate() {
            assert!(close(p, q, 1e-5), "{l:?} k={k}: {p} vs {q}");
        }
        if full {
            assert!(close(db.expected_rolls_to_first_off(&l).unwrap(), eg, 1e-5), "{l:?}");
        }
    }
}

/// Taper_Mike's count on BGonline.org (7 Nov 2013), from his own one-sided
/// database built with the same min-expected-rolls (EPC) policy: of the
/// 54,263 non-empty layouts times 21 rolls, 3,825 (layout, non-double roll)
/// pairs can bear a checker off but play best bearing none off; among them
/// only one has two checkers left (6/off loses to 5/1 4/2 ... with 2-1 next
/// turn).
#[test]
fn published_count_of_positions_where_bearing_off_is_wrong() {
    let db = db();
    let (mut strict, mut two_left) = (0, 0);
    for r in 1..LAYOUTS {
        let l = layout(r).unwrap();
        let total: u8 = l.iter().sum();
        for dice in ALL_ROLLS.iter().filter(|d| !d.is_double()) {
            let results = successors(&l, *dice).unwrap();
            let best_of = |off: bool| {
                results
                    .iter()
                    .filter(|n| (n.iter().sum::<u8>() < total) == off)
                    .map(|n| db.expected_rolls(n).unwrap())
                    .fold(f32::INFINITY, f32::min)
            };
            let (with_off, without) = (best_of(true), best_of(false));
            if with_off.is_finite() && without < with_off {
                strict += 1;
                if total == 2 {
                    two_left += 1;
                }
            }
        }
    }
    println!("non-double rolls where bearing off is possible but wrong: {strict}, with two checkers: {two_left}");
    assert_eq!(two_left, 1);
    assert_eq!(strict, 3825);
}

/// A tiny deterministic generator (splitmix64) for the Monte Carlo test.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn die(&mut self) -> u8 {
        (self.next() % 6) as u8 + 1
    }
}

/// Playing the database's own policy with random dice, the average number of
/// rolls matches the stored expectation (within 4 standard errors).
#[test]
fn monte_carlo_agrees_with_the_expected_rolls() {
    let db = db();
    let mut rng = SplitMix(20_240_601);
    for start in [[0, 0, 0, 5, 5, 5], [3, 2, 2, 3, 3, 2], [0, 0, 0, 0, 0, 15]] {
        let n = 4000;
        let (mut sum, mut sum2) = (0.0f64, 0.0f64);
        let mut within_mode = 0;
        let d = db.distribution(&start).unwrap();
        let mode = (0..d.len()).max_by(|&a, &b| d[a].total_cmp(&d[b])).unwrap();
        for _ in 0..n {
            let mut l = start;
            let mut rolls = 0u32;
            while l.iter().any(|&c| c > 0) {
                let dice = Dice::new(rng.die(), rng.die()).unwrap();
                l = db.best_move(&l, dice).unwrap();
                rolls += 1;
            }
            sum += f64::from(rolls);
            sum2 += f64::from(rolls * rolls);
            within_mode += usize::from(rolls as usize == mode);
        }
        let mean = sum / f64::from(n);
        let sd = (sum2 / f64::from(n) - mean * mean).sqrt();
        let expected = f64::from(db.expected_rolls(&start).unwrap());
        assert!((mean - expected).abs() < 4.0 * sd / f64::from(n).sqrt(), "{start:?}: MC {mean} vs {expected}");
        let p = f64::from(d[mode]);
        let freq = within_mode as f64 / f64::from(n);
        assert!((freq - p).abs() < 4.0 * (p * (1.0 - p) / f64::from(n)).sqrt(), "{start:?}: P({mode}) {freq} vs {p}");
    }
}

#[test]
fn hand_computed_races() {
    let db = db();
    // Both sides one checker on the ace point: the side on roll wins.
    let p = db.evaluate(&race([1, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0])).unwrap();
    assert_eq!(p.win, 1.0);
    assert_eq!((p.win_gammon, p.lose_gammon), (0.0, 0.0));
    // Us one on the 6-point, them one on the ace: we win iff we get off at
    // once, 27/36.
    let p = db.evaluate(&race([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])).unwrap();
    assert!(close(p.win, 0.75, 1e-6), "{p:?}");
    // Us one on the ace point against 15 on their 6-point: a sure gammon.
    let p = db.evaluate(&race([1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 15])).unwrap();
    assert_eq!((p.win, p.win_gammon, p.win_backgammon), (1.0, 1.0, 0.0));
    // Us one on the 6-point against 15 on their 6-point: we always win (we
    // need at most 2 rolls, they at least 4). Gammon unless we miss (9/36)
    // and they then bear a checker off in one roll. From 15 on the 6-point
    // that takes a 6 (11/36), or an exact 6 with the other dice: 5-1, 4-2
    // (4/36), 3-3 (6/3/off), 2-2 (6/4/2/off) (2/36); 4-4 and 5-5 land on the
    // 2 and 1 with the 6-point still occupied; 1-1 and other sums short or
    // not exact: 17/36. Wg = 27/36 + 9/36 * 19/36 = 127/144.
    let p = db.evaluate(&race([0, 0, 0, 0, 0, 1], [0, 0, 0, 0, 0, 15])).unwrap();
    assert!(close(p.win, 1.0, 1e-6), "{p:?}");
    assert!(close(p.win_gammon, 127.0 / 144.0, 1e-6), "{p:?}");
    assert!(close(db.first_off_distribution(&[0, 0, 0, 0, 0, 15]).unwrap()[1], 17.0 / 36.0, 1e-6));
    // Reversed: 15 on our 6-point against their last checker on the ace:
    // they finish on their first roll; we are gammoned unless a checker
    // comes off on our roll, 19/36.
    let p = db.evaluate(&race([0, 0, 0, 0, 0, 15], [1, 0, 0, 0, 0, 0])).unwrap();
    assert_eq!(p.win, 0.0);
    assert!(close(p.lose_gammon, 19.0 / 36.0, 1e-6), "{p:?}");
    // Three on our ace point vs two on theirs: we win only with a double,
    // 1/6; never a gammon either way (checkers are off already).
    let p = db.evaluate(&race([3, 0, 0, 0, 0, 0], [2, 0, 0, 0, 0, 0])).unwrap();
    assert!(close(p.win, 1.0 / 6.0, 1e-6), "{p:?}");
    assert_eq!((p.win_gammon, p.lose_gammon), (0.0, 0.0));
}

#[test]
fn non_bearoff_positions_are_refused_and_the_fallback_is_sane() {
    let db = db();
    assert_eq!(db.evaluate(&Position::STARTING), None);
    assert_eq!(home_layouts(&Position::STARTING), None);
    // A checker on the 7-point, or on the bar.
    let mut a = [0u8; 25];
    a[6] = 1;
    let mut b = [0u8; 25];
    b[0] = 1;
    let pos = Position::from_boards(&a, &b).unwrap();
    assert_eq!(db.evaluate(&pos), None);
    a[6] = 0;
    a[24] = 1;
    assert_eq!(db.evaluate(&Position::from_boards(&a, &b).unwrap()), None);
    // The trait never fails, never NaN; in-database positions get the
    // database value.
    let positions = [Position::STARTING, pos, race([0, 0, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0])];
    let mut out = [Probabilities::default(); 3];
    db.evaluate_batch(&positions, &mut out);
    assert!(out.iter().all(|p| p.to_array().iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v))));
    assert!((out[0].win - 0.5).abs() < 0.2, "{:?}", out[0]);
    assert!(close(out[2].win, 0.75, 1e-6));
    assert_eq!(db.name(), "bearoff1");
    // Mismatched lengths: no panic.
    db.evaluate_batch(&positions, &mut out[..1]);
    // Bad layouts are errors.
    assert!(db.distribution(&[16, 0, 0, 0, 0, 0]).is_err());
    assert!(db.evaluate_layouts(&[9, 9, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]).is_err());
    assert!(successors(&[8, 8, 0, 0, 0, 0], Dice::new(1, 1).unwrap()).is_err());
    assert!(index(&[0, 0, 0, 0, 0, 16]).is_err());
}

/// Finished games (one side has nothing left) get their exact value.
#[test]
fn finished_positions_match_the_game_result() {
    let db = db();
    for (us, them) in [
        ([0; 6], [0, 0, 0, 0, 0, 15]),
        ([0; 6], [1, 0, 0, 0, 0, 0]),
        ([0, 0, 0, 0, 0, 15], [0; 6]),
        ([1, 2, 0, 0, 0, 0], [0; 6]),
    ] {
        let pos = race(us, them);
        assert_eq!(db.evaluate(&pos), Probabilities::of_finished(&pos), "{us:?} {them:?}");
    }
}

/// gnubg's evaluations of bearoff positions: `bearoff1` = its one-sided
/// database (the same policy: expect near-exact agreement, gnubg keeps 32
/// rolls in 16-bit fixed point), `bearoff2` = its exact two-sided database
/// (expect small differences in winning chances).
#[test]
fn agrees_with_gnubg_bearoff_evaluations() {
    let db = db();
    let mut worst = [(0.0f64, String::new()), (0.0f64, String::new())];
    let mut worst_gammon = 0.0f64;
    let mut counts = [0, 0];
    for v in read_oracle::<EvalRecord>("eval.jsonl") {
        let class = v.class.as_str();
        let which = match class {
            "bearoff1" => 0,
            "bearoff2" => 1,
            _ => continue,
        };
        let id = v.pos.as_str();
        let pos = Position::from_position_id(id).unwrap();
        let ours = db.evaluate(&pos).unwrap_or_else(|| panic!("{id} ({class}) is not a bearoff position"));
        let gnubg = v.ply0;
        counts[which] += 1;
        let dw = (f64::from(ours.win) - gnubg[0]).abs();
        if dw > worst[which].0 {
            worst[which] = (dw, id.to_string());
        }
        let dg = (f64::from(ours.win_gammon) - gnubg[1]).abs().max((f64::from(ours.lose_gammon) - gnubg[3]).abs());
        worst_gammon = worst_gammon.max(dg);
        assert_eq!((ours.win_backgammon, ours.lose_backgammon), (0.0, 0.0));
        assert!(gnubg[2] == 0.0 && gnubg[4] == 0.0);
    }
    println!(
        "bearoff1: {} positions, max |dP(win)| = {:.2e} ({}); max |d gammon| = {:.2e}",
        counts[0], worst[0].0, worst[0].1, worst_gammon
    );
    println!("bearoff2: {} positions, max |dP(win)| = {:.2e} ({})", counts[1], worst[1].0, worst[1].1);
    assert!(counts[0] >= 50 && counts[1] >= 5, "{counts:?}");
    assert!(worst[0].0 < 1e-4, "bearoff1 {worst:?}");
    assert!(worst_gammon < 1e-4, "gammons {worst_gammon}");
    assert!(worst[1].0 < 2e-3, "bearoff2 {worst:?}");
}

/// Building twice gives the same tables (the build is deterministic) and
/// the shared instance is built once.
#[test]
fn shared_instance_is_the_built_database() {
    let a = bearoff_db();
    assert!(std::ptr::eq(a, bearoff_db()));
    let start = std::time::Instant::now();
    let b = BearoffDb::build();
    println!("build: {:?} (this profile), {} bytes", start.elapsed(), b.memory_bytes());
    for r in (0..LAYOUTS).step_by(97) {
        let l = layout(r).unwrap();
        assert_eq!(a.distribution(&l).unwrap(), b.distribution(&l).unwrap());
    }
    assert!(b.memory_bytes() < 16 << 20);
}
