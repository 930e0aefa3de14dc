//! The board, drawn from the human's side, with the cube and the score.

use super::{Session, Step, ENGINE, HUMAN};
use gammon_rules::Position;
use std::io::{BufRead, Write};

impl<R: BufRead, W: Write> Session<'_, R, W> {
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
    pub(super) fn show_board(&mut self, human_view: &Position, engine_on_roll: Option<bool>, status: &str) -> Step<()> {
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
}
