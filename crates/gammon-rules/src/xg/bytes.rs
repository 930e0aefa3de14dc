//! Little-endian fields read at an offset, `None` past the end: every read
//! of the file goes through these, so a short buffer is an error, never a
//! panic.

fn array<const N: usize>(b: &[u8], offset: usize) -> Option<[u8; N]> {
    b.get(offset..offset.checked_add(N)?)?.try_into().ok()
}

pub(super) fn u8_at(b: &[u8], offset: usize) -> Option<u8> {
    b.get(offset).copied()
}

pub(super) fn i32_at(b: &[u8], offset: usize) -> Option<i32> {
    array(b, offset).map(i32::from_le_bytes)
}

pub(super) fn u32_at(b: &[u8], offset: usize) -> Option<u32> {
    array(b, offset).map(u32::from_le_bytes)
}

pub(super) fn f32_at(b: &[u8], offset: usize) -> Option<f32> {
    array(b, offset).map(f32::from_le_bytes)
}

pub(super) fn f64_at(b: &[u8], offset: usize) -> Option<f64> {
    array(b, offset).map(f64::from_le_bytes)
}

/// XG's `PositionEngine`: 26 signed counts.
pub(super) fn board_at(b: &[u8], offset: usize) -> Option<[i8; 26]> {
    array::<26>(b, offset).map(|a| a.map(|x| i8::from_le_bytes([x])))
}

/// A Delphi `string[n]` (a length byte, then ANSI bytes, read as Latin-1),
/// at most `max` characters.
pub(super) fn short_string(b: &[u8], offset: usize, max: usize) -> Option<String> {
    let len = usize::from(u8_at(b, offset)?).min(max);
    let bytes = b.get(offset + 1..offset + 1 + len)?;
    Some(bytes.iter().map(|&c| char::from(c)).collect())
}

/// A `TShortUnicodeString`: up to `units` UTF-16 code units, ended by 0.
pub(super) fn wide_string(b: &[u8], offset: usize, units: usize) -> Option<String> {
    let bytes = b.get(offset..offset.checked_add(units * 2)?)?;
    let codes = bytes.chunks_exact(2).map(|p| u16::from_le_bytes([p[0], p[1]])).take_while(|&c| c != 0);
    Some(char::decode_utf16(codes).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER)).collect())
}
