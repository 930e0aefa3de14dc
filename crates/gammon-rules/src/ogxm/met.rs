//! Match winning chances (MWC) and gammon's normalised equity (EMG).
//!
//! OGXM stores a match analysis in MWC (currency `cubeful_match`); gammon
//! keeps EMG: `-1` is losing the cube's points, `+1` winning them, linear
//! in between (gnubg's `mwc2eq`). The two anchors come from a match equity
//! table; this uses gammon's own, Kazaross-XG2 (the table gammon's engine
//! uses, `gammon-engine/data/kazaross-xg2.txt`), whatever table the file
//! names (its `met_id`), so the EMG is gammon's reading of the program's
//! MWC. Converting back with the same table gives the MWC again.

use std::sync::OnceLock;

const TABLE: &str = include_str!("../../../gammon-engine/data/kazaross-xg2.txt");

struct Met {
    /// `pre[r][c]`: P(win) needing `r + 1` against `c + 1`.
    pre: Vec<Vec<f64>>,
    /// `post[n]`: the trailer's P(win) needing `n + 1`, after the Crawford game.
    post: Vec<f64>,
}

fn met() -> &'static Met {
    static MET: OnceLock<Met> = OnceLock::new();
    MET.get_or_init(|| {
        let (mut pre, mut post, mut in_post) = (Vec::new(), Vec::new(), false);
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            match line {
                "[pre-crawford]" => in_post = false,
                "[post-crawford]" => in_post = true,
                _ => {
                    let row: Vec<f64> = line.split_whitespace().filter_map(|w| w.parse().ok()).collect();
                    if in_post {
                        post.extend(row);
                    } else {
                        pre.push(row);
                    }
                }
            }
        }
        Met { pre, post }
    })
}

impl Met {
    fn pre(&self, me: u32, opp: u32) -> f64 {
        let at =
            |n: u32, len: usize| usize::try_from(n.saturating_sub(1)).unwrap_or(usize::MAX).min(len.saturating_sub(1));
        let row = self.pre.get(at(me, self.pre.len()));
        row.and_then(|r| r.get(at(opp, r.len()))).copied().unwrap_or(0.5)
    }

    fn post(&self, trailer: u32) -> f64 {
        let i = usize::try_from(trailer.saturating_sub(1)).unwrap_or(usize::MAX).min(self.post.len().saturating_sub(1));
        self.post.get(i).copied().unwrap_or(0.5)
    }

    /// gnubg's `getME`: my MWC after this game is won (`i_win`) or lost for
    /// `points`, from `away`; after a Crawford or post-Crawford game the
    /// post-Crawford table applies.
    fn after(&self, away: (u32, u32), crawford: bool, points: u32, i_win: bool) -> f64 {
        let (me, opp) = away;
        let (me2, opp2) = if i_win { (me.saturating_sub(points), opp) } else { (me, opp.saturating_sub(points)) };
        if me2 == 0 {
            return 1.0;
        }
        if opp2 == 0 {
            return 0.0;
        }
        if crawford || me == 1 || opp == 1 {
            if me2 == 1 {
                1.0 - self.post(opp2)
            } else {
                self.post(me2)
            }
        } else {
            self.pre(me2, opp2)
        }
    }
}

/// The MWC of losing and of winning `cube` points from `away` (the
/// decider's points to go, then the opponent's): the EMG frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Frame {
    lose: f64,
    win: f64,
}

impl Frame {
    pub fn new(away: (u32, u32), crawford: bool, cube: u32) -> Frame {
        let m = met();
        Frame { lose: m.after(away, crawford, cube, false), win: m.after(away, crawford, cube, true) }
    }

    /// EMG of an MWC.
    pub fn emg(self, mwc: f64) -> f64 {
        let span = self.win - self.lose;
        if span.abs() < 1e-12 {
            0.0
        } else {
            (2.0 * mwc - (self.win + self.lose)) / span
        }
    }

    /// MWC of an EMG.
    pub fn mwc(self, emg: f64) -> f64 {
        0.5 * (emg * (self.win - self.lose) + self.win + self.lose)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_kazaross_xg2() {
        assert_eq!(met().pre.len(), 25);
        assert_eq!(met().pre(4, 5), 0.57732);
        assert_eq!(met().post(2), 0.48803);
    }

    #[test]
    fn emg_and_mwc_are_inverse() {
        let f = Frame::new((5, 5), false, 1);
        assert!((f.emg(0.57732) - 1.0).abs() < 1e-12, "winning the cube is +1");
        assert!((f.emg(f.mwc(0.3)) - 0.3).abs() < 1e-12);
    }
}
