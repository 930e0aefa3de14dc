//! eXtreme Gammon `.xg` files: the real ones in the shared folder against
//! their `.mat` exports, XG's stored analysis, small hand-made files, and
//! broken ones.

use gammon_rules::{
    parse_mat_until_error, parse_match_text, parse_xg, parse_xg_until_error, read_match_file,
    read_match_file_until_error, GameResult, MatAction, MatError, MatchRecord, ReadMatchError, Seat, StoredAnalysis,
    WinHow, XgError, MAX_GAME_FILE_BYTES,
};
use std::path::{Path, PathBuf};

fn real_files() -> Vec<PathBuf> {
    let dir = gammon_testkit::shared_dir().join("matches/xg");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}: the real XG files are the shared folder's matches/xg", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xg"))
        .collect();
    files.sort();
    files
}

/// XG's `.mat` export as gammon's `.mat` reader reads it. Two things XG
/// writes are not `.mat` as gammon (and gnubg) read it: a `Resigns` action
/// (blanked, keeping the columns: the winner's `Wins N points` after it
/// is read as the resignation, which is also how the `.xg` is read), and
/// `and the match` after the last game of a money session (there is no
/// match to win: dropped).
fn readable_mat(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    // XG writes a money session as a `0 point match`.
    let money = text.lines().any(|l| l.trim() == "0 point match");
    let text = text.replace("Resigns", "       ");
    if money {
        text.replace(" and the match", "")
    } else {
        text
    }
}

/// Asserts that the games, dice, moves, cube actions and results are the
/// same; returns the number of games and of records compared.
fn assert_same_games(xg: &MatchRecord, mat: &MatchRecord, name: &str) -> (usize, usize) {
    assert_eq!(xg.players, mat.players, "{name}: players");
    assert_eq!(xg.match_length, mat.match_length, "{name}: length");
    assert_eq!(xg.games.len(), mat.games.len(), "{name}: games");
    let mut records = 0;
    for (x, m) in xg.games.iter().zip(&mat.games) {
        let game = format!("{name} game {}", m.number);
        assert_eq!((x.number, x.score, x.result), (m.number, m.score, m.result), "{game}");
        // The state's score and Crawford flags; its rules differ where the
        // `.mat` reader does not read XG's header (beaver, cube limit).
        let state = |g: &gammon_rules::GameText| (g.state.score(), g.state.is_crawford(), g.state.is_post_crawford());
        assert_eq!(state(x), state(m), "{game}: match state (score, Crawford)");
        assert_eq!(x.records.len(), m.records.len(), "{game}: records");
        for (a, b) in x.records.iter().zip(&m.records) {
            let at = format!("{game}, move {:?}", b.move_number);
            assert_eq!((a.player, a.position, a.cube), (b.player, b.position, b.cube), "{at}");
            match (&a.action, &b.action) {
                (MatAction::Move { dice, mv, .. }, MatAction::Move { dice: d, mv: v, .. }) => {
                    assert_eq!((dice, mv), (d, v), "{at}")
                }
                (x, y) => assert_eq!(x, y, "{at}"),
            }
            // The rows are numbered as XG's export numbers them.
            if !matches!(b.action, MatAction::Win { .. } | MatAction::Resign { .. }) {
                assert_eq!(a.move_number, b.move_number, "{at}: row");
            }
            records += 1;
        }
    }
    (xg.games.len(), records)
}

#[test]
fn every_real_xg_file_replays_like_its_mat_export() {
    let files = real_files();
    assert_eq!(files.len(), 8, "the eight .xg files of shared/matches/xg");
    let (mut games, mut records, mut rolls) = (0, 0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (xg, xg_error) = read_match_file_until_error(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let (mat, mat_error) = parse_mat_until_error(&readable_mat(&path.with_extension("mat"))).unwrap();
        let (g, r) = assert_same_games(&xg, &mat, &name);
        games += g;
        records += r;
        rolls += xg.games.iter().map(|g| g.rolls()).sum::<usize>();
        // An illegal play stops both at the same game and move.
        let place = |e: &Option<MatError>| e.as_ref().map(|e| (e.place.game, e.place.move_number, e.place.player.clone()));
        assert_eq!(place(&xg_error), place(&mat_error), "{name}: {xg_error:?} / {mat_error:?}");
        if let Some(e) = &xg_error {
            assert_eq!(e.place.line, 0, "a binary file has no lines");
            assert!(e.to_string().starts_with(&format!("game {}, move ", e.place.game.unwrap())), "{e}");
        }
    }
    // Counted when written: 31 games (1,010 rolls, 1,109 records) of the
    // eight files replay before the three illegal plays, and each record
    // agrees with the `.mat` export.
    assert_eq!(games, 31, "games compared");
    assert_eq!((records, rolls), (1109, 1010), "records and rolls compared");
    println!("{} files: {games} games, {rolls} rolls, {records} records equal to the .mat exports", files.len());
}

#[test]
fn the_illegal_plays_are_errors_naming_game_and_move() {
    for (file, games_before, game, mv) in [
        ("5nqfGw9bWG3deTaU.xg", 0, 1, 11),
        ("hQ8sVn2LbTdF4wRm.xg", 1, 2, 20),
        ("rK7pXm4TqLb9NzWd.xg", 11, 12, 10),
    ] {
        let path = gammon_testkit::shared_dir().join("matches/xg").join(file);
        let e = read_match_file(&path).unwrap_err();
        let ReadMatchError::Match { source, .. } = &e else { panic!("{file}: {e:?}") };
        assert_eq!((source.place.game, source.place.move_number), (Some(game), Some(mv)), "{file}: {source}");
        assert!(source.reason.contains("illegal move"), "{source}");
        let (record, error) = read_match_file_until_error(&path).unwrap();
        assert_eq!(record.games.len(), games_before, "{file}");
        assert_eq!(error.as_ref(), Some(source), "{file}");
        // The analysis of the games before is kept, and only theirs.
        let stored = record.stored.as_ref();
        assert!(stored.is_none_or(|s| s.records.keys().all(|&(g, _)| g < games_before)), "{file}");
        assert_eq!(stored.is_some(), games_before > 0, "{file}");
    }
}

/// Sanity of XG's analysis as stored: counts, ranges, the played move.
fn check_analysis(record: &MatchRecord, stored: &StoredAnalysis, name: &str) -> (usize, usize, usize) {
    assert_eq!(stored.program, "eXtreme Gammon");
    let depths = ["1-ply", "2-ply", "3-ply", "4-ply", "XG Roller", "XG Roller+", "XG Roller++", "rollout", "book"];
    let probabilities = |p: &[f64; 5], at: &str| {
        let [w, wg, wbg, lg, lbg] = *p;
        let eps = 1e-4;
        assert!(p.iter().all(|x| (-eps..=1.0 + eps).contains(x)), "{at}: {p:?}");
        assert!(wg <= w + eps && wbg <= wg + eps && lg <= 1.0 - w + eps && lbg <= lg + eps, "{at}: {p:?}");
    };
    let (mut moves, mut cubes, mut played) = (0, 0, 0);
    for (&(g, r), s) in &stored.records {
        let at = format!("{name} game {g} record {r}");
        let entry = &record.games[g].records[r];
        if let Some(cube) = &s.cube {
            cubes += 1;
            assert!(depths.contains(&cube.depth.as_str()), "{at}: {}", cube.depth);
            assert!((cube.double_pass - 1.0).abs() < 1e-6, "{at}: a pass is +1 for the doubler: {cube:?}");
            assert!(cube.no_double.abs() <= 3.0 + 1e-6 && cube.double_take.abs() <= 6.0 + 1e-6, "{at}: {cube:?}");
            if let Some(p) = &cube.probabilities {
                probabilities(p, &at);
            }
        }
        if let Some(m) = &s.chequer {
            moves += 1;
            assert!(matches!(entry.action, MatAction::Move { .. }), "{at}: {:?}", entry.action);
            let best = &m.candidates[0];
            for c in &m.candidates {
                assert!(depths.contains(&c.depth.as_str()), "{at}: {}", c.depth);
                // XG values its first candidates deeper: the first is the best
                // of its depth (at XG's display precision, 1e-4: XG ranks
                // candidates it shows as equal in its own order).
                if c.depth == best.depth {
                    assert!(c.equity <= best.equity + 1e-4, "{at}: {} > {}", c.equity, best.equity);
                }
                if let Some(p) = &c.probabilities {
                    probabilities(p, &at);
                }
                assert!(c.after.is_consistent(), "{at}");
            }
            let i = m.played.unwrap_or_else(|| panic!("{at}: the played move is not among the candidates"));
            played += 1;
            if m.candidates[i].depth == best.depth {
                assert!(m.loss().unwrap() >= -1e-4, "{at}: loss {:?}", m.loss());
            }
        }
    }
    (moves, cubes, played)
}

#[test]
fn xgs_stored_analysis_is_in_gammons_conventions() {
    let (mut moves, mut cubes, mut played) = (0, 0, 0);
    for path in real_files() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let (record, _) = read_match_file_until_error(&path).unwrap();
        let Some(stored) = &record.stored else {
            assert_eq!(record.games.len(), 0, "{name}: analysed files");
            continue;
        };
        let (m, c, p) = check_analysis(&record, stored, &name);
        moves += m;
        cubes += c;
        played += p;
    }
    assert_eq!(played, moves, "every analysed legal play is found among its candidates");
    assert!(moves > 800 && cubes > 500, "{moves} moves, {cubes} cube decisions");
    println!("stored analysis: {moves} checker plays (played move found in all), {cubes} cube decisions");
}

#[test]
fn an_analysed_move_of_a_real_file() {
    // UL-CV6F9jMM-E1Pu, game 1, move 2: Dunes_04 plays 41 13/9 9/8; XG (3-ply)
    // prefers 24/23 8/4* by 0.0475 (its stored error of the play).
    let path = gammon_testkit::shared_dir().join("matches/xg/UL-CV6F9jMM-E1Pu.xg");
    let record = read_match_file(path).unwrap();
    let stored = record.stored.as_ref().unwrap();
    let game = &record.games[0];
    let r = game.records.iter().position(|e| e.move_number == Some(2) && e.player == Seat::Zero).unwrap();
    let MatAction::Move { text, .. } = &game.records[r].action else { panic!() };
    assert_eq!(text, "13/9 9/8");
    let m = stored.records[&(0, r)].chequer.as_ref().unwrap();
    assert_eq!(m.played, Some(1));
    assert_eq!(m.candidates[0].depth, "3-ply");
    assert!((m.loss().unwrap() - 0.0475).abs() < 1e-4, "{:?}", m.loss());
    let cube = stored.records[&(0, r)].cube.as_ref().unwrap();
    assert_eq!(cube.depth, "2-ply");
    assert!((cube.no_double - -0.0087).abs() < 1e-4 && (cube.double_take - -0.3694).abs() < 1e-4);
}
