//! `gammon duel`: two players, many cubeless money games, duplicate dice.

use crate::args::{JsonArg, ThreadsArg};
use crate::evaluators;
use anyhow::{bail, Result};
use clap::Args;
use gammon_engine::duel::duel;
use serde::Serialize;

/// Arguments of `gammon duel`.
#[derive(Debug, Args)]
pub struct DuelArgs {
    /// Player A: `net` (built-in), `pubeval`, or a weights file.
    #[arg(long)]
    a: String,
    /// Player B: `net` (built-in), `pubeval`, or a weights file.
    #[arg(long)]
    b: String,
    /// Games to play (rounded up to an even number: each dice sequence is
    /// played twice, the seats swapped).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Seed of the dice.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    json: JsonArg,
}

#[derive(Serialize)]
struct DuelJson {
    a: String,
    b: String,
    games: u64,
    seed: u64,
    ppg: f64,
    standard_error: f64,
    win_rate: f64,
    gammon_rate: f64,
    backgammon_rate: f64,
    lose_gammon_rate: f64,
    lose_backgammon_rate: f64,
}

/// Runs `gammon duel`.
pub fn run(args: &DuelArgs) -> Result<()> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let a = evaluators::by_name(&args.a)?;
    let b = evaluators::by_name(&args.b)?;
    let pairs = args.games.div_ceil(2);
    let pool = args.threads.pool()?;
    let start = std::time::Instant::now();
    let r = pool.install(|| duel(a.as_ref(), b.as_ref(), pairs, args.seed));
    let secs = start.elapsed().as_secs_f64();
    if args.json.json {
        let j = DuelJson {
            a: a.name(),
            b: b.name(),
            games: r.games,
            seed: args.seed,
            ppg: r.ppg,
            standard_error: r.standard_error,
            win_rate: r.win_rate,
            gammon_rate: r.gammon_rate,
            backgammon_rate: r.backgammon_rate,
            lose_gammon_rate: r.lose_gammon_rate,
            lose_backgammon_rate: r.lose_backgammon_rate,
        };
        println!("{}", crate::json::pretty(&j)?);
    } else {
        println!("{} vs {}: {} games (duplicate dice, seed {})", a.name(), b.name(), r.games, args.seed);
        println!("  A scores {:+.3} ± {:.3} points per game", r.ppg, r.standard_error);
        println!(
            "  A wins {:.1}% (gammons {:.1}%, backgammons {:.1}%); loses gammons {:.1}%, backgammons {:.1}%",
            100.0 * r.win_rate,
            100.0 * r.gammon_rate,
            100.0 * r.backgammon_rate,
            100.0 * r.lose_gammon_rate,
            100.0 * r.lose_backgammon_rate
        );
        println!("  {:.1} s, {:.0} games/s", secs, r.games as f64 / secs);
    }
    Ok(())
}
