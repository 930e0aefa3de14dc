//! Shared helpers for gammon's criterion benchmarks: loading the oracle and
//! wildbg benchmark positions from `../shared`.

use gammon_rules::Position;
use std::path::PathBuf;

/// The `shared` folder beside the repository (`$GAMMON_SHARED` overrides).
pub fn shared_dir() -> PathBuf {
    std::env::var_os("GAMMON_SHARED")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared"), PathBuf::from)
}

/// Reads a file of `shared/`, with a clear message if it is missing.
///
/// # Panics
/// If the file cannot be read: a benchmark cannot run without its data.
pub fn read_shared(relative: &str) -> String {
    let path = shared_dir().join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

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
/// On malformed oracle data.
pub fn oracle_positions() -> Vec<(Position, [u64; 21])> {
    read_shared("oracle/movegen_digest.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("valid JSON");
            let id = v["pos"].as_str().expect("pos");
            let mut counts = [0u64; 21];
            for (c, n) in counts.iter_mut().zip(v["n"].as_array().expect("n")) {
                *c = n.as_u64().expect("count");
            }
            (Position::from_position_id(id).expect("valid Position ID"), counts)
        })
        .collect()
}
