//! The choice score: how well a net's 0-ply choice between the results of a
//! roll agrees with their rollout labels (`gammon label choice`).
//!
//! The positions of a sibling group ([`crate::siblings`]) are the results of
//! one roll, each seen by the opponent, who is on roll there: the mover's
//! best is the result whose equity (for the side on roll) is lowest. For
//! each group of at least two labelled results, the net picks the one it
//! values lowest (ties to the first, as the player does) and the labels
//! name theirs; the score is how often the two agree and the equity the
//! net's pick gives up by the labels (the label equity of its pick minus
//! the label-best's, 0 when they agree).
//!
//! The labels are rollouts with standard errors, so their own best is
//! uncertain: each label's equity error is at most `2 se(w) + se(wg) +
//! se(wbg) + se(lg) + se(lbg)` (the equity's standard error can be no larger
//! than that sum, whatever the correlations), and a group is *clear* when
//! its label-best leads the runner-up by more than twice the bound of their
//! difference (the rollouts of two positions are independent).
//!
//! [`report`] scores a net (and a baseline) on the groups of several labels
//! files at a depth, as `gammon label choice` prints it.

use crate::dataset::Dataset;
use crate::siblings::Grouped;
use gammon_engine::search::Search;
use gammon_eval::{Evaluator, NetEvaluator, NetWeights, Probabilities};
use gammon_rules::Position;
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use thiserror::Error;

/// The deepest choice scored: 2 plies (each ply about 21 times slower).
pub const MAX_PLIES: u8 = 2;

/// One labelled result of a roll.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sibling {
    /// The result (the opponent on roll).
    pub position: Position,
    /// Its label: win, win gammon, win backgammon, lose gammon, lose
    /// backgammon, for the side on roll.
    pub label: [f32; 5],
    /// Their standard errors (zeros where the labels have none).
    pub standard_error: [f32; 5],
}

impl Sibling {
    /// The label's cubeless equity for the side on roll.
    pub fn equity(&self) -> f64 {
        let [w, wg, wbg, lg, lbg] = self.label.map(f64::from);
        2.0 * w - 1.0 + wg - lg + wbg - lbg
    }

    /// A bound on the standard error of [`Self::equity`].
    pub fn equity_error_bound(&self) -> f64 {
        let [w, wg, wbg, lg, lbg] = self.standard_error.map(f64::from);
        2.0 * w + wg + wbg + lg + lbg
    }
}

/// Why labels and groups do not go together.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChoiceError {
    /// More labels than grouped positions.
    #[error("{labels} labels but only {grouped} grouped positions: the groups are of another positions file")]
    TooMany {
        /// Labels.
        labels: usize,
        /// Grouped positions.
        grouped: usize,
    },
    /// A labelled position that is not the grouped one at its index.
    #[error(
        "label {index} is of {label}, the groups file has {grouped} there: the groups are of another positions file"
    )]
    Mismatch {
        /// Index, from 0.
        index: usize,
        /// The label's Position ID.
        label: String,
        /// The groups file's.
        grouped: String,
    },
    /// No file has a group of two or more labelled results.
    #[error("no group of two or more labelled results in the files given")]
    NoGroups,
    /// A depth past [`MAX_PLIES`].
    #[error("the choice is scored at 0 to {MAX_PLIES} plies (got {0})")]
    Plies(u8),
    /// A depth that cannot be compared with the 0-ply choice.
    #[error("the 0-ply choice is compared with a deeper one: 1 to {MAX_PLIES} plies (got {0})")]
    Disagree(u8),
}

/// The groups of at least two labelled siblings of `data`, whose positions
/// are the first of `grouped` in order (a partial labels file is a prefix).
/// A group cut by the end of the labels is left out.
///
/// # Errors
/// [`ChoiceError`] when the labels are not of the grouped positions.
pub fn sibling_groups(data: &Dataset, grouped: &Grouped) -> Result<Vec<Vec<Sibling>>, ChoiceError> {
    let n = data.len();
    if n > grouped.positions.len() {
        return Err(ChoiceError::TooMany { labels: n, grouped: grouped.positions.len() });
    }
    let mut out: Vec<Vec<Sibling>> = Vec::new();
    let mut current: Vec<Sibling> = Vec::new();
    for i in 0..n {
        let position = grouped.positions[i];
        let id = position.to_position_id();
        if data.positions[i] != id {
            return Err(ChoiceError::Mismatch { index: i, label: data.positions[i].clone(), grouped: id });
        }
        if i > 0 && grouped.groups[i] != grouped.groups[i - 1] {
            out.push(std::mem::take(&mut current));
        }
        let standard_error = data.standard_errors.get(i).copied().unwrap_or([0.0; 5]);
        current.push(Sibling { position, label: data.labels[i], standard_error });
    }
    let cut = grouped.groups.get(n).is_some_and(|&g| n > 0 && g == grouped.groups[n - 1]);
    if !cut {
        out.push(current);
    }
    out.retain(|g| g.len() >= 2);
    Ok(out)
}

/// What the net's choice in one group came to.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct GroupOutcome {
    /// Results in the group.
    pub siblings: usize,
    /// The net picks the labels' best.
    pub agree: bool,
    /// Label equity of the labels' best minus that of the net's pick (for
    /// the mover): 0 when they agree.
    pub given_up: f64,
    /// The labels' best leads the runner-up by more than twice the bound
    /// of their difference's standard error.
    pub clear: bool,
    /// The labels' best's lead over the runner-up.
    pub margin: f64,
    /// Mean of the siblings' [`Sibling::equity_error_bound`].
    pub error_bound: f64,
}

/// The net's pick in `group`: the result it values lowest for the side on
/// roll there (ties to the first).
fn net_pick<E: Evaluator>(net: &E, group: &[Sibling]) -> usize {
    let positions: Vec<Position> = group.iter().map(|s| s.position).collect();
    pick(net, &positions)
}

/// The pick among the results of one roll: the one `net` values lowest for
/// the side on roll there (ties to the first).
fn pick<E: Evaluator>(net: &E, results: &[Position]) -> usize {
    let mut values = vec![Probabilities::default(); results.len()];
    net.evaluate_batch(results, &mut values);
    first_lowest(values.iter().map(|p| f64::from(p.equity())))
}

/// The rolls of `grouped` (its groups of two results or more) whose pick
/// by the lookahead of `weights` at `plies` differs from their 0-ply pick:
/// where the net's search corrects its static choice, the choices a fit
/// most needs labels for (gnubg's nets were trained on such positions).
/// The positions and group numbers kept are `grouped`'s, in order.
///
/// # Errors
/// [`ChoiceError::Disagree`] for `plies` 0 or above [`MAX_PLIES`].
pub fn disagreeing_rolls(weights: &NetWeights, plies: u8, grouped: &Grouped) -> Result<Grouped, ChoiceError> {
    if plies == 0 || plies > MAX_PLIES {
        return Err(ChoiceError::Disagree(plies));
    }
    let eval = NetEvaluator::new(weights.clone());
    let search = Search::new(NetEvaluator::new(weights.clone())).with_plies(plies);
    let spans: Vec<_> = grouped.rolls().collect();
    let kept: Vec<bool> = spans
        .par_iter()
        .map(|r| {
            let results = &grouped.positions[r.clone()];
            results.len() >= 2 && pick(&eval, results) != pick(&search, results)
        })
        .collect();
    let mut out = Grouped::default();
    for (r, _) in spans.iter().zip(&kept).filter(|(_, &k)| k) {
        out.positions.extend_from_slice(&grouped.positions[r.clone()]);
        out.groups.extend_from_slice(&grouped.groups[r.clone()]);
    }
    Ok(out)
}

/// The index of the lowest value, ties to the first.
fn first_lowest(values: impl Iterator<Item = f64>) -> usize {
    let mut best = (0, f64::INFINITY);
    for (i, v) in values.enumerate() {
        if v < best.1 {
            best = (i, v);
        }
    }
    best.0
}

/// Scores the net's choice in one group (of at least one sibling).
pub fn score_group<E: Evaluator>(net: &E, group: &[Sibling]) -> GroupOutcome {
    let pick = net_pick(net, group);
    let equities: Vec<f64> = group.iter().map(Sibling::equity).collect();
    let best = first_lowest(equities.iter().copied());
    let runner_up = first_lowest(equities.iter().enumerate().map(|(i, &e)| if i == best { f64::INFINITY } else { e }));
    let (margin, clear) = if group.len() < 2 {
        (f64::INFINITY, true)
    } else {
        let margin = equities[runner_up] - equities[best];
        let bound = group[best].equity_error_bound().hypot(group[runner_up].equity_error_bound());
        (margin, margin > 2.0 * bound)
    };
    GroupOutcome {
        siblings: group.len(),
        agree: pick == best,
        given_up: equities[pick] - equities[best],
        clear,
        margin,
        error_bound: group.iter().map(Sibling::equity_error_bound).sum::<f64>() / group.len() as f64,
    }
}

/// Scores the net's choice in every group (in parallel; the outcomes are
/// in the groups' order).
pub fn score<E: Evaluator>(net: &E, groups: &[Vec<Sibling>]) -> Vec<GroupOutcome> {
    groups.par_iter().with_min_len(16).map(|g| score_group(net, g)).collect()
}

/// A mean and its standard error.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Mean {
    /// The mean.
    pub mean: f64,
    /// Its standard error (sample standard deviation over √n).
    pub standard_error: f64,
}

impl Mean {
    /// The mean of `xs` (`None` when empty).
    pub fn of(xs: impl Iterator<Item = f64>) -> Option<Mean> {
        let (mut n, mut sum, mut sq) = (0usize, 0.0, 0.0);
        for x in xs {
            n += 1;
            sum += x;
            sq += x * x;
        }
        if n == 0 {
            return None;
        }
        let mean = sum / n as f64;
        let var = if n > 1 { ((sq - sum * mean) / (n - 1) as f64).max(0.0) } else { 0.0 };
        Some(Mean { mean, standard_error: (var / n as f64).sqrt() })
    }
}

/// The choice score of a set of outcomes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct ChoiceSummary {
    /// Groups scored.
    pub groups: usize,
    /// Positions in them.
    pub siblings: usize,
    /// Fraction of groups where the net picks the labels' best.
    pub agreement: Mean,
    /// Equity the net's pick gives up by the labels, per group.
    pub given_up: Mean,
    /// Groups whose label-best is clear of the noise.
    pub clear_groups: usize,
    /// Agreement on the clear groups (`None` without any).
    pub clear_agreement: Option<Mean>,
    /// Equity given up on the clear groups.
    pub clear_given_up: Option<Mean>,
    /// Mean lead of the label-best over the runner-up.
    pub mean_margin: f64,
    /// Mean bound on a label's equity standard error.
    pub mean_error_bound: f64,
}

impl ChoiceSummary {
    /// The summary of `outcomes` (`None` when empty).
    pub fn of(outcomes: &[GroupOutcome]) -> Option<ChoiceSummary> {
        let agree = |o: &GroupOutcome| if o.agree { 1.0 } else { 0.0 };
        let clear: Vec<&GroupOutcome> = outcomes.iter().filter(|o| o.clear).collect();
        Some(ChoiceSummary {
            groups: outcomes.len(),
            siblings: outcomes.iter().map(|o| o.siblings).sum(),
            agreement: Mean::of(outcomes.iter().map(agree))?,
            given_up: Mean::of(outcomes.iter().map(|o| o.given_up))?,
            clear_groups: clear.len(),
            clear_agreement: Mean::of(clear.iter().map(|o| agree(o))),
            clear_given_up: Mean::of(clear.iter().map(|o| o.given_up)),
            mean_margin: outcomes.iter().map(|o| o.margin).sum::<f64>() / outcomes.len() as f64,
            mean_error_bound: outcomes.iter().map(|o| o.error_bound).sum::<f64>() / outcomes.len() as f64,
        })
    }
}

/// Two nets scored on the same groups, paired group by group: the second's
/// figure minus the first's (`None` when empty or of other lengths).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct PairedChoice {
    /// Agreement, second minus first.
    pub agreement: Mean,
    /// Equity given up, second minus first (negative: the second gives up
    /// less).
    pub given_up: Mean,
}

impl PairedChoice {
    /// `second` minus `first`, group by group.
    pub fn of(first: &[GroupOutcome], second: &[GroupOutcome]) -> Option<PairedChoice> {
        if first.len() != second.len() {
            return None;
        }
        let agree = |o: &GroupOutcome| if o.agree { 1.0 } else { 0.0 };
        Some(PairedChoice {
            agreement: Mean::of(first.iter().zip(second).map(|(a, b)| agree(b) - agree(a)))?,
            given_up: Mean::of(first.iter().zip(second).map(|(a, b)| b.given_up - a.given_up))?,
        })
    }
}

/// One labels file's sibling groups ([`sibling_groups`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ChoiceFile {
    /// The labels file.
    pub labels: PathBuf,
    /// Its groups of at least two labelled siblings.
    pub groups: Vec<Vec<Sibling>>,
}

/// One file's line of a [`ChoiceReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FileChoice {
    /// The labels file.
    pub labels: PathBuf,
    /// The net's score on its groups (`None` when it has none).
    pub summary: Option<ChoiceSummary>,
}

/// The baseline's score on the same groups.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BaselineChoice {
    /// The baseline net: its notes and fingerprint.
    pub net: String,
    /// Its score on all the groups.
    pub total: ChoiceSummary,
}

/// A net's choice scored on the groups of several labels files
/// (`gammon label choice`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceReport {
    /// The net scored: its notes and fingerprint.
    pub net: String,
    /// The depth of its choice.
    pub plies: u8,
    /// Its score on each file, in order.
    pub files: Vec<FileChoice>,
    /// Its score on all the groups.
    pub total: ChoiceSummary,
    /// The baseline's score, when one is given.
    pub baseline: Option<BaselineChoice>,
    /// The net minus the baseline, group by group, when one is given.
    pub paired: Option<PairedChoice>,
}

/// A net's name in a report: its notes and fingerprint.
fn net_name(weights: &NetWeights) -> String {
    format!("{:?} ({:016x})", weights.meta.notes, weights.fingerprint())
}

/// The outcomes of `weights`' choice at `plies` in each file's groups: 0,
/// the static evaluation (as the nets are trained and play); more, the
/// engine's lookahead.
fn outcomes(weights: NetWeights, plies: u8, files: &[ChoiceFile]) -> Vec<Vec<GroupOutcome>> {
    let eval = NetEvaluator::new(weights);
    if plies == 0 {
        files.iter().map(|f| score(&eval, &f.groups)).collect()
    } else {
        let search = Search::new(eval).with_plies(plies);
        files.iter().map(|f| score(&search, &f.groups)).collect()
    }
}

/// Scores the choice of `weights` at `plies` in the groups of `files`,
/// and of `baseline` too, paired group by group (in the caller's thread
/// pool).
///
/// # Errors
/// [`ChoiceError::NoGroups`] when no file has a group,
/// [`ChoiceError::Plies`] past [`MAX_PLIES`]; both before anything is
/// evaluated.
pub fn report(
    files: &[ChoiceFile],
    plies: u8,
    weights: NetWeights,
    baseline: Option<NetWeights>,
) -> Result<ChoiceReport, ChoiceError> {
    if plies > MAX_PLIES {
        return Err(ChoiceError::Plies(plies));
    }
    if files.iter().all(|f| f.groups.is_empty()) {
        return Err(ChoiceError::NoGroups);
    }
    let net = net_name(&weights);
    let per_file = outcomes(weights, plies, files);
    let all = per_file.concat();
    let total = ChoiceSummary::of(&all).ok_or(ChoiceError::NoGroups)?;
    let (baseline, paired) = match baseline {
        None => (None, None),
        Some(b) => {
            let net = net_name(&b);
            let theirs = outcomes(b, plies, files).concat();
            let total = ChoiceSummary::of(&theirs).ok_or(ChoiceError::NoGroups)?;
            (Some(BaselineChoice { net, total }), PairedChoice::of(&theirs, &all))
        }
    };
    let files = files
        .iter()
        .zip(&per_file)
        .map(|(f, o)| FileChoice { labels: f.labels.clone(), summary: ChoiceSummary::of(o) })
        .collect();
    Ok(ChoiceReport { net, plies, files, total, baseline, paired })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::siblings::sample_grouped;
    use gammon_eval::NetWeights;

    /// Answers each position with a fixed equity (win probability only).
    struct Table(Vec<(Position, f32)>);

    impl Evaluator for Table {
        fn name(&self) -> String {
            "a table".into()
        }

        fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
            for (p, o) in positions.iter().zip(out) {
                let e = self.0.iter().find(|(q, _)| q == p).map_or(0.0, |x| x.1);
                *o = Probabilities { win: (e + 1.0) / 2.0, ..Probabilities::default() };
            }
        }
    }

    fn positions(n: usize) -> Vec<Position> {
        let w = NetWeights::random(8, 8, 3);
        crate::distill::sample_positions(&w, n, 4, 0.0)
    }

    /// A sibling of label equity `e` (win probability only) with `se` on the
    /// win.
    fn sib(p: Position, e: f32, se: f32) -> Sibling {
        Sibling { position: p, label: [(e + 1.0) / 2.0, 0.0, 0.0, 0.0, 0.0], standard_error: [se, 0.0, 0.0, 0.0, 0.0] }
    }

    #[test]
    fn the_pick_is_the_lowest_for_the_side_on_roll_and_the_loss_is_by_the_labels() {
        let p = positions(3);
        let group = [sib(p[0], 0.10, 0.001), sib(p[1], -0.20, 0.001), sib(p[2], 0.05, 0.001)];
        assert!((group[1].equity() + 0.20).abs() < 1e-6);
        // A net that values as the labels do picks their best (the lowest
        // for the opponent, on roll there).
        let same = Table(group.iter().map(|s| (s.position, s.equity() as f32)).collect());
        let o = score_group(&same, &group);
        assert!(o.agree && o.given_up == 0.0 && o.clear, "{o:?}");
        assert!((o.margin - 0.25).abs() < 1e-6);
        // A net of the mover's view (inverted) picks the labels' worst.
        let inverted = Table(group.iter().map(|s| (s.position, -s.equity() as f32)).collect());
        let o = score_group(&inverted, &group);
        assert!(!o.agree && (o.given_up - 0.30).abs() < 1e-6, "{o:?}");
        // Equal values: the first.
        let flat = Table(Vec::new());
        let o = score_group(&flat, &group);
        assert!(!o.agree && (o.given_up - 0.30).abs() < 1e-6, "{o:?}");
    }

    #[test]
    fn a_lead_within_the_noise_is_not_clear() {
        let p = positions(2);
        // Bounds 2 * 0.01 each: the difference's is 0.028, twice is 0.057.
        let close = [sib(p[0], 0.00, 0.01), sib(p[1], -0.05, 0.01)];
        let net = Table(Vec::new());
        let o = score_group(&net, &close);
        assert!(!o.clear && !o.agree && (o.given_up - 0.05).abs() < 1e-6, "{o:?}");
        assert!((o.error_bound - 0.02).abs() < 1e-9);
        let far = [sib(p[0], 0.00, 0.01), sib(p[1], -0.06, 0.01)];
        assert!(score_group(&net, &far).clear);
    }

    #[test]
    fn summaries_and_pairs_are_means_with_errors() {
        let o = |agree, given_up| GroupOutcome {
            siblings: 2,
            agree,
            given_up,
            clear: agree,
            margin: 0.1,
            error_bound: 0.01,
        };
        let a = [o(true, 0.0), o(false, 0.04), o(false, 0.02), o(true, 0.0)];
        let s = ChoiceSummary::of(&a).unwrap();
        assert_eq!((s.groups, s.siblings, s.clear_groups), (4, 8, 2));
        assert!((s.agreement.mean - 0.5).abs() < 1e-12);
        assert!((s.agreement.standard_error - (1.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
        assert!((s.given_up.mean - 0.015).abs() < 1e-12);
        assert_eq!(s.clear_agreement.unwrap().mean, 1.0);
        assert!(ChoiceSummary::of(&[]).is_none());
        let b = [o(true, 0.0), o(true, 0.0), o(false, 0.02), o(false, 0.01)];
        let d = PairedChoice::of(&a, &b).unwrap();
        assert!((d.agreement.mean - 0.0).abs() < 1e-12);
        assert!((d.given_up.mean - (-0.04 + 0.01) / 4.0).abs() < 1e-12);
        assert!(PairedChoice::of(&a, &b[..3]).is_none());
    }

    #[test]
    fn labels_are_grouped_by_their_positions_file_and_a_cut_group_is_left_out() {
        let w = NetWeights::random(8, 8, 3);
        let grouped = sample_grouped(&w, 60, 5, 0.0, 3, f32::INFINITY);
        let labelled = |n: usize| Dataset {
            positions: grouped.positions[..n].iter().map(Position::to_position_id).collect(),
            labels: (0..n).map(|i| [i as f32 / 100.0, 0.0, 0.0, 0.0, 0.0]).collect(),
            standard_errors: vec![[0.01; 5]; n],
            ..Dataset::default()
        };
        let whole = sibling_groups(&labelled(60), &grouped).unwrap();
        let sizes: Vec<usize> = (0..=grouped.groups[59])
            .map(|k| grouped.groups.iter().filter(|&&g| g == k).count())
            .filter(|&s| s >= 2)
            .collect();
        assert_eq!(whole.iter().map(Vec::len).collect::<Vec<_>>(), sizes);
        assert_eq!(whole[0][1].position, grouped.positions[1]);
        // Cut inside a group: that group is left out, the ones before kept.
        let cut = (1..60).find(|&n| grouped.groups[n] == grouped.groups[n - 1] && grouped.groups[n - 1] > 2).unwrap();
        let part = sibling_groups(&labelled(cut), &grouped).unwrap();
        let before = grouped.groups[cut - 1] as usize;
        let expected: usize =
            (0..before).filter(|&k| grouped.groups.iter().filter(|&&g| g as usize == k).count() >= 2).count();
        assert_eq!(part.len(), expected);
        // Labels of other positions are refused.
        let mut other = labelled(10);
        other.positions.swap(0, 1);
        assert!(matches!(sibling_groups(&other, &grouped), Err(ChoiceError::Mismatch { index: 0, .. })));
        let more = Dataset { positions: vec![String::new(); 61], ..Dataset::default() };
        assert!(matches!(sibling_groups(&more, &grouped), Err(ChoiceError::TooMany { labels: 61, grouped: 60 })));
    }

    #[test]
    fn a_report_scores_each_file_at_its_depth_and_pairs_a_baseline() {
        let w = NetWeights::random(8, 8, 3);
        let grouped = sample_grouped(&w, 60, 5, 0.0, 3, f32::INFINITY);
        let data = Dataset {
            positions: grouped.positions.iter().map(Position::to_position_id).collect(),
            labels: (0..60).map(|i| [(i * 7 % 60) as f32 / 60.0, 0.0, 0.0, 0.0, 0.0]).collect(),
            standard_errors: vec![[0.01; 5]; 60],
            ..Dataset::default()
        };
        let groups = sibling_groups(&data, &grouped).unwrap();
        let files = [
            ChoiceFile { labels: "a.gds".into(), groups: groups.clone() },
            ChoiceFile { labels: "none.gds".into(), groups: Vec::new() },
        ];
        let r = report(&files, 0, w.clone(), Some(w.clone())).unwrap();
        let static_total = ChoiceSummary::of(&score(&NetEvaluator::new(w.clone()), &groups)).unwrap();
        assert_eq!((r.plies, r.total), (0, static_total));
        assert_eq!(r.files.iter().map(|f| f.labels.to_str().unwrap()).collect::<Vec<_>>(), ["a.gds", "none.gds"]);
        assert_eq!((r.files[0].summary, r.files[1].summary), (Some(r.total), None));
        // The same net as its baseline: the same score, no difference.
        let b = r.baseline.as_ref().unwrap();
        assert_eq!((&b.net, b.total), (&r.net, r.total));
        let p = r.paired.unwrap();
        assert_eq!((p.agreement.mean, p.given_up.mean), (0.0, 0.0));
        let other = report(&files, 0, w.clone(), Some(NetWeights::random(8, 8, 4))).unwrap();
        assert_ne!(other.baseline.unwrap().net, other.net);
        assert!(report(&files, 0, w.clone(), None).unwrap().paired.is_none());
        // A depth: the engine's lookahead chooses.
        let deeper = report(&files[..1], 1, w.clone(), None).unwrap();
        let search = Search::new(NetEvaluator::new(w.clone())).with_plies(1);
        assert_eq!((deeper.plies, deeper.total), (1, ChoiceSummary::of(&score(&search, &groups)).unwrap()));
        // The keys `gammon label choice --json` prints.
        let v = serde_json::to_value(&r).unwrap();
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["baseline", "files", "net", "paired", "plies", "total"]);
        assert_eq!(v["files"][1], serde_json::json!({"labels": "none.gds", "summary": null}));
        assert_eq!(v["baseline"]["total"]["groups"], r.total.groups);
        // Refused before anything is evaluated.
        assert!(matches!(report(&files[1..], 0, w.clone(), None), Err(ChoiceError::NoGroups)));
        assert!(matches!(report(&files, 3, w, None), Err(ChoiceError::Plies(3))));
    }

    #[test]
    fn the_rolls_kept_are_those_where_the_lookahead_picks_another_result() {
        let w = NetWeights::random(8, 8, 5);
        let grouped = sample_grouped(&w, 400, 7, 0.1, 4, f32::INFINITY);
        let kept = disagreeing_rolls(&w, 1, &grouped).unwrap();
        // The same, position by position: the 0-ply values of the net, the
        // 1-ply values of its search.
        let eval = NetEvaluator::new(w.clone());
        let search = Search::new(NetEvaluator::new(w.clone()));
        let first_min = |values: &[f32]| (0..values.len()).fold(0, |b, i| if values[i] < values[b] { i } else { b });
        let (mut expected, mut rolls) = (Grouped::default(), 0);
        let mut start = 0;
        while start < grouped.groups.len() {
            let end = (start..grouped.groups.len()).find(|&i| grouped.groups[i] != grouped.groups[start]);
            let end = end.unwrap_or(grouped.groups.len());
            let results = &grouped.positions[start..end];
            if results.len() >= 2 {
                rolls += 1;
                let shallow: Vec<f32> = results.iter().map(|p| eval.evaluate(p).equity()).collect();
                let deep: Vec<f32> = results.iter().map(|p| search.value(p, 1).equity()).collect();
                if first_min(&shallow) != first_min(&deep) {
                    expected.positions.extend_from_slice(results);
                    expected.groups.extend_from_slice(&grouped.groups[start..end]);
                }
            }
            start = end;
        }
        assert_eq!(kept, expected);
        let kept_rolls = kept.rolls().count();
        assert!(kept_rolls > 0 && kept_rolls < rolls, "{kept_rolls} of {rolls} rolls kept");
        for plies in [0, MAX_PLIES + 1] {
            let err = disagreeing_rolls(&w, plies, &grouped).unwrap_err();
            assert_eq!(err, ChoiceError::Disagree(plies));
        }
    }
}
