//! The play step: a match played out and replayed, every kind of state
//! and refusal.
#![allow(clippy::unwrap_used)]

use super::*;
use gammon_eval::NetEvaluator;

fn engine() -> Engine<NetEvaluator> {
    Engine::new(NetEvaluator::shipped().unwrap())
}

/// The human's move: the engine's own 0-ply choice, in notation.
fn human_move(engine: &Engine<NetEvaluator>, out: &PlayOutcome) -> PlayAction {
    let DiceState::Rolled(d) = out.context.dice else { panic!("no dice: {out:?}") };
    let chosen = engine.choose_move(&out.position, d, 0).unwrap();
    PlayAction::Move(out.position.format_move(&chosen.mv))
}

/// Plays from `position`/`context` with a human who rolls, never
/// doubles, takes every double and plays the engine's move, until the
/// match ends or `steps` steps; returns every outcome.
fn play_out(position: Position, context: GameContext, seed: u64, steps: u64) -> Vec<PlayOutcome> {
    let engine = engine();
    let mut outcomes = Vec::new();
    let (mut pos, mut ctx) = (position, context);
    let mut probe = {
        let (state, spot) = read(&pos, &ctx).unwrap();
        outcome(&state, &spot, Vec::new())
    };
    for step in 0..steps {
        let action = match probe.turn {
            HumanTurn::MatchOver => break,
            HumanTurn::AnswerDouble => PlayAction::Take,
            HumanTurn::Move => human_move(&engine, &probe),
            HumanTurn::Roll | HumanTurn::RollOrDouble => PlayAction::Roll,
        };
        let out = play_step(&engine, &pos, &ctx, &action, 0, (seed, step)).unwrap();
        (pos, ctx) = (out.position, out.context);
        probe = out.clone();
        outcomes.push(out);
    }
    outcomes
}

fn events(outcomes: &[PlayOutcome]) -> Vec<&PlayEvent> {
    outcomes.iter().flat_map(|o| &o.events).collect()
}

#[test]
fn a_three_point_match_is_played_to_its_end_and_replays_for_the_same_seed() {
    let start = GameContext { dice: DiceState::Rolled("31".parse().unwrap()), ..GameContext::new_match(3) };
    let outcomes = play_out(Position::STARTING, start, 11, 2_000);
    let last = outcomes.last().unwrap();
    assert_eq!(last.turn, HumanTurn::MatchOver, "the match ends");
    assert!(last.score[0] >= 3 || last.score[1] >= 3, "{:?}", last.score);
    let all = events(&outcomes);
    let games = all.iter().filter(|e| matches!(e, PlayEvent::GameOver { .. })).count();
    let points: u32 = all.iter().map(|e| if let PlayEvent::GameOver { points, .. } = e { *points } else { 0 }).sum();
    assert_eq!(points, last.score[0] + last.score[1], "every point comes from a game");
    assert!(games >= 1);
    assert_eq!(all.iter().filter(|e| matches!(e, PlayEvent::MatchOver { .. })).count(), 1);
    // Each state the human gets is one the rules accept.
    for o in outcomes.iter().filter(|o| o.turn != HumanTurn::MatchOver) {
        assert!(o.context.validate().is_ok(), "{o:?}");
        assert!(o.position.is_consistent());
    }
    // The same seed, the same match.
    let again = play_out(Position::STARTING, start, 11, 2_000);
    assert_eq!(outcomes, again);
}

#[test]
fn a_double_in_a_hopeless_race_is_passed_and_the_next_game_starts() {
    // The human bears off with 2 checkers left against 15 at home.
    let mut mine = [0; 25];
    mine[0] = 2;
    let mut theirs = [0; 25];
    theirs[..4].copy_from_slice(&[5, 4, 3, 3]);
    let race = Position::from_boards(&mine, &theirs).unwrap();
    let engine = engine();
    let out = play_step(&engine, &race, &GameContext::money(), &PlayAction::Double, 0, (1, 0)).unwrap();
    assert_eq!(out.events[0], PlayEvent::Doubled { by: Side::Human, cube: 2 });
    assert_eq!(out.events[1], PlayEvent::Passed { by: Side::Engine });
    assert_eq!(out.events[2], PlayEvent::GameOver { winner: Side::Human, points: 1 });
    assert!(matches!(out.events[3], PlayEvent::OpeningRoll { .. }));
    assert_eq!(out.context.cube_value, 1);
    // Money play keeps no score.
    assert_eq!(out.score, [0, 0]);
    assert!(matches!(out.turn, HumanTurn::Move | HumanTurn::RollOrDouble), "{:?}", out.turn);
}

#[test]
fn actions_that_do_not_fit_the_state_are_refused() {
    let engine = engine();
    let to_roll = GameContext::money();
    let start = Position::STARTING;
    for action in [PlayAction::Take, PlayAction::Pass, PlayAction::Move("8/5 6/5".into())] {
        let err = play_step(&engine, &start, &to_roll, &action, 0, (1, 0)).unwrap_err();
        assert!(matches!(err, PlayError::NotNow(_)), "{action:?}: {err}");
    }
    let rolled = GameContext { dice: DiceState::Rolled("31".parse().unwrap()), ..to_roll };
    let err = play_step(&engine, &start, &rolled, &PlayAction::Move("8/3".into()), 0, (1, 0)).unwrap_err();
    assert!(matches!(err, PlayError::Move(_)), "{err}");
    assert!(matches!(play_step(&engine, &start, &rolled, &PlayAction::Roll, 0, (1, 0)), Err(PlayError::NotNow(_))));
    // The Crawford game: nobody doubles.
    let crawford = GameContext { score: (4, 2), crawford: true, ..GameContext::new_match(5) };
    let err = play_step(&engine, &start, &crawford, &PlayAction::Double, 0, (1, 0)).unwrap_err();
    assert!(err.to_string().contains("may not double"), "{err}");
}

#[test]
fn the_engines_pending_double_is_answered_in_the_loop() {
    // The engine (on roll in the XGID) has doubled a 2-cube it owns.
    let engine = engine();
    let doubled =
        GameContext { cube_value: 2, cube_owner: CubeOwner::OnRoll, dice: DiceState::Doubled, ..GameContext::money() };
    let pos = Position::STARTING;
    let took = play_step(&engine, &pos, &doubled, &PlayAction::Take, 0, (5, 1)).unwrap();
    assert_eq!(took.events[0], PlayEvent::Took { by: Side::Human });
    // The engine rolls at once: its double is not asked for again.
    assert!(matches!(took.events[1], PlayEvent::Rolled { by: Side::Engine, .. }), "{:?}", took.events);
    assert!(matches!(took.events[2], PlayEvent::Moved { by: Side::Engine, .. }), "{:?}", took.events);
    assert_eq!((took.context.cube_value, took.context.cube_owner), (4, CubeOwner::OnRoll));
    assert_eq!(took.turn, HumanTurn::RollOrDouble);
    // A pass loses the cube before the double.
    let passed = play_step(&engine, &pos, &doubled, &PlayAction::Pass, 0, (5, 1)).unwrap();
    assert_eq!(
        passed.events[..2],
        [PlayEvent::Passed { by: Side::Human }, PlayEvent::GameOver { winner: Side::Engine, points: 2 }]
    );
    assert!(matches!(passed.events[2], PlayEvent::OpeningRoll { .. }));
    assert_eq!(passed.context.cube_value, 1);
}

#[test]
fn a_pending_double_the_rules_do_not_allow_is_refused() {
    // The cube is at the largest value (1024 in the step's money play):
    // nobody may double it.
    let engine = engine();
    let max = GameContext { cube_value: 1024, cube_owner: CubeOwner::OnRoll, ..GameContext::money() };
    let doubled = GameContext { dice: DiceState::Doubled, ..max };
    let err = play_step(&engine, &Position::STARTING, &doubled, &PlayAction::Take, 0, (1, 0)).unwrap_err();
    assert!(matches!(err, PlayError::BadState(_)), "{err}");
    // Before the roll the human may not double either.
    let err = play_step(&engine, &Position::STARTING, &max, &PlayAction::Double, 0, (1, 0)).unwrap_err();
    assert!(matches!(err, PlayError::NotNow(_)), "{err}");
}

#[test]
fn a_taken_double_leaves_the_doubler_to_roll() {
    let engine = engine();
    let out = play_step(&engine, &Position::STARTING, &GameContext::money(), &PlayAction::Double, 0, (2, 0)).unwrap();
    assert_eq!(out.events, [PlayEvent::Doubled { by: Side::Human, cube: 2 }, PlayEvent::Took { by: Side::Engine }]);
    assert_eq!((out.position, out.context.dice, out.turn), (Position::STARTING, DiceState::ToRoll, HumanTurn::Roll));
    assert_eq!((out.context.cube_value, out.context.cube_owner), (2, CubeOwner::Opponent));
}

#[test]
fn rolled_dice_with_no_legal_move_are_played_as_the_empty_move() {
    // The human is on the bar against a closed board, with 66 rolled.
    let closed = Position::from_position_id("27YBAAA8Dz4ADA").unwrap();
    let rolled = GameContext { dice: DiceState::Rolled("66".parse().unwrap()), ..GameContext::money() };
    let engine = engine();
    let out = play_step(&engine, &closed, &rolled, &PlayAction::Move(String::new()), 0, (4, 0)).unwrap();
    let PlayEvent::Moved { by: Side::Human, notation, position_id } = &out.events[0] else {
        panic!("{:?}", out.events)
    };
    assert_eq!((notation.as_str(), position_id.as_str()), ("", closed.switched().to_position_id().as_str()));
    assert!(out.events.iter().any(|e| matches!(e, PlayEvent::Moved { by: Side::Engine, .. })), "{:?}", out.events);
    // A move written where none is legal is refused.
    let err = play_step(&engine, &closed, &rolled, &PlayAction::Move("bar/19".into()), 0, (4, 0)).unwrap_err();
    assert!(matches!(err, PlayError::Move(_)), "{err}");
}

#[test]
fn a_roll_with_no_legal_move_passes_to_the_engine() {
    // The human is on the bar against a closed board.
    let closed = Position::from_position_id("27YBAAA8Dz4ADA").unwrap();
    let engine = engine();
    let mut seen_dance = false;
    for step in 0..20 {
        let out = play_step(&engine, &closed, &GameContext::money(), &PlayAction::Roll, 0, (3, step)).unwrap();
        if let Some(PlayEvent::Moved { by: Side::Human, notation, .. }) = out.events.get(1) {
            assert!(notation.is_empty() || !notation.contains('/'), "{notation}");
            assert!(matches!(
                out.events.get(2),
                Some(PlayEvent::Rolled { by: Side::Engine, .. }) | Some(PlayEvent::Doubled { by: Side::Engine, .. })
            ));
            seen_dance = true;
        } else {
            assert_eq!(out.turn, HumanTurn::Move, "{out:?}");
        }
    }
    assert!(seen_dance, "20 rolls include a dance against a closed board");
}

#[test]
fn a_match_longer_than_the_match_equity_table_is_refused_at_the_start() {
    let engine = engine();
    // Kazaross-XG2 covers matches up to 25 points.
    let longest = GameContext::new_match(25);
    assert!(new_match(&engine, &longest, 0, (1, 0)).is_ok());
    let err = new_match(&engine, &GameContext::new_match(26), 0, (1, 0)).unwrap_err();
    assert_eq!(err, PlayError::MatchTooLong { length: 26, max: 25 });
    assert!(err.to_string().contains("26-point match is longer than the match equity table"), "{err}");
    // Money play has no length.
    assert!(new_match(&engine, &GameContext::money(), 0, (1, 0)).is_ok());
}
