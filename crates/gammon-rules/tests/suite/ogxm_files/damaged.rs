//! Damaged files: each refused with its reason, never a panic.

use super::*;

#[test]
fn every_truncation_and_flipped_byte_is_a_typed_error_or_a_match() {
    // resign.ogxm has no checksum; gammon's writer adds one.
    let m = read_ogxm(&real("resign.ogxm")).unwrap();
    let bytes = write_ogxm(&m, m.stored.as_ref()).unwrap();
    for n in 0..bytes.len() {
        assert!(read_ogxm(&bytes[..n]).is_err(), "{n} bytes");
    }
    // A flipped byte before the checksum: the checksum (or the framing
    // before it) refuses it; in the checksum section itself, no panic.
    let csum = bytes.windows(4).rposition(|w| w == b"CSUM").unwrap();
    for i in 0..csum {
        let mut b = bytes.clone();
        b[i] ^= 0x5A;
        assert!(read_ogxm(&b).is_err(), "byte {i}");
    }
    // Without the checksum the decoder itself meets the damage: no panic.
    let plain = strip_csum(&write_ogxm(&m, m.stored.as_ref()).unwrap());
    for i in 16..plain.len() - 4 {
        for x in [0x01, 0x80, 0xFF] {
            let mut b = plain.clone();
            b[i] ^= x;
            let _ = read_ogxm_until_error(&b);
        }
    }
}

#[test]
fn random_damage_never_panics_and_what_reads_writes_back() {
    // The fuzz target's property (fuzz/fuzz_targets/ogxm.rs) on a fixed
    // seed: a few bytes changed, cut or repeated in a file with no checksum.
    let m = read_ogxm(&real("match.ogxm")).unwrap();
    let plain = strip_csum(&write_ogxm(&m, m.stored.as_ref()).unwrap());
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let mut read = 0;
    for _ in 0..3000 {
        let mut b = plain.clone();
        for _ in 0..=next(3) {
            let i = 16 + next(b.len() - 20);
            match next(4) {
                0 => b[i] = next(256) as u8,
                1 => b[i] ^= 1 << next(8),
                2 => {
                    b.remove(i);
                }
                _ => b.insert(i, b[i]),
            }
        }
        let size = (b.len() as u32).to_le_bytes();
        b[12..16].copy_from_slice(&size);
        let Ok((record, _)) = read_ogxm_until_error(&b) else { continue };
        read += 1;
        let back = read_ogxm_until_error(&write_ogxm(&record, record.stored.as_ref()).unwrap()).unwrap();
        assert!(back.1.is_none(), "{:?}", back.1);
        // The same plays; a move's spelling may change (the writer stores
        // steps in an order that plays, which damage may have undone).
        assert!(plays(&back.0, usize::MAX) == plays(&record, usize::MAX), "the plays differ");
    }
    assert!(read > 100, "{read} damaged files still read");
}

/// `bytes` without its `CSUM` section (the last), the size fixed.
fn strip_csum(bytes: &[u8]) -> Vec<u8> {
    let csum = bytes.windows(4).rposition(|w| w == b"CSUM").unwrap();
    let mut out = [&bytes[..csum], b"END!"].concat();
    let size = (out.len() as u32).to_le_bytes();
    out[12..16].copy_from_slice(&size);
    out
}

#[test]
fn each_damage_is_named() {
    let m = read_ogxm(&real("resign.ogxm")).unwrap();
    let good = write_ogxm(&m, m.stored.as_ref()).unwrap();
    assert_eq!(read_ogxm(b"RGMH....").unwrap_err(), OgxmError::NotOgxm);
    let mut huge = good.clone();
    huge.resize(gammon_rules::MAX_MATCH_FILE_BYTES as usize + 1, 0);
    assert!(matches!(read_ogxm(&huge).unwrap_err(), OgxmError::Limit { .. }));
    assert!(matches!(read_ogxm(&good[..good.len() - 1]).unwrap_err(), OgxmError::SizeMismatch { .. }));
    let mut b = good.clone();
    let last = b.len() - 1;
    b[last] = b'?';
    assert_eq!(read_ogxm(&b).unwrap_err(), OgxmError::NoEndMarker);
    let mut b = real("match.ogxm");
    b[40] ^= 1;
    assert!(matches!(read_ogxm(&b).unwrap_err(), OgxmError::Checksum { .. }));
    let mut b = good.clone();
    b[10] = 9; // needs a reader of 9.x
    assert!(matches!(read_ogxm(&b).unwrap_err(), OgxmError::Version { .. }));
    // An unknown section: skipped, unless it is critical.
    let plain = strip_csum(&good);
    let with = |flags: u8| {
        let end = plain.len() - 4;
        let mut out = [&plain[..end], b"ZZZZ\x02\x00\x00\x00", &[flags], b"hi", b"END!"].concat();
        let size = (out.len() as u32).to_le_bytes();
        out[12..16].copy_from_slice(&size);
        out
    };
    assert_eq!(read_ogxm(&with(0)).unwrap().games, read_ogxm(&good).unwrap().games);
    assert_eq!(read_ogxm(&with(1)).unwrap_err(), OgxmError::UnknownCritical { kind: "ZZZZ".into() });
}

#[test]
fn read_match_file_reads_ogxm_by_its_content() {
    let dir = std::env::temp_dir().join(format!("gammon-ogxm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("renamed.mat");
    std::fs::write(&path, real("match.ogxm")).unwrap();
    // Without a table a match's analysis is left out; with one it is read.
    let m = gammon_rules::read_match_file(&path).unwrap();
    assert_eq!(m, gammon_rules::read_ogxm(&real("match.ogxm"), None).unwrap());
    let m = gammon_rules::read_match_file_with_analysis(&path, kazaross()).unwrap();
    assert_eq!(m, read_ogxm(&real("match.ogxm")).unwrap());
    // Reading up to a bad game keeps the analysis with the table too.
    let (kept, e) = gammon_rules::read_match_file_until_error_with_analysis(&path, kazaross()).unwrap();
    assert!(e.is_none() && kept.stored.is_some());
    assert_eq!(kept, m);
    std::fs::write(&path, real("5nqfGw9bWG3deTaU.fast.gvab")).unwrap();
    let (m, e) = read_match_file_until_error(&path).unwrap();
    assert!(m.games.is_empty() && e.is_some());
    std::fs::write(&path, real("v1-chunks.gvab")).unwrap();
    let e = gammon_rules::read_match_file(&path).unwrap_err();
    assert!(matches!(&e, ReadMatchError::Ogxm { source: OgxmError::Version1 { .. }, .. }), "{e:?}");
    // Text of an OGXM file is still refused.
    assert!(gammon_rules::parse_match_text("OGXM\u{2}\u{0}").is_err());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn every_real_xg_match_goes_to_ogxm_and_back_with_its_moves_and_xgs_analysis() {
    // .xg -> .ogxm -> read: the same records (player, position, action) and
    // XG's analysis (match values through the same table both ways).
    let dir = gammon_testkit::shared_dir().join("matches/xg");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xg"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 8);
    let records = |m: &MatchRecord| -> Vec<_> {
        m.games.iter().flat_map(|g| g.records.iter().map(|e| (e.player, e.position, e.action.clone()))).collect()
    };
    // Moves and cube actions (a result is a record of its own in an XG file,
    // the game's result in OGXM: compared through the results below).
    let moves = |m: &MatchRecord| -> Vec<_> {
        records(m)
            .into_iter()
            .filter(|(_, _, a)| !matches!(a, MatAction::Win { .. }))
            .map(|(p, pos, a)| match a {
                MatAction::Move { dice, mv, .. } => (p, pos, Some((dice, mv)), None),
                other => (p, pos, None, Some(format!("{other:?}"))),
            })
            .collect()
    };
    // Points as far as the match counts them: XG writes a match's last game
    // capped at what the winner needed, gammon's OGXM reader the play's.
    let results = |m: &MatchRecord| -> Vec<_> {
        m.games
            .iter()
            .map(|g| {
                let need = |w: Seat| m.match_length.saturating_sub(g.score[w.index()]);
                let capped = g.result.map(|(w, p)| (w, if m.match_length > 0 { p.min(need(w)) } else { p }));
                (g.score, capped)
            })
            .collect()
    };
    let mut converted = 0;
    for path in &files {
        let (xg, _) = read_match_file_until_error(path).unwrap();
        if xg.games.is_empty() {
            // 5nqf's illegal play is in its first game: nothing to convert.
            continue;
        }
        converted += 1;
        let xg_stored = xg.stored.clone().expect("XG's analysis");
        let back = read_ogxm(&write_ogxm(&xg, Some(&xg_stored)).unwrap()).unwrap();
        assert_eq!(moves(&back), moves(&xg), "{}", path.display());
        assert_eq!(results(&back), results(&xg), "{}", path.display());
        let stored = back.stored.expect("the analysis comes back");
        assert_eq!(stored.records.len(), xg_stored.records.len(), "{}", path.display());
        for (key, x) in &xg_stored.records {
            let o = &stored.records[key];
            if let (Some(a), Some(b)) = (&x.chequer, &o.chequer) {
                assert_eq!(a.played.map(|k| a.candidates[k].after), b.played.map(|k| b.candidates[k].after));
                assert!((a.loss().unwrap() - b.loss().unwrap()).abs() < 1e-4, "{}: {key:?}", path.display());
            }
            if let (Some(a), Some(b)) = (&x.cube, &o.cube) {
                assert!((a.no_double - b.no_double).abs() < 1e-4, "{}: {key:?}", path.display());
            }
        }
    }
    assert_eq!(converted, 7);
}
