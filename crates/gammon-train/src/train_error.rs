//! Why self-play training stopped early: one error for the training loop
//! ([`crate::trainer`]) and the pipeline schedule it drives
//! ([`crate::pipeline`]), kept apart from both so that the pipeline does
//! not import the loop that calls it.

use gammon_eval::file_format::FileError;
use std::path::PathBuf;
use thiserror::Error;

/// Why training stopped early.
#[derive(Debug, Error)]
pub enum TrainError {
    /// Reading or writing a checkpoint or weights file.
    #[error(transparent)]
    File(#[from] FileError),
    /// Other file-system trouble (logs, folders). The OS error is the
    /// `source`, not repeated in the message.
    #[error("cannot write {}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The thread pool could not start.
    #[error("cannot start {0} worker threads")]
    Threads(usize),
    /// Training diverged.
    #[error("the weights are no longer finite numbers after {0} games; lower the learning rate")]
    Diverged(u64),
}
