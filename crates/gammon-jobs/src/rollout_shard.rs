//! A resumable rollout shard (`gammon rollout --shard K/N --out FILE`): the
//! games of one shard played into a file, resumed from what the file holds,
//! saved every [`CHECKPOINT_EVERY`] and when stopped, so that a killed task
//! loses at most that much and a stopped one nothing.

use crate::{CheckpointPolicy, Checkpoints, Fingerprint, SettingsDiffer, StopFlag};
use gammon_engine::api::{Engine, EngineError, Request, RolloutJob, RolloutShard};
use gammon_engine::rollout::{RolloutError, RolloutProgress, RolloutSettings};
use gammon_engine::shard::Shard;
use gammon_eval::file_format::FileError;
use gammon_eval::Evaluator;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;
use thiserror::Error;

/// How often a running shard saves its sums: a killed task loses at most this.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(30);

/// What a shard run plays.
#[derive(Debug)]
pub struct ShardJob<'a, E: Evaluator> {
    /// The engine whose net plays.
    pub engine: &'a Engine<E>,
    /// The position rolled out in its context, with the roll whose moves
    /// are rolled out, if any.
    pub request: &'a Request,
    /// Roll out the cube decision of the player on roll instead.
    pub cube_decision: bool,
    /// The rollout's settings.
    pub settings: RolloutSettings,
    /// Which part of the games.
    pub shard: Shard,
    /// The net's fingerprint (a shard of another net is not resumed).
    pub fingerprint: u64,
}

/// Why a shard run failed.
#[derive(Debug, Error)]
pub enum ShardRunError {
    /// The file to resume cannot be read.
    #[error("cannot resume {}", .path.display())]
    Load {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: FileError,
    },
    /// The file holds another shard of the rollout.
    #[error("{} holds shard {saved} and this is shard {this}: remove it or give another --out", .path.display())]
    OtherShard {
        /// The file.
        path: PathBuf,
        /// The shard it holds.
        saved: Shard,
        /// The shard asked for.
        this: Shard,
    },
    /// The file holds a shard of another rollout: `differ` names the
    /// settings that differ, with both values (empty when only the moves
    /// rolled out differ, which follow from the rest).
    #[error(
        "{} holds a shard of another rollout{}: remove it or give another --out",
        .path.display(),
        .differ.as_ref().map_or(String::new(), |d| format!(" (it {d})"))
    )]
    OtherRollout {
        /// The file.
        path: PathBuf,
        /// The settings that differ.
        differ: Option<SettingsDiffer>,
    },
    /// Stopped before any game finished: nothing to save.
    #[error("interrupted before any game finished")]
    Interrupted,
    /// A checkpoint or the final save failed (the run stopped: its work
    /// could not be kept).
    #[error("the shard could not be saved")]
    Save(#[source] FileError),
    /// The rollout itself failed.
    #[error("the rollout failed")]
    Rollout(#[source] EngineError),
}

/// Plays `job` into `out`, resuming what it holds: `resuming(k, of)` is
/// called first when `k` games of the shard's `of` are already there. Saves
/// every [`CHECKPOINT_EVERY`] and at the end, also when stopped; returns the
/// shard as saved (complete or not).
///
/// # Errors
/// [`ShardRunError`].
pub fn run<E: Evaluator>(
    job: &ShardJob<'_, E>,
    out: &Path,
    progress: impl Fn(&RolloutProgress) + Sync,
    resuming: impl FnOnce(u64, u64),
    stop: &StopFlag,
) -> Result<RolloutShard, ShardRunError> {
    let range = job.shard.trials(job.settings.trials);
    let resume = if out.exists() {
        let saved =
            RolloutShard::load(out).map_err(|source| ShardRunError::Load { path: out.to_path_buf(), source })?;
        if saved.shard != job.shard {
            return Err(ShardRunError::OtherShard { path: out.to_path_buf(), saved: saved.shard, this: job.shard });
        }
        Some(saved)
    } else {
        None
    };
    let saved_job = resume.as_ref().map(|r| r.job.clone());
    let resumed = resume.as_ref().map_or(0, |r| r.tally.trials().len());
    if resumed > 0 {
        resuming(resumed, range.end - range.start);
    }
    let checkpoints = Mutex::new(Checkpoints::new(CheckpointPolicy::every(CHECKPOINT_EVERY), 0));
    let save_error = Mutex::new(None);
    let checkpoint = |s: &RolloutShard| {
        let mut c = checkpoints.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if c.due(0) {
            if let Err(e) = s.save(out) {
                // Stop: a shard that cannot be saved is lost work.
                *save_error.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(e);
                stop.stop();
            }
            c.saved(0);
        }
    };
    let played = job.engine.rollout_shard(
        (job.request, job.cube_decision),
        &job.settings,
        job.shard,
        job.fingerprint,
        resume,
        progress,
        checkpoint,
        stop.as_atomic(),
    );
    if let Some(e) = save_error.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner) {
        return Err(ShardRunError::Save(e));
    }
    let played = match played {
        Err(EngineError::Rollout(RolloutError::Interrupted)) => return Err(ShardRunError::Interrupted),
        Err(EngineError::Rollout(RolloutError::Resume)) => {
            let now = job.engine.rollout_job((job.request, job.cube_decision), &job.settings, job.fingerprint);
            let differ =
                saved_job.zip(now.ok()).and_then(|(saved, now)| fingerprint(&now).resume(&fingerprint(&saved)).err());
            return Err(ShardRunError::OtherRollout { path: out.to_path_buf(), differ });
        }
        r => r.map_err(ShardRunError::Rollout)?,
    };
    played.save(out).map_err(ShardRunError::Save)?;
    Ok(played)
}

/// A rollout (as its shard file names it) by the options of `gammon rollout`
/// that set it.
fn fingerprint(saved: &RolloutJob) -> Fingerprint {
    let net = format!("{} ({:016x})", saved.evaluator, saved.fingerprint);
    let s = &saved.settings;
    let on_off = |b: bool| if b { "on" } else { "off" };
    let or_none = |x: Option<String>| x.unwrap_or_else(|| "none".to_string());
    Fingerprint::new()
        .with("position", &saved.position)
        .with("score and cube (XGID)", or_none(saved.context.clone()))
        .with("--cube-decision", on_off(saved.cube_decision))
        .with("--dice", or_none(saved.dice.clone()))
        .with("--games", s.trials)
        .with("--seed", s.seed)
        .with("--truncate", or_none(s.truncate.map(|t| t.to_string())))
        .with("variance reduction (--no-vr)", on_off(s.variance_reduction))
        .with("quasi-random dice (--no-quasi-random)", on_off(s.quasi_random))
        .with("--cubeful", on_off(s.cubeful))
        .with("--target-se", or_none(s.target_se.map(|x| x.to_string())))
        .with("--ply", s.ply)
        .with("exact bearoffs (--no-bearoff)", on_off(s.bearoff_exact))
        .with("--moves", or_none(s.candidates.map(|x| x.to_string())))
        .with("--weights", net)
}
