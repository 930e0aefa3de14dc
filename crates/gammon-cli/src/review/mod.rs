//! `gammon review FILE`: every move and cube decision of a match file
//! analysed as gnubg's `analyse match` analyses it (the engine's
//! [`review`](gammon_engine::review) module), printed as a report for
//! people, as JSON (`--json`) or as a self-contained HTML page (`--html`).

mod batch;
mod escape;
mod html;
mod svg_board;
mod text;
mod words;

use crate::args::{MetArg, ThreadsArg, WeightsArg};
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::api::Engine;
use gammon_engine::review::{MatchReview, ReviewError, ReviewSettings};
use gammon_engine::search::MoveFilter;
use gammon_jobs::{Bar, Press, Progress, StopFlag, INTERRUPTED};
use gammon_rules::{read_match_file_until_error_with_analysis, read_match_file_with_analysis, MatchRecord};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Arguments of `gammon review`.
#[derive(Debug, Args)]
#[command(after_help = "Reads Jellyfish/gnubg .mat text (also FIBS, Backgammon Galaxy, Backgammon Studio and \
XG text exports) and gnubg .sgf files; the content decides the format. Every move is ranked by cubeful \
equity at the match score (money: per unit of cube; match: normalised equity, EMG) through gnubg's \
move filter, the move played always at full depth; losses above 0.03, 0.06 and 0.12 are marked doubtful, \
bad and very bad. Cube decisions are reviewed before every roll where a double was possible, at every \
double and every answer. Plies are counted as gnubg counts them (0 = the net's static evaluation). \
Error rates are per decision in milli-equity (gnubg's mEMG); PR = 500 x the mean error per decision.")]
pub struct ReviewArgs {
    /// The match file (.mat, .txt, .sgf, .xg, .ogxm), or several files
    /// and folders of them: each is reviewed, then a table per player across
    /// all of them.
    #[arg(required = true, num_args = 1.., value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Depth of the move analysis, 0 to 3 plies (gnubg's default 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=i64::from(gammon_engine::review::MAX_REVIEW_PLIES)))]
    ply: u8,
    /// Depth of the cube decisions, 0 to 3 plies (gnubg's default 2).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=i64::from(gammon_engine::review::MAX_REVIEW_PLIES)))]
    cube_ply: u8,
    /// The move filter: `normal` (gnubg's hint: up to 8 moves within 0.16
    /// after 0 ply go to full depth) or `large` (gnubg's analysis: 16 within
    /// 0.32; about 1.7 times the time, the same marks in our measurements).
    #[arg(long, value_enum, default_value_t = Filter::Normal)]
    filter: Filter,
    /// Inside the lookahead of the move analysis, evaluate with the net only
    /// the best N moves of each roll by pubeval, as gnubg screens them with
    /// its pruning nets (0: every move; 8 measured the same as 0 against
    /// gnubg at about half the time).
    #[arg(long, value_name = "N", default_value_t = 8)]
    prune: usize,
    /// Review the games before the first game that does not replay (and
    /// say which and why) instead of refusing the file.
    #[arg(long)]
    keep_going: bool,
    /// Print the review as JSON (the schema is in docs/review.md).
    #[arg(long, conflicts_with = "html")]
    json: bool,
    /// Write a self-contained HTML report (boards of every error) to OUT.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Also write the match with gammon's analysis in gnubg's SGF dialect to
    /// OUT: gnubg opens it and shows gammon's equities and marks.
    #[arg(long, value_name = "OUT")]
    sgf: Option<PathBuf>,
    /// Also write the match with gammon's analysis as OGXM v2 to OUT (read
    /// by GammonView, AnkiGammon and HedgeHog's codec).
    #[arg(long, value_name = "OUT")]
    ogxm: Option<PathBuf>,
    #[command(flatten)]
    threads: ThreadsArg,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    met: MetArg,
}

/// `--filter`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Filter {
    /// gnubg's large filter.
    Large,
    /// gnubg's normal filter.
    Normal,
}

/// Runs `gammon review`: one match file as always, or a batch.
pub fn run(args: &ReviewArgs) -> Result<()> {
    match args.files.as_slice() {
        [file] if !file.is_dir() => run_one(args, file),
        paths => batch::run(args, paths),
    }
}

/// The engine and the settings of a review, from the arguments.
fn setup(args: &ReviewArgs) -> Result<(Engine<gammon_eval::NetEvaluator>, ReviewSettings)> {
    let engine = Engine::new(args.weights.net()?).with_met(args.met.met()?);
    let filter = match args.filter {
        Filter::Large => MoveFilter::LARGE,
        Filter::Normal => MoveFilter::NORMAL,
    };
    let settings = ReviewSettings {
        plies: args.ply,
        cube_plies: args.cube_ply,
        filter,
        prune: args.prune,
        ..ReviewSettings::default()
    };
    Ok((engine, settings))
}

/// Reviews one match file.
fn run_one(args: &ReviewArgs, file: &Path) -> Result<()> {
    let (engine, settings) = setup(args)?;
    let record = read(file, args.keep_going, engine.met())?;
    if record.games.is_empty() {
        bail!("{}: no game to review", file.display());
    }
    // The outputs are checked before the work, not after it.
    for path in [&args.html, &args.sgf, &args.ogxm].into_iter().flatten() {
        crate::convert_cmd::refuse_overwriting(file, path)?;
        gammon_eval::file_format::check_output(path)?;
    }
    let pool = args.threads.pool()?;
    let bar = Bar::new("review [{bar:30}] {pos}/{len} records, ETA {eta}", std::io::stderr().is_terminal());
    let shown = bar.clone();
    let stop = StopFlag::on_signals(move |press| {
        if press == Press::First {
            shown.note(
                "interrupted: finishing the records in hand, then writing the review of every record \
                 reviewed (interrupt again to quit now)",
            );
        }
    })?;
    let review = pool.install(|| {
        engine.review(&record, &settings, |done, total| bar.report(done as u64, total as u64), stop.as_atomic())
    });
    bar.clear();
    let review = match review {
        Err(ReviewError::Interrupted) => {
            eprintln!("stopped before any record was reviewed: no review");
            std::process::exit(INTERRUPTED);
        }
        r => r.with_context(|| format!("cannot review {}", file.display()))?,
    };
    // The review first: a failing analysed file does not cost it.
    write_review(args, &review, &record)?;
    if let Some(path) = &args.sgf {
        write_analysed(path, crate::convert_cmd::MatchFormat::Sgf, &review, &record, engine.met())?;
    }
    if let Some(path) = &args.ogxm {
        write_analysed(path, crate::convert_cmd::MatchFormat::Ogxm, &review, &record, engine.met())?;
    }
    if review.is_partial() {
        eprintln!(
            "stopped: the review covers the first {} of {} records ({})",
            review.records_reviewed,
            review.records,
            if args.html.is_some() { "said at the top of the page" } else { "said in the review" }
        );
        std::process::exit(INTERRUPTED);
    }
    Ok(())
}

/// The review as HTML to `--html`, or as JSON or text to standard output.
fn write_review(args: &ReviewArgs, review: &MatchReview, record: &MatchRecord) -> Result<()> {
    if let Some(path) = &args.html {
        write_html(path, review, record)?;
        eprintln!("wrote {}", path.display());
        return Ok(());
    }
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json {
        crate::json::write(&mut out, review)?;
    } else {
        text::report(&mut out, review, record)?;
    }
    out.flush()?;
    Ok(())
}

/// The match, or with `keep_going` the games before the first bad one.
/// An SGF file's gnubg analysis, and an .xg or OGXM file's, is kept for
/// the review to show beside its own (`met` reads gnubg's match values).
fn read(path: &Path, keep_going: bool, met: &gammon_engine::met::Met) -> Result<MatchRecord> {
    if !keep_going {
        return Ok(read_match_file_with_analysis(path, met)?);
    }
    let (record, error) = read_match_file_until_error_with_analysis(path, met)?;
    if let Some(e) = error {
        eprintln!("warning: {}: {e}; reviewing the {} game(s) before it", path.display(), record.games.len());
    }
    Ok(record)
}

/// The match with gammon's analysis (of the records reviewed) in `format`,
/// written by the safe writer; what the format cannot hold is said on
/// standard error.
fn write_analysed(
    path: &Path,
    format: crate::convert_cmd::MatchFormat,
    review: &MatchReview,
    record: &MatchRecord,
    met: &gammon_engine::met::Met,
) -> Result<()> {
    let mut analysed = record.clone();
    analysed.stored = Some(review.to_stored(&format!("gammon {}", env!("CARGO_PKG_VERSION"))));
    let (bytes, notes) = format.render(&analysed, met)?;
    for note in notes {
        eprintln!("note: {note}");
    }
    gammon_eval::file_format::write_output(path, &bytes)
        .with_context(|| format!("cannot write the analysed match to {}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}

/// The HTML report, written by the safe writer.
fn write_html(path: &Path, review: &MatchReview, record: &MatchRecord) -> Result<()> {
    Ok(gammon_eval::file_format::write_output(path, html::page(review, record).as_bytes())?)
}
