use super::*;

#[test]
fn opening_31_has_16_results() {
    let list = Position::STARTING.legal_moves(Dice::new(3, 1).unwrap());
    assert_eq!(list.len(), 16);
    let ids: Vec<String> = list.positions().iter().map(Position::to_position_id).collect();
    assert!(ids.contains(&"sGfwATDgc/ABMA".to_string()));
}

#[test]
fn results_are_consistent() {
    for dice in crate::ALL_ROLLS {
        for p in Position::STARTING.legal_moves(dice).positions() {
            assert!(p.is_consistent());
        }
    }
}

/// The straightforward generator this one replaced, kept as a reference
/// for the exact output: every die order played on the mover's own board
/// with [`legal_sources`] and [`Position::apply_step`], every result
/// merged with a set, switched at the end.
mod reference {
    use super::super::legal_sources;
    use crate::{Dice, Move, Position, BAR};
    use std::collections::HashSet;

    #[derive(Default)]
    pub struct Out {
        pub positions: Vec<Position>,
        pub moves: Vec<Move>,
        pub dice_used: u8,
        seen: HashSet<Position>,
    }

    impl Out {
        fn insert(&mut self, pos: Position, m: Move) {
            if self.seen.insert(pos) {
                self.positions.push(pos);
                self.moves.push(m);
            }
        }

        fn record_partial(&mut self, pos: Position, m: Move, used: u8) {
            if used > self.dice_used {
                self.positions.clear();
                self.moves.clear();
                self.dice_used = used;
            }
            if used == self.dice_used {
                self.insert(pos, m);
            }
        }

        fn doubles(&mut self, pos: Position, die: u8, depth: u8, max_from: usize, m: Move) {
            let mut sources = legal_sources(&pos, die) & ((2u32 << max_from) - 1);
            if sources == 0 {
                if depth > 0 {
                    self.record_partial(pos, m, depth);
                }
                return;
            }
            while sources != 0 {
                let from = 31 - sources.leading_zeros() as usize;
                sources &= !(1 << from);
                let mut p = pos;
                let to = from.saturating_sub(usize::from(die));
                p.apply_step(from, to);
                let m2 = m.with_step(from, to);
                if depth == 3 {
                    self.record_partial(p, m2, 4);
                } else {
                    self.doubles(p, die, depth + 1, from, m2);
                }
            }
        }
    }

    fn sources(pos: &Position, die: u8) -> impl Iterator<Item = usize> {
        let s = legal_sources(pos, die);
        (1..=25).filter(move |i| s & (1 << i) != 0)
    }

    pub fn generate(pos: &Position, dice: Dice) -> Out {
        let mut out = Out::default();
        let (high, low) = (dice.high(), dice.low());
        if dice.is_double() {
            out.doubles(*pos, high, 0, BAR, Move::NONE);
        } else {
            for (first, second) in [(high, low), (low, high)] {
                for from in sources(pos, first) {
                    let mut p1 = *pos;
                    let to = from.saturating_sub(usize::from(first));
                    p1.apply_step(from, to);
                    for from2 in sources(&p1, second) {
                        let mut p2 = p1;
                        let to2 = from2.saturating_sub(usize::from(second));
                        p2.apply_step(from2, to2);
                        out.insert(p2, Move::NONE.with_step(from, to).with_step(from2, to2));
                    }
                }
            }
            out.dice_used = if out.positions.is_empty() { 0 } else { 2 };
            if out.positions.is_empty() {
                if let Some(die) = [high, low].into_iter().find(|&d| legal_sources(pos, d) != 0) {
                    for from in sources(pos, die) {
                        let mut p = *pos;
                        let to = from.saturating_sub(usize::from(die));
                        p.apply_step(from, to);
                        out.insert(p, Move::NONE.with_step(from, to));
                    }
                    out.dice_used = 1;
                }
            }
        }
        for p in &mut out.positions {
            *p = p.switched();
        }
        out
    }
}

/// Same results, same moves, same order and dice used as the reference.
fn check_all_rolls(pos: &Position, list: &mut MoveList) {
    for dice in crate::ALL_ROLLS {
        list.generate(pos, dice);
        let want = reference::generate(pos, dice);
        assert_eq!(list.positions(), &want.positions[..], "{pos:?} {dice}");
        assert_eq!(list.moves(), &want.moves[..], "{pos:?} {dice}");
        assert_eq!(list.dice_used(), want.dice_used, "{pos:?} {dice}");
    }
}

#[test]
fn same_output_as_the_reference_on_benchmark_and_oracle_positions() {
    let mut list = MoveList::new();
    let mut n = 0;
    for file in ["bench/contact-1000.txt", "bench/race-1000.txt"] {
        for line in gammon_testkit::read_shared(file).lines() {
            check_all_rolls(&Position::from_position_id(line.trim()).unwrap(), &mut list);
            n += 1;
        }
    }
    let records: Vec<gammon_testkit::MovegenDigest> = gammon_testkit::read_oracle("movegen_digest.jsonl");
    for r in &records {
        check_all_rolls(&Position::from_position_id(&r.pos).unwrap(), &mut list);
        n += 1;
    }
    assert!(n > 3000);
}

/// New lists take the buffers (and the dedup table) of dropped ones:
/// still the reference's results, with several lists alive at once.
#[test]
fn reused_buffers_give_the_same_results() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut kept = Vec::new();
    for i in 0..300 {
        let mut list = MoveList::new();
        assert!(list.positions().is_empty() && list.moves().is_empty());
        check_all_rolls(&random_position(&mut rng), &mut list);
        if i % 3 == 0 {
            kept.push(list);
        }
        if kept.len() > 5 {
            kept.clear();
        }
    }
}

/// A random board: each side's checkers on random slots, biased per
/// board towards the bar, the home board or bearing off.
fn random_position(rng: &mut rand_chacha::ChaCha8Rng) -> Position {
    use rand::RngExt;
    let mut me = [0u8; 25];
    let mut him = [0u8; 25];
    // 0: anywhere, 1: mostly home or off, 2: many on the bar.
    let style: [u8; 2] = [rng.random_range(0..3), rng.random_range(0..3)];
    for (side, board) in [&mut me, &mut him].into_iter().enumerate() {
        let checkers = rng.random_range(1..=15);
        for _ in 0..checkers {
            let slot: usize = match style[side] {
                1 if rng.random_range(0..10) > 0 => rng.random_range(0..=6),
                2 if rng.random_range(0..4) == 0 => 25,
                _ => rng.random_range(0..=25),
            };
            if slot > 0 {
                board[slot - 1] += 1;
            }
        }
    }
    // His checkers sharing a point with mine go to his bar.
    for p in 1..=24 {
        if me[p - 1] > 0 && him[24 - p] > 0 {
            him[24] += him[24 - p];
            him[24 - p] = 0;
        }
    }
    if me.iter().all(|&n| n == 0) && him.iter().all(|&n| n == 0) {
        me[5] = 1;
    }
    Position::from_boards(&me, &him).unwrap()
}

#[test]
fn same_output_as_the_reference_on_random_positions() {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
    let mut list = MoveList::new();
    for _ in 0..20_000 {
        let pos = random_position(&mut rng);
        check_all_rolls(&pos, &mut list);
        check_all_rolls(&pos.switched(), &mut list);
    }
}
