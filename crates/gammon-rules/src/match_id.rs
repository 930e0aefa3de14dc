//! gnubg Match ID: 12 Base64 characters for a 72-bit key describing the cube,
//! the score, the dice and who is to act.
//!
//! The format details are documented on the public type.
//!
//! One format per file, with its field types (`GameState`,
//! `Resignation`; [`Seat`] has its own file) and round-trip tests (about 140 of the lines; the code is
//! about 390, the rest doc comments).

use crate::context::{ContextError, CubeOwner, DiceState, GameContext};
use crate::dice::Dice;
use crate::position_id::{base64_decode, base64_encode, base64_value};
use crate::seat::Seat;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The game state field (bits 8-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameState {
    /// 0: no game started.
    NoGame,
    /// 1: a game is being played.
    Playing,
    /// 2: the game is over.
    Over,
    /// 3: the game ended by resignation.
    Resigned,
    /// 4: the game ended by a dropped cube.
    Dropped,
}

impl GameState {
    const fn code(self) -> u64 {
        match self {
            GameState::NoGame => 0,
            GameState::Playing => 1,
            GameState::Over => 2,
            GameState::Resigned => 3,
            GameState::Dropped => 4,
        }
    }
}

/// The resignation field (bits 13-14): what a pending resignation offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Resignation {
    /// 0: no resignation offered.
    None,
    /// 1: a single game offered.
    Single,
    /// 2: a gammon offered.
    Gammon,
    /// 3: a backgammon offered.
    Backgammon,
}

impl Resignation {
    const fn code(self) -> u64 {
        match self {
            Resignation::None => 0,
            Resignation::Single => 1,
            Resignation::Gammon => 2,
            Resignation::Backgammon => 3,
        }
    }

    const fn from_code(code: u64) -> Self {
        match code & 3 {
            0 => Resignation::None,
            1 => Resignation::Single,
            2 => Resignation::Gammon,
            _ => Resignation::Backgammon,
        }
    }
}

/// A decoded gnubg Match ID: every field of the 72-bit key.
///
/// Parsing validates the fields ([`MatchId::validate`]); `Display` writes
/// the 12 characters back exactly. Fields set out of range by hand are cut
/// to their bit width when written: call `validate` first.
///
/// ```
/// use gammon_rules::MatchId;
/// let id: MatchId = "MAGgADAACAAE".parse().unwrap();
/// assert_eq!(id.match_length, 5);
/// assert_eq!(id.score, [3, 1]);
/// assert_eq!(id.to_string(), "MAGgADAACAAE");
/// let ctx = id.to_context().unwrap();
/// assert_eq!(ctx.score, (3, 1)); // player 0 is on roll
/// ```
///
/// Layout (bit `k` of the key lives in byte `k / 8` at bit `k % 8`, least
/// significant first; each field is written least significant bit first),
/// as gnubg 1.07 writes it:
///
/// | bits | width | field |
/// |---|---|---|
/// | 0-3 | 4 | log2 of the cube value |
/// | 4-5 | 2 | cube owner: 0 = player 0, 1 = player 1, 3 = centred (2 is invalid) |
/// | 6 | 1 | player on roll (gnubg's `fMove`) |
/// | 7 | 1 | Crawford game |
/// | 8-10 | 3 | game state: 0 none, 1 playing, 2 over, 3 resigned, 4 dropped cube |
/// | 11 | 1 | player who must act now (`fTurn`; differs from bit 6 while a double or resignation is pending) |
/// | 12 | 1 | a double is pending |
/// | 13-14 | 2 | resignation offered: 0 none, 1 single, 2 gammon, 3 backgammon |
/// | 15-17 | 3 | die 1 (0 = not rolled) |
/// | 18-20 | 3 | die 2 |
/// | 21-35 | 15 | match length (0 = money) |
/// | 36-50 | 15 | score of player 0 |
/// | 51-65 | 15 | score of player 1 |
/// | 66 | 1 | Jacoby rule **not** in force (gnubg's extension; 1 in match play) |
/// | 67-71 | 5 | zero |
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct MatchId {
    /// log2 of the cube value (0..=15): the cube is `1 << cube_log2`.
    pub cube_log2: u8,
    /// The cube owner; `None` = centred (field value 3).
    pub cube_owner: Option<Seat>,
    /// The player on roll (bit 6, gnubg's `fMove`); while a double is
    /// pending, the doubler.
    pub on_roll: Seat,
    /// This is the Crawford game.
    pub crawford: bool,
    /// The game state.
    pub game_state: GameState,
    /// The player who must act now (bit 11, gnubg's `fTurn`): the player on
    /// roll, or his opponent while a double or a resignation waits for an
    /// answer.
    pub turn: Seat,
    /// A double has been offered and not yet answered.
    pub double_pending: bool,
    /// A pending resignation offer.
    pub resignation: Resignation,
    /// The dice as stored, die 1 then die 2 (gnubg writes the larger first);
    /// `(0, 0)` = not rolled.
    pub dice: (u8, u8),
    /// Match length (0 = money play); 15 bits.
    pub match_length: u16,
    /// Scores of player 0 and player 1; 15 bits each.
    pub score: [u16; 2],
    /// Bit 66: the Jacoby rule is *not* in force (gnubg always sets it in
    /// match play).
    pub jacoby_off: bool,
}

/// A malformed or inconsistent Match ID, or a context it cannot express.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatchIdError {
    /// Not 12 characters.
    #[error("a Match ID has 12 characters, this one has {0}")]
    Length(usize),
    /// A character outside the Base64 alphabet.
    #[error("character {ch:?} at index {index} is not in the Base64 alphabet (A-Z a-z 0-9 + /)")]
    Character {
        /// Index of the character (0-based).
        index: usize,
        /// The character.
        ch: char,
    },
    /// Bits 67-71 are not zero.
    #[error("bits 67-71 of the key must be zero, found {0:#07b}")]
    TrailingBits(u8),
    /// Cube owner field 2.
    #[error("cube owner field (bits 4-5) is 2; allowed are 0 (player 0), 1 (player 1) and 3 (centred)")]
    CubeOwner,
    /// Game state above 4.
    #[error("game state (bits 8-10) is {0}; allowed are 0 (none), 1 (playing), 2 (over), 3 (resigned), 4 (dropped)")]
    GameState(u8),
    /// A die above 6.
    #[error("die {which} is {value}; a die is 0 (not rolled) or 1 to 6")]
    Die {
        /// 1 or 2.
        which: u8,
        /// The value found.
        value: u8,
    },
    /// Exactly one die is rolled.
    #[error("dice are {0}-{1}: either both dice are 0 (not rolled) or both are 1 to 6")]
    OneDie(u8, u8),
    /// A score is not below the match length.
    #[error("player {player} has {score} points in a {length}-point match; a score must be below the match length")]
    ScoreNotBelowLength {
        /// 0 or 1.
        player: u8,
        /// The score.
        score: u16,
        /// The match length.
        length: u16,
    },
    /// The Crawford flag in money play.
    #[error("the Crawford flag (bit 7) is set in money play (match length 0)")]
    CrawfordInMoney,
    /// The Crawford flag while nobody is 1-away.
    #[error(
        "the Crawford flag (bit 7) is set at {0}-{1} in a {2}-point match, but neither player is 1 point from winning"
    )]
    CrawfordNotOneAway(u16, u16, u16),
    /// Player to act and player on roll disagree with the pending flags.
    #[error("player to act (bit 11) is {} and player on roll (bit 6) is {}: {why}", .turn.index(), .on_roll.index())]
    Turn {
        /// Bit 11.
        turn: Seat,
        /// Bit 6.
        on_roll: Seat,
        /// What is wrong.
        why: &'static str,
    },
    /// Dice rolled while a double is pending.
    #[error("a double is pending (bit 12) but dice {0}-{1} are rolled; doubles are offered before rolling")]
    DiceWithDouble(u8, u8),
    /// Both a double and a resignation pending.
    #[error("both a double (bit 12) and a resignation (bits 13-14) are pending")]
    DoubleAndResignation,
    /// The state cannot be expressed as a [`GameContext`] (or a context not
    /// as a Match ID).
    #[error("cannot convert: {0}")]
    Unrepresentable(&'static str),
    /// A context value too large for its bit field.
    #[error("{field} is {value}, more than the Match ID can hold (at most {max})")]
    TooLarge {
        /// Which field.
        field: &'static str,
        /// The value.
        value: u32,
        /// The largest value the field holds.
        max: u32,
    },
    /// The context is inconsistent.
    #[error(transparent)]
    Context(#[from] ContextError),
}

/// Reads `width` bits starting at bit `start` (LSB first).
fn get_bits(bytes: &[u8; 9], start: usize, width: usize) -> u64 {
    let mut v = 0u64;
    for j in 0..width {
        let k = start + j;
        let bit = bytes.get(k / 8).map_or(0, |b| (b >> (k % 8)) & 1);
        v |= u64::from(bit) << j;
    }
    v
}

/// Writes the low `width` bits of `value` starting at bit `start`.
fn put_bits(bytes: &mut [u8; 9], start: usize, width: usize, value: u64) {
    for j in 0..width {
        let k = start + j;
        if (value >> j) & 1 == 1 {
            if let Some(b) = bytes.get_mut(k / 8) {
                *b |= 1 << (k % 8);
            }
        }
    }
}

impl MatchId {
    /// Reads a 12-character Match ID and validates it.
    ///
    /// ```
    /// use gammon_rules::MatchId;
    /// let id = MatchId::parse("sAGgAEAAEAAE").unwrap();
    /// assert!(id.crawford);
    /// assert_eq!((id.match_length, id.score), (5, [4, 2]));
    /// assert!(MatchId::parse("MAEAAAAAAAA").is_err()); // 11 characters
    /// ```
    ///
    /// # Errors
    /// Wrong length, a non-Base64 character, non-zero trailing bits, or a
    /// field value that is invalid ([`MatchId::validate`]).
    pub fn parse(text: &str) -> Result<Self, MatchIdError> {
        let n = text.chars().count();
        if n != 12 {
            return Err(MatchIdError::Length(n));
        }
        for (index, ch) in text.chars().enumerate() {
            if u8::try_from(ch).ok().and_then(base64_value).is_none() {
                return Err(MatchIdError::Character { index, ch });
            }
        }
        let mut bytes = [0u8; 9];
        // 12 checked characters are exactly 72 bits: this cannot fail.
        base64_decode(text, &mut bytes).map_err(|_| MatchIdError::Length(n))?;
        let trailing = get_bits(&bytes, 67, 5) as u8;
        if trailing != 0 {
            return Err(MatchIdError::TrailingBits(trailing));
        }
        let cube_owner = match get_bits(&bytes, 4, 2) {
            0 => Some(Seat::Zero),
            1 => Some(Seat::One),
            3 => None,
            _ => return Err(MatchIdError::CubeOwner),
        };
        let game_state = match get_bits(&bytes, 8, 3) {
            0 => GameState::NoGame,
            1 => GameState::Playing,
            2 => GameState::Over,
            3 => GameState::Resigned,
            4 => GameState::Dropped,
            other => return Err(MatchIdError::GameState(other as u8)),
        };
        let id = MatchId {
            cube_log2: get_bits(&bytes, 0, 4) as u8,
            cube_owner,
            on_roll: Seat::from_bit(get_bits(&bytes, 6, 1)),
            crawford: get_bits(&bytes, 7, 1) == 1,
            game_state,
            turn: Seat::from_bit(get_bits(&bytes, 11, 1)),
            double_pending: get_bits(&bytes, 12, 1) == 1,
            resignation: Resignation::from_code(get_bits(&bytes, 13, 2)),
            dice: (get_bits(&bytes, 15, 3) as u8, get_bits(&bytes, 18, 3) as u8),
            match_length: get_bits(&bytes, 21, 15) as u16,
            score: [get_bits(&bytes, 36, 15) as u16, get_bits(&bytes, 51, 15) as u16],
            jacoby_off: get_bits(&bytes, 66, 1) == 1,
        };
        id.validate()?;
        Ok(id)
    }

    /// Checks the fields: cube log2 at most 15, dice both 0 or both 1-6,
    /// scores below the match length in a match, the Crawford flag only in a
    /// match with a player 1-away, no dice while a double is pending, not both
    /// a double and a resignation pending, and while a game is being played
    /// the player to act is the player on roll exactly when nothing is
    /// pending (the other player when a double is).
    ///
    /// # Errors
    /// The first problem found.
    pub fn validate(&self) -> Result<(), MatchIdError> {
        if self.cube_log2 > 15 {
            return Err(MatchIdError::TooLarge { field: "cube log2", value: self.cube_log2.into(), max: 15 });
        }
        for (field, value) in
            [("match length", self.match_length), ("score 0", self.score[0]), ("score 1", self.score[1])]
        {
            if value > 0x7fff {
                return Err(MatchIdError::TooLarge { field, value: value.into(), max: 0x7fff });
            }
        }
        let (d1, d2) = self.dice;
        for (which, value) in [(1, d1), (2, d2)] {
            if value > 6 {
                return Err(MatchIdError::Die { which, value });
            }
        }
        if (d1 == 0) != (d2 == 0) {
            return Err(MatchIdError::OneDie(d1, d2));
        }
        let length = self.match_length;
        if length > 0 {
            for (player, score) in [(0u8, self.score[0]), (1, self.score[1])] {
                if score >= length {
                    return Err(MatchIdError::ScoreNotBelowLength { player, score, length });
                }
            }
        }
        if self.crawford {
            if length == 0 {
                return Err(MatchIdError::CrawfordInMoney);
            }
            if self.score[0].checked_add(1) != Some(length) && self.score[1].checked_add(1) != Some(length) {
                return Err(MatchIdError::CrawfordNotOneAway(self.score[0], self.score[1], length));
            }
        }
        if self.double_pending {
            if d1 != 0 {
                return Err(MatchIdError::DiceWithDouble(d1, d2));
            }
            if self.resignation != Resignation::None {
                return Err(MatchIdError::DoubleAndResignation);
            }
        }
        if self.game_state == GameState::Playing {
            let turn_err = |why| MatchIdError::Turn { turn: self.turn, on_roll: self.on_roll, why };
            if self.double_pending && self.turn == self.on_roll {
                return Err(turn_err("while a double is pending the other player must act"));
            }
            if !self.double_pending && self.resignation == Resignation::None && self.turn != self.on_roll {
                return Err(turn_err("with nothing pending the player on roll must act"));
            }
        }
        Ok(())
    }

    /// The cube value, `1 << cube_log2`.
    pub const fn cube_value(&self) -> u32 {
        1 << (self.cube_log2 & 15)
    }

    /// The 9 bytes of the key.
    pub fn to_bytes(&self) -> [u8; 9] {
        let mut b = [0u8; 9];
        put_bits(&mut b, 0, 4, self.cube_log2.into());
        let owner = match self.cube_owner {
            Some(Seat::Zero) => 0,
            Some(Seat::One) => 1,
            None => 3,
        };
        put_bits(&mut b, 4, 2, owner);
        put_bits(&mut b, 6, 1, self.on_roll.index() as u64);
        put_bits(&mut b, 7, 1, self.crawford.into());
        put_bits(&mut b, 8, 3, self.game_state.code());
        put_bits(&mut b, 11, 1, self.turn.index() as u64);
        put_bits(&mut b, 12, 1, self.double_pending.into());
        put_bits(&mut b, 13, 2, self.resignation.code());
        put_bits(&mut b, 15, 3, self.dice.0.into());
        put_bits(&mut b, 18, 3, self.dice.1.into());
        put_bits(&mut b, 21, 15, self.match_length.into());
        put_bits(&mut b, 36, 15, self.score[0].into());
        put_bits(&mut b, 51, 15, self.score[1].into());
        put_bits(&mut b, 66, 1, self.jacoby_off.into());
        b
    }

    /// The game context seen from the player on roll ([`MatchId::on_roll`],
    /// the doubler while a double is pending): score `(on roll, opponent)`,
    /// cube owner relative to him, Jacoby from bit 66 in money play. Beavers
    /// are not recorded in a Match ID and come out as off; the maximum cube
    /// is the default.
    ///
    /// # Errors
    /// No game being played, a resignation pending (a `GameContext` cannot
    /// hold either), or an inconsistent context.
    pub fn to_context(&self) -> Result<GameContext, MatchIdError> {
        self.validate()?;
        if self.game_state != GameState::Playing {
            return Err(MatchIdError::Unrepresentable("the game state is not 1 (playing)"));
        }
        if self.resignation != Resignation::None {
            return Err(MatchIdError::Unrepresentable("a resignation is pending"));
        }
        let me = self.on_roll;
        let cube_owner = match self.cube_owner {
            None => CubeOwner::Centered,
            Some(s) if s == me => CubeOwner::OnRoll,
            Some(_) => CubeOwner::Opponent,
        };
        let dice = if self.double_pending {
            DiceState::Doubled
        } else if self.dice.0 == 0 {
            DiceState::ToRoll
        } else {
            DiceState::Rolled(
                Dice::new(self.dice.0, self.dice.1).map_err(|_| MatchIdError::Die { which: 1, value: self.dice.0 })?,
            )
        };
        let ctx = GameContext {
            cube_value: self.cube_value(),
            cube_owner,
            dice,
            score: (self.score[me.index()].into(), self.score[me.other().index()].into()),
            match_length: self.match_length.into(),
            crawford: self.crawford,
            jacoby: self.match_length == 0 && !self.jacoby_off,
            beaver: false,
            max_cube: GameContext::DEFAULT_MAX_CUBE.max(self.cube_value()),
        };
        ctx.validate()?;
        Ok(ctx)
    }

    /// The Match ID of a game in play described by `ctx`, with `on_roll`
    /// (gnubg's player 0 or 1) as the player on roll. Rolled dice are stored
    /// larger first, as gnubg does; bit 66 is set in match play and in money
    /// play without Jacoby.
    ///
    /// ```
    /// use gammon_rules::{GameContext, MatchId};
    /// let mut ctx = GameContext::new_match(5);
    /// ctx.score = (3, 1);
    /// # let seat0 = MatchId::parse("MAGgADAACAAE").unwrap().on_roll;
    /// let id = MatchId::from_context(&ctx, seat0).unwrap();
    /// assert_eq!(id.to_string(), "MAGgADAACAAE");
    /// ```
    ///
    /// # Errors
    /// An inconsistent context, a beaver or raccoon (no Match ID field), or
    /// values too large for their bit fields.
    pub fn from_context(ctx: &GameContext, on_roll: Seat) -> Result<Self, MatchIdError> {
        ctx.validate()?;
        let cube_log2 = ctx.cube_value.trailing_zeros();
        if cube_log2 > 15 {
            return Err(MatchIdError::TooLarge { field: "cube value", value: ctx.cube_value, max: 1 << 15 });
        }
        let field15 = |field, value: u32| {
            u16::try_from(value).ok().filter(|&v| v <= 0x7fff).ok_or(MatchIdError::TooLarge {
                field,
                value,
                max: 0x7fff,
            })
        };
        let mine = field15("score of the player on roll", ctx.score.0)?;
        let theirs = field15("score of the opponent", ctx.score.1)?;
        let match_length = field15("match length", ctx.match_length)?;
        let mut score = [0u16; 2];
        score[on_roll.index()] = mine;
        score[on_roll.other().index()] = theirs;
        let (double_pending, dice) = match ctx.dice {
            DiceState::ToRoll => (false, (0, 0)),
            DiceState::Rolled(d) => (false, (d.high(), d.low())),
            DiceState::Doubled => (true, (0, 0)),
            DiceState::Beavered | DiceState::Raccooned => {
                return Err(MatchIdError::Unrepresentable("a Match ID has no beaver or raccoon state"))
            }
        };
        let id = MatchId {
            cube_log2: cube_log2 as u8,
            cube_owner: match ctx.cube_owner {
                CubeOwner::Centered => None,
                CubeOwner::OnRoll => Some(on_roll),
                CubeOwner::Opponent => Some(on_roll.other()),
            },
            on_roll,
            crawford: ctx.crawford,
            game_state: GameState::Playing,
            turn: if double_pending { on_roll.other() } else { on_roll },
            double_pending,
            resignation: Resignation::None,
            dice,
            match_length,
            score,
            jacoby_off: match_length > 0 || !ctx.jacoby,
        };
        id.validate()?;
        Ok(id)
    }
}

impl fmt::Display for MatchId {
    /// The 12-character Match ID.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&base64_encode(&self.to_bytes(), 12))
    }
}

impl FromStr for MatchId {
    type Err = MatchIdError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_examples() {
        let money = MatchId::parse("MAEAAAAAAAAE").unwrap();
        assert_eq!(money.to_bytes(), [0x30, 0x01, 0, 0, 0, 0, 0, 0, 0x04]);
        assert_eq!(money.cube_owner, None);
        assert_eq!(money.on_roll, Seat::Zero);
        assert_eq!(money.game_state, GameState::Playing);
        assert!(money.jacoby_off);
        let ctx = money.to_context().unwrap();
        assert_eq!(ctx, GameContext::money());

        let m = MatchId::parse("MAGgADAACAAE").unwrap();
        assert_eq!((m.match_length, m.score, m.crawford), (5, [3, 1], false));
        let m = MatchId::parse("sAGgAEAAEAAE").unwrap();
        assert_eq!((m.match_length, m.score, m.crawford), (5, [4, 2], true));
        let ctx = m.to_context().unwrap();
        assert_eq!((ctx.score, ctx.crawford), ((4, 2), true));
        for s in ["MAEAAAAAAAAE", "MAGgADAACAAE", "sAGgAEAAEAAE"] {
            assert_eq!(MatchId::parse(s).unwrap().to_string(), s);
            let id = MatchId::parse(s).unwrap();
            assert_eq!(MatchId::from_context(&id.to_context().unwrap(), id.on_roll).unwrap(), id);
        }
    }

    #[test]
    fn full_state_round_trips() {
        let id = MatchId {
            cube_log2: 3,
            cube_owner: Some(Seat::One),
            on_roll: Seat::One,
            crawford: false,
            game_state: GameState::Playing,
            turn: Seat::Zero,
            double_pending: true,
            resignation: Resignation::None,
            dice: (0, 0),
            match_length: 11,
            score: [7, 9],
            jacoby_off: true,
        };
        let text = id.to_string();
        assert_eq!(text.len(), 12);
        assert_eq!(MatchId::parse(&text).unwrap(), id);
        let ctx = id.to_context().unwrap();
        assert_eq!(ctx.cube_value, 8);
        assert_eq!(ctx.cube_owner, CubeOwner::OnRoll);
        assert_eq!(ctx.dice, DiceState::Doubled);
        assert_eq!(ctx.score, (9, 7));
        assert_eq!(MatchId::from_context(&ctx, Seat::One).unwrap(), id);

        let rolled = MatchId { double_pending: false, turn: Seat::One, dice: (2, 5), ..id };
        let back = MatchId::parse(&rolled.to_string()).unwrap();
        assert_eq!(back.dice, (2, 5)); // order kept
        assert_eq!(back.to_context().unwrap().dice, DiceState::Rolled(Dice::new(5, 2).unwrap()));
        // from_context writes the larger die first, as gnubg does.
        assert_eq!(MatchId::from_context(&back.to_context().unwrap(), Seat::One).unwrap().dice, (5, 2));
    }

    #[test]
    fn jacoby_and_money() {
        let mut ctx = GameContext::money();
        ctx.jacoby = true;
        let id = MatchId::from_context(&ctx, Seat::Zero).unwrap();
        assert!(!id.jacoby_off);
        assert_eq!(id.to_context().unwrap(), ctx);
        ctx.dice = DiceState::Beavered;
        ctx.beaver = true;
        assert!(matches!(MatchId::from_context(&ctx, Seat::Zero), Err(MatchIdError::Unrepresentable(_))));
        let mut big = GameContext::new_match(40000);
        big.score = (1, 2);
        assert!(matches!(MatchId::from_context(&big, Seat::Zero), Err(MatchIdError::TooLarge { .. })));
    }

    /// `base` with the given `(start, width, value)` fields overwritten.
    fn with_bits(base: &str, fields: &[(usize, usize, u64)]) -> String {
        let mut b = [0u8; 9];
        base64_decode(base, &mut b).unwrap();
        for &(start, width, value) in fields {
            for j in 0..width {
                let k = start + j;
                b[k / 8] &= !(1 << (k % 8));
            }
            put_bits(&mut b, start, width, value);
        }
        base64_encode(&b, 12)
    }

    #[test]
    fn rejects_bad_ids() {
        assert_eq!(MatchId::parse(""), Err(MatchIdError::Length(0)));
        assert_eq!(MatchId::parse("MAEAAAAAAAAEA"), Err(MatchIdError::Length(13)));
        assert_eq!(MatchId::parse("MAEAAAAAA=AE"), Err(MatchIdError::Character { index: 9, ch: '=' }));
        assert_eq!(MatchId::parse("MAEAAAAAAAéE"), Err(MatchIdError::Character { index: 10, ch: 'é' }));
        let base = "MAEAAAAAAAAE";
        assert_eq!(MatchId::parse(&with_bits(base, &[(67, 5, 1)])), Err(MatchIdError::TrailingBits(1)));
        assert_eq!(MatchId::parse(&with_bits(base, &[(4, 2, 2)])), Err(MatchIdError::CubeOwner));
        assert_eq!(MatchId::parse(&with_bits(base, &[(8, 3, 5)])), Err(MatchIdError::GameState(5)));
        assert_eq!(MatchId::parse(&with_bits(base, &[(15, 3, 7)])), Err(MatchIdError::Die { which: 1, value: 7 }));
        let one_die = with_bits(base, &[(15, 3, 3)]);
        assert_eq!(MatchId::parse(&one_die), Err(MatchIdError::OneDie(3, 0)));
        let dice = with_bits(base, &[(15, 3, 3), (18, 3, 7)]);
        assert_eq!(MatchId::parse(&dice), Err(MatchIdError::Die { which: 2, value: 7 }));
        // 5-point match with player 0 at 5.
        let over = with_bits("MAGgADAACAAE", &[(36, 15, 5)]);
        assert!(matches!(MatchId::parse(&over), Err(MatchIdError::ScoreNotBelowLength { player: 0, score: 5, .. })));
        assert_eq!(MatchId::parse(&with_bits(base, &[(7, 1, 1)])), Err(MatchIdError::CrawfordInMoney));
        let crawford_no = with_bits("MAGgADAACAAE", &[(7, 1, 1)]); // 3-1 in a 5-point match
        assert_eq!(MatchId::parse(&crawford_no), Err(MatchIdError::CrawfordNotOneAway(3, 1, 5)));
        let turn = MatchId::parse(&with_bits(base, &[(11, 1, 1)])).unwrap_err();
        assert!(matches!(turn, MatchIdError::Turn { .. }));
        // The bits' values, not the seats' names.
        assert!(turn.to_string().starts_with("player to act (bit 11) is 1 and player on roll (bit 6) is 0"), "{turn}");
        assert!(matches!(MatchId::parse(&with_bits(base, &[(12, 1, 1)])), Err(MatchIdError::Turn { .. })));
        let doubled_dice = with_bits(base, &[(12, 1, 1), (11, 1, 1), (15, 3, 3), (18, 3, 1)]);
        assert_eq!(MatchId::parse(&doubled_dice), Err(MatchIdError::DiceWithDouble(3, 1)));
        // A game that is over parses but has no GameContext.
        let over = MatchId::parse(&with_bits(base, &[(8, 3, 2)])).unwrap();
        assert!(matches!(over.to_context(), Err(MatchIdError::Unrepresentable(_))));
    }

    #[test]
    fn never_panics_on_any_12_chars() {
        // Every single-character change of a valid ID either parses and
        // round-trips, or is rejected.
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-é ";
        for base in ["MAEAAAAAAAAE", "sAGgAEAAEAAE", "MAGgADAACAAE"] {
            for i in 0..12 {
                for c in alphabet.chars() {
                    let s: String = base.chars().enumerate().map(|(j, b)| if j == i { c } else { b }).collect();
                    if let Ok(id) = MatchId::parse(&s) {
                        assert_eq!(id.to_string(), s);
                        let _ = id.to_context();
                    }
                }
            }
        }
    }
}
