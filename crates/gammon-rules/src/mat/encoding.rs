//! The bytes of a match file as text: the kind of file from its first
//! bytes (not its name), the encoding (UTF-8 with or without a byte order
//! mark, UTF-16 little or big endian with one) and the line ends (LF, CR LF
//! or a lone CR, as old Mac programs write).

use std::borrow::Cow;

/// A kind of match file that is recognised but not read (yet), or not
/// read as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnreadFormat {
    /// An OGXM binary match file (`.ogxm`, `.gvab`: starts with `OGXM`),
    /// read from its bytes ([`read_match_file`](crate::read_match_file)),
    /// not as text.
    Ogxm,
}

impl UnreadFormat {
    /// The format of a file that starts with `start`, if it is one of these.
    pub fn detect(start: &[u8]) -> Option<Self> {
        if start.starts_with(b"OGXM") {
            Some(UnreadFormat::Ogxm)
        } else {
            None
        }
    }
}

impl std::fmt::Display for UnreadFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            UnreadFormat::Ogxm => "an OGXM binary match file (.ogxm, .gvab): read it as a file, not as text",
        })
    }
}

const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// The text of a file's bytes: UTF-8 (a byte order mark dropped), or
/// UTF-16 announced by its byte order mark. `None`: neither.
pub(super) fn decode(mut bytes: Vec<u8>) -> Option<String> {
    let utf16 = |le: bool| {
        if !bytes.len().is_multiple_of(2) {
            return None;
        }
        let units = bytes[2..].chunks_exact(2).map(|p| {
            if le {
                u16::from_le_bytes([p[0], p[1]])
            } else {
                u16::from_be_bytes([p[0], p[1]])
            }
        });
        char::decode_utf16(units).collect::<Result<String, _>>().ok()
    };
    match bytes.get(..2) {
        Some(b"\xFF\xFE") => utf16(true),
        Some(b"\xFE\xFF") => utf16(false),
        _ => {
            if bytes.starts_with(UTF8_BOM) {
                bytes.drain(..UTF8_BOM.len());
            }
            String::from_utf8(bytes).ok()
        }
    }
}

/// `text` without a leading byte order mark, with every line end a LF.
pub(super) fn normalize(text: &str) -> Cow<'_, str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.contains('\r') {
        Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        Cow::Borrowed(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf16(text: &str, le: bool) -> Vec<u8> {
        let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
        for u in text.encode_utf16() {
            bytes.extend(if le { u.to_le_bytes() } else { u.to_be_bytes() });
        }
        bytes
    }

    #[test]
    fn every_encoding_gives_the_same_text() {
        let text = " 3 point match\n Jörg : 0";
        assert_eq!(decode(text.as_bytes().to_vec()).as_deref(), Some(text));
        assert_eq!(decode([UTF8_BOM, text.as_bytes()].concat()).as_deref(), Some(text));
        assert_eq!(decode(utf16(text, true)).as_deref(), Some(text));
        assert_eq!(decode(utf16(text, false)).as_deref(), Some(text));
    }

    #[test]
    fn broken_text_is_refused() {
        assert_eq!(decode(vec![b'a', 0xFF, b'b']), None);
        let mut odd = utf16("ab", true);
        odd.push(b'c');
        assert_eq!(decode(odd), None, "an odd byte count is not UTF-16");
        assert_eq!(decode(vec![0xFF, 0xFE, 0x00, 0xD8]), None, "a lone surrogate");
    }

    #[test]
    fn line_ends_become_lf() {
        assert_eq!(normalize("\u{feff}a\rb\r\nc\n"), "a\nb\nc\n");
        assert!(matches!(normalize("a\nb"), Cow::Borrowed(_)));
    }

    #[test]
    fn other_programs_files_are_named() {
        assert_eq!(UnreadFormat::detect(b"RGMH\x01\x00"), None, "XG files are read (crate::xg)");
        assert_eq!(UnreadFormat::detect(b"OGXM\x02\x00"), Some(UnreadFormat::Ogxm));
        assert_eq!(UnreadFormat::detect(b"(;GM[6]"), None);
    }
}
