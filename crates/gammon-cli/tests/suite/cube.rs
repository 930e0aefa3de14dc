//! `gammon cube` end to end.
#![allow(clippy::unwrap_used)]

use crate::{fails, gammon};
use gammon_engine::cube::{analyse_position, analyse_position_nply, CubeAction};
use gammon_engine::met::Met;
use gammon_engine::search::Search;
use gammon_eval::NetEvaluator;
use gammon_rules::{CubeOwner, GameContext, Position};
use gammon_testkit::{read_oracle, CubeMatch};
use serde_json::{json, Value};

fn ok_json(args: &[&str]) -> Value {
    let mut all = args.to_vec();
    all.push("--json");
    let out = gammon(&all);
    assert!(out.success(), "{}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// A race: X (on roll) 70 pips, O 78: a clear double.
const RACE: &str = "XGID=-----CCCB--------c-cccc---:0:0:1:00:0:0:0:0:10";

#[test]
fn prints_the_decision_table_like_gnubg() {
    let out = gammon(&["cube", "start"]);
    assert!(out.success(), "{}", out.stderr);
    let text = out.stdout;
    for wanted in [
        "Money game, cube 1 centred",
        "Cubeful equities (searched 2 plies):",
        "1. No double",
        "Double, pass        +1.000",
        "Proper cube action: No double, take",
        "Take point:",
        "Position ID: 4HPwATDgc/ABMA",
        "Cube analysis (2 ply, contact net)",
        "2-ply cubeless equity",
    ] {
        assert!(text.contains(wanted), "{wanted:?} missing from\n{text}");
    }
}

#[test]
fn json_agrees_with_the_engine() {
    // The default: gnubg's 2-ply cubeful search.
    let json = ok_json(&["cube", RACE]);
    assert_eq!(json["ply"], 2);
    let xgid = gammon_rules::Xgid::parse(RACE).unwrap();
    let search = Search::new(NetEvaluator::shipped().unwrap());
    let a = analyse_position_nply(&search, &xgid.position, &xgid.context, Met::kazaross_xg2(), 2).unwrap();
    assert_eq!(json["action"], a.action.as_str());
    assert_eq!(json["action_code"], u64::from(a.action.code()));
    assert!((json["no_double"].as_f64().unwrap() - a.no_double).abs() < 1e-12);
    assert!((json["double_take"].as_f64().unwrap() - a.double_take).abs() < 1e-12);
    assert_eq!(json["double_pass"], 1.0);
    assert_eq!(json["class"], "race net");
    assert!(json["take_point"]["model"].as_f64().unwrap() > 0.15);
    assert!(json["explanation"].as_str().unwrap().contains("Take point"));
    assert!(a.action.doubles(), "a big race lead is a double: {}", a.action);
}

#[test]
fn match_play_shows_match_winning_chances() {
    let json = ok_json(&["cube", RACE, "--match", "5", "--score", "3-1"]);
    assert_eq!(json["settings"]["match_length"], 5);
    assert_eq!(json["settings"]["away"], serde_json::json!([2, 4]));
    let mwc = &json["mwc"];
    // Double/pass: X wins 1 point, 1-away vs 4-away (the Crawford game).
    assert_eq!(mwc["double_pass"].as_f64().unwrap(), Met::kazaross_xg2().mwc(1, 4));
    assert!(json["gammon_prices"]["my_gammon"].as_f64().unwrap() > 1.0);
    let out = gammon(&["cube", RACE, "--match", "5", "--score", "3-1"]);
    let text = out.stdout;
    assert!(text.contains("5-point match, score X 3 - O 1 (X 2-away, O 4-away)"), "{text}");
    assert!(text.contains('%'));
}

#[test]
fn an_xgid_carries_cube_score_and_rules_and_flags_override_it() {
    // 5-point match, X (bottom, on roll) 3, O 1, cube 2 owned by X.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:3:1:0:5:10";
    let json = ok_json(&["cube", xgid]);
    let s = &json["settings"];
    assert_eq!((s["match_length"].as_u64(), s["cube"].as_u64(), s["owner"].as_str()), (Some(5), Some(2), Some("me")));
    assert_eq!(s["away"], serde_json::json!([2, 4]));
    // X needs 2 with the cube on 2: his cube is dead.
    assert_eq!(json["action"], "Never redouble, take (dead cube)");
    assert_eq!(json["can_double"], false);
    // Flags win over the XGID.
    let json = ok_json(&["cube", xgid, "--match", "7", "--score", "2-4", "--cube", "1", "--owner", "centre"]);
    let s = &json["settings"];
    assert_eq!((s["match_length"].as_u64(), s["cube"].as_u64()), (Some(7), Some(1)));
    assert_eq!(s["away"], serde_json::json!([5, 3]));
    assert_eq!(json["can_double"], true);
    // Money rules from an XGID: Jacoby and beavers (rules field 3).
    let json = ok_json(&["cube", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10"]);
    assert_eq!((json["settings"]["jacoby"].as_bool(), json["settings"]["beaver"].as_bool()), (Some(true), Some(true)));
    let json = ok_json(&["cube", "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:3:0:10", "--no-jacoby"]);
    assert_eq!(json["settings"]["jacoby"], false);
}

#[test]
fn crawford_and_post_crawford() {
    let crawford = ok_json(&["cube", RACE, "--match", "5", "--score", "4-2", "--crawford"]);
    assert_eq!(crawford["action"], CubeAction::NeverDoubleDeadCube.as_str());
    assert_eq!(crawford["action_code"], 13);
    assert!(crawford["explanation"].as_str().unwrap().contains("Crawford game"));
    // The same score from an XGID (rules field 1 = Crawford).
    let x = ok_json(&["cube", "XGID=-----CCCB--------c-cccc---:0:0:1:00:4:2:1:5:10"]);
    assert_eq!(x["action"], crawford["action"]);
    // After the Crawford game the trailer may double, the leader may not.
    let trailer = ok_json(&["cube", RACE, "--match", "5", "--score", "2-4"]);
    assert_eq!(trailer["settings"]["post_crawford"], true);
    assert_eq!(trailer["can_double"], true);
    let leader = ok_json(&["cube", RACE, "--match", "5", "--score", "4-2"]);
    assert_eq!(leader["can_double"], false);
    assert_eq!(leader["action"], "Never double, take (dead cube)");
}

#[test]
fn jacoby_and_beaver_options() {
    let plain = ok_json(&["cube", "start"]);
    let jacoby = ok_json(&["cube", "start", "--jacoby"]);
    assert_eq!(jacoby["settings"]["jacoby"], true);
    assert_eq!(jacoby["gammon_prices"]["my_gammon"], 0.0);
    assert!(jacoby["no_double"].as_f64().unwrap() != plain["no_double"].as_f64().unwrap());
    assert_eq!(jacoby["double_take"], plain["double_take"]);
    let beaver = ok_json(&["cube", "start", "--beaver"]);
    assert_eq!(beaver["response"], "beaver");
    assert_eq!(beaver["action"], "No double, beaver");
    let dt = beaver["double_take"].as_f64().unwrap();
    assert_eq!(beaver["beaver_equity"].as_f64().unwrap(), 2.0 * dt);
}

#[test]
fn owned_cubes_redouble() {
    let me = ok_json(&["cube", RACE, "--cube", "2", "--owner", "me"]);
    assert!(me["action"].as_str().unwrap().contains("edouble"), "{}", me["action"]);
    assert_eq!(me["best_points"].as_f64().unwrap(), 2.0 * me["best"].as_f64().unwrap());
}

#[test]
fn errors_are_clear() {
    fails(&["cube", "start", "--match", "5", "--score", "5-2"], "below the match length");
    fails(&["cube", "start", "--match", "5", "--score", "2-2", "--crawford"], "Crawford");
    fails(&["cube", "start", "--cube", "2", "--owner", "opponent"], "cannot double: O owns the 2-cube");
    fails(&["cube", "start", "--ply", "4"], "--ply");
    fails(&["cube", "start", "--match", "31"], "match equity table");
    fails(&["cube", "start", "--cube", "3", "--owner", "me"], "power of two");
    fails(&["cube", "start", "--cube", "2"], "--owner");
    fails(&["cube", "start", "--owner", "bob"], "`me`, `opponent` or `centre`");
    fails(&["cube", "start", "--score", "2:4", "--match", "5"], "2-4");
    fails(&["cube", "start", "--match", "5", "--jacoby"], "Jacoby");
    fails(&["cube", "nonsense"], "Position ID");
    fails(&["cube", "AAAAAAAA/38AAA"], "game is over");
}

#[test]
fn ply_zero_is_accepted_and_dice_are_noted() {
    let json = ok_json(&["cube", "start", "--ply", "0"]);
    assert_eq!(json["ply"], 0);
    // 0 plies: the static evaluation fed to Janowski's model.
    let net = NetEvaluator::shipped().unwrap();
    let a = analyse_position(&net, &Position::STARTING, &GameContext::money(), Met::kazaross_xg2()).unwrap();
    assert_eq!(json["no_double"].as_f64().unwrap(), a.no_double);
    assert_eq!(json["double_take"].as_f64().unwrap(), a.double_take);
    assert_eq!(json["action"], a.action.as_str());
    let json = ok_json(&["cube", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"]);
    assert!(json["notes"][0].as_str().unwrap().contains("dice"), "{}", json["notes"]);
}

#[test]
fn oracle_positions_run_in_every_setting() {
    // Every oracle cube position at every oracle score: the command answers
    // and its verdict is the engine's.
    let net = NetEvaluator::shipped().unwrap();
    for r in read_oracle::<CubeMatch>("cube_match.jsonl").iter().step_by(37) {
        let pos = r.pos.as_str();
        let score = format!("{}-{}", r.score[0], r.score[1]);
        let mut args = vec!["cube", pos, "--match", "5", "--score", &score, "--ply", "0"];
        if r.crawford {
            args.push("--crawford");
        }
        let json = ok_json(&args);
        let mut ctx = GameContext::new_match(5);
        ctx.score = (r.score[0], r.score[1]);
        ctx.crawford = r.crawford;
        ctx.cube_owner = CubeOwner::Centered;
        let a = analyse_position(&net, &Position::from_position_id(pos).unwrap(), &ctx, Met::kazaross_xg2()).unwrap();
        assert_eq!(json["action"], a.action.as_str(), "{pos} {score}");
    }
}

#[test]
fn every_depth_answers_and_deeper_is_not_the_same_as_0_ply() {
    let mut equities = Vec::new();
    for ply in ["0", "1", "2"] {
        let json = ok_json(&["cube", "start", "--ply", ply]);
        assert_eq!(json["ply"].as_u64().unwrap().to_string(), ply);
        assert_eq!(json["action"], "No double, take", "{ply} ply");
        equities.push(json["no_double"].as_f64().unwrap());
        let text = gammon(&["cube", "start", "--ply", ply]).stdout;
        assert!(text.contains(&format!("Cube analysis ({ply} ply")), "{text}");
        if ply != "0" {
            assert!(text.contains(&format!("searched {ply} plies")), "{text}");
        }
    }
    assert!(equities[0] != equities[1] && equities[1] != equities[2], "{equities:?}");
}

#[test]
fn clear_decisions_at_2_ply() {
    // A big race lead: double, pass.
    assert_eq!(ok_json(&["cube", RACE])["action"], "Double, pass");
    // Three O checkers on the bar against a closed board: too good.
    let too_good = ok_json(&["cube", "XGID=cBBBBBB------------dd---d-:0:0:1:00:0:0:0:0:10"]);
    assert_eq!(too_good["action"], "Too good to double, pass");
    assert!(too_good["no_double"].as_f64().unwrap() > 1.0);
    // Redouble, match play, Crawford, dead cubes at 2 plies too.
    assert_eq!(ok_json(&["cube", RACE, "--cube", "2", "--owner", "me"])["action"], "Redouble, pass");
    let crawford = ok_json(&["cube", RACE, "--match", "5", "--score", "4-2", "--crawford"]);
    assert_eq!(crawford["action"], CubeAction::NeverDoubleDeadCube.as_str());
    let trailer = ok_json(&["cube", RACE, "--match", "5", "--score", "2-4"]);
    assert_eq!(trailer["doubles"], true);
    // A Crawford game's cube is dead at every depth: no double is the match
    // winning chances of the cubeless 2-ply evaluation.
    let met = Met::kazaross_xg2();
    let cubeless = crawford["mwc"]["cubeless"].as_f64().unwrap();
    assert!((crawford["mwc"]["no_double"].as_f64().unwrap() - cubeless).abs() < 1e-5, "{crawford}");
    assert!(cubeless > met.mwc_at((1, 3), true));
}

#[test]
fn match_options_without_a_match_are_refused() {
    fails(&["cube", "start", "--score", "2-4"], "error: --score needs --match");
    fails(&["cube", "start", "--crawford"], "error: --crawford needs --match");
    fails(&["cube", "start", "--match", "0", "--score", "1-0"], "error: --score needs --match");
}

#[test]
fn the_crawford_game_needs_exactly_one_player_one_away() {
    fails(&["cube", "start", "--match", "7", "--score", "6-6", "--crawford"], "error: --crawford: ");
    fails(&["cube", "start", "--match", "7", "--score", "2-4", "--crawford"], "error: --crawford: ");
    fails(&["cube", "start", "--match", "7", "--score", "7-4"], "error: --score: ");
    // The Crawford flag of an XGID (3-4 in a 5-point match) under --match 7:
    // the error blames the position, not an option that was never typed.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:4:1:5:10";
    fails(&["cube", xgid, "--match", "7"], "error: the position's game context: ");
    let ok = gammon(&["cube", "start", "--match", "7", "--score", "6-4", "--crawford", "--ply", "0"]);
    assert!(ok.success(), "{}", ok.stderr);
    assert!(ok.stdout.contains("Crawford game"), "{}", ok.stdout);
}

#[test]
fn a_cube_that_is_not_a_power_of_two_is_told_so_before_its_owner() {
    for args in [["cube", "start", "--cube", "3"], ["cube", "start", "--cube", "0"]] {
        let out = gammon(&args);
        assert!(!out.success());
        assert!(
            out.stderr.starts_with("error: --cube: ") && out.stderr.contains("power of two"),
            "{args:?}: {}",
            out.stderr
        );
        assert!(!out.stderr.contains("--owner"), "{args:?}: {}", out.stderr);
    }
}

#[test]
fn a_score_matrix_is_cube_at_every_score() {
    // X owns a 2-cube; the XGID's own money context is set aside.
    const OWNED: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:0:0:10";
    let matrix = ok_json(&["cube", OWNED, "--matrix", "3", "--ply", "1"]);
    assert_eq!((matrix["match_length"].as_u64(), matrix["ply"].as_u64()), (Some(3), Some(1)));
    let entries = matrix["matrix"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    for (entry, (a, b)) in entries.iter().zip([(2, 2), (2, 3), (3, 2), (3, 3)]) {
        let score = format!("{}-{}", 3 - a, 3 - b);
        let mut one = ok_json(&["cube", OWNED, "--match", "3", "--score", &score, "--ply", "1"]);
        one.as_object_mut().unwrap().remove("schema_version");
        assert_eq!(entry, &one, "{a}-away {b}-away");
        assert_eq!((entry["settings"]["cube"].as_u64(), entry["settings"]["owner"].as_str()), (Some(2), Some("me")));
    }
    let text = gammon(&["cube", OWNED, "--matrix", "4", "--ply", "0"]);
    assert!(text.success(), "{}", text.stderr);
    let grid: Vec<&str> = text.stdout.lines().skip_while(|l| !l.trim_start().starts_with("2-away")).collect();
    assert_eq!(grid.len(), 4, "{}", text.stdout);
    assert!(grid[1].trim_start().starts_with("2-away") && grid[3].trim_start().starts_with("4-away"), "{grid:?}");
    let words = text.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("cube 2 owned by X, table Kazaross XG2 25 point MET"), "{words}");
    // X owns the 2-cube: at 2-away winning it wins the match, a dead cube.
    assert_eq!(grid[1].split_whitespace().collect::<Vec<_>>(), ["2-away", "DC", "DC", "DC"]);
    fails(&["cube", "start", "--matrix", "1"], "a score matrix needs a match of 2 points or more");
    fails(&["cube", "start", "--matrix", "26"], "covers matches up to 25 points");
    fails(&["cube", "start", "--matrix", "5", "--score", "1-2"], "cannot be used with");
    fails(&["cube", "start", "--matrix", "5", "--cube", "2", "--owner", "opponent"], "opponent owns the 2-cube");
}

/// An explicit gnubg-format table of `n` points (made-up numbers) in a file.
pub(crate) fn long_table_file(n: u32) -> std::path::PathBuf {
    let me = |a: u32, b: u32| 0.5 + (f64::from(b) - f64::from(a)) / (4.0 * f64::from(n));
    let row = |a: u32, to: u32| (1..=to).map(|b| format!("<me>{}</me>", me(a, b))).collect::<String>();
    let pre: String = (1..=n).map(|a| format!("<row>{}</row>", row(a, n))).collect();
    let post: String = (1..=n).map(|a| format!("<me>{}</me>", me(a, 0).min(0.5))).collect();
    let path = std::env::temp_dir().join(format!("gammon-cli-met-{n}-{}.xml", std::process::id()));
    let text = format!(
        "<?xml version=\"1.0\"?><met><info><name>Made-up {n}</name><description/><length>{n}</length></info>\
         <pre-crawford-table type=\"explicit\">{pre}</pre-crawford-table>\
         <post-crawford-table type=\"explicit\" player=\"both\"><row>{post}</row></post-crawford-table></met>"
    );
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_match_equity_table_file_is_named_and_covers_its_matches() {
    let table = long_table_file(40);
    let path = table.to_str().unwrap();
    let json = ok_json(&["cube", RACE, "--match", "33", "--score", "1-0", "--ply", "0", "--met", path]);
    assert_eq!((&json["settings"]["met"], &json["settings"]["away"]), (&json!("Made-up 40"), &json!([32, 33])));
    fails(&["cube", RACE, "--match", "33", "--ply", "0"], "covers matches up to 25 points");
    // Money play uses no table: none is named.
    assert_eq!(ok_json(&["cube", RACE, "--ply", "0", "--met", path])["settings"].get("met"), None);
    let analysed = ok_json(&["analyse", RACE, "--match", "33", "--dice", "31", "--ply", "0", "--met", path]);
    assert_eq!(analysed["context"]["met"], "Made-up 40");
    fails(&["cube", "start", "--met", "/no/such/met.xml"], "match equity table: cannot read /no/such/met.xml: ");
    let text = gammon(&["cube", "start", "--met", "/no/such/met.xml"]);
    assert_eq!(text.stderr.lines().count(), 1, "{}", text.stderr);
    std::fs::remove_file(table).unwrap();
}
