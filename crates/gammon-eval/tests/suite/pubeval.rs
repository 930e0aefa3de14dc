//! Tesauro's pubeval: checked against the independent Python port
//! (`shared/arena/pubeval.py`) through the fixture `data/pubeval_scores.txt`
//! (made by `data/make_pubeval_scores.py`), plus hand-computed scores, the
//! game-ending move, and the [`Evaluator`] view of pubeval.
#![allow(clippy::unwrap_used)]

use gammon_eval::pubeval::{PubEval, CONTACT_WEIGHTS, INPUTS, RACE_WEIGHTS};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{Dice, MoveList, Position, SideBoard, ALL_ROLLS};

/// One fixture line: before, dice, the result pubeval.py plays (opponent on
/// roll, as in `MoveList::positions`) and its score.
struct Case {
    before: Position,
    dice: Dice,
    chosen: String,
    score: f64,
}

fn fixture() -> Vec<Case> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/pubeval_scores.txt");
    let text = gammon_testkit::read_text(path);
    let mut cases = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 4, "bad fixture line {line:?}");
        let d = f[1].as_bytes();
        assert_eq!(d.len(), 2, "bad dice in {line:?}");
        cases.push(Case {
            before: Position::from_position_id(f[0]).unwrap(),
            dice: Dice::new(d[0] - b'0', d[1] - b'0').unwrap(),
            chosen: f[2].to_string(),
            score: f[3].parse().unwrap(),
        });
    }
    cases
}

/// A position from both sides' boards (gnubg layout, each side's own
/// numbering, index 24 = bar).
fn board(on_roll: &[(usize, u8)], opponent: &[(usize, u8)]) -> Position {
    let mut me: SideBoard = [0; 25];
    let mut him: SideBoard = [0; 25];
    for &(p, n) in on_roll {
        me[p - 1] = n;
    }
    for &(p, n) in opponent {
        him[p - 1] = n;
    }
    Position::from_boards(&me, &him).unwrap()
}

#[test]
fn choices_and_scores_match_pubeval_py() {
    let cases = fixture();
    assert!(cases.len() >= 300, "only {} fixture cases", cases.len());
    let mut list = MoveList::new();
    let (mut races, mut infinite) = (0, 0);
    for c in &cases {
        list.generate(&c.before, c.dice);
        let results = list.positions();
        let i = PubEval::choose(&c.before, results);
        let what = format!("{} {}", c.before.to_position_id(), c.dice);
        assert_eq!(results[i].to_position_id(), c.chosen, "{what}");
        assert_eq!(PubEval.best_move(&c.before, results), i, "{what}");
        let race = !c.before.has_contact();
        let s = PubEval::score(&results[i].switched(), race);
        if c.score.is_infinite() {
            infinite += 1;
            assert_eq!(s, f32::INFINITY, "{what}");
        } else {
            assert!((f64::from(s) - c.score).abs() < 1e-4, "{what}: {s} vs {}", c.score);
            let s64 = PubEval::score_f64(&results[i].switched(), race);
            assert!((s64 - c.score).abs() <= 5.000_001e-7, "{what}: {s64} vs {}", c.score);
        }
        races += usize::from(race);
    }
    // The fixture covers both weight vectors and the game-ending move.
    assert!(races >= 30 && cases.len() - races >= 30, "{races} races");
    assert!(infinite >= 5, "{infinite} game-ending moves");
}

#[test]
fn score_is_the_weights_times_the_inputs() {
    let mut list = MoveList::new();
    for c in fixture().iter().take(60) {
        list.generate(&c.before, c.dice);
        for r in list.positions() {
            let after = r.switched();
            if after.checkers_in_play().0 == 0 {
                continue;
            }
            let x = PubEval::inputs(&after);
            assert_eq!(x.len(), INPUTS);
            for (race, w) in [(true, &RACE_WEIGHTS), (false, &CONTACT_WEIGHTS)] {
                let dot: f64 = x.iter().zip(w.iter()).map(|(a, b)| a * b).sum();
                assert!((dot - PubEval::score_f64(&after, race)).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn hand_computed_scores() {
    // Race: I have one checker on my 1-point (14 off), he has 3 on his
    // 6-point (my 19-point). Inputs: my 1-point is group j = 24, inputs
    // 115..120; n = 1 sets x[116] = 1. His point is not encoded (only his
    // blots are), nobody is on the bar, x[121] = 14/15.
    //   WR[116] + WR[121] * 14/15 = -2.77982 + 3.42040 * 14/15
    //                             = -2.77982 + 3.192373333 = 0.412553333
    let race = board(&[(1, 1)], &[(6, 3)]);
    assert!(!race.has_contact());
    let x = PubEval::inputs(&race);
    let set: Vec<usize> = (0..INPUTS).filter(|&i| x[i] != 0.0).collect();
    assert_eq!(set, [116, 121]);
    assert!((PubEval::score_f64(&race, true) - 0.412_553_333_333).abs() < 1e-9);
    assert!((PubEval::score(&race, true) - 0.412_553_33).abs() < 1e-6);

    // Contact: the same checker of mine; he has one checker on the bar, a
    // blot on his 23-point (my 2-point: group j = 23, x[110] = 1) and 2 on
    // his ace point (my 24-point: a made point, not encoded).
    //   WC[116] + WC[110] + WC[120] / 2 + WC[121] * 14/15
    //   = -1.59529 + 0.86505 + 5.62596 / 2 - 2.75800 * 14/15
    //   = -1.59529 + 0.86505 + 2.81298 - 2.574133333 = -0.491393333
    let contact = board(&[(1, 1)], &[(25, 1), (23, 1), (1, 2)]);
    assert!(contact.has_contact());
    let x = PubEval::inputs(&contact);
    let set: Vec<usize> = (0..INPUTS).filter(|&i| x[i] != 0.0).collect();
    assert_eq!(set, [110, 116, 120, 121]);
    assert_eq!(x[120], 0.5);
    assert!((PubEval::score_f64(&contact, false) + 0.491_393_333_333).abs() < 1e-9);

    // Stacks: 5 checkers on my 6-point (j = 19, inputs 90..95) give
    // x[92] = 1 and x[94] = (5 - 3) / 2 = 1; 3 on my 8-point give x[82] =
    // x[83] = 1.
    let stacks = board(&[(6, 5), (8, 3)], &[(6, 2)]);
    let x = PubEval::inputs(&stacks);
    let set: Vec<usize> = (0..INPUTS).filter(|&i| x[i] != 0.0).collect();
    assert_eq!(set, [82, 83, 92, 94, 121]);
    assert_eq!(x[121], 7.0 / 15.0);
}

#[test]
fn bearing_off_the_last_checker_scores_infinity_and_is_played() {
    // My checkers on my 4- and 1-points, he has 2 on his 6-point; roll 4-1:
    // 4/off 1/off ends the game, 4/3/off leaves the checker on the 1-point.
    let before = board(&[(4, 1), (1, 1)], &[(6, 2)]);
    let list = before.legal_moves(Dice::new(4, 1).unwrap());
    let results = list.positions();
    assert!(results.len() >= 2, "{results:?}");
    let i = PubEval::choose(&before, results);
    let after = results[i].switched();
    assert_eq!(after.checkers_in_play().0, 0);
    for race in [false, true] {
        assert_eq!(PubEval::score(&after, race), f32::INFINITY);
    }
    // Every other result scores a finite value.
    for (k, r) in results.iter().enumerate().filter(|&(k, _)| k != i) {
        assert!(PubEval::score(&r.switched(), true).is_finite(), "result {k}");
    }
    // The side on roll after that move has lost: win = 0.
    assert_eq!(PubEval.evaluate(&results[i]).win, 0.0);
}

/// pubeval behind the trait's *default* `best_move` (minimum opponent equity).
struct DefaultBestMove;

impl Evaluator for DefaultBestMove {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        PubEval.evaluate_batch(positions, out);
    }
    fn name(&self) -> String {
        "pubeval-default-best-move".to_string()
    }
}

#[test]
fn evaluate_batch_is_a_monotone_stand_in() {
    let p = PubEval.evaluate(&Position::STARTING);
    assert!(p.win > 0.0 && p.win < 1.0);
    assert_eq!([p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon], [0.0; 4]);
    // win = 1 - logistic(score of the player who just moved into it).
    let s = PubEval::score_f64(&Position::STARTING, false);
    assert!((f64::from(p.win) - (1.0 - 1.0 / (1.0 + (-s).exp()))).abs() < 1e-6);
}

#[test]
fn the_default_best_move_agrees_when_the_weights_agree() {
    // On every fixture position and all 21 rolls, where the race flag of the
    // position before the move equals every result's (no move breaks
    // contact), the trait's default best_move on top of evaluate_batch picks
    // a result of the same f32 equity as `choose`, and the same index unless
    // the f32 equities tie (which happens where the logistic saturates).
    let mut positions: Vec<Position> = fixture().iter().map(|c| c.before).collect();
    positions.sort_by_key(|p| p.to_position_id());
    positions.dedup();
    let mut list = MoveList::new();
    let (mut same, mut tied, mut skipped) = (0, 0, 0);
    for before in &positions {
        for dice in ALL_ROLLS {
            list.generate(before, dice);
            let results = list.positions();
            if results.is_empty() {
                continue;
            }
            if results.iter().any(|r| r.has_contact() != before.has_contact()) {
                skipped += 1;
                continue;
            }
            let c = PubEval::choose(before, results);
            let d = DefaultBestMove.best_move(before, results);
            let equity = |i: usize| PubEval.evaluate(&results[i]).equity();
            assert_eq!(equity(d), equity(c), "{} {dice}", before.to_position_id());
            if c == d {
                same += 1;
            } else {
                // pubeval's scores often exceed 17 in size (races with many
                // checkers off or stacked, crushing contact positions), where
                // the logistic saturates in f32: win = 0 or 1 exactly, or
                // within an f32 step of it.
                tied += 1;
                assert!(equity(c).abs() > 0.9999, "{} {dice}: {}", before.to_position_id(), equity(c));
            }
        }
    }
    assert!(same > 5 * tied, "same {same}, tied {tied}, skipped {skipped}");
    assert!(skipped > 0, "no move broke contact");
}

#[test]
fn name_is_pubeval() {
    assert_eq!(PubEval.name(), "pubeval");
}
