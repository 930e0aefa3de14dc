//! `gammon play`: a cubeless money game against the engine in the terminal.
//!
//! The human is X, at the bottom of the board, moving from 24 down to 1; the
//! engine is O. The board is always drawn from the human's side, after every
//! move (and passed turn). Each side rolls one die for the opening roll
//! (ties are rolled again) and the higher die moves first with both dice,
//! unless `--first` names the side to start (it then plays a non-double
//! opening roll).
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
use anyhow::Result;
use clap::{Args, ValueEnum};
use gammon_eval::play::{DiceSource, RandomDice};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::{parse_move_in, Dice, GameResult, Move, MoveList, Position};
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
    /// Who moves first (default: the opening roll decides).
    #[arg(long, value_enum)]
    first: Option<First>,
}

/// Runs `gammon play` on the terminal (or any standard input).
pub fn run(args: &PlayArgs) -> Result<()> {
    let engine: Box<dyn Evaluator> = match (&args.engine, &args.weights) {
        (_, Some(path)) => Box::new(evaluators::net(Some(path))?),
        (Some(spec), None) => evaluators::by_name(spec)?,
        (None, None) => Box::new(evaluators::net(None)?),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "gammon play: a cubeless money game against {}.", engine.name())?;
    let dice = if args.manual_dice {
        writeln!(out, "Manual dice: you type every roll, for both sides (like 31).")?;
        None
    } else {
        let seed = args.seed.unwrap_or_else(clock_seed);
        writeln!(out, "Dice seed: {seed} (replay this game with --seed {seed})")?;
        Some(RandomDice::new(seed, 0))
    };
    let echo = !stdin.is_terminal();
    let mut game = Game { input: stdin.lock(), out, engine: engine.as_ref(), dice, echo };
    match game.play(args.first) {
        Ok(()) => Ok(()),
        Err(End::Eof) => {
            writeln!(game.out, "\nEnd of input: the game is abandoned.")?;
            Ok(())
        }
        Err(End::Quit) => {
            writeln!(game.out, "You leave the game; it is not scored.")?;
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

const HELP: &str = "\
Type your move in gnubg notation, points from your side (24 down to 1):
  8/5 6/5   bar/22*   6/off   13/10(2)   24/18/13
or the number of a move in the `moves` list, or a command:
  hint      the engine's best moves with their equities
  moves     all legal moves, numbered
  board     show the board
  quit      end the game (also: resign)";

struct Game<'e, R, W> {
    input: R,
    out: W,
    engine: &'e dyn Evaluator,
    /// `None`: manual dice.
    dice: Option<RandomDice>,
    /// Repeat each answer after its prompt (input from a pipe or file, so
    /// that the transcript reads like a terminal session).
    echo: bool,
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

    /// The opening roll: whether the human starts, and the dice.
    fn opening(&mut self, first: Option<First>) -> Step<(bool, Dice)> {
        let (human_die, engine_die) = match (first, &mut self.dice) {
            (Some(f), Some(rd)) => {
                let d = rd.opening();
                let human = f == First::Human;
                let who = if human { "You move" } else { "The engine moves" };
                writeln!(self.out, "Opening roll {d}. {who} first (--first).")?;
                return Ok((human, d));
            }
            (Some(f), None) => loop {
                let human = f == First::Human;
                let prompt = if human {
                    "Opening roll for you (two different dice, e.g. 31): "
                } else {
                    "Opening roll for the engine (two different dice, e.g. 31): "
                };
                let (a, b) = self.ask_roll(prompt)?;
                if a == b {
                    writeln!(self.out, "The opening roll cannot be a double: roll again.")?;
                    continue;
                }
                let d = Dice::new(a, b).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
                return Ok((human, d));
            },
            (None, Some(rd)) => {
                // One die each: the two different dice, and a fair coin (the
                // parity of a roll's sum) for who holds the higher one.
                let d = rd.opening();
                let coin = rd.roll();
                if (coin.high() + coin.low()) % 2 == 0 {
                    (d.high(), d.low())
                } else {
                    (d.low(), d.high())
                }
            }
            (None, None) => loop {
                let (a, b) =
                    self.ask_roll("Opening roll: your die and the engine's die (e.g. 31 = you 3, engine 1): ")?;
                if a == b {
                    writeln!(self.out, "Both dice show {a}: roll again.")?;
                    continue;
                }
                break (a, b);
            },
        };
        let d = Dice::new(human_die, engine_die).map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
        let who = if human_die > engine_die { "You move" } else { "The engine moves" };
        writeln!(
            self.out,
            "Opening roll: you rolled {human_die}, the engine rolled {engine_die}. {who} first with {d}."
        )?;
        Ok((human_die > engine_die, d))
    }

    /// Draws the board from the human's side (`human_view`), with whose
    /// turn it is. The Position ID is the one of the side on roll:
    /// `engine_on_roll` is `Some(true)` for the engine, `None` after the game.
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
        writeln!(self.out, " You are X (moving 24 -> 1), the engine is O. {status}")?;
        writeln!(self.out)?;
        Ok(())
    }

    /// Plays one game to its end.
    fn play(&mut self, first: Option<First>) -> Step<()> {
        self.show_board(&Position::STARTING, None, "Opening roll.")?;
        let (mut human_on_roll, opening) = self.opening(first)?;
        let mut dice = Some(opening);
        let mut pos = Position::STARTING;
        loop {
            let roll = match dice.take() {
                Some(d) => d,
                None => self.roll(human_on_roll)?,
            };
            let after = if human_on_roll { self.human_turn(&pos, roll)? } else { self.engine_turn(&pos, roll)? };
            // `after` is seen by the side to move next.
            let human_view = if human_on_roll { after.switched() } else { after };
            if let Some((on_roll_won, result)) = after.game_result() {
                self.show_board(&human_view, None, "Game over.")?;
                let human_won = human_on_roll != on_roll_won;
                let words = result_words(result);
                if human_won {
                    writeln!(self.out, "You win {words}.")?;
                } else {
                    writeln!(self.out, "The engine wins {words}.")?;
                }
                return Ok(());
            }
            let status = if human_on_roll { "The engine's turn." } else { "Your turn." };
            self.show_board(&human_view, Some(human_on_roll), status)?;
            pos = after;
            human_on_roll = !human_on_roll;
        }
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
