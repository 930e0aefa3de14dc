//! Whole gnubg games replayed move by move, and gnubg's move notation.
#![allow(clippy::unwrap_used)]

use gammon_rules::{parse_move_in, Dice, GameResult, MoveList, Position};
use gammon_testkit::{read_oracle, EdgeCase};
use serde_json::Value;

#[test]
fn games_replay_move_by_move() {
    let games: Vec<Value> = read_oracle("games.jsonl");
    assert!(!games.is_empty());
    let mut list = MoveList::new();
    let (mut turns, mut same_text) = (0, 0);
    for g in &games {
        let id = g["game"].as_u64().unwrap();
        let mut expected_pos = Position::STARTING;
        let mut last = Position::STARTING;
        for t in g["turns"].as_array().unwrap() {
            let pos = Position::from_position_id(t["pos"].as_str().unwrap()).unwrap();
            assert_eq!(pos, expected_pos, "game {id}: the position before a turn is the previous result");
            let d = t["dice"].as_array().unwrap();
            let dice = Dice::new(d[0].as_u64().unwrap() as u8, d[1].as_u64().unwrap() as u8).unwrap();
            let result = Position::from_position_id(t["result"].as_str().unwrap()).unwrap();
            let text = t["move"].as_str().unwrap();
            list.generate(&pos, dice);
            if text.is_empty() {
                assert!(list.is_empty(), "game {id}: gnubg could not move with {dice} but we find moves");
                assert_eq!(result, pos.switched());
            } else {
                assert!(
                    list.positions().contains(&result),
                    "game {id}: gnubg's {text} with {dice} is not among our results"
                );
                let (m, after) =
                    parse_move_in(&pos, dice, text, &list).unwrap_or_else(|e| panic!("game {id}: {text}: {e}"));
                assert_eq!(after, result, "game {id}: {text}");
                let ours = pos.format_move(&m);
                let (_, again) = parse_move_in(&pos, dice, &ours, &list).unwrap();
                assert_eq!(again, result, "game {id}: our notation {ours} of gnubg's {text}");
                turns += 1;
                same_text += usize::from(ours == text);
            }
            expected_pos = result;
            last = result;
        }
        // The last result: the winner has just moved, so the loser is on roll.
        let (on_roll_won, value) = last.game_result().unwrap_or_else(|| panic!("game {id} did not end"));
        assert!(!on_roll_won);
        let points = match value {
            GameResult::Single => 1,
            GameResult::Gammon => 2,
            GameResult::Backgammon => 3,
        };
        assert_eq!(points, g["points"].as_u64().unwrap(), "game {id} value");
    }
    // Not required to be identical text, but it should nearly always be.
    eprintln!("{same_text} of {turns} moves written exactly as gnubg writes them");
    assert!(same_text * 10 >= turns * 9, "{same_text} of {turns} moves written as gnubg does");
}

#[test]
fn edge_case_notation_parses_to_gnubgs_results() {
    for r in read_oracle::<EdgeCase>("movegen_edge.jsonl") {
        let pos = Position::from_position_id(&r.pos).unwrap();
        let dice = Dice::new(r.dice[0], r.dice[1]).unwrap();
        let list = pos.legal_moves(dice);
        for (text, id) in r.notation.iter().zip(&r.moves) {
            let (_, after) =
                parse_move_in(&pos, dice, text, &list).unwrap_or_else(|e| panic!("{}: {text}: {e}", r.name));
            assert_eq!(after.to_position_id(), *id, "{}: {text}", r.name);
        }
    }
}
