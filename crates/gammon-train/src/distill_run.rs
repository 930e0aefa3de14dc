//! A distillation run (`gammon distill`) as a job: rounds of sampling,
//! labelling (resumable, a [`gammon_jobs::Job`] saved every
//! [`SAVE_EVERY`] labels and when stopped) and fitting through the one
//! supervised fitter ([`fit_supervised_until`]), each round from the
//! previous round's net (expert iteration).
//!
//! Files in the run folder: `distill-run.json` (the settings the run was
//! started with: a later call, to resume or to add rounds, must give the
//! same ones, or its rounds would mix positions and labels of two runs),
//! `round-<k>/dataset.gds` and `round-<k>/weights.gnn` per round,
//! `weights.gnn` (the last round's net), and with benchmarks
//! `learning-curve.csv` / `.svg` (ppg against pubeval after each round,
//! round 0 = the starting net; x = positions labelled so far).

use crate::checkpoint::BenchmarkRow;
use crate::dataset::{lookahead_labeller, Dataset};
use crate::distill::{label, sample_afterstates, sample_positions, DistillError, DistillSettings};
use crate::supervised::{fit_supervised_until, FitError, FitReport, FitSettings, Loss};
use gammon_engine::duel::{duel, DuelResult};
use gammon_eval::file_format::{self, FileError};
use gammon_eval::pubeval::PubEval;
use gammon_eval::{NetEvaluator, NetWeights};
use gammon_jobs::{CheckpointPolicy, Checkpoints, Fingerprint, Job, Progress, SettingsDiffer, StopFlag};
use gammon_rules::Position;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;
use thiserror::Error;

/// The file in the run folder that keeps the settings the run was started with.
pub const RUN_SETTINGS: &str = "distill-run.json";
/// Labels saved at least this often (a killed run loses at most these).
pub const SAVE_EVERY: u64 = 20_000;
/// Positions labelled between two looks at the stop flag.
const STEP: usize = 500;

/// A distillation run: its settings, the starting net's file, the folder.
#[derive(Clone, Debug)]
pub struct DistillRun {
    /// The settings.
    pub settings: DistillSettings,
    /// The starting net's file.
    pub from: PathBuf,
    /// The run folder.
    pub out: PathBuf,
}

/// Why a run stopped with an error.
#[derive(Debug, Error)]
pub enum DistillRunError {
    /// A setting out of range.
    #[error(transparent)]
    Setting(#[from] DistillError),
    /// The starting net cannot be loaded.
    #[error("cannot load the --from weights")]
    Start(#[source] FileError),
    /// A file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A folder could not be made, or the starting net's file found.
    #[error("cannot {what} {}", .path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads")]
    Threads(usize),
    /// The run folder, or a round's labels, were made with other settings.
    #[error("{} {differ}; use the same settings to resume it or add rounds, or another --out", .path.display())]
    OtherSettings {
        /// The file that holds the other settings.
        path: PathBuf,
        /// Which, with both values.
        differ: SettingsDiffer,
    },
    /// `distill-run.json` is not a run's settings.
    #[error("{} is not a distill run's settings ({reason})", .path.display())]
    NotSettings {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The fit failed.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// The learning curve could not be drawn.
    #[error("cannot draw {}: {reason}", .path.display())]
    Plot {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum DistillEnd {
    /// Every round is done; the last round's net is in this file.
    Finished(PathBuf),
    /// Stopped while labelling round `round`: the labels made so far are in
    /// `dataset`.
    StoppedLabelling {
        /// The round.
        round: u32,
        /// Its labels.
        dataset: PathBuf,
    },
    /// Stopped while fitting round `round`: its labels are all in
    /// `dataset`, and the fit starts again on the next call.
    StoppedFitting {
        /// The round.
        round: u32,
        /// Its labels.
        dataset: PathBuf,
    },
}

/// The settings that decide what a run's rounds sample, label and train,
/// as `distill-run.json` keeps them (not the rounds, threads or benchmark
/// games, which a later call may change).
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct RunSettings {
    from: PathBuf,
    positions: usize,
    ply: u8,
    candidates: usize,
    afterstates: usize,
    epochs: u32,
    rate: f32,
    seed: u64,
}

impl RunSettings {
    fn of(run: &DistillRun) -> Result<Self, DistillRunError> {
        let from = std::fs::canonicalize(&run.from).map_err(|source| DistillRunError::Io {
            what: "read",
            path: run.from.clone(),
            source,
        })?;
        let s = &run.settings;
        Ok(RunSettings {
            from,
            positions: s.positions,
            ply: s.ply,
            candidates: s.candidates,
            afterstates: s.afterstates,
            epochs: s.epochs,
            rate: s.rate,
            seed: s.seed,
        })
    }

    /// The settings by their command-line options.
    fn fingerprint(&self) -> Fingerprint {
        Fingerprint::new()
            .with("--from", self.from.display())
            .with("--positions", self.positions)
            .with("--ply", self.ply)
            .with("--candidates", self.candidates)
            .with("--afterstates", self.afterstates)
            .with("--epochs", self.epochs)
            .with("--rate", self.rate)
            .with("--seed", self.seed)
    }

    /// Saves these settings at `path`, or, if a run there was started
    /// already, refuses settings that differ from its.
    fn check_or_save(&self, path: &Path) -> Result<(), DistillRunError> {
        if path.exists() {
            let bytes = file_format::read_bounded(path, 64 * 1024)?;
            let was: RunSettings = serde_json::from_slice(&bytes)
                .map_err(|e| DistillRunError::NotSettings { path: path.to_path_buf(), reason: e.to_string() })?;
            return self
                .fingerprint()
                .resume(&was.fingerprint())
                .map_err(|differ| DistillRunError::OtherSettings { path: path.to_path_buf(), differ });
        }
        let text = serde_json::to_string_pretty(&gammon_engine::api::json::document(self))
            .map_err(|e| DistillRunError::NotSettings { path: path.to_path_buf(), reason: e.to_string() })?;
        Ok(file_format::write_output(path, text.as_bytes())?)
    }
}

/// The lookahead settings of a round's labels, by their options.
fn labels_fingerprint(ply: u8, candidates: u32, afterstates: u32) -> Fingerprint {
    Fingerprint::new().with("--ply", ply).with("--candidates", candidates).with("--afterstates", afterstates)
}

/// How distillation fits: the supervised fitter's defaults (mini-batches,
/// a held-out validation set, early stopping), at most `epochs` passes from
/// `rate`, the round's seed.
pub fn fit_settings(settings: &DistillSettings, seed: u64) -> FitSettings {
    FitSettings {
        loss: Loss::SquaredError,
        max_epochs: settings.epochs,
        rate: settings.rate,
        seed,
        ..FitSettings::default()
    }
}

fn mkdir(path: &Path) -> Result<(), DistillRunError> {
    std::fs::create_dir_all(path).map_err(|source| DistillRunError::Io { what: "create", path: path.into(), source })
}

/// Runs (or goes on with) `run`: each round not yet done samples, labels
/// and fits; `benchmarked(round, result)` hears each duel against pubeval
/// (round 0: the starting net); `progress` sees the labelling and a line
/// for each step. A set `stop` ends the labelling after the step in hand
/// (every label made is saved) or the fit after its epoch (nothing of it is
/// kept: the next call fits the round again from its saved labels).
///
/// # Errors
/// [`DistillRunError`]; the work finished before it is saved.
pub fn distill(
    run: &DistillRun,
    progress: &dyn Progress,
    stop: &StopFlag,
    mut benchmarked: impl FnMut(u32, &DuelResult),
) -> Result<DistillEnd, DistillRunError> {
    let s = &run.settings;
    s.validate()?;
    let start = NetWeights::load(&run.from).map_err(DistillRunError::Start)?;
    mkdir(&run.out)?;
    RunSettings::of(run)?.check_or_save(&run.out.join(RUN_SETTINGS))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(s.threads)
        .build()
        .map_err(|_| DistillRunError::Threads(s.threads))?;
    let mut curve = Vec::new();
    let mut record = |round: u32, w: &NetWeights| -> Result<(), DistillRunError> {
        if s.benchmark_pairs == 0 {
            return Ok(());
        }
        let seed = crate::trainer::BENCHMARK_SEED;
        let r = pool.install(|| duel(&NetEvaluator::new(w.clone()), &PubEval, s.benchmark_pairs, seed));
        benchmarked(round, &r);
        curve.push(BenchmarkRow {
            games: u64::from(round) * s.positions as u64,
            ppg: r.ppg,
            standard_error: r.standard_error,
            win_rate: r.win_rate,
            elapsed_s: 0.0,
        });
        let (csv, svg) = (run.out.join("learning-curve.csv"), run.out.join("learning-curve.svg"));
        crate::plot::write_csv(&csv, &curve)?;
        crate::plot::write_svg(&svg, "gammon distill: ppg vs pubeval after each round", "positions labelled", &curve)
            .map_err(|reason| DistillRunError::Plot { path: svg, reason })
    };
    record(0, &start)?;
    let start_notes = start.meta.notes.clone();
    let mut weights = start;
    for round in 1..=s.rounds {
        let dir = run.out.join(format!("round-{round}"));
        let done = dir.join("weights.gnn");
        if done.exists() {
            progress.note(&format!("round {round}: already done ({})", done.display()));
            weights = NetWeights::load(&done)?;
        } else {
            mkdir(&dir)?;
            let seed = s.seed.wrapping_add(u64::from(round));
            let dataset = dir.join("dataset.gds");
            let (mut trained, _) = match distill_round(s, &pool, &weights, &dataset, seed, progress, stop)? {
                Round::Trained(w, report) => (*w, report),
                Round::StoppedLabelling => return Ok(DistillEnd::StoppedLabelling { round, dataset }),
                Round::StoppedFitting => return Ok(DistillEnd::StoppedFitting { round, dataset }),
            };
            trained.meta.notes = format!(
                "{start_notes} + {round} round{} of {}-ply distillation",
                if round == 1 { "" } else { "s" },
                s.ply
            );
            trained.save(&done)?;
            weights = trained;
        }
        record(round, &weights)?;
    }
    let out = run.out.join("weights.gnn");
    weights.save(&out)?;
    Ok(DistillEnd::Finished(out))
}

/// How a round ended.
#[derive(Debug)]
pub enum Round {
    /// Labelled and fitted: the new net and what the fit did.
    Trained(Box<NetWeights>, FitReport),
    /// Stopped while labelling (the labels made are saved).
    StoppedLabelling,
    /// Stopped while fitting (the net is not kept).
    StoppedFitting,
}

/// One round from `weights`: sample positions with `seed`, label those not
/// yet in `dataset` (resuming it) and fit the net to all of them.
///
/// # Errors
/// [`DistillRunError`].
pub fn distill_round(
    s: &DistillSettings,
    pool: &rayon::ThreadPool,
    weights: &NetWeights,
    dataset: &Path,
    seed: u64,
    progress: &dyn Progress,
    stop: &StopFlag,
) -> Result<Round, DistillRunError> {
    let (candidates, afterstates) = (s.candidates as u32, s.afterstates as u32);
    let data = if dataset.exists() {
        let d = Dataset::load(dataset)?;
        labels_fingerprint(s.ply, candidates, afterstates)
            .resume(&labels_fingerprint(d.ply, d.candidates, d.afterstates))
            .map_err(|differ| DistillRunError::OtherSettings { path: dataset.to_path_buf(), differ })?;
        progress.note(&format!("resuming: {} positions already labelled", d.positions.len()));
        d
    } else {
        Dataset {
            ply: s.ply,
            candidates,
            afterstates,
            labeller: lookahead_labeller(s.ply, candidates),
            ..Dataset::default()
        }
    };
    let positions = pool.install(|| {
        if s.afterstates > 0 {
            sample_afterstates(weights, s.positions, seed, s.explore, s.afterstates)
        } else {
            sample_positions(weights, s.positions, seed, s.explore)
        }
    });
    let already = data.len() as u64;
    let mut job =
        Labelling { s, pool, weights, positions, data, path: dataset, progress, started: Instant::now(), already };
    let mut checkpoints = Checkpoints::new(CheckpointPolicy::items(SAVE_EVERY), already);
    if let gammon_jobs::Ended::Stopped { .. } = gammon_jobs::run(&mut job, stop, progress, &mut checkpoints)? {
        return Ok(Round::StoppedLabelling);
    }
    let mut trained = weights.clone();
    let report = pool.install(|| {
        fit_supervised_until(
            &mut trained,
            &[&job.data],
            &fit_settings(s, seed),
            |row| progress.note(&row.to_string()),
            stop.as_atomic(),
        )
    })?;
    if report.stopped {
        return Ok(Round::StoppedFitting);
    }
    for n in &report.nets {
        progress.note(&n.to_string());
    }
    trained.meta.notes = format!("{} + {}-ply distillation ({} positions)", weights.meta.notes, s.ply, job.data.len());
    trained.meta.date = crate::trainer::utc_now();
    Ok(Round::Trained(Box::new(trained), report))
}

/// A round's labelling for the runner: a step labels the next [`STEP`]
/// positions, a save writes the dataset.
struct Labelling<'a> {
    s: &'a DistillSettings,
    pool: &'a rayon::ThreadPool,
    weights: &'a NetWeights,
    positions: Vec<Position>,
    data: Dataset,
    path: &'a Path,
    progress: &'a dyn Progress,
    started: Instant,
    already: u64,
}

impl Job for Labelling<'_> {
    type Error = DistillRunError;

    fn done(&self) -> u64 {
        self.data.len() as u64
    }

    fn total(&self) -> u64 {
        self.positions.len() as u64
    }

    fn step(&mut self, _: &StopFlag) -> Result<(), DistillRunError> {
        let from = self.data.len();
        let to = (from + STEP).min(self.positions.len());
        let batch = &self.positions[from..to];
        let labels = self.pool.install(|| label(self.weights, batch, self.s.ply, self.s.candidates));
        self.data.positions.extend(batch.iter().map(Position::to_position_id));
        self.data.labels.extend(labels);
        Ok(())
    }

    fn save(&mut self) -> Result<(), DistillRunError> {
        self.data.save(self.path)?;
        let done = self.done();
        let per_second = (done - self.already) as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
        self.progress.note(&format!("labelled {done}/{} ({per_second:.0} positions/s)", self.total()));
        Ok(())
    }
}

#[cfg(test)]
mod tests;
