//! Where a job reports how far it has come: a bar on standard error in the
//! terminal ([`Bar`]), or a snapshot the server's GETs read ([`Shared`]).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::sync::{Arc, Mutex, MutexGuard};

/// What a job reports as it goes.
pub trait Progress: Sync {
    /// `done` of `total` items are finished.
    fn report(&self, done: u64, total: u64);

    /// A line for the person watching (printed above a bar; a snapshot
    /// keeps it as the job's phase).
    fn note(&self, line: &str);

    /// Everything finished so far was saved: `done` of `total` items.
    fn saved(&self, done: u64, total: u64) {
        let _ = (done, total);
    }
}

/// A progress bar on standard error, drawn only when `shown` (a terminal):
/// in a pipe or a log it draws nothing, and notes are plain lines.
#[derive(Debug, Clone)]
pub struct Bar(ProgressBar);

impl Bar {
    /// A bar drawn with an indicatif `template` (`{bar:30}`, `{pos}`,
    /// `{len}`, `{msg}`, `{eta}`...).
    pub fn new(template: &str, shown: bool) -> Self {
        let bar = if shown {
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_bar()));
        Bar(bar)
    }

    /// The text after the counts (`{msg}` in the template).
    pub fn message(&self, text: String) {
        self.0.set_message(text);
    }

    /// Runs `f` (which prints) with the bar out of the way.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.0.suspend(f)
    }

    /// Erases the bar.
    pub fn clear(&self) {
        self.0.finish_and_clear();
    }
}

impl Progress for Bar {
    fn report(&self, done: u64, total: u64) {
        self.0.set_length(total);
        self.0.set_position(done);
    }

    fn note(&self, line: &str) {
        self.0.suspend(|| eprintln!("{line}"));
    }
}

/// Where a job stands, as [`Shared`] keeps it: the counts, the last note,
/// and what the job adds of its own (`D`: a rollout's running estimate).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot<D> {
    /// Items finished.
    pub done: u64,
    /// Of how many (at most).
    pub total: u64,
    /// The last note.
    pub phase: Option<String>,
    /// The job's own figures.
    pub detail: D,
}

/// A job's progress kept for others to read (the server's GET of a job):
/// cloneable, one snapshot behind a lock.
#[derive(Debug, Clone, Default)]
pub struct Shared<D>(Arc<Mutex<Snapshot<D>>>);

impl<D: Clone + Default> Shared<D> {
    /// No progress yet.
    pub fn new() -> Self {
        Shared(Arc::default())
    }

    /// Where the job stands now.
    pub fn snapshot(&self) -> Snapshot<D> {
        self.lock().clone()
    }

    /// Reports the counts and the job's own figures at once (one reading).
    pub fn report_with(&self, done: u64, total: u64, detail: D) {
        let mut s = self.lock();
        s.done = done;
        s.total = total;
        s.detail = detail;
    }

    fn lock(&self) -> MutexGuard<'_, Snapshot<D>> {
        // A panic inside a job is caught by its runner; the snapshot is still good.
        self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl<D: Clone + Default + Send> Progress for Shared<D> {
    fn report(&self, done: u64, total: u64) {
        let mut s = self.lock();
        s.done = done;
        s.total = total;
    }

    fn note(&self, line: &str) {
        self.lock().phase = Some(line.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_progress_keeps_the_last_report_and_note() {
        let p: Shared<Option<f64>> = Shared::new();
        let reader = p.clone();
        p.report(3, 10);
        p.note("labelling");
        assert_eq!(reader.snapshot(), Snapshot { done: 3, total: 10, phase: Some("labelling".into()), detail: None });
        p.report_with(4, 10, Some(0.5));
        let s = reader.snapshot();
        assert_eq!((s.done, s.detail), (4, Some(0.5)));
    }

    #[test]
    fn a_hidden_bar_takes_reports() {
        let bar = Bar::new("x [{bar:10}] {pos}/{len}", false);
        bar.report(1, 2);
        bar.note("a note");
        bar.clear();
    }
}
