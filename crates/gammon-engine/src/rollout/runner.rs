//! The parallel runner: trials in chunks on rayon's threads, summed in trial
//! order, with progress reports, the stopping rule after whole blocks, and a
//! stop flag that ends the rollout after the trials finished in order.

use super::player::{Player, Work};
use super::stats::{Acc, Cross, Estimate, Sample};
use super::{RolloutError, RolloutProgress, RolloutResult, BATCH};
use gammon_rules::Position;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Trials per chunk are adapted to take about this long (the results do not
/// depend on the chunks).
const CHUNK_TIME: Duration = Duration::from_millis(250);

/// Rolls out every start position with the same trials; `flip`: report for
/// the side not on roll at the start (the mover, for moves). Returns each
/// result with its headline difference to the best.
pub(super) fn run(
    player: &Player<'_>,
    starts: &[Position],
    flip: bool,
    progress: &(dyn Fn(&RolloutProgress) + Sync),
    stop: &AtomicBool,
) -> Result<Vec<(RolloutResult, Estimate)>, RolloutError> {
    let s = player.settings();
    let m = starts.len();
    let cubeful = s.cubeful;
    let mut accs = vec![Acc::default(); m];
    let mut cross = Cross::new(m);
    let mut done = 0u64;
    let threads = rayon::current_num_threads() as u64;
    let mut chunk = (threads * 2).max(2);
    let mut target_reached = false;
    let mut line = vec![0.0; m];
    let mut interrupted = false;
    while done < s.trials {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        let boundary = (done / BATCH + 1) * BATCH;
        let end = (done + chunk).min(boundary).min(s.trials);
        let began = Instant::now();
        // `None`: a trial not started because the stop flag was set.
        let rows: Vec<Option<Result<Vec<Sample>, RolloutError>>> = (done..end)
            .into_par_iter()
            .map_init(Work::new, |w, k| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                Some(
                    starts.iter().map(|p| player.trial(w, p, k).map(|x| if flip { x.inverted() } else { x })).collect(),
                )
            })
            .collect();
        // Only the trials before the first one not played count: the result
        // stays that of trials 0..K, whatever the threads finished.
        let mut finished = done;
        for row in rows {
            let Some(row) = row else {
                interrupted = true;
                break;
            };
            finished += 1;
            let row = row?;
            for ((acc, x), l) in accs.iter_mut().zip(&row).zip(line.iter_mut()) {
                acc.add(x);
                *l = x.headline(cubeful);
            }
            if m > 1 {
                cross.add(&line);
            }
        }
        // Aim the next chunk at CHUNK_TIME; it only changes how often progress is shown.
        let per_trial = began.elapsed().as_secs_f64() / (finished - done).max(1) as f64;
        let wanted = if per_trial > 0.0 { CHUNK_TIME.as_secs_f64() / per_trial } else { BATCH as f64 };
        chunk = (wanted as u64).clamp(threads.clamp(2, BATCH), BATCH);
        done = finished;
        if done == 0 {
            break;
        }
        let leader = leader(&accs, cubeful);
        let lead = accs[leader].headline(cubeful).estimate();
        progress(&RolloutProgress {
            trials: done,
            max_trials: s.trials,
            equity: lead.mean,
            standard_error: lead.standard_error,
            leader: if m > 1 { Some(leader) } else { None },
        });
        if interrupted {
            break;
        }
        if let Some(target) = s.target_se {
            if done.is_multiple_of(BATCH) && done < s.trials {
                let worst = accs.iter().map(|a| a.headline(cubeful).estimate().standard_error).fold(0.0, f64::max);
                if worst <= target {
                    target_reached = true;
                    break;
                }
            }
        }
    }
    if done == 0 {
        return Err(RolloutError::Interrupted);
    }
    let best = leader(&accs, cubeful);
    let best_mean = accs[best].headline(cubeful).mean();
    Ok(accs
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let diff = cross.difference(i, best, a.headline(cubeful).mean(), best_mean);
            (a.result(cubeful, target_reached, interrupted), diff)
        })
        .collect())
}

/// The start with the highest mean headline equity (the first on ties).
fn leader(accs: &[Acc], cubeful: bool) -> usize {
    let mut best = 0;
    for (i, a) in accs.iter().enumerate() {
        if a.headline(cubeful).mean() > accs[best].headline(cubeful).mean() {
            best = i;
        }
    }
    best
}
