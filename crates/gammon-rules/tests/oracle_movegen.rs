//! The move generator against GNU Backgammon's legal move lists.
#![allow(clippy::unwrap_used)]

mod common;

use common::{fnv1a64, read_jsonl};
use gammon_rules::{Dice, MoveList, Position, ALL_ROLLS};
use serde_json::Value;

fn dice_of(v: &Value) -> Dice {
    let d = v.as_array().unwrap();
    Dice::new(d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8).unwrap()
}

fn sorted_ids(list: &MoveList) -> Vec<String> {
    let mut ids: Vec<String> = list.positions().iter().map(Position::to_position_id).collect();
    ids.sort();
    ids
}

#[test]
fn full_lists_match_gnubg() {
    let records = read_jsonl("movegen_full.jsonl");
    assert!(records.len() > 1000, "expected thousands of (position, roll) records");
    let mut list = MoveList::new();
    let mut failures = Vec::new();
    for r in &records {
        let id = r["pos"].as_str().unwrap();
        let pos = Position::from_position_id(id).unwrap();
        let dice = dice_of(&r["dice"]);
        list.generate(&pos, dice);
        let expected: Vec<String> =
            r["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        let got = sorted_ids(&list);
        let max_dice = r["max_dice"].as_u64().unwrap() as u8;
        if got != expected || (!got.is_empty() && list.dice_used() != max_dice) {
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
    let records = read_jsonl("movegen_digest.jsonl");
    assert!(records.len() > 1000);
    let mut list = MoveList::new();
    let mut failures = Vec::new();
    for r in &records {
        let id = r["pos"].as_str().unwrap();
        let pos = Position::from_position_id(id).unwrap();
        for (k, dice) in ALL_ROLLS.iter().enumerate() {
            list.generate(&pos, *dice);
            let ids = sorted_ids(&list);
            let digest = format!("{:016x}", fnv1a64(ids.join("\n").as_bytes()));
            let n = r["n"][k].as_u64().unwrap() as usize;
            if ids.len() != n || digest != r["fnv"][k].as_str().unwrap() {
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
    let records = read_jsonl("movegen_edge.jsonl");
    assert!(!records.is_empty());
    for r in &records {
        let name = r["name"].as_str().unwrap();
        let pos = Position::from_position_id(r["pos"].as_str().unwrap()).unwrap();
        let list = pos.legal_moves(dice_of(&r["dice"]));
        let expected: Vec<String> =
            r["moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap().to_string()).collect();
        assert_eq!(sorted_ids(&list), expected, "edge case {name}");
        if !expected.is_empty() {
            assert_eq!(u64::from(list.dice_used()), r["max_dice"].as_u64().unwrap(), "dice used in {name}");
        }
    }
}
