//! The engine: n-ply search with move filters, cube decisions for money and
//! match play, and Monte Carlo rollouts, each built around an
//! [`Evaluator`](gammon_eval::Evaluator); [`api::Engine`] answers them all
//! through one typed API.
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod api;
pub mod cube;
pub mod duel;
pub mod in_order;
pub mod met;
pub mod review;
pub mod rollout;
pub mod search;
pub mod shard;

pub use api::{Engine, EngineError};
