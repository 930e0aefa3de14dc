//! The `.mat` and SGF writers: every real match file and the hand-written
//! ones written back in both formats read as the same games; what gnubg
//! reads of the written files.

use crate::chain;
use gammon_rules::{
    parse_mat, parse_sgf, read_match_file, write_mat, write_sgf, GameText, MatAction, MatchRecord, WriteMatchError,
};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)
}

/// Every match file of the shared real folder and of the test data.
fn all_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in [gammon_testkit::shared_dir().join("matches/real"), data("")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipped: no folder {}", dir.display());
            continue;
        };
        for e in entries {
            let p = e.unwrap().path();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if ["mat", "txt", "sgf"].contains(&ext)
                && !["illegal", "crawford_double"].iter().any(|bad| p.to_string_lossy().contains(bad))
            {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// Two readings of the same games, compared on what both formats hold:
/// who acted, the position and cube before, the dice and move (not its
/// text: a site's notation is rewritten step by step), the cube actions,
/// resignations and results. A `Wins` line the first file did not write
/// (a game played out) is written by the writers, so results are compared
/// and `Win` records only where both have them.
fn assert_same_games(a: &[GameText], b: &[GameText], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: games");
    for (ga, gb) in a.iter().zip(b) {
        let g = ga.number;
        // A match-winning result counts at most the points needed: sites
        // write that, gnubg the whole game's points.
        let capped =
            |game: &GameText| game.result.map(|(w, p)| (w, game.state.away().map_or(p, |a| p.min(a[w.index()]))));
        assert_eq!((ga.number, ga.score, ga.state), (gb.number, gb.score, gb.state), "{what}: game {g}");
        assert_eq!(capped(ga), capped(gb), "{what}: game {g} result");
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
                (MatAction::Resign { level: la, .. }, MatAction::Resign { level: lb, .. }) => {
                    assert_eq!(la, lb, "{at}")
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

#[test]
fn every_match_file_reads_the_same_after_writing_it_as_mat_and_as_sgf() {
    let files = all_files();
    assert!(files.len() >= 8, "the test data alone has 6 files: {files:?}");
    for path in files {
        let what = path.display().to_string();
        let original = read_match_file(&path).unwrap_or_else(|e| panic!("{}", chain(&e)));
        let mat = write_mat(&original).unwrap();
        let from_mat = parse_mat(&mat).unwrap_or_else(|e| panic!("{what} written as .mat: {e}\n{mat}"));
        same_match(&original, &from_mat, &format!("{what} -> .mat"));
        // A match without the Crawford rule gains the header that says so.
        let mut headers = from_mat.headers.clone();
        if !original.crawford && original.match_length > 0 {
            assert_eq!(headers.remove("Crawford").as_deref(), Some("Off"), "{what}");
        }
        assert_eq!(headers, original.headers, "{what}: headers");
        let sgf = write_sgf(&from_mat, None).unwrap();
        let from_sgf = parse_sgf(&sgf).unwrap_or_else(|e| panic!("{what} written as SGF: {e}\n{sgf}"));
        same_match(&from_mat, &from_sgf, &format!("{what} -> .mat -> .sgf"));
        // And back to .mat: the same text as the first writing.
        let again = write_mat(&from_sgf).unwrap();
        let back = parse_mat(&again).unwrap();
        same_match(&from_mat, &back, &format!("{what} -> .mat -> .sgf -> .mat"));
    }
}

#[test]
fn names_a_format_cannot_hold_are_refused_by_name() {
    let mut m = parse_mat(" 1 point match\n\n Game 1\n A : 0         B : 0\n  1)           31: 8/5 6/5\n").unwrap();
    m.players[0] = "Ann:1".into();
    let e = write_mat(&m).unwrap_err();
    assert!(matches!(&e, WriteMatchError::Name { name, .. } if name == "Ann:1"), "{e}");
    assert!(write_sgf(&m, None).is_ok(), "SGF holds a colon");
    m.players[0] = "Bob,1650".into();
    assert!(e.to_string().contains(".mat"));
    assert!(write_mat(&m).unwrap_err().to_string().contains("FIBS rating"));
    m.players[0] = "two\nlines".into();
    assert!(write_sgf(&m, None).is_err());
}

#[test]
fn long_names_keep_each_action_in_its_column() {
    let long = "A very long player name that runs past the column";
    let text = format!(" 3 point match\n\n Game 1\n {long} : 0    B : 0\n  1)                                                         31: 8/5 6/5\n");
    let m = parse_mat(&text).unwrap();
    let again = parse_mat(&write_mat(&m).unwrap()).unwrap();
    assert_eq!(again.players[0], long);
    assert_same_games(&m.games, &again.games, "long name");
}

/// gnubg, when installed.
fn gnubg() -> Option<&'static Path> {
    let gnubg = Path::new("/usr/games/gnubg");
    gnubg.exists().then_some(gnubg)
}

#[test]
fn gnubg_reads_the_written_files_as_the_same_games() {
    let Some(gnubg) = gnubg() else {
        eprintln!("skipped: gnubg is not installed at /usr/games/gnubg");
        return;
    };
    let dir = std::env::temp_dir().join(format!("gammon-writers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // One gnubg run: each written file loaded (SGF) or imported (.mat),
    // then exported by gnubg as .mat, which gammon reads.
    let mut script = String::from("set confirm new off\nset confirm save off\n");
    let mut checks = Vec::new();
    for (i, path) in all_files().iter().enumerate() {
        let record = read_match_file(path).unwrap();
        let mat = dir.join(format!("{i}.mat"));
        let sgf = dir.join(format!("{i}.sgf"));
        std::fs::write(&mat, write_mat(&record).unwrap()).unwrap();
        std::fs::write(&sgf, write_sgf(&record, None).unwrap()).unwrap();
        let (from_mat, from_sgf) = (dir.join(format!("{i}-mat.mat")), dir.join(format!("{i}-sgf.mat")));
        script += &format!("import mat {}\nexport match mat {}\n", mat.display(), from_mat.display());
        script += &format!("load match {}\nexport match mat {}\n", sgf.display(), from_sgf.display());
        checks.push((path.clone(), record, from_mat, from_sgf));
    }
    script += "quit\n";
    let run = gammon_testkit::run(gnubg, &["-t", "-q"], script.as_bytes());
    assert!(run.success(), "gnubg failed");
    for (path, record, from_mat, from_sgf) in checks {
        for (exported, how) in [(from_mat, "imported .mat"), (from_sgf, "loaded SGF")] {
            let what = format!("{} as gnubg's {how}", path.display());
            let text = std::fs::read_to_string(&exported).unwrap_or_else(|e| panic!("{what}: no export: {e}"));
            let back = parse_mat(&text).unwrap_or_else(|e| panic!("{what}: {e}\n{text}"));
            // gnubg's SGF loader keeps a name's escaped `\\` doubled (its `\]` it reads).
            let players = back.players.clone().map(|p| p.replace("\\\\", "\\"));
            assert_eq!((&players, back.match_length), (&record.players, record.match_length), "{what}");
            assert_same_games(&record.games, &back.games, &what);
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A stand-in match equity table that shows what it was asked: EMG =
/// mwc * 1000 + 10 * my away + the opponent's away.
struct Marked;

impl gammon_rules::MatchEquity for Marked {
    fn eq2mwc(&self, eq: f64, _: u32, away: (u32, u32), _: bool) -> f64 {
        (eq - f64::from(10 * away.0 + away.1)) / 1000.0
    }
    fn mwc2eq(&self, mwc: f64, _: u32, away: (u32, u32), _: bool) -> f64 {
        mwc * 1000.0 + f64::from(10 * away.0 + away.1)
    }
}

#[test]
fn gnubgs_analysis_in_sgf_is_read_in_gammons_conventions() {
    use gammon_rules::{read_match_file_with_analysis, Position, Seat};
    let path = gammon_testkit::shared_dir().join("matches/real/gnubgscripts_match1486073_analyzed.sgf");
    let m = read_match_file_with_analysis(&path, &Marked).unwrap();
    let stored = m.stored.as_ref().unwrap();
    assert_eq!(stored.program, "GNU Backgammon 1.07.001-mingw 32-Bit", "from AP[GNU Backgammon:1.07.001-mingw 32-Bit]");
    // `;B[53qvsv]A[0][qvsv E ver 3 0.513585 0.162085 0.007085 0.129371 0.006846 0.086027 1C …][lqad …]…`
    let first = stored.records[&(0, 0)].chequer.as_ref().unwrap();
    assert_eq!(first.played, Some(0));
    assert_eq!(first.candidates.len(), 9);
    let best = &first.candidates[0];
    assert_eq!((best.equity, best.depth.as_str()), (0.086027, "1-ply"));
    assert_eq!(best.probabilities, Some([0.513585, 0.162085, 0.007085, 0.129371, 0.006846]));
    // qvsv is Black's 8/3 6/3: the position after it, seen by Black.
    let (_, next) =
        gammon_rules::parse_move(&Position::STARTING, gammon_rules::Dice::new(5, 3).unwrap(), "8/3 6/3").unwrap();
    assert_eq!(best.after, next.switched());
    assert_eq!(m.games[0].records[0].player, Seat::One);
    // `;W[44xtxtmimi]DA[E ver 3 2C 1 0.000000 1 0.484622 0.130712 0.004983 0.159952 0.007782 -0.082241 0.491081 … 0.446087]`:
    // White's cube decision at 0-0 of a 3-point match, his values as match winning chances.
    let cube = stored.records[&(0, 1)].cube.as_ref().unwrap();
    assert!((cube.no_double - (491.081 + 33.0)).abs() < 1e-9, "{}", cube.no_double);
    assert!((cube.double_take - (446.087 + 33.0)).abs() < 1e-9, "{}", cube.double_take);
    assert_eq!(cube.double_pass, 1.0);
    assert_eq!(cube.probabilities, Some([0.484622, 0.130712, 0.004983, 0.159952, 0.007782]));
    assert_eq!(cube.depth, "2-ply");
    // Game 2 of a 7-point match at 0-2, `;B[64aeek]DA[… 0.638314 … 0.612127]`:
    // the doubler (Black, 5-away) first, then White (7-away).
    let path = gammon_testkit::shared_dir().join("matches/real/gnubgparser_charlot_7p.sgf");
    let m = read_match_file_with_analysis(&path, &Marked).unwrap();
    assert_eq!((m.games[1].score, m.games[1].records[2].player), ([0, 2], Seat::One));
    let cube = m.stored.as_ref().unwrap().records[&(1, 2)].cube.as_ref().unwrap();
    assert!((cube.no_double - (638.314 + 57.0)).abs() < 1e-9, "{}", cube.no_double);
    assert!((cube.double_take - (612.127 + 57.0)).abs() < 1e-9, "{}", cube.double_take);
    // Reading up to a bad game keeps gnubg's analysis of the games read:
    // game 3's first move made illegal (a 6-5 played as 1/7 1/7).
    let (kept, error) = gammon_rules::read_match_file_until_error_with_analysis(&path, &Marked).unwrap();
    assert_eq!((&kept, error), (&m, None));
    let text = std::fs::read_to_string(&path).unwrap();
    let third = text.match_indices("(;").nth(2).unwrap().0;
    let first_move = third + text[third..].find(";B[").or_else(|| text[third..].find(";W[")).unwrap();
    let mut bad = text.clone();
    bad.replace_range(first_move + 5..first_move + 9, "yryr");
    let damaged = std::env::temp_dir().join(format!("gammon-bad-game3-{}.sgf", std::process::id()));
    std::fs::write(&damaged, bad).unwrap();
    let (kept, error) = gammon_rules::read_match_file_until_error_with_analysis(&damaged, &Marked).unwrap();
    std::fs::remove_file(&damaged).unwrap();
    assert!(error.is_some());
    assert_eq!(kept.games, m.games[..2]);
    let cube = kept.stored.as_ref().unwrap().records[&(1, 2)].cube.as_ref().unwrap();
    assert!((cube.no_double - (638.314 + 57.0)).abs() < 1e-9, "{}", cube.no_double);
    // A file without analysis has none.
    let plain = read_match_file_with_analysis(data("three_point.sgf"), &Marked).unwrap();
    assert!(plain.stored.is_none());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Damaged analysis (cuts, insertions and replacements inside the
    /// first game of a real analysed file) never makes the analysis reader
    /// or the writers panic, and what is read is written back readable.
    #[test]
    fn damaged_analysis_is_read_or_left_out_never_a_panic(
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..8, "[a-z0-9 .\\-CEXver\\[\\]]{0,6}"), 1..6),
    ) {
        let path = gammon_testkit::shared_dir().join("matches/real/gnubgscripts_match1486073_analyzed.sgf");
        let full = std::fs::read_to_string(path).unwrap();
        let mut text = full[..full[2..].find("(;").map_or(full.len(), |i| i + 2)].to_string();
        for (at, cut, insert) in edits {
            let i = ((text.len() as f64) * at) as usize;
            let end = (i + cut).min(text.len());
            if text.is_char_boundary(i) && text.is_char_boundary(end) {
                text.replace_range(i..end, &insert);
            }
        }
        if let Ok(record) = parse_sgf(&text) {
            let stored = gammon_rules::read_sgf_analysis(&text, &record, &Marked);
            let analysis = stored.as_ref().map(|stored| gammon_rules::SgfAnalysis { stored, equity: &Marked });
            let sgf = write_sgf(&record, analysis).unwrap();
            proptest::prop_assert!(parse_sgf(&sgf).is_ok(), "{}", sgf);
            proptest::prop_assert!(parse_mat(&write_mat(&record).unwrap()).is_ok());
        }
    }
}

#[test]
fn the_jacoby_rule_of_a_money_session_survives_mat() {
    use gammon_rules::{MatchRecorder, MatchRules, MatchState, Seat};
    let record = |rules: MatchRules| {
        let state = MatchState::new(rules);
        let mut rec = MatchRecorder::new(["Ann".into(), "Bob".into()], &state);
        rec.new_game([0, 0]);
        let dice = gammon_rules::Dice::new(3, 1).unwrap();
        let (mv, _) = gammon_rules::parse_move(&gammon_rules::Position::STARTING, dice, "8/5 6/5").unwrap();
        rec.roll(Seat::Zero, dice, &mv);
        let (record, error) = rec.finish().unwrap();
        assert!(error.is_none(), "{error:?}");
        record
    };
    let money = record(MatchRules { jacoby: true, ..MatchRules::money() });
    let text = write_mat(&money).unwrap();
    assert!(text.starts_with("; [Jacoby \"On\"]\n"), "{text}");
    assert!(parse_mat(&text).unwrap().rules.jacoby, "read back under the Jacoby rule");
    let without = parse_mat(&text.replacen("; [Jacoby \"On\"]\n", "", 1)).unwrap();
    assert!(!without.rules.jacoby, "no header, no Jacoby");
    // Money without Jacoby and matches have no such header.
    assert!(!write_mat(&record(MatchRules::money())).unwrap().contains("Jacoby"));
    assert!(!write_mat(&record(MatchRules::new_match(5))).unwrap().contains("Jacoby"));
}
