//! The position type: a packed, `Copy` board seen from the side on roll.
//!
//! # Layout
//!
//! A [`Position`] always describes the board from the point of view of the
//! player on roll ("me"). Points are numbered from my side: my point 1 is my
//! ace point, point 24 my farthest point. The board has 26 *slots*:
//!
//! | slot | holds |
//! |---|---|
//! | 0 | the opponent's bar (his point 25 = my point 0) |
//! | 1..=24 | my points 1..24; a slot holds my checkers or his, never both |
//! | 25 | my bar |
//!
//! Each slot's checker count is a 4-bit nibble of one `u128` (15 fits in a
//! nibble). Four 32-bit masks say which slots hold 1+ and 2+ checkers of each
//! side, so that blocking ("2+ opposing checkers"), hitting ("exactly one")
//! and "all checkers home" are single mask tests. Borne-off checkers are
//! `15 - checkers on board and bar`.
//!
//! Slot `i` for me is slot `25 - i` for the opponent, so switching sides is a
//! reversal of the nibbles and of the masks: a few shifts, no loop.

use crate::error::PositionError;

/// Checkers each side starts with.
pub const CHECKERS_PER_SIDE: u8 = 15;
/// The slot of the side on roll's bar (and its point number in notation).
pub const BAR: usize = 25;
/// The destination "off the board" in point numbering; also the slot of the
/// opponent's bar in a [`Position`].
pub const OFF: usize = 0;

const SLOTS_MASK: u32 = (1 << 26) - 1;
/// My home board: points 1..=6.
pub(crate) const HOME_BOARD: u32 = 0b111_1110;
pub(crate) const BAR_BIT: u32 = 1 << BAR;

/// One side's checkers in gnubg's layout: index `i` (0..24) holds the side's
/// checkers on its own point `i + 1`; index 24 holds its checkers on the bar.
pub type SideBoard = [u8; 25];

/// A backgammon position seen from the side on roll. 32 bytes, `Copy`.
///
/// ```
/// use gammon_rules::Position;
/// let start = Position::STARTING;
/// assert_eq!(start.pip_count(), (167, 167));
/// assert_eq!(start.switched(), start);
/// assert_eq!(start.to_position_id(), "4HPwATDgc/ABMA");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    /// 26 nibbles, slot `i` at bits `4i..4i+4`; bits 104.. are always zero.
    counts: u128,
    /// Slots with 1+ of my checkers (bits 1..=25).
    mine: u32,
    /// Slots with 1+ of the opponent's checkers (bits 0..=24).
    theirs: u32,
    /// Slots with 2+ of my checkers.
    my_made: u32,
    /// Slots with 2+ of the opponent's checkers: the points I cannot land on.
    their_made: u32,
}

/// Reverses the slot order of a 26-nibble board: slot `i` -> slot `25 - i`.
const fn reverse_slots(counts: u128) -> u128 {
    // Reversing the bytes reverses the nibble pairs; swapping the two nibbles
    // of each byte completes the reversal of all 32 nibbles (i -> 31 - i).
    // Shifting by 6 nibbles lands slot i on 25 - i.
    let r = counts.swap_bytes();
    let r = ((r >> 4) & LOW_NIBBLES) | ((r & LOW_NIBBLES) << 4);
    r >> 24
}

/// The low nibble of every byte.
const LOW_NIBBLES: u128 = 0x0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F_0F0F;

/// For each byte of a slot mask, the nibble mask of its eight slots.
const NIBBLE_MASKS: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                table[b] |= 0xF << (4 * bit);
            }
            bit += 1;
        }
        b += 1;
    }
    table
};

/// One checker in slot `i`: `1 << 4i`.
const SLOT_UNIT: [u128; 26] = {
    let mut t = [0u128; 26];
    let mut i = 0;
    while i < 26 {
        t[i] = 1 << (4 * i);
        i += 1;
    }
    t
};

/// Where the opponent's checker from slot `from` lands with `die`: slot
/// `from + die`, or nowhere (borne off) past slot 24.
const fn their_landing(from: usize, die: usize) -> Option<usize> {
    if from + die <= 24 {
        Some(from + die)
    } else {
        None
    }
}

/// `STEP_DELTA[die][from]`: the change of `counts` when the opponent moves
/// a checker from slot `from` by `die` (no hit), modulo 2^128.
/// (Rows and columns padded to powers of two: indexing needs no bounds check.)
const STEP_DELTA: [[u128; 32]; 8] = {
    let mut t = [[0u128; 32]; 8];
    let mut d = 1;
    while d <= 6 {
        let mut from = 0;
        while from <= 24 {
            let gain = match their_landing(from, d) {
                Some(to) => SLOT_UNIT[to],
                None => 0,
            };
            t[d][from] = gain.wrapping_sub(SLOT_UNIT[from]);
            from += 1;
        }
        d += 1;
    }
    t
};

/// `STEP_TO_BIT[die][from]`: the bit of the slot the opponent's checker
/// lands on, 0 when it is borne off.
const STEP_TO_BIT: [[u32; 32]; 8] = {
    let mut t = [[0u32; 32]; 8];
    let mut d = 1;
    while d <= 6 {
        let mut from = 0;
        while from <= 24 {
            if let Some(to) = their_landing(from, d) {
                t[d][from] = 1 << to;
            }
            from += 1;
        }
        d += 1;
    }
    t
};

/// Reverses four 26-bit slot masks at once (bit `i` -> bit `25 - i`) and
/// reverses their order: `[a, b, c, d]` -> `[rev d, rev c, rev b, rev a]`.
/// One 128-bit bit reversal instead of four 32-bit ones.
const fn reverse_masks(a: u32, b: u32, c: u32, d: u32) -> (u32, u32, u32, u32) {
    let packed = (a as u128) | (b as u128) << 32 | (c as u128) << 64 | (d as u128) << 96;
    // Lane k goes to lane 3 - k with bit i at 31 - i; 6 lower is 25 - i.
    let r = packed.reverse_bits() >> 6;
    (r as u32 & SLOTS_MASK, (r >> 32) as u32 & SLOTS_MASK, (r >> 64) as u32 & SLOTS_MASK, (r >> 96) as u32 & SLOTS_MASK)
}

impl Position {
    /// The starting position: 2 on the 24-point, 5 on the 13, 3 on the 8 and
    /// 5 on the 6, for both sides.
    pub const STARTING: Position = {
        let mut side = [0u8; 25];
        side[23] = 2;
        side[12] = 5;
        side[7] = 3;
        side[5] = 5;
        match Position::from_boards(&side, &side) {
            Ok(p) => p,
            Err(_) => panic!("the starting position is valid"),
        }
    };

    /// Builds a position from both sides' boards in gnubg's layout
    /// ([`SideBoard`], each in its own numbering), validating them.
    ///
    /// # Errors
    /// A side with more than 15 checkers, both sides on one point, or no
    /// checker left on either side (both cannot have won).
    pub const fn from_boards(on_roll: &SideBoard, opponent: &SideBoard) -> Result<Self, PositionError> {
        let mut p = Position { counts: 0, mine: 0, theirs: 0, my_made: 0, their_made: 0 };
        let mut mine_total = 0u32;
        let mut theirs_total = 0u32;
        let mut i = 0;
        while i < 25 {
            mine_total += on_roll[i] as u32;
            theirs_total += opponent[i] as u32;
            i += 1;
        }
        if mine_total > CHECKERS_PER_SIDE as u32 {
            return Err(PositionError::TooManyCheckers { side: "player on roll", count: mine_total });
        }
        if theirs_total > CHECKERS_PER_SIDE as u32 {
            return Err(PositionError::TooManyCheckers { side: "opponent", count: theirs_total });
        }
        if mine_total == 0 && theirs_total == 0 {
            return Err(PositionError::BothSidesOff);
        }
        let mut slot = 0;
        while slot < 26 {
            // My checkers at slot s: my point s (index s-1), my bar at 25.
            let m = if slot >= 1 { on_roll[slot - 1] } else { 0 };
            // His checkers at slot s: his point 25-s (index 24-s), his bar at 0.
            let t = if slot <= 24 { opponent[24 - slot] } else { 0 };
            if m > 0 && t > 0 {
                return Err(PositionError::SharedPoint { point: slot as u8 });
            }
            let n = if m > 0 { m } else { t };
            p.counts |= (n as u128) << (4 * slot);
            if m > 0 {
                p.mine |= 1 << slot;
                if m >= 2 {
                    p.my_made |= 1 << slot;
                }
            }
            if t > 0 {
                p.theirs |= 1 << slot;
                if t >= 2 {
                    p.their_made |= 1 << slot;
                }
            }
            slot += 1;
        }
        Ok(p)
    }

    /// Both sides' boards in gnubg's layout: `(on roll, opponent)`, each in
    /// its own numbering (index 24 = bar).
    pub const fn to_boards(&self) -> (SideBoard, SideBoard) {
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        let mut slot = 0;
        while slot < 26 {
            let n = self.slot_count(slot);
            if self.mine & (1 << slot) != 0 {
                me[slot - 1] = n;
            } else if self.theirs & (1 << slot) != 0 {
                him[24 - slot] = n;
            }
            slot += 1;
        }
        (me, him)
    }

    /// The same position seen from the opponent's side (he is on roll).
    /// Switching twice is the identity.
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// let p = Position::from_position_id("sGfwATDgc/ABMA").unwrap();
    /// assert_eq!(p.switched().switched(), p);
    /// assert_eq!(p.switched().to_position_id(), "4HPwATCwZ/ABMA");
    /// ```
    #[inline]
    #[must_use]
    pub const fn switched(&self) -> Self {
        // [mine, my_made, their_made, theirs] reversed: his become mine.
        let (mine, my_made, their_made, theirs) = reverse_masks(self.mine, self.my_made, self.their_made, self.theirs);
        Position { counts: reverse_slots(self.counts), mine, theirs, my_made, their_made }
    }

    /// Checkers in a slot (0 = opponent's bar, 1..=24 points, 25 = my bar),
    /// whoever owns them.
    #[inline]
    pub(crate) const fn slot_count(&self, slot: usize) -> u8 {
        // One 64-bit half, then a 64-bit shift: cheaper than a 128-bit shift.
        let half = if slot < 16 { self.counts as u64 } else { (self.counts >> 64) as u64 };
        ((half >> (4 * (slot % 16))) & 0xF) as u8
    }

    /// My checkers on my point `point` (1..=24), or on the bar for 25.
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert_eq!(Position::STARTING.my_checkers(6), 5);
    /// assert_eq!(Position::STARTING.my_checkers(19), 0);
    /// ```
    #[inline]
    pub const fn my_checkers(&self, point: usize) -> u8 {
        if point >= 1 && point <= 25 && self.mine & (1 << point) != 0 {
            self.slot_count(point)
        } else {
            0
        }
    }

    /// The opponent's checkers on *my* point `point` (1..=24), or on his bar
    /// for 0.
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert_eq!(Position::STARTING.their_checkers(1), 2); // his 24-point
    /// assert_eq!(Position::STARTING.their_checkers(0), 0); // his bar
    /// ```
    #[inline]
    pub const fn their_checkers(&self, point: usize) -> u8 {
        if point <= 24 && self.theirs & (1 << point) != 0 {
            self.slot_count(point)
        } else {
            0
        }
    }

    /// Mask of slots holding 1+ of my checkers (bit 25 = my bar).
    #[inline]
    pub const fn my_occupied(&self) -> u32 {
        self.mine
    }
    /// Mask of slots holding 1+ opponent checkers (bit 0 = his bar).
    #[inline]
    pub const fn their_occupied(&self) -> u32 {
        self.theirs
    }
    /// Mask of my points holding 2+ of my checkers.
    #[inline]
    pub const fn my_made_points(&self) -> u32 {
        self.my_made & !BAR_BIT
    }
    /// Mask of the slots with 2+ opposing checkers, his bar (slot 0) included.
    #[inline]
    pub(crate) const fn their_made_slots(&self) -> u32 {
        self.their_made
    }
    /// Mask of my points the opponent holds with 2+ checkers: where I may not land.
    #[inline]
    pub const fn blocked_points(&self) -> u32 {
        self.their_made & !1
    }

    /// Mask of my points where the opponent has exactly one checker: blots
    /// I can hit.
    #[inline]
    pub const fn their_blots(&self) -> u32 {
        self.theirs & !self.their_made & !1
    }
    /// Mask of my points with exactly one of my checkers.
    #[inline]
    pub const fn my_blots(&self) -> u32 {
        self.mine & !self.my_made & !BAR_BIT
    }

    /// My checkers on the bar.
    #[inline]
    pub const fn my_bar(&self) -> u8 {
        self.my_checkers(BAR)
    }
    /// The opponent's checkers on the bar.
    #[inline]
    pub const fn their_bar(&self) -> u8 {
        self.their_checkers(OFF)
    }

    /// Checkers (mine, his) still on the board or the bar.
    #[inline]
    pub const fn checkers_in_play(&self) -> (u8, u8) {
        (self.sum_slots(self.mine), self.sum_slots(self.theirs))
    }

    /// Sum of the counts in the slots of `mask` (one side's slots): the
    /// nibbles of those slots kept, then added in parallel (no loop; the
    /// evaluator asks this of every position it classifies).
    #[inline]
    const fn sum_slots(&self, mask: u32) -> u8 {
        let mut nibbles = 0u128;
        let mut k = 0;
        while k < 4 {
            nibbles |= (NIBBLE_MASKS[((mask >> (8 * k)) & 0xFF) as usize] as u128) << (32 * k);
            k += 1;
        }
        let x = self.counts & nibbles;
        // One side has at most 15 checkers, so no partial sum overflows a byte.
        let bytes = (x & LOW_NIBBLES) + ((x >> 4) & LOW_NIBBLES);
        let halves = (bytes as u64) + ((bytes >> 64) as u64);
        (halves.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8
    }

    /// Checkers (mine, his) borne off.
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert_eq!(Position::STARTING.borne_off(), (0, 0));
    /// ```
    pub const fn borne_off(&self) -> (u8, u8) {
        let (me, him) = self.checkers_in_play();
        (CHECKERS_PER_SIDE - me, CHECKERS_PER_SIDE - him)
    }

    /// Pip counts (mine, his): the total distance each side must still move.
    pub const fn pip_count(&self) -> (u32, u32) {
        let mut me = 0u32;
        let mut him = 0u32;
        let mut m = self.mine;
        while m != 0 {
            let slot = m.trailing_zeros();
            me += self.slot_count(slot as usize) as u32 * slot;
            m &= m - 1;
        }
        let mut t = self.theirs;
        while t != 0 {
            let slot = t.trailing_zeros();
            him += self.slot_count(slot as usize) as u32 * (25 - slot);
            t &= t - 1;
        }
        (me, him)
    }

    /// True if all my checkers in play are in my home board (points 1..=6),
    /// the condition for bearing off.
    #[inline]
    pub const fn all_home(&self) -> bool {
        self.mine & !HOME_BOARD == 0
    }

    /// True while the two sides can still hit or block each other: some
    /// checker of mine is behind (farther than) some checker of his.
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert!(Position::STARTING.has_contact());
    /// ```
    #[inline]
    pub const fn has_contact(&self) -> bool {
        if self.mine == 0 || self.theirs == 0 {
            return false;
        }
        // My farthest checker (highest slot) vs his farthest (lowest slot).
        let my_back = 31 - self.mine.leading_zeros();
        let his_back = self.theirs.trailing_zeros();
        my_back > his_back
    }

    /// Moves one of my checkers `from` a slot (1..=25) `to` a slot
    /// (0 = off, 1..=24), hitting a lone opposing checker there. The caller
    /// guarantees the step is legal. Returns whether it hit.
    #[inline]
    pub(crate) const fn apply_step(&mut self, from: usize, to: usize) -> bool {
        let from_bit = 1u32 << from;
        self.counts -= 1 << (4 * from);
        match self.slot_count(from) {
            0 => self.mine &= !from_bit,
            1 => self.my_made &= !from_bit,
            _ => {}
        }
        if to == OFF {
            return false;
        }
        let to_bit = 1u32 << to;
        let hit = self.theirs & to_bit != 0;
        if hit {
            // Rule: HIT. A lone opposing checker goes to his bar (slot 0).
            self.counts -= 1 << (4 * to);
            self.theirs &= !to_bit;
            self.counts += 1;
            if self.theirs & 1 != 0 {
                self.their_made |= 1;
            }
            self.theirs |= 1;
        }
        self.counts += 1 << (4 * to);
        if self.mine & to_bit != 0 {
            self.my_made |= to_bit;
        }
        self.mine |= to_bit;
        hit
    }

    /// The position as two words, losslessly: equal keys, equal positions.
    /// The 104 bits of checker counts, and who owns points 1..=24 (the bars'
    /// owners are fixed) in the 24 bits above them. For tables that store
    /// positions in plain words (the search's lock-free cache).
    ///
    /// ```
    /// use gammon_rules::Position;
    /// let start = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    /// assert_eq!(start.key(), Position::STARTING.key());
    /// let after_31 = Position::from_position_id("sGfwATDgc/ABMA").unwrap();
    /// assert_ne!(after_31.key(), start.key());
    /// ```
    #[inline]
    pub const fn key(&self) -> [u64; 2] {
        let owners = ((self.mine >> 1) & 0xFF_FFFF) as u64;
        [self.counts as u64, (self.counts >> 64) as u64 | owners << 40]
    }

    /// [`apply_step`](Self::apply_step) for the opponent, the side *not* on
    /// roll: moves one of his checkers up from slot `from` (0 = his bar) by
    /// `die`, past slot 24 = borne off, hitting a lone checker of mine where
    /// it lands (`HIT`, mirrored: it goes to my bar, slot 25). The move
    /// generator plays the mover's checkers this way on the switched board,
    /// so that its results need no switching. The caller guarantees that the
    /// step is legal (`from` <= 24, `die` 1..=6).
    #[inline(always)]
    pub(crate) const fn apply_their_step(&mut self, from: usize, die: u8) {
        let (d, from) = (die as usize % 8, from % 32);
        let from_bit = 1u32 << from;
        // One checker less on `from`, one more where it lands (none when off).
        self.counts = self.counts.wrapping_add(STEP_DELTA[d][from]);
        // He keeps `from` if it held 2+ (made), and keeps it made if 3+.
        self.theirs &= self.their_made | !from_bit;
        if self.slot_count(from) < 2 {
            self.their_made &= !from_bit;
        }
        let to_bit = STEP_TO_BIT[d][from];
        if self.mine & to_bit != 0 {
            // Rule: HIT. My lone checker goes to my bar (slot 25).
            let to = to_bit.trailing_zeros() as usize;
            self.counts = self.counts - SLOT_UNIT[to] + SLOT_UNIT[BAR];
            self.mine &= !to_bit;
            self.my_made |= self.mine & BAR_BIT;
            self.mine |= BAR_BIT;
        }
        self.their_made |= self.theirs & to_bit;
        self.theirs |= to_bit;
    }

    /// Two words that identify the position, for hashing.
    #[inline]
    pub(crate) const fn hash_words(&self) -> (u64, u64) {
        let lo = self.counts as u64;
        let hi = (self.counts >> 64) as u64 ^ (self.mine as u64).rotate_left(38);
        (lo, hi)
    }

    /// Checks the packed representation against its own invariants (masks
    /// agree with the counts, no slot shared, at most 15 a side). Used by
    /// tests and debug assertions.
    pub const fn is_consistent(&self) -> bool {
        if self.counts >> 104 != 0 || self.mine & !SLOTS_MASK != 0 || self.theirs & !SLOTS_MASK != 0 {
            return false;
        }
        if self.mine & 1 != 0 || self.theirs & BAR_BIT != 0 || self.mine & self.theirs != 0 {
            return false;
        }
        let mut slot = 0;
        while slot < 26 {
            let n = self.slot_count(slot);
            let bit = 1u32 << slot;
            let owned = (self.mine | self.theirs) & bit != 0;
            if (n > 0) != owned {
                return false;
            }
            let mine_made = self.mine & bit != 0 && n >= 2;
            let theirs_made = self.theirs & bit != 0 && n >= 2;
            if mine_made != (self.my_made & bit != 0) || theirs_made != (self.their_made & bit != 0) {
                return false;
            }
            slot += 1;
        }
        let (me, him) = self.checkers_in_play();
        me <= CHECKERS_PER_SIDE && him <= CHECKERS_PER_SIDE
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::STARTING
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({})", self.to_position_id())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_is_at_most_32_bytes() {
        assert!(std::mem::size_of::<Position>() <= 32);
    }

    #[test]
    fn starting_position_counts() {
        let p = Position::STARTING;
        assert_eq!(p.checkers_in_play(), (15, 15));
        assert_eq!(p.my_checkers(24), 2);
        assert_eq!(p.their_checkers(1), 2);
        assert_eq!(p.their_checkers(12), 5);
        assert!(p.is_consistent());
    }

    #[test]
    fn shared_point_is_rejected() {
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[5] = 1; // my 6-point
        him[18] = 1; // his 19-point = my 6-point
        assert_eq!(Position::from_boards(&me, &him), Err(PositionError::SharedPoint { point: 6 }));
    }

    #[test]
    fn too_many_checkers_is_rejected() {
        let mut me = [0u8; 25];
        me[0] = 16;
        assert!(matches!(Position::from_boards(&me, &[0; 25]), Err(PositionError::TooManyCheckers { .. })));
    }

    #[test]
    fn hit_sends_checker_to_bar() {
        let mut me = [0u8; 25];
        let mut him = [0u8; 25];
        me[7] = 2; // 8-point
        him[19] = 1; // his 20 = my 5
        let mut p = Position::from_boards(&me, &him).unwrap();
        assert!(p.apply_step(8, 5));
        assert_eq!(p.their_bar(), 1);
        assert_eq!(p.my_checkers(5), 1);
        assert!(p.is_consistent());
    }

    #[test]
    fn keys_are_equal_exactly_for_equal_positions() {
        use std::collections::HashMap;
        // Every result of every roll along random games: many positions
        // that differ in one checker or in who holds a point.
        let mut list = crate::MoveList::new();
        let mut by_key: HashMap<[u64; 2], Position> = HashMap::new();
        crate::random_games::along_random_games(3, 60, |&pos| {
            for roll in crate::ALL_ROLLS {
                list.generate(&pos, roll);
                for p in list.positions().iter().chain([pos, pos.switched()].iter()) {
                    assert_eq!(*by_key.entry(p.key()).or_insert(*p), *p, "two positions, one key");
                }
            }
        });
        assert!(by_key.len() > 100_000, "{} positions", by_key.len());
    }
}
