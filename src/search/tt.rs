//! The transposition table, shared lock-free by every search thread.
//!
//! Each entry is two `AtomicU64`: the packed data and `key ^ data`. A reader accepts an entry only
//! when `stored_key ^ data == key`, so an entry torn by a concurrent writer (key of one write, data
//! of another) fails the check and is treated as a miss. Entries live in buckets of two: the first
//! keeps the deeper (or newer-generation) result, the second is always replaced, so a deep result
//! is never lost to a shallow one and a new result always finds a home.

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// How a stored score relates to the true value of the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact (a PV node).
    Exact = 1,
    /// The true value is at least the score (a beta cutoff).
    Lower = 2,
    /// The true value is at most the score (no move raised alpha).
    Upper = 3,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub struct TtEntry {
    /// The best or refuting move found, if any.
    pub mv: Option<Move>,
    /// Score for the side to move, as the caller stored it (clamped to the `i16` range).
    pub score: i32,
    /// Depth in plies the score was searched to, 0..=255.
    pub depth: i32,
    /// Whether `score` is exact or a bound.
    pub bound: Bound,
}

struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

const BUCKET: usize = 2;

/// Buckets of two entries; a key's bucket is `key * buckets >> 64`, so any size works.
pub struct Table {
    slots: Vec<Slot>,
    buckets: usize,
    generation: AtomicU8,
}

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u8) -> u64 {
    let m = mv.map_or(0, |m| m.bits()) as u64;
    let s = (score.clamp(i16::MIN as i32, i16::MAX as i32) as i16 as u16) as u64;
    let d = depth.clamp(0, 255) as u64;
    let gb = ((generation as u64 & 63) << 2) | bound as u64;
    m | s << 32 | d << 48 | gb << 56
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let mv = Move::from_bits(data as u32);
    let score = (data >> 32) as u16 as i16 as i32;
    let depth = (data >> 48 & 0xff) as i32;
    let bound = match data >> 56 & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    (
        TtEntry {
            mv,
            score,
            depth,
            bound,
        },
        (data >> 58) as u8,
    )
}

/// The largest hash table accepted: half the machine's memory, and no more than the memory
/// still to be had (`MemAvailable`, a container's cgroup limit); 64 GiB where nothing is known.
/// The table is allocated without aborting even so (`Table::try_new`).
pub fn max_hash_mb() -> usize {
    const CEILING: u64 = 65536;
    let half = crate::platform::physical_memory_mib().map_or(CEILING, |mib| mib / 2);
    let half = crate::platform::available_memory_mib().map_or(half, |left| half.min(left));
    half.clamp(1, CEILING) as usize
}

/// A table that could not be allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a hash table of {mb} MiB: this process cannot have that much memory")]
pub struct TableAllocError {
    /// The size asked for, in MiB.
    pub mb: usize,
}

/// A hash size this machine cannot hold (or none at all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("hash size must be 1 to {max} MiB (half of this machine's memory), not {mb}")]
pub struct HashSizeError {
    /// The size asked for, in MiB.
    pub mb: usize,
    /// The largest size accepted here, `max_hash_mb()`.
    pub max: usize,
}

/// Checks a hash size in MiB against `max_hash_mb`, naming the limit when it is exceeded.
pub fn check_hash_mb(mb: usize) -> Result<(), HashSizeError> {
    let max = max_hash_mb();
    if mb == 0 || mb > max {
        return Err(HashSizeError { mb, max });
    }
    Ok(())
}

impl Table {
    /// A table of about `mb` MiB (at least one bucket), or of the largest half, quarter...
    /// of it that can be had.
    pub fn new(mb: usize) -> Table {
        let mut size = mb.max(1);
        loop {
            match Table::try_new(size) {
                Ok(table) => return table,
                Err(_) if size > 1 => size /= 2,
                Err(e) => panic!("{e}"),
            }
        }
    }

    /// A table of about `mb` MiB (at least one bucket), refused when the memory cannot be had.
    pub fn try_new(mb: usize) -> Result<Table, TableAllocError> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let buckets = (bytes / (BUCKET * std::mem::size_of::<Slot>())).max(1);
        let slots =
            crate::platform::try_collect_on_huge_pages((0..buckets * BUCKET).map(|_| Slot {
                check: AtomicU64::new(0),
                data: AtomicU64::new(0),
            }))
            .map_err(|_| TableAllocError { mb })?;
        Ok(Table {
            slots,
            buckets,
            generation: AtomicU8::new(0),
        })
    }

    /// Empties every slot and resets the generation (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Relaxed);
            s.data.store(0, Relaxed);
        }
        self.generation.store(0, Relaxed);
    }

    /// Called once per search, so entries of older searches are replaced first.
    pub fn new_search(&self) {
        let g = self.generation.load(Relaxed);
        self.generation.store(g.wrapping_add(1) & 63, Relaxed);
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        crate::platform::scaled_index(key, self.buckets) * BUCKET
    }

    /// The entry stored for `key`, if one of its bucket's two slots holds it intact.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let start = self.bucket(key);
        for slot in &self.slots[start..start + BUCKET] {
            let data = slot.data.load(Relaxed);
            if data != 0 && slot.check.load(Relaxed) ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Asks the processor to bring `key`'s bucket into the cache, so that a probe of it soon
    /// after (the child's, once the move is made and its accumulator updated) does not wait on
    /// memory. A hint only: nothing is read, and elsewhere than on x86-64 it does nothing.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        crate::platform::prefetch(&self.slots[self.bucket(key)]);
    }

    /// Stores a result for `key`: over the slot already holding `key`, else over the first slot
    /// if it is empty, of an older search or not deeper, else over the second. A `None` move keeps
    /// the move already stored for the same key.
    #[inline]
    pub fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let generation = self.generation.load(Relaxed);
        let start = self.bucket(key);
        let bucket = &self.slots[start..start + BUCKET];
        let read = |s: &Slot| {
            let data = s.data.load(Relaxed);
            (data, s.check.load(Relaxed) ^ data)
        };
        let (first_data, first_key) = read(&bucket[0]);
        let (second_data, second_key) = read(&bucket[1]);
        let (target, old) = if first_key == key && first_data != 0 {
            (&bucket[0], first_data)
        } else if second_key == key && second_data != 0 {
            (&bucket[1], second_data)
        } else {
            let (old, old_gen) = unpack(first_data);
            if first_data == 0 || old_gen != generation || depth >= old.depth {
                (&bucket[0], 0)
            } else {
                (&bucket[1], 0)
            }
        };
        // Keep the old move when the new result has none for the same position.
        let mv = mv.or_else(|| (old != 0).then(|| unpack(old).0.mv).flatten());
        let data = pack(mv, score, depth, bound, generation);
        target.data.store(data, Relaxed);
        target.check.store(key ^ data, Relaxed);
    }

    /// Permille of the first 1000 slots holding an entry of this search.
    pub fn hashfull(&self) -> u32 {
        let generation = self.generation.load(Relaxed);
        let n = self.slots.len().min(1000);
        let used = self.slots[..n]
            .iter()
            .filter(|s| {
                let d = s.data.load(Relaxed);
                d != 0 && unpack(d).1 == generation
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    #[test]
    fn stores_and_finds_with_negative_scores() {
        let t = Table::new(1);
        let mv = Move::normal(Square::new(10), Square::new(22));
        t.store(0xdead_beef, Some(mv), -1234, 7, Bound::Lower);
        let e = t.probe(0xdead_beef).expect("entry");
        assert_eq!(
            (e.mv, e.score, e.depth, e.bound),
            (Some(mv), -1234, 7, Bound::Lower)
        );
        assert!(t.probe(0xdead_beee).is_none());
    }

    #[test]
    fn torn_entry_is_rejected() {
        let t = Table::new(1);
        t.store(42, None, 5, 3, Bound::Exact);
        let i = t.bucket(42);
        // Simulate another writer's data landing without its check word.
        t.slots[i]
            .data
            .store(pack(None, 77, 9, Bound::Upper, 0), Relaxed);
        assert!(t.probe(42).is_none());
    }

    /// Where the kernel has transparent huge pages at all, the table's memory is marked for
    /// them: the `hg` flag of `madvise(MADV_HUGEPAGE)` on the mapping that holds its middle.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_table_asks_for_huge_pages() {
        if !std::path::Path::new("/sys/kernel/mm/transparent_hugepage/enabled").exists() {
            eprintln!("this kernel has no transparent huge pages: nothing to ask for");
            return;
        }
        let t = Table::new(8);
        let middle = &t.slots[t.slots.len() / 2] as *const Slot as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("/proc/self/smaps");
        let mut flags_of_middle = None;
        let mut inside = false;
        for line in smaps.lines() {
            let first = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = first.split_once('-') {
                if let (Ok(lo), Ok(hi)) =
                    (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
                {
                    inside = (lo..hi).contains(&middle);
                    continue;
                }
            }
            if inside {
                if let Some(flags) = line.strip_prefix("VmFlags:") {
                    flags_of_middle = Some(flags.split_whitespace().any(|f| f == "hg"));
                }
            }
        }
        assert_eq!(
            flags_of_middle,
            Some(true),
            "the table's mapping lacks the hg flag"
        );
    }
}
