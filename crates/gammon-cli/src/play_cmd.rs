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
//! The engine's cube decisions come from [`analyse_position`] (the 0-ply
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
use gammon_engine::cube::{analyse_position, CubeAnalysis, CubeState, Response};
use gammon_engine::met::Met;
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{parse_move_in, CubeOwner, Dice, GameContext, GameResult, Move, MoveList, Position};
use gammon_rules::{DiceSource, RandomDice};
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

/// The rules of the session.
#[derive(Debug, Clone, Copy)]
struct Rules {
    /// The doubling cube is in play.
    cube: bool,
    /// Match length; 0 = money play.
    match_length: u32,
    /// Money play: the Jacoby rule.
    jacoby: bool,
    /// Money play: beavers.
    beaver: bool,
    /// Money play: the most automatic doubles of a game (0: none).
    murphy: u32,
}

impl Rules {
    const fn money(&self) -> bool {
        self.match_length == 0
    }
}

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
    let score = args.score.unwrap_or((0, 0));
    if args.score.is_some() {
        if match_length == 0 {
            bail!("--score needs a match (--match POINTS)");
        }
        if score.0 >= match_length || score.1 >= match_length {
            bail!("a score of {}-{} is not below the match length {match_length}", score.0, score.1);
        }
    }
    let one_away = match_length > 0 && (match_length - score.0 == 1 || match_length - score.1 == 1);
    if args.post_crawford && !one_away {
        bail!("--post-crawford needs a score where a player is one point from winning the match");
    }
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
    let engine: Box<dyn Evaluator> = match (&args.engine, &args.weights) {
        (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
        (Some(spec), None) => evaluators::by_name(spec)?,
        (None, None) => Box::new(evaluators::net(None)?),
    };
    let money = match_length == 0;
    let cube = !args.no_cube;
    // pubeval has no real probabilities: the built-in net takes the cube
    // decisions for it.
    let cube_net: Option<Box<dyn Evaluator>> =
        if cube && args.engine.as_deref() == Some("pubeval") { Some(Box::new(evaluators::net(None)?)) } else { None };
    let rules = Rules {
        cube,
        match_length,
        jacoby: money && args.jacoby,
        beaver: money && args.beaver,
        murphy: if money { args.murphy.unwrap_or(0) } else { 0 },
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
    let mut game = Game {
        input: stdin.lock(),
        out,
        engine: engine.as_ref(),
        cube_engine: cube_net.as_deref().unwrap_or(engine.as_ref()),
        met,
        dice,
        echo,
        rules,
        cube: Cube::START,
        score,
        // Both players one point away: the Crawford game is behind them.
        crawford: cube && one_away && !args.post_crawford && match_length - score.0 + match_length - score.1 > 2,
        crawford_played: one_away,
    };
    match game.play_match(args.first, start) {
        Ok(()) => Ok(()),
        Err(End::Eof) => {
            let what = if money { "game" } else { "match" };
            writeln!(game.out, "\nEnd of input: the {what} is abandoned.")?;
            Ok(())
        }
        Err(End::Quit) => {
            if money {
                writeln!(game.out, "You leave the game; it is not scored.")?;
            } else {
                let (me, him) = game.score;
                writeln!(
                    game.out,
                    "You leave the match at you {me}, the engine {him}; the game in progress is not scored."
                )?;
            }
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
    /// Reading or writing failed.
    Io(std::io::Error),
}

impl From<std::io::Error> for End {
    fn from(e: std::io::Error) -> Self {
        End::Io(e)
    }
}

type Step<T> = std::result::Result<T, End>;

/// Who holds the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holder {
    /// Nobody: either side may double.
    Centre,
    /// The human.
    Human,
    /// The engine.
    Engine,
}

/// The doubling cube of the game in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Cube {
    value: u32,
    holder: Holder,
    /// Automatic doubles (Murphy rule) so far.
    automatic: u32,
}

impl Cube {
    const START: Cube = Cube { value: 1, holder: Holder::Centre, automatic: 0 };
}

/// How a game ended: who won, and how many points.
#[derive(Debug, Clone, Copy)]
struct Outcome {
    human_won: bool,
    points: u32,
}

/// What happened before a roll.
#[derive(Debug, Clone, Copy)]
enum CubeTurn {
    /// The game goes on: roll (the dice if the human typed them).
    Roll(Option<Dice>),
    /// A double was dropped: the game is over.
    Dropped(Outcome),
}

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

/// The value of a result before the cube: 1, 2 or 3.
const fn result_value(r: GameResult) -> u32 {
    match r {
        GameResult::Single => 1,
        GameResult::Gammon => 2,
        GameResult::Backgammon => 3,
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

struct Game<'e, R, W> {
    input: R,
    out: W,
    engine: &'e dyn Evaluator,
    /// The evaluator of the cube decisions (the engine, or the built-in net
    /// for pubeval).
    cube_engine: &'e dyn Evaluator,
    met: &'static Met,
    /// `None`: manual dice.
    dice: Option<RandomDice>,
    /// Repeat each answer after its prompt (input from a pipe or file, so
    /// that the transcript reads like a terminal session).
    echo: bool,
    rules: Rules,
    /// The cube of the game in progress.
    cube: Cube,
    /// Match score: (human, engine).
    score: (u32, u32),
    /// The game in progress is the Crawford game.
    crawford: bool,
    /// The Crawford game has been played (or is being played).
    crawford_played: bool,
}

impl<R: BufRead, W: Write> Game<'_, R, W> {
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

    /// A roll typed by the human (`who` names the side), in the order typed.
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
    fn roll(&mut self, human: bool) -> Step<Dice> {
        if let Some(rd) = &mut self.dice {
            return Ok(rd.roll());
        }
        let prompt = if human { "Roll for you (e.g. 31): " } else { "Roll for the engine (e.g. 31): " };
        let (a, b) = self.ask_roll(prompt)?;
        Dice::new(a, b).map_err(|e| End::Io(std::io::Error::other(e.to_string())))
    }

    /// Automatic doubles (Murphy rule) are played in this session.
    const fn murphy_active(&self) -> bool {
        self.rules.cube && self.rules.money() && self.rules.murphy > 0
    }

    /// Equal opening dice: turns the cube automatically if the Murphy rule
    /// allows another automatic double, and says so.
    fn opening_tie(&mut self, die: u8) -> Step<()> {
        let next = self.cube.value.saturating_mul(2);
        if self.murphy_active() && self.cube.automatic < self.rules.murphy && next <= GameContext::DEFAULT_MAX_CUBE {
            self.cube.value = next;
            self.cube.automatic += 1;
            writeln!(
                self.out,
                "Both dice show {die}: automatic double (Murphy rule), the cube is now at {next}, centred. Roll again."
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
            if let Some(rd) = &mut self.dice {
                let d = rd.opening();
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
            let (a, b) = match &mut self.dice {
                Some(rd) if !murphy => {
                    // One die each: the two different dice, and a fair coin
                    // (the parity of a roll's sum) for who holds the higher one.
                    let d = rd.opening();
                    let coin = rd.roll();
                    if (coin.high() + coin.low()) % 2 == 0 {
                        (d.high(), d.low())
                    } else {
                        (d.low(), d.high())
                    }
                }
                Some(rd) => {
                    // Ties count here: a roll of two dice, then the coin.
                    let d = rd.roll();
                    if d.is_double() {
                        (d.high(), d.low())
                    } else {
                        let coin = rd.roll();
                        if (coin.high() + coin.low()) % 2 == 0 {
                            (d.high(), d.low())
                        } else {
                            (d.low(), d.high())
                        }
                    }
                }
                None => self.ask_roll("Opening roll: your die and the engine's die (e.g. 31 = you 3, engine 1): ")?,
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
        let mut s = match self.cube.holder {
            Holder::Centre => format!("{v}, centred"),
            Holder::Human => format!("{v}, owned by you"),
            Holder::Engine => format!("{v}, owned by the engine"),
        };
        if self.crawford {
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
        if self.rules.cube {
            writeln!(self.out, " Cube: {}.", self.cube_words())?;
        }
        if !self.rules.money() {
            let (me, him) = self.score;
            writeln!(self.out, " Match to {}: you {me}, the engine {him}.", self.rules.match_length)?;
        }
        writeln!(self.out, " You are X (moving 24 -> 1), the engine is O. {status}")?;
        writeln!(self.out)?;
        Ok(())
    }

    /// The game context of the game in progress, seen by the side on roll.
    fn context(&self, human_on_roll: bool) -> GameContext {
        let mut ctx = GameContext::new_match(self.rules.match_length);
        ctx.cube_value = self.cube.value;
        ctx.cube_owner = match (self.cube.holder, human_on_roll) {
            (Holder::Centre, _) => CubeOwner::Centered,
            (Holder::Human, true) | (Holder::Engine, false) => CubeOwner::OnRoll,
            (Holder::Human, false) | (Holder::Engine, true) => CubeOwner::Opponent,
        };
        ctx.score = if human_on_roll { self.score } else { (self.score.1, self.score.0) };
        ctx.crawford = self.crawford;
        if self.rules.money() {
            ctx.jacoby = self.rules.jacoby;
            ctx.beaver = self.rules.beaver;
        }
        ctx
    }

    /// True if the side on roll may double now (and the double can matter).
    fn may_double(&self, human_on_roll: bool) -> bool {
        self.rules.cube
            && CubeState::from_context(&self.context(human_on_roll), self.met)
                .is_ok_and(|s| s.no_double_reason().is_none())
    }

    /// The engine's cube analysis of `pos` (seen by the side on roll).
    fn analysis(&self, pos: &Position, human_on_roll: bool) -> Option<CubeAnalysis> {
        analyse_position(self.cube_engine, pos, &self.context(human_on_roll), self.met).ok()
    }

    /// A beaver is possible on the current cube (money play with beavers,
    /// and four times the cube within the maximum).
    fn beaver_possible(&self) -> bool {
        self.rules.beaver
            && self.rules.money()
            && self.cube.value.checked_mul(4).is_some_and(|c| c <= GameContext::DEFAULT_MAX_CUBE)
    }

    /// Plays a match (money play: one game), writing the score after each
    /// game of a match.
    fn play_match(&mut self, first: Option<First>, mut start: Option<Position>) -> Step<()> {
        let length = self.rules.match_length;
        let mut number = 1;
        loop {
            if length > 0 {
                let (me, him) = self.score;
                let note = if self.crawford {
                    " This is the Crawford game: nobody may double."
                } else if self.rules.cube && length - me == 1 && length - him == 1 {
                    " Both sides need one point: the cube is dead."
                } else if self.rules.cube && (length - me == 1 || length - him == 1) {
                    " After the Crawford game: the trailer may double."
                } else {
                    ""
                };
                writeln!(self.out, "\nGame {number} of the {length}-point match: you {me}, the engine {him}.{note}")?;
            }
            let outcome = self.play_game(first, start.take())?;
            if length == 0 {
                return Ok(());
            }
            let side = if outcome.human_won { &mut self.score.0 } else { &mut self.score.1 };
            *side = side.saturating_add(outcome.points);
            let (me, him) = self.score;
            writeln!(self.out, "Score: you {me}, the engine {him} (match to {length}).")?;
            if me >= length {
                writeln!(self.out, "You win the match, {me}-{him}.")?;
                return Ok(());
            }
            if him >= length {
                writeln!(self.out, "The engine wins the match, {him}-{me}.")?;
                return Ok(());
            }
            // The Crawford game: the first game after a player gets one
            // point from the match.
            let one_away = length - me == 1 || length - him == 1;
            self.crawford = !self.crawford_played && self.rules.cube && one_away;
            self.crawford_played |= one_away;
            number += 1;
        }
    }

    /// Plays one game to its end (or a dropped double): who won, and how
    /// many points.
    fn play_game(&mut self, first: Option<First>, start: Option<Position>) -> Step<Outcome> {
        self.cube = Cube::START;
        let (mut human_on_roll, mut dice, mut pos) = match start {
            Some(p) => {
                writeln!(self.out, "Starting from position {}: you are on roll.", p.to_position_id())?;
                self.show_board(&p, Some(false), "Your turn.")?;
                (true, None, p)
            }
            None => {
                self.show_board(&Position::STARTING, None, "Opening roll.")?;
                let (human, opening) = self.opening(first)?;
                (human, Some(opening), Position::STARTING)
            }
        };
        loop {
            let roll = match dice.take() {
                Some(d) => d,
                None => {
                    let mut typed = None;
                    if self.may_double(human_on_roll) {
                        let turn = if human_on_roll { self.human_cube(&pos)? } else { self.engine_cube(&pos)? };
                        match turn {
                            CubeTurn::Roll(d) => typed = d,
                            CubeTurn::Dropped(outcome) => return Ok(outcome),
                        }
                    }
                    match typed {
                        Some(d) => d,
                        None => self.roll(human_on_roll)?,
                    }
                }
            };
            let after = if human_on_roll { self.human_turn(&pos, roll)? } else { self.engine_turn(&pos, roll)? };
            // `after` is seen by the side to move next.
            let human_view = if human_on_roll { after.switched() } else { after };
            if let Some((on_roll_won, result)) = after.game_result() {
                self.show_board(&human_view, None, "Game over.")?;
                return self.finish(human_on_roll != on_roll_won, result);
            }
            let status = if human_on_roll { "The engine's turn." } else { "Your turn." };
            self.show_board(&human_view, Some(human_on_roll), status)?;
            pos = after;
            human_on_roll = !human_on_roll;
        }
    }

    /// The end of a game played out: says who won what, and scores it.
    fn finish(&mut self, human_won: bool, result: GameResult) -> Step<Outcome> {
        let who = if human_won { "You win" } else { "The engine wins" };
        if !self.rules.cube {
            writeln!(self.out, "{who} {}.", result_words(result))?;
            return Ok(Outcome { human_won, points: result_value(result) });
        }
        let cube = self.cube.value;
        let jacoby = self.rules.money() && self.rules.jacoby && self.cube.holder == Holder::Centre;
        if jacoby && result != GameResult::Single {
            let what = if result == GameResult::Gammon { "a gammon" } else { "a backgammon" };
            writeln!(
                self.out,
                "{who} {what}, counted as a single game under the Jacoby rule (the cube was not turned): {}.",
                points(cube)
            )?;
            return Ok(Outcome { human_won, points: cube });
        }
        let total = result_value(result).saturating_mul(cube);
        if cube == 1 {
            writeln!(self.out, "{who} {}.", result_words(result))?;
        } else {
            writeln!(self.out, "{who} {} with the cube at {cube}: {}.", result_words(result), points(total))?;
        }
        Ok(Outcome { human_won, points: total })
    }

    /// Before the human's roll, when he may double: roll or double (with
    /// manual dice, typing the roll rolls it).
    fn human_cube(&mut self, pos: &Position) -> Step<CubeTurn> {
        loop {
            let line = self.ask("Roll or double? [r/d]: ")?;
            if self.dice.is_none() {
                if let Some(d) = parse_roll(&line).and_then(|(a, b)| Dice::new(a, b).ok()) {
                    return Ok(CubeTurn::Roll(Some(d)));
                }
            }
            match line.to_ascii_lowercase().as_str() {
                "" | "r" | "roll" => return Ok(CubeTurn::Roll(None)),
                "d" | "double" => break,
                "hint" => self.cube_hint(pos, true)?,
                "board" => self.show_board(pos, Some(false), "Your turn.")?,
                "help" | "?" => writeln!(self.out, "{CUBE_HELP}")?,
                "quit" | "resign" | "exit" => return Err(End::Quit),
                _ => writeln!(self.out, "Type r to roll or d to double (or hint, board, help, quit).")?,
            }
        }
        let old = self.cube.value;
        let new = old.saturating_mul(2);
        writeln!(self.out, "You double to {new}.")?;
        let answer = self.analysis(pos, true).and_then(|a| a.response()).unwrap_or(Response::Take);
        match answer {
            Response::Pass => {
                writeln!(self.out, "The engine drops: you win {}.", points(old))?;
                Ok(CubeTurn::Dropped(Outcome { human_won: true, points: old }))
            }
            Response::Beaver if self.beaver_possible() => {
                let beavered = old.saturating_mul(4);
                self.cube.value = beavered;
                self.cube.holder = Holder::Engine;
                writeln!(
                    self.out,
                    "The engine beavers: it takes and redoubles at once; the cube is at {beavered}, owned by the engine."
                )?;
                Ok(CubeTurn::Roll(None))
            }
            Response::Take | Response::Beaver => {
                self.cube.value = new;
                self.cube.holder = Holder::Engine;
                writeln!(self.out, "The engine takes: the cube is at {new}, owned by the engine.")?;
                Ok(CubeTurn::Roll(None))
            }
        }
    }

    /// Before the engine's roll, when it may double: it doubles if its
    /// analysis says so, and the human answers. Returns the outcome if the
    /// human drops.
    fn engine_cube(&mut self, pos: &Position) -> Step<CubeTurn> {
        if !self.analysis(pos, false).is_some_and(|a| a.action.doubles()) {
            return Ok(CubeTurn::Roll(None));
        }
        let old = self.cube.value;
        let new = old.saturating_mul(2);
        let beaver = self.beaver_possible();
        let prompt = if beaver {
            format!("The engine doubles to {new}. Take or drop (or beaver)? [t/d/b]: ")
        } else {
            format!("The engine doubles to {new}. Take or drop? [t/d]: ")
        };
        loop {
            let line = self.ask(&prompt)?;
            match line.to_ascii_lowercase().as_str() {
                "t" | "take" => {
                    self.cube.value = new;
                    self.cube.holder = Holder::Human;
                    writeln!(self.out, "You take: the cube is at {new}, owned by you.")?;
                    return Ok(CubeTurn::Roll(None));
                }
                "d" | "drop" | "p" | "pass" => {
                    writeln!(self.out, "You drop: the engine wins {}.", points(old))?;
                    return Ok(CubeTurn::Dropped(Outcome { human_won: false, points: old }));
                }
                "b" | "beaver" if beaver => {
                    let beavered = old.saturating_mul(4);
                    self.cube.value = beavered;
                    self.cube.holder = Holder::Human;
                    writeln!(self.out, "You beaver: the cube is at {beavered}, owned by you.")?;
                    return Ok(CubeTurn::Roll(None));
                }
                "b" | "beaver" => {
                    writeln!(self.out, "Beavers are not allowed here (they need --beaver, in money play).")?
                }
                "hint" => self.cube_hint(pos, false)?,
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
    fn cube_hint(&mut self, pos: &Position, human_on_roll: bool) -> Step<()> {
        let Some(a) = self.analysis(pos, human_on_roll) else {
            writeln!(self.out, "No cube analysis is available here.")?;
            return Ok(());
        };
        if human_on_roll {
            writeln!(
                self.out,
                "The engine's cube analysis ({}); you are X, on roll, the engine is O:",
                self.cube_engine.name()
            )?;
            writeln!(self.out, "Proper cube action for you: {}.", a.action)?;
        } else {
            writeln!(
                self.out,
                "The engine's analysis of its double ({}); the engine is X, on roll, you are O:",
                self.cube_engine.name()
            )?;
            let answer = match a.response() {
                Some(Response::Beaver) if self.beaver_possible() => "beaver",
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

    /// The engine moves; returns the position seen by the human.
    fn engine_turn(&mut self, pos: &Position, dice: Dice) -> Step<Position> {
        let mut list = MoveList::new();
        list.generate(pos, dice);
        if list.is_empty() {
            writeln!(self.out, "The engine rolls {dice} and cannot move.")?;
            return Ok(pos.switched());
        }
        let i = if list.len() == 1 { 0 } else { self.engine.best_move(pos, list.positions()) };
        let i = if i < list.len() { i } else { 0 };
        let m = list.moves()[i];
        writeln!(self.out, "The engine rolls {dice} and plays {}.", pos.format_move(&m))?;
        Ok(list.positions()[i])
    }

    /// The human's turn: prompts until a legal move (or a pass); returns the
    /// position seen by the engine.
    fn human_turn(&mut self, pos: &Position, dice: Dice) -> Step<Position> {
        let mut list = MoveList::new();
        list.generate(pos, dice);
        if list.is_empty() {
            writeln!(self.out, "You roll {dice} and cannot move: your turn passes.")?;
            return Ok(pos.switched());
        }
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
                    self.hint(pos, &list)?;
                    None
                }
                "moves" => {
                    self.list_moves(pos, &list)?;
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
                _ => match parse_move_in(pos, dice, &line, &list) {
                    Ok(found) => Some(found),
                    Err(e) => {
                        writeln!(self.out, "Illegal move: {e}.")?;
                        None
                    }
                },
            };
            if let Some((m, after)) = chosen {
                writeln!(self.out, "You play {}.", pos.format_move(&m))?;
                return Ok(after);
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

    /// The engine's five best moves with their cubeless equities for the mover.
    fn hint(&mut self, pos: &Position, list: &MoveList) -> Step<()> {
        let mut probs = vec![Probabilities::default(); list.len()];
        self.engine.evaluate_batch(list.positions(), &mut probs);
        // Results are seen by the opponent: the mover's equity is the negative.
        let mut ranked: Vec<(usize, f32)> = probs.iter().enumerate().map(|(i, p)| (i, -p.equity())).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        let best = ranked.first().map_or(0.0, |r| r.1);
        let names: Vec<String> = ranked.iter().take(5).map(|&(i, _)| pos.format_move(&list.moves()[i])).collect();
        let width = names.iter().map(String::len).max().unwrap_or(0);
        writeln!(self.out, "The engine's choice ({}), cubeless equity for you:", self.engine.name())?;
        for (rank, (name, &(_, eq))) in names.iter().zip(&ranked).enumerate() {
            let diff = if rank == 0 { String::new() } else { format!("  ({:+.3})", eq - best) };
            writeln!(self.out, "{:>4}. {name:<width$}  {eq:+.3}{diff}", rank + 1)?;
        }
        if list.len() > names.len() {
            writeln!(self.out, "      ... and {} more (`moves` lists them all)", list.len() - names.len())?;
        }
        Ok(())
    }
}
