//! Evaluation speed: positions per second for the shipped contact and race
//! nets, on the results of every roll of the wildbg benchmark positions (the
//! hot path of play: evaluating all candidate moves of a roll), for the
//! race net at 64 and 128 hidden units, and for the
//! contact net at 128 and 256 hidden units in float and quantised: whole
//! evaluations (`eval/`: inputs + net, one position at a time; `eval by
//! roll/`: a roll's results in one call) and the net alone (`forward/`).
//!
//! `cargo bench -p gammon-benches --bench eval` (or `-- forward` for one group).
//! Every CPU-specific kernel gives the same bits; the fastest the CPU has is
//! used (its name is printed first), and `GAMMON_SIMD=avx2` (or `portable`,
//! `avx512`, `avx512-vnni`) measures a slower one.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gammon_benches::{positions_from_lines, read_shared};
use gammon_eval::inputs::{ContactEncoding, Encoding, RaceEncoding, SparseInputs};
use gammon_eval::mlp::Mlp;
use gammon_eval::net::Quantise;
use gammon_eval::quant::{Kernel, QuantNet, QuantScratch};
use gammon_eval::{NetEvaluator, PositionClass};
use gammon_rules::{MoveList, Position, ALL_ROLLS};

/// Every result of every roll of `positions`, keeping those of `class`.
fn candidates(positions: &[Position], class: PositionClass) -> Vec<Position> {
    let mut list = MoveList::new();
    let mut out = Vec::new();
    for p in positions {
        for d in ALL_ROLLS {
            list.generate(p, d);
            out.extend(list.positions().iter().filter(|r| PositionClass::of(r) == class));
        }
    }
    out
}

fn eval(c: &mut Criterion) {
    eprintln!(
        "SIMD kernel: {} (of {:?})",
        Kernel::best().name(),
        Kernel::available().iter().map(|k| k.name()).collect::<Vec<_>>()
    );
    let shipped = NetEvaluator::shipped().unwrap();
    let mut wide_weights = shipped.weights().clone();
    wide_weights.contact = wide(&wide_weights.contact, 256);
    let mut group = c.benchmark_group("eval");
    group.sample_size(20);
    for (file, class, name) in [
        ("bench/contact-1000.txt", PositionClass::Contact, "contact"),
        ("bench/race-1000.txt", PositionClass::Race, "race"),
    ] {
        let mut positions = candidates(&positions_from_lines(&read_shared(file)), class);
        positions.truncate(50_000);
        assert!(positions.len() > 10_000, "{name}: {} positions", positions.len());
        group.throughput(Throughput::Elements(positions.len() as u64));
        // "contact net" and "race net": the shipped nets as `NetEvaluator::new`
        // evaluates them; then each width in float (as the trainer evaluates)
        // and quantised.
        let mut runs = vec![(format!("{name} net"), NetEvaluator::new(shipped.weights().clone()))];
        if class == PositionClass::Race {
            // The race net's cost at each width it has had (64 until
            // 2026-12-06, then 128): random weights of the shape, evaluated
            // as the shipped nets are.
            for hidden in [64, 128] {
                let mut weights = shipped.weights().clone();
                weights.race = Mlp::random(RaceEncoding::LEN, hidden, 0.1, 9);
                runs.push((format!("{name} {hidden}"), NetEvaluator::new(weights)));
            }
        }
        if class == PositionClass::Contact {
            for (hidden, weights) in [(128, shipped.weights()), (256, &wide_weights)] {
                for (mode, which) in [("float", Quantise::None), ("quant", Quantise::All)] {
                    runs.push((
                        format!("{name} {hidden} {mode}"),
                        NetEvaluator::with_quantisation(weights.clone(), which),
                    ));
                }
            }
        }
        for (label, net) in &runs {
            let mut scratch = net.scratch();
            group.bench_function(label.as_str(), |b| {
                b.iter(|| {
                    let mut sum = 0.0f32;
                    for p in &positions {
                        let (v, c) = net.evaluate_with(black_box(p), &mut scratch);
                        debug_assert_eq!(c, class);
                        sum += v.win;
                    }
                    sum
                });
            });
        }
    }
    group.finish();
}

/// The shipped contact net grown to `hidden` units, the new units with
/// random input and output weights of the shipped net's scale, so that they
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

/// The net alone (no input encoding): the contact net's forward pass on the
/// encoded inputs of every contact result of every roll.
fn forward(c: &mut Criterion) {
    let shipped = NetEvaluator::shipped().unwrap();
    let mut positions =
        candidates(&positions_from_lines(&read_shared("bench/contact-1000.txt")), PositionClass::Contact);
    // 4,000 evaluations, stored tight: the inputs stay in the cache, as they
    // are when the net reads them just after encoding.
    positions.truncate(4_000);
    let inputs: Vec<SparseInputs> = positions
        .iter()
        .map(|p| {
            let mut s = SparseInputs::with_capacity(ContactEncoding::LEN);
            ContactEncoding::encode(p, &mut s);
            s.clone()
        })
        .collect();
    let mut group = c.benchmark_group("forward");
    group.throughput(Throughput::Elements(inputs.len() as u64));
    group.sample_size(20);
    for hidden in [128, 256] {
        let net = wide(&shipped.weights().contact, hidden);
        let mut scratch = vec![0.0f32; hidden];
        group.bench_function(format!("float {hidden}"), |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for x in &inputs {
                    sum += net.forward(black_box(x), &mut scratch)[0];
                }
                sum
            });
        });
        // In the order of the results of each roll: a net of 256 units or
        // more updates its first layer from the previous evaluation where
        // that is cheaper.
        let quant = QuantNet::new(&net).unwrap();
        let mut qs = QuantScratch::new();
        group.bench_function(format!("quant {hidden}"), |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for x in &inputs {
                    sum += quant.forward(black_box(x), &mut qs, &mut scratch).unwrap()[0];
                }
                sum
            });
        });
        // Two copies taking turns: every evaluation starts its sums over.
        let other = QuantNet::new(&net).unwrap();
        group.bench_function(format!("quant fresh {hidden}"), |b| {
            b.iter(|| {
                let mut sum = 0.0f32;
                for (k, x) in inputs.iter().enumerate() {
                    let q = if k % 2 == 0 { &quant } else { &other };
                    sum += q.forward(black_box(x), &mut qs, &mut scratch).unwrap()[0];
                }
                sum
            });
        });
    }
    group.finish();
}

/// The results of every roll of `positions` of `class` (the first `limit`),
/// and where each roll's begin: the batches search and play evaluate.
fn candidate_rolls(positions: &[Position], class: PositionClass, limit: usize) -> (Vec<Position>, Vec<usize>) {
    let mut list = MoveList::new();
    let (mut out, mut starts) = (Vec::new(), vec![0]);
    for p in positions {
        for d in ALL_ROLLS {
            list.generate(p, d);
            out.extend(list.positions().iter().filter(|r| PositionClass::of(r) == class));
            if out.len() >= limit {
                out.truncate(limit);
                starts.push(out.len());
                return (out, starts);
            }
            starts.push(out.len());
        }
    }
    (out, starts)
}

/// `eval by roll/`: the shipped nets through `Evaluator::evaluate_batch`,
/// one call per roll's results, as search and play call them (the
/// evaluator may encode a roll's positions together).
fn by_roll(c: &mut Criterion) {
    use gammon_eval::{Evaluator, Probabilities};
    let net = NetEvaluator::shipped().unwrap();
    let mut group = c.benchmark_group("eval by roll");
    group.sample_size(20);
    for (file, class, name) in [
        ("bench/contact-1000.txt", PositionClass::Contact, "contact net"),
        ("bench/race-1000.txt", PositionClass::Race, "race net"),
    ] {
        let (positions, starts) = candidate_rolls(&positions_from_lines(&read_shared(file)), class, 50_000);
        assert!(positions.len() > 10_000, "{name}: {} positions", positions.len());
        let mut out = vec![Probabilities::default(); positions.len()];
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| {
                for w in starts.windows(2) {
                    net.evaluate_batch(black_box(&positions[w[0]..w[1]]), &mut out[w[0]..w[1]]);
                }
                out[0].win
            });
        });
    }
    group.finish();
}

criterion_group!(benches, eval, by_roll, forward);
criterion_main!(benches);
