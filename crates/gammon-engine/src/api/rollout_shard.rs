//! A rollout in shards: one shard's trials, saved with everything a merge
//! must check ([`RolloutShard`], the file kind `GAMMONRS`), and the merge of
//! any set of shards into the report one run with the same settings gives
//! ([`merge_rollout_shards`]).

use super::cube_rollout::cube_rollout_report;
use super::{
    check_rollout, CubeQuestion, CubeRolloutReport, Engine, EngineError, MatchUnits, Request, RolloutOutcome,
    RolloutReport,
};
use crate::cube::CubeState;
use crate::met::Met;
use crate::rollout::{
    cube_lines, move_results, position_result, rollout_candidates, rollout_trials, Candidate, Controls,
    RolloutProgress, RolloutSettings, RolloutTally, Starts, TallyError, TrialCube, TrialSet, TrialsRun,
};
use crate::shard::Shard;
use gammon_eval::file_format::{self, FileError, FileKind};
use gammon_eval::Evaluator;
use gammon_rules::{Dice, Move, Position, Xgid};
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use thiserror::Error;

/// The version of the rollout shard file format: 2 added match and
/// cube-decision rollouts ([`RolloutJob::context`],
/// [`RolloutJob::cube_decision`]); version 1 files are read as the money
/// rollouts they are.
pub const SHARD_VERSION: u32 = 2;
const SHARD_VERSION_1: u32 = 1;
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
    /// A rollout with the cube in a context (a match at its score, or a
    /// cube decision): the position in it, as an XGID. `None`: money play,
    /// cubeless or with a cube centred at 1.
    pub context: Option<String>,
    /// The cube decision of the player on roll was rolled out (two lines:
    /// no double, double/take).
    pub cube_decision: bool,
    /// A match: the name of the match equity table it was rolled out with,
    /// which a merge must be given too.
    pub met: Option<String>,
}

/// The formats of version 1, read into version 2's.
mod v1 {
    use super::{RolloutSettings, RolloutTally, Shard};
    use serde::Deserialize;

    #[derive(Deserialize)]
    pub(super) struct RolloutJob {
        position: String,
        dice: Option<String>,
        settings: RolloutSettings,
        evaluator: String,
        fingerprint: u64,
        legal_moves: Option<usize>,
        candidates: Vec<(String, f64)>,
    }

    #[derive(Deserialize)]
    pub(super) struct RolloutShard {
        job: RolloutJob,
        shard: Shard,
        tally: RolloutTally,
        seconds: f64,
        threads: usize,
    }

    impl From<RolloutShard> for super::RolloutShard {
        fn from(s: RolloutShard) -> Self {
            let j = s.job;
            let job = super::RolloutJob {
                position: j.position,
                dice: j.dice,
                settings: j.settings,
                evaluator: j.evaluator,
                fingerprint: j.fingerprint,
                legal_moves: j.legal_moves,
                candidates: j.candidates,
                context: None,
                cube_decision: false,
                met: None,
            };
            super::RolloutShard { job, shard: s.shard, tally: s.tally, seconds: s.seconds, threads: s.threads }
        }
    }
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
        let kind = FileKind::RolloutShard;
        let s: RolloutShard = match file_format::read_file(path, kind, SHARD_VERSION, MAX_SHARD_BYTES) {
            Err(FileError::InFile { problem, .. })
                if matches!(*problem, FileError::Version { found: SHARD_VERSION_1, .. }) =>
            {
                file_format::read_file::<v1::RolloutShard>(path, kind, SHARD_VERSION_1, MAX_SHARD_BYTES)?.into()
            }
            r => r?,
        };
        let starts = if s.job.cube_decision { 2 } else { s.job.candidates.len().max(1) };
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
    /// A match rolled out with another match equity table than the merge's.
    #[error("the shards were rolled out with the match equity table \"{rolled_out}\", not \"{given}\": merge them with that table (--met)")]
    Table {
        /// The shards' table.
        rolled_out: String,
        /// The table given to the merge.
        given: String,
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
            MergeError::Empty | MergeError::Missing { .. } | MergeError::Table { .. } => None,
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
    /// Plays shard `shard` of the rollout of the request's position (before
    /// the roll, with its dice its candidate moves, or with `cube_decision`
    /// the cube decision of the player on roll; a match at its score),
    /// continuing `resume` (a saved shard of the same rollout) if given, in
    /// the current rayon pool: `checkpoint` is called after each chunk of
    /// trials with the shard so far (to save it), `progress` with where it
    /// stands. `fingerprint` names the evaluator's weights in the shard, so
    /// that a merge refuses shards of other nets.
    ///
    /// # Errors
    /// As [`Engine::rollout`] and [`Engine::cube_rollout`];
    /// [`EngineError::Rollout`] for a target standard error (a shard cannot
    /// see the others' trials) or a `resume` of another rollout or shard.
    #[allow(clippy::too_many_arguments)]
    pub fn rollout_shard(
        &self,
        (request, cube_decision): (&Request, bool),
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
        let Plan { job, cube, candidates } = self.plan((request, cube_decision), settings, fingerprint)?;
        let (position, settings) = (&request.position, job.settings);
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
        let starts = if cube_decision {
            Starts::CubeDecision(position)
        } else if job.dice.is_some() {
            Starts::Moves(&candidates)
        } else {
            Starts::Position(position)
        };
        let lines = if cube_decision { 2 } else { candidates.len().max(1) };
        let range = shard.trials(settings.trials);
        if range.is_empty() {
            // More shards than trials: this one has none to play.
            return Ok(make(tally.unwrap_or_else(|| RolloutTally::empty(lines))));
        }
        let evaluator = self.search.evaluator();
        let run = rollout_trials(evaluator, starts, (&cube, self.met()), &settings, range, tally, &controls)?;
        Ok(make(run.tally))
    }

    /// The rollout a shard of `(request, cube_decision)` with `settings`
    /// belongs to, as its file names it: what a saved shard is compared
    /// with before it is resumed.
    ///
    /// # Errors
    /// As [`rollout_shard`](Self::rollout_shard), before any game.
    pub fn rollout_job(
        &self,
        question: (&Request, bool),
        settings: &RolloutSettings,
        fingerprint: u64,
    ) -> Result<RolloutJob, EngineError> {
        Ok(self.plan(question, settings, fingerprint)?.job)
    }

    /// The job of a sharded rollout, the cube its trials play and its
    /// candidate moves.
    fn plan(
        &self,
        (request, cube_decision): (&Request, bool),
        settings: &RolloutSettings,
        fingerprint: u64,
    ) -> Result<Plan, EngineError> {
        let (position, dice) = (&request.position, if cube_decision { None } else { request.dice });
        let (cube, settings) = if cube_decision {
            let state = *self.check_cube_rollout(request, settings)?.state();
            (TrialCube::Cube(state), RolloutSettings { cubeful: true, candidates: None, ..*settings })
        } else {
            check_rollout(request, settings)?;
            (trial_cube(request, self.met())?, *settings)
        };
        let candidates = match dice {
            Some(d) => rollout_candidates(self.search.evaluator(), position, d, &settings)?,
            None => Vec::new(),
        };
        let job = RolloutJob {
            position: position.to_position_id(),
            dice: dice.map(|d| d.to_string()),
            settings,
            evaluator: self.name(),
            fingerprint,
            legal_moves: dice.map(|d| position.legal_moves(d).len()),
            candidates: candidates.iter().map(|c| (c.result.to_position_id(), c.static_equity)).collect(),
            context: match cube {
                TrialCube::Money => None,
                TrialCube::Cube(_) => Some(Xgid { position: *position, context: request.context }.to_string()),
            },
            cube_decision,
            met: match cube {
                TrialCube::Cube(state) if !state.is_money() => Some(self.met().name().to_string()),
                _ => None,
            },
        };
        Ok(Plan { job, cube, candidates })
    }
}

/// What a shard plays: its job, the cube of its trials and its candidates.
struct Plan {
    job: RolloutJob,
    cube: TrialCube,
    candidates: Vec<Candidate>,
}

/// The cube of a rollout of the request (not of a cube decision): money
/// play as it always was (cubeless, or a cube centred at 1), a match at its
/// score.
///
/// # Errors
/// [`EngineError::Cube`] for a match context that breaks the rules or that
/// `met` does not cover.
pub(crate) fn trial_cube(request: &Request, met: &Met) -> Result<TrialCube, EngineError> {
    if request.context.is_money() {
        return Ok(TrialCube::Money);
    }
    Ok(TrialCube::Cube(CubeState::from_context(&request.context, met)?))
}

/// A merged rollout: of a position or moves, or of a cube decision.
#[derive(Debug, Clone, PartialEq)]
pub enum MergedRollout {
    /// What [`Engine::rollout`] answers.
    Rollout(Box<RolloutReport>),
    /// What [`Engine::cube_rollout`] answers.
    CubeDecision(Box<CubeRolloutReport>),
}

impl MergedRollout {
    /// Games played (per move or line).
    pub fn trials(&self) -> u64 {
        match self {
            MergedRollout::Rollout(r) => r.trials(),
            MergedRollout::CubeDecision(c) => c.games,
        }
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
    met: &Met,
) -> Result<(MergedRollout, MergeSummary), MergeError> {
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
    let threads = shards.iter().map(|s| s.threads).sum();
    let elapsed = Duration::from_secs_f64(shards.iter().map(|s| s.seconds.max(0.0)).sum::<f64>().min(1e12));
    let summary = MergeSummary { shards: shards.len(), missing, missing_shards };
    let bad_context = || MergeError::Different {
        shard: 0,
        what: "context",
        this: job.context.clone().unwrap_or_default(),
        first: String::new(),
    };
    if let Some(name) = job.met.as_deref().filter(|&name| name != met.name()) {
        return Err(MergeError::Table { rolled_out: name.to_string(), given: met.name().to_string() });
    }
    let context = match &job.context {
        Some(text) => Some(Xgid::parse(text).map_err(|_| bad_context())?.context),
        None => None,
    };
    if job.cube_decision {
        let context = context.ok_or_else(bad_context)?;
        let question = CubeQuestion::new(position, context, met).map_err(|_| bad_context())?;
        let lines = cube_lines(&run).map_err(|_| bad_context())?;
        let report = cube_rollout_report(&question, &lines, &job.settings, met, (threads, elapsed));
        return Ok((MergedRollout::CubeDecision(Box::new(report)), summary));
    }
    let (cube, match_units) = match context {
        Some(c) => {
            let state = CubeState::from_context(&c, met).map_err(|_| bad_context())?;
            (TrialCube::Cube(state), MatchUnits::new(&c, &state, met))
        }
        None => (TrialCube::Money, None),
    };
    let cubeful = cube.headline_cubeful(&job.settings);
    let outcome = match dice {
        None => RolloutOutcome::Position(Box::new(position_result(&run, cubeful))),
        Some(d) => {
            let candidates = candidates_of(&position, d, &job.candidates).ok_or_else(|| MergeError::Moves {
                shard: 0,
                position: job.position.clone(),
                dice: d.to_string(),
            })?;
            RolloutOutcome::Moves(move_results(&candidates, &run, cubeful))
        }
    };
    let report = RolloutReport {
        position,
        dice,
        settings: job.settings,
        threads,
        elapsed,
        legal_moves: job.legal_moves,
        outcome,
        match_units,
    };
    Ok((MergedRollout::Rollout(Box::new(report)), summary))
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
    differ("context", or_none(this.context.clone()), or_none(first.context.clone()))?;
    differ("cube decision", on_off(this.cube_decision), on_off(first.cube_decision))?;
    differ("match equity table", or_none(this.met.clone()), or_none(first.met.clone()))?;
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
