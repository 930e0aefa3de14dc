//! FIBS rawboard parser: never panics; an accepted board that can be written
//! reads back as the same board.
#![no_main]
use gammon_rules::FibsBoard;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(board) = FibsBoard::parse(text) {
        assert!(board.position.is_consistent());
        if let Ok(line) = board.to_line() {
            assert_eq!(FibsBoard::parse(&line).expect("written line reads back"), board);
        }
    }
});
