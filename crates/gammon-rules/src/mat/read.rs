//! Reading a match file from disk, size-limited.

use super::encoding::{decode, normalize, UnreadFormat};
use super::{parse_mat, parse_mat_until_error, MatError, MatPlace, MatchRecord};
use crate::ogxm::{is_ogxm, read_ogxm, read_ogxm_until_error, OgxmError};
use crate::sgf::{is_sgf, parse_sgf, parse_sgf_until_error, read_sgf_analysis};
use crate::xg::{is_xg, parse_xg, parse_xg_until_error, XgError};
use crate::MatchEquity;
use std::io::Read;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The largest match file read: a 25-point match is about 20 KB, so this
/// leaves room for any real session while refusing a wrong file quickly.
pub const MAX_MATCH_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// Why a match file was refused.
#[derive(Debug, Error)]
pub enum ReadMatchError {
    /// It could not be opened or read (the OS error is the source, so a
    /// printed chain names it once).
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: std::io::Error,
    },
    /// It is a directory, a device or a pipe.
    #[error("{path}: not a regular file")]
    NotAFile {
        /// The file.
        path: PathBuf,
    },
    /// It is larger than [`MAX_MATCH_FILE_BYTES`].
    #[error("{path}: larger than the limit of {MAX_MATCH_FILE_BYTES} bytes for a match file")]
    TooLarge {
        /// The file.
        path: PathBuf,
    },
    /// It is not UTF-8 text, nor UTF-16 text with a byte order mark.
    #[error("{path}: not text (UTF-8, or UTF-16 with a byte order mark)")]
    NotText {
        /// The file.
        path: PathBuf,
    },
    /// It is a match file of a format not read (yet), known by its first bytes.
    #[error("{path}: {format}")]
    NotReadYet {
        /// The file.
        path: PathBuf,
        /// What it is.
        format: UnreadFormat,
    },
    /// It is an eXtreme Gammon `.xg` file whose container or records are
    /// not valid (a game that does not replay is [`ReadMatchError::Match`]).
    #[error("in {path}")]
    Xg {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: XgError,
    },
    /// An OGXM file that cannot be read (the reason is the source).
    #[error("in {path}")]
    Ogxm {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: OgxmError,
    },
    /// Its content is not a valid match (the reason is the source).
    #[error("in {path}")]
    Match {
        /// The file.
        path: PathBuf,
        /// The reason.
        source: MatError,
    },
}

/// Why the bytes of a match file that came without a file (an upload)
/// were refused; the reasons of [`ReadMatchError`] without a path.
#[derive(Debug, Error)]
pub enum MatchBytesError {
    /// More than [`MAX_MATCH_FILE_BYTES`].
    #[error("larger than the limit of {MAX_MATCH_FILE_BYTES} bytes for a match file")]
    TooLarge,
    /// Neither text nor a binary match file gammon reads.
    #[error(
        "not a match file: not text (UTF-8, or UTF-16 with a byte order mark), nor an eXtreme Gammon or OGXM file"
    )]
    NotText,
    /// An eXtreme Gammon file whose container or records are not valid.
    #[error("in the eXtreme Gammon file")]
    Xg(#[source] XgError),
    /// An OGXM file that cannot be read.
    #[error("in the OGXM file")]
    Ogxm(#[source] OgxmError),
    /// Not a valid match (a game that does not replay, in any format).
    #[error(transparent)]
    Match(#[from] MatError),
}

impl MatchBytesError {
    /// This error as [`read_match_file`]'s for the file at `path`.
    fn in_file(self, path: &Path) -> ReadMatchError {
        let path = path.to_path_buf();
        match self {
            MatchBytesError::TooLarge => ReadMatchError::TooLarge { path },
            MatchBytesError::NotText => ReadMatchError::NotText { path },
            MatchBytesError::Xg(source) => ReadMatchError::Xg { path, source },
            MatchBytesError::Ogxm(source) => ReadMatchError::Ogxm { path, source },
            MatchBytesError::Match(source) => ReadMatchError::Match { path, source },
        }
    }
}

/// Replays the bytes of a match file in any format gammon reads, as
/// [`read_match_file_with_analysis`] reads the file (the content decides:
/// eXtreme Gammon, OGXM, gnubg SGF, `.mat` text), with the analysis the
/// file stores. For a file that came without a path: an upload.
///
/// # Errors
/// [`MatchBytesError`].
pub fn parse_match_bytes_with_analysis(bytes: &[u8], equity: &dyn MatchEquity) -> Result<MatchRecord, MatchBytesError> {
    parse_bytes(bytes, Some(equity))
}

/// [`parse_match_bytes_with_analysis`] that keeps the games before the
/// first one that does not replay, as [`read_match_file_until_error`] does
/// for a file: those games (with their stored analysis), and the error of
/// the bad one.
///
/// # Errors
/// Bytes that cannot be read as a match at all.
pub fn parse_match_bytes_until_error_with_analysis(
    bytes: &[u8],
    equity: &dyn MatchEquity,
) -> Result<(MatchRecord, Option<MatError>), MatchBytesError> {
    bytes_until_error(bytes, Some(equity))
}

/// What the bytes of a match file are.
enum Content {
    Xg,
    Ogxm,
    Text(String),
}

/// The format of `bytes` (their text when they are text), refused when
/// too large or neither text nor a binary match file.
fn content(bytes: &[u8]) -> Result<Content, MatchBytesError> {
    if bytes.len() as u64 > MAX_MATCH_FILE_BYTES {
        return Err(MatchBytesError::TooLarge);
    }
    if is_xg(bytes) {
        return Ok(Content::Xg);
    }
    if is_ogxm(bytes) {
        return Ok(Content::Ogxm);
    }
    decode(bytes.to_vec()).map(Content::Text).ok_or(MatchBytesError::NotText)
}

fn from_xg(e: XgError) -> MatchBytesError {
    match e {
        XgError::Match(source) => MatchBytesError::Match(source),
        source => MatchBytesError::Xg(source),
    }
}

fn from_ogxm(e: OgxmError) -> MatchBytesError {
    match e {
        OgxmError::Replay(source) => MatchBytesError::Match(source),
        source => MatchBytesError::Ogxm(source),
    }
}

/// The match in `bytes`, with the analysis they store when `equity` is
/// given.
fn parse_bytes(bytes: &[u8], equity: Option<&dyn MatchEquity>) -> Result<MatchRecord, MatchBytesError> {
    match (content(bytes)?, equity) {
        (Content::Xg, _) => parse_xg(bytes).map_err(from_xg),
        (Content::Ogxm, _) => read_ogxm(bytes, equity).map_err(from_ogxm),
        (Content::Text(text), Some(equity)) => Ok(parse_match_text_with_analysis(&text, equity)?),
        (Content::Text(text), None) => Ok(parse_match_text(&text)?),
    }
}

/// The games of `bytes` before the first that does not replay.
fn bytes_until_error(
    bytes: &[u8],
    equity: Option<&dyn MatchEquity>,
) -> Result<(MatchRecord, Option<MatError>), MatchBytesError> {
    match content(bytes)? {
        Content::Xg => parse_xg_until_error(bytes).map_err(from_xg),
        Content::Ogxm => read_ogxm_until_error(bytes, equity).map_err(from_ogxm),
        Content::Text(text) => Ok(parse_match_text_until_error(&text, equity)?),
    }
}

/// Reads and replays a match file (at most [`MAX_MATCH_FILE_BYTES`]):
/// gnubg SGF when its first non-blank character is `(`, `.mat` text
/// otherwise (the content decides, not the file name). The text is UTF-8
/// (with or without a byte order mark) or UTF-16 with a byte order mark;
/// lines end with LF, CR LF or CR. An eXtreme Gammon `.xg` file (it starts
/// with `RGMH`) is read by [`parse_xg`], an OGXM file (`OGXM`) by
/// [`read_ogxm`](crate::read_ogxm).
///
/// # Errors
/// A file that is not a readable regular file within the limit, or whose
/// content [`parse_sgf`], [`parse_mat`], [`parse_xg`] or
/// [`read_ogxm`](crate::read_ogxm) refuses (a play that does not replay is
/// [`ReadMatchError::Match`] in each format).
pub fn read_match_file(path: impl AsRef<Path>) -> Result<MatchRecord, ReadMatchError> {
    let path = path.as_ref();
    parse_bytes(&read_bytes(path)?, None).map_err(|e| e.in_file(path))
}

/// [`read_match_file`] that also reads gnubg's analysis stored in an SGF
/// file into [`MatchRecord::stored`] ([`read_sgf_analysis`]; `equity`
/// turns a match's cube values, kept as match winning chances, into EMG).
///
/// # Errors
/// As [`read_match_file`].
pub fn read_match_file_with_analysis(
    path: impl AsRef<Path>,
    equity: &dyn MatchEquity,
) -> Result<MatchRecord, ReadMatchError> {
    let path = path.as_ref();
    parse_match_bytes_with_analysis(&read_bytes(path)?, equity).map_err(|e| e.in_file(path))
}

/// [`parse_match_text`] that also reads gnubg's analysis stored in SGF
/// text, as [`read_match_file_with_analysis`] does for a file.
///
/// # Errors
/// As [`parse_match_text`].
pub fn parse_match_text_with_analysis(text: &str, equity: &dyn MatchEquity) -> Result<MatchRecord, MatError> {
    let mut record = parse_match_text(text)?;
    let text = normalize(text);
    if record.stored.is_none() && is_sgf(&text) {
        record.stored = read_sgf_analysis(&text, &record, equity);
    }
    Ok(record)
}

/// The games of match text before the first one that does not replay, and
/// that one's error (as [`read_match_file_until_error`] for a file), with
/// the analysis of those games that SGF text stores when `equity` is given.
///
/// # Errors
/// Text that cannot be read as a match at all.
pub fn parse_match_text_until_error(
    text: &str,
    equity: Option<&dyn MatchEquity>,
) -> Result<(MatchRecord, Option<MatError>), MatError> {
    let prepared = prepare(text)?;
    let sgf = is_sgf(&prepared);
    let (mut record, error) = if sgf { parse_sgf_until_error(&prepared) } else { parse_mat_until_error(&prepared) }?;
    if let (Some(equity), true, None) = (equity, sgf, &record.stored) {
        record.stored = read_sgf_analysis(&prepared, &record, equity);
    }
    Ok((record, error))
}

/// Replays the text of a match file already read (an upload): gnubg SGF when
/// its first non-blank character is `(`, `.mat` text otherwise; a leading
/// byte order mark is dropped and lines end with LF, CR LF or CR.
///
/// # Errors
/// What [`parse_sgf`] or [`parse_mat`] refuses, or the text of a binary
/// eXtreme Gammon file (read the file: [`read_match_file`], [`parse_xg`])
/// or of an OGXM file (a format not read).
pub fn parse_match_text(text: &str) -> Result<MatchRecord, MatError> {
    let text = prepare(text)?;
    if is_sgf(&text) {
        parse_sgf(&text)
    } else {
        parse_mat(&text)
    }
}

/// `text` with its line ends made LF and no byte order mark; a format not
/// read is refused by name.
fn prepare(text: &str) -> Result<std::borrow::Cow<'_, str>, MatError> {
    let text = normalize(text);
    if is_xg(text.as_bytes()) {
        let reason = "an eXtreme Gammon .xg file is binary: read the file (read_match_file, parse_xg), not its text";
        return Err(MatError { place: MatPlace { line: 1, ..MatPlace::default() }, reason: reason.into() });
    }
    match UnreadFormat::detect(text.as_bytes()) {
        Some(format) => {
            Err(MatError { place: MatPlace { line: 1, ..MatPlace::default() }, reason: format.to_string() })
        }
        None => Ok(text),
    }
}

/// [`read_match_file`] that keeps the games before the first one that does
/// not replay ([`parse_mat_until_error`], [`parse_sgf_until_error`]): those
/// games, and the error of the bad one.
///
/// # Errors
/// As [`read_match_file`] for a file that cannot be read as a match at all.
pub fn read_match_file_until_error(path: impl AsRef<Path>) -> Result<(MatchRecord, Option<MatError>), ReadMatchError> {
    until_error(path.as_ref(), None)
}

/// [`read_match_file_until_error`] that also keeps the analysis stored in
/// the games it returns, as [`read_match_file_with_analysis`] does.
///
/// # Errors
/// As [`read_match_file`] for a file that cannot be read as a match at all.
pub fn read_match_file_until_error_with_analysis(
    path: impl AsRef<Path>,
    equity: &dyn MatchEquity,
) -> Result<(MatchRecord, Option<MatError>), ReadMatchError> {
    until_error(path.as_ref(), Some(equity))
}

fn until_error(
    path: &Path,
    equity: Option<&dyn MatchEquity>,
) -> Result<(MatchRecord, Option<MatError>), ReadMatchError> {
    bytes_until_error(&read_bytes(path)?, equity).map_err(|e| e.in_file(path))
}

/// The bytes of a regular file of at most [`MAX_MATCH_FILE_BYTES`].
fn read_bytes(path: &Path) -> Result<Vec<u8>, ReadMatchError> {
    let io = |source| ReadMatchError::Io { path: path.to_path_buf(), source };
    // Checked before opening: opening a named pipe waits for a writer.
    if !std::fs::metadata(path).map_err(io)?.is_file() {
        return Err(ReadMatchError::NotAFile { path: path.to_path_buf() });
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_MATCH_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_MATCH_FILE_BYTES {
        return Err(ReadMatchError::TooLarge { path: path.to_path_buf() });
    }
    Ok(bytes)
}
