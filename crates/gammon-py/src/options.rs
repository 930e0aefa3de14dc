//! Keyword arguments read into the engine's options: the game context
//! (`cube`, `owner`, `match`, `score`, `crawford`, `jacoby`, `beaver`, as
//! the CLI's options of the same names), the depth and every whole number.
//! Numbers come in as Python ints of any sign: one out of the engine's
//! range is a `ValueError` naming its keyword, as the CLI names its option,
//! not the `OverflowError` of a failed conversion.

use crate::answer::Failure;
use gammon_engine::api::{parse_owner, parse_score, ContextOverrides, Request, MAX_PLY};
use pyo3::prelude::*;
use std::fmt::Display;

/// The game context keywords of `analyse`, `cube` and `rollout`.
#[derive(Debug, Default)]
pub struct ContextKeywords<'py> {
    pub cube: Option<i64>,
    pub owner: Option<&'py str>,
    pub match_length: Option<i64>,
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
            cube: self.cube.map(|n| whole("cube", n)).transpose()?,
            owner,
            match_length: self.match_length.map(|n| whole("match", n)).transpose()?,
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

/// A depth the engine answers at, given as keyword `name`, refused as the
/// CLI refuses `--ply`.
pub fn check_ply(name: &str, ply: i64, max: u8) -> Result<u8, Failure> {
    match u8::try_from(ply) {
        Ok(ply) if ply <= max => Ok(ply),
        _ => Err(Failure::message(format!("{name}: {ply} is not in 0..={max}"))),
    }
}

/// The deepest analysis.
pub const MAX_ANALYSIS_PLY: u8 = MAX_PLY;

/// An unsigned type a keyword's number is read into.
pub trait Whole: Copy + Display {
    /// The largest value.
    const MAX: Self;
}

macro_rules! whole_types {
    ($($t:ty),*) => { $(impl Whole for $t { const MAX: Self = <$t>::MAX; })* };
}
whole_types!(u32, u64, usize);

/// Keyword `name`'s number as a `T`, or why it is out of range.
pub fn whole<T: Whole + TryFrom<I>, I: Copy + Display>(name: &str, value: I) -> Result<T, Failure> {
    T::try_from(value).map_err(|_| Failure::message(format!("{name}: {value} is not in 0..={}", T::MAX)))
}
