//! Game records: a game as a file holds it (KIF as lishogi and Japanese tools write it, PGN as
//! XBoard and shishi's match runner write it, a USI move list), read into moves the rules have
//! checked and written back. Every format reads into one `GameFile` and writes from it, so a
//! conversion is a read and a write, and annotations are comments the writers already know.
//!
//! Reading never trusts the file: a move that is not legal, a square off the board, a piece
//! name that does not fit the piece on the square, a byte sequence that is neither UTF-8 nor
//! Shift-JIS are refused with the line they are on (`RecordError`).

pub mod encoding;
pub mod kif;
mod kif_names;
pub mod pgn;
mod san;
pub mod usi_list;

use crate::board::{Color, Variant};
use crate::game::GameRecord;
use crate::moves::Move;
use crate::position::{Outcome, OutcomeReason, Position};
use crate::rules::RuleSet;
use std::path::Path;

/// The most bytes a game record may hold: a game of thousands of plies with every comment is
/// far smaller.
pub const MAX_RECORD_BYTES: u64 = 16 << 20;

/// A format of game records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// KIF (`.kif`, `.kifu`).
    Kif,
    /// PGN (`.pgn`).
    Pgn,
    /// A USI move list (`.usi`): the arguments of USI's `position` command.
    Usi,
}

impl Format {
    /// The format a file name's extension names.
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "kif" | "kifu" => Some(Format::Kif),
            "pgn" => Some(Format::Pgn),
            "usi" => Some(Format::Usi),
            _ => None,
        }
    }

    /// The format a record's text is written in, told from its first non-blank line.
    pub fn sniff(text: &str) -> Option<Format> {
        let first = text.lines().map(str::trim).find(|l| !l.is_empty())?;
        if first.starts_with('[') {
            return Some(Format::Pgn);
        }
        let word = first.split_whitespace().next().unwrap_or("");
        if matches!(word, "position" | "startpos" | "sfen") {
            return Some(Format::Usi);
        }
        let kif_like = text.contains("手数") || text.contains("手目") || text.contains('：');
        kif_like.then_some(Format::Kif)
    }

    /// The format's name, as users write the extension.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Pgn => "pgn",
            Format::Usi => "usi",
        }
    }
}

/// Why a record was refused: the line (1-based) and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{reason}", .line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct RecordError {
    /// The line of the file, when the fault is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl RecordError {
    /// A fault on `line`.
    pub fn at(line: usize, reason: impl Into<String>) -> RecordError {
        RecordError {
            line: Some(line),
            reason: reason.into(),
        }
    }

    /// A fault of the whole file.
    pub fn whole(reason: impl Into<String>) -> RecordError {
        RecordError {
            line: None,
            reason: reason.into(),
        }
    }
}

/// How a game ended, as records name it beyond what the board shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The side to move resigned.
    Resignation,
    /// The side to move is mated, or has lost its royals.
    Mate,
    /// The side to move lost on time.
    TimeForfeit,
    /// The side to move wins: the other side's last move broke a rule.
    IllegalByOpponent,
    /// The side to move loses: it broke a rule.
    IllegalByMover,
    /// Drawn by repetition.
    Repetition,
    /// Drawn by impasse or agreement.
    Draw,
    /// Stopped before a result.
    Abandoned,
    /// Won by this side for a reason the record does not give (a PGN result alone).
    Decided(Color),
}

impl Ending {
    /// The outcome, given the side to move when the game ended.
    pub fn outcome(self, to_move: Color) -> Option<Outcome> {
        let other = to_move.flip();
        match self {
            Ending::Resignation | Ending::Mate | Ending::TimeForfeit => {
                Some(Outcome::win(other, OutcomeReason::Checkmate))
            }
            Ending::IllegalByMover => Some(Outcome::win(other, OutcomeReason::IllegalMove)),
            Ending::IllegalByOpponent => Some(Outcome::win(to_move, OutcomeReason::IllegalMove)),
            Ending::Repetition => Some(Outcome::draw(OutcomeReason::Repetition)),
            Ending::Draw => Some(Outcome::draw(OutcomeReason::TwoRoyals)),
            Ending::Abandoned => None,
            Ending::Decided(winner) => Some(Outcome::win(winner, OutcomeReason::Checkmate)),
        }
    }

    /// The ending that the rules' own outcome of a finished game is.
    pub fn of_outcome(outcome: &Outcome) -> Ending {
        match (outcome.winner, outcome.reason) {
            (None, OutcomeReason::Repetition) => Ending::Repetition,
            (None, _) => Ending::Draw,
            (Some(_), OutcomeReason::IllegalMove) => Ending::IllegalByMover,
            (Some(_), _) => Ending::Mate,
        }
    }
}

/// A judgment of a move, as annotators mark it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Glyph {
    /// An inaccuracy: `?!`, NAG 6.
    Inaccuracy,
    /// A mistake: `?`, NAG 2.
    Mistake,
    /// A blunder: `??`, NAG 4.
    Blunder,
}

impl Glyph {
    /// The PGN numeric annotation glyph.
    pub fn nag(self) -> u8 {
        match self {
            Glyph::Inaccuracy => 6,
            Glyph::Mistake => 2,
            Glyph::Blunder => 4,
        }
    }

    /// The glyph of NAG `nag`, among the three.
    pub fn from_nag(nag: u8) -> Option<Glyph> {
        match nag {
            6 => Some(Glyph::Inaccuracy),
            2 => Some(Glyph::Mistake),
            4 => Some(Glyph::Blunder),
            _ => None,
        }
    }

    /// The word for it (lowercase, as the JSON writes it).
    pub fn word(self) -> &'static str {
        match self {
            Glyph::Inaccuracy => "inaccuracy",
            Glyph::Mistake => "mistake",
            Glyph::Blunder => "blunder",
        }
    }

    /// The word shogi players use for it (KIF comments).
    pub fn japanese(self) -> &'static str {
        match self {
            Glyph::Inaccuracy => "疑問手",
            Glyph::Mistake => "悪手",
            Glyph::Blunder => "大悪手",
        }
    }
}

/// The facts about a game that are not its moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tags {
    /// The event or kind of game (`棋戦`, `[Event]`).
    pub event: Option<String>,
    /// Where it was played (`場所`, `[Site]`).
    pub site: Option<String>,
    /// When it started (`開始日時`, `[Date]`), as the record writes it.
    pub started: Option<String>,
    /// When it ended (`終了日時`).
    pub ended: Option<String>,
    /// The time control (`持ち時間`, `[TimeControl]`), as the record writes it.
    pub time_control: Option<String>,
    /// Sente's player (`先手`, `[White]` in XBoard's PGN, where white moves first).
    pub sente: Option<String>,
    /// Gote's player.
    pub gote: Option<String>,
    /// The round (`[Round]`).
    pub round: Option<String>,
    /// PGN tags no other field holds (`[Termination]`, `[WhiteTimeControl]`...), in file order,
    /// written back to PGN.
    pub other: Vec<(String, String)>,
}

/// A game as a record holds it: the game itself (start position and legal moves), its tags,
/// how it ended, and per move the time used and the comments.
#[derive(Clone)]
pub struct GameFile {
    /// The start position and the moves, checked by the rules.
    pub game: GameRecord,
    /// Names, dates, time control.
    pub tags: Tags,
    /// How the record says the game ended, when it says so.
    pub ending: Option<Ending>,
    /// The time each move took, in milliseconds, where the record gives it.
    pub move_times: Vec<Option<u64>>,
    /// Comments on the start position.
    pub start_comments: Vec<String>,
    /// Comments after each move, one list per move.
    pub comments: Vec<Vec<String>>,
    /// A judgment of each move, where one was made.
    pub glyphs: Vec<Option<Glyph>>,
}

impl GameFile {
    /// A record of no moves from `start`.
    pub fn new(start: Position) -> GameFile {
        GameFile {
            game: GameRecord::new(start),
            tags: Tags::default(),
            ending: None,
            move_times: Vec::new(),
            start_comments: Vec::new(),
            comments: Vec::new(),
            glyphs: Vec::new(),
        }
    }

    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.game.start().variant()
    }

    /// The moves in playing order.
    pub fn moves(&self) -> Vec<Move> {
        self.game.moves().collect()
    }

    /// Plays `mv` (legal, checked by the game) and makes room for its time and comments.
    pub fn push(&mut self, mv: Move, time_ms: Option<u64>) -> Result<(), crate::game::GameError> {
        self.game.play(mv)?;
        self.move_times.push(time_ms);
        self.comments.push(Vec::new());
        self.glyphs.push(None);
        Ok(())
    }

    /// The result: the record's ending applied to the side to move at the end, or the rules'
    /// own outcome of the last position.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(outcome) = self.game.outcome() {
            return Some(outcome);
        }
        self.ending?.outcome(self.game.position().side_to_move())
    }

    /// The ending to write: the record's own, else a mate or a repetition the rules' outcome
    /// gives (lishogi writes no line for a royal captured, a bared king or a draw).
    pub fn ending_to_write(&self) -> Option<Ending> {
        self.ending.or_else(|| {
            let outcome = self.game.outcome()?;
            match outcome.reason {
                OutcomeReason::Checkmate | OutcomeReason::Stalemate => Some(Ending::Mate),
                OutcomeReason::Repetition | OutcomeReason::PerpetualAttack => {
                    Some(Ending::of_outcome(&outcome))
                }
                _ => None,
            }
        })
    }
}

/// What a reader needs besides the text: the variant of a record that does not say (a USI
/// `startpos`, a KIF without a board) and the rules the moves are checked under.
#[derive(Clone, Debug)]
pub struct ReadOptions {
    /// The variant when the record does not name it.
    pub variant: Variant,
    /// The rules the moves are played under.
    pub rules: RuleSet,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions {
            variant: Variant::Chushogi,
            rules: RuleSet::default(),
        }
    }
}

/// Reads a record's bytes in `format`, or the format its text shows when `None`.
pub fn read(
    bytes: &[u8],
    format: Option<Format>,
    options: &ReadOptions,
) -> Result<GameFile, RecordError> {
    let text = encoding::decode(bytes)?;
    if text.trim().is_empty() {
        return Err(RecordError::whole("empty: no game record"));
    }
    let format = match format {
        Some(f) => f,
        None => Format::sniff(&text).ok_or_else(|| {
            RecordError::whole("not a game record: neither KIF, PGN nor a USI move list")
        })?,
    };
    match format {
        Format::Kif => kif::read(&text, options),
        Format::Pgn => pgn::read(&text, options),
        Format::Usi => usi_list::read(&text, options),
    }
}

/// Writes `game` in `format`.
pub fn write(game: &GameFile, format: Format) -> Result<String, RecordError> {
    match format {
        Format::Kif => kif::write(game),
        Format::Pgn => Ok(pgn::write(game)),
        Format::Usi => Ok(usi_list::write(game)),
    }
}

/// Reads the record file at `path`, its format from its name or else its content.
pub fn read_file(path: &Path, options: &ReadOptions) -> Result<GameFile, RecordError> {
    let bytes = crate::platform::read_capped(path, MAX_RECORD_BYTES, "game record")
        .map_err(|e| RecordError::whole(format!("cannot be read: {e}")))?;
    read(&bytes, Format::from_path(path), options)
}
