//! What the host offers that the portable code cannot know: the machine's memory, a clock, and
//! (in a browser) the lines coming in and going out. Everything host-specific sits here, so the
//! rules, search and protocol build unchanged for `wasm32-unknown-unknown`, where there are no
//! threads, no `std::time::Instant` and no stdin: there the JavaScript host supplies them
//! through the imports in `js`.

mod clock;
mod files;
#[cfg(target_arch = "wasm32")]
pub(crate) mod js;
mod stop;

pub use clock::Instant;
pub use files::{caps, read_capped, read_line_capped, read_text_capped};
pub use stop::{StopPoll, StopSignal};

/// The machine's physical memory in MiB, when the host tells it (Linux `/proc/meminfo`).
#[cfg(not(target_arch = "wasm32"))]
pub fn physical_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The memory this process can still have, in MiB, where the host tells it: Linux's
/// `MemAvailable`, and below it the cgroup's limit (v2 `memory.max`, v1
/// `memory.limit_in_bytes`) less what the cgroup already uses, as containers set it.
#[cfg(not(target_arch = "wasm32"))]
pub fn available_memory_mib() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let meminfo = read("/proc/meminfo").and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    });
    let mut best = meminfo.map(|kib| kib / 1024);
    let cgroup_limits = [
        ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
        (
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/memory/memory.usage_in_bytes",
        ),
    ];
    for (limit, used) in cgroup_limits {
        // `max` (v2) or a huge number (v1) means no limit.
        if let Some(limit) = number(read(limit)).filter(|&l| l < 1 << 60) {
            let left = limit.saturating_sub(number(read(used)).unwrap_or(0)) >> 20;
            best = Some(best.map_or(left, |b| b.min(left)));
        }
    }
    best
}

/// A 32-bit WebAssembly instance addresses 4 GiB at most, whatever the machine has; counting
/// that as its memory keeps a hash table within reach (half of it, as natively).
#[cfg(target_arch = "wasm32")]
pub fn physical_memory_mib() -> Option<u64> {
    Some(4096)
}

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

#[cfg(test)]
mod tests {
    #[test]
    fn linux_reports_its_memory() {
        if cfg!(target_os = "linux") {
            let mib = super::physical_memory_mib().expect("/proc/meminfo is readable on Linux");
            assert!(mib >= 256, "{mib} MiB");
        }
    }
}
