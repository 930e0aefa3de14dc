//! The gammon evaluator: exact values for finished games and bearoffs, a race
//! net for positions without contact, a crashed net for crashed contact
//! positions, a contact net for the rest.

use crate::bearoff2::bearoff_value;
use crate::evaluator::Evaluator;
use crate::file_format::FileError;
use crate::inputs::{ContactEncoding, Encoding, RaceEncoding, SparseInputs};
use crate::mlp::Mlp;
use crate::probabilities::Probabilities;
use crate::weights::NetWeights;
use gammon_rules::{Position, PositionClass};

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
        PositionClass::Bearoff if crate::bearoff2::holds(pos) => "bearoff database (two-sided, exact)",
        PositionClass::Bearoff => "bearoff database (one-sided)",
        class => evaluated_by(class),
    }
}

/// Scratch space for one evaluation at a time.
#[derive(Debug)]
pub struct Scratch {
    inputs: SparseInputs,
    hidden: Vec<f32>,
}

impl Scratch {
    /// Room for any of the nets of `weights`.
    pub fn new(weights: &NetWeights) -> Self {
        Scratch {
            inputs: SparseInputs::with_capacity(ContactEncoding::LEN.max(RaceEncoding::LEN)),
            hidden: vec![0.0; weights.max_hidden()],
        }
    }

    /// The sparse inputs of the last net evaluation.
    pub fn inputs(&self) -> &SparseInputs {
        &self.inputs
    }
}

/// Evaluator built from a contact net, a race net and the bearoff database.
#[derive(Clone, Debug)]
pub struct NetEvaluator {
    weights: NetWeights,
    name: String,
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
    /// An evaluator with these weights.
    pub fn new(weights: NetWeights) -> Self {
        let name = if weights.meta.notes.is_empty() {
            format!("gammon net ({} games)", weights.meta.games)
        } else {
            weights.meta.notes.clone()
        };
        NetEvaluator { weights, name }
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
        &self.weights
    }

    /// Scratch space suited to this evaluator.
    pub fn scratch(&self) -> Scratch {
        Scratch::new(&self.weights)
    }

    /// Evaluates one position and says which part answered.
    pub fn evaluate_with(&self, pos: &Position, scratch: &mut Scratch) -> (Probabilities, PositionClass) {
        evaluate_position(&self.weights, pos, scratch)
    }
}

/// Evaluates `pos` with `weights` (and the bearoff database), saying which
/// part answered. The trainer calls this on weights it is changing.
pub fn evaluate_position(
    weights: &NetWeights,
    pos: &Position,
    scratch: &mut Scratch,
) -> (Probabilities, PositionClass) {
    let class = PositionClass::of(pos);
    let p = match class {
        PositionClass::Finished => Probabilities::of_finished(pos).unwrap_or_default(),
        // Exact two-sided values where each side has at most 6 checkers left
        // (win exact, no gammons possible), the one-sided race formula beyond.
        PositionClass::Bearoff => match bearoff_value(pos) {
            Some(p) => p,
            None => net_value::<RaceEncoding>(&weights.race, pos, scratch),
        },
        PositionClass::Race => net_value::<RaceEncoding>(&weights.race, pos, scratch),
        PositionClass::Crashed => net_value::<ContactEncoding>(&weights.crashed, pos, scratch),
        PositionClass::Contact => net_value::<ContactEncoding>(&weights.contact, pos, scratch),
    };
    (p, class)
}

fn net_value<E: Encoding>(net: &Mlp, pos: &Position, scratch: &mut Scratch) -> Probabilities {
    E::encode(pos, &mut scratch.inputs);
    let out = net.forward(&scratch.inputs, &mut scratch.hidden);
    apply_certainties(pos, Probabilities::from_array(out))
}

impl Evaluator for NetEvaluator {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        let mut scratch = self.scratch();
        for (p, o) in positions.iter().zip(out.iter_mut()) {
            *o = self.evaluate_with(p, &mut scratch).0;
        }
    }

    fn name(&self) -> String {
        self.name.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
