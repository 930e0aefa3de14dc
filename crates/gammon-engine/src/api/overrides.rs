//! The game context options a caller gives beside a position (the CLI's
//! `--cube`, `--owner`, `--match`, `--score`, `--crawford`, `--jacoby`,
//! `--beaver` and their `--no-` forms; the Python package's keywords of the
//! same names): each overrides what an XGID or Match ID says. Read here
//! once, so that every front end applies them, and refuses them, alike; the
//! reasons name the options as the command line spells them.

use gammon_rules::{ContextError, CubeOwner, GameContext};
use thiserror::Error;

/// What the caller set of the game context; `None` keeps the position's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContextOverrides {
    /// The cube's value: 1, 2, 4, …
    pub cube: Option<u32>,
    /// Who owns the cube.
    pub owner: Option<CubeOwner>,
    /// The match length in points; 0 = money play.
    pub match_length: Option<u32>,
    /// Points already won, player on roll first.
    pub score: Option<(u32, u32)>,
    /// This is (`true`) or is not (`false`) the Crawford game.
    pub crawford: Option<bool>,
    /// Money play: the Jacoby rule on or off.
    pub jacoby: Option<bool>,
    /// Money play: beavers (and raccoons) allowed or not.
    pub beaver: Option<bool>,
}

/// Why the options do not make a game context.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ContextOverrideError {
    /// A score in money play.
    #[error("--score needs --match: money play has no score")]
    ScoreNeedsMatch,
    /// The Crawford game in money play.
    #[error("--crawford needs --match: the Crawford rule exists only in a match")]
    CrawfordNeedsMatch,
    /// The context breaks the rules; `option` is the option that set the
    /// part at fault, `None` when the position's XGID set it.
    #[error("{}", match .option { Some(o) => o, None => "the position's game context" })]
    Rules {
        /// The option given that set what is wrong.
        option: Option<&'static str>,
        /// What is wrong.
        #[source]
        source: ContextError,
    },
    /// A turned cube nobody owns.
    #[error(
        "the cube is at {0} but centred: a turned cube belongs to someone; say who owns it with --owner me or --owner opponent"
    )]
    TurnedCubeCentred(u32),
    /// A context option with cubeless analysis, which is money play
    /// without a cube.
    #[error("{0} does not apply with --cubeless: cubeless analysis is money play without a cube")]
    NotWithCubeless(&'static str),
    /// An option that sets the score with a cube matrix, which sets it.
    #[error("{0} cannot be used with --matrix: the matrix sets the score")]
    NotWithMatrix(&'static str),
}

impl ContextOverrides {
    /// `ctx` with these options applied, and a note for what the options
    /// left of it that the user may not expect.
    ///
    /// # Errors
    /// [`ContextOverrideError`]: an option that needs a match in money
    /// play, a context against the rules, a turned cube without an owner.
    pub fn apply(&self, mut ctx: GameContext) -> Result<(GameContext, Vec<String>), ContextOverrideError> {
        let mut notes = Vec::new();
        if let Some(length) = self.match_length {
            ctx.match_length = length;
            if length > 0 {
                // Money rules from an XGID do not carry into a match.
                ctx.jacoby = false;
                ctx.beaver = false;
            } else {
                ctx.crawford = false;
            }
        }
        if let Some(score) = self.score {
            ctx.score = score;
        }
        if let Some(cube) = self.cube {
            ctx.cube_value = cube;
        }
        if let Some(owner) = self.owner {
            ctx.cube_owner = owner;
        }
        ctx.crawford = self.crawford.unwrap_or(ctx.crawford);
        ctx.jacoby = self.jacoby.unwrap_or(ctx.jacoby);
        ctx.beaver = self.beaver.unwrap_or(ctx.beaver);
        // Options that only a match gives a meaning must not be dropped silently.
        if ctx.match_length == 0 {
            if self.score.is_some() {
                return Err(ContextOverrideError::ScoreNeedsMatch);
            }
            if self.crawford == Some(true) {
                return Err(ContextOverrideError::CrawfordNeedsMatch);
            }
        }
        // The rules' check, the cube's value first, then who owns it.
        ctx.validate()
            .map_err(|source| ContextOverrideError::Rules { option: self.given(option_of(&source)), source })?;
        if ctx.cube_value > 1 && ctx.cube_owner == CubeOwner::Centered {
            return Err(ContextOverrideError::TurnedCubeCentred(ctx.cube_value));
        }
        if ctx.match_length > 0 && self.score.is_none() && self.match_length.is_some() && ctx.score != (0, 0) {
            notes.push(format!("score {}-{} kept from the position", ctx.score.0, ctx.score.1));
        }
        Ok((ctx, notes))
    }

    /// The first option given, as the command line spells it (for a mode
    /// that takes none of them).
    pub fn first_given(&self) -> Option<&'static str> {
        [
            ("--cube", self.cube.is_some()),
            ("--owner", self.owner.is_some()),
            ("--match", self.match_length.is_some()),
            ("--score", self.score.is_some()),
            ("--crawford", self.crawford == Some(true)),
            ("--no-crawford", self.crawford == Some(false)),
            ("--jacoby", self.jacoby == Some(true)),
            ("--no-jacoby", self.jacoby == Some(false)),
            ("--beaver", self.beaver == Some(true)),
            ("--no-beaver", self.beaver == Some(false)),
        ]
        .into_iter()
        .find_map(|(option, given)| given.then_some(option))
    }

    /// Refuses every option for cubeless analysis (money play without a
    /// cube): none of them would change its answer.
    ///
    /// # Errors
    /// [`ContextOverrideError::NotWithCubeless`] naming the first given.
    pub fn check_with_cubeless(&self) -> Result<(), ContextOverrideError> {
        self.first_given().map_or(Ok(()), |option| Err(ContextOverrideError::NotWithCubeless(option)))
    }

    /// Refuses the options a cube matrix sets itself: the match length,
    /// the score and the Crawford game (`--no-crawford` says nothing the
    /// matrix does not).
    ///
    /// # Errors
    /// [`ContextOverrideError::NotWithMatrix`] naming the first given.
    pub fn check_with_matrix(&self) -> Result<(), ContextOverrideError> {
        let given = [
            ("--match", self.match_length.is_some()),
            ("--score", self.score.is_some()),
            ("--crawford", self.crawford == Some(true)),
        ];
        match given.into_iter().find(|(_, given)| *given) {
            Some((option, _)) => Err(ContextOverrideError::NotWithMatrix(option)),
            None => Ok(()),
        }
    }

    /// `option` if it was given, else `None`: an error about what an XGID
    /// set must not blame an option the user never gave.
    fn given(&self, option: &'static str) -> Option<&'static str> {
        let given = match option {
            "--cube" => self.cube.is_some(),
            "--score" => self.score.is_some() || self.match_length.is_some(),
            "--crawford" => self.crawford == Some(true),
            "--jacoby" => self.jacoby == Some(true),
            "--beaver" => self.beaver == Some(true),
            "--owner" => self.owner.is_some(),
            _ => true,
        };
        given.then_some(option)
    }
}

/// The option that sets what `e` finds wrong.
fn option_of(e: &ContextError) -> &'static str {
    match e {
        ContextError::CubeValue(_) | ContextError::CubeAboveMax { .. } | ContextError::MaxCube(_) => "--cube",
        ContextError::ScoreNotBelowLength { .. } => "--score",
        ContextError::CrawfordInMoney | ContextError::CrawfordNotOneAway { .. } | ContextError::CrawfordCube { .. } => {
            "--crawford"
        }
        ContextError::MoneyRuleInMatch("Jacoby") => "--jacoby",
        ContextError::MoneyRuleInMatch(_) => "--beaver",
        ContextError::DoubleByNonOwner | ContextError::BeaverNotAllowed(_) | ContextError::OwnedCubeAtOne(_) => {
            "--owner"
        }
    }
}

/// Reads who owns the cube: `me` (the player on roll), `opponent` or
/// `centre` (and their common other spellings).
///
/// # Errors
/// Anything else, quoted, with the three words.
pub fn parse_owner(text: &str) -> Result<CubeOwner, String> {
    match text.to_ascii_lowercase().as_str() {
        "me" | "x" | "on-roll" | "player" => Ok(CubeOwner::OnRoll),
        "opponent" | "opp" | "o" | "him" => Ok(CubeOwner::Opponent),
        "centre" | "center" | "centred" | "centered" | "none" => Ok(CubeOwner::Centered),
        _ => Err(format!("{text:?}: the owner is `me`, `opponent` or `centre`")),
    }
}

/// Reads a score, player on roll first, like `2-4`.
///
/// # Errors
/// Anything that is not two numbers joined by `-`.
pub fn parse_score(text: &str) -> Result<(u32, u32), String> {
    let bad = || format!("{text:?}: a score is two numbers of points already won, player on roll first, e.g. 2-4");
    let (a, b) = text.split_once('-').ok_or_else(bad)?;
    Ok((a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn apply(o: ContextOverrides, ctx: GameContext) -> Result<(GameContext, Vec<String>), ContextOverrideError> {
        o.apply(ctx)
    }

    #[test]
    fn a_match_drops_the_money_rules_and_keeps_the_score() {
        let mut money = GameContext { jacoby: true, beaver: true, ..GameContext::money() };
        money.score = (1, 2);
        let (ctx, notes) = apply(ContextOverrides { match_length: Some(5), ..Default::default() }, money).unwrap();
        assert_eq!((ctx.match_length, ctx.jacoby, ctx.beaver), (5, false, false));
        assert_eq!(notes, ["score 1-2 kept from the position"]);
        let o =
            ContextOverrides { match_length: Some(5), score: Some((3, 4)), crawford: Some(true), ..Default::default() };
        let (ctx, notes) = apply(o, money).unwrap();
        assert_eq!((ctx.score, ctx.crawford), ((3, 4), true));
        assert!(notes.is_empty());
    }

    #[test]
    fn the_options_override_the_position() {
        let xgid = GameContext { jacoby: true, beaver: true, ..GameContext::money() };
        let o = ContextOverrides {
            jacoby: Some(false),
            cube: Some(4),
            owner: Some(CubeOwner::Opponent),
            ..Default::default()
        };
        let (ctx, _) = apply(o, xgid).unwrap();
        assert_eq!((ctx.jacoby, ctx.beaver, ctx.cube_value, ctx.cube_owner), (false, true, 4, CubeOwner::Opponent));
        assert_eq!(o.first_given(), Some("--cube"));
        assert_eq!(ContextOverrides { jacoby: Some(false), ..Default::default() }.first_given(), Some("--no-jacoby"));
        assert_eq!(ContextOverrides::default().first_given(), None);
    }

    #[test]
    fn options_that_need_a_match_are_refused_in_money_play() {
        let score = ContextOverrides { score: Some((2, 4)), ..Default::default() };
        let err = apply(score, GameContext::money()).unwrap_err();
        assert!(err.to_string().starts_with("--score needs --match"), "{err}");
        let crawford = ContextOverrides { crawford: Some(true), ..Default::default() };
        assert_eq!(apply(crawford, GameContext::money()).unwrap_err(), ContextOverrideError::CrawfordNeedsMatch);
        let to_money = ContextOverrides { match_length: Some(0), score: Some((1, 0)), ..Default::default() };
        assert_eq!(apply(to_money, GameContext::new_match(5)).unwrap_err(), ContextOverrideError::ScoreNeedsMatch);
        // A match from the position gives the score a meaning.
        assert_eq!(apply(score, GameContext::new_match(7)).unwrap().0.score, (2, 4));
    }

    #[test]
    fn rule_errors_name_the_option_given_or_the_position() {
        let o =
            ContextOverrides { match_length: Some(7), score: Some((6, 6)), crawford: Some(true), ..Default::default() };
        let err = apply(o, GameContext::money()).unwrap_err();
        assert!(crate::api::error_chain(&err).starts_with("--crawford: "), "{err}");
        let err = apply(ContextOverrides { cube: Some(3), ..Default::default() }, GameContext::money()).unwrap_err();
        assert!(crate::api::error_chain(&err).starts_with("--cube: cube value 3 is not a power of two"), "{err}");
        // Nothing given set it: the position did.
        let mut bad = GameContext::new_match(5);
        bad.score = (5, 0);
        let err = apply(ContextOverrides::default(), bad).unwrap_err();
        assert!(crate::api::error_chain(&err).starts_with("the position's game context: "), "{err}");
        let err = apply(ContextOverrides { cube: Some(2), ..Default::default() }, GameContext::money()).unwrap_err();
        assert!(err.to_string().contains("say who owns it with --owner"), "{err}");
    }

    #[test]
    fn owners_and_scores_are_read_or_refused_by_name() {
        assert_eq!(parse_owner("Me"), Ok(CubeOwner::OnRoll));
        assert_eq!(parse_owner("opp"), Ok(CubeOwner::Opponent));
        assert_eq!(parse_owner("center"), Ok(CubeOwner::Centered));
        assert!(parse_owner("bob").unwrap_err().contains("`me`, `opponent` or `centre`"));
        assert_eq!(parse_score(" 2 - 4 "), Ok((2, 4)));
        assert!(parse_score("3").unwrap_err().contains("e.g. 2-4"));
        assert!(parse_score("a-1").is_err());
    }

    #[test]
    fn cubeless_analysis_takes_no_option_and_a_matrix_none_that_sets_the_score() {
        assert_eq!(ContextOverrides::default().check_with_cubeless(), Ok(()));
        let no_jacoby = ContextOverrides { jacoby: Some(false), ..Default::default() };
        assert_eq!(no_jacoby.check_with_cubeless(), Err(ContextOverrideError::NotWithCubeless("--no-jacoby")));
        assert!(no_jacoby.check_with_cubeless().unwrap_err().to_string().contains("money play without a cube"));
        // The cube and the money rules go with a matrix; the score does not.
        let cube = ContextOverrides { cube: Some(2), beaver: Some(true), crawford: Some(false), ..Default::default() };
        assert_eq!(cube.check_with_matrix(), Ok(()));
        let crawford = ContextOverrides { crawford: Some(true), ..cube };
        assert_eq!(crawford.check_with_matrix(), Err(ContextOverrideError::NotWithMatrix("--crawford")));
        let length = ContextOverrides { match_length: Some(5), ..cube };
        assert_eq!(length.check_with_matrix(), Err(ContextOverrideError::NotWithMatrix("--match")));
        let score = ContextOverrides { score: Some((1, 2)), ..cube };
        assert_eq!(score.check_with_matrix(), Err(ContextOverrideError::NotWithMatrix("--score")));
    }
}
