//! The exact sums of a set of trials: which trials were played, and per
//! start position the sums of every value and of the products between
//! starts. A whole rollout, one shard of it and a merge of shards are all
//! tallies; because the sums are exact integers, tallies of disjoint trials
//! add up to the tally of their union bit for bit, and the results computed
//! from a tally depend only on which trials it holds.

use super::stats::{Acc, Cross, Estimate, Sample};
use super::{RolloutError, RolloutResult};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::Range;

/// A set of trial numbers, as sorted, disjoint, non-adjacent half-open
/// ranges.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrialSet {
    ranges: Vec<(u64, u64)>,
}

impl TrialSet {
    /// The trials `range`.
    pub fn of(range: Range<u64>) -> Self {
        let mut s = TrialSet::default();
        s.push(range);
        s
    }

    /// The trials of any ranges (overlapping or not, in any order).
    pub fn from_ranges(ranges: impl IntoIterator<Item = Range<u64>>) -> Self {
        let mut all: Vec<Range<u64>> = ranges.into_iter().filter(|r| !r.is_empty()).collect();
        all.sort_unstable_by_key(|r| (r.start, r.end));
        let mut out = TrialSet::default();
        for r in all {
            match out.ranges.last_mut() {
                Some(last) if last.1 >= r.start => last.1 = last.1.max(r.end),
                _ => out.ranges.push((r.start, r.end)),
            }
        }
        out
    }

    /// The number of trials.
    pub fn len(&self) -> u64 {
        self.ranges.iter().map(|(a, b)| b - a).sum()
    }

    /// Whether it holds no trial.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges, in order.
    pub fn ranges(&self) -> impl Iterator<Item = Range<u64>> + '_ {
        self.ranges.iter().map(|&(a, b)| a..b)
    }

    /// The trials of `0..total` it does not hold, as ranges in order.
    pub fn missing(&self, total: u64) -> Vec<Range<u64>> {
        let mut out = Vec::new();
        let mut at = 0;
        for &(a, b) in &self.ranges {
            if a > at {
                out.push(at..a.min(total));
            }
            at = at.max(b);
        }
        if at < total {
            out.push(at..total);
        }
        out.retain(|r| !r.is_empty());
        out
    }

    /// The first trials held by both, if any.
    pub fn overlap(&self, other: &TrialSet) -> Option<Range<u64>> {
        let (mut i, mut j) = (0, 0);
        while i < self.ranges.len() && j < other.ranges.len() {
            let (a, b) = self.ranges[i];
            let (c, d) = other.ranges[j];
            let (lo, hi) = (a.max(c), b.min(d));
            if lo < hi {
                return Some(lo..hi);
            }
            if b <= d {
                i += 1;
            } else {
                j += 1;
            }
        }
        None
    }

    /// The largest trial number held plus one (0 when empty).
    pub fn end(&self) -> u64 {
        self.ranges.last().map_or(0, |r| r.1)
    }

    /// Adds `range`, which must lie after every trial held.
    fn push(&mut self, range: Range<u64>) {
        if range.is_empty() {
            return;
        }
        match self.ranges.last_mut() {
            Some(last) if last.1 == range.start => last.1 = range.end,
            _ => self.ranges.push((range.start, range.end)),
        }
    }

    /// The union with another set.
    fn union(&self, other: &TrialSet) -> TrialSet {
        TrialSet::from_ranges(self.ranges().chain(other.ranges()))
    }

    /// Sorted, disjoint, non-empty, non-adjacent.
    fn is_canonical(&self) -> bool {
        self.ranges.iter().all(|(a, b)| a < b) && self.ranges.windows(2).all(|w| w[0].1 < w[1].0)
    }
}

impl fmt::Display for TrialSet {
    /// `0-647, 810-1295` (last trial included), or `none`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ranges.is_empty() {
            return f.write_str("none");
        }
        for (i, (a, b)) in self.ranges.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            if b - a == 1 {
                write!(f, "{a}")?;
            } else {
                write!(f, "{a}-{}", b - 1)?;
            }
        }
        Ok(())
    }
}

/// Why two tallies cannot be added.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TallyError {
    /// They hold some of the same trials (a shard given twice, or two
    /// shards whose ranges overlap).
    #[error("both hold trials {}", TrialSet::of(.0.clone()))]
    Overlap(Range<u64>),
    /// Tallies of a different number of start positions (moves).
    #[error("one rolls out {0} moves, the other {1}")]
    Starts(usize, usize),
    /// Inconsistent sums (a file written by something else).
    #[error("inconsistent sums: {0}")]
    Inconsistent(&'static str),
}

/// The exact sums of some trials of a rollout of one or more start
/// positions (the candidate moves of a roll, with the same dice).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RolloutTally {
    trials: TrialSet,
    accs: Vec<Acc>,
    cross: Cross,
}

impl RolloutTally {
    /// No trials yet, of `starts` start positions.
    pub(crate) fn empty(starts: usize) -> Self {
        RolloutTally { trials: TrialSet::default(), accs: vec![Acc::default(); starts], cross: Cross::new(starts) }
    }

    /// The trials summed.
    pub fn trials(&self) -> &TrialSet {
        &self.trials
    }

    /// The number of start positions (1 for a position, else the moves).
    pub fn starts(&self) -> usize {
        self.accs.len()
    }

    /// Adds trial `k`'s samples (one per start), `k` after every trial held.
    pub(super) fn add(&mut self, k: u64, row: &[Sample], cubeful: bool, line: &mut [i64]) -> Result<(), RolloutError> {
        for ((acc, x), l) in self.accs.iter_mut().zip(row).zip(line.iter_mut()) {
            *l = acc.add(x, cubeful)?;
        }
        self.cross.add(line);
        self.trials.push(k..k + 1);
        Ok(())
    }

    /// Adds the sums of other trials of the same rollout.
    ///
    /// # Errors
    /// [`TallyError`]: the trials overlap, or the number of starts differs.
    pub fn merge(&mut self, other: &RolloutTally) -> Result<(), TallyError> {
        if self.starts() != other.starts() {
            return Err(TallyError::Starts(self.starts(), other.starts()));
        }
        if let Some(r) = self.trials.overlap(&other.trials) {
            return Err(TallyError::Overlap(r));
        }
        self.trials = self.trials.union(&other.trials);
        for (a, b) in self.accs.iter_mut().zip(&other.accs) {
            a.merge(b);
        }
        self.cross.merge(&other.cross);
        Ok(())
    }

    /// Checks that the parts agree with each other (for tallies read from
    /// files, whose checksum only shows they were not damaged).
    ///
    /// # Errors
    /// [`TallyError::Inconsistent`] naming what disagrees.
    pub fn check(&self) -> Result<(), TallyError> {
        if self.accs.is_empty() {
            return Err(TallyError::Inconsistent("no start position"));
        }
        if !self.trials.is_canonical() {
            return Err(TallyError::Inconsistent("the trial ranges are not in order"));
        }
        if !self.cross.is_consistent(self.accs.len(), self.trials.len()) {
            return Err(TallyError::Inconsistent("the paired sums do not fit the moves"));
        }
        if self.accs.iter().any(|a| !a.has_count(self.trials.len())) {
            return Err(TallyError::Inconsistent("a count differs from the trials held"));
        }
        Ok(())
    }

    /// The index of the start with the highest mean headline equity (the
    /// first on ties) and that equity's estimate.
    pub(super) fn leader(&self, cubeful: bool) -> (usize, Estimate) {
        let mut best = 0;
        for (i, a) in self.accs.iter().enumerate() {
            if a.headline(cubeful).mean() > self.accs[best].headline(cubeful).mean() {
                best = i;
            }
        }
        (best, self.accs[best].headline(cubeful).estimate())
    }

    /// The worst standard error of the headline equities.
    pub(super) fn worst_standard_error(&self, cubeful: bool) -> f64 {
        self.accs.iter().map(|a| a.headline(cubeful).estimate().standard_error).fold(0.0, f64::max)
    }

    /// Each start's result with its headline difference to the leader.
    pub(super) fn results(
        &self,
        cubeful: bool,
        target_reached: bool,
        interrupted: bool,
    ) -> Vec<(RolloutResult, Estimate)> {
        let (best, _) = self.leader(cubeful);
        let best_mean = self.accs[best].headline(cubeful).mean();
        self.accs
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let diff = self.cross.difference(i, best, a.headline(cubeful).mean(), best_mean);
                (a.result(cubeful, target_reached, interrupted), diff)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(ranges: &[(u64, u64)]) -> TrialSet {
        let mut s = TrialSet::default();
        for &(a, b) in ranges {
            s = s.union(&TrialSet::of(a..b));
        }
        s
    }

    #[test]
    fn trial_sets_know_their_gaps_overlaps_and_text() {
        let s = set(&[(0, 10), (20, 30), (10, 15)]);
        assert_eq!(s.ranges().collect::<Vec<_>>(), vec![0..15, 20..30]);
        assert_eq!(s.len(), 25);
        assert_eq!(s.missing(40), vec![15..20, 30..40]);
        assert_eq!(s.missing(30), vec![15..20]);
        assert_eq!(s.overlap(&TrialSet::of(14..21)), Some(14..15));
        assert_eq!(s.overlap(&TrialSet::of(15..20)), None);
        assert_eq!(s.to_string(), "0-14, 20-29");
        assert_eq!(TrialSet::of(7..8).to_string(), "7");
        assert_eq!(TrialSet::default().to_string(), "none");
        assert!(s.is_canonical());
        assert!(!TrialSet { ranges: vec![(5, 9), (9, 12)] }.is_canonical());
    }
}
