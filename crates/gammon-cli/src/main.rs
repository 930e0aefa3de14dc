//! `gammon`: the command-line front end of the gammon backgammon engine.

mod moves;
mod position_arg;

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
    /// List every legal move of a position for a roll.
    Moves(moves::MovesArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Moves(args) => moves::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            // A closed pipe (`gammon moves … | head`) is not an error worth a message.
            if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) {
                return ExitCode::SUCCESS;
            }
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}
