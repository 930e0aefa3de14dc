use super::*;
use crate::dice_source::{DiceSource, RandomDice};
use crate::match_play::MatchRules;
use proptest::prelude::*;

fn d(a: u8, b: u8) -> Dice {
    Dice::new(a, b).unwrap()
}

fn money(rules: MatchRules) -> Game {
    Game::new(MatchState::new(rules), Position::STARTING, Seat::Zero, Cube::START, None)
}

#[test]
fn a_double_taken_then_the_doubler_rolls_without_a_second_offer() {
    let mut g = money(MatchRules::money());
    assert_eq!(g.next(), Need::RollOrDouble { seat: Seat::Zero, may_double: true });
    g.apply(Action::Double).unwrap();
    assert_eq!(g.next(), Need::AnswerDouble { seat: Seat::One, may_beaver: false });
    assert_eq!(g.apply(Action::Beaver), Err(RuleError::Beaver));
    assert!(RuleError::Beaver.to_string().contains("money play with beavers on"));
    g.apply(Action::Take).unwrap();
    assert_eq!(*g.cube(), Cube { value: 2, owner: Some(Seat::One), automatic: 0 });
    assert_eq!(g.next(), Need::RollOrDouble { seat: Seat::Zero, may_double: false });
    assert!(matches!(g.apply(Action::Double), Err(RuleError::Double(_))));
    g.apply(Action::Roll(d(3, 1))).unwrap();
    assert_eq!(g.next(), Need::Move { seat: Seat::Zero, dice: d(3, 1) });
    // A move that is not the roll's is refused; the 8/5 6/5 point is not.
    assert_eq!(g.apply(Action::Move(Position::STARTING)), Err(RuleError::IllegalMove));
    let after = Position::STARTING.legal_moves(d(3, 1)).positions()[0];
    g.apply(Action::Move(after)).unwrap();
    assert_eq!((g.on_roll(), g.turns()), (Seat::One, 1));
    // Seat One owns the cube now and may double.
    assert_eq!(g.next(), Need::RollOrDouble { seat: Seat::One, may_double: true });
}

#[test]
fn the_crawford_game_refuses_a_double_naming_the_rule() {
    let state = MatchState::at_score(MatchRules::new_match(5), [4, 0], false).unwrap();
    let mut g = Game::new(state, Position::STARTING, Seat::One, Cube::START, None);
    assert_eq!(g.next(), Need::RollOrDouble { seat: Seat::One, may_double: false });
    let err = g.apply(Action::Double).unwrap_err();
    assert_eq!(err, RuleError::Double(DoubleRefusal::Crawford));
    assert_eq!(err.to_string(), "no double now: nobody doubles in the Crawford game");
    // Answering a double nobody offered: not this side's turn to answer.
    let err = g.apply(Action::Take).unwrap_err();
    assert_eq!(err.to_string(), "a take is not allowed now: the side on roll rolls or doubles");
}

#[test]
fn beaver_and_raccoon_pass_at_their_stakes() {
    let rules = MatchRules { beaver: true, ..MatchRules::money() };
    let mut g = money(rules);
    g.apply(Action::Double).unwrap();
    g.apply(Action::Beaver).unwrap();
    assert_eq!(g.next(), Need::AnswerBeaver { seat: Seat::Zero, may_raccoon: true });
    g.apply(Action::Raccoon).unwrap();
    assert_eq!(g.next(), Need::AnswerRaccoon { seat: Seat::One });
    let mut passed = g;
    passed.apply(Action::Pass).unwrap();
    // The beaverer gives up four times the cube before the double.
    assert_eq!(passed.end(), Some(GameEnd::Passed { winner: Seat::Zero, points: 4 }));
    g.apply(Action::Take).unwrap();
    assert_eq!(*g.cube(), Cube { value: 8, owner: Some(Seat::One), automatic: 0 });
    // In a match a beaver is refused.
    let mut m = Game::new(MatchState::new(MatchRules::new_match(7)), Position::STARTING, Seat::Zero, Cube::START, None);
    m.apply(Action::Double).unwrap();
    assert_eq!(m.apply(Action::Beaver), Err(RuleError::Beaver));
}

#[test]
fn a_declined_resignation_allows_only_a_higher_one_and_an_accepted_one_scores() {
    let mut g = Game::new(MatchState::new(MatchRules::new_match(3)), Position::STARTING, Seat::Zero, Cube::START, None);
    g.apply(Action::Resign(GameResult::Single)).unwrap();
    assert_eq!(g.next(), Need::AnswerResignation { seat: Seat::One, offered: GameResult::Single });
    g.apply(Action::RejectResignation).unwrap();
    assert_eq!(g.apply(Action::Resign(GameResult::Single)), Err(RuleError::ResignationNotHigher));
    g.apply(Action::Resign(GameResult::Gammon)).unwrap();
    g.apply(Action::AcceptResignation).unwrap();
    assert_eq!(g.end(), Some(GameEnd::Resigned { winner: Seat::One, result: GameResult::Gammon, points: 2 }));
    assert_eq!(g.match_state().score(), [0, 2]);
    // 2-away in a 3-point match: One is 1-away, the next game is the Crawford game.
    assert!(matches!(g.next(), Need::GameOver(_)));
    assert_eq!(g.apply(Action::Roll(d(3, 1))).unwrap_err().to_string(), "a roll is not allowed now: the game is over");
    assert_eq!(
        g.apply(Action::NewGame { first: Seat::One, dice: d(4, 4), cube: Cube::START }),
        Err(RuleError::BadStart)
    );
    g.apply(Action::NewGame { first: Seat::One, dice: d(4, 2), cube: Cube::START }).unwrap();
    assert!(g.match_state().is_crawford());
    assert_eq!(g.next(), Need::Move { seat: Seat::One, dice: d(4, 2) });
}

#[test]
fn text_form_round_trips_and_refuses_what_the_rules_forbid() {
    let mut g = money(MatchRules { beaver: true, jacoby: true, ..MatchRules::money() });
    g.apply(Action::Double).unwrap();
    let text = g.to_string();
    assert_eq!(text, "1:4HPwATDgc/ABMA:0:1:-:0:d:0:0:0:111:0:1024:0:0:00");
    assert_eq!(text.parse::<Game>().unwrap(), g);
    assert_eq!("2:x".parse::<Game>(), Err(StateError::Version));
    assert_eq!("1:4HPwATDgc/ABMA".parse::<Game>(), Err(StateError::Fields(2)));
    // A cube of 3, a beaver pending in a match, a Crawford flag at 0-0.
    for bad in [
        "1:4HPwATDgc/ABMA:0:3:-:0:r:0:0:0:111:0:1024:0:0:00",
        "1:4HPwATDgc/ABMA:0:1:-:0:b:0:0:5:100:0:1024:0:0:00",
        "1:4HPwATDgc/ABMA:0:1:-:0:r:0:0:5:100:0:1024:0:0:11",
        "1:4HPwATDgc/ABMA:0:2:-:0:r:0:0:0:011:0:1024:0:0:00",
    ] {
        assert!(bad.parse::<Game>().is_err(), "{bad}");
    }
}

/// A random action among those `next` allows (and some it does not).
fn random_action(g: &Game, dice: &mut RandomDice, pick: &mut impl FnMut(usize) -> usize) -> Action {
    let results = [GameResult::Single, GameResult::Gammon, GameResult::Backgammon];
    match g.next() {
        Need::RollOrDouble { .. } => {
            [Action::Roll(dice.roll()), Action::Double, Action::Resign(results[pick(3)]), Action::Take][pick(4)]
        }
        Need::AnswerDouble { .. } | Need::AnswerBeaver { .. } | Need::AnswerRaccoon { .. } => {
            [Action::Take, Action::Take, Action::Take, Action::Pass, Action::Beaver, Action::Raccoon][pick(6)]
        }
        Need::Move { dice: roll, .. } => {
            let list = g.position().legal_moves(roll);
            match list.len() {
                0 => Action::Move(g.position().switched()),
                _ if pick(20) == 0 => Action::Resign(results[pick(3)]),
                n => Action::Move(list.positions()[pick(n)]),
            }
        }
        Need::AnswerResignation { .. } => {
            [Action::RejectResignation, Action::RejectResignation, Action::AcceptResignation][pick(3)]
        }
        Need::GameOver(_) | Need::MatchOver { .. } => {
            let first = if pick(2) == 0 { Seat::Zero } else { Seat::One };
            Action::NewGame { first, dice: dice.opening(), cube: Cube::START }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    /// Random actions, legal or not, keep every invariant: 15 checkers a
    /// side, a cube that is a power of two within the largest, the text
    /// form reading back the same state, and a refused action changing
    /// nothing.
    #[test]
    fn random_actions_keep_the_invariants(seed in any::<u64>(), length in 0u32..6, beaver: bool, steps in 50usize..400) {
        let rules = MatchRules { beaver, ..MatchRules::new_match(length) };
        let mut g = Game::new(MatchState::new(rules), Position::STARTING, Seat::Zero, Cube::START, None);
        let mut dice = RandomDice::new(seed, 1);
        let mut rng = RandomDice::new(seed, 2);
        let mut pick = |n: usize| (rng.roll().high() as usize * 7 + rng.roll().low() as usize) % n;
        for _ in 0..steps {
            let action = random_action(&g, &mut dice, &mut pick);
            let before = g;
            if g.apply(action).is_err() {
                prop_assert_eq!(g, before);
            }
            // At most 15 checkers a side on the board, no point held by both.
            let (mine, theirs) = g.position().checkers_in_play();
            prop_assert!(mine <= 15 && theirs <= 15 && g.position().is_consistent());
            prop_assert!(g.cube().value.is_power_of_two() && g.cube().value <= rules.max_cube);
            prop_assert_eq!(g.to_string().parse::<Game>(), Ok(g), "{}", g);
            if matches!(g.next(), Need::MatchOver { .. }) {
                break;
            }
        }
    }
}
