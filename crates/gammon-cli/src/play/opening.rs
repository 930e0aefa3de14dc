//! The opening roll: the rules' [`MatchState::opening_roll`] (ties rolled
//! again, Murphy's automatic doubles) with typed or seeded dice, each tie
//! announced to the player.
//!
//! [`MatchState::opening_roll`]: gammon_rules::MatchState::opening_roll

use super::{End, First, Session, Step};
use gammon_rules::{Cube, Dice, DiceSource};
use std::cell::RefCell;
use std::io::{BufRead, Write};

impl<R: BufRead, W: Write> Session<'_, R, W> {
    /// Automatic doubles (Murphy rule) are played in this session.
    fn murphy_active(&self) -> bool {
        let rules = self.state.rules();
        rules.cube && rules.is_money() && rules.murphy > 0
    }

    /// Says what equal opening dice did: the cube the Murphy rule turned,
    /// or just another roll.
    fn announce_tie(&mut self, die: u8, turned: Option<Cube>) -> Step<()> {
        match turned {
            Some(cube) => writeln!(
                self.out,
                "Both dice show {die}: automatic double (Murphy rule), the cube is now at {}, centred. Roll again.",
                cube.value
            )?,
            None => writeln!(self.out, "Both dice show {die}: roll again.")?,
        }
        Ok(())
    }

    /// The opening roll: whether the human starts, and the dice.
    pub(super) fn opening(&mut self, first: Option<First>) -> Step<(bool, Dice)> {
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
        // The rules' opening roll (ties rolled again, the higher die starts,
        // Murphy's automatic doubles); ties are announced where they can
        // matter: typed dice, Murphy's rule.
        let announce = self.manual || self.murphy_active();
        let (state, mut cube) = (self.state, self.cube);
        // Both callbacks talk to the player, one at a time.
        let session = RefCell::new(&mut *self);
        let opening = state.opening_roll(
            &mut cube,
            || session.borrow_mut().opening_pair(),
            |die, turned| if announce { session.borrow_mut().announce_tie(die, turned) } else { Ok(()) },
        )?;
        self.cube = cube;
        let d = opening.dice;
        let (human_die, engine_die) =
            if opening.first_player_starts { (d.high(), d.low()) } else { (d.low(), d.high()) };
        let who = if opening.first_player_starts { "You move" } else { "The engine moves" };
        writeln!(
            self.out,
            "Opening roll: you rolled {human_die}, the engine rolled {engine_die}. {who} first with {d}."
        )?;
        Ok((opening.first_player_starts, d))
    }

    /// One die each for the opening roll, the human's first: typed, or a
    /// roll of two dice and, unless they are equal, a fair coin (the parity
    /// of a second roll's sum) for who holds the higher one. The coin keeps
    /// the dice of a seed as they always were.
    fn opening_pair(&mut self) -> Step<(u8, u8)> {
        if self.manual {
            return self.ask_roll("Opening roll: your die and the engine's die (e.g. 31 = you 3, engine 1): ");
        }
        let d = self.dice.roll();
        if d.is_double() {
            return Ok((d.high(), d.low()));
        }
        let coin = self.dice.roll();
        Ok(if (coin.high() + coin.low()).is_multiple_of(2) { (d.high(), d.low()) } else { (d.low(), d.high()) })
    }
}
