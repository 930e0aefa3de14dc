//! The state every handler shares: the engines, the pools, the jobs, the
//! limits and the key of the game states' signatures. Its own module, so
//! that the handlers (`api`) and the pool they run on (`work`) both use it
//! without using each other.

use crate::jobs::{JobLimits, Jobs};
use crate::listen::ConnectionLimits;
use crate::seal::StateSeal;
use gammon_engine::api::Engine;
use gammon_engine::met::Met;
use gammon_eval::NetEvaluator;
use std::sync::Arc;

/// What every handler shares.
#[derive(Clone, Debug)]
pub struct AppState {
    /// The engine (its search caches, that of move analysis's screened
    /// lookahead among them, are shared by all requests).
    pub engine: Arc<Engine<NetEvaluator>>,
    /// Where the searches run.
    pub pool: Arc<rayon::ThreadPool>,
    /// Rollouts and reviews.
    pub jobs: Jobs,
    /// The time a client has to send its request, and the connections
    /// served at once.
    pub connections: ConnectionLimits,
    /// Signs the game states `/api/play` hands out, and checks those sent
    /// back.
    pub seal: Arc<StateSeal>,
}

/// The shared state of a server evaluating with `evaluator` on `pool`,
/// with the default [`ConnectionLimits`] and a fresh random key for the game
/// states' signatures.
///
/// Jobs (rollouts, reviews) run on a pool of their own with as many
/// threads: on one shared pool a request waited behind the rollouts' chunks
/// (measured by the load test: a 0.2 ms 0-ply request took up to 5.8 s while
/// two rollouts ran). If that pool cannot be started, jobs share `pool`.
///
/// # Panics
/// When the operating system gives no random numbers for the key (std's
/// `HashMap` panics there too).
pub fn state(evaluator: NetEvaluator, pool: Arc<rayon::ThreadPool>, limits: JobLimits) -> AppState {
    state_with_met(evaluator, Met::kazaross_xg2().clone(), pool, limits)
}

/// [`state`] with the match equity table `met` (`gammon serve --met`).
///
/// # Panics
/// As [`state`].
pub fn state_with_met(evaluator: NetEvaluator, met: Met, pool: Arc<rayon::ThreadPool>, limits: JobLimits) -> AppState {
    let jobs_pool = rayon::ThreadPoolBuilder::new()
        .num_threads(pool.current_num_threads())
        .thread_name(|i| format!("gammon-job-{i}"))
        .build()
        .map_or_else(|_| Arc::clone(&pool), Arc::new);
    AppState {
        engine: Arc::new(Engine::new(evaluator).with_met(met)),
        jobs: Jobs::new(jobs_pool, limits),
        pool,
        connections: ConnectionLimits::default(),
        seal: Arc::new(StateSeal::random().expect("the operating system gives no random numbers")),
    }
}
