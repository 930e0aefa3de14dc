//! The search's cache: a fixed-size `(position, plies) -> probabilities`
//! table that threads share without locks. It changes the time, never a
//! result.
//!
//! # Why without locks
//! The table is a few megabytes, so most lookups miss the processor's
//! caches. A mutex is a full memory barrier on x86: with one per lookup,
//! every lookup waited for the previous one's memory access (82% of the
//! lookup time was that wait, `perf annotate`). Plain loads let the processor
//! overlap a lookup's memory access with the evaluation that follows it.
//!
//! # How a slot stays consistent
//! A slot is six words: the position's [key](gammon_rules::Position::key)
//! (two), the five probabilities and the depth (three), and a check word,
//! the XOR of the other five. Threads read and write slots with relaxed
//! atomic loads and stores. A reader that meets a slot another thread is
//! rewriting sees a mix of two entries, whose check word does not match,
//! and treats the slot as empty; it would take a mix whose XOR happens to
//! equal a 64-bit check word to return a wrong value. Rewriting a slot with
//! the same key and depth writes the same value (the search is
//! deterministic), so such a mix is still right. On one thread no slot is
//! ever seen half-written.

use gammon_eval::Probabilities;
use gammon_rules::Position;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Words of a slot: key (2), probabilities and depth (3), check (1).
const WORDS: usize = 6;
/// Counters for the statistics, picked by the key's hash so that threads
/// rarely share one.
const COUNTER_BITS: u32 = 6;

/// Two slots, on two cache lines of their own.
#[repr(align(64))]
struct Bucket([[AtomicU64; WORDS]; 2]);

impl Bucket {
    fn empty() -> Self {
        Bucket(std::array::from_fn(|_| std::array::from_fn(|_| AtomicU64::new(0))))
    }
}

/// What a slot holds, read whole.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry {
    key: [u64; 2],
    /// The probabilities as `f32` bits, two to a word, and in the third word
    /// above the last one the depth plus one (0: an empty slot).
    data: [u64; 3],
}

impl Entry {
    const EMPTY: Entry = Entry { key: [0; 2], data: [0; 3] };

    fn new(pos: &Position, plies: u8, p: Probabilities) -> Self {
        let [a, b, c, d, e] = p.to_array().map(f32::to_bits).map(u64::from);
        Entry { key: pos.key(), data: [a | b << 32, c | d << 32, e | (u64::from(plies) + 1) << 32] }
    }

    /// The depth plus one; 0 for an empty slot.
    fn depth_tag(&self) -> u64 {
        self.data[2] >> 32
    }

    fn holds(&self, key: [u64; 2], plies: u8) -> bool {
        self.key == key && self.depth_tag() == u64::from(plies) + 1
    }

    fn probabilities(&self) -> Probabilities {
        let low = |w: u64| f32::from_bits(w as u32);
        let high = |w: u64| f32::from_bits((w >> 32) as u32);
        let [w0, w1, w2] = self.data;
        Probabilities::from_array([low(w0), high(w0), low(w1), high(w1), low(w2)])
    }

    fn check(&self) -> u64 {
        self.key[0] ^ self.key[1] ^ self.data[0] ^ self.data[1] ^ self.data[2]
    }

    /// The slot's entry, or [`Entry::EMPTY`] if it is being rewritten.
    fn load(slot: &[AtomicU64; WORDS]) -> Entry {
        let w: [u64; WORDS] = std::array::from_fn(|i| slot[i].load(Relaxed));
        let e = Entry { key: [w[0], w[1]], data: [w[2], w[3], w[4]] };
        if e.check() == w[5] {
            e
        } else {
            Entry::EMPTY
        }
    }

    fn store(&self, slot: &[AtomicU64; WORDS]) {
        let w = [self.key[0], self.key[1], self.data[0], self.data[1], self.data[2], self.check()];
        for (s, x) in slot.iter().zip(w) {
            s.store(x, Relaxed);
        }
    }
}

/// Statistics counters, incremented by a load and a store rather than an
/// atomic add (which would be a memory barrier again): exact on one thread;
/// two threads counting in the same counter at the same instant can lose one.
struct Counters([AtomicU64; 1 << COUNTER_BITS]);

impl Counters {
    fn new() -> Self {
        Counters(std::array::from_fn(|_| AtomicU64::new(0)))
    }

    fn bump(&self, at: usize) {
        if let Some(c) = self.0.get(at) {
            c.store(c.load(Relaxed).wrapping_add(1), Relaxed);
        }
    }

    fn total(&self) -> u64 {
        self.0.iter().map(|c| c.load(Relaxed)).sum()
    }

    fn reset(&self) {
        for c in &self.0 {
            c.store(0, Relaxed);
        }
    }
}

/// Fixed-size `(position, plies) -> probabilities` table, buckets of two
/// slots, shared by threads without locks.
pub(crate) struct Cache {
    buckets: Box<[Bucket]>,
    /// Buckets - 1 (a power of two).
    mask: usize,
    lookups: Counters,
    hits: Counters,
}

/// The bucket and the counter of a key: FxHash-style mixing of its words,
/// finished with a murmur3 mix.
fn hash(key: [u64; 2], plies: u8) -> u64 {
    let mut h = u64::from(plies);
    for x in key {
        h = (h.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

impl Cache {
    /// A table of about `entries` entries (at least two), `None` for 0.
    pub(super) fn new(entries: usize) -> Option<Self> {
        if entries == 0 {
            return None;
        }
        let buckets = entries.div_ceil(2).next_power_of_two();
        Some(Cache {
            buckets: (0..buckets).map(|_| Bucket::empty()).collect(),
            mask: buckets - 1,
            lookups: Counters::new(),
            hits: Counters::new(),
        })
    }

    pub(super) fn entries(&self) -> usize {
        2 * self.buckets.len()
    }

    /// The bucket and the statistics counter of a key.
    fn locate(&self, key: [u64; 2], plies: u8) -> (&Bucket, usize) {
        let h = hash(key, plies);
        let counter = (h >> (64 - COUNTER_BITS)) as usize;
        // `mask` + 1 is the number of buckets.
        (&self.buckets[(h as usize) & self.mask], counter)
    }

    /// Starts reading the bucket of a key, so that the lookups of a batch
    /// of positions wait for memory together rather than one after another.
    pub(super) fn prefetch(&self, pos: &Position, plies: u8) {
        let (bucket, _) = self.locate(pos.key(), plies);
        std::hint::black_box(bucket.0[0][0].load(Relaxed));
    }

    pub(super) fn get(&self, pos: &Position, plies: u8) -> Option<Probabilities> {
        let key = pos.key();
        let (bucket, counter) = self.locate(key, plies);
        self.lookups.bump(counter);
        let found = bucket.0.iter().map(Entry::load).find(|e| e.holds(key, plies))?;
        self.hits.bump(counter);
        Some(found.probabilities())
    }

    pub(super) fn put(&self, pos: &Position, plies: u8, p: Probabilities) {
        let entry = Entry::new(pos, plies, p);
        let (bucket, _) = self.locate(entry.key, plies);
        let [first, second] = [&bucket.0[0], &bucket.0[1]].map(Entry::load);
        // The same key, else an empty slot, else the shallower entry (the
        // second slot on a tie, so the first keeps older entries longer).
        let slot = if first.holds(entry.key, plies) {
            0
        } else if second.holds(entry.key, plies) {
            1
        } else if first.depth_tag() == 0 {
            0
        } else if second.depth_tag() == 0 || first.depth_tag() >= second.depth_tag() {
            1
        } else {
            0
        };
        entry.store(&bucket.0[slot]);
    }

    pub(crate) fn clear(&self) {
        for bucket in self.buckets.iter() {
            for slot in &bucket.0 {
                Entry::EMPTY.store(slot);
            }
        }
    }

    pub(super) fn counts(&self) -> (u64, u64) {
        (self.lookups.total(), self.hits.total())
    }

    pub(super) fn reset_counts(&self) {
        self.lookups.reset();
        self.hits.reset();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_returns_what_was_put_and_keeps_deeper_entries() {
        let c = Cache::new(2).unwrap(); // one bucket of two slots
        let p = Probabilities::from_array([0.5, 0.1, 0.0, 0.2, 0.0]);
        c.put(&Position::STARTING, 2, p);
        assert_eq!(c.get(&Position::STARTING, 2), Some(p));
        assert_eq!(c.get(&Position::STARTING, 1), None);
        // Two more entries in the one bucket: the 2-ply one stays.
        let other = Position::STARTING.switched().legal_moves(gammon_rules::Dice::new(3, 1).unwrap()).positions()[0];
        let q = Probabilities::from_array([0.25, 0.0, 0.0, 0.0, 0.0]);
        c.put(&other, 0, q);
        c.put(&other.switched(), 1, q);
        assert_eq!(c.get(&Position::STARTING, 2), Some(p));
        assert_eq!(c.get(&other.switched(), 1), Some(q));
        assert_eq!(c.get(&other, 0), None);
        c.clear();
        assert_eq!(c.get(&Position::STARTING, 2), None);
        assert_eq!(c.counts(), (6, 3));
    }

    #[test]
    fn a_slot_whose_check_word_does_not_match_reads_as_empty() {
        let c = Cache::new(2).unwrap();
        let p = Probabilities::from_array([0.5, 0.1, 0.0, 0.2, 0.0]);
        c.put(&Position::STARTING, 2, p);
        // Another thread's write caught half-way: one data word changed.
        let (bucket, _) = c.locate(Position::STARTING.key(), 2);
        let slot = bucket.0.iter().find(|s| Entry::load(s).holds(Position::STARTING.key(), 2)).unwrap();
        slot[2].store(slot[2].load(Relaxed) ^ 1, Relaxed);
        assert_eq!(c.get(&Position::STARTING, 2), None);
    }

    #[test]
    fn threads_writing_one_bucket_never_read_a_mixed_entry() {
        let c = Cache::new(2).unwrap();
        let a = Position::STARTING;
        let b = a.legal_moves(gammon_rules::Dice::new(6, 5).unwrap()).positions()[0];
        let pa = Probabilities::from_array([0.5, 0.1, 0.0, 0.2, 0.0]);
        let pb = Probabilities::from_array([0.3, 0.2, 0.1, 0.05, 0.01]);
        std::thread::scope(|s| {
            for t in 0..2u8 {
                let c = &c;
                s.spawn(move || {
                    for i in 0..50_000u32 {
                        let plies = (i % 3) as u8;
                        let (pos, p) = if (i + u32::from(t)) % 2 == 0 { (a, pa) } else { (b, pb) };
                        c.put(&pos, plies, p);
                        for (q, want) in [(a, pa), (b, pb)] {
                            if let Some(got) = c.get(&q, plies) {
                                assert_eq!(got, want);
                            }
                        }
                    }
                });
            }
        });
    }
}
