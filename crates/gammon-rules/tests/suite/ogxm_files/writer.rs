//! gammon's writer, read back by the reference codec and by gammon.

use super::*;

/// Equal analyses, equities within `tolerance` (v2 keeps millionths).
fn same_stored(a: &StoredAnalysis, b: &StoredAnalysis, tolerance: f64) {
    assert_eq!(a.program, b.program);
    assert_eq!(a.records.keys().collect::<Vec<_>>(), b.records.keys().collect::<Vec<_>>());
    let close = |x: f64, y: f64| (x - y).abs() <= tolerance;
    for ((k, x), y) in a.records.iter().zip(b.records.values()) {
        match (&x.chequer, &y.chequer) {
            (Some(p), Some(q)) => {
                assert_eq!((p.played, p.candidates.len()), (q.played, q.candidates.len()), "{k:?}");
                for (c, d) in p.candidates.iter().zip(&q.candidates) {
                    assert!(c.after == d.after && c.depth == d.depth && c.probabilities == d.probabilities, "{k:?}");
                    assert!(close(c.equity, d.equity), "{k:?}: {} {}", c.equity, d.equity);
                }
            }
            (None, None) => {}
            _ => panic!("{k:?}: a chequer play on one side only"),
        }
        match (&x.cube, &y.cube) {
            (Some(p), Some(q)) => {
                assert!(p.depth == q.depth && p.probabilities == q.probabilities, "{k:?}: {p:?} {q:?}");
                for (c, d) in
                    [(p.no_double, q.no_double), (p.double_take, q.double_take), (p.double_pass, q.double_pass)]
                {
                    assert!(close(c, d), "{k:?}: {c} {d}");
                }
            }
            (None, None) => {}
            _ => panic!("{k:?}: a cube decision on one side only"),
        }
    }
}

#[test]
fn gammons_writer_reads_back_equal() {
    for (name, ..) in READ_WHOLE {
        let m = read_ogxm(&real(name)).unwrap();
        let bytes = write_ogxm(&m, m.stored.as_ref()).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = read_ogxm(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (&back.players, back.match_length, back.crawford, back.rules),
            (&m.players, m.match_length, m.crawford, m.rules),
            "{name}"
        );
        for (g, (x, y)) in back.games.iter().zip(&m.games).enumerate() {
            let first = x.records.iter().zip(&y.records).position(|(p, q)| p != q);
            assert!(
                first.is_none(),
                "{name} game {g} record {first:?}: {:?} / {:?}",
                first.map(|i| &x.records[i]),
                first.map(|i| &y.records[i])
            );
        }
        assert_eq!(back.games, m.games, "{name}");
        match (&m.stored, &back.stored) {
            // Millionths of an MWC are a few hundred-thousandths of an EMG.
            (Some(a), Some(b)) => same_stored(a, b, 1e-4),
            (None, None) => {}
            _ => panic!("{name}: the analysis is lost or made up"),
        }
    }
    // A .mat file (a money session with a beaver) written and read back.
    let mat = read_match_file_until_error(gammon_testkit::shared_dir().join("matches/xg/B4_SrGcsKAQmoTyHlgJCbM.mat"))
        .unwrap()
        .0;
    let back = read_ogxm(&write_ogxm(&mat, None).unwrap()).unwrap();
    // A binary file has no lines, and numbers each ply: the plays compare.
    assert_eq!(back.players, mat.players);
    assert_eq!(plays(&back, 2), plays(&mat, 2));
    assert_eq!(
        back.games.iter().map(|g| g.result).collect::<Vec<_>>(),
        mat.games.iter().map(|g| g.result).collect::<Vec<_>>()
    );
}

/// The codec's plies as `(action, color, dice, position after)`: the
/// position, not the steps, since a play may be spelled two ways.
type CodecPly = (u64, u64, Option<(u64, u64)>, String);

fn codec_moves(doc: &Value) -> Vec<Vec<CodecPly>> {
    codec_plies(doc)
        .iter()
        .map(|plies| {
            plies
                .iter()
                .map(|p| {
                    let dice = p["d1"].as_u64().zip(p["d2"].as_u64()).map(|(a, b)| (a.min(b), a.max(b)));
                    // Without the last-game mark (`L` after the length): gammon keeps no such flag.
                    let after = p["ogid_after"].as_str().unwrap_or_default().replace("L:", ":");
                    (p["action_id"].as_u64().unwrap(), p["color"].as_u64().unwrap_or(9), dice, after)
                })
                .collect()
        })
        .collect()
}

/// A money game with a beaver, as a `.mat` file writes it.
const BEAVER_MAT: &str = " 0 point match\n\n Game 1\n A : 0                           B : 0\n  1)                             31: 8/5 6/5\n  2) Doubles => 2                Beavers => 4\n  3) 42: 8/4 6/4                 62: 24/18 13/11\n";

#[test]
fn a_beaver_is_written_and_read_back() {
    let mat = gammon_rules::parse_mat(BEAVER_MAT).unwrap();
    let bytes = write_ogxm(&mat, None).unwrap();
    let back = read_ogxm(&bytes).unwrap();
    assert_eq!(plays(&back, 1), plays(&mat, 1));
    let after = &back.games[0].records[3];
    assert_eq!(after.cube, gammon_rules::Cube { value: 4, owner: Some(Seat::One), automatic: 0 });
    assert!(back.rules.beaver);
    if let Some(codec) = Codec::find() {
        let doc = codec.read(&bytes);
        let ids: Vec<u64> = codec_plies(&doc)[0].iter().map(|p| p["action_id"].as_u64().unwrap()).collect();
        assert_eq!(ids, [2, 21, 32, 8, 10], "{doc}");
        assert_eq!(doc["replay_complete"], json!(true));
    }
}

#[test]
fn the_codec_reads_gammons_files_with_the_same_moves_and_values() {
    let Some(codec) = Codec::find() else { return };
    for (name, ..) in READ_WHOLE {
        let original = real(name);
        let m = read_ogxm(&original).unwrap();
        let written = write_ogxm(&m, m.stored.as_ref()).unwrap();
        let ours = codec.read(&written);
        let theirs = codec.read(&original);
        // gammon writes a resignation where a game ends before its plays
        // do (B4's last game): the only ply it adds.
        let (a, b) = (codec_moves(&ours), codec_moves(&theirs));
        assert_eq!(a.len(), b.len(), "{name}");
        for (g, (x, y)) in a.iter().zip(&b).enumerate() {
            let y: Vec<_> = y.iter().filter(|p| !matches!(p.0, 27 | 28)).collect();
            let x: Vec<_> = x.iter().filter(|p| !matches!(p.0, 27 | 28)).collect();
            let first = x.iter().zip(&y).position(|(p, q)| p != q);
            assert!(
                x.len() == y.len() && first.is_none(),
                "{name} game {g}: ply {first:?} of {} / {}",
                x.len(),
                y.len()
            );
        }
        // gammon keeps no Crawford rule in money play.
        let keys: &[&str] = if m.match_length > 0 {
            &["match_length", "player_white", "player_black", "crawford"]
        } else {
            &["match_length", "player_white", "player_black", "jacoby"]
        };
        // An absent flag is false (v2 leaves out what is default).
        let value = |doc: &Value, key: &str| if doc[key].is_null() { json!(false) } else { doc[key].clone() };
        for &key in keys {
            assert_eq!(value(&ours, key), value(&theirs, key), "{name}: {key}");
        }
        // Each value gammon keeps comes back in the file's own units.
        let mut compared = 0;
        for (p, q) in codec_plies(&ours).iter().flatten().zip(codec_plies(&theirs).iter().flatten()) {
            let (a, b) = (&p["analysis"], &q["analysis"]);
            if let (Some(x), Some(y)) = (a["alternatives"].as_array(), b["alternatives"].as_array()) {
                assert_eq!(x.len(), y.len(), "{name}");
                for (c, d) in x.iter().zip(y) {
                    assert!((f(&c["equity"]) - f(&d["equity"])).abs() < 2.5e-6, "{name}: {c} {d}");
                    assert_eq!(c["eval"], d["eval"], "{name}");
                    assert_eq!(c["is_played"], d["is_played"], "{name}");
                }
                compared += 1;
            }
            for cube in ["cube_decision", "no_double_equity"] {
                let (x, y) = if cube == "cube_decision" { (&a[cube], &b[cube]) } else { (a, b) };
                for k in ["no_double_equity", "double_take_equity", "double_pass_equity"] {
                    if let (Some(c), Some(d)) = (x[k].as_f64(), y[k].as_f64()) {
                        assert!((c - d).abs() < 2.5e-6, "{name}: {k} {c} {d}");
                    }
                }
            }
        }
        assert!(compared > 0 || m.stored.is_none(), "{name}");
    }
}

#[test]
fn a_v1_file_converted_by_the_codec_is_refused_as_the_codec_replays_it() {
    let Some(codec) = Codec::find() else { return };
    let v2 = codec.v1_to_v2(&real("v1-chunks.gvab"));
    // The conversion states a start of 64-0 in a 5-point match; the codec's
    // own replay of it fails too.
    assert_eq!(codec.read(&v2)["replay_complete"], json!(false));
    let e = read_ogxm(&v2).unwrap_err();
    assert!(matches!(&e, OgxmError::Replay(m) if m.reason.contains("64-0")), "{e}");
}
