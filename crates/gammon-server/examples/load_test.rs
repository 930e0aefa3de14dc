//! A bounded load test of `gammon serve` over the loopback interface; it
//! stops by itself.
//!
//! One file because an example is one program: the clients, the rollout
//! jobs, the memory and CPU watch and the report share its settings.
//!
//! ```text
//! cargo run --release -p gammon-server --example load_test -- \
//!     [--url http://127.0.0.1:PORT [--pid PID]] [--clients 50] [--seconds 30] [--seed 1]
//!     [--deep-percent 10] [--rollouts 20] [--threads N]
//! ```
//!
//! Without `--url` it starts its own server in this process (the shipped
//! net, `--threads` workers, the default job limits, 127.0.0.1 on a free
//! port); with `--url` it asks that server, which must be on the loopback,
//! and reads memory and CPU of `--pid` when given.
//!
//! Phase 1: `--clients` threads, each with one keep-alive connection, ask
//! `GET /api/analyse` with dice for random positions for `--seconds`:
//! `--deep-percent` of the requests at 2 plies, the rest at 0. Reported per
//! depth: requests/s, p50/p99/max latency; every answer that is not a 200 is
//! an error and printed. The server's resident memory is read every second
//! after a warm-up (one request of each depth and one bearoff, which loads
//! the bearoff databases); growth of more than a tenth (or 16 MiB) between
//! the middle and the end fails.
//!
//! Phase 2: `--rollouts` rollout jobs of 1,000,000 games each, submitted one
//! after the other and cancelled at random times; every job must end
//! `cancelled` (or `done`), the server must then use no CPU over a second,
//! and as many new jobs as it runs at once must start at once (no slot
//! leaked) and finish. Meanwhile one client asks 0-ply analyses and reports
//! their latency (its errors count; its latency is only reported).
//!
//! The positions come from random games played from the start with a seeded
//! RNG, and each client's choices from its own seeded RNG: the same seed asks
//! the same sequence of requests (how many depends on the speed).
//!
//! Exit status: 0 when everything passed, 1 on any error, leak or growth, 2
//! for bad arguments or a server that cannot be started or reached.
#![allow(missing_docs)]

use gammon_eval::NetEvaluator;
use gammon_rules::{Position, ALL_ROLLS};
use gammon_server::JobLimits;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::process::ExitCode;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// No request may take longer than this; the test stops by itself.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(60);
/// How long a cancelled job may take to leave the pool.
const CANCEL_GRACE: Duration = Duration::from_secs(30);
/// The games of each rollout job of phase 2 (the most a job may ask).
const ROLLOUT_GAMES: u64 = 1_000_000;
/// Cancels fall at random within this window after the jobs are submitted.
const CANCEL_WINDOW_MS: u64 = 6000;
/// Linux's USER_HZ: the unit of utime and stime in /proc/PID/stat.
const CLOCK_TICKS_PER_SECOND: u64 = 100;
/// At most this CPU (in ticks over one second) once every job has stopped.
const IDLE_TICKS: u64 = 5;
/// Errors printed in full (all are counted).
const ERRORS_SHOWN: usize = 10;

#[derive(Debug, Clone)]
struct Options {
    url: Option<String>,
    pid: Option<u32>,
    clients: usize,
    seconds: u64,
    seed: u64,
    deep_percent: u32,
    rollouts: usize,
    threads: Option<usize>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options {
        url: None,
        pid: None,
        clients: 50,
        seconds: 30,
        seed: 1,
        deep_percent: 10,
        rollouts: 20,
        threads: None,
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => o.url = Some(value()?.trim_end_matches('/').to_string()),
            "--pid" => o.pid = Some(number(flag, value()?)?),
            "--clients" => o.clients = number(flag, value()?)?,
            "--seconds" => o.seconds = number(flag, value()?)?,
            "--seed" => o.seed = number(flag, value()?)?,
            "--deep-percent" => o.deep_percent = number(flag, value()?)?,
            "--rollouts" => o.rollouts = number(flag, value()?)?,
            "--threads" => o.threads = Some(number(flag, value()?)?),
            other => return Err(format!("unknown argument {other:?} (see the top of examples/load_test.rs)")),
        }
    }
    if !(1..=1000).contains(&o.clients) {
        return Err(format!("--clients {} is not from 1 to 1000", o.clients));
    }
    if !(1..=3600).contains(&o.seconds) {
        return Err(format!("--seconds {} is not from 1 to 3600", o.seconds));
    }
    if o.deep_percent > 100 {
        return Err(format!("--deep-percent {} is not from 0 to 100", o.deep_percent));
    }
    if o.rollouts > 1000 {
        return Err(format!("--rollouts {} is more than 1000", o.rollouts));
    }
    if o.threads == Some(0) {
        return Err("--threads 0: at least one worker is needed".to_string());
    }
    if let Some(url) = &o.url {
        let host = url.strip_prefix("http://").unwrap_or("").split(['/', ':']).next().unwrap_or("");
        let host = if url.starts_with("http://[::1]") { "[::1]" } else { host };
        if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") {
            return Err(format!("--url {url}: not an http:// address on the loopback (this test stays local)"));
        }
    }
    Ok(o)
}

fn number<T: std::str::FromStr>(flag: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("{flag} {text:?} is not a number"))
}

// ------------------------------------------------------------------ server

/// A server in this process, stopped when dropped.
struct LocalServer {
    url: String,
    state: gammon_server::AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl LocalServer {
    fn start(threads: Option<usize>) -> Result<LocalServer, String> {
        let evaluator = NetEvaluator::shipped().map_err(|e| format!("cannot load the shipped net: {e}"))?;
        let mut pool = rayon::ThreadPoolBuilder::new().thread_name(|i| format!("gammon-worker-{i}"));
        if let Some(t) = threads {
            pool = pool.num_threads(t);
        }
        let pool = Arc::new(pool.build().map_err(|e| format!("cannot start the worker threads: {e}"))?);
        let state = gammon_server::state(evaluator, pool, JobLimits::default());
        // As `gammon serve`: two async threads only read and write sockets.
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .map_err(|e| format!("cannot start the server's threads: {e}"))?;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("cannot listen: {e}"))?;
        let port = listener.local_addr().map_err(|e| format!("cannot read the bound address: {e}"))?.port();
        listener.set_nonblocking(true).map_err(|e| format!("cannot make the socket non-blocking: {e}"))?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = state.clone();
        let thread = thread::Builder::new()
            .name("server".to_string())
            .spawn(move || {
                runtime.block_on(async move {
                    match tokio::net::TcpListener::from_std(listener) {
                        Ok(listener) => {
                            let shutdown = async move {
                                let _ = stopped.await;
                            };
                            if let Err(e) = gammon_server::serve(listener, served, shutdown).await {
                                eprintln!("error: the server failed: {e}");
                            }
                        }
                        Err(e) => eprintln!("error: cannot serve on the socket: {e}"),
                    }
                });
            })
            .map_err(|e| format!("cannot start the server thread: {e}"))?;
        Ok(LocalServer { url: format!("http://127.0.0.1:{port}"), state, stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for LocalServer {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

// ------------------------------------------------------------------- /proc

/// Resident memory of `pid` in KiB (VmRSS).
fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// CPU time of `pid` so far (user + system) in clock ticks.
fn cpu_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces: the fields start after its ')'.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // Fields 14 and 15 of proc(5); the slice starts at field 3.
    Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
}

fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

// ----------------------------------------------------------------- positions

/// `count` positions (player on roll, game not over) from random games
/// played from the start with `seed`.
fn random_positions(seed: u64, count: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions = Vec::with_capacity(count);
    let mut position = Position::STARTING;
    while positions.len() < count {
        if position.game_result().is_some() {
            position = Position::STARTING;
            continue;
        }
        positions.push(position);
        let dice = ALL_ROLLS[rng.random_range(0..ALL_ROLLS.len())];
        // Each result is seen by the opponent, who is on roll next.
        let list = position.legal_moves(dice);
        position = match list.positions() {
            [] => position.switched(),
            results => results[rng.random_range(0..results.len())],
        };
    }
    positions
}

/// A query-string value, percent-encoded (Position IDs hold `+` and `/`).
fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { char::from(b).to_string() } else { format!("%{b:02X}") })
        .collect()
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder().http_status_as_error(false).timeout_global(Some(REQUEST_TIMEOUT)).build().into()
}

// ----------------------------------------------------------------- phase 1

#[derive(Debug, Default)]
struct ClientLog {
    /// Latencies of the answered requests, by depth (0, 2).
    latencies: [Vec<Duration>; 2],
    errors: usize,
    shown: Vec<String>,
    /// The slowest answered request: when it was sent, how long it took, what.
    slowest: Option<(Instant, Duration, String)>,
}

impl ClientLog {
    fn error(&mut self, what: String) {
        self.errors += 1;
        if self.shown.len() < ERRORS_SHOWN {
            self.shown.push(what);
        }
    }
}

fn client(url: &str, positions: &[Position], seed: u64, deep_percent: u32, deadline: Instant) -> ClientLog {
    let agent = agent();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut log = ClientLog::default();
    while Instant::now() < deadline {
        let position = positions[rng.random_range(0..positions.len())];
        let dice = ALL_ROLLS[rng.random_range(0..ALL_ROLLS.len())];
        let deep = rng.random_range(0..100) < deep_percent;
        let ply = if deep { 2 } else { 0 };
        let path = format!(
            "/api/analyse?position={}&dice={}{}&ply={ply}",
            encode(&position.to_position_id()),
            dice.high(),
            dice.low()
        );
        let began = Instant::now();
        let answer = agent.get(&format!("{url}{path}")).call().map_err(|e| e.to_string()).and_then(|mut r| {
            let status = r.status().as_u16();
            r.body_mut().read_to_string().map(|body| (status, body)).map_err(|e| e.to_string())
        });
        let took = began.elapsed();
        match answer {
            Ok((200, body)) if body.starts_with('{') && body.contains("\"moves\"") => {
                log.latencies[usize::from(deep)].push(took);
                if log.slowest.as_ref().is_none_or(|(_, t, _)| took > *t) {
                    log.slowest = Some((began, took, path));
                }
            }
            Ok((status, body)) => {
                log.error(format!("{path}: {status} {}", body.chars().take(300).collect::<String>()));
            }
            Err(e) => log.error(format!("{path}: {e}")),
        }
    }
    log
}

/// The `q` quantile (nearest rank) of sorted latencies, in ms.
fn quantile_ms(sorted: &[Duration], q: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1].as_secs_f64() * 1000.0
}

struct Phase1 {
    errors: usize,
    rss_growth: Option<(u64, u64)>,
}

fn phase1(url: &str, pid: Option<u32>, o: &Options, positions: &Arc<Vec<Position>>) -> Phase1 {
    println!(
        "phase 1: {} clients for {} s, GET /api/analyse with dice, {}% at 2 plies, the rest at 0",
        o.clients, o.seconds, o.deep_percent
    );
    // One request of each depth first, and one of a bearoff: the bearoff
    // databases (the two-sided one is 13 MB) are loaded on first use, which
    // is not growth under load.
    let warm_agent = agent();
    let mut warm_up_errors = 0;
    let bearoff =
        positions.iter().find(|p| gammon_eval::bearoff_two_sided::holds(p)).map(|p| encode(&p.to_position_id()));
    let warm_ups = [("start".to_string(), 0), ("start".to_string(), 2)].into_iter().chain(bearoff.map(|b| (b, 0)));
    for (position, ply) in warm_ups {
        let target = format!("{url}/api/analyse?position={position}&dice=31&ply={ply}");
        match warm_agent.get(&target).call() {
            Ok(r) if r.status() == 200 => {}
            Ok(r) => {
                warm_up_errors += 1;
                println!("  error: warm-up {target}: {}", r.status());
            }
            Err(e) => {
                warm_up_errors += 1;
                println!("  error: warm-up {target}: {e}");
            }
        }
    }
    let rss_start = pid.and_then(rss_kib);
    let began = Instant::now();
    let deadline = began + Duration::from_secs(o.seconds);
    let clients: Vec<_> = (0..o.clients)
        .map(|i| {
            let (url, positions) = (url.to_string(), Arc::clone(positions));
            let seed = o.seed.wrapping_add(1 + i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let deep_percent = o.deep_percent;
            thread::spawn(move || client(&url, &positions, seed, deep_percent, deadline))
        })
        .collect();
    // Memory every second; the middle and the end are reported.
    let mut samples = Vec::new();
    while Instant::now() < deadline {
        thread::sleep(Duration::from_secs(1).min(deadline.saturating_duration_since(Instant::now())));
        if let Some(kib) = pid.and_then(rss_kib) {
            samples.push((began.elapsed().as_secs_f64(), kib));
        }
    }
    let mut latencies: [Vec<Duration>; 2] = Default::default();
    let (mut errors, mut shown) = (warm_up_errors, Vec::new());
    let mut slowest: Option<(Instant, Duration, String)> = None;
    for handle in clients {
        match handle.join() {
            Ok(log) => {
                for (all, mine) in latencies.iter_mut().zip(log.latencies) {
                    all.extend(mine);
                }
                errors += log.errors;
                shown.extend(log.shown);
                if log.slowest.as_ref().is_some_and(|(_, t, _)| slowest.as_ref().is_none_or(|(_, s, _)| t > s)) {
                    slowest = log.slowest;
                }
            }
            Err(_) => {
                errors += 1;
                shown.push("a client thread panicked".to_string());
            }
        }
    }
    let elapsed = began.elapsed().as_secs_f64();
    let total: usize = latencies.iter().map(Vec::len).sum();
    println!("  {total} answered in {elapsed:.1} s: {:.1} requests/s, {errors} errors", total as f64 / elapsed);
    for (depth, sorted) in [0, 2].iter().zip(latencies.iter_mut()) {
        sorted.sort_unstable();
        println!(
            "  {depth}-ply: {:>7} requests, {:>7.1}/s, latency p50 {:8.2} ms, p99 {:8.2} ms, max {:8.2} ms",
            sorted.len(),
            sorted.len() as f64 / elapsed,
            quantile_ms(sorted, 0.5),
            quantile_ms(sorted, 0.99),
            sorted.last().map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0),
        );
    }
    if let Some((sent, took, path)) = &slowest {
        println!(
            "  the slowest: {path}, sent at {:.2} s, {:.0} ms",
            sent.duration_since(began).as_secs_f64(),
            took.as_secs_f64() * 1000.0
        );
    }
    for e in shown.iter().take(ERRORS_SHOWN) {
        println!("  error: {e}");
    }
    let rss_growth = match (rss_start, samples.get(samples.len() / 2), samples.last()) {
        (Some(start), Some(&(mid_t, mid)), Some(&(end_t, end))) => {
            let peak = samples.iter().map(|s| s.1).max().unwrap_or(end);
            println!(
                "  server memory (VmRSS): after warm-up {}, middle ({mid_t:.0} s) {}, end ({end_t:.0} s) {}, peak {}",
                mib(start),
                mib(mid),
                mib(end),
                mib(peak)
            );
            let step = (samples.len() / 6).max(1);
            let trace: Vec<String> =
                samples.iter().step_by(step).map(|(t, kib)| format!("{t:.0} s {:.1}", *kib as f64 / 1024.0)).collect();
            println!("  memory over time (MiB): {}", trace.join(", "));
            Some((mid, end))
        }
        _ => {
            println!("  server memory: not measured (give --pid with --url)");
            None
        }
    };
    Phase1 { errors, rss_growth }
}

// ----------------------------------------------------------------- phase 2

fn request(agent: &ureq::Agent, method: &str, url: &str, body: Option<&Value>) -> Result<(u16, Value), String> {
    let answer = match (method, body) {
        ("POST", Some(b)) => agent.post(url).send_json(b),
        ("DELETE", _) => agent.delete(url).call(),
        _ => agent.get(url).call(),
    };
    let mut response = answer.map_err(|e| format!("{method} {url}: {e}"))?;
    let status = response.status().as_u16();
    let value = response.body_mut().read_json::<Value>().map_err(|e| format!("{method} {url}: {e}"))?;
    Ok((status, value))
}

fn job_state(job: &Value) -> &str {
    job["state"].as_str().unwrap_or("?")
}

fn is_active(job: &Value) -> bool {
    matches!(job_state(job), "queued" | "running")
}

/// Polls job `url` until it is neither queued nor running, or `until`.
fn wait_finished(agent: &ureq::Agent, url: &str, until: Instant) -> Result<Value, String> {
    loop {
        let (status, job) = request(agent, "GET", url, None)?;
        if status != 200 {
            return Err(format!("GET {url}: {status} {job}"));
        }
        if !is_active(&job) || Instant::now() >= until {
            return Ok(job);
        }
        thread::sleep(Duration::from_millis(20));
    }
}

/// What one job of phase 2 went through.
#[derive(Debug)]
struct JobRun {
    id: u64,
    /// `position`, or `moves 31` for the moves of a roll.
    what: String,
    cancel_after_ms: u64,
    state_at_cancel: String,
    games_at_cancel: u64,
    /// From the DELETE to the job's leaving the pool.
    stop_time: Option<Duration>,
    last: Value,
}

/// Starts a rollout job of [`ROLLOUT_GAMES`]; its id.
fn submit_rollout(
    agent: &ureq::Agent,
    url: &str,
    position: Position,
    dice: Option<&str>,
    seed: u64,
) -> Result<u64, String> {
    let mut body = serde_json::json!({"position": position.to_position_id(), "games": ROLLOUT_GAMES, "seed": seed});
    if let Some(d) = dice {
        body["dice"] = Value::from(d);
    }
    let (status, job) = request(agent, "POST", &format!("{url}/api/rollouts"), Some(&body))?;
    if status != 201 {
        return Err(format!("POST /api/rollouts {body}: {status} {job}"));
    }
    job["id"].as_u64().ok_or_else(|| format!("POST /api/rollouts: no id in {job}"))
}

/// Cancels job `id` at `cancel_at` and waits for it to leave the pool.
fn cancel_rollout(url: &str, id: u64, what: String, cancel_at: Instant) -> Result<JobRun, String> {
    let agent = agent();
    let began = Instant::now();
    thread::sleep(cancel_at.saturating_duration_since(began));
    let job_url = format!("{url}/api/rollouts/{id}");
    let (_, before) = request(&agent, "GET", &job_url, None)?;
    let cancelled_at = Instant::now();
    let (status, cancelled) = request(&agent, "DELETE", &job_url, None)?;
    if status != 200 {
        return Err(format!("DELETE {job_url}: {status} {cancelled}"));
    }
    let last = wait_finished(&agent, &job_url, cancelled_at + CANCEL_GRACE)?;
    let stop_time = (!is_active(&last)).then(|| cancelled_at.elapsed());
    Ok(JobRun {
        id,
        what,
        cancel_after_ms: cancelled_at.duration_since(began).as_millis() as u64,
        state_at_cancel: job_state(&before).to_string(),
        games_at_cancel: before["progress"]["done"].as_u64().unwrap_or(0),
        stop_time,
        last,
    })
}

fn phase2(url: &str, pid: Option<u32>, local: Option<&LocalServer>, o: &Options, positions: &[Position]) -> usize {
    println!(
        "phase 2: {} rollout jobs of {ROLLOUT_GAMES} games, each cancelled within {CANCEL_WINDOW_MS} ms",
        o.rollouts
    );
    let mut rng = ChaCha8Rng::seed_from_u64(o.seed ^ 0x0123_4567_89AB_CDEF);
    let mut failures = 0;
    // Submitted one after the other, so that the ids and the queue follow
    // the seed; then each is cancelled at its own random time.
    let agent = agent();
    let began = Instant::now();
    let mut handles = Vec::new();
    for i in 0..o.rollouts {
        let position = positions[rng.random_range(0..positions.len())];
        // Half roll out the moves of a roll, half the position.
        let dice = (i % 2 == 1).then(|| {
            let d = ALL_ROLLS[rng.random_range(0..ALL_ROLLS.len())];
            format!("{}{}", d.high(), d.low())
        });
        let (cancel_after, seed) = (rng.random_range(0..CANCEL_WINDOW_MS), rng.random_range(1..1000));
        match submit_rollout(&agent, url, position, dice.as_deref(), seed) {
            Ok(id) => {
                let url = url.to_string();
                let what = dice.map_or_else(|| "position".to_string(), |d| format!("moves {d}"));
                let at = began + Duration::from_millis(cancel_after);
                handles.push(thread::spawn(move || cancel_rollout(&url, id, what, at)));
            }
            Err(e) => {
                failures += 1;
                println!("  error: {e}");
            }
        }
    }
    // One client asks 0-ply analyses while the jobs run: how long an
    // interactive request waits behind rollouts on the shared pool.
    let probe = {
        let (url, positions) = (url.to_string(), positions.to_vec());
        let deadline = Instant::now() + Duration::from_millis(CANCEL_WINDOW_MS);
        let seed = o.seed ^ 0x5EED;
        thread::spawn(move || client(&url, &positions, seed, 0, deadline))
    };
    let mut runs = Vec::new();
    for handle in handles {
        match handle.join() {
            Ok(Ok(run)) => runs.push(run),
            Ok(Err(e)) => {
                failures += 1;
                println!("  error: {e}");
            }
            Err(_) => {
                failures += 1;
                println!("  error: a job thread panicked");
            }
        }
    }
    match probe.join() {
        Ok(mut log) => {
            let sorted = &mut log.latencies[0];
            sorted.sort_unstable();
            println!(
                "  meanwhile one client's 0-ply analyses: {} answered, {} errors, latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
                sorted.len(),
                log.errors,
                quantile_ms(sorted, 0.5),
                quantile_ms(sorted, 0.99),
                sorted.last().map_or(f64::NAN, |d| d.as_secs_f64() * 1000.0),
            );
            if let Some((sent, took, path)) = &log.slowest {
                println!(
                    "  its slowest: {path}, sent {:.2} s after the first job, {:.0} ms",
                    sent.duration_since(began).as_secs_f64(),
                    took.as_secs_f64() * 1000.0
                );
            }
            for e in &log.shown {
                println!("  error: {e}");
            }
            failures += log.errors;
        }
        Err(_) => {
            failures += 1;
            println!("  error: the probe client panicked");
        }
    }
    runs.sort_by_key(|r| r.id);
    let mut stop_times = Vec::new();
    for run in &runs {
        let (state, games) = (job_state(&run.last), run.last["progress"]["done"].as_u64().unwrap_or(0));
        let ok = matches!(state, "cancelled" | "done");
        println!(
            "  job {:>3} ({:<8}): cancelled at {:>4} ms while {:<7} ({:>6} games), ended {state} with {games} games{}",
            run.id,
            run.what,
            run.cancel_after_ms,
            run.state_at_cancel,
            run.games_at_cancel,
            run.stop_time.map_or(" - still active".to_string(), |t| format!(
                ", left the pool {} ms after the DELETE",
                t.as_millis()
            )),
        );
        if run.state_at_cancel == "running" {
            stop_times.extend(run.stop_time);
        }
        if !ok {
            failures += 1;
            println!("  error: job {} ended {state}: {}", run.id, run.last);
        }
    }
    stop_times.sort_unstable();
    if let Some(slowest) = stop_times.last() {
        println!(
            "  running jobs stopped {} to {} ms after their DELETE",
            stop_times[0].as_millis(),
            slowest.as_millis()
        );
    }
    // Every job, asked again: nothing left queued or running.
    for run in &runs {
        match request(&agent, "GET", &format!("{url}/api/rollouts/{}", run.id), None) {
            Ok((200, job)) if !is_active(&job) => {}
            Ok((status, job)) => {
                failures += 1;
                println!("  error: job {} is still {} ({status}): {job}", run.id, job_state(&job));
            }
            Err(e) => {
                failures += 1;
                println!("  error: {e}");
            }
        }
    }
    if let Some(server) = local {
        let (running, waiting) = server.state.jobs.load();
        println!("  the server's job table: {running} running, {waiting} waiting");
        if (running, waiting) != (0, 0) {
            failures += 1;
            println!("  error: jobs leaked in the server's table");
        }
    }
    failures += idle_check(pid);
    failures + slots_check(url, &agent)
}

/// The server's CPU over one second once every job has stopped.
fn idle_check(pid: Option<u32>) -> usize {
    let Some(pid) = pid else {
        println!("  CPU after the cancels: not measured (give --pid with --url)");
        return 0;
    };
    thread::sleep(Duration::from_millis(300));
    let (Some(before), began) = (cpu_ticks(pid), Instant::now()) else { return 1 };
    thread::sleep(Duration::from_secs(1));
    let Some(after) = cpu_ticks(pid) else { return 1 };
    let used = after.saturating_sub(before);
    println!(
        "  CPU after the cancels: {:.2} CPU-seconds in {:.2} s (limit {:.2})",
        used as f64 / CLOCK_TICKS_PER_SECOND as f64,
        began.elapsed().as_secs_f64(),
        IDLE_TICKS as f64 / CLOCK_TICKS_PER_SECOND as f64
    );
    usize::from(used > IDLE_TICKS)
}

/// As many small jobs as the server runs at once must start at once (a
/// leaked slot would queue one) and finish with a result.
fn slots_check(url: &str, agent: &ureq::Agent) -> usize {
    let mut failures = 0;
    let body = serde_json::json!({"position": "start", "games": 72, "seed": 1});
    let mut ids = Vec::new();
    let mut slots = 1;
    while ids.len() < slots {
        match request(agent, "POST", &format!("{url}/api/rollouts"), Some(&body)) {
            Ok((201, job)) => {
                slots = job["limits"]["running"].as_u64().map_or(1, |n| n as usize);
                // "done": 72 games may finish before the answer is written.
                if !matches!(job_state(&job), "running" | "done") {
                    failures += 1;
                    println!("  error: a new job did not start at once (a slot leaked?): {job}");
                }
                match job["id"].as_u64() {
                    Some(id) => ids.push(id),
                    None => {
                        println!("  error: POST /api/rollouts: no id in {job}");
                        return failures + 1;
                    }
                }
            }
            Ok((status, job)) => {
                println!("  error: POST /api/rollouts: {status} {job}");
                return failures + 1;
            }
            Err(e) => {
                println!("  error: {e}");
                return failures + 1;
            }
        }
    }
    for id in &ids {
        let job_url = format!("{url}/api/rollouts/{id}");
        match wait_finished(agent, &job_url, Instant::now() + CANCEL_GRACE) {
            Ok(job) if job_state(&job) == "done" && job["result"].is_object() => {}
            Ok(job) => {
                failures += 1;
                println!("  error: the new job {id} ended {}: {job}", job_state(&job));
            }
            Err(e) => {
                failures += 1;
                println!("  error: {e}");
            }
        }
    }
    println!("  {} new jobs (the server's running limit) started at once and finished", ids.len());
    failures
}

// -------------------------------------------------------------------- main

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse_options(&args) {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let local = match &options.url {
        Some(_) => None,
        None => match LocalServer::start(options.threads) {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let (url, pid) = match &local {
        Some(s) => (s.url.clone(), Some(std::process::id())),
        None => (options.url.clone().unwrap_or_default(), options.pid),
    };
    let where_ = if local.is_some() {
        let threads = local.as_ref().map_or(0, |s| s.state.pool.current_num_threads());
        format!("in this process at {url} ({threads} worker threads; the memory and CPU figures include the clients)")
    } else {
        format!("at {url}")
    };
    println!("load test of the server {where_}, seed {}", options.seed);
    if let Ok(load) = std::fs::read_to_string("/proc/loadavg") {
        println!(
            "machine: {} cores, load average {}",
            thread::available_parallelism().map_or(0, |n| n.get()),
            load.trim()
        );
    }
    match agent().get(&format!("{url}/api/openapi.json")).call() {
        Ok(r) if r.status() == 200 => {}
        Ok(r) => {
            eprintln!("error: {url}/api/openapi.json answered {}: is this a gammon server?", r.status());
            return ExitCode::from(2);
        }
        Err(e) => {
            eprintln!("error: cannot reach the server at {url}: {e}");
            return ExitCode::from(2);
        }
    }
    let positions = Arc::new(random_positions(options.seed, 2000));

    let first = phase1(&url, pid, &options, &positions);
    let mut failures = first.errors;
    if let Some((mid, end)) = first.rss_growth {
        // Growth in the second half, after the cache and the buffers have
        // been filled, is what a leak looks like.
        if end > mid + (mid / 10).max(16 * 1024) {
            failures += 1;
            println!("  error: the memory grew from {} to {} in the second half", mib(mid), mib(end));
        }
    }
    failures += phase2(&url, pid, local.as_ref(), &options, &positions);
    if let Some(kib) = pid.and_then(rss_kib) {
        println!("server memory at the end: {}", mib(kib));
    }
    drop(local);
    if failures == 0 {
        println!("passed");
        ExitCode::SUCCESS
    } else {
        println!("FAILED: {failures} errors");
        ExitCode::from(1)
    }
}
