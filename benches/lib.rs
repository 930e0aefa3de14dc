//! Shared helpers for gammon's criterion benchmarks: loading the oracle and
//! wildbg benchmark positions from `../shared` (through `gammon-testkit`).

use gammon_rules::Position;
use gammon_testkit::{read_oracle, MovegenDigest};

pub use gammon_testkit::read_shared;

/// The Position IDs of a file with one ID per line.
///
/// # Panics
/// On a line that is not a valid Position ID.
pub fn positions_from_lines(text: &str) -> Vec<Position> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(|id| Position::from_position_id(id).unwrap_or_else(|e| panic!("{id}: {e}")))
        .collect()
}

/// The oracle's movegen positions and, per position, gnubg's result counts
/// for the 21 rolls (from `movegen_digest.jsonl`).
///
/// # Panics
/// On a missing oracle or malformed oracle data.
pub fn oracle_positions() -> Vec<(Position, [u64; 21])> {
    read_oracle::<MovegenDigest>("movegen_digest.jsonl")
        .into_iter()
        .map(|r| {
            let pos = Position::from_position_id(&r.pos).unwrap_or_else(|e| panic!("{}: {e}", r.pos));
            (pos, r.n)
        })
        .collect()
}
