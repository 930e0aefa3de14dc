//! `gammon analyse` end to end: ranked moves of a roll, the evaluation of a
//! position, JSON, and clear errors.
#![allow(clippy::unwrap_used)]

use gammon_testkit::Output;

fn gammon(args: &[&str]) -> Output {
    gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), args, b"")
}

fn ok(args: &[&str]) -> String {
    let out = gammon(args);
    assert!(out.success(), "gammon {args:?}: {}", out.stderr);
    out.stdout
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

fn fails(args: &[&str], message: &str) {
    let out = gammon(args);
    assert!(!out.success(), "gammon {args:?} should fail");
    let stderr = out.stderr;
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

#[test]
fn without_dice_the_cube_decision_follows_at_the_same_depth() {
    let text = ok(&["analyse", "start"]);
    for wanted in [
        "Cube decision at 2-ply: Money game, cube 1 centred",
        "Cubeful equities (searched 2 plies):",
        "No double",
        "Proper cube action: No double, take",
        "Take point:",
    ] {
        assert!(text.contains(wanted), "{wanted:?} missing from\n{text}");
    }
    // The JSON `cube` object is `gammon cube --json` at the same depth.
    for ply in ["0", "1", "2"] {
        let v = json(&["analyse", "start", "--ply", ply, "--json"]);
        let cube = json(&["cube", "start", "--ply", ply, "--json"]);
        assert_eq!(v["cube"], cube, "{ply} ply");
        assert_eq!(v["cube"]["ply"].as_u64().unwrap().to_string(), ply);
    }
}

#[test]
fn an_xgid_gives_the_cube_its_context() {
    // 5-point match, X (on roll) 3, O 1, X owns the 2-cube: a dead cube.
    let xgid = "XGID=-----CCCB--------c-cccc---:1:1:1:00:3:1:0:5:10";
    let v = json(&["analyse", xgid, "--ply", "1", "--json"]);
    let cube = &v["cube"];
    assert_eq!(cube["settings"]["match_length"], 5);
    assert_eq!(cube["settings"]["away"], serde_json::json!([2, 4]));
    assert_eq!(cube["settings"]["owner"], "me");
    assert_eq!(cube["action"], "Never redouble, take (dead cube)");
    // Money, centred: a big race lead is a double and a pass.
    let text = ok(&["analyse", "XGID=-----CCCB--------c-cccc---:0:0:1:00:0:0:0:0:10"]);
    assert!(text.contains("Proper cube action: Double, pass"), "{text}");
    // The Crawford game.
    let text = ok(&["analyse", "XGID=-----CCCB--------c-cccc---:0:0:1:00:4:2:1:5:10", "--ply", "0"]);
    assert!(text.contains("Crawford game"), "{text}");
    assert!(text.contains("Proper cube action: Never double, take (dead cube)"), "{text}");
    // O owns the cube: X cannot double, and playing on is shown.
    let v = json(&["analyse", "XGID=-----CCCB--------c-cccc---:1:-1:1:00:0:0:0:0:10", "--ply", "0", "--json"]);
    assert_eq!(v["cube"]["can_double"], false);
    assert_eq!(v["cube"]["action"], "No double (cube not available)");
    // A pending double is analysed as the doubler's decision, with a note.
    let v = json(&["analyse", "XGID=-----CCCB--------c-cccc---:0:0:1:D:0:0:0:0:10", "--ply", "0", "--json"]);
    assert_eq!(v["cube"]["response"], "pass");
    assert!(v["cube"]["notes"][0].as_str().unwrap().contains("doubled"), "{}", v["cube"]["notes"]);
}

#[test]
fn no_cube_decision_when_there_is_none() {
    // The game is over; a match longer than the match equity table.
    let v = json(&["analyse", "AAAAAAAA/38AAA", "--json"]);
    assert!(v["cube"].is_null());
    assert!(v["cube_error"].as_str().unwrap().contains("game is over"), "{v}");
    let text = ok(&["analyse", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:31:10", "--ply", "0"]);
    assert!(text.contains("Cube decision: none (a 31-point match is longer than the match equity table"), "{text}");
    // With dice there is no cube section.
    let v = json(&["analyse", "start", "--dice", "31", "--ply", "0", "--json"]);
    assert!(v.get("cube").is_none());
}
