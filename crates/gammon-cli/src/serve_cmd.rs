//! `gammon serve`: the HTTP JSON API and the web page ([`gammon_server`]) on
//! a local port until Ctrl-C or SIGTERM.

use crate::args::{MetArg, ThreadsArg, WeightsArg};
use anyhow::{Context, Result};
use clap::Args;
use gammon_server::JobLimits;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

/// Arguments of `gammon serve`.
#[derive(Debug, Args)]
#[command(after_help = "Binds 127.0.0.1 unless --bind names another address or host name (a warning is printed \
for one that is not loopback): the API has no authentication, so expose it to a network only behind something \
that has. The endpoints are described at /api/openapi.json \
and in docs/server.md. Searches, rollouts and reviews run on --threads worker threads; at most 2 rollouts or \
reviews run at once and 32 wait, more are refused (429). Ctrl-C or SIGTERM stops the server: the running jobs \
stop and the open requests are answered first.")]
pub struct ServeArgs {
    /// The TCP port (0: any free port; the URL printed says which).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address or host name to listen on (a name is resolved; a
    /// non-loopback address gets a warning).
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Log one line per request on standard error: method, path, status
    /// and duration (off by default).
    #[arg(long)]
    log: bool,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    met: MetArg,
}

/// Runs `gammon serve`.
pub fn run(args: &ServeArgs) -> Result<()> {
    if args.log {
        use tracing_subscriber::layer::SubscriberExt;
        use tracing_subscriber::util::SubscriberInitExt;
        // Only the server's request lines: no other crate's events.
        let requests = tracing_subscriber::filter::Targets::new()
            .with_target(gammon_server::request_log::TARGET, tracing_subscriber::filter::LevelFilter::INFO);
        tracing_subscriber::fmt()
            .with_writer(std::io::stderr)
            .with_target(false)
            .finish()
            .with(requests)
            .try_init()
            .map_err(|e| anyhow::anyhow!("cannot start the request log: {e}"))?;
    }
    let evaluator = args.weights.net()?;
    let pool = Arc::new(args.threads.pool()?);
    let state = gammon_server::state_with_met(evaluator, args.met.met()?, pool, JobLimits::default());
    // The async threads only read and write sockets: two are plenty.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the server's threads")?;
    runtime.block_on(async {
        let listener = listen(&args.bind, args.port).await?;
        let bound = listener.local_addr().context("cannot read the bound address")?;
        if !bound.ip().is_loopback() {
            eprintln!(
                "gammon serve: warning: listening on {}, not a loopback address: anyone who can reach it can use the \
                 API, which has no authentication",
                bound.ip()
            );
        }
        let host = match bound.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            ip => ip.to_string(),
        };
        println!("gammon serve: http://{host}:{}/ (Ctrl-C stops)", bound.port());
        gammon_server::serve(listener, state, stop_signal()).await.context("the server failed")?;
        eprintln!("gammon serve: stopped");
        Ok(())
    })
}

/// A listener on `host` (an IP address, bracketed or not, or a name to
/// resolve) and `port`: the first of its addresses that can be bound.
async fn listen(host: &str, port: u16) -> Result<tokio::net::TcpListener> {
    let host = host.trim();
    let bare = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
    if let Ok(ip) = bare.parse::<IpAddr>() {
        let address = SocketAddr::new(ip, port);
        return tokio::net::TcpListener::bind(address).await.with_context(|| format!("cannot listen on {address}"));
    }
    let addresses: Vec<SocketAddr> = tokio::net::lookup_host((bare, port))
        .await
        .with_context(|| format!("--bind {bare}: cannot resolve this host name"))?
        .collect();
    let mut failure = None;
    for address in &addresses {
        match tokio::net::TcpListener::bind(address).await {
            Ok(listener) => return Ok(listener),
            Err(e) => failure = Some(anyhow::Error::new(e).context(format!("cannot listen on {address}"))),
        }
    }
    Err(failure.unwrap_or_else(|| anyhow::anyhow!("--bind {bare}: the host name has no address")))
}

/// Completes on the first Ctrl-C or SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
