//! The Kubernetes job files in `deploy/k8s/`: read as YAML, checked for
//! the settings that must agree (an Indexed Job whose completions and
//! parallelism are its shard count, the shard and merge steps on one
//! volume), and then their own shell steps run as plain processes, each
//! shard with `JOB_COMPLETION_INDEX` set as Kubernetes sets it, the merge
//! after them; the merged result is the unsharded run's. No cluster runs
//! here; `kubernetes-validate --strict deploy/k8s/*.yaml` checks them
//! against Kubernetes' schemas (docs/scale-out.md).
#![allow(clippy::unwrap_used)]

use crate::shards::results;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use yaml_rust2::{Yaml, YamlLoader};

const BIN: &str = env!("CARGO_BIN_EXE_gammon");

fn manifest(name: &str) -> Vec<Yaml> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy/k8s").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn job(docs: &[Yaml]) -> &Yaml {
    docs.iter().find(|d| d["kind"].as_str() == Some("Job")).expect("a Job")
}

/// The one container of a Job: its environment and its shell step.
fn container(job: &Yaml) -> (HashMap<String, String>, String) {
    let c = &job["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(c["command"][0].as_str(), Some("/bin/sh"));
    assert_eq!(c["command"][1].as_str(), Some("-c"));
    let env = c["env"]
        .as_vec()
        .unwrap()
        .iter()
        .map(|e| (e["name"].as_str().unwrap().to_string(), e["value"].as_str().unwrap().to_string()))
        .collect();
    (env, c["args"][0].as_str().unwrap().to_string())
}

fn claim(job: &Yaml) -> &str {
    job["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"].as_str().unwrap()
}

/// Runs a job's shell step with `gammon` on the PATH and these variables.
fn run_step(script: &str, env: &HashMap<String, String>, bin_dir: &Path) -> String {
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let out = Command::new("/bin/sh").arg("-c").arg(script).envs(env).env("PATH", path).output().unwrap();
    assert!(out.status.success(), "{script}\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn the_indexed_job_and_its_merge_run_as_plain_processes_give_the_unsharded_rollout() {
    let rollout = manifest("rollout-job.yaml");
    let merge = manifest("merge-job.yaml");
    let (shards, merger) = (job(&rollout), job(&merge));
    let (mut env, shard_step) = container(shards);
    let (mut merge_env, merge_step) = container(merger);

    // What must agree for the merge to find a whole rollout.
    let n: i64 = env["GAMMON_SHARDS"].parse().unwrap();
    assert_eq!(shards["spec"]["completionMode"].as_str(), Some("Indexed"));
    assert_eq!(shards["spec"]["completions"].as_i64(), Some(n), "completions = GAMMON_SHARDS");
    assert_eq!(shards["spec"]["parallelism"].as_i64(), Some(n), "parallelism = GAMMON_SHARDS");
    assert_eq!(shards["spec"]["template"]["spec"]["restartPolicy"].as_str(), Some("Never"));
    assert!(shard_step.contains("--shard \"auto/$GAMMON_SHARDS\""), "{shard_step}");
    assert!(shard_step.contains("$JOB_COMPLETION_INDEX"), "{shard_step}");
    assert_eq!(env["GAMMON_OUT"], merge_env["GAMMON_OUT"], "the merge reads where the shards write");
    assert_eq!(claim(shards), claim(merger));
    let pvc = rollout.iter().find(|d| d["kind"].as_str() == Some("PersistentVolumeClaim")).unwrap();
    assert_eq!(pvc["metadata"]["name"].as_str(), Some(claim(shards)));
    assert!(env["GAMMON_CACHE_DIR"].starts_with("/data/"), "the bearoff cache on the shared volume");

    // The steps themselves, smaller: 3 shards of 120 games, in another order.
    let dir = std::env::temp_dir().join(format!("gammon-k8s-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let bin_dir = dir.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    std::os::unix::fs::symlink(BIN, bin_dir.join("gammon")).unwrap();
    let out: PathBuf = dir.join("rollout");
    let out_text = out.to_str().unwrap().to_string();
    env.insert("GAMMON_SHARDS".into(), "3".into());
    env.insert("GAMMON_GAMES".into(), "120".into());
    env.insert("GAMMON_ARGS".into(), format!("{} --truncate 3", env["GAMMON_ARGS"]));
    env.insert("GAMMON_OUT".into(), out_text.clone());
    env.insert("GAMMON_CACHE_DIR".into(), dir.join("cache").to_str().unwrap().into());
    for k in [2, 0, 1] {
        let mut task = env.clone();
        task.insert("JOB_COMPLETION_INDEX".into(), k.to_string());
        let printed = run_step(&shard_step, &task, &bin_dir);
        assert!(printed.contains(&format!("shard {k}/3")), "{printed}");
    }
    merge_env.insert("GAMMON_OUT".into(), out_text);
    let merged = run_step(&merge_step, &merge_env, &bin_dir);

    let mut args = vec!["rollout", env["GAMMON_POSITION"].as_str(), "--games", "120"];
    args.extend(env["GAMMON_ARGS"].split_whitespace());
    let local = gammon_testkit::run(BIN, &args, b"");
    assert!(local.success(), "{}", local.stderr);
    assert_eq!(results(&merged), results(&local.stdout));
    assert_eq!(std::fs::read_to_string(out.join("result.txt")).unwrap(), merged);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("result.json")).unwrap()).unwrap();
    assert_eq!(json["rollout"]["trials"], 120, "{json}");
    std::fs::remove_dir_all(&dir).unwrap();
}
