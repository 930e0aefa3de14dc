//! A ranking term for supervised fits: the error of the net's equity
//! *differences* between the results of one roll (siblings, [`crate::siblings`]),
//! which decide its 0-ply choice, on top of each position's own error.
//!
//! For two training examples `a` and `b` of the same net from the same roll,
//! with the net's cubeless equities `E` and the labels' `L`, the term is
//! `weight / 2 × ((E(a) − E(b)) − (L(a) − L(b)))²`, added to the loss of `a`'s
//! mini-batch (each pair once). A pointwise loss can lower every error
//! while leaving the order of close siblings as it was (their errors move
//! together); this term weighs the difference itself.

use crate::dataset::Dataset;
use crate::supervised::{backprop, Examples, FitError};
use gammon_eval::inputs::SparseInputs;
use gammon_eval::mlp::{Mlp, OUTPUTS};

/// The largest ranking weight.
pub const MAX_RANKING_WEIGHT: f32 = 100.0;

/// d(equity)/d(output) of the five outputs: win, win gammon, win
/// backgammon, lose gammon, lose backgammon.
const EQUITY: [f32; OUTPUTS] = [2.0, 1.0, 1.0, -1.0, -1.0];

/// Which positions of a fit's datasets share a roll, and the term's weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Ranking<'a> {
    /// Per dataset, in the order given to the fit: the roll of each of its
    /// positions ([`Grouped::groups`](crate::siblings::Grouped) of its
    /// positions file, at least as long as the dataset; the positions of a
    /// roll are consecutive), or `None` for a dataset without groups.
    pub groups: Vec<Option<&'a [u32]>>,
    /// The term's weight: finite, > 0, at most [`MAX_RANKING_WEIGHT`].
    pub weight: f32,
}

/// The sibling pairs of one net's training examples.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Pairs {
    /// `partners[i]`: the later examples of `i`'s roll.
    partners: Vec<Vec<u32>>,
    weight: f32,
}

/// Buffers of a pair's two examples.
pub(crate) struct PairScratch {
    x: [SparseInputs; 2],
    hidden: [Vec<f32>; 2],
}

impl PairScratch {
    pub(crate) fn new(hidden: usize) -> Self {
        PairScratch {
            x: [SparseInputs::with_capacity(512), SparseInputs::with_capacity(512)],
            hidden: [vec![0.0; hidden], vec![0.0; hidden]],
        }
    }
}

fn equity(y: &[f32; OUTPUTS]) -> f32 {
    y.iter().zip(EQUITY).map(|(a, c)| a * c).sum::<f32>() - 1.0
}

impl Pairs {
    /// Pairs counted.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.partners.iter().map(Vec::len).sum()
    }

    /// Adds the gradient of example `i`'s pairs to `grad`.
    pub(crate) fn add_gradients(&self, net: &Mlp, train: &Examples, i: usize, s: &mut PairScratch, grad: &mut Mlp) {
        let Some(partners) = self.partners.get(i) else { return };
        for &j in partners {
            let j = j as usize;
            train.load(i, &mut s.x[0]);
            train.load(j, &mut s.x[1]);
            let ya = net.forward(&s.x[0], &mut s.hidden[0]);
            let yb = net.forward(&s.x[1], &mut s.hidden[1]);
            let r = (equity(&ya) - equity(&yb)) - (equity(&train.labels[i]) - equity(&train.labels[j]));
            let delta = |y: &[f32; OUTPUTS], sign: f32| {
                let mut d = [0.0f32; OUTPUTS];
                for k in 0..OUTPUTS {
                    d[k] = sign * self.weight * r * EQUITY[k] * y[k] * (1.0 - y[k]);
                }
                d
            };
            backprop(net, &s.x[0], &s.hidden[0], &delta(&ya, 1.0), grad);
            backprop(net, &s.x[1], &s.hidden[1], &delta(&yb, -1.0), grad);
        }
    }
}

/// Where a dataset's position went in a fit: `(net, validation?, example)`.
pub(crate) type Location = Option<(usize, bool, usize)>;

/// The roll of each of `dataset`'s positions, from the groups file of the
/// positions file it labels ([`Grouped`](crate::siblings::Grouped)).
///
/// # Errors
/// [`FitError::Ranking`]: the dataset has more positions than the groups,
/// or a position other than the groups' at the same place.
pub fn groups_of<'a>(dataset: &Dataset, grouped: &'a crate::siblings::Grouped) -> Result<&'a [u32], FitError> {
    if dataset.len() > grouped.positions.len() {
        return Err(FitError::Ranking(format!(
            "the labels hold {} positions, the groups {}",
            dataset.len(),
            grouped.positions.len()
        )));
    }
    match dataset.positions.iter().zip(&grouped.positions).position(|(id, p)| *id != p.to_position_id()) {
        Some(k) => Err(FitError::Ranking(format!(
            "position {} of the labels is {}, of the groups {}: not the groups of these labels",
            k + 1,
            dataset.positions[k],
            grouped.positions[k].to_position_id()
        ))),
        None => Ok(&grouped.groups),
    }
}

impl Ranking<'_> {
    /// The training pairs of each net, from where the fit put each
    /// position (`locations`, per dataset) and each net's training count.
    /// Pairs of examples of different nets, or with a validation example,
    /// are left out.
    ///
    /// # Errors
    /// [`FitError::Ranking`]: a weight out of range, groups for other
    /// datasets or shorter than theirs.
    pub(crate) fn pairs(&self, locations: &[Vec<Location>], train: [usize; 3]) -> Result<[Pairs; 3], FitError> {
        if !self.weight.is_finite() || self.weight <= 0.0 || self.weight > MAX_RANKING_WEIGHT {
            return Err(FitError::Ranking(format!(
                "the weight must be > 0 and at most {MAX_RANKING_WEIGHT} (got {:?})",
                self.weight
            )));
        }
        if self.groups.len() != locations.len() {
            return Err(FitError::Ranking(format!(
                "groups for {} datasets, the fit has {}",
                self.groups.len(),
                locations.len()
            )));
        }
        let mut out = train.map(|n| Pairs { partners: vec![Vec::new(); n], weight: self.weight });
        for (d, (groups, here)) in self.groups.iter().zip(locations).enumerate() {
            let Some(groups) = groups else { continue };
            if groups.len() < here.len() {
                return Err(FitError::Ranking(format!(
                    "dataset {} has {} positions, its groups {}",
                    d + 1,
                    here.len(),
                    groups.len()
                )));
            }
            let mut start = 0;
            while start < here.len() {
                let end = (start..here.len()).find(|&k| groups[k] != groups[start]).unwrap_or(here.len());
                for a in start..end {
                    for b in a + 1..end {
                        if let (Some((na, false, ia)), Some((nb, false, ib))) = (here[a], here[b]) {
                            if na == nb && ia != ib {
                                out[na].partners[ia].push(ib as u32);
                            }
                        }
                    }
                }
                start = end;
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::Dataset;
    use crate::siblings::sample_grouped;
    use crate::supervised::{fit_supervised, fit_supervised_ranked, FitSettings, Loss};
    use gammon_eval::{Evaluator, NetEvaluator, NetKind, NetWeights};
    use std::sync::atomic::AtomicBool;

    #[test]
    fn pairs_are_the_training_siblings_of_one_net() {
        let loc = |n, v, i| Some((n, v, i));
        // Rolls 0 (three positions), 1 (two: one validated), 2 (one).
        let groups = [0u32, 0, 0, 1, 1, 2];
        let here = vec![loc(0, false, 0), loc(0, false, 1), loc(1, false, 0), loc(0, false, 2), loc(0, true, 0), None];
        let r = Ranking { groups: vec![Some(&groups)], weight: 1.0 };
        let pairs = r.pairs(std::slice::from_ref(&here), [3, 1, 0]).unwrap();
        assert_eq!(pairs[0].partners, vec![vec![1], vec![], vec![]]);
        assert_eq!((pairs[0].len(), pairs[1].len(), pairs[2].len()), (1, 0, 0));
        let bad = |r: Ranking| r.pairs(std::slice::from_ref(&here), [3, 1, 0]).unwrap_err().to_string();
        assert!(bad(Ranking { groups: vec![Some(&groups[..4])], weight: 1.0 }).contains("dataset 1 has 6 positions"));
        assert!(bad(Ranking { groups: vec![], weight: 1.0 }).contains("groups for 0 datasets"));
        assert!(bad(Ranking { groups: vec![Some(&groups)], weight: f32::NAN }).contains("weight"));
        assert!(Ranking { groups: vec![None], weight: 1.0 }.pairs(&[here], [3, 1, 0]).unwrap()[0].len() == 0);
    }

    /// Labels whose siblings' order a pointwise fit of few epochs gets
    /// wrong more often than a ranked one: the label is the net's own value
    /// plus a sibling-specific step.
    #[test]
    fn the_ranking_term_fits_the_differences_between_siblings() {
        let w0 = NetWeights::random(16, 8, 5);
        let grouped = sample_grouped(&w0, 1500, 3, 0.1, 4, f32::INFINITY);
        let net = NetEvaluator::new(w0.clone());
        let labels: Vec<[f32; 5]> = grouped
            .positions
            .iter()
            .map(|p| {
                let v = net.evaluate(p);
                // A target the nets can learn from the inputs: the pip count.
                let (me, him) = p.pip_count();
                let step = (him as f32 - me as f32) / 400.0;
                [(v.win + step).clamp(0.01, 0.99), v.win_gammon, v.win_backgammon, v.lose_gammon, v.lose_backgammon]
            })
            .collect();
        let data = Dataset {
            positions: grouped.positions.iter().map(|p| p.to_position_id()).collect(),
            labels,
            ..Dataset::default()
        };
        let settings =
            FitSettings { loss: Loss::CrossEntropy, max_epochs: 3, batch: 16, rate: 0.2, ..FitSettings::default() };
        let mut plain = w0.clone();
        fit_supervised(&mut plain, &[&data], &settings, |_| {}).unwrap();
        let mut ranked = w0.clone();
        let ranking = Ranking { groups: vec![Some(&grouped.groups)], weight: 20.0 };
        let stop = AtomicBool::new(false);
        fit_supervised_ranked(&mut ranked, &[&data], &ranking, &settings, |_| {}, &stop).unwrap();
        assert_ne!(plain.contact, ranked.contact);
        // The error of sibling differences on the data, contact net only.
        let diff_error = |w: &NetWeights| {
            let e = NetEvaluator::new(w.clone());
            let (mut sum, mut n) = (0.0, 0);
            for k in 1..data.len() {
                let (a, b) = (grouped.positions[k - 1], grouped.positions[k]);
                if grouped.groups[k] != grouped.groups[k - 1]
                    || NetKind::of_position(&a) != Some(NetKind::Contact)
                    || NetKind::of_position(&b) != Some(NetKind::Contact)
                {
                    continue;
                }
                let de = e.evaluate(&a).equity() - e.evaluate(&b).equity();
                let dl = equity(&data.labels[k - 1]) - equity(&data.labels[k]);
                sum += f64::from((de - dl).abs());
                n += 1;
            }
            assert!(n > 300, "{n} pairs");
            sum / f64::from(n)
        };
        let (p, r) = (diff_error(&plain), diff_error(&ranked));
        assert!(r < 0.9 * p, "ranked {r}, plain {p}");
    }

    #[test]
    fn groups_are_taken_only_for_the_positions_they_were_written_for() {
        use crate::siblings::Grouped;
        use gammon_rules::Position;
        let other = Position::from_position_id("v3sAAAhmdzMAAQ").unwrap();
        let grouped = Grouped { positions: vec![Position::STARTING, other, Position::STARTING], groups: vec![0, 0, 1] };
        let ids = |ps: &[Position]| ps.iter().map(Position::to_position_id).collect::<Vec<_>>();
        let labels = |n| vec![[0.5, 0.1, 0.0, 0.1, 0.0]; n];
        // A partial labels file takes the groups of the positions it holds.
        let partial = Dataset { positions: ids(&grouped.positions[..2]), labels: labels(2), ..Dataset::default() };
        assert_eq!(groups_of(&partial, &grouped).unwrap(), &[0, 0, 1]);
        let swapped = Dataset { positions: ids(&[other, Position::STARTING]), labels: labels(2), ..Dataset::default() };
        let e = groups_of(&swapped, &grouped).unwrap_err().to_string();
        assert!(e.contains("position 1 of the labels") && e.contains("not the groups of these labels"), "{e}");
        let longer = Dataset { positions: ids(&[Position::STARTING; 4]), labels: labels(4), ..Dataset::default() };
        assert!(groups_of(&longer, &grouped).unwrap_err().to_string().contains("hold 4 positions, the groups 3"));
    }
}
