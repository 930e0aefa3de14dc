//! Choosing an evaluator on the command line: the shipped net, a weights
//! file, or pubeval.

use anyhow::Result;
use gammon_eval::pubeval::PubEval;
use gammon_eval::{Evaluator, NetEvaluator};
use std::path::{Path, PathBuf};

/// The shipped net, or the weights in `path` (the engine's words when not).
pub fn net(path: Option<&Path>) -> Result<NetEvaluator> {
    Ok(gammon_engine::api::load_net(path)?)
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
