//! Running a program (the `gammon` binary) and capturing what it writes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// What a finished program wrote, and how it ended.
#[derive(Clone, Debug)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    /// The exit code; `None` if a signal ended it.
    pub code: Option<i32>,
}

impl Output {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }
}

/// Runs `bin args` with `stdin` on its standard input (closed at its end)
/// and waits for it. The binary's path comes from the caller: only the
/// crate that builds it knows it (`env!("CARGO_BIN_EXE_gammon")`).
///
/// # Panics
/// If the program cannot be started, or writes anything but UTF-8.
pub fn run(bin: impl AsRef<Path>, args: &[&str], stdin: &[u8]) -> Output {
    run_with_env(bin, args, stdin, &[])
}

/// [`run`] with these environment variables set (a batch system's task
/// index, say); the batch systems' index variables of the test's own
/// environment are removed, so that only `env` sets them.
///
/// # Panics
/// As [`run`].
pub fn run_with_env(bin: impl AsRef<Path>, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    let bin = bin.as_ref();
    let mut command = Command::new(bin);
    command.env_remove("SLURM_ARRAY_TASK_ID").env_remove("JOB_COMPLETION_INDEX");
    for (k, v) in env {
        command.env(k, v);
    }
    let mut child = command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
    if let Some(mut pipe) = child.stdin.take() {
        // The program may stop before reading everything: a closed pipe is fine.
        let _ = pipe.write_all(stdin);
    }
    let out = child.wait_with_output().unwrap_or_else(|e| panic!("waiting for {}: {e}", bin.display()));
    let text = |bytes: Vec<u8>, stream: &str| {
        String::from_utf8(bytes)
            .unwrap_or_else(|e| panic!("{} {args:?} wrote non-UTF-8 to {stream}: {e}", bin.display()))
    };
    Output { stdout: text(out.stdout, "stdout"), stderr: text(out.stderr, "stderr"), code: out.status.code() }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn captures_output_input_and_exit_code() {
        let out = run("sh", &["-c", "cat; echo err >&2; exit 3"], b"hello\n");
        assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.code), ("hello\n", "err\n", Some(3)));
        assert!(!out.success());
        assert!(run("true", &[], b"").success());
    }
}

/// The standard output of `bin args` (no standard input), after asserting
/// that it succeeded.
///
/// # Panics
/// If it fails, with its arguments and standard error.
pub fn ok(bin: impl AsRef<Path>, args: &[&str]) -> String {
    let out = run(bin, args, b"");
    assert!(out.success(), "{args:?}: {}", out.stderr);
    out.stdout
}

/// Asserts that `bin args` (no standard input) fails and says `wanted` on
/// standard error.
///
/// # Panics
/// If it succeeds, or its standard error lacks `wanted`.
pub fn fails(bin: impl AsRef<Path>, args: &[&str], wanted: &str) {
    let out = run(bin, args, b"");
    assert!(!out.success(), "{args:?} should fail");
    assert!(out.stderr.contains(wanted), "{args:?}: {}", out.stderr);
}
