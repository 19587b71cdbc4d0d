//! How much memory the machine has and how much this process can still have, as each host
//! tells it: Linux through `/proc` and the cgroup files, Windows through
//! `GlobalMemoryStatusEx`, a browser by the 32-bit address space. The hash table's size is
//! checked against these before it is allocated.

/// The machine's physical memory in MiB, when the host tells it.
#[cfg(target_os = "linux")]
pub fn physical_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
}

/// The memory this process can still have, in MiB, where the host tells it: Linux's
/// `MemAvailable`, and below it the cgroup's limit (v2 `memory.max`, v1
/// `memory.limit_in_bytes`) less what the cgroup already uses, as containers set it.
#[cfg(target_os = "linux")]
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

#[cfg(windows)]
mod windows {
    /// `MEMORYSTATUSEX` of the Windows API.
    #[repr(C)]
    pub(super) struct MemoryStatusEx {
        pub(super) length: u32,
        pub(super) memory_load: u32,
        pub(super) total_phys: u64,
        pub(super) avail_phys: u64,
        pub(super) total_page_file: u64,
        pub(super) avail_page_file: u64,
        pub(super) total_virtual: u64,
        pub(super) avail_virtual: u64,
        pub(super) avail_extended_virtual: u64,
    }

    #[link(name = "kernel32")]
    extern "system" {
        fn GlobalMemoryStatusEx(buffer: *mut MemoryStatusEx) -> i32;
    }

    /// The system's answer, or `None` where it refuses.
    pub(super) fn status() -> Option<MemoryStatusEx> {
        let mut status = MemoryStatusEx {
            length: std::mem::size_of::<MemoryStatusEx>() as u32,
            memory_load: 0,
            total_phys: 0,
            avail_phys: 0,
            total_page_file: 0,
            avail_page_file: 0,
            total_virtual: 0,
            avail_virtual: 0,
            avail_extended_virtual: 0,
        };
        // SAFETY: the buffer is a live MEMORYSTATUSEX with its length set, as the call requires.
        let ok = unsafe { GlobalMemoryStatusEx(&mut status) };
        (ok != 0).then_some(status)
    }
}

/// The machine's physical memory in MiB (`ullTotalPhys`).
#[cfg(windows)]
pub fn physical_memory_mib() -> Option<u64> {
    windows::status().map(|s| s.total_phys >> 20)
}

/// The physical memory not in use, in MiB (`ullAvailPhys`).
#[cfg(windows)]
pub fn available_memory_mib() -> Option<u64> {
    windows::status().map(|s| s.avail_phys >> 20)
}

/// A 32-bit WebAssembly instance addresses 4 GiB at most, whatever the machine has; counting
/// that as its memory keeps a hash table within reach (half of it, as natively).
#[cfg(target_arch = "wasm32")]
pub fn physical_memory_mib() -> Option<u64> {
    Some(4096)
}

/// Elsewhere the host says nothing, and the hash table's allocation is the only check.
#[cfg(not(any(target_os = "linux", windows, target_arch = "wasm32")))]
pub fn physical_memory_mib() -> Option<u64> {
    None
}

/// What is left is not known in a browser or on other hosts.
#[cfg(not(any(target_os = "linux", windows)))]
pub fn available_memory_mib() -> Option<u64> {
    None
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_host_reports_its_memory() {
        if cfg!(any(target_os = "linux", windows)) {
            let total = super::physical_memory_mib().expect("the host tells its memory");
            let left = super::available_memory_mib().expect("the host tells what is left");
            assert!(total >= 256, "{total} MiB");
            assert!(left <= total, "{left} of {total} MiB");
        }
    }
}
