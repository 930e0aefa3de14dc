//! The text form of a [`Game`]: one line of fields separated by `:`,
//! led by a version number, so a server can hand a game out (sealed) and
//! take it back. Every field is checked on reading; a state that reads
//! back is one the rules allow.
//!
//! Version 1: `1:POSITION_ID:ON_ROLL:CUBE:OWNER:AUTOMATIC:PHASE:TURNS:DECLINED:LENGTH:FLAGS:MURPHY:MAX_CUBE:SCORE0:SCORE1:CRAWFORD`
//! where ON_ROLL and OWNER are `0`/`1` (OWNER `-`: centred), DECLINED is
//! `0` (none) to `3` (backgammon), FLAGS three `0`/`1` for the cube, the
//! Jacoby rule and beavers, CRAWFORD two `0`/`1` (the Crawford game, and a
//! player has been 1-away). PHASE: `r` to roll (`R` after a cube turned
//! this turn), `d` doubled, `b` beavered, `c` raccooned, `m31` rolled,
//! `s` + offered (1-3) + dice or `-` + cube-turned `0`/`1` (a pending
//! resignation), or the end: `f` (finished), `p` (passed), `q` (resigned)
//! with winner, result and points (`f021`: seat Zero won a gammon worth 1
//! point), `x` stopped.

use super::{Game, Phase};
use crate::context::{CubeOwner, DiceState};
use crate::dice::Dice;
use crate::game::GameEnd;
use crate::game_result::GameResult;
use crate::match_play::{Cube, MatchRules, MatchState};
use crate::position::Position;
use crate::seat::Seat;
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// The version written first.
const VERSION: &str = "1";

/// A game state's text that does not read back.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StateError {
    /// Another version, or not a game state at all.
    #[error("not a version {VERSION} game state")]
    Version,
    /// A field missing or too many.
    #[error("a game state has 16 fields separated by ':', found {0}")]
    Fields(usize),
    /// A field that does not read.
    #[error("the game state's {0} field does not read")]
    Field(&'static str),
    /// Fields that read but contradict the rules or each other.
    #[error("the game state contradicts the rules: {0}")]
    Rules(&'static str),
}

fn seat_char(s: Seat) -> char {
    if s == Seat::Zero {
        '0'
    } else {
        '1'
    }
}

fn bit(b: bool) -> char {
    if b {
        '1'
    } else {
        '0'
    }
}

fn level(r: Option<GameResult>) -> u32 {
    r.map_or(0, GameResult::points)
}

impl fmt::Display for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let owner = self.cube.owner.map_or('-', seat_char);
        let r = self.state.rules();
        let [s0, s1] = self.state.score();
        write!(
            f,
            "{VERSION}:{}:{}:{}:{owner}:{}:",
            self.position.to_position_id(),
            seat_char(self.on_roll),
            self.cube.value,
            self.cube.automatic
        )?;
        match self.phase {
            Phase::ToRoll { cube_done } => write!(f, "{}", if cube_done { 'R' } else { 'r' })?,
            Phase::Doubled => write!(f, "d")?,
            Phase::Beavered => write!(f, "b")?,
            Phase::Raccooned => write!(f, "c")?,
            Phase::Rolled(d) => write!(f, "m{d}")?,
            Phase::Resigning { offered, dice, cube_done } => {
                let dice = dice.map_or_else(|| "-".to_string(), |d| d.to_string());
                write!(f, "s{}{dice}{}", offered.points(), bit(cube_done))?;
            }
            Phase::Over(end) => match end {
                GameEnd::Finished { winner, result, points } => {
                    write!(f, "f{}{}{points}", seat_char(winner), result.points())?;
                }
                GameEnd::Passed { winner, points } => write!(f, "p{}0{points}", seat_char(winner))?,
                GameEnd::Resigned { winner, result, points } => {
                    write!(f, "q{}{}{points}", seat_char(winner), result.points())?;
                }
                GameEnd::Stopped { .. } => write!(f, "x")?,
            },
        }
        write!(
            f,
            ":{}:{}:{}:{}{}{}:{}:{}:{s0}:{s1}:{}{}",
            self.turns,
            level(self.declined),
            r.length,
            bit(r.cube),
            bit(r.jacoby),
            bit(r.beaver),
            r.murphy,
            r.max_cube,
            bit(self.state.is_crawford()),
            bit(self.state.crawford_seen())
        )
    }
}

fn number(text: &str, name: &'static str) -> Result<u32, StateError> {
    // Digits only: no sign, no spaces.
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(StateError::Field(name));
    }
    text.parse().map_err(|_| StateError::Field(name))
}

fn seat(text: &str, name: &'static str) -> Result<Seat, StateError> {
    match text {
        "0" => Ok(Seat::Zero),
        "1" => Ok(Seat::One),
        _ => Err(StateError::Field(name)),
    }
}

fn result(code: u8) -> Option<GameResult> {
    match code {
        b'1' => Some(GameResult::Single),
        b'2' => Some(GameResult::Gammon),
        b'3' => Some(GameResult::Backgammon),
        _ => None,
    }
}

fn flags<const N: usize>(text: &str, name: &'static str) -> Result<[bool; N], StateError> {
    let b = text.as_bytes();
    if b.len() != N || !b.iter().all(|c| matches!(c, b'0' | b'1')) {
        return Err(StateError::Field(name));
    }
    Ok(std::array::from_fn(|i| b[i] == b'1'))
}

fn dice(text: &str) -> Option<Dice> {
    match text.as_bytes() {
        [a, b] if a.is_ascii_digit() && b.is_ascii_digit() => Dice::new(a - b'0', b - b'0').ok(),
        _ => None,
    }
}

/// The phase field, as [`Display`](fmt::Display) writes it.
fn phase(text: &str, on_roll: Seat) -> Option<Phase> {
    let (kind, rest) = text.split_at_checked(1)?;
    let b = rest.as_bytes();
    Some(match (kind, b) {
        ("r", []) => Phase::ToRoll { cube_done: false },
        ("R", []) => Phase::ToRoll { cube_done: true },
        ("d", []) => Phase::Doubled,
        ("b", []) => Phase::Beavered,
        ("c", []) => Phase::Raccooned,
        ("m", _) => Phase::Rolled(dice(rest)?),
        ("s", [o, .., last]) => {
            let offered = result(*o)?;
            let middle = rest.get(1..rest.len() - 1)?;
            let dice = if middle == "-" { None } else { Some(dice(middle)?) };
            let cube_done = match last {
                b'0' => false,
                b'1' => true,
                _ => return None,
            };
            Phase::Resigning { offered, dice, cube_done }
        }
        ("x", []) => Phase::Over(GameEnd::Stopped { on_roll }),
        ("f" | "p" | "q", [w, r, ..]) => {
            let winner = match w {
                b'0' => Seat::Zero,
                b'1' => Seat::One,
                _ => return None,
            };
            let points = number(rest.get(2..)?, "phase").ok()?;
            Phase::Over(match kind {
                "f" => GameEnd::Finished { winner, result: result(*r)?, points },
                "q" => GameEnd::Resigned { winner, result: result(*r)?, points },
                _ if *r == b'0' => GameEnd::Passed { winner, points },
                _ => return None,
            })
        }
        _ => return None,
    })
}

impl FromStr for Game {
    type Err = StateError;

    fn from_str(text: &str) -> Result<Self, StateError> {
        let f: Vec<&str> = text.split(':').collect();
        if f.first() != Some(&VERSION) {
            return Err(StateError::Version);
        }
        if f.len() != 16 {
            return Err(StateError::Fields(f.len()));
        }
        let position = Position::from_position_id(f[1]).map_err(|_| StateError::Field("position"))?;
        let on_roll = seat(f[2], "on roll")?;
        let owner = if f[4] == "-" { None } else { Some(seat(f[4], "cube owner")?) };
        let cube = Cube { value: number(f[3], "cube")?, owner, automatic: number(f[5], "automatic doubles")? };
        let phase = phase(f[6], on_roll).ok_or(StateError::Field("phase"))?;
        let turns = number(f[7], "turns")?;
        let declined = match f[8].as_bytes() {
            [b'0'] => None,
            [code] => Some(result(*code).ok_or(StateError::Field("declined resignation"))?),
            _ => return Err(StateError::Field("declined resignation")),
        };
        let [cube_on, jacoby, beaver] = flags::<3>(f[10], "rules")?;
        let rules = MatchRules {
            length: number(f[9], "match length")?,
            cube: cube_on,
            jacoby,
            beaver,
            murphy: number(f[11], "automatic doubles allowed")?,
            max_cube: number(f[12], "largest cube")?,
        };
        let score = [number(f[13], "score")?, number(f[14], "score")?];
        let [crawford, seen] = flags::<2>(f[15], "Crawford")?;
        let state = MatchState::from_parts(rules, score, crawford, seen)
            .ok_or(StateError::Rules("the score and the Crawford flags"))?;
        let game = Game { state, position, on_roll, cube, phase, turns, declined };
        game.check()?;
        Ok(game)
    }
}

impl Game {
    /// The rules a read state must keep: a cube that is a power of two
    /// within the largest cube, owned only after a double, no cube action
    /// where the rules have none, a game over where a side has borne off.
    fn check(&self) -> Result<(), StateError> {
        let c = self.cube;
        if !self.state.rules().max_cube.is_power_of_two() || !c.value.is_power_of_two() {
            return Err(StateError::Rules("the cube is a power of two"));
        }
        if c.automatic > self.state.rules().murphy {
            return Err(StateError::Rules("more automatic doubles than the rules allow"));
        }
        let over = matches!(self.phase, Phase::Over(_));
        if !over {
            // The cube, score and pending cube action, as the formats check them.
            let ctx = self.context();
            ctx.validate().map_err(|_| StateError::Rules("the cube, the score and the pending action"))?;
            if ctx.dice == DiceState::Doubled && ctx.cube_owner == CubeOwner::Opponent {
                return Err(StateError::Rules("only the cube owner doubles"));
            }
            if self.position.game_result().is_some() {
                return Err(StateError::Rules("a side has borne off all his checkers: the game is over"));
            }
            if self.state.winner().is_some() {
                return Err(StateError::Rules("the match is over"));
            }
            if !self.state.rules().cube && (c.value != 1 || ctx.dice.cube_pending()) {
                return Err(StateError::Rules("the game is played without the cube"));
            }
        }
        Ok(())
    }
}
