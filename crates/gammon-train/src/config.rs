//! Training settings: read from a TOML file under `training/`, with
//! command-line overrides applied by the caller.

use serde::{Deserialize, Serialize};
use std::path::Path;
use thiserror::Error;

/// The most worker threads any part of the program starts (the engine's
/// limit, also training's).
pub use gammon_engine::api::MAX_THREADS;

/// A step of the learning-rate schedule: from game `from` on, use `rate`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateStep {
    /// First game (counted from the start of the run) this rate applies to.
    pub from: u64,
    /// Learning rate.
    pub rate: f32,
}

/// How the games of a run share the weights they train (see
/// `docs/dev/training.md` and the `trainer` module).
///
/// Both give the same weights bit for bit at any thread count; they differ
/// in which changes each game sees, so one settings file gives different
/// weights under each, and the schedule is fixed for the whole run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// Rounds of `round_games` games, each round from one snapshot of the
    /// weights, merged in game order when the round is over. The schedule of
    /// every run made before the pipeline, and of any settings file without
    /// a `schedule` key, so that those runs reproduce.
    Rounds,
    /// A pipeline with a fixed delay of `round_games` games: game `n` starts
    /// from the initial weights plus the changes of games `0..=n -
    /// round_games`, and each game's change is merged in game order as soon
    /// as the games before it are merged. No round barrier: a thread waits
    /// only for a game its next game depends on. New runs use it.
    Pipeline,
}

impl Schedule {
    /// The schedule of a settings file or checkpoint without a `schedule`
    /// key: every run made before the key existed used rounds.
    fn missing() -> Self {
        Schedule::Rounds
    }
}

/// Everything that defines a training run.
///
/// A resumed run (`gammon train --resume`) keeps its settings from the
/// checkpoint. Edits to its `config.toml` are applied only for the settings
/// in [`RESUMABLE_KEYS`] (how long and how fast it runs, how often it saves
/// and measures); every other setting (net shape, seed, λ, rates, round
/// size, …) shapes the weights already trained and cannot change mid-run:
/// see [`TrainConfig::apply_on_resume`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TrainConfig {
    /// Run name (the folder under `training/runs/`).
    pub name: String,
    /// Total self-play games.
    pub games: u64,
    /// Seed: weights initialisation and every game's dice.
    pub seed: u64,
    /// Worker threads.
    pub threads: usize,
    /// TD(λ) λ: 0 updates each position toward the next one only; above 0,
    /// eligibility traces (one per output and weight) spread each error back.
    pub lambda: f32,
    /// λ schedule in games: `(from, lambda)` steps; empty = `lambda` throughout.
    #[serde(default)]
    pub lambda_schedule: Vec<(u64, f32)>,
    /// Learning rate schedule.
    pub learning_rate: Vec<RateStep>,
    /// Hidden units of the contact net.
    pub contact_hidden: usize,
    /// Hidden units of the race net.
    pub race_hidden: usize,
    /// Initial weights are uniform in ±`init_scale`.
    pub init_scale: f32,
    /// How games share the weights: `"pipeline"` (new runs) or `"rounds"`
    /// (the default of a file without this key: every run made before the
    /// pipeline).
    #[serde(default = "Schedule::missing")]
    pub schedule: Schedule,
    /// The unit of parallelism: how many games may run at once on weights
    /// that do not see each other's changes. With `schedule = "rounds"`, the
    /// games of a round, played on one snapshot of the weights before their
    /// changes are merged; with `"pipeline"`, the delay: each game starts
    /// without the changes of the `round_games - 1` games before it. More
    /// threads than this do not help.
    pub round_games: u64,
    /// Write a checkpoint every this many games.
    pub checkpoint_every: u64,
    /// Duel against pubeval every this many games (0 = never).
    pub benchmark_every: u64,
    /// Pairs of duplicate games per benchmark duel.
    pub benchmark_pairs: u64,
}

/// A configuration that cannot be used.
#[derive(Debug, Error)]
pub enum ConfigError {
    /// The file cannot be read (its message names it).
    #[error(transparent)]
    File(#[from] gammon_eval::file_format::FileError),
    /// Not valid TOML for a configuration.
    #[error("{path}: {message}")]
    Parse {
        /// The file.
        path: String,
        /// The parser's message.
        message: String,
    },
    /// A value out of range.
    #[error("invalid setting: {0}")]
    Invalid(String),
    /// Settings that cannot change in a run that has started were edited.
    #[error(
        "settings fixed for the whole run were changed: {}; start a new run for these \
         (a resumed run may change only {})",
        join(.0),
        RESUMABLE_KEYS.join(", ")
    )]
    FixedOnResume(Vec<SettingChange>),
}

/// The settings a resumed run may change: they do not shape the weights
/// trained so far. Every other key is fixed for the whole run.
pub const RESUMABLE_KEYS: [&str; 5] = ["games", "threads", "checkpoint_every", "benchmark_every", "benchmark_pairs"];

/// One setting that differs between a run's settings and an edited file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingChange {
    /// The TOML key.
    pub key: String,
    /// The run's value, as TOML (`(none)` if absent).
    pub old: String,
    /// The edited value, as TOML (`(none)` if absent).
    pub new: String,
}

impl std::fmt::Display for SettingChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} changed from {} to {}", self.key, self.old, self.new)
    }
}

fn join(changes: &[SettingChange]) -> String {
    changes.iter().map(ToString::to_string).collect::<Vec<_>>().join(", ")
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            name: "run".into(),
            games: 100_000,
            seed: 1,
            threads: 2,
            lambda: 0.0,
            lambda_schedule: Vec::new(),
            learning_rate: vec![RateStep { from: 0, rate: 0.1 }],
            contact_hidden: 128,
            race_hidden: 64,
            init_scale: 0.1,
            schedule: Schedule::Pipeline,
            round_games: 2,
            checkpoint_every: 10_000,
            benchmark_every: 50_000,
            benchmark_pairs: 500,
        }
    }
}

/// The largest settings file read: 1 MiB (real ones are under 1 kB).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

impl TrainConfig {
    /// Reads and checks a TOML file of at most [`MAX_CONFIG_BYTES`].
    ///
    /// # Errors
    /// Unreadable, malformed, unknown keys, or values out of range.
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = gammon_eval::file_format::read_text(path, MAX_CONFIG_BYTES)?;
        let config: TrainConfig = toml::from_str(&text)
            .map_err(|e| ConfigError::Parse { path: path.display().to_string(), message: e.to_string() })?;
        config.validate()?;
        Ok(config)
    }

    /// The configuration as TOML.
    pub fn to_toml(&self) -> String {
        toml::to_string(self).unwrap_or_default()
    }

    /// Checks every value.
    ///
    /// # Errors
    /// The first value out of range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let bad = |s: String| Err(ConfigError::Invalid(s));
        if self.games == 0 {
            // Zero games would write the random starting weights as if trained.
            return bad("games must be at least 1".into());
        }
        if self.threads == 0 || self.threads > MAX_THREADS {
            return bad(format!("threads = {} (1 to {MAX_THREADS})", self.threads));
        }
        if !(0.0..=1.0).contains(&self.lambda) || self.lambda_schedule.iter().any(|s| !(0.0..=1.0).contains(&s.1)) {
            return bad("lambda must be between 0 and 1".into());
        }
        if self.learning_rate.is_empty() || self.learning_rate[0].from != 0 {
            return bad("learning_rate needs a step with from = 0".into());
        }
        if self.learning_rate.windows(2).any(|w| w[1].from <= w[0].from) {
            return bad("learning_rate steps must have increasing `from`".into());
        }
        if self.learning_rate.iter().any(|s| !(s.rate > 0.0 && s.rate < 10.0)) {
            return bad("learning rates must be in (0, 10)".into());
        }
        if !(1..=4096).contains(&self.contact_hidden) || !(1..=4096).contains(&self.race_hidden) {
            return bad("hidden sizes must be 1 to 4096".into());
        }
        if !(self.init_scale > 0.0 && self.init_scale <= 1.0) {
            return bad("init_scale must be in (0, 1]".into());
        }
        if self.round_games == 0 || self.round_games > 4096 {
            return bad("round_games must be 1 to 4096".into());
        }
        if self.checkpoint_every == 0 {
            return bad("checkpoint_every must be at least 1".into());
        }
        if self.benchmark_every > 0 && self.benchmark_pairs == 0 {
            return bad("benchmark_pairs must be at least 1".into());
        }
        if self.name.is_empty() || self.name.contains(['/', '\\']) || self.name.starts_with('.') {
            return bad(format!("name {:?} must be a plain folder name", self.name));
        }
        Ok(())
    }

    /// Every setting whose value differs in `edited`, in key order.
    pub fn changes_to(&self, edited: &TrainConfig) -> Vec<SettingChange> {
        // Comparing the TOML forms key by key covers every setting, present
        // and future, without a hand-kept list of fields; the comparison is
        // the jobs crate's, as for every resume.
        let settings = |c: &TrainConfig| {
            let table = toml::Table::try_from(c).unwrap_or_default();
            table.iter().fold(gammon_jobs::Fingerprint::new(), |f, (k, v)| f.with(k, v))
        };
        let none = || "(none)".to_string();
        settings(edited).resume(&settings(self)).err().map_or_else(Vec::new, |differ| {
            differ
                .0
                .into_iter()
                .map(|d| SettingChange {
                    key: d.name,
                    old: d.saved.unwrap_or_else(none),
                    new: d.now.unwrap_or_else(none),
                })
                .collect()
        })
    }

    /// Takes the [`RESUMABLE_KEYS`] settings of `edited` (an edited settings
    /// file of this run) and returns what changed.
    ///
    /// # Errors
    /// [`ConfigError::FixedOnResume`], naming every other setting that
    /// differs; nothing is changed then.
    pub fn apply_on_resume(&mut self, edited: &TrainConfig) -> Result<Vec<SettingChange>, ConfigError> {
        let changes = self.changes_to(edited);
        let fixed: Vec<SettingChange> =
            changes.iter().filter(|c| !RESUMABLE_KEYS.contains(&c.key.as_str())).cloned().collect();
        if !fixed.is_empty() {
            return Err(ConfigError::FixedOnResume(fixed));
        }
        self.games = edited.games;
        self.threads = edited.threads;
        self.checkpoint_every = edited.checkpoint_every;
        self.benchmark_every = edited.benchmark_every;
        self.benchmark_pairs = edited.benchmark_pairs;
        Ok(changes)
    }

    /// The learning rate for game number `game`.
    pub fn rate_at(&self, game: u64) -> f32 {
        self.learning_rate.iter().take_while(|s| s.from <= game).last().map_or(0.1, |s| s.rate)
    }

    /// λ for game number `game`.
    pub fn lambda_at(&self, game: u64) -> f32 {
        self.lambda_schedule.iter().take_while(|s| s.0 <= game).last().map_or(self.lambda, |s| s.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_and_validation() {
        let mut c = TrainConfig {
            learning_rate: vec![RateStep { from: 0, rate: 0.1 }, RateStep { from: 100, rate: 0.02 }],
            ..TrainConfig::default()
        };
        assert_eq!(c.rate_at(0), 0.1);
        assert_eq!(c.rate_at(99), 0.1);
        assert_eq!(c.rate_at(100), 0.02);
        assert!(c.validate().is_ok());
        c.threads = 0;
        assert!(c.validate().is_err());
    }

    #[test]
    fn resuming_applies_the_resumable_settings_and_names_them() {
        let mut run = TrainConfig::default();
        let edited = TrainConfig { games: run.games * 2, threads: 1, checkpoint_every: 7, ..run.clone() };
        let changes = run.apply_on_resume(&edited).unwrap();
        let keys: Vec<&str> = changes.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["checkpoint_every", "games", "threads"]);
        assert_eq!(changes[1].to_string(), "games changed from 100000 to 200000");
        assert_eq!(run, edited);
        assert!(run.apply_on_resume(&edited).unwrap().is_empty());
    }

    #[test]
    fn resuming_refuses_fixed_settings_and_names_each() {
        let mut run = TrainConfig::default();
        let before = run.clone();
        let edited = TrainConfig { seed: 9, round_games: 16, games: 5, schedule: Schedule::Rounds, ..run.clone() };
        let err = run.apply_on_resume(&edited).unwrap_err();
        let ConfigError::FixedOnResume(fixed) = &err else { panic!("{err}") };
        let keys: Vec<&str> = fixed.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, ["round_games", "schedule", "seed"]);
        let text = err.to_string();
        assert!(
            text.contains("round_games changed from 2 to 16")
                && text.contains("seed changed from 1 to 9")
                && text.contains(r#"schedule changed from "pipeline" to "rounds""#),
            "{text}"
        );
        assert_eq!(run, before, "nothing applied");
    }

    #[test]
    fn toml_round_trip_and_unknown_keys() {
        let c = TrainConfig::default();
        let back: TrainConfig = toml::from_str(&c.to_toml()).unwrap();
        assert_eq!(back, c);
        let bad = format!("{}\nbogus = 1\n", c.to_toml());
        assert!(toml::from_str::<TrainConfig>(&bad).is_err());
        let rounds = TrainConfig { schedule: Schedule::Rounds, ..c.clone() };
        let back: TrainConfig = toml::from_str(&rounds.to_toml()).unwrap();
        assert_eq!(back, rounds);
    }

    #[test]
    fn new_runs_use_the_pipeline_and_files_without_a_schedule_use_rounds() {
        let c = TrainConfig::default();
        assert_eq!(c.schedule, Schedule::Pipeline);
        assert!(c.to_toml().contains("schedule = \"pipeline\"\n"), "{}", c.to_toml());
        // A file written before the key existed (every committed run) reads
        // as rounds, so that it reproduces its weights.
        let old: String =
            c.to_toml().lines().filter(|l| !l.starts_with("schedule")).map(|l| format!("{l}\n")).collect();
        let old: TrainConfig = toml::from_str(&old).unwrap();
        assert_eq!(old, TrainConfig { schedule: Schedule::Rounds, ..c.clone() });
        let bad = c.to_toml().replace("\"pipeline\"", "\"barrier\"");
        assert!(toml::from_str::<TrainConfig>(&bad).is_err());
        for file in ["td0-main.toml", "v2-finetune.toml", "runs/td0-main/config.toml", "runs/v2-finetune/config.toml"] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../training").join(file);
            assert_eq!(TrainConfig::load(&path).unwrap().schedule, Schedule::Rounds, "{file}");
        }
    }
}
