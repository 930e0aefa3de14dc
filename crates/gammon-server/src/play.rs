//! `POST /api/play`: one step of a game against the engine, the state
//! carried by the client and signed by this server ([`crate::seal`]).

use crate::api::{to_value, RawJson};
use crate::app::AppState;
use crate::error::{quote, ApiError};
use crate::params::json_body;
use crate::seal::PlayState;
use crate::work::with_engine;
use axum::body::Body;
use axum::extract::State;
use gammon_engine::api::json::PlayOutcomeJson;
use gammon_engine::api::play::{new_match, play_step, PlayAction};
use gammon_rules::{GameResult, MatchRules};
use serde::Deserialize;

type Answer = Result<RawJson, ApiError>;

/// The body of `POST /api/play`: the human's action and, after `new`, the
/// state where he acts as the last answer gave it (`state`, `seed`,
/// `next_step` and their `signature`).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayRequest {
    /// One of [`PLAY_ACTIONS`].
    action: String,
    /// The game: the last answer's `state` (not for `new`).
    state: Option<String>,
    /// For `move`: the move in gnubg notation.
    #[serde(rename = "move")]
    move_text: Option<String>,
    /// For `resign`: `single`, `gammon` or `backgammon`.
    result: Option<String>,
    /// For `new`: the match length (0 = money play).
    match_length: Option<u32>,
    /// For `new` in money play: the Jacoby rule.
    jacoby: Option<bool>,
    /// For `new` in money play: beavers and raccoons.
    beavers: Option<bool>,
    /// For `new` in money play: the most automatic doubles (Murphy rule).
    murphy: Option<u32>,
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
pub const PLAY_ACTIONS: [&str; 11] = [
    "new",
    "roll",
    "double",
    "move",
    "take",
    "pass",
    "beaver",
    "raccoon",
    "resign",
    "accept_resignation",
    "reject_resignation",
];

/// The deepest engine a game request may ask for (a move at 2 plies takes
/// well under a second).
pub const MAX_PLAY_PLY: u8 = 2;

/// The most automatic doubles a game may ask for: the largest cube, 1024,
/// is ten doubles.
pub const MAX_MURPHY: u32 = 10;

impl PlayRequest {
    /// The fields given that `action` does not take (each refused, not
    /// ignored).
    fn refuse_fields_not_for(&self, action: &str) -> Result<(), ApiError> {
        let new = action == "new";
        let given = [
            ("state", self.state.is_some() && new),
            ("step", self.step.is_some() && new),
            ("signature", self.signature.is_some() && new),
            ("match_length", self.match_length.is_some() && !new),
            ("jacoby", self.jacoby.is_some() && !new),
            ("beavers", self.beavers.is_some() && !new),
            ("murphy", self.murphy.is_some() && !new),
            ("move", self.move_text.is_some() && action != "move"),
            ("result", self.result.is_some() && action != "resign"),
        ];
        match given.iter().find(|(_, wrong)| *wrong) {
            Some((field, _)) if new => Err(ApiError::bad(field, "not taken by new (a new match starts at step 0)")),
            Some((field, _)) if matches!(*field, "move" | "result") => {
                Err(ApiError::bad(field, format!("not taken by {action}")))
            }
            Some((field, _)) => {
                Err(ApiError::bad(field, format!("not taken by {action} (the match's rules travel in the game state)")))
            }
            None => Ok(()),
        }
    }

    fn seed(&self) -> Result<u64, ApiError> {
        self.seed.ok_or_else(|| ApiError::bad("seed", "missing (the game's dice seed: any whole number)"))
    }

    /// The rules of a new match: money play (with the Jacoby rule, beavers
    /// and automatic doubles asked for) or a match, where those are dropped.
    fn rules(&self) -> Result<MatchRules, ApiError> {
        let murphy = self.murphy.unwrap_or(0);
        if murphy > MAX_MURPHY {
            return Err(ApiError::bad(
                "murphy",
                format!("{murphy} is not from 0 to {MAX_MURPHY} (automatic doubles of one game)"),
            ));
        }
        let rules = MatchRules {
            jacoby: self.jacoby.unwrap_or(false),
            beaver: self.beavers.unwrap_or(false),
            murphy,
            ..MatchRules::new_match(self.match_length.unwrap_or(0))
        };
        Ok(rules.normalized())
    }
}

/// The human's action named `name` in `request`.
fn action_of(name: &str, request: &PlayRequest) -> Result<Option<PlayAction>, ApiError> {
    Ok(Some(match name {
        "new" => return Ok(None),
        "roll" => PlayAction::Roll,
        "double" => PlayAction::Double,
        "take" => PlayAction::Take,
        "pass" | "drop" => PlayAction::Pass,
        "beaver" => PlayAction::Beaver,
        "raccoon" => PlayAction::Raccoon,
        "accept_resignation" => PlayAction::AcceptResignation,
        "reject_resignation" => PlayAction::RejectResignation,
        "move" => PlayAction::Move(
            request.move_text.clone().ok_or_else(|| ApiError::bad("move", "missing (the move, like 8/5 6/5)"))?,
        ),
        "resign" => PlayAction::Resign(match request.result.as_deref() {
            Some("single") => GameResult::Single,
            Some("gammon") => GameResult::Gammon,
            Some("backgammon") => GameResult::Backgammon,
            Some(other) => {
                return Err(ApiError::bad(
                    "result",
                    format!("unknown result {}; expected single, gammon or backgammon", quote(other)),
                ))
            }
            None => return Err(ApiError::bad("result", "missing (single, gammon or backgammon)")),
        }),
        other => {
            return Err(ApiError::bad(
                "action",
                format!("unknown action {}; expected one of {}", quote(other), PLAY_ACTIONS.join(", ")),
            ))
        }
    }))
}

/// `POST /api/play`: one step of a game against the engine.
pub async fn play(State(state): State<AppState>, body: Body) -> Answer {
    let request: PlayRequest = json_body(body, state.connections.body_timeout).await?;
    let action = action_of(&request.action, &request)?;
    request.refuse_fields_not_for(&request.action)?;
    if request.ply > MAX_PLAY_PLY {
        return Err(ApiError::bad("ply", format!("{} is not a depth from 0 to {MAX_PLAY_PLY}", request.ply)));
    }
    let (seed, plies) = (request.seed()?, request.ply);
    let (outcome, step) = match action {
        None => {
            let rules = request.rules()?;
            (with_engine(&state, move |engine| new_match(engine, rules, plies, (seed, 0))).await?, 0)
        }
        Some(action) => {
            let issued = issued_state(&state, &request, seed)?;
            let (game, step) = (issued.state.to_string(), issued.step);
            let outcome =
                with_engine(&state, move |engine| play_step(engine, &game, &action, plies, (seed, step))).await?;
            (outcome, step)
        }
    };
    let outcome = outcome?;
    let mut json = serde_json::to_value(PlayOutcomeJson::new(&outcome))
        .map_err(|e| ApiError::internal(format!("cannot write the answer as JSON: {e}")))?;
    let next_step = step.saturating_add(1);
    let game = outcome.game.to_string();
    json["seed"] = seed.into();
    json["next_step"] = next_step.into();
    json["signature"] = state.seal.sign(&PlayState { state: &game, seed, step: next_step }).into();
    to_value(&json)
}

/// The state a request continues, if this server issued it: its game
/// state, seed and step are signed by the answer that gave them.
fn issued_state<'a>(state: &AppState, request: &'a PlayRequest, seed: u64) -> Result<PlayState<'a>, ApiError> {
    let game = request.state.as_deref().ok_or_else(|| ApiError::bad("state", "missing (the last answer's state)"))?;
    let step = request.step.ok_or_else(|| ApiError::bad("step", "missing (the last answer's next_step)"))?;
    let signature = request
        .signature
        .as_deref()
        .ok_or_else(|| ApiError::bad("signature", "missing (the last answer's signature)"))?;
    let issued = PlayState { state: game, seed, step };
    if !state.seal.verify(&issued, signature) {
        return Err(ApiError::bad(
            "signature",
            "the state (game state, seed, step) is not one this server issued: it was edited, or it comes from \
             another server process (a restarted server does not continue the games of the one before)",
        ));
    }
    Ok(issued)
}
