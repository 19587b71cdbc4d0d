//! The imports a JavaScript host gives the WebAssembly build (module `env`; `wasm/src/glue.js`
//! supplies them): its clock, a sink for output lines and a non-blocking read of the input that
//! arrived while the engine was busy. Only this file declares them.

#[link(wasm_import_module = "env")]
extern "C" {
    /// `performance.now()`: milliseconds since the host's time origin.
    fn shishi_now_ms() -> f64;
    /// One line of output, UTF-8 without its newline.
    fn shishi_emit(ptr: *const u8, len: usize);
    /// Copies up to `cap` bytes of pending input (whole lines, each ending in `\n`) to `ptr` and
    /// returns how many it copied; 0 when nothing is waiting. Never blocks.
    fn shishi_poll(ptr: *mut u8, cap: usize) -> usize;
}

/// The host's clock, in milliseconds since its time origin.
pub fn now_ms() -> f64 {
    // SAFETY: a host function without arguments that returns a number.
    unsafe { shishi_now_ms() }
}

/// Hands one output line to the host.
pub fn emit_line(line: &str) {
    // SAFETY: the host reads `len` bytes at `ptr` before returning and keeps no reference.
    unsafe { shishi_emit(line.as_ptr(), line.len()) }
}

/// Input lines the host received since the last call (the engine is single-threaded, so this
/// is how a running search hears `stop`).
pub fn poll_lines() -> Vec<String> {
    let mut buf = vec![0u8; 64 * 1024];
    // SAFETY: the host writes at most `buf.len()` bytes into the buffer we own and returns the
    // count it wrote.
    let n = unsafe { shishi_poll(buf.as_mut_ptr(), buf.len()) }.min(buf.len());
    String::from_utf8_lossy(&buf[..n])
        .lines()
        .map(|l| l.trim().to_string())
        .collect()
}
