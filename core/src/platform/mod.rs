//! What the host offers that the portable code cannot know: the machine's memory, a clock, and
//! (in a browser) the lines coming in and going out. Everything host-specific sits here, so the
//! rules, search and protocol build unchanged for `wasm32-unknown-unknown`, where there are no
//! threads, no `std::time::Instant` and no stdin: there the JavaScript host supplies them
//! through the imports in `js`.

mod clock;
mod files;
#[cfg(target_arch = "wasm32")]
pub mod js;
mod memory;
mod output;
mod scaled;
mod stop;

mod prefetch;

pub use clock::Instant;
pub use files::{caps, read_capped, read_line_capped, read_text_capped};
pub use memory::{available_memory_mib, physical_memory_mib};
pub use output::{end_at_sigpipe, end_cleanly_when_output_fails, OUTPUT_CLOSED_STATUS};
pub use prefetch::prefetch;
pub use scaled::scaled_index;
pub use stop::{StopPoll, StopSignal};

/// The items collected into a vector whose memory the kernel is asked to back with transparent
/// huge pages where it does so only when asked (Linux's `madvise` mode, the common default),
/// before it is first written, so that the first touch faults in huge pages. For the large
/// tables read at random (the hash table, a net's feature weights): with 4 KiB pages nearly every
/// read misses the TLB, and under a virtual machine each miss walks two page tables. A hint:
/// elsewhere, or refused, the vector is an ordinary one.
pub fn collect_on_huge_pages<T>(items: impl ExactSizeIterator<Item = T>) -> Vec<T> {
    match try_collect_on_huge_pages(items) {
        Ok(out) => out,
        Err(e) => panic!("{e}"),
    }
}

/// [`collect_on_huge_pages`], refused with an error (not an abort) when the memory cannot be
/// had.
pub fn try_collect_on_huge_pages<T>(
    items: impl ExactSizeIterator<Item = T>,
) -> Result<Vec<T>, std::collections::TryReserveError> {
    let mut out = Vec::new();
    out.try_reserve_exact(items.len())?;
    #[cfg(target_os = "linux")]
    {
        const PAGE: usize = 4096;
        let region = out.spare_capacity_mut();
        let first = region.as_ptr() as usize;
        let start = first.next_multiple_of(PAGE);
        let end = (first + std::mem::size_of_val(region)) / PAGE * PAGE;
        if end > start {
            // SAFETY: MADV_HUGEPAGE changes how the kernel backs whole pages inside the
            // vector's allocation, memory this process owns, never their contents or whether
            // they are mapped.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    out.extend(items);
    Ok(out)
}

/// Waits a moment while a search holds its answer for the GUI. Natively the thread sleeps a
/// millisecond; a browser's engine has only one thread, which must keep polling its input.
pub fn pause() {
    #[cfg(not(target_arch = "wasm32"))]
    std::thread::sleep(std::time::Duration::from_millis(1));
}
