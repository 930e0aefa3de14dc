//! `gammon merge`: puts the shards of sharded work back together — rollout
//! shards (`gammon rollout --shard K/N --out FILE`) into the rollout's
//! report, label shards (`gammon label rollout --shard K/N`) into one
//! labels file.

use crate::args::{JsonArg, MetArg};
use crate::{json, text};
use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_engine::api::{merge_rollout_shards, MergeError, MergedRollout, RolloutShard};
use gammon_eval::file_format::{identify_file, FileKind, Found};
use gammon_train::dataset::Dataset;
use gammon_train::labels::{merge_label_shards, LabelMergeError};
use serde::Serialize;
use std::io::{BufWriter, Write};
use std::path::PathBuf;

/// The most files one merge reads.
const MAX_FILES: usize = 100_000;

/// Arguments of `gammon merge`.
#[derive(Debug, Args)]
#[command(after_help = "Rollout shards merge into exactly what one `gammon rollout` with the same seed and \
games prints (the same numbers to the last digit; with --json the same fields, where `seconds` and \
`threads` are the shards' together); only the last line of the text, the costs, differs. Label shards \
merge into the labels file one unsharded `gammon label rollout` writes, byte for byte (give --out). \
Shards of other positions, rolls, nets or settings are refused, as are duplicates and missing shards: \
--partial merges what is there and says what is missing.")]
pub struct MergeArgs {
    /// The shard files, in any order.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Merge what is there when shards (or games) are missing, and say
    /// what is missing.
    #[arg(long)]
    partial: bool,
    /// Label shards: the labels file to write.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Rollout shards of a match: the match equity table they were rolled
    /// out with (`gammon rollout --met`), if not the built-in one.
    #[command(flatten)]
    met: MetArg,
    #[command(flatten)]
    json: JsonArg,
}

/// Runs `gammon merge`.
pub fn run(args: &MergeArgs) -> Result<()> {
    if args.files.len() > MAX_FILES {
        bail!("merge: at most {MAX_FILES} files at once (got {})", args.files.len());
    }
    let kind = identify_file(&args.files[0]).with_context(|| "merge".to_string())?;
    match kind {
        Some(Found::Gammon(FileKind::RolloutShard)) => merge_rollouts(args),
        Some(Found::Gammon(FileKind::Dataset)) => merge_labels(args),
        Some(found) => bail!("{} is {found}, not a rollout shard or a labels file", args.files[0].display()),
        None => bail!("{} is not a gammon file (not a rollout shard or a labels file)", args.files[0].display()),
    }
}

fn merge_rollouts(args: &MergeArgs) -> Result<()> {
    if args.out.is_some() {
        bail!("--out is for label shards: merged rollout shards are printed");
    }
    let shards: Vec<RolloutShard> =
        args.files.iter().map(|f| RolloutShard::load(f).context("merge")).collect::<Result<_>>()?;
    let (report, summary) = merge_rollout_shards(&shards, args.partial, &args.met.met()?).map_err(|e| match &e {
        MergeError::Duplicate { shard, other, .. } => {
            anyhow::anyhow!("merge: {} and {}: {e}", args.files[*other].display(), args.files[*shard].display())
        }
        e => match e.shard() {
            Some(i) => anyhow::anyhow!("merge: {}: {e}", args.files[i].display()),
            None => anyhow::anyhow!("merge: {e}"),
        },
    })?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.json.json {
        // The report's own JSON (a `Value` would widen its f32 numbers),
        // and what a partial merge misses.
        let missing = !summary.missing.is_empty();
        let missing_games: Option<Vec<[u64; 2]>> =
            missing.then(|| summary.missing.iter().map(|r| [r.start, r.end]).collect());
        let missing_shards: Option<Vec<String>> =
            missing.then(|| summary.missing_shards.iter().map(ToString::to_string).collect());
        match &report {
            MergedRollout::Rollout(r) => {
                json::write(&mut out, &Merged { report: r.as_ref(), missing_games, missing_shards })?;
            }
            MergedRollout::CubeDecision(c) => {
                json::write(&mut out, &Merged { report: c.as_ref(), missing_games, missing_shards })?;
            }
        }
    } else {
        match &report {
            MergedRollout::Rollout(r) => text::merged_rollout_report(&mut out, r, &summary)?,
            MergedRollout::CubeDecision(c) => text::merged_cube_rollout_report(&mut out, c, &summary)?,
        }
    }
    out.flush()?;
    Ok(())
}

/// A merged report's JSON with what a partial merge misses.
#[derive(Serialize)]
struct Merged<'a, T: Serialize> {
    #[serde(flatten)]
    report: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing_games: Option<Vec<[u64; 2]>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    missing_shards: Option<Vec<String>>,
}

fn merge_labels(args: &MergeArgs) -> Result<()> {
    let Some(out) = &args.out else {
        bail!("merging labels files needs --out FILE, the labels file to write");
    };
    if args.files.iter().any(|f| f == out) {
        bail!("--out {} is one of the shards: write the merged labels elsewhere", out.display());
    }
    let parts: Vec<Dataset> = args.files.iter().map(|f| Dataset::load(f).context("merge")).collect::<Result<_>>()?;
    let (merged, summary) = merge_label_shards(&parts, args.partial).map_err(|e| match &e {
        LabelMergeError::NoSource { shard } | LabelMergeError::Different { shard, .. } => {
            anyhow::anyhow!("merge: {}: {e}", args.files[*shard].display())
        }
        e => anyhow::anyhow!("merge: {e}"),
    })?;
    merged.save(out)?;
    let line = if summary.missing == 0 {
        format!("{} positions from {} shards written to {}", merged.len(), summary.shards, out.display())
    } else {
        let shards: Vec<String> = summary.missing_shards.iter().map(ToString::to_string).collect();
        format!(
            "partial: {} positions from {} shards written to {}; {} positions missing (shards {})",
            merged.len(),
            summary.shards,
            out.display(),
            summary.missing,
            shards.join(", ")
        )
    };
    if args.json.json {
        let value = serde_json::json!({
            "positions": merged.len(),
            "shards": summary.shards,
            "missing": summary.missing,
            "missing_shards": summary.missing_shards.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "file": out.display().to_string(),
        });
        json::write(&mut std::io::stdout().lock(), &value)?;
    } else {
        println!("{line}");
    }
    Ok(())
}
