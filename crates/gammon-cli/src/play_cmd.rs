//! Placeholder, being written.
use anyhow::Result;
use clap::Args;

/// Arguments (placeholder).
#[derive(Debug, Args)]
pub struct PlayArgs {}

/// Runs the command (placeholder).
pub fn run(_args: &PlayArgs) -> Result<()> {
    anyhow::bail!("not available yet")
}
