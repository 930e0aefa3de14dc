//! An OGXM analysis block (`ANAL` + `DECS`) as gammon's [`StoredAnalysis`],
//! keyed by the replayed records, in gammon's units.
//!
//! Units: a block's `currency` says what its equities are. Cubeful money
//! (1) is already normalised per cube and is kept; cubeful match (2) is
//! match winning chances, turned into EMG through the decider's frame at
//! the game's score and the cube (see `met`), with the table the caller gives
//! (without one, a match block is not read). Cubeless blocks (0) and
//! unknown currencies are not read. Probabilities are v2's five cumulative
//! outputs, as gammon keeps them; a cube record on an answer (take, drop,
//! beaver) states them for the answerer and is turned to the doubler's.

use super::decode::{Anal, Decision, Level};
use super::met::Frame;
use super::read::{mover_step, PlyMap};
use crate::mat::write::steps_text;
use crate::{
    parse_move, GameText, MatAction, MatEntry, MatchEquity, MatchRecord, Seat, StoredAnalysis, StoredCandidate,
    StoredCube, StoredMove,
};

pub(crate) const MONEY: u32 = 1;
pub(crate) const MATCH: u32 = 2;

/// The first block in a currency gammon reads, as a [`StoredAnalysis`] of
/// the replayed `record`; `None` when there is none, or when it is in match
/// winning chances and no table (`equity`) turns them into EMG.
pub(crate) fn stored(
    blocks: &[Anal],
    map: &PlyMap,
    record: &MatchRecord,
    equity: Option<&dyn MatchEquity>,
) -> Option<StoredAnalysis> {
    let default = if record.match_length == 0 { MONEY } else { MATCH };
    let block = blocks.iter().find(|b| matches!(b.currency.unwrap_or(default), MONEY | MATCH))?;
    let in_mwc = block.currency.unwrap_or(default) == MATCH && record.match_length > 0;
    let table = if in_mwc { Some(equity?) } else { None };
    let program = block.model_name.clone().or_else(|| block.model_id.clone()).unwrap_or_else(|| "OGXM".into());
    let mut out = StoredAnalysis { program, records: Default::default() };
    for d in &block.decisions {
        let ply_ref = match d {
            Decision::Checker { ply_ref, .. } | Decision::Cube { ply_ref, .. } => *ply_ref,
            Decision::Other => continue,
        };
        // A decision on a ply that was not replayed (or has no action) is dropped.
        let Some(&Some((g, a))) = usize::try_from(ply_ref).ok().and_then(|r| map.get(r)) else { continue };
        let Some(game) = record.games.get(g) else { continue };
        let Some(entry) = game.records.get(a) else { continue };
        let conv = Conv { game, entry, table };
        match d {
            Decision::Checker { alternatives, level, .. } => {
                let level = level.as_ref().map_or_else(|| block.level.clone(), |l| l.over(&block.level));
                if let Some(m) = conv.chequer(alternatives, &level) {
                    out.records.entry((g, a)).or_default().chequer = Some(m);
                }
            }
            Decision::Cube { no_double, double_take, double_pass, probs, level, .. } => {
                let level = level.as_ref().map_or_else(|| block.level.clone(), |l| l.over(&block.level));
                if let Some(c) = conv.cube([*no_double, *double_take, *double_pass], *probs, &level) {
                    out.records.entry((g, a)).or_default().cube = Some(c);
                }
            }
            Decision::Other => {}
        }
    }
    Some(out)
}

/// The depth as gammon names it: a rollout, the program's preset, or the
/// ply count v2 states (gnubg's counting).
pub(crate) fn depth(level: &Level, ply: Option<u32>) -> String {
    if level.rollout {
        "rollout".into()
    } else if let Some(p) = &level.preset {
        p.clone()
    } else if let Some(n) = ply {
        format!("{n}-ply")
    } else {
        String::new()
    }
}

/// `p` seen by the other player.
pub(crate) fn mirrored(p: [f64; 5]) -> [f64; 5] {
    [1.0 - p[0], p[3], p[4], p[1], p[2]]
}

/// The EMG frame of `decider` before `entry` (the cube before it), by
/// `equity`; `None` in money play.
pub(crate) fn frame<'a>(
    game: &GameText,
    entry: &MatEntry,
    decider: Seat,
    equity: &'a dyn MatchEquity,
) -> Option<Frame<'a>> {
    let away = game.state.away()?;
    let i = decider.index();
    Some(Frame { equity, away: (away[i], away[1 - i]), crawford: game.state.is_crawford(), cube: entry.cube.value })
}

struct Conv<'a> {
    game: &'a GameText,
    entry: &'a MatEntry,
    /// The table of a block in match winning chances; `None`: money.
    table: Option<&'a dyn MatchEquity>,
}

impl Conv<'_> {
    fn to_emg(&self, decider: Seat, v: f64) -> f64 {
        match self.table.and_then(|t| frame(self.game, self.entry, decider, t)) {
            Some(f) => f.emg(v),
            None => v,
        }
    }

    fn chequer(&self, alternatives: &[super::decode::Alternative], level: &Level) -> Option<StoredMove> {
        let MatAction::Move { dice, mv, .. } = &self.entry.action else { return None };
        let pos = &self.entry.position;
        let seat = self.entry.player.index();
        let played_after = parse_move(pos, *dice, &steps_text(pos, &mv_steps(mv))).ok().map(|(_, a)| a.switched());
        let mut candidates = Vec::with_capacity(alternatives.len());
        let mut played = None;
        for alt in alternatives {
            let steps: Vec<(u8, u8)> = alt.steps.iter().map(|&s| mover_step(seat, s)).collect();
            // A candidate that is not a legal play of the roll is dropped.
            let Ok((_, after)) = parse_move(pos, *dice, &steps_text(pos, &steps)) else { continue };
            let after = after.switched();
            if alt.played || (played.is_none() && Some(after) == played_after) {
                played = Some(candidates.len());
            }
            let lv = alt.level.as_ref().map_or_else(|| level.clone(), |l| l.over(level));
            candidates.push(StoredCandidate {
                after,
                equity: self.to_emg(self.entry.player, alt.equity),
                probabilities: alt.probs,
                depth: depth(&lv, lv.checker_ply),
            });
        }
        (!candidates.is_empty()).then_some(StoredMove { candidates, played })
    }

    fn cube(&self, values: [f64; 3], probs: Option<[f64; 5]>, level: &Level) -> Option<StoredCube> {
        // The doubler: the mover, or the one answered.
        let (doubler, answer) = match self.entry.action {
            MatAction::Move { .. } | MatAction::Dance { .. } | MatAction::Double { .. } => (self.entry.player, false),
            MatAction::Take | MatAction::Drop | MatAction::Beaver => (self.entry.player.other(), true),
            _ => return None,
        };
        let [no_double, double_take, double_pass] = values.map(|v| self.to_emg(doubler, v));
        Some(StoredCube {
            no_double,
            double_take,
            double_pass,
            probabilities: probs.map(|p| if answer { mirrored(p) } else { p }),
            depth: depth(level, level.cube_ply),
        })
    }
}

fn mv_steps(mv: &crate::Move) -> Vec<(u8, u8)> {
    mv.steps().iter().map(|s| (s.from, s.to)).collect()
}
