//! The search's cache: a fixed-size `(position, plies) -> probabilities`
//! table in mutex-guarded shards. It changes the time, never a result.

use gammon_eval::Probabilities;
use gammon_rules::Position;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, MutexGuard, PoisonError};

const SHARD_BITS: u32 = 6;
const EMPTY: u8 = u8::MAX;

#[derive(Clone, Copy)]
struct Slot {
    pos: Position,
    plies: u8,
    probs: [f32; 5],
}

const EMPTY_SLOT: Slot = Slot { pos: Position::STARTING, plies: EMPTY, probs: [0.0; 5] };

struct Shard {
    slots: Box<[Slot]>,
    lookups: u64,
    hits: u64,
}

/// Fixed-size `(position, plies) -> probabilities` table: shards behind
/// mutexes, buckets of two slots.
pub(super) struct Cache {
    shards: Box<[Mutex<Shard>]>,
    /// Slots per shard - 1 (slots per shard is a power of two, at least 2).
    mask: usize,
}

/// FxHash-style mixing of the position's words, finished with a murmur3 mix.
struct KeyHasher(u64);

impl KeyHasher {
    #[inline]
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.add(u64::from(b));
        }
    }
    fn write_u8(&mut self, x: u8) {
        self.add(u64::from(x));
    }
    fn write_u32(&mut self, x: u32) {
        self.add(u64::from(x));
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_u128(&mut self, x: u128) {
        self.add(x as u64);
        self.add((x >> 64) as u64);
    }
    fn finish(&self) -> u64 {
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }
}

impl Cache {
    pub(super) fn new(entries: usize) -> Option<Self> {
        if entries == 0 {
            return None;
        }
        let shards = 1usize << SHARD_BITS;
        let per_shard = entries.div_ceil(shards).next_power_of_two().max(2);
        let shards = (0..shards)
            .map(|_| Mutex::new(Shard { slots: vec![EMPTY_SLOT; per_shard].into_boxed_slice(), lookups: 0, hits: 0 }))
            .collect();
        Some(Cache { shards, mask: per_shard - 1 })
    }

    pub(super) fn entries(&self) -> usize {
        self.shards.len() * (self.mask + 1)
    }

    /// The shard and the first slot of the bucket of a key.
    fn locate(&self, pos: &Position, plies: u8) -> (MutexGuard<'_, Shard>, usize) {
        let mut h = KeyHasher(u64::from(plies));
        pos.hash(&mut h);
        let h = h.finish();
        let shard = (h >> (64 - SHARD_BITS)) as usize;
        let bucket = (h as usize) & self.mask & !1;
        // `shard` < 2^SHARD_BITS, the number of shards.
        (self.shards[shard].lock().unwrap_or_else(PoisonError::into_inner), bucket)
    }

    pub(super) fn get(&self, pos: &Position, plies: u8) -> Option<Probabilities> {
        let (mut shard, bucket) = self.locate(pos, plies);
        shard.lookups += 1;
        let found = shard
            .slots
            .get(bucket..bucket + 2)?
            .iter()
            .find(|s| s.plies == plies && s.pos == *pos)
            .map(|s| Probabilities::from_array(s.probs));
        if found.is_some() {
            shard.hits += 1;
        }
        found
    }

    pub(super) fn put(&self, pos: &Position, plies: u8, p: Probabilities) {
        let (mut shard, bucket) = self.locate(pos, plies);
        let Some(pair) = shard.slots.get_mut(bucket..bucket + 2) else { return };
        let entry = Slot { pos: *pos, plies, probs: p.to_array() };
        // The same key, else an empty slot, else the shallower entry (the
        // second slot on a tie, so the first keeps older entries longer).
        let i = pair
            .iter()
            .position(|s| s.plies == plies && s.pos == *pos)
            .or_else(|| pair.iter().position(|s| s.plies == EMPTY))
            .unwrap_or(if pair[0].plies < pair[1].plies { 0 } else { 1 });
        pair[i] = entry;
    }

    pub(super) fn clear(&self) {
        for m in self.shards.iter() {
            let mut shard = m.lock().unwrap_or_else(PoisonError::into_inner);
            shard.slots.fill(EMPTY_SLOT);
        }
    }

    pub(super) fn counts(&self) -> (u64, u64) {
        self.shards.iter().fold((0, 0), |(l, h), m| {
            let shard = m.lock().unwrap_or_else(PoisonError::into_inner);
            (l + shard.lookups, h + shard.hits)
        })
    }

    pub(super) fn reset_counts(&self) {
        for m in self.shards.iter() {
            let mut shard = m.lock().unwrap_or_else(PoisonError::into_inner);
            shard.lookups = 0;
            shard.hits = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_returns_what_was_put_and_keeps_deeper_entries() {
        let c = Cache::new(2).unwrap(); // 64 shards x 2 slots: one bucket per shard
        let p = Probabilities::from_array([0.5, 0.1, 0.0, 0.2, 0.0]);
        c.put(&Position::STARTING, 2, p);
        assert_eq!(c.get(&Position::STARTING, 2), Some(p));
        assert_eq!(c.get(&Position::STARTING, 1), None);
        c.clear();
        assert_eq!(c.get(&Position::STARTING, 2), None);
        assert_eq!(c.counts(), (3, 1));
    }
}
