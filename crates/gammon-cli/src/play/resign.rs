//! The human's offers to resign and the engine's answers.

use super::{parse_resign, parse_roll, points, result_name, End, Session, Step, ENGINE};
use gammon_engine::api::{CubeUse, ResignationAnswer, ResignationUnit};
use gammon_rules::{Cube, Dice, GameContext, GameResult, Position, Seat};
use std::io::{BufRead, Write};

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Reads a `resign …` command typed on the human's turn: the level he
    /// offers, or `None` (after saying why) for an unknown level or one not
    /// above an offer the engine declined this turn.
    pub(super) fn resign_command(&mut self, command: &str) -> Step<Option<GameResult>> {
        let level = match parse_resign(command) {
            None => return Ok(None),
            Some(Err(why)) => {
                writeln!(self.out, "{why}")?;
                return Ok(None);
            }
            Some(Ok(level)) => level,
        };
        if let Some(declined) = self.declined.filter(|d| level <= *d) {
            writeln!(
                self.out,
                "The engine has declined your offer of {} this turn: only a higher one may follow.",
                result_name(declined)
            )?;
            return Ok(None);
        }
        writeln!(self.out, "You offer to resign {}.", result_name(level))?;
        Ok(Some(level))
    }

    /// With manual dice and no cube prompt, the human's roll is typed
    /// before the roll: his chance to resign then. `None`: he typed the roll.
    pub(super) fn human_roll_or_resign(&mut self) -> Step<Option<GameResult>> {
        loop {
            let line = self.ask("Roll for you (e.g. 31): ")?;
            let command = line.to_ascii_lowercase();
            match command.as_str() {
                "quit" | "exit" => return Err(End::Quit),
                "" => continue,
                _ if command.starts_with("resign") => {
                    if let Some(level) = self.resign_command(&command)? {
                        return Ok(Some(level));
                    }
                    continue;
                }
                _ => {}
            }
            match parse_roll(&line).and_then(|(a, b)| Dice::new(a, b).ok()) {
                Some(d) => {
                    self.typed_roll = Some(d);
                    return Ok(None);
                }
                None => writeln!(self.out, "Cannot read {line:?} as dice: type two digits 1-6, like 31 (or quit).")?,
            }
        }
    }

    /// The engine answers the human's offer (`pos` and `ctx` seen by the
    /// human, on roll), at its depth, and says why.
    pub(super) fn engine_answers_resignation(
        &mut self,
        pos: &Position,
        ctx: &GameContext,
        offered: GameResult,
    ) -> Step<bool> {
        let cube = if self.state.rules().cube { CubeUse::Cubeful } else { CubeUse::Cubeless };
        let answer = self
            .cube_engine
            .answers_resignation(pos, ctx, offered, self.ply, cube)
            .map_err(|e| End::Io(std::io::Error::other(e.to_string())))?;
        let (offer, play_on) = values(&answer);
        if answer.accept {
            writeln!(
                self.out,
                "The engine accepts ({}-ply: your offer is worth {offer} to it, playing on {play_on}).",
                answer.plies
            )?;
        } else {
            self.declined = Some(offered);
            writeln!(
                self.out,
                "The engine declines ({}-ply: playing on is worth {play_on} to it, your offer {offer}). The game goes on.",
                answer.plies
            )?;
        }
        Ok(answer.accept)
    }

    /// The end of a resigned game: says who won what.
    pub(super) fn resigned(&mut self, winner: Seat, result: GameResult, cube: &Cube, total: u32) -> Step<(Seat, u32)> {
        let who = if winner == ENGINE { "The engine wins" } else { "You win" };
        let what = result_name(result);
        if self.state.jacoby_applies(cube) && result != GameResult::Single {
            writeln!(
                self.out,
                "{who} {what} by resignation, counted as a single game under the Jacoby rule (the cube was not turned): {}.",
                points(total)
            )?;
        } else {
            writeln!(self.out, "{who} {what} by resignation: {}.", points(total))?;
        }
        Ok((winner, total))
    }
}

/// The answer's two values as text: points, or match winning chances.
fn values(a: &ResignationAnswer) -> (String, String) {
    match a.unit {
        ResignationUnit::Points => {
            (format!("{:+.3} points", a.offered_value), format!("{:+.3} points", a.play_on_value))
        }
        ResignationUnit::MatchWinningChances => (
            format!("{:.1}% match winning chances", 100.0 * a.offered_value),
            format!("{:.1}%", 100.0 * a.play_on_value),
        ),
    }
}
