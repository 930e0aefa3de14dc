//! Stopping long jobs: the first Ctrl-C (or SIGTERM, SIGHUP: ctrlc's
//! `termination` feature) asks the job to stop where it keeps its work; the
//! second quits at once. A stopped job exits with [`INTERRUPTED`].

use anyhow::{Context, Result};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The exit status of a job stopped by a signal (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// A flag the first signal sets, printing `message` (what the job does
/// now); the second signal exits at once.
///
/// # Errors
/// The handler cannot be installed (one is already).
pub fn stop_flag(message: &'static str) -> Result<Arc<AtomicBool>> {
    stop_flag_saying(move || eprintln!("{message}"))
}

/// [`stop_flag`] that calls `say` on the first signal (to print around a
/// progress bar).
///
/// # Errors
/// The handler cannot be installed (one is already).
pub fn stop_flag_saying(say: impl Fn() + Send + 'static) -> Result<Arc<AtomicBool>> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(INTERRUPTED);
        }
        say();
    })
    .context("cannot install the Ctrl-C handler")?;
    Ok(stop)
}
