//! What the search threads share: the transposition table, the stop and ponder flags, the clock
//! origin, each thread's node count, the root moves refuted by a mate threat and, for a search
//! run on the caller's thread, the hook that polls the host for `stop`. Nothing else crosses
//! threads (Lazy SMP).

use super::tt::Table;
use crate::moves::Move;
use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// A node counter alone on its cache line, so threads do not slow each other down.
#[repr(align(64))]
#[derive(Default)]
pub(super) struct NodeCounter(pub AtomicU64);

/// Called now and then by a search that runs on the caller's thread, which has no other way to
/// hear the GUI: it reads the host's pending input and acts on the search through `Control`.
pub type Poll = Box<dyn FnMut(&Control) + Send>;

/// How many stop checks (about one a node) pass between two polls of the host: a few
/// milliseconds of search.
const POLL_EVERY: u32 = 4096;

pub(super) struct Shared {
    pub table: Arc<Table>,
    pub stop: AtomicBool,
    /// Set while pondering: no time limit applies until `ponderhit`.
    pub pondering: AtomicBool,
    /// When the search started.
    pub base: Instant,
    /// Nanoseconds after `base` at which our clock started running (0, or the `ponderhit`).
    clock_origin_ns: AtomicU64,
    pub nodes: Vec<NodeCounter>,
    poll: Option<Mutex<Poll>>,
    checks: AtomicU32,
    /// Root moves the main thread found to let the opponent mate (`threat`), left out by every
    /// thread.
    refuted: Mutex<Vec<Move>>,
}

/// What a poll may do to the running search.
pub struct Control<'a>(&'a Shared);

impl Control<'_> {
    /// Ends the search, pondering or not (USI `stop`).
    pub fn stop(&self) {
        self.0.pondering.store(false, Relaxed);
        self.0.request_stop();
    }

    /// The clock starts running for us (USI `ponderhit`).
    pub fn ponderhit(&self) {
        self.0.ponderhit();
    }
}

impl Shared {
    pub(super) fn new(table: Arc<Table>, threads: usize, pondering: bool) -> Shared {
        Shared {
            table,
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(pondering),
            base: Instant::now(),
            clock_origin_ns: AtomicU64::new(0),
            nodes: (0..threads.max(1))
                .map(|_| NodeCounter::default())
                .collect(),
            poll: None,
            checks: AtomicU32::new(0),
            refuted: Mutex::new(Vec::new()),
        }
    }

    /// A search on the caller's thread that hears the host through `poll`.
    pub(super) fn with_poll(mut self, poll: Poll) -> Shared {
        self.poll = Some(Mutex::new(poll));
        self
    }

    #[inline]
    pub(super) fn stopped(&self) -> bool {
        if self.stop.load(Relaxed) {
            return true;
        }
        match &self.poll {
            None => false,
            Some(poll) => self.poll_now_and_then(poll),
        }
    }

    #[cold]
    fn poll_now_and_then(&self, poll: &Mutex<Poll>) -> bool {
        if !self.checks.fetch_add(1, Relaxed).is_multiple_of(POLL_EVERY) {
            return false;
        }
        // A poll that polls again (it cannot: it only sets flags) would find the lock taken.
        if let Ok(mut poll) = poll.try_lock() {
            poll(&Control(self));
        }
        self.stop.load(Relaxed)
    }

    pub(super) fn request_stop(&self) {
        self.stop.store(true, Relaxed);
    }

    /// The clock now runs for us: pondering becomes a normal timed search from this moment.
    pub(super) fn ponderhit(&self) {
        let now = self.base.elapsed().as_nanos() as u64;
        self.clock_origin_ns.store(now, Relaxed);
        self.pondering.store(false, Relaxed);
    }

    /// Leaves `mv` out at the root from now on.
    pub(super) fn refute(&self, mv: Move) {
        self.refuted_moves().push(mv);
    }

    /// The root moves left out so far.
    pub(super) fn refuted(&self) -> Vec<Move> {
        self.refuted_moves().clone()
    }

    fn refuted_moves(&self) -> MutexGuard<'_, Vec<Move>> {
        self.refuted.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Time since our clock started (zero while pondering).
    pub(super) fn clock_elapsed(&self) -> Duration {
        if self.pondering.load(Relaxed) {
            return Duration::ZERO;
        }
        let origin = Duration::from_nanos(self.clock_origin_ns.load(Relaxed));
        self.base.elapsed().saturating_sub(origin)
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.0.load(Relaxed)).sum()
    }
}
