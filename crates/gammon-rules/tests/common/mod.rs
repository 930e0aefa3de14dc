//! Reading the shared GNU Backgammon oracle (`../shared/oracle`).
#![allow(dead_code)]

use std::path::PathBuf;

/// The oracle folder: `$GAMMON_ORACLE`, else `shared/oracle` beside the repository.
pub fn oracle_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("GAMMON_ORACLE") {
        return PathBuf::from(dir);
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/oracle")
}

/// Every JSON line of an oracle file. Panics (failing the test) if the file is
/// missing: the oracle is part of the test environment.
pub fn read_jsonl(name: &str) -> Vec<serde_json::Value> {
    let path = oracle_dir().join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e} (set GAMMON_ORACLE to the oracle folder)", path.display()));
    text.lines().filter(|l| !l.trim().is_empty()).map(|l| serde_json::from_str(l).expect("valid JSON line")).collect()
}

/// FNV-1a 64 of `bytes`, as the oracle's digests use.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}
