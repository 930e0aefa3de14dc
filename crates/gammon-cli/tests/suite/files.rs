//! Reading files: every file the commands read is bounded (devices, pipes
//! and headers that announce too much are refused without reading on), and
//! every error names the file once and the system's reason once.
#![allow(clippy::unwrap_used)]

use gammon_testkit::Output;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary; a run that does not end within a minute is killed and
/// fails the test. The minute guards against a hang (reading a pipe or a
/// device forever); it measures nothing.
fn gammon(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let give_up = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > give_up {
            let _ = child.kill();
            let _ = child.wait();
            panic!("gammon {args:?} did not finish");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child.stdout.take().unwrap().read_to_string(&mut stdout).unwrap();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    Output { stdout, stderr, code: status.code() }
}

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-files-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// `args` fails with one `error:` line that names `path` exactly once and
/// contains every one of `says`; returns the message.
fn refused(args: &[&str], path: &str, says: &[&str]) -> String {
    let out = gammon(args);
    assert!(!out.success(), "{args:?} succeeded");
    let err = out.stderr;
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{args:?}: {err}");
    assert_eq!(err.matches(path).count(), 1, "{args:?}: the path must appear once: {err}");
    for s in says {
        assert!(err.contains(s), "{args:?}: {err:?} should say {s:?}");
    }
    err
}

const NO_SUCH_FILE: &str = "No such file or directory";

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn weights_that_never_end_are_refused() {
    let dir = temp("endless");
    let silent = dir.join("silent.fifo");
    mkfifo(&silent);
    refused(&["eval", "start", "--weights", "/dev/zero"], "/dev/zero", &["a device, not a regular file"]);
    refused(&["eval", "start", "--weights", text(&silent)], text(&silent), &["a named pipe (FIFO)"]);
    refused(&["train", "--config", "/dev/zero", "--games", "2"], "/dev/zero", &["a device"]);

    // A FIFO with a writer that writes zeros for ever.
    let endless = dir.join("endless.fifo");
    mkfifo(&endless);
    let writer = {
        let endless = endless.clone();
        std::thread::spawn(move || {
            let mut pipe = std::fs::OpenOptions::new().write(true).open(&endless).unwrap();
            let zeros = [0u8; 1 << 16];
            while pipe.write_all(&zeros).is_ok() {}
        })
    };
    refused(&["eval", "start", "--weights", text(&endless)], text(&endless), &["a named pipe (FIFO)"]);
    // Open and close the reading end, so that the writer stops.
    drop(std::fs::File::open(&endless).unwrap());
    writer.join().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_header_announcing_more_than_the_limit_is_refused() {
    let dir = temp("header");
    let path = dir.join("huge.gnn");
    let mut bytes = b"GAMMONNN".to_vec();
    bytes.extend_from_slice(&1u32.to_le_bytes());
    bytes.extend_from_slice(&(1u64 << 40).to_le_bytes());
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(&[7; 1000]);
    std::fs::write(&path, &bytes).unwrap();
    let limit = format!("{} MiB", gammon_eval::weights::MAX_WEIGHTS_BYTES >> 20);
    refused(&["eval", "start", "--weights", text(&path)], text(&path), &["announces", &limit]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn missing_files_are_named_once_with_the_reason_once() {
    let dir = temp("missing");
    let out = text(&dir);
    let missing = dir.join("nonexist.net");
    let m = text(&missing);
    let no_run = dir.join("no-run");
    let checkpoint = no_run.join("checkpoint.gck");
    for (args, path) in [
        (vec!["eval", "start", "--weights", m], m),
        (vec!["analyse", "start", "--weights", m], m),
        (vec!["train", "--config", m], m),
        (vec!["train", "--init", m, "--out", out], m),
        (vec!["train", "--resume", "--out", text(&no_run)], text(&checkpoint)),
        (vec!["distill", "--from", m, "--out", out], m),
    ] {
        let err = refused(&args, path, &[NO_SUCH_FILE]);
        assert_eq!(err.matches(NO_SUCH_FILE).count(), 1, "{args:?}: {err}");
        assert_eq!(err.matches("os error").count(), 1, "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn files_of_the_wrong_kind_say_what_they_are() {
    let dir = temp("kinds");
    let checkpoint = dir.join("checkpoint.gck");
    gammon_train::trainer::start(gammon_train::TrainConfig::default(), None).save(&checkpoint).unwrap();
    let empty = dir.join("empty.gnn");
    std::fs::write(&empty, b"").unwrap();
    let settings = dir.join("settings.toml");
    std::fs::write(&settings, "name = \"quick\"\ngames = 100\n").unwrap();
    let bearoff = dir.join("gnubg_os0.bd");
    std::fs::write(&bearoff, b"gnubg-OS-06-15-1-0-0\n\0\0\0\0\0\0\0\0\0\0\0\0").unwrap();
    let binary = dir.join("random.bin");
    std::fs::write(&binary, (0u8..=255).rev().collect::<Vec<u8>>()).unwrap();
    let wanted = "not a gammon weights file";
    for (path, says) in [
        (&checkpoint, vec!["a gammon training checkpoint, not a gammon weights file", "--resume"]),
        (&empty, vec!["an empty file", wanted]),
        (&settings, vec!["a text file", wanted]),
        (&bearoff, vec!["a GNU Backgammon bearoff database", wanted]),
        (&binary, vec![wanted]),
        (&dir, vec!["a folder, not a regular file"]),
    ] {
        let err = refused(&["eval", "start", "--weights", text(path)], text(path), &says);
        assert!(!err.contains("magic"), "{err}");
    }
    // And the other way round: weights where a checkpoint should be.
    let run = dir.join("run");
    std::fs::create_dir_all(&run).unwrap();
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../weights/gammon.net");
    std::fs::copy(shipped, run.join("checkpoint.gck")).unwrap();
    refused(
        &["train", "--resume", "--out", text(&run)],
        text(&run.join("checkpoint.gck")),
        &["a gammon weights file, not a gammon training checkpoint"],
    );
    // A damaged checkpoint names the file once too.
    let bytes = std::fs::read(&checkpoint).unwrap();
    std::fs::write(run.join("checkpoint.gck"), &bytes[..bytes.len() - 10]).unwrap();
    refused(&["train", "--resume", "--out", text(&run)], text(&run.join("checkpoint.gck")), &["truncated"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_settings_file_over_its_limit_is_refused() {
    let dir = temp("settings");
    let path = dir.join("huge.toml");
    let limit = gammon_train::config::MAX_CONFIG_BYTES;
    std::fs::write(&path, "#".repeat(usize::try_from(limit).unwrap() + 1)).unwrap();
    let err = refused(&["train", "--config", text(&path), "--games", "2"], text(&path), &["larger than 1 MiB"]);
    assert!(!err.contains("os error"), "{err}");
    std::fs::write(&path, [0xff, 0xfe, 0xfd]).unwrap();
    refused(&["train", "--config", text(&path), "--games", "2"], text(&path), &["not UTF-8"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_folder_that_cannot_be_made_is_named_once_with_the_reason_once() {
    let dir = temp("unwritable");
    let file = dir.join("plain-file");
    std::fs::write(&file, "not a folder").unwrap();
    let run = file.join("run");
    let r = text(&run);
    let err = refused(&["train", "--out", r, "--games", "2"], r, &["cannot write", "Not a directory"]);
    assert_eq!(err.matches("Not a directory").count(), 1, "{err}");
    assert_eq!(err.matches("os error").count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
