//! The Slurm job files on a real single-node Slurm started by
//! `deploy/slurm/local-cluster.sh`: a rollout and a labelling job submitted
//! as job arrays with a dependent merge, each merged result checked against
//! the same work run in one process; then a "failed" shard resubmitted alone
//! and merged again. Needs root and Debian's slurm-wlm and munge (`.ci/run`
//! installs them); `GAMMON_SKIP_SLURM=1` skips it on a machine without.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use crate::shards::results;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_gammon");

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn cluster(action: &str) -> std::process::Output {
    Command::new("sh").arg(repo().join("deploy/slurm/local-cluster.sh")).arg(action).output().unwrap()
}

/// Submits a job file (outside Slurm it submits its array and merge) with
/// these settings.
fn submit(file: &str, env: &[(&str, &str)]) {
    let conf = "/tmp/gammon-slurm/slurm.conf";
    let mut c = Command::new("bash");
    c.arg(repo().join("deploy/slurm").join(file)).env("SLURM_CONF", conf).env("GAMMON", BIN);
    for (k, v) in env {
        c.env(k, v);
    }
    let out = c.output().unwrap();
    assert!(out.status.success(), "{file}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("merge: job"));
}

/// Waits for `file` to appear (the merge job's output), showing the logs if
/// it does not.
fn wait_for(file: &Path, logs: &Path) {
    let start = Instant::now();
    while !file.exists() {
        if start.elapsed() > Duration::from_secs(180) {
            let mut text = String::new();
            for e in std::fs::read_dir(logs).into_iter().flatten().flatten() {
                text +=
                    &format!("{}:\n{}\n", e.path().display(), std::fs::read_to_string(e.path()).unwrap_or_default());
            }
            let q = Command::new("squeue").env("SLURM_CONF", "/tmp/gammon-slurm/slurm.conf").output();
            panic!(
                "{} did not appear; squeue: {:?}\n{text}",
                file.display(),
                q.map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn job_arrays_and_their_merge_give_the_single_process_results() {
    if std::env::var_os("GAMMON_SKIP_SLURM").is_some() {
        eprintln!("GAMMON_SKIP_SLURM is set: the Slurm test is skipped");
        return;
    }
    // The local cluster needs Slurm and munge installed, and root to start them.
    let missing = gammon_testkit::programs_missing(&["sbatch", "slurmctld", "munged"]).or_else(|| {
        let root = Command::new("id").arg("-u").output().is_ok_and(|o| o.stdout.starts_with(b"0\n"));
        (!root).then(|| "root, to start the local cluster".to_string())
    });
    if !gammon_testkit::needs("the Slurm test", missing) {
        return;
    }
    let up = cluster("start");
    assert!(
        up.status.success(),
        "the local Slurm did not start (root and `deploy/slurm/local-cluster.sh install` are needed; \
         GAMMON_SKIP_SLURM=1 skips this test): {}{}",
        String::from_utf8_lossy(&up.stdout),
        String::from_utf8_lossy(&up.stderr)
    );
    let dir = std::env::temp_dir().join(format!("gammon-slurm-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let d = |p: &str| dir.join(p).to_str().unwrap().to_string();

    // A rollout of the moves of a roll in 3 shards.
    let args = "--dice 43 --truncate 3 --moves 3";
    let out = d("rollout");
    let rollout = [
        ("GAMMON_POSITION", "4HPwATDgc/ABMA"),
        ("GAMMON_GAMES", "240"),
        ("GAMMON_SHARDS", "3"),
        ("GAMMON_OUT", &out),
        ("GAMMON_ARGS", args),
    ];
    submit("rollout.sbatch", &rollout);
    // Meanwhile the same rollout in one process.
    let local =
        gammon(&["rollout", "4HPwATDgc/ABMA", "--dice", "43", "--truncate", "3", "--moves", "3", "--games", "240"]);
    assert!(local.success(), "{}", local.stderr);
    let result = dir.join("rollout/result.txt");
    wait_for(&result, &dir.join("rollout/logs"));
    let merged = std::fs::read_to_string(&result).unwrap();
    assert_eq!(results(&merged), results(&local.stdout));
    assert!(merged.contains("merged from 3 shards"), "{merged}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("rollout/result.json")).unwrap()).unwrap();
    assert_eq!(json["moves"][0]["rollout"]["trials"], 240);

    // A shard lost: resubmit only it, and the merge comes out the same.
    std::fs::remove_file(dir.join("rollout/shard-1.grs")).unwrap();
    std::fs::remove_file(&result).unwrap();
    submit("rollout.sbatch", &[&rollout[..], &[("GAMMON_ONLY", "1")]].concat());
    wait_for(&result, &dir.join("rollout/logs"));
    assert_eq!(results(&std::fs::read_to_string(&result).unwrap()), results(&local.stdout));

    // Labels for a positions file in 2 shards, against one process.
    let positions = d("positions.txt");
    let sample = gammon(&["label", "sample", "--count", "10", "--seed", "3", "--out", &positions]);
    assert!(sample.success(), "{}", sample.stderr);
    let label_args = "--trials 36 --truncate 2";
    submit(
        "label.sbatch",
        &[
            ("GAMMON_POSITIONS", &positions),
            ("GAMMON_SHARDS", "2"),
            ("GAMMON_OUT", &d("labels")),
            ("GAMMON_ARGS", label_args),
        ],
    );
    let one = d("one.gds");
    let local =
        gammon(&["label", "rollout", "--positions", &positions, "--trials", "36", "--truncate", "2", "--out", &one]);
    assert!(local.success(), "{}", local.stderr);
    let labels = dir.join("labels/labels.gds");
    wait_for(&labels, &dir.join("labels/logs"));
    // The merge job writes the file atomically: once there, it is whole.
    assert_eq!(std::fs::read(&labels).unwrap(), std::fs::read(&one).unwrap());

    let down = cluster("stop");
    assert!(down.status.success(), "{}", String::from_utf8_lossy(&down.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}
