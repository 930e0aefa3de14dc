//! The net a front end answers with: the one built into the program, or a
//! weights file the user names (the CLI's `--weights`, the Python
//! package's `weights=`), refused in the same words by both.

use gammon_eval::file_format::{FileError, FileKind, Found};
use gammon_eval::{NetEvaluator, NetWeights};
use std::path::Path;
use thiserror::Error;

/// Why the net cannot be had.
#[derive(Debug, Error)]
pub enum LoadNetError {
    /// The weights file cannot be read as weights.
    #[error("cannot load weights")]
    File(#[source] WeightsFileError),
    /// The built-in weights are damaged (a broken build).
    #[error("the weights built into this program do not load")]
    Shipped(#[source] FileError),
}

/// A weights file's problem, with a hint where the file is something else
/// of gammon's that holds weights.
#[derive(Debug, Error)]
pub enum WeightsFileError {
    /// The file's own problem.
    #[error(transparent)]
    File(FileError),
    /// A training checkpoint given as weights.
    #[error(
        "{0} (continue its run with `gammon train --resume --out <its folder>`; the run's weights are in weights.gnn beside it)"
    )]
    Checkpoint(FileError),
}

/// The built-in net, or the weights in `path`.
///
/// # Errors
/// [`LoadNetError`], the file named in its source.
pub fn load_net(path: Option<&Path>) -> Result<NetEvaluator, LoadNetError> {
    match path {
        Some(p) => {
            let weights = NetWeights::load(p).map_err(|e| match e.found() {
                Some(Found::Gammon(FileKind::Checkpoint)) => LoadNetError::File(WeightsFileError::Checkpoint(e)),
                _ => LoadNetError::File(WeightsFileError::File(e)),
            })?;
            Ok(NetEvaluator::new(weights))
        }
        None => NetEvaluator::shipped().map_err(LoadNetError::Shipped),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::error_chain;

    #[test]
    fn a_missing_file_is_named_and_the_built_in_net_loads() {
        let e = load_net(Some(Path::new("/nonexistent/w.gnn"))).err().map(|e| error_chain(&e)).unwrap_or_default();
        assert!(e.starts_with("cannot load weights: ") && e.contains("/nonexistent/w.gnn"), "{e}");
        assert!(load_net(None).is_ok());
    }
}
