//! Placeholder, being written.
use anyhow::Result;
use clap::Args;

/// Arguments (placeholder).
#[derive(Debug, Args)]
pub struct RolloutArgs {}

/// Runs the command (placeholder).
pub fn run(_args: &RolloutArgs) -> Result<()> {
    anyhow::bail!("not available yet")
}
