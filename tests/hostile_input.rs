//! Hostile input that once aborted the engine (issue 73): a non-ASCII character inside a
//! well-formed SFEN board, a net file cut short inside its header, and a net path that names a
//! device with no end. Each is refused with an error that names it, and a protocol session that
//! is sent one keeps running with its state intact.

mod common;

use common::Transcript;
use shishi::eval::nnue::Network;
use shishi::position::Position;
use shishi::Variant;
use std::time::Duration;

const CHU_START: &str =
    "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

fn chu_error(sfen: &str) -> String {
    Position::from_sfen(Variant::Chushogi, sfen)
        .expect_err(sfen)
        .to_string()
}

#[test]
fn a_non_ascii_character_in_a_sfen_board_is_named() {
    let accented = CHU_START.replacen("lfcsgekgscfl/", "é11/", 1);
    assert!(chu_error(&accented).contains("rank a holds 'é'"));
    let after_plus = CHU_START.replacen("3i4i3", "+\u{fffd}2i4i3", 1);
    assert!(chu_error(&after_plus).contains("rank e holds '\u{fffd}'"));
    let heian = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSN\u{3042} b - 1";
    let err = Position::from_sfen(Variant::Heian, heian).unwrap_err();
    assert!(err.to_string().contains("rank i holds"));
    assert!(Position::from_sfen_any(&accented).is_err());
}

#[test]
fn usi_and_xboard_sessions_survive_a_non_ascii_board() {
    let mut usi = Transcript::shishi();
    usi.send("usi");
    usi.expect("usiok");
    usi.send("position startpos moves 7i7h");
    usi.send(&format!(
        "position sfen {}",
        CHU_START.replacen("lfcsgekgscfl/", "é11/", 1)
    ));
    usi.expect("info string error");
    usi.send("isready");
    usi.expect("readyok");
    // The refused position left the one before it: 7i7h was played, so gote is to move.
    usi.send("go depth 1");
    let best = usi.expect("bestmove");
    assert!(!best.contains("7i7h"), "{best}");
    usi.close();

    let mut xboard = Transcript::shishi();
    xboard.send("xboard");
    xboard.send("protover 2");
    xboard.expect("feature done=1");
    xboard.send("variant chu");
    xboard.send("setboard +\u{00ff}11/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 0 1");
    xboard.expect("tellusererror");
    xboard.send("ping 7");
    assert!(xboard.arrives("pong 7", Duration::from_secs(5)));
    xboard.close();
}

/// A net file's first bytes, magic and version, cut after `len` bytes.
fn header_cut_short(version: u32, len: usize) -> Vec<u8> {
    let mut bytes = b"SHNN".to_vec();
    bytes.extend_from_slice(&version.to_le_bytes());
    bytes.extend_from_slice(&[0, 0]);
    bytes.extend_from_slice(&[0x40; 40]);
    bytes.truncate(len);
    bytes
}

#[test]
fn a_net_header_cut_short_is_refused_by_its_length() {
    for version in 1..=4 {
        for len in 0..=36 {
            // Refused, never a panic; once the version is known, for the header's length.
            let err = Network::from_bytes(&header_cut_short(version, len)).unwrap_err();
            let header = 21 + [0, 1, 5, 9][version as usize - 1];
            if (21..header).contains(&len) {
                assert!(
                    err.to_string().contains("its header says"),
                    "version {version}, {len} bytes: {err}"
                );
            }
        }
    }
}

#[test]
fn a_net_path_that_is_no_regular_file_is_refused_at_once() {
    let err = Network::load(std::path::Path::new("/dev/zero"), None).unwrap_err();
    assert!(err.to_string().contains("not a regular file"), "{err}");
}

#[test]
fn setoption_evalfile_with_a_short_net_leaves_the_engine_running() {
    let dir = std::env::temp_dir().join(format!("shishi-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.nnue");
    std::fs::write(&short, header_cut_short(4, 25)).unwrap();
    let mut usi = Transcript::shishi();
    usi.send("usi");
    usi.expect("usiok");
    usi.send(&format!(
        "setoption name EvalFile value {}",
        short.display()
    ));
    let err = usi.expect("info string");
    assert!(err.contains("its header says"), "{err}");
    usi.send("setoption name EvalFile value /dev/zero");
    let err = usi.expect("info string");
    assert!(err.contains("not a regular file"), "{err}");
    usi.send("isready");
    usi.expect("readyok");
    usi.send("position startpos");
    usi.send("go depth 2");
    usi.expect("bestmove");
    usi.close();
    std::fs::remove_dir_all(&dir).ok();
}

/// A net whose output weights and biases are all at their extremes: its output saturates
/// instead of wrapping, and the search still searches (before, it stopped at depth 0 with a
/// score of 0, its evaluations reading as mates).
#[test]
fn a_net_with_extreme_weights_is_searched_below_the_mate_scores() {
    use shishi::search::{Engine, EngineOptions, EvalOptions, Limits, Score};
    use std::sync::Arc;
    let mut net = Network::from_bytes(shishi_nets::HEIAN).unwrap();
    net.out_weights.iter_mut().for_each(|w| *w = i16::MAX);
    net.out_bias.iter_mut().for_each(|b| *b = i32::MAX);
    net.scale = 100_000;
    let pos = Position::startpos(Variant::Heian);
    let mut engine = Engine::new(EngineOptions {
        hash_mb: 8,
        eval: EvalOptions {
            use_nnue: true,
            file_net: Some(("extreme".to_string(), Arc::new(net))),
        },
        ..EngineOptions::default()
    });
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let result = engine.start(&pos, limits, Box::new(|_| {})).wait();
    assert!(result.best.is_some());
    assert_eq!(result.depth, 4, "{result:?}");
    assert!(matches!(result.score, Score::Cp(_)), "{result:?}");
}

/// A line longer than any command is dropped as it is read (the engine keeps running, its memory
/// bounded), and an error quotes a long token by its start and its length only.
#[test]
fn an_endless_line_is_dropped_and_a_huge_token_is_not_echoed_whole() {
    let mut usi = Transcript::shishi();
    usi.send("usi");
    usi.expect("usiok");
    usi.send(&"x".repeat(17 << 20));
    let dropped = usi.expect("info string error a line of");
    assert!(dropped.contains("17825792 bytes"), "{dropped}");
    usi.send(&format!("{} now", "y".repeat(1 << 20)));
    let echoed = usi.expect("info string error unknown command");
    assert!(
        echoed.len() < 400 && echoed.ends_with(" bytes)"),
        "{echoed}"
    );
    usi.send("isready");
    usi.expect("readyok");
    usi.close();
}

/// A hash table the process cannot have (here under a 4 GB address-space limit, as a container's
/// memory limit sets one) is refused with an error, the old table kept and the engine playing on;
/// before, `USI_Hash 8000` passed the check against half the machine's memory and aborted the
/// process in the allocation.
#[test]
fn a_hash_table_that_cannot_be_had_is_refused_and_the_old_one_kept() {
    if !cfg!(target_os = "linux") {
        return;
    }
    let script = format!("ulimit -v 4000000 && exec {}", env!("CARGO_BIN_EXE_shishi"));
    let mut child = std::process::Command::new("sh")
        .args(["-c", &script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let stdin = child.stdin.as_mut().unwrap();
        writeln!(stdin, "usi\nsetoption name USI_Hash value 8000\nisready").unwrap();
        writeln!(
            stdin,
            "setoption name USI_Hash value 16\nposition startpos\ngo depth 3"
        )
        .unwrap();
        std::thread::sleep(Duration::from_secs(2));
        writeln!(stdin, "quit").unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let text = String::from_utf8_lossy(&out.stdout);
    // Refused by the allocation, or already by the cap where the machine has less to give.
    let refused = text.contains("info string error cannot allocate a hash table of 8000 MiB")
        && text.contains("the table stays 64 MiB");
    let capped = text.contains("info string error") && text.contains("hash size must be 1 to");
    assert!(refused || capped, "{text}");
    assert!(
        text.contains("readyok") && text.contains("bestmove "),
        "{text}"
    );
}
