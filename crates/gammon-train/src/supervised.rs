//! Supervised training of the nets toward labelled positions (rollout or
//! lookahead labels): mini-batches, a held-out validation set, a learning
//! rate that halves when the validation error stops falling, and early
//! stopping on it.
//!
//! - Each net (contact, crashed, race) learns from the positions it answers
//!   ([`NetKind::of_position`]); finished games and bearoffs are exact and
//!   skipped.
//! - The validation set is a fixed fraction of the positions chosen by a
//!   hash of the Position ID ([`is_validation`]): the same position is always
//!   on the same side, whatever the files, their order or duplicates, so no
//!   position is both trained on and validated.
//! - An epoch is one pass over the training positions in an order shuffled
//!   by the seed (a dataset given a repeat count, [`FitData::repeats`], has
//!   each of its positions met that many times an epoch: a weight on
//!   positions that are rare elsewhere, such as the back-game chunks; the
//!   validation error weighs every position once); a dataset marked
//!   rank-only ([`FitData::rank_only`]) teaches only the ranking term: its
//!   positions learn from the differences between the results of a roll,
//!   not from their labels' level, and its labels are never validated on;
//!   a mini-batch's gradient (of the squared error of the five
//!   output sigmoids, as TD and distillation train, or of their
//!   cross-entropy: [`Loss`]) is the mean over its positions,
//!   summed in a fixed order of fixed sub-batches, so the result is the same
//!   at any thread count.
//! - After each epoch the validation error decides: lower than the best so
//!   far, the net is kept as the best; otherwise the net goes back to the
//!   best one and the rate halves (with `halve_after` above 1, only after
//!   that many such epochs in a row); after `patience` halvings (counted over
//!   the whole fit, not since the last new best), the next epoch without a
//!   new best stops that net. The best net of each kind is the result.
//!
//! The tests are in `supervised/tests.rs`.

use crate::dataset::Dataset;
use crate::labels::position_seed;
use crate::ranking::{Location, PairScratch, Pairs, Ranking};
use gammon_eval::inputs::SparseInputs;
use gammon_eval::mlp::{Mlp, OUTPUTS};
use gammon_eval::{NetKind, NetWeights};
use gammon_rules::Position;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use thiserror::Error;

/// The most epochs of one fit.
pub const MAX_FIT_EPOCHS: u32 = 10_000;
/// The largest mini-batch.
pub const MAX_BATCH: usize = 65_536;
/// Sub-batches per mini-batch: the unit of parallel work, fixed so that the
/// sums do not depend on the thread count.
const SUB_BATCHES: usize = 4;

/// What a fit minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Loss {
    /// Squared error through the output sigmoids (as TD and distillation
    /// train): its gradient fades where an output nears 0 or 1.
    SquaredError,
    /// Cross-entropy of each output as a probability: the gradient is the
    /// plain difference, so nearly decided outputs (races, sure gammons)
    /// still learn.
    CrossEntropy,
}

/// How a batch's mean gradient moves the weights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimizer {
    /// Plain gradient descent: each weight moves by `rate` times its
    /// gradient.
    #[default]
    Sgd,
    /// Adam (Kingma and Ba, 2015): each weight moves by `rate` times its
    /// gradient's running mean over the root of its running square
    /// (β₁ 0.9, β₂ 0.999, ε 1e-8, bias-corrected), so weights with small,
    /// steady gradients (saturated units, rare inputs) still move. The
    /// moments start again when a net goes back to its best epoch.
    Adam,
}

/// How to fit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct FitSettings {
    /// The loss minimised (validation is always reported as squared error).
    pub loss: Loss,
    /// The most passes over the training positions: 1 to [`MAX_FIT_EPOCHS`].
    pub max_epochs: u32,
    /// Positions per mini-batch: 1 to [`MAX_BATCH`].
    pub batch: usize,
    /// Learning rate on the mean gradient of a batch: finite, > 0, < 1000.
    pub rate: f32,
    /// Halvings of the rate (counted over the whole fit) before the next
    /// one stops a net: 0 to 20.
    pub patience: u32,
    /// Epochs in a row without a new best before the net goes back to its
    /// best and the rate halves: 1 to 20 (1, the default: after each such
    /// epoch; more lets a net, Adam's above all, cross a plateau at its
    /// rate).
    pub halve_after: u32,
    /// Fraction of the positions held out for validation: in (0, 0.5].
    pub validation: f64,
    /// Seed of the training order.
    pub seed: u64,
    /// How the gradient moves the weights.
    pub optimizer: Optimizer,
    /// Fit only this net: the others stay as they are and their positions
    /// are not used. `None`: every net that has positions.
    #[serde(serialize_with = "net_name")]
    pub only: Option<NetKind>,
}

fn net_name<S: serde::Serializer>(only: &Option<NetKind>, s: S) -> Result<S::Ok, S::Error> {
    only.map(NetKind::name).serialize(s)
}

impl Default for FitSettings {
    fn default() -> Self {
        FitSettings {
            loss: Loss::SquaredError,
            max_epochs: 40,
            batch: 32,
            rate: 1.0,
            patience: 3,
            halve_after: 1,
            validation: 0.05,
            seed: 1,
            optimizer: Optimizer::Sgd,
            only: None,
        }
    }
}

/// A fit setting that cannot be used, or data that cannot be fitted.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum FitError {
    /// A setting out of range.
    #[error("{setting} must be {rule} (got {got})")]
    Setting {
        /// The setting.
        setting: &'static str,
        /// What it must be.
        rule: &'static str,
        /// The value given.
        got: String,
    },
    /// A stored position that does not decode.
    #[error("{0}")]
    Position(String),
    /// Sibling groups that do not go with the datasets, or a ranking weight
    /// out of range.
    #[error("ranking: {0}")]
    Ranking(String),
    /// No labelled position at all: a fit would write the starting net
    /// unchanged.
    #[error("no labelled positions to fit (the datasets are empty)")]
    Empty,
    /// No net to be fitted has both training and validation positions: a
    /// fit would write the starting nets unchanged.
    #[error("{0}: nothing would be fitted")]
    NothingToFit(String),
    /// Repeat counts that do not go with the datasets.
    #[error("repeats: {0}")]
    Repeats(String),
}

/// The most times an epoch meets one position ([`FitData::repeats`]).
pub const MAX_REPEAT: u32 = 10;

/// What a fit learns from besides the datasets.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitData<'a> {
    /// The ranking term on sibling differences, if any.
    pub ranking: Option<&'a Ranking<'a>>,
    /// Per dataset, in the order given to the fit: how many times an epoch
    /// meets each of its positions (1 to [`MAX_REPEAT`]; a position in
    /// several datasets takes the largest), its ranking pairs with it.
    /// `None`: once each.
    pub repeats: Option<&'a [u32]>,
    /// Per dataset, in the order given to the fit: whether its labels teach
    /// only the ranking term (the differences between the results of a
    /// roll), not the values: labels whose level is off but whose
    /// differences are sound, such as rollouts truncated by a net with dead
    /// backgammon outputs (the campaign's c001-c013). A position also in a
    /// dataset that is not rank-only takes that dataset's labels (and
    /// repeat count) and gives no rank-only pairs; a rank-only position on
    /// the validation side is left out. Each rank-only dataset needs its
    /// groups in [`FitData::ranking`]. `None`: none.
    pub rank_only: Option<&'a [bool]>,
}

impl FitSettings {
    /// Checks every value.
    ///
    /// # Errors
    /// [`FitError::Setting`] for the first value out of range.
    pub fn validate(&self) -> Result<(), FitError> {
        let bad = |setting, rule, got: String| Err(FitError::Setting { setting, rule, got });
        if self.max_epochs == 0 || self.max_epochs > MAX_FIT_EPOCHS {
            return bad("max_epochs", "1 to 10000", self.max_epochs.to_string());
        }
        if self.batch == 0 || self.batch > MAX_BATCH {
            return bad("batch", "1 to 65536", self.batch.to_string());
        }
        if !self.rate.is_finite() || self.rate <= 0.0 || self.rate >= 1000.0 {
            return bad("rate", "a finite number > 0 and < 1000", format!("{:?}", self.rate));
        }
        if self.patience > 20 {
            return bad("patience", "0 to 20", self.patience.to_string());
        }
        if self.halve_after == 0 || self.halve_after > 20 {
            return bad("halve_after", "1 to 20", self.halve_after.to_string());
        }
        if !self.validation.is_finite() || self.validation <= 0.0 || self.validation > 0.5 {
            return bad("validation", "a fraction > 0 and at most 0.5", format!("{:?}", self.validation));
        }
        Ok(())
    }
}

/// Whether the position `id` is held out for validation when a fraction
/// `validation` is.
pub fn is_validation(id: &str, validation: f64) -> bool {
    // The top 53 bits of the hash, as a fraction in [0, 1).
    let u = (position_seed(0x005E_ED0F_7A11, id) >> 11) as f64 / (1u64 << 53) as f64;
    u < validation
}

/// One epoch of one net.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EpochRow {
    /// The net.
    pub net: &'static str,
    /// From 1.
    pub epoch: u32,
    /// The rate used in this epoch.
    pub rate: f32,
    /// Mean squared error per output over the training positions, during
    /// the epoch (each counted as often as the epoch meets it:
    /// [`FitData::repeats`]).
    pub train_mse: f64,
    /// Mean squared error per output over the validation positions, after it.
    pub validation_mse: f64,
    /// Mean |equity error| (cubeless money) on the validation positions.
    pub validation_equity_error: f64,
    /// Whether this epoch's net is the best so far (and kept).
    pub best: bool,
}

impl std::fmt::Display for EpochRow {
    /// `contact epoch 3: rate 1.0000, train mse …, validation mse …, |equity error| … (best)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} epoch {}: rate {:.4}, train mse {:.6}, validation mse {:.6}, |equity error| {:.4}{}",
            self.net,
            self.epoch,
            self.rate,
            self.train_mse,
            self.validation_mse,
            self.validation_equity_error,
            if self.best { " (best)" } else { "" }
        )
    }
}

/// What a fit did, per net.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct FitReport {
    /// Every epoch of every net, in order.
    pub epochs: Vec<EpochRow>,
    /// Per net: (name, training positions, validation positions, the
    /// validation error before training, the best validation error).
    pub nets: Vec<NetSummary>,
    /// Positions met more than once across the datasets: each is fitted
    /// once, to the mean of its labels (so that `--data L --data L` does
    /// not train and validate on copies; a value label replaces rank-only
    /// ones, [`FitData::rank_only`]).
    pub duplicates: usize,
    /// Stopped on request before the end ([`fit_supervised_until`]).
    pub stopped: bool,
}

/// One net's fit.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NetSummary {
    /// The net.
    pub net: &'static str,
    /// Training positions.
    pub train: usize,
    /// Validation positions.
    pub validation: usize,
    /// Validation mean squared error per output before training.
    pub validation_mse_before: f64,
    /// The best validation mean squared error (the kept net's).
    pub validation_mse_best: f64,
    /// Validation mean |equity error| before training.
    pub equity_error_before: f64,
    /// The kept net's.
    pub equity_error_best: f64,
    /// The epoch of the kept net (0: the net before training).
    pub best_epoch: u32,
}

impl std::fmt::Display for NetSummary {
    /// `contact net: N training and M validation positions; validation mse
    /// a -> b, |equity error| c -> d (epoch e)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} net: {} training and {} validation positions; validation mse {:.6} -> {:.6}, |equity error| {:.4} -> {:.4} (epoch {})",
            self.net,
            self.train,
            self.validation,
            self.validation_mse_before,
            self.validation_mse_best,
            self.equity_error_before,
            self.equity_error_best,
            self.best_epoch
        )
    }
}

/// Encoded examples of one net: inputs flattened, with their labels.
pub(crate) struct Examples {
    offsets: Vec<u32>,
    index: Vec<u16>,
    value: Vec<f32>,
    pub(crate) labels: Vec<[f32; OUTPUTS]>,
    /// How many times an epoch meets each example.
    repeats: Vec<u32>,
    /// Whether each example's own error is fitted (false: its ranking
    /// pairs only, [`FitData::rank_only`]).
    valued: Vec<bool>,
}

impl Examples {
    fn new() -> Self {
        Examples {
            offsets: vec![0],
            index: Vec::new(),
            value: Vec::new(),
            labels: Vec::new(),
            repeats: Vec::new(),
            valued: Vec::new(),
        }
    }

    fn push(&mut self, x: &SparseInputs, label: [f32; OUTPUTS], repeat: u32, valued: bool) {
        self.index.extend_from_slice(&x.index);
        self.value.extend_from_slice(&x.value);
        self.offsets.push(self.index.len() as u32);
        self.labels.push(label);
        self.repeats.push(repeat);
        self.valued.push(valued);
    }

    /// Each example's index as many times as an epoch meets it.
    fn epoch_order(&self) -> Vec<usize> {
        self.repeats.iter().enumerate().flat_map(|(i, &n)| std::iter::repeat_n(i, n as usize)).collect()
    }

    fn len(&self) -> usize {
        self.labels.len()
    }

    pub(crate) fn load(&self, i: usize, into: &mut SparseInputs) {
        let (a, b) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        into.index.clear();
        into.value.clear();
        into.index.extend_from_slice(&self.index[a..b]);
        into.value.extend_from_slice(&self.value[a..b]);
    }
}

/// The training and validation examples of each net, the number of
/// duplicate positions merged (a position met again adds its label to the
/// mean of its first example's, a value label replacing rank-only ones),
/// and where each position of each dataset went (`None` where it gives no
/// ranking pairs: a rank-only position that is validated, or that took
/// another dataset's value label).
type Split = ([(Examples, Examples); 3], usize, Vec<Vec<Location>>);

/// Training and validation examples of each net from the datasets, each
/// met `repeats[d]` times an epoch for dataset `d` (once without), its own
/// error fitted unless `rank_only[d]` ([`FitData::rank_only`]).
fn split(datasets: &[&Dataset], data: &FitData<'_>, validation: f64) -> Result<Split, FitError> {
    let mut out =
        [(Examples::new(), Examples::new()), (Examples::new(), Examples::new()), (Examples::new(), Examples::new())];
    let mut inputs = SparseInputs::with_capacity(NetKind::ALL.iter().map(|k| k.inputs()).max().unwrap_or(0));
    // Position ID -> (net, validation?, index, labels summed so far).
    let mut seen: HashMap<&str, (usize, bool, usize, u32)> = HashMap::new();
    let mut duplicates = 0;
    let mut locations = Vec::with_capacity(datasets.len());
    for (k, d) in datasets.iter().enumerate() {
        let repeat = data.repeats.map_or(1, |r| r[k]);
        let valued = !data.rank_only.is_some_and(|r| r[k]);
        let mut here = Vec::with_capacity(d.len());
        for (id, label) in d.positions.iter().zip(&d.labels) {
            if let Some((net, is_val, i, count)) = seen.get_mut(id.as_str()) {
                here.push(Some((*net, *is_val, *i)));
                let (train, val) = &mut out[*net];
                let examples = if *is_val { val } else { train };
                duplicates += 1;
                // A value label outranks rank-only ones (and their repeat
                // counts); labels of one kind are averaged.
                match (examples.valued[*i], valued) {
                    (true, false) => continue,
                    (false, true) => {
                        examples.valued[*i] = true;
                        examples.labels[*i] = *label;
                        examples.repeats[*i] = repeat;
                        *count = 1;
                        continue;
                    }
                    _ => examples.repeats[*i] = examples.repeats[*i].max(repeat),
                }
                let n = *count as f32;
                for (mean, x) in examples.labels[*i].iter_mut().zip(label) {
                    *mean = (*mean * n + x) / (n + 1.0);
                }
                *count += 1;
                continue;
            }
            let pos = Position::from_position_id(id).map_err(|e| FitError::Position(format!("{id}: {e}")))?;
            let Some(kind) = NetKind::of_position(&pos) else {
                here.push(None);
                continue;
            };
            let is_val = is_validation(id, validation);
            if is_val && !valued {
                // Validation measures values, which a rank-only label does not give.
                here.push(None);
                continue;
            }
            kind.encode(&pos, &mut inputs);
            let (train, val) = &mut out[kind.index()];
            let examples = if is_val { val } else { train };
            here.push(Some((kind.index(), is_val, examples.len())));
            seen.insert(id, (kind.index(), is_val, examples.len(), 1));
            examples.push(&inputs, *label, repeat, valued);
        }
        locations.push(here);
    }
    // A rank-only dataset's pairs only where both positions keep its labels:
    // a difference between its label and another file's would carry the
    // level it is not trusted for.
    for (k, here) in locations.iter_mut().enumerate() {
        if !data.rank_only.is_some_and(|r| r[k]) {
            continue;
        }
        for at in here.iter_mut() {
            if let Some((net, is_val, i)) = *at {
                let (train, val) = &out[net];
                if (if is_val { val } else { train }).valued[i] {
                    *at = None;
                }
            }
        }
    }
    Ok((out, duplicates, locations))
}

fn equity(p: &[f32; OUTPUTS]) -> f64 {
    let p = p.map(f64::from);
    2.0 * p[0] - 1.0 + p[1] - p[3] + p[2] - p[4]
}

/// Mean squared error per output and mean |equity error| of `net` on `ex`.
fn errors(net: &Mlp, ex: &Examples) -> (f64, f64) {
    if ex.len() == 0 {
        return (0.0, 0.0);
    }
    let chunk = 1024;
    let parts: Vec<(f64, f64)> = (0..ex.len().div_ceil(chunk))
        .into_par_iter()
        .map_init(
            || (SparseInputs::with_capacity(512), vec![0.0; net.hidden()]),
            |(x, hidden), c| {
                let (mut se, mut ee) = (0.0, 0.0);
                for i in c * chunk..((c + 1) * chunk).min(ex.len()) {
                    ex.load(i, x);
                    let y = net.forward(x, hidden);
                    let t = &ex.labels[i];
                    se += y.iter().zip(t).map(|(a, b)| f64::from(a - b).powi(2)).sum::<f64>();
                    ee += (equity(&y) - equity(t)).abs();
                }
                (se, ee)
            },
        )
        .collect();
    let (se, ee) = parts.iter().fold((0.0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1));
    (se / (ex.len() * OUTPUTS) as f64, ee / ex.len() as f64)
}

/// Adds the gradient of `loss` for example `x` (target `t`) to `grad` and
/// returns its squared error.
fn add_gradient(
    net: &Mlp,
    loss: Loss,
    x: &SparseInputs,
    t: &[f32; OUTPUTS],
    hidden: &mut [f32],
    grad: &mut Mlp,
) -> f64 {
    let y = net.forward(x, hidden);
    let mut delta_out = [0.0f32; OUTPUTS];
    let mut error = 0.0;
    for k in 0..OUTPUTS {
        let d = y[k] - t[k];
        error += f64::from(d * d);
        delta_out[k] = match loss {
            Loss::SquaredError => d * y[k] * (1.0 - y[k]),
            Loss::CrossEntropy => d,
        };
    }
    backprop(net, x, hidden, &delta_out, grad);
    error
}

/// Adds to `grad` the gradient of the loss whose derivatives by the output
/// units' inputs are `delta_out`, for example `x` whose hidden activations
/// (by [`Mlp::forward`]) are `hidden`.
pub(crate) fn backprop(net: &Mlp, x: &SparseInputs, hidden: &[f32], delta_out: &[f32; OUTPUTS], grad: &mut Mlp) {
    let h = net.hidden();
    let w2 = net.w2.as_slice().unwrap_or_default();
    let (gw2, gb2) = (grad.w2.as_slice_mut().unwrap_or_default(), grad.b2.as_slice_mut().unwrap_or_default());
    let mut delta_hidden = vec![0.0f32; h];
    for k in 0..OUTPUTS {
        let dk = delta_out[k];
        gb2[k] += dk;
        let (row, grow) = (&w2[k * h..(k + 1) * h], &mut gw2[k * h..(k + 1) * h]);
        for j in 0..h {
            grow[j] += dk * hidden[j];
            delta_hidden[j] += dk * row[j];
        }
    }
    for j in 0..h {
        delta_hidden[j] *= hidden[j] * (1.0 - hidden[j]);
    }
    let gb1 = grad.b1.as_slice_mut().unwrap_or_default();
    for j in 0..h {
        gb1[j] += delta_hidden[j];
    }
    let gw1 = grad.w1.as_slice_mut().unwrap_or_default();
    for (&i, &v) in x.index.iter().zip(&x.value) {
        let row = &mut gw1[usize::from(i) * h..(usize::from(i) + 1) * h];
        if v == 1.0 {
            for (g, d) in row.iter_mut().zip(&delta_hidden) {
                *g += d;
            }
        } else {
            for (g, d) in row.iter_mut().zip(&delta_hidden) {
                *g += v * d;
            }
        }
    }
}

/// Adam's running moments of every weight's gradient.
struct Adam {
    mean: Mlp,
    square: Mlp,
    steps: i32,
}

impl Adam {
    const BETA1: f32 = 0.9;
    const BETA2: f32 = 0.999;
    const EPSILON: f32 = 1e-8;

    fn new(net: &Mlp) -> Self {
        Adam { mean: net.zeros_like(), square: net.zeros_like(), steps: 0 }
    }

    /// Moves `net` by the mean gradient `grad` at `rate`.
    fn step(&mut self, net: &mut Mlp, grad: &Mlp, rate: f32) {
        self.steps += 1;
        let (b1, b2) = (Self::BETA1, Self::BETA2);
        let size = rate * (1.0 - b2.powi(self.steps)).sqrt() / (1.0 - b1.powi(self.steps));
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= size * *m / (v.sqrt() + Self::EPSILON);
        };
        let grads = params(grad);
        for (((w, g), m), v) in
            params_mut(net).into_iter().zip(grads).zip(params_mut(&mut self.mean)).zip(params_mut(&mut self.square))
        {
            for (((w, &g), m), v) in w.iter_mut().zip(g).zip(m.iter_mut()).zip(v.iter_mut()) {
                update(w, g, m, v);
            }
        }
    }
}

/// The four parameter arrays of `net`, as slices (nets are built in
/// standard layout).
fn params(net: &Mlp) -> [&[f32]; 4] {
    let Mlp { w1, b1, w2, b2 } = net;
    [w1.as_slice(), b1.as_slice(), w2.as_slice(), b2.as_slice()].map(Option::unwrap_or_default)
}

/// [`params`], to change.
fn params_mut(net: &mut Mlp) -> [&mut [f32]; 4] {
    let Mlp { w1, b1, w2, b2 } = net;
    [
        w1.as_slice_mut().unwrap_or_default(),
        b1.as_slice_mut().unwrap_or_default(),
        w2.as_slice_mut().unwrap_or_default(),
        b2.as_slice_mut().unwrap_or_default(),
    ]
}

/// One epoch over `train` in `order`; returns the mean squared error per
/// output seen during it. With a ranking term, each example's pairs
/// ([`Pairs`]) add their gradient to its sub-batch's. With `adam`, its
/// step replaces plain descent.
#[allow(clippy::too_many_arguments)]
fn epoch(
    net: &mut Mlp,
    loss: Loss,
    train: &Examples,
    order: &[usize],
    batch: usize,
    rate: f32,
    pairs: &Pairs,
    mut adam: Option<&mut Adam>,
) -> f64 {
    let mut total = 0.0;
    let sub = batch.div_ceil(SUB_BATCHES).max(1);
    let mut grads: Vec<Mlp> = (0..SUB_BATCHES).map(|_| net.zeros_like()).collect();
    for items in order.chunks(batch) {
        let frozen = &*net;
        let errors: Vec<f64> = grads
            .par_iter_mut()
            .enumerate()
            .map(|(s, grad)| {
                grad.scale(0.0);
                let mut x = SparseInputs::with_capacity(512);
                let mut hidden = vec![0.0; frozen.hidden()];
                let mut scratch = PairScratch::new(frozen.hidden());
                let mut error = 0.0;
                for &i in items.iter().skip(s * sub).take(sub) {
                    train.load(i, &mut x);
                    if train.valued[i] {
                        error += add_gradient(frozen, loss, &x, &train.labels[i], &mut hidden, grad);
                    }
                    pairs.add_gradients(frozen, train, i, &mut scratch, grad);
                }
                error
            })
            .collect();
        total += errors.iter().sum::<f64>();
        match adam.as_deref_mut() {
            None => {
                let step = -rate / items.len() as f32;
                for g in &grads {
                    net.add_scaled(step, g);
                }
            }
            Some(adam) => {
                let (first, rest) = grads.split_at_mut(1);
                let mean = &mut first[0];
                for g in rest.iter() {
                    mean.add_scaled(1.0, g);
                }
                mean.scale(1.0 / items.len() as f32);
                adam.step(net, mean, rate);
            }
        }
    }
    let valued = order.iter().filter(|&&i| train.valued[i]).count();
    total / (valued.max(1) * OUTPUTS) as f64
}

/// Fits `weights` to the labelled positions of `datasets` (see the module
/// documentation); `progress` sees each epoch's row as it ends.
///
/// # Errors
/// Bad settings, no positions, or a stored position that does not decode.
pub fn fit_supervised(
    weights: &mut NetWeights,
    datasets: &[&Dataset],
    settings: &FitSettings,
    progress: impl FnMut(&EpochRow),
) -> Result<FitReport, FitError> {
    fit_supervised_until(weights, datasets, settings, progress, &AtomicBool::new(false))
}

/// [`fit_supervised`], stopping at the end of the epoch in which `stop` is
/// set: each net keeps its best epoch so far, the nets not reached keep
/// their weights, and the report says [`FitReport::stopped`].
///
/// # Errors
/// As [`fit_supervised`].
pub fn fit_supervised_until(
    weights: &mut NetWeights,
    datasets: &[&Dataset],
    settings: &FitSettings,
    progress: impl FnMut(&EpochRow),
    stop: &AtomicBool,
) -> Result<FitReport, FitError> {
    fit(weights, datasets, FitData::default(), settings, progress, stop)
}

/// [`fit_supervised_until`] with a ranking term on sibling differences
/// ([`crate::ranking`]).
///
/// # Errors
/// As [`fit_supervised`], and a ranking that does not fit the datasets.
pub fn fit_supervised_ranked(
    weights: &mut NetWeights,
    datasets: &[&Dataset],
    ranking: &Ranking,
    settings: &FitSettings,
    progress: impl FnMut(&EpochRow),
    stop: &AtomicBool,
) -> Result<FitReport, FitError> {
    fit(weights, datasets, FitData { ranking: Some(ranking), ..FitData::default() }, settings, progress, stop)
}

/// [`fit_supervised_until`] with a ranking term and repeat counts
/// ([`FitData`]).
///
/// # Errors
/// As [`fit_supervised_ranked`], and repeat counts out of range or not one
/// per dataset ([`FitError::Repeats`]).
pub fn fit_supervised_with(
    weights: &mut NetWeights,
    datasets: &[&Dataset],
    data: FitData<'_>,
    settings: &FitSettings,
    progress: impl FnMut(&EpochRow),
    stop: &AtomicBool,
) -> Result<FitReport, FitError> {
    fit(weights, datasets, data, settings, progress, stop)
}

fn fit(
    weights: &mut NetWeights,
    datasets: &[&Dataset],
    data: FitData<'_>,
    settings: &FitSettings,
    mut progress: impl FnMut(&EpochRow),
    stop: &AtomicBool,
) -> Result<FitReport, FitError> {
    settings.validate()?;
    if datasets.iter().all(|d| d.is_empty()) {
        return Err(FitError::Empty);
    }
    if let Some(r) = data.repeats {
        if r.len() != datasets.len() {
            return Err(FitError::Repeats(format!("{} counts for {} datasets", r.len(), datasets.len())));
        }
        if let Some(bad) = r.iter().find(|&&n| n == 0 || n > MAX_REPEAT) {
            return Err(FitError::Repeats(format!("{bad} is not 1 to {MAX_REPEAT}")));
        }
    }
    if let Some(r) = data.rank_only {
        if r.len() != datasets.len() {
            return Err(FitError::Ranking(format!(
                "rank-only marks for {} datasets, the fit has {}",
                r.len(),
                datasets.len()
            )));
        }
        for (k, _) in r.iter().enumerate().filter(|(_, &b)| b) {
            if data.ranking.is_none_or(|g| g.groups.get(k).is_none_or(Option::is_none)) {
                return Err(FitError::Ranking(format!(
                    "dataset {} is rank-only: it needs a ranking term with its groups",
                    k + 1
                )));
            }
        }
    }
    let (sets, duplicates, locations) = split(datasets, &data, settings.validation)?;
    let counts = |kind: NetKind| {
        let (train, val) = &sets[kind.index()];
        format!("the {} net has {} training and {} validation positions", kind.name(), train.len(), val.len())
    };
    let fittable = |kind: NetKind| sets[kind.index()].0.len() > 0 && sets[kind.index()].1.len() > 0;
    match settings.only {
        Some(kind) if !fittable(kind) => return Err(FitError::NothingToFit(counts(kind))),
        None if !NetKind::ALL.into_iter().any(fittable) => {
            return Err(FitError::NothingToFit(NetKind::ALL.map(counts).join(", ")))
        }
        _ => {}
    }
    let pairs = match data.ranking {
        Some(r) => r.pairs(&locations, [0, 1, 2].map(|n| sets[n].0.len()))?,
        None => Default::default(),
    };
    let mut report = FitReport { duplicates, ..FitReport::default() };
    for kind in NetKind::ALL {
        if stop.load(Ordering::Relaxed) {
            report.stopped = true;
            break;
        }
        if settings.only.is_some_and(|only| only != kind) {
            continue;
        }
        let (train, val) = &sets[kind.index()];
        let net = weights.net_mut(kind);
        let before = errors(net, val);
        let mut summary = NetSummary {
            net: kind.name(),
            train: train.len(),
            validation: val.len(),
            validation_mse_before: before.0,
            validation_mse_best: before.0,
            equity_error_before: before.1,
            equity_error_best: before.1,
            best_epoch: 0,
        };
        if train.len() == 0 || val.len() == 0 {
            report.nets.push(summary);
            continue;
        }
        let mut best = net.clone();
        let mut adam = (settings.optimizer == Optimizer::Adam).then(|| Adam::new(net));
        let mut rate = settings.rate;
        let (mut halvings, mut misses) = (0, 0);
        let mut order = train.epoch_order();
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        rng.set_stream(kind.index() as u64);
        for e in 1..=settings.max_epochs {
            for i in (1..order.len()).rev() {
                let j = rng.random_range(0..=i);
                order.swap(i, j);
            }
            let train_mse =
                epoch(net, settings.loss, train, &order, settings.batch, rate, &pairs[kind.index()], adam.as_mut());
            let (mse, equity_error) = errors(net, val);
            let improved = mse < summary.validation_mse_best && net.is_finite();
            let row = EpochRow {
                net: kind.name(),
                epoch: e,
                rate,
                train_mse,
                validation_mse: mse,
                validation_equity_error: equity_error,
                best: improved,
            };
            progress(&row);
            report.epochs.push(row);
            if improved {
                best = net.clone();
                summary.validation_mse_best = mse;
                summary.equity_error_best = equity_error;
                summary.best_epoch = e;
                misses = 0;
            } else if misses + 1 < settings.halve_after {
                misses += 1;
            } else {
                misses = 0;
                *net = best.clone();
                if let Some(adam) = &mut adam {
                    *adam = Adam::new(net);
                }
                halvings += 1;
                if halvings > settings.patience {
                    break;
                }
                rate *= 0.5;
            }
            if stop.load(Ordering::Relaxed) {
                report.stopped = true;
                break;
            }
        }
        *net = best;
        report.nets.push(summary);
    }
    Ok(report)
}

#[cfg(test)]
mod tests;
