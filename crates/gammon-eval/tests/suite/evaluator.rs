//! The shipped evaluator on gnubg's evaluation positions: consistent
//! probabilities, exact finished games, and how far it is from gnubg.
#![allow(clippy::unwrap_used)]

use gammon_eval::{Evaluator, NetEvaluator, PositionClass, Probabilities};
use gammon_rules::Position;
use gammon_testkit::{read_oracle, EvalRecord};

fn eval_records() -> Vec<EvalRecord> {
    read_oracle("eval.jsonl")
}

fn check_consistent(p: Probabilities) {
    for x in p.to_array() {
        assert!((0.0..=1.0).contains(&x), "{p:?}");
    }
    assert!(p.win_backgammon <= p.win_gammon && p.win_gammon <= p.win, "{p:?}");
    assert!(p.lose_backgammon <= p.lose_gammon && p.lose_gammon <= 1.0 - p.win + 1e-6, "{p:?}");
    assert!((-3.0..=3.0).contains(&p.equity()));
}

#[test]
fn shipped_net_is_consistent_on_gnubg_positions_and_close_to_gnubg() {
    let net = NetEvaluator::shipped().unwrap();
    let records = eval_records();
    let mut diffs = Vec::new();
    for r in &records {
        let pos = Position::from_position_id(&r.pos).unwrap();
        let p = net.evaluate(&pos);
        check_consistent(p);
        let gnubg = r.ply0[5];
        diffs.push((f64::from(p.equity()) - gnubg).abs());
    }
    let mean = diffs.iter().sum::<f64>() / diffs.len() as f64;
    eprintln!("mean |equity - gnubg 0-ply| over {} positions: {mean:.4}", diffs.len());
    // A trained net is far closer to gnubg than a coin (about 0.6).
    assert!(mean < 0.25, "{mean}");
}

#[test]
fn bearoff_positions_agree_with_gnubg_closely() {
    let net = NetEvaluator::shipped().unwrap();
    for r in eval_records().iter().filter(|r| r.class == "bearoff1") {
        let pos = Position::from_position_id(&r.pos).unwrap();
        let (p, class) = net.evaluate_with(&pos, &mut net.scratch());
        assert_eq!(class, PositionClass::Bearoff);
        let win = r.ply0[0];
        assert!((f64::from(p.win) - win).abs() < 1e-3, "{}", r.pos);
    }
}

#[test]
fn finished_games_are_exact_and_symmetric() {
    let net = NetEvaluator::shipped().unwrap();
    // The side not on roll has borne off everything; the loser's checkers
    // decide single, gammon or backgammon.
    let mut cases = Vec::new();
    for (point, n) in [(6usize, 14u8), (6, 15), (20, 15), (25, 15)] {
        let mut me = [0u8; 25];
        me[point - 1] = n;
        cases.push(Position::from_boards(&me, &[0; 25]).unwrap());
    }
    for pos in cases {
        let p = net.evaluate(&pos);
        let q = net.evaluate(&pos.switched());
        assert_eq!(p, Probabilities::of_finished(&pos).unwrap());
        assert_eq!(p, q.inverted(), "{pos:?}");
        assert!(p.equity() <= -1.0);
    }
}

/// Our game phases are gnubg's evaluator classes on every oracle position:
/// contact and crashed (gnubg's `ClassifyPosition`) exactly, and gnubg's
/// races and bearoffs on our side of the race/bearoff line.
#[test]
fn position_classes_are_gnubgs() {
    let mut crashed = 0;
    for r in eval_records() {
        let pos = Position::from_position_id(&r.pos).unwrap();
        let ours = PositionClass::of(&pos);
        let expected: &[PositionClass] = match r.class.as_str() {
            "contact" => &[PositionClass::Contact],
            "crashed" => &[PositionClass::Crashed],
            // gnubg's race class includes bearoffs beyond its databases.
            "race" => &[PositionClass::Race, PositionClass::Bearoff],
            "bearoff1" | "bearoff2" => &[PositionClass::Bearoff],
            other => panic!("unknown class {other}"),
        };
        assert!(expected.contains(&ours), "{}: gnubg {}, ours {ours}", r.pos, r.class);
        crashed += usize::from(ours == PositionClass::Crashed);
    }
    assert!(crashed > 100, "{crashed}");
}
