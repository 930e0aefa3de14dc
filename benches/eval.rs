//! Evaluation speed: positions per second for the shipped contact and race
//! nets, on the results of every roll of the wildbg benchmark positions (the
//! hot path of play: evaluating all candidate moves of a roll).
//!
//! `cargo bench -p gammon-benches --bench eval`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gammon_benches::{positions_from_lines, read_shared};
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
    let net = NetEvaluator::shipped().unwrap();
    let mut scratch = net.scratch();
    let mut group = c.benchmark_group("eval");
    for (file, class, name) in [
        ("bench/contact-1000.txt", PositionClass::Contact, "contact net"),
        ("bench/race-1000.txt", PositionClass::Race, "race net"),
    ] {
        let mut positions = candidates(&positions_from_lines(&read_shared(file)), class);
        positions.truncate(50_000);
        assert!(positions.len() > 10_000, "{name}: {} positions", positions.len());
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.sample_size(20);
        group.bench_function(name, |b| {
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
    group.finish();
}

criterion_group!(benches, eval);
criterion_main!(benches);
