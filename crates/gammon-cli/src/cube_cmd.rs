//! `gammon cube`: the doubling-cube decision of a position, money or match
//! play, as gnubg prints it, with an explanation.
//!
//! By default the decision is searched 2 plies deep, like gnubg's standard
//! 2-ply cube analysis: cubeful equities are carried through the plies
//! (Janowski's model at the leaves, both sides' best cube actions at every
//! node below the root; [`analyse_state_nply`]). `--ply 0` is the static
//! evaluation fed to Janowski's model. The n-ply search plays the moves
//! inside the lookahead by the net's cubeless static evaluation where gnubg
//! plays them by its cubeful 0-ply evaluation (and may pre-select them with
//! its pruning nets), and it has no exact cubeful bearoff database; so it
//! follows gnubg's method, not its numbers.

use crate::evaluators;
use crate::json::ProbabilitiesJson;
use crate::position_arg::parse_position;
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::cube::{analyse_state_nply, CubeAnalysis, CubeState, Stakes, TakePoint};
use gammon_engine::met::{GammonPrices, Met};
use gammon_engine::search::Search;
use gammon_rules::{CubeOwner, DiceState, GameContext, Position, Xgid};
use serde::Serialize;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `gammon cube`.
#[derive(Debug, Args)]
pub struct CubeArgs {
    /// The position, player on roll before rolling: Position ID, XGID or
    /// `start`. An XGID also gives the cube, its owner, the score, the match
    /// length and the Crawford/Jacoby/beaver rules; the options below
    /// override it.
    position: String,
    /// Cube value: 1, 2, 4, ...
    #[arg(long)]
    cube: Option<u32>,
    /// Who owns the cube: `me` (the player on roll), `opponent` or `centre`.
    #[arg(long, value_parser = parse_owner)]
    owner: Option<CubeOwner>,
    /// Match length in points; 0 = money play.
    #[arg(long = "match", value_name = "POINTS")]
    match_length: Option<u32>,
    /// Points already won, player on roll first, e.g. `2-4`.
    #[arg(long, value_parser = parse_score)]
    score: Option<(u32, u32)>,
    /// This is the Crawford game (someone is 1 point from winning the match).
    #[arg(long, conflicts_with = "no_crawford")]
    crawford: bool,
    /// This is not the Crawford game (overrides an XGID).
    #[arg(long)]
    no_crawford: bool,
    /// Money play: the Jacoby rule (gammons count single until the cube is turned).
    #[arg(long, conflicts_with = "no_jacoby")]
    jacoby: bool,
    /// Money play: no Jacoby rule (overrides an XGID).
    #[arg(long)]
    no_jacoby: bool,
    /// Money play: beavers (and raccoons) allowed.
    #[arg(long, conflicts_with = "no_beaver")]
    beaver: bool,
    /// Money play: no beavers (overrides an XGID).
    #[arg(long)]
    no_beaver: bool,
    /// Lookahead in plies, counted as gnubg counts them: 0 = the static
    /// evaluation fed to Janowski's cube model; 1 to 3 = cubeful equities
    /// searched that deep (gnubg's method; 2 is gnubg's standard).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=3))]
    ply: u8,
    /// Weights file to use instead of the built-in net.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

fn parse_owner(text: &str) -> Result<CubeOwner, String> {
    match text.to_ascii_lowercase().as_str() {
        "me" | "x" | "on-roll" | "player" => Ok(CubeOwner::OnRoll),
        "opponent" | "opp" | "o" | "him" => Ok(CubeOwner::Opponent),
        "centre" | "center" | "centred" | "centered" | "none" => Ok(CubeOwner::Centered),
        _ => Err(format!("{text:?}: the owner is `me`, `opponent` or `centre`")),
    }
}

fn parse_score(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?}: a score is two numbers of points already won, player on roll first, e.g. 2-4");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

fn owner_name(owner: CubeOwner) -> &'static str {
    match owner {
        CubeOwner::Centered => "centre",
        CubeOwner::OnRoll => "me",
        CubeOwner::Opponent => "opponent",
    }
}

/// The position and its game context, with the options applied, and notes
/// about what was ignored.
fn read_input(args: &CubeArgs) -> Result<(Position, GameContext, Vec<String>)> {
    let position = parse_position(&args.position)?.position;
    let (mut ctx, mut notes) = context_of(&args.position)?;
    if let Some(length) = args.match_length {
        ctx.match_length = length;
        if length > 0 {
            // Money rules from an XGID do not carry into a match.
            ctx.jacoby = false;
            ctx.beaver = false;
        } else {
            ctx.crawford = false;
        }
    }
    if let Some(score) = args.score {
        ctx.score = score;
    }
    if let Some(cube) = args.cube {
        ctx.cube_value = cube;
    }
    if let Some(owner) = args.owner {
        ctx.cube_owner = owner;
    }
    ctx.crawford = (ctx.crawford || args.crawford) && !args.no_crawford;
    ctx.jacoby = (ctx.jacoby || args.jacoby) && !args.no_jacoby;
    ctx.beaver = (ctx.beaver || args.beaver) && !args.no_beaver;
    if ctx.cube_value > 1 && ctx.cube_owner == CubeOwner::Centered {
        bail!(
            "the cube is at {} but centred: a turned cube belongs to someone; say who owns it with --owner me or --owner opponent",
            ctx.cube_value
        );
    }
    if ctx.match_length > 0 && args.score.is_none() && args.match_length.is_some() && ctx.score != (0, 0) {
        notes.push(format!("score {}-{} kept from the position", ctx.score.0, ctx.score.1));
    }
    Ok((position, ctx, notes))
}

#[derive(Serialize)]
pub(crate) struct SettingsJson {
    match_length: u32,
    score: [u32; 2],
    away: Option<[u32; 2]>,
    cube: u32,
    owner: &'static str,
    crawford: bool,
    post_crawford: bool,
    jacoby: bool,
    beaver: bool,
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

/// A cube decision as JSON (`gammon cube --json`, and the `cube` object of
/// `gammon analyse --json`).
#[derive(Serialize)]
pub(crate) struct CubeJson {
    position: String,
    evaluator: String,
    ply: u32,
    settings: SettingsJson,
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
    doubles: bool,
    response: Option<String>,
    take_point: Option<TakePointJson>,
    beaver_equity: Option<f64>,
    raccoon_equity: Option<f64>,
    notes: Vec<String>,
    explanation: String,
}

/// The JSON of a cube decision.
pub(crate) fn to_json(
    pos: &Position,
    ctx: &GameContext,
    evaluator: String,
    ply: u8,
    a: &CubeAnalysis,
    notes: Vec<String>,
) -> CubeJson {
    let p = a.probabilities;
    let away = ctx.away().map(|(x, y)| [x, y]);
    CubeJson {
        position: pos.to_position_id(),
        evaluator,
        ply: u32::from(ply),
        settings: SettingsJson {
            match_length: ctx.match_length,
            score: [ctx.score.0, ctx.score.1],
            away,
            cube: ctx.cube_value,
            owner: owner_name(ctx.cube_owner),
            crawford: ctx.crawford,
            post_crawford: ctx.is_post_crawford(),
            jacoby: ctx.jacoby,
            beaver: ctx.beaver,
        },
        probabilities: ProbabilitiesJson::from(p),
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
        doubles: a.action.doubles(),
        response: a.response().map(|r| r.to_string()),
        take_point: a.take_point.map(TakePointJson::from),
        beaver_equity: a.beaver_equity(),
        raccoon_equity: a.raccoon_equity(),
        notes,
        explanation: a.explain(),
    }
}

/// One line: money or match, score, cube and rules.
pub(crate) fn setting_line(ctx: &GameContext, state: &CubeState) -> String {
    let owner = match ctx.cube_owner {
        CubeOwner::Centered => "centred",
        CubeOwner::OnRoll => "owned by X",
        CubeOwner::Opponent => "owned by O",
    };
    match state.stakes {
        Stakes::Money { jacoby, beaver } => format!(
            "Money game, cube {} {owner}, Jacoby rule {}, beavers {}",
            ctx.cube_value,
            if jacoby { "on" } else { "off" },
            if beaver { "allowed" } else { "not allowed" }
        ),
        Stakes::Match { length, away, crawford } => {
            let phase = if crawford {
                ", Crawford game"
            } else if away.0 == 1 || away.1 == 1 {
                ", post-Crawford"
            } else {
                ""
            };
            format!(
                "{length}-point match, score X {} - O {} (X {}-away, O {}-away){phase}, cube {} {owner}",
                ctx.score.0, ctx.score.1, away.0, away.1, ctx.cube_value
            )
        }
    }
}

fn print_text(
    out: &mut impl Write,
    pos: &Position,
    ctx: &GameContext,
    evaluator: &str,
    ply: u8,
    a: &CubeAnalysis,
    notes: &[String],
) -> std::io::Result<()> {
    write!(out, "{pos}")?;
    writeln!(out)?;
    writeln!(out, " {}", setting_line(ctx, &a.state))?;
    for n in notes {
        writeln!(out, " Note: {n}")?;
    }
    writeln!(out)?;
    writeln!(out, "Cube analysis ({ply} ply, {evaluator})")?;
    let p = a.probabilities;
    match a.match_chances {
        Some(m) => writeln!(
            out,
            "{ply}-ply cubeless equity {:+.3} (match winning chances {:.2}%; money: {:+.3})",
            a.cubeless_equity,
            100.0 * m.cubeless,
            p.equity()
        )?,
        None => writeln!(out, "{ply}-ply cubeless equity {:+.3}", a.cubeless_equity)?,
    }
    writeln!(
        out,
        "  {:.3} {:.3} {:.3} - {:.3} {:.3} {:.3}",
        p.win,
        p.win_gammon,
        p.win_backgammon,
        1.0 - p.win,
        p.lose_gammon,
        p.lose_backgammon
    )?;
    writeln!(out, "Cube efficiency x = {:.3}", a.efficiency)?;
    write_decision(out, ctx, ply, a, "")
}

/// The cubeful equities, the proper action and the explanation, each line
/// after `indent`.
pub(crate) fn write_decision(
    out: &mut impl Write,
    ctx: &GameContext,
    ply: u8,
    a: &CubeAnalysis,
    indent: &str,
) -> std::io::Result<()> {
    let searched = if ply > 0 { format!(", searched {ply} plies") } else { String::new() };
    if ctx.cube_value > 1 {
        writeln!(
            out,
            "{indent}Cubeful equities (normalised to the cube; times {} for points{searched}):",
            ctx.cube_value
        )?;
    } else if ply > 0 {
        writeln!(out, "{indent}Cubeful equities (searched {ply} plies):")?;
    } else {
        writeln!(out, "{indent}Cubeful equities:")?;
    }
    for (i, (choice, eq, mwc, diff)) in a.ranked().into_iter().enumerate() {
        let mwc = mwc.map_or(String::new(), |m| format!("  {:>7.3}%", 100.0 * m));
        if i == 0 {
            writeln!(out, "{indent}{}. {:<20}{:+.3}{mwc}", i + 1, choice.as_str(), eq)?;
        } else {
            writeln!(out, "{indent}{}. {:<20}{:+.3}{mwc}  ({:+.3})", i + 1, choice.as_str(), eq, diff)?;
        }
    }
    writeln!(out, "{indent}Proper cube action: {}", a.action)?;
    if let Some(b) = a.beaver_equity() {
        writeln!(
            out,
            "{indent}If O beavers: {b:+.3} for X (cube at four times; a raccoon would make it {:+.3})",
            2.0 * b
        )?;
    }
    writeln!(out)?;
    for line in a.explain().lines() {
        writeln!(out, "{indent} {line}")?;
    }
    if ply > 0 && a.can_double() && a.take_point.is_none() {
        writeln!(
            out,
            "{indent} (Janowski's take point at these {ply}-ply chances points the other way than the {ply}-ply search, which decides; so it is not shown.)"
        )?;
    }
    Ok(())
}

/// The context a position argument carries: an XGID's (with the dice
/// state set to "before the roll" and a note about it), money play with a
/// centred cube for anything else.
pub(crate) fn context_of(text: &str) -> Result<(GameContext, Vec<String>)> {
    let text = text.trim();
    let mut notes = Vec::new();
    if !(text.starts_with("XGID=") || text.contains(':')) {
        return Ok((GameContext::money(), notes));
    }
    let mut ctx = Xgid::parse(text).with_context(|| format!("cannot read XGID {text:?}"))?.context;
    match ctx.dice {
        DiceState::ToRoll => {}
        DiceState::Rolled(d) => {
            notes.push(format!("the dice ({d}) are ignored: the cube decision comes before the roll"));
        }
        DiceState::Doubled => notes.push("X has doubled: the analysis shows whether that was right and O's answer".into()),
        DiceState::Beavered | DiceState::Raccooned => notes.push(
            "a beaver (or raccoon) is pending: the analysis is of X's original double; see the beaver and raccoon equities"
                .into(),
        ),
    }
    ctx.dice = DiceState::ToRoll;
    Ok((ctx, notes))
}

/// Runs `gammon cube`.
pub fn run(args: &CubeArgs) -> Result<()> {
    let (pos, ctx, notes) = read_input(args)?;
    if pos.game_result().is_some() {
        bail!("the game is over in this position: there is no cube decision");
    }
    let met = Met::kazaross_xg2();
    let state = CubeState::from_context(&ctx, met).context("cannot analyse the cube at this score and cube")?;
    let net = evaluators::net(args.weights.as_deref())?;
    let class = net.evaluate_with(&pos, &mut net.scratch()).1;
    let search = Search::new(net);
    let analysis = analyse_state_nply(&search, &pos, &state, met, args.ply)?;
    if ctx.cube_owner == CubeOwner::Opponent {
        let mwc = analysis
            .match_chances
            .map_or(String::new(), |m| format!(", {:.2}% match winning chances", 100.0 * m.no_double));
        bail!(
            "X (the player on roll) cannot double: O owns the {}-cube. Playing on is worth {:+.3} for X (normalised to the cube{mwc}). \
             To see O's redouble and X's take or pass, give the position with O on roll and --owner me.",
            ctx.cube_value,
            analysis.no_double
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        let json = to_json(&pos, &ctx, class.to_string(), args.ply, &analysis, notes);
        writeln!(out, "{}", serde_json::to_string_pretty(&json)?)?;
    } else {
        print_text(&mut out, &pos, &ctx, &class.to_string(), args.ply, &analysis, &notes)?;
    }
    out.flush()?;
    Ok(())
}
