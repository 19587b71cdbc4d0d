//! Reading a file the user named, with a bound: a path may name a device that never ends
//! (`/dev/zero`), a pipe, or a file far larger than its format can be. Every file the engine
//! reads whole goes through here, so that none of them can take the machine's memory.

use std::io::{self, Read};
use std::path::Path;

/// The bytes of the regular file at `path`, refused with `InvalidData` when it is not a regular
/// file or holds more than `cap` bytes (`what` names the file's kind in the message).
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} is not a regular file", path.display()),
        ));
    }
    if meta.len() > cap {
        return Err(too_large(path, cap, what));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(path, cap, what));
    }
    Ok(bytes)
}

fn too_large(path: &Path, cap: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is larger than any {what} ({} MiB at most)",
            path.display(),
            cap >> 20
        ),
    )
}
