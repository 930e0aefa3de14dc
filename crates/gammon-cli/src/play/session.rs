//! The session's input (prompts, typed rolls) and the flow of a match: game
//! after game through the rules crate's game loop, and the result of each.

use super::{parse_roll, points, End, First, Session, Step, ENGINE, HUMAN};
use crate::line_input::{read_text_line, TextLine};
use gammon_rules::{
    play_game, Abandoned, Cube, Decision, Dice, DiceSource, FirstRoll, GameEnd, GameResult, GameStart, Position,
    RandomDice, Seat,
};
use std::io::{BufRead, Write};

/// The longest answer line read: a move, a roll or a command is short.
const MAX_LINE_BYTES: usize = 1024;

fn result_words(r: GameResult) -> &'static str {
    match r {
        GameResult::Single => "a single game (1 point)",
        GameResult::Gammon => "a gammon (2 points)",
        GameResult::Backgammon => "a backgammon (3 points)",
    }
}

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Writes `text` without a newline and reads the answer line; `End::Eof`
    /// at the end of the input. A line that cannot be read (too long, not
    /// UTF-8) is refused with an `error:` line and the prompt comes again.
    pub(super) fn ask(&mut self, prompt: &str) -> Step<String> {
        loop {
            write!(self.out, "{prompt}")?;
            self.out.flush()?;
            let why = match read_text_line(&mut self.input, MAX_LINE_BYTES)? {
                TextLine::End => return Err(End::Eof),
                TextLine::Text(line) => {
                    if self.echo {
                        writeln!(self.out, "{line}")?;
                    }
                    return Ok(line);
                }
                TextLine::TooLong => format!("line too long (limit {MAX_LINE_BYTES} bytes)"),
                TextLine::NotUtf8 => "the line is not UTF-8 text".to_string(),
            };
            if self.echo {
                writeln!(self.out)?;
            }
            writeln!(self.out, "error: {why}")?;
        }
    }

    /// A roll typed by the human, in the order typed.
    pub(super) fn ask_roll(&mut self, prompt: &str) -> Step<(u8, u8)> {
        loop {
            let line = self.ask(prompt)?;
            match line.to_ascii_lowercase().as_str() {
                "quit" | "exit" => return Err(End::Quit),
                "" => continue,
                _ if line.to_ascii_lowercase().starts_with("resign") => {
                    writeln!(self.out, "Type the dice here; you may resign at your move prompt, after the roll.")?;
                    continue;
                }
                _ => {}
            }
            match parse_roll(&line) {
                Some(r) => return Ok(r),
                None => writeln!(self.out, "Cannot read {line:?} as dice: type two digits 1-6, like 31 (or quit).")?,
            }
        }
    }

    /// The roll of a side for its turn.
    pub(super) fn roll_for(&mut self, human: bool) -> Step<Dice> {
        if !self.manual {
            return Ok(self.dice.roll());
        }
        let prompt = if human { "Roll for you (e.g. 31): " } else { "Roll for the engine (e.g. 31): " };
        let (a, b) = self.ask_roll(prompt)?;
        Dice::new(a, b).map_err(|e| End::Io(std::io::Error::other(e.to_string())))
    }

    /// Keeps why a decider gave up the game, for the game loop.
    pub(super) fn abandon<T>(&mut self, step: Step<T>) -> Decision<T> {
        step.map_err(|e| {
            self.stop = Some(e);
            Abandoned
        })
    }

    /// Plays a match (money play: one game), writing the score after each
    /// game of a match.
    pub(super) fn play_match(&mut self, first: Option<First>, mut start: Option<Position>) -> Step<()> {
        let rules = *self.state.rules();
        let length = rules.length;
        let mut number = 1;
        loop {
            if length > 0 {
                let [me, him] = self.state.score();
                let note = if self.state.is_crawford() {
                    " This is the Crawford game: nobody may double."
                } else if rules.cube && self.state.away() == Some([1, 1]) {
                    " Both sides need one point: the cube is dead."
                } else if rules.cube && self.state.is_post_crawford() {
                    " After the Crawford game: the trailer may double."
                } else {
                    ""
                };
                writeln!(self.out, "\nGame {number} of the {length}-point match: you {me}, the engine {him}.{note}")?;
            }
            let score = self.state.score();
            if let Some(log) = &mut self.log {
                log.new_game(score);
            }
            let (winner, won) = self.play_one(first, start.take())?;
            if let Some(log) = &mut self.log {
                log.win(winner, won);
            }
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
        self.declined = None;
        self.roll_shown = false;
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
            GameEnd::Resigned { winner, result, points } => self.resigned(winner, result, &record.cube, points),
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
}
