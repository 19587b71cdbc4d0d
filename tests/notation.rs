//! Move notation (docs/rules.md section 11): every spelling of a legal move is read as that move, the
//! canonical spelling is written, and an illegal move is refused with its reason.

use shishi::board::Kind;
use shishi::board::Variant;
use shishi::notation::{parse_move, write_move, IllegalMove, Notation};
use shishi::position::Position;

fn chu(sfen: &str) -> Position {
    Position::from_sfen(Variant::Chushogi, sfen).unwrap()
}

fn same(pos: &Position, a: &str, an: Notation, b: &str, bn: Notation) {
    let ma = parse_move(pos, a, an).unwrap_or_else(|e| panic!("{a}: {e}"));
    let mb = parse_move(pos, b, bn).unwrap_or_else(|e| panic!("{b}: {e}"));
    assert_eq!(ma, mb, "{a} and {b} should be one move");
}

fn refused(pos: &Position, text: &str, n: Notation, reason: &str) {
    let e = parse_move(pos, text, n).expect_err(text);
    assert!(
        e.reason.to_string().contains(reason),
        "{text}: '{}' lacks '{reason}'",
        e.reason
    );
}

/// Sente lion on 6g with a gote pawn on 5f, an empty 7f and a sente gold on 6h.
const LION: &str = "5skg4/12/12/1p7p2/12/6p5/6N5/6G5/2P7P1/12/12/4GKS5 b - 1";

#[test]
fn usi_and_xboard_spell_the_same_moves() {
    let pos = Position::startpos(Variant::Chushogi);
    // docs/rules.md: chu USI 7j = XBoard f3.
    same(&pos, "7j8h", Notation::Usi, "f3e5", Notation::Xboard);
    same(&pos, "7j8h=", Notation::Usi, "f3e5", Notation::Xboard);
    let m = parse_move(&pos, "7j8h", Notation::Usi).unwrap();
    assert_eq!(write_move(&pos, m, Notation::Usi), "7j8h");
    assert_eq!(write_move(&pos, m, Notation::Xboard), "f3e5");
}

#[test]
fn lion_double_moves_in_both_notations() {
    let pos = chu(LION);
    // 6g (XBoard g6) takes the pawn on 6f (g7) and returns: igui.
    let igui = parse_move(&pos, "6g6f6g", Notation::Usi).unwrap();
    assert!(igui.is_igui());
    assert_eq!(write_move(&pos, igui, Notation::Usi), "6g6f6g");
    let xb = write_move(&pos, igui, Notation::Xboard);
    assert_eq!(xb, "g6g7,g7g6");
    assert_eq!(parse_move(&pos, &xb, Notation::Xboard).unwrap(), igui);
    // Capture and go on.
    let on = parse_move(&pos, "6g6f6e", Notation::Usi).unwrap();
    assert_eq!(on.mid(), igui.mid());
    assert_eq!(parse_move(&pos, "g6g7,g7g8", Notation::Xboard).unwrap(), on);
    // A double move through an empty square is the direct jump.
    same(&pos, "6g7f8e", Notation::Usi, "6g8e", Notation::Usi);
    same(&pos, "6g7f8e", Notation::Usi, "g6f7,f7e8", Notation::Xboard);
}

#[test]
fn every_spelling_of_the_pass() {
    let pos = chu(LION);
    let pass = parse_move(&pos, "0000", Notation::Usi).unwrap();
    assert!(pass.is_pass());
    for (text, n) in [
        ("6g7f6g", Notation::Usi),
        ("6g5g6g", Notation::Usi),
        ("@@@@", Notation::Xboard),
        ("g6g6", Notation::Xboard),
        ("g6f7,f7g6", Notation::Xboard),
    ] {
        assert_eq!(parse_move(&pos, text, n).unwrap(), pass, "{text}");
    }
    assert_eq!(write_move(&pos, pass, Notation::Xboard), "@@@@");
    // The canonical USI pass goes through the first empty neighbour in lishogi's order
    // (nearest rank a, then the lowest file number).
    assert_eq!(write_move(&pos, pass, Notation::Usi), "6g5f6g");
    // Passing through a friendly piece is not a pass.
    refused(&pos, "6g6h6g", Notation::Usi, "your own piece");
}

#[test]
fn promotions() {
    // A sente pawn on 3e steps into the zone on 3d; a gold cannot promote twice.
    let pos = chu("5skg4/12/12/12/9P2/12/12/12/12/12/12/4GKS5 b - 1");
    let plain = parse_move(&pos, "3e3d", Notation::Usi).unwrap();
    let promo = parse_move(&pos, "3e3d+", Notation::Usi).unwrap();
    assert!(promo.is_promotion() && !plain.is_promotion());
    assert_eq!(parse_move(&pos, "j8j9+", Notation::Xboard).unwrap(), promo);
    assert_eq!(write_move(&pos, promo, Notation::Xboard), "j8j9+");
    refused(&pos, "6l6k+", Notation::Usi, "may not promote");
    refused(&pos, "7l7k+", Notation::Usi, "the king cannot promote");
}

#[test]
fn illegal_moves_name_their_reason() {
    // Reference position 5: gote lion 6f protected by the gold on 6e, sente lion on 6h,
    // gote pawn on 7g and silver on 5g between them.
    let pos = chu("5skg4/12/12/1p7p2/6g5/6n5/5p1s4/6N5/2P7P1/12/12/4GKS5 b - 1");
    refused(
        &pos,
        "6h6f",
        Notation::Usi,
        "distant capture of a protected lion",
    );
    refused(&pos, "6h7g6f", Notation::Usi, "bridge capture");
    assert!(parse_move(&pos, "6h5g6f", Notation::Usi).is_ok());
    refused(
        &pos,
        "6h6a",
        Notation::Usi,
        "not a legal move of the lion on 6h",
    );
    refused(&pos, "6a6b", Notation::Usi, "gote's");
    refused(&pos, "9e9d", Notation::Usi, "no piece on 9e");
    refused(&pos, "7l7k7j", Notation::Usi, "no lion power");
    refused(&pos, "hello", Notation::Usi, "unparsable");
    refused(&pos, "6h6g6f6e", Notation::Usi, "unparsable");
    refused(&pos, "z9z9", Notation::Xboard, "unparsable");
}

#[test]
fn an_illegal_move_has_a_typed_reason_that_reads_as_before() {
    let pos = chu("5skg4/12/12/1p7p2/6g5/6n5/5p1s4/6N5/2P7P1/12/12/4GKS5 b - 1");
    let refusal = |text: &str, n: Notation| parse_move(&pos, text, n).expect_err(text);
    let e = refusal("6h6f", Notation::Usi);
    assert_eq!(
        e.reason,
        IllegalMove::DistantLionCapture { lion: "6f".into() }
    );
    assert_eq!(
        e.to_string(),
        "distant capture of a protected lion on 6f: 6h6f"
    );
    let e = refusal("6h7g6f", Notation::Usi);
    assert_eq!(
        e.reason,
        IllegalMove::BridgeCapture {
            lion: "6f".into(),
            taken: Kind::Pawn,
            middle: "7g".into()
        }
    );
    assert_eq!(
        e.reason.to_string(),
        "bridge capture of the protected lion on 6f after taking only a pawn on 7g"
    );
    let e = refusal("6a6b", Notation::Usi);
    assert!(matches!(e.reason, IllegalMove::NotYourPiece { .. }));
    assert_eq!(
        e.reason.to_string(),
        "the piece on 6a is gote's, and sente is to move"
    );
    let e = refusal(" 9e9d ", Notation::Usi);
    assert_eq!(
        e.reason,
        IllegalMove::NoPiece {
            square: "9e".into()
        }
    );
    assert_eq!(e.to_string(), "no piece on 9e: 9e9d");
    let e = refusal("z9z9", Notation::Xboard);
    assert_eq!(e.reason, IllegalMove::Unparsable(Notation::Xboard));
    assert_eq!(
        e.reason.to_string(),
        "unparsable move (expected XBoard like f4f5, e9e10+, e6f7,f7e6 or @@@@)"
    );
    let e = refusal("7l7k7j", Notation::Usi);
    assert!(matches!(
        e.reason,
        IllegalMove::NoLionPower {
            kind: Kind::King,
            ..
        }
    ));
}

#[test]
fn heian_forced_promotion_is_named() {
    let pos = Position::from_sfen(Variant::Heian, "4k4/P8/9/9/9/9/9/9/4K4 b - 1").unwrap();
    refused(&pos, "9b9a", Notation::Usi, "must promote");
    assert!(parse_move(&pos, "9b9a+", Notation::Usi)
        .unwrap()
        .is_promotion());
}
