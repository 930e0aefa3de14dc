//! `gammon eval`: the evaluation of a position.

use crate::evaluators;
use crate::json::EvaluationJson;
use crate::position_arg::parse_position;
use anyhow::Result;
use clap::Args;
use gammon_eval::evaluated_by;
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `gammon eval`.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The position (player on roll, before rolling): Position ID, XGID or `start`.
    position: String,
    /// Weights file to use instead of the built-in net.
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct EvalJson {
    position: String,
    evaluator: String,
    #[serde(flatten)]
    evaluation: EvaluationJson,
}

/// Runs `gammon eval`.
pub fn run(args: &EvalArgs) -> Result<()> {
    let pos = parse_position(&args.position)?.position;
    let net = evaluators::net(args.weights.as_deref())?;
    let (p, class) = net.evaluate_with(&pos, &mut net.scratch());
    if args.json {
        let j = EvalJson {
            position: pos.to_position_id(),
            evaluator: evaluated_by(class).to_string(),
            evaluation: p.into(),
        };
        println!("{}", serde_json::to_string_pretty(&j)?);
        return Ok(());
    }
    print!("{pos}");
    println!();
    println!(" Evaluated by: {}", evaluated_by(class));
    println!("          win   gammon  backgammon");
    println!(" X (me)  {:6.2}%  {:6.2}%  {:6.2}%", 100.0 * p.win, 100.0 * p.win_gammon, 100.0 * p.win_backgammon);
    println!(
        " O       {:6.2}%  {:6.2}%  {:6.2}%",
        100.0 * (1.0 - p.win),
        100.0 * p.lose_gammon,
        100.0 * p.lose_backgammon
    );
    println!(" Cubeless equity: {:+.3}", p.equity());
    Ok(())
}
