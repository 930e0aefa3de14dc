//! Match winning chances (MWC) and gammon's normalised equity (EMG).
//!
//! OGXM stores a match analysis in MWC (currency `cubeful_match`); gammon
//! keeps EMG: `-1` is losing the cube's points, `+1` winning them, linear
//! in between (gnubg's `mwc2eq`). The two anchors come from a match equity
//! table, which the caller gives ([`MatchEquity`]: the engine's table, the
//! one the rest of the review uses), whatever table the file names (its
//! `met_id`), so the EMG is gammon's reading of the program's MWC.
//! Converting back with the same table gives the MWC again.

use crate::MatchEquity;

/// The decider's score and cube: what turns his MWC into EMG and back.
#[derive(Clone, Copy)]
pub(crate) struct Frame<'a> {
    pub equity: &'a dyn MatchEquity,
    /// The decider's points to go, then the opponent's.
    pub away: (u32, u32),
    pub crawford: bool,
    pub cube: u32,
}

impl Frame<'_> {
    /// EMG of an MWC.
    pub fn emg(self, mwc: f64) -> f64 {
        self.equity.mwc2eq(mwc, self.cube, self.away, self.crawford)
    }

    /// MWC of an EMG.
    pub fn mwc(self, emg: f64) -> f64 {
        self.equity.eq2mwc(emg, self.cube, self.away, self.crawford)
    }
}
