//! The `gammon` binary end to end.
//!
//! One test binary per crate: each file below was its own binary, and every
//! binary links (and, at opt-level 3, re-instantiates) the whole library, so
//! one binary builds much faster. Run one file's tests with
//! `cargo test -p gammon-cli --test suite <file>::`.
#![allow(clippy::unwrap_used)]

mod analyse;
mod benchmark;
mod browser;
mod cli;
mod cube;
mod eval_train;
mod files;
mod k8s;
mod label_fit;
mod long_work;
mod match_files_hostile;
mod outputs;
mod play;
mod review;
mod rollout;
mod serve;
mod shards;
mod slurm;
mod ubgi;
