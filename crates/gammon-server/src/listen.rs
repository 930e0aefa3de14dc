//! The accept loop: hyper's HTTP/1 connections with limits against clients
//! that hold sockets without finishing their requests (axum's own `serve`
//! sets no header timeout and no connection limit).

use crate::app::AppState;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// What one client may hold: time to send a request, and sockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// A request's line and headers must arrive within this, counted from
    /// the connection's start or the end of its last answer: a half-sent
    /// head, or a kept-alive connection left idle, is closed after it.
    pub header_timeout: Duration,
    /// A request's body must arrive whole within this once its headers are
    /// read (`params::json_body`), else 408.
    pub body_timeout: Duration,
    /// Connections served at once; further ones wait in the listen backlog
    /// until one closes (the timeouts bound how long that takes).
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    /// 5 s for the head, 10 s for a body (1 MiB at 100 KB/s), 256
    /// connections (a quarter of the usual limit of 1024 open files).
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(10),
            max_connections: 256,
        }
    }
}

/// Serves `router(state)` on `listener` until `shutdown` completes, then
/// asks the running jobs to stop and returns once the open requests are
/// answered.
///
/// # Errors
/// None yet: accept errors (a full file table, a client gone before it
/// was accepted) are waited out, not returned.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let limits = state.connections;
    let jobs = state.jobs.clone();
    let service = TowerToHyperService::new(crate::router(state));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
    let slots = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            () = &mut shutdown => break,
            accepted = accept(&listener, &slots) => accepted,
        };
        let Some((stream, slot)) = accepted else { continue };
        let connection = http.serve_connection(TokioIo::new(stream), service.clone());
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A connection's error (a timeout, a reset) is its own end.
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    jobs.stop_all();
    graceful.shutdown().await;
    Ok(())
}

/// The next connection once a slot is free; `None` after an accept error
/// (waited out: a full file table frees as connections time out).
async fn accept(
    listener: &tokio::net::TcpListener,
    slots: &Arc<Semaphore>,
) -> Option<(tokio::net::TcpStream, tokio::sync::OwnedSemaphorePermit)> {
    let slot = Arc::clone(slots).acquire_owned().await.ok()?;
    match listener.accept().await {
        Ok((stream, _)) => Some((stream, slot)),
        Err(e) => {
            if !matches!(
                e.kind(),
                std::io::ErrorKind::ConnectionAborted
                    | std::io::ErrorKind::ConnectionReset
                    | std::io::ErrorKind::ConnectionRefused
            ) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            None
        }
    }
}
