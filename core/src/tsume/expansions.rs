//! The children of recently expanded positions, so that a position df-pn enters again (it
//! does, each time a parent's threshold rises) is not expanded again: expansion makes every
//! candidate move to test it, which is most of the solver's time. A position's children depend
//! only on the position (the attacker and whether it started with a royal are fixed for a
//! solve), so an entry found under the same key is the expansion itself, to the same degree of
//! trust as the proof table's keys.
//!
//! Direct-mapped by key and of fixed size, so its memory stays bounded whatever the problem:
//! a newer expansion replaces the older one in its slot.

use std::rc::Rc;

/// One expansion: the children and whether the position is mated.
pub(super) type Expansion<T> = (Rc<[T]>, bool);

pub(super) struct Expansions<T> {
    slots: Vec<Option<(u64, Expansion<T>)>>,
    mask: usize,
}

impl<T> Expansions<T> {
    /// A cache of `2^bits` slots.
    pub(super) fn new(bits: u32) -> Expansions<T> {
        let len = 1usize << bits;
        Expansions {
            slots: (0..len).map(|_| None).collect(),
            mask: len - 1,
        }
    }

    fn slot(&self, key: u64) -> usize {
        // The key's high bits: the low ones also index the proof table's hash map.
        (key >> 40) as usize & self.mask
    }

    /// The expansion stored for `key`, if its slot still holds it.
    pub(super) fn get(&self, key: u64) -> Option<Expansion<T>> {
        match &self.slots[self.slot(key)] {
            Some((k, (children, mated))) if *k == key => Some((Rc::clone(children), *mated)),
            _ => None,
        }
    }

    /// Stores the expansion of `key` in its slot, replacing what was there.
    pub(super) fn insert(&mut self, key: u64, expansion: Expansion<T>) {
        let slot = self.slot(key);
        self.slots[slot] = Some((key, expansion));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_expansion_is_found_under_its_key_until_its_slot_is_reused() {
        let mut cache = Expansions::<u32>::new(4);
        let a = 0x0000_0100_0000_0001u64;
        let b = 0x0000_1100_0000_0002u64; // the same slot as `a`, another key
        assert!(cache.get(a).is_none());
        cache.insert(a, (Rc::from(vec![1, 2, 3]), false));
        let (children, mated) = cache.get(a).unwrap();
        assert_eq!((&*children, mated), (&[1, 2, 3][..], false));
        assert!(cache.get(b).is_none());
        cache.insert(b, (Rc::from(vec![]), true));
        assert!(cache.get(a).is_none());
        assert_eq!(cache.get(b).map(|(c, m)| (c.len(), m)), Some((0, true)));
    }
}
