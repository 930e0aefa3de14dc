//! Training gammon's networks: self-play TD(λ) (settings, the training game,
//! the parallel training loop, checkpoints, the learning curve) and
//! distillation of the engine's lookahead into the nets.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod checkpoint;
pub mod config;
pub mod distill;
pub mod plot;
pub mod selfplay;
pub mod trainer;

pub use checkpoint::{BenchmarkRow, Checkpoint};
pub use config::{RateStep, TrainConfig, MAX_THREADS};
pub use trainer::{start, train, RunFiles, TrainError, TrainOutcome};
