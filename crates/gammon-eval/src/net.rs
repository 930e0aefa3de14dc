//! The gammon evaluator: exact values for finished games and bearoffs, a race
//! net for positions without contact, a crashed net for crashed contact
//! positions, a contact net for the rest.

use crate::bearoff_two_sided::bearoff_value;
use crate::evaluator::Evaluator;
use crate::file_format::FileError;
use crate::inputs::{ContactEncoding, Encoding, RaceEncoding, SparseInputs};
use crate::mlp::Mlp;
use crate::probabilities::Probabilities;
use crate::quant::{QuantNet, QuantScratch};
use crate::simd::AlignedFloats;
use crate::weights::{NetKind, NetWeights};
use gammon_rules::{Position, PositionClass};
use std::sync::Arc;

/// The weights shipped in `weights/gammon.net`, embedded in the program.
pub const SHIPPED_WEIGHTS: &[u8] = include_bytes!("../../../weights/gammon.net");

/// What answers for a position of each phase in [`NetEvaluator`], as
/// `gammon eval` and `gammon analyse` print it. Bearoffs are answered by the
/// two-sided database where each side has at most 6 checkers, else by the
/// one-sided one: [`evaluated_by_position`] tells which.
pub const fn evaluated_by(class: PositionClass) -> &'static str {
    match class {
        PositionClass::Finished => "game over (exact)",
        PositionClass::Bearoff => "bearoff database",
        PositionClass::Race => "race net",
        PositionClass::Crashed => "crashed net",
        PositionClass::Contact => "contact net",
    }
}

/// [`evaluated_by`] for a position, naming the bearoff database that
/// answers it.
pub fn evaluated_by_position(pos: &Position) -> &'static str {
    match PositionClass::of(pos) {
        PositionClass::Bearoff if crate::bearoff_two_sided::holds(pos) => "bearoff database (two-sided, exact)",
        PositionClass::Bearoff => "bearoff database (one-sided)",
        class => evaluated_by(class),
    }
}

/// Scratch space for one evaluation at a time.
///
/// One made by [`NetEvaluator::scratch`] also carries that evaluator's
/// quantised nets: [`evaluate_position`] then evaluates those of its nets
/// with their quantised copies. One made by [`Scratch::new`] evaluates
/// exactly with the float nets it is given (the trainer's path).
#[derive(Debug)]
pub struct Scratch {
    inputs: SparseInputs,
    hidden: Vec<f32>,
    fast: Option<Arc<FastNets>>,
    quant: QuantScratch,
    /// A run of [`evaluate_positions`]: its contact positions, encoded
    /// together, ...
    run_contact: Vec<Position>,
    /// ... their inputs (made on first use), ...
    run_inputs: Vec<SparseInputs>,
    /// ... and which position of the run each is and which net values it.
    run_nets: Vec<(usize, NetKind)>,
}

impl Scratch {
    /// Room for any of the nets of `weights`, evaluated in float.
    pub fn new(weights: &NetWeights) -> Self {
        Scratch {
            inputs: SparseInputs::with_capacity(ContactEncoding::LEN.max(RaceEncoding::LEN)),
            hidden: vec![0.0; weights.max_hidden()],
            fast: None,
            quant: QuantScratch::new(),
            run_inputs: Vec::new(),
            run_nets: Vec::new(),
            run_contact: Vec::new(),
        }
    }

    /// The sparse inputs of the last net evaluation.
    pub fn inputs(&self) -> &SparseInputs {
        &self.inputs
    }
}

/// Evaluator built from a contact net, a race net and the bearoff database.
/// It evaluates its nets of [`QUANTISE_FROM`] hidden units or more with
/// quantised copies ([`QuantNet`], built once in [`NetEvaluator::new`]),
/// smaller nets and any net that does not quantise in float.
#[derive(Clone, Debug)]
pub struct NetEvaluator {
    nets: Arc<FastNets>,
    name: String,
}

/// The smallest hidden layer [`NetEvaluator::new`] quantises: below it the
/// float forward pass is faster (`cargo bench -p gammon-benches --bench eval
/// -- forward`, medians of three alternated runs: 128 units float 1.33 M/s,
/// quantised 1.09 M/s; 256 units float 0.59 M/s, quantised 0.87 M/s).
pub const QUANTISE_FROM: usize = 256;

/// Which nets an evaluator evaluates with quantised copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quantise {
    /// Nets of [`QUANTISE_FROM`] hidden units or more (what pays).
    Wide,
    /// Every net that quantises (to measure the quantised nets).
    All,
    /// None: exactly the float nets, as the trainer evaluates them.
    None,
}

/// An evaluator's weights and the quantised copy of each of its nets.
#[derive(Debug)]
struct FastNets {
    weights: NetWeights,
    /// The address of a float net's first-layer weights (inside `weights`,
    /// which nothing changes while this lives) and its quantised copy. A
    /// scratch holding this keeps it alive, so no other net can be at an
    /// address it looks up.
    quantised: Vec<(usize, QuantNet)>,
    /// The same for every net's first layer copied to a 64-byte boundary,
    /// which the float forward pass reads (`simd::AlignedFloats`).
    aligned: Vec<(usize, AlignedFloats)>,
}

impl FastNets {
    fn new(weights: NetWeights, which: Quantise) -> Self {
        // Every net of `weights`; one left out here is evaluated in float.
        let nets = NetKind::ALL.map(|kind| weights.net(kind));
        let wanted = |net: &Mlp| match which {
            Quantise::Wide => net.hidden() >= QUANTISE_FROM,
            Quantise::All => true,
            Quantise::None => false,
        };
        let quantised = nets
            .iter()
            .filter(|net| wanted(net))
            .filter_map(|net| Some((net.w1.as_ptr().addr(), QuantNet::new(net)?)))
            .collect();
        let aligned = nets
            .iter()
            .filter_map(|net| Some((net.w1.as_ptr().addr(), AlignedFloats::from_slice(net.w1.as_slice()?))))
            .collect();
        FastNets { weights, quantised, aligned }
    }

    /// `net`'s first layer on a 64-byte boundary, if `net` is one of these
    /// weights' nets.
    #[inline]
    fn aligned_first_layer(&self, net: &Mlp) -> Option<&[f32]> {
        let at = net.w1.as_ptr().addr();
        self.aligned.iter().find(|(a, _)| *a == at).map(|(_, w1)| w1.as_slice())
    }

    /// The quantised copy of `net`, if `net` is one of these weights' nets
    /// and quantises.
    #[inline]
    fn quantised(&self, net: &Mlp) -> Option<&QuantNet> {
        let at = net.w1.as_ptr().addr();
        self.quantised.iter().find(|(a, _)| *a == at).map(|(_, q)| q)
    }
}

/// Applies what the rules make certain to a net's outputs: no gammon against a
/// side that has borne off a checker, no backgammon where none can happen, and
/// the ordering backgammon <= gammon <= win.
pub fn apply_certainties(pos: &Position, p: Probabilities) -> Probabilities {
    let mut p = p.sanitized();
    let (my_off, his_off) = pos.borne_off();
    if my_off > 0 {
        p.lose_gammon = 0.0;
        p.lose_backgammon = 0.0;
    }
    if his_off > 0 {
        p.win_gammon = 0.0;
        p.win_backgammon = 0.0;
    }
    if !pos.has_contact() {
        // Without contact nobody is hit again: a backgammon needs a checker
        // already in the winner's home board (or on the bar).
        // His bar (slot 0) and my points 1..=6; my points 19..=24 and my bar.
        let his_in_my_home = pos.their_occupied() & 0x7F != 0;
        let mine_in_his_home = pos.my_occupied() & (0x7F << 19) != 0;
        if !his_in_my_home {
            p.win_backgammon = 0.0;
        }
        if !mine_in_his_home {
            p.lose_backgammon = 0.0;
        }
    }
    p
}

impl NetEvaluator {
    /// An evaluator with these weights, quantising what pays ([`Quantise::Wide`]).
    pub fn new(weights: NetWeights) -> Self {
        Self::with_quantisation(weights, Quantise::Wide)
    }

    /// An evaluator with these weights, quantising `which` nets.
    pub fn with_quantisation(weights: NetWeights, which: Quantise) -> Self {
        let name = if weights.meta.notes.is_empty() {
            format!("gammon net ({} games)", weights.meta.games)
        } else {
            weights.meta.notes.clone()
        };
        NetEvaluator { nets: Arc::new(FastNets::new(weights, which)), name }
    }

    /// The shipped weights.
    ///
    /// # Errors
    /// The embedded file does not load (a build problem, tested).
    pub fn shipped() -> Result<Self, FileError> {
        Ok(Self::new(NetWeights::from_bytes(SHIPPED_WEIGHTS)?))
    }

    /// The weights.
    pub fn weights(&self) -> &NetWeights {
        &self.nets.weights
    }

    /// Whether the net whose input weights are `net`'s is evaluated with a
    /// quantised copy (false for a net that is not this evaluator's).
    pub fn is_quantised(&self, net: &Mlp) -> bool {
        self.nets.quantised(net).is_some()
    }

    /// Scratch space suited to this evaluator, carrying its quantised nets.
    pub fn scratch(&self) -> Scratch {
        Scratch { fast: Some(Arc::clone(&self.nets)), ..Scratch::new(&self.nets.weights) }
    }

    /// Evaluates one position and says which part answered.
    pub fn evaluate_with(&self, pos: &Position, scratch: &mut Scratch) -> (Probabilities, PositionClass) {
        evaluate_position(&self.nets.weights, pos, scratch)
    }
}

/// Evaluates `pos` with `weights` (and the bearoff database), saying which
/// part answered. The trainer calls this on weights it is changing.
pub fn evaluate_position(
    weights: &NetWeights,
    pos: &Position,
    scratch: &mut Scratch,
) -> (Probabilities, PositionClass) {
    evaluate_position_by(weights, pos, scratch, CrashedBy::CrashedNet)
}

/// Which of a [`NetWeights`]' nets answers crashed positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CrashedBy {
    /// Its own crashed net (what every evaluator does).
    CrashedNet,
    /// The contact net, as in TD self-play, which trains one net for every
    /// contact position: a crashed net of its own has too few positions to
    /// learn from in self-play (measured: the quick TD run fell from +2.1 to
    /// +0.2 ppg over the untrained net when it had one).
    ContactNet,
}

/// [`evaluate_position`], with `crashed` saying which net answers crashed
/// positions.
pub fn evaluate_position_by(
    weights: &NetWeights,
    pos: &Position,
    scratch: &mut Scratch,
    crashed: CrashedBy,
) -> (Probabilities, PositionClass) {
    let class = PositionClass::of(pos);
    let p = match route(pos, class, crashed) {
        Route::Known(p) => p,
        Route::Net(kind) => {
            kind.encode(pos, &mut scratch.inputs);
            let Scratch { inputs, hidden, fast, quant, .. } = scratch;
            net_value(weights.net(kind), pos, inputs, hidden, fast.as_deref(), quant)
        }
    };
    (p, class)
}

/// Contact positions [`evaluate_positions`] encodes before running the net
/// on them.
const RUN: usize = 32;

/// [`evaluate_position_by`] of each of `positions` into the same place of
/// `out`, with the same values, faster on many contact positions: in runs
/// of `RUN`, the contact positions of a run are encoded together
/// ([`ContactEncoding::encode_many`]: the features of eight at a time in
/// vector lanes), then the net runs on each. On the results of a roll this
/// is about 1.2 times as fast as one position at a time (`cargo bench -p
/// gammon-benches --bench eval -- contact`).
pub fn evaluate_positions(
    weights: &NetWeights,
    positions: &[Position],
    out: &mut [Probabilities],
    scratch: &mut Scratch,
    crashed: CrashedBy,
) {
    for (run, values) in positions.chunks(RUN).zip(out.chunks_mut(RUN)) {
        let Scratch { inputs, hidden, fast, quant, run_inputs, run_nets, run_contact } = scratch;
        if run_inputs.len() < run.len() {
            run_inputs.resize_with(run.len(), || SparseInputs::with_capacity(ContactEncoding::LEN));
        }
        run_nets.clear();
        run_contact.clear();
        // Exact values and races (rare among contact positions' results, and
        // as fast one at a time) now; the contact positions after.
        for (i, (pos, value)) in run.iter().zip(values.iter_mut()).enumerate() {
            match route(pos, PositionClass::of(pos), crashed) {
                Route::Known(p) => *value = p,
                Route::Net(NetKind::Race) => {
                    RaceEncoding::encode(pos, inputs);
                    *value = net_value(&weights.race, pos, inputs, hidden, fast.as_deref(), quant);
                }
                Route::Net(kind) => {
                    run_contact.push(*pos);
                    run_nets.push((i, kind));
                }
            }
        }
        ContactEncoding::encode_many(run_contact, run_inputs);
        for (&(i, kind), x) in run_nets.iter().zip(run_inputs.iter()) {
            if let (Some(pos), Some(value)) = (run.get(i), values.get_mut(i)) {
                *value = net_value(weights.net(kind), pos, x, hidden, fast.as_deref(), quant);
            }
        }
    }
}

/// How a position is valued: exactly (a finished game, the bearoff
/// database) or by one of the nets.
enum Route {
    Known(Probabilities),
    Net(NetKind),
}

fn route(pos: &Position, class: PositionClass, crashed: CrashedBy) -> Route {
    match class {
        PositionClass::Finished => Route::Known(Probabilities::of_finished(pos).unwrap_or_default()),
        // Exact two-sided values where each side has at most 6 checkers left
        // (win exact, no gammons possible), the one-sided race formula beyond.
        PositionClass::Bearoff => bearoff_value(pos).map_or(Route::Net(NetKind::Race), Route::Known),
        PositionClass::Race => Route::Net(NetKind::Race),
        PositionClass::Crashed if crashed == CrashedBy::CrashedNet => Route::Net(NetKind::Crashed),
        PositionClass::Crashed | PositionClass::Contact => Route::Net(NetKind::Contact),
    }
}

/// `net`'s value of `pos` from its inputs `x`: with its quantised copy where
/// `fast` has one and it takes these inputs, otherwise in float.
fn net_value(
    net: &Mlp,
    pos: &Position,
    x: &SparseInputs,
    hidden: &mut [f32],
    fast: Option<&FastNets>,
    quant: &mut QuantScratch,
) -> Probabilities {
    let quick = fast.and_then(|f| f.quantised(net)).and_then(|q| q.forward(x, quant, hidden));
    let out = quick.unwrap_or_else(|| match fast.and_then(|f| f.aligned_first_layer(net)) {
        Some(w1) => net.forward_reading(w1, x, hidden),
        None => net.forward(x, hidden),
    });
    apply_certainties(pos, Probabilities::from_array(out))
}

thread_local! {
    /// Each thread's scratch for [`NetEvaluator`]'s [`Evaluator`] methods,
    /// kept between calls: searches and rollouts call them for a handful
    /// of positions at a time, and a new scratch is four allocations and an
    /// atomic reference count.
    static SCRATCH: std::cell::RefCell<Option<Scratch>> = const { std::cell::RefCell::new(None) };
}

impl NetEvaluator {
    /// Runs `f` with this thread's scratch for this evaluator (made on first
    /// use, and again when another evaluator used it last).
    fn with_scratch<T>(&self, f: impl FnOnce(&mut Scratch) -> T) -> T {
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let mine = slot.as_ref().and_then(|s| s.fast.as_ref()).is_some_and(|f| Arc::ptr_eq(f, &self.nets));
                if !mine {
                    *slot = None;
                }
                f(slot.get_or_insert_with(|| self.scratch()))
            }
            // Called from inside `f` (no caller does today): a scratch of its own.
            Err(_) => f(&mut self.scratch()),
        })
    }
}

impl Evaluator for NetEvaluator {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        self.with_scratch(|scratch| {
            evaluate_positions(&self.nets.weights, positions, out, scratch, CrashedBy::CrashedNet);
        });
    }

    fn evaluate(&self, position: &Position) -> Probabilities {
        self.with_scratch(|scratch| self.evaluate_with(position, scratch).0)
    }

    /// As the trait's: the lowest equity for the opponent, ties to the first.
    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        self.best_move_valued(before, results).0
    }

    fn best_move_valued(&self, _before: &Position, results: &[Position]) -> (usize, Probabilities) {
        self.with_scratch(|scratch| {
            let mut values = [Probabilities::default(); RUN];
            let mut best = (0, Probabilities::default());
            let mut best_equity = f32::INFINITY;
            for (k, run) in results.chunks(RUN).enumerate() {
                let values = &mut values[..run.len()];
                evaluate_positions(&self.nets.weights, run, values, scratch, CrashedBy::CrashedNet);
                for (i, &v) in values.iter().enumerate() {
                    let e = v.equity();
                    if e < best_equity {
                        best_equity = e;
                        best = (k * RUN + i, v);
                    }
                }
            }
            best
        })
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every result of every roll of positions along random games (contact,
    /// crashed, races, bearoffs, finished games), in runs of every length.
    #[test]
    fn many_positions_at_once_get_the_values_of_one_at_a_time() {
        use gammon_rules::{DiceSource, MoveList, RandomDice, ALL_ROLLS};
        let weights = NetEvaluator::shipped().unwrap().weights().clone();
        let (mut dice, mut list) = (RandomDice::new(3, 0), MoveList::new());
        let mut pos = Position::STARTING;
        let mut results = Vec::new();
        for turn in 0..600usize {
            if pos.my_occupied() == 0 || pos.their_occupied() == 0 {
                pos = Position::STARTING;
            }
            let d = ALL_ROLLS[turn % ALL_ROLLS.len()];
            list.generate(&pos, d);
            results.extend_from_slice(list.positions());
            list.generate(&pos, dice.roll());
            let n = list.len();
            pos = if n == 0 { pos.switched() } else { list.positions()[turn * 7919 % n] };
        }
        let mut classes = std::collections::HashSet::new();
        for crashed in [CrashedBy::CrashedNet, CrashedBy::ContactNet] {
            let mut scratch = Scratch::new(&weights);
            let mut out = vec![Probabilities::default(); 80];
            for (k, run) in results.chunks(71).enumerate() {
                let run = &run[..run.len().min(k % 70 + 1)];
                evaluate_positions(&weights, run, &mut out[..run.len()], &mut scratch, crashed);
                for (p, got) in run.iter().zip(&out) {
                    let (want, class) = evaluate_position_by(&weights, p, &mut scratch, crashed);
                    classes.insert(format!("{class:?}"));
                    assert_eq!(
                        got.to_array().map(f32::to_bits),
                        want.to_array().map(f32::to_bits),
                        "{}",
                        p.to_position_id()
                    );
                }
            }
        }
        assert_eq!(classes.len(), 5, "{classes:?}");
    }

    #[test]
    fn shipped_weights_load() {
        let e = NetEvaluator::shipped().unwrap();
        let p = e.evaluate(&Position::STARTING);
        assert!((0.0..=1.0).contains(&p.win));
    }

    #[test]
    fn finished_games_are_exact() {
        let e = NetEvaluator::new(NetWeights::random(8, 8, 1));
        // The opponent has borne off everything, I have all 15: a gammon loss.
        let p = Position::from_position_id("AAAAAAAA/38AAA").unwrap();
        assert_eq!(PositionClass::of(&p), PositionClass::Finished);
        let v = e.evaluate(&p);
        assert_eq!(v.equity(), Probabilities::of_finished(&p).unwrap().equity());
        assert!(v.equity() <= -2.0);
    }

    #[test]
    fn classes() {
        assert_eq!(PositionClass::of(&Position::STARTING), PositionClass::Contact);
        // Both sides home, no contact.
        assert_eq!(PositionClass::of(&Position::from_position_id("AwAAEAEAAAAAAA").unwrap()), PositionClass::Bearoff);
    }

    #[test]
    fn certainties_hold_for_any_net_output() {
        let p = Position::from_position_id("8H0AAEgAAAAAAA").unwrap(); // both sides have borne off
        let v = apply_certainties(&p, Probabilities::from_array([0.5, 0.4, 0.3, 0.2, 0.1]));
        assert_eq!((v.win_gammon, v.lose_gammon, v.win_backgammon, v.lose_backgammon), (0.0, 0.0, 0.0, 0.0));
    }
}
