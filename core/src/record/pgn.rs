//! PGN as XBoard reads and writes variant games: `[Variant]` with XBoard's name (`chu`,
//! `heian`...), `[SetUp "1"]` and an XBoard FEN (`w` for sente, six fields) for a start other
//! than the variant's, sente as `[White]`, moves in XBoard's coordinates (`f4f5`, `e9e10+`,
//! `e6f7,f7e6`, `@@@@`). Reading takes what shishi's match runner writes too: a lishogi SFEN in
//! `[FEN]` (four fields) and USI moves; comments, NAGs and variations are read and variations
//! skipped.

use super::{san, Ending, GameFile, Glyph, ReadOptions, RecordError, Tags};
use crate::board::Variant;
use crate::moves::Move;
use crate::notation::Notation;
use crate::position::Position;

/// A token of movetext and the line it starts on.
struct Token<'a> {
    line: usize,
    kind: TokenKind<'a>,
}

enum TokenKind<'a> {
    /// A move, move number, NAG or result.
    Word(&'a str),
    /// A `{...}` comment's text.
    Comment(String),
}

/// A tag's value without its quotes and escapes.
pub fn unquote(value: &str) -> String {
    let value = value.trim();
    value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or(value)
        .replace("\\\"", "\"")
        .replace("\\\\", "\\")
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The tags of the first game and the line its movetext starts on.
fn read_tags(lines: &[&str]) -> Result<(Vec<(String, String)>, usize), RecordError> {
    let mut tags = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim();
        if line.is_empty() || line.starts_with('%') {
            i += 1;
            continue;
        }
        let Some(body) = line.strip_prefix('[') else {
            break;
        };
        let body = body
            .strip_suffix(']')
            .ok_or_else(|| RecordError::at(i + 1, "a tag without its closing ]"))?;
        let (key, value) = body
            .split_once(' ')
            .ok_or_else(|| RecordError::at(i + 1, "a tag without a value"))?;
        tags.push((key.to_string(), unquote(value)));
        i += 1;
    }
    Ok((tags, i))
}

/// The movetext's tokens up to the end of the first game: moves, comments (`{...}` as one
/// token), NAGs, move numbers and the result; variations and `;` comments are dropped.
fn tokens<'a>(lines: &[&'a str], first: usize) -> Result<Vec<Token<'a>>, RecordError> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut open_comment: Option<(usize, String)> = None;
    for (i, line) in lines.iter().enumerate().skip(first) {
        let number = i + 1;
        if open_comment.is_none() && depth == 0 && line.trim_start().starts_with('[') {
            break; // the next game's tags
        }
        let mut rest: &str = line;
        while !rest.is_empty() {
            if let Some((_, text)) = open_comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        text.push_str(&rest[..end]);
                        let (line, text) = open_comment.take().unwrap_or_default();
                        if depth == 0 {
                            out.push(Token {
                                line,
                                kind: TokenKind::Comment(text),
                            });
                        }
                        rest = &rest[end + 1..];
                    }
                    None => {
                        text.push_str(rest);
                        text.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            rest = rest.trim_start();
            let Some(c) = rest.chars().next() else { break };
            match c {
                '{' => {
                    open_comment = Some((number, String::new()));
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '}' => return Err(RecordError::at(number, "a } without its {")),
                '(' => {
                    depth += 1;
                    rest = &rest[1..];
                }
                ')' => {
                    depth = depth
                        .checked_sub(1)
                        .ok_or_else(|| RecordError::at(number, "a ) without its ("))?;
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                        .unwrap_or(rest.len());
                    if depth == 0 {
                        out.push(Token {
                            line: number,
                            kind: TokenKind::Word(&rest[..end]),
                        });
                    }
                    rest = &rest[end..];
                }
            }
        }
    }
    if let Some((line, _)) = open_comment {
        return Err(RecordError::at(line, "a comment { that is never closed"));
    }
    Ok(out)
}

fn is_move_number(token: &str) -> bool {
    let digits = token.trim_end_matches('.');
    token.ends_with('.') && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a `[FEN]` is a lishogi SFEN (`board b - 1`, as shishi's match runner writes it)
/// rather than an XBoard FEN (`board w - - 0 1`, or `board w 0 1` for shogi variants).
fn is_sfen(variant: Variant, fen: &str) -> bool {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    fields.len() == 4
        && (fields[2] == "-" || crate::board::parse_usi_square(variant, fields[2]).is_some())
        && fields[3].parse::<u32>().is_ok_and(|n| n >= 1)
}

/// The start position the tags give.
fn start_position(
    tags: &[(String, String)],
    options: &ReadOptions,
) -> Result<Position, RecordError> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let variant = match tag("Variant") {
        Some(name) => Variant::from_name(name).ok_or_else(|| {
            RecordError::whole(format!(
                "[Variant \"{}\"] is not a variant shishi plays (chu, heian, heian9x8, heian8x9, heian8x8)",
                name.chars().take(24).collect::<String>()
            ))
        })?,
        None => options.variant,
    };
    // shishi's own tag for a start XBoard's FEN cannot number (gote to move at an odd ply).
    if let Some(sfen) = tag("SFEN") {
        return Position::from_sfen(variant, sfen)
            .map_err(|e| RecordError::whole(format!("[SFEN]: {e}")));
    }
    let Some(fen) = tag("FEN") else {
        return Ok(Position::startpos(variant));
    };
    let pos = if is_sfen(variant, fen) && tag("VariantMen").is_none() {
        Position::from_sfen(variant, fen)
    } else {
        Position::from_xboard_fen(variant, fen)
    };
    pos.map_err(|e| RecordError::whole(format!("[FEN]: {e}")))
}

/// Tags the reader places in `Tags` fields or takes from the game itself.
const KNOWN_TAGS: [&str; 12] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "White",
    "Black",
    "Result",
    "Variant",
    "TimeControl",
    "SetUp",
    "FEN",
    "VariantMen",
];

fn tags_of(raw: &[(String, String)]) -> Tags {
    let tag = |name: &str| {
        raw.iter()
            .find(|(k, v)| k == name && !v.is_empty() && v != "?" && v != "-" && v != "????.??.??")
            .map(|(_, v)| v.clone())
    };
    Tags {
        event: tag("Event"),
        site: tag("Site"),
        started: tag("Date"),
        ended: None,
        time_control: tag("TimeControl"),
        sente: tag("White"),
        gote: tag("Black"),
        round: tag("Round"),
        other: raw
            .iter()
            .filter(|(k, _)| !KNOWN_TAGS.contains(&k.as_str()))
            .cloned()
            .collect(),
    }
}

/// Reads the first game of a PGN file.
pub fn read(text: &str, options: &ReadOptions) -> Result<GameFile, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let (raw_tags, first) = read_tags(&lines)?;
    if raw_tags.is_empty() {
        return Err(RecordError::whole(
            "a PGN game starts with its tags; none found",
        ));
    }
    let start = start_position(&raw_tags, options)?;
    let mut file = GameFile::new(start.with_rules(options.rules));
    file.tags = tags_of(&raw_tags);
    let mut result = None;
    for token in tokens(&lines, first)? {
        let text = match token.kind {
            TokenKind::Word(text) => text,
            TokenKind::Comment(comment) => {
                let comment = comment.trim().to_string();
                if !comment.is_empty() {
                    match file.comments.last_mut() {
                        Some(list) => list.push(comment),
                        None => file.start_comments.push(comment),
                    }
                }
                continue;
            }
        };
        if is_move_number(text) || text.chars().all(|c| c == '.') {
            continue;
        }
        if matches!(text, "1-0" | "0-1" | "1/2-1/2" | "*") {
            result = Some(text);
            break;
        }
        if let Some(nag) = text.strip_prefix('$') {
            let nag: u8 = nag
                .parse()
                .map_err(|_| RecordError::at(token.line, format!("bad NAG '{text}'")))?;
            if let (Some(glyph), Some(slot)) = (Glyph::from_nag(nag), file.glyphs.last_mut()) {
                *slot = Some(glyph);
            }
            continue;
        }
        let ply = file.game.plies() + 1;
        let (bare, glyph) = split_suffix_glyph(strip_number(text));
        let legal: Vec<Move> = file.game.legal_moves().iter().copied().collect();
        let mv = match file.game.parse(bare, Notation::Usi) {
            Ok(mv) => mv,
            Err(usi_error) => match san::read(file.game.position(), &legal, bare) {
                Ok(mv) => mv,
                Err(san::SanError::Ambiguous) => {
                    return Err(RecordError::at(
                        token.line,
                        format!(
                            "ply {ply}: '{}' names more than one legal move",
                            short(bare)
                        ),
                    ))
                }
                Err(san::SanError::NoMove) => {
                    file.game.parse(bare, Notation::Xboard).map_err(|_| {
                        RecordError::at(
                            token.line,
                            if bare.starts_with(|c: char| c.is_ascii_digit()) {
                                format!("ply {ply}: '{}': {}", short(bare), usi_error.reason)
                            } else {
                                format!("ply {ply}: '{}' is no legal move here", short(bare))
                            },
                        )
                    })?
                }
            },
        };
        file.push(mv, None)
            .map_err(|e| RecordError::at(token.line, format!("ply {ply}: {e}")))?;
        if let (Some(glyph), Some(slot)) = (glyph, file.glyphs.last_mut()) {
            *slot = Some(glyph);
        }
    }
    file.ending = ending_of(result, &file);
    Ok(file)
}

fn short(text: &str) -> String {
    text.chars().take(24).collect()
}

/// A move token with a move number glued to it (`12.e9e8`) without the number.
fn strip_number(text: &str) -> &str {
    match text.rfind("...").or_else(|| text.find('.')) {
        Some(at) if at > 0 && text[..at].bytes().all(|b| b.is_ascii_digit()) => {
            text[at..].trim_start_matches('.')
        }
        _ => text,
    }
}

/// A move with its `?!`, `?` or `??` (or `!`, `!?`, `!!`, dropped) taken off.
fn split_suffix_glyph(text: &str) -> (&str, Option<Glyph>) {
    let bare = text.trim_end_matches(['?', '!']);
    let glyph = match &text[bare.len()..] {
        "?!" => Some(Glyph::Inaccuracy),
        "?" => Some(Glyph::Mistake),
        "??" => Some(Glyph::Blunder),
        _ => None,
    };
    (bare, glyph)
}

/// The ending a result token says, where the board does not say it already.
fn ending_of(result: Option<&str>, file: &GameFile) -> Option<Ending> {
    if file.game.outcome().is_some() {
        return None;
    }
    let to_move = file.game.position().side_to_move();
    let winner = match result? {
        "1-0" => Some(crate::board::Color::Sente),
        "0-1" => Some(crate::board::Color::Gote),
        "1/2-1/2" => None,
        _ => return None,
    };
    Some(match winner {
        Some(w) if w == to_move => Ending::Decided(w),
        Some(_) => Ending::Resignation,
        None => Ending::Draw,
    })
}

/// The PGN of `game`, loadable by XBoard.
pub fn write(game: &GameFile) -> String {
    let start = game.game.start();
    let variant = start.variant();
    let tags = &game.tags;
    let result = game.outcome().map_or("*", |o| o.score());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", tags.event.as_deref().unwrap_or("?"));
    tag("Site", tags.site.as_deref().unwrap_or("?"));
    tag("Date", tags.started.as_deref().unwrap_or("????.??.??"));
    tag("Round", tags.round.as_deref().unwrap_or("-"));
    tag("White", tags.sente.as_deref().unwrap_or("?"));
    tag("Black", tags.gote.as_deref().unwrap_or("?"));
    tag("Result", result);
    tag("Variant", variant.xboard_name());
    if let Some(tc) = &tags.time_control {
        tag("TimeControl", tc);
    }
    if start.to_sfen() != Position::startpos(variant).to_sfen() {
        tag("SetUp", "1");
        tag("FEN", &start.to_xboard_fen());
        // XBoard's FEN counts full moves: a start it would number otherwise keeps its SFEN.
        let xboard_numbered = Position::from_xboard_fen(variant, &start.to_xboard_fen())
            .is_ok_and(|p| p.move_number() == start.move_number());
        if !xboard_numbered {
            tag("SFEN", &start.to_sfen());
        }
    }
    for (name, value) in &tags.other {
        tag(name, value);
    }
    out.push('\n');
    let mut words: Vec<String> = Vec::new();
    for comment in &game.start_comments {
        words.push(format!("{{{}}}", comment.replace('}', ")")));
    }
    let mut pos = start.clone();
    for (i, mv) in game.moves().into_iter().enumerate() {
        let sente_moves = pos.side_to_move() == crate::board::Color::Sente;
        let number = (pos.plies_played() + start.move_number() as usize).div_ceil(2);
        if sente_moves {
            words.push(format!("{number}."));
        } else if i == 0 {
            words.push(format!("{number}..."));
        }
        let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
        words.push(san::write(&pos, &legal, mv));
        if let Some(glyph) = game.glyphs.get(i).copied().flatten() {
            words.push(format!("${}", glyph.nag()));
        }
        for comment in game.comments.get(i).into_iter().flatten() {
            words.push(format!("{{{}}}", comment.replace('}', ")")));
        }
        pos.play(mv);
    }
    words.push(result.to_string());
    let mut line = String::new();
    for word in words {
        if !line.is_empty() && line.len() + word.len() >= 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&word);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
