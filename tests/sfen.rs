//! SFEN and XBoard FEN reading: every accepted form, and a named error for every malformed one.

use shishi::board::{Color, Variant};
use shishi::notation::usi_square;
use shishi::position::Position;

const START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL";

#[test]
fn accepted_forms_of_the_start_position() {
    let reference = Position::startpos(Variant::Chushogi);
    for text in [
        format!("{START} b - 1"),
        format!("{START} b -"),
        format!("{START} b"),
        format!("{START}_b_-_1"),
        format!("{START} b - - 1"),
        "startpos".to_string(),
    ] {
        let pos =
            Position::from_sfen(Variant::Chushogi, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos, reference, "{text}");
    }
    let xb = Position::from_xboard_fen(Variant::Chushogi, &format!("{START} w - - 0 1")).unwrap();
    assert_eq!(xb, reference);
    let gote = Position::from_xboard_fen(Variant::Chushogi, &format!("{START} b - - 0 1")).unwrap();
    assert_eq!(gote.side_to_move(), Color::Gote);
}

#[test]
fn start_position_facts_from_the_rule_book() {
    let pos = Position::startpos(Variant::Chushogi);
    let royal = pos.royals(Color::Sente).single().unwrap();
    assert_eq!(usi_square(Variant::Chushogi, royal), "7l");
    let lion = pos.lions(Color::Gote).single().unwrap();
    assert_eq!(usi_square(Variant::Chushogi, lion), "6c");
    assert_eq!(pos.to_sfen(), format!("{START} b - 1"));
}

#[test]
fn counter_strike_field_round_trips() {
    let sfen = "5skg4/12/12/1p7p2/12/6R5/12/6N5/2P7P1/12/12/4GKS5 w 6f 2";
    let pos = Position::from_sfen(Variant::Chushogi, sfen).unwrap();
    assert_eq!(
        usi_square(Variant::Chushogi, pos.counter_strike().unwrap()),
        "6f"
    );
    assert_eq!(pos.to_sfen(), sfen);
}

#[test]
fn variant_from_board_size() {
    for v in Variant::ALL {
        let pos = Position::from_sfen_any(v.start_sfen()).unwrap();
        assert_eq!(pos.variant(), v);
    }
    assert!(Position::from_sfen_any("7/7/7 b - 1").is_err());
}

fn error(text: &str) -> String {
    Position::from_sfen(Variant::Chushogi, text)
        .expect_err(text)
        .to_string()
}

#[test]
fn malformed_input_is_named() {
    assert!(error("").contains("empty"));
    assert!(error(&format!("{START}/12 b - 1")).contains("13 ranks"));
    assert!(error(&START.replacen("lfcsgekgscfl", "lfcsgekgscflp", 1)).contains("too long"));
    assert!(error(&START.replacen("lfcsgekgscfl", "lfcsgekgscf", 1)).contains("too short"));
    assert!(error(&START.replacen("3i4i3", "3i4y3", 1)).contains("unknown piece 'y'"));
    assert!(error(&START.replacen("3i4i3", "3i4+3", 1)).contains("unknown piece"));
    assert!(error(&START.replacen("3i4i3", "3i4i03", 1)).contains("empty-square count"));
    assert!(error(&format!("{START} x - 1")).contains("side to move"));
    assert!(error(&format!("{START} b 13z 1")).contains("third field"));
    assert!(error(&format!("{START} b - 0")).contains("move number"));
    assert!(error(&format!("{START} b - 1 extra")).contains("extra"));
    // Heian letters are checked against the Heian piece set.
    let heian = Position::from_sfen(
        Variant::Heian,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/9/LNSGKGSNQ b - 1",
    );
    assert!(heian.unwrap_err().to_string().contains("unknown piece 'Q'"));
}

#[test]
fn no_panic_on_arbitrary_strings() {
    let samples = [
        "/",
        "//////////////",
        "+",
        "++P",
        "12/12",
        "999999999999999999999/12",
        "é/ü b - 1",
        "lfcsgekgscfl b w b w",
        "\u{0}",
        "1+",
        "+1",
        "p+",
        "   ",
        "startpos moves",
    ];
    for s in samples {
        let _ = Position::from_sfen(Variant::Chushogi, s);
        let _ = Position::from_sfen_any(s);
        let _ = Position::from_xboard_fen(Variant::Heian, s);
    }
}

/// Found by the fuzz target `sfen` (cargo fuzz, overflow checks on): a run count near
/// `usize::MAX` overflowed the sum of a rank's files while the board's size was guessed.
#[test]
fn a_run_count_near_the_largest_number_is_refused() {
    let sfen = "4g2000000000\u{dd}000000000000000000000000000000000000000018446744073709551607";
    assert!(Position::from_sfen_any(sfen).is_err());
    assert!(Position::from_sfen_any("18446744073709551615a/12 b - 1").is_err());
}
