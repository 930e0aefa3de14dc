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

/// XG's `.mat` export, as it is: gammon's `.mat` reader reads XG's
/// `Resigns` (the winner's `Wins N points` after it says the points) and
/// `and the match` after a money session's last game.
fn mat_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
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
        let (mat, mat_error) = parse_mat_until_error(&mat_text(&path.with_extension("mat"))).unwrap();
        let (g, r) = assert_same_games(&xg, &mat, &name);
        games += g;
        records += r;
        rolls += xg.games.iter().map(|g| g.rolls()).sum::<usize>();
        // An illegal play stops both at the same game and move.
        let place =
            |e: &Option<MatError>| e.as_ref().map(|e| (e.place.game, e.place.move_number, e.place.player.clone()));
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
    for (file, games_before, game, mv) in
        [("5nqfGw9bWG3deTaU.xg", 0, 1, 11), ("hQ8sVn2LbTdF4wRm.xg", 1, 2, 20), ("rK7pXm4TqLb9NzWd.xg", 11, 12, 10)]
    {
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

/// A tiny writer of `.xg` files: records at XG's offsets (only the fields
/// the reader uses), in either container.
mod build {
    use flate2::write::ZlibEncoder;
    use flate2::{Compression, Crc};
    use std::io::Write;

    const RECORD: usize = 2560;
    const START: [i8; 26] = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0];

    fn record(kind: u8) -> Vec<u8> {
        let mut r = vec![0; RECORD];
        r[8] = kind;
        r
    }

    fn put(r: &mut [u8], at: usize, bytes: &[u8]) {
        r[at..at + bytes.len()].copy_from_slice(bytes);
    }

    fn put_i32(r: &mut [u8], at: usize, v: i32) {
        put(r, at, &v.to_le_bytes());
    }

    pub fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut e = ZlibEncoder::new(Vec::new(), Compression::fast());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn crc(bytes: &[u8]) -> u32 {
        let mut c = Crc::new();
        c.update(bytes);
        c.sum()
    }

    /// The match header: `length` 99999 is money; `rules` Crawford, Jacoby, beaver.
    pub fn header(length: i32, [crawford, jacoby, beaver]: [bool; 3]) -> Vec<u8> {
        let mut r = record(0);
        put_i32(&mut r, 92, length);
        put(&mut r, 100, &[u8::from(crawford), u8::from(jacoby), u8::from(beaver), 0]);
        put_i32(&mut r, 552, 30);
        put(&mut r, 556, b"DMLI");
        put_i32(&mut r, 612, 6);
        for (at, name) in [(880, "Ann"), (1138, "Bob")] {
            let wide: Vec<u8> = name.encode_utf16().flat_map(u16::to_le_bytes).collect();
            put(&mut r, at, &wide);
        }
        r
    }

    pub fn game(score: [i32; 2], crawford: bool, number: i32) -> Vec<u8> {
        let mut r = record(1);
        put_i32(&mut r, 12, score[0]);
        put_i32(&mut r, 16, score[1]);
        r[20] = u8::from(crawford);
        put(&mut r, 21, &START.map(|x| x.to_le_bytes()[0]));
        put_i32(&mut r, 48, number);
        r
    }

    /// A cube decision of `player` (1 or -1): `double` 1 doubles (-2: none
    /// possible); `take` 1 take, 0 pass, 2 beaver.
    pub fn cube(player: i32, double: i32, take: i32) -> Vec<u8> {
        let mut r = record(2);
        for (at, v) in [(12, player), (16, double), (20, take), (24, -1)] {
            put_i32(&mut r, at, v);
        }
        r
    }

    /// A roll of `player` and its steps in the mover's points (25 the bar, 0 off).
    pub fn roll(player: i32, dice: [i32; 2], steps: &[(i32, i32)]) -> Vec<u8> {
        let mut r = record(3);
        put_i32(&mut r, 64, player);
        let mut moves = [-1; 8];
        for (i, &(from, to)) in steps.iter().enumerate() {
            moves[2 * i] = if from == 25 { 24 } else { from - 1 };
            moves[2 * i + 1] = to - 1;
        }
        for (i, m) in moves.iter().enumerate() {
            put_i32(&mut r, 68 + 4 * i, *m);
        }
        put_i32(&mut r, 100, dice[0]);
        put_i32(&mut r, 104, dice[1]);
        put(&mut r, 2312, &(-1000.0f64).to_le_bytes());
        r
    }

    pub fn footer(winner: i32, points: i32) -> Vec<u8> {
        let mut r = record(4);
        put_i32(&mut r, 24, winner);
        put_i32(&mut r, 28, points);
        r
    }

    fn rich_header() -> Vec<u8> {
        let mut h = vec![0; 8232];
        put(&mut h, 0, b"RGMH");
        put(&mut h, 4, &1u32.to_le_bytes());
        put(&mut h, 8, &8232u32.to_le_bytes());
        put(&mut h, 20, &4u32.to_le_bytes()); // the thumbnail's size
        h.extend_from_slice(b"\xFF\xD8\xFF\xD9"); // a JPEG with nothing in it
        h
    }

    /// The "bare" container: the header, the thumbnail, one zlib stream.
    pub fn bare(records: &[Vec<u8>]) -> Vec<u8> {
        [rich_header(), zlib(&records.concat())].concat()
    }

    /// The archive container, with the game file stored as `size` bytes
    /// (its real size unless a test lies).
    pub fn archive_sized(records: &[Vec<u8>], size: Option<i32>) -> Vec<u8> {
        let game = records.concat();
        let data = zlib(&game);
        let mut entry = vec![0; 532];
        entry[0] = 7;
        put(&mut entry, 1, b"temp.xg");
        put_i32(&mut entry, 512, size.unwrap_or(game.len() as i32));
        put_i32(&mut entry, 516, data.len() as i32);
        put_i32(&mut entry, 520, 0);
        put(&mut entry, 524, &crc(&game).to_le_bytes());
        let index = zlib(&entry);
        let archive = [data.clone(), index.clone()].concat();
        let mut trailer = Vec::new();
        for v in [crc(&archive) as i32, 1, 1, index.len() as i32, data.len() as i32, 1] {
            trailer.extend_from_slice(&v.to_le_bytes());
        }
        trailer.extend_from_slice(&[0; 12]);
        [rich_header(), archive, trailer].concat()
    }

    pub fn archive(records: &[Vec<u8>]) -> Vec<u8> {
        archive_sized(records, None)
    }
}

use build::{cube, footer, game, header, roll};

/// Player 1 opens 31 (8/5 6/5) after the opening's dead cube record.
fn opening() -> Vec<Vec<u8>> {
    vec![cube(1, -2, -1), roll(1, [3, 1], &[(8, 5), (6, 5)])]
}

fn actions(m: &MatchRecord, g: usize) -> Vec<&MatAction> {
    m.games[g].records.iter().map(|r| &r.action).collect()
}

#[test]
fn a_money_session_with_a_pass_and_a_resignation() {
    let mut records = vec![header(99999, [true, false, false]), game([0, 0], false, 1)];
    records.extend(opening());
    // Bob doubles, Ann passes.
    records.extend([cube(-1, 1, 0), footer(-1, 1)]);
    // Game 2: Bob opens 42, Ann resigns a gammon.
    records.extend([game([0, 1], false, 2), cube(-1, -2, -1), roll(-1, [4, 2], &[(8, 4), (6, 4)]), footer(-1, 2)]);
    for file in [build::bare(&records), build::archive(&records)] {
        let m = parse_xg(&file).unwrap();
        assert_eq!((m.match_length, m.players.clone()), (0, ["Ann".to_string(), "Bob".to_string()]));
        assert_eq!(m.games.len(), 2);
        let g1 = actions(&m, 0);
        assert!(matches!(g1[..], [MatAction::Move { .. }, MatAction::Double { value: 2 }, MatAction::Drop, _]));
        assert_eq!(g1[3], &MatAction::Win { points: 1, how: WinHow::Passed });
        assert_eq!(m.games[0].result, Some((Seat::One, 1)));
        let g2 = actions(&m, 1);
        assert_eq!(g2[1], &MatAction::Resign { points: 2, level: GameResult::Gammon });
        assert_eq!(g2[2], &MatAction::Win { points: 2, how: WinHow::Resigned(GameResult::Gammon) });
        assert_eq!(m.games[1].records[0].player, Seat::One, "Bob (player 2) is seat One");
        assert_eq!(m.stored, None, "nothing analysed");
    }
}

#[test]
fn a_beaver_is_read_where_the_rules_allow_it() {
    let records = |beaver: bool| {
        let mut r = vec![header(99999, [true, false, beaver]), game([0, 0], false, 1)];
        r.extend(opening());
        // Bob doubles, Ann beavers (cube 4, hers); Bob rolls 42; Bob resigns at 4.
        r.extend([cube(-1, 1, 2), roll(-1, [4, 2], &[(8, 4), (6, 4)]), footer(1, 4)]);
        r
    };
    let m = parse_xg(&build::bare(&records(true))).unwrap();
    let g = actions(&m, 0);
    assert_eq!(g[2], &MatAction::Beaver);
    assert_eq!(m.games[0].records[3].cube.value, 4);
    assert_eq!(g[4], &MatAction::Resign { points: 4, level: GameResult::Single });
    assert_eq!(m.games[0].result, Some((Seat::Zero, 4)));
    // The header says no beavers: the beaver is refused, naming its move.
    let e = parse_xg(&build::bare(&records(false))).unwrap_err();
    let XgError::Match(e) = e else { panic!("{e:?}") };
    assert_eq!((e.place.game, e.place.move_number), (Some(1), Some(2)), "{e}");
}

/// A 2-point match: Ann wins game 1 by a pass (1-0), game 2 is the Crawford
/// game (`crawford2`), game 3 is post-Crawford.
fn crawford_match(crawford2: bool, double_in_crawford: bool) -> Vec<Vec<u8>> {
    let mut r = vec![header(2, [true, false, false]), game([0, 0], false, 1)];
    r.extend(opening());
    r.extend([cube(-1, 0, -1), roll(-1, [4, 2], &[(8, 4), (6, 4)]), cube(1, 1, 0), footer(1, 1)]);
    r.extend([game([1, 0], crawford2, 2), cube(-1, -2, -1), roll(-1, [3, 1], &[(8, 5), (6, 5)])]);
    if double_in_crawford {
        r.push(cube(1, 1, 1));
    }
    r.extend([footer(-1, 1), game([1, 1], false, 3)]);
    r.extend(opening());
    r.extend([cube(-1, 1, 0), footer(-1, 1)]);
    r
}

#[test]
fn the_crawford_game_follows_the_score() {
    let m = parse_xg(&build::archive(&crawford_match(true, false))).unwrap();
    assert_eq!((m.match_length, m.crawford, m.games.len()), (2, true, 3));
    assert!(m.games[1].state.is_crawford());
    assert!(m.games[2].state.is_post_crawford());
    assert_eq!(m.games[2].result, Some((Seat::One, 1)));
    // A double in the Crawford game, or a header that disagrees, is refused.
    for (file, says) in
        [(crawford_match(true, true), "may not double"), (crawford_match(false, false), "the Crawford game")]
    {
        let (m, e) = parse_xg_until_error(&build::bare(&file)).unwrap();
        let e = e.unwrap();
        assert_eq!(e.place.game, Some(2), "{e}");
        assert!(e.reason.contains(says), "{e}");
        assert_eq!(m.games.len(), 1, "the game before is kept");
    }
}

#[test]
fn an_illegal_play_names_game_and_move() {
    let mut records = vec![header(3, [true, false, false]), game([0, 0], false, 1), cube(1, -2, -1)];
    records.push(roll(1, [3, 1], &[(13, 8)]));
    let e = parse_xg(&build::bare(&records)).unwrap_err();
    let XgError::Match(e) = &e else { panic!("{e:?}") };
    assert_eq!(e.to_string().split(':').next(), Some("game 1, move 1 (Ann)"), "{e}");
    // Steps out of XG's range are the record's error.
    let mut bad = records.clone();
    bad[3] = roll(1, [3, 1], &[(40, 9)]);
    assert!(matches!(parse_xg(&build::bare(&bad)), Err(XgError::Record { index: 3, .. })));
}

#[test]
fn broken_files_are_typed_errors() {
    let mut records = vec![header(99999, [true, false, false]), game([0, 0], false, 1)];
    records.extend(opening());
    records.extend([cube(-1, 1, 0), footer(-1, 1)]);
    let good = parse_xg(&build::bare(&records)).unwrap();
    for file in [build::bare(&records), build::archive(&records)] {
        // Every cut: an error, or (an archive cut inside its index) the
        // intact game file read as the bare kind; never a panic.
        for len in (0..file.len()).step_by(61).chain([file.len() - 1]) {
            match parse_xg(&file[..len]) {
                Err(_) => {}
                Ok(m) => assert_eq!(m, good, "cut at {len}"),
            }
        }
        // A changed byte in the compressed data: a checksum or zlib error.
        for at in [8240, 8300, file.len() - 40] {
            let mut bad = file.clone();
            bad[at] ^= 0x55;
            assert!(parse_xg(&bad).is_err(), "byte {at} of {}", file.len());
        }
    }
    let bare = build::bare(&records);
    assert!(matches!(parse_xg(&bare[..100]), Err(XgError::Truncated(_))));
    assert!(matches!(parse_xg(&bare[..bare.len() - 5]), Err(XgError::Truncated(_))));
    assert!(matches!(parse_xg(b"RGMX"), Err(XgError::NotXg)));
    let mut archive = build::archive(&records);
    let at = archive.len() - 60;
    archive[at] ^= 1;
    assert!(matches!(parse_xg(&archive), Err(XgError::Checksum(_))));
    // Records that are not whole, not XG's, or out of order.
    let mut cut = records.concat();
    cut.truncate(cut.len() - 1);
    let file = [build::bare(&[])[..8236].to_vec(), build::zlib(&cut)].concat();
    assert!(matches!(parse_xg(&file), Err(XgError::Truncated(_))));
    let mut no_magic = records.clone();
    no_magic[0][556] = b'X';
    assert!(matches!(parse_xg(&build::bare(&no_magic)), Err(XgError::Corrupt(_))));
    let mut unknown = records.clone();
    unknown[2][8] = 9;
    assert!(matches!(parse_xg(&build::bare(&unknown)), Err(XgError::Record { index: 2, .. })));
    let mut headless = records.clone();
    headless[0][8] = 1;
    assert!(matches!(parse_xg(&build::bare(&headless)), Err(XgError::Record { index: 0, .. })));
    let mut nack = records.clone();
    nack[0][96] = 1;
    assert!(matches!(parse_xg(&build::bare(&nack)), Err(XgError::Unsupported(_))));
}

#[test]
fn oversized_files_are_refused_before_they_are_inflated() {
    // An archive whose index claims a game file past the limit.
    let records = vec![header(99999, [true, false, false])];
    let big = i32::try_from(MAX_GAME_FILE_BYTES + 1).unwrap();
    assert_eq!(parse_xg(&build::archive_sized(&records, Some(big))), Err(XgError::TooLarge));
    // A zip bomb: zeros that inflate past the limit.
    let bomb = vec![0u8; MAX_GAME_FILE_BYTES + 2560];
    let file = [build::bare(&[])[..8236].to_vec(), build::zlib(&bomb)].concat();
    assert_eq!(parse_xg(&file), Err(XgError::TooLarge));
    // A file past the size limit of match files is not read at all.
    let dir = std::env::temp_dir().join(format!("gammon-xg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.xg");
    let mut bytes = b"RGMH".to_vec();
    bytes.resize(usize::try_from(gammon_rules::MAX_MATCH_FILE_BYTES).unwrap() + 1, 0);
    std::fs::write(&path, bytes).unwrap();
    assert!(matches!(read_match_file(&path), Err(ReadMatchError::TooLarge { .. })));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn xg_text_is_refused_as_text() {
    let e = parse_match_text("RGMH\u{1}\u{0}").unwrap_err().to_string();
    assert!(e.contains("eXtreme Gammon") && e.contains("binary"), "{e}");
}
