//! The packed data format: a self-play game as its start position and its moves, each searched
//! position with its score when it is a training position, and the game's result. Six bytes a
//! ply instead of a SFEN line per position, so millions of positions take tens of MB.
//!
//! A file is a sequence of blocks, one per game, and nothing else, so files (the shards of one
//! run, say) concatenate. A block (little-endian):
//!
//! ```text
//! "SHPG" | version u8 (1) | payload length u32 | payload | FNV-1a 32 of the payload u32
//! payload: game number u32 | variant u8 (index in Variant::ALL) | result u8 (0 gote won,
//!          1 draw, 2 sente won) | SFEN length u16 | SFEN | plies u16 |
//!          plies x (move bits u32, 0 for none | score i16, sente's view, i16::MIN for none)
//! ```
//!
//! Ply `i`'s move is played from the position after the `i` moves before it; only the last
//! ply may have no move (a game adjudicated in that position). Reading replays the moves and
//! refuses a move that is not legal there, so a block cannot describe a position the rules
//! cannot reach from its start.

use super::record::{Record, Result01};
use super::selfplay::PlayedGame;
use crate::board::Variant;
use crate::moves::Move;
use crate::position::Position;
use std::fmt;

/// The four bytes every block starts with.
pub(crate) const MAGIC: [u8; 4] = *b"SHPG";
/// The block format this build reads and writes.
pub(crate) const VERSION: u8 = 1;
/// The score of a ply that is not a training position.
pub(crate) const NO_SCORE: i16 = i16::MIN;
/// Bytes before a block's payload.
const HEAD: usize = 4 + 1 + 4;

/// One game in the packed format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PackedGame {
    /// The game's number in its run (1-based, as the text format's block comments).
    pub number: u32,
    /// The variant played.
    pub variant: Variant,
    /// The result, sente's view.
    pub result: Result01,
    /// The position of the first ply, as a SFEN.
    pub start: String,
    /// Each searched position's move (none: the last, adjudicated position) and its score
    /// from sente's view when it is a training position.
    pub plies: Vec<(Option<Move>, Option<i16>)>,
}

/// Why packed data was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PackedError {
    /// A block does not start with the magic (byte offset).
    Magic(u64),
    /// A block of a version this build does not read.
    Version(u64, u8),
    /// A block whose content does not match its checksum.
    Checksum(u64),
    /// The data ends inside a block.
    Truncated(u64),
    /// A block's content is not a game (what is wrong).
    Content(u64, String),
}

impl fmt::Display for PackedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PackedError::Magic(at) => write!(f, "byte {at}: not a packed game block (no SHPG)"),
            PackedError::Version(at, v) => {
                write!(
                    f,
                    "byte {at}: block format version {v}, this build reads {VERSION}"
                )
            }
            PackedError::Checksum(at) => write!(f, "byte {at}: corrupt block (checksum mismatch)"),
            PackedError::Truncated(at) => write!(f, "byte {at}: the data ends inside a block"),
            PackedError::Content(at, why) => write!(f, "byte {at}: {why}"),
        }
    }
}

impl std::error::Error for PackedError {}

fn fnv1a32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn result_byte(result: Result01) -> u8 {
    match result {
        Result01::GoteWon => 0,
        Result01::Draw => 1,
        Result01::SenteWon => 2,
    }
}

impl PackedGame {
    /// The packed form of a played game, numbered `number`.
    pub(crate) fn from_played(number: u32, game: &PlayedGame) -> PackedGame {
        PackedGame {
            number,
            variant: game.variant,
            result: game.result,
            start: game.start.clone(),
            plies: game
                .line
                .iter()
                .map(|&(mv, score)| (mv, score.map(|s| s.clamp(-32767, 32767) as i16)))
                .collect(),
        }
    }

    /// One position as a game of no moves (the text format's records carry no moves).
    pub(crate) fn from_record(number: u32, record: &Record) -> PackedGame {
        PackedGame {
            number,
            variant: record.variant,
            result: record.result,
            start: record.sfen.clone(),
            plies: vec![(None, Some(record.score.clamp(-32767, 32767) as i16))],
        }
    }

    /// The block's bytes.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut payload = Vec::with_capacity(12 + self.start.len() + 6 * self.plies.len());
        payload.extend_from_slice(&self.number.to_le_bytes());
        let variant = Variant::ALL
            .iter()
            .position(|&v| v == self.variant)
            .unwrap_or(0);
        payload.push(variant as u8);
        payload.push(result_byte(self.result));
        payload.extend_from_slice(&(self.start.len() as u16).to_le_bytes());
        payload.extend_from_slice(self.start.as_bytes());
        payload.extend_from_slice(&(self.plies.len() as u16).to_le_bytes());
        for &(mv, score) in &self.plies {
            payload.extend_from_slice(&mv.map_or(0, Move::bits).to_le_bytes());
            payload.extend_from_slice(&score.unwrap_or(NO_SCORE).to_le_bytes());
        }
        let mut out = Vec::with_capacity(HEAD + payload.len() + 4);
        out.extend_from_slice(&MAGIC);
        out.push(VERSION);
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&payload);
        out.extend_from_slice(&fnv1a32(&payload).to_le_bytes());
        out
    }

    /// The training positions: the scored plies, replayed from the start.
    pub(crate) fn records(&self) -> Result<Vec<Record>, String> {
        let mut pos = Position::from_sfen(self.variant, &self.start)
            .map_err(|e| format!("bad start SFEN: {e}"))?;
        let mut out = Vec::new();
        for (i, &(mv, score)) in self.plies.iter().enumerate() {
            if let Some(score) = score {
                out.push(Record {
                    variant: self.variant,
                    sfen: pos.to_sfen(),
                    score: i32::from(score),
                    result: self.result,
                });
            }
            match mv {
                Some(mv) if pos.legal_moves().contains(&mv) => pos.play(mv),
                Some(mv) => {
                    return Err(format!("ply {}: move {:#x} is not legal", i + 1, mv.bits()))
                }
                None if i + 1 < self.plies.len() => {
                    return Err(format!("ply {}: no move before the last ply", i + 1))
                }
                None => {}
            }
        }
        Ok(out)
    }
}

/// Little-endian reads off a payload; `None` when it runs out.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
}

fn parse_payload(payload: &[u8]) -> Result<PackedGame, String> {
    let mut c = Cursor(payload);
    let short = || "the block ends early".to_string();
    let number = c.u32().ok_or_else(short)?;
    let variant = *Variant::ALL
        .get(c.u8().ok_or_else(short)? as usize)
        .ok_or("unknown variant")?;
    let result = match c.u8().ok_or_else(short)? {
        0 => Result01::GoteWon,
        1 => Result01::Draw,
        2 => Result01::SenteWon,
        r => return Err(format!("unknown result {r}")),
    };
    let len = c.u16().ok_or_else(short)? as usize;
    let start = std::str::from_utf8(c.take(len).ok_or_else(short)?)
        .map_err(|_| "the SFEN is not text".to_string())?
        .to_string();
    let count = c.u16().ok_or_else(short)? as usize;
    let mut plies = Vec::with_capacity(count);
    for _ in 0..count {
        let bits = c.u32().ok_or_else(short)?;
        let score = c.u16().ok_or_else(short)? as i16;
        let mv = match bits {
            0 => None,
            b => Some(Move::from_bits(b).ok_or_else(|| format!("bad move bits {b:#x}"))?),
        };
        plies.push((mv, (score != NO_SCORE).then_some(score)));
    }
    if !c.0.is_empty() {
        return Err("bytes after the last ply".to_string());
    }
    Ok(PackedGame {
        number,
        variant,
        result,
        start,
        plies,
    })
}

/// How a scan of packed data ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PackedScan {
    /// Complete blocks, in order.
    pub games: Vec<PackedGame>,
    /// Bytes up to the end of the last complete block.
    pub complete: u64,
}

/// Reads every block of `bytes`. The data may end inside a block only when
/// `allow_partial_end` (a run killed while writing); the partial block is then left out of the
/// scan's `complete` bytes. Anything else that is not a valid block is an error.
pub(crate) fn scan(bytes: &[u8], allow_partial_end: bool) -> Result<PackedScan, PackedError> {
    let mut games = Vec::new();
    let mut at = 0usize;
    while at < bytes.len() {
        let offset = at as u64;
        let rest = &bytes[at..];
        let truncated = |games: Vec<PackedGame>| {
            if allow_partial_end {
                Ok(PackedScan {
                    games,
                    complete: offset,
                })
            } else {
                Err(PackedError::Truncated(offset))
            }
        };
        if rest.len() < HEAD {
            if MAGIC.starts_with(&rest[..rest.len().min(4)]) {
                return truncated(games);
            }
            return Err(PackedError::Magic(offset));
        }
        if rest[..4] != MAGIC {
            return Err(PackedError::Magic(offset));
        }
        if rest[4] != VERSION {
            return Err(PackedError::Version(offset, rest[4]));
        }
        let len = u32::from_le_bytes([rest[5], rest[6], rest[7], rest[8]]) as usize;
        let Some(block) = rest.get(..HEAD + len + 4) else {
            return truncated(games);
        };
        let payload = &block[HEAD..HEAD + len];
        let sum = u32::from_le_bytes(block[HEAD + len..].try_into().unwrap_or([0; 4]));
        if fnv1a32(payload) != sum {
            return Err(PackedError::Checksum(offset));
        }
        games.push(parse_payload(payload).map_err(|why| PackedError::Content(offset, why))?);
        at += block.len();
    }
    Ok(PackedScan {
        games,
        complete: at as u64,
    })
}

/// Whether `bytes` look like packed data (they start with a block's magic).
pub(crate) fn is_packed(bytes: &[u8]) -> bool {
    bytes.starts_with(&MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game() -> PackedGame {
        let mut pos = Position::startpos(Variant::Heian8x8);
        let mut plies = Vec::new();
        for i in 0..6 {
            let mv = pos.legal_moves()[i % 3];
            plies.push((Some(mv), (i % 2 == 0).then_some(10 * i as i16 - 20)));
            pos.play(mv);
        }
        plies.push((None, Some(33)));
        PackedGame {
            number: 7,
            variant: Variant::Heian8x8,
            result: Result01::Draw,
            start: Position::startpos(Variant::Heian8x8).to_sfen(),
            plies,
        }
    }

    #[test]
    fn blocks_round_trip_and_give_the_scored_positions() {
        let g = game();
        let bytes = [g.to_bytes(), g.to_bytes()].concat();
        let scan = scan(&bytes, false).unwrap();
        assert_eq!(scan.games, vec![g.clone(), g.clone()]);
        let records = g.records().unwrap();
        assert_eq!(records.len(), 4);
        assert_eq!(records[0].sfen, g.start);
        assert_eq!(records.last().unwrap().score, 33);
    }

    #[test]
    fn damaged_data_is_refused_by_name() {
        let bytes = game().to_bytes();
        let mut flipped = bytes.clone();
        flipped[20] ^= 1;
        assert!(matches!(
            scan(&flipped, false),
            Err(PackedError::Checksum(0))
        ));
        let short = &bytes[..bytes.len() - 3];
        assert!(matches!(scan(short, false), Err(PackedError::Truncated(0))));
        assert_eq!(scan(short, true).unwrap().complete, 0);
        assert!(matches!(
            scan(b"hello world", true),
            Err(PackedError::Magic(0))
        ));
        let mut version = bytes.clone();
        version[4] = 9;
        assert!(matches!(
            scan(&version, false),
            Err(PackedError::Version(0, 9))
        ));
        let mut illegal = game();
        illegal.plies[2].0 = illegal.plies[0].0;
        assert!(illegal.records().unwrap_err().contains("not legal"));
    }
}
