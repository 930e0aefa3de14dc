//! `gammon rollout` end to end.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use gammon_engine::rollout::{rollout_position, RolloutSettings};
use gammon_eval::NetEvaluator;
use gammon_rules::Position;
use serde_json::Value;

fn ok_json(args: &[&str]) -> Value {
    let mut all = vec!["rollout"];
    all.extend_from_slice(args);
    all.push("--json");
    let out = gammon(&all);
    assert!(out.success(), "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// `gammon rollout args` must fail, saying `wanted`.
fn rollout_fails(args: &[&str], wanted: &str) {
    crate::fails(&[&["rollout"], args].concat(), wanted);
}

#[test]
fn prints_probabilities_equity_and_intervals() {
    let out = gammon(&["rollout", "start", "--games", "36", "--truncate", "4", "--cubeful"]);
    assert!(out.success(), "{}", out.stderr);
    let text = out.stdout;
    for wanted in [
        "Rollout of 4HPwATDgc/ABMA",
        "win   win g  win bg    lose  lose g lose bg",
        "mean",
        "SE",
        "Cubeless equity",
        "Cubeful equity",
        "95% CI [",
        "Games: 36 of 36",
        "games/s",
        "truncated after 4 half-moves",
    ] {
        assert!(text.contains(wanted), "{wanted:?} missing from\n{text}");
    }
}

#[test]
fn json_agrees_with_the_engine_whatever_the_threads() {
    let args = ["start", "--games", "40", "--truncate", "6", "--seed", "9"];
    let one = ok_json(&[&args[..], &["--threads", "1"]].concat());
    let two = ok_json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(one["rollout"], two["rollout"]);
    assert_eq!(one["settings"]["threads"], 1);
    let net = NetEvaluator::shipped().unwrap();
    let s = RolloutSettings { trials: 40, truncate: Some(6), seed: 9, ..RolloutSettings::default() };
    let r = rollout_position(&net, &Position::STARTING, &s, |_| {}).unwrap();
    let j = &one["rollout"];
    assert_eq!(j["trials"], 40);
    assert_eq!(j["equity"]["mean"].as_f64().unwrap(), r.equity.mean);
    assert_eq!(j["equity"]["standard_error"].as_f64().unwrap(), r.equity.standard_error);
    assert_eq!(j["win"]["mean"].as_f64().unwrap(), r.probabilities[0].mean);
    assert_eq!(j["lose_backgammon"]["high"].as_f64().unwrap(), r.probabilities[4].high);
    assert!(j["cubeful_equity"].is_null());
    assert!(one["games_per_second"].as_f64().unwrap() > 0.0);
}

#[test]
fn ranks_the_moves_of_a_roll() {
    let j = ok_json(&["start", "--dice", "31", "--games", "36", "--truncate", "4", "--moves", "3"]);
    assert_eq!(j["legal_moves"], 16);
    let moves = j["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    assert_eq!(moves[0]["rank"], 1);
    assert_eq!(moves[0]["move"], "8/5 6/5");
    assert_eq!(moves[0]["difference"]["mean"], 0.0);
    let eq = |m: &Value| m["rollout"]["equity"]["mean"].as_f64().unwrap();
    assert!(eq(&moves[0]) >= eq(&moves[1]) && eq(&moves[1]) >= eq(&moves[2]));
    assert!(moves[1]["difference"]["mean"].as_f64().unwrap() < 0.0);

    let out = gammon(&["rollout", "start", "--dice", "31", "--games", "12", "--truncate", "2", "--moves", "0"]);
    assert!(out.success(), "{}", out.stderr);
    let text = out.stdout;
    assert!(text.contains("all 16 legal moves"), "{text}");
    assert!(text.contains(" 1. 8/5 6/5"), "{text}");
    assert!(text.contains("16. "), "{text}");
    assert!(text.contains("Games: 12 of 12 per move"), "{text}");
}

#[test]
fn an_xgid_with_dice_rolls_out_its_moves() {
    let j = ok_json(&["XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:0:0:10", "--games", "6", "--truncate", "1"]);
    assert_eq!(j["dice"], "52");
    assert!(!j["moves"].as_array().unwrap().is_empty());
}

#[test]
fn a_target_standard_error_stops_early() {
    let j = ok_json(&["start", "--games", "5000", "--truncate", "1", "--no-vr", "--target-se", "0.5"]);
    assert_eq!(j["rollout"]["trials"], 1296);
    assert_eq!(j["rollout"]["target_reached"], true);
}

#[test]
fn finished_games_are_exact() {
    let j = ok_json(&["AAAAAAAA/38AAA", "--games", "5"]);
    assert_eq!(j["rollout"]["win"]["mean"], 0.0);
    assert_eq!(j["rollout"]["lose_gammon"]["mean"], 1.0);
    assert_eq!(j["rollout"]["equity"]["standard_error"], 0.0);
}

#[test]
fn bad_input_is_a_clear_error() {
    rollout_fails(&["nonsense"], "cannot read Position ID");
    rollout_fails(&["start", "--dice", "71"], "cannot read dice");
    rollout_fails(&["start", "--games", "0"], "error: --games: a rollout needs at least one trial");
    rollout_fails(&["start", "--threads", "0", "--games", "1"], "invalid value '0' for '--threads <N>'");
    rollout_fails(
        &["start", "--target-se=-1"],
        "error: --target-se: the target standard error -1 is not a positive number",
    );
    rollout_fails(&["start", "--ply", "3"], "--ply");
    rollout_fails(&["AAAAAAAA/38AAA", "--dice", "31"], "the game in this position is over");
    rollout_fails(&["start", "--weights", "/nonexistent/weights.net"], "cannot load weights");
}

/// One game has no standard error: `n/a` in text and `null` in JSON (it
/// printed SE 0.0000 and a zero-width interval); with the moves of a roll too.
#[test]
fn one_game_has_no_standard_error() {
    let text = gammon(&["rollout", "4HPwATDgc/ABMA", "--games", "1"]);
    assert!(text.success(), "{}", text.stderr);
    assert!(text.stdout.contains("SE n/a  95% CI n/a"), "{}", text.stdout);
    assert!(!text.stdout.contains("0.0000  95% CI"), "{}", text.stdout);
    let json = gammon(&["rollout", "4HPwATDgc/ABMA", "--games", "1", "--json"]);
    let v: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["rollout"]["equity"]["standard_error"], Value::Null, "{}", json.stdout);
    let moves = gammon(&["rollout", "4HPwATDgc/ABMA", "--dice", "31", "--games", "1", "--moves", "2"]);
    assert!(moves.success() && moves.stdout.contains("n/a"), "{}{}", moves.stdout, moves.stderr);
    // Two games have one.
    let two = gammon(&["rollout", "4HPwATDgc/ABMA", "--games", "2", "--json"]);
    let v: Value = serde_json::from_str(&two.stdout).unwrap();
    assert!(v["rollout"]["equity"]["standard_error"].is_number(), "{}", two.stdout);
}

/// A 7-point match at 3-2 (X 4-away, O 5-away), X on roll.
const MATCH_3_2: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:2:0:7:10";

#[test]
fn a_match_position_is_rolled_out_at_its_score() {
    let out = gammon(&["rollout", MATCH_3_2, "--games", "72", "--truncate", "4"]);
    assert!(out.success(), "{}", out.stderr);
    let first = out.stdout.lines().next().unwrap();
    assert!(first.contains("7-point match, score 3-2 (X 4-away, O 5-away)"), "{first}");
    assert!(out.stdout.contains("cubeful match play"), "{}", out.stdout);
    assert!(out.stdout.contains("Match winning") && out.stdout.contains("Equity (EMG)"), "{}", out.stdout);

    let json = |extra: &[&str]| -> Value {
        let out = gammon(&[&["rollout", MATCH_3_2, "--games", "72", "--truncate", "4", "--json"], extra].concat());
        assert!(out.success(), "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    let cubeful = json(&[]);
    assert_eq!(cubeful["settings"]["match"]["away"], serde_json::json!([4, 5]));
    assert_eq!(cubeful["settings"]["cubeful"], true);
    assert!(cubeful["rollout"]["cubeful_equity"].is_null(), "no money equity for a match position");
    let mwc = cubeful["rollout"]["mwc"]["mean"].as_f64().unwrap();
    assert!((0.5..0.7).contains(&mwc), "{mwc}");
    // EMG is MWC in the units of the cube at the score: +1 is winning a point.
    let emg = cubeful["rollout"]["emg"]["mean"].as_f64().unwrap();
    assert!(emg > 0.0 && emg < 1.0, "{emg}");

    let cubeless = json(&["--cubeless"]);
    assert_eq!(cubeless["settings"]["cubeful"], false);
    // The cube changes the games' worth, and with it the moves played for
    // the match: not the same answer.
    assert_eq!(cubeless["settings"]["match"], cubeful["settings"]["match"]);
    assert_ne!(cubeless["rollout"]["mwc"], cubeful["rollout"]["mwc"]);
}

#[test]
fn the_context_options_set_the_score_as_an_xgid_does() {
    // MATCH_3_2's position in money play, given its match by the options.
    let money = MATCH_3_2.replacen(":3:2:0:7:", ":0:0:0:0:", 1);
    let by_options = ok_json(&[&money, "--match", "7", "--score", "3-2", "--games", "36", "--truncate", "4"]);
    let by_xgid = ok_json(&[MATCH_3_2, "--games", "36", "--truncate", "4"]);
    assert_eq!(by_options["settings"], by_xgid["settings"]);
    assert_eq!(by_options["rollout"], by_xgid["rollout"]);
    rollout_fails(&["start", "--score", "1-2"], "--score needs --match");
}

#[test]
fn cubeful_and_cubeless_are_one_choice() {
    rollout_fails(&[MATCH_3_2, "--cubeful", "--cubeless"], "cannot be used with");
}

#[test]
fn a_cube_decision_is_rolled_out_in_both_lines() {
    // gnubg 2-ply: double/take (the oracle's first money cube position).
    let out = gammon(&["rollout", "2t0hBgDbdI4BAA", "--cube-decision", "--games", "72", "--truncate", "6"]);
    assert!(out.success(), "{}", out.stderr);
    for line in ["No double", "Double, take", "Double, pass", "Double/take minus no double", "Proper cube action:"] {
        assert!(out.stdout.contains(line), "{line}: {}", out.stdout);
    }
    let out = gammon(&["rollout", "2t0hBgDbdI4BAA", "--cube-decision", "--games", "72", "--truncate", "6", "--json"]);
    assert!(out.success(), "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).unwrap();
    // What `gammon cube --json` prints, with the standard errors and games.
    let cube = gammon(&["cube", "2t0hBgDbdI4BAA", "--json"]);
    let c: Value = serde_json::from_str(&cube.stdout).unwrap();
    for key in ["no_double", "double_take", "double_pass", "action", "settings", "explanation"] {
        assert!(j.get(key).is_some() && c.get(key).is_some(), "{key}");
    }
    assert_eq!(j["games"], 72);
    assert_eq!(j["double_pass"], 1.0);
    assert!(j["standard_errors"]["no_double"].as_f64().unwrap() > 0.0);
    let diff = &j["standard_errors"]["double_take_minus_no_double"];
    let want = j["double_take"].as_f64().unwrap() - j["no_double"].as_f64().unwrap();
    assert!((diff["mean"].as_f64().unwrap() - want).abs() < 1e-9, "{diff}");
    assert_eq!(j["rollout"]["games"], 72);

    rollout_fails(&["2t0hBgDbdI4BAA", "--cube-decision", "--dice", "31"], "cannot be used with");
    let owned = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10";
    rollout_fails(&[owned, "--cube-decision", "--games", "36"], "the player on roll cannot double");
}
