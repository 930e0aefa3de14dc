//! Training checkpoints: everything needed to continue a run exactly where
//! it stopped, written atomically through gammon's file format.
//!
//! Every game's dice come from its own stream of the run's seed (stream =
//! game number), so the random state is the game counter; the trainer
//! has no optimizer state besides the schedule position (also the game
//! counter), and traces live only within a game. The pipeline schedule
//! ([`crate::config::Schedule::Pipeline`]) also keeps the weights its next
//! games start from, which do not hold the latest games' changes yet
//! ([`Checkpoint::delayed`]): with them a resumed run continues bit for bit
//! where it stopped, wherever that was.

use crate::config::{Schedule, TrainConfig};
use gammon_eval::file_format::{self, FileError, FileKind};
use gammon_eval::NetWeights;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Version 2 added [`Checkpoint::delayed`]; version 1 (rounds only) is
/// still read, with no delayed weights.
const CHECKPOINT_VERSION: u32 = 2;
const CHECKPOINT_VERSION_1: u32 = 1;
/// The largest checkpoint payload read: 256 MiB.
const MAX_CHECKPOINT_BYTES: u64 = 256 << 20;

/// One row of the learning curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchmarkRow {
    /// Games trained when measured.
    pub games: u64,
    /// Points per game against pubeval.
    pub ppg: f64,
    /// Its standard error.
    pub standard_error: f64,
    /// Win rate.
    pub win_rate: f64,
    /// Seconds of training so far.
    pub elapsed_s: f64,
}

/// The state of a run between two rounds (rounds schedule), or at a point
/// where every game begun is merged (pipeline schedule).
#[derive(Clone, Debug, PartialEq)]
pub struct Checkpoint {
    /// The run's settings.
    pub config: TrainConfig,
    /// Games trained so far; also the next game's dice stream.
    pub games_done: u64,
    /// The nets: the initial weights plus the changes of every game played.
    pub weights: NetWeights,
    /// Pipeline schedule only (empty for rounds): the weights after games
    /// `games_done - k` for `k` = `delayed.len()` down to 1, oldest first:
    /// the next `delayed.len()` games start from them in turn (game `n`
    /// starts from the weights after `n + 1 - round_games` games). That is
    /// `min(games_done, round_games - 1)` nets.
    pub delayed: Vec<NetWeights>,
    /// Benchmarks so far.
    pub log: Vec<BenchmarkRow>,
    /// Seconds spent training so far.
    pub elapsed_s: f64,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    config_toml: String,
    games_done: u64,
    weights: Vec<u8>,
    delayed: Vec<Vec<u8>>,
    log: Vec<BenchmarkRow>,
    elapsed_s: f64,
}

/// Version 1: no delayed weights.
#[derive(Deserialize)]
struct StoredV1 {
    config_toml: String,
    games_done: u64,
    weights: Vec<u8>,
    log: Vec<BenchmarkRow>,
    elapsed_s: f64,
}

impl From<StoredV1> for Stored {
    fn from(v1: StoredV1) -> Self {
        Stored {
            config_toml: v1.config_toml,
            games_done: v1.games_done,
            weights: v1.weights,
            delayed: Vec::new(),
            log: v1.log,
            elapsed_s: v1.elapsed_s,
        }
    }
}

impl Checkpoint {
    /// Writes the checkpoint to `path` atomically.
    ///
    /// # Errors
    /// Encoding or the file system failed; the old checkpoint is then intact.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let stored = Stored {
            config_toml: self.config.to_toml(),
            games_done: self.games_done,
            weights: self.weights.to_bytes()?,
            delayed: self.delayed.iter().map(NetWeights::to_bytes).collect::<Result<_, _>>()?,
            log: self.log.clone(),
            elapsed_s: self.elapsed_s,
        };
        file_format::write_file_atomic(path, FileKind::Checkpoint, CHECKPOINT_VERSION, &stored)
    }

    /// Reads a checkpoint, checking it fully: its header, then no more than
    /// the payload it announces, of at most 256 MiB (see
    /// [`file_format::read_file`]). Errors name the file once.
    ///
    /// # Errors
    /// Unreadable, truncated, corrupt, another version, or inconsistent.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let stored: Stored =
            match file_format::read_file(path, FileKind::Checkpoint, CHECKPOINT_VERSION, MAX_CHECKPOINT_BYTES) {
                Err(FileError::InFile { problem, .. })
                    if matches!(*problem, FileError::Version { found: CHECKPOINT_VERSION_1, .. }) =>
                {
                    file_format::read_file::<StoredV1>(
                        path,
                        FileKind::Checkpoint,
                        CHECKPOINT_VERSION_1,
                        MAX_CHECKPOINT_BYTES,
                    )?
                    .into()
                }
                other => other?,
            };
        Self::from_stored(stored).map_err(|e| FileError::in_file(path, e))
    }

    fn from_stored(stored: Stored) -> Result<Self, FileError> {
        let config: TrainConfig =
            toml::from_str(&stored.config_toml).map_err(|e| FileError::Invalid(format!("checkpoint settings: {e}")))?;
        config.validate().map_err(|e| FileError::Invalid(format!("checkpoint settings: {e}")))?;
        let weights = NetWeights::from_bytes(&stored.weights)?;
        let delayed = stored.delayed.iter().map(|b| NetWeights::from_bytes(b)).collect::<Result<Vec<_>, _>>()?;
        let shaped = |w: &NetWeights| {
            w.contact.hidden() == config.contact_hidden
                && w.crashed.hidden() == config.contact_hidden
                && w.race.hidden() == config.race_hidden
        };
        if !shaped(&weights) || !delayed.iter().all(shaped) {
            return Err(FileError::Invalid("checkpoint nets do not match its settings".into()));
        }
        if delayed.len() as u64 != expected_delayed(&config, stored.games_done) {
            return Err(FileError::Invalid(format!(
                "checkpoint holds {} delayed nets; its settings and game count need {}",
                delayed.len(),
                expected_delayed(&config, stored.games_done)
            )));
        }
        if !stored.elapsed_s.is_finite() || stored.elapsed_s < 0.0 {
            return Err(FileError::Invalid("checkpoint time is not a valid number".into()));
        }
        Ok(Checkpoint {
            config,
            games_done: stored.games_done,
            weights,
            delayed,
            log: stored.log,
            elapsed_s: stored.elapsed_s,
        })
    }
}

/// How many delayed nets a run with `config` keeps after `games_done` games.
pub fn expected_delayed(config: &TrainConfig, games_done: u64) -> u64 {
    match config.schedule {
        Schedule::Rounds => 0,
        Schedule::Pipeline => games_done.min(config.round_games - 1),
    }
}

/// The files of a run that are written through a temporary file.
const ATOMIC_FILES: [&str; 3] = ["checkpoint.gck", "weights.gnn", "config.toml"];

/// True for the name of a temporary file that the safe writer
/// ([`file_format::output`]) makes for one of the run's files,
/// `.<name>.<random>.gammon-tmp`, or that gammon before it made,
/// `.<name>.tmp-<process id>`.
fn is_our_temp_file(file_name: &str) -> bool {
    ATOMIC_FILES.iter().any(|target| {
        let Some(rest) = file_name.strip_prefix('.').and_then(|rest| rest.strip_prefix(target)) else {
            return false;
        };
        let old =
            rest.strip_prefix(".tmp-").is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()));
        let random = rest.strip_prefix('.').and_then(|r| r.strip_suffix(file_format::output::TEMP_SUFFIX));
        old || random.is_some_and(|r| !r.is_empty())
    })
}

/// Removes the temporary files a killed run (`kill -9` while writing a
/// checkpoint or the weights) left in its folder `dir`, and returns their
/// paths. Only the run's own temporary-file names are touched.
///
/// # Errors
/// The folder cannot be listed or a file cannot be removed.
pub fn remove_stale_temp_files(dir: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let is_ours = entry.file_name().to_str().is_some_and(is_our_temp_file);
        if is_ours && entry.file_type()?.is_file() {
            std::fs::remove_file(entry.path())?;
            removed.push(entry.path());
        }
    }
    removed.sort();
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_our_temporary_file_names_are_recognised() {
        assert!(is_our_temp_file(".checkpoint.gck.tmp-12345"));
        assert!(is_our_temp_file(".weights.gnn.tmp-7"));
        assert!(is_our_temp_file(".config.toml.tmp-7"));
        assert!(is_our_temp_file(".weights.gnn.Xy12Ab.gammon-tmp"));
        assert!(!is_our_temp_file(".notes.txt.Xy12Ab.gammon-tmp"));
        assert!(!is_our_temp_file(".weights.gnn.gammon-tmp"));
        for other in [
            "checkpoint.gck",
            ".checkpoint.gck.tmp-",
            ".checkpoint.gck.tmp-12x",
            "checkpoint.gck.tmp-12",
            ".config.tml.tmp-12",
            ".notes.tmp-12",
            "learning-curve.csv",
        ] {
            assert!(!is_our_temp_file(other), "{other}");
        }
    }
}
