use super::*;
use flate2::write::ZlibEncoder;
use flate2::Compression;
use std::io::Write;

fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut e = ZlibEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn a_stream_inflates_within_its_limit_only() {
    let data = vec![7u8; 100_000];
    let z = zlib(&data);
    assert_eq!(inflate(&z, 100_000).unwrap(), data);
    assert!(matches!(inflate(&z, 99_999), Err(XgError::TooLarge)));
    assert!(matches!(inflate(&z[..z.len() / 2], 100_000), Err(XgError::Truncated(_))));
    assert!(matches!(inflate(b"not zlib at all", 100), Err(XgError::Corrupt(_))));
}
