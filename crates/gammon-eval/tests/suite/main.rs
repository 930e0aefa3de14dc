//! Evaluators: the bearoff database, pubeval against its published scores, the net.
//!
//! One test binary per crate: each file below was its own binary, and every
//! binary links (and, at opt-level 3, re-instantiates) the whole library, so
//! one binary builds much faster. Run one file's tests with
//! `cargo test -p gammon-eval --test suite <file>::`.
#![allow(clippy::unwrap_used)]

mod bearoff;
mod evaluator;
mod pubeval;
mod quant;
mod shipped_bits;
