//! Keyword arguments read into the engine's options: the game context
//! (`cube`, `owner`, `match`, `score`, `crawford`, `jacoby`, `beaver`, as
//! the CLI's options of the same names) and the depth.

use crate::answer::Failure;
use gammon_engine::api::{parse_owner, parse_score, ContextOverrides, Request, MAX_PLY};
use pyo3::prelude::*;

/// The game context keywords of `analyse`, `cube` and `rollout`.
#[derive(Debug, Default)]
pub struct ContextKeywords<'py> {
    pub cube: Option<u32>,
    pub owner: Option<&'py str>,
    pub match_length: Option<u32>,
    pub score: Option<Bound<'py, PyAny>>,
    pub crawford: Option<bool>,
    pub jacoby: Option<bool>,
    pub beaver: Option<bool>,
}

impl ContextKeywords<'_> {
    /// What the keywords set of the context.
    pub fn overrides(&self) -> Result<ContextOverrides, Failure> {
        let owner = self.owner.map(parse_owner).transpose().map_err(|e| Failure::message(format!("owner: {e}")))?;
        let score = match &self.score {
            None => None,
            Some(s) => Some(match s.extract::<(u32, u32)>() {
                Ok(pair) => pair,
                Err(_) => {
                    let text: String = s.extract().map_err(|_| {
                        Failure::message(
                            "score: a score is a pair of points won, player on roll first, like (2, 4) or \"2-4\""
                                .into(),
                        )
                    })?;
                    parse_score(&text).map_err(|e| Failure::message(format!("score: {e}")))?
                }
            }),
        };
        Ok(ContextOverrides {
            cube: self.cube,
            owner,
            match_length: self.match_length,
            score,
            crawford: self.crawford,
            jacoby: self.jacoby,
            beaver: self.beaver,
        })
    }

    /// `request` with the keywords applied, and the notes of what they kept.
    pub fn apply(&self, mut request: Request) -> Result<(Request, Vec<String>), Failure> {
        let notes;
        (request.context, notes) = self.overrides()?.apply(request.context)?;
        Ok((request, notes))
    }
}

/// A depth the engine answers at, refused as the CLI refuses `--ply`.
pub fn check_ply(ply: u8, max: u8) -> Result<u8, Failure> {
    if ply > max {
        return Err(Failure::message(format!("ply: {ply} is not in 0..={max}")));
    }
    Ok(ply)
}

/// The deepest analysis.
pub const MAX_ANALYSIS_PLY: u8 = MAX_PLY;
