//! Writing files: every output goes through the safe writer, so nothing the
//! user owns is lost — a device, a pipe or a folder is refused, a symbolic
//! link is written through, a file that happens to be named like a
//! temporary file is left alone, a full disk leaves the old file as it was,
//! and a folder that does not exist is found before any work.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use gammon_testkit::{run, Output};
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-outputs-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn blunder_mat() -> String {
    text(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/blunder.mat")).to_string()
}

/// The names in `dir`, sorted.
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into()).collect();
    v.sort();
    v
}

/// One `error:` line that contains each of `says`.
fn assert_refused(out: &Output, says: &[&str]) {
    assert!(!out.success(), "succeeded: {}", out.stderr);
    assert!(out.stderr.starts_with("error: ") && out.stderr.lines().count() == 1, "{}", out.stderr);
    for s in says {
        assert!(out.stderr.contains(s), "{:?} should say {s:?}", out.stderr);
    }
}

#[cfg(unix)]
#[test]
fn a_device_or_a_pipe_is_refused_and_stays_what_it_was() {
    use std::os::unix::fs::FileTypeExt;
    // As root, renaming over /dev/null made it a plain file.
    let out = gammon(&["review", &blunder_mat(), "--ply", "0", "--cube-ply", "0", "--html", "/dev/null"]);
    assert_refused(&out, &["/dev/null is a device"]);
    assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    let dir = temp("fifo");
    let fifo = dir.join("positions.txt");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let out = gammon(&["label", "sample", "--count", "3", "--out", text(&fifo)]);
    assert_refused(&out, &["positions.txt is a named pipe"]);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let out = gammon(&["label", "sample", "--count", "3", "--out", text(&dir)]);
    assert_refused(&out, &["is a folder"]);
}

#[cfg(unix)]
#[test]
fn a_symbolic_link_is_written_through() {
    let dir = temp("link");
    std::fs::create_dir_all(dir.join("store")).unwrap();
    std::fs::write(dir.join("store/positions.txt"), "old").unwrap();
    std::os::unix::fs::symlink("store/positions.txt", dir.join("link.txt")).unwrap();
    let out = gammon(&["label", "sample", "--count", "3", "--out", text(&dir.join("link.txt"))]);
    assert!(out.success(), "{}", out.stderr);
    assert!(std::fs::symlink_metadata(dir.join("link.txt")).unwrap().file_type().is_symlink());
    let written = std::fs::read_to_string(dir.join("store/positions.txt")).unwrap();
    assert_eq!(written.lines().filter(|l| !l.starts_with('#')).count(), 3, "{written}");
}

#[test]
fn files_named_like_temporary_files_are_never_touched() {
    let dir = temp("collide");
    for name in ["data.tmp", "data.txt.tmp", "report.html.tmp", "report.tmp"] {
        std::fs::write(dir.join(name), "IMPORTANT").unwrap();
    }
    assert!(gammon(&["label", "sample", "--count", "3", "--out", text(&dir.join("data.txt"))]).success());
    let html = dir.join("report.html");
    let out = gammon(&["review", &blunder_mat(), "--ply", "0", "--cube-ply", "0", "--html", text(&html)]);
    assert!(out.success(), "{}", out.stderr);
    for name in ["data.tmp", "data.txt.tmp", "report.html.tmp", "report.tmp"] {
        assert_eq!(std::fs::read_to_string(dir.join(name)).unwrap(), "IMPORTANT", "{name}");
    }
    assert_eq!(names(&dir), ["data.tmp", "data.txt", "data.txt.tmp", "report.html", "report.html.tmp", "report.tmp"]);
}

/// A full disk, as a file-size limit makes it (`ulimit -f`, with SIGXFSZ
/// ignored so that the write fails instead of killing the process).
#[cfg(unix)]
#[test]
fn a_full_disk_leaves_the_old_file_and_no_temporary_file() {
    let dir = temp("full");
    let out_file = dir.join("positions.txt");
    std::fs::write(&out_file, "the old positions\n").unwrap();
    let script = format!(
        "trap '' XFSZ; ulimit -f 4; exec '{}' label sample --count 2000 --out '{}'",
        env!("CARGO_BIN_EXE_gammon"),
        text(&out_file)
    );
    let out = run("bash", &["-c", &script], b"");
    assert_refused(&out, &["cannot write", "positions.txt"]);
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), "the old positions\n");
    assert_eq!(names(&dir), ["positions.txt"]);
}

#[test]
fn a_missing_output_folder_is_found_before_the_work() {
    let dir = temp("nofolder");
    let missing = dir.join("no/such/folder/labels.gds");
    let positions = dir.join("positions.txt");
    assert!(gammon(&["label", "sample", "--count", "2", "--out", text(&positions)]).success());
    // A labelling that would take hours at these settings; refused at once.
    let out = gammon(&[
        "label",
        "rollout",
        "--positions",
        text(&positions),
        "--trials",
        "1000000",
        "--full",
        "--out",
        text(&missing),
    ]);
    assert_refused(&out, &["labels.gds", "does not exist"]);
    let out = gammon(&["label", "sample", "--count", "2000000", "--out", text(&missing)]);
    assert_refused(&out, &["labels.gds", "does not exist"]);
    let html = dir.join("gone/report.html");
    let out = gammon(&["review", &blunder_mat(), "--ply", "3", "--html", text(&html)]);
    assert_refused(&out, &["report.html", "does not exist"]);
}

/// An unwritable bearoff cache folder made every process rebuild the
/// databases silently (0.55 s instead of 0.006 s); now it is said once,
/// naming GAMMON_CACHE_DIR.
#[test]
fn an_unwritable_bearoff_cache_is_said_once() {
    let dir = temp("cache");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let cache = file.join("cache");
    let out = gammon_testkit::run_with_env(
        env!("CARGO_BIN_EXE_gammon"),
        &["rollout", "XGID=-BBBBBB------------bbbbbb-:0:0:1:00:0:0:0:0:10", "--games", "36"],
        b"",
        &[("GAMMON_CACHE_DIR", text(&cache))],
    );
    assert!(out.success(), "{}", out.stderr);
    assert_eq!(out.stderr.matches("warning: cannot write the bearoff databases' cache").count(), 1, "{}", out.stderr);
    assert!(out.stderr.contains("GAMMON_CACHE_DIR") && out.stderr.contains(text(&cache)), "{}", out.stderr);
    // A writable one says nothing.
    let fine = dir.join("cache");
    let out = gammon_testkit::run_with_env(
        env!("CARGO_BIN_EXE_gammon"),
        &["eval", "XGID=-BBBBBB------------bbbbbb-:0:0:1:00:0:0:0:0:10"],
        b"",
        &[("GAMMON_CACHE_DIR", text(&fine))],
    );
    assert!(out.success() && !out.stderr.contains("warning"), "{}", out.stderr);
}

/// A full standard output is named as such (it said only "No space left on
/// device"), with a non-zero exit.
#[cfg(target_os = "linux")]
#[test]
fn a_full_standard_output_is_named() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(["moves", "4HPwATDgc/ABMA", "31"])
        .stdout(full)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.starts_with("error: cannot write to standard output: ") && stderr.lines().count() == 1, "{stderr}");
}

/// A shard left without games says so in words (it said "0 of games 0-0").
#[test]
fn an_empty_shard_says_it_has_no_games() {
    let dir = temp("empty-shard");
    let shard = dir.join("s5.rs");
    let out = gammon(&["rollout", "4HPwATDgc/ABMA", "--games", "2", "--shard", "5/8", "--out", text(&shard)]);
    assert!(out.success(), "{}", out.stderr);
    assert!(
        out.stdout.contains("shard 5/8 of the rollout: no games (the 2 games leave none to this shard)"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("games 0-0"), "{}", out.stdout);
}
