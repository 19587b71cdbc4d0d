//! The solver's table: a map from position keys to what is known of each position, allocated
//! whole when the solve starts and never grown, so that a solve stays within the memory it was
//! given however long it runs.
//!
//! Open addressing with linear probing, with the deletions the solver's garbage collector
//! needs: a removed entry's successors in its run
//! are shifted back (backward-shift deletion), so no tombstone is left and the table can be
//! filled to three quarters again and again. A byte per slot (empty, or seven bits of the key)
//! is scanned before any slot is read, so a miss costs a few bytes of one cache line. Entries
//! are stored as four words ([`Packed`]) so that the table's memory is allocated zeroed: the
//! kernel hands out pages as they are first written, and a large table costs nothing until
//! the search fills it.
//! Keys are Zobrist keys, already uniform: a key's home slot is `key * slots / 2^64`
//! (`platform::scaled_index`), so any number of slots works and the whole budget is used.

/// A value the table holds, as four words (any words for an empty slot; they are not read).
pub(super) trait Packed: Sized {
    fn pack(&self) -> [u64; 4];
    fn unpack(words: [u64; 4]) -> Self;
}

/// A fixed-size map from `u64` keys to `V`.
pub(super) struct KeyTable<V> {
    /// Per slot: 0 when empty, else `TAG_BIT` and the key's low seven bits.
    tags: Vec<u8>,
    /// Per slot: the key, then the value's four words (together, so that a new entry touches
    /// one place besides its tag).
    cells: Vec<[u64; 5]>,
    len: usize,
    held: std::marker::PhantomData<V>,
}

const TAG_BIT: u8 = 0x80;

#[inline]
fn tag(key: u64) -> u8 {
    TAG_BIT | (key & 0x7f) as u8
}

impl<V: Packed + Default> KeyTable<V> {
    /// Bytes a slot takes.
    pub(super) const SLOT_BYTES: usize = 1 + 5 * 8;

    /// The fewest slots a table has.
    pub(super) const MIN_SLOTS: usize = 16;

    /// A table of `slots` slots (at least [`Self::MIN_SLOTS`]).
    pub(super) fn new(slots: usize) -> KeyTable<V> {
        let slots = slots.max(Self::MIN_SLOTS);
        KeyTable {
            tags: vec![0; slots],
            cells: vec![[0; 5]; slots],
            len: 0,
            held: std::marker::PhantomData,
        }
    }

    /// Forgets every entry: a slot is read only when its tag says it is held, so clearing the
    /// tags (a byte a slot) empties the table without touching the cells.
    pub(super) fn clear(&mut self) {
        self.tags.fill(0);
        self.len = 0;
    }

    /// Entries held.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// Slots allocated.
    pub(super) fn slots(&self) -> usize {
        self.tags.len()
    }

    /// The most entries the table takes: one slot in sixteen stays empty, so that every probe
    /// ends soon.
    pub(super) fn limit(&self) -> usize {
        self.slots() - self.slots() / 16
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        crate::platform::scaled_index(key, self.slots())
    }

    #[inline]
    fn value(&self, i: usize) -> V {
        let [_, a, b, c, d] = self.cells[i];
        V::unpack([a, b, c, d])
    }

    #[inline]
    fn after(&self, i: usize) -> usize {
        if i + 1 == self.slots() {
            0
        } else {
            i + 1
        }
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline]
    fn probe(&self, key: u64) -> Result<usize, usize> {
        let t = tag(key);
        let mut i = self.home(key);
        loop {
            let here = self.tags[i];
            if here == 0 {
                return Err(i);
            }
            if here == t && self.cells[i][0] == key {
                return Ok(i);
            }
            i = self.after(i);
        }
    }

    /// Asks for the memory a probe of `key` reads first (its home slot's tag and cell), so
    /// that probes of several keys wait on memory together rather than one after another.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        let home = self.home(key);
        crate::platform::prefetch(&self.tags[home]);
        crate::platform::prefetch(&self.cells[home]);
    }

    /// The entry of `key`, if held.
    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<V> {
        self.probe(key).ok().map(|i| self.value(i))
    }

    /// Changes the entry of `key` by `change`, from a default one if it was not held; false
    /// (and nothing changed) when it was not held and the table is at its limit.
    #[inline]
    pub(super) fn update(&mut self, key: u64, change: impl FnOnce(&mut V)) -> bool {
        let (i, mut value) = match self.probe(key) {
            Ok(i) => (i, self.value(i)),
            Err(_) if self.len >= self.limit() => return false,
            Err(i) => {
                self.tags[i] = tag(key);
                self.cells[i][0] = key;
                self.len += 1;
                (i, V::default())
            }
        };
        change(&mut value);
        self.cells[i][1..].copy_from_slice(&value.pack());
        true
    }

    /// The entries held, in slot order.
    pub(super) fn values(&self) -> impl Iterator<Item = V> + '_ {
        self.tags
            .iter()
            .enumerate()
            .filter(|(_, &t)| t != 0)
            .map(|(i, _)| self.value(i))
    }

    /// Removes every entry `keep` refuses.
    pub(super) fn retain(&mut self, keep: impl Fn(&V) -> bool) {
        let mut i = 0;
        while i < self.slots() {
            // A removal may shift another entry into slot `i`: it is looked at in turn.
            if self.tags[i] != 0 && !keep(&self.value(i)) {
                self.remove_at(i);
            } else {
                i += 1;
            }
        }
    }

    /// Empties slot `hole` and shifts back the entries after it in its run that would no
    /// longer be found (their home is not between the hole and where they stand).
    fn remove_at(&mut self, mut hole: usize) {
        self.len -= 1;
        let mut next = hole;
        loop {
            next = self.after(next);
            if self.tags[next] == 0 {
                break;
            }
            let home = self.home(self.cells[next][0]);
            // Whether `home` lies cyclically in (hole, next]: the entry is found from there.
            let stays = if hole <= next {
                hole < home && home <= next
            } else {
                hole < home || home <= next
            };
            if !stays {
                self.tags[hole] = self.tags[next];
                self.cells[hole] = self.cells[next];
                hole = next;
            }
        }
        self.tags[hole] = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    impl Packed for u32 {
        fn pack(&self) -> [u64; 4] {
            [u64::from(*self), 0, 0, 0]
        }
        fn unpack(words: [u64; 4]) -> u32 {
            words[0] as u32
        }
    }

    fn xorshift(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    #[test]
    fn the_table_agrees_with_a_map_through_insertions_and_removals() {
        // Keys crowded onto a few homes around the table's end make long runs that wrap
        // around it, where backward shifts are easiest to get wrong.
        for (slots, window) in [(64, 8), (1000, 1000), (1024, 16)] {
            let mut table: KeyTable<u32> = KeyTable::new(slots);
            let mut model: HashMap<u64, u32> = HashMap::new();
            let mut rng = 0x9e37_79b9_7f4a_7c15u64;
            for round in 0..100u32 {
                while table.len() < table.limit() {
                    let key = xorshift(&mut rng);
                    if (table.home(key) + window / 2) % slots >= window {
                        continue;
                    }
                    let value = xorshift(&mut rng) as u32;
                    assert!(table.update(key, |v| *v = value));
                    model.insert(key, value);
                }
                // About a third of the entries go each round.
                let goes = |v: u32| (v ^ round).wrapping_mul(0x9e37_79b9).is_multiple_of(3);
                table.retain(|&v| !goes(v));
                model.retain(|_, v| !goes(*v));
                assert_eq!(table.len(), model.len(), "{slots} slots, round {round}");
                for (&k, &v) in &model {
                    assert_eq!(table.get(k), Some(v), "{slots} slots, round {round}");
                }
                assert_eq!(table.values().count(), model.len());
            }
        }
    }

    #[test]
    fn a_missing_key_is_not_found_and_a_full_table_refuses_new_keys() {
        let mut table: KeyTable<u32> = KeyTable::new(16);
        assert!(table.get(5).is_none());
        for key in 0..table.limit() as u64 {
            assert!(table.update(key << 59, |v| *v += 1));
        }
        assert!(!table.update(12_345, |v| *v += 1));
        assert_eq!(table.get(1 << 59), Some(1));
        assert!(table.get(12_345).is_none());
        assert!(table.update(1 << 59, |v| *v += 1));
        assert_eq!(table.get(1 << 59), Some(2), "a held key is still reachable");
    }
}
