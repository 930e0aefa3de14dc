//! Writing a [`MatchRecord`] as Jellyfish `.mat` text in the layout of
//! gnubg's `export match mat`, so that gnubg's `import mat` and gammon's
//! own reader both read the same games back.
//!
//! The layout follows gnubg's `ExportGameJF`: `; [Key "Value"]` headers,
//! ` N point match`, then per game ` Game K`, the player line
//! ` Name1 : score` padded to 31 characters then `Name2 : score`, and the
//! numbered lines `%3d) ` with the left player's action in 27 characters,
//! a space, the right player's. Moves are written step by step as gnubg
//! writes them (`13/9 24/23`, `25/21*`, `3/0`), a dance as the dice alone
//! (`43:`), a resignation as the winner's `Wins N points` before the game
//! is over (gnubg's form; gammon reads it back as a resignation). A game
//! with a result ends with the winner's `Wins` line. The Crawford rule is
//! on unless a header says otherwise: a match without it gets
//! `; [Crawford "Off"]`, a money session under the Jacoby rule
//! `; [Jacoby "On"]`, which gammon's reader honours (gnubg ignores both).

use super::{GameText, MatAction, MatchRecord};
use crate::{Position, Seat};
use std::fmt::Write as _;
use thiserror::Error;

/// Why a match cannot be written in a format.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum WriteMatchError {
    /// A player's name that the format cannot hold (the reason says why).
    #[error("the player name {name:?} cannot be written in {format}: {why}")]
    Name {
        /// The name.
        name: String,
        /// The format (`.mat`, `SGF`).
        format: &'static str,
        /// Why not.
        why: &'static str,
    },
    /// A header value or key that the format cannot hold.
    #[error("the header {key:?} cannot be written in {format}: {why}")]
    Header {
        /// The header key.
        key: String,
        /// The format.
        format: &'static str,
        /// Why not.
        why: &'static str,
    },
}

/// The width of the left player's column after the move number, as gnubg writes it.
const LEFT_WIDTH: usize = 27;
/// The column the right player's actions start at (5 for `%3d) `, 27, a space).
const RIGHT_COLUMN: usize = 5 + LEFT_WIDTH + 1;

/// Writes `record` as `.mat` text (gnubg's export layout).
///
/// ```
/// use gammon_rules::{parse_mat, write_mat};
/// let text = " 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n  2) 42: 8/4 6/4\n";
/// let record = parse_mat(text).unwrap();
/// let written = write_mat(&record).unwrap();
/// assert!(written.contains("  2) 42: 8/4 6/4"));
/// assert_eq!(parse_mat(&written).unwrap().games[0].records.len(), 2);
/// ```
///
/// # Errors
/// A player name that `.mat` cannot hold (empty, a `:` or a line break in
/// it, blanks around it, or ending in `,digits`, which readers take for a
/// FIBS rating), or a header with a `"`, `]` or line break.
pub fn write_mat(record: &MatchRecord) -> Result<String, WriteMatchError> {
    for name in &record.players {
        check_name(name)?;
    }
    let mut out = String::new();
    // The Crawford and Jacoby headers say what the record says (gammon's
    // reader takes `; [Crawford "Off"]` and, money only, `; [Jacoby "On"]`).
    let mut headers = record.headers.clone();
    let off = headers.get("Crawford").is_some_and(|v| v.eq_ignore_ascii_case("off"));
    if record.match_length > 0 && !record.crawford {
        headers.insert("Crawford".into(), "Off".into());
    } else if off {
        headers.remove("Crawford");
    }
    if record.match_length == 0 && record.rules.jacoby {
        headers.insert("Jacoby".into(), "On".into());
    } else {
        headers.remove("Jacoby");
    }
    for (key, value) in &headers {
        check_header(key, value)?;
        let _ = writeln!(out, "; [{key} \"{value}\"]");
    }
    out.push('\n');
    let _ = write!(out, " {} point match\n\n", record.match_length);
    // Long names push the right column out: gammon's reader places a lone
    // action by the column where the second name starts.
    let name_width = record.players[0].chars().count() + 4;
    let split = 1 + name_width.max(31);
    for game in &record.games {
        write_game(&mut out, record, game, split);
    }
    Ok(out)
}

fn check_name(name: &str) -> Result<(), WriteMatchError> {
    let bad = |why| Err(WriteMatchError::Name { name: name.to_string(), format: ".mat", why });
    if name.is_empty() {
        return bad("it is empty");
    }
    if name.trim() != name {
        return bad("it starts or ends with a blank");
    }
    if name.contains(':') {
        return bad("`:` separates the name from the score");
    }
    if name.contains(['\n', '\r']) {
        return bad("it has a line break");
    }
    if let Some((_, tail)) = name.rsplit_once(',') {
        if !tail.is_empty() && tail.chars().all(|c| c.is_ascii_digit()) {
            return bad("a name ending in `,digits` is read as a FIBS rating");
        }
    }
    Ok(())
}

fn check_header(key: &str, value: &str) -> Result<(), WriteMatchError> {
    let bad = |why| Err(WriteMatchError::Header { key: key.to_string(), format: ".mat", why });
    if key.contains(['"', '[', ']', '\n', '\r']) || key.trim().is_empty() {
        return bad("the key must be a plain word");
    }
    if value.contains(['"', '\n', '\r']) {
        return bad("the value has a `\"` or a line break");
    }
    Ok(())
}

/// One numbered line being filled: the left and right actions.
#[derive(Default)]
struct Line {
    slots: [Option<String>; 2],
}

fn write_game(out: &mut String, record: &MatchRecord, game: &GameText, split: usize) {
    let _ = writeln!(out, " Game {}", game.number);
    let left = format!("{} : {}", record.players[0], game.score[0]);
    let _ = writeln!(out, " {:<w$}{} : {}", left, record.players[1], game.score[1], w = split - 1);
    let right_column = RIGHT_COLUMN.max(split);
    let mut number = 0u32;
    let mut line = Line::default();
    let flush = |out: &mut String, line: &mut Line, number: &mut u32| {
        if line.slots.iter().all(Option::is_none) {
            return;
        }
        *number += 1;
        let mut text = format!("{:>3}) {}", number, line.slots[0].as_deref().unwrap_or(""));
        if let Some(right) = &line.slots[1] {
            let pad = right_column.saturating_sub(text.chars().count()).max(1);
            text.extend(std::iter::repeat_n(' ', pad));
            text.push_str(right);
        }
        out.push_str(text.trim_end());
        out.push('\n');
        *line = Line::default();
    };
    let mut won = false;
    for entry in &game.records {
        let column = entry.player.index();
        let text = match &entry.action {
            MatAction::Move { dice, mv, .. } => {
                let steps: Vec<(u8, u8)> = mv.steps().iter().map(|s| (s.from, s.to)).collect();
                format!("{}{}: {}", dice.high(), dice.low(), steps_text(&entry.position, &steps))
            }
            MatAction::Dance { dice } => format!("{}{}:", dice.high(), dice.low()),
            MatAction::Double { value } => format!(" Doubles => {value}"),
            MatAction::Take => " Takes".into(),
            MatAction::Beaver => format!(" Beavers => {}", entry.cube.value.saturating_mul(4)),
            MatAction::Drop => " Drops".into(),
            // gnubg writes a resignation only as the winner's `Wins` line.
            MatAction::Resign { .. } => continue,
            MatAction::Win { points, .. } => {
                // gnubg writes the right player's win beside the left's last
                // action (`Drops   Wins 1 point`); its import misreads a money
                // game's drop with the win on a line of its own.
                if entry.player == Seat::One && line.slots[0].is_some() && line.slots[1].is_none() {
                    line.slots[1] = Some(wins(*points));
                    flush(out, &mut line, &mut number);
                } else {
                    flush(out, &mut line, &mut number);
                    write_wins(out, entry.player, *points);
                }
                won = true;
                continue;
            }
        };
        // A new line when this column is taken, or when the left player
        // acts after the right one on the same line.
        if line.slots[column].is_some() || (column == 0 && line.slots[1].is_some()) {
            flush(out, &mut line, &mut number);
        }
        // The first line of a game the right player starts has an empty left.
        line.slots[column] = Some(text);
    }
    flush(out, &mut line, &mut number);
    if let (Some((winner, points)), false) = (game.result, won) {
        write_wins(out, winner, points);
    }
    out.push('\n');
}

fn wins(points: u32) -> String {
    format!("Wins {points} point{}", if points == 1 { "" } else { "s" })
}

/// A `Wins` line of its own, in the winner's column.
fn write_wins(out: &mut String, winner: Seat, points: u32) {
    let indent = if winner == Seat::Zero { 6 } else { 34 };
    let _ = writeln!(out, "{:indent$}{}", "", wins(points));
}

/// The steps `(from, to)` written as gnubg's export writes them, in their
/// order: `13/9 24/23`, `25/21`, `3/0`, a hit marked `*`.
pub(crate) fn steps_text(pos: &Position, steps: &[(u8, u8)]) -> String {
    // The opponent's checkers on each of the mover's points: a hit takes the blot.
    let mut theirs: [u8; 25] = std::array::from_fn(|p| pos.their_checkers(p));
    let words: Vec<String> = steps
        .iter()
        .map(|&(from, to)| {
            let to_point = usize::from(to);
            let hit = (1..=24).contains(&to_point) && theirs[to_point] == 1;
            if hit {
                theirs[to_point] = 0;
            }
            format!("{from}/{to}{}", if hit { "*" } else { "" })
        })
        .collect();
    words.join(" ")
}
