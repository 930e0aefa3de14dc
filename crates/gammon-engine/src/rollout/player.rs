//! The trial player: both sides' move choice (0 or 1 ply), the money cube
//! of cubeful trials, and the luck of every roll (variance reduction).

use super::dice::{roll_index, TrialDice};
use super::stats::{equity_of, five, invert, invert_difference, Sample};
use super::{RolloutError, RolloutSettings, MAX_TURNS};
use crate::cube::{cube_efficiency, decide, CubeError, CubeState, Response};
use crate::met::Met;
use gammon_eval::bearoff::bearoff_db;
use gammon_eval::play::RandomDice;
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{CubeOwner, Dice, MoveList, Position, ALL_ROLLS};

/// Candidates kept for the 1-ply move choice: at most this many...
const PLY1_MAX_MOVES: usize = 8;
/// ... within this much 0-ply equity of the best (gnubg's normal filter).
const PLY1_WINDOW: f32 = 0.16;

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
    candidates: Vec<(Position, f32)>,
    scratch: Vec<Probabilities>,
}

impl Work {
    pub(super) fn new() -> Self {
        Work {
            list: MoveList::new(),
            chosen: [Position::STARTING; 21],
            values: [Probabilities::default(); 21],
            candidates: Vec::with_capacity(64),
            scratch: Vec::with_capacity(256),
        }
    }
}

/// Both players of a rollout's trials and their dice.
pub(super) struct Player<'a> {
    evaluator: &'a dyn Evaluator,
    settings: RolloutSettings,
    dice: TrialDice,
    met: &'static Met,
}

impl<'a> Player<'a> {
    pub(super) fn new(evaluator: &'a dyn Evaluator, settings: &RolloutSettings) -> Self {
        Player {
            evaluator,
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

    /// The position after the 1-ply best move (seen by the next player).
    fn play1(&self, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        w.list.generate(pos, dice);
        let n = w.list.len();
        if n <= 1 {
            return w.list.positions().first().copied().unwrap_or_else(|| pos.switched());
        }
        w.scratch.clear();
        w.scratch.resize(n, Probabilities::default());
        self.values(w.list.positions(), &mut w.scratch);
        // The mover's equity is minus the next player's.
        w.candidates.clear();
        w.candidates.extend(w.list.positions().iter().zip(&w.scratch).map(|(p, v)| (*p, -v.equity())));
        w.candidates.sort_by(|a, b| b.1.total_cmp(&a.1));
        let best0 = w.candidates[0].1;
        let keep = w.candidates.iter().take(PLY1_MAX_MOVES).take_while(|c| c.1 >= best0 - PLY1_WINDOW).count();
        w.candidates.truncate(keep.max(1));
        let mut best = (w.candidates[0].0, f64::NEG_INFINITY);
        for c in 0..w.candidates.len() {
            let q = w.candidates[c].0;
            let v = self.one_ply_value(w, &q);
            if v > best.1 {
                best = (q, v);
            }
        }
        best.0
    }

    /// The 1-ply cubeless equity of `q` (the opponent on roll) for the player
    /// who just moved: each roll of the opponent, his 0-ply best reply.
    fn one_ply_value(&self, w: &mut Work, q: &Position) -> f64 {
        if let Some(p) = self.exact(q) {
            return -f64::from(p.equity());
        }
        let mut total = 0.0;
        for d in ALL_ROLLS {
            w.list.generate(q, d);
            let ours = match w.list.len() {
                0 => {
                    let back = q.switched();
                    let mut v = [Probabilities::default()];
                    self.values(std::slice::from_ref(&back), &mut v);
                    v[0].equity()
                }
                n => {
                    w.scratch.clear();
                    w.scratch.resize(n, Probabilities::default());
                    self.values(w.list.positions(), &mut w.scratch);
                    // The opponent leaves us the least.
                    w.scratch.iter().map(|v| v.equity()).fold(f32::INFINITY, f32::min)
                }
            };
            total += f64::from(d.weight()) * f64::from(ours);
        }
        total / 36.0
    }

    fn play(&self, w: &mut Work, pos: &Position, dice: Dice) -> Position {
        if self.settings.ply == 0 {
            self.play0(&mut w.list, pos, dice)
        } else {
            self.play1(w, pos, dice)
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
                if s.ply == 0 {
                    w.chosen[actual]
                } else {
                    self.play1(w, &pos, dice)
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
