//! gnubg `.sgf` match-file reader: never panics; every position of an
//! accepted match is a consistent board (each one was rebuilt by replaying
//! the rules).
#![no_main]
use gammon_rules::parse_sgf;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(record) = parse_sgf(text) {
        for game in &record.games {
            for entry in &game.records {
                assert!(entry.position.is_consistent());
            }
        }
    }
});
