//! The game file's fixed-size records (`TSaveRec`, 2,560 bytes each), typed.
//! Offsets are those of XG's published record layout (Delphi records with
//! natural alignment), as xgdatatools' `xgstruct.py` and gammonview's
//! `gvformat/xg.py` read them; only the fields gammon uses are read.

use super::bytes::{board_at, f32_at, f64_at, i32_at, short_string, u8_at, wide_string};
use super::XgError;

/// The size of every record of the game file.
pub(super) const RECORD_BYTES: usize = 2560;
/// The game file's magic number (`DMLI`, read little-endian) in the match header.
const GAME_FILE_MAGIC: &[u8; 4] = b"DMLI";
/// The most candidates XG stores for a move.
const MAX_CANDIDATES: usize = 32;
/// The value XG stores for an error it did not compute.
const NOT_ANALYSED: f64 = -1000.0;

/// A board in XG's `PositionEngine` layout, seen by the side it belongs to:
/// `[1..=24]` its points (its checkers positive, the opponent's negative),
/// `[25]` its bar, `[0]` the opponent's bar (negative).
pub(super) type XgBoard = [i8; 26];

pub(super) enum Record {
    MatchHeader(Box<MatchHeader>),
    GameHeader(GameHeader),
    Cube(CubeRecord),
    Move(Box<MoveRecord>),
    GameFooter(GameFooter),
    MatchFooter,
}

pub(super) struct MatchHeader {
    pub players: [String; 2],
    /// 0 or 99999: a money session.
    pub length: i32,
    /// 0: backgammon; 1 Nackgammon, 2 Hypergammon, 3 Longgammon.
    pub variation: i32,
    pub crawford: bool,
    pub jacoby: bool,
    pub beaver: bool,
    pub auto_double: bool,
    /// The cube limit as a power of two (v8+); 0 when not written.
    pub cube_limit: i32,
    pub event: String,
    pub location: String,
    pub round: String,
}

pub(super) struct GameHeader {
    pub score: [i32; 2],
    pub crawford: bool,
    pub start: XgBoard,
    pub number: i32,
}

/// A cube decision before a roll: `double` 1 when the player doubled
/// (0 no, negative: no decision, e.g. the opening roll or a dead cube).
pub(super) struct CubeRecord {
    /// 1: player 1, -1: player 2.
    pub active: i32,
    pub double: i32,
    /// 1 take, 0 pass, 2 beaver.
    pub take: i32,
    /// After a beaver: 2 raccoon.
    pub beaver_answer: i32,
    pub eval: Option<CubeEval>,
}

/// XG's analysis of a cube decision, from the decider's side; equities
/// normalised (a pass is +1).
pub(super) struct CubeEval {
    pub level: i32,
    pub no_double: f32,
    pub double_take: f32,
    pub double_pass: f32,
    /// XG's order: lose bg, lose gammon, lose, win, win gammon, win bg, equity.
    pub eval: [f32; 7],
}

pub(super) struct MoveRecord {
    /// 1: player 1, -1: player 2.
    pub active: i32,
    /// From/to pairs in the mover's numbering from 0 (24 the bar, -1 off),
    /// ended by a `from` of -1.
    pub moves: [i32; 8],
    pub dice: [i32; 2],
    /// The candidates, when XG analysed the move.
    pub candidates: Vec<Candidate>,
    /// XG marks the play invalid (`InvalidM` 2): a transcribed play the
    /// rules do not allow, whose steps may not even say what was played.
    pub invalid: bool,
    /// XG's error of the played move (negative), when analysed.
    pub error: Option<f64>,
}

pub(super) struct Candidate {
    /// The position after the move, seen by the mover.
    pub after: XgBoard,
    pub level: i32,
    pub eval: [f32; 7],
}

pub(super) struct GameFooter {
    /// 1: player 1, -1: player 2.
    pub winner: i32,
    pub points: i32,
}

/// The records of a game file; the first must be a match header carrying
/// the game file's magic number.
pub(super) fn parse_records(game_file: &[u8]) -> Result<Vec<Record>, XgError> {
    if !game_file.len().is_multiple_of(RECORD_BYTES) {
        return Err(XgError::Truncated("the last record of the game file"));
    }
    if game_file.get(556..560) != Some(GAME_FILE_MAGIC.as_slice()) {
        return Err(XgError::Corrupt("the game file has no DMLI magic number".into()));
    }
    game_file.chunks_exact(RECORD_BYTES).enumerate().map(|(index, r)| parse_record(index, r)).collect()
}

fn parse_record(index: usize, r: &[u8]) -> Result<Record, XgError> {
    let bad = |what: &str| XgError::Record { index, reason: what.to_string() };
    // Every offset below is inside the record's 2,560 bytes.
    let short = || bad("a field past the end of the record");
    let i32f = |o| i32_at(r, o).ok_or_else(short);
    let f32f = |o| f32_at(r, o).ok_or_else(short);
    let seven = |o: usize| -> Result<[f32; 7], XgError> {
        let mut v = [0.0; 7];
        for (i, x) in v.iter_mut().enumerate() {
            *x = f32f(o + 4 * i)?;
        }
        Ok(v)
    };
    let flag = |o| u8_at(r, o).map(|b| b != 0).ok_or_else(short);
    Ok(match u8_at(r, 8).ok_or_else(short)? {
        0 => {
            let version = i32f(552)?;
            let wide = |o| if version >= 24 { wide_string(r, o, 129).unwrap_or_default() } else { String::new() };
            let ansi = |o, max| short_string(r, o, max).unwrap_or_default();
            let pick = |w: String, a: String| if w.is_empty() { a } else { w };
            Record::MatchHeader(Box::new(MatchHeader {
                players: [pick(wide(880), ansi(9, 40)), pick(wide(1138), ansi(50, 40))],
                length: i32f(92)?,
                variation: i32f(96)?,
                crawford: flag(100)?,
                jacoby: flag(101)?,
                beaver: flag(102)?,
                auto_double: flag(103)?,
                cube_limit: if version >= 8 { i32f(612)? } else { 0 },
                event: pick(wide(622), ansi(136, 128)),
                location: pick(wide(1396), ansi(283, 128)),
                round: pick(wide(1654), ansi(417, 128)),
            }))
        }
        1 => Record::GameHeader(GameHeader {
            score: [i32f(12)?, i32f(16)?],
            crawford: flag(20)?,
            start: board_at(r, 21).ok_or_else(short)?,
            number: i32f(48)?,
        }),
        2 => {
            // The analysis (`EngineStructDoubleAction`) starts at 64.
            let eval = CubeEval {
                level: i32f(64 + 28)?,
                eval: seven(64 + 60)?,
                no_double: f32f(64 + 88)?,
                double_take: f32f(64 + 92)?,
                double_pass: f32f(64 + 96)?,
            };
            // Unanalysed decisions are all zeros; an analysed pass is +1.
            let analysed = eval.double_pass != 0.0
                && [eval.no_double, eval.double_take, eval.double_pass].iter().all(|x| x.is_finite());
            Record::Cube(CubeRecord {
                active: i32f(12)?,
                double: i32f(16)?,
                take: i32f(20)?,
                beaver_answer: i32f(24)?,
                eval: analysed.then_some(eval),
            })
        }
        3 => {
            let mut moves = [0; 8];
            for (i, m) in moves.iter_mut().enumerate() {
                *m = i32f(68 + 4 * i)?;
            }
            let count = i32f(120)?;
            let count = usize::try_from(count)
                .ok()
                .filter(|&n| n <= MAX_CANDIDATES)
                .ok_or_else(|| bad(&format!("{count} candidate moves (at most {MAX_CANDIDATES})")))?;
            let error = f64_at(r, 2312).ok_or_else(short)?;
            let analysed = error > NOT_ANALYSED + 1.0 && error.is_finite();
            // The analysis (`EngineStructBestMove`) starts at 124: positions
            // at +68, levels at +1156, evaluations at +1284.
            let mut candidates = Vec::new();
            if analysed {
                for k in 0..count {
                    candidates.push(Candidate {
                        after: board_at(r, 192 + 26 * k).ok_or_else(short)?,
                        level: i32::from(i16::from_le_bytes([
                            u8_at(r, 1280 + 4 * k).ok_or_else(short)?,
                            u8_at(r, 1281 + 4 * k).ok_or_else(short)?,
                        ])),
                        eval: seven(1408 + 28 * k)?,
                    });
                }
            }
            Record::Move(Box::new(MoveRecord {
                active: i32f(64)?,
                moves,
                dice: [i32f(100)?, i32f(104)?],
                candidates,
                invalid: i32f(2480)? == 2,
                error: analysed.then_some(error),
            }))
        }
        4 => Record::GameFooter(GameFooter { winner: i32f(24)?, points: i32f(28)? }),
        5 => Record::MatchFooter,
        t => return Err(bad(&format!("unknown record type {t}"))),
    })
}
