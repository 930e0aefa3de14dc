//! The play step over the rules' game state: a match played out and
//! replayed, every cube answer, resignations both ways, Murphy's rule, and
//! the refusals.
#![allow(clippy::unwrap_used)]

use super::*;
use gammon_eval::NetEvaluator;
use gammon_rules::{Cube, DiceState, SideBoard};

fn engine() -> Engine<NetEvaluator> {
    Engine::new(NetEvaluator::shipped().unwrap())
}

fn d(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

/// The text of a game of `rules` from `position` (seen by `on_roll`).
fn state(rules: MatchRules, position: Position, on_roll: Seat, opening: Option<Dice>) -> String {
    Game::new(MatchState::new(rules), position, on_roll, Cube::START, opening).to_string()
}

/// A position from the boards of the side on roll and of his opponent,
/// each `(point, checkers)` (the rest borne off).
fn board(mine: &[(usize, u8)], theirs: &[(usize, u8)]) -> Position {
    let side = |points: &[(usize, u8)]| {
        let mut b: SideBoard = [0; 25];
        for &(point, n) in points {
            b[point - 1] = n;
        }
        b
    };
    Position::from_boards(&side(mine), &side(theirs)).unwrap()
}

/// The human's move: the engine's own 0-ply choice, in notation.
fn human_move(engine: &Engine<NetEvaluator>, out: &PlayOutcome) -> PlayAction {
    let DiceState::Rolled(dice) = out.game.context().dice else { panic!("no dice: {out:?}") };
    let chosen = engine.choose_move(out.position(), dice, 0).unwrap();
    PlayAction::Move(out.position().format_move(&chosen.mv))
}

/// A match of `rules` from seed `seed` with a human who rolls, never
/// doubles, takes every double and plays the engine's move, until the match
/// ends or `steps` steps; every outcome.
fn play_out(rules: MatchRules, seed: u64, steps: u64) -> Vec<PlayOutcome> {
    let engine = engine();
    let mut out = new_match(&engine, rules, 0, (seed, 0)).unwrap();
    let mut outcomes = vec![out.clone()];
    for step in 1..steps {
        let action = match out.turn {
            HumanTurn::MatchOver => break,
            HumanTurn::Move => human_move(&engine, &out),
            HumanTurn::Roll | HumanTurn::RollOrDouble => PlayAction::Roll,
            HumanTurn::AnswerResignation => PlayAction::AcceptResignation,
            _ => PlayAction::Take,
        };
        out = play_step(&engine, &out.game.to_string(), &action, 0, (seed, step)).unwrap();
        outcomes.push(out.clone());
    }
    outcomes
}

#[test]
fn a_three_point_match_is_played_to_its_end_and_replays_for_the_same_seed() {
    let outcomes = play_out(MatchRules::new_match(3), 11, 2_000);
    let last = outcomes.last().unwrap();
    assert_eq!(last.turn, HumanTurn::MatchOver, "the match ends");
    assert!(last.actions.is_empty() && last.resign.is_empty(), "{last:?}");
    assert!(last.score[0] >= 3 || last.score[1] >= 3, "{:?}", last.score);
    let all: Vec<&PlayEvent> = outcomes.iter().flat_map(|o| &o.events).collect();
    let points: u32 = all.iter().map(|e| if let PlayEvent::GameOver { points, .. } = e { *points } else { 0 }).sum();
    assert_eq!(points, last.score[0] + last.score[1], "every point comes from a game");
    assert_eq!(all.iter().filter(|e| matches!(e, PlayEvent::MatchOver { .. })).count(), 1);
    // Each state handed out reads back as itself, and the human is asked.
    for o in &outcomes {
        assert_eq!(o.game.to_string().parse::<Game>().unwrap(), o.game);
        assert!(!o.actions.is_empty() || o.turn == HumanTurn::MatchOver, "{o:?}");
    }
    // The same seed, the same match.
    assert_eq!(outcomes, play_out(MatchRules::new_match(3), 11, 2_000));
}

#[test]
fn a_refused_action_names_the_rule_and_the_state_plays_on_unchanged() {
    let engine = engine();
    let start = state(MatchRules::money(), Position::STARTING, HUMAN, None);
    let first = play_step(&engine, &start, &PlayAction::Roll, 0, (1, 0)).unwrap();
    for (action, rule) in [
        (PlayAction::Take, "a take is not allowed now: the side on roll rolls or doubles"),
        (PlayAction::Beaver, "a beaver is not allowed now: the side on roll rolls or doubles"),
        (
            PlayAction::AcceptResignation,
            "an answer to a resignation is not allowed now: the side on roll rolls or doubles",
        ),
        (PlayAction::Move("8/5 6/5".into()), "a move is not allowed now: the side on roll rolls or doubles"),
    ] {
        let err = play_step(&engine, &start, &action, 0, (1, 0)).unwrap_err();
        assert!(matches!(err, PlayError::Rule(_)), "{action:?}: {err:?}");
        assert_eq!(err.to_string(), rule);
    }
    // The state refused is the state still: the same roll plays the same step.
    assert_eq!(play_step(&engine, &start, &PlayAction::Roll, 0, (1, 0)).unwrap(), first);
    // An illegal move of rolled dice: the notation's reason.
    let rolled = state(MatchRules::money(), Position::STARTING, HUMAN, Some(d(3, 1)));
    let err = play_step(&engine, &rolled, &PlayAction::Move("8/3".into()), 0, (1, 0)).unwrap_err();
    assert!(matches!(err, PlayError::Move(_)), "{err}");
    // The Crawford game: nobody doubles, and the rule says so.
    let crawford = MatchState::at_score(MatchRules::new_match(5), [4, 2], false).unwrap();
    let text = Game::new(crawford, Position::STARTING, HUMAN, Cube::START, None).to_string();
    let err = play_step(&engine, &text, &PlayAction::Double, 0, (1, 0)).unwrap_err();
    assert_eq!(err.to_string(), "no double now: nobody doubles in the Crawford game");
    // A state that does not read, and one where the engine acts.
    assert!(matches!(play_step(&engine, "2:x", &PlayAction::Roll, 0, (1, 0)), Err(PlayError::State(_))));
    let engine_on_roll = state(MatchRules::money(), Position::STARTING, ENGINE, None);
    let err = play_step(&engine, &engine_on_roll, &PlayAction::Roll, 0, (1, 0)).unwrap_err();
    assert!(matches!(err, PlayError::BadState(_)), "{err}");
}

#[test]
fn a_human_double_beavered_by_the_engine_is_raccooned_and_accepted() {
    let engine = engine();
    let rules = MatchRules { beaver: true, ..MatchRules::money() };
    let start = play_step(&engine, &state(rules, Position::STARTING, HUMAN, None), &PlayAction::Double, 0, (2, 0));
    let start = start.unwrap();
    // The doubler of the opening position is no favourite: the engine beavers.
    assert_eq!(
        start.events,
        [PlayEvent::Doubled { by: Side::Human, cube: 2 }, PlayEvent::Beavered { by: Side::Engine, cube: 4 }]
    );
    assert_eq!(start.turn, HumanTurn::AnswerBeaver);
    assert_eq!(start.actions, [ActionName::Take, ActionName::Pass, ActionName::Raccoon]);
    let out = play_step(&engine, &start.game.to_string(), &PlayAction::Raccoon, 0, (2, 1)).unwrap();
    assert_eq!(
        out.events[..2],
        [PlayEvent::Raccooned { by: Side::Human, cube: 8 }, PlayEvent::Took { by: Side::Engine }]
    );
    // The raccoon accepted: 8, owned by the beaverer; the human rolls, no double.
    assert_eq!(*out.game.cube(), Cube { value: 8, owner: Some(ENGINE), automatic: 0 });
    assert_eq!(out.turn, HumanTurn::Roll);
    // In a match there is no beaver, and the engine only takes.
    let m = state(MatchRules::new_match(7), Position::STARTING, HUMAN, None);
    let out = play_step(&engine, &m, &PlayAction::Double, 0, (2, 0)).unwrap();
    assert_eq!(out.events[1], PlayEvent::Took { by: Side::Engine });
}

#[test]
fn the_engines_double_beavered_by_the_human_is_raccooned_and_the_pass_costs_four_cubes() {
    // The engine, on roll, bears off its last 2 checkers next roll against
    // 15 at home: it doubles; beavering that is a blunder it raccoons.
    let engine = engine();
    let rules = MatchRules { beaver: true, ..MatchRules::money() };
    let race = board(&[(1, 2)], &[(6, 15)]);
    let doubled = {
        let mut g = Game::new(MatchState::new(rules), race, ENGINE, Cube::START, None);
        g.apply(Action::Double).unwrap();
        g.to_string()
    };
    let out = play_step(&engine, &doubled, &PlayAction::Beaver, 0, (3, 0)).unwrap();
    assert_eq!(
        out.events,
        [PlayEvent::Beavered { by: Side::Human, cube: 4 }, PlayEvent::Raccooned { by: Side::Engine, cube: 8 }]
    );
    assert_eq!((out.turn, out.on_roll()), (HumanTurn::AnswerRaccoon, Side::Engine));
    assert_eq!(out.actions, [ActionName::Take, ActionName::Pass]);
    let out = play_step(&engine, &out.game.to_string(), &PlayAction::Pass, 0, (3, 1)).unwrap();
    assert_eq!(
        out.events[..2],
        [PlayEvent::Passed { by: Side::Human }, PlayEvent::GameOver { winner: Side::Engine, points: 4 }]
    );
    assert!(matches!(out.events[2], PlayEvent::OpeningRoll { .. }), "{:?}", out.events);
    assert_eq!(out.game.cube().value, 1, "the next game starts centred");
}

#[test]
fn a_resignation_below_the_engines_value_is_rejected_and_a_higher_one_accepted() {
    // The engine bears off next roll; the human has 15 checkers on his
    // midpoint, out of its home board: a gammon, and no backgammon.
    let engine = engine();
    let lost = board(&[(13, 15)], &[(1, 2)]);
    let text = state(MatchRules::money(), lost, HUMAN, None);
    let out = play_step(&engine, &text, &PlayAction::Resign(GameResult::Single), 0, (4, 0)).unwrap();
    assert_eq!(
        out.events,
        [
            PlayEvent::Resigned { by: Side::Human, result: ResultName::Single },
            PlayEvent::ResignationRejected { by: Side::Engine }
        ]
    );
    // Back to his roll; only a higher offer counts now.
    assert_eq!(out.turn, HumanTurn::RollOrDouble);
    assert_eq!(out.resign, [ResultName::Gammon, ResultName::Backgammon]);
    let err = play_step(&engine, &out.game.to_string(), &PlayAction::Resign(GameResult::Single), 0, (4, 1));
    assert_eq!(err.unwrap_err().to_string(), "an offer to resign was declined this turn: only a higher one may follow");
    let out = play_step(&engine, &out.game.to_string(), &PlayAction::Resign(GameResult::Gammon), 0, (4, 1)).unwrap();
    assert_eq!(
        out.events[..3],
        [
            PlayEvent::Resigned { by: Side::Human, result: ResultName::Gammon },
            PlayEvent::ResignationAccepted { by: Side::Engine },
            PlayEvent::GameOver { winner: Side::Engine, points: 2 }
        ]
    );
    // A gammon offered at the start is worth far more to the engine than
    // playing on: accepted.
    let start = state(MatchRules::money(), Position::STARTING, HUMAN, None);
    let out = play_step(&engine, &start, &PlayAction::Resign(GameResult::Gammon), 0, (4, 0)).unwrap();
    assert_eq!(out.events[1], PlayEvent::ResignationAccepted { by: Side::Engine });
}

#[test]
fn the_engine_resigns_a_single_game_it_cannot_win_and_plays_on_when_rejected() {
    // The human bears off two of his 3 ace-point checkers with 2-1; the
    // engine, 5 checkers on its 6 point, cannot bear off before his next roll.
    let engine = engine();
    let text = state(MatchRules::money(), board(&[(1, 3)], &[(6, 5)]), HUMAN, Some(d(2, 1)));
    let out = play_step(&engine, &text, &PlayAction::Move("1/off 1/off".into()), 0, (5, 0)).unwrap();
    assert_eq!(out.events[1], PlayEvent::Resigned { by: Side::Engine, result: ResultName::Single }, "{out:?}");
    assert_eq!((out.turn, out.on_roll()), (HumanTurn::AnswerResignation, Side::Engine));
    assert_eq!(out.actions, [ActionName::AcceptResignation, ActionName::RejectResignation]);
    let accepted = play_step(&engine, &out.game.to_string(), &PlayAction::AcceptResignation, 0, (5, 1)).unwrap();
    assert_eq!(
        accepted.events[..2],
        [PlayEvent::ResignationAccepted { by: Side::Human }, PlayEvent::GameOver { winner: Side::Human, points: 1 }]
    );
    // Rejected: the engine rolls and moves, and the human rolls again.
    let rejected = play_step(&engine, &out.game.to_string(), &PlayAction::RejectResignation, 0, (5, 1)).unwrap();
    assert_eq!(rejected.events[0], PlayEvent::ResignationRejected { by: Side::Human });
    assert!(matches!(rejected.events[1], PlayEvent::Rolled { by: Side::Engine, .. }), "{:?}", rejected.events);
    assert!(matches!(rejected.turn, HumanTurn::RollOrDouble | HumanTurn::Roll), "{rejected:?}");
    // With a chance to win (two checkers left, 66 wins), it plays on.
    let text = state(MatchRules::money(), board(&[(1, 3)], &[(6, 2)]), HUMAN, Some(d(2, 1)));
    let out = play_step(&engine, &text, &PlayAction::Move("1/off 1/off".into()), 0, (5, 0)).unwrap();
    assert!(!out.events.iter().any(|e| matches!(e, PlayEvent::Resigned { .. })), "{:?}", out.events);
}

#[test]
fn murphys_rule_turns_the_cube_on_equal_opening_dice_when_asked_for() {
    let engine = engine();
    let murphy = MatchRules { murphy: 1, ..MatchRules::money() };
    // A seed whose opening roll starts with equal dice (one in six).
    let (seed, out) = (0..100)
        .map(|seed| (seed, new_match(&engine, murphy, 0, (seed, 0)).unwrap()))
        .find(|(_, o)| matches!(o.events[0], PlayEvent::AutomaticDouble { .. }))
        .unwrap();
    let PlayEvent::AutomaticDouble { cube, .. } = out.events[0] else { unreachable!() };
    assert_eq!(cube, 2);
    // One automatic double allowed: the cube stays centred at 2.
    assert_eq!((out.game.cube().value, out.game.cube().owner), (2, None));
    // Without the rule the same dice only roll again.
    let plain = new_match(&engine, MatchRules::money(), 0, (seed, 0)).unwrap();
    assert!(matches!(plain.events[0], PlayEvent::OpeningRoll { .. }), "{:?}", plain.events);
    assert_eq!(plain.game.cube().value, 1);
    // In a match the rule is dropped.
    let m = new_match(&engine, MatchRules { murphy: 1, ..MatchRules::new_match(5) }, 0, (seed, 0)).unwrap();
    assert_eq!(m.game.cube().value, 1);
}

#[test]
fn rolled_dice_with_no_legal_move_pass_by_themselves() {
    // The human is on the bar against a closed board.
    let closed = Position::from_position_id("27YBAAA8Dz4ADA").unwrap();
    let engine = engine();
    let mut seen_dance = false;
    for step in 0..20 {
        let text = state(MatchRules::money(), closed, HUMAN, None);
        let out = play_step(&engine, &text, &PlayAction::Roll, 0, (3, step)).unwrap();
        if let Some(PlayEvent::Moved { by: Side::Human, notation, position_id }) = out.events.get(1) {
            assert_eq!((notation.as_str(), position_id.as_str()), ("", closed.switched().to_position_id().as_str()));
            assert!(matches!(
                out.events.get(2),
                Some(PlayEvent::Rolled { by: Side::Engine, .. } | PlayEvent::Doubled { by: Side::Engine, .. })
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
    assert!(new_match(&engine, MatchRules::new_match(25), 0, (1, 0)).is_ok());
    let err = new_match(&engine, MatchRules::new_match(26), 0, (1, 0)).unwrap_err();
    assert_eq!(err, PlayError::MatchTooLong { length: 26, max: 25 });
    assert!(err.to_string().contains("26-point match is longer than the match equity table"), "{err}");
    assert!(new_match(&engine, MatchRules::money(), 0, (1, 0)).is_ok());
}
