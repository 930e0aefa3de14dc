//! The runner: a job done one step at a time until it is finished or asked
//! to stop, saved by its [`CheckpointPolicy`](crate::CheckpointPolicy) and
//! once more at the end, so that a stopped or failed job keeps every item it
//! finished.

use crate::{Checkpoints, Progress, StopFlag};

/// A job the runner drives. Its items are finished in order; `done` counts
/// those it holds (resumed ones included), and a step finishes the items it
/// starts even when the flag is set meanwhile.
pub trait Job {
    /// Why a step or a save failed.
    type Error;

    /// Items finished (and held) so far.
    fn done(&self) -> u64;

    /// Items in all.
    fn total(&self) -> u64;

    /// Does the next piece of work. On an error the items finished before
    /// it are held (and saved by the runner).
    ///
    /// # Errors
    /// The job's own.
    fn step(&mut self, stop: &StopFlag) -> Result<(), Self::Error>;

    /// Saves every item held (through the safe writer).
    ///
    /// # Errors
    /// The save failed.
    fn save(&mut self) -> Result<(), Self::Error>;
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// Every item is done.
    Finished,
    /// Stopped by the flag with `done` of `total` items kept.
    Stopped {
        /// Items kept.
        done: u64,
        /// Items in all.
        total: u64,
    },
}

/// Runs `job` until it is finished or `stop` is set: a step, a report to
/// `progress`, a save when `checkpoints` says so; at the end, when stopped
/// and after a failed step, whatever is unsaved is saved (and reported with
/// [`Progress::saved`]).
///
/// # Errors
/// The first error of a step (after saving what it finished) or of a save.
pub fn run<J: Job>(
    job: &mut J,
    stop: &StopFlag,
    progress: &dyn Progress,
    checkpoints: &mut Checkpoints,
) -> Result<Ended, J::Error> {
    let total = job.total();
    loop {
        if job.done() >= total || stop.is_stopped() {
            save_unsaved(job, progress, checkpoints)?;
            let done = job.done();
            return Ok(if done >= total { Ended::Finished } else { Ended::Stopped { done, total } });
        }
        if let Err(e) = job.step(stop) {
            save_unsaved(job, progress, checkpoints)?;
            return Err(e);
        }
        progress.report(job.done(), total);
        if checkpoints.due(job.done()) {
            save(job, progress, checkpoints)?;
        }
    }
}

fn save_unsaved<J: Job>(job: &mut J, progress: &dyn Progress, checkpoints: &mut Checkpoints) -> Result<(), J::Error> {
    if checkpoints.unsaved(job.done()) {
        save(job, progress, checkpoints)?;
    }
    Ok(())
}

fn save<J: Job>(job: &mut J, progress: &dyn Progress, checkpoints: &mut Checkpoints) -> Result<(), J::Error> {
    job.save()?;
    checkpoints.saved(job.done());
    progress.saved(job.done(), job.total());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CheckpointPolicy, Shared};

    /// Counts to `total` three items a step; fails at `fail_at`; stops the
    /// flag after `stop_at` items; records each save.
    struct Count {
        done: u64,
        total: u64,
        fail_at: Option<u64>,
        stop_at: Option<u64>,
        saves: Vec<u64>,
    }

    impl Job for Count {
        type Error = String;
        fn done(&self) -> u64 {
            self.done
        }
        fn total(&self) -> u64 {
            self.total
        }
        fn step(&mut self, stop: &StopFlag) -> Result<(), String> {
            for _ in 0..3 {
                if self.fail_at == Some(self.done) {
                    return Err(format!("failed at {}", self.done));
                }
                if self.done < self.total {
                    self.done += 1;
                }
                if self.stop_at == Some(self.done) {
                    stop.stop();
                }
            }
            Ok(())
        }
        fn save(&mut self) -> Result<(), String> {
            self.saves.push(self.done);
            Ok(())
        }
    }

    fn count(total: u64) -> Count {
        Count { done: 0, total, fail_at: None, stop_at: None, saves: vec![] }
    }

    #[test]
    fn a_finished_job_is_saved_by_the_policy_and_at_the_end() {
        let mut job = count(10);
        let mut c = Checkpoints::new(CheckpointPolicy::items(6), 0);
        let progress: Shared<()> = Shared::new();
        let ended = run(&mut job, &StopFlag::new(), &progress, &mut c).unwrap();
        assert_eq!(ended, Ended::Finished);
        // Steps end at 3, 6, 9, 10: a save at 6 (6 since 0), none at 9, one at the end.
        assert_eq!(job.saves, vec![6, 10]);
        assert_eq!((progress.snapshot().done, progress.snapshot().total), (10, 10));
    }

    #[test]
    fn a_stopped_job_keeps_the_step_in_hand() {
        let mut job = count(100);
        job.stop_at = Some(4);
        let mut c = Checkpoints::new(CheckpointPolicy::items(1000), 0);
        let ended = run(&mut job, &StopFlag::new(), &Shared::<()>::new(), &mut c).unwrap();
        assert_eq!(ended, Ended::Stopped { done: 6, total: 100 });
        assert_eq!(job.saves, vec![6]);
    }

    #[test]
    fn a_failed_step_saves_what_it_finished_first() {
        let mut job = count(100);
        job.fail_at = Some(7);
        let mut c = Checkpoints::new(CheckpointPolicy::items(1000), 0);
        let err = run(&mut job, &StopFlag::new(), &Shared::<()>::new(), &mut c).unwrap_err();
        assert_eq!(err, "failed at 7");
        assert_eq!(job.saves, vec![7]);
    }

    #[test]
    fn resumed_work_is_not_saved_again_and_a_set_flag_does_nothing() {
        let mut job = count(100);
        job.done = 40;
        let stop = StopFlag::new();
        stop.stop();
        let mut c = Checkpoints::new(CheckpointPolicy::items(1), 40);
        assert_eq!(
            run(&mut job, &stop, &Shared::<()>::new(), &mut c).unwrap(),
            Ended::Stopped { done: 40, total: 100 }
        );
        assert!(job.saves.is_empty());
    }
}
