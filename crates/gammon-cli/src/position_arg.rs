//! Reading a position given on the command line.

use anyhow::{Context, Result};
use gammon_rules::{Dice, DiceState, GameContext, MatchId, Position, Xgid};

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
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(PositionArg { position: Position::STARTING, dice: None, context: None });
    }
    if let Some((id, match_id)) = text.split_once(':').filter(|(id, m)| id.len() == 14 && m.len() == 12) {
        let position = Position::from_position_id(id).with_context(|| format!("cannot read Position ID {id:?}"))?;
        let context = MatchId::parse(match_id)
            .and_then(|m| m.to_context())
            .with_context(|| format!("cannot read Match ID {match_id:?}"))?;
        let dice = match context.dice {
            DiceState::Rolled(d) => Some(d),
            _ => None,
        };
        return Ok(PositionArg { position, dice, context: Some(context) });
    }
    if text.starts_with("XGID=") || text.contains(':') {
        let xgid = Xgid::parse(text).with_context(|| format!("cannot read XGID {text:?}"))?;
        let dice = match xgid.context.dice {
            DiceState::Rolled(d) => Some(d),
            _ => None,
        };
        return Ok(PositionArg { position: xgid.position, dice, context: Some(xgid.context) });
    }
    let position = Position::from_position_id(text).with_context(|| format!("cannot read Position ID {text:?}"))?;
    Ok(PositionArg { position, dice: None, context: None })
}
