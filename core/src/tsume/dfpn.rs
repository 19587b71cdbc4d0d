//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+epsilon trick (Pawlewicz and
//! Lew 2007): each child is searched until its proof or disproof number passes a threshold set by
//! its best sibling, widened by a quarter, which avoids the thrashing of plain df-pn.
//!
//! Every search runs under a ply limit, and the table keeps facts that hold whatever the limit
//! and the path: "mate in at most `dist` plies" and "no mate within `depth` plies". A first
//! search under the full limit finds a mate; searches limited to two plies less than the best
//! mate so far then prove a shorter one or refute it, until the mate is proven shortest or the
//! budget runs out (the approach of shogi solvers such as KomoringHeights).
//!
//! Soundness by construction:
//! - A position repeated on the search path fails the attack along that path. A disproof that
//!   rests on such a repetition is stored with a hash of the path it was found on and trusted
//!   only on that same path, so no disproof carries over to a path it does not hold on (the
//!   graph-history interaction). Proofs never rest on the path.
//! - Proven entries are never dropped: the garbage collector frees open entries (least work
//!   first) and then bounded disproofs, so the proof can always be read back; should a proven
//!   position be missing anyway, it is proven again before the proof is read.
//! - The line comes from the verifier's replay of the proof against every defence (`verify`).

use super::estimate::initial_numbers;
use super::expansions::{Expansion, Expansions};
use super::portfolio::{solve_raced, Race};
use super::rules::{escape_by_board, gives_check, is_escape, royals_gone, MoveFilter, Royals};
use super::table::{KeyTable, Packed};
use super::verify::verified_line;
use crate::board::Color;
use crate::movegen::MoveList;
use crate::moves::Move;
use crate::platform::{Instant, StopSignal};
use crate::position::Position;
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Duration;

/// "Infinite" proof or disproof number: proven or disproven.
const INF: u32 = u32::MAX / 4;
/// The largest proof or disproof number of an open position, below the thresholds that mean
/// "no limit" (`INF - 1`, the root's): summed over a graph with cycles and transpositions the
/// numbers can grow without bound, and a position whose open numbers reached such a threshold
/// would return at once and be searched again, forever, counting nodes and learning nothing.
const OPEN_MAX: u32 = INF - 2;
/// A depth beyond every limit: a disproof that holds however long the attacker tries.
const DEPTH_INF: u16 = u16::MAX;
/// Bytes the garbage collector sets aside per position it may drop (its work count).
const COLLECTOR_BYTES: usize = std::mem::size_of::<u32>();
/// What a collection is expected to take per position held, until one has been timed: above
/// what the development machine takes, so that the first collection of a large table is not
/// started too close to the time limit.
const COLLECTION_NANOS_PER_POSITION: u64 = 100;
/// The expansion cache has `2^EXPANSION_BITS` slots.
const EXPANSION_BITS: u32 = 16;
/// The expansion cache of [`mate_within`], whose budgets are a few hundred nodes.
const THREAT_EXPANSION_BITS: u32 = 10;
/// The longest mate the solver looks for, in plies, unless `MateLimits::max_plies` says less:
/// above the longest Chu tsume known (asahi-net No. 16, 3257 plies). The browser build's
/// search runs in a Web Worker, whose stack the page cannot size: there the recursion of 1500
/// plies overflowed it (Chromium 156) and 1000 did not, so it looks no further.
pub const MAX_PLIES: usize = if cfg!(target_arch = "wasm32") {
    1000
} else {
    4001
};
/// The stack a thread running the solver needs: the search and the verifier recurse once per
/// ply, up to [`MAX_PLIES`] deep (a 3257-ply solve needs more than 1 MiB and less than 2 MiB),
/// with room to spare; more than a main thread gets on some hosts (1 MiB on Windows).
pub const SOLVER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// When the solver must give up.
#[derive(Clone, Debug)]
pub struct MateLimits {
    /// Wall-clock budget from the start of the solve.
    pub time: Option<Duration>,
    /// Node budget: positions the solver expands.
    pub nodes: Option<u64>,
    /// Memory for the proof table, in MiB.
    pub table_mb: usize,
    /// The longest mate looked for, in plies (at most [`MAX_PLIES`]).
    pub max_plies: usize,
    /// Interrupts the solver (`stop`): set from another thread, or polled by the solver.
    pub stop: Option<Arc<StopSignal>>,
    /// Told how the solve stands every so often, for a user watching a long one.
    pub progress: Option<ProgressHook>,
    /// Which moves are checks while the defender has King and Crown Prince.
    pub royals: Royals,
    /// Threads the solve may use. With two or more (two are used), two searches for the first
    /// mate race, with the defender's moves grouped two ways, each with a table of `table_mb`
    /// and a budget of `nodes`, and the solve goes on with the first to settle (`portfolio`):
    /// the answer then depends on which finishes first.
    pub threads: usize,
}

/// How a solve stands: what `shishi mate` shows while a long problem is solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MateProgress {
    /// Time since the solve began.
    pub elapsed: Duration,
    /// Positions expanded so far.
    pub nodes: u64,
    /// The root's proof number as the running search last computed it from the root's
    /// children (1 before it did).
    pub root_pn: u32,
    /// The root's disproof number, likewise.
    pub root_dn: u32,
    /// The shortest mate proven so far, in plies.
    pub best: Option<u16>,
    /// The longest mate the running search looks for, in plies.
    pub within: u16,
    /// Positions in the proof table.
    pub table_entries: usize,
    /// How many positions the table's memory holds.
    pub table_capacity: usize,
    /// The memory the table holds (allocated when the solve starts, never more), in bytes.
    pub table_bytes: usize,
}

impl MateProgress {
    /// The proof table's memory, in MiB.
    pub fn table_mib(&self) -> usize {
        self.table_bytes >> 20
    }
}

/// The proof table's shape within `mb` MiB: its slots and how many positions it may hold
/// before the garbage collector frees some (three quarters of the slots, so that probes stay
/// short), the collector's scratch counted. The table is allocated whole when the solve starts
/// and never grows (`table`).
fn table_shape(mb: usize) -> (usize, usize) {
    let budget = mb.max(1) << 20;
    let positions = |slots: usize| slots / 4 * 3;
    // Four slots take this much with the scratch of their three positions.
    let per_four = 4 * ProofTable::SLOT_BYTES + 3 * COLLECTOR_BYTES;
    let slots = budget / per_four * 4;
    (slots, positions(slots))
}

/// A callback for [`MateProgress`], called about every `every` (from the solving thread).
#[derive(Clone)]
pub struct ProgressHook {
    /// How often.
    pub every: Duration,
    /// What is called.
    pub report: Arc<dyn Fn(&MateProgress) + Send + Sync>,
}

impl std::fmt::Debug for ProgressHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ProgressHook(every {:?})", self.every)
    }
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            time: None,
            nodes: None,
            table_mb: 64,
            max_plies: MAX_PLIES,
            stop: None,
            progress: None,
            royals: Royals::default(),
            threads: 1,
        }
    }
}

/// What the solver established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateOutcome {
    /// A forced mate: the attacker's checks and the defender's longest resistance, ending with
    /// the mating move (published tsume convention).
    Mate(Vec<Move>),
    /// The attacker has no forced mate by checks within `MateLimits::max_plies`.
    NoMate,
    /// Time, nodes or `stop` ended the search first.
    Timeout,
}

/// The solver's answer with what it cost, and the proof for a verifier.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// The answer.
    pub outcome: MateOutcome,
    /// For a mate: no mate two plies shorter exists (proven), so the line's length is the
    /// shortest. False when the budget ran out first.
    pub shortest: bool,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall-clock time the solve took.
    pub elapsed: Duration,
    /// When the first mate was proven (before any shorter one was looked for).
    pub first_mate: Option<Duration>,
    /// For every attacker position of the proof (by key), the move the proof plays there.
    pub proof: HashMap<u64, Move>,
    /// Why a mate the search proved is not reported (`outcome` is then `Timeout`): the
    /// verifier rejected its proof, or the proof could not be read back. Never expected.
    pub rejected: Option<String>,
}

/// What the table knows about a position, whatever the path that reaches it.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The shortest mate proven from here, in plies.
    dist: Option<u16>,
    /// No mate within this many plies.
    depth: Option<u16>,
    /// No mate within `.0` plies on the path whose hash is `.1` (rests on a repetition).
    rep: Option<(u16, u64)>,
    /// Proof and disproof numbers of the last unfinished search.
    pn: u32,
    dn: u32,
    /// Nodes searched below this entry, for replacement (saturating).
    work: u32,
}

/// An entry's four words: the repetition's path hash; pn and dn; work, `dist` and `depth`;
/// the repetition's depth and which of the three optional facts are there.
impl Packed for Entry {
    #[inline]
    fn pack(&self) -> [u64; 4] {
        let (rep_depth, rep_path) = self.rep.unwrap_or((0, 0));
        let flags = u64::from(self.dist.is_some())
            | u64::from(self.depth.is_some()) << 1
            | u64::from(self.rep.is_some()) << 2;
        [
            rep_path,
            u64::from(self.pn) | u64::from(self.dn) << 32,
            u64::from(self.work)
                | u64::from(self.dist.unwrap_or(0)) << 32
                | u64::from(self.depth.unwrap_or(0)) << 48,
            u64::from(rep_depth) | flags << 16,
        ]
    }

    #[inline]
    fn unpack(w: [u64; 4]) -> Entry {
        let flags = w[3] >> 16;
        Entry {
            dist: (flags & 1 != 0).then_some((w[2] >> 32) as u16),
            depth: (flags & 2 != 0).then_some((w[2] >> 48) as u16),
            rep: (flags & 4 != 0).then_some((w[3] as u16, w[0])),
            pn: w[1] as u32,
            dn: (w[1] >> 32) as u32,
            work: w[2] as u32,
        }
    }
}

impl Default for Entry {
    fn default() -> Self {
        Entry {
            dist: None,
            depth: None,
            rep: None,
            pn: 1,
            dn: 1,
            work: 0,
        }
    }
}

/// A position's value for one search: open, proven (with its length) or disproven (within how
/// many plies, and whether that rests on the path).
#[derive(Clone, Copy, Debug)]
struct Value {
    pn: u32,
    dn: u32,
    dist: u16,
    depth: u16,
    rep: bool,
}

impl Value {
    fn open(pn: u32, dn: u32) -> Value {
        Value {
            pn,
            dn,
            dist: 0,
            depth: 0,
            rep: false,
        }
    }

    fn proven(dist: u16) -> Value {
        Value {
            pn: 0,
            dn: INF,
            dist,
            ..Value::open(0, INF)
        }
    }

    fn disproven(depth: u16, rep: bool) -> Value {
        Value {
            pn: INF,
            dn: 0,
            dist: 0,
            depth,
            rep,
        }
    }

    fn settled(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// A child's threshold that open numbers, capped at [`OPEN_MAX`], could reach only by
/// saturating is made one they never reach: otherwise a child whose number saturated would
/// meet its threshold at once, return unchanged, and be searched again, forever.
#[inline]
fn unreachable_if_saturated(threshold: u32) -> u32 {
    if threshold >= OPEN_MAX {
        INF - 1
    } else {
        threshold
    }
}

#[inline]
fn add(a: u32, b: u32) -> u32 {
    a.saturating_add(b).min(INF)
}

/// The summed number of an AND node's children (their proof numbers, each with whether it
/// is an open interposition), with the interpositions counted as one group: the largest of
/// them and half a point for each other. Interpositions on the line of one check are alike
/// (the attacker takes the piece and checks on), and summed one by one they make a check
/// along a long line look as hard as a dozen separate defences, so the search for a first
/// mate leaves it for later (kinu34's key move, with eleven interpositions, was tried last).
/// Returns the sum and what it holds besides the group's largest member.
fn grouped_sum(numbers: impl Iterator<Item = (u32, bool)>) -> (u32, u32) {
    let (mut rest, mut largest, mut members) = (0, 0, 0u32);
    for (number, in_group) in numbers {
        if in_group {
            largest = largest.max(number);
            members += 1;
        } else {
            rest = add(rest, number);
        }
    }
    if members == 0 {
        return (rest, rest);
    }
    let rest = add(rest, (members - 1) / 2);
    (add(rest, largest), rest)
}

/// One more ply in front of a length (a depth beyond every limit stays so).
#[inline]
fn plus_one(d: u16) -> u16 {
    if d == DEPTH_INF {
        d
    } else {
        d.saturating_add(1).min(DEPTH_INF - 1)
    }
}

/// The hash of a path one position longer.
#[inline]
fn extend_path(path_hash: u64, key: u64) -> u64 {
    (path_hash ^ key)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .rotate_left(29)
}

/// Zobrist keys are uniform already: the table and the path hash them as they are.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

type ProofTable = KeyTable<Entry>;
type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;

/// A move of the node and the position it leads to.
#[derive(Clone, Copy)]
struct Child {
    mv: Move,
    key: u64,
    /// The attacker's move takes the defender's last royal.
    wins: bool,
    /// The proof and disproof numbers it has before it is searched.
    initial: (u32, u32),
    /// A defender's move the search for a first mate counts in a group (`Grouping`).
    in_group: bool,
}

pub(super) struct Solver {
    pos: Position,
    attacker: Color,
    /// The attacker started with a royal: losing its last one loses the problem.
    attacker_royal: bool,
    table: ProofTable,
    /// Positions the table may hold before the garbage collector runs (`table_shape`).
    capacity: usize,
    /// The table's memory, as allocated.
    table_bytes: usize,
    /// The children of recently expanded positions.
    expansions: Expansions<Child>,
    /// Keys of the positions on the path (kept while `repetitions` holds), and the hash of
    /// the path above the current node.
    path: KeySet,
    path_hash: u64,
    /// Whether a position repeated on the path fails the attack (always in the first search;
    /// searches for a shorter mate do without on alternate shares, see `prove_shared`).
    repetitions: bool,
    nodes: u64,
    limits: MateLimits,
    start: Instant,
    /// The search must return: the budget is spent, or `cap` is reached.
    stopped: bool,
    /// The budget (time, nodes, `stop`) is spent.
    exhausted: bool,
    /// A node count at which the current search pauses (a share of the budget).
    cap: Option<u64>,
    /// The root's ply and its numbers as last computed, the shortest mate proven so far, the
    /// ply limit of the running search and when progress was last reported: for
    /// [`MateProgress`]. (The root's table entry is written only when its search returns,
    /// which in a long solve is at the end.)
    root_ply: usize,
    root_numbers: (u32, u32),
    best: Option<u16>,
    within: u16,
    reported: Duration,
    /// How long the last garbage collection took, per position the table held.
    collection_nanos_per_position: u64,
    /// New children start from estimated numbers (`estimate`) rather than (1, 1). The threat
    /// search of play ([`mate_within`]) keeps (1, 1): which threats it finds within its few
    /// hundred nodes decides moves, so a change there is a change of play.
    estimates: bool,
    /// Which of a defender's moves count as one group in its proof number (`grouped_sum`):
    /// in the search for a first mate, and not in play's threat search, for the same reason
    /// as `estimates`; `None` when none do.
    grouping: Option<Grouping>,
    /// The race this solver runs in with another, and its seat there (`portfolio`).
    race: Option<(Arc<Race>, usize)>,
}

/// Which moves of a defender the search for a first mate counts as one group (`grouped_sum`).
/// Which is faster depends on the problem, by a factor of three either way (docs/tsume.md):
/// a single solve uses the first; with two threads both race (`portfolio`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Grouping {
    /// A piece other than a royal moved to an empty square: an interposition.
    Interpositions,
    /// Any move of a piece other than a royal, captures included: a check is often answered
    /// by taking the checking piece or a guard of its line as well as by interposing.
    NonRoyalMoves,
}

/// The proof table's memory, kept from one solve to the next so that a run of many problems
/// allocates it once: a fresh table is paged in again by every solve (a page fault for nearly
/// each new position of a small problem), and emptying a used one clears a byte a slot.
#[derive(Default)]
pub struct ProofMemory {
    tables: [Option<ProofTable>; 2],
}

impl ProofMemory {
    /// The table of `seat` (the second is the rival's in a race), emptied, when it has
    /// `slots`; a new one otherwise.
    fn take(&mut self, seat: usize, slots: usize) -> ProofTable {
        // A table of another size is dropped here, before the new one is allocated.
        let reusable = self.tables[seat]
            .take()
            .filter(|t| t.slots() == slots.max(ProofTable::MIN_SLOTS));
        match reusable {
            Some(mut table) => {
                table.clear();
                table
            }
            None => ProofTable::new(slots),
        }
    }

    /// Keeps `table` for `seat`'s next solve.
    fn keep(&mut self, seat: usize, table: ProofTable) {
        self.tables[seat] = Some(table);
    }

    /// The rival's table (seat 1), for its thread.
    pub(super) fn rival_share(&mut self) -> ProofMemory {
        ProofMemory {
            tables: [None, self.tables[1].take()],
        }
    }

    /// The rival's table back from [`ProofMemory::rival_share`].
    pub(super) fn take_back(&mut self, rival: ProofMemory) {
        let [_, table] = rival.tables;
        self.tables[1] = table;
    }
}

/// Solves the tsume in `pos` (the side to move attacks) within `limits`: a first mate, then
/// shorter ones until the mate is proven shortest or the budget runs out.
pub fn solve(pos: &Position, limits: MateLimits) -> MateReport {
    solve_in(pos, limits, &mut ProofMemory::default())
}

/// [`solve`] with the proof table of `memory` (emptied first) where it has the size `limits`
/// asks for, a new one otherwise; the table stays in `memory` afterwards. The answer is the
/// one a fresh table gives.
pub fn solve_in(pos: &Position, limits: MateLimits, memory: &mut ProofMemory) -> MateReport {
    if solver_threads(limits.threads) == 2 {
        return solve_raced(pos, limits, memory);
    }
    let (mut solver, limit) = Solver::for_solve(pos, limits, memory, 0, None);
    let report = solver.solve(pos, limit);
    solver.keep_table(memory, 0);
    report
}

/// The threads a solve asked for `requested` ([`MateLimits::threads`]) runs on: two at most
/// (two groupings race), one in the browser build, whose Web Worker has no threads of its own.
pub fn solver_threads(requested: usize) -> usize {
    if cfg!(target_arch = "wasm32") {
        1
    } else {
        requested.clamp(1, 2)
    }
}

impl Solver {
    /// A solver for [`solve_in`] in `seat` of `memory` (and of `race`, when it runs in one),
    /// grouping as that seat does, and the ply limit of its search.
    pub(super) fn for_solve(
        pos: &Position,
        limits: MateLimits,
        memory: &mut ProofMemory,
        seat: usize,
        race: Option<Arc<Race>>,
    ) -> (Solver, u16) {
        let limit = limits.max_plies.clamp(1, MAX_PLIES) as u16;
        let table = memory.take(seat, table_shape(limits.table_mb).0);
        let mut solver = Solver::with_table(pos, limits, EXPANSION_BITS, table);
        solver.grouping = Some(if seat == 0 {
            Grouping::Interpositions
        } else {
            Grouping::NonRoyalMoves
        });
        solver.race = race.map(|race| (race, seat));
        (solver, limit)
    }

    /// Gives the solver's table back to `memory`, for `seat`'s next solve.
    pub(super) fn keep_table(self, memory: &mut ProofMemory, seat: usize) {
        memory.keep(seat, self.table);
    }

    /// The body of [`solve`], on a solver over an empty table. In a race, a solver whose first
    /// search does not settle before the other's answers `Timeout` and stops there.
    pub(super) fn solve(&mut self, pos: &Position, limit: u16) -> MateReport {
        let first = self.prove(limit);
        // The searches for a shorter mate end mostly in refutations, which the grouping slows.
        self.grouping = None;
        let mut report = MateReport {
            outcome: MateOutcome::Timeout,
            shortest: false,
            nodes: 0,
            elapsed: Duration::ZERO,
            first_mate: None,
            proof: HashMap::new(),
            rejected: None,
        };
        let settled = first.pn == 0 || first.dn == 0;
        let lost = self
            .race
            .as_ref()
            .is_some_and(|(race, seat)| !(settled && race.claim(*seat)));
        if lost {
            // Nothing to say: the other's answer is the race's.
        } else if first.pn == 0 {
            report.first_mate = Some(self.start.elapsed());
            // The first mate is read and verified at once: a long proof takes seconds to read
            // and replay, and the search for a shorter mate stops that much (and half again)
            // before the time limit, so that the answer, read the same way, comes within it.
            let began = Instant::now();
            let first_read = self.read_and_verify(pos, first.dist);
            let reading = began.elapsed();
            self.limits.time = self.limits.time.map(|t| t.saturating_sub(reading * 3 / 2));
            let (length, shortest) = self.shorten(first.dist);
            report.shortest = shortest;
            // The first search's bound can exceed the line read back: the first reading stands
            // when the mate it verified is no longer than the shortest length proven since.
            let first_holds = match &first_read {
                Ok((line, _)) => line.len() <= usize::from(length),
                Err(_) => length == first.dist,
            };
            let read = if first_holds {
                first_read
            } else {
                self.read_and_verify(pos, length)
            };
            match read {
                Ok((line, proof)) => {
                    report.outcome = MateOutcome::Mate(line);
                    report.proof = proof;
                }
                Err((why, proof)) => {
                    report.rejected = Some(why);
                    report.proof = proof;
                }
            }
        } else if first.dn == 0 {
            report.outcome = MateOutcome::NoMate;
        }
        report.nodes = self.nodes;
        report.elapsed = self.start.elapsed();
        report
    }
}

/// Whether the side to move in `pos` has a mate by checks within `max_plies` plies that the
/// solver proves within `nodes` expansions: the search's look for a threat (`pos` is then the
/// position after a pass). The proof is not verified nor shortened; a budget spent first
/// answers false.
pub fn mate_within(pos: &Position, max_plies: usize, nodes: u64) -> bool {
    let limits = MateLimits {
        nodes: Some(nodes),
        table_mb: 1,
        max_plies,
        ..MateLimits::default()
    };
    let limit = max_plies.clamp(1, MAX_PLIES) as u16;
    let mut solver = Solver::new(pos, limits, THREAT_EXPANSION_BITS);
    solver.estimates = false;
    solver.grouping = None;
    solver.prove(limit).pn == 0
}

impl Solver {
    fn new(pos: &Position, limits: MateLimits, expansion_bits: u32) -> Solver {
        let (slots, _) = table_shape(limits.table_mb);
        Solver::with_table(pos, limits, expansion_bits, ProofTable::new(slots))
    }

    /// A solver over `table`, which must be empty and of the shape `limits.table_mb` gives.
    fn with_table(
        pos: &Position,
        limits: MateLimits,
        expansion_bits: u32,
        table: ProofTable,
    ) -> Solver {
        let (slots, capacity) = table_shape(limits.table_mb);
        Solver {
            pos: pos.clone(),
            attacker: pos.side_to_move(),
            attacker_royal: pos.royals(pos.side_to_move()).any(),
            table,
            capacity,
            table_bytes: slots * ProofTable::SLOT_BYTES,
            expansions: Expansions::new(expansion_bits),
            path: KeySet::default(),
            path_hash: 0,
            repetitions: true,
            nodes: 0,
            limits,
            start: Instant::now(),
            stopped: false,
            exhausted: false,
            cap: None,
            root_ply: pos.plies_played(),
            root_numbers: (1, 1),
            best: None,
            within: 0,
            reported: Duration::ZERO,
            collection_nanos_per_position: COLLECTION_NANOS_PER_POSITION,
            estimates: true,
            grouping: Some(Grouping::Interpositions),
            race: None,
        }
    }

    fn is_attacker_to_move(&self) -> bool {
        self.pos.side_to_move() == self.attacker
    }

    /// The stop signal (it polls the host only now and then) and the node budget at every
    /// node; the clock every 1024 nodes.
    fn check_limits(&mut self) {
        let stop = self.limits.stop.as_ref().is_some_and(|s| s.is_set());
        let nodes = self.limits.nodes.is_some_and(|n| self.nodes >= n);
        if self.nodes & 1023 != 1 {
            self.exhausted |= stop || nodes;
            self.stopped |= stop || nodes;
            return;
        }
        let elapsed = self.start.elapsed();
        let time = self.limits.time.is_some_and(|t| elapsed >= t);
        let (lost, reports) = match &self.race {
            Some((race, seat)) => (race.lost(*seat), race.reports(*seat)),
            None => (false, true),
        };
        self.exhausted |= stop || time || nodes || lost;
        self.stopped |= self.exhausted || self.cap.is_some_and(|c| self.nodes >= c);
        if let (Some(hook), true) = (&self.limits.progress, reports) {
            if elapsed >= self.reported + hook.every {
                self.reported = elapsed;
                (hook.report)(&self.progress(elapsed));
            }
        }
    }

    fn progress(&self, elapsed: Duration) -> MateProgress {
        let (root_pn, root_dn) = self.root_numbers;
        MateProgress {
            elapsed,
            nodes: self.nodes,
            root_pn,
            root_dn,
            best: self.best,
            within: self.within,
            table_entries: self.table.len(),
            table_capacity: self.capacity,
            table_bytes: self.table_bytes,
        }
    }

    /// Searches the current position with `limit` plies until it is settled or the budget
    /// runs out.
    fn prove(&mut self, limit: u16) -> Value {
        self.within = limit;
        loop {
            let v = self.mid(INF - 1, INF - 1, limit);
            if v.settled() || self.stopped {
                return v;
            }
        }
    }

    /// From a first mate of `length` plies, proves shorter ones (two plies shorter each time,
    /// as mates have odd lengths) until one is refuted: the length of the shortest mate found
    /// and whether it is proven shortest.
    fn shorten(&mut self, mut length: u16) -> (u16, bool) {
        self.best = Some(length);
        while length > 1 && !self.exhausted {
            let v = self.prove_shared(length - 2);
            if v.pn == 0 {
                length = v.dist;
                self.best = Some(length);
            } else if v.dn == 0 {
                return (length, true);
            }
        }
        (length, length == 1)
    }

    /// A search for a mate within `limit` plies that alternates, on doubling shares of nodes,
    /// between failing repetitions on the path (cheap where checks cycle, but its disproofs
    /// hold on one path only) and letting the ply limit end cycles (disproofs shared by every
    /// path). Both store only facts that hold, so they share the table.
    fn prove_shared(&mut self, limit: u16) -> Value {
        let mut share = 50_000u64;
        loop {
            for repetitions in [true, false] {
                self.repetitions = repetitions;
                self.cap = Some(self.nodes.saturating_add(share));
                let v = self.prove(limit);
                self.cap = None;
                self.stopped = self.exhausted;
                if v.settled() || self.exhausted {
                    self.repetitions = true;
                    return v;
                }
            }
            share = share.saturating_mul(2);
        }
    }

    /// What the table says about a child, `r` plies left at the child.
    fn child_value(&self, child: &Child, r: u16) -> Value {
        if child.wins {
            return Value::proven(0);
        }
        if self.repetitions && self.path.contains(&child.key) {
            return Value::disproven(DEPTH_INF, true);
        }
        let Some(e) = self.table.get(child.key) else {
            return Value::open(child.initial.0, child.initial.1);
        };
        match (e.dist, e.depth, e.rep) {
            (Some(d), _, _) if d <= r => Value::proven(d),
            (_, Some(d), _) if d >= r => Value::disproven(d, false),
            (_, _, Some((d, h))) if d >= r && h == self.path_hash => Value::disproven(d, true),
            _ => Value::open(e.pn, e.dn),
        }
    }

    /// Adds what a search of the current position established to its entry.
    fn record(&mut self, key: u64, v: Value, work: u64) {
        let path_hash = self.path_hash;
        // When the table is full (the collector freed too little, or the budget is spent and
        // the search is returning) the fact is not kept, as if it had been collected.
        self.table.update(key, |e| {
            e.work = e
                .work
                .saturating_add(u32::try_from(work).unwrap_or(u32::MAX));
            if v.pn == 0 {
                e.dist = Some(e.dist.map_or(v.dist, |d| d.min(v.dist)));
            } else if v.dn == 0 && v.rep {
                e.rep = Some((v.depth, path_hash));
            } else if v.dn == 0 {
                e.depth = Some(e.depth.map_or(v.depth, |d| d.max(v.depth)));
            } else {
                (e.pn, e.dn) = (v.pn, v.dn);
            }
        });
        if self.table.len() > self.capacity {
            if self.collection_would_overrun() {
                // The table is full and the time left is shorter than a collection: the
                // budget is spent now rather than a collection's length after the limit.
                self.exhausted = true;
                self.stopped = true;
                return;
            }
            let began = Instant::now();
            let held = self.table.len() as u64;
            self.collect_garbage();
            let nanos = u64::try_from(began.elapsed().as_nanos()).unwrap_or(u64::MAX);
            self.collection_nanos_per_position = (nanos / held.max(1)).max(1);
        }
    }

    /// Whether a garbage collection started now would end after the time limit, judged by the
    /// last one's pace (the table holds about as many positions each time).
    fn collection_would_overrun(&self) -> bool {
        let Some(limit) = self.limits.time else {
            return false;
        };
        let expected = self.table.len() as u64 * self.collection_nanos_per_position;
        self.start.elapsed() + Duration::from_nanos(expected) >= limit
    }

    /// Frees the table to 3/4 of its capacity: open entries first, least work first, then
    /// disproofs; proven entries always stay, so the proof can be read back.
    fn collect_garbage(&mut self) {
        let target = self.capacity * 3 / 4;
        let open = |e: &Entry| e.dist.is_none() && e.depth.is_none() && e.rep.is_none();
        self.drop_least_work(target, open);
        self.drop_least_work(target, |e| e.dist.is_none() && e.depth != Some(DEPTH_INF));
    }

    fn drop_least_work(&mut self, target: usize, droppable: impl Fn(&Entry) -> bool) {
        let excess = self.table.len().saturating_sub(target);
        if excess == 0 {
            return;
        }
        let mut work: Vec<u32> = self
            .table
            .values()
            .filter(|e| droppable(e))
            .map(|e| e.work)
            .collect();
        if work.is_empty() {
            return;
        }
        let cut = excess.min(work.len()) - 1;
        let (_, &mut threshold, _) = work.select_nth_unstable(cut);
        self.table.retain(|e| !droppable(e) || e.work > threshold);
    }
}

impl Solver {
    /// The current position's expansion, from the cache where it is still there.
    fn expansion(&mut self, key: u64) -> Expansion<Child> {
        if let Some(found) = self.expansions.get(key) {
            return found;
        }
        let (children, mated) = self.expand();
        let expansion: Expansion<Child> = (Rc::from(children), mated);
        self.expansions.insert(key, expansion.clone());
        expansion
    }

    /// The children of the current position that the tsume allows, and whether it is mated
    /// (a defender with no escape). Not inlined: its move list (a kilobyte) stays off the
    /// frames of the recursion, which may be `MAX_PLIES` deep.
    #[inline(never)]
    fn expand(&mut self) -> (Vec<Child>, bool) {
        if self.attacker_royal && royals_gone(&self.pos, self.attacker) {
            // The defender took the attacker's last royal: the attack has failed.
            return (Vec::new(), false);
        }
        let or = self.is_attacker_to_move();
        let defender = !self.attacker;
        if !or && royals_gone(&self.pos, defender) {
            return (Vec::new(), true);
        }
        let attacker_royal = self.pos.royals(self.attacker).any();
        let filter = MoveFilter::new(&self.pos, or, defender);
        let mut moves = MoveList::new();
        filter.generate(&self.pos, &mut moves);
        // Each move that may be allowed is read without making it; only a defender keeping two
        // royals, one of them attacked, needs the move made.
        let mut children = Vec::with_capacity(moves.len());
        for &mv in &moves {
            if !filter.may_allow(&self.pos, mv) {
                continue;
            }
            let peek = self.pos.peek(mv);
            let verdict = if or {
                let check = filter.is_check(&self.pos, &peek, mv, defender);
                // Under `Royals::All` an attack on one of two royals needs the move made.
                let undecided =
                    check && self.limits.royals == Royals::All && peek.royals(defender).count() > 1;
                (!undecided).then_some(check)
            } else {
                escape_by_board(&peek, defender, attacker_royal)
            };
            if verdict == Some(false) {
                continue;
            }
            let (key, wins) = (peek.key(), or && royals_gone(&peek, defender));
            let allowed = verdict.unwrap_or_else(|| {
                self.pos.play(mv);
                let allowed = if or {
                    gives_check(&self.pos, defender, self.limits.royals)
                } else {
                    is_escape(&mut self.pos, defender, attacker_royal)
                };
                self.pos.undo();
                allowed
            });
            if allowed {
                let initial = if self.estimates {
                    initial_numbers(&self.pos, mv, or)
                } else {
                    (1, 1)
                };
                let in_group = !or
                    && !mv.is_pass()
                    && !self.pos.royals(defender).has(mv.from())
                    && mv.mid().is_none()
                    && (self.grouping == Some(Grouping::NonRoyalMoves)
                        || self.pos.piece_at(mv.to()).is_none());
                children.push(Child {
                    mv,
                    key,
                    wins,
                    initial,
                    in_group,
                });
            }
        }
        let mated = !or && children.is_empty();
        (children, mated)
    }

    /// Searches the current position, `r` plies left, until its proof or disproof number
    /// reaches its threshold or it is settled.
    fn mid(&mut self, th_pn: u32, th_dn: u32, r: u16) -> Value {
        self.nodes += 1;
        self.check_limits();
        let key = self.pos.key();
        let (children, mated) = self.expansion(key);
        if children.is_empty() {
            let v = if mated {
                Value::proven(0)
            } else {
                Value::disproven(DEPTH_INF, false)
            };
            self.record(key, v, 1);
            return v;
        }
        if r == 0 {
            let v = Value::disproven(0, false);
            self.record(key, v, 1);
            return v;
        }
        let work_before = self.nodes;
        let parent_hash = self.path_hash;
        if self.repetitions {
            self.path.insert(key);
        }
        self.path_hash = extend_path(parent_hash, key);
        let v = self.search_children(&children, th_pn, th_dn, r);
        if self.repetitions {
            self.path.remove(&key);
        }
        self.path_hash = parent_hash;
        self.record(key, v, self.nodes - work_before);
        v
    }

    /// The df-pn loop over the children of the current position (already on the path).
    ///
    /// A child's disproof that rests on a repetition holds for this whole loop, since the path
    /// above does not change while it runs; it is kept here, not only in the table, where a
    /// search of a sibling that meets the child's position on a longer path would overwrite
    /// it, and two such siblings would then be searched in turn forever.
    fn search_children(&mut self, children: &[Child], th_pn: u32, th_dn: u32, r: u16) -> Value {
        let or = self.is_attacker_to_move();
        let mut on_this_path: Vec<Option<Value>> = Vec::new();
        for child in children {
            self.table.prefetch(child.key);
        }
        loop {
            let values: Vec<Value> = children
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    on_this_path
                        .get(i)
                        .copied()
                        .flatten()
                        .unwrap_or_else(|| self.child_value(c, r - 1))
                })
                .collect();
            // Per child, `m` is the number this node minimises (the child's delta) and `s` the
            // one it sums (the child's phi): pn and dn at an OR node, dn and pn at an AND node.
            let grouped = |i: usize| {
                !or && self.grouping.is_some() && children[i].in_group && values[i].pn != 0
            };
            let (mut best, mut phi, mut second) = (0, INF, INF);
            let (delta, rest) = grouped_sum(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| (Self::m_s(v, or).1, grouped(i))),
            );
            for (i, &value) in values.iter().enumerate() {
                let (m, _) = Self::m_s(value, or);
                if m < phi {
                    second = phi;
                    phi = m;
                    best = i;
                } else if m < second {
                    second = m;
                }
            }
            let (pn, dn) = if or { (phi, delta) } else { (delta, phi) };
            if pn == 0 || dn == 0 {
                return Self::summarise(&values, or);
            }
            let (pn, dn) = (pn.min(OPEN_MAX), dn.min(OPEN_MAX));
            if self.pos.plies_played() == self.root_ply {
                self.root_numbers = (pn, dn);
            }
            if pn >= th_pn || dn >= th_dn || self.stopped {
                return Value::open(pn, dn);
            }
            let (th_phi, th_delta) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let (_, best_s) = Self::m_s(values[best], or);
            let widened = ((u64::from(second) * 5 / 4) + 1).min(u64::from(INF)) as u32;
            let th_m = th_phi.min(widened);
            // With no limit on the summed number here, the child has none either; otherwise
            // its share is what the others leave, counted with the capped sum.
            let th_s = if th_delta >= INF - 1 {
                INF - 1
            } else if grouped(best) {
                // The group counts its largest member: this one may grow until the sum meets
                // the threshold, whichever member is largest now.
                th_delta - rest.min(OPEN_MAX)
            } else {
                add(th_delta - delta.min(OPEN_MAX), best_s)
            };
            let (child_th_pn, child_th_dn) = if or { (th_m, th_s) } else { (th_s, th_m) };
            let (child_th_pn, child_th_dn) = (
                unreachable_if_saturated(child_th_pn),
                unreachable_if_saturated(child_th_dn),
            );
            self.pos.play(children[best].mv);
            self.mid(child_th_pn, child_th_dn, r - 1);
            self.pos.undo();
            let found = self.child_value(&children[best], r - 1);
            if found.dn == 0 && found.rep {
                on_this_path.resize(children.len(), None);
                on_this_path[best] = Some(found);
            }
        }
    }

    /// A child's numbers as (minimised, summed) by its parent.
    #[inline]
    fn m_s(v: Value, parent_is_or: bool) -> (u32, u32) {
        if parent_is_or {
            (v.pn, v.dn)
        } else {
            (v.dn, v.pn)
        }
    }

    /// The settled value of a node from its children's: a proof's length (the attacker's
    /// shortest, the defender's longest), or how far a disproof reaches and whether it rests on
    /// the path.
    fn summarise(values: &[Value], or: bool) -> Value {
        let proven = values.iter().filter(|v| v.pn == 0).map(|v| v.dist);
        let disproven = values.iter().filter(|v| v.dn == 0);
        let proved = if or {
            values.iter().any(|v| v.pn == 0)
        } else {
            values.iter().all(|v| v.pn == 0)
        };
        if proved {
            let dist = if or { proven.min() } else { proven.max() };
            return Value::proven(plus_one(dist.unwrap_or(0)));
        }
        if or {
            // Every check fails: as far as the weakest refutation reaches.
            let depth = disproven
                .clone()
                .map(|v| v.depth)
                .min()
                .unwrap_or(DEPTH_INF);
            let rep = disproven.clone().any(|v| v.rep);
            Value::disproven(plus_one(depth), rep)
        } else {
            // One escape holds: the best of them, a path-independent one if there is one.
            let best = disproven
                .max_by_key(|v| (!v.rep, v.depth))
                .copied()
                .unwrap_or(Value::disproven(0, true));
            Value::disproven(plus_one(best.depth), best.rep)
        }
    }
}

/// A verified line and its proof, or why there is none (and the proof, if it was read).
type ReadProof = Result<(Vec<Move>, HashMap<u64, Move>), (String, HashMap<u64, Move>)>;

impl Solver {
    /// The proof of a mate in `length` plies from the root `pos`, read from the table and
    /// replayed by the verifier against every defence, which gives the line; a proof it
    /// rejects is no answer, with the reason. The solver's limits and budget state are left as
    /// they were (reading may prove a missing position again, on a budget of its own).
    fn read_and_verify(&mut self, pos: &Position, length: u16) -> ReadProof {
        let (limits, stopped, exhausted) = (self.limits.clone(), self.stopped, self.exhausted);
        let proof = self.proof_moves(length);
        (self.limits, self.stopped, self.exhausted) = (limits, stopped, exhausted);
        let Some(proof) = proof else {
            return Err((
                "the proof could not be read back".to_string(),
                HashMap::new(),
            ));
        };
        match verified_line(pos, &proof, usize::from(length), self.limits.royals) {
            Ok(line) => Ok((line, proof)),
            Err(e) => Err((format!("proof rejected: {e}"), proof)),
        }
    }

    /// The attacker's move at every attacker position of a proof of at most `length` plies
    /// from the root, read from the proven entries; `None` if a proof cannot be read back.
    fn proof_moves(&mut self, length: u16) -> Option<HashMap<u64, Move>> {
        let mut proof = HashMap::new();
        self.path.clear();
        self.path_hash = 0;
        self.collect_attack(&mut proof, length)?;
        Some(proof)
    }

    /// The proven child of the current attacker position with the shortest mate within `r`
    /// plies, read from the table whatever the path.
    fn shortest_child(&mut self, r: u16) -> Option<(Child, u16)> {
        let (children, _) = self.expand();
        children
            .into_iter()
            .filter_map(|c| {
                let dist = if c.wins {
                    Some(0)
                } else {
                    self.table.get(c.key).and_then(|e| e.dist)
                };
                dist.filter(|&d| d < r).map(|d| (c, d))
            })
            .min_by_key(|&(_, d)| d)
    }

    /// Reads the proof below the current attacker position, `r` plies left. Strictly shorter
    /// proven lengths along the way make it finite. A position whose proof is missing is
    /// proven again (from scratch, on no path) before it is read.
    fn collect_attack(&mut self, proof: &mut HashMap<u64, Move>, r: u16) -> Option<()> {
        let key = self.pos.key();
        if proof.contains_key(&key) {
            return Some(());
        }
        let chosen = match self.shortest_child(r) {
            Some(found) => found,
            None => {
                self.stopped = false;
                self.exhausted = false;
                self.limits.time = None;
                self.limits.nodes = Some(self.nodes.saturating_add(1_000_000));
                let v = self.prove(r);
                if v.pn != 0 {
                    return None;
                }
                self.shortest_child(r)?
            }
        };
        let (child, dist) = chosen;
        proof.insert(key, child.mv);
        if child.wins {
            return Some(());
        }
        self.pos.play(child.mv);
        let done = self.collect_defence(proof, dist);
        self.pos.undo();
        done
    }

    /// Reads the proof below the current defender position, mated within `r` plies.
    fn collect_defence(&mut self, proof: &mut HashMap<u64, Move>, r: u16) -> Option<()> {
        let (children, _) = self.expand();
        let left = if children.is_empty() {
            0
        } else {
            r.checked_sub(1)?
        };
        for child in children {
            self.pos.play(child.mv);
            let done = self.collect_attack(proof, left);
            self.pos.undo();
            done?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Variant;
    use crate::movegen::generate;

    fn solver_and_child() -> (Solver, Child) {
        let pos = Position::startpos(Variant::Chushogi);
        let mut moves = MoveList::new();
        generate(&pos, &mut moves);
        let solver = Solver::new(&pos, MateLimits::default(), EXPANSION_BITS);
        let child = Child {
            mv: moves[0],
            key: 42,
            wins: false,
            initial: (1, 1),
            in_group: false,
        };
        (solver, child)
    }

    #[test]
    fn tsume_interpositions_count_as_one_group_in_an_and_nodes_sum() {
        let sum = |numbers: &[(u32, bool)]| grouped_sum(numbers.iter().copied());
        // Without interpositions, the plain sum.
        assert_eq!(sum(&[(3, false), (4, false)]), (7, 7));
        // One interposition counts fully; more add their largest and half a point each.
        assert_eq!(sum(&[(3, false), (5, true)]), (8, 3));
        assert_eq!(sum(&[(3, false), (5, true), (2, true), (4, true)]), (9, 4));
        assert_eq!(
            sum(&[(6, true), (6, true), (6, true), (6, true), (6, true)]),
            (8, 2)
        );
        // Saturation stays at INF.
        assert_eq!(sum(&[(INF, false), (1, true)]).0, INF);
    }

    #[test]
    fn tsume_mate_within_answers_only_within_its_plies_and_budget() {
        // Game 13 of results/hachu-thirtieth-oh10-fd8476b, ply 246 with HaChu (gote) to move
        // instead of shishi: `shishi mate` proves a mate in 5 plies, the shortest.
        let sfen = "l3gekg4/a1+st3t4/4d7/5m5m/1+D1p1p1+H4/p2i8/11G/P7i2P/6n5/X11/F4TT1SF1A/L4K1D1C1L w - 253";
        let pos = Position::from_sfen(Variant::Chushogi, sfen)
            .unwrap()
            .with_rules(crate::rules::Preset::Hachu.rules());
        assert!(mate_within(&pos, 7, 10_000));
        assert!(mate_within(&pos, 5, 10_000));
        assert!(!mate_within(&pos, 3, 10_000), "no mate in 3");
        assert!(!mate_within(&pos, 7, 2), "two nodes cannot prove it");
        let start = Position::startpos(Variant::Chushogi);
        assert!(!mate_within(&start, 7, 10_000));
    }

    #[test]
    fn tsume_an_entry_reads_back_as_it_was_stored() {
        let entries = [
            Entry::default(),
            Entry {
                dist: Some(0),
                depth: Some(DEPTH_INF),
                rep: Some((DEPTH_INF - 1, u64::MAX)),
                pn: INF,
                dn: 0,
                work: u32::MAX,
            },
            Entry {
                dist: Some(2001),
                depth: None,
                rep: Some((0, 0)),
                pn: 0,
                dn: OPEN_MAX,
                work: 1,
            },
            Entry {
                dist: None,
                depth: Some(0),
                rep: None,
                pn: 7,
                dn: 9,
                work: 0,
            },
        ];
        for e in entries {
            let back = Entry::unpack(e.pack());
            assert_eq!(format!("{back:?}"), format!("{e:?}"));
        }
    }

    #[test]
    fn tsume_facts_hold_within_their_ply_limits() {
        let (mut solver, child) = solver_and_child();
        solver.record(child.key, Value::proven(5), 1);
        assert_eq!(
            solver.child_value(&child, 5).pn,
            0,
            "mate in 5 within 5 plies"
        );
        assert_eq!(solver.child_value(&child, 7).dist, 5);
        assert!(
            !solver.child_value(&child, 3).settled(),
            "no mate in 3 is known"
        );
        solver.record(child.key, Value::disproven(3, false), 1);
        assert_eq!(
            solver.child_value(&child, 3).dn,
            0,
            "no mate within 3 plies"
        );
        assert_eq!(solver.child_value(&child, 5).pn, 0, "the proof stays");
        // A longer proof found later does not replace the shorter one.
        solver.record(child.key, Value::proven(9), 1);
        assert_eq!(solver.child_value(&child, 9).dist, 5);
    }

    #[test]
    fn tsume_a_disproof_resting_on_a_repetition_holds_only_on_its_path() {
        let (mut solver, child) = solver_and_child();
        solver.path_hash = 7;
        solver.record(child.key, Value::disproven(DEPTH_INF, true), 1);
        assert_eq!(
            solver.child_value(&child, 9).dn,
            0,
            "on the path it was found on"
        );
        solver.path_hash = 8;
        assert!(
            !solver.child_value(&child, 9).settled(),
            "on another path: open"
        );
        // A path-independent disproof holds on every path.
        solver.record(child.key, Value::disproven(11, false), 1);
        assert_eq!(solver.child_value(&child, 9).dn, 0);
    }

    #[test]
    fn tsume_the_table_stays_within_its_memory_and_uses_it() {
        for mb in [1, 3, 64] {
            let limits = MateLimits {
                table_mb: mb,
                ..MateLimits::default()
            };
            let pos = Position::startpos(Variant::Chushogi);
            let mut solver = Solver::new(&pos, limits, EXPANSION_BITS);
            let slots = solver.table.slots();
            let used = solver.table_bytes + solver.capacity * COLLECTOR_BYTES;
            assert!(used <= mb << 20, "{mb} MiB: {used} bytes");
            // A position for every 60 bytes given (a hash map kept half full took twice that,
            // and a power-of-two size up to twice again).
            assert!(
                solver.capacity * 60 >= mb << 20,
                "{mb} MiB: {}",
                solver.capacity
            );
            // Collections over and over: the table keeps its slots and its limit.
            let mut rng = 0x2545_f491_4f6c_dd1du64;
            for i in 0..solver.capacity as u64 * 6 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let v = if i % 50 == 0 {
                    Value::proven(5)
                } else {
                    Value::open(3, 3)
                };
                solver.record(rng, v, i % 1000);
                assert!(solver.table.len() <= solver.capacity);
            }
            assert_eq!(solver.table.slots(), slots, "{mb} MiB");
        }
    }

    #[test]
    fn tsume_a_collection_that_would_end_past_the_time_limit_ends_the_search_instead() {
        let (mut solver, _) = solver_and_child();
        solver.capacity = 1024;
        solver.limits.time = Some(Duration::from_secs(3600));
        // At this pace a collection of the full table would take two hours.
        solver.collection_nanos_per_position = 2 * 3600 * 1_000_000_000 / 1024;
        for key in 0..=1024u64 {
            solver.record(key, Value::open(2, 2), key);
        }
        assert_eq!(solver.table.len(), 1025, "no collection was started");
        assert!(solver.exhausted && solver.stopped, "the budget is spent");
        // With time enough, the same table is collected and the pace measured.
        let (mut solver, _) = solver_and_child();
        solver.capacity = 1024;
        solver.limits.time = Some(Duration::from_secs(3600));
        solver.collection_nanos_per_position = 1;
        for key in 0..=1024u64 {
            solver.record(key, Value::open(2, 2), key);
        }
        assert!(solver.table.len() <= 1024);
        assert!(!solver.exhausted && !solver.stopped);
        // A nanosecond a position is faster than any collection: the pace was measured.
        assert!(solver.collection_nanos_per_position > 1);
    }

    #[test]
    fn tsume_garbage_collection_keeps_proofs() {
        let (mut solver, _) = solver_and_child();
        solver.capacity = 1024;
        for key in 0..2000u64 {
            let v = if key % 10 == 0 {
                Value::proven(3)
            } else {
                Value::open(2, 2)
            };
            solver.record(key, v, key);
        }
        assert!(solver.table.len() <= 1024);
        assert!((0..2000u64)
            .step_by(10)
            .all(|k| solver.table.get(k).is_some_and(|e| e.dist == Some(3))));
    }
}
