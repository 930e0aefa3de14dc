//! The engine API against the modules it wraps, called directly.

use super::*;
use crate::cube::{analyse_position_nply, CubeError};
use crate::rollout::{rollout_moves, rollout_position, RolloutError, RolloutSettings};
use gammon_eval::NetEvaluator;
use gammon_rules::{CubeOwner, DiceState};

fn engine() -> Engine<NetEvaluator> {
    Engine::new(NetEvaluator::shipped().unwrap())
}

/// The engine's rollout of `position` (money play) or of its moves for
/// `dice`.
fn roll_out(
    e: &Engine<NetEvaluator>,
    position: &Position,
    dice: Option<Dice>,
    settings: &RolloutSettings,
) -> Result<RolloutReport, EngineError> {
    e.rollout(&Request { dice, ..Request::money(*position) }, settings, |_| {}, &AtomicBool::new(false))
}

fn dice(text: &str) -> Dice {
    text.parse().unwrap()
}

fn pos(id: &str) -> Position {
    Position::from_position_id(id).unwrap()
}

/// X to move in a contact middle game (from the XGID the CLI tests use).
fn middle_game() -> Position {
    gammon_rules::Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").unwrap().position
}

/// O has borne off every checker: the game is over.
const FINISHED: &str = "AAAAAAAA/38AAA";
/// X is on the bar against a closed board: no legal move for 66.
const CLOSED_OUT: &str = "27YBAAA8Dz4ADA";
/// Both sides in their home boards, no contact.
const BEAROFF: &str = "AwAAEAEAAAAAAA";

#[test]
fn evaluation_at_0_ply_is_the_nets_own() {
    let e = engine();
    for p in [Position::STARTING, middle_game(), pos(BEAROFF), pos(FINISHED)] {
        let (want, class) = e.evaluator().evaluate_with(&p, &mut e.evaluator().scratch());
        let got = e.evaluate(&p, 0);
        assert_eq!(got.probabilities, want);
        assert_eq!(got.class, class);
        assert_eq!(got.plies, 0);
        assert_eq!(got.evaluator, e.evaluator().name());
    }
    assert!(e.evaluate(&pos(BEAROFF), 1).is_exact());
    assert!(!e.evaluate(&Position::STARTING, 0).is_exact());
}

#[test]
fn evaluation_deeper_is_the_searchs_value() {
    let e = engine();
    let p = middle_game();
    assert_eq!(e.evaluate(&p, 1).probabilities, Search::new(NetEvaluator::shipped().unwrap()).value(&p, 1));
}

#[test]
fn roll_analysis_is_the_searchs_ranking() {
    let e = engine();
    let p = middle_game();
    let a = e.analyse_roll(&p, dice("31"), 1).unwrap();
    let want = Search::new(NetEvaluator::shipped().unwrap()).analyse_roll(&p, dice("31"), 1).unwrap();
    assert_eq!(a.moves, want);
    assert_eq!((a.plies, a.dice), (1, dice("31")));
    assert!(a.stats.evaluations > 0, "a 1-ply analysis evaluates positions");
    // The counters are those of this call, not the engine's life.
    let again = e.analyse_roll(&p, dice("31"), 1).unwrap();
    assert_eq!(again.stats.evaluations, 0, "everything is in the cache the second time");
    assert!(e.analyse_roll(&pos(CLOSED_OUT), dice("66"), 1).unwrap().moves.is_empty());
    assert_eq!(e.analyse_roll(&pos(FINISHED), dice("21"), 1), Err(EngineError::GameOver));
}

#[test]
fn the_chosen_move_at_0_ply_is_the_evaluators() {
    let e = engine();
    for p in [Position::STARTING, middle_game()] {
        for d in ["31", "66", "52", "21"] {
            let list = p.legal_moves(dice(d));
            let i = e.evaluator().best_move(&p, list.positions());
            let chosen = e.choose_move(&p, dice(d), 0).unwrap();
            assert_eq!((chosen.mv, chosen.result), (list.moves()[i], list.positions()[i]), "{d}");
            assert!(!chosen.is_pass());
        }
    }
}

#[test]
fn the_chosen_move_deeper_is_the_best_ranked() {
    let e = engine();
    let p = middle_game();
    let best = e.analyse_roll(&p, dice("43"), 1).unwrap().moves[0];
    let chosen = e.choose_move(&p, dice("43"), 1).unwrap();
    assert_eq!((chosen.mv, chosen.result), (best.mv, best.result));
}

#[test]
fn a_closed_board_passes_and_a_finished_game_has_no_move() {
    let e = engine();
    let p = pos(CLOSED_OUT);
    let chosen = e.choose_move(&p, dice("66"), 0).unwrap();
    assert!(chosen.is_pass());
    assert_eq!(chosen.result, p.switched());
    assert_eq!(e.choose_move(&pos(FINISHED), dice("21"), 0), Err(EngineError::GameOver));
}

#[test]
fn legal_moves_need_no_evaluator() {
    let moves = legal_moves(&Position::STARTING, dice("31")).unwrap();
    assert_eq!(moves.moves.len(), 16);
    assert_eq!(moves.dice_used, 2);
    let list = Position::STARTING.legal_moves(dice("31"));
    assert!(moves.moves.iter().zip(list.iter()).all(|(m, (mv, r))| m.mv == mv && m.result == r));
    assert!(legal_moves(&pos(CLOSED_OUT), dice("66")).unwrap().moves.is_empty());
    assert_eq!(legal_moves(&pos(FINISHED), dice("21")), Err(EngineError::GameOver));
}

#[test]
fn cube_decisions_are_the_cube_modules() {
    let e = engine();
    let p = middle_game();
    let mut ctx = GameContext::new_match(7);
    ctx.score = (2, 4);
    for plies in [0, 1] {
        let d = e.decide_cube(&p, &ctx, plies).unwrap();
        let want = analyse_position_nply(e.search(), &p, &ctx, Met::kazaross_xg2(), plies).unwrap();
        assert_eq!(d.analysis, want);
        assert_eq!((d.plies, d.context, d.class), (plies, ctx, PositionClass::Contact));
        assert!(d.notes.is_empty());
    }
}

#[test]
fn a_cube_question_is_asked_before_the_roll() {
    let p = middle_game();
    let met = Met::kazaross_xg2();
    let rolled = GameContext { dice: DiceState::Rolled(dice("31")), ..GameContext::money() };
    let q = CubeQuestion::new(p, rolled, met).unwrap();
    assert_eq!(q.context().dice, DiceState::ToRoll);
    assert_eq!(q.notes(), ["the dice (31) are ignored: the cube decision comes before the roll"]);
    let doubled = GameContext { dice: DiceState::Doubled, ..GameContext::money() };
    assert!(CubeQuestion::new(p, doubled, met).unwrap().notes()[0].starts_with("X has doubled"));
    let same = engine().decide_cube(&p, &rolled, 0).unwrap();
    assert_eq!(same.analysis, engine().decide_cube(&p, &GameContext::money(), 0).unwrap().analysis);
}

#[test]
fn cube_questions_the_engine_cannot_answer() {
    let met = Met::kazaross_xg2();
    let p = middle_game();
    assert_eq!(CubeQuestion::new(pos(FINISHED), GameContext::money(), met), Err(EngineError::GameOver));
    let long = GameContext::new_match(met.max_away() + 1);
    assert!(matches!(CubeQuestion::new(p, long, met), Err(EngineError::Cube(CubeError::MatchTooLong { .. }))));
    let cube_three = GameContext { cube_value: 3, ..GameContext::money() };
    let err = CubeQuestion::new(p, cube_three, met).unwrap_err();
    assert!(matches!(err, EngineError::Cube(CubeError::Context(_))), "{err:?}");
    // The cube module's message, unchanged.
    assert_eq!(err.to_string(), CubeError::from(cube_three.validate().unwrap_err()).to_string());
    let owned = GameContext { cube_value: 2, cube_owner: CubeOwner::Opponent, ..GameContext::money() };
    assert!(!engine().decide_cube(&p, &owned, 0).unwrap().analysis.can_double());
}

#[test]
fn rollouts_are_the_rollout_modules() {
    let e = engine();
    let settings = RolloutSettings { trials: 36, truncate: Some(2), ..RolloutSettings::default() };
    let r = roll_out(&e, &Position::STARTING, None, &settings).unwrap();
    let want = rollout_position(e.evaluator(), &Position::STARTING, &settings, |_| {}).unwrap();
    assert_eq!(r.outcome, RolloutOutcome::Position(Box::new(want)));
    assert_eq!((r.trials(), r.games(), r.legal_moves, r.settings), (36, 36, None, settings));
    assert_eq!(r.threads, rayon::current_num_threads());

    let moves = RolloutSettings { candidates: Some(3), ..settings };
    let r = roll_out(&e, &Position::STARTING, Some(dice("31")), &moves).unwrap();
    let want = rollout_moves(e.evaluator(), &Position::STARTING, dice("31"), &moves, |_| {}).unwrap();
    assert_eq!(r.outcome, RolloutOutcome::Moves(want));
    assert_eq!((r.trials(), r.games(), r.legal_moves), (36, 108, Some(16)));

    assert_eq!(roll_out(&e, &pos(FINISHED), Some(dice("21")), &settings), Err(EngineError::GameOver));
    let none = RolloutSettings { trials: 0, ..settings };
    assert_eq!(roll_out(&e, &Position::STARTING, None, &none), Err(EngineError::Rollout(RolloutError::NoTrials)));
}

#[test]
fn the_json_of_the_answers() {
    let e = engine();
    let moves = serde_json::to_value(legal_moves(&Position::STARTING, dice("31")).unwrap()).unwrap();
    assert_eq!(moves["position"], "4HPwATDgc/ABMA");
    assert_eq!(moves["pips"], serde_json::json!([167, 167]));
    assert_eq!(moves["moves"].as_array().unwrap().len(), 16);

    let roll = serde_json::to_value(e.analyse_roll(&Position::STARTING, dice("31"), 0).unwrap()).unwrap();
    assert_eq!(roll["moves"][0]["rank"], 1);
    assert_eq!(roll["moves"][0]["move"], "8/5 6/5");
    assert_eq!(roll["moves"][0]["loss"], 0.0);
    let p = &roll["moves"][1]["probabilities"];
    assert!((p["win"].as_f64().unwrap() + p["lose"].as_f64().unwrap() - 1.0).abs() < 1e-6);

    let eval = serde_json::to_value(e.evaluate(&pos(BEAROFF), 0)).unwrap();
    assert_eq!(eval["class"], "bearoff database");
    assert_eq!(eval["ply"], 0);

    let cube = serde_json::to_value(e.decide_cube(&middle_game(), &GameContext::money(), 0).unwrap()).unwrap();
    assert_eq!(cube["class"], "contact net", "the cube JSON names the part of the evaluator that answers");
    assert_eq!(cube["settings"]["owner"], "centre");
    assert!(cube["explanation"].as_str().unwrap().contains("Cube efficiency"));

    let settings = RolloutSettings { trials: 6, truncate: Some(0), ..RolloutSettings::default() };
    let r = serde_json::to_value(roll_out(&e, &Position::STARTING, None, &settings).unwrap()).unwrap();
    assert_eq!(r["settings"]["games"], 6);
    assert_eq!(r["rollout"]["trials"], 6);
    assert!(r.get("moves").is_none());
}

// ------------------------------------------------------ cubeful move analysis

/// The match winning chances of cubeless probabilities `p` (for the mover)
/// when nobody can double, from the table alone: what each outcome scores.
fn dead_cube_mwc(met: &Met, p: &gammon_eval::Probabilities, away: (u32, u32), cube: u32) -> f64 {
    let [w, wg, wbg, lg, lbg] = p.to_array().map(f64::from);
    let after = |points: u32, win: bool| met.mwc_after(away, true, points * cube, win);
    (w - wg) * after(1, true)
        + (wg - wbg) * after(2, true)
        + wbg * after(3, true)
        + (1.0 - w - lg) * after(1, false)
        + (lg - lbg) * after(2, false)
        + lbg * after(3, false)
}

#[test]
fn in_the_crawford_game_a_moves_mwc_is_what_its_outcomes_score() {
    // No cube can be turned in the Crawford game, so the cubeful value of a
    // move is the match winning chance of its cubeless outcomes.
    let e = engine();
    let p = middle_game();
    let mut ctx = GameContext::new_match(5);
    ctx.score = (4, 2);
    ctx.crawford = true;
    for plies in [0, 1] {
        let a = e.analyse_roll_in_context(&p, dice("31"), &ctx, plies).unwrap();
        assert!(a.moves.len() > 3);
        for m in &a.moves {
            let want = dead_cube_mwc(e.met(), &m.probabilities, (1, 3), 1);
            let got = m.mwc.unwrap();
            assert!((got - want).abs() < 1e-5, "{plies}-ply {}: {got} vs {want}", p.format_move(&m.mv));
            let emg = e.met().mwc2eq(got, 1, (1, 3), true);
            assert!((m.equity - emg).abs() < 1e-9);
        }
    }
}

#[test]
fn cubeful_ranking_is_sorted_and_values_the_played_move_at_full_depth() {
    let e = engine();
    let p = middle_game();
    let ctx = GameContext::money();
    let a = e.analyse_roll_in_context(&p, dice("31"), &ctx, 1).unwrap();
    assert_eq!(a.moves.len(), p.legal_moves(dice("31")).len());
    assert_eq!(a.moves[0].loss, 0.0);
    let deep: Vec<_> = a.moves.iter().filter(|m| m.plies == 1).collect();
    assert!(!deep.is_empty() && deep.len() <= 8);
    assert!(deep.windows(2).all(|w| w[0].equity >= w[1].equity));
    assert!(a.moves.iter().all(|m| m.loss >= 0.0 && m.mwc.is_none()));
    // The worst move is dropped by the filter, unless it is asked for.
    let worst = a.moves.last().unwrap();
    assert_eq!(worst.plies, 0);
    let b =
        e.analyse_roll_with(&p, dice("31"), &ctx, 1, &crate::search::MoveFilter::NORMAL, Some(&worst.result)).unwrap();
    assert_eq!(b.find(&worst.result).unwrap().plies, 1);
    assert_eq!(b.moves[0], a.moves[0]);
}

#[test]
fn owning_the_cube_is_worth_something_to_the_mover() {
    // The same moves are worth more to a mover who owns the cube than to
    // one whose opponent owns it (cube access), in money play.
    let e = engine();
    let p = middle_game();
    let mut mine = GameContext::money();
    mine.cube_value = 2;
    mine.cube_owner = CubeOwner::OnRoll;
    let theirs = GameContext { cube_owner: CubeOwner::Opponent, ..mine };
    let a = e.analyse_roll_in_context(&p, dice("31"), &mine, 0).unwrap();
    let b = e.analyse_roll_in_context(&p, dice("31"), &theirs, 0).unwrap();
    for m in &a.moves {
        assert!(m.equity > b.find(&m.result).unwrap().equity);
    }
}

#[test]
fn cubeful_analysis_refuses_a_finished_game_and_a_bad_context() {
    let e = engine();
    assert_eq!(
        e.analyse_roll_in_context(&pos(FINISHED), dice("31"), &GameContext::money(), 0),
        Err(EngineError::GameOver)
    );
    let mut ctx = GameContext::new_match(99);
    ctx.score = (0, 0);
    assert!(matches!(e.analyse_roll_in_context(&middle_game(), dice("31"), &ctx, 0), Err(EngineError::Cube(_))));
}

// ------------------------------------------------------------ use cases

/// What `gammon analyse` built by hand before the use cases: an engine whose
/// whole search screens the lookahead.
fn screened_by_hand(prune: usize) -> Engine<NetEvaluator> {
    let filter = MoveFilter { prune, ..MoveFilter::NORMAL };
    Engine::with_search(Search::new(NetEvaluator::shipped().unwrap()).with_filter(filter))
}

fn request(position: Position, dice_text: Option<&str>) -> Request {
    Request { dice: dice_text.map(dice), ..Request::money(position) }
}

#[test]
fn every_use_case_refuses_a_search_deeper_than_the_limit() {
    let e = engine();
    let deep = MAX_PLY + 1;
    let too_deep = EngineError::TooDeep { ply: deep, max: MAX_PLY };
    let r = request(middle_game(), None);
    assert_eq!(e.eval(&r, &EvalOptions { ply: deep }).unwrap_err(), too_deep);
    assert_eq!(e.cube(&r, &CubeOptions { ply: deep }).unwrap_err(), too_deep);
    let with_dice = request(middle_game(), Some("31"));
    let options = AnalyseOptions { ply: deep, ..AnalyseOptions::default() };
    assert_eq!(e.analyse(&with_dice, &options).unwrap_err(), too_deep);
    assert!(e.eval(&r, &EvalOptions { ply: 1 }).is_ok());
}

#[test]
fn move_analysis_screens_the_lookahead_and_keeps_its_cache() {
    let e = engine();
    let r = request(middle_game(), Some("43"));
    let options = AnalyseOptions { ply: 1, ..AnalyseOptions::default() };
    let Analysis::Cubeful { analysis: first, notes } = e.analyse(&r, &options).unwrap() else { panic!("cubeful") };
    assert!(notes.is_empty());
    let by_hand = screened_by_hand(MoveFilter::ANALYSIS_PRUNE)
        .analyse_roll_in_context(&r.position, dice("43"), &r.context, 1)
        .unwrap();
    assert_eq!(first.moves, by_hand.moves);
    assert!(first.stats.evaluations > 0);
    // The second analysis reads the first's values from the screened cache,
    // also through a stoppable copy of the engine.
    let stoppable = e.stoppable(Arc::new(AtomicBool::new(false)));
    let Analysis::Cubeful { analysis: again, .. } = stoppable.analyse(&r, &options).unwrap() else { panic!() };
    assert_eq!(again.moves, first.moves);
    assert!(again.stats.cache_hits > 0 && again.stats.evaluations < first.stats.evaluations, "{:?}", again.stats);

    // Another screen is searched as it was by hand, and so is none.
    for prune in [0, 3] {
        let options = AnalyseOptions { ply: 1, prune, cubeless: true };
        let Analysis::Cubeless(got) = e.analyse(&r, &options).unwrap() else { panic!("cubeless") };
        let want = screened_by_hand(prune).analyse_roll(&r.position, dice("43"), 1).unwrap();
        assert_eq!(got.moves, want.moves, "prune {prune}");
    }
}

#[test]
fn analysis_before_the_roll_is_the_evaluation_and_the_cube_decision() {
    let e = engine();
    let Ok(Analysis::Position { evaluation, cube }) =
        e.analyse(&request(middle_game(), None), &AnalyseOptions::default())
    else {
        panic!("position")
    };
    assert_eq!(evaluation, e.evaluate(&middle_game(), 2));
    assert_eq!(cube.unwrap(), e.decide_cube(&middle_game(), &GameContext::money(), 2).unwrap());
    let over = e.analyse(&request(pos(FINISHED), None), &AnalyseOptions { ply: 0, ..AnalyseOptions::default() });
    let Ok(Analysis::Position { cube: Err(why), .. }) = over else { panic!("{over:?}") };
    assert_eq!(why, "the game is over: there is no cube decision");
    assert_eq!(e.analyse(&request(pos(FINISHED), Some("21")), &AnalyseOptions::default()), Err(EngineError::GameOver));
}

#[test]
fn the_cube_use_case_refuses_a_player_who_cannot_double() {
    let e = engine();
    let owned = GameContext { cube_value: 2, cube_owner: CubeOwner::Opponent, ..GameContext::money() };
    let r = Request { context: owned, ..request(middle_game(), None) };
    let playing_on = e.decide_cube(&middle_game(), &owned, 0).unwrap().analysis.no_double;
    assert_eq!(
        e.cube(&r, &CubeOptions { ply: 0 }),
        Err(EngineError::OpponentOwnsCube { cube_value: 2, playing_on, mwc: None })
    );
    let mine = Request { context: GameContext { cube_owner: CubeOwner::OnRoll, ..owned }, ..r };
    assert_eq!(e.cube(&mine, &CubeOptions { ply: 0 }).unwrap().context.cube_owner, CubeOwner::OnRoll);
    assert_eq!(e.cube(&request(pos(FINISHED), None), &CubeOptions::default()), Err(EngineError::GameOver));
}

#[test]
fn a_rollout_is_checked_before_it_starts() {
    let fine = RolloutSettings::default();
    assert_eq!(check_rollout(&request(pos(FINISHED), Some("21")), &fine), Err(EngineError::GameOver));
    assert_eq!(check_rollout(&request(pos(FINISHED), None), &fine), Ok(()));
    for (bad, setting) in [
        (RolloutSettings { trials: 0, ..fine }, "games"),
        (RolloutSettings { ply: 3, ..fine }, "ply"),
        (RolloutSettings { target_se: Some(f64::NAN), ..fine }, "target_se"),
        (RolloutSettings { candidates: Some(0), ..fine }, "moves"),
    ] {
        let Err(EngineError::Rollout(e)) = check_rollout(&request(Position::STARTING, None), &bad) else {
            panic!("{bad:?} passed")
        };
        assert_eq!(e.setting(), Some(setting));
    }
}

#[test]
fn rollout_choices_that_contradict_each_other_are_refused() {
    let (before, rolled) = (request(Position::STARTING, None), request(Position::STARTING, Some("31")));
    let plain = RolloutOptions::default();
    assert_eq!(plain.check_choices(&rolled), Ok(()));
    let both = RolloutOptions { cubeful: true, cubeless: true, ..plain };
    assert_eq!(both.check_choices(&before), Err(RolloutChoiceError::CubefulAndCubeless));
    let cube_decision = RolloutOptions { cube_decision: true, ..plain };
    assert_eq!(cube_decision.check_choices(&before), Ok(()));
    assert_eq!(cube_decision.check_choices(&rolled), Err(RolloutChoiceError::CubeDecisionWith));
    let cubeless = RolloutOptions { cubeless: true, ..cube_decision };
    assert_eq!(cubeless.check_choices(&before), Err(RolloutChoiceError::CubeDecisionWith));
    assert_eq!(RolloutOptions { cube_decision: false, ..cubeless }.check_choices(&rolled), Ok(()));
}
