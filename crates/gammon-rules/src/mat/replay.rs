//! Plays the written actions through the rules: the position before each
//! action, legal moves for the dice, cube actions in turn, results that fit.

use super::raw::{RawGame, RawKind, RawMatch};
use super::write::steps_text;
use super::{GameText, MatAction, MatEntry, MatError, MatPlace, MatchRecord, WinHow};
use crate::{parse_move, quote, shorten, Cube, Dice, GameResult, MatchError, MatchState, Position, Seat, NAME_CHARS};
use std::borrow::Cow;

const SEATS: [Seat; 2] = [Seat::Zero, Seat::One];

/// Replays every game; the first error refuses the whole match.
pub(crate) fn replay(raw: RawMatch) -> Result<MatchRecord, MatError> {
    let (record, error) = replay_until_error(raw)?;
    error.map_or(Ok(record), Err)
}

/// Replays the games up to the first that does not replay: the match of
/// the games before it, and its error. An error before the first game (a
/// starting score that cannot be) refuses the match.
pub(crate) fn replay_until_error(raw: RawMatch) -> Result<(MatchRecord, Option<MatError>), MatError> {
    let crawford = raw.crawford;
    let rules = raw.rules;
    let mut state = match raw.start {
        None => MatchState::new(rules),
        Some(start) => MatchState::at_score(rules, start.score, start.post_crawford).map_err(|e| MatError {
            place: MatPlace {
                line: raw.games.first().map_or(1, |g| g.line),
                game: raw.games.first().map(|g| g.number),
                ..MatPlace::default()
            },
            reason: format!("cannot start at {}-{}: {e}", start.score[0], start.score[1]),
        })?,
    };
    let mut games = Vec::with_capacity(raw.games.len());
    let mut error = None;
    for game in raw.games {
        let one = |state: &MatchState| -> Result<GameText, MatError> {
            let place = MatPlace { line: game.line, game: Some(game.number), ..MatPlace::default() };
            // Money sessions write each game's running total; only matches carry a score.
            if !rules.is_money() && state.score() != game.score {
                let s = state.score();
                return Err(MatError {
                    place,
                    reason: format!(
                        "score {}-{} does not follow from the games before ({}-{})",
                        game.score[0], game.score[1], s[0], s[1]
                    ),
                });
            }
            let game_state = state_for_game(state, crawford)
                .map_err(|e| MatError { place: place.clone(), reason: e.to_string() })?;
            if let Some(written) = game.crawford_game {
                if written != game_state.is_crawford() {
                    let (says, is) = if written { ("is", "is not") } else { ("is not", "is") };
                    return Err(MatError {
                        place,
                        reason: format!("the file says this {says} the Crawford game, but at this score it {is}"),
                    });
                }
            }
            replay_game(&game, &game_state, &raw.players)
        };
        match one(&state) {
            Ok(text) => {
                if let Some((winner, points)) = text.result {
                    state.record(winner, points);
                }
                games.push(text);
            }
            Err(e) => {
                error = Some(e);
                break;
            }
        }
    }
    let record = MatchRecord {
        players: raw.players,
        match_length: rules.length,
        crawford,
        rules,
        headers: raw.headers,
        games,
        stored: None,
    };
    Ok((record, error))
}

/// The match state a game is played in, from the state after the games
/// before it: `MatchState` always plays a Crawford game; without the rule
/// the game after reaching one-away is scored as post-Crawford instead.
pub(super) fn state_for_game(state: &MatchState, crawford_rule: bool) -> Result<MatchState, MatchError> {
    if !crawford_rule && state.is_crawford() {
        MatchState::at_score(*state.rules(), state.score(), true)
    } else {
        Ok(*state)
    }
}

/// Where a game stands between actions.
enum Phase {
    /// `on_roll` is to double or roll.
    Playing,
    /// `Seat` doubled; the other answers.
    Doubled(Seat),
    /// `Seat` resigned for the points at the level; the other's `Wins` follows.
    Resigned(Seat, u32, GameResult),
    /// The game is decided: winner, points, how; only the `Wins` line may follow.
    Decided(Seat, u32, WinHow),
    /// The `Wins` line has been read.
    Over,
}

fn replay_game(game: &RawGame, state: &MatchState, players: &[String; 2]) -> Result<GameText, MatError> {
    let mut records = Vec::new();
    // A set-up board is seen by seat Zero until the first actor is known.
    let mut pos = game.setup.map_or(Position::STARTING, |s| s.board);
    let mut cube = game.setup.map_or(Cube::START, |s| s.cube);
    let mut on_roll: Option<Seat> = None;
    let mut phase = Phase::Playing;
    let mut result = None;
    // The names as messages show them.
    let names = players.each_ref().map(|p| shorten(p, NAME_CHARS));
    for a in &game.actions {
        let seat = SEATS[a.column];
        let fail = |reason: String| MatError {
            place: MatPlace {
                line: a.line,
                game: Some(game.number),
                move_number: a.move_number,
                player: Some(names[a.column].to_string()),
            },
            reason,
        };
        // The first roll or double decides who is on roll.
        if on_roll.is_none() && seat == Seat::One {
            pos = pos.switched();
        }
        let roller = *on_roll.get_or_insert(seat);
        // The position before this line, seen by each player.
        let seen_by = |who: Seat| if who == roller { pos } else { pos.switched() };
        let (seen, seen_by_other) = (seen_by(seat), seen_by(seat.other()));
        let mut push = |who: Seat, action: MatAction, cube: Cube| {
            let position = if who == seat { seen } else { seen_by_other };
            records.push(MatEntry { player: who, move_number: a.move_number, line: a.line, position, cube, action });
        };
        // XG writes `and the match` after a money session's last game too:
        // there it ends the session, and says nothing to check.
        if let (RawKind::Win(points, true), false) = (&a.kind, state.rules().is_money()) {
            let points = *points;
            // `Wins N points and the match` must end the match.
            let mut after = *state;
            if after.record(seat, points) != Some(seat) {
                let s = state.score();
                return Err(fail(match state.away() {
                    Some(away) => format!(
                        "wins {points} point(s) and the match, but at {}-{} {} needs {}",
                        s[0],
                        s[1],
                        names[seat.index()],
                        away[seat.index()]
                    ),
                    None => format!("wins {points} point(s) and the match, but the match is already over"),
                }));
            }
        }
        match (&a.kind, &phase) {
            (RawKind::Roll { dice, .. } | RawKind::Steps { dice, .. }, Phase::Playing) => {
                let text = match &a.kind {
                    RawKind::Steps { steps, .. } => Cow::Owned(steps_text(&pos, steps.as_slice())),
                    RawKind::Roll { text, .. } => Cow::Borrowed(&**text),
                    _ => Cow::Borrowed(""),
                };
                if seat != roller {
                    return Err(fail(format!("a roll out of turn: {} is on roll", names[roller.index()])));
                }
                let dice = Dice::new(dice.0, dice.1).map_err(|e| fail(format!("dice {}{}: {e}", dice.0, dice.1)))?;
                let (mv, after) = parse_move(&pos, dice, &text)
                    .map_err(|e| fail(format!("illegal move {} for {dice}: {e}", quote(&text))))?;
                push(
                    seat,
                    if mv.is_empty() {
                        MatAction::Dance { dice }
                    } else {
                        MatAction::Move { dice, mv, text: text.into_owned() }
                    },
                    cube,
                );
                pos = after;
                on_roll = Some(seat.other());
                // `after` is seen by the next player: the mover won if the next has lost.
                if let Some((false, r)) = after.game_result() {
                    phase = Phase::Decided(seat, state.points(r, &cube), WinHow::Played(r));
                }
            }
            (RawKind::Double(value), Phase::Playing) => {
                if seat != roller {
                    return Err(fail(format!("a double out of turn: {} is on roll", names[roller.index()])));
                }
                if let Some(why) = state.double_refusal(&cube, seat) {
                    return Err(fail(format!("may not double here: {why}")));
                }
                let next = cube.value.saturating_mul(2);
                if *value != next {
                    return Err(fail(format!("doubles to {value}, but the cube is at {}", cube.value)));
                }
                push(seat, MatAction::Double { value: next }, cube);
                phase = Phase::Doubled(seat);
            }
            (RawKind::Take, &Phase::Doubled(doubler)) if seat != doubler => {
                push(seat, MatAction::Take, cube);
                cube = cube.taken(seat);
                phase = Phase::Playing;
            }
            (RawKind::Beaver(value), &Phase::Doubled(doubler)) if seat != doubler && state.may_beaver(&cube) => {
                let to = cube.value.saturating_mul(4);
                if value.is_some_and(|v| v != to) {
                    return Err(fail(format!("beavers to {}, but the cube is at {}", value.unwrap_or(0), cube.value)));
                }
                push(seat, MatAction::Beaver, cube);
                cube = cube.beavered(seat);
                phase = Phase::Playing;
            }
            (RawKind::Drop, &Phase::Doubled(doubler)) if seat != doubler => {
                push(seat, MatAction::Drop, cube);
                phase = Phase::Decided(doubler, cube.value, WinHow::Passed);
            }
            (RawKind::Loss(points), Phase::Playing) => {
                let level = resign_level(state, &cube, *points).ok_or_else(|| {
                    fail(format!("resigns {points} points, not 1, 2 or 3 times the cube {}", cube.value))
                })?;
                push(seat, MatAction::Resign { points: *points, level }, cube);
                phase = Phase::Resigned(seat, *points, level);
            }
            // The `Wins` that follows records the resignation and its points.
            (RawKind::Resigns, Phase::Playing) => {}
            (RawKind::Win(points, _), Phase::Playing) => {
                // A `Wins` before the game is over: the other player resigned.
                let level = resign_level(state, &cube, *points).ok_or_else(|| {
                    fail(format!("wins {points} points, not 1, 2 or 3 times the cube {}", cube.value))
                })?;
                push(seat.other(), MatAction::Resign { points: *points, level }, cube);
                push(seat, MatAction::Win { points: *points, how: WinHow::Resigned(level) }, cube);
                result = Some((seat, *points));
                phase = Phase::Over;
            }
            (RawKind::Win(points, _), &Phase::Resigned(loser, offered, level)) => {
                if seat == loser || *points != offered {
                    return Err(fail(format!(
                        "wins {points} points after {} resigned {offered}",
                        names[loser.index()]
                    )));
                }
                push(seat, MatAction::Win { points: *points, how: WinHow::Resigned(level) }, cube);
                result = Some((seat, *points));
                phase = Phase::Over;
            }
            (RawKind::Win(points, _), &Phase::Decided(winner, due, how)) => {
                // Sites write a match-winning result capped at the points still needed.
                let needed = state.away().map(|a| a[seat.index()]);
                let capped = needed.is_some_and(|n| *points == n && due > n);
                if seat != winner || (*points != due && !capped) {
                    return Err(fail(format!("wins {points} points, but {} won {due}", names[winner.index()])));
                }
                push(seat, MatAction::Win { points: *points, how }, cube);
                result = Some((seat, *points));
                phase = Phase::Over;
            }
            (kind, _) => return Err(fail(format!("{} {}", describe(kind), out_of_turn(&phase)))),
        }
    }
    // A game played to its end without a `Wins` line still has its result.
    if let Phase::Decided(winner, points, _) = phase {
        result = Some((winner, points));
    }
    Ok(GameText { number: game.number, score: game.score, records, result, state: *state })
}

/// The level a resignation of `points` is at with this cube (Jacoby in money
/// play makes every level worth the cube).
fn resign_level(state: &MatchState, cube: &Cube, points: u32) -> Option<GameResult> {
    [GameResult::Single, GameResult::Gammon, GameResult::Backgammon]
        .into_iter()
        .find(|&r| state.points(r, cube) == points)
}

fn describe(kind: &RawKind) -> String {
    match kind {
        RawKind::Roll { dice, .. } | RawKind::Steps { dice, .. } => format!("a roll {}{}", dice.0, dice.1),
        RawKind::Double(v) => format!("a double to {v}"),
        RawKind::Take => "a take".into(),
        RawKind::Beaver(_) => "a beaver".into(),
        RawKind::Drop => "a drop".into(),
        RawKind::Win(p, _) => format!("a win of {p} points"),
        RawKind::Loss(p) => format!("a resignation of {p} points"),
        RawKind::Resigns => "a resignation".into(),
    }
}

fn out_of_turn(phase: &Phase) -> &'static str {
    match phase {
        Phase::Playing => "out of turn: no double to answer here",
        Phase::Doubled(_) => "out of turn: a double is waiting for its answer",
        Phase::Resigned(..) => "out of turn: a resignation is waiting for the winner",
        Phase::Decided(..) => "after the game is over",
        Phase::Over => "after the game's result",
    }
}
