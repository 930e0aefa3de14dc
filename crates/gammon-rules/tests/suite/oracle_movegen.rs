//! The move generator against GNU Backgammon's legal move lists.
#![allow(clippy::unwrap_used)]

use gammon_rules::{Dice, MoveList, Position, ALL_ROLLS};
use gammon_testkit::{read_oracle, EdgeCase, MovegenDigest, MovegenFull};

fn dice_of(d: [u8; 2]) -> Dice {
    Dice::new(d[0], d[1]).unwrap()
}

fn sorted_ids(list: &MoveList) -> Vec<String> {
    let mut ids: Vec<String> = list.positions().iter().map(Position::to_position_id).collect();
    ids.sort();
    ids
}

/// FNV-1a 64 of `bytes`, as the oracle's digests use.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[test]
fn full_lists_match_gnubg() {
    let records: Vec<MovegenFull> = read_oracle("movegen_full.jsonl");
    assert!(records.len() > 1000, "expected thousands of (position, roll) records");
    let mut list = MoveList::new();
    let mut failures = Vec::new();
    for r in &records {
        let id = &r.pos;
        let pos = Position::from_position_id(id).unwrap();
        let dice = dice_of(r.dice);
        list.generate(&pos, dice);
        let expected = &r.moves;
        let got = sorted_ids(&list);
        let max_dice = r.max_dice;
        if got != *expected || (!got.is_empty() && list.dice_used() != max_dice) {
            failures.push(format!(
                "{id} {dice}: got {} results using {} dice, gnubg {} using {max_dice}",
                got.len(),
                list.dice_used(),
                expected.len()
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} disagree:\n{}",
        failures.len(),
        records.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn digests_match_gnubg_for_all_21_rolls() {
    let records: Vec<MovegenDigest> = read_oracle("movegen_digest.jsonl");
    assert!(records.len() > 1000);
    let mut list = MoveList::new();
    let mut failures = Vec::new();
    for r in &records {
        let id = &r.pos;
        let pos = Position::from_position_id(id).unwrap();
        for (k, dice) in ALL_ROLLS.iter().enumerate() {
            list.generate(&pos, *dice);
            let ids = sorted_ids(&list);
            let digest = format!("{:016x}", fnv1a64(ids.join("\n").as_bytes()));
            let n = r.n[k] as usize;
            if ids.len() != n || digest != r.fnv[k] {
                failures.push(format!("{id} {dice}: {} results, gnubg {n}", ids.len()));
            }
        }
    }
    assert!(failures.is_empty(), "{} disagree:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn fnv_test_vectors() {
    assert_eq!(format!("{:016x}", fnv1a64(b"")), "cbf29ce484222325");
    assert_eq!(format!("{:016x}", fnv1a64(b"a")), "af63dc4c8601ec8c");
}

#[test]
fn edge_cases_match_hand_checked_lists() {
    let records: Vec<EdgeCase> = read_oracle("movegen_edge.jsonl");
    assert!(!records.is_empty());
    for r in &records {
        let name = &r.name;
        let pos = Position::from_position_id(&r.pos).unwrap();
        let list = pos.legal_moves(dice_of(r.dice));
        assert_eq!(sorted_ids(&list), r.moves, "edge case {name}");
        if !r.moves.is_empty() {
            assert_eq!(list.dice_used(), r.max_dice, "dice used in {name}");
        }
    }
}
