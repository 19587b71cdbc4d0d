//! Writes the match opening books `positions/openings-chu.epd`,
//! `positions/openings-heian.epd` and `positions/openings-chu-heldout.epd`, reproducibly: `cargo run --release --example make_openings`.
//! How the openings are made is written at the top of each file (see
//! `shishi::matchplay::openings::generate`).

use shishi::board::Variant;
use shishi::matchplay::openings::{book_line, generate};

struct Book {
    path: &'static str,
    variant: Variant,
    count: usize,
    min_plies: usize,
    max_plies: usize,
    seed: u64,
    /// Why the book exists, where it is not the family's match book.
    purpose: Option<&'static str>,
}

const BOOKS: [Book; 3] = [
    Book {
        path: "positions/openings-chu.epd",
        variant: Variant::Chushogi,
        count: 60,
        min_plies: 6,
        max_plies: 12,
        seed: 2024,
        purpose: None,
    },
    Book {
        path: "positions/openings-heian.epd",
        variant: Variant::Heian,
        count: 60,
        min_plies: 4,
        max_plies: 8,
        seed: 2025,
        purpose: None,
    },
    Book {
        path: "positions/openings-chu-heldout.epd",
        variant: Variant::Chushogi,
        count: 60,
        min_plies: 6,
        max_plies: 12,
        seed: 2026,
        purpose: Some(
            "# Held out: no game in shishi's training data starts here. Nets that learnt from match\n\
             # games (which start from openings-chu.epd) are checked on these openings instead.\n",
        ),
    },
];

fn main() -> std::io::Result<()> {
    for b in &BOOKS {
        let openings = generate(b.variant, b.count, b.min_plies, b.max_plies, b.seed);
        let mut text = format!(
            "# Match openings for {variant}, made by shishi itself:\n\
             #   cargo run --release --example make_openings\n\
             # {n} distinct random playouts from the start position of {min} to {max} plies (even,\n\
             # so sente is to move), seed {seed} (rand StdRng). Every ply is a quiet legal move (no\n\
             # capture, promotion or pass) chosen at random among those after which the side to\n\
             # move has no capture at all, so no piece is left en prise and material stays level.\n\
             # Format: SFEN ; moves <the USI moves from the start position>. `shishi match` plays\n\
             # each opening twice with colours swapped, sending the moves (not the SFEN) to engines.\n",
            variant = b.variant.name(),
            n = openings.len(),
            min = b.min_plies,
            max = b.max_plies,
            seed = b.seed,
        );
        text.push_str(b.purpose.unwrap_or(""));
        for o in &openings {
            text.push_str(&book_line(o));
            text.push('\n');
        }
        std::fs::write(b.path, text)?;
        eprintln!("{}: {} openings", b.path, openings.len());
    }
    Ok(())
}
