//! Writing a [`MatchRecord`] (and an analysis) as OGXM v2: `MTCH`, one
//! `GAME` per game, `ANAL` + `DECS` when there is an analysis, and a CRC-32
//! `CSUM`, in the layout `decode` reads.

use super::analysis::{frame, mirrored, MATCH, MONEY};
use super::decode::{action_of, WireStep, END, HEADER_BYTES, MAGIC, MAX_GAMES, MAX_PLIES_PER_GAME};
use super::wire::{crc32, Out, MAX_STRING_BYTES};
use crate::{
    Cube, GameResult, GameText, MatAction, MatEntry, MatchEquity, MatchRecord, Move, MoveList, Position, Seat,
    StoredAnalysis, StoredCube, StoredMove,
};
use std::collections::BTreeMap;
use thiserror::Error;

/// Why a record cannot be written as OGXM.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum OgxmWriteError {
    /// Past one of v2's limits.
    #[error("cannot write as OGXM: {what}")]
    Limit {
        /// Which.
        what: &'static str,
    },
    /// A move whose steps cannot be given dice (not a play of its roll).
    #[error("game {game}, record {record}: the move's steps do not fit its dice")]
    Steps {
        /// The game (from 1).
        game: usize,
        /// The record in the game (from 1).
        record: usize,
    },
}

/// The table of money play, where none is needed: equities stay as they are.
struct NoTable;

impl MatchEquity for NoTable {
    fn eq2mwc(&self, eq: f64, _: u32, _: (u32, u32), _: bool) -> f64 {
        eq
    }

    fn mwc2eq(&self, mwc: f64, _: u32, _: (u32, u32), _: bool) -> f64 {
        mwc
    }
}

/// Section flag: a reader that does not know the section must refuse the file.
const CRITICAL: u8 = 1;

/// Writes `record` as OGXM v2, with `analysis` (normally `record.stored`,
/// or gammon's own) as one analysis block: money equities as they are
/// (per cube), match equities turned from EMG into match winning chances
/// with the table `equity` (the engine's; without one a match's analysis
/// is not written). A candidate that is not a legal play of its roll is
/// left out (it has no steps to write).
///
/// ```
/// use gammon_rules::{parse_mat, read_ogxm, write_ogxm};
/// let m = parse_mat(" 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n  2) 42: 8/4 6/4\n").unwrap();
/// let bytes = write_ogxm(&m, None, None).unwrap();
/// let back = read_ogxm(&bytes, None).unwrap();
/// let actions = |m: &gammon_rules::MatchRecord| m.games[0].records.iter().map(|r| r.action.clone()).collect::<Vec<_>>();
/// assert_eq!(actions(&back), actions(&m)); // a binary file has no lines to compare
/// ```
///
/// # Errors
/// More than v2 holds (1000 games, 1500 plies a game, 4096-byte names), or
/// a move whose steps do not fit its dice.
pub fn write_ogxm(
    record: &MatchRecord,
    analysis: Option<&StoredAnalysis>,
    equity: Option<&dyn MatchEquity>,
) -> Result<Vec<u8>, OgxmWriteError> {
    if record.games.len() > MAX_GAMES {
        return Err(OgxmWriteError::Limit { what: "more than 1000 games" });
    }
    if record.players.iter().any(|p| p.len() > MAX_STRING_BYTES) {
        return Err(OgxmWriteError::Limit { what: "a player name longer than 4096 bytes" });
    }
    let mut file = Out::default();
    file.0.extend(MAGIC);
    for v in [2u16, 0, 2, 0] {
        file.u16(v);
    }
    file.u32(0); // the size, set at the end
    section(&mut file, b"MTCH", CRITICAL, &match_record(record));
    let mut refs = BTreeMap::new();
    let mut next_ref = 0u32;
    for (gi, g) in record.games.iter().enumerate() {
        let payload = game(gi, g, &mut refs, &mut next_ref)?;
        section(&mut file, b"GAME", CRITICAL, &payload);
    }
    // A match's equities need a table to become match winning chances.
    let table: Option<&dyn MatchEquity> = if record.match_length > 0 { equity } else { Some(&NoTable) };
    if let (Some(a), Some(table)) = (analysis, table) {
        let (anal, decs) = block(record, a, &refs, table);
        section(&mut file, b"ANAL", 0, &anal);
        section(&mut file, b"DECS", 0, &decs);
    }
    // The size first: the checksum covers the header too. The CSUM section
    // is 9 + 8 bytes (length, mask, algorithm, digest length, CRC-32).
    let size = u32::try_from(file.0.len() + 9 + 8 + END.len())
        .map_err(|_| OgxmWriteError::Limit { what: "a file over 4 GiB" })?;
    if let Some(at) = file.0.get_mut(HEADER_BYTES - 4..HEADER_BYTES) {
        at.copy_from_slice(&size.to_le_bytes());
    }
    let mut sum = Out::default();
    sum.varint(0); // CRC-32
    sum.varint(4);
    sum.u32(crc32(&file.0));
    let mut csum = Out::default();
    csum.record(0, &sum);
    section(&mut file, b"CSUM", CRITICAL, &csum);
    file.0.extend(END);
    Ok(file.0)
}

fn section(file: &mut Out, kind: &[u8; 4], flags: u8, payload: &Out) {
    file.0.extend(kind);
    file.u32(u32::try_from(payload.0.len()).unwrap_or(u32::MAX));
    file.u8(flags);
    file.0.extend(&payload.0);
}

fn match_record(record: &MatchRecord) -> Out {
    let mut body = Out::default();
    let mut mask = 0u64;
    body.varint(u64::from(record.match_length));
    body.varint(0); // backgammon
    for (bit, name) in record.players.iter().enumerate() {
        if !name.is_empty() {
            mask |= 1 << bit;
            body.string(name);
        }
    }
    let rules = u64::from(record.crawford && record.match_length > 0)
        | u64::from(record.rules.jacoby) << 1
        | u64::from(record.rules.beaver) << 2
        | u64::from(record.rules.beaver) << 3;
    if rules != 0 {
        mask |= 1 << 2;
        body.varint(rules);
    }
    if record.rules.max_cube.is_power_of_two() {
        mask |= 1 << 3;
        body.varint(u64::from(record.rules.max_cube));
    }
    let start = record.games.first().map_or([0, 0], |g| g.score);
    if record.match_length > 0 && start != [0, 0] {
        mask |= 1 << 4;
        body.varint(u64::from(start[0]));
        body.varint(u64::from(start[1]));
        // A file that starts after the Crawford game says so.
        if record.games.first().is_some_and(|g| g.state.is_post_crawford()) {
            mask |= 1 << 11;
        }
    }
    if let Some(event) = written_event(record) {
        mask |= 1 << 12;
        body.string(event);
    }
    let mut out = Out::default();
    out.record(mask, &body);
    out
}

/// The longest event name an OGXM file holds.
const MAX_EVENT: usize = 120;

/// The one header OGXM v2 holds: the event, if it is not too long.
fn written_event(record: &MatchRecord) -> Option<&String> {
    record.headers.get("Event").filter(|e| !e.is_empty() && e.len() <= MAX_EVENT)
}

/// The headers of `record` (by their `.mat` keys) that [`write_ogxm`] has
/// no place for: all but the event (if not over 120 bytes) and those the
/// record's own fields say and the file holds (the players, the rules, the
/// cube limit, the game of backgammon).
pub fn ogxm_headers_not_written(record: &MatchRecord) -> Vec<&str> {
    let event = written_event(record).is_some();
    record
        .headers
        .iter()
        .filter(|(key, value)| {
            let said = ["Player 1", "Player 2", "Crawford", "Jacoby", "Beaver", "Cubelimit"];
            let written = (key.as_str() == "Event" && (event || value.is_empty()))
                || said.iter().any(|s| key.eq_ignore_ascii_case(s))
                || crate::mat::says_backgammon(key, value);
            !written
        })
        .map(|(key, _)| key.as_str())
        .collect()
}

/// The board of `pos` (seen by seat Zero) as v2's 26 signed counts.
fn board(pos: &Position) -> [i8; 26] {
    let mut b = [0i8; 26];
    b[0] = pos.my_bar() as i8;
    b[25] = -(pos.their_bar() as i8);
    for p in 1..=24 {
        b[25 - p] = pos.my_checkers(p) as i8 - pos.their_checkers(p) as i8;
    }
    b
}

fn game(
    gi: usize,
    g: &GameText,
    refs: &mut BTreeMap<(usize, usize), u32>,
    next: &mut u32,
) -> Result<Out, OgxmWriteError> {
    let mut head = Out::default();
    let mut mask = 0u64;
    if let Some((winner, points)) = g.result {
        mask |= 0b11;
        head.varint(winner.index() as u64);
        head.varint(u64::from(points));
    }
    if let Some(first) = g.records.first() {
        let zero_view = if first.player == Seat::Zero { first.position } else { first.position.switched() };
        if zero_view != Position::STARTING {
            mask |= 1 << 3;
            for v in board(&zero_view) {
                head.u8(v as u8);
            }
        }
        if first.cube != Cube::START {
            mask |= 1 << 4;
            head.varint(u64::from(first.cube.value));
            if let Some(owner) = first.cube.owner {
                mask |= 1 << 5;
                head.varint(owner.index() as u64);
            }
        }
    }
    let mut out = Out::default();
    out.record(mask, &head);
    let mut plies = 0usize;
    for (ri, r) in g.records.iter().enumerate() {
        let seat = (r.player.index() as u8) << 6;
        let action = match &r.action {
            MatAction::Move { dice, mv, text } => {
                let bad = OgxmWriteError::Steps { game: gi + 1, record: ri + 1 };
                let mv = as_written(&r.position, mv, text).ok_or(bad.clone())?;
                let steps = wire_steps(r.player, &mv).ok_or(bad)?;
                out.u8(seat | action_of(dice.high(), dice.low()) as u8);
                let room = if dice.is_double() { 4 } else { 2 };
                for s in &steps {
                    out.u8(s.byte());
                }
                if steps.len() < room {
                    out.u8(0);
                }
                true
            }
            MatAction::Dance { dice } => {
                out.u8(seat | action_of(dice.high(), dice.low()) as u8);
                out.u8(0);
                true
            }
            MatAction::Double { .. } => plain(&mut out, seat, 21),
            MatAction::Take => plain(&mut out, seat, 22),
            MatAction::Drop => plain(&mut out, seat, 23),
            MatAction::Beaver => plain(&mut out, seat, 32),
            // A resignation on no numbered line is the one a result before
            // the end implies (gnubg's reading, and the reader's): the
            // game's stated winner says it again.
            MatAction::Resign { .. } if r.move_number.is_none() => false,
            MatAction::Resign { level, .. } => {
                out.u8(seat | 0x80 | 27);
                let mut x = Out::default();
                x.varint(u64::from(level_value(*level)));
                out.record(1 << 1, &x);
                true
            }
            MatAction::Win { .. } => false,
        };
        if action {
            plies += 1;
            if plies > MAX_PLIES_PER_GAME {
                return Err(OgxmWriteError::Limit { what: "more than 1500 plies in a game" });
            }
            refs.insert((gi, ri), *next);
            *next += 1;
        }
    }
    Ok(out)
}

fn plain(out: &mut Out, seat: u8, action: u8) -> bool {
    out.u8(seat | action);
    true
}

fn level_value(level: GameResult) -> u32 {
    match level {
        GameResult::Single => 1,
        GameResult::Gammon => 2,
        GameResult::Backgammon => 3,
    }
}

/// The steps to write for `mv`: its text's, where the text is plain
/// `from/to` steps (as OGXM and SGF give it) that play to the same
/// position, so a file read and written again spells each move as it did
/// (`10/5 5/2`, not gammon's `10/7 7/2`); else `mv`'s, in an order that plays.
fn as_written(pos: &Position, mv: &Move, text: &str) -> Option<Move> {
    let point = |w: &str| match w {
        "bar" => Some(25),
        "off" => Some(0),
        _ => w.parse::<u8>().ok().filter(|&p| p <= 25),
    };
    let written: Option<Vec<crate::Step>> = text
        .split_whitespace()
        .map(|w| {
            let (from, to) = w.trim_end_matches('*').split_once('/')?;
            Some(crate::Step { from: point(from)?, to: point(to)? })
        })
        .collect();
    let (played, after) = playable_order(pos, mv)?;
    let spelled = written
        .filter(|w| w.len() == mv.steps().len())
        .and_then(|w| playable_order(pos, &Move::from_steps(&w)))
        .filter(|(_, a)| *a == after);
    Some(spelled.map_or(played, |(m, _)| m))
}

/// `mv`'s steps in an order each of them can be played in from `pos` (seen
/// by the mover): v2 replays a play's steps in their stored order, and
/// gammon's move keeps its steps in its own order (`13/7 13/7 7/1 7/1`
/// with one checker on 13 is not playable as written). The order given
/// is kept when it plays.
fn playable_order(pos: &Position, mv: &Move) -> Option<(Move, Position)> {
    fn search(pos: &Position, left: &mut Vec<crate::Step>, done: &mut Vec<crate::Step>) -> Option<Position> {
        if left.is_empty() {
            return Some(*pos);
        }
        for i in 0..left.len() {
            let s = left[i];
            let (from, to) = (usize::from(s.from), usize::from(s.to));
            let playable = (1..=25).contains(&from)
                && pos.my_checkers(from) > 0
                && (pos.my_bar() == 0 || from == 25)
                && (to > 0 || pos.all_home())
                && (to == 0 || pos.their_checkers(to) < 2);
            if !playable {
                continue;
            }
            let mut next = *pos;
            next.apply_step(from, to);
            left.remove(i);
            done.push(s);
            if let Some(end) = search(&next, left, done) {
                return Some(end);
            }
            done.pop();
            left.insert(i, s);
        }
        None
    }
    let mut left = mv.steps().to_vec();
    let mut done = Vec::with_capacity(left.len());
    let end = search(pos, &mut left, &mut done)?;
    Some((Move::from_steps(&done), end))
}

/// The steps of `mv` in the board's numbering, each with its distance:
/// a bear-off states the pips to off, not the die (as HedgeHog writes it).
fn wire_steps(seat: Seat, mv: &Move) -> Option<Vec<WireStep>> {
    mv.steps()
        .iter()
        .map(|s| {
            let pips = s.from.checked_sub(s.to).filter(|p| (1..=6).contains(p))?;
            Some(WireStep { from: if seat == Seat::One { s.from } else { 25 - s.from }, pips })
        })
        .collect()
}

/// The ANAL and DECS payloads of an analysis.
fn block(
    record: &MatchRecord,
    a: &StoredAnalysis,
    refs: &BTreeMap<(usize, usize), u32>,
    table: &dyn MatchEquity,
) -> (Out, Out) {
    let in_mwc = record.match_length > 0;
    let mut body = Out::default();
    // A deterministic id: CRC-32s of the program and of the record count,
    // stamped as a UUID version 8.
    let mut id = [0u8; 16];
    let seeds = [
        a.program.as_bytes().to_vec(),
        a.records.len().to_le_bytes().to_vec(),
        b"gammon".to_vec(),
        record.players.concat().into_bytes(),
    ];
    for (chunk, seed) in id.chunks_mut(4).zip(&seeds) {
        chunk.copy_from_slice(&crc32(seed).to_le_bytes());
    }
    id[6] = (id[6] & 0x0F) | 0x80;
    id[8] = (id[8] & 0x3F) | 0x80;
    body.0.extend(id);
    let mut mask = 1u64 << 9;
    if !a.program.is_empty() && a.program.len() <= MAX_STRING_BYTES {
        mask |= 1 << 6;
        body.string(&a.program);
    }
    body.varint(u64::from(if in_mwc { MATCH } else { MONEY }));
    let mut anal = Out::default();
    anal.record(mask, &body);

    let mut decs = Out::default();
    for (&(g, r), stored) in &a.records {
        let (Some(game), Some(&ply_ref)) = (record.games.get(g), refs.get(&(g, r))) else { continue };
        let Some(entry) = game.records.get(r) else { continue };
        let to_unit = |decider: Seat, v: f64| match frame(game, entry, decider, table).filter(|_| in_mwc) {
            Some(f) => f.mwc(v),
            None => v,
        };
        if let Some(m) = &stored.chequer {
            if let Some(rec) = chequer(entry, m, ply_ref, &to_unit) {
                decs.0.extend(rec.0);
            }
        }
        if let Some(c) = &stored.cube {
            if let Some(rec) = cube(entry, c, ply_ref, &to_unit) {
                decs.0.extend(rec.0);
            }
        }
    }
    (anal, decs)
}

/// A level record for a depth: `N-ply`, `rollout`, or a preset name.
fn level(depth: &str, cube: bool) -> Option<Out> {
    if depth.is_empty() {
        return None;
    }
    let mut body = Out::default();
    let mask = if depth == "rollout" {
        body.record(0, &Out::default());
        1 << 3
    } else if let Some(n) = depth.strip_suffix("-ply").and_then(|n| n.parse::<u32>().ok()) {
        body.varint(u64::from(n));
        if cube {
            1 << 2
        } else {
            1 << 1
        }
    } else {
        body.string(&depth.chars().take(MAX_STRING_BYTES / 4).collect::<String>());
        1
    };
    let mut out = Out::default();
    out.record(mask, &body);
    Some(out)
}

fn chequer(entry: &MatEntry, m: &StoredMove, ply_ref: u32, to_unit: &dyn Fn(Seat, f64) -> f64) -> Option<Out> {
    let MatAction::Move { dice, .. } = &entry.action else { return None };
    let mut list = MoveList::default();
    list.generate(&entry.position, *dice);
    let mut alts = Vec::new();
    for (i, c) in m.candidates.iter().enumerate() {
        let Some((mv, _)) = list.iter().find(|(_, p)| p.switched() == c.after) else { continue };
        let Some((mv, _)) = playable_order(&entry.position, &mv) else { continue };
        let Some(steps) = wire_steps(entry.player, &mv) else { continue };
        let mut body = Out::default();
        let mut mask = 0u64;
        body.varint(steps.len() as u64);
        for s in &steps {
            body.u8(s.byte());
        }
        body.equity(to_unit(entry.player, c.equity));
        if let Some(p) = &c.probabilities {
            mask |= 1;
            body.probs(p);
        }
        if let Some(lv) = level(&c.depth, false) {
            mask |= 1 << 1;
            body.0.extend(lv.0);
        }
        if m.played == Some(i) {
            mask |= 1 << 2;
        }
        let mut alt = Out::default();
        alt.record(mask, &body);
        alts.push(alt);
    }
    if alts.is_empty() {
        return None;
    }
    let mut body = Out::default();
    body.varint(u64::from(ply_ref));
    body.varint(0);
    body.varint(alts.len() as u64);
    for a in alts {
        body.0.extend(a.0);
    }
    let mut out = Out::default();
    out.record(1, &body);
    Some(out)
}

fn cube(entry: &MatEntry, c: &StoredCube, ply_ref: u32, to_unit: &dyn Fn(Seat, f64) -> f64) -> Option<Out> {
    let (doubler, answer) = match entry.action {
        MatAction::Move { .. } | MatAction::Dance { .. } | MatAction::Double { .. } => (entry.player, false),
        MatAction::Take | MatAction::Drop | MatAction::Beaver => (entry.player.other(), true),
        _ => return None,
    };
    let mut body = Out::default();
    body.varint(u64::from(ply_ref));
    body.varint(1);
    // The verdict, for the decision of the ply: on a roll or a double,
    // double (1) when doubling beats not doubling, else no double (0); on
    // an answer, take (2) when taking leaves the doubler less, else pass (3).
    let verdict = if answer {
        if c.double_take <= c.double_pass {
            2
        } else {
            3
        }
    } else {
        u64::from(c.double_take.min(c.double_pass) > c.no_double)
    };
    body.varint(verdict);
    let mut mask = 0b111u64;
    for v in [c.no_double, c.double_take, c.double_pass] {
        body.equity(to_unit(doubler, v));
    }
    if let Some(p) = c.probabilities {
        mask |= 1 << 3;
        body.probs(&if answer { mirrored(p) } else { p });
    }
    if let Some(lv) = level(&c.depth, true) {
        mask |= 1 << 7;
        body.0.extend(lv.0);
    }
    let mut out = Out::default();
    out.record(mask, &body);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Step;

    #[test]
    fn steps_are_put_in_an_order_that_plays() {
        // One checker on 13 runs 13/7/1 with 66: written 13/7 7/1, never 7/1 first.
        let mut mine = [0u8; 25];
        mine[12] = 1;
        mine[5] = 14;
        let mut theirs = [0u8; 25];
        theirs[0] = 15; // all on his 1-point, my 24
        let pos = Position::from_boards(&mine, &theirs).unwrap();
        let mv = Move::from_steps(&[Step { from: 7, to: 1 }, Step { from: 13, to: 7 }]);
        let (ordered, _) = playable_order(&pos, &mv).unwrap();
        assert_eq!(ordered.steps(), [Step { from: 13, to: 7 }, Step { from: 7, to: 1 }]);
        // A bear-off waits until every checker is home.
        mine[12] = 0;
        mine[6] = 1;
        let pos = Position::from_boards(&mine, &theirs).unwrap();
        let mv = Move::from_steps(&[Step { from: 6, to: 0 }, Step { from: 7, to: 1 }]);
        assert_eq!(playable_order(&pos, &mv).map(|(m, _)| m.steps()[0]), Some(Step { from: 7, to: 1 }));
    }

    #[test]
    fn a_step_is_its_distance_in_the_board_numbering() {
        let mv = Move::from_steps(&[Step { from: 25, to: 22 }, Step { from: 3, to: 0 }]);
        let seat_one = wire_steps(Seat::One, &mv).unwrap();
        assert_eq!(seat_one, [WireStep { from: 25, pips: 3 }, WireStep { from: 3, pips: 3 }]);
        let seat_zero = wire_steps(Seat::Zero, &mv).unwrap();
        assert_eq!(seat_zero, [WireStep { from: 0, pips: 3 }, WireStep { from: 22, pips: 3 }]);
    }

    #[test]
    fn the_text_spells_the_move_when_it_plays_to_the_same_board() {
        let pos = Position::STARTING;
        let mv = Move::from_steps(&[Step { from: 13, to: 10 }, Step { from: 10, to: 5 }]);
        let written = as_written(&pos, &mv, "13/8 8/5").unwrap();
        assert_eq!(written.steps(), [Step { from: 13, to: 8 }, Step { from: 8, to: 5 }]);
        // Text that is not plain steps, or another play: the move's own steps.
        assert_eq!(as_written(&pos, &mv, "13/5").unwrap().steps(), mv.steps());
        assert_eq!(as_written(&pos, &mv, "24/21 24/19").unwrap().steps(), mv.steps());
    }
}
