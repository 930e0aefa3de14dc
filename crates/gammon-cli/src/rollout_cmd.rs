//! `gammon rollout`: Monte Carlo rollouts of a position (the player on roll,
//! before rolling) or of the candidate moves of a roll.

use crate::evaluators;
use crate::position_arg::parse_position;
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::rollout::{
    rollout_moves, rollout_position, Estimate, MoveRollout, RolloutProgress, RolloutResult, RolloutSettings, BATCH,
};
use gammon_rules::{Dice, Position};
use serde::Serialize;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Arguments of `gammon rollout`.
#[derive(Debug, Args)]
#[command(after_help = "Each game (trial) k uses dice stream k of the seed, so the result depends only on the \
seed and the settings, never on --threads. Variance reduction subtracts the luck of every roll (its 0-ply \
value against the average of all 21 rolls); the first two rolls are stratified over the 1296 possible pairs. \
With --dice (or an XGID carrying dice) every candidate move is rolled out with the same dice and ranked; \
differences to the best move come with the standard error of the paired games.")]
pub struct RolloutArgs {
    /// The position, player on roll: Position ID, XGID or `start`.
    position: String,
    /// Roll out the moves of this roll, like `31`, instead of the position
    /// before the roll (an XGID may carry the dice instead).
    #[arg(long)]
    dice: Option<String>,
    /// The most games to play.
    #[arg(long, default_value_t = BATCH)]
    games: u64,
    /// Chequer play of the rollout players: 0 (the net's best move) or 1
    /// (the best of the net's candidates after every reply).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=1))]
    ply: u8,
    /// Stop each game after this many half-moves and take the net's
    /// evaluation there (0: the static evaluation).
    #[arg(long, value_name = "K")]
    truncate: Option<u32>,
    /// Also play a money cube (centred, 0-ply Janowski cube decisions) and
    /// report the cubeful equity.
    #[arg(long)]
    cubeful: bool,
    /// Dice seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per core); the result does not depend on them.
    #[arg(long)]
    threads: Option<usize>,
    /// Stop early, after a block of 1296 games, once the standard error of
    /// the equity (of every move) is at most this.
    #[arg(long, value_name = "X")]
    target_se: Option<f64>,
    /// No variance reduction (luck adjustment).
    #[arg(long)]
    no_vr: bool,
    /// Random first rolls instead of the stratified ones.
    #[arg(long)]
    no_quasi_random: bool,
    /// Play bearoffs out instead of taking the bearoff database's values.
    #[arg(long)]
    no_bearoff: bool,
    /// With dice: roll out the best N moves by the net's static judgement
    /// (0: every legal move).
    #[arg(long, value_name = "N", default_value_t = 8)]
    moves: usize,
    /// Weights file to use instead of the built-in net.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct SettingsJson {
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
}

#[derive(Serialize)]
struct ResultJson {
    trials: u64,
    win: Estimate,
    win_gammon: Estimate,
    win_backgammon: Estimate,
    lose_gammon: Estimate,
    lose_backgammon: Estimate,
    equity: Estimate,
    cubeful_equity: Option<Estimate>,
    target_reached: bool,
}

impl From<&RolloutResult> for ResultJson {
    fn from(r: &RolloutResult) -> Self {
        let [win, win_gammon, win_backgammon, lose_gammon, lose_backgammon] = r.probabilities;
        ResultJson {
            trials: r.trials,
            win,
            win_gammon,
            win_backgammon,
            lose_gammon,
            lose_backgammon,
            equity: r.equity,
            cubeful_equity: r.cubeful,
            target_reached: r.target_reached,
        }
    }
}

#[derive(Serialize)]
struct MoveJson {
    rank: usize,
    /// gnubg notation (empty: no legal move).
    #[serde(rename = "move")]
    notation: String,
    /// Position ID after the move, seen by the opponent.
    result: String,
    /// The net's 0-ply cubeless equity of the move.
    static_equity: f64,
    rollout: ResultJson,
    /// Headline equity (cubeful in cubeful rollouts) minus the best move's.
    difference: Estimate,
}

#[derive(Serialize)]
struct OutputJson {
    position: String,
    dice: Option<String>,
    settings: SettingsJson,
    seconds: f64,
    games_per_second: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    rollout: Option<ResultJson>,
    #[serde(skip_serializing_if = "Option::is_none")]
    legal_moves: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveJson>>,
}

/// A progress line on standard error, at most four times a second, when it
/// is a terminal.
struct Progress {
    shown: bool,
    last: Mutex<Option<Instant>>,
    cubeful: bool,
}

impl Progress {
    fn show(&self, p: &RolloutProgress) {
        if !self.shown {
            return;
        }
        let Ok(mut last) = self.last.lock() else { return };
        let now = Instant::now();
        if last.is_some_and(|t| now.duration_since(t) < Duration::from_millis(250)) && p.trials < p.max_trials {
            return;
        }
        *last = Some(now);
        let what = if self.cubeful { "cubeful equity" } else { "equity" };
        let lead = if p.leader.is_some() { " (leading move)" } else { "" };
        let pct = 100.0 * p.trials as f64 / p.max_trials as f64;
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r\x1b[Krollout: {}/{} games ({pct:.0}%), {what}{lead} {:+.4} ± {:.4}",
            p.trials, p.max_trials, p.equity, p.standard_error
        );
        let _ = err.flush();
    }

    fn clear(&self) {
        if self.shown {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }
}

/// Runs `gammon rollout`.
pub fn run(args: &RolloutArgs) -> Result<()> {
    let arg = parse_position(&args.position)?;
    let dice = match &args.dice {
        Some(d) => Some(d.parse::<Dice>().with_context(|| format!("cannot read dice {d:?}"))?),
        None => arg.dice,
    };
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if let Some(t) = args.target_se {
        if !(t.is_finite() && t > 0.0) {
            bail!("--target-se must be a positive number, not {t}");
        }
    }
    let pos = arg.position;
    if dice.is_some() && pos.game_result().is_some() {
        bail!("the game in this position is over: there are no moves to roll out");
    }
    let net = evaluators::net(args.weights.as_deref())?;
    let settings = RolloutSettings {
        trials: args.games,
        seed: args.seed,
        truncate: args.truncate,
        variance_reduction: !args.no_vr,
        quasi_random: !args.no_quasi_random,
        cubeful: args.cubeful,
        target_se: args.target_se,
        ply: args.ply,
        bearoff_exact: !args.no_bearoff,
        candidates: if args.moves == 0 { None } else { Some(args.moves) },
    };
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        if t == 0 {
            bail!("--threads must be at least 1");
        }
        pool = pool.num_threads(t);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let threads = pool.current_num_threads();
    let progress = Progress { shown: std::io::stderr().is_terminal(), last: Mutex::new(None), cubeful: args.cubeful };
    let began = Instant::now();
    let outcome = pool.install(|| match dice {
        None => rollout_position(&net, &pos, &settings, |p| progress.show(p)).map(|r| Outcome::Position(Box::new(r))),
        Some(d) => rollout_moves(&net, &pos, d, &settings, |p| progress.show(p)).map(Outcome::Moves),
    });
    progress.clear();
    let outcome = outcome.context("the rollout failed")?;
    let seconds = began.elapsed().as_secs_f64();
    let legal = dice.map(|d| pos.legal_moves(d).len());
    let report = Report { pos, dice, settings, threads, seconds, legal };
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report.json(&outcome))?;
        writeln!(out)?;
    } else {
        report.text(&mut out, &outcome)?;
    }
    out.flush()?;
    Ok(())
}

enum Outcome {
    Position(Box<RolloutResult>),
    Moves(Vec<MoveRollout>),
}

impl Outcome {
    /// Games played (per move).
    fn trials(&self) -> u64 {
        match self {
            Outcome::Position(r) => r.trials,
            Outcome::Moves(m) => m.first().map_or(0, |m| m.rollout.trials),
        }
    }

    /// Games played in all.
    fn games(&self) -> u64 {
        match self {
            Outcome::Position(r) => r.trials,
            Outcome::Moves(m) => m.iter().map(|m| m.rollout.trials).sum(),
        }
    }
}

struct Report {
    pos: Position,
    dice: Option<Dice>,
    settings: RolloutSettings,
    threads: usize,
    seconds: f64,
    legal: Option<usize>,
}

fn signed(x: f64) -> String {
    format!("{x:+.4}")
}

fn interval(e: &Estimate) -> String {
    format!("[{:+.4}, {:+.4}]", e.low, e.high)
}

impl Report {
    fn games_per_second(&self, outcome: &Outcome) -> f64 {
        if self.seconds > 0.0 {
            outcome.games() as f64 / self.seconds
        } else {
            0.0
        }
    }

    fn json(&self, outcome: &Outcome) -> OutputJson {
        let s = &self.settings;
        OutputJson {
            position: self.pos.to_position_id(),
            dice: self.dice.map(|d| d.to_string()),
            settings: SettingsJson {
                games: s.trials,
                seed: s.seed,
                ply: s.ply,
                truncate: s.truncate,
                variance_reduction: s.variance_reduction,
                quasi_random: s.quasi_random,
                bearoff_exact: s.bearoff_exact,
                cubeful: s.cubeful,
                target_se: s.target_se,
                threads: self.threads,
            },
            seconds: self.seconds,
            games_per_second: self.games_per_second(outcome),
            rollout: match outcome {
                Outcome::Position(r) => Some(r.as_ref().into()),
                Outcome::Moves(_) => None,
            },
            legal_moves: self.legal,
            moves: match outcome {
                Outcome::Position(_) => None,
                Outcome::Moves(moves) => Some(
                    moves
                        .iter()
                        .enumerate()
                        .map(|(i, m)| MoveJson {
                            rank: i + 1,
                            notation: self.pos.format_move(&m.mv),
                            result: m.result.to_position_id(),
                            static_equity: m.static_equity,
                            rollout: (&m.rollout).into(),
                            difference: m.difference,
                        })
                        .collect(),
                ),
            },
        }
    }

    fn describe_settings(&self) -> String {
        let s = &self.settings;
        let mut parts = vec![format!("{}-ply players", s.ply), format!("seed {}", s.seed)];
        parts.push(if s.variance_reduction { "variance reduction".into() } else { "no variance reduction".into() });
        parts.push(if s.quasi_random { "quasi-random dice".into() } else { "random dice".into() });
        parts.push(if s.bearoff_exact { "exact bearoffs".into() } else { "bearoffs played out".into() });
        if let Some(t) = s.truncate {
            parts.push(format!("truncated after {t} half-moves"));
        }
        if s.cubeful {
            parts.push("cubeful money (cube centred, 0-ply cube decisions)".into());
        }
        if let Some(t) = s.target_se {
            parts.push(format!("target SE {t}"));
        }
        parts.join(", ")
    }

    fn footer(&self, out: &mut impl Write, outcome: &Outcome) -> Result<()> {
        let trials = outcome.trials();
        let reached = match outcome {
            Outcome::Position(r) => r.target_reached,
            Outcome::Moves(m) => m.first().is_some_and(|m| m.rollout.target_reached),
        };
        let mut line = format!("Games: {trials} of {}", self.settings.trials);
        if matches!(outcome, Outcome::Moves(m) if m.len() > 1) {
            line.push_str(" per move");
        }
        if reached {
            line.push_str(" (target standard error reached)");
        }
        writeln!(
            out,
            "{line}, {:.2} s on {} thread{} ({:.0} games/s)",
            self.seconds,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.games_per_second(outcome)
        )?;
        Ok(())
    }

    fn text(&self, out: &mut impl Write, outcome: &Outcome) -> Result<()> {
        let id = self.pos.to_position_id();
        match outcome {
            Outcome::Position(r) => {
                writeln!(out, "Rollout of {id} (the player on roll, before rolling)")?;
                writeln!(out, "{}", self.describe_settings())?;
                writeln!(out)?;
                writeln!(out, "           win   win g  win bg    lose  lose g lose bg")?;
                let p = &r.probabilities;
                let row = |f: &dyn Fn(&Estimate) -> f64| {
                    let lose = Estimate::new(1.0 - p[0].mean, p[0].standard_error);
                    [p[0], p[1], p[2], lose, p[3], p[4]].iter().map(|e| format!("{:>8.4}", f(e))).collect::<String>()
                };
                writeln!(out, "mean  {}", row(&|e| e.mean))?;
                writeln!(out, "SE    {}", row(&|e| e.standard_error))?;
                writeln!(out, "95%-  {}", row(&|e| e.low))?;
                writeln!(out, "95%+  {}", row(&|e| e.high))?;
                writeln!(out)?;
                let show = |name: &str, e: &Estimate| {
                    format!("{name:<16}{}  SE {:.4}  95% CI {}", signed(e.mean), e.standard_error, interval(e))
                };
                writeln!(out, "{}", show("Cubeless equity", &r.equity))?;
                if let Some(c) = &r.cubeful {
                    writeln!(out, "{}", show("Cubeful equity", c))?;
                }
            }
            Outcome::Moves(moves) => {
                let dice = self.dice.map(|d| d.to_string()).unwrap_or_default();
                let legal = self.legal.unwrap_or(moves.len());
                writeln!(out, "Rollout of the moves of {dice} in {id}")?;
                let which = if moves.len() < legal {
                    format!("the best {} of {legal} legal moves by the net's static evaluation", moves.len())
                } else if legal == 0 {
                    "no legal move: the turn passes".to_string()
                } else {
                    format!("all {legal} legal moves")
                };
                writeln!(out, "{which}; {}", self.describe_settings())?;
                writeln!(out)?;
                let kind = if self.settings.cubeful { "cubeful" } else { "equity" };
                writeln!(
                    out,
                    " #  {:<22}{kind:>8}      SE  95% CI              vs best      SE     win   win g  win bg  lose g lose bg{}",
                    "move",
                    if self.settings.cubeful { " cubeless" } else { "" }
                )?;
                for (i, m) in moves.iter().enumerate() {
                    let name = if m.mv.is_empty() { "(no move)".to_string() } else { self.pos.format_move(&m.mv) };
                    let h = m.rollout.headline();
                    let diff = if i == 0 {
                        format!("{:>16}", "")
                    } else {
                        format!("{:>8} {:>7.4}", signed(m.difference.mean), m.difference.standard_error)
                    };
                    let probs: String = m.rollout.probabilities.iter().map(|e| format!("{:>8.4}", e.mean)).collect();
                    let cubeless = if self.settings.cubeful {
                        format!(" {:>8}", signed(m.rollout.equity.mean))
                    } else {
                        String::new()
                    };
                    writeln!(
                        out,
                        "{:>2}. {name:<22}{:>8} {:>7.4}  {:<20}{diff}{probs}{cubeless}",
                        i + 1,
                        signed(h.mean),
                        h.standard_error,
                        interval(&h)
                    )?;
                }
            }
        }
        writeln!(out)?;
        self.footer(out, outcome)
    }
}
