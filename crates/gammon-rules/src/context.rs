//! The game state around a position: cube, score, dice and rules.
//!
//! A [`GameContext`] is always relative to the **player on roll**: the side
//! whose turn it is, the one a [`Position`](crate::Position) is seen from.
//! While a double is pending ([`DiceState::Doubled`]) the player on roll is
//! the doubler (the opponent has to answer); this is also how gnubg
//! (`fMove`, not `fTurn`) and XGID (the `turn` field) describe it.
//!
//! The XGID, Match ID and FIBS readers of this crate all produce a
//! `GameContext`, so code that needs the cube or the score does not care where
//! a position came from.

use crate::dice::Dice;
use thiserror::Error;

/// Who owns the doubling cube, relative to the player on roll.
///
/// A cube of 1 is always centred: it is owned only once a double has been
/// taken. [`GameContext::validate`] refuses an owner with a cube of 1, so
/// an XGID, a Match ID, the command line's `--owner` and the engine's cube
/// state all follow the one rule; a FIBS board's "may double" flags at a
/// cube of 1 are read as a centred cube. (A centred cube above 1 is a
/// cube turned by automatic doubles, Murphy's rule.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CubeOwner {
    /// Nobody owns it: either player may double (the cube at the start of a
    /// game, and in the Crawford game where nobody may double).
    #[default]
    Centered,
    /// The player on roll owns the cube: only he may double next.
    OnRoll,
    /// The opponent owns the cube: the player on roll may not double.
    Opponent,
}

impl CubeOwner {
    /// The same owner described from the other side.
    ///
    /// ```
    /// # use gammon_rules::CubeOwner;
    /// assert_eq!(CubeOwner::OnRoll.switched(), CubeOwner::Opponent);
    /// assert_eq!(CubeOwner::Centered.switched(), CubeOwner::Centered);
    /// ```
    #[must_use]
    pub const fn switched(self) -> Self {
        match self {
            CubeOwner::Centered => CubeOwner::Centered,
            CubeOwner::OnRoll => CubeOwner::Opponent,
            CubeOwner::Opponent => CubeOwner::OnRoll,
        }
    }
}

/// Where the turn of the player on roll stands: before the roll, after it,
/// or in the middle of a cube exchange.
///
/// In every cube state the player on roll is the one who **doubled**, and
/// [`GameContext::cube_value`] is the cube **before** that double (as in
/// XGID, where the dice field `D` comes with the old cube value, and in
/// gnubg's match state, where `nCube` stays put until the take).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum DiceState {
    /// The player on roll has not rolled: he may double (if the cube and the
    /// rules let him) or roll. XGID `00`.
    #[default]
    ToRoll,
    /// The player on roll rolled these dice and must move. XGID `31`, `66`...
    Rolled(Dice),
    /// The player on roll has doubled (to twice the cube value); the
    /// opponent must take, pass, or (money play with beavers) beaver. XGID
    /// `D`.
    Doubled,
    /// The player on roll doubled and the opponent beavered: the cube stands
    /// at four times the cube value, owned by the opponent. The player on
    /// roll must accept the beaver, pass it, or (with raccoons) raccoon.
    /// XGID `B`; money play only.
    Beavered,
    /// Doubled, beavered, and raccooned by the player on roll: eight times
    /// the cube value; the opponent (who keeps the cube) must accept or
    /// pass. XGID `R`; money play only.
    Raccooned,
}

impl DiceState {
    /// The dice, if they have been rolled.
    pub const fn dice(self) -> Option<Dice> {
        match self {
            DiceState::Rolled(d) => Some(d),
            _ => None,
        }
    }

    /// True while a cube decision is pending (`Doubled`, `Beavered`,
    /// `Raccooned`).
    pub const fn cube_pending(self) -> bool {
        matches!(self, DiceState::Doubled | DiceState::Beavered | DiceState::Raccooned)
    }

    /// True if the player on roll is the one who must act now: roll or
    /// double, move, or answer a beaver. False when the opponent must answer
    /// a double or a raccoon.
    ///
    /// ```
    /// # use gammon_rules::DiceState;
    /// assert!(DiceState::ToRoll.on_roll_must_act());
    /// assert!(!DiceState::Doubled.on_roll_must_act());
    /// assert!(DiceState::Beavered.on_roll_must_act());
    /// ```
    pub const fn on_roll_must_act(self) -> bool {
        !matches!(self, DiceState::Doubled | DiceState::Raccooned)
    }

    /// By how much the cube value is multiplied if the pending offer is
    /// accepted: 1 without a cube action, 2 for a double, 4 after a beaver, 8
    /// after a raccoon.
    pub const fn pending_multiplier(self) -> u32 {
        match self {
            DiceState::ToRoll | DiceState::Rolled(_) => 1,
            DiceState::Doubled => 2,
            DiceState::Beavered => 4,
            DiceState::Raccooned => 8,
        }
    }
}

/// The cube, score, dice and rules around a position, relative to the
/// player on roll.
///
/// The player on roll is the side whose turn it is, the one a
/// [`Position`](crate::Position) is seen from. While a cube action is pending
/// ([`DiceState::Doubled`] and the beaver states) he is the doubler and the
/// opponent may have to answer ([`DiceState::on_roll_must_act`]); gnubg's
/// match state (`fMove`, not `fTurn`) and the XGID `turn` field describe it
/// the same way. The XGID, Match ID and FIBS readers all produce a
/// `GameContext`.
///
/// ```
/// use gammon_rules::{CubeOwner, DiceState, GameContext};
/// let money = GameContext::money();
/// assert_eq!((money.cube_value, money.cube_owner), (1, CubeOwner::Centered));
/// assert!(money.is_money() && money.may_double());
///
/// let mut m = GameContext::new_match(5);
/// m.score = (4, 2);
/// m.crawford = true;
/// assert_eq!(m.away(), Some((1, 3)));
/// assert!(!m.may_double());
/// assert!(m.validate().is_ok());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameContext {
    /// The value of the doubling cube: 1, 2, 4, ... With a cube action
    /// pending it is the value before the double.
    pub cube_value: u32,
    /// Who owns the cube (before a pending double).
    pub cube_owner: CubeOwner,
    /// Dice rolled, or the cube action in progress.
    pub dice: DiceState,
    /// Points already won: `(player on roll, opponent)`. In money play a
    /// running total that does not end anything (often 0-0).
    pub score: (u32, u32),
    /// Match length in points; 0 = money play (unlimited).
    pub match_length: u32,
    /// This is the Crawford game: a player is one point from winning the
    /// match, and nobody may double in this one game.
    pub crawford: bool,
    /// Money play only: the Jacoby rule is in force (gammons and backgammons
    /// count single while the cube has not been turned).
    pub jacoby: bool,
    /// Money play only: beavers (and raccoons) are allowed.
    pub beaver: bool,
    /// The largest value the cube may reach (a power of two). XGID writes
    /// its log2, usually 10; defaults to [`GameContext::DEFAULT_MAX_CUBE`].
    pub max_cube: u32,
}

impl Default for GameContext {
    /// The same as [`GameContext::money`].
    fn default() -> Self {
        Self::money()
    }
}

/// Why a player may not double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Error)]
pub enum DoubleRefusal {
    /// The game is played without the cube.
    #[error("the game is played without the cube")]
    NoCube,
    /// The dice are rolled or a cube action is under way: a double comes
    /// before the roll.
    #[error("a double comes before the roll")]
    NotBeforeRoll,
    /// Nobody doubles in the Crawford game.
    #[error("nobody doubles in the Crawford game")]
    Crawford,
    /// The opponent owns the cube.
    #[error("the opponent owns the cube")]
    OpponentOwnsCube,
    /// Doubling would take the cube past the largest allowed.
    #[error("the cube is at {cube}; doubling it would pass the largest cube allowed, {max}")]
    CubeLimit {
        /// The cube value.
        cube: u32,
        /// The largest cube allowed.
        max: u32,
    },
}

/// A [`GameContext`] whose fields contradict each other or the rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ContextError {
    /// The cube value is not a power of two, or is 0.
    #[error("cube value {0} is not a power of two (1, 2, 4, ...)")]
    CubeValue(u32),
    /// The maximum cube is not a power of two, or is 0.
    #[error("maximum cube {0} is not a power of two (1, 2, 4, ...)")]
    MaxCube(u32),
    /// A cube of 1 with an owner: a cube is owned only once a double has
    /// been taken, which makes it at least 2, so a cube of 1 is centred.
    #[error("the cube is at 1 but {}: a cube of 1 is centred (it is owned only after a double is taken)", owner_words(*.0))]
    OwnedCubeAtOne(CubeOwner),
    /// The cube exceeds the maximum cube.
    #[error("cube value {cube} is above the maximum cube {max}")]
    CubeAboveMax {
        /// The cube value.
        cube: u32,
        /// The maximum.
        max: u32,
    },
    /// In a match, a score has already reached the match length.
    #[error("the {side} has {score} points in a {length}-point match; a score must be below the match length")]
    ScoreNotBelowLength {
        /// `"player on roll"` or `"opponent"`.
        side: &'static str,
        /// The score found.
        score: u32,
        /// The match length.
        length: u32,
    },
    /// The Crawford flag is set in money play.
    #[error("the Crawford flag is set in money play; the Crawford rule exists only in a match")]
    CrawfordInMoney,
    /// The Crawford flag is set though not exactly one player is one point
    /// away (both 1-away is always after the Crawford game).
    #[error("the Crawford flag is set at {on_roll}-{opponent} in a {length}-point match, but the Crawford game needs exactly one player 1 point from winning")]
    CrawfordNotOneAway {
        /// Score of the player on roll.
        on_roll: u32,
        /// Score of the opponent.
        opponent: u32,
        /// Match length.
        length: u32,
    },
    /// In the Crawford game the cube must be centred at 1 and no double may
    /// be offered.
    #[error("in the Crawford game the cube stays centred at 1 and nobody may double; found {}", crawford_found(*.cube, *.owner, *.dice))]
    CrawfordCube {
        /// The cube value found.
        cube: u32,
        /// The owner found.
        owner: CubeOwner,
        /// The dice state found.
        dice: DiceState,
    },
    /// The Jacoby or beaver flag is set in a match.
    #[error("the {0} rule is set in a match; it exists only in money play")]
    MoneyRuleInMatch(&'static str),
    /// The player on roll doubled although the opponent owns the cube.
    #[error("the player on roll has doubled but the opponent owns the cube; only the cube owner (or anyone, with a centred cube) may double")]
    DoubleByNonOwner,
    /// A beaver or raccoon without beavers allowed in money play.
    #[error("{} pending, but beavers and raccoons need money play with the beaver rule on", pending(.0))]
    BeaverNotAllowed(DiceState),
}

/// What is pending, in words, for the messages.
const fn pending(dice: &DiceState) -> &'static str {
    match dice {
        DiceState::ToRoll => "a roll is",
        DiceState::Rolled(_) => "a move is",
        DiceState::Doubled => "an answer to a double is",
        DiceState::Beavered => "a beaver is",
        DiceState::Raccooned => "a raccoon is",
    }
}

impl GameContext {
    /// The maximum cube XG writes by default (log2 = 10).
    pub const DEFAULT_MAX_CUBE: u32 = 1 << 10;

    /// Money play, cube 1 centred, score 0-0, player to roll, Jacoby and
    /// beavers off.
    pub const fn money() -> Self {
        GameContext {
            cube_value: 1,
            cube_owner: CubeOwner::Centered,
            dice: DiceState::ToRoll,
            score: (0, 0),
            match_length: 0,
            crawford: false,
            jacoby: false,
            beaver: false,
            max_cube: Self::DEFAULT_MAX_CUBE,
        }
    }

    /// A match to `length` points at 0-0 (0 gives money play), cube 1
    /// centred, player to roll.
    pub const fn new_match(length: u32) -> Self {
        let mut c = Self::money();
        c.match_length = length;
        c
    }

    /// True in money play (match length 0).
    pub const fn is_money(&self) -> bool {
        self.match_length == 0
    }

    /// Points each side still needs, `(player on roll, opponent)`; `None`
    /// in money play or if a score is not below the match length.
    pub const fn away(&self) -> Option<(u32, u32)> {
        away(self.match_length, self.score)
    }

    /// True after the Crawford game: a match where someone is 1-away and
    /// this is not the Crawford game (doubling is allowed again).
    pub const fn is_post_crawford(&self) -> bool {
        is_post_crawford(self.match_length, self.score, self.crawford)
    }

    /// True if the player on roll may double now: he has not rolled, it is
    /// not the Crawford game, the opponent does not own the cube and the
    /// doubled cube stays within `max_cube` ([`double_refusal`](Self::double_refusal) is `None`).
    pub fn may_double(&self) -> bool {
        self.double_refusal().is_none()
    }

    /// Why the player on roll may not double now; `None` if he may.
    ///
    /// ```
    /// use gammon_rules::{CubeOwner, DoubleRefusal, GameContext};
    /// let top = GameContext { cube_value: 1024, cube_owner: CubeOwner::OnRoll, ..GameContext::money() };
    /// assert_eq!(top.double_refusal(), Some(DoubleRefusal::CubeLimit { cube: 1024, max: 1024 }));
    /// ```
    pub fn double_refusal(&self) -> Option<DoubleRefusal> {
        if !matches!(self.dice, DiceState::ToRoll) {
            Some(DoubleRefusal::NotBeforeRoll)
        } else if self.crawford {
            Some(DoubleRefusal::Crawford)
        } else if self.cube_owner == CubeOwner::Opponent {
            Some(DoubleRefusal::OpponentOwnsCube)
        } else if self.cube_value.checked_mul(2).is_none_or(|c| c > self.max_cube) {
            Some(DoubleRefusal::CubeLimit { cube: self.cube_value, max: self.max_cube })
        } else {
            None
        }
    }

    /// Checks that the fields fit together: the cube is a power of two within
    /// `max_cube`, centred at 1; in a match the scores are below the match length and the
    /// Crawford game has exactly one player 1-away, a centred cube at 1 and no double;
    /// Jacoby and beavers only in money play; only a cube owner (or anyone
    /// with a centred cube) doubles; beavers and raccoons only where allowed.
    ///
    /// # Errors
    /// The first rule broken, as a `ContextError`.
    pub fn validate(&self) -> Result<(), ContextError> {
        if !self.cube_value.is_power_of_two() {
            return Err(ContextError::CubeValue(self.cube_value));
        }
        if !self.max_cube.is_power_of_two() {
            return Err(ContextError::MaxCube(self.max_cube));
        }
        if self.cube_value > self.max_cube {
            return Err(ContextError::CubeAboveMax { cube: self.cube_value, max: self.max_cube });
        }
        if self.cube_value == 1 && self.cube_owner != CubeOwner::Centered {
            return Err(ContextError::OwnedCubeAtOne(self.cube_owner));
        }
        let length = self.match_length;
        if length > 0 {
            for (side, score) in [("player on roll", self.score.0), ("opponent", self.score.1)] {
                if score >= length {
                    return Err(ContextError::ScoreNotBelowLength { side, score, length });
                }
            }
            if self.jacoby {
                return Err(ContextError::MoneyRuleInMatch("Jacoby"));
            }
            if self.beaver {
                return Err(ContextError::MoneyRuleInMatch("beaver"));
            }
        }
        if self.crawford {
            if length == 0 {
                return Err(ContextError::CrawfordInMoney);
            }
            if !crawford_possible(length, self.score) {
                return Err(ContextError::CrawfordNotOneAway { on_roll: self.score.0, opponent: self.score.1, length });
            }
            if self.cube_value != 1 || self.cube_owner != CubeOwner::Centered || self.dice.cube_pending() {
                return Err(ContextError::CrawfordCube {
                    cube: self.cube_value,
                    owner: self.cube_owner,
                    dice: self.dice,
                });
            }
        }
        if self.dice.cube_pending() && self.cube_owner == CubeOwner::Opponent {
            return Err(ContextError::DoubleByNonOwner);
        }
        if matches!(self.dice, DiceState::Beavered | DiceState::Raccooned) && (length > 0 || !self.beaver) {
            return Err(ContextError::BeaverNotAllowed(self.dice));
        }
        Ok(())
    }
}

/// Points each player still needs in a match of `length` at `score`;
/// `None` in money play (length 0) or once a score has reached the length.
/// The one place this is computed, for [`GameContext`] and
/// [`MatchState`](crate::MatchState) alike.
pub(crate) const fn away(length: u32, score: (u32, u32)) -> Option<(u32, u32)> {
    if length == 0 || score.0 >= length || score.1 >= length {
        None
    } else {
        Some((length - score.0, length - score.1))
    }
}

/// True if a player is one point from winning the match (none in money
/// play or once the match is over).
pub(crate) const fn someone_one_away(length: u32, score: (u32, u32)) -> bool {
    matches!(away(length, score), Some((1, _) | (_, 1)))
}

/// True if the Crawford game may be played at `score`: exactly one player
/// is one point from winning the match. Both 1-away always comes after the
/// Crawford game (the trailer reached 1-away by winning one after it).
/// The one test of it, for [`GameContext::validate`] and
/// [`MatchState`](crate::MatchState) alike; no sum of the two away counts,
/// which could overflow in a match near `u32::MAX` points.
pub(crate) const fn crawford_possible(length: u32, score: (u32, u32)) -> bool {
    matches!(away(length, score), Some((1, a) | (a, 1)) if a > 1)
}

/// True after the Crawford game: a player is one point away and this is not
/// the Crawford game.
pub(crate) const fn is_post_crawford(length: u32, score: (u32, u32), crawford: bool) -> bool {
    !crawford && someone_one_away(length, score)
}

/// Who owns the cube, in words.
fn owner_words(owner: CubeOwner) -> &'static str {
    match owner {
        CubeOwner::Centered => "centred",
        CubeOwner::OnRoll => "owned by the player on roll",
        CubeOwner::Opponent => "owned by the opponent",
    }
}

/// What a Crawford game's context held instead, in words.
fn crawford_found(cube: u32, owner: CubeOwner, dice: DiceState) -> String {
    let owner = owner_words(owner);
    let dice = if dice.cube_pending() { "; a double is pending" } else { "" };
    format!("the cube at {cube}, {owner}{dice}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn money_defaults() {
        let c = GameContext::default();
        assert_eq!(c, GameContext::money());
        assert!(c.validate().is_ok());
        assert!(c.may_double());
        assert_eq!(c.away(), None);
        assert!(!c.is_post_crawford());
    }

    #[test]
    fn match_rules() {
        let mut c = GameContext::new_match(5);
        c.score = (4, 1);
        assert!(c.is_post_crawford());
        c.crawford = true;
        assert!(c.validate().is_ok());
        assert!(!c.may_double());
        c.cube_value = 2;
        assert!(matches!(c.validate(), Err(ContextError::CrawfordCube { .. })));
        let message = c.validate().unwrap_err().to_string();
        assert!(message.ends_with("found the cube at 2, centred"), "words, not Debug: {message}");
        c.cube_value = 1;
        c.score = (3, 1);
        assert!(matches!(c.validate(), Err(ContextError::CrawfordNotOneAway { .. })));
        c.score = (4, 4);
        assert!(matches!(c.validate(), Err(ContextError::CrawfordNotOneAway { .. })), "both 1-away is post-Crawford");
        c.crawford = false;
        c.score = (5, 1);
        assert!(matches!(c.validate(), Err(ContextError::ScoreNotBelowLength { side: "player on roll", .. })));
        c.score = (0, 0);
        c.jacoby = true;
        assert_eq!(c.validate(), Err(ContextError::MoneyRuleInMatch("Jacoby")));
    }

    #[test]
    fn cube_rules() {
        let mut c = GameContext::money();
        c.cube_value = 3;
        assert_eq!(c.validate(), Err(ContextError::CubeValue(3)));
        c.cube_value = 2048;
        assert!(matches!(c.validate(), Err(ContextError::CubeAboveMax { .. })));
        c.cube_value = 2;
        c.cube_owner = CubeOwner::Opponent;
        assert!(!c.may_double());
        c.dice = DiceState::Doubled;
        assert_eq!(c.validate(), Err(ContextError::DoubleByNonOwner));
        c.cube_owner = CubeOwner::OnRoll;
        assert!(c.validate().is_ok());
        c.dice = DiceState::Beavered;
        let err = c.validate().unwrap_err();
        assert!(matches!(err, ContextError::BeaverNotAllowed(_)));
        // In words, not the enum's name.
        assert!(err.to_string().starts_with("a beaver is pending, but"), "{err}");
        c.beaver = true;
        assert!(c.validate().is_ok());
        c.cube_value = 0;
        assert!(!c.may_double());
        assert_eq!(c.validate(), Err(ContextError::CubeValue(0)));
    }

    #[test]
    fn dice_state_helpers() {
        let d = Dice::new(3, 1).unwrap();
        assert_eq!(DiceState::Rolled(d).dice(), Some(d));
        assert_eq!(DiceState::Doubled.dice(), None);
        assert_eq!(DiceState::Raccooned.pending_multiplier(), 8);
        assert!(!DiceState::Raccooned.on_roll_must_act());
        assert!(DiceState::Rolled(d).on_roll_must_act());
        assert_eq!(CubeOwner::Opponent.switched(), CubeOwner::OnRoll);
    }
}
