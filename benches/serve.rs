//! Server latency: `GET /api/analyse` (the moves of a roll ranked by cubeful
//! money equity) over the loopback interface, against a real server in this
//! process on a free port (the shipped net, a 2-thread worker pool, two async
//! threads as `gammon serve` has), asked by one keep-alive client.
//!
//! - `serve 0-ply`: one request at 0 plies per iteration, for each of 4
//!   contact positions (the first of the wildbg contact benchmark file, each
//!   with its own roll). The goal: a median under 1 ms. Beside them the
//!   round trip of `GET /api/position`, which runs no search.
//! - `serve 2-ply/case N`: the same request at 2 plies, beside the engine
//!   call the server makes for it (`Engine::analyse` on the same pool, no
//!   HTTP, no JSON), as the CLI makes it in process, and that call with the
//!   JSON text written (what `gammon analyse --json` adds). The goal: the
//!   server within 10% of the call.
//!
//! The search caches are emptied before every iteration (not timed), so
//! each request is the first one for its position, as a new position from a
//! client is.
//!
//! `cargo bench -p gammon-benches --bench serve`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, SamplingMode};
use gammon_benches::{positions_from_lines, read_shared};
use gammon_engine::api::{AnalyseOptions, Engine, Request};
use gammon_eval::NetEvaluator;
use gammon_rules::{Dice, Position, ALL_ROLLS};
use gammon_server::JobLimits;
use serde_json::Value;
use std::hint::black_box;
use std::sync::Arc;
use std::thread;
use std::time::Duration;

const CASES: usize = 4;
const POOL_THREADS: usize = 2;

fn cases() -> Vec<(Position, Dice)> {
    let positions = positions_from_lines(&read_shared("bench/contact-1000.txt"));
    positions.into_iter().take(CASES).enumerate().map(|(i, p)| (p, ALL_ROLLS[(5 * i + 3) % ALL_ROLLS.len()])).collect()
}

/// A server on 127.0.0.1, stopped when dropped.
struct Server {
    url: String,
    engine: Arc<Engine<NetEvaluator>>,
    pool: Arc<rayon::ThreadPool>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Server {
    fn start() -> Server {
        let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(POOL_THREADS).build().unwrap());
        let state = gammon_server::state(NetEvaluator::shipped().unwrap(), Arc::clone(&pool), JobLimits::default());
        let engine = Arc::clone(&state.engine);
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        listener.set_nonblocking(true).unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = thread::spawn(move || {
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                let shutdown = async move {
                    let _ = stopped.await;
                };
                gammon_server::serve(listener, state, shutdown).await.unwrap();
            });
        });
        Server { url, engine, pool, stop: Some(stop), thread: Some(thread) }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A Position ID as a query value: it holds `+` and `/`.
fn query_id(position: &Position) -> String {
    position.to_position_id().replace('+', "%2B").replace('/', "%2F")
}

/// The analyse URL of a case.
fn analyse_url(server: &Server, position: &Position, dice: Dice, plies: u8) -> String {
    let id = query_id(position);
    format!("{}/api/analyse?position={id}&dice={}{}&ply={plies}", server.url, dice.high(), dice.low())
}

/// One request, its body read; the status must be 200.
fn ask(agent: &ureq::Agent, url: &str) -> String {
    let mut response = agent.get(url).call().unwrap();
    assert_eq!(response.status(), 200, "{url}");
    response.body_mut().read_to_string().unwrap()
}

fn serve(c: &mut Criterion) {
    let server = Server::start();
    let agent: ureq::Agent = ureq::Agent::config_builder().http_status_as_error(false).build().into();
    let cases = cases();
    assert_eq!(cases.len(), CASES);
    // The server and the call compared do the same work: the same moves
    // ranked the same. (This also builds the bearoff database, which is done
    // on first use, before any timing.)
    for (position, dice) in &cases {
        let served: Value = serde_json::from_str(&ask(&agent, &analyse_url(&server, position, *dice, 2))).unwrap();
        let request = Request { dice: Some(*dice), ..Request::money(*position) };
        let analysis = server.pool.install(|| server.engine.analyse(&request, &AnalyseOptions::default()).unwrap());
        // Through text, as the server writes it (a Value would widen the f32s).
        let called = serde_json::to_string(&analysis).unwrap();
        let called: Value = serde_json::from_str(&called).unwrap();
        assert_eq!(served["moves"], called["moves"], "{}", position.to_position_id());
    }
    let cold = || server.engine.clear_caches();

    let mut group = c.benchmark_group("serve 0-ply");
    group.sample_size(30);
    group.warm_up_time(Duration::from_secs(1));
    group.measurement_time(Duration::from_secs(2));
    // The round trip alone: an endpoint that reads the position and runs no
    // search, the floor under every request.
    let url = format!("{}/api/position?position={}", server.url, query_id(&cases[0].0));
    group.bench_function("GET /api/position (no search)", |b| b.iter(|| black_box(ask(&agent, &url))));
    for (i, (position, dice)) in cases.iter().enumerate() {
        let url = analyse_url(&server, position, *dice, 0);
        let name = format!("GET /api/analyse, case {i} ({} {}{})", position.to_position_id(), dice.high(), dice.low());
        group.bench_function(name, |b| {
            b.iter_batched(cold, |()| black_box(ask(&agent, &url)), BatchSize::PerIteration);
        });
    }
    group.finish();

    for (i, (position, dice)) in cases.iter().enumerate() {
        let mut group = c.benchmark_group(format!("serve 2-ply/case {i}"));
        group.sampling_mode(SamplingMode::Flat);
        group.sample_size(10);
        group.warm_up_time(Duration::from_secs(1));
        group.measurement_time(Duration::from_secs(3));
        let url = analyse_url(&server, position, *dice, 2);
        let request = Request { dice: Some(*dice), ..Request::money(*position) };
        let in_process = || server.engine.analyse(&request, &AnalyseOptions::default()).unwrap();
        // Which runs first rotates, so that a change in the machine's load
        // during the run does not favour one side.
        for side in (0..3).map(|k| (k + i) % 3) {
            match side {
                0 => group.bench_function("GET /api/analyse (loopback)", |b| {
                    b.iter_batched(cold, |()| black_box(ask(&agent, &url)), BatchSize::PerIteration);
                }),
                1 => group.bench_function("Engine::analyse (in process)", |b| {
                    b.iter_batched(cold, |()| server.pool.install(|| black_box(in_process())), BatchSize::PerIteration);
                }),
                _ => group.bench_function("the same call and its JSON text (as the CLI prints it)", |b| {
                    b.iter_batched(
                        cold,
                        |()| {
                            server.pool.install(|| {
                                let analysis = in_process();
                                black_box(serde_json::to_string(&analysis).unwrap())
                            })
                        },
                        BatchSize::PerIteration,
                    );
                }),
            };
        }
        group.finish();
    }
}

criterion_group!(benches, serve);
criterion_main!(benches);
