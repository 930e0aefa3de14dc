//! Running the `gammon` binary in tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `gammon <args>` with `input` on standard input (closed at its end).
pub fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    // The program may stop before reading everything: a closed pipe is fine.
    let _ = pipe.write_all(input);
    drop(pipe);
    child.wait_with_output().unwrap()
}

/// Bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
