//! `gammon train`: self-play TD(λ) training.

use anyhow::{bail, Context, Result};
use clap::Args;
use gammon_eval::NetWeights;
use gammon_jobs::{Bar, Press, StopFlag};
use gammon_train::{checkpoint, trainer, Checkpoint, RunFiles, TrainConfig, TrainOutcome};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Arguments of `gammon train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Settings file (TOML); see `training/*.toml`. Without it, built-in defaults.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run folder for checkpoints, logs and the final weights
    /// (default: `training/runs/<name>`).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run in the run folder from its checkpoint (--config only
    /// finds the folder). Edits to the run's config.toml may change games, threads,
    /// checkpoint_every, benchmark_every and benchmark_pairs (each change is
    /// noted); a change to any other setting is refused.
    #[arg(long)]
    resume: bool,
    /// Start from these weights instead of random ones. Hidden layers larger
    /// in the settings than in these nets are grown: the new units start
    /// with zero output weights, so the nets first play as before.
    #[arg(long, conflicts_with = "resume")]
    init: Option<PathBuf>,
    /// Total games (overrides the settings; with --resume, extends the run).
    #[arg(long)]
    games: Option<u64>,
    /// Seed (overrides the settings).
    #[arg(long, conflicts_with = "resume")]
    seed: Option<u64>,
    #[arg(long, value_name = "N", value_parser = crate::args::threads_parser(),
          help = crate::args::threads_help("Worker threads (overrides the settings); the result does not depend on them."))]
    threads: Option<usize>,
    /// TD(λ) λ (overrides the settings).
    #[arg(long, conflicts_with = "resume")]
    lambda: Option<f32>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
}

/// Runs `gammon train`.
pub fn run(args: &TrainArgs) -> Result<()> {
    // Ctrl-C, and SIGTERM or SIGHUP (what `timeout`, docker and batch
    // systems send: gammon_jobs::StopFlag), stop after the games in
    // progress.
    let stop = StopFlag::on_signals(|press| match press {
        Press::First => eprintln!(
            "\ninterrupted: finishing the games in progress and writing a checkpoint (interrupt again to quit now)"
        ),
        Press::Second => eprintln!("\nsecond interrupt: exiting without a new checkpoint"),
    })?;
    let mut state = if args.resume {
        let dir = match (&args.out, &args.config) {
            (Some(d), _) => d.clone(),
            (None, Some(c)) => PathBuf::from("training/runs").join(TrainConfig::load(c)?.name),
            (None, None) => bail!("--resume needs --out <run folder> (or --config to find it)"),
        };
        let files = RunFiles::new(&dir);
        // First: a kill during the very first checkpoint write leaves a
        // temporary file and no checkpoint. (No folder: the load says so.)
        if dir.is_dir() {
            remove_stale_temp_files(&files)?;
        }
        let mut state = Checkpoint::load(&files.checkpoint()).context("cannot resume the run")?;
        // Edits go through the run's own config.toml, which holds the run's
        // real settings (command-line overrides included). `--config` only
        // finds the run folder: the original file lacks those overrides, so
        // comparing it would refuse (or revert) settings the run was started with.
        let own = files.config();
        if own.exists() {
            apply_edited_settings(&mut state.config, &own)?;
        }
        if let Some(g) = args.games {
            state.config.games = g;
        }
        if let Some(t) = args.threads {
            state.config.threads = t;
        }
        state.config.validate()?;
        if state.config.games < state.games_done {
            bail!(
                "games = {} is below the {} games this run has already played: give --games {} or more",
                state.config.games,
                state.games_done,
                state.games_done
            );
        }
        eprintln!("resuming {} at game {} of {}", dir.display(), state.games_done, state.config.games);
        return finish(&mut state, &files, &stop, args.quiet);
    } else {
        let mut config = match &args.config {
            Some(path) => TrainConfig::load(path)?,
            None => TrainConfig::default(),
        };
        if let Some(g) = args.games {
            config.games = g;
        }
        if let Some(s) = args.seed {
            config.seed = s;
        }
        if let Some(t) = args.threads {
            config.threads = t;
        }
        if let Some(l) = args.lambda {
            config.lambda = l;
        }
        config.validate()?;
        let init = match &args.init {
            Some(p) => Some(NetWeights::load(p).context("cannot load the --init weights")?),
            None => None,
        };
        let init = init.map(|mut w| {
            // Larger hidden layers in the settings grow the given nets (the
            // new units start silent); smaller ones give way to the nets'.
            if config.contact_hidden > w.contact.hidden().min(w.crashed.hidden())
                || config.race_hidden > w.race.hidden()
            {
                eprintln!(
                    "growing the nets to {} (contact and crashed) and {} (race) hidden units",
                    config.contact_hidden.max(w.contact.hidden()),
                    config.race_hidden.max(w.race.hidden())
                );
                w.contact = w.contact.grown(config.contact_hidden, config.init_scale, config.seed);
                w.crashed = w.crashed.grown(w.contact.hidden(), config.init_scale, config.seed ^ 2);
                w.race = w.race.grown(config.race_hidden, config.init_scale, config.seed ^ 1);
            }
            config.contact_hidden = w.contact.hidden();
            config.race_hidden = w.race.hidden();
            w
        });
        trainer::start(config, init)
    };
    let dir = args.out.clone().unwrap_or_else(|| PathBuf::from("training/runs").join(&state.config.name));
    let files = RunFiles::new(&dir);
    if files.checkpoint().exists() {
        bail!("{} already holds a run: continue it with --resume, or choose another --out", dir.display());
    }
    finish(&mut state, &files, &stop, args.quiet)
}

/// Removes what a killed run left of a checkpoint or weights write.
fn remove_stale_temp_files(files: &RunFiles) -> Result<()> {
    let removed = checkpoint::remove_stale_temp_files(&files.dir)
        .with_context(|| format!("cannot clean up the temporary files in {}", files.dir.display()))?;
    for path in removed {
        eprintln!("note: removed {}, left by an interrupted write", path.display());
    }
    Ok(())
}

/// Applies a settings file's edits to a resumed run's settings: the ones a
/// run may change (with a note for each), or an error naming every fixed
/// setting that was changed.
fn apply_edited_settings(config: &mut TrainConfig, path: &Path) -> Result<()> {
    let edited = TrainConfig::load(path)?;
    let changes = config.apply_on_resume(&edited).with_context(|| format!("cannot resume with {}", path.display()))?;
    for change in changes {
        eprintln!("note: {change} ({})", path.display());
    }
    Ok(())
}

fn finish(state: &mut Checkpoint, files: &RunFiles, stop: &StopFlag, quiet: bool) -> Result<()> {
    let bar = Bar::new(
        "{elapsed_precise} [{bar:30}] {pos}/{len} games, {per_sec}, ETA {eta}",
        !quiet && std::io::stderr().is_terminal(),
    );
    let outcome = trainer::train(state, files, stop, &bar);
    bar.clear();
    match outcome? {
        TrainOutcome::Finished => {
            eprintln!("finished {} games; weights in {}", state.games_done, files.weights().display());
            Ok(())
        }
        TrainOutcome::Stopped => {
            eprintln!("stopped at {} games; continue with --resume --out {}", state.games_done, files.dir.display());
            std::process::exit(130)
        }
    }
}
