//! A contact encoding version 2 net's evaluations, pinned bit for bit: a
//! checksum of every output of every contact result of every roll of the
//! first wildbg contact positions, as `examples/eval_loop.rs` prints it
//! (the figure of `docs/dev/benchmarks.md`), for v3-fit (shipped until
//! 2026-12-06, kept in `training/runs/v3-fit`). A change to the inputs that
//! should leave an older net's evaluations alone (contact encoding version
//! 3 appended units with zero weights in version 2 nets) must keep these.
#![allow(clippy::unwrap_used)]

use gammon_eval::net::Quantise;
use gammon_eval::{Evaluator, NetEvaluator, NetWeights, PositionClass, Probabilities};
use gammon_rules::{MoveList, Position, ALL_ROLLS};
use gammon_testkit::read_shared;

/// The contact results of every roll of wildbg's contact positions (the
/// first 50,000), and where each roll's begin: as `eval_loop` builds them.
fn results_by_roll() -> (Vec<Position>, Vec<usize>) {
    let mut list = MoveList::new();
    let (mut positions, mut rolls) = (Vec::new(), vec![0]);
    for p in read_shared("bench/contact-1000.txt").lines().filter_map(|l| Position::from_position_id(l.trim()).ok()) {
        for d in ALL_ROLLS {
            list.generate(&p, d);
            positions.extend(list.positions().iter().filter(|r| PositionClass::of(r) == PositionClass::Contact));
            rolls.push(positions.len());
        }
    }
    positions.truncate(50_000);
    rolls.retain(|&r| r < positions.len());
    rolls.push(positions.len());
    (positions, rolls)
}

fn checksum(values: &[Probabilities]) -> String {
    let mut sum = 0u64;
    for v in values {
        for x in v.to_array() {
            sum = (sum ^ u64::from(x.to_bits())).wrapping_mul(0x0100_0000_01B3);
        }
    }
    format!("{sum:016x}")
}

/// `net`'s evaluations of the results, a roll at a time (the vector-lane
/// features) and one at a time: their checksums.
fn checksums(net: &NetEvaluator) -> (String, String) {
    let (positions, rolls) = results_by_roll();
    assert_eq!(positions.len(), 50_000);
    let mut values = vec![Probabilities::default(); positions.len()];
    for w in rolls.windows(2) {
        net.evaluate_batch(&positions[w[0]..w[1]], &mut values[w[0]..w[1]]);
    }
    let by_roll = checksum(&values);
    let mut scratch = net.scratch();
    for (p, v) in positions.iter().zip(values.iter_mut()) {
        *v = net.evaluate_with(p, &mut scratch).0;
    }
    (by_roll, checksum(&values))
}

/// v3-fit, an encoding version 2 net.
fn v3_fit() -> NetWeights {
    NetWeights::from_bytes(include_bytes!("../../../../training/runs/v3-fit/weights.gnn")).unwrap()
}

#[test]
fn a_version_2_net_evaluates_as_it_always_has() {
    let (by_roll, one_at_a_time) = checksums(&NetEvaluator::new(v3_fit()));
    assert_eq!((by_roll.as_str(), one_at_a_time.as_str()), ("29a00b3565c36b76", "29a00b3565c36b76"));
}

/// The same with every net quantised ([`Quantise::All`]; nets of this
/// size are below `QUANTISE_FROM` and run in float by default). The
/// checksum is that of the build before contact encoding version 3.
#[test]
fn a_version_2_net_quantised_evaluates_as_it_always_has() {
    let weights = v3_fit();
    let net = NetEvaluator::with_quantisation(weights, Quantise::All);
    assert!(net.is_quantised(&net.weights().contact));
    let (by_roll, one_at_a_time) = checksums(&net);
    assert_eq!((by_roll.as_str(), one_at_a_time.as_str()), ("c78a6bdbd5b0d7e2", "c78a6bdbd5b0d7e2"));
}
