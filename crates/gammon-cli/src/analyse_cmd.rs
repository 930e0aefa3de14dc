//! Placeholder, being written.
use anyhow::Result;
use clap::Args;

/// Arguments (placeholder).
#[derive(Debug, Args)]
pub struct AnalyseArgs {}

/// Runs the command (placeholder).
pub fn run(_args: &AnalyseArgs) -> Result<()> {
    anyhow::bail!("not available yet")
}
