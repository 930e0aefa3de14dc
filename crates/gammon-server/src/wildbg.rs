//! wildbg's `GET /move` request shape, so that bots written for wildbg's
//! server work unchanged: `die1`, `die2` and the board as `p0`…`p25`
//! (positive: the player on roll `x`, on his points 1–24 and his bar 25;
//! negative: the opponent `o`, on x's numbering, with o's bar as `p0`;
//! absent points are empty, checkers not on the board are borne off). The
//! answer lists every legal move best first (cubeless money equity at 0
//! ply, as wildbg ranks them), each as single-checker steps with the
//! mover's probabilities in wildbg's names.

use crate::error::ApiError;
use crate::params::{parse_dice, Query};
use crate::work::with_engine;
use axum::extract::{RawQuery, State};
use axum::Json;
use gammon_eval::Probabilities;
use gammon_rules::{Position, SideBoard};
use serde::Serialize;

use crate::AppState;

/// One checker's step: `from` 25 (bar) to 1, `to` 24 to 0 (off).
#[derive(Debug, Serialize)]
pub struct Step {
    from: u8,
    to: u8,
}

/// wildbg's probabilities: `win` includes gammons and backgammons, `winG`
/// backgammons; `lose` is `1 - win`.
#[derive(Debug, Serialize)]
#[allow(non_snake_case)]
pub struct WildbgProbabilities {
    win: f32,
    winG: f32,
    winBg: f32,
    loseG: f32,
    loseBg: f32,
}

impl From<Probabilities> for WildbgProbabilities {
    fn from(p: Probabilities) -> Self {
        WildbgProbabilities {
            win: p.win,
            winG: p.win_gammon,
            winBg: p.win_backgammon,
            loseG: p.lose_gammon,
            loseBg: p.lose_backgammon,
        }
    }
}

/// One legal move.
#[derive(Debug, Serialize)]
pub struct MoveInfo {
    /// The steps (empty when no checker can move).
    play: Vec<Step>,
    probabilities: WildbgProbabilities,
}

/// The answer: every legal move, best first.
#[derive(Debug, Serialize)]
pub struct MoveResponse {
    /// gammon's JSON version (an addition to wildbg's answer).
    schema_version: u32,
    moves: Vec<MoveInfo>,
}

const PARAMS: [&str; 28] = [
    "die1", "die2", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p11", "p12", "p13", "p14",
    "p15", "p16", "p17", "p18", "p19", "p20", "p21", "p22", "p23", "p24", "p25",
];

/// The board of `p0`…`p25`.
fn position(query: &Query) -> Result<Position, ApiError> {
    let mut mine: SideBoard = [0; 25];
    let mut theirs: SideBoard = [0; 25];
    for point in 0..=25usize {
        let key = PARAMS[point + 2];
        let Some(text) = query.get(key) else { continue };
        let n: i8 = text.parse().map_err(|_| ApiError::bad(key, format!("{text:?} is not a checker count")))?;
        let count = n.unsigned_abs();
        match (point, n.signum()) {
            (_, 0) => {}
            (0, 1) => return Err(ApiError::bad(key, "p0 is the opponent's bar: its count is negative or 0")),
            (25, -1) => return Err(ApiError::bad(key, "p25 is your bar: its count is positive or 0")),
            (0, _) => theirs[24] = count,
            (25, _) => mine[24] = count,
            (p, 1) => mine[p - 1] = count,
            // The opponent's point `25 - p` in his own numbering.
            (p, _) => theirs[24 - p] = count,
        }
    }
    Position::from_boards(&mine, &theirs).map_err(|e| ApiError::bad("p0", format!("not a position: {e}")))
}

/// `GET /move?die1=3&die2=1&p1=…&p25=…`.
pub async fn get_move(State(state): State<AppState>, RawQuery(raw): RawQuery) -> Result<Json<MoveResponse>, ApiError> {
    let query = Query::parse(raw.as_deref(), &PARAMS)?;
    let die = |key: &str| query.required(key).map(str::to_string);
    let dice = parse_dice(&format!("{}{}", die("die1")?, die("die2")?)).map_err(|e| e.on("die1"))?;
    let position = position(&query)?;
    if position.game_result().is_some() {
        return Err(ApiError::bad("p0", "the game in this position is over"));
    }
    let moves = with_engine(&state, move |engine| {
        let analysis = engine.analyse_roll(&position, dice, 0)?;
        let moves: Vec<MoveInfo> = analysis
            .moves
            .iter()
            .map(|m| MoveInfo {
                play: m.mv.steps().iter().map(|s| Step { from: s.from, to: s.to }).collect(),
                probabilities: m.probabilities.into(),
            })
            .collect();
        if !moves.is_empty() {
            return Ok(moves);
        }
        // No checker can move: wildbg answers one empty play, valued as
        // the position the opponent then rolls in.
        let after = engine.evaluate(&position.switched(), 0).probabilities.inverted();
        Ok(vec![MoveInfo { play: Vec::new(), probabilities: after.into() }])
    })
    .await?
    .map_err(|e: gammon_engine::EngineError| ApiError::from(e).on("p0"))?;
    Ok(Json(MoveResponse { schema_version: gammon_engine::api::json::SCHEMA_VERSION, moves }))
}
