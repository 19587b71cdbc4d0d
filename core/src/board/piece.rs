//! Piece identities and how each one moves.
//!
//! Every promoted identity is its own `Kind` (docs/rules.md section 3): a `+G` moves like a rook but
//! is not a `Rook`, because it can never promote. Heian pieces are separate kinds too, since they
//! promote differently (a Heian silver becomes a gold, a Chu silver a vertical mover).
//!
//! Moves are given relative to the mover, with direction bits clockwise from straight forward:
//! bit 0 forward, 1 forward-right, 2 right, 3 back-right, 4 back, 5 back-left, 6 left,
//! 7 forward-left. For sente these are the absolute directions of `DIRECTIONS`; for gote the
//! mask is rotated by half a turn.

use super::{Color, Family};

const F: u8 = 1;
const FR: u8 = 2;
const R: u8 = 4;
const BR: u8 = 8;
const B: u8 = 16;
const BL: u8 = 32;
const L: u8 = 64;
const FL: u8 = 128;
const ALL: u8 = 0xff;
const ORTH: u8 = F | R | B | L;
const DIAG: u8 = FR | BR | BL | FL;
const GOLD: u8 = F | FR | FL | R | L | B;

/// Jump sets (bits of `KindInfo::jumps`).
pub(crate) const JUMP_ORTH2: u8 = 1;
/// Jump two squares diagonally, over whatever stands between (the Phoenix).
pub(crate) const JUMP_DIAG2: u8 = 2;
/// Knight jump: one file aside and two ranks forward (the Heian knight).
pub(crate) const JUMP_KNIGHT: u8 = 4;

/// The lion power of a piece (docs/rules.md section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LionPower {
    /// No lion power.
    None,
    /// The Lion and the promoted Kirin: the whole 5x5 box and any double king step.
    Full,
    /// Horned Falcon and Soaring Eagle: lion power only along these relative directions.
    Lines(u8),
}

/// The static description of a kind: its letters, name and moves.
pub struct KindInfo {
    /// SFEN letter(s) of the sente piece, `+` first for a promoted kind.
    pub letter: &'static str,
    /// English name, lowercase (`"drunk elephant"`).
    pub name: &'static str,
    /// The piece set the kind belongs to.
    pub family: Family,
    /// Relative directions of single king steps (direction bits, see the module doc).
    pub steps: u8,
    /// Relative directions of unlimited slides.
    pub slides: u8,
    /// Jump sets, `JUMP_*` bits.
    pub jumps: u8,
    /// Lion power, if any.
    pub lion: LionPower,
    /// The kind it promotes to; `None` for kinds that cannot promote.
    pub promotes_to: Option<Kind>,
    /// Losing all royal pieces loses the game.
    pub royal: bool,
}

macro_rules! kinds {
    ($($kind:ident = $letter:literal, $name:literal, $fam:ident, steps $steps:expr, slides $slides:expr,
        jumps $jumps:expr, lion $lion:expr, promotes $prom:expr, royal $royal:literal;)*) => {
        /// A piece identity, without colour.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Kind { $(#[doc = concat!("The ", $name, " (`", $letter, "`).")] $kind),* }

        /// Every kind, in index order.
        pub const KINDS: &[Kind] = &[$(Kind::$kind),*];

        const INFO: &[KindInfo] = &[$(KindInfo {
            letter: $letter,
            name: $name,
            family: Family::$fam,
            steps: $steps,
            slides: $slides,
            jumps: $jumps,
            lion: $lion,
            promotes_to: $prom,
            royal: $royal,
        }),*];
    };
}

use Kind::*;
use LionPower::{Full, Lines};

kinds! {
    King = "K", "king", Chu, steps ALL, slides 0, jumps 0, lion LionPower::None, promotes None, royal true;
    Elephant = "E", "drunk elephant", Chu, steps ALL & !B, slides 0, jumps 0, lion LionPower::None, promotes Some(Prince), royal false;
    Prince = "+E", "crown prince", Chu, steps ALL, slides 0, jumps 0, lion LionPower::None, promotes None, royal true;
    Gold = "G", "gold general", Chu, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes Some(PromotedGold), royal false;
    PromotedGold = "+G", "rook (promoted gold)", Chu, steps 0, slides ORTH, jumps 0, lion LionPower::None, promotes None, royal false;
    Silver = "S", "silver general", Chu, steps DIAG | F, slides 0, jumps 0, lion LionPower::None, promotes Some(PromotedSilver), royal false;
    PromotedSilver = "+S", "vertical mover (promoted silver)", Chu, steps R | L, slides F | B, jumps 0, lion LionPower::None, promotes None, royal false;
    Copper = "C", "copper general", Chu, steps F | FR | FL | B, slides 0, jumps 0, lion LionPower::None, promotes Some(PromotedCopper), royal false;
    PromotedCopper = "+C", "side mover (promoted copper)", Chu, steps F | B, slides R | L, jumps 0, lion LionPower::None, promotes None, royal false;
    Leopard = "F", "ferocious leopard", Chu, steps ALL & !(R | L), slides 0, jumps 0, lion LionPower::None, promotes Some(PromotedLeopard), royal false;
    PromotedLeopard = "+F", "bishop (promoted leopard)", Chu, steps 0, slides DIAG, jumps 0, lion LionPower::None, promotes None, royal false;
    Tiger = "T", "blind tiger", Chu, steps ALL & !F, slides 0, jumps 0, lion LionPower::None, promotes Some(Stag), royal false;
    Stag = "+T", "flying stag", Chu, steps ALL & !(F | B), slides F | B, jumps 0, lion LionPower::None, promotes None, royal false;
    Kirin = "O", "kirin", Chu, steps DIAG, slides 0, jumps JUMP_ORTH2, lion LionPower::None, promotes Some(PromotedKirin), royal false;
    PromotedKirin = "+O", "lion (promoted kirin)", Chu, steps 0, slides 0, jumps 0, lion Full, promotes None, royal false;
    Phoenix = "X", "phoenix", Chu, steps ORTH, slides 0, jumps JUMP_DIAG2, lion LionPower::None, promotes Some(PromotedPhoenix), royal false;
    PromotedPhoenix = "+X", "free king (promoted phoenix)", Chu, steps 0, slides ALL, jumps 0, lion LionPower::None, promotes None, royal false;
    Pawn = "P", "pawn", Chu, steps F, slides 0, jumps 0, lion LionPower::None, promotes Some(Tokin), royal false;
    Tokin = "+P", "gold (promoted pawn)", Chu, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    GoBetween = "I", "go-between", Chu, steps F | B, slides 0, jumps 0, lion LionPower::None, promotes Some(PromotedGoBetween), royal false;
    PromotedGoBetween = "+I", "drunk elephant (promoted go-between)", Chu, steps ALL & !B, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    Lance = "L", "lance", Chu, steps 0, slides F, jumps 0, lion LionPower::None, promotes Some(WhiteHorse), royal false;
    WhiteHorse = "+L", "white horse", Chu, steps 0, slides F | B | FR | FL, jumps 0, lion LionPower::None, promotes None, royal false;
    Chariot = "A", "reverse chariot", Chu, steps 0, slides F | B, jumps 0, lion LionPower::None, promotes Some(Whale), royal false;
    Whale = "+A", "whale", Chu, steps 0, slides F | B | BR | BL, jumps 0, lion LionPower::None, promotes None, royal false;
    SideMover = "M", "side mover", Chu, steps F | B, slides R | L, jumps 0, lion LionPower::None, promotes Some(Boar), royal false;
    Boar = "+M", "free boar", Chu, steps 0, slides R | L | DIAG, jumps 0, lion LionPower::None, promotes None, royal false;
    VerticalMover = "V", "vertical mover", Chu, steps R | L, slides F | B, jumps 0, lion LionPower::None, promotes Some(Ox), royal false;
    Ox = "+V", "flying ox", Chu, steps 0, slides F | B | DIAG, jumps 0, lion LionPower::None, promotes None, royal false;
    Bishop = "B", "bishop", Chu, steps 0, slides DIAG, jumps 0, lion LionPower::None, promotes Some(PromotedBishop), royal false;
    PromotedBishop = "+B", "dragon horse (promoted bishop)", Chu, steps ORTH, slides DIAG, jumps 0, lion LionPower::None, promotes None, royal false;
    Rook = "R", "rook", Chu, steps 0, slides ORTH, jumps 0, lion LionPower::None, promotes Some(PromotedRook), royal false;
    PromotedRook = "+R", "dragon king (promoted rook)", Chu, steps DIAG, slides ORTH, jumps 0, lion LionPower::None, promotes None, royal false;
    Horse = "H", "dragon horse", Chu, steps ORTH, slides DIAG, jumps 0, lion LionPower::None, promotes Some(Falcon), royal false;
    Falcon = "+H", "horned falcon", Chu, steps 0, slides ALL & !F, jumps 0, lion Lines(F), promotes None, royal false;
    Dragon = "D", "dragon king", Chu, steps DIAG, slides ORTH, jumps 0, lion LionPower::None, promotes Some(Eagle), royal false;
    Eagle = "+D", "soaring eagle", Chu, steps 0, slides ALL & !(FR | FL), jumps 0, lion Lines(FR | FL), promotes None, royal false;
    Queen = "Q", "free king", Chu, steps 0, slides ALL, jumps 0, lion LionPower::None, promotes None, royal false;
    Lion = "N", "lion", Chu, steps 0, slides 0, jumps 0, lion Full, promotes None, royal false;
    HeianKing = "K", "king", Heian, steps ALL, slides 0, jumps 0, lion LionPower::None, promotes None, royal true;
    HeianGold = "G", "gold general", Heian, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    HeianSilver = "S", "silver general", Heian, steps DIAG | F, slides 0, jumps 0, lion LionPower::None, promotes Some(HeianPromotedSilver), royal false;
    HeianKnight = "N", "knight", Heian, steps 0, slides 0, jumps JUMP_KNIGHT, lion LionPower::None, promotes Some(HeianPromotedKnight), royal false;
    HeianLance = "L", "lance", Heian, steps 0, slides F, jumps 0, lion LionPower::None, promotes Some(HeianPromotedLance), royal false;
    HeianPawn = "P", "pawn", Heian, steps F, slides 0, jumps 0, lion LionPower::None, promotes Some(HeianTokin), royal false;
    HeianPromotedSilver = "+S", "promoted silver", Heian, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    HeianPromotedKnight = "+N", "promoted knight", Heian, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    HeianPromotedLance = "+L", "promoted lance", Heian, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
    HeianTokin = "+P", "tokin", Heian, steps GOLD, slides 0, jumps 0, lion LionPower::None, promotes None, royal false;
}

/// Number of kinds.
pub const NUM_KINDS: usize = KINDS.len();

/// Rotates a relative direction mask to the absolute directions of `color`.
#[inline]
pub(crate) const fn absolute_dirs(mask: u8, color: Color) -> u8 {
    match color {
        Color::Sente => mask,
        Color::Gote => mask.rotate_left(4),
    }
}

impl Kind {
    /// Position in [`KINDS`], 0..[`NUM_KINDS`]: the index of per-kind tables.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The kind's static description.
    #[inline]
    pub fn info(self) -> &'static KindInfo {
        &INFO[self as usize]
    }

    /// The kind with [`Kind::index`] `i`; panics if `i` is not below [`NUM_KINDS`].
    #[inline]
    pub fn from_index(i: usize) -> Kind {
        KINDS[i]
    }

    /// SFEN letter(s) of the sente piece: `"N"`, `"+O"`.
    pub fn letter(self) -> &'static str {
        self.info().letter
    }

    /// English name, lowercase (`"drunk elephant"`).
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// The piece set the kind belongs to.
    pub fn family(self) -> Family {
        self.info().family
    }

    /// The kind it promotes to; `None` for kinds that cannot promote.
    #[inline]
    pub fn promotes_to(self) -> Option<Kind> {
        self.info().promotes_to
    }

    /// King or Crown Prince (or the Heian king): losing all of them loses the game.
    #[inline]
    pub fn is_royal(self) -> bool {
        self.info().royal
    }

    /// A Lion in the sense of the lion-trading rules: the Lion and the promoted Kirin.
    #[inline]
    pub fn is_lion(self) -> bool {
        matches!(self, Lion | PromotedKirin)
    }

    /// Lion power, if any.
    #[inline]
    pub fn lion_power(self) -> LionPower {
        self.info().lion
    }

    /// Whether this kind is the promoted form of another one.
    pub fn is_promoted(self) -> bool {
        self.letter().starts_with('+')
    }

    /// Pawns and lances: they can never move again once on the last rank unpromoted.
    #[inline]
    pub fn is_one_way(self) -> bool {
        matches!(self, Pawn | Lance | HeianPawn | HeianLance)
    }

    /// The kind written `letter` (uppercase, with `+` for promoted) in `family`.
    pub fn from_letter(family: Family, letter: &str) -> Option<Kind> {
        KINDS
            .iter()
            .copied()
            .find(|k| k.family() == family && k.letter() == letter)
    }
}

/// A coloured piece packed in a byte: 0 is "no piece", bit 6 is gote, the low bits kind + 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece(u8);

impl Piece {
    /// The empty square.
    pub const NONE: Piece = Piece(0);

    /// The piece `kind` of `color`.
    #[inline]
    pub fn new(color: Color, kind: Kind) -> Piece {
        Piece(((color as u8) << 6) | (kind as u8 + 1))
    }

    /// True for [`Piece::NONE`].
    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }

    /// True for a real piece.
    #[inline]
    pub fn is_some(self) -> bool {
        self.0 != 0
    }

    /// The kind; must not be called on [`Piece::NONE`].
    #[inline]
    pub fn kind(self) -> Kind {
        debug_assert!(self.is_some());
        KINDS[((self.0 & 63) - 1) as usize]
    }

    /// The owner (sente for [`Piece::NONE`]).
    #[inline]
    pub fn color(self) -> Color {
        if self.0 & 64 != 0 {
            Color::Gote
        } else {
            Color::Sente
        }
    }

    /// Index for tables sized `2 * NUM_KINDS + 1`... packed code, below 128.
    #[inline]
    pub fn code(self) -> usize {
        self.0 as usize
    }

    /// SFEN spelling: uppercase for sente, lowercase for gote, `+` before a promoted letter.
    pub fn sfen(self) -> String {
        let l = self.kind().letter();
        match self.color() {
            Color::Sente => l.to_string(),
            Color::Gote => l.to_ascii_lowercase(),
        }
    }
}
