//! `gammon.Engine`: a net (the built-in one or a weights file), a match
//! equity table and a pool of threads, asked what the CLI's `eval`,
//! `analyse`, `cube`, `rollout` and `review` ask, with their defaults.
//! One engine may be shared by many Python threads: the calls release the
//! GIL and share the engine's caches.

use crate::answer::{to_dict, Failure};
use crate::options::{check_ply, ContextKeywords, MAX_ANALYSIS_PLY};
use crate::watch::watched;
use gammon_engine::api::json::EvalJson;
use gammon_engine::api::{
    check_rollout, load_net, AnalyseOptions, Asked, CubeOptions, EngineError, EvalOptions, Refusal, Request,
    RolloutOptions,
};
use gammon_engine::met::{Met, MetError};
use gammon_engine::review::{ReviewError, ReviewSettings, MAX_REVIEW_PLIES};
use gammon_engine::rollout::{RolloutError, MAX_ROLLOUT_PLY};
use gammon_engine::search::MoveFilter;
use gammon_eval::NetEvaluator;
use gammon_rules::{
    parse_match_text_until_error, parse_match_text_with_analysis, read_match_file_until_error_with_analysis,
    read_match_file_with_analysis, MatchRecord,
};
use pyo3::exceptions::{PyKeyboardInterrupt, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The most threads a pool may have (the CLI's `--threads` limit).
const MAX_THREADS: usize = 1024;

/// A backgammon engine: `Engine(weights=None, threads=None, met=None)`.
///
/// `weights` is a weights file (the built-in net when `None`), `threads`
/// the size of its worker pool (one per core when `None`; results never
/// depend on it), `met` a gnubg XML match equity table (Kazaross-XG2 when
/// `None`). Every method returns the dict the CLI's `--json` prints for the
/// same request; bad input raises `ValueError` with the CLI's message, a
/// missing file `FileNotFoundError`.
#[pyclass(frozen, module = "gammon")]
pub struct Engine {
    engine: gammon_engine::api::Engine<NetEvaluator>,
    pool: Option<rayon::ThreadPool>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine").field("net", &self.engine.name()).field("met", &self.engine.met().name()).finish()
    }
}

/// A worker pool of `threads`, refused as the CLI refuses `--threads`.
fn pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(Failure::message(format!("threads: {threads} is not in 1..={MAX_THREADS}")));
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::from(e).context("cannot start the worker threads"))
}

impl Engine {
    /// `work` in this engine's pool, or in `threads` of a pool of its own.
    fn install<T: Send>(&self, threads: Option<usize>, work: impl FnOnce() -> T + Send) -> Result<T, Failure> {
        Ok(match (threads, &self.pool) {
            (Some(n), _) => pool(n)?.install(work),
            (None, Some(p)) => p.install(work),
            (None, None) => work(),
        })
    }

    /// `work` (given a stop flag) with the GIL released and Ctrl-C
    /// honoured: its answer, and the interrupt if one came.
    fn watched<T: Send>(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        work: impl FnOnce(&AtomicBool) -> T + Send,
    ) -> Result<(T, Option<PyErr>), Failure> {
        let stop = AtomicBool::new(false);
        let (answer, raised) = watched(py, &stop, || self.install(threads, || work(&stop)));
        Ok((answer?, raised))
    }

    /// A search that Ctrl-C abandons (analysis and cube decisions): its
    /// answer, or the interrupt. A search shallower than 2 plies takes
    /// milliseconds at most: it runs without a watching thread, whose start
    /// would cost more than the search.
    fn abandonable<T: Send>(
        &self,
        py: Python<'_>,
        ply: u8,
        work: impl FnOnce(&gammon_engine::api::Engine<&NetEvaluator>) -> T + Send,
    ) -> PyResult<T> {
        let flag = Arc::new(AtomicBool::new(false));
        let engine = self.engine.stoppable(Arc::clone(&flag));
        // A static search has nothing to share out: it stays on this thread
        // (the hop to the pool would cost more than the search).
        if ply == 0 {
            return Ok(py.detach(|| work(&engine)));
        }
        if ply == 1 {
            return Ok(py.detach(|| self.install(None, || work(&engine)))?);
        }
        let (answer, raised) = watched(py, &flag, || self.install(None, || work(&engine)));
        if let Some(interrupt) = raised {
            return Err(interrupt);
        }
        Ok(answer?)
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (weights=None, threads=None, met=None))]
    fn new(weights: Option<PathBuf>, threads: Option<usize>, met: Option<PathBuf>) -> PyResult<Self> {
        let net = load_net(weights.as_deref()).map_err(Failure::from)?;
        let met = match met {
            Some(path) => Met::read_xml_file(&path).map_err(|e| {
                let missing = matches!(e, MetError::Read { io: Some(std::io::ErrorKind::NotFound), .. });
                Failure::of(&e).missing_file(missing)
            })?,
            None => Met::kazaross_xg2().clone(),
        };
        let pool = threads.map(pool).transpose()?;
        Ok(Engine { engine: gammon_engine::api::Engine::new(net).with_met(met), pool })
    }

    /// The evaluator's name (its weights' description).
    #[getter]
    fn name(&self) -> String {
        self.engine.name()
    }

    /// The match equity table's name.
    #[getter]
    fn met(&self) -> String {
        self.engine.met().name().to_string()
    }

    fn __repr__(&self) -> String {
        format!("gammon.Engine({:?}, met={:?})", self.engine.name(), self.engine.met().name())
    }

    /// The net's static evaluation of `position` before the roll: the dict
    /// of `gammon eval POSITION --json`.
    fn evaluate<'py>(&self, py: Python<'py>, position: &str) -> PyResult<Bound<'py, PyDict>> {
        let request = Request::read(position, None, None).map_err(Failure::from)?;
        let evaluation = py.detach(|| self.engine.eval(&request, &EvalOptions::default())).map_err(Failure::from)?;
        to_dict(py, &EvalJson::from(&evaluation))
    }

    /// With `dice`, the legal moves ranked by cubeful equity at the
    /// position's cube and score (or cubeless money equity with
    /// `cubeless=True`); without, the evaluation before the roll and the
    /// cube decision: the dict of `gammon analyse POSITION --json` with the
    /// same options. The context keywords override what an XGID says.
    #[pyo3(signature = (position, dice=None, ply=2, cubeless=false, prune=8, *,
        cube=None, owner=None, r#match=None, score=None, crawford=None, jacoby=None, beaver=None))]
    #[allow(clippy::too_many_arguments)]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        dice: Option<&str>,
        ply: u8,
        cubeless: bool,
        prune: usize,
        cube: Option<u32>,
        owner: Option<&'py str>,
        r#match: Option<u32>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, dice).map_err(Failure::from)?;
        if cubeless {
            if let Some(option) = context.overrides()?.first_given() {
                return Err(Failure::message(format!(
                    "{option} does not apply with --cubeless: cubeless analysis is money play without a cube"
                ))
                .into());
            }
        }
        let (request, notes) = context.apply(request)?;
        let options = AnalyseOptions { ply: check_ply(ply, MAX_ANALYSIS_PLY)?, cubeless, prune };
        let analysis = self.abandonable(py, options.ply, |engine| engine.analyse(&request, &options))?;
        let mut analysis = analysis.map_err(|e| Failure::from(Refusal::new(e, Asked::Analyse)))?;
        analysis.add_notes(notes);
        to_dict(py, &analysis)
    }

    /// The cube decision of the player on roll: the dict of `gammon cube
    /// POSITION --json`; with `matrix=N`, at every score of an N-point
    /// match (`gammon cube --matrix N --json`).
    #[pyo3(signature = (position, ply=2, matrix=None, *,
        cube=None, owner=None, r#match=None, score=None, crawford=None, jacoby=None, beaver=None))]
    #[allow(clippy::too_many_arguments)]
    fn cube<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        ply: u8,
        matrix: Option<u32>,
        cube: Option<u32>,
        owner: Option<&'py str>,
        r#match: Option<u32>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if matrix.is_some() {
            // As the CLI's --matrix conflicts with them: the matrix sets the score.
            let conflicting =
                [("--match", r#match.is_some()), ("--score", score.is_some()), ("--crawford", crawford.is_some())];
            if let Some((option, _)) = conflicting.iter().find(|(_, given)| *given) {
                return Err(Failure::message(format!(
                    "{option} cannot be used with --matrix: the matrix sets the score"
                ))
                .into());
            }
        }
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, None).map_err(Failure::from)?;
        let (request, notes) = context.apply(request)?;
        let options = CubeOptions { ply: check_ply(ply, MAX_ANALYSIS_PLY)? };
        let refused = |e| Failure::from(Refusal::new(e, Asked::Cube));
        if let Some(length) = matrix {
            let mut answer = self
                .abandonable(py, options.ply, |engine| engine.cube_matrix(&request, &options, length))?
                .map_err(refused)?;
            answer.entries.iter_mut().for_each(|d| d.notes.extend(notes.iter().cloned()));
            return to_dict(py, &answer);
        }
        let mut decision =
            self.abandonable(py, options.ply, |engine| engine.cube(&request, &options))?.map_err(refused)?;
        decision.notes.extend(notes);
        to_dict(py, &decision)
    }

    /// A Monte Carlo rollout: of the position before the roll, of each
    /// candidate move with `dice`, or of the cube decision with
    /// `cube_decision=True`; the dict of `gammon rollout POSITION --json`
    /// with the same options (`variance_reduction=False` is `--no-vr`,
    /// `quasi_random=False` `--no-quasi-random`, `bearoff_exact=False`
    /// `--no-bearoff`). The result does not depend on `threads`.
    ///
    /// Ctrl-C stops it after the games in progress: `KeyboardInterrupt` is
    /// raised with the attribute `partial`, the dict the CLI prints for the
    /// games finished (`"partial": true`), or `None` when none was.
    #[pyo3(signature = (position, dice=None, games=1296, ply=0, truncate=None,
        cubeful=false, cubeless=false, cube_decision=false, seed=1, target_se=None,
        variance_reduction=true, quasi_random=true, bearoff_exact=true, moves=8, threads=None, *,
        cube=None, owner=None, r#match=None, score=None, crawford=None, jacoby=None, beaver=None))]
    #[allow(clippy::too_many_arguments, clippy::fn_params_excessive_bools)]
    fn rollout<'py>(
        &self,
        py: Python<'py>,
        position: &str,
        dice: Option<&str>,
        games: u64,
        ply: u8,
        truncate: Option<u32>,
        cubeful: bool,
        cubeless: bool,
        cube_decision: bool,
        seed: u64,
        target_se: Option<f64>,
        variance_reduction: bool,
        quasi_random: bool,
        bearoff_exact: bool,
        moves: usize,
        threads: Option<usize>,
        cube: Option<u32>,
        owner: Option<&'py str>,
        r#match: Option<u32>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        if cubeful && cubeless {
            return Err(Failure::message("--cubeful cannot be used with --cubeless".into()).into());
        }
        if cube_decision && (dice.is_some() || cubeful || cubeless) {
            return Err(Failure::message(
                "--cube-decision cannot be used with --dice, --cubeful or --cubeless: it rolls out the position before the roll, cubeful"
                    .into(),
            )
            .into());
        }
        check_ply(ply, MAX_ROLLOUT_PLY)?;
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, dice).map_err(Failure::from)?;
        let (request, notes) = context.apply(request)?;
        warn_notes(py, &notes)?;
        let options = RolloutOptions {
            games,
            ply,
            truncate,
            cubeful,
            cubeless,
            seed,
            target_se,
            variance_reduction,
            quasi_random,
            bearoff_exact,
            moves,
        };
        let settings = options.settings(&request);
        check_rollout(&request, &settings).map_err(|e| Failure::from(Refusal::new(e, Asked::Rollout)))?;
        let (report, raised) = if cube_decision {
            let (report, raised) =
                self.watched(py, threads, |stop| self.engine.cube_rollout(&request, &settings, |_| {}, stop))?;
            let report = report.map(|r| (to_dict(py, &r), r.interrupted));
            (report.map_err(|e| rollout_failure(e, Asked::CubeRollout)), raised)
        } else {
            let (report, raised) =
                self.watched(py, threads, |stop| self.engine.rollout(&request, &settings, |_| {}, stop))?;
            let report = report.map(|r| (to_dict(py, &r), r.interrupted()));
            (report.map_err(|e| rollout_failure(e, Asked::Rollout)), raised)
        };
        finish(py, report, raised)
    }

    /// The review of a match: every move and cube decision, error rates,
    /// luck, marks, with the analysis the file stores beside gammon's; the
    /// dict of `gammon review FILE --json`. `match` is a path (str or
    /// `os.PathLike`: .mat, .txt, .sgf, .xg, .ogxm) or the text of a .mat
    /// or .sgf match (a str with a line break). With `keep_going=True` the
    /// games before the first one that does not replay are reviewed (a
    /// `UserWarning` says which and why).
    ///
    /// Ctrl-C stops it after the records in hand: `KeyboardInterrupt` with
    /// `partial`, the review of the records reviewed, or `None`.
    #[pyo3(signature = (r#match, ply=2, cube_ply=2, filter="normal", prune=8,
        keep_going=false, threads=None))]
    #[allow(clippy::too_many_arguments)]
    fn review<'py>(
        &self,
        py: Python<'py>,
        r#match: Bound<'py, PyAny>,
        ply: u8,
        cube_ply: u8,
        filter: &str,
        prune: usize,
        keep_going: bool,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let filter = match filter {
            "normal" => MoveFilter::NORMAL,
            "large" => MoveFilter::LARGE,
            other => return Err(Failure::message(format!("filter: {other:?} is not `normal` or `large`")).into()),
        };
        let settings = ReviewSettings {
            plies: check_ply(ply, MAX_REVIEW_PLIES)?,
            cube_plies: check_ply(cube_ply, MAX_REVIEW_PLIES)?,
            filter,
            prune,
            ..ReviewSettings::default()
        };
        let (record, shown) = self.read_match(py, &r#match, keep_going)?;
        if record.games.is_empty() {
            return Err(Failure::message(format!("{shown}: no game to review")).into());
        }
        let (review, raised) =
            self.watched(py, threads, |stop| self.engine.review(&record, &settings, |_, _| {}, stop))?;
        let review = match review {
            Ok(r) => Ok((to_dict(py, &r), r.is_partial())),
            Err(ReviewError::Interrupted) => Err(None),
            Err(e) => Err(Some(Failure::from(e).context(&format!("cannot review {shown}")))),
        };
        finish(py, review, raised)
    }
}

impl Engine {
    /// The match of `what` (a path, or match text), and how to name it.
    fn read_match(&self, py: Python<'_>, what: &Bound<'_, PyAny>, keep_going: bool) -> PyResult<(MatchRecord, String)> {
        let met = self.engine.met();
        if let Ok(text) = what.extract::<String>() {
            if text.contains('\n') {
                let shown = "the match text".to_string();
                if !keep_going {
                    return Ok((parse_match_text_with_analysis(&text, met).map_err(Failure::from)?, shown));
                }
                let (record, error) = parse_match_text_until_error(&text, Some(met)).map_err(Failure::from)?;
                warn_bad_game(py, &shown, error.as_ref(), record.games.len())?;
                return Ok((record, shown));
            }
        }
        let path: PathBuf = what.extract()?;
        let shown = path.display().to_string();
        if !keep_going {
            return Ok((read_match_file_with_analysis(&path, met).map_err(Failure::from)?, shown));
        }
        let (record, error) = read_match_file_until_error_with_analysis(&path, met).map_err(Failure::from)?;
        warn_bad_game(py, &shown, error.as_ref(), record.games.len())?;
        Ok((record, shown))
    }
}

/// The warning of `keep_going`: the game that does not replay.
fn warn_bad_game(py: Python<'_>, shown: &str, error: Option<&impl std::fmt::Display>, games: usize) -> PyResult<()> {
    if let Some(e) = error {
        let message = format!("{shown}: {e}; reviewing the {games} game(s) before it");
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &std::ffi::CString::new(message)?, 1)?;
    }
    Ok(())
}

/// The notes of the context keywords (what they kept of the position), as
/// the CLI's `note:` lines.
fn warn_notes(py: Python<'_>, notes: &[String]) -> PyResult<()> {
    for note in notes {
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &std::ffi::CString::new(note.as_str())?, 1)?;
    }
    Ok(())
}

/// A rollout's failure: stopped before any game finished (`None`), or the
/// engine's refusal.
fn rollout_failure(e: EngineError, asked: Asked) -> Option<Failure> {
    match e {
        EngineError::Rollout(RolloutError::Interrupted) => None,
        e => Some(Failure::from(Refusal::new(e, asked)).context("the rollout failed")),
    }
}

/// The answer of stoppable work: the dict; or, interrupted, the interrupt
/// raised with the partial answer (`None` when nothing was done) as its
/// `partial` attribute.
fn finish<'py>(
    py: Python<'py>,
    answer: Result<(PyResult<Bound<'py, PyDict>>, bool), Option<Failure>>,
    raised: Option<PyErr>,
) -> PyResult<Bound<'py, PyDict>> {
    let (dict, partial) = match answer {
        Ok((dict, partial)) => (Some(dict?), partial),
        Err(Some(failure)) => return Err(raised.unwrap_or_else(|| failure.into())),
        Err(None) => (None, true),
    };
    match (dict, partial) {
        (Some(dict), false) => Ok(dict),
        (dict, _) => {
            let interrupt = raised.unwrap_or_else(|| PyKeyboardInterrupt::new_err("interrupted"));
            interrupt.value(py).setattr("partial", dict)?;
            Err(interrupt)
        }
    }
}
