//! The move generator: every distinct position a roll can lead to, once.
//!
//! Rules applied here, each by name:
//! - [`legal_sources`]: `ENTER_FROM_BAR_FIRST`, `BLOCKED_POINT`,
//!   `BEAR_OFF_ALL_HOME`, `BEAR_OFF_HIGHER_DIE`.
//! - [`MoveList::generate`]: `USE_BOTH_DICE`, `LARGER_DIE_IF_ONLY_ONE`,
//!   `DIE_ORDER_FORCED` (found by trying both orders), `DOUBLES_FOUR_TIMES`,
//!   `DOUBLES_PARTLY_PLAYABLE`, `NO_LEGAL_MOVE`.
//!
//! Doubles are searched with checkers taken from non-increasing points, which
//! reaches each multiset of start points once, and distinct multisets give
//! distinct positions (moving a checker from `f` adds `e[f-d] - e[f]` to the
//! board; taking the highest `f`, these vectors are independent), so doubles
//! need no deduplication. Non-doubles try both die orders; equal results
//! (different checkers or orders, same position) are merged by a small
//! open-addressing table that is never cleared: each call bumps a generation
//! stamp instead. Nothing is allocated per call.

use crate::dice::Dice;
use crate::position::{Position, BAR, BAR_BIT};

/// One checker moved by one die: `from` 1..=25 (25 = bar), `to` 0..=24
/// (0 = off), both in the mover's numbering.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Step {
    /// Start point (25 = bar).
    pub from: u8,
    /// End point (0 = borne off).
    pub to: u8,
}

/// A whole move: up to four single-die steps in the order played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move {
    steps: [Step; 4],
    len: u8,
}

impl Move {
    /// The move that moves nothing (no legal move).
    pub const NONE: Move = Move { steps: [Step { from: 0, to: 0 }; 4], len: 0 };

    /// The single-die steps, in the order played.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..usize::from(self.len)]
    }

    /// True for the empty move (no checker could move).
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub(crate) const fn with_step(mut self, from: usize, to: usize) -> Move {
        self.steps[self.len as usize] = Step { from: from as u8, to: to as u8 };
        self.len += 1;
        self
    }

    /// Builds a move from steps, without any legality check.
    ///
    /// # Panics
    /// More than four steps.
    pub fn from_steps(steps: &[Step]) -> Move {
        assert!(steps.len() <= 4, "a move has at most four steps");
        let mut m = Move::NONE;
        for s in steps {
            m = m.with_step(usize::from(s.from), usize::from(s.to));
        }
        m
    }
}

impl std::fmt::Debug for Move {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Move(")?;
        for (i, s) in self.steps().iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}/{}", s.from, s.to)?;
        }
        f.write_str(")")
    }
}

/// The points from which one of my checkers may move `die` pips.
///
/// - `ENTER_FROM_BAR_FIRST`: while I have a checker on the bar, only the bar.
/// - `BLOCKED_POINT`: never onto a point with 2+ opposing checkers.
/// - `BEAR_OFF_ALL_HOME`: bearing off only with every checker in the home board.
/// - `BEAR_OFF_HIGHER_DIE`: a die larger than needed bears off from the
///   highest occupied point only, when no checker stands on the exact point.
#[inline]
pub fn legal_sources(pos: &Position, die: u8) -> u32 {
    let d = u32::from(die);
    let mine = pos.my_occupied();
    let blocked = pos.blocked_points();
    if mine & BAR_BIT != 0 {
        let entry = 25 - d;
        return if blocked & (1 << entry) == 0 { BAR_BIT } else { 0 };
    }
    // Points above the die move inside the board unless the landing point is blocked.
    let mut sources = mine & !(blocked << d) & !((2u32 << d) - 1);
    if mine != 0 && pos.all_home() {
        if mine & (1 << d) != 0 {
            sources |= 1 << d;
        } else {
            let highest = 31 - mine.leading_zeros();
            if highest < d {
                sources |= 1 << highest;
            }
        }
    }
    sources
}

/// Where a checker from `from` lands with `die` (0 = off).
#[inline]
const fn destination(from: usize, die: u8) -> usize {
    from.saturating_sub(die as usize)
}

const TABLE_BITS: u32 = 13;
const TABLE_SIZE: usize = 1 << TABLE_BITS;
const INDEX_BITS: u32 = 12;
/// Capacity of a [`MoveList`]. No position has more distinct results: a
/// double moves at most 4 steps among at most 15 checker points,
/// C(18, 4) = 3,060 multisets, and the landing squares fix the hits.
pub const MAX_MOVES: usize = 1 << INDEX_BITS;

/// A reusable buffer of legal moves: the distinct resulting positions (seen
/// by the player who moves next, as gnubg does) and one move reaching each.
///
/// ```
/// use gammon_rules::{Dice, MoveList, Position};
/// let mut list = MoveList::new();
/// list.generate(&Position::STARTING, Dice::new(3, 1).unwrap());
/// assert_eq!(list.len(), 16);
/// assert_eq!(list.dice_used(), 2);
/// ```
pub struct MoveList {
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Open addressing: `stamp << INDEX_BITS | index`; a stale stamp = empty.
    table: Box<[u32]>,
    stamp: u32,
    dice_used: u8,
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MoveList").field("len", &self.len()).field("dice_used", &self.dice_used).finish()
    }
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list with room for any position's moves.
    pub fn new() -> Self {
        MoveList {
            positions: Vec::with_capacity(MAX_MOVES),
            moves: Vec::with_capacity(MAX_MOVES),
            table: vec![0; TABLE_SIZE].into_boxed_slice(),
            stamp: 0,
            dice_used: 0,
        }
    }

    /// Number of distinct results (0 when no checker can move).
    #[inline]
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when no checker can move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The resulting positions, from the point of view of the player who
    /// moves next.
    #[inline]
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// One move for each result, same order as [`positions`](Self::positions).
    #[inline]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// `(move, resulting position)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Move, Position)> + '_ {
        self.moves.iter().copied().zip(self.positions.iter().copied())
    }

    /// How many dice every legal move uses (0 to 2, doubles 0 to 4).
    #[inline]
    pub fn dice_used(&self) -> u8 {
        self.dice_used
    }

    /// Fills the list with the legal moves of `pos` (I am on roll) for `dice`.
    pub fn generate(&mut self, pos: &Position, dice: Dice) {
        self.positions.clear();
        self.moves.clear();
        self.dice_used = 0;
        self.next_stamp();
        if dice.is_double() {
            // DOUBLES_FOUR_TIMES, or as many as can be played (DOUBLES_PARTLY_PLAYABLE).
            self.doubles(*pos, dice.high(), 0, BAR, Move::NONE);
        } else {
            self.non_doubles(pos, dice.high(), dice.low());
        }
        // Results are stored from the mover's view while deduplicating.
        for p in &mut self.positions {
            *p = p.switched();
        }
    }

    fn non_doubles(&mut self, pos: &Position, high: u8, low: u8) {
        // USE_BOTH_DICE, in either order (DIE_ORDER_FORCED when only one works).
        let high_sources = legal_sources(pos, high);
        for (first, second) in [(high, low), (low, high)] {
            // Low die first, then the high die from a point that could already
            // play it at the start: the high-first pass made that same position
            // (the high step does not change whether the low step is legal), so
            // it is skipped. What is left are the orders that need the low die
            // first: entering from the bar, a checker continuing, a point freed.
            let skip = if first == low { high_sources } else { 0 };
            let mut sources = if first == high { high_sources } else { legal_sources(pos, first) };
            while sources != 0 {
                let from = sources.trailing_zeros() as usize;
                sources &= sources - 1;
                let mut p1 = *pos;
                let to = destination(from, first);
                p1.apply_step(from, to);
                let m1 = Move::NONE.with_step(from, to);
                let mut next = legal_sources(&p1, second) & !skip;
                while next != 0 {
                    let from2 = next.trailing_zeros() as usize;
                    next &= next - 1;
                    let mut p2 = p1;
                    let to2 = destination(from2, second);
                    p2.apply_step(from2, to2);
                    self.insert(p2, m1.with_step(from2, to2));
                }
            }
        }
        if !self.positions.is_empty() {
            self.dice_used = 2;
            return;
        }
        // LARGER_DIE_IF_ONLY_ONE: only one die can be used; the larger one if it can.
        for die in [high, low] {
            let mut sources = legal_sources(pos, die);
            if sources == 0 {
                continue;
            }
            while sources != 0 {
                let from = sources.trailing_zeros() as usize;
                sources &= sources - 1;
                let mut p = *pos;
                let to = destination(from, die);
                p.apply_step(from, to);
                self.insert(p, Move::NONE.with_step(from, to));
            }
            self.dice_used = 1;
            return;
        }
        // NO_LEGAL_MOVE: the list stays empty.
    }

    /// Plays the `depth`-th die of a double, from points at or below `max_from`.
    fn doubles(&mut self, pos: Position, die: u8, depth: u8, max_from: usize, m: Move) {
        let mut sources = legal_sources(&pos, die) & ((2u32 << max_from) - 1);
        if sources == 0 {
            if depth > 0 {
                self.record_partial(pos, m, depth);
            }
            return;
        }
        while sources != 0 {
            let from = 31 - sources.leading_zeros() as usize;
            sources &= !(1 << from);
            let mut p = pos;
            let to = destination(from, die);
            p.apply_step(from, to);
            let m2 = m.with_step(from, to);
            if depth == 3 {
                self.record_partial(p, m2, 4);
            } else {
                self.doubles(p, die, depth + 1, from, m2);
            }
        }
    }

    /// Keeps only the results of a double that use the most dice.
    #[inline]
    fn record_partial(&mut self, pos: Position, m: Move, used: u8) {
        if used > self.dice_used {
            self.positions.clear();
            self.moves.clear();
            self.dice_used = used;
        }
        if used == self.dice_used {
            // Each multiset of steps is reached once and gives its own position.
            debug_assert!(!self.positions.contains(&pos));
            self.positions.push(pos);
            self.moves.push(m);
        }
    }

    fn next_stamp(&mut self) {
        self.stamp += 1;
        if self.stamp >= 1 << (32 - INDEX_BITS) {
            self.table.fill(0);
            self.stamp = 1;
        }
    }

    /// Adds `pos` unless an equal position is already in the list.
    #[inline]
    fn insert(&mut self, pos: Position, m: Move) {
        let mut slot = hash(&pos);
        loop {
            let entry = self.table[slot];
            if entry >> INDEX_BITS != self.stamp {
                let index = self.positions.len();
                debug_assert!(index < MAX_MOVES);
                self.table[slot] = (self.stamp << INDEX_BITS) | index as u32;
                self.positions.push(pos);
                self.moves.push(m);
                return;
            }
            if self.positions[(entry & (MAX_MOVES as u32 - 1)) as usize] == pos {
                return;
            }
            slot = (slot + 1) & (TABLE_SIZE - 1);
        }
    }
}

#[inline]
fn hash(pos: &Position) -> usize {
    let (lo, hi) = pos.hash_words();
    let h = (lo ^ hi.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - TABLE_BITS)) as usize
}

impl Position {
    /// All legal moves for `dice` in a new list. For repeated calls reuse a
    /// [`MoveList`] instead.
    pub fn legal_moves(&self, dice: Dice) -> MoveList {
        let mut list = MoveList::new();
        list.generate(self, dice);
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opening_31_has_16_results() {
        let list = Position::STARTING.legal_moves(Dice::new(3, 1).unwrap());
        assert_eq!(list.len(), 16);
        let ids: Vec<String> = list.positions().iter().map(Position::to_position_id).collect();
        assert!(ids.contains(&"sGfwATDgc/ABMA".to_string()));
    }

    #[test]
    fn results_are_consistent() {
        for dice in crate::ALL_ROLLS {
            for p in Position::STARTING.legal_moves(dice).positions() {
                assert!(p.is_consistent());
            }
        }
    }
}
