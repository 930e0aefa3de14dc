//! Files the reference codec writes from small JSON documents, read by gammon.

use super::*;

/// A roll in the codec's JSON: `color` 0 is Black (seat One, moving down
/// from 24), 1 White (seat Zero, moving up from 1); steps `(from, pips)`
/// in the board's numbering.
fn roll(color: u8, d1: u8, d2: u8, steps: &[(u8, u8)]) -> Value {
    let (a, b) = (d1.min(d2), d1.max(d2));
    let id = [0, 6, 11, 15, 18, 20][usize::from(a - 1)] + (b - a);
    let moves: Vec<Value> = steps.iter().map(|&(from, pips)| json!({"from": from, "pips": pips})).collect();
    json!({"color": color, "action_id": id, "d1": d1, "d2": d2, "moves": moves})
}

fn act(color: u8, id: u8) -> Value {
    json!({"color": color, "action_id": id})
}

fn doc(length: u32, games: Value) -> Value {
    json!({"match_length": length, "player_white": "White", "player_black": "Black", "crawford": true, "games": games})
}

#[test]
fn documents_the_codec_writes_read_as_written() {
    let Some(codec) = Codec::find() else { return };
    let black_31 = roll(0, 3, 1, &[(8, 3), (6, 1)]);
    let white_42 = roll(1, 4, 2, &[(12, 2), (12, 4)]);

    // A set-up board: Black (seat One) moves first from it.
    let board = json!([0, 0, 0, 2, -3, 0, -4, -2, -2, 0, 0, 0, 4, -2, 0, 1, 0, 2, 0, 4, 2, 0, -1, 0, -1, 0]);
    let m = read_ogxm(
        &codec.write(&doc(3, json!([{"initial_board": board, "plies": [roll(0, 6, 1, &[(22, 6), (16, 1)])]}]))),
    )
    .unwrap();
    let first = &m.games[0].records[0];
    assert_eq!(first.player, Seat::One);
    // Black's point p is the board's p: his 22 and 4, White's two on board 3.
    let p = first.position;
    assert_eq!((p.my_checkers(22), p.my_checkers(4), p.their_checkers(3), p.their_checkers(22)), (1, 3, 2, 0));
    assert!(matches!(&first.action, MatAction::Move { text, .. } if text == "22/16 16/15*"), "{:?}", first.action);

    // The cube on two, owned by Black, who redoubles to 4; White passes.
    let plies = json!([black_31, white_42, act(0, 21), act(1, 23)]);
    let games =
        json!([{"initial_cube_value": 2, "initial_cube_owner": 1, "winner": 1, "points_won": 2, "plies": plies}]);
    let m = read_ogxm(&codec.write(&doc(5, games))).unwrap();
    assert_eq!(m.games[0].records[0].cube, gammon_rules::Cube { value: 2, owner: Some(Seat::One), automatic: 0 });
    assert!(matches!(m.games[0].records[2].action, MatAction::Double { value: 4 }));
    assert_eq!(m.games[0].result, Some((Seat::One, 2)));

    // A resignation of a gammon by White.
    let games =
        json!([{"winner": 1, "points_won": 2, "plies": [black_31, {"color": 1, "action_id": 27, "resign_value": 2}]}]);
    let m = read_ogxm(&codec.write(&doc(5, games))).unwrap();
    let r = &m.games[0].records;
    assert!(matches!(r[1].action, MatAction::Resign { points: 2, level: gammon_rules::GameResult::Gammon }), "{r:?}");
    assert_eq!((r[1].player, m.games[0].result), (Seat::Zero, Some((Seat::One, 2))));

    // Crawford, 3 points: Black leads 2-0 after a resigned gammon; no cube in
    // the Crawford game; White doubles after it.
    let resign = |color: u8, level: u8| json!({"color": color, "action_id": 27, "resign_value": level});
    let games = json!([
        {"winner": 1, "points_won": 2, "plies": [black_31, resign(1, 2)]},
        {"winner": 0, "points_won": 1, "plies": [black_31, white_42, resign(0, 1)]},
        {"winner": 0, "points_won": 1, "plies": [black_31, act(1, 21), act(0, 23)]},
    ]);
    let m = read_ogxm(&codec.write(&doc(3, games.clone()))).unwrap();
    assert!(m.games[1].state.is_crawford() && m.games[2].state.is_post_crawford());
    assert_eq!(
        m.games.iter().map(|g| g.result).collect::<Vec<_>>(),
        [Some((Seat::One, 2)), Some((Seat::Zero, 1)), Some((Seat::Zero, 1))]
    );
    // Without the Crawford rule the second game is post-Crawford.
    let mut free = doc(3, games);
    free["crawford"] = json!(false);
    let m = read_ogxm(&codec.write(&free)).unwrap();
    assert!(!m.crawford && m.games[1].state.is_post_crawford());
}
