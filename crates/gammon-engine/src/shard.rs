//! Splitting work between the tasks of a batch job: shard `K/N`, `K` from 0
//! to `N - 1` as Kubernetes' `JOB_COMPLETION_INDEX` counts (a Slurm array is
//! then `--array=0-(N-1)`).
//!
//! Two kinds of work are split, each the way that keeps a shard's part
//! worth having on its own:
//!
//! - the trials of a rollout: shard `K/N` of `T` trials plays the
//!   contiguous range `floor(K T / N) .. floor((K+1) T / N)`
//!   ([`Shard::trials`]). A shard that stops early holds the first trials of
//!   its range, so it resumes from its own checkpoint, and the trials that
//!   are missing from a partial merge are whole ranges, not one stratum of
//!   the quasi-random dice (every `N`-th trial would miss some first rolls
//!   entirely). A failed shard `K/N` can be rerun as the two shards `2K/2N`
//!   and `2K+1/2N`: they cover the same range.
//! - the positions of a positions file: shard `K/N` takes the positions
//!   whose index is `K` mod `N` ([`Shard::holds`]), so that a file sorted
//!   by game or by phase costs every shard about the same.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;
use thiserror::Error;

/// Shard `index` of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    /// From 0 to `count - 1`.
    pub index: u32,
    /// At least 1.
    pub count: u32,
}

/// The environment variables that give a task its index, in the order they
/// are read: Slurm's job array, then Kubernetes' Indexed Job.
pub const INDEX_VARIABLES: [&str; 2] = ["SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"];

/// The most shards work is split into.
pub const MAX_SHARDS: u32 = 1_000_000;

/// A shard that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShardError {
    /// Not `K/N` or `auto/N` with `K < N`.
    #[error("a shard is K/N with 0 <= K < N <= {MAX_SHARDS}, or auto/N (got {0:?})")]
    Syntax(String),
    /// `auto/N` where no index variable is set.
    #[error("--shard auto/{count} reads the task's index from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX, and neither is set")]
    NoIndex {
        /// N.
        count: u32,
    },
    /// `auto/N` where the variable is not an index below N.
    #[error("{variable} is {value:?}, not a shard index from 0 to {} (submit the array as --array=0-{})", .count - 1, .count - 1)]
    BadIndex {
        /// The variable read.
        variable: &'static str,
        /// Its value.
        value: String,
        /// N.
        count: u32,
    },
}

impl Shard {
    /// The whole: shard 0 of 1.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`, if `index < count <= MAX_SHARDS`.
    pub const fn new(index: u32, count: u32) -> Option<Shard> {
        if index < count && count <= MAX_SHARDS {
            Some(Shard { index, count })
        } else {
            None
        }
    }

    /// Whether the position at `i` in a file belongs to this shard.
    pub const fn holds(&self, i: usize) -> bool {
        i % self.count as usize == self.index as usize
    }

    /// The number of the positions of a file of `total` that are this shard's.
    pub const fn positions(&self, total: usize) -> usize {
        let (k, n) = (self.index as usize, self.count as usize);
        if total > k {
            (total - k).div_ceil(n)
        } else {
            0
        }
    }

    /// This shard's trials of a rollout of `total` trials.
    ///
    /// ```
    /// use gammon_engine::shard::Shard;
    /// let s = |k, n| Shard::new(k, n).unwrap();
    /// assert_eq!(s(0, 8).trials(1296), 0..162);
    /// assert_eq!(s(7, 8).trials(1296), 1134..1296);
    /// assert_eq!(s(2, 3).trials(10), 6..10);
    /// // A shard rerun as two finer ones covers the same trials.
    /// assert_eq!(s(4, 6).trials(1000).start, s(2, 3).trials(1000).start);
    /// assert_eq!(s(5, 6).trials(1000).end, s(2, 3).trials(1000).end);
    /// ```
    pub const fn trials(&self, total: u64) -> Range<u64> {
        let (n, t) = (self.count as u128, total as u128);
        (self.index as u128 * t / n) as u64..((self.index as u128 + 1) * t / n) as u64
    }
}

impl FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || ShardError::Syntax(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
        Shard::new(k, n).ok_or_else(bad)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// A shard as given on the command line: `K/N`, or `auto/N` with `K` from
/// the batch system's environment ([`INDEX_VARIABLES`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardSpec {
    /// `K/N`.
    Fixed(Shard),
    /// `auto/N`.
    Auto {
        /// N.
        count: u32,
    },
}

impl ShardSpec {
    /// The shard, reading the index (if `auto`) with `var` (the process
    /// environment: `|name| std::env::var(name).ok()`).
    ///
    /// # Errors
    /// [`ShardError::NoIndex`] or [`ShardError::BadIndex`] for `auto`.
    pub fn resolve(self, var: impl Fn(&str) -> Option<String>) -> Result<Shard, ShardError> {
        let count = match self {
            ShardSpec::Fixed(s) => return Ok(s),
            ShardSpec::Auto { count } => count,
        };
        for variable in INDEX_VARIABLES {
            if let Some(value) = var(variable) {
                let index = value.trim().parse::<u32>().ok().and_then(|k| Shard::new(k, count));
                return index.ok_or(ShardError::BadIndex { variable, value, count });
            }
        }
        Err(ShardError::NoIndex { count })
    }
}

impl FromStr for ShardSpec {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if let Some(n) = s.trim().strip_prefix("auto/") {
            return match n.trim().parse::<u32>() {
                Ok(count) if (1..=MAX_SHARDS).contains(&count) => Ok(ShardSpec::Auto { count }),
                _ => Err(ShardError::Syntax(s.to_string())),
            };
        }
        s.parse().map(ShardSpec::Fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_are_refused_with_the_reason() {
        assert_eq!("2/5".parse::<Shard>().unwrap(), Shard { index: 2, count: 5 });
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2", "", "0/2000000"] {
            assert!(matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))), "{bad}");
        }
        assert_eq!("auto/8".parse::<ShardSpec>().unwrap(), ShardSpec::Auto { count: 8 });
        assert!("auto/0".parse::<ShardSpec>().is_err());
        assert_eq!(Shard { index: 1, count: 4 }.to_string(), "1/4");
    }

    #[test]
    fn auto_reads_slurm_then_kubernetes() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string())
        };
        let auto = ShardSpec::Auto { count: 4 };
        assert_eq!(auto.resolve(env(&[("JOB_COMPLETION_INDEX", "3")])), Ok(Shard { index: 3, count: 4 }));
        assert_eq!(
            auto.resolve(env(&[("SLURM_ARRAY_TASK_ID", "1"), ("JOB_COMPLETION_INDEX", "3")])),
            Ok(Shard { index: 1, count: 4 })
        );
        assert_eq!(auto.resolve(env(&[])), Err(ShardError::NoIndex { count: 4 }));
        let err = auto.resolve(env(&[("SLURM_ARRAY_TASK_ID", "4")])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "SLURM_ARRAY_TASK_ID is \"4\", not a shard index from 0 to 3 (submit the array as --array=0-3)"
        );
        let fixed = ShardSpec::Fixed(Shard { index: 0, count: 2 });
        assert_eq!(fixed.resolve(env(&[("SLURM_ARRAY_TASK_ID", "1")])), Ok(Shard { index: 0, count: 2 }));
    }

    #[test]
    fn trial_ranges_tile_the_rollout_and_positions_partition_the_file() {
        for n in [1, 2, 3, 7, 8, 13] {
            for total in [1u64, 5, 36, 1296, 1_000_000] {
                let mut at = 0;
                for k in 0..n {
                    let r = Shard { index: k, count: n }.trials(total);
                    assert_eq!(r.start, at, "{k}/{n} of {total}");
                    at = r.end;
                }
                assert_eq!(at, total);
            }
            for total in [0usize, 1, 6, 20] {
                let shards = (0..n).map(|index| Shard { index, count: n });
                assert_eq!(shards.clone().map(|s| s.positions(total)).sum::<usize>(), total);
                for s in shards {
                    assert_eq!(s.positions(total), (0..total).filter(|&i| s.holds(i)).count());
                }
            }
        }
    }
}
