//! Labelled training positions: a position (Position ID, side on roll,
//! before rolling) and the five probabilities it should be given, with how
//! the labels were made and, for rollout labels, each label's standard
//! error. `gammon distill` and `gammon label` write them, `gammon distill`
//! and `gammon fit` train on them.
//!
//! Saved as they are made (atomically, in the project's file format, kind
//! `GAMMONDS`) so that a long labelling job can stop and resume. Version 2
//! files (lookahead labels, written before rollout labels existed) and
//! version 3 files (before label shards named their positions file) still
//! load.

use gammon_engine::shard::Shard;
use gammon_eval::file_format::{self, FileError, FileKind};
use gammon_rules::Position;
use serde::{Deserialize, Serialize};
use std::path::Path;

const DATASET_VERSION: u32 = 4;
const DATASET_VERSION_3: u32 = 3;
const DATASET_VERSION_2: u32 = 2;
/// The largest dataset read, 1 GiB.
pub const MAX_DATASET_BYTES: u64 = 1 << 30;

/// Labelled positions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Dataset {
    /// Lookahead depth of lookahead labels (0 for rollout labels).
    pub ply: u8,
    /// Moves per roll searched deeper (2-ply lookahead labels).
    pub candidates: u32,
    /// Results per move of the sampled games (0: the played positions only).
    pub afterstates: u32,
    /// How the labels were made, in words with every setting (a labelling
    /// job resumes only a dataset made the same way).
    pub labeller: String,
    /// Position IDs, side on roll.
    pub positions: Vec<String>,
    /// Labels: the five probabilities for the side on roll.
    pub labels: Vec<[f32; 5]>,
    /// The standard error of each label's five values (rollout labels), or
    /// empty (lookahead labels, exact given the net).
    pub standard_errors: Vec<[f32; 5]>,
    /// For labels of a positions file: which file, and which shard of it.
    pub source: Option<LabelSource>,
}

/// The positions file labels were made for, and the shard of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LabelSource {
    /// The positions in the file.
    pub positions: usize,
    /// A digest of them, in order ([`positions_digest`]).
    pub digest: u64,
    /// The shard labelled ([`Shard::ALL`] for the whole file or a merge of
    /// its shards): the positions whose index is `K` mod `N`, in file order.
    pub shard: Shard,
}

/// The digest of a positions file's positions, in order: their Position IDs'
/// FNV-1a checksum. Label shards of the same file share it wherever the file
/// lies.
pub fn positions_digest(positions: &[Position]) -> u64 {
    let text: Vec<u8> =
        positions.iter().flat_map(|p| p.to_position_id().into_bytes().into_iter().chain([b'\n'])).collect();
    file_format::fnv1a64(&text)
}

/// Version 3: no source.
#[derive(Deserialize)]
struct DatasetV3 {
    ply: u8,
    candidates: u32,
    afterstates: u32,
    labeller: String,
    positions: Vec<String>,
    labels: Vec<[f32; 5]>,
    standard_errors: Vec<[f32; 5]>,
}

impl From<DatasetV3> for Dataset {
    fn from(d: DatasetV3) -> Self {
        Dataset {
            ply: d.ply,
            candidates: d.candidates,
            afterstates: d.afterstates,
            labeller: d.labeller,
            positions: d.positions,
            labels: d.labels,
            standard_errors: d.standard_errors,
            source: None,
        }
    }
}

/// Version 2: no labeller, no standard errors.
#[derive(Deserialize)]
struct DatasetV2 {
    ply: u8,
    candidates: u32,
    afterstates: u32,
    positions: Vec<String>,
    labels: Vec<[f32; 5]>,
}

impl From<DatasetV2> for Dataset {
    fn from(d: DatasetV2) -> Self {
        Dataset {
            labeller: lookahead_labeller(d.ply, d.candidates),
            ply: d.ply,
            candidates: d.candidates,
            afterstates: d.afterstates,
            positions: d.positions,
            labels: d.labels,
            standard_errors: Vec::new(),
            source: None,
        }
    }
}

/// Slack for rounding in the order of a label's outputs.
const ORDER_SLACK: f32 = 1e-6;

/// Why `label` (win, win gammon, win backgammon, lose gammon, lose
/// backgammon) cannot be the chances of a game, if it cannot: each must be
/// in [0, 1], a backgammon is a gammon and a gammon a win, and the losses
/// are at most the games not won.
fn impossible(label: &[f32; 5]) -> Option<String> {
    const NAMES: [&str; 5] = ["win", "win gammon", "win backgammon", "lose gammon", "lose backgammon"];
    if let Some(i) = label.iter().position(|x| !x.is_finite() || !(0.0..=1.0).contains(x)) {
        return Some(format!("{} is {}, outside 0 to 1", NAMES[i], label[i]));
    }
    let [w, wg, wbg, lg, lbg] = *label;
    let more = |a: usize, b: usize, x: f32, y: f32| {
        (x > y + ORDER_SLACK).then(|| format!("{} {x} is more than {} {y}", NAMES[a], NAMES[b]))
    };
    more(1, 0, wg, w).or_else(|| more(2, 1, wbg, wg)).or_else(|| more(4, 3, lbg, lg)).or_else(|| {
        (lg > 1.0 - w + ORDER_SLACK).then(|| format!("lose gammon {lg} is more than the losses, 1 - win = {}", 1.0 - w))
    })
}

/// The [`Dataset::labeller`] of lookahead labels.
pub fn lookahead_labeller(ply: u8, candidates: u32) -> String {
    format!("{ply}-ply lookahead, {candidates} candidate(s) per roll")
}

impl Dataset {
    /// Writes the dataset atomically.
    ///
    /// # Errors
    /// Encoding or the file system failed.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        file_format::write_file_atomic(path, FileKind::Dataset, DATASET_VERSION, self)
    }

    /// Reads and checks a dataset (of this version or versions 2 and 3).
    ///
    /// # Errors
    /// Unreadable, corrupt, or inconsistent.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let read = file_format::read_file(path, FileKind::Dataset, DATASET_VERSION, MAX_DATASET_BYTES);
        let d: Dataset = match read {
            Err(FileError::InFile { problem, .. })
                if matches!(*problem, FileError::Version { found: DATASET_VERSION_2, .. }) =>
            {
                let v2: DatasetV2 =
                    file_format::read_file(path, FileKind::Dataset, DATASET_VERSION_2, MAX_DATASET_BYTES)?;
                v2.into()
            }
            Err(FileError::InFile { problem, .. })
                if matches!(*problem, FileError::Version { found: DATASET_VERSION_3, .. }) =>
            {
                let v3: DatasetV3 =
                    file_format::read_file(path, FileKind::Dataset, DATASET_VERSION_3, MAX_DATASET_BYTES)?;
                v3.into()
            }
            other => other?,
        };
        // Problems found in the contents name the file, like those found
        // while reading it.
        d.check().map_err(|problem| FileError::in_file(path, problem))?;
        Ok(d)
    }

    /// Number of labelled positions.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The contents are consistent: one label per position, labels are
    /// probabilities, standard errors (if any) one per label and not
    /// negative, and every Position ID decodes.
    fn check(&self) -> Result<(), FileError> {
        if self.positions.len() != self.labels.len() {
            return Err(FileError::Invalid("dataset: positions and labels differ in number".into()));
        }
        for (n, (id, label)) in self.positions.iter().zip(&self.labels).enumerate() {
            if let Some(why) = impossible(label) {
                return Err(FileError::Invalid(format!(
                    "dataset: label {} (position {}) cannot be probabilities: {why}",
                    n + 1,
                    id.chars().take(20).collect::<String>()
                )));
            }
        }
        if !self.standard_errors.is_empty() && self.standard_errors.len() != self.labels.len() {
            return Err(FileError::Invalid("dataset: standard errors and labels differ in number".into()));
        }
        // NaN is "no standard error" (a label of a single trial); anything
        // else must be a finite number >= 0.
        if self.standard_errors.iter().flatten().any(|x| !x.is_nan() && (x.is_infinite() || *x < 0.0)) {
            return Err(FileError::Invalid("dataset: a standard error is negative or infinite".into()));
        }
        self.decoded_positions().map(|_| ())
    }

    /// The positions, decoded.
    ///
    /// # Errors
    /// A stored Position ID is invalid.
    pub fn decoded_positions(&self) -> Result<Vec<Position>, FileError> {
        self.positions
            .iter()
            .map(|id| {
                Position::from_position_id(id).map_err(|e| FileError::Invalid(format!("dataset position {id}: {e}")))
            })
            .collect()
    }

    /// The mean standard error of each of the five outputs over the labels
    /// that have one (labels of a single trial have none); `None` if none
    /// has.
    pub fn mean_standard_errors(&self) -> Option<[f64; 5]> {
        let with: Vec<&[f32; 5]> = self.standard_errors.iter().filter(|se| se.iter().all(|x| !x.is_nan())).collect();
        if with.is_empty() {
            return None;
        }
        let mut sum = [0.0f64; 5];
        for se in &with {
            for (s, &x) in sum.iter_mut().zip(*se) {
                *s += f64::from(x);
            }
        }
        Some(sum.map(|s| s / with.len() as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_that_cannot_be_chances_are_refused_naming_the_label() {
        let dir = std::env::temp_dir().join(format!("gammon-dataset-chances-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("folder");
        let path = dir.join("bad.gds");
        let good = [0.6, 0.2, 0.01, 0.1, 0.005];
        for (bad, says) in [
            ([0.5, 0.7, 0.0, 0.1, 0.0], "win gammon 0.7 is more than win 0.5"),
            ([0.5, 0.2, 0.3, 0.1, 0.0], "win backgammon 0.3 is more than win gammon 0.2"),
            ([0.5, 0.2, 0.0, 0.1, 0.2], "lose backgammon 0.2 is more than lose gammon 0.1"),
            ([0.9, 0.2, 0.0, 0.3, 0.0], "lose gammon 0.3 is more than the losses"),
            ([1.5, 0.2, 0.0, 0.1, 0.0], "win is 1.5, outside 0 to 1"),
            ([0.5, f32::NAN, 0.0, 0.1, 0.0], "win gammon is NaN"),
        ] {
            let d = Dataset {
                positions: vec!["4HPwATDgc/ABMA".into(), "4HPhASjgc/ABMA".into()],
                labels: vec![good, bad],
                ..Dataset::default()
            };
            file_format::write_file_atomic(&path, FileKind::Dataset, DATASET_VERSION, &d).expect("write");
            let e = Dataset::load(&path).expect_err("refused").to_string();
            assert!(e.contains("label 2 (position 4HPhASjgc/ABMA)") && e.contains(says), "{e}");
        }
        // Exactly on the bounds is fine: a certain gammon win, a certain loss.
        let d = Dataset {
            positions: vec!["4HPwATDgc/ABMA".into(), "4HPhASjgc/ABMA".into()],
            labels: vec![[1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 1.0]],
            ..Dataset::default()
        };
        d.save(&path).expect("write");
        assert_eq!(Dataset::load(&path).expect("read").len(), 2);
    }

    #[test]
    fn the_decoder_may_allocate_as_much_as_a_dataset_may_hold() {
        // A dataset that saves must load: bincode's own limit used to be a
        // quarter of the dataset limit, and ~6.4 M positions failed to load.
        assert!(file_format::DECODE_LIMIT as u64 >= MAX_DATASET_BYTES);
        // bincode: Position ID string, 5 outputs and 5 standard errors as
        // f32, lengths.
        let per_position = 62;
        assert!(crate::distill::MAX_POSITIONS as u64 * per_position <= MAX_DATASET_BYTES);
    }

    fn dir(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gammon-train-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_dataset_with_bad_contents_is_named_once_with_the_problem() {
        let dir = dir("dataset");
        let path = dir.join("dataset.gds");
        let good = Dataset {
            ply: 1,
            positions: vec![Position::STARTING.to_position_id()],
            labels: vec![[0.5, 0.1, 0.0, 0.1, 0.0]],
            ..Dataset::default()
        };
        good.save(&path).unwrap();
        assert_eq!(Dataset::load(&path).unwrap(), good);
        let cases = [
            (Dataset { labels: vec![], ..good.clone() }, "positions and labels differ"),
            (Dataset { labels: vec![[2.0; 5]], ..good.clone() }, "cannot be probabilities: win is 2, outside 0 to 1"),
            (Dataset { positions: vec!["AAAA".into()], ..good.clone() }, "AAAA"),
            (Dataset { standard_errors: vec![[0.0; 5]; 2], ..good.clone() }, "standard errors and labels"),
            (Dataset { standard_errors: vec![[-1.0; 5]], ..good.clone() }, "negative"),
        ];
        for (bad, problem) in cases {
            bad.save(&path).unwrap();
            let text = Dataset::load(&path).unwrap_err().to_string();
            assert_eq!(text.matches(path.to_str().unwrap()).count(), 1, "{text}");
            assert!(text.contains(problem), "{text}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn version_2_datasets_load_as_lookahead_labels() {
        #[derive(Serialize)]
        struct V2 {
            ply: u8,
            candidates: u32,
            afterstates: u32,
            positions: Vec<String>,
            labels: Vec<[f32; 5]>,
        }
        let dir = dir("dataset-v2");
        let path = dir.join("old.gds");
        let old = V2 {
            ply: 2,
            candidates: 1,
            afterstates: 4,
            positions: vec![Position::STARTING.to_position_id()],
            labels: vec![[0.5, 0.1, 0.0, 0.1, 0.0]],
        };
        file_format::write_file_atomic(&path, FileKind::Dataset, DATASET_VERSION_2, &old).unwrap();
        let d = Dataset::load(&path).unwrap();
        assert_eq!((d.ply, d.candidates, d.afterstates), (2, 1, 4));
        assert_eq!((d.positions, d.labels), (old.positions, old.labels));
        assert_eq!(d.labeller, "2-ply lookahead, 1 candidate(s) per roll");
        assert!(d.standard_errors.is_empty() && Dataset::default().mean_standard_errors().is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
