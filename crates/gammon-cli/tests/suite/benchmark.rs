//! `gammon benchmark` end to end: a yardstick TSV and a dataset measured,
//! the figures of labels equal to the net's own evaluation, the JSON, the
//! figures independent of the threads, and bad files refused with one error
//! line.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Positions of several kinds: the opening, a middle game, a back game of
/// the yardstick, a blitz (a checker on the bar against a 4-point board,
/// two more loose in it), a race and a bearoff.
const POSITIONS: [&str; 6] =
    ["4HPwATDgc/ABMA", "sGfwATDgc/ABMA", "7W4AABux27YAAA", "4Dn4AFJmO4MHAA", "8OHzAQDg8/kAAA", "AwAAEAEAAAAAAA"];

/// The net's own 0-ply evaluation of `id`, as `gammon eval --json` prints it.
fn own_label(id: &str) -> [f64; 5] {
    let out = gammon(&["eval", id, "--json"]);
    assert!(out.success(), "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).unwrap();
    ["win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon"].map(|k| j[k].as_f64().unwrap())
}

fn tsv(labels: &[(&str, [f64; 5])]) -> String {
    labels.iter().map(|(id, [a, b, c, d, e])| format!("{id}\t{a} {b} {c} {d} {e}\n")).collect()
}

#[test]
fn the_nets_own_values_measure_zero_and_a_shift_its_size() {
    let dir = temp("benchmark-own");
    let own: Vec<(&str, [f64; 5])> = POSITIONS.iter().map(|id| (*id, own_label(id))).collect();
    let own_file = dir.join("own.tsv");
    std::fs::write(&own_file, tsv(&own)).unwrap();
    // The same labels 0.02 less likely to win: the net's equity is 0.04 too high.
    let shifted: Vec<(&str, [f64; 5])> =
        own.iter().map(|(id, l)| (*id, [l[0] - 0.02, l[1], l[2], l[3], l[4]])).collect();
    let shifted_file = dir.join("shifted.txt");
    std::fs::write(&shifted_file, tsv(&shifted)).unwrap();

    let out = gammon(&["benchmark", path(&own_file), path(&shifted_file), "--json"]);
    assert!(out.success(), "{}", out.stderr);
    let j: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(j["ply"], 0);
    assert_eq!(j["weights"], Value::Null);
    let files = j["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    let (a, b) = (&files[0], &files[1]);
    assert_eq!((a["format"].as_str(), a["positions"].as_u64()), (Some("tsv"), Some(6)));
    assert!(a["file"].as_str().unwrap().ends_with("own.tsv"));
    // The printed digits of an f32 are not the f32 itself: within 1e-6.
    assert!(a["equity"]["mean_abs_error"].as_f64().unwrap() < 1e-6, "{a}");
    assert!((b["equity"]["mean_abs_error"].as_f64().unwrap() - 0.04).abs() < 1e-6, "{b}");
    assert!((b["equity"]["bias"].as_f64().unwrap() - 0.04).abs() < 1e-6, "{b}");
    assert!((b["outputs"]["win"]["bias"].as_f64().unwrap() - 0.02).abs() < 1e-6, "{b}");
    assert!(b["outputs"]["lose_gammon"]["mean_abs_error"].as_f64().unwrap() < 1e-6, "{b}");
    // Every class and kind is there, and they count every position once.
    let total = &j["total"];
    assert_eq!(total["positions"], 12);
    for (group, keys) in [
        ("by_class", &["contact", "crashed", "race", "bearoff", "finished"][..]),
        ("by_kind", &["race", "back_game", "blitz", "prime", "holding", "other"][..]),
    ] {
        let map = total[group].as_object().unwrap();
        let mut expected = keys.to_vec();
        expected.sort_unstable();
        assert_eq!(map.keys().map(String::as_str).collect::<Vec<_>>(), expected, "{group}");
        let counted: u64 = map.values().map(|g| g["positions"].as_u64().unwrap()).sum();
        assert_eq!(counted, 12, "{group}");
    }
    assert_eq!(total["by_class"]["bearoff"]["positions"], 2);
    assert_eq!(total["by_class"]["race"]["positions"], 2);
    assert_eq!(total["by_kind"]["race"]["positions"], 4);
    assert_eq!(total["by_kind"]["back_game"]["positions"], 2);
    assert_eq!(total["by_kind"]["blitz"]["positions"], 2);
    assert_eq!(total["by_kind"]["other"]["positions"], 4);
    assert_eq!(total["by_kind"]["prime"]["positions"], 0);
    assert_eq!(total["by_kind"]["prime"]["mean_abs_error"], Value::Null);

    // The text: per file, the total, the groups with positions.
    let text = gammon(&["benchmark", path(&own_file), path(&shifted_file)]);
    assert!(text.success(), "{}", text.stderr);
    assert!(text.stdout.contains("own.tsv: 6 positions (yardstick TSV)"), "{}", text.stdout);
    assert!(text.stdout.contains("total: 12 positions in 2 files"), "{}", text.stdout);
    let shifted_part = &text.stdout[text.stdout.find("shifted.txt").unwrap()..];
    assert!(
        shifted_part.lines().any(|l| l.split_whitespace().collect::<Vec<_>>() == ["equity", "6", "0.0400", "+0.0400"]),
        "{}",
        text.stdout
    );
    assert!(text.stdout.contains("    back game"), "{}", text.stdout);
    assert!(text.stdout.contains("    blitz"), "{}", text.stdout);
    assert!(!text.stdout.contains("    prime"), "no row for an empty group: {}", text.stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dataset_is_measured_and_the_threads_do_not_change_the_figures() {
    let dir = temp("benchmark-data");
    let labels = [[0.55f32, 0.15, 0.01, 0.12, 0.005], [0.3, 0.05, 0.0, 0.2, 0.02], [0.9, 0.3, 0.02, 0.01, 0.0]];
    let data = gammon_train::dataset::Dataset {
        labeller: "a test labeller".into(),
        positions: POSITIONS[..3].iter().map(|s| (*s).to_string()).collect(),
        labels: labels.to_vec(),
        ..Default::default()
    };
    // A dataset under a text file's name: told apart by its content.
    let file = dir.join("labels.txt");
    data.save(&file).unwrap();
    let run = |threads: &str, ply: &str| {
        let out = gammon(&["benchmark", path(&file), "--json", "--threads", threads, "--ply", ply]);
        assert!(out.success(), "{}", out.stderr);
        let mut j: Value = serde_json::from_str(&out.stdout).unwrap();
        let map = j.as_object_mut().unwrap();
        assert_eq!(map.remove("threads").unwrap().as_u64().unwrap().to_string(), threads);
        assert!(map.remove("seconds").unwrap().as_f64().unwrap() >= 0.0);
        j
    };
    let one = run("1", "1");
    assert_eq!(one["files"][0]["format"], "dataset");
    assert_eq!(one["files"][0]["labeller"], "a test labeller");
    assert_eq!(one["files"][0]["positions"], 3);
    assert_eq!(one["ply"], 1);
    let mut figures = one["files"][0].clone();
    for key in ["file", "format", "labeller"] {
        figures.as_object_mut().unwrap().remove(key);
    }
    assert_eq!(one["total"], figures, "one file: the total is its figures");
    assert_eq!(run("3", "1"), one, "the same figures, to the last digit");
    assert_ne!(run("2", "0"), one, "0-ply and 1-ply differ");
    let text = gammon(&["benchmark", path(&file)]);
    assert!(
        text.stdout.contains("labels.txt: 3 positions (gammon dataset, labels: a test labeller)"),
        "{}",
        text.stdout
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_files_get_one_error_line() {
    let dir = temp("benchmark-bad");
    let good = "4HPwATDgc/ABMA\t0.5 0.15 0.01 0.15 0.01\n";
    let cases: [(&str, String, &str); 6] = [
        (
            "id.tsv",
            format!("{good}notanid\t0.5 0.15 0.01 0.15 0.01\n"),
            "id.tsv: line 2: \"notanid\" is not a gnubg Position ID",
        ),
        ("fields.tsv", format!("{good}{good}4HPwATDgc/ABMA\t0.5 0.15\n"), "fields.tsv: line 3: 3 field(s), expected 6"),
        (
            "range.tsv",
            "4HPwATDgc/ABMA\t1.5 0.15 0.01 0.15 0.01\n".into(),
            "range.tsv: line 1: win = 1.5 is not a probability",
        ),
        (
            "order.tsv",
            format!("# labels\n{good}4HPwATDgc/ABMA\t0.5 0.15 0.3 0.15 0.01\n"),
            "order.tsv: line 3: win_backgammon = 0.3 is above win_gammon = 0.15: a backgammon is also a gammon",
        ),
        ("empty.tsv", String::new(), "empty.tsv: no labelled positions"),
        ("comments.tsv", "# nothing\n\n".into(), "comments.tsv: no labelled positions"),
    ];
    for (name, text, expected) in &cases {
        let file = dir.join(name);
        std::fs::write(&file, text).unwrap();
        // A good file first: the bad one still stops the command.
        let good_file = dir.join("good.tsv");
        std::fs::write(&good_file, good).unwrap();
        let out = gammon(&["benchmark", path(&good_file), path(&file)]);
        assert!(!out.success(), "{name}: {}", out.stdout);
        assert_eq!(out.stderr.lines().count(), 1, "{name}: {}", out.stderr);
        assert!(out.stderr.starts_with("error: ") && out.stderr.contains(expected), "{name}: {}", out.stderr);
        // Said once: no cause repeated after the message.
        assert_eq!(out.stderr.matches(expected).count(), 1, "{name}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{name}: {}", out.stdout);
    }
    let weights = dir.join("w.gnn");
    std::fs::write(&weights, gammon_eval::net::SHIPPED_WEIGHTS).unwrap();
    let missing = dir.join("missing.tsv");
    for (file, expected) in
        [(&weights, "not a yardstick TSV or a gammon dataset"), (&missing, "cannot read"), (&dir, "is a folder")]
    {
        let out = gammon(&["benchmark", path(file)]);
        assert!(!out.success() && out.stderr.lines().count() == 1, "{}", out.stderr);
        assert!(out.stderr.starts_with("error: ") && out.stderr.contains(expected), "{}", out.stderr);
    }
    assert!(!gammon(&["benchmark"]).success());
    assert!(!gammon(&["benchmark", path(&missing), "--ply", "4"]).success());
    let _ = std::fs::remove_dir_all(&dir);
}
