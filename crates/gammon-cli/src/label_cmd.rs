//! `gammon label`: training positions and their rollout labels.
//!
//! - `gammon label sample`: positions from self-play of a net (the played
//!   positions, or the best results of every move, optionally only those
//!   close to the best: the decisions that matter), as a positions file.
//! - `gammon label rollout`: labels a positions file (or one shard of it) by
//!   rollouts of a net, saving after every chunk; run again with the same
//!   arguments it resumes; Ctrl-C or SIGTERM stop after the chunk in hand.
//! - `gammon label choice`: a net's 0-ply choice between the results of a
//!   roll against their rollout labels (the groups from `label sample
//!   --groups`).

use crate::args::{threads_help, threads_parser, JsonArg, ThreadsArg};
use anyhow::{bail, Context, Result};
use clap::{Args, Subcommand};
use gammon_engine::shard::{Shard, ShardSpec};
use gammon_eval::{NetEvaluator, NetKind, NetWeights};
use gammon_jobs::{Progress, StopFlag, INTERRUPTED};
use gammon_train::benchmark::GameKind;
use gammon_train::choice::{disagreeing_rolls, sibling_groups, ChoiceFile, ChoiceReport, Mean, MAX_PLIES};
use gammon_train::dataset::{positions_digest, Dataset, LabelSource};
use gammon_train::distill::sample_grouped;
use gammon_train::labels::{label_shard, positions_text, read_positions, resume_labels, LabelSettings, Resumed};
use gammon_train::siblings::{groups_text, read_groups};
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
    /// Score a net's 0-ply choice between the results of a roll against
    /// their rollout labels.
    Choice(ChoiceArgs),
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
    /// Keep only the positions of this kind of game, as `gammon benchmark`
    /// tells them apart (docs/benchmark.md): `back-game`, `blitz`, `prime`,
    /// `holding` or `other` (either side's plan; a race is `--only race`).
    /// Back games are a few percent of the sampled positions (about 5% of a
    /// campaign chunk): the games are sampled further until there are --count.
    #[arg(long, value_name = "KIND", value_parser = game_kind)]
    kind: Option<GameKind>,
    /// Keep only the rolls whose best result by the net's lookahead at
    /// PLIES (1 or 2) is not its 0-ply best, among the results kept
    /// (--afterstates, --window): the choices its search corrects, where a
    /// fit most needs labels (gnubg trained on such positions). Whole rolls
    /// only, so up to --count positions; the games are sampled further
    /// until there are enough.
    #[arg(long, value_name = "PLIES", value_parser = clap::value_parser!(u8).range(1..=2))]
    disagree: Option<u8>,
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
    /// With --afterstates: also write which positions are results of the
    /// same roll, one `GROUP<TAB>Position ID` line per position of --out
    /// (the positions written are the same with or without it).
    #[arg(long, value_name = "FILE", requires = "afterstates")]
    groups: Option<PathBuf>,
}

/// Arguments of `gammon label choice`.
#[derive(Debug, Args)]
#[command(after_help = "Each labels file is of the positions of the groups file given with it (in \
order: the first --labels with the first --groups); a partial labels file scores the groups it \
labels whole. A result is seen by the opponent, who is on roll there: the net picks the result it \
values lowest (ties to the first, as it plays), the labels' best is the one of lowest label equity, \
and the equity given up is the label equity of the net's pick minus the labels' best's. Groups of \
fewer than two labelled results are skipped. The labels' noise: a label's equity standard error is \
at most 2 se(w) + se(wg) + se(wbg) + se(lg) + se(lbg); a group is clear when its best leads the \
runner-up by more than twice that bound of their difference. Each figure comes with its standard \
error over the groups; --baseline pairs two nets group by group.")]
struct ChoiceArgs {
    /// A labels file (`gammon label rollout`); repeat for more.
    #[arg(long, required = true, value_name = "FILE")]
    labels: Vec<PathBuf>,
    /// The groups file of its positions (`gammon label sample --groups`),
    /// one per --labels, in the same order.
    #[arg(long, required = true, value_name = "FILE")]
    groups: Vec<PathBuf>,
    /// The net scored (default: the built-in one).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Also score this net on the same groups, and the difference (--weights
    /// minus --baseline) group by group.
    #[arg(long, value_name = "FILE")]
    baseline: Option<PathBuf>,
    /// The depth of the nets' choice in plies, counted as gnubg does (0 =
    /// the static evaluation, as the nets are trained; 1 and 2 show how much
    /// a lookahead's choice agrees, each ply about 21 times slower).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=i64::from(MAX_PLIES)))]
    ply: u8,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    threads: ThreadsArg,
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
        LabelCommand::Choice(a) => choice(a),
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
    if args.disagree.is_some() && args.afterstates < 2 {
        bail!("label sample: --disagree needs --afterstates 2 or more (a roll's results to choose between)");
    }
    if args.disagree.is_some() && window == 0.0 {
        bail!("label sample: --disagree needs a --window above 0 (a window of 0 keeps one result a roll)");
    }
    if let Some(path) = &args.groups {
        if args.afterstates == 0 {
            bail!("label sample: --groups needs --afterstates 1 or more (the played positions share no roll)");
        }
        gammon_eval::file_format::check_output(path)?;
        if path == &args.out {
            bail!("label sample: --groups must be another file than --out");
        }
    }
    let w = weights(&args.weights)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let only = args.only.as_deref().and_then(|name| NetKind::ALL.into_iter().find(|k| k.name() == name));
    if let (Some("race"), Some(kind)) = (args.only.as_deref(), args.kind) {
        bail!("label sample: --only race keeps races, and no race is a {} position: give one of them", kind_name(kind));
    }
    // Sampling is a deterministic stream: a larger count extends a smaller
    // one, so drawing more until enough are kept changes no position. The
    // positions are the same with or without --groups (the sampler numbers
    // the rolls either way).
    let mut count = args.count;
    let (grouped, enough) = loop {
        let mut drawn = pool.install(|| sample_grouped(&w, count, args.seed, args.explore, args.afterstates, window));
        // On whole rolls (the sample's last may be cut by its count), before
        // any other filter takes results out of them.
        if let Some(plies) = args.disagree {
            drawn.drop_last_roll();
            drawn = pool.install(|| disagreeing_rolls(&w, plies, &drawn))?;
        }
        if let Some(only) = only {
            drawn.retain(|p| NetKind::of_position(p) == Some(only));
        }
        if let Some(kind) = args.kind {
            drawn.retain(|p| GameKind::of(p) == kind);
        }
        let enough = drawn.positions.len() >= args.count;
        if enough || count >= gammon_train::distill::MAX_POSITIONS {
            if args.disagree.is_some() {
                drawn.truncate_to_whole_rolls(args.count);
            } else {
                drawn.truncate(args.count);
            }
            break (drawn, enough);
        }
        // At most eight times as many a round: a filter that keeps almost
        // nothing does not jump to the most a sample draws at once.
        let kept = drawn.positions.len().max(1);
        count = (count * args.count / kept + 1000).min(count * 8).min(gammon_train::distill::MAX_POSITIONS);
    };
    let positions = &grouped.positions;
    if !enough {
        let cap = gammon_train::distill::MAX_POSITIONS;
        if positions.is_empty() {
            bail!("label sample: none of the {cap} positions drawn is of the kind asked for (--only, --kind, --disagree); nothing written");
        }
        eprintln!(
            "warning: {} positions of the kind asked for among the {cap} drawn (the most a sample draws), not --count {}",
            positions.len(),
            args.count
        );
    }
    let header = format!(
        "gammon label sample: {} positions, net {:?}, only {}{}{}, afterstates {}, window {}, explore {}, seed {}",
        positions.len(),
        w.meta.notes,
        args.only.as_deref().unwrap_or("all"),
        args.kind.map_or(String::new(), |k| format!(", kind {}", kind_name(k))),
        args.disagree.map_or(String::new(), |n| format!(", disagree {n}")),
        args.afterstates,
        args.window.map_or("none".to_string(), |x| x.to_string()),
        args.explore,
        args.seed
    );
    let text = positions_text(&header, positions);
    gammon_eval::file_format::write_output(&args.out, text.as_bytes())?;
    eprintln!("{} positions in {}", positions.len(), args.out.display());
    if let Some(path) = &args.groups {
        let header = format!("{header}\ngroups: the roll each position of {} is a result of", args.out.display());
        gammon_eval::file_format::write_output(path, groups_text(&header, &grouped).as_bytes())?;
        let rolls = grouped.rolls().count();
        eprintln!("{rolls} rolls in {}", path.display());
    }
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

fn choice(args: &ChoiceArgs) -> Result<()> {
    if args.labels.len() != args.groups.len() {
        bail!(
            "label choice: give one --groups per --labels (got {} --labels, {} --groups)",
            args.labels.len(),
            args.groups.len()
        );
    }
    // Every file is read and checked before anything is evaluated.
    let mut files = Vec::with_capacity(args.labels.len());
    for (labels, groups) in args.labels.iter().zip(&args.groups) {
        let data = Dataset::load(labels)?;
        let grouped = read_groups(groups)?;
        let groups = sibling_groups(&data, &grouped)
            .map_err(|e| anyhow::anyhow!("label choice: {} with {}: {e}", labels.display(), groups.display()))?;
        files.push(ChoiceFile { labels: labels.clone(), groups });
    }
    let net = weights(&args.weights)?;
    let baseline = args.baseline.as_ref().map(|b| weights(&Some(b.clone()))).transpose()?;
    let pool = args.threads.pool()?;
    let report = pool
        .install(|| gammon_train::choice::report(&files, args.ply, net, baseline))
        .map_err(|e| anyhow::anyhow!("label choice: {e}"))?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json.json {
        crate::json::write(&mut out, &report)?;
    } else {
        write_choice(&mut out, &report)?;
    }
    use std::io::Write as _;
    out.flush()?;
    Ok(())
}

/// `m` as `0.1234 ± 0.0012`.
fn pm(m: &Mean) -> String {
    format!("{:.4} ± {:.4}", m.mean, m.standard_error)
}

fn write_choice(out: &mut impl std::io::Write, report: &ChoiceReport) -> Result<()> {
    writeln!(out, "net: {}", report.net)?;
    writeln!(out, "{}-ply choice between the results of a roll against their rollout labels", report.plies)?;
    for f in &report.files {
        match &f.summary {
            Some(s) => writeln!(
                out,
                "{}: {} groups, agreement {}, equity given up {}",
                f.labels.display(),
                s.groups,
                pm(&s.agreement),
                pm(&s.given_up)
            )?,
            None => writeln!(out, "{}: no group of two or more labelled results", f.labels.display())?,
        }
    }
    let total = &report.total;
    writeln!(out)?;
    writeln!(out, "total: {} groups ({} positions) in {} files", total.groups, total.siblings, report.files.len())?;
    writeln!(out, "  picks the labels' best: {} of the groups", pm(&total.agreement))?;
    writeln!(out, "  equity given up a group: {} (label best minus the label of its pick)", pm(&total.given_up))?;
    writeln!(
        out,
        "  labels' noise: a label's equity standard error at most {:.4} (mean); the best leads the runner-up by {:.4} (mean)",
        total.mean_error_bound, total.mean_margin
    )?;
    match (total.clear_agreement, total.clear_given_up) {
        (Some(a), Some(g)) => writeln!(
            out,
            "  clear groups (lead > 2 x the bound): {}, agreement {}, equity given up {}",
            total.clear_groups,
            pm(&a),
            pm(&g)
        )?,
        _ => writeln!(out, "  clear groups (lead > 2 x the bound): none")?,
    }
    if let (Some(b), Some(p)) = (&report.baseline, &report.paired) {
        writeln!(out)?;
        writeln!(out, "baseline: {}", b.net)?;
        writeln!(
            out,
            "  picks the labels' best: {}; equity given up {}",
            pm(&b.total.agreement),
            pm(&b.total.given_up)
        )?;
        writeln!(
            out,
            "paired, net minus baseline: agreement {:+.4} ± {:.4}, equity given up {:+.4} ± {:.4}",
            p.agreement.mean, p.agreement.standard_error, p.given_up.mean, p.given_up.standard_error
        )?;
    }
    Ok(())
}

/// `--kind`'s name of a kind of game: its JSON key with a dash.
fn kind_name(kind: GameKind) -> String {
    kind.key().replace('_', "-")
}

/// A `--kind`: a kind of game other than a race.
fn game_kind(name: &str) -> Result<GameKind, String> {
    let kinds = || GameKind::ALL.into_iter().filter(|&k| k != GameKind::Race);
    kinds().find(|&k| kind_name(k) == name).ok_or_else(|| {
        let names: Vec<String> = kinds().map(kind_name).collect();
        format!("one of {}", names.join(", "))
    })
}
