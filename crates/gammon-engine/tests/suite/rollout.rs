//! Rollouts: determinism (threads, seeds), agreement with exact bearoff
//! values, variance reduction, truncation, finished games, moves with common
//! random numbers, the cube, the stopping rule and the errors.
//!
//! Run with `--nocapture` to see the figures.
#![allow(clippy::unwrap_used)]

use gammon_engine::cube::{analyse, cube_efficiency, CubeAction, CubeState};
use gammon_engine::met::Met;
use gammon_engine::rollout::{
    rollout_moves, rollout_position, RolloutError, RolloutProgress, RolloutResult, RolloutSettings, BATCH,
};
use gammon_eval::bearoff_two_sided::bearoff_value;
use gammon_eval::{Evaluator, NetEvaluator, Probabilities};
use gammon_rules::{CubeOwner, Dice, Position};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

fn net() -> &'static NetEvaluator {
    static NET: OnceLock<NetEvaluator> = OnceLock::new();
    NET.get_or_init(|| NetEvaluator::shipped().unwrap())
}

fn settings(trials: u64) -> RolloutSettings {
    RolloutSettings { trials, ..RolloutSettings::default() }
}

fn roll(pos: &Position, s: &RolloutSettings) -> RolloutResult {
    rollout_position(net(), pos, s, |_| {}).unwrap()
}

fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap().install(f)
}

/// A position from both sides' boards: `(point, checkers)` lists, each side
/// in its own numbering (25 = bar).
fn position(on_roll: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    let board = |l: &[(usize, u8)]| {
        let mut b = [0u8; 25];
        for &(p, n) in l {
            b[p - 1] = n;
        }
        b
    };
    Position::from_boards(&board(on_roll), &board(opponent)).unwrap()
}

/// A middle-game contact position (gnubg's Position ID).
fn contact() -> Position {
    // After 31: 8/5 6/5 by the opponent, the player on roll to move.
    let after = Position::STARTING.legal_moves(Dice::new(3, 1).unwrap());
    let best = net().best_move(&Position::STARTING, after.positions());
    after.positions()[best]
}

#[test]
fn one_and_two_threads_give_identical_results() {
    for s in [
        RolloutSettings { trials: 100, ..RolloutSettings::default() },
        RolloutSettings { trials: 77, variance_reduction: false, cubeful: true, seed: 3, ..RolloutSettings::default() },
        RolloutSettings { trials: 60, cubeful: true, truncate: Some(12), ..RolloutSettings::default() },
    ] {
        let one = in_pool(1, || roll(&Position::STARTING, &s));
        let two = in_pool(2, || roll(&Position::STARTING, &s));
        assert_eq!(one, two, "{s:?}");
        assert_eq!(one.trials, s.trials);
        let bits = |r: &RolloutResult| r.probabilities.map(|e| e.mean.to_bits());
        assert_eq!(bits(&one), bits(&two));
        assert_eq!(one.equity.standard_error.to_bits(), two.equity.standard_error.to_bits());
    }
    let s = RolloutSettings { trials: 50, truncate: Some(10), candidates: Some(5), ..RolloutSettings::default() };
    let d = Dice::new(4, 3).unwrap();
    let one = in_pool(1, || rollout_moves(net(), &Position::STARTING, d, &s, |_| {}).unwrap());
    let two = in_pool(2, || rollout_moves(net(), &Position::STARTING, d, &s, |_| {}).unwrap());
    assert_eq!(one, two);
}

#[test]
fn the_seed_decides_the_result() {
    let s = RolloutSettings { trials: 72, truncate: Some(20), ..RolloutSettings::default() };
    let a = roll(&contact(), &s);
    let b = roll(&contact(), &s);
    let c = roll(&contact(), &RolloutSettings { seed: s.seed + 1, ..s });
    assert_eq!(a, b);
    assert_ne!(a.equity.mean, c.equity.mean);
    // Different seeds agree within the noise.
    let se = (a.equity.standard_error.powi(2) + c.equity.standard_error.powi(2)).sqrt();
    assert!((a.equity.mean - c.equity.mean).abs() < 4.0 * se + 1e-9, "{a:?}\n{c:?}");
}

#[test]
fn bearoff_rollouts_agree_with_the_database() {
    // Both sides home, a few checkers each; played out to the end.
    let cases = [
        position(&[(2, 1), (4, 1), (6, 1)], &[(1, 1), (3, 1), (5, 2)]),
        position(&[(1, 2), (5, 2), (6, 1)], &[(2, 2), (4, 1), (6, 2)]),
        position(&[(6, 3)], &[(1, 3), (2, 1)]),
    ];
    for pos in cases {
        let exact = bearoff_value(&pos).unwrap();
        for vr in [false, true] {
            let s =
                RolloutSettings { trials: 1296, bearoff_exact: false, variance_reduction: vr, ..Default::default() };
            let r = roll(&pos, &s);
            println!(
                "{} vr {vr}: win {:.4} ± {:.4} (database {:.4}), equity {:+.4} ± {:.4}",
                pos.to_position_id(),
                r.probabilities[0].mean,
                r.probabilities[0].standard_error,
                exact.win,
                r.equity.mean,
                r.equity.standard_error
            );
            // The rollout players follow the database's values move by move,
            // the database assumes its own (fewest rolls) policy: allow a
            // little for that on top of the 95% interval.
            let policy = 0.005;
            let e = &r.probabilities[0];
            assert!((e.mean - f64::from(exact.win)).abs() <= 1.96 * e.standard_error + policy, "{r:?} vs {exact:?}");
            assert!(
                (r.equity.mean - f64::from(exact.equity())).abs() <= 1.96 * r.equity.standard_error + 2.0 * policy,
                "{r:?}"
            );
            if !vr {
                assert!(e.standard_error > 0.0);
            }
        }
        // With the shortcut the rollout is the database's value exactly.
        let r = roll(&pos, &settings(10));
        assert_eq!(r.probabilities[0].mean, f64::from(exact.win));
        assert_eq!(r.equity.standard_error, 0.0);
    }
}

#[test]
fn variance_reduction_lowers_the_standard_error() {
    let pos = contact();
    let s = RolloutSettings { trials: 144, ..RolloutSettings::default() };
    let with = roll(&pos, &s);
    let without = roll(&pos, &RolloutSettings { variance_reduction: false, ..s });
    println!("with vr {:?}\nwithout {:?}", with.equity, without.equity);
    assert!(with.equity.standard_error < 0.6 * without.equity.standard_error, "{with:?}\n{without:?}");
    // Win, win gammon, lose gammon (backgammons are too rare in 144 games:
    // without adjustment there may be none at all, hence no spread).
    for i in [0, 1, 3] {
        assert!(with.probabilities[i].standard_error < without.probabilities[i].standard_error, "output {i}");
    }
    let se = (with.equity.standard_error.powi(2) + without.equity.standard_error.powi(2)).sqrt();
    assert!((with.equity.mean - without.equity.mean).abs() < 4.0 * se);
    // Both near the static evaluation of an opening position.
    let stat = f64::from(net().evaluate(&pos).equity());
    assert!((with.equity.mean - stat).abs() < 0.15, "{} vs {stat}", with.equity.mean);
}

#[test]
fn truncation_at_depth_zero_is_the_static_evaluation() {
    let pos = contact();
    let p = net().evaluate(&pos);
    for cubeful in [false, true] {
        let r = roll(&pos, &RolloutSettings { trials: 40, truncate: Some(0), cubeful, ..RolloutSettings::default() });
        assert_eq!(r.trials, 40);
        assert_eq!(r.mean_probabilities(), p);
        assert_eq!(r.probabilities.map(|e| e.mean), p.to_array().map(f64::from));
        assert!(r.probabilities.iter().all(|e| e.standard_error == 0.0));
        assert!((r.equity.mean - f64::from(p.equity())).abs() < 1e-6);
        assert_eq!(r.equity.standard_error, 0.0);
        if cubeful {
            let state = CubeState::money(1, CubeOwner::Centered, false, false);
            let a = analyse(&p.sanitized(), cube_efficiency(&pos), &state, Met::kazaross_xg2()).unwrap();
            let c = r.cubeful.unwrap();
            assert!((c.mean - a.best()).abs() < 1e-12, "{c:?} vs {}", a.best());
            assert_eq!(c.standard_error, 0.0);
        } else {
            assert!(r.cubeful.is_none());
        }
    }
    // A shallow truncation moves away from it, with noise.
    let r = roll(&pos, &RolloutSettings { trials: 40, truncate: Some(2), ..RolloutSettings::default() });
    assert!(r.equity.standard_error > 0.0);
}

#[test]
fn finished_positions_have_their_exact_value() {
    // The opponent has borne everything off; the player on roll has all 15
    // at home: a gammon loss. And the mirror: a win.
    let lost = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
    for pos in [lost, lost.switched()] {
        let exact = Probabilities::of_finished(&pos).unwrap();
        for vr in [false, true] {
            let s = RolloutSettings { trials: 20, variance_reduction: vr, cubeful: true, ..RolloutSettings::default() };
            let r = roll(&pos, &s);
            assert_eq!(r.mean_probabilities(), exact);
            assert_eq!(r.equity.mean, f64::from(exact.equity()));
            assert_eq!(r.cubeful.unwrap().mean, f64::from(exact.equity()));
            assert_eq!(r.equity.standard_error, 0.0);
        }
    }
    assert_eq!(
        rollout_moves(net(), &lost, Dice::new(6, 6).unwrap(), &settings(10), |_| {}).unwrap_err(),
        RolloutError::GameOver
    );
}

#[test]
fn moves_share_their_dice_and_rank_by_rollout() {
    let s = RolloutSettings {
        trials: 144,
        truncate: Some(8),
        candidates: Some(4),
        variance_reduction: false,
        ..RolloutSettings::default()
    };
    let moves = rollout_moves(net(), &Position::STARTING, Dice::new(3, 1).unwrap(), &s, |_| {}).unwrap();
    assert_eq!(moves.len(), 4);
    for w in moves.windows(2) {
        assert!(w[0].rollout.equity.mean >= w[1].rollout.equity.mean);
    }
    assert_eq!(moves[0].difference.mean, 0.0);
    assert_eq!(moves[0].difference.standard_error, 0.0);
    let best = Position::STARTING.format_move(&moves[0].mv);
    assert_eq!(best, "8/5 6/5", "{moves:#?}");
    // Common random numbers: the same dice make the values of two moves
    // positively correlated, so their differences are known better than if
    // they had been rolled out independently. Taken over the three
    // differences together: one move's correlation with the best, estimated
    // from 144 games, can come out near zero (it depends on the net).
    let (mut paired, mut independent) = (0.0, 0.0);
    for m in &moves[1..] {
        assert!(m.difference.mean < 0.0);
        let diff = m.rollout.equity.mean - moves[0].rollout.equity.mean;
        assert!((m.difference.mean - diff).abs() < 1e-12);
        let alone = m.rollout.equity.standard_error.hypot(moves[0].rollout.equity.standard_error);
        println!(
            "{}: difference SE {:.4}, independent {alone:.4} (correlation with the best about {:.2})",
            Position::STARTING.format_move(&m.mv),
            m.difference.standard_error,
            1.0 - (m.difference.standard_error / alone).powi(2)
        );
        paired += m.difference.standard_error.powi(2);
        independent += alone.powi(2);
    }
    assert!(paired < 0.9 * independent, "{moves:?}");
    // With luck adjustment the values themselves are precise.
    let vr = RolloutSettings { variance_reduction: true, ..s };
    let adjusted = rollout_moves(net(), &Position::STARTING, Dice::new(3, 1).unwrap(), &vr, |_| {}).unwrap();
    assert_eq!(Position::STARTING.format_move(&adjusted[0].mv), "8/5 6/5");
    for (a, m) in adjusted.iter().zip(&moves) {
        println!(
            "{:>12} {:+.4} ± {:.4} (no vr {:+.4} ± {:.4}), difference {:+.4} ± {:.4}",
            Position::STARTING.format_move(&a.mv),
            a.rollout.equity.mean,
            a.rollout.equity.standard_error,
            m.rollout.equity.mean,
            m.rollout.equity.standard_error,
            a.difference.mean,
            a.difference.standard_error
        );
        assert!(a.rollout.equity.standard_error < m.rollout.equity.standard_error);
    }
    // A move's rollout is the rollout of its result, from the mover's side.
    let m = &moves[1];
    let alone = roll(&m.result, &RolloutSettings { candidates: None, ..s });
    assert!((alone.equity.mean + m.rollout.equity.mean).abs() < 1e-9);
    assert!((alone.probabilities[0].mean - (1.0 - m.rollout.probabilities[0].mean)).abs() < 1e-9);
    assert!((alone.probabilities[3].mean - m.rollout.probabilities[1].mean).abs() < 1e-12);
}

#[test]
fn no_legal_move_is_rolled_out_as_the_pass() {
    // The player on roll is on the bar against a closed board.
    let pos = position(&[(25, 1), (6, 14)], &[(1, 2), (2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 3)]);
    let moves = rollout_moves(net(), &pos, Dice::new(5, 2).unwrap(), &settings(12), |_| {}).unwrap();
    assert_eq!(moves.len(), 1);
    assert!(moves[0].mv.is_empty());
    assert_eq!(moves[0].result, pos.switched());
}

#[test]
fn the_cube_is_used() {
    // The player on roll far ahead in a race, no gammons (the opponent has
    // borne off): double, pass at once, so every trial is worth one point.
    let race = position(&[(8, 2), (2, 2)], &[(6, 4), (5, 4)]);
    let p = net().evaluate(&race);
    let state = CubeState::money(1, CubeOwner::Centered, false, false);
    let a = analyse(&p, cube_efficiency(&race), &state, Met::kazaross_xg2()).unwrap();
    assert_eq!(a.action, CubeAction::DoublePass, "{p:?}");
    let r = roll(&race, &RolloutSettings { trials: 36, cubeful: true, ..RolloutSettings::default() });
    let c = r.cubeful.unwrap();
    assert_eq!((c.mean, c.standard_error), (1.0, 0.0));
    assert!(r.equity.mean > 0.8);

    // From the start: cubeful and cubeless agree roughly, and the cubeful
    // value is noisier (the cube doubles the swings).
    let s = RolloutSettings { trials: 144, cubeful: true, variance_reduction: false, ..RolloutSettings::default() };
    let r = roll(&contact(), &s);
    let c = r.cubeful.unwrap();
    println!("cubeless {:?}\ncubeful {c:?}", r.equity);
    assert!((c.mean - r.equity.mean).abs() < 0.5);
    assert!(c.standard_error > r.equity.standard_error);
    // Luck adjustment keeps the cubeful mean and narrows it.
    let v = roll(&contact(), &RolloutSettings { variance_reduction: true, ..s });
    let cv = v.cubeful.unwrap();
    println!("cubeful with vr {cv:?}");
    assert!(cv.standard_error < c.standard_error);
    assert!((cv.mean - c.mean).abs() < 4.0 * (cv.standard_error.powi(2) + c.standard_error.powi(2)).sqrt());
}

#[test]
fn a_target_standard_error_stops_after_a_block() {
    let calls = AtomicU64::new(0);
    let last = AtomicU64::new(0);
    let s = RolloutSettings {
        trials: 10 * BATCH,
        truncate: Some(2),
        variance_reduction: false,
        target_se: Some(0.5),
        ..RolloutSettings::default()
    };
    let r = rollout_position(net(), &contact(), &s, |p: &RolloutProgress| {
        calls.fetch_add(1, Ordering::Relaxed);
        last.store(p.trials, Ordering::Relaxed);
        assert!(p.trials <= p.max_trials);
    })
    .unwrap();
    assert_eq!(r.trials, BATCH);
    assert!(r.target_reached);
    assert!(r.equity.standard_error <= 0.5);
    assert!(calls.load(Ordering::Relaxed) >= 1);
    assert_eq!(last.load(Ordering::Relaxed), BATCH);
    // An unreachable target plays every trial.
    let s = RolloutSettings { trials: 2 * BATCH, target_se: Some(1e-9), ..s };
    let r = roll(&contact(), &s);
    assert_eq!(r.trials, 2 * BATCH);
    assert!(!r.target_reached);
}

#[test]
fn one_ply_players_work() {
    let s = RolloutSettings { trials: 12, ply: 1, truncate: Some(3), ..RolloutSettings::default() };
    let r = roll(&contact(), &s);
    assert_eq!(r.trials, 12);
    assert!((0.2..0.8).contains(&r.probabilities[0].mean), "{r:?}");
    let r0 = roll(&contact(), &RolloutSettings { ply: 0, ..s });
    assert!((r.equity.mean - r0.equity.mean).abs() < 0.5);
}

#[test]
fn two_ply_players_work_the_same_at_any_thread_count() {
    let s = RolloutSettings { trials: 4, ply: 2, truncate: Some(4), ..RolloutSettings::default() };
    let r = roll(&contact(), &s);
    assert_eq!(r.trials, 4);
    assert!((0.2..0.8).contains(&r.probabilities[0].mean), "{r:?}");
    let r1 = in_pool(1, || roll(&contact(), &s));
    let r2 = in_pool(2, || roll(&contact(), &s));
    assert_eq!(format!("{r1:?}"), format!("{r2:?}"));
}

#[test]
fn bad_settings_are_errors() {
    let pos = Position::STARTING;
    let err = |s: RolloutSettings| rollout_position(net(), &pos, &s, |_| {}).unwrap_err();
    assert_eq!(err(settings(0)), RolloutError::NoTrials);
    assert_eq!(err(RolloutSettings { ply: 3, ..settings(5) }), RolloutError::UnsupportedPly(3));
    assert!(matches!(err(RolloutSettings { target_se: Some(-1.0), ..settings(5) }), RolloutError::TargetSe(_)));
    assert!(matches!(err(RolloutSettings { target_se: Some(f64::NAN), ..settings(5) }), RolloutError::TargetSe(_)));
    let d = Dice::new(3, 1).unwrap();
    assert_eq!(
        rollout_moves(net(), &pos, d, &RolloutSettings { candidates: Some(0), ..settings(5) }, |_| {}).unwrap_err(),
        RolloutError::NoCandidates
    );
    assert!(!RolloutError::NoTrials.to_string().is_empty());
}
