//! Search, cube decisions and rollouts against gnubg and against brute force.
//!
//! One test binary per crate: each file below was its own binary, and every
//! binary links (and, at opt-level 3, re-instantiates) the whole library, so
//! one binary builds much faster. Run one file's tests with
//! `cargo test -p gammon-engine --test suite <file>::`.
#![allow(clippy::unwrap_used)]

mod cube;
mod cube_nply;
mod met;
mod review;
mod rollout;
mod search;
