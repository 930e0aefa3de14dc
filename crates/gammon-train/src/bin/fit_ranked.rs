//! `fit_ranked`: `gammon fit` with the ranking term on sibling differences
//! (`gammon_train::ranking`), for the campaign's experiment c-fit5-rank
//! (`training/runs/c-fit5/`). A driver until `gammon fit` takes the groups
//! itself; the fit is `gammon_train::supervised::fit_supervised_ranked`.
//!
//! ```text
//! fit_ranked --from W --out DIR --weight X [--name NAME] [--rate R] [--max-epochs N]
//!     [--patience N] [--validation F] [--seed N] [--batch N]  LABELS GROUPS [LABELS GROUPS ...]
//! ```
//!
//! Each LABELS (a `gammon label rollout` dataset) comes with the GROUPS
//! file of its positions (`gammon label sample --groups`). The defaults
//! are c-fit4's settings: cross-entropy, rate 0.1, 60 epochs at most,
//! patience 4, validation 0.1, seed 3, batch 32. Writes `weights.gnn`,
//! `fit-report.json` and `learning-curve.csv` to DIR.

use gammon_eval::NetWeights;
use gammon_train::dataset::Dataset;
use gammon_train::ranking::Ranking;
use gammon_train::siblings::read_groups;
use gammon_train::supervised::{fit_supervised_ranked, FitSettings, Loss};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

struct Args {
    from: PathBuf,
    out: PathBuf,
    weight: f32,
    name: Option<String>,
    settings: FitSettings,
    files: Vec<(PathBuf, PathBuf)>,
}

fn parse(mut it: impl Iterator<Item = String>) -> Result<Args, String> {
    let (mut from, mut out, mut weight, mut name) = (None, None, None, None);
    let mut settings = FitSettings {
        loss: Loss::CrossEntropy,
        max_epochs: 60,
        batch: 32,
        rate: 0.1,
        patience: 4,
        validation: 0.1,
        seed: 3,
    };
    let mut rest = Vec::new();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or_else(|| format!("{a} needs a value"));
        let number =
            |v: String| -> Result<f64, String> { v.parse().map_err(|_| format!("{a}: {v:?} is not a number")) };
        match a.as_str() {
            "--from" => from = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--name" => name = Some(value()?),
            "--weight" => weight = Some(number(value()?)? as f32),
            "--rate" => settings.rate = number(value()?)? as f32,
            "--max-epochs" => settings.max_epochs = number(value()?)? as u32,
            "--patience" => settings.patience = number(value()?)? as u32,
            "--validation" => settings.validation = number(value()?)?,
            "--seed" => settings.seed = number(value()?)? as u64,
            "--batch" => settings.batch = number(value()?)? as usize,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ => rest.push(PathBuf::from(a)),
        }
    }
    if rest.is_empty() || rest.len() % 2 != 0 {
        return Err("give LABELS GROUPS pairs (a labels file, then the groups file of its positions)".into());
    }
    let files = rest.chunks(2).map(|p| (p[0].clone(), p[1].clone())).collect();
    Ok(Args {
        from: from.ok_or("--from is required")?,
        out: out.ok_or("--out is required")?,
        weight: weight.ok_or("--weight is required")?,
        name,
        settings,
        files,
    })
}

fn run(args: &Args) -> Result<(), String> {
    let mut weights = NetWeights::load(&args.from).map_err(|e| format!("--from: {e}"))?;
    let mut datasets = Vec::new();
    let mut groups = Vec::new();
    for (labels, grouped) in &args.files {
        datasets.push(Dataset::load(labels).map_err(|e| e.to_string())?);
        groups.push(read_groups(grouped).map_err(|e| e.to_string())?);
    }
    for ((d, g), (labels, grouped)) in datasets.iter().zip(&groups).zip(&args.files) {
        let same = d.positions.iter().zip(&g.positions).all(|(id, p)| *id == p.to_position_id());
        if d.len() > g.positions.len() || !same {
            return Err(format!("{} is not of the positions of {}", labels.display(), grouped.display()));
        }
    }
    let refs: Vec<&Dataset> = datasets.iter().collect();
    let ranking = Ranking { groups: groups.iter().map(|g| Some(g.groups.as_slice())).collect(), weight: args.weight };
    std::fs::create_dir_all(&args.out).map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let start = std::time::Instant::now();
    let stop = AtomicBool::new(false);
    let report = fit_supervised_ranked(&mut weights, &refs, &ranking, &args.settings, |row| eprintln!("{row}"), &stop)
        .map_err(|e| e.to_string())?;
    for n in &report.nets {
        println!("{n}");
    }
    weights.meta.notes = args.name.clone().unwrap_or_else(|| format!("{} + ranked fit", weights.meta.notes));
    weights.meta.date = gammon_train::trainer::utc_now();
    weights.meta.learning_rate = args.settings.rate;
    weights.save(&args.out.join("weights.gnn")).map_err(|e| e.to_string())?;
    let mut csv = String::from("net,epoch,rate,train_mse,validation_mse,validation_equity_error,best\n");
    for r in &report.epochs {
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{}",
            r.net, r.epoch, r.rate, r.train_mse, r.validation_mse, r.validation_equity_error, r.best
        );
    }
    let json = serde_json::json!({
        "from": args.from,
        "data": args.files.iter().map(|(l, g)| serde_json::json!({"labels": l, "groups": g})).collect::<Vec<_>>(),
        "ranking_weight": args.weight,
        "settings": args.settings,
        "seconds": start.elapsed().as_secs_f64(),
        "report": report,
    });
    let text = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    let write = |name: &str, bytes: &[u8]| {
        gammon_eval::file_format::write_output(&args.out.join(name), bytes).map_err(|e| e.to_string())
    };
    write("learning-curve.csv", csv.as_bytes())?;
    write("fit-report.json", text.as_bytes())?;
    eprintln!("weights in {}", args.out.join("weights.gnn").display());
    Ok(())
}

fn main() -> ExitCode {
    let result = parse(std::env::args().skip(1)).and_then(|a| run(&a));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
