//! The one place where gammon reads and writes binary files (weights,
//! training checkpoints, labelled positions, the bearoff caches, rollout
//! shards: [`FileKind`]): a fixed header of our own, then a
//! `bincode` 2 payload. See `docs/file-format.md` for the byte layout.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic: `GAMMON` then the file kind, two ASCII bytes (`NN`, `CK`, `DS`, `B2`, `B1`, `RS`) |
//! | 8 | 4 | format version, u32 little-endian |
//! | 12 | 8 | payload length in bytes, u64 little-endian |
//! | 20 | 8 | checksum of the payload, u64 little-endian: FNV-1a 64 ([`FileKind::checksum`]); for the bearoff caches, XXH3-64 of the payload's chunk index ([`chunked`]) |
//! | 28 | n | payload: bincode 2, standard configuration (little-endian, varint lengths) |
//!
//! Reading checks the magic, the kind, the version and that the announced
//! length is below the limit for the kind, from the header alone; then it
//! reads exactly that many bytes and one more (there must be none), and
//! checks the checksum before decoding. The decoder is given a limit too, so
//! that a corrupt length inside the payload cannot allocate without bound.
//! Only regular files are read, and every other file (settings) is read
//! through [`read_bounded`] or [`read_text`] with a limit: nothing gammon
//! reads can make it wait on a pipe or read a device without end. The
//! limits are listed in `docs/file-format.md`. Every file gammon writes,
//! these and the text outputs, goes through [`output`]: a uniquely named
//! temporary file in the same folder, synced, then renamed over the target
//! (never over a pipe or a device; through a symbolic link), so a crash
//! never leaves a half-written file.
//!
//! One file because reading, writing and naming what a file is (for the
//! error messages) share the header and its checks; the code is about 560
//! lines, the tests (every way a file can be damaged) about 260. The serde
//! helper for tables stored as byte strings is `file_format/packed.rs`;
//! files read a chunk at a time (the bearoff caches) are `file_format/chunked.rs`.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

pub mod chunked;
pub mod output;
pub mod packed;

pub use output::{check_output, write_output, Output};

const MAGIC_PREFIX: &[u8; 6] = b"GAMMON";
const HEADER_LEN: usize = 28;
/// The most a decoder may allocate for one file: 1 GiB, the largest payload
/// any kind of file allows (a distillation dataset). bincode counts its
/// decoded sizes, which for floats and lengths can exceed the payload's
/// bytes, so a smaller limit refused datasets that had been written fine;
/// each kind's own `max_payload` still bounds what is read.
pub const DECODE_LIMIT: usize = 1 << 30;

/// What a file holds; the last two bytes of the magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Network weights (`GAMMONNN`).
    Weights,
    /// A training checkpoint (`GAMMONCK`).
    Checkpoint,
    /// Labelled training positions (`GAMMONDS`).
    Dataset,
    /// The cached two-sided bearoff database (`GAMMONB2`), rebuilt when it
    /// cannot be read.
    Bearoff2,
    /// The cached one-sided bearoff database (`GAMMONB1`), rebuilt when it
    /// cannot be read.
    Bearoff1,
    /// The exact sums of a rollout's trials, or of a shard of them
    /// (`GAMMONRS`), which `gammon merge` combines.
    RolloutShard,
}

impl FileKind {
    const ALL: [FileKind; 6] = [
        FileKind::Weights,
        FileKind::Checkpoint,
        FileKind::Dataset,
        FileKind::Bearoff2,
        FileKind::Bearoff1,
        FileKind::RolloutShard,
    ];

    const fn tag(self) -> [u8; 2] {
        match self {
            FileKind::Weights => *b"NN",
            FileKind::Checkpoint => *b"CK",
            FileKind::Dataset => *b"DS",
            FileKind::Bearoff2 => *b"B2",
            FileKind::Bearoff1 => *b"B1",
            FileKind::RolloutShard => *b"RS",
        }
    }

    const fn describe(self) -> &'static str {
        match self {
            FileKind::Weights => "a gammon weights file",
            FileKind::Checkpoint => "a gammon training checkpoint",
            FileKind::Dataset => "a gammon training dataset",
            FileKind::Bearoff2 => "a gammon two-sided bearoff database",
            FileKind::Bearoff1 => "a gammon one-sided bearoff database",
            FileKind::RolloutShard => "a gammon rollout shard",
        }
    }
}

impl FileKind {
    /// The checksum the header of this kind carries. The bearoff caches are
    /// megabytes, checked by every process that meets a bearoff, so they use
    /// XXH3-64 (about 0.3 ms for 4.6 MB; FNV-1a takes a multiply per byte, 5
    /// ms), for their index and each chunk ([`chunked`]). The other kinds
    /// keep FNV-1a 64, so that every weights file, checkpoint and dataset
    /// ever written still reads.
    pub fn checksum(self, payload: &[u8]) -> u64 {
        match self {
            FileKind::Bearoff1 | FileKind::Bearoff2 => xxhash_rust::xxh3::xxh3_64(payload),
            FileKind::Weights | FileKind::Checkpoint | FileKind::Dataset | FileKind::RolloutShard => fnv1a64(payload),
        }
    }
}

impl fmt::Display for FileKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// What a file of the wrong kind was recognised as, from its first bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Found {
    /// One of ours, of another kind.
    Gammon(FileKind),
    /// No bytes at all.
    Empty,
    /// Text (a settings file, a note, JSON ...).
    Text,
    /// A GNU Backgammon bearoff database (`gnubg-OS` / `gnubg-TS`).
    GnubgBearoff,
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Found::Gammon(kind) => f.write_str(kind.describe()),
            Found::Empty => f.write_str("an empty file"),
            Found::Text => f.write_str("a text file"),
            Found::GnubgBearoff => f.write_str("a GNU Backgammon bearoff database"),
        }
    }
}

/// Why a file could not be read or written.
///
/// The variants that wrap an OS error expose it as their `source` and do not
/// repeat it in their message: print the chain (`{:#}` with anyhow) to see it.
#[derive(Debug, Error)]
pub enum FileError {
    /// The file system refused to open or read the file.
    #[error("cannot read {}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The file system refused to write the file.
    #[error("cannot write {}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A folder, a pipe or a device: gammon reads only regular files, so that
    /// a FIFO without a writer or `/dev/zero` cannot make it wait or fill
    /// the memory.
    #[error("{} is {what}, not a regular file", path.display())]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// An output that would replace a folder, a pipe or a device (a rename
    /// over `/dev/null` makes it a plain file).
    #[error("{} is {what}: gammon writes only to regular files", path.display())]
    NotWritable {
        /// The path.
        path: PathBuf,
        /// What it is instead.
        what: &'static str,
    },
    /// An output whose folder does not exist (checked before any work).
    #[error("cannot write {}: the folder {} does not exist", path.display(), folder.display())]
    NoFolder {
        /// The output.
        path: PathBuf,
        /// Its folder.
        folder: PathBuf,
    },
    /// Larger than the limit for its kind of file.
    #[error("{} is larger than {}, the most this program reads for it", path.display(), Bytes(*limit))]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// The limit in bytes.
        limit: u64,
    },
    /// A text file that is not UTF-8.
    #[error("{} is not UTF-8 text", path.display())]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// A file that was read but is not what it should be: the path, then
    /// what is wrong with its contents.
    #[error("{}: {problem}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// What is wrong (shown in the message, not as a separate cause).
        problem: Box<FileError>,
    },
    /// Shorter than the header, or than the header says.
    #[error("the file is truncated: {0}")]
    Truncated(String),
    /// Recognisably another kind of file.
    #[error("{found}, not {expected}")]
    WrongKind {
        /// What was expected.
        expected: FileKind,
        /// What the file is.
        found: Found,
    },
    /// Not one of ours, and not recognised.
    #[error("not {expected}")]
    BadMagic {
        /// What was expected.
        expected: &'static str,
    },
    /// One of ours, of another version.
    #[error("format version {found} is not supported (this program reads version {supported})")]
    Version {
        /// Version in the file.
        found: u32,
        /// Version this program reads.
        supported: u32,
    },
    /// A header announcing a payload larger than any real one; the payload
    /// is not read.
    #[error("the header announces {} of payload, more than the {} that {kind} may hold", Bytes(*claimed), Bytes(*limit))]
    PayloadTooLarge {
        /// What the header announces.
        claimed: u64,
        /// The limit for this kind.
        limit: u64,
        /// The kind of file.
        kind: FileKind,
    },
    /// Bytes changed since writing.
    #[error("the checksum does not match: the file is corrupt")]
    Checksum,
    /// The payload does not decode.
    #[error("the contents cannot be decoded: {0}")]
    Decode(String),
    /// The payload could not be encoded.
    #[error("cannot encode: {0}")]
    Encode(String),
    /// Decoded, but the contents are inconsistent.
    #[error("{0}")]
    Invalid(String),
}

impl FileError {
    /// `problem`, found in the file `path`. Errors that already name a path
    /// are returned as they are, so that no message names it twice.
    pub fn in_file(path: &Path, problem: FileError) -> FileError {
        match problem {
            FileError::Io { .. }
            | FileError::Write { .. }
            | FileError::NotAFile { .. }
            | FileError::NotWritable { .. }
            | FileError::NoFolder { .. }
            | FileError::TooLarge { .. }
            | FileError::NotText { .. }
            | FileError::InFile { .. } => problem,
            other => FileError::InFile { path: path.to_path_buf(), problem: Box::new(other) },
        }
    }

    /// What a file of the wrong kind turned out to be, if it was recognised.
    pub fn found(&self) -> Option<Found> {
        match self {
            FileError::WrongKind { found, .. } => Some(*found),
            FileError::InFile { problem, .. } => problem.found(),
            _ => None,
        }
    }
}

/// A size in bytes, as people read it: `64 MiB`, `1000 bytes`.
struct Bytes(u64);

impl fmt::Display for Bytes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const MIB: u64 = 1 << 20;
        if self.0 >= MIB && self.0.is_multiple_of(MIB) {
            write!(f, "{} MiB", self.0 / MIB)
        } else {
            write!(f, "{} bytes", self.0)
        }
    }
}

/// Opens `path` for reading if it is a regular file. The type is checked
/// before opening, because opening a FIFO waits for a writer.
fn open_regular(path: &Path) -> Result<File, FileError> {
    let io = |source| FileError::Io { path: path.to_path_buf(), source };
    let meta = std::fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::NotAFile { path: path.to_path_buf(), what: file_type_name(&meta.file_type()) });
    }
    File::open(path).map_err(io)
}

/// What a file that is not a regular file is, in words.
fn file_type_name(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a folder"
    } else {
        "a special file"
    }
}

/// Appends at most `n` more bytes of `reader` to `buf`: `take` stops a
/// source that never ends.
fn read_at_most(reader: &mut impl Read, n: u64, buf: &mut Vec<u8>, path: &Path) -> Result<(), FileError> {
    reader.take(n).read_to_end(buf).map(drop).map_err(|source| FileError::Io { path: path.to_path_buf(), source })
}

/// The bytes of `reader`, refused beyond `limit` bytes (it reads at most
/// `limit + 1`).
fn read_limited(mut reader: impl Read, limit: u64, path: &Path) -> Result<Vec<u8>, FileError> {
    let mut bytes = Vec::new();
    read_at_most(&mut reader, limit.saturating_add(1), &mut bytes, path)?;
    if bytes.len() as u64 > limit {
        return Err(FileError::TooLarge { path: path.to_path_buf(), limit });
    }
    Ok(bytes)
}

/// The bytes of the regular file `path`, of at most `limit` bytes. A larger
/// file is refused before reading when its size says so, and reading stops
/// after `limit + 1` bytes in any case (a file that grows, `/proc`).
///
/// # Errors
/// [`FileError::Io`], [`FileError::NotAFile`], [`FileError::TooLarge`].
pub fn read_bounded(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open_regular(path)?;
    if file.metadata().is_ok_and(|m| m.len() > limit) {
        return Err(FileError::TooLarge { path: path.to_path_buf(), limit });
    }
    read_limited(file, limit, path)
}

/// The text of the UTF-8 file `path`, of at most `limit` bytes: see
/// [`read_bounded`].
///
/// # Errors
/// As [`read_bounded`], and [`FileError::NotText`].
pub fn read_text(path: &Path, limit: u64) -> Result<String, FileError> {
    String::from_utf8(read_bounded(path, limit)?).map_err(|_| FileError::NotText { path: path.to_path_buf() })
}

/// What the regular file `path` holds, from its first bytes: which kind of
/// gammon file, or what else (`None`: unrecognised). For commands that
/// take files of several kinds.
///
/// # Errors
/// [`FileError::Io`], [`FileError::NotAFile`].
pub fn identify_file(path: &Path) -> Result<Option<Found>, FileError> {
    let mut head = Vec::new();
    read_at_most(&mut open_regular(path)?, 64, &mut head, path)?;
    Ok(identify(&head))
}

/// What the first bytes of a file that is not of the expected kind show.
fn identify(bytes: &[u8]) -> Option<Found> {
    if bytes.is_empty() {
        return Some(Found::Empty);
    }
    if bytes.len() >= 8 && bytes.starts_with(MAGIC_PREFIX) {
        return FileKind::ALL.into_iter().find(|k| bytes[6..8] == k.tag()).map(Found::Gammon);
    }
    if bytes.starts_with(b"gnubg-OS") || bytes.starts_with(b"gnubg-TS") {
        return Some(Found::GnubgBearoff);
    }
    // Text: UTF-8 (possibly cut inside the last character) without control
    // characters other than white space.
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
        Err(_) => return None,
    };
    let plain = !text.is_empty() && text.chars().all(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r'));
    plain.then_some(Found::Text)
}

/// Checks the header at the start of `bytes` (which may hold only the
/// header) and returns the payload length it announces.
fn check_header(kind: FileKind, version: u32, max_payload: u64, bytes: &[u8]) -> Result<u64, FileError> {
    let ours = bytes.len() >= 8 && bytes.starts_with(MAGIC_PREFIX) && bytes[6..8] == kind.tag();
    let partial_magic = !bytes.is_empty() && bytes.len() < 8 && MAGIC_PREFIX.starts_with(&bytes[..bytes.len().min(6)]);
    if !ours && !partial_magic {
        return Err(match identify(bytes) {
            Some(found) => FileError::WrongKind { expected: kind, found },
            None => FileError::BadMagic { expected: kind.describe() },
        });
    }
    if bytes.len() < HEADER_LEN {
        return Err(FileError::Truncated(format!("{} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len())));
    }
    let found = word(bytes, 8, 4) as u32;
    if found != version {
        return Err(FileError::Version { found, supported: version });
    }
    let len = word(bytes, 12, 8);
    if len > max_payload {
        return Err(FileError::PayloadTooLarge { claimed: len, limit: max_payload, kind });
    }
    Ok(len)
}

/// The little-endian integer of `n` bytes at `at`.
fn word(bytes: &[u8], at: usize, n: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&bytes[at..at + n]);
    u64::from_le_bytes(b)
}

/// The FNV-1a 64 checksum the header of most kinds carries
/// ([`FileKind::checksum`]), for other fingerprints too.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn config() -> bincode::config::Configuration {
    bincode::config::standard()
}

/// Encodes `value` as a complete file image.
///
/// # Errors
/// The value cannot be encoded.
pub fn to_bytes<T: Serialize>(kind: FileKind, version: u32, value: &T) -> Result<Vec<u8>, FileError> {
    let payload = bincode::serde::encode_to_vec(value, config()).map_err(|e| FileError::Encode(e.to_string()))?;
    Ok(image(kind, version, kind.checksum(&payload), &payload))
}

/// A file image: the header (with `checksum`), then `payload`.
fn image(kind: FileKind, version: u32, checksum: u64, payload: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC_PREFIX);
    out.extend_from_slice(&kind.tag());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&checksum.to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// Decodes a file image written by [`to_bytes`], checking everything;
/// `max_payload` bounds the payload size and every allocation.
///
/// # Errors
/// Any difference from what [`to_bytes`] writes: see [`FileError`].
pub fn from_bytes<T: DeserializeOwned>(
    kind: FileKind,
    version: u32,
    max_payload: u64,
    bytes: &[u8],
) -> Result<T, FileError> {
    let len = check_header(kind, version, max_payload, bytes)?;
    let payload = &bytes[HEADER_LEN..];
    if (payload.len() as u64) < len {
        return Err(FileError::Truncated(format!(
            "the header announces {len} payload bytes, {} are present",
            payload.len()
        )));
    }
    if payload.len() as u64 > len {
        return Err(FileError::Invalid(format!("{} bytes follow the {len}-byte payload", payload.len() as u64 - len)));
    }
    if kind.checksum(payload) != word(bytes, 20, 8) {
        return Err(FileError::Checksum);
    }
    // The decoder's own limit caps what a length inside the payload can make
    // it allocate, whatever the payload claims.
    // Borrowing from the image lets byte strings (`packed` tables) be read
    // in place instead of copied out first.
    let (value, used) = bincode::serde::borrow_decode_from_slice(payload, config().with_limit::<DECODE_LIMIT>())
        .map_err(|e| FileError::Decode(decode_problem(&e)))?;
    if used != payload.len() {
        return Err(FileError::Decode(format!("{} payload bytes left over", payload.len() - used)));
    }
    Ok(value)
}

/// The image of a file of `kind`: the header first, checked, then exactly
/// the payload length it announces and one byte more (to notice trailing
/// bytes). A header announcing more than `max_payload` is refused before any
/// of the payload is read, and nothing beyond it is ever read, whatever the
/// source (a device, a pipe, a file that grows).
fn read_image(
    mut reader: impl Read,
    path: &Path,
    kind: FileKind,
    version: u32,
    max_payload: u64,
) -> Result<Vec<u8>, FileError> {
    let mut image = Vec::new();
    read_at_most(&mut reader, HEADER_LEN as u64, &mut image, path)?;
    let len = check_header(kind, version, max_payload, &image).map_err(|e| FileError::in_file(path, e))?;
    read_at_most(&mut reader, len + 1, &mut image, path)?;
    Ok(image)
}

/// Reads and decodes a file of `kind`, whose payload may be at most
/// `max_payload` bytes: only regular files are read (see
/// [`FileError::NotAFile`]), and no more bytes than the header announces
/// (see `read_image`). Errors about the contents name the file.
///
/// # Errors
/// The file cannot be read, or [`from_bytes`] refuses it.
pub fn read_file<T: DeserializeOwned>(
    path: &Path,
    kind: FileKind,
    version: u32,
    max_payload: u64,
) -> Result<T, FileError> {
    let image = read_image(open_regular(path)?, path, kind, version, max_payload)?;
    from_bytes(kind, version, max_payload, &image).map_err(|e| FileError::in_file(path, e))
}

/// What is wrong with a payload bincode cannot decode, in words (its own
/// messages are Rust debug text, such as `UnexpectedEnd { additional: 1 }`).
fn decode_problem(e: &bincode::error::DecodeError) -> String {
    use bincode::error::DecodeError as D;
    match e {
        D::UnexpectedEnd { additional } => format!("the payload ends {additional} byte(s) too early"),
        D::LimitExceeded => "a length inside the payload is larger than any real file's".to_string(),
        D::Utf8 { .. } | D::InvalidCharEncoding(_) => "a text inside the payload is not UTF-8".to_string(),
        D::UnexpectedVariant { found, .. } => format!("a field holds {found}, which no version of it means"),
        // Our own checks while decoding (serde's custom errors) are words already.
        D::OtherString(why) => why.clone(),
        D::Other(why) => (*why).to_string(),
        _ => "its fields are not those this program writes (corrupt, or written by another program)".to_string(),
    }
}

/// Writes `value` to `path` atomically, through [`write_output`]: a
/// temporary file beside it, flushed to disk, then renamed over `path`.
///
/// # Errors
/// Encoding or any file-system step failed (the target is then untouched).
pub fn write_file_atomic<T: Serialize>(path: &Path, kind: FileKind, version: u32, value: &T) -> Result<(), FileError> {
    write_bytes_atomic(path, &to_bytes(kind, version, value)?)
}

/// Writes `bytes` to `path` atomically (see [`write_file_atomic`]).
fn write_bytes_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_output(path, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Sample {
        name: String,
        values: Vec<f32>,
    }

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Tables {
        #[serde(with = "packed")]
        floats: Vec<f32>,
        #[serde(with = "packed")]
        words: Vec<u32>,
        #[serde(with = "packed")]
        quads: Vec<[f32; 4]>,
    }

    #[test]
    fn packed_tables_read_back_bit_for_bit_and_bearoff_caches_carry_xxh3() {
        let odd = [f32::from_bits(0x7fc0_1234), -0.0, f32::MIN_POSITIVE / 2.0, f32::INFINITY, 1.5];
        let t = Tables { floats: odd.to_vec(), words: vec![0, 1, u32::MAX], quads: vec![[1.0, -2.0, 0.25, -0.0]; 3] };
        for kind in [FileKind::Bearoff1, FileKind::Weights] {
            let image = to_bytes(kind, 2, &t).unwrap();
            let back: Tables = from_bytes(kind, 2, 1 << 20, &image).unwrap();
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&back.floats), bits(&t.floats));
            assert_eq!((&back.words, &back.quads), (&t.words, &t.quads));
            let payload = &image[HEADER_LEN..];
            let expected =
                if kind == FileKind::Bearoff1 { xxhash_rust::xxh3::xxh3_64(payload) } else { fnv1a64(payload) };
            assert_eq!(word(&image, 20, 8), expected);
            assert_ne!(xxhash_rust::xxh3::xxh3_64(payload), fnv1a64(payload));
        }
        // A byte string that is not a whole number of words is refused.
        #[derive(Serialize)]
        struct Bytes(#[serde(with = "serde_bytes_like")] Vec<u8>);
        mod serde_bytes_like {
            pub fn serialize<S: serde::Serializer>(b: &[u8], s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(b)
            }
        }
        let image = to_bytes(FileKind::Bearoff1, 2, &Bytes(vec![0; 6])).unwrap();
        let err = from_bytes::<Quads>(FileKind::Bearoff1, 2, 1 << 20, &image).map(|q| q.0.len()).unwrap_err();
        assert!(err.to_string().contains("6 bytes are not a whole number of 16-byte words"), "{err}");
    }

    #[derive(serde::Deserialize, Debug)]
    struct Quads(#[serde(with = "packed")] Vec<[f32; 4]>);

    fn sample() -> Sample {
        Sample { name: "net".into(), values: vec![1.0, -2.5, 3.25] }
    }

    #[test]
    fn round_trip() {
        let bytes = to_bytes(FileKind::Weights, 3, &sample()).unwrap();
        let back: Sample = from_bytes(FileKind::Weights, 3, 1 << 20, &bytes).unwrap();
        assert_eq!(back, sample());
    }

    #[test]
    fn every_damage_is_refused() {
        let bytes = to_bytes(FileKind::Weights, 3, &sample()).unwrap();
        let read = |b: &[u8]| from_bytes::<Sample>(FileKind::Weights, 3, 1 << 20, b);
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_err(), "truncated to {cut}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0x40;
            assert!(read(&b).is_err(), "byte {i} flipped");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read(&longer).is_err());
        assert!(matches!(
            from_bytes::<Sample>(FileKind::Checkpoint, 3, 1 << 20, &bytes),
            Err(FileError::WrongKind { expected: FileKind::Checkpoint, found: Found::Gammon(FileKind::Weights) })
        ));
        assert!(matches!(from_bytes::<Sample>(FileKind::Weights, 4, 1 << 20, &bytes), Err(FileError::Version { .. })));
        assert!(matches!(
            from_bytes::<Sample>(FileKind::Weights, 3, 4, &bytes),
            Err(FileError::PayloadTooLarge { .. })
        ));
    }

    #[test]
    fn a_payload_that_ends_early_is_said_in_words() {
        let bytes = to_bytes(FileKind::Weights, 3, &Sample { name: "net".into(), values: vec![1.0, 2.0] }).unwrap();
        let short = &bytes[HEADER_LEN..bytes.len() - 1];
        let cut = image(FileKind::Weights, 3, FileKind::Weights.checksum(short), short);
        let e = from_bytes::<Sample>(FileKind::Weights, 3, 1 << 20, &cut).unwrap_err().to_string();
        assert!(e.contains("the payload ends") && e.contains("too early") && !e.contains('{'), "{e}");
    }

    #[test]
    fn a_lying_length_inside_the_payload_does_not_allocate() {
        // A vector claiming 2^60 elements, with a valid header and checksum.
        let mut payload = vec![0u8];
        payload[0] = 3;
        payload.extend_from_slice(b"abc");
        payload.push(253); // varint marker: a u64 follows
        payload.extend_from_slice(&(1u64 << 60).to_le_bytes());
        let mut bytes = Vec::new();
        bytes.extend_from_slice(b"GAMMONNN");
        bytes.extend_from_slice(&3u32.to_le_bytes());
        bytes.extend_from_slice(&(payload.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
        bytes.extend_from_slice(&payload);
        assert!(matches!(from_bytes::<Sample>(FileKind::Weights, 3, 1 << 20, &bytes), Err(FileError::Decode(_))));
    }

    #[test]
    fn atomic_write_replaces_the_file() {
        let dir = std::env::temp_dir().join(format!("gammon-ff-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("x.bin");
        write_file_atomic(&path, FileKind::Weights, 1, &sample()).unwrap();
        write_file_atomic(&path, FileKind::Weights, 1, &Sample { name: "b".into(), values: vec![] }).unwrap();
        let back: Sample = read_file(&path, FileKind::Weights, 1, 1 << 20).unwrap();
        assert_eq!(back.name, "b");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary file left");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gammon-ff-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A header of kind `NN`, version 3, announcing `len` payload bytes.
    fn header(len: u64) -> Vec<u8> {
        let mut h = b"GAMMONNN".to_vec();
        h.extend_from_slice(&3u32.to_le_bytes());
        h.extend_from_slice(&len.to_le_bytes());
        h.extend_from_slice(&0u64.to_le_bytes());
        h
    }

    /// Counts the bytes read through it.
    struct Counting<R> {
        inner: R,
        read: u64,
    }

    impl<R: Read> Read for Counting<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.inner.read(buf)?;
            self.read += n as u64;
            Ok(n)
        }
    }

    #[test]
    fn a_header_announcing_too_much_is_refused_before_the_payload_is_read() {
        // The header, then endless zeros: only the header may be read.
        let mut source = Counting { inner: std::io::Cursor::new(header(1 << 21)).chain(std::io::repeat(0)), read: 0 };
        let err = read_image(&mut source, Path::new("w.gnn"), FileKind::Weights, 3, 1 << 20).unwrap_err();
        assert!(
            matches!(&err, FileError::InFile { problem, .. } if matches!(**problem, FileError::PayloadTooLarge { claimed, limit, .. } if claimed == 1 << 21 && limit == 1 << 20)),
            "{err}"
        );
        assert_eq!(source.read, HEADER_LEN as u64);
        assert_eq!(
            err.to_string(),
            "w.gnn: the header announces 2 MiB of payload, more than the 1 MiB that a gammon weights file may hold"
        );
    }

    #[test]
    fn reading_stops_after_the_announced_payload() {
        // A source that never ends is read up to the payload and one byte more.
        let mut source = Counting { inner: std::io::Cursor::new(header(100)).chain(std::io::repeat(0)), read: 0 };
        let image = read_image(&mut source, Path::new("w.gnn"), FileKind::Weights, 3, 1 << 20).unwrap();
        assert_eq!(image.len(), HEADER_LEN + 101);
        assert_eq!(source.read, image.len() as u64);
        assert!(matches!(from_bytes::<Sample>(FileKind::Weights, 3, 1 << 20, &image), Err(FileError::Invalid(_))));
    }

    #[test]
    fn a_source_that_never_ends_stops_at_the_limit() {
        let mut source = Counting { inner: std::io::repeat(b'a'), read: 0 };
        let err = read_limited(&mut source, 1000, Path::new("x.toml")).unwrap_err();
        assert!(matches!(err, FileError::TooLarge { limit: 1000, .. }), "{err}");
        assert_eq!(source.read, 1001);
    }

    #[test]
    fn a_larger_file_is_refused_and_a_smaller_one_read() {
        let dir = temp_dir("bounded");
        let path = dir.join("settings.toml");
        std::fs::write(&path, "name = \"x\"\n").unwrap();
        assert_eq!(read_text(&path, 100).unwrap(), "name = \"x\"\n");
        let err = read_text(&path, 4).unwrap_err();
        assert!(matches!(&err, FileError::TooLarge { limit: 4, .. }), "{err}");
        assert_eq!(
            err.to_string(),
            format!("{} is larger than 4 bytes, the most this program reads for it", path.display())
        );
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&path, 100), Err(FileError::NotText { .. })));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn devices_pipes_and_folders_are_not_read() {
        let dir = temp_dir("special");
        let fifo = dir.join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        // No writer ever opens the FIFO: opening it to read would wait forever.
        for (path, what) in
            [(Path::new("/dev/zero"), "a device"), (fifo.as_path(), "a named pipe (FIFO)"), (dir.as_path(), "a folder")]
        {
            let err = read_bounded(path, 1 << 20).unwrap_err();
            assert!(matches!(&err, FileError::NotAFile { what: w, .. } if *w == what), "{}: {err}", path.display());
            let err = read_file::<Sample>(path, FileKind::Weights, 3, 1 << 20).unwrap_err();
            assert!(matches!(err, FileError::NotAFile { .. }), "{}: {err}", path.display());
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_os_error_is_the_source_not_part_of_the_message() {
        let path = std::env::temp_dir().join("gammon-ff-no-such-file.gnn");
        let err = read_file::<Sample>(&path, FileKind::Weights, 3, 1 << 20).unwrap_err();
        assert_eq!(err.to_string(), format!("cannot read {}", path.display()));
        let source = std::error::Error::source(&err).map(ToString::to_string).unwrap_or_default();
        assert!(source.contains("os error 2"), "{source}");
    }

    #[test]
    fn files_of_another_kind_are_named() {
        let checkpoint = to_bytes(FileKind::Checkpoint, 3, &sample()).unwrap();
        let cases: [(&[u8], Option<Found>); 6] = [
            (&checkpoint, Some(Found::Gammon(FileKind::Checkpoint))),
            (b"", Some(Found::Empty)),
            (b"name = \"td0\"\ngames = 100\n", Some(Found::Text)),
            (b"gnubg-OS-06-15-1-0-0\n\0\0\0\0\0\0\0\0\0\0", Some(Found::GnubgBearoff)),
            (b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0\x3e\0\x01\0\0\0\0\0\0\0", None),
            (b"GAMMONXX\x03\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0", None),
        ];
        let dir = temp_dir("kinds");
        for (i, (bytes, found)) in cases.iter().enumerate() {
            let path = dir.join(format!("{i}.gnn"));
            std::fs::write(&path, bytes).unwrap();
            let err = read_file::<Sample>(&path, FileKind::Weights, 3, 1 << 20).unwrap_err();
            assert_eq!(err.found(), *found, "case {i}: {err}");
            let text = err.to_string();
            assert!(text.starts_with(&format!("{}: ", path.display())), "{text}");
            assert!(text.ends_with("not a gammon weights file"), "{text}");
            if found.is_none() {
                assert!(
                    matches!(&err, FileError::InFile { problem, .. } if matches!(**problem, FileError::BadMagic { .. })),
                    "{text}"
                );
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
