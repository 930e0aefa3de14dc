//! The pipeline schedule ([`Schedule::Pipeline`](crate::config::Schedule)):
//! self-play games with a fixed delay of `D = round_games` games, no round
//! barrier.
//!
//! # The schedule
//!
//! Let `M(j)` be the weights after the changes of games `0..j` (`M(0)`: the
//! run's starting weights). Game `n` (dice stream `n` of the seed, rate and
//! λ of game `n`) trains its own copy of `W(n) = M(max(0, n + 1 - D))`: it
//! does not see the changes of the `D - 1` games just before it. Its change
//! is merged in game order: `M(n + 1) = M(n) + (trained − W(n))`, parameter
//! by parameter. Everything is a function of game numbers alone, so one
//! thread (which plays the games one after the other, keeping the delayed
//! weights) and any number of threads give the same bits; threads only
//! change which games are in flight together. `D = 1` is plain sequential
//! TD; with `D` games in flight at most, more threads than `D` do not help.
//!
//! # Execution
//!
//! A worker takes the next game as soon as the weights it starts from are
//! merged, copies them into its own buffer and plays. When it is done it
//! merges its game if every earlier game is merged, then any finished games
//! that waited for it; otherwise it parks the game for the worker whose
//! merge it waits for, and goes on. A worker waits only when the next game
//! needs a merge that a game still in flight holds up.
//!
//! Only the two nets TD trains are copied and merged: the contact net plays
//! crashed positions too, and the crashed net becomes a copy of it whenever
//! the weights are handed back (as the rounds schedule does after each round).
//!
//! # Checkpoints
//!
//! [`train_pipeline`] returns when every game it began is merged (at its
//! end, or early on a stop request or divergence), and hands back `M(g)`
//! after `g` games together with the delayed weights `M(g + 1 - D) ..
//! M(g - 1)` that the next games start from ([`Checkpoint::delayed`]). A
//! checkpoint of that state resumes bit for bit as if the run had never
//! stopped, whatever `g` is: the cut is exact, not a change of schedule.

use crate::checkpoint::{expected_delayed, Checkpoint};
use crate::config::TrainConfig;
use crate::selfplay::{train_game, Workspace};
use crate::train_error::TrainError;
use gammon_eval::mlp::Mlp;
use gammon_eval::NetWeights;
use gammon_jobs::Progress;
use gammon_rules::RandomDice;
use std::collections::{BTreeMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

/// The nets TD trains.
#[derive(Clone, Debug)]
struct TdNets {
    contact: Mlp,
    race: Mlp,
}

impl TdNets {
    fn of(weights: &NetWeights) -> Self {
        TdNets { contact: weights.contact.clone(), race: weights.race.clone() }
    }

    /// Full weights: the crashed net a copy of the contact net.
    fn to_weights(&self, meta: &gammon_eval::TrainingMeta) -> NetWeights {
        NetWeights {
            contact: self.contact.clone(),
            crashed: self.contact.clone(),
            race: self.race.clone(),
            meta: meta.clone(),
        }
    }
}

/// A finished game whose merge waits for an earlier game.
#[derive(Debug)]
struct Parked {
    trained: NetWeights,
    base: Arc<TdNets>,
}

/// What the workers share, under one lock.
#[derive(Debug)]
struct Queue {
    /// The next game to hand out.
    next: u64,
    /// No game from here on is handed out.
    end: u64,
    /// Games merged: `versions.back()` is `M(merged)`.
    merged: u64,
    /// `versions[i]` is `M(oldest + i)`.
    oldest: u64,
    versions: VecDeque<Arc<TdNets>>,
    parked: BTreeMap<u64, Parked>,
    /// Buffers to reuse: merged weights no longer needed, and game copies.
    spare_nets: Vec<TdNets>,
    spare_games: Vec<NetWeights>,
    /// The merged count at which the weights were first not finite.
    diverged: Option<u64>,
    /// A worker panicked: the others stop.
    broken: bool,
}

impl Queue {
    /// The index of the weights game `n` starts from.
    fn base_of(n: u64, delay: u64) -> u64 {
        n.saturating_sub(delay - 1)
    }

    /// Drops the versions no game to come needs: the next game's base and
    /// every later one, and the latest (the next merge adds to it).
    fn evict(&mut self, delay: u64) {
        let keep_from = Self::base_of(self.next, delay).min(self.merged);
        while self.oldest < keep_from {
            if let Some(old) = self.versions.pop_front() {
                self.recycle(old);
            }
            self.oldest += 1;
        }
    }

    /// Keeps the buffer of a version nobody else holds.
    fn recycle(&mut self, nets: Arc<TdNets>) {
        if let Ok(nets) = Arc::try_unwrap(nets) {
            self.spare_nets.push(nets);
        }
    }

    fn latest(&self) -> Arc<TdNets> {
        Arc::clone(self.versions.back().unwrap_or_else(|| unreachable!("the latest version is always kept")))
    }
}

struct Shared<'a> {
    queue: Mutex<Queue>,
    /// Signalled on every merge and when a worker gives up.
    merged: Condvar,
    config: &'a TrainConfig,
    delay: u64,
    stop: &'a AtomicBool,
    progress: &'a dyn Progress,
}

impl Shared<'_> {
    fn lock(&self) -> MutexGuard<'_, Queue> {
        self.queue.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Tells the other workers to stop if this one panics, so that none waits
/// forever for a merge that will not come.
struct PanicGuard<'a, 'b>(&'a Shared<'b>);

impl Drop for PanicGuard<'_, '_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0.lock().broken = true;
            self.0.merged.notify_all();
        }
    }
}

/// Plays games `state.games_done..end` by the pipeline schedule on
/// `state.config.threads` threads and merges them into `state` (the weights
/// and the delayed weights). On a stop request no further game begins; the
/// games in flight are finished and merged, so `state` is a consistent
/// checkpoint at whatever game count it reached.
///
/// # Errors
/// [`TrainError::Diverged`] when the weights stop being finite numbers
/// (`state` then holds the games merged so far).
///
/// # Panics
/// If `state` is not a pipeline state of its settings (`state.delayed` of
/// the wrong length), or a worker panicked.
pub fn train_pipeline(state: &mut Checkpoint, end: u64, stop: &AtomicBool) -> Result<(), TrainError> {
    run(state, end, stop, &Silent)
}

/// Progress nobody watches.
struct Silent;

impl Progress for Silent {
    fn report(&self, _: u64, _: u64) {}
    fn note(&self, _: &str) {}
}

/// [`train_pipeline`], reporting to `progress` each merged game (of the
/// run's `games`).
pub(crate) fn run(
    state: &mut Checkpoint,
    end: u64,
    stop: &AtomicBool,
    progress: &dyn Progress,
) -> Result<(), TrainError> {
    let config = &state.config;
    let delay = config.round_games.max(1);
    assert_eq!(
        state.delayed.len() as u64,
        expected_delayed(config, state.games_done),
        "the delayed weights of a pipeline run after {} games",
        state.games_done
    );
    let start = state.games_done;
    if end <= start {
        return Ok(());
    }
    let oldest = start - state.delayed.len() as u64;
    let versions: VecDeque<Arc<TdNets>> =
        state.delayed.iter().chain([&state.weights]).map(|w| Arc::new(TdNets::of(w))).collect();
    let shared = Shared {
        queue: Mutex::new(Queue {
            next: start,
            end,
            merged: start,
            oldest,
            versions,
            parked: BTreeMap::new(),
            spare_nets: Vec::new(),
            spare_games: Vec::new(),
            diverged: None,
            broken: false,
        }),
        merged: Condvar::new(),
        config,
        delay,
        stop,
        progress,
    };
    let workers = (config.threads as u64).min(delay).min(end - start).max(1);
    std::thread::scope(|scope| {
        for _ in 1..workers {
            let (shared, weights) = (&shared, state.weights.clone());
            scope.spawn(move || worker(shared, weights));
        }
        worker(&shared, state.weights.clone());
    });
    let queue = shared.queue.into_inner().unwrap_or_else(PoisonError::into_inner);
    assert!(!queue.broken, "a training worker panicked");
    debug_assert!(queue.merged == queue.next && queue.parked.is_empty());
    let done = queue.merged;
    let keep_from = Queue::base_of(done, delay);
    let meta = &state.weights.meta;
    let mut latest = None;
    let mut delayed = Vec::new();
    for (i, nets) in queue.versions.iter().enumerate() {
        let index = queue.oldest + i as u64;
        if index == done {
            latest = Some(nets.to_weights(meta));
        } else if index >= keep_from {
            delayed.push(nets.to_weights(meta));
        }
    }
    if done > start {
        state.weights = latest.unwrap_or_else(|| unreachable!("the latest version is always kept"));
        state.delayed = delayed;
        state.games_done = done;
    }
    match queue.diverged {
        Some(at) => Err(TrainError::Diverged(at)),
        None => Ok(()),
    }
}

/// One worker: takes games in order, plays them on its copy `game` and
/// merges them (or parks them) until there is no game left to begin.
fn worker(shared: &Shared<'_>, mut game: NetWeights) {
    let _guard = PanicGuard(shared);
    let (config, delay) = (shared.config, shared.delay);
    let mut workspace = Workspace::new(&game);
    let mut queue = shared.lock();
    loop {
        let n = queue.next;
        let halted = queue.diverged.is_some() || queue.broken || shared.stop.load(Ordering::SeqCst);
        if n >= queue.end || halted {
            return;
        }
        let base_index = Queue::base_of(n, delay);
        if queue.merged < base_index {
            queue = shared.merged.wait(queue).unwrap_or_else(PoisonError::into_inner);
            continue;
        }
        queue.next += 1;
        let base = Arc::clone(&queue.versions[(base_index - queue.oldest) as usize]);
        queue.evict(delay);
        drop(queue);

        copy_mlp(&mut game.contact, &base.contact);
        copy_mlp(&mut game.race, &base.race);
        let mut dice = RandomDice::new(config.seed, n);
        train_game(&mut game, &mut dice, config.rate_at(n), config.lambda_at(n), &mut workspace);

        queue = shared.lock();
        if queue.merged != n {
            // An earlier game is still in flight: its worker merges this one.
            let spare = queue.spare_games.pop().unwrap_or_else(|| game.clone());
            let trained = std::mem::replace(&mut game, spare);
            queue.parked.insert(n, Parked { trained, base });
            continue;
        }
        queue = merge_from(shared, queue, &game, base);
    }
}

/// Merges game `queue.merged` (played on `trained` from `base`), then every
/// parked game that follows it; returns the lock.
fn merge_from<'a>(
    shared: &'a Shared<'_>,
    mut queue: MutexGuard<'a, Queue>,
    trained: &NetWeights,
    base: Arc<TdNets>,
) -> MutexGuard<'a, Queue> {
    let mut job: (Option<NetWeights>, Arc<TdNets>) = (None, base);
    loop {
        let latest = queue.latest();
        let out = queue.spare_nets.pop();
        drop(queue);
        let (parked, base) = job;
        let played = parked.as_ref().unwrap_or(trained);
        let (out, finite) = merged(out, &latest, played, &base);
        drop(latest);
        queue = shared.lock();
        queue.versions.push_back(Arc::new(out));
        queue.merged += 1;
        if !finite && queue.diverged.is_none() {
            queue.diverged = Some(queue.merged);
        }
        queue.recycle(base);
        if let Some(game) = parked {
            queue.spare_games.push(game);
        }
        queue.evict(shared.delay);
        shared.merged.notify_all();
        shared.progress.report(queue.merged, shared.config.games);
        let next = queue.merged;
        match queue.parked.remove(&next) {
            Some(p) => job = (Some(p.trained), p.base),
            None => return queue,
        }
    }
}

/// `latest + (played − base)` for the nets TD trains, in `out` if given,
/// and whether every parameter is a finite number.
fn merged(out: Option<TdNets>, latest: &TdNets, played: &NetWeights, base: &TdNets) -> (TdNets, bool) {
    let mut out = out.unwrap_or_else(|| latest.clone());
    let contact = merge_mlp(&mut out.contact, &latest.contact, &played.contact, &base.contact);
    let race = merge_mlp(&mut out.race, &latest.race, &played.race, &base.race);
    (out, contact && race)
}

fn copy_mlp(to: &mut Mlp, from: &Mlp) {
    to.w1.assign(&from.w1);
    to.b1.assign(&from.b1);
    to.w2.assign(&from.w2);
    to.b2.assign(&from.b2);
}

/// `out = latest + (played − base)`, parameter by parameter (the same
/// arithmetic as [`Mlp::add_difference`]); true if all are finite.
fn merge_mlp(out: &mut Mlp, latest: &Mlp, played: &Mlp, base: &Mlp) -> bool {
    merge_array(&mut out.w1, &latest.w1, &played.w1, &base.w1)
        & merge_array(&mut out.b1, &latest.b1, &played.b1, &base.b1)
        & merge_array(&mut out.w2, &latest.w2, &played.w2, &base.w2)
        & merge_array(&mut out.b2, &latest.b2, &played.b2, &base.b2)
}

fn merge_array<D: ndarray::Dimension>(
    out: &mut ndarray::Array<f32, D>,
    latest: &ndarray::Array<f32, D>,
    played: &ndarray::Array<f32, D>,
    base: &ndarray::Array<f32, D>,
) -> bool {
    if let (Some(o), Some(m), Some(p), Some(b)) =
        (out.as_slice_mut(), latest.as_slice(), played.as_slice(), base.as_slice())
    {
        if o.len() == m.len() && o.len() == p.len() && o.len() == b.len() {
            return merge_slice(o, m, p, b);
        }
    }
    ndarray::Zip::from(&mut *out).and(latest).and(played).and(base).for_each(|o, &m, &p, &b| *o = m + (p - b));
    out.iter().all(|x| x.is_finite())
}

/// The merge of contiguous parameters, eight lanes at a time so that the
/// compiler vectorises it; `v - v` is 0 for a finite `v` and NaN otherwise,
/// and NaN stays in its lane's sum.
#[allow(clippy::eq_op)] // `v - v` on purpose: the finiteness test.
fn merge_slice(out: &mut [f32], latest: &[f32], played: &[f32], base: &[f32]) -> bool {
    const LANES: usize = 8;
    let mut check = [0.0f32; LANES];
    let mut o = out.chunks_exact_mut(LANES);
    let (mut m, mut p, mut b) = (latest.chunks_exact(LANES), played.chunks_exact(LANES), base.chunks_exact(LANES));
    for (((o, m), p), b) in (&mut o).zip(&mut m).zip(&mut p).zip(&mut b) {
        for i in 0..LANES {
            let v = m[i] + (p[i] - b[i]);
            o[i] = v;
            check[i] += v - v;
        }
    }
    let tail = o.into_remainder().iter_mut().zip(m.remainder()).zip(p.remainder()).zip(b.remainder());
    let mut finite = true;
    for (((o, &m), &p), &b) in tail {
        *o = m + (p - b);
        finite &= o.is_finite();
    }
    finite && check.iter().all(|&c| c == 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_merge_is_add_difference_and_finds_non_finite_numbers() {
        let latest = Mlp::random(7, 5, 0.5, 1);
        let base = Mlp::random(7, 5, 0.5, 2);
        let played = Mlp::random(7, 5, 0.5, 3);
        let mut expected = latest.clone();
        expected.add_difference(&played, &base);
        let mut out = latest.zeros_like();
        assert!(merge_mlp(&mut out, &latest, &played, &base));
        assert_eq!(out, expected);
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            for at in [0, 9, 34] {
                let mut p = played.clone();
                p.w1.as_slice_mut().unwrap()[at] = bad;
                assert!(!merge_mlp(&mut out, &latest, &p, &base), "{bad} at {at}");
            }
            let mut p = played.clone();
            p.b2[4] = bad;
            assert!(!merge_mlp(&mut out, &latest, &p, &base), "{bad} in b2");
        }
        // Large but finite numbers are finite.
        let mut p = played.clone();
        p.w1[(0, 0)] = 1e38;
        assert!(merge_mlp(&mut out, &latest, &p, &base));
    }
}
