//! `gammon distill`: teach a net its own lookahead (1- or 2-ply search
//! values) on positions from its self-play, for one or more rounds (each
//! round starts from the previous round's net: expert iteration). The run
//! (its files, resuming, the refusal of other settings) is
//! `gammon_train::distill_run`'s; this module parses and prints.

use crate::args::{threads_help, threads_parser};
use anyhow::Result;
use clap::Args;
use gammon_jobs::{Bar, StopFlag, INTERRUPTED};
use gammon_train::distill::DistillSettings;
use gammon_train::distill_run::{distill, DistillEnd, DistillRun};
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `gammon distill`.
#[derive(Debug, Args)]
pub struct DistillArgs {
    /// The net to improve (a weights file).
    #[arg(long)]
    from: PathBuf,
    /// Folder for the dataset (resumable) and the new weights.
    #[arg(long)]
    out: PathBuf,
    /// Positions to label.
    #[arg(long, default_value_t = 100_000)]
    positions: usize,
    /// Lookahead depth of the labels: 1 or 2.
    #[arg(long, default_value_t = 2)]
    ply: u8,
    /// Moves per roll searched to the full depth (2-ply).
    #[arg(long, default_value_t = 2)]
    candidates: usize,
    /// Label the N best results (by the net) of every move of the sampled
    /// games, not only the positions played: the alternatives a 0-ply
    /// player chooses among, which self-play never corrects when it
    /// undervalues them (0: the played positions only).
    #[arg(long, default_value_t = 0)]
    afterstates: usize,
    /// Rounds of labelling and training, each from the previous round's net.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// The most training passes over the labelled positions per round (the
    /// supervised fitter, as `gammon fit`: mini-batches of 32, 5% held out
    /// for validation, early stopping).
    #[arg(long, default_value_t = 4)]
    epochs: u32,
    /// Initial learning rate on the mean gradient of a mini-batch (halves
    /// when the validation error stops falling).
    #[arg(long, default_value_t = 1.0, allow_negative_numbers = true)]
    rate: f32,
    /// Seed of the self-play positions and of the training order (round k
    /// uses seed + k).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = threads_parser(), help = threads_help("Worker threads."))]
    threads: usize,
    /// Pairs of games against pubeval to measure the result (0 = none).
    #[arg(long, default_value_t = 1000)]
    benchmark_pairs: u64,
}

/// Exploration of the sampling games: a random move one time in ten.
const EXPLORE: f32 = 0.1;

impl DistillArgs {
    /// The library's settings of these arguments.
    fn settings(&self) -> DistillSettings {
        DistillSettings {
            positions: self.positions,
            ply: self.ply,
            candidates: self.candidates,
            afterstates: self.afterstates,
            rounds: self.rounds,
            epochs: self.epochs,
            rate: self.rate,
            explore: EXPLORE,
            seed: self.seed,
            threads: self.threads,
            benchmark_pairs: self.benchmark_pairs,
        }
    }
}

/// Runs `gammon distill`: the run is `gammon_train::distill_run`'s job;
/// this prints what it reports.
pub fn run(args: &DistillArgs) -> Result<()> {
    // Checked before anything is read or written.
    args.settings().validate().map_err(|e| {
        anyhow::anyhow!("distill: --{} must be {} (got {})", e.setting.replace('_', "-"), e.rule, e.got)
    })?;
    let stop = StopFlag::on_signals_saying(
        "interrupted: saving the labels made so far (during a fit: stopping it after this epoch; \
         the next run fits the round again) (interrupt again to quit at once, losing the work since the last save)",
    )?;
    let run = DistillRun { settings: args.settings(), from: args.from.clone(), out: args.out.clone() };
    let bar = Bar::new("labelling [{bar:30}] {pos}/{len} positions, ETA {eta}", std::io::stderr().is_terminal());
    let end = distill(&run, &bar, &stop, |round, r| {
        bar.suspend(|| {
            println!("round {round}: vs pubeval, {} games: {:+.3} ± {:.3}", r.games, r.ppg, r.standard_error)
        });
    });
    bar.clear();
    match end? {
        DistillEnd::Finished(out) => {
            eprintln!("weights in {}", out.display());
            Ok(())
        }
        DistillEnd::StoppedLabelling { round, dataset } => {
            eprintln!(
                "stopped: the labels of round {round} made so far are kept in {}; run the same command again to go on",
                dataset.display()
            );
            std::process::exit(INTERRUPTED)
        }
        DistillEnd::StoppedFitting { round, dataset } => {
            eprintln!(
                "stopped while fitting round {round}: its labels are kept in {}; run the same command again to fit it",
                dataset.display()
            );
            std::process::exit(INTERRUPTED)
        }
    }
}
