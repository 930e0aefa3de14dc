//! The input of a command resolved once from its arguments: the position,
//! the dice and the game context (ripgrep's "low-level arguments to
//! high-level arguments").

use crate::args::parse_dice;
use crate::position_arg::parse_position;
use anyhow::Result;
use gammon_rules::{Dice, GameContext, Position};

/// What a command is asked about.
#[derive(Debug, Clone)]
pub struct Request {
    /// The position, player on roll.
    pub position: Position,
    /// The roll: given on the command line, else the one an XGID carries.
    pub dice: Option<Dice>,
    /// The XGID's cube, score, dice state and rules; money play with a
    /// centred cube for the other forms.
    pub context: GameContext,
}

impl Request {
    /// Reads the position text, then the dice text if there is one (its
    /// error message ends with `dice_hint`), which overrides an XGID's dice.
    pub fn read(position: &str, dice: Option<&str>, dice_hint: &str) -> Result<Request> {
        let arg = parse_position(position)?;
        let dice = match dice {
            Some(text) => Some(parse_dice(text, dice_hint)?),
            None => arg.dice,
        };
        Ok(Request { position: arg.position, dice, context: arg.context.unwrap_or_else(GameContext::money) })
    }

    /// True if the game in the position is over.
    pub fn game_over(&self) -> bool {
        self.position.game_result().is_some()
    }
}
