//! XBoard transcript tests: drive the built `shishi` binary as WinBoard/XBoard does and check
//! the replies against the rules library: the protocol 2 handshake with options, a short game
//! with the engine's moves (lion double moves arrive as one `move` per leg), every lion move kind
//! in every XBoard spelling, promotions, Heian as an engine-defined variant, `lift`, game end
//! announcements and each error reply.

mod common;

use shishi::notation::{parse_move, write_move, Notation};
use shishi::{Position, Variant};
use std::time::{Duration, Instant};

/// The engine in XBoard mode, with the helpers of these tests.
struct Engine {
    t: common::Transcript,
    pings: u32,
}

common::reads_as_transcript!(Engine, t);

impl Engine {
    fn xboard() -> Engine {
        let mut e = Engine {
            t: common::Transcript::shishi(),
            pings: 0,
        };
        e.send("xboard");
        e.send("protover 2");
        e.expect("feature done=1");
        e
    }

    /// Sends `command`, then a ping, and returns every line before the pong.
    fn replies(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.pings += 1;
        let n = self.pings;
        self.send(&format!("ping {n}"));
        self.lines_until(&format!("pong {n}"))
    }

    /// The engine's next move, joining the legs of a multi-leg move.
    fn engine_move(&mut self) -> String {
        let mut text = String::new();
        loop {
            let line = self.expect("move ");
            let leg = &line["move ".len()..];
            text.push_str(leg);
            if !leg.ends_with(',') {
                return text;
            }
        }
    }

    fn close(mut self) {
        self.send("quit");
        self.t.close();
    }
}

const LION_SFEN: &str = "6k5/12/12/12/6pp4/6N5/12/12/12/12/12/5K6 b - 1";

#[test]
fn handshake_sends_features_and_options() {
    let e = Engine::xboard();
    let features = e.seen.clone();
    // After the one-line banner, the first feature line.
    assert!(features[0].starts_with("shishi "), "{features:?}");
    let first = &features[1];
    assert!(
        !features.iter().any(|l| l.contains("Tune_")),
        "{features:?}"
    );
    for f in [
        "myname=\"shishi ",
        "variants=\"chu,heian,heian9x8,heian8x9,heian8x8\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "sigint=0",
        "sigterm=0",
        "colors=0",
        "memory=1",
        "smp=1",
        "highlight=1",
        "debug=1",
    ] {
        assert!(first.contains(f), "{f} missing in {first}");
    }
    assert!(features
        .iter()
        .any(|l| l == "feature option=\"RuleSet -combo *lishogi /// jcsa /// hachu\""));
    assert!(features
        .iter()
        .any(|l| l.starts_with("feature option=\"BareKing -check ")));
    e.close();
}

#[test]
fn short_game_against_the_engine() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("level 0 1 0");
    e.send("post");
    e.send("sd 2");
    let mut pos = Position::startpos(Variant::Chushogi);
    for _ in 0..3 {
        let ours = pos.legal_moves()[0];
        let text = write_move(&pos, ours, Notation::Xboard);
        e.send(&format!("usermove {text}"));
        pos.play(ours);
        let reply = e.engine_move();
        let mv = parse_move(&pos, &reply, Notation::Xboard)
            .unwrap_or_else(|err| panic!("illegal engine move {reply}: {err}"));
        pos.play(mv);
    }
    assert!(
        e.seen.iter().any(|l| l.starts_with("2 ")),
        "no thinking output"
    );
    assert!(e
        .seen
        .iter()
        .all(|l| !l.starts_with("Illegal") && !l.starts_with("Error")));
    e.close();
}

#[test]
fn every_lion_move_kind_in_every_xboard_spelling() {
    let pos = Position::from_sfen(Variant::Chushogi, LION_SFEN).unwrap();
    let fen = pos.to_xboard_fen();
    let xb = |usi: &str| {
        let mv = parse_move(&pos, usi, Notation::Usi).unwrap();
        write_move(&pos, mv, Notation::Xboard)
    };
    let igui = xb("6f6e6f");
    let (f, m) = igui.split_once(',').map(|(a, _)| a.split_at(2)).unwrap();
    let spellings = vec![
        xb("6f6d"),
        xb("6f6e5e"),
        igui.clone(),
        format!("{f}{m},{m}{f}"),
        "@@@@".to_string(),
        format!("{f}{f}"),
        xb("6f7f6f"),
    ];
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    for text in spellings {
        e.send("force");
        e.send(&format!("setboard {fen}"));
        let replies = e.replies(&format!("usermove {text}"));
        assert!(
            replies.iter().all(|l| l.starts_with("1-0 ")),
            "{text}: {replies:?}"
        );
        // the same move again is gote's turn now: refused, so the first one was played
        let again = e.replies(&format!("usermove {text}"));
        assert!(
            again.iter().any(|l| l.starts_with("Illegal move (")),
            "{text}: {again:?}"
        );
    }
    // after the double capture, gote is bared: the engine announces the result
    e.send(&format!("setboard {fen}"));
    let end = e.replies(&format!("usermove {}", xb("6f6e5e")));
    assert_eq!(end, vec!["1-0 {Sente wins by bare king}".to_string()]);
    e.close();
}

#[test]
fn promotions_and_the_engine_reply_in_a_set_position() {
    let sfen = "6k4g/12/12/12/6P5/12/12/12/12/12/12/5K6 b - 1";
    let pos = Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    let promote = parse_move(&pos, "6e6d+", Notation::Usi).unwrap();
    let text = write_move(&pos, promote, Notation::Xboard);
    assert!(text.ends_with('+'));
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {}", pos.to_xboard_fen()));
    assert!(e.replies(&format!("usermove {text}")).is_empty());
    let mut after = pos.clone();
    after.play(promote);
    e.send("sd 2");
    e.send("go");
    let reply = e.engine_move();
    parse_move(&after, &reply, Notation::Xboard).expect("legal reply after the promotion");
    e.close();
}

/// WinBoard on Windows ends its lines with `\r\n`.
#[test]
fn winboard_lines_ending_in_crlf() {
    let mut t = common::Transcript::shishi();
    t.send_raw(b"xboard\r\nprotover 2\r\n");
    let features = t.lines_until("feature done=1");
    assert!(features.iter().any(|l| l.contains("chu")), "{features:?}");
    t.send_raw(b"new\r\nvariant chu\r\nsd 2\r\nforce\r\n");
    let pos = Position::startpos(Variant::Chushogi);
    let first = write_move(&pos, pos.legal_moves()[0], Notation::Xboard);
    t.send_raw(format!("usermove {first}\r\nping 1\r\n").as_bytes());
    let replies = t.lines_until("pong 1");
    assert!(
        !replies
            .iter()
            .any(|l| l.starts_with("Illegal") || l.starts_with("Error")),
        "{replies:?}"
    );
    t.send_raw(b"go\r\n");
    let mv = t.expect("move ");
    assert!(mv.len() > "move ".len(), "{mv}");
    t.send_raw(b"quit\r\n");
    t.close();
}

#[test]
fn errors_are_answered_in_xboard_form() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    assert_eq!(
        e.replies("frobnicate"),
        vec!["Error (unknown command): frobnicate"]
    );
    let r = e.replies("usermove f4f9");
    assert!(
        r[0].starts_with("Illegal move (not a legal move of the pawn"),
        "{r:?}"
    );
    assert!(r[0].ends_with("): f4f9"), "{r:?}");
    let r = e.replies("usermove zz9");
    assert!(r[0].starts_with("Illegal move (unparsable"), "{r:?}");
    let r = e.replies("setboard 13/12 w - - 0 1");
    assert!(r[0].starts_with("tellusererror Illegal position"), "{r:?}");
    let r = e.replies("option MultiPV=0");
    assert!(
        r[0].starts_with("Error (option MultiPV must be between 1 and 64"),
        "{r:?}"
    );
    let r = e.replies("option RuleSet=fide");
    assert!(r[0].starts_with("Error (option RuleSet is one of"), "{r:?}");
    let r = e.replies("variant shatranj");
    assert!(r[0].starts_with("Error (unknown variant"), "{r:?}");
    let r = e.replies("level 40 x 0");
    assert!(r[0].starts_with("Error (level"), "{r:?}");
    // state kept: the start position still takes the first move
    assert!(e.replies("usermove f4f5").is_empty());
    e.close();
}

#[test]
fn heian_is_an_engine_defined_variant() {
    let mut e = Engine::xboard();
    e.send("new");
    let r = e.replies("variant heian8x9");
    assert_eq!(
        r[0],
        "setup (PNBRLSE..G.+++++++Kpnbrlse..g.+++++++k) 8x9+0_shogi lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL w - - 0 1"
    );
    for piece in ["piece N& ffN", "piece K& K", "piece +P& WfF", "piece L& fR"] {
        assert!(r.iter().any(|l| l == piece), "{piece} missing in {r:?}");
    }
    e.send("sd 2");
    let mut pos = Position::startpos(Variant::Heian8x9);
    e.send("go");
    for _ in 0..2 {
        let reply = e.engine_move();
        let mv = parse_move(&pos, &reply, Notation::Xboard).expect("legal heian move");
        pos.play(mv);
        let ours = pos.legal_moves()[0];
        e.send(&format!(
            "usermove {}",
            write_move(&pos, ours, Notation::Xboard)
        ));
        pos.play(ours);
    }
    e.close();
}

#[test]
fn lift_highlights_targets_and_lion_middle_squares() {
    let pos = Position::from_sfen(Variant::Chushogi, LION_SFEN).unwrap();
    let lion = parse_move(&pos, "6f6d", Notation::Usi).unwrap().from();
    let square = shishi::notation::xboard_square(Variant::Chushogi, lion);
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {}", pos.to_xboard_fen()));
    let r = e.replies(&format!("lift {square}"));
    let board = r[0].strip_prefix("highlight ").expect("a highlight");
    assert_eq!(board.split('/').count(), 12);
    // pawn victims on 6e and 5e are middle squares (cyan); 24 squares of the 5x5 box are marked
    assert_eq!(board.matches('C').count(), 2, "{board}");
    let marked = board.chars().filter(|c| c.is_ascii_uppercase()).count();
    assert_eq!(marked, 24, "{board}");
    e.close();
}

#[test]
fn analyze_reports_until_exit() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("post");
    e.send("analyze");
    let line = e.expect("1 ");
    assert!(line.split_whitespace().count() >= 5, "{line}");
    e.send(".");
    e.expect("stat01: ");
    let start = Instant::now();
    assert!(e.replies("exit").iter().all(|l| !l.starts_with("move ")));
    assert!(start.elapsed() < Duration::from_secs(2));
    e.close();
}

/// Finding: `st 99999999999999999999` panicked (a duration made from an unbounded float).
#[test]
fn huge_time_values_are_refused_and_the_engine_lives_on() {
    let mut e = Engine::xboard();
    e.send("new");
    e.send("force");
    for command in [
        "st 99999999999999999999",
        "st 1e300",
        "time 9223372036854775807",
        "otim 9223372036854775807",
        "level 40 99999999999999999999 0",
        "level 0 5 1e30",
    ] {
        let r = e.replies(command);
        assert_eq!(r.len(), 1, "{command}: {r:?}");
        assert!(r[0].starts_with("Error ("), "{command}: {r:?}");
        assert!(r[0].ends_with(command), "{command}: {r:?}");
    }
    // the old (default) limits stand: a short search still answers with a move
    e.send("sd 1");
    e.send("go");
    let reply = e.engine_move();
    parse_move(
        &Position::startpos(Variant::Chushogi),
        &reply,
        Notation::Xboard,
    )
    .expect("a legal first move");
    e.close();
}

/// A Chu position from a SFEN, and an engine in force mode set to it.
fn chu_engine_at(sfen: &str) -> (Position, Engine) {
    let pos = Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    let mut e = Engine::xboard();
    e.send("new");
    e.send("variant chu");
    e.send("force");
    e.send(&format!("setboard {}", pos.to_xboard_fen()));
    (pos, e)
}

/// Finding: in lost positions shishi played on until XBoard (which applies a check rule in chu)
/// forfeited it. Here every sente move leaves the king to the lion two squares away.
#[test]
fn resigns_when_every_move_loses() {
    let sfen = "5k6/12/12/12/12/12/12/11P/12/2n9/12/K11 b - 1";
    let (_, mut e) = chu_engine_at(sfen);
    e.send("sd 4");
    // The search may end before a ping after `go` is read: take every line up to the resign.
    let start = e.seen.len();
    e.send("go");
    let line = e.expect("resign");
    assert_eq!(line, "resign");
    let before = &e.seen[start..e.seen.len() - 1];
    assert!(before.iter().all(|l| !l.starts_with("move ")), "{before:?}");
    let after = e.replies("go");
    assert!(after.iter().all(|l| !l.starts_with("move ")), "{after:?}");
    e.close();
}

/// Finding: XBoard adjudicated "stalemate" right after shishi captured the last royal; shishi
/// now claims the result itself right after its move.
#[test]
fn claims_the_win_after_capturing_the_last_royal() {
    let sfen = "12/12/12/12/12/5k6/5N6/12/12/12/12/K11 b - 1";
    let (pos, mut e) = chu_engine_at(sfen);
    e.send("sd 3");
    e.send("go");
    let reply = e.engine_move();
    let mv = parse_move(&pos, &reply, Notation::Xboard).expect("a legal move");
    let mut after = pos.clone();
    after.play(mv);
    assert!(after.royals(shishi::Color::Gote).is_empty(), "{reply}");
    let claim = e.expect("1-0 ");
    assert!(claim.starts_with("1-0 {Sente wins"), "{claim}");
    e.close();
}
