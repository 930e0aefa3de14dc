//! Match rollouts ([`TrialCube::Match`]) against what the match rules make
//! of them: no cube in the Crawford game, gammons worth nothing at double
//! match point, the trailer's double after the Crawford game.

use super::*;
use crate::cube::{cube_efficiency, decide_for, Stakes};
use gammon_eval::NetEvaluator;
use gammon_rules::{CubeOwner, Xgid};

/// X on roll in a middle game with chances both ways.
fn middle_game() -> Position {
    Xgid::parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10").unwrap().position
}

fn at(away: (u32, u32), crawford: bool, cube: u32, owner: CubeOwner) -> CubeState {
    CubeState { cube, owner, max_cube: 64, stakes: Stakes::Match { length: 7, away, crawford } }
}

fn quick(cubeful: bool) -> RolloutSettings {
    RolloutSettings { trials: 144, truncate: Some(6), cubeful, ..RolloutSettings::default() }
}

fn roll_out(state: CubeState, cubeful: bool) -> RolloutResult {
    let net = NetEvaluator::shipped().unwrap();
    let stakes = (&TrialCube::Cube(state), Met::kazaross_xg2());
    rollout_position_with(&net, &middle_game(), stakes, &quick(cubeful), |_| {}, &AtomicBool::new(false)).unwrap()
}

fn mwc(r: &RolloutResult) -> Estimate {
    match_chances(r.cubeful.as_ref().unwrap())
}

#[test]
fn nobody_doubles_in_the_crawford_game() {
    // Cube play changes nothing: the same trials, the same values.
    let state = at((1, 4), true, 1, CubeOwner::Centered);
    let (with_cube, without) = (roll_out(state, true), roll_out(state, false));
    assert!((mwc(&with_cube).mean - mwc(&without).mean).abs() < 1e-12);
    assert_eq!(with_cube.probabilities, without.probabilities);
    // And the leader's chances are those the table gives a 1-away against 4.
    let m = mwc(&with_cube).mean;
    assert!((0.6..0.95).contains(&m), "{m}");
}

#[test]
fn at_double_match_point_the_chances_are_the_wins() {
    let r = roll_out(at((1, 1), false, 1, CubeOwner::Centered), true);
    let (m, win) = (mwc(&r), r.probabilities[0]);
    assert!((m.mean - win.mean).abs() < 1e-9, "{} against {}", m.mean, win.mean);
    assert!((m.standard_error - win.standard_error).abs() < 1e-9);
}

#[test]
fn after_crawford_the_trailer_doubles_at_once() {
    // The trailer's double costs him nothing: the cube model says double,
    // and the leader takes.
    let net = NetEvaluator::shipped().unwrap();
    let pos = middle_game();
    let state = at((4, 1), false, 1, CubeOwner::Centered);
    let d = decide_for(&pos, &net.evaluate(&pos), cube_efficiency(&pos), &state, Met::kazaross_xg2()).unwrap();
    assert!(d.action.doubles(), "{:?}", d.action);
    // So his rollout is worth what a game for two points is worth to him.
    let trailer = mwc(&roll_out(state, true)).mean;
    let for_one = mwc(&roll_out(state, false)).mean;
    let for_two = mwc(&roll_out(at((4, 1), false, 2, CubeOwner::Opponent), false)).mean;
    assert!((trailer - for_two).abs() < (trailer - for_one).abs(), "{trailer} {for_two} {for_one}");
    assert!(trailer > for_one + 0.01, "doubling gains the trailer: {trailer} against {for_one}");
}

#[test]
fn moves_are_ranked_by_the_chances_they_keep_in_the_match() {
    let net = NetEvaluator::shipped().unwrap();
    let state = at((3, 5), false, 1, CubeOwner::Centered);
    let settings = RolloutSettings { candidates: Some(3), ..quick(true) };
    let dice = Dice::new(6, 4).unwrap();
    let moves = rollout_moves_with(
        &net,
        &middle_game(),
        dice,
        (&TrialCube::Cube(state), Met::kazaross_xg2()),
        &settings,
        |_| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    let chances: Vec<f64> = moves.iter().map(|m| mwc(&m.rollout).mean).collect();
    assert!(chances.windows(2).all(|w| w[0] >= w[1]), "{chances:?}");
    assert!(chances.iter().all(|m| (0.0..=1.0).contains(m)), "{chances:?}");
    // Each move's trials start with the opponent on roll: its value for the
    // mover is the opponent's chances turned round, and a match rollout of
    // the position after the best move from the opponent's side agrees.
    let best = &moves[0];
    let opponent = rollout_position_with(
        &net,
        &best.result,
        (&TrialCube::Cube(state.switched()), Met::kazaross_xg2()),
        &settings,
        |_| {},
        &AtomicBool::new(false),
    )
    .unwrap();
    assert!((mwc(&opponent).mean - (1.0 - chances[0])).abs() < 1e-9);
}
