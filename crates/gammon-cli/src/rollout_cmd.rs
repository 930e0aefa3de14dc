//! `gammon rollout`: Monte Carlo rollouts of a position (the player on roll,
//! before rolling) or of the candidate moves of a roll.

use crate::args::{DiceOption, JsonArg, PositionText, ThreadsArg, WeightsArg};
use crate::json;
use crate::request::Request;
use crate::text::{self, RolloutProgressLine};
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::api::Engine;
use gammon_engine::rollout::{RolloutSettings, BATCH};
use std::io::{BufWriter, IsTerminal, Write};

/// Arguments of `gammon rollout`.
#[derive(Debug, Args)]
#[command(after_help = "Each game (trial) k uses dice stream k of the seed, so the result depends only on the \
seed and the settings, never on --threads. Variance reduction subtracts the luck of every roll (its 0-ply \
value against the average of all 21 rolls); the first two rolls are stratified over the 1296 possible pairs. \
With --dice (or an XGID carrying dice) every candidate move is rolled out with the same dice and ranked; \
differences to the best move come with the standard error of the paired games.")]
#[command(mut_arg("dice", |a| a.help(
    "Roll out the moves of this roll, like `31`, instead of the position before the roll (an XGID may carry the dice instead)"
)))]
pub struct RolloutArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    dice: DiceOption,
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
    #[command(flatten)]
    threads: ThreadsArg,
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
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon rollout`.
pub fn run(args: &RolloutArgs) -> Result<()> {
    let request = Request::read(&args.position.position, args.dice.dice.as_deref(), "")?;
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if let Some(t) = args.target_se {
        if !(t.is_finite() && t > 0.0) {
            bail!("--target-se must be a positive number, not {t}");
        }
    }
    if request.dice.is_some() && request.game_over() {
        bail!("the game in this position is over: there are no moves to roll out");
    }
    let engine = Engine::new(args.weights.net()?);
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
    let pool = args.threads.pool()?;
    let progress = RolloutProgressLine::new(std::io::stderr().is_terminal(), args.cubeful);
    let report = pool.install(|| engine.rollout(&request.position, request.dice, &settings, |p| progress.show(p)));
    progress.clear();
    let report = report.context("the rollout failed")?;
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json.json {
        json::write(&mut out, &report)?;
    } else {
        text::rollout_report(&mut out, &report)?;
    }
    out.flush()?;
    Ok(())
}
