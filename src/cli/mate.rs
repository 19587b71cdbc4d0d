//! `shishi mate`: solves one tsume (a SFEN) or a file of them with the df-pn solver, verifies
//! every proof by replaying all defences, and prints per-problem time, nodes and line, then a
//! summary: solved (as published, shorter: a cook, longer), unsolved; how many mates are proven
//! shortest; median and worst time; nodes per second.

use super::{parse_position, parse_rules, parse_variant, UsageError};
use crate::notation::{write_move, Notation};
use crate::position::Position;
use crate::protocol::options::Settings;
use crate::tsume::{
    exhaustive_mate, solve_in, Exhaustive, MateLimits, MateOutcome, MateProgress, MateReport,
    ProgressHook, ProofMemory, Royals,
};
use clap::Args;
use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::time::Duration;

#[derive(Args)]
pub(super) struct MateArgs {
    /// One problem: a lishogi SFEN, attacker to move (it may have no king).
    #[arg(long, conflicts_with = "file")]
    sfen: Option<String>,
    /// A file of problems, one per line: `SFEN`, then `;`-separated fields: the expected mate
    /// length in plies, and the conditions the problem was composed under as USI options
    /// (`RuleSet=jcsa`, `CounterStrikeRecapture=false`, `TsumeRoyals=any`, ...), applied over
    /// --rules, --royals and --option; `#` starts a comment. The variant is read from each SFEN's board
    /// size.
    #[arg(long)]
    file: Option<String>,
    /// Variant of `--sfen`: chushogi, heian, heian9x8, heian8x9 or heian8x8.
    #[arg(long, default_value = "chushogi")]
    variant: String,
    /// Rule set: lishogi, jcsa or hachu.
    #[arg(long, default_value = "lishogi")]
    rules: String,
    /// Time per problem in milliseconds.
    #[arg(long, default_value_t = 10_000)]
    movetime: u64,
    /// Node limit per problem.
    #[arg(long)]
    nodes: Option<u64>,
    /// Memory for the proof table in MiB (each thread's, with --threads).
    #[arg(long, default_value_t = 256)]
    hash: usize,
    /// Threads: problems of a file are solved this many at once, each by one thread with a
    /// table of its own (--hash each), the answers printed in the file's order. With twice as
    /// many threads as problems (a single problem and 2), or with --race, two threads race on
    /// each problem: two searches for the first mate, the defender's moves grouped two ways, and
    /// the first to settle goes on (each thread has --hash and --nodes; the answer depends on
    /// which finishes first).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Two of --threads race on each problem, however many problems there are (--threads / 2
    /// problems at once).
    #[arg(long)]
    race: bool,
    /// The longest mate looked for, in plies (1 to 4001): "no mate" then means none within it.
    #[arg(long, default_value_t = crate::tsume::MAX_PLIES)]
    max_plies: usize,
    /// While a problem takes longer, print how it stands every this many seconds on standard
    /// error: nodes, the root's proof and disproof numbers, the shortest mate so far, the
    /// table's memory (0: never)
    #[arg(long, default_value_t = 10)]
    progress: u64,
    /// Which moves are checks while the defender has King and Crown Prince: all (a check
    /// threatens to take every royal left, as published problems count it) or any (an attack
    /// on either royal)
    #[arg(long, default_value = "all")]
    royals: String,
    /// A second opinion on each answer from an exhaustive search bounded by the ply count,
    /// independent of the solver, with this many nodes (0: none): it confirms "no mate within
    /// N plies", or a mate's length and that none is shorter
    #[arg(long, default_value_t = 0)]
    exhaustive: u64,
    /// A rule option or TsumeRoyals as USI names it (`CounterStrikeRecapture=false`), over
    /// --rules and --royals and under a problem line's own; repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
}

/// A `NAME=VALUE` condition: a rule option or `TsumeRoyals`; `None` when the text is not of
/// that form, an error naming `place` when the name is not such an option.
fn condition(place: &str, text: &str) -> Result<Option<(String, String)>, UsageError> {
    let Some((name, value)) = text.split_once('=') else {
        return Ok(None);
    };
    let name = name.trim();
    if !crate::protocol::options::is_tsume_condition(name) {
        return Err(UsageError(format!(
            "{place}: '{name}' is not a rule option nor TsumeRoyals"
        )));
    }
    Ok(Some((name.to_string(), value.trim().to_string())))
}

/// One problem of the run.
struct Problem {
    line: usize,
    pos: Position,
    expected: Option<usize>,
    /// The problem's own conditions as written (`NAME=VALUE`), over the command's.
    conditions: Vec<(String, String)>,
    /// The royal convention it is solved under.
    royals: Royals,
}

/// `SFEN`, then `; plies` and `; NAME=VALUE` fields, with the line number for messages.
fn parse_problem(line_no: usize, text: &str) -> Result<Option<Problem>, UsageError> {
    let text = text.split('#').next().unwrap_or("").trim();
    if text.is_empty() {
        return Ok(None);
    }
    let mut fields = text.split(';');
    let sfen = fields.next().unwrap_or("").trim();
    let (mut expected, mut conditions) = (None, Vec::new());
    for field in fields.map(str::trim) {
        if let Some(setting) = condition(&format!("line {line_no}"), field)? {
            conditions.push(setting);
        } else if let (Ok(plies), None) = (field.parse::<usize>(), expected) {
            expected = Some(plies);
        } else {
            return Err(UsageError(format!(
                "line {line_no}: '{field}' is neither the expected length (a number, once) nor NAME=VALUE"
            )));
        }
    }
    let pos = Position::from_sfen_any(sfen)
        .map_err(|e| UsageError(format!("line {line_no}: bad SFEN: {e}")))?;
    Ok(Some(Problem {
        line: line_no,
        pos,
        expected,
        conditions,
        royals: Royals::default(),
    }))
}

fn read_problems(args: &MateArgs) -> Result<Vec<Problem>, UsageError> {
    let rules = parse_rules(&args.rules)?;
    let royals = Royals::from_name(&args.royals)
        .ok_or_else(|| UsageError(format!("unknown --royals '{}' (all, any)", args.royals)))?;
    let mut problems = match (&args.sfen, &args.file) {
        (Some(sfen), _) => vec![Problem {
            line: 1,
            pos: parse_position(parse_variant(&args.variant)?, sfen)?,
            expected: None,
            conditions: Vec::new(),
            royals,
        }],
        (None, Some(path)) => {
            let text = crate::platform::read_text_capped(
                std::path::Path::new(path),
                crate::platform::caps::SMALL_TEXT,
                "tsume file",
            )
            .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
            let mut list = Vec::new();
            for (i, line) in text.lines().enumerate() {
                list.extend(parse_problem(i + 1, line)?);
            }
            if list.is_empty() {
                return Err(UsageError(format!("{path} holds no problem")));
            }
            list
        }
        (None, None) => return Err(UsageError("give --sfen or --file".to_string())),
    };
    let mut command = Settings {
        rules,
        tsume_royals: royals,
        ..Settings::default()
    };
    for option in &args.options {
        let (name, value) = condition("--option", option)?
            .ok_or_else(|| UsageError(format!("--option takes NAME=VALUE, not '{option}'")))?;
        command
            .set(&name, &value)
            .map_err(|e| UsageError(format!("--option: {e}")))?;
    }
    for p in &mut problems {
        let mut settings = command.clone();
        for (name, value) in &p.conditions {
            settings
                .set(name, value)
                .map_err(|e| UsageError(format!("line {}: {e}", p.line)))?;
        }
        p.pos.set_rules(settings.rules);
        p.royals = settings.tsume_royals;
    }
    Ok(problems)
}

/// The line in USI notation.
pub(super) fn line_text(pos: &Position, line: &[crate::moves::Move], notation: Notation) -> String {
    let mut walk = pos.clone();
    let mut words = Vec::with_capacity(line.len());
    for &mv in line {
        words.push(write_move(&walk, mv, notation));
        walk.play(mv);
    }
    words.join(" ")
}

/// What one problem came to, against its published length when it has one.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Mated at the published length.
    AsPublished,
    /// A mate shorter than the published one: a cook.
    Shorter,
    /// Only a longer mate was found within the budget.
    Longer,
    /// No mate, a timeout, or a proof the verifier rejected.
    Unsolved,
    /// Mated, and the problem gives no length to compare with.
    Solved,
}

fn judge(problem: &Problem, report: &MateReport, max_plies: usize) -> (Verdict, String) {
    let MateOutcome::Mate(line) = &report.outcome else {
        let what = match (&report.outcome, &report.rejected) {
            (_, Some(why)) => format!("REJECTED: {why}"),
            (MateOutcome::NoMate, _) => format!("no mate within {max_plies} plies"),
            _ => "timeout".to_string(),
        };
        return (Verdict::Unsolved, what);
    };
    // `solve` reports a mate only with the line the verifier read from its proof, after
    // replaying it against every defence: its longest line is this one.
    let checked = format!("verified ({} plies)", line.len());
    let minimal = if report.shortest {
        "shortest"
    } else {
        "shortest not established"
    };
    let text = format!(
        "mate in {} plies ({minimal}), {checked}: {}",
        line.len(),
        line_text(&problem.pos, line, Notation::Usi)
    );
    match problem.expected {
        Some(n) if line.len() < n => (
            Verdict::Shorter,
            format!("{text} (SHORTER than the published {n} plies: a cook)"),
        ),
        Some(n) if line.len() > n => (
            Verdict::Longer,
            format!("{text} (longer than the published {n} plies)"),
        ),
        Some(_) => (Verdict::AsPublished, text),
        None => (Verdict::Solved, text),
    }
}

/// One line of a long solve's progress.
fn progress_line(p: &MateProgress) -> String {
    let best = p
        .best
        .map_or("no mate yet".to_string(), |b| format!("mate in {b} found"));
    format!(
        "{:.0} s, {} nodes, root pn {} dn {}, {best}, searching within {} plies; table {} of {} positions ({} MiB)",
        p.elapsed.as_secs_f64(),
        p.nodes,
        p.root_pn,
        p.root_dn,
        p.within,
        p.table_entries,
        p.table_capacity,
        p.table_mib()
    )
}

/// The exhaustive search's opinion of the solver's answer, when one was asked for: what it
/// found within the solver's mate length (or `max_plies` where the solver found none).
fn second_opinion(problem: &Problem, report: &MateReport, args: &MateArgs) -> Option<String> {
    let plies = match &report.outcome {
        MateOutcome::Mate(line) => line.len(),
        MateOutcome::NoMate => args.max_plies,
        _ => return None,
    };
    (args.exhaustive > 0).then(|| {
        let found = exhaustive_mate(&problem.pos, plies, problem.royals, args.exhaustive);
        let agrees = match (&report.outcome, found) {
            (MateOutcome::Mate(line), Exhaustive::Mate(n)) => n == line.len(),
            (MateOutcome::NoMate, Exhaustive::NoMate) => true,
            _ => false,
        };
        let what = match found {
            Exhaustive::Mate(n) => format!("shortest mate {n} plies"),
            Exhaustive::NoMate => format!("no mate within {plies} plies"),
            Exhaustive::Unknown => format!("not settled within {} nodes", args.exhaustive),
        };
        let verdict = match (agrees, found) {
            (_, Exhaustive::Unknown) => "",
            (true, _) => ", agrees",
            (false, _) => ", DISAGREES",
        };
        format!("exhaustive search: {what}{verdict}")
    })
}

/// The solver's limits from the command line, for a problem solved under `royals` on
/// `threads` threads; `label` names the problem in its progress lines where several are solved
/// at once.
fn limits_of(args: &MateArgs, royals: Royals, label: String, threads: usize) -> MateLimits {
    MateLimits {
        royals,
        threads,
        max_plies: args.max_plies,
        time: Some(Duration::from_millis(args.movetime.max(1))),
        nodes: args.nodes,
        table_mb: args.hash,
        stop: None,
        progress: (args.progress > 0).then(|| ProgressHook {
            every: Duration::from_secs(args.progress),
            report: Arc::new(move |p: &MateProgress| {
                // On a terminal the line replaces the suite's status line (see `solve_all`).
                let erase = if std::io::stderr().is_terminal() {
                    "\r\x1b[K"
                } else {
                    ""
                };
                eprintln!("{erase}  {label}{}", progress_line(p));
            }),
        }),
    }
}

/// The suite's status line on a terminal: the problems answered and the verdicts so far.
fn show_status(problem: usize, total: usize, counts: &[usize; 5]) {
    eprint!(
        "\r[{problem:>4}/{total}] as published {}, shorter {}, longer {}, unsolved {}",
        counts[0], counts[1], counts[2], counts[3]
    );
    let _ = std::io::stderr().flush();
}

pub(super) fn run(args: MateArgs) -> Result<(), UsageError> {
    // On a thread of its own: the solver recurses once per ply, deeper than a main thread's
    // stack allows on every host.
    std::thread::Builder::new()
        .name("mate".to_string())
        .stack_size(crate::tsume::SOLVER_STACK_BYTES)
        .spawn(move || solve_all(args))
        .map_err(|e| UsageError(format!("cannot start the solver's thread: {e}")))?
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

fn solve_all(args: MateArgs) -> Result<(), UsageError> {
    let problems = read_problems(&args)?;
    let threads = args.threads;
    if !(1..=MAX_THREADS).contains(&threads) {
        return Err(UsageError(format!(
            "--threads {threads} is out of range (1 to {MAX_THREADS})"
        )));
    }
    let max_hash = crate::search::tt::max_hash_mb();
    if args.hash == 0 || args.hash > max_hash {
        crate::search::tt::check_hash_mb(args.hash)
            .map_err(|e| UsageError(format!("--hash: {e}")))?;
    }
    if args.race && threads < 2 {
        return Err(UsageError(
            "--race needs --threads 2 or more: two threads race on each problem".to_string(),
        ));
    }
    // The threads of each problem (two race on it where there are threads to spare or --race
    // asks, `MateLimits::threads`) and the problems solved at once.
    let per_problem = if args.race || threads >= 2 * problems.len() {
        2
    } else {
        1
    };
    let concurrent = (threads / per_problem).min(problems.len()).max(1);
    let tables = concurrent * per_problem;
    if args.hash.saturating_mul(tables) > max_hash {
        return Err(UsageError(format!(
            "--hash {} MiB for each of {tables} threads is more than this machine allows ({max_hash} MiB)",
            args.hash
        )));
    }
    if !(1..=crate::tsume::MAX_PLIES).contains(&args.max_plies) {
        return Err(UsageError(format!(
            "--max-plies {} is out of range (1 to {})",
            args.max_plies,
            crate::tsume::MAX_PLIES
        )));
    }
    let mut tally = Tally::default();
    // A status line on a terminal, rewritten in place; a log or a pipe gets only the results.
    let terminal = std::io::stderr().is_terminal();
    let total = problems.len();
    let answer = |i: usize, report: MateReport, tally: &mut Tally| {
        if terminal {
            eprint!("\r\x1b[K");
        }
        print_answer(i, &problems[i], &report, &args, tally);
        if terminal && i + 1 < total {
            show_status(i + 2, total, &tally.counts);
        }
    };
    if terminal {
        show_status(1, total, &tally.counts);
    }
    if concurrent <= 1 {
        let mut memory = ProofMemory::default();
        for (i, problem) in problems.iter().enumerate() {
            let limits = limits_of(&args, problem.royals, String::new(), per_problem);
            answer(i, solve_in(&problem.pos, limits, &mut memory), &mut tally);
        }
    } else {
        solve_in_parallel(&problems, &args, (concurrent, per_problem), |i, report| {
            answer(i, report, &mut tally);
        })?;
    }
    tally.summarise(total);
    Ok(())
}

/// The most threads `--threads` takes.
const MAX_THREADS: usize = 256;

/// Solves `problems` on `threads.0` threads, each taking the next problem not yet taken and
/// solving it on `threads.1` threads with proof tables of its own; `answer` is called on this
/// thread with each problem's index and report, in the problems' order.
fn solve_in_parallel(
    problems: &[Problem],
    args: &MateArgs,
    (threads, per_problem): (usize, usize),
    mut answer: impl FnMut(usize, MateReport),
) -> Result<(), UsageError> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (sender, receiver) = std::sync::mpsc::channel::<(usize, MateReport)>();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (next, sender) = (&next, sender.clone());
            std::thread::Builder::new()
                .name(format!("mate {}", t + 1))
                .stack_size(crate::tsume::SOLVER_STACK_BYTES)
                .spawn_scoped(scope, move || {
                    let mut memory = ProofMemory::default();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(problem) = problems.get(i) else {
                            break;
                        };
                        let label = format!("problem {}: ", i + 1);
                        let limits = limits_of(args, problem.royals, label, per_problem);
                        let report = solve_in(&problem.pos, limits, &mut memory);
                        if sender.send((i, report)).is_err() {
                            break;
                        }
                    }
                })
                .map_err(|e| UsageError(format!("cannot start a solver's thread: {e}")))?;
        }
        drop(sender);
        // Reports arrive as problems finish; they are answered in the file's order.
        let mut waiting: Vec<Option<MateReport>> = problems.iter().map(|_| None).collect();
        let mut due = 0;
        for (i, report) in receiver {
            waiting[i] = Some(report);
            while let Some(report) = waiting.get_mut(due).and_then(Option::take) {
                answer(due, report);
                due += 1;
            }
        }
        Ok(())
    })
}

/// What the summary counts, problem by problem.
#[derive(Default)]
struct Tally {
    counts: [usize; 5],
    shortest: usize,
    times: Vec<Duration>,
    firsts: Vec<Duration>,
    nodes: u64,
}

impl Tally {
    fn summarise(mut self, total: usize) {
        let (times, firsts, counts) = (&mut self.times, &mut self.firsts, self.counts);
        times.sort();
        firsts.sort();
        let spent: Duration = times.iter().sum();
        let solved = total - counts[3];
        println!(
            "{total} problems: solved {solved} (as published {}, shorter {}, longer {}, no length given {}; shortest proven for {}), unsolved {}; median {:.3} s, worst {:.3} s, {:.0} nodes/s",
            counts[0],
            counts[1],
            counts[2],
            counts[4],
            self.shortest,
            counts[3],
            times[times.len() / 2].as_secs_f64(),
            times.last().map_or(0.0, Duration::as_secs_f64),
            self.nodes as f64 / spent.as_secs_f64().max(1e-9)
        );
        if let (Some(median), Some(worst)) = (firsts.get(firsts.len() / 2), firsts.last()) {
            println!(
                "first mate found: median {:.3} s, worst {:.3} s",
                median.as_secs_f64(),
                worst.as_secs_f64()
            );
        }
    }
}

/// Prints problem `i`'s answer (and the exhaustive search's opinion of it) and counts it.
fn print_answer(
    i: usize,
    problem: &Problem,
    report: &MateReport,
    args: &MateArgs,
    tally: &mut Tally,
) {
    let (verdict, text) = judge(problem, report, args.max_plies);
    tally.counts[verdict as usize] += 1;
    tally.shortest += usize::from(report.shortest && verdict != Verdict::Unsolved);
    tally.times.push(report.elapsed);
    tally.firsts.extend(report.first_mate);
    tally.nodes += report.nodes;
    let first = report.first_mate.map_or(String::new(), |t| {
        format!(" (first mate {:.3} s)", t.as_secs_f64())
    });
    let conditions: String = problem
        .conditions
        .iter()
        .map(|(name, value)| format!(", {name}={value}"))
        .collect();
    println!(
        "problem {} (line {}{conditions}): {text} | {:.3} s{first}, {} nodes",
        i + 1,
        problem.line,
        report.elapsed.as_secs_f64(),
        report.nodes
    );
    if let Some(opinion) = second_opinion(problem, report, args) {
        println!("  {opinion}");
    }
}
