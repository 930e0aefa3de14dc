//! `gammon review FILE`: the text report, the `--json` schema and its
//! figures recomputed from its own records, thread-count determinism, the
//! same match as `.mat` and `.sgf`, the `--html` page, and refused input.
//! Reviews run at 0 plies (one at 1 ply) to keep the debug build fast.
#![allow(clippy::unwrap_used)]

use crate::{fails, gammon, ok};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A match file of this crate's tests.
fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name).to_str().unwrap().to_string()
}

/// A match file of the rules crate's tests.
fn rules_match(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gammon-rules/tests/data/matches")
        .join(name)
        .to_str()
        .unwrap()
        .to_string()
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-review-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The names written in `blunder.mat`.
const SCRIPT_NAME: &str = "<script>alert(1)</script>";
const BOB: &str = "Bob & \"Co\"";

fn review_json(file: &str, extra: &[&str]) -> Value {
    let mut args = vec!["review", file, "--ply", "0", "--cube-ply", "0", "--json"];
    args.extend_from_slice(extra);
    let out = gammon(&args);
    assert!(out.success(), "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

fn records(json: &Value) -> impl Iterator<Item = &Value> {
    json["games"].as_array().unwrap().iter().flat_map(|g| g["records"].as_array().unwrap())
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// gnubg 1.07's mark of an error (strict thresholds 0.03, 0.06, 0.12).
fn expected_mark(loss: f64) -> &'static str {
    if loss > 0.12 {
        "very_bad"
    } else if loss > 0.06 {
        "bad"
    } else if loss > 0.03 {
        "doubtful"
    } else {
        "none"
    }
}

#[test]
fn text_report_names_both_players_and_has_the_summary_rows() {
    let out = gammon(&["review", &data("blunder.mat"), "--ply", "0", "--cube-ply", "0"]);
    assert!(out.success(), "{}", out.stderr);
    let text = out.stdout;
    assert!(text.starts_with(&format!("{SCRIPT_NAME} vs {BOB}: 3-point match, 2 games")), "{text}");
    for row in [
        "Unforced moves",
        "Moves marked doubtful/bad/very bad",
        "Chequer error rate (mEMG)",
        "Close or actual cube decisions",
        "Cube errors doubtful/bad/very bad",
        "Cube error rate (mEMG)",
        "Overall error rate (mEMG)",
        "Snowie error rate (mEMG)",
        "PR (XG)",
        "Luck per roll (mEMG)",
        "Luck rating",
        "Rating",
    ] {
        assert!(text.lines().any(|l| l.starts_with(row)), "no row {row:?} in\n{text}");
    }
    assert!(text.contains("Game 1") && text.contains("Game 2"));
}

fn is_uint(v: &Value) -> bool {
    v.as_u64().is_some()
}

fn is_opt_f(v: &Value) -> bool {
    v.is_null() || v.is_f64() || v.is_i64() || v.is_u64()
}

fn check_record_fields(r: &Value, match_play: bool) {
    assert!(matches!(r["player"].as_u64(), Some(0 | 1)), "{r}");
    let action = r["action"].as_str().unwrap();
    assert!(["move", "double", "take", "drop", "beaver", "resign", "win"].contains(&action), "{r}");
    assert_eq!(r["position_id"].as_str().unwrap().len(), 14, "{r}");
    assert!(r["match_id"].is_string(), "{r}");
    for key in ["dice", "move", "forced", "best", "best_after", "equity_played", "equity_best", "loss", "mark", "luck"]
    {
        assert!(r.get(key).is_some(), "no {key} in {r}");
    }
    if action == "move" {
        let dice = r["dice"].as_str().unwrap();
        assert!(dice.len() == 2 && dice.chars().all(|c| ('1'..='6').contains(&c)), "{r}");
        assert!(r["move"].is_string() && r["forced"].is_boolean(), "{r}");
        assert!(r["luck"].is_number(), "{r}");
        if r["move"] != "" {
            assert!(r["best"].is_string() && r["best_after"].as_str().unwrap().len() == 14, "{r}");
            for key in ["equity_played", "equity_best", "loss"] {
                assert!(r[key].is_number(), "{key} in {r}");
            }
            assert_eq!(r["loss_mwc"].is_number(), match_play, "{r}");
            assert!(r["mark"].is_string(), "{r}");
        } else {
            assert_eq!(r["forced"], true, "a dance is forced: {r}");
        }
    } else {
        assert!(r["dice"].is_null() && r["move"].is_null() && r["loss"].is_null(), "{r}");
    }
    let cube = &r["cube"];
    if !cube.is_null() {
        for key in ["nd", "dt", "dp", "error"] {
            assert!(cube[key].is_number(), "{key} in {r}");
        }
        assert!(cube["proper"].is_string() && cube["close"].is_boolean() && cube["mark"].is_string(), "{r}");
    }
    if ["double", "take", "drop", "beaver"].contains(&action) {
        assert!(cube.is_object(), "every cube action is reviewed: {r}");
    }
}

fn check_summary_fields(s: &Value) {
    for key in ["chequer_error_rate", "cube_error_rate", "overall_error_rate", "snowie_error_rate", "pr", "luck_rate"] {
        assert!(s.get(key).is_some() && is_opt_f(&s[key]), "{key} in {s}");
    }
    assert!(is_uint(&s["unforced_moves"]) && is_uint(&s["close_cube_decisions"]), "{s}");
    for kind in ["moves", "cube"] {
        for mark in ["none", "doubtful", "bad", "very_bad"] {
            assert!(is_uint(&s["marks"][kind][mark]), "marks.{kind}.{mark} in {s}");
        }
    }
    assert!(s["rating"].is_string() || s["rating"].is_null(), "{s}");
}

#[test]
fn json_has_every_field_of_the_issue_with_its_type() {
    let json = review_json(&rules_match("three_point.mat"), &[]);
    assert_eq!(json["players"], serde_json::json!(["Alice", "Bob"]));
    assert_eq!(json["match_length"], 3);
    assert_eq!((&json["settings"]["ply"], &json["settings"]["cube_ply"]), (&Value::from(0), &Value::from(0)));
    let games = json["games"].as_array().unwrap();
    // The file: four games; Bob wins the first 2 points (a dropped
    // redouble), so the second is the Crawford game.
    assert_eq!(games.iter().map(|g| g["number"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert_eq!(games.iter().map(|g| g["crawford"].as_bool().unwrap()).collect::<Vec<_>>(), [false, true, false, false]);
    assert_eq!((&games[0]["winner"], &games[0]["points"]), (&Value::from(1), &Value::from(2)));
    assert_eq!(games[1]["score"], serde_json::json!([0, 2]));
    assert!(games[3]["winner"].is_null() && games[3]["points"].is_null(), "the last game is unfinished");
    let actions: Vec<&str> = records(&json).map(|r| r["action"].as_str().unwrap()).collect();
    for a in ["move", "double", "take", "drop", "resign"] {
        assert!(actions.contains(&a), "no {a} record in {actions:?}");
    }
    for r in records(&json) {
        check_record_fields(r, true);
    }
    let summary = json["summary"].as_array().unwrap();
    assert_eq!(summary.len(), 2);
    summary.iter().for_each(check_summary_fields);

    let money = review_json(&rules_match("money.mat"), &[]);
    assert_eq!(money["match_length"], 0);
    for r in records(&money) {
        check_record_fields(r, false);
        assert!(r["loss_mwc"].is_null(), "no MWC in money play: {r}");
    }
}

/// Every figure of the summary recomputed from the records.
fn check_consistency(json: &Value) {
    let summary = json["summary"].as_array().unwrap();
    let all: Vec<&Value> = records(json).collect();
    let moves_of_both = all.iter().filter(|r| r["action"] == "move").count() as f64;
    for r in &all {
        if r["action"] == "move" && r["move"] != "" {
            let (loss, best, played) = (f(&r["loss"]), f(&r["equity_best"]), f(&r["equity_played"]));
            assert!(loss >= 0.0 && close(loss, best - played), "{r}");
            let want = if r["forced"] == true { "none" } else { expected_mark(loss) };
            assert_eq!(r["mark"], want, "{r}");
            if r["loss_mwc"].is_number() {
                assert!(f(&r["loss_mwc"]) >= 0.0, "{r}");
            }
        }
        let cube = &r["cube"];
        if cube.is_object() {
            let error = f(&cube["error"]);
            assert!(error >= 0.0, "{r}");
            assert_eq!(cube["mark"], expected_mark(error), "{r}");
            if cube["close"] == false {
                assert_eq!(error, 0.0, "an error makes a decision close: {r}");
            }
        }
    }
    for (player, s) in summary.iter().enumerate() {
        let mine: Vec<&&Value> = all.iter().filter(|r| r["player"] == player).collect();
        let unforced: Vec<&&Value> =
            mine.iter().filter(|r| r["action"] == "move" && r["forced"] == false).copied().collect();
        assert_eq!(s["unforced_moves"], unforced.len(), "{s}");
        let chequer: f64 = unforced.iter().map(|r| f(&r["loss"])).sum();
        let cubes: Vec<&Value> = mine.iter().map(|r| &r["cube"]).filter(|c| c.is_object()).collect();
        let close_cubes: Vec<&&Value> = cubes.iter().filter(|c| c["close"] == true).collect();
        assert_eq!(s["close_cube_decisions"], close_cubes.len(), "{s}");
        let cube: f64 = cubes.iter().map(|c| f(&c["error"])).sum();
        let rate = |total: f64, n: usize| (n > 0).then(|| 1000.0 * total / n as f64);
        let check = |key: &str, want: Option<f64>| match want {
            Some(w) => assert!(close(f(&s[key]), w), "{key}: {} != {w}", s[key]),
            None => assert!(s[key].is_null(), "{key}: {}", s[key]),
        };
        check("chequer_error_rate", rate(chequer, unforced.len()));
        check("cube_error_rate", rate(cube, close_cubes.len()));
        let overall = rate(chequer + cube, unforced.len() + close_cubes.len());
        check("overall_error_rate", overall);
        check("pr", overall.map(|o| o / 2.0));
        check("snowie_error_rate", Some(1000.0 * (chequer + cube) / moves_of_both));
        let rolls: Vec<f64> = mine.iter().filter(|r| r["action"] == "move").map(|r| f(&r["luck"])).collect();
        let luck = rate(rolls.iter().sum(), rolls.len());
        check("luck_rate", luck);
        for mark in ["none", "doubtful", "bad", "very_bad"] {
            let moves = unforced.iter().filter(|r| r["mark"] == mark).count();
            assert_eq!(s["marks"]["moves"][mark], moves, "{mark}: {s}");
            let cube = close_cubes.iter().filter(|c| c["mark"] == mark).count();
            assert_eq!(s["marks"]["cube"][mark], cube, "{mark}: {s}");
        }
        // gnubg's rating of the overall rate per decision.
        let rating = overall.map(|o| match o / 1000.0 {
            e if e < 0.002 => "Supernatural",
            e if e < 0.005 => "World class",
            e if e < 0.008 => "Expert",
            e if e < 0.012 => "Advanced",
            e if e < 0.018 => "Intermediate",
            e if e < 0.026 => "Casual player",
            e if e < 0.035 => "Beginner",
            _ => "Awful!",
        });
        assert_eq!(s["rating"].as_str(), rating, "{s}");
        let luck_rating = luck.map(|l| match l / 1000.0 {
            r if r > 0.06 => "Go to Las Vegas",
            r if r > 0.03 => "Good dice, man!",
            r if r < -0.06 => "Go to bed",
            r if r < -0.03 => "Bad dice, man!",
            _ => "None",
        });
        assert_eq!(s["luck_rating"].as_str(), luck_rating, "{s}");
    }
}

#[test]
fn json_figures_follow_from_its_own_records() {
    for file in [data("blunder.mat"), rules_match("three_point.mat"), rules_match("money.sgf")] {
        check_consistency(&review_json(&file, &[]));
    }
    // The blunders of the file are found and marked.
    let json = review_json(&data("blunder.mat"), &[]);
    let marked = records(&json).filter(|r| r["mark"].as_str().is_some_and(|m| m != "none")).count();
    assert!(marked > 0, "24/23 24/18 for an opening 61 is an error");
    let cube_marked = records(&json).filter(|r| r["cube"]["mark"].as_str().is_some_and(|m| m != "none")).count();
    assert!(cube_marked >= 2, "a double on the second roll, passed: both wrong");
}

#[test]
fn one_ply_figures_follow_from_its_own_records() {
    // At 1 ply the move played is revalued at full depth: its loss must
    // still be the difference of the two equities written.
    let out = gammon(&["review", &data("blunder.mat"), "--ply", "1", "--cube-ply", "0", "--json"]);
    assert!(out.success(), "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["settings"]["ply"], 1);
    check_consistency(&json);
}

fn without_timing(mut v: Value) -> Value {
    let root = v.as_object_mut().unwrap();
    assert!(root.remove("elapsed_seconds").is_some() && root.remove("threads").is_some());
    v
}

#[test]
fn json_is_the_same_on_one_and_two_threads() {
    let file = rules_match("three_point.mat");
    let one = review_json(&file, &["--threads", "1"]);
    let two = review_json(&file, &["--threads", "2"]);
    assert_eq!((&one["threads"], &two["threads"]), (&Value::from(1), &Value::from(2)));
    assert_eq!(without_timing(one), without_timing(two));
}

/// The records without where they are in the file (lines, and move
/// numbers, which `.sgf` counts by node).
fn played_records(json: &Value) -> Vec<Vec<Value>> {
    json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g["records"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    let mut r = r.clone();
                    let o = r.as_object_mut().unwrap();
                    o.remove("line");
                    o.remove("move_number");
                    r
                })
                .collect()
        })
        .collect()
}

#[test]
fn mat_and_sgf_of_the_same_match_give_the_same_review() {
    let mat = review_json(&rules_match("three_point.mat"), &[]);
    let sgf = review_json(&rules_match("three_point.sgf"), &[]);
    assert_eq!(mat["players"], sgf["players"]);
    assert_eq!(mat["match_length"], sgf["match_length"]);
    assert_eq!(played_records(&mat), played_records(&sgf));
    assert_eq!(mat["summary"], sgf["summary"]);
}

#[test]
fn html_is_one_self_contained_page_with_names_escaped() {
    let dir = temp("html");
    let out_path = dir.join("report.html");
    let file = data("blunder.mat");
    let out = gammon(&["review", &file, "--ply", "0", "--cube-ply", "0", "--html", out_path.to_str().unwrap()]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.is_empty(), "the page goes to the file: {}", out.stdout);
    let html = std::fs::read_to_string(&out_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "the first name, escaped");
    assert!(html.contains("Bob &amp; &quot;Co&quot;"), "the second name, escaped");
    assert!(html.contains("&lt;b&gt;Club &amp; Cup&lt;/b&gt;"), "the Event header, escaped");
    assert!(!html.contains("<script") && !html.contains("<b>Club"), "nothing from the file is markup");
    assert!(!html.contains("http://") && !html.contains("https://"), "nothing is fetched");
    assert!(html.contains("viewBox") && html.contains("name=\"viewport\""));
    // One board per marked record, as the JSON marks them.
    let json = review_json(&file, &[]);
    let marked = records(&json)
        .filter(|r| {
            r["mark"].as_str().is_some_and(|m| m != "none") || r["cube"]["mark"].as_str().is_some_and(|m| m != "none")
        })
        .count();
    assert!(marked > 0);
    assert_eq!(html.matches("<svg").count(), marked);
    // The summary rows of the text report.
    for row in ["Unforced moves", "Chequer error rate (mEMG)", "Snowie error rate (mEMG)", "PR (XG)", "Luck rating"] {
        assert!(html.contains(&format!("<td>{row}</td>")), "no row {row}");
    }
    // Written through a temporary file and renamed: nothing else is left.
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, [std::ffi::OsString::from("report.html")]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn html_to_a_missing_folder_is_refused() {
    let dir = temp("html-missing");
    let target = dir.join("no-such-folder").join("report.html");
    let out =
        gammon(&["review", &data("blunder.mat"), "--ply", "0", "--cube-ply", "0", "--html", target.to_str().unwrap()]);
    assert!(!out.success());
    assert!(out.stderr.starts_with("error: ") && out.stderr.contains("no-such-folder"), "{}", out.stderr);
    assert!(!target.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_illegal_move_names_the_file_game_move_and_reason() {
    let file = rules_match("illegal.mat");
    let out = gammon(&["review", &file, "--ply", "0", "--cube-ply", "0"]);
    assert!(!out.success() && out.stdout.is_empty());
    let err = out.stderr;
    assert!(err.starts_with("error: "), "{err}");
    for part in [file.as_str(), "game 1", "move 2", "24/12", "blocked"] {
        assert!(err.contains(part), "no {part:?} in {err}");
    }
}

#[test]
fn keep_going_reviews_the_games_before_a_bad_one() {
    let file = data("second_game_illegal.mat");
    let refused = gammon(&["review", &file, "--ply", "0", "--cube-ply", "0", "--json"]);
    assert!(!refused.success() && refused.stderr.starts_with("error: "), "{}", refused.stderr);
    assert!(refused.stderr.contains("game 2"), "{}", refused.stderr);
    let out = gammon(&["review", &file, "--ply", "0", "--cube-ply", "0", "--json", "--keep-going"]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stderr.starts_with("warning: ") && out.stderr.contains(&file) && out.stderr.contains("game 2"));
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let games = json["games"].as_array().unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["number"], 1);
    assert_eq!(games[0]["records"].as_array().unwrap().iter().filter(|r| r["action"] == "move").count(), 1);
}

#[test]
fn unreadable_files_are_refused() {
    let dir = temp("refused");
    let empty = dir.join("empty.mat");
    std::fs::write(&empty, b"").unwrap();
    let binary = dir.join("binary.mat");
    std::fs::write(&binary, [0u8, 159, 146, 150, 255, 0, 1, 2]).unwrap();
    let missing = dir.join("missing.mat");
    for path in [&missing, &empty, &binary] {
        let p = path.to_str().unwrap();
        let out = gammon(&["review", p, "--ply", "0", "--cube-ply", "0"]);
        assert!(!out.success() && out.stdout.is_empty(), "{p}");
        assert!(out.stderr.starts_with("error: ") && out.stderr.contains(p), "{p}: {}", out.stderr);
    }
    // A folder is a batch of its match files: here none can be reviewed,
    // and each is named.
    let out = gammon(&["review", dir.to_str().unwrap(), "--ply", "0", "--cube-ply", "0"]);
    assert!(!out.success() && out.stdout.is_empty());
    for path in [&empty, &binary] {
        let p = path.to_str().unwrap();
        assert!(out.stderr.lines().any(|l| l.starts_with("error: ") && l.contains(p)), "{p}: {}", out.stderr);
    }
    assert!(out.stderr.contains("none of the 2 files could be reviewed"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn depths_beyond_three_plies_are_refused() {
    for flag in ["--ply", "--cube-ply"] {
        let out = gammon(&["review", &rules_match("money.mat"), flag, "4"]);
        assert!(!out.success() && out.stderr.starts_with("error: "), "{flag}: {}", out.stderr);
        assert!(out.stderr.contains(flag) && out.stderr.contains('4'), "{}", out.stderr);
    }
}

#[test]
fn html_onto_a_folder_is_refused_and_leaves_no_temporary_file() {
    let dir = temp("html-onto-folder");
    let target = dir.join("report");
    std::fs::create_dir(&target).unwrap();
    let out =
        gammon(&["review", &data("blunder.mat"), "--ply", "0", "--cube-ply", "0", "--html", target.to_str().unwrap()]);
    assert!(!out.success());
    assert!(out.stderr.starts_with("error: ") && out.stderr.contains("report"), "{}", out.stderr);
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, [std::ffi::OsString::from("report")], "the temporary file is removed");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn keys(v: &Value, out: &mut std::collections::BTreeSet<String>) {
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                out.insert(k.clone());
                keys(v, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| keys(v, out)),
        _ => {}
    }
}

#[test]
fn docs_review_md_documents_every_json_field() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/review.md");
    let doc = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut all = std::collections::BTreeSet::new();
    for file in [rules_match("three_point.mat"), rules_match("money.sgf"), data("blunder.mat")] {
        keys(&review_json(&file, &[]), &mut all);
    }
    assert!(all.len() > 50, "{all:?}");
    // Marks' and kinds' names are keys of `marks`; a name is documented
    // when it appears in backquotes.
    let missing: Vec<&String> = all.iter().filter(|k| !doc.contains(&format!("`{k}`"))).collect();
    assert!(missing.is_empty(), "docs/review.md does not name {missing:?}");
}

#[test]
fn a_match_review_names_its_match_equity_table() {
    let file = rules_match("three_point.mat");
    assert_eq!(review_json(&file, &[])["settings"]["met"], "Kazaross XG2 25 point MET");
    let table = crate::cube::long_table_file(30);
    let json = review_json(&file, &["--met", table.to_str().unwrap()]);
    assert_eq!(json["settings"]["met"], "Made-up 30");
    let text = gammon(&["review", &file, "--ply", "0", "--cube-ply", "0", "--met", table.to_str().unwrap()]);
    let words = text.stdout.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains(", match equity table Made-up 30"), "{words}");
    std::fs::remove_file(table).unwrap();
}

#[test]
fn many_files_end_with_a_table_per_player() {
    // A folder (the same match as .mat and .sgf: the same two players) and
    // a file: each file's review is the one-file
    // review's document, and the players' totals are the sums of their
    // one-file figures.
    let dir = temp("batch");
    for name in ["three_point.mat", "three_point.sgf"] {
        std::fs::copy(rules_match(name), dir.join(name)).unwrap();
    }
    std::fs::write(dir.join("notes.md"), "not a match file: skipped by its extension").unwrap();
    let money = rules_match("money.mat");
    let folder = dir.to_str().unwrap();
    let args = ["review", folder, &money, "--ply", "0", "--cube-ply", "0", "--json"];
    let out = gammon(&args);
    assert!(out.success(), "{}", out.stderr);
    let batch: Value = serde_json::from_str(&out.stdout).unwrap();
    let files = batch["files"].as_array().unwrap();
    let names: Vec<&str> = files.iter().map(|f| f["file"].as_str().unwrap()).collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names[0].ends_with("three_point.mat") && names[1].ends_with("three_point.sgf"), "{names:?}");
    assert_eq!(names[2], money);
    // Sums of the one-file reviews, by player name.
    let mut sums: Vec<(String, [f64; 5])> = Vec::new();
    for (entry, path) in files.iter().zip(&names) {
        let alone = review_json(path, &[]);
        let review = &entry["review"];
        assert_eq!(review["summary"], alone["summary"], "{path}");
        assert_eq!(review["games"], alone["games"], "{path}");
        for s in alone["summary"].as_array().unwrap() {
            let name = s["name"].as_str().unwrap().to_string();
            let figures = [
                f(&s["unforced_moves"]),
                f(&s["close_cube_decisions"]),
                f(&s["chequer_error_total"]),
                f(&s["cube_error_total"]),
                f(&s["luck_total"]),
            ];
            match sums.iter_mut().find(|(n, _)| *n == name) {
                Some((_, sum)) => sum.iter_mut().zip(figures).for_each(|(a, b)| *a += b),
                None => sums.push((name, figures)),
            }
        }
    }
    let players = batch["players"].as_array().unwrap();
    assert_eq!(players.len(), sums.len());
    for (p, (name, sum)) in players.iter().zip(&sums) {
        assert_eq!(p["name"], name.as_str());
        let got = [
            f(&p["unforced_moves"]),
            f(&p["close_cube_decisions"]),
            f(&p["chequer_error_total"]),
            f(&p["cube_error_total"]),
            f(&p["luck_total"]),
        ];
        for (g, s) in got.iter().zip(sum) {
            assert!(close(*g, *s), "{name}: {got:?} against {sum:?}");
        }
        let decisions = sum[0] + sum[1];
        if decisions > 0.0 {
            assert!(close(f(&p["pr"]), 500.0 * (sum[2] + sum[3]) / decisions), "{name}");
        }
    }
    // The text ends with the table: one row per player.
    let text = ok(&["review", folder, &money, "--ply", "0", "--cube-ply", "0"]);
    assert!(text.contains("Across 3 matches"), "{text}");
    for (name, _) in &sums {
        assert!(text.lines().any(|l| l.starts_with(name.as_str())), "{name}: {text}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_bad_file_among_many_is_named_and_the_others_reviewed() {
    let good = rules_match("three_point.mat");
    let bad = rules_match("illegal.mat");
    let out = gammon(&["review", &good, &bad, "--ply", "0", "--cube-ply", "0", "--json"]);
    assert!(!out.success());
    let batch: Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(batch["files"][0]["review"].is_object());
    assert!(batch["files"][1]["error"].as_str().unwrap().contains("line"), "{}", batch["files"][1]);
    assert!(out.stderr.lines().any(|l| l.starts_with("error: ") && l.contains("illegal.mat")), "{}", out.stderr);
    assert!(out.stderr.contains("1 of 2 files could not be reviewed"), "{}", out.stderr);
    fails(&["review", &good, &good, "--html", "/tmp/x.html"], "--html, --sgf and --ogxm write one match file's review");
    let empty = temp("empty");
    fails(&["review", empty.to_str().unwrap()], "no match file in");
    std::fs::remove_dir_all(empty).unwrap();
}

#[test]
fn an_xg_files_analysis_is_shown_beside_gammons() {
    let file = gammon_testkit::shared_dir().join("matches/xg/UL-CV6F9jMM-E1Pu.xg");
    let file = file.to_str().unwrap();
    let json = review_json(file, &[]);
    assert_eq!(json["stored_program"], "eXtreme Gammon");
    // Game 1, move 2 (Dunes_04, 41): XG's 3-ply analysis, stored in the
    // file, gives up 0.0475 (its own error of the play, as XG shows it).
    let game = &json["games"][0];
    let rec = game["records"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["move_number"] == 2 && r["player"] == 0 && r["action"] == "move")
        .unwrap();
    let xg = &rec["xg"];
    assert!((f(&xg["loss"]) - 0.0475).abs() < 0.0006, "{xg}");
    assert_eq!(xg["depth"], "3-ply");
    assert!(close(f(&xg["loss"]), f(&xg["equity_best"]) - f(&xg["equity_played"])));
    // Every move record XG analysed has its verdict; the summary its rates.
    let analysed = records(&json).filter(|r| r["xg"].is_object()).count();
    assert!(analysed > 150, "{analysed}");
    for s in json["summary"].as_array().unwrap() {
        let x = &s["xg"];
        let decisions = f(&x["moves"]) + f(&x["cube_decisions"]);
        assert!(decisions > 50.0, "{x}");
        let total = f(&x["chequer_error_total"]) + f(&x["cube_error_total"]);
        assert!(close(f(&x["pr"]), 500.0 * total / decisions), "{x}");
    }
    // The text names XG's verdict on the records it lists.
    let text = ok(&["review", file, "--ply", "0", "--cube-ply", "0"]);
    assert!(text.contains("XG: move lost 0.047 (3-ply)"), "{text}");
    assert!(text.contains("PR by XG"), "{text}");
    // The page too: the verdict on each error, two columns in each game's table.
    let dir = temp("xg-html");
    let page = dir.join("review.html");
    ok(&["review", file, "--ply", "0", "--cube-ply", "0", "--html", page.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<th>Loss by XG</th>") && html.contains("XG: move lost 0.047 (3-ply)"));
    std::fs::remove_dir_all(dir).unwrap();
}
