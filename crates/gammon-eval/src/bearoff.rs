//! An exact one-sided bearoff database, built by the program itself (like
//! gnubg's `makebearoff -o 6`), and the race evaluation of positions where
//! both sides are bearing off.
//!
//! One file because the build relies on the index's order (below), and the
//! tables it builds are the parts the cache file stores and a process reads
//! part by part (# Storage and cache); about 560 lines of code, the rest doc
//! comments. The tests are in `bearoff/tests.rs`.
//!
//! # Layouts
//!
//! A *layout* ([`Layout`]) is one side's checkers on its own home board:
//! `points[i]` checkers on its point `i + 1`, at most 15 in all; the rest are
//! borne off. There are C(21, 6) = 54,264 layouts ([`LAYOUTS`]): 15 checkers
//! over 7 places (off, points 1..=6), i.e. multisets of size 15 from 7 values.
//!
//! # The index (a perfect ranking)
//!
//! Sort the 15 checkers of a layout by point, borne-off ones first at point
//! 0: `c_1 <= c_2 <= … <= c_15`, each in `0..=6`. Then `d_i = c_i + i - 1` is
//! strictly increasing in `0..=20`: a 15-subset of `{0, …, 20}` (picture the
//! 21 symbols "15 checkers and 6 point separators" in a row, from the off
//! tray up to the 6-point; `d_i` is the place of the `i`-th checker). The
//! index is that subset's rank in the combinatorial number system (colex
//! order):
//!
//! ```text
//! index = Σ_{i=1..15} C(d_i, i) = Σ_{i=1..15} C(c_i + i - 1, i)
//! ```
//!
//! Borne-off checkers (`c_i = 0`) add `C(i - 1, i) = 0`, so the empty board
//! has index 0 and 15 checkers on the 6-point index 54,263. Colex order
//! compares the largest elements first, so the index orders layouts by their
//! checkers sorted from the highest point down, lexicographically. Every
//! bear-off move lowers one checker (to a lower point or off), which makes
//! that sequence lexicographically smaller: **every position reachable from a
//! layout has a smaller index**, and the database is built in plain index
//! order. [`layout`] inverts [`index`] (greedy colex unranking).
//!
//! # What is stored, and the policy
//!
//! For each layout, the distribution of the number of rolls needed to bear
//! off all its checkers: `distribution(l)[k]` = P(the last checker comes off
//! on exactly the `k`-th roll), `k = 0..`; the slice ends at the largest `k`
//! with a non-zero probability (the longest is [`BearoffDb::max_rolls`]` + 1`
//! long: 15 checkers on the 6-point can need 30 rolls under this policy, see
//! the tests). Values are `f32` (computed in `f64`). With the empty layout's
//! distribution `[1.0]`, the recursion is
//!
//! ```text
//! P_l(k) = Σ_rolls  w(roll)/36 · P_{best(l, roll)}(k - 1)
//! E_l    = 1 + Σ_rolls  w(roll)/36 · E_{best(l, roll)}
//! ```
//!
//! where `best(l, roll)` is the legal result with the **smallest expected
//! number of rolls** `E` (first found on exact ties), as gnubg's
//! `makebearoff` chooses. That policy is optimal for the expected number of
//! rolls, which is *near*-optimal but not exactly optimal for winning chances
//! against a given opponent (sometimes a move with a slightly larger mean but
//! a better chance of finishing in `k` rolls wins more); the exact two-sided
//! value needs a two-sided database (gnubg's `bearoff2` class).
//!
//! For gammons, each layout with all 15 checkers also gets the distribution
//! of the number of rolls needed to bear off its **first** checker
//! ([`BearoffDb::first_off_distribution`]), with the move chosen to minimise
//! the expected number of rolls to that first checker. Layouts with fewer
//! than 15 checkers have already borne one off: their distribution is `[1.0]`.
//!
//! Roll moves are found without generating move lists: per die `d` and step
//! count `s = 1..=3`, `chain[l][d][s]` is the best (smallest `E`) layout
//! reachable from `l` by `s` single steps of `d`, computed from the one-step
//! successors of `l` (which were finished earlier). A double is four steps of
//! one die; a mixed roll is `min(a then b, b then a)`. In a pure bearoff every
//! die can be played while a checker is left, so "use both dice" and "the
//! larger die if only one" never prune a result (a move that takes the last
//! checker off ends the game, whichever order). [`successors`] is a plain
//! generator of the same moves, checked against `gammon_rules::MoveList` and
//! against the database in the tests.
//!
//! # Storage and cache
//!
//! The tables are kept in parts of [`PART`] layouts. The cache file
//! ([`CACHE_FILE`], a [chunked file](crate::file_format::chunked)) stores
//! one part a chunk, each with its own checksum; a process opens it and
//! reads a part when it first needs one of its layouts (a bearoff
//! evaluation needs two or three of the 107). A part that fails its
//! checksum or whose tables do not fit together makes the process build the
//! database (about 80 ms), answer from the build, and rewrite the file.
//!
//! # Race evaluation
//!
//! When both sides have all their checkers home ([`home_layouts`]), with `P`
//! the distributions, `G` the first-off distributions, "us" on roll (rolling
//! first, so we win a tie in rolls):
//!
//! ```text
//! P(win)       = Σ_i P_us(i) · P_them(≥ i)
//! P(win gammon)  = Σ_i P_us(i) · G_them(≥ i)       (they have 15 checkers, else 0)
//! P(lose gammon) = Σ_j P_them(j) · G_us(> j)       (we have 15 checkers, else 0)
//! ```
//!
//! Backgammons are impossible once every checker is home. The two sides are
//! treated as independent: each plays its own min-expected-rolls policy.

use crate::bearoff_cache::{cache_dir, load_or_build_cached, CacheOutcome};
use crate::file_format::chunked::{decode, encode, write_chunked, ChunkedFile, Chunks};
use crate::file_format::{FileError, FileKind};
use crate::{Evaluator, Probabilities};
use gammon_rules::{Dice, Position, ALL_ROLLS};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;
use thiserror::Error;

/// Points of a home board.
pub const POINTS: usize = 6;
/// Most checkers a side has.
pub const MAX_CHECKERS: u32 = 15;
/// Number of layouts of up to 15 checkers on 6 points: C(21, 6).
pub const LAYOUTS: usize = 54_264;

/// One side's checkers on its own home board: `points[i]` checkers on its
/// point `i + 1` (borne off = 15 - total).
pub type Layout = [u8; POINTS];

/// Binomial coefficients `C(n, k)` for `n <= 20`, `k <= 15`.
const BINOM: [[u32; 16]; 21] = {
    let mut t = [[0u32; 16]; 21];
    let mut n = 0;
    while n < 21 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 16 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Distribution of a finished layout (and first-off distribution of a layout
/// that has borne a checker off): done in 0 rolls.
const DONE: &[f32] = &[1.0];

/// What can be wrong with a layout or an index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum BearoffError {
    /// A layout with more than 15 checkers.
    #[error("a bearoff layout has at most 15 checkers, not {count}")]
    TooManyCheckers {
        /// The checkers counted.
        count: u32,
    },
    /// An index outside `0..LAYOUTS`.
    #[error("bearoff index {index} out of range (0..{LAYOUTS})")]
    IndexOutOfRange {
        /// The index asked for.
        index: usize,
    },
}

/// Checkers in a layout.
fn checkers(points: &Layout) -> u32 {
    points.iter().map(|&n| u32::from(n)).sum()
}

/// The index of a valid layout (at most 15 checkers).
fn rank(points: &Layout) -> usize {
    let mut i = MAX_CHECKERS - checkers(points) + 1;
    let mut r = 0;
    for (value, &n) in (1u32..).zip(points) {
        for _ in 0..n {
            r += BINOM[(i - 1 + value) as usize][i as usize];
            i += 1;
        }
    }
    r as usize
}

/// The layout of a valid index (below [`LAYOUTS`]).
fn unrank(index: usize) -> Layout {
    let mut r = index as u32;
    let mut out = [0u8; POINTS];
    for i in (1..=MAX_CHECKERS as usize).rev() {
        let mut d = i - 1;
        while d < 20 && BINOM[d + 1][i] <= r {
            d += 1;
        }
        r -= BINOM[d][i];
        let value = d + 1 - i;
        if value > 0 {
            out[value - 1] += 1;
        }
    }
    out
}

/// The perfect index of a layout, in `0..LAYOUTS` (see the [module
/// documentation](self)): `Σ C(c_i + i - 1, i)` over the 15 checkers sorted
/// by point, borne-off ones at point 0.
///
/// ```
/// use gammon_eval::bearoff::{index, layout};
/// assert_eq!(index(&[0; 6]), Ok(0));
/// assert_eq!(index(&[0, 0, 0, 0, 0, 15]), Ok(54_263));
/// assert_eq!(layout(index(&[2, 0, 3, 0, 1, 4]).unwrap()), Ok([2, 0, 3, 0, 1, 4]));
/// ```
///
/// # Errors
/// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
pub fn index(points: &Layout) -> Result<usize, BearoffError> {
    let count = checkers(points);
    if count > MAX_CHECKERS {
        return Err(BearoffError::TooManyCheckers { count });
    }
    Ok(rank(points))
}

/// The layout with a given index: the inverse of [`index`].
///
/// # Errors
/// [`BearoffError::IndexOutOfRange`] for an index of [`LAYOUTS`] or more.
pub fn layout(index: usize) -> Result<Layout, BearoffError> {
    if index >= LAYOUTS {
        return Err(BearoffError::IndexOutOfRange { index });
    }
    Ok(unrank(index))
}

/// Calls `f` with each layout reachable from `points` by one step of one die
/// `die` (1..=6): a checker moves from `p` to `p - die`, or bears off from
/// `p == die`, or from the highest occupied point when `die` is larger.
/// At most one result per source point, all distinct; none for an empty
/// layout.
fn single_steps(points: &Layout, die: usize, mut f: impl FnMut(Layout)) {
    let Some(highest) = points.iter().rposition(|&n| n > 0) else {
        return;
    };
    // Sources from the highest point down.
    for p in (0..=highest).rev() {
        if points[p] == 0 {
            continue;
        }
        let point = p + 1;
        let mut next = *points;
        next[p] -= 1;
        if point > die {
            next[point - die - 1] += 1;
        } else if point < die && p != highest {
            continue;
        }
        f(next);
    }
}

/// Every distinct layout `points` can be turned into by a roll in a pure
/// bear-off, sorted. Doubles play four steps, other rolls both dice in
/// either order; play stops when the last checker is off. An empty layout
/// has no move (empty result).
///
/// ```
/// use gammon_eval::bearoff::successors;
/// use gammon_rules::Dice;
/// // One checker on the 6-point, 2-1: 6/4/3 or 6/5/3.
/// assert_eq!(successors(&[0, 0, 0, 0, 0, 1], Dice::new(2, 1).unwrap()), Ok(vec![[0, 0, 1, 0, 0, 0]]));
/// ```
///
/// # Errors
/// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
pub fn successors(points: &Layout, dice: Dice) -> Result<Vec<Layout>, BearoffError> {
    index(points)?;
    if checkers(points) == 0 {
        return Ok(Vec::new());
    }
    let (high, low) = (usize::from(dice.high()), usize::from(dice.low()));
    let orders: &[&[usize]] =
        if dice.is_double() { &[&[high, high, high, high]] } else { &[&[high, low], &[low, high]] };
    let mut results = Vec::new();
    for order in orders {
        let mut level = vec![*points];
        for &die in *order {
            let mut next = Vec::with_capacity(level.len() * 4);
            for l in &level {
                if checkers(l) == 0 {
                    next.push(*l);
                } else {
                    single_steps(l, die, |m| next.push(m));
                }
            }
            next.sort_unstable();
            next.dedup();
            level = next;
        }
        results.extend(level);
    }
    results.sort_unstable();
    results.dedup();
    Ok(results)
}

/// Both sides' layouts if `pos` is a pure bearoff race: every checker of
/// both sides on its own points 1..=6 (none on the bar, none farther out).
/// Returns `(side on roll, opponent)`, each in its own numbering; `None`
/// otherwise.
pub fn home_layouts(pos: &Position) -> Option<(Layout, Layout)> {
    let (me, him) = pos.to_boards();
    if me[POINTS..].iter().chain(&him[POINTS..]).any(|&n| n > 0) {
        return None;
    }
    let mut us = [0u8; POINTS];
    let mut them = [0u8; POINTS];
    us.copy_from_slice(&me[..POINTS]);
    them.copy_from_slice(&him[..POINTS]);
    Some((us, them))
}

/// The one-sided bearoff database: for each of the [`LAYOUTS`] layouts the
/// distribution of the number of rolls to bear off all checkers, and for
/// 15-checker layouts the distribution of rolls to bear off the first one.
/// Built in memory by [`BearoffDb::build`] (about 80 ms in release, 4.6 MB)
/// and cached on disk part by part ([`BearoffDb::load_or_build`]; the
/// [module documentation](self#storage-and-cache)); [`bearoff_db`] holds a
/// shared instance.
pub struct BearoffDb {
    /// Part `k`: the layouts `k * PART ..`, read from the cache file when
    /// first needed.
    parts: Chunks<Part>,
}

/// Layouts per part of the database (a chunk of the cache file, ~45 KB).
pub const PART: usize = 512;

/// The tables of the layouts `start .. start + n` of one part (indices
/// below are relative to `start`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Part {
    /// `dist[offsets[r]..offsets[r + 1]]` = distribution of layout `r`.
    #[serde(with = "crate::file_format::packed")]
    offsets: Vec<u32>,
    #[serde(with = "crate::file_format::packed")]
    dist: Vec<f32>,
    /// Expected rolls to bear off all checkers.
    #[serde(with = "crate::file_format::packed")]
    mean: Vec<f32>,
    /// `first[first_offsets[r]..first_offsets[r + 1]]` = first-off
    /// distribution of layout `r`; an empty range for layouts with fewer
    /// than 15 checkers (meaning [`DONE`]).
    #[serde(with = "crate::file_format::packed")]
    first_offsets: Vec<u32>,
    #[serde(with = "crate::file_format::packed")]
    first: Vec<f32>,
    /// Expected rolls to bear off the first checker (0 below 15 checkers).
    #[serde(with = "crate::file_format::packed")]
    first_mean: Vec<f32>,
}

impl Part {
    /// The layouts `range` of whole tables (offsets absolute, as built).
    fn cut(range: std::ops::Range<usize>, t: &Part) -> Part {
        let runs = |offsets: &[u32], table: &[f32]| {
            let (a, b) = (offsets[range.start] as usize, offsets[range.end] as usize);
            let rel = offsets[range.start..=range.end].iter().map(|&o| o - offsets[range.start]).collect();
            (rel, table[a..b].to_vec())
        };
        let (offsets, dist) = runs(&t.offsets, &t.dist);
        let (first_offsets, first) = runs(&t.first_offsets, &t.first);
        Part {
            offsets,
            dist,
            mean: t.mean[range.clone()].to_vec(),
            first_offsets,
            first,
            first_mean: t.first_mean[range].to_vec(),
        }
    }

    /// Whether the tables have one entry per layout (`n`) and their offsets
    /// run in order inside the distributions.
    fn is_whole(&self, n: usize) -> bool {
        let runs = |offsets: &[u32], table: &[f32]| {
            offsets.len() == n + 1
                && offsets.first() == Some(&0)
                && offsets.last().is_some_and(|&o| o as usize == table.len())
                && offsets.windows(2).all(|w| w[0] <= w[1])
        };
        self.mean.len() == n
            && self.first_mean.len() == n
            && runs(&self.offsets, &self.dist)
            && runs(&self.first_offsets, &self.first)
    }

    /// Layouts in part `k`.
    fn layouts(k: usize) -> usize {
        LAYOUTS.saturating_sub(k * PART).min(PART)
    }
}

impl fmt::Debug for BearoffDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BearoffDb")
            .field("layouts", &LAYOUTS)
            .field("parts", &self.parts.len())
            .field("parts_held", &self.parts.held().count())
            .field("bytes", &self.memory_bytes())
            .finish()
    }
}

/// Best layouts by `s + 1` steps of each die (see the module documentation):
/// `val[d][s]` its expected rolls, `fin[d][s]` its index.
#[derive(Clone, Copy)]
struct Chains {
    val: [[f64; 3]; 6],
    fin: [[u16; 3]; 6],
}

impl Chains {
    const EMPTY: Chains = Chains { val: [[0.0; 3]; 6], fin: [[0; 3]; 6] };
}

/// The candidate with the smallest value; the first on ties.
fn pick(candidates: &[u16], key: impl Fn(usize) -> (f64, u16)) -> (f64, u16) {
    let mut best = (f64::INFINITY, 0);
    for &x in candidates {
        let c = key(usize::from(x));
        if c.0 < best.0 {
            best = c;
        }
    }
    best
}

/// The weight of a roll out of 36, as a probability.
fn roll_probability(dice: Dice) -> f64 {
    f64::from(dice.weight()) / 36.0
}

/// Appends to `table` the distribution `Σ_rolls w/36 · d_roll(k - 1)`, where
/// `d_roll` is the distribution reached after roll `ALL_ROLLS[k]`: that of
/// layout `f` in `table` (`offsets[f]..offsets[f + 1]`) for `Some(f)`, or
/// [`DONE`] for `None`.
fn push_shifted(parts: &[Option<usize>; 21], offsets: &[u32], table: &mut Vec<f32>, scratch: &mut Vec<f64>) {
    scratch.clear();
    for (part, dice) in parts.iter().zip(ALL_ROLLS) {
        let src: &[f32] = match *part {
            Some(f) => &table[offsets[f] as usize..offsets[f + 1] as usize],
            None => DONE,
        };
        if scratch.len() < src.len() + 1 {
            scratch.resize(src.len() + 1, 0.0);
        }
        let w = roll_probability(dice);
        for (s, &p) in scratch[1..].iter_mut().zip(src) {
            *s += w * f64::from(p);
        }
    }
    table.extend(scratch.iter().map(|&p| p as f32));
}

/// Offsets in `u32` (the tables hold well under 4 G entries).
fn offset(len: usize) -> u32 {
    u32::try_from(len).unwrap_or(u32::MAX)
}

impl BearoffDb {
    /// Computes the whole database (all [`LAYOUTS`] layouts, in index order).
    pub fn build() -> BearoffDb {
        let layouts: Vec<Layout> = (0..LAYOUTS).map(unrank).collect();
        let full: Vec<bool> = layouts.iter().map(|l| checkers(l) == MAX_CHECKERS).collect();
        let mut mean = vec![0.0f64; LAYOUTS];
        let mut first_mean = vec![0.0f64; LAYOUTS];
        let mut chains = vec![Chains::EMPTY; LAYOUTS];
        let mut first_chains = vec![Chains::EMPTY; LAYOUTS];
        let mut offsets = Vec::with_capacity(LAYOUTS + 1);
        let mut dist = Vec::with_capacity(LAYOUTS * 16);
        let mut first_offsets = Vec::with_capacity(LAYOUTS + 1);
        let mut first = Vec::new();
        let mut scratch = Vec::new();

        // The empty layout: done.
        offsets.extend([0, 1]);
        dist.push(1.0);
        first_offsets.extend([0, 0]);

        for r in 1..LAYOUTS {
            // One-step successors per die; all have smaller indices.
            let mut succ = [[0u16; 6]; 6];
            let mut count = [0usize; 6];
            for (d, (s, n)) in succ.iter_mut().zip(&mut count).enumerate() {
                single_steps(&layouts[r], d + 1, |m| {
                    s[*n] = rank(&m) as u16;
                    *n += 1;
                });
            }
            let succ_of = |d: usize| &succ[d][..count[d]];

            // Expected rolls to finish.
            let mut c = Chains::EMPTY;
            for d in 0..6 {
                let steps = [
                    pick(succ_of(d), |x| (mean[x], x as u16)),
                    pick(succ_of(d), |x| (chains[x].val[d][0], chains[x].fin[d][0])),
                    pick(succ_of(d), |x| (chains[x].val[d][1], chains[x].fin[d][1])),
                ];
                for (s, (v, f)) in steps.into_iter().enumerate() {
                    c.val[d][s] = v;
                    c.fin[d][s] = f;
                }
            }
            chains[r] = c;
            let best_roll = |ch: &[Chains], dice: Dice| {
                let (h, l) = (usize::from(dice.high()) - 1, usize::from(dice.low()) - 1);
                if h == l {
                    pick(succ_of(h), |x| (ch[x].val[h][2], ch[x].fin[h][2]))
                } else {
                    let a = pick(succ_of(h), |x| (ch[x].val[l][0], ch[x].fin[l][0]));
                    let b = pick(succ_of(l), |x| (ch[x].val[h][0], ch[x].fin[h][0]));
                    if b.0 < a.0 {
                        b
                    } else {
                        a
                    }
                }
            };
            let mut parts = [None; 21];
            let mut m = 1.0;
            for (part, dice) in parts.iter_mut().zip(ALL_ROLLS) {
                let (v, f) = best_roll(&chains, dice);
                m += roll_probability(dice) * v;
                *part = Some(usize::from(f));
            }
            mean[r] = m;
            push_shifted(&parts, &offsets, &mut dist, &mut scratch);
            offsets.push(offset(dist.len()));

            // Expected rolls to the first checker off, for 15 checkers.
            if full[r] {
                // A successor with a checker off is worth 0 and ends the chain.
                let key = |x: usize, d: usize, s: usize| {
                    if !full[x] {
                        (0.0, x as u16)
                    } else if s == 0 {
                        (first_mean[x], x as u16)
                    } else {
                        (first_chains[x].val[d][s - 1], first_chains[x].fin[d][s - 1])
                    }
                };
                let mut c = Chains::EMPTY;
                for d in 0..6 {
                    for s in 0..3 {
                        let (v, f) = pick(succ_of(d), |x| key(x, d, s));
                        c.val[d][s] = v;
                        c.fin[d][s] = f;
                    }
                }
                let mut parts = [None; 21];
                let mut m = 1.0;
                for (part, dice) in parts.iter_mut().zip(ALL_ROLLS) {
                    let (h, l) = (usize::from(dice.high()) - 1, usize::from(dice.low()) - 1);
                    let (v, f) = if h == l {
                        pick(succ_of(h), |x| key(x, h, 3))
                    } else {
                        let a = pick(succ_of(h), |x| key(x, l, 1));
                        let b = pick(succ_of(l), |x| key(x, h, 1));
                        if b.0 < a.0 {
                            b
                        } else {
                            a
                        }
                    };
                    m += roll_probability(dice) * v;
                    let f = usize::from(f);
                    *part = if full[f] { Some(f) } else { None };
                }
                first_chains[r] = c;
                first_mean[r] = m;
                push_shifted(&parts, &first_offsets, &mut first, &mut scratch);
            }
            first_offsets.push(offset(first.len()));
        }

        let whole = Part {
            offsets,
            dist,
            mean: mean.iter().map(|&m| m as f32).collect(),
            first_offsets,
            first,
            first_mean: first_mean.iter().map(|&m| m as f32).collect(),
        };
        let parts = (0..LAYOUTS.div_ceil(PART)).map(|k| Part::cut(k * PART..k * PART + Part::layouts(k), &whole));
        BearoffDb { parts: Chunks::built(parts) }
    }

    /// The part holding layout `r` and `r`'s place in it (`None` beyond the
    /// last layout): read from the cache file on first use; a damaged part
    /// makes the process build the database and rewrite the file
    /// ([`Chunks::get`]).
    fn part(&self, r: usize) -> Option<(&Part, usize)> {
        let k = r / PART;
        let decode = |bytes: &[u8]| decode::<Part>(bytes).ok().filter(|p| p.is_whole(Part::layouts(k)));
        let rebuild = |path: Option<&Path>| {
            let db = Self::build();
            if let Some(path) = path {
                let _ = db.write(path);
            }
            db.parts.into_items()
        };
        Some((self.parts.get(k, decode, rebuild)?, r % PART))
    }

    /// The distribution of layout `r` (valid index).
    fn dist_at(&self, r: usize) -> &[f32] {
        let Some((p, i)) = self.part(r) else { return DONE };
        let (Some(&a), Some(&b)) = (p.offsets.get(i), p.offsets.get(i + 1)) else { return DONE };
        p.dist.get(a as usize..b as usize).unwrap_or(DONE)
    }

    /// The first-off distribution of layout `r` (valid index).
    fn first_at(&self, r: usize) -> &[f32] {
        let Some((p, i)) = self.part(r) else { return DONE };
        let (Some(&a), Some(&b)) = (p.first_offsets.get(i), p.first_offsets.get(i + 1)) else { return DONE };
        if a == b {
            DONE
        } else {
            p.first.get(a as usize..b as usize).unwrap_or(DONE)
        }
    }

    /// Expected rolls to bear off layout `r` (valid index).
    fn mean_at(&self, r: usize) -> f32 {
        self.part(r).and_then(|(p, i)| p.mean.get(i).copied()).unwrap_or(0.0)
    }

    /// Expected number of rolls to bear off every checker of `points`, with
    /// the min-expected-rolls policy (0 for an empty layout).
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
    pub fn expected_rolls(&self, points: &Layout) -> Result<f32, BearoffError> {
        Ok(self.mean_at(index(points)?))
    }

    /// `d[k]` = P(the last checker of `points` comes off on exactly the
    /// `k`-th roll), `k = 0..d.len()`; the last entry is non-zero. Sums to 1.
    ///
    /// ```
    /// let db = gammon_eval::bearoff::bearoff_db();
    /// // Three checkers on the ace point: done in 1 roll only with a double.
    /// let d = db.distribution(&[3, 0, 0, 0, 0, 0]).unwrap();
    /// assert_eq!(d.len(), 3);
    /// assert!((d[1] - 1.0 / 6.0).abs() < 1e-6 && (d[2] - 5.0 / 6.0).abs() < 1e-6);
    /// ```
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
    pub fn distribution(&self, points: &Layout) -> Result<&[f32], BearoffError> {
        Ok(self.dist_at(index(points)?))
    }

    /// `g[k]` = P(the first checker of `points` comes off on exactly the
    /// `k`-th roll), playing to minimise the expected rolls to that first
    /// checker. `[1.0]` (0 rolls) for a layout of fewer than 15 checkers.
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
    pub fn first_off_distribution(&self, points: &Layout) -> Result<&[f32], BearoffError> {
        Ok(self.first_at(index(points)?))
    }

    /// Expected rolls to bear off the first checker (0 below 15 checkers).
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
    pub fn expected_rolls_to_first_off(&self, points: &Layout) -> Result<f32, BearoffError> {
        Ok(self.part(index(points)?).and_then(|(p, i)| p.first_mean.get(i).copied()).unwrap_or(0.0))
    }

    /// The move the database's policy plays: the result of `dice` from
    /// `points` with the fewest expected rolls (the first in
    /// [`successors`]' order on ties). An empty layout is returned unchanged.
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] for more than 15 checkers.
    pub fn best_move(&self, points: &Layout, dice: Dice) -> Result<Layout, BearoffError> {
        let mut best = (f32::INFINITY, *points);
        for next in successors(points, dice)? {
            let e = self.mean_at(rank(&next));
            if e < best.0 {
                best = (e, next);
            }
        }
        Ok(best.1)
    }

    /// The most rolls any layout can need (the longest distribution's last
    /// index).
    pub fn max_rolls(&self) -> usize {
        (0..LAYOUTS).map(|r| self.dist_at(r).len()).max().unwrap_or(1).saturating_sub(1)
    }

    /// Heap memory held by the tables (the parts read so far), in bytes.
    pub fn memory_bytes(&self) -> usize {
        let part = |p: &Part| {
            4 * (p.offsets.capacity()
                + p.dist.capacity()
                + p.mean.capacity()
                + p.first_offsets.capacity()
                + p.first.capacity()
                + p.first_mean.capacity())
        };
        self.parts.held().map(part).sum()
    }

    /// The cubeless probabilities of a bearoff race for the side `us` on
    /// roll against `them` (see the [module documentation](self) for the
    /// formulas). An empty `us` has won (a gammon if `them` has 15); an empty
    /// `them` has won.
    ///
    /// # Errors
    /// [`BearoffError::TooManyCheckers`] if either layout has more than 15.
    pub fn evaluate_layouts(&self, us: &Layout, them: &Layout) -> Result<Probabilities, BearoffError> {
        let (u, t) = (index(us)?, index(them)?);
        let (pu, pt) = (self.dist_at(u), self.dist_at(t));
        let us_full = checkers(us) == MAX_CHECKERS;
        let them_full = checkers(them) == MAX_CHECKERS;
        let gu = if us_full { self.first_at(u) } else { &[] };
        let gt = if them_full { self.first_at(t) } else { &[] };
        let at = |d: &[f32], i: usize| f64::from(d.get(i).copied().unwrap_or(0.0));
        let n = pu.len().max(pt.len()).max(gu.len()).max(gt.len());
        // Backwards, keeping the tails Σ_{j >= i} pt[j], Σ_{j >= i} gt[j],
        // Σ_{j > i} gu[j].
        let (mut pt_tail, mut gt_tail, mut gu_after) = (0.0, 0.0, 0.0);
        let (mut win, mut win_gammon, mut lose_gammon) = (0.0f64, 0.0f64, 0.0f64);
        for i in (0..n).rev() {
            pt_tail += at(pt, i);
            gt_tail += at(gt, i);
            win += at(pu, i) * pt_tail;
            win_gammon += at(pu, i) * gt_tail;
            lose_gammon += at(pt, i) * gu_after;
            gu_after += at(gu, i);
        }
        Ok(Probabilities {
            win: win as f32,
            win_gammon: win_gammon as f32,
            win_backgammon: 0.0,
            lose_gammon: lose_gammon as f32,
            lose_backgammon: 0.0,
        }
        .sanitized())
    }

    /// The cubeless probabilities of `pos` for its side on roll, if it is a
    /// pure bearoff race (every checker of both sides in its own home board,
    /// none on the bar; see [`home_layouts`]); `None` otherwise.
    ///
    /// This inherent method takes precedence over [`Evaluator::evaluate`] in
    /// method-call syntax; the trait's version never returns `None`.
    pub fn evaluate(&self, pos: &Position) -> Option<Probabilities> {
        let (us, them) = home_layouts(pos)?;
        self.evaluate_layouts(&us, &them).ok()
    }
}

/// A crude, NaN-free estimate for positions outside the database: finished
/// games exactly, otherwise a logistic in the pip difference (the side on
/// roll counted 4 pips ahead, scale 0.3·√(total pips)), no gammons.
fn fallback(pos: &Position) -> Probabilities {
    if let Some(p) = Probabilities::of_finished(pos) {
        return p;
    }
    let (mine, theirs) = pos.pip_count();
    let (mine, theirs) = (f64::from(mine), f64::from(theirs));
    let scale = 0.3 * (mine + theirs).sqrt().max(1.0);
    let win = 1.0 / (1.0 + (-(theirs - mine + 4.0) / scale).exp());
    Probabilities { win: win as f32, ..Probabilities::default() }.sanitized()
}

impl Evaluator for BearoffDb {
    /// Exact-database values ([`BearoffDb::evaluate`]) for pure bearoff
    /// races. Callers should pass only such positions; any other position
    /// gets a crude pip-count estimate (finished games their exact value),
    /// never a panic or a NaN. Extra entries of the longer slice are left
    /// alone.
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        for (pos, o) in positions.iter().zip(out.iter_mut()) {
            *o = BearoffDb::evaluate(self, pos).unwrap_or_else(|| fallback(pos));
        }
    }

    fn name(&self) -> String {
        "bearoff1".to_string()
    }
}

/// The cache file of the database, in the cache folder
/// ([`cache_dir`]).
/// The name carries the format version, so that gammon builds of
/// different versions sharing the folder do not rewrite each other's file.
pub const CACHE_FILE: &str = "bearoff1-15-v3.gdb";
/// Version of the cache file's payload: 3, in chunks of [`PART`] layouts.
pub const CACHE_VERSION: u32 = 3;
/// The largest cache file read: the tables are about 4.6 MB.
const CACHE_LIMIT: u64 = 32 << 20;

impl BearoffDb {
    /// Writes the database to `path` (atomically, in the project's file
    /// format, a chunk per part).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        let chunks = (0..self.parts.len())
            .map(|k| self.part(k * PART).map_or_else(|| encode(&Part::default()), |(p, _)| encode(p)))
            .collect::<Result<Vec<_>, _>>()?;
        write_chunked(path, FileKind::Bearoff1, CACHE_VERSION, &(PART as u32).to_le_bytes(), &chunks)
    }

    /// Opens a database written by [`write`](Self::write); its parts are
    /// read, and checked, when first needed (see the [module
    /// documentation](self#storage-and-cache)).
    ///
    /// # Errors
    /// The file cannot be read, is not of this kind and version, or its
    /// index does not describe this database's parts ([`FileError::Invalid`]).
    pub fn read(path: &Path) -> Result<BearoffDb, FileError> {
        let file = ChunkedFile::open(path, FileKind::Bearoff1, CACHE_VERSION, CACHE_LIMIT)?;
        let parts = LAYOUTS.div_ceil(PART);
        if file.meta() != (PART as u32).to_le_bytes() || file.chunks() != parts {
            return Err(FileError::in_file(path, FileError::Invalid("not a whole one-sided bearoff database".into())));
        }
        Ok(BearoffDb { parts: Chunks::opened(file) })
    }

    /// The database from the cache file [`CACHE_FILE`] in `dir`, or built
    /// and written there when that file cannot be read (missing, damaged,
    /// another version); the build is used as it is when the file cannot be
    /// written (or `dir` is `None`).
    pub fn load_or_build(dir: Option<&Path>) -> (BearoffDb, CacheOutcome) {
        load_or_build_cached(dir, CACHE_FILE, |path| Self::read(path).ok(), Self::build, BearoffDb::write)
    }
}

/// The process-wide database: read from the cache on first use, or built
/// and cached (thread-safe, once).
pub fn bearoff_db() -> &'static BearoffDb {
    static DB: OnceLock<BearoffDb> = OnceLock::new();
    DB.get_or_init(|| {
        let (db, outcome) = BearoffDb::load_or_build(cache_dir().as_deref());
        crate::bearoff_cache::warn_if_not_cached(outcome);
        db
    })
}

#[cfg(test)]
mod tests;
