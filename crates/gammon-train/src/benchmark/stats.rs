//! The figures of a benchmark: sums of errors over positions, added in a
//! fixed order (so that the figures do not depend on how many threads
//! evaluated the positions), and their means.
//!
//! A position's error is the evaluation's value minus the label's: for each
//! of the five outputs, and for the cubeless money equity
//! `2·win − 1 + win_gammon − lose_gammon + win_backgammon − lose_backgammon`
//! (a positive error: the evaluator thinks the side on roll better off than
//! the label does). Each figure is a mean over positions: the mean absolute
//! error and the bias (mean signed error).

use super::kind::GameKind;
use super::tsv::OUTPUTS;
use gammon_rules::PositionClass;
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// The cubeless money equity of five probabilities (in the order of
/// [`OUTPUTS`]).
pub fn equity(p: &[f64; 5]) -> f64 {
    let [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = *p;
    2.0 * win - 1.0 + win_gammon - lose_gammon + win_backgammon - lose_backgammon
}

/// The position classes of the reports, in their order: the engine's own
/// ([`PositionClass`], which decides which net answers).
pub const CLASSES: [PositionClass; 5] = [
    PositionClass::Contact,
    PositionClass::Crashed,
    PositionClass::Race,
    PositionClass::Bearoff,
    PositionClass::Finished,
];

/// The index of `class` in [`CLASSES`].
const fn class_index(class: PositionClass) -> usize {
    match class {
        PositionClass::Contact => 0,
        PositionClass::Crashed => 1,
        PositionClass::Race => 2,
        PositionClass::Bearoff => 3,
        PositionClass::Finished => 4,
    }
}

/// One measured position: its class, its kind of game, the evaluation and
/// the label (each in the order of [`OUTPUTS`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The engine's class of the position.
    pub class: PositionClass,
    /// Its kind of game.
    pub kind: GameKind,
    /// The evaluator's five probabilities.
    pub evaluation: [f64; 5],
    /// The label's.
    pub label: [f64; 5],
}

impl Sample {
    /// The equity error: the evaluation's equity minus the label's.
    pub fn equity_error(&self) -> f64 {
        equity(&self.evaluation) - equity(&self.label)
    }
}

/// Sums of errors: how many, of their absolute values, of the values.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Sums {
    count: u64,
    abs: f64,
    signed: f64,
}

impl Sums {
    fn add(&mut self, error: f64) {
        self.count += 1;
        self.abs += error.abs();
        self.signed += error;
    }

    fn merge(&mut self, other: &Sums) {
        self.count += other.count;
        self.abs += other.abs;
        self.signed += other.signed;
    }

    /// The means, `None` without any error.
    fn means(&self) -> Option<Errors> {
        (self.count > 0).then(|| {
            let n = self.count as f64;
            Errors { mean_abs_error: self.abs / n, bias: self.signed / n }
        })
    }
}

/// The sums behind a [`Summary`]. Add samples (or tallies) in a fixed order
/// and the figures are the same bit for bit whatever evaluated them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    equity: Sums,
    outputs: [Sums; 5],
    classes: [Sums; 5],
    kinds: [Sums; 6],
}

impl Tally {
    /// The tally of `samples`, added in their order.
    pub fn of(samples: &[Sample]) -> Tally {
        let mut tally = Tally::default();
        for s in samples {
            tally.add(s);
        }
        tally
    }

    /// Adds one position.
    pub fn add(&mut self, sample: &Sample) {
        let error = sample.equity_error();
        self.equity.add(error);
        for ((sums, net), label) in self.outputs.iter_mut().zip(sample.evaluation).zip(sample.label) {
            sums.add(net - label);
        }
        self.classes[class_index(sample.class)].add(error);
        self.kinds[sample.kind.index()].add(error);
    }

    /// Adds another tally's positions (after this one's).
    pub fn merge(&mut self, other: &Tally) {
        self.equity.merge(&other.equity);
        for (a, b) in self.outputs.iter_mut().zip(&other.outputs) {
            a.merge(b);
        }
        for (a, b) in self.classes.iter_mut().zip(&other.classes) {
            a.merge(b);
        }
        for (a, b) in self.kinds.iter_mut().zip(&other.kinds) {
            a.merge(b);
        }
    }

    /// Positions added.
    pub fn positions(&self) -> u64 {
        self.equity.count
    }

    /// The means (`None` for a tally of no position).
    pub fn summary(&self) -> Option<Summary> {
        let equity = self.equity.means()?;
        let mut outputs = [Errors::default(); 5];
        for (o, sums) in outputs.iter_mut().zip(&self.outputs) {
            *o = sums.means().unwrap_or_default();
        }
        let group = |sums: &Sums| Group { positions: sums.count, errors: sums.means() };
        Some(Summary {
            positions: self.equity.count,
            equity,
            outputs,
            by_class: self.classes.each_ref().map(group),
            by_kind: self.kinds.each_ref().map(group),
        })
    }
}

/// A mean absolute error and a bias (mean signed error).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Errors {
    /// The mean of |error|.
    pub mean_abs_error: f64,
    /// The mean of the errors: positive when the evaluator overrates the
    /// side on roll (for the equity) or the outcome (for an output).
    pub bias: f64,
}

/// The equity errors of the positions of one class or kind.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Group {
    /// How many.
    pub positions: u64,
    /// Their equity errors (`None` for none).
    pub errors: Option<Errors>,
}

impl Serialize for Group {
    /// `{"positions": n, "mean_abs_error": x, "bias": y}`, the two means
    /// `null` for no position.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(3))?;
        map.serialize_entry("positions", &self.positions)?;
        map.serialize_entry("mean_abs_error", &self.errors.map(|e| e.mean_abs_error))?;
        map.serialize_entry("bias", &self.errors.map(|e| e.bias))?;
        map.end()
    }
}

/// The figures of a set of positions.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// How many positions.
    pub positions: u64,
    /// The cubeless equity errors.
    pub equity: Errors,
    /// The errors of each output, in the order of [`OUTPUTS`].
    pub outputs: [Errors; 5],
    /// The equity errors by position class, in the order of [`CLASSES`].
    pub by_class: [Group; 5],
    /// The equity errors by kind of game, in the order of [`GameKind::ALL`].
    pub by_kind: [Group; 6],
}

/// `pairs` as a JSON object, in their order.
struct Keyed<'a, T>(Vec<(&'static str, &'a T)>);

impl<T: Serialize> Serialize for Keyed<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(k, v)| (*k, *v)))
    }
}

impl Serialize for Summary {
    /// `positions`, `equity` (`mean_abs_error`, `bias`), `outputs` (an
    /// object keyed by output name: `bias`, `mean_abs_error`), `by_class`
    /// and `by_kind` (objects keyed by class and kind: `positions`,
    /// `mean_abs_error`, `bias`), every class and kind present.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(5))?;
        map.serialize_entry("positions", &self.positions)?;
        map.serialize_entry("equity", &self.equity)?;
        map.serialize_entry("outputs", &Keyed(OUTPUTS.into_iter().zip(&self.outputs).collect()))?;
        map.serialize_entry(
            "by_class",
            &Keyed(CLASSES.map(PositionClass::name).into_iter().zip(&self.by_class).collect()),
        )?;
        map.serialize_entry(
            "by_kind",
            &Keyed(GameKind::ALL.map(GameKind::key).into_iter().zip(&self.by_kind).collect()),
        )?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NET: [f64; 5] = [0.6, 0.2, 0.01, 0.1, 0.005];

    fn sample(evaluation: [f64; 5], label: [f64; 5], class: PositionClass, kind: GameKind) -> Sample {
        Sample { class, kind, evaluation, label }
    }

    #[test]
    fn equity_of_probabilities() {
        // 2·0.6 − 1 + 0.2 − 0.1 + 0.01 − 0.005
        assert!((equity(&NET) - 0.305).abs() < 1e-12);
        assert_eq!(equity(&[1.0, 1.0, 1.0, 0.0, 0.0]), 3.0);
        assert_eq!(equity(&[0.0, 0.0, 0.0, 1.0, 1.0]), -3.0);
    }

    #[test]
    fn a_label_equal_to_the_evaluation_has_no_error() {
        let s = sample(NET, NET, PositionClass::Contact, GameKind::Other);
        let summary = Tally::of(&[s, s]).summary().unwrap();
        assert_eq!(summary.positions, 2);
        assert_eq!(summary.equity, Errors { mean_abs_error: 0.0, bias: 0.0 });
        assert!(summary.outputs.iter().all(|e| *e == Errors::default()));
        assert_eq!(summary.by_class[0], Group { positions: 2, errors: Some(Errors::default()) });
        assert_eq!(summary.by_class[1], Group { positions: 0, errors: None });
    }

    #[test]
    fn shifted_labels_give_the_known_errors() {
        // Label A: the win chance 0.05 lower (the net overrates it): equity
        // error +0.1. Label B: lose_gammon 0.1 lower (the net overrates the
        // losses): equity error −0.1, output error +0.1 on lose_gammon.
        let a = [0.55, 0.2, 0.01, 0.1, 0.005];
        let b = [0.6, 0.2, 0.01, 0.0, 0.005];
        let samples = [
            sample(NET, a, PositionClass::Contact, GameKind::Prime),
            sample(NET, b, PositionClass::Race, GameKind::Race),
            sample(NET, a, PositionClass::Contact, GameKind::Prime),
        ];
        let s = Tally::of(&samples).summary().unwrap();
        let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
        assert!(close(s.equity.mean_abs_error, 0.1), "{:?}", s.equity);
        assert!(close(s.equity.bias, 0.1 / 3.0), "{:?}", s.equity);
        assert!(close(s.outputs[0].bias, 0.1 / 3.0) && close(s.outputs[0].mean_abs_error, 0.1 / 3.0));
        assert!(close(s.outputs[3].bias, 0.1 / 3.0) && close(s.outputs[3].mean_abs_error, 0.1 / 3.0));
        assert_eq!(s.outputs[1], Errors::default());
        let contact = s.by_class[class_index(PositionClass::Contact)];
        assert_eq!(contact.positions, 2);
        assert!(close(contact.errors.unwrap().bias, 0.1));
        let race = s.by_kind[GameKind::Race.index()];
        assert_eq!(race.positions, 1);
        assert!(close(race.errors.unwrap().bias, -0.1) && close(race.errors.unwrap().mean_abs_error, 0.1));
        assert_eq!(s.by_kind[GameKind::Blitz.index()].errors, None);
    }

    #[test]
    fn merged_tallies_count_every_position() {
        let s = sample(NET, [0.5, 0.2, 0.01, 0.1, 0.005], PositionClass::Contact, GameKind::Other);
        let mut a = Tally::of(&[s]);
        a.merge(&Tally::of(&[s, s]));
        assert_eq!(a, Tally::of(&[s, s, s]));
        assert_eq!(Tally::default().summary(), None);
    }

    #[test]
    fn every_class_has_its_place() {
        for (i, c) in CLASSES.into_iter().enumerate() {
            assert_eq!(class_index(c), i);
        }
    }
}
