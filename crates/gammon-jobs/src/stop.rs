//! The one stop flag. A job polls it between pieces of work and, once it is
//! set, finishes what it holds and keeps it. In a command-line process the
//! flag is set by the first Ctrl-C (or SIGTERM, SIGHUP: ctrlc's
//! `termination` feature, what `timeout`, docker and batch systems send);
//! the second signal quits at once with [`INTERRUPTED`].

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use thiserror::Error;

/// The exit status of a job stopped by a signal (128 + SIGINT).
pub const INTERRUPTED: i32 = 130;

/// Which signal this is: the first asks the job to stop, the second quits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Press {
    /// The first: the job finishes what it holds and keeps it.
    First,
    /// The second: the process exits with [`INTERRUPTED`] right after.
    Second,
}

/// A cloneable handle on one stop flag.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

/// The signal handler could not be installed.
#[derive(Debug, Clone, Error)]
#[error("cannot install the Ctrl-C handler")]
pub struct StopError(#[source] Arc<ctrlc::Error>);

type Say = Box<dyn Fn(Press) + Send>;

/// The process's one flag and what its signals say (the latest job's words).
struct Handler {
    flag: StopFlag,
    say: Mutex<Option<Say>>,
}

static HANDLER: OnceLock<Result<Handler, StopError>> = OnceLock::new();

impl StopFlag {
    /// A flag nothing sets but [`StopFlag::stop`] (the server's jobs, tests).
    pub fn new() -> Self {
        StopFlag::default()
    }

    /// The process's flag, set by Ctrl-C, SIGTERM and SIGHUP. The handler
    /// is installed on the first call; each call replaces what the signals
    /// say (`say` is called with [`Press::First`] on the first signal, and
    /// with [`Press::Second`] on the second, just before the exit with
    /// [`INTERRUPTED`]), so the job running now speaks for itself.
    ///
    /// # Errors
    /// The handler cannot be installed (another one is).
    pub fn on_signals(say: impl Fn(Press) + Send + 'static) -> Result<StopFlag, StopError> {
        let handler = HANDLER.get_or_init(|| {
            let flag = StopFlag::new();
            let seen = flag.clone();
            ctrlc::set_handler(move || {
                let press = if seen.0.swap(true, Ordering::SeqCst) { Press::Second } else { Press::First };
                if let Some(Ok(h)) = HANDLER.get() {
                    if let Some(say) = h.say.lock().unwrap_or_else(std::sync::PoisonError::into_inner).as_ref() {
                        say(press);
                    }
                }
                if press == Press::Second {
                    std::process::exit(INTERRUPTED);
                }
            })
            .map_err(|e| StopError(Arc::new(e)))?;
            Ok(Handler { flag, say: Mutex::new(None) })
        });
        let handler = handler.as_ref().map_err(Clone::clone)?;
        *handler.say.lock().unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Box::new(say));
        Ok(handler.flag.clone())
    }

    /// [`StopFlag::on_signals`] that prints `message` on standard error at
    /// the first signal.
    ///
    /// # Errors
    /// As [`StopFlag::on_signals`].
    pub fn on_signals_saying(message: &'static str) -> Result<StopFlag, StopError> {
        StopFlag::on_signals(move |press| {
            if press == Press::First {
                eprintln!("{message}");
            }
        })
    }

    /// Asks the job to stop.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the job was asked to stop.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// The flag itself, for the engine's calls that poll an `AtomicBool`.
    pub fn as_atomic(&self) -> &AtomicBool {
        &self.0
    }

    /// The shared flag, for an engine made stoppable by it.
    pub fn to_arc(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.0)
    }
}

impl AsRef<AtomicBool> for StopFlag {
    fn as_ref(&self) -> &AtomicBool {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_one_flag() {
        let a = StopFlag::new();
        let b = a.clone();
        assert!(!b.is_stopped());
        a.stop();
        assert!(b.is_stopped() && b.as_atomic().load(Ordering::SeqCst));
    }

    #[test]
    fn the_signal_flag_is_one_per_process() {
        let a = StopFlag::on_signals(|_| {}).expect("installed");
        let b = StopFlag::on_signals_saying("second job").expect("reused");
        assert!(Arc::ptr_eq(&a.0, &b.0));
    }
}
