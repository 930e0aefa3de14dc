//! `gammon.Engine`: a net (the built-in one or a weights file), a match
//! equity table and a pool of threads, asked what the CLI's `eval`,
//! `analyse`, `cube`, `rollout` and `review` ask, with their defaults.
//! One engine may be shared by many Python threads: the calls release the
//! GIL and share the engine's caches.

use crate::answer::{to_dict, Failure};
use crate::options::{check_ply, whole, ContextKeywords, MAX_ANALYSIS_PLY};
use crate::watch::watched;
use gammon_engine::api::json::EvalJson;
use gammon_engine::api::{
    check_rollout, load_net, AnalyseOptions, Asked, CubeOptions, EngineError, EvalOptions, Refusal, Request,
    RolloutOptions, MAX_THREADS,
};
use gammon_engine::met::{Met, MetError};
use gammon_engine::review::{ReviewError, ReviewSettings, MAX_REVIEW_PLIES};
use gammon_engine::rollout::{RolloutError, MAX_ROLLOUT_PLY};
use gammon_engine::search::MoveFilter;
use gammon_eval::NetEvaluator;
use gammon_rules::{
    parse_match_bytes_until_error_with_analysis, parse_match_bytes_with_analysis, parse_match_text_until_error,
    parse_match_text_with_analysis, read_match_file_until_error_with_analysis, read_match_file_with_analysis,
    MatchRecord,
};
use pyo3::exceptions::{PyKeyboardInterrupt, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::PyNone;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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
fn pool(threads: i64) -> Result<rayon::ThreadPool, Failure> {
    let Some(threads) = usize::try_from(threads).ok().filter(|n| (1..=MAX_THREADS).contains(n)) else {
        return Err(Failure::message(format!("threads: {threads} is not in 1..={MAX_THREADS}")));
    };
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::from(e).context("cannot start the worker threads"))
}

impl Engine {
    /// `work` in `own` (a call's `threads`), else in this engine's pool.
    fn install<T: Send>(&self, own: Option<&rayon::ThreadPool>, work: impl FnOnce() -> T + Send) -> T {
        match own.or(self.pool.as_ref()) {
            Some(pool) => pool.install(work),
            None => work(),
        }
    }

    /// `work` (given a stop flag) with the GIL released and Ctrl-C
    /// honoured, in `own` or this engine's pool: its answer, and the
    /// interrupt if one came.
    fn watched<T: Send>(
        &self,
        py: Python<'_>,
        own: Option<&rayon::ThreadPool>,
        work: impl FnOnce(&AtomicBool) -> T + Send,
    ) -> (T, Option<PyErr>) {
        let stop = AtomicBool::new(false);
        watched(py, &stop, || self.install(own, || work(&stop)))
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
            return Ok(py.detach(|| self.install(None, || work(&engine))));
        }
        let (answer, raised) = watched(py, &flag, || self.install(None, || work(&engine)));
        match raised {
            Some(interrupt) => Err(with_partial(py, interrupt, None)),
            None => Ok(answer),
        }
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (weights=None, threads=None, met=None))]
    fn new(py: Python<'_>, weights: Option<PathBuf>, threads: Option<i64>, met: Option<PathBuf>) -> PyResult<Self> {
        let pool = threads.map(pool).transpose()?;
        let (net, met) = py.detach(|| -> Result<_, Failure> {
            let net = load_net(weights.as_deref())?;
            let met = match met {
                Some(path) => Met::read_xml_file(&path).map_err(|e| {
                    let missing = matches!(e, MetError::Read { io: Some(std::io::ErrorKind::NotFound), .. });
                    Failure::of(&e).missing_file(missing)
                })?,
                None => Met::kazaross_xg2().clone(),
            };
            Ok((net, met))
        })?;
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

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let net = PyString::new(py, &self.engine.name()).repr()?;
        let met = PyString::new(py, self.engine.met().name()).repr()?;
        Ok(format!("<gammon.Engine net={net} met={met}>"))
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
        ply: i64,
        cubeless: bool,
        prune: i64,
        cube: Option<i64>,
        owner: Option<&'py str>,
        r#match: Option<i64>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options =
            AnalyseOptions { ply: check_ply("ply", ply, MAX_ANALYSIS_PLY)?, cubeless, prune: whole("prune", prune)? };
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, dice).map_err(Failure::from)?;
        if cubeless {
            context.overrides()?.check_with_cubeless().map_err(Failure::from)?;
        }
        let (request, notes) = context.apply(request)?;
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
        ply: i64,
        matrix: Option<i64>,
        cube: Option<i64>,
        owner: Option<&'py str>,
        r#match: Option<i64>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = CubeOptions { ply: check_ply("ply", ply, MAX_ANALYSIS_PLY)? };
        let matrix = matrix.map(|n| whole::<u32, _>("matrix", n)).transpose()?;
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, None).map_err(Failure::from)?;
        if matrix.is_some() {
            context.overrides()?.check_with_matrix().map_err(Failure::from)?;
        }
        let (request, notes) = context.apply(request)?;
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
        games: i128,
        ply: i64,
        truncate: Option<i64>,
        cubeful: bool,
        cubeless: bool,
        cube_decision: bool,
        seed: i128,
        target_se: Option<f64>,
        variance_reduction: bool,
        quasi_random: bool,
        bearoff_exact: bool,
        moves: i64,
        threads: Option<i64>,
        cube: Option<i64>,
        owner: Option<&'py str>,
        r#match: Option<i64>,
        score: Option<Bound<'py, PyAny>>,
        crawford: Option<bool>,
        jacoby: Option<bool>,
        beaver: Option<bool>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let options = RolloutOptions {
            games: whole("games", games)?,
            ply: check_ply("ply", ply, MAX_ROLLOUT_PLY)?,
            truncate: truncate.map(|n| whole("truncate", n)).transpose()?,
            cubeful,
            cubeless,
            seed: whole("seed", seed)?,
            target_se,
            variance_reduction,
            quasi_random,
            bearoff_exact,
            moves: whole("moves", moves)?,
            cube_decision,
        };
        let own = threads.map(pool).transpose()?;
        let context = ContextKeywords { cube, owner, match_length: r#match, score, crawford, jacoby, beaver };
        let request = Request::read(position, None, dice).map_err(Failure::from)?;
        options.check_choices(&request).map_err(Failure::from)?;
        let (request, notes) = context.apply(request)?;
        warn_notes(py, &notes)?;
        let settings = options.settings(&request);
        check_rollout(&request, &settings).map_err(|e| Failure::from(Refusal::new(e, Asked::Rollout)))?;
        let (report, raised) = if cube_decision {
            let (report, raised) =
                self.watched(py, own.as_ref(), |stop| self.engine.cube_rollout(&request, &settings, |_| {}, stop));
            let report = report.map(|r| (to_dict(py, &r), r.interrupted));
            (report.map_err(|e| rollout_failure(e, Some(Asked::CubeRollout))), raised)
        } else {
            let (report, raised) =
                self.watched(py, own.as_ref(), |stop| self.engine.rollout(&request, &settings, |_| {}, stop));
            let report = report.map(|r| (to_dict(py, &r), r.interrupted()));
            (report.map_err(|e| rollout_failure(e, None)), raised)
        };
        finish(py, report, raised)
    }

    /// The review of a match: every move and cube decision, error rates,
    /// luck, marks, with the analysis the file stores beside gammon's; the
    /// dict of `gammon review FILE --json`. `match` is a path (str or
    /// `os.PathLike`: .mat, .txt, .sgf, .xg, .ogxm), the text of a .mat
    /// or .sgf match (a str with a line break), or the bytes of a match
    /// file of any of those formats. With `keep_going=True` the
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
        ply: i64,
        cube_ply: i64,
        filter: &str,
        prune: i64,
        keep_going: bool,
        threads: Option<i64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let filter = match filter {
            "normal" => MoveFilter::NORMAL,
            "large" => MoveFilter::LARGE,
            other => return Err(Failure::message(format!("filter: {other:?} is not `normal` or `large`")).into()),
        };
        let settings = ReviewSettings {
            plies: check_ply("ply", ply, MAX_REVIEW_PLIES)?,
            cube_plies: check_ply("cube_ply", cube_ply, MAX_REVIEW_PLIES)?,
            filter,
            prune: whole("prune", prune)?,
            ..ReviewSettings::default()
        };
        let own = threads.map(pool).transpose()?;
        let (record, shown) = self.read_match(py, &r#match, keep_going)?;
        if record.games.is_empty() {
            return Err(Failure::message(format!("{shown}: no game to review")).into());
        }
        let (review, raised) =
            self.watched(py, own.as_ref(), |stop| self.engine.review(&record, &settings, |_, _| {}, stop));
        let review = match review {
            Ok(r) => Ok((to_dict(py, &r), r.is_partial())),
            Err(ReviewError::Interrupted) => Err(None),
            Err(e) => Err(Some(Failure::from(e).context(&format!("cannot review {shown}")))),
        };
        finish(py, review, raised)
    }
}

impl Engine {
    /// The match of `what` (a path, or match text), and how to name it;
    /// read with the GIL released. With `keep_going`, the games before one
    /// that does not replay, and a warning saying which.
    fn read_match(&self, py: Python<'_>, what: &Bound<'_, PyAny>, keep_going: bool) -> PyResult<(MatchRecord, String)> {
        let source = if let Ok(bytes) = what.cast::<PyBytes>() {
            MatchSource::Bytes(bytes.as_bytes().to_vec())
        } else if let Ok(bytes) = what.cast::<PyByteArray>() {
            MatchSource::Bytes(bytes.to_vec())
        } else {
            match what.extract::<String>() {
                Ok(text) if text.contains('\n') => MatchSource::Text(text),
                _ => MatchSource::File(what.extract()?),
            }
        };
        let shown = match &source {
            MatchSource::Text(_) => "the match text".to_string(),
            MatchSource::Bytes(_) => "the match file's bytes".to_string(),
            MatchSource::File(path) => path.display().to_string(),
        };
        let met = self.engine.met();
        let (record, bad_game) = py.detach(|| -> Result<_, Failure> {
            Ok(match (&source, keep_going) {
                (MatchSource::Text(text), false) => (parse_match_text_with_analysis(text, met)?, None),
                (MatchSource::File(path), false) => (read_match_file_with_analysis(path, met)?, None),
                (MatchSource::Bytes(bytes), false) => (parse_match_bytes_with_analysis(bytes, met)?, None),
                (MatchSource::Bytes(bytes), true) => {
                    let (record, error) = parse_match_bytes_until_error_with_analysis(bytes, met)?;
                    (record, error.map(|e| e.to_string()))
                }
                (MatchSource::Text(text), true) => {
                    let (record, error) = parse_match_text_until_error(text, Some(met))?;
                    (record, error.map(|e| e.to_string()))
                }
                (MatchSource::File(path), true) => {
                    let (record, error) = read_match_file_until_error_with_analysis(path, met)?;
                    (record, error.map(|e| e.to_string()))
                }
            })
        })?;
        if let Some(error) = bad_game {
            let games = record.games.len();
            warn(py, &format!("{shown}: {error}; reviewing the {games} game(s) before it"))?;
        }
        Ok((record, shown))
    }
}

/// Where a match comes from.
enum MatchSource {
    /// The text of a .mat or .sgf match.
    Text(String),
    /// The bytes of a match file of any format.
    Bytes(Vec<u8>),
    /// A match file.
    File(PathBuf),
}

/// `message` as a `UserWarning` (shown once per place, as Python shows them).
fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &std::ffi::CString::new(message)?, 1)
}

/// The notes of the context keywords (what they kept of the position), as
/// the CLI's `note:` lines.
fn warn_notes(py: Python<'_>, notes: &[String]) -> PyResult<()> {
    notes.iter().try_for_each(|note| warn(py, note))
}

/// A rollout's failure: stopped before any game finished (`None`), or why,
/// as the CLI says it (a cube rollout's refusal in the words of `asked`).
fn rollout_failure(e: EngineError, asked: Option<Asked>) -> Option<Failure> {
    match (e, asked) {
        (EngineError::Rollout(RolloutError::Interrupted), _) => None,
        (e, Some(asked)) => Some(Failure::from(Refusal::new(e, asked)).context("the rollout failed")),
        (e, None) => Some(Failure::from(e).context("the rollout failed")),
    }
}

/// The answer of stoppable work: the dict; or, if a signal came, its
/// exception (`KeyboardInterrupt` for Ctrl-C) with the answer (partial or
/// whole, `None` when the work did nothing or failed) as its `partial`
/// attribute; or, stopped without a signal, a `KeyboardInterrupt` of our
/// own with what was done.
fn finish<'py>(
    py: Python<'py>,
    answer: Result<(PyResult<Bound<'py, PyDict>>, bool), Option<Failure>>,
    raised: Option<PyErr>,
) -> PyResult<Bound<'py, PyDict>> {
    let (dict, partial) = match answer {
        Ok((dict, partial)) => (Some(dict?), partial),
        Err(Some(failure)) => return Err(raised.map_or_else(|| failure.into(), |i| with_partial(py, i, None))),
        Err(None) => (None, true),
    };
    match (raised, dict) {
        (Some(interrupt), dict) => Err(with_partial(py, interrupt, dict)),
        (None, Some(dict)) if !partial => Ok(dict),
        (None, dict) => Err(with_partial(py, PyKeyboardInterrupt::new_err("interrupted"), dict)),
    }
}

/// `interrupt` with `partial` as its attribute of that name (when the
/// exception takes attributes: one raised by a signal handler may not).
fn with_partial(py: Python<'_>, interrupt: PyErr, partial: Option<Bound<'_, PyDict>>) -> PyErr {
    let value = match partial {
        Some(dict) => dict.into_any(),
        None => PyNone::get(py).to_owned().into_any(),
    };
    // An exception that refuses the attribute is raised without it.
    let _ = interrupt.value(py).setattr("partial", value);
    interrupt
}
