//! The score matrix (`gammon cube --matrix 7`): the cube decision of a
//! position at the 36 scores of a 7-point match where both sides need 2 to
//! 7, at 2 plies, against the same 36 decisions asked one score at a time
//! (`gammon cube` at each score, the search cache shared between them).
//! Each iteration starts with empty caches ("cold"); "warm" asks again with
//! the caches of the previous run. The goal: well under a second cold.
//!
//! `cargo bench -p gammon-benches --bench cube_matrix`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode};
use gammon_engine::api::{CubeOptions, Engine, Request};
use gammon_eval::NetEvaluator;
use gammon_rules::GameContext;
use std::time::Duration;

/// A contact middle game, the cube centred.
const POSITION: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";
const LENGTH: u32 = 7;

fn matrix(c: &mut Criterion) {
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    let request = Request::read(POSITION, None, None).unwrap();
    let options = CubeOptions { ply: 2 };
    let one_by_one = || {
        for a in 2..=LENGTH {
            for b in 2..=LENGTH {
                let context = GameContext { match_length: LENGTH, score: (LENGTH - a, LENGTH - b), ..request.context };
                black_box(engine.cube(&Request { context, ..request }, &options).unwrap());
            }
        }
    };
    // The bearoff databases are read once per process, before timing.
    black_box(engine.cube_matrix(&request, &options, LENGTH).unwrap());
    let mut group = c.benchmark_group("cube_matrix");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.bench_function("7-point matrix, 2-ply, cold", |b| {
        b.iter(|| {
            engine.clear_caches();
            black_box(engine.cube_matrix(&request, &options, LENGTH).unwrap())
        });
    });
    group.bench_function("7-point matrix, 2-ply, warm", |b| {
        b.iter(|| black_box(engine.cube_matrix(&request, &options, LENGTH).unwrap()));
    });
    group.bench_function("36 cube decisions one by one, 2-ply, cold", |b| {
        b.iter(|| {
            engine.clear_caches();
            one_by_one();
        });
    });
    group.bench_function("one cube decision, 2-ply, cold", |b| {
        b.iter(|| {
            engine.clear_caches();
            black_box(engine.cube(&request, &options).unwrap())
        });
    });
    group.finish();
}

criterion_group!(benches, matrix);
criterion_main!(benches);
