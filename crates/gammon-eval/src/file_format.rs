//! The one place where gammon reads and writes binary files (weights files,
//! training checkpoints): a fixed header of our own, then a `bincode` 2
//! payload. See `docs/file-format.md` for the byte layout.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic: `GAMMON` then the file kind, two ASCII bytes (`NN` weights, `CK` checkpoint) |
//! | 8 | 4 | format version, u32 little-endian |
//! | 12 | 8 | payload length in bytes, u64 little-endian |
//! | 20 | 8 | FNV-1a 64 checksum of the payload, u64 little-endian |
//! | 28 | n | payload: bincode 2, standard configuration (little-endian, varint lengths) |
//!
//! Reading checks the magic, the kind, the version, that the length is
//! exactly what the file holds and below a limit, and the checksum, before
//! decoding; the decoder is given the same limit so that a corrupt length
//! inside the payload cannot allocate without bound. Writing goes to a
//! temporary file in the same folder, synced, then renamed over the target,
//! so a crash never leaves a half-written file.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::io::Write;
use std::path::{Path, PathBuf};
use thiserror::Error;

const MAGIC_PREFIX: &[u8; 6] = b"GAMMON";
const HEADER_LEN: usize = 28;
/// The most a decoder may allocate for one file: 256 MiB.
const DECODE_LIMIT: usize = 256 << 20;

/// What a file holds; the last two bytes of the magic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// Network weights (`GAMMONNN`).
    Weights,
    /// A training checkpoint (`GAMMONCK`).
    Checkpoint,
    /// Labelled training positions (`GAMMONDS`).
    Dataset,
}

impl FileKind {
    const fn tag(self) -> [u8; 2] {
        match self {
            FileKind::Weights => *b"NN",
            FileKind::Checkpoint => *b"CK",
            FileKind::Dataset => *b"DS",
        }
    }

    const fn describe(self) -> &'static str {
        match self {
            FileKind::Weights => "a gammon weights file",
            FileKind::Checkpoint => "a gammon training checkpoint",
            FileKind::Dataset => "a gammon training dataset",
        }
    }
}

/// Why a file could not be read or written.
#[derive(Debug, Error)]
pub enum FileError {
    /// The file system said no.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Shorter than the header, or than the header says.
    #[error("the file is truncated: {0}")]
    Truncated(String),
    /// Not one of ours.
    #[error("not {expected}: the file does not start with the right magic bytes")]
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
    /// A payload larger than any real one.
    #[error("the payload claims {0} bytes, more than any gammon file holds")]
    TooLarge(u64),
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

/// FNV-1a 64-bit hash.
fn fnv1a64(bytes: &[u8]) -> u64 {
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
    let mut out = Vec::with_capacity(HEADER_LEN + payload.len());
    out.extend_from_slice(MAGIC_PREFIX);
    out.extend_from_slice(&kind.tag());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u64).to_le_bytes());
    out.extend_from_slice(&fnv1a64(&payload).to_le_bytes());
    out.extend_from_slice(&payload);
    Ok(out)
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
    if bytes.len() < 8 {
        return Err(if bytes.is_empty() || !MAGIC_PREFIX.starts_with(&bytes[..bytes.len().min(6)]) {
            FileError::BadMagic { expected: kind.describe() }
        } else {
            FileError::Truncated(format!("{} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len()))
        });
    }
    if &bytes[..6] != MAGIC_PREFIX || bytes[6..8] != kind.tag() {
        return Err(FileError::BadMagic { expected: kind.describe() });
    }
    if bytes.len() < HEADER_LEN {
        return Err(FileError::Truncated(format!("{} bytes, shorter than the {HEADER_LEN}-byte header", bytes.len())));
    }
    let word = |at: usize, n: usize| -> u64 {
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&bytes[at..at + n]);
        u64::from_le_bytes(b)
    };
    let found = word(8, 4) as u32;
    if found != version {
        return Err(FileError::Version { found, supported: version });
    }
    let len = word(12, 8);
    if len > max_payload {
        return Err(FileError::TooLarge(len));
    }
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
    if fnv1a64(payload) != word(20, 8) {
        return Err(FileError::Checksum);
    }
    // The decoder's own limit caps what a length inside the payload can make
    // it allocate, whatever the payload claims.
    let (value, used) = bincode::serde::decode_from_slice(payload, config().with_limit::<DECODE_LIMIT>())
        .map_err(|e| FileError::Decode(e.to_string()))?;
    if used != payload.len() {
        return Err(FileError::Decode(format!("{} payload bytes left over", payload.len() - used)));
    }
    Ok(value)
}

/// Reads and decodes a file.
///
/// # Errors
/// The file cannot be read, or [`from_bytes`] refuses it.
pub fn read_file<T: DeserializeOwned>(
    path: &Path,
    kind: FileKind,
    version: u32,
    max_payload: u64,
) -> Result<T, FileError> {
    let bytes = std::fs::read(path).map_err(|source| FileError::Io { path: path.to_path_buf(), source })?;
    from_bytes(kind, version, max_payload, &bytes)
}

/// Writes `value` to `path` atomically: a temporary file beside it, flushed
/// to disk, then renamed over `path`.
///
/// # Errors
/// Encoding or any file-system step failed (the target is then untouched).
pub fn write_file_atomic<T: Serialize>(path: &Path, kind: FileKind, version: u32, value: &T) -> Result<(), FileError> {
    let bytes = to_bytes(kind, version, value)?;
    let io = |source| FileError::Io { path: path.to_path_buf(), source };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(io)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, serde::Deserialize, Debug, PartialEq)]
    struct Sample {
        name: String,
        values: Vec<f32>,
    }

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
            Err(FileError::BadMagic { .. })
        ));
        assert!(matches!(from_bytes::<Sample>(FileKind::Weights, 4, 1 << 20, &bytes), Err(FileError::Version { .. })));
        assert!(matches!(from_bytes::<Sample>(FileKind::Weights, 3, 4, &bytes), Err(FileError::TooLarge(_))));
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
}
