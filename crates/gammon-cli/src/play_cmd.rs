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
//! The game itself (turns, the cube exchange, points, the Crawford game) is
//! the rules crate's one game loop ([`play_game`]) and match flow
//! ([`MatchState`]); this module is the table at which the human and the
//! engine sit: prompts, the board, and the engine's answers from the engine
//! API.
//!
//! The engine's cube decisions come from [`Engine::decide_cube`] (the 0-ply
//! evaluation of its net and Janowski's cubeful model, money or match play,
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
//! `moves` (all legal moves, numbered), `board`, `help`, `quit`/`resign`
//! (end the game; nothing is scored). An illegal move is refused with the
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

use crate::evaluators;
use crate::position_arg::parse_position;
use anyhow::{bail, Result};
use clap::{Args, ValueEnum};
use gammon_engine::api::Engine;
use gammon_engine::cube::{CubeAnalysis, CubeState, Response};
use gammon_engine::met::Met;
use gammon_eval::Evaluator;
use gammon_rules::{
    parse_move_in, play_game, Abandoned, BeaverAnswer, Cube, CubeAnswer, Decision, Dice, DiceSource, FirstRoll,
    GameContext, GameEnd, GameResult, GameStart, MatchError, MatchRules, MatchState, Move, MoveList, Position,
    RandomDice, Seat, Table, Turn,
};
use std::io::{BufRead, IsTerminal, Write};
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
    let met = Met::kazaross_xg2();
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
            let p = parse_position(text)?.position;
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
    let engine = Engine::new(evaluator);
    // pubeval has no real probabilities: the built-in net takes the cube
    // decisions for it.
    let cube_net: Option<PlayEngine> = if cube && args.engine.as_deref() == Some("pubeval") {
        Some(Engine::new(Box::new(evaluators::net(None)?)))
    } else {
        None
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let name = engine.name();
    match (money, cube) {
        (true, false) => writeln!(out, "gammon play: a cubeless money game against {name}.")?,
        (true, true) => writeln!(out, "gammon play: a money game with the doubling cube against {name}.")?,
        (false, false) => writeln!(out, "gammon play: a {match_length}-point match without the cube against {name}.")?,
        (false, true) => writeln!(out, "gammon play: a {match_length}-point match against {name} (Crawford rule).")?,
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
    if let Some(net) = &cube_net {
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
    };
    match session.play_match(args.first, start) {
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
    }
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
    /// The human typed `quit` or `resign`.
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

type Step<T> = std::result::Result<T, End>;

/// Reads `31`, `3 1`, `3-1` or `3,1`: two dice 1..=6, in the order typed.
fn parse_roll(text: &str) -> Option<(u8, u8)> {
    let digits: Vec<u8> = text.bytes().filter(|b| !matches!(b, b' ' | b'\t' | b'-' | b',')).collect();
    match digits[..] {
        [a @ b'1'..=b'6', b @ b'1'..=b'6'] => Some((a - b'0', b - b'0')),
        _ => None,
    }
}

fn result_words(r: GameResult) -> &'static str {
    match r {
        GameResult::Single => "a single game (1 point)",
        GameResult::Gammon => "a gammon (2 points)",
        GameResult::Backgammon => "a backgammon (3 points)",
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

const HELP: &str = "\
Type your move in gnubg notation, points from your side (24 down to 1):
  8/5 6/5   bar/22*   6/off   13/10(2)   24/18/13
or the number of a move in the `moves` list, or a command:
  hint      the engine's best moves with their equities
  moves     all legal moves, numbered
  board     show the board
  quit      end the game (also: resign)";

const CUBE_HELP: &str = "\
Before your roll, when you may double:
  r         roll the dice (also: roll, or an empty line; with --manual-dice
            you may type the roll itself, like 31)
  d         double: offer the engine the cube at twice its value (also: double);
            it takes (and owns the cube) or drops (and loses the game at the cube value)
  hint      the engine's cube analysis for you
  board     show the board
  quit      end the game (also: resign)";

const TAKE_HELP: &str = "\
The engine doubles:
  t         take: play on at twice the stakes, and own the cube (also: take)
  d         drop: lose the game at the cube value before the double (also: drop, pass, p)
  b         beaver (with --beaver): take and redouble at once, keeping the cube (also: beaver)
  hint      the engine's analysis of its double
  board     show the board
  quit      end the game (also: resign)";

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
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Writes `text` without a newline and reads the answer line; `End::Eof`
    /// at the end of the input.
    fn ask(&mut self, prompt: &str) -> Step<String> {
        write!(self.out, "{prompt}")?;
        self.out.flush()?;
        let mut buf = Vec::new();
        if self.input.read_until(b'\n', &mut buf)? == 0 {
            return Err(End::Eof);
        }
        let line = String::from_utf8_lossy(&buf).trim().to_string();
        if self.echo {
            writeln!(self.out, "{line}")?;
        }
        Ok(line)
    }

    /// A roll typed by the human, in the order typed.
    fn ask_roll(&mut self, prompt: &str) -> Step<(u8, u8)> {
        loop {
            let line = self.ask(prompt)?;
            match line.to_ascii_lowercase().as_str() {
                "quit" | "resign" | "exit" => return Err(End::Quit),
                "" => continue,
                _ => {}
            }
            match parse_roll(&line) {
                Some(r) => return Ok(r),
                None => writeln!(self.out, "Cannot read {line:?} as dice: type two digits 1-6, like 31 (or quit).")?,
            }
        }
    }

    /// The roll of a side for its turn.
    fn roll_for(&mut self, human: bool) -> Step<Dice> {
        if !self.manual {
            return Ok(self.dice.roll());
        }
        let prompt = if human { "Roll for you (e.g. 31): " } else { "Roll for the engine (e.g. 31): " };
        let (a, b) = self.ask_roll(prompt)?;
        Dice::new(a, b).map_err(|e| End::Io(std::io::Error::other(e.to_string())))
    }

    /// Keeps why a decider gave up the game, for the game loop.
    fn abandon<T>(&mut self, step: Step<T>) -> Decision<T> {
        step.map_err(|e| {
            self.stop = Some(e);
            Abandoned
        })
    }

    /// Automatic doubles (Murphy rule) are played in this session.
    fn murphy_active(&self) -> bool {
        let rules = self.state.rules();
        rules.cube && rules.is_money() && rules.murphy > 0
    }

    /// Equal opening dice: turns the cube automatically if the Murphy rule
    /// allows another automatic double, and says so.
    fn opening_tie(&mut self, die: u8) -> Step<()> {
        if let Some(cube) = self.state.automatic_double(&self.cube) {
            self.cube = cube;
            writeln!(
                self.out,
                "Both dice show {die}: automatic double (Murphy rule), the cube is now at {}, centred. Roll again.",
                cube.value
            )?;
        } else {
            writeln!(self.out, "Both dice show {die}: roll again.")?;
        }
        Ok(())
    }

    /// The opening roll: whether the human starts, and the dice.
    fn opening(&mut self, first: Option<First>) -> Step<(bool, Dice)> {
        if let Some(f) = first {
            let human = f == First::Human;
            if !self.manual {
                let d = self.dice.opening();
                let who = if human { "You move" } else { "The engine moves" };
                writeln!(self.out, "Opening roll {d}. {who} first (--first).")?;
                return Ok((human, d));
            }
            let prompt = if human {
                "Opening roll for you (two different dice, e.g. 31): "
            } else {
                "Opening roll for the engine (two different dice, e.g. 31): "
            };
            loop {
                let (a, b) = self.ask_roll(prompt)?;
                if a == b {
                    writeln!(self.out, "The opening roll cannot be a double: roll again.")?;
                    continue;
                }
                let d = Dice::new(a, b).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
                return Ok((human, d));
            }
        }
        let murphy = self.murphy_active();
        let (human_die, engine_die) = loop {
            let (a, b) = if self.manual {
                self.ask_roll("Opening roll: your die and the engine's die (e.g. 31 = you 3, engine 1): ")?
            } else if !murphy {
                // One die each: the two different dice, and a fair coin
                // (the parity of a roll's sum) for who holds the higher one.
                let d = self.dice.opening();
                let coin = self.dice.roll();
                if (coin.high() + coin.low()) % 2 == 0 {
                    (d.high(), d.low())
                } else {
                    (d.low(), d.high())
                }
            } else {
                // Ties count here: a roll of two dice, then the coin.
                let d = self.dice.roll();
                if d.is_double() {
                    (d.high(), d.low())
                } else {
                    let coin = self.dice.roll();
                    if (coin.high() + coin.low()) % 2 == 0 {
                        (d.high(), d.low())
                    } else {
                        (d.low(), d.high())
                    }
                }
            };
            if a != b {
                break (a, b);
            }
            self.opening_tie(a)?;
        };
        let d = Dice::new(human_die, engine_die).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
        let who = if human_die > engine_die { "You move" } else { "The engine moves" };
        writeln!(
            self.out,
            "Opening roll: you rolled {human_die}, the engine rolled {engine_die}. {who} first with {d}."
        )?;
        Ok((human_die > engine_die, d))
    }

    /// The cube in words: `2, owned by you`.
    fn cube_words(&self) -> String {
        let v = self.cube.value;
        let mut s = match self.cube.owner {
            None => format!("{v}, centred"),
            Some(HUMAN) => format!("{v}, owned by you"),
            Some(ENGINE) => format!("{v}, owned by the engine"),
        };
        if self.state.is_crawford() {
            s.push_str(" (Crawford game: nobody may double)");
        }
        s
    }

    /// Draws the board from the human's side (`human_view`), with whose
    /// turn it is, the cube and the match score. The Position ID is the one
    /// of the side on roll: `engine_on_roll` is `Some(true)` for the engine,
    /// `None` after the game.
    fn show_board(&mut self, human_view: &Position, engine_on_roll: Option<bool>, status: &str) -> Step<()> {
        writeln!(self.out)?;
        for line in human_view.board_diagram().lines() {
            // The diagram names X as the side on roll; say it our way, and
            // give the Position ID of the side whose turn it is.
            if line.contains("on roll") {
                continue;
            }
            if line.contains("Position ID:") {
                match engine_on_roll {
                    Some(true) => {
                        writeln!(self.out, " Position ID: {} (engine on roll)", human_view.switched().to_position_id())?
                    }
                    Some(false) => writeln!(self.out, " Position ID: {} (you on roll)", human_view.to_position_id())?,
                    None => writeln!(self.out, "{line}")?,
                }
            } else {
                writeln!(self.out, "{line}")?;
            }
        }
        let rules = *self.state.rules();
        if rules.cube {
            writeln!(self.out, " Cube: {}.", self.cube_words())?;
        }
        if !rules.is_money() {
            let [me, him] = self.state.score();
            writeln!(self.out, " Match to {}: you {me}, the engine {him}.", rules.length)?;
        }
        writeln!(self.out, " You are X (moving 24 -> 1), the engine is O. {status}")?;
        writeln!(self.out)?;
        Ok(())
    }

    /// True if a double by the side on roll in `ctx` can gain anything (not
    /// the leader after the Crawford game, not a cube that already wins).
    fn double_matters(&self, ctx: &GameContext) -> bool {
        CubeState::from_context(ctx, self.cube_engine.met()).is_ok_and(|s| s.no_double_reason().is_none())
    }

    /// The engine's cube analysis of `pos` (seen by the side on roll, who
    /// has not rolled) in `ctx` (any pending cube action set aside).
    fn analysis(&self, pos: &Position, ctx: &GameContext) -> Option<CubeAnalysis> {
        let before_roll = GameContext { dice: gammon_rules::DiceState::ToRoll, ..*ctx };
        self.cube_engine.decide_cube(pos, &before_roll, 0).ok().map(|d| d.analysis)
    }

    /// Plays a match (money play: one game), writing the score after each
    /// game of a match.
    fn play_match(&mut self, first: Option<First>, mut start: Option<Position>) -> Step<()> {
        let rules = *self.state.rules();
        let length = rules.length;
        let mut number = 1;
        loop {
            if length > 0 {
                let [me, him] = self.state.score();
                let note = if self.state.is_crawford() {
                    " This is the Crawford game: nobody may double."
                } else if rules.cube && length - me == 1 && length - him == 1 {
                    " Both sides need one point: the cube is dead."
                } else if rules.cube && (length - me == 1 || length - him == 1) {
                    " After the Crawford game: the trailer may double."
                } else {
                    ""
                };
                writeln!(self.out, "\nGame {number} of the {length}-point match: you {me}, the engine {him}.{note}")?;
            }
            let (winner, won) = self.play_one(first, start.take())?;
            if length == 0 {
                return Ok(());
            }
            let over = self.state.record(winner, won);
            let [me, him] = self.state.score();
            writeln!(self.out, "Score: you {me}, the engine {him} (match to {length}).")?;
            match over {
                Some(HUMAN) => {
                    writeln!(self.out, "You win the match, {me}-{him}.")?;
                    return Ok(());
                }
                Some(ENGINE) => {
                    writeln!(self.out, "The engine wins the match, {him}-{me}.")?;
                    return Ok(());
                }
                None => {}
            }
            number += 1;
        }
    }

    /// Plays one game to its end (or a passed double): who won, and how
    /// many points.
    fn play_one(&mut self, first: Option<First>, start: Option<Position>) -> Step<(Seat, u32)> {
        self.cube = Cube::START;
        let game = match start {
            Some(p) => {
                writeln!(self.out, "Starting from position {}: you are on roll.", p.to_position_id())?;
                self.show_board(&p, Some(false), "Your turn.")?;
                GameStart { cube: self.cube, ..GameStart::from_position(p, HUMAN) }
            }
            None => {
                self.show_board(&Position::STARTING, None, "Opening roll.")?;
                let (human, opening) = self.opening(first)?;
                let on_roll = if human { HUMAN } else { ENGINE };
                GameStart { first_roll: FirstRoll::Given(opening), cube: self.cube, ..GameStart::opening(on_roll) }
            }
        };
        let state = self.state;
        // Every roll goes through `Table::roll`, which reads the session's
        // dice (or the typed ones); the loop's own source is never asked.
        let mut unused = RandomDice::new(0, 0);
        let record = match play_game(self, &mut unused, &game, &state) {
            Ok(r) => r,
            Err(Abandoned) => return Err(self.stop.take().unwrap_or(End::Quit)),
        };
        match record.end {
            GameEnd::Finished { winner, result, points } => self.finish(winner, result, &record.cube, points),
            // The cube prompts said who passed.
            GameEnd::Passed { winner, points } => Ok((winner, points)),
            GameEnd::Stopped { .. } => Err(End::TooLong),
        }
    }

    /// The end of a game played out: says who won what.
    fn finish(&mut self, winner: Seat, result: GameResult, cube: &Cube, total: u32) -> Step<(Seat, u32)> {
        let who = if winner == HUMAN { "You win" } else { "The engine wins" };
        if !self.state.rules().cube {
            writeln!(self.out, "{who} {}.", result_words(result))?;
        } else if self.state.jacoby_applies(cube) && result != GameResult::Single {
            let what = if result == GameResult::Gammon { "a gammon" } else { "a backgammon" };
            writeln!(
                self.out,
                "{who} {what}, counted as a single game under the Jacoby rule (the cube was not turned): {}.",
                points(total)
            )?;
        } else if cube.value == 1 {
            writeln!(self.out, "{who} {}.", result_words(result))?;
        } else {
            writeln!(self.out, "{who} {} with the cube at {}: {}.", result_words(result), cube.value, points(total))?;
        }
        Ok((winner, total))
    }

    /// Before the human's roll, when he may double: roll (with manual dice,
    /// typing the roll rolls it) or double.
    fn human_offers(&mut self, pos: &Position, ctx: &GameContext) -> Step<bool> {
        loop {
            let line = self.ask("Roll or double? [r/d]: ")?;
            if self.manual {
                if let Some(d) = parse_roll(&line).and_then(|(a, b)| Dice::new(a, b).ok()) {
                    self.typed_roll = Some(d);
                    return Ok(false);
                }
            }
            match line.to_ascii_lowercase().as_str() {
                "" | "r" | "roll" => return Ok(false),
                "d" | "double" => break,
                "hint" => self.cube_hint(pos, ctx, true)?,
                "board" => self.show_board(pos, Some(false), "Your turn.")?,
                "help" | "?" => writeln!(self.out, "{CUBE_HELP}")?,
                "quit" | "resign" | "exit" => return Err(End::Quit),
                _ => writeln!(self.out, "Type r to roll or d to double (or hint, board, help, quit).")?,
            }
        }
        writeln!(self.out, "You double to {}.", ctx.cube_value.saturating_mul(2))?;
        Ok(true)
    }

    /// The engine answers the human's double (`pos` and `ctx` seen by the human).
    fn engine_answers(&mut self, pos: &Position, ctx: &GameContext) -> Step<CubeAnswer> {
        let old = ctx.cube_value;
        let answer = self.analysis(pos, ctx).and_then(|a| a.response()).unwrap_or(Response::Take);
        Ok(match answer {
            Response::Pass => {
                writeln!(self.out, "The engine drops: you win {}.", points(old))?;
                CubeAnswer::Pass
            }
            Response::Beaver if self.state.may_beaver(&self.cube) => {
                writeln!(
                    self.out,
                    "The engine beavers: it takes and redoubles at once; the cube is at {}, owned by the engine.",
                    old.saturating_mul(4)
                )?;
                CubeAnswer::Beaver
            }
            Response::Take | Response::Beaver => {
                writeln!(self.out, "The engine takes: the cube is at {}, owned by the engine.", old.saturating_mul(2))?;
                CubeAnswer::Take
            }
        })
    }

    /// The human answers the engine's double (`pos` and `ctx` seen by the engine).
    fn human_answers(&mut self, pos: &Position, ctx: &GameContext) -> Step<CubeAnswer> {
        let old = ctx.cube_value;
        let new = old.saturating_mul(2);
        let beaver = self.state.may_beaver(&self.cube);
        let prompt = if beaver {
            format!("The engine doubles to {new}. Take or drop (or beaver)? [t/d/b]: ")
        } else {
            format!("The engine doubles to {new}. Take or drop? [t/d]: ")
        };
        loop {
            let line = self.ask(&prompt)?;
            match line.to_ascii_lowercase().as_str() {
                "t" | "take" => {
                    writeln!(self.out, "You take: the cube is at {new}, owned by you.")?;
                    return Ok(CubeAnswer::Take);
                }
                "d" | "drop" | "p" | "pass" => {
                    writeln!(self.out, "You drop: the engine wins {}.", points(old))?;
                    return Ok(CubeAnswer::Pass);
                }
                "b" | "beaver" if beaver => {
                    writeln!(self.out, "You beaver: the cube is at {}, owned by you.", old.saturating_mul(4))?;
                    return Ok(CubeAnswer::Beaver);
                }
                "b" | "beaver" => {
                    writeln!(self.out, "Beavers are not allowed here (they need --beaver, in money play).")?
                }
                "hint" => self.cube_hint(pos, ctx, false)?,
                "board" => self.show_board(&pos.switched(), Some(true), "The engine's turn.")?,
                "help" | "?" => writeln!(self.out, "{TAKE_HELP}")?,
                "quit" | "resign" | "exit" => return Err(End::Quit),
                _ => {
                    let b = if beaver { ", b to beaver" } else { "" };
                    writeln!(self.out, "Type t to take or d to drop{b} (or hint, board, help, quit).")?;
                }
            }
        }
    }

    /// The engine's cube analysis of `pos` (seen by the side on roll, who is
    /// X in the explanation).
    fn cube_hint(&mut self, pos: &Position, ctx: &GameContext, human_on_roll: bool) -> Step<()> {
        let Some(a) = self.analysis(pos, ctx) else {
            writeln!(self.out, "No cube analysis is available here.")?;
            return Ok(());
        };
        let name = self.cube_engine.name();
        if human_on_roll {
            writeln!(self.out, "The engine's cube analysis ({name}); you are X, on roll, the engine is O:")?;
            writeln!(self.out, "Proper cube action for you: {}.", a.action)?;
        } else {
            writeln!(self.out, "The engine's analysis of its double ({name}); the engine is X, on roll, you are O:")?;
            let answer = match a.response() {
                Some(Response::Beaver) if self.state.may_beaver(&self.cube) => "beaver",
                Some(Response::Pass) => "drop",
                _ => "take",
            };
            writeln!(self.out, "Proper cube action: {}; your correct answer: {answer}.", a.action)?;
        }
        for line in a.explain().lines() {
            writeln!(self.out, "  {line}")?;
        }
        Ok(())
    }

    /// The engine's move: the index in `moves`.
    fn engine_turn(&mut self, pos: &Position, dice: Dice, moves: &MoveList) -> Step<usize> {
        let chosen =
            self.engine.choose_move(pos, dice, 0).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
        // Results are distinct positions: the one reached names the move.
        let i = moves.positions().iter().position(|p| *p == chosen.result).unwrap_or(0);
        writeln!(self.out, "The engine rolls {dice} and plays {}.", pos.format_move(&moves.moves()[i]))?;
        Ok(i)
    }

    /// The human's turn: prompts until a legal move; the index in `moves`.
    fn human_turn(&mut self, pos: &Position, dice: Dice, list: &MoveList) -> Step<usize> {
        writeln!(self.out, "You roll {dice}.")?;
        if list.len() == 1 {
            let only = pos.format_move(&list.moves()[0]);
            writeln!(self.out, "Only one legal move: {only} (press Enter to play it).")?;
        }
        let prompt = format!("Your move ({dice}): ");
        loop {
            let line = self.ask(&prompt)?;
            let command = line.to_ascii_lowercase();
            let chosen: Option<(Move, Position)> = match command.as_str() {
                "" if list.len() == 1 => list.iter().next(),
                "" => {
                    writeln!(self.out, "Type your move (like 8/5 6/5), or `help`.")?;
                    None
                }
                "help" | "?" => {
                    writeln!(self.out, "{HELP}")?;
                    None
                }
                "hint" => {
                    self.hint(pos, dice, list)?;
                    None
                }
                "moves" => {
                    self.list_moves(pos, list)?;
                    None
                }
                "board" => {
                    self.show_board(pos, Some(false), "Your turn.")?;
                    None
                }
                "quit" | "resign" | "exit" => return Err(End::Quit),
                _ if command.bytes().all(|b| b.is_ascii_digit()) => match command.parse::<usize>() {
                    Ok(n) if (1..=list.len()).contains(&n) => list.iter().nth(n - 1),
                    _ => {
                        writeln!(self.out, "There is no move {command}: `moves` lists moves 1 to {}.", list.len())?;
                        None
                    }
                },
                _ => match parse_move_in(pos, dice, &line, list) {
                    Ok(found) => Some(found),
                    Err(e) => {
                        writeln!(self.out, "Illegal move: {e}.")?;
                        None
                    }
                },
            };
            // Results are distinct positions: the one reached names the move.
            if let Some(i) = chosen.and_then(|(_, after)| list.positions().iter().position(|p| *p == after)) {
                writeln!(self.out, "You play {}.", pos.format_move(&list.moves()[i]))?;
                return Ok(i);
            }
        }
    }

    /// The legal moves, numbered, in gnubg notation.
    fn list_moves(&mut self, pos: &Position, list: &MoveList) -> Step<()> {
        let s = if list.len() == 1 { "" } else { "s" };
        writeln!(self.out, "{} legal move{s}:", list.len())?;
        for (i, m) in list.moves().iter().enumerate() {
            writeln!(self.out, "{:>4}. {}", i + 1, pos.format_move(m))?;
        }
        Ok(())
    }

    /// The engine's five best moves by its 0-ply evaluation, with their
    /// cubeless equities for the mover.
    fn hint(&mut self, pos: &Position, dice: Dice, list: &MoveList) -> Step<()> {
        let ranked = self.engine.analyse_roll(pos, dice, 0).map(|a| a.moves).unwrap_or_default();
        let best = ranked.first().map_or(0.0, |r| r.equity);
        let names: Vec<String> = ranked.iter().take(5).map(|r| pos.format_move(&r.move_)).collect();
        let width = names.iter().map(String::len).max().unwrap_or(0);
        writeln!(self.out, "The engine's choice ({}), cubeless equity for you:", self.engine.name())?;
        for (rank, (name, r)) in names.iter().zip(&ranked).enumerate() {
            let eq = r.equity;
            let diff = if rank == 0 { String::new() } else { format!("  ({:+.3})", eq - best) };
            writeln!(self.out, "{:>4}. {name:<width$}  {eq:+.3}{diff}", rank + 1)?;
        }
        if list.len() > names.len() {
            writeln!(self.out, "      ... and {} more (`moves` lists them all)", list.len() - names.len())?;
        }
        Ok(())
    }
}

impl<R: BufRead, W: Write> Table for Session<'_, R, W> {
    fn choose_move(&mut self, seat: Seat, pos: &Position, dice: Dice, moves: &MoveList) -> Decision<usize> {
        let step = if seat == HUMAN { self.human_turn(pos, dice, moves) } else { self.engine_turn(pos, dice, moves) };
        self.abandon(step)
    }

    fn roll(&mut self, seat: Seat, _: &mut dyn DiceSource) -> Decision<Dice> {
        if let Some(d) = self.typed_roll.take() {
            return Ok(d);
        }
        let step = self.roll_for(seat == HUMAN);
        self.abandon(step)
    }

    /// Doubles that cannot gain anything are neither offered to the human
    /// nor made.
    fn offers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<bool> {
        if !self.double_matters(ctx) {
            return Ok(false);
        }
        if seat == HUMAN {
            let step = self.human_offers(pos, ctx);
            self.abandon(step)
        } else {
            Ok(self.analysis(pos, ctx).is_some_and(|a| a.action.doubles()))
        }
    }

    fn answers_double(&mut self, seat: Seat, pos: &Position, ctx: &GameContext) -> Decision<CubeAnswer> {
        let step = if seat == HUMAN { self.human_answers(pos, ctx) } else { self.engine_answers(pos, ctx) };
        self.abandon(step)
    }

    /// A beaver stands: the doubler plays on at four times the cube
    /// (raccoons are not played).
    fn answers_beaver(&mut self, _: Seat, _: &Position, _: &GameContext) -> Decision<BeaverAnswer> {
        Ok(BeaverAnswer::Accept)
    }

    fn cube_changed(&mut self, cube: &Cube) -> Decision<()> {
        self.cube = *cube;
        Ok(())
    }

    /// A passed turn is announced; the board is drawn after every turn.
    fn after_turn(&mut self, turn: &Turn<'_>) -> Decision<()> {
        let human_moved = turn.seat == HUMAN;
        let step = (|| {
            if turn.played.is_none() {
                if human_moved {
                    writeln!(self.out, "You roll {} and cannot move: your turn passes.", turn.dice)?;
                } else {
                    writeln!(self.out, "The engine rolls {} and cannot move.", turn.dice)?;
                }
            }
            // `after` is seen by the side to move next.
            let human_view = if human_moved { turn.after.switched() } else { turn.after };
            if turn.after.game_result().is_some() {
                self.show_board(&human_view, None, "Game over.")
            } else {
                let status = if human_moved { "The engine's turn." } else { "Your turn." };
                self.show_board(&human_view, Some(human_moved), status)
            }
        })();
        self.abandon(step)
    }
}
