//! `gammon fit`: supervised training of a net toward labelled positions
//! (rollout labels from `gammon label rollout`, lookahead labels from
//! `gammon distill`), with a held-out validation set and early stopping.
//!
//! Files in `--out`: `weights.gnn` (the best net of each kind),
//! `fit-report.json` (the settings, the data and every epoch),
//! `learning-curve.csv` (one row per net and epoch).

use crate::args::{threads_help, threads_parser};
use anyhow::{Context, Result};
use clap::Args;
use gammon_eval::mlp::Mlp;
use gammon_eval::{NetKind, NetWeights};
use gammon_jobs::{Bar, Progress, StopFlag, INTERRUPTED};
use gammon_train::dataset::Dataset;
use gammon_train::ranking::{groups_of, Ranking, MAX_RANKING_WEIGHT};
use gammon_train::siblings::{read_groups, Grouped};
use gammon_train::supervised::{fit_supervised_with, FitData, FitError, FitSettings, Loss, Optimizer, MAX_REPEAT};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `gammon fit`.
#[derive(Debug, Args)]
pub struct FitArgs {
    /// The net to start from (a weights file).
    #[arg(long)]
    from: PathBuf,
    /// A labelled dataset (`gammon label rollout` or `gammon distill`'s
    /// `dataset.gds`); repeat for several.
    #[arg(long = "data", required = true)]
    data: Vec<PathBuf>,
    /// Folder for the weights and the report.
    #[arg(long)]
    out: PathBuf,
    /// Grow the contact and crashed nets to this many hidden units first
    /// (the new units start silent).
    #[arg(long)]
    hidden: Option<usize>,
    /// Grow the race net to this many hidden units first.
    #[arg(long)]
    race_hidden: Option<usize>,
    /// Start the crashed net from the contact net (for a net trained
    /// before it had a crashed net of its own).
    #[arg(long)]
    crashed_from_contact: bool,
    /// Start this net afresh, `NET=HIDDEN` (`contact`, `crashed` or `race`;
    /// 1 to 4096 hidden units): random weights (±0.1, from --seed) instead
    /// of --from's, which keeps its other nets. A net trained by self-play
    /// can sit where no fit moves it (the TD-trained race net did,
    /// training/runs/race-fresh); repeat for several.
    #[arg(long, value_name = "NET=HIDDEN", value_parser = fresh_net)]
    fresh: Vec<(NetKind, usize)>,
    /// Fit only this net (`contact`, `crashed` or `race`); the others are
    /// --from's and the data's positions of their kinds are not used.
    #[arg(long, value_name = "NET", value_parser = net_kind)]
    only: Option<NetKind>,
    /// The loss: `squared` (squared error through the output sigmoids) or
    /// `cross-entropy` (keeps learning where an output is near 0 or 1).
    #[arg(long, default_value = "squared", value_parser = ["squared", "cross-entropy"])]
    loss: String,
    /// How a batch's gradient moves the weights: `sgd` (plain descent,
    /// `--rate` times the gradient) or `adam` (per weight, the gradient's
    /// running mean over the root of its running square; rates about 0.001).
    #[arg(long, default_value = "sgd", value_parser = ["sgd", "adam"])]
    optimizer: String,
    /// The most passes over the training positions.
    #[arg(long, default_value_t = 40)]
    max_epochs: u32,
    /// Positions per mini-batch.
    #[arg(long, default_value_t = 32)]
    batch: usize,
    /// Learning rate on the mean gradient of a batch (halves when the
    /// validation error stops falling).
    #[arg(long, default_value_t = 1.0)]
    rate: f32,
    /// Halvings of the rate (each after --halve-after epochs without a new
    /// best validation error, counted over the whole fit) before a net stops.
    #[arg(long, default_value_t = 3)]
    patience: u32,
    /// Epochs in a row without a new best validation error before the net
    /// goes back to its best and the rate halves (1 to 20; 1: after each).
    #[arg(long, default_value_t = 1)]
    halve_after: u32,
    /// Fraction of the positions held out for validation.
    #[arg(long, default_value_t = 0.05)]
    validation: f64,
    /// Seed of the training order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = threads_parser(), help = threads_help("Worker threads (the result does not depend on them)."))]
    threads: usize,
    /// The groups file of each --data's positions (`gammon label sample
    /// --groups`: which positions are results of the same roll), one per
    /// --data in the same order; for --ranking.
    #[arg(long = "groups", value_name = "FILE", requires = "ranking")]
    groups: Vec<PathBuf>,
    /// Also fit the net's equity differences between the results of one
    /// roll (what its 0-ply choice goes by), with this weight beside each
    /// position's own error: W/2 x ((E(a) - E(b)) - (L(a) - L(b)))^2 for
    /// every pair of training results of a roll (above 0, at most 100; 4
    /// fitted the campaign's shipped net, training/runs/c-fit5).
    #[arg(long, value_name = "W", requires = "groups", value_parser = ranking_weight)]
    ranking: Option<f32>,
    /// Meet each position of a --data file N times an epoch instead of
    /// once (1 to 10): a weight on positions rare in the other files, such
    /// as the campaign's back-game chunks (with its ranking pairs). `FILE=N`
    /// with FILE as given to --data; repeat for several; a position in
    /// several files takes the largest N. The validation error weighs every
    /// position once.
    #[arg(long = "repeat", value_name = "FILE=N", value_parser = repeat_spec)]
    repeat: Vec<(PathBuf, u32)>,
    /// Learn only the ranking term from this --data file (the differences
    /// between the results of a roll), not its labels' values: for labels
    /// whose level is off but whose differences are sound, such as the
    /// campaign's rollouts truncated by a net with dead backgammon outputs
    /// (c001-c013). A position also in another --data file takes that
    /// file's labels and gives no pairs here; the file's labels are never
    /// validated on. FILE as given to --data; repeat for several; needs
    /// --ranking.
    #[arg(long = "rank-only", value_name = "FILE", requires = "ranking")]
    rank_only: Vec<PathBuf>,
    /// The net's name, stored in the weights file (what `gammon eval`
    /// calls the evaluator); default: the starting net's, plus what this fit
    /// learned from.
    #[arg(long)]
    name: Option<String>,
}

/// Runs `gammon fit`.
pub fn run(args: &FitArgs) -> Result<()> {
    let loss = if args.loss == "cross-entropy" { Loss::CrossEntropy } else { Loss::SquaredError };
    let settings = FitSettings {
        loss,
        max_epochs: args.max_epochs,
        batch: args.batch,
        rate: args.rate,
        patience: args.patience,
        halve_after: args.halve_after,
        validation: args.validation,
        seed: args.seed,
        optimizer: if args.optimizer == "adam" { Optimizer::Adam } else { Optimizer::Sgd },
        only: args.only,
    };
    settings.validate().map_err(|e| match e {
        // The library names its fields; the command line, its flags.
        FitError::Setting { setting, rule, got } => {
            anyhow::anyhow!("fit: --{} must be {rule} (got {got})", setting.replace('_', "-"))
        }
        other => anyhow::anyhow!("fit: {other}"),
    })?;
    let mut weights = NetWeights::load(&args.from).context("cannot load the --from weights")?;
    if let Some(h) = args.hidden {
        if h == 0 || h > 4096 {
            anyhow::bail!("fit: --hidden must be 1 to 4096 (got {h})");
        }
        weights.contact = weights.contact.grown(h, 0.1, args.seed);
        weights.crashed = weights.crashed.grown(h, 0.1, args.seed ^ 2);
    }
    if let Some(h) = args.race_hidden {
        if h == 0 || h > 4096 {
            anyhow::bail!("fit: --race-hidden must be 1 to 4096 (got {h})");
        }
        weights.race = weights.race.grown(h, 0.1, args.seed ^ 1);
    }
    if args.crashed_from_contact {
        weights.crashed = weights.contact.clone();
    }
    for (i, &(kind, hidden)) in args.fresh.iter().enumerate() {
        let name = kind.name();
        let other = match kind {
            _ if args.fresh[..i].iter().any(|&(k, _)| k == kind) => Some("another --fresh"),
            NetKind::Race if args.race_hidden.is_some() => Some("--race-hidden"),
            NetKind::Contact | NetKind::Crashed if args.hidden.is_some() => Some("--hidden"),
            NetKind::Crashed if args.crashed_from_contact => Some("--crashed-from-contact"),
            _ if args.only.is_some_and(|only| only != kind) => Some("--only, which fits another net"),
            _ => None,
        };
        if let Some(other) = other {
            anyhow::bail!("fit: --fresh {name}=... starts the {name} net afresh; it cannot go with {other}");
        }
        let net = weights.net_mut(kind);
        *net = Mlp::random(net.inputs(), hidden, 0.1, args.seed ^ (0xF5E5_0000 + kind.index() as u64));
    }
    // Before reading the files: a misspelt --repeat fails at once.
    let repeats = repeats_of(&args.data, &args.repeat)?;
    let rank_only = rank_only_of(&args.data, &args.rank_only)?;
    let datasets: Vec<Dataset> = args.data.iter().map(|p| Dataset::load(p)).collect::<Result<_, _>>()?;
    if args.ranking.is_some() && args.groups.len() != args.data.len() {
        anyhow::bail!(
            "fit: give one --groups per --data, in the same order (got {} --data, {} --groups)",
            args.data.len(),
            args.groups.len()
        );
    }
    let grouped: Vec<Grouped> = args.groups.iter().map(|p| read_groups(p)).collect::<Result<_, _>>()?;
    let mut groups = Vec::with_capacity(grouped.len());
    for ((d, g), (data, path)) in datasets.iter().zip(&grouped).zip(args.data.iter().zip(&args.groups)) {
        let of =
            groups_of(d, g).map_err(|e| anyhow::anyhow!("fit: {} with {}: {e}", data.display(), path.display()))?;
        groups.push(Some(of));
    }
    let ranking = args.ranking.map(|weight| Ranking { groups, weight });
    std::fs::create_dir_all(&args.out).with_context(|| format!("cannot create {}", args.out.display()))?;
    gammon_eval::file_format::check_output(&args.out.join("weights.gnn"))?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let refs: Vec<&Dataset> = datasets.iter().collect();
    let start = std::time::Instant::now();
    let stop = StopFlag::on_signals_saying(
        "interrupted: finishing this epoch, then writing the best net so far \
         (interrupt again to quit at once, writing nothing)",
    )?;
    // The bar counts epochs against the most there can be (early stopping ends a net sooner).
    let bar = Bar::new("fit [{bar:30}] {pos}/{len} epochs at most", std::io::stderr().is_terminal());
    let most = u64::from(settings.max_epochs) * if args.only.is_some() { 1 } else { NetKind::ALL.len() as u64 };
    let mut epochs = 0;
    let report = pool.install(|| {
        let each = |row: &gammon_train::supervised::EpochRow| {
            epochs += 1;
            bar.note(&row.to_string());
            bar.report(epochs, most);
        };
        let data = FitData { ranking: ranking.as_ref(), repeats: repeats.as_deref(), rank_only: rank_only.as_deref() };
        fit_supervised_with(&mut weights, &refs, data, &settings, each, stop.as_atomic())
    });
    bar.clear();
    let report = report.map_err(|e| anyhow::anyhow!("fit: {e}"))?;
    if report.duplicates > 0 {
        eprintln!(
            "{} positions were met more than once across the datasets: each was fitted once, to the mean of its labels \
             (its value labels where a --rank-only file meets another)",
            report.duplicates
        );
    }
    for n in &report.nets {
        println!("{n}");
    }
    // A --fresh net the data cannot fit would be written as its random start.
    for &(kind, _) in &args.fresh {
        let fitted = report.nets.iter().any(|n| n.net == kind.name() && n.train > 0 && n.validation > 0);
        if !fitted && !report.stopped {
            anyhow::bail!(
                "fit: --fresh {0}=...: the data has no {0} positions to train and validate it on; nothing written",
                kind.name()
            );
        }
    }
    let sources: Vec<String> = datasets.iter().map(|d| format!("{} positions: {}", d.len(), d.labeller)).collect();
    weights.meta.notes = match &args.name {
        Some(name) => name.clone(),
        None => {
            let fresh: String = args.fresh.iter().map(|(k, h)| format!(" + a fresh {} net of {h}", k.name())).collect();
            format!("{}{fresh} + supervised fit ({})", weights.meta.notes, grouped_sources(&datasets))
        }
    };
    weights.meta.date = gammon_train::trainer::utc_now();
    weights.meta.learning_rate = settings.rate;
    let out = args.out.join("weights.gnn");
    weights.save(&out)?;
    let mut csv = String::from("net,epoch,rate,train_mse,validation_mse,validation_equity_error,best\n");
    for r in &report.epochs {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{}",
            r.net, r.epoch, r.rate, r.train_mse, r.validation_mse, r.validation_equity_error, r.best
        );
    }
    write_atomic(&args.out.join("learning-curve.csv"), csv.as_bytes())?;
    let json = serde_json::json!({
        "from": args.from,
        "data": args.data.iter().zip(&sources).enumerate().map(|(k, (p, s))| {
            let repeat = repeats.as_ref().map_or(1, |r| r[k]);
            let rank_only = rank_only.as_ref().is_some_and(|r| r[k]);
            serde_json::json!({"path": p, "about": s, "groups": args.groups.get(k), "repeat": repeat, "rank_only": rank_only})
        }).collect::<Vec<_>>(),
        "ranking_weight": args.ranking,
        "hidden": NetKind::ALL.map(|k| (k.name(), weights.net(k).hidden())),
        "fresh": args.fresh.iter().map(|(k, h)| serde_json::json!({"net": k.name(), "hidden": h})).collect::<Vec<_>>(),
        "grown": {"hidden": args.hidden, "race_hidden": args.race_hidden},
        "crashed_from_contact": args.crashed_from_contact,
        "settings": settings,
        "seconds": start.elapsed().as_secs_f64(),
        "report": report,
    });
    write_atomic(&args.out.join("fit-report.json"), crate::json::pretty(&json)?.as_bytes())?;
    if report.stopped {
        eprintln!(
            "stopped: kept the best epoch of each net fitted so far ({} epochs in all) in {}; the nets not reached are --from's (a --fresh one: its random start)",
            report.epochs.len(),
            out.display()
        );
        std::process::exit(INTERRUPTED);
    }
    eprintln!("weights in {}", out.display());
    Ok(())
}

/// A net's name (`--only`).
fn net_kind(name: &str) -> Result<NetKind, String> {
    NetKind::ALL
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| format!("a net named contact, crashed or race, not {name:?}"))
}

/// `NET=HIDDEN` of `--fresh`.
fn fresh_net(text: &str) -> Result<(NetKind, usize), String> {
    let (name, hidden) = text.split_once('=').ok_or("NET=HIDDEN, such as race=128")?;
    let kind = net_kind(name)?;
    match hidden.parse::<usize>() {
        Ok(h) if (1..=4096).contains(&h) => Ok((kind, h)),
        _ => Err(format!("1 to 4096 hidden units, not {hidden:?}")),
    }
}

/// A ranking weight: finite, above 0, at most [`MAX_RANKING_WEIGHT`].
fn ranking_weight(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(w) if w.is_finite() && w > 0.0 && w <= MAX_RANKING_WEIGHT => Ok(w),
        _ => Err(format!("a weight above 0 and at most {MAX_RANKING_WEIGHT}")),
    }
}

/// `FILE=N` of `--repeat`.
fn repeat_spec(text: &str) -> Result<(PathBuf, u32), String> {
    let (file, n) = text.rsplit_once('=').ok_or("FILE=N: a --data file and how many times an epoch meets it")?;
    if file.is_empty() {
        return Err(format!("FILE=N names no file (got {text:?})"));
    }
    match n.parse::<u32>() {
        Ok(n) if (1..=MAX_REPEAT).contains(&n) => Ok((PathBuf::from(file), n)),
        _ => Err(format!("FILE=N with N from 1 to {MAX_REPEAT} (got {text:?})")),
    }
}

/// The repeat count of each --data file (`None`: no --repeat).
fn repeats_of(data: &[PathBuf], specs: &[(PathBuf, u32)]) -> Result<Option<Vec<u32>>> {
    if specs.is_empty() {
        return Ok(None);
    }
    for (k, (file, _)) in specs.iter().enumerate() {
        if !data.contains(file) {
            anyhow::bail!(
                "fit: --repeat {}: not one of the --data files (give the path as --data has it)",
                file.display()
            );
        }
        if specs[..k].iter().any(|(f, _)| f == file) {
            anyhow::bail!("fit: --repeat {}: given twice", file.display());
        }
    }
    Ok(Some(data.iter().map(|d| specs.iter().find(|(f, _)| f == d).map_or(1, |&(_, n)| n)).collect()))
}

/// Whether each --data file is --rank-only (`None`: none is).
fn rank_only_of(data: &[PathBuf], files: &[PathBuf]) -> Result<Option<Vec<bool>>> {
    if files.is_empty() {
        return Ok(None);
    }
    for (k, file) in files.iter().enumerate() {
        if !data.contains(file) {
            anyhow::bail!(
                "fit: --rank-only {}: not one of the --data files (give the path as --data has it)",
                file.display()
            );
        }
        if files[..k].contains(file) {
            anyhow::bail!("fit: --rank-only {}: given twice", file.display());
        }
    }
    if data.iter().all(|d| files.contains(d)) {
        anyhow::bail!("fit: --rank-only names every --data file: no labels would teach the values");
    }
    Ok(Some(data.iter().map(|d| files.contains(d)).collect()))
}

fn write_atomic(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    Ok(gammon_eval::file_format::write_output(path, bytes)?)
}

/// The datasets for a net's description: datasets whose labeller differs only
/// in its seed (a campaign's chunks) once, with their total, so that fitting
/// to many chunks does not make a description kilobytes long
/// (`fit-report.json` keeps every dataset's own labeller).
fn grouped_sources(datasets: &[Dataset]) -> String {
    let mut groups: Vec<(String, usize, usize)> = Vec::new();
    for d in datasets {
        let labeller = without_seed(&d.labeller);
        match groups.iter_mut().find(|(l, _, _)| *l == labeller) {
            Some((_, positions, count)) => {
                *positions += d.len();
                *count += 1;
            }
            None => groups.push((labeller, d.len(), 1)),
        }
    }
    let groups: Vec<String> = groups
        .into_iter()
        .map(|(labeller, positions, count)| match count {
            1 => format!("{positions} positions: {labeller}"),
            n => format!("{positions} positions in {n} datasets: {labeller}"),
        })
        .collect();
    groups.join("; ")
}

/// `labeller` without its `, seed N` (rollout labels) or `seed N` part.
fn without_seed(labeller: &str) -> String {
    let Some(at) = labeller.find("seed ") else { return labeller.to_string() };
    let digits = labeller[at + 5..].chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return labeller.to_string();
    }
    let start = if labeller[..at].ends_with(", ") { at - 2 } else { at };
    format!("{}{}", &labeller[..start], &labeller[at + 5 + digits..])
}

#[cfg(test)]
mod tests {
    use super::without_seed;

    #[test]
    fn a_labellers_seed_is_left_out() {
        assert_eq!(
            without_seed("0-ply rollout: 72 trials, quasi-random dice, seed 25014; net \"n\" (ab)"),
            "0-ply rollout: 72 trials, quasi-random dice; net \"n\" (ab)"
        );
        assert_eq!(without_seed("2-ply labels, seed 3"), "2-ply labels");
        assert_eq!(without_seed("no seed here"), "no seed here");
    }
}
