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
//!
//! `cube rollouts`: the same position (a middle game, luck adjusted, full
//! games) rolled out plain (cubeless money), with a money cube, at the
//! score of a 7-point match, and its cube decision (two lines with the same
//! dice; its throughput counts the games of one line, so a cube decision
//! at half the plain rate costs what two rollouts cost).
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gammon_engine::api::{Engine, Request};
use gammon_engine::rollout::{rollout_position, RolloutSettings};
use gammon_eval::NetEvaluator;
use gammon_rules::{GameContext, Position, Xgid};
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
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

fn cube_rollouts(c: &mut Criterion) {
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    let position = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").unwrap().position;
    let money = Request::money(position);
    let in_match = Request { context: GameContext { match_length: 7, score: (3, 2), ..GameContext::money() }, ..money };
    let games = 36u64;
    let mut group = c.benchmark_group("cube rollouts");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.throughput(Throughput::Elements(games));
    let go = AtomicBool::new(false);
    for (name, request, cubeful, decision) in [
        ("plain (cubeless money)", &money, false, false),
        ("money cube", &money, true, false),
        ("7-point match at 3-2, cubeful", &in_match, true, false),
        ("cube decision, money (per line)", &money, true, true),
        ("cube decision, 7-point match (per line)", &in_match, true, true),
    ] {
        let mut seed = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                seed += 1;
                let settings = RolloutSettings { trials: games, seed, cubeful, ..RolloutSettings::default() };
                if decision {
                    let r = engine.cube_rollout(black_box(request), &settings, |_| {}, &go).unwrap();
                    black_box(r.no_double.mean)
                } else {
                    let r = engine.rollout(black_box(request), &settings, |_| {}, &go).unwrap();
                    black_box(r.games()) as f64
                }
            });
        });
    }
    group.finish();
}

criterion_group!(benches, rollout, cube_rollouts);
criterion_main!(benches);
