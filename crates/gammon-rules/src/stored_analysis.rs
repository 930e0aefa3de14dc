//! Another program's analysis of a match, as match files store it (eXtreme
//! Gammon's `.xg`, OGXM, gnubg's SGF), kept beside the [`MatchRecord`] so
//! that a review can show the program's verdict next to gammon's own, and
//! the form in which a writer is given gammon's analysis to store.
//!
//! Values follow gammon's conventions whatever the file held: equities are
//! normalised cubeful equities of the player who decides (money: per unit
//! of the cube; match: EMG, the equivalent-to-money equity of his match
//! winning chances at the score and cube), probabilities are the cubeless
//! `[win, win gammon, win backgammon, lose gammon, lose backgammon]` of
//! that player, cumulative as gnubg and gammon write them (a backgammon is
//! also a gammon).
//!
//! [`MatchRecord`]: crate::MatchRecord

use crate::Position;
use std::collections::BTreeMap;

/// Converts between normalised equities and match winning chances, as
/// gnubg's `eq2mwc` and `mwc2eq` do with its match equity table: for the
/// player on roll with the cube at `cube`, each side `away` points from
/// winning, in the Crawford game or not. gnubg's SGF and OGXM keep a
/// match's analysis as match winning chances; gammon's own table implements this
/// (`gammon_engine::met::Met`).
pub trait MatchEquity {
    /// The match winning chances of the normalised equity `eq`.
    fn eq2mwc(&self, eq: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64;
    /// The normalised equity (EMG) of the match winning chances `mwc`.
    fn mwc2eq(&self, mwc: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64;
}

/// One program's analysis of the decisions of a match record.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StoredAnalysis {
    /// The program, as the file names it (`"eXtreme Gammon"`, `"GNU
    /// Backgammon 1.07"`, an OGXM engine's name).
    pub program: String,
    /// The analysed decisions by `(game, record)`: the index of the game in
    /// [`MatchRecord::games`](crate::MatchRecord::games) and of the record in
    /// its [`GameText::records`](crate::GameText::records).
    pub records: BTreeMap<(usize, usize), StoredRecord>,
}

/// What was stored for one record of a game.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct StoredRecord {
    /// The cube decision of the player on roll before his roll, on the record
    /// of that turn: the record of his roll (move or dance) when he did not
    /// double, the `Double` record when he did, and the answer's record
    /// (take, beaver, drop) too. Its values are the doubler's.
    pub cube: Option<StoredCube>,
    /// The chequer play of a move record.
    pub chequer: Option<StoredMove>,
}

/// A stored cube analysis, for the player on roll before his roll.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCube {
    /// Normalised cubeful equity if he does not double.
    pub no_double: f64,
    /// ... if he doubles and the opponent takes (normalised to the cube
    /// before the double, as gnubg and gammon show it).
    pub double_take: f64,
    /// ... if he doubles and the opponent passes.
    pub double_pass: f64,
    /// Cubeless probabilities of the position, where stored.
    pub probabilities: Option<[f64; 5]>,
    /// The depth, as the program names it (`"2-ply"`, `"XG Roller+"`,
    /// `"rollout"`).
    pub depth: String,
}

/// A stored chequer-play analysis: the candidates the program valued.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMove {
    /// Best first, as the program ranked them: XG values its first
    /// candidates deeper than the rest, so a shallower candidate further
    /// down may show a higher equity and still rank below.
    pub candidates: Vec<StoredCandidate>,
    /// The index in `candidates` of the move played; `None` when it is not
    /// among them.
    pub played: Option<usize>,
}

/// One candidate move of a stored chequer-play analysis.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredCandidate {
    /// The position after the move, still seen by the mover (not switched):
    /// it names the move whatever the notation.
    pub after: Position,
    /// Normalised cubeful equity for the mover.
    pub equity: f64,
    /// Cubeless probabilities for the mover, where stored.
    pub probabilities: Option<[f64; 5]>,
    /// The depth, as the program names it.
    pub depth: String,
}

impl StoredMove {
    /// The program's best: its first-ranked candidate (not the highest
    /// equity, which may be a shallower estimate).
    pub fn best(&self) -> Option<&StoredCandidate> {
        self.candidates.first()
    }

    /// The best candidate's equity less the played move's: the equity the
    /// mover gave up by the program's numbers, as the program reports its
    /// error (`None` when the played move was not valued).
    pub fn loss(&self) -> Option<f64> {
        let best = self.best()?;
        let played = self.candidates.get(self.played?)?;
        Some(best.equity - played.equity)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(equity: f64, depth: &str) -> StoredCandidate {
        StoredCandidate { after: Position::STARTING, equity, probabilities: None, depth: depth.into() }
    }

    #[test]
    fn the_loss_is_against_the_first_ranked_candidate() {
        // XG's order: two candidates at 3-ply, then a 1-ply estimate that
        // looks better but ranks below them.
        let m = StoredMove {
            candidates: vec![candidate(0.1, "3-ply"), candidate(0.05, "3-ply"), candidate(0.3, "1-ply")],
            played: Some(1),
        };
        assert_eq!(m.best().map(|c| c.equity), Some(0.1));
        assert!((m.loss().unwrap() - 0.05).abs() < 1e-12);
        assert_eq!(StoredMove { played: None, ..m.clone() }.loss(), None);
        assert_eq!(StoredMove { candidates: Vec::new(), played: Some(0) }.loss(), None);
    }
}
