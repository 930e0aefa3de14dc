//! `gammon distill`: teach a net its own lookahead (1- or 2-ply search
//! values) on positions from its self-play, for one or more rounds (each
//! round starts from the previous round's net: expert iteration). Labelling
//! is saved in chunks and resumes where it stopped; finished rounds are kept.
//! A later call with the same `--out` (to resume, or to add rounds) must give
//! the settings the run was started with (`distill-run.json`): otherwise its
//! rounds would mix positions and labels of two different runs.
//!
//! Files in `--out`: `distill-run.json` (the run's settings),
//! `round-<k>/dataset.gds` and `round-<k>/weights.gnn` per
//! round, `weights.gnn` (the last round's net), and with benchmarks
//! `learning-curve.csv` / `.svg` (ppg against pubeval after each round,
//! round 0 = the starting net; x = positions labelled so far).

use crate::args::{threads_help, threads_parser};
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_eval::pubeval::PubEval;
use gammon_eval::{NetEvaluator, NetWeights};
use gammon_jobs::{StopFlag, INTERRUPTED};
use gammon_train::distill::{fit, label, sample_afterstates, sample_positions, Dataset, DistillSettings};
use gammon_train::{plot, BenchmarkRow};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// Training passes over the labelled positions.
    #[arg(long, default_value_t = 4)]
    epochs: u32,
    /// Initial learning rate (falls to a tenth over the passes).
    #[arg(long, default_value_t = 0.02, allow_negative_numbers = true)]
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

/// The file in `--out` that keeps the settings the run was started with.
const RUN_SETTINGS: &str = "distill-run.json";

/// The settings that decide what a run's rounds sample, label and train
/// (not `--rounds`, `--threads` or `--benchmark-pairs`, which a later call
/// may change).
#[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct RunSettings {
    from: PathBuf,
    positions: usize,
    ply: u8,
    candidates: usize,
    afterstates: usize,
    epochs: u32,
    rate: f32,
    seed: u64,
}

impl RunSettings {
    fn of(args: &DistillArgs) -> Result<Self> {
        let from = std::fs::canonicalize(&args.from).with_context(|| format!("cannot read {}", args.from.display()))?;
        Ok(RunSettings {
            from,
            positions: args.positions,
            ply: args.ply,
            candidates: args.candidates,
            afterstates: args.afterstates,
            epochs: args.epochs,
            rate: args.rate,
            seed: args.seed,
        })
    }

    /// The options as they are written on the command line.
    fn options(&self) -> [(&'static str, String); 8] {
        [
            ("--from", self.from.display().to_string()),
            ("--positions", self.positions.to_string()),
            ("--ply", self.ply.to_string()),
            ("--candidates", self.candidates.to_string()),
            ("--afterstates", self.afterstates.to_string()),
            ("--epochs", self.epochs.to_string()),
            ("--rate", self.rate.to_string()),
            ("--seed", self.seed.to_string()),
        ]
    }

    /// Saves these settings at `path`, or, if a run there was started
    /// already, refuses settings that differ from its.
    fn check_or_save(&self, path: &Path) -> Result<()> {
        if path.exists() {
            let bytes = gammon_eval::file_format::read_bounded(path, 64 * 1024)?;
            let was: RunSettings = serde_json::from_slice(&bytes)
                .with_context(|| format!("{} is not a distill run's settings", path.display()))?;
            let differ: Vec<String> = was
                .options()
                .iter()
                .zip(self.options())
                .filter(|(a, b)| a.1 != b.1)
                .map(|((name, then), (_, now))| format!("{name} {then} (now {now})"))
                .collect();
            if !differ.is_empty() {
                bail!(
                    "the run in {} was started with {}: give the same settings to resume it or add rounds, or use another --out",
                    path.parent().unwrap_or(path).display(),
                    differ.join(", ")
                );
            }
            return Ok(());
        }
        Ok(gammon_eval::file_format::write_output(path, serde_json::to_string_pretty(self)?.as_bytes())?)
    }
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

/// Runs `gammon distill`.
pub fn run(args: &DistillArgs) -> Result<()> {
    // Checked before anything is read or written.
    args.settings().validate().map_err(|e| {
        anyhow::anyhow!("distill: --{} must be {} (got {})", e.setting.replace('_', "-"), e.rule, e.got)
    })?;
    let start = NetWeights::load(&args.from).context("cannot load the --from weights")?;
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    RunSettings::of(args)?.check_or_save(&args.out.join(RUN_SETTINGS))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let stop = StopFlag::on_signals_saying(
        "interrupted: saving the labels made so far (during a fit: finishing it) \
         (interrupt again to quit at once, losing the work since the last save)",
    )?;
    let benchmark = |w: &NetWeights| {
        let seed = gammon_train::trainer::BENCHMARK_SEED;
        pool.install(|| gammon_engine::duel::duel(&NetEvaluator::new(w.clone()), &PubEval, args.benchmark_pairs, seed))
    };
    let mut curve = Vec::new();
    let mut record = |round: u32, w: &NetWeights| -> Result<()> {
        if args.benchmark_pairs == 0 {
            return Ok(());
        }
        let r = benchmark(w);
        println!("round {round}: vs pubeval, {} games: {:+.3} ± {:.3}", r.games, r.ppg, r.standard_error);
        curve.push(BenchmarkRow {
            games: u64::from(round) * args.positions as u64,
            ppg: r.ppg,
            standard_error: r.standard_error,
            win_rate: r.win_rate,
            elapsed_s: 0.0,
        });
        let (csv, svg) = (args.out.join("learning-curve.csv"), args.out.join("learning-curve.svg"));
        plot::write_csv(&csv, &curve).with_context(|| format!("cannot write {}", csv.display()))?;
        plot::write_svg(&svg, "gammon distill: ppg vs pubeval after each round", "positions labelled", &curve)
            .map_err(|e| anyhow::anyhow!("cannot draw {}: {e}", svg.display()))
    };
    record(0, &start)?;
    let start_notes = start.meta.notes.clone();
    let mut weights = start;
    for round in 1..=args.rounds {
        let dir = args.out.join(format!("round-{round}"));
        let done = dir.join("weights.gnn");
        weights = if done.exists() {
            eprintln!("round {round}: already done ({})", done.display());
            NetWeights::load(&done)?
        } else {
            std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            let Some(mut trained) =
                distill_round(args, &pool, &weights, &dir, args.seed.wrapping_add(u64::from(round)), stop.as_atomic())?
            else {
                eprintln!(
                    "stopped: the labels of round {round} made so far are kept in {}; run the same command again to go on",
                    dir.join("dataset.gds").display()
                );
                std::process::exit(INTERRUPTED);
            };
            trained.meta.notes = format!(
                "{} + {round} round{} of {}-ply distillation",
                start_notes,
                if round == 1 { "" } else { "s" },
                args.ply
            );
            trained.save(&done)?;
            if stop.is_stopped() {
                eprintln!(
                    "stopped after round {round}: its weights are in {}; run the same command again to go on",
                    done.display()
                );
                std::process::exit(INTERRUPTED);
            }
            trained
        };
        record(round, &weights)?;
    }
    let out = args.out.join("weights.gnn");
    weights.save(&out)?;
    eprintln!("weights in {}", out.display());
    Ok(())
}

/// Positions labelled between two looks at the stop flag.
const STOP_CHECK: usize = 500;

/// One round: sample, label (resumably, in `dir`) and fit; `None` when
/// `stop` was set while labelling (every finished label is saved first).
fn distill_round(
    args: &DistillArgs,
    pool: &rayon::ThreadPool,
    weights: &NetWeights,
    dir: &Path,
    seed: u64,
    stop: &AtomicBool,
) -> Result<Option<NetWeights>> {
    let data_path = dir.join("dataset.gds");
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
            labeller: gammon_train::dataset::lookahead_labeller(args.ply, args.candidates as u32),
            ..Dataset::default()
        }
    };
    let positions = pool.install(|| {
        if args.afterstates > 0 {
            sample_afterstates(weights, args.positions, seed, EXPLORE, args.afterstates)
        } else {
            sample_positions(weights, args.positions, seed, EXPLORE)
        }
    });
    let start = std::time::Instant::now();
    let already = data.positions.len();
    let chunk = 20_000;
    while data.positions.len() < positions.len() {
        let from = data.positions.len();
        let to = (from + chunk).min(positions.len());
        // In small steps, so that a stop keeps what is done.
        for step in (from..to).step_by(STOP_CHECK) {
            let end = (step + STOP_CHECK).min(to);
            let labels = pool.install(|| label(weights, &positions[step..end], args.ply, args.candidates));
            data.positions.extend(positions[step..end].iter().map(|p| p.to_position_id()));
            data.labels.extend(labels);
            if stop.load(Ordering::SeqCst) {
                break;
            }
        }
        data.save(&data_path)?;
        if stop.load(Ordering::SeqCst) {
            return Ok(None);
        }
        let secs = start.elapsed().as_secs_f64();
        let done = data.positions.len();
        eprintln!("labelled {done}/{} ({:.0} positions/s)", positions.len(), (done - already) as f64 / secs.max(1e-9));
    }
    let decoded = data.decoded_positions()?;
    let mut trained = weights.clone();
    let error = fit(&mut trained, &decoded, &data.labels, args.epochs, args.rate, seed);
    eprintln!("trained {} epochs; mean squared error of the last: {error:.5}", args.epochs);
    trained.meta.notes =
        format!("{} + {}-ply distillation ({} positions)", weights.meta.notes, args.ply, decoded.len());
    trained.meta.date = gammon_train::trainer::utc_now();
    Ok(Some(trained))
}
