//! The match runner against a scripted fake engine (`src/bin/fake_engine.rs`): every kind of
//! engine failure is charged to the side that failed, the match goes on, and a normal game ends
//! with a result shishi's own rules confirm.

use shishi::board::{Color, Variant};
use shishi::matchplay::driver::TimeControl;
use shishi::matchplay::openings::Opening;
use shishi::matchplay::play_game::GameRules;
use shishi::matchplay::referee::Referee;
use shishi::matchplay::{game_start, run_match, MatchConfig, MatchSummary, Protocol};
use shishi::notation::Notation;
use shishi::position::{OutcomeReason, Position};
use shishi::rules::RuleSet;
use std::time::Duration;

const FAKE: &str = env!("CARGO_BIN_EXE_fake_engine");

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
    let config = MatchConfig {
        engines: [
            format!("{FAKE} --name good"),
            format!("{FAKE} --name bad {second}"),
        ],
        protocol: [protocol; 2],
        games,
        openings: vec![Opening::startpos(variant)],
        concurrency: 1,
        rules: GameRules {
            start: game_start(
                variant,
                RuleSet::LISHOGI,
                TimeControl::parse(tc, 0).unwrap(),
            ),
            margin: Duration::from_millis(150),
            draw: None,
            resign: None,
            max_moves,
        },
        sprt: None,
        time_control_text: tc.to_string(),
        debug: false,
    };
    let mut seen = 0;
    let summary = run_match(&config, &mut std::io::sink(), &mut |_| seen += 1);
    assert_eq!(seen, games, "every game is reported");
    assert_eq!(summary.games.len(), games);
    summary
}

/// Every game is lost by the bad (second) engine for `reason`, after it made `after - 1` moves.
fn assert_bad_engine_lost_every_game(summary: &MatchSummary, reason: OutcomeReason, after: usize) {
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
    assert_bad_engine_lost_every_game(&s, OutcomeReason::Crash, 3);
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
    assert_bad_engine_lost_every_game(&s, OutcomeReason::Crash, 2);
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
        assert_bad_engine_lost_every_game(&s, OutcomeReason::IllegalMove, 4);
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
        assert_bad_engine_lost_every_game(&s, OutcomeReason::Timeout, 2);
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
        assert_bad_engine_lost_every_game(&s, OutcomeReason::IllegalMove, 2);
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
    assert_bad_engine_lost_every_game(&s, OutcomeReason::IllegalMove, 1);
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
                    OutcomeReason::Crash
                        | OutcomeReason::IllegalMove
                        | OutcomeReason::Timeout
                        | OutcomeReason::Adjudication
                ),
                "{o} {}",
                g.game.detail
            );
            assert!(!g.game.moves.is_empty());
            assert_eq!(replay(variant, &g.game.moves), Some(o));
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
fn move_limit_ends_a_game_as_an_adjudicated_draw() {
    let s = run_limited("", Protocol::Usi, Variant::Chushogi, 2, "5+0.1", Some(5));
    for g in &s.games {
        let o = g.game.outcome;
        assert_eq!(o.winner, None, "{}", g.game.detail);
        assert_eq!(o.reason, OutcomeReason::Adjudication, "{}", g.game.detail);
        assert!(g.game.detail.contains("move limit"), "{}", g.game.detail);
        assert_eq!(g.game.moves.len(), 10);
        assert_eq!(replay(Variant::Chushogi, &g.game.moves), None);
    }
    assert_eq!(s.tally.draws as usize, s.games.len());
}
