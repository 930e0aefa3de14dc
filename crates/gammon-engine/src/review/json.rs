//! The JSON of a review (`gammon review --json`), documented field by field
//! in `docs/review.md`.

use super::report::{ChequerReview, CubeReview, GameReview, MatchReview, PlayerSummary, RecordReview, StoredReview};
use super::{CubeChoice, CubeErrorKind, LuckCounts, LuckMark, Mark, MarkCounts, PlayerTotals};
use crate::api::CubefulMove;
use gammon_rules::{DiceState, GameResult, MatAction, MatchId, Position, StoredMove, WinHow};
use serde::{Serialize, Serializer};

#[derive(Serialize)]
struct MatchReviewJson<'a> {
    players: &'a [String; 2],
    match_length: u32,
    settings: SettingsJson,
    evaluator: &'a str,
    /// The program whose analysis the file stored (XG, OGXM): each record's
    /// `xg` and each summary's `xg` hold its figures.
    #[serde(skip_serializing_if = "Option::is_none")]
    stored_program: Option<&'a str>,
    games: Vec<GameJson>,
    summary: Vec<SummaryJson<'a>>,
    elapsed_seconds: f64,
    threads: usize,
    /// Stopped before the end: the review is of the first
    /// `records_reviewed` records of `records`.
    partial: bool,
    records: usize,
    records_reviewed: usize,
}

#[derive(Serialize)]
struct SettingsJson {
    ply: u8,
    cube_ply: u8,
    luck_ply: u8,
    candidates: usize,
    /// The root screen after 0 ply: at most `filter_moves` within `filter_window`.
    filter_moves: Option<usize>,
    filter_window: Option<f32>,
    /// The pubeval screen inside the lookahead (0: none).
    prune: usize,
    /// The match equity table's name (a match only).
    #[serde(skip_serializing_if = "Option::is_none")]
    met: Option<String>,
}

#[derive(Serialize)]
struct GameJson {
    number: u32,
    score: [u32; 2],
    crawford: bool,
    winner: Option<usize>,
    points: Option<u32>,
    records: Vec<RecordJson>,
}

#[derive(Serialize)]
struct RecordJson {
    player: usize,
    move_number: Option<u32>,
    line: usize,
    action: &'static str,
    /// Resignations and results: the points, and how the game was won.
    points: Option<u32>,
    result: Option<&'static str>,
    position_id: String,
    match_id: Option<String>,
    dice: Option<String>,
    #[serde(rename = "move")]
    mv: Option<String>,
    forced: Option<bool>,
    legal_moves: Option<usize>,
    best: Option<String>,
    best_after: Option<String>,
    equity_played: Option<f64>,
    equity_best: Option<f64>,
    mwc_played: Option<f64>,
    mwc_best: Option<f64>,
    loss: Option<f64>,
    loss_mwc: Option<f64>,
    mark: Option<Mark>,
    candidates: Option<Vec<CandidateJson>>,
    luck: Option<f64>,
    luck_mwc: Option<f64>,
    luck_mark: Option<LuckMark>,
    cube: Option<CubeJson>,
    /// The analysis the file stored for the record (XG's in an .xg file),
    /// beside gammon's.
    #[serde(skip_serializing_if = "Option::is_none")]
    xg: Option<StoredJson>,
}

/// A record's stored analysis, in gammon's units (normalised equity).
#[derive(Serialize)]
struct StoredJson {
    equity_played: Option<f64>,
    equity_best: Option<f64>,
    /// The equity the move played gave up by the stored numbers.
    loss: Option<f64>,
    /// The depth of the played move's valuation, as the program names it.
    depth: Option<String>,
    best_after: Option<String>,
    /// The doubler's values of the cube decision, and the error of this
    /// record's cube action by them.
    no_double: Option<f64>,
    double_take: Option<f64>,
    double_pass: Option<f64>,
    cube_error: Option<f64>,
    cube_depth: Option<String>,
}

#[derive(Serialize)]
struct CandidateJson {
    #[serde(rename = "move")]
    mv: String,
    after: String,
    ply: u8,
    equity: f64,
    mwc: Option<f64>,
    loss: f64,
    win: f32,
    win_gammon: f32,
    lose_gammon: f32,
}

#[derive(Serialize)]
struct CubeJson {
    /// The decision: `no_double` (before a roll), `double`, `take`, `beaver`, `pass`.
    choice: &'static str,
    nd: f64,
    dt: f64,
    dp: f64,
    nd_mwc: Option<f64>,
    dt_mwc: Option<f64>,
    dp_mwc: Option<f64>,
    /// gnubg's verdict, e.g. "Double, take".
    proper: String,
    error: f64,
    error_mwc: Option<f64>,
    kind: Option<CubeErrorKind>,
    close: bool,
    mark: Mark,
}

#[derive(Serialize)]
struct SummaryJson<'a> {
    name: &'a str,
    total_moves: usize,
    unforced_moves: usize,
    chequer_error_total: f64,
    chequer_error_total_mwc: f64,
    cube_decisions: usize,
    close_cube_decisions: usize,
    cube_error_total: f64,
    cube_error_total_mwc: f64,
    /// Rates in milli-equity per decision (gnubg's "mEMG"), `null` without decisions.
    chequer_error_rate: Option<f64>,
    cube_error_rate: Option<f64>,
    overall_error_rate: Option<f64>,
    snowie_error_rate: Option<f64>,
    pr: Option<f64>,
    luck_total: f64,
    luck_total_mwc: f64,
    luck_rate: Option<f64>,
    luck_rating: Option<&'static str>,
    marks: MarksJson,
    cube_errors: &'a [(CubeErrorKind, usize)],
    rating: Option<&'static str>,
    chequer_rating: Option<&'static str>,
    cube_rating: Option<&'static str>,
    /// The same rates by the stored analysis's numbers (a file with one).
    #[serde(skip_serializing_if = "Option::is_none")]
    xg: Option<StoredSummaryJson>,
}

#[derive(Serialize)]
struct StoredSummaryJson {
    moves: usize,
    chequer_error_total: f64,
    cube_decisions: usize,
    cube_error_total: f64,
    chequer_error_rate: Option<f64>,
    cube_error_rate: Option<f64>,
    overall_error_rate: Option<f64>,
    pr: Option<f64>,
}

#[derive(Serialize)]
struct MarksJson {
    moves: MarkCounts,
    cube: MarkCounts,
    rolls: LuckCounts,
}

fn level_name(r: GameResult) -> &'static str {
    match r {
        GameResult::Single => "single",
        GameResult::Gammon => "gammon",
        GameResult::Backgammon => "backgammon",
    }
}

fn milli(r: Option<f64>) -> Option<f64> {
    r.map(|r| 1000.0 * r)
}

fn candidate(pos: &Position, m: &CubefulMove) -> CandidateJson {
    CandidateJson {
        mv: pos.format_move(&m.mv),
        after: m.result.to_position_id(),
        ply: m.plies,
        equity: m.equity,
        mwc: m.mwc,
        loss: m.loss,
        win: m.probabilities.win,
        win_gammon: m.probabilities.win_gammon,
        lose_gammon: m.probabilities.lose_gammon,
    }
}

fn cube_json(c: &CubeReview) -> CubeJson {
    let a = &c.analysis;
    let mwc = a.match_chances;
    CubeJson {
        choice: match c.choice {
            CubeChoice::NoDouble => "no_double",
            CubeChoice::Double => "double",
            CubeChoice::Take => "take",
            CubeChoice::Beaver => "beaver",
            CubeChoice::Pass => "pass",
        },
        nd: a.no_double,
        dt: a.double_take,
        dp: a.double_pass,
        nd_mwc: mwc.map(|m| m.no_double),
        dt_mwc: mwc.map(|m| m.double_take),
        dp_mwc: mwc.map(|m| m.double_pass),
        proper: a.action.to_string(),
        error: c.error,
        error_mwc: c.error_mwc,
        kind: c.kind,
        close: c.close,
        mark: c.mark,
    }
}

fn stored_json(s: &StoredReview) -> StoredJson {
    let chequer = s.record.chequer.as_ref();
    let played = chequer.and_then(|c| c.candidates.get(c.played?));
    let best = chequer.and_then(StoredMove::best);
    let cube = s.record.cube.as_ref();
    StoredJson {
        equity_played: played.map(|c| c.equity),
        equity_best: best.map(|c| c.equity),
        loss: s.loss,
        depth: played.map(|c| c.depth.clone()),
        best_after: best.map(|c| c.after.to_position_id()),
        no_double: cube.map(|c| c.no_double),
        double_take: cube.map(|c| c.double_take),
        double_pass: cube.map(|c| c.double_pass),
        cube_error: s.cube_error,
        cube_depth: cube.map(|c| c.depth.clone()),
    }
}

fn chequer_fields(r: &mut RecordJson, pos: &Position, c: &ChequerReview) {
    r.forced = Some(c.forced);
    r.legal_moves = Some(c.legal_moves);
    r.best = Some(pos.format_move(&c.best.mv));
    r.best_after = Some(c.best.result.to_position_id());
    r.equity_played = Some(c.played.equity);
    r.equity_best = Some(c.best.equity);
    r.mwc_played = c.played.mwc;
    r.mwc_best = c.best.mwc;
    r.loss = Some(c.loss);
    r.loss_mwc = c.loss_mwc;
    r.mark = Some(c.mark);
    r.candidates = Some(c.candidates.iter().map(|m| candidate(pos, m)).collect());
}

fn record_json(r: &RecordReview) -> RecordJson {
    let pos = &r.position;
    let mut ctx = r.context;
    let (action, points, result) = match &r.action {
        MatAction::Move { .. } | MatAction::Dance { .. } => ("move", None, None),
        MatAction::Double { .. } => ("double", None, None),
        MatAction::Take => ("take", None, None),
        MatAction::Beaver => ("beaver", None, None),
        MatAction::Drop => ("drop", None, None),
        MatAction::Resign { points, level } => ("resign", Some(*points), Some(level_name(*level))),
        MatAction::Win { points, how } => (
            "win",
            Some(*points),
            Some(match how {
                WinHow::Played(r) => level_name(*r),
                WinHow::Passed => "passed",
                WinHow::Resigned(_) => "resigned",
            }),
        ),
    };
    if let Some(d) = r.dice() {
        ctx.dice = DiceState::Rolled(d);
    }
    let mut out = RecordJson {
        player: r.player.index(),
        move_number: r.move_number,
        line: r.line,
        action,
        points,
        result,
        position_id: pos.to_position_id(),
        match_id: MatchId::from_context(&ctx, r.player).ok().map(|m| m.to_string()),
        dice: r.dice().map(|d| d.to_string()),
        mv: match &r.action {
            MatAction::Move { mv, .. } => Some(pos.format_move(mv)),
            MatAction::Dance { .. } => Some(String::new()),
            _ => None,
        },
        forced: matches!(r.action, MatAction::Dance { .. }).then_some(true),
        legal_moves: matches!(r.action, MatAction::Dance { .. }).then_some(0),
        best: None,
        best_after: None,
        equity_played: None,
        equity_best: None,
        mwc_played: None,
        mwc_best: None,
        loss: None,
        loss_mwc: None,
        mark: None,
        candidates: None,
        luck: r.luck.map(|l| l.luck),
        luck_mwc: r.luck.and_then(|l| l.luck_mwc),
        luck_mark: r.luck.map(|l| l.mark),
        cube: r.cube.as_ref().map(cube_json),
        xg: r.stored.as_ref().map(stored_json),
    };
    if let Some(c) = &r.chequer {
        chequer_fields(&mut out, pos, c);
    }
    out
}

fn game_json(g: &GameReview) -> GameJson {
    GameJson {
        number: g.number,
        score: g.score,
        crawford: g.crawford,
        winner: g.result.map(|(s, _)| s.index()),
        points: g.result.map(|(_, p)| p),
        records: g.records.iter().map(record_json).collect(),
    }
}

fn summary_json(s: &PlayerSummary, stored: bool) -> SummaryJson<'_> {
    let x = &s.stored;
    SummaryJson {
        name: &s.name,
        total_moves: s.total_moves,
        unforced_moves: s.unforced_moves,
        chequer_error_total: s.chequer_error,
        chequer_error_total_mwc: s.chequer_error_mwc,
        cube_decisions: s.cube_decisions,
        close_cube_decisions: s.close_cube_decisions,
        cube_error_total: s.cube_error,
        cube_error_total_mwc: s.cube_error_mwc,
        chequer_error_rate: milli(s.chequer_error_rate()),
        cube_error_rate: milli(s.cube_error_rate()),
        overall_error_rate: milli(s.overall_error_rate()),
        snowie_error_rate: milli(s.snowie_error_rate()),
        pr: s.pr(),
        luck_total: s.luck,
        luck_total_mwc: s.luck_mwc,
        luck_rate: milli(s.luck_rate()),
        luck_rating: s.luck_rate().map(super::luck_rating),
        marks: MarksJson { moves: s.move_marks, cube: s.cube_marks, rolls: s.luck_marks },
        cube_errors: &s.cube_errors,
        rating: s.rating().map(|r| r.name()),
        chequer_rating: s.chequer_rating().map(|r| r.name()),
        cube_rating: s.cube_rating().map(|r| r.name()),
        xg: stored.then(|| StoredSummaryJson {
            moves: x.moves,
            chequer_error_total: x.chequer_error,
            cube_decisions: x.cube_decisions,
            cube_error_total: x.cube_error,
            chequer_error_rate: milli(x.chequer_error_rate()),
            cube_error_rate: milli(x.cube_error_rate()),
            overall_error_rate: milli(x.overall_error_rate()),
            pr: x.pr(),
        }),
    }
}

impl Serialize for MatchReview {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let root = self.settings.filter.root[0];
        MatchReviewJson {
            players: &self.players,
            match_length: self.match_length,
            settings: SettingsJson {
                ply: self.settings.plies,
                cube_ply: self.settings.cube_plies,
                luck_ply: self.settings.luck_plies,
                candidates: self.settings.candidates,
                filter_moves: root.map(|c| c.max),
                filter_window: root.map(|c| c.window),
                prune: self.settings.prune,
                met: (self.match_length > 0).then(|| self.met.clone()),
            },
            evaluator: &self.evaluator,
            stored_program: self.stored_program.as_deref(),
            games: self.games.iter().map(game_json).collect(),
            summary: self.summary.iter().map(|s| summary_json(s, self.stored_program.is_some())).collect(),
            elapsed_seconds: self.elapsed.as_secs_f64(),
            threads: self.threads,
            partial: self.is_partial(),
            records: self.records,
            records_reviewed: self.records_reviewed,
        }
        .serialize(serializer)
    }
}

/// A player's totals across matches: the summary's fields (its `xg` when
/// any of the matches stored another program's analysis) and `matches`.
#[derive(Serialize)]
struct PlayerTotalsJson<'a> {
    matches: usize,
    #[serde(flatten)]
    summary: SummaryJson<'a>,
}

impl Serialize for PlayerTotals {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let s = &self.summary;
        let stored = s.stored.moves + s.stored.cube_decisions > 0;
        PlayerTotalsJson { matches: self.matches, summary: summary_json(s, stored) }.serialize(serializer)
    }
}
