//! A serde `with` module that stores a table of numbers as one byte string
//! (little-endian) rather than element by element: the byte string is read
//! in place from the file image (bincode's borrowing decoder) and converted
//! in one pass, so the one-sided bearoff cache's 1.1 million numbers decode
//! in about a millisecond instead of six.

use serde::de::Visitor;
use serde::{Deserializer, Serializer};

/// A number stored in a fixed number of little-endian bytes.
pub trait Word: Copy {
    /// Its size in bytes.
    const SIZE: usize;
    /// Appends its bytes.
    fn put(self, out: &mut Vec<u8>);
    /// From exactly [`SIZE`](Self::SIZE) bytes.
    fn get(bytes: &[u8]) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                let mut b = [0u8; std::mem::size_of::<$t>()];
                b.copy_from_slice(bytes);
                <$t>::from_le_bytes(b)
            }
        }
    )*};
}
word!(u16, u32, f32);

/// Four floats in a row (the two-sided bearoff database's values).
impl Word for [f32; 4] {
    const SIZE: usize = 16;
    fn put(self, out: &mut Vec<u8>) {
        for x in self {
            x.put(out);
        }
    }
    fn get(bytes: &[u8]) -> Self {
        std::array::from_fn(|i| f32::get(&bytes[4 * i..4 * i + 4]))
    }
}

/// Serialises the table as one byte string.
///
/// # Errors
/// Those of the serializer.
pub fn serialize<T: Word, S: Serializer>(table: &[T], s: S) -> Result<S::Ok, S::Error> {
    let mut bytes = Vec::with_capacity(table.len() * T::SIZE);
    for &x in table {
        x.put(&mut bytes);
    }
    s.serialize_bytes(&bytes)
}

/// Reads a table written by [`serialize`].
///
/// # Errors
/// Those of the deserializer, or a byte string that is not a whole
/// number of words.
pub fn deserialize<'de, T: Word, D: Deserializer<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    d.deserialize_bytes(Table(std::marker::PhantomData))
}

/// Converts the byte string straight into the table, borrowed where
/// the decoder lends it (no intermediate copy).
struct Table<T>(std::marker::PhantomData<T>);

impl<T: Word> Visitor<'_> for Table<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a byte string of {}-byte words", T::SIZE)
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<Vec<T>, E> {
        if !bytes.len().is_multiple_of(T::SIZE) {
            return Err(E::custom(format!("{} bytes are not a whole number of {}-byte words", bytes.len(), T::SIZE)));
        }
        Ok(bytes.chunks_exact(T::SIZE).map(T::get).collect())
    }
}
