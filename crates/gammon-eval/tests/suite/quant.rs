//! The quantised nets play as their float originals: over every roll of
//! wildbg's contact positions, how often both choose the same move and how
//! far apart their evaluations are, for the shipped 128-unit net and a
//! 256-unit net grown from it.
//!
//! The whole measurement (1,000 positions, about 0.4 M evaluations per net):
//! `cargo test --release -p gammon-eval --test suite quant::full -- --ignored --nocapture`.
#![allow(clippy::unwrap_used)]

use gammon_eval::mlp::Mlp;
use gammon_eval::net::{evaluate_position, Quantise, Scratch};
use gammon_eval::{NetEvaluator, NetWeights, PositionClass};
use gammon_rules::{MoveList, Position, ALL_ROLLS};
use gammon_testkit::read_shared;

fn contact_positions() -> Vec<Position> {
    read_shared("bench/contact-1000.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| Position::from_position_id(l.trim()).unwrap())
        .collect()
}

/// The shipped contact net grown to `hidden` units, the new units with random
/// input and output weights (as `benches/eval.rs` builds it), so that they
/// count in the output.
fn wide(net: &Mlp, hidden: usize) -> Mlp {
    let mut big = net.grown(hidden, 0.1, 7);
    let out = Mlp::random(1, hidden, 0.5, 8);
    for k in 0..big.w2.nrows() {
        for j in net.hidden()..hidden {
            big.w2[(k, j)] = out.w2[(k, j)];
        }
    }
    big
}

#[derive(Debug, Default)]
struct Agreement {
    /// Rolls with at least two legal results.
    decisions: usize,
    /// Of those, where both nets choose the same result.
    same: usize,
    /// Contact results evaluated.
    evaluations: usize,
    sum_diff: f64,
    max_diff: f64,
    /// Where the choices differ, how much worse the quantised net's choice
    /// is by the float net's equity (a near tie has a small loss): the sum
    /// and the largest.
    sum_loss: f64,
    max_loss: f64,
}

/// The quantised evaluator against the same weights in float, on every
/// result of every roll of `positions`.
fn agreement(weights: NetWeights, positions: &[Position]) -> Agreement {
    let fast = NetEvaluator::with_quantisation(weights, Quantise::All);
    assert!(fast.is_quantised(&fast.weights().contact) && fast.is_quantised(&fast.weights().race));
    let (mut quick, mut exact) = (fast.scratch(), Scratch::new(fast.weights()));
    let mut list = MoveList::new();
    let mut a = Agreement::default();
    for p in positions {
        for dice in ALL_ROLLS {
            list.generate(p, dice);
            let results = list.positions();
            if results.len() < 2 {
                continue;
            }
            // Each result is seen by the opponent: the best is the lowest.
            let (mut best_q, mut best_f) = ((f32::INFINITY, 0), (f32::INFINITY, 0));
            let mut float_equity = Vec::with_capacity(results.len());
            for (i, r) in results.iter().enumerate() {
                let (q, class) = fast.evaluate_with(r, &mut quick);
                let f = evaluate_position(fast.weights(), r, &mut exact).0;
                let (eq, ef) = (q.equity(), f.equity());
                float_equity.push(ef);
                if class == PositionClass::Contact {
                    let d = f64::from((eq - ef).abs());
                    a.evaluations += 1;
                    a.sum_diff += d;
                    a.max_diff = a.max_diff.max(d);
                }
                if eq < best_q.0 {
                    best_q = (eq, i);
                }
                if ef < best_f.0 {
                    best_f = (ef, i);
                }
            }
            a.decisions += 1;
            a.same += usize::from(best_q.1 == best_f.1);
            let loss = f64::from(float_equity[best_q.1] - best_f.0);
            a.sum_loss += loss;
            a.max_loss = a.max_loss.max(loss);
        }
    }
    a
}

fn report(name: &str, a: &Agreement) -> (f64, f64) {
    let same = a.same as f64 / a.decisions as f64;
    let mean = a.sum_diff / a.evaluations as f64;
    eprintln!(
        "{name}: same move in {} of {} rolls ({:.3}%), the others cost {:.2e} per roll on average (largest {:.2e}) \
         by the float net; |equity difference| over {} contact evaluations: mean {mean:.2e}, max {:.2e}",
        a.same,
        a.decisions,
        100.0 * same,
        a.sum_loss / a.decisions as f64,
        a.max_loss,
        a.evaluations,
        a.max_diff
    );
    (same, mean)
}

fn nets(hidden: usize) -> NetWeights {
    let mut w = NetEvaluator::shipped().unwrap().weights().clone();
    if hidden != w.contact.hidden() {
        w.contact = wide(&w.contact, hidden);
    }
    w
}

#[test]
fn quantised_nets_choose_the_float_nets_moves() {
    let positions = contact_positions();
    let some = &positions[..60];
    for hidden in [128, 256] {
        let a = agreement(nets(hidden), some);
        let (same, mean) = report(&format!("{hidden} hidden, 60 positions"), &a);
        assert!(same >= 0.99, "{hidden}: {a:?}");
        assert!(mean < 1e-3 && a.max_diff < 0.02, "{hidden}: {a:?}");
        assert!(a.max_loss < 0.01, "a different choice is a near tie: {a:?}");
    }
}

#[test]
fn the_evaluator_quantises_the_wide_nets_only() {
    let e = NetEvaluator::new(nets(256));
    assert!(e.is_quantised(&e.weights().contact) && !e.is_quantised(&e.weights().race));
    // Another evaluator's net, even with equal weights, is not this one's.
    let other = NetEvaluator::new(nets(256));
    assert!(!e.is_quantised(&other.weights().contact));
    let e = NetEvaluator::with_quantisation(nets(256), Quantise::None);
    assert!(!e.is_quantised(&e.weights().contact));
    let e = NetEvaluator::new(nets(128));
    assert!(!e.is_quantised(&e.weights().contact), "128 units: float is as fast");
}

#[test]
#[ignore = "the full measurement, about a minute in release"]
fn full_agreement_measurement() {
    let positions = contact_positions();
    for hidden in [128, 256] {
        report(&format!("{hidden} hidden, {} positions", positions.len()), &agreement(nets(hidden), &positions));
    }
}
