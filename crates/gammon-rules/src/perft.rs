//! `perft`: counting positions reachable over all 21 rolls, to test and
//! time the move generator.

use crate::dice::ALL_ROLLS;
use crate::movegen::MoveList;
use crate::position::Position;

/// Counts the resulting positions over all 21 rolls to `depth` plies (one
/// ply = one roll of the side on roll). A roll with no legal move counts as
/// one result (the unchanged position, turn passed), as wildbg counts.
/// Rolls are not weighted by probability; positions are not merged across
/// rolls or plies. Finished games are leaves.
///
/// ```
/// use gammon_rules::{perft, Position};
/// assert_eq!(perft(&Position::STARTING, 0), 1);
/// assert_eq!(perft(&Position::STARTING, 1), 447);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    perft_with(pos, depth, &mut lists)
}

fn perft_with(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((list, rest)) = lists.split_first_mut() else {
        return 1;
    };
    if pos.game_result().is_some() {
        return 1;
    }
    let mut total = 0;
    for dice in ALL_ROLLS {
        list.generate(pos, dice);
        if list.is_empty() {
            total += if depth == 1 { 1 } else { perft_with(&pos.switched(), depth - 1, rest) };
            continue;
        }
        if depth == 1 {
            total += list.len() as u64;
        } else {
            for i in 0..list.len() {
                let next = list.positions()[i];
                total += perft_with(&next, depth - 1, rest);
            }
        }
    }
    total
}
