//! The analysis of each record: the move, the cube decision and the luck.

use super::marks::{LuckMark, Mark};
use super::report::{
    ChequerReview, CubeChoice, CubeErrorKind, CubeReview, GameReview, LuckReview, RecordReview, StoredReview,
};
use super::{ReviewError, ReviewSettings};
use crate::api::{CubefulMove, Engine, EngineError};
use crate::cube::{rank_results_cubeful, CubeAnalysis, CubeError, CubeState, Stakes};
use crate::in_order::map_in_order;
use crate::met::Met;
use gammon_eval::Evaluator;
use gammon_rules::{parse_move, Dice, GameContext, GameText, MatAction, MatchRecord, Position, StoredMove, ALL_ROLLS};
use std::sync::atomic::AtomicBool;

/// gnubg's "close" cube decision: the best cube action within this of
/// `min(double/take, double/pass)`.
const CLOSE_CUBE: f64 = 0.16;

/// What one record's own analysis found (before the answers to a double
/// are matched with the double).
#[derive(Default)]
struct Found {
    chequer: Option<ChequerReview>,
    /// The decision of the player who may double: before his roll, or his
    /// double.
    cube: Option<CubeAnalysis>,
    luck: Option<LuckReview>,
}

/// Every game of `record` reviewed, records in parallel: the moves (and
/// the luck) with `engine`, the cube decisions with `cube`.
///
/// The records are taken in file order ([`map_in_order`]), so once `stop`
/// is set the records in hand are finished and the review is of a prefix
/// of the match: the games before the one in hand, and the reviewed
/// records of that one. Returns the games and the number of records
/// reviewed.
pub(super) fn games<E: Evaluator, C: Evaluator>(
    engine: &Engine<E>,
    cube: &Engine<C>,
    record: &MatchRecord,
    settings: &ReviewSettings,
    tick: &(impl Fn() + Sync),
    stop: &AtomicBool,
) -> Result<(Vec<GameReview>, usize), ReviewError> {
    let tasks: Vec<(&GameText, usize)> =
        record.games.iter().flat_map(|g| (0..g.records.len()).map(move |i| (g, i))).collect();
    let (found, error) = map_in_order(&tasks, stop, |_, &(game, i)| {
        let f = analyse_record(engine, cube, record, game, i, settings);
        tick();
        f
    });
    if let Some(e) = error {
        return Err(e);
    }
    if found.is_empty() && !tasks.is_empty() {
        return Err(ReviewError::Interrupted);
    }
    let reviewed = found.len();
    let mut found = found.into_iter().peekable();
    let mut games = Vec::with_capacity(record.games.len());
    for (g, game) in record.games.iter().enumerate() {
        if found.peek().is_none() && !game.records.is_empty() {
            break;
        }
        let mut records = Vec::with_capacity(game.records.len());
        let mut stopped_in_game = false;
        // The doubler's decision, for the answer that follows it.
        let mut offered: Option<CubeAnalysis> = None;
        for (i, entry) in game.records.iter().enumerate() {
            let Some(f) = found.next() else {
                stopped_in_game = true;
                break;
            };
            let context = game.state.context(&entry.cube, entry.player);
            let cube = match &entry.action {
                MatAction::Double { .. } => {
                    offered = f.cube.clone();
                    f.cube.map(|a| review_cube(a, CubeChoice::Double, engine.met()))
                }
                MatAction::Take => offered.take().map(|a| review_cube(a, CubeChoice::Take, engine.met())),
                MatAction::Beaver => offered.take().map(|a| review_cube(a, CubeChoice::Beaver, engine.met())),
                MatAction::Drop => offered.take().map(|a| review_cube(a, CubeChoice::Pass, engine.met())),
                _ => f.cube.map(|a| review_cube(a, CubeChoice::NoDouble, engine.met())),
            };
            let stored = record.stored.as_ref().and_then(|s| s.records.get(&(g, i))).map(|stored| StoredReview {
                loss: stored.chequer.as_ref().and_then(StoredMove::loss),
                cube_error: stored.cube.as_ref().zip(cube.as_ref()).map(|(s, c)| {
                    let can_double = c.analysis.can_double();
                    let error = cube_error((s.no_double, s.double_take, s.double_pass), can_double, c.choice).0;
                    if can_double {
                        error.max(0.0)
                    } else {
                        0.0
                    }
                }),
                record: stored.clone(),
            });
            records.push(RecordReview {
                player: entry.player,
                move_number: entry.move_number,
                line: entry.line,
                action: entry.action.clone(),
                position: entry.position,
                context,
                chequer: f.chequer,
                cube,
                luck: f.luck,
                stored,
            });
        }
        games.push(GameReview {
            number: game.number,
            score: game.score,
            crawford: game.state.is_crawford(),
            result: game.result,
            records,
        });
        if stopped_in_game {
            break;
        }
    }
    Ok((games, reviewed))
}

/// The engine's answer to a question the review asks, as a review error.
fn engine_error(e: EngineError) -> ReviewError {
    match e {
        EngineError::Cube(CubeError::MatchTooLong { length, max }) => ReviewError::MatchTooLong { length, max },
        e => ReviewError::Engine(e.to_string()),
    }
}

fn analyse_record<E: Evaluator, C: Evaluator>(
    engine: &Engine<E>,
    cube_engine: &Engine<C>,
    record: &MatchRecord,
    game: &GameText,
    index: usize,
    settings: &ReviewSettings,
) -> Result<Found, ReviewError> {
    let Some(entry) = game.records.get(index) else { return Ok(Found::default()) };
    let context = game.state.context(&entry.cube, entry.player);
    let pos = entry.position;
    if pos.game_result().is_some() {
        return Ok(Found::default());
    }
    let state = CubeState::from_context(&context, engine.met()).map_err(|e| engine_error(e.into()))?;
    let cube_decision = |plies| -> Result<Option<CubeAnalysis>, ReviewError> {
        let report = cube_engine.decide_cube(&pos, &context, plies).map_err(engine_error)?;
        Ok(Some(report.analysis))
    };
    let (dice, text) = match &entry.action {
        MatAction::Move { dice, text, .. } => (*dice, Some(text.as_str())),
        MatAction::Dance { dice } => (*dice, None),
        MatAction::Double { .. } => return Ok(Found { cube: cube_decision(settings.cube_plies)?, ..Found::default() }),
        _ => return Ok(Found::default()),
    };
    // Before the roll: the no-double decision, where he could double.
    let may_double = record.rules.cube && pos != Position::STARTING && state.no_double_reason().is_none();
    let cube = if may_double { cube_decision(settings.cube_plies)? } else { None };
    let chequer = text.map(|text| review_move(engine, &pos, dice, &context, text, settings)).transpose()?;
    let first_roll = game.records[..index].iter().all(|e| !matches!(e.action, MatAction::Move { .. }));
    let luck = Some(roll_luck(engine, &pos, dice, &state, settings.luck_plies, first_roll)?);
    Ok(Found { chequer, cube, luck })
}

/// The move played against the best at the review's depth.
fn review_move<E: Evaluator>(
    engine: &Engine<E>,
    pos: &Position,
    dice: Dice,
    context: &GameContext,
    text: &str,
    settings: &ReviewSettings,
) -> Result<ChequerReview, ReviewError> {
    let (_, after) = parse_move(pos, dice, text).map_err(|e| ReviewError::Engine(e.to_string()))?;
    let analysis = engine
        .analyse_roll_with(pos, dice, context, settings.plies, &settings.filter, Some(&after))
        .map_err(engine_error)?;
    let played = *analysis.find(&after).ok_or_else(|| ReviewError::Engine(format!("{text} is not legal")))?;
    let best = *analysis.moves.first().unwrap_or(&played);
    let mut candidates: Vec<CubefulMove> = analysis.moves.iter().take(settings.candidates.max(1)).copied().collect();
    if !candidates.iter().any(|m| m.result == after) {
        candidates.push(played);
    }
    let loss = (best.equity - played.equity).max(0.0);
    let loss_mwc = best.mwc.zip(played.mwc).map(|(b, p)| (b - p).max(0.0));
    let forced = analysis.moves.len() <= 1;
    Ok(ChequerReview {
        forced,
        legal_moves: analysis.moves.len(),
        candidates,
        played,
        best,
        loss,
        loss_mwc,
        mark: if forced { Mark::None } else { Mark::of_loss(loss) },
    })
}

/// Half the match winning chances between winning and losing the cube's
/// points at the state's score: what one unit of normalised equity is
/// worth in MWC (`None` in money play).
fn mwc_per_equity(state: &CubeState, met: &Met) -> Option<f64> {
    match state.stakes {
        Stakes::Money { .. } => None,
        Stakes::Match { away, crawford, .. } => {
            let win = met.mwc_after(away, crawford, state.cube, true);
            let lose = met.mwc_after(away, crawford, state.cube, false);
            Some((win - lose) / 2.0)
        }
    }
}

/// The value of each roll for the mover: his best move's cubeful equity
/// at `plies` (a dance: the position unchanged, the opponent on roll).
fn roll_value<E: Evaluator>(
    engine: &Engine<E>,
    pos: &Position,
    dice: Dice,
    state: &CubeState,
    plies: u8,
) -> Result<f64, ReviewError> {
    let list = pos.legal_moves(dice);
    let dance = [pos.switched()];
    let results = if list.is_empty() { &dance[..] } else { list.positions() };
    let filter = engine.search().filter();
    let ranked = rank_results_cubeful(engine.search(), results, state, engine.met(), plies, filter, None)
        .map_err(|e| engine_error(e.into()))?;
    Ok(ranked.first().map_or(0.0, |r| r.equity))
}

/// The luck of `dice`: its value against the average roll (gnubg's
/// `LuckNormal`), or for a game's first roll against the 30 non-doubles,
/// half of them with the other player moving first (`LuckFirst`).
fn roll_luck<E: Evaluator>(
    engine: &Engine<E>,
    pos: &Position,
    dice: Dice,
    state: &CubeState,
    plies: u8,
    first_roll: bool,
) -> Result<LuckReview, ReviewError> {
    let opening = first_roll && *pos == Position::STARTING && !dice.is_double();
    // The value of each roll that counts, the roll played among them.
    let rolls: Vec<Dice> = ALL_ROLLS.iter().copied().filter(|d| !opening || !d.is_double()).collect();
    let values = rolls.iter().map(|d| roll_value(engine, pos, *d, state, plies)).collect::<Result<Vec<f64>, _>>()?;
    let mean = if opening {
        let other = state.switched();
        let mut sum = 0.0;
        for (d, v) in rolls.iter().zip(&values) {
            sum += v - roll_value(engine, pos, *d, &other, plies)?;
        }
        sum / 30.0
    } else {
        rolls.iter().zip(&values).map(|(d, v)| f64::from(d.weight()) * v).sum::<f64>() / 36.0
    };
    let played = match rolls.iter().position(|d| *d == dice) {
        Some(i) => values[i],
        None => roll_value(engine, pos, dice, state, plies)?,
    };
    let luck = played - mean;
    Ok(LuckReview {
        luck,
        luck_mwc: mwc_per_equity(state, engine.met()).map(|k| luck * k),
        mark: LuckMark::of_luck(luck),
    })
}

/// The error of `choice` at the doubler's decision `a` (gnubg's
/// `updateStatcontext`).
fn review_cube(a: CubeAnalysis, choice: CubeChoice, met: &Met) -> CubeReview {
    let (error, kind, close) = cube_error((a.no_double, a.double_take, a.double_pass), a.can_double(), choice);
    let error = if a.can_double() { error.max(0.0) } else { 0.0 };
    let error_mwc = mwc_per_equity(&a.state, met).map(|k| error * k);
    CubeReview {
        choice,
        error,
        error_mwc,
        kind: (error > 0.0).then_some(kind),
        close,
        mark: Mark::of_loss(error),
        analysis: a,
    }
}

/// The error of `choice` against the best cube action for the values
/// (no double, double/take, double/pass) of the doubler (`can_double`: he
/// may; else no double is the only action), the kind of error it would
/// be, and whether the decision is close (gnubg's rules).
fn cube_error((nd, dt, dp): (f64, f64, f64), can_double: bool, choice: CubeChoice) -> (f64, CubeErrorKind, bool) {
    let optimal = if can_double { nd.max(dt.min(dp)) } else { nd };
    match choice {
        CubeChoice::NoDouble => {
            let error = optimal - nd;
            let kind = if dt > dp {
                CubeErrorKind::MissedDoubleAboveCashPoint
            } else {
                CubeErrorKind::MissedDoubleBelowCashPoint
            };
            (error, kind, optimal - dt.min(dp) < CLOSE_CUBE)
        }
        CubeChoice::Double => {
            let kind = if nd > dp {
                CubeErrorKind::WrongDoubleAboveTooGoodPoint
            } else {
                CubeErrorKind::WrongDoubleBelowDoublePoint
            };
            (optimal - dt.min(dp), kind, true)
        }
        CubeChoice::Take | CubeChoice::Beaver => (dt - dp, CubeErrorKind::WrongTake, true),
        CubeChoice::Pass => (dp - dt, CubeErrorKind::WrongPass, true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::NetEvaluator;
    use gammon_rules::{GameContext, Xgid};

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    fn middle_game() -> Position {
        Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").unwrap().position
    }

    #[test]
    fn the_luck_of_all_rolls_averages_to_nothing() {
        let e = engine();
        let pos = middle_game();
        for ctx in [GameContext::money(), GameContext { score: (2, 4), ..GameContext::new_match(7) }] {
            let state = CubeState::from_context(&ctx, e.met()).unwrap();
            let mut sum = 0.0;
            for d in ALL_ROLLS {
                let l = roll_luck(&e, &pos, d, &state, 0, false).unwrap();
                sum += f64::from(d.weight()) * l.luck;
                assert_eq!(l.mark, LuckMark::of_luck(l.luck));
                assert_eq!(l.luck_mwc.is_some(), !ctx.is_money());
            }
            assert!(sum.abs() < 1e-9, "{sum}");
        }
    }

    #[test]
    fn the_opening_roll_is_measured_against_the_30_non_doubles_either_player_first() {
        let e = engine();
        let pos = Position::STARTING;
        let money = CubeState::from_context(&GameContext::money(), e.met()).unwrap();
        let three_one = Dice::new(3, 1).unwrap();
        // Before the opening roll money play is even: the luck of a roll is
        // its value, the same for either player.
        let l = roll_luck(&e, &pos, three_one, &money, 0, true).unwrap();
        assert!(l.luck > 0.05, "31 is one of the best openings: {}", l.luck);
        let other = roll_luck(&e, &pos, three_one, &money.switched(), 0, true).unwrap();
        assert!((l.luck - other.luck).abs() < 1e-12);
        // Counted against the 36 rolls instead, doubles included, the luck of
        // the same roll differs: the average is not the opening's.
        let normal = roll_luck(&e, &pos, three_one, &money, 0, false).unwrap();
        assert!((normal.luck - l.luck).abs() > 1e-3);
        // At a match score where one side leads, the opening is not even.
        let ctx = GameContext { score: (4, 0), ..GameContext::new_match(5) };
        let leader = CubeState::from_context(&ctx, e.met()).unwrap();
        let mut mean = 0.0;
        for d in ALL_ROLLS.iter().filter(|d| !d.is_double()) {
            mean += roll_value(&e, &pos, *d, &leader, 0).unwrap()
                - roll_value(&e, &pos, *d, &leader.switched(), 0).unwrap();
        }
        mean /= 30.0;
        let l = roll_luck(&e, &pos, three_one, &leader, 0, true).unwrap();
        let v = roll_value(&e, &pos, three_one, &leader, 0).unwrap();
        assert!((l.luck - (v - mean)).abs() < 1e-12);
    }

    fn analysis_with(nd: f64, dt: f64) -> CubeAnalysis {
        let e = engine();
        let mut a = e.decide_cube(&middle_game(), &GameContext::money(), 0).unwrap().analysis;
        (a.decision.no_double, a.decision.double_take, a.decision.double_pass) = (nd, dt, 1.0);
        a
    }

    #[test]
    fn cube_errors_are_gnubgs() {
        let met = Met::kazaross_xg2();
        // Double, take: not doubling misses (dt - nd); passing gives up dp - dt.
        let a = analysis_with(0.5, 0.7);
        let r = review_cube(a.clone(), CubeChoice::NoDouble, met);
        assert!((r.error - 0.2).abs() < 1e-12);
        assert_eq!(r.kind, Some(CubeErrorKind::MissedDoubleBelowCashPoint));
        assert!(r.close);
        assert_eq!(r.mark, Mark::VeryBad);
        assert_eq!(review_cube(a.clone(), CubeChoice::Double, met).error, 0.0);
        assert_eq!(review_cube(a.clone(), CubeChoice::Take, met).error, 0.0);
        let pass = review_cube(a, CubeChoice::Pass, met);
        assert!((pass.error - 0.3).abs() < 1e-12);
        assert_eq!(pass.kind, Some(CubeErrorKind::WrongPass));
        // Double, pass: not doubling misses 1 - nd; taking gives away dt - dp.
        let a = analysis_with(0.8, 1.4);
        let r = review_cube(a.clone(), CubeChoice::NoDouble, met);
        assert!((r.error - 0.2).abs() < 1e-12);
        assert_eq!(r.kind, Some(CubeErrorKind::MissedDoubleAboveCashPoint));
        let take = review_cube(a, CubeChoice::Take, met);
        assert!((take.error - 0.4).abs() < 1e-12);
        assert_eq!(take.kind, Some(CubeErrorKind::WrongTake));
        // No double: doubling costs nd - dt; far from a double is not close.
        let a = analysis_with(0.3, 0.1);
        let r = review_cube(a.clone(), CubeChoice::Double, met);
        assert!((r.error - 0.2).abs() < 1e-12);
        assert_eq!(r.kind, Some(CubeErrorKind::WrongDoubleBelowDoublePoint));
        let nd = review_cube(a, CubeChoice::NoDouble, met);
        assert_eq!((nd.error, nd.kind, nd.close), (0.0, None, false));
        // Too good: doubling gives up nd - 1.
        let a = analysis_with(1.3, 1.6);
        let r = review_cube(a, CubeChoice::Double, met);
        assert!((r.error - 0.3).abs() < 1e-12);
        assert_eq!(r.kind, Some(CubeErrorKind::WrongDoubleAboveTooGoodPoint));
    }
}
