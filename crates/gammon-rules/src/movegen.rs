//! The move generator: every distinct position a roll can lead to, once.
//!
//! Rules applied here, each by name:
//! - [`legal_sources`]: `ENTER_FROM_BAR_FIRST`, `BLOCKED_POINT`,
//!   `BEAR_OFF_ALL_HOME`, `BEAR_OFF_HIGHER_DIE`.
//! - [`MoveList::generate`]: `USE_BOTH_DICE`, `LARGER_DIE_IF_ONLY_ONE`,
//!   `DIE_ORDER_FORCED` (found by trying both orders), `DOUBLES_FOUR_TIMES`,
//!   `DOUBLES_PARTLY_PLAYABLE`, `NO_LEGAL_MOVE`.
//!
//! The checkers are moved on the switched board (the mover is the side not
//! on roll there, his checkers moving up from slot 0, his bar), with the same
//! rules mirrored, so that every result is already seen by the player who
//! moves next: no result is switched.
//!
//! Doubles are searched with checkers taken from non-increasing points, which
//! reaches each multiset of start points once, and distinct multisets give
//! distinct positions (moving a checker from `f` adds `e[f-d] - e[f]` to the
//! board; taking the highest `f`, these vectors are independent), so doubles
//! need no deduplication. Non-doubles try both die orders; only a few kinds
//! of plays can repeat a position (one checker's way, two checkers adding up
//! to it, two checkers borne off that either die takes off; see
//! `Buffers::two_steps`). Where nothing is borne off these are recognised
//! from the masks; otherwise they go through a small open-addressing table
//! that is never cleared (each call bumps a generation stamp instead). All
//! other plays are kept as they come.
//!
//! Boards where no step can enter or bear off, or where every checker is
//! home, get their own copies of the loops with cheaper source masks
//! (`INSIDE`, `ON_BAR`, `HOME`).
//!
//! The results, their moves and their order are those of playing every die
//! order on the mover's board and keeping the first of equal positions (a
//! test checks it against that generator, `movegen/tests.rs`). Nothing is
//! allocated per call.

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

    #[inline(always)]
    const fn one(a: Step) -> Move {
        Move { steps: [a, Step { from: 0, to: 0 }, Step { from: 0, to: 0 }, Step { from: 0, to: 0 }], len: 1 }
    }

    #[inline(always)]
    const fn two(a: Step, b: Step) -> Move {
        Move { steps: [a, b, Step { from: 0, to: 0 }, Step { from: 0, to: 0 }], len: 2 }
    }

    #[inline(always)]
    const fn three(a: Step, b: Step, c: Step) -> Move {
        Move { steps: [a, b, c, Step { from: 0, to: 0 }], len: 3 }
    }

    #[inline(always)]
    const fn four(a: Step, b: Step, c: Step, d: Step) -> Move {
        Move { steps: [a, b, c, d], len: 4 }
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

/// [`legal_sources`] for the side not on roll, on the switched board `q`:
/// the slots (`25 - point`) from which the player who just switched out (the
/// mover) may move `die` pips, his checkers moving up. The same rules,
/// mirrored.
#[inline(always)]
fn mover_sources(q: &Position, die: u8) -> u32 {
    sources_of(q.their_occupied(), q.my_made_points(), die)
}

/// [`mover_sources`] from the masks it reads: the mover's occupied slots and
/// the slots he cannot land on.
#[inline(always)]
fn sources_of(mover: u32, blocked: u32, die: u8) -> u32 {
    let d = u32::from(die);
    // ENTER_FROM_BAR_FIRST: his bar is slot 0, entering lands on slot `die`.
    if mover & 1 != 0 {
        return u32::from(blocked & (1 << d) == 0);
    }
    // BLOCKED_POINT: slots up to 24 - die move inside the board unless the landing slot is blocked.
    let mut sources = mover & !(blocked >> d) & ((1 << (25 - d)) - 1);
    // BEAR_OFF_ALL_HOME: his home board is slots 19..=24.
    if mover != 0 && mover & !MOVER_HOME == 0 {
        let exact = 1 << (25 - d);
        if mover & exact != 0 {
            sources |= exact;
        } else {
            // BEAR_OFF_HIGHER_DIE: from his highest point (lowest slot) only.
            let highest = mover.trailing_zeros();
            if highest > 25 - d {
                sources |= 1 << highest;
            }
        }
    }
    sources
}

/// Kinds of boards for [`Buffers::doubles_with`] and [`Buffers::two_steps`].
const ANY: u8 = 0;
const INSIDE: u8 = 1;
const ON_BAR: u8 = 2;
const HOME: u8 = 3;

/// [`sources_of`] when all the mover's checkers are home (so they stay
/// home): `open` as for [`sources_of`], `exact` the slot borne off exactly
/// by the die. No branch.
#[inline(always)]
fn home_sources(mover: u32, open: u32, exact: u32) -> u32 {
    // BEAR_OFF_HIGHER_DIE: his highest point (lowest slot), when above the
    // exact one (so the exact one is empty).
    let highest = mover & mover.wrapping_neg();
    let higher = if highest > exact { highest } else { 0 };
    mover & (open | exact) | higher
}

/// The mover's home board on the switched board: slots 19..=24.
const MOVER_HOME: u32 = 0b11_1111 << 19;

const TABLE_BITS: u32 = 13;
const TABLE_SIZE: usize = 1 << TABLE_BITS;
const INDEX_BITS: u32 = 12;
/// Capacity of a [`MoveList`]. No position has more distinct results: a
/// double moves at most 4 steps among at most 15 checker points,
/// C(18, 4) = 3,060 multisets, and the landing squares fix the hits.
pub const MAX_MOVES: usize = 1 << INDEX_BITS;

/// The step of the mover's checker from slot `from` of the switched board
/// (his point `25 - from`) by `die`, in his numbering.
#[inline(always)]
const fn step_at(from: usize, die: u8) -> Step {
    STEPS[die as usize % 8][from % 32]
}

/// [`step_at`] for every die and slot.
const STEPS: [[Step; 32]; 8] = {
    let mut t = [[Step { from: 0, to: 0 }; 32]; 8];
    let mut die = 1;
    while die <= 6 {
        let mut from = 0;
        while from <= 24 {
            let point = BAR - from;
            t[die][from] = Step { from: point as u8, to: point.saturating_sub(die) as u8 };
            from += 1;
        }
        die += 1;
    }
    t
};

/// A heap array of `N` copies of `value`, built without a large stack copy.
fn boxed_array<T: Clone, const N: usize>(value: T) -> Box<[T; N]> {
    vec![value; N].into_boxed_slice().try_into().unwrap_or_else(|_| unreachable!("the vector has N elements"))
}

/// The fixed-size storage of a [`MoveList`] (about 200 KiB): results are
/// written by index, without length or capacity checks.
struct Buffers {
    positions: Box<[Position; MAX_MOVES]>,
    moves: Box<[Move; MAX_MOVES]>,
    /// Open addressing: `stamp << INDEX_BITS | index`; a stale stamp = empty.
    table: Box<[u32; TABLE_SIZE]>,
    stamp: u32,
}

/// How many dropped lists' buffers a thread keeps for the next new ones.
const SPARE_BUFFERS: usize = 4;

thread_local! {
    /// Buffers of dropped lists: a new list takes these instead of
    /// allocating and filling its own, so that a short-lived list (one game,
    /// one [`Position::legal_moves`]) costs no more than before.
    static SPARE: std::cell::RefCell<Vec<Buffers>> = const { std::cell::RefCell::new(Vec::new()) };
}

impl Buffers {
    /// A spare set of this thread's, or a new one.
    fn take() -> Buffers {
        SPARE.try_with(|spare| spare.borrow_mut().pop()).ok().flatten().unwrap_or_else(|| Buffers {
            positions: boxed_array(Position::STARTING),
            moves: boxed_array(Move::NONE),
            table: boxed_array(0),
            stamp: 0,
        })
    }
}

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
    /// Taken at the first [`generate`](Self::generate).
    buffers: Option<Buffers>,
    len: usize,
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

impl Drop for MoveList {
    fn drop(&mut self) {
        if let Some(buffers) = self.buffers.take() {
            // During the thread's teardown the buffers are simply freed.
            let _ = SPARE.try_with(|spare| {
                let mut spare = spare.borrow_mut();
                if spare.len() < SPARE_BUFFERS {
                    spare.push(buffers);
                }
            });
        }
    }
}

impl MoveList {
    /// An empty list with room for any position's moves. Allocates nothing
    /// until the first [`generate`](Self::generate).
    pub const fn new() -> Self {
        MoveList { buffers: None, len: 0, dice_used: 0 }
    }

    /// Number of distinct results (0 when no checker can move).
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when no checker can move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The resulting positions, from the point of view of the player who
    /// moves next.
    #[inline]
    pub fn positions(&self) -> &[Position] {
        match &self.buffers {
            Some(b) => &b.positions[..self.len],
            None => &[],
        }
    }

    /// One move for each result, same order as [`positions`](Self::positions).
    #[inline]
    pub fn moves(&self) -> &[Move] {
        match &self.buffers {
            Some(b) => &b.moves[..self.len],
            None => &[],
        }
    }

    /// `(move, resulting position)` pairs.
    pub fn iter(&self) -> impl Iterator<Item = (Move, Position)> + '_ {
        self.moves().iter().copied().zip(self.positions().iter().copied())
    }

    /// How many dice every legal move uses (0 to 2, doubles 0 to 4).
    #[inline]
    pub fn dice_used(&self) -> u8 {
        self.dice_used
    }

    /// Fills the list with the legal moves of `pos` (I am on roll) for `dice`.
    pub fn generate(&mut self, pos: &Position, dice: Dice) {
        // The checkers move on the switched board (the mover is "they" there,
        // his checkers moving up from slot 0), so every result is already seen
        // by the player who moves next.
        let q = pos.switched();
        let buffers = self.buffers.get_or_insert_with(Buffers::take);
        let (len, used) = if dice.is_double() {
            // DOUBLES_FOUR_TIMES, or as many as can be played (DOUBLES_PARTLY_PLAYABLE).
            buffers.doubles(&q, dice.high())
        } else {
            buffers.non_doubles(&q, dice.high(), dice.low())
        };
        self.len = len;
        self.dice_used = used;
    }
}

impl Buffers {
    /// Appends a result at `*n`.
    #[inline(always)]
    fn push(&mut self, n: &mut usize, pos: Position, m: Move) {
        debug_assert!(*n < MAX_MOVES);
        let i = *n & (MAX_MOVES - 1);
        self.positions[i] = pos;
        self.moves[i] = m;
        *n += 1;
    }

    /// Non-doubles: `(results, dice used)`.
    fn non_doubles(&mut self, q: &Position, high: u8, low: u8) -> (usize, u8) {
        let mut n = 0;
        self.next_stamp();
        // USE_BOTH_DICE, in either order (DIE_ORDER_FORCED when only one works).
        let high_sources = mover_sources(q, high);
        let low_sources = mover_sources(q, low);
        let mover = q.their_occupied();
        // His checkers outside his home board (his bar is empty when slot 0 is clear).
        let outside = mover & !MOVER_HOME;
        // Not on the bar, and two or more checkers outside the home board
        // (`blocked_points` of the switched board are the mover's made
        // points): no step of this roll enters or bears off.
        let inside = mover & 1 == 0 && (outside & outside.wrapping_sub(1) != 0 || outside & q.blocked_points() != 0);
        let home = mover & !MOVER_HOME == 0;
        if inside {
            self.two_steps::<false, INSIDE>(&mut n, q, high, low, high_sources, u32::MAX);
        } else if home {
            self.two_steps::<false, HOME>(&mut n, q, high, low, high_sources, u32::MAX);
        } else {
            self.two_steps::<false, ANY>(&mut n, q, high, low, high_sources, u32::MAX);
        }
        // Low die first, then the high die from a point that could already
        // play it at the start: the high-first pass made that same position
        // (the high step does not change whether the low step is legal), so
        // it is skipped. What is left are the orders that need the low die
        // first: entering from the bar, a checker continuing, a point freed.
        if inside {
            // The high die can only newly play from where the low step
            // landed, a point that was empty (else it was a source already)
            // with its landing open: one checker's way, at most one result
            // per low step, in the same order.
            let blocked = q.my_made_points();
            let mut through = (low_sources << low) & !mover & !(blocked >> high) & ((1 << (25 - high)) - 1);
            // The only other play with the same result is the same checker's
            // way with the high die first (the low step's landing point held
            // no checker of his, so no two checkers add up to it): the
            // high-first pass played it when its middle point is open, with
            // the same result when neither middle point held a blot to hit.
            // Those are dropped here, the others kept without the table.
            let blots = q.my_occupied() & !blocked & !BAR_BIT;
            let gap = high - low;
            through &= !(!blots & !((blocked | blots) >> gap));
            while through != 0 {
                let mid = 31 - through.leading_zeros() as usize;
                through ^= 1 << mid;
                let from = mid - usize::from(low);
                let mut p = *q;
                p.apply_their_step(from, low);
                p.apply_their_step(mid, high);
                self.push(&mut n, p, Move::two(step_at(from, low), step_at(mid, high)));
            }
        } else if home {
            self.two_steps::<true, HOME>(&mut n, q, low, high, low_sources, !high_sources);
        } else {
            self.two_steps::<true, ANY>(&mut n, q, low, high, low_sources, !high_sources);
        }
        if n > 0 {
            return (n, 2);
        }
        // LARGER_DIE_IF_ONLY_ONE: only one die can be used; the larger one if it can.
        // Different start points give different positions: nothing to merge.
        for (die, mut sources) in [(high, high_sources), (low, low_sources)] {
            if sources == 0 {
                continue;
            }
            while sources != 0 {
                let from = 31 - sources.leading_zeros() as usize;
                sources ^= 1 << from;
                let mut p = *q;
                p.apply_their_step(from, die);
                self.push(&mut n, p, Move::one(step_at(from, die)));
            }
            return (n, 1);
        }
        // NO_LEGAL_MOVE: the list stays empty.
        (0, 0)
    }

    /// Both dice, `first` then `second`: the first from `sources` (slots of
    /// the switched board), the second from any slot in `allowed`; start
    /// points in increasing order (decreasing slots).
    ///
    /// Two plays can only give the same position when the second step starts
    /// where the first ended or ends where the first started (one checker's
    /// way, or two checkers' that add up to it), or when both checkers are
    /// borne off from points the low die reaches (either die takes either
    /// off). Otherwise the play moves two checkers by unequal dice without
    /// cancelling: its position loses a checker on each of the two start
    /// points `a` and `b` and gains one on each end point (off counting as
    /// point 0), and another such play with the same start points moves `b`
    /// by the high die and `a` by the low one, which ends on the same points
    /// only when both are clamped to 0 for both dice (`a, b <= low`); a play
    /// with cancelling steps loses a checker on one point only. Each pair of
    /// (start, die) is played once (in one order: the low-first pass skips
    /// the orders the high-first pass plays). So only the plays that may
    /// repeat go through the table.
    ///
    /// With `PRECHECK`, the second die's sources are first found from the
    /// masks alone (what [`mover_sources`] reads), and the first step is only
    /// played when one is `allowed`: for the low-first pass, where most
    /// first steps have none. `KIND` [`INSIDE`] (the high-first pass only):
    /// no step can enter or bear off, so the sources are the occupied slots
    /// whose landing is open, and the one kind of play that can repeat is
    /// recognised from the masks: no table. [`HOME`]: all the mover's
    /// checkers are home ([`home_sources`]).
    #[inline(always)]
    fn two_steps<const PRECHECK: bool, const KIND: u8>(
        &mut self,
        n: &mut usize,
        q: &Position,
        first: u8,
        second: u8,
        mut sources: u32,
        allowed: u32,
    ) {
        let d = u32::from(second);
        // Slots up to 24 - die whose landing slot is not blocked.
        let open = !(q.my_made_points() >> d) & ((1 << (25 - d)) - 1);
        let exact = 1 << (25 - d);
        // The second step's sources for the mover's slots after the first.
        let second_sources = |mover: u32| {
            if KIND == HOME {
                home_sources(mover, open, exact)
            } else {
                sources_of(mover, q.my_made_points(), second)
            }
        };
        // Slots of points the low die bears off from (when bearing off).
        let low_reach = u32::MAX << (BAR - usize::from(first.min(second)));
        // The slots where the mover can hit a blot.
        let blots = q.my_occupied() & !q.my_made_points() & !BAR_BIT;
        while sources != 0 {
            let from = 31 - sources.leading_zeros() as usize;
            sources ^= 1 << from;
            if PRECHECK {
                // The mover's slots after the first step, as `apply_their_step` leaves them.
                let landing = from + usize::from(first);
                let landing_bit = if landing < BAR { 1 << landing } else { 0 };
                let mover = q.their_occupied() & (q.their_made_slots() | !(1 << from)) | landing_bit;
                if second_sources(mover) & allowed == 0 {
                    continue;
                }
            }
            let mut p1 = *q;
            p1.apply_their_step(from, first);
            let step1 = step_at(from, first);
            let to = from + usize::from(first);
            if KIND == INSIDE {
                // The high-first pass with nothing borne off: only one
                // checker's way can repeat a play, and only the one played
                // just before it, by two checkers (the high die from where the
                // low die lands, then the low die onto it). That play exists
                // when he has a checker there, and gives the same position
                // unless the way's middle point held a blot to hit.
                debug_assert!(first > second && allowed == u32::MAX);
                let same = q.their_occupied() & (1 << (from + usize::from(second))) != 0 && blots & (1 << to) == 0;
                let mut next = p1.their_occupied() & open & !(u32::from(same) << to);
                while next != 0 {
                    let from2 = 31 - next.leading_zeros() as usize;
                    next ^= 1 << from2;
                    let mut p2 = p1;
                    p2.apply_their_step(from2, second);
                    self.push(n, p2, Move::two(step1, step_at(from2, second)));
                }
                continue;
            }
            // The second steps that may give a position another play gives:
            // from where the first ended, onto where it started, or off.
            let onto = if to < BAR { 1 << to } else { 0 };
            // Both checkers within the low die of home: swapping the dice may
            // bear off the same two.
            let swap = if (1 << from) & low_reach != 0 { low_reach } else { 0 };
            let may_repeat = onto | ((1 << from) >> second) | swap;
            let mut next = second_sources(p1.their_occupied()) & allowed;
            while next != 0 {
                let from2 = 31 - next.leading_zeros() as usize;
                next ^= 1 << from2;
                let mut p2 = p1;
                p2.apply_their_step(from2, second);
                let m = Move::two(step1, step_at(from2, second));
                if may_repeat & (1 << from2) != 0 {
                    self.insert(n, p2, m);
                } else {
                    self.push(n, p2, m);
                }
            }
        }
    }

    /// Doubles: `(results, dice used)`. Checkers are taken from
    /// non-increasing points (non-decreasing slots), four levels deep; a
    /// play that cannot go on is kept only while no longer one was found.
    fn doubles(&mut self, q: &Position, die: u8) -> (usize, u8) {
        let mover = q.their_occupied();
        let outside = mover & !MOVER_HOME;
        if mover & !MOVER_HOME == 0 {
            // All home (and not on the bar): bearing off, every step.
            self.doubles_with::<HOME>(q, die)
        } else if mover & 1 != 0 {
            // On the bar: no step of this roll bears off (a checker entered is
            // still outside the home board after three steps).
            self.doubles_with::<ON_BAR>(q, die)
        } else if outside.count_ones() + (outside & q.blocked_points()).count_ones() >= 5 {
            // Five or more checkers outside the home board (2+ on a made
            // point): no step of this roll enters or bears off.
            self.doubles_with::<INSIDE>(q, die)
        } else {
            self.doubles_with::<ANY>(q, die)
        }
    }

    /// [`doubles`](Self::doubles) for boards of one `KIND`: [`ANY`], or
    /// where no step can bear off, so that a board's sources with `die` are
    /// its occupied slots whose landing is open ([`INSIDE`]), or only the bar
    /// while a checker is there ([`ON_BAR`], `ENTER_FROM_BAR_FIRST`), or
    /// where every checker is home ([`HOME`], [`home_sources`]).
    #[inline(always)]
    fn doubles_with<const KIND: u8>(&mut self, q: &Position, die: u8) -> (usize, u8) {
        let d = u32::from(die);
        // Slots up to 24 - die whose landing slot is not blocked.
        let open = !(q.my_made_points() >> d) & ((1 << (25 - d)) - 1);
        let exact = 1 << (25 - d);
        let sources = |p: &Position, from: usize| {
            let mover = p.their_occupied();
            let all = match KIND {
                INSIDE => mover & open,
                ON_BAR if mover & 1 != 0 => open & 1,
                ON_BAR => mover & open,
                HOME => home_sources(mover, open, exact),
                _ => mover_sources(p, die),
            };
            all & (u32::MAX << from)
        };
        let mut n = 0;
        let mut used = 0;
        let mut sources1 = sources(q, 0);
        while sources1 != 0 {
            let from1 = sources1.trailing_zeros() as usize;
            sources1 &= sources1 - 1;
            let mut p1 = *q;
            p1.apply_their_step(from1, die);
            let s1 = step_at(from1, die);
            let mut sources2 = sources(&p1, from1);
            if sources2 == 0 {
                self.keep(&mut n, &mut used, 1, p1, Move::one(s1));
                continue;
            }
            while sources2 != 0 {
                let from2 = sources2.trailing_zeros() as usize;
                sources2 &= sources2 - 1;
                let mut p2 = p1;
                p2.apply_their_step(from2, die);
                let s2 = step_at(from2, die);
                let mut sources3 = sources(&p2, from2);
                if sources3 == 0 {
                    self.keep(&mut n, &mut used, 2, p2, Move::two(s1, s2));
                    continue;
                }
                while sources3 != 0 {
                    let from3 = sources3.trailing_zeros() as usize;
                    sources3 &= sources3 - 1;
                    let mut p3 = p2;
                    p3.apply_their_step(from3, die);
                    let s3 = step_at(from3, die);
                    let mut sources4 = sources(&p3, from3);
                    if sources4 == 0 {
                        self.keep(&mut n, &mut used, 3, p3, Move::three(s1, s2, s3));
                        continue;
                    }
                    while sources4 != 0 {
                        let from4 = sources4.trailing_zeros() as usize;
                        sources4 &= sources4 - 1;
                        let mut p4 = p3;
                        p4.apply_their_step(from4, die);
                        self.keep(&mut n, &mut used, 4, p4, Move::four(s1, s2, s3, step_at(from4, die)));
                    }
                }
            }
        }
        (n, used)
    }

    /// Keeps only the results of a double that use the most dice.
    #[inline(always)]
    fn keep(&mut self, n: &mut usize, used: &mut u8, depth: u8, pos: Position, m: Move) {
        if depth > *used {
            *n = 0;
            *used = depth;
        }
        if depth == *used {
            // Each multiset of steps is reached once and gives its own position.
            debug_assert!(!self.positions[..*n].contains(&pos));
            self.push(n, pos, m);
        }
    }

    #[inline]
    fn next_stamp(&mut self) {
        self.stamp += 1;
        if self.stamp >= 1 << (32 - INDEX_BITS) {
            self.table.fill(0);
            self.stamp = 1;
        }
    }

    /// Appends `pos` unless an equal position is already in the list.
    #[inline]
    fn insert(&mut self, n: &mut usize, pos: Position, m: Move) {
        let mut slot = hash(&pos);
        loop {
            let entry = self.table[slot];
            if entry >> INDEX_BITS != self.stamp {
                self.table[slot] = (self.stamp << INDEX_BITS) | *n as u32;
                self.push(n, pos, m);
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
mod tests;
