//! What a command does when its own output cannot be written. `println!` panics then, and
//! a panic must not reach a user: a reader that went away (`shishi perft 6 | head`) ends the
//! command quietly, as it ends a C program, and any other failure (a full disk) is an error
//! that names what failed.

use std::io::ErrorKind;

/// The exit status of a command whose reader went away: what a shell reports for a program
/// that SIGPIPE ended (128 + 13), also where there is no SIGPIPE (Windows).
pub const OUTPUT_CLOSED_STATUS: i32 = 141;

/// Makes a failed write to the standard output or error end the process cleanly instead of
/// in a panic: a closed pipe quietly with [`OUTPUT_CLOSED_STATUS`], any other failure with
/// `error: cannot write the output: <reason>` and status 1; every other panic is left as it
/// was. Writes to other pipes (an engine's, in `match`) are not touched: they fail as errors,
/// not panics. Call it before the command starts any thread.
pub fn end_cleanly_when_output_fails() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = (payload.downcast_ref::<String>().map(String::as_str))
            .or_else(|| payload.downcast_ref::<&str>().copied());
        match message.and_then(failed_write) {
            Some(FailedWrite::Closed) => std::process::exit(OUTPUT_CLOSED_STATUS),
            Some(FailedWrite::Other { stream, reason }) => {
                if stream == "stdout" {
                    eprintln!("error: cannot write the output: {reason}");
                }
                std::process::exit(1);
            }
            None => previous(info),
        }
    }));
}

/// Windows' "pipe not connected", which the standard library does not count as a closed pipe
/// but Wine answers a write to a pipe whose reader has gone with.
const ERROR_PIPE_NOT_CONNECTED: i32 = 233;

/// Restores SIGPIPE's default on Linux (the Rust runtime ignores it), so that a command whose
/// reader has gone ends at its next write as a C program does, before any panic; only for
/// commands that write to no pipe but their own output (`match` writes to engines, whose
/// failures must be errors, not the end of the process). Elsewhere nothing changes. Call it
/// before the command starts any thread.
pub fn end_at_sigpipe() {
    #[cfg(target_os = "linux")]
    // SAFETY: restoring the default disposition of SIGPIPE touches no memory; it is called
    // before the command starts any thread.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

/// A write to a standard stream that failed, as the `print!` family's panic tells it.
#[derive(Debug, PartialEq, Eq)]
enum FailedWrite<'a> {
    /// The reader went away.
    Closed,
    /// Anything else, on `stream` (`stdout` or `stderr`).
    Other { stream: &'a str, reason: &'a str },
}

/// Reads a panic's message as the standard library words a failed `print!` or `eprint!`
/// ("failed printing to stdout: <error>"); `None` for any other panic. The error's kind comes
/// from its operating-system code ("(os error 232)"), whatever the words before it.
fn failed_write(message: &str) -> Option<FailedWrite<'_>> {
    let rest = message.strip_prefix("failed printing to ")?;
    let (stream, reason) = rest.split_once(": ")?;
    if stream != "stdout" && stream != "stderr" {
        return None;
    }
    let code = reason
        .rsplit_once("(os error ")
        .and_then(|(_, tail)| tail.strip_suffix(')'))
        .and_then(|code| code.parse::<i32>().ok());
    let closed = code.is_some_and(|code| {
        std::io::Error::from_raw_os_error(code).kind() == ErrorKind::BrokenPipe
            || (cfg!(windows) && code == ERROR_PIPE_NOT_CONNECTED)
    });
    Some(if closed {
        FailedWrite::Closed
    } else {
        FailedWrite::Other { stream, reason }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_told_from_other_failures_by_its_code() {
        // This platform's own code for a closed pipe (EPIPE; Windows' ERROR_NO_DATA), spelled
        // as `print!` spells it.
        let pipe_code = if cfg!(windows) { 232 } else { 32 };
        let message = format!(
            "failed printing to stdout: {}",
            std::io::Error::from_raw_os_error(pipe_code)
        );
        assert!(
            message.ends_with(&format!("(os error {pipe_code})")),
            "{message}"
        );
        assert_eq!(failed_write(&message), Some(FailedWrite::Closed));
        let full = "failed printing to stdout: No space left on device (os error 28)";
        assert_eq!(
            failed_write(full),
            Some(FailedWrite::Other {
                stream: "stdout",
                reason: "No space left on device (os error 28)"
            })
        );
        let not_connected = "failed printing to stdout: Pipe not connected. (os error 233)";
        assert_eq!(
            failed_write(not_connected) == Some(FailedWrite::Closed),
            cfg!(windows)
        );
        assert_eq!(failed_write("index out of bounds: the len is 3"), None);
        assert_eq!(failed_write("failed printing to a file: x"), None);
    }
}
