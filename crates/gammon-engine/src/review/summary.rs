//! Each player's figures summed over the reviewed games.

use super::marks::LuckMark;
use super::report::{CubeErrorKind, GameReview, PlayerSummary};

/// The summaries of both players (index = seat).
pub(super) fn summarise(players: &[String; 2], games: &[GameReview]) -> [PlayerSummary; 2] {
    let mut out = [PlayerSummary::default(), PlayerSummary::default()];
    for (s, name) in out.iter_mut().zip(players) {
        s.name.clone_from(name);
    }
    let mut kinds: [Vec<(CubeErrorKind, usize)>; 2] = [Vec::new(), Vec::new()];
    for r in games.iter().flat_map(|g| &g.records) {
        let s = &mut out[r.player.index()];
        if let Some(luck) = &r.luck {
            s.total_moves += 1;
            s.luck += luck.luck;
            s.luck_mwc += luck.luck_mwc.unwrap_or(0.0);
            match luck.mark {
                LuckMark::VeryUnlucky => s.luck_marks.very_unlucky += 1,
                LuckMark::Unlucky => s.luck_marks.unlucky += 1,
                LuckMark::Lucky => s.luck_marks.lucky += 1,
                LuckMark::VeryLucky => s.luck_marks.very_lucky += 1,
                LuckMark::None => {}
            }
        }
        if let Some(c) = r.chequer.as_ref().filter(|c| !c.forced) {
            s.unforced_moves += 1;
            s.chequer_error += c.loss;
            s.chequer_error_mwc += c.loss_mwc.unwrap_or(0.0);
            s.move_marks.add(c.mark);
        }
        if let Some(stored) = &r.stored {
            let unforced = r.chequer.as_ref().is_some_and(|c| !c.forced);
            if let Some(loss) = stored.loss.filter(|_| unforced) {
                s.stored.moves += 1;
                s.stored.chequer_error += loss;
            }
            let close = r.cube.as_ref().is_some_and(|c| c.close);
            if let Some(error) = stored.cube_error.filter(|_| close) {
                s.stored.cube_decisions += 1;
                s.stored.cube_error += error;
            }
        }
        if let Some(c) = &r.cube {
            s.cube_decisions += 1;
            s.cube_error += c.error;
            s.cube_error_mwc += c.error_mwc.unwrap_or(0.0);
            if c.close {
                s.close_cube_decisions += 1;
                s.cube_marks.add(c.mark);
            }
            if let Some(kind) = c.kind {
                let k = &mut kinds[r.player.index()];
                match k.iter_mut().find(|(have, _)| *have == kind) {
                    Some((_, n)) => *n += 1,
                    None => k.push((kind, 1)),
                }
            }
        }
    }
    let both = out[0].total_moves + out[1].total_moves;
    for (s, k) in out.iter_mut().zip(kinds) {
        s.both_players_moves = both;
        s.cube_errors = k;
    }
    out
}
