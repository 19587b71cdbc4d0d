//! USI transcript tests: drive the built `shishi` binary over stdin/stdout the way a GUI or a
//! lishogi bot does, and check every reply against what the rules library says. Covers the
//! handshake, a short game, every lion move kind in both notations, promotions, rule options,
//! each error case, `stop` latency, `ponderhit` and the lishogi-bot session. With
//! `SHISHI_USI_ENGINE="node wasm/shishi-usi.mjs"` the same tests drive the browser build.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::notation::{parse_move, write_move, Notation};
use shishi::{Position, Variant};
use std::time::{Duration, Instant};

/// The engine under test, with the USI helpers of these tests.
struct Engine(common::Transcript);

common::reads_as_transcript!(Engine, 0);

impl Engine {
    fn start() -> Engine {
        Engine(common::Transcript::usi_engine())
    }

    fn usi() -> Engine {
        let mut e = Engine::start();
        e.send("usi");
        e.expect("usiok");
        e
    }

    /// The SFEN the engine holds, from `d`.
    fn sfen(&mut self) -> String {
        self.send("d");
        self.expect("sfen ")["sfen ".len()..].to_string()
    }

    /// Replies to a command that should answer with an error, checked with `isready` after it.
    fn error_for(&mut self, command: &str) -> String {
        self.send(command);
        self.send("isready");
        let lines = self.lines_until("readyok");
        lines
            .into_iter()
            .find(|l| l.starts_with("info string error"))
            .unwrap_or_else(|| panic!("no error for '{command}'"))
    }

    fn close(self) {
        self.0.close();
    }
}

fn bestmove_word(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("bestmove has a move")
}

const CHU_START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

#[test]
fn handshake_lists_every_option_with_its_range() {
    let mut e = Engine::start();
    e.send("usi");
    let lines = e.lines_until("usiok");
    // The native binary's one-line banner may come first (the browser build has none).
    let id = lines
        .iter()
        .position(|l| l.starts_with("id name shishi "))
        .unwrap();
    assert!(id <= 1, "{lines:?}");
    assert!(
        lines[..id].iter().all(|l| l.starts_with("shishi ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("Tune_")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")));
    for (name, kind) in [
        ("USI_Hash", "spin"),
        ("Threads", "spin"),
        ("USI_Ponder", "check"),
        ("MultiPV", "spin"),
        ("MoveOverhead", "spin"),
        ("USI_Variant", "combo"),
        ("RuleSet", "combo"),
        ("OkazakiRule", "check"),
        ("LionMiddleProtector", "check"),
        ("PromotionRule", "combo"),
        ("BareKing", "check"),
        ("Repetition", "combo"),
    ] {
        let line = lines
            .iter()
            .find(|l| l.starts_with(&format!("option name {name} type {kind} default ")))
            .unwrap_or_else(|| panic!("option {name} missing: {lines:?}"));
        if kind == "spin" {
            assert!(line.contains(" min ") && line.contains(" max "), "{line}");
        }
    }
    e.send("isready");
    e.expect("readyok");
    e.send("quit");
    e.close();
}

/// Windows GUIs (WinBoard, Shogidokoro, ShogiGUI) end their lines with `\r\n`: the `\r` must
/// not end up inside an option value, a move or a SFEN.
#[test]
fn lines_ending_in_crlf_are_read_as_windows_guis_send_them() {
    let mut e = Engine::start();
    e.send_raw(b"usi\r\n");
    e.expect("usiok");
    e.send_raw(b"setoption name USI_Hash value 16\r\nsetoption name Threads value 1\r\n");
    e.send_raw(b"usinewgame\r\nisready\r\n");
    let lines = e.lines_until("readyok");
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let mut pos = Position::startpos(Variant::Chushogi);
    let mut moves = Vec::new();
    for _ in 0..2 {
        let mv = pos.legal_moves()[0];
        moves.push(write_move(&pos, mv, Notation::Usi));
        pos.play(mv);
    }
    e.send_raw(format!("position startpos moves {}\r\n", moves.join(" ")).as_bytes());
    assert_eq!(e.sfen(), pos.to_sfen());
    e.send_raw(b"go depth 2\r\n");
    let best = e.expect("bestmove ");
    assert!(
        parse_move(&pos, bestmove_word(&best), Notation::Usi).is_ok(),
        "{best}"
    );
    e.close();
}

#[test]
fn errors_are_answered_and_keep_the_position() {
    let mut e = Engine::usi();
    e.send("position startpos moves 7i7h");
    let before = e.sfen();
    assert!(e
        .error_for("frobnicate")
        .contains("unknown command: frobnicate"));
    assert!(e
        .error_for("position sfen lfcsgekgscfl/a1b1txot1b1a w - 1")
        .contains("bad SFEN"));
    assert!(e
        .error_for("position sfen 13/12/12/12/12/12/12/12/12/12/12/12 b - 1")
        .contains("bad SFEN"));
    let illegal = e.error_for("position startpos moves 7i7h 7h7g");
    assert!(illegal.contains("illegal move 2 (7h7g)"), "{illegal}");
    assert!(e
        .error_for("position startpos moves 9i9h")
        .contains("own piece"));
    assert!(e
        .error_for("setoption name Threads value 0")
        .contains("between 1 and 256"));
    assert!(e
        .error_for("setoption name USI_Hash value many")
        .contains("whole number"));
    assert!(e
        .error_for("setoption name Colour value red")
        .contains("unknown option"));
    assert!(e
        .error_for("setoption name RuleSet value fide")
        .contains("lishogi, jcsa, hachu"));
    assert!(e.error_for("go depth x").contains("number"));
    assert!(e.error_for("go sideways").contains("unknown go parameter"));
    assert_eq!(e.sfen(), before, "errors changed the position");
    e.close();
}

/// The lions step out and back: after three rounds the start position has occurred four times.
const LION_SHUFFLE: &str = "7j7h 6c6e 7h7j 6e6c";

#[test]
fn a_move_after_the_game_has_ended_is_refused_and_keeps_the_position() {
    let drawn = format!("position startpos moves {LION_SHUFFLE} {LION_SHUFFLE} {LION_SHUFFLE}");
    let mut e = Engine::usi();
    e.send(&drawn);
    let before = e.sfen();
    let over = e.expect("game over:");
    assert!(over.contains("draw by repetition"), "{over}");
    let err = e.error_for(&format!("{drawn} 7i7h"));
    assert!(
        err.contains("move 13 (7i7h) comes after the end of the game (1/2-1/2 draw by repetition)"),
        "{err}"
    );
    assert_eq!(e.sfen(), before, "the refused position replaced the game");
    e.close();
}

#[test]
fn a_forbidden_repetition_in_the_move_list_is_refused() {
    let mut e = Engine::usi();
    e.send("position startpos moves 7i7h");
    let before = e.sfen();
    e.send("setoption name Repetition value forbid");
    let err = e.error_for(&format!("position startpos moves {LION_SHUFFLE}"));
    assert!(
        err.contains("illegal move 4 (6e6c): repeats an earlier position"),
        "{err}"
    );
    assert_eq!(e.sfen(), before);
    e.send("setoption name Repetition value fourfold");
    e.send(&format!("position startpos moves {LION_SHUFFLE}"));
    assert!(e.sfen().starts_with(&CHU_START[..CHU_START.len() - 1]));
    e.close();
}

#[test]
fn go_before_position_searches_the_start_position() {
    let mut e = Engine::usi();
    e.send("go depth 2");
    let note = e.expect("info string");
    assert!(note.contains("start position of chushogi"), "{note}");
    let best = e.expect("bestmove");
    let pos = Position::startpos(Variant::Chushogi);
    parse_move(&pos, bestmove_word(&best), Notation::Usi).expect("legal bestmove");
    e.close();
}

/// Plays `text` with `notation` in the engine and checks the engine's SFEN equals the library's.
fn check_move(e: &mut Engine, sfen: &str, text: &str, notation: Notation) -> String {
    let pos = Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    let mv = parse_move(&pos, text, notation).unwrap_or_else(|err| panic!("{text}: {err}"));
    let mut after = pos.clone();
    after.play(mv);
    e.send(&format!("position sfen {sfen} moves {text}"));
    let got = e.sfen();
    assert_eq!(got, after.to_sfen(), "move {text}");
    got
}

/// Sente lion on 6f next to gote pawns on 6e and 5e; kings far away.
const LION_SFEN: &str = "6k5/12/12/12/6pp4/6N5/12/12/12/12/12/5K6 b - 1";

#[test]
fn every_lion_move_kind_in_both_notations() {
    let pos = Position::from_sfen(Variant::Chushogi, LION_SFEN).unwrap();
    let spellings = |usi: &str| {
        let mv = parse_move(&pos, usi, Notation::Usi).unwrap();
        (mv, write_move(&pos, mv, Notation::Xboard))
    };
    // jump, double capture, igui, pass
    let cases = ["6f6d", "6f6e5e", "6f6e6f", "6f7f6f"];
    let mut usi = Engine::usi();
    let mut uci = Engine::start();
    uci.send("uci");
    uci.expect("uciok");
    for usi_text in cases {
        let (mv, xb_text) = spellings(usi_text);
        let a = check_move(&mut usi, LION_SFEN, usi_text, Notation::Usi);
        let b = check_move(&mut uci, LION_SFEN, &xb_text, Notation::Xboard);
        assert_eq!(a, b, "{usi_text} / {xb_text}");
        assert_eq!(mv.is_pass(), usi_text == "6f7f6f");
    }
    // other spellings of the pass
    let pass_after = check_move(&mut usi, LION_SFEN, "6f7f6f", Notation::Usi);
    assert_eq!(
        check_move(&mut usi, LION_SFEN, "0000", Notation::Usi),
        pass_after
    );
    assert_eq!(
        check_move(&mut uci, LION_SFEN, "@@@@", Notation::Xboard),
        pass_after
    );
    usi.close();
    uci.close();
}

#[test]
fn promotion_is_optional_entering_the_zone() {
    // sente pawn on 6e steps into the zone on 6d
    let sfen = "6k5/12/12/12/6P5/12/12/12/12/12/12/5K6 b - 1";
    let mut e = Engine::usi();
    let promoted = check_move(&mut e, sfen, "6e6d+", Notation::Usi);
    let plain = check_move(&mut e, sfen, "6e6d", Notation::Usi);
    assert!(promoted.contains("+P") && !plain.contains("+P"));
    assert_eq!(check_move(&mut e, sfen, "6e6d=", Notation::Usi), plain);
    e.close();
}

#[test]
fn rule_options_change_which_moves_are_legal() {
    // a sente pawn on 6b steps onto the empty last rank: lishogi lets it promote, HaChu does not
    let sfen = "k11/6P5/12/12/12/12/12/12/12/12/12/5K6 b - 1";
    let lishogi = Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    assert!(parse_move(&lishogi, "6b6a+", Notation::Usi).is_ok());
    let mut e = Engine::usi();
    check_move(&mut e, sfen, "6b6a+", Notation::Usi);
    e.send("setoption name RuleSet value hachu");
    let err = e.error_for(&format!("position sfen {sfen} moves 6b6a+"));
    assert!(err.contains("may not promote"), "{err}");
    e.send("setoption name PromotionRule value lishogi");
    e.send(&format!("position sfen {sfen} moves 6b6a+"));
    assert!(e.sfen().starts_with("k5+P5/"));
    e.close();
}

#[test]
fn short_game_at_low_depth_in_both_variants() {
    for (variant, plies) in [("chushogi", 6), ("heian", 8)] {
        let mut e = Engine::usi();
        e.send(&format!("setoption name USI_Variant value {variant}"));
        e.send("usinewgame");
        let v = Variant::from_name(variant).unwrap();
        let mut pos = Position::startpos(v);
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            e.send(&format!("position startpos moves {}", moves.join(" ")));
            e.send("go depth 2");
            let line = e.expect("bestmove");
            let text = bestmove_word(&line).to_string();
            let mv = parse_move(&pos, &text, Notation::Usi)
                .unwrap_or_else(|err| panic!("{variant}: illegal bestmove {text}: {err}"));
            assert_eq!(
                write_move(&pos, mv, Notation::Usi),
                text,
                "canonical spelling"
            );
            pos.play(mv);
            moves.push(text);
        }
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        assert_eq!(e.sfen(), pos.to_sfen());
        e.close();
    }
}

#[test]
fn info_lines_carry_every_field() {
    let mut e = Engine::usi();
    e.send("position startpos");
    e.send("go depth 3");
    let lines = e.lines_until("bestmove");
    let info = lines
        .iter()
        .rfind(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " hashfull ",
        " multipv ",
        " pv ",
    ] {
        assert!(info.contains(field), "{field} missing in {info}");
    }
    e.close();
}

#[test]
fn stop_answers_quickly_and_ponderhit_gives_a_legal_move() {
    let mut e = Engine::usi();
    // Readied first, as a GUI does: the latency measured is the search's, not the table's
    // allocation and the net's load that the first `go` would otherwise do.
    e.send("isready");
    e.expect("readyok");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    assert!(
        !e.arrives("bestmove", Duration::from_millis(10)),
        "infinite search answered alone"
    );
    let sent = Instant::now();
    e.send("stop");
    let line = e.expect_within("bestmove", Duration::from_secs(5));
    let latency = sent.elapsed();
    eprintln!("stop latency: {} ms", latency.as_secs_f64() * 1000.0);
    assert!(
        latency < Duration::from_millis(500),
        "stop took {latency:?}"
    );
    let pos = Position::startpos(Variant::Chushogi);
    parse_move(&pos, bestmove_word(&line), Notation::Usi).expect("legal move after stop");

    e.send("position startpos moves 7i7h");
    e.send("go ponder btime 2000 wtime 2000 byoyomi 200");
    assert!(
        !e.arrives("bestmove", Duration::from_millis(600)),
        "bestmove while pondering"
    );
    e.send("ponderhit");
    let line = e.expect_within("bestmove", Duration::from_secs(10));
    let mut pos = Position::startpos(Variant::Chushogi);
    pos.play(parse_move(&pos, "7i7h", Notation::Usi).unwrap());
    parse_move(&pos, bestmove_word(&line), Notation::Usi).expect("legal move after ponderhit");
    e.close();
}

#[test]
fn eof_during_a_search_ends_the_process() {
    let mut e = Engine::usi();
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.stdin.take();
    let start = Instant::now();
    loop {
        if let Some(status) = e.child.try_wait().unwrap() {
            assert!(status.success(), "exit status {status}");
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "engine hangs after EOF"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn extensions_perft_and_display() {
    let mut e = Engine::usi();
    e.send("position startpos");
    e.send("go perft 1");
    let lines = e.lines_until("Nodes searched:");
    let total = e.seen.last().unwrap().clone();
    let pos = Position::startpos(Variant::Chushogi);
    assert_eq!(lines.len(), pos.legal_moves().len());
    assert_eq!(
        total,
        format!("Nodes searched: {}", pos.legal_moves().len())
    );
    e.send("d");
    assert_eq!(e.expect("sfen "), format!("sfen {CHU_START}"));
    e.expect("xboard fen ");
    e.close();
}

/// 40 legal moves from the start, with lion double moves whenever one is available.
fn playout_with_lion_moves(seed: u64) -> Option<(Position, Vec<String>)> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = Position::startpos(Variant::Chushogi);
    let mut moves = Vec::new();
    let mut doubles = 0;
    for _ in 0..40 {
        let legal = pos.legal_moves();
        if legal.is_empty() || pos.outcome().is_some() {
            return None;
        }
        let lion_doubles: Vec<_> = legal
            .iter()
            .copied()
            .filter(|m| m.mid().is_some())
            .collect();
        let mv = if !lion_doubles.is_empty() && rng.gen_bool(0.7) {
            doubles += 1;
            lion_doubles[rng.gen_range(0..lion_doubles.len())]
        } else {
            legal[rng.gen_range(0..legal.len())]
        };
        moves.push(write_move(&pos, mv, Notation::Usi));
        pos.play(mv);
    }
    (doubles >= 2 && pos.outcome().is_none() && !pos.legal_moves().is_empty())
        .then_some((pos, moves))
}

#[test]
fn lishogi_bot_session() {
    let (pos, moves) = (1..200)
        .find_map(playout_with_lion_moves)
        .expect("a playout with lion double moves");
    let mut e = Engine::start();
    e.send("usi");
    e.expect("usiok");
    e.send("setoption name USI_Variant value chushogi");
    e.send("isready");
    e.expect("readyok");
    e.send("usinewgame");
    e.send(&format!(
        "position sfen {CHU_START} moves {}",
        moves.join(" ")
    ));
    let start = Instant::now();
    e.send("go btime 60000 wtime 60000 byoyomi 5000");
    let line = e.expect_within("bestmove", Duration::from_secs(40));
    let took = start.elapsed();
    eprintln!("lishogi-bot bestmove after {} ms: {line}", took.as_millis());
    assert!(took < Duration::from_secs(35), "took {took:?}");
    let best = bestmove_word(&line);
    let mv = parse_move(&pos, best, Notation::Usi).expect("legal bestmove");
    assert_eq!(write_move(&pos, mv, Notation::Usi), best);
    assert!(
        e.seen.iter().all(|l| !l.starts_with("info string error")),
        "{:?}",
        e.seen
    );
    e.close();
}

/// lishogi's analysis board (ui/ceval, `Protocol`): its options after `usiok`, MultiPV 3,
/// `go depth 245` (its endless analysis) and `stop` when the user moves on.
#[test]
fn lishogi_analysis_board_session() {
    let mut e = Engine::start();
    e.send("usi");
    e.expect("usiok");
    for option in [
        "USI_AnalyseMode value true",
        "USI_Hash value 16",
        "Threads value 2",
    ] {
        e.send(&format!("setoption name {option}"));
    }
    e.send("usinewgame");
    e.send("isready");
    e.expect("readyok");
    e.send("setoption name USI_Variant value chushogi");
    e.send("setoption name MultiPV value 3");
    e.send("isready");
    e.expect("readyok");
    e.send(&format!("position sfen {CHU_START} moves 7i7h 6d6e"));
    e.send("go depth 245");
    let third = loop {
        let line = e.expect("info depth 4 ");
        if line.contains(" multipv 3 ") {
            break line;
        }
    };
    for field in [" multipv 3 ", " nodes ", " time ", " score cp "] {
        assert!(third.contains(field), "{field} missing in {third}");
    }
    let sent = Instant::now();
    e.send("stop");
    let line = e.expect_within("bestmove", Duration::from_secs(5));
    assert!(
        sent.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        sent.elapsed()
    );
    let mut pos = Position::startpos(Variant::Chushogi);
    for mv in ["7i7h", "6d6e"] {
        pos.play(parse_move(&pos, mv, Notation::Usi).unwrap());
    }
    parse_move(&pos, bestmove_word(&line), Notation::Usi).expect("legal move after stop");
    assert!(
        e.seen.iter().all(|l| !l.starts_with("info string error")),
        "{:?}",
        e.seen
    );
    e.close();
}

/// Finding: `go perft 7` ran on the input thread, so `stop` and `isready` waited for it.
#[test]
fn isready_and_stop_are_answered_during_a_long_perft() {
    let mut e = Engine::usi();
    e.send("position startpos");
    e.send("go perft 7");
    std::thread::sleep(Duration::from_millis(200));
    let start = Instant::now();
    e.send("isready");
    e.expect_within("readyok", Duration::from_secs(1));
    e.send("stop");
    e.expect_within("info string perft stopped", Duration::from_secs(1));
    assert!(start.elapsed() < Duration::from_secs(2));
    // the engine is free again: a short perft counts to the end
    e.send("go perft 1");
    let lines = e.lines_until("Nodes searched:");
    assert_eq!(
        lines.len(),
        Position::startpos(Variant::Chushogi).legal_moves().len()
    );
    e.close();
}

/// Finding: `go nodes 18446744073709551615` was refused as "not a number".
#[test]
fn go_takes_numbers_in_their_whole_range() {
    let mut e = Engine::usi();
    e.send("position startpos");
    e.send("go nodes 18446744073709551615 depth 2");
    let line = e.expect("bestmove ");
    assert_ne!(bestmove_word(&line), "resign");
    assert!(e
        .error_for("go nodes 18446744073709551616")
        .contains("too large"));
    assert!(e.error_for("go depth -1").contains("whole number"));
    assert!(e
        .error_for("go btime 99999999999999999999")
        .contains("longest time"));
    e.send("go btime -50 wtime 1000 byoyomi 100");
    let line = e.expect("bestmove ");
    assert_ne!(bestmove_word(&line), "resign");
    e.close();
}

/// Finding: `setoption name USI_Hash value 65536` tried to allocate 64 GiB and aborted.
#[test]
fn a_hash_beyond_the_machines_memory_is_refused() {
    let max = shishi::search::tt::max_hash_mb();
    let mut e = Engine::usi();
    let too_big = max + 1;
    if too_big <= 65536 {
        let error = e.error_for(&format!("setoption name USI_Hash value {too_big}"));
        assert!(error.contains("machine's memory"), "{error}");
    }
    assert!(e
        .error_for("setoption name USI_Hash value 65537")
        .contains("between 1 and 65536"));
    e.send("position startpos");
    e.send("go depth 2");
    let line = e.expect("bestmove ");
    assert_ne!(bestmove_word(&line), "resign");
    e.close();
}

/// `go mate` answers as YaneuraOu does: the mating line, `nomate`, or `timeout` (also on `stop`).
#[test]
fn go_mate_answers_checkmate_lines() {
    let mut e = Engine::usi();
    e.send("setoption name USI_Variant value heian");
    // The promoted silver on 5b, guarded by the gold, covers every square of the king.
    e.send("position sfen 4k4/9/3SG4/9/9/9/9/9/9 b - 1");
    e.send("go mate 5000");
    assert_eq!(e.expect("checkmate"), "checkmate 6c5b+");
    // A lone gold can check, but the king takes it.
    e.send("position sfen 4k4/9/4G4/9/9/9/9/9/9 b - 1");
    e.send("go mate infinite");
    assert_eq!(e.expect("checkmate"), "checkmate nomate");
    // A Chu endgame of many checks that the solver does not decide within 10 s.
    e.send("setoption name USI_Variant value chushogi");
    e.send("position sfen 3s2kg1c2/5e1t4/9f2/f2p8/2pim3p3/12/11+l/3I8/L2P8/5GKT4/3q8/12 w - 412");
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.expect_within("readyok", Duration::from_secs(1));
    e.send("stop");
    assert_eq!(
        e.expect_within("checkmate", Duration::from_secs(1)),
        "checkmate timeout"
    );
    e.send("go mate 200");
    assert_eq!(
        e.expect_within("checkmate", Duration::from_secs(2)),
        "checkmate timeout"
    );
    assert!(e.error_for("go mate soon").contains("milliseconds"));
    e.close();
}

/// `go mate` in Chu counts as published tsume do: the line ends with the mating move, without
/// the defender's last reply and the capture of the king, and it is the shortest mate.
#[test]
fn go_mate_in_chu_ends_with_the_mating_move() {
    let mut e = Engine::usi();
    e.send("setoption name USI_Variant value chushogi");
    // The queen's check up the 12th file is mate: the rook covers file 11.
    e.send("position sfen k11/2p9/12/1R10/12/12/12/12/12/12/12/2Q9 b - 1");
    e.send("go mate 5000");
    let info = e.expect("info string mate");
    assert!(
        info.starts_with("info string mate in 1 plies (shortest), nodes "),
        "{info}"
    );
    assert_eq!(e.expect("checkmate"), "checkmate 10l12j");
    // Two golds drive the king into the corner: check, the king's only step, mate.
    e.send("position sfen 1k10/12/1G1G8/12/12/12/12/12/12/12/12/12 b - 1");
    e.send("go mate 5000");
    let line = e.expect("checkmate");
    assert_eq!(line.split_whitespace().count(), 4, "{line}");
    e.close();
}

/// `loadgame` takes a KIF (its text as a JSON string), makes it the game and says so; `annotate`
/// reports every position and ends with the analysis as JSON; `isready` is answered meanwhile
/// and `stop` ends it. The browser's analysis page speaks to the engine this way.
#[test]
fn loadgame_and_annotate_analyse_a_kif_game() {
    let kif = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif/chu19-50p-.kif"),
    )
    .unwrap();
    let quoted = format!("{kif:?}").replace("\\'", "'");
    let mut e = Engine::usi();
    e.send(&format!("loadgame {quoted}"));
    let loaded = e.expect("info string game variant chushogi sfen ");
    assert_eq!(
        loaded.split(" moves ").nth(1).unwrap().split(' ').count(),
        50
    );
    e.send("annotate nodes 500");
    e.send("isready");
    // Natively the analysis runs on its own thread and `isready` is answered at once; in the
    // browser build between two searches, possibly after the last.
    let before_ready = e.lines_until("readyok");
    let done = match before_ready
        .iter()
        .find(|l| l.starts_with("info string annotation "))
    {
        Some(line) => line.clone(),
        None => e.expect("info string annotation "),
    };
    let json: serde_json::Value =
        serde_json::from_str(done.trim_start_matches("info string annotation ")).unwrap();
    let plies = json["plies"].as_array().unwrap();
    assert_eq!(plies.len(), 50);
    assert_eq!(plies[0]["move"], "11l11k");
    assert!(json["summary"]["sente"]["accuracy"].is_number());

    // A bad record is refused with its line, and the game stays.
    e.send("loadgame \"手数----指手--\\n   1手目   5五獅子 （←9九）\\n\"");
    let refused = e.expect("info string error");
    assert!(refused.contains("line 2"), "{refused}");
    e.send("annotate movetime 100000");
    e.expect("info string annotate start 51 positions");
    e.send("isready");
    e.expect("readyok");
    e.send("stop");
    e.expect("info string annotate stopped");
    e.send("isready");
    e.expect("readyok");
    e.close();
}
