//! The work behind `gammon.Engine().analyse("4HPwATDgc/ABMA", dice="31",
//! ply=0)`, `.evaluate("4HPwATDgc/ABMA")` and `gammon.moves(…, "31")` of the Python package, in
//! Rust: the engine's work alone, and the analysis with the request read
//! and its JSON text written (what the CLI does; the package makes the
//! dict without the text). `crates/gammon-py/benches/call_overhead.py` times the
//! Python call on the same machine; the difference is the binding's cost.
//!
//! `cargo bench -p gammon-benches --bench python_call`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use gammon_engine::api::json::document;
use gammon_engine::api::{legal_moves, AnalyseOptions, Engine, EvalOptions, Request};
use gammon_eval::NetEvaluator;

const POSITION: &str = "4HPwATDgc/ABMA";

fn analyse(c: &mut Criterion) {
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    let options = AnalyseOptions { ply: 0, ..AnalyseOptions::default() };
    let request = Request::read(POSITION, None, Some("31")).unwrap();
    black_box(engine.analyse(&request, &options).unwrap());
    let mut group = c.benchmark_group("python_call");
    group.bench_function("analyse 0-ply, the engine alone", |b| {
        b.iter(|| black_box(engine.analyse(black_box(&request), &options).unwrap()));
    });
    group.bench_function("analyse 0-ply, request and JSON text too", |b| {
        b.iter(|| {
            let request = Request::read(black_box(POSITION), None, Some("31")).unwrap();
            let analysis = engine.analyse(&request, &options).unwrap();
            black_box(serde_json::to_string(&document(&analysis)).unwrap())
        });
    });
    let evaluate = EvalOptions::default();
    group.bench_function("evaluate, the engine alone", |b| {
        b.iter(|| black_box(engine.eval(black_box(&request), &evaluate).unwrap()));
    });
    let dice = request.dice.unwrap();
    group.bench_function("legal moves, the engine alone", |b| {
        b.iter(|| black_box(legal_moves(black_box(&request.position), dice).unwrap()));
    });
    group.finish();
}

criterion_group!(benches, analyse);
criterion_main!(benches);
