//! Property tests on random positions: the generator against a slow,
//! obviously-correct reference, and the invariants of every result.
#![allow(clippy::unwrap_used)]

use gammon_rules::{parse_move_in, Dice, Position, SideBoard, BAR};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// A random legal board: each side's 15 checkers each go to a slot 0..=25
/// (0 = borne off, 25 = bar); the opponent's checkers that would share a point
/// with the player on roll go to the opponent's bar instead.
fn position_strategy() -> impl Strategy<Value = Position> {
    let spread =
        || prop::collection::vec(prop_oneof![3 => 1u8..=24, 1 => 0u8..=6, 1 => Just(0u8), 1 => Just(25u8)], 15);
    // Bear-off play: nearly every checker home or off, sometimes one straggler.
    let home = || prop::collection::vec(prop_oneof![20 => 0u8..=6, 1 => 7u8..=25], 15);
    prop_oneof![(spread(), spread()), (home(), spread()), (home(), home())].prop_map(|(mine, theirs)| {
        let mut me: SideBoard = [0; 25];
        let mut him: SideBoard = [0; 25];
        for s in mine {
            if s > 0 {
                me[usize::from(s) - 1] += 1;
            }
        }
        for s in theirs {
            if s == 0 {
                continue;
            }
            // His point s is my point 25 - s.
            let blocked = (1..=24).contains(&s) && me[usize::from(25 - s) - 1] > 0;
            let s = if blocked { 25 } else { s };
            him[usize::from(s) - 1] += 1;
        }
        if me.iter().all(|&n| n == 0) && him.iter().all(|&n| n == 0) {
            me[5] = 1;
        }
        Position::from_boards(&me, &him).unwrap()
    })
}

fn dice_strategy() -> impl Strategy<Value = Dice> {
    (1u8..=6, 1u8..=6).prop_map(|(a, b)| Dice::new(a, b).unwrap())
}

/// The reference: plain arrays, every order of single-die steps tried.
/// `me[p]`, `him[p]` hold checkers on *my* point p (1..=24); `me[25]` my bar,
/// `him[0]` his bar.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Plain {
    me: [u8; 26],
    him: [u8; 26],
}

impl Plain {
    fn of(p: &Position) -> Plain {
        let mut me = [0; 26];
        let mut him = [0; 26];
        for i in 0..=25 {
            me[i] = p.my_checkers(i);
            him[i] = p.their_checkers(i);
        }
        Plain { me, him }
    }

    /// Every single step with `die`: (from, resulting board).
    fn steps(&self, die: usize) -> Vec<Plain> {
        let mut out = Vec::new();
        let froms: Vec<usize> =
            if self.me[BAR] > 0 { vec![BAR] } else { (1..=24).filter(|&p| self.me[p] > 0).collect() };
        let all_home = (7..=25).all(|p| self.me[p] == 0);
        for from in froms {
            let mut next = self.clone();
            next.me[from] -= 1;
            if from > die {
                let to = from - die;
                if self.him[to] >= 2 {
                    continue;
                }
                if self.him[to] == 1 {
                    next.him[to] = 0;
                    next.him[0] += 1;
                }
                next.me[to] += 1;
            } else {
                let highest = (1..=6).rev().find(|&p| self.me[p] > 0).unwrap_or(0);
                if !all_home || (from < die && from != highest) {
                    continue;
                }
            }
            out.push(next);
        }
        out
    }

    /// Finished positions with the number of dice used, for dice in `order`.
    fn play(&self, order: &[usize], used: usize, out: &mut Vec<(usize, usize, Plain)>) {
        let next = if order.is_empty() { Vec::new() } else { self.steps(order[0]) };
        if next.is_empty() {
            out.push((used, order.first().copied().unwrap_or(0), self.clone()));
            return;
        }
        for n in next {
            n.play(&order[1..], used + 1, out);
        }
    }
}

/// The legal results by the rules as written: play the dice in every order,
/// keep the plays that use the most dice; if only one die can be used, the
/// larger one when it can be.
fn reference(pos: &Position, dice: Dice) -> BTreeSet<Plain> {
    let (h, l) = (usize::from(dice.high()), usize::from(dice.low()));
    let orders: Vec<Vec<usize>> = if h == l { vec![vec![h; 4]] } else { vec![vec![h, l], vec![l, h]] };
    let start = Plain::of(pos);
    let mut all = Vec::new();
    for order in &orders {
        // Record which die was played first, for the larger-die rule.
        let mut out = Vec::new();
        start.play(order, 0, &mut out);
        all.extend(out.into_iter().map(|(used, _, p)| (used, order[0], p)));
    }
    let most = all.iter().map(|x| x.0).max().unwrap_or(0);
    if most == 0 {
        return BTreeSet::new();
    }
    let mut keep: Vec<_> = all.into_iter().filter(|x| x.0 == most).collect();
    if most == 1 && h != l && keep.iter().any(|x| x.1 == h) {
        keep.retain(|x| x.1 == h);
    }
    keep.into_iter().map(|x| x.2).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn generator_equals_reference(pos in position_strategy(), dice in dice_strategy()) {
        let list = pos.legal_moves(dice);
        let ours: BTreeSet<Plain> = list.positions().iter().map(|p| Plain::of(&p.switched())).collect();
        prop_assert_eq!(ours.len(), list.len(), "each result once");
        let expected = reference(&pos, dice);
        prop_assert!(ours == expected, "{} {}: {} results, reference {}", pos.to_position_id(), dice, ours.len(), expected.len());
    }

    #[test]
    fn results_keep_invariants(pos in position_strategy(), dice in dice_strategy()) {
        let list = pos.legal_moves(dice);
        let (my_pips, his_pips) = pos.pip_count();
        for (m, after) in list.iter() {
            prop_assert!(after.is_consistent());
            let mover = after.switched();
            // 15 checkers a side, counting those borne off.
            let (a, b) = mover.checkers_in_play();
            let (off_a, off_b) = mover.borne_off();
            prop_assert_eq!((a + off_a, b + off_b), (15, 15));
            prop_assert_eq!(m.steps().len(), usize::from(list.dice_used()));
            // Pips fall by exactly the distance of the steps; each step is a
            // die, or less when bearing off with a larger die.
            let moved: u32 = m.steps().iter().map(|s| u32::from(s.from - s.to)).sum();
            let (new_my, new_his) = mover.pip_count();
            prop_assert_eq!(my_pips - new_my, moved);
            for s in m.steps() {
                let d = s.from - s.to;
                prop_assert!(d == dice.high() || d == dice.low() || (s.to == 0 && d < dice.high()));
            }
            // The opponent loses nothing, gains pips only by being hit.
            prop_assert!(new_his >= his_pips);
            // The move's notation, both styles, reads back to the same result.
            let text = pos.format_move(&m);
            prop_assert_eq!(parse_move_in(&pos, dice, &text, &list).map(|x| x.1), Ok(after), "{}", text);
            prop_assert_eq!(parse_move_in(&pos, dice, &m.to_ubgi(true), &list).map(|x| x.1), Ok(after));
        }
    }

    #[test]
    fn switching_and_ids_round_trip(pos in position_strategy()) {
        prop_assert_eq!(pos.switched().switched(), pos);
        prop_assert!(pos.switched().is_consistent());
        let (me, him) = pos.to_boards();
        prop_assert_eq!(pos.switched().to_boards(), (him, me));
        prop_assert_eq!(Position::from_boards(&me, &him), Ok(pos));
        prop_assert_eq!(Position::from_position_id(&pos.to_position_id()), Ok(pos));
        let (a, b) = pos.pip_count();
        prop_assert_eq!(pos.switched().pip_count(), (b, a));
    }

    #[test]
    fn position_id_parser_never_panics(s in "[A-Za-z0-9+/]{14}") {
        if let Ok(p) = Position::from_position_id(&s) {
            prop_assert_eq!(p.to_position_id(), s);
        }
    }
}
