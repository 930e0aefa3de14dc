//! What a caller asks the engine about, read once from the user's text: the
//! position, its game context and the dice. The command line, the server and
//! the Python package read it here, so that the forms they accept and the
//! reasons they refuse are the same.

use gammon_rules::{parse_position_text, quote, Dice, DiceError, GameContext, Position, PositionTextError};
use thiserror::Error;

/// A position with its game context and, for questions about a roll, the
/// dice.
///
/// ```
/// use gammon_engine::api::Request;
/// let r = Request::read("XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10", None, None).unwrap();
/// assert_eq!((r.context.match_length, r.dice.unwrap().to_string().as_str()), (5, "31"));
/// let r = Request::read("4HPwATDgc/ABMA", Some("cAkAAAAAAAAA"), Some("52")).unwrap();
/// assert_eq!(r.dice.unwrap().to_string(), "52");
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Request {
    /// The position, player on roll.
    pub position: Position,
    /// The cube, score, dice state and rules an XGID or Match ID carries;
    /// money play with a centred cube for the other forms.
    pub context: GameContext,
    /// The roll: given on its own, else the one an XGID or Match ID carries.
    pub dice: Option<Dice>,
}

/// Why a request's text could not be read; [`field`](RequestError::field)
/// says which part was at fault.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RequestError {
    /// The position (or the Match ID written after it).
    #[error(transparent)]
    Position(#[from] PositionTextError),
    /// A Match ID given on its own beside a position that already has its
    /// context, or is not a Position ID.
    #[error("a Match ID was given beside a position that is not a bare Position ID (an XGID carries its own context)")]
    MatchIdBeside,
    /// The dice.
    #[error("cannot read dice {} (write them like 31)", quote(.text))]
    Dice {
        /// The dice as given.
        text: String,
        /// Why.
        source: DiceError,
    },
}

impl RequestError {
    /// The part of the request at fault: `position`, `match_id` or `dice`.
    pub fn field(&self) -> &'static str {
        match self {
            RequestError::Position(PositionTextError::MatchId { .. }) | RequestError::MatchIdBeside => "match_id",
            RequestError::Position(_) => "position",
            RequestError::Dice { .. } => "dice",
        }
    }
}

impl Request {
    /// A position before the roll in money play with a centred cube.
    pub fn money(position: Position) -> Self {
        Request { position, context: GameContext::money(), dice: None }
    }

    /// Reads `position` (`start`, a Position ID, `PositionID:MatchID` or an
    /// XGID), a Match ID given on its own beside a bare Position ID, and the
    /// dice (like `31`), which override those an XGID or Match ID carries.
    ///
    /// # Errors
    /// [`RequestError`], naming the part at fault.
    pub fn read(position: &str, match_id: Option<&str>, dice: Option<&str>) -> Result<Self, RequestError> {
        let text = match match_id {
            Some(_) if position.contains(':') || position.trim().eq_ignore_ascii_case("start") => {
                return Err(RequestError::MatchIdBeside);
            }
            Some(m) => format!("{}:{}", position.trim(), m.trim()),
            None => position.to_string(),
        };
        let read = parse_position_text(&text)?;
        let dice = match dice {
            Some(text) => Some(text.parse().map_err(|source| RequestError::Dice { text: text.to_string(), source })?),
            None => read.dice(),
        };
        Ok(Request { position: read.position, context: read.context_or_money(), dice })
    }

    /// True if the game in the position is over.
    pub fn game_over(&self) -> bool {
        self.position.game_result().is_some()
    }

    /// The same request about the position before the roll.
    #[must_use]
    pub fn without_dice(self) -> Self {
        Request { dice: None, ..self }
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
        let r = Request::read(XGID_31, None, None).unwrap();
        assert_eq!(r.dice, Some("31".parse().unwrap()));
        assert_eq!((r.context.match_length, r.context.score), (5, (3, 1)));
        assert_eq!((r.context.cube_value, r.context.cube_owner), (2, CubeOwner::OnRoll));
        assert_eq!(r.context.dice, DiceState::Rolled("31".parse().unwrap()));
    }

    #[test]
    fn dice_given_on_their_own_win() {
        let r = Request::read(XGID_31, None, Some("52")).unwrap();
        assert_eq!(r.dice, Some("52".parse().unwrap()));
        let err = Request::read("start", None, Some("71")).unwrap_err();
        assert_eq!(err.field(), "dice");
        assert!(err.to_string().starts_with("cannot read dice \"71\" (write them like 31)"), "{err}");
    }

    #[test]
    fn other_forms_are_money_play() {
        let r = Request::read("4HPwATDgc/ABMA", None, None).unwrap();
        assert_eq!(r, Request::money(Position::STARTING));
        assert!(!r.game_over());
        assert!(Request::read("AAAAAAAA/38AAA", None, None).unwrap().game_over());
    }

    #[test]
    fn a_refusal_names_the_part_at_fault() {
        assert_eq!(Request::read("nonsense", None, None).unwrap_err().field(), "position");
        assert_eq!(Request::read("4HPwATDgc/ABMA:////////////", None, None).unwrap_err().field(), "match_id");
        assert_eq!(Request::read("4HPwATDgc/ABMA", Some("////////////"), None).unwrap_err().field(), "match_id");
        let beside = Request::read(XGID_31, Some("cAkAAAAAAAAA"), None).unwrap_err();
        assert_eq!(beside, RequestError::MatchIdBeside);
        assert_eq!(Request::read("start", Some("cAkAAAAAAAAA"), None).unwrap_err(), RequestError::MatchIdBeside);
    }

    #[test]
    fn a_match_id_beside_a_position_id_gives_the_context() {
        let joined = Request::read("4HPwATDgc/ABMA:cAkAAAAAAAAA", None, None).unwrap();
        let beside = Request::read(" 4HPwATDgc/ABMA ", Some(" cAkAAAAAAAAA "), None).unwrap();
        assert_eq!(joined, beside);
    }
}
