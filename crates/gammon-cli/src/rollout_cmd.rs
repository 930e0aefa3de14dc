//! `gammon rollout`: Monte Carlo rollouts of a position (the player on roll,
//! before rolling) or of the candidate moves of a roll.

use crate::args::{ContextArgs, DiceOption, JsonArg, MetArg, PositionText, ShardArg, ThreadsArg, WeightsArg};
use crate::json;
use crate::text::{self, RolloutProgressLine};
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::api::Request;
use gammon_engine::api::{check_rollout, Asked, Engine, EngineError, Refusal, RolloutOptions};
use gammon_engine::rollout::{RolloutError, BATCH};
use gammon_engine::shard::Shard;
use gammon_eval::NetEvaluator;
use gammon_jobs::rollout_shard::{self, ShardJob, ShardRunError};
use gammon_jobs::{Press, StopFlag, INTERRUPTED};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Arguments of `gammon rollout`.
#[derive(Debug, Args)]
#[command(after_help = "Each game (trial) k uses dice stream k of the seed, so the result depends only on the \
seed and the settings, never on --threads. Variance reduction subtracts the luck of every roll (its 0-ply \
value against the average of all 21 rolls); the first two rolls are stratified over the 1296 possible pairs. \
With --dice (or an XGID carrying dice) every candidate move is rolled out with the same dice and ranked; \
differences to the best move come with the standard error of the paired games.

Ctrl-C (or SIGTERM, SIGHUP) stops the rollout: no new game starts, and the result of the games finished so \
far (games 0 to K-1, exactly what --games K gives) is printed, marked partial: a first line \
`partial rollout: K of N games (interrupted)`, or with --json the fields \"partial\": true and \
\"games_done\": K. The exit status is then 130, as for any command stopped by Ctrl-C; a second Ctrl-C \
quits at once without a result.

Sharded (for batch systems: docs/scale-out.md): `--shard K/N --out FILE` plays only games \
floor(K*G/N) to floor((K+1)*G/N)-1 of the G games and writes their exact sums to FILE (saved every \
30 s and when stopped; the same command again resumes it, or says it is complete); `gammon merge` \
of the N files prints what one run prints, to the last digit. `--shard auto/N` takes K from \
SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.")]
#[command(mut_arg("dice", |a| a.help(
    "Roll out the moves of this roll, like `31`, instead of the position before the roll (an XGID may carry the dice instead)"
)))]
pub struct RolloutArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    dice: DiceOption,
    #[command(flatten)]
    context: ContextArgs,
    /// The most games to play.
    #[arg(long, default_value_t = BATCH)]
    games: u64,
    /// Chequer play of the rollout players in plies, counted as gnubg does:
    /// 0 (the net's static evaluation: its best move), 1 (the best of the
    /// net's candidates after every reply) or 2 (a 2-ply search per move,
    /// about 20 times slower than 0).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=2))]
    ply: u8,
    /// Stop each game after this many half-moves and take the net's
    /// evaluation there (0: the static evaluation).
    #[arg(long, value_name = "K")]
    truncate: Option<u32>,
    /// Money play: also play a cube (centred, 0-ply Janowski cube
    /// decisions) and report the cubeful equity. A match position (an XGID
    /// or Match ID with a score) is rolled out cubeful at its score by
    /// default.
    #[arg(long)]
    cubeful: bool,
    /// A match position: play the game out for the cube as it is, and
    /// report cubeless match winning chances (money play is cubeless
    /// already).
    #[arg(long)]
    cubeless: bool,
    /// Roll out the cube decision of the player on roll: the no-double line
    /// and the double/take line with the same dice, both sides playing the
    /// cube after (money play at the position's cube, or the match score).
    #[arg(long)]
    cube_decision: bool,
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
    met: MetArg,
    #[command(flatten)]
    shard: ShardArg,
    /// Write the games' exact sums to this file (a rollout shard) for
    /// `gammon merge`, instead of printing the result; resumed if it holds
    /// a part of the same shard.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
}

impl RolloutArgs {
    /// The options as the engine reads them.
    pub fn options(&self) -> RolloutOptions {
        RolloutOptions {
            games: self.games,
            ply: self.ply,
            truncate: self.truncate,
            cubeful: self.cubeful,
            cubeless: self.cubeless,
            seed: self.seed,
            target_se: self.target_se,
            variance_reduction: !self.no_vr,
            quasi_random: !self.no_quasi_random,
            bearoff_exact: !self.no_bearoff,
            moves: self.moves,
            cube_decision: self.cube_decision,
        }
    }
}

/// Runs `gammon rollout`.
pub fn run(args: &RolloutArgs) -> Result<()> {
    let mut request = Request::read(&args.position.position, None, args.dice.dice.as_deref())?;
    args.options().check_choices(&request)?;
    let notes;
    (request.context, notes) = args.context.apply(request.context)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    let settings = args.options().settings(&request);
    check_rollout(&request, &settings).map_err(|e| Refusal::new(e, Asked::Rollout))?;
    let shard = args.shard.resolve()?;
    if args.out.is_none() && args.shard.shard.is_some() {
        bail!("--shard needs --out FILE: a shard's sums are written there, for gammon merge");
    }
    if args.out.is_some() && args.target_se.is_some() && shard != Shard::ALL {
        bail!("--target-se cannot be used with --shard: a shard sees only its own games");
    }
    if let Some(out) = &args.out {
        gammon_eval::file_format::check_output(out)?;
    }
    let net = args.weights.net()?;
    let fingerprint = net.weights().fingerprint();
    let engine = Engine::new(net).with_met(args.met.met()?);
    let pool = args.threads.pool()?;
    let progress = Arc::new(RolloutProgressLine::new(
        std::io::stderr().is_terminal(),
        settings.cubeful,
        !request.context.is_money(),
    ));
    let stop = stop_on_interrupt(Arc::clone(&progress))?;
    if let Some(out) = &args.out {
        let job = ShardJob {
            engine: &engine,
            request: &request,
            cube_decision: args.cube_decision,
            settings,
            shard,
            fingerprint,
        };
        return pool.install(|| run_shard(&job, out, &progress, &stop, args.json.json));
    }
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    let interrupted = if args.cube_decision {
        let report = pool.install(|| engine.cube_rollout(&request, &settings, |p| progress.show(p), stop.as_atomic()));
        progress.clear();
        let report = finished(report.map_err(|e| match e {
            e @ EngineError::Rollout(RolloutError::Interrupted) => e.into(),
            e => Refusal::new(e, Asked::CubeRollout).into(),
        }))?;
        if args.json.json {
            json::write(&mut out, &report)?;
        } else {
            text::cube_rollout_report(&mut out, &report)?;
        }
        report.interrupted
    } else {
        let report = pool.install(|| engine.rollout(&request, &settings, |p| progress.show(p), stop.as_atomic()));
        progress.clear();
        let report = finished(report.map_err(anyhow::Error::from))?;
        if args.json.json {
            json::write(&mut out, &report)?;
        } else {
            text::rollout_report(&mut out, &report)?;
        }
        report.interrupted()
    };
    out.flush()?;
    if interrupted {
        std::process::exit(INTERRUPTED);
    }
    Ok(())
}

/// A rollout's answer, or its failure as the one error line; a rollout
/// stopped before any game finished exits as interrupted, without one.
fn finished<T>(report: Result<T, anyhow::Error>) -> Result<T> {
    match report {
        Err(e) if matches!(e.downcast_ref(), Some(EngineError::Rollout(RolloutError::Interrupted))) => {
            eprintln!("interrupted before any game finished: no result");
            std::process::exit(INTERRUPTED);
        }
        r => r.context("the rollout failed"),
    }
}

/// Plays one shard into `out` through the jobs crate (resuming what it
/// holds, saving it every 30 s and at the end, also when stopped), and
/// prints what it holds.
fn run_shard(
    job: &ShardJob<'_, NetEvaluator>,
    out: &Path,
    progress: &RolloutProgressLine,
    stop: &StopFlag,
    json: bool,
) -> Result<()> {
    let range = job.shard.trials(job.settings.trials);
    let played = rollout_shard::run(
        job,
        out,
        |p| progress.show(p),
        |resumed, of| progress.note(&format!("resuming {}: {resumed} of {of} games already played", out.display())),
        stop,
    );
    progress.clear();
    let played = match played {
        Err(ShardRunError::Interrupted) => {
            eprintln!("interrupted before any game finished: nothing saved");
            std::process::exit(INTERRUPTED);
        }
        r => r?,
    };
    let done = played.tally.trials().len();
    let total = range.end - range.start;
    let stdout = std::io::stdout();
    let mut w = BufWriter::new(stdout.lock());
    if json {
        let value = serde_json::json!({
            "shard": job.shard.to_string(),
            "games": [range.start, range.end],
            "games_done": done,
            "complete": played.is_complete(),
            "file": out.display().to_string(),
            "seconds": played.seconds,
        });
        json::write(&mut w, &value)?;
    } else {
        let what = if played.is_complete() { "complete" } else { "partial" };
        if range.is_empty() {
            writeln!(
                w,
                "shard {} of the rollout: no games (the {} games leave none to this shard); an empty shard written to {}",
                job.shard,
                job.settings.trials,
                out.display()
            )?;
        } else {
            writeln!(
                w,
                "shard {} of the rollout ({what}): {done} of games {}-{} written to {} ({:.2} s)",
                job.shard,
                range.start,
                range.end.saturating_sub(1),
                out.display(),
                played.seconds
            )?;
        }
    }
    w.flush()?;
    if !played.is_complete() {
        eprintln!("stopped: {done} of {total} games saved; run the same command again to go on");
        std::process::exit(INTERRUPTED);
    }
    Ok(())
}

/// The process's stop flag, set by the first Ctrl-C, SIGTERM or SIGHUP;
/// the second quits.
fn stop_on_interrupt(progress: Arc<RolloutProgressLine>) -> Result<StopFlag> {
    Ok(StopFlag::on_signals(move |press| match press {
        Press::First => {
            progress.note("interrupted: finishing the games in progress (interrupt again to quit now)");
        }
        Press::Second => progress.note("second interrupt: quitting without a result"),
    })?)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        rollout: RolloutArgs,
    }

    #[test]
    fn the_commands_defaults_are_the_engines() {
        // The Python package takes the engine's defaults: they must be the command's.
        let cli = Cli::try_parse_from(["rollout", "start"]).unwrap();
        assert_eq!(cli.rollout.options(), RolloutOptions::default());
    }
}
