//! Doubling-cube decisions for money and match play, from cubeless
//! probabilities, with Janowski's model as gnubg implements it.
//!
//! # The model
//!
//! The cubeless probabilities `(W, Wg, Wbg, Lg, Lbg)` of the player on roll
//! ("X"; the opponent is "O") give the **dead-cube** equity (nobody will ever
//! use the cube again: the cubeless equity at the score, times the cube) and,
//! by linear interpolation between the take and cash points, the
//! **live-cube** equity of a player who can cash at exactly his cash point
//! (Janowski, "Take-points in money games", 1993; for match play Jørn
//! Thyssen's generalisation in gnubg). The cubeful equity is the blend
//! `(1 - x) * dead + x * live` with the **cube efficiency** `x`
//! ([`cube_efficiency`]): gnubg's `rContactX = rCrashedX = 0.68` for contact
//! positions, `rOSCubeX = 0.6` for bearoffs (both sides home, no contact)
//! and for other races `x = 0.55 + 0.00125 * pips` of the player on roll
//! (`rRaceCoefficientX`, `rRaceFactorX`), kept within `rRaceMin = 0.6` and
//! `rRaceMax = 0.7`.
//!
//! Money play (gnubg's `Cl2CfMoney` and `MoneyLive`): with
//! `Wa = 1 + (Wg + Wbg) / W` the average value of X's wins and
//! `La = 1 + (Lg + Lbg) / (1 - W)` of his losses,
//!
//! - the opponent's take point (X's chances at which O's take is worth
//!   exactly a pass) is `TP = (La - 1/2) / (Wa + La + 1/2)` and X's cash
//!   point `CP = (La + 1) / (Wa + La + 1/2)`;
//! - centred cube: live equity `-La` at `W = 0`, `-1` at `TP`, `+1` at `CP`,
//!   `+Wa` at `W = 1` (with the Jacoby rule, `-1` below `TP` and `+1` above
//!   `CP`: a game played out without a cube turn scores single);
//! - cube owned by X: `-La` at 0, `+1` at `CP`, `+Wa` at 1;
//! - cube owned by O: `-La` at 0, `-1` at `TP`, `+Wa` at 1.
//!
//! At `x = 0` (dead cube) the cubeful equity is the cubeless one; at `x = 1`
//! it is the fully live Janowski equity.
//!
//! Match play (gnubg's `Cl2CfMatch`): the same interpolation in match winning
//! chances, with the cash points of both players computed down from the
//! largest cube that is still alive at the score (`GetPoints`), gammons valued
//! through the match equity table ([`Met`]); a cube that cannot matter any
//! more (both players would win the match with the current cube, both are
//! 2-away, or this is the Crawford game) is dead and the cubeless match
//! equity is used.
//!
//! # The decision
//!
//! Three cubeful equities of X, **normalised to the current cube** as gnubg
//! prints them (multiply by the cube value for points):
//!
//! - `no_double`: X plays on with the cube where it is;
//! - `double_take`: X doubles and O takes: the cube at twice the value owned
//!   by O (in money play twice the equity at the doubled cube, normalised);
//! - `double_pass`: X doubles and O passes: `+1` (in a match: the match
//!   winning chances after X wins the current cube value, converted to the
//!   same "equivalent-to-money" scale, which is `+1` too).
//!
//! In match play the model works in match winning chances (MWC) and converts
//! them with gnubg's `mwc2eq` ([`Met::mwc2eq`]); both are reported.
//!
//! O answers with the smaller of `double_take` and `double_pass` (for X); X
//! doubles when that beats `no_double`. The verdict names follow gnubg's
//! `FindBestCubeDecision` exactly ([`CubeAction`]): "too good" when playing
//! on beats even a pass (gammon chances), "optional" when doubling and not
//! doubling are equal within 1e-5, "dead cube" when doubling cannot gain in a
//! match, "beaver" when O should beaver.
//!
//! # Beavers and raccoons (money play)
//!
//! With beavers allowed, O may answer a double by redoubling at once to
//! four times the cube while keeping it: X's equity is then twice the
//! double/take equity, `2 * double_take` (normalised to the original cube).
//! O beavers when he is the favourite after the take (`double_take < 0`);
//! X should not double if `2 * double_take < no_double`: gnubg's "No double,
//! beaver" ([`CubeAnalysis::beaver_equity`]). After a beaver the original
//! doubler may raccoon (eight times the cube, O keeps it): `4 *
//! double_take` ([`CubeAnalysis::raccoon_equity`]). He would only do it when
//! `double_take > 0`, which is exactly when a beaver is wrong, so with one
//! evaluation for both sides a correct beaver is never raccooned; the value
//! is reported for a player who faces a (wrong) beaver.
//!
//! # The Jacoby rule (money play)
//!
//! Gammons and backgammons count single while the cube has not been turned.
//! It changes only the no-double equity with a centred cube: its dead part
//! uses gammon price 0 and its live part is flat at `-1` below the take point
//! and `+1` above the cash point. After a double the gammons count as usual.
//!
//! # Where the probabilities come from
//!
//! [`analyse`] takes cubeless probabilities and a cube efficiency, so that
//! any evaluator can feed it; [`analyse_position`] evaluates a position at 0
//! ply with an [`Evaluator`].
//!
//! # n-ply cube decisions
//!
//! [`analyse_position_nply`] searches as gnubg does (`GetCubeDecision`,
//! `EvaluatePositionCubeful`): cubeful values, not cubeless probabilities,
//! are carried through the plies ([`cubeful_nply`]). The leaves get the
//! Janowski value of their static probabilities with their own cube
//! efficiency; at every node below the root the side on roll takes his best
//! cube action (double where `min(double/take, double/pass)` beats no
//! double); the root compares no double with double/take and double/pass.
//! Moves inside the search are the ones [`Search::value`] plays (the best by
//! static evaluation), so the cubeless probabilities it reports are the
//! search's n-ply ones. At 0 plies it is [`analyse_position`].
//! [`analyse_position_cubeless_nply`] is the simpler approximation (n-ply
//! cubeless probabilities fed to Janowski's model at the root), kept for
//! comparison; `tests/cube_nply.rs` reports how both agree with gnubg's
//! 2-ply decisions.
//!
//! Positions gnubg answers from its exact two-sided bearoff database (each
//! side at most 6 checkers, all home) get the Janowski treatment here with
//! `x = 0.6`; gnubg uses exact cubeful bearoff equities there, so the two
//! can differ by a few hundredths.

use crate::met::{GammonPrices, Met};
use crate::search::Search;
use gammon_eval::{Evaluator, PositionClass, Probabilities};
use gammon_rules::{ContextError, CubeOwner, Dice, GameContext, Position, ALL_ROLLS};
use rayon::prelude::*;
use std::fmt::{self, Write as _};
use thiserror::Error;

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
/// gnubg's tolerance for "optional" doubles (`isOptional`).
pub const OPTIONAL_EPSILON: f64 = 1e-5;

/// A cube question that cannot be answered.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum CubeError {
    /// The game context breaks the rules (score, Crawford, cube value...).
    #[error(transparent)]
    Context(#[from] ContextError),
    /// The match is longer than the match equity table.
    #[error("a {length}-point match is longer than the match equity table, which covers matches up to {max} points")]
    MatchTooLong {
        /// The match length.
        length: u32,
        /// The longest match the table covers.
        max: u32,
    },
    /// Probabilities that are not numbers, or outside 0..1.
    #[error("the cubeless probabilities {0:?} are not probabilities")]
    Probabilities([f32; 5]),
    /// A cube efficiency that is not a number in 0..1.
    #[error("the cube efficiency {0} is not between 0 and 1")]
    Efficiency(f64),
    /// The game is over: there is no cube decision.
    #[error("the game is over: there is no cube decision to make")]
    GameOver,
}

/// What the game is played for, from the player on roll's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stakes {
    /// Money play.
    Money {
        /// Gammons count single until the cube is turned.
        jacoby: bool,
        /// Beavers (and raccoons) are allowed.
        beaver: bool,
    },
    /// A match.
    Match {
        /// Match length in points.
        length: u32,
        /// Points each side still needs: (player on roll, opponent).
        away: (u32, u32),
        /// This is the Crawford game.
        crawford: bool,
    },
}

/// The cube and the stakes around a cube decision, seen by the player on
/// roll (before he rolls).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CubeState {
    /// The cube value now (before any double).
    pub cube: u32,
    /// Who owns it.
    pub owner: CubeOwner,
    /// The largest value the cube may reach.
    pub max_cube: u32,
    /// Money or match.
    pub stakes: Stakes,
}

impl CubeState {
    /// Money play with the cube at `cube`, owned by `owner`.
    pub const fn money(cube: u32, owner: CubeOwner, jacoby: bool, beaver: bool) -> Self {
        CubeState { cube, owner, max_cube: GameContext::DEFAULT_MAX_CUBE, stakes: Stakes::Money { jacoby, beaver } }
    }

    /// The cube state of a game context. Its dice state is ignored: the cube
    /// decision is the one before the roll (with a double pending, the one
    /// the doubler made).
    ///
    /// # Errors
    /// [`CubeError::Context`] if the context breaks the rules,
    /// [`CubeError::MatchTooLong`] for a match longer than `met` covers.
    pub fn from_context(ctx: &GameContext, met: &Met) -> Result<Self, CubeError> {
        ctx.validate()?;
        let stakes = if ctx.is_money() {
            Stakes::Money { jacoby: ctx.jacoby, beaver: ctx.beaver }
        } else {
            if ctx.match_length > met.max_away() {
                return Err(CubeError::MatchTooLong { length: ctx.match_length, max: met.max_away() });
            }
            // validate() has checked both scores are below the length.
            let away = ctx.away().unwrap_or((1, 1));
            Stakes::Match { length: ctx.match_length, away, crawford: ctx.crawford }
        };
        Ok(CubeState { cube: ctx.cube_value, owner: ctx.cube_owner, max_cube: ctx.max_cube, stakes })
    }

    /// True in money play.
    pub const fn is_money(&self) -> bool {
        matches!(self.stakes, Stakes::Money { .. })
    }

    /// The state after X doubles and O takes: twice the cube, owned by O.
    pub fn doubled(&self) -> Self {
        CubeState { cube: self.cube.saturating_mul(2), owner: CubeOwner::Opponent, ..*self }
    }

    /// gnubg's gammon prices for this cube and score (money: 1, or 0 under
    /// the Jacoby rule with a centred cube).
    pub fn gammon_prices(&self, met: &Met) -> GammonPrices {
        match self.stakes {
            Stakes::Money { jacoby, .. } => {
                if jacoby && self.owner == CubeOwner::Centered {
                    GammonPrices::NONE
                } else {
                    GammonPrices::MONEY
                }
            }
            Stakes::Match { away, .. } => met.gammon_prices(away, self.cube),
        }
    }

    /// Why the player on roll may not double usefully now, or `None` if he
    /// may (gnubg's `GetDPEq`, plus the maximum cube).
    pub fn no_double_reason(&self) -> Option<NoDouble> {
        if self.owner == CubeOwner::Opponent {
            return Some(NoDouble::OpponentOwnsCube);
        }
        if let Stakes::Match { away, crawford, .. } = self.stakes {
            if crawford {
                return Some(NoDouble::Crawford);
            }
            if away.0 == 1 {
                return Some(NoDouble::PostCrawfordLeader);
            }
            if away.0 <= self.cube {
                return Some(NoDouble::DeadCube);
            }
        }
        if self.cube.checked_mul(2).is_none_or(|c| c > self.max_cube) {
            return Some(NoDouble::MaxCube);
        }
        None
    }
}

/// Why a player may not (usefully) double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NoDouble {
    /// The opponent owns the cube.
    OpponentOwnsCube,
    /// The Crawford game: nobody may double.
    Crawford,
    /// After the Crawford game the leader (1-away) gains nothing by
    /// doubling: he wins the match with any game he wins.
    PostCrawfordLeader,
    /// Winning this game with the cube as it is already wins the match.
    DeadCube,
    /// The cube is at its maximum value.
    MaxCube,
}

impl NoDouble {
    /// A sentence for people.
    pub const fn describe(self) -> &'static str {
        match self {
            NoDouble::OpponentOwnsCube => "the opponent owns the cube: only he may double next",
            NoDouble::Crawford => "this is the Crawford game: nobody may double",
            NoDouble::PostCrawfordLeader => {
                "after the Crawford game the leader needs only this game: doubling cannot gain him anything (dead cube)"
            }
            NoDouble::DeadCube => {
                "winning this game with the cube as it is already wins the match: doubling cannot gain anything (dead cube)"
            }
            NoDouble::MaxCube => "the cube is at its maximum value",
        }
    }
}

/// gnubg's cube verdicts (`cubedecision` in gnubg's `eval.h`, in its order,
/// so that [`code`](Self::code) is gnubg's number). The text after the comma
/// is the opponent's correct answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CubeAction {
    /// 0: "Double, take".
    DoubleTake,
    /// 1: "Double, pass".
    DoublePass,
    /// 2: "No double, take".
    NoDoubleTake,
    /// 3: "Too good to double, take".
    TooGoodTake,
    /// 4: "Too good to double, pass".
    TooGoodPass,
    /// 5: "Double, beaver".
    DoubleBeaver,
    /// 6: "No double, beaver".
    NoDoubleBeaver,
    /// 7: "Redouble, take".
    RedoubleTake,
    /// 8: "Redouble, pass".
    RedoublePass,
    /// 9: "No redouble, take".
    NoRedoubleTake,
    /// 10: "Too good to redouble, take".
    TooGoodRedoubleTake,
    /// 11: "Too good to redouble, pass".
    TooGoodRedoublePass,
    /// 12: "No redouble, beaver".
    NoRedoubleBeaver,
    /// 13: "Never double, take (dead cube)" (match play).
    NeverDoubleDeadCube,
    /// 14: "Never redouble, take (dead cube)" (match play).
    NeverRedoubleDeadCube,
    /// 15: the player on roll may not double (gnubg: "You cannot double").
    NotAvailable,
    /// 16: "Optional double, take".
    OptionalDoubleTake,
    /// 17: "Optional redouble, take".
    OptionalRedoubleTake,
    /// 18: "Optional double, beaver".
    OptionalDoubleBeaver,
    /// 19: "Optional double, pass".
    OptionalDoublePass,
    /// 20: "Optional redouble, pass".
    OptionalRedoublePass,
}

/// The opponent's answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Response {
    /// Take the cube.
    Take,
    /// Pass (drop): concede the current cube value.
    Pass,
    /// Take and redouble at once, keeping the cube (money play, beavers on).
    Beaver,
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Response::Take => "take",
            Response::Pass => "pass",
            Response::Beaver => "beaver",
        })
    }
}

impl CubeAction {
    /// gnubg's number for the verdict.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// gnubg's words (`GetCubeRecommendation`); [`NotAvailable`](Self::NotAvailable),
    /// which gnubg never prints, is "No double (cube not available)".
    pub const fn as_str(self) -> &'static str {
        match self {
            CubeAction::DoubleTake => "Double, take",
            CubeAction::DoublePass => "Double, pass",
            CubeAction::NoDoubleTake => "No double, take",
            CubeAction::TooGoodTake => "Too good to double, take",
            CubeAction::TooGoodPass => "Too good to double, pass",
            CubeAction::DoubleBeaver => "Double, beaver",
            CubeAction::NoDoubleBeaver => "No double, beaver",
            CubeAction::RedoubleTake => "Redouble, take",
            CubeAction::RedoublePass => "Redouble, pass",
            CubeAction::NoRedoubleTake => "No redouble, take",
            CubeAction::TooGoodRedoubleTake => "Too good to redouble, take",
            CubeAction::TooGoodRedoublePass => "Too good to redouble, pass",
            CubeAction::NoRedoubleBeaver => "No redouble, beaver",
            CubeAction::NeverDoubleDeadCube => "Never double, take (dead cube)",
            CubeAction::NeverRedoubleDeadCube => "Never redouble, take (dead cube)",
            CubeAction::NotAvailable => "No double (cube not available)",
            CubeAction::OptionalDoubleTake => "Optional double, take",
            CubeAction::OptionalRedoubleTake => "Optional redouble, take",
            CubeAction::OptionalDoubleBeaver => "Optional double, beaver",
            CubeAction::OptionalDoublePass => "Optional double, pass",
            CubeAction::OptionalRedoublePass => "Optional redouble, pass",
        }
    }

    /// True if the player on roll should double (optional doubles count as
    /// doubles: doubling loses nothing).
    pub const fn doubles(self) -> bool {
        matches!(
            self,
            CubeAction::DoubleTake
                | CubeAction::DoublePass
                | CubeAction::DoubleBeaver
                | CubeAction::RedoubleTake
                | CubeAction::RedoublePass
                | CubeAction::OptionalDoubleTake
                | CubeAction::OptionalRedoubleTake
                | CubeAction::OptionalDoubleBeaver
                | CubeAction::OptionalDoublePass
                | CubeAction::OptionalRedoublePass
        )
    }

    /// The opponent's correct answer if a double were offered; `None` when
    /// the player on roll may not double.
    pub const fn response(self) -> Option<Response> {
        match self {
            CubeAction::DoublePass
            | CubeAction::TooGoodPass
            | CubeAction::RedoublePass
            | CubeAction::TooGoodRedoublePass
            | CubeAction::OptionalDoublePass
            | CubeAction::OptionalRedoublePass => Some(Response::Pass),
            CubeAction::DoubleBeaver
            | CubeAction::NoDoubleBeaver
            | CubeAction::NoRedoubleBeaver
            | CubeAction::OptionalDoubleBeaver => Some(Response::Beaver),
            CubeAction::NotAvailable => None,
            _ => Some(Response::Take),
        }
    }
}

impl fmt::Display for CubeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One of the three cube choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Play on without doubling.
    NoDouble,
    /// Double, the opponent takes.
    DoubleTake,
    /// Double, the opponent passes.
    DoublePass,
}

impl Choice {
    /// gnubg's label.
    pub const fn as_str(self) -> &'static str {
        match self {
            Choice::NoDouble => "No double",
            Choice::DoubleTake => "Double, take",
            Choice::DoublePass => "Double, pass",
        }
    }
}

/// The three cubeful values in match winning chances.
#[derive(Debug, Clone, Copy, PartialEq)]
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
    /// The cube efficiency used.
    pub efficiency: f64,
    /// The gammon prices of the current cube (the no-double branch).
    pub gammon_prices: GammonPrices,
    /// Cubeless equity: money equity in money play (gammons 2, backgammons
    /// 3); in match play gnubg's cubeless equity at the score (gammons at
    /// their gammon price), normalised to the cube.
    pub cubeless_equity: f64,
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
    /// The opponent's take point (when a double is possible).
    pub take_point: Option<TakePoint>,
}

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
        PositionClass::Bearoff => BEAROFF_X,
        PositionClass::Race => {
            let pips = f64::from(pos.pip_count().0);
            (RACE_COEFFICIENT_X + RACE_FACTOR_X * pips).clamp(RACE_MIN_X, RACE_MAX_X)
        }
    }
}

/// Probabilities in f64, cumulative as gnubg's.
#[derive(Debug, Clone, Copy, PartialEq)]
struct P {
    w: f64,
    wg: f64,
    wbg: f64,
    lg: f64,
    lbg: f64,
}

impl P {
    fn of(p: &Probabilities) -> Self {
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
    fn with_win(&self, w: f64) -> Self {
        let win = |x: f64| if self.w > 0.0 { x / self.w * w } else { 0.0 };
        let lose = |x: f64| if self.w < 1.0 { x / (1.0 - self.w) * (1.0 - w) } else { 0.0 };
        P { w, wg: win(self.wg), wbg: win(self.wbg), lg: lose(self.lg), lbg: lose(self.lbg) }
    }

    fn without_gammons(&self) -> Self {
        P { w: self.w, wg: 0.0, wbg: 0.0, lg: 0.0, lbg: 0.0 }
    }

    /// gnubg's `Utility`: cubeless equity with these gammon prices.
    fn utility(&self, g: &GammonPrices) -> f64 {
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
fn cubeful_money(p: &P, x: f64, owner: CubeOwner, jacoby: bool) -> f64 {
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
struct MatchScore<'a> {
    met: &'a Met,
    away: (u32, u32),
    crawford: bool,
}

impl MatchScore<'_> {
    /// Match winning chances of player `k` (0 = on roll) after player `k`
    /// (`k_wins`) or the other wins `points`: gnubg's `getMEMultiple`.
    fn me(&self, k: usize, points: u32, k_wins: bool) -> f64 {
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
fn cubeful_match(p: &P, x: f64, cube: u32, owner: CubeOwner, score: &MatchScore) -> f64 {
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
/// n-ply cubeful search builds on.
///
/// # Errors
/// [`CubeError::Probabilities`] / [`CubeError::Efficiency`] for values that
/// are not probabilities.
pub fn cubeful_equity(p: &Probabilities, x: f64, state: &CubeState, met: &Met) -> Result<f64, CubeError> {
    check_inputs(p, x)?;
    let q = P::of(p);
    Ok(match state.stakes {
        Stakes::Money { jacoby, .. } => cubeful_money(&q, x, state.owner, jacoby),
        Stakes::Match { away, crawford, .. } => {
            cubeful_match(&q, x, state.cube, state.owner, &MatchScore { met, away, crawford })
        }
    })
}

fn check_inputs(p: &Probabilities, x: f64) -> Result<(), CubeError> {
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

/// No double, double/take, double/pass: normalised equities and (match)
/// match winning chances.
#[derive(Debug, Clone, Copy)]
struct Values {
    nd: f64,
    dt: f64,
    dp: f64,
    mwc: Option<MatchChances>,
}

fn values(p: &P, x: f64, state: &CubeState, met: &Met) -> Values {
    match state.stakes {
        Stakes::Money { jacoby, .. } => Values {
            nd: cubeful_money(p, x, state.owner, jacoby),
            dt: 2.0 * cubeful_money(p, x, CubeOwner::Opponent, jacoby),
            dp: 1.0,
            mwc: None,
        },
        Stakes::Match { away, crawford, .. } => {
            let score = MatchScore { met, away, crawford };
            let cube = state.cube;
            let nd = cubeful_match(p, x, cube, state.owner, &score);
            let dt = cubeful_match(p, x, cube.saturating_mul(2), CubeOwner::Opponent, &score);
            let dp = score.me(0, cube, true);
            let cubeless = met.eq2mwc(p.utility(&met.gammon_prices(away, cube)), cube, away, crawford);
            let eq = |m: f64| met.mwc2eq(m, cube, away, crawford);
            Values {
                nd: eq(nd),
                dt: eq(dt),
                dp: eq(dp),
                mwc: Some(MatchChances { no_double: nd, double_take: dt, double_pass: dp, cubeless }),
            }
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
            let v = values(&q.with_win(w), x, state, met);
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
    check_inputs(p, x)?;
    let q = P::of(p);
    let v = values(&q, x, state, met);
    Ok(assemble(p, x, state, met, &v))
}

/// The analysis from the three values: verdict, prices, take point.
fn assemble(p: &Probabilities, x: f64, state: &CubeState, met: &Met, v: &Values) -> CubeAnalysis {
    let q = P::of(p);
    let no_double_reason = state.no_double_reason();
    let action = find_best(v, &q, state);
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
        gammon_prices,
        cubeless_equity,
        no_double: v.nd,
        double_take: v.dt,
        double_pass: v.dp,
        match_chances: v.mwc,
        no_double_reason,
        action,
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
    if pos.game_result().is_some() {
        return Err(CubeError::GameOver);
    }
    let state = CubeState::from_context(ctx, met)?;
    let p = evaluator.evaluate(pos).sanitized();
    analyse(&p, cube_efficiency(pos), &state, met)
}

// ------------------------------------------------------------------ n-ply

impl CubeState {
    /// The same cube and stakes seen by the opponent: the owner switched
    /// and, in a match, the points each side needs swapped.
    ///
    /// ```
    /// use gammon_engine::cube::{CubeState, Stakes};
    /// use gammon_rules::CubeOwner;
    /// let s = CubeState { cube: 2, owner: CubeOwner::OnRoll, max_cube: 64,
    ///     stakes: Stakes::Match { length: 5, away: (2, 4), crawford: false } };
    /// let o = s.switched();
    /// assert_eq!(o.owner, CubeOwner::Opponent);
    /// assert_eq!(o.stakes, Stakes::Match { length: 5, away: (4, 2), crawford: false });
    /// assert_eq!(o.switched(), s);
    /// ```
    pub fn switched(&self) -> Self {
        let stakes = match self.stakes {
            Stakes::Match { length, away, crawford } => Stakes::Match { length, away: (away.1, away.0), crawford },
            money => money,
        };
        CubeState { owner: self.owner.switched(), stakes, ..*self }
    }
}

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

/// The cubeful value of a state from cubeless probabilities (Janowski):
/// money normalised to the state's cube, match winning chances in a match.
fn raw_cubeful(p: &P, x: f64, s: &CubeState, met: &Met) -> f64 {
    match s.stakes {
        Stakes::Money { jacoby, .. } => cubeful_money(p, x, s.owner, jacoby),
        Stakes::Match { away, crawford, .. } => {
            cubeful_match(p, x, s.cube, s.owner, &MatchScore { met, away, crawford })
        }
    }
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
struct Nply<'a, E: Evaluator> {
    search: &'a Search<E>,
    met: &'a Met,
}

impl<E: Evaluator> Nply<'_, E> {
    /// The values of `slots` (cube states of the side on roll in `pos`) with
    /// no cube action by him now, and the cubeless probabilities.
    fn node(&self, pos: &Position, slots: &[Slot], plies: u8, top: bool) -> (Vec<f64>, Probabilities) {
        if plies == 0 || PositionClass::of(pos) == PositionClass::Finished {
            let p = self.search.value(pos, 0).sanitized();
            let q = P::of(&p);
            let x = cube_efficiency(pos);
            let values = slots.iter().map(|s| s.as_ref().map_or(0.0, |s| raw_cubeful(&q, x, s, self.met))).collect();
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
            let list = pos.legal_moves(*dice);
            let next = if list.positions().is_empty() {
                pos.switched()
            } else {
                let best = self.search.rank_results(list.positions(), 0).first().map_or(0, |r| r.index);
                list.positions().get(best).copied().unwrap_or_else(|| pos.switched())
            };
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

/// Cubeful values of `pos` (player on roll, before rolling) for each of
/// `states`, searched `plies` deep as gnubg does (`EvaluatePositionCubeful`):
///
/// - a leaf (0 plies left, or a finished game) gets the Janowski cubeful
///   value of its static probabilities ([`cubeful_equity`]) with its own
///   cube efficiency ([`cube_efficiency`]);
/// - an inner node averages, over the 21 rolls, the value of the position
///   after the move the search would play (the best by its static
///   evaluation, as in [`Search::value`]), seen from the other side;
/// - below the root the side on roll makes his best cube decision at every
///   node, leaves included: where he may double, his value is
///   `max(no double, min(double/take, double/pass))` (gnubg's `GetECF3`),
///   the doubled cube being searched along with the others;
/// - at the root no cube action is taken: ask for the state and its
///   [`doubled`](CubeState::doubled) state to compare no double with
///   double/take.
///
/// Unlike [`Search::value`], pure bearoff positions are searched too (gnubg
/// searches every position that its exact two-sided cubeful bearoff
/// database does not hold; there is no such database here). At 0 plies the
/// values are [`cubeful_equity`] of the static evaluation. From 2 plies on
/// the 21 rolls of the root are searched in parallel.
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
    for s in states {
        if let Stakes::Match { length, away, .. } = s.stakes {
            if away.0.max(away.1) > met.max_away() || away.0 == 0 || away.1 == 0 {
                return Err(CubeError::MatchTooLong { length, max: met.max_away() });
            }
        }
    }
    let slots: Vec<Slot> = states.iter().copied().map(Some).collect();
    let (values, probabilities) = Nply { search, met }.node(pos, &slots, plies, true);
    Ok(NplyCubeful { values, probabilities })
}

/// The cube decision of `pos` (the player on roll, before rolling) in the
/// game context `ctx`, searched `plies` deep as gnubg searches it: the
/// no-double and double/take values are [`cubeful_nply`] values of the
/// current cube and of the doubled cube owned by the opponent, so that the
/// cube decisions of both sides below the root count. At 0 plies this is
/// exactly [`analyse_position`] (with the search's static evaluation).
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
    if pos.game_result().is_some() {
        return Err(CubeError::GameOver);
    }
    let state = CubeState::from_context(ctx, met)?;
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
    let q = P::of(&p);
    let x = cube_efficiency(pos);
    let mut out = Vec::with_capacity(states.len());
    for (state, raw) in states.iter().zip(n.values.chunks(2)) {
        let [nd, dt] = *raw else { return Err(CubeError::GameOver) };
        let v = match state.stakes {
            Stakes::Money { .. } => Values { nd, dt: 2.0 * dt, dp: 1.0, mwc: None },
            Stakes::Match { away, crawford, .. } => {
                let cube = state.cube;
                let dp = raw_double_pass(state, met);
                let cubeless = met.eq2mwc(q.utility(&met.gammon_prices(away, cube)), cube, away, crawford);
                let eq = |m: f64| met.mwc2eq(m, cube, away, crawford);
                Values {
                    nd: eq(nd),
                    dt: eq(dt),
                    dp: eq(dp),
                    mwc: Some(MatchChances { no_double: nd, double_take: dt, double_pass: dp, cubeless }),
                }
            }
        };
        let mut a = assemble(&p, x, state, met, &v);
        if plies > 0 {
            if let (Some(tp), Some(r)) = (a.take_point, a.response()) {
                if (tp.taker_chances >= tp.model) != (r != Response::Pass) {
                    a.take_point = None;
                }
            }
        }
        out.push(a);
    }
    Ok(out)
}

/// A simpler n-ply cube decision: the cubeless probabilities of
/// [`Search::value`] at `plies`, fed to Janowski's model at the root
/// ([`analyse`]) with the root's cube efficiency. gnubg carries cubeful
/// values through the plies instead ([`analyse_position_nply`]); this one
/// is kept for comparison.
///
/// # Errors
/// As [`analyse_position`].
pub fn analyse_position_cubeless_nply<E: Evaluator>(
    search: &Search<E>,
    pos: &Position,
    ctx: &GameContext,
    met: &Met,
    plies: u8,
) -> Result<CubeAnalysis, CubeError> {
    if pos.game_result().is_some() {
        return Err(CubeError::GameOver);
    }
    let state = CubeState::from_context(ctx, met)?;
    let p = search.value(pos, plies).sanitized();
    analyse(&p, cube_efficiency(pos), &state, met)
}

impl CubeAnalysis {
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
        if !self.can_double() {
            return self.no_double;
        }
        self.no_double.max(self.double_take.min(self.double_pass))
    }

    /// The same as [`best`](Self::best) in match winning chances.
    pub fn best_mwc(&self) -> Option<f64> {
        let m = self.match_chances?;
        Some(if self.can_double() { m.no_double.max(m.double_take.min(m.double_pass)) } else { m.no_double })
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

    /// A learner's explanation of the decision: the setting, the chances,
    /// the cube's life, the take point against the opponent's chances, and
    /// why the verdict follows from the three equities.
    pub fn explain(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_explanation(&mut s);
        s
    }

    fn write_explanation(&self, s: &mut String) -> fmt::Result {
        let st = &self.state;
        let p = P::of(&self.probabilities);
        let pct = |v: f64| format!("{:.1}%", 100.0 * v);
        let owner = match st.owner {
            CubeOwner::Centered => "centred",
            CubeOwner::OnRoll => "owned by X (on roll)",
            CubeOwner::Opponent => "owned by O",
        };
        match st.stakes {
            Stakes::Money { jacoby, beaver } => {
                write!(s, "Money game, cube {} {owner}", st.cube)?;
                write!(s, "; Jacoby rule {}", if jacoby { "on" } else { "off" })?;
                writeln!(s, ", beavers {}.", if beaver { "allowed" } else { "not allowed" })?;
            }
            Stakes::Match { length, away, crawford } => {
                write!(s, "{length}-point match, X needs {} point(s), O needs {}", away.0, away.1)?;
                let phase = if crawford {
                    ", Crawford game"
                } else if away.0 == 1 || away.1 == 1 {
                    ", after the Crawford game"
                } else {
                    ""
                };
                writeln!(s, "{phase}; cube {} {owner}.", st.cube)?;
            }
        }
        writeln!(
            s,
            "X (on roll) wins {} (gammons {}, backgammons {}); O wins {} (gammons {}, backgammons {}).",
            pct(p.w),
            pct(p.wg),
            pct(p.wbg),
            pct(1.0 - p.w),
            pct(p.lg),
            pct(p.lbg)
        )?;
        let x = self.efficiency;
        writeln!(
            s,
            "Cube efficiency x = {x:.3}: the cubeful equities blend the dead cube (x = 0, cubeless) and Janowski's fully live cube (x = 1); gnubg uses 0.68 with contact, 0.6 in bearoffs and 0.55 + 0.00125 x pips (0.6 to 0.7) in races."
        )?;
        match st.stakes {
            Stakes::Money { jacoby, .. } => {
                if jacoby && st.owner == CubeOwner::Centered {
                    writeln!(
                        s,
                        "Jacoby rule: while the cube is centred gammons count single, so playing on without doubling cannot win a gammon; after a double they count double again."
                    )?;
                } else {
                    writeln!(s, "Gammons count double and backgammons triple (times the cube).")?;
                }
            }
            Stakes::Match { .. } => {
                let g = self.gammon_prices;
                writeln!(
                    s,
                    "Gammon prices at this score and cube: X {:.3} (backgammon {:.3} more), O {:.3} (backgammon {:.3} more); 1 would be the money value.",
                    g.my_gammon, g.my_backgammon, g.opp_gammon, g.opp_backgammon
                )?;
            }
        }
        if let Some(reason) = self.no_double_reason {
            writeln!(s, "X cannot double usefully: {}.", reason.describe())?;
            write!(s, "Playing on is worth {:+.3}", self.no_double)?;
            if let Some(m) = self.match_chances {
                write!(s, " ({} match winning chances)", pct(m.no_double))?;
            }
            writeln!(s, ", normalised to the cube.")?;
            return Ok(());
        }
        if let Some(tp) = self.take_point {
            writeln!(
                s,
                "Take point: if X doubles, O needs at least {} winning chances to take ({} with a dead cube, {} with a fully live cube; {} at this {} without gammons).",
                pct(tp.model),
                pct(tp.dead),
                pct(tp.live),
                pct(tp.no_gammons),
                if st.is_money() { "cube" } else { "score and cube" }
            )?;
            let verdict = if tp.taker_chances >= tp.model { "so he should take" } else { "so he should pass" };
            writeln!(s, "O's winning chances are {}, {verdict}.", pct(tp.taker_chances))?;
        }
        write!(
            s,
            "Equities normalised to the cube: no double {:+.3}, double/take {:+.3}, double/pass {:+.3}",
            self.no_double, self.double_take, self.double_pass
        )?;
        if let Some(m) = self.match_chances {
            write!(s, " (match winning chances {}, {}, {})", pct(m.no_double), pct(m.double_take), pct(m.double_pass))?;
        }
        writeln!(s, ".")?;
        let (nd, dt, dp) = (self.no_double, self.double_take, self.double_pass);
        let beavered = self.response() == Some(Response::Beaver);
        let answer = if beavered { 2.0 * dt } else { dt.min(dp) };
        match self.response() {
            Some(Response::Beaver) => writeln!(
                s,
                "After a take O is the favourite (double/take {dt:+.3} < 0 for X), so he should beaver: X's equity becomes {:+.3}.",
                2.0 * dt
            )?,
            Some(Response::Pass) => writeln!(
                s,
                "O answers a double by passing: taking ({dt:+.3} for X) would cost him more than passing ({dp:+.3})."
            )?,
            _ => writeln!(
                s,
                "O answers a double by taking: taking ({dt:+.3} for X) costs him less than passing ({dp:+.3})."
            )?,
        }
        let a = self.action;
        if a.doubles() {
            if (answer - nd).abs() <= OPTIONAL_EPSILON {
                writeln!(s, "Doubling and playing on are worth the same: the double is optional.")?;
            } else {
                writeln!(
                    s,
                    "Doubling gets X {answer:+.3}, more than the {nd:+.3} of playing on (by {:.3}): X should double.",
                    answer - nd
                )?;
            }
        } else if matches!(a, CubeAction::TooGoodPass | CubeAction::TooGoodRedoublePass) || nd > dp {
            writeln!(
                s,
                "X is too good to double: playing on ({nd:+.3}) is worth more than the {dp:+.3} O would concede by passing, thanks to X's gammon chances; X should play on for the gammon."
            )?;
        } else if a == CubeAction::NoDoubleBeaver || a == CubeAction::NoRedoubleBeaver {
            writeln!(
                s,
                "Not doubling: O would beaver and X's equity would drop to {:+.3}, below the {nd:+.3} of playing on.",
                2.0 * dt
            )?;
        } else {
            writeln!(
                s,
                "Not yet: playing on ({nd:+.3}) is worth more than doubling ({answer:+.3}) by {:.3}; X keeps his cube access (or the centred cube) and doubles later, if the game goes well.",
                nd - answer
            )?;
        }
        if let Stakes::Match { away, crawford: false, .. } = st.stakes {
            let doubled = st.cube.saturating_mul(2);
            if away.1 <= doubled && away.1 > 1 {
                writeln!(
                    s,
                    "After a double O would win the match by winning the game on the {doubled}-cube: his redouble would be dead, so owning the cube is worth less to him than in money play."
                )?;
            }
            if away.0 <= doubled && away.0 > 1 {
                writeln!(
                    s,
                    "On the {doubled}-cube a single win ends the match for X: his gammons would be worth nothing after the double."
                )?;
            }
            if away.1 == 1 && away.0 > 1 {
                writeln!(
                    s,
                    "After the Crawford game the leader's cube is dead, so the trailer loses nothing by doubling early; at an even number of points away the leader may have a free drop."
                )?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(a: [f32; 5]) -> Probabilities {
        Probabilities::from_array(a)
    }

    #[test]
    fn with_win_keeps_gammon_rates() {
        let q = P::of(&p([0.5, 0.2, 0.05, 0.1, 0.02]));
        let r = q.with_win(0.8);
        assert!((r.wg / r.w - 0.4).abs() < 1e-6);
        assert!((r.lg / (1.0 - r.w) - 0.2).abs() < 1e-6);
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
    fn crossing_finds_roots() {
        let r = crossing(|w| w - 0.3).unwrap();
        assert!((r - 0.3).abs() < 1e-12);
        assert!(crossing(|w| w + 1.0).is_none());
    }
}
