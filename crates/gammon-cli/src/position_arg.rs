//! Reading a position given on the command line
//! ([`gammon_rules::parse_position_text`]).

use anyhow::Result;
use gammon_rules::{Dice, GameContext, Position};

/// A position as the user wrote it, with the dice and game context an XGID
/// may carry.
#[derive(Debug, Clone)]
pub struct PositionArg {
    /// The position, player on roll to move.
    pub position: Position,
    /// Dice given inside the position text (XGID), if any.
    pub dice: Option<Dice>,
    /// The cube, score, dice state and rules of an XGID or Match ID; `None`
    /// for the other forms.
    pub context: Option<GameContext>,
}

/// Reads `start`, a gnubg Position ID, gnubg's `PositionID:MatchID` or an XGID.
pub fn parse_position(text: &str) -> Result<PositionArg> {
    let read = gammon_rules::parse_position_text(text)?;
    Ok(PositionArg { position: read.position, dice: read.dice(), context: read.context })
}
