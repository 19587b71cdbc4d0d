//! The fixed value of each piece kind: what move ordering, pruning and static exchange count
//! a capture as, and the hand-crafted evaluation's starting material before its tuned weights.

use crate::board::Kind;

/// Material value of a piece kind for move ordering and pruning (royals: `ROYAL_VALUE`).
pub const fn material(kind: Kind) -> i32 {
    use Kind::*;
    match kind {
        King | Prince | HeianKing => ROYAL_VALUE,
        Elephant => 350,
        Gold => 300,
        PromotedGold => 550,
        Silver => 250,
        PromotedSilver => 370,
        Copper => 200,
        PromotedCopper => 350,
        Leopard => 280,
        PromotedLeopard => 450,
        Tiger => 300,
        Stag => 600,
        Kirin => 330,
        PromotedKirin => 1800,
        Phoenix => 340,
        PromotedPhoenix => 1200,
        Pawn => 100,
        Tokin => 320,
        GoBetween => 110,
        PromotedGoBetween => 350,
        Lance => 200,
        WhiteHorse => 600,
        Chariot => 250,
        Whale => 550,
        SideMover => 330,
        Boar => 700,
        VerticalMover => 350,
        Ox => 750,
        Bishop => 450,
        PromotedBishop => 650,
        Rook => 550,
        PromotedRook => 750,
        Horse => 650,
        Falcon => 1000,
        Dragon => 750,
        Eagle => 1100,
        Queen => 1200,
        Lion => 1800,
        HeianGold => 500,
        HeianSilver => 450,
        HeianKnight => 330,
        HeianLance => 300,
        HeianPawn => 100,
        HeianPromotedSilver => 500,
        HeianPromotedKnight => 500,
        HeianPromotedLance => 500,
        HeianTokin => 520,
    }
}

/// The material of a royal for move ordering (a capture of one is valued by `victim_value`).
pub const ROYAL_VALUE: i32 = 1000;
