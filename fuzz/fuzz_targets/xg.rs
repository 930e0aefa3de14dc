//! eXtreme Gammon `.xg` reader: never panics on any bytes; until-error
//! agrees with the whole read. The first byte picks what the rest is: the
//! records themselves (compressed here into a bare container, so the
//! fuzzer reaches the record and replay code), the bytes after a valid
//! header, or the whole file.
#![no_main]
use flate2::write::ZlibEncoder;
use flate2::Compression;
use gammon_rules::{parse_xg, parse_xg_until_error};
use libfuzzer_sys::fuzz_target;
use std::io::Write;

fn rich_header() -> Vec<u8> {
    let mut header = vec![0u8; 8232];
    header[..4].copy_from_slice(b"RGMH");
    header[4..8].copy_from_slice(&1u32.to_le_bytes());
    header[8..12].copy_from_slice(&8232u32.to_le_bytes());
    header
}

fuzz_target!(|data: &[u8]| {
    let bytes = match data.split_first() {
        Some((&flag, rest)) if flag % 3 == 0 => {
            let mut z = ZlibEncoder::new(rich_header(), Compression::fast());
            z.write_all(rest).expect("in memory");
            z.finish().expect("in memory")
        }
        Some((&flag, rest)) if flag % 3 == 1 => [rich_header(), rest.to_vec()].concat(),
        _ => data.to_vec(),
    };
    let whole = parse_xg(&bytes);
    match parse_xg_until_error(&bytes) {
        Ok((record, None)) => assert_eq!(whole.expect("read whole"), record),
        Ok((record, Some(_))) => {
            assert!(whole.is_err());
            if let Some(stored) = &record.stored {
                assert!(stored.records.keys().all(|&(g, r)| g < record.games.len() && r < record.games[g].records.len()));
            }
        }
        Err(_) => assert!(whole.is_err()),
    }
});
