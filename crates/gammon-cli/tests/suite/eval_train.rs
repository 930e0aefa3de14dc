//! `gammon eval`, `duel` and `train` end to end, and their errors.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use std::process::Command;

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn eval_json_is_consistent() {
    let out = gammon(&["eval", "start", "--json"]);
    assert!(out.success(), "{}", out.stderr);
    let j: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let f = |k: &str| j[k].as_f64().unwrap();
    assert!((f("win") + f("lose") - 1.0).abs() < 1e-6);
    assert!(f("win_backgammon") <= f("win_gammon") && f("win_gammon") <= f("win"));
    assert!(f("lose_backgammon") <= f("lose_gammon") && f("lose_gammon") <= f("lose"));
    let equity = 2.0 * f("win") - 1.0 + f("win_gammon") - f("lose_gammon") + f("win_backgammon") - f("lose_backgammon");
    assert!((equity - f("equity")).abs() < 1e-5);
    assert_eq!(j["class"], "contact net");
}

#[test]
fn eval_says_which_part_answered() {
    let out = gammon(&["eval", "AwAAEAEAAAAAAA"]);
    assert!(out.success());
    assert!(out.stdout.contains("bearoff database"));
}

#[test]
fn duel_is_reproducible_and_json() {
    let run = || gammon(&["duel", "--a", "net", "--b", "pubeval", "--games", "40", "--seed", "3", "--json"]);
    let (a, b) = (run(), run());
    assert!(a.success(), "{}", a.stderr);
    let ja: serde_json::Value = serde_json::from_str(&a.stdout).unwrap();
    let jb: serde_json::Value = serde_json::from_str(&b.stdout).unwrap();
    assert_eq!(ja, jb);
    assert_eq!(ja["games"], 40);
}

#[test]
fn corrupt_weights_are_refused_with_a_message() {
    let dir = temp("weights");
    let bad = dir.join("bad.gnn");
    std::fs::write(&bad, b"GAMMONNN\x01\x00\x00\x00garbage").unwrap();
    for args in [
        vec!["eval", "start", "--weights", bad.to_str().unwrap()],
        vec!["duel", "--a", bad.to_str().unwrap(), "--b", "pubeval", "--games", "2"],
        vec!["eval", "start", "--weights", "/nonexistent/w.gnn"],
        vec!["duel", "--a", "nonsense", "--b", "pubeval"],
    ] {
        let out = gammon(&args);
        assert!(!out.success(), "{args:?}");
        let err = out.stderr;
        assert!(err.starts_with("error:") && !err.contains("panicked"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn train_runs_writes_its_files_and_refuses_to_overwrite() {
    let dir = temp("train");
    let config = dir.join("tiny.toml");
    std::fs::write(
        &config,
        "name = \"tiny\"\ngames = 40\nseed = 5\nthreads = 2\nlambda = 0.0\ncontact_hidden = 8\nrace_hidden = 4\n\
         init_scale = 0.1\nround_games = 2\ncheckpoint_every = 20\nbenchmark_every = 20\nbenchmark_pairs = 5\n\
         [[learning_rate]]\nfrom = 0\nrate = 0.1\n",
    )
    .unwrap();
    let out_dir = dir.join("run");
    let args = ["train", "--config", config.to_str().unwrap(), "--out", out_dir.to_str().unwrap(), "--quiet"];
    let out = gammon(&args);
    assert!(out.success(), "{}", out.stderr);
    for f in ["weights.gnn", "checkpoint.gck", "learning-curve.csv", "learning-curve.svg", "config.toml"] {
        assert!(out_dir.join(f).exists(), "{f} missing");
    }
    let csv = std::fs::read_to_string(out_dir.join("learning-curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // The trained weights load in the other commands.
    let w = out_dir.join("weights.gnn");
    assert!(gammon(&["eval", "start", "--weights", w.to_str().unwrap()]).success());
    // A second run into the same folder is refused; --resume extends it.
    assert!(!gammon(&args).success());
    let resumed = gammon(&["train", "--resume", "--out", out_dir.to_str().unwrap(), "--games", "60", "--quiet"]);
    assert!(resumed.success(), "{}", resumed.stderr);
    // Bad settings are refused.
    std::fs::write(&config, "name = \"x\"\ngames = 1\nbogus = 3\n").unwrap();
    let out = gammon(&["train", "--config", config.to_str().unwrap(), "--out", dir.join("r2").to_str().unwrap()]);
    assert!(!out.success());
    assert!(out.stderr.contains("error"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn interrupting_training_leaves_a_checkpoint_to_resume() {
    let dir = temp("interrupt");
    let out_dir = dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(["train", "--games", "100000000", "--threads", "1", "--out", out_dir.to_str().unwrap(), "--quiet"])
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let pid = child.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "stopped by Ctrl-C");
    assert!(out_dir.join("checkpoint.gck").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn distill_rounds_write_a_curve_and_resume() {
    let dir = temp("distill-rounds");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/gammon.net");
    let out = dir.join("run");
    let args = [
        "distill",
        "--from",
        shipped.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--rounds",
        "2",
        "--positions",
        "300",
        "--ply",
        "1",
        "--afterstates",
        "3",
        "--epochs",
        "1",
        "--benchmark-pairs",
        "5",
        "--seed",
        "9",
    ];
    let first = gammon(&args);
    assert!(first.success(), "{}", first.stderr);
    for f in ["round-1/weights.gnn", "round-2/weights.gnn", "round-2/dataset.gds", "weights.gnn", "learning-curve.svg"]
    {
        assert!(out.join(f).exists(), "{f}");
    }
    let csv = std::fs::read_to_string(out.join("learning-curve.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "header and rounds 0, 1, 2: {csv}");
    assert!(csv.lines().nth(3).unwrap().starts_with("600,"), "x = positions labelled: {csv}");
    let weights = |p: &std::path::Path| gammon_eval::NetWeights::load(p).unwrap();
    let trained = weights(&out.join("weights.gnn"));
    assert_ne!(trained.contact, weights(&shipped).contact, "the net changed");
    // Finished rounds are kept: a second call only reloads them.
    let again = gammon(&args);
    assert!(again.stderr.contains("round 2: already done"));
    assert_eq!(weights(&out.join("weights.gnn")).contact, trained.contact);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn distill_refuses_to_resume_a_run_with_other_settings() {
    let dir = temp("distill-settings");
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/gammon.net");
    let out = dir.join("run");
    let args = |seed: &'static str| {
        vec![
            "distill".to_string(),
            "--from".into(),
            shipped.to_str().unwrap().into(),
            "--out".into(),
            out.to_str().unwrap().into(),
            "--positions".into(),
            "40".into(),
            "--ply".into(),
            "1".into(),
            "--epochs".into(),
            "1".into(),
            "--benchmark-pairs".into(),
            "0".into(),
            "--seed".into(),
            seed.into(),
        ]
    };
    let run = |a: Vec<String>| gammon(&a.iter().map(String::as_str).collect::<Vec<_>>());
    let first = run(args("9"));
    assert!(first.success(), "{}", first.stderr);
    assert!(out.join("distill-run.json").exists());
    // Another seed would sample other positions than the round holds.
    let other = run(args("10"));
    assert!(!other.success());
    assert!(other.stderr.starts_with("error: "), "{}", other.stderr);
    assert!(other.stderr.contains("was made with --seed 9, this run asks for --seed 10;"), "{}", other.stderr);
    // The same settings, with more benchmark games, resume it.
    let mut same = args("9");
    same[12] = "2".into();
    let again = run(same);
    assert!(again.success(), "{}", again.stderr);
    assert!(again.stderr.contains("round 1: already done"), "{}", again.stderr);
    let _ = std::fs::remove_dir_all(&dir);
}
