//! `StopSignal`: how long work that is not the search (perft, the mate solver) learns that it
//! must end. Natively the protocol sets the flag from its input thread. A host without threads
//! (the browser) cannot: there the work itself calls a hook every few milliseconds, and the
//! hook reads the host's pending input and says whether `stop` was among it. A check costs
//! anything from a node to a whole move generation per child, so the hook goes by the clock,
//! not by a count of checks.

use super::Instant;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::Duration;

/// Reads the host's input; true when the work must stop.
pub type StopPoll = Box<dyn FnMut() -> bool + Send>;

/// How many checks pass between two looks at the clock.
const CLOCK_EVERY: u32 = 16;
/// The time between two calls of the hook.
const POLL_INTERVAL: Duration = Duration::from_millis(5);

/// The hook and when it last ran.
struct Polling {
    poll: StopPoll,
    last: Instant,
}

/// A stop flag, set from another thread or by a polling hook.
#[derive(Default)]
pub struct StopSignal {
    flag: AtomicBool,
    polling: Option<Mutex<Polling>>,
    checks: AtomicU32,
}

impl std::fmt::Debug for StopSignal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StopSignal")
            .field("set", &self.flag.load(Relaxed))
            .field("polled", &self.polling.is_some())
            .finish()
    }
}

impl StopSignal {
    /// A flag that only `set` raises.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// A flag that `poll` also raises, called from `is_set` every few milliseconds.
    pub fn polling(poll: StopPoll) -> StopSignal {
        let last = Instant::now();
        StopSignal {
            polling: Some(Mutex::new(Polling { poll, last })),
            ..StopSignal::default()
        }
    }

    /// Asks the work to stop.
    pub fn set(&self) {
        self.flag.store(true, Relaxed);
    }

    /// Whether the work must stop; the check the work makes at each node.
    #[inline]
    pub fn is_set(&self) -> bool {
        if let Some(polling) = &self.polling {
            if self
                .checks
                .fetch_add(1, Relaxed)
                .is_multiple_of(CLOCK_EVERY)
            {
                // Only one caller polls at a time; the others go on with the flag as it is.
                if let Ok(mut polling) = polling.try_lock() {
                    if polling.last.elapsed() >= POLL_INTERVAL {
                        polling.last = Instant::now();
                        if (polling.poll)() {
                            self.set();
                        }
                    }
                }
            }
        }
        self.flag.load(Relaxed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn a_set_flag_is_seen() {
        let stop = StopSignal::new();
        assert!(!stop.is_set());
        stop.set();
        assert!(stop.is_set());
    }

    #[test]
    fn the_hook_is_called_every_few_milliseconds_and_can_stop_the_work() {
        let calls = Arc::new(AtomicU32::new(0));
        let seen = Arc::clone(&calls);
        let stop = StopSignal::polling(Box::new(move || seen.fetch_add(1, Relaxed) == 2));
        let start = Instant::now();
        while !stop.is_set() {}
        assert_eq!(calls.load(Relaxed), 3);
        assert!(
            start.elapsed() >= POLL_INTERVAL * 3,
            "{:?}",
            start.elapsed()
        );
    }
}
