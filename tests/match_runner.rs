//! The match runner against a scripted fake engine (`examples/fake_engine.rs`): every kind of
//! engine failure is charged to the side that failed, the match goes on, and a normal game ends
//! with a result shishi's own rules confirm.

use shishi::board::{Color, Variant};
use shishi::matchplay::driver::TimeControl;
use shishi::matchplay::engine_spec::{parse_engine, EngineConfig, EngineSpecError};
use shishi::matchplay::game_end::{from_rules, EndReason};
use shishi::matchplay::openings::Opening;
use shishi::matchplay::pgn::{write_record, RecordInfo};
use shishi::matchplay::play_game::GameRules;
use shishi::matchplay::referee::Referee;
use shishi::matchplay::resume::{read_past_games, ResumeCheck};
use shishi::matchplay::stats::Sprt;
use shishi::matchplay::{
    check_engine, game_start, run_match, EngineCheckError, MatchConfig, MatchSummary, Protocol,
};
use shishi::notation::Notation;
use shishi::position::{OutcomeReason, Position};
use shishi::rules::RuleSet;
use std::time::Duration;

/// The scripted engine, displayed as its path (`format!("{FAKE} --name a")`). It is an example,
/// so `cargo install` leaves it out: `cargo test` builds the examples beside the tests, and a
/// run of this file alone (`cargo test --test match_runner`) builds it on first use.
const FAKE: FakeEngine = FakeEngine;

struct FakeEngine;

impl std::fmt::Display for FakeEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        static PATH: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        f.write_str(PATH.get_or_init(fake_engine_path))
    }
}

/// `target/<profile>/examples/fake_engine`, next to the `deps/` folder this test runs from.
fn fake_engine_path() -> String {
    let exe = std::env::current_exe().unwrap();
    let profile_dir = exe.parent().and_then(|deps| deps.parent()).unwrap();
    let name = format!("fake_engine{}", std::env::consts::EXE_SUFFIX);
    let path = profile_dir.join("examples").join(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| env!("CARGO").to_string());
        let mut build = std::process::Command::new(cargo);
        build.current_dir(env!("CARGO_MANIFEST_DIR"));
        build.args(["build", "--example", "fake_engine"]);
        if profile_dir.file_name().is_some_and(|n| n == "release") {
            build.arg("--release");
        }
        let status = build.status().unwrap();
        assert!(
            status.success() && path.exists(),
            "could not build {}",
            path.display()
        );
    }
    path.display().to_string()
}

fn run(second: &str, protocol: Protocol, variant: Variant, games: usize, tc: &str) -> MatchSummary {
    run_limited(second, protocol, variant, games, tc, None)
}

fn run_limited(
    second: &str,
    protocol: Protocol,
    variant: Variant,
    games: usize,
    tc: &str,
    max_moves: Option<u32>,
) -> MatchSummary {
    let clock = TimeControl::parse(tc, 0).unwrap();
    let engine = |cmd: String| EngineConfig::command(&cmd, protocol, clock, tc);
    let config = match_config(
        [
            engine(format!("{FAKE} --name good")),
            engine(format!("{FAKE} --name bad {second}")),
        ],
        variant,
        games,
        max_moves,
    );
    run_config(&config)
}

fn match_config(
    engines: [EngineConfig; 2],
    variant: Variant,
    games: usize,
    max_moves: Option<u32>,
) -> MatchConfig {
    MatchConfig {
        engines,
        games,
        first_game: 0,
        openings: vec![Opening::startpos(variant)],
        concurrency: 1,
        rules: GameRules {
            start: game_start(variant, RuleSet::LISHOGI),
            margin: Duration::from_millis(150),
            draw: None,
            resign: None,
            max_moves,
        },
        sprt: None,
        debug: false,
        resumed: Vec::new(),
    }
}

fn run_config(config: &MatchConfig) -> MatchSummary {
    let games = config.games;
    let mut seen = 0;
    let summary = run_match(config, &mut std::io::sink(), &mut |_| seen += 1);
    assert_eq!(seen, games, "every game is reported");
    assert_eq!(summary.games.len(), games);
    summary
}

/// A match game lost by an illegal move, a broken protocol or a false claim.
const ILLEGAL_MOVE: EndReason = EndReason::Rules(OutcomeReason::IllegalMove);

/// Every game is lost by the bad (second) engine for `reason`, after it made `after - 1` moves.
fn assert_bad_engine_lost_every_game(summary: &MatchSummary, reason: EndReason, after: usize) {
    for g in &summary.games {
        let bad_color = !g.first_color;
        assert_eq!(
            g.game.outcome.winner,
            Some(g.first_color),
            "game {}: {}",
            g.index,
            g.game.detail
        );
        assert_eq!(
            g.game.outcome.reason, reason,
            "game {}: {}",
            g.index, g.game.detail
        );
        assert!(g.game.detail.contains("bad"), "{}", g.game.detail);
        // The bad engine failed on its `after`-th move: the moves before it were played.
        let good_moves_first = if bad_color == Color::Gote { 1 } else { 0 };
        assert_eq!(
            g.game.moves.len(),
            2 * (after - 1) + good_moves_first,
            "game {}",
            g.index
        );
        assert!(g.game.broken[bad_color.index()]);
        assert!(!g.game.broken[g.first_color.index()]);
    }
    assert_eq!(summary.tally.wins as usize, summary.games.len());
}

#[test]
fn crash_mid_game_is_a_loss_for_the_crashing_side_usi() {
    let s = run(
        "--fault crash --after 3",
        Protocol::Usi,
        Variant::Chushogi,
        3,
        "5+0.1",
    );
    assert_bad_engine_lost_every_game(&s, EndReason::Crash, 3);
    assert_eq!(s.failures[1][1], 3);
}

#[test]
fn crash_mid_game_is_a_loss_for_the_crashing_side_xboard() {
    let s = run(
        "--fault crash --after 2",
        Protocol::Xboard,
        Variant::Heian,
        2,
        "5+0.1",
    );
    assert_bad_engine_lost_every_game(&s, EndReason::Crash, 2);
}

#[test]
fn illegal_move_is_a_loss_usi_and_xboard() {
    for proto in [Protocol::Usi, Protocol::Xboard] {
        let s = run(
            "--fault illegal --after 4",
            proto,
            Variant::Chushogi,
            2,
            "5+0.1",
        );
        assert_bad_engine_lost_every_game(&s, ILLEGAL_MOVE, 4);
        assert!(
            s.games[0].game.detail.contains("illegal move"),
            "{}",
            s.games[0].game.detail
        );
        assert_eq!(s.failures[1][0], 2);
        assert_eq!(s.failures[0], [0, 0, 0]);
    }
}

#[test]
fn time_loss_is_a_loss_for_the_slow_side() {
    for proto in [Protocol::Usi, Protocol::Xboard] {
        let s = run(
            "--fault slow --after 2",
            proto,
            Variant::Heian8x8,
            2,
            "0.5+0.05",
        );
        assert_bad_engine_lost_every_game(&s, EndReason::Timeout, 2);
        assert_eq!(s.failures[1][2], 2);
    }
}

#[test]
fn protocol_garbage_is_a_loss_and_the_match_goes_on() {
    for proto in [Protocol::Usi, Protocol::Xboard] {
        let s = run(
            "--fault garbage --after 2",
            proto,
            Variant::Heian,
            2,
            "5+0.1",
        );
        assert_bad_engine_lost_every_game(&s, ILLEGAL_MOVE, 2);
        assert!(
            s.games[0].game.detail.contains("unparsable"),
            "{}",
            s.games[0].game.detail
        );
    }
}

#[test]
fn auto_protocol_finds_usi() {
    let s = run(
        "--fault illegal --after 1",
        Protocol::Auto,
        Variant::Heian,
        1,
        "5+0.1",
    );
    assert_bad_engine_lost_every_game(&s, ILLEGAL_MOVE, 1);
}

/// Replays a recorded game on a fresh referee and returns its verdict.
fn replay(variant: Variant, moves: &[String]) -> Option<shishi::position::Outcome> {
    let mut referee = Referee::new(Position::startpos(variant));
    for (i, m) in moves.iter().enumerate() {
        assert!(
            referee.outcome().is_none(),
            "the game was over before move {i}"
        );
        referee.play(m, Notation::Usi).unwrap();
    }
    referee.outcome()
}

#[test]
fn normal_games_end_by_the_rules_usi_and_xboard() {
    for (proto, variant) in [
        (Protocol::Usi, Variant::Heian8x8),
        (Protocol::Xboard, Variant::Heian),
    ] {
        let s = run("", proto, variant, 2, "5+0.1");
        for g in &s.games {
            let o = g.game.outcome;
            assert!(
                !matches!(
                    o.reason,
                    EndReason::Crash | ILLEGAL_MOVE | EndReason::Timeout | EndReason::Adjudication
                ),
                "{o} {}",
                g.game.detail
            );
            assert!(!g.game.moves.is_empty());
            assert_eq!(replay(variant, &g.game.moves).map(from_rules), Some(o));
        }
        assert_eq!(s.failures, [[0; 3]; 2]);
    }
}

#[test]
fn shipped_opening_books_load_with_fifty_openings_or_more() {
    use shishi::matchplay::openings::parse_book;
    for (path, variant) in [
        ("positions/openings-chu.epd", Variant::Chushogi),
        ("positions/openings-heian.epd", Variant::Heian),
        ("positions/openings-chu-heldout.epd", Variant::Chushogi),
    ] {
        let text = std::fs::read_to_string(path).unwrap();
        let book = parse_book(variant, &text).unwrap();
        assert!(book.len() >= 50, "{path}: {} openings", book.len());
        let mut sfens: Vec<_> = book.iter().map(|o| o.sfen.clone()).collect();
        sfens.sort();
        sfens.dedup();
        assert_eq!(sfens.len(), book.len(), "{path} repeats an opening");
        for o in &book {
            let pos = Position::from_sfen(variant, &o.sfen).unwrap();
            assert!(pos.outcome().is_none());
            assert_eq!(pos.side_to_move(), Color::Sente);
        }
    }
}

#[test]
fn held_out_chu_book_shares_no_opening_with_the_match_book() {
    use shishi::matchplay::openings::parse_book;
    let sfens = |path: &str| -> Vec<String> {
        let text = std::fs::read_to_string(path).unwrap();
        let book = parse_book(Variant::Chushogi, &text).unwrap();
        book.into_iter().map(|o| o.sfen).collect()
    };
    let match_book = sfens("positions/openings-chu.epd");
    for sfen in sfens("positions/openings-chu-heldout.epd") {
        assert!(!match_book.contains(&sfen), "both books open with {sfen}");
    }
}

#[test]
fn move_limit_ends_a_game_as_an_adjudicated_draw() {
    let s = run_limited("", Protocol::Usi, Variant::Chushogi, 2, "5+0.1", Some(5));
    for g in &s.games {
        let o = g.game.outcome;
        assert_eq!(o.winner, None, "{}", g.game.detail);
        assert_eq!(o.reason, EndReason::Adjudication, "{}", g.game.detail);
        assert!(g.game.detail.contains("move limit"), "{}", g.game.detail);
        assert_eq!(g.game.moves.len(), 10);
        assert_eq!(replay(Variant::Chushogi, &g.game.moves), None);
    }
    assert_eq!(s.tally.draws as usize, s.games.len());
}

fn tc(text: &str) -> TimeControl {
    TimeControl::parse(text, 0).unwrap()
}

#[test]
fn bad_time_controls_are_refused_naming_the_bad_part() {
    use shishi::matchplay::driver::TimeControlError;
    let err = TimeControl::parse("10+fast", 0).unwrap_err();
    assert_eq!(
        err,
        TimeControlError::BadTime {
            text: "10+fast".into(),
            part: "increment",
            value: "fast".into()
        }
    );
    let text = err.to_string();
    assert!(
        text.contains("'10+fast'") && text.contains("increment 'fast'"),
        "{text}"
    );
    let text = TimeControl::parse("1:x", 0).unwrap_err().to_string();
    assert!(text.contains("base '1:x'"), "{text}");
    let text = TimeControl::parse("-5", 0).unwrap_err().to_string();
    assert!(text.contains("base '-5'"), "{text}");
    let err = TimeControl::parse("0+0", 0).unwrap_err();
    assert_eq!(err, TimeControlError::NoTime("0+0".into()));
    assert!(err.to_string().contains("'0+0' gives no time"), "{err}");
    assert!(TimeControl::parse("0+0", 500).is_ok());
    let text = parse("cmd=./e,tc=fast").unwrap_err().to_string();
    assert!(text.starts_with("tc: bad time control 'fast'"), "{text}");
}

fn parse(text: &str) -> Result<EngineConfig, EngineSpecError> {
    parse_engine(text, Protocol::Auto, tc("10+0.1"), "10+0.1", 0)
}

#[test]
fn engine_settings_are_read_cutechess_style() {
    let e = parse(
        "cmd=/opt/fsf --threads 1,name=FSF,proto=usi,tc=1+0.01,option.Hash=64,\
         option.VariantPath=/x/heian-fsf.ini,variant=heian9",
    )
    .unwrap();
    assert_eq!(e.command, "/opt/fsf --threads 1");
    assert_eq!(e.name.as_deref(), Some("FSF"));
    assert_eq!(e.protocol, Protocol::Usi);
    assert_eq!(e.time_control, tc("1+0.01"));
    assert_eq!(e.time_control_text, "1+0.01");
    assert_eq!(
        e.options,
        [
            ("Hash".to_string(), "64".to_string()),
            ("VariantPath".to_string(), "/x/heian-fsf.ini".to_string())
        ]
    );
    assert_eq!(e.variant.as_deref(), Some("heian9"));
}

#[test]
fn a_plain_command_line_is_still_the_command() {
    for plain in [
        "/usr/games/hachu",
        "./engine --hash=64 --threads 2",
        "env A=1 ./e",
    ] {
        let e = parse(plain).unwrap();
        assert_eq!(e.command, plain);
        assert_eq!((e.protocol, e.time_control), (Protocol::Auto, tc("10+0.1")));
        assert!(e.options.is_empty() && e.name.is_none() && e.variant.is_none());
    }
}

#[test]
fn bad_engine_settings_are_refused_with_the_reason() {
    use EngineSpecError::*;
    assert_eq!(
        parse("cmd=./e,colour=red").unwrap_err(),
        UnknownKey("colour".into())
    );
    assert_eq!(parse("name=FSF,proto=usi").unwrap_err(), MissingCommand);
    assert!(matches!(
        parse("cmd=./e,tc=fast").unwrap_err(),
        BadTimeControl(_)
    ));
    assert_eq!(
        parse("cmd=./e,proto=uci2").unwrap_err(),
        BadProtocol("uci2".into())
    );
    assert_eq!(
        parse("cmd=./e,name=").unwrap_err(),
        EmptyValue("name".into())
    );
    assert_eq!(
        parse("cmd=./e,cmd=./f").unwrap_err(),
        Repeated("cmd".into())
    );
    assert_eq!(
        parse("cmd=./e,junk").unwrap_err(),
        NotKeyValue("junk".into())
    );
    for bad in ["0", "-5", "lots", "1e6"] {
        assert_eq!(
            parse(&format!("cmd=./e,nodes={bad}")).unwrap_err(),
            BadNodes(bad.into())
        );
    }
    let text = parse("cmd=./e,colour=red").unwrap_err().to_string();
    assert!(
        text.contains("colour") && text.contains("option.NAME"),
        "{text}"
    );
}

/// A fresh log file for a fake engine in the target directory.
fn log_path(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("fake-{name}-{}.log", std::process::id()));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn time_odds_and_options_reach_the_engines_usi() {
    let (log_a, log_b) = (log_path("odds-a"), log_path("odds-b"));
    let a = parse_engine(
        &format!("cmd={FAKE} --name a --log {},tc=7+0.3", log_a.display()),
        Protocol::Usi,
        tc("10+0.1"),
        "10+0.1",
        0,
    )
    .unwrap();
    let b = parse_engine(
        &format!(
            "cmd={FAKE} --name b --log {},tc=2+0.02,option.Hash=64,option.Style=solid",
            log_b.display()
        ),
        Protocol::Usi,
        tc("10+0.1"),
        "10+0.1",
        0,
    )
    .unwrap();
    let s = run_config(&match_config([a, b], Variant::Heian8x8, 1, Some(3)));
    assert_eq!(s.games[0].first_color, Color::Sente);
    for log in [&log_a, &log_b] {
        let text = std::fs::read_to_string(log).unwrap();
        // a plays sente (btime), b gote (wtime); each side's own increment.
        let first_go: Vec<&str> = text
            .lines()
            .find(|l| l.starts_with("go "))
            .unwrap()
            .split_whitespace()
            .collect();
        // Sente may have spent a little and gained its 0.3 s increment before gote's turn.
        let btime: u64 = first_go[2].parse().unwrap();
        assert!(
            (7000..=7300).contains(&btime),
            "{}: {first_go:?}",
            log.display()
        );
        assert_eq!(
            first_go[3..],
            ["wtime", "2000", "binc", "300", "winc", "20"],
            "{}",
            log.display()
        );
    }
    let b_lines = std::fs::read_to_string(&log_b).unwrap();
    let b_lines: Vec<&str> = b_lines.lines().collect();
    let at = |want: &str| b_lines.iter().position(|l| *l == want).unwrap();
    let hash = at("setoption name Hash value 64");
    let style = at("setoption name Style value solid");
    let variant = at("setoption name USI_Variant value heian8x8");
    // options in order, then `usi` again, and only then the variant
    assert!(hash < style && style < variant, "{b_lines:?}");
    assert!(b_lines[style + 1..variant].contains(&"usi"), "{b_lines:?}");
    let a_lines = std::fs::read_to_string(&log_a).unwrap();
    assert!(!a_lines.contains("setoption name Hash"));
}

#[test]
fn time_odds_and_options_reach_the_engines_xboard() {
    let log = log_path("odds-x");
    let b = parse_engine(
        &format!(
            "cmd={FAKE} --name b --log {},proto=xboard,tc=1:30+1,option.Hash=64",
            log.display()
        ),
        Protocol::Usi,
        tc("10+0.1"),
        "10+0.1",
        0,
    )
    .unwrap();
    let a = EngineConfig::command(
        &format!("{FAKE} --name a"),
        Protocol::Usi,
        tc("10+0.1"),
        "10+0.1",
    );
    run_config(&match_config([a, b], Variant::Heian8x8, 1, Some(2)));
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"option Hash=64"), "{lines:?}");
    assert!(lines.contains(&"level 0 1:30 1"), "{lines:?}");
    // gote's own clock after sente's first move: 90 s (centiseconds)
    assert!(lines.contains(&"time 9000"), "{lines:?}");
}

#[test]
fn a_node_limit_reaches_the_usi_go_line_and_is_refused_for_xboard() {
    let e = parse("nodes=20000,cmd=./e").unwrap();
    assert_eq!((e.node_limit, e.command.as_str()), (Some(20000), "./e"));
    let log = log_path("nodes");
    let a = parse_engine(
        &format!("cmd={FAKE} --name a --log {},nodes=4321", log.display()),
        Protocol::Usi,
        tc("10+0.1"),
        "10+0.1",
        0,
    )
    .unwrap();
    let b = fake("--name b", Protocol::Usi);
    run_config(&match_config([a, b], Variant::Heian8x8, 1, Some(3)));
    let text = std::fs::read_to_string(&log).unwrap();
    let gos: Vec<&str> = text.lines().filter(|l| l.starts_with("go ")).collect();
    assert!(!gos.is_empty());
    for go in gos {
        assert!(go.ends_with(" nodes 4321"), "{go}");
    }
    let mut x = fake("--name x", Protocol::Xboard);
    x.node_limit = Some(100);
    let err = check_engine(&x, Variant::Heian8x8, false).unwrap_err();
    assert!(err.to_string().contains("per-move node limit"), "{err}");
}

fn fake(args: &str, protocol: Protocol) -> EngineConfig {
    EngineConfig::command(&format!("{FAKE} {args}"), protocol, tc("5+0.1"), "5+0.1")
}

#[test]
fn an_engine_without_the_variant_stops_the_match_before_any_game() {
    for proto in [Protocol::Usi, Protocol::Xboard] {
        let e = fake("--name chuonly --variants chushogi,chu", proto);
        let err = check_engine(&e, Variant::Heian, false).unwrap_err();
        assert_eq!(
            err,
            EngineCheckError::VariantNotDeclared {
                engine: "chuonly".into(),
                variant: "heian".into(),
                declared: 2
            }
        );
        let text = err.to_string();
        assert!(
            text.contains("chuonly") && text.contains("'heian'"),
            "{text}"
        );
        assert_eq!(
            check_engine(&e, Variant::Chushogi, false).unwrap(),
            "chuonly"
        );
    }
    let mut renamed = fake("--name other --variants heian9", Protocol::Usi);
    assert!(check_engine(&renamed, Variant::Heian, false).is_err());
    renamed.variant = Some("heian9".into());
    assert_eq!(
        check_engine(&renamed, Variant::Heian, false).unwrap(),
        "other"
    );
    renamed.variant = Some("heian99".into());
    let err = check_engine(&renamed, Variant::Heian, false).unwrap_err();
    assert!(err.to_string().contains("heian99"), "{err}");
}

#[test]
fn a_variant_loaded_by_an_option_counts_once_the_engine_announces_it() {
    // Like Fairy-Stockfish with VariantPath: the list grows only after the option is set.
    for proto in [Protocol::Usi, Protocol::Xboard] {
        let mut e = fake("--name fsf --variants shogi", proto);
        e.variant = Some("heian9".into());
        assert!(check_engine(&e, Variant::Heian, false).is_err());
        e.options = vec![("VariantPath".into(), "heian9".into())];
        assert_eq!(check_engine(&e, Variant::Heian, false).unwrap(), "fsf");
    }
}

#[test]
fn pgn_moves_carry_score_depth_and_time() {
    let s = run_limited("", Protocol::Usi, Variant::Heian8x8, 1, "5+0.1", Some(3));
    let g = &s.games[0];
    assert_eq!(g.game.notes.len(), g.game.moves.len());
    let info = RecordInfo {
        event: "t",
        round: 1,
        variant: Variant::Heian8x8,
        sente: "good",
        gote: "bad",
        time_controls: ["5+0.1", "5+0.1"],
    };
    let pgn = write_record(&info, &g.game);
    // The fake engine reports `info depth 1 score cp 0` before each move.
    let comments = pgn.matches("{0.00/1 0.").count();
    assert_eq!(comments, g.game.moves.len(), "{pgn}");
    assert!(pgn.contains("[TimeControl \"5+0.1\"]"), "{pgn}");
}

/// USI fake engines at 5 s + 0.1 s: the second plays an illegal first move, so it loses
/// every game.
fn good_against_illegal_mover() -> [EngineConfig; 2] {
    let clock = tc("5+0.1");
    let usi = |args: &str| {
        EngineConfig::command(&format!("{FAKE} {args}"), Protocol::Usi, clock, "5+0.1")
    };
    [
        usi("--name good"),
        usi("--name bad --fault illegal --after 1"),
    ]
}

#[test]
fn pairs_make_the_pentanomial_and_the_sprt_decision_is_final() {
    // The bad engine loses every game: every pair scores 2 for the first engine.
    let mut config = match_config(good_against_illegal_mover(), Variant::Heian8x8, 40, None);
    config.sprt = Some(Sprt::parse("elo0=0,elo1=200").unwrap());
    let mut out = Vec::new();
    let s = run_match(&config, &mut out, &mut |_| {});
    let out = String::from_utf8(out).unwrap();
    let decided = s.sprt_decision.expect("decided");
    assert_eq!(decided, shishi::matchplay::stats::SprtDecision::H1);
    assert_eq!(s.pairs.counts[4], s.pairs.pairs());
    assert_eq!(
        s.tally.games(),
        2 * s.pairs.pairs(),
        "only whole pairs before the decision"
    );
    assert!(s.games.len() < 40, "the match stopped early");
    assert!(out.contains("pair 1 scored 2"), "{out}");
    // The decision line is the last counted line: nothing is counted after it.
    let decision_at = out.find("SPRT decided").unwrap();
    assert!(!out[decision_at..].contains("pair "), "{out}");
}

#[test]
fn a_resumed_match_counts_its_pgn_and_plays_only_the_missing_games() {
    let engines = good_against_illegal_mover();
    let record = |done: &shishi::matchplay::MatchGame| {
        let (sente, gote) = if done.first_color == Color::Sente {
            (&done.names[0], &done.names[1])
        } else {
            (&done.names[1], &done.names[0])
        };
        let info = RecordInfo {
            event: "t",
            round: done.index + 1,
            variant: Variant::Heian8x8,
            sente,
            gote,
            time_controls: ["5+0.1", "5+0.1"],
        };
        write_record(&info, &done.game)
    };
    // The first run plays 3 games: one whole pair and half of the next.
    let first = match_config(engines.clone(), Variant::Heian8x8, 3, None);
    let mut pgn = String::new();
    run_match(&first, &mut std::io::sink(), &mut |d| {
        pgn.push_str(&record(d));
    });
    let book: Vec<&str> = first.openings.iter().map(|o| o.sfen.as_str()).collect();
    let check = ResumeCheck {
        variant: Variant::Heian8x8.xboard_name(),
        labels: [None, None],
        games: 6,
        openings: &book,
    };
    let past = read_past_games(&pgn, &check).unwrap();
    assert_eq!(past.iter().map(|g| g.index).collect::<Vec<_>>(), [0, 1, 2]);
    assert!(past
        .iter()
        .all(|g| g.first_score == 1.0 && g.failure == Some((1, 0))));

    let mut resumed = match_config(engines.clone(), Variant::Heian8x8, 6, None);
    resumed.resumed = past.clone();
    let mut played = Vec::new();
    let mut out = Vec::new();
    let s = run_match(&resumed, &mut out, &mut |d| played.push(d.index));
    let out = String::from_utf8(out).unwrap();
    assert_eq!(played, [3, 4, 5], "only the missing games are played");
    assert_eq!(s.tally.games(), 6);
    assert_eq!(
        s.pairs.counts[4], 3,
        "game 4 completes the pair game 3 began"
    );
    assert_eq!(
        s.failures[1][0], 6,
        "the past games' illegal moves are counted too"
    );
    assert!(
        out.starts_with("resumed 3 finished games: 3 games, +3 -0 =0"),
        "{out}"
    );

    // A match whose past games already decide its SPRT plays nothing more.
    let mut decided = match_config(engines, Variant::Heian8x8, 40, None);
    decided.sprt = Some(Sprt::parse("elo0=0,elo1=200").unwrap());
    decided.resumed = (0..30)
        .map(|index| shishi::matchplay::resume::PastGame {
            index,
            first_score: 1.0,
            failure: None,
        })
        .collect();
    let s = run_match(&decided, &mut std::io::sink(), &mut |_| {
        panic!("no game may be played after the decision")
    });
    assert_eq!(
        s.sprt_decision,
        Some(shishi::matchplay::stats::SprtDecision::H1)
    );
}

const BOOK: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/positions/openings-heian.epd");

/// `shishi match` as a user runs it, engines at fixed nodes (so games repeat exactly), over
/// the given extra arguments; returns the pentanomial line's counts and the games' move lists.
fn fixed_node_match(extra: &[&str]) -> (String, Vec<String>) {
    let bin = env!("CARGO_BIN_EXE_shishi");
    let pgn = std::env::temp_dir().join(format!(
        "shishi-slice-{}-{}.pgn",
        std::process::id(),
        extra.join("_").replace('.', "d")
    ));
    let engine = format!("cmd={bin},nodes=300");
    let out = std::process::Command::new(bin)
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args(["--variant", "heian", "--tc", "100+1", "--games", "6"])
        .args(["--openings", BOOK, "--max-moves", "20"])
        .args(["--pgn", pgn.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("shishi runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let penta = stdout
        .lines()
        .find_map(|l| l.split("pentanomial [").nth(1))
        .map(|rest| rest.split(']').next().unwrap_or("").to_string())
        .expect("a pentanomial");
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Each game as its round, start position, moves and result, without the timed comments.
    let games = text
        .split("[Event")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let tags: String = g
                .lines()
                .filter(|l| l.starts_with("[Round") || l.starts_with("[FEN"))
                .collect();
            let mut moves = String::new();
            let mut depth = 0;
            for c in g
                .lines()
                .filter(|l| !l.starts_with('['))
                .flat_map(str::chars)
            {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ if depth == 0 => moves.push(c),
                    _ => {}
                }
            }
            let moves: Vec<&str> = moves.split_whitespace().collect();
            format!("{tags} {}", moves.join(" "))
        })
        .collect();
    (penta, games)
}

#[test]
fn slices_of_a_match_add_up_to_the_whole_match() {
    let (whole, whole_games) = fixed_node_match(&[]);
    let (first, mut games) = fixed_node_match(&["--pairs", "0..1"]);
    let (rest, rest_games) = fixed_node_match(&["--pairs", "1..3"]);
    games.extend(rest_games);
    assert_eq!(
        games, whole_games,
        "the slices play the whole match's games"
    );
    let counts =
        |s: &str| -> Vec<u32> { s.split_whitespace().map(|n| n.parse().unwrap()).collect() };
    let summed: Vec<u32> = counts(&first)
        .iter()
        .zip(counts(&rest))
        .map(|(a, b)| a + b)
        .collect();
    assert_eq!(summed, counts(&whole));
    let bin = env!("CARGO_BIN_EXE_shishi");
    let out = std::process::Command::new(bin)
        .args([
            "match",
            "--engine",
            bin,
            "--engine",
            bin,
            "--variant",
            "heian8x8",
        ])
        .args(["--games", "6", "--pairs", "2..4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pairs"));
}

/// `shishi sprt` judges pair counts summed from slices with the lines `match` ends with: the
/// counts of the Heian net 1 SPRT (results/sprt-nnue-heian-net1.log) give that run's lines.
#[test]
fn sprt_of_summed_pairs_prints_the_match_summary_lines() {
    let bin = env!("CARGO_BIN_EXE_shishi");
    let out = std::process::Command::new(bin)
        .args(["sprt", "--pentanomial", "13,74,156,127,25"])
        .args(["--sprt", "elo0=0,elo1=10", "--names", "nnue,hce"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    let record = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/results/sprt-nnue-heian-net1.log"
    ))
    .unwrap();
    for line in stdout.lines() {
        assert!(
            record.contains(line),
            "'{line}' is not in the match's record"
        );
    }
    assert!(stdout.contains("H1 accepted"));
    let bad = std::process::Command::new(bin)
        .args(["sprt", "--pentanomial", "1,2,x,4,5"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--pentanomial"));
}

/// The games of `shishi match --pgn` with `extra` arguments, each read as a game record.
fn match_records(extra: &[&str]) -> Vec<shishi::record::GameFile> {
    let bin = env!("CARGO_BIN_EXE_shishi");
    let pgn = std::env::temp_dir().join(format!(
        "shishi-notation-{}-{}.pgn",
        std::process::id(),
        extra.join("_")
    ));
    let engine = format!("cmd={bin},nodes=300");
    let out = std::process::Command::new(bin)
        .args(["match", "--engine", &engine, "--engine", &engine])
        .args(["--variant", "heian", "--tc", "100+1", "--games", "4"])
        .args(["--openings", BOOK, "--max-moves", "20"])
        .args(["--pgn", pgn.to_str().unwrap()])
        .args(extra)
        .output()
        .expect("shishi runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&pgn).ok();
    let options = shishi::record::ReadOptions {
        variant: Variant::Heian,
        ..Default::default()
    };
    text.split("[Event")
        .filter(|g| !g.trim().is_empty())
        .map(|g| {
            let game = format!("[Event{g}");
            shishi::record::read(game.as_bytes(), Some(shishi::record::Format::Pgn), &options)
                .unwrap_or_else(|e| panic!("{e}\n{game}"))
        })
        .collect()
}

#[test]
fn match_pgn_in_xboard_notation_holds_the_same_games() {
    let usi = match_records(&[]);
    let xboard = match_records(&["--pgn-notation", "xboard"]);
    assert_eq!(usi.len(), 4);
    assert_eq!(xboard.len(), usi.len());
    for (a, b) in usi.iter().zip(&xboard) {
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.game.start().to_sfen(), b.game.start().to_sfen());
        assert_eq!(
            a.outcome().map(|o| o.score()),
            b.outcome().map(|o| o.score())
        );
        assert_eq!(a.tags.round, b.tags.round);
    }
}

/// An engine that answers an option it was given with an error stops the match before its first
/// game, with the engine's own words (before, the match played on with the option unset, and a
/// mistyped `option.Tune_...` made an SPRT self-play; with `--proto auto` the engine was even
/// taken for an XBoard one).
#[test]
fn an_option_the_engine_refuses_stops_the_match_before_it_starts() {
    let bin = env!("CARGO_BIN_EXE_shishi");
    let refused = format!("cmd={bin},option.Tune_Nonsense=3");
    let out = std::process::Command::new(bin)
        .args([
            "match", "--engine", &refused, "--engine", bin, "--games", "2",
        ])
        .args(["--variant", "heian", "--tc", "1+0.01"])
        .output()
        .expect("shishi runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "refused an option it was given: info string error unknown option 'Tune_Nonsense'"
        ),
        "{stderr}"
    );
    assert!(!stderr.contains("game 1"), "{stderr}");
}

/// An engine that never answers `isready` before a game loses it on time; before, the missing
/// `readyok` was scored as an illegal move.
#[test]
fn a_missing_readyok_is_a_loss_on_time() {
    let s = run("--fault noready", Protocol::Usi, Variant::Heian, 1, "5+0.1");
    let g = &s.games[0];
    assert_eq!(
        g.game.outcome.reason,
        EndReason::Timeout,
        "{}",
        g.game.detail
    );
    assert_eq!(
        g.game.outcome.winner,
        Some(g.first_color),
        "{}",
        g.game.detail
    );
}

/// An engine that cannot start says why: not found, not executable, its exit code and the last
/// lines of its stderr (before: "engine output ended while waiting for usiok", stderr discarded).
/// The match exits with code 3, which the cluster driver retries (a refused option is 2).
#[test]
fn an_engine_that_does_not_start_says_why() {
    let bin = env!("CARGO_BIN_EXE_shishi");
    for (engine, why) in [
        ("/nonexistent/engine", "not found"),
        (
            "sh -c 'echo no net file >&2; exit 3'",
            "exited with code 3; its stderr ended: no net file",
        ),
    ] {
        let out = std::process::Command::new(bin)
            .args(["match", "--engine", engine, "--engine", bin, "--games", "2"])
            .args(["--variant", "heian", "--tc", "1+0.01", "--proto", "usi"])
            .output()
            .expect("shishi runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{stderr}");
        assert!(stderr.contains(why), "{engine}: {stderr}");
    }
}
