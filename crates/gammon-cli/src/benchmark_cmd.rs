//! `gammon benchmark`: a net measured against labelled positions (the
//! yardstick's TSV files, gammon's own datasets). The reading, the kinds of
//! game and the figures are `gammon_train::benchmark`'s; this module reads
//! the arguments and prints.

use crate::args::{JsonArg, ThreadsArg, WeightsArg};
use crate::json;
use anyhow::{bail, Result};
use clap::Args;
use gammon_engine::api::Engine;
use gammon_train::benchmark::{self, Format, GameKind, Group, LabelledSet, Summary, Tally, CLASSES, OUTPUTS};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The most files one benchmark reads.
const MAX_FILES: usize = 10_000;

/// Arguments of `gammon benchmark`.
#[derive(Debug, Args)]
#[command(after_help = "A FILE is a yardstick TSV (one `<Position ID>\\t<win wg wbg lg lbg>` a line, the \
probabilities of the side on roll before rolling, as in ../shared/yardstick/) or a gammon dataset \
(`gammon label rollout`, `gammon distill`), told apart by content. For each file: the mean |error| and \
the bias (mean error) of the cubeless equity, error = the net's equity minus the label's; the bias and \
mean |error| of each of the five outputs; the equity error by position class (which net answers) and by \
kind of game (race, back game, blitz, prime, holding, other: definitions in docs/benchmark.md). Then a \
total over all files. The figures do not depend on --threads.")]
pub struct BenchmarkArgs {
    /// Labelled positions: yardstick TSV files or gammon datasets.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    #[command(flatten)]
    weights: WeightsArg,
    /// Evaluation depth in plies, 0 to 3, counted as gnubg does (0 = the
    /// net's static evaluation; each ply costs about 21 times more).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=i64::from(gammon_engine::api::MAX_PLY)))]
    ply: u8,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    threads: ThreadsArg,
}

/// One file's figures, as measured.
struct Measured {
    set: LabelledSet,
    summary: Summary,
}

/// Runs `gammon benchmark`.
pub fn run(args: &BenchmarkArgs) -> Result<()> {
    if args.files.len() > MAX_FILES {
        bail!("benchmark: at most {MAX_FILES} files at once (got {})", args.files.len());
    }
    // Every file is read and checked before anything is evaluated.
    let sets: Vec<LabelledSet> = args.files.iter().map(|f| LabelledSet::read(f)).collect::<Result<_, _>>()?;
    let engine = Engine::new(args.weights.net()?);
    let pool = args.threads.pool()?;
    let start = Instant::now();
    let mut total = Tally::default();
    let mut measured = Vec::with_capacity(sets.len());
    for set in sets {
        let tally = Tally::of(&pool.install(|| benchmark::measure(&engine, &set.positions, args.ply)));
        total.merge(&tally);
        let Some(summary) = tally.summary() else { bail!("{}: no labelled positions", set.path.display()) };
        measured.push(Measured { set, summary });
    }
    let seconds = start.elapsed().as_secs_f64();
    let Some(total) = total.summary() else { bail!("benchmark: no labelled positions") };
    let run = RunInfo { evaluator: engine.name(), plies: args.ply, threads: pool.current_num_threads(), seconds };
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json.json {
        json::write(&mut out, &BenchmarkJson::new(&run, args, &measured, &total))?;
    } else {
        write_text(&mut out, &run, &measured, &total)?;
    }
    out.flush()?;
    Ok(())
}

/// What was measured with what.
struct RunInfo {
    evaluator: String,
    plies: u8,
    threads: usize,
    seconds: f64,
}

// ------------------------------------------------------------------ text

/// `x` with its sign: `+0.0123`, `-0.0040`.
fn signed(x: f64) -> String {
    format!("{x:+.4}")
}

/// Where a file's labels come from, in words.
fn format_name(format: &Format) -> String {
    match format {
        Format::Tsv => "yardstick TSV".into(),
        Format::Dataset { labeller } => format!("gammon dataset, labels: {labeller}"),
    }
}

fn write_text(out: &mut impl Write, run: &RunInfo, measured: &[Measured], total: &Summary) -> Result<()> {
    writeln!(out, "evaluator: {}", run.evaluator)?;
    writeln!(out, "{}-ply, cubeless; error = evaluation - label; equity = 2w - 1 + wg - lg + wbg - lbg", run.plies)?;
    for m in measured {
        writeln!(out)?;
        writeln!(out, "{}: {} positions ({})", m.set.path.display(), m.summary.positions, format_name(&m.set.format))?;
        write_summary(out, &m.summary)?;
    }
    if measured.len() > 1 {
        writeln!(out)?;
        writeln!(out, "total: {} positions in {} files", total.positions, measured.len())?;
        write_summary(out, total)?;
    }
    writeln!(out)?;
    writeln!(out, "{} positions in {:.2} s ({} threads)", total.positions, run.seconds, run.threads)?;
    Ok(())
}

fn write_summary(out: &mut impl Write, s: &Summary) -> Result<()> {
    writeln!(out, "  {:<18}{:>10}{:>15}{:>10}", "", "positions", "mean |error|", "bias")?;
    writeln!(
        out,
        "  {:<18}{:>10}{:>15.4}{:>10}",
        "equity",
        s.positions,
        s.equity.mean_abs_error,
        signed(s.equity.bias)
    )?;
    for (name, e) in OUTPUTS.iter().zip(&s.outputs) {
        writeln!(out, "  {:<18}{:>10}{:>15.4}{:>10}", name.replace('_', " "), "", e.mean_abs_error, signed(e.bias))?;
    }
    writeln!(out, "  by class")?;
    for (class, g) in CLASSES.iter().zip(&s.by_class) {
        write_group(out, class.name(), g)?;
    }
    writeln!(out, "  by kind of game")?;
    for (kind, g) in GameKind::ALL.iter().zip(&s.by_kind) {
        write_group(out, kind.name(), g)?;
    }
    Ok(())
}

/// A class's or kind's row; none for a group without positions.
fn write_group(out: &mut impl Write, name: &str, g: &Group) -> Result<()> {
    if let Some(e) = g.errors {
        writeln!(out, "    {name:<16}{:>10}{:>15.4}{:>10}", g.positions, e.mean_abs_error, signed(e.bias))?;
    }
    Ok(())
}

// ------------------------------------------------------------------ JSON

/// `gammon benchmark --json` (docs/benchmark.md).
#[derive(Serialize)]
struct BenchmarkJson<'a> {
    /// The evaluator's name.
    evaluator: &'a str,
    /// The weights file, `null` for the shipped net.
    weights: Option<String>,
    ply: u8,
    files: Vec<FileJson<'a>>,
    /// All files together (the one file's figures for one file).
    total: &'a Summary,
    threads: usize,
    seconds: f64,
}

#[derive(Serialize)]
struct FileJson<'a> {
    file: String,
    /// `tsv` or `dataset`.
    format: &'static str,
    /// How a dataset's labels were made (`null` for a TSV).
    labeller: Option<&'a str>,
    #[serde(flatten)]
    summary: &'a Summary,
}

impl<'a> BenchmarkJson<'a> {
    fn new(run: &'a RunInfo, args: &BenchmarkArgs, measured: &'a [Measured], total: &'a Summary) -> Self {
        BenchmarkJson {
            evaluator: &run.evaluator,
            weights: args.weights.weights.as_ref().map(|p| p.display().to_string()),
            ply: run.plies,
            files: measured
                .iter()
                .map(|m| FileJson {
                    file: m.set.path.display().to_string(),
                    format: m.set.format.key(),
                    labeller: match &m.set.format {
                        Format::Dataset { labeller } => Some(labeller),
                        Format::Tsv => None,
                    },
                    summary: &m.summary,
                })
                .collect(),
            total,
            threads: run.threads,
            seconds: run.seconds,
        }
    }
}
