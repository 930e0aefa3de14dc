//! XG's records as the written form of a match (`RawMatch`), which the
//! `.mat` reader's replay then plays through the rules; beside it, what XG
//! stored for each written action (`analysis` turns it into gammon's form).

use super::analysis::{stored_candidates, stored_cube, Pending};
use super::records::{CubeRecord, GameHeader, MatchHeader, MoveRecord, Record, XgBoard};
use super::XgError;
use crate::mat::raw::{MatchStart, RawAction, RawGame, RawKind, RawMatch, Steps};
use crate::{quote, shorten, GameContext, MatError, MatPlace, MatchRules, NAME_CHARS};
use std::collections::BTreeMap;

/// The starting position seen by player 1, as XG writes it in a game header.
const XG_START: XgBoard = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0];
/// XG's match length of a money session (0 is read the same way).
const XG_MONEY: i32 = 99999;
/// The longest match read (XG's own limit is far below).
const MAX_MATCH_LENGTH: i32 = 999;

/// The written match and, per game and written action, what XG stored.
pub(super) struct Converted {
    pub raw: RawMatch,
    pub pending: Vec<Vec<Option<Pending>>>,
    /// The first play XG marks invalid: the index of its game, and the error.
    pub invalid: Option<(usize, MatError)>,
}

/// A game being read.
struct Open {
    game: RawGame,
    pending: Vec<Option<Pending>>,
    /// The cube value before the next double.
    cube: u32,
    /// The row of XG's `.mat` export the last action is on, and its column.
    row: u32,
    last_column: Option<usize>,
    /// An analysed no-double decision, for the roll that follows it.
    cube_before_roll: Option<(usize, crate::StoredCube)>,
    /// The first play XG marks invalid: its column, row and text.
    invalid: Option<(usize, u32, String)>,
}

impl Open {
    /// Appends an action on the row XG's `.mat` export writes it on (a
    /// new row when the left column acts, or the right one acts twice).
    fn push(&mut self, column: usize, kind: RawKind, pending: Option<Pending>) {
        if self.last_column.is_none_or(|last| column <= last) {
            self.row += 1;
        }
        self.last_column = Some(column);
        self.game.actions.push(RawAction { line: 0, move_number: Some(self.row), column, kind });
        self.pending.push(pending);
    }
}

pub(super) fn convert(records: Vec<Record>) -> Result<Converted, XgError> {
    let mut header: Option<Box<MatchHeader>> = None;
    let mut games = Vec::new();
    let mut pending = Vec::new();
    let mut open: Option<Open> = None;
    let mut invalid = None;
    // A game is done: its first invalid play (the first of the file) is kept.
    let mut close = |o: Open, games: &mut Vec<RawGame>, pending: &mut Vec<Vec<Option<Pending>>>| {
        if let (None, Some(play)) = (&invalid, o.invalid) {
            invalid = Some((games.len(), o.game.number, play));
        }
        games.push(o.game);
        pending.push(o.pending);
    };
    for (index, record) in records.into_iter().enumerate() {
        let bad = |reason: String| XgError::Record { index, reason };
        if header.is_none() && !matches!(record, Record::MatchHeader(_)) {
            return Err(bad("the first record is not the match header".into()));
        }
        match record {
            Record::MatchHeader(h) => {
                if header.is_some() {
                    return Err(bad("a second match header".into()));
                }
                header = Some(h);
            }
            Record::GameHeader(g) => {
                // A game without its footer is unfinished: kept as it is.
                if let Some(o) = open.take() {
                    close(o, &mut games, &mut pending);
                }
                open = Some(start_game(&g, games.len()).map_err(bad)?);
            }
            Record::Cube(c) => {
                let o = open.as_mut().ok_or_else(|| bad("a cube record outside a game".into()))?;
                cube_actions(o, &c).map_err(bad)?;
            }
            Record::Move(m) => {
                let o = open.as_mut().ok_or_else(|| bad("a move record outside a game".into()))?;
                roll(o, &m).map_err(bad)?;
            }
            Record::GameFooter(f) => {
                let mut o = open.take().ok_or_else(|| bad("a game footer outside a game".into()))?;
                let column = column(f.winner).map_err(bad)?;
                let points = u32::try_from(f.points).map_err(|_| bad(format!("{} points won", f.points)))?;
                // Unnumbered, as the `.mat` export writes `Wins N points`; a
                // game not over after its moves reads as a resignation.
                o.game.actions.push(RawAction {
                    line: 0,
                    move_number: None,
                    column,
                    kind: RawKind::Win(points, false),
                });
                o.pending.push(None);
                close(o, &mut games, &mut pending);
            }
            Record::MatchFooter => {}
        }
    }
    if let Some(o) = open {
        close(o, &mut games, &mut pending);
    }
    let header = header.ok_or(XgError::Truncated("the game file: no records"))?;
    let invalid = invalid.map(|(index, game, (column, row, text))| {
        let name = header.players.get(column).map(|p| shorten(p, NAME_CHARS).to_string());
        let reason = format!("illegal move {text}: eXtreme Gammon marks this play invalid");
        (
            index,
            MatError { place: MatPlace { line: 0, game: Some(game), move_number: Some(row), player: name }, reason },
        )
    });
    Ok(Converted { raw: raw_match(*header, games)?, pending, invalid })
}

fn raw_match(h: MatchHeader, games: Vec<RawGame>) -> Result<RawMatch, XgError> {
    if h.variation != 0 {
        let name = match h.variation {
            1 => "Nackgammon".to_string(),
            2 => "Hypergammon".to_string(),
            3 => "Longgammon".to_string(),
            v => format!("variation {v}"),
        };
        return Err(XgError::Unsupported(format!("{name}: only backgammon is read")));
    }
    if h.auto_double {
        return Err(XgError::Unsupported("automatic doubles (Murphy rule)".into()));
    }
    let length = match h.length {
        0 | XG_MONEY => 0,
        n if (1..=MAX_MATCH_LENGTH).contains(&n) => n.unsigned_abs(),
        n => return Err(XgError::Corrupt(format!("match length {n}"))),
    };
    // XG writes the cube limit as a power of two (6: 64).
    let max_cube = u32::try_from(h.cube_limit)
        .ok()
        .filter(|n| (1..=20).contains(n))
        .map_or(GameContext::DEFAULT_MAX_CUBE, |n| 1u32 << n);
    let rules = MatchRules { length, cube: true, jacoby: h.jacoby, beaver: h.beaver, murphy: 0, max_cube }.normalized();
    let crawford = length == 0 || h.crawford;
    let mut games = games;
    if length == 0 || !crawford {
        for g in &mut games {
            g.crawford_game = None;
        }
    }
    let start = games.first().filter(|g| length > 0 && g.score != [0, 0]).map(|g| {
        let one_away = g.score.iter().any(|&s| s.saturating_add(1) == length);
        MatchStart { score: g.score, post_crawford: one_away && (g.crawford_game != Some(true) || !crawford) }
    });
    let on_off = |b: bool| if b { "On" } else { "Off" }.to_string();
    let mut headers = BTreeMap::from([
        ("Player 1".to_string(), h.players[0].clone()),
        ("Player 2".to_string(), h.players[1].clone()),
        ("Variation".to_string(), "Backgammon".to_string()),
        ("Crawford".to_string(), on_off(h.crawford)),
        ("Jacoby".to_string(), on_off(h.jacoby)),
        ("Beaver".to_string(), on_off(h.beaver)),
        ("Cubelimit".to_string(), max_cube.to_string()),
    ]);
    for (key, value) in [("Event", h.event), ("Round", h.round), ("Location", h.location)] {
        if !value.is_empty() {
            headers.insert(key.to_string(), value);
        }
    }
    Ok(RawMatch { headers, rules, crawford, start, players: h.players, games })
}

fn start_game(g: &GameHeader, index: usize) -> Result<Open, String> {
    if g.start != XG_START {
        return Err("a game from a set position (only games from the starting position are read)".into());
    }
    let score = g.score.map(u32::try_from);
    let [Ok(a), Ok(b)] = score else {
        return Err(format!("a negative score {}-{}", g.score[0], g.score[1]));
    };
    let number = u32::try_from(g.number).ok().filter(|&n| n >= 1).unwrap_or(index as u32 + 1);
    Ok(Open {
        game: RawGame {
            number,
            line: 0,
            score: [a, b],
            crawford_game: Some(g.crawford),
            setup: None,
            actions: Vec::new(),
        },
        pending: Vec::new(),
        cube: 1,
        row: 0,
        last_column: None,
        cube_before_roll: None,
        invalid: None,
    })
}

/// XG's player (1 or -1) as the `.mat` column (player 1 is the left one).
fn column(player: i32) -> Result<usize, String> {
    match player {
        1 => Ok(0),
        -1 => Ok(1),
        p => Err(format!("player {p} (1 or -1)")),
    }
}

fn cube_actions(o: &mut Open, c: &CubeRecord) -> Result<(), String> {
    o.cube_before_roll = None;
    let col = column(c.active)?;
    let stored = c.eval.as_ref().map(stored_cube);
    if c.double != 1 {
        // No double: the analysis goes on the roll that follows.
        o.cube_before_roll = stored.map(|s| (col, s));
        return Ok(());
    }
    let with = |s: &Option<crate::StoredCube>| {
        s.clone().map(|cube| Pending { cube: Some(cube), candidates: None, error: None })
    };
    let doubled = o.cube.saturating_mul(2);
    o.push(col, RawKind::Double(doubled), with(&stored));
    let kind = match (c.take, c.beaver_answer) {
        (1, _) => {
            o.cube = doubled;
            RawKind::Take
        }
        (0, _) => RawKind::Drop,
        (2, 2) => return Err("a raccoon (not read)".into()),
        (2, _) => {
            o.cube = doubled.saturating_mul(2);
            RawKind::Beaver(Some(o.cube))
        }
        (t, _) => return Err(format!("a double answered {t} (0 pass, 1 take, 2 beaver)")),
    };
    o.push(1 - col, kind, with(&stored));
    Ok(())
}

fn roll(o: &mut Open, m: &MoveRecord) -> Result<(), String> {
    let col = column(m.active)?;
    let die = |d: i32| u8::try_from(d).map_err(|_| format!("a die of {d}"));
    let dice = (die(m.dice[0])?, die(m.dice[1])?);
    let mut steps = Vec::with_capacity(4);
    for pair in m.moves.chunks_exact(2) {
        let (from, to) = (pair[0], pair[1]);
        if from == -1 {
            break;
        }
        // XG counts points from 0 in the mover's numbering: 24 the bar, below 0 off.
        let from = match from {
            0..=23 => from + 1,
            24 => 25,
            _ => return Err(format!("a checker step from {from}")),
        };
        let to = match to {
            0..=23 => to + 1,
            t if t < 0 => 0,
            _ => return Err(format!("a checker step to {to}")),
        };
        steps.push((from.unsigned_abs() as u8, to.unsigned_abs() as u8));
    }
    let steps = Steps::new(&steps).ok_or("more than four checker steps")?;
    let cube = o.cube_before_roll.take().filter(|(c, _)| *c == col).map(|(_, s)| s);
    let candidates = (!m.candidates.is_empty()).then(|| stored_candidates(&m.candidates));
    let pending = (cube.is_some() || candidates.is_some()).then_some(Pending { cube, candidates, error: m.error });
    o.push(col, RawKind::Steps { dice, steps }, pending);
    if m.invalid && o.invalid.is_none() {
        let text: Vec<String> = steps.as_slice().iter().map(|(f, t)| format!("{f}/{t}")).collect();
        let text = format!("{} for {}{}", quote(&text.join(" ")), dice.0, dice.1);
        o.invalid = Some((col, o.row, text));
    }
    Ok(())
}
