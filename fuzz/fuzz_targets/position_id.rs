//! Position ID parser: never panics; whatever it accepts round-trips and is a
//! consistent position.
#![no_main]
use gammon_rules::Position;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(p) = Position::from_position_id(text) {
        assert!(p.is_consistent());
        assert_eq!(p.to_position_id(), text);
        assert_eq!(p.switched().switched(), p);
    }
});
