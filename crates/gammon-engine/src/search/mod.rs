//! n-ply lookahead over all 21 rolls, wrapped around any [`Evaluator`], with
//! gnubg-style move filters and a cache of evaluated positions.
//!
//! The filters and the cache are in `filter.rs` and `cache.rs`; what stays
//! here is the one recursion (value, rank, choose) that every user of the
//! lookahead shares, about 630 lines with its documentation, which reads
//! best in one place.
//!
//! # Plies
//!
//! Counted as gnubg counts them: **0 plies is the static evaluation** (the
//! evaluator's own judgement of the position), 1 ply looks at every roll of
//! the side on roll and its best reply, 2 plies at every roll of both sides,
//! and so on.
//!
//! # The value of a position ([`Search::value`])
//!
//! For the side on roll, before rolling:
//!
//! - 0 plies: the static evaluation.
//! - n plies: the average over the 21 rolls (weights 1/36 for doubles, 2/36
//!   otherwise) of the (n-1)-ply value of the position after the best move,
//!   seen from the other side and inverted. The best move of a roll is found
//!   as gnubg finds it: every legal result is evaluated statically, at most
//!   [`MoveFilter::lookahead`]`.max` candidates within
//!   [`MoveFilter::lookahead`]`.window` equity of the best are kept, those are
//!   valued at n-1 plies, and the best of them is played ([`Search::play`]).
//!   With no legal move the opponent is on roll in the same position.
//!
//! Finished games (exact result) and pure bearoff races (the bearoff
//! databases: two-sided where each side has at most 6 checkers, else
//! one-sided) are exact: they have the same value at every ply and
//! nothing is searched below them. The static evaluation of a search is
//! therefore: the exact result for finished games, the bearoff database for
//! pure bearoff races, the evaluator for the rest. For the shipped
//! [`NetEvaluator`](gammon_eval::NetEvaluator) that is exactly its own output.
//!
//! # Ranking the moves of a roll ([`Search::analyse_roll`])
//!
//! gnubg's move filters: all legal moves are evaluated at 0 plies; then, for
//! each depth `d` below the requested one, if [`MoveFilter::root`]`[d]` is a
//! screen the surviving moves are evaluated at `d` plies (already done for
//! `d = 0`) and at most `max` of them within `window` of the best survive;
//! a `None` screen skips depth `d`. The survivors are finally evaluated at the
//! requested depth. Every legal move is returned, the deepest evaluated first,
//! each marked with the depth it was evaluated at.
//!
//! # Defaults ([`MoveFilter::NORMAL`])
//!
//! - `root` = gnubg's "normal" move filter (`MOVEFILTER_NORMAL` in gnubg's
//!   `eval.h`; the manual's "Evaluation" section: "accept 0 moves and add up
//!   to 8 moves within 0.16 at 0-ply, and no pruning at 1-ply"; the filter of
//!   its 2-ply analysis settings): keep up to 8 moves within 0.16 equity
//!   after 0 ply; skip 1 ply; keep up to 2 within 0.04 after 2 plies; skip 3
//!   plies. gnubg's table has one row per depth (1 to 4 plies) and each row
//!   is a prefix of the next, so one list of screens serves every depth: a
//!   2-ply analysis searches up to 8 moves to 2 plies, a 3-ply analysis
//!   takes those 8 to 2 plies and the best 2 of them to 3.
//! - `lookahead` = 1 candidate: inside the lookahead each roll's move is the
//!   best by 0 ply, as in gnubg's `EvaluatePositionFull` (which passes 0
//!   plies to `FindBestMovePlied`, or uses its small pruning nets to
//!   pre-select). [`MoveFilter::WIDE_LOOKAHEAD`] values up to 2 moves
//!   within 0.04 at the remaining depth instead: 1.5 times the work at 2
//!   plies, and no closer to gnubg's 2-ply values on the oracle positions
//!   (mean difference 0.0794 against 0.0795), so it is not the default.
//! - `prune` = 0: no pubeval screen inside the lookahead. Move analysis
//!   (`gammon analyse`, review, the server) uses [`MoveFilter::SCREENED`],
//!   a screen of 8 as gnubg's default `hint` screens with its pruning nets.
//!
//! # The cache
//!
//! A fixed-size table of `(position, plies) -> probabilities`
//! ([`Search::DEFAULT_CACHE_ENTRIES`] by default) that threads share without
//! locks (`cache.rs` says why and how a slot stays consistent), two slots
//! per bucket (the deeper entry is kept when both are taken). Every value
//! is a pure function of the position, the depth, the evaluator and the
//! filter, so the cache changes the time only, never a result; the same holds for the number of threads (rolls and candidates
//! are evaluated in parallel with rayon and always combined in roll order).

use gammon_eval::bearoff_two_sided::bearoff_value;
use gammon_eval::pubeval::PubEval;
use gammon_eval::{Evaluator, PositionClass, Probabilities};
use gammon_rules::{Dice, Move, MoveList, Position, ALL_ROLLS};
use rayon::prelude::*;
use serde::Serialize;
use std::cell::RefCell;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

mod cache;
mod filter;

pub(crate) use cache::Cache;
pub use filter::{Candidates, MoveFilter, MAX_FILTER_PLIES};

/// One legal move of a roll with its evaluation, from [`Search::analyse_roll`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedMove {
    /// The move (gnubg notation: `position.format_move(&m.mv)`).
    pub mv: Move,
    /// The position after the move, seen by the opponent (now on roll).
    pub result: Position,
    /// Outcome probabilities for the mover.
    pub probabilities: Probabilities,
    /// Cubeless equity for the mover.
    pub equity: f32,
    /// Equity below the best move (0 for the best, otherwise positive).
    pub loss: f32,
    /// The depth the move was evaluated at.
    pub plies: u8,
}

/// One of several results ranked by [`Search::rank_results`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RankedResult {
    /// Index into the slice of results.
    pub index: usize,
    /// Outcome probabilities for the mover (the side not on roll in the result).
    pub probabilities: Probabilities,
    /// Cubeless equity for the mover.
    pub equity: f32,
    /// The depth the result was evaluated at.
    pub plies: u8,
}

/// Work counters of a [`Search`], since it was made or last reset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// Positions given to the evaluator.
    pub evaluations: u64,
    /// Cache lookups.
    pub cache_lookups: u64,
    /// Cache lookups that found the value.
    pub cache_hits: u64,
}

/// What can go wrong in a search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// The position is a finished game: there is no move to analyse.
    #[error("the game is over in this position: there is no move to analyse")]
    GameOver,
}

/// n-ply search around an evaluator. `Sync`: share it between threads.
///
/// ```
/// use gammon_engine::search::Search;
/// use gammon_eval::NetEvaluator;
/// use gammon_rules::{Dice, Position};
/// let search = Search::new(NetEvaluator::shipped().unwrap());
/// let moves = search.analyse_roll(&Position::STARTING, Dice::new(3, 1).unwrap(), 1).unwrap();
/// assert_eq!(moves.len(), 16);
/// assert_eq!(Position::STARTING.format_move(&moves[0].mv), "8/5 6/5");
/// ```
pub struct Search<E: Evaluator> {
    evaluator: E,
    filter: MoveFilter,
    plies: u8,
    /// Shared with the searches [`stoppable`](Search::stoppable) makes.
    cache: Option<Arc<Cache>>,
    evaluations: Arc<AtomicU64>,
    /// Once set, the search stops (see [`Search::stoppable`]).
    stop: Option<Arc<AtomicBool>>,
}

impl<E: Evaluator> fmt::Debug for Search<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Search")
            .field("evaluator", &self.evaluator.name())
            .field("filter", &self.filter)
            .field("plies", &self.plies)
            .field("cache_entries", &self.cache_entries())
            .finish()
    }
}

/// What a position is to the search.
enum Node {
    /// Finished game or bearoff database: exact at every depth.
    Exact(Probabilities),
    /// A bearoff race the database does not hold: static value, not searched.
    Leaf,
    /// Searched.
    Search,
}

fn node(pos: &Position) -> Node {
    match PositionClass::of(pos) {
        PositionClass::Finished => Probabilities::of_finished(pos).map_or(Node::Leaf, Node::Exact),
        PositionClass::Bearoff => bearoff_value(pos).map_or(Node::Leaf, Node::Exact),
        PositionClass::Race | PositionClass::Crashed | PositionClass::Contact => Node::Search,
    }
}

/// The average over the rolls of the inverted values after each roll, added
/// in roll order (the same order whatever computed them).
fn combine(after_rolls: &[Probabilities]) -> Probabilities {
    let mut sum = [0.0f64; 5];
    for (dice, p) in ALL_ROLLS.iter().zip(after_rolls) {
        let w = f64::from(dice.weight());
        for (s, x) in sum.iter_mut().zip(p.inverted().to_array()) {
            *s += w * f64::from(x);
        }
    }
    Probabilities::from_array(sum.map(|s| (s / 36.0) as f32))
}

/// Buffers for one thread's search; reused across calls.
struct Scratch {
    list: MoveList,
    values: Vec<Probabilities>,
    order: Vec<(f32, usize)>,
    misses: Vec<Position>,
    miss_index: Vec<usize>,
    miss_values: Vec<Probabilities>,
    /// Candidates of every level of the recursion, stacked.
    stack: Vec<Position>,
    /// The moves kept by the pubeval screen.
    pruned: Vec<Position>,
}

impl Scratch {
    fn new() -> Self {
        Scratch {
            list: MoveList::new(),
            values: Vec::new(),
            order: Vec::new(),
            misses: Vec::new(),
            miss_index: Vec::new(),
            miss_values: Vec::new(),
            stack: Vec::new(),
            pruned: Vec::new(),
        }
    }
}

thread_local! {
    static SCRATCH: RefCell<Option<Scratch>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's scratch space (a fresh one if it is in use).
fn with_scratch<R>(f: impl FnOnce(&mut Scratch) -> R) -> R {
    let mut scratch = SCRATCH.with(|s| s.borrow_mut().take()).unwrap_or_else(Scratch::new);
    let r = f(&mut scratch);
    SCRATCH.with(|s| *s.borrow_mut() = Some(scratch));
    r
}

impl<E: Evaluator> Search<E> {
    /// Cache size of [`Search::new`]: 2^16 entries (4 MiB). Most hits are
    /// transpositions close together in the search (rolls with the same pip
    /// total inside one node), so a table that stays in the processor's
    /// caches beats a larger one. Measured on 2-ply analyses of contact
    /// positions, one thread: no cache 45,700 evaluations and 35 ms per
    /// position; 2^16 entries 28,400 and 23.6 ms; 2^18 entries 26,300 but
    /// 1 to 2 ms slower than 2^16; 2^14 entries 30,600 and about the same
    /// time as 2^16.
    pub const DEFAULT_CACHE_ENTRIES: usize = 1 << 16;
    /// Depth used when the search serves as an [`Evaluator`], unless set.
    pub const DEFAULT_PLIES: u8 = 2;

    /// A search around `evaluator` with the default filter
    /// ([`MoveFilter::NORMAL`]) and cache.
    pub fn new(evaluator: E) -> Self {
        Search {
            evaluator,
            filter: MoveFilter::NORMAL,
            plies: Self::DEFAULT_PLIES,
            cache: Cache::new(Self::DEFAULT_CACHE_ENTRIES).map(Arc::new),
            evaluations: Arc::new(AtomicU64::new(0)),
            stop: None,
        }
    }

    /// This search (the same evaluator, filter, depth, cache and counters)
    /// with a stop flag, for work that may be abandoned: a request whose
    /// client has gone. Once `stop` is set, every search node still to be
    /// searched returns at once with a meaningless value, so whatever the
    /// search was answering must be thrown away; the cache only ever
    /// receives values finished before the stop, so other searches sharing
    /// it are not affected.
    pub fn stoppable(&self, stop: Arc<AtomicBool>) -> Search<&E> {
        Search {
            evaluator: &self.evaluator,
            filter: self.filter,
            plies: self.plies,
            cache: self.cache.clone(),
            evaluations: Arc::clone(&self.evaluations),
            stop: Some(stop),
        }
    }

    /// A search over the same evaluator, depth, counters and stop flag
    /// with other move filters and `cache` (one made by
    /// [`new_cache`](Self::new_cache) for these filters, or kept from an
    /// earlier search with them): the engine's screened move analysis.
    pub(crate) fn alongside(&self, filter: MoveFilter, cache: Option<Arc<Cache>>) -> Search<&E> {
        Search {
            evaluator: &self.evaluator,
            filter,
            plies: self.plies,
            cache,
            evaluations: Arc::clone(&self.evaluations),
            stop: self.stop.clone(),
        }
    }

    /// This search's cache, for [`alongside`](Self::alongside).
    pub(crate) fn cache(&self) -> Option<Arc<Cache>> {
        self.cache.clone()
    }

    /// An empty cache of this search's size, for [`alongside`](Self::alongside).
    pub(crate) fn new_cache(&self) -> Option<Arc<Cache>> {
        Cache::new(self.cache_entries()).map(Arc::new)
    }

    /// Whether this search's stop flag is set: its answers from now on are
    /// meaningless.
    pub fn stopped(&self) -> bool {
        // Acquire: a node that sees the flag after a child returned a
        // meaningless value (having seen it) never caches its own.
        self.stop.as_ref().is_some_and(|s| s.load(Ordering::Acquire))
    }

    /// The same search with other move filters (and an empty cache).
    #[must_use]
    pub fn with_filter(mut self, filter: MoveFilter) -> Self {
        self.filter = filter;
        self.clear_cache();
        self
    }

    /// The same search with a cache of about `entries` entries (rounded up
    /// to a power of two); 0 turns the cache off.
    #[must_use]
    pub fn with_cache_entries(mut self, entries: usize) -> Self {
        self.cache = Cache::new(entries).map(Arc::new);
        self
    }

    /// The same search evaluating at `plies` when used as an [`Evaluator`].
    #[must_use]
    pub fn with_plies(mut self, plies: u8) -> Self {
        self.plies = plies;
        self
    }

    /// The evaluator searched with.
    pub fn evaluator(&self) -> &E {
        &self.evaluator
    }

    /// The move filters.
    pub fn filter(&self) -> &MoveFilter {
        &self.filter
    }

    /// The depth used as an [`Evaluator`].
    pub fn plies(&self) -> u8 {
        self.plies
    }

    /// Number of cache entries (0: no cache).
    pub fn cache_entries(&self) -> usize {
        self.cache.as_ref().map_or(0, |c| c.entries())
    }

    /// Empties the cache.
    pub fn clear_cache(&self) {
        if let Some(c) = &self.cache {
            c.clear();
        }
    }

    /// Work done since the search was made or [`reset_stats`](Self::reset_stats).
    pub fn stats(&self) -> SearchStats {
        let (cache_lookups, cache_hits) = self.cache.as_ref().map_or((0, 0), |c| c.counts());
        SearchStats { evaluations: self.evaluations.load(Ordering::Relaxed), cache_lookups, cache_hits }
    }

    /// Sets the work counters to zero.
    pub fn reset_stats(&self) {
        self.evaluations.store(0, Ordering::Relaxed);
        if let Some(c) = &self.cache {
            c.reset_counts();
        }
    }

    /// The value of `pos` for its side on roll, before rolling, at `plies`
    /// plies (0 = static evaluation). Any depth works; each ply multiplies
    /// the time by about 21 x the moves searched per roll, so more than 3 is
    /// impractical. From 2 plies on the 21 rolls are searched in parallel.
    pub fn value(&self, pos: &Position, plies: u8) -> Probabilities {
        if let Some(p) = self.without_search(pos, plies) {
            return p;
        }
        if self.stopped() {
            return Probabilities::default();
        }
        let after: Vec<Probabilities> = if plies >= 2 {
            ALL_ROLLS.par_iter().map(|&dice| with_scratch(|s| self.after_roll(s, pos, dice, plies))).collect()
        } else {
            with_scratch(|s| ALL_ROLLS.iter().map(|&dice| self.after_roll(s, pos, dice, plies)).collect())
        };
        let p = combine(&after);
        self.put_searched(pos, plies, p);
        p
    }

    /// The move [`value`](Self::value) plays inside its lookahead for `dice`
    /// in `pos` when `plies` more plies are searched after it: the best by
    /// static evaluation, or with a wider [`MoveFilter::lookahead`] the best
    /// of its candidates valued at `plies`. Returns the position after it,
    /// seen by the opponent (the opponent on roll in the same position when
    /// no checker can move).
    pub fn play(&self, pos: &Position, dice: Dice, plies: u8) -> Position {
        with_scratch(|s| self.reply_in(s, pos, dice, plies).0)
    }

    /// Every legal move of `pos` (side on roll) for `dice`, ranked best first
    /// (see the [module documentation](self)): the moves that survived every
    /// screen evaluated at `plies`, the others at the depth they reached.
    /// An empty list when no checker can move.
    ///
    /// # Errors
    /// [`SearchError::GameOver`] if the game is over in `pos`.
    pub fn analyse_roll(&self, pos: &Position, dice: Dice, plies: u8) -> Result<Vec<RankedMove>, SearchError> {
        if pos.game_result().is_some() {
            return Err(SearchError::GameOver);
        }
        let list = pos.legal_moves(dice);
        let ranked = self.rank_results(list.positions(), plies);
        let best = ranked.first().map_or(0.0, |r| r.equity);
        Ok(ranked
            .into_iter()
            .filter_map(|r| {
                let (&mv, &result) = (list.moves().get(r.index)?, list.positions().get(r.index)?);
                Some(RankedMove {
                    mv,
                    result,
                    probabilities: r.probabilities,
                    equity: r.equity,
                    loss: best - r.equity,
                    plies: r.plies,
                })
            })
            .collect())
    }

    /// Ranks `results` (the legal results of one roll, each seen by the
    /// opponent, now on roll) for the mover through the root screens of the
    /// filter, as [`analyse_roll`](Self::analyse_roll) does: best first,
    /// deeper evaluations before shallower ones, ties in the given order.
    pub fn rank_results(&self, results: &[Position], plies: u8) -> Vec<RankedResult> {
        let mut ranked: Vec<RankedResult> = self
            .static_values(results)
            .into_iter()
            .enumerate()
            .map(|(index, p)| {
                let probabilities = p.inverted();
                RankedResult { index, probabilities, equity: probabilities.equity(), plies: 0 }
            })
            .collect();
        let by_equity = |ranked: &[RankedResult], a: &usize, b: &usize| {
            ranked[*b].equity.total_cmp(&ranked[*a].equity).then(a.cmp(b))
        };
        let mut survivors: Vec<usize> = (0..ranked.len()).collect();
        if plies > 0 {
            survivors.sort_by(|a, b| by_equity(&ranked, a, b));
            for depth in 0..plies {
                let Some(screen) = self.filter.root.get(usize::from(depth)).copied().flatten() else { continue };
                if depth > 0 {
                    self.deepen(results, &mut ranked, &survivors, depth);
                    survivors.sort_by(|a, b| by_equity(&ranked, a, b));
                }
                let keep = screen.keep(survivors.iter().map(|&i| ranked[i].equity));
                survivors.truncate(keep);
            }
            self.deepen(results, &mut ranked, &survivors, plies);
        }
        ranked.sort_by(|a, b| b.plies.cmp(&a.plies).then(b.equity.total_cmp(&a.equity)).then(a.index.cmp(&b.index)));
        ranked
    }

    /// Evaluates `results[i]` for the `survivors` at `plies`, in parallel.
    fn deepen(&self, results: &[Position], ranked: &mut [RankedResult], survivors: &[usize], plies: u8) {
        let values: Vec<Probabilities> = survivors
            .par_iter()
            .map(|&i| results.get(i).map_or_else(Probabilities::default, |r| self.value(r, plies)))
            .collect();
        for (&i, v) in survivors.iter().zip(values) {
            if let Some(r) = ranked.get_mut(i) {
                r.probabilities = v.inverted();
                r.equity = r.probabilities.equity();
                r.plies = plies;
            }
        }
    }

    /// Static values of `positions` (each for its side on roll).
    pub(crate) fn static_values(&self, positions: &[Position]) -> Vec<Probabilities> {
        with_scratch(|s| {
            self.static_into(positions, &mut s.values, &mut s.misses, &mut s.miss_index, &mut s.miss_values);
            s.values.clone()
        })
    }

    /// The static value of one position.
    fn static_value(&self, pos: &Position) -> Probabilities {
        match node(pos) {
            Node::Exact(p) => p,
            Node::Leaf | Node::Search => {
                if let Some(p) = self.cache_get(pos, 0) {
                    return p;
                }
                self.evaluations.fetch_add(1, Ordering::Relaxed);
                let p = self.evaluator.evaluate(pos);
                self.cache_put(pos, 0, p);
                p
            }
        }
    }

    /// Static values of `positions` into `values`: exact ones, cached ones,
    /// and one evaluator batch for the rest.
    fn static_into(
        &self,
        positions: &[Position],
        values: &mut Vec<Probabilities>,
        misses: &mut Vec<Position>,
        miss_index: &mut Vec<usize>,
        miss_values: &mut Vec<Probabilities>,
    ) {
        values.clear();
        misses.clear();
        miss_index.clear();
        if let Some(c) = &self.cache {
            for pos in positions {
                c.prefetch(pos, 0);
            }
        }
        for (i, pos) in positions.iter().enumerate() {
            let v = match node(pos) {
                Node::Exact(p) => p,
                Node::Leaf | Node::Search => match self.cache_get(pos, 0) {
                    Some(p) => p,
                    None => {
                        misses.push(*pos);
                        miss_index.push(i);
                        Probabilities::default()
                    }
                },
            };
            values.push(v);
        }
        if misses.is_empty() {
            return;
        }
        miss_values.clear();
        miss_values.resize(misses.len(), Probabilities::default());
        self.evaluator.evaluate_batch(misses, miss_values);
        self.evaluations.fetch_add(misses.len() as u64, Ordering::Relaxed);
        for ((&i, pos), &p) in miss_index.iter().zip(misses.iter()).zip(miss_values.iter()) {
            if let Some(v) = values.get_mut(i) {
                *v = p;
            }
            self.cache_put(pos, 0, p);
        }
    }

    /// The value when no search is needed: exact (finished, bearoff), a leaf,
    /// 0 plies, or already in the cache.
    fn without_search(&self, pos: &Position, plies: u8) -> Option<Probabilities> {
        match node(pos) {
            Node::Exact(p) => Some(p),
            Node::Leaf => Some(self.static_value(pos)),
            Node::Search if plies == 0 => Some(self.static_value(pos)),
            Node::Search => self.cache_get(pos, plies),
        }
    }

    /// `value` without the parallel top level, using `s`.
    fn value_in(&self, s: &mut Scratch, pos: &Position, plies: u8) -> Probabilities {
        if let Some(p) = self.without_search(pos, plies) {
            return p;
        }
        if self.stopped() {
            return Probabilities::default();
        }
        let mut after = [Probabilities::default(); 21];
        for (a, &dice) in after.iter_mut().zip(ALL_ROLLS.iter()) {
            *a = self.after_roll(s, pos, dice, plies);
        }
        let p = combine(&after);
        self.put_searched(pos, plies, p);
        p
    }

    /// The (plies - 1)-ply value, for the opponent, of the position after the
    /// best move of `pos` for `dice` (`plies` >= 1).
    fn after_roll(&self, s: &mut Scratch, pos: &Position, dice: Dice, plies: u8) -> Probabilities {
        let rest = plies.saturating_sub(1);
        let (next, value) = self.reply_in(s, pos, dice, rest);
        value.unwrap_or_else(|| self.value_in(s, &next, rest))
    }

    /// [`reply_in`](Self::reply_in) for the generated moves in `s.list`
    /// screened by pubeval: the best [`MoveFilter::prune`] of them by pubeval
    /// (ties in move order), of which the net's best is played.
    fn reply_pruned(&self, s: &mut Scratch, pos: &Position, rest: u8) -> (Position, Option<Probabilities>) {
        let race = !pos.has_contact();
        s.order.clear();
        s.order.extend(s.list.positions().iter().enumerate().map(|(i, r)| (-PubEval::score(&r.switched(), race), i)));
        s.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        s.pruned.clear();
        s.pruned.extend(s.order.iter().take(self.filter.prune).filter_map(|&(_, i)| s.list.positions().get(i)));
        self.static_into(&s.pruned, &mut s.values, &mut s.misses, &mut s.miss_index, &mut s.miss_values);
        // The best result for the mover is the worst for the opponent.
        let best = s.values.iter().enumerate().min_by(|a, b| a.1.equity().total_cmp(&b.1.equity()).then(a.0.cmp(&b.0)));
        let Some((i, value)) = best else { return (pos.switched(), None) };
        let result = s.pruned.get(i).copied().unwrap_or_else(|| pos.switched());
        (result, (rest == 0).then_some(*value))
    }

    /// The move the lookahead plays for `dice` in `pos`, `rest` plies being
    /// searched after it: the position after it (the opponent on roll in the
    /// same position when no checker can move) and its value for the
    /// opponent at `rest` plies where choosing the move needed it.
    fn reply_in(&self, s: &mut Scratch, pos: &Position, dice: Dice, rest: u8) -> (Position, Option<Probabilities>) {
        if self.stopped() {
            return (pos.switched(), Some(Probabilities::default()));
        }
        s.list.generate(pos, dice);
        if s.list.is_empty() {
            return (pos.switched(), None);
        }
        let prune = self.filter.prune;
        if prune > 0 && self.filter.lookahead.max <= 1 && s.list.len() > prune {
            return self.reply_pruned(s, pos, rest);
        }
        self.static_into(s.list.positions(), &mut s.values, &mut s.misses, &mut s.miss_index, &mut s.miss_values);
        // The best result for the mover is the worst for the opponent.
        let mut best = 0;
        let mut best_equity = f32::INFINITY;
        for (i, v) in s.values.iter().enumerate() {
            let e = v.equity();
            if e < best_equity {
                best_equity = e;
                best = i;
            }
        }
        let best_result = s.list.positions().get(best).copied().unwrap_or_else(|| pos.switched());
        if rest == 0 {
            return (best_result, Some(s.values.get(best).copied().unwrap_or_default()));
        }
        if self.filter.lookahead.max <= 1 || s.values.len() == 1 {
            return (best_result, None);
        }
        let base = s.stack.len();
        s.order.clear();
        s.order.extend(s.values.iter().enumerate().map(|(i, v)| (v.equity(), i)));
        s.order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // Opponent's equities ascending = the mover's descending.
        let keep = self.filter.lookahead.keep(s.order.iter().map(|&(e, _)| -e));
        for &(_, i) in s.order.iter().take(keep) {
            if let Some(&r) = s.list.positions().get(i) {
                s.stack.push(r);
            }
        }
        let mut chosen: Option<(Position, Probabilities)> = None;
        for k in base..s.stack.len() {
            let Some(&r) = s.stack.get(k) else { break };
            let v = self.value_in(s, &r, rest);
            if chosen.is_none_or(|(_, c)| v.equity() < c.equity()) {
                chosen = Some((r, v));
            }
        }
        s.stack.truncate(base);
        chosen.map_or((best_result, None), |(r, v)| (r, Some(v)))
    }

    fn cache_get(&self, pos: &Position, plies: u8) -> Option<Probabilities> {
        self.cache.as_ref().and_then(|c| c.get(pos, plies))
    }

    fn cache_put(&self, pos: &Position, plies: u8, p: Probabilities) {
        if let Some(c) = &self.cache {
            c.put(pos, plies, p);
        }
    }

    /// Caches a searched value unless the search was stopped while it was
    /// being computed (then some of its parts may be meaningless). Static
    /// values are cached by [`cache_put`](Self::cache_put): they are right
    /// whatever the flag says.
    fn put_searched(&self, pos: &Position, plies: u8, p: Probabilities) {
        if !self.stopped() {
            self.cache_put(pos, plies, p);
        }
    }
}

/// The search as an evaluator at its [`plies`](Search::plies): values are
/// [`Search::value`], the best move is the first of [`Search::rank_results`].
impl<E: Evaluator> Evaluator for Search<E> {
    fn evaluate_batch(&self, positions: &[Position], out: &mut [Probabilities]) {
        for (pos, o) in positions.iter().zip(out.iter_mut()) {
            *o = self.value(pos, self.plies);
        }
    }

    fn best_move(&self, _before: &Position, results: &[Position]) -> usize {
        self.rank_results(results, self.plies).first().map_or(0, |r| r.index)
    }

    fn name(&self) -> String {
        format!("{} {}-ply", self.evaluator.name(), self.plies)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gammon_eval::NetEvaluator;

    #[test]
    fn play_is_the_move_value_plays() {
        let s = Search::new(NetEvaluator::shipped().unwrap());
        let pos = Position::STARTING;
        let after: Vec<Probabilities> = ALL_ROLLS.iter().map(|&d| s.value(&s.play(&pos, d, 0), 0)).collect();
        assert_eq!(combine(&after), s.value(&pos, 1));
        let dice = Dice::new(3, 1).unwrap();
        let list = pos.legal_moves(dice);
        let best = s.rank_results(list.positions(), 0)[0].index;
        assert_eq!(s.play(&pos, dice, 0), list.positions()[best]);
    }

    #[test]
    fn zero_ply_is_the_evaluator_and_one_ply_differs() {
        let net = NetEvaluator::shipped().unwrap();
        let s = Search::new(net.clone());
        let v0 = s.value(&Position::STARTING, 0);
        assert_eq!(v0, net.evaluate(&Position::STARTING));
        let v1 = s.value(&Position::STARTING, 1);
        assert_ne!(v0, v1);
        // Cached: the same again.
        assert_eq!(s.value(&Position::STARTING, 1), v1);
        assert!(s.stats().cache_hits > 0);
    }
}
