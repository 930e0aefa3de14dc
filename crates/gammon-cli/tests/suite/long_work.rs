//! Long-running commands stopped from outside: `gammon train` under SIGTERM
//! and after `kill -9`, resumed runs whose settings were edited, and
//! `rollout`, `label rollout`, `fit`, `distill` and `review` interrupted,
//! each keeping the work it finished.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use gammon_train::Checkpoint;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-long-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A tiny run's settings: small nets, no periodic checkpoint before
/// `checkpoint_every`, a one-pair benchmark every `benchmark_every` games.
fn tiny_config(games: u64, checkpoint_every: u64, benchmark_every: u64) -> String {
    format!(
        "name = \"tiny\"\ngames = {games}\nseed = 5\nthreads = 1\nlambda = 0.0\ncontact_hidden = 4\nrace_hidden = 4\n\
         init_scale = 0.1\nschedule = \"pipeline\"\nround_games = 2\ncheckpoint_every = {checkpoint_every}\nbenchmark_every = {benchmark_every}\n\
         benchmark_pairs = 1\n\n[[learning_rate]]\nfrom = 0\nrate = 0.1\n"
    )
}

/// Waits (generously) until `done` holds, failing if `child` exits first.
fn poll_until(child: &mut Child, what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(300);
    while !done() {
        if let Some(status) = child.try_wait().unwrap() {
            panic!("gammon exited ({status}) before {what}");
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Sends `signal` (`TERM`, `INT`) to `child`.
fn signal(child: &Child, signal: &str) {
    let pid = child.id().to_string();
    assert!(Command::new("kill").args([&format!("-{signal}"), &pid]).status().unwrap().success());
}

/// Waits for `child` to exit after a signal, with a generous deadline, and
/// returns its exit code and standard output and error.
fn exit_after_signal(mut child: Child) -> (Option<i32>, String, String) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("gammon did not stop within a minute of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".tmp-"))
        .collect()
}

/// Trains a tiny run of `games` games to its end in `dir/run`.
fn finished_run(dir: &Path, games: u64) -> PathBuf {
    let config = dir.join("tiny.toml");
    std::fs::write(&config, tiny_config(games, 1_000, 0)).unwrap();
    let run = dir.join("run");
    let out = gammon(&["train", "--config", config.to_str().unwrap(), "--out", run.to_str().unwrap(), "--quiet"]);
    assert!(out.success(), "{}", out.stderr);
    run
}

#[test]
fn sigterm_stops_training_with_a_checkpoint_where_it_stopped() {
    let dir = temp("sigterm");
    let config = dir.join("tiny.toml");
    // No periodic checkpoint in this run: any checkpoint is the interruption's.
    std::fs::write(&config, tiny_config(100_000_000, 1_000_000_000, 10)).unwrap();
    let run = dir.join("run");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(["train", "--config", config.to_str().unwrap(), "--out", run.to_str().unwrap(), "--quiet"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first benchmark's row shows that at least 10 games were trained.
    poll_until(&mut child, "the first benchmark", || run.join("learning-curve.csv").exists());
    signal(&child, "TERM");
    let (code, _, stderr) = exit_after_signal(child);
    assert_eq!(code, Some(130), "{stderr}");
    let checkpoint = Checkpoint::load(&run.join("checkpoint.gck")).expect("a checkpoint written on SIGTERM");
    assert!(checkpoint.games_done >= 10, "{} games", checkpoint.games_done);
    assert!(stderr.contains(&format!("stopped at {} games", checkpoint.games_done)), "{stderr}");
    assert_eq!(temp_files(&run), Vec::<String>::new(), "no temporary file left");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_removes_the_temporary_files_of_a_killed_write_and_says_so() {
    let dir = temp("kill9");
    let run = finished_run(&dir, 4);
    // What `kill -9` during a checkpoint write leaves, and look-alikes that are not ours.
    let ours = run.join(".checkpoint.gck.tmp-4242");
    let not_ours =
        [run.join(".notes.tmp-4242"), run.join("checkpoint.gck.tmp-4242"), run.join(".checkpoint.gck.tmp-x")];
    std::fs::write(&ours, b"half a checkpoint").unwrap();
    for f in &not_ours {
        std::fs::write(f, b"keep me").unwrap();
    }
    let out = gammon(&["train", "--resume", "--out", run.to_str().unwrap(), "--games", "6", "--quiet"]);
    assert!(out.success(), "{}", out.stderr);
    assert!(!ours.exists(), "the stale temporary file is removed");
    assert!(out.stderr.contains("removed") && out.stderr.contains(".checkpoint.gck.tmp-4242"), "{}", out.stderr);
    for f in &not_ours {
        assert!(f.exists(), "{} is not ours and stays", f.display());
    }
    assert_eq!(Checkpoint::load(&run.join("checkpoint.gck")).unwrap().games_done, 6);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_applies_an_edited_game_count_and_notes_it() {
    let dir = temp("edit-games");
    let run = finished_run(&dir, 4);
    let config = run.join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text.replace("games = 4", "games = 8")).unwrap();
    let out = gammon(&["train", "--resume", "--out", run.to_str().unwrap(), "--quiet"]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stderr.contains("note: games changed from 4 to 8"), "{}", out.stderr);
    assert_eq!(Checkpoint::load(&run.join("checkpoint.gck")).unwrap().games_done, 8);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_edited_settings_that_are_fixed_for_the_run() {
    let dir = temp("edit-fixed");
    let run = finished_run(&dir, 4);
    let config = run.join("config.toml");
    let text = std::fs::read_to_string(&config).unwrap();
    let edited = text.replace("seed = 5", "seed = 6").replace("contact_hidden = 4", "contact_hidden = 8");
    assert_ne!(edited, text);
    std::fs::write(&config, edited).unwrap();
    let out = gammon(&["train", "--resume", "--out", run.to_str().unwrap(), "--games", "8", "--quiet"]);
    assert!(!out.success(), "{}", out.stderr);
    assert!(out.stderr.starts_with("error:"), "{}", out.stderr);
    for change in ["seed changed from 5 to 6", "contact_hidden changed from 4 to 8"] {
        assert!(out.stderr.contains(change), "{change}: {}", out.stderr);
    }
    assert_eq!(Checkpoint::load(&run.join("checkpoint.gck")).unwrap().games_done, 4, "nothing trained");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_with_the_original_config_keeps_the_overrides_the_run_started_with() {
    // Started with --seed and --games overrides; resumed naming the same
    // --config, which only finds the run: its seed and games are not the run's.
    let dir = temp("resume-overrides");
    let config = dir.join("tiny.toml");
    std::fs::write(&config, tiny_config(4, 1_000, 0)).unwrap();
    let run = dir.join("run");
    let (c, r) = (config.to_str().unwrap(), run.to_str().unwrap());
    let out = gammon(&["train", "--config", c, "--out", r, "--seed", "9", "--games", "6", "--quiet"]);
    assert!(out.success(), "{}", out.stderr);
    let out = gammon(&["train", "--config", c, "--out", r, "--resume", "--games", "8", "--quiet"]);
    assert!(out.success(), "{}", out.stderr);
    assert!(!out.stderr.contains("seed changed"), "{}", out.stderr);
    let state = Checkpoint::load(&run.join("checkpoint.gck")).unwrap();
    assert_eq!((state.games_done, state.config.seed), (8, 9));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_refuses_fewer_games_than_already_played() {
    let dir = temp("resume-fewer");
    let run = finished_run(&dir, 4);
    let out = gammon(&["train", "--resume", "--out", run.to_str().unwrap(), "--games", "2", "--quiet"]);
    assert!(!out.success(), "{}", out.stderr);
    assert!(out.stderr.contains("below the 4 games"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resume_removes_a_temporary_file_even_without_a_checkpoint() {
    // kill -9 during the first checkpoint write: a temporary file, no checkpoint.
    let dir = temp("resume-no-checkpoint");
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    std::fs::write(run.join(".checkpoint.gck.tmp-123"), b"half").unwrap();
    let out = gammon(&["train", "--resume", "--out", run.to_str().unwrap(), "--quiet"]);
    assert!(!out.success(), "{}", out.stderr);
    assert!(temp_files(&run).is_empty(), "{:?}", temp_files(&run));
    assert!(out.stderr.contains("removed"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// CPU seconds `pid` has used (Linux: /proc/<pid>/stat, in clock ticks of
/// 1/100 s), or 0 if unreadable.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // The fields after the command name's closing parenthesis: utime and stime are the 12th and 13th.
    let fields: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, rest)| rest).split_whitespace().collect();
    let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Runs `gammon ARGS`, waits until it has used `cpu` CPU seconds of work,
/// stops it with `sig` (`TERM`, `INT`) and returns its exit code, standard
/// output and standard error.
fn stopped_after_cpu(args: &[&str], cpu: f64, sig: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    poll_until(&mut child, &format!("{cpu} CPU seconds of `{}`", args[0]), || cpu_seconds(pid) >= cpu);
    signal(&child, sig);
    exit_after_signal(child)
}

const LONG: &str = "10000000";

/// Starts a rollout far too long to finish, waits until it has worked a
/// while (two CPU seconds: hundreds of games), and stops it with `sig`.
fn interrupted_rollout(extra: &[&str], sig: &str) -> (Option<i32>, String, String) {
    let args = [&["rollout", "start", "--games", LONG, "--truncate", "6", "--threads", "2"][..], extra].concat();
    stopped_after_cpu(&args, 2.0, sig)
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_rollout_prints_the_partial_result() {
    let (code, stdout, stderr) = interrupted_rollout(&[], "INT");
    assert_eq!(code, Some(130), "{stderr}");
    let first = stdout.lines().next().unwrap_or_default();
    let games: u64 = first
        .strip_prefix("partial rollout: ")
        .and_then(|rest| rest.strip_suffix(&format!(" of {LONG} games (interrupted)")))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("first line {first:?}"));
    assert!(games >= 1 && games < LONG.parse().unwrap(), "{games}");
    assert!(stdout.contains("Cubeless equity"), "{stdout}");
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_json_rollout_is_marked_partial_and_equals_the_shorter_rollout() {
    let (code, stdout, stderr) = interrupted_rollout(&["--json"], "TERM");
    assert_eq!(code, Some(130), "{stderr}");
    let partial: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(partial["partial"], true);
    let games = partial["games_done"].as_u64().unwrap();
    assert!(games >= 1 && games < LONG.parse().unwrap(), "{games}");
    assert_eq!(partial["rollout"]["trials"], games);
    // The games finished are games 0..K: exactly the rollout of K games.
    let k = games.to_string();
    let whole = gammon(&["rollout", "start", "--games", &k, "--truncate", "6", "--threads", "1", "--json"]);
    assert!(whole.success(), "{}", whole.stderr);
    let whole: serde_json::Value = serde_json::from_str(&whole.stdout).unwrap();
    assert_eq!(whole.get("partial"), None);
    assert_eq!(whole["rollout"], partial["rollout"]);
}

/// Runs `gammon` with standard error on a terminal (`script` gives it a
/// pseudo-terminal), standard output into a file; the terminal's text.
fn on_a_terminal(args: &[&str], stdout: &Path) -> String {
    let command = format!("{} {} >{}", env!("CARGO_BIN_EXE_gammon"), args.join(" "), stdout.display());
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("script (util-linux) runs the command on a terminal: {e}"));
    assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_rollout_on_a_terminal_shows_games_equity_and_time_left_and_not_in_a_pipe() {
    let dir = temp("progress");
    let file = dir.join("out.txt");
    let args = ["rollout", "start", "--games", "3000", "--no-vr", "--threads", "1"];
    let terminal = on_a_terminal(&args, &file);
    // The bar redraws itself in place: look at the drawn states one by one.
    let states: Vec<&str> = terminal.split(['\r', '\n']).filter(|l| l.contains("rollout [")).collect();
    assert!(!states.is_empty(), "no progress bar on the terminal: {terminal:?}");
    let running = states
        .iter()
        .find(|l| l.contains(" games, equity ") && l.contains(" ± ") && l.contains("ETA"))
        .unwrap_or_else(|| panic!("no state with games done, equity ± SE and ETA: {states:?}"));
    assert!(running.contains("/3000 games"), "{running}");
    assert!(!terminal.contains(", ,"), "an empty message leaves no gap: {states:?}");
    // The result still goes to standard output, without the bar.
    let result = std::fs::read_to_string(&file).unwrap();
    assert!(result.contains("Games: 3000 of 3000") && !result.contains("rollout ["), "{result}");
    // Into a pipe: no bar at all.
    let piped = gammon(&args);
    assert!(piped.success() && !piped.stderr.contains("rollout ["), "{}", piped.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `label rollout` stopped in the middle of its only chunk keeps every
/// label it finished (before, it kept only whole chunks: 230 labels made,
/// 0 kept), says how many, exits 130, and those labels are the very labels
/// an uninterrupted run makes.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_labelling_keeps_every_finished_label() {
    let dir = temp("label-stop");
    let positions = dir.join("positions.txt");
    assert!(
        gammon(&["label", "sample", "--count", "40", "--seed", "3", "--out", positions.to_str().unwrap()]).success()
    );
    let labels = dir.join("labels.gds");
    let settings = ["--trials", "72", "--truncate", "5", "--seed", "9", "--threads", "2"];
    let args = [
        &["label", "rollout", "--positions", positions.to_str().unwrap(), "--chunk", "1000"][..],
        &settings[..],
        &["--out", labels.to_str().unwrap()],
    ]
    .concat();
    let (code, _, stderr) = stopped_after_cpu(&args, 2.0, "TERM");
    assert_eq!(code, Some(130), "{stderr}");
    let kept = gammon_train::dataset::Dataset::load(&labels).expect("the finished labels are saved");
    let n = kept.len();
    assert!((1..40).contains(&n), "{n} labels kept");
    assert!(
        stderr.contains(&format!("kept {n} labels in ")) && stderr.contains(&format!("{} to go", 40 - n)),
        "{stderr}"
    );
    // The same labels as a run over those positions alone.
    let first = dir.join("first.txt");
    let text = std::fs::read_to_string(&positions).unwrap();
    let ids: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).take(n).collect();
    std::fs::write(&first, ids.join("\n")).unwrap();
    let reference = dir.join("reference.gds");
    let out = gammon(
        &[
            &["label", "rollout", "--positions", first.to_str().unwrap()][..],
            &settings[..],
            &["--out", reference.to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.success(), "{}", out.stderr);
    let reference = gammon_train::dataset::Dataset::load(&reference).unwrap();
    assert_eq!(kept.positions, reference.positions);
    assert_eq!(kept.labels, reference.labels);
}

/// `fit` stopped by SIGTERM writes the best net so far with its report and
/// exits 130 (before, the process died and the work was lost).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_fit_keeps_the_best_net_so_far() {
    let dir = temp("fit-stop");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    // Quick labels (one trial, one half-move), many of them, and a big net:
    // a fit of many seconds.
    assert!(gammon(&["label", "sample", "--count", "3000", "--seed", "8", "--out", &s("pos.txt")]).success());
    let out = gammon(&[
        "label",
        "rollout",
        "--positions",
        &s("pos.txt"),
        "--trials",
        "1",
        "--truncate",
        "1",
        "--out",
        &s("l.gds"),
    ]);
    assert!(out.success(), "{}", out.stderr);
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let (data, out) = (s("l.gds"), s("fit"));
    let args = ["fit", "--from", weights, "--data", &data, "--out", &out, "--threads", "1", "--max-epochs", "10000"];
    let args = [&args[..], &["--patience", "20", "--batch", "1", "--hidden", "512"]].concat();
    let (code, _, stderr) = stopped_after_cpu(&args, 1.0, "TERM");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("stopped: kept the best epoch"), "{stderr}");
    assert!(gammon_eval::NetWeights::load(&dir.join("fit/weights.gnn")).is_ok());
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("fit/fit-report.json")).unwrap()).unwrap();
    assert_eq!(report["report"]["stopped"], true);
    let epochs = report["report"]["epochs"].as_array().unwrap().len();
    assert!((1..60).contains(&epochs), "{epochs}");
}

/// `distill` stopped while labelling keeps the labels finished (before, up
/// to 20,000 since the last save were lost), says where, and exits 130.
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_distillation_keeps_its_labels() {
    let dir = temp("distill-stop");
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let out = dir.join("run");
    let args = ["distill", "--from", weights, "--out", out.to_str().unwrap(), "--positions", "50000", "--ply", "1"];
    let args = [&args[..], &["--benchmark-pairs", "0", "--threads", "2"]].concat();
    let (code, _, stderr) = stopped_after_cpu(&args, 3.0, "INT");
    assert_eq!(code, Some(130), "{stderr}");
    assert!(stderr.contains("stopped: the labels of round 1 made so far are kept"), "{stderr}");
    let kept = gammon_train::dataset::Dataset::load(&out.join("round-1/dataset.gds")).expect("the labels are saved");
    assert!(!kept.is_empty() && kept.len() < 50_000, "{}", kept.len());
}

/// Starts a 3-ply review of a long real match (minutes of work), waits for
/// two CPU seconds of it and stops it with SIGTERM.
fn interrupted_review(extra: &[&str]) -> (Option<i32>, String, String) {
    let file = gammon_testkit::shared_dir().join("matches/real/fibs_mochy-nori_25p.mat");
    let args = [&["review", file.to_str().unwrap(), "--ply", "3", "--cube-ply", "3", "--threads", "2"][..], extra];
    stopped_after_cpu(&args.concat(), 2.0, "TERM")
}

/// `review` stopped part way prints the review of every record it finished,
/// marked partial, and exits 130 (before: `interrupted: no review`).
#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_review_keeps_the_records_reviewed() {
    let (code, stdout, stderr) = interrupted_review(&["--json"]);
    assert_eq!(code, Some(130), "{stderr}");
    let r: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(r["partial"], true);
    let (done, all) = (r["records_reviewed"].as_u64().unwrap(), r["records"].as_u64().unwrap());
    assert!(done > 0 && done < all, "{done} of {all}");
    let kept: u64 = r["games"].as_array().unwrap().iter().map(|g| g["records"].as_array().unwrap().len() as u64).sum();
    assert_eq!(kept, done);
    assert!(stderr.contains(&format!("stopped: the review covers the first {done} of {all} records")), "{stderr}");

    let dir = temp("review-stop");
    let page = dir.join("review.html");
    let (code, _, stderr) = interrupted_review(&["--html", page.to_str().unwrap()]);
    assert_eq!(code, Some(130), "{stderr}");
    let html = std::fs::read_to_string(&page).expect("the partial review is written");
    assert!(html.contains("Partial review (stopped): "), "{html}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn an_interrupted_review_of_many_files_lists_the_files_it_did_not_review_without_an_error() {
    let folder = gammon_testkit::shared_dir().join("matches/real");
    let args = ["review", folder.to_str().unwrap(), "--ply", "1", "--threads", "1"];
    let (code, stdout, stderr) = stopped_after_cpu(&args, 3.0, "INT");
    assert_eq!(code, Some(130), "{stderr}");
    // Files not started are named as stopped, not as errors.
    assert!(!stderr.contains("error:"), "{stderr}");
    assert!(stdout.contains(": not reviewed: stopped"), "{stdout}");
    assert!(stdout.contains("Across "), "the table of what was reviewed: {stdout}");
}
