//! The trial player: both sides' move choice (0 or 1 ply), the money cube
//! of cubeful trials, and the luck of every roll (variance reduction).

use super::dice::{roll_index, TrialDice};
use super::stats::{equity_of, five, invert, invert_difference, Sample};
use super::{RolloutError, RolloutSettings, MAX_TURNS};
use crate::cube::{cube_efficiency, decide, CubeError, CubeState, Response};
use crate::met::Met;
use crate::search::Search;
use gammon_eval::bearoff::bearoff_db;
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{CubeOwner, Dice, MoveList, Position, RandomDice, ALL_ROLLS};

/// The doubling cube of a cubeful trial: money play, no Jacoby rule, no
/// beavers.
#[derive(Debug, Clone, Copy)]
struct Cube {
    value: u32,
    /// Who owns it, seen by the side on roll.
    owner: CubeOwner,
    /// The cubeful result once a double was passed (starting player's points).
    settled: Option<f64>,
}

impl Cube {
    /// The cube state of the side on roll.
    fn state(&self) -> CubeState {
        CubeState::money(self.value, self.owner, false, false)
    }

    /// The cube state of the side on roll after this half-move.
    fn next_state(&self) -> CubeState {
        CubeState::money(self.value, self.owner.switched(), false, false)
    }
}

/// The cubeful value (normalised to the cube) of a position for its side on
/// roll, with his cube decision: `max(no double, min(double/take, +1))`.
fn cubeful_value(pos: &Position, p: &Probabilities, state: &CubeState, met: &Met) -> Result<f64, CubeError> {
    if pos.game_result().is_some() {
        return Ok(equity_of(&five(p)));
    }
    Ok(decide(p, cube_efficiency(pos), state, met)?.best())
}

/// Buffers of one worker.
#[derive(Debug)]
pub(super) struct Work {
    list: MoveList,
    chosen: [Position; 21],
    values: [Probabilities; 21],
}

impl Work {
    pub(super) fn new() -> Self {
        Work { list: MoveList::new(), chosen: [Position::STARTING; 21], values: [Probabilities::default(); 21] }
    }
}

/// A borrowed evaluator, for a search that does not own it.
struct Borrowed<'a>(&'a dyn Evaluator);

impl Evaluator for Borrowed<'_> {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        self.0.evaluate_batch(positions, out);
    }

    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        self.0.best_move(before, results)
    }

    fn name(&self) -> String {
        self.0.name()
    }
}

/// Both players of a rollout's trials and their dice.
pub(super) struct Player<'a> {
    evaluator: &'a dyn Evaluator,
    /// The chequer play's lookahead from 1 ply on (`None` at 0 ply).
    search: Option<Search<Borrowed<'a>>>,
    settings: RolloutSettings,
    dice: TrialDice,
    met: &'static Met,
}

impl<'a> Player<'a> {
    pub(super) fn new(evaluator: &'a dyn Evaluator, settings: &RolloutSettings) -> Self {
        Player {
            evaluator,
            search: (settings.ply > 0).then(|| Search::new(Borrowed(evaluator))),
            settings: *settings,
            dice: TrialDice::new(settings.seed, settings.quasi_random),
            met: Met::kazaross_xg2(),
        }
    }

    pub(super) fn settings(&self) -> &RolloutSettings {
        &self.settings
    }

    /// The exact value of a finished game or (with `bearoff_exact`) a
    /// bearoff, for the side on roll.
    fn exact(&self, pos: &Position) -> Option<Probabilities> {
        Probabilities::of_finished(pos).or_else(|| {
            if self.settings.bearoff_exact {
                bearoff_db().evaluate(pos)
            } else {
                None
            }
        })
    }

    /// 0-ply values for their sides on roll: exact where [`Self::exact`]
    /// knows, the evaluator otherwise.
    fn values(&self, positions: &[Position], out: &mut [Probabilities]) {
        self.evaluator.evaluate_batch(positions, out);
        for (p, o) in positions.iter().zip(out.iter_mut()) {
            if let Some(v) = self.exact(p) {
                *o = v;
            }
        }
    }

    /// The position after the 0-ply best move (seen by the next player).
    fn play0(&self, list: &mut MoveList, pos: &Position, dice: Dice) -> Position {
        list.generate(pos, dice);
        match list.positions() {
            [] => pos.switched(),
            [only] => *only,
            all => {
                let i = self.evaluator.best_move(pos, all);
                all.get(i).copied().unwrap_or(all[0])
            }
        }
    }

    /// The position after the best move by the search's ranking at the
    /// rollout's ply (gnubg's normal filter), seen by the next player.
    fn play_searched(&self, search: &Search<Borrowed<'_>>, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        w.list.generate(pos, dice);
        match w.list.positions() {
            [] => pos.switched(),
            [only] => *only,
            all => {
                let i = search.rank_results(all, self.settings.ply).first().map_or(0, |r| r.index);
                all.get(i).copied().unwrap_or(all[0])
            }
        }
    }

    fn play(&self, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        match &self.search {
            None => self.play0(&mut w.list, pos, dice),
            Some(search) => self.play_searched(search, w, pos, dice),
        }
    }

    /// Plays trial `k` from `start`; the values are for the side on roll at
    /// the start.
    pub(super) fn trial(&self, w: &mut Work, start: &Position, k: u64) -> Result<Sample, RolloutError> {
        let s = &self.settings;
        let mut rng = RandomDice::new(s.seed, k);
        let mut pos = *start;
        let mut mover_is_root = true;
        let sign = |root: bool| if root { 1.0 } else { -1.0 };
        let mut luck = [0.0f64; 5];
        let mut luck_cubeful = 0.0f64;
        let mut cube = Cube { value: 1, owner: CubeOwner::Centered, settled: None };
        let mut turn = 0u32;
        loop {
            // The end of the trial?
            let exact = self.exact(&pos);
            let stop = if exact.is_some() {
                exact
            } else if s.truncate.is_some_and(|t| turn >= t) || turn >= MAX_TURNS {
                Some(self.evaluator.evaluate(&pos))
            } else {
                None
            };
            if let Some(p) = stop {
                let mover = five(&p);
                let root = if mover_is_root { mover } else { invert(&mover) };
                let probabilities: [f64; 5] = std::array::from_fn(|i| root[i] - luck[i]);
                let cubeful = if s.cubeful {
                    let cubeful = match cube.settled {
                        Some(points) => points,
                        None => {
                            let v = cubeful_value(&pos, &p.sanitized(), &cube.state(), self.met)?;
                            sign(mover_is_root) * f64::from(cube.value) * v
                        }
                    };
                    cubeful - luck_cubeful
                } else {
                    0.0
                };
                return Ok(Sample { probabilities, equity: equity_of(&probabilities), cubeful });
            }
            // The cube.
            if s.cubeful && cube.settled.is_none() {
                let state = cube.state();
                if state.no_double_reason().is_none() {
                    let p = self.evaluator.evaluate(&pos).sanitized();
                    let d = decide(&p, cube_efficiency(&pos), &state, self.met)?;
                    if d.action.doubles() {
                        if d.response() == Some(Response::Take) {
                            cube.value = cube.value.saturating_mul(2);
                            cube.owner = CubeOwner::Opponent;
                        } else {
                            cube.settled = Some(sign(mover_is_root) * f64::from(cube.value));
                        }
                    }
                }
            }
            // The roll and the move.
            let dice = self.dice.roll(k, turn, &mut rng);
            pos = if s.variance_reduction {
                for (i, d) in ALL_ROLLS.iter().enumerate() {
                    w.chosen[i] = self.play0(&mut w.list, &pos, *d);
                }
                self.values(&w.chosen, &mut w.values);
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
                for i in 0..5 {
                    luck[i] += delta[i];
                }
                if s.cubeful && cube.settled.is_none() {
                    // The next player's cube state; his cubeful values, for the mover.
                    let state = cube.next_state();
                    let mut mean = 0.0;
                    let mut got = 0.0;
                    for (i, d) in ALL_ROLLS.iter().enumerate() {
                        let v = -cubeful_value(&w.chosen[i], &w.values[i].sanitized(), &state, self.met)?;
                        mean += f64::from(d.weight()) * v;
                        if i == actual {
                            got = v;
                        }
                    }
                    luck_cubeful += sign(mover_is_root) * f64::from(cube.value) * (got - mean / 36.0);
                }
                match &self.search {
                    None => w.chosen[actual],
                    Some(search) => self.play_searched(search, w, &pos, dice),
                }
            } else {
                self.play(w, &pos, dice)
            };
            mover_is_root = !mover_is_root;
            cube.owner = cube.owner.switched();
            turn += 1;
        }
    }
}
