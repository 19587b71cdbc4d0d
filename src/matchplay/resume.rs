//! Continuing a match from its own PGN: an SPRT stopped to make room for another test, or cut
//! off by a reboot, picks up where it was instead of starting over. The PGN is the only record a
//! match keeps, and each game's `[Round]` (its number from 1), `[Result]` and `[Termination]`
//! say all the statistics need: game `n`'s pair and colours follow from `n` (see `schedule`), so
//! a resumed match counts the past games exactly as the first run did and plays only the games
//! missing. `[White]`/`[Black]` are checked so that a PGN of another pairing is refused rather
//! than mixed in, and `[FEN]` so that a game from another opening book is refused rather than
//! counted as the game its number names.

use super::game_end::EndReason;
use super::{pgn, pgn_read, schedule};
use crate::board::Color;
use crate::position::OutcomeReason;
use std::collections::BTreeMap;

/// A game of an earlier run of the match, as its PGN record tells it.
#[derive(Clone, Debug, PartialEq)]
pub struct PastGame {
    /// Game number from 0.
    pub index: usize,
    /// The first engine's score: 1, 0.5 or 0.
    pub first_score: f64,
    /// The engine charged with a failure (0: first) and its slot (0 illegal move, 1 crash,
    /// 2 time forfeit), if the game ended that way.
    pub failure: Option<(usize, usize)>,
}

/// Why a PGN cannot be resumed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResumeError {
    /// A record lacks a tag the statistics need, or its value does not read.
    #[error("PGN record {record}: {what}")]
    BadRecord {
        /// The record's place in the file, from 1.
        record: usize,
        /// What is missing or wrong.
        what: String,
    },
    /// The same game number appears twice.
    #[error("PGN records {first} and {second} are both game {round}")]
    Duplicate {
        /// The game number (`[Round]`).
        round: usize,
        /// The first record holding it.
        first: usize,
        /// The second one.
        second: usize,
    },
    /// The record was played by other engines, another variant, or is past the match's length.
    #[error("PGN record {record} (game {round}) does not belong to this match: {why}")]
    Foreign {
        /// The record's place in the file, from 1.
        record: usize,
        /// Its game number.
        round: usize,
        /// What differs.
        why: String,
    },
}

/// What a resumed match must agree with.
pub struct ResumeCheck<'a> {
    /// The variant's XBoard name, as `[Variant]` has it.
    pub variant: &'a str,
    /// The labels the engines play under (first engine first), where the command line gives
    /// them; an engine without a label must keep one name throughout the file.
    pub labels: [Option<&'a str>; 2],
    /// Games in the match.
    pub games: usize,
    /// The SFEN each opening of the book starts the engines from, in book order (at least one).
    pub openings: &'a [&'a str],
}

/// The failure slot (`MatchSummary::failures`) of the ending a PGN `[Termination]` names, as
/// `pgn` writes it.
fn failure_slot(termination: &str) -> Option<usize> {
    [
        EndReason::Rules(OutcomeReason::IllegalMove),
        EndReason::Crash,
        EndReason::Timeout,
    ]
    .into_iter()
    .find(|&reason| pgn::termination(reason) == termination)
    .and_then(super::failure_slot)
}

/// Reads the finished games of a match's PGN, checking that each belongs to `check`'s match.
/// A record whose result is `*` (unfinished) is left out: that game is played again.
pub fn read_past_games(text: &str, check: &ResumeCheck) -> Result<Vec<PastGame>, ResumeError> {
    let mut by_index: BTreeMap<usize, (usize, PastGame)> = BTreeMap::new();
    let mut seen_names: [Option<String>; 2] = [None, None];
    for (n, pgn_record) in pgn_read::read_records(text).iter().enumerate() {
        let tags = &pgn_record.tags;
        let record = n + 1;
        let Some(game) = read_record(record, tags, check, &mut seen_names)? else {
            continue;
        };
        let round = game.index + 1;
        if let Some((first, _)) = by_index.insert(game.index, (record, game)) {
            return Err(ResumeError::Duplicate {
                round,
                first,
                second: record,
            });
        }
    }
    Ok(by_index.into_values().map(|(_, g)| g).collect())
}

/// Record number `record` (1-based) of the PGN as a finished game of `check`'s match; `None`
/// for an unfinished one. `seen_names` holds each engine's name as the records so far gave it.
fn read_record(
    record: usize,
    tags: &[(String, String)],
    check: &ResumeCheck,
    seen_names: &mut [Option<String>; 2],
) -> Result<Option<PastGame>, ResumeError> {
    let get = |key: &str| {
        tags.iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| ResumeError::BadRecord {
                record,
                what: format!("no [{key}] tag"),
            })
    };
    let round_text = get("Round")?;
    let round: usize =
        round_text
            .parse()
            .ok()
            .filter(|&r| r >= 1)
            .ok_or_else(|| ResumeError::BadRecord {
                record,
                what: format!("[Round \"{round_text}\"] is not a game number from 1"),
            })?;
    let foreign = |why: String| ResumeError::Foreign { record, round, why };
    if round > check.games {
        return Err(foreign(format!("the match has only {} games", check.games)));
    }
    let variant = get("Variant")?;
    if !variant.eq_ignore_ascii_case(check.variant) {
        return Err(foreign(format!(
            "variant '{variant}', not '{}'",
            check.variant
        )));
    }
    let index = round - 1;
    let (opening, first_color) = schedule(index, check.openings.len().max(1));
    let fen = get("FEN")?;
    if let Some(expected) = check.openings.get(opening).filter(|&&e| e != fen) {
        return Err(foreign(format!(
            "it starts from '{fen}', but game {round} plays opening {} of the book, \
             '{expected}'",
            opening + 1
        )));
    }
    check_seats(
        [get("White")?, get("Black")?],
        first_color,
        check,
        seen_names,
    )
    .map_err(foreign)?;
    let winner = match get("Result")? {
        "1-0" => Some(Color::Sente),
        "0-1" => Some(Color::Gote),
        "1/2-1/2" => None,
        "*" => return Ok(None),
        other => {
            return Err(ResumeError::BadRecord {
                record,
                what: format!("[Result \"{other}\"] is not 1-0, 0-1, 1/2-1/2 or *"),
            })
        }
    };
    let first_score = match winner {
        None => 0.5,
        Some(w) if w == first_color => 1.0,
        Some(_) => 0.0,
    };
    let failure = winner.and_then(|w| {
        let loser = if w == first_color { 1 } else { 0 };
        failure_slot(get("Termination").ok()?).map(|slot| (loser, slot))
    });
    Ok(Some(PastGame {
        index,
        first_score,
        failure,
    }))
}

/// Checks that the engines in the record's seats (White, Black) are the match's engines in the
/// seats game `first_color` gives them, learning their names from the first record.
fn check_seats(
    [white, black]: [&str; 2],
    first_color: Color,
    check: &ResumeCheck,
    seen_names: &mut [Option<String>; 2],
) -> Result<(), String> {
    let seats = if first_color == Color::Sente {
        [white, black]
    } else {
        [black, white]
    };
    for (e, name) in seats.into_iter().enumerate() {
        let wanted = check.labels[e]
            .map(str::to_string)
            .or(seen_names[e].clone());
        match wanted {
            Some(w) if w != name => {
                return Err(format!(
                    "engine {} is '{name}' here, '{w}' in this match",
                    e + 1
                ))
            }
            _ => seen_names[e] = Some(name.to_string()),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record_from(
        fen: &str,
        round: usize,
        white: &str,
        black: &str,
        result: &str,
        termination: &str,
    ) -> String {
        format!(
            "[Event \"shishi match\"]\n[Site \"?\"]\n[Round \"{round}\"]\n[White \"{white}\"]\n\
             [Black \"{black}\"]\n[Result \"{result}\"]\n[Variant \"heian\"]\n[SetUp \"1\"]\n\
             [FEN \"{fen}\"]\n[Termination \"{termination}\"]\n\n\
             1. 7g7f {{+0.30/8 0.091s}} 3c3d {{-0.33/8 0.038s}}\n{{B resigned}} {result}\n\n"
        )
    }

    const FEN: &str = "9/9/9/9/9/9/9/9/9 b - 1";

    fn record(round: usize, white: &str, black: &str, result: &str, termination: &str) -> String {
        record_from(FEN, round, white, black, result, termination)
    }

    fn check(labels: [Option<&'static str>; 2]) -> ResumeCheck<'static> {
        ResumeCheck {
            variant: "heian",
            labels,
            games: 100,
            openings: &[FEN],
        }
    }

    #[test]
    fn scores_follow_the_seat_the_game_number_gives() {
        // Game 1: the first engine ("new") is sente and wins; game 2: it is gote and wins;
        // game 4: it is gote and loses on time.
        let pgn = [
            record(1, "new", "main", "1-0", "normal"),
            record(2, "main", "new", "0-1", "adjudication"),
            record(3, "new", "main", "1/2-1/2", "normal"),
            record(4, "main", "new", "1-0", "time forfeit"),
        ]
        .concat();
        let games = read_past_games(&pgn, &check([Some("new"), Some("main")])).unwrap();
        let scores: Vec<(usize, f64)> = games.iter().map(|g| (g.index, g.first_score)).collect();
        assert_eq!(scores, [(0, 1.0), (1, 1.0), (2, 0.5), (3, 0.0)]);
        assert_eq!(games[3].failure, Some((0, 2)));
        assert!(games[..3].iter().all(|g| g.failure.is_none()));
    }

    #[test]
    fn games_finished_out_of_order_and_unfinished_ones() {
        let pgn = [
            record(3, "a", "b", "0-1", "abandoned"),
            record(1, "a", "b", "1-0", "normal"),
            record(2, "b", "a", "*", "normal"),
        ]
        .concat();
        let games = read_past_games(&pgn, &check([None, None])).unwrap();
        assert_eq!(games.len(), 2, "the unfinished game is played again");
        assert_eq!((games[0].index, games[1].index), (0, 2));
        assert_eq!(games[1].failure, Some((0, 1)));
    }

    #[test]
    fn another_pairing_is_refused() {
        let swapped = record(2, "new", "main", "1-0", "normal");
        let err = read_past_games(&swapped, &check([Some("new"), Some("main")])).unwrap_err();
        assert!(
            matches!(err, ResumeError::Foreign { round: 2, .. }),
            "{err}"
        );
        let unlabeled = [
            record(1, "x", "y", "1-0", "normal"),
            record(3, "z", "y", "1-0", "normal"),
        ]
        .concat();
        let err = read_past_games(&unlabeled, &check([None, None])).unwrap_err();
        assert!(err.to_string().contains("'z' here, 'x'"), "{err}");
        let chu = record(1, "new", "main", "1-0", "normal").replace("heian", "chu");
        assert!(read_past_games(&chu, &check([None, None])).is_err());
        let long = record(101, "main", "new", "1-0", "normal");
        assert!(read_past_games(&long, &check([None, None])).is_err());
    }

    #[test]
    fn a_game_from_another_book_is_refused() {
        let book = ["a b - 1", "c b - 1"];
        let check = ResumeCheck {
            openings: &book,
            ..check([None, None])
        };
        // Games 1 and 2 play the first opening, games 3 and 4 the second.
        let pgn = [
            record_from("a b - 1", 1, "x", "y", "1-0", "normal"),
            record_from("a b - 1", 2, "y", "x", "1-0", "normal"),
            record_from("c b - 1", 3, "x", "y", "1-0", "normal"),
        ]
        .concat();
        assert_eq!(read_past_games(&pgn, &check).unwrap().len(), 3);
        let moved = record_from("a b - 1", 4, "y", "x", "1-0", "normal");
        let err = read_past_games(&moved, &check).unwrap_err();
        assert!(
            matches!(err, ResumeError::Foreign { round: 4, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("opening 2 of the book"), "{err}");
        let no_fen =
            record(1, "x", "y", "1-0", "normal").replace(&format!("[FEN \"{FEN}\"]\n"), "");
        assert_eq!(
            read_past_games(&no_fen, &check).unwrap_err().to_string(),
            "PGN record 1: no [FEN] tag"
        );
    }

    #[test]
    fn bad_and_duplicate_records_are_named() {
        let twice = [
            record(1, "a", "b", "1-0", "normal"),
            record(1, "a", "b", "0-1", "normal"),
        ]
        .concat();
        assert_eq!(
            read_past_games(&twice, &check([None, None])),
            Err(ResumeError::Duplicate {
                round: 1,
                first: 1,
                second: 2
            })
        );
        let no_round = record(1, "a", "b", "1-0", "normal").replace("[Round \"1\"]\n", "");
        let err = read_past_games(&no_round, &check([None, None])).unwrap_err();
        assert_eq!(err.to_string(), "PGN record 1: no [Round] tag");
        let odd = record(1, "a", "b", "2-0", "normal");
        assert!(read_past_games(&odd, &check([None, None]))
            .unwrap_err()
            .to_string()
            .contains("2-0"));
    }

    #[test]
    fn an_empty_file_resumes_nothing() {
        assert_eq!(read_past_games("", &check([None, None])), Ok(Vec::new()));
    }
}
