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

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use gammon_rules::{CubeOwner, DiceState};

    const XGID_31: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10";

    #[test]
    fn an_xgid_gives_dice_and_context_once() {
        let r = Request::read(XGID_31, None, "").unwrap();
        assert_eq!(r.dice, Some("31".parse().unwrap()));
        assert_eq!((r.context.match_length, r.context.score), (5, (3, 1)));
        assert_eq!((r.context.cube_value, r.context.cube_owner), (2, CubeOwner::OnRoll));
        assert_eq!(r.context.dice, DiceState::Rolled("31".parse().unwrap()));
    }

    #[test]
    fn dice_on_the_command_line_win() {
        let r = Request::read(XGID_31, Some("52"), "").unwrap();
        assert_eq!(r.dice, Some("52".parse().unwrap()));
        let err = Request::read("start", Some("71"), " (write them like 31)").unwrap_err();
        assert!(format!("{err:#}").starts_with("cannot read dice \"71\" (write them like 31): "), "{err:#}");
    }

    #[test]
    fn other_forms_are_money_play() {
        let r = Request::read("4HPwATDgc/ABMA", None, "").unwrap();
        assert_eq!((r.position, r.dice, r.context), (Position::STARTING, None, GameContext::money()));
        assert!(!r.game_over());
        assert!(Request::read("AAAAAAAA/38AAA", None, "").unwrap().game_over());
        assert!(Request::read("nonsense", None, "").is_err());
    }
}
