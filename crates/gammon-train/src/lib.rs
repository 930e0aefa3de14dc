//! Training gammon's networks: self-play TD(λ) (settings, the training game,
//! the parallel training loop, checkpoints, the learning curve),
//! distillation of the engine's lookahead into the nets, rollout labels and
//! supervised training toward labelled positions, and the benchmark that
//! measures a net against labelled positions (`gammon benchmark`).
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod benchmark;
pub mod checkpoint;
pub mod choice;
pub mod config;
pub mod dataset;
pub mod distill;
pub mod distill_run;
pub mod labels;
pub mod pipeline;
pub mod plot;
pub mod ranking;
pub mod selfplay;
pub mod siblings;
pub mod supervised;
mod train_error;
pub mod trainer;

pub use checkpoint::{BenchmarkRow, Checkpoint};
pub use config::{RateStep, Schedule, TrainConfig, MAX_THREADS};
pub use trainer::{start, train, RunFiles, TrainError, TrainOutcome};
