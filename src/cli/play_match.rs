//! `shishi match`: plays a match between two USI or XBoard engines and judges it by shishi's
//! own rules (see `crate::matchplay`). This file only reads the arguments.

use super::game_args::GameArgs;
use super::UsageError;
use crate::board::{Color, Variant};
use crate::matchplay::engine_spec::parse_engine;
use crate::matchplay::openings::Opening;
use crate::matchplay::pgn::{write_record, RecordInfo};
use crate::matchplay::resume::{read_past_games, PastGame, ResumeCheck};
use crate::matchplay::stats::Sprt;
use crate::matchplay::{
    check_engine, distinct_names, run_match, summary_table, EngineCheckError, MatchConfig,
    MatchGame, Protocol,
};
use crate::record::{self, Format, ReadOptions};
use crate::rules::RuleSet;
use clap::Args;
use std::io::Write;

#[derive(Args)]
pub(super) struct MatchArgs {
    /// An engine (give exactly two; results are from the first one's view): a command line, or
    /// cmd=CMD[,name=LABEL][,proto=usi|xboard|auto][,tc=10+0.1][,nodes=N (USI: go ... nodes N)]
    /// [,option.NAME=VALUE...][,variant=ENGINE_NAME_OF_THE_VARIANT].
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// usi, xboard, or auto (try USI, then XBoard); one for both engines or two separated by a
    /// comma (`usi,xboard`).
    #[arg(long, default_value = "auto")]
    proto: String,
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// Write the games to this PGN file.
    #[arg(long)]
    pgn: Option<String>,
    /// The moves of --pgn: `usi` (lishogi USI, a SFEN in [FEN]: what --resume and `convert`
    /// read) or `xboard` (XBoard's own notation and FEN, for loading the games into XBoard).
    #[arg(long, default_value = "usi", value_parser = ["usi", "xboard"], conflicts_with = "resume")]
    pgn_notation: String,
    /// Continue the match the --pgn file holds: its finished games are counted (statistics and
    /// SPRT as if never stopped), only the missing games are played, and new games are appended.
    /// Give the same engines, labels, variant and openings as the first run (each record's
    /// engines, variant and [FEN] are checked).
    #[arg(long)]
    resume: bool,
    /// Stop at a decision (pentanomial SPRT over game pairs, bounds in normalized Elo as on
    /// fishtest): elo0=0,elo1=5,alpha=0.05,beta=0.05.
    #[arg(long)]
    sprt: Option<String>,
    /// Play only the game pairs START..END (0-based, END excluded) of the match of `--games`
    /// games: each pair gets the opening and colours the whole match gives it, so slices played
    /// apart (on several machines) never overlap and their pentanomials add up to the whole
    /// match's.
    #[arg(long)]
    pairs: Option<String>,
    /// Event name for the PGN.
    #[arg(long, default_value = "shishi match")]
    event: String,
    #[command(flatten)]
    game: GameArgs,
}

/// The finished games of the match in `path` (none if the file does not exist yet).
fn past_games(
    path: &str,
    args: &MatchArgs,
    variant: crate::board::Variant,
    engines: &[crate::matchplay::engine_spec::EngineConfig; 2],
    openings: &[Opening],
) -> Result<Vec<PastGame>, UsageError> {
    let text = match crate::platform::read_text_capped(
        std::path::Path::new(path),
        crate::platform::caps::DATA,
        "match PGN",
    ) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(UsageError(format!(
                "cannot read PGN '{path}' to resume: {e}"
            )))
        }
    };
    if !text.is_empty() && !text.ends_with("\n\n") {
        return Err(UsageError(format!(
            "PGN '{path}' ends in the middle of a record; cut the unfinished record before \
             resuming"
        )));
    }
    let labels = match [&engines[0].name, &engines[1].name] {
        [Some(a), Some(b)] => {
            let [a, b] = distinct_names([a.clone(), b.clone()]);
            [Some(a), Some(b)]
        }
        [a, b] => [a.clone(), b.clone()],
    };
    let opening_sfens: Vec<&str> = openings.iter().map(|o| o.sfen.as_str()).collect();
    let check = ResumeCheck {
        variant: variant.xboard_name(),
        labels: [labels[0].as_deref(), labels[1].as_deref()],
        games: args.games,
        openings: &opening_sfens,
    };
    read_past_games(&text, &check).map_err(|e| UsageError(format!("cannot resume '{path}': {e}")))
}

/// The games `--pairs START..END` selects from a match of `games` games: the first game and how
/// many.
fn pair_slice(text: &str, games: usize) -> Result<(usize, usize), UsageError> {
    let bad = || {
        UsageError(format!(
            "--pairs takes START..END with START < END <= {} (the match's pairs), not '{text}'",
            games.div_ceil(2)
        ))
    };
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let (a, b): (usize, usize) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if a >= b || b > games.div_ceil(2) {
        return Err(bad());
    }
    Ok((2 * a, (2 * b).min(games) - 2 * a))
}

/// `--proto`: one protocol for both engines or one each.
fn protocols(proto: &str) -> Result<[Protocol; 2], UsageError> {
    let protocols = proto
        .split(',')
        .map(|p| {
            Protocol::from_name(p.trim())
                .ok_or_else(|| UsageError(format!("unknown protocol '{p}' (usi, xboard, auto)")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    match protocols[..] {
        [p] => Ok([p, p]),
        [p, q] => Ok([p, q]),
        _ => Err(UsageError(
            "--proto takes one protocol or two separated by a comma".into(),
        )),
    }
}

/// The PGN file `--pgn` names, appended to with `--resume`, else started afresh.
fn open_pgn(args: &MatchArgs) -> Result<Option<std::fs::File>, UsageError> {
    Ok(match &args.pgn {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .append(args.resume)
                .truncate(!args.resume)
                .open(path)
                .map_err(|e| UsageError(format!("cannot write PGN '{path}': {e}")))?,
        ),
        None => None,
    })
}

/// Appends a finished game to the PGN file.
fn write_game(
    file: &mut std::fs::File,
    event: &str,
    variant: Variant,
    config: &MatchConfig,
    done: &MatchGame,
    xboard_rules: Option<RuleSet>,
) -> std::io::Result<()> {
    let tcs = config
        .engines
        .each_ref()
        .map(|e| e.time_control_text.as_str());
    let (sente, gote, time_controls) = if done.first_color == Color::Sente {
        (&done.names[0], &done.names[1], tcs)
    } else {
        (&done.names[1], &done.names[0], [tcs[1], tcs[0]])
    };
    let info = RecordInfo {
        event,
        round: done.index + 1,
        variant,
        sente,
        gote,
        time_controls,
    };
    let mut text = write_record(&info, &done.game);
    if let Some(rules) = xboard_rules {
        text = in_xboard_notation(&text, variant, rules);
    }
    file.write_all(text.as_bytes())?;
    file.flush()
}

/// A match record rewritten in XBoard's notation; kept as it is if it cannot be read (a game
/// that ended on an illegal move names that move, which no notation but its own can spell).
fn in_xboard_notation(text: &str, variant: Variant, rules: RuleSet) -> String {
    let options = ReadOptions { variant, rules };
    match record::read(text.as_bytes(), Some(Format::Pgn), &options) {
        Ok(game) => record::pgn::write(&game),
        Err(_) => text.to_string(),
    }
}

/// Why a match did not run: a refused argument or option (exit code 2), or an engine that did
/// not start or failed its handshake (exit code 3: on another machine, or later, it may).
pub(super) enum MatchError {
    Usage(UsageError),
    EngineStart(String),
}

impl From<UsageError> for MatchError {
    fn from(e: UsageError) -> MatchError {
        MatchError::Usage(e)
    }
}

pub(super) fn run(args: MatchArgs) -> Result<(), MatchError> {
    let engine_texts: [String; 2] = args.engines.clone().try_into().map_err(|_| {
        UsageError(format!(
            "give exactly two --engine, not {}",
            args.engines.len()
        ))
    })?;
    let protocol = protocols(&args.proto)?;
    let game = args.game.setup()?;
    let variant = game.variant;
    let mut engines = Vec::new();
    for (text, proto) in engine_texts.iter().zip(protocol) {
        let engine = parse_engine(text, proto, game.tc, &args.game.tc, args.game.byoyomi)
            .map_err(|e| UsageError(format!("--engine '{text}': {e}")))?;
        engines.push(engine);
    }
    let engines: [_; 2] = engines.try_into().expect("two engines");
    if args.games == 0 {
        return Err(MatchError::Usage(UsageError(
            "--games must be at least 1".into(),
        )));
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(Sprt::parse)
        .transpose()
        .map_err(|e| UsageError(format!("--sprt: {e}")))?;
    for engine in &engines {
        check_engine(engine, variant, args.game.debug).map_err(|e| match e {
            EngineCheckError::DidNotStart { .. } => MatchError::EngineStart(e.to_string()),
            _ => MatchError::Usage(UsageError(e.to_string())),
        })?;
    }
    let resumed = match (&args.pgn, args.resume) {
        (None, true) => {
            return Err(MatchError::Usage(UsageError(
                "--resume needs the match's --pgn file".into(),
            )))
        }
        (Some(path), true) => past_games(path, &args, variant, &engines, &game.openings)?,
        _ => Vec::new(),
    };
    let mut pgn = open_pgn(&args)?;
    let (first_game, games) = match &args.pairs {
        Some(text) => pair_slice(text, args.games)?,
        None => (0, args.games),
    };
    let config = MatchConfig {
        engines,
        games,
        first_game,
        openings: game.openings,
        concurrency: args.game.concurrency,
        rules: game.rules,
        sprt,
        debug: args.game.debug,
        resumed,
    };
    let xboard_rules = (args.pgn_notation == "xboard")
        .then(|| super::parse_rules(&args.game.rules))
        .transpose()?;
    let mut pgn_error = None;
    let summary = run_match(&config, &mut std::io::stderr(), &mut |done| {
        let Some(file) = pgn.as_mut() else { return };
        if let Err(e) = write_game(file, &args.event, variant, &config, done, xboard_rules) {
            pgn_error.get_or_insert(e.to_string());
        }
    });
    print!("{}", summary_table(&config, &summary));
    match pgn_error {
        Some(e) => Err(MatchError::Usage(UsageError(format!(
            "writing the PGN failed: {e}"
        )))),
        None => Ok(()),
    }
}
