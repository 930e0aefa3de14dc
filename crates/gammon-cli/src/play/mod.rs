//! `gammon play`: a game (or a match) against the engine in the terminal,
//! with the doubling cube.
//!
//! The human is X, at the bottom of the board, moving from 24 down to 1; the
//! engine is O. The board is always drawn from the human's side, after every
//! move (and passed turn), with the cube (its value and owner) and, in a
//! match, the score. Each side rolls one die for the opening roll (ties are
//! rolled again) and the higher die moves first with both dice, unless
//! `--first` names the side to start (it then plays a non-double opening
//! roll).
//!
//! # The cube
//!
//! By default a money game is played with the doubling cube, centred at 1.
//! Before rolling, the player on roll may double if he owns the cube or it
//! is centred (and the doubled cube stays within 1024); the opponent takes
//! (the cube doubles and he owns it) or drops (he loses the game at the cube
//! value before the double). A finished game scores its value (single 1,
//! gammon 2, backgammon 3) times the cube.
//!
//! Before each of the human's rolls where he may double, the prompt is
//! `Roll or double? [r/d]` (`roll`, `double`, an empty line rolls; with
//! `--manual-dice` typing the roll itself rolls it; `hint` gives the
//! engine's cube analysis, `board`, `help`, `quit`). When the
//! engine doubles the prompt is `The engine doubles to N. Take or drop?
//! [t/d]` (`take`, `drop`/`pass`; `b`/`beaver` with `--beaver`; `hint`,
//! `board`, `help`, `quit`).
//!
//! # Strength
//!
//! `--ply N` (0 to 3, default 0) is the depth of everything the engine
//! decides: its moves, its cube decisions (doubles, takes), its answers to
//! resignations, and the hints; plies are counted as gnubg counts them (and
//! as `gammon analyse --ply` does): 0 is the net's static evaluation, 1
//! looks at every roll of the opponent, and so on. The first line of the
//! session says the depth (`engine: 2-ply moves and cube`), and each hint
//! names the depth it answers at.
//!
//! # Resigning
//!
//! On his turn, before the roll (at the cube prompt, or with
//! `--manual-dice` at the prompt for his roll) or after it (at the move
//! prompt), the human may type `resign` (a single game), `resign gammon` or
//! `resign backgammon`. The engine accepts as gnubg does
//! ([`Engine::answers_resignation`]): when the offer is worth at least what
//! it expects from playing on (money: the points, times the cube, with the
//! Jacoby rule counting a gammon single while the cube is centred; match:
//! its match winning chances after those points, Crawford game included).
//! An accepted resignation ends the game and scores like a game played out;
//! a declined one continues the game, and in the same turn only a higher
//! offer may follow. The engine never resigns itself.
//!
//! The game itself (turns, the cube exchange, points, the Crawford game) is
//! the rules crate's one game loop ([`play_game`]) and match flow
//! ([`MatchState`]); this module is the table at which the human and the
//! engine sit: prompts, the board, and the engine's answers from the engine
//! API.
//!
//! The engine's cube decisions come from [`Engine::decide_cube`] (at the
//! depth of `--ply`: its net and Janowski's cubeful model, money or match play,
//! Kazaross-XG2 match equity table): it doubles when the verdict says double
//! (optional doubles included) and answers a double with the verdict's
//! answer (take, pass, or beaver where beavers are allowed). Doubles that
//! cannot gain anything (the leader after the Crawford game, a cube that
//! already wins the match) are neither offered to the human nor made.
//!
//! Options: `--match N` plays a match to N points, game after game, with the
//! Crawford rule (nobody may double in the first game after a player gets
//! one point from the match; afterwards the trailer may); `--jacoby` (money:
//! gammons count single while the cube is centred, i.e. not turned by a
//! double), `--beaver` (money: the taker of a double may redouble at once,
//! keeping the cube; the engine beavers when its analysis says so; raccoons
//! are not played: a beaver stands), `--murphy N` (money: equal opening dice
//! turn the cube automatically, up to N times; it stays centred; not with
//! `--first`), `--no-cube` (the old cubeless game). For practice,
//! `--position` starts the first game from a given position, the human on
//! roll before his roll, and `--score` starts a match at a given score (a
//! player one point away: the Crawford game first, or after it with
//! `--post-crawford`).
//!
//! With `--engine pubeval`, which has no winning chances to double by, the
//! built-in net takes the cube decisions.
//!
//! # Moves
//!
//! On the human's turn the prompt is `Your move (31): `; it takes a move in
//! gnubg notation (`8/5 6/5`, `bar/22*`, `6/off`, `13/10(2)`; UBGI-style
//! single steps work too), the number of a move in the `moves` list, or a
//! command: `hint` (the engine's five best moves with their equities),
//! `moves` (all legal moves, numbered), `board`, `help`, `resign` (see
//! above), `quit` (end the game; nothing is scored). An illegal move is refused with the
//! reason and the prompt repeats. With no legal move the turn passes
//! without a prompt. With exactly one legal move the prompt still comes
//! (so that the human sees the roll), names the move, and an empty line
//! plays it.
//!
//! Dice come from a seeded generator (`--seed`; by default one taken from
//! the clock, printed so that the game can be replayed), or with
//! `--manual-dice` the human types every roll for both sides (`31`, `3 1`,
//! `3-1`). For the opening roll the first digit is the human's die, the
//! second the engine's.
//!
//! Input is read line by line, so a pipe works as well as a terminal; the
//! end of the input ends the game cleanly (exit status 0) with a message.
//!
//! `--save FILE` writes the game or match played, also one left part-way,
//! as `.mat` or `.sgf` by the extension (checked before the game), through
//! the safe writer: every action is kept in a [`MatchRecorder`] and
//! replayed through the rules like a file (docs/match-files.md).
//!
//! [`MatchRecorder`]: gammon_rules::MatchRecorder
//!
//! [`play_game`]: gammon_rules::play_game

mod board;
mod cube;
mod opening;
mod resign;
mod session;
mod table;

use crate::args::MetArg;
use crate::convert_cmd::MatchFormat;
use crate::{evaluators, text};
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use gammon_engine::api::Engine;
use gammon_engine::api::Request;
use gammon_engine::met::Met;
use gammon_eval::Evaluator;
use gammon_rules::{
    Cube, Dice, GameContext, GameResult, MatchError, MatchRecorder, MatchRules, MatchState, RandomDice, Seat,
};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

/// Who moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum First {
    /// You.
    Human,
    /// The engine.
    Engine,
}

/// Arguments of `gammon play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// Seed of the dice (default: taken from the clock and printed, so that
    /// the game can be replayed).
    #[arg(long)]
    seed: Option<u64>,
    /// Type every roll yourself, for both sides (e.g. `31`), as with real dice.
    #[arg(long)]
    manual_dice: bool,
    /// The engine: `net` (built-in), `pubeval`, or a weights file.
    #[arg(long, conflicts_with = "weights")]
    engine: Option<String>,
    /// A weights file for the engine's net (default: the built-in weights).
    #[arg(long)]
    weights: Option<PathBuf>,
    /// Who moves first (default: the opening roll decides), in every game.
    #[arg(long, value_enum)]
    first: Option<First>,
    /// Play a match to this many points, with the Crawford rule (default:
    /// one money game; 0 is money play too).
    #[arg(long = "match", value_name = "POINTS")]
    match_length: Option<u32>,
    /// Money play: the Jacoby rule (gammons count single unless the cube was turned).
    #[arg(long, conflicts_with = "no_cube")]
    jacoby: bool,
    /// Money play: beavers (the taker of a double may redouble at once, keeping the cube).
    #[arg(long, conflicts_with = "no_cube")]
    beaver: bool,
    /// Money play: automatic doubles (Murphy rule): equal opening dice turn
    /// the cube (to 2, 4, ...), up to N times; it stays centred.
    #[arg(long, value_name = "N", conflicts_with = "no_cube")]
    murphy: Option<u32>,
    /// Play without the doubling cube (the cubeless game).
    #[arg(long)]
    no_cube: bool,
    /// Start the (first) game from this position, you on roll before your
    /// roll: a gnubg Position ID, an XGID (only its checkers are used) or
    /// `start`. Useful for practice.
    #[arg(long, value_name = "ID")]
    position: Option<String>,
    /// Match play: start the match at this score, yours first (e.g. `2-4`).
    /// With a player one point from the match the first game is the
    /// Crawford game, unless `--post-crawford`. Useful for practice.
    #[arg(long, value_name = "YOU-ENGINE", value_parser = parse_score, requires = "match_length")]
    score: Option<(u32, u32)>,
    /// Match play, with `--score` at a player one point from the match: the
    /// Crawford game has been played (the trailer may double).
    #[arg(long, requires = "score")]
    post_crawford: bool,
    /// The engine's depth in plies, 0 to 3, counted as gnubg does (0 = the
    /// net's static evaluation): its moves, cube decisions, answers to
    /// resignations and hints.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u8).range(0..=i64::from(gammon_engine::api::MAX_PLY)))]
    ply: u8,
    /// Save the game or match played (also when left part-way: what was
    /// played) to FILE, as .mat or .sgf by its extension.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "murphy"])]
    save: Option<PathBuf>,
    #[command(flatten)]
    met: MetArg,
}

/// Reads a score `2-4`.
fn parse_score(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?}: a score is two numbers of points, yours first, e.g. 2-4");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

/// The human's seat; the engine has the other one.
const HUMAN: Seat = Seat::Zero;
/// The engine's seat.
const ENGINE: Seat = Seat::One;

/// An engine around whichever evaluator `--engine` or `--weights` chose.
type PlayEngine = Engine<Box<dyn Evaluator>>;

/// Runs `gammon play` on the terminal (or any standard input).
pub fn run(args: &PlayArgs) -> Result<()> {
    let met = args.met.met()?;
    let match_length = args.match_length.unwrap_or(0);
    if match_length > met.max_away() {
        bail!(
            "a {match_length}-point match is longer than the match equity table, which covers matches up to {} points",
            met.max_away()
        );
    }
    if args.score.is_some() && match_length == 0 {
        bail!("--score needs a match (--match POINTS)");
    }
    if let Some(path) = &args.save {
        // A wrong extension or an unwritable path is refused before the
        // game, not after it.
        MatchFormat::of(path)?;
        gammon_eval::file_format::check_output(path)?;
    }
    let money = match_length == 0;
    let cube = !args.no_cube;
    let rules = MatchRules {
        length: match_length,
        cube,
        jacoby: money && args.jacoby,
        beaver: money && args.beaver,
        murphy: if money { args.murphy.unwrap_or(0) } else { 0 },
        max_cube: GameContext::DEFAULT_MAX_CUBE,
    };
    let (me, him) = args.score.unwrap_or((0, 0));
    let state = MatchState::at_score(rules, [me, him], args.post_crawford).map_err(|e| match e {
        MatchError::PostCrawfordNotOneAway => {
            anyhow::anyhow!("--post-crawford needs a score where a player is one point from winning the match")
        }
        e => anyhow::anyhow!("{e}"),
    })?;
    let start = match &args.position {
        Some(text) => {
            let p = Request::read(text, None, None)?.position;
            if p.game_result().is_some() {
                bail!("the game in position {text:?} is already over");
            }
            Some(p)
        }
        None => None,
    };
    let evaluator: Box<dyn Evaluator> = match (&args.engine, &args.weights) {
        (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
        (Some(spec), None) => evaluators::by_name(spec)?,
        (None, None) => Box::new(evaluators::net(None)?),
    };
    let engine = Engine::new(evaluator).with_met(met.clone());
    // pubeval has no real probabilities: the built-in net takes the cube
    // decisions (and answers resignations) for it.
    let cube_net: Option<PlayEngine> = if args.engine.as_deref() == Some("pubeval") {
        let net: Box<dyn Evaluator> = Box::new(evaluators::net(None)?);
        Some(Engine::new(net).with_met(met.clone()))
    } else {
        None
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = engine.name();
    let ply = args.ply;
    let depth = if cube { format!("{ply}-ply moves and cube") } else { format!("{ply}-ply moves") };
    // The short name (the weights' history would fill the first lines), and
    // the depth on a line of its own, so that both fit in 80 columns.
    let name = text::short_name(&name);
    let header = match (money, cube) {
        (true, false) => format!("gammon play: a cubeless money game against {name}."),
        (true, true) => format!("gammon play: a money game with the doubling cube against {name}."),
        (false, false) => format!("gammon play: a {match_length}-point match without the cube against {name}."),
        (false, true) => format!("gammon play: a {match_length}-point match against {name} (Crawford rule)."),
    };
    text::write_wrapped(&mut out, &header, "", "")?;
    writeln!(out, "Engine depth: {depth}.")?;
    if !money {
        writeln!(out, "Match equity table: {}.", met.name())?;
    }
    let mut rule_names = Vec::new();
    if rules.jacoby {
        rule_names.push("the Jacoby rule (gammons count single while the cube is centred)".to_string());
    }
    if rules.beaver {
        rule_names.push("beavers".to_string());
    }
    if rules.murphy > 0 {
        let s = if rules.murphy == 1 { "" } else { "s" };
        rule_names.push(format!("automatic doubles (Murphy rule, up to {} double{s})", rules.murphy));
    }
    if !rule_names.is_empty() {
        writeln!(out, "Rules: {}.", rule_names.join(", "))?;
    }
    if let Some(net) = cube_net.as_ref().filter(|_| cube) {
        writeln!(out, "Cube decisions: {} (pubeval has no winning chances to double by).", net.name())?;
    }
    if !money {
        for (set, option) in [(args.jacoby, "--jacoby"), (args.beaver, "--beaver"), (args.murphy.is_some(), "--murphy")]
        {
            if set {
                writeln!(out, "{option} applies only to money play: it is ignored in a match.")?;
            }
        }
    }
    let dice = if args.manual_dice {
        writeln!(out, "Manual dice: you type every roll, for both sides (like 31).")?;
        None
    } else {
        let seed = args.seed.unwrap_or_else(clock_seed);
        writeln!(out, "Dice seed: {seed} (replay this game with --seed {seed})")?;
        Some(RandomDice::new(seed, 0))
    };
    let echo = !stdin.is_terminal();
    let mut session = Session {
        input: stdin.lock(),
        out,
        engine: &engine,
        cube_engine: cube_net.as_ref().unwrap_or(&engine),
        manual: dice.is_none(),
        dice: dice.unwrap_or_else(|| RandomDice::new(0, 0)),
        echo,
        state,
        cube: Cube::START,
        typed_roll: None,
        stop: None,
        ply,
        cube_choice: None,
        chosen: None,
        declined: None,
        roll_shown: false,
        log: args.save.as_ref().map(|_| MatchRecorder::new(["You".into(), "gammon".into()], &state)),
    };
    let result = session.play_match(args.first, start);
    let ended = match result {
        Ok(()) => Ok(()),
        Err(End::Eof) => {
            let what = if money { "game" } else { "match" };
            writeln!(session.out, "\nEnd of input: the {what} is abandoned.")?;
            Ok(())
        }
        Err(End::Quit) => {
            if money {
                writeln!(session.out, "You leave the game; it is not scored.")?;
            } else {
                let [me, him] = session.state.score();
                writeln!(
                    session.out,
                    "You leave the match at you {me}, the engine {him}; the game in progress is not scored."
                )?;
            }
            Ok(())
        }
        Err(End::TooLong) => {
            writeln!(
                session.out,
                "The game reached {} half-moves and is stopped; it is not scored.",
                gammon_rules::MAX_TURNS
            )?;
            Ok(())
        }
        Err(End::Io(e)) => Err(e.into()),
    };
    // What was played is saved however the session ended.
    if let (Some(path), Some(log)) = (&args.save, session.log.take()) {
        save_played(log, path, &met, &mut session.out)?;
    }
    ended
}

/// Writes the games played (`--save`): those that replay, with a note for
/// one that does not (a passed beaver has no written form).
fn save_played(log: MatchRecorder, path: &std::path::Path, met: &Met, out: &mut impl Write) -> Result<()> {
    let (record, error) = log.finish()?;
    if let Some(e) = error {
        eprintln!("note: {e}: the games before it are saved");
    }
    crate::convert_cmd::save(&record, path, met)?;
    let n = record.games.len();
    writeln!(out, "Saved {n} game{} to {}.", if n == 1 { "" } else { "s" }, path.display())?;
    Ok(())
}

/// A seed from the clock, short enough to type.
fn clock_seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    (now.as_secs() % 100_000) * 10_000 + u64::from(now.subsec_micros() % 10_000)
}

/// Why a game stopped before its end.
#[derive(Debug)]
enum End {
    /// The input ended.
    Eof,
    /// The human typed `quit`.
    Quit,
    /// The game reached the game loop's turn limit.
    TooLong,
    /// Reading or writing failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for End {
    fn from(e: std::io::Error) -> Self {
        End::Io(e)
    }
}

/// Dice out of range cannot come from the prompts or the seeded dice; if
/// they did, the game stops as on a failed read.
impl From<gammon_rules::DiceError> for End {
    fn from(e: gammon_rules::DiceError) -> Self {
        End::Io(std::io::Error::other(e.to_string()))
    }
}

type Step<T> = std::result::Result<T, End>;

/// Reads `31`, `3 1`, `3-1` or `3,1`: two dice 1..=6, in the order typed.
fn parse_roll(text: &str) -> Option<(u8, u8)> {
    let digits: Vec<u8> = text.bytes().filter(|b| !matches!(b, b' ' | b'\t' | b'-' | b',')).collect();
    match digits[..] {
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Some((a - b'0', b - b'0')),
        _ => None,
    }
}

/// `1 point`, `4 points`.
fn points(n: u32) -> String {
    if n == 1 {
        "1 point".to_string()
    } else {
        format!("{n} points")
    }
}

/// The table at which the human and the engine play: prompts, the board,
/// and the engine's decisions. The game loop runs the game.
struct Session<'e, R, W> {
    input: R,
    out: W,
    engine: &'e PlayEngine,
    /// The engine of the cube decisions (the engine, or the built-in net
    /// for pubeval).
    cube_engine: &'e PlayEngine,
    /// The human types every roll.
    manual: bool,
    /// The dice (unused with manual dice).
    dice: RandomDice,
    /// Repeat each answer after its prompt (input from a pipe or file, so
    /// that the transcript reads like a terminal session).
    echo: bool,
    /// The score, the Crawford game, the rules.
    state: MatchState,
    /// The cube of the game in progress, as the board shows it.
    cube: Cube,
    /// A roll the human typed at the cube prompt (manual dice).
    typed_roll: Option<Dice>,
    /// Why the game was abandoned, for the message.
    stop: Option<End>,
    /// The engine's depth in plies (`--ply`).
    ply: u8,
    /// The human's answer at the cube prompt (double or not), asked with
    /// his chance to resign before the roll.
    cube_choice: Option<bool>,
    /// The human's move (an index in the legal moves), asked with his
    /// chance to resign after the roll.
    chosen: Option<usize>,
    /// The highest resignation the engine declined this turn.
    declined: Option<GameResult>,
    /// The human's roll has been announced this turn.
    roll_shown: bool,
    /// The games played, for `--save`.
    log: Option<MatchRecorder>,
}

/// `resign`, `resign single|gammon|backgammon` (also `s`, `g`, `b`,
/// `normal`, `1`-`3`): `None` if the line is no resignation, an error text
/// for an unknown level.
fn parse_resign(command: &str) -> Option<Result<GameResult, String>> {
    let mut words = command.split_whitespace();
    if words.next()? != "resign" {
        return None;
    }
    let level = match words.next() {
        None | Some("single" | "s" | "normal" | "1") => Ok(GameResult::Single),
        Some("gammon" | "g" | "2") => Ok(GameResult::Gammon),
        Some("backgammon" | "bg" | "b" | "3") => Ok(GameResult::Backgammon),
        Some(other) => Err(format!("Cannot resign {other:?}: type resign, resign gammon or resign backgammon.")),
    };
    Some(if words.next().is_some() {
        Err("Type resign, resign gammon or resign backgammon.".to_string())
    } else {
        level
    })
}

/// `a single game`, `a gammon`, `a backgammon`.
fn result_name(r: GameResult) -> &'static str {
    match r {
        GameResult::Single => "a single game",
        GameResult::Gammon => "a gammon",
        GameResult::Backgammon => "a backgammon",
    }
}
