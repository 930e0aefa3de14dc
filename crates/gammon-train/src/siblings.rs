//! Sibling groups: which sampled positions are results of the same roll.
//!
//! `gammon label sample --afterstates N` keeps, of every move of its
//! self-play games, the N best results by the net (within a window of the
//! best): close alternatives of one choice. The positions file does not say
//! which positions share a roll; [`sample_grouped`] (the sampler of
//! [`crate::distill`]) gives the very same positions as
//! [`sample_afterstates_within`](crate::distill::sample_afterstates_within)
//! with each position's roll numbered, so that the groups of a chunk can be
//! regenerated from its seed. A groups file ([`groups_text`], [`read_groups`]) holds one line
//! per position of the positions file, `GROUP<TAB>Position ID`, with the
//! groups numbered from 0 in file order.

use gammon_eval::file_format::{self, FileError};
use gammon_rules::Position;
use std::path::Path;
use thiserror::Error;

/// The largest groups file read, 512 MiB.
pub const MAX_GROUPS_FILE_BYTES: u64 = 512 << 20;

/// Sampled positions with the roll each is a result of.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grouped {
    /// The positions, as the sampler writes them.
    pub positions: Vec<Position>,
    /// `groups[i]`: the roll `positions[i]` is a result of, numbered from 0
    /// in order (the positions of one roll are consecutive).
    pub groups: Vec<u32>,
}

impl Grouped {
    /// Keeps the positions `keep` accepts (with their groups).
    pub fn retain(&mut self, mut keep: impl FnMut(&Position) -> bool) {
        let kept: Vec<(Position, u32)> =
            self.positions.iter().zip(&self.groups).filter(|(p, _)| keep(p)).map(|(p, g)| (*p, *g)).collect();
        (self.positions, self.groups) = kept.into_iter().unzip();
    }

    /// Keeps the first `n` positions.
    pub fn truncate(&mut self, n: usize) {
        self.positions.truncate(n);
        self.groups.truncate(n);
    }

    /// The span of each roll's positions, in order.
    pub fn rolls(&self) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let mut start = 0;
        self.groups.chunk_by(|a, b| a == b).map(move |run| {
            start += run.len();
            start - run.len()..start
        })
    }

    /// Keeps the whole rolls of the first `n` positions: a roll cut by `n`
    /// goes.
    pub fn truncate_to_whole_rolls(&mut self, n: usize) {
        if n < self.groups.len() {
            let cut = self.groups[n];
            let keep = self.groups[..n].iter().rposition(|&g| g != cut).map_or(0, |i| i + 1);
            self.truncate(keep);
        }
    }

    /// Drops the last roll (which a sample of a set count may have cut).
    pub fn drop_last_roll(&mut self) {
        if let Some(&last) = self.groups.last() {
            let keep = self.groups.iter().rposition(|&g| g != last).map_or(0, |i| i + 1);
            self.truncate(keep);
        }
    }
}

pub use crate::distill::sample_grouped;

/// The text of a groups file for `grouped`, with `header` as comment lines
/// first.
pub fn groups_text(header: &str, grouped: &Grouped) -> String {
    let mut s = String::with_capacity(grouped.positions.len() * 22 + header.len() + 8);
    for line in header.lines() {
        s.push_str("# ");
        s.push_str(line);
        s.push('\n');
    }
    for (p, g) in grouped.positions.iter().zip(&grouped.groups) {
        s.push_str(&g.to_string());
        s.push('\t');
        s.push_str(&p.to_position_id());
        s.push('\n');
    }
    s
}

/// A line of a groups file that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GroupsError {
    /// Not `GROUP<TAB>Position ID`.
    #[error("line {line}: {text:?} is not `GROUP<TAB>Position ID` ({reason})")]
    Line {
        /// Line number, from 1.
        line: usize,
        /// The text.
        text: String,
        /// Why not.
        reason: String,
    },
    /// A group number lower than the one before: the groups of a file are
    /// numbered in order.
    #[error("line {line}: group {group} after group {before} (groups are numbered in file order)")]
    Order {
        /// Line number, from 1.
        line: usize,
        /// The group.
        group: u32,
        /// The group of the line before.
        before: u32,
    },
}

/// The groups of a groups file's text (see [`read_groups`]).
///
/// # Errors
/// [`GroupsError`] for the first bad line.
pub fn parse_groups(text: &str) -> Result<Grouped, GroupsError> {
    let mut out = Grouped::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |reason: String| GroupsError::Line { line: n + 1, text: line.chars().take(40).collect(), reason };
        let (g, id) = line.split_once('\t').ok_or_else(|| bad("no tab".into()))?;
        let group: u32 = g.trim().parse().map_err(|e| bad(format!("group: {e}")))?;
        let pos = Position::from_position_id(id.trim()).map_err(|e| bad(e.to_string()))?;
        if let Some(&before) = out.groups.last() {
            if group < before {
                return Err(GroupsError::Order { line: n + 1, group, before });
            }
        }
        out.positions.push(pos);
        out.groups.push(group);
    }
    Ok(out)
}

/// Reads a groups file (`gammon label sample --groups`): `# ` comment
/// lines, then `GROUP<TAB>Position ID` per position of its positions file.
///
/// # Errors
/// Unreadable, too large, not UTF-8, or a bad line (the error names it).
pub fn read_groups(path: &Path) -> Result<Grouped, FileError> {
    let text = file_format::read_text(path, MAX_GROUPS_FILE_BYTES)?;
    parse_groups(&text).map_err(|e| FileError::in_file(path, FileError::Invalid(e.to_string())))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::distill::{sample_afterstates_within, sample_positions};
    use gammon_eval::NetWeights;

    #[test]
    fn the_grouped_sampler_draws_the_same_positions_and_numbers_them_in_order() {
        let w = NetWeights::random(8, 8, 3);
        for (count, seed, explore, n, window) in
            [(300, 9, 0.0, 4, f32::INFINITY), (400, 3, 0.1, 4, 0.1), (250, 7, 0.3, 2, 0.02), (120, 1, 0.1, 1, 0.1)]
        {
            let g = sample_grouped(&w, count, seed, explore, n, window);
            assert_eq!(g.positions, sample_afterstates_within(&w, count, seed, explore, n, window), "seed {seed}");
            assert_eq!(g.groups.len(), g.positions.len());
            // Numbered from 0, in order, without gaps, at most n a roll.
            assert_eq!(g.groups[0], 0);
            assert!(g.groups.windows(2).all(|p| p[1] == p[0] || p[1] == p[0] + 1), "seed {seed}");
            let mut run = 1;
            for p in g.groups.windows(2) {
                run = if p[1] == p[0] { run + 1 } else { 1 };
                assert!(run <= n, "seed {seed}: more than {n} results in group {}", p[1]);
            }
        }
    }

    #[test]
    fn a_group_is_the_kept_results_of_one_roll() {
        let w = NetWeights::random(8, 8, 3);
        let g = sample_grouped(&w, 300, 9, 0.0, 3, f32::INFINITY);
        // Numbered from 0, in order, without gaps, at most 3 a roll.
        assert_eq!(g.groups[0], 0);
        assert!(g.groups.windows(2).all(|p| p[1] == p[0] || p[1] == p[0] + 1));
        let last = *g.groups.last().unwrap() as usize;
        let sizes: Vec<usize> = (0..=last).map(|k| g.groups.iter().filter(|&&x| x as usize == k).count()).collect();
        assert!(sizes.iter().all(|&s| (1..=3).contains(&s)), "{sizes:?}");
        assert!(sizes.iter().filter(|&&s| s == 3).count() > sizes.len() / 2, "most rolls have 3 results: {sizes:?}");
        // Without exploration each game plays the best result; the next
        // group's results are moves from the one played, the best of the
        // group before: the first of each group is the played position.
        let played = sample_positions(&w, 30, 9, 0.0);
        let firsts: Vec<Position> =
            (0..=last).map(|k| g.positions[g.groups.iter().position(|&x| x as usize == k).unwrap()]).collect();
        assert_eq!(firsts[0], played[1]);
        assert_eq!(firsts[1], played[2]);
    }

    #[test]
    fn groups_files_round_trip_and_name_a_bad_line() {
        let w = NetWeights::random(8, 8, 3);
        let mut g = sample_grouped(&w, 40, 2, 0.1, 4, 0.1);
        let text = groups_text("made by a test\nseed 2", &g);
        assert!(text.starts_with("# made by a test\n# seed 2\n"));
        assert_eq!(parse_groups(&text).unwrap(), g);
        let first = g.positions[0];
        g.retain(|p| *p != first);
        assert!(g.positions.len() < 40 && g.groups.len() == g.positions.len());
        let err = parse_groups("0\t4HPwATDgc/ABMA\n1 4HPwATDgc/ABMA\n").unwrap_err().to_string();
        assert!(err.starts_with("line 2: \"1 4HPwATDgc/ABMA\" is not `GROUP<TAB>Position ID` (no tab)"), "{err}");
        let err = parse_groups("3\t4HPwATDgc/ABMA\n2\t4HPwATDgc/ABMA\n").unwrap_err();
        assert_eq!(err, GroupsError::Order { line: 2, group: 2, before: 3 });
        assert!(parse_groups("x\t4HPwATDgc/ABMA\n").unwrap_err().to_string().contains("group:"));
        assert!(parse_groups("0\tnot-an-id\n").is_err());
    }

    #[test]
    fn whole_rolls_are_kept_or_dropped_whole() {
        let p = Position::STARTING;
        let grouped = |groups: &[u32]| Grouped { positions: vec![p; groups.len()], groups: groups.to_vec() };
        let mut g = grouped(&[0, 0, 1, 1, 1, 4]);
        g.truncate_to_whole_rolls(4);
        assert_eq!(g.groups, [0, 0]);
        let mut g = grouped(&[0, 0, 1, 1, 1, 4]);
        g.truncate_to_whole_rolls(5);
        assert_eq!(g.groups, [0, 0, 1, 1, 1]);
        let mut g = grouped(&[0, 0, 1]);
        g.truncate_to_whole_rolls(9);
        assert_eq!(g.groups, [0, 0, 1]);
        let mut g = grouped(&[3, 3, 3]);
        g.truncate_to_whole_rolls(2);
        assert!(g.groups.is_empty() && g.positions.is_empty());
        let mut g = grouped(&[0, 2, 2]);
        g.drop_last_roll();
        assert_eq!(g.groups, [0]);
        g.drop_last_roll();
        g.drop_last_roll();
        assert!(g.groups.is_empty());
    }
}
