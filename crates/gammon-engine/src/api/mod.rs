//! One entry point for what the engine answers, for the command line, match
//! review and servers: rank the moves of a roll, choose a move, evaluate a
//! position, decide the cube in a match context, roll out. Each answer is a
//! typed result that callers only present; its [`Serialize`](serde::Serialize)
//! form is the JSON that `gammon … --json` prints for it ([`json`]).
//!
//! Depths are counted as gnubg counts them, as [`Search`] does: 0 plies is
//! the static evaluation, 1 ply looks at every roll of the side on roll, and
//! so on.
//!
//! ```
//! use gammon_engine::api::Engine;
//! use gammon_eval::NetEvaluator;
//! use gammon_rules::{Dice, GameContext, Position};
//! let engine = Engine::new(NetEvaluator::shipped().unwrap());
//! let roll = engine.analyse_roll(&Position::STARTING, Dice::new(3, 1).unwrap(), 1).unwrap();
//! assert_eq!(Position::STARTING.format_move(&roll.moves[0].mv), "8/5 6/5");
//! let cube = engine.decide_cube(&Position::STARTING, &GameContext::money(), 0).unwrap();
//! assert!(!cube.analysis.action.doubles());
//! ```

mod analysis;
mod cube_decision;
mod cube_matrix;
mod cube_player;
mod cube_rollout;
mod cubeful_analysis;
mod error;
pub mod json;
mod moves;
mod net;
mod overrides;
pub mod play;
mod refusal;
mod request;
mod resign;
mod rollout_report;
mod rollout_shard;
#[cfg(test)]
mod tests;
mod use_cases;

/// The deepest search the engine's analyses answer at (moves, evaluations,
/// cube decisions), counted as gnubg counts plies: every front end's `ply`
/// limit (the CLI's `--ply`, the server's `ply`). Deeper searches cost about
/// twenty times more per ply and are the rollouts' job.
pub const MAX_PLY: u8 = 3;

/// The most worker threads any front end starts (the CLI's `--threads`,
/// the Python package's `threads`): more only thrash the machine.
pub const MAX_THREADS: usize = 1024;

pub use analysis::{Evaluation, RollAnalysis};
pub use cube_decision::{pending_answer, CubeQuestion, CubeReport, PendingAnswer};
pub use cube_matrix::{CubeMatrix, MatrixError};
pub use cube_player::CubePlayer;
pub use cube_rollout::CubeRolloutReport;
pub use cubeful_analysis::{CubefulMove, CubefulRollAnalysis};
pub use error::{error_chain, EngineError};
pub use moves::{legal_moves, ChosenMove, LegalMove, LegalMoves};
pub use net::{load_net, LoadNetError, WeightsFileError};
pub use overrides::{parse_owner, parse_score, ContextOverrideError, ContextOverrides};
pub use refusal::{Asked, Refusal};
pub use request::{Request, RequestError};
pub use resign::{CubeUse, ResignationAnswer, ResignationUnit, RESIGNATION_TOLERANCE};
pub use rollout_report::{MatchUnits, RolloutOutcome, RolloutReport};
pub use rollout_shard::{
    merge_rollout_shards, MergeError, MergeSummary, MergedRollout, RolloutJob, RolloutShard, MAX_SHARD_BYTES,
    SHARD_VERSION,
};
pub use use_cases::{
    check_rollout, AnalyseOptions, Analysis, CubeOptions, EvalOptions, RolloutChoiceError, RolloutOptions,
};

use crate::cube::{analyse_state_nply, rank_results_cubeful, CubeState};
use crate::met::Met;
use crate::search::{Cache, MoveFilter, Search, SearchStats};
use gammon_eval::{Evaluator, PositionClass};
use gammon_rules::{Dice, GameContext, Move, MoveList, Position};
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

/// An evaluator inside a [`Search`], with the match equity table the cube
/// decisions use (Kazaross-XG2 unless set). `Sync`: share it between threads.
pub struct Engine<E: Evaluator> {
    search: Search<E>,
    /// The cache of move analysis's screened lookahead
    /// ([`MoveFilter::ANALYSIS_PRUNE`]), made at its first use and shared
    /// with this engine's [`stoppable`](Engine::stoppable) copies, so that
    /// a server's analyses reuse it.
    screened_cache: Arc<OnceLock<Option<Arc<Cache>>>>,
    met: Arc<Met>,
}

impl<E: Evaluator> fmt::Debug for Engine<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").field("search", &self.search).field("met", &self.met).finish()
    }
}

impl<E: Evaluator> Engine<E> {
    /// `evaluator` in a [`Search::new`] (gnubg's normal move filter, the
    /// default cache), with the Kazaross-XG2 table.
    pub fn new(evaluator: E) -> Self {
        Self::with_search(Search::new(evaluator))
    }

    /// An engine around a search set up by the caller.
    pub fn with_search(search: Search<E>) -> Self {
        Engine { search, screened_cache: Arc::default(), met: Arc::new(Met::kazaross_xg2().clone()) }
    }

    /// This engine (the same evaluator, search cache and table) for work
    /// that may be abandoned: once `stop` is set its searches stop at once
    /// and its answers are meaningless, to be thrown away
    /// ([`Search::stoppable`]). The server gives each request one, set when
    /// the client goes away.
    pub fn stoppable(&self, stop: Arc<AtomicBool>) -> Engine<&E> {
        Engine {
            search: self.search.stoppable(stop),
            screened_cache: Arc::clone(&self.screened_cache),
            met: Arc::clone(&self.met),
        }
    }

    /// This engine for move analysis: the same evaluator, table, counters
    /// and stop flag, its lookahead screening the moves of each roll with
    /// pubeval to the best `prune` for the evaluator ([`MoveFilter::prune`];
    /// 0: no screen). The root screens are this engine's. The analyses'
    /// screen ([`MoveFilter::ANALYSIS_PRUNE`]) keeps its cache from one
    /// call to the next; another screen starts with an empty one.
    pub(crate) fn screened(&self, prune: usize) -> Engine<&E> {
        let own = *self.search.filter();
        let filter = MoveFilter { prune, ..own };
        let search = if filter == own {
            self.search.alongside(filter, self.search.cache())
        } else if prune == MoveFilter::ANALYSIS_PRUNE {
            self.search.alongside(filter, self.screened_cache.get_or_init(|| self.search.new_cache()).clone())
        } else {
            self.search.alongside(filter, self.search.new_cache())
        };
        Engine { search, screened_cache: Arc::default(), met: Arc::clone(&self.met) }
    }

    /// Empties the search caches, the screened lookahead's too: what a
    /// benchmark of first requests does before each.
    pub fn clear_caches(&self) {
        self.search.clear_cache();
        if let Some(Some(cache)) = self.screened_cache.get() {
            cache.clear();
        }
    }

    /// The same engine with another match equity table.
    #[must_use]
    pub fn with_met(mut self, met: Met) -> Self {
        self.met = Arc::new(met);
        self
    }

    /// The search.
    pub fn search(&self) -> &Search<E> {
        &self.search
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        self.search.evaluator()
    }

    /// The match equity table.
    pub fn met(&self) -> &Met {
        &self.met
    }

    /// The evaluator's name.
    pub fn name(&self) -> String {
        self.search.evaluator().name()
    }

    /// The value of `position` for the player on roll, before rolling, at
    /// `plies`.
    pub fn evaluate(&self, position: &Position, plies: u8) -> Evaluation {
        Evaluation {
            position: *position,
            plies,
            evaluator: self.name(),
            class: PositionClass::of(position),
            probabilities: self.search.value(position, plies),
        }
    }

    /// Every legal move of `position` for `dice`, ranked at `plies` through
    /// gnubg's move filter ([`Search::analyse_roll`]).
    ///
    /// # Errors
    /// [`EngineError::GameOver`] for a finished game.
    pub fn analyse_roll(&self, position: &Position, dice: Dice, plies: u8) -> Result<RollAnalysis, EngineError> {
        let before = self.search.stats();
        let start = Instant::now();
        let moves = self.search.analyse_roll(position, dice, plies)?;
        let elapsed = start.elapsed();
        Ok(RollAnalysis {
            position: *position,
            dice,
            plies,
            evaluator: self.name(),
            moves,
            stats: stats_since(before, self.search.stats()),
            elapsed,
        })
    }

    /// Every legal move of `position` for `dice`, ranked at `plies` by its
    /// cubeful equity in `context` (the cube, the score, Crawford, Jacoby),
    /// through gnubg's move filter ([`rank_results_cubeful`]).
    ///
    /// # Errors
    /// [`EngineError::GameOver`] for a finished game; [`EngineError::Cube`]
    /// for a context that breaks the rules or a match longer than the table.
    pub fn analyse_roll_in_context(
        &self,
        position: &Position,
        dice: Dice,
        context: &GameContext,
        plies: u8,
    ) -> Result<CubefulRollAnalysis, EngineError> {
        self.analyse_roll_with(position, dice, context, plies, self.search.filter(), None)
    }

    /// [`analyse_roll_in_context`](Self::analyse_roll_in_context) through the
    /// root screens of `filter` that also values the move to `played` (a
    /// result of one legal move, as a review needs it) at `plies`, whether or
    /// not the filter keeps it.
    ///
    /// # Errors
    /// As [`analyse_roll_in_context`](Self::analyse_roll_in_context).
    pub fn analyse_roll_with(
        &self,
        position: &Position,
        dice: Dice,
        context: &GameContext,
        plies: u8,
        filter: &MoveFilter,
        played: Option<&Position>,
    ) -> Result<CubefulRollAnalysis, EngineError> {
        let state = CubeState::of_position_in_play(position, context, &self.met)?;
        let before = self.search.stats();
        let start = Instant::now();
        let list = position.legal_moves(dice);
        let also = played.and_then(|p| list.positions().iter().position(|r| r == p));
        let ranked = rank_results_cubeful(&self.search, list.positions(), &state, &self.met, plies, filter, also)?;
        let best = ranked.first().map_or(0.0, |r| r.equity);
        let moves = ranked
            .into_iter()
            .filter_map(|r| {
                let (&mv, &result) = (list.moves().get(r.index)?, list.positions().get(r.index)?);
                Some(CubefulMove {
                    mv,
                    result,
                    probabilities: r.probabilities,
                    equity: r.equity,
                    mwc: r.mwc,
                    loss: best - r.equity,
                    plies: r.plies,
                })
            })
            .collect();
        Ok(CubefulRollAnalysis {
            position: *position,
            dice,
            context: *context,
            plies,
            evaluator: self.name(),
            met: self.met.name().to_string(),
            moves,
            stats: stats_since(before, self.search.stats()),
            elapsed: start.elapsed(),
        })
    }

    /// The move the engine plays for `dice`: at 0 plies the evaluator's own
    /// choice ([`Evaluator::best_move`]), deeper the best move of
    /// [`Search::rank_results`]. A single legal move is played without
    /// evaluation; with none the turn passes.
    ///
    /// # Errors
    /// [`EngineError::GameOver`] for a finished game.
    pub fn choose_move(&self, position: &Position, dice: Dice, plies: u8) -> Result<ChosenMove, EngineError> {
        if position.game_result().is_some() {
            return Err(EngineError::GameOver);
        }
        let mut list = MoveList::new();
        let chosen = if plies == 0 {
            gammon_eval::choose_move(self.search.evaluator(), position, dice, &mut list)
        } else {
            list.generate(position, dice);
            let best = match list.len() {
                0 | 1 => 0,
                _ => self.search.rank_results(list.positions(), plies).first().map_or(0, |r| r.index),
            };
            list.iter().nth(best)
        };
        let pass = ChosenMove { mv: Move::NONE, result: position.switched(), choices: 0 };
        Ok(chosen.map_or(pass, |(mv, result)| ChosenMove { mv, result, choices: list.len() }))
    }

    /// The cube decision of the player on roll in `position`, in `context`,
    /// searched `plies` deep ([`CubeQuestion::new`] and [`decide`](Self::decide)).
    ///
    /// # Errors
    /// As [`CubeQuestion::new`].
    pub fn decide_cube(
        &self,
        position: &Position,
        context: &GameContext,
        plies: u8,
    ) -> Result<CubeReport, EngineError> {
        self.decide(&CubeQuestion::new(*position, *context, &self.met)?, plies)
    }

    /// The cube decision of a checked question, searched `plies` deep as
    /// gnubg searches it ([`analyse_state_nply`]).
    ///
    /// # Errors
    /// [`EngineError::Cube`] for a match longer than this engine's table.
    pub fn decide(&self, question: &CubeQuestion, plies: u8) -> Result<CubeReport, EngineError> {
        let position = *question.position();
        let analysis = analyse_state_nply(&self.search, &position, question.state(), &self.met, plies)?;
        Ok(CubeReport {
            position,
            context: *question.context(),
            plies,
            class: PositionClass::of(&position),
            analysis,
            notes: question.notes().to_vec(),
            met: self.met.name().to_string(),
        })
    }
}

/// The work counted between two readings of a search's counters.
fn stats_since(before: SearchStats, now: SearchStats) -> SearchStats {
    SearchStats {
        evaluations: now.evaluations.saturating_sub(before.evaluations),
        cache_lookups: now.cache_lookups.saturating_sub(before.cache_lookups),
        cache_hits: now.cache_hits.saturating_sub(before.cache_hits),
    }
}
