//! shishi under `RuleSet=hachu` and the real HaChu 0.21 (`/usr/games/hachu`, Debian package
//! `hachu`) agree on which moves are legal: promotions inside and into the zone, last-rank pawns
//! and lances, distant and bridge lion captures, counter-strikes (reached by playing the
//! capture, since HaChu's `setboard` has no counter-strike field), a kirin promoting to Lion
//! and retaken, passes and repeated positions, and a pawn that declined a promotion (HaChu then
//! lets it promote only by capturing onto the last rank).
//!
//! Candidates per case: every legal move shishi generates, each one's promotion twin, and
//! named illegal moves. HaChu is asked with `usermove` after replaying the case; `ping`/`pong`
//! marks the end of each answer. One HaChu process serves all cases.
//!
//! HaChu accepts the unpromoted spelling of a forced last-rank promotion and plays the
//! promotion; that spelling is compared by its effect (`forced_promotion_spelling_is_the_promotion`).
//!
//! Without HaChu the test fails with a message saying how to install it.

use shishi::game::GameRecord;
use shishi::notation::{IllegalMove, Notation};
use shishi::position::Position;
use shishi::rules::Preset;
use shishi::Variant;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

const HACHU: &str = "/usr/games/hachu";

struct HaChu {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    pings: u32,
}

impl HaChu {
    fn start() -> HaChu {
        let mut child = Command::new(HACHU)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "\n\n*** HaChu agreement test needs {HACHU} ({e}); install it with `apt-get install hachu` ***\n\n"
                )
            });
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        let mut h = HaChu {
            child,
            input,
            output,
            pings: 0,
        };
        h.send("xboard");
        h.send("protover 2");
        h.sync();
        h
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("HaChu accepts input");
    }

    /// Everything HaChu printed up to the answer to a fresh `ping`.
    fn sync(&mut self) -> Vec<String> {
        self.pings += 1;
        let pong = format!("pong {}", self.pings);
        self.send(&format!("ping {}", self.pings));
        self.input.flush().unwrap();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self
                .output
                .read_line(&mut line)
                .expect("HaChu output is readable");
            assert!(n > 0, "HaChu exited; its output: {lines:?}");
            let line = line.trim_end().to_string();
            if line == pong {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Sets up `board` with sente to move, plays `moves`, then tries `candidate`.
    fn accepts(&mut self, board: &str, moves: &[&str], candidate: &str) -> bool {
        for cmd in ["new", "variant chu", "memory 64", "force"] {
            self.send(cmd);
        }
        self.send(&format!("setboard {board}"));
        for mv in moves {
            self.send(&format!("usermove {mv}"));
            let out = self.sync();
            assert!(
                !out.iter().any(|l| l.starts_with("Illegal move")),
                "HaChu refused setup move {mv} in {board}"
            );
        }
        self.send(&format!("usermove {candidate}"));
        !self.sync().iter().any(|l| l.starts_with("Illegal move"))
    }
}

impl Drop for HaChu {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

struct Case {
    name: &'static str,
    board: &'static str,
    moves: &'static [&'static str],
    /// Moves to try besides the generated ones (typically illegal).
    extra: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "last-rank pawns and lances (reference position 12)",
        board: "3PLskgp3/2P5P3/1L10/1p7p2/12/12/12/12/2P7P1/12/12/4GKS5",
        moves: &[],
        extra: &["c11c12+", "b10b12+", "b10b11+", "d12d11"],
    },
    Case {
        name: "promotion zone edge (reference position 11)",
        board: "5skg4/2p1P3b3/g7R2r/1pB6p2/3G2S4L/V11/12/12/2P7P1/12/12/4GKS5",
        moves: &[],
        extra: &[],
    },
    Case {
        name: "distant and bridge lion captures (reference position 5)",
        board: "5skg4/12/12/1p7p2/6g5/6n5/5p1s4/6N5/2P7P1/12/12/4GKS5",
        moves: &[],
        extra: &["g5g7", "g5f6,f6g7", "g5h6,h6g7"],
    },
    Case {
        name: "go-between and pawn as first victims (reference position 7)",
        board: "5skg4/12/12/1p7p2/6i5/6n5/5p1i4/6N5/2P7P1/12/12/4GKS5",
        moves: &[],
        extra: &["g5g7", "g5f6,f6g7", "g5h6,h6g7"],
    },
    Case {
        name: "counter-strike after a rook takes a lion (reference position 8)",
        board: "5skg4/9r2/12/1p4n2p2/12/12/12/9N2/2P7P1/6R5/12/4GKS5",
        moves: &["g3g9"],
        extra: &["j11j5"],
    },
    Case {
        name: "kirin promoting to lion, then a gold would retake",
        board: "5skg4/7g4/6n5/12/6O5/12/12/12/2P7P1/12/12/4GKS5",
        moves: &["g8g10+"],
        extra: &["h11g10"],
    },
    Case {
        name: "kirin capturing a lion without promoting is retaken freely",
        board: "5skg4/7g4/6n5/12/6O5/12/12/12/2P7P1/12/12/4GKS5",
        moves: &["g8g10"],
        extra: &["h11g10"],
    },
    Case {
        name: "a pawn that entered the zone unpromoted, then meets a gold in the zone",
        board: "2g2skg4/12/2g9/12/2P9/12/12/12/12/12/12/4GKS5",
        moves: &["c8c9", "g12g11"],
        extra: &["c9c10+"],
    },
    Case {
        name: "that pawn one step before capturing onto the last rank",
        board: "2g2skg4/12/2g9/12/2P9/12/12/12/12/12/12/4GKS5",
        moves: &["c8c9", "g12g11", "c9c10", "g11g12", "c10c11", "g12g11"],
        extra: &["c11c12+", "c11c12"],
    },
    Case {
        name: "passes and lion shuffles repeating the position",
        board: "1s1k8/12/12/6n5/12/12/12/6N5/1P10/12/12/5SKG4",
        moves: &["g5g6", "g9g8", "g6g5"],
        extra: &["@@@@", "g8g9"],
    },
    Case {
        name: "a pass repeating the position",
        board: "1s1k8/12/12/6n5/12/12/12/6N5/1P10/12/12/5SKG4",
        moves: &["@@@@"],
        extra: &["@@@@"],
    },
];

fn shishi_game(case: &Case) -> GameRecord {
    let variant = Variant::from_name("chushogi").unwrap();
    let pos = Position::from_sfen(variant, &format!("{} b - 1", case.board)).unwrap();
    let mut game = GameRecord::new(pos.with_rules(Preset::Hachu.rules()));
    for mv in case.moves {
        let m = game
            .parse(mv, Notation::Xboard)
            .unwrap_or_else(|e| panic!("{}: setup move {mv}: {e}", case.name));
        game.play(m).unwrap();
    }
    game
}

/// A pawn or lance move onto the last rank without `+` where the promotion is legal: HaChu
/// reads it as the promotion.
fn is_unpromoted_spelling_of_forced_promotion(game: &GameRecord, text: &str) -> bool {
    !text.ends_with('+')
        && game.parse(text, Notation::Xboard).is_err()
        && game.parse(&format!("{text}+"), Notation::Xboard).is_ok()
}

#[test]
fn shishi_and_hachu_agree_on_legal_moves() {
    if std::env::var_os("CI").is_none() && !std::path::Path::new(HACHU).exists() {
        eprintln!(
            "\n*** {HACHU} is missing: install the Debian package `hachu` to run this test ***\n"
        );
    }
    let mut hachu = HaChu::start();
    let mut disagreements = Vec::new();
    let mut asked = 0;
    for case in CASES {
        let game = shishi_game(case);
        let mut candidates: Vec<String> = Vec::new();
        for mv in game.position().legal_moves() {
            let text = game.write(mv, Notation::Xboard);
            if !text.contains(',') && !text.starts_with('@') {
                let twin = match text.strip_suffix('+') {
                    Some(plain) => plain.to_string(),
                    None => format!("{text}+"),
                };
                candidates.push(twin);
            }
            candidates.push(text);
        }
        candidates.extend(case.extra.iter().map(|s| s.to_string()));
        candidates.sort();
        candidates.dedup();
        for c in &candidates {
            if is_unpromoted_spelling_of_forced_promotion(&game, c) {
                continue;
            }
            // shishi's reader tolerates a `+` on a piece that cannot promote; only a reading
            // with the promotion the text asks for counts as accepting it.
            let ours = game
                .parse(c, Notation::Xboard)
                .is_ok_and(|mv| mv.is_promotion() == c.ends_with('+'));
            let theirs = hachu.accepts(case.board, case.moves, c);
            asked += 1;
            if ours != theirs {
                disagreements.push(format!("{}: {c}: shishi {ours}, HaChu {theirs}", case.name));
            }
        }
    }
    assert!(asked > 300, "only {asked} moves compared");
    assert!(
        disagreements.is_empty(),
        "disagreements:\n{}",
        disagreements.join("\n")
    );
}

#[test]
fn forced_promotion_spelling_is_the_promotion() {
    // The 4b pawn takes the 4a pawn: shishi requires the `+`, HaChu accepts `i11i12` and plays
    // the promotion, after which the piece on 4a moves like a Gold (sideways).
    let case = &CASES[0];
    let game = shishi_game(case);
    let err = game.parse("i11i12", Notation::Xboard).unwrap_err();
    assert!(
        matches!(err.reason, IllegalMove::MustPromote { .. }),
        "{}",
        err.reason
    );
    assert!(err.to_string().contains("must promote"), "{err}");
    assert!(game.parse("i11i12+", Notation::Xboard).is_ok());
    let mut hachu = HaChu::start();
    assert!(hachu.accepts(case.board, &["i11i12", "g12g11"], "i12h12"));
    // Control: a pawn stepping onto the empty 10a stays a pawn and cannot step aside.
    assert!(!hachu.accepts(case.board, &["c11c12", "g12g11"], "c12b12"));
}
