//! Rollout speed: 0-ply rollout games per second from the starting
//! position, full games (no truncation, bearoffs stopped at the one-sided
//! database as gnubg does), with and without variance reduction, on every
//! core rayon finds (set `RAYON_NUM_THREADS` to choose).
//!
//! `cargo bench -p gammon-benches --bench rollout`
//!
//! Criterion's throughput line is in games per second. Each iteration is a
//! rollout of a fixed number of games with a different seed, so the games
//! differ from one iteration to the next.
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gammon_engine::rollout::{rollout_position, RolloutSettings};
use gammon_eval::NetEvaluator;
use gammon_rules::Position;
use std::hint::black_box;
use std::time::Duration;

fn rollout(c: &mut Criterion) {
    let net = NetEvaluator::shipped().unwrap();
    let mut group = c.benchmark_group("rollout");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    for (name, games, variance_reduction) in
        [("0-ply full games, no variance reduction", 288u64, false), ("0-ply full games, variance reduction", 36, true)]
    {
        group.throughput(Throughput::Elements(games));
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let settings =
                    RolloutSettings { trials: games, seed, variance_reduction, ..RolloutSettings::default() };
                let r = rollout_position(&net, black_box(&Position::STARTING), &settings, |_| {}).unwrap();
                black_box(r.equity.mean)
            });
        });
    }
    group.finish();
}

criterion_group!(benches, rollout);
criterion_main!(benches);
