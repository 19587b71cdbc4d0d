//! Asking the processor for a cache line before it is read: for tables probed at random (the
//! search's hash table, the tsume solver's proof table), where a read would otherwise wait on
//! memory. A hint only: nothing is read, and where the target has no prefetch instruction
//! (WebAssembly) it does nothing.

/// Brings the cache line holding `item` toward the processor.
#[inline]
pub fn prefetch<T>(item: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let line: *const T = item;
        // SAFETY: a prefetch reads nothing and cannot fault; the pointer is to a live value.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(line.cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = item;
}
