//! The engine's use cases: each takes a [`Request`] and its options, refuses
//! what it cannot answer (a depth beyond [`MAX_PLY`], a finished game, a
//! context the match equity table does not cover), runs the search the use
//! case needs and returns a typed answer. The command line, the server and
//! the Python package only read requests and print answers: what `gammon
//! analyse` searches is what `/api/analyse` searches.

use super::rollout_shard::trial_cube;
use super::{CubeQuestion, MatchUnits, RolloutOutcome, RolloutReport};
use super::{CubeReport, CubefulRollAnalysis, Engine, EngineError, Evaluation, Request, RollAnalysis, MAX_PLY};
use crate::review::{review_match_until, MatchReview, ReviewError, ReviewSettings};
use crate::rollout::{rollout_moves_with, rollout_position_with, RolloutProgress, RolloutSettings, TrialCube};
use crate::search::MoveFilter;
use gammon_eval::Evaluator;
use gammon_rules::{CubeOwner, MatchRecord};
use serde::Serialize;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How `gammon eval` and `/api/eval` value a position: the static
/// evaluation unless a depth is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EvalOptions {
    /// The depth, counted as gnubg counts plies (0 = static).
    pub ply: u8,
}

/// How `gammon analyse` and `/api/analyse` analyse: 2 plies, cubeful, the
/// lookahead's moves screened by pubeval.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnalyseOptions {
    /// The depth, counted as gnubg counts plies.
    pub ply: u8,
    /// Rank the moves by cubeless money equity, ignoring the cube and the
    /// score.
    pub cubeless: bool,
    /// With dice: inside the lookahead the net values only the best `prune`
    /// moves of each roll by pubeval, as gnubg's default hint screens them
    /// with its pruning nets ([`MoveFilter::prune`]; 0: every move). The
    /// evaluation and cube decision before the roll are not screened.
    pub prune: usize,
}

impl Default for AnalyseOptions {
    fn default() -> Self {
        AnalyseOptions { ply: 2, cubeless: false, prune: MoveFilter::ANALYSIS_PRUNE }
    }
}

/// How `gammon cube` and `/api/cube` decide: gnubg's standard 2-ply cube
/// analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CubeOptions {
    /// The depth of the cubeful search (0 = the static evaluation fed to
    /// Janowski's model).
    pub ply: u8,
}

impl Default for CubeOptions {
    fn default() -> Self {
        CubeOptions { ply: 2 }
    }
}

/// The answer of [`Engine::analyse`]: the ranked moves of a roll, or the
/// position before the roll.
// One answer per request, moved once: boxing the large variant would only
// add an allocation.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Analysis {
    /// With dice and [`cubeless`](AnalyseOptions::cubeless): the moves
    /// ranked by cubeless money equity.
    Cubeless(RollAnalysis),
    /// With dice: the moves ranked by cubeful equity in the request's
    /// context, and notes on that context (callers add theirs).
    Cubeful {
        /// The ranked moves.
        analysis: CubefulRollAnalysis,
        /// What of the request the context kept, for people.
        notes: Vec<String>,
    },
    /// Without dice: the evaluation before the roll and the cube decision at
    /// the same depth, or why there is none (a finished game, a score the
    /// match equity table does not cover), as one line.
    Position {
        /// The value before the roll.
        evaluation: Evaluation,
        /// The cube decision of the player on roll, or why there is none.
        cube: Result<CubeReport, String>,
    },
}

impl Analysis {
    /// Adds notes on the request's context where the answer keeps them:
    /// beside cubeful moves, or in the cube decision.
    pub fn add_notes(&mut self, more: impl IntoIterator<Item = String>) {
        match self {
            Analysis::Cubeless(_) => {}
            Analysis::Cubeful { notes, .. } => notes.extend(more),
            Analysis::Position { cube, .. } => {
                if let Ok(report) = cube {
                    report.notes.extend(more);
                }
            }
        }
    }
}

/// The JSON `gammon analyse --json` prints.
impl Serialize for Analysis {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use super::json::{CubefulAnalysisJson, PositionAnalysisJson};
        match self {
            Analysis::Cubeless(analysis) => analysis.serialize(serializer),
            Analysis::Cubeful { analysis, notes } => CubefulAnalysisJson::new(analysis, notes).serialize(serializer),
            Analysis::Position { evaluation, cube } => {
                PositionAnalysisJson::new(evaluation, cube).serialize(serializer)
            }
        }
    }
}

/// Refuses a depth beyond [`MAX_PLY`].
pub(super) fn check_depth(ply: u8) -> Result<(), EngineError> {
    if ply > MAX_PLY {
        return Err(EngineError::TooDeep { ply, max: MAX_PLY });
    }
    Ok(())
}

/// How `gammon rollout` rolls out, as its options say it (their defaults
/// are the command's): [`RolloutOptions::settings`] resolves them for a
/// request.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RolloutOptions {
    /// The most games to play.
    pub games: u64,
    /// The rollout players' chequer play, 0 to 2 plies.
    pub ply: u8,
    /// Stop each game after this many half-moves.
    pub truncate: Option<u32>,
    /// Money play: also play a money cube.
    pub cubeful: bool,
    /// A match position: cubeless match winning chances instead of the
    /// cubeful match rollout.
    pub cubeless: bool,
    /// The dice seed.
    pub seed: u64,
    /// Stop once the standard error is at most this (after whole blocks).
    pub target_se: Option<f64>,
    /// Luck adjustment.
    pub variance_reduction: bool,
    /// Stratified first two rolls.
    pub quasi_random: bool,
    /// Take the bearoff databases' values.
    pub bearoff_exact: bool,
    /// With dice: the best this many moves by the net's static judgement
    /// (0: every legal move).
    pub moves: usize,
    /// Roll out the cube decision (no double and double/take on the same
    /// dice) instead of the position or its moves.
    pub cube_decision: bool,
}

impl Default for RolloutOptions {
    /// 1,296 games at 0 ply, seed 1, luck adjustment, quasi-random dice,
    /// exact bearoffs, the best 8 moves; money cubeless, a match cubeful.
    fn default() -> Self {
        RolloutOptions {
            games: crate::rollout::BATCH,
            ply: 0,
            truncate: None,
            cubeful: false,
            cubeless: false,
            seed: 1,
            target_se: None,
            variance_reduction: true,
            quasi_random: true,
            bearoff_exact: true,
            moves: 8,
            cube_decision: false,
        }
    }
}

/// Rollout choices that do not go together (the CLI's parser refuses the
/// same pairs of options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum RolloutChoiceError {
    /// Money play with and without the cube at once.
    #[error("--cubeful cannot be used with --cubeless")]
    CubefulAndCubeless,
    /// A cube decision with dice or a choice of cube.
    #[error(
        "--cube-decision cannot be used with --dice, --cubeful or --cubeless: it rolls out the position before the roll, cubeful"
    )]
    CubeDecisionWith,
}

impl RolloutOptions {
    /// Refuses choices that contradict each other, or `request`'s dice with
    /// a cube decision.
    ///
    /// # Errors
    /// [`RolloutChoiceError`].
    pub fn check_choices(&self, request: &Request) -> Result<(), RolloutChoiceError> {
        if self.cubeful && self.cubeless {
            return Err(RolloutChoiceError::CubefulAndCubeless);
        }
        if self.cube_decision && (request.dice.is_some() || self.cubeful || self.cubeless) {
            return Err(RolloutChoiceError::CubeDecisionWith);
        }
        Ok(())
    }

    /// The settings of a rollout of `request`: money play is cubeless unless
    /// [`cubeful`](Self::cubeful), a match position cubeful at its score
    /// unless [`cubeless`](Self::cubeless).
    pub fn settings(&self, request: &Request) -> RolloutSettings {
        RolloutSettings {
            trials: self.games,
            seed: self.seed,
            truncate: self.truncate,
            variance_reduction: self.variance_reduction,
            quasi_random: self.quasi_random,
            cubeful: if request.context.is_money() { self.cubeful } else { !self.cubeless },
            target_se: self.target_se,
            ply: self.ply,
            bearoff_exact: self.bearoff_exact,
            candidates: (self.moves != 0).then_some(self.moves),
        }
    }
}

/// Checks a rollout before it starts (or is queued): its settings, and with
/// dice a game that is still on.
///
/// # Errors
/// [`EngineError::Rollout`] naming the setting, [`EngineError::GameOver`].
pub fn check_rollout(request: &Request, settings: &RolloutSettings) -> Result<(), EngineError> {
    settings.check()?;
    if request.dice.is_some() && request.game_over() {
        return Err(EngineError::GameOver);
    }
    Ok(())
}

impl<E: Evaluator> Engine<E> {
    /// The value of the request's position before the roll.
    ///
    /// # Errors
    /// [`EngineError::TooDeep`].
    pub fn eval(&self, request: &Request, options: &EvalOptions) -> Result<Evaluation, EngineError> {
        check_depth(options.ply)?;
        Ok(self.evaluate(&request.position, options.ply))
    }

    /// With dice, the moves of the roll ranked by cubeful equity in the
    /// request's context (or cubeless money equity), through gnubg's move
    /// filter and the pubeval screen of [`AnalyseOptions::prune`]; without,
    /// the evaluation before the roll and the cube decision, unscreened.
    ///
    /// # Errors
    /// [`EngineError::TooDeep`]; with dice [`EngineError::GameOver`] for a
    /// finished game and [`EngineError::Cube`] for a context the cubeful
    /// ranking cannot use.
    pub fn analyse(&self, request: &Request, options: &AnalyseOptions) -> Result<Analysis, EngineError> {
        check_depth(options.ply)?;
        let Some(dice) = request.dice else {
            let evaluation = self.evaluate(&request.position, options.ply);
            let cube = self.decide_cube(&request.position, &request.context, options.ply).map_err(|e| match e {
                EngineError::GameOver => "the game is over: there is no cube decision".to_string(),
                e => super::error_chain(&e),
            });
            return Ok(Analysis::Position { evaluation, cube });
        };
        let moves = self.screened(options.prune);
        if options.cubeless {
            return Ok(Analysis::Cubeless(moves.analyse_roll(&request.position, dice, options.ply)?));
        }
        let analysis = moves.analyse_roll_in_context(&request.position, dice, &request.context, options.ply)?;
        Ok(Analysis::Cubeful { analysis, notes: Vec::new() })
    }

    /// The cube decision of the player on roll, before the roll.
    ///
    /// # Errors
    /// [`EngineError::TooDeep`], [`EngineError::GameOver`],
    /// [`EngineError::Cube`] for a context that breaks the rules or that the
    /// match equity table does not cover, and
    /// [`EngineError::OpponentOwnsCube`] (with the value of playing on) when
    /// the player on roll cannot double.
    pub fn cube(&self, request: &Request, options: &CubeOptions) -> Result<CubeReport, EngineError> {
        check_depth(options.ply)?;
        let question = CubeQuestion::new(request.position, request.context, self.met())?;
        let report = self.decide(&question, options.ply)?;
        if report.context.cube_owner == CubeOwner::Opponent {
            return Err(EngineError::OpponentOwnsCube {
                cube_value: report.context.cube_value,
                playing_on: report.analysis.no_double,
                mwc: report.analysis.match_chances.map(|m| m.no_double),
            });
        }
        Ok(report)
    }

    /// Rolls out the request's position before the roll or, with dice, the
    /// candidate moves of that roll ([`rollout_position_with`],
    /// [`rollout_moves_with`]) in the current rayon pool; `progress` is
    /// called after each chunk of trials, and once `stop` is set (a Ctrl-C
    /// handler's flag) no new trial starts: the report then holds the
    /// trials finished in order and says it is partial
    /// ([`RolloutReport::interrupted`]).
    ///
    /// # Errors
    /// As [`check_rollout`]; [`EngineError::Rollout`] for a position the
    /// rollout rejects, or with
    /// [`RolloutError::Interrupted`](crate::rollout::RolloutError::Interrupted)
    /// if no trial finished.
    pub fn rollout(
        &self,
        request: &Request,
        settings: &RolloutSettings,
        progress: impl Fn(&RolloutProgress) + Sync,
        stop: &AtomicBool,
    ) -> Result<RolloutReport, EngineError> {
        check_rollout(request, settings)?;
        let (position, dice) = (&request.position, request.dice);
        let cube = trial_cube(request, self.met())?;
        let match_units = match &cube {
            TrialCube::Cube(state) => MatchUnits::new(&request.context, state, self.met()),
            TrialCube::Money => None,
        };
        let stakes = (&cube, self.met());
        let evaluator = self.evaluator();
        let start = Instant::now();
        let outcome = match dice {
            None => RolloutOutcome::Position(Box::new(rollout_position_with(
                evaluator, position, stakes, settings, progress, stop,
            )?)),
            Some(d) => {
                RolloutOutcome::Moves(rollout_moves_with(evaluator, position, d, stakes, settings, progress, stop)?)
            }
        };
        let elapsed = start.elapsed();
        Ok(RolloutReport {
            position: *position,
            dice,
            settings: *settings,
            threads: rayon::current_num_threads(),
            elapsed,
            legal_moves: dice.map(|d| position.legal_moves(d).len()),
            outcome,
            match_units,
        })
    }

    /// Reviews every move and cube decision of a match
    /// ([`review_match_until`]): `progress(done, total)` after each record,
    /// and once `stop` is set the review of the records finished.
    ///
    /// # Errors
    /// As [`review_match_until`].
    pub fn review(
        &self,
        record: &MatchRecord,
        settings: &ReviewSettings,
        progress: impl Fn(usize, usize) + Sync,
        stop: &AtomicBool,
    ) -> Result<MatchReview, ReviewError> {
        review_match_until(self, record, settings, progress, stop)
    }
}
