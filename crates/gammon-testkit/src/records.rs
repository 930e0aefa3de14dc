//! The oracle's records that more than one test suite reads (the oracle's
//! `README.md` describes every field). Position IDs stay text: this crate
//! depends on no gammon crate, so every crate's tests can use it.
//! Numbers stay `f64` as written, whatever precision a test then uses.

use serde::Deserialize;

/// A line of `movegen_full.jsonl`: a (position, roll) and gnubg's legal results.
#[derive(Clone, Debug, Deserialize)]
pub struct MovegenFull {
    /// Position ID of the position before the roll.
    pub pos: String,
    /// The roll, larger die first.
    pub dice: [u8; 2],
    /// The results' Position IDs (mover's opponent on roll), sorted.
    pub moves: Vec<String>,
    /// Dice a legal move uses.
    pub max_dice: u8,
}

/// A line of `movegen_digest.jsonl`: a position and, for the 21 rolls in
/// the oracle's order, gnubg's result count and digest.
#[derive(Clone, Debug, Deserialize)]
pub struct MovegenDigest {
    pub pos: String,
    /// Number of legal results per roll.
    pub n: [u64; 21],
    /// FNV-1a 64 (16 hex digits) of the sorted result IDs joined by `\n`.
    pub fnv: [String; 21],
}

/// A line of `movegen_edge.jsonl`: a hand-checked rule edge case.
#[derive(Clone, Debug, Deserialize)]
pub struct EdgeCase {
    pub name: String,
    pub pos: String,
    pub dice: [u8; 2],
    /// Sorted result IDs, as in [`MovegenFull`].
    pub moves: Vec<String>,
    pub max_dice: u8,
    /// gnubg's notation of each result, in the order of `moves`.
    pub notation: Vec<String>,
}

/// A line of `eval.jsonl`: gnubg's cubeless evaluations of a position.
#[derive(Clone, Debug, Deserialize)]
pub struct EvalRecord {
    pub pos: String,
    /// gnubg's position class: `contact`, `crashed`, `race`, `bearoff1`, `bearoff2`.
    pub class: String,
    /// Win, win gammon, win backgammon, lose gammon, lose backgammon,
    /// equity, at 0, 1 and 2 plies.
    pub ply0: [f64; 6],
    pub ply1: [f64; 6],
    pub ply2: [f64; 6],
    /// gnubg's 2-ply without its pruning nets.
    pub ply2_noprune: [f64; 6],
}

/// gnubg's normalised cube equities: no double, double/take, double/pass,
/// and the best of them.
#[derive(Clone, Copy, Debug, Deserialize)]
pub struct CubeEquities {
    pub nd: f64,
    pub dt: f64,
    pub dp: f64,
    pub best: f64,
}

/// A money cube decision: the equities as in [`CubeEquities`], gnubg's
/// verdict code and its text.
#[derive(Clone, Debug, Deserialize)]
pub struct CubeVerdict {
    pub nd: f64,
    pub dt: f64,
    pub dp: f64,
    pub best: f64,
    pub code: u8,
    pub action: String,
}

/// A line of `cube_money.jsonl`: a money decision, centred cube of 1.
#[derive(Clone, Debug, Deserialize)]
pub struct CubeMoney {
    pub pos: String,
    /// gnubg's 0-ply cubeless probabilities and equity, as in [`EvalRecord`].
    pub p0: [f64; 6],
    /// gnubg's 2-ply decision.
    pub cube2: CubeVerdict,
    /// gnubg's 0-ply decision.
    pub cube0: CubeVerdict,
    /// gnubg's Match ID of the setting (money, Jacoby off).
    pub match_id: String,
}

/// A line of `cube_match.jsonl`: a 5-point match decision at one score.
#[derive(Clone, Debug, Deserialize)]
pub struct CubeMatch {
    pub pos: String,
    /// The score's name, e.g. `5pt_2away-4away`.
    pub setting: String,
    pub match_length: u32,
    /// Points of the player on roll, then of the opponent.
    pub score: [u32; 2],
    /// Points each still needs, in the same order.
    pub away: [u32; 2],
    pub crawford: bool,
    /// gnubg's 0-ply cubeless probabilities and equity, as in [`EvalRecord`].
    pub p0: [f64; 6],
    /// gnubg's 2-ply equities, equivalent-to-money.
    pub cube2_emg: CubeEquities,
    /// The same as match winning chances.
    pub cube2_mwc: CubeEquities,
    /// gnubg's 2-ply verdict code and text.
    pub code: u8,
    pub action: String,
    /// gnubg's gammon and backgammon prices.
    pub gammonprice: [f64; 4],
    /// gnubg's Match ID of the setting, player 0 on roll.
    pub match_id: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read_oracle;

    #[test]
    fn every_oracle_file_decodes() {
        assert!(read_oracle::<MovegenFull>("movegen_full.jsonl").len() > 1000);
        assert!(read_oracle::<MovegenDigest>("movegen_digest.jsonl").len() > 1000);
        assert!(!read_oracle::<EdgeCase>("movegen_edge.jsonl").is_empty());
        assert!(read_oracle::<EvalRecord>("eval.jsonl").len() > 1000);
        assert!(read_oracle::<CubeMoney>("cube_money.jsonl").len() > 300);
        assert!(read_oracle::<CubeMatch>("cube_match.jsonl").len() > 400);
    }
}
