//! The training loop: self-play games in parallel, merged in a fixed order,
//! with checkpoints, benchmarks and a learning curve.
//!
//! # Parallel schemes
//!
//! Two schedules ([`Schedule`]), both the same bit for bit whatever the
//! number of threads (threads only change the speed):
//!
//! - Pipeline (new runs): game `n` starts from the weights after games
//!   `0..=n - round_games` and is merged in game order as soon as the games
//!   before it are; no round barrier. See [`crate::pipeline`].
//! - Rounds (runs made before the pipeline, and settings files without a
//!   `schedule` key): a round of `round_games` games starts from one
//!   snapshot of the weights. Game `n` of the run (dice stream `n` of the
//!   seed) is played and trained on its own copy of the snapshot, by
//!   whichever rayon worker takes it. When the round is over, each game's
//!   change (its copy minus the snapshot) is added to the weights in game
//!   order ([`train_round`]). Each thread that finishes its game first waits
//!   for the round's longest game.

use crate::checkpoint::{BenchmarkRow, Checkpoint};
use crate::config::{Schedule, TrainConfig};
use crate::plot;
use crate::selfplay::{train_game, Workspace};
use gammon_engine::duel::{duel, DuelResult};
use gammon_eval::pubeval::PubEval;
use gammon_eval::{NetEvaluator, NetWeights};
use gammon_jobs::{CheckpointPolicy, Checkpoints, Ended, Job, Progress, StopFlag};
use gammon_rules::RandomDice;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Seed of the benchmark duels: the same dice at every benchmark of every run.
pub const BENCHMARK_SEED: u64 = 20_261_129;

pub use crate::train_error::TrainError;

/// How a call to [`train`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainOutcome {
    /// All configured games are played; the final weights are written.
    Finished,
    /// Stopped on request (Ctrl-C); a checkpoint holds the progress.
    Stopped,
}

/// Where a run keeps its files.
#[derive(Clone, Debug)]
pub struct RunFiles {
    /// The run folder.
    pub dir: PathBuf,
}

impl RunFiles {
    /// Files in `dir`.
    pub fn new(dir: &Path) -> Self {
        RunFiles { dir: dir.to_path_buf() }
    }
    /// The checkpoint.
    pub fn checkpoint(&self) -> PathBuf {
        self.dir.join("checkpoint.gck")
    }
    /// The final (and latest benchmarked) weights.
    pub fn weights(&self) -> PathBuf {
        self.dir.join("weights.gnn")
    }
    /// The learning curve as CSV.
    pub fn csv(&self) -> PathBuf {
        self.dir.join("learning-curve.csv")
    }
    /// The learning curve as SVG.
    pub fn svg(&self) -> PathBuf {
        self.dir.join("learning-curve.svg")
    }
    /// The settings, as TOML.
    pub fn config(&self) -> PathBuf {
        self.dir.join("config.toml")
    }
}

/// A new run's starting state: fresh random weights, or `init` if given.
pub fn start(config: TrainConfig, init: Option<NetWeights>) -> Checkpoint {
    let weights = init.unwrap_or_else(|| {
        let mut w = NetWeights::random(config.contact_hidden, config.race_hidden, config.seed);
        w.contact =
            gammon_eval::mlp::Mlp::random(w.contact.inputs(), config.contact_hidden, config.init_scale, config.seed);
        w.race = gammon_eval::mlp::Mlp::random(w.race.inputs(), config.race_hidden, config.init_scale, config.seed ^ 1);
        w.crashed = w.contact.clone();
        w
    });
    Checkpoint { config, games_done: 0, weights, delayed: Vec::new(), log: Vec::new(), elapsed_s: 0.0 }
}

/// The rounds schedule: plays and learns from `games` games starting at game
/// number `first`, in parallel, and merges the changes into `weights` in
/// game order.
pub fn train_round(weights: &mut NetWeights, config: &TrainConfig, first: u64, games: u64) {
    let rate = config.rate_at(first);
    let lambda = config.lambda_at(first);
    let snapshot = weights.clone();
    let results: Vec<NetWeights> = (first..first + games)
        .into_par_iter()
        .map_init(
            || Workspace::new(&snapshot),
            |ws, game| {
                let mut local = snapshot.clone();
                let mut dice = RandomDice::new(config.seed, game);
                train_game(&mut local, &mut dice, rate, lambda, ws);
                local
            },
        )
        .collect();
    for local in &results {
        for kind in gammon_eval::NetKind::ALL {
            weights.net_mut(kind).add_difference(local.net(kind), snapshot.net(kind));
        }
    }
    // Self-play TD trains the contact net on crashed positions too
    // (`selfplay.rs`); the crashed net evaluates them as its copy.
    weights.crashed = weights.contact.clone();
}

/// Today's date and time, UTC, RFC 3339.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem / 60 % 60, rem % 60)
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> TrainError + '_ {
    move |source| TrainError::Io { path: path.to_path_buf(), source }
}

/// Duels the weights against pubeval with the fixed benchmark dice.
pub fn benchmark(weights: &NetWeights, pairs: u64) -> DuelResult {
    duel(&NetEvaluator::new(weights.clone()), &PubEval, pairs, BENCHMARK_SEED)
}

/// Runs (or continues) training until `state.config.games` games are done
/// or `stop` is set, as a [`gammon_jobs::Job`]: checkpoints every
/// `checkpoint_every` games ([`CheckpointPolicy`]) and when stopped, the
/// learning curve after each benchmark and, at the end, the weights, in
/// `files`. `progress` counts the games and hears each benchmark.
///
/// # Errors
/// File trouble, a thread pool that cannot start, or diverging weights
/// (the last checkpoint is kept, not overwritten).
pub fn train(
    state: &mut Checkpoint,
    files: &RunFiles,
    stop: &StopFlag,
    progress: &dyn Progress,
) -> Result<TrainOutcome, TrainError> {
    std::fs::create_dir_all(&files.dir).map_err(io(&files.dir))?;
    gammon_eval::file_format::write_output(&files.config(), state.config.to_toml().as_bytes())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(state.config.threads)
        .build()
        .map_err(|_| TrainError::Threads(state.config.threads))?;
    let config = state.config.clone();
    progress.report(state.games_done, config.games);
    let mut checkpoints = Checkpoints::new(CheckpointPolicy::items(config.checkpoint_every), state.games_done);
    let mut job = Training {
        elapsed_before: state.elapsed_s,
        last_saved: state.games_done,
        state,
        files,
        pool,
        config,
        started: Instant::now(),
        progress,
        diverged: false,
    };
    match gammon_jobs::run(&mut job, stop, progress, &mut checkpoints)? {
        Ended::Stopped { .. } => {
            // A run stopped before its first checkpoint still leaves one to resume.
            if !job.files.checkpoint().exists() {
                job.save()?;
            }
            Ok(TrainOutcome::Stopped)
        }
        Ended::Finished => {
            let (state, config) = (&mut *job.state, &job.config);
            let mut final_weights = state.weights.clone();
            final_weights.meta = gammon_eval::TrainingMeta {
                games: state.games_done,
                seed: config.seed,
                lambda: config.lambda_at(state.games_done),
                learning_rate: config.rate_at(state.games_done.saturating_sub(1)),
                date: utc_now(),
                notes: format!("gammon {}", config.name),
            };
            final_weights.save(&files.weights())?;
            Ok(TrainOutcome::Finished)
        }
    }
}

/// Training for the runner: a step plays one round (rounds schedule) or
/// the games up to the next checkpoint or benchmark (pipeline), then
/// benchmarks if one is due; a save writes the checkpoint.
struct Training<'a> {
    state: &'a mut Checkpoint,
    files: &'a RunFiles,
    pool: rayon::ThreadPool,
    config: crate::TrainConfig,
    started: Instant,
    elapsed_before: f64,
    /// Games at the last checkpoint (the pipeline runs up to the next).
    last_saved: u64,
    progress: &'a dyn Progress,
    /// The weights are no longer finite: nothing more is saved.
    diverged: bool,
}

impl Training<'_> {
    fn elapsed(&self) -> f64 {
        self.elapsed_before + self.started.elapsed().as_secs_f64()
    }
}

impl Job for Training<'_> {
    type Error = TrainError;

    fn done(&self) -> u64 {
        self.state.games_done
    }

    fn total(&self) -> u64 {
        self.config.games
    }

    fn step(&mut self, stop: &StopFlag) -> Result<(), TrainError> {
        let config = &self.config;
        let first = self.state.games_done;
        let played = match config.schedule {
            Schedule::Rounds => {
                let round = config.round_games.min(config.games - first);
                let weights = &mut self.state.weights;
                self.pool.install(|| train_round(weights, config, first, round));
                self.state.games_done += round;
                if self.state.weights.is_finite() {
                    Ok(())
                } else {
                    Err(TrainError::Diverged(self.state.games_done))
                }
            }
            Schedule::Pipeline => {
                // On to the next checkpoint or benchmark, or until stopped.
                let next_benchmark = match config.benchmark_every {
                    0 => u64::MAX,
                    every => (first / every + 1).saturating_mul(every),
                };
                let target =
                    config.games.min(self.last_saved.saturating_add(config.checkpoint_every)).min(next_benchmark);
                crate::pipeline::run(self.state, target, stop.as_atomic(), self.progress)
            }
        };
        if played.is_err() {
            self.diverged = true;
            return played;
        }
        let done = self.state.games_done;
        let crossed = |every: u64| every > 0 && first / every != done / every;
        if crossed(config.benchmark_every) {
            let r = self.pool.install(|| benchmark(&self.state.weights, config.benchmark_pairs));
            let elapsed_s = self.elapsed();
            self.state.log.push(BenchmarkRow {
                games: done,
                ppg: r.ppg,
                standard_error: r.standard_error,
                win_rate: r.win_rate,
                elapsed_s,
            });
            self.progress.note(&format!("vs pubeval {:+.3} ± {:.3} at {done} games", r.ppg, r.standard_error));
            write_curve(self.state, self.files)?;
        }
        Ok(())
    }

    fn save(&mut self) -> Result<(), TrainError> {
        if self.diverged {
            return Ok(());
        }
        self.state.elapsed_s = self.elapsed();
        self.state.save(&self.files.checkpoint())?;
        self.last_saved = self.state.games_done;
        Ok(())
    }
}

fn write_curve(state: &Checkpoint, files: &RunFiles) -> Result<(), TrainError> {
    plot::write_csv(&files.csv(), &state.log)?;
    // The plot is a convenience: a drawing failure does not stop training.
    let _ = plot::write_svg(
        &files.svg(),
        &format!("gammon training run {}", state.config.name),
        "training games",
        &state.log,
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_error_names_the_path_and_the_os_error_once() {
        let path = Path::new("/no/such/folder/log.csv");
        let os = std::io::Error::from(std::io::ErrorKind::NotFound);
        let err = io(path)(std::io::Error::from(std::io::ErrorKind::NotFound));
        let mut text = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(s) = source {
            text = format!("{text}: {s}");
            source = s.source();
        }
        assert_eq!(text.matches("/no/such/folder/log.csv").count(), 1, "{text}");
        assert_eq!(text.matches(&os.to_string()).count(), 1, "{text}");
    }
}
