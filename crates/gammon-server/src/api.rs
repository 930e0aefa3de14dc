//! The JSON endpoints: each reads its request ([`crate::params`]), calls the
//! engine on the rayon pool (`crate::work`) and answers the JSON the CLI's
//! `--json` prints for the same input. No game logic lives here.

use crate::app::AppState;
use crate::error::{chain, ApiError};
use crate::jobs::{Estimate, JobKind, JobView, Work};
use crate::library_errors::Asked;
use crate::params::{dice_required, json_body, Query};
use crate::work::{on_pool, with_engine};
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::Json;
use gammon_engine::api::json::{EvalJson, PositionJson};
use gammon_engine::api::MatrixError;
use gammon_engine::api::{check_rollout, legal_moves, AnalyseOptions, CubeOptions, EngineError, EvalOptions, Request};
use gammon_engine::cube::CubeError;
use gammon_engine::review::{ReviewError, ReviewSettings, MAX_REVIEW_PLIES};
use gammon_engine::rollout::{
    match_chances, Estimate as RunningEstimate, RolloutError, RolloutProgress, RolloutSettings, BATCH,
};
use gammon_jobs::Progress;
use gammon_rules::{is_ogxm, parse_match_bytes_with_analysis, parse_match_text_with_analysis, MatchRecord};
use serde::Deserialize;
use std::sync::Arc;

type Answer = Result<RawJson, ApiError>;

/// JSON already written: the engine's answers keep the exact text of their
/// `f32` numbers, as the CLI prints them (a `serde_json::Value` would widen
/// them to `f64` digits).
#[derive(Debug)]
pub struct RawJson(pub String);

impl axum::response::IntoResponse for RawJson {
    fn into_response(self) -> axum::response::Response {
        ([(axum::http::header::CONTENT_TYPE, "application/json")], self.0).into_response()
    }
}

pub(crate) fn to_value(value: &impl serde::Serialize) -> Result<RawJson, ApiError> {
    serde_json::to_string(&gammon_engine::api::json::document(value))
        .map(RawJson)
        .map_err(|e| ApiError::internal(format!("cannot write the answer as JSON: {e}")))
}

/// `GET /api/position`: the board, IDs, pips and context of a position.
pub async fn position(RawQuery(raw): RawQuery) -> Answer {
    let request = Query::parse(raw.as_deref(), &["position", "match_id", "dice"])?.request()?;
    to_value(&PositionJson::of_request(&request))
}

/// `GET /api/moves`: the legal moves of a roll (`gammon moves --json`).
pub async fn moves(RawQuery(raw): RawQuery) -> Answer {
    let request = Query::parse(raw.as_deref(), &["position", "match_id", "dice"])?.request()?;
    let moves = legal_moves(&request.position, dice_required(&request)?)?;
    to_value(&moves)
}

/// `GET /api/eval`: the position's value before the roll (`gammon eval
/// --json`; `ply` defaults to 0 as there).
pub async fn eval(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "ply"])?;
    let (request, options) = (query.request()?, EvalOptions { ply: query.ply(0)? });
    with_engine(&state, move |engine| to_value(&EvalJson::from(&engine.eval(&request, &options)?))).await?
}

/// `GET /api/analyse`: with dice the ranked moves (cubeful in the position's
/// context, or cubeless with `cubeless=true`), without them the evaluation
/// and the cube decision (`gammon analyse --json`; `ply` defaults to 2).
pub async fn analyse(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "dice", "ply", "cubeless", "prune"])?;
    let request = query.request()?;
    let mut options = AnalyseOptions { ply: query.ply(2)?, cubeless: query.flag("cubeless")?, ..Default::default() };
    if let Some(text) = query.get("prune") {
        options.prune = text.parse::<u16>().map(usize::from).map_err(|_| {
            ApiError::bad("prune", format!("{text:?} is not a number of moves (0 to 65535; 0: no screen)"))
        })?;
    }
    with_engine(&state, move |engine| {
        let analysis = engine.analyse(&request, &options).map_err(|e| ApiError::engine(e, Asked::CubefulMoves))?;
        to_value(&analysis)
    })
    .await?
}

/// `GET /api/cube`: the cube decision of the player on roll (`gammon cube
/// --json`; `ply` defaults to 2); with `matrix=N`, at every score of an
/// N-point match (`gammon cube --matrix N --json`).
pub async fn cube(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "ply", "matrix"])?;
    let (request, options) = (query.request()?, CubeOptions { ply: query.ply(2)? });
    let matrix = query.number("matrix")?;
    with_engine(&state, move |engine| match matrix {
        Some(length) => to_value(&engine.cube_matrix(&request, &options, length).map_err(|e| match e {
            EngineError::Matrix(MatrixError::TooShort(_)) | EngineError::Cube(CubeError::MatchTooLong { .. }) => {
                ApiError::bad("matrix", chain(&e))
            }
            e => ApiError::engine(e, Asked::Cube),
        })?),
        None => to_value(&engine.cube(&request, &options).map_err(|e| ApiError::engine(e, Asked::Cube))?),
    })
    .await?
}

// ------------------------------------------------------------------- jobs

/// The most games one rollout job may play.
pub const MAX_ROLLOUT_GAMES: u64 = 1_000_000;

/// The body of `POST /api/rollouts`: the fields and defaults of `gammon
/// rollout`'s options.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RolloutRequest {
    position: String,
    match_id: Option<String>,
    /// With dice, the candidate moves of that roll are rolled out.
    dice: Option<String>,
    #[serde(default = "default_games")]
    games: u64,
    #[serde(default = "one")]
    seed: u64,
    #[serde(default)]
    ply: u8,
    truncate: Option<u32>,
    /// Play the cube: by default in a match position (at its score), not
    /// in money play (`gammon rollout`'s `--cubeful` / `--cubeless`).
    cubeful: Option<bool>,
    target_se: Option<f64>,
    #[serde(default = "yes")]
    variance_reduction: bool,
    #[serde(default = "yes")]
    quasi_random: bool,
    #[serde(default = "yes")]
    bearoff_exact: bool,
    /// With dice: the best N moves by the net's static judgement (0: all).
    #[serde(default = "eight")]
    moves: usize,
    /// Roll out the cube decision of the player on roll (`gammon rollout
    /// --cube-decision`): the answer is that command's JSON.
    #[serde(default)]
    cube_decision: bool,
}

const fn default_games() -> u64 {
    BATCH
}
const fn one() -> u64 {
    1
}
const fn yes() -> bool {
    true
}
const fn eight() -> usize {
    8
}

impl RolloutRequest {
    /// The settings; the engine checks them ([`check_rollout`]) but for
    /// the server's own limit on games.
    fn settings(&self, ask: &Request) -> Result<RolloutSettings, ApiError> {
        if !(1..=MAX_ROLLOUT_GAMES).contains(&self.games) {
            return Err(ApiError::bad("games", format!("{} is not from 1 to {MAX_ROLLOUT_GAMES}", self.games)));
        }
        Ok(RolloutSettings {
            trials: self.games,
            seed: self.seed,
            truncate: self.truncate,
            variance_reduction: self.variance_reduction,
            quasi_random: self.quasi_random,
            cubeful: self.cubeful.unwrap_or(!ask.context.is_money()),
            target_se: self.target_se,
            ply: self.ply,
            bearoff_exact: self.bearoff_exact,
            candidates: if self.moves == 0 { None } else { Some(self.moves) },
        })
    }
}

/// `POST /api/rollouts`: starts a rollout job (201 with the job).
pub async fn start_rollout(State(state): State<AppState>, body: Body) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let request: RolloutRequest = json_body(body, state.connections.body_timeout).await?;
    let ask = Request::read(&request.position, request.match_id.as_deref(), request.dice.as_deref())?;
    let settings = request.settings(&ask)?;
    let cube_decision = request.cube_decision;
    if cube_decision {
        if request.dice.is_some() {
            return Err(ApiError::bad(
                "dice",
                "a cube decision comes before the roll: give no dice with cube_decision",
            ));
        }
        state.engine.check_cube_rollout(&ask, &settings).map_err(|e| ApiError::engine(e, Asked::Cube))?;
    } else {
        check_rollout(&ask, &settings).map_err(|e| match e {
            EngineError::GameOver => {
                ApiError::bad("position", "the game in this position is over: there are no moves to roll out")
            }
            e => e.into(),
        })?;
    }
    // A match rollout runs in `2 × MWC − 1`: its progress is shown as match
    // winning chances.
    let in_match = !ask.context.is_money();
    let engine = Arc::clone(&state.engine);
    let work: Work = Box::new(move |job| {
        let progress = |p: &RolloutProgress| {
            let running = RunningEstimate::new(p.equity, p.standard_error);
            let shown = if in_match { match_chances(&running) } else { running };
            job.progress().report_with(
                p.trials,
                p.max_trials,
                Estimate {
                    equity: Some(shown.mean),
                    // None (null) below two games: there is none.
                    standard_error: Some(shown.standard_error).filter(|se| se.is_finite()),
                },
            )
        };
        let answer = if cube_decision {
            engine.cube_rollout(&ask, &settings, progress, job.stop_flag()).map(|r| document_of(&r))
        } else {
            engine.rollout(&ask, &settings, progress, job.stop_flag()).map(|r| document_of(&r))
        };
        match answer {
            Ok(json) => json,
            Err(EngineError::Rollout(RolloutError::Interrupted)) => {
                Err("cancelled before any game finished".to_string())
            }
            Err(e) => Err(chain(&e)),
        }
    });
    let view = state.jobs.submit(JobKind::Rollout, work)?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// A job's answer: the JSON document of `value`.
fn document_of(value: &impl serde::Serialize) -> Result<Box<serde_json::value::RawValue>, String> {
    serde_json::value::to_raw_value(&gammon_engine::api::json::document(value)).map_err(|e| e.to_string())
}

/// The body of `POST /api/reviews`: the match file (its text, or the
/// bytes of any match file in base64) and the depths of `gammon review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The text of a `.mat` or `.sgf` match file.
    #[serde(rename = "match")]
    match_text: Option<String>,
    /// The bytes of a match file of any format gammon reads (`.xg`,
    /// `.ogxm` too), in standard base64.
    match_base64: Option<String>,
    ply: Option<u8>,
    cube_ply: Option<u8>,
}

impl ReviewRequest {
    /// The match, read as `gammon review` reads a file: with the analysis
    /// it stores (gnubg's SGF, XG's, OGXM's), `met` turning a match's
    /// stored cube values into equities.
    fn record(&self, met: &gammon_engine::met::Met) -> Result<MatchRecord, ApiError> {
        use base64::Engine as _;
        let cannot = |field, reason: String| ApiError::bad(field, format!("cannot read the match: {reason}"));
        match (&self.match_text, &self.match_base64) {
            (Some(text), None) => {
                if is_ogxm(text.as_bytes()) || text.starts_with("RGMH") {
                    return Err(ApiError::bad(
                        "match",
                        "a binary match file (eXtreme Gammon .xg, OGXM) is not text: send its bytes in base64 as `match_base64`",
                    ));
                }
                parse_match_text_with_analysis(text, met).map_err(|e| cannot("match", chain(&e)))
            }
            (None, Some(encoded)) => {
                // Line breaks (as `base64` and Python's encodebytes write them) are not data.
                let encoded: String = encoded.split_ascii_whitespace().collect();
                let bytes = base64::engine::general_purpose::STANDARD
                    .decode(encoded)
                    .map_err(|e| ApiError::bad("match_base64", format!("not base64: {e}")))?;
                parse_match_bytes_with_analysis(&bytes, met).map_err(|e| cannot("match_base64", chain(&e)))
            }
            (Some(_), Some(_)) => {
                Err(ApiError::bad("match_base64", "give the match as text (`match`) or as bytes, not both"))
            }
            (None, None) => Err(ApiError::bad(
                "match",
                "give the match: the text of a .mat or .sgf file as `match`, or any match file's bytes in base64 as `match_base64`",
            )),
        }
    }
}

/// `POST /api/reviews`: starts a match review job (201 with the job).
pub async fn start_review(State(state): State<AppState>, body: Body) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let request: ReviewRequest = json_body(body, state.connections.body_timeout).await?;
    // Off the async workers: an .xg file inflates and replays (milliseconds).
    let mut settings = ReviewSettings::default();
    settings.plies = request.ply.unwrap_or(settings.plies);
    settings.cube_plies = request.cube_ply.unwrap_or(settings.cube_plies);
    let engine = Arc::clone(&state.engine);
    let record = on_pool(&state.pool, move |_| request.record(engine.met())).await??;
    settings.check().map_err(|e| match e {
        ReviewError::TooDeep { what: "--cube-ply", plies } => {
            ApiError::bad("cube_ply", format!("{plies} is not a depth from 0 to {MAX_REVIEW_PLIES}"))
        }
        ReviewError::TooDeep { plies, .. } => {
            ApiError::bad("ply", format!("{plies} is not a depth from 0 to {MAX_REVIEW_PLIES}"))
        }
        e => ApiError::bad("match", chain(&e)),
    })?;
    let engine = Arc::clone(&state.engine);
    let work: Work = Box::new(move |job| {
        let review = engine.review(
            &record,
            &settings,
            |done, total| job.progress().report(done as u64, total as u64),
            job.stop_flag(),
        );
        match review {
            Ok(r) => document_of(&r),
            Err(ReviewError::Interrupted) => Err("cancelled before any record was reviewed".to_string()),
            Err(e) => Err(chain(&e)),
        }
    });
    let view = state.jobs.submit(JobKind::Review, work)?;
    Ok((StatusCode::CREATED, Json(view)))
}

fn job_id(text: &str) -> Result<u64, ApiError> {
    text.parse().map_err(|_| ApiError::bad("id", format!("{text:?} is not a job id")))
}

fn no_job(kind: JobKind, id: u64) -> ApiError {
    let what = match kind {
        JobKind::Rollout => "rollout",
        JobKind::Review => "review",
    };
    ApiError::not_found(format!("no {what} job {id} (finished jobs are kept only for a while)"))
}

async fn get_job(state: &AppState, kind: JobKind, id: &str) -> Result<Json<JobView>, ApiError> {
    let id = job_id(id)?;
    state.jobs.view(id, Some(kind)).map(Json).ok_or_else(|| no_job(kind, id))
}

async fn cancel_job(state: &AppState, kind: JobKind, id: &str) -> Result<Json<JobView>, ApiError> {
    let id = job_id(id)?;
    state.jobs.cancel(id, kind).map(Json).ok_or_else(|| no_job(kind, id))
}

/// `GET /api/rollouts/{id}`.
pub async fn rollout_job(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    get_job(&state, JobKind::Rollout, &id).await
}

/// `DELETE /api/rollouts/{id}`.
pub async fn cancel_rollout(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    cancel_job(&state, JobKind::Rollout, &id).await
}

/// `GET /api/reviews/{id}`.
pub async fn review_job(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    get_job(&state, JobKind::Review, &id).await
}

/// `DELETE /api/reviews/{id}`.
pub async fn cancel_review(State(state): State<AppState>, Path(id): Path<String>) -> Result<Json<JobView>, ApiError> {
    cancel_job(&state, JobKind::Review, &id).await
}
