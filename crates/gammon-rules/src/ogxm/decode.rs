//! The container and the sections gammon reads: the 16-byte header, the
//! section walk (type, length, flags; `END!` last), the CRC-32 `CSUM`, and
//! the records of `MTCH`, `GAME`, `ANAL` and `DECS`. Other sections (`SIGN`,
//! `MSIG`, `CLCK`, `VIDO`, `ANNO`) and unknown non-critical ones are skipped;
//! an unknown critical one (flag bit 0) refuses the file, as the spec says.

use super::wire::{crc32, Cursor, Mask};
use super::OgxmError;

pub(crate) const MAGIC: &[u8; 4] = b"OGXM";
pub(crate) const HEADER_BYTES: usize = 16;
pub(crate) const END: &[u8; 4] = b"END!";
/// The newest minor version of major 2 this reader knows.
pub(crate) const READER_MINOR: u16 = 2;
/// Limits of v2 (and of gammon's replay): games, plies, blocks, alternatives.
pub(crate) const MAX_GAMES: usize = 1000;
pub(crate) const MAX_PLIES_PER_GAME: usize = 1500;
pub(crate) const MAX_BLOCKS: usize = 64;
pub(crate) const MAX_ALTERNATIVES: usize = 1024;
/// Decisions of one analysis block: two a ply (cube and checker) of a
/// long session, far below what 16 MiB of tiny records would make.
pub(crate) const MAX_DECISIONS: usize = 100_000;
/// Alternatives of one block, all decisions together (a real match keeps
/// some 20 a decision): bounds the memory and the move generation.
pub(crate) const MAX_BLOCK_ALTERNATIVES: usize = 250_000;

const KNOWN: [&[u8; 4]; 10] =
    [b"MTCH", b"GAME", b"ANAL", b"DECS", b"SIGN", b"CLCK", b"VIDO", b"ANNO", b"MSIG", b"CSUM"];

/// One checker step as stored: the start point in the board's absolute
/// numbering (seat 1 moves from 24 down to 1, entering from 25; seat 0
/// moves from 1 up to 24, entering from 0) and the pips moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct WireStep {
    pub from: u8,
    pub pips: u8,
}

impl WireStep {
    fn from_byte(b: u8, offset: usize) -> Result<Self, OgxmError> {
        let (from, pips) = (b & 0x1F, b >> 5);
        if from > 25 || !(1..=6).contains(&pips) {
            return Err(OgxmError::Invalid { offset, what: "a step byte that is not a checker step" });
        }
        Ok(WireStep { from, pips })
    }

    pub fn byte(self) -> u8 {
        self.from | self.pips << 5
    }
}

pub(crate) struct Mtch {
    pub match_length: u32,
    pub variant: u32,
    pub white: Option<String>,
    pub black: Option<String>,
    pub rules: u32,
    pub cube_limit: Option<u32>,
    pub score_start: Option<[u32; 2]>,
    pub crawford_before_start: bool,
    pub event: Option<String>,
    pub round: Option<u32>,
    pub city: Option<String>,
    pub site: Option<String>,
}

#[derive(Default)]
pub(crate) struct Extras {
    pub dice: Option<(u8, u8)>,
    pub resign_value: Option<u32>,
    pub cube_value: Option<u32>,
    pub illegal: bool,
    pub board: Option<[i8; 26]>,
    pub action_ext: Option<u32>,
}

pub(crate) struct Ply {
    pub action: u32,
    pub seat: usize,
    pub steps: Vec<WireStep>,
    pub extras: Option<Extras>,
    /// Where it starts in the file, for errors.
    pub offset: usize,
}

pub(crate) struct Game {
    pub winner: Option<u32>,
    pub points_won: Option<u32>,
    pub initial_board: Option<[i8; 26]>,
    pub initial_cube_value: Option<u32>,
    pub initial_cube_owner: Option<u32>,
    pub auto_doubles: Option<u32>,
    pub plies: Vec<Ply>,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Level {
    pub preset: Option<String>,
    pub checker_ply: Option<u32>,
    pub cube_ply: Option<u32>,
    pub rollout: bool,
}

impl Level {
    /// `self` over `parent`: each field from the innermost tier stating it.
    pub fn over(&self, parent: &Level) -> Level {
        Level {
            preset: self.preset.clone().or_else(|| parent.preset.clone()),
            checker_ply: self.checker_ply.or(parent.checker_ply),
            cube_ply: self.cube_ply.or(parent.cube_ply),
            rollout: self.rollout || parent.rollout,
        }
    }
}

pub(crate) struct Anal {
    pub level: Level,
    pub currency: Option<u32>,
    pub model_id: Option<String>,
    pub model_name: Option<String>,
    pub decisions: Vec<Decision>,
}

pub(crate) struct Alternative {
    pub steps: Vec<WireStep>,
    pub equity: f64,
    pub probs: Option<[f64; 5]>,
    pub level: Option<Level>,
    pub played: bool,
}

pub(crate) enum Decision {
    Checker {
        ply_ref: u32,
        alternatives: Vec<Alternative>,
        level: Option<Level>,
    },
    Cube {
        ply_ref: u32,
        no_double: f64,
        double_take: f64,
        double_pass: f64,
        probs: Option<[f64; 5]>,
        level: Option<Level>,
    },
    /// A resignation or luck record, or a kind this reader does not know.
    Other,
}

/// What gammon reads of a v2 file.
pub(crate) struct File {
    pub mtch: Mtch,
    pub games: Vec<Game>,
    pub blocks: Vec<Anal>,
}

/// Checks the header, end marker, checksum and section framing, and
/// decodes the sections gammon reads.
pub(crate) fn decode(data: &[u8]) -> Result<File, OgxmError> {
    if !data.starts_with(MAGIC) {
        return Err(OgxmError::NotOgxm);
    }
    if data.len() as u64 > crate::MAX_MATCH_FILE_BYTES {
        return Err(OgxmError::Limit { what: "a file larger than 16 MiB (MAX_MATCH_FILE_BYTES)" });
    }
    let mut head = Cursor::new(data.get(..HEADER_BYTES).ok_or(OgxmError::Truncated { offset: data.len() })?, 0);
    head.bytes(4)?;
    let (major, minor) = (head.u16()?, head.u16()?);
    let (reader_major, reader_minor) = (head.u16()?, head.u16()?);
    if major == 1 {
        return Err(OgxmError::Version1 { minor });
    }
    if major != 2 || reader_major > 2 || (reader_major == 2 && reader_minor > READER_MINOR) {
        return Err(OgxmError::Version { major, minor, reader_major, reader_minor });
    }
    let size = head.u32()?;
    if usize::try_from(size).ok() != Some(data.len()) {
        return Err(OgxmError::SizeMismatch { stated: size, actual: data.len() });
    }
    let body_end = data.len().checked_sub(END.len()).filter(|&e| e >= HEADER_BYTES).ok_or(OgxmError::NoEndMarker)?;
    if data.get(body_end..) != Some(&END[..]) {
        return Err(OgxmError::NoEndMarker);
    }
    let mut sections = Vec::new();
    let mut walk = Cursor::new(data.get(HEADER_BYTES..body_end).unwrap_or_default(), HEADER_BYTES);
    while !walk.at_end() {
        let start = walk.offset();
        let mut kind = [0u8; 4];
        kind.copy_from_slice(walk.bytes(4)?);
        let len = usize::try_from(walk.u32()?).unwrap_or(usize::MAX);
        let flags = walk.u8()?;
        let payload_at = walk.offset();
        let payload =
            walk.bytes(len).map_err(|_| OgxmError::Invalid { offset: start, what: "a section past the end" })?;
        if !KNOWN.contains(&&kind) && flags & 1 != 0 {
            return Err(OgxmError::UnknownCritical { kind: String::from_utf8_lossy(&kind).into_owned() });
        }
        sections.push((kind, start, payload_at, payload));
    }
    // The checksum first, so a damaged file is named as such.
    for (kind, start, at, payload) in &sections {
        if kind == b"CSUM" {
            check_sum(data, *start, Cursor::new(payload, *at))?;
        }
    }
    let mut mtch = None;
    let mut games = Vec::new();
    let mut blocks: Vec<Anal> = Vec::new();
    for (kind, _, at, payload) in sections {
        let cur = Cursor::new(payload, at);
        match &kind {
            b"MTCH" if mtch.is_none() => mtch = Some(match_record(cur)?),
            b"GAME" => {
                if games.len() == MAX_GAMES {
                    return Err(OgxmError::Limit { what: "more than 1000 games" });
                }
                games.push(game(cur)?);
            }
            b"ANAL" => {
                if blocks.len() == MAX_BLOCKS {
                    return Err(OgxmError::Limit { what: "more than 64 analysis blocks" });
                }
                blocks.push(anal(cur)?);
            }
            b"DECS" => {
                let block = blocks.last_mut().ok_or(OgxmError::Invalid { offset: at, what: "DECS before any ANAL" })?;
                block.decisions = decisions(cur)?;
            }
            _ => {}
        }
    }
    let mtch = mtch.ok_or(OgxmError::NoMatch)?;
    Ok(File { mtch, games, blocks })
}

fn check_sum(data: &[u8], section_start: usize, mut cur: Cursor<'_>) -> Result<(), OgxmError> {
    let (mut body, _) = cur.record()?;
    let algorithm = body.varint()?;
    let n = body.count(1)?;
    let digest = body.bytes(n)?;
    // Algorithm 1 (SHA-256) may be skipped, as the spec allows.
    if algorithm != 0 {
        return Ok(());
    }
    let stored: [u8; 4] = digest
        .try_into()
        .map_err(|_| OgxmError::Invalid { offset: section_start, what: "a CRC-32 that is not 4 bytes" })?;
    let stored = u32::from_le_bytes(stored);
    let computed = crc32(data.get(..section_start).unwrap_or_default());
    if stored != computed {
        return Err(OgxmError::Checksum { stored, computed });
    }
    Ok(())
}

fn board(cur: &mut Cursor<'_>) -> Result<[i8; 26], OgxmError> {
    let bytes = cur.bytes(26)?;
    Ok(std::array::from_fn(|i| bytes.get(i).map_or(0, |&b| b as i8)))
}

fn level(cur: &mut Cursor<'_>) -> Result<Level, OgxmError> {
    let (mut body, has) = cur.record()?;
    let mut lv = Level::default();
    if has.has(0) {
        lv.preset = Some(body.string()?);
    }
    if has.has(1) {
        lv.checker_ply = Some(body.varint()?);
    }
    if has.has(2) {
        lv.cube_ply = Some(body.varint()?);
    }
    lv.rollout = has.has(3);
    Ok(lv)
}

fn match_record(mut cur: Cursor<'_>) -> Result<Mtch, OgxmError> {
    let (mut b, has) = cur.record()?;
    let mut m = Mtch {
        match_length: b.varint()?,
        variant: b.varint()?,
        white: None,
        black: None,
        rules: 0,
        cube_limit: None,
        score_start: None,
        crawford_before_start: false,
        event: None,
        round: None,
        city: None,
        site: None,
    };
    let opt_str = |b: &mut Cursor<'_>, bit: u32| if has.has(bit) { b.string().map(Some) } else { Ok(None) };
    let opt_int = |b: &mut Cursor<'_>, bit: u32| if has.has(bit) { b.varint().map(Some) } else { Ok(None) };
    m.white = opt_str(&mut b, 0)?;
    m.black = opt_str(&mut b, 1)?;
    m.rules = opt_int(&mut b, 2)?.unwrap_or(0);
    m.cube_limit = opt_int(&mut b, 3)?;
    if has.has(4) {
        m.score_start = Some([b.varint()?, b.varint()?]);
    }
    if has.has(5) {
        let _final = [b.varint()?, b.varint()?];
    }
    opt_int(&mut b, 6)?; // result
    opt_int(&mut b, 7)?; // source
    if has.has(8) {
        b.varint64()?; // started_at
    }
    if has.has(9) {
        b.varint64()?; // completed_at
    }
    opt_int(&mut b, 10)?; // player_seat
    m.crawford_before_start = has.has(11);
    m.event = opt_str(&mut b, 12)?;
    opt_int(&mut b, 13)?; // event_year
    opt_int(&mut b, 14)?; // date_precision
    opt_str(&mut b, 15)?; // stage
    m.round = opt_int(&mut b, 16)?;
    opt_str(&mut b, 17)?; // table
    m.city = opt_str(&mut b, 18)?;
    opt_str(&mut b, 19)?; // country
    opt_str(&mut b, 20)?; // event_url
    m.site = opt_str(&mut b, 21)?;
    // Later fields (match_ref, profiles, rated, and any a later minor adds)
    // are not read: the record's length steps over them.
    Ok(m)
}

/// Steps a dice action holds: four for a double, two otherwise.
pub(crate) fn step_room(action: u32) -> usize {
    if matches!(action, 0 | 6 | 11 | 15 | 18 | 20) {
        4
    } else {
        2
    }
}

/// The dice of a dice action (0..=20): `offset[a] + (b - a)` for `a <= b`.
pub(crate) fn dice_of(action: u32) -> Option<(u8, u8)> {
    let mut id = 0;
    for a in 1..=6u8 {
        for b in a..=6u8 {
            if id == action {
                return Some((a, b));
            }
            id += 1;
        }
    }
    None
}

/// The dice action of a roll.
pub(crate) fn action_of(d1: u8, d2: u8) -> u32 {
    let (a, b) = (d1.min(d2), d1.max(d2));
    let offset = [0u32, 6, 11, 15, 18, 20];
    offset.get(usize::from(a.saturating_sub(1))).copied().unwrap_or(0) + u32::from(b - a)
}

fn ply(cur: &mut Cursor<'_>) -> Result<Ply, OgxmError> {
    let offset = cur.offset();
    let b0 = cur.u8()?;
    let action = u32::from(b0 & 0x3F);
    let mut p = Ply { action, seat: usize::from(b0 >> 6 & 1), steps: Vec::new(), extras: None, offset };
    if action <= 20 {
        for _ in 0..step_room(action) {
            let at = cur.offset();
            let b = cur.u8()?;
            if b == 0 {
                break;
            }
            p.steps.push(WireStep::from_byte(b, at)?);
        }
    }
    if b0 & 0x80 != 0 {
        let (mut b, has) = cur.record()?;
        // An unassigned action's payload is its producer's: none of these fields.
        if action <= super::LAST_KNOWN_ACTION || action == 63 {
            let mut x = Extras::default();
            if has.has(0) {
                x.dice = Some((b.u8()?, b.u8()?));
            }
            if has.has(1) {
                x.resign_value = Some(b.varint()?);
            }
            if has.has(2) {
                x.cube_value = Some(b.varint()?);
            }
            x.illegal = has.has(3);
            if has.has(4) {
                b.i32()?; // settle_value
            }
            if has.has(5) {
                let n = b.count(1)?;
                b.bytes(n)?; // steps of a restated play
            }
            if has.has(6) {
                x.board = Some(board(&mut b)?);
            }
            if has.has(7) {
                x.action_ext = Some(b.varint()?);
            }
            p.extras = Some(x);
        }
    }
    Ok(p)
}

fn game(mut cur: Cursor<'_>) -> Result<Game, OgxmError> {
    let (mut b, has) = cur.record()?;
    let opt_int = |b: &mut Cursor<'_>, bit: u32| if has.has(bit) { b.varint().map(Some) } else { Ok(None) };
    let winner = opt_int(&mut b, 0)?;
    let points_won = opt_int(&mut b, 1)?;
    let initial_board = if has.has(3) { Some(board(&mut b)?) } else { None };
    let initial_cube_value = opt_int(&mut b, 4)?;
    let initial_cube_owner = opt_int(&mut b, 5)?;
    let auto_doubles = opt_int(&mut b, 6)?;
    let mut plies = Vec::new();
    while !cur.at_end() {
        if plies.len() == MAX_PLIES_PER_GAME {
            return Err(OgxmError::Limit { what: "more than 1500 plies in a game" });
        }
        plies.push(ply(&mut cur)?);
    }
    Ok(Game { winner, points_won, initial_board, initial_cube_value, initial_cube_owner, auto_doubles, plies })
}

fn anal(mut cur: Cursor<'_>) -> Result<Anal, OgxmError> {
    let (mut b, has) = cur.record()?;
    b.bytes(16)?; // analysis_id
    if has.has(0) {
        b.bytes(32)?; // match_digest
    }
    if has.has(1) {
        b.varint()?; // producer
    }
    let level = if has.has(2) { level(&mut b)? } else { Level::default() };
    if has.has(4) {
        let n = b.count(1)?;
        for _ in 0..n {
            b.varint()?; // coverage
        }
    }
    let model_id = if has.has(5) { Some(b.string()?) } else { None };
    let model_name = if has.has(6) { Some(b.string()?) } else { None };
    if has.has(7) {
        b.bytes(32)?; // model_digest
    }
    if has.has(8) {
        b.string()?; // engine_build
    }
    let currency = if has.has(9) { Some(b.varint()?) } else { None };
    Ok(Anal { level, currency, model_id, model_name, decisions: Vec::new() })
}

fn steps(b: &mut Cursor<'_>) -> Result<Vec<WireStep>, OgxmError> {
    let n = b.count(1)?;
    if n > 4 {
        return Err(OgxmError::Invalid { offset: b.offset(), what: "a play of more than four steps" });
    }
    (0..n)
        .map(|_| {
            let at = b.offset();
            WireStep::from_byte(b.u8()?, at)
        })
        .collect()
}

fn alternative(cur: &mut Cursor<'_>) -> Result<Alternative, OgxmError> {
    let (mut b, has) = cur.record()?;
    let steps = steps(&mut b)?;
    let equity = b.equity()?;
    let probs = if has.has(0) { Some(b.probs()?) } else { None };
    let level = if has.has(1) { Some(level(&mut b)?) } else { None };
    Ok(Alternative { steps, equity, probs, level, played: has.has(2) })
}

fn optional<T>(has: Mask, bit: u32, read: impl FnOnce() -> Result<T, OgxmError>) -> Result<Option<T>, OgxmError> {
    if has.has(bit) {
        read().map(Some)
    } else {
        Ok(None)
    }
}

fn decisions(mut cur: Cursor<'_>) -> Result<Vec<Decision>, OgxmError> {
    let mut out = Vec::new();
    let mut alternatives_read = 0usize;
    while !cur.at_end() {
        if out.len() == MAX_DECISIONS {
            return Err(OgxmError::Limit { what: "more than 100,000 decisions in an analysis block" });
        }
        let (mut b, has) = cur.record()?;
        let ply_ref = b.varint()?;
        let kind = b.varint()?;
        let d = match kind {
            0 => {
                let alternatives = match optional(has, 0, || b.count(3))? {
                    Some(n) if n > MAX_ALTERNATIVES => {
                        return Err(OgxmError::Limit { what: "more than 1024 alternatives" })
                    }
                    Some(n) => {
                        alternatives_read += n;
                        if alternatives_read > MAX_BLOCK_ALTERNATIVES {
                            return Err(OgxmError::Limit {
                                what: "more than 250,000 alternatives in an analysis block",
                            });
                        }
                        (0..n).map(|_| alternative(&mut b)).collect::<Result<Vec<_>, _>>()?
                    }
                    None => Vec::new(),
                };
                optional(has, 1, || b.varint())?; // alternatives_total
                optional(has, 2, || b.equity())?; // best_equity
                optional(has, 3, || b.loss())?; // equity_loss
                let level = optional(has, 4, || level(&mut b))?;
                Decision::Checker { ply_ref, alternatives, level }
            }
            1 => {
                b.varint()?; // verdict
                let no_double = optional(has, 0, || b.equity())?;
                let double_take = optional(has, 1, || b.equity())?;
                let double_pass = optional(has, 2, || b.equity())?;
                let probs = optional(has, 3, || b.probs())?;
                optional(has, 4, || b.loss())?;
                optional(has, 5, || b.u16())?; // take_point
                let level = optional(has, 7, || level(&mut b))?;
                match (no_double, double_take, double_pass) {
                    (Some(no_double), Some(double_take), Some(double_pass)) => {
                        Decision::Cube { ply_ref, no_double, double_take, double_pass, probs, level }
                    }
                    _ => Decision::Other,
                }
            }
            _ => Decision::Other,
        };
        // A record gammon does not read is not kept.
        if !matches!(d, Decision::Other) {
            out.push(d);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod limits {
    use super::*;
    use crate::ogxm::wire::Out;

    /// `n` checker decisions without alternatives: records `[mask 0,
    /// ply_ref 0, kind 0]`.
    fn decisions_bytes(n: usize) -> Vec<u8> {
        let mut out = Out::default();
        for _ in 0..n {
            let mut body = Out::default();
            body.varint(0);
            body.varint(0);
            out.record(0, &body);
        }
        out.0
    }

    #[test]
    fn unknown_records_are_not_kept_and_decisions_are_bounded() {
        // Records of an unknown kind cost no memory.
        let mut out = Out::default();
        for _ in 0..1000 {
            let mut body = Out::default();
            body.varint(0);
            body.varint(7);
            out.record(0, &body);
        }
        assert!(decisions(Cursor::new(&out.0, 0)).unwrap().is_empty());
        let ok = decisions_bytes(MAX_DECISIONS);
        assert_eq!(decisions(Cursor::new(&ok, 0)).unwrap().len(), MAX_DECISIONS);
        let over = decisions_bytes(MAX_DECISIONS + 1);
        assert!(matches!(decisions(Cursor::new(&over, 0)), Err(OgxmError::Limit { .. })));
    }
}
