//! OGXM files: the real ones in the shared folder, files the reference
//! codec writes from small JSON documents, gammon's writer read back by the
//! codec and by gammon, and damaged files.
//!
//! The reference codec (PyPI `ogxm` 2.3.2, `libogxm` inside) is the
//! independent reader and writer: the tests that need it look for a Python
//! with it in `OGXM_PYTHON`, else in `target/ogxm-venv` (where `.ci/run`
//! installs it), and are skipped with the reason printed when there is none
//! (failed under `GAMMON_REQUIRE_ALL`).

use gammon_rules::{
    read_match_file_until_error, read_ogxm, read_ogxm_until_error, write_ogxm, MatAction, MatchRecord, OgxmError,
    ReadMatchError, Seat, StoredAnalysis,
};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn ogxm_dir() -> PathBuf {
    gammon_testkit::shared_dir().join("matches/ogxm")
}

fn real(name: &str) -> Vec<u8> {
    let path = ogxm_dir().join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}: the OGXM files are the shared folder's matches/ogxm", path.display()))
}

/// The real v2 files gammon reads whole: (file, games, rolls, analysed records).
const READ_WHOLE: [(&str, usize, usize, usize); 11] = [
    ("B4_SrGcsKAQmoTyHlgJCbM.fast.gvab", 3, 55, 61),
    ("annos.ogxm", 2, 64, 68),
    ("baR-U643iUDpvzTC.fast.gvab", 3, 88, 96),
    ("blocks.ogxm", 2, 26, 0),
    ("cube-on-two.ogxm", 1, 17, 19),
    ("foreign.ogxm", 2, 64, 68),
    ("match.ogxm", 3, 80, 86),
    ("resign.ogxm", 1, 6, 6),
    ("set-up.ogxm", 2, 56, 60),
    ("two-blocks.ogxm", 2, 64, 68),
    ("set-up.ogxm", 2, 56, 60),
];

#[test]
fn every_real_v2_file_reads() {
    for (name, games, rolls, analysed) in READ_WHOLE {
        let m = read_ogxm(&real(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(m.games.len(), games, "{name}");
        assert_eq!(m.games.iter().map(|g| g.rolls()).sum::<usize>(), rolls, "{name}");
        assert_eq!(m.stored.as_ref().map_or(0, |s| s.records.len()), analysed, "{name}");
    }
    // blocks.ogxm's only block is cubeless: no equity gammon keeps.
    assert!(read_ogxm(&real("blocks.ogxm")).unwrap().stored.is_none());
}

#[test]
fn what_gammon_does_not_play_is_refused_by_name() {
    // A nackgammon match (variant 1).
    let e = read_ogxm(&real("fields.ogxm")).unwrap_err();
    assert!(matches!(&e, OgxmError::Unsupported { what } if what.contains("variant 1")), "{e}");
    // An OGXM v1 file.
    let e = read_ogxm(&real("v1-chunks.gvab")).unwrap_err();
    assert_eq!(e, OgxmError::Version1 { minor: 3 });
    // An illegal play restated as the board it made (action 31): the games before it.
    let (m, e) = read_ogxm_until_error(&real("5nqfGw9bWG3deTaU.fast.gvab")).unwrap();
    let e = e.expect("the restated play stops the replay");
    assert_eq!((m.games.len(), e.place.game, e.place.move_number), (0, Some(1), Some(20)), "{e}");
    assert!(e.reason.contains("action 31"), "{e}");
}

#[test]
fn the_header_of_each_file_is_read() {
    let m = read_ogxm(&real("match.ogxm")).unwrap();
    assert_eq!((m.players.clone(), m.match_length, m.crawford), (["Alice".into(), "Bob".into()], 9, false));
    assert_eq!(m.stored.as_ref().unwrap().program, "xerxes");
    // Bob (seat One, Black) rolls first: his 65 runs a back checker.
    let first = &m.games[0].records[0];
    assert_eq!(first.player, Seat::One);
    assert!(matches!(&first.action, MatAction::Move { text, .. } if text == "24/18 18/13"), "{:?}", first.action);
    let money = read_ogxm(&real("B4_SrGcsKAQmoTyHlgJCbM.fast.gvab")).unwrap();
    assert_eq!((money.match_length, money.stored.unwrap().program.as_str()), (0, "GammonView bgsage"));
}

#[test]
fn set_up_positions_cubes_and_resignations_are_replayed() {
    let m = read_ogxm(&real("set-up.ogxm")).unwrap();
    let first = &m.games[1].records[0];
    assert_ne!(first.position, gammon_rules::Position::STARTING, "game 2 starts from a set-up board");
    let m = read_ogxm(&real("cube-on-two.ogxm")).unwrap();
    assert_eq!(m.games[0].records[0].cube.value, 2);
    // The file states 1 point, but a passed redouble from 2 wins 2: the play decides.
    assert_eq!(m.games[0].result, Some((Seat::Zero, 2)));
    let m = read_ogxm(&real("resign.ogxm")).unwrap();
    let last = m.games[0].records.iter().rev().take(2).map(|r| r.action.clone()).collect::<Vec<_>>();
    assert!(matches!(last[1], MatAction::Resign { points: 1, .. }), "{last:?}");
    assert!(matches!(last[0], MatAction::Win { points: 1, .. }), "{last:?}");
}

/// Each record as `(player's name, action, position)`: seat-free, so two
/// files that seat the players the other way round compare equal.
fn plays(m: &MatchRecord, games: usize) -> Vec<Vec<(String, MatAction, gammon_rules::Position)>> {
    m.games
        .iter()
        .take(games)
        .map(|g| {
            g.records
                .iter()
                .map(|r| {
                    let action = match &r.action {
                        // The text is each writer's own spelling of the same move.
                        MatAction::Move { dice, mv, .. } => MatAction::Move { dice: *dice, mv: *mv, text: String::new() },
                        a => a.clone(),
                    };
                    (m.players[r.player.index()].clone(), action, r.position)
                })
                .filter(|(_, a, _)| !matches!(a, MatAction::Win { .. } | MatAction::Resign { .. }))
                .collect()
        })
        .collect()
}

#[test]
fn the_analysed_xg_matches_give_the_moves_of_their_mat_exports() {
    let xg = gammon_testkit::shared_dir().join("matches/xg");
    for (name, games) in [("B4_SrGcsKAQmoTyHlgJCbM", 2), ("baR-U643iUDpvzTC", 3)] {
        let (mat, _) = read_match_file_until_error(xg.join(format!("{name}.mat"))).unwrap();
        let ogxm = read_ogxm(&real(&format!("{name}.fast.gvab"))).unwrap();
        assert!(mat.games.len() >= games && ogxm.games.len() >= games, "{name}");
        let (a, b) = (plays(&mat, games), plays(&ogxm, games));
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x.len(), y.len(), "{name} game {}", i + 1);
            for (j, (p, q)) in x.iter().zip(y).enumerate() {
                assert_eq!(p, q, "{name} game {} record {}", i + 1, j + 1);
            }
        }
        // A `.mat` export caps the deciding game at the points still needed.
        let results = |m: &MatchRecord| {
            let banked = |g: &gammon_rules::GameText, s: Seat, p: u32| g.state.away().map_or(p, |a| p.min(a[s.index()]));
            m.games
                .iter()
                .take(games)
                .map(|g| g.result.map(|(s, p)| (m.players[s.index()].clone(), banked(g, s, p))))
                .collect::<Vec<_>>()
        };
        assert_eq!(results(&mat), results(&ogxm), "{name}");
    }
    // 5nqf: both stop in game 1 at the same illegal play (`14/10 13/12`
    // with 31, line 11 of the game: the twentieth ply).
    let text = std::fs::read_to_string(xg.join("5nqfGw9bWG3deTaU.mat")).unwrap();
    let first_games = &text[..text.find(" Game 4").unwrap()];
    let (mat, e) = gammon_rules::parse_mat_until_error(first_games).unwrap();
    let e = e.expect("the illegal play");
    assert_eq!((mat.games.len(), e.place.game, e.place.move_number), (0, Some(1), Some(11)), "{e}");
}

// ---------------------------------------------------------------------------
// The reference codec
// ---------------------------------------------------------------------------

struct Codec {
    python: PathBuf,
}

impl Codec {
    /// The codec, or `None` (the test skipped) when no Python has it.
    fn find() -> Option<Codec> {
        let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/ogxm-venv/bin/python");
        let python = std::env::var_os("OGXM_PYTHON").map(PathBuf::from).unwrap_or(workspace);
        let works = Command::new(&python).args(["-c", "import ogxm"]).output().is_ok_and(|o| o.status.success());
        let missing = (!works).then(|| {
            format!("a Python with the ogxm package at {} (set OGXM_PYTHON, or see .ci/run)", python.display())
        });
        gammon_testkit::needs("the OGXM reference codec", missing).then_some(Codec { python })
    }

    fn run(&self, script: &str, input: &[u8]) -> Result<Vec<u8>, String> {
        let mut child = Command::new(&self.python)
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input).unwrap();
        let out = child.wait_with_output().unwrap();
        if out.status.success() {
            Ok(out.stdout)
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }

    /// The codec's JSON projection of a file.
    fn read(&self, bytes: &[u8]) -> Value {
        let script = "import ogxm,sys,json; sys.stdout.write(json.dumps(ogxm.binary_to_json(sys.stdin.buffer.read())))";
        let out = self.run(script, bytes).unwrap_or_else(|e| panic!("the codec refuses the file: {e}"));
        serde_json::from_slice(&out).unwrap()
    }

    /// The file the codec writes for a JSON document.
    fn write(&self, doc: &Value) -> Vec<u8> {
        let script = "import ogxm,sys; sys.stdout.buffer.write(ogxm.json_to_binary(sys.stdin.read()))";
        self.run(script, doc.to_string().as_bytes()).unwrap_or_else(|e| panic!("the codec refuses {doc}: {e}"))
    }

    fn v1_to_v2(&self, bytes: &[u8]) -> Vec<u8> {
        let script = "import ogxm,sys; sys.stdout.buffer.write(ogxm.v1_to_v2(sys.stdin.buffer.read()))";
        self.run(script, bytes).unwrap()
    }
}

/// The codec's plies of each game that gammon keeps as records: without
/// the game-end markers.
fn codec_plies(doc: &Value) -> Vec<Vec<Value>> {
    doc["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            g["plies"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| !matches!(p["action_id"].as_u64(), Some(24..=26 | 30)))
                .cloned()
                .collect()
        })
        .collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

/// The codec's five probabilities of an `eval`.
fn probs(eval: &Value) -> [f64; 5] {
    ["win", "gammon_win", "bg_win", "gammon_loss", "bg_loss"].map(|k| f(&eval[k]))
}

/// Compares gammon's stored analysis with the codec's reading of the same
/// file: the candidates, their order and probabilities, the played move,
/// and the equities (money exactly; match through the codec's own frame,
/// `emg_anchors`, within what two tables differ by).
fn same_analysis(doc: &Value, m: &MatchRecord, tolerance: f64) -> usize {
    let stored = m.stored.as_ref().expect("an analysis");
    let mut compared = 0;
    for (g, plies) in codec_plies(doc).iter().enumerate().take(m.games.len()) {
        for (r, ply) in plies.iter().enumerate() {
            let a = &ply["analysis"];
            let Some(alts) = a["alternatives"].as_array() else { continue };
            // A dance has no chequer play to store.
            if matches!(m.games[g].records[r].action, MatAction::Dance { .. }) {
                continue;
            }
            let ours = stored.records.get(&(g, r)).and_then(|s| s.chequer.as_ref()).unwrap_or_else(|| panic!("no chequer play at {g} {r}"));
            assert_eq!(ours.candidates.len(), alts.len(), "game {g} record {r}");
            let anchors = a["emg_anchors"].as_array().map(|x| (f(&x[0]), f(&x[1])));
            for (c, alt) in ours.candidates.iter().zip(alts) {
                let theirs = match anchors {
                    Some((lo, hi)) => (2.0 * f(&alt["equity"]) - lo - hi) / (hi - lo),
                    None => f(&alt["equity"]),
                };
                assert!((c.equity - theirs).abs() <= tolerance, "game {g} record {r}: {} vs {theirs}", c.equity);
                if let Some(eval) = alt.get("eval") {
                    let p = probs(eval);
                    assert!(c.probabilities.unwrap().iter().zip(p).all(|(x, y)| (x - y).abs() < 1e-9), "{g} {r}");
                }
            }
            let played = alts.iter().position(|x| x["is_played"] == json!(true));
            assert_eq!(ours.played, played, "game {g} record {r}");
            compared += 1;
        }
    }
    compared
}

#[test]
fn the_stored_analysis_is_the_codecs() {
    let Some(codec) = Codec::find() else { return };
    // Money: cubeful equity per cube, as stored.
    let bytes = real("B4_SrGcsKAQmoTyHlgJCbM.fast.gvab");
    let n = same_analysis(&codec.read(&bytes), &read_ogxm(&bytes).unwrap(), 1e-9);
    assert!(n > 40, "{n} chequer plays compared");
    // A match: MWC turned into EMG with gammon's table (Kazaross-XG2), the
    // codec's with its own (the file's met_id); the two differ a little.
    let bytes = real("match.ogxm");
    let n = same_analysis(&codec.read(&bytes), &read_ogxm(&bytes).unwrap(), 0.01);
    assert!(n > 60, "{n} chequer plays compared");
}
