//! The names KIF gives pieces and squares: in movetext the full names lishogi writes for Chu
//! (`獅子`, `金飛車`) with the other spellings it accepts, the short names of standard shogi for
//! Heian (`歩`, `成銀`), the one-character names of board diagrams, and squares as a file
//! number and a kanji rank (`10十二`, `７六`).

use crate::board::{Family, Kind};

/// A Chu kind's name in movetext as lishogi writes it, then the other names it reads.
fn chu_names(kind: Kind) -> &'static [&'static str] {
    use Kind::*;
    match kind {
        King => &["玉将", "王将", "玉", "王"],
        Elephant => &["醉象", "酔象", "象"],
        Prince => &["太子", "太"],
        Gold => &["金将", "金"],
        PromotedGold => &["金飛車", "飛車", "飛", "成飛"],
        Silver => &["銀将", "銀"],
        PromotedSilver => &["竪行", "竪", "成竪"],
        Copper => &["銅将", "銅"],
        PromotedCopper => &["横行", "横", "成横"],
        Leopard => &["猛豹", "豹"],
        PromotedLeopard => &["小角", "角行", "角", "成角"],
        Tiger => &["盲虎", "虎"],
        Stag => &["飛鹿", "鹿"],
        Kirin => &["麒麟", "麒"],
        PromotedKirin => &["獅子", "獅", "師", "成獅", "成師"],
        Phoenix => &["鳳凰", "鳳"],
        PromotedPhoenix => &["奔王", "奔", "成奔"],
        Pawn => &["歩兵", "歩", "兵"],
        Tokin => &["金将", "金", "と", "と金", "个", "杏", "成歩", "成兵"],
        GoBetween => &["仲人", "仲"],
        PromotedGoBetween => &["醉象", "酔象", "象", "成象"],
        Lance => &["香車", "香"],
        WhiteHorse => &["白駒", "駒"],
        Chariot => &["反車", "反"],
        Whale => &["鯨鯢", "鯨"],
        SideMover => &["横行", "横"],
        Boar => &["奔猪", "猪"],
        VerticalMover => &["竪行", "竪"],
        Ox => &["飛牛", "牛"],
        Bishop => &["角行", "角"],
        PromotedBishop => &["龍馬", "竜馬", "馬", "成馬"],
        Rook => &["飛車", "飛"],
        PromotedRook => &["龍王", "龍玉", "竜", "竜王", "竜玉", "龍", "成竜", "成龍"],
        Horse => &["龍馬", "竜馬", "馬"],
        Falcon => &["角鷹", "鷹"],
        Dragon => &["龍王", "龍玉", "竜", "竜王", "竜玉", "龍"],
        Eagle => &["飛鷲", "鷲"],
        Queen => &["奔王", "奔"],
        Lion => &["獅子", "獅", "師"],
        _ => &[],
    }
}

/// A Heian kind's name in movetext as standard shogi KIF writes it, then the other names.
fn heian_names(kind: Kind) -> &'static [&'static str] {
    use Kind::*;
    match kind {
        HeianKing => &["玉", "王", "玉将", "王将"],
        HeianGold => &["金", "金将"],
        HeianSilver => &["銀", "銀将"],
        HeianKnight => &["桂", "桂馬"],
        HeianLance => &["香", "香車"],
        HeianPawn => &["歩", "歩兵"],
        HeianPromotedSilver => &["成銀", "全"],
        HeianPromotedKnight => &["成桂", "圭"],
        HeianPromotedLance => &["成香", "杏"],
        HeianTokin => &["と", "と金"],
        _ => &[],
    }
}

/// Every movetext name of `kind`, the written one first.
pub(super) fn move_names(kind: Kind) -> &'static [&'static str] {
    match kind.family() {
        Family::Chu => chu_names(kind),
        Family::Heian => heian_names(kind),
    }
}

/// The movetext name written for `kind`.
pub(super) fn move_name(kind: Kind) -> &'static str {
    move_names(kind).first().copied().unwrap_or("?")
}

/// The longest movetext name of `family` that `text` starts with.
pub(super) fn leading_move_name(family: Family, text: &str) -> Option<&'static str> {
    crate::board::KINDS
        .iter()
        .filter(|k| k.family() == family)
        .flat_map(|&k| move_names(k).iter().copied())
        .filter(|name| text.starts_with(name))
        .max_by_key(|name| name.len())
}

/// A board diagram's name of `kind`: one character, or `成` and one for a promoted Chu piece.
pub(super) fn board_name(kind: Kind) -> &'static str {
    use Kind::*;
    match kind {
        King | HeianKing => "玉",
        Elephant => "象",
        Prince => "太",
        Gold | HeianGold => "金",
        PromotedGold => "成飛",
        Silver | HeianSilver => "銀",
        PromotedSilver => "成竪",
        Copper => "銅",
        PromotedCopper => "成横",
        Leopard => "豹",
        PromotedLeopard => "成角",
        Tiger => "虎",
        Stag => "鹿",
        Kirin => "麒",
        PromotedKirin => "成獅",
        Phoenix => "鳳",
        PromotedPhoenix => "成奔",
        Pawn | HeianPawn => "歩",
        Tokin | HeianPromotedLance => "杏",
        GoBetween => "仲",
        PromotedGoBetween => "成象",
        Lance | HeianLance => "香",
        WhiteHorse => "駒",
        Chariot => "反",
        Whale => "鯨",
        SideMover => "横",
        Boar => "猪",
        VerticalMover => "竪",
        Ox => "牛",
        Bishop => "角",
        PromotedBishop => "成馬",
        Rook => "飛",
        PromotedRook => "成龍",
        Horse => "馬",
        Falcon => "鷹",
        Dragon => "龍",
        Eagle => "鷲",
        Queen => "奔",
        Lion => "獅",
        HeianKnight => "桂",
        HeianPromotedSilver => "全",
        HeianPromotedKnight => "圭",
        HeianTokin => "と",
    }
}

/// The kind a diagram name stands for in `family` (`promoted`: it followed `成`).
pub(super) fn kind_of_board_name(family: Family, name: char, promoted: bool) -> Option<Kind> {
    let alias = match name {
        '王' => '玉',
        '竜' => '龍',
        '酔' => '象',
        c => c,
    };
    let mut text = String::new();
    if promoted {
        text.push('成');
    }
    text.push(alias);
    let found = crate::board::KINDS
        .iter()
        .copied()
        .find(|&k| k.family() == family && board_name(k) == text);
    match (found, family, promoted, alias) {
        (Some(kind), ..) => Some(kind),
        (None, Family::Chu, true, '歩') => Some(Kind::Tokin),
        (None, Family::Chu, false, 'と') => Some(Kind::Tokin),
        _ => None,
    }
}

const RANKS: [&str; 12] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

/// A rank as a kanji number, 1 at the top.
pub(super) fn rank_kanji(rank: u8) -> &'static str {
    RANKS[usize::from(rank.clamp(1, 12)) - 1]
}

/// Full-width digits of `n`.
pub(super) fn full_width(n: u8) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(c as u32 + 0xfee0).unwrap_or(c))
        .collect()
}

/// A digit, half-width or full-width.
fn digit(c: char) -> Option<u8> {
    match c {
        '0'..='9' => Some(c as u8 - b'0'),
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        _ => None,
    }
}

/// The square (file, rank, both from 1) that `text` starts with, and the bytes it takes.
pub(super) fn leading_square(text: &str) -> Option<(u8, u8, usize)> {
    let mut file = 0u8;
    let mut used = 0;
    for c in text.chars().take(2) {
        let Some(d) = digit(c) else { break };
        file = file.checked_mul(10)?.checked_add(d)?;
        used += c.len_utf8();
    }
    if used == 0 || file == 0 {
        return None;
    }
    let rest = &text[used..];
    let (rank, len) = RANKS
        .iter()
        .enumerate()
        .filter(|(_, r)| rest.starts_with(*r))
        .max_by_key(|(_, r)| r.len())?;
    Some((file, rank as u8 + 1, used + len.len()))
}
