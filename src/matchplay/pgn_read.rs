//! Reading back the PGN records `pgn` writes: each record's tags, and its moves with the score of
//! the cutechess comment after each (`{+0.35/12 1.234s}`). A match's games are the only record
//! of how shishi plays against another engine, so they are training data too (`shishi convert`)
//! besides being resumed (`resume`).
//!
//! The reader is lenient where the file is not its concern: a comment that is not a score is no
//! score, move numbers and the closing comment are skipped. What it cannot place is refused by
//! record number.

/// A move's score as its comment gives it, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CommentScore {
    /// Centipawns.
    Cp(i32),
    /// A mate found, for the mover (`true`) or against it.
    Mate(bool),
}

/// One move of a record: its text as written (USI) and the score of its comment, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move as the record writes it.
    pub text: String,
    /// The score its comment gives.
    pub score: Option<CommentScore>,
}

/// One PGN record: its tags in file order and its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// `(name, value)` pairs, the value unquoted and unescaped.
    pub tags: Vec<(String, String)>,
    /// The moves in playing order.
    pub moves: Vec<RecordMove>,
}

impl PgnRecord {
    /// The value of tag `name`, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// The score of a comment such as `+0.35/12 1.234s`, `-M3/5 0.010s` or `0.00/4 0.020s`.
pub fn comment_score(comment: &str) -> Option<CommentScore> {
    let first = comment.split_whitespace().next()?;
    let score = first.split('/').next()?;
    if let Some(mate) = score
        .strip_prefix("+M")
        .map(|_| true)
        .or_else(|| score.strip_prefix("-M").map(|_| false))
    {
        return Some(CommentScore::Mate(mate));
    }
    if !first.contains('/') && first.ends_with('s') {
        return None; // a time alone: no score was reported
    }
    // A score no engine gives (beyond a million pawns) is no score, not one clipped to i32.
    let pawns: f64 = score.parse().ok()?;
    let cp = (pawns * 100.0).round();
    (cp.is_finite() && cp.abs() <= 1e8).then_some(CommentScore::Cp(cp as i32))
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Adds the movetext `text` to `record`: moves, their comments, move numbers and the result.
fn read_movetext(text: &str, record: &mut PgnRecord) {
    let mut rest = text;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        rest = &rest[start..];
        if let Some(body) = rest.strip_prefix('{') {
            let end = body.find('}').unwrap_or(body.len());
            if let Some(last) = record.moves.last_mut().filter(|m| m.score.is_none()) {
                last.score = comment_score(&body[..end]);
            }
            rest = body.get(end + 1..).unwrap_or("");
            continue;
        }
        let end = rest
            .find(|c: char| c.is_whitespace() || c == '{')
            .unwrap_or(rest.len());
        let token = &rest[..end];
        rest = &rest[end..];
        if !is_move_number(token) && !is_result(token) {
            record.moves.push(RecordMove {
                text: token.to_string(),
                score: None,
            });
        }
    }
}

/// Every record of `text`, in file order. Tag lines start a record (after movetext); movetext
/// lines belong to the record whose tags came last.
pub fn read_records(text: &str) -> Vec<PgnRecord> {
    let mut out: Vec<PgnRecord> = Vec::new();
    let mut in_moves = true;
    let mut movetext = String::new();
    let flush = |out: &mut Vec<PgnRecord>, movetext: &mut String| {
        if let Some(record) = out.last_mut() {
            read_movetext(movetext, record);
        }
        movetext.clear();
    };
    for line in text.lines().map(str::trim) {
        let Some(tag) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) else {
            if !line.is_empty() {
                in_moves = true;
                movetext.push_str(line);
                movetext.push('\n');
            }
            continue;
        };
        if in_moves {
            flush(&mut out, &mut movetext);
            out.push(PgnRecord::default());
            in_moves = false;
        }
        let Some((key, value)) = tag.split_once(' ') else {
            continue;
        };
        if let Some(current) = out.last_mut() {
            current
                .tags
                .push((key.to_string(), crate::record::pgn::unquote(value)));
        }
    }
    flush(&mut out, &mut movetext);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_score_beyond_any_engines_is_no_score() {
        assert_eq!(comment_score("-99999999999/5 0.1s"), None);
        assert_eq!(comment_score("+1e300/5 0.1s"), None);
        assert_eq!(comment_score("-12.5/5 0.1s"), Some(CommentScore::Cp(-1250)));
    }

    const GAME: &str = r#"[Event "shishi match"]
[Round "3"]
[White "HaChu"]
[Black "shi \"x\""]
[Result "0-1"]

1. 5i5h {+1.23/5 0.135s} 9d9e {-0.06/6 0.020s} 2. 7j7h {0.00/6 0.299s}
7b9d 3. 7h8f {0.152s} 8l9k {+M2/4 0.001s} {HaChu conceded: 0-1 resign} 0-1

[Event "shishi match"]
[Round "4"]

1... 8f9e8f {-M1/3 0.1s} *
"#;

    #[test]
    fn records_give_their_tags_moves_and_comment_scores() {
        let records = read_records(GAME);
        assert_eq!(records.len(), 2);
        let first = &records[0];
        assert_eq!(first.tag("Round"), Some("3"));
        assert_eq!(first.tag("Black"), Some("shi \"x\""));
        assert_eq!(first.tag("FEN"), None);
        let moves: Vec<(&str, Option<CommentScore>)> = first
            .moves
            .iter()
            .map(|m| (m.text.as_str(), m.score))
            .collect();
        assert_eq!(
            moves,
            [
                ("5i5h", Some(CommentScore::Cp(123))),
                ("9d9e", Some(CommentScore::Cp(-6))),
                ("7j7h", Some(CommentScore::Cp(0))),
                ("7b9d", None),
                ("7h8f", None),
                ("8l9k", Some(CommentScore::Mate(true))),
            ]
        );
        assert_eq!(records[1].moves.len(), 1);
        assert_eq!(records[1].moves[0].text, "8f9e8f");
        assert_eq!(records[1].moves[0].score, Some(CommentScore::Mate(false)));
    }

    #[test]
    fn comments_that_are_not_scores_give_none() {
        for comment in ["resign", "0.135s", "", "abc/4 0.1s", "NaN/3 0.1s"] {
            assert_eq!(comment_score(comment), None, "{comment}");
        }
        assert_eq!(comment_score("-12.5/3 1s"), Some(CommentScore::Cp(-1250)));
    }
}
