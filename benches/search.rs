//! Search speed: the analysis of one roll (every legal move ranked through
//! the default move filters, see `gammon_engine::search`) of typical contact
//! positions, at 1 and 2 plies, on one thread, with the shipped net; and at
//! 2 plies with the pubeval screen inside the lookahead that `gammon
//! analyse` uses (`MoveFilter::SCREENED`).
//!
//! The 20 cases are the first 20 positions of the wildbg contact benchmark
//! file, each with a different roll. One iteration analyses all 20 with a
//! fresh search (an empty cache; making it is not timed): divide the time by
//! 20 for the time per position. The goal at 2 plies is under 30 ms per
//! position on one core.
//!
//! `cargo bench -p gammon-benches --bench search`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, SamplingMode, Throughput};
use gammon_benches::{positions_from_lines, read_shared};
use gammon_engine::search::{MoveFilter, Search};
use gammon_eval::NetEvaluator;
use gammon_rules::{Dice, Position, ALL_ROLLS};
use std::time::Duration;

const CASES: usize = 20;

fn cases() -> Vec<(Position, Dice)> {
    let positions = positions_from_lines(&read_shared("bench/contact-1000.txt"));
    positions.into_iter().take(CASES).enumerate().map(|(i, p)| (p, ALL_ROLLS[i % ALL_ROLLS.len()])).collect()
}

fn search(c: &mut Criterion) {
    let net = NetEvaluator::shipped().unwrap();
    let cases = cases();
    assert_eq!(cases.len(), CASES);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    // Build the bearoff database (done once per process) before timing.
    pool.install(|| Search::new(net.clone()).analyse_roll(&cases[0].0, cases[0].1, 1).unwrap());
    let mut group = c.benchmark_group("search");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Elements(CASES as u64));
    let runs = [
        (1u8, MoveFilter::NORMAL, ""),
        (2, MoveFilter::NORMAL, ""),
        (2, MoveFilter::SCREENED, ", pubeval screen of 8"),
    ];
    for (plies, filter, screen) in runs {
        group.bench_function(
            format!("{plies}-ply analysis of a roll, {CASES} contact positions, 1 thread{screen}"),
            |b| {
                b.iter_batched(
                    || Search::new(net.clone()).with_filter(filter),
                    |search| {
                        pool.install(|| {
                            for (pos, dice) in &cases {
                                black_box(search.analyse_roll(pos, *dice, plies).unwrap());
                            }
                        });
                        // Dropped (the cache freed) outside the timing.
                        search
                    },
                    BatchSize::PerIteration,
                );
            },
        );
    }
    group.finish();
}

criterion_group!(benches, search);
criterion_main!(benches);
