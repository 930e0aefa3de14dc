//! Tesauro's pubeval: the fixed, public-domain linear yardstick.
//!
//! Gerald Tesauro posted `pubeval.c` to rec.games.backgammon in 1993 as a
//! public benchmark player: a linear evaluation of the position *after* a
//! move, with one weight vector for races and one for contact positions, 122
//! inputs each. It plays a weak but honest game and has been the common
//! reference opponent of backgammon programs ever since. This is an exact port
//! of the Python version in `shared/arena/pubeval.py` (the arena's built-in
//! `pubeval` player), whose weights are Tesauro's published ones; the test
//! `tests/suite/pubeval.rs` checks our choices and scores against that file on a
//! fixture of oracle positions (`tests/data/pubeval_scores.txt`).
//!
//! # Inputs
//!
//! The position is seen by the side that has *just moved* ("me"), after the
//! move. Input group `j = 1..=24` describes **my point `25 - j`** (so `j = 1`
//! is my 24-point, the farthest, and `j = 24` my ace point; in Tesauro's
//! array `pos[25 - j]`). With `n` = my checkers on that point, the five
//! inputs `x[5(j-1) + k]` are
//!
//! | k | input |
//! |---|---|
//! | 0 | 1 if exactly one opponent checker (a blot of his) is there |
//! | 1 | 1 if `n == 1` |
//! | 2 | 1 if `n >= 2` |
//! | 3 | 1 if `n == 3` |
//! | 4 | `(n - 3) / 2` if `n >= 4` |
//!
//! and `x[120]` = opponent checkers on the bar / 2, `x[121]` = my checkers
//! borne off / 15. Not encoded at all: opponent points holding 2+ checkers
//! and my own checkers on the bar (they show only as checkers missing from
//! the board). See [`PubEval::inputs`].
//!
//! Quirks of the published weights, kept as they are: the race weights of
//! opponent blots and of the opponent's bar are all 0 (in a race a blot
//! cannot be hit and nobody is on the bar), and the contact weight of my
//! borne-off checkers is negative (`-2.758` per 15), against `+3.4204` in a
//! race.
//!
//! # Score and choice
//!
//! `score = W · x`, with `W` = [`RACE_WEIGHTS`] if the position *before* the
//! move is a pure race (no contact), else [`CONTACT_WEIGHTS`]; a move that
//! bears off my last checker scores `+inf`. The highest score is played, the
//! first one on ties ([`PubEval::choose`]). "First" means in the order of the
//! result list: ours is [`MoveList`](gammon_rules::MoveList)'s, pubeval.py's is
//! its own generator's, so an exact tie between two different results could
//! be broken differently. Such ties are rare: none occurs among the 7,329
//! (position, roll) pairs of the oracle's `movegen_full.jsonl`.
//!
//! The sum is taken in `f64` in the same order as pubeval.py's `fast_score`,
//! so the two agree to the last bit (Tesauro's C used `float`).

use crate::{Evaluator, Probabilities};
use gammon_rules::{Position, CHECKERS_PER_SIDE};

/// Number of inputs (and weights) of pubeval.
pub const INPUTS: usize = 122;

/// Tesauro's race weights, used when the position before the move has no
/// contact. Five per point (see the [module documentation](self)), then the
/// opponent's bar and my borne-off checkers.
#[rustfmt::skip]
pub const RACE_WEIGHTS: [f64; INPUTS] = [
      0.00000,  -0.17160,   0.27010,   0.29906,  -0.08471, // j =  1: my point 24
      0.00000,  -1.40375,  -1.05121,   0.07217,  -0.01351, // j =  2: my point 23
      0.00000,  -1.29506,  -2.16183,   0.13246,  -1.03508, // j =  3: my point 22
      0.00000,  -2.29847,  -2.34631,   0.17253,   0.08302, // j =  4: my point 21
      0.00000,  -1.27266,  -2.87401,  -0.07456,  -0.34240, // j =  5: my point 20
      0.00000,  -1.34640,  -2.46556,  -0.13022,  -0.01591, // j =  6: my point 19
      0.00000,   0.27448,   0.60015,   0.48302,   0.25236, // j =  7: my point 18
      0.00000,   0.39521,   0.68178,   0.05281,   0.09266, // j =  8: my point 17
      0.00000,   0.24855,  -0.06844,  -0.37646,   0.05685, // j =  9: my point 16
      0.00000,   0.17405,   0.00430,   0.74427,   0.00576, // j = 10: my point 15
      0.00000,   0.12392,   0.31202,  -0.91035,  -0.16270, // j = 11: my point 14
      0.00000,   0.01418,  -0.10839,  -0.02781,  -0.88035, // j = 12: my point 13
      0.00000,   1.07274,   2.00366,   1.16242,   0.22520, // j = 13: my point 12
      0.00000,   0.85631,   1.06349,   1.49549,   0.18966, // j = 14: my point 11
      0.00000,   0.37183,  -0.50352,  -0.14818,   0.12039, // j = 15: my point 10
      0.00000,   0.13681,   0.13978,   1.11245,  -0.12707, // j = 16: my point  9
      0.00000,  -0.22082,   0.20178,  -0.06285,  -0.52728, // j = 17: my point  8
      0.00000,  -0.13597,  -0.19412,  -0.09308,  -1.26062, // j = 18: my point  7
      0.00000,   3.05454,   5.16874,   1.50680,   5.35000, // j = 19: my point  6
      0.00000,   2.19605,   3.85390,   0.88296,   2.30052, // j = 20: my point  5
      0.00000,   0.92321,   1.08744,  -0.11696,  -0.78560, // j = 21: my point  4
      0.00000,  -0.09795,  -0.83050,  -1.09167,  -4.94251, // j = 22: my point  3
      0.00000,  -1.00316,  -3.66465,  -2.56906,  -9.67677, // j = 23: my point  2
      0.00000,  -2.77982,  -7.26713,  -3.40177, -12.32252, // j = 24: my point  1
      0.00000,   3.42040, // [120] his checkers on the bar, [121] my checkers off
];

/// Tesauro's contact weights, used when the position before the move still
/// has contact. Same layout as [`RACE_WEIGHTS`].
#[rustfmt::skip]
pub const CONTACT_WEIGHTS: [f64; INPUTS] = [
      0.25696,  -0.66937,  -1.66135,  -2.02487,  -2.53398, // j =  1: my point 24
     -0.16092,  -1.11725,  -1.06654,  -0.92830,  -1.99558, // j =  2: my point 23
     -1.10388,  -0.80802,   0.09856,  -0.62086,  -1.27999, // j =  3: my point 22
     -0.59220,  -0.73667,   0.89032,  -0.38933,  -1.59847, // j =  4: my point 21
     -1.50197,  -0.60966,   1.56166,  -0.47389,  -1.80390, // j =  5: my point 20
     -0.83425,  -0.97741,  -1.41371,   0.24500,   0.10970, // j =  6: my point 19
     -1.36476,  -1.05572,   1.15420,   0.11069,  -0.38319, // j =  7: my point 18
     -0.74816,  -0.59244,   0.81116,  -0.39511,   0.11424, // j =  8: my point 17
     -0.73169,  -0.56074,   1.09792,   0.15977,   0.13786, // j =  9: my point 16
     -1.18435,  -0.43363,   1.06169,  -0.21329,   0.04798, // j = 10: my point 15
     -0.94373,  -0.22982,   1.22737,  -0.13099,  -0.06295, // j = 11: my point 14
     -0.75882,  -0.13658,   1.78389,   0.30416,   0.36797, // j = 12: my point 13
     -0.69851,   0.13003,   1.23070,   0.40868,  -0.21081, // j = 13: my point 12
     -0.64073,   0.31061,   1.59554,   0.65718,   0.25429, // j = 14: my point 11
     -0.80789,   0.08240,   1.78964,   0.54304,   0.41174, // j = 15: my point 10
     -1.06161,   0.07851,   2.01451,   0.49786,   0.91936, // j = 16: my point  9
     -0.90750,   0.05941,   1.83120,   0.58722,   1.28777, // j = 17: my point  8
     -0.83711,  -0.33248,   2.64983,   0.52698,   0.82132, // j = 18: my point  7
     -0.58897,  -1.18223,   3.35809,   0.62017,   0.57353, // j = 19: my point  6
     -0.07276,  -0.36214,   4.37655,   0.45481,   0.21746, // j = 20: my point  5
      0.10504,  -0.61977,   3.54001,   0.04612,  -0.18108, // j = 21: my point  4
      0.63211,  -0.87046,   2.47673,  -0.48016,  -1.27157, // j = 22: my point  3
      0.86505,  -1.11342,   1.24612,  -0.82385,  -2.77082, // j = 23: my point  2
      1.23606,  -1.59529,   0.10438,  -1.30206,  -4.11520, // j = 24: my point  1
      5.62596,  -2.75800, // [120] his checkers on the bar, [121] my checkers off
];

/// Index of the first of the five inputs of my point `point` (1..=24):
/// group `j = 25 - point`, inputs `5(j-1)..5(j-1)+5`.
const fn base(point: usize) -> usize {
    5 * (24 - point)
}

/// The logistic function `1 / (1 + e^-s)`; `+inf` gives 1.
fn logistic(s: f64) -> f64 {
    1.0 / (1.0 + (-s).exp())
}

/// Tesauro's pubeval as a player: [`choose`](Self::choose) picks a move,
/// [`score`](Self::score) is its evaluation of a position after a move.
///
/// As an [`Evaluator`] it has no real probabilities: see
/// [`evaluate_batch`](PubEval::evaluate_batch) for the mapping used, and note
/// that [`best_move`](Evaluator::best_move) is overridden to be exactly
/// [`choose`](Self::choose).
///
/// ```
/// use gammon_eval::pubeval::PubEval;
/// use gammon_eval::Evaluator;
/// use gammon_rules::{Dice, Position};
///
/// let before = Position::STARTING;
/// let list = before.legal_moves(Dice::new(3, 1).unwrap());
/// let best = PubEval::choose(&before, list.positions());
/// // pubeval makes its 5-point with the opening 3-1 (8/5 6/5).
/// assert_eq!(list.positions()[best].to_position_id(), "sGfwATDgc/ABMA");
/// assert_eq!(PubEval.best_move(&before, list.positions()), best);
/// assert_eq!(PubEval.name(), "pubeval");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PubEval;

impl PubEval {
    /// The weight vector for a race (`true`) or a contact position.
    pub const fn weights(race: bool) -> &'static [f64; INPUTS] {
        if race {
            &RACE_WEIGHTS
        } else {
            &CONTACT_WEIGHTS
        }
    }

    /// The 122 inputs of `after_mover_view`, the position after a move seen
    /// by the side that made it (a [`MoveList`](gammon_rules::MoveList) result
    /// [`switched`](Position::switched)). See the [module documentation](self).
    /// [`score_f64`](Self::score_f64) equals `weights(race) · inputs` (up to
    /// rounding) unless the mover has borne off all his checkers.
    pub fn inputs(after_mover_view: &Position) -> [f64; INPUTS] {
        let pos = after_mover_view;
        let mut x = [0.0; INPUTS];
        for point in 1..=24 {
            let b = base(point);
            let n = pos.my_checkers(point);
            if n == 0 && pos.their_checkers(point) == 1 {
                x[b] = 1.0;
            }
            if n == 1 {
                x[b + 1] = 1.0;
            }
            if n >= 2 {
                x[b + 2] = 1.0;
            }
            if n == 3 {
                x[b + 3] = 1.0;
            }
            if n >= 4 {
                x[b + 4] = f64::from(n - 3) / 2.0;
            }
        }
        x[120] = f64::from(pos.their_bar()) / 2.0;
        x[121] = f64::from(pos.borne_off().0) / 15.0;
        x
    }

    /// pubeval's score of `after_mover_view` (the position after a move, seen
    /// by the side that made it), with the race weights if `race` (which must
    /// describe the position *before* the move), else the contact weights.
    /// Higher is better for the mover; `+inf` if he has borne off all his
    /// checkers. This is [`score_f64`](Self::score_f64) rounded to `f32`.
    pub fn score(after_mover_view: &Position, race: bool) -> f32 {
        Self::score_f64(after_mover_view, race) as f32
    }

    /// [`score`](Self::score) in full `f64` precision: the value
    /// [`choose`](Self::choose) compares, bit for bit equal to pubeval.py's
    /// `fast_score` (same terms added in the same order).
    pub fn score_f64(after_mover_view: &Position, race: bool) -> f64 {
        let pos = after_mover_view;
        let (in_play, _) = pos.checkers_in_play();
        if in_play == 0 {
            return f64::INFINITY;
        }
        let w = Self::weights(race);
        let off = f64::from(CHECKERS_PER_SIDE - in_play);
        let mut s = w[120] * f64::from(pos.their_bar()) / 2.0 + w[121] * off / 15.0;
        // j = 1..=24 in order, i.e. my points 24 down to 1.
        for point in (1..=24).rev() {
            let b = base(point);
            s += match pos.my_checkers(point) {
                0 if pos.their_checkers(point) == 1 => w[b],
                0 => continue,
                1 => w[b + 1],
                2 => w[b + 2],
                3 => w[b + 2] + w[b + 3],
                n => w[b + 2] + w[b + 4] * f64::from(n - 3) / 2.0,
            };
        }
        s
    }

    /// The index of the result pubeval plays: `results` are the legal results
    /// of a move from `before` as a [`MoveList`](gammon_rules::MoveList) gives
    /// them (seen by the opponent, who is now on roll); each is switched to
    /// the mover's view and scored with the race weights if `before` has no
    /// contact. The highest score wins, the first one on ties. Returns 0 for
    /// an empty slice, like [`Evaluator::best_move`].
    pub fn choose(before: &Position, results: &[Position]) -> usize {
        let race = !before.has_contact();
        let mut best = 0;
        let mut best_score = f64::NEG_INFINITY;
        for (i, result) in results.iter().enumerate() {
            let s = Self::score_f64(&result.switched(), race);
            if i == 0 || s > best_score {
                best = i;
                best_score = s;
            }
        }
        best
    }
}

impl Evaluator for PubEval {
    /// pubeval has no probabilities; this gives a monotone stand-in. Each
    /// position is seen by its side on roll, before the roll, so the player
    /// who just moved into it is the opponent: the position is scored from
    /// his view ([`switched`](Position::switched)) with the race weights if
    /// it has no contact, and `win = 1 - logistic(score)` for the side on
    /// roll, all gammon and backgammon probabilities 0. A position where the
    /// opponent has borne off all his checkers gets `win = 0`.
    ///
    /// pubeval's scores are not calibrated as log-odds and often exceed 17 in
    /// size (races with checkers stacked or borne off, crushed contact
    /// positions); there `win` rounds to 0 or 1 in `f32`, so these numbers
    /// order positions only roughly and are no substitute for a net's.
    ///
    /// The trait's default `best_move` on top of this would pick the result
    /// with the highest score, like [`PubEval::choose`], except that it would
    /// choose the weights from each *result* (pubeval takes them from the
    /// position *before* the move: they differ when a move breaks contact),
    /// and that scores too close to tell apart in `f32` equity would tie.
    /// That is why `best_move` is overridden.
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        debug_assert_eq!(positions.len(), out.len());
        for (pos, o) in positions.iter().zip(out.iter_mut()) {
            let s = Self::score_f64(&pos.switched(), !pos.has_contact());
            *o = Probabilities { win: (1.0 - logistic(s)) as f32, ..Probabilities::default() };
        }
    }

    /// Exactly [`PubEval::choose`]: the weights follow the position before the
    /// move, ties go to the first result.
    fn best_move(&self, before: &Position, results: &[Position]) -> usize {
        Self::choose(before, results)
    }

    /// `"pubeval"`.
    fn name(&self) -> String {
        "pubeval".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_groups_run_from_my_24_point_to_my_ace_point() {
        assert_eq!(base(24), 0);
        assert_eq!(base(1), 115);
        // The race weights ignore opponent blots (there are none in a race)
        // and the opponent's bar.
        assert!((1..=24).all(|p| RACE_WEIGHTS[base(p)] == 0.0));
        assert_eq!(RACE_WEIGHTS[120], 0.0);
    }

    #[test]
    fn the_starting_position_scores_its_inputs() {
        let pos = Position::STARTING;
        let x = PubEval::inputs(&pos);
        // My 6-point (j = 19): five checkers: n >= 2 and (5 - 3) / 2 = 1.
        assert_eq!(&x[base(6)..base(6) + 5], &[0.0, 0.0, 1.0, 0.0, 1.0]);
        // My 8-point (j = 17): three checkers.
        assert_eq!(&x[base(8)..base(8) + 5], &[0.0, 0.0, 1.0, 1.0, 0.0]);
        for race in [false, true] {
            let dot: f64 = x.iter().zip(PubEval::weights(race)).map(|(a, b)| a * b).sum();
            assert!((dot - PubEval::score_f64(&pos, race)).abs() < 1e-9);
        }
    }
}
