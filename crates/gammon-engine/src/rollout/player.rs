//! The trial player: both sides' move choice (0, 1 or 2 ply), the cube of
//! cubeful trials (money, or a match at its score), and the luck of every
//! roll (variance reduction).

use super::dice::{roll_index, TrialDice};
use super::stats::{equity_of, five, invert, invert_difference, Sample};
use super::{RolloutError, RolloutSettings, Starts, TrialCube, MAX_TURNS};
use crate::cube::{
    cube_efficiency, cubeless_mwc, decide_for, rank_results_cubeful, CubeError, CubeState, Response, Stakes,
};
use crate::met::Met;
use crate::search::Search;
use gammon_eval::bearoff_two_sided::{self, bearoff_value};
use gammon_eval::{choose_move, Evaluator, Probabilities};
use gammon_rules::{
    play_game, Abandoned, CubeOwner, Decision, Dice, DiceSource, Flow, GameStart, MatchRules, MatchState, MoveList,
    Position, RandomDice, Seat, Table, Turn, ALL_ROLLS,
};

/// The cube of a cubeful trial: money play (no Jacoby rule, no beavers) or
/// a match at its score.
#[derive(Debug, Clone, Copy)]
struct Cube {
    /// The cube and the stakes, seen by the side on roll.
    state: CubeState,
    /// The cubeful result once a double was passed, for the root (see
    /// [`mover_value`]).
    settled: Option<f64>,
}

impl Cube {
    /// What the side on roll chooses his move for: his cube, and whether
    /// the trial still plays it (not after a passed double).
    fn chooser(&self, player: &Player<'_>) -> (&CubeState, bool) {
        (&self.state, player.doubling() && self.settled.is_none())
    }
}

/// The cubeful value of a position for its side on roll with the cube in
/// `state`, in the units a trial sums: in money play points,
/// `cube × max(no double, min(double/take, +1))`; in a match `2 × MWC − 1`,
/// which like points changes sign with the side. `live`: the cube is
/// played; without, a match is played out for the cube as it is (cubeless
/// match winning chances). `double_now`: the side on roll may double before
/// this roll (not at the start of a cube decision's no-double line, whose
/// value is then the no-double one). A finished game is worth its result.
fn mover_value(
    pos: &Position,
    p: &Probabilities,
    state: &CubeState,
    met: &Met,
    (live, double_now): (bool, bool),
) -> Result<f64, CubeError> {
    let cube = f64::from(state.cube);
    let finished = pos.game_result().is_some();
    if let Stakes::Money { jacoby, .. } = state.stakes {
        if finished {
            // The Jacoby rule: gammons count single until the cube is turned.
            if jacoby && state.owner == CubeOwner::Centered {
                return Ok(cube * (2.0 * f64::from(p.win) - 1.0));
            }
            return Ok(cube * equity_of(&five(p)));
        }
        let d = decide_for(pos, p, cube_efficiency(pos), state, met)?;
        return Ok(cube * if double_now { d.best() } else { d.no_double });
    }
    let mwc = if live && !finished {
        let d = decide_for(pos, p, cube_efficiency(pos), state, met)?;
        if double_now {
            d.best_mwc()
        } else {
            d.match_chances.map(|m| m.no_double)
        }
    } else {
        cubeless_mwc(p, state, met)?
    };
    Ok(2.0 * mwc.unwrap_or(0.5) - 1.0)
}

/// The value of a passed double for the doubler, in [`mover_value`]'s
/// units: the cube's points, or the match winning chances they give him.
fn pass_value(state: &CubeState, met: &Met) -> f64 {
    match state.stakes {
        Stakes::Money { .. } => f64::from(state.cube),
        Stakes::Match { away, crawford, .. } => 2.0 * met.mwc_after(away, crawford, state.cube, true) - 1.0,
    }
}

/// Buffers of one worker.
#[derive(Debug)]
pub(super) struct Work {
    list: MoveList,
    chosen: [Position; 21],
    values: [Probabilities; 21],
    /// The values of a roll's moves, when a match player compares them.
    scratch: Vec<Probabilities>,
}

impl Work {
    pub(super) fn new() -> Self {
        Work {
            list: MoveList::new(),
            chosen: [Position::STARTING; 21],
            values: [Probabilities::default(); 21],
            scratch: Vec::new(),
        }
    }
}

/// Both players of a rollout's trials and their dice.
pub(super) struct Player<'a> {
    evaluator: &'a dyn Evaluator,
    /// The chequer play's lookahead from 1 ply on, at the rollout's ply
    /// (`None` at 0 ply).
    search: Option<Search<&'a dyn Evaluator>>,
    settings: RolloutSettings,
    dice: TrialDice,
    /// The cube at the start of each line's trials, seen by the side on
    /// roll there, and whether he may double before his first roll (not in
    /// the no-double line of a cube decision).
    lines: Vec<(CubeState, bool)>,
    /// Trials carry a cube value: money cubeful, or any match.
    tracks_cube: bool,
    met: &'a Met,
}

impl<'a> Player<'a> {
    /// The players of trials from `starts` with the cube of `cube` (seen
    /// by the player on roll before the starts: for moves, the mover).
    pub(super) fn new(
        evaluator: &'a dyn Evaluator,
        settings: &RolloutSettings,
        cube: &TrialCube,
        starts: &Starts<'_>,
        met: &'a Met,
    ) -> Self {
        let state = match cube {
            TrialCube::Money => CubeState::money(1, CubeOwner::Centered, false, false),
            TrialCube::Cube(state) => *state,
        };
        let lines = match starts {
            Starts::Position(_) => vec![(state, true)],
            // Each candidate's trials start with the opponent on roll.
            Starts::Moves(c) => vec![(state.switched(), true); c.len()],
            Starts::CubeDecision(_) => vec![(state, false), (state.doubled(), true)],
        };
        Player {
            evaluator,
            search: (settings.ply > 0).then(|| Search::new(evaluator).with_plies(settings.ply)),
            settings: *settings,
            dice: TrialDice::new(settings.seed, settings.quasi_random),
            lines,
            tracks_cube: cube.headline_cubeful(settings),
            met,
        }
    }

    /// The trials are ranked by their cubeful value.
    pub(super) fn headline_cubeful(&self) -> bool {
        self.tracks_cube
    }

    /// The side on roll may double in this rollout's trials.
    fn doubling(&self) -> bool {
        self.settings.cubeful
    }

    pub(super) fn settings(&self) -> &RolloutSettings {
        &self.settings
    }

    /// The exact value of a finished game or (with `bearoff_exact`) a
    /// bearoff, for the side on roll.
    fn exact(&self, pos: &Position) -> Option<Probabilities> {
        Probabilities::of_finished(pos).or_else(|| if self.settings.bearoff_exact { bearoff_value(pos) } else { None })
    }

    /// Whether a mover whose cube is `state` chooses by cubeless equity
    /// (money play without a live cube: the evaluator's own choice) rather
    /// than by [`Self::value_after`].
    fn cubeless_money(state: &CubeState, live: bool) -> bool {
        state.is_money() && !live
    }

    /// The mover's value of `result` (seen by the next player, whose
    /// cubeless chances there are `p`), the mover's cube being `state`, in
    /// [`mover_value`]'s units: with a `live` cube the cubeful value, the
    /// next player doubling or not as the cube model says (gnubg's cubeful
    /// chequer play); without, the cubeless match winning chances at the
    /// score and cube. Never above a finished game's result.
    fn value_after(&self, result: &Position, p: &Probabilities, state: &CubeState, live: bool) -> f64 {
        mover_value(result, &p.sanitized(), &state.switched(), self.met, (live, true)).map_or(f64::NEG_INFINITY, |v| -v)
    }

    /// The position after the 0-ply best move (seen by the next player) and
    /// its value for its side on roll (exact where [`Self::exact`] knows), from
    /// the evaluation that chose it. The mover's cube is `state`, `live`
    /// when the trial plays it: in money play without a live cube the best
    /// move is the evaluator's (by cubeless equity); otherwise the one with
    /// the best [`Self::value_after`]: cubeful, or the cubeless match
    /// winning chances at the score, where gammons are worth what the table
    /// says.
    fn play0_valued(
        &self,
        (list, scratch): (&mut MoveList, &mut Vec<Probabilities>),
        pos: &Position,
        dice: Dice,
        (state, live): (&CubeState, bool),
    ) -> (Position, Probabilities) {
        list.generate(pos, dice);
        let (after, value) = match list.positions() {
            [] => (pos.switched(), None),
            [only] => (*only, None),
            results => {
                let (i, v) = if Self::cubeless_money(state, live) {
                    self.evaluator.best_move_valued(pos, results)
                } else {
                    self.best_for_the_cube(results, (state, live), scratch)
                };
                // An evaluator answering out of range plays the first move.
                results.get(i).map_or((results[0], None), |&r| (r, Some(v)))
            }
        };
        let value = self.exact(&after).or(value).unwrap_or_else(|| self.evaluator.evaluate(&after));
        (after, value)
    }

    /// The index of the result with the mover's best [`Self::value_after`]
    /// at 0 ply, and its value for the next player; the first of equals.
    fn best_for_the_cube(
        &self,
        results: &[Position],
        (state, live): (&CubeState, bool),
        values: &mut Vec<Probabilities>,
    ) -> (usize, Probabilities) {
        values.clear();
        values.resize(results.len(), Probabilities::default());
        self.evaluator.evaluate_batch(results, values);
        for (r, v) in results.iter().zip(values.iter_mut()) {
            // The cube's values of a finished game or a bearoff are exact.
            if let Some(exact) = self.exact(r) {
                *v = exact;
            }
        }
        // Equal values (a cash, or gammons worth nothing at the score) are
        // told apart by cubeless equity, not by the order of the moves.
        let mut best = (0, f64::NEG_INFINITY, f32::NEG_INFINITY);
        for (i, (r, v)) in results.iter().zip(values.iter()).enumerate() {
            let value = (self.value_after(r, v, state, live), -v.equity());
            if value.0 > best.1 || (value.0 == best.1 && value.1 > best.2) {
                best = (i, value.0, value.1);
            }
        }
        (best.0, values[best.0])
    }

    /// The position after the move of the rollout's chequer play (seen by
    /// the next player), for a mover whose cube is `state` (`live` when the
    /// trial plays it): the 0-ply best move (as [`Self::play0_valued`]
    /// chooses it), or from 1 ply on the search's choice through gnubg's
    /// normal filter: in money play without a live cube its own
    /// [`Evaluator::best_move`]; with a live cube the cubeful ranking
    /// ([`rank_results_cubeful`], as gnubg's cubeful chequer play screens and
    /// values the moves); in a match without one, the move among those
    /// searched deepest that leaves the best cubeless match winning chances.
    fn play(&self, w: &mut Work, pos: &Position, dice: Dice, (state, live): (&CubeState, bool)) -> Position {
        let Some(search) = &self.search else {
            return if Self::cubeless_money(state, live) {
                choose_move(self.evaluator, pos, dice, &mut w.list).map_or_else(|| pos.switched(), |(_, a)| a)
            } else {
                self.play0_valued((&mut w.list, &mut w.scratch), pos, dice, (state, live)).0
            };
        };
        if Self::cubeless_money(state, live) {
            return choose_move(search, pos, dice, &mut w.list).map_or_else(|| pos.switched(), |(_, a)| a);
        }
        w.list.generate(pos, dice);
        let results = match w.list.positions() {
            [] => return pos.switched(),
            [only] => return *only,
            results => results,
        };
        if live {
            let ranked = rank_results_cubeful(search, results, state, self.met, search.plies(), search.filter(), None);
            // A score the table does not cover was refused before the trials.
            let best = ranked.ok().and_then(|r| r.first().map(|r| r.index)).unwrap_or(0);
            return results.get(best).copied().unwrap_or(results[0]);
        }
        let ranked = search.rank_results(results, search.plies());
        let deepest = ranked.iter().map(|r| r.plies).max().unwrap_or(0);
        let mut best = (0, f64::NEG_INFINITY);
        for r in ranked.iter().filter(|r| r.plies == deepest) {
            let mwc = cubeless_mwc(&r.probabilities.sanitized(), state, self.met).ok().flatten();
            let mwc = mwc.unwrap_or(0.0);
            if mwc > best.1 || (mwc == best.1 && r.index < best.0) {
                best = (r.index, mwc);
            }
        }
        results.get(best.0).copied().unwrap_or(results[0])
    }

    /// Plays trial `k` from `start` at the one game loop's table ([`Trial`]);
    /// the values are for the side on roll at the start (seat Zero).
    pub(super) fn trial(&self, w: &mut Work, line: usize, start: &Position, k: u64) -> Result<Sample, RolloutError> {
        let (state, first_double) = self.lines.get(line).copied().unwrap_or((self.lines[0].0, true));
        let mut rolls = TrialRolls { dice: &self.dice, k, turn: 0, rng: RandomDice::new(self.settings.seed, k) };
        let mut trial = Trial {
            player: self,
            w,
            luck: [0.0; 5],
            luck_cubeful: 0.0,
            cube: Cube { state, settled: None },
            may_double: first_double,
            turn: 0,
            luck_done: false,
            sample: None,
            error: None,
        };
        // The cube is the trial's own (a pass does not end the cubeless
        // game), so the loop plays cubeless.
        let state = MatchState::new(MatchRules::cubeless());
        let record = play_game(&mut trial, &mut rolls, &GameStart::from_position(*start, ROOT), &state);
        if let Some(e) = trial.error.take() {
            return Err(e);
        }
        match (record, trial.sample.take()) {
            (_, Some(sample)) => Ok(sample),
            // A finished game: its exact value, seen by the side on roll.
            (Ok(r), None) => {
                let on_roll = if r.turns % 2 == 0 { ROOT } else { ROOT.other() };
                trial.stop(&r.position, on_roll)
            }
            (Err(Abandoned), None) => unreachable!("a trial abandons only with an error"),
        }
    }
}

/// The side on roll at the start of a trial, whose values it reports.
const ROOT: Seat = Seat::Zero;

/// The dice of trial `k`, roll after roll ([`TrialDice`]).
struct TrialRolls<'a> {
    dice: &'a TrialDice,
    k: u64,
    turn: u32,
    rng: RandomDice,
}

impl DiceSource for TrialRolls<'_> {
    fn roll(&mut self) -> Dice {
        let d = self.dice.roll(self.k, self.turn, &mut self.rng);
        self.turn += 1;
        d
    }
}

/// One trial at the game loop's table: where it stops, the cube, both
/// sides' moves and the luck of every roll.
struct Trial<'p, 'w> {
    player: &'p Player<'p>,
    w: &'w mut Work,
    /// The luck so far, for the root.
    luck: [f64; 5],
    luck_cubeful: f64,
    cube: Cube,
    /// The side on roll may double now (false only before the first roll
    /// of a cube decision's no-double line).
    may_double: bool,
    /// Half-moves played.
    turn: u32,
    /// The luck of this turn's roll is counted (it is, in `choose_move`,
    /// when variance reduction chose the move).
    luck_done: bool,
    /// The trial's values, once it stopped before the end of the game.
    sample: Option<Sample>,
    /// Why the trial failed.
    error: Option<RolloutError>,
}

impl Trial<'_, '_> {
    /// The trial's values when it stops in `pos`, `seat` on roll: the exact
    /// value of a finished game or a bearoff, else the evaluator's
    /// probabilities, less the luck; the cubeful value with the cube.
    fn stop(&self, pos: &Position, seat: Seat) -> Result<Sample, RolloutError> {
        let p = match self.player.exact(pos) {
            Some(p) => p,
            None => self.player.evaluator.evaluate(pos),
        };
        let mover_is_root = seat == ROOT;
        let mover = five(&p);
        let root = if mover_is_root { mover } else { invert(&mover) };
        let probabilities: [f64; 5] = std::array::from_fn(|i| root[i] - self.luck[i]);
        let player = self.player;
        let cubeful = if player.tracks_cube {
            let cubeful = match self.cube.settled {
                Some(value) => value,
                None => {
                    let play = (player.doubling(), self.may_double);
                    let v = mover_value(pos, &p.sanitized(), &self.cube.state, player.met, play)?;
                    sign(mover_is_root) * v
                }
            };
            cubeful - self.luck_cubeful
        } else {
            0.0
        };
        Ok(Sample { probabilities, equity: equity_of(&probabilities), cubeful })
    }

    /// The side on roll's cube action before his roll (0-ply Janowski, at
    /// the match score in a match): a take doubles the cube, a pass settles
    /// the cubeful game.
    fn cube_action(&mut self, pos: &Position, mover_is_root: bool) -> Result<(), RolloutError> {
        let state = self.cube.state;
        if state.no_double_reason().is_some() {
            return Ok(());
        }
        let p = self.player.evaluator.evaluate(pos).sanitized();
        let d = decide_for(pos, &p, cube_efficiency(pos), &state, self.player.met)?;
        if d.action.doubles() {
            match d.response() {
                Some(Response::Take) => self.cube.state = state.doubled(),
                // Money play with beavers: taken at twice the new cube, and
                // the beaverer keeps it.
                Some(Response::Beaver) => self.cube.state = state.doubled().doubled(),
                Some(Response::Pass) | None => {
                    self.cube.settled = Some(sign(mover_is_root) * pass_value(&state, self.player.met));
                }
            }
        }
        Ok(())
    }

    /// Variance reduction: the 0-ply choice of each of the 21 rolls and its
    /// value; the luck of `dice` is its value less their average.
    fn count_luck(&mut self, pos: &Position, dice: Dice, mover_is_root: bool) -> Result<(), RolloutError> {
        let (player, w) = (self.player, &mut *self.w);
        for (i, d) in ALL_ROLLS.iter().enumerate() {
            (w.chosen[i], w.values[i]) =
                player.play0_valued((&mut w.list, &mut w.scratch), pos, *d, self.cube.chooser(player));
        }
        let actual = roll_index(dice);
        // Values for the mover: the chosen results are seen by the next player.
        let mut mean = [0.0f64; 5];
        for (d, v) in ALL_ROLLS.iter().zip(&w.values) {
            let mv = invert(&five(v));
            for i in 0..5 {
                mean[i] += f64::from(d.weight()) * mv[i];
            }
        }
        let got = invert(&five(&w.values[actual]));
        let mut delta = [0.0f64; 5];
        for i in 0..5 {
            delta[i] = got[i] - mean[i] / 36.0;
        }
        let delta = if mover_is_root { delta } else { invert_difference(&delta) };
        for (l, d) in self.luck.iter_mut().zip(delta) {
            *l += d;
        }
        if player.tracks_cube && self.cube.settled.is_none() {
            // The next player's cube state; his cubeful values, for the mover.
            let state = self.cube.state.switched();
            let mut mean = 0.0;
            let mut got = 0.0;
            for (i, d) in ALL_ROLLS.iter().enumerate() {
                let p = w.values[i].sanitized();
                let v = -mover_value(&w.chosen[i], &p, &state, player.met, (player.doubling(), true))?;
                mean += f64::from(d.weight()) * v;
                if i == actual {
                    got = v;
                }
            }
            self.luck_cubeful += sign(mover_is_root) * (got - mean / 36.0);
        }
        self.luck_done = true;
        Ok(())
    }

    /// Whether the trial's value in `pos`, which the bearoff database holds
    /// (or a finished game), is exact: always without the cube; with it only
    /// where the two-sided database gives exact cubeful equities too (money
    /// play, few checkers). Elsewhere the cube model's value there is an
    /// estimate, and the trial plays on, as gnubg's cubeful rollouts do.
    /// (Not whether a double was passed: the lines of a cube decision play
    /// the same games.)
    fn value_is_exact(&self, pos: &Position) -> bool {
        !self.player.doubling()
            || pos.game_result().is_some()
            || (self.cube.state.is_money() && bearoff_two_sided::holds(pos))
    }

    /// Keeps a failure for [`Player::trial`] and abandons the game.
    fn fail<T>(&mut self, r: Result<T, RolloutError>) -> Decision<T> {
        r.map_err(|e| {
            self.error = Some(e);
            Abandoned
        })
    }
}

/// +1 for the root, -1 for the other side.
fn sign(root: bool) -> f64 {
    if root {
        1.0
    } else {
        -1.0
    }
}

impl Table for Trial<'_, '_> {
    /// The end of the trial (an exact value, the truncation depth, the turn
    /// limit), then the cube.
    fn before_roll(&mut self, seat: Seat, pos: &Position, turn: u32) -> Decision<Flow> {
        self.turn = turn;
        let s = &self.player.settings;
        let exact = self.player.exact(pos).is_some() && self.value_is_exact(pos);
        if exact || s.truncate.is_some_and(|t| turn >= t) || turn >= MAX_TURNS {
            let sample = self.stop(pos, seat);
            self.sample = Some(self.fail(sample)?);
            return Ok(Flow::Stop);
        }
        if self.player.doubling() && self.cube.settled.is_none() && self.may_double {
            let r = self.cube_action(pos, seat == ROOT);
            self.fail(r)?;
        }
        self.may_double = true;
        Ok(Flow::Play)
    }

    /// The 0-ply best move, or the search's at the rollout's ply; with
    /// variance reduction the luck of the roll is counted first, and at 0
    /// ply its choice for the actual roll is the move.
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize> {
        let player = self.player;
        let chosen = if player.settings.variance_reduction {
            let r = self.count_luck(pos, dice, seat == ROOT);
            self.fail(r)?;
            match &player.search {
                None => self.w.chosen[roll_index(dice)],
                Some(_) => player.play(self.w, pos, dice, self.cube.chooser(player)),
            }
        } else {
            player.play(self.w, pos, dice, self.cube.chooser(player))
        };
        // Results are distinct positions: the one reached names the move.
        Ok(moves.positions().iter().position(|p| *p == chosen).unwrap_or(0))
    }

    /// A turn without a move has luck too; the cube owner is seen by the
    /// next player.
    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        if self.player.settings.variance_reduction && !self.luck_done {
            let r = self.count_luck(&turn.before, turn.dice, turn.seat == ROOT);
            self.fail(r)?;
        }
        self.luck_done = false;
        self.cube.state = self.cube.state.switched();
        Ok(())
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::rollout::Starts;
    use gammon_eval::NetEvaluator;
    use gammon_rules::Xgid;

    fn middle_game() -> Position {
        Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").unwrap().position
    }

    fn match_state(away: (u32, u32)) -> CubeState {
        CubeState {
            cube: 1,
            owner: CubeOwner::Centered,
            max_cube: 64,
            stakes: Stakes::Match { length: 7, away, crawford: false },
        }
    }

    #[test]
    fn the_rollout_players_choose_their_moves_for_the_score() {
        let net = NetEvaluator::shipped().unwrap();
        let settings = RolloutSettings::default();
        let pos = middle_game();
        let met = Met::kazaross_xg2();
        let player = Player::new(&net, &settings, &TrialCube::Money, &Starts::Position(&pos), met);
        let mut list = MoveList::new();
        let mut scratch = Vec::new();
        let money = CubeState::money(1, CubeOwner::Centered, false, false);
        let dmp = match_state((1, 1));
        let mut differ = 0;
        for dice in ALL_ROLLS {
            list.generate(&pos, dice);
            let results = list.positions().to_vec();
            // Money: the evaluator's own choice.
            let (chosen, _) = player.play0_valued((&mut list, &mut scratch), &pos, dice, (&money, false));
            let (i, _) = net.best_move_valued(&pos, &results);
            assert_eq!(chosen, results[i], "{dice}");
            // Double match point: only winning counts, so the move that wins
            // most often.
            let (at_dmp, _) = player.play0_valued((&mut list, &mut scratch), &pos, dice, (&dmp, false));
            let wins = |r: &Position| 1.0 - net.evaluate(r).win;
            let most = results.iter().map(wins).fold(f32::MIN, f32::max);
            assert_eq!(wins(&at_dmp), most, "{dice}");
            differ += usize::from(at_dmp != chosen);
        }
        // Gammons change some of the choices.
        assert!(differ > 0, "the same moves at every roll");
    }

    #[test]
    fn deeper_rollout_players_choose_for_the_score_too() {
        let net = NetEvaluator::shipped().unwrap();
        let settings = RolloutSettings { ply: 1, ..RolloutSettings::default() };
        let pos = middle_game();
        let player = Player::new(&net, &settings, &TrialCube::Money, &Starts::Position(&pos), Met::kazaross_xg2());
        let search = Search::new(&net as &dyn Evaluator).with_plies(1);
        let mut w = Work::new();
        let dmp = match_state((1, 1));
        for dice in ALL_ROLLS {
            w.list.generate(&pos, dice);
            let results = w.list.positions().to_vec();
            let chosen = player.play(&mut w, &pos, dice, (&dmp, false));
            // At double match point: the move that wins most often among
            // those the 1-ply search valued.
            let ranked = search.rank_results(&results, 1);
            let deepest = ranked.iter().map(|r| r.plies).max().unwrap();
            let most =
                ranked.iter().filter(|r| r.plies == deepest).map(|r| r.probabilities.win).fold(f32::MIN, f32::max);
            let got = ranked.iter().find(|r| results[r.index] == chosen).unwrap();
            assert_eq!((got.plies, got.probabilities.win), (deepest, most), "{dice}");
        }
    }

    #[test]
    fn with_a_live_cube_the_players_choose_by_cubeful_value() {
        // The choice equals the cubeful ranking of `gammon cube`'s move
        // analysis at 0 ply (the opponent's double or not after each move,
        // through the n-ply cube code), in money play and at match scores.
        let net = NetEvaluator::shipped().unwrap();
        let settings = RolloutSettings { cubeful: true, ..RolloutSettings::default() };
        let met = Met::kazaross_xg2();
        let search = Search::new(&net as &dyn Evaluator);
        let positions = [
            middle_game(),
            // A blitz: X has hit two checkers and owns a 2-cube.
            Xgid::parse("XGID=aa--BBBBB-A-cA---c-e-B----:1:1:1:00:0:0:0:0:10").unwrap().position,
            Xgid::parse("XGID=-a-BBBBBA-----a--b-bbbbc-A:0:0:1:00:0:0:0:0:10").unwrap().position,
        ];
        let states = [
            CubeState::money(1, CubeOwner::Centered, false, false),
            CubeState::money(2, CubeOwner::OnRoll, false, false),
            match_state((3, 5)),
            match_state((5, 2)),
        ];
        let mut w = Work::new();
        let (mut moves, mut differ) = (0, 0);
        for pos in &positions {
            let player = Player::new(&net, &settings, &TrialCube::Money, &Starts::Position(pos), met);
            for state in &states {
                for dice in ALL_ROLLS {
                    w.list.generate(pos, dice);
                    let results = w.list.positions().to_vec();
                    if results.len() < 2 {
                        continue;
                    }
                    let chosen = player.play(&mut w, pos, dice, (state, true));
                    let ranked = rank_results_cubeful(&search, &results, state, met, 0, search.filter(), None).unwrap();
                    let (best, got) = (ranked[0], ranked.iter().find(|r| results[r.index] == chosen).unwrap());
                    // The same move, or one worth the same to rounding.
                    assert!(best.equity - got.equity < 1e-9, "{dice}: {} against {}", got.equity, best.equity);
                    let cubeless = player.play(&mut w, pos, dice, (state, false));
                    moves += 1;
                    differ += usize::from(cubeless != chosen);
                }
            }
        }
        // The cube changes some choices.
        assert!(differ > 0, "the cube changed none of {moves} choices");
    }

    #[test]
    fn equal_cubeful_values_are_told_apart_by_cubeless_equity() {
        // X bears off his last two checkers against O's six: after most rolls
        // every move leaves a cash (exact in the two-sided database), so the
        // cube cannot choose; some leave O fewer chances than others.
        let net = NetEvaluator::shipped().unwrap();
        let settings = RolloutSettings { cubeful: true, ..RolloutSettings::default() };
        let pos = Xgid::parse("XGID=------B------------f------:0:0:1:00:0:0:0:0:10").unwrap().position;
        let player = Player::new(&net, &settings, &TrialCube::Money, &Starts::Position(&pos), Met::kazaross_xg2());
        let state = CubeState::money(1, CubeOwner::Centered, false, false);
        let mut w = Work::new();
        let mut ties = 0;
        for dice in ALL_ROLLS {
            w.list.generate(&pos, dice);
            let results = w.list.positions().to_vec();
            let values: Vec<f64> =
                results.iter().map(|r| player.value_after(r, &player.exact(r).unwrap(), &state, true)).collect();
            if results.len() < 2 || values.iter().any(|v| *v != values[0]) {
                continue;
            }
            ties += 1;
            let chosen = player.play(&mut w, &pos, dice, (&state, true));
            let (best, _) = net.best_move_valued(&pos, &results);
            let equity = |r: &Position| -player.exact(r).unwrap().equity();
            assert_eq!(equity(&chosen), equity(&results[best]), "{dice}");
            // The cubeful move ranking of analysis orders them alike.
            let search = Search::new(&net as &dyn Evaluator);
            let met = Met::kazaross_xg2();
            let ranked = rank_results_cubeful(&search, &results, &state, met, 0, search.filter(), None).unwrap();
            assert_eq!(equity(&results[ranked[0].index]), equity(&results[best]), "{dice}");
        }
        assert!(ties > 0, "no roll whose moves the cube values alike");
    }
}
