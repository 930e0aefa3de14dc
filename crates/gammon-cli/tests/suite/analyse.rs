//! `gammon analyse` end to end: ranked moves of a roll, the evaluation of a
//! position, JSON, and clear errors.
#![allow(clippy::unwrap_used)]

use crate::{fails, ok};

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap()
}

/// The rows of a ranked-moves table: a rank, then gnubg's probability line.
fn move_rows(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()) && l.contains(" - ")).collect()
}

#[test]
fn ranks_every_move_of_the_opening_31() {
    for cubeless in [false, true] {
        let mut args = vec!["analyse", "start", "--dice", "31", "--ply", "1"];
        if cubeless {
            args.push("--cubeless");
        }
        let stdout = ok(&args);
        assert!(stdout.contains("16 legal moves, ranked at 1-ply"), "{stdout}");
        let rows = move_rows(&stdout);
        assert_eq!(rows.len(), 16, "{stdout}");
        assert!(rows[0].contains("8/5 6/5"), "{stdout}");
        // The best has no loss; the others show theirs as a negative number.
        assert!(rows[1].contains(" -0."), "{}", rows[1]);
    }
}

#[test]
fn cubeless_ranks_every_move_of_the_opening_31_as_before() {
    let stdout = ok(&["analyse", "start", "--dice", "31", "--ply", "1", "--cubeless"]);
    assert!(stdout.contains("16 legal moves, ranked at 1-ply"), "{stdout}");
    assert!(stdout.starts_with(" Position ID: "), "{stdout}");
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
fn cubeless_json_lists_the_moves_with_depth_equity_loss_and_probabilities() {
    let v = json(&["analyse", "start", "--dice", "42", "--ply", "2", "--json", "--cubeless"]);
    // The fields of the cubeless analysis, no more.
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["dice", "evaluator", "moves", "ply", "position", "schema_version"], "{v}");
    assert_eq!(v["ply"], 2);
    assert_eq!(v["dice"], "42");
    let moves = v["moves"].as_array().unwrap();
    let legal = json(&["moves", "start", "42", "--json"]);
    assert_eq!(moves.len(), legal["moves"].as_array().unwrap().len());
    assert_eq!(moves[0]["move"], "8/4 6/4");
    assert_eq!(moves[0]["loss"], 0.0);
    let at_full_depth = moves.iter().filter(|m| m["ply"] == 2).count();
    assert!((1..=8).contains(&at_full_depth), "{at_full_depth}");
    assert!(moves.iter().all(|m| m["ply"] == 2 || m["ply"] == 0));
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
    assert_eq!(deeper["ply"], 1);
    assert_ne!(deeper["probabilities"]["equity"], v["probabilities"]["equity"]);
    let text = ok(&["analyse", "start", "--ply", "1"]);
    assert!(text.contains("Evaluated at 1-ply"), "{text}");
    assert!(text.contains("Cubeless equity"), "{text}");
}

#[test]
fn the_default_depth_is_2_ply() {
    for args in [&["--json"][..], &["--json", "--cubeless"]] {
        let v = json(&[&["analyse", "start", "--dice", "66"][..], args].concat());
        assert_eq!(v["ply"], 2);
        assert_eq!(v["moves"][0]["ply"], 2);
    }
}

#[test]
fn exact_positions_say_so() {
    // Both sides bearing off: the bearoff database, exact at every depth.
    let text = ok(&["analyse", "8H0AAEgAAAAAAA", "--ply", "2"]);
    assert!(text.contains("bearoff database (exact"), "{text}");
}

#[test]
fn an_xgid_brings_its_dice_and_no_legal_move_is_reported() {
    for cubeless in [&[][..], &["--cubeless"]] {
        let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10";
        let v = json(&[&["analyse", xgid, "--ply", "0", "--json"][..], cubeless].concat());
        assert_eq!(v["dice"], "31");
        assert_eq!(v["moves"].as_array().unwrap().len(), 16);
    }
    // On the bar against a closed board.
    for cubeless in [&[][..], &["--cubeless"]] {
        let text = ok(&[&["analyse", "27YBAAA8Dz4ADA", "--dice", "55", "--ply", "1"][..], cubeless].concat());
        assert!(text.contains("No legal move"), "{text}");
    }
}

#[test]
fn errors_are_clear_and_fail() {
    fails(&["analyse", "nonsense"], "cannot read Position ID");
    fails(&["analyse", "start", "--dice", "71"], "cannot read dice");
    fails(&["analyse", "start", "--ply", "4"], "--ply");
    fails(&["analyse", "start", "--weights", "/nonexistent/weights.net"], "cannot load weights");
    // The side not on roll has borne off everything.
    fails(&["analyse", "AAAAAAAA/38AAA", "--dice", "21"], "game in this position is over");
    fails(&["analyse", "AAAAAAAA/38AAA", "--dice", "21", "--cubeless"], "game in this position is over");
    // Cubeless analysis takes no context; a match the table does not cover says what to do.
    fails(
        &["analyse", "start", "--dice", "31", "--cubeless", "--match", "7"],
        "--match does not apply with --cubeless",
    );
    let long = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:31:10";
    fails(&["analyse", long, "--ply", "0"], "longer than the match equity table");
    fails(&["analyse", "start", "--dice", "31", "--match", "7", "--score", "7-1"], "--score: ");
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
    // The JSON `cube` object is `gammon cube --json` at the same depth, less
    // the version that only a whole document carries.
    for ply in ["0", "1", "2"] {
        let v = json(&["analyse", "start", "--ply", ply, "--json"]);
        let mut cube = json(&["cube", "start", "--ply", ply, "--json"]);
        assert_eq!(cube.as_object_mut().unwrap().remove("schema_version"), Some(2.into()));
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
    for cubeless in [&[][..], &["--cubeless"]] {
        let v = json(&[&["analyse", "start", "--dice", "31", "--ply", "0", "--json"][..], cubeless].concat());
        assert!(v.get("cube").is_none());
    }
}

// ------------------------------------------------ cubeful, in the context

/// A Crawford game at 2-away/1-away: 7-point match, X (on roll) 5, O 6.
const CRAWFORD_31: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:5:6:1:7:10";

fn float(v: &serde_json::Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// Each move's equity in the JSON analysis, by notation.
fn equities(v: &serde_json::Value) -> std::collections::BTreeMap<String, f64> {
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), float(&m["equity"])))
        .collect()
}

#[test]
fn a_crawford_xgid_is_analysed_at_its_score() {
    let text = ok(&["analyse", CRAWFORD_31, "--ply", "1"]);
    let first = text.lines().next().unwrap();
    for wanted in ["7-point match", "score 5-6", "X 2-away, O 1-away", "Crawford game"] {
        assert!(first.contains(wanted), "{wanted:?} missing from the first line {first:?}");
    }
    let heading = text.lines().find(|l| l.contains(" move ")).unwrap();
    assert!(heading.contains("MWC") && heading.contains("EMG"), "{heading}");
    let rows = move_rows(&text);
    assert_eq!(rows.len(), 16, "{text}");
    // Every row has its match winning chances in percent.
    assert!(rows.iter().all(|r| r.contains('%')), "{text}");
    // The equities differ from cubeless money play's.
    let cubeful = equities(&json(&["analyse", CRAWFORD_31, "--ply", "1", "--json"]));
    let cubeless = equities(&json(&["analyse", CRAWFORD_31, "--ply", "1", "--json", "--cubeless"]));
    assert_eq!(cubeful.len(), cubeless.len());
    let differ = cubeful.iter().filter(|(m, e)| (**e - cubeless[*m]).abs() > 1e-3).count();
    assert_eq!(differ, cubeful.len(), "{cubeful:?}\n{cubeless:?}");
    let cubeless_text = ok(&["analyse", CRAWFORD_31, "--ply", "1", "--cubeless"]);
    assert!(!cubeless_text.contains("match") && !cubeless_text.contains("MWC"), "{cubeless_text}");
}

#[test]
fn the_first_line_says_money_play_and_the_cube() {
    let text = ok(&["analyse", "start", "--dice", "31", "--ply", "0"]);
    assert!(text.starts_with(" Money play, cube 1 centred, Jacoby off"), "{text}");
    let text = ok(&["analyse", "start", "--dice", "31", "--ply", "0", "--jacoby", "--cube", "2", "--owner", "opp"]);
    assert!(text.starts_with(" Money play, cube 2 owned by O, Jacoby on"), "{text}");
    // Before the roll: the same line, then the evaluation and the cube decision.
    let text = ok(&["analyse", CRAWFORD_31.replace(":31:", ":00:").as_str(), "--ply", "0"]);
    assert!(
        text.lines().next().unwrap().contains("7-point match, score 5-6 (X 2-away, O 1-away), Crawford game"),
        "{text}"
    );
    let text = ok(&["analyse", "start", "--ply", "0", "--match", "5", "--score", "3-1"]);
    assert!(text.starts_with(" 5-point match, score 3-1 (X 2-away, O 4-away), cube 1 centred"), "{text}");
    assert!(text.contains("Cube decision at 0-ply: 5-point match"), "{text}");
}

#[test]
fn the_cube_options_override_the_position() {
    // The options of `gammon cube`: the same context as the XGID that carries it.
    let xgid = json(&["analyse", CRAWFORD_31, "--ply", "0", "--json"]);
    let options = json(&[
        "analyse",
        "start",
        "--dice",
        "31",
        "--ply",
        "0",
        "--json",
        "--match",
        "7",
        "--score",
        "5-6",
        "--crawford",
    ]);
    assert_eq!(xgid["context"], options["context"]);
    assert_eq!(equities(&xgid), equities(&options));
    let money = json(&["analyse", CRAWFORD_31, "--ply", "0", "--json", "--match", "0"]);
    assert_eq!(money["context"]["match_length"], 0);
    assert!(money["moves"][0].get("mwc").is_none(), "{money}");
}

#[test]
fn a_cube_owned_by_the_opponent_changes_the_cubeful_equities() {
    let centred = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10";
    let owned = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:31:0:0:0:0:10";
    let a = json(&["analyse", centred, "--ply", "0", "--json"]);
    let b = json(&["analyse", owned, "--ply", "0", "--json"]);
    assert_eq!((a["context"]["owner"].as_str(), b["context"]["owner"].as_str()), (Some("centre"), Some("opponent")));
    assert_eq!(b["context"]["cube"], 2);
    let (a, b) = (equities(&a), equities(&b));
    assert_eq!(a.len(), b.len());
    assert!(a.iter().all(|(m, e)| (e - b[m]).abs() > 1e-3), "{a:?}\n{b:?}");
    // The cubeless ranking knows no cube.
    let a = equities(&json(&["analyse", centred, "--ply", "0", "--json", "--cubeless"]));
    let b = equities(&json(&["analyse", owned, "--ply", "0", "--json", "--cubeless"]));
    assert_eq!(a, b);
}

#[test]
fn cubeful_json_has_the_context_and_each_move_in_its_units() {
    let v = json(&["analyse", CRAWFORD_31, "--ply", "1", "--json"]);
    assert_eq!(v["cubeful"], true);
    assert_eq!(
        (v["position"].as_str().unwrap().len(), v["dice"].as_str(), v["ply"].as_u64()),
        (14, Some("31"), Some(1))
    );
    assert!(v["evaluator"].is_string());
    let c = &v["context"];
    assert_eq!(
        (c["match_length"].as_u64(), c["cube"].as_u64(), c["owner"].as_str()),
        (Some(7), Some(1), Some("centre"))
    );
    assert_eq!((&c["score"], &c["away"]), (&serde_json::json!([5, 6]), &serde_json::json!([2, 1])));
    assert_eq!(
        (c["crawford"].as_bool(), c["post_crawford"].as_bool(), c["jacoby"].as_bool()),
        (Some(true), Some(false), Some(false))
    );
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 16);
    let best = float(&moves[0]["equity"]);
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m["rank"], i + 1);
        assert!(m["move"].is_string() && m["result"].as_str().unwrap().len() == 14, "{m}");
        assert!(m["ply"] == 1 || m["ply"] == 0, "{m}");
        let mwc = float(&m["mwc"]);
        assert!((0.0..=1.0).contains(&mwc), "{m}");
        assert!((best - float(&m["equity"]) - float(&m["loss"])).abs() < 1e-9, "{m}");
        // The cubeless equity is the money equity of the probabilities.
        let p = &m["probabilities"];
        assert!((float(&m["cubeless_equity"]) - float(&p["equity"])).abs() < 1e-6, "{m}");
        assert!(p["win"].is_number() && p["lose_backgammon"].is_number(), "{m}");
    }
    // Ranked best first; a better MWC is a better EMG.
    for w in moves.windows(2) {
        if w[0]["ply"] == w[1]["ply"] {
            assert!(float(&w[0]["equity"]) >= float(&w[1]["equity"]));
            assert!(float(&w[0]["mwc"]) >= float(&w[1]["mwc"]));
        }
    }
    // Money play: no `mwc`.
    let v = json(&["analyse", "start", "--dice", "31", "--ply", "0", "--json"]);
    assert_eq!((v["cubeful"].as_bool(), v["context"]["away"].is_null()), (Some(true), true));
    assert!(v["moves"].as_array().unwrap().iter().all(|m| m.get("mwc").is_none() && m["cubeless_equity"].is_number()));
}

#[test]
fn a_match_id_gives_its_context() {
    // gnubg's `PositionID:MatchID`: a 5-point match at 3-1, the player on roll 3.
    let text = ok(&["analyse", "4HPwATDgc/ABMA:MAGgADAACAAE", "--dice", "31", "--ply", "0"]);
    assert!(text.starts_with(" 5-point match, score 3-1 (X 2-away, O 4-away)"), "{text}");
    let v = json(&["analyse", "4HPwATDgc/ABMA:MAGgADAACAAE", "--dice", "31", "--ply", "0", "--json"]);
    let w = json(&["analyse", "start", "--dice", "31", "--ply", "0", "--json", "--match", "5", "--score", "3-1"]);
    assert_eq!(v["context"], w["context"]);
    assert_eq!(equities(&v), equities(&w));
    fails(&["analyse", "4HPwATDgc/ABMA:MAGgADAACAAX"], "cannot read Match ID");
}
