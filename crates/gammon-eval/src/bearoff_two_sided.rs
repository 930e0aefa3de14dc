//! An exact two-sided bearoff database: every position where each side has
//! at most 6 checkers, all on its own home board (no contact, nobody on the
//! bar), with the exact cubeless winning chance of the side on roll and his
//! exact cubeful money equities for the three cube positions. Built by the
//! program on first use and cached on disk ([`bearoff_two_sided_db`]).
//!
//! # Layouts and pairs
//!
//! A side's checkers are a [`Layout`] as in the one-sided database
//! ([`crate::bearoff`]). The layouts of at most `n` checkers (`n <=`
//! [`MAX_CHECKERS`]) are numbered `0..C(n + 6, 6)` (924 for `n = 6`) in the
//! order of their one-sided [`index`], so a move
//! always goes to a smaller number and the empty layout is 0. A *pair*
//! `(a, b)` is the layout `a` of the side on roll and `b` of his opponent.
//!
//! # The recursion (no gammons: every side has borne off a checker)
//!
//! All values are the roller's, per unit of the current cube; `a' ∈ S(a, r)`
//! are the results of roll `r` from `a` ([`successors`]), `w_r` its weight
//! out of 36. Both sides play to maximise their own value, state by state:
//!
//! ```text
//! W(a, b)    = Σ_r w_r/36 · max_{a'} (a' = ∅ ? 1 : 1 − W(b, a'))     cubeless P(win)
//! ND_s(a, b) = Σ_r w_r/36 · max_{a'} (a' = ∅ ? 1 : −V_s̄(b, a'))     he does not double now
//! V_opp(a, b)    = ND_opp(a, b)                                     he may not double
//! V_s(a, b)      = max(ND_s(a, b), min(2 · ND_opp(a, b), 1))         s = own, centre
//! ```
//!
//! where `s̄` is the state `s` seen by the opponent (own ↔ opp, centre ↔
//! centre). A double is taken (the taker then owns a cube of twice the
//! value: `2 · ND_opp`, normalised to the old cube) or passed (`+1`); the
//! taker picks the smaller, the roller doubles when that beats not
//! doubling. `V_s` is the value before the roller's cube decision
//! ([`TwoSidedValues::cubeful`]); the table stores `ND_s` as gnubg does
//! ([`TwoSidedValues::no_double`]), which is what an n-ply cube search and a
//! cube decision need. With `a = ∅` the roller has won (`W = 1`, all `+1`),
//! else with `b = ∅` he has lost (`W = 0`, all `−1`); the one-sided database
//! answers the same. No Jacoby rule is needed (no gammons); beavers and a
//! maximum cube are not part of the model. Every term of a pair `(a, b)` is
//! a pair `(b, a')` with `a' < a`, so the build walks the pairs by
//! increasing `a + b`.
//!
//! What is provable, and tested: every value lies in `[-1, 1]` (either side
//! can pass every double, so neither loses more than the cube);
//! `V_own >= V_centre >= V_opp` (from owned to centred only the opponent
//! gains options, from centred to opponent-owned only the roller loses
//! some), hence `ND_own >= ND_centre >= ND_opp`; `V_own >= 2W − 1 >= V_opp`
//! (an owner may never double) and `ND_own >= 2W − 1`.
//!
//! # Storage and cache
//!
//! Four `f32` per pair (computed in `f64`): 13.7 MB for `n = 6`. The cache
//! file is a [`FileKind::Bearoff2`] file named [`CACHE_FILE`] in
//! [`cache_dir`], one chunk per row `a` (a [chunked
//! file](crate::file_format::chunked), each chunk with its own checksum). A
//! process reads only the rows it needs, when it first needs them: `gammon
//! eval` of one bearoff reads one row of 15 KB, not 13.7 MB. A file that
//! cannot be opened or is not this table is rebuilt and rewritten; a row
//! that turns out damaged when it is read makes the process build the table
//! (about a second), answer from the build from then on, and rewrite the
//! file. A cache that cannot be written is only skipped.

use crate::bearoff::{home_layouts, index, successors, Layout, LAYOUTS};
pub use crate::bearoff_cache::{cache_dir, CacheOutcome};
use crate::bearoff_cache::{load_or_build_cached, warn_if_not_cached};
use crate::file_format::chunked::{f32s, write_chunked, ChunkedFile, Chunks};
use crate::file_format::{FileError, FileKind};
use crate::probabilities::Probabilities;
use gammon_rules::{CubeOwner, Position, ALL_ROLLS};
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;
use thiserror::Error;

/// Most checkers per side in the database.
pub const MAX_CHECKERS: u32 = 6;
/// The cache file's name.
/// The name carries the format version, so that gammon builds of
/// different versions sharing the folder do not rewrite each other's file.
pub const CACHE_FILE: &str = "bearoff2-6-v3.gdb";
/// The cache file's format version: 3, chunked by row.
pub const CACHE_VERSION: u32 = 3;
/// The most payload the cache file may hold (the table is 13.7 MB, its
/// index 22 KB).
const CACHE_LIMIT: u64 = 16 << 20;

/// A build with an unsupported size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("a two-sided bearoff database holds 1 to {MAX_CHECKERS} checkers per side, not {0}")]
pub struct CheckersError(pub u32);

/// The exact values of a pair, for the side on roll (see the [module
/// documentation](self)): cubeless winning chance and cubeful money
/// equities per unit cube **if he does not double now**, for each cube
/// position (gnubg's layout).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TwoSidedValues {
    /// Cubeless P(win) with optimal play.
    pub win: f32,
    /// No-double cubeful equity, the side on roll owns the cube.
    pub owned: f32,
    /// No-double cubeful equity, centred cube.
    pub centred: f32,
    /// Cubeful equity, the opponent owns the cube.
    pub opponent_owns: f32,
}

impl TwoSidedValues {
    /// The cubeful equity (per unit cube) with the cube where it is and no
    /// double by the side on roll now.
    pub fn no_double(&self, owner: CubeOwner) -> f64 {
        f64::from(match owner {
            CubeOwner::OnRoll => self.owned,
            CubeOwner::Centered => self.centred,
            CubeOwner::Opponent => self.opponent_owns,
        })
    }

    /// The cubeful equity (per unit cube) with the side on roll's best cube
    /// action now: `max(no double, min(double/take, double/pass))` where he
    /// may double.
    pub fn cubeful(&self, owner: CubeOwner) -> f64 {
        let nd = self.no_double(owner);
        match owner {
            CubeOwner::Opponent => nd,
            _ => nd.max((2.0 * f64::from(self.opponent_owns)).min(1.0)),
        }
    }

    /// The cubeless probabilities (no gammons are possible).
    pub fn probabilities(&self) -> Probabilities {
        Probabilities { win: self.win, ..Probabilities::default() }.sanitized()
    }
}

/// One row of the table: `[win, owned, centred, opponent_owns]` (no double)
/// for the side on roll with layout `a`, against each layout `b`.
type Row = Box<[[f32; 4]]>;

/// The two-sided database: see the [module documentation](self).
pub struct TwoSidedDb {
    max_checkers: u32,
    /// Layout number of each one-sided index (`u16::MAX` beyond the size).
    number: Vec<u16>,
    /// Number of layouts.
    n: usize,
    /// `rows[a][b]`, row `a` read from the cache file when first needed.
    rows: Chunks<Row>,
}

impl fmt::Debug for TwoSidedDb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TwoSidedDb")
            .field("max_checkers", &self.max_checkers)
            .field("layouts", &self.n)
            .field("bytes", &self.memory_bytes())
            .finish()
    }
}

/// The layouts of at most `max` checkers, in one-sided index order. Made
/// from the layouts themselves (924 for 6 checkers), not by going through
/// all 54,264 indices: a process opening the cache does this.
fn layouts_up_to(max: u32) -> Vec<Layout> {
    fn extend(point: usize, left: u32, layout: &mut Layout, out: &mut Vec<(usize, Layout)>) {
        if point == layout.len() {
            if let Ok(r) = index(layout) {
                out.push((r, *layout));
            }
            return;
        }
        for c in 0..=left {
            layout[point] = c as u8;
            extend(point + 1, left - c, layout, out);
        }
        layout[point] = 0;
    }
    let mut found = Vec::new();
    extend(0, max.min(crate::bearoff::MAX_CHECKERS), &mut [0; 6], &mut found);
    found.sort_unstable_by_key(|&(r, _)| r);
    found.into_iter().map(|(_, l)| l).collect()
}

/// Layout number of each one-sided index, for `layouts` in index order.
fn numbering(layouts: &[Layout]) -> Vec<u16> {
    let mut number = vec![u16::MAX; LAYOUTS];
    for (i, l) in layouts.iter().enumerate() {
        if let Ok(r) = index(l) {
            number[r] = i as u16;
        }
    }
    number
}

impl TwoSidedDb {
    /// Computes the table for at most `max_checkers` checkers per side
    /// (6 for the shipped database; fewer for tests).
    ///
    /// # Errors
    /// [`CheckersError`] outside `1..=MAX_CHECKERS`.
    pub fn build(max_checkers: u32) -> Result<TwoSidedDb, CheckersError> {
        if !(1..=MAX_CHECKERS).contains(&max_checkers) {
            return Err(CheckersError(max_checkers));
        }
        let layouts = layouts_up_to(max_checkers);
        let number = numbering(&layouts);
        let n = layouts.len();
        // Successors per layout and roll, as layout numbers, shared by all
        // opponents: `succ[starts[a * 21 + r]..starts[a * 21 + r + 1]]`.
        let mut succ: Vec<u16> = Vec::new();
        let mut starts: Vec<u32> = vec![0];
        for l in &layouts {
            for dice in ALL_ROLLS {
                for m in successors(l, dice).unwrap_or_default() {
                    if let Ok(r) = index(&m) {
                        succ.push(number[r]);
                    }
                }
                starts.push(succ.len() as u32);
            }
        }
        let weights: Vec<f64> = ALL_ROLLS.iter().map(|d| f64::from(d.weight()) / 36.0).collect();

        // [win, own, centre, opp] in f64 while building.
        let mut table = vec![[0.0f64; 4]; n * n];
        table[..n].fill([1.0; 4]); // the roller is already off
        for a in 1..n {
            table[a * n] = [0.0, -1.0, -1.0, -1.0]; // opponent already off
        }
        for sum in 2..=2 * (n - 1) {
            for a in sum.saturating_sub(n - 1).max(1)..=(sum - 1).min(n - 1) {
                let b = sum - a;
                let row = &table[b * n..(b + 1) * n];
                let mut total = [0.0f64; 4];
                for (r, w) in weights.iter().enumerate() {
                    let k = a * 21 + r;
                    let mut best = [f64::NEG_INFINITY; 4];
                    for &a2 in &succ[starts[k] as usize..starts[k + 1] as usize] {
                        let [w, own, centre, opp] = row[usize::from(a2)];
                        // The opponent's values, after his cube action, of
                        // each state seen from his side.
                        let double = (2.0 * opp).min(1.0);
                        best[0] = best[0].max(1.0 - w);
                        best[1] = best[1].max(-opp);
                        best[2] = best[2].max(-centre.max(double));
                        best[3] = best[3].max(-own.max(double));
                    }
                    for (t, x) in total.iter_mut().zip(best) {
                        *t += w * x;
                    }
                }
                table[a * n + b] = total;
            }
        }
        // Sums of 21 rolls round: keep each value in its range.
        let rows = table.chunks_exact(n).map(|row| {
            row.iter()
                .map(|&[w, own, centre, opp]| {
                    [w.clamp(0.0, 1.0), own.clamp(-1.0, 1.0), centre.clamp(-1.0, 1.0), opp.clamp(-1.0, 1.0)]
                        .map(|x| x as f32)
                })
                .collect::<Row>()
        });
        Ok(TwoSidedDb { max_checkers, number, n, rows: Chunks::built(rows) })
    }

    /// Most checkers per side.
    pub fn max_checkers(&self) -> u32 {
        self.max_checkers
    }

    /// Number of layouts per side: `C(max_checkers + 6, 6)`.
    pub fn layouts(&self) -> usize {
        self.n
    }

    /// Heap memory held by the table (the rows read so far), in bytes.
    pub fn memory_bytes(&self) -> usize {
        self.rows.held().map(|r| 16 * r.len()).sum::<usize>() + 2 * self.number.capacity()
    }

    /// Row `a` (a valid layout number): read from the cache file on first
    /// use; a damaged row makes the process build the table and rewrite the
    /// file ([`Chunks::get`]).
    fn row(&self, a: usize) -> Option<&[[f32; 4]]> {
        let decode = |bytes: &[u8]| {
            let ok = |x: &f32| x.is_finite() && (-1.0..=1.0).contains(x);
            let values: Vec<f32> = f32s(bytes).collect();
            (values.len() == 4 * self.n && values.iter().all(ok))
                .then(|| values.chunks_exact(4).map(|v| [v[0], v[1], v[2], v[3]]).collect())
        };
        let rebuild = |path: Option<&Path>| {
            let db = Self::build(self.max_checkers).unwrap_or_else(|_| Self::empty());
            if let Some(path) = path {
                let _ = db.write(path);
            }
            db.rows.into_items()
        };
        self.rows.get(a, decode, rebuild).map(|r| &r[..])
    }

    /// A table of no layouts (for a size that cannot be built).
    fn empty() -> TwoSidedDb {
        TwoSidedDb { max_checkers: 0, number: vec![u16::MAX; LAYOUTS], n: 0, rows: Chunks::built([]) }
    }

    /// The layout number of `l`, if it has few enough checkers.
    fn number_of(&self, l: &Layout) -> Option<usize> {
        let r = index(l).ok()?;
        let k = *self.number.get(r)?;
        (k != u16::MAX).then_some(usize::from(k))
    }

    /// The values of the side on roll with layout `us` against `them`;
    /// `None` if either has more checkers than the database holds. An empty
    /// `us` has won, else an empty `them` has won.
    pub fn values(&self, us: &Layout, them: &Layout) -> Option<TwoSidedValues> {
        let (a, b) = (self.number_of(us)?, self.number_of(them)?);
        let [win, owned, centred, opponent_owns] = *self.row(a)?.get(b)?;
        Some(TwoSidedValues { win, owned, centred, opponent_owns })
    }

    /// The values of `pos` for its side on roll, if it is a pure bearoff
    /// ([`home_layouts`]) that the database holds.
    pub fn evaluate(&self, pos: &Position) -> Option<TwoSidedValues> {
        let (us, them) = home_layouts(pos)?;
        self.values(&us, &them)
    }

    /// Writes the table to `path` (atomically, in the project's file format,
    /// chunked by row).
    ///
    /// # Errors
    /// The file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        let rows: Vec<Vec<u8>> = (0..self.n)
            .map(|a| self.row(a).unwrap_or_default().iter().flatten().flat_map(|x| x.to_le_bytes()).collect())
            .collect();
        write_chunked(path, FileKind::Bearoff2, CACHE_VERSION, &self.max_checkers.to_le_bytes(), &rows)
    }

    /// Opens a table written by [`write`](Self::write). Its rows are read
    /// when they are first needed, each checked then (see the [module
    /// documentation](self)).
    ///
    /// # Errors
    /// The file cannot be read, is not of this kind and version, or its
    /// index does not describe a table of a size the program builds
    /// ([`FileError::Invalid`]).
    pub fn read(path: &Path) -> Result<TwoSidedDb, FileError> {
        let file = ChunkedFile::open(path, FileKind::Bearoff2, CACHE_VERSION, CACHE_LIMIT)?;
        let max_checkers = match file.meta() {
            &[a, b, c, d] => u32::from_le_bytes([a, b, c, d]),
            _ => 0,
        };
        let layouts = layouts_up_to(max_checkers);
        let n = layouts.len();
        if !(1..=MAX_CHECKERS).contains(&max_checkers) || file.chunks() != n {
            return Err(FileError::in_file(path, FileError::Invalid("not a whole two-sided bearoff table".into())));
        }
        Ok(TwoSidedDb { max_checkers, number: numbering(&layouts), n, rows: Chunks::opened(file) })
    }

    /// The full database (6 checkers) from the cache file [`CACHE_FILE`] in
    /// `dir`, or built and written there when that file cannot be read; the
    /// build is used as it is when the file cannot be written (or `dir` is
    /// `None`).
    pub fn load_or_build(dir: Option<&Path>) -> (TwoSidedDb, CacheOutcome) {
        Self::load_or_build_sized(dir, CACHE_FILE, MAX_CHECKERS)
    }

    /// [`load_or_build`](Self::load_or_build) for `max_checkers` (in range)
    /// and a file name.
    fn load_or_build_sized(dir: Option<&Path>, name: &str, max_checkers: u32) -> (TwoSidedDb, CacheOutcome) {
        let build = || Self::build(max_checkers).unwrap_or_else(|_| Self::empty());
        load_or_build_cached(
            dir,
            name,
            |path| Self::read(path).ok().filter(|db| db.max_checkers == max_checkers),
            build,
            TwoSidedDb::write,
        )
    }
}

/// True if `pos` is a pure bearoff with at most [`MAX_CHECKERS`] checkers
/// per side: a position the full database holds. Cheap, and it does not
/// load the database.
pub fn holds(pos: &Position) -> bool {
    let (me, him) = pos.checkers_in_play();
    u32::from(me.max(him)) <= MAX_CHECKERS && home_layouts(pos).is_some()
}

/// The bearoff databases' cubeless value of a pure bearoff ([`home_layouts`])
/// for its side on roll: exact from the two-sided database where it holds
/// the position ([`holds`]), else the one-sided database's race formula;
/// `None` for any other position. What [`NetEvaluator`](crate::NetEvaluator)
/// answers for bearoffs, so that searches and rollouts can use the same.
pub fn bearoff_value(pos: &Position) -> Option<Probabilities> {
    if holds(pos) {
        if let Some(v) = bearoff_two_sided_db().evaluate(pos) {
            return Some(v.probabilities());
        }
    }
    crate::bearoff::bearoff_db().evaluate(pos)
}

/// The process-wide two-sided database (6 checkers per side): read from the
/// cache on first use, or built (about a second in release) and cached.
pub fn bearoff_two_sided_db() -> &'static TwoSidedDb {
    static DB: OnceLock<TwoSidedDb> = OnceLock::new();
    DB.get_or_init(|| {
        let (db, outcome) = TwoSidedDb::load_or_build(cache_dir().as_deref());
        warn_if_not_cached(outcome);
        db
    })
}

#[cfg(test)]
mod tests;
