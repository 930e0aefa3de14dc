//! FIBS `rawboard` lines (CLIP "board state", boardstyle 3), as sent by the
//! First Internet Backgammon Server and by GNU Backgammon's external player
//! interface.
//!
//! The format details are documented on the public type.
//!
//! One format per file: reader, writer and round-trip tests (about 200 of
//! the lines; the code is about 310, the rest doc comments).

use crate::context::{ContextError, CubeOwner, DiceState, GameContext};
use crate::dice::Dice;
use crate::error::PositionError;
use crate::position::{Position, SideBoard};
use thiserror::Error;

/// A FIBS board line: the position and context, seen from the player on
/// roll, plus who "you" (the first name) are.
///
/// `position` and `context` are relative to the **player on roll**: the
/// player whose turn it is, or, while a double is pending, the player who
/// doubled. `you_on_roll` says whether that is "you" (the first name of the
/// line) or the opponent.
///
/// ```
/// use gammon_rules::{Dice, DiceState, FibsBoard, Position};
/// let line = "board:arena:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
/// let b = FibsBoard::parse(line).unwrap();
/// assert_eq!(b.position, Position::STARTING);
/// assert!(b.you_on_roll);
/// assert_eq!(b.context.dice, DiceState::Rolled(Dice::new(3, 1).unwrap()));
/// ```
///
/// ```text
/// board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0
/// ```
///
/// 53 fields separated by `:`: `board`, your name, the opponent's name, match
/// length (FIBS: 9999 = unlimited; gnubg: 0 = money), your score, the
/// opponent's score, 26 board cells, turn, your two dice, the opponent's two
/// dice, cube, you may double, the opponent may double, was doubled, color,
/// direction, home, bar, your checkers borne off ("on home"), his, your
/// checkers on the bar, his, can move, forced move, did Crawford, redoubles.
///
/// # Orientation (how "you" maps to a [`Position`])
///
/// From the CLIP specification (fibs.com `fibs_interface.html#board_state`
/// and the `rawboard` help page): positive cells are O's checkers, negative
/// X's; `color` is -1 if you are X, +1 if you are O, so **your checkers are
/// the cells whose sign equals `color`**. `turn` is -1 when it is X's turn,
/// +1 for O, 0 when the game is over, so you are to act exactly when
/// `turn == color`. `direction` -1 means you move from cell 24 towards 1:
/// your home (bearing off) is cell 0 and your bar cell 25; with `direction`
/// +1 you move 1 -> 24, your home is 25 and your bar cell 0. The `home` and
/// `bar` fields repeat this (0/25 or 25/0) and must agree. Hence your point
/// `p` is cell `p` (direction -1) or `25 - p` (direction +1), and the
/// opponent's point `q` is the cell of your point `25 - q`. Bar counts are
/// read as absolute values, as gnubg's reader does.
///
/// GNU Backgammon (1.07 `FIBSBoard()` in `drawboard.c`, and the arena's
/// `fibs_board()`) always writes color 1, direction -1, home 0, bar 25 with
/// "you" = gnubg's player 1 (positive), and the opponent's bar first; an
/// engine in seat 0 then gets `turn` = -1 and negative checkers.
///
/// # Cube and pending doubles
///
/// The cube owner is taken from the two "may double" flags as gnubg's reader
/// (`ProcessFIBSBoardInfo`) does: only you may double -> you own the cube;
/// only the opponent -> he does; otherwise centred. A cube of 1 is always
/// centred (see [`CubeOwner`]): there the flags only say who may double. A double is pending when
/// "was doubled" is non-zero, or (gnubg's reading of FIBS) when neither player
/// may double and no dice are shown. While a double is pending FIBS's `turn`
/// names the player who must answer (gnubg swaps sides in that case, see
/// savannah bug 36485), so the player on roll, the doubler, is the other
/// one. Beavers and raccoons have no FIBS representation.
///
/// # The Crawford game
///
/// FIBS does not flag the Crawford game itself: its last two fields are a
/// "non-Crawford" flag (3 when the Crawford rule is off) and a
/// "post-Crawford" flag (gnubg's reader). gnubg's own writer puts 1 in the
/// "did Crawford" field for the Crawford game. This reader calls a game the
/// Crawford game when a match player is 1-away, the post-Crawford field is
/// 0, the "did Crawford" field is 0 or 1, and the cube is untouched (value 1,
/// centred, no double pending). The writer marks post-Crawford games in the last
/// field.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FibsBoard {
    /// "You": the first name in the line.
    pub player_name: String,
    /// The opponent: the second name.
    pub opponent_name: String,
    /// True if "you" are the player on roll (the doubler while a double is
    /// pending).
    pub you_on_roll: bool,
    /// The board seen from the player on roll.
    pub position: Position,
    /// Cube, dice, score and rules relative to the player on roll. FIBS
    /// carries no Jacoby, beaver or maximum-cube setting: those are off and
    /// the default.
    pub context: GameContext,
}

/// A malformed or impossible FIBS board line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum FibsError {
    /// The line does not start with `board:`.
    #[error("a FIBS board line starts with \"board:\"")]
    NotABoard,
    /// Not 53 fields.
    #[error("a FIBS board line has 53 ':'-separated fields (board, 2 names, 3 match numbers, 26 cells, 21 state fields); found {0}")]
    FieldCount(usize),
    /// An empty player name.
    #[error("the {0} name is empty")]
    EmptyName(&'static str),
    /// A field that is not an integer.
    #[error("field {index} ({field}) is {}, not an integer", crate::quote(.text))]
    NotANumber {
        /// Index of the field in the line (0 = `board`).
        index: usize,
        /// Its name.
        field: &'static str,
        /// The text found.
        text: String,
    },
    /// A number outside its allowed values.
    #[error("field {index} ({field}) is {value}; allowed: {allowed}")]
    OutOfRange {
        /// Index of the field in the line (0 = `board`).
        index: usize,
        /// Its name.
        field: &'static str,
        /// The value found.
        value: i64,
        /// What is allowed.
        allowed: &'static str,
    },
    /// `home` and `bar` do not match `direction`.
    #[error("direction {direction} needs home/bar {}, found home {home} and bar {bar}", home_bar_for(.direction))]
    HomeBar {
        /// The direction field.
        direction: i64,
        /// The home field.
        home: i64,
        /// The bar field.
        bar: i64,
    },
    /// Exactly one die of a pair is rolled.
    #[error("{whose} dice are {d1}-{d2}: both 0 (not rolled) or both 1 to 6")]
    OneDie {
        /// `"your"` or `"the opponent's"`.
        whose: &'static str,
        /// First die.
        d1: i64,
        /// Second die.
        d2: i64,
    },
    /// `turn` is 0: the game is over, nobody is on roll.
    #[error("turn is 0: the game is over and nobody is on roll")]
    GameOver,
    /// The board is impossible; the point is numbered for the player on
    /// roll.
    #[error("impossible board")]
    Position(#[from] PositionError),
    /// The game context is inconsistent.
    #[error("inconsistent game context")]
    Context(#[from] ContextError),
    /// Writing: a name that cannot go in a line.
    #[error("name {} cannot be written: names must be non-empty and contain no ':' or line break", crate::quote(.0))]
    BadName(String),
    /// Writing: a state FIBS cannot express.
    #[error("cannot be written as a FIBS board: {0}")]
    Unrepresentable(&'static str),
}

/// The home and bar fields that go with a direction.
fn home_bar_for(direction: &i64) -> &'static str {
    if *direction < 0 {
        "0/25"
    } else {
        "25/0"
    }
}

/// Number of fields in a board line.
const FIELDS: usize = 53;
/// Index of the first board cell.
const CELLS: usize = 6;
/// Index of the turn field (after the 26 cells).
const TURN: usize = CELLS + 26;

/// The name of field `index`, for error messages.
fn field_name(index: usize) -> &'static str {
    const TAIL: [&str; 21] = [
        "turn",
        "your die 1",
        "your die 2",
        "opponent's die 1",
        "opponent's die 2",
        "cube",
        "you may double",
        "opponent may double",
        "was doubled",
        "color",
        "direction",
        "home",
        "bar",
        "your checkers borne off",
        "opponent's checkers borne off",
        "your checkers on the bar",
        "opponent's checkers on the bar",
        "can move",
        "forced move",
        "did Crawford",
        "redoubles",
    ];
    match index {
        0 => "board",
        1 => "your name",
        2 => "opponent's name",
        3 => "match length",
        4 => "your score",
        5 => "opponent's score",
        i if (CELLS..TURN).contains(&i) => "board cell",
        i => TAIL.get(i - TURN).copied().unwrap_or("extra field"),
    }
}

/// Reads an integer: an optional `-` and ASCII digits.
fn int(index: usize, text: &str) -> Result<i64, FibsError> {
    let bad = || FibsError::NotANumber { index, field: field_name(index), text: text.to_string() };
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    text.parse::<i64>().map_err(|_| bad())
}

/// Field `index` of `v` checked to lie in `lo..=hi`.
fn ranged(v: &[i64], index: usize, lo: i64, hi: i64, allowed: &'static str) -> Result<i64, FibsError> {
    let value = v.get(index).copied().unwrap_or(0);
    if value < lo || value > hi {
        return Err(FibsError::OutOfRange { index, field: field_name(index), value, allowed });
    }
    Ok(value)
}

/// A checker count (0..=15) as `u8`.
fn checkers(value: i64) -> u8 {
    u8::try_from(value.unsigned_abs().min(15)).unwrap_or(15)
}

/// Reads a dice pair at `index`, `index + 1`: `None` if not rolled.
fn dice_pair(v: &[i64], index: usize, whose: &'static str) -> Result<Option<Dice>, FibsError> {
    let d1 = ranged(v, index, 0, 6, "0 (not rolled) to 6")?;
    let d2 = ranged(v, index + 1, 0, 6, "0 (not rolled) to 6")?;
    match (d1, d2) {
        (0, 0) => Ok(None),
        (1..=6, 1..=6) => Ok(Dice::new(d1 as u8, d2 as u8).ok()),
        _ => Err(FibsError::OneDie { whose, d1, d2 }),
    }
}

impl FibsBoard {
    /// Reads a FIBS board line (surrounding whitespace and NUL bytes are
    /// ignored). See [`FibsBoard`] for how the fields are
    /// interpreted.
    ///
    /// ```
    /// use gammon_rules::{Dice, DiceState, FibsBoard, Position};
    /// // The example of the CLIP specification: you are O, on roll with 6-2,
    /// // 3-point match at 0-0.
    /// let b = FibsBoard::parse("board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0").unwrap();
    /// assert_eq!((b.player_name.as_str(), b.you_on_roll), ("You", true));
    /// assert_eq!(b.position, Position::STARTING);
    /// assert_eq!(b.context.dice, DiceState::Rolled(Dice::new(6, 2).unwrap()));
    /// assert_eq!(b.context.match_length, 3);
    /// assert!(FibsBoard::parse("board:You:someplayer:3:0:0").is_err());
    /// ```
    ///
    /// # Errors
    /// Not a board line, a wrong field count, an empty name, a field that is
    /// not an integer or out of range (cells above 15 checkers, dice above
    /// 6, color or direction not ±1, flags not 0/1, ...), home/bar not
    /// matching the direction, a game that is over, an impossible board, or
    /// an inconsistent context.
    pub fn parse(line: &str) -> Result<Self, FibsError> {
        let line = line.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        let tokens: Vec<&str> = line.split(':').collect();
        if tokens.first() != Some(&"board") {
            return Err(FibsError::NotABoard);
        }
        if tokens.len() != FIELDS {
            return Err(FibsError::FieldCount(tokens.len()));
        }
        let name = |i: usize, which| match tokens.get(i) {
            Some(s) if !s.is_empty() => Ok(s.to_string()),
            _ => Err(FibsError::EmptyName(which)),
        };
        let player_name = name(1, "player's")?;
        let opponent_name = name(2, "opponent's")?;
        let mut v = [0i64; FIELDS];
        for (index, (slot, text)) in v.iter_mut().zip(&tokens).enumerate().skip(3) {
            *slot = int(index, text)?;
        }
        let length = ranged(&v, 3, 0, 9999, "0 (money) to 9999 (FIBS: unlimited)")?;
        let match_length = if length == 9999 { 0 } else { length as u32 };
        let your_score = ranged(&v, 4, 0, i64::from(u32::MAX), "0 or more")? as u32;
        let opp_score = ranged(&v, 5, 0, i64::from(u32::MAX), "0 or more")? as u32;
        for index in CELLS..TURN {
            ranged(&v, index, -15, 15, "-15 to 15 checkers")?;
        }
        let turn = ranged(&v, TURN, -1, 1, "-1 (X to act), 1 (O to act) or 0 (game over)")?;
        let your_dice = dice_pair(&v, TURN + 1, "your")?;
        let opp_dice = dice_pair(&v, TURN + 3, "the opponent's")?;
        let cube = ranged(&v, TURN + 5, 1, 1 << 30, "a power of two from 1")? as u32;
        let you_may = ranged(&v, TURN + 6, 0, 1, "0 or 1")? == 1;
        let opp_may = ranged(&v, TURN + 7, 0, 1, "0 or 1")? == 1;
        let was_doubled = ranged(&v, TURN + 8, -1, 1, "0, or 1 / -1 (a double is pending)")?;
        let color = ranged(&v, TURN + 9, -1, 1, "-1 (you are X) or 1 (you are O)")?;
        let direction = ranged(&v, TURN + 10, -1, 1, "-1 (you move 24 -> 1) or 1 (you move 1 -> 24)")?;
        for (index, value) in [(TURN + 9, color), (TURN + 10, direction)] {
            if value == 0 {
                return Err(FibsError::OutOfRange { index, field: field_name(index), value, allowed: "-1 or 1" });
            }
        }
        let home = v[TURN + 11];
        let bar = v[TURN + 12];
        if (direction < 0 && (home, bar) != (0, 25)) || (direction > 0 && (home, bar) != (25, 0)) {
            return Err(FibsError::HomeBar { direction, home, bar });
        }
        for index in TURN + 13..TURN + 17 {
            ranged(&v, index, 0, 15, "0 to 15 checkers")?;
        }
        ranged(&v, TURN + 17, 0, 4, "0 to 4")?;
        let did_crawford = v[TURN + 19];
        let post_crawford = v[TURN + 20];
        if turn == 0 {
            return Err(FibsError::GameOver);
        }

        // Both sides' boards in their own numbering.
        let mut you: SideBoard = [0; 25];
        let mut opp: SideBoard = [0; 25];
        let (your_bar_cell, opp_bar_cell) = if direction < 0 { (25, 0) } else { (0, 25) };
        you[24] = checkers(v[CELLS + your_bar_cell]);
        opp[24] = checkers(v[CELLS + opp_bar_cell]);
        for cell in 1..=24usize {
            let n = v[CELLS + cell];
            if n == 0 {
                continue;
            }
            let my_point = if direction < 0 { cell } else { 25 - cell };
            if n.signum() == color {
                you[my_point - 1] = checkers(n);
            } else {
                opp[24 - my_point] = checkers(n);
            }
        }

        let doubled = was_doubled != 0 || (!you_may && !opp_may && your_dice.is_none() && opp_dice.is_none());
        let you_act = turn == color;
        let you_on_roll = you_act != doubled;
        let position =
            if you_on_roll { Position::from_boards(&you, &opp)? } else { Position::from_boards(&opp, &you)? };
        let (may_on_roll, may_other) = if you_on_roll { (you_may, opp_may) } else { (opp_may, you_may) };
        // At a cube of 1 the flags say who may double (post-Crawford, or the
        // Crawford game), not who owns it: a cube of 1 is centred.
        let cube_owner = match (may_on_roll, may_other) {
            _ if cube == 1 => CubeOwner::Centered,
            (true, false) => CubeOwner::OnRoll,
            (false, true) => CubeOwner::Opponent,
            _ => CubeOwner::Centered,
        };
        let dice = if doubled {
            DiceState::Doubled
        } else {
            match if you_on_roll { your_dice } else { opp_dice } {
                Some(d) => DiceState::Rolled(d),
                None => DiceState::ToRoll,
            }
        };
        let score = if you_on_roll { (your_score, opp_score) } else { (opp_score, your_score) };
        let one_away = match_length > 0
            && (your_score.checked_add(1) == Some(match_length) || opp_score.checked_add(1) == Some(match_length));
        let crawford = one_away
            && post_crawford == 0
            && (did_crawford == 0 || did_crawford == 1)
            && cube == 1
            && cube_owner == CubeOwner::Centered
            && !doubled;
        let context = GameContext {
            cube_value: cube,
            cube_owner,
            dice,
            score,
            match_length,
            crawford,
            jacoby: false,
            beaver: false,
            max_cube: GameContext::DEFAULT_MAX_CUBE.max(cube),
        };
        context.validate()?;
        Ok(FibsBoard { player_name, opponent_name, you_on_roll, position, context })
    }

    /// True if "you" must act now: roll or double, move, or answer a
    /// double.
    pub fn you_must_act(&self) -> bool {
        self.you_on_roll == self.context.dice.on_roll_must_act()
    }

    /// Writes the board line the way gnubg does (you = color 1, moving
    /// 24 -> 1, home 0, bar 25; both dice pairs show the roll), with the
    /// checker counts on the bar and borne off filled in, "was doubled" 1 if
    /// the opponent doubled and -1 if you did, and the post-Crawford flag in
    /// the last field. Money play is written as match length 0.
    /// `FibsBoard::parse(&b.to_line()?)` gives `b` back for every board
    /// `parse` returns.
    ///
    /// ```
    /// use gammon_rules::FibsBoard;
    /// let line = "board:arena:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    /// let b = FibsBoard::parse(line).unwrap();
    /// assert_eq!(FibsBoard::parse(&b.to_line().unwrap()).unwrap(), b);
    /// ```
    ///
    /// # Errors
    /// A name that is empty or contains `:` or a line break, a beaver or
    /// raccoon (no FIBS field), or an inconsistent context.
    pub fn to_line(&self) -> Result<String, FibsError> {
        for name in [&self.player_name, &self.opponent_name] {
            if name.is_empty() || name.contains([':', '\n', '\r', '\0']) {
                return Err(FibsError::BadName(name.clone()));
            }
        }
        let c = &self.context;
        c.validate()?;
        let doubled = match c.dice {
            DiceState::Beavered | DiceState::Raccooned => {
                return Err(FibsError::Unrepresentable("FIBS has no beaver or raccoon state"))
            }
            DiceState::Doubled => true,
            _ => false,
        };
        let you_act = self.you_on_roll != doubled;
        let yours = if self.you_on_roll { self.position } else { self.position.switched() };
        let (me, him) = yours.to_boards();
        let mut f: Vec<String> = Vec::with_capacity(FIELDS);
        f.push("board".into());
        f.push(self.player_name.clone());
        f.push(self.opponent_name.clone());
        let (your_score, opp_score) = if self.you_on_roll { c.score } else { (c.score.1, c.score.0) };
        f.extend([c.match_length, your_score, opp_score].map(|n| n.to_string()));
        f.push((-i32::from(him[24])).to_string());
        for point in 1..=24 {
            let n = if me[point - 1] > 0 { i32::from(me[point - 1]) } else { -i32::from(him[24 - point]) };
            f.push(n.to_string());
        }
        f.push(me[24].to_string());
        let (d1, d2) = c.dice.dice().map_or((0, 0), |d| (d.high(), d.low()));
        let owner_for_you = if self.you_on_roll { c.cube_owner } else { c.cube_owner.switched() };
        let you_may = owner_for_you != CubeOwner::Opponent;
        let opp_may = owner_for_you != CubeOwner::OnRoll;
        let was_doubled = match (doubled, you_act) {
            (false, _) => 0,
            (true, true) => 1,
            (true, false) => -1,
        };
        let (my_off, his_off) = yours.borne_off();
        let post_crawford = u8::from(c.is_post_crawford());
        let tail: [i64; 21] = [
            if you_act { 1 } else { -1 },
            d1.into(),
            d2.into(),
            d1.into(),
            d2.into(),
            c.cube_value.into(),
            you_may.into(),
            opp_may.into(),
            was_doubled,
            1,
            -1,
            0,
            25,
            my_off.into(),
            his_off.into(),
            me[24].into(),
            him[24].into(),
            0,
            0,
            0,
            post_crawford.into(),
        ];
        f.extend(tail.iter().map(|n| n.to_string()));
        Ok(f.join(":"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARENA: &str = "board:arena:gnubg:0:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:3:1:3:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1";
    const CLIP: &str = "board:You:someplayer:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:-5:0:0:0:0:2:0:1:6:2:0:0:1:1:1:0:1:-1:0:25:0:0:0:0:2:0:0:0";
    // Lines captured from fibs.com by a FIBS client (kept in its sources as
    // test boards): you are X (color -1) moving 1 -> 24 (direction 1).
    const SPONI: &str = "board:You:sponi:5:0:2:0:2:2:1:2:2:3:0:0:1:0:0:0:0:0:0:0:0:-2:-2:0:-5:2:-4:-2:0:-1:6:3:0:0:2:0:1:0:-1:1:25:0:0:0:0:0:2:0:0:0";
    const KOLTES: &str = "board:You:koltes:7:4:4:-1:0:2:0:0:0:1:1:3:1:0:0:-3:1:0:-2:0:-3:2:-2:0:-2:-2:0:0:0:-1:3:3:0:0:1:1:1:0:-1:1:25:0:0:0:1:0:4:3:0:0";
    // You are O, the opponent (X) is to roll and owns the cube at 2.
    const JIGSAW: &str = "board:You:jigsaw:3:0:0:0:3:0:0:0:0:0:-2:0:0:0:0:0:-1:0:0:0:0:-1:-4:-3:-2:-2:0:0:0:-1:0:0:0:0:2:0:1:0:1:-1:0:25:12:0:0:0:2:6:0:0";

    fn board(points: &[(usize, u8)], bar: u8) -> SideBoard {
        let mut b = [0u8; 25];
        for &(p, n) in points {
            b[p - 1] = n;
        }
        b[24] = bar;
        b
    }

    fn round_trips(b: &FibsBoard) {
        let line = b.to_line().unwrap();
        assert_eq!(&FibsBoard::parse(&line).unwrap(), b, "{line}");
    }

    #[test]
    fn arena_line() {
        let b = FibsBoard::parse(ARENA).unwrap();
        assert_eq!((b.player_name.as_str(), b.opponent_name.as_str()), ("arena", "gnubg"));
        assert!(b.you_on_roll && b.you_must_act());
        assert_eq!(b.position, Position::STARTING);
        assert_eq!(
            b.context,
            GameContext { dice: DiceState::Rolled(Dice::new(3, 1).unwrap()), ..GameContext::money() }
        );
        round_trips(&b);
        // With NUL and newline as gnubg sends it.
        assert_eq!(FibsBoard::parse(&format!("{ARENA}\n\0")).unwrap(), b);
        // Written back: same fields as the arena's, bar the last (redoubles).
        let line = b.to_line().unwrap();
        assert_eq!(line.rsplit_once(':').unwrap().0, ARENA.rsplit_once(':').unwrap().0);
    }

    #[test]
    fn clip_example() {
        let b = FibsBoard::parse(CLIP).unwrap();
        assert!(b.you_on_roll);
        assert_eq!(b.position, Position::STARTING);
        assert_eq!(b.context.dice, DiceState::Rolled(Dice::new(6, 2).unwrap()));
        assert_eq!((b.context.match_length, b.context.score, b.context.crawford), (3, (0, 0), false));
        round_trips(&b);
    }

    #[test]
    fn you_are_x_moving_up() {
        let b = FibsBoard::parse(SPONI).unwrap();
        assert!(b.you_on_roll);
        let me = board(&[(7, 2), (6, 2), (4, 5), (2, 4), (1, 2)], 0);
        let him = board(&[(1, 2), (2, 2), (3, 1), (4, 2), (5, 2), (6, 3), (9, 1), (22, 2)], 0);
        assert_eq!(b.position, Position::from_boards(&me, &him).unwrap());
        assert_eq!(b.context.dice, DiceState::Rolled(Dice::new(6, 3).unwrap()));
        assert_eq!((b.context.cube_value, b.context.cube_owner), (2, CubeOwner::Opponent));
        assert_eq!((b.context.score, b.context.match_length), ((0, 2), 5));
        round_trips(&b);

        let k = FibsBoard::parse(KOLTES).unwrap();
        assert!(k.you_on_roll);
        assert_eq!(k.position.my_bar(), 1);
        let me = board(&[(13, 3), (10, 2), (8, 3), (6, 2), (4, 2), (3, 2)], 1);
        let him = board(&[(2, 2), (6, 1), (7, 1), (8, 3), (9, 1), (13, 1), (18, 2)], 0);
        assert_eq!(k.position, Position::from_boards(&me, &him).unwrap());
        assert_eq!(k.context.dice, DiceState::Rolled(Dice::new(3, 3).unwrap()));
        assert_eq!((k.context.score, k.context.match_length, k.context.cube_owner), ((4, 4), 7, CubeOwner::Centered));
        round_trips(&k);
    }

    #[test]
    fn opponent_on_roll() {
        let b = FibsBoard::parse(JIGSAW).unwrap();
        assert!(!b.you_on_roll && !b.you_must_act());
        assert_eq!(b.context.dice, DiceState::ToRoll);
        assert_eq!((b.context.cube_value, b.context.cube_owner), (2, CubeOwner::OnRoll));
        // Seen from the opponent (X, on roll); "you" have 3 on your 1-point.
        let you = board(&[(1, 3)], 0);
        let x = board(&[(18, 2), (12, 1), (7, 1), (6, 4), (5, 3), (4, 2), (3, 2)], 0);
        assert_eq!(b.position, Position::from_boards(&x, &you).unwrap());
        round_trips(&b);

        // gnubg's writer for an engine in seat 0: turn -1, negative checkers.
        let seat0 = ARENA.replacen(":0:1:3:1:3:1:", ":0:-1:3:1:3:1:", 1);
        let s = FibsBoard::parse(&seat0).unwrap();
        assert!(!s.you_on_roll && s.position == Position::STARTING);
        round_trips(&s);
    }

    #[test]
    fn doubles_and_crawford() {
        // The opponent (X) doubled you; FIBS's turn names you, who must answer.
        let line = CLIP.replace(":1:6:2:0:0:1:1:1:0:", ":1:0:0:0:0:1:0:0:1:");
        let b = FibsBoard::parse(&line).unwrap();
        assert!(!b.you_on_roll && b.you_must_act());
        assert_eq!(b.context.dice, DiceState::Doubled);
        round_trips(&b);
        // No "was doubled" but nobody may double and no dice: also a double.
        let line = CLIP.replace(":1:6:2:0:0:1:1:1:0:", ":1:0:0:0:0:1:0:0:0:");
        assert_eq!(FibsBoard::parse(&line).unwrap(), b);

        // 4-2 in a 5-point match, nothing flagged: the Crawford game.
        let crawford = CLIP.replacen(":3:0:0:", ":5:4:2:", 1);
        let c = FibsBoard::parse(&crawford).unwrap();
        assert!(c.context.crawford && !c.context.may_double());
        round_trips(&c);
        // Post-Crawford flag in the last field.
        let post = format!("{}:1", crawford.rsplit_once(':').unwrap().0);
        let p = FibsBoard::parse(&post).unwrap();
        assert!(!p.context.crawford && p.context.is_post_crawford());
        round_trips(&p);
        // Non-Crawford flag (Crawford rule off).
        let off = crawford.replace(":0:0:0:2:0:0:0", ":0:0:0:2:0:3:0");
        assert!(!FibsBoard::parse(&off).unwrap().context.crawford);
        // gnubg's writer: "did Crawford" 1.
        let gnubg = crawford.replace(":0:0:0:2:0:0:0", ":0:0:0:2:0:1:0");
        assert!(FibsBoard::parse(&gnubg).unwrap().context.crawford);
        // Unlimited match written as 9999 is money.
        let unlimited = CLIP.replacen(":3:0:0:", ":9999:12:3:", 1);
        let u = FibsBoard::parse(&unlimited).unwrap();
        assert!(u.context.is_money());
        assert_eq!(u.context.score, (12, 3));
    }

    #[test]
    fn errors() {
        let e = |s: &str| FibsBoard::parse(s).unwrap_err();
        assert_eq!(e(""), FibsError::NotABoard);
        assert_eq!(e("boar:x"), FibsError::NotABoard);
        assert_eq!(e("board:You:someplayer:3:0:0"), FibsError::FieldCount(6));
        assert_eq!(e(&format!("{CLIP}:0")), FibsError::FieldCount(54));
        assert_eq!(e(&CLIP.replace("You", "")), FibsError::EmptyName("player's"));
        assert!(matches!(e(&CLIP.replacen(":3:0:0:", ":3:x:0:", 1)), FibsError::NotANumber { index: 4, .. }));
        assert!(matches!(e(&CLIP.replacen(":3:0:0:", ":3:+1:0:", 1)), FibsError::NotANumber { index: 4, .. }));
        assert!(matches!(
            e(&CLIP.replacen(":3:0:0:", ":3:0:3:", 1)),
            FibsError::Context(ContextError::ScoreNotBelowLength { .. })
        ));
        assert!(matches!(
            e(&CLIP.replacen(":3:0:0:0:-2:", ":3:0:0:0:-16:", 1)),
            FibsError::OutOfRange { index: 7, .. }
        ));
        assert!(matches!(
            e(&CLIP.replacen(":3:0:0:0:-2:", ":3:0:0:0:-3:", 1)),
            FibsError::Position(PositionError::TooManyCheckers { .. })
        ));
        assert_eq!(e(&CLIP.replace(":1:6:2:0:0:", ":0:6:2:0:0:")), FibsError::GameOver);
        assert!(matches!(e(&CLIP.replace(":1:6:2:0:0:", ":1:7:2:0:0:")), FibsError::OutOfRange { index: 33, .. }));
        assert!(matches!(e(&CLIP.replace(":1:6:2:0:0:", ":1:6:0:0:0:")), FibsError::OneDie { whose: "your", .. }));
        assert!(matches!(e(&CLIP.replace(":0:1:-1:0:25:", ":0:0:-1:0:25:")), FibsError::OutOfRange { index: 41, .. }));
        assert!(matches!(
            e(&CLIP.replace(":0:1:-1:0:25:", ":0:1:1:0:25:")),
            FibsError::HomeBar { direction: 1, home: 0, bar: 25 }
        ));
        assert!(matches!(
            e(&CLIP.replace(":1:1:1:0:1:", ":3:1:1:0:1:")),
            FibsError::Context(ContextError::CubeValue(3))
        ));
        assert!(matches!(e(&CLIP.replace(":1:1:1:0:1:", ":1:2:1:0:1:")), FibsError::OutOfRange { index: 38, .. }));
        assert!(matches!(e(&CLIP.replace(":1:1:1:0:1:", ":0:1:1:0:1:")), FibsError::OutOfRange { index: 37, .. }));
        let huge = CLIP.replacen(":3:0:0:", ":3:99999999999999999999:0:", 1);
        assert!(matches!(e(&huge), FibsError::NotANumber { index: 4, .. }));
    }

    #[test]
    fn writer_errors() {
        let mut b = FibsBoard::parse(ARENA).unwrap();
        b.player_name = "a:b".into();
        assert!(matches!(b.to_line(), Err(FibsError::BadName(_))));
        b.player_name = "a".into();
        b.context.beaver = true;
        b.context.dice = DiceState::Beavered;
        assert!(matches!(b.to_line(), Err(FibsError::Unrepresentable(_))));
    }

    #[test]
    fn never_panics_and_round_trips() {
        let alphabet = ["0", "-1", "1", "2", "6", "15", "16", "25", "9999", "", "x", "-", "99999999999"];
        for line in [ARENA, CLIP, SPONI, KOLTES, JIGSAW] {
            let fields: Vec<&str> = line.split(':').collect();
            for i in 0..fields.len() {
                for a in alphabet {
                    let mut f = fields.clone();
                    f[i] = a;
                    if let Ok(b) = FibsBoard::parse(&f.join(":")) {
                        round_trips(&b);
                    }
                }
                let _ = FibsBoard::parse(&fields[..i].join(":"));
            }
        }
    }
}
