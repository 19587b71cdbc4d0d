//! What the host offers that the portable code cannot know: the machine's memory. Kept apart so
//! a build for a host without `/proc` (a browser) changes this file only.

/// The machine's physical memory in MiB, when the host tells it (Linux `/proc/meminfo`).
pub fn physical_memory_mib() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024)
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
