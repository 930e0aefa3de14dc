//! A rollout in shards: one shard's trials, saved with everything a merge
//! must check ([`RolloutShard`], the file kind `GAMMONRS`), and the merge of
//! any set of shards into the report one run with the same settings gives
//! ([`merge_rollout_shards`]).

use super::{Engine, EngineError, RolloutOutcome, RolloutReport};
use crate::met::Met;
use crate::rollout::{
    move_results, position_result, rollout_candidates, rollout_trials, Candidate, Controls, RolloutProgress,
    RolloutSettings, RolloutTally, Starts, TallyError, TrialCube, TrialSet, TrialsRun,
};
use crate::shard::Shard;
use gammon_eval::file_format::{self, FileError, FileKind};
use gammon_eval::Evaluator;
use gammon_rules::{Dice, Move, Position};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The version of the rollout shard file format.
pub const SHARD_VERSION: u32 = 1;
/// The largest shard file read: 64 MiB (the sums of a rollout of a few
/// hundred moves; the size does not grow with the trials).
pub const MAX_SHARD_BYTES: u64 = 64 << 20;

/// What every shard of one rollout shares: the question and how it is
/// answered.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutJob {
    /// The position (gnubg Position ID, player on roll).
    pub position: String,
    /// The roll whose moves are rolled out (`31`), or none.
    pub dice: Option<String>,
    /// The settings (the trials of the whole rollout, the seed ...).
    pub settings: RolloutSettings,
    /// The evaluator's name.
    pub evaluator: String,
    /// The fingerprint of its weights
    /// ([`NetWeights::fingerprint`](gammon_eval::NetWeights::fingerprint)).
    pub fingerprint: u64,
    /// With dice: the number of legal moves.
    pub legal_moves: Option<usize>,
    /// With dice: the moves rolled out, as the Position ID after each, and
    /// the evaluator's 0-ply equity of each, in the evaluator's order.
    pub candidates: Vec<(String, f64)>,
}

/// One shard of a rollout: its trials' exact sums and what they belong to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RolloutShard {
    /// The rollout.
    pub job: RolloutJob,
    /// Which shard (for merges, the first of the shards merged).
    pub shard: Shard,
    /// The sums of the trials played so far.
    pub tally: RolloutTally,
    /// Wall time spent on it, over every run that resumed it.
    pub seconds: f64,
    /// Worker threads of its last run.
    pub threads: usize,
}

impl RolloutShard {
    /// The trials this shard is to play.
    pub fn range(&self) -> Range<u64> {
        self.shard.trials(self.job.settings.trials)
    }

    /// Whether it played all of them.
    pub fn is_complete(&self) -> bool {
        *self.tally.trials() == TrialSet::of(self.range())
    }

    /// Writes it atomically.
    ///
    /// # Errors
    /// Encoding or the file system failed.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        file_format::write_file_atomic(path, FileKind::RolloutShard, SHARD_VERSION, self)
    }

    /// Reads and checks a shard file.
    ///
    /// # Errors
    /// Unreadable, corrupt, or sums that disagree with each other.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let s: RolloutShard = file_format::read_file(path, FileKind::RolloutShard, SHARD_VERSION, MAX_SHARD_BYTES)?;
        let starts = s.job.candidates.len().max(1);
        let problem = match s.tally.check() {
            Err(e) => Some(e.to_string()),
            Ok(()) if s.tally.starts() != starts => Some("the sums are not of the moves named".to_string()),
            Ok(()) => None,
        };
        match problem {
            Some(p) => Err(FileError::in_file(path, FileError::Invalid(p))),
            None => Ok(s),
        }
    }
}

/// Why shards cannot be merged. `shard` and `other` are indexes into the
/// list given to [`merge_rollout_shards`].
#[derive(Debug, Clone, PartialEq, Error)]
pub enum MergeError {
    /// No shard given.
    #[error("no shard to merge")]
    Empty,
    /// A shard of another rollout: another position, roll, net or setting.
    #[error("it is a shard of another rollout than the first: its {what} differs ({this} against {first})")]
    Different {
        /// The shard.
        shard: usize,
        /// What differs.
        what: &'static str,
        /// Its value.
        this: String,
        /// The first shard's.
        first: String,
    },
    /// The same shard (or overlapping ones) given twice.
    #[error("it holds games {games} that another shard given also holds (the same shard twice?)")]
    Duplicate {
        /// The shard.
        shard: usize,
        /// The other shard.
        other: usize,
        /// The trials both hold.
        games: String,
    },
    /// Trials no shard holds, without `partial`.
    #[error("games {games} of {total} are missing{}; rerun those shards, or merge with --partial for the estimate so far", shards_text(.shards))]
    Missing {
        /// The trials missing.
        games: String,
        /// The rollout's trials.
        total: u64,
        /// The shards (of the count most shards were made with) that miss
        /// trials, whole or in part.
        shards: Vec<Shard>,
    },
    /// The candidate moves are not moves of the position and roll.
    #[error("its moves are not moves of {position} and {dice}")]
    Moves {
        /// The shard.
        shard: usize,
        /// The position.
        position: String,
        /// The roll.
        dice: String,
    },
}

fn shards_text(shards: &[Shard]) -> String {
    if shards.is_empty() {
        return String::new();
    }
    let names: Vec<String> = shards.iter().map(Shard::to_string).collect();
    format!(" (shard{} {})", if names.len() == 1 { "" } else { "s" }, names.join(", "))
}

impl MergeError {
    /// The index of the shard the error is about, if one.
    pub fn shard(&self) -> Option<usize> {
        match self {
            MergeError::Different { shard, .. }
            | MergeError::Duplicate { shard, .. }
            | MergeError::Moves { shard, .. } => Some(*shard),
            MergeError::Empty | MergeError::Missing { .. } => None,
        }
    }
}

/// What a merge found besides the report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeSummary {
    /// Shards merged.
    pub shards: usize,
    /// The trials no shard held (empty: complete).
    pub missing: Vec<Range<u64>>,
    /// The shards that miss them, whole or in part, counted in the shard
    /// count most of the shards were made with.
    pub missing_shards: Vec<Shard>,
}

impl<E: Evaluator> Engine<E> {
    /// Plays shard `shard` of the rollout of `position` (before the roll,
    /// or with `dice` its candidate moves), continuing `resume` (a saved
    /// shard of the same rollout) if given, in the current rayon pool:
    /// `checkpoint` is called after each chunk of trials with the shard so
    /// far (to save it), `progress` with where it stands. `fingerprint`
    /// names the evaluator's weights in the shard, so that a merge refuses
    /// shards of other nets.
    ///
    /// # Errors
    /// As [`Engine::rollout`]; [`EngineError::Rollout`] for a target
    /// standard error (a shard cannot see the others' trials) or a `resume`
    /// of another rollout or shard.
    #[allow(clippy::too_many_arguments)]
    pub fn rollout_shard(
        &self,
        position: &Position,
        dice: Option<Dice>,
        settings: &RolloutSettings,
        shard: Shard,
        fingerprint: u64,
        resume: Option<RolloutShard>,
        progress: impl Fn(&RolloutProgress) + Sync,
        checkpoint: impl Fn(&RolloutShard) + Sync,
        stop: &AtomicBool,
    ) -> Result<RolloutShard, EngineError> {
        use crate::rollout::RolloutError;
        if settings.target_se.is_some() && shard != Shard::ALL {
            return Err(RolloutError::ShardTarget.into());
        }
        let evaluator = self.search.evaluator();
        let candidates = match dice {
            Some(d) => rollout_candidates(evaluator, position, d, settings)?,
            None => Vec::new(),
        };
        let job = RolloutJob {
            position: position.to_position_id(),
            dice: dice.map(|d| d.to_string()),
            settings: *settings,
            evaluator: self.name(),
            fingerprint,
            legal_moves: dice.map(|d| position.legal_moves(d).len()),
            candidates: candidates.iter().map(|c| (c.result.to_position_id(), c.static_equity)).collect(),
        };
        let (tally, before) = match resume {
            Some(r) if r.job == job && r.shard == shard => (Some(r.tally), r.seconds),
            Some(_) => return Err(RolloutError::Resume.into()),
            None => (None, 0.0),
        };
        let start = Instant::now();
        let threads = rayon::current_num_threads();
        let make = |tally: RolloutTally| RolloutShard {
            job: job.clone(),
            shard,
            tally,
            seconds: before + start.elapsed().as_secs_f64(),
            threads,
        };
        let save = |t: &RolloutTally| checkpoint(&make(t.clone()));
        let controls = Controls { progress: &progress, checkpoint: &save, stop };
        let starts = match dice {
            Some(_) => Starts::Moves(&candidates),
            None => Starts::Position(position),
        };
        let range = shard.trials(settings.trials);
        if range.is_empty() {
            // More shards than trials: this one has none to play.
            return Ok(make(tally.unwrap_or_else(|| RolloutTally::empty(candidates.len().max(1)))));
        }
        let money = (&TrialCube::Money, Met::kazaross_xg2());
        let run = rollout_trials(evaluator, starts, money, settings, range, tally, &controls)?;
        Ok(make(run.tally))
    }
}

/// Merges rollout shards into the report one run of the whole rollout
/// gives: the same results to the last bit (the sums are exact). The
/// report's costs are the shards' together: `elapsed` is the sum of their
/// wall times, `threads` the sum of their threads. With `partial`, trials
/// missing from every shard are allowed: the report is that of the trials
/// held, marked interrupted, and the summary names what is missing.
///
/// # Errors
/// [`MergeError`]: shards of different rollouts, the same trials twice,
/// missing trials (without `partial`), moves that do not belong to the
/// position.
pub fn merge_rollout_shards(
    shards: &[RolloutShard],
    partial: bool,
) -> Result<(RolloutReport, MergeSummary), MergeError> {
    let first = shards.first().ok_or(MergeError::Empty)?;
    let job = &first.job;
    let mut tally = first.tally.clone();
    let mut holder: Vec<(TrialSet, usize)> = vec![(first.tally.trials().clone(), 0)];
    for (i, s) in shards.iter().enumerate().skip(1) {
        same_rollout(i, &s.job, job)?;
        if let Err(e) = tally.merge(&s.tally) {
            return Err(match e {
                TallyError::Overlap(r) => {
                    let probe = TrialSet::of(r.clone());
                    let other = holder.iter().find(|(t, _)| t.overlap(&probe).is_some()).map_or(0, |h| h.1);
                    MergeError::Duplicate { shard: i, other, games: TrialSet::of(r).to_string() }
                }
                TallyError::Starts(..) | TallyError::Inconsistent(_) => {
                    MergeError::Different { shard: i, what: "moves", this: String::new(), first: String::new() }
                }
            });
        }
        holder.push((s.tally.trials().clone(), i));
    }
    let total = job.settings.trials;
    let missing = tally.trials().missing(total);
    let count = common_count(shards);
    let missing_shards: Vec<Shard> = (0..count)
        .filter_map(|k| Shard::new(k, count))
        .filter(|s| {
            let r = s.trials(total);
            !r.is_empty() && missing.iter().any(|m| m.start < r.end && r.start < m.end)
        })
        .collect();
    if !missing.is_empty() && !partial {
        let games = TrialSet::from_ranges(missing.iter().cloned()).to_string();
        return Err(MergeError::Missing { games, total, shards: missing_shards });
    }
    let position = Position::from_position_id(&job.position).map_err(|_| MergeError::Moves {
        shard: 0,
        position: job.position.clone(),
        dice: String::new(),
    })?;
    let dice: Option<Dice> = match &job.dice {
        Some(d) => Some(d.parse().map_err(|_| MergeError::Moves {
            shard: 0,
            position: job.position.clone(),
            dice: d.clone(),
        })?),
        None => None,
    };
    let run = TrialsRun { tally, target_reached: false, interrupted: !missing.is_empty() };
    let outcome = match dice {
        None => RolloutOutcome::Position(Box::new(position_result(&run, job.settings.cubeful))),
        Some(d) => {
            let candidates = candidates_of(&position, d, &job.candidates).ok_or_else(|| MergeError::Moves {
                shard: 0,
                position: job.position.clone(),
                dice: d.to_string(),
            })?;
            RolloutOutcome::Moves(move_results(&candidates, &run, job.settings.cubeful))
        }
    };
    let report = RolloutReport {
        position,
        dice,
        settings: job.settings,
        threads: shards.iter().map(|s| s.threads).sum(),
        elapsed: Duration::from_secs_f64(shards.iter().map(|s| s.seconds.max(0.0)).sum::<f64>().min(1e12)),
        legal_moves: job.legal_moves,
        outcome,
        match_units: None,
    };
    Ok((report, MergeSummary { shards: shards.len(), missing, missing_shards }))
}

/// Checks that shard `i`'s rollout is `first`'s, naming the first difference.
fn same_rollout(i: usize, this: &RolloutJob, first: &RolloutJob) -> Result<(), MergeError> {
    let differ = |what: &'static str, a: String, b: String| {
        if a == b {
            Ok(())
        } else {
            Err(MergeError::Different { shard: i, what, this: a, first: b })
        }
    };
    let (s, f) = (&this.settings, &first.settings);
    // Every setting is compared below: a field added to the settings stops
    // the build here until it is.
    let RolloutSettings {
        trials: _,
        seed: _,
        truncate: _,
        variance_reduction: _,
        quasi_random: _,
        cubeful: _,
        target_se: _,
        ply: _,
        bearoff_exact: _,
        candidates: _,
    } = s;
    // Each difference in words, never as Rust's debug text.
    let or_none = |x: Option<String>| x.unwrap_or_else(|| "none".to_string());
    let on_off = |b: bool| if b { "on" } else { "off" }.to_string();
    differ("position", this.position.clone(), first.position.clone())?;
    differ("roll", or_none(this.dice.clone()), or_none(first.dice.clone()))?;
    differ("seed", s.seed.to_string(), f.seed.to_string())?;
    differ("number of games", s.trials.to_string(), f.trials.to_string())?;
    differ(
        "net",
        format!("{} {:016x}", this.evaluator, this.fingerprint),
        format!("{} {:016x}", first.evaluator, first.fingerprint),
    )?;
    let truncation = |t: Option<u32>| t.map_or("none (to the end)".to_string(), |t| format!("{t} half-moves"));
    differ("truncation", truncation(s.truncate), truncation(f.truncate))?;
    differ("variance reduction", on_off(s.variance_reduction), on_off(f.variance_reduction))?;
    differ("quasi-random dice", on_off(s.quasi_random), on_off(f.quasi_random))?;
    differ("cubeful play", on_off(s.cubeful), on_off(f.cubeful))?;
    differ(
        "target standard error",
        or_none(s.target_se.map(|x| x.to_string())),
        or_none(f.target_se.map(|x| x.to_string())),
    )?;
    differ("ply", s.ply.to_string(), f.ply.to_string())?;
    differ("exact bearoffs", on_off(s.bearoff_exact), on_off(f.bearoff_exact))?;
    differ(
        "moves rolled out",
        or_none(s.candidates.map(|x| x.to_string())),
        or_none(f.candidates.map(|x| x.to_string())),
    )?;
    let moves = |c: &[(String, f64)]| c.iter().map(|(m, _)| m.as_str()).collect::<Vec<_>>().join(", ");
    differ("candidate moves", moves(&this.candidates), moves(&first.candidates))?;
    differ(
        "number of legal moves",
        or_none(this.legal_moves.map(|n| n.to_string())),
        or_none(first.legal_moves.map(|n| n.to_string())),
    )
}

/// The shard count most shards share (the smallest on ties).
fn common_count(shards: &[RolloutShard]) -> u32 {
    let mut counts: Vec<u32> = shards.iter().map(|s| s.shard.count).collect();
    counts.sort_unstable();
    let mut best = (0, counts[0]);
    let mut i = 0;
    while i < counts.len() {
        let j = counts[i..].iter().take_while(|&&c| c == counts[i]).count();
        if j > best.0 {
            best = (j, counts[i]);
        }
        i += j;
    }
    best.1
}

/// The candidates named by their results: each a legal move of `position`
/// and `dice` (the pass when there is none).
fn candidates_of(position: &Position, dice: Dice, named: &[(String, f64)]) -> Option<Vec<Candidate>> {
    let list = position.legal_moves(dice);
    named
        .iter()
        .map(|(id, static_equity)| {
            let result = Position::from_position_id(id).ok()?;
            let mv = if list.is_empty() {
                (result == position.switched()).then_some(Move::NONE)?
            } else {
                list.iter().find(|(_, r)| *r == result)?.0
            };
            Some(Candidate { mv, result, static_equity: *static_equity })
        })
        .collect()
}

#[cfg(test)]
mod tests;
