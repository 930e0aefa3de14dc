//! Move notation: gnubg's (`24/18 13/11`, `bar/22*`, `6/off`, `13/10(2)`)
//! and UBGI's (every single-die step written out, no `*`, no `(n)`).
//!
//! Points are in the mover's numbering. Parsing accepts both styles (`bar`
//! or `25`, `off` or `0`) and checks the move against the legal moves; an
//! illegal move gets the reason it is illegal.

use crate::dice::Dice;
use crate::movegen::{legal_sources, Move, MoveList};
use crate::position::{Position, BAR, OFF};
use std::fmt::Write as _;
use thiserror::Error;

/// Why a move could not be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// The text is not move notation.
    #[error("cannot read {}: {reason}", crate::quote(.token))]
    Syntax {
        /// The offending token.
        token: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// No checker of the mover's on a start point.
    #[error("you have no checker on {0} to move")]
    NoChecker(String),
    /// A checker moved while another is still on the bar.
    #[error("you must enter your checker(s) from the bar before moving {0}")]
    MustEnterFirst(String),
    /// A checker moved backwards or nowhere.
    #[error("{0} does not move forward")]
    Backwards(String),
    /// Landing on a point held by 2+ opposing checkers.
    #[error("point {0} is blocked: your opponent has two or more checkers there")]
    Blocked(u8),
    /// Bearing off before all checkers are home.
    #[error("you cannot bear off until all your checkers are in your home board")]
    NotAllHome,
    /// The distances moved do not fit the dice.
    #[error("the move covers {moved} pips, which the roll {dice} cannot make that way")]
    WrongDistance {
        /// Pips the written move covers (bear-offs counted to the edge).
        moved: u32,
        /// The roll.
        dice: Dice,
    },
    /// The move uses fewer dice than the rules require.
    #[error("you must use {required} dice with {dice} here; this move uses {used}")]
    TooFewDice {
        /// Dice a legal move uses.
        required: u8,
        /// Dice the written move uses.
        used: u8,
        /// The roll.
        dice: Dice,
    },
    /// Only one die can be played and it must be the larger.
    #[error("only one die can be played with {0}, and then it must be the larger one ({high})", high = .0.high())]
    MustPlayLarger(Dice),
    /// No checker can move: the only legal move is to pass.
    #[error("no checker can move with {0}: the turn passes")]
    NoLegalMove(Dice),
    /// Several legal moves fit what was written.
    #[error("the move is ambiguous: mark the hits with * (e.g. 13/10*/8)")]
    Ambiguous,
    /// More checker moves written than any roll has (four).
    #[error("more than {MAX_TOKENS} checker moves written; a roll moves checkers at most 4 times")]
    TooManyMoves,
    /// Anything else that is not legal.
    #[error("not a legal move with {0}")]
    Illegal(Dice),
}

/// The most tokens (`from/to`, each at least one step) a legal move has:
/// reading stops after one more, so a huge text is not read whole.
const MAX_TOKENS: usize = 4;

/// One checker's path in gnubg notation: from, to, intermediate points where
/// it hit, whether it hit on arrival, and a repeat count.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Token {
    from: u8,
    to: u8,
    /// All points visited after `from`, with a hit flag each; the last is `to`.
    path: Vec<(u8, bool)>,
    count: u8,
}

fn point_name(p: u8) -> String {
    match p as usize {
        BAR => "bar".to_string(),
        OFF => "off".to_string(),
        _ => p.to_string(),
    }
}

/// Hit flags for each step of `m` played from `pos` (mover on roll).
fn replay(pos: &Position, m: &Move) -> ([bool; 4], Position) {
    let mut p = *pos;
    let mut hits = [false; 4];
    for (i, s) in m.steps().iter().enumerate() {
        hits[i] = p.apply_step(usize::from(s.from), usize::from(s.to));
    }
    (hits, p)
}

impl Position {
    /// Writes `m` (a move of the player on roll) in gnubg's notation:
    /// steps of one checker merged (`bar/13`), intermediate hits shown
    /// (`13/7*/1*`), repeats counted (`13/10(2)`), highest start first.
    ///
    /// ```
    /// use gammon_rules::{Dice, Position};
    /// let start = Position::STARTING;
    /// let list = start.legal_moves(Dice::new(3, 1).unwrap());
    /// let names: Vec<String> = list.moves().iter().map(|m| start.format_move(m)).collect();
    /// assert!(names.contains(&"8/5 6/5".to_string()));
    /// assert!(names.contains(&"24/20".to_string()));
    /// ```
    pub fn format_move(&self, m: &Move) -> String {
        if m.is_empty() {
            return String::new();
        }
        let (hits, _) = replay(self, m);
        // Chains: a step continues an earlier chain if it starts where that chain ends.
        let mut chains: Vec<Vec<(u8, bool)>> = Vec::with_capacity(4);
        let mut starts: Vec<u8> = Vec::with_capacity(4);
        for (i, s) in m.steps().iter().enumerate() {
            let joined = chains.iter_mut().rev().find(|c| c.last().is_some_and(|&(p, _)| p == s.from && p != 0));
            match joined {
                Some(chain) => chain.push((s.to, hits[i])),
                None => {
                    starts.push(s.from);
                    chains.push(vec![(s.to, hits[i])]);
                }
            }
        }
        let mut tokens: Vec<Token> = starts
            .iter()
            .zip(chains)
            .map(|(&from, path)| {
                let to = path.last().map_or(from, |&(p, _)| p);
                // Intermediate points are shown only where the checker hit.
                let path: Vec<(u8, bool)> = path
                    .iter()
                    .enumerate()
                    .filter(|&(k, &(_, hit))| hit || k + 1 == path.len())
                    .map(|(_, &x)| x)
                    .collect();
                Token { from, to, path, count: 1 }
            })
            .collect();
        tokens.sort_by(|a, b| b.from.cmp(&a.from).then(b.to.cmp(&a.to)));
        // Identical paths are written once with a count; a hit by the first shows as *.
        let mut merged: Vec<Token> = Vec::with_capacity(tokens.len());
        for t in tokens {
            if let Some(last) = merged.last_mut() {
                let same_route = last.from == t.from
                    && last.path.len() == t.path.len()
                    && last.path.iter().zip(&t.path).all(|(a, b)| a.0 == b.0);
                if same_route {
                    last.count += 1;
                    for (a, b) in last.path.iter_mut().zip(&t.path) {
                        a.1 |= b.1;
                    }
                    continue;
                }
            }
            merged.push(t);
        }
        let mut out = String::new();
        for (i, t) in merged.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&point_name(t.from));
            for &(p, hit) in &t.path {
                out.push('/');
                out.push_str(&point_name(p));
                if hit {
                    out.push('*');
                }
            }
            if t.count > 1 {
                let _ = write!(out, "({})", t.count);
            }
        }
        out
    }
}

impl Move {
    /// UBGI notation: every single-die step written out in the order
    /// played, no `*`, no `(n)`. With `words`, the bar and off are written
    /// `bar` and `off` (UBGI 0.2); otherwise `25` and `0` (UBGI 0.01).
    /// The empty move is `pass` with words, an empty string without.
    ///
    /// ```
    /// use gammon_rules::{Move, Step};
    /// let m = Move::from_steps(&[Step { from: 25, to: 22 }, Step { from: 6, to: 0 }]);
    /// assert_eq!(m.to_ubgi(true), "bar/22 6/off");
    /// assert_eq!(m.to_ubgi(false), "25/22 6/0");
    /// ```
    pub fn to_ubgi(&self, words: bool) -> String {
        if self.is_empty() {
            return if words { "pass".to_string() } else { String::new() };
        }
        let name = |p: u8| if words { point_name(p) } else { p.to_string() };
        self.steps().iter().map(|s| format!("{}/{}", name(s.from), name(s.to))).collect::<Vec<_>>().join(" ")
    }
}

fn parse_point(text: &str, token: &str) -> Result<u8, MoveError> {
    let syntax = |reason| MoveError::Syntax { token: token.to_string(), reason };
    match text.to_ascii_lowercase().as_str() {
        "bar" | "b" => Ok(BAR as u8),
        "off" | "o" => Ok(OFF as u8),
        digits => {
            let n: u8 = digits.parse().map_err(|_| syntax("points are 1-24, bar (25) or off (0)"))?;
            if n > 25 {
                return Err(syntax("points are 1-24, bar (25) or off (0)"));
            }
            Ok(n)
        }
    }
}

fn parse_token(token: &str) -> Result<Token, MoveError> {
    let syntax = |reason| MoveError::Syntax { token: token.to_string(), reason };
    let (body, count) = match token.strip_suffix(')') {
        Some(rest) => {
            let (body, n) = rest.rsplit_once('(').ok_or_else(|| syntax("unbalanced parenthesis"))?;
            let n: u8 = n.parse().map_err(|_| syntax("the repeat count in (n) must be 1 to 4"))?;
            if !(1..=4).contains(&n) {
                return Err(syntax("the repeat count in (n) must be 1 to 4"));
            }
            (body, n)
        }
        None => (token, 1),
    };
    let mut parts = body.split('/');
    let first = parts.next().unwrap_or_default();
    if first.ends_with('*') {
        return Err(syntax("a hit (*) is marked on the point where a checker lands"));
    }
    let from = parse_point(first, token)?;
    let mut path = Vec::new();
    for part in parts {
        let (p, hit) = match part.strip_suffix('*') {
            Some(p) => (p, true),
            None => (part, false),
        };
        path.push((parse_point(p, token)?, hit));
    }
    let Some(&(to, _)) = path.last() else {
        return Err(syntax("a move is written from/to, like 24/18"));
    };
    if from == OFF as u8 {
        return Err(syntax("a checker cannot start from off"));
    }
    if path[..path.len() - 1].iter().any(|&(p, _)| p == OFF as u8 || p == BAR as u8) || to == BAR as u8 {
        return Err(syntax("bar and off can only start and end a move"));
    }
    Ok(Token { from, to, path, count })
}

/// Reads a move for `pos` (the mover on roll) and `dice`, in gnubg or UBGI
/// notation, and checks it against the legal moves. Returns the legal move
/// and its result (seen by the player who moves next, as in [`MoveList`]).
/// An empty string, `pass` or `-` mean no move.
///
/// ```
/// use gammon_rules::{parse_move, Dice, Position};
/// let dice = Dice::new(3, 1).unwrap();
/// let (_, after) = parse_move(&Position::STARTING, dice, "8/5 6/5").unwrap();
/// assert_eq!(after.to_position_id(), "sGfwATDgc/ABMA");
/// assert!(parse_move(&Position::STARTING, dice, "13/8").is_err());
/// ```
///
/// # Errors
/// Unreadable notation, or a move that is not legal, with the reason.
pub fn parse_move(pos: &Position, dice: Dice, text: &str) -> Result<(Move, Position), MoveError> {
    let mut list = MoveList::new();
    list.generate(pos, dice);
    parse_move_in(pos, dice, text, &list)
}

/// [`parse_move`] with the legal moves already generated in `list`.
///
/// # Errors
/// As [`parse_move`].
pub fn parse_move_in(pos: &Position, dice: Dice, text: &str, list: &MoveList) -> Result<(Move, Position), MoveError> {
    let text = text.trim();
    let tokens: Vec<Token> = if text.is_empty() || text == "-" || text.eq_ignore_ascii_case("pass") {
        Vec::new()
    } else {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .take(MAX_TOKENS + 1)
            .map(parse_token)
            .collect::<Result<_, _>>()?
    };
    if tokens.len() > MAX_TOKENS {
        return Err(MoveError::TooManyMoves);
    }
    if tokens.is_empty() {
        return if list.is_empty() { Ok((Move::NONE, pos.switched())) } else { Err(too_few(list, 0, dice)) };
    }
    if list.is_empty() {
        return Err(MoveError::NoLegalMove(dice));
    }
    let Some(written) = apply_loosely(pos, &tokens)? else {
        return Err(explain(pos, dice, &tokens, list));
    };
    // Legal results with the same placement of my checkers as written.
    let mut candidates = list.iter().filter(|(_, after)| same_own_checkers(&after.switched(), &written));
    let first = candidates.next();
    let second = candidates.next();
    match (first, second) {
        (Some(only), None) => Ok(only),
        (Some(a), Some(b)) => {
            // Differ only in hits: the stars written decide.
            list.iter()
                .find(|(_, after)| after.switched() == written)
                .map_or_else(|| if a.1 == b.1 { Ok(a) } else { Err(MoveError::Ambiguous) }, Ok)
        }
        _ => Err(explain(pos, dice, &tokens, list)),
    }
}

/// True if both positions have my checkers on the same points.
fn same_own_checkers(a: &Position, b: &Position) -> bool {
    (1..=BAR).all(|p| a.my_checkers(p) == b.my_checkers(p)) && a.borne_off().0 == b.borne_off().0
}

/// The position the written move describes (mover's view), checking only
/// that each checker exists: take each checker from its start, send a blot
/// on every point written (marked `*` or not: a checker that lands on a blot
/// hits it) to the bar, put the checker on its end point. `None` if that
/// leaves both sides on a point (a blocked landing).
fn apply_loosely(pos: &Position, tokens: &[Token]) -> Result<Option<Position>, MoveError> {
    let (mut me, mut him) = pos.to_boards();
    for t in tokens {
        for _ in 0..t.count {
            let from = usize::from(t.from);
            if me[from - 1] == 0 {
                return Err(MoveError::NoChecker(point_name(t.from)));
            }
            if from != BAR && me[BAR - 1] > 0 {
                return Err(MoveError::MustEnterFirst(point_name(t.from)));
            }
            if t.to >= t.from || t.path.windows(2).any(|w| w[1].0 >= w[0].0) || t.path[0].0 >= t.from {
                return Err(MoveError::Backwards(format!("{}/{}", point_name(t.from), point_name(t.to))));
            }
            me[from - 1] -= 1;
            for &(p, _) in &t.path {
                let his_index = 24 - usize::from(p);
                if p != OFF as u8 && him[his_index] == 1 {
                    him[his_index] = 0;
                    him[24] += 1;
                }
            }
            if t.to != OFF as u8 {
                me[usize::from(t.to) - 1] += 1;
            }
        }
    }
    Ok(Position::from_boards(&me, &him).ok())
}

fn too_few(list: &MoveList, used: u8, dice: Dice) -> MoveError {
    MoveError::TooFewDice { required: list.dice_used(), used, dice }
}

/// Finds the rule a written move breaks.
fn explain(pos: &Position, dice: Dice, tokens: &[Token], list: &MoveList) -> MoveError {
    // Landing on a blocked point.
    for t in tokens {
        for &(p, _) in &t.path {
            if p != OFF as u8 && pos.blocked_points() & (1 << p) != 0 {
                return MoveError::Blocked(p);
            }
        }
    }
    let (me, _) = pos.to_boards();
    let bears_off = tokens.iter().any(|t| t.to == OFF as u8);
    if bears_off {
        // All home after the moves that come before the bear-off?
        let mut outside: u32 = me[6..].iter().map(|&n| u32::from(n)).sum();
        for t in tokens {
            if t.from > 6 && t.to <= 6 {
                outside = outside.saturating_sub(u32::from(t.count));
            }
        }
        if outside > 0 {
            return MoveError::NotAllHome;
        }
    }
    // Dice needed by the written move, if its distances fit the roll.
    let mut hops: u8 = 0;
    for t in tokens {
        let mut at = t.from;
        for &(p, _) in &t.path {
            let dist = at - p;
            let n = hops_for(dist, dice, p == OFF as u8);
            let Some(n) = n else {
                return MoveError::WrongDistance { moved: tokens_distance(tokens), dice };
            };
            hops = hops.saturating_add(n.saturating_mul(t.count));
            at = p;
        }
    }
    if hops > dice.steps() {
        return MoveError::WrongDistance { moved: tokens_distance(tokens), dice };
    }
    if hops < list.dice_used() {
        return too_few(list, hops, dice);
    }
    if list.dice_used() == 1 && !dice.is_double() && legal_sources(pos, dice.high()) != 0 {
        return MoveError::MustPlayLarger(dice);
    }
    MoveError::Illegal(dice)
}

fn tokens_distance(tokens: &[Token]) -> u32 {
    tokens.iter().map(|t| u32::from(t.from - t.to) * u32::from(t.count)).sum()
}

/// How many dice of `dice` a hop of `dist` pips takes (a bear-off may use a
/// larger die), or None if the roll cannot make it.
fn hops_for(dist: u8, dice: Dice, off: bool) -> Option<u8> {
    let (h, l) = (dice.high(), dice.low());
    if dice.is_double() {
        if dist.is_multiple_of(h) {
            return Some(dist / h);
        }
        return off.then_some(dist.div_ceil(h));
    }
    if dist == h || dist == l || (off && dist < h) {
        Some(1)
    } else if dist == h + l || (off && dist < h + l && dist > h) {
        Some(2)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dice(a: u8, b: u8) -> Dice {
        Dice::new(a, b).unwrap()
    }

    #[test]
    fn formats_and_parses_every_opening_move() {
        let start = Position::STARTING;
        for d in crate::ALL_ROLLS {
            let list = start.legal_moves(d);
            for (m, after) in list.iter() {
                let text = start.format_move(&m);
                let (_, parsed) = parse_move_in(&start, d, &text, &list).unwrap();
                assert_eq!(parsed, after, "{d} {text}");
                let (_, parsed) = parse_move_in(&start, d, &m.to_ubgi(false), &list).unwrap();
                assert_eq!(parsed, after);
            }
        }
    }

    #[test]
    fn explains_illegal_moves() {
        let s = Position::STARTING;
        assert_eq!(parse_move(&s, dice(6, 6), "24/18(2) 13/7(2)").unwrap().1.to_position_id().len(), 14);
        assert!(matches!(parse_move(&s, dice(3, 1), "13/10"), Err(MoveError::TooFewDice { required: 2, used: 1, .. })));
        assert!(matches!(parse_move(&s, dice(3, 1), "7/4 6/5"), Err(MoveError::NoChecker(_))));
        assert!(matches!(parse_move(&s, dice(5, 5), "13/8 8/3 6/1 6/1"), Err(MoveError::Blocked(1)) | Ok(_)));
        assert!(matches!(parse_move(&s, dice(6, 5), "24/13 1/0"), Err(MoveError::NoChecker(_))));
        assert!(matches!(parse_move(&s, dice(6, 1), "24/23 13/7 8/7"), Err(MoveError::WrongDistance { .. })));
        assert!(matches!(parse_move(&s, dice(4, 3), "6/off 6/off"), Err(MoveError::NotAllHome)));
        assert!(matches!(parse_move(&s, dice(6, 1), "13/12/6"), Err(MoveError::Backwards(_)) | Ok(_)));
        assert!(matches!(parse_move(&s, dice(6, 1), "13/x"), Err(MoveError::Syntax { .. })));
        assert!(matches!(parse_move(&s, dice(6, 1), "13/7(9)"), Err(MoveError::Syntax { .. })));
        assert_eq!(parse_move(&s, dice(1, 1), "6/5 6/5 8/7 8/7 8/7"), Err(MoveError::TooManyMoves));
        assert!(parse_move(&s, dice(1, 1), "6/5 6/5 8/7 8/7").is_ok());
    }
}
