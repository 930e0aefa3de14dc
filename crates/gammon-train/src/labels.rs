//! Rollout labels: training positions labelled by rollouts of the current
//! net, the targets gnubg's and Open Sage's nets learned from.
//!
//! A label is the mean of a rollout's trials ([`rollout_position`](gammon_engine::rollout::rollout_position)): 0-ply
//! play by the net, quasi-random first two rolls, gnubg's luck adjustment
//! (variance reduction), truncation after a set number of half-moves with the
//! net's evaluation there (exact values for finished games and bearoffs, at
//! any depth). Its standard error comes with it. A truncated rollout trades
//! the noise of a long game for the net's own error at the truncation point,
//! discounted by the moves in between; how much of each, per CPU-second, is
//! measured in `training/runs/` (the issue asks the settings to be chosen
//! from that).
//!
//! Each position's rollout seed comes from the run's seed and the
//! position's ID alone ([`position_seed`]), so a label depends only on the
//! net, the settings and the position: the same whatever the order of the
//! positions file, the shard, the thread count or a resume.
//!
//! Sharding ([`Shard`]): shard `K/N` labels the positions whose index in the
//! positions file is `K` mod `N`; the shards of a file together label each
//! position once. `gammon merge` ([`merge_label_shards`]) interleaves them
//! back into the very dataset one unsharded run writes, which `gammon fit`
//! reads (as it reads any number of label files).

use crate::dataset::{Dataset, LabelSource};
use gammon_engine::in_order::map_in_order;
use gammon_engine::rollout::{rollout_position_until, RolloutError, RolloutSettings};
pub use gammon_engine::shard::Shard;
use gammon_eval::file_format::{self, FileError};
use gammon_eval::NetEvaluator;
use gammon_jobs::{CheckpointPolicy, Checkpoints, Fingerprint, Job, Progress, SettingsDiffer, StopFlag};
use gammon_rules::Position;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use thiserror::Error;

/// The most trials per label.
pub const MAX_LABEL_TRIALS: u64 = 1_296_000;
/// The largest positions file read, 256 MiB (about 16 M positions).
pub const MAX_POSITIONS_FILE_BYTES: u64 = 256 << 20;

/// How rollout labels are made.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LabelSettings {
    /// Trials per position: 1 to [`MAX_LABEL_TRIALS`]; a multiple of 36
    /// uses the quasi-random first roll fully.
    pub trials: u64,
    /// Half-moves played before the net's evaluation is taken (`None`: to
    /// the end of the game).
    pub truncate: Option<u32>,
    /// gnubg's luck adjustment.
    pub variance_reduction: bool,
    /// The run's seed (each position's comes from it and the position).
    pub seed: u64,
}

/// A labelling setting that cannot be used.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LabelError {
    /// A setting out of range.
    #[error("{setting} must be {rule} (got {got})")]
    Setting {
        /// The setting.
        setting: &'static str,
        /// What it must be.
        rule: String,
        /// The value given.
        got: String,
    },
    /// A line of the positions file that is not a Position ID.
    #[error("line {line}: {text:?} is not a gnubg Position ID ({reason})")]
    Position {
        /// Line number, from 1.
        line: usize,
        /// The text.
        text: String,
        /// Why not.
        reason: String,
    },
    /// A rollout that could not be run.
    #[error("position {position}: {source}")]
    Rollout {
        /// The Position ID.
        position: String,
        /// Why.
        source: RolloutError,
    },
}

impl LabelSettings {
    /// Checks every value.
    ///
    /// # Errors
    /// [`LabelError::Setting`] for the first value out of range.
    pub fn validate(&self) -> Result<(), LabelError> {
        if self.trials == 0 || self.trials > MAX_LABEL_TRIALS {
            return Err(LabelError::Setting {
                setting: "trials",
                rule: format!("1 to {MAX_LABEL_TRIALS}"),
                got: self.trials.to_string(),
            });
        }
        if self.truncate.is_some_and(|d| d > gammon_rules::MAX_TURNS) {
            return Err(LabelError::Setting {
                setting: "truncate",
                rule: format!("0 to {}", gammon_rules::MAX_TURNS),
                got: self.truncate.unwrap_or_default().to_string(),
            });
        }
        Ok(())
    }

    /// The labeller's description, with every setting (stored in the
    /// dataset: a resumed job must match it).
    pub fn describe(&self) -> String {
        let depth = match self.truncate {
            Some(d) => format!("truncated after {d} half-moves"),
            None => "played to the end".to_string(),
        };
        format!(
            "0-ply rollout: {} trials, {depth}, quasi-random dice, variance reduction {}, seed {}",
            self.trials,
            if self.variance_reduction { "on" } else { "off" },
            self.seed
        )
    }

    /// The rollout of position `id`.
    pub fn rollout(&self, id: &str) -> RolloutSettings {
        RolloutSettings {
            trials: self.trials,
            seed: position_seed(self.seed, id),
            truncate: self.truncate,
            variance_reduction: self.variance_reduction,
            quasi_random: true,
            cubeful: false,
            target_se: None,
            ply: 0,
            bearoff_exact: true,
            candidates: None,
        }
    }
}

/// The rollout seed of the position `id` in a run seeded `seed`:
/// SplitMix64 of the seed and the FNV-1a hash of the ID.
pub fn position_seed(seed: u64, id: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = seed ^ h;
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Reads a positions file: one gnubg Position ID per line (side on roll,
/// before rolling); blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// Unreadable, too large, not UTF-8, or a line that is not a Position ID
/// (the error names the line).
pub fn read_positions(path: &Path) -> Result<Vec<Position>, FileError> {
    let text = file_format::read_text(path, MAX_POSITIONS_FILE_BYTES)?;
    parse_positions(&text).map_err(|e| FileError::in_file(path, FileError::Invalid(e.to_string())))
}

/// The positions of a positions file's text (see [`read_positions`]).
///
/// # Errors
/// [`LabelError::Position`] for the first bad line.
pub fn parse_positions(text: &str) -> Result<Vec<Position>, LabelError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = Position::from_position_id(line).map_err(|e| LabelError::Position {
            line: n + 1,
            text: line.chars().take(40).collect(),
            reason: e.to_string(),
        })?;
        out.push(pos);
    }
    Ok(out)
}

/// The text of a positions file of `positions`, with `header` as comment
/// lines first.
pub fn positions_text(header: &str, positions: &[Position]) -> String {
    let mut s = String::with_capacity(positions.len() * 15 + header.len() + 8);
    for line in header.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    for p in positions {
        s.push_str(&p.to_position_id());
        s.push('\n');
    }
    s
}

/// One rollout label: the five means and their standard errors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Label {
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon.
    pub mean: [f32; 5],
    /// Their standard errors.
    pub standard_error: [f32; 5],
}

/// Labels `pos` by a rollout of `net` with `settings`, stopping early (with
/// [`RolloutError::Interrupted`]) once `stop` is set.
///
/// # Errors
/// The rollout cannot be run (an illegal position), or it was stopped.
pub fn label_position(
    net: &NetEvaluator,
    pos: &Position,
    settings: &LabelSettings,
    stop: &AtomicBool,
) -> Result<Label, LabelError> {
    let id = pos.to_position_id();
    let r = rollout_position_until(net, pos, &settings.rollout(&id), |_| {}, stop)
        .map_err(|source| LabelError::Rollout { position: id, source })?;
    if r.interrupted {
        return Err(LabelError::Rollout { position: pos.to_position_id(), source: RolloutError::Interrupted });
    }
    // Luck-adjusted means can stray just outside 0..1; labels are
    // probabilities.
    let mean = r.mean_probabilities().sanitized().to_array();
    Ok(Label { mean, standard_error: r.probabilities.map(|e| e.standard_error as f32) })
}

/// Labels the positions of `shard` not yet in `data` (whose first
/// `data.len()` entries are this shard's first positions, in file order),
/// `chunk` at a time; after each chunk `save` is called with the grown
/// dataset (to write it). Returns the number labelled by this call.
///
/// Once `stop` is set no position is started, the ones in hand are
/// finished (one per thread at most), and every finished label is kept and
/// saved: a stop loses no work. The workers take the positions in file
/// order, so the finished ones are always a prefix of the file.
///
/// # Errors
/// A position that cannot be rolled out (the labels before it are saved
/// first), or an error from `save`.
#[allow(clippy::too_many_arguments)]
pub fn label_shard<E>(
    net: &NetEvaluator,
    positions: &[Position],
    shard: Shard,
    settings: &LabelSettings,
    data: &mut Dataset,
    chunk: usize,
    stop: &StopFlag,
    progress: &dyn Progress,
    save: impl FnMut(&Dataset) -> Result<(), E>,
) -> Result<usize, LabelShardError<E>> {
    let mine: Vec<&Position> = positions.iter().enumerate().filter(|(i, _)| shard.holds(*i)).map(|(_, p)| p).collect();
    let before = data.len();
    let chunk = chunk.max(1);
    let mut checkpoints = Checkpoints::new(CheckpointPolicy::items(chunk as u64), before as u64);
    let mut job = LabelJob { net, mine, settings, data, chunk, save };
    gammon_jobs::run(&mut job, stop, progress, &mut checkpoints)?;
    Ok(job.data.len() - before)
}

/// [`label_shard`] as a job for the runner: a step labels the next chunk.
struct LabelJob<'a, F> {
    net: &'a NetEvaluator,
    mine: Vec<&'a Position>,
    settings: &'a LabelSettings,
    data: &'a mut Dataset,
    chunk: usize,
    save: F,
}

impl<E, F: FnMut(&Dataset) -> Result<(), E>> Job for LabelJob<'_, F> {
    type Error = LabelShardError<E>;

    fn done(&self) -> u64 {
        self.data.len() as u64
    }

    fn total(&self) -> u64 {
        self.mine.len() as u64
    }

    fn step(&mut self, stop: &StopFlag) -> Result<(), Self::Error> {
        let from = self.data.len();
        let to = (from + self.chunk).min(self.mine.len());
        let (labels, error) = label_in_order(self.net, &self.mine[from..to], self.settings, stop.as_atomic());
        for (p, l) in self.mine[from..].iter().zip(&labels) {
            self.data.positions.push(p.to_position_id());
            self.data.labels.push(l.mean);
            self.data.standard_errors.push(l.standard_error);
        }
        error.map_or(Ok(()), |e| Err(LabelShardError::Label(e)))
    }

    fn save(&mut self) -> Result<(), Self::Error> {
        (self.save)(self.data).map_err(LabelShardError::Save)
    }
}

/// The labels in `out` to go on with, or a new dataset if there is no such
/// file: labels are resumed only from the same labeller (settings and net)
/// and the same positions file and shard.
///
/// # Errors
/// `out` cannot be read, or holds other labels.
pub fn resume_labels(out: &Path, labeller: String, source: LabelSource) -> Result<Resumed, ResumeLabelsError> {
    if !out.exists() {
        return Ok(Resumed::New(Dataset { labeller, source: Some(source), ..Dataset::default() }));
    }
    let d = Dataset::load(out)?;
    let now = labels_fingerprint(&labeller, Some(&source));
    now.resume(&labels_fingerprint(&d.labeller, d.source.as_ref()))
        .map_err(|differ| ResumeLabelsError::Other { path: out.to_path_buf(), differ })?;
    Ok(Resumed::Saved(d))
}

/// The settings of rollout labels by the options of `gammon label rollout`
/// that set them: `labeller` is [`LabelSettings::describe`] and `; net
/// "notes" (fingerprint)`, read back piece by piece (a piece it does not
/// know is kept under `labeller`), and `source` the positions and shard.
fn labels_fingerprint(labeller: &str, source: Option<&LabelSource>) -> Fingerprint {
    let (how, net) = labeller.split_once("; net ").unwrap_or((labeller, ""));
    let mut f = Fingerprint::new().with("--weights", net);
    let mut unknown = Vec::new();
    for part in how.trim_start_matches("0-ply rollout: ").split(", ") {
        f = if let Some(n) = part.strip_suffix(" trials") {
            f.with("--trials", n)
        } else if let Some(d) = part.strip_prefix("truncated after ").and_then(|p| p.strip_suffix(" half-moves")) {
            f.with("--truncate", d)
        } else if part == "played to the end" {
            f.with("--truncate", "none (--full)")
        } else if let Some(v) = part.strip_prefix("variance reduction ") {
            f.with("variance reduction (--no-variance-reduction)", v)
        } else if let Some(seed) = part.strip_prefix("seed ") {
            f.with("--seed", seed)
        } else {
            unknown.push(part);
            f
        };
    }
    if !unknown.is_empty() {
        f = f.with("labeller", unknown.join(", "));
    }
    match source {
        Some(s) => f
            .with("--positions", format!("a file of {} positions (digest {:016x})", s.positions, s.digest))
            .with("--shard", s.shard),
        None => f,
    }
}

/// What [`resume_labels`] found.
#[derive(Debug)]
pub enum Resumed {
    /// No file: a new dataset.
    New(Dataset),
    /// The file's labels, to go on with.
    Saved(Dataset),
}

/// Why [`resume_labels`] refused.
#[derive(Debug, Error)]
pub enum ResumeLabelsError {
    /// The file cannot be read.
    #[error(transparent)]
    Read(#[from] FileError),
    /// It holds labels of other settings, another net or other positions.
    #[error(
        "{} {differ}; give the same positions, shard and settings to resume, or another --out",
        .path.display()
    )]
    Other {
        /// The file.
        path: std::path::PathBuf,
        /// The settings that differ, with both values.
        differ: SettingsDiffer,
    },
}

/// Labels `positions` in order ([`map_in_order`]): after `stop` is set, or
/// a position fails, no more are taken and the ones in hand are finished.
/// Returns the labels of the finished prefix and the first error.
fn label_in_order(
    net: &NetEvaluator,
    positions: &[&Position],
    settings: &LabelSettings,
    stop: &AtomicBool,
) -> (Vec<Label>, Option<LabelError>) {
    // The positions in hand are finished whatever `stop` says.
    let finish = AtomicBool::new(false);
    map_in_order(positions, stop, |_, pos| label_position(net, pos, settings, &finish))
}

/// Why [`label_shard`] stopped with an error.
#[derive(Debug, Error)]
pub enum LabelShardError<E> {
    /// A label could not be made.
    #[error(transparent)]
    Label(LabelError),
    /// Saving failed.
    #[error("saving the labels")]
    Save(E),
}

/// What a merge of label shards found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelMerge {
    /// The shards merged.
    pub shards: usize,
    /// The positions of the file not labelled by any shard given.
    pub missing: usize,
    /// The shards missing in whole or in part.
    pub missing_shards: Vec<Shard>,
}

/// Why label shards cannot be merged; `shard` indexes the list given.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum LabelMergeError {
    /// No shard given.
    #[error("no labels to merge")]
    Empty,
    /// Labels without a positions file and shard (lookahead labels from
    /// `distill`, or files of an older version).
    #[error(
        "it does not say which positions file and shard it labels (made by an older gammon, or not by gammon label)"
    )]
    NoSource {
        /// The shard.
        shard: usize,
    },
    /// Labels of another positions file, another shard count, or made
    /// otherwise.
    #[error("it labels {this}, the first {first}")]
    Different {
        /// The shard.
        shard: usize,
        /// What it is.
        this: String,
        /// What the first is.
        first: String,
    },
    /// The same shard twice.
    #[error("shard {0} is given twice")]
    Duplicate(Shard),
    /// Shards missing or unfinished, without `partial`.
    #[error("{missing} of the {total} positions are not labelled (shard{} {}); finish those shards, or merge with --partial", if .shards.len() == 1 { "" } else { "s" }, .shards.iter().map(Shard::to_string).collect::<Vec<_>>().join(", "))]
    Missing {
        /// Positions not labelled.
        missing: usize,
        /// Positions in the file.
        total: usize,
        /// The shards that miss some.
        shards: Vec<Shard>,
    },
    /// A shard's positions are not those of its shard of the file.
    #[error("shard {0} holds positions that are not its own")]
    Inconsistent(Shard),
}

/// Merges the label shards of one positions file into the dataset one
/// unsharded run makes: the positions in file order, each with its label.
/// With `partial`, shards may be missing or unfinished: the dataset holds
/// the positions labelled, in file order.
///
/// # Errors
/// [`LabelMergeError`]: shards of other files or settings, duplicates,
/// missing positions (without `partial`).
pub fn merge_label_shards(parts: &[Dataset], partial: bool) -> Result<(Dataset, LabelMerge), LabelMergeError> {
    let first = parts.first().ok_or(LabelMergeError::Empty)?;
    let source_of = |i: usize, d: &Dataset| d.source.ok_or(LabelMergeError::NoSource { shard: i });
    let head = source_of(0, first)?;
    let count = head.shard.count;
    let describe = |d: &Dataset, s: &LabelSource| {
        format!("{} positions (digest {:016x}) in {} shards, {}", s.positions, s.digest, s.shard.count, d.labeller)
    };
    let mut by_index: Vec<Option<&Dataset>> = vec![None; count as usize];
    for (i, d) in parts.iter().enumerate() {
        let s = source_of(i, d)?;
        let same = s.positions == head.positions && s.digest == head.digest && s.shard.count == count;
        if !same
            || d.labeller != first.labeller
            || (d.ply, d.candidates, d.afterstates) != (first.ply, first.candidates, first.afterstates)
        {
            return Err(LabelMergeError::Different { shard: i, this: describe(d, &s), first: describe(first, &head) });
        }
        let slot = &mut by_index[s.shard.index as usize];
        if slot.is_some() {
            return Err(LabelMergeError::Duplicate(s.shard));
        }
        if d.len() > s.shard.positions(s.positions) {
            return Err(LabelMergeError::Inconsistent(s.shard));
        }
        *slot = Some(d);
    }
    let total = head.positions;
    let shards: Vec<Shard> = (0..count).filter_map(|k| Shard::new(k, count)).collect();
    let missing_shards: Vec<Shard> = shards
        .iter()
        .zip(&by_index)
        .filter(|(s, d)| d.map_or(0, Dataset::len) < s.positions(total))
        .map(|(s, _)| *s)
        .collect();
    let labelled: usize = by_index.iter().flatten().map(|d| d.len()).sum();
    if labelled < total && !partial {
        return Err(LabelMergeError::Missing { missing: total - labelled, total, shards: missing_shards });
    }
    let with_errors = by_index.iter().flatten().any(|d| !d.standard_errors.is_empty());
    let mut out = Dataset {
        ply: first.ply,
        candidates: first.candidates,
        afterstates: first.afterstates,
        labeller: first.labeller.clone(),
        source: Some(LabelSource { shard: Shard::ALL, ..head }),
        ..Dataset::default()
    };
    for i in 0..total {
        let (k, j) = (i % count as usize, i / count as usize);
        let Some(d) = by_index[k] else { continue };
        if j >= d.len() {
            continue;
        }
        out.positions.push(d.positions[j].clone());
        out.labels.push(d.labels[j]);
        if with_errors {
            let se = d.standard_errors.get(j).ok_or(LabelMergeError::Inconsistent(shards[k]))?;
            out.standard_errors.push(*se);
        }
    }
    Ok((out, LabelMerge { shards: parts.len(), missing: total - labelled, missing_shards }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> NetEvaluator {
        NetEvaluator::shipped().unwrap()
    }

    fn settings() -> LabelSettings {
        LabelSettings { trials: 36, truncate: Some(2), variance_reduction: true, seed: 5 }
    }

    #[test]
    fn positions_files_round_trip_and_name_a_bad_line() {
        let ps = [Position::STARTING, Position::STARTING.switched()];
        let text = positions_text("made by a test\nseed 1", &ps);
        assert!(text.starts_with("# made by a test\n# seed 1\n"));
        assert_eq!(parse_positions(&text).unwrap(), ps);
        let err = parse_positions("4HPwATDgc/ABMA\n\nnot-an-id\n").unwrap_err().to_string();
        assert!(err.starts_with("line 3: \"not-an-id\" is not a gnubg Position ID"), "{err}");
    }

    #[test]
    fn settings_are_checked_and_described() {
        assert_eq!(settings().validate(), Ok(()));
        let bad = LabelSettings { trials: 0, ..settings() }.validate().unwrap_err();
        assert!(bad.to_string().starts_with("trials must be 1 to"), "{bad}");
        assert!(LabelSettings { truncate: Some(100_000), ..settings() }.validate().is_err());
        let d = settings().describe();
        assert!(d.contains("36 trials") && d.contains("after 2 half-moves") && d.contains("seed 5"), "{d}");
    }

    #[test]
    fn a_label_depends_on_the_position_and_the_seed_only() {
        let net = net();
        let stop = AtomicBool::new(false);
        let p = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
        let a = label_position(&net, &p, &settings(), &stop).unwrap();
        let b = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| label_position(&net, &p, &settings(), &stop).unwrap());
        assert_eq!(a, b, "thread count");
        assert!(a.standard_error.iter().any(|&s| s > 0.0));
        assert!(a.mean.iter().all(|x| (0.0..=1.0).contains(x)));
        // With the luck adjustment and a truncation after two half-moves,
        // 36 stratified trials see every first roll once and the second
        // roll's luck cancels it: the label is the same for any seed. From
        // the third half-move on the dice are random.
        let deeper = LabelSettings { truncate: Some(3), ..settings() };
        let other = label_position(&net, &p, &LabelSettings { seed: 6, ..deeper }, &stop).unwrap();
        assert_ne!(label_position(&net, &p, &deeper, &stop).unwrap().mean, other.mean, "another seed, other dice");
        // The starting position is about even for the side on roll.
        assert!((a.mean[0] - 0.5).abs() < 0.1, "{:?}", a.mean);
    }

    #[test]
    fn shards_together_label_what_one_run_labels_and_resume_where_they_stopped() {
        let net = net();
        let weights = net.weights().clone();
        let positions = crate::distill::sample_positions(&weights, 12, 3, 0.1);
        let stop = StopFlag::new();
        let quiet = gammon_jobs::Shared::<()>::new();
        let run = |shard: Shard, chunk: usize, data: &mut Dataset| {
            label_shard(&net, &positions, shard, &settings(), data, chunk, &stop, &quiet, |_| Ok::<(), ()>(())).unwrap()
        };
        let source =
            |shard| Some(LabelSource { positions: 12, digest: crate::dataset::positions_digest(&positions), shard });
        let mut whole = Dataset { source: source(Shard::ALL), ..Dataset::default() };
        assert_eq!(run(Shard::ALL, 5, &mut whole), 12);
        let mut parts = Vec::new();
        for index in 0..3 {
            let mut d = Dataset { source: source(Shard { index, count: 3 }), ..Dataset::default() };
            run(Shard { index, count: 3 }, 2, &mut d);
            parts.push(d);
        }
        // Merged in any order, they are the unsharded dataset.
        let mut shuffled = parts.clone();
        shuffled.rotate_left(1);
        let (merged, summary) = merge_label_shards(&shuffled, false).unwrap();
        assert_eq!(merged, whole);
        assert_eq!(summary, LabelMerge { shards: 3, missing: 0, missing_shards: vec![] });
        let err = merge_label_shards(&[parts[0].clone(), parts[2].clone()], false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "4 of the 12 positions are not labelled (shard 1/3); finish those shards, or merge with --partial"
        );
        let (some, summary) = merge_label_shards(&[parts[0].clone(), parts[2].clone()], true).unwrap();
        assert_eq!((some.len(), summary.missing), (8, 4));
        let twice = merge_label_shards(&[parts[0].clone(), parts[1].clone(), parts[0].clone()], false).unwrap_err();
        assert_eq!(twice, LabelMergeError::Duplicate(Shard { index: 0, count: 3 }));
        let mut other = parts[1].clone();
        other.labeller = "made otherwise".into();
        let err = merge_label_shards(&[parts[0].clone(), other, parts[2].clone()], false).unwrap_err();
        assert!(matches!(err, LabelMergeError::Different { shard: 1, .. }), "{err:?}");
        for (i, id) in whole.positions.iter().enumerate() {
            let part = &parts[i % 3];
            let j = part.positions.iter().position(|x| x == id).unwrap();
            assert_eq!((part.labels[j], part.standard_errors[j]), (whole.labels[i], whole.standard_errors[i]));
        }
        // Resuming from a cut dataset labels only the rest, the same way.
        let mut cut = Dataset {
            source: whole.source,
            positions: whole.positions[..7].to_vec(),
            labels: whole.labels[..7].to_vec(),
            standard_errors: whole.standard_errors[..7].to_vec(),
            ..Dataset::default()
        };
        assert_eq!(run(Shard::ALL, 4, &mut cut), 5);
        assert_eq!(cut, whole);
    }

    #[test]
    fn labels_resume_only_with_the_same_labeller_positions_and_shard() {
        let dir = std::env::temp_dir().join(format!("gammon-resume-labels-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("l.gds");
        let source = LabelSource { positions: 10, digest: 42, shard: Shard::ALL };
        let Resumed::New(d) = resume_labels(&out, "rollouts A".into(), source).unwrap() else { panic!("no file yet") };
        d.save(&out).unwrap();
        assert!(matches!(resume_labels(&out, "rollouts A".into(), source).unwrap(), Resumed::Saved(_)));
        let half = LabelSource { shard: Shard { index: 1, count: 2 }, ..source };
        let refused = |labeller: &str, source| resume_labels(&out, labeller.into(), source).unwrap_err().to_string();
        let rest = "give the same positions, shard and settings to resume, or another --out";
        let dir_out = out.display();
        assert_eq!(
            refused("rollouts A", half),
            format!("{dir_out} was made with --shard 0/1, this run asks for --shard 1/2; {rest}")
        );
        let other = LabelSource { positions: 11, ..source };
        assert!(refused("rollouts A", other).contains(
            "was made with --positions a file of 10 positions (digest 000000000000002a), \
             this run asks for --positions a file of 11 positions"
        ));
        // A labeller in words gammon does not write is compared whole.
        assert!(refused("rollouts B", source)
            .contains("was made with labeller rollouts A, this run asks for labeller rollouts B;"));
        // gammon's own labellers are read back setting by setting.
        let settings = LabelSettings { trials: 72, truncate: Some(10), variance_reduction: true, seed: 1 };
        let made = |s: LabelSettings| format!("{}; net \"x\" (00000000000000ff)", s.describe());
        let out72 = dir.join("72.gds");
        let Resumed::New(d) = resume_labels(&out72, made(settings), source).unwrap() else { panic!("no file yet") };
        d.save(&out72).unwrap();
        let err = resume_labels(&out72, made(LabelSettings { trials: 144, ..settings }), source).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!("{} was made with --trials 72, this run asks for --trials 144; {rest}", out72.display())
        );
        let err =
            resume_labels(&out72, made(LabelSettings { truncate: None, seed: 2, ..settings }), source).unwrap_err();
        assert!(
            err.to_string().contains(
                "was made with --seed 1, --truncate 10, this run asks for --seed 2, --truncate none (--full);"
            ),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
