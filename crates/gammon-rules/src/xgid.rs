//! XGID, eXtreme Gammon's position text, read and written.
//!
//! The format details are documented on the public type. One format, one
//! file (as every ID format in this crate): about 360 lines of code, the
//! rest tests.

use crate::context::{ContextError, CubeOwner, DiceState, GameContext};
use crate::dice::Dice;
use crate::error::PositionError;
use crate::position::{Position, SideBoard};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// A position with its game context, read from or written as an XGID.
///
/// `position` is seen from the player on roll, i.e. the player named by the
/// XGID `turn` field; while a cube action is pending (dice `D`, `B`, `R`)
/// that is the player who doubled (see "The turn field while a cube action
/// is pending" below).
/// Whether he was drawn at the bottom or the top is not kept: a top-on-roll
/// XGID and the same situation written bottom-on-roll give equal `Xgid`s.
///
/// ```
/// use gammon_rules::{Dice, DiceState, Position, Xgid};
/// let x: Xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10".parse().unwrap();
/// assert_eq!(x.position, Position::STARTING);
/// assert_eq!(x.context.dice, DiceState::Rolled(Dice::new(5, 2).unwrap()));
/// assert_eq!(x.to_string(), "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10");
/// ```
///
/// ```text
/// XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10
///      position                   | | | |  | | | | max cube (log2, optional)
///                                 | | | |  | | | match length (0 = money)
///                                 | | | |  | | Crawford (match) / rules bit field (money)
///                                 | | | |  | score of the top player
///                                 | | | |  score of the bottom player
///                                 | | | dice
///                                 | | turn: 1 bottom, -1 top
///                                 | cube owner: 1 bottom, 0 centred, -1 top
///                                 cube value (log2)
/// ```
///
/// The 26 position characters are always written from the **bottom**
/// player's side, whoever is on roll: index 0 is the top player's bar,
/// 1..=24 the bottom player's points 1..24, 25 the bottom player's bar; `-` is
/// empty, `A`..`O` 1 to 15 bottom checkers, `a`..`o` top checkers.
///
/// # The turn field while a cube action is pending
///
/// With the dice field `D` (a double offered), `B` (the double was beavered)
/// or `R` (beavered and raccooned), the `turn` field still names the player
/// whose turn it is, i.e. **the player who doubled**, and the cube field is
/// the cube **before** the double. Who must answer follows from the letter:
/// the opponent after `D` (take, pass or beaver), the doubler after `B`
/// (accept, pass or raccoon), the opponent after `R`.
///
/// Sources: GNU Backgammon's XGID reader `SetXGID` (gnubg `set.c`, 1.06 and
/// later) sets `fMove` from the turn field and, for `D`, `fTurn = !fMove;
/// fDoubled = 1` with `nCube = 1 << cube field`; it does not accept `B` or
/// `R`. The meaning of `B` and `R` ("player doubled, opponent beavered";
/// "doubled, beavered, and raccooned") is the XG convention as documented
/// by XGID tools (e.g. the ankigammon project's `xgid.py`); the one to answer
/// a beaver is the original doubler (gnubg manual, "Optional rules":
/// "the original doubler has the option of accepting or refusing as with a
/// normal double"). Scores: field 6 is the bottom player's, field 7 the top
/// player's (gnubg reads them into `anScore[1]` / `anScore[0]` with the
/// bottom player as player 1). The rules field in a match is 0 or 1
/// (Crawford); in money play it is a bit field: 1 = Jacoby, 2 = beavers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Xgid {
    /// The board, seen from the player on roll (the doubler while a cube
    /// action is pending).
    pub position: Position,
    /// Cube, dice, score and rules, relative to the player on roll.
    pub context: GameContext,
}

/// A malformed or impossible XGID.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum XgidError {
    /// Not 9 or 10 colon-separated fields.
    #[error("an XGID has 9 or 10 fields separated by ':' (position, cube, owner, turn, dice, 2 scores, rules, match length, optional max cube); found {0}")]
    FieldCount(usize),
    /// The position field is not 26 characters.
    #[error("the position field has 26 characters (top bar, points 1-24, bottom bar); found {0}")]
    PositionLength(usize),
    /// A character that is not `-`, `A`..`P` or `a`..`p`.
    #[error("position character {ch:?} at index {index}: allowed are '-', 'A'-'O' (bottom checkers) and 'a'-'o' (top checkers)")]
    PositionChar {
        /// Index in the position field (0..26).
        index: usize,
        /// The character.
        ch: char,
    },
    /// Checkers on a bar cell of the wrong player.
    #[error("position character {ch:?} at index {index}: {why}")]
    ImpossibleCell {
        /// 0 or 25.
        index: usize,
        /// The character.
        ch: char,
        /// Explanation.
        why: &'static str,
    },
    /// The board is impossible (too many checkers, shared point, ...). The
    /// point in the error is numbered for the player on roll.
    #[error("impossible board")]
    Position(#[from] PositionError),
    /// A field that is not an integer.
    #[error("the {field} field is {}, not an integer", crate::quote(.text))]
    NotANumber {
        /// Field name.
        field: &'static str,
        /// The text found.
        text: String,
    },
    /// A number outside its allowed values.
    #[error("the {field} field is {value}; allowed: {allowed}")]
    OutOfRange {
        /// Field name.
        field: &'static str,
        /// The value found.
        value: i64,
        /// What is allowed.
        allowed: &'static str,
    },
    /// A dice field that is not `00`, two dice 1-6, `D`, `B` or `R`.
    #[error("the dice field is {}; allowed: 00 (to roll or double), two digits 1-6 (e.g. 52), D (doubled), B (beavered), R (raccooned)", crate::quote(.0))]
    Dice(String),
    /// The game context is inconsistent (score not below the match length,
    /// Crawford without a player 1-away, a double by the non-owner, ...).
    #[error("inconsistent game context")]
    Context(#[from] ContextError),
}

/// Reads an integer written as XG writes them: an optional `-` and digits.
fn int(field: &'static str, text: &str) -> Result<i64, XgidError> {
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(XgidError::NotANumber { field, text: text.to_string() });
    }
    text.parse::<i64>().map_err(|_| XgidError::NotANumber { field, text: text.to_string() })
}

/// An integer in `lo..=hi`.
fn int_in(field: &'static str, text: &str, lo: i64, hi: i64, allowed: &'static str) -> Result<i64, XgidError> {
    let value = int(field, text)?;
    if value < lo || value > hi {
        return Err(XgidError::OutOfRange { field, value, allowed });
    }
    Ok(value)
}

/// An unsigned count that fits a `u32`.
fn count(field: &'static str, text: &str) -> Result<u32, XgidError> {
    let v = int_in(field, text, 0, i64::from(u32::MAX), "0 or more")?;
    u32::try_from(v).map_err(|_| XgidError::OutOfRange { field, value: v, allowed: "0 or more" })
}

/// Reads the 26 position characters into (bottom, top) boards.
fn read_board(text: &str) -> Result<(SideBoard, SideBoard), XgidError> {
    let n = text.chars().count();
    if n != 26 {
        return Err(XgidError::PositionLength(n));
    }
    let mut bottom: SideBoard = [0; 25];
    let mut top: SideBoard = [0; 25];
    for (index, ch) in text.chars().enumerate() {
        let (is_bottom, n) = match ch {
            '-' => continue,
            'A'..='P' => (true, ch as u8 - b'A' + 1),
            'a'..='p' => (false, ch as u8 - b'a' + 1),
            _ => return Err(XgidError::PositionChar { index, ch }),
        };
        let cell = match (index, is_bottom) {
            (0, true) => {
                return Err(XgidError::ImpossibleCell {
                    index,
                    ch,
                    why: "index 0 is the top player's bar; only lowercase (top) checkers can be there",
                })
            }
            (25, false) => {
                return Err(XgidError::ImpossibleCell {
                    index,
                    ch,
                    why: "index 25 is the bottom player's bar; only uppercase (bottom) checkers can be there",
                })
            }
            // Top bar.
            (0, false) => top.get_mut(24),
            // Bottom bar, and bottom points 1..24 (index i = point i).
            (i, true) => bottom.get_mut(i - 1),
            // Top checkers on the bottom player's point i = top's point 25 - i.
            (i, false) => top.get_mut(24 - i),
        };
        if let Some(c) = cell {
            *c = n;
        }
    }
    Ok((bottom, top))
}

impl Xgid {
    /// Reads an XGID, with or without the `XGID=` prefix and surrounding
    /// whitespace, with 9 or 10 fields (the max cube is optional and
    /// defaults to [`GameContext::DEFAULT_MAX_CUBE`]).
    ///
    /// The position is turned to the view of the player on roll (the `turn`
    /// field), so a top-on-roll XGID and its bottom-on-roll mirror give the
    /// same result.
    ///
    /// ```
    /// use gammon_rules::{CubeOwner, Xgid};
    /// let bottom = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:5:10").unwrap();
    /// let top = Xgid::parse(" -b----E-C---eE---c-e----B-:1:-1:-1:00:1:3:0:5 ").unwrap();
    /// assert_eq!(bottom, top);
    /// assert_eq!(bottom.context.cube_owner, CubeOwner::OnRoll);
    /// assert_eq!(bottom.context.score, (3, 1));
    /// assert!(Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:72:0:0:0:0:10").is_err());
    /// ```
    ///
    /// # Errors
    /// A wrong field count, a bad position character or one on an impossible
    /// cell, an impossible board, a number out of range (cube log2 above 15,
    /// owner not -1/0/1, turn not ±1, rules field, max cube), a bad dice
    /// field, or an inconsistent context (see [`GameContext::validate`]).
    pub fn parse(text: &str) -> Result<Self, XgidError> {
        let text = text.trim();
        let body = match text.get(..5) {
            Some(p) if p.eq_ignore_ascii_case("XGID=") => text.get(5..).unwrap_or(""),
            _ => text,
        };
        let fields: Vec<&str> = body.split(':').collect();
        let [pos, cube, owner, turn, dice, s_bottom, s_top, rules, length, rest @ ..] = fields.as_slice() else {
            return Err(XgidError::FieldCount(fields.len()));
        };
        if rest.len() > 1 {
            return Err(XgidError::FieldCount(fields.len()));
        }
        let (bottom, top) = read_board(pos)?;
        let cube_log2 = int_in("cube", cube, 0, 15, "0 to 15 (log2 of the cube value)")?;
        let owner = int_in("cube owner", owner, -1, 1, "1 (bottom), 0 (centred), -1 (top)")?;
        let turn = int("turn", turn)?;
        if turn != 1 && turn != -1 {
            return Err(XgidError::OutOfRange {
                field: "turn",
                value: turn,
                allowed: "1 (bottom on roll) or -1 (top on roll)",
            });
        }
        let dice = match *dice {
            "00" => DiceState::ToRoll,
            "D" => DiceState::Doubled,
            "B" => DiceState::Beavered,
            "R" => DiceState::Raccooned,
            d => match d.as_bytes() {
                [a @ b'1'..=b'6', b @ b'1'..=b'6'] => {
                    DiceState::Rolled(Dice::new(a - b'0', b - b'0').map_err(|_| XgidError::Dice(d.to_string()))?)
                }
                _ => return Err(XgidError::Dice(d.to_string())),
            },
        };
        let s_bottom = count("bottom score", s_bottom)?;
        let s_top = count("top score", s_top)?;
        let match_length = count("match length", length)?;
        let rules = if match_length > 0 {
            int_in("Crawford", rules, 0, 1, "0 or 1 in a match (1 = Crawford game)")?
        } else {
            int_in("rules", rules, 0, 3, "0 to 3 in money play (1 = Jacoby, 2 = beavers)")?
        };
        let max_cube = match rest.first() {
            Some(m) => 1u32 << int_in("max cube", m, 0, 15, "0 to 15 (log2 of the largest cube)")?,
            None => GameContext::DEFAULT_MAX_CUBE,
        };
        let bottom_on_roll = turn == 1;
        let position =
            if bottom_on_roll { Position::from_boards(&bottom, &top)? } else { Position::from_boards(&top, &bottom)? };
        let owner_bottom_view = match owner {
            1 => CubeOwner::OnRoll,
            -1 => CubeOwner::Opponent,
            _ => CubeOwner::Centered,
        };
        let context = GameContext {
            cube_value: 1 << cube_log2,
            cube_owner: if bottom_on_roll { owner_bottom_view } else { owner_bottom_view.switched() },
            dice,
            score: if bottom_on_roll { (s_bottom, s_top) } else { (s_top, s_bottom) },
            match_length,
            crawford: match_length > 0 && rules == 1,
            jacoby: match_length == 0 && rules & 1 == 1,
            beaver: match_length == 0 && rules & 2 == 2,
            max_cube,
        };
        context.validate()?;
        Ok(Xgid { position, context })
    }
}

impl fmt::Display for Xgid {
    /// The canonical XGID: `XGID=` prefix, all 10 fields, the player on roll
    /// at the bottom (turn 1), rolled dice larger first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (me, him) = self.position.to_boards();
        let letter = |n: u8, upper: bool| -> char {
            if n == 0 {
                '-'
            } else {
                let base = if upper { b'A' } else { b'a' };
                char::from(base + n.min(16) - 1)
            }
        };
        f.write_str("XGID=")?;
        for index in 0..26 {
            let ch = match index {
                0 => letter(him[24], false),
                25 => letter(me[24], true),
                i if me[i - 1] > 0 => letter(me[i - 1], true),
                i => letter(him[24 - i], false),
            };
            write!(f, "{ch}")?;
        }
        let c = &self.context;
        let owner = match c.cube_owner {
            CubeOwner::Centered => 0,
            CubeOwner::OnRoll => 1,
            CubeOwner::Opponent => -1,
        };
        let dice = match c.dice {
            DiceState::ToRoll => "00".to_string(),
            DiceState::Rolled(d) => format!("{}{}", d.high(), d.low()),
            DiceState::Doubled => "D".to_string(),
            DiceState::Beavered => "B".to_string(),
            DiceState::Raccooned => "R".to_string(),
        };
        let rules =
            if c.match_length > 0 { u32::from(c.crawford) } else { u32::from(c.jacoby) | (u32::from(c.beaver) << 1) };
        write!(
            f,
            ":{}:{}:1:{}:{}:{}:{}:{}:{}",
            c.cube_value.checked_ilog2().unwrap_or(0),
            owner,
            dice,
            c.score.0,
            c.score.1,
            rules,
            c.match_length,
            c.max_cube.checked_ilog2().unwrap_or(0)
        )
    }
}

impl FromStr for Xgid {
    type Err = XgidError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::match_id::MatchId;

    /// The message and its `source()`s joined, as `{:#}` prints them.
    fn chain(e: &dyn std::error::Error) -> String {
        let mut text = e.to_string();
        let mut cause = e.source();
        while let Some(c) = cause {
            text = format!("{text}: {c}");
            cause = c.source();
        }
        text
    }

    #[test]
    fn wrapped_position_and_context_errors_name_their_cause_once() {
        let board = PositionError::SharedPoint { point: 7 };
        let context = ContextError::CubeValue(3);
        let cases: [(&dyn std::error::Error, String); 4] = [
            (&XgidError::Position(board.clone()), board.to_string()),
            (&XgidError::Context(context.clone()), context.to_string()),
            (&crate::FibsError::Position(board.clone()), board.to_string()),
            (&crate::FibsError::Context(context.clone()), context.to_string()),
        ];
        for (err, cause) in cases {
            let text = chain(err);
            assert_eq!(text.matches(cause.as_str()).count(), 1, "{text}");
        }
    }

    const START_52: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10";

    /// The XGID position field written from the other side.
    fn mirror_board(pos: &str) -> String {
        let c: Vec<char> = pos.chars().collect();
        let flip = |ch: char| {
            if ch.is_ascii_uppercase() {
                ch.to_ascii_lowercase()
            } else {
                ch.to_ascii_uppercase()
            }
        };
        (0..26).map(|i| flip(c[25 - i])).collect()
    }

    #[test]
    fn starting_position() {
        let x = Xgid::parse(START_52).unwrap();
        assert_eq!(x.position, Position::STARTING);
        assert_eq!(x.context.dice, DiceState::Rolled(Dice::new(5, 2).unwrap()));
        assert_eq!(x.context, GameContext { dice: x.context.dice, ..GameContext::money() });
        assert_eq!(x.to_string(), START_52);
        // Without prefix, without max cube, with whitespace: same thing.
        let y = Xgid::parse("  -b----E-C---eE---c-e----B-:0:0:1:25:0:0:0:0\n").unwrap();
        assert_eq!(x, y);
        // Top on roll: the board is symmetric, so the same position.
        let z = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:-1:52:0:0:0:0:10").unwrap();
        assert_eq!(z, x);
    }

    #[test]
    fn top_on_roll_equals_bottom_on_roll() {
        // Bottom (X) on roll after some play, cube 2 owned by the top player,
        // 7-point match 2-4, X has rolled 6-4.
        let bottom = "XGID=a--BaBC-A---eD---c-e-----A:1:-1:1:64:2:4:0:7:10";
        let pos = &bottom[5..31];
        let top = format!("XGID={}:1:1:-1:64:4:2:0:7:10", mirror_board(pos));
        let a = Xgid::parse(bottom).unwrap();
        let b = Xgid::parse(&top).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.context.cube_owner, CubeOwner::Opponent);
        assert_eq!(a.context.score, (2, 4));
        assert_eq!(a.context.cube_value, 2);
        assert_eq!(a.to_string(), bottom);
        assert_eq!(b.to_string(), bottom);
        // The position seen by the bottom player: his bar has 1 checker,
        // the top player's bar 1.
        assert_eq!((a.position.my_bar(), a.position.their_bar()), (1, 1));
        assert_eq!(a.position.my_checkers(3), 2);
        assert_eq!(a.position.their_checkers(4), 1);
    }

    #[test]
    fn match_crawford_and_cube() {
        let x = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:4:2:1:5:10").unwrap();
        assert!(x.context.crawford);
        assert_eq!((x.context.score, x.context.match_length), ((4, 2), 5));
        // The same context as the oracle's Crawford Match ID, whose player 0 is on roll.
        let m = MatchId::parse("sAGgAEAAEAAE").unwrap().to_context().unwrap();
        assert_eq!(x.context, m);
        // Crawford with the other player 1-away, top on roll.
        let y = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:-1:00:4:2:1:5:10").unwrap();
        assert_eq!(y.context.score, (2, 4));
        // Owned cube at 4 in a match, to roll.
        let z = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:2:1:1:00:1:3:0:7:10").unwrap();
        assert_eq!((z.context.cube_value, z.context.cube_owner), (4, CubeOwner::OnRoll));
        assert_eq!(Xgid::parse(&z.to_string()).unwrap(), z);
    }

    #[test]
    fn cube_actions() {
        // Bottom doubled from a centred 1-cube: turn names the doubler.
        let d = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:0:0:10").unwrap();
        assert_eq!(d.context.dice, DiceState::Doubled);
        assert_eq!(d.context.cube_value, 1);
        assert!(!d.context.dice.on_roll_must_act());
        assert_eq!(Xgid::parse(&d.to_string()).unwrap(), d);
        // Beaver needs money play with beavers (rules bit 2).
        let b = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:2:0:10").unwrap();
        assert!(b.context.beaver && !b.context.jacoby);
        assert_eq!(b.context.dice, DiceState::Beavered);
        assert_eq!(Xgid::parse(&b.to_string()).unwrap(), b);
        let r = Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:-1:R:0:0:3:0:10").unwrap();
        assert!(r.context.beaver && r.context.jacoby);
        assert_eq!(Xgid::parse(&r.to_string()).unwrap(), r);
        assert!(matches!(
            Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:B:0:0:0:0:10"),
            Err(XgidError::Context(ContextError::BeaverNotAllowed(_)))
        ));
        // Doubling a cube the opponent owns.
        assert!(matches!(
            Xgid::parse("XGID=-b----E-C---eE---c-e----B-:1:-1:1:D:0:0:0:0:10"),
            Err(XgidError::Context(ContextError::DoubleByNonOwner))
        ));
    }

    #[test]
    fn errors() {
        let e = |s: &str| Xgid::parse(s).unwrap_err();
        assert_eq!(e(""), XgidError::FieldCount(1));
        assert_eq!(e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0"), XgidError::FieldCount(8));
        assert_eq!(e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10:1"), XgidError::FieldCount(11));
        assert_eq!(e("XGID=-b----E-C---eE---c-e----B:0:0:1:52:0:0:0:0:10"), XgidError::PositionLength(25));
        assert_eq!(
            e("XGID=-b----E-C---eE---c-e----Ba:0:0:1:52:0:0:0:0:10"),
            XgidError::ImpossibleCell {
                index: 25,
                ch: 'a',
                why: "index 25 is the bottom player's bar; only uppercase (bottom) checkers can be there"
            }
        );
        assert!(matches!(
            e("XGID=Bb----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"),
            XgidError::ImpossibleCell { index: 0, .. }
        ));
        assert_eq!(
            e("XGID=-b----E-C---eE---c-e----Bx:0:0:1:52:0:0:0:0:10"),
            XgidError::PositionChar { index: 25, ch: 'x' }
        );
        assert_eq!(
            e("XGID=-b----E-C---eE---c-e--*-B-:0:0:1:52:0:0:0:0:10"),
            XgidError::PositionChar { index: 22, ch: '*' }
        );
        assert_eq!(
            e("XGID=-b----E-C---eE---c-e--é-B-:0:0:1:52:0:0:0:0:10"),
            XgidError::PositionChar { index: 22, ch: 'é' }
        );
        // 16 bottom checkers.
        assert!(matches!(
            e("XGID=-b----F-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10"),
            XgidError::Position(PositionError::TooManyCheckers { count: 16, .. })
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----P-:0:0:1:52:0:0:0:0:10"),
            XgidError::Position(PositionError::TooManyCheckers { .. })
        ));
        assert!(matches!(
            e("XGID=--------------------------:0:0:1:52:0:0:0:0:10"),
            XgidError::Position(PositionError::BothSidesOff)
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:16:0:1:52:0:0:0:0:10"),
            XgidError::OutOfRange { field: "cube", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:-1:0:1:52:0:0:0:0:10"),
            XgidError::OutOfRange { field: "cube", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:2:1:52:0:0:0:0:10"),
            XgidError::OutOfRange { field: "cube owner", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:0:52:0:0:0:0:10"),
            XgidError::OutOfRange { field: "turn", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:+1:52:0:0:0:0:10"),
            XgidError::NotANumber { field: "turn", .. }
        ));
        assert!(matches!(e("XGID=-b----E-C---eE---c-e----B-:0:0:1: 52:0:0:0:0:10"), XgidError::Dice(_)));
        for dice in ["07", "70", "5", "520", "d", "X", "0", "10"] {
            let s = format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:{dice}:0:0:0:0:10");
            assert_eq!(e(&s), XgidError::Dice(dice.to_string()), "{dice}");
        }
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:5:0:0:5:10"),
            XgidError::Context(ContextError::ScoreNotBelowLength { .. })
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:2:5:10"),
            XgidError::OutOfRange { field: "Crawford", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:4:0:10"),
            XgidError::OutOfRange { field: "rules", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:1:1:1:5:10"),
            XgidError::Context(ContextError::CrawfordNotOneAway { .. })
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:16"),
            XgidError::OutOfRange { field: "max cube", .. }
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:5:1:1:52:0:0:0:0:4"),
            XgidError::Context(ContextError::CubeAboveMax { cube: 32, max: 16 })
        ));
        assert!(matches!(
            e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:99999999999999999999:0:0:0:10"),
            XgidError::NotANumber { field: "bottom score", .. }
        ));
        assert!(matches!(e("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:-1:0:0:0:10"), XgidError::OutOfRange { .. }));
        // A shared point: bottom and top... cannot share a cell in XGID, but
        // the bar cells can be mis-assigned; a checker count over 15 on a
        // cell is caught as too many checkers.
        assert!(matches!(e("XGID=-b----E-C---eE---c-e---PB-:0:0:1:52:0:0:0:0:10"), XgidError::Position(_)));
    }

    #[test]
    fn never_panics_and_round_trips() {
        // Mutate every character of a few XGIDs; whatever parses must round-trip.
        let samples = [
            START_52,
            "XGID=a--BaBC-A---eD---c-e-----A:1:-1:1:64:2:4:0:7:10",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:D:0:0:3:0:10",
        ];
        let alphabet = "-AaBbOoPp019:D=RX é";
        for s in samples {
            for i in 0..s.chars().count() {
                for c in alphabet.chars() {
                    let t: String = s.chars().enumerate().map(|(j, b)| if j == i { c } else { b }).collect();
                    if let Ok(x) = Xgid::parse(&t) {
                        assert_eq!(Xgid::parse(&x.to_string()).unwrap(), x, "{t}");
                    }
                    let prefix: String = t.chars().take(i).collect();
                    let _ = Xgid::parse(&prefix);
                }
            }
        }
    }
}
