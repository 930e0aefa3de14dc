//! `gammon analyse` end to end: ranked moves of a roll, the evaluation of a
//! position, JSON, and clear errors.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Output;

fn gammon(args: &[&str]) -> Output {
    common::run(args, b"")
}

fn ok(args: &[&str]) -> String {
    let out = gammon(args);
    assert!(out.status.success(), "gammon {args:?}: {}", common::text(&out.stderr));
    common::text(&out.stdout)
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn fails(args: &[&str], message: &str) {
    let out = gammon(args);
    assert!(!out.status.success(), "gammon {args:?} should fail");
    let stderr = common::text(&out.stderr);
    assert!(stderr.contains(message), "gammon {args:?}: {stderr}");
}

#[test]
fn ranks_every_move_of_the_opening_31() {
    let stdout = ok(&["analyse", "start", "--dice", "31", "--ply", "1"]);
    assert!(stdout.contains("16 legal moves, ranked at 1-ply"), "{stdout}");
    let rows: Vec<&str> = stdout
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(" - "))
        .collect();
    assert_eq!(rows.len(), 16, "{stdout}");
    assert!(rows[0].contains("8/5 6/5"), "{stdout}");
    // The best has no loss; the others show theirs as a negative number.
    assert!(rows[1].contains(" -0."), "{}", rows[1]);
    // gnubg's probability line: win, gammon, backgammon - lose, gammon, backgammon.
    assert!(rows[0].contains(" - "), "{}", rows[0]);
}

#[test]
fn json_lists_the_moves_with_depth_equity_loss_and_probabilities() {
    let v = json(&["analyse", "start", "--dice", "42", "--ply", "2", "--json"]);
    assert_eq!(v["plies"], 2);
    assert_eq!(v["dice"], "42");
    let moves = v["moves"].as_array().unwrap();
    let legal = json(&["moves", "start", "42", "--json"]);
    assert_eq!(moves.len(), legal["moves"].as_array().unwrap().len());
    assert_eq!(moves[0]["move"], "8/4 6/4");
    assert_eq!(moves[0]["loss"], 0.0);
    let at_full_depth = moves.iter().filter(|m| m["plies"] == 2).count();
    assert!((1..=8).contains(&at_full_depth), "{at_full_depth}");
    assert!(moves.iter().all(|m| m["plies"] == 2 || m["plies"] == 0));
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["rank"], i + 1);
        let p = &m["probabilities"];
        let win = p["win"].as_f64().unwrap();
        assert!((win + p["lose"].as_f64().unwrap() - 1.0).abs() < 1e-6);
        let equity = 2.0 * win - 1.0 + p["win_gammon"].as_f64().unwrap() - p["lose_gammon"].as_f64().unwrap()
            + p["win_backgammon"].as_f64().unwrap()
            - p["lose_backgammon"].as_f64().unwrap();
        assert!((equity - m["equity"].as_f64().unwrap()).abs() < 1e-5);
        let loss = moves[0]["equity"].as_f64().unwrap() - m["equity"].as_f64().unwrap();
        assert!((loss - m["loss"].as_f64().unwrap()).abs() < 1e-5);
        assert_eq!(m["result"].as_str().unwrap().len(), 14);
    }
}

#[test]
fn without_dice_it_evaluates_the_position_and_0_ply_is_the_static_evaluation() {
    let v = json(&["analyse", "4HPwATDgc/ABMA", "--ply", "0", "--json"]);
    let e = json(&["eval", "start", "--json"]);
    assert_eq!(v["probabilities"]["equity"], e["equity"]);
    assert_eq!(v["probabilities"]["win"], e["win"]);
    let deeper = json(&["analyse", "start", "--ply", "1", "--json"]);
    assert_eq!(deeper["plies"], 1);
    assert_ne!(deeper["probabilities"]["equity"], v["probabilities"]["equity"]);
    let text = ok(&["analyse", "start", "--ply", "1"]);
    assert!(text.contains("Evaluated at 1-ply"), "{text}");
    assert!(text.contains("Cubeless equity"), "{text}");
}

#[test]
fn the_default_depth_is_2_ply() {
    let v = json(&["analyse", "start", "--dice", "66", "--json"]);
    assert_eq!(v["plies"], 2);
    assert_eq!(v["moves"][0]["plies"], 2);
}

#[test]
fn exact_positions_say_so() {
    // Both sides bearing off: the bearoff database, exact at every depth.
    let text = ok(&["analyse", "8H0AAEgAAAAAAA", "--ply", "2"]);
    assert!(text.contains("bearoff database (exact"), "{text}");
}

#[test]
fn an_xgid_brings_its_dice_and_no_legal_move_is_reported() {
    let v = json(&["analyse", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10", "--ply", "0", "--json"]);
    assert_eq!(v["dice"], "31");
    assert_eq!(v["moves"].as_array().unwrap().len(), 16);
    // On the bar against a closed board.
    let text = ok(&["analyse", "27YBAAA8Dz4ADA", "--dice", "55", "--ply", "1"]);
    assert!(text.contains("No legal move"), "{text}");
}

#[test]
fn errors_are_clear_and_fail() {
    fails(&["analyse", "nonsense"], "cannot read Position ID");
    fails(&["analyse", "start", "--dice", "71"], "cannot read dice");
    fails(&["analyse", "start", "--ply", "4"], "--ply");
    fails(&["analyse", "start", "--weights", "/nonexistent/weights.net"], "cannot load weights");
    // The side not on roll has borne off everything.
    fails(&["analyse", "AAAAAAAA/38AAA", "--dice", "21"], "game in this position is over");
}
