//! The `gammon` binary end to end.
//!
//! One test binary per crate: each file below was its own binary, and every
//! binary links (and, at opt-level 3, re-instantiates) the whole library, so
//! one binary builds much faster. Run one file's tests with
//! `cargo test -p gammon-cli --test suite <file>::`.
#![allow(clippy::unwrap_used)]

use gammon_testkit::Output;

/// The binary under test.
const GAMMON: &str = env!("CARGO_BIN_EXE_gammon");

/// `gammon args`, with no standard input.
fn gammon(args: &[&str]) -> Output {
    gammon_testkit::run(GAMMON, args, b"")
}

/// The standard output of `gammon args`, which must succeed.
fn ok(args: &[&str]) -> String {
    gammon_testkit::ok(GAMMON, args)
}

/// `gammon args` must fail, saying `wanted` on standard error.
fn fails(args: &[&str], wanted: &str) {
    gammon_testkit::fails(GAMMON, args, wanted)
}

mod analyse;
mod benchmark;
mod browser;
mod cli;
mod convert;
mod cube;
mod eval_train;
mod files;
mod json_documents;
mod k8s;
mod label_fit;
mod long_work;
mod match_files_hostile;
mod outputs;
mod play;
mod review;
mod rollout;
mod serve;
mod sgf_analysis;
mod shards;
mod slurm;
mod ubgi;
