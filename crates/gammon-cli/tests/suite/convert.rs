//! `gammon convert`: every real match file through `.sgf` and back to
//! `.mat` reads as the same games; gnubg loads the written SGF; what a
//! format cannot hold is refused by name.

use crate::gammon;
use gammon_rules::{read_match_file, GameText, MatAction, MatchRecord};
use std::path::{Path, PathBuf};

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-convert-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The real match files of the shared folder (`.mat`, `.txt`, `.sgf`).
pub(crate) fn real_files() -> Vec<PathBuf> {
    let dir = gammon_testkit::shared_dir().join("matches/real");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("mat" | "txt" | "sgf")))
        .collect();
    files.sort();
    files
}

/// The same games on what both formats hold: who acted, the position and
/// cube before, dice and move (not its text: sites write moves their own
/// way), cube actions, resignations and results; `Win` records only where
/// both have them (the writers add the `Wins` line a site may leave out).
pub(crate) fn assert_same_games(a: &[GameText], b: &[GameText], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: games");
    for (ga, gb) in a.iter().zip(b) {
        let g = ga.number;
        assert_eq!(
            (ga.number, ga.score, ga.result, ga.state),
            (gb.number, gb.score, gb.result, gb.state),
            "{what}: {g}"
        );
        let keep = |r: &&gammon_rules::MatEntry| !matches!(r.action, MatAction::Win { .. });
        let ra: Vec<_> = ga.records.iter().filter(keep).collect();
        let rb: Vec<_> = gb.records.iter().filter(keep).collect();
        assert_eq!(ra.len(), rb.len(), "{what}: game {g} records");
        for (i, (x, y)) in ra.iter().zip(&rb).enumerate() {
            let at = format!("{what}: game {g} record {i}");
            assert_eq!((x.player, x.position, x.cube), (y.player, y.position, y.cube), "{at}");
            match (&x.action, &y.action) {
                (MatAction::Move { dice: da, mv: ma, .. }, MatAction::Move { dice: db, mv: mb, .. }) => {
                    assert_eq!((da, ma), (db, mb), "{at}")
                }
                (p, q) => assert_eq!(p, q, "{at}"),
            }
        }
    }
}

fn same_match(a: &MatchRecord, b: &MatchRecord, what: &str) {
    assert_eq!((&a.players, a.match_length, a.crawford), (&b.players, b.match_length, b.crawford), "{what}");
    assert_same_games(&a.games, &b.games, what);
}

fn convert(from: &Path, to: &Path) {
    let out = gammon(&["convert", s(from), s(to)]);
    assert!(out.success(), "convert {} {}: {}", from.display(), to.display(), out.stderr);
    assert!(out.stderr.contains(&format!("wrote {}", to.display())), "{}", out.stderr);
}

#[test]
fn every_real_file_converts_to_sgf_and_back_to_mat_with_the_same_games() {
    let dir = temp("round");
    let files = real_files();
    assert!(files.len() >= 20, "the shared folder has 22 real files: {files:?}");
    for (i, path) in files.iter().enumerate() {
        let what = path.display().to_string();
        let original = read_match_file(path).unwrap_or_else(|e| panic!("{what}: {e}"));
        let (sgf, mat) = (dir.join(format!("{i}.sgf")), dir.join(format!("{i}.MAT")));
        convert(path, &sgf);
        convert(&sgf, &mat);
        let from_sgf = read_match_file(&sgf).unwrap_or_else(|e| panic!("{what} as SGF: {e}"));
        let from_mat = read_match_file(&mat).unwrap_or_else(|e| panic!("{what} as SGF then .mat: {e}"));
        assert!(std::fs::read_to_string(&sgf).unwrap().starts_with("(;FF[4]GM[6]CA[UTF-8]AP[gammon:"));
        same_match(&original, &from_sgf, &format!("{what} -> .sgf"));
        same_match(&original, &from_mat, &format!("{what} -> .sgf -> .mat"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// gnubg, when installed.
fn gnubg() -> Option<&'static Path> {
    let gnubg = Path::new("/usr/games/gnubg");
    gnubg.exists().then_some(gnubg)
}

#[test]
fn gnubg_loads_the_written_sgf_with_the_same_games() {
    let Some(gnubg) = gnubg() else {
        eprintln!("skipped: gnubg is not installed at /usr/games/gnubg");
        return;
    };
    let dir = temp("gnubg");
    let mut script = String::from("set confirm new off\nset confirm save off\n");
    let mut checks = Vec::new();
    for (i, path) in real_files().iter().enumerate() {
        let sgf = dir.join(format!("{i}.sgf"));
        convert(path, &sgf);
        let exported = dir.join(format!("{i}-gnubg.mat"));
        script += &format!("load match {}\nexport match mat {}\n", sgf.display(), exported.display());
        checks.push((path.clone(), exported));
    }
    let run = gammon_testkit::run(gnubg, &["-t", "-q"], format!("{script}quit\n").as_bytes());
    assert!(run.success(), "gnubg: {}", run.stderr);
    for (path, exported) in checks {
        let what = format!("{} as gnubg loaded the written SGF", path.display());
        let original = read_match_file(&path).unwrap();
        let back = read_match_file(&exported).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!((&back.players, back.match_length), (&original.players, original.match_length), "{what}");
        // gnubg writes a match-winning result uncapped where a site capped it.
        let capped = |games: &[GameText]| -> Vec<GameText> {
            games
                .iter()
                .map(|g| {
                    let mut g = g.clone();
                    g.result = g.result.map(|(w, p)| (w, g.state.away().map_or(p, |a| p.min(a[w.index()]))));
                    for r in &mut g.records {
                        if let MatAction::Resign { points, .. } = &mut r.action {
                            *points = 0;
                        }
                    }
                    g
                })
                .collect()
        };
        assert_same_games(&capped(&original.games), &capped(&back.games), &what);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `args` fails with one `error:` line containing every one of `says`.
fn refused(args: &[&str], says: &[&str]) {
    let out = gammon(args);
    assert!(!out.success(), "{args:?} succeeded");
    let err = out.stderr;
    assert!(err.starts_with("error: ") && err.lines().count() == 1, "{args:?}: {err}");
    for s in says {
        assert!(err.contains(s), "{args:?}: {err:?} should say {s:?}");
    }
}

#[test]
fn formats_gammon_cannot_write_are_refused_by_name_and_nothing_is_written() {
    let dir = temp("refuse");
    let input = gammon_testkit::shared_dir().join("matches/real/fibs_NIUSHA-nori_1p.mat");
    let input = s(&input);
    let out = |name: &str| dir.join(name).to_str().unwrap().to_string();
    refused(&["convert", input, &out("m.xg")], &["reads .xg files but cannot write them"]);
    refused(&["convert", input, &out("m.pdf")], &["unknown extension .pdf", ".mat, .sgf and .ogxm"]);
    refused(&["convert", input, &out("noext")], &["no extension"]);
    refused(&["convert", &out("missing.mat"), &out("m.sgf")], &["missing.mat", "No such file"]);
    refused(&["convert", input, "/nonexistent-dir/m.sgf"], &["/nonexistent-dir"]);
    // A file that is not a match is refused with the reader's reason.
    std::fs::write(dir.join("bad.mat"), " 3 point match\n\n Game 1\n A : 0   B : 0\n  1) 31: 8/1\n").unwrap();
    refused(&["convert", &out("bad.mat"), &out("m.sgf")], &["bad.mat", "illegal move"]);
    // The input itself, also by another name, is never the output.
    let own = out("own.mat");
    std::fs::copy(input, &own).unwrap();
    let before = std::fs::read(&own).unwrap();
    refused(&["convert", &own, &own], &["own.mat", "is the input file"]);
    let other_name = format!("{}/../{}/own.mat", dir.display(), dir.file_name().unwrap().to_str().unwrap());
    refused(&["convert", &own, &other_name], &["is the input file"]);
    let analysed = out("analysed.sgf");
    std::fs::copy(gammon_testkit::shared_dir().join("matches/real/gnubgscripts_match1486073_analyzed.sgf"), &analysed)
        .unwrap();
    refused(&["review", &analysed, "--ply", "0", "--sgf", &analysed], &["is the input file"]);
    assert_eq!(std::fs::read(&own).unwrap(), before);
    std::fs::remove_file(&own).unwrap();
    std::fs::remove_file(&analysed).unwrap();
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left, ["bad.mat"], "nothing else is written");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_analysed_sgf_converts_to_mat_with_a_note_that_the_analysis_is_dropped() {
    let dir = temp("note");
    let input = gammon_testkit::shared_dir().join("matches/real/gnubgscripts_match1486073_analyzed.sgf");
    let mat = dir.join("m.mat");
    let out = gammon(&["convert", s(&input), s(&mat)]);
    assert!(out.success(), "{}", out.stderr);
    let notes: Vec<&str> = out.stderr.lines().filter(|l| l.starts_with("note: ")).collect();
    assert_eq!(
        notes,
        ["note: a .mat file cannot hold the stored analysis (GNU Backgammon 1.07.001-mingw 32-Bit): it is not written"]
    );
    same_match(&read_match_file(&input).unwrap(), &read_match_file(&mat).unwrap(), "analysed SGF -> .mat");
    // A file without analysis converts without a note.
    let plain = gammon_testkit::shared_dir().join("matches/real/fibs_NIUSHA-nori_1p.mat");
    let out = gammon(&["convert", s(&plain), s(&dir.join("p.sgf"))]);
    assert!(out.success() && !out.stderr.contains("note:"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
