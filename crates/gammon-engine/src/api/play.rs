//! A game against the engine, one step at a time, with the whole state in
//! the request: the position and its context (an XGID) whenever the human
//! has to act. The server keeps nothing, so any number of games run at once
//! (`POST /api/play`).
//!
//! The state is always one where the human acts: he is on roll (to roll or
//! double, or with his dice rolled, to move), or the engine has doubled
//! (XGID dice `D`, the position seen by the engine) and he must take or
//! pass. [`play_step`] applies his action by the rules (`gammon_rules`:
//! [`MatchState`], [`Cube`]) and then plays the engine's turns until the
//! human must act again or the match is over. Dice come from a
//! [`RandomDice`] stream of the request's seed and step number, so a game
//! replays exactly.
//!
//! Not covered yet: beavers and raccoons (the engine takes instead), the
//! Murphy rule, resignations.

use super::{Engine, EngineError};
use crate::cube::Response;
use gammon_eval::Evaluator;
use gammon_rules::{
    parse_move, Cube, CubeOwner, DiceSource, DiceState, GameContext, MatchRules, MatchState, MoveError, Position,
    RandomDice, Seat,
};
use serde::Serialize;
use thiserror::Error;

/// The human is seat Zero, the engine seat One.
const HUMAN: Seat = Seat::Zero;
const ENGINE: Seat = Seat::One;

/// What the human does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlayAction {
    /// Roll the dice (on roll, before rolling).
    Roll,
    /// Offer a double (on roll, before rolling).
    Double,
    /// Play this move (gnubg notation) with the rolled dice.
    Move(String),
    /// Take the engine's double.
    Take,
    /// Pass (drop) the engine's double.
    Pass,
}

/// Why an action was refused.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum PlayError {
    /// The action does not fit the state (rolling with dice already rolled,
    /// taking when nobody doubled, ...).
    #[error("{0}")]
    NotNow(String),
    /// The move is not legal with these dice (the reason is the source).
    #[error("not a legal move")]
    Move(#[from] MoveError),
    /// The state is not one the rules allow.
    #[error("{0}")]
    BadState(String),
    /// The engine could not decide.
    #[error(transparent)]
    Engine(#[from] EngineError),
}

/// Who did something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The player.
    Human,
    /// gammon.
    Engine,
}

const fn side(seat: Seat) -> Side {
    match seat {
        Seat::Zero => Side::Human,
        Seat::One => Side::Engine,
    }
}

/// One thing that happened in a step.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum PlayEvent {
    /// Who starts a new game, with which dice (one die each).
    OpeningRoll {
        /// The winner of the opening roll, who moves with both dice.
        starts: Side,
        /// The dice, as `31`.
        dice: String,
    },
    /// A roll.
    Rolled {
        /// Who rolled.
        by: Side,
        /// As `31`.
        dice: String,
    },
    /// A move (gnubg notation; empty when no checker could move).
    Moved {
        /// Who moved.
        by: Side,
        /// The move.
        notation: String,
        /// The position after it, seen by the side that moves next.
        position_id: String,
    },
    /// A double.
    Doubled {
        /// Who doubled.
        by: Side,
        /// The cube after a take.
        cube: u32,
    },
    /// A double taken.
    Took {
        /// Who took.
        by: Side,
    },
    /// A double passed: the game ends.
    Passed {
        /// Who passed.
        by: Side,
    },
    /// A game ended.
    GameOver {
        /// Who won it.
        winner: Side,
        /// Points won (cube, gammons, Jacoby).
        points: u32,
    },
    /// The match ended.
    MatchOver {
        /// Who won it.
        winner: Side,
    },
}

/// What the human may do in the state returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HumanTurn {
    /// Roll, or double if the cube allows it.
    RollOrDouble,
    /// Roll only (no double allowed now).
    Roll,
    /// Move with the rolled dice.
    Move,
    /// Take or pass the engine's double.
    AnswerDouble,
    /// Nothing: the match is over.
    MatchOver,
}

/// The answer to a step.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayOutcome {
    /// What happened, in order.
    pub events: Vec<PlayEvent>,
    /// The position where the human acts next, seen by the side on roll in
    /// it (the engine while its double is pending).
    pub position: Position,
    /// Its context.
    pub context: GameContext,
    /// What the human may do now.
    pub turn: HumanTurn,
    /// The score, human first.
    pub score: [u32; 2],
}

/// The match and cube as seats, from a state where the human acts.
struct Table {
    state: MatchState,
    cube: Cube,
    /// The board seen by seat Zero (the human) or seat One.
    position: Position,
    on_roll: Seat,
    dice: DiceState,
}

fn seat_of(owner: CubeOwner, on_roll: Seat) -> Option<Seat> {
    match owner {
        CubeOwner::Centered => None,
        CubeOwner::OnRoll => Some(on_roll),
        CubeOwner::Opponent => Some(on_roll.other()),
    }
}

impl Table {
    fn read(position: &Position, ctx: &GameContext) -> Result<Table, PlayError> {
        ctx.validate().map_err(|e| PlayError::BadState(e.to_string()))?;
        let on_roll = match ctx.dice {
            // The engine doubled: it is on roll in the XGID.
            DiceState::Doubled => ENGINE,
            DiceState::ToRoll | DiceState::Rolled(_) => HUMAN,
            _ => return Err(PlayError::BadState("beavers and raccoons are not played yet".into())),
        };
        let rules = rules_of(ctx);
        let mut score = [0; 2];
        score[on_roll.index()] = ctx.score.0;
        score[on_roll.other().index()] = ctx.score.1;
        let state = MatchState::at_score(rules, score, ctx.is_post_crawford())
            .map_err(|e| PlayError::BadState(e.to_string()))?;
        let cube = Cube { value: ctx.cube_value, owner: seat_of(ctx.cube_owner, on_roll), automatic: 0 };
        Ok(Table { state, cube, position: *position, on_roll, dice: ctx.dice })
    }

    fn context(&self) -> GameContext {
        GameContext { dice: self.dice, ..self.state.context(&self.cube, self.on_roll) }
    }

    fn outcome(&self, events: Vec<PlayEvent>) -> PlayOutcome {
        let turn = if self.state.winner().is_some() {
            HumanTurn::MatchOver
        } else {
            match self.dice {
                DiceState::Doubled => HumanTurn::AnswerDouble,
                DiceState::Rolled(_) => HumanTurn::Move,
                _ if self.state.may_double(&self.cube, HUMAN) => HumanTurn::RollOrDouble,
                _ => HumanTurn::Roll,
            }
        };
        let score = self.state.score();
        PlayOutcome { events, position: self.position, context: self.context(), turn, score }
    }
}

/// Applies the human's `action` to the state (`position`, `context`) and
/// plays the engine's turns at `plies` until the human acts again. `seed`
/// and `step` choose the dice (any step number gives a fresh stream).
///
/// # Errors
/// [`PlayError`] for an action that does not fit the state, an illegal move
/// or a state the rules refuse.
pub fn play_step<E: Evaluator>(
    engine: &Engine<E>,
    position: &Position,
    context: &GameContext,
    action: &PlayAction,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let t = Table::read(position, context)?;
    if t.state.winner().is_some() {
        return Err(PlayError::NotNow("the match is over".into()));
    }
    if position.game_result().is_some() {
        return Err(PlayError::BadState("the game in this position is over".into()));
    }
    let mut g = Step { engine, plies, rolls: RandomDice::new(seed, step), events: Vec::new(), t };
    let not_now = |what: &str| Err(PlayError::NotNow(what.to_string()));
    match (action, g.t.dice) {
        (PlayAction::Roll, DiceState::ToRoll) => {
            let d = g.roll(Side::Human);
            // A roll that cannot be played passes the turn at once.
            if position.legal_moves(d).is_empty() {
                g.play_move(gammon_rules::Move::NONE, position.switched());
            }
        }
        (PlayAction::Double, DiceState::ToRoll) => {
            if !g.t.state.may_double(&g.t.cube, HUMAN) {
                return not_now("you may not double now (the cube or the Crawford rule)");
            }
            g.events.push(PlayEvent::Doubled { by: Side::Human, cube: g.t.cube.value * 2 });
            let analysis = engine.decide_cube(&g.t.position, &g.t.context(), plies)?.analysis;
            if analysis.response() == Some(Response::Pass) {
                g.events.push(PlayEvent::Passed { by: Side::Engine });
                g.end_game(HUMAN, g.t.cube.value);
            } else {
                g.events.push(PlayEvent::Took { by: Side::Engine });
                g.t.cube = g.t.cube.taken(ENGINE);
            }
        }
        (PlayAction::Move(text), DiceState::Rolled(d)) => {
            let (mv, after) = parse_move(&g.t.position, d, text)?;
            g.play_move(mv, after);
        }
        (PlayAction::Take, DiceState::Doubled) => {
            g.events.push(PlayEvent::Took { by: Side::Human });
            g.t.cube = g.t.cube.taken(HUMAN);
            g.t.dice = DiceState::ToRoll;
            g.engine_rolls_and_moves()?;
        }
        (PlayAction::Pass, DiceState::Doubled) => {
            g.events.push(PlayEvent::Passed { by: Side::Human });
            g.end_game(ENGINE, g.t.cube.value);
        }
        (_, DiceState::Doubled) => return not_now("the engine has doubled: take or pass"),
        (_, DiceState::Rolled(_)) => return not_now("your dice are rolled: move"),
        (_, _) => return not_now("you are on roll: roll or double"),
    }
    g.engine_turns()?;
    Ok(g.t.outcome(g.events))
}

/// Starts a match (or a money session) of `context`'s rules at 0-0 (its
/// score, cube and dice are ignored): the opening roll, and the engine's
/// first move if it wins it.
///
/// # Errors
/// [`PlayError`] for rules the match flow refuses.
pub fn new_match<E: Evaluator>(
    engine: &Engine<E>,
    context: &GameContext,
    plies: u8,
    (seed, step): (u64, u64),
) -> Result<PlayOutcome, PlayError> {
    let t = Table {
        state: MatchState::new(rules_of(context)),
        cube: Cube::START,
        position: Position::STARTING,
        on_roll: HUMAN,
        dice: DiceState::ToRoll,
    };
    let mut g = Step { engine, plies, rolls: RandomDice::new(seed, step), events: Vec::new(), t };
    g.start_game();
    g.engine_turns()?;
    Ok(g.t.outcome(g.events))
}

/// The rules of `context`: money play (with its Jacoby rule; beavers are
/// not played yet) or a match of its length.
fn rules_of(context: &GameContext) -> MatchRules {
    if context.match_length == 0 {
        MatchRules { jacoby: context.jacoby, beaver: false, ..MatchRules::money() }
    } else {
        MatchRules::new_match(context.match_length)
    }
}

/// One request's work: the table, the engine that plays seat One, the
/// step's dice and what happened.
struct Step<'a, E: Evaluator> {
    engine: &'a Engine<E>,
    plies: u8,
    rolls: RandomDice,
    events: Vec<PlayEvent>,
    t: Table,
}

impl<E: Evaluator> Step<'_, E> {
    /// The side on roll rolls.
    fn roll(&mut self, by: Side) -> gammon_rules::Dice {
        let d = self.rolls.roll();
        self.events.push(PlayEvent::Rolled { by, dice: d.to_string() });
        self.t.dice = DiceState::Rolled(d);
        d
    }

    /// The side on roll plays `mv`, giving `after` (seen by the other side);
    /// a game it ends is scored and the next one started.
    fn play_move(&mut self, mv: gammon_rules::Move, after: Position) {
        let t = &mut self.t;
        let notation = t.position.format_move(&mv);
        self.events.push(PlayEvent::Moved { by: side(t.on_roll), notation, position_id: after.to_position_id() });
        t.position = after;
        t.on_roll = t.on_roll.other();
        t.dice = DiceState::ToRoll;
        // The position is seen by the side now on roll, which lost if the
        // game is over.
        if let Some((false, result)) = t.position.game_result() {
            let winner = t.on_roll.other();
            let points = t.state.points(result, &t.cube);
            self.end_game(winner, points);
        }
    }

    /// Scores a game won by `winner` and, unless the match is over, starts
    /// the next one.
    fn end_game(&mut self, winner: Seat, points: u32) {
        self.events.push(PlayEvent::GameOver { winner: side(winner), points });
        if let Some(w) = self.t.state.record(winner, points) {
            self.events.push(PlayEvent::MatchOver { winner: side(w) });
            return;
        }
        self.start_game();
    }

    /// A new game: the opening roll decides who moves first, with both dice.
    fn start_game(&mut self) {
        // One die each (the human's first), ties rolled again.
        let rolls = &mut self.rolls;
        let opening = gammon_rules::opening_roll(|| rolls.die()).unwrap_or_else(|_| unreachable!("dice are 1..=6"));
        let starts = if opening.first_player_starts { HUMAN } else { ENGINE };
        self.events.push(PlayEvent::OpeningRoll { starts: side(starts), dice: opening.dice.to_string() });
        let t = &mut self.t;
        t.cube = Cube::START;
        t.position = Position::STARTING;
        t.on_roll = starts;
        t.dice = DiceState::Rolled(opening.dice);
    }

    /// The engine's turns until the human acts: its opening move, its cube
    /// decision, its roll and move.
    fn engine_turns(&mut self) -> Result<(), PlayError> {
        while self.t.state.winner().is_none() && self.t.on_roll == ENGINE {
            if let DiceState::Rolled(_) = self.t.dice {
                // The engine won an opening roll.
                self.engine_moves()?;
                continue;
            }
            if self.t.state.may_double(&self.t.cube, ENGINE) {
                let analysis = self.engine.decide_cube(&self.t.position, &self.t.context(), self.plies)?.analysis;
                if analysis.action.doubles() {
                    self.events.push(PlayEvent::Doubled { by: Side::Engine, cube: self.t.cube.value * 2 });
                    self.t.dice = DiceState::Doubled;
                    return Ok(());
                }
            }
            self.engine_rolls_and_moves()?;
        }
        Ok(())
    }

    fn engine_rolls_and_moves(&mut self) -> Result<(), PlayError> {
        self.roll(Side::Engine);
        self.engine_moves()
    }

    fn engine_moves(&mut self) -> Result<(), PlayError> {
        let DiceState::Rolled(d) = self.t.dice else { return Ok(()) };
        let chosen = self.engine.choose_move(&self.t.position, d, self.plies)?;
        self.play_move(chosen.mv, chosen.result);
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gammon_eval::NetEvaluator;

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    /// The human's move: the engine's own 0-ply choice, in notation.
    fn human_move(engine: &Engine<NetEvaluator>, out: &PlayOutcome) -> PlayAction {
        let DiceState::Rolled(d) = out.context.dice else { panic!("no dice: {out:?}") };
        let chosen = engine.choose_move(&out.position, d, 0).unwrap();
        PlayAction::Move(out.position.format_move(&chosen.mv))
    }

    /// Plays from `position`/`context` with a human who rolls, never
    /// doubles, takes every double and plays the engine's move, until the
    /// match ends or `steps` steps; returns every outcome.
    fn play_out(position: Position, context: GameContext, seed: u64, steps: u64) -> Vec<PlayOutcome> {
        let engine = engine();
        let mut outcomes = Vec::new();
        let (mut pos, mut ctx) = (position, context);
        let mut probe = Table::read(&pos, &ctx).unwrap().outcome(Vec::new());
        for step in 0..steps {
            let action = match probe.turn {
                HumanTurn::MatchOver => break,
                HumanTurn::AnswerDouble => PlayAction::Take,
                HumanTurn::Move => human_move(&engine, &probe),
                HumanTurn::Roll | HumanTurn::RollOrDouble => PlayAction::Roll,
            };
            let out = play_step(&engine, &pos, &ctx, &action, 0, (seed, step)).unwrap();
            (pos, ctx) = (out.position, out.context);
            probe = out.clone();
            outcomes.push(out);
        }
        outcomes
    }

    fn events(outcomes: &[PlayOutcome]) -> Vec<&PlayEvent> {
        outcomes.iter().flat_map(|o| &o.events).collect()
    }

    #[test]
    fn a_three_point_match_is_played_to_its_end_and_replays_for_the_same_seed() {
        let start = GameContext { dice: DiceState::Rolled("31".parse().unwrap()), ..GameContext::new_match(3) };
        let outcomes = play_out(Position::STARTING, start, 11, 2_000);
        let last = outcomes.last().unwrap();
        assert_eq!(last.turn, HumanTurn::MatchOver, "the match ends");
        assert!(last.score[0] >= 3 || last.score[1] >= 3, "{:?}", last.score);
        let all = events(&outcomes);
        let games = all.iter().filter(|e| matches!(e, PlayEvent::GameOver { .. })).count();
        let points: u32 =
            all.iter().map(|e| if let PlayEvent::GameOver { points, .. } = e { *points } else { 0 }).sum();
        assert_eq!(points, last.score[0] + last.score[1], "every point comes from a game");
        assert!(games >= 1);
        assert_eq!(all.iter().filter(|e| matches!(e, PlayEvent::MatchOver { .. })).count(), 1);
        // Each state the human gets is one the rules accept.
        for o in outcomes.iter().filter(|o| o.turn != HumanTurn::MatchOver) {
            assert!(o.context.validate().is_ok(), "{o:?}");
            assert!(o.position.is_consistent());
        }
        // The same seed, the same match.
        let again = play_out(Position::STARTING, start, 11, 2_000);
        assert_eq!(outcomes, again);
    }

    #[test]
    fn a_double_in_a_hopeless_race_is_passed_and_the_next_game_starts() {
        // The human bears off with 2 checkers left against 15 at home.
        let mut mine = [0; 25];
        mine[0] = 2;
        let mut theirs = [0; 25];
        theirs[..4].copy_from_slice(&[5, 4, 3, 3]);
        let race = Position::from_boards(&mine, &theirs).unwrap();
        let engine = engine();
        let out = play_step(&engine, &race, &GameContext::money(), &PlayAction::Double, 0, (1, 0)).unwrap();
        assert_eq!(out.events[0], PlayEvent::Doubled { by: Side::Human, cube: 2 });
        assert_eq!(out.events[1], PlayEvent::Passed { by: Side::Engine });
        assert_eq!(out.events[2], PlayEvent::GameOver { winner: Side::Human, points: 1 });
        assert!(matches!(out.events[3], PlayEvent::OpeningRoll { .. }));
        assert_eq!(out.context.cube_value, 1);
        // Money play keeps no score.
        assert_eq!(out.score, [0, 0]);
        assert!(matches!(out.turn, HumanTurn::Move | HumanTurn::RollOrDouble), "{:?}", out.turn);
    }

    #[test]
    fn actions_that_do_not_fit_the_state_are_refused() {
        let engine = engine();
        let to_roll = GameContext::money();
        let start = Position::STARTING;
        for action in [PlayAction::Take, PlayAction::Pass, PlayAction::Move("8/5 6/5".into())] {
            let err = play_step(&engine, &start, &to_roll, &action, 0, (1, 0)).unwrap_err();
            assert!(matches!(err, PlayError::NotNow(_)), "{action:?}: {err}");
        }
        let rolled = GameContext { dice: DiceState::Rolled("31".parse().unwrap()), ..to_roll };
        let err = play_step(&engine, &start, &rolled, &PlayAction::Move("8/3".into()), 0, (1, 0)).unwrap_err();
        assert!(matches!(err, PlayError::Move(_)), "{err}");
        assert!(matches!(play_step(&engine, &start, &rolled, &PlayAction::Roll, 0, (1, 0)), Err(PlayError::NotNow(_))));
        // The Crawford game: nobody doubles.
        let crawford = GameContext { score: (4, 2), crawford: true, ..GameContext::new_match(5) };
        let err = play_step(&engine, &start, &crawford, &PlayAction::Double, 0, (1, 0)).unwrap_err();
        assert!(err.to_string().contains("may not double"), "{err}");
    }

    #[test]
    fn a_roll_with_no_legal_move_passes_to_the_engine() {
        // The human is on the bar against a closed board.
        let closed = Position::from_position_id("27YBAAA8Dz4ADA").unwrap();
        let engine = engine();
        let mut seen_dance = false;
        for step in 0..20 {
            let out = play_step(&engine, &closed, &GameContext::money(), &PlayAction::Roll, 0, (3, step)).unwrap();
            if let Some(PlayEvent::Moved { by: Side::Human, notation, .. }) = out.events.get(1) {
                assert!(notation.is_empty() || !notation.contains('/'), "{notation}");
                assert!(matches!(
                    out.events.get(2),
                    Some(PlayEvent::Rolled { by: Side::Engine, .. })
                        | Some(PlayEvent::Doubled { by: Side::Engine, .. })
                ));
                seen_dance = true;
            } else {
                assert_eq!(out.turn, HumanTurn::Move, "{out:?}");
            }
        }
        assert!(seen_dance, "20 rolls include a dance against a closed board");
    }
}
