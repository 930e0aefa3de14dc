//! The cube and the stakes around a cube decision, seen by the player on
//! roll, and why he may not double.

use crate::met::{GammonPrices, Met};
use gammon_rules::{ContextError, CubeOwner, GameContext, Position};
use serde::Serialize;
use thiserror::Error;

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

    /// [`from_context`](Self::from_context) for a position that is still in
    /// play: a finished game has no cube decision ([`CubeError::GameOver`]).
    pub(crate) fn of_position_in_play(pos: &Position, ctx: &GameContext, met: &Met) -> Result<Self, CubeError> {
        if pos.game_result().is_some() {
            return Err(CubeError::GameOver);
        }
        Self::from_context(ctx, met)
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
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
