//! A decoded v2 file as the written form of a match (`crate::mat::raw`),
//! which the `.mat` replay plays through the rules.

use super::decode::{dice_of, File, Game, WireStep};
use super::OgxmError;
use crate::mat::raw::{MatchStart, RawAction, RawGame, RawKind, RawMatch, Setup, Steps};
use crate::{Cube, MatchRules, Position, Seat, SideBoard};
use std::collections::BTreeMap;

/// Where each ply of the file went: `(game, action)` in the written form,
/// by the ply's match-wide ordinal (`ply_ref`); `None`: a ply with no
/// action (a game-end marker, an unknown action).
pub(crate) type PlyMap = Vec<Option<(usize, usize)>>;

const SEATS: [Seat; 2] = [Seat::Zero, Seat::One];

/// A step as the mover counts: `(from, to)`, 25 the bar, 0 off. Seat 1
/// moves down the board's numbering, seat 0 up it.
pub(crate) fn mover_step(seat: usize, s: WireStep) -> (u8, u8) {
    let from = if seat == 1 { s.from } else { 25 - s.from };
    (from, from.saturating_sub(s.pips))
}

/// The board of `initial_board` (signed counts: seat 0 positive on 1..=24
/// and its bar at 0; seat 1 negative, its bar at 25) seen by seat Zero.
pub(crate) fn board_position(board: &[i8; 26]) -> Result<Position, OgxmError> {
    let mut zero: SideBoard = [0; 25];
    let mut one: SideBoard = [0; 25];
    for (i, &v) in board.iter().enumerate() {
        let n = v.unsigned_abs();
        match i {
            0 => zero[24] = n,
            25 => one[24] = n,
            _ if v > 0 => zero[24 - i] = n,
            _ => one[i - 1] = n,
        }
    }
    Position::from_boards(&zero, &one).map_err(|e| OgxmError::Board { reason: e.to_string() })
}

/// The names of actions gammon's replay cannot follow.
pub(crate) fn unreplayable(action: u32) -> Option<&'static str> {
    Some(match action {
        29 => "a forfeit (action 29)",
        31 => "a position set by hand or an illegal play restated as a position (action 31)",
        33 => "a raccoon (action 33)",
        34 => "a settlement (action 34)",
        35 => "the reserved action 35",
        36 => "a cube set by hand (action 36)",
        37 => "a turn whose roll was not recorded (action 37)",
        _ => return None,
    })
}

/// `implied[i]`: game `i` ends with its stated winner's result although
/// its plays do not end it (a resignation implied by the result, as gnubg
/// reads a `.mat` file's early `Wins`).
pub(crate) fn to_raw(file: &File, implied: &[bool]) -> Result<(RawMatch, PlyMap), OgxmError> {
    let m = &file.mtch;
    if m.variant != 0 {
        return Err(OgxmError::Unsupported { what: format!("variant {} (only backgammon, 0, is read)", m.variant) });
    }
    let money = m.match_length == 0;
    let max_cube = m.cube_limit.filter(|c| c.is_power_of_two()).unwrap_or(MatchRules::money().max_cube);
    let rules = MatchRules {
        length: m.match_length,
        cube: true,
        jacoby: money && m.rules & 2 != 0,
        beaver: money && m.rules & 4 != 0,
        murphy: 0,
        max_cube,
    }
    .normalized();
    let mut headers = BTreeMap::new();
    if let Some(e) = &m.event {
        headers.insert("Event".to_string(), e.clone());
    }
    if let Some(r) = m.round {
        headers.insert("Round".to_string(), r.to_string());
    }
    if let Some(s) = m.city.as_ref().or(m.site.as_ref()) {
        headers.insert("Site".to_string(), s.clone());
    }
    let start_score = m.score_start.filter(|_| !money);
    let mut score = start_score.unwrap_or([0, 0]);
    let mut map = PlyMap::new();
    let mut games = Vec::with_capacity(file.games.len());
    for (gi, g) in file.games.iter().enumerate() {
        games.push(game(gi, g, score, rules.max_cube, implied.get(gi).copied().unwrap_or(false), &mut map)?);
        if let (Some(w @ 0..=1), Some(p)) = (g.winner, g.points_won) {
            let w = usize::try_from(w).unwrap_or(0);
            // The deciding game banks only what the winner still needed.
            let banked = if money { p } else { p.min(m.match_length.saturating_sub(score[w])) };
            score[w] = score[w].saturating_add(banked);
        }
    }
    let raw = RawMatch {
        headers,
        rules,
        crawford: !money && m.rules & 1 != 0,
        start: start_score.map(|score| MatchStart { score, post_crawford: m.crawford_before_start }),
        players: [m.white.clone().unwrap_or_else(|| "White".into()), m.black.clone().unwrap_or_else(|| "Black".into())],
        games,
    };
    Ok((raw, map))
}

/// Whether game `gi`'s plays end it (a last roll, a drop, a resignation):
/// replayed alone under money rules that allow every cube action, since
/// only the plays decide it. A game that does not replay counts as ended:
/// the match's replay names its error.
pub(crate) fn plays_end(file: &File, gi: usize) -> bool {
    let Some(g) = file.games.get(gi) else { return true };
    let max_cube = file.mtch.cube_limit.filter(|c| c.is_power_of_two()).unwrap_or(MatchRules::money().max_cube);
    let rules = MatchRules { beaver: true, max_cube, ..MatchRules::money() };
    let Ok(alone) = game(gi, g, [0, 0], rules.max_cube, false, &mut PlyMap::new()) else { return true };
    let raw = RawMatch {
        headers: BTreeMap::new(),
        rules,
        crawford: false,
        start: None,
        players: [String::new(), String::new()],
        games: vec![alone],
    };
    crate::mat::replay::replay_until_error(raw)
        .ok()
        .and_then(|(r, e)| if e.is_some() { None } else { r.games.first().map(|g| g.result.is_some()) })
        .unwrap_or(true)
}

fn setup(g: &Game, max_cube: u32) -> Result<Option<Setup>, OgxmError> {
    if g.initial_board.is_none()
        && g.initial_cube_value.is_none_or(|v| v == 1)
        && g.initial_cube_owner.is_none_or(|o| o == 2)
        && g.auto_doubles.is_none_or(|a| a == 0)
    {
        return Ok(None);
    }
    let board = g.initial_board.as_ref().map_or(Ok(Position::STARTING), board_position)?;
    let base = g.initial_cube_value.unwrap_or(1);
    let value = 1u32
        .checked_shl(g.auto_doubles.unwrap_or(0))
        .and_then(|f| base.checked_mul(f))
        .filter(|v| v.is_power_of_two() && *v <= max_cube)
        .ok_or_else(|| OgxmError::Unsupported {
            what: format!("a starting cube of {base} that is not a power of two within the cube limit"),
        })?;
    let owner = match g.initial_cube_owner {
        Some(0) => Some(Seat::Zero),
        Some(1) => Some(Seat::One),
        _ => None,
    };
    if value == 1 && owner.is_some() {
        return Err(OgxmError::Unsupported { what: "a cube of 1 that is owned".into() });
    }
    Ok(Some(Setup { board, cube: Cube { value, owner, automatic: 0 } }))
}

fn game(
    gi: usize,
    g: &Game,
    score: [u32; 2],
    max_cube: u32,
    implied: bool,
    map: &mut PlyMap,
) -> Result<RawGame, OgxmError> {
    let setup = setup(g, max_cube)?;
    let mut cube = setup.map_or(1, |s| s.cube.value);
    let winner = g.winner.and_then(|w| usize::try_from(w).ok()).filter(|&w| w < 2);
    let mut actions = Vec::with_capacity(g.plies.len() + 1);
    for (pi, p) in g.plies.iter().enumerate() {
        let kind = match p.action {
            0..=20 => {
                let dice = dice_of(p.action).unwrap_or((1, 1));
                let steps: Vec<(u8, u8)> = p.steps.iter().map(|&s| mover_step(p.seat, s)).collect();
                let steps =
                    Steps::new(&steps).ok_or(OgxmError::Invalid { offset: p.offset, what: "more than four steps" })?;
                Some(RawKind::Steps { dice, steps })
            }
            21 => Some(RawKind::Double(cube.saturating_mul(2))),
            22 => {
                cube = cube.saturating_mul(2);
                Some(RawKind::Take)
            }
            23 => Some(RawKind::Drop),
            32 => {
                cube = cube.saturating_mul(4);
                Some(RawKind::Beaver(None))
            }
            27 | 28 => {
                // The points given up: the game's, when the other player won it.
                let stated = p.extras.as_ref().and_then(|x| x.resign_value).unwrap_or(1);
                let points = match (winner, g.points_won) {
                    (Some(w), Some(points)) if w != p.seat => points,
                    _ => stated.saturating_mul(cube),
                };
                Some(RawKind::Loss(points))
            }
            24..=26 | 30 | 38.. => None,
            other => {
                let what = unreplayable(other).unwrap_or("an unknown action");
                return Err(OgxmError::Unreplayable { game: gi + 1, ply: pi + 1, what });
            }
        };
        map.push(kind.map(|kind| {
            let at = actions.len();
            actions.push(RawAction { line: 0, move_number: u32::try_from(pi + 1).ok(), column: p.seat, kind });
            (gi, at)
        }));
    }
    // A resignation's result is the stated one; a game played out or passed
    // takes its result from the play (checked against the stated winner
    // after the replay: an edited file may state points the play does not give).
    let resigned = implied || g.plies.iter().any(|p| matches!(p.action, 27 | 28));
    if let (Some(w), Some(points), true) = (winner, g.points_won, resigned) {
        actions.push(RawAction {
            line: 0,
            move_number: None,
            column: SEATS[w].index(),
            kind: RawKind::Win(points, false),
        });
    }
    Ok(RawGame {
        number: u32::try_from(gi + 1).unwrap_or(u32::MAX),
        line: 0,
        score,
        crawford_game: None,
        setup,
        actions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opening_board_is_the_starting_position() {
        let mut b = [0i8; 26];
        for (i, v) in [(1, 2), (12, 5), (17, 3), (19, 5)] {
            b[i] = v;
        }
        for (i, v) in [(24, -2), (13, -5), (8, -3), (6, -5)] {
            b[i] = v;
        }
        assert_eq!(board_position(&b).unwrap(), Position::STARTING);
    }

    #[test]
    fn steps_are_counted_by_the_mover() {
        assert_eq!(mover_step(1, WireStep { from: 24, pips: 6 }), (24, 18));
        assert_eq!(mover_step(0, WireStep { from: 0, pips: 1 }), (25, 24), "seat 0 enters from 0");
        assert_eq!(mover_step(0, WireStep { from: 22, pips: 5 }), (3, 0), "a bear-off with a larger die");
    }
}
