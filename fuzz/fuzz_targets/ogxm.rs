//! OGXM reader: never panics on any bytes; every position of an accepted
//! match is a consistent board (each one rebuilt by replaying the rules),
//! and gammon's writer writes every accepted match back to a file gammon
//! reads with the same plays (a play's spelling aside: the writer stores
//! its steps in an order that plays, which the input need not have).
#![no_main]
use gammon_rules::{read_ogxm_until_error, write_ogxm, GameText, MatAction};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Inputs need not carry a valid CRC: most damage is met by the decoder.
    let Ok((record, _)) = read_ogxm_until_error(data, None) else { return };
    for game in &record.games {
        for entry in &game.records {
            assert!(entry.position.is_consistent());
        }
    }
    if let Ok(bytes) = write_ogxm(&record, record.stored.as_ref(), None) {
        let (back, error) = read_ogxm_until_error(&bytes, None).expect("gammon reads what it writes");
        assert!(error.is_none(), "{error:?}");
        assert_eq!(unspelled(back.games), unspelled(record.games));
    }
});

/// The games with each move's text cleared.
fn unspelled(mut games: Vec<GameText>) -> Vec<GameText> {
    for r in games.iter_mut().flat_map(|g| g.records.iter_mut()) {
        if let MatAction::Move { text, .. } = &mut r.action {
            text.clear();
        }
    }
    games
}
