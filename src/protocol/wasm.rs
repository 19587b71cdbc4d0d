//! The WebAssembly entry points: plain `extern "C"` exports, driven by the hand-written glue in
//! `wasm/src/glue.js` (no wasm-bindgen). The host writes input into a buffer it gets from
//! `shishi_buffer` and calls `shishi_input`; output lines come back through the `shishi_emit`
//! import, and input that arrives during a search is read through `shishi_poll` (see
//! `platform::js`).
//!
//! Single-threaded by design: `shishi_input` returns only when the lines it was given, and
//! every line polled meanwhile, have been handled, searches included. A running search polls
//! the host every few thousand nodes, which is how `stop` ends it within milliseconds.

use super::LineFront;
use crate::platform::js::poll_lines;
use std::cell::RefCell;

thread_local! {
    static FRONT: RefCell<Option<LineFront>> = const { RefCell::new(None) };
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of at least `len` bytes for the next `shishi_input`; valid until the next call.
#[no_mangle]
pub(super) extern "C" fn shishi_buffer(len: usize) -> *mut u8 {
    BUFFER.with_borrow_mut(|buf| {
        if buf.len() < len {
            buf.resize(len, 0);
        }
        buf.as_mut_ptr()
    })
}

/// Handles the first `len` bytes of the buffer: one or more input lines. Returns 0 once the
/// session has quit, 1 otherwise.
#[no_mangle]
pub(super) extern "C" fn shishi_input(len: usize) -> u32 {
    let text =
        BUFFER.with_borrow(|buf| String::from_utf8_lossy(&buf[..len.min(buf.len())]).into_owned());
    // The front end is taken out while it runs, so the buffer and the exports stay usable.
    let mut front = FRONT
        .with_borrow_mut(Option::take)
        .unwrap_or_else(|| LineFront::new(Box::new(poll_lines)));
    let mut alive = true;
    for line in text.lines() {
        alive = front.feed(line.trim());
    }
    FRONT.with_borrow_mut(|slot| *slot = Some(front));
    u32::from(alive)
}
