//! Files read a chunk at a time: the bearoff caches (version 3), of which a
//! process usually needs a few entries, not megabytes.
//!
//! The header is the project's ([`super`]); its checksum
//! ([`FileKind::checksum`]) covers only the payload's index, and each chunk
//! carries its own XXH3-64 in the index, so that a reader checks what it
//! reads without reading the rest:
//!
//! | payload offset | size | field |
//! |---|---|---|
//! | 0 | 4 | chunk count `k`, u32 little-endian (at most [`MAX_CHUNKS`]) |
//! | 4 | 4 | metadata length `m`, u32 little-endian (at most [`MAX_META`]) |
//! | 8 | m | metadata (the kind's own: sizes, versions of the contents) |
//! | 8 + m | 24 k | per chunk: offset in the payload, length, XXH3-64 of its bytes (u64 LE each) |
//! | ... | | the chunks |
//!
//! [`ChunkedFile::open`] reads and checks the header and the index; the file
//! must be exactly as long as the header says. [`ChunkedFile::chunk`] reads
//! one chunk and checks its checksum. Writing is atomic as for every file
//! ([`write_chunked`]).

use super::{
    check_header, image, open_regular, read_at_most, word, write_bytes_atomic, FileError, FileKind, HEADER_LEN,
};
use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use xxhash_rust::xxh3::xxh3_64;

/// The most chunks a file may have.
pub const MAX_CHUNKS: usize = 1 << 16;
/// The most metadata a file may have, in bytes.
pub const MAX_META: usize = 4096;
/// Bytes of the index per chunk.
const ENTRY: usize = 24;

/// Where a chunk lies in the payload, and its checksum.
#[derive(Clone, Copy, Debug)]
struct Entry {
    offset: u64,
    len: u64,
    checksum: u64,
}

/// An open chunked file whose header and index have been checked.
#[derive(Debug)]
pub struct ChunkedFile {
    path: PathBuf,
    /// One reader at a time: chunks are read rarely (each once).
    file: Mutex<File>,
    meta: Vec<u8>,
    chunks: Vec<Entry>,
}

impl ChunkedFile {
    /// Opens `path`, a regular file of `kind` and `version` whose payload is
    /// at most `max_payload` bytes, and checks its index.
    ///
    /// # Errors
    /// The file cannot be read, is not of this kind and version, is longer
    /// or shorter than its header says, or its index is damaged or points
    /// outside the payload.
    pub fn open(path: &Path, kind: FileKind, version: u32, max_payload: u64) -> Result<ChunkedFile, FileError> {
        let mut file = open_regular(path)?;
        let io = |source| FileError::Io { path: path.to_path_buf(), source };
        let bad = |problem| FileError::in_file(path, problem);
        let mut head = Vec::new();
        read_at_most(&mut file, (HEADER_LEN + 8) as u64, &mut head, path)?;
        let payload = check_header(kind, version, max_payload, &head).map_err(bad)?;
        let size = file.metadata().map_err(io)?.len();
        if size != HEADER_LEN as u64 + payload {
            return Err(bad(FileError::Truncated(format!(
                "{size} bytes where the header announces {}",
                HEADER_LEN as u64 + payload
            ))));
        }
        if head.len() < HEADER_LEN + 8 {
            return Err(bad(FileError::Truncated("no chunk index".into())));
        }
        let count = word(&head, HEADER_LEN, 4) as usize;
        let meta_len = word(&head, HEADER_LEN + 4, 4) as usize;
        if count > MAX_CHUNKS || meta_len > MAX_META {
            return Err(bad(FileError::Invalid(format!(
                "an index of {count} chunks and {meta_len} bytes of metadata"
            ))));
        }
        let index_len = 8 + meta_len + ENTRY * count;
        if index_len as u64 > payload {
            return Err(bad(FileError::Truncated("the chunk index runs past the payload".into())));
        }
        let mut index = head[HEADER_LEN..].to_vec();
        read_at_most(&mut file, (index_len - 8) as u64, &mut index, path)?;
        if index.len() != index_len {
            return Err(bad(FileError::Truncated("the chunk index is cut short".into())));
        }
        if kind.checksum(&index) != word(&head, 20, 8) {
            return Err(bad(FileError::Checksum));
        }
        let meta = index[8..8 + meta_len].to_vec();
        let chunks: Vec<Entry> = index[8 + meta_len..]
            .chunks_exact(ENTRY)
            .map(|e| Entry { offset: word(e, 0, 8), len: word(e, 8, 8), checksum: word(e, 16, 8) })
            .collect();
        let inside =
            |e: &Entry| e.offset >= index_len as u64 && e.offset.checked_add(e.len).is_some_and(|end| end <= payload);
        if !chunks.iter().all(inside) {
            return Err(bad(FileError::Invalid("a chunk lies outside the payload".into())));
        }
        Ok(ChunkedFile { path: path.to_path_buf(), file: Mutex::new(file), meta, chunks })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The file's metadata.
    pub fn meta(&self) -> &[u8] {
        &self.meta
    }

    /// Number of chunks.
    pub fn chunks(&self) -> usize {
        self.chunks.len()
    }

    /// The bytes of chunk `i`, checked against its checksum.
    ///
    /// # Errors
    /// No such chunk, the file cannot be read (any more), or the bytes do
    /// not match their checksum.
    pub fn chunk(&self, i: usize) -> Result<Vec<u8>, FileError> {
        let bad = |problem| FileError::in_file(&self.path, problem);
        let e = *self.chunks.get(i).ok_or_else(|| bad(FileError::Invalid(format!("no chunk {i}"))))?;
        let mut bytes = Vec::new();
        {
            let mut file = self.file.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let io = |source| FileError::Io { path: self.path.clone(), source };
            file.seek(SeekFrom::Start(HEADER_LEN as u64 + e.offset)).map_err(io)?;
            read_at_most(&mut *file, e.len, &mut bytes, &self.path)?;
        }
        if bytes.len() as u64 != e.len {
            return Err(bad(FileError::Truncated(format!("chunk {i} is cut short"))));
        }
        if xxh3_64(&bytes) != e.checksum {
            return Err(bad(FileError::Checksum));
        }
        Ok(bytes)
    }
}

/// Writes a chunked file of `kind` and `version` to `path`, atomically.
///
/// # Errors
/// Too many chunks or too much metadata, or writing failed (the target is
/// then untouched).
pub fn write_chunked(
    path: &Path,
    kind: FileKind,
    version: u32,
    meta: &[u8],
    chunks: &[Vec<u8>],
) -> Result<(), FileError> {
    if chunks.len() > MAX_CHUNKS || meta.len() > MAX_META {
        return Err(FileError::Encode(format!("{} chunks and {} bytes of metadata", chunks.len(), meta.len())));
    }
    let index_len = 8 + meta.len() + ENTRY * chunks.len();
    let data: usize = chunks.iter().map(Vec::len).sum();
    let mut payload = Vec::with_capacity(index_len + data);
    payload.extend_from_slice(&(chunks.len() as u32).to_le_bytes());
    payload.extend_from_slice(&(meta.len() as u32).to_le_bytes());
    payload.extend_from_slice(meta);
    let mut offset = index_len as u64;
    for c in chunks {
        for x in [offset, c.len() as u64, xxh3_64(c)] {
            payload.extend_from_slice(&x.to_le_bytes());
        }
        offset += c.len() as u64;
    }
    let checksum = kind.checksum(&payload);
    for c in chunks {
        payload.extend_from_slice(c);
    }
    write_bytes_atomic(path, &image(kind, version, checksum, &payload))
}

/// A chunk holding `value` in the project's bincode configuration.
///
/// # Errors
/// The value cannot be encoded.
pub fn encode<T: serde::Serialize>(value: &T) -> Result<Vec<u8>, FileError> {
    bincode::serde::encode_to_vec(value, super::config()).map_err(|e| FileError::Encode(e.to_string()))
}

/// The value of a chunk written by [`encode`] (every byte used; the
/// decoder's allocations bounded as for whole files).
///
/// # Errors
/// The bytes do not decode as a `T`, or some are left over.
pub fn decode<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, FileError> {
    let limit = super::config().with_limit::<{ super::DECODE_LIMIT }>();
    let (value, used) =
        bincode::serde::borrow_decode_from_slice(bytes, limit).map_err(|e| FileError::Decode(e.to_string()))?;
    if used != bytes.len() {
        return Err(FileError::Decode(format!("{} bytes of the chunk left over", bytes.len() - used)));
    }
    Ok(value)
}

/// The items of a table stored one a chunk (the two-sided database's rows,
/// the one-sided database's parts), each read from the file the first time
/// it is asked for ([`Chunks::get`]). An item that does not read back (the
/// file fails, the checksum does not match, or the owner's `decode` refuses
/// the bytes) makes the owner build every item, once, and rewrite the file;
/// that item and every later unread one then come from the build.
#[derive(Debug)]
pub struct Chunks<T> {
    items: Vec<std::sync::OnceLock<T>>,
    /// The file the unread items come from (none for built items).
    source: Option<ChunkedFile>,
    /// Every item, built in this process because one of `source` was damaged.
    rebuilt: std::sync::OnceLock<Vec<T>>,
}

impl<T: Clone + Default> Chunks<T> {
    /// Items already made (a table built in memory).
    pub fn built(items: impl IntoIterator<Item = T>) -> Self {
        Chunks {
            items: items.into_iter().map(std::sync::OnceLock::from).collect(),
            source: None,
            rebuilt: Default::default(),
        }
    }

    /// One item per chunk of `file`, none read yet.
    pub fn opened(file: ChunkedFile) -> Self {
        let items = (0..file.chunks()).map(|_| std::sync::OnceLock::new()).collect();
        Chunks { items, source: Some(file), rebuilt: Default::default() }
    }

    /// Number of items.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// Item `k` if it is already there (read or built), without reading.
    pub fn peek(&self, k: usize) -> Option<&T> {
        self.items.get(k)?.get()
    }

    /// The items held in memory: those read so far and the build, if any.
    pub fn held(&self) -> impl Iterator<Item = &T> {
        self.items.iter().filter_map(std::sync::OnceLock::get).chain(self.rebuilt.get().into_iter().flatten())
    }

    /// Whether the items had to be built because the file was damaged.
    pub fn is_rebuilt(&self) -> bool {
        self.rebuilt.get().is_some()
    }

    /// Item `k` (`None` beyond the last): read from the file on first use
    /// and turned into an item by `decode` (`None`: not a good item). If
    /// that fails, `rebuild` is called once, with the file's path, to build
    /// every item and rewrite the file there.
    #[inline]
    pub fn get(
        &self,
        k: usize,
        decode: impl FnOnce(&[u8]) -> Option<T>,
        rebuild: impl FnOnce(Option<&Path>) -> Vec<T>,
    ) -> Option<&T> {
        let cell = self.items.get(k)?;
        Some(cell.get_or_init(|| {
            let read = self.source.as_ref().and_then(|f| f.chunk(k).ok()).and_then(|bytes| decode(&bytes));
            read.unwrap_or_else(|| {
                let all = self.rebuilt.get_or_init(|| rebuild(self.source.as_ref().map(ChunkedFile::path)));
                all.get(k).cloned().unwrap_or_default()
            })
        }))
    }

    /// The items, taken out of a table that has them all (a build).
    pub fn into_items(self) -> Vec<T> {
        self.items.into_iter().map(|cell| cell.into_inner().unwrap_or_default()).collect()
    }
}

/// Little-endian `f32`s from bytes (a whole number of them).
pub fn f32s(bytes: &[u8]) -> impl Iterator<Item = f32> + '_ {
    bytes.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("gammon-chunked-{}-{name}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir.join("file.gdb")
    }

    fn sample() -> Vec<Vec<u8>> {
        (0..5u8).map(|i| (0..100 * usize::from(i)).map(|j| (j as u8) ^ i).collect()).collect()
    }

    #[test]
    fn chunks_read_back_and_each_is_checked_on_its_own() {
        let path = temp("round");
        write_chunked(&path, FileKind::Bearoff2, 3, b"meta", &sample()).expect("written");
        let f = ChunkedFile::open(&path, FileKind::Bearoff2, 3, 1 << 20).expect("opened");
        assert_eq!(f.meta(), b"meta");
        assert_eq!(f.chunks(), 5);
        for (i, c) in sample().iter().enumerate() {
            assert_eq!(&f.chunk(i).expect("chunk"), c);
        }
        assert!(f.chunk(5).is_err());
        // Damage one byte of chunk 3: only that chunk is refused.
        let mut bytes = std::fs::read(&path).expect("read");
        let last = bytes.len() - 10;
        bytes[last] ^= 1;
        std::fs::write(&path, &bytes).expect("write");
        let f = ChunkedFile::open(&path, FileKind::Bearoff2, 3, 1 << 20).expect("the index is intact");
        assert!(
            matches!(f.chunk(4), Err(FileError::InFile { ref problem, .. }) if matches!(**problem, FileError::Checksum))
        );
        assert_eq!(f.chunk(3).expect("chunk 3"), sample()[3]);
        let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
    }

    /// Every single flipped byte and every shorter length: opening or
    /// reading refuses, or gives back exactly what was written; never a
    /// panic, never other bytes.
    #[test]
    fn no_damage_reads_as_other_contents() {
        let path = temp("every");
        let chunks = sample();
        write_chunked(&path, FileKind::Bearoff1, 3, b"meta", &chunks).expect("written");
        let good = std::fs::read(&path).expect("read");
        let check = |bytes: &[u8]| {
            std::fs::write(&path, bytes).expect("write");
            if let Ok(f) = ChunkedFile::open(&path, FileKind::Bearoff1, 3, 1 << 20) {
                assert_eq!(f.meta(), b"meta");
                for (i, c) in chunks.iter().enumerate() {
                    if let Ok(got) = f.chunk(i) {
                        assert_eq!(&got, c, "chunk {i}");
                    }
                }
            }
        };
        for at in 0..good.len() {
            for flip in [0x01, 0x80, 0xFF] {
                let mut b = good.clone();
                b[at] ^= flip;
                check(&b);
            }
        }
        for len in 0..good.len() {
            check(&good[..len]);
        }
        let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
    }

    #[test]
    fn a_damaged_index_or_length_is_refused_at_open() {
        let path = temp("damage");
        write_chunked(&path, FileKind::Bearoff1, 3, b"m", &sample()).expect("written");
        let good = std::fs::read(&path).expect("read");
        let open = |bytes: &[u8]| {
            std::fs::write(&path, bytes).expect("write");
            ChunkedFile::open(&path, FileKind::Bearoff1, 3, 1 << 20).map(drop)
        };
        assert!(open(&good).is_ok());
        // A flipped bit in the index (the metadata, a chunk's offset).
        for at in [HEADER_LEN + 8, HEADER_LEN + 10] {
            let mut b = good.clone();
            b[at] ^= 4;
            assert!(open(&b).is_err(), "byte {at}");
        }
        // Cut short, or with a byte more.
        assert!(open(&good[..good.len() - 1]).is_err());
        assert!(open(&[good.as_slice(), &[0]].concat()).is_err());
        assert!(open(&good[..HEADER_LEN + 3]).is_err());
        // Another kind, another version, a payload above the limit.
        std::fs::write(&path, &good).expect("write");
        assert!(ChunkedFile::open(&path, FileKind::Bearoff2, 3, 1 << 20).is_err());
        assert!(ChunkedFile::open(&path, FileKind::Bearoff1, 2, 1 << 20).is_err());
        assert!(ChunkedFile::open(&path, FileKind::Bearoff1, 3, 100).is_err());
        let _ = std::fs::remove_dir_all(path.parent().expect("dir"));
    }
}
