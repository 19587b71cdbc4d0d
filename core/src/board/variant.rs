//! The five variants (docs/rules.md section 1): their boards, promotion zones and start positions.

use super::{Bitboard, Color, Family, Square};
use std::sync::LazyLock;

/// A game with its board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Chu Shogi, 12x12.
    Chushogi,
    /// Heian Shogi, 9x9.
    Heian,
    /// Heian Shogi, 9 files by 8 ranks.
    Heian9x8,
    /// Heian Shogi, 8 files by 9 ranks.
    Heian8x9,
    /// Heian Shogi, 8x8.
    Heian8x8,
}

struct Masks {
    board: Bitboard,
    off_board: Bitboard,
    zone: [Bitboard; 2],
    last_rank: [Bitboard; 2],
    last_two_ranks: [Bitboard; 2],
}

static MASKS: LazyLock<[Masks; 5]> = LazyLock::new(|| Variant::ALL.map(Masks::build));

impl Masks {
    fn build(v: Variant) -> Masks {
        let (w, h) = (v.width(), v.height());
        let rows = |pred: &dyn Fn(u8) -> bool| {
            let mut bb = Bitboard::EMPTY;
            for row in 0..h {
                for col in 0..w {
                    if pred(row) {
                        bb.set(Square::from_coords(col, row));
                    }
                }
            }
            bb
        };
        let board = rows(&|_| true);
        let z = v.zone_depth();
        Masks {
            board,
            off_board: !board,
            zone: [rows(&|r| r < z), rows(&|r| r >= h - z)],
            last_rank: [rows(&|r| r == 0), rows(&|r| r == h - 1)],
            last_two_ranks: [rows(&|r| r < 2), rows(&|r| r >= h - 2)],
        }
    }
}

impl Variant {
    /// Every variant, in declaration order (the index of per-variant tables).
    pub const ALL: [Variant; 5] = [
        Variant::Chushogi,
        Variant::Heian,
        Variant::Heian9x8,
        Variant::Heian8x9,
        Variant::Heian8x8,
    ];

    /// The name used by `USI_Variant`, `--variant` and XBoard (`chu` is accepted too).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Chushogi => "chushogi",
            Variant::Heian => "heian",
            Variant::Heian9x8 => "heian9x8",
            Variant::Heian8x9 => "heian8x9",
            Variant::Heian8x8 => "heian8x8",
        }
    }

    /// The name XBoard uses for the variant.
    pub fn xboard_name(self) -> &'static str {
        match self {
            Variant::Chushogi => "chu",
            v => v.name(),
        }
    }

    /// The variant named `name`, ignoring case; accepts [`Variant::name`] and the aliases `chu`,
    /// `chu-shogi`, `heian9x9`, `heian9`.
    pub fn from_name(name: &str) -> Option<Variant> {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "chu" | "chushogi" | "chu-shogi" => Some(Variant::Chushogi),
            "heian9x9" | "heian9" => Some(Variant::Heian),
            _ => Variant::ALL.into_iter().find(|v| v.name() == lower),
        }
    }

    /// The variant whose board is `width` files by `height` ranks.
    pub fn from_dimensions(width: u8, height: u8) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.width() == width && v.height() == height)
    }

    /// Chu or Heian: the piece set and rules.
    #[inline]
    pub fn family(self) -> Family {
        match self {
            Variant::Chushogi => Family::Chu,
            _ => Family::Heian,
        }
    }

    /// Number of files.
    pub fn width(self) -> u8 {
        match self {
            Variant::Chushogi => 12,
            Variant::Heian | Variant::Heian9x8 => 9,
            Variant::Heian8x9 | Variant::Heian8x8 => 8,
        }
    }

    /// Number of ranks.
    pub fn height(self) -> u8 {
        match self {
            Variant::Chushogi => 12,
            Variant::Heian | Variant::Heian8x9 => 9,
            Variant::Heian9x8 | Variant::Heian8x8 => 8,
        }
    }

    /// Ranks in each promotion zone (the family's).
    pub fn zone_depth(self) -> u8 {
        self.family().descriptor().zone_depth
    }

    fn masks(self) -> &'static Masks {
        &MASKS[self as usize]
    }

    /// The squares of this variant's board.
    #[inline]
    pub fn board(self) -> Bitboard {
        self.masks().board
    }

    /// Squares of the 12x12 grid outside the board: treated as blockers by sliders.
    #[inline]
    pub fn off_board(self) -> Bitboard {
        self.masks().off_board
    }

    /// The promotion zone of `color` (the far ranks).
    #[inline]
    pub fn zone(self, color: Color) -> Bitboard {
        self.masks().zone[color.index()]
    }

    /// The rank farthest from `color`.
    #[inline]
    pub fn last_rank(self, color: Color) -> Bitboard {
        self.masks().last_rank[color.index()]
    }

    /// The two ranks farthest from `color`.
    #[inline]
    pub fn last_two_ranks(self, color: Color) -> Bitboard {
        self.masks().last_two_ranks[color.index()]
    }

    /// SFEN of the start position.
    pub fn start_sfen(self) -> &'static str {
        match self {
            Variant::Chushogi => "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
            Variant::Heian => "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
            Variant::Heian9x8 => "lnsgkgsnl/9/ppppppppp/9/9/PPPPPPPPP/9/LNSGKGSNL b - 1",
            Variant::Heian8x9 => "lnsgksnl/8/pppppppp/8/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
            Variant::Heian8x8 => "lnsgksnl/8/pppppppp/8/8/PPPPPPPP/8/LNSKGSNL b - 1",
        }
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
