//! `POST /api/play`: one step of a game against the engine, the state
//! carried by the client and signed by this server ([`crate::seal`]).

use crate::api::{to_value, AppState, RawJson};
use crate::error::{chain, quote, ApiError};
use crate::params::{json_body, Ask};
use crate::seal::PlayState;
use crate::work::with_engine;
use axum::body::Body;
use axum::extract::State;
use serde::Deserialize;

type Answer = Result<RawJson, ApiError>;

/// The body of `POST /api/play`: the human's action and, after `new`, the
/// state where he acts as the last answer gave it (`xgid`, `seed`,
/// `next_step` and their `signature`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// One of [`PLAY_ACTIONS`].
    action: String,
    /// The state: the last answer's `xgid` (not for `new`).
    position: Option<String>,
    /// For `move`: the move in gnubg notation.
    #[serde(rename = "move")]
    move_text: Option<String>,
    /// For `new`: the match length (0 = money play).
    match_length: Option<u32>,
    /// For `new` in money play: the Jacoby rule.
    jacoby: Option<bool>,
    /// The dice seed of the game; each step uses its own stream.
    seed: Option<u64>,
    /// The step number: the last answer's `next_step` (not for `new`).
    step: Option<u64>,
    /// The last answer's `signature` of its state (not for `new`).
    signature: Option<String>,
    /// The engine's depth for its moves and cube, 0 to 2.
    #[serde(default)]
    ply: u8,
}

/// The actions of `POST /api/play` (`drop` is `pass` too).
pub const PLAY_ACTIONS: [&str; 6] = ["new", "roll", "double", "move", "take", "pass"];

/// The deepest engine a game request may ask for (a move at 2 plies takes
/// well under a second).
pub const MAX_PLAY_PLY: u8 = 2;

impl PlayRequest {
    /// The fields given that `action` does not take (each refused, not
    /// ignored).
    fn refuse_fields_not_for(&self, action: &str) -> Result<(), ApiError> {
        let new = action == "new";
        let given = [
            ("position", self.position.is_some() && new),
            ("step", self.step.is_some() && new),
            ("signature", self.signature.is_some() && new),
            ("match_length", self.match_length.is_some() && !new),
            ("jacoby", self.jacoby.is_some() && !new),
            ("move", self.move_text.is_some() && action != "move"),
        ];
        match given.iter().find(|(_, wrong)| *wrong) {
            Some((field, _)) if new => Err(ApiError::bad(field, "not taken by new (a new match starts at step 0)")),
            Some((field, _)) if *field == "move" => Err(ApiError::bad(field, format!("not taken by {action}"))),
            Some((field, _)) => Err(ApiError::bad(
                field,
                format!("not taken by {action} (the match's rules travel in the position's XGID)"),
            )),
            None => Ok(()),
        }
    }

    fn seed(&self) -> Result<u64, ApiError> {
        self.seed.ok_or_else(|| ApiError::bad("seed", "missing (the game's dice seed: any whole number)"))
    }
}

/// `POST /api/play`: one step of a game against the engine.
pub async fn play(State(state): State<AppState>, body: Body) -> Answer {
    use gammon_engine::api::json::PlayOutcomeJson;
    use gammon_engine::api::play::{new_match, play_step, PlayAction};
    let request: PlayRequest = json_body(body, state.connections.body_timeout).await?;
    let action = match request.action.as_str() {
        "new" => None,
        "roll" => Some(PlayAction::Roll),
        "double" => Some(PlayAction::Double),
        "take" => Some(PlayAction::Take),
        "pass" | "drop" => Some(PlayAction::Pass),
        "move" => Some(PlayAction::Move(
            request.move_text.clone().ok_or_else(|| ApiError::bad("move", "missing (the move, like 8/5 6/5)"))?,
        )),
        other => {
            return Err(ApiError::bad(
                "action",
                format!("unknown action {}; expected one of {}", quote(other), PLAY_ACTIONS.join(", ")),
            ))
        }
    };
    request.refuse_fields_not_for(&request.action)?;
    if request.ply > MAX_PLAY_PLY {
        return Err(ApiError::bad("ply", format!("{} is not a depth from 0 to {MAX_PLAY_PLY}", request.ply)));
    }
    let (seed, plies) = (request.seed()?, request.ply);
    let (outcome, step) = match action {
        None => {
            let length = request.match_length.unwrap_or(0);
            let context = gammon_rules::GameContext {
                jacoby: request.jacoby.unwrap_or(false),
                ..if length == 0 {
                    gammon_rules::GameContext::money()
                } else {
                    gammon_rules::GameContext::new_match(length)
                }
            };
            (with_engine(&state, move |engine| new_match(engine, &context, plies, (seed, 0))).await?, 0)
        }
        Some(action) => {
            let issued = issued_state(&state, &request, seed)?;
            let ask = Ask::read(issued.xgid, None, None)?;
            let step = issued.step;
            let outcome = with_engine(&state, move |engine| {
                play_step(engine, &ask.position, &ask.context, &action, plies, (seed, step))
            })
            .await?;
            (outcome, step)
        }
    };
    let outcome = outcome.map_err(|e| {
        use gammon_engine::api::play::PlayError;
        match e {
            PlayError::Move(_) => ApiError::bad("move", chain(&e)),
            PlayError::NotNow(_) => ApiError::bad("action", chain(&e)),
            PlayError::MatchTooLong { .. } => ApiError::bad("match_length", chain(&e)),
            PlayError::BadState(_) | PlayError::Engine(_) => ApiError::bad("position", chain(&e)),
        }
    })?;
    let mut json = serde_json::to_value(PlayOutcomeJson::new(&outcome))
        .map_err(|e| ApiError::internal(format!("cannot write the answer as JSON: {e}")))?;
    let next_step = step.saturating_add(1);
    let xgid = json["xgid"].as_str().unwrap_or_default().to_string();
    json["seed"] = seed.into();
    json["next_step"] = next_step.into();
    json["signature"] = state.seal.sign(&PlayState { xgid: &xgid, seed, step: next_step }).into();
    to_value(&json)
}

/// The state a request continues, if this server issued it: its position,
/// seed and step are signed by the answer that gave them.
fn issued_state<'a>(state: &AppState, request: &'a PlayRequest, seed: u64) -> Result<PlayState<'a>, ApiError> {
    let xgid =
        request.position.as_deref().ok_or_else(|| ApiError::bad("position", "missing (the last answer's xgid)"))?;
    let step = request.step.ok_or_else(|| ApiError::bad("step", "missing (the last answer's next_step)"))?;
    let signature = request
        .signature
        .as_deref()
        .ok_or_else(|| ApiError::bad("signature", "missing (the last answer's signature)"))?;
    let issued = PlayState { xgid, seed, step };
    if !state.seal.verify(&issued, signature) {
        return Err(ApiError::bad(
            "signature",
            "the state (position, seed, step) is not one this server issued: it was edited, or it comes from \
             another server process (a restarted server does not continue the games of the one before)",
        ));
    }
    Ok(issued)
}
