//! Opening books for matches: reading them, and making them.
//!
//! A book is a text file with one opening a line: a SFEN, optionally followed by
//! `; moves <USI moves>` leading to it from the variant's start position. Given moves, the game
//! starts from the start position with those moves already played, so every engine knows the
//! history (and XBoard engines never need `setboard`); the SFEN must match where they lead.
//! `#` starts a comment. `startpos` is the start position.
//!
//! `generate` makes books: seeded random playouts of quiet moves, each checked so that after
//! every ply the side to move has no capture at all (nothing is left en prise, material stays
//! level), with no promotions, passes or repeated openings.

use crate::board::Variant;
use crate::game::{GameRecord, PlayError};
use crate::notation::{write_move, MoveError, Notation};
use crate::position::{Position, SfenError};
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

/// One opening: the root the game history starts from, the moves already played from it, and
/// the SFEN they reach.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The position the game history starts from: the variant's start position when there are
    /// moves, else the opening position itself.
    pub root: Position,
    /// USI moves played from `root` before the game starts.
    pub moves: Vec<String>,
    /// SFEN of the position the moves reach, where the engines start thinking.
    pub sfen: String,
}

/// Why `Opening::parse` refused a book line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// Something other than `moves` after the `;`.
    #[error("expected '; moves ...' after the SFEN, found '{0}'")]
    NotMoves(String),
    /// The position is not a SFEN of the variant.
    #[error("bad SFEN '{sfen}': {error}")]
    BadSfen {
        /// The position text as given.
        sfen: String,
        /// What is wrong with it.
        error: SfenError,
    },
    /// A move that cannot be played where it stands in the list.
    #[error("opening move {number} {error}")]
    BadMove {
        /// The move's place in the list, from 1.
        number: usize,
        /// Why it was refused; names the move.
        error: MoveError,
    },
    /// The opening's last position ends the game (a royal gone, a fourth repetition...): no
    /// game could be played from it.
    #[error("the opening ends the game: {0}")]
    GameOver(String),
    /// The moves lead somewhere else than the SFEN.
    #[error("the moves lead to {reached}, not to the SFEN given ({given})")]
    WrongPosition {
        /// SFEN of the position the moves reach.
        reached: String,
        /// The SFEN given.
        given: String,
    },
}

/// Why `parse_book` refused a book.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BookError {
    /// A line that is not an opening.
    #[error("line {line}: {error}")]
    Line {
        /// The line number, from 1.
        line: usize,
        /// What is wrong with the line.
        error: OpeningError,
    },
    /// Nothing but comments and blank lines.
    #[error("the book has no openings")]
    Empty,
}

impl Opening {
    /// The variant's start position, with no moves.
    pub fn startpos(variant: Variant) -> Opening {
        let root = Position::startpos(variant);
        Opening {
            sfen: root.to_sfen(),
            root,
            moves: Vec::new(),
        }
    }

    /// Reads one book line (without comment); the error names what is wrong.
    pub fn parse(variant: Variant, line: &str) -> Result<Opening, OpeningError> {
        let (sfen, moves) = match line.split_once(';') {
            Some((s, m)) => (s.trim(), m.trim()),
            None => (line.trim(), ""),
        };
        let moves: Vec<String> = match moves.split_whitespace().collect::<Vec<_>>().split_first() {
            None => Vec::new(),
            Some((&"moves", rest)) => rest.iter().map(|s| s.to_string()).collect(),
            Some((word, _)) => return Err(OpeningError::NotMoves(word.to_string())),
        };
        let target = if sfen == "startpos" {
            Position::startpos(variant)
        } else {
            Position::from_sfen(variant, sfen).map_err(|error| OpeningError::BadSfen {
                sfen: sfen.to_string(),
                error,
            })?
        };
        if moves.is_empty() {
            if let Some(outcome) = GameRecord::new(target.clone()).outcome() {
                return Err(OpeningError::GameOver(outcome.to_string()));
            }
            return Ok(Opening {
                sfen: target.to_sfen(),
                root: target,
                moves,
            });
        }
        // Played through a game record, whose repetition rule and game ends apply.
        let root = Position::startpos(variant);
        let mut game = GameRecord::new(root.clone());
        for (i, m) in moves.iter().enumerate() {
            game.play_text(m, Notation::Usi)
                .map_err(|error| match error {
                    PlayError::Move(error) => OpeningError::BadMove {
                        number: i + 1,
                        error,
                    },
                    PlayError::Game(error) => OpeningError::GameOver(error.to_string()),
                })?;
        }
        if let Some(outcome) = game.outcome() {
            return Err(OpeningError::GameOver(outcome.to_string()));
        }
        let pos = game.position().clone();
        if board_and_side(&pos.to_sfen()) != board_and_side(&target.to_sfen()) {
            return Err(OpeningError::WrongPosition {
                reached: pos.to_sfen(),
                given: sfen.to_string(),
            });
        }
        Ok(Opening {
            sfen: pos.to_sfen(),
            root,
            moves,
        })
    }
}

fn board_and_side(sfen: &str) -> String {
    sfen.split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a whole book; errors give the line number.
pub fn parse_book(variant: Variant, text: &str) -> Result<Vec<Opening>, BookError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let opening = Opening::parse(variant, line)
            .map_err(|error| BookError::Line { line: i + 1, error })?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(BookError::Empty);
    }
    Ok(out)
}

/// Whether the side to move could capture anything.
fn has_capture(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|&m| pos.is_capture(m))
}

/// One random quiet playout of `plies` plies, or `None` if it ran into a position with no quiet
/// continuation.
fn playout(variant: Variant, plies: usize, rng: &mut StdRng) -> Option<(Position, Vec<String>)> {
    let mut pos = Position::startpos(variant);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let mut candidates: Vec<_> = pos
            .legal_moves()
            .into_iter()
            .filter(|&m| !m.is_pass() && !m.is_promotion() && !pos.is_capture(m))
            .collect();
        candidates.shuffle(rng);
        let chosen = candidates.into_iter().find(|&m| {
            let mut after = pos.clone();
            after.play(m);
            !has_capture(&after) && after.outcome().is_none()
        })?;
        moves.push(write_move(&pos, chosen, Notation::Usi));
        pos.play(chosen);
    }
    Some((pos, moves))
}

/// `count` distinct openings of `min_plies..=max_plies` plies (even counts only, so sente is
/// always to move), reproducible from `seed`.
pub fn generate(
    variant: Variant,
    count: usize,
    min_plies: usize,
    max_plies: usize,
    seed: u64,
) -> Vec<Opening> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut attempts = 0;
    while out.len() < count && attempts < count * 100 {
        attempts += 1;
        let plies = rng.gen_range(min_plies / 2..=max_plies / 2) * 2;
        if let Some((pos, moves)) = playout(variant, plies, &mut rng) {
            if seen.insert(pos.key()) {
                out.push(Opening {
                    root: Position::startpos(variant),
                    moves,
                    sfen: pos.to_sfen(),
                });
            }
        }
    }
    out
}

/// A book line for `opening`.
pub fn book_line(opening: &Opening) -> String {
    if opening.moves.is_empty() {
        opening.sfen.clone()
    } else {
        format!("{} ; moves {}", opening.sfen, opening.moves.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opening_that_ends_the_game_is_refused() {
        // The kings step out and back three times: the start position's fourth occurrence.
        let shuffle = "5i4h 5a4b 4h5i 4b5a ".repeat(3);
        let line = format!("startpos ; moves {}", shuffle.trim());
        let err = Opening::parse(Variant::Heian, &line).unwrap_err();
        assert!(
            matches!(&err, OpeningError::GameOver(why) if why.contains("repetition")),
            "{err}"
        );
        // Two rounds are no fourth occurrence: a legal opening.
        let two = "5i4h 5a4b 4h5i 4b5a ".repeat(2);
        assert!(
            Opening::parse(Variant::Heian, &format!("startpos ; moves {}", two.trim())).is_ok()
        );
    }

    #[test]
    fn generated_openings_read_back_and_are_quiet() {
        let book = generate(Variant::Heian, 5, 4, 8, 7);
        assert_eq!(book.len(), 5);
        let text: String = book.iter().map(|o| book_line(o) + "\n").collect();
        let read = parse_book(Variant::Heian, &text).unwrap();
        for (a, b) in book.iter().zip(&read) {
            assert_eq!(a.sfen, b.sfen);
            let pos = Position::from_sfen(Variant::Heian, &b.sfen).unwrap();
            assert!(!has_capture(&pos));
        }
    }

    #[test]
    fn book_errors_name_the_line() {
        let err = parse_book(Variant::Heian, "startpos\nstartpos ; moves 7g7f 9z9y\n").unwrap_err();
        assert!(
            matches!(
                &err,
                BookError::Line {
                    line: 2,
                    error: OpeningError::BadMove { number: 2, .. }
                }
            ),
            "{err:?}"
        );
        let text = err.to_string();
        assert!(text.starts_with("line 2: opening move 2"), "{text}");
        assert!(text.contains("9z9y"), "{text}");
        assert_eq!(
            parse_book(Variant::Heian, "# nothing\n").unwrap_err(),
            BookError::Empty
        );
    }

    #[test]
    fn opening_errors_name_the_bad_token() {
        let heian = Variant::Heian;
        let err = Opening::parse(heian, "startpos ; mvoes 7g7f").unwrap_err();
        assert_eq!(err, OpeningError::NotMoves("mvoes".into()));
        assert!(err.to_string().contains("found 'mvoes'"), "{err}");
        let err = Opening::parse(heian, "nonsense/9 b - 1").unwrap_err();
        assert!(matches!(err, OpeningError::BadSfen { .. }), "{err:?}");
        assert!(err.to_string().contains("'nonsense/9 b - 1'"), "{err}");
        let err = Opening::parse(heian, "startpos ; moves 7g7f").unwrap_err();
        assert!(matches!(err, OpeningError::WrongPosition { .. }), "{err:?}");
        let text = err.to_string();
        assert!(
            text.contains(" w - 2, not to the SFEN given (startpos)"),
            "{text}"
        );
    }
}
