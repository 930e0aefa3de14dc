//! The cube decision: the three cubeful equities (no double, double/take,
//! double/pass), gnubg's verdict, and the opponent's take point.

use super::janowski::{check_inputs, cube_efficiency, exact_money, position_cubeful, MatchScore, P};
use super::state::{CubeError, CubeState, NoDouble, Stakes};
use super::verdict::{Choice, CubeAction, Response};
use crate::met::{GammonPrices, Met};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{CubeOwner, GameContext, Position};
use serde::Serialize;

/// gnubg's tolerance for "optional" doubles (`isOptional`).
pub const OPTIONAL_EPSILON: f64 = 1e-5;

/// The three cubeful values in match winning chances.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MatchChances {
    /// No double.
    pub no_double: f64,
    /// Double, take.
    pub double_take: f64,
    /// Double, pass.
    pub double_pass: f64,
    /// The cubeless match winning chances (dead cube).
    pub cubeless: f64,
}

/// The take point of the opponent if the player on roll doubles: the least
/// winning chances with which taking is worth as much as passing, the
/// position's gammon rates held fixed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TakePoint {
    /// With the model's cube efficiency.
    pub model: f64,
    /// With a dead cube (x = 0): nobody will redouble.
    pub dead: f64,
    /// With a fully live cube (x = 1).
    pub live: f64,
    /// With the model's efficiency but no gammons at all: the score's (or
    /// money's) plain take point (money: 25% dead, 20% live).
    pub no_gammons: f64,
    /// The opponent's actual winning chances.
    pub taker_chances: f64,
}

/// The cube decision of a position for the player on roll.
#[derive(Debug, Clone, PartialEq)]
pub struct CubeAnalysis {
    /// The cube and stakes analysed.
    pub state: CubeState,
    /// The cubeless probabilities used.
    pub probabilities: Probabilities,
    /// The cube efficiency used (by the take point only where
    /// `exact_bearoff`).
    pub efficiency: f64,
    /// The three equities are the exact ones of the two-sided bearoff
    /// database (money play, each side at most 6 checkers, all home), not
    /// Janowski's.
    pub exact_bearoff: bool,
    /// The gammon prices of the current cube (the no-double branch).
    pub gammon_prices: GammonPrices,
    /// Cubeless equity: money equity in money play (gammons 2, backgammons
    /// 3); in match play gnubg's cubeless equity at the score (gammons at
    /// their gammon price), normalised to the cube.
    pub cubeless_equity: f64,
    /// The decision itself: the three equities, the verdict and why no
    /// double. Its fields read as the analysis's own (`a.no_double`,
    /// `a.action`) through `Deref`.
    pub decision: CubeDecision,
    /// The opponent's take point (when a double is possible).
    pub take_point: Option<TakePoint>,
}

/// An analysis is its decision with more: `a.no_double`, `a.action` and the
/// other fields of [`CubeDecision`] read through to it.
impl std::ops::Deref for CubeAnalysis {
    type Target = CubeDecision;

    fn deref(&self) -> &CubeDecision {
        &self.decision
    }
}

/// The lean cube decision: the three cubeful equities and gnubg's verdict,
/// without the take point or the prices of [`CubeAnalysis`] (what a rollout
/// needs at every turn). From [`decide`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubeDecision {
    /// Cubeful equity of not doubling, normalised to the current cube.
    pub no_double: f64,
    /// Cubeful equity of double/take, normalised to the current cube.
    pub double_take: f64,
    /// Equity of double/pass, normalised: `+1`.
    pub double_pass: f64,
    /// The same in match winning chances (match play only).
    pub match_chances: Option<MatchChances>,
    /// Why the player on roll may not double, if he may not.
    pub no_double_reason: Option<NoDouble>,
    /// The verdict.
    pub action: CubeAction,
}

impl CubeDecision {
    /// The verdict on three values (gnubg's `FindBestCubeDecision`).
    pub(super) fn new(v: &Values, p: &P, state: &CubeState) -> Self {
        CubeDecision {
            no_double: v.nd,
            double_take: v.dt,
            double_pass: v.dp,
            match_chances: v.mwc,
            no_double_reason: state.no_double_reason(),
            action: find_best(v, p, state),
        }
    }

    /// True if the player on roll may double (usefully) now.
    pub fn can_double(&self) -> bool {
        self.no_double_reason.is_none()
    }

    /// The opponent's correct answer to a double (`None` when the player on
    /// roll may not double).
    pub fn response(&self) -> Option<Response> {
        self.action.response()
    }

    /// The value with correct cube play by both sides, normalised:
    /// `max(no_double, min(double_take, double_pass))`, `no_double` when
    /// doubling is not possible (a beaver is not counted).
    pub fn best(&self) -> f64 {
        best_of(self.can_double(), self.no_double, self.double_take, self.double_pass)
    }

    /// The same as [`best`](Self::best) in match winning chances (`None` in
    /// money play).
    pub fn best_mwc(&self) -> Option<f64> {
        let m = self.match_chances?;
        Some(best_of(self.can_double(), m.no_double, m.double_take, m.double_pass))
    }
}

fn best_of(can_double: bool, nd: f64, dt: f64, dp: f64) -> f64 {
    if can_double {
        nd.max(dt.min(dp))
    } else {
        nd
    }
}

/// No double, double/take, double/pass: normalised equities and (match)
/// match winning chances.
#[derive(Debug, Clone, Copy)]
pub(super) struct Values {
    pub(super) nd: f64,
    pub(super) dt: f64,
    pub(super) dp: f64,
    pub(super) mwc: Option<MatchChances>,
}

impl Values {
    /// A match decision: the no double, double/take and double/pass match
    /// winning chances (and the cubeless one), reported as they are and on
    /// gnubg's money-like scale (`mwc2eq`).
    pub(super) fn from_match(
        [nd, dt, dp]: [f64; 3],
        cubeless: f64,
        cube: u32,
        away: (u32, u32),
        crawford: bool,
        met: &Met,
    ) -> Values {
        let eq = |m: f64| met.mwc2eq(m, cube, away, crawford);
        Values {
            nd: eq(nd),
            dt: eq(dt),
            dp: eq(dp),
            mwc: Some(MatchChances { no_double: nd, double_take: dt, double_pass: dp, cubeless }),
        }
    }
}

/// The three values of a decision; from the exact two-sided bearoff
/// database where `pos` is given and held ([`position_cubeful`]).
fn values(pos: Option<&Position>, p: &P, x: f64, state: &CubeState, met: &Met) -> Values {
    match state.stakes {
        Stakes::Money { .. } => Values {
            nd: position_cubeful(pos, p, x, state, met),
            dt: 2.0 * position_cubeful(pos, p, x, &state.doubled(), met),
            dp: 1.0,
            mwc: None,
        },
        Stakes::Match { away, crawford, .. } => {
            let score = MatchScore { met, away, crawford };
            let cube = state.cube;
            let nd = position_cubeful(pos, p, x, state, met);
            let dt = position_cubeful(pos, p, x, &state.doubled(), met);
            let dp = score.me(0, cube, true);
            let cubeless = met.eq2mwc(p.utility(&met.gammon_prices(away, cube)), cube, away, crawford);
            Values::from_match([nd, dt, dp], cubeless, cube, away, crawford, met)
        }
    }
}

/// gnubg's `FindBestCubeDecision`.
fn find_best(v: &Values, p: &P, state: &CubeState) -> CubeAction {
    use CubeAction as A;
    let centred = state.owner == CubeOwner::Centered;
    if state.no_double_reason().is_some() {
        return if !state.is_money() && state.owner != CubeOwner::Opponent {
            if centred {
                A::NeverDoubleDeadCube
            } else {
                A::NeverRedoubleDeadCube
            }
        } else {
            A::NotAvailable
        };
    }
    let (money, jacoby, beavers) = match state.stakes {
        Stakes::Money { jacoby, beaver } => (true, jacoby, beaver),
        Stakes::Match { .. } => (false, false, false),
    };
    let optional = |a: f64, b: f64| (a - b).abs() <= OPTIONAL_EPSILON;
    let wins_gammons = p.wg > 0.0;
    let pick = |c: A, r: A| if centred { c } else { r };
    let beaver_window = money && beavers && (-2.0..=0.0).contains(&v.dt);
    if v.dt >= v.nd && v.dp >= v.nd {
        if v.dp > v.dt {
            let f = optional(v.dt, v.nd);
            if beaver_window {
                if v.dt * 2.0 < v.nd {
                    A::NoDoubleBeaver
                } else if f {
                    A::OptionalDoubleBeaver
                } else {
                    A::DoubleBeaver
                }
            } else if f {
                pick(A::OptionalDoubleTake, A::OptionalRedoubleTake)
            } else {
                pick(A::DoubleTake, A::RedoubleTake)
            }
        } else if optional(v.nd, v.dp) && wins_gammons && (!money || !centred || !jacoby) {
            pick(A::OptionalDoublePass, A::OptionalRedoublePass)
        } else {
            pick(A::DoublePass, A::RedoublePass)
        }
    } else if v.nd > v.dt {
        if v.dt > v.dp {
            if wins_gammons {
                pick(A::TooGoodPass, A::TooGoodRedoublePass)
            } else {
                pick(A::DoublePass, A::RedoublePass)
            }
        } else if v.nd > v.dp {
            if wins_gammons {
                pick(A::TooGoodTake, A::TooGoodRedoubleTake)
            } else {
                pick(A::NoDoubleTake, A::NoRedoubleTake)
            }
        } else if beaver_window {
            pick(A::NoDoubleBeaver, A::NoRedoubleBeaver)
        } else {
            pick(A::NoDoubleTake, A::NoRedoubleTake)
        }
    } else if wins_gammons {
        pick(A::TooGoodPass, A::TooGoodRedoublePass)
    } else {
        pick(A::DoublePass, A::RedoublePass)
    }
}

/// Finds the doubler's winning chances at which `f` (increasing) crosses 0.
fn crossing(f: impl Fn(f64) -> f64) -> Option<f64> {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    if f(lo) >= 0.0 || f(hi) <= 0.0 {
        return None;
    }
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    Some(0.5 * (lo + hi))
}

fn take_point(p: &P, x: f64, state: &CubeState, met: &Met) -> Option<TakePoint> {
    let taker = |q: &P, x: f64| {
        crossing(|w| {
            let v = values(None, &q.with_win(w), x, state, met);
            v.dt - v.dp
        })
        .map(|w| 1.0 - w)
    };
    Some(TakePoint {
        model: taker(p, x)?,
        dead: taker(p, 0.0)?,
        live: taker(p, 1.0)?,
        no_gammons: taker(&p.without_gammons(), x)?,
        taker_chances: 1.0 - p.w,
    })
}

/// The cube decision from cubeless probabilities `p` of the player on roll
/// (before his roll) and the cube efficiency `x` ([`cube_efficiency`]).
///
/// # Errors
/// [`CubeError::Probabilities`] or [`CubeError::Efficiency`] for inputs that
/// are not probabilities.
///
/// ```
/// use gammon_engine::cube::{analyse, CubeAction, CubeState};
/// use gammon_engine::met::Met;
/// use gammon_eval::Probabilities;
/// use gammon_rules::CubeOwner;
/// // A race where the player on roll wins 80%, no gammons: double, pass.
/// let p = Probabilities::from_array([0.8, 0.0, 0.0, 0.0, 0.0]);
/// let state = CubeState::money(1, CubeOwner::Centered, false, false);
/// let a = analyse(&p, 0.65, &state, Met::kazaross_xg2()).unwrap();
/// assert_eq!(a.action, CubeAction::DoublePass);
/// assert_eq!(a.double_pass, 1.0);
/// ```
pub fn analyse(p: &Probabilities, x: f64, state: &CubeState, met: &Met) -> Result<CubeAnalysis, CubeError> {
    let d = decide(p, x, state, met)?;
    Ok(assemble(p, x, state, met, &d))
}

/// The cube decision alone, as [`analyse`] makes it (the same equities and
/// verdict) but without solving for the take point: cheap enough for every
/// turn of a rollout.
///
/// # Errors
/// As [`analyse`].
///
/// ```
/// use gammon_engine::cube::{decide, CubeAction, CubeState, Response};
/// use gammon_engine::met::Met;
/// use gammon_eval::Probabilities;
/// use gammon_rules::CubeOwner;
/// let p = Probabilities::from_array([0.8, 0.0, 0.0, 0.0, 0.0]);
/// let state = CubeState::money(1, CubeOwner::Centered, false, false);
/// let d = decide(&p, 0.65, &state, Met::kazaross_xg2()).unwrap();
/// assert_eq!((d.action, d.response()), (CubeAction::DoublePass, Some(Response::Pass)));
/// assert_eq!(d.best(), 1.0);
/// ```
pub fn decide(p: &Probabilities, x: f64, state: &CubeState, met: &Met) -> Result<CubeDecision, CubeError> {
    check_inputs(p, x)?;
    let q = P::of(p);
    Ok(CubeDecision::new(&values(None, &q, x, state, met), &q, state))
}

/// [`decide`] for the position `pos` whose probabilities `p` are: in money
/// play, where the two-sided bearoff database holds `pos` (each side at most
/// 6 checkers, all home), the three equities are its exact cubeful ones and
/// `p` and `x` are not used for them; otherwise (and always in match play)
/// Janowski's, as [`decide`].
///
/// # Errors
/// As [`decide`].
pub fn decide_for(
    pos: &Position,
    p: &Probabilities,
    x: f64,
    state: &CubeState,
    met: &Met,
) -> Result<CubeDecision, CubeError> {
    check_inputs(p, x)?;
    let q = P::of(p);
    Ok(CubeDecision::new(&values(Some(pos), &q, x, state, met), &q, state))
}

/// [`analyse`] for the position `pos`, exact where [`decide_for`] is. The
/// take point stays the model's (Janowski's at `p` and `x`); it is left out
/// where its verdict differs from the exact one.
///
/// # Errors
/// As [`analyse`].
pub fn analyse_for(
    pos: &Position,
    p: &Probabilities,
    x: f64,
    state: &CubeState,
    met: &Met,
) -> Result<CubeAnalysis, CubeError> {
    let d = decide_for(pos, p, x, state, met)?;
    let mut a = assemble(p, x, state, met, &d);
    if exact_money(pos, state).is_some() {
        a.exact_bearoff = true;
        a.drop_inconsistent_take_point();
    }
    Ok(a)
}

/// The analysis of a decision: prices, cubeless equity, take point.
pub(super) fn assemble(p: &Probabilities, x: f64, state: &CubeState, met: &Met, d: &CubeDecision) -> CubeAnalysis {
    let q = P::of(p);
    let no_double_reason = d.no_double_reason;
    let gammon_prices = state.gammon_prices(met);
    let cubeless_equity = match state.stakes {
        Stakes::Money { .. } => q.utility(&GammonPrices::MONEY),
        Stakes::Match { .. } => q.utility(&gammon_prices),
    };
    let take_point = if no_double_reason.is_none() { take_point(&q, x, state, met) } else { None };
    CubeAnalysis {
        state: *state,
        probabilities: *p,
        efficiency: x,
        exact_bearoff: false,
        gammon_prices,
        cubeless_equity,
        decision: *d,
        take_point,
    }
}

/// The cube decision of `pos` (the player on roll, before rolling) in the
/// game context `ctx`, with the 0-ply evaluation of `evaluator` and gnubg's
/// cube efficiency for the position.
///
/// # Errors
/// [`CubeError::GameOver`] for a finished game, the errors of
/// [`CubeState::from_context`] and [`analyse`].
pub fn analyse_position<E: Evaluator + ?Sized>(
    evaluator: &E,
    pos: &Position,
    ctx: &GameContext,
    met: &Met,
) -> Result<CubeAnalysis, CubeError> {
    let state = CubeState::of_position_in_play(pos, ctx, met)?;
    let p = evaluator.evaluate(pos).sanitized();
    analyse_for(pos, &p, cube_efficiency(pos), &state, met)
}

impl CubeAnalysis {
    /// Leaves out the take point where its verdict (take when the taker's
    /// chances reach it) differs from the one decided, which came from
    /// other values (a search, the exact bearoff database).
    pub(crate) fn drop_inconsistent_take_point(&mut self) {
        if let (Some(tp), Some(r)) = (self.take_point, self.response()) {
            if (tp.taker_chances >= tp.model) != (r != Response::Pass) {
                self.take_point = None;
            }
        }
    }

    /// True if the player on roll may double (usefully) now.
    pub fn can_double(&self) -> bool {
        self.no_double_reason.is_none()
    }

    /// The opponent's correct answer to a double (`None` when the player on
    /// roll may not double).
    pub fn response(&self) -> Option<Response> {
        self.action.response()
    }

    /// The value with correct cube play by both sides, normalised, as gnubg
    /// reports it (`max(no_double, min(double_take, double_pass))`, `no_double`
    /// when doubling is not possible). A beaver is not counted here: see
    /// [`beaver_equity`](Self::beaver_equity).
    pub fn best(&self) -> f64 {
        best_of(self.can_double(), self.no_double, self.double_take, self.double_pass)
    }

    /// The same as [`best`](Self::best) in match winning chances.
    pub fn best_mwc(&self) -> Option<f64> {
        self.decision.best_mwc()
    }

    /// Money play with beavers: the doubler's equity after a beaver
    /// (cube at four times, owned by the beaverer), `2 * double_take`,
    /// normalised to the current cube. `None` without beavers.
    pub fn beaver_equity(&self) -> Option<f64> {
        matches!(self.state.stakes, Stakes::Money { beaver: true, .. }).then_some(2.0 * self.double_take)
    }

    /// Money play with beavers: the doubler's equity if he raccoons a
    /// beaver (eight times the cube, the beaverer keeps it), `4 *
    /// double_take`. `None` without beavers.
    pub fn raccoon_equity(&self) -> Option<f64> {
        matches!(self.state.stakes, Stakes::Money { beaver: true, .. }).then_some(4.0 * self.double_take)
    }

    /// The three choices in gnubg's order (`getCubeDecisionOrdering`): the
    /// correct one first; each with its normalised equity, its match
    /// winning chances (match play) and its difference to the first.
    pub fn ranked(&self) -> Vec<(Choice, f64, Option<f64>, f64)> {
        use CubeAction as A;
        let order = match self.action {
            A::DoubleTake | A::DoubleBeaver | A::RedoubleTake => {
                [Choice::DoubleTake, Choice::DoublePass, Choice::NoDouble]
            }
            A::DoublePass | A::RedoublePass => [Choice::DoublePass, Choice::DoubleTake, Choice::NoDouble],
            A::TooGoodPass | A::TooGoodRedoublePass | A::OptionalDoublePass | A::OptionalRedoublePass => {
                [Choice::NoDouble, Choice::DoubleTake, Choice::DoublePass]
            }
            _ => [Choice::NoDouble, Choice::DoublePass, Choice::DoubleTake],
        };
        let value = |c: Choice| match c {
            Choice::NoDouble => (self.no_double, self.match_chances.map(|m| m.no_double)),
            Choice::DoubleTake => (self.double_take, self.match_chances.map(|m| m.double_take)),
            Choice::DoublePass => (self.double_pass, self.match_chances.map(|m| m.double_pass)),
        };
        let first = value(order[0]).0;
        order
            .iter()
            .filter(|&&c| self.can_double() || c == Choice::NoDouble)
            .map(|&c| {
                let (eq, mwc) = value(c);
                (c, eq, mwc, eq - first)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: [f32; 5]) -> Probabilities {
        Probabilities::from_array(a)
    }

    #[test]
    fn bad_inputs_are_errors() {
        let met = Met::kazaross_xg2();
        let s = CubeState::money(1, CubeOwner::Centered, false, false);
        assert!(matches!(analyse(&p([f32::NAN, 0.0, 0.0, 0.0, 0.0]), 0.68, &s, met), Err(CubeError::Probabilities(_))));
        assert!(matches!(analyse(&p([0.5, 0.6, 0.0, 0.0, 0.0]), 0.68, &s, met), Err(CubeError::Probabilities(_))));
        assert!(matches!(analyse(&p([0.5, 0.1, 0.0, 0.0, 0.0]), 1.5, &s, met), Err(CubeError::Efficiency(_))));
    }

    #[test]
    fn decide_is_the_decision_of_analyse() {
        let met = Met::kazaross_xg2();
        let money = CubeState::money(1, CubeOwner::Centered, false, false);
        let owned = CubeState::money(2, CubeOwner::Opponent, false, false);
        let matched = CubeState {
            cube: 1,
            owner: CubeOwner::OnRoll,
            max_cube: 64,
            stakes: Stakes::Match { length: 7, away: (3, 5), crawford: false },
        };
        for state in [money, owned, matched] {
            for w in [0.3f32, 0.6, 0.7, 0.8, 0.9] {
                let p = p([w, 0.2 * w, 0.0, 0.1 * (1.0 - w), 0.0]);
                let d = decide(&p, 0.68, &state, met).unwrap();
                let a = analyse(&p, 0.68, &state, met).unwrap();
                assert_eq!((d.no_double, d.double_take, d.double_pass), (a.no_double, a.double_take, a.double_pass));
                assert_eq!(
                    (d.action, d.no_double_reason, d.match_chances),
                    (a.action, a.no_double_reason, a.match_chances)
                );
                assert_eq!(d.best(), a.best());
                let expected =
                    if d.can_double() { d.no_double.max(d.double_take.min(d.double_pass)) } else { d.no_double };
                assert_eq!(d.best(), expected);
            }
        }
        let d = decide(&p([0.8, 0.0, 0.0, 0.0, 0.0]), 0.68, &money, met).unwrap();
        assert_eq!((d.action, d.best()), (CubeAction::DoublePass, 1.0));
        let d = decide(&p([0.7, 0.1, 0.0, 0.0, 0.0]), 0.68, &owned, met).unwrap();
        assert_eq!((d.action, d.response(), d.best()), (CubeAction::NotAvailable, None, d.no_double));
    }

    #[test]
    fn crossing_finds_roots() {
        let r = crossing(|w| w - 0.3).unwrap();
        assert!((r - 0.3).abs() < 1e-12);
        assert!(crossing(|w| w + 1.0).is_none());
    }
}
