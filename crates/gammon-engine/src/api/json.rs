//! The JSON form of the engine's answers: what `gammon … --json` prints and
//! a server can send. Positions are written as gnubg Position IDs, moves in
//! gnubg notation, probabilities with the losing chance written out.
//!
//! One file on purpose: every JSON shape the engine answers with (moves,
//! evaluations, analyses, cube reports and their facts, rollouts) side by
//! side, so that a field means the same and is named the same in all of
//! them; `docs/openapi.json`, `docs/analyse.md` and `docs/review.md` are
//! checked against what it writes. It is types and their conversions, no
//! logic.

use super::{
    CubeMatrix, CubeReport, CubeRolloutReport, CubefulRollAnalysis, Evaluation, LegalMoves, MatchUnits, RollAnalysis,
    RolloutOutcome, RolloutReport,
};
use crate::cube::{Fact, TakePoint};
use crate::met::GammonPrices;
use crate::rollout::{Estimate, RolloutResult, RolloutSettings};
use gammon_eval::{evaluated_by, Probabilities};
use gammon_rules::{CubeOwner, DiceState, GameContext, PlayedStep, Position, Xgid};
use serde::{Serialize, Serializer};

/// The version of every JSON document gammon writes, its top-level
/// `schema_version` key. Version 2 renamed two keys: `plies` became `ply`
/// (as the `--ply` option and the cube report already said), and
/// `evaluator`, where it named the part of the evaluator that answers
/// (`eval`, the cube report), became `class` (as in the analyses, where
/// `evaluator` is the net's name). Documents without the key are version 1.
/// Any later change of a key's name or meaning raises it; a new key does not.
pub const SCHEMA_VERSION: u32 = 2;

/// A JSON document: `body`'s own keys after a leading `schema_version`. Not an
/// envelope: a reader of the body's keys finds them where they were. The
/// body must serialize as a map or a struct.
#[derive(Debug, Serialize)]
pub struct Document<T> {
    schema_version: u32,
    #[serde(flatten)]
    body: T,
}

/// `body` (owned or borrowed) as a versioned document.
pub fn document<T: Serialize>(body: T) -> Document<T> {
    Document { schema_version: SCHEMA_VERSION, body }
}

/// The five cumulative probabilities of one side, with the losing chance
/// written out.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ProbabilitiesJson {
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
}

impl From<Probabilities> for ProbabilitiesJson {
    fn from(p: Probabilities) -> Self {
        ProbabilitiesJson {
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose: 1.0 - p.win,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
        }
    }
}

/// The probabilities followed by the cubeless equity.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct EvaluationJson {
    #[serde(flatten)]
    probabilities: ProbabilitiesJson,
    equity: f32,
}

impl From<Probabilities> for EvaluationJson {
    fn from(p: Probabilities) -> Self {
        EvaluationJson { probabilities: p.into(), equity: p.equity() }
    }
}

// ------------------------------------------------------------ legal moves

#[derive(Serialize)]
struct LegalMoveJson {
    /// gnubg notation.
    notation: String,
    /// Every single-die step (UBGI style).
    steps: String,
    /// Position ID after the move, seen by the player who moves next.
    result: String,
    /// The steps of `steps`, in the same order, with their dice and hits.
    checker_steps: Vec<StepJson>,
}

/// One checker step in the mover's numbering (25 = bar, 0 = off); in the
/// step graph with the node it leads to.
#[derive(Serialize)]
struct StepJson {
    from: u8,
    to: u8,
    die: u8,
    hit: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<usize>,
}

impl StepJson {
    fn new(s: &PlayedStep, next: Option<usize>) -> Self {
        StepJson { from: s.from, to: s.to, die: s.die, hit: s.hit, next }
    }
}

/// A partial play: the steps that may follow, and the index in `moves` of
/// the move it completes.
#[derive(Serialize)]
struct StepNodeJson {
    steps: Vec<StepJson>,
    #[serde(rename = "move")]
    completes: Option<usize>,
}

#[derive(Serialize)]
struct LegalMovesJson {
    position: String,
    dice: String,
    pips: [u32; 2],
    dice_used: u8,
    moves: Vec<LegalMoveJson>,
    step_graph: Vec<StepNodeJson>,
}

impl Serialize for LegalMoves {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pos = &self.position;
        let (me, him) = pos.pip_count();
        LegalMovesJson {
            position: pos.to_position_id(),
            dice: self.dice.to_string(),
            pips: [me, him],
            dice_used: self.dice_used,
            moves: self
                .moves
                .iter()
                .map(|m| LegalMoveJson {
                    notation: pos.format_move(&m.mv),
                    steps: m.mv.to_ubgi(true),
                    result: m.result.to_position_id(),
                    // Every legal move replays (a test in gammon-rules checks it).
                    checker_steps: pos
                        .replay_move(self.dice, &m.mv)
                        .unwrap_or_default()
                        .iter()
                        .map(|s| StepJson::new(s, None))
                        .collect(),
                })
                .collect(),
            step_graph: self
                .step_graph()
                .iter()
                .map(|node| StepNodeJson {
                    steps: node.steps.iter().map(|(s, next)| StepJson::new(s, Some(*next))).collect(),
                    completes: node.completes,
                })
                .collect(),
        }
        .serialize(serializer)
    }
}

// ------------------------------------------------------------- evaluation

#[derive(Serialize)]
struct EvaluationOfJson<'a> {
    position: String,
    ply: u8,
    evaluator: &'a str,
    /// Which part of the evaluator answers (exact ones are not searched).
    class: String,
    probabilities: EvaluationJson,
}

impl Serialize for Evaluation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        EvaluationOfJson {
            position: self.position.to_position_id(),
            ply: self.plies,
            evaluator: &self.evaluator,
            class: evaluated_by(self.class).to_string(),
            probabilities: self.probabilities.into(),
        }
        .serialize(serializer)
    }
}

// ---------------------------------------------------------- roll analysis

#[derive(Serialize)]
struct RankedMoveJson {
    rank: usize,
    /// gnubg notation.
    #[serde(rename = "move")]
    notation: String,
    /// Position ID after the move, seen by the opponent (now on roll).
    result: String,
    /// The depth this move was evaluated at.
    ply: u8,
    /// Cubeless equity for the mover.
    equity: f32,
    /// Equity lost against the best move (0 for the best, else positive).
    loss: f32,
    probabilities: EvaluationJson,
}

#[derive(Serialize)]
struct RollAnalysisJson<'a> {
    position: String,
    dice: String,
    ply: u8,
    evaluator: &'a str,
    moves: Vec<RankedMoveJson>,
}

impl Serialize for RollAnalysis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pos = &self.position;
        RollAnalysisJson {
            position: pos.to_position_id(),
            dice: self.dice.to_string(),
            ply: self.plies,
            evaluator: &self.evaluator,
            moves: self
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| RankedMoveJson {
                    rank: i + 1,
                    notation: pos.format_move(&m.mv),
                    result: m.result.to_position_id(),
                    ply: m.plies,
                    equity: m.equity,
                    loss: m.loss,
                    probabilities: m.probabilities.into(),
                })
                .collect(),
        }
        .serialize(serializer)
    }
}

// -------------------------------------------------- cubeful roll analysis

#[derive(Serialize)]
struct CubefulMoveJson {
    rank: usize,
    /// gnubg notation.
    #[serde(rename = "move")]
    notation: String,
    /// Position ID after the move, seen by the opponent (now on roll).
    result: String,
    /// The depth this move was evaluated at.
    ply: u8,
    /// Cubeful equity for the mover, normalised (money: per unit of the
    /// cube; match: EMG).
    equity: f64,
    /// The mover's match winning chances (match play only).
    #[serde(skip_serializing_if = "Option::is_none")]
    mwc: Option<f64>,
    /// Equity lost against the best move, in the unit of `equity`.
    loss: f64,
    /// Cubeless money equity of the same probabilities.
    cubeless_equity: f32,
    probabilities: EvaluationJson,
}

#[derive(Serialize)]
struct CubefulRollAnalysisJson<'a> {
    position: String,
    dice: String,
    ply: u8,
    evaluator: &'a str,
    /// Always `true`: the moves are ranked by cubeful equity.
    cubeful: bool,
    /// The cube and the score the moves were valued in.
    context: CubeSettingsJson,
    moves: Vec<CubefulMoveJson>,
}

impl Serialize for CubefulRollAnalysis {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let pos = &self.position;
        CubefulRollAnalysisJson {
            position: pos.to_position_id(),
            dice: self.dice.to_string(),
            ply: self.plies,
            evaluator: &self.evaluator,
            cubeful: true,
            context: CubeSettingsJson::valued(&self.context, &self.met),
            moves: self
                .moves
                .iter()
                .enumerate()
                .map(|(i, m)| CubefulMoveJson {
                    rank: i + 1,
                    notation: pos.format_move(&m.mv),
                    result: m.result.to_position_id(),
                    ply: m.plies,
                    equity: m.equity,
                    mwc: m.mwc,
                    loss: m.loss,
                    cubeless_equity: m.probabilities.equity(),
                    probabilities: m.probabilities.into(),
                })
                .collect(),
        }
        .serialize(serializer)
    }
}

// ----------------------------------------------------------- cube decision

#[derive(Debug, Serialize)]
struct CubeSettingsJson {
    match_length: u32,
    score: [u32; 2],
    away: Option<[u32; 2]>,
    cube: u32,
    owner: &'static str,
    crawford: bool,
    post_crawford: bool,
    jacoby: bool,
    beaver: bool,
    /// The match equity table's name, in a match (absent in money play and
    /// where no table was used).
    #[serde(skip_serializing_if = "Option::is_none")]
    met: Option<String>,
}

impl CubeSettingsJson {
    /// The settings of `ctx`, valued with the table named `met` in a match.
    fn valued(ctx: &GameContext, met: &str) -> Self {
        CubeSettingsJson { met: (!ctx.is_money()).then(|| met.to_string()), ..ctx.into() }
    }
}

impl From<&GameContext> for CubeSettingsJson {
    fn from(ctx: &GameContext) -> Self {
        CubeSettingsJson {
            match_length: ctx.match_length,
            score: [ctx.score.0, ctx.score.1],
            away: ctx.away().map(|(x, y)| [x, y]),
            cube: ctx.cube_value,
            owner: owner_name(ctx.cube_owner),
            crawford: ctx.crawford,
            post_crawford: ctx.is_post_crawford(),
            jacoby: ctx.jacoby,
            beaver: ctx.beaver,
            met: None,
        }
    }
}

#[derive(Serialize)]
struct MwcJson {
    no_double: f64,
    double_take: f64,
    double_pass: f64,
    best: f64,
    cubeless: f64,
}

#[derive(Serialize)]
struct TakePointJson {
    model: f64,
    dead_cube: f64,
    live_cube: f64,
    no_gammons: f64,
    taker_chances: f64,
}

impl From<TakePoint> for TakePointJson {
    fn from(t: TakePoint) -> Self {
        TakePointJson {
            model: t.model,
            dead_cube: t.dead,
            live_cube: t.live,
            no_gammons: t.no_gammons,
            taker_chances: t.taker_chances,
        }
    }
}

#[derive(Serialize)]
struct CubeReportJson<'a> {
    position: String,
    /// Which part of the evaluator answers for the position.
    class: String,
    ply: u32,
    settings: CubeSettingsJson,
    probabilities: ProbabilitiesJson,
    efficiency: f64,
    gammon_prices: GammonPrices,
    cubeless_equity: f64,
    /// Normalised to the cube (gnubg's "EMG" in match play).
    no_double: f64,
    double_take: f64,
    double_pass: f64,
    best: f64,
    /// `best` times the cube value (money play: points).
    best_points: f64,
    mwc: Option<MwcJson>,
    can_double: bool,
    no_double_reason: Option<&'static str>,
    action: &'static str,
    action_code: u8,
    /// The action's short code for a table cell (`ND`, `DT`, `DP`, `TG`, …).
    action_short: &'static str,
    doubles: bool,
    response: Option<String>,
    take_point: Option<TakePointJson>,
    beaver_equity: Option<f64>,
    raccoon_equity: Option<f64>,
    notes: &'a [String],
    /// The facts' sentences, one line each.
    explanation: String,
    /// The same explanation as typed facts, in reading order.
    facts: Vec<FactJson>,
}

/// One fact of the explanation: its `kind` and typed fields (numbers as
/// numbers), and its sentence, the line of `explanation` it writes.
#[derive(Serialize)]
struct FactJson {
    #[serde(flatten)]
    fact: Fact,
    text: String,
}

/// The owner's name in JSON.
fn owner_name(owner: CubeOwner) -> &'static str {
    match owner {
        CubeOwner::Centered => "centre",
        CubeOwner::OnRoll => "me",
        CubeOwner::Opponent => "opponent",
    }
}

impl Serialize for CubeReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (ctx, a) = (&self.context, &self.analysis);
        CubeReportJson {
            position: self.position.to_position_id(),
            class: evaluated_by(self.class).to_string(),
            ply: u32::from(self.plies),
            settings: CubeSettingsJson::valued(ctx, &self.met),
            probabilities: a.probabilities.into(),
            efficiency: a.efficiency,
            gammon_prices: a.gammon_prices,
            cubeless_equity: a.cubeless_equity,
            no_double: a.no_double,
            double_take: a.double_take,
            double_pass: a.double_pass,
            best: a.best(),
            best_points: a.best() * f64::from(ctx.cube_value),
            mwc: a.match_chances.map(|m| MwcJson {
                no_double: m.no_double,
                double_take: m.double_take,
                double_pass: m.double_pass,
                best: a.best_mwc().unwrap_or(m.no_double),
                cubeless: m.cubeless,
            }),
            can_double: a.can_double(),
            no_double_reason: a.no_double_reason.map(|r| r.describe()),
            action: a.action.as_str(),
            action_code: a.action.code(),
            action_short: a.action.short(),
            doubles: a.action.doubles(),
            response: a.response().map(|r| r.to_string()),
            take_point: a.take_point.map(TakePointJson::from),
            beaver_equity: a.beaver_equity(),
            raccoon_equity: a.raccoon_equity(),
            notes: &self.notes,
            explanation: a.explain(),
            facts: a.facts().into_iter().map(|fact| FactJson { text: fact.to_string(), fact }).collect(),
        }
        .serialize(serializer)
    }
}

// ------------------------------------------------------------------ rollout

#[derive(Serialize)]
struct RolloutSettingsJson {
    games: u64,
    seed: u64,
    ply: u8,
    truncate: Option<u32>,
    variance_reduction: bool,
    quasi_random: bool,
    bearoff_exact: bool,
    cubeful: bool,
    target_se: Option<f64>,
    threads: usize,
    /// A match rollout's score and cube (absent in money play).
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    match_context: Option<CubeSettingsJson>,
}

impl RolloutSettingsJson {
    fn new(s: &RolloutSettings, threads: usize, match_context: Option<&GameContext>) -> Self {
        RolloutSettingsJson {
            games: s.trials,
            seed: s.seed,
            ply: s.ply,
            truncate: s.truncate,
            variance_reduction: s.variance_reduction,
            quasi_random: s.quasi_random,
            bearoff_exact: s.bearoff_exact,
            cubeful: s.cubeful,
            target_se: s.target_se,
            threads,
            match_context: match_context.map(Into::into),
        }
    }
}

#[derive(Serialize)]
struct RolloutResultJson {
    trials: u64,
    win: Estimate,
    win_gammon: Estimate,
    win_backgammon: Estimate,
    lose_gammon: Estimate,
    lose_backgammon: Estimate,
    equity: Estimate,
    /// Money play: the cubeful equity of cubeful rollouts.
    cubeful_equity: Option<Estimate>,
    /// A match: the match winning chances (cubeful, or with the cube as it
    /// is in cubeless rollouts).
    #[serde(skip_serializing_if = "Option::is_none")]
    mwc: Option<Estimate>,
    /// A match: the same as normalised equity (EMG).
    #[serde(skip_serializing_if = "Option::is_none")]
    emg: Option<Estimate>,
    target_reached: bool,
}

impl RolloutResultJson {
    /// `r` in money play (no `units`) or in a match.
    fn new(r: &RolloutResult, units: Option<&MatchUnits>) -> Self {
        let [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = r.probabilities;
        let of_match = |f: fn(&MatchUnits, &Estimate) -> Estimate| Some(f(units?, r.cubeful.as_ref()?));
        RolloutResultJson {
            trials: r.trials,
            win,
            win_gammon,
            win_backgammon,
            lose_gammon,
            lose_backgammon,
            equity: r.equity,
            cubeful_equity: if units.is_some() { None } else { r.cubeful },
            mwc: of_match(MatchUnits::mwc),
            emg: of_match(MatchUnits::emg),
            target_reached: r.target_reached,
        }
    }
}

#[derive(Serialize)]
struct MoveRolloutJson {
    rank: usize,
    /// gnubg notation (empty: no legal move).
    #[serde(rename = "move")]
    notation: String,
    /// Position ID after the move, seen by the opponent.
    result: String,
    /// The net's 0-ply cubeless equity of the move.
    static_equity: f64,
    rollout: RolloutResultJson,
    /// Headline equity (cubeful in cubeful rollouts) minus the best move's;
    /// in a match, match winning chances minus the best move's.
    difference: Estimate,
}

#[derive(Serialize)]
struct RolloutReportJson {
    position: String,
    dice: Option<String>,
    settings: RolloutSettingsJson,
    /// Only in a rollout stopped before all its games: `true`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    partial: bool,
    /// Only in a partial rollout: the games played (per move), in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    games_done: Option<u64>,
    seconds: f64,
    games_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    rollout: Option<RolloutResultJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveRolloutJson>>,
}

impl Serialize for RolloutReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let s = &self.settings;
        let units = self.match_units.as_ref();
        RolloutReportJson {
            position: self.position.to_position_id(),
            dice: self.dice.map(|d| d.to_string()),
            settings: RolloutSettingsJson::new(s, self.threads, units.map(|u| &u.context)),
            partial: self.interrupted(),
            games_done: self.interrupted().then(|| self.trials()),
            seconds: self.elapsed.as_secs_f64(),
            games_per_second: self.games_per_second(),
            rollout: match &self.outcome {
                RolloutOutcome::Position(r) => Some(RolloutResultJson::new(r, units)),
                RolloutOutcome::Moves(_) => None,
            },
            legal_moves: self.legal_moves,
            moves: match &self.outcome {
                RolloutOutcome::Position(_) => None,
                RolloutOutcome::Moves(moves) => Some(
                    moves
                        .iter()
                        .enumerate()
                        .map(|(i, m)| MoveRolloutJson {
                            rank: i + 1,
                            notation: self.position.format_move(&m.mv),
                            result: m.result.to_position_id(),
                            static_equity: m.static_equity,
                            rollout: RolloutResultJson::new(&m.rollout, units),
                            difference: units.map_or(m.difference, |u| u.mwc_difference(&m.difference)),
                        })
                        .collect(),
                ),
            },
        }
        .serialize(serializer)
    }
}

/// The standard errors of a rolled-out cube decision's equities.
#[derive(Serialize)]
struct CubeRolloutErrorsJson {
    no_double: f64,
    double_take: f64,
    /// Double/take minus no double: its value and the standard error of
    /// the paired games.
    double_take_minus_no_double: Estimate,
    /// In a match: the same for the match winning chances.
    #[serde(skip_serializing_if = "Option::is_none")]
    mwc: Option<CubeRolloutMwcErrorsJson>,
}

#[derive(Serialize)]
struct CubeRolloutMwcErrorsJson {
    no_double: f64,
    double_take: f64,
    double_take_minus_no_double: Estimate,
}

/// `gammon rollout --cube-decision --json`: what `gammon cube --json`
/// prints for the decision, read from the rollout, with the standard errors,
/// the games and the rollout's settings.
#[derive(Serialize)]
struct CubeRolloutJson<'a> {
    #[serde(flatten)]
    decision: &'a CubeReport,
    standard_errors: CubeRolloutErrorsJson,
    games: u64,
    /// Only in a rollout stopped before all its games: `true`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    partial: bool,
    rollout: RolloutSettingsJson,
    seconds: f64,
}

impl Serialize for CubeRolloutReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let in_match = (!self.report.context.is_money()).then_some(&self.report.context);
        CubeRolloutJson {
            decision: &self.report,
            standard_errors: CubeRolloutErrorsJson {
                no_double: self.no_double.standard_error,
                double_take: self.double_take.standard_error,
                double_take_minus_no_double: self.take_minus_no_double,
                mwc: self.mwc.map(|[nd, dt, diff]| CubeRolloutMwcErrorsJson {
                    no_double: nd.standard_error,
                    double_take: dt.standard_error,
                    double_take_minus_no_double: diff,
                }),
            },
            games: self.games,
            partial: self.interrupted,
            rollout: RolloutSettingsJson::new(&self.settings, self.threads, in_match),
            seconds: self.elapsed.as_secs_f64(),
        }
        .serialize(serializer)
    }
}

/// `gammon cube --matrix N --json`: the match, the depth, the table, and
/// one cube report a score (the object `gammon cube --json` prints there,
/// without its own `schema_version`), row by row: the away of the player on
/// roll from 2 to N, in each row the opponent's from 2 to N.
#[derive(Serialize)]
struct CubeMatrixJson<'a> {
    match_length: u32,
    ply: u8,
    met: Option<&'a str>,
    matrix: &'a [CubeReport],
}

impl Serialize for CubeMatrix {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        CubeMatrixJson {
            match_length: self.length,
            ply: self.plies,
            met: self.entries.first().map(|e| e.met.as_str()),
            matrix: &self.entries,
        }
        .serialize(serializer)
    }
}

// ------------------------------------------------------------ command frames

/// `gammon eval --json`: the position, which part of the evaluator
/// answered, the probabilities and the equity.
#[derive(Debug, Serialize)]
pub struct EvalJson {
    position: String,
    /// Which part of the evaluator answers for the position.
    class: String,
    #[serde(flatten)]
    evaluation: EvaluationJson,
}

impl From<&Evaluation> for EvalJson {
    fn from(e: &Evaluation) -> Self {
        EvalJson {
            position: e.position.to_position_id(),
            class: evaluated_by(e.class).to_string(),
            evaluation: e.probabilities.into(),
        }
    }
}

/// `gammon analyse --json` without dice: the evaluation and the cube
/// decision at the same depth, or why there is none.
#[derive(Debug, Serialize)]
pub struct PositionAnalysisJson<'a> {
    #[serde(flatten)]
    evaluation: &'a Evaluation,
    /// The cube decision of the player on roll at the same depth (`null`
    /// when there is none, see `cube_error`).
    cube: Option<&'a CubeReport>,
    /// Why there is no cube decision (a finished game, a score the match
    /// equity table does not cover).
    #[serde(skip_serializing_if = "Option::is_none")]
    cube_error: Option<&'a str>,
}

impl<'a> PositionAnalysisJson<'a> {
    /// The evaluation with its cube decision or the reason it has none.
    pub fn new(evaluation: &'a Evaluation, cube: &'a Result<CubeReport, String>) -> Self {
        let (cube, cube_error) = match cube {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(e.as_str())),
        };
        PositionAnalysisJson { evaluation, cube, cube_error }
    }
}

/// `gammon analyse --json` with dice: the cubeful analysis and the notes on
/// its context (what of the position the options kept), when there are any.
#[derive(Debug, Serialize)]
pub struct CubefulAnalysisJson<'a> {
    #[serde(flatten)]
    analysis: &'a CubefulRollAnalysis,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

impl<'a> CubefulAnalysisJson<'a> {
    /// The analysis with its notes.
    pub fn new(analysis: &'a CubefulRollAnalysis, notes: &'a [String]) -> Self {
        CubefulAnalysisJson { analysis, notes }
    }
}

/// A position as a board program draws it (the HTTP API's `/api/position`):
/// its IDs, each side's checkers, the pip counts and the game context.
#[derive(Debug, Serialize)]
pub struct PositionJson {
    position_id: String,
    /// The XGID of the position in its context.
    xgid: String,
    board: BoardJson,
    /// Pip counts: the player on roll's, then the opponent's.
    pips: [u32; 2],
    context: CubeSettingsJson,
    /// The rolled dice (as `31`), if the context has them.
    dice: Option<String>,
}

/// Each side's checkers in its own numbering: index 0 = borne off, 1–24 the
/// points, 25 = the bar.
#[derive(Debug, Serialize)]
struct BoardJson {
    on_roll: [u8; 26],
    opponent: [u8; 26],
}

impl PositionJson {
    /// The view of a request: its position in its context, with its dice
    /// (`gammon position --json`, `/api/position`).
    pub fn of_request(request: &super::Request) -> Self {
        let mut context = request.context;
        if let Some(d) = request.dice {
            context.dice = DiceState::Rolled(d);
        }
        PositionJson::new(&request.position, &context)
    }

    /// The view of `position` (player on roll) in `context`.
    pub fn new(position: &Position, context: &GameContext) -> Self {
        let (mine, theirs) = position.to_boards();
        let (off_mine, off_theirs) = position.borne_off();
        let side = |board: &gammon_rules::SideBoard, off: u8| {
            let mut out = [0u8; 26];
            out[0] = off;
            out[1..].copy_from_slice(board);
            out
        };
        let pips = position.pip_count();
        let dice = match context.dice {
            DiceState::Rolled(d) => Some(d.to_string()),
            _ => None,
        };
        PositionJson {
            position_id: position.to_position_id(),
            xgid: Xgid { position: *position, context: *context }.to_string(),
            board: BoardJson { on_roll: side(&mine, off_mine), opponent: side(&theirs, off_theirs) },
            pips: [pips.0, pips.1],
            context: context.into(),
            dice,
        }
    }
}

/// A step of a game against the engine (`POST /api/play`): what happened,
/// the state where the human acts next (the game state's text, for the
/// next request, and its XGID), what he is asked for and what he may do,
/// and the board.
#[derive(Debug, Serialize)]
pub struct PlayOutcomeJson<'a> {
    events: &'a [super::play::PlayEvent],
    /// The next request's `state`: the rules' game state ([`gammon_rules::Game`]).
    state: String,
    /// The position and its context as XGID, seen by `on_roll`.
    xgid: String,
    /// Who is on roll in `xgid` and `board`: the engine while its double,
    /// its raccoon or its offer to resign waits for the human.
    on_roll: super::play::Side,
    turn: super::play::HumanTurn,
    /// The actions the rules allow the human now.
    actions: &'a [super::play::ActionName],
    /// The resignations he may offer now.
    resign: &'a [super::play::ResultName],
    /// Human first.
    score: [u32; 2],
    /// The board of the state, seen by the side on roll in it.
    board: PositionJson,
}

impl<'a> PlayOutcomeJson<'a> {
    /// The JSON of `outcome`.
    pub fn new(outcome: &'a super::play::PlayOutcome) -> Self {
        let (position, context) = (*outcome.position(), outcome.game.context());
        PlayOutcomeJson {
            events: &outcome.events,
            state: outcome.game.to_string(),
            xgid: Xgid { position, context }.to_string(),
            on_roll: outcome.on_roll(),
            turn: outcome.turn,
            actions: &outcome.actions,
            resign: &outcome.resign,
            score: outcome.score,
            board: PositionJson::new(&position, &context),
        }
    }
}
