//! The JSON endpoints: each reads its request ([`crate::params`]), calls the
//! engine on the rayon pool ([`crate::work`]) and answers the JSON the CLI's
//! `--json` prints for the same input. No game logic lives here.

use crate::app::AppState;
use crate::error::{chain, ApiError};
use crate::jobs::{Estimate, JobKind, JobView, Work};
use crate::library_errors::Asked;
use crate::params::{json_body, Ask, Query};
use crate::work::{with_engine, with_engine_of};
use axum::body::Body;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::Json;
use gammon_engine::api::json::{CubefulAnalysisJson, EvalJson, PositionAnalysisJson, PositionJson};
use gammon_engine::api::{legal_moves, CubeQuestion, CubeReport, Engine, EngineError};
use gammon_engine::review::{review_match_until, ReviewError, ReviewSettings, MAX_REVIEW_PLIES};
use gammon_engine::rollout::{RolloutError, RolloutSettings, BATCH, MAX_ROLLOUT_PLY};
use gammon_engine::search::{MoveFilter, Search};
use gammon_eval::NetEvaluator;
use gammon_jobs::Progress;
use gammon_rules::{parse_match_text, CubeOwner, DiceState};
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
    let ask = Query::parse(raw.as_deref(), &["position", "match_id", "dice"])?.ask()?;
    let mut context = ask.context;
    if let Some(d) = ask.dice {
        context.dice = DiceState::Rolled(d);
    }
    to_value(&PositionJson::new(&ask.position, &context))
}

/// `GET /api/moves`: the legal moves of a roll (`gammon moves --json`).
pub async fn moves(RawQuery(raw): RawQuery) -> Answer {
    let ask = Query::parse(raw.as_deref(), &["position", "match_id", "dice"])?.ask()?;
    let moves = legal_moves(&ask.position, ask.dice_required()?)?;
    to_value(&moves)
}

/// `GET /api/eval`: the position's value before the roll (`gammon eval
/// --json`; `ply` defaults to 0 as there).
pub async fn eval(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "ply"])?;
    let (ask, plies) = (query.ask()?, query.ply(0)?);
    with_engine(&state, move |engine| to_value(&EvalJson::from(&engine.evaluate(&ask.position, plies)))).await?
}

/// `GET /api/analyse`: with dice the ranked moves (cubeful in the position's
/// context, or cubeless with `cubeless=true`), without them the evaluation
/// and the cube decision (`gammon analyse --json`; `ply` defaults to 2).
pub async fn analyse(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "dice", "ply", "cubeless", "prune"])?;
    let (ask, plies, cubeless) = (query.ask()?, query.ply(2)?, query.flag("cubeless")?);
    let prune = match query.get("prune") {
        None => MoveFilter::ANALYSIS_PRUNE,
        Some(text) => text.parse::<u16>().map(usize::from).map_err(|_| {
            ApiError::bad("prune", format!("{text:?} is not a number of moves (0 to 65535; 0: no screen)"))
        })?,
    };
    // Move analysis screens the lookahead's moves (its own engine and cache;
    // another screen than the default gets a fresh one); the cube decision
    // does not.
    let engine = match (ask.dice, prune) {
        (None, _) | (Some(_), 0) => Arc::clone(&state.engine),
        (Some(_), MoveFilter::ANALYSIS_PRUNE) => Arc::clone(&state.moves),
        (Some(_), prune) => {
            let filter = MoveFilter { prune, ..*state.moves.search().filter() };
            Arc::new(Engine::with_search(Search::new(state.engine.evaluator().clone()).with_filter(filter)))
        }
    };
    with_engine_of(&state, &engine, move |engine| analyse_ask(engine, &ask, plies, cubeless)).await?
}

fn analyse_ask(engine: &Engine<&NetEvaluator>, ask: &Ask, plies: u8, cubeless: bool) -> Answer {
    match (ask.dice, cubeless) {
        (Some(dice), true) => to_value(&engine.analyse_roll(&ask.position, dice, plies)?),
        (Some(dice), false) => {
            let analysis = engine
                .analyse_roll_in_context(&ask.position, dice, &ask.context, plies)
                .map_err(|e| ApiError::engine(e, Asked::CubefulMoves))?;
            to_value(&CubefulAnalysisJson::new(&analysis, &[]))
        }
        (None, _) => {
            let evaluation = engine.evaluate(&ask.position, plies);
            let cube: Result<CubeReport, String> =
                engine.decide_cube(&ask.position, &ask.context, plies).map_err(|e| match e {
                    EngineError::GameOver => "the game is over: there is no cube decision".to_string(),
                    e => chain(&e),
                });
            to_value(&PositionAnalysisJson::new(&evaluation, &cube))
        }
    }
}

/// `GET /api/cube`: the cube decision of the player on roll (`gammon cube
/// --json`; `ply` defaults to 2).
pub async fn cube(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Answer {
    let query = Query::parse(raw.as_deref(), &["position", "match_id", "ply"])?;
    let (ask, plies) = (query.ask()?, query.ply(2)?);
    if ask.context.cube_owner == CubeOwner::Opponent {
        return Err(ApiError::bad(
            "position",
            format!(
                "the player on roll cannot double: the opponent owns the {}-cube (give the position with the \
                 opponent on roll to see his redouble)",
                ask.context.cube_value
            ),
        ));
    }
    let question = CubeQuestion::new(ask.position, ask.context, state.engine.met())
        .map_err(|e| ApiError::engine(e, Asked::Cube))?;
    // `CubeQuestion::new` refused a finished game: what `decide` may still
    // refuse is worded as any engine error.
    with_engine(&state, move |engine| to_value(&engine.decide(&question, plies)?)).await?
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
    #[serde(default)]
    cubeful: bool,
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
    fn settings(&self) -> Result<RolloutSettings, ApiError> {
        if !(1..=MAX_ROLLOUT_GAMES).contains(&self.games) {
            return Err(ApiError::bad("games", format!("{} is not from 1 to {MAX_ROLLOUT_GAMES}", self.games)));
        }
        if self.ply > MAX_ROLLOUT_PLY {
            return Err(ApiError::bad(
                "ply",
                format!("{} is not from 0 to {MAX_ROLLOUT_PLY} (the rollout players' depth)", self.ply),
            ));
        }
        if let Some(t) = self.target_se {
            if !(t.is_finite() && t > 0.0) {
                return Err(ApiError::bad("target_se", format!("{t} is not a positive number")));
            }
        }
        Ok(RolloutSettings {
            trials: self.games,
            seed: self.seed,
            truncate: self.truncate,
            variance_reduction: self.variance_reduction,
            quasi_random: self.quasi_random,
            cubeful: self.cubeful,
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
    let ask = Ask::read(&request.position, request.match_id.as_deref(), request.dice.as_deref())?;
    let settings = request.settings()?;
    if ask.dice.is_some() && ask.position.game_result().is_some() {
        return Err(ApiError::bad("position", "the game in this position is over: there are no moves to roll out"));
    }
    let engine = Arc::clone(&state.engine);
    let work: Work = Box::new(move |job| {
        let report = engine.rollout_until(
            &ask.position,
            ask.dice,
            &settings,
            |p| {
                job.progress().report_with(
                    p.trials,
                    p.max_trials,
                    Estimate {
                        equity: Some(p.equity),
                        // None (null) below two games: there is none.
                        standard_error: Some(p.standard_error).filter(|se| se.is_finite()),
                    },
                )
            },
            job.stop_flag(),
        );
        match report {
            Ok(r) => {
                serde_json::value::to_raw_value(&gammon_engine::api::json::document(&r)).map_err(|e| e.to_string())
            }
            Err(EngineError::Rollout(RolloutError::Interrupted)) => {
                Err("cancelled before any game finished".to_string())
            }
            Err(e) => Err(chain(&e)),
        }
    });
    let view = state.jobs.submit(JobKind::Rollout, work)?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// The body of `POST /api/reviews`: the match file's text and the depths of
/// `gammon review`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    /// The text of a `.mat` or `.sgf` match file.
    #[serde(rename = "match")]
    match_text: String,
    ply: Option<u8>,
    cube_ply: Option<u8>,
}

/// `POST /api/reviews`: starts a match review job (201 with the job).
pub async fn start_review(State(state): State<AppState>, body: Body) -> Result<(StatusCode, Json<JobView>), ApiError> {
    let request: ReviewRequest = json_body(body, state.connections.body_timeout).await?;
    let record = parse_match_text(&request.match_text)?;
    let mut settings = ReviewSettings::default();
    for (field, value, slot) in
        [("ply", request.ply, &mut settings.plies), ("cube_ply", request.cube_ply, &mut settings.cube_plies)]
    {
        if let Some(p) = value {
            if p > MAX_REVIEW_PLIES {
                return Err(ApiError::bad(field, format!("{p} is not a depth from 0 to {MAX_REVIEW_PLIES}")));
            }
            *slot = p;
        }
    }
    let engine = Arc::clone(&state.engine);
    let work: Work = Box::new(move |job| {
        let review = review_match_until(
            &engine,
            &record,
            &settings,
            |done, total| job.progress().report(done as u64, total as u64),
            job.stop_flag(),
        );
        match review {
            Ok(r) => {
                serde_json::value::to_raw_value(&gammon_engine::api::json::document(&r)).map_err(|e| e.to_string())
            }
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
