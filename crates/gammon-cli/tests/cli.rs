//! The `gammon` binary end to end.
#![allow(clippy::unwrap_used)]

use gammon_testkit::{read_oracle, MovegenFull, Output};

fn gammon(args: &[&str], stdin: Option<&str>) -> Output {
    gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), args, stdin.unwrap_or("").as_bytes())
}

fn movegen_full() -> Vec<MovegenFull> {
    read_oracle("movegen_full.jsonl")
}

#[test]
fn moves_start_31_lists_the_16_plays() {
    let out = gammon(&["moves", "start", "31"], None);
    assert!(out.success(), "{}", out.stderr);
    let stdout = out.stdout;
    assert!(stdout.contains("16 legal moves"), "{stdout}");
    assert!(stdout.contains("8/5 6/5"));
    assert!(stdout.contains("sGfwATDgc/ABMA"));
    assert!(stdout.contains("Position ID: 4HPwATDgc/ABMA"));
}

#[test]
fn moves_json_matches_the_oracle() {
    let record = &movegen_full()[5];
    let roll = format!("{}{}", record.dice[0], record.dice[1]);
    let out = gammon(&["moves", &record.pos, &roll, "--json"], None);
    assert!(out.success(), "{}", out.stderr);
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let mut ids: Vec<&str> = json["moves"].as_array().unwrap().iter().map(|m| m["result"].as_str().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, record.moves);
}

#[test]
fn moves_accepts_an_xgid_with_its_dice() {
    let out = gammon(&["moves", "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10"], None);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("16 legal moves"));
}

#[test]
fn stdin_mode_answers_each_line_like_the_oracle() {
    let records = movegen_full();
    let sample: Vec<&MovegenFull> = records.iter().step_by(7).collect();
    let mut input = String::new();
    for r in &sample {
        input.push_str(&format!("{} {}{}\n", r.pos, r.dice[0], r.dice[1]));
    }
    let out = gammon(&["moves", "--stdin"], Some(&input));
    assert!(out.success(), "{}", out.stderr);
    let stdout = out.stdout;
    let lines: Vec<&str> = stdout.split('\n').collect();
    assert_eq!(lines.len(), sample.len() + 1, "one line per request");
    for (line, r) in lines.iter().zip(&sample) {
        assert_eq!(*line, r.moves.join(" "));
    }
}

#[test]
fn stdin_mode_reports_bad_lines_and_goes_on() {
    let out = gammon(
        &["moves", "--stdin"],
        Some("4HPwATDgc/ABMA 31\nnot-an-id 31\n4HPwATDgc/ABMA 71\n\n4HPwATDgc/ABMA 66\n"),
    );
    assert!(!out.success());
    let stdout = out.stdout;
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(lines[0].starts_with("sGfwATDgc/ABMA ") || lines[0].contains("sGfwATDgc/ABMA"));
    assert!(lines[1].starts_with("error: "), "{}", lines[1]);
    assert!(lines[2].starts_with("error: ") && lines[2].contains('7'), "{}", lines[2]);
    assert!(lines[3].starts_with("error: "));
    assert!(!lines[4].starts_with("error"));
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for args in [
        vec!["moves", "4HPwATDgc/ABM", "31"],
        vec!["moves", "start", "3"],
        vec!["moves", "start", "07"],
        vec!["moves", "start"],
        vec!["moves", "XGID=garbage:0:0"],
        vec!["moves", "//////////////", "31"],
        vec!["moves", "start", "31", "--bogus"],
        vec!["frobnicate"],
    ] {
        let out = gammon(&args, None);
        assert!(!out.success(), "{args:?} should fail");
        let stderr = out.stderr;
        assert!(stderr.contains("error"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
}

#[test]
fn no_legal_move_is_said_plainly() {
    // Two on the bar against a closed board.
    let out = gammon(&["moves", "27YBAAA8Dz4ADA", "65"], None);
    assert!(out.success());
    assert!(out.stdout.contains("No legal move"));
}
