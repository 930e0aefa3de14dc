//! The rules crate against GNU Backgammon's answers, published perft counts and property tests.
//!
//! One test binary per crate: each file below was its own binary, and every
//! binary links (and, at opt-level 3, re-instantiates) the whole library, so
//! one binary builds much faster. Run one file's tests with
//! `cargo test -p gammon-rules --test suite <file>::`.
#![allow(clippy::unwrap_used)]

mod format_properties;
mod hostile_files;
mod match_files;
mod ogxm_files;
mod oracle_games;
mod oracle_match_ids;
mod oracle_movegen;
mod perft;
mod properties;
mod sgf_files;
mod step_orders;
mod writers;
mod xg_files;

/// An error and its sources, as the CLI prints them (`{:#}` of anyhow).
fn chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(&format!(": {s}"));
        source = s.source();
    }
    text
}
