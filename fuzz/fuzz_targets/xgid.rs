//! Xgid parser: never panics; whatever it accepts writes back to text that
//! reads as the same value.
#![no_main]
use gammon_rules::Xgid;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(value) = Xgid::parse(text) {
        let again = Xgid::parse(&value.to_string()).expect("written form reads back");
        assert_eq!(again, value);
    }
});
