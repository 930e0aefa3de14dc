//! The table of one play step at the rules' game loop: the human's action
//! until the loop asks for it, the engine's decisions, the events, and the
//! state where the loop stops because the human must act.

use super::{outcome, side, PlayError, PlayEvent, PlayOutcome, ENGINE, HUMAN};
use crate::api::{CubePlayer, Engine, EngineError};
use gammon_eval::Evaluator;
use gammon_rules::{
    opening_roll, play_game, Abandoned, Cube, CubeAnswer, Decision, Dice, DiceSource, DiceState, FirstRoll, Flow,
    GameContext, GameEnd, GameRecord, GameStart, MatchState, Move, MoveList, Position, RandomDice, Seat, Table, Turn,
};

/// Where the human acts: what the request's XGID carries.
#[derive(Debug, Clone, Copy)]
pub(super) struct Spot {
    /// The board seen by `on_roll`.
    pub(super) position: Position,
    /// The human, or the engine while its double is pending.
    pub(super) on_roll: Seat,
    pub(super) cube: Cube,
    pub(super) dice: DiceState,
}

/// The human's action, checked against the state, until the game loop asks
/// for it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Pending {
    Roll,
    Double,
    /// His move, as the position after it (seen by the engine).
    Move(Position),
    Answer(CubeAnswer),
}

/// The table of one request at the game loop: the human's action until the
/// loop asks for it, the engine's decisions, what happened, and where the
/// loop was suspended because the human must act.
pub(super) struct StepTable<'a, E: Evaluator> {
    engine: &'a Engine<E>,
    plies: u8,
    pending: Option<Pending>,
    /// The request's state is the engine's double: the loop asks for it
    /// again, and it stands as decided in the step that made it.
    pub(super) engine_doubled: bool,
    /// The position of the turn in progress, seen by the side on roll.
    at: Position,
    /// The cube of the game in progress.
    cube: Cube,
    events: Vec<PlayEvent>,
    /// Where the human must act: the loop stopped there.
    suspended: Option<Spot>,
    /// Why the step failed.
    error: Option<PlayError>,
}

impl<'a, E: Evaluator> StepTable<'a, E> {
    pub(super) fn new(engine: &'a Engine<E>, plies: u8, pending: Option<Pending>) -> Self {
        StepTable {
            engine,
            plies,
            pending,
            engine_doubled: false,
            at: Position::STARTING,
            cube: Cube::START,
            events: Vec::new(),
            suspended: None,
            error: None,
        }
    }

    /// Plays from `start` until the human must act or the match is over:
    /// game after game through the loop, each scored by the match state and
    /// followed by the next game's opening roll.
    pub(super) fn play_on(
        mut self,
        mut state: MatchState,
        mut start: GameStart,
        rolls: &mut RandomDice,
    ) -> Result<PlayOutcome, PlayError> {
        loop {
            self.cube = start.cube;
            let record = match play_game(&mut self, rolls, &start, &state) {
                Ok(record) => record,
                // Suspended where the human acts, or failed.
                Err(Abandoned) => {
                    if let Some(e) = self.error {
                        return Err(e);
                    }
                    let spot = self.suspended.ok_or_else(|| PlayError::BadState("the game stopped".into()))?;
                    return Ok(outcome(&state, &spot, self.events));
                }
            };
            // No table stop and no game of MAX_TURNS half-moves in one step:
            // every game the loop returns has a winner.
            let (winner, points) =
                record.end.winner().ok_or_else(|| PlayError::BadState("the game reached the turn limit".into()))?;
            self.events.push(PlayEvent::GameOver { winner: side(winner), points });
            if let Some(w) = state.record(winner, points) {
                self.events.push(PlayEvent::MatchOver { winner: side(w) });
                return Ok(outcome(&state, &final_spot(&record, winner), self.events));
            }
            start = self.opening(rolls);
        }
    }

    /// A new game: the rules' opening roll (one die each, the human's
    /// first, ties rolled again) decides who moves first, with both dice.
    pub(super) fn opening(&mut self, rolls: &mut RandomDice) -> GameStart {
        let opening = opening_roll(|| rolls.die()).unwrap_or_else(|_| unreachable!("dice are 1..=6"));
        let starts = if opening.first_player_starts { HUMAN } else { ENGINE };
        self.events.push(PlayEvent::OpeningRoll { starts: side(starts), dice: opening.dice.to_string() });
        GameStart { first_roll: FirstRoll::Given(opening.dice), ..GameStart::opening(starts) }
    }

    /// The human must decide here, with `on_roll` on roll in `position`:
    /// the loop stops, and this is the state of the answer. An action still
    /// pending did not fit the game.
    fn wait<T>(&mut self, position: Position, on_roll: Seat, dice: DiceState) -> Decision<T> {
        if self.pending.is_some() {
            self.error = Some(PlayError::BadState("the action does not fit the game in this state".into()));
        } else {
            self.suspended = Some(Spot { position, on_roll, cube: self.cube, dice });
        }
        Err(Abandoned)
    }

    /// Keeps a failure for [`Self::play_on`] and abandons the game.
    fn fail<T>(&mut self, r: Result<T, EngineError>) -> Decision<T> {
        r.map_err(|e| {
            self.error = Some(e.into());
            Abandoned
        })
    }
}

/// The last state of a match: after the winning move the loser is on roll;
/// after a pass the state of the double stands (the engine's, or the
/// human's before his roll).
fn final_spot(record: &GameRecord, winner: Seat) -> Spot {
    let (on_roll, dice) = match record.end {
        GameEnd::Passed { .. } if winner == ENGINE => (ENGINE, DiceState::Doubled),
        GameEnd::Passed { .. } => (HUMAN, DiceState::ToRoll),
        _ => (winner.other(), DiceState::ToRoll),
    };
    Spot { position: record.position, on_roll, cube: record.cube, dice }
}

impl<E: Evaluator> Table for StepTable<'_, E> {
    fn before_roll(&mut self, _: Seat, pos: &Position, _: u32) -> Decision<Flow> {
        self.at = *pos;
        Ok(Flow::Play)
    }

    /// The human's double from his action; the engine's by its
    /// [`CubePlayer`] at the step's depth.
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        let doubled = Some(PlayEvent::Doubled { by: side(seat), cube: ctx.cube_value.saturating_mul(2) });
        if seat == HUMAN {
            return match self.pending {
                Some(Pending::Double) => {
                    self.pending = None;
                    self.events.extend(doubled);
                    Ok(true)
                }
                Some(Pending::Roll) => Ok(false),
                _ => self.wait(*pos, HUMAN, DiceState::ToRoll),
            };
        }
        if std::mem::take(&mut self.engine_doubled) {
            return Ok(true);
        }
        let offer = CubePlayer::new(self.engine, self.plies).offers_double(pos, ctx);
        let doubles = self.fail(offer)?;
        if doubles {
            self.events.extend(doubled);
        }
        Ok(doubles)
    }

    /// The human's answer from his action; the engine's from its
    /// [`CubePlayer`] (beavers are not played here).
    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
        let answer = if seat == HUMAN {
            let Some(Pending::Answer(answer)) = self.pending else {
                return self.wait(*pos, ENGINE, DiceState::Doubled);
            };
            self.pending = None;
            answer
        } else {
            // Beavers are not played here yet: take or pass.
            let answer = CubePlayer::new(self.engine, self.plies).answers_double(pos, ctx, false);
            self.fail(answer)?
        };
        let by = side(seat);
        self.events.push(if answer == CubeAnswer::Pass { PlayEvent::Passed { by } } else { PlayEvent::Took { by } });
        Ok(answer)
    }

    fn roll(&mut self, seat: Seat, dice: &mut dyn DiceSource) -> Decision<Dice> {
        if seat == HUMAN {
            match self.pending {
                Some(Pending::Roll) => self.pending = None,
                _ => return self.wait(self.at, HUMAN, DiceState::ToRoll),
            }
        }
        let d = dice.roll();
        self.events.push(PlayEvent::Rolled { by: side(seat), dice: d.to_string() });
        Ok(d)
    }

    /// The human's move from his action; the engine's by
    /// [`Engine::choose_move`] at the step's depth.
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize> {
        let after = if seat == HUMAN {
            let Some(Pending::Move(after)) = self.pending else {
                return self.wait(*pos, HUMAN, DiceState::Rolled(dice));
            };
            self.pending = None;
            after
        } else {
            let chosen = self.engine.choose_move(pos, dice, self.plies);
            self.fail(chosen)?.result
        };
        // Results are distinct positions: the one reached names the move.
        match moves.positions().iter().position(|p| *p == after) {
            Some(i) => Ok(i),
            None => {
                self.error = Some(PlayError::BadState("the move is not among the legal moves".into()));
                Err(Abandoned)
            }
        }
    }

    fn cube_changed(&mut self, cube: &Cube) -> Decision<()> {
        self.cube = *cube;
        Ok(())
    }

    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        if turn.seat == HUMAN && matches!(self.pending, Some(Pending::Move(_))) {
            // No legal move: the human's move was the pass.
            self.pending = None;
        }
        let mv = turn.played.and_then(|i| turn.moves.moves().get(i).copied()).unwrap_or(Move::NONE);
        let notation = turn.before.format_move(&mv);
        let position_id = turn.after.to_position_id();
        self.events.push(PlayEvent::Moved { by: side(turn.seat), notation, position_id });
        Ok(())
    }
}
