//! Long work (rollouts, match reviews) as jobs: started by a POST, watched by
//! GETs, cancelled by a DELETE. A bounded number run at once on the rayon
//! pool; the rest wait in a bounded queue, and a full queue is refused (429).
//! Each job's stop flag and progress are the jobs crate's
//! ([`gammon_jobs::StopFlag`], [`gammon_jobs::Shared`]), as for the
//! command line's long jobs: a cancel sets the flag, a GET reads the
//! progress.

use crate::error::ApiError;
use axum::http::StatusCode;
use gammon_jobs::{Shared, StopFlag};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

/// How many jobs run at once and how many may wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JobLimits {
    /// Jobs running at once.
    pub running: usize,
    /// Jobs waiting; one more is refused with 429.
    pub queued: usize,
    /// Finished jobs kept for their results (the oldest go first).
    #[serde(skip)]
    pub kept: usize,
}

impl Default for JobLimits {
    fn default() -> Self {
        JobLimits { running: 2, queued: 32, kept: 256 }
    }
}

/// What a job does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// `POST /api/rollouts`.
    Rollout,
    /// `POST /api/reviews`.
    Review,
}

/// Where a job is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Waiting for a free slot.
    Queued,
    /// On the pool.
    Running,
    /// Finished; the result is there.
    Done,
    /// Finished with an error.
    Failed,
    /// Cancelled (a rollout keeps the result of the games it finished, a
    /// review that of the records it reviewed).
    Cancelled,
}

/// How far a job has come, with a rollout's running estimate.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Progress {
    /// Games (rollout) or decisions (review) done.
    pub done: u64,
    /// Of how many (at most).
    pub total: u64,
    /// A rollout's running headline equity.
    pub equity: Option<f64>,
    /// Its standard error.
    pub standard_error: Option<f64>,
}

/// A rollout's running estimate, kept with a job's counts.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Estimate {
    /// The running headline equity.
    pub equity: Option<f64>,
    /// Its standard error.
    pub standard_error: Option<f64>,
}

/// A job's own handle, given to its work: progress reports and the stop flag.
#[derive(Debug)]
pub struct JobHandle {
    status: Mutex<Status>,
    progress: Shared<Estimate>,
    stop: StopFlag,
}

#[derive(Debug, Clone)]
struct Status {
    state: JobState,
    result: Option<Arc<serde_json::value::RawValue>>,
    error: Option<String>,
}

impl JobHandle {
    /// Where the work reports how far it has come (a
    /// [`gammon_jobs::Progress`]; a rollout adds its [`Estimate`] with
    /// [`Shared::report_with`]).
    pub fn progress(&self) -> &Shared<Estimate> {
        &self.progress
    }

    /// The flag the work polls: set by a cancel or a shutdown.
    pub fn stop_flag(&self) -> &AtomicBool {
        self.stop.as_atomic()
    }

    fn is_stopped(&self) -> bool {
        self.stop.is_stopped()
    }

    fn progress_view(&self) -> Progress {
        let s = self.progress.snapshot();
        Progress { done: s.done, total: s.total, equity: s.detail.equity, standard_error: s.detail.standard_error }
    }
}

/// The work of a job: its JSON result or the reason it failed.
pub type Work = Box<dyn FnOnce(&JobHandle) -> Result<Box<serde_json::value::RawValue>, String> + Send>;

struct Entry {
    kind: JobKind,
    handle: Arc<JobHandle>,
}

#[derive(Default)]
struct Table {
    next_id: u64,
    jobs: BTreeMap<u64, Entry>,
    waiting: VecDeque<(u64, Work)>,
    running: usize,
}

/// The server's jobs.
#[derive(Clone)]
pub struct Jobs {
    table: Arc<Mutex<Table>>,
    pool: Arc<rayon::ThreadPool>,
    limits: JobLimits,
}

impl std::fmt::Debug for Jobs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Jobs").field("limits", &self.limits).finish_non_exhaustive()
    }
}

/// A job as the API shows it.
#[derive(Debug, Clone, Serialize)]
pub struct JobView {
    /// The JSON documents' version (`gammon_engine::api::json::SCHEMA_VERSION`).
    pub schema_version: u32,
    /// Its id, for `GET` and `DELETE`.
    pub id: u64,
    /// What it does.
    pub kind: JobKind,
    /// Where it is.
    pub state: JobState,
    /// How far it has come.
    pub progress: Progress,
    /// Jobs ahead of it in the queue (0 when running or finished).
    pub queue_position: usize,
    /// The server's limits.
    pub limits: JobLimits,
    /// The result: the CLI's `--json` of the same work (for a cancelled
    /// rollout, of the games it finished; for a cancelled review, of the
    /// records it reviewed), else `null`.
    pub result: Option<Arc<serde_json::value::RawValue>>,
    /// Why it failed, else `null`.
    pub error: Option<String>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic inside a job is caught before it can poison the lock; recover
    // the data anyway rather than failing every later request.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Jobs {
    /// A job table that runs its work on `pool` within `limits`.
    pub fn new(pool: Arc<rayon::ThreadPool>, limits: JobLimits) -> Self {
        Jobs { table: Arc::default(), pool, limits }
    }

    /// The limits.
    pub fn limits(&self) -> JobLimits {
        self.limits
    }

    /// Starts `work` now or queues it.
    ///
    /// # Errors
    /// 429 when the queue is full.
    pub fn submit(&self, kind: JobKind, work: Work) -> Result<JobView, ApiError> {
        let mut table = lock(&self.table);
        let start_now = table.running < self.limits.running;
        if !start_now && table.waiting.len() >= self.limits.queued {
            return Err(ApiError::request(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "{} jobs are running and {} waiting, the most this server queues: try again later",
                    table.running,
                    table.waiting.len()
                ),
            ));
        }
        table.next_id += 1;
        let id = table.next_id;
        let state = if start_now { JobState::Running } else { JobState::Queued };
        let handle = Arc::new(JobHandle {
            status: Mutex::new(Status { state, result: None, error: None }),
            progress: Shared::new(),
            stop: StopFlag::new(),
        });
        table.jobs.insert(id, Entry { kind, handle: Arc::clone(&handle) });
        self.forget_old(&mut table);
        if start_now {
            table.running += 1;
            self.spawn(handle, work);
        } else {
            table.waiting.push_back((id, work));
        }
        drop(table);
        self.view(id, Some(kind)).ok_or_else(|| ApiError::internal("a job vanished"))
    }

    /// The job `id` of `kind` (any kind with `None`).
    pub fn view(&self, id: u64, kind: Option<JobKind>) -> Option<JobView> {
        let table = lock(&self.table);
        let entry = table.jobs.get(&id).filter(|e| kind.is_none_or(|k| k == e.kind))?;
        let status = lock(&entry.handle.status).clone();
        let queue_position = table.waiting.iter().position(|(w, _)| *w == id).map_or(0, |p| p + 1);
        Some(JobView {
            schema_version: gammon_engine::api::json::SCHEMA_VERSION,
            id,
            kind: entry.kind,
            state: status.state,
            progress: entry.handle.progress_view(),
            queue_position,
            limits: self.limits,
            result: status.result,
            error: status.error,
        })
    }

    /// Cancels job `id` of `kind`: a queued job never starts, a running one
    /// is asked to stop (a rollout then keeps the games it finished).
    pub fn cancel(&self, id: u64, kind: JobKind) -> Option<JobView> {
        {
            let mut table = lock(&self.table);
            let entry = table.jobs.get(&id).filter(|e| e.kind == kind)?;
            let handle = Arc::clone(&entry.handle);
            handle.stop.stop();
            if let Some(at) = table.waiting.iter().position(|(w, _)| *w == id) {
                table.waiting.remove(at);
                lock(&handle.status).state = JobState::Cancelled;
            }
        }
        self.view(id, Some(kind))
    }

    /// Asks every job to stop and drops the queue (at shutdown).
    pub fn stop_all(&self) {
        let mut table = lock(&self.table);
        for entry in table.jobs.values() {
            entry.handle.stop.stop();
        }
        let waiting: Vec<u64> = table.waiting.drain(..).map(|(id, _)| id).collect();
        for id in waiting {
            if let Some(e) = table.jobs.get(&id) {
                lock(&e.handle.status).state = JobState::Cancelled;
            }
        }
    }

    /// Jobs running now and waiting now.
    pub fn load(&self) -> (usize, usize) {
        let table = lock(&self.table);
        (table.running, table.waiting.len())
    }

    /// Drops the oldest finished jobs beyond the number kept.
    fn forget_old(&self, table: &mut Table) {
        let finished: Vec<u64> = table
            .jobs
            .iter()
            .filter(|(_, e)| {
                matches!(lock(&e.handle.status).state, JobState::Done | JobState::Failed | JobState::Cancelled)
            })
            .map(|(&id, _)| id)
            .collect();
        let excess = finished.len().saturating_sub(self.limits.kept);
        for id in finished.into_iter().take(excess) {
            table.jobs.remove(&id);
        }
    }

    fn spawn(&self, handle: Arc<JobHandle>, work: Work) {
        let jobs = self.clone();
        self.pool.spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(&handle)))
                .unwrap_or_else(|_| Err("the engine failed on this job (a bug: please report it)".to_string()));
            {
                let mut status = lock(&handle.status);
                let stopped = handle.is_stopped();
                match outcome {
                    Ok(value) => {
                        status.state = if stopped { JobState::Cancelled } else { JobState::Done };
                        status.result = Some(Arc::from(value));
                    }
                    Err(reason) => {
                        status.state = if stopped { JobState::Cancelled } else { JobState::Failed };
                        status.error = Some(reason);
                    }
                }
            }
            jobs.finished();
        });
    }

    /// A slot is free: start the next waiting job.
    fn finished(&self) {
        let mut table = lock(&self.table);
        table.running -= 1;
        if let Some((id, work)) = table.waiting.pop_front() {
            if let Some(handle) = table.jobs.get(&id).map(|e| Arc::clone(&e.handle)) {
                table.running += 1;
                lock(&handle.status).state = JobState::Running;
                self.spawn(handle, work);
            }
        }
    }
}
