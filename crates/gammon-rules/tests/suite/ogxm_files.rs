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
        let text = include_str!("../../../gammon-engine/data/kazaross-xg2.txt");
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

// ---------------------------------------------------------------------------
// Files the codec writes from small documents
// ---------------------------------------------------------------------------

/// A roll in the codec's JSON: `color` 0 is Black (seat One, moving down
/// from 24), 1 White (seat Zero, moving up from 1); steps `(from, pips)`
/// in the board's numbering.
fn roll(color: u8, d1: u8, d2: u8, steps: &[(u8, u8)]) -> Value {
    let (a, b) = (d1.min(d2), d1.max(d2));
    let id = [0, 6, 11, 15, 18, 20][usize::from(a - 1)] + (b - a);
    let moves: Vec<Value> = steps.iter().map(|&(from, pips)| json!({"from": from, "pips": pips})).collect();
    json!({"color": color, "action_id": id, "d1": d1, "d2": d2, "moves": moves})
}

fn act(color: u8, id: u8) -> Value {
    json!({"color": color, "action_id": id})
}

fn doc(length: u32, games: Value) -> Value {
    json!({"match_length": length, "player_white": "White", "player_black": "Black", "crawford": true, "games": games})
}

#[test]
fn documents_the_codec_writes_read_as_written() {
    let Some(codec) = Codec::find() else { return };
    let black_31 = roll(0, 3, 1, &[(8, 3), (6, 1)]);
    let white_42 = roll(1, 4, 2, &[(12, 2), (12, 4)]);

    // A set-up board: Black (seat One) moves first from it.
    let board = json!([0, 0, 0, 2, -3, 0, -4, -2, -2, 0, 0, 0, 4, -2, 0, 1, 0, 2, 0, 4, 2, 0, -1, 0, -1, 0]);
    let m = read_ogxm(
        &codec.write(&doc(3, json!([{"initial_board": board, "plies": [roll(0, 6, 1, &[(22, 6), (16, 1)])]}]))),
    )
    .unwrap();
    let first = &m.games[0].records[0];
    assert_eq!(first.player, Seat::One);
    // Black's point p is the board's p: his 22 and 4, White's two on board 3.
    let p = first.position;
    assert_eq!((p.my_checkers(22), p.my_checkers(4), p.their_checkers(3), p.their_checkers(22)), (1, 3, 2, 0));
    assert!(matches!(&first.action, MatAction::Move { text, .. } if text == "22/16 16/15*"), "{:?}", first.action);

    // The cube on two, owned by Black, who redoubles to 4; White passes.
    let plies = json!([black_31, white_42, act(0, 21), act(1, 23)]);
    let games =
        json!([{"initial_cube_value": 2, "initial_cube_owner": 1, "winner": 1, "points_won": 2, "plies": plies}]);
    let m = read_ogxm(&codec.write(&doc(5, games))).unwrap();
    assert_eq!(m.games[0].records[0].cube, gammon_rules::Cube { value: 2, owner: Some(Seat::One), automatic: 0 });
    assert!(matches!(m.games[0].records[2].action, MatAction::Double { value: 4 }));
    assert_eq!(m.games[0].result, Some((Seat::One, 2)));

    // A resignation of a gammon by White.
    let games =
        json!([{"winner": 1, "points_won": 2, "plies": [black_31, {"color": 1, "action_id": 27, "resign_value": 2}]}]);
    let m = read_ogxm(&codec.write(&doc(5, games))).unwrap();
    let r = &m.games[0].records;
    assert!(matches!(r[1].action, MatAction::Resign { points: 2, level: gammon_rules::GameResult::Gammon }), "{r:?}");
    assert_eq!((r[1].player, m.games[0].result), (Seat::Zero, Some((Seat::One, 2))));

    // Crawford, 3 points: Black leads 2-0 after a resigned gammon; no cube in
    // the Crawford game; White doubles after it.
    let resign = |color: u8, level: u8| json!({"color": color, "action_id": 27, "resign_value": level});
    let games = json!([
        {"winner": 1, "points_won": 2, "plies": [black_31, resign(1, 2)]},
        {"winner": 0, "points_won": 1, "plies": [black_31, white_42, resign(0, 1)]},
        {"winner": 0, "points_won": 1, "plies": [black_31, act(1, 21), act(0, 23)]},
    ]);
    let m = read_ogxm(&codec.write(&doc(3, games.clone()))).unwrap();
    assert!(m.games[1].state.is_crawford() && m.games[2].state.is_post_crawford());
    assert_eq!(
        m.games.iter().map(|g| g.result).collect::<Vec<_>>(),
        [Some((Seat::One, 2)), Some((Seat::Zero, 1)), Some((Seat::Zero, 1))]
    );
    // Without the Crawford rule the second game is post-Crawford.
    let mut free = doc(3, games);
    free["crawford"] = json!(false);
    let m = read_ogxm(&codec.write(&free)).unwrap();
    assert!(!m.crawford && m.games[1].state.is_post_crawford());
}

// ---------------------------------------------------------------------------
// gammon's writer
// ---------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------
// Damaged files
// ---------------------------------------------------------------------------

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
