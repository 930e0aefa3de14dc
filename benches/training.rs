//! Training speed: self-play TD(0) games per second on 1 and 2 threads, with
//! the shipped net's shape and weights (games of a trained net have a
//! realistic length; untrained nets play far longer games): the pipeline
//! schedule of new runs, and the rounds schedule of older runs for
//! comparison, both with the default `round_games`.
//!
//! `cargo bench -p gammon-benches --bench training`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gammon_eval::NetEvaluator;
use gammon_train::{pipeline, trainer, Schedule, TrainConfig};
use std::sync::atomic::AtomicBool;

fn training(c: &mut Criterion) {
    let shipped = NetEvaluator::shipped().unwrap().weights().clone();
    let games = 200u64;
    let mut group = c.benchmark_group("training");
    group.throughput(Throughput::Elements(games));
    group.sample_size(10);
    for threads in [1usize, 2] {
        let config = TrainConfig {
            threads,
            contact_hidden: shipped.contact.hidden(),
            race_hidden: shipped.race.hidden(),
            learning_rate: vec![gammon_train::RateStep { from: 0, rate: 0.01 }],
            ..TrainConfig::default()
        };
        let start = trainer::start(config.clone(), Some(shipped.clone()));
        let stop = AtomicBool::new(false);
        group.bench_function(format!("TD(0) games, pipeline, {threads} thread(s)"), |b| {
            b.iter(|| {
                let mut state = start.clone();
                pipeline::train_pipeline(&mut state, games, &stop).unwrap();
                state.weights
            });
        });
        let rounds = TrainConfig { schedule: Schedule::Rounds, ..config };
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        group.bench_function(format!("TD(0) games, rounds, {threads} thread(s)"), |b| {
            b.iter(|| {
                let mut w = shipped.clone();
                let mut done = 0;
                while done < games {
                    let n = rounds.round_games.min(games - done);
                    pool.install(|| trainer::train_round(&mut w, &rounds, done, n));
                    done += n;
                }
                w
            });
        });
    }
    group.finish();
}

criterion_group!(benches, training);
criterion_main!(benches);
