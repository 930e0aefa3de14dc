//! Training: it learns, it reproduces, it resumes, and it refuses bad checkpoints.
#![allow(clippy::unwrap_used)]

use gammon_engine::duel::duel;
use gammon_eval::NetEvaluator;
use gammon_jobs::{Shared, StopFlag};
use gammon_train::{pipeline, trainer, Checkpoint, RateStep, RunFiles, Schedule, TrainConfig, TrainOutcome};
use std::sync::atomic::{AtomicBool, Ordering};

/// A flag already set.
fn stopped() -> StopFlag {
    let stop = StopFlag::new();
    stop.stop();
    stop
}

/// A small net with the rounds schedule (two games per round).
fn small(games: u64, threads: usize) -> TrainConfig {
    TrainConfig {
        name: "test".into(),
        games,
        seed: 3,
        threads,
        contact_hidden: 16,
        race_hidden: 8,
        schedule: Schedule::Rounds,
        round_games: 2,
        checkpoint_every: 1_000_000,
        benchmark_every: 0,
        learning_rate: vec![RateStep { from: 0, rate: 0.1 }],
        ..TrainConfig::default()
    }
}

/// A small net with the pipeline schedule, a delay of `delay` games.
fn piped(games: u64, threads: usize, delay: u64) -> TrainConfig {
    TrainConfig { schedule: Schedule::Pipeline, round_games: delay, ..small(games, threads) }
}

/// Plays on with the pipeline to `end` games (no stop request).
fn run_pipeline(state: &mut Checkpoint, end: u64) {
    pipeline::train_pipeline(state, end, &AtomicBool::new(false)).unwrap();
    assert_eq!(state.games_done, end);
}

fn run_rounds(state: &mut Checkpoint, threads: usize, games: u64) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let config = state.config.clone();
    let end = state.games_done + games;
    while state.games_done < end {
        let n = config.round_games.min(end - state.games_done);
        let first = state.games_done;
        pool.install(|| trainer::train_round(&mut state.weights, &config, first, n));
        state.games_done += n;
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-train-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn same_seed_gives_identical_weights_with_one_or_two_threads() {
    let mut one = trainer::start(small(12, 1), None);
    let mut two = trainer::start(small(12, 2), None);
    run_rounds(&mut one, 1, 12);
    run_rounds(&mut two, 2, 12);
    assert_eq!(one.weights, two.weights);
    // A different seed gives different weights.
    let mut other = trainer::start(TrainConfig { seed: 4, ..small(12, 1) }, None);
    run_rounds(&mut other, 1, 12);
    assert_ne!(one.weights, other.weights);
}

#[test]
fn the_pipeline_gives_identical_weights_with_one_two_or_three_threads() {
    for (delay, lambda) in [(3, 0.0), (2, 0.0), (3, 0.7)] {
        let run = |threads| {
            let mut s = trainer::start(TrainConfig { lambda, ..piped(10, threads, delay) }, None);
            run_pipeline(&mut s, 10);
            s
        };
        let one = run(1);
        assert_eq!(one.delayed.len() as u64, delay - 1);
        assert_eq!(one.weights.crashed, one.weights.contact);
        for threads in [2, 3] {
            let other = run(threads);
            assert_eq!(other.weights, one.weights, "delay {delay}, λ {lambda}, {threads} threads");
            assert_eq!(other.delayed, one.delayed, "delay {delay}, λ {lambda}, {threads} threads");
        }
    }
    // The delay shapes the weights; a delay of 1 is sequential TD.
    let weights = |delay| {
        let mut s = trainer::start(piped(6, 2, delay), None);
        run_pipeline(&mut s, 6);
        s.weights
    };
    assert_ne!(weights(1), weights(2));
    assert_ne!(weights(2), weights(3));
    let mut rounds = trainer::start(small(6, 2), None);
    run_rounds(&mut rounds, 2, 6);
    assert_ne!(rounds.weights, weights(2));
}

#[test]
fn the_pipeline_resumes_to_the_same_weights_from_a_checkpoint_at_any_game() {
    let dir = temp_dir("pipeline-resume");
    let files = RunFiles::new(&dir);
    let mut straight = trainer::start(piped(12, 2, 3), None);
    run_pipeline(&mut straight, 12);
    // Cut after 1 game (fewer delayed nets than the delay), 5 and 11, with
    // one, two and three threads, through a checkpoint file.
    for (cut, threads) in [(1, 3), (5, 2), (11, 1)] {
        let mut first = trainer::start(piped(12, threads, 3), None);
        run_pipeline(&mut first, cut);
        assert_eq!(first.delayed.len() as u64, cut.min(2));
        first.save(&files.checkpoint()).unwrap();
        let mut resumed = Checkpoint::load(&files.checkpoint()).unwrap();
        assert_eq!(resumed, first);
        run_pipeline(&mut resumed, 12);
        assert_eq!(resumed.weights, straight.weights, "cut at {cut}");
        assert_eq!(resumed.delayed, straight.delayed, "cut at {cut}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_pipeline_stopped_anywhere_resumes_to_the_same_weights() {
    let games = 60;
    let mut straight = trainer::start(piped(games, 1, 2), None);
    run_pipeline(&mut straight, games);
    // A stop request from another thread at some point in the run: no game
    // begins after it, and the state is one a resume continues exactly.
    for wait_ms in [0, 5, 20] {
        let mut state = trainer::start(piped(games, 2, 2), None);
        let stop = AtomicBool::new(wait_ms == 0);
        std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(wait_ms));
                stop.store(true, Ordering::SeqCst);
            });
            pipeline::train_pipeline(&mut state, games, &stop).unwrap();
        });
        assert!(state.games_done <= games);
        run_pipeline(&mut state, games);
        assert_eq!(state.weights, straight.weights, "stopped after {wait_ms} ms");
    }
}

#[test]
fn train_with_the_pipeline_checkpoints_stops_and_resumes_to_the_weights_of_one_run() {
    let dir = temp_dir("pipeline-train");
    let files = RunFiles::new(&dir);
    let mut straight = trainer::start(piped(9, 1, 3), None);
    run_pipeline(&mut straight, 9);
    // train() with checkpoints every 4 games and benchmarks every 3: the
    // cuts do not change the weights.
    let config = TrainConfig { checkpoint_every: 4, benchmark_every: 3, benchmark_pairs: 1, ..piped(9, 2, 3) };
    let mut state = trainer::start(config.clone(), None);
    assert_eq!(
        trainer::train(&mut state, &files, &StopFlag::new(), &Shared::<()>::new()).unwrap(),
        TrainOutcome::Finished
    );
    assert_eq!(state.weights.contact, straight.weights.contact);
    assert_eq!(state.weights.race, straight.weights.race);
    assert_eq!(state.log.iter().map(|r| r.games).collect::<Vec<_>>(), [3, 6, 9]);
    std::fs::remove_dir_all(&dir).unwrap();
    // Stopped before it starts, then resumed from the checkpoint.
    let dir = temp_dir("pipeline-stop");
    let files = RunFiles::new(&dir);
    let mut state = trainer::start(config, None);
    assert_eq!(trainer::train(&mut state, &files, &stopped(), &Shared::<()>::new()).unwrap(), TrainOutcome::Stopped);
    let mut back = Checkpoint::load(&files.checkpoint()).unwrap();
    assert_eq!(
        trainer::train(&mut back, &files, &StopFlag::new(), &Shared::<()>::new()).unwrap(),
        TrainOutcome::Finished
    );
    assert_eq!(back.weights.contact, straight.weights.contact);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn td_lambda_with_traces_is_reproducible_and_changes_the_weights() {
    let config = TrainConfig { lambda: 0.7, ..small(6, 2) };
    let mut a = trainer::start(config.clone(), None);
    let mut b = trainer::start(config, None);
    let initial = a.weights.clone();
    run_rounds(&mut a, 2, 6);
    run_rounds(&mut b, 1, 6);
    assert_eq!(a.weights, b.weights);
    assert_ne!(a.weights, initial);
    assert!(a.weights.contact.is_finite());
}

#[test]
fn an_interrupted_run_resumes_to_the_same_weights() {
    let dir = temp_dir("resume");
    let files = RunFiles::new(&dir);
    // Straight through.
    let mut straight = trainer::start(small(16, 2), None);
    run_rounds(&mut straight, 2, 16);
    // Eight games, checkpoint, reload, eight more.
    let mut first = trainer::start(small(16, 2), None);
    run_rounds(&mut first, 2, 8);
    first.save(&files.checkpoint()).unwrap();
    let mut resumed = Checkpoint::load(&files.checkpoint()).unwrap();
    assert_eq!(resumed, first);
    run_rounds(&mut resumed, 2, 8);
    assert_eq!(resumed.weights, straight.weights);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stop_request_writes_a_checkpoint_and_train_resumes_from_it() {
    let dir = temp_dir("stop");
    let files = RunFiles::new(&dir);
    let mut state = trainer::start(small(8, 2), None);
    assert_eq!(trainer::train(&mut state, &files, &stopped(), &Shared::<()>::new()).unwrap(), TrainOutcome::Stopped);
    let mut back = Checkpoint::load(&files.checkpoint()).unwrap();
    assert_eq!(back.games_done, 0);
    assert_eq!(
        trainer::train(&mut back, &files, &StopFlag::new(), &Shared::<()>::new()).unwrap(),
        TrainOutcome::Finished
    );
    assert_eq!(back.games_done, 8);
    assert!(files.weights().exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_version_1_checkpoint_of_a_rounds_run_still_loads_and_resumes_with_rounds() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../training/runs/td0-main/checkpoint.gck");
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[8..12], &1u32.to_le_bytes(), "the committed checkpoint is format version 1");
    let state = Checkpoint::load(&path).unwrap();
    assert_eq!(state.config.schedule, Schedule::Rounds);
    assert!(state.delayed.is_empty());
    assert_eq!(state.games_done, state.config.games);
}

#[test]
fn a_checkpoint_with_the_wrong_delayed_weights_is_refused() {
    let dir = temp_dir("delayed");
    let files = RunFiles::new(&dir);
    let mut state = trainer::start(piped(4, 1, 3), None);
    run_pipeline(&mut state, 4);
    state.delayed.pop();
    state.save(&files.checkpoint()).unwrap();
    let err = Checkpoint::load(&files.checkpoint()).unwrap_err().to_string();
    assert!(err.contains("delayed"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn damaged_checkpoints_are_refused() {
    let dir = temp_dir("damaged");
    let files = RunFiles::new(&dir);
    let state = trainer::start(small(8, 1), None);
    state.save(&files.checkpoint()).unwrap();
    let bytes = std::fs::read(files.checkpoint()).unwrap();
    for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
        std::fs::write(files.checkpoint(), &bytes[..cut]).unwrap();
        assert!(Checkpoint::load(&files.checkpoint()).is_err(), "cut at {cut}");
    }
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x10;
    std::fs::write(files.checkpoint(), &flipped).unwrap();
    let err = Checkpoint::load(&files.checkpoint()).unwrap_err().to_string();
    assert!(err.contains("corrupt"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_short_training_run_beats_the_untrained_net() {
    let mut state = trainer::start(small(3000, 2), None);
    let untrained = NetEvaluator::new(state.weights.clone());
    run_rounds(&mut state, 2, 3000);
    let trained = NetEvaluator::new(state.weights.clone());
    let r = duel(&trained, &untrained, 200, 11);
    // The untrained net plays at random; 3,000 games of TD are worth far more
    // than the noise (standard error about 0.1).
    assert!(r.ppg > 0.3 + 2.0 * r.standard_error, "{r:?}");
}

#[test]
fn the_quick_config_learns_in_a_few_thousand_games() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../training/td0-quick.toml");
    let config = TrainConfig { games: 1500, ..TrainConfig::load(&path).unwrap() };
    assert_eq!(config.schedule, Schedule::Pipeline, "the quick run checks the schedule of new runs");
    let mut state = trainer::start(config, None);
    let untrained = NetEvaluator::new(state.weights.clone());
    let began = std::time::Instant::now();
    run_pipeline(&mut state, 1500);
    let seconds = began.elapsed().as_secs_f64();
    let trained = NetEvaluator::new(state.weights.clone());
    let r = duel(&trained, &untrained, 150, 11);
    println!(
        "td0-quick after 1500 games ({:.0} games/minute): {:+.3} ± {:.3} ppg against the untrained net",
        1500.0 * 60.0 / seconds,
        r.ppg,
        r.standard_error
    );
    // 300 games: a standard error near 0.1, so +0.5 is far outside the noise.
    assert!(r.ppg > 0.5 && r.ppg > 5.0 * r.standard_error, "{r:?}");
}
