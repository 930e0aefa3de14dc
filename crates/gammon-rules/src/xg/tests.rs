use super::*;

fn real(name: &str) -> Vec<u8> {
    let path = gammon_testkit::shared_dir().join("matches/xg").join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The loss of each played move by the stored candidates is the error
/// XG stored for it (in EMG in a match, per unit of cube in money play).
#[test]
fn the_played_moves_loss_is_xgs_error() {
    let mut matched = 0;
    for name in ["UL-CV6F9jMM-E1Pu.xg", "B4_SrGcsKAQmoTyHlgJCbM.xg", "Sz-2PgKnvb6aFls69-qFXg.xg"] {
        let records = records::parse_records(&container::game_file(&real(name)).unwrap()).unwrap();
        let converted = convert::convert(records).unwrap();
        let errors: Vec<((usize, usize), f64)> = converted
            .pending
            .iter()
            .enumerate()
            .flat_map(|(g, p)| p.iter().enumerate().filter_map(move |(a, x)| Some(((g, a), x.as_ref()?.error?))))
            .collect();
        let (record, error) = replay_until_error(converted.raw).unwrap();
        assert_eq!(error, None, "{name}");
        let stored = analysis::attach(&record, converted.pending).unwrap();
        for (key, xg_error) in errors {
            let Some(loss) = stored.records.get(&key).and_then(|r| r.chequer.as_ref()?.loss()) else { continue };
            assert!((loss + xg_error).abs() < 1e-4, "{name} {key:?}: loss {loss}, XG's error {xg_error}");
            matched += 1;
        }
    }
    // Counted when written: 436 analysed plays of the three files.
    assert_eq!(matched, 436, "moves compared");
}
