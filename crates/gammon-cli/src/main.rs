//! `gammon`: the command-line front end of the gammon backgammon engine.

mod analyse_cmd;
mod args;
mod benchmark_cmd;
mod convert_cmd;
mod cube_cmd;
mod distill_cmd;
mod duel_cmd;
mod eval_cmd;
mod evaluators;
mod fit_cmd;
mod json;
mod label_cmd;
mod line_input;
mod merge_cmd;
mod moves;
mod play;
mod position_cmd;
mod review;
mod rollout_cmd;
mod serve_cmd;
mod text;
mod train_cmd;
mod ubgi;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// gammon: a backgammon engine. Positions are gnubg Position IDs
/// (`4HPwATDgc/ABMA`), XGIDs (`XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10`)
/// or `start`.
#[derive(Debug, Parser)]
#[command(name = "gammon", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show a position: its IDs, board, pip counts and game context.
    Position(position_cmd::PositionArgs),
    /// List every legal move of a position for a roll.
    Moves(moves::MovesArgs),
    /// Rank the legal moves of a roll (or evaluate a position) with n-ply search.
    Analyse(analyse_cmd::AnalyseArgs),
    /// The doubling-cube decision for a position, money or match play.
    Cube(cube_cmd::CubeArgs),
    /// Evaluate a position: win, gammon and backgammon chances, cubeless equity.
    Eval(eval_cmd::EvalArgs),
    /// Train the networks by self-play TD(λ).
    Train(train_cmd::TrainArgs),
    /// Play two evaluators against each other with duplicate dice.
    Duel(duel_cmd::DuelArgs),
    /// Improve a net by training it toward its own 1- or 2-ply search values.
    Distill(distill_cmd::DistillArgs),
    /// Sample training positions from self-play, or label them by rollouts.
    Label(label_cmd::LabelArgs),
    /// Train a net toward labelled positions (validation set, early stopping).
    Fit(fit_cmd::FitArgs),
    /// Measure a net against labelled positions (the yardstick, datasets).
    Benchmark(benchmark_cmd::BenchmarkArgs),
    /// Settle a position (or a roll's moves) by Monte Carlo rollouts.
    Rollout(rollout_cmd::RolloutArgs),
    /// Merge the shards of a sharded rollout or labelling job.
    Merge(merge_cmd::MergeArgs),
    /// Review a whole match file: every move and cube decision, error rates, luck.
    Review(review::ReviewArgs),
    /// Convert a match file: .mat or .sgf by OUT's extension (gnubg reads both).
    Convert(convert_cmd::ConvertArgs),
    /// Play a game against the engine in the terminal.
    Play(play::PlayArgs),
    /// Run as a UBGI engine on standard input and output.
    Ubgi(ubgi::UbgiArgs),
    /// Serve the HTTP JSON API and the web page on a local port.
    Serve(serve_cmd::ServeArgs),
}

/// A reader that goes away (`gammon … | head`) ends the program quietly, as
/// it does for the classic Unix tools, instead of a "failed printing" panic.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Position(args) => position_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Moves(args) => moves::run(&args),
        Command::Analyse(args) => analyse_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Cube(args) => cube_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Eval(args) => eval_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Train(args) => train_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Duel(args) => duel_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Distill(args) => distill_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Label(args) => label_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Fit(args) => fit_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Benchmark(args) => benchmark_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Rollout(args) => rollout_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Merge(args) => merge_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Serve(args) => serve_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Review(args) => review::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Convert(args) => convert_cmd::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Play(args) => play::run(&args).map(|()| ExitCode::SUCCESS),
        Command::Ubgi(args) => ubgi::run(&args).map(|()| ExitCode::SUCCESS),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`gammon moves … | head`) is not an error worth a message.
            if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
                return ExitCode::SUCCESS;
            }
            // Files and standard input are read and written with context
            // naming them; a bare I/O error is a write to standard output
            // (a full disk behind `> file`).
            if e.chain().count() == 1 {
                if let Some(io) = e.downcast_ref::<std::io::Error>() {
                    eprintln!("error: cannot write to standard output: {io}");
                    return ExitCode::FAILURE;
                }
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
