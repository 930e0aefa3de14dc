//! `gammon distill`: teach a net its own lookahead (1- or 2-ply search
//! values) on positions from its self-play. Labelling is saved in chunks and
//! resumes where it stopped.

use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_eval::pubeval::PubEval;
use gammon_eval::{NetEvaluator, NetWeights};
use gammon_train::distill::{fit, label, sample_afterstates, sample_positions, Dataset};
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
    /// Training passes over the labelled positions.
    #[arg(long, default_value_t = 4)]
    epochs: u32,
    /// Initial learning rate (falls to a tenth over the passes).
    #[arg(long, default_value_t = 0.02)]
    rate: f32,
    /// Seed of the self-play positions and of the training order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Pairs of games against pubeval to measure the result (0 = none).
    #[arg(long, default_value_t = 1000)]
    benchmark_pairs: u64,
}

/// Runs `gammon distill`.
pub fn run(args: &DistillArgs) -> Result<()> {
    if !(1..=2).contains(&args.ply) {
        bail!("--ply must be 1 or 2");
    }
    if args.threads == 0 || args.positions == 0 {
        bail!("--threads and --positions must be at least 1");
    }
    let weights = NetWeights::load(&args.from).with_context(|| format!("cannot load {}", args.from.display()))?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    let data_path = args.out.join("dataset.gds");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let mut data = if data_path.exists() {
        let d = Dataset::load(&data_path)?;
        if d.ply != args.ply || d.candidates as usize != args.candidates || d.afterstates as usize != args.afterstates {
            bail!(
                "{} holds {}-ply labels with {} candidates and {} afterstates; use another --out",
                data_path.display(),
                d.ply,
                d.candidates,
                d.afterstates
            );
        }
        eprintln!("resuming: {} positions already labelled", d.positions.len());
        d
    } else {
        Dataset {
            ply: args.ply,
            candidates: args.candidates as u32,
            afterstates: args.afterstates as u32,
            ..Dataset::default()
        }
    };
    let positions = pool.install(|| {
        if args.afterstates > 0 {
            sample_afterstates(&weights, args.positions, args.seed, 0.1, args.afterstates)
        } else {
            sample_positions(&weights, args.positions, args.seed, 0.1)
        }
    });
    let start = std::time::Instant::now();
    let already = data.positions.len();
    let chunk = 2000;
    while data.positions.len() < positions.len() {
        let from = data.positions.len();
        let to = (from + chunk).min(positions.len());
        let labels = pool.install(|| label(&weights, &positions[from..to], args.ply, args.candidates));
        data.positions.extend(positions[from..to].iter().map(|p| p.to_position_id()));
        data.labels.extend(labels);
        data.save(&data_path)?;
        let secs = start.elapsed().as_secs_f64();
        eprintln!("labelled {}/{} ({:.0} positions/s)", to, positions.len(), (to - already) as f64 / secs.max(1e-9));
    }
    let decoded = data.decoded_positions()?;
    let mut trained = weights.clone();
    let error = fit(&mut trained, &decoded, &data.labels, args.epochs, args.rate, args.seed);
    eprintln!("trained {} epochs; mean squared error of the last: {error:.5}", args.epochs);
    trained.meta.notes =
        format!("{} + {}-ply distillation ({} positions)", weights.meta.notes, args.ply, decoded.len());
    trained.meta.date = gammon_train::trainer::utc_now();
    let out = args.out.join("weights.gnn");
    trained.save(&out)?;
    eprintln!("weights in {}", out.display());
    if args.benchmark_pairs > 0 {
        let seed = gammon_train::trainer::BENCHMARK_SEED;
        let before =
            pool.install(|| gammon_eval::play::duel(&NetEvaluator::new(weights), &PubEval, args.benchmark_pairs, seed));
        let after =
            pool.install(|| gammon_eval::play::duel(&NetEvaluator::new(trained), &PubEval, args.benchmark_pairs, seed));
        println!(
            "vs pubeval, {} games: before {:+.3} ± {:.3}, after {:+.3} ± {:.3}",
            after.games, before.ppg, before.standard_error, after.ppg, after.standard_error
        );
    }
    Ok(())
}
