//! gnubg Position ID: 14 Base64 characters for 80 bits.
//!
//! The bit string holds the player *not* on roll first, then the player on
//! roll; for each, 25 counts (points 1..24 in his own numbering, then his
//! bar), each written as that many 1-bits and a 0-bit. Bit `k` lives in byte
//! `k / 8` at bit `k % 8` (least significant first). This follows gnubg's
//! code and the IDs it prints (its manual has the halves the other way).

use crate::error::PositionIdError;
use crate::position::{Position, SideBoard};

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

pub(crate) const fn base64_value(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Base64 (standard alphabet, no padding) of `bytes`, keeping the first
/// `chars` characters.
pub(crate) fn base64_encode(bytes: &[u8], chars: usize) -> String {
    let mut out = String::with_capacity(chars);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for shift in [18, 12, 6, 0] {
            out.push(BASE64[((n >> shift) & 63) as usize] as char);
        }
    }
    out.truncate(chars);
    out
}

/// Decodes `text` (no padding) into `out`, which must hold exactly the
/// bytes the text encodes; bits beyond them must be zero.
pub(crate) fn base64_decode(text: &str, out: &mut [u8]) -> Result<(), PositionIdError> {
    let mut acc: u64 = 0;
    let mut bits = 0;
    let mut i = 0;
    for c in text.chars() {
        let v = u8::try_from(c).ok().and_then(base64_value).ok_or(PositionIdError::Character(c))?;
        acc = (acc << 6) | u64::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            let byte = (acc >> bits) as u8;
            if i < out.len() {
                out[i] = byte;
            } else if byte != 0 {
                return Err(PositionIdError::Bits("bits set past the end"));
            }
            i += 1;
            acc &= (1 << bits) - 1;
        }
    }
    if acc != 0 {
        return Err(PositionIdError::Bits("padding bits are not zero"));
    }
    Ok(())
}

impl Position {
    /// The gnubg Position ID of this position (player on roll second).
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert_eq!(Position::STARTING.to_position_id(), "4HPwATDgc/ABMA");
    /// ```
    pub fn to_position_id(&self) -> String {
        let (me, him) = self.to_boards();
        let mut bytes = [0u8; 10];
        let mut k = 0;
        for side in [&him, &me] {
            for &n in side {
                for _ in 0..n {
                    bytes[k / 8] |= 1 << (k % 8);
                    k += 1;
                }
                k += 1;
            }
        }
        base64_encode(&bytes, 14)
    }

    /// Reads a gnubg Position ID (player on roll in the second half).
    ///
    /// ```
    /// # use gammon_rules::Position;
    /// assert_eq!(Position::from_position_id("4HPwATDgc/ABMA").unwrap(), Position::STARTING);
    /// assert!(Position::from_position_id("4HPwATDgc/ABM").is_err());
    /// ```
    ///
    /// # Errors
    /// Wrong length, a character outside Base64, bits that are not 50 counts,
    /// or an impossible board.
    pub fn from_position_id(id: &str) -> Result<Self, PositionIdError> {
        let n = id.chars().count();
        if n != 14 {
            return Err(PositionIdError::Length(n));
        }
        let mut bytes = [0u8; 10];
        base64_decode(id, &mut bytes)?;
        let mut boards: [SideBoard; 2] = [[0; 25]; 2];
        let mut k = 0;
        for board in &mut boards {
            for count in board.iter_mut() {
                let mut c = 0u32;
                loop {
                    if k >= 80 {
                        return Err(PositionIdError::Bits("the 50 counts run past 80 bits"));
                    }
                    let bit = bytes[k / 8] >> (k % 8) & 1;
                    k += 1;
                    if bit == 0 {
                        break;
                    }
                    c += 1;
                }
                // A count above 15 is caught as too many checkers below.
                *count = c.min(255) as u8;
            }
        }
        let ones = bytes.iter().map(|b| b.count_ones()).sum::<u32>() as usize;
        let used_ones = boards.iter().flatten().map(|&c| usize::from(c)).sum::<usize>();
        if ones != used_ones {
            return Err(PositionIdError::Bits("bits set after the 50 counts"));
        }
        Ok(Position::from_boards(&boards[1], &boards[0])?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readme_examples() {
        let p = Position::from_position_id("sGfwATDgc/ABMA").unwrap();
        let (me, him) = p.to_boards();
        assert_eq!(me, Position::STARTING.to_boards().0);
        assert_eq!(&him[..8], &[0, 0, 0, 0, 2, 4, 0, 2]);
        let p = Position::from_position_id("27YBAAA8Dz4ADA").unwrap();
        assert_eq!(p.my_bar(), 2);
        assert_eq!(p.borne_off(), (0, 3));
        let p = Position::from_position_id("8H0AAEgAAAAAAA").unwrap();
        assert_eq!(p.borne_off(), (13, 5));
    }

    #[test]
    fn rejects_bad_ids() {
        assert!(matches!(Position::from_position_id("4HPwATDgc/ABM!"), Err(PositionIdError::Character('!'))));
        assert!(matches!(Position::from_position_id("////////////////"), Err(PositionIdError::Length(16))));
        assert!(Position::from_position_id("//////////////").is_err());
        assert!(Position::from_position_id("AAAAAAAAAAAAAA").is_err());
    }
}
