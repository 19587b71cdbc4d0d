//! Perft under `RuleSet=hachu` against the `hachu` column of positions/chu-perft.epd (a copy of
//! the shared reference). Counts marked `kc` are skipped: HaChu lists no moves where a king can
//! be captured, so they do not count the same tree.
//!
//! How the column was counted matters. It counts the move *spellings* HaChu accepts through
//! `usermove`, not distinct moves: HaChu forces a pawn or lance that may promote on reaching the
//! last rank to promote, yet accepts the unpromoted spelling and plays the promotion. shishi's
//! generator emits each move once (docs/rules.md section 4), so each such forced promotion stands
//! for two accepted spellings. `accepted_spellings` counts the tree that way and must equal the
//! column; in the other positions no forced promotion occurs and it equals plain perft, which
//! `hachu_column_is_plain_perft_without_forced_promotions` checks.

use shishi::board::Kind;
use shishi::movegen::MoveList;
use shishi::moves::Move;
use shishi::perft::perft;
use shishi::position::Position;
use shishi::rules::Preset;
use shishi::Variant;

struct HachuCounts {
    sfen: String,
    /// Depth and count, comparable ones only (no `kc` mark).
    counts: Vec<(u32, u64)>,
}

fn reference() -> Vec<HachuCounts> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/positions/chu-perft.epd"
    ))
    .expect("positions/chu-perft.epd is readable");
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let hachu = fields
            .iter()
            .find_map(|f| f.strip_prefix("hachu "))
            .unwrap_or_else(|| panic!("no hachu field in {line}"));
        let counts = hachu
            .split('/')
            .enumerate()
            .filter(|(_, c)| !c.contains("kc"))
            .map(|(i, c)| {
                (
                    i as u32 + 1,
                    c.parse().unwrap_or_else(|_| panic!("bad count {c}")),
                )
            })
            .collect();
        out.push(HachuCounts {
            sfen: fields[0].to_string(),
            counts,
        });
    }
    out
}

fn hachu_position(sfen: &str) -> Position {
    Position::from_sfen(Variant::from_name("chushogi").unwrap(), sfen)
        .unwrap_or_else(|e| panic!("{sfen}: {e}"))
        .with_rules(Preset::Hachu.rules())
}

/// A promotion HaChu also accepts without `+`: a pawn or lance reaching the last rank.
fn has_unpromoted_spelling(pos: &Position, mv: Move) -> bool {
    mv.is_promotion()
        && matches!(pos.piece_at(mv.from()).kind(), Kind::Pawn | Kind::Lance)
        && pos.variant().last_rank(pos.side_to_move()).has(mv.to())
}

/// Leaves of the tree where every move counts once per spelling HaChu accepts.
fn accepted_spellings(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.is_over_before_moves() {
        return 0;
    }
    let moves: MoveList = pos.legal_moves();
    let mut nodes = 0;
    for &mv in &moves {
        let spellings = 1 + has_unpromoted_spelling(pos, mv) as u64;
        pos.play(mv);
        nodes += spellings * accepted_spellings(pos, depth - 1);
        pos.undo();
    }
    nodes
}

/// Depth-3 Chu counts are a few hundred thousand nodes: fine in release, slow in debug.
const MAX_NODES_IN_DEBUG: u64 = 100_000;

fn affordable(count: u64) -> bool {
    !cfg!(debug_assertions) || count <= MAX_NODES_IN_DEBUG
}

#[test]
fn hachu_column_matches_counted_by_accepted_spellings() {
    let positions = reference();
    assert_eq!(positions.len(), 18, "the reference has 18 positions");
    let mut checked = 0;
    for p in &positions {
        let mut pos = hachu_position(&p.sfen);
        for &(depth, expected) in p.counts.iter().filter(|(_, c)| affordable(*c)) {
            assert_eq!(
                accepted_spellings(&mut pos, depth),
                expected,
                "{} depth {depth}",
                p.sfen
            );
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} counts checked");
}

#[test]
fn hachu_column_is_plain_perft_without_forced_promotions() {
    for p in reference() {
        let mut pos = hachu_position(&p.sfen);
        let forced_somewhere = accepted_spellings(&mut pos, 3) != perft(&mut pos, 3);
        if forced_somewhere {
            continue;
        }
        for &(depth, expected) in p.counts.iter().filter(|(_, c)| affordable(*c)) {
            assert_eq!(perft(&mut pos, depth), expected, "{} depth {depth}", p.sfen);
        }
    }
}

/// Position 12: the pawn on 4b takes the pawn on 4a. HaChu plays it only as a promotion; the
/// reference's 17/204/3630 counts `4b4a` and `4b4a+` separately, shishi counts the move once.
#[test]
fn last_rank_capture_by_pawn_is_one_forced_promotion_under_hachu() {
    let sfen = "3PLskgp3/2P5P3/1L10/1p7p2/12/12/12/12/2P7P1/12/12/4GKS5 b - 1";
    let mut pos = hachu_position(sfen);
    let counts: Vec<u64> = (1..=3).map(|d| perft(&mut pos, d)).collect();
    assert_eq!(counts, [16, 192, 3267]);
    let spellings: Vec<u64> = (1..=3).map(|d| accepted_spellings(&mut pos, d)).collect();
    assert_eq!(spellings, [17, 204, 3630]);
}
