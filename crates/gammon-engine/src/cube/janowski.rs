//! Janowski's cubeful equities as gnubg computes them: the cube efficiency
//! of a position and the money (`Cl2CfMoney`) and match (`Cl2CfMatch`)
//! formulas.

use super::state::{CubeError, CubeState, Stakes};
use crate::met::{GammonPrices, Met};
use gammon_eval::bearoff_two_sided::{self, bearoff_two_sided_db};
use gammon_eval::{PositionClass, Probabilities};
use gammon_rules::{CubeOwner, Position};

/// gnubg's `rContactX`: cube efficiency of contact positions.
pub const CONTACT_X: f64 = 0.68;
/// gnubg's `rCrashedX`: cube efficiency of crashed positions (contact with
/// few checkers left in play); the same as contact.
pub const CRASHED_X: f64 = 0.68;
/// gnubg's `rOSCubeX`: cube efficiency of bearoffs (no contact, both sides
/// home).
pub const BEAROFF_X: f64 = 0.6;
/// gnubg's `rRaceFactorX`: race efficiency per pip of the player on roll.
pub const RACE_FACTOR_X: f64 = 0.00125;
/// gnubg's `rRaceCoefficientX`: race efficiency at 0 pips (before clamping).
pub const RACE_COEFFICIENT_X: f64 = 0.55;
/// gnubg's `rRaceMax`: the largest race efficiency.
pub const RACE_MAX_X: f64 = 0.7;
/// gnubg's `rRaceMin`: the smallest race efficiency.
pub const RACE_MIN_X: f64 = 0.6;

/// The cube efficiency gnubg uses for a position (seen from the side on
/// roll): 0.68 with contact, 0.6 in a bearoff (both sides home, no
/// contact), `0.55 + 0.00125 * pips` of the player on roll clamped to
/// 0.6..0.7 in other races, 0 once the game is over.
///
/// ```
/// use gammon_engine::cube::cube_efficiency;
/// use gammon_rules::Position;
/// assert_eq!(cube_efficiency(&Position::STARTING), 0.68);
/// ```
pub fn cube_efficiency(pos: &Position) -> f64 {
    match PositionClass::of(pos) {
        PositionClass::Finished => 0.0,
        PositionClass::Contact => CONTACT_X,
        PositionClass::Crashed => CRASHED_X,
        PositionClass::Bearoff => BEAROFF_X,
        PositionClass::Race => {
            let pips = f64::from(pos.pip_count().0);
            (RACE_COEFFICIENT_X + RACE_FACTOR_X * pips).clamp(RACE_MIN_X, RACE_MAX_X)
        }
    }
}

/// Probabilities in f64, cumulative as gnubg's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct P {
    pub(super) w: f64,
    pub(super) wg: f64,
    pub(super) wbg: f64,
    pub(super) lg: f64,
    pub(super) lbg: f64,
}

impl P {
    pub(super) fn of(p: &Probabilities) -> Self {
        P {
            w: f64::from(p.win),
            wg: f64::from(p.win_gammon),
            wbg: f64::from(p.win_backgammon),
            lg: f64::from(p.lose_gammon),
            lbg: f64::from(p.lose_backgammon),
        }
    }

    /// Conditional rates: (gammon-only, backgammon) per win; the same per
    /// loss.
    fn rates(&self) -> ([f64; 2], [f64; 2]) {
        let (g0, bg0) = if self.w > 0.0 { ((self.wg - self.wbg) / self.w, self.wbg / self.w) } else { (0.0, 0.0) };
        let (g1, bg1) =
            if self.w < 1.0 { ((self.lg - self.lbg) / (1.0 - self.w), self.lbg / (1.0 - self.w)) } else { (0.0, 0.0) };
        ([g0, g1], [bg0, bg1])
    }

    /// The same gammon rates with winning chances `w`.
    pub(super) fn with_win(&self, w: f64) -> Self {
        let win = |x: f64| if self.w > 0.0 { x / self.w * w } else { 0.0 };
        let lose = |x: f64| if self.w < 1.0 { x / (1.0 - self.w) * (1.0 - w) } else { 0.0 };
        P { w, wg: win(self.wg), wbg: win(self.wbg), lg: lose(self.lg), lbg: lose(self.lbg) }
    }

    pub(super) fn without_gammons(&self) -> Self {
        P { w: self.w, wg: 0.0, wbg: 0.0, lg: 0.0, lbg: 0.0 }
    }

    /// gnubg's `Utility`: cubeless equity with these gammon prices.
    pub(super) fn utility(&self, g: &GammonPrices) -> f64 {
        2.0 * self.w - 1.0 + self.wg * g.my_gammon - self.lg * g.opp_gammon + self.wbg * g.my_backgammon
            - self.lbg * g.opp_backgammon
    }
}

fn ratio(num: f64, den: f64) -> f64 {
    if den.abs() < 1e-12 {
        0.0
    } else {
        num / den
    }
}

/// gnubg's `MoneyLive`: the fully live cubeful equity, normalised.
fn money_live(wa: f64, la: f64, p: f64, owner: CubeOwner, jacoby: bool) -> f64 {
    let tp = (la - 0.5) / (wa + la + 0.5);
    let cp = (la + 1.0) / (wa + la + 0.5);
    match owner {
        CubeOwner::Centered => {
            if p < tp {
                if jacoby {
                    -1.0
                } else {
                    -la + (-1.0 + la) * p / tp
                }
            } else if p < cp {
                -1.0 + 2.0 * (p - tp) / (cp - tp)
            } else if jacoby {
                1.0
            } else {
                1.0 + (wa - 1.0) * (p - cp) / (1.0 - cp)
            }
        }
        CubeOwner::OnRoll => {
            if p < cp {
                -la + (1.0 + la) * p / cp
            } else {
                1.0 + (wa - 1.0) * (p - cp) / (1.0 - cp)
            }
        }
        CubeOwner::Opponent => {
            if p < tp {
                -la + (-1.0 + la) * p / tp
            } else {
                -1.0 + (wa + 1.0) * (p - tp) / (1.0 - tp)
            }
        }
    }
}

/// gnubg's `Cl2CfMoney`: cubeful money equity, normalised to the cube.
pub(super) fn cubeful_money(p: &P, x: f64, owner: CubeOwner, jacoby: bool) -> f64 {
    let prices = if jacoby && owner == CubeOwner::Centered { GammonPrices::NONE } else { GammonPrices::MONEY };
    let dead = p.utility(&prices);
    if p.w <= 1e-7 || p.w >= 0.999_999_9 {
        return dead;
    }
    let wa = 1.0 + (p.wg + p.wbg) / p.w;
    let la = 1.0 + (p.lg + p.lbg) / (1.0 - p.w);
    dead * (1.0 - x) + money_live(wa, la, p.w, owner, jacoby) * x
}

/// A score in a match, for the cubeful formulas.
#[derive(Debug, Clone, Copy)]
pub(super) struct MatchScore<'a> {
    pub(super) met: &'a Met,
    pub(super) away: (u32, u32),
    pub(super) crawford: bool,
}

impl MatchScore<'_> {
    /// Match winning chances of player `k` (0 = on roll) after player `k`
    /// (`k_wins`) or the other wins `points`: gnubg's `getMEMultiple`.
    pub(super) fn me(&self, k: usize, points: u32, k_wins: bool) -> f64 {
        if k == 0 {
            self.met.mwc_after(self.away, self.crawford, points, k_wins)
        } else {
            1.0 - self.met.mwc_after(self.away, self.crawford, points, !k_wins)
        }
    }

    /// P(k wins the game) weighted over single, gammon and backgammon, with
    /// cube `c` and the given (gammon-only, backgammon) rates of the winner.
    fn weighted(&self, k: usize, k_wins: bool, c: u32, g: f64, bg: f64) -> f64 {
        (1.0 - g - bg) * self.me(k, c, k_wins)
            + g * self.me(k, c.saturating_mul(2), k_wins)
            + bg * self.me(k, c.saturating_mul(3), k_wins)
    }

    /// gnubg's `GetPoints`: the live-cube cash points of both players at
    /// cube `cube` (index 0 = on roll).
    fn cash_points(&self, p: &P, cube: u32) -> [f64; 2] {
        let (g, bg) = p.rates();
        let i = i64::from(self.away.0) - 1;
        let j = i64::from(self.away.1) - 1;
        let cube = i64::from(cube);
        let prime = |a: i64, b: i64, c: i64| if a < 2 * c && b >= 2 * c { 2 * c } else { c };
        let mut dead = cube;
        let mut levels = 0usize;
        while i >= 2 * dead && j >= 2 * dead {
            levels += 1;
            dead *= 2;
        }
        let mut live = vec![[0.0f64; 2]; levels + 2];
        let mut c = dead;
        let mut n = levels;
        let pts = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
        loop {
            let primes = [prime(i, j, c), prime(j, i, c)];
            for k in 0..2 {
                let o = 1 - k;
                if i < 2 * c || j < 2 * c {
                    // The doubled cube will be dead.
                    let cp = primes[k];
                    let dtl = (1.0 - g[o] - bg[o]) * self.me(k, pts(2 * cp), false)
                        + g[o] * self.me(k, pts(4 * cp), false)
                        + bg[o] * self.me(k, pts(6 * cp), false);
                    let dp = self.me(k, pts(c), true);
                    let dtw = (1.0 - g[k] - bg[k]) * self.me(k, pts(2 * cp), true)
                        + g[k] * self.me(k, pts(4 * cp), true)
                        + bg[k] * self.me(k, pts(6 * cp), true);
                    live[n][k] = ratio(dtl - dp, dtl - dtw);
                } else {
                    // The doubled cube is alive: use the opponent's cash
                    // point one level up.
                    let rdp = self.me(k, pts(2 * c), false);
                    let dp = self.me(k, pts(c), true);
                    let dtw = (1.0 - g[k] - bg[k]) * self.me(k, pts(2 * c), true)
                        + g[k] * self.me(k, pts(4 * c), true)
                        + bg[k] * self.me(k, pts(6 * c), true);
                    live[n][k] = 1.0 - live[n + 1][o] * ratio(dp - dtw, rdp - dtw);
                }
            }
            if n == 0 || c <= cube {
                break;
            }
            c /= 2;
            n -= 1;
        }
        live[0]
    }
}

/// gnubg's `fDoCubeful`: false when the cube cannot matter any more.
fn match_cube_alive(away: (u32, u32), cube: u32, crawford: bool) -> bool {
    !(crawford || (away.0 <= cube && away.1 <= cube) || away == (2, 2))
}

/// gnubg's `Cl2CfMatch`: cubeful match winning chances.
pub(super) fn cubeful_match(p: &P, x: f64, cube: u32, owner: CubeOwner, score: &MatchScore) -> f64 {
    let met = score.met;
    let prices = met.gammon_prices(score.away, cube);
    let dead = met.eq2mwc(p.utility(&prices), cube, score.away, score.crawford);
    if !match_cube_alive(score.away, cube, score.crawford) {
        return dead;
    }
    let (g, bg) = p.rates();
    let cp = score.cash_points(p, cube);
    let cash = score.me(0, cube, true);
    let opp_cash = score.me(0, cube, false);
    let lose = score.weighted(0, false, cube, g[1], bg[1]);
    let win = score.weighted(0, true, cube, g[0], bg[0]);
    let opp_too_good = 1.0 - cp[1];
    let too_good = cp[0];
    let w = p.w;
    let from_loss = |top: f64| if opp_too_good > 0.0 { lose + (top - lose) * w / opp_too_good } else { lose };
    let to_win = |from: f64, at: f64| if at < 1.0 { from + (win - from) * (w - at) / (1.0 - at) } else { win };
    let live = match owner {
        CubeOwner::Centered => {
            if w <= opp_too_good {
                from_loss(opp_cash)
            } else if w < too_good {
                opp_cash + (cash - opp_cash) * (w - opp_too_good) / (too_good - opp_too_good)
            } else {
                to_win(cash, too_good)
            }
        }
        CubeOwner::OnRoll => {
            if w <= too_good {
                if too_good > 0.0 {
                    lose + (cash - lose) * w / too_good
                } else {
                    lose
                }
            } else {
                to_win(cash, too_good)
            }
        }
        CubeOwner::Opponent => {
            if w <= opp_too_good {
                from_loss(opp_cash)
            } else {
                opp_cash + (win - opp_cash) * (w - opp_too_good) / (1.0 - opp_too_good)
            }
        }
    };
    dead * (1.0 - x) + live * x
}

/// The cubeful equity of the player on roll for a cube state: in money play
/// normalised to the cube, in match play as match winning chances. This is
/// gnubg's `Cl2CfMoney` / `Cl2CfMatch`, the static (leaf) cubeful value an
/// n-ply cubeful search builds on. Without a position it is always
/// Janowski's: see [`cubeful_equity_of`] for the exact bearoff values.
///
/// # Errors
/// [`CubeError::Probabilities`] / [`CubeError::Efficiency`] for values that
/// are not probabilities.
pub fn cubeful_equity(p: &Probabilities, x: f64, state: &CubeState, met: &Met) -> Result<f64, CubeError> {
    check_inputs(p, x)?;
    Ok(position_cubeful(None, &P::of(p), x, state, met))
}

/// The cubeless match winning chances of the player on roll for a match
/// cube state: the game played out for the cube as it is, each result worth
/// the match equity it leaves (gnubg's dead-cube value). `None` in money
/// play.
///
/// # Errors
/// [`CubeError::Probabilities`] for values that are not probabilities.
pub fn cubeless_mwc(p: &Probabilities, state: &CubeState, met: &Met) -> Result<Option<f64>, CubeError> {
    check_inputs(p, 0.0)?;
    let Stakes::Match { away, crawford, .. } = state.stakes else { return Ok(None) };
    let prices = met.gammon_prices(away, state.cube);
    Ok(Some(met.eq2mwc(P::of(p).utility(&prices), state.cube, away, crawford)))
}

/// The exact money equity of the player on roll in `pos` with no cube
/// action by him now, per unit cube, where the two-sided bearoff database
/// holds `pos` ([`gammon_eval::bearoff_two_sided`]); `None` otherwise and in match
/// play. A cube that may not be turned again (the maximum cube) is dead:
/// the game is then played for the cube, `2W - 1`. The database's own
/// recursion has no maximum cube and no beavers.
pub(super) fn exact_money(pos: &Position, state: &CubeState) -> Option<f64> {
    if !state.is_money() || !bearoff_two_sided::holds(pos) {
        return None;
    }
    let v = bearoff_two_sided_db().evaluate(pos)?;
    if state.cube.checked_mul(2).is_none_or(|c| c > state.max_cube) {
        return Some(2.0 * f64::from(v.win) - 1.0);
    }
    Some(v.no_double(state.owner))
}

/// **The** cubeful value of a position for a cube state, with no cube
/// action by the player on roll now: the exact money equity of the
/// two-sided bearoff database where it holds `pos` ([`exact_money`]), else
/// Janowski's formula on the cubeless probabilities `p` with efficiency `x`
/// (money normalised to the state's cube, match winning chances in a
/// match). Every cube decision and the n-ply cube search get their
/// cubeful values here.
pub(super) fn position_cubeful(pos: Option<&Position>, p: &P, x: f64, s: &CubeState, met: &Met) -> f64 {
    if let Some(e) = pos.and_then(|pos| exact_money(pos, s)) {
        return e;
    }
    match s.stakes {
        Stakes::Money { jacoby, .. } => cubeful_money(p, x, s.owner, jacoby),
        Stakes::Match { away, crawford, .. } => {
            cubeful_match(p, x, s.cube, s.owner, &MatchScore { met, away, crawford })
        }
    }
}

/// [`cubeful_equity`] of a position: exact in money play where the
/// two-sided bearoff database holds `pos` (each side at most 6 checkers, all
/// home), else Janowski's formula on `p` with efficiency `x`.
///
/// # Errors
/// As [`cubeful_equity`].
pub fn cubeful_equity_of(
    pos: &Position,
    p: &Probabilities,
    x: f64,
    state: &CubeState,
    met: &Met,
) -> Result<f64, CubeError> {
    check_inputs(p, x)?;
    Ok(position_cubeful(Some(pos), &P::of(p), x, state, met))
}

pub(super) fn check_inputs(p: &Probabilities, x: f64) -> Result<(), CubeError> {
    let a = p.to_array();
    let ok = a.iter().all(|v| v.is_finite() && (0.0..=1.0).contains(v))
        && p.win_backgammon <= p.win_gammon + 1e-6
        && p.win_gammon <= p.win + 1e-6
        && p.lose_backgammon <= p.lose_gammon + 1e-6
        && p.lose_gammon <= 1.0 - p.win + 1e-6;
    if !ok {
        return Err(CubeError::Probabilities(a));
    }
    if !(x.is_finite() && (0.0..=1.0).contains(&x)) {
        return Err(CubeError::Efficiency(x));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn with_win_keeps_gammon_rates() {
        let q = P::of(&Probabilities::from_array([0.5, 0.2, 0.05, 0.1, 0.02]));
        let r = q.with_win(0.8);
        assert!((r.wg / r.w - 0.4).abs() < 1e-6);
        assert!((r.lg / (1.0 - r.w) - 0.2).abs() < 1e-6);
    }
}
