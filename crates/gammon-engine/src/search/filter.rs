//! gnubg's move filters: the root screens of a roll being analysed and the
//! candidates inside the lookahead.

use serde::{Deserialize, Serialize};

/// Depths the root screens of a [`MoveFilter`] describe (as gnubg's tables).
pub const MAX_FILTER_PLIES: usize = 4;

/// Which moves of a roll survive a screen: at most `max` of them (the best
/// always does), each within `window` equity of the best.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidates {
    /// Keep at most this many moves (0 counts as 1: the best is always kept).
    pub max: usize,
    /// Keep only moves at most this much cubeless equity below the best.
    pub window: f32,
}

impl Candidates {
    /// `max` moves within `window` of the best.
    pub const fn new(max: usize, window: f32) -> Self {
        Candidates { max, window }
    }

    /// How many of `equities` (sorted best first, for the mover) survive.
    pub(crate) fn keep(self, equities: impl IntoIterator<Item = f32>) -> usize {
        let mut it = equities.into_iter();
        let Some(best) = it.next() else { return 0 };
        let mut n = 1;
        for e in it {
            if n >= self.max || best - e > self.window || (best - e).is_nan() {
                break;
            }
            n += 1;
        }
        n
    }
}

/// gnubg-style move filters: the screens of the root (a roll being analysed)
/// and the candidate rule inside the lookahead. See the
/// [module documentation](crate::search).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveFilter {
    /// `root[d]`: the screen applied after evaluating the surviving moves at
    /// `d` plies; `None` skips depth `d`. Depths beyond the array are skipped.
    pub root: [Option<Candidates>; MAX_FILTER_PLIES],
    /// Inside the lookahead, for each roll: the moves (ranked at 0 plies)
    /// valued at the remaining depth, of which the best is played.
    pub lookahead: Candidates,
    /// Inside the lookahead, with one candidate per roll: the moves of a
    /// roll are first screened by pubeval (a linear evaluation, about 30
    /// times cheaper than the net), and only the best `prune` of them are
    /// evaluated by the net, as gnubg screens them with its pruning nets.
    /// 0: no screen, every move is evaluated.
    #[serde(default)]
    pub prune: usize,
}

impl MoveFilter {
    /// The default: gnubg's "normal" root screens (up to 8 moves within 0.16
    /// after 0 ply, up to 2 within 0.04 after 2 plies) and, inside the
    /// lookahead, the best move by 0 ply, as gnubg 1.07 searches without its
    /// pruning nets.
    pub const NORMAL: MoveFilter = MoveFilter {
        root: [Some(Candidates::new(8, 0.16)), None, Some(Candidates::new(2, 0.04)), None],
        lookahead: Candidates::new(1, 0.0),
        prune: 0,
    };

    /// [`NORMAL`](Self::NORMAL), but inside the lookahead up to 2 moves
    /// within 0.04 (by 0 ply) are valued at the remaining depth and the best
    /// of them is played: about 1.5 times the work at 2 plies.
    pub const WIDE_LOOKAHEAD: MoveFilter = MoveFilter { lookahead: Candidates::new(2, 0.04), ..MoveFilter::NORMAL };

    /// gnubg's "large" root screen, what its match analysis uses by default
    /// at 2 plies: up to 16 moves within 0.32 after 0 ply (and up to 2
    /// within 0.04 after 2 plies, for deeper searches); inside the lookahead
    /// as [`NORMAL`](Self::NORMAL).
    pub const LARGE: MoveFilter = MoveFilter {
        root: [Some(Candidates::new(16, 0.32)), None, Some(Candidates::new(2, 0.04)), None],
        ..MoveFilter::NORMAL
    };
}

impl MoveFilter {
    /// Inside the lookahead, how many moves of each roll the pubeval screen
    /// of move analysis keeps ([`SCREENED`](Self::SCREENED)).
    pub const ANALYSIS_PRUNE: usize = 8;

    /// What `gammon analyse` (with dice), `review` and the server's move
    /// analysis use: [`NORMAL`](Self::NORMAL) with a pubeval screen of
    /// [`ANALYSIS_PRUNE`](Self::ANALYSIS_PRUNE) moves inside the lookahead,
    /// as gnubg 1.07's default `hint` and analysis screen with their pruning
    /// nets. About half the work at 2 plies. Measured against no screen
    /// (`search::screened_two_ply_against_unscreened_and_gnubg`): on 377
    /// rolls of 20 contact positions the same best move 370 times, mean loss
    /// 0.00002, largest 0.0027; on the 1,218 oracle positions the mean
    /// distance of the 2-ply value to gnubg's 0.0535 instead of 0.0523 (gnubg's
    /// own pruned and unpruned 2-ply differ by 0.0009). Cube decisions are
    /// searched without it.
    pub const SCREENED: MoveFilter = MoveFilter { prune: MoveFilter::ANALYSIS_PRUNE, ..MoveFilter::NORMAL };
}

impl Default for MoveFilter {
    fn default() -> Self {
        MoveFilter::NORMAL
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_keep_the_best_and_respect_max_and_window() {
        let c = Candidates::new(3, 0.1);
        assert_eq!(c.keep([0.5, 0.45, 0.41, 0.40]), 3);
        assert_eq!(c.keep([0.5, 0.35]), 1);
        assert_eq!(c.keep([0.5]), 1);
        assert_eq!(c.keep(std::iter::empty()), 0);
        assert_eq!(Candidates::new(0, 1.0).keep([0.5, 0.5]), 1);
        assert_eq!(Candidates::new(5, 0.1).keep([0.5, f32::NAN]), 1);
    }
}
