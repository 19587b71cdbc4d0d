//! The command line: subcommands for people and scripts (`perft`, `bench`, `analyse`,
//! `match`, `mate`, `datagen`); with no subcommand, the protocol loop on stdin/stdout. Each subcommand has its
//! arguments and handler in its own file; this one holds what they share.

mod analyse;
mod annotate;
mod bench;
mod convert;
mod convert_game;
mod datagen;
mod game_args;
mod mate;
mod perft;
mod play_match;
mod sprt;
mod spsa;
mod train;
mod tune;

use crate::board::Variant;
use crate::position::Position;
use crate::rules::{Preset, RuleSet};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "shishi",
    version = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SHISHI_COMMIT"), ")"),
    about = "A Chu Shogi and Heian Shogi engine (USI and XBoard)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal-move tree (perft), optionally split by root move.
    Perft(perft::PerftArgs),
    /// Search the fixed bench positions; prints `<nodes> nodes <nps> nps` last.
    Bench(bench::BenchArgs),
    /// Show the engine thinking on a position: board, search lines, best move.
    Analyse(analyse::AnalyseArgs),
    /// Analyse every move of a game (KIF, PGN, USI): evaluations, judgments, best moves, an
    /// annotated record, an SVG graph and JSON.
    Annotate(annotate::AnnotateArgs),
    /// Play a match between two engines (USI or XBoard).
    Match(play_match::MatchArgs),
    /// Solve tsume (mating problems) with the df-pn solver and verify every proof.
    Mate(mate::MateArgs),
    /// Self-play games that write training positions (variant;sfen;score;result) to a file.
    Datagen(datagen::DatagenArgs),
    /// Fit the evaluation's weights to self-play records (Texel tuning); writes a weights file.
    Tune(tune::TuneArgs),
    /// Train the network evaluation (NNUE) on self-play records; writes a net file.
    Train(train::TrainArgs),
    /// Convert a game record (KIF, PGN, USI move list) or training data (text records, packed
    /// games `.spk`, match PGNs).
    Convert(convert::ConvertArgs),
    /// The Elo and SPRT lines of `match` for pair counts summed elsewhere (a split match).
    Sprt(sprt::SprtArgs),
    /// Tune engine options (e.g. the `Tune_` search parameters) by SPSA over self-play pairs.
    Spsa(spsa::SpsaArgs),
}

/// Errors shown to the user as one line; exit code 2.
pub struct UsageError(pub String);

/// Refuses, before the work that would fill it, an output file that cannot be written (no such
/// folder, a folder, no permission): an analysis or a fit may take an hour, and its result
/// would be lost at the end. The test opens the file to append, and removes it again where it
/// did not exist.
pub(crate) fn check_writable(flag: &str, path: &std::path::Path) -> Result<(), UsageError> {
    let refused = |why: String| UsageError(format!("{flag} {}: {why}", path.display()));
    if path.is_dir() {
        return Err(refused("a folder, not a file".to_string()));
    }
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .map_err(|e| refused(format!("cannot be written: {e}")))?;
    if !existed {
        std::fs::remove_file(path).map_err(|e| refused(format!("cannot be written: {e}")))?;
    }
    Ok(())
}

/// The variant a `--variant` argument names; the error lists the valid names.
pub fn parse_variant(name: &str) -> Result<Variant, UsageError> {
    Variant::from_name(name).ok_or_else(|| {
        UsageError(format!(
            "unknown variant '{name}' (chushogi, heian, heian9x8, heian8x9, heian8x8)"
        ))
    })
}

/// The preset a `--rules` argument names; the error lists the valid names.
pub fn parse_rules(name: &str) -> Result<RuleSet, UsageError> {
    Preset::from_name(name)
        .map(Preset::rules)
        .ok_or_else(|| UsageError(format!("unknown rule set '{name}' (lishogi, jcsa, hachu)")))
}

/// A position argument: `startpos` or a SFEN of `variant`; the error says what is wrong with it.
pub fn parse_position(variant: Variant, sfen: &str) -> Result<Position, UsageError> {
    let trimmed = sfen.trim();
    if trimmed.is_empty() {
        return Err(UsageError(
            "empty SFEN (give a SFEN or startpos)".to_string(),
        ));
    }
    if trimmed == "startpos" {
        return Ok(Position::startpos(variant));
    }
    if !trimmed.contains('/') {
        return Err(UsageError(format!(
            "'{trimmed}' is neither startpos nor a SFEN (ranks separated by /)"
        )));
    }
    Position::from_sfen(variant, trimmed)
        .map_err(|e| UsageError(format!("bad SFEN for {variant}: {e}")))
}

/// The exit code of a match whose engine did not start or failed its handshake (2 is a refused
/// argument or option, 134 a panic): the cluster driver retries it, and only it.
pub const ENGINE_START_FAILED: i32 = 3;

/// Runs the program; returns the process exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    // No command panics when its output cannot be written. Those that only print their results
    // also end at SIGPIPE; `match` and `spsa` write to engines' pipes, and the protocol loop to
    // a GUI's, and handle a closed pipe of theirs as an error.
    crate::platform::end_cleanly_when_output_fails();
    let prints_only = !matches!(
        cli.command,
        None | Some(Command::Match(_)) | Some(Command::Spsa(_))
    );
    if prints_only {
        crate::platform::end_at_sigpipe();
    }
    let result = match cli.command {
        Some(Command::Perft(args)) => perft::run(args),
        Some(Command::Bench(args)) => bench::run(args),
        Some(Command::Analyse(args)) => analyse::run(args),
        Some(Command::Match(args)) => match play_match::run(args) {
            Err(play_match::MatchError::EngineStart(msg)) => {
                eprintln!("error: {msg}");
                return ENGINE_START_FAILED;
            }
            Err(play_match::MatchError::Usage(e)) => Err(e),
            Ok(()) => Ok(()),
        },
        Some(Command::Mate(args)) => mate::run(args),
        Some(Command::Datagen(args)) => datagen::run(args),
        Some(Command::Tune(args)) => tune::run(args),
        Some(Command::Train(args)) => train::run(args),
        Some(Command::Convert(args)) => convert::run(args),
        Some(Command::Annotate(args)) => annotate::run(args),
        Some(Command::Sprt(args)) => sprt::run(args),
        Some(Command::Spsa(args)) => spsa::run(args),
        None => {
            crate::protocol::run_stdio();
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(UsageError(msg)) => {
            eprintln!("error: {msg}");
            2
        }
    }
}
