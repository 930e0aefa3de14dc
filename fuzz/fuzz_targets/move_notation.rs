//! Move notation parser: never panics; an accepted move is one of the legal
//! results. The first 10 bytes choose a position (as a Position ID) and the
//! dice, the rest is the move text.
#![no_main]
use gammon_rules::{parse_move_in, Dice, Position};
use libfuzzer_sys::fuzz_target;

const POSITIONS: [&str; 6] =
    ["4HPwATDgc/ABMA", "2zYAGAA8Bx8ADg", "kiSJBFQlJUmSAA", "AwAAEAEAAAAAAA", "27YBAAA8Dz4ADA", "3B0AsMH/DyAAAA"];

fuzz_target!(|data: &[u8]| {
    let [a, b, c, rest @ ..] = data else { return };
    let Ok(pos) = Position::from_position_id(POSITIONS[usize::from(*a) % POSITIONS.len()]) else { return };
    let Ok(dice) = Dice::new(b % 6 + 1, c % 6 + 1) else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let list = pos.legal_moves(dice);
    if let Ok((_, after)) = parse_move_in(&pos, dice, text, &list) {
        assert!(list.positions().contains(&after) || (list.is_empty() && after == pos.switched()));
    }
});
