//! One self-play training game: greedy 0-ply play by the net being trained,
//! with a TD(λ) update after every move (a [`Table`] of the one game loop).
//!
//! The value of a position is the net's estimate for the side on roll before
//! it rolls. After a move, the opponent's value of the resulting position,
//! inverted, is the new estimate for the mover's previous position: the
//! temporal difference. Finished games give the exact result; bearoff
//! positions take the database's value and are not trained.
//!
//! λ = 0 moves each position toward its successor only. λ > 0 keeps
//! eligibility traces: for each net and each of the five outputs, a decaying
//! sum of past gradients, so each error also corrects earlier positions. The
//! traces are kept in player 0's point of view (the other side's estimates
//! are inverted: win ↔ 1 − win, gammons ↔ the opponent's gammons), so that the
//! estimates along a game form one sequence.

use gammon_eval::inputs::{ContactEncoding, Encoding, RaceEncoding, SparseInputs};
use gammon_eval::mlp::{Activations, Mlp, OUTPUTS};
use gammon_eval::net::{evaluate_position_by, evaluate_positions, CrashedBy, Scratch};
use gammon_eval::{NetKind, NetWeights, Probabilities};
use gammon_rules::{
    play_game, Decision, Dice, GameStart, MatchRules, MatchState, MoveList, Position, RandomDice, Seat, Table, Turn,
};

/// What a training game did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameStats {
    /// Half-moves played.
    pub turns: u32,
    /// Positions trained.
    pub updates: u32,
    /// Points won by the side that moved first (negative if it lost).
    pub points: i32,
}

/// Reusable buffers for training games on one thread.
#[derive(Debug)]
pub struct Workspace {
    scratch: Scratch,
    inputs: SparseInputs,
    /// Per net ([`NetKind::index`]), one trace per output.
    traces: Option<[Vec<Mlp>; 3]>,
    /// The values of a turn's candidates.
    values: Vec<Probabilities>,
}

impl Workspace {
    /// Buffers for nets shaped like `weights`.
    pub fn new(weights: &NetWeights) -> Self {
        Workspace {
            scratch: Scratch::new(weights),
            inputs: SparseInputs::with_capacity(ContactEncoding::LEN.max(RaceEncoding::LEN)),
            traces: None,
            values: Vec::new(),
        }
    }
}

/// Output `k` of the fixed view in terms of the side on roll's outputs: the
/// index it comes from and its sign (win = 1 - opponent's win).
const INVERT: [(usize, f32); OUTPUTS] = [(0, -1.0), (3, 1.0), (4, 1.0), (1, 1.0), (2, 1.0)];

fn to_fixed_view(p: Probabilities, player: usize) -> [f32; OUTPUTS] {
    if player == 0 {
        p.to_array()
    } else {
        p.inverted().to_array()
    }
}

/// Plays one game with `weights`, training them in place with learning rate
/// `rate` and trace decay `lambda`. The dice come from `dice`.
pub fn train_game(
    weights: &mut NetWeights,
    dice: &mut RandomDice,
    rate: f32,
    lambda: f32,
    ws: &mut Workspace,
) -> GameStats {
    let use_traces = lambda > 0.0;
    if use_traces {
        let traces = ws.traces.get_or_insert_with(|| {
            NetKind::ALL.map(|kind| (0..OUTPUTS).map(|_| weights.net(kind).zeros_like()).collect())
        });
        for t in traces.iter_mut().flatten() {
            t.scale(0.0);
        }
    }
    let mut learner = Learner { weights, ws, rate, lambda, chosen: None, updates: 0 };
    let state = MatchState::new(MatchRules::cubeless());
    // The learner never abandons a game.
    let record = play_game(&mut learner, dice, &GameStart::opening(Seat::Zero), &state)
        .unwrap_or_else(|_| unreachable!("the learner does not abandon"));
    GameStats { turns: record.turns, updates: learner.updates, points: record.end.points_for(Seat::Zero) as i32 }
}

/// Greedy 0-ply play with a TD update after every turn.
struct Learner<'a> {
    weights: &'a mut NetWeights,
    ws: &'a mut Workspace,
    rate: f32,
    lambda: f32,
    /// The move chosen this turn and its value for the opponent (saves
    /// evaluating it again in the update).
    chosen: Option<(usize, Probabilities)>,
    updates: u32,
}

impl Table for Learner<'_> {
    /// The result the opponent values least (the first of equals); a
    /// forced move is evaluated too, for its update.
    fn choose_move(&mut self, _: Seat, _: &Position, _: Dice, moves: &MoveList) -> Decision<usize> {
        let candidates = moves.positions();
        let ws = &mut *self.ws;
        ws.values.resize(candidates.len(), Probabilities::default());
        let values = &mut ws.values[..candidates.len()];
        evaluate_positions(self.weights, candidates, values, &mut ws.scratch, CrashedBy::ContactNet);
        let mut best = (0, Probabilities::default());
        let mut best_equity = f32::INFINITY;
        for (i, &v) in values.iter().enumerate() {
            let e = v.equity();
            if e < best_equity {
                best_equity = e;
                best = (i, v);
            }
        }
        self.chosen = Some(best);
        Ok(best.0)
    }

    /// The TD update for the position before the move toward the inverted
    /// value of the one after it.
    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        let next_value = match (self.chosen.take(), turn.played) {
            (Some((i, v)), Some(p)) if i == p => v,
            _ => td_value(self.weights, &turn.after, &mut self.ws.scratch),
        };
        self.update(&turn.before, next_value, turn.seat.index());
        Ok(())
    }
}

impl Learner<'_> {
    fn update(&mut self, pos: &Position, next_value: Probabilities, player: usize) {
        let (weights, ws, rate, lambda) = (&mut *self.weights, &mut *self.ws, self.rate, self.lambda);
        let use_traces = lambda > 0.0;
        if let Some(kind) = td_net(pos) {
            kind.encode(pos, &mut ws.inputs);
            let net = weights.net_mut(kind);
            let act = net.activations(&ws.inputs);
            let target = next_value.inverted().to_array();
            if use_traces {
                update_with_traces(weights, kind, &ws.inputs, &act, player, target, rate, lambda, ws.traces.as_mut());
            } else {
                net.train_toward(&ws.inputs, &act, &target, rate);
            }
            self.updates += 1;
        } else if use_traces {
            // A database or final position: no gradient, but earlier
            // positions still learn from the difference.
            let current = td_value(weights, pos, &mut ws.scratch);
            let delta = fixed_delta(to_fixed_view(next_value.inverted(), player), to_fixed_view(current, player));
            apply_traces(weights, &delta, rate, lambda, ws.traces.as_mut());
        }
    }
}

/// The net TD trains on `pos`: one net for every contact position, crashed
/// ones included (the trainer keeps the crashed net a copy of it); a crashed
/// net of its own comes from supervised fitting (`supervised.rs`).
fn td_net(pos: &Position) -> Option<NetKind> {
    NetKind::of_position(pos).map(|kind| if kind == NetKind::Crashed { NetKind::Contact } else { kind })
}

/// The value of `pos` by the nets TD trains ([`td_net`]).
fn td_value(weights: &NetWeights, pos: &Position, scratch: &mut Scratch) -> Probabilities {
    evaluate_position_by(weights, pos, scratch, CrashedBy::ContactNet).0
}

fn fixed_delta(target: [f32; OUTPUTS], current: [f32; OUTPUTS]) -> [f32; OUTPUTS] {
    let mut d = [0.0; OUTPUTS];
    for k in 0..OUTPUTS {
        d[k] = target[k] - current[k];
    }
    d
}

/// Backward-view TD(λ): decay the traces, add this position's gradient (in the
/// fixed view), then move the weights by rate × δ × trace for each output.
#[allow(clippy::too_many_arguments)]
fn update_with_traces(
    weights: &mut NetWeights,
    kind: NetKind,
    x: &SparseInputs,
    act: &Activations,
    player: usize,
    target_for_mover: [f32; OUTPUTS],
    rate: f32,
    lambda: f32,
    traces: Option<&mut [Vec<Mlp>; 3]>,
) {
    let Some(traces) = traces else { return };
    decay(traces, lambda);
    let net = weights.net(kind);
    for k in 0..OUTPUTS {
        // Fixed-view output k depends on the mover's output INVERT[k].0.
        let (source, sign) = if player == 0 { (k, 1.0) } else { INVERT[k] };
        net.add_output_gradient(x, act, source, sign, &mut traces[kind.index()][k]);
    }
    let current = Probabilities::from_array(act.output);
    let target = Probabilities::from_array(target_for_mover);
    let delta = fixed_delta(to_fixed_view(target, player), to_fixed_view(current, player));
    step(weights, &delta, rate, traces);
}

fn apply_traces(
    weights: &mut NetWeights,
    delta: &[f32; OUTPUTS],
    rate: f32,
    lambda: f32,
    traces: Option<&mut [Vec<Mlp>; 3]>,
) {
    let Some(traces) = traces else { return };
    decay(traces, lambda);
    step(weights, delta, rate, traces);
}

/// Every trace fades by λ before the next gradient is added.
fn decay(traces: &mut [Vec<Mlp>; 3], lambda: f32) {
    for t in traces.iter_mut().flatten() {
        t.scale(lambda);
    }
}

fn step(weights: &mut NetWeights, delta: &[f32; OUTPUTS], rate: f32, traces: &[Vec<Mlp>; 3]) {
    for (k, &d) in delta.iter().enumerate() {
        if d != 0.0 {
            for kind in NetKind::ALL {
                weights.net_mut(kind).add_scaled(rate * d, &traces[kind.index()][k]);
            }
        }
    }
}
