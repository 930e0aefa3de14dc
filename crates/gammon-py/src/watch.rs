//! Long work with the GIL released and Ctrl-C honoured: the work runs on a
//! thread of its own while the calling thread waits for it, running
//! Python's signal handlers every 50 ms. A `KeyboardInterrupt` sets the
//! work's stop flag; the work then ends as the engine ends stopped work
//! (a rollout with the games finished, a review with the records reviewed)
//! and the interrupt is raised once its answer is in hand. Signals that
//! come while the work winds down are run and dropped: a second Ctrl-C
//! does not quit at once (the first already asked the work to stop), and
//! does not fire after the call returns, losing the partial answer. The
//! signals are looked at once more when the answer is in, so that one in
//! the last interval is raised with it.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// How often the waiting thread looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(50);

/// `work`'s answer, and the `KeyboardInterrupt` (or other signal handler's
/// error) raised while it ran, if any; `stop` is set when one was.
pub fn watched<T: Send>(py: Python<'_>, stop: &AtomicBool, work: impl FnOnce() -> T + Send) -> (T, Option<PyErr>) {
    py.detach(|| {
        std::thread::scope(|s| {
            let (done, answer) = mpsc::channel();
            let worker = s.spawn(move || {
                // The receiver waits until this is sent or the thread ends.
                let _ = done.send(work());
            });
            let mut raised = None;
            loop {
                let received = answer.recv_timeout(POLL);
                // Also once the answer is in: a signal of the last poll's
                // interval is raised with it, not after the call returns.
                if let Err(e) = Python::attach(|py| py.check_signals()) {
                    stop.store(true, Ordering::Relaxed);
                    raised.get_or_insert(e);
                }
                match received {
                    Ok(value) => return (value, raised),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => {
                        // The work panicked: carry its panic to the caller.
                        match worker.join() {
                            Err(panic) => std::panic::resume_unwind(panic),
                            Ok(()) => unreachable!("the work ended without sending its answer"),
                        }
                    }
                }
            }
        })
    })
}
