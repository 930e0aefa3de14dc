//! Placeholder, being written.
use anyhow::Result;
use clap::Args;

/// Arguments (placeholder).
#[derive(Debug, Args)]
pub struct UbgiArgs {}

/// Runs the command (placeholder).
pub fn run(_args: &UbgiArgs) -> Result<()> {
    anyhow::bail!("not available yet")
}
