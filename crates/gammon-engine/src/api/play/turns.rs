//! One step over the rules' [`Game`]: the human's action, then the
//! engine's decisions and the next games' opening rolls until the human is
//! asked again, each applied by the rules and told as an event.

use super::{engine_cannot_win, outcome, side, PlayAction, PlayError, PlayEvent, PlayOutcome, ENGINE, HUMAN};
use crate::api::{CubePlayer, CubeUse, Engine};
use gammon_eval::Evaluator;
use gammon_rules::{
    parse_move, Action, BeaverAnswer, Cube, CubeAnswer, Dice, DiceError, DiceSource, Game, GameResult, MatchState,
    Move, Need, Position, RaccoonAnswer, RandomDice, Seat,
};

/// A step in progress.
pub(super) struct Step<'a, E: Evaluator> {
    engine: &'a Engine<E>,
    plies: u8,
    rolls: RandomDice,
    game: Game,
    events: Vec<PlayEvent>,
}

/// The opening roll of a new game of `state` from `rolls` (one die each,
/// the human's first; ties rolled again, each turning the cube where
/// Murphy's rule has it): who starts, with which dice, and the cube.
pub(super) fn opening(state: &MatchState, rolls: &mut RandomDice, events: &mut Vec<PlayEvent>) -> (Seat, Dice, Cube) {
    let mut cube = Cube::START;
    let opening = state
        .opening_roll(
            &mut cube,
            || Ok::<_, DiceError>((rolls.die(), rolls.die())),
            |die, turned| {
                if let Some(c) = turned {
                    events.push(PlayEvent::AutomaticDouble { dice: format!("{die}{die}"), cube: c.value });
                }
                Ok(())
            },
        )
        .unwrap_or_else(|_| unreachable!("dice are 1..=6"));
    let first = if opening.first_player_starts { HUMAN } else { ENGINE };
    events.push(PlayEvent::OpeningRoll { starts: side(first), dice: opening.dice.to_string() });
    (first, opening.dice, cube)
}

/// Who acts on `need`, if anyone.
const fn actor(need: Need) -> Option<Seat> {
    match need {
        Need::RollOrDouble { seat, .. }
        | Need::AnswerDouble { seat, .. }
        | Need::AnswerBeaver { seat, .. }
        | Need::AnswerRaccoon { seat }
        | Need::Move { seat, .. }
        | Need::AnswerResignation { seat, .. } => Some(seat),
        Need::GameOver(_) | Need::MatchOver { .. } => None,
    }
}

impl<'a, E: Evaluator> Step<'a, E> {
    pub(super) fn new(engine: &'a Engine<E>, plies: u8, rolls: RandomDice, game: Game) -> Self {
        Self::with_events(engine, plies, rolls, game, Vec::new())
    }

    pub(super) fn with_events(
        engine: &'a Engine<E>,
        plies: u8,
        rolls: RandomDice,
        game: Game,
        events: Vec<PlayEvent>,
    ) -> Self {
        Step { engine, plies, rolls, game, events }
    }

    /// The human's action, applied by the rules (the state must be one
    /// where he acts).
    pub(super) fn human(&mut self, action: &PlayAction) -> Result<(), PlayError> {
        let action = match action {
            PlayAction::Roll => Action::Roll(self.rolls.roll()),
            PlayAction::Double => Action::Double,
            PlayAction::Take => Action::Take,
            PlayAction::Pass => Action::Pass,
            PlayAction::Beaver => Action::Beaver,
            PlayAction::Raccoon => Action::Raccoon,
            PlayAction::Resign(r) => Action::Resign(*r),
            PlayAction::AcceptResignation => Action::AcceptResignation,
            PlayAction::RejectResignation => Action::RejectResignation,
            PlayAction::Move(text) => match self.game.next() {
                Need::Move { dice, .. } => {
                    let (mv, after) = parse_move(self.game.position(), dice, text)?;
                    return self.play(HUMAN, mv, after);
                }
                // No dice rolled: the rules refuse any move, naming what
                // they wait for.
                _ => Action::Move(*self.game.position()),
            },
        };
        self.apply(HUMAN, action)
    }

    /// Plays until the human is asked again or the match is over.
    pub(super) fn play_on(mut self) -> Result<PlayOutcome, PlayError> {
        loop {
            let need = self.game.next();
            match (need, actor(need)) {
                (Need::GameOver(_), _) => self.new_game()?,
                (Need::Move { seat, dice }, Some(_)) if self.game.position().legal_moves(dice).is_empty() => {
                    let pass = self.game.position().switched();
                    self.play(seat, Move::NONE, pass)?;
                }
                (_, Some(ENGINE)) => self.engine_acts(need)?,
                _ => {
                    return outcome(self.game, self.events)
                        .ok_or_else(|| PlayError::BadState("the game stopped where nobody acts".into()));
                }
            }
        }
    }

    /// The next game of the match, after the opening roll.
    fn new_game(&mut self) -> Result<(), PlayError> {
        let (first, dice, cube) = opening(self.game.match_state(), &mut self.rolls, &mut self.events);
        self.game.apply(Action::NewGame { first, dice, cube })?;
        Ok(())
    }

    /// The engine's decision on `need`, by its cube player, its search and
    /// its answer to a resignation.
    fn engine_acts(&mut self, need: Need) -> Result<(), PlayError> {
        let (pos, ctx) = (*self.game.position(), self.game.context());
        let cube = CubePlayer::new(self.engine, self.plies);
        let action = match need {
            Need::RollOrDouble { may_double, .. } => {
                // An offer refused by the rules (not above the one the
                // human rejected this turn) is not made again.
                if engine_cannot_win(self.engine, &pos)
                    && self.apply(ENGINE, Action::Resign(GameResult::Single)).is_ok()
                {
                    return Ok(());
                }
                if may_double && cube.offers_double(&pos, &ctx)? {
                    Action::Double
                } else {
                    Action::Roll(self.rolls.roll())
                }
            }
            Need::AnswerDouble { may_beaver, .. } => match cube.answers_double(&pos, &ctx, may_beaver)? {
                CubeAnswer::Take => Action::Take,
                CubeAnswer::Pass => Action::Pass,
                CubeAnswer::Beaver => Action::Beaver,
            },
            Need::AnswerBeaver { may_raccoon, .. } => match cube.answers_beaver(&pos, &ctx, may_raccoon)? {
                BeaverAnswer::Accept => Action::Take,
                BeaverAnswer::Pass => Action::Pass,
                BeaverAnswer::Raccoon => Action::Raccoon,
            },
            Need::AnswerRaccoon { .. } => match cube.answers_raccoon(&pos, &ctx)? {
                RaccoonAnswer::Accept => Action::Take,
                RaccoonAnswer::Pass => Action::Pass,
            },
            Need::Move { dice, .. } => {
                let chosen = self.engine.choose_move(&pos, dice, self.plies)?;
                return self.play(ENGINE, chosen.mv, chosen.result);
            }
            Need::AnswerResignation { offered, .. } => {
                let cube_use = if self.game.match_state().rules().cube { CubeUse::Cubeful } else { CubeUse::Cubeless };
                let answer = self.engine.answers_resignation(&pos, &ctx, offered, self.plies, cube_use)?;
                if answer.accept {
                    Action::AcceptResignation
                } else {
                    Action::RejectResignation
                }
            }
            Need::GameOver(_) | Need::MatchOver { .. } => return Ok(()),
        };
        self.apply(ENGINE, action)
    }

    /// `seat`'s move `mv` to `after`, applied by the rules.
    fn play(&mut self, seat: Seat, mv: Move, after: Position) -> Result<(), PlayError> {
        let notation = self.game.position().format_move(&mv);
        self.game.apply(Action::Move(after))?;
        self.events.push(PlayEvent::Moved { by: side(seat), notation, position_id: after.to_position_id() });
        self.ended();
        Ok(())
    }

    /// `seat`'s `action`, applied by the rules and told.
    fn apply(&mut self, seat: Seat, action: Action) -> Result<(), PlayError> {
        let cube = self.game.cube().value;
        self.game.apply(action)?;
        let by = side(seat);
        self.events.push(match action {
            Action::Roll(d) => PlayEvent::Rolled { by, dice: d.to_string() },
            Action::Double => PlayEvent::Doubled { by, cube: cube.saturating_mul(2) },
            Action::Take => PlayEvent::Took { by },
            Action::Pass => PlayEvent::Passed { by },
            Action::Beaver => PlayEvent::Beavered { by, cube: cube.saturating_mul(4) },
            Action::Raccoon => PlayEvent::Raccooned { by, cube: cube.saturating_mul(8) },
            Action::Resign(r) => PlayEvent::Resigned { by, result: r.into() },
            Action::AcceptResignation => PlayEvent::ResignationAccepted { by },
            Action::RejectResignation => PlayEvent::ResignationRejected { by },
            // Moves and new games are told by `play` and `opening`.
            Action::Move(_) | Action::NewGame { .. } => return Ok(()),
        });
        self.ended();
        Ok(())
    }

    /// Tells the end of the game, and of the match, once the game is over.
    fn ended(&mut self) {
        let Some((winner, points)) = self.game.end().and_then(|end| end.winner()) else { return };
        self.events.push(PlayEvent::GameOver { winner: side(winner), points });
        if let Some(w) = self.game.match_state().winner() {
            self.events.push(PlayEvent::MatchOver { winner: side(w) });
        }
    }
}
