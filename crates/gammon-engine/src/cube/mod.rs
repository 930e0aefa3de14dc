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
//! through the match equity table ([`Met`](crate::met::Met)); a cube that cannot matter any
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
//! them with gnubg's `mwc2eq` ([`Met::mwc2eq`](crate::met::Met::mwc2eq)); both are reported.
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
//! ply with an [`Evaluator`](gammon_eval::Evaluator).
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
//! Moves inside the search are the ones
//! [`Search::value`](crate::search::Search::value) plays, from
//! [`Search::play`](crate::search::Search::play) (the best by static
//! evaluation with the default filter), so the cubeless probabilities it
//! reports are the search's n-ply ones. At 0 plies it is [`analyse_position`].
//! [`analyse_position_cubeless_nply`] is the simpler approximation (n-ply
//! cubeless probabilities fed to Janowski's model at the root), kept for
//! comparison; `tests/suite/cube_nply.rs` reports how both agree with gnubg's
//! 2-ply decisions.
//!
//! # Exact bearoff equities (money play)
//!
//! Where each side has at most 6 checkers, all home, the two-sided bearoff
//! database ([`gammon_eval::bearoff_two_sided`]) holds the exact cubeful money
//! equities of the three cube positions, as gnubg's does. In money play
//! every cubeful value of such a position comes from it instead of
//! Janowski's formula: one function maps (position, probabilities, cube
//! state) to the cubeful value, `janowski::position_cubeful`, public as
//! [`cubeful_equity_of`]; [`decide_for`], [`analyse_for`],
//! [`analyse_position`], the n-ply search (where such positions are
//! leaves at any depth), the cubeful move ranking and the rollouts' cube
//! use it. [`decide`], [`analyse`] and [`cubeful_equity`] take no position
//! and stay Janowski's. Match play keeps Janowski's match formulas with the
//! exact cubeless chances (the database is money-only, as gnubg's is); a
//! cube at its maximum value makes the exact equity the cubeless `2W - 1`.
//!
//! # Layout
//!
//! `state` (the cube and the stakes), `janowski` (cube efficiency and the
//! cubeful formulas), `verdict` (gnubg's names of the verdicts), `decision`
//! (the three equities and the verdict), `nply` (the cubeful search), `moves`
//! (the moves of a roll ranked by cubeful equity) and
//! `explain` (the explanation: typed [`Fact`]s and their English text);
//! everything public is re-exported here.

mod decision;
mod explain;
mod janowski;
mod moves;
mod nply;
mod state;
mod verdict;

pub use decision::{
    analyse, analyse_for, analyse_position, decide, decide_for, CubeAnalysis, CubeDecision, MatchChances, TakePoint,
    OPTIONAL_EPSILON,
};
pub use explain::{Fact, MatchPhase, VerdictReason};
pub use janowski::{
    cube_efficiency, cubeful_equity, cubeful_equity_of, cubeless_mwc, BEAROFF_X, CONTACT_X, CRASHED_X,
    RACE_COEFFICIENT_X, RACE_FACTOR_X, RACE_MAX_X, RACE_MIN_X,
};
pub use moves::{rank_results_cubeful, CubefulResult};
pub(crate) use nply::analysis_of_values;
pub use nply::{
    analyse_position_cubeless_nply, analyse_position_nply, analyse_state_nply, analyse_states_nply, cubeful_nply,
    NplyCubeful,
};
pub use state::{CubeError, CubeState, NoDouble, Stakes};
pub use verdict::{Choice, CubeAction, Response};
