//! The step orders of every legal move, on GNU Backgammon's positions:
//! each order, played by plain counting, gives the move's result; a hit is
//! flagged exactly where an opposing blot stood; the dice add up.

use gammon_rules::{step_orders, Dice, PlayedStep, Position};
use gammon_testkit::{read_oracle, MovegenFull};

/// Plays `steps` by counting checkers, no rules: the position after them,
/// seen by the opponent, or a complaint.
fn count_out(pos: &Position, steps: &[PlayedStep]) -> Result<Position, String> {
    let (mut me, mut him) = pos.to_boards();
    for s in steps {
        let (from, to) = (usize::from(s.from), usize::from(s.to));
        if me[from - 1] == 0 {
            return Err(format!("no checker on {from} for {s:?}"));
        }
        let blot = to > 0 && him[24 - to] == 1;
        if s.hit != blot {
            return Err(format!("{s:?}: a blot stood there: {blot}"));
        }
        let pips_ok = if to == 0 { s.die >= s.from } else { s.die == s.from - s.to };
        if !pips_ok {
            return Err(format!("{s:?}: the die does not take it there"));
        }
        me[from - 1] -= 1;
        if to > 0 {
            me[to - 1] += 1;
            if blot {
                him[24 - to] = 0;
                him[24] += 1;
            }
        }
    }
    Position::from_boards(&him, &me).map_err(|e| e.to_string())
}

#[test]
fn every_order_plays_its_move_with_the_roll() {
    let records: Vec<MovegenFull> = read_oracle("movegen_full.jsonl");
    let (mut moves, mut orders, mut hits) = (0usize, 0usize, 0usize);
    for r in &records {
        let pos = Position::from_position_id(&r.pos).unwrap();
        let dice = Dice::new(r.dice[0], r.dice[1]).unwrap();
        let list = pos.legal_moves(dice);
        let graph = pos.step_graph(dice, list.dice_used(), list.iter());
        assert_eq!(graph.is_empty(), list.is_empty(), "{} {dice}", r.pos);
        if graph.is_empty() {
            continue;
        }
        let all = step_orders(&graph, list.len());
        let roll = if dice.is_double() { vec![dice.high(); 4] } else { vec![dice.low(), dice.high()] };
        // A node that completes a move ends the play.
        assert!(graph.iter().all(|n| n.completes.is_none() || n.steps.is_empty()), "{} {dice}", r.pos);
        for ((mv, result), move_orders) in list.iter().zip(&all) {
            assert!(!move_orders.is_empty(), "{} {dice} {mv:?}: no order", r.pos);
            moves += 1;
            // The move's own order is one of them, as replayed.
            let own = pos.replay_move(dice, &mv).unwrap_or_else(|| panic!("{} {dice} {mv:?} does not replay", r.pos));
            // (A higher die bearing off may stand for the exact one.)
            let squares = |o: &[PlayedStep]| o.iter().map(|s| (s.from, s.to, s.hit)).collect::<Vec<_>>();
            assert!(
                move_orders.iter().any(|o| squares(o) == squares(&own)),
                "{} {dice} {mv:?}: {move_orders:?}",
                r.pos
            );
            for order in move_orders {
                orders += 1;
                hits += order.iter().filter(|s| s.hit).count();
                let after = count_out(&pos, order).unwrap_or_else(|e| panic!("{} {dice} {order:?}: {e}", r.pos));
                assert_eq!(after, result, "{} {dice} {order:?}", r.pos);
                // Each die of the roll once (the larger one alone where
                // only one can be played, unless only the smaller can).
                let mut left = roll.clone();
                for s in order {
                    let i = left.iter().position(|&d| d == s.die);
                    left.remove(i.unwrap_or_else(|| panic!("{} {dice} {order:?}: a die twice", r.pos)));
                }
                // Short only when the last checker is off and the game over.
                let over = after.checkers_in_play().1 == 0;
                assert!(order.len() == usize::from(list.dice_used()) || over, "{} {dice} {order:?}", r.pos);
            }
        }
    }
    // Most moves have more than one order, and many hit.
    assert!(moves > 10_000 && orders > moves * 3 / 2 && hits > 1000, "{moves} moves, {orders} orders, {hits} hits");
}
