//! When a job saves: every N items, every T seconds, or both (whichever
//! comes first). A saved checkpoint is all a killed job loses at most; the
//! job writes it through the safe writer (`gammon_eval::file_format::output`)
//! so that a kill during the write leaves the last one whole.

use std::time::{Duration, Instant};

/// How often a job saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckpointPolicy {
    /// Save once this many items were finished since the last save.
    pub items: Option<u64>,
    /// Save once this long has passed since the last save.
    pub every: Option<Duration>,
}

impl CheckpointPolicy {
    /// Every `n` items.
    pub fn items(n: u64) -> Self {
        CheckpointPolicy { items: Some(n.max(1)), every: None }
    }

    /// Every `t`.
    pub fn every(t: Duration) -> Self {
        CheckpointPolicy { items: None, every: Some(t) }
    }
}

/// A policy at work: what was saved, and when.
#[derive(Debug, Clone)]
pub struct Checkpoints {
    policy: CheckpointPolicy,
    saved_items: u64,
    saved_at: Instant,
}

impl Checkpoints {
    /// Starts counting from `done` items (already saved: resumed work).
    pub fn new(policy: CheckpointPolicy, done: u64) -> Self {
        Checkpoints { policy, saved_items: done, saved_at: Instant::now() }
    }

    /// Whether a save is due with `done` items finished.
    pub fn due(&self, done: u64) -> bool {
        let by_items = self.policy.items.is_some_and(|n| done >= self.saved_items + n);
        let by_time = self.policy.every.is_some_and(|t| self.saved_at.elapsed() >= t);
        by_items || by_time
    }

    /// Whether items were finished since the last save.
    pub fn unsaved(&self, done: u64) -> bool {
        done > self.saved_items
    }

    /// A save was made with `done` items.
    pub fn saved(&mut self, done: u64) {
        self.saved_items = done;
        self.saved_at = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_counted_from_the_last_save() {
        let mut c = Checkpoints::new(CheckpointPolicy::items(10), 5);
        assert!(!c.due(14) && c.due(15));
        assert!(c.unsaved(6) && !c.unsaved(5));
        c.saved(15);
        assert!(!c.due(24) && c.due(25));
    }

    #[test]
    fn time_is_counted_from_the_last_save() {
        let c = Checkpoints::new(CheckpointPolicy::every(Duration::ZERO), 0);
        assert!(c.due(0));
        let c = Checkpoints::new(CheckpointPolicy::every(Duration::from_secs(3600)), 0);
        assert!(!c.due(1_000_000));
    }
}
