//! Lengthens a Chu tsume by retro-analysis: from a problem P (sente to move, a mate in N plies),
//! builds the positions Q one sente check and one gote answer before it (Q, check, answer, P),
//! so that Q may be a mate in N + 2, and asks the solver which are. Three kinds of Q:
//! - **un-moved**: the gote King one square away, and one sente piece of P moved back to an
//!   empty square from which a legal move returns it and checks the King (directly or by
//!   discovery), a promoted piece optionally unpromoted there (the move then promotes);
//! - **sacrifice**: the gote King one square away, and a sente piece of any kind on an empty
//!   square from which it moves onto the King's square of P with check; the King takes it;
//! - **recapture**: a gote piece of P near the King or on a line from it stands elsewhere, and a
//!   sente piece of any kind moves onto the gote piece's square of P with check; the gote piece
//!   takes it there.
//!
//! Each Q is kept only if such a pair of moves leads from it to P exactly. A short solve
//! (`quick_ms`) drops those with a mate shorter than `min` plies; the rest get a full solve
//! (`full_ms`), and each proven mate of at least `min` plies, verified, is printed as
//! `SFEN ; plies` (marked when minimality was not proven). Chained (an output fed back in), it
//! adds two plies a step where the position allows it (docs/tsume.md, "What is left").
//!
//! `cargo run --release --example make_retro_tsume -- '<sfen>' <min> [quick_ms] [full_ms]`

use shishi::movegen::{generate, MoveList};
use shishi::tsume::{solve, verify, MateLimits, MateOutcome};
use shishi::{Color, Position, Variant};
use std::collections::HashSet;
use std::time::Duration;

const SIZE: usize = 12;

/// The sente piece letters of Chu that are not royal, as SFEN spells them.
const SENTE_KINDS: [&str; 37] = [
    "P", "I", "C", "S", "G", "F", "E", "L", "A", "T", "B", "R", "V", "M", "X", "O", "H", "D", "N",
    "Q", "+P", "+I", "+C", "+S", "+G", "+F", "+L", "+A", "+T", "+B", "+R", "+V", "+M", "+X", "+O",
    "+H", "+D",
];

type Grid = Vec<Option<String>>;

fn parse(board: &str) -> Grid {
    let mut cells = Vec::with_capacity(SIZE * SIZE);
    for row in board.split('/') {
        let bytes = row.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i].is_ascii_digit() {
                let mut j = i;
                while j < bytes.len() && bytes[j].is_ascii_digit() {
                    j += 1;
                }
                let n: usize = row[i..j].parse().expect("count");
                cells.extend(std::iter::repeat_n(None, n));
                i = j;
            } else if bytes[i] == b'+' {
                cells.push(Some(row[i..i + 2].to_string()));
                i += 2;
            } else {
                cells.push(Some(row[i..i + 1].to_string()));
                i += 1;
            }
        }
    }
    assert_eq!(cells.len(), SIZE * SIZE, "a 12x12 board");
    cells
}

fn unparse(cells: &Grid) -> String {
    let mut rows = Vec::new();
    for row in cells.chunks(SIZE) {
        let (mut s, mut empty) = (String::new(), 0);
        for c in row {
            match c {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        s += &empty.to_string();
                        empty = 0;
                    }
                    s += p;
                }
            }
        }
        if empty > 0 {
            s += &empty.to_string();
        }
        rows.push(s);
    }
    rows.join("/")
}

fn board_of(pos: &Position) -> String {
    pos.to_sfen()
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string()
}

fn neighbours(sq: usize) -> impl Iterator<Item = usize> {
    let (r, f) = ((sq / SIZE) as i32, (sq % SIZE) as i32);
    (-1..=1)
        .flat_map(move |dr| (-1..=1).map(move |df| (r + dr, f + df)))
        .filter(move |&(rr, ff)| {
            (rr, ff) != (r, f) && (0..SIZE as i32).contains(&rr) && (0..SIZE as i32).contains(&ff)
        })
        .map(|(rr, ff)| rr as usize * SIZE + ff as usize)
}

/// Whether some sente check from `q`, answered by some gote move, gives `target` exactly (sente
/// has no royal, so its moves come from the generator, not `legal_moves`).
fn leads_to(q: &Position, target: &str) -> bool {
    if q.in_check(Color::Gote) {
        return false;
    }
    let mut pos = q.clone();
    let mut moves = MoveList::new();
    generate(q, &mut moves);
    for mv in moves {
        pos.play(mv);
        if pos.in_check(Color::Gote) {
            for reply in pos.legal_moves() {
                pos.play(reply);
                let hit = board_of(&pos) == target;
                pos.undo();
                if hit {
                    pos.undo();
                    return true;
                }
            }
        }
        pos.undo();
    }
    false
}

/// The positions found so far that lead to the problem, each once.
struct Found {
    target: String,
    seen: HashSet<String>,
    out: Vec<String>,
}

impl Found {
    fn consider(&mut self, q: &Grid) {
        let sfen = format!("{} b - 1", unparse(q));
        if !self.seen.insert(sfen.clone()) {
            return;
        }
        if let Ok(pos) = Position::from_sfen(Variant::Chushogi, &sfen) {
            if leads_to(&pos, &self.target) {
                self.out.push(sfen);
            }
        }
    }
}

fn position(grid: &Grid) -> Option<Position> {
    Position::from_sfen(Variant::Chushogi, &format!("{} b - 1", unparse(grid))).ok()
}

/// Whether some sente move in `grid` gives the board `after`.
fn sente_reaches(grid: &Grid, after: &str) -> bool {
    let Some(mut pos) = position(grid) else {
        return false;
    };
    let mut moves = MoveList::new();
    generate(&pos, &mut moves);
    moves.into_iter().any(|mv| {
        pos.play(mv);
        let hit = board_of(&pos) == after;
        pos.undo();
        hit
    })
}

fn is_sente(cell: &Option<String>) -> bool {
    cell.as_deref()
        .is_some_and(|t| t.chars().any(|c| c.is_ascii_uppercase()))
}

/// Q with the King one square away: a sente piece moved back (un-moved) or a sente piece of any
/// kind that moves onto the King's square and is taken there (sacrifice).
fn king_moves_back(p: &Grid, king: usize, found: &mut Found) {
    let empties: Vec<usize> = (0..SIZE * SIZE).filter(|&i| p[i].is_none()).collect();
    let sente: Vec<usize> = (0..SIZE * SIZE).filter(|&i| is_sente(&p[i])).collect();
    for k0 in neighbours(king).filter(|&k0| p[k0].is_none()) {
        let mut base = p.clone();
        base[king] = None;
        base[k0] = Some("k".into());
        for &t in &sente {
            let piece = p[t].clone().expect("piece");
            let mut forms = vec![piece.clone()];
            if let Some(plain) = piece.strip_prefix('+') {
                forms.push(plain.to_string());
            }
            for &s in empties.iter().filter(|&&s| s != k0) {
                for form in &forms {
                    let mut q = base.clone();
                    q[t] = None;
                    q[s] = Some(form.clone());
                    found.consider(&q);
                }
            }
        }
        for &s in empties.iter().filter(|&&s| s != k0) {
            for kind in SENTE_KINDS {
                let mut q = base.clone();
                q[s] = Some(kind.to_string());
                found.consider(&q);
            }
        }
    }
}

/// Q with a gote piece of P (near the King or on a line from it) one move back: a sente piece
/// of any kind moves onto its square with check, and the gote piece takes it there.
fn gote_piece_takes(p: &Grid, king: usize, found: &mut Found) {
    let empties: Vec<usize> = (0..SIZE * SIZE).filter(|&i| p[i].is_none()).collect();
    let (kr, kf) = ((king / SIZE) as i32, (king % SIZE) as i32);
    let near = |u: usize| {
        let (r, f) = ((u / SIZE) as i32, (u % SIZE) as i32);
        let (dr, df) = (r - kr, f - kf);
        dr.abs().max(df.abs()) <= 2 || dr == 0 || df == 0 || dr.abs() == df.abs()
    };
    for u in (0..SIZE * SIZE).filter(|&u| u != king && near(u)) {
        let Some(piece) = p[u].clone() else { continue };
        if is_sente(&p[u]) {
            continue;
        }
        let mut without = p.clone();
        without[u] = None;
        for kind in SENTE_KINDS {
            let mut checking = without.clone();
            checking[u] = Some(kind.to_string());
            if !position(&checking).is_some_and(|pos| pos.in_check(Color::Gote)) {
                continue;
            }
            let after = unparse(&checking);
            for &s in &empties {
                let mut from_s = without.clone();
                from_s[s] = Some(kind.to_string());
                if !sente_reaches(&from_s, &after) {
                    continue;
                }
                for &v in empties.iter().filter(|&&v| v != s) {
                    let mut q = from_s.clone();
                    q[v] = Some(piece.clone());
                    found.consider(&q);
                }
            }
        }
    }
}

fn candidates(p: &Grid) -> Vec<String> {
    let king = p
        .iter()
        .position(|c| c.as_deref() == Some("k"))
        .expect("a gote King");
    let mut found = Found {
        target: unparse(p),
        seen: HashSet::new(),
        out: Vec::new(),
    };
    king_moves_back(p, king, &mut found);
    gote_piece_takes(p, king, &mut found);
    found.out
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: make_retro_tsume '<sfen>' <min plies> [quick_ms] [full_ms]";
    let sfen = args.get(1).expect(usage);
    let min: usize = args.get(2).expect(usage).parse().expect("min plies");
    let quick = args.get(3).map_or(1500, |n| n.parse().expect("quick_ms"));
    let full = args.get(4).map_or(180_000, |n| n.parse().expect("full_ms"));
    let board = sfen.split_whitespace().next().expect(usage);
    let qs = candidates(&parse(board));
    eprintln!("{} positions lead to the problem", qs.len());
    for q in qs {
        let pos = Position::from_sfen(Variant::Chushogi, &q).expect("checked");
        let limits = |ms: u64| MateLimits {
            time: Some(Duration::from_millis(ms)),
            table_mb: 256,
            ..MateLimits::default()
        };
        let first = solve(&pos, limits(quick));
        match &first.outcome {
            MateOutcome::Mate(line) if line.len() < min => {
                eprintln!("short {:4}: {q}", line.len());
                continue;
            }
            MateOutcome::NoMate => {
                eprintln!("no mate: {q}");
                continue;
            }
            _ => {}
        }
        let report = solve(&pos, limits(full));
        match &report.outcome {
            MateOutcome::Mate(line) => {
                let ok =
                    verify(&pos, &report.proof, line.len(), shishi::tsume::Royals::All).is_ok();
                let note = if report.shortest {
                    ""
                } else {
                    "  # shortest not proven"
                };
                let verdict = if ok { "" } else { "  # REJECTED" };
                eprintln!(
                    "mate {:4} in {:.1} s: {q}",
                    line.len(),
                    report.elapsed.as_secs_f64()
                );
                if line.len() >= min {
                    println!("{q} ; {}{note}{verdict}", line.len());
                }
            }
            other => eprintln!("{other:?}: {q}"),
        }
    }
}
