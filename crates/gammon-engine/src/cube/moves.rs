//! Cubeful move ranking, as gnubg ranks the moves of a roll by default: each
//! legal move is valued by the cubeful equity of the position after it (the
//! opponent on roll, with his cube action and then the rest of the search),
//! at the cube and the score of the mover, through the root screens of the
//! [`MoveFilter`] given.

use super::nply::{check_covered, Nply};
use super::state::{CubeError, CubeState, Stakes};
use crate::met::Met;
use crate::search::{MoveFilter, Search};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::Position;
use rayon::prelude::*;

/// The mover's cubeless equity of a ranked result.
fn cubeless(r: &CubefulResult) -> f32 {
    r.probabilities.equity()
}

/// One of several results of a roll ranked by [`rank_results_cubeful`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CubefulResult {
    /// Index into the slice of results.
    pub index: usize,
    /// Cubeless probabilities for the mover, at `plies`.
    pub probabilities: Probabilities,
    /// Cubeful equity for the mover, normalised: in money play per unit of
    /// the cube, in a match the "equivalent-to-money" equity (EMG) of
    /// `mwc` at the mover's cube and score ([`Met::mwc2eq`]).
    pub equity: f64,
    /// The mover's match winning chances; `None` in money play.
    pub mwc: Option<f64>,
    /// The depth the result was valued at.
    pub plies: u8,
}

/// Ranks `results` (the legal results of one roll, each seen by the
/// opponent, now on roll) for the mover, whose cube state before his roll
/// was `mover`, by cubeful equity: every result at 0 plies, then the root
/// screens of `filter` (as [`Search::rank_results`] applies them
/// to cubeless equities), the survivors at `plies`. `also` (the move a player
/// chose, for a review) is valued at `plies` whether or not it survives.
/// Best first, deeper valuations before shallower ones, equal equities by
/// cubeless equity, then in the given order.
///
/// # Errors
/// [`CubeError::MatchTooLong`] for a score that `met` does not cover.
pub fn rank_results_cubeful<E: Evaluator>(
    search: &Search<E>,
    results: &[Position],
    mover: &CubeState,
    met: &Met,
    plies: u8,
    filter: &MoveFilter,
    also: Option<usize>,
) -> Result<Vec<CubefulResult>, CubeError> {
    check_covered(mover, met)?;
    let nply = Nply { search, met };
    let normalised = |raw: f64| match mover.stakes {
        Stakes::Money { .. } => (raw, None),
        Stakes::Match { away, crawford, .. } => (met.mwc2eq(raw, mover.cube, away, crawford), Some(raw)),
    };
    let mut ranked: Vec<CubefulResult> = search
        .static_values(results)
        .iter()
        .zip(results)
        .enumerate()
        .map(|(index, (p, result))| {
            let (equity, mwc) = normalised(nply.after_move_static(result, p, mover));
            CubefulResult { index, probabilities: p.inverted(), equity, mwc, plies: 0 }
        })
        .collect();
    // Equal cubeful equities (every move cashes, or gammons are worth
    // nothing at the score) are told apart by cubeless equity.
    let by_equity = |ranked: &[CubefulResult], a: &usize, b: &usize| {
        let (a_, b_) = (&ranked[*a], &ranked[*b]);
        b_.equity.total_cmp(&a_.equity).then(cubeless(b_).total_cmp(&cubeless(a_))).then(a.cmp(b))
    };
    let deepen = |ranked: &mut [CubefulResult], which: &[usize], depth: u8| {
        let values: Vec<(f64, Probabilities)> = which
            .par_iter()
            .map(|&i| results.get(i).map_or((0.0, Probabilities::default()), |r| nply.after_move(r, mover, depth)))
            .collect();
        for (&i, (raw, p)) in which.iter().zip(values) {
            if let Some(r) = ranked.get_mut(i) {
                let (equity, mwc) = normalised(raw);
                *r = CubefulResult { index: i, probabilities: p, equity, mwc, plies: depth };
            }
        }
    };
    if plies > 0 {
        let mut survivors: Vec<usize> = (0..ranked.len()).collect();
        survivors.sort_by(|a, b| by_equity(&ranked, a, b));
        for depth in 0..plies {
            let Some(screen) = filter.root.get(usize::from(depth)).copied().flatten() else { continue };
            if depth > 0 {
                deepen(&mut ranked, &survivors, depth);
                survivors.sort_by(|a, b| by_equity(&ranked, a, b));
            }
            let keep = screen.keep(survivors.iter().map(|&i| ranked[i].equity as f32));
            survivors.truncate(keep);
        }
        if let Some(i) = also.filter(|i| *i < ranked.len() && !survivors.contains(i)) {
            survivors.push(i);
        }
        deepen(&mut ranked, &survivors, plies);
    }
    ranked.sort_by(|a, b| {
        b.plies
            .cmp(&a.plies)
            .then(b.equity.total_cmp(&a.equity))
            .then(cubeless(b).total_cmp(&cubeless(a)))
            .then(a.index.cmp(&b.index))
    });
    Ok(ranked)
}
