//! Reading a file the user named, with a bound: a path may name a device that never ends
//! (`/dev/zero`), a pipe, or a file far larger than its format can be. Every file the engine
//! reads whole goes through here, so that none of them can take the machine's memory.

use std::io::{self, BufRead, Read};
use std::path::Path;

/// The bytes of the regular file at `path`, refused with `InvalidData` when it is not a regular
/// file or holds more than `cap` bytes (`what` names the file's kind in the message).
pub fn read_capped(path: &Path, cap: u64, what: &str) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "not a regular file",
        ));
    }
    if meta.len() > cap {
        return Err(too_large(cap, what));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(too_large(cap, what));
    }
    Ok(bytes)
}

/// [`read_capped`] of a text file: UTF-8, refused with `InvalidData` otherwise.
pub fn read_text_capped(path: &Path, cap: u64, what: &str) -> io::Result<String> {
    let bytes = read_capped(path, cap, what)?;
    String::from_utf8(bytes)
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Sizes no file of these kinds reaches: a bound, not a budget.
pub mod caps {
    /// An opening book, a tsume file, a weights file, an SPSA log.
    pub const SMALL_TEXT: u64 = 256 << 20;
    /// Training data, a match PGN.
    pub const DATA: u64 = 64 << 30;
}

fn too_large(cap: u64, what: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("larger than any {what} ({} MiB at most)", cap >> 20),
    )
}

/// Reads one line (up to and without its `\n`) into `buf`, keeping at most `cap` bytes of it
/// and discarding the rest as it comes, so that a line without end takes no memory. `None` at
/// the end of the input, else how many bytes were discarded.
pub fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    cap: usize,
) -> io::Result<Option<usize>> {
    buf.clear();
    let (mut dropped, mut any) = (0usize, false);
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(dropped));
        }
        any = true;
        let (body, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (&chunk[..at], Some(at + 1)),
            None => (chunk, None),
        };
        let room = cap.saturating_sub(buf.len());
        let kept = body.len().min(room);
        buf.extend_from_slice(&body[..kept]);
        dropped += body.len() - kept;
        let used = done.unwrap_or(chunk.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(dropped));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_cap_is_cut_and_the_next_one_read_whole() {
        let text = format!("{}\nusi\nlast", "x".repeat(100));
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut input, &mut buf, 10).unwrap(),
            Some(90)
        );
        assert_eq!(buf, b"xxxxxxxxxx");
        assert_eq!(read_line_capped(&mut input, &mut buf, 10).unwrap(), Some(0));
        assert_eq!(buf, b"usi");
        assert_eq!(read_line_capped(&mut input, &mut buf, 10).unwrap(), Some(0));
        assert_eq!(buf, b"last");
        assert_eq!(read_line_capped(&mut input, &mut buf, 10).unwrap(), None);
    }
}
