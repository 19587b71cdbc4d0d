//! The lishogi bot client's sessions, line for line: drive the built `shishi` binary the way
//! TheYoBots/Lishogi-Bot (commit 17c16bc, `engine_wrapper.py`, `engine_ctrl/usi.py`,
//! `lishogi-bot.py`) drives its engine in a Chu game, with the options of `bot/config.yml`, and
//! check every `bestmove` against the rules library and the clock. docs/lishogi-bot.md says
//! what the client sends and why.
//!
//! What the client does that a test has to copy exactly:
//! - one engine per game: `usi`, a `setoption` per `usi_options` entry, `isready`; then before
//!   the first search `setoption name USI_Variant value chushogi`; no `usinewgame`, no `gameover`;
//! - `position startpos moves <moves>` (with the word `moves` even before the first move);
//! - each side's first move with `go movetime 1000`; later moves with
//!   `go btime B wtime W [binc I winc I] [byoyomi Y]`, where each clock is lishogi's report less
//!   the byoyomi and the increment, and the mover's also less the client's `move_overhead`;
//! - after its move, `go ponder` on the position before that move (the client builds the moves
//!   of a variant game from lishogi's list, which does not have them yet), answered by `stop`
//!   when the opponent moves, because the client compares the ponder move with a null move and
//!   so never sends `ponderhit` in Chu; the stopped search's `bestmove` is read and dropped;
//! - at the end: the final `position` while the engine ponders, `stop`, `quit`.

mod common;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use shishi::notation::{parse_move, write_move, Notation};
use shishi::{Color, Position, Variant};
use std::time::{Duration, Instant};

/// The client's `move_overhead` in `bot/config.yml`, taken off the main time before `go`.
const CLIENT_MOVE_OVERHEAD: u64 = 1000;

/// Slack for a loaded test machine on top of the engine's own promise, where a check has any.
const SLACK: Duration = Duration::from_millis(300);

/// The engine as the bot client drives it, with the checks of these tests.
struct Engine(common::Transcript);

common::reads_as_transcript!(Engine, 0);

impl Engine {
    fn start() -> Engine {
        Engine(common::Transcript::shishi())
    }

    fn assert_no_errors(&self) {
        let errors: Vec<_> = self
            .seen
            .iter()
            .filter(|l| l.starts_with("info string error"))
            .collect();
        assert!(errors.is_empty(), "engine errors: {errors:?}");
    }

    /// After `quit` the process ends by itself, promptly and cleanly.
    fn expect_exit(mut self) {
        self.stdin.take();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(5),
                "engine still running 5 s after quit"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

/// The `usi_options` of `bot/config.yml` as the client sends them: `setoption name K value V`,
/// YAML `true`/`false` as Python's `True`/`False` become `true`/`false`.
fn config_options() -> Vec<(String, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/bot/config.yml");
    let text = std::fs::read_to_string(path).expect("bot/config.yml");
    let code = |l: &str| l.split('#').next().unwrap().trim_end().to_string();
    let mut lines = text
        .lines()
        .map(code)
        .skip_while(|l| l.trim() != "usi_options:");
    let header = lines.next().expect("a usi_options section");
    let indent = |l: &str| l.len() - l.trim_start().len();
    let depth = indent(&header);
    lines
        .filter(|l| !l.trim().is_empty())
        .take_while(|l| indent(l) > depth)
        .map(|l| {
            let (key, value) = l.trim().split_once(':').expect("key: value");
            (
                key.trim().to_string(),
                value.trim().trim_matches('"').to_string(),
            )
        })
        .collect()
}

fn config_option(name: &str) -> u64 {
    config_options()
        .into_iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("{name} in bot/config.yml"))
}

/// lishogi's clock report in a `gameState`, in milliseconds: `btime`, `wtime`, `binc` (= `winc`)
/// and `byo`.
#[derive(Clone, Copy, Debug)]
struct Clock {
    btime: u64,
    wtime: u64,
    inc: u64,
    byo: u64,
}

impl Clock {
    /// `adjust_game_time`: the mover's clock less the client's overhead (and the time it took to
    /// get here, nothing in a test), plus `extra` (the increment and byoyomi, when pondering).
    fn adjusted(self, mover: Color, extra: u64) -> Clock {
        let cut = |t: u64| t.saturating_sub(CLIENT_MOVE_OVERHEAD) + extra;
        match mover {
            Color::Sente => Clock {
                btime: cut(self.btime),
                ..self
            },
            Color::Gote => Clock {
                wtime: cut(self.wtime),
                ..self
            },
        }
    }

    /// `usi.Engine.go`: each clock less the byoyomi and the increment; `binc`, `winc` and
    /// `byoyomi` only when above zero.
    fn go(self, ponder: bool) -> String {
        let mut words = vec!["go".to_string()];
        if ponder {
            words.push("ponder".into());
        }
        let bare = |t: u64| t.saturating_sub(self.byo + self.inc);
        words.push(format!("btime {}", bare(self.btime)));
        words.push(format!("wtime {}", bare(self.wtime)));
        if self.inc > 0 {
            words.push(format!("binc {} winc {}", self.inc, self.inc));
        }
        if self.byo > 0 {
            words.push(format!("byoyomi {}", self.byo));
        }
        words.join(" ")
    }

    /// The latest the mover's answer may come under the `go` line the engine got: its clock
    /// there plus the byoyomi (or the increment, which the client also took off).
    fn allowance(self, mover: Color) -> Duration {
        let clock = match mover {
            Color::Sente => self.btime,
            Color::Gote => self.wtime,
        };
        Duration::from_millis(clock.saturating_sub(self.byo + self.inc) + self.byo.max(self.inc))
    }
}

fn bestmove_words(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"bestmove"), "{line}");
    let best = words.get(1).expect("bestmove has a move").to_string();
    let ponder = match words.get(2) {
        Some(&"ponder") => Some(words.get(3).expect("a ponder move").to_string()),
        None => None,
        Some(_) => panic!("unexpected words after the move: {line}"),
    };
    (best, ponder)
}

/// The move `text` is legal in `pos` and spelt as lishogi spells it; with `ponder`, that move is
/// legal after it.
fn check_legal(pos: &Position, best: &str, ponder: Option<&str>) {
    let mv = parse_move(pos, best, Notation::Usi)
        .unwrap_or_else(|e| panic!("illegal bestmove {best} in {}: {e}", pos.to_sfen()));
    assert_eq!(
        write_move(pos, mv, Notation::Usi),
        best,
        "canonical spelling"
    );
    if let Some(ponder) = ponder {
        let mut after = pos.clone();
        after.play(mv);
        parse_move(&after, ponder, Notation::Usi)
            .unwrap_or_else(|e| panic!("illegal ponder move {ponder} after {best}: {e}"));
    }
}

/// A bot engine after the client's start: `usi`, the options of `bot/config.yml`, `isready`.
fn bot_engine() -> Engine {
    let mut e = Engine::start();
    e.send("usi");
    e.expect("usiok");
    for (name, value) in config_options() {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send("isready");
    e.expect("readyok");
    e.assert_no_errors();
    e
}

fn position_line(moves: &[String]) -> String {
    format!("position startpos moves {}", moves.join(" "))
}

/// Plays `plies` plies of a Chu game as the client does for the bot playing `bot`, against an
/// opponent that plays random legal moves, under lishogi's clock report `clock`; then ends the
/// game as the client does. Returns how many of the bot's answers came with a ponder move.
fn play_chu_game(bot: Color, clock: Clock, plies: usize, seed: u64) -> usize {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut e = bot_engine();
    let mut pos = Position::startpos(Variant::Chushogi);
    let mut moves: Vec<String> = Vec::new();
    let mut variant_set = false;
    // The position the engine ponders on, while it does.
    let mut pondering: Option<Position> = None;
    let mut with_ponder = 0;
    for _ in 0..plies {
        if pos.side_to_move() != bot {
            let legal = pos.legal_moves();
            let mv = legal[rng.gen_range(0..legal.len())];
            moves.push(write_move(&pos, mv, Notation::Usi));
            pos.play(mv);
            assert!(pos.outcome().is_none(), "the random game ended early");
            continue;
        }
        if !variant_set {
            e.send("setoption name USI_Variant value chushogi");
            variant_set = true;
        }
        let (sent, allowance) = if moves.len() < 2 {
            // lishogi aborts a game whose first move takes 30 s, so the client fixes a second.
            ("go movetime 1000".to_string(), Duration::from_millis(1000))
        } else {
            if let Some(pondered) = pondering.take() {
                // The opponent's move never equals the client's null move: stop, read, drop.
                let sent = Instant::now();
                e.send("stop");
                let line = e.expect_within("bestmove", Duration::from_secs(5));
                assert!(
                    sent.elapsed() < Duration::from_millis(500),
                    "stop took {:?}",
                    sent.elapsed()
                );
                let (best, ponder) = bestmove_words(&line);
                check_legal(&pondered, &best, ponder.as_deref());
            }
            let adjusted = clock.adjusted(bot, 0);
            (adjusted.go(false), adjusted.allowance(bot))
        };
        e.send(&position_line(&moves));
        let start = Instant::now();
        e.send(&sent);
        let line = e.expect_within("bestmove", allowance + Duration::from_secs(10));
        let took = start.elapsed();
        eprintln!("{sent}: {line} after {} ms", took.as_millis());
        assert!(took < allowance, "{sent} answered after {took:?}");
        let (best, ponder) = bestmove_words(&line);
        check_legal(&pos, &best, ponder.as_deref());
        if ponder.is_some() {
            with_ponder += 1;
            // The client ponders the moves lishogi has sent, which end before its own move.
            e.send(&position_line(&moves));
            e.send(&clock.adjusted(bot, clock.inc + clock.byo).go(true));
            pondering = Some(pos.clone());
        }
        let mv = parse_move(&pos, &best, Notation::Usi).unwrap();
        moves.push(best);
        pos.play(mv);
    }
    // lishogi says the game is over: the client sends the final position (the engine may still
    // be pondering), then `stop` and `quit`; a pondering engine answers the `stop`.
    e.send(&position_line(&moves));
    e.send("stop");
    if let Some(pondered) = pondering {
        let line = e.expect_within("bestmove", Duration::from_secs(5));
        let (best, ponder) = bestmove_words(&line);
        check_legal(&pondered, &best, ponder.as_deref());
    }
    e.send("quit");
    e.assert_no_errors();
    e.expect_exit();
    with_ponder
}

#[test]
fn config_options_are_all_accepted() {
    let options = config_options();
    let names: Vec<&str> = options.iter().map(|(k, _)| k.as_str()).collect();
    for name in ["Threads", "USI_Hash", "USI_Ponder", "MoveOverhead"] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
    let mut e = bot_engine();
    e.send("quit");
    e.expect_exit();
}

#[test]
fn chu_game_under_byoyomi_as_the_client_plays_it() {
    // 10 minutes | 3 s byoyomi, in the byoyomi: lishogi reports the byoyomi as the clock, the
    // client sends `btime 0 wtime 0 byoyomi 3000`.
    let clock = Clock {
        btime: 3000,
        wtime: 3000,
        inc: 0,
        byo: 3000,
    };
    let with_ponder = play_chu_game(Color::Sente, clock, 9, 1);
    assert!(
        with_ponder >= 3,
        "only {with_ponder} answers with a ponder move"
    );
}

#[test]
fn chu_game_under_increment_as_the_client_plays_it() {
    // 20 s + 2 s a move, the bot playing gote.
    let clock = Clock {
        btime: 20_000,
        wtime: 20_000,
        inc: 2000,
        byo: 0,
    };
    let with_ponder = play_chu_game(Color::Gote, clock, 10, 2);
    assert!(
        with_ponder >= 3,
        "only {with_ponder} answers with a ponder move"
    );
}

/// The cycle USI defines and the client runs in standard shogi, where it sends the ponder move
/// with the position: `go ponder`, then `ponderhit` when the opponent plays the expected move.
/// The clock starts at `ponderhit`, so the answer comes within the byoyomi from there. (The
/// client's own ponder clock adds the byoyomi to the main time; in Chu it never reaches
/// `ponderhit`, so the true clock is used here.)
#[test]
fn ponderhit_answers_within_the_byoyomi() {
    let mut e = bot_engine();
    e.send("setoption name USI_Variant value chushogi");
    let mut pos = Position::startpos(Variant::Chushogi);
    let mut moves: Vec<String> = Vec::new();
    for text in ["7i7h", "6d6e"] {
        pos.play(parse_move(&pos, text, Notation::Usi).unwrap());
        moves.push(text.to_string());
    }
    e.send(&position_line(&moves));
    e.send("go btime 0 wtime 0 byoyomi 3000");
    let (best, ponder) = bestmove_words(&e.expect("bestmove"));
    check_legal(&pos, &best, ponder.as_deref());
    let ponder = ponder.expect("a ponder move with 3 s byoyomi");
    for text in [&best, &ponder] {
        pos.play(parse_move(&pos, text, Notation::Usi).unwrap());
        moves.push(text.clone());
    }
    e.send(&position_line(&moves));
    e.send("go ponder btime 0 wtime 0 byoyomi 3000");
    assert!(
        !e.arrives("bestmove", Duration::from_millis(3500)),
        "bestmove while pondering, longer than the byoyomi"
    );
    let start = Instant::now();
    e.send("ponderhit");
    let line = e.expect_within("bestmove", Duration::from_secs(10));
    let took = start.elapsed();
    eprintln!("ponderhit: {line} after {} ms", took.as_millis());
    assert!(took < Duration::from_millis(3000), "took {took:?}");
    let (best, ponder) = bestmove_words(&line);
    check_legal(&pos, &best, ponder.as_deref());
    e.send("quit");
    e.assert_no_errors();
    e.expect_exit();
}

/// Tiny clocks as the client sends them (`btime 1000`, no byoyomi, no increment; a clock the
/// client has cut to 0 with only the byoyomi or increment left): the answer comes in time, with
/// the bot's MoveOverhead and with shishi's default of 50 ms.
#[test]
fn tiny_clocks_are_never_overrun() {
    let overhead = config_option("MoveOverhead");
    assert!(
        overhead >= 750,
        "MoveOverhead below lishogi's bot-move delay"
    );
    for overhead in [overhead, 50] {
        let mut e = bot_engine();
        e.send(&format!("setoption name MoveOverhead value {overhead}"));
        e.send("setoption name USI_Variant value chushogi");
        let mut pos = Position::startpos(Variant::Chushogi);
        let mut moves: Vec<String> = Vec::new();
        for (line, allowance) in [
            ("go btime 1000 wtime 1000", 1000),
            ("go btime 100 wtime 30000", 100),
            ("go btime 0 wtime 0 byoyomi 2000", 2000),
            ("go btime 0 wtime 0 binc 1000 winc 1000", 1000),
            ("go btime 0 wtime 0", 0),
        ] {
            e.send(&position_line(&moves));
            let start = Instant::now();
            e.send(line);
            let answer = e.expect_within("bestmove", Duration::from_secs(10));
            let took = start.elapsed();
            eprintln!(
                "MoveOverhead {overhead}, {line}: {answer} after {} ms",
                took.as_millis()
            );
            let allowance = Duration::from_millis(allowance.max(1)) + SLACK;
            assert!(took < allowance, "{line}: answered after {took:?}");
            let (best, ponder) = bestmove_words(&answer);
            check_legal(&pos, &best, ponder.as_deref());
            pos.play(parse_move(&pos, &best, Notation::Usi).unwrap());
            moves.push(best);
            // Gote replies, so `btime` stays the clock of the side to move.
            let reply = pos.legal_moves()[0];
            moves.push(write_move(&pos, reply, Notation::Usi));
            pos.play(reply);
        }
        e.send("quit");
        e.assert_no_errors();
        e.expect_exit();
    }
}

/// What other USI clients send at a game's end, which this client does not: `gameover` stops a
/// ponder search without an answer, and the engine plays the next game after `usinewgame`.
#[test]
fn gameover_then_a_new_game() {
    let mut e = bot_engine();
    e.send("setoption name USI_Variant value chushogi");
    for result in ["win", "lose", "draw"] {
        e.send("usinewgame");
        e.send("position startpos moves 7i7h 6d6e");
        e.send("go ponder btime 2000 wtime 2000 byoyomi 1000");
        std::thread::sleep(Duration::from_millis(200));
        e.send(&format!("gameover {result}"));
        e.send("isready");
        let start = e.seen.len();
        e.expect("readyok");
        assert!(
            e.seen[start..].iter().all(|l| !l.starts_with("bestmove")),
            "bestmove after gameover {result}"
        );
        e.send("position startpos");
        e.send("go btime 0 wtime 0 byoyomi 1000");
        let (best, ponder) = bestmove_words(&e.expect("bestmove"));
        check_legal(
            &Position::startpos(Variant::Chushogi),
            &best,
            ponder.as_deref(),
        );
    }
    e.send("quit");
    e.assert_no_errors();
    e.expect_exit();
}
