//! Sharded rollouts end to end: `gammon rollout --shard K/N --out FILE`
//! for several N, merged by `gammon merge` in any order and from any thread
//! counts into exactly what one run prints; the batch systems' index
//! variables; resuming; every refusal.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use gammon_testkit::{run_with_env, Output};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A cheap rollout: 0-ply, truncated after 3 half-moves, 4 candidates.
const ROLLOUT: [&str; 8] = ["rollout", "4HPwATDgc/ABMA", "--games", "150", "--truncate", "3", "--moves", "4"];

fn rollout(extra: &[&str]) -> Output {
    let mut args = ROLLOUT.to_vec();
    args.extend_from_slice(extra);
    gammon(&args)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Everything but the last line (the costs: time, threads).
pub(crate) fn results(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[..lines.len().saturating_sub(1)].join("\n")
}

/// The JSON without its cost fields.
fn json_results(text: &str) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
    let map = v.as_object_mut().unwrap();
    map.remove("seconds");
    map.remove("games_per_second");
    map["settings"].as_object_mut().unwrap().remove("threads");
    v
}

#[test]
fn shards_merged_in_any_order_print_what_one_run_prints() {
    let dir = temp("shards");
    for dice in [None, Some("31")] {
        let dice_args: Vec<&str> = dice.map_or(vec![], |d| vec!["--dice", d]);
        let whole = rollout(&[&dice_args[..], &["--threads", "2"]].concat());
        assert!(whole.success(), "{}", whole.stderr);
        let whole_json = rollout(&[&dice_args[..], &["--json"]].concat());
        for n in [1u32, 2, 3, 7] {
            let mut files = Vec::new();
            for k in 0..n {
                let file = dir.join(format!("{}-{k}-of-{n}.rs", dice.unwrap_or("pos")));
                let threads = (1 + k % 2).to_string();
                let shard = format!("{k}/{n}");
                let args = [&dice_args[..], &["--shard", &shard, "--out", path(&file), "--threads", &threads]].concat();
                let o = rollout(&args);
                assert!(o.success() && o.stdout.contains("(complete)"), "{n}: {}{}", o.stdout, o.stderr);
                files.push(file);
            }
            files.reverse();
            files.rotate_left(n as usize / 2);
            let names: Vec<&str> = files.iter().map(|f| path(f)).collect();
            let merged = gammon(&[&["merge"], &names[..]].concat());
            assert!(merged.success(), "{}", merged.stderr);
            assert_eq!(results(&merged.stdout), results(&whole.stdout), "{n} shards, dice {dice:?}");
            assert!(merged.stdout.lines().last().unwrap().contains(&format!("merged from {n} shard")));
            let merged_json = gammon(&[&["merge", "--json"], &names[..]].concat());
            assert_eq!(json_results(&merged_json.stdout), json_results(&whole_json.stdout), "{n} shards, JSON");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_and_cube_decision_shards_merge_into_one_run() {
    let dir = temp("match-shards");
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:2:0:7:10";
    for extra in [&[][..], &["--cube-decision"][..]] {
        let base = [&["rollout", xgid, "--games", "60", "--truncate", "3"][..], extra].concat();
        let whole = gammon(&[&base[..], &["--json"]].concat());
        assert!(whole.success(), "{}", whole.stderr);
        let whole_text = gammon(&base);
        let mut files = Vec::new();
        for k in 0..3 {
            let file = dir.join(format!("{}-{k}.rs", extra.len()));
            let shard = format!("{k}/3");
            let o = gammon(&[&base[..], &["--shard", &shard, "--out", path(&file)]].concat());
            assert!(o.success() && o.stdout.contains("(complete)"), "{}{}", o.stdout, o.stderr);
            files.push(file);
        }
        let names: Vec<&str> = files.iter().map(|f| path(f)).collect();
        let merged = gammon(&[&["merge", "--json"], &names[..]].concat());
        assert!(merged.success(), "{}", merged.stderr);
        let strip = |text: &str| {
            let mut v: serde_json::Value = serde_json::from_str(text).unwrap();
            let map = v.as_object_mut().unwrap();
            for key in ["seconds", "games_per_second"] {
                map.remove(key);
            }
            for key in ["settings", "rollout"] {
                if let Some(s) = map.get_mut(key).and_then(|s| s.as_object_mut()) {
                    s.remove("threads");
                }
            }
            v
        };
        assert_eq!(strip(&merged.stdout), strip(&whole.stdout), "{extra:?}");
        // The text too, but for the costs.
        let merged_text = gammon(&[&["merge"], &names[..]].concat());
        let body = |t: &str| {
            t.lines()
                .filter(|l| !l.starts_with("Games:") && !l.starts_with("Merged from"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(body(&merged_text.stdout), body(&whole_text.stdout), "{extra:?}");
        assert!(merged_text.stdout.contains("7-point match, score 3-2"), "{}", merged_text.stdout);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_index_comes_from_slurm_or_kubernetes_and_bad_merges_are_refused() {
    let dir = temp("shards-env");
    let file = |k: u32| dir.join(format!("s{k}.rs"));
    for (k, var) in [(0, "SLURM_ARRAY_TASK_ID"), (1, "JOB_COMPLETION_INDEX"), (2, "JOB_COMPLETION_INDEX")] {
        let mut args = ROLLOUT.to_vec();
        let f = file(k);
        args.extend_from_slice(&["--shard", "auto/3", "--out", path(&f)]);
        let o = run_with_env(env!("CARGO_BIN_EXE_gammon"), &args, b"", &[(var, &k.to_string())]);
        assert!(o.success(), "{}", o.stderr);
        assert!(o.stdout.contains(&format!("shard {k}/3")), "{}", o.stdout);
    }
    let whole = rollout(&[]);
    let merged = gammon(&["merge", path(&file(2)), path(&file(0)), path(&file(1))]);
    assert_eq!(results(&merged.stdout), results(&whole.stdout));

    let mut args = ROLLOUT.to_vec();
    args.extend_from_slice(&["--shard", "auto/3", "--out", "x.rs"]);
    let none = run_with_env(env!("CARGO_BIN_EXE_gammon"), &args, b"", &[]);
    assert!(!none.success() && none.stderr.contains("neither is set"), "{}", none.stderr);
    let high = run_with_env(env!("CARGO_BIN_EXE_gammon"), &args, b"", &[("SLURM_ARRAY_TASK_ID", "3")]);
    assert!(!high.success() && high.stderr.contains("--array=0-2"), "{}", high.stderr);

    // A complete shard run again says so and plays nothing.
    let again = rollout(&["--shard", "1/3", "--out", path(&file(1))]);
    assert!(again.success() && again.stdout.contains("(complete)"), "{}", again.stderr);
    // A file of another shard or another rollout is not resumed.
    let wrong = rollout(&["--shard", "0/3", "--out", path(&file(1))]);
    assert!(!wrong.success() && wrong.stderr.contains("holds shard 1/3"), "{}", wrong.stderr);
    let other = rollout(&["--shard", "1/3", "--seed", "2", "--out", path(&file(1))]);
    assert!(!other.success() && other.stderr.contains("another rollout"), "{}", other.stderr);
    // The refusal names the setting that differs, with both values.
    assert!(other.stderr.contains("(it was made with --seed 1, this run asks for --seed 2)"), "{}", other.stderr);
    let cubeful = rollout(&["--shard", "1/3", "--cubeful", "--out", path(&file(1))]);
    let says = "(it was made with --cubeful off, this run asks for --cubeful on)";
    assert!(!cubeful.success() && cubeful.stderr.contains(says), "{}", cubeful.stderr);

    // Missing, duplicate and foreign shards.
    let missing = gammon(&["merge", path(&file(0)), path(&file(2))]);
    assert!(
        !missing.success() && missing.stderr.contains("games 50-99 of 150 are missing (shard 1/3)"),
        "{}",
        missing.stderr
    );
    let partial = gammon(&["merge", "--partial", path(&file(0)), path(&file(2))]);
    assert!(partial.success(), "{}", partial.stderr);
    assert!(partial.stdout.starts_with("partial rollout: 100 of 150 games (missing games 50-99; shard 1/3)"));
    let partial_json = gammon(&["merge", "--partial", "--json", path(&file(0)), path(&file(2))]);
    let v: serde_json::Value = serde_json::from_str(&partial_json.stdout).unwrap();
    assert_eq!((v["partial"].clone(), v["games_done"].clone()), (true.into(), 100.into()));
    assert_eq!(v["missing_shards"], serde_json::json!(["1/3"]));
    let twice = gammon(&["merge", path(&file(0)), path(&file(0)), path(&file(1)), path(&file(2))]);
    assert!(!twice.success() && twice.stderr.contains("the same shard twice"), "{}", twice.stderr);
    let seed2 = dir.join("seed2.rs");
    let o = rollout(&["--shard", "1/3", "--seed", "2", "--out", path(&seed2)]);
    assert!(o.success());
    let foreign = gammon(&["merge", path(&file(0)), path(&seed2), path(&file(2))]);
    assert!(
        !foreign.success()
            && foreign.stderr.contains("seed2.rs: it is a shard of another rollout than the first: its seed differs"),
        "{}",
        foreign.stderr
    );
    // Another setting is named in words, not as Rust debug text.
    let truncated = dir.join("no-vr.rs");
    let o = rollout(&["--shard", "1/3", "--no-vr", "--out", path(&truncated)]);
    assert!(o.success(), "{}", o.stderr);
    let other = gammon(&["merge", path(&file(0)), path(&truncated), path(&file(2))]);
    assert!(
        !other.success() && other.stderr.contains("its variance reduction differs (off against on)"),
        "{}",
        other.stderr
    );
    assert!(!other.stderr.contains("RolloutSettings") && !other.stderr.contains("Some("), "{}", other.stderr);
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a shard\n").unwrap();
    let wrong_kind = gammon(&["merge", path(&text)]);
    assert!(
        !wrong_kind.success() && wrong_kind.stderr.contains("is a text file, not a rollout shard"),
        "{}",
        wrong_kind.stderr
    );
    let no_out = rollout(&["--shard", "0/2"]);
    assert!(!no_out.success() && no_out.stderr.contains("--shard needs --out"), "{}", no_out.stderr);
    let target = rollout(&["--shard", "0/2", "--out", "t.rs", "--target-se", "0.01"]);
    assert!(
        !target.success() && target.stderr.contains("--target-se cannot be used with --shard"),
        "{}",
        target.stderr
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
