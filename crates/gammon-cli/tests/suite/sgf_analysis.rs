//! A stored analysis written in gnubg's SGF dialect is what gnubg shows:
//! gnubg's own analysis of the two real analysed SGF files, as gnubg's
//! Python `gnubg.match()` returns it, is turned into a `StoredAnalysis`
//! (gammon's conventions: equities normalised, a match's cube values as
//! EMG), written by `write_sgf`, loaded by gnubg and read out again: the
//! candidates, their probabilities and equities, the played move, the cube
//! values and the marks must come back as gnubg had them.

use gammon_engine::met::Met;
use gammon_rules::{
    parse_move, read_match_file, read_match_file_with_analysis, write_sgf, MatAction, MatchRecord, SgfAnalysis,
    StoredAnalysis, StoredCandidate, StoredCube, StoredMove, StoredRecord,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn real(name: &str) -> PathBuf {
    gammon_testkit::shared_dir().join("matches/real").join(name)
}

/// gnubg's Python view of a match file's analysis: per game, its records
/// (`action`, `player`, `analysis`) but resignations. gnubg loads the file named on its
/// command line before running the script.
fn gnubg_view(gnubg: &Path, file: &Path, dir: &Path) -> Vec<Vec<Value>> {
    let out = dir.join(format!("{}.json", file.file_stem().unwrap().to_str().unwrap()));
    let script = dir.join("view.py");
    let py = format!(
        "import gnubg, json\nm = gnubg.match(analysis=1, boards=0, statistics=0, verbose=1)\n\
         open({:?}, 'w').write(json.dumps([g['game'] for g in m['games']]))\n",
        out.to_str().unwrap()
    );
    std::fs::write(&script, py).unwrap();
    let run = gammon_testkit::run(gnubg, &["-t", "-q", "-p", script.to_str().unwrap(), file.to_str().unwrap()], b"");
    assert!(run.success(), "gnubg on {}: {}", file.display(), run.stderr);
    let text =
        std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("gnubg wrote no view of {}: {e}", file.display()));
    let games: Vec<Vec<Value>> = serde_json::from_str(&text).unwrap();
    // gnubg lists the resignation it rebuilds from `RE`; gammon's is in the result.
    games.into_iter().map(|g| g.into_iter().filter(|a| a["action"] != "resign").collect()).collect()
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap_or_else(|| panic!("not a number: {v}"))
}

fn probs(v: &Value) -> [f64; 5] {
    let a = v.as_array().unwrap();
    std::array::from_fn(|i| f(&a[i]))
}

/// The record indices gnubg lists, in order: every action but the result
/// (`Win`) and the resignation gnubg rebuilds from `RE`.
fn listed(record: &MatchRecord, g: usize) -> Vec<usize> {
    let game = &record.games[g];
    (0..game.records.len())
        .filter(|&r| !matches!(game.records[r].action, MatAction::Win { .. } | MatAction::Resign { .. }))
        .collect()
}

/// `[[8, 3], [6, 3]]`: gnubg's move in the mover's points (25 the bar, 0 off).
fn move_text(v: &Value) -> String {
    let point = |p: i64| match p {
        25 => "bar".to_string(),
        0 => "off".to_string(),
        p => p.to_string(),
    };
    let steps: Vec<String> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{}/{}", point(s[0].as_i64().unwrap()), point(s[1].as_i64().unwrap())))
        .collect();
    steps.join(" ")
}

/// gnubg's analysis as gammon stores another program's: candidates by
/// their positions, equities normalised, a match's cube values as EMG.
fn stored_from_gnubg(record: &MatchRecord, view: &[Vec<Value>], met: &Met) -> StoredAnalysis {
    let mut stored = StoredAnalysis { program: "GNU Backgammon 1.07".into(), ..StoredAnalysis::default() };
    for (g, items) in view.iter().enumerate() {
        let game = &record.games[g];
        let indices = listed(record, g);
        assert_eq!(indices.len(), items.len(), "game {g}: gnubg lists as many actions as gammon");
        let mut last_cube: Option<StoredCube> = None;
        for (&r, item) in indices.iter().zip(items) {
            let entry = &game.records[r];
            let a = &item["analysis"];
            let plies = |v: &Value| v["eval-context"]["plies"].as_u64().or(v["evalcontext"]["plies"].as_u64());
            let depth = format!("{}-ply", plies(a).unwrap_or(0));
            let mut rec = StoredRecord::default();
            if a.get("nd-cubeful-eq").is_some() {
                // gnubg keeps a match's cube values as match winning chances.
                let emg = |mwc: f64| match game.state.away() {
                    Some(away) => {
                        let me = entry.player.index();
                        met.mwc2eq(mwc, entry.cube.value, (away[me], away[1 - me]), game.state.is_crawford())
                    }
                    None => mwc,
                };
                let cube = StoredCube {
                    no_double: emg(f(&a["nd-cubeful-eq"])),
                    double_take: emg(f(&a["dt-cubeful-eq"])),
                    double_pass: 1.0,
                    probabilities: Some(probs(&a["probs"])),
                    depth: depth.clone(),
                };
                last_cube = Some(cube.clone());
                rec.cube = Some(cube);
            } else if matches!(entry.action, MatAction::Take | MatAction::Drop) {
                // The answer carries the double's analysis.
                rec.cube = last_cube.clone();
            }
            if let (Some(moves), MatAction::Move { dice, .. }) = (a.get("moves"), &entry.action) {
                let candidates = moves
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| {
                        let text = move_text(&m["move"]);
                        let (_, next) =
                            parse_move(&entry.position, *dice, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                        StoredCandidate {
                            after: next.switched(),
                            equity: f(&m["score"]),
                            probabilities: Some(probs(&m["probs"])),
                            depth: plies(m).map_or(depth.clone(), |p| format!("{p}-ply")),
                        }
                    })
                    .collect();
                let played = a["imove"].as_u64().map(|i| i as usize);
                rec.chequer = Some(StoredMove { candidates, played });
            }
            if rec.cube.is_some() || rec.chequer.is_some() {
                stored.records.insert((g, r), rec);
            }
        }
    }
    stored
}

/// A move by where it takes the mover's checkers (each point's net change):
/// the same move whatever the order or the intermediate points its steps
/// are written with (`9/6 6/1` is `9/4 4/1`).
fn steps(v: &Value) -> std::collections::BTreeMap<i64, i64> {
    let mut net = std::collections::BTreeMap::new();
    for x in v.as_array().into_iter().flatten() {
        *net.entry(x[0].as_i64().unwrap()).or_insert(0) -= 1;
        *net.entry(x[1].as_i64().unwrap()).or_insert(0) += 1;
    }
    net.retain(|_, n| *n != 0);
    net
}

/// Two numbers gnubg printed from six-decimal text agree.
fn close(a: &Value, b: &Value, what: &str) {
    assert!((f(a) - f(b)).abs() < 2e-6, "{what}: {a} vs {b}");
}

/// gnubg's text export of a match file (`export match text`), without
/// what is about luck (the luck of each roll, the lucky-roll alerts, the
/// luck statistics) and the time it was written.
fn gnubg_text(gnubg: &Path, file: &Path, dir: &Path) -> Vec<String> {
    let out = dir.join(format!("{}.txt", file.file_stem().unwrap().to_str().unwrap()));
    let script = format!(
        "set confirm new off\nset confirm save off\nload match {}\nexport match text {}\nquit\n",
        file.display(),
        out.display()
    );
    let run = gammon_testkit::run(gnubg, &["-t", "-q"], script.as_bytes());
    assert!(run.success(), "gnubg: {}", run.stderr);
    let text =
        std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("gnubg wrote no text of {}: {e}", file.display()));
    text.lines()
        .filter(|l| {
            !(l.contains("lucky roll")
                || l.contains("Luck")
                || l.contains("Rolls ")
                || l.starts_with("Output generated"))
        })
        .map(|l| match l.strip_prefix("Rolled ") {
            // `Rolled 53 (+0.064):`: the roll without its luck.
            Some(rest) => format!("Rolled {}", &rest[..2.min(rest.len())]),
            None => l.to_string(),
        })
        .collect()
}

/// gnubg's views of its own file and of gammon's: the same candidates,
/// probabilities, equities, played move, cube values and marks. Returns
/// how many chequer analyses, cube analyses and marks were compared.
fn assert_same_analysis(ours: &[Vec<Value>], theirs: &[Vec<Value>], name: &str) -> (usize, usize, usize) {
    assert_eq!(ours.len(), theirs.len(), "{name}: games");
    let (mut moves, mut cubes, mut marks) = (0, 0, 0);
    for (g, (og, tg)) in ours.iter().zip(theirs).enumerate() {
        assert_eq!(og.len(), tg.len(), "{name} game {g}");
        for (i, (o, t)) in og.iter().zip(tg).enumerate() {
            let at = format!("{name} game {g} action {i}");
            assert_eq!((&o["action"], &o["player"]), (&t["action"], &t["player"]), "{at}");
            assert_eq!(steps(&o["move"]), steps(&t["move"]), "{at}");
            let (oa, ta) = (&o["analysis"], &t["analysis"]);
            if let Some(tm) = ta.get("moves") {
                let om = oa["moves"].as_array().unwrap_or_else(|| panic!("{at}: no moves shown"));
                let tm = tm.as_array().unwrap();
                assert_eq!(om.len(), tm.len(), "{at}: candidates");
                for (x, y) in om.iter().zip(tm) {
                    assert_eq!(steps(&x["move"]), steps(&y["move"]), "{at}");
                    close(&x["score"], &y["score"], &at);
                    for k in 0..5 {
                        close(&x["probs"][k], &y["probs"][k], &at);
                    }
                }
                assert_eq!(oa["imove"], ta["imove"], "{at}: the played move");
                moves += 1;
            }
            if ta.get("nd-cubeful-eq").is_some() {
                close(&oa["nd-cubeful-eq"], &ta["nd-cubeful-eq"], &format!("{at}: no double"));
                close(&oa["dt-cubeful-eq"], &ta["dt-cubeful-eq"], &format!("{at}: double/take"));
                assert_eq!(oa["eval-context"]["plies"], ta["eval-context"]["plies"], "{at}");
                cubes += 1;
            }
            // The marks gnubg shows: ours from its default thresholds.
            assert_eq!(oa.get("skill"), ta.get("skill"), "{at}: mark");
            marks += usize::from(ta.get("skill").is_some());
        }
    }
    (moves, cubes, marks)
}

const ANALYSED: [&str; 2] = ["gnubgscripts_match1486073_analyzed.sgf", "gnubgparser_charlot_7p.sgf"];

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-sgf-analysis-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// gnubg, when installed.
fn gnubg() -> Option<&'static Path> {
    let gnubg = Path::new("/usr/games/gnubg");
    if !gnubg.exists() {
        eprintln!("skipped: gnubg is not installed at /usr/games/gnubg");
    }
    gnubg.exists().then_some(gnubg)
}

#[test]
fn gnubg_shows_a_stored_analysis_written_as_sgf_as_gnubg_had_it() {
    let Some(gnubg) = gnubg() else { return };
    let dir = temp("writer");
    let met = Met::kazaross_xg2();
    for name in ANALYSED {
        let original = real(name);
        let record = read_match_file(&original).unwrap();
        let theirs = gnubg_view(gnubg, &original, &dir);
        let stored = stored_from_gnubg(&record, &theirs, met);
        assert!(stored.records.len() > 50, "{name}: gnubg analysed the file");
        let written = dir.join(format!("ours-{name}"));
        let sgf = write_sgf(&record, Some(SgfAnalysis { stored: &stored, equity: met })).unwrap();
        std::fs::write(&written, &sgf).unwrap();
        let ours = gnubg_view(gnubg, &written, &dir);
        let (moves, cubes, marks) = assert_same_analysis(&ours, &theirs, name);
        eprintln!("{name}: {moves} chequer analyses, {cubes} cube analyses, {marks} marks as gnubg had them");
        assert!(moves > 50 && cubes > 20, "{name}: {moves} moves, {cubes} cube decisions compared");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gammon_convert_carries_gnubgs_analysis_from_sgf_to_sgf() {
    let Some(gnubg) = gnubg() else { return };
    let dir = temp("convert");
    for name in ANALYSED {
        let original = real(name);
        // gammon reads gnubg's analysis in gammon's conventions ...
        let record = read_match_file_with_analysis(&original, Met::kazaross_xg2()).unwrap();
        let stored = record.stored.as_ref().expect("gnubg's analysis is read");
        assert!(stored.program.starts_with("GNU Backgammon 1.0"), "{}", stored.program);
        let theirs = gnubg_view(gnubg, &original, &dir);
        let from_gnubg = stored_from_gnubg(&record, &theirs, Met::kazaross_xg2());
        assert_eq!(stored.records.len(), from_gnubg.records.len(), "{name}: the analysed records");
        // ... and `gammon convert` writes it where gnubg shows it as before.
        let written = dir.join(format!("converted-{name}"));
        let out = crate::gammon(&["convert", original.to_str().unwrap(), written.to_str().unwrap()]);
        assert!(out.success(), "{}", out.stderr);
        let ours = gnubg_view(gnubg, &written, &dir);
        let (moves, cubes, _) = assert_same_analysis(&ours, &theirs, name);
        assert!(moves > 50 && cubes > 20, "{name}: {moves} moves, {cubes} cube decisions compared");
        // gnubg's text export of both, analysis and statistics included, is
        // the same but for the luck of the rolls, which gammon does not store.
        let (a, b) = (gnubg_text(gnubg, &original, &dir), gnubg_text(gnubg, &written, &dir));
        assert!(a.len() > 1000 && a.iter().any(|l| l.contains("cubeless equity")), "{name}: {}", a.len());
        for (i, (x, y)) in a.iter().zip(&b).enumerate() {
            assert_eq!(x, y, "{name}: line {i} of gnubg's text export");
        }
        assert_eq!(a.len(), b.len(), "{name}: gnubg's text export");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gnubg_shows_the_cube_marks_of_a_stored_analysis() {
    let Some(gnubg) = gnubg() else { return };
    let dir = temp("marks");
    let record = read_match_file(real("gnubgparser_charlot_7p.sgf")).unwrap();
    // Game 2 (0-2 in a 7-point match): a double taken, later a redouble dropped.
    let g = 1;
    let game = &record.games[g];
    let all = |want: fn(&MatAction) -> bool| -> Vec<usize> {
        game.records.iter().enumerate().filter(|(_, r)| want(&r.action)).map(|(i, _)| i).collect()
    };
    let doubles = all(|a| matches!(a, MatAction::Double { .. }));
    let (take, drop) = (all(|a| matches!(a, MatAction::Take))[0], all(|a| matches!(a, MatAction::Drop))[0]);
    assert_eq!((doubles.len(), doubles[0] + 1, doubles[1] + 1), (2, take, drop), "the file's game 2");
    let roll = 2; // the second player's first roll: he might have doubled before it
    let cube = |nd: f64, dt: f64| StoredCube {
        no_double: nd,
        double_take: dt,
        double_pass: 1.0,
        probabilities: Some([0.6, 0.2, 0.01, 0.1, 0.005]),
        depth: "2-ply".into(),
    };
    let mut stored = StoredAnalysis { program: "test".into(), ..StoredAnalysis::default() };
    let mut put = |r: usize, c: StoredCube| {
        stored.records.insert((g, r), StoredRecord { cube: Some(c), chequer: None });
    };
    // Not doubling at no double 0.5 when double/take is 0.7: 0.2 given up, very bad.
    put(roll, cube(0.5, 0.7));
    // A right double (0.6 against 1.0: double/take 1.2 is more than the
    // pass) wrongly taken: the taker gives up 1.2 - 1.0, very bad. gnubg
    // keeps one decision for a double and its answer: the same values.
    put(doubles[0], cube(0.6, 1.2));
    put(take, cube(0.6, 1.2));
    // Too good to double (no double 1.05 against a pass at 1.0): the
    // double gives up 0.05, doubtful; the drop is right.
    put(doubles[1], cube(1.05, 1.2));
    put(drop, cube(1.05, 1.2));
    let written = dir.join("marks.sgf");
    let met = Met::kazaross_xg2();
    std::fs::write(&written, write_sgf(&record, Some(SgfAnalysis { stored: &stored, equity: met })).unwrap()).unwrap();
    let view = gnubg_view(gnubg, &written, &dir);
    let at = |r: usize| {
        let i = listed(&record, g).iter().position(|&x| x == r).unwrap();
        view[g][i]["analysis"].clone()
    };
    assert_eq!(at(roll)["cube-skill"], "very bad", "{}", at(roll));
    assert_eq!(at(doubles[0]).get("skill"), None, "{}", at(doubles[0]));
    assert_eq!(at(take)["skill"], "very bad", "{}", at(take));
    assert_eq!(at(doubles[1])["skill"], "doubtful", "{}", at(doubles[1]));
    assert_eq!(at(drop).get("skill"), None, "{}", at(drop));
    // The values gnubg shows for the first double: ours, as match winning chances.
    let away = game.state.away().unwrap();
    let doubler = game.records[doubles[0]].player.index();
    let mwc = |eq: f64| met.eq2mwc(eq, 1, (away[doubler], away[1 - doubler]), false);
    assert!((f(&at(doubles[0])["nd-cubeful-eq"]) - mwc(0.6)).abs() < 2e-6, "{}", at(doubles[0]));
    assert!((f(&at(doubles[0])["dt-cubeful-eq"]) - mwc(1.2)).abs() < 2e-6, "{}", at(doubles[0]));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A review's numbers for record `r` of game `g` of its `--json` document.
fn reviewed(json: &Value, g: usize, r: usize) -> &Value {
    &json["games"][g]["records"][r]
}

#[test]
fn gammon_review_writes_its_analysis_where_gnubg_and_ogxm_readers_show_it() {
    // `review --sgf` and `--ogxm` of a 3-point match: gnubg loads the SGF
    // and shows gammon's equities of the moves played and the best moves,
    // and its cube values; gammon reads its OGXM file back with the same.
    let dir = temp("review");
    let input = real("gnubgscripts_test-match01_3p.mat");
    let (sgf, ogxm) = (dir.join("reviewed.sgf"), dir.join("reviewed.ogxm"));
    let args = [
        "review",
        input.to_str().unwrap(),
        "--ply",
        "0",
        "--cube-ply",
        "0",
        "--json",
        "--sgf",
        sgf.to_str().unwrap(),
        "--ogxm",
        ogxm.to_str().unwrap(),
    ];
    let out = crate::gammon(&args);
    assert!(out.success(), "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let record = read_match_file(&input).unwrap();
    let near = |a: f64, b: f64, tol: f64, what: &str| assert!((a - b).abs() <= tol, "{what}: {a} against {b}");
    // gammon's OGXM file, read back by gammon's reader into the review.
    let again: Value = {
        let out = crate::gammon(&["review", ogxm.to_str().unwrap(), "--ply", "0", "--cube-ply", "0", "--json"]);
        assert!(out.success(), "{}", out.stderr);
        serde_json::from_str(&out.stdout).unwrap()
    };
    assert!(again["stored_program"].as_str().unwrap().starts_with("gammon"), "{}", again["stored_program"]);
    let (mut moves, mut cubes) = (0, 0);
    for (g, game) in record.games.iter().enumerate() {
        for r in 0..game.records.len() {
            let ours = reviewed(&json, g, r);
            let back = &reviewed(&again, g, r)["xg"];
            if ours["forced"] == false {
                moves += 1;
                let what = format!("game {g} record {r}");
                near(f(&back["equity_played"]), f(&ours["equity_played"]), 1e-4, &what);
                near(f(&back["loss"]), f(&ours["loss"]), 1e-4, &what);
            }
            if ours["cube"].is_object() {
                cubes += 1;
                near(f(&back["no_double"]), f(&ours["cube"]["nd"]), 1e-4, "no double");
                near(f(&back["double_take"]), f(&ours["cube"]["dt"]), 1e-4, "double/take");
            }
        }
    }
    assert!(moves > 50 && cubes > 10, "{moves} moves, {cubes} cube decisions");
    // The SGF through gnubg's own reader.
    let Some(gnubg) = gnubg() else { return };
    let view = gnubg_view(gnubg, &sgf, &dir);
    let shown = stored_from_gnubg(&record, &view, Met::kazaross_xg2());
    let mut compared = 0;
    for (&(g, r), rec) in &shown.records {
        let ours = reviewed(&json, g, r);
        if let Some(c) = rec.chequer.as_ref().filter(|_| ours["forced"] == false) {
            let played = &c.candidates[c.played.unwrap()];
            near(played.equity, f(&ours["equity_played"]), 2e-6, "gnubg's equity of the move played");
            near(c.candidates[0].equity, f(&ours["equity_best"]), 2e-6, "gnubg's best equity");
            compared += 1;
        }
        if let (Some(c), true) = (&rec.cube, ours["cube"].is_object()) {
            near(c.no_double, f(&ours["cube"]["nd"]), 1e-4, "gnubg's no double");
        }
    }
    assert!(compared > 50, "{compared} moves compared in gnubg");
    std::fs::remove_dir_all(&dir).unwrap();
}
