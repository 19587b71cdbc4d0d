//! A scripted, deterministic engine for testing the match runner (`tests/match_runner.rs`).
//! It speaks USI or XBoard (whichever command comes first), plays legal moves chosen without
//! randomness (a capture if it has one, else a move picked by the position's key), and can be
//! told to misbehave on its N-th move of a game:
//! `fake_engine [--fault crash|illegal|slow|garbage|noready] [--after N] [--name NAME]
//! [--variants a,b,c] [--log FILE]`.
//! `--variants` is the variant list it declares (USI combo, XBoard `feature variants`); a
//! `VariantPath` option set to a name adds that name to the list, announced again only when
//! asked (`usi`) or, in XBoard, by a new `feature variants` line, as Fairy-Stockfish does with a
//! variant file. `--log` appends every line the engine receives to FILE, so tests can see the
//! clocks and options it was given.

use shishi::board::Variant;
use shishi::moves::Move;
use shishi::notation::{parse_move, write_move, Notation};
use shishi::position::Position;
use std::io::{BufRead, Write};
use std::time::Duration;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Crash,
    Illegal,
    Slow,
    Garbage,
    /// Never answers `isready`.
    NoReady,
}

struct Fake {
    fault: Fault,
    after: u32,
    name: String,
    variant: Variant,
    pos: Position,
    moves_this_game: u32,
    xboard: bool,
    force: bool,
    variants: Vec<String>,
    log: Option<std::fs::File>,
}

fn choose(pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    if let Some(&m) = moves.iter().find(|&&m| pos.is_capture(m)) {
        return Some(m);
    }
    Some(moves[(pos.key() % moves.len() as u64) as usize])
}

impl Fake {
    fn out(&self, line: &str) {
        let mut o = std::io::stdout().lock();
        let _ = writeln!(o, "{line}");
        let _ = o.flush();
    }

    /// An illegal move: from an empty square to another empty square.
    fn illegal_move(&self, notation: Notation) -> String {
        let v = self.variant;
        let empties: Vec<_> = shishi::Square::all()
            .filter(|&sq| v.board().has(sq) && self.pos.piece_at(sq).is_none())
            .take(2)
            .collect();
        let name = |sq| match notation {
            Notation::Usi => shishi::notation::usi_square(v, sq),
            Notation::Xboard => shishi::notation::xboard_square(v, sq),
        };
        format!("{}{}", name(empties[0]), name(empties[1]))
    }

    /// The engine's answer for its move, or None when it has no legal move.
    fn think(&mut self) -> Option<String> {
        self.moves_this_game += 1;
        let notation = if self.xboard {
            Notation::Xboard
        } else {
            Notation::Usi
        };
        if self.moves_this_game == self.after {
            match self.fault {
                Fault::None | Fault::NoReady => {}
                Fault::Crash => std::process::exit(3),
                Fault::Illegal => return Some(self.illegal_move(notation)),
                Fault::Slow => std::thread::sleep(Duration::from_secs(30)),
                Fault::Garbage => {
                    let mut o = std::io::stdout().lock();
                    let _ = o.write_all(b"\xff\xfe garbage \x00\x01 bestmove\n??? move\n");
                    let _ = o.flush();
                    return Some("zz9!".to_string());
                }
            }
        }
        let mv = choose(&self.pos)?;
        let text = write_move(&self.pos, mv, notation);
        self.pos.play(mv);
        Some(text)
    }

    fn usi(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("usi") => {
                self.out(&format!("id name {}", self.name));
                let vars: String = self.variants.iter().map(|v| format!(" var {v}")).collect();
                self.out(&format!(
                    "option name USI_Variant type combo default chushogi{vars}"
                ));
                self.out("option name VariantPath type string default <empty>");
                self.out("usiok");
            }
            Some("isready") if self.fault != Fault::NoReady => self.out("readyok"),
            Some("isready") => {}
            Some("setoption") => {
                if let (Some(n), Some(v)) = (words.get(2), words.get(4)) {
                    if *n == "VariantPath" {
                        self.variants.push(v.to_string());
                    }
                    if *n == "USI_Variant" {
                        if let Some(var) = Variant::from_name(v) {
                            self.variant = var;
                        }
                    }
                }
            }
            Some("usinewgame") => self.moves_this_game = 0,
            Some("position") => {
                let (sfen, moves) = match line.split_once(" moves ") {
                    Some((a, b)) => (a, b),
                    None => (line, ""),
                };
                let sfen = sfen.trim_start_matches("position").trim();
                let sfen = sfen.trim_start_matches("sfen").trim();
                self.pos = if sfen == "startpos" {
                    Position::startpos(self.variant)
                } else {
                    Position::from_sfen(self.variant, sfen)
                        .unwrap_or_else(|_| Position::startpos(self.variant))
                };
                for m in moves.split_whitespace() {
                    if let Ok(mv) = parse_move(&self.pos, m, Notation::Usi) {
                        self.pos.play(mv);
                    }
                }
            }
            Some("go") => match self.think() {
                Some(m) => self.out(&format!("info depth 1 score cp 0\nbestmove {m}")),
                None => self.out("bestmove resign"),
            },
            Some("quit") => std::process::exit(0),
            _ => {}
        }
    }

    fn xboard_cmd(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("protover") => self.out(&format!(
                "feature myname=\"{}\" ping=1 setboard=1 usermove=1 sigint=0 sigterm=0 variants=\"{}\" done=1",
                self.name,
                self.variants.join(",")
            )),
            Some("option") => {
                if let Some(v) = line.strip_prefix("option VariantPath=") {
                    self.variants.push(v.trim().to_string());
                    self.out(&format!("feature variants=\"{}\"", self.variants.join(",")));
                }
            }
            Some("new") => {
                self.pos = Position::startpos(self.variant);
                self.moves_this_game = 0;
                self.force = false;
            }
            Some("variant") => {
                if let Some(v) = words.get(1).and_then(|v| Variant::from_name(v)) {
                    self.variant = v;
                    self.pos = Position::startpos(v);
                }
            }
            Some("force") => self.force = true,
            Some("setboard") => {
                let fen = line.trim_start_matches("setboard").trim();
                if let Ok(p) = Position::from_xboard_fen(self.variant, fen) {
                    self.pos = p;
                }
            }
            Some("ping") => self.out(&format!("pong {}", words.get(1).unwrap_or(&""))),
            Some("usermove") => {
                let text = words.get(1).copied().unwrap_or("");
                match parse_move(&self.pos, text, Notation::Xboard) {
                    Ok(mv) => {
                        self.pos.play(mv);
                        if !self.force {
                            self.xboard_go();
                        }
                    }
                    Err(e) => self.out(&format!("Illegal move ({}): {text}", e.reason)),
                }
            }
            Some("go") => {
                self.force = false;
                self.xboard_go();
            }
            Some("quit") => std::process::exit(0),
            _ => {}
        }
    }

    fn xboard_go(&mut self) {
        match self.think() {
            Some(m) => {
                self.out("1 0 1 10 thinking");
                let legs: Vec<&str> = m.split(',').collect();
                for (i, leg) in legs.iter().enumerate() {
                    let comma = if i + 1 < legs.len() { "," } else { "" };
                    self.out(&format!("move {leg}{comma}"));
                }
            }
            None => self.out("resign"),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let fault = match value("--fault").as_deref() {
        Some("crash") => Fault::Crash,
        Some("illegal") => Fault::Illegal,
        Some("slow") => Fault::Slow,
        Some("garbage") => Fault::Garbage,
        Some("noready") => Fault::NoReady,
        _ => Fault::None,
    };
    let mut fake = Fake {
        fault,
        after: value("--after").and_then(|s| s.parse().ok()).unwrap_or(1),
        name: value("--name").unwrap_or_else(|| "fake".to_string()),
        variant: Variant::Chushogi,
        pos: Position::startpos(Variant::Chushogi),
        moves_this_game: 0,
        xboard: false,
        force: false,
        variants: value("--variants")
            .unwrap_or_else(|| "chushogi,chu,heian,heian8x8".to_string())
            .split(',')
            .map(str::to_string)
            .collect(),
        log: value("--log").map(|path| {
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .expect("log file")
        }),
    };
    let stdin = std::io::stdin();
    let mut first = true;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if let Some(log) = fake.log.as_mut() {
            let _ = writeln!(log, "{line}");
        }
        if first && !line.is_empty() {
            fake.xboard = line == "xboard";
            first = false;
        }
        if fake.xboard {
            fake.xboard_cmd(&line);
        } else {
            fake.usi(&line);
        }
    }
}
