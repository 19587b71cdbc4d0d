//! A monotonic clock with the part of `std::time::Instant`'s interface the search uses.
//! `std::time::Instant::now()` panics on `wasm32-unknown-unknown`, so there the time comes from
//! the host's `performance.now()` (milliseconds as `f64`, microsecond resolution or better).

use std::time::Duration;

/// A moment on the host's monotonic clock.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Instant(Inner);

#[cfg(not(target_arch = "wasm32"))]
type Inner = std::time::Instant;

/// Milliseconds since the host's time origin.
#[cfg(target_arch = "wasm32")]
type Inner = f64;

impl Instant {
    /// The current time.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn now() -> Instant {
        Instant(std::time::Instant::now())
    }

    /// The current time, from the host's `performance.now()`.
    #[cfg(target_arch = "wasm32")]
    pub fn now() -> Instant {
        Instant(super::js::now_ms())
    }

    /// Time since `self`; zero if the host's clock went backwards.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn elapsed(&self) -> Duration {
        self.0.elapsed()
    }

    /// Time since `self`; zero if the host's clock went backwards.
    #[cfg(target_arch = "wasm32")]
    pub fn elapsed(&self) -> Duration {
        let ms = (super::js::now_ms() - self.0).max(0.0);
        Duration::from_secs_f64(ms / 1000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::Instant;

    #[test]
    fn time_goes_forward() {
        let start = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(5));
        assert!(start.elapsed() >= std::time::Duration::from_millis(5));
    }
}
