//! The flow of a match: the rules it is played under, the doubling cube of
//! the game in progress, the score, the Crawford and post-Crawford games,
//! the Jacoby rule, Murphy's automatic doubles, the answers to a double
//! (take, pass, beaver, raccoon) and the points a game is worth.
//!
//! Everything here is by [`Seat`] (the two players of a match, whoever is on
//! roll); [`MatchState::context`] turns it into the [`GameContext`] of the
//! side on roll that the formats and the cube analysis use.

use crate::context::{self, CubeOwner, DiceState, DoubleRefusal, GameContext};
use crate::dice::{try_opening_roll, Dice, OpeningRoll};
use crate::error::DiceError;
use crate::game_result::GameResult;
use crate::seat::Seat;
use thiserror::Error;

/// The rules a game or a match is played under.
///
/// ```
/// use gammon_rules::MatchRules;
/// let money = MatchRules { jacoby: true, ..MatchRules::money() };
/// assert!(money.is_money() && money.cube);
/// assert!(!MatchRules::new_match(5).jacoby);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchRules {
    /// Match length in points; 0 = money play (one game at a time).
    pub length: u32,
    /// The doubling cube is in play.
    pub cube: bool,
    /// Money play: the Jacoby rule (gammons and backgammons count single
    /// while the cube is centred).
    pub jacoby: bool,
    /// Money play: beavers and raccoons are allowed.
    pub beaver: bool,
    /// Money play: the most automatic doubles (Murphy rule: equal opening
    /// dice turn the cube) of one game; 0 = none.
    pub murphy: u32,
    /// The largest value the cube may reach (a power of two).
    pub max_cube: u32,
}

impl MatchRules {
    /// Money play with the cube: no Jacoby rule, no beavers, no automatic
    /// doubles, the maximum cube of [`GameContext::DEFAULT_MAX_CUBE`].
    pub const fn money() -> Self {
        MatchRules {
            length: 0,
            cube: true,
            jacoby: false,
            beaver: false,
            murphy: 0,
            max_cube: GameContext::DEFAULT_MAX_CUBE,
        }
    }

    /// A match to `length` points with the cube (0: money play).
    pub const fn new_match(length: u32) -> Self {
        MatchRules { length, ..Self::money() }
    }

    /// Cubeless money play: duels, self-play, cubeless rollouts.
    pub const fn cubeless() -> Self {
        MatchRules { cube: false, ..Self::money() }
    }

    /// True in money play.
    pub const fn is_money(&self) -> bool {
        self.length == 0
    }

    /// The money-only rules switched off in a match (where they do not exist).
    #[must_use]
    pub const fn normalized(self) -> Self {
        if self.is_money() {
            self
        } else {
            MatchRules { jacoby: false, beaver: false, murphy: 0, ..self }
        }
    }
}

/// The doubling cube of the game in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cube {
    /// Its value: 1, 2, 4, ...
    pub value: u32,
    /// Who owns it; `None`: centred (nobody has taken a double).
    pub owner: Option<Seat>,
    /// Automatic doubles (Murphy rule) turned in this game.
    pub automatic: u32,
}

impl Cube {
    /// The cube at the start of a game: 1, centred.
    pub const START: Cube = Cube { value: 1, owner: None, automatic: 0 };

    /// Who owns the cube, seen by `on_roll`.
    pub const fn owner_seen_by(&self, on_roll: Seat) -> CubeOwner {
        match self.owner {
            None => CubeOwner::Centered,
            Some(s) if s as u8 == on_roll as u8 => CubeOwner::OnRoll,
            Some(_) => CubeOwner::Opponent,
        }
    }

    /// The cube after a double taken by `taker`: twice the value, his.
    #[must_use]
    pub const fn taken(self, taker: Seat) -> Cube {
        Cube { value: self.value.saturating_mul(2), owner: Some(taker), ..self }
    }

    /// The cube after `beaverer` answered a double with a beaver: he takes
    /// and redoubles at once, keeping the cube at four times the value.
    #[must_use]
    pub const fn beavered(self, beaverer: Seat) -> Cube {
        Cube { value: self.value.saturating_mul(4), owner: Some(beaverer), ..self }
    }

    /// The cube after the doubler answered a beaver with a raccoon: eight
    /// times the value before the double, kept by the beaverer (as XGID's
    /// `R` state has it).
    #[must_use]
    pub const fn raccooned(self, beaverer: Seat) -> Cube {
        Cube { value: self.value.saturating_mul(8), owner: Some(beaverer), ..self }
    }
}

impl Default for Cube {
    fn default() -> Self {
        Cube::START
    }
}

/// The answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CubeAnswer {
    /// Play on at twice the stakes, owning the cube.
    Take,
    /// Give up the game at the cube value before the double.
    Pass,
    /// Money play with beavers: take and redouble at once, keeping the cube.
    Beaver,
}

/// The doubler's answer to a beaver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BeaverAnswer {
    /// Play on at four times the stakes (the beaverer owns the cube).
    Accept,
    /// Give up the game at twice the cube value before the double.
    Pass,
    /// Redouble again, to eight times; the beaverer keeps the cube.
    Raccoon,
}

/// The beaverer's answer to a raccoon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RaccoonAnswer {
    /// Play on at eight times the stakes.
    Accept,
    /// Give up the game at four times the cube value before the double.
    Pass,
}

/// A match state that contradicts its rules.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchError {
    /// A score in money play.
    #[error("a score needs a match: money play has no score")]
    ScoreInMoney,
    /// A score that has already reached the match length.
    #[error("a score of {0}-{1} is not below the match length {2}")]
    ScoreNotBelowLength(u32, u32, u32),
    /// Post-Crawford asked for where nobody is one point from winning.
    #[error("post-Crawford needs a score where a player is one point from winning the match")]
    PostCrawfordNotOneAway,
}

/// Where a match stands between or during its games: the score, and
/// whether the game in progress is the Crawford game.
///
/// ```
/// use gammon_rules::{MatchRules, MatchState, Seat};
/// let mut m = MatchState::new(MatchRules::new_match(3));
/// assert_eq!(m.record(Seat::Zero, 2), None); // 2-0: Zero is 1-away
/// assert!(m.is_crawford());                  // the next game is the Crawford game
/// assert_eq!(m.record(Seat::One, 1), None);  // 2-1
/// assert!(!m.is_crawford() && m.is_post_crawford());
/// assert_eq!(m.record(Seat::Zero, 1), Some(Seat::Zero));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchState {
    rules: MatchRules,
    score: [u32; 2],
    /// The game in progress (or the next one) is the Crawford game.
    crawford: bool,
    /// A player has been one point away, so the Crawford game is played or
    /// behind.
    crawford_seen: bool,
}

impl MatchState {
    /// A match (or money session) at 0-0.
    pub fn new(rules: MatchRules) -> Self {
        MatchState { rules: rules.normalized(), score: [0, 0], crawford: false, crawford_seen: false }
    }

    /// A match at `score` (`[seat Zero, seat One]`). When a player is one
    /// point away, the next game is the Crawford game unless
    /// `post_crawford` says it is behind (or both players are one away,
    /// which is always after the Crawford game).
    ///
    /// # Errors
    /// A score in money play or not below the match length, or
    /// `post_crawford` where nobody is one point away.
    pub fn at_score(rules: MatchRules, score: [u32; 2], post_crawford: bool) -> Result<Self, MatchError> {
        let rules = rules.normalized();
        let length = rules.length;
        if rules.is_money() {
            if score != [0, 0] {
                return Err(MatchError::ScoreInMoney);
            }
            if post_crawford {
                return Err(MatchError::PostCrawfordNotOneAway);
            }
            return Ok(Self::new(rules));
        }
        if score[0] >= length || score[1] >= length {
            return Err(MatchError::ScoreNotBelowLength(score[0], score[1], length));
        }
        let pair = (score[0], score[1]);
        let one_away = context::someone_one_away(length, pair);
        if post_crawford && !one_away {
            return Err(MatchError::PostCrawfordNotOneAway);
        }
        let crawford = rules.cube && !post_crawford && context::crawford_possible(length, pair);
        Ok(MatchState { rules, score, crawford, crawford_seen: one_away })
    }

    /// A match state from its fields, as [`crawford_seen`](Self::crawford_seen)
    /// and the accessors give them (a saved game state); `None` where they
    /// contradict the rules.
    pub(crate) fn from_parts(rules: MatchRules, score: [u32; 2], crawford: bool, crawford_seen: bool) -> Option<Self> {
        let pair = (score[0], score[1]);
        // Once seen, 1-away stays: scores only grow, up to the match's end.
        let over = !rules.is_money() && context::away(rules.length, pair).is_none();
        let fits = rules == rules.normalized()
            && (!rules.is_money() || (score == [0, 0] && !crawford && !crawford_seen))
            && (!crawford || (rules.cube && crawford_seen && context::crawford_possible(rules.length, pair)))
            && (!crawford_seen || over || context::someone_one_away(rules.length, pair));
        fits.then_some(MatchState { rules, score, crawford, crawford_seen })
    }

    /// True once a player has been one point away (the Crawford game is
    /// played or behind).
    pub(crate) const fn crawford_seen(&self) -> bool {
        self.crawford_seen
    }

    /// The rules.
    pub const fn rules(&self) -> &MatchRules {
        &self.rules
    }

    /// Points won so far, `[seat Zero, seat One]`.
    pub const fn score(&self) -> [u32; 2] {
        self.score
    }

    /// Points each player still needs, `[seat Zero, seat One]`; `None` in
    /// money play or once the match is over.
    pub const fn away(&self) -> Option<[u32; 2]> {
        match context::away(self.rules.length, self.pair()) {
            Some((a, b)) => Some([a, b]),
            None => None,
        }
    }

    /// The score as a pair, for the rules shared with [`GameContext`].
    const fn pair(&self) -> (u32, u32) {
        (self.score[0], self.score[1])
    }

    /// True if the game in progress (or the next game) is the Crawford game:
    /// nobody may double in it.
    pub const fn is_crawford(&self) -> bool {
        self.crawford
    }

    /// True after the Crawford game: a player is one point away and the
    /// trailer may double again.
    pub const fn is_post_crawford(&self) -> bool {
        context::is_post_crawford(self.rules.length, self.pair(), self.crawford)
    }

    /// The winner of the match, once someone has reached the length.
    pub const fn winner(&self) -> Option<Seat> {
        if self.rules.is_money() {
            None
        } else if self.score[0] >= self.rules.length {
            Some(Seat::Zero)
        } else if self.score[1] >= self.rules.length {
            Some(Seat::One)
        } else {
            None
        }
    }

    /// The game context of `on_roll` before his roll, with `cube`: cube
    /// value and owner, score, Crawford, and the money rules.
    pub fn context(&self, cube: &Cube, on_roll: Seat) -> GameContext {
        let mut ctx = GameContext::new_match(self.rules.length);
        ctx.cube_value = cube.value;
        ctx.cube_owner = cube.owner_seen_by(on_roll);
        let (me, him) = (self.score[on_roll.index()], self.score[on_roll.other().index()]);
        ctx.score = (me, him);
        ctx.crawford = self.crawford;
        ctx.max_cube = self.rules.max_cube;
        if self.rules.is_money() {
            ctx.jacoby = self.rules.jacoby;
            ctx.beaver = self.rules.beaver;
        }
        ctx.dice = DiceState::ToRoll;
        ctx
    }

    /// True if `on_roll` may double before his roll: the cube is in play
    /// and [`GameContext::may_double`] allows it.
    pub fn may_double(&self, cube: &Cube, on_roll: Seat) -> bool {
        self.double_refusal(cube, on_roll).is_none()
    }

    /// Why `on_roll` may not double before his roll; `None` if he may.
    pub fn double_refusal(&self, cube: &Cube, on_roll: Seat) -> Option<DoubleRefusal> {
        if self.rules.cube {
            self.context(cube, on_roll).double_refusal()
        } else {
            Some(DoubleRefusal::NoCube)
        }
    }

    /// True if a double of `cube` may be beavered: money play with beavers,
    /// four times the cube within the maximum.
    pub fn may_beaver(&self, cube: &Cube) -> bool {
        self.rules.cube
            && self.rules.is_money()
            && self.rules.beaver
            && cube.value.checked_mul(4).is_some_and(|c| c <= self.rules.max_cube)
    }

    /// True if a beaver of `cube` may be answered with a raccoon.
    pub fn may_raccoon(&self, cube: &Cube) -> bool {
        self.may_beaver(cube) && cube.value.checked_mul(8).is_some_and(|c| c <= self.rules.max_cube)
    }

    /// Murphy's rule: equal opening dice turn the cube (centred, twice the
    /// value) while the game's automatic doubles stay within the rules'
    /// limit and the cube within the maximum. `None`: the dice are just
    /// rolled again.
    pub fn automatic_double(&self, cube: &Cube) -> Option<Cube> {
        let next = cube.value.checked_mul(2)?;
        let allowed = self.rules.cube && self.rules.is_money() && cube.automatic < self.rules.murphy;
        (allowed && next <= self.rules.max_cube).then_some(Cube { value: next, automatic: cube.automatic + 1, ..*cube })
    }

    /// The opening roll of a game of this match ([`try_opening_roll`]) with
    /// Murphy's rule: each pair of equal dice turns `cube` automatically
    /// while [`automatic_double`](Self::automatic_double) allows it, and
    /// `on_tie` hears each tie: the die, and the cube it turned, if any (a
    /// program announces it; its error stops the roll).
    ///
    /// ```
    /// use gammon_rules::{Cube, DiceError, MatchRules, MatchState};
    /// let m = MatchState::new(MatchRules { murphy: 1, ..MatchRules::money() });
    /// let (mut cube, mut pairs, mut ties) = (Cube::START, [(3, 3), (6, 6), (2, 5)].into_iter(), Vec::new());
    /// let r = m
    ///     .opening_roll(&mut cube, || pairs.next().ok_or(DiceError::OutOfRange(0)), |die, turned| {
    ///         ties.push((die, turned.map(|c| c.value)));
    ///         Ok::<_, DiceError>(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(ties, [(3, Some(2)), (6, None)]); // one automatic double allowed
    /// assert_eq!((cube.value, r.dice.to_string(), r.first_player_starts), (2, "52".to_string(), false));
    /// ```
    ///
    /// # Errors
    /// The error of `roll_pair` or `on_tie`, or a die outside 1..=6.
    pub fn opening_roll<E: From<DiceError>>(
        &self,
        cube: &mut Cube,
        mut roll_pair: impl FnMut() -> Result<(u8, u8), E>,
        mut on_tie: impl FnMut(u8, Option<Cube>) -> Result<(), E>,
    ) -> Result<OpeningRoll, E> {
        try_opening_roll(|| {
            let (a, b) = roll_pair()?;
            if a == b {
                Dice::new(a, b)?;
                let turned = self.automatic_double(cube);
                if let Some(c) = turned {
                    *cube = c;
                }
                on_tie(a, turned)?;
            }
            Ok((a, b))
        })
    }

    /// True if the Jacoby rule makes a gammon count single with `cube`:
    /// money play with the rule on and the cube never taken.
    pub const fn jacoby_applies(&self, cube: &Cube) -> bool {
        self.rules.cube && self.rules.is_money() && self.rules.jacoby && cube.owner.is_none()
    }

    /// The points a game played to its end is worth: the result (single,
    /// gammon, backgammon) times the cube, or the cube alone under the
    /// Jacoby rule.
    pub const fn points(&self, result: GameResult, cube: &Cube) -> u32 {
        if self.jacoby_applies(cube) {
            cube.value
        } else {
            result.points().saturating_mul(cube.value)
        }
    }

    /// Scores a finished game: `winner` gets `points`. In a match, the
    /// first game after a player reaches one point away is the Crawford
    /// game (with the cube in play), and the games after it are
    /// post-Crawford. Returns the winner of the match once it is over.
    pub fn record(&mut self, winner: Seat, points: u32) -> Option<Seat> {
        if self.rules.is_money() {
            return None;
        }
        let s = &mut self.score[winner.index()];
        *s = s.saturating_add(points);
        if let Some(w) = self.winner() {
            self.crawford = false;
            return Some(w);
        }
        // The first game after a player reaches 1-away (the only one then:
        // a game won moves one score, so the other is not 1-away too).
        let (length, pair) = (self.rules.length, self.pair());
        self.crawford = !self.crawford_seen && self.rules.cube && context::crawford_possible(length, pair);
        self.crawford_seen |= context::someone_one_away(length, pair);
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crawford_comes_once_then_post_crawford() {
        let mut m = MatchState::new(MatchRules::new_match(5));
        assert_eq!(m.record(Seat::One, 4), None);
        assert!(m.is_crawford());
        assert!(!m.context(&Cube::START, Seat::Zero).may_double());
        assert!(!m.may_double(&Cube::START, Seat::One));
        assert_eq!(m.record(Seat::Zero, 2), None); // 2-4: post-Crawford
        assert!(!m.is_crawford() && m.is_post_crawford());
        assert!(m.may_double(&Cube::START, Seat::Zero));
        assert_eq!(m.record(Seat::Zero, 2), None); // 4-4: both 1-away, still no Crawford
        assert!(!m.is_crawford());
        assert_eq!(m.away(), Some([1, 1]));
        assert_eq!(m.record(Seat::One, 2), Some(Seat::One));
        assert_eq!(m.winner(), Some(Seat::One));
        assert_eq!(m.score(), [4, 6]);
        assert_eq!(m.away(), None);
    }

    #[test]
    fn crawford_and_post_crawford_hold_at_and_past_the_end_of_the_match() {
        // A gammon at 4-0 in a 5-point match takes seat Zero past the length.
        for (points, score) in [(1, 5), (3, 7), (u32::MAX, u32::MAX)] {
            let mut m = MatchState::at_score(MatchRules::new_match(5), [4, 0], true).unwrap();
            assert_eq!(m.record(Seat::Zero, points), Some(Seat::Zero));
            assert_eq!(m.score(), [score, 0]);
            assert!(!m.is_post_crawford() && !m.is_crawford(), "the match is over at {score}-0");
            assert_eq!(m.away(), None);
        }
        let mut m = MatchState::new(MatchRules::new_match(3));
        assert_eq!(m.record(Seat::One, 9), Some(Seat::One));
        assert!(!m.is_post_crawford() && !m.is_crawford());
    }

    #[test]
    fn match_state_and_game_context_agree_on_post_crawford() {
        let rules = MatchRules::new_match(5);
        for a in 0..5 {
            for b in 0..5 {
                for post in [false, true] {
                    let Ok(m) = MatchState::at_score(rules, [a, b], post) else { continue };
                    for seat in [Seat::Zero, Seat::One] {
                        let ctx = m.context(&Cube::START, seat);
                        assert_eq!(m.is_post_crawford(), ctx.is_post_crawford(), "{a}-{b} post {post}");
                        assert_eq!(m.is_crawford(), ctx.crawford, "{a}-{b} post {post}");
                    }
                }
            }
        }
    }

    #[test]
    fn crawford_holds_in_a_match_near_the_largest_length_without_overflow() {
        let longest = MatchRules::new_match(u32::MAX);
        // One player 1-away, the other u32::MAX away: the Crawford game.
        let m = MatchState::at_score(longest, [0, u32::MAX - 1], false).unwrap();
        assert!(m.is_crawford() && !m.is_post_crawford());
        assert_eq!(m.away(), Some([u32::MAX, 1]));
        let ctx = m.context(&Cube::START, Seat::Zero);
        assert!(ctx.validate().is_ok() && ctx.crawford);
        // Both 1-away at the largest length: post-Crawford.
        let both = MatchState::at_score(longest, [u32::MAX - 1, u32::MAX - 1], false).unwrap();
        assert!(!both.is_crawford() && both.is_post_crawford());
        // A score at the length is refused, not wrapped.
        assert!(MatchState::at_score(longest, [u32::MAX, 0], false).is_err());
        // Winning points past u32::MAX saturate and end the match.
        let mut m = MatchState::at_score(longest, [u32::MAX - 1, 0], false).unwrap();
        assert_eq!(m.record(Seat::Zero, u32::MAX), Some(Seat::Zero));
        assert_eq!(m.score(), [u32::MAX, 0]);
        // Reaching 1-away from far behind starts the Crawford game.
        let mut far = MatchState::at_score(longest, [0, u32::MAX - 3], false).unwrap();
        assert_eq!(far.record(Seat::One, 2), None);
        assert!(far.is_crawford());
    }

    #[test]
    fn without_the_cube_there_is_no_crawford_game() {
        let mut m = MatchState::new(MatchRules { cube: false, ..MatchRules::new_match(3) });
        m.record(Seat::Zero, 2);
        assert!(!m.is_crawford());
        assert!(!m.may_double(&Cube::START, Seat::One));
    }

    #[test]
    fn starting_scores() {
        let rules = MatchRules::new_match(5);
        assert!(MatchState::at_score(rules, [4, 2], false).unwrap().is_crawford());
        let post = MatchState::at_score(rules, [4, 2], true).unwrap();
        assert!(!post.is_crawford() && post.is_post_crawford());
        // 1-away, 1-away: the Crawford game is behind.
        assert!(!MatchState::at_score(rules, [4, 4], false).unwrap().is_crawford());
        assert_eq!(MatchState::at_score(rules, [5, 2], false), Err(MatchError::ScoreNotBelowLength(5, 2, 5)));
        assert_eq!(MatchState::at_score(rules, [1, 2], true), Err(MatchError::PostCrawfordNotOneAway));
        assert_eq!(MatchState::at_score(MatchRules::money(), [1, 0], false), Err(MatchError::ScoreInMoney));
    }

    #[test]
    fn contexts_are_seen_by_the_side_on_roll() {
        let m = MatchState::at_score(MatchRules::new_match(7), [2, 5], false).unwrap();
        let cube = Cube::START.taken(Seat::One);
        let zero = m.context(&cube, Seat::Zero);
        assert_eq!((zero.score, zero.cube_value, zero.cube_owner), ((2, 5), 2, CubeOwner::Opponent));
        let one = m.context(&cube, Seat::One);
        assert_eq!((one.score, one.cube_owner), ((5, 2), CubeOwner::OnRoll));
        assert!(one.validate().is_ok() && zero.validate().is_ok());
        assert!(!m.may_double(&cube, Seat::Zero) && m.may_double(&cube, Seat::One));
    }

    #[test]
    fn jacoby_counts_gammons_single_while_the_cube_is_centred() {
        let m = MatchState::new(MatchRules { jacoby: true, ..MatchRules::money() });
        assert_eq!(m.points(GameResult::Gammon, &Cube::START), 1);
        assert_eq!(m.points(GameResult::Backgammon, &Cube { value: 2, ..Cube::START }), 2);
        assert_eq!(m.points(GameResult::Gammon, &Cube::START.taken(Seat::Zero)), 4);
        // Jacoby is a money rule: ignored in a match.
        let in_match = MatchState::new(MatchRules { jacoby: true, ..MatchRules::new_match(5) });
        assert_eq!(in_match.points(GameResult::Gammon, &Cube::START), 2);
        // And without the cube it has nothing to reward.
        let cubeless = MatchState::new(MatchRules { jacoby: true, ..MatchRules::cubeless() });
        assert_eq!(cubeless.points(GameResult::Backgammon, &Cube::START), 3);
    }

    #[test]
    fn the_opening_roll_turns_the_cube_on_ties_only_where_murphy_plays() {
        let ties = |state: &MatchState, pairs: &[(u8, u8)]| {
            let (mut cube, mut seen) = (Cube::START, Vec::new());
            let mut pairs = pairs.iter().copied();
            let r = state
                .opening_roll(
                    &mut cube,
                    || pairs.next().ok_or(DiceError::OutOfRange(0)),
                    |die, turned| {
                        seen.push((die, turned.map(|c| c.value)));
                        Ok::<_, DiceError>(())
                    },
                )
                .unwrap();
            (r.dice.to_string(), cube.value, cube.automatic, seen)
        };
        let pairs = [(1, 1), (2, 2), (3, 3), (6, 4)];
        let murphy = MatchState::new(MatchRules { murphy: 2, ..MatchRules::money() });
        assert_eq!(ties(&murphy, &pairs), ("64".into(), 4, 2, vec![(1, Some(2)), (2, Some(4)), (3, None)]));
        // A match, or money without the rule: ties are only rolled again.
        for state in [MatchState::new(MatchRules::new_match(5)), MatchState::new(MatchRules::money())] {
            assert_eq!(ties(&state, &pairs), ("64".into(), 1, 0, vec![(1, None), (2, None), (3, None)]));
        }
        // A die out of range is refused, and the callback's error stops the roll.
        let mut cube = Cube::START;
        let bad = murphy.opening_roll(&mut cube, || Ok::<_, DiceError>((7, 7)), |_, _| Ok(()));
        assert!(bad.is_err());
        assert_eq!(cube.value, 1, "no automatic double for a die that is not one");
        let stopped = murphy.opening_roll(&mut cube, || Ok((5, 5)), |_, _| Err(DiceError::OutOfRange(9)));
        assert_eq!(stopped.unwrap_err(), DiceError::OutOfRange(9));
    }

    #[test]
    fn murphy_doubles_up_to_the_limit() {
        let m = MatchState::new(MatchRules { murphy: 2, ..MatchRules::money() });
        let one = m.automatic_double(&Cube::START).unwrap();
        let two = m.automatic_double(&one).unwrap();
        assert_eq!((two.value, two.owner, two.automatic), (4, None, 2));
        assert_eq!(m.automatic_double(&two), None);
        assert_eq!(MatchState::new(MatchRules::money()).automatic_double(&Cube::START), None);
        let capped = MatchState::new(MatchRules { murphy: 5, max_cube: 2, ..MatchRules::money() });
        assert_eq!(capped.automatic_double(&Cube { value: 2, ..Cube::START }), None);
    }

    #[test]
    fn cube_transitions() {
        let c = Cube { value: 2, owner: Some(Seat::Zero), automatic: 0 };
        assert_eq!(c.taken(Seat::One), Cube { value: 4, owner: Some(Seat::One), automatic: 0 });
        assert_eq!(c.beavered(Seat::One).value, 8);
        assert_eq!(c.raccooned(Seat::One), Cube { value: 16, owner: Some(Seat::One), automatic: 0 });
        let beaver = MatchState::new(MatchRules { beaver: true, ..MatchRules::money() });
        assert!(beaver.may_beaver(&c) && beaver.may_raccoon(&c));
        assert!(!beaver.may_beaver(&Cube { value: 512, ..c }));
        assert!(!MatchState::new(MatchRules { beaver: true, ..MatchRules::new_match(5) }).may_beaver(&c));
    }
}
