//! The text layer: headers, the match length, games, the player line and
//! the numbered lines, each action assigned to the left or right column.

use super::raw::{RawAction, RawGame, RawKind, RawMatch};
use super::{MatError, MatPlace};
use crate::{quote, MatchRules};
use std::collections::BTreeMap;

/// Words that start an action; anything else continues the one before.
const ACTION_WORDS: [&str; 7] = ["Doubles", "Takes", "Beavers", "Drops", "Wins", "Losses", "Resigns"];

fn err(line: usize, game: Option<u32>, reason: impl Into<String>) -> MatError {
    MatError { place: MatPlace { line, game, ..MatPlace::default() }, reason: reason.into() }
}

pub(super) fn parse_lines(text: &str) -> Result<RawMatch, MatError> {
    let mut headers = BTreeMap::new();
    let mut length = None;
    let mut players: Option<[String; 2]> = None;
    let mut games: Vec<RawGame> = Vec::new();
    // The column where the right player's actions start (from the player line).
    let mut split = 0usize;
    let mut expect_players = false;
    for (i, raw_line) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw_line.trim_end_matches('\r').trim_end();
        let trimmed = line.trim_start();
        let game_no = games.last().map(|g| g.number);
        if trimmed.is_empty() {
            continue;
        }
        if let Some(h) = trimmed.strip_prefix(';') {
            if let Some((k, v)) = parse_header(h) {
                headers.insert(k, v);
            }
            continue;
        }
        if length.is_none() {
            let len = trimmed
                .strip_suffix("point match")
                .and_then(|l| l.trim().parse::<u32>().ok())
                .ok_or_else(|| err(n, None, format!("expected \"N point match\", found {}", quote(trimmed))))?;
            length = Some(len);
            continue;
        }
        if let Some(k) = trimmed.strip_prefix("Game ") {
            let number = k.trim().parse().map_err(|_| err(n, game_no, format!("bad game number {}", quote(k))))?;
            games.push(RawGame {
                number,
                line: n,
                score: [0, 0],
                crawford_game: None,
                setup: None,
                actions: Vec::new(),
            });
            expect_players = true;
            continue;
        }
        let Some(game) = games.last_mut() else {
            return Err(err(n, None, format!("expected \"Game 1\", found {}", quote(trimmed))));
        };
        if expect_players {
            let (names, score, col) = parse_players(line)
                .ok_or_else(|| err(n, Some(game.number), format!("cannot read the player line {}", quote(trimmed))))?;
            game.score = score;
            split = col;
            match &players {
                None => players = Some(names),
                Some(p) if *p == names => {}
                Some(p) => {
                    return Err(err(
                        n,
                        Some(game.number),
                        format!(
                            "players {} and {} differ from the first game's {} and {}",
                            quote(&names[0]),
                            quote(&names[1]),
                            quote(&p[0]),
                            quote(&p[1])
                        ),
                    ))
                }
            }
            expect_players = false;
            continue;
        }
        parse_action_line(line, n, split, game)?;
    }
    let length = length.ok_or_else(|| err(text.lines().count().max(1), None, "no \"N point match\" line"))?;
    let players = players.ok_or_else(|| err(text.lines().count().max(1), None, "no game in the file"))?;
    let crawford = headers.get("Crawford").is_none_or(|v: &String| !v.eq_ignore_ascii_case("off"));
    // A file records what was played: a beaver in money play is read as written.
    // gammon's writer says `; [Jacoby "On"]` for a money session under the
    // Jacoby rule (an unturned gammon scores single); matches have no Jacoby.
    let jacoby = length == 0 && headers.get("Jacoby").is_some_and(|v| v.eq_ignore_ascii_case("on"));
    let rules = MatchRules { beaver: true, jacoby, ..MatchRules::new_match(length) };
    Ok(RawMatch { headers, rules, crawford, start: None, players, games })
}

/// `[Key "Value"]` after the `;`.
fn parse_header(h: &str) -> Option<(String, String)> {
    let inner = h.trim().strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once('"')?;
    Some((key.trim().to_string(), rest.strip_suffix('"')?.to_string()))
}

/// ` Name1 : 3     Name2 : 1`: the names (a FIBS rating `,1719` dropped),
/// the score and the column where the second name starts.
fn parse_players(line: &str) -> Option<([String; 2], [u32; 2], usize)> {
    let (first, rest) = line.split_once(':')?;
    let rest_start = first.len() + 1;
    let rest_trim = rest.trim_start();
    let digits = rest_trim.find(|c: char| !c.is_ascii_digit())?;
    let score0 = rest_trim[..digits].parse().ok()?;
    let after = &rest_trim[digits..];
    let name2_rel = after.find(|c: char| !c.is_whitespace())?;
    let col = rest_start + (rest.len() - rest_trim.len()) + digits + name2_rel;
    let (second, score1) = after.rsplit_once(':')?;
    let score1 = score1.trim().parse().ok()?;
    let clean = |s: &str| {
        let s = s.trim();
        match s.rsplit_once(',') {
            Some((name, rating)) if !rating.is_empty() && rating.chars().all(|c| c.is_ascii_digit()) => {
                name.to_string()
            }
            _ => s.to_string(),
        }
    };
    Some(([clean(first), clean(second)], [score0, score1], col))
}

/// One line of actions: `  12) 31: 8/5 6/5      Doubles => 2` or an
/// unnumbered `      Wins 1 point`.
fn parse_action_line(line: &str, n: usize, split: usize, game: &mut RawGame) -> Result<(), MatError> {
    let trimmed = line.trim_start();
    let (move_number, body_start) = match trimmed.split_once(')') {
        Some((num, _)) if !num.is_empty() && num.chars().all(|c| c.is_ascii_digit()) => {
            let start = line.len() - trimmed.len() + num.len() + 1;
            (num.parse::<u32>().ok(), start)
        }
        _ => (None, 0),
    };
    let place = |reason: String| MatError {
        place: MatPlace { line: n, game: Some(game.number), move_number, player: None },
        reason,
    };
    // Split the body into actions: (start column, end): the action is
    // `line[start..end]`, kept as a span (a huge line costs no word list).
    let mut actions: Vec<(usize, usize)> = Vec::new();
    let body = &line[body_start..];
    let mut offset = body_start;
    for word in body.split_inclusive(char::is_whitespace) {
        let w = word.trim();
        let col = offset;
        offset += word.len();
        if w.is_empty() {
            continue;
        }
        let starts = ACTION_WORDS.contains(&w) || is_dice_token(w);
        match actions.last_mut() {
            Some(last) if !starts => last.1 = col + w.len(),
            _ if starts => actions.push((col, col + w.len())),
            _ => return Err(place(format!("cannot read {}", quote(w)))),
        }
    }
    let columns: Vec<usize> = match actions.len() {
        0 => return Ok(()),
        1 => vec![usize::from(2 * actions[0].0 >= body_start + split)],
        2 => vec![0, 1],
        k => return Err(place(format!("{k} actions on one line, at most 2 (left and right player)"))),
    };
    for ((start, end), column) in actions.into_iter().zip(columns) {
        let kind = parse_action(&line[start..end]).map_err(place)?;
        game.actions.push(RawAction { line: n, move_number, column, kind });
    }
    Ok(())
}

/// `31:` (two dice digits and a colon, possibly with the move glued on).
fn is_dice_token(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() >= 3 && b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b':'
}

fn parse_points(words: &[&str]) -> Result<u32, String> {
    let n =
        words.get(1).and_then(|w| w.parse().ok()).ok_or_else(|| format!("cannot read {}", quote(&words.join(" "))))?;
    match words.get(2) {
        Some(&("point" | "points")) => Ok(n),
        _ => Err(format!("cannot read {}: expected \"{} N point(s)\"", quote(&words.join(" ")), words[0])),
    }
}

/// One action, from its first word to its last.
fn parse_action(span: &str) -> Result<RawKind, String> {
    let first = span.split_whitespace().next().unwrap_or_default();
    if is_dice_token(first) {
        let b = first.as_bytes();
        let dice = (b[0] - b'0', b[1] - b'0');
        // The move after `31:`, its words one space apart.
        let mut text = String::with_capacity(span.len());
        for (i, w) in span[3..].split_whitespace().enumerate() {
            if i > 0 {
                text.push(' ');
            }
            text.push_str(w);
        }
        // Galaxy and Studio write a dance as `Cannot Move`.
        let text = if text.eq_ignore_ascii_case("cannot move") { String::new() } else { text };
        return Ok(RawKind::Roll { dice, text: text.into_boxed_str() });
    }
    // Every other action has at most six words (`Wins 1 point and the match`).
    let words: Vec<&str> = span.split_whitespace().take(7).collect();
    if words.len() > 6 {
        return Err(format!("cannot read {}", quote(span)));
    }
    let words = words.as_slice();
    let whole = words.join(" ");
    let single = |k: RawKind| if words.len() == 1 { Ok(k) } else { Err(format!("cannot read {}", quote(&whole))) };
    match first {
        "Takes" => single(RawKind::Take),
        // gnubg's export writes `Beavers => 4`, other programs a bare `Beavers`.
        "Beavers" => match words {
            [_] => Ok(RawKind::Beaver(None)),
            [_, "=>", v] => {
                v.parse().map(|v| RawKind::Beaver(Some(v))).map_err(|_| format!("bad cube value in {}", quote(&whole)))
            }
            _ => Err(format!("cannot read {}: expected \"Beavers\" or \"Beavers => N\"", quote(&whole))),
        },
        "Drops" => single(RawKind::Drop),
        "Doubles" => match words {
            [_, "=>", v] => v.parse().map(RawKind::Double).map_err(|_| format!("bad cube value in {}", quote(&whole))),
            _ => Err(format!("cannot read {}: expected \"Doubles => N\"", quote(&whole))),
        },
        "Wins" => {
            let rest = &words[3.min(words.len())..];
            let and_the_match = rest == ["and", "the", "match"];
            if !(rest.is_empty() || and_the_match) {
                return Err(format!("cannot read {}", quote(&whole)));
            }
            parse_points(words).map(|points| RawKind::Win(points, and_the_match))
        }
        "Losses" if words.len() == 3 => parse_points(words).map(RawKind::Loss),
        // XG's export: a bare `Resigns`, the opponent's `Wins N points` after.
        "Resigns" => single(RawKind::Resigns),
        _ => Err(format!("cannot read {}", quote(&whole))),
    }
}
