//! gammon's long jobs (rollouts, labelling, reviews, fitting, training, the
//! server's job queue) share one way to stop, report, checkpoint and resume:
//!
//! - [`StopFlag`]: the one flag a job polls; [`StopFlag::on_signals`]
//!   installs the process's Ctrl-C/SIGTERM/SIGHUP handler once (the first
//!   signal asks to stop, the second exits with [`INTERRUPTED`]), and
//!   [`StopFlag::new`] is a plain flag (the server's jobs, tests);
//! - [`Progress`]: where a job reports how far it has come, drawn as a bar
//!   in the terminal ([`Bar`]) or kept for the server's GETs ([`Shared`]);
//! - [`Fingerprint`]: the settings a checkpoint was made with, by name, so
//!   that a resume goes on only with the same settings and otherwise names
//!   the ones that differ;
//! - [`CheckpointPolicy`]: save every N items or T seconds (the job saves
//!   through the safe writer, `gammon_eval::file_format::output`);
//! - [`Job`] and [`run`]: a job done step by step, saved by the policy, and
//!   saved once more when it ends, is stopped or fails, so that nothing
//!   finished is lost;
//! - [`rollout_shard`]: the resumable rollout shard (`gammon rollout --shard
//!   --out`) on top of these.
//!
//! The crate sits between the engine and its users (gammon-train, gammon-cli,
//! gammon-server); it uses gammon-engine and below, never a crate above.

#![cfg_attr(test, allow(clippy::unwrap_used))]

mod checkpoint;
mod fingerprint;
mod progress;
pub mod rollout_shard;
mod runner;
mod stop;

pub use checkpoint::{CheckpointPolicy, Checkpoints};
pub use fingerprint::{Differ, Fingerprint, SettingsDiffer};
pub use progress::{Bar, Progress, Shared, Snapshot};
pub use runner::{run, Ended, Job};
pub use stop::{Press, StopError, StopFlag, INTERRUPTED};
