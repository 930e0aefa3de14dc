//! n-ply cube decisions as gnubg searches them (`EvaluatePositionCubeful`):
//! cubeful values carried through the plies of a [`Search`].

use super::decision::{analyse, assemble, CubeAnalysis, CubeDecision, Values};
use super::janowski::{cube_efficiency, position_cubeful, MatchScore, P};
use super::state::{CubeError, CubeState, Stakes};
use crate::met::Met;
use crate::search::Search;
use gammon_eval::bearoff_two_sided;
use gammon_eval::{Evaluator, PositionClass, Probabilities};
use gammon_rules::{Dice, GameContext, Position, ALL_ROLLS};
use rayon::prelude::*;

/// Cubeful values of a position searched `plies` deep, from
/// [`cubeful_nply`].
#[derive(Debug, Clone, PartialEq)]
pub struct NplyCubeful {
    /// One value per requested cube state, for the player on roll, with no
    /// cube action by him now: in money play the equity normalised to that
    /// state's cube, in match play his match winning chances.
    pub values: Vec<f64>,
    /// The cubeless probabilities of the same search (the average over the
    /// rolls of the values after the moves it chose).
    pub probabilities: Probabilities,
}

/// A cube state in the search; `None` where a double is not possible.
type Slot = Option<CubeState>;

/// The cubeful value of a state of `pos` (exact in a money bearoff the
/// two-sided database holds, else Janowski's): money normalised to the
/// state's cube, match winning chances in a match.
fn raw_cubeful(pos: &Position, p: &P, x: f64, s: &CubeState, met: &Met) -> f64 {
    position_cubeful(Some(pos), p, x, s, met)
}

/// What a pass of a double by the player on roll gives him, in the units of
/// [`raw_cubeful`]: `+1` in money play, the match winning chances after
/// winning the cube in a match.
fn raw_double_pass(s: &CubeState, met: &Met) -> f64 {
    match s.stakes {
        Stakes::Money { .. } => 1.0,
        Stakes::Match { away, crawford, .. } => MatchScore { met, away, crawford }.me(0, s.cube, true),
    }
}

/// The same value seen by the other side.
fn raw_inverted(s: &CubeState, v: f64) -> f64 {
    if s.is_money() {
        -v
    } else {
        1.0 - v
    }
}

/// gnubg's `EvaluatePositionCubeful` recursion around a [`Search`].
pub(super) struct Nply<'a, E: Evaluator> {
    pub(super) search: &'a Search<E>,
    pub(super) met: &'a Met,
}

impl<E: Evaluator> Nply<'_, E> {
    /// The value, for the mover, of `result` (the position after his move,
    /// the opponent on roll) when the mover's cube state was `mover`: the
    /// opponent's best cube action and then his roll, searched `plies` deep
    /// (gnubg's `EvaluatePositionCubeful` of a move, below the root). In
    /// [`raw_cubeful`]'s units; with the cubeless probabilities for the mover.
    pub(super) fn after_move(&self, result: &Position, mover: &CubeState, plies: u8) -> (f64, Probabilities) {
        let slots = Self::opponent_slots(mover);
        let (v, p) = self.node(result, &slots, plies, true);
        let value = self.decide(&v, &slots).first().copied().unwrap_or(0.0);
        (raw_inverted(mover, value), p.inverted())
    }

    /// [`after_move`](Self::after_move) at 0 plies from the static
    /// probabilities `p` of `result` (for its side on roll).
    pub(super) fn after_move_static(&self, result: &Position, p: &Probabilities, mover: &CubeState) -> f64 {
        let slots = Self::opponent_slots(mover);
        let p = p.sanitized();
        let (q, x) = (P::of(&p), cube_efficiency(result));
        let v: Vec<f64> =
            slots.iter().map(|s| s.as_ref().map_or(0.0, |s| raw_cubeful(result, &q, x, s, self.met))).collect();
        raw_inverted(mover, self.decide(&v, &slots).first().copied().unwrap_or(0.0))
    }

    /// The opponent's cube state after the mover's move, and the state
    /// after his double where he may double.
    fn opponent_slots(mover: &CubeState) -> [Slot; 2] {
        let o = mover.switched();
        [Some(o), Some(o).filter(|o| o.no_double_reason().is_none()).map(|o| o.doubled())]
    }

    /// The values of `slots` (cube states of the side on roll in `pos`) with
    /// no cube action by him now, and the cubeless probabilities.
    fn node(&self, pos: &Position, slots: &[Slot], plies: u8, top: bool) -> (Vec<f64>, Probabilities) {
        // Exact money bearoffs are leaves at any depth, as in gnubg.
        let exact = || slots.iter().flatten().all(CubeState::is_money) && bearoff_two_sided::holds(pos);
        if self.search.stopped() {
            // Abandoned work (Search::stoppable): nothing here is kept.
            return (vec![0.0; slots.len()], Probabilities::default());
        }
        if plies == 0 || PositionClass::of(pos) == PositionClass::Finished || exact() {
            let p = self.search.value(pos, 0).sanitized();
            let q = P::of(&p);
            let x = cube_efficiency(pos);
            let values =
                slots.iter().map(|s| s.as_ref().map_or(0.0, |s| raw_cubeful(pos, &q, x, s, self.met))).collect();
            return (values, p);
        }
        // After the roll the opponent is on roll: each state seen by him,
        // followed by the state after his double where he may double.
        let child: Vec<Slot> = slots
            .iter()
            .flat_map(|s| {
                let o = s.map(|s| s.switched());
                [o, o.filter(|o| o.no_double_reason().is_none()).map(|o| o.doubled())]
            })
            .collect();
        let after = |dice: &Dice| {
            // The move Search::value would play here, with `plies - 1` to search after it.
            let next = self.search.play(pos, *dice, plies - 1);
            let (v, p) = self.node(&next, &child, plies - 1, false);
            (self.decide(&v, &child), p)
        };
        let results: Vec<(Vec<f64>, Probabilities)> = if top && plies >= 2 {
            ALL_ROLLS.par_iter().map(after).collect()
        } else {
            ALL_ROLLS.iter().map(after).collect()
        };
        let mut sums = vec![0.0f64; slots.len()];
        let mut psum = [0.0f64; 5];
        for (dice, (v, p)) in ALL_ROLLS.iter().zip(&results) {
            let w = f64::from(dice.weight());
            for ((sum, slot), &value) in sums.iter_mut().zip(slots).zip(v) {
                // The child's value is the opponent's: seen from here it is inverted.
                if let Some(s) = slot {
                    *sum += w * raw_inverted(s, value);
                }
            }
            for (s, x) in psum.iter_mut().zip(p.inverted().to_array()) {
                *s += w * f64::from(x);
            }
        }
        let values = sums.into_iter().map(|s| s / 36.0).collect();
        (values, Probabilities::from_array(psum.map(|s| (s / 36.0) as f32)))
    }

    /// gnubg's `GetECF3`: the side on roll takes his best cube action: for
    /// each pair (state, doubled state) of `slots`, `max(no double,
    /// min(double/take, double/pass))`, or no double where he may not double.
    fn decide(&self, values: &[f64], slots: &[Slot]) -> Vec<f64> {
        values
            .chunks(2)
            .zip(slots.chunks(2))
            .map(|(v, s)| match (v, s) {
                ([nd, dt], [Some(base), Some(_)]) => {
                    let dt = if base.is_money() { 2.0 * dt } else { *dt };
                    let dp = raw_double_pass(base, self.met);
                    if dt >= *nd && dp >= *nd {
                        dt.min(dp)
                    } else {
                        *nd
                    }
                }
                _ => v.first().copied().unwrap_or(0.0),
            })
            .collect()
    }
}

/// [`CubeError::MatchTooLong`] unless `met` covers the score of `state`.
pub(super) fn check_covered(state: &CubeState, met: &Met) -> Result<(), CubeError> {
    if let Stakes::Match { length, away, .. } = state.stakes {
        if away.0.max(away.1) > met.max_away() || away.0 == 0 || away.1 == 0 {
            return Err(CubeError::MatchTooLong { length, max: met.max_away() });
        }
    }
    Ok(())
}

/// Cubeful values of `pos` (player on roll, before rolling) for each of
/// `states`, searched `plies` deep as gnubg does (`EvaluatePositionCubeful`):
///
/// - a leaf (0 plies left, a finished game, or a money bearoff the
///   two-sided database holds) gets the Janowski cubeful value of its static
///   probabilities with its own cube efficiency ([`cube_efficiency`]), or
///   the exact one ([`cubeful_equity_of`](super::cubeful_equity_of));
/// - an inner node averages, over the 21 rolls, the value of the position
///   after the move [`Search::value`] would play there ([`Search::play`]:
///   the best by static evaluation with the default filter), seen from the
///   other side;
/// - below the root the side on roll makes his best cube decision at every
///   node, leaves included: where he may double, his value is
///   `max(no double, min(double/take, double/pass))` (gnubg's `GetECF3`),
///   the doubled cube being searched along with the others;
/// - at the root no cube action is taken: ask for the state and its
///   [`doubled`](CubeState::doubled) state to compare no double with
///   double/take.
///
/// Unlike [`Search::value`], pure bearoff positions are searched too, except
/// in money play those the exact two-sided cubeful bearoff database holds
/// (each side at most 6 checkers): they are leaves with their exact values
/// at any depth, as in gnubg ([`cubeful_equity_of`](super::cubeful_equity_of)).
/// At 0 plies the values are [`cubeful_equity_of`](super::cubeful_equity_of)
/// of the static evaluation. From 2 plies on the 21 rolls of the root are
/// searched in parallel.
///
/// # Errors
/// [`CubeError::MatchTooLong`] if a state needs more points than `met`
/// covers.
pub fn cubeful_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    states: &[CubeState],
    met: &Met,
    plies: u8,
) -> Result<NplyCubeful, CubeError> {
    states.iter().try_for_each(|s| check_covered(s, met))?;
    let slots: Vec<Slot> = states.iter().copied().map(Some).collect();
    let (values, probabilities) = Nply { search, met }.node(pos, &slots, plies, true);
    Ok(NplyCubeful { values, probabilities })
}

/// The cube decision of `pos` (the player on roll, before rolling) in the
/// game context `ctx`, searched `plies` deep as gnubg searches it: the
/// no-double and double/take values are [`cubeful_nply`] values of the
/// current cube and of the doubled cube owned by the opponent, so that the
/// cube decisions of both sides below the root count. At 0 plies this is
/// exactly [`analyse_position`](super::analyse_position) (with the search's static evaluation).
///
/// The reported probabilities are the cubeless n-ply ones of the same
/// search, the cube efficiency is the root's, and the take point is
/// Janowski's at the n-ply chances: it is left out (`None`) where its
/// verdict differs from the searched one, which decides.
///
/// # Errors
/// [`CubeError::GameOver`] for a finished game, the errors of
/// [`CubeState::from_context`].
pub fn analyse_position_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    ctx: &GameContext,
    met: &Met,
    plies: u8,
) -> Result<CubeAnalysis, CubeError> {
    let state = CubeState::of_position_in_play(pos, ctx, met)?;
    analyse_state_nply(search, pos, &state, met, plies)
}

/// [`analyse_position_nply`] for a cube state.
///
/// # Errors
/// [`CubeError::GameOver`] for a finished game, [`CubeError::MatchTooLong`]
/// for a match longer than `met` covers.
pub fn analyse_state_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    state: &CubeState,
    met: &Met,
    plies: u8,
) -> Result<CubeAnalysis, CubeError> {
    analyse_states_nply(search, pos, std::slice::from_ref(state), met, plies)?.pop().ok_or(CubeError::GameOver)
}

/// [`analyse_state_nply`] for several cube states of one position at once
/// (one search for all of them), in the order given.
///
/// # Errors
/// As [`analyse_state_nply`].
pub fn analyse_states_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    states: &[CubeState],
    met: &Met,
    plies: u8,
) -> Result<Vec<CubeAnalysis>, CubeError> {
    if pos.game_result().is_some() {
        return Err(CubeError::GameOver);
    }
    let searched: Vec<CubeState> = states.iter().flat_map(|s| [*s, s.doubled()]).collect();
    let n = cubeful_nply(search, pos, &searched, met, plies)?;
    let p = n.probabilities.sanitized();
    let mut out = Vec::with_capacity(states.len());
    for (state, raw) in states.iter().zip(n.values.chunks(2)) {
        let [nd, dt] = *raw else { return Err(CubeError::GameOver) };
        let mut a = analysis_of_values(pos, &p, state, met, [nd, dt]);
        a.exact_bearoff = state.is_money() && bearoff_two_sided::holds(pos);
        if plies > 0 || a.exact_bearoff {
            a.drop_inconsistent_take_point();
        }
        out.push(a);
    }
    Ok(out)
}

/// The analysis of a cube decision whose no-double and double/take values
/// were found otherwise (a search, a rollout): `nd` normalised to the cube
/// and `dt` to the doubled cube in money play, match winning chances in a
/// match; `p` the cubeless probabilities. The take point is the model's:
/// callers leave it out where its verdict differs
/// ([`CubeAnalysis::drop_inconsistent_take_point`]).
pub(crate) fn analysis_of_values(
    pos: &Position,
    p: &Probabilities,
    state: &CubeState,
    met: &Met,
    [nd, dt]: [f64; 2],
) -> CubeAnalysis {
    let q = P::of(p);
    let v = match state.stakes {
        Stakes::Money { .. } => Values { nd, dt: 2.0 * dt, dp: 1.0, mwc: None },
        Stakes::Match { away, crawford, .. } => {
            let cube = state.cube;
            let dp = raw_double_pass(state, met);
            let cubeless = met.eq2mwc(q.utility(&met.gammon_prices(away, cube)), cube, away, crawford);
            Values::from_match([nd, dt, dp], cubeless, cube, away, crawford, met)
        }
    };
    assemble(p, cube_efficiency(pos), state, met, &CubeDecision::new(&v, &q, state))
}

/// A simpler n-ply cube decision: the cubeless probabilities of
/// [`Search::value`] at `plies`, fed to Janowski's model at the root
/// ([`analyse`]) with the root's cube efficiency. gnubg carries cubeful
/// values through the plies instead ([`analyse_position_nply`]); this one
/// is kept for comparison.
///
/// # Errors
/// As [`analyse_position`](super::analyse_position).
pub fn analyse_position_cubeless_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    ctx: &GameContext,
    met: &Met,
    plies: u8,
) -> Result<CubeAnalysis, CubeError> {
    let state = CubeState::of_position_in_play(pos, ctx, met)?;
    let p = search.value(pos, plies).sanitized();
    analyse(&p, cube_efficiency(pos), &state, met)
}
