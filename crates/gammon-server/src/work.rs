//! Engine work off the async threads: every search runs on the rayon pool,
//! and a request whose client has gone does no more work than it must. Work
//! that has not started when the client goes is skipped; work that is
//! running is stopped: each request's engine is a
//! [`Engine::stoppable`](gammon_engine::Engine::stoppable) one whose flag is
//! set when the request's future is dropped (hyper drops it when the
//! connection closes), and its meaningless answer is thrown away.

use crate::app::AppState;
use crate::error::ApiError;
use gammon_engine::Engine;
use gammon_eval::NetEvaluator;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::sync::oneshot;

/// Sets its flag when dropped: the future that owns it is finished or was
/// dropped (the client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Release);
    }
}

/// Runs `work` on `pool` and waits for it without blocking an async thread.
/// `work` gets a flag that is set once nobody waits for its answer any more
/// (the returned future was dropped: a closed connection); work that has not
/// started by then is skipped. A panic in `work` is answered as a 500, not a
/// crash.
pub async fn on_pool<T: Send + 'static>(
    pool: &rayon::ThreadPool,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_when_dropped = StopOnDrop(Arc::clone(&stop));
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        if tx.is_closed() {
            return;
        }
        let _ = tx.send(std::panic::catch_unwind(AssertUnwindSafe(|| work(&stop))));
    });
    match rx.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(_)) => Err(ApiError::internal("the engine failed on this request (a bug: please report it)")),
        Err(_) => Err(ApiError::internal("the work was dropped")),
    }
}

/// [`on_pool`] with the server's engine, made stoppable by the request's
/// flag: a search still running when the client goes stops at once.
pub async fn with_engine<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&Engine<&NetEvaluator>) -> T + Send + 'static,
) -> Result<T, ApiError> {
    let engine = Arc::clone(&state.engine);
    on_pool(&state.pool, move |stop| work(&engine.stoppable(Arc::clone(stop)))).await
}
