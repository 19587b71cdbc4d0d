//! The protocol front end for a host that hands over input a line at a time and has no threads
//! (the browser build): the first command picks USI or UCI-style USI as on stdin, then every
//! line goes to that USI session, which runs searches on the caller's thread and reads what
//! arrives meanwhile from the host's `LineSource`.

use super::usi::{LineSource, Session};
use super::{emit, first_command, unknown_first_command, First, Protocol};

/// The session behind a line-at-a-time host: which protocol the first line chose, and the
/// session once it exists.
pub struct LineFront {
    /// Until the first `usi`: the source the session will read during searches.
    source: Option<LineSource>,
    session: Option<Session>,
    quit: bool,
}

impl LineFront {
    /// A front end that will read search-time input from `source`.
    pub fn new(source: LineSource) -> LineFront {
        LineFront {
            source: Some(source),
            session: None,
            quit: false,
        }
    }

    /// Handles `line` (and whatever arrived while it ran); false once the session has quit,
    /// after which lines are ignored.
    pub fn feed(&mut self, line: &str) -> bool {
        if self.quit {
            return false;
        }
        if let Some(session) = self.session.as_mut() {
            self.quit = !session.feed(line);
            return !self.quit;
        }
        match first_command(line) {
            First::Nothing => {}
            First::Protocol(Protocol::Usi(dialect)) => {
                if let Some(source) = self.source.take() {
                    self.session = Some(Session::on_this_thread(dialect, source));
                }
            }
            First::Protocol(Protocol::Xboard) => {
                emit("info string error xboard is not in this build: start with usi or uci");
            }
            First::Quit => self.quit = true,
            First::Unknown(other) => unknown_first_command(&other),
        }
        !self.quit
    }
}
