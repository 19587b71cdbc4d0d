//! Training games from match PGNs (`shishi match --pgn`). Self-play data ends a game once both
//! sides see it decided, so a net trained on it never sees the long conversion of a won game,
//! nor an opponent that plays and judges differently; shishi's games against other engines, played
//! out to the end, show both. Each game becomes a packed game: its start, its moves, the result,
//! and at each of ENGINE's moves the score of its comment when [`worth_recording`] would have
//! kept the position in self-play (quiet, no royal in check, moderate). The opponent's scores
//! are on its own scale and are left out.
//!
//! The moves are replayed under the match's rule set; packed data replays under the variant's
//! default rules, so a game whose move is legal only under the match's rules ends at that move.

use super::packed::PackedGame;
use super::record::Result01;
use super::selfplay::{sente_view, worth_recording};
use crate::board::{Color, Variant};
use crate::eval;
use crate::matchplay::pgn_read::{CommentScore, PgnRecord};
use crate::notation::{parse_move, Notation};
use crate::position::Position;
use crate::rules::RuleSet;
use crate::search::Score;

/// What a PGN gave.
#[derive(Debug, Default)]
pub(crate) struct PgnGames {
    /// The finished games, numbered from 1 in file order.
    pub games: Vec<PackedGame>,
    /// Training positions among them.
    pub positions: usize,
    /// Records left out as unfinished (`[Result "*"]`).
    pub unfinished: usize,
    /// Games ended early at a move the default rules forbid.
    pub cut_short: usize,
    /// Games ended early at a move the match's rules forbid (a record of older rules, or the
    /// wrong `rules`), with the first such record and ply and why.
    pub refused: usize,
    /// The first refused move: record, ply and why.
    pub first_refused: Option<String>,
}

/// Where a game's replay stopped before its last move.
enum Stop {
    /// At a move the default rules forbid.
    DefaultRules,
    /// At a move the match's rules forbid: ply and why.
    MatchRules(usize, String),
}

/// The side `engine` played in `record`.
fn engine_side(record: &PgnRecord, engine: &str) -> Result<Color, String> {
    match (record.tag("White"), record.tag("Black")) {
        (Some(white), _) if white == engine => Ok(Color::Sente),
        (_, Some(black)) if black == engine => Ok(Color::Gote),
        (white, black) => Err(format!(
            "'{engine}' played neither side (White '{}', Black '{}')",
            white.unwrap_or("?"),
            black.unwrap_or("?")
        )),
    }
}

fn result(tag: Option<&str>) -> Result<Option<Result01>, String> {
    match tag {
        Some("1-0") => Ok(Some(Result01::SenteWon)),
        Some("0-1") => Ok(Some(Result01::GoteWon)),
        Some("1/2-1/2") => Ok(Some(Result01::Draw)),
        Some("*") => Ok(None),
        Some(other) => Err(format!("result '{other}' is not 1-0, 0-1, 1/2-1/2 or *")),
        None => Err("no [Result]".to_string()),
    }
}

/// One record as a packed game numbered `number`, or `None` for an unfinished game, with where
/// its replay stopped early.
fn convert(
    record: &PgnRecord,
    number: u32,
    engine: &str,
    rules: RuleSet,
) -> Result<Option<(PackedGame, Option<Stop>)>, String> {
    let Some(result) = result(record.tag("Result"))? else {
        return Ok(None);
    };
    let side = engine_side(record, engine)?;
    let variant_name = record.tag("Variant").ok_or("no [Variant]")?;
    let variant = Variant::from_name(variant_name)
        .ok_or_else(|| format!("unknown variant '{variant_name}'"))?;
    let start = match record.tag("FEN") {
        Some(sfen) => Position::from_sfen(variant, sfen).map_err(|e| format!("[FEN]: {e}"))?,
        None => Position::startpos(variant),
    };
    let mut played = start.clone().with_rules(rules);
    let mut packed = start.clone();
    let mut plies = Vec::with_capacity(record.moves.len());
    let mut stop = None;
    for (i, entry) in record.moves.iter().enumerate() {
        let mv = match parse_move(&played, &entry.text, Notation::Usi) {
            Ok(mv) => mv,
            Err(e) => {
                stop = Some(Stop::MatchRules(i + 1, e.to_string()));
                break;
            }
        };
        if !packed.legal_moves().contains(&mv) {
            stop = Some(Stop::DefaultRules);
            break;
        }
        let mover = packed.side_to_move();
        let score = match entry.score {
            Some(CommentScore::Cp(cp)) if mover == side => {
                let units = eval::centipawns_to_units(variant.family(), cp);
                worth_recording(&packed, mv, Score::Cp(units))
                    .then(|| sente_view(mover, units) as i16)
            }
            _ => None,
        };
        plies.push((Some(mv), score));
        played.play(mv);
        packed.play(mv);
    }
    let game = PackedGame {
        number,
        variant,
        result,
        start: start.to_sfen(),
        plies,
    };
    Ok(Some((game, stop)))
}

/// The finished games of `records` in which `engine` played, with its scores, replayed under
/// `rules`. A record that does not read (no such engine, no variant, a bad FEN) is refused by
/// number; a move `rules` forbid ends its game there, counted in `refused`.
pub(crate) fn packed_games(
    records: &[PgnRecord],
    engine: &str,
    rules: RuleSet,
) -> Result<PgnGames, String> {
    let mut out = PgnGames::default();
    for (i, record) in records.iter().enumerate() {
        let number = out.games.len() as u32 + 1;
        match convert(record, number, engine, rules)
            .map_err(|e| format!("record {}: {e}", i + 1))?
        {
            None => out.unfinished += 1,
            Some((game, stop)) => {
                out.positions += game.plies.iter().filter(|(_, s)| s.is_some()).count();
                match stop {
                    None => {}
                    Some(Stop::DefaultRules) => out.cut_short += 1,
                    Some(Stop::MatchRules(ply, why)) => {
                        out.refused += 1;
                        out.first_refused
                            .get_or_insert_with(|| format!("record {}, ply {ply}: {why}", i + 1));
                    }
                }
                out.games.push(game);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Family;
    use crate::matchplay::pgn_read::read_records;
    use crate::notation::write_move;
    use crate::rules::Preset;

    /// A Heian 8x8 game of a few moves: shishi is gote, its scores are kept from sente's view.
    fn pgn(result: &str, black: &str, third_move: &str) -> String {
        let mut pos = Position::startpos(Variant::Heian8x8);
        let mut moves = Vec::new();
        for _ in 0..3 {
            let mv = *pos
                .legal_moves()
                .iter()
                .find(|&&m| !pos.is_capture(m) && !m.is_promotion())
                .unwrap();
            moves.push(write_move(&pos, mv, Notation::Usi));
            pos.play(mv);
        }
        if !third_move.is_empty() {
            moves[2] = third_move.to_string();
        }
        format!(
            "[Event \"t\"]\n[Round \"1\"]\n[White \"other\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n\
             [Variant \"heian8x8\"]\n\n1. {} {{+9.99/3 0.1s}} {} {{+0.50/4 0.1s}} 2. {} {{-1.00/2 0.1s}} {result}\n",
            moves[0], moves[1], moves[2]
        )
    }

    #[test]
    fn the_engines_quiet_positions_keep_its_scores_from_sentes_view() {
        let text = pgn("0-1", "shishi", "");
        let out = packed_games(&read_records(&text), "shishi", RuleSet::LISHOGI).unwrap();
        assert_eq!((out.games.len(), out.positions, out.cut_short), (1, 1, 0));
        let game = &out.games[0];
        assert_eq!(game.result, Result01::GoteWon);
        assert_eq!(game.plies.len(), 3);
        let units = eval::centipawns_to_units(Family::Heian, 50);
        assert_eq!(game.plies[0].1, None, "the opponent's score is left out");
        assert_eq!(game.plies[1].1, Some(-units as i16));
        assert_eq!(game.plies[2].1, None);
        let records = game.records().unwrap();
        assert_eq!(records.len(), 1);
        assert_eq!(records[0].score, -units);
    }

    #[test]
    fn unfinished_foreign_and_illegal_records_are_told_apart() {
        let unfinished = packed_games(
            &read_records(&pgn("*", "shishi", "")),
            "shishi",
            RuleSet::LISHOGI,
        )
        .unwrap();
        assert_eq!((unfinished.games.len(), unfinished.unfinished), (0, 1));
        let foreign = packed_games(
            &read_records(&pgn("1-0", "x", "")),
            "shishi",
            RuleSet::LISHOGI,
        );
        assert!(foreign.unwrap_err().contains("played neither side"));
        let illegal = packed_games(
            &read_records(&pgn("1-0", "shishi", "a1a1")),
            "shishi",
            RuleSet::LISHOGI,
        )
        .unwrap();
        assert_eq!((illegal.games[0].plies.len(), illegal.refused), (2, 1));
        assert!(illegal
            .first_refused
            .unwrap()
            .starts_with("record 1, ply 3: "));
        let no_variant = pgn("1-0", "shishi", "").replace("[Variant \"heian8x8\"]\n", "");
        let no_variant = packed_games(&read_records(&no_variant), "shishi", RuleSet::LISHOGI);
        assert_eq!(no_variant.unwrap_err(), "record 1: no [Variant]");
        let hachu = Preset::Hachu.rules();
        let under_hachu =
            packed_games(&read_records(&pgn("1-0", "shishi", "")), "shishi", hachu).unwrap();
        assert_eq!(under_hachu.games.len(), 1);
    }

    /// A Lion's double move from a game against HaChu (66c65f3's run at a thirtieth) that
    /// HaChu's rules allow and lishogi's do not.
    #[test]
    fn a_move_only_the_matchs_rules_allow_ends_the_game_there() {
        let text = "[White \"HaChu\"]\n[Black \"shishi\"]\n[Result \"0-1\"]\n[Variant \"chu\"]\n\
             [FEN \"lf2d1kg1cfl/av+Dcst1esbva/12/m10m/p10p/9N2/1p3p3P2/4P3n3/PP1PBPP3PP/MF1C3S3M/A4OET2VA/L3T1KG1CFL w - 190\"]\n\n\
             1... 4h3g3f {+1.00/4 0.1s} 0-1\n";
        let hachu = packed_games(&read_records(text), "shishi", Preset::Hachu.rules()).unwrap();
        assert_eq!(
            (hachu.games[0].plies.len(), hachu.cut_short, hachu.refused),
            (0, 1, 0)
        );
        let lishogi = packed_games(&read_records(text), "shishi", RuleSet::LISHOGI).unwrap();
        assert_eq!((lishogi.cut_short, lishogi.refused), (0, 1));
    }
}
