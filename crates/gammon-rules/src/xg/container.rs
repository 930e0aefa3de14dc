//! The container around XG's records: the `RGMH` header (with its thumbnail),
//! then either a ZLibArchive (compressed files, a compressed index and a
//! 36-byte trailer at the end of the file) or, in the "bare" kind, one zlib
//! stream holding the game file itself. Only the game file (`temp.xg`) is
//! read: the game header copy (`temp.xgi`), rollouts (`temp.xgr`) and
//! comments (`temp.xgc`) are not needed for the match or its analysis.

use super::bytes::{i32_at, u32_at, u8_at};
use super::XgError;
use flate2::{Crc, Decompress, FlushDecompress, Status};

/// The size of the `RGMH` header XG writes (the header says its own size).
const RICH_HEADER_BYTES: usize = 8232;
/// The archive's trailer: CRC, file count, version, index size, data size, index compressed.
const TRAILER_BYTES: usize = 36;
/// One entry of the archive's index.
const INDEX_ENTRY_BYTES: usize = 532;
/// An archive holds four files; more entries than this are not XG's.
const MAX_ARCHIVE_FILES: usize = 16;
/// The largest game file inflated: 26,214 records of 2,560 bytes, far more
/// than any session (a 25-point match is about 2,000); a zip bomb stops here.
pub const MAX_GAME_FILE_BYTES: usize = 64 * 1024 * 1024;

/// The game file (`temp.xg`) of an XG file: its fixed-size records.
pub(super) fn game_file(file: &[u8]) -> Result<Vec<u8>, XgError> {
    if !file.starts_with(b"RGMH") {
        return Err(XgError::NotXg);
    }
    let header = |offset| u32_at(file, offset).ok_or(XgError::Truncated("the RGMH header"));
    if header(4)? != 1 {
        return Err(XgError::Corrupt("RGMH header version is not 1".into()));
    }
    let header_size = usize::try_from(header(8)?).unwrap_or(usize::MAX);
    // The thumbnail's offset is counted from the end of the header (8 bytes).
    let thumb_offset = u64::from(header(12)?) | (u64::from(header(16)?) << 32);
    let thumb_size = header(20)?;
    if !(24..=RICH_HEADER_BYTES * 4).contains(&header_size) {
        return Err(XgError::Corrupt(format!("RGMH header size {header_size}")));
    }
    let data_start = usize::try_from(thumb_offset)
        .ok()
        .and_then(|o| header_size.checked_add(o)?.checked_add(usize::try_from(thumb_size).ok()?))
        .filter(|&s| s <= file.len())
        .ok_or(XgError::Truncated("the thumbnail"))?;
    match archive_trailer(file, data_start) {
        Some(trailer) => from_archive(file, data_start, &trailer),
        // The bare kind: the game file is the one zlib stream after the thumbnail.
        None => inflate(file.get(data_start..).unwrap_or_default(), MAX_GAME_FILE_BYTES),
    }
}

/// The ZLibArchive trailer at the end of the file.
struct Trailer {
    crc: u32,
    files: usize,
    index_size: usize,
    index_compressed: bool,
}

/// The trailer, if the file ends with one that describes an archive
/// starting at `data_start` (a bare file's last bytes are compressed data,
/// which does not add up).
fn archive_trailer(file: &[u8], data_start: usize) -> Option<Trailer> {
    let at = file.len().checked_sub(TRAILER_BYTES)?;
    let field = |i: usize| i32_at(file, at + 4 * i);
    let files = usize::try_from(field(1)?).ok().filter(|n| (1..=MAX_ARCHIVE_FILES).contains(n))?;
    let index_size = usize::try_from(field(3)?).ok().filter(|&n| n > 0)?;
    let data_size = usize::try_from(field(4)?).ok()?;
    let start = at.checked_sub(index_size)?.checked_sub(data_size)?;
    (start == data_start).then_some(Trailer {
        crc: u32_at(file, at)?,
        files,
        index_size,
        index_compressed: field(5)? != 0,
    })
}

fn from_archive(file: &[u8], data_start: usize, trailer: &Trailer) -> Result<Vec<u8>, XgError> {
    let end = file.len().saturating_sub(TRAILER_BYTES);
    let archive = file.get(data_start..end).ok_or(XgError::Truncated("the archive"))?;
    if crc32(archive) != trailer.crc {
        return Err(XgError::Checksum("the archive"));
    }
    let index_bytes =
        archive.get(archive.len().saturating_sub(trailer.index_size)..).ok_or(XgError::Truncated("the index"))?;
    let limit = trailer.files * INDEX_ENTRY_BYTES;
    let index = if trailer.index_compressed { inflate(index_bytes, limit)? } else { index_bytes.to_vec() };
    for n in 0..trailer.files {
        let entry = index
            .get(n * INDEX_ENTRY_BYTES..(n + 1) * INDEX_ENTRY_BYTES)
            .ok_or(XgError::Truncated("the archive index"))?;
        // Name: a Delphi short string (length byte, then up to 255 bytes).
        let name_len = usize::from(u8_at(entry, 0).unwrap_or(0));
        if entry.get(1..1 + name_len) != Some(b"temp.xg".as_slice()) {
            continue;
        }
        let field = |offset| i32_at(entry, offset).ok_or(XgError::Truncated("the archive index"));
        let size = usize::try_from(field(512)?).map_err(|_| XgError::Corrupt("a negative file size".into()))?;
        let stored_size = usize::try_from(field(516)?).unwrap_or(0);
        let start = usize::try_from(field(520)?).map_err(|_| XgError::Corrupt("a negative file start".into()))?;
        let crc = u32_at(entry, 524).ok_or(XgError::Truncated("the archive index"))?;
        // 0: compressed (the ZLibArchive's own flag is inverted).
        let compressed = u8_at(entry, 528) == Some(0);
        if size > MAX_GAME_FILE_BYTES {
            return Err(XgError::TooLarge);
        }
        let data = archive.get(start..).ok_or(XgError::Truncated("the game file"))?;
        let game = if compressed {
            inflate(data, size)?
        } else {
            data.get(..stored_size.min(size)).ok_or(XgError::Truncated("the game file"))?.to_vec()
        };
        if game.len() != size {
            return Err(XgError::Truncated("the game file"));
        }
        if crc32(&game) != crc {
            return Err(XgError::Checksum("the game file"));
        }
        return Ok(game);
    }
    Err(XgError::NoGameFile)
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = Crc::new();
    crc.update(bytes);
    crc.sum()
}

/// The zlib stream at the start of `input`, inflated; more than `limit`
/// bytes is refused before they are all made (a zip bomb stops at the
/// limit), as is a stream that ends before its end marker.
pub(super) fn inflate(input: &[u8], limit: usize) -> Result<Vec<u8>, XgError> {
    const CHUNK: usize = 256 * 1024;
    let mut z = Decompress::new(true);
    let mut out: Vec<u8> = Vec::new();
    loop {
        if out.len() == out.capacity() {
            if out.len() > limit {
                return Err(XgError::TooLarge);
            }
            // One byte past the limit is room enough to see it is passed.
            out.reserve(CHUNK.min(limit + 1 - out.len()));
        }
        let consumed = usize::try_from(z.total_in()).unwrap_or(usize::MAX);
        let before = (consumed, out.len());
        let rest = input.get(consumed..).unwrap_or_default();
        let status = z
            .decompress_vec(rest, &mut out, FlushDecompress::None)
            .map_err(|e| XgError::Corrupt(format!("compressed data: {e}")))?;
        if out.len() > limit {
            return Err(XgError::TooLarge);
        }
        match status {
            Status::StreamEnd => return Ok(out),
            Status::Ok | Status::BufError => {
                let now = (usize::try_from(z.total_in()).unwrap_or(usize::MAX), out.len());
                if now == before && out.len() < out.capacity() {
                    return Err(XgError::Truncated("the compressed data"));
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "container/tests.rs"]
mod tests;
