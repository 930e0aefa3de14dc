//! `gammon analyse`: the legal moves of a roll ranked by n-ply search, or the
//! n-ply evaluation of a position before the roll with its cube decision at
//! the same depth (see `gammon cube`). Both use the game context: money play
//! with a centred cube, or the context an XGID or Match ID carries (cube,
//! owner, score, match length, Crawford, Jacoby, beavers), overridden by the
//! options `gammon cube` takes. With dice the moves are ranked by cubeful
//! equity in that context, as gnubg ranks them; `--cubeless` ranks them by
//! cubeless money equity instead.

use crate::args::{ContextArgs, DiceOption, JsonArg, MetArg, PlyArg, PositionText, WeightsArg};
use crate::{json, text};
use anyhow::Result;
use clap::Args;
use gammon_engine::api::{AnalyseOptions, Analysis, Asked, Engine, Refusal, Request};
use gammon_engine::search::MoveFilter;
use std::io::{BufWriter, Write};

/// Arguments of `gammon analyse`.
#[derive(Debug, Args)]
#[command(after_help = "Plies are counted as gnubg counts them: 0 = the static evaluation of the net, \
1 = every roll of the side to move next and its best reply, 2 = every roll of both sides.\n\
With dice, every legal move is ranked by its cubeful equity at the cube and score of the position \
(an XGID or Match ID carries them; the options override them; else money play with a centred cube), \
as gnubg ranks them: money play in equity per unit of the cube, a match in match winning chances (MWC) \
and their equity normalised to money (EMG). The first line says which context was used. --cubeless ranks \
them by cubeless money equity instead. All moves are ranked at 0 ply, then gnubg's \"normal\" move filter keeps \
up to 8 moves within 0.16 equity for the full depth (at 3 plies the best 2 of those within 0.04 \
after 2 plies). Moves the filter dropped are shown at the depth they reached. Inside the lookahead each \
roll's reply is the net's best of pubeval's best 8 moves (--prune), as gnubg's default hint screens them \
with its pruning nets.\n\
Without dice, the cube decision of the player on roll follows at the same depth, as `gammon cube --ply` \
gives it, in the same context.")]
#[command(mut_arg("position", |a| a.help(
    "The position, player on roll to move: Position ID, XGID, Match ID (`PositionID:MatchID`) or `start`"
)))]
#[command(mut_arg("dice", |a| a.help(
    "The roll to analyse, like `31` (an XGID may carry it instead). Without dice: the evaluation of the position before the roll"
)))]
pub struct AnalyseArgs {
    #[command(flatten)]
    position: PositionText,
    #[command(flatten)]
    dice: DiceOption,
    #[command(flatten)]
    ply: PlyArg,
    #[command(flatten)]
    context: ContextArgs,
    /// Rank the moves by cubeless money equity, ignoring the cube and the
    /// score (takes none of the context options).
    #[arg(long)]
    cubeless: bool,
    #[command(flatten)]
    weights: WeightsArg,
    #[command(flatten)]
    met: MetArg,
    #[command(flatten)]
    json: JsonArg,
    /// Also name the evaluator in full (its weights' notes).
    #[arg(long)]
    verbose: bool,
    /// With dice: inside the lookahead, evaluate with the net only the best
    /// N moves of each roll by pubeval, as gnubg's default hint screens them
    /// with its pruning nets (0: every move). The cube decision (without
    /// dice) is searched without the screen.
    #[arg(long, value_name = "N", default_value_t = MoveFilter::ANALYSIS_PRUNE)]
    prune: usize,
}

/// Runs `gammon analyse`.
pub fn run(args: &AnalyseArgs) -> Result<()> {
    let mut request = Request::read(&args.position.position, None, args.dice.dice.as_deref())?;
    if args.cubeless {
        args.context.overrides().check_with_cubeless()?;
    }
    let notes;
    (request.context, notes) = args.context.apply(request.context)?;
    let options = AnalyseOptions { ply: args.ply.ply, cubeless: args.cubeless, prune: args.prune };
    let engine = Engine::new(args.weights.net()?).with_met(args.met.met()?);
    let mut analysis = engine.analyse(&request, &options).map_err(|e| Refusal::new(e, Asked::Analyse))?;
    let has_cube_decision = matches!(&analysis, Analysis::Position { cube: Ok(_), .. });
    analysis.add_notes(notes.iter().cloned());
    let out = std::io::stdout();
    let mut out = BufWriter::new(out.lock());
    if args.json.json {
        json::write(&mut out, &analysis)?;
    } else {
        match &analysis {
            Analysis::Cubeless(moves) => text::roll_analysis(&mut out, moves, args.verbose)?,
            Analysis::Cubeful { analysis, notes } => {
                text::cubeful_roll_analysis(&mut out, analysis, notes, args.verbose)?;
            }
            Analysis::Position { evaluation, cube } => {
                if !args.cubeless {
                    // The cube decision repeats the notes; without one they go here.
                    let shown: &[String] = if has_cube_decision { &[] } else { &notes };
                    text::context_header(&mut out, &request.context, shown)?;
                }
                text::position_analysis(&mut out, evaluation, cube, args.verbose)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
