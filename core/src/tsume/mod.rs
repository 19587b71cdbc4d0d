//! Tsume (mating problem) solving: a df-pn proof-number search over the rules core, an
//! independent verifier of its proofs, and the reports the protocols and the command line print.
//!
//! Conventions, for Chu and Heian under every rule set:
//! - The attacker is the side to move in the problem; it may have no royal at all (published
//!   tsume give it none), and then never loses by having none. An attacker that starts with a
//!   royal and loses its last one (Chu, where the defender may capture it) has failed.
//! - The attacker's moves are checks: after the move some royal of the defender is attacked, or
//!   the defender has no royal left. With two royals (King and Crown Prince) a check must also
//!   threaten to take both at once, or take one with the other then attacked ([`Royals::All`],
//!   the published convention), unless [`Royals::Any`] is asked for; the defender cannot be
//!   mated until one of them is gone (or it has no legal move).
//! - The defender may make any legal move. In Chu a reply after which it has a single royal
//!   and that royal is attacked loses at once (the attacker takes it) and is no escape; a reply
//!   that gains a second royal (promotion to Crown Prince) is one. The defender is mated when it
//!   has no escape: in Heian, no legal move (its moves are evasions by the check rule); in Chu,
//!   no move that keeps its last royal out of reach.
//! - Bare-king and two-royal endings do not count: a tsume is solved by mate or by capturing
//!   the last royal, whatever the bare-king rule says.
//! - A repetition on the search path is a failure of the attack along that path, never a
//!   proof; a disproof that rests on one holds only on its path (see `dfpn`).
//!
//! Lengths are in plies in the published convention (shogi tsume, YaneuraOu's `go mate`): the
//! attacker's shortest mate against the defender's longest resistance, the line ending with the
//! mating move, in Chu as in Heian; the capture of the King is not part of it. The solver proves
//! the shortest mate when its budget allows and says whether it did. Details and figures:
//! `docs/tsume.md`.

mod dfpn;
mod estimate;
mod exhaustive;
mod expansions;
mod portfolio;
mod rules;
mod table;
mod verify;

pub use dfpn::{
    mate_within, solve, solve_in, solver_threads, MateLimits, MateOutcome, MateProgress,
    MateReport, ProgressHook, ProofMemory, MAX_PLIES, SOLVER_STACK_BYTES,
};
pub use exhaustive::{exhaustive_mate, Exhaustive};
pub use rules::Royals;
pub use verify::{verified_line, verify, VerifyError};
