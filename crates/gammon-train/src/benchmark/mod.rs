//! `gammon benchmark`: how far a net's evaluations are from labelled
//! positions — the yardstick's rollouts (`../shared/yardstick/*.tsv`) or a
//! labelled dataset of gammon's own ([`Dataset`]) — overall, per output, by
//! position class and by kind of game, so that a researcher sees where a
//! net is wrong.
//!
//! | module | holds |
//! |---|---|
//! | [`tsv`] | the yardstick's text format ([`LabelledPosition`]: `FromStr`, `Display`), the checks of a label |
//! | [`kind`] | the kinds of game ([`GameKind`]: back game, blitz, prime, holding, race, other) |
//! | [`stats`] | the errors, their sums in a fixed order ([`Tally`]) and means ([`Summary`], its JSON) |
//!
//! [`LabelledSet::read`] reads a file, telling the two formats apart by
//! content (a dataset starts with the project's file header, `GAMMONDS`;
//! a TSV is text); [`measure`] evaluates its positions in parallel on the
//! current rayon pool and adds their errors up in file order, so that the
//! figures are the same bit for bit with any number of threads.

pub mod kind;
pub mod stats;
pub mod tsv;

pub use kind::GameKind;
pub use stats::{equity, Errors, Group, Sample, Summary, Tally, CLASSES};
pub use tsv::{
    check_label, LabelError, LabelledPosition, LineError, TsvError, LABEL_TOLERANCE, MAX_TSV_BYTES, OUTPUTS,
};

use crate::dataset::Dataset;
use gammon_engine::api::Engine;
use gammon_eval::file_format::{self, FileError, FileKind, Found};
use gammon_eval::Evaluator;
use gammon_rules::PositionClass;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Why a file of labelled positions cannot be measured. Every message names
/// the file, and the line (TSV) or position (dataset) at fault.
#[derive(Debug, Error)]
pub enum BenchmarkError {
    /// The file cannot be read, or is a damaged dataset.
    #[error(transparent)]
    File(#[from] FileError),
    /// A line of a TSV file that does not read.
    #[error("{}: {problem}", path.display())]
    Line {
        /// The file.
        path: PathBuf,
        /// The line and what is wrong with it (in the message, not as a
        /// separate cause: a printed chain says it once).
        problem: TsvError,
    },
    /// A dataset label that is not a position's probabilities.
    #[error("{}: position {index} ({id}): {problem}", path.display())]
    DatasetLabel {
        /// The file.
        path: PathBuf,
        /// The position's index in the dataset, from 1.
        index: usize,
        /// Its Position ID.
        id: String,
        /// What is wrong with its label (in the message only).
        problem: LabelError,
    },
    /// No labelled position at all.
    #[error("{}: no labelled positions (an empty file)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// Recognisably something else (weights, a checkpoint ...).
    #[error("{} is {found}, not a yardstick TSV or a gammon dataset", path.display())]
    WrongKind {
        /// The file.
        path: PathBuf,
        /// What it is.
        found: Found,
    },
    /// Neither text nor one of the project's files.
    #[error("{} is neither text (a yardstick TSV) nor a gammon dataset", path.display())]
    Unrecognised {
        /// The file.
        path: PathBuf,
    },
}

/// The format of a file of labelled positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// The yardstick's TSV ([`tsv`]).
    Tsv,
    /// A gammon dataset ([`Dataset`]), with how its labels were made.
    Dataset {
        /// [`Dataset::labeller`].
        labeller: String,
    },
}

impl Format {
    /// `tsv` or `dataset`, as the JSON names it.
    pub fn key(&self) -> &'static str {
        match self {
            Format::Tsv => "tsv",
            Format::Dataset { .. } => "dataset",
        }
    }
}

/// The labelled positions of one file.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledSet {
    /// The file.
    pub path: PathBuf,
    /// Its format.
    pub format: Format,
    /// Its positions and labels, in file order.
    pub positions: Vec<LabelledPosition>,
}

impl LabelledSet {
    /// Reads a yardstick TSV (at most [`MAX_TSV_BYTES`]) or a dataset (at
    /// most [`crate::dataset::MAX_DATASET_BYTES`]), telling them apart by
    /// their first bytes. Labels are checked as [`check_label`] checks
    /// them (a dataset's are also probabilities, as [`Dataset::load`]
    /// checks them).
    ///
    /// # Errors
    /// An unreadable, damaged, unrecognised or empty file, a line that does
    /// not read, a label that is not a position's probabilities.
    pub fn read(path: &Path) -> Result<LabelledSet, BenchmarkError> {
        let found = file_format::identify_file(path)?;
        let (format, positions) = match found {
            Some(Found::Text) => {
                let text = file_format::read_text(path, MAX_TSV_BYTES)?;
                let positions =
                    tsv::parse_tsv(&text).map_err(|problem| BenchmarkError::Line { path: path.into(), problem })?;
                (Format::Tsv, positions)
            }
            Some(Found::Gammon(FileKind::Dataset)) => read_dataset(path)?,
            Some(Found::Empty) => return Err(BenchmarkError::Empty { path: path.into() }),
            Some(found) => return Err(BenchmarkError::WrongKind { path: path.into(), found }),
            None => return Err(BenchmarkError::Unrecognised { path: path.into() }),
        };
        if positions.is_empty() {
            return Err(BenchmarkError::Empty { path: path.into() });
        }
        Ok(LabelledSet { path: path.into(), format, positions })
    }
}

/// A dataset's positions and labels.
fn read_dataset(path: &Path) -> Result<(Format, Vec<LabelledPosition>), BenchmarkError> {
    let data = Dataset::load(path)?;
    let decoded = data.decoded_positions().map_err(|e| FileError::in_file(path, e))?;
    let mut positions = Vec::with_capacity(decoded.len());
    for (i, (position, label)) in decoded.into_iter().zip(&data.labels).enumerate() {
        let label = label.map(f64::from);
        check_label(&label).map_err(|problem| BenchmarkError::DatasetLabel {
            path: path.into(),
            index: i + 1,
            id: position.to_position_id(),
            problem,
        })?;
        positions.push(LabelledPosition { position, label });
    }
    Ok((Format::Dataset { labeller: data.labeller }, positions))
}

/// Evaluates every position of `positions` at `plies` (cubeless, as
/// [`Engine::evaluate`] gives it) on the current rayon pool and returns the
/// samples in the order of `positions`: add them up with [`Tally::of`].
pub fn measure<E: Evaluator>(engine: &Engine<E>, positions: &[LabelledPosition], plies: u8) -> Vec<Sample> {
    positions
        .par_iter()
        .with_min_len(64)
        .map(|lp| {
            let p = engine.evaluate(&lp.position, plies).probabilities;
            Sample {
                class: PositionClass::of(&lp.position),
                kind: GameKind::of(&lp.position),
                evaluation: [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon].map(f64::from),
                label: lp.label,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::{NetEvaluator, Probabilities};
    use gammon_rules::Position;

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("gammon-benchmark-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// A few positions of every class.
    fn positions() -> Vec<Position> {
        ["4HPwATDgc/ABMA", "sGfwATDgc/ABMA", "AwAAEAEAAAAAAA", "bW7AAAvD3QMHAA", "7W4AABux27YAAA", "vPcNAADfFgAANw"]
            .iter()
            .map(|id| Position::from_position_id(id).unwrap())
            .collect()
    }

    fn label_of(p: Probabilities) -> [f64; 5] {
        [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon].map(f64::from)
    }

    #[test]
    fn the_nets_own_values_have_no_error_and_a_shift_is_measured() {
        let engine = Engine::new(NetEvaluator::shipped().unwrap());
        let own: Vec<LabelledPosition> = positions()
            .into_iter()
            .map(|position| LabelledPosition { position, label: label_of(engine.evaluate(&position, 0).probabilities) })
            .collect();
        let s = Tally::of(&measure(&engine, &own, 0)).summary().unwrap();
        assert_eq!(s.positions, own.len() as u64);
        assert_eq!(s.equity, Errors::default());
        assert!(s.outputs.iter().all(|e| *e == Errors::default()));
        // Labels 0.01 less likely to win: every equity error is +0.02.
        let shifted: Vec<LabelledPosition> = own
            .iter()
            .map(|lp| LabelledPosition {
                label: [lp.label[0] - 0.01, lp.label[1], lp.label[2], lp.label[3], lp.label[4]],
                ..*lp
            })
            .collect();
        let s = Tally::of(&measure(&engine, &shifted, 0)).summary().unwrap();
        assert!((s.equity.bias - 0.02).abs() < 1e-6 && (s.equity.mean_abs_error - 0.02).abs() < 1e-6, "{s:?}");
        assert!((s.outputs[0].bias - 0.01).abs() < 1e-6, "{s:?}");
        let classes: u64 = s.by_class.iter().map(|g| g.positions).sum();
        let kinds: u64 = s.by_kind.iter().map(|g| g.positions).sum();
        assert_eq!((classes, kinds), (s.positions, s.positions));
    }

    #[test]
    fn the_figures_do_not_depend_on_the_threads() {
        let engine = Engine::new(NetEvaluator::shipped().unwrap());
        let set: Vec<LabelledPosition> = positions()
            .into_iter()
            .cycle()
            .take(300)
            .enumerate()
            .map(|(i, position)| {
                let w = (i % 97) as f64 / 100.0;
                LabelledPosition { position, label: [w, w / 4.0, w / 40.0, (1.0 - w) / 5.0, 0.0] }
            })
            .collect();
        let run = |threads: usize, plies: u8| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| Tally::of(&measure(&engine, &set, plies)))
        };
        assert_eq!(run(1, 0), run(3, 0));
        assert_eq!(run(1, 1), run(2, 1));
    }

    #[test]
    fn files_are_told_apart_by_content() {
        let dir = temp("read");
        // A TSV under any name.
        let tsv = dir.join("labels.gds");
        std::fs::write(&tsv, "4HPwATDgc/ABMA\t0.5 0.15 0.01 0.15 0.01\n").unwrap();
        let set = LabelledSet::read(&tsv).unwrap();
        assert_eq!((set.format.clone(), set.positions.len()), (Format::Tsv, 1));
        // A dataset under a TSV's name.
        let data = Dataset {
            labeller: "test".into(),
            positions: vec!["4HPwATDgc/ABMA".into(), "sGfwATDgc/ABMA".into()],
            labels: vec![[0.5, 0.15, 0.01, 0.15, 0.01], [0.4, 0.1, 0.0, 0.2, 0.01]],
            ..Dataset::default()
        };
        let gds = dir.join("data.tsv");
        data.save(&gds).unwrap();
        let set = LabelledSet::read(&gds).unwrap();
        assert_eq!(set.format, Format::Dataset { labeller: "test".into() });
        assert_eq!(set.positions[1].label, [0.4f32, 0.1, 0.0, 0.2, 0.01].map(f64::from));
        // A dataset whose label breaks the ordering names the position.
        let bad = Dataset { labels: vec![[0.5, 0.15, 0.01, 0.15, 0.01], [0.4, 0.1, 0.0, 0.02, 0.2]], ..data };
        let bad_path = dir.join("bad.gds");
        bad.save(&bad_path).unwrap();
        let err = LabelledSet::read(&bad_path).unwrap_err().to_string();
        // (Refused by the dataset's own check when it is read.)
        assert!(
            err.contains("bad.gds: dataset: label 2 (position sGfwATDgc/ABMA)")
                && err.ends_with("lose backgammon 0.2 is more than lose gammon 0.02"),
            "{err}"
        );
        // Empty files, comments only, other files.
        let empty = dir.join("empty.tsv");
        std::fs::write(&empty, "").unwrap();
        assert!(matches!(LabelledSet::read(&empty), Err(BenchmarkError::Empty { .. })));
        std::fs::write(&empty, "# nothing yet\n\n").unwrap();
        let err = LabelledSet::read(&empty).unwrap_err().to_string();
        assert!(err.ends_with("empty.tsv: no labelled positions (an empty file)"), "{err}");
        let empty_data = dir.join("empty.gds");
        Dataset::default().save(&empty_data).unwrap();
        assert!(matches!(LabelledSet::read(&empty_data), Err(BenchmarkError::Empty { .. })));
        let binary = dir.join("binary");
        std::fs::write(&binary, [0u8, 159, 146, 150, 1, 2]).unwrap();
        assert!(matches!(LabelledSet::read(&binary), Err(BenchmarkError::Unrecognised { .. })));
        let weights = dir.join("w.net");
        std::fs::write(&weights, gammon_eval::net::SHIPPED_WEIGHTS).unwrap();
        let err = LabelledSet::read(&weights).unwrap_err().to_string();
        assert!(err.contains("not a yardstick TSV or a gammon dataset"), "{err}");
        let line = dir.join("line.tsv");
        std::fs::write(&line, "4HPwATDgc/ABMA\t0.5 0.15 0.01 0.15 0.01\n4HPwATDgc/ABMA 0.5\n").unwrap();
        let err = LabelledSet::read(&line).unwrap_err().to_string();
        assert!(err.ends_with("line.tsv: line 2: 2 field(s), expected 6: a Position ID, a tab and the five probabilities win win_gammon win_backgammon lose_gammon lose_backgammon"), "{err}");
        let missing = LabelledSet::read(&dir.join("none.tsv")).unwrap_err().to_string();
        assert!(missing.contains("none.tsv"), "{missing}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
