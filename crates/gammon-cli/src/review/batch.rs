//! `gammon review A.xg B.mat FOLDER ...`: many matches reviewed, then one
//! table per player across all of them, as a player studies his last
//! hundred matches.

use super::{read, setup, ReviewArgs};
use anyhow::{bail, Context, Result};
use gammon_engine::review::{totals_by_player, MatchReview, PlayerTotals, ReviewError};
use gammon_jobs::{Bar, Press, Progress, StopFlag, INTERRUPTED};
use rayon::prelude::*;
use serde::Serialize;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// The most files one review takes (a folder of a player's matches is a
/// few thousand).
const MAX_FILES: usize = 100_000;

/// The extensions of the match files a folder is searched for.
const MATCH_EXTENSIONS: [&str; 6] = ["mat", "txt", "sgf", "xg", "ogxm", "gvab"];

/// What became of one file.
enum Outcome {
    Reviewed(Box<MatchReview>),
    Failed(String),
    /// Not started, or stopped before its first record: no error of the file.
    Stopped,
}

/// Reviews every file of `paths` (folders: their match files, by name).
pub(super) fn run(args: &ReviewArgs, paths: &[PathBuf]) -> Result<()> {
    if args.html.is_some() || args.sgf.is_some() || args.ogxm.is_some() {
        bail!("--html, --sgf and --ogxm write one match file's review; give one file, or leave them out");
    }
    let files = expand(paths)?;
    if files.is_empty() {
        bail!("no match file in {}", paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "));
    }
    let (engine, settings) = setup(args)?;
    let pool = args.threads.pool()?;
    let bar = Bar::new("review [{bar:30}] {pos}/{len} files, ETA {eta}", std::io::stderr().is_terminal());
    let shown = bar.clone();
    let stop = StopFlag::on_signals(move |press| {
        if press == Press::First {
            shown.note("interrupted: finishing the records in hand of each file (interrupt again to quit now)");
        }
    })?;
    let done = std::sync::atomic::AtomicU64::new(0);
    let total = files.len() as u64;
    let outcomes: Vec<Outcome> = pool.install(|| {
        files
            .par_iter()
            .map(|file| {
                let outcome = review_one(args, &engine, &settings, file, stop.as_atomic());
                bar.report(done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1, total);
                outcome
            })
            .collect()
    });
    bar.clear();
    let failed = outcomes.iter().filter(|o| matches!(o, Outcome::Failed(_))).count();
    for (file, outcome) in files.iter().zip(&outcomes) {
        if let Outcome::Failed(why) = outcome {
            // A reading error names the file already.
            let name = file.display().to_string();
            if why.contains(&name) {
                eprintln!("error: {why}");
            } else {
                eprintln!("error: {name}: {why}");
            }
        }
    }
    let stopped = stop.as_atomic().load(std::sync::atomic::Ordering::Relaxed);
    if failed == files.len() {
        bail!("none of the {} files could be reviewed (named above)", files.len());
    }
    if stopped && reviews_none(&outcomes) {
        eprintln!("stopped before any file was reviewed: no review");
        std::process::exit(INTERRUPTED);
    }
    let reviews: Vec<&MatchReview> = outcomes
        .iter()
        .filter_map(|o| match o {
            Outcome::Reviewed(r) => Some(r.as_ref()),
            Outcome::Failed(_) | Outcome::Stopped => None,
        })
        .collect();
    let totals = totals_by_player(reviews.iter().copied());
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json {
        let files = files.iter().zip(&outcomes).map(|(f, o)| FileJson::new(f, o)).collect();
        crate::json::write(&mut out, &BatchJson { files, players: &totals })?;
    } else {
        text(&mut out, &files, &outcomes, &totals)?;
    }
    out.flush()?;
    let partial = reviews.iter().any(|r| r.is_partial());
    if stopped || partial {
        eprintln!("stopped: the figures cover what was reviewed before the stop");
        std::process::exit(INTERRUPTED);
    }
    if failed > 0 {
        bail!("{failed} of {} files could not be reviewed (named above)", files.len());
    }
    Ok(())
}

/// One file read and reviewed; its failure as words.
fn review_one(
    args: &ReviewArgs,
    engine: &gammon_engine::api::Engine<gammon_eval::NetEvaluator>,
    settings: &gammon_engine::review::ReviewSettings,
    file: &Path,
    stop: &std::sync::atomic::AtomicBool,
) -> Outcome {
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Outcome::Stopped;
    }
    let record = match read(file, args.keep_going, engine.met()) {
        Ok(r) if r.games.is_empty() => return Outcome::Failed("no game to review".to_string()),
        Ok(r) => r,
        Err(e) => return Outcome::Failed(gammon_engine::api::error_chain(e.as_ref())),
    };
    match engine.review(&record, settings, |_, _| {}, stop) {
        Ok(r) => Outcome::Reviewed(Box::new(r)),
        Err(ReviewError::Interrupted) => Outcome::Stopped,
        Err(e) => Outcome::Failed(gammon_engine::api::error_chain(&e)),
    }
}

/// No file was reviewed.
fn reviews_none(outcomes: &[Outcome]) -> bool {
    !outcomes.iter().any(|o| matches!(o, Outcome::Reviewed(_)))
}

/// The files of `paths`: files as given, folders' match files sorted by
/// name (not their subfolders).
fn expand(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            for entry in
                std::fs::read_dir(path).with_context(|| format!("cannot read the folder {}", path.display()))?
            {
                let entry = entry.with_context(|| format!("cannot read the folder {}", path.display()))?;
                let p = entry.path();
                let ext = p.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
                if p.is_file() && ext.is_some_and(|e| MATCH_EXTENSIONS.contains(&e.as_str())) {
                    found.push(p);
                }
                if found.len() > MAX_FILES {
                    bail!("{}: more than {MAX_FILES} match files", path.display());
                }
            }
            found.sort();
            files.extend(found);
        } else {
            files.push(path.clone());
        }
        if files.len() > MAX_FILES {
            bail!("more than {MAX_FILES} match files to review");
        }
    }
    Ok(files)
}

#[derive(Serialize)]
struct BatchJson<'a> {
    /// One entry per file, in order: its review document, or why it has none.
    files: Vec<FileJson<'a>>,
    /// Each player's figures across the files reviewed.
    players: &'a [PlayerTotals],
}

#[derive(Serialize)]
struct FileJson<'a> {
    file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    review: Option<&'a MatchReview>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

impl<'a> FileJson<'a> {
    fn new(file: &Path, outcome: &'a Outcome) -> Self {
        let (review, error) = match outcome {
            Outcome::Reviewed(r) => (Some(r.as_ref()), None),
            Outcome::Failed(why) => (None, Some(why.as_str())),
            Outcome::Stopped => (None, Some("not reviewed: stopped")),
        };
        FileJson { file: file.display().to_string(), review, error }
    }
}

/// A line per file, then the table per player.
fn text(out: &mut impl Write, files: &[PathBuf], outcomes: &[Outcome], totals: &[PlayerTotals]) -> Result<()> {
    let pr = |x: Option<f64>| x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.1}"));
    let milli = |x: Option<f64>| x.map_or_else(|| "n/a".to_string(), |x| format!("{:.1}", 1000.0 * x));
    for (file, outcome) in files.iter().zip(outcomes) {
        match outcome {
            Outcome::Reviewed(r) => {
                let [a, b] = &r.summary;
                writeln!(
                    out,
                    "{}: {} vs {}, {}, {} game{}{}: PR {} {}, {} {}",
                    file.display(),
                    a.name,
                    b.name,
                    super::text::describe_length(r.match_length),
                    r.games.len(),
                    if r.games.len() == 1 { "" } else { "s" },
                    if r.is_partial() { " (partial)" } else { "" },
                    a.name,
                    pr(a.pr()),
                    b.name,
                    pr(b.pr())
                )?;
            }
            Outcome::Failed(why) => writeln!(out, "{}: not reviewed: {why}", file.display())?,
            Outcome::Stopped => writeln!(out, "{}: not reviewed: stopped", file.display())?,
        }
    }
    writeln!(out)?;
    let reviewed = outcomes.iter().filter(|o| matches!(o, Outcome::Reviewed(_))).count();
    writeln!(
        out,
        "Across {reviewed} match{} (error rates in mEMG per decision):",
        if reviewed == 1 { "" } else { "es" }
    )?;
    // The PR by the analysis the files stored, where any holds one.
    let stored = totals.iter().any(|t| t.summary.stored.moves + t.summary.stored.cube_decisions > 0);
    let other = if stored { format!(" {:>9}", "PR stored") } else { String::new() };
    writeln!(
        out,
        "{:<24} {:>7} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6}{other}",
        "player", "matches", "decisions", "chequer", "cube", "overall", "PR", "luck"
    )?;
    for t in totals {
        let s = &t.summary;
        let other = if stored { format!(" {:>9}", pr(s.stored.pr())) } else { String::new() };
        writeln!(
            out,
            "{:<24} {:>7} {:>9} {:>8} {:>8} {:>8} {:>8} {:>6}{other}",
            gammon_rules::shorten(&s.name, 24),
            t.matches,
            s.unforced_moves + s.close_cube_decisions,
            milli(s.chequer_error_rate()),
            milli(s.cube_error_rate()),
            milli(s.overall_error_rate()),
            pr(s.pr()),
            milli(s.luck_rate()),
        )?;
    }
    let mut note = "decisions: unforced moves and close or actual cube decisions; luck: per roll".to_string();
    if stored {
        note.push_str("; PR stored: by the analysis the files hold (XG's in an .xg file)");
    }
    crate::text::write_wrapped(out, &note, "", "  ")?;
    Ok(())
}
