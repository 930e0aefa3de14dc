//! Match review speed: `gammon review` of the 7-point FIBS match
//! `matches/real/fibs_BlueNote-nori_7p.mat` (283 rolls), as the command
//! reviews it (moves and cube at 2 plies, luck at 0, gnubg's normal move
//! filter, the pubeval screen of 8 moves inside the lookahead), then without
//! the screen and with the large filter, on 2 threads, with the shipped net.
//!
//! One iteration reviews the whole match with a fresh engine (an empty
//! cache). gnubg 1.07 needs about 40-47 s of CPU for the same match at its
//! default 2-ply analysis on this machine; the goal is under 8 s on 2
//! cores. The 0-ply review (no lookahead) is timed too.
//!
//! `cargo bench -p gammon-benches --bench review`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use gammon_benches::read_shared;
use gammon_engine::api::Engine;
use gammon_engine::review::{review_match, ReviewSettings};
use gammon_engine::search::MoveFilter;
use gammon_eval::NetEvaluator;
use gammon_rules::parse_mat;
use std::time::Duration;

const MATCH: &str = "matches/real/fibs_BlueNote-nori_7p.mat";

fn review(c: &mut Criterion) {
    let net = NetEvaluator::shipped().unwrap();
    let record = parse_mat(&read_shared(MATCH)).unwrap();
    let rolls: usize = record.games.iter().map(|g| g.rolls()).sum();
    assert_eq!(rolls, 283, "the benchmark match");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let mut group = c.benchmark_group("review");
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(60));
    let cases = [
        ("0-ply", ReviewSettings { plies: 0, cube_plies: 0, ..ReviewSettings::default() }),
        ("2-ply (the default)", ReviewSettings::default()),
        ("2-ply, no pubeval screen", ReviewSettings { prune: 0, ..ReviewSettings::default() }),
        ("2-ply, large filter", ReviewSettings { filter: MoveFilter::LARGE, ..ReviewSettings::default() }),
    ];
    for (name, settings) in cases {
        group.bench_function(format!("{name} review of a 7-point match (283 rolls), 2 threads"), |b| {
            b.iter_batched(
                || Engine::new(net.clone()),
                |engine| {
                    pool.install(|| black_box(review_match(&engine, &record, &settings, |_, _| {}).unwrap()));
                    engine
                },
                BatchSize::PerIteration,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, review);
criterion_main!(benches);
