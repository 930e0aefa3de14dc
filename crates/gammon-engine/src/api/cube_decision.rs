//! A cube question in a match context, checked, and the engine's decision.

use super::EngineError;
use crate::cube::{CubeAnalysis, CubeState};
use crate::met::Met;
use gammon_eval::PositionClass;
use gammon_rules::{BeaverAnswer, CubeAnswer, DiceState, GameContext, Position, RaccoonAnswer};

/// A cube question the engine can answer: a position whose game is on, in
/// a game context that follows the rules and that the match equity table
/// covers. The decision is the one before the roll: dice in the context are
/// set aside, and with a double (beaver, raccoon) pending it is the
/// doubler's decision; [`notes`](Self::notes) say so.
#[derive(Debug, Clone, PartialEq)]
pub struct CubeQuestion {
    position: Position,
    context: GameContext,
    state: CubeState,
    notes: Vec<String>,
}

impl CubeQuestion {
    /// Checks the question before any evaluation.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] for a finished game, [`EngineError::Cube`]
    /// for a context that breaks the rules or a match longer than `met`
    /// covers.
    pub fn new(position: Position, context: GameContext, met: &Met) -> Result<Self, EngineError> {
        if position.game_result().is_some() {
            return Err(EngineError::GameOver);
        }
        let mut notes = Vec::new();
        match context.dice {
            DiceState::ToRoll => {}
            DiceState::Rolled(d) => {
                notes.push(format!("the dice ({d}) are ignored: the cube decision comes before the roll"));
            }
            DiceState::Doubled => {
                notes.push("X has doubled: the analysis shows whether that was right and O's answer".into());
            }
            DiceState::Beavered | DiceState::Raccooned => notes.push(
                "a beaver (or raccoon) is pending: the analysis is of X's original double; see the beaver and raccoon equities"
                    .into(),
            ),
        }
        let context = GameContext { dice: DiceState::ToRoll, ..context };
        let state = CubeState::from_context(&context, met)?;
        Ok(CubeQuestion { position, context, state, notes })
    }

    /// The position, player on roll before rolling.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The game context, before the roll.
    pub fn context(&self) -> &GameContext {
        &self.context
    }

    /// The cube and stakes of the context.
    pub fn state(&self) -> &CubeState {
        &self.state
    }

    /// What of the context the decision sets aside, for people.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
}

/// The cube decision of the player on roll, from
/// [`Engine::decide_cube`](super::Engine::decide_cube).
#[derive(Debug, Clone, PartialEq)]
pub struct CubeReport {
    /// The position, player on roll before rolling.
    pub position: Position,
    /// The game context, before the roll.
    pub context: GameContext,
    /// The depth of the cubeful search, counted as gnubg counts (0 = the
    /// static evaluation fed to Janowski's model).
    pub plies: u8,
    /// Which part of the evaluator answers for the position.
    pub class: PositionClass,
    /// The equities, the verdict and the take point.
    pub analysis: CubeAnalysis,
    /// The question's notes; callers may add their own.
    pub notes: Vec<String>,
    /// The match equity table's name.
    pub met: String,
}

/// The correct answer to a pending cube action, from the doubler's analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PendingAnswer {
    /// To a double (`D`): take, pass or beaver.
    Double(CubeAnswer),
    /// To a beaver (`B`), by the doubler. A raccoon is never proposed.
    Beaver(BeaverAnswer),
    /// To a raccoon (`R`), by the beaverer.
    Raccoon(RaccoonAnswer),
}

/// The answer to the cube action `pending` (`D`, `B`, `R`; `None` for the
/// other dice states), from `analysis`, the doubler's decision with the
/// doubler on roll (equities normalised to the cube before the double):
///
/// - `D`: O takes when double/take is worth no more to X than
///   double/pass; he beavers instead (money play, beavers allowed) when X is
///   the underdog after the take (double/take < 0).
/// - `B`: X accepts the cube at four times (worth `2 * double_take` to him)
///   unless passing, which loses twice the cube, is better: accept when
///   `double_take >= -1`.
/// - `R`: O accepts the eight-times cube (worth `4 * double_take` to X)
///   unless passing (X wins four times the cube) is better: accept when
///   `double_take <= 1`.
pub fn pending_answer(analysis: &CubeAnalysis, pending: DiceState) -> Option<PendingAnswer> {
    let a = analysis;
    match pending {
        DiceState::ToRoll | DiceState::Rolled(_) => None,
        DiceState::Doubled => Some(PendingAnswer::Double(if a.beaver_equity().is_some() && a.double_take < 0.0 {
            CubeAnswer::Beaver
        } else if a.double_take <= a.double_pass {
            CubeAnswer::Take
        } else {
            CubeAnswer::Pass
        })),
        DiceState::Beavered => {
            Some(PendingAnswer::Beaver(if a.double_take >= -1.0 { BeaverAnswer::Accept } else { BeaverAnswer::Pass }))
        }
        DiceState::Raccooned => {
            Some(PendingAnswer::Raccoon(if a.double_take <= 1.0 { RaccoonAnswer::Accept } else { RaccoonAnswer::Pass }))
        }
    }
}
