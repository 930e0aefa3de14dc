//! Self-play TD(λ) training for gammon's networks: settings, the training
//! game, the parallel training loop, checkpoints and the learning curve.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod checkpoint;
pub mod config;
pub mod distill;
pub mod plot;
pub mod selfplay;
pub mod trainer;

pub use checkpoint::{BenchmarkRow, Checkpoint};
pub use config::{RateStep, TrainConfig};
pub use trainer::{start, train, RunFiles, TrainError, TrainOutcome};
