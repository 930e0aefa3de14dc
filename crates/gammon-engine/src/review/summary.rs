//! Each player's figures summed over the reviewed games.

use super::marks::LuckMark;
use super::report::{CubeErrorKind, GameReview, MatchReview, PlayerSummary};

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

/// One player's figures summed over several reviewed matches (players are
/// matched by name, as a player studies his last hundred matches).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PlayerTotals {
    /// The sums; the rates ([`PlayerSummary::pr`] and the others) are over
    /// every decision of every match.
    pub summary: PlayerSummary,
    /// The matches he played in.
    pub matches: usize,
}

/// Every player of `reviews`, in order of first appearance, with his
/// figures summed over the matches he played.
pub fn totals_by_player<'a>(reviews: impl IntoIterator<Item = &'a MatchReview>) -> Vec<PlayerTotals> {
    let mut totals: Vec<PlayerTotals> = Vec::new();
    for s in reviews.into_iter().flat_map(|r| &r.summary) {
        let index = match totals.iter().position(|t| t.summary.name == s.name) {
            Some(i) => i,
            None => {
                let summary = PlayerSummary { name: s.name.clone(), ..PlayerSummary::default() };
                totals.push(PlayerTotals { summary, matches: 0 });
                totals.len() - 1
            }
        };
        let t = &mut totals[index];
        t.matches += 1;
        add(&mut t.summary, s);
    }
    totals
}

/// `into` plus `s`, field by field.
fn add(into: &mut PlayerSummary, s: &PlayerSummary) {
    into.total_moves += s.total_moves;
    into.unforced_moves += s.unforced_moves;
    into.chequer_error += s.chequer_error;
    into.chequer_error_mwc += s.chequer_error_mwc;
    into.cube_decisions += s.cube_decisions;
    into.close_cube_decisions += s.close_cube_decisions;
    into.cube_error += s.cube_error;
    into.cube_error_mwc += s.cube_error_mwc;
    for (a, b) in [(&mut into.move_marks, &s.move_marks), (&mut into.cube_marks, &s.cube_marks)] {
        a.none += b.none;
        a.doubtful += b.doubtful;
        a.bad += b.bad;
        a.very_bad += b.very_bad;
    }
    for &(kind, n) in &s.cube_errors {
        match into.cube_errors.iter_mut().find(|(have, _)| *have == kind) {
            Some((_, m)) => *m += n,
            None => into.cube_errors.push((kind, n)),
        }
    }
    into.luck += s.luck;
    into.luck_mwc += s.luck_mwc;
    let (a, b) = (&mut into.luck_marks, &s.luck_marks);
    a.very_unlucky += b.very_unlucky;
    a.unlucky += b.unlucky;
    a.lucky += b.lucky;
    a.very_lucky += b.very_lucky;
    into.both_players_moves += s.both_players_moves;
    let (a, b) = (&mut into.stored, &s.stored);
    a.moves += b.moves;
    a.chequer_error += b.chequer_error;
    a.cube_decisions += b.cube_decisions;
    a.cube_error += b.cube_error;
}
