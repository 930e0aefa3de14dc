//! Argument blocks shared by several commands (`#[command(flatten)]`). A
//! command words an argument for its own use with
//! `#[command(mut_arg("position", |a| a.help("…")))]`.

use anyhow::{Context, Result};
use clap::Args;
use gammon_engine::api::ContextOverrides;
use gammon_engine::api::MAX_THREADS;
use gammon_engine::met::Met;
use gammon_engine::shard::{Shard, ShardSpec};
use gammon_eval::NetEvaluator;
use gammon_rules::{CubeOwner, GameContext};
use std::path::PathBuf;

/// The position as typed (read into a [`Request`](gammon_engine::api::Request)).
#[derive(Debug, Args)]
pub struct PositionText {
    /// The position, player on roll: Position ID, XGID or `start`.
    pub position: String,
}

/// `--dice`: the roll, for the commands that also work before it.
#[derive(Debug, Args)]
pub struct DiceOption {
    /// The roll, like `31` (an XGID may carry it instead).
    #[arg(long)]
    pub dice: Option<String>,
}

/// `--ply` of the searching commands.
#[derive(Debug, Args)]
pub struct PlyArg {
    /// Search depth in plies, 0 to 3, counted as gnubg does (0 = static
    /// evaluation, no lookahead).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(0..=i64::from(gammon_engine::api::MAX_PLY)))]
    pub ply: u8,
}

/// `--weights`: the net the command evaluates with.
#[derive(Debug, Args)]
pub struct WeightsArg {
    /// Weights file to use instead of the built-in net.
    #[arg(long)]
    pub weights: Option<PathBuf>,
}

impl WeightsArg {
    /// The net of these arguments: the shipped one, or the weights file.
    pub fn net(&self) -> Result<NetEvaluator> {
        crate::evaluators::net(self.weights.as_deref())
    }
}

/// `--met`: the match equity table of match play.
#[derive(Debug, Args)]
pub struct MetArg {
    /// A gnubg XML match equity table for match play (such as
    /// /usr/share/gnubg/met/g11.xml from Debian's gnubg-data); the built-in
    /// Kazaross-XG2 is the default. A longer table covers longer matches.
    #[arg(long, value_name = "FILE")]
    pub met: Option<PathBuf>,
}

impl MetArg {
    /// The table: the file's, or the built-in Kazaross-XG2.
    pub fn met(&self) -> Result<Met> {
        match &self.met {
            Some(path) => Ok(Met::read_xml_file(path)?),
            None => Ok(Met::kazaross_xg2().clone()),
        }
    }
}

/// `--json`.
#[derive(Debug, Args)]
pub struct JsonArg {
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
}

/// `--shard K/N` or `auto/N`: which part of the work this process does.
#[derive(Debug, Args)]
pub struct ShardArg {
    /// Do only shard K of N (K from 0 to N-1), or `auto/N`: K from
    /// SLURM_ARRAY_TASK_ID (a Slurm job array) or JOB_COMPLETION_INDEX (a
    /// Kubernetes Indexed Job).
    #[arg(long, value_name = "K/N")]
    pub shard: Option<ShardSpec>,
}

impl ShardArg {
    /// The shard (the whole when none was given), its index read from the
    /// environment for `auto/N`.
    pub fn resolve(&self) -> Result<Shard> {
        match self.shard {
            None => Ok(Shard::ALL),
            Some(spec) => spec.resolve(|name| std::env::var(name).ok()).context("--shard"),
        }
    }
}

/// `--threads`: the size of the worker pool.
#[derive(Debug, Args)]
pub struct ThreadsArg {
    #[arg(long, value_name = "N", value_parser = threads_parser(), help = threads_help(
        "Worker threads (default: one per core); the result does not depend on them."
    ))]
    pub threads: Option<usize>,
}

impl ThreadsArg {
    /// A rayon pool of these threads.
    pub fn pool(&self) -> Result<rayon::ThreadPool> {
        let mut pool = rayon::ThreadPoolBuilder::new();
        if let Some(t) = self.threads {
            pool = pool.num_threads(t);
        }
        pool.build().context("cannot start the worker threads")
    }
}

/// The parser of every `--threads`: 1 to [`MAX_THREADS`], the one limit of
/// the program (the training settings refuse more too).
pub fn threads_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS as u64)
}

/// `what`, followed by the limit of [`threads_parser`].
pub fn threads_help(what: &str) -> String {
    format!("{what} At most {MAX_THREADS}.")
}

/// The game context options of `gammon cube` and `gammon analyse`: each
/// overrides what an XGID or Match ID says.
#[derive(Debug, Args)]
pub struct ContextArgs {
    /// Cube value: 1, 2, 4, ...
    #[arg(long)]
    pub cube: Option<u32>,
    /// Who owns the cube: `me` (the player on roll), `opponent` or `centre`.
    #[arg(long, value_parser = gammon_engine::api::parse_owner)]
    pub owner: Option<CubeOwner>,
    /// Match length in points; 0 = money play.
    #[arg(long = "match", value_name = "POINTS")]
    pub match_length: Option<u32>,
    /// Points already won, player on roll first, e.g. `2-4`.
    #[arg(long, value_parser = gammon_engine::api::parse_score)]
    pub score: Option<(u32, u32)>,
    /// This is the Crawford game (someone is 1 point from winning the match).
    #[arg(long, conflicts_with = "no_crawford")]
    pub crawford: bool,
    /// This is not the Crawford game (overrides an XGID).
    #[arg(long)]
    pub no_crawford: bool,
    /// Money play: the Jacoby rule (gammons count single until the cube is turned).
    #[arg(long, conflicts_with = "no_jacoby")]
    pub jacoby: bool,
    /// Money play: no Jacoby rule (overrides an XGID).
    #[arg(long)]
    pub no_jacoby: bool,
    /// Money play: beavers (and raccoons) allowed.
    #[arg(long, conflicts_with = "no_beaver")]
    pub beaver: bool,
    /// Money play: no beavers (overrides an XGID).
    #[arg(long)]
    pub no_beaver: bool,
}

impl ContextArgs {
    /// What these options set of the game context (the engine applies it).
    pub fn overrides(&self) -> ContextOverrides {
        let flag = |on: bool, off: bool| match (on, off) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        };
        ContextOverrides {
            cube: self.cube,
            owner: self.owner,
            match_length: self.match_length,
            score: self.score,
            crawford: flag(self.crawford, self.no_crawford),
            jacoby: flag(self.jacoby, self.no_jacoby),
            beaver: flag(self.beaver, self.no_beaver),
        }
    }

    /// `ctx` with these options applied, and a note for what the options
    /// left of it that the user may not expect.
    pub fn apply(&self, ctx: GameContext) -> Result<(GameContext, Vec<String>)> {
        Ok(self.overrides().apply(ctx)?)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Cli {
        #[command(flatten)]
        context: ContextArgs,
    }

    fn apply(args: &[&str], ctx: GameContext) -> Result<(GameContext, Vec<String>)> {
        let cli = Cli::try_parse_from(std::iter::once("cube").chain(args.iter().copied())).unwrap();
        cli.context.apply(ctx)
    }

    #[test]
    fn a_match_drops_the_money_rules_and_keeps_the_score() {
        let mut money = GameContext { jacoby: true, beaver: true, ..GameContext::money() };
        money.score = (1, 2);
        let (ctx, notes) = apply(&["--match", "5"], money).unwrap();
        assert_eq!((ctx.match_length, ctx.jacoby, ctx.beaver), (5, false, false));
        assert_eq!(notes, ["score 1-2 kept from the position"]);
        let (ctx, notes) = apply(&["--match", "5", "--score", "3-4", "--crawford"], money).unwrap();
        assert_eq!((ctx.score, ctx.crawford), ((3, 4), true));
        assert!(notes.is_empty());
    }

    #[test]
    fn the_options_override_the_position() {
        let xgid = GameContext { jacoby: true, beaver: true, ..GameContext::money() };
        let (ctx, _) = apply(&["--no-jacoby", "--cube", "4", "--owner", "opp"], xgid).unwrap();
        assert_eq!((ctx.jacoby, ctx.beaver, ctx.cube_value, ctx.cube_owner), (false, true, 4, CubeOwner::Opponent));
    }

    #[test]
    fn options_that_need_a_match_are_refused_in_money_play() {
        let err = apply(&["--score", "2-4"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").starts_with("--score needs --match"), "{err}");
        let err = apply(&["--crawford"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").starts_with("--crawford needs --match"), "{err}");
        let err = apply(&["--match", "0", "--score", "1-0"], GameContext::new_match(5)).unwrap_err();
        assert!(format!("{err:#}").starts_with("--score needs --match"), "{err}");
        // A match from the position gives the score a meaning.
        assert_eq!(apply(&["--score", "2-4"], GameContext::new_match(7)).unwrap().0.score, (2, 4));
    }

    #[test]
    fn the_match_options_follow_the_rules() {
        let err = apply(&["--match", "7", "--score", "6-6", "--crawford"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").starts_with("--crawford: "), "{err}");
        let err = apply(&["--match", "7", "--score", "7-2"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").starts_with("--score: "), "{err}");
        let (ctx, _) = apply(&["--match", "7", "--score", "6-4", "--crawford"], GameContext::money()).unwrap();
        assert!(ctx.crawford);
    }

    #[test]
    fn the_cube_value_is_checked_before_its_owner() {
        let err = apply(&["--cube", "3"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").starts_with("--cube: cube value 3 is not a power of two"), "{err}");
    }

    #[test]
    fn a_turned_cube_needs_an_owner() {
        let err = apply(&["--cube", "2"], GameContext::money()).unwrap_err();
        assert!(format!("{err:#}").contains("say who owns it with --owner"), "{err}");
        assert!(Cli::try_parse_from(["cube", "--score", "3"]).is_err());
        assert!(Cli::try_parse_from(["cube", "--owner", "bob"]).is_err());
    }
}
