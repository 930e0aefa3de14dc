//! The parallel runner: trials in chunks on rayon's threads, added to a
//! tally in trial order, with progress reports, checkpoints, the stopping
//! rule after whole blocks, and a stop flag that ends the run after the
//! trials finished in order.

use super::player::{Player, Work};
use super::stats::Sample;
use super::tally::RolloutTally;
use super::{Controls, RolloutError, RolloutProgress, BATCH};
use gammon_rules::Position;
use rayon::prelude::*;
use std::ops::Range;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Trials per chunk are adapted to take about this long (the results do not
/// depend on the chunks).
const CHUNK_TIME: Duration = Duration::from_millis(250);

/// How a run ended.
#[derive(Debug)]
pub(super) struct RunEnd {
    /// The sums of the trials played (with those it resumed).
    pub(super) tally: RolloutTally,
    /// Stopped at the target standard error.
    pub(super) target_reached: bool,
    /// Stopped by the stop flag before the end of its trials.
    pub(super) interrupted: bool,
}

/// Plays trials `trials` of every start position (the same dice for each),
/// continuing `tally`, which holds the first trials of that range; `flip`:
/// report for the side not on roll at the start (the mover, for moves).
pub(super) fn run(
    player: &Player<'_>,
    starts: &[Position],
    flip: bool,
    trials: Range<u64>,
    mut tally: RolloutTally,
    controls: &Controls<'_>,
) -> Result<RunEnd, RolloutError> {
    let s = player.settings();
    let m = starts.len();
    let cubeful = player.headline_cubeful();
    let stop = controls.stop;
    let mut next = trials.start + tally.trials().len();
    let threads = rayon::current_num_threads() as u64;
    let mut chunk = (threads * 2).max(2);
    let mut target_reached = false;
    let mut line = vec![0i64; m];
    let mut interrupted = false;
    while next < trials.end {
        if stop.load(Ordering::Relaxed) {
            interrupted = true;
            break;
        }
        // Blocks of BATCH count from the start of the range.
        let boundary = trials.start + ((next - trials.start) / BATCH + 1) * BATCH;
        let end = (next + chunk).min(boundary).min(trials.end);
        let began = Instant::now();
        // `None`: a trial not started because the stop flag was set.
        let rows: Vec<Option<Result<Vec<Sample>, RolloutError>>> = (next..end)
            .into_par_iter()
            .map_init(Work::new, |w, k| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                Some(
                    starts
                        .iter()
                        .enumerate()
                        .map(|(i, p)| player.trial(w, i, p, k).map(|x| if flip { x.inverted() } else { x }))
                        .collect(),
                )
            })
            .collect();
        // Only the trials before the first one not played count: the tally
        // stays that of an unbroken run of trials, whatever the threads finished.
        let before = next;
        for row in rows {
            let Some(row) = row else {
                interrupted = true;
                break;
            };
            tally.add(next, &row?, cubeful, &mut line)?;
            next += 1;
        }
        // Aim the next chunk at CHUNK_TIME; it only changes how often progress is shown.
        let per_trial = began.elapsed().as_secs_f64() / (next - before).max(1) as f64;
        let wanted = if per_trial > 0.0 { CHUNK_TIME.as_secs_f64() / per_trial } else { BATCH as f64 };
        chunk = (wanted as u64).clamp(threads.clamp(2, BATCH), BATCH);
        if tally.trials().is_empty() {
            break;
        }
        let (leader, lead) = tally.leader(cubeful);
        (controls.progress)(&RolloutProgress {
            trials: tally.trials().len(),
            max_trials: trials.end - trials.start,
            equity: lead.mean,
            standard_error: lead.standard_error,
            leader: if m > 1 { Some(leader) } else { None },
        });
        (controls.checkpoint)(&tally);
        if interrupted {
            break;
        }
        if let Some(target) = s.target_se {
            let played = next - trials.start;
            if played.is_multiple_of(BATCH) && next < trials.end && tally.worst_standard_error(cubeful) <= target {
                target_reached = true;
                break;
            }
        }
    }
    if tally.trials().is_empty() {
        return Err(RolloutError::Interrupted);
    }
    Ok(RunEnd { tally, target_reached, interrupted })
}
