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
fn position_shows_ids_board_pips_and_context_in_every_form() {
    const XGID: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10";
    let out = gammon(&["position", XGID], None);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stdout.contains("5-point match, score 3-1"), "{}", out.stdout);
    assert!(out.stdout.contains("Position ID: 4HPwATDgc/ABMA") && out.stdout.contains("Pip counts: X 167, O 167"));
    assert!(out.stdout.contains(&format!("XGID: {XGID}")), "{}", out.stdout);
    let json = |args: &[&str]| -> serde_json::Value {
        let out = gammon(&[&["position"], args, &["--json"]].concat(), None);
        assert!(out.success(), "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    // The same position as a Match ID pair: the same IDs and context.
    let by_xgid = json(&[XGID]);
    assert_eq!(by_xgid["xgid"], XGID);
    assert_eq!(by_xgid["pips"], serde_json::json!([167, 167]));
    assert_eq!(by_xgid["dice"], "31");
    assert_eq!(by_xgid["context"]["match_length"], 5);
    let start = json(&["start", "--dice", "52"]);
    assert_eq!((start["position_id"].as_str(), start["dice"].as_str()), (Some("4HPwATDgc/ABMA"), Some("52")));
    let bad = gammon(&["position", "nonsense"], None);
    assert!(!bad.success() && bad.stderr.starts_with("error: ") && bad.stderr.lines().count() == 1, "{}", bad.stderr);
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

/// The limit of `--threads` as `--help` states it ("At most N.").
fn thread_limit(command: &[&str]) -> u64 {
    let help = gammon(&[command, &["--help"]].concat(), None).stdout;
    let at = help.find("At most ").unwrap_or_else(|| panic!("{command:?} --help states no thread limit:\n{help}"));
    let digits: String = help[at + 8..].chars().take_while(char::is_ascii_digit).collect();
    digits.parse().unwrap()
}

#[test]
fn too_many_threads_are_refused_before_any_work() {
    let limit = thread_limit(&["rollout"]);
    let every: [&[&str]; 10] = [
        &["duel"],
        &["distill"],
        &["train"],
        &["label", "sample"],
        &["label", "rollout"],
        &["fit"],
        &["review"],
        &["serve"],
        &["rollout"],
        &["benchmark"],
    ];
    for command in every {
        assert_eq!(thread_limit(command), limit, "{command:?}: one limit for every --threads");
    }
    let too_many = (limit + 1).to_string();
    for args in [
        vec!["rollout", "start", "--threads", "100000", "--games", "10"],
        vec!["rollout", "start", "--threads", &too_many, "--games", "10"],
        vec!["duel", "--a", "pubeval", "--b", "pubeval", "--games", "2", "--threads", "100000"],
        vec!["distill", "--from", "x", "--out", "y", "--threads", "0"],
        vec!["train", "--out", "y", "--threads", &too_many],
    ] {
        let out = gammon(&args, None);
        assert!(!out.success(), "{args:?} should fail");
        assert!(out.stderr.contains("invalid value") && out.stderr.contains("--threads"), "{args:?}: {}", out.stderr);
        assert!(out.stderr.contains(&format!("1..={limit}")), "{args:?} names the limit: {}", out.stderr);
    }
}

#[test]
fn stdin_mode_answers_a_line_of_invalid_utf8_and_goes_on() {
    let mut input = b"4HPwATDgc/ABMA 31\n".to_vec();
    input.extend(b"4HPwATDgc/ABMA \xff\xfe31\n");
    input.extend(b"4HPwATDgc/ABMA 31\r\n");
    let out = gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), &["moves", "--stdin"], &input);
    assert!(!out.success());
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", out.stdout);
    assert!(lines[1].starts_with("error: ") && lines[1].contains("UTF-8"), "{}", lines[1]);
    assert_eq!(lines[0], lines[2], "a CRLF line is read like an LF line");
    assert!(lines[0].contains("sGfwATDgc/ABMA"), "{}", lines[0]);
}

#[test]
fn stdin_mode_takes_the_positions_the_one_shot_mode_takes() {
    // `start`, a Position ID and an XGID carrying its own roll: each line is
    // answered with the results that `gammon moves <same> --json` lists.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10";
    let requests = [("start", Some("31")), ("4HPwATDgc/ABMA", Some("64")), (xgid, None)];
    let input: String = requests.iter().map(|(p, d)| format!("{p} {}\n", d.unwrap_or(""))).collect();
    let out = gammon(&["moves", "--stdin"], Some(&input));
    assert!(out.success(), "{}{}", out.stdout, out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), requests.len(), "{}", out.stdout);
    for ((position, dice), line) in requests.iter().zip(lines) {
        let mut args = vec!["moves", position];
        args.extend(dice.iter());
        args.push("--json");
        let one = gammon(&args, None);
        assert!(one.success(), "{}", one.stderr);
        let json: serde_json::Value = serde_json::from_str(&one.stdout).unwrap();
        let mut ids: Vec<&str> =
            json["moves"].as_array().unwrap().iter().map(|m| m["result"].as_str().unwrap()).collect();
        ids.sort_unstable();
        assert_eq!(line, ids.join(" "), "{position}");
    }
}

#[test]
fn stdin_mode_skips_a_line_too_long_and_goes_on() {
    let mut input = vec![b'x'; 1 << 20];
    input.extend(b"\n4HPwATDgc/ABMA 31\n");
    let out = gammon_testkit::run(env!("CARGO_BIN_EXE_gammon"), &["moves", "--stdin"], &input);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{}", out.stdout);
    assert!(lines[0].starts_with("error: line too long"), "{}", lines[0]);
    assert!(lines[1].contains("sGfwATDgc/ABMA"), "{}", lines[1]);
}

#[test]
fn a_finished_game_gets_one_answer_in_both_modes() {
    // X has borne off all 15 checkers.
    let finished = "AAAAAAAA/38AAA";
    let one_shot = gammon(&["moves", finished, "31"], None);
    assert!(!one_shot.success());
    let reason = one_shot.stderr.trim().strip_prefix("error: ").unwrap().to_string();
    assert!(reason.contains("over"), "{reason}");
    let out = gammon(&["moves", "--stdin"], Some(&format!("{finished} 31\n4HPwATDgc/ABMA 31\n")));
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], format!("error: {reason}"));
    assert!(lines[1].contains("sGfwATDgc/ABMA"));
}

/// A distill run that must be refused: non-zero, a message naming
/// `option`, and nothing written.
fn distill_refuses(option: &str, value: &str) {
    let out_dir = std::env::temp_dir().join(format!("gammon-distill-refused-{}-{option}-{value}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out_dir);
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let mut args = vec!["distill", "--from", weights, "--out", out_dir.to_str().unwrap()];
    args.extend(["--positions", "20", "--benchmark-pairs", "0", "--ply", "1"]);
    args.extend([option, value]);
    let out = gammon(&args, None);
    assert!(!out.success(), "{option} {value} should be refused");
    assert!(out.stderr.starts_with(&format!("error: distill: {option} must be")), "{option} {value}: {}", out.stderr);
    assert!(!out_dir.exists(), "{option} {value}: nothing is written");
}

#[test]
fn distill_refuses_numbers_out_of_range() {
    for rate in ["nan", "-1", "inf", "0"] {
        distill_refuses("--rate", rate);
    }
    distill_refuses("--epochs", "0");
    distill_refuses("--candidates", "0");
    distill_refuses("--rounds", "0");
}

/// A race: X (on roll) 70 pips, O 78.
const RACE: &str = "XGID=-----CCCB--------c-cccc---:0:0:1:00:0:0:0:0:10";

#[test]
fn text_output_fits_in_80_columns() {
    for args in [
        vec!["eval", "start"],
        vec!["eval", RACE],
        vec!["analyse", "start", "--dice", "31"],
        vec!["analyse", "start", "--ply", "1"],
        vec!["analyse", "start", "--dice", "31", "--ply", "1", "--verbose"],
        vec!["cube", "start"],
        vec!["cube", RACE],
        vec!["cube", RACE, "--beaver", "--jacoby"],
        vec!["cube", "start", "--match", "9", "--score", "2-4", "--cube", "2", "--owner", "me"],
        vec!["cube", RACE, "--match", "7", "--score", "5-6", "--ply", "1"],
        vec!["rollout", "start", "--games", "36"],
        vec!["rollout", "start", "--games", "36", "--dice", "31", "--truncate", "4"],
        vec!["rollout", "start", "--games", "36", "--dice", "31", "--truncate", "4", "--cubeful"],
    ] {
        let out = gammon(&args, None);
        assert!(out.success(), "{args:?}: {}", out.stderr);
        fits_in_80_columns(&args, &out.stdout);
    }
    // play's first line, a move hint and a cube hint.
    let args = ["play", "--seed", "3"];
    let out = gammon(&args, Some("hint\nquit\n"));
    assert!(out.stdout.contains("Hint") || out.stdout.contains("cube analysis"), "{}", out.stdout);
    fits_in_80_columns(&args, &out.stdout);
}

#[test]
fn the_full_evaluator_description_is_shown_only_with_verbose() {
    let verbose = gammon(&["analyse", "start", "--dice", "31", "--ply", "0", "--verbose"], None);
    assert!(verbose.success(), "{}", verbose.stderr);
    let at = verbose.stdout.find("Evaluator: ").unwrap_or_else(|| panic!("--verbose names it:\n{}", verbose.stdout));
    // The shipped net's description, more than a short name.
    let head: String = verbose.stdout[at + 11..].chars().take(30).collect();
    assert!(head.len() == 30 && head.contains(' '), "{head:?}");
    for args in [vec!["eval", "start"], vec!["analyse", "start", "--dice", "31", "--ply", "0"], vec!["cube", "start"]] {
        let out = gammon(&args, None);
        assert!(out.success(), "{args:?}: {}", out.stderr);
        assert!(!out.stdout.contains(&head), "{args:?} repeats the full description:\n{}", out.stdout);
    }
}

fn fits_in_80_columns(args: &[&str], stdout: &str) {
    for line in stdout.lines() {
        // Only a single word (an ID) may not fit.
        let one_word = !line.trim().contains(' ');
        assert!(line.chars().count() <= 80 || one_word, "{args:?}: {} columns:\n{line}", line.chars().count());
    }
}

/// The column after which each word of `line` ends.
fn word_ends(line: &str) -> Vec<usize> {
    let bytes = line.as_bytes();
    (0..bytes.len())
        .filter(|&i| bytes[i] != b' ' && bytes.get(i + 1).is_none_or(|&b| b == b' '))
        .map(|i| i + 1)
        .collect()
}

#[test]
fn eval_headings_line_up_with_their_numbers() {
    for position in ["start", RACE] {
        let out = gammon(&["eval", position], None);
        assert!(out.success(), "{}", out.stderr);
        let lines: Vec<&str> = out.stdout.lines().collect();
        let at = lines.iter().position(|l| l.trim_start().starts_with("win ")).unwrap();
        let headings = word_ends(lines[at]);
        for row in &lines[at + 1..at + 3] {
            assert!(row.ends_with('%'), "{row}");
            let ends = word_ends(row);
            // The row's last words are the numbers, one under each heading.
            assert_eq!(headings, ends[ends.len() - headings.len()..], "{position}:\n{}\n{row}", lines[at]);
        }
    }
}

#[test]
fn an_impossible_xgid_says_why_once() {
    let too_many = "XGID=-OA-----------------------:0:0:1:00:0:0:0:0:10";
    let past_the_end = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:0:0:3:10";
    for (xgid, kind, reason) in [
        (too_many, "impossible board", "16 checkers"),
        (past_the_end, "inconsistent game context", "3 points in a 3-point match"),
    ] {
        for command in ["eval", "cube"] {
            let out = gammon(&[command, xgid], None);
            assert!(!out.success(), "{command} {xgid}");
            let err = out.stderr;
            assert!(err.starts_with("error: ") && err.lines().count() == 1, "{err}");
            assert_eq!(err.matches(kind).count(), 1, "{err}");
            assert_eq!(err.matches(reason).count(), 1, "{err}");
        }
    }
}
