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
    read_match_file_until_error, MatAction, MatError, MatchEquity, MatchRecord, OgxmError, OgxmWriteError,
    ReadMatchError, Seat, StoredAnalysis,
};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// gammon's built-in table, Kazaross-XG2, read from the engine's data file
/// (the rules crate cannot use the engine): what turns a match analysis's
/// match winning chances into EMG and back, as gnubg's `mwc2eq`.
pub struct Kazaross {
    /// `pre[r][c]`: P(win) needing `r + 1` against `c + 1`.
    pre: Vec<Vec<f64>>,
    /// `post[n]`: the trailer's P(win) needing `n + 1` after the Crawford game.
    post: Vec<f64>,
}

pub fn kazaross() -> &'static Kazaross {
    static TABLE: std::sync::OnceLock<Kazaross> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let text = include_str!("../../../../gammon-engine/data/kazaross-xg2.txt");
        let (mut pre, mut post, mut in_post) = (Vec::new(), Vec::new(), false);
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            match line {
                "[pre-crawford]" => in_post = false,
                "[post-crawford]" => in_post = true,
                _ => {
                    let row: Vec<f64> = line.split_whitespace().map(|w| w.parse().unwrap()).collect();
                    if in_post {
                        post.extend(row);
                    } else {
                        pre.push(row);
                    }
                }
            }
        }
        Kazaross { pre, post }
    })
}

impl Kazaross {
    /// My match winning chances after winning (`i_win`) or losing `points` from `away`.
    fn after(&self, (me, opp): (u32, u32), crawford: bool, points: u32, i_win: bool) -> f64 {
        let (me2, opp2) = if i_win { (me.saturating_sub(points), opp) } else { (me, opp.saturating_sub(points)) };
        let at = |n: u32| (n - 1) as usize;
        if me2 == 0 {
            1.0
        } else if opp2 == 0 {
            0.0
        } else if crawford || me == 1 || opp == 1 {
            if me2 == 1 {
                1.0 - self.post[at(opp2)]
            } else {
                self.post[at(me2)]
            }
        } else {
            self.pre[at(me2)][at(opp2)]
        }
    }
}

impl MatchEquity for Kazaross {
    fn eq2mwc(&self, eq: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        let (win, lose) = (self.after(away, crawford, cube, true), self.after(away, crawford, cube, false));
        0.5 * (eq * (win - lose) + win + lose)
    }

    fn mwc2eq(&self, mwc: f64, cube: u32, away: (u32, u32), crawford: bool) -> f64 {
        let (win, lose) = (self.after(away, crawford, cube, true), self.after(away, crawford, cube, false));
        if (win - lose).abs() < 1e-12 {
            0.0
        } else {
            (2.0 * mwc - (win + lose)) / (win - lose)
        }
    }
}

#[test]
fn the_tests_table_is_kazaross_xg2() {
    let t = kazaross();
    assert_eq!((t.pre.len(), t.pre[3][4], t.post[1]), (25, 0.57732, 0.48803));
    assert!((t.mwc2eq(0.57732, 1, (5, 5), false) - 1.0).abs() < 1e-12, "winning the cube is +1");
    assert!((t.mwc2eq(t.eq2mwc(0.3, 1, (5, 5), false), 1, (5, 5), false) - 0.3).abs() < 1e-12);
}

// The reader and the writer with that table, as the engine gives them.
fn read_ogxm(bytes: &[u8]) -> Result<MatchRecord, OgxmError> {
    gammon_rules::read_ogxm(bytes, Some(kazaross()))
}

fn read_ogxm_until_error(bytes: &[u8]) -> Result<(MatchRecord, Option<MatError>), OgxmError> {
    gammon_rules::read_ogxm_until_error(bytes, Some(kazaross()))
}

fn write_ogxm(record: &MatchRecord, analysis: Option<&StoredAnalysis>) -> Result<Vec<u8>, OgxmWriteError> {
    gammon_rules::write_ogxm(record, analysis, Some(kazaross()))
}

#[test]
fn without_a_table_a_match_analysis_is_not_read_nor_written() {
    let bytes = real("match.ogxm");
    let with = read_ogxm(&bytes).unwrap();
    assert!(with.stored.is_some());
    let without = gammon_rules::read_ogxm(&bytes, None).unwrap();
    assert_eq!((without.games, without.stored), (with.games.clone(), None));
    let written = gammon_rules::write_ogxm(&with, with.stored.as_ref(), None).unwrap();
    assert_eq!(read_ogxm(&written).unwrap().stored, None);
    // A money session's analysis needs no table.
    let money = gammon_rules::read_ogxm(&real("B4_SrGcsKAQmoTyHlgJCbM.fast.gvab"), None).unwrap();
    assert!(money.stored.is_some());
}

fn ogxm_dir() -> PathBuf {
    gammon_testkit::shared_dir().join("matches/ogxm")
}

fn real(name: &str) -> Vec<u8> {
    let path = ogxm_dir().join(name);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e}: the OGXM files are the shared folder's matches/ogxm", path.display()))
}

/// The real v2 files gammon reads whole: (file, games, rolls, analysed records).
const READ_WHOLE: [(&str, usize, usize, usize); 10] = [
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
                        MatAction::Move { dice, mv, .. } => {
                            MatAction::Move { dice: *dice, mv: *mv, text: String::new() }
                        }
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
            let banked =
                |g: &gammon_rules::GameText, s: Seat, p: u32| g.state.away().map_or(p, |a| p.min(a[s.index()]));
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
fn same_analysis(doc: &Value, m: &MatchRecord, tolerance: f64) -> (usize, usize) {
    let stored = m.stored.as_ref().expect("an analysis");
    let (mut compared, mut cubes) = (0, 0);
    for (g, plies) in codec_plies(doc).iter().enumerate().take(m.games.len()) {
        for (r, ply) in plies.iter().enumerate() {
            let a = &ply["analysis"];
            cubes += usize::from(same_cube(a, m, g, r, tolerance));
            let Some(alts) = a["alternatives"].as_array() else { continue };
            // A dance has no chequer play to store.
            if matches!(m.games[g].records[r].action, MatAction::Dance { .. }) {
                continue;
            }
            let ours = stored
                .records
                .get(&(g, r))
                .and_then(|s| s.chequer.as_ref())
                .unwrap_or_else(|| panic!("no chequer play at {g} {r}"));
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
    (compared, cubes)
}

/// Compares the cube decision the codec shows on a ply (a roll's
/// `cube_decision`, or a cube action's own analysis) with gammon's: the
/// doubler's equities, and probabilities (an answer's codec shows the
/// answerer's). Whether there was one to compare.
fn same_cube(a: &Value, m: &MatchRecord, g: usize, r: usize, tolerance: f64) -> bool {
    let (cube, answer) = match ply_kind(&m.games[g].records[r].action) {
        Some(answer) if a["no_double_equity"].is_number() => (a, answer),
        Some(false) if a["cube_decision"].is_object() => (&a["cube_decision"], false),
        _ => return false,
    };
    let ours = m.stored.as_ref().unwrap().records.get(&(g, r)).and_then(|s| s.cube.as_ref());
    let ours = ours.unwrap_or_else(|| panic!("no cube decision at {g} {r}"));
    let anchors = cube["emg_anchors"].as_array().map(|x| (f(&x[0]), f(&x[1])));
    let emg = |v: f64| anchors.map_or(v, |(lo, hi)| (2.0 * v - lo - hi) / (hi - lo));
    for (x, key) in [
        (ours.no_double, "no_double_equity"),
        (ours.double_take, "double_take_equity"),
        (ours.double_pass, "double_pass_equity"),
    ] {
        assert!(
            (x - emg(f(&cube[key]))).abs() <= tolerance,
            "game {g} record {r} {key}: {x} vs {}",
            emg(f(&cube[key]))
        );
    }
    if cube["eval"].is_object() {
        let mut p = probs(&cube["eval"]);
        if answer {
            p = [1.0 - p[0], p[3], p[4], p[1], p[2]];
        }
        let q = ours.probabilities.unwrap();
        assert!(q.iter().zip(p).all(|(x, y)| (x - y).abs() < 1e-9), "game {g} record {r}: {q:?} vs {p:?}");
    }
    true
}

/// `Some(answer)` for the records a cube decision sits on: a roll or a
/// double (`false`), an answer to a double (`true`).
fn ply_kind(action: &MatAction) -> Option<bool> {
    match action {
        MatAction::Move { .. } | MatAction::Dance { .. } | MatAction::Double { .. } => Some(false),
        MatAction::Take | MatAction::Drop | MatAction::Beaver => Some(true),
        _ => None,
    }
}

#[test]
fn the_stored_analysis_is_the_codecs() {
    let Some(codec) = Codec::find() else { return };
    // Money: cubeful equity per cube, as stored.
    let bytes = real("B4_SrGcsKAQmoTyHlgJCbM.fast.gvab");
    let (n, cubes) = same_analysis(&codec.read(&bytes), &read_ogxm(&bytes).unwrap(), 1e-9);
    assert!(n > 40 && cubes > 40, "{n} chequer plays, {cubes} cube decisions compared");
    // A match: MWC turned into EMG with gammon's table (Kazaross-XG2), the
    // codec's with its own (the file's met_id); the two differ a little.
    let bytes = real("match.ogxm");
    let (n, cubes) = same_analysis(&codec.read(&bytes), &read_ogxm(&bytes).unwrap(), 0.01);
    assert!(n > 60 && cubes > 60, "{n} chequer plays, {cubes} cube decisions compared");
}

mod codec_written;
mod damaged;
mod writer;
