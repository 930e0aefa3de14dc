//! Engine work off the async threads: every search runs on the rayon pool,
//! and a request whose client has gone before its work starts does none.

use crate::error::ApiError;
use std::panic::AssertUnwindSafe;
use tokio::sync::oneshot;

/// Runs `work` on `pool` and waits for it without blocking an async thread.
/// Dropping the returned future (a closed connection) cancels work that has
/// not started; a panic in `work` is answered as a 500, not a crash.
pub async fn on_pool<T: Send + 'static>(
    pool: &rayon::ThreadPool,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, ApiError> {
    let (tx, rx) = oneshot::channel();
    pool.spawn(move || {
        if tx.is_closed() {
            return;
        }
        let _ = tx.send(std::panic::catch_unwind(AssertUnwindSafe(work)));
    });
    match rx.await {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(_)) => Err(ApiError::internal("the engine failed on this request (a bug: please report it)")),
        Err(_) => Err(ApiError::internal("the work was dropped")),
    }
}
