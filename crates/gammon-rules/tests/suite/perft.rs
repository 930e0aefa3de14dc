//! perft counts from `tests/suite/perft.txt`, computed by an independent generator
//! (the arena's Python `bgcore.legal_moves`, see the file's header).
#![allow(clippy::unwrap_used)]

use gammon_rules::{perft, Position};

#[test]
fn perft_table() {
    let text = include_str!("perft.txt");
    let mut checked = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let mut f = line.split_whitespace();
        let id = f.next().unwrap();
        let pos = if id == "start" { Position::STARTING } else { Position::from_position_id(id).unwrap() };
        for (depth, expected) in f.enumerate() {
            let depth = depth as u32 + 1;
            assert_eq!(perft(&pos, depth), expected.parse::<u64>().unwrap(), "{id} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked >= 4);
}
