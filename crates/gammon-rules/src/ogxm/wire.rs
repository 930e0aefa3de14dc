//! OGXM's byte-level encoding: little-endian integers, LEB128 varints (at
//! most 32 or 64 bits, no overlong forms), length-prefixed UTF-8 strings,
//! and records: a varint length, then a varint presence mask whose bit `k`
//! says whether optional field `k` follows. Every read is bounded by the
//! record that holds it.

use super::OgxmError;

/// The longest string read: v2's cap on a string field.
pub(crate) const MAX_STRING_BYTES: usize = 4096;

/// A read position inside `data[..end]`.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    data: &'a [u8],
    pos: usize,
    end: usize,
    /// Offset of `data` in the file, for error messages.
    base: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor over `data`, which starts at `base` in the file.
    pub fn new(data: &'a [u8], base: usize) -> Self {
        Cursor { data, pos: 0, end: data.len(), base }
    }

    pub fn offset(&self) -> usize {
        self.base + self.pos
    }

    pub fn at_end(&self) -> bool {
        self.pos >= self.end
    }

    fn truncated(&self) -> OgxmError {
        OgxmError::Truncated { offset: self.offset() }
    }

    pub fn bytes(&mut self, n: usize) -> Result<&'a [u8], OgxmError> {
        let stop = self.pos.checked_add(n).filter(|&s| s <= self.end).ok_or_else(|| self.truncated())?;
        let out = self.data.get(self.pos..stop).ok_or_else(|| self.truncated())?;
        self.pos = stop;
        Ok(out)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], OgxmError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }

    pub fn u8(&mut self) -> Result<u8, OgxmError> {
        Ok(self.array::<1>()?[0])
    }

    pub fn u16(&mut self) -> Result<u16, OgxmError> {
        Ok(u16::from_le_bytes(self.array()?))
    }

    pub fn i32(&mut self) -> Result<i32, OgxmError> {
        Ok(i32::from_le_bytes(self.array()?))
    }

    pub fn u32(&mut self) -> Result<u32, OgxmError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    fn leb(&mut self, bits: u32) -> Result<u64, OgxmError> {
        let start = self.offset();
        let bad = |why: &'static str| OgxmError::Varint { offset: start, why };
        let mut value = 0u64;
        for i in 0..bits.div_ceil(7) {
            let b = self.u8()?;
            value |= u64::from(b & 0x7F) << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(bad("overlong"));
                }
                if bits < 64 && value >> bits != 0 {
                    return Err(bad("wider than its field"));
                }
                return Ok(value);
            }
        }
        Err(bad("too long"))
    }

    pub fn varint(&mut self) -> Result<u32, OgxmError> {
        self.leb(32).map(|v| u32::try_from(v).unwrap_or(u32::MAX))
    }

    pub fn varint64(&mut self) -> Result<u64, OgxmError> {
        self.leb(64)
    }

    /// A count of items, each at least `min_bytes` long: refused when the
    /// rest of the record could not hold them (no allocation on a lie).
    pub fn count(&mut self, min_bytes: usize) -> Result<usize, OgxmError> {
        let at = self.offset();
        let n = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        if n.saturating_mul(min_bytes.max(1)) > self.end - self.pos {
            return Err(OgxmError::Invalid { offset: at, what: "a count larger than its record" });
        }
        Ok(n)
    }

    pub fn string(&mut self) -> Result<String, OgxmError> {
        let at = self.offset();
        let n = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        if n > MAX_STRING_BYTES {
            return Err(OgxmError::Invalid { offset: at, what: "a string longer than 4096 bytes" });
        }
        let bytes = self.bytes(n)?;
        String::from_utf8(bytes.to_vec()).map_err(|_| OgxmError::Invalid { offset: at, what: "a string not UTF-8" })
    }

    /// A fixed-point equity (millionths).
    pub fn equity(&mut self) -> Result<f64, OgxmError> {
        Ok(f64::from(self.i32()?) / 1e6)
    }

    /// A fixed-point equity loss (unsigned millionths).
    pub fn loss(&mut self) -> Result<f64, OgxmError> {
        Ok(f64::from(self.u32()?) / 1e6)
    }

    /// Five probabilities (ten-thousandths): win, win gammon, win
    /// backgammon, lose gammon, lose backgammon, cumulative.
    pub fn probs(&mut self) -> Result<[f64; 5], OgxmError> {
        let mut p = [0.0; 5];
        for v in &mut p {
            *v = f64::from(self.u16()?) / 1e4;
        }
        Ok(p)
    }

    /// A length-prefixed record: a cursor over its body (after the mask)
    /// and its presence mask. The cursor moves past the record.
    pub fn record(&mut self) -> Result<(Cursor<'a>, Mask), OgxmError> {
        let at = self.offset();
        let len = usize::try_from(self.varint()?).unwrap_or(usize::MAX);
        let start = self.pos;
        let stop = start
            .checked_add(len)
            .filter(|&s| s <= self.end)
            .ok_or(OgxmError::Invalid { offset: at, what: "a record longer than what holds it" })?;
        self.pos = stop;
        let mut body = Cursor { data: self.data, pos: start, end: stop, base: self.base };
        let mask = Mask(body.varint64()?);
        Ok((body, mask))
    }
}

/// A record's presence mask.
#[derive(Clone, Copy)]
pub(crate) struct Mask(pub u64);

impl Mask {
    pub fn has(self, bit: u32) -> bool {
        self.0 >> bit & 1 == 1
    }
}

/// Appends OGXM encodings to a buffer.
#[derive(Default)]
pub(crate) struct Out(pub Vec<u8>);

impl Out {
    pub fn u8(&mut self, v: u8) {
        self.0.push(v);
    }

    pub fn u16(&mut self, v: u16) {
        self.0.extend(v.to_le_bytes());
    }

    pub fn u32(&mut self, v: u32) {
        self.0.extend(v.to_le_bytes());
    }

    pub fn i32(&mut self, v: i32) {
        self.0.extend(v.to_le_bytes());
    }

    pub fn varint(&mut self, v: u64) {
        let mut v = v;
        loop {
            let low = (v & 0x7F) as u8;
            v >>= 7;
            if v == 0 {
                self.0.push(low);
                return;
            }
            self.0.push(low | 0x80);
        }
    }

    pub fn string(&mut self, s: &str) {
        self.varint(s.len() as u64);
        self.0.extend(s.as_bytes());
    }

    /// An equity in millionths (v2 keeps values beyond ±3; only the i32
    /// range bounds them).
    pub fn equity(&mut self, v: f64) {
        self.i32((v * 1e6).round() as i32);
    }

    pub fn probs(&mut self, p: &[f64; 5]) {
        for v in p {
            self.u16((v.clamp(0.0, 1.0) * 1e4).round() as u16);
        }
    }

    /// A record: its length, the mask, then `body`.
    pub fn record(&mut self, mask: u64, body: &Out) {
        let mut inner = Out::default();
        inner.varint(mask);
        inner.0.extend(&body.0);
        self.varint(inner.0.len() as u64);
        self.0.extend(inner.0);
    }
}

/// CRC-32 (IEEE, as zlib computes it), for the `CSUM` section.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut t = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 != 0 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
                k += 1;
            }
            t[i] = c;
            i += 1;
        }
        t
    };
    !bytes.iter().fold(!0u32, |crc, &b| TABLE[usize::from((crc as u8) ^ b)] ^ (crc >> 8))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_and_refuse_overlong() {
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX)] {
            let mut o = Out::default();
            o.varint(v);
            assert_eq!(Cursor::new(&o.0, 0).varint64().unwrap(), v);
        }
        assert!(Cursor::new(&[0x80, 0x00], 0).varint().is_err(), "overlong");
        assert!(Cursor::new(&[0xFF, 0xFF, 0xFF, 0xFF, 0x7F], 0).varint().is_err(), "past 32 bits");
        assert!(Cursor::new(&[0x80], 0).varint().is_err(), "truncated");
    }

    #[test]
    fn crc32_is_zlibs() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn a_record_cannot_claim_more_than_it_has() {
        assert!(Cursor::new(&[0x05, 0x00], 0).record().is_err());
        let mut c = Cursor::new(&[0x02, 0x00, 0x01, 0x09], 0);
        let (mut body, mask) = c.record().unwrap();
        assert!(!mask.has(0));
        assert_eq!(body.u8().unwrap(), 1);
        assert!(body.u8().is_err(), "the record ends before the next byte");
    }
}
