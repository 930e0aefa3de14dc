//! A position written by a user in any of the forms gammon reads: `start`,
//! a gnubg Position ID, gnubg's `PositionID:MatchID`, or an XGID. The
//! command line and the HTTP API read positions through this one function.

use crate::{DiceState, GameContext, MatchId, MatchIdError, Position, PositionIdError, Xgid, XgidError};

/// A position as the user wrote it, with the game context an XGID or a
/// Match ID carries.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PositionText {
    /// The position, player on roll to move.
    pub position: Position,
    /// The cube, score, dice state and rules of an XGID or Match ID; `None`
    /// for `start` and a bare Position ID.
    pub context: Option<GameContext>,
}

impl PositionText {
    /// The dice the context says are rolled, if any.
    pub fn dice(&self) -> Option<crate::Dice> {
        match self.context.map(|c| c.dice) {
            Some(DiceState::Rolled(d)) => Some(d),
            _ => None,
        }
    }

    /// The context, or money play with a centred cube.
    pub fn context_or_money(&self) -> GameContext {
        self.context.unwrap_or_else(GameContext::money)
    }
}

/// Why a position text could not be read, naming the form it was read as
/// (the reason is its [`source`](std::error::Error::source)).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionTextError {
    /// A Position ID (alone or before a Match ID) that does not decode.
    #[error("cannot read Position ID {}", crate::quote(.text))]
    PositionId {
        /// The ID as given.
        text: String,
        /// Why.
        source: PositionIdError,
    },
    /// The Match ID of `PositionID:MatchID`.
    #[error("cannot read Match ID {}", crate::quote(.text))]
    MatchId {
        /// The ID as given.
        text: String,
        /// Why.
        source: MatchIdError,
    },
    /// An XGID.
    #[error("cannot read XGID {}", crate::quote(.text))]
    Xgid {
        /// The XGID as given.
        text: String,
        /// Why.
        source: XgidError,
    },
}

/// Reads `start`, a gnubg Position ID, gnubg's `PositionID:MatchID` or an
/// XGID (with or without `XGID=`), surrounding blanks ignored.
///
/// ```
/// use gammon_rules::{parse_position_text, Position};
/// let start = parse_position_text("4HPwATDgc/ABMA").unwrap();
/// assert_eq!((start.position, start.context), (Position::STARTING, None));
/// let xgid = parse_position_text("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10").unwrap();
/// assert_eq!(xgid.context.unwrap().match_length, 5);
/// assert!(parse_position_text("nonsense").is_err());
/// ```
///
/// # Errors
/// [`PositionTextError`] naming the form and the reason.
pub fn parse_position_text(text: &str) -> Result<PositionText, PositionTextError> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("start") {
        return Ok(PositionText { position: Position::STARTING, context: None });
    }
    let position_id = |id: &str| {
        Position::from_position_id(id).map_err(|source| PositionTextError::PositionId { text: id.to_string(), source })
    };
    if let Some((id, match_id)) = text.split_once(':').filter(|(id, m)| id.len() == 14 && m.len() == 12) {
        let position = position_id(id)?;
        let context = MatchId::parse(match_id)
            .and_then(|m| m.to_context())
            .map_err(|source| PositionTextError::MatchId { text: match_id.to_string(), source })?;
        return Ok(PositionText { position, context: Some(context) });
    }
    if text.starts_with("XGID=") || text.contains(':') {
        let xgid = Xgid::parse(text).map_err(|source| PositionTextError::Xgid { text: text.to_string(), source })?;
        return Ok(PositionText { position: xgid.position, context: Some(xgid.context) });
    }
    Ok(PositionText { position: position_id(text)?, context: None })
}
