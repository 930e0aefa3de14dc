//! Position evaluation for gammon: the [`Evaluator`] trait, multilayer
//! perceptrons with their input features and weights files, Tesauro's
//! pubeval, and exact one-sided and two-sided bearoff databases.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod bearoff;
pub mod bearoff_cache;
pub mod bearoff_two_sided;
mod evaluator;
pub mod file_format;
pub mod inputs;
pub mod mlp;
pub mod net;
mod player;
mod probabilities;
pub mod pubeval;
pub mod quant;
mod simd;
pub mod weights;

pub use evaluator::Evaluator;
pub use gammon_rules::PositionClass;
pub use net::{evaluated_by, evaluated_by_position, NetEvaluator};
pub use player::{choose_move, EvaluatorPlayer};
pub use probabilities::Probabilities;
pub use weights::{NetKind, NetWeights, TrainingMeta};
