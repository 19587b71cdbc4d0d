//! What the search threads share: the transposition table, the stop and ponder flags, the clock
//! origin and each thread's node count. Nothing else crosses threads (Lazy SMP).

use super::tt::Table;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A node counter alone on its cache line, so threads do not slow each other down.
#[repr(align(64))]
#[derive(Default)]
pub struct NodeCounter(pub AtomicU64);

pub struct Shared {
    pub table: Arc<Table>,
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until `ponderhit`.
    pub pondering: AtomicBool,
    /// When the search started.
    pub base: Instant,
    /// Nanoseconds after `base` at which our clock started running (0, or the `ponderhit`).
    clock_origin_ns: AtomicU64,
    pub nodes: Vec<NodeCounter>,
}

impl Shared {
    pub fn new(table: Arc<Table>, threads: usize, pondering: bool) -> Shared {
        Shared {
            table,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            base: Instant::now(),
            clock_origin_ns: AtomicU64::new(0),
            nodes: (0..threads.max(1))
                .map(|_| NodeCounter::default())
                .collect(),
        }
    }

    #[inline]
    pub fn stopped(&self) -> bool {
        self.stop.load(Relaxed)
    }

    pub fn request_stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// The clock now runs for us: pondering becomes a normal timed search from this moment.
    pub fn ponderhit(&self) {
        let now = self.base.elapsed().as_nanos() as u64;
        self.clock_origin_ns.store(now, Relaxed);
        self.pondering.store(false, Relaxed);
    }

    /// Time since our clock started (zero while pondering).
    pub fn clock_elapsed(&self) -> Duration {
        if self.pondering.load(Relaxed) {
            return Duration::ZERO;
        }
        let origin = Duration::from_nanos(self.clock_origin_ns.load(Relaxed));
        self.base.elapsed().saturating_sub(origin)
    }

    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Relaxed)).sum()
    }
}
