//! Choosing an evaluator on the command line: the shipped net, a weights
//! file, or pubeval.

use anyhow::{Context, Result};
use gammon_eval::file_format::{FileKind, Found};
use gammon_eval::pubeval::PubEval;
use gammon_eval::{Evaluator, NetEvaluator, NetWeights};
use std::path::{Path, PathBuf};

/// The shipped net, or the weights in `path`.
pub fn net(path: Option<&Path>) -> Result<NetEvaluator> {
    match path {
        Some(p) => {
            // The library's error names the file; the context says what it was for.
            let w = NetWeights::load(p)
                .map_err(|e| match e.found() {
                    Some(Found::Gammon(FileKind::Checkpoint)) => anyhow::anyhow!(
                        "{e} (continue its run with `gammon train --resume --out <its folder>`; \
                         the run's weights are in weights.gnn beside it)"
                    ),
                    _ => e.into(),
                })
                .context("cannot load weights")?;
            Ok(NetEvaluator::new(w))
        }
        None => NetEvaluator::shipped().context("the weights built into this program do not load"),
    }
}

/// `net` (the shipped weights), `pubeval`, or a path to a weights file.
pub fn by_name(spec: &str) -> Result<Box<dyn Evaluator>> {
    match spec {
        "pubeval" => Ok(Box::new(PubEval)),
        "net" | "gammon" => Ok(Box::new(net(None)?)),
        path => {
            let p = PathBuf::from(path);
            if !p.exists() {
                anyhow::bail!("{spec:?} is neither `net`, `pubeval` nor an existing weights file");
            }
            Ok(Box::new(net(Some(&p))?))
        }
    }
}
