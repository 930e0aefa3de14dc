//! `gammon label`: training positions and their rollout labels.
//!
//! - `gammon label sample`: positions from self-play of a net (the played
//!   positions, or the best results of every move, optionally only those
//!   close to the best: the decisions that matter), as a positions file.
//! - `gammon label rollout`: labels a positions file (or one shard of it) by
//!   rollouts of a net, saving after every chunk; run again with the same
//!   arguments it resumes; Ctrl-C or SIGTERM stop after the chunk in hand.

use crate::args::{threads_help, threads_parser};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use gammon_engine::shard::{Shard, ShardSpec};
use gammon_eval::{NetEvaluator, NetKind, NetWeights};
use gammon_jobs::{Progress, StopFlag, INTERRUPTED};
use gammon_train::dataset::{positions_digest, Dataset, LabelSource};
use gammon_train::distill::{sample_afterstates_within, sample_positions};
use gammon_train::labels::{label_shard, positions_text, read_positions, resume_labels, LabelSettings, Resumed};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gammon label`.
#[derive(Debug, Args)]
pub struct LabelArgs {
    #[command(subcommand)]
    command: LabelCommand,
}

#[derive(Debug, Subcommand)]
enum LabelCommand {
    /// Write a positions file from self-play of a net.
    Sample(SampleArgs),
    /// Label a positions file by rollouts of a net.
    Rollout(RolloutLabelArgs),
    /// Print a labels file (or any dataset) as JSON Lines: a header line,
    /// then one line per position.
    Show(ShowArgs),
}

/// Arguments of `gammon label show`.
#[derive(Debug, Args)]
struct ShowArgs {
    /// The labels file.
    file: PathBuf,
}

/// Arguments of `gammon label sample`.
#[derive(Debug, Args)]
struct SampleArgs {
    /// The net that plays the games (default: the built-in one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Positions to write.
    #[arg(long, default_value_t = 10_000)]
    count: usize,
    /// Keep the N best results (by the net) of every move, not only the
    /// positions played (0: the played positions only).
    #[arg(long, default_value_t = 0)]
    afterstates: usize,
    /// With --afterstates: keep only results within this equity of the best
    /// (the close decisions; the best result is always kept).
    #[arg(long)]
    window: Option<f32>,
    /// Keep only the positions one net answers: `contact`, `crashed` or
    /// `race` (the games are sampled further until there are --count).
    #[arg(long, value_parser = ["contact", "crashed", "race"])]
    only: Option<String>,
    /// Probability of a random move in the sampling games.
    #[arg(long, default_value_t = 0.1)]
    explore: f32,
    /// Seed of the games.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = threads_parser(), help = threads_help("Worker threads."))]
    threads: usize,
    /// The positions file to write (one Position ID per line).
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `gammon label rollout`.
#[derive(Debug, Args)]
struct RolloutLabelArgs {
    /// The net that rolls out (default: the built-in one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// The positions file (one Position ID per line, `#` comments).
    #[arg(long)]
    positions: PathBuf,
    /// Trials per position (a multiple of 36 uses the stratified first roll fully).
    #[arg(long, default_value_t = 72)]
    trials: u64,
    /// Half-moves played before the net's evaluation is taken.
    #[arg(long, default_value_t = 7, conflicts_with = "full")]
    truncate: u32,
    /// Play every trial to the end of the game instead.
    #[arg(long)]
    full: bool,
    /// Turn the luck adjustment (variance reduction) off.
    #[arg(long)]
    no_variance_reduction: bool,
    /// Seed of the rollouts (each position's comes from it and the position).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Label only shard K of N: the positions whose index in the file is K
    /// mod N (`gammon merge` puts the shards back together); `auto/N` takes
    /// K from SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX.
    #[arg(long, value_name = "K/N")]
    shard: Option<ShardSpec>,
    /// Positions labelled between saves.
    #[arg(long, default_value_t = 500)]
    chunk: usize,
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = threads_parser(), help = threads_help("Worker threads."))]
    threads: usize,
    /// The labels file to write (resumed if it exists).
    #[arg(long)]
    out: PathBuf,
}

/// Runs `gammon label`.
pub fn run(args: &LabelArgs) -> Result<()> {
    match &args.command {
        LabelCommand::Sample(a) => sample(a),
        LabelCommand::Rollout(a) => rollout(a),
        LabelCommand::Show(a) => show(a),
    }
}

fn show(args: &ShowArgs) -> Result<()> {
    use std::io::Write as _;
    let d = Dataset::load(&args.file)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let header = serde_json::json!({
        "labeller": d.labeller,
        "positions": d.len(),
        "mean_standard_errors": d.mean_standard_errors(),
    });
    writeln!(out, "{}", crate::json::line(&header)?)?;
    for (i, (id, label)) in d.positions.iter().zip(&d.labels).enumerate() {
        let line = serde_json::json!({"position": id, "label": label, "standard_error": d.standard_errors.get(i)});
        writeln!(out, "{}", crate::json::line(&line)?)?;
    }
    out.flush()?;
    Ok(())
}

fn weights(path: &Option<PathBuf>) -> Result<NetWeights> {
    Ok(match path {
        Some(p) => NetWeights::load(p).context("cannot load the --weights")?,
        None => NetEvaluator::shipped()?.weights().clone(),
    })
}

fn sample(args: &SampleArgs) -> Result<()> {
    if args.count == 0 || args.count > gammon_train::distill::MAX_POSITIONS {
        bail!("label sample: --count must be 1 to {} (got {})", gammon_train::distill::MAX_POSITIONS, args.count);
    }
    if !args.explore.is_finite() || !(0.0..=1.0).contains(&args.explore) {
        bail!("label sample: --explore must be a number from 0 to 1 (got {})", args.explore);
    }
    if args.afterstates > gammon_train::distill::MAX_AFTERSTATES {
        bail!("label sample: --afterstates must be 0 to {}", gammon_train::distill::MAX_AFTERSTATES);
    }
    let window = args.window.unwrap_or(f32::INFINITY);
    if window.is_nan() || window < 0.0 {
        bail!("label sample: --window must be a number >= 0 (got {window})");
    }
    gammon_eval::file_format::check_output(&args.out)?;
    let w = weights(&args.weights)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let only = args.only.as_deref().and_then(|name| NetKind::ALL.into_iter().find(|k| k.name() == name));
    let draw = |count: usize| {
        pool.install(|| {
            if args.afterstates > 0 {
                sample_afterstates_within(&w, count, args.seed, args.explore, args.afterstates, window)
            } else {
                sample_positions(&w, count, args.seed, args.explore)
            }
        })
    };
    // Sampling is a deterministic stream: a larger count extends a smaller
    // one, so drawing more until enough are kept changes no position.
    let mut count = args.count;
    let positions = loop {
        let mut drawn = draw(count);
        if let Some(kind) = only {
            drawn.retain(|p| NetKind::of_position(p) == Some(kind));
        }
        if drawn.len() >= args.count || count >= gammon_train::distill::MAX_POSITIONS {
            drawn.truncate(args.count);
            break drawn;
        }
        let kept = drawn.len().max(1);
        count = (count * args.count / kept + 1000).min(gammon_train::distill::MAX_POSITIONS);
    };
    let header = format!(
        "gammon label sample: {} positions, net {:?}, only {}, afterstates {}, window {}, explore {}, seed {}",
        positions.len(),
        w.meta.notes,
        args.only.as_deref().unwrap_or("all"),
        args.afterstates,
        args.window.map_or("none".to_string(), |x| x.to_string()),
        args.explore,
        args.seed
    );
    let text = positions_text(&header, &positions);
    gammon_eval::file_format::write_output(&args.out, text.as_bytes())?;
    eprintln!("{} positions in {}", positions.len(), args.out.display());
    Ok(())
}

fn rollout(args: &RolloutLabelArgs) -> Result<()> {
    let settings = LabelSettings {
        trials: args.trials,
        truncate: (!args.full).then_some(args.truncate),
        variance_reduction: !args.no_variance_reduction,
        seed: args.seed,
    };
    settings.validate().map_err(|e| anyhow::anyhow!("label rollout: {e}"))?;
    if args.chunk == 0 || args.chunk > 1_000_000 {
        bail!("label rollout: --chunk must be 1 to 1000000 (got {})", args.chunk);
    }
    let shard = match args.shard {
        None => Shard::ALL,
        Some(spec) => spec.resolve(|name| std::env::var(name).ok()).context("label rollout: --shard")?,
    };
    gammon_eval::file_format::check_output(&args.out)?;
    let w = weights(&args.weights)?;
    let positions = read_positions(&args.positions)?;
    if positions.is_empty() {
        bail!("label rollout: {} holds no positions (only comments or blank lines)", args.positions.display());
    }
    // The labeller names how, the source what: shards of one file share the
    // labeller wherever the file lies, so that they merge.
    let labeller = format!("{}; net {:?} ({:016x})", settings.describe(), w.meta.notes, w.fingerprint());
    let source = LabelSource { positions: positions.len(), digest: positions_digest(&positions), shard };
    let mut data = match resume_labels(&args.out, labeller, source)? {
        Resumed::Saved(d) => {
            eprintln!("resuming: {} positions already labelled", d.len());
            d
        }
        Resumed::New(d) => d,
    };
    let stop = StopFlag::on_signals_saying(
        "interrupted: finishing the positions in hand and saving every finished label \
         (interrupt again to quit at once, losing the labels since the last save)",
    )?;
    let net = NetEvaluator::new(w);
    let total = shard.positions(positions.len());
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let start = Instant::now();
    let before = data.len();
    let saved = SavedLine { start, before };
    pool.install(|| {
        label_shard(&net, &positions, shard, &settings, &mut data, args.chunk, &stop, &saved, |d| d.save(&args.out))
    })
    .map_err(|e| match e {
        gammon_train::labels::LabelShardError::Label(e) => anyhow::anyhow!("label rollout: {e}"),
        gammon_train::labels::LabelShardError::Save(e) => anyhow::Error::new(e),
    })?;
    let secs = start.elapsed().as_secs_f64();
    let spread = data.mean_standard_errors().map_or_else(
        || "no standard errors (one trial a label)".to_string(),
        |se| {
            format!(
                "mean standard error: win {:.4}, win gammon {:.4}, win backgammon {:.4}, lose gammon {:.4}, lose backgammon {:.4}",
                se[0], se[1], se[2], se[3], se[4]
            )
        },
    );
    println!(
        "{} of {total} positions labelled ({} now, {:.2} s of wall time each); {spread}",
        data.len(),
        data.len() - before,
        secs / (data.len() - before).max(1) as f64,
    );
    if data.is_empty() {
        eprintln!("stopped before any position was labelled: nothing written");
        std::process::exit(INTERRUPTED);
    }
    if data.len() < total {
        eprintln!(
            "stopped: kept {} labels in {} ({} made by this run), {} to go; run the same command again to go on",
            data.len(),
            args.out.display(),
            data.len() - before,
            total - data.len()
        );
        std::process::exit(INTERRUPTED);
    }
    Ok(())
}

/// The line `label rollout` prints after each save: how many are labelled
/// and how fast.
struct SavedLine {
    start: Instant,
    before: usize,
}

impl Progress for SavedLine {
    fn report(&self, _: u64, _: u64) {}

    fn note(&self, line: &str) {
        eprintln!("{line}");
    }

    fn saved(&self, done: u64, total: u64) {
        let secs = self.start.elapsed().as_secs_f64();
        let rate = (done as usize - self.before) as f64 / secs.max(1e-9);
        eprintln!("labelled {done}/{total} ({rate:.1} positions/s)");
    }
}
