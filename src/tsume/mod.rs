//! Tsume (mating problem) solving: a df-pn proof-number search over the rules core, an
//! independent verifier of its proofs, and the reports the protocols and the command line print.
//!
//! Conventions, for Chu and Heian under every rule set:
//! - The attacker is the side to move in the problem; it may have no royal at all (published
//!   tsume give it none), and then never loses by having none. An attacker that starts with a
//!   royal and loses its last one (Chu, where the defender may capture it) has failed.
//! - The attacker's moves are checks: after the move some royal of the defender is attacked, or
//!   the defender has no royal left. With two royals (King and Crown Prince) an attack on
//!   either is a check; the problem is solved when both are gone.
//! - The defender may make any legal move. In Chu a reply that leaves its only royal attacked
//!   loses at once (the attacker takes it) and is no escape. The defender is mated when it has
//!   no escape: in Heian, no legal move (its moves are evasions by the check rule); in Chu, no
//!   move that keeps its last royal out of reach.
//! - Bare-king and two-royal endings do not count: a tsume is solved by mate or by capturing
//!   the last royal, whatever the bare-king rule says.
//! - A repetition on the search path is a failure of the attack along that path, never a
//!   proof, so a proof never depends on how a position was reached.
//!
//! Lengths are in plies and count the capture of the last royal in Chu (a Chu mate in 3 ends
//! with the attacker taking the royal on ply 3) and the mating move in Heian.

mod dfpn;
mod rules;
mod verify;

pub use dfpn::{solve, MateLimits, MateOutcome, MateReport, MAX_PLIES};
pub use verify::{verified_line, verify, VerifyError};
