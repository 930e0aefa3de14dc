//! Placeholder, being written.
use anyhow::Result;
use clap::Args;

/// Arguments (placeholder).
#[derive(Debug, Args)]
pub struct CubeArgs {}

/// Runs the command (placeholder).
pub fn run(_args: &CubeArgs) -> Result<()> {
    anyhow::bail!("not available yet")
}
