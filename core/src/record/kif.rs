//! KIF, the record format of Japanese shogi software, as lishogi writes Chu (scalashogi's
//! `Kif.render`: tags, a 12x12 diagram only for a start other than Chu's, `手数----指手` and
//! `   1手目   8八獅子 （←7十）` lines, a lion's double move as `一歩目` and `二歩目` lines of one
//! number, `仝` for the previous move's square) and as standard shogi KIF writes Heian (short
//! piece names, `７六歩(77)`, `同　`, always a diagram: no handicap name means a Heian start).
//!
//! Reading also takes the spellings players meet in older files: `同` for `仝`, `▲`/`△`
//! before a move, move numbers without `手目`, full-width file digits, `不成`, comments (`*`
//! lines, kept), `#` lines and the `変化` branches after the main line (skipped).

use super::kif_names::{
    board_name, full_width, kind_of_board_name, leading_move_name, leading_square, move_name,
    move_names, rank_kanji,
};
use super::{Ending, GameFile, ReadOptions, RecordError, Tags};
use crate::board::{Color, Family, Square, Variant};
use crate::notation::{write_move, Notation};
use crate::position::Position;

/// Header keys in the order lishogi writes them, with the tag each fills.
const TAG_KEYS: [&str; 7] = [
    "開始日時",
    "終了日時",
    "棋戦",
    "場所",
    "持ち時間",
    "先手",
    "後手",
];

/// The termination words and what they mean for the side to move.
const ENDINGS: [(&str, Ending); 13] = [
    ("投了", Ending::Resignation),
    ("詰み", Ending::Mate),
    ("切れ負け", Ending::TimeForfeit),
    ("時間切れ", Ending::TimeForfeit),
    ("Time-up", Ending::TimeForfeit),
    ("反則勝ち", Ending::IllegalByOpponent),
    ("反則負け", Ending::IllegalByMover),
    ("千日手", Ending::Repetition),
    ("持将棋", Ending::Draw),
    ("引き分け", Ending::Draw),
    ("引分け", Ending::Draw),
    ("中断", Ending::Abandoned),
    ("不詰", Ending::Abandoned),
];

/// The word written for an ending, `to_move` being the side to move at the end; none for a
/// game won by the side to move for a reason the record did not give (lishogi writes none).
fn ending_word(ending: Ending, to_move: Color) -> Option<&'static str> {
    Some(match ending {
        Ending::Resignation => "投了",
        Ending::Mate => "詰み",
        Ending::TimeForfeit => "切れ負け",
        Ending::IllegalByOpponent => "反則勝ち",
        Ending::IllegalByMover => "反則負け",
        Ending::Repetition => "千日手",
        Ending::Draw => "引き分け",
        Ending::Abandoned => "中断",
        Ending::Decided(winner) if winner != to_move => "投了",
        Ending::Decided(_) => return None,
    })
}

// ---------------------------------------------------------------------------------------------
// Reading

/// One move line, taken apart.
struct MoveLine<'a> {
    /// 0 for a whole move, 1 or 2 for a double move's first or second step.
    step: u8,
    /// The destination, `None` for `仝`/`同`.
    to: Option<(u8, u8)>,
    /// The piece name as written.
    name: &'a str,
    promotes: bool,
    /// The origin.
    from: (u8, u8),
    /// The time the move took, in seconds.
    seconds: Option<u64>,
}

/// What a line in the move section is.
enum Line<'a> {
    Move(MoveLine<'a>),
    Ending(Ending),
    Comment(&'a str),
    Skip,
    /// The start of a branch: the main line ends here.
    Branch,
}

/// Drops a leading move number (`12`, `１２`), `手目` and the step marker.
fn strip_number(text: &str) -> Option<(u8, &str)> {
    let text = text.trim_start_matches(['▲', '△', '☗', '☖']);
    let digits = text
        .char_indices()
        .take_while(|(_, c)| c.is_ascii_digit() || ('０'..='９').contains(c))
        .last()
        .map(|(i, c)| i + c.len_utf8())?;
    let rest = text[digits..]
        .strip_prefix("手目")
        .unwrap_or(&text[digits..]);
    let (step, rest) = if let Some(r) = rest.strip_prefix("一歩目") {
        (1, r)
    } else if let Some(r) = rest.strip_prefix("二歩目") {
        (2, r)
    } else {
        (0, rest)
    };
    Some((
        step,
        rest.trim_start_matches([' ', '\u{3000}', '\t', '▲', '△', '☗', '☖']),
    ))
}

/// The seconds of a clock field `(mm:ss/hh:mm:ss)` or `( 0:16/00:00:16)`.
fn clock_seconds(text: &str) -> Option<u64> {
    let inner = text.trim().strip_prefix('(')?.split('/').next()?;
    let (m, s) = inner.trim().split_once(':')?;
    Some(m.trim().parse::<u64>().ok()? * 60 + s.trim().parse::<u64>().ok()?)
}

/// The origin written after the piece: `（←7十）`, `(←7十)` or `(77)`.
fn origin(text: &str) -> Option<((u8, u8), &str)> {
    let text = text.trim_start_matches([' ', '\u{3000}']);
    if let Some(rest) = text.strip_prefix("（←").or_else(|| text.strip_prefix("(←")) {
        let (file, rank, used) = leading_square(rest)?;
        let rest = &rest[used..];
        let rest = rest.strip_prefix('）').or_else(|| rest.strip_prefix(')'))?;
        return Some(((file, rank), rest));
    }
    let rest = text.strip_prefix('(')?;
    let bytes = rest.as_bytes();
    if bytes.len() >= 3 && bytes[..2].iter().all(u8::is_ascii_digit) && bytes[2] == b')' {
        return Some(((bytes[0] - b'0', bytes[1] - b'0'), &rest[3..]));
    }
    None
}

fn parse_line<'a>(family: Family, text: &'a str) -> Result<Line<'a>, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') || text.starts_with('&') {
        return Ok(Line::Skip);
    }
    if let Some(c) = text.strip_prefix('*').or_else(|| text.strip_prefix('＊')) {
        return Ok(Line::Comment(c));
    }
    if text.starts_with("変化") {
        return Ok(Line::Branch);
    }
    if text.starts_with("まで") || text.starts_with("手数") {
        return Ok(Line::Skip);
    }
    let Some((step, body)) = strip_number(text) else {
        let shown: String = text.chars().take(24).collect();
        return Err(format!("not a move line: '{shown}'"));
    };
    if body.is_empty() {
        return Err("a move number without its move".to_string());
    }
    for (word, ending) in ENDINGS {
        if body.starts_with(word) {
            return Ok(Line::Ending(ending));
        }
    }
    let (to, rest) = if let Some(r) = body.strip_prefix('仝').or_else(|| body.strip_prefix('同'))
    {
        (None, r.trim_start_matches([' ', '\u{3000}']))
    } else {
        let (file, rank, used) = leading_square(body)
            .ok_or_else(|| format!("no destination square in '{}'", short(body)))?;
        (Some((file, rank)), &body[used..])
    };
    let name = leading_move_name(family, rest)
        .ok_or_else(|| format!("no piece name of this game in '{}'", short(body)))?;
    let mut rest = &rest[name.len()..];
    let mut promotes = false;
    for (suffix, promotion) in [
        ("不成", false),
        ("生", false),
        ("成", true),
        ("（居食い）", false),
        ("(居食い)", false),
        ("（じっと）", false),
        ("(じっと)", false),
    ] {
        if let Some(r) = rest.strip_prefix(suffix) {
            promotes |= promotion;
            rest = r;
        }
    }
    let (from, rest) =
        origin(rest).ok_or_else(|| format!("no origin square in '{}'", short(body)))?;
    Ok(Line::Move(MoveLine {
        step,
        to,
        name,
        promotes,
        from,
        seconds: clock_seconds(rest),
    }))
}

fn short(text: &str) -> String {
    text.chars().take(24).collect()
}

/// A diagram rank's cells, file 12 (or 9) first: `None` for an empty square, else the colour
/// and the name (`成` and a character for a promoted Chu piece).
fn diagram_cells(row: &str) -> Vec<Option<(Color, String)>> {
    let inner = row.trim().trim_start_matches('|');
    let inner = inner.rsplit_once('|').map_or(inner, |(board, _)| board);
    let mut rank = Vec::new();
    let mut gote = false;
    let mut promoted = false;
    for c in inner.chars() {
        match c {
            ' ' | '\u{3000}' => {}
            '・' => rank.push(None),
            'v' | 'V' => gote = true,
            '成' => promoted = true,
            c => {
                let mut name = String::new();
                if promoted {
                    name.push('成');
                }
                name.push(c);
                let color = if gote { Color::Gote } else { Color::Sente };
                rank.push(Some((color, name)));
                gote = false;
                promoted = false;
            }
        }
    }
    rank
}

/// The board a diagram draws (its `|` lines), with the variant its size gives.
fn read_diagram(rows: &[(usize, &str)], gote_to_move: bool) -> Result<Position, RecordError> {
    let first_line = rows.first().map_or(0, |r| r.0);
    let height = rows.len() as u8;
    let cells: Vec<Vec<Option<(Color, String)>>> =
        rows.iter().map(|(_, row)| diagram_cells(row)).collect();
    let width = cells.first().map_or(0, Vec::len) as u8;
    let variant = Variant::from_dimensions(width, height).ok_or_else(|| {
        RecordError::at(
            first_line,
            format!("the board diagram is {width}x{height}: not Chu (12x12) nor Heian (9x9, 9x8, 8x9, 8x8)"),
        )
    })?;
    let family = variant.family();
    let mut sfen = String::new();
    for (r, rank) in cells.iter().enumerate() {
        let line = first_line + r;
        if rank.len() != usize::from(width) {
            return Err(RecordError::at(
                line,
                format!(
                    "diagram rank of {} squares, the first has {width}",
                    rank.len()
                ),
            ));
        }
        if r > 0 {
            sfen.push('/');
        }
        let mut empty = 0;
        for cell in rank {
            let Some((color, name)) = cell else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                sfen.push_str(&empty.to_string());
                empty = 0;
            }
            let mut chars = name.chars();
            let promoted = name.starts_with('成');
            if promoted {
                chars.next();
            }
            let c = chars.next().unwrap_or('?');
            let kind = kind_of_board_name(family, c, promoted).ok_or_else(|| {
                RecordError::at(line, format!("'{name}' is no piece of {}", variant.name()))
            })?;
            sfen.push_str(&crate::board::Piece::new(*color, kind).sfen());
        }
        if empty > 0 {
            sfen.push_str(&empty.to_string());
        }
    }
    sfen.push_str(if gote_to_move { " w - 1" } else { " b - 1" });
    Position::from_sfen(variant, &sfen)
        .map_err(|e| RecordError::at(first_line, format!("the board diagram: {e}")))
}

/// The header: tags, the start position, and the line the moves start after.
fn read_header(
    lines: &[&str],
    options: &ReadOptions,
) -> Result<(Tags, Position, usize), RecordError> {
    let mut tags = Tags::default();
    let mut rows = Vec::new();
    let mut gote_to_move = false;
    let mut handicap: Option<String> = None;
    let mut end = lines.len();
    for (i, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        if line.starts_with('|') {
            rows.push((i + 1, line));
            continue;
        }
        let file_numbers = line
            .chars()
            .all(|c| c.is_ascii_digit() || ('０'..='９').contains(&c) || c.is_whitespace());
        if file_numbers {
            continue;
        }
        if line.starts_with("手数") || strip_number(line).is_some_and(|(_, b)| !b.is_empty()) {
            end = if line.starts_with("手数") { i + 1 } else { i };
            break;
        }
        if line.starts_with("後手番") || line.starts_with("上手番") {
            gote_to_move = true;
            continue;
        }
        let Some((key, value)) = line.split_once('：').or_else(|| line.split_once(':')) else {
            continue;
        };
        let value = value.trim().to_string();
        let slot = match key.trim() {
            "開始日時" => &mut tags.started,
            "終了日時" => &mut tags.ended,
            "棋戦" => &mut tags.event,
            "場所" => &mut tags.site,
            "持ち時間" => &mut tags.time_control,
            "先手" | "下手" => &mut tags.sente,
            "後手" | "上手" => &mut tags.gote,
            "手合割" => {
                handicap = Some(value);
                continue;
            }
            _ => continue,
        };
        if !value.is_empty() {
            *slot = Some(value);
        }
    }
    let start = if rows.is_empty() {
        match handicap.as_deref() {
            None | Some("" | "平手" | "中将棋" | "chushogi" | "chuushogi") => {
                Position::startpos(options.variant)
            }
            Some(other) => {
                return Err(RecordError::whole(format!(
                    "手合割：{} is not a start position of Chu or Heian",
                    short(other)
                )))
            }
        }
    } else {
        read_diagram(&rows, gote_to_move)?
    };
    Ok((tags, start, end))
}

/// `start` with the move number of the record's first move line: a record of a game from a
/// set-up position numbers its moves on from the position's own number, as SFEN counts them.
fn numbered_from_first_move(start: Position, lines: &[&str]) -> Position {
    let first_number = lines.iter().find_map(|line| {
        let line = line.trim().trim_start_matches(['▲', '△', '☗', '☖']);
        let digits: String = line.chars().take_while(char::is_ascii_digit).collect();
        digits.parse::<u32>().ok()
    });
    match first_number {
        Some(n) if n > 1 && n != start.move_number() => {
            let sfen = start.to_sfen();
            let fields: Vec<&str> = sfen.split(' ').collect();
            let renumbered = format!("{} {} {} {n}", fields[0], fields[1], fields[2]);
            Position::from_sfen(start.variant(), &renumbered).unwrap_or(start)
        }
        _ => start,
    }
}

/// A square of `variant` from KIF's (file, rank), both from 1.
fn square(variant: Variant, (file, rank): (u8, u8)) -> Option<Square> {
    if rank == 0 || rank > variant.height() {
        return None;
    }
    let letter = char::from(b'a' + rank - 1);
    crate::board::parse_usi_square(variant, &format!("{file}{letter}"))
}

fn usi_of(variant: Variant, at: (u8, u8), line: usize) -> Result<String, RecordError> {
    let sq = square(variant, at).ok_or_else(|| {
        RecordError::at(
            line,
            format!("square {}{} is off the board", at.0, rank_kanji(at.1)),
        )
    })?;
    Ok(crate::board::usi_square(variant, sq))
}

/// Checks that the piece named is the one on the origin.
fn check_name(file: &GameFile, from: (u8, u8), name: &str, line: usize) -> Result<(), RecordError> {
    let pos = file.game.position();
    let variant = pos.variant();
    let Some(sq) = square(variant, from) else {
        return Ok(()); // reported by usi_of
    };
    let piece = pos.piece_at(sq);
    if piece.is_some() && !move_names(piece.kind()).contains(&name) {
        return Err(RecordError::at(
            line,
            format!(
                "the piece on {}{} is a {} ({}), not {name}",
                from.0,
                rank_kanji(from.1),
                piece.kind().name(),
                move_name(piece.kind())
            ),
        ));
    }
    Ok(())
}

/// Reads a KIF game: its header, then its main line.
pub fn read(text: &str, options: &ReadOptions) -> Result<GameFile, RecordError> {
    let lines: Vec<&str> = text.lines().collect();
    let (tags, start, first) = read_header(&lines, options)?;
    let start = numbered_from_first_move(start, &lines[first..]);
    let variant = start.variant();
    let family = variant.family();
    let mut file = GameFile::new(start.with_rules(options.rules));
    file.tags = tags;
    let mut last_to: Option<String> = None;
    let mut first_step: Option<(String, String, usize)> = None;
    for (i, raw) in lines.iter().enumerate().skip(first) {
        let number = i + 1;
        let cut_short = number == lines.len() && !text.ends_with('\n');
        let line = parse_line(family, raw).map_err(|e| {
            let hint = if cut_short {
                " (the file ends inside this line: is it cut short?)"
            } else {
                ""
            };
            RecordError::at(number, format!("{e}{hint}"))
        })?;
        let mv = match line {
            Line::Skip => continue,
            Line::Branch => break,
            Line::Comment(text) => {
                let text = text.trim().to_string();
                match file.comments.last_mut() {
                    Some(list) => list.push(text),
                    None => file.start_comments.push(text),
                }
                continue;
            }
            Line::Ending(ending) => {
                file.ending = Some(ending);
                break;
            }
            Line::Move(mv) => mv,
        };
        if first_step.is_some() != (mv.step == 2) {
            let reason = if mv.step == 2 {
                "a second step (二歩目) without its first"
            } else {
                "a first step (一歩目) without its second"
            };
            return Err(RecordError::at(number, reason));
        }
        if mv.step != 2 {
            check_name(&file, mv.from, mv.name, number)?;
        }
        let from = usi_of(variant, mv.from, number)?;
        let to = match mv.to {
            Some(to) => usi_of(variant, to, number)?,
            None => last_to
                .clone()
                .ok_or_else(|| RecordError::at(number, "仝 (the same square) on the first move"))?,
        };
        let text = match (mv.step, first_step.take()) {
            (1, _) => {
                first_step = Some((from, to, number));
                continue;
            }
            (2, Some((origin, mid, _))) => format!("{origin}{mid}{to}"),
            _ => format!("{from}{to}{}", if mv.promotes { "+" } else { "" }),
        };
        let ply = file.game.plies() + 1;
        let parsed = file
            .game
            .parse(&text, Notation::Usi)
            .map_err(|e| RecordError::at(number, format!("move {ply}: {}", e.reason)))?;
        file.push(parsed, mv.seconds.map(|s| s * 1000))
            .map_err(|e| RecordError::at(number, format!("move {ply}: {e}")))?;
        last_to = Some(to);
    }
    if let Some((_, _, number)) = first_step {
        return Err(RecordError::at(
            number,
            "the record ends after a first step (一歩目) without its second",
        ));
    }
    Ok(file)
}

// ---------------------------------------------------------------------------------------------
// Writing

/// The board diagram of `pos`, as lishogi (Chu) and standard KIF (Heian) draw it.
fn diagram(pos: &Position) -> String {
    let variant = pos.variant();
    let chu = variant.family() == Family::Chu;
    let cell = if chu { 3 } else { 2 };
    let mut out = String::new();
    if !chu {
        out.push_str("後手の持駒：なし\n");
    }
    if chu {
        out.push_str(" １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n");
    } else {
        out.push(' ');
        for f in (1..=variant.width()).rev() {
            out.push(' ');
            out.push_str(&full_width(f));
        }
        out.push('\n');
    }
    let rule = format!(
        "+{}+\n",
        "-".repeat(usize::from(variant.width()) * (cell + 1))
    );
    out.push_str(&rule);
    for row in 0..variant.height() {
        out.push('|');
        for col in 0..variant.width() {
            let piece = pos.piece_at(Square::from_coords(col, row));
            let text = if piece.is_none() {
                "・".to_string()
            } else {
                let prefix = if piece.color() == Color::Gote {
                    "v"
                } else {
                    ""
                };
                format!("{prefix}{}", board_name(piece.kind()))
            };
            let chars = text.chars().count();
            out.push_str(&" ".repeat(cell.saturating_sub(chars)));
            out.push_str(&text);
        }
        out.push('|');
        out.push_str(rank_kanji(row + 1));
        out.push('\n');
    }
    out.push_str(&rule);
    if !chu {
        out.push_str("先手の持駒：なし\n");
    }
    if pos.side_to_move() == Color::Gote {
        out.push_str("後手番\n");
    }
    out
}

/// KIF's name of square `sq`: the file in half-width (Chu) or full-width (Heian) digits and the
/// rank in kanji.
fn square_name(variant: Variant, sq: Square) -> String {
    let file = variant.width() - sq.col();
    let rank = sq.row() + 1;
    match variant.family() {
        Family::Chu => format!("{file}{}", rank_kanji(rank)),
        Family::Heian => format!("{}{}", full_width(file), rank_kanji(rank)),
    }
}

/// The squares of a USI move (`7j8h`, `8g7f8g`, `5e5c+`) and whether it promotes.
fn usi_squares(variant: Variant, usi: &str) -> (Vec<Square>, bool) {
    let mut squares = Vec::new();
    let bytes = usi.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i < bytes.len() && bytes[i].is_ascii_lowercase() {
            i += 1;
            if let Some(sq) = crate::board::parse_usi_square(variant, &usi[start..i]) {
                squares.push(sq);
            }
        } else {
            i += 1;
        }
    }
    (squares, usi.ends_with('+'))
}

fn clock(seconds_used: u64, total: u64) -> String {
    format!(
        "   ({:02}:{:02}/{:02}:{:02}:{:02})",
        seconds_used / 60,
        seconds_used % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// The lines of one move: one, or two for a double move.
fn move_lines(pos: &Position, usi: &str, last_to: Option<Square>, ply: usize) -> Vec<String> {
    let variant = pos.variant();
    let (squares, promotes) = usi_squares(variant, usi);
    let from = squares.first().copied();
    let Some(from) = from else {
        return vec![format!("{ply:>4}手目   {usi}")];
    };
    let kind = pos.piece_at(from).kind();
    let name = move_name(kind);
    let chu = variant.family() == Family::Chu;
    let dest = |sq: Square| {
        if Some(sq) == last_to {
            if chu {
                "仝".to_string()
            } else {
                "同　".to_string()
            }
        } else {
            square_name(variant, sq)
        }
    };
    let origin = |sq: Square| {
        if chu {
            format!(" （←{}）", square_name(variant, sq))
        } else {
            let file = variant.width() - sq.col();
            format!("({file}{})", sq.row() + 1)
        }
    };
    let promotion = if promotes { "成" } else { "" };
    match squares.as_slice() {
        [_, mid, to] => vec![
            format!("{ply:>4}手目一歩目 {}{name}{}", dest(*mid), origin(from)),
            format!(
                "{ply:>4}手目二歩目 {}{name}{}",
                square_name(variant, *to),
                origin(*mid)
            ),
        ],
        [_, to] if chu => vec![format!(
            "{ply:>4}手目   {}{name}{promotion}{}",
            dest(*to),
            origin(from)
        )],
        [_, to] => vec![format!(
            "{ply:>4}   {}{name}{promotion}{}",
            dest(*to),
            origin(from)
        )],
        _ => vec![format!("{ply:>4}手目   {usi}")],
    }
}

/// Writes `game` as KIF (UTF-8).
pub fn write(game: &GameFile) -> Result<String, RecordError> {
    let start = game.game.start();
    let variant = start.variant();
    let chu = variant.family() == Family::Chu;
    let tags = &game.tags;
    let mut out = String::new();
    let values = [
        &tags.started,
        &tags.ended,
        &tags.event,
        &tags.site,
        &tags.time_control,
    ];
    for (key, value) in TAG_KEYS.iter().zip(values) {
        if let Some(value) = value {
            out.push_str(&format!("{key}：{}\n", value.replace('\n', " ")));
        }
    }
    let is_chu_start = chu && start.to_sfen() == Position::startpos(variant).to_sfen();
    if !is_chu_start {
        out.push_str(&diagram(start));
    }
    for (key, value) in TAG_KEYS[5..].iter().zip([&tags.sente, &tags.gote]) {
        let value = value.as_deref().unwrap_or("");
        out.push_str(&format!("{key}：{}\n", value.replace('\n', " ")));
    }
    out.push_str("手数----指手---------消費時間--\n");
    for comment in &game.start_comments {
        push_comment(&mut out, comment);
    }
    let mut pos = start.clone();
    let mut last_to = None;
    let mut totals = [0u64; 2];
    let number_base = start.move_number() as usize - 1;
    for (i, mv) in game.moves().into_iter().enumerate() {
        let ply = number_base + i + 1;
        let usi = write_move(&pos, mv, Notation::Usi);
        let mut lines = move_lines(&pos, &usi, last_to, ply);
        if let Some(ms) = game.move_times.get(i).copied().flatten() {
            let side = pos.side_to_move().index();
            totals[side] += ms / 1000;
            if let Some(last) = lines.last_mut() {
                last.push_str(&clock(ms / 1000, totals[side]));
            }
        }
        for line in lines {
            out.push_str(&line);
            out.push('\n');
        }
        if let Some(glyph) = game.glyphs.get(i).copied().flatten() {
            push_comment(&mut out, glyph.japanese());
        }
        for comment in game.comments.get(i).into_iter().flatten() {
            push_comment(&mut out, comment);
        }
        last_to = Some(mv.to());
        pos.play(mv);
    }
    let to_move = game.game.position().side_to_move();
    if let Some(word) = game.ending_to_write().and_then(|e| ending_word(e, to_move)) {
        let ply = number_base + game.game.plies() + 1;
        let marker = if chu { "手目" } else { "" };
        out.push_str(&format!("{ply:>4}{marker}   {word}\n"));
    }
    Ok(out)
}

fn push_comment(out: &mut String, comment: &str) {
    for line in comment.lines() {
        out.push_str("* ");
        out.push_str(line);
        out.push('\n');
    }
}
