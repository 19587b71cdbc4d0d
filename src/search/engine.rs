//! `Engine` and `SearchHandle`: the search as the protocols and the command line see it.
//!
//! `Engine::start` spawns one search thread that owns time and info output; it runs the Lazy
//! SMP helpers on the engine's rayon pool inside a scope, so they never outlive the search.
//! Threads share the table (`Arc<Table>`) and `Shared` flags only; each keeps its own history,
//! which persists between searches of a game and is cleared by `new_game`.
//!
//! `Engine::run_here` is the same search on the calling thread, for hosts without threads (the
//! browser build): it returns once the search has ended, and hears `stop` meanwhile only through
//! the `Poll` hook it is given, which the search calls every few thousand nodes.

use super::picker::History;
use super::shared::{Poll, Shared};
use super::threat;
use super::time;
use super::tt::{Table, TableAllocError};
use super::worker::{report_for, to_score, Budget, Finding, Worker, MATE, MAX_PLY};
use super::{EngineOptions, Limits, Score, SearchInfo, SearchResult};
use crate::board::Family;
use crate::eval::nnue::Network;
use crate::moves::Move;
use crate::platform;
use crate::position::Position;
use crate::rules::Repetition;
use std::sync::atomic::AtomicBool;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::Ordering::Release;
use std::sync::atomic::Ordering::{Acquire, Relaxed};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// Where a search sends its progress reports (`info` lines), from the thread that searches.
pub type OnInfo = Box<dyn FnMut(&SearchInfo) + Send>;

/// Called from the search thread the moment a search's result is ready, so a front end waiting
/// for its input hears of the end at once instead of at its next poll.
pub type Waker = Arc<dyn Fn() + Send + Sync>;

#[cfg(not(target_arch = "wasm32"))]
const SEARCH_STACK_BYTES: usize = 16 * 1024 * 1024;

/// The search as the protocols see it: options, the shared table and each thread's history,
/// kept from one search of a game to the next.
pub struct Engine {
    options: EngineOptions,
    table: Arc<Table>,
    histories: Vec<Arc<Mutex<History>>>,
    /// Threads for the Lazy SMP helpers (`Threads` - 1 of them); none with one thread.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    helpers: Option<Arc<HelperPool>>,
    /// Told of the end of each search started on a thread.
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    waker: Option<Waker>,
}

#[cfg(not(target_arch = "wasm32"))]
type HelperPool = rayon::ThreadPool;
/// No threads in the browser build: `run_here` never has helpers.
#[cfg(target_arch = "wasm32")]
type HelperPool = std::convert::Infallible;

/// A running search. Dropping it stops the search and waits for its threads.
pub struct SearchHandle {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<SearchResult>>,
    /// Set by the search thread once its result is ready (it may not have exited yet).
    done: Arc<AtomicBool>,
    /// The answer of a search that ran on the caller's thread (`Engine::run_here`).
    result: Option<SearchResult>,
    /// A legal move to answer with if the search thread panics, so that a bug costs the
    /// move's quality and not the game.
    fallback: Option<Move>,
}

impl Engine {
    /// An engine with a fresh table of `options.hash_mb` MiB. The embedded nets are unpacked
    /// here (once a process), not in the first search, whose clock is running.
    pub fn new(options: EngineOptions) -> Engine {
        let table = Table::new(options.hash_mb);
        Engine::with_table(options, table)
    }

    /// [`Engine::new`], refused when its table cannot be had.
    pub fn try_new(options: EngineOptions) -> Result<Engine, TableAllocError> {
        let table = Table::try_new(options.hash_mb)?;
        Ok(Engine::with_table(options, table))
    }

    fn with_table(options: EngineOptions, table: Table) -> Engine {
        for family in Family::ALL {
            options.eval.net_for(family);
        }
        Engine {
            options,
            table: Arc::new(table),
            histories: Vec::new(),
            helpers: None,
            waker: None,
        }
    }

    /// Who to tell when a search started by [`Engine::start`] has its result.
    pub fn set_waker(&mut self, waker: Option<Waker>) {
        self.waker = waker;
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Takes new options; a new hash size reallocates (and so clears) the table. A table that
    /// cannot be had is refused, and the engine keeps its options and table.
    pub fn set_options(&mut self, options: EngineOptions) -> Result<(), TableAllocError> {
        if options.hash_mb != self.options.hash_mb {
            self.table = Arc::new(Table::try_new(options.hash_mb)?);
        }
        for family in Family::ALL {
            options.eval.net_for(family);
        }
        self.options = options;
        Ok(())
    }

    /// Forgets everything learnt: table and histories.
    pub fn new_game(&mut self) {
        self.table.clear();
        for h in &self.histories {
            h.lock().unwrap_or_else(PoisonError::into_inner).clear();
        }
    }

    /// Starts searching `pos` (its move history is used for repetition) on background threads.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(&mut self, pos: &Position, limits: Limits, on_info: OnInfo) -> SearchHandle {
        let threads = self.options.threads.clamp(1, 256);
        let shared = Arc::new(Shared::new(self.table.clone(), threads, limits.ponder));
        let job = self.job(&shared, pos, limits, on_info, threads);
        let fallback = root_moves(pos).first().copied();
        let done = Arc::new(AtomicBool::new(false));
        let (done_here, waker) = (done.clone(), self.waker.clone());
        let thread = std::thread::Builder::new()
            .name("shishi-search".to_string())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                // Dropped on return and on a panic alike: the front end hears of the end.
                let _ended = Ended {
                    done: done_here,
                    waker,
                };
                job.run()
            });
        let thread = match thread {
            Ok(handle) => Some(handle),
            Err(e) => {
                log::error!("cannot start the search thread: {e}");
                None
            }
        };
        SearchHandle {
            shared,
            thread,
            done,
            result: None,
            fallback,
        }
    }

    /// Without threads, `start` searches on the calling thread and returns the ended search;
    /// nothing can stop it, so it suits fixed-depth work (`bench`). A GUI's search uses
    /// `run_here`.
    #[cfg(target_arch = "wasm32")]
    pub fn start(&mut self, pos: &Position, limits: Limits, on_info: OnInfo) -> SearchHandle {
        self.run_here(pos, limits, on_info, Box::new(|_: &super::Control| {}))
    }

    /// Searches `pos` on the calling thread, alone (no helpers whatever `Threads` says), and
    /// returns the ended search. `poll` is how the search hears the GUI: it is called every few
    /// thousand nodes and may stop the search or start its clock (`ponderhit`). An infinite or
    /// ponder search keeps calling it after its last iteration until it is stopped.
    pub fn run_here(
        &mut self,
        pos: &Position,
        limits: Limits,
        on_info: OnInfo,
        poll: Poll,
    ) -> SearchHandle {
        let shared = Shared::new(self.table.clone(), 1, limits.ponder).with_poll(poll);
        let shared = Arc::new(shared);
        let job = self.job(&shared, pos, limits, on_info, 1);
        let result = job.run();
        SearchHandle {
            shared,
            thread: None,
            done: Arc::new(AtomicBool::new(true)),
            result: Some(result),
            fallback: None,
        }
    }

    /// The search of `pos` under `limits` by `threads` threads, ready to run.
    fn job(
        &mut self,
        shared: &Arc<Shared>,
        pos: &Position,
        limits: Limits,
        on_info: OnInfo,
        threads: usize,
    ) -> SearchJob {
        while self.histories.len() < threads {
            self.histories.push(Arc::new(Mutex::new(History::new())));
        }
        self.table.new_search();
        let max_depth =
            (MAX_PLY as i32 - 1).min(limits.depth.map_or(i32::MAX, |d| d.max(1) as i32));
        let (family, side, overhead) =
            (pos.family(), pos.side_to_move(), self.options.move_overhead);
        let params = &self.options.params;
        let budget = Budget {
            plan: time::plan(&limits, family, side, overhead, params),
            max_depth,
            max_nodes: limits.nodes,
            infinite: limits.infinite,
            multipv: self.options.multipv.max(1) as usize,
            params: self.options.params,
            threat_plan: time::threat_plan(&limits, family, side, overhead, params),
        };
        SearchJob {
            shared: shared.clone(),
            pos: pos.clone(),
            budget,
            histories: self.histories[..threads].to_vec(),
            helpers: self.helper_pool(threads - 1),
            on_info,
            net: self.options.eval.net_for(pos.family()),
        }
    }
}

impl Engine {
    #[cfg(target_arch = "wasm32")]
    fn helper_pool(&mut self, _count: usize) -> Option<Arc<HelperPool>> {
        None
    }

    /// The rayon pool for `count` helpers, built when the thread count changes.
    #[cfg(not(target_arch = "wasm32"))]
    fn helper_pool(&mut self, count: usize) -> Option<Arc<HelperPool>> {
        if count == 0 {
            return None;
        }
        if self.helpers.as_ref().map(|p| p.current_num_threads()) != Some(count) {
            let built = rayon::ThreadPoolBuilder::new()
                .num_threads(count)
                .stack_size(SEARCH_STACK_BYTES)
                .thread_name(|i| format!("shishi-helper-{}", i + 1))
                .build();
            self.helpers = match built {
                Ok(pool) => Some(Arc::new(pool)),
                Err(e) => {
                    log::warn!("search helpers did not start, searching on one thread: {e}");
                    None
                }
            };
        }
        self.helpers.clone()
    }
}

impl SearchHandle {
    /// Asks the search to end; returns at once (the search ends within a few milliseconds).
    pub fn stop(&self) {
        self.shared.pondering.store(false, Relaxed);
        self.shared.request_stop();
    }

    /// The opponent played the expected move: the clock now runs for us.
    /// The opponent played the pondered move: the clock now runs for us.
    pub fn ponderhit(&self) {
        self.shared.ponderhit();
    }

    /// Whether the search has ended (its result is ready for `wait`).
    pub fn is_finished(&self) -> bool {
        self.done.load(Acquire) || self.thread.as_ref().is_none_or(|t| t.is_finished())
    }

    /// Waits for the search to end and returns its result. A search thread that panicked is
    /// logged with its message and answered by the first legal move.
    pub fn wait(mut self) -> SearchResult {
        let result = match self.thread.take() {
            Some(t) => t.join().map_err(|payload| {
                let why = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "no message".to_string());
                log::error!("the search thread panicked ({why}); answering its first legal move");
            }),
            None => self.result.take().ok_or(()),
        };
        result.unwrap_or(SearchResult {
            best: self.fallback,
            ponder: None,
            score: Score::Cp(0),
            depth: 0,
            nodes: self.shared.total_nodes(),
        })
    }
}

/// Marks a search thread's end when dropped, however the thread ends.
#[cfg(not(target_arch = "wasm32"))]
struct Ended {
    done: Arc<AtomicBool>,
    waker: Option<Waker>,
}

#[cfg(not(target_arch = "wasm32"))]
impl Drop for Ended {
    fn drop(&mut self) {
        self.done.store(true, Release);
        if let Some(wake) = &self.waker {
            wake();
        }
    }
}

/// Stops every thread of a search when dropped, so that helpers end when the main thread
/// panics instead of searching on while the scope waits for them.
struct StopOnDrop<'a>(&'a Shared);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.request_stop();
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        if let Some(t) = self.thread.take() {
            self.stop();
            let _ = t.join();
        }
    }
}

struct SearchJob {
    shared: Arc<Shared>,
    pos: Position,
    budget: Budget,
    histories: Vec<Arc<Mutex<History>>>,
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    helpers: Option<Arc<HelperPool>>,
    on_info: OnInfo,
    /// The net every thread evaluates with (`None`: the hand-crafted evaluation).
    net: Option<Arc<Network>>,
}

/// The move the table holds for the position after `best`, if it is legal there: the reply to
/// ponder on when the principal variation stopped at `best` (a search cut short, or a line
/// ended by a table cutoff), as Stockfish takes it.
fn ponder_from_table(pos: &Position, best: Move, table: &Table) -> Option<Move> {
    let mut after = pos.clone();
    after.play(best);
    let mv = table.probe(after.key())?.mv?;
    after.legal_moves().contains(&mv).then_some(mv)
}

/// Root moves that are legal under the repetition rule.
fn root_moves(pos: &Position) -> Vec<Move> {
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for mv in pos.legal_moves() {
        if pos.rules().repetition == Repetition::Forbid {
            pos.play(mv);
            let repeats = pos.last_repetition().is_some();
            pos.undo();
            if repeats {
                continue;
            }
        }
        moves.push(mv);
    }
    moves
}

impl SearchJob {
    fn run(mut self) -> SearchResult {
        let shared_arc = self.shared.clone();
        let shared = &*shared_arc;
        let moves = root_moves(&self.pos);
        if let Some(plan) = self.budget.threat_plan.filter(|_| moves.len() > 1) {
            if threat::opponent_threatens_mate(&self.pos, &self.budget.params) {
                log::debug!("the opponent threatens mate: planning {plan:?}");
                self.budget.plan = plan;
            }
        }
        let finding = if moves.is_empty() {
            Finding::default()
        } else {
            self.search_threads()
        };
        // Infinite and ponder searches answer only once the GUI asks.
        while (shared.pondering.load(Relaxed) || self.budget.infinite) && !shared.stopped() {
            platform::pause();
        }
        shared.request_stop();
        let best = finding
            .pv
            .first()
            .copied()
            .or_else(|| moves.first().copied());
        let score = if moves.is_empty() {
            match self.pos.outcome().and_then(|o| o.winner) {
                Some(_) => Score::Mate(0),
                None => Score::Cp(0),
            }
        } else {
            to_score(finding.score)
        };
        let ponder = finding
            .pv
            .get(1)
            .copied()
            .or_else(|| best.and_then(|mv| ponder_from_table(&self.pos, mv, &shared.table)));
        SearchResult {
            best,
            ponder,
            score,
            depth: finding.depth.max(0) as u32,
            nodes: shared.total_nodes(),
        }
    }

    fn search_threads(&mut self) -> Finding {
        let shared = &*self.shared;
        let pos = &self.pos;
        let budget = self.budget;
        let on_info = &mut self.on_info;
        let histories = &self.histories;
        let net = &self.net;
        let helper_findings = Mutex::new(Vec::<Finding>::new());
        let mut main_search = || {
            let _stop = StopOnDrop(shared);
            let mut h = histories[0].lock().unwrap_or_else(PoisonError::into_inner);
            let mut worker = Worker::new(shared, 0, pos, &mut h, budget, net.clone());
            let finding = worker.think(Some(&mut |info: &SearchInfo| on_info(info)));
            if !budget.infinite && !shared.pondering.load(Relaxed) {
                shared.request_stop();
            }
            // Helpers end when the main thread does, unless the GUI still owns the search.
            while (shared.pondering.load(Relaxed) || budget.infinite) && !shared.stopped() {
                platform::pause();
            }
            shared.request_stop();
            finding
        };
        #[cfg(not(target_arch = "wasm32"))]
        let finding = match &self.helpers {
            Some(pool) if histories.len() > 1 => pool.in_place_scope(|scope| {
                for (id, history) in histories.iter().enumerate().skip(1) {
                    let helper_findings = &helper_findings;
                    scope.spawn(move |_| {
                        let mut h = history.lock().unwrap_or_else(PoisonError::into_inner);
                        let found =
                            Worker::new(shared, id, pos, &mut h, budget, net.clone()).think(None);
                        helper_findings
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push(found);
                    });
                }
                main_search()
            }),
            _ => main_search(),
        };
        #[cfg(target_arch = "wasm32")]
        let finding = main_search();
        debug_assert!(finding.score.abs() <= MATE);
        // A helper that completed a deeper iteration than the main thread has the better answer;
        // the GUI hears of it before the best move, so the last line shows what is played.
        let main_depth = finding.depth;
        let mut best = finding;
        for found in helper_findings
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
        {
            let refuted = found
                .pv
                .first()
                .is_some_and(|mv| shared.refuted().contains(mv));
            if found.depth > best.depth && !found.pv.is_empty() && !refuted {
                best = found;
            }
        }
        if best.depth > main_depth {
            on_info(&report_for(shared, &best, 0));
        }
        best
    }
}
