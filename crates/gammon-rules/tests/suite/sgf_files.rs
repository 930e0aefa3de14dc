//! gnubg `.sgf` match files: the two real ones in the shared folder, small
//! hand-written ones, the same match read from `.mat` and `.sgf`, and
//! damaged files.

use crate::chain;
use gammon_rules::{parse_mat, parse_sgf, read_match_file, GameResult, GameText, MatAction, MatchRecord, Seat, WinHow};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)
}

fn text(name: &str) -> String {
    std::fs::read_to_string(data(name)).unwrap()
}

fn read(name: &str) -> MatchRecord {
    read_match_file(data(name)).unwrap_or_else(|e| panic!("{}", chain(&e)))
}

fn real(name: &str) -> PathBuf {
    gammon_testkit::shared_dir().join("matches/real").join(name)
}

/// The game trees of an SGF text, cut at each `(;` that starts a tree
/// (gnubg writes one per game; no value in these files holds `(;`).
fn trees(text: &str) -> Vec<&str> {
    text.split("(;").skip(1).collect()
}

/// Rolls written in a game tree, counted from the text alone: each
/// `;B[` or `;W[` node value that starts with two digits.
fn written_rolls(tree: &str) -> usize {
    let b = tree.as_bytes();
    (0..b.len().saturating_sub(4))
        .filter(|&i| {
            b[i] == b';'
                && matches!(b[i + 1], b'B' | b'W')
                && b[i + 2] == b'['
                && b[i + 3].is_ascii_digit()
                && b.get(i + 4).is_some_and(u8::is_ascii_digit)
        })
        .count()
}

/// The first value of `prop` in a tree's text (`PW[`, `[ws:` ...).
fn value_after<'a>(tree: &'a str, prop: &str) -> Option<&'a str> {
    let start = tree.find(prop)? + prop.len();
    tree[start..].split(']').next()
}

#[test]
fn the_real_sgf_files_import_with_their_games_rolls_players_and_scores() {
    for (name, games, length) in
        [("gnubgparser_charlot_7p.sgf", 4, 7), ("gnubgscripts_match1486073_analyzed.sgf", 2, 3)]
    {
        let path = real(name);
        let text = std::fs::read_to_string(&path).unwrap();
        let m = read_match_file(&path).unwrap_or_else(|e| panic!("{e}"));
        let trees = trees(&text);
        assert_eq!((m.games.len(), trees.len()), (games, games), "{name}: games");
        assert_eq!(m.match_length, length, "{name}");
        let players = [value_after(trees[0], "PW[").unwrap(), value_after(trees[0], "PB[").unwrap()];
        assert_eq!(m.players, players.map(String::from), "{name}: White is seat Zero");
        for (g, tree) in m.games.iter().zip(&trees) {
            assert_eq!(g.rolls(), written_rolls(tree), "{name}: game {} rolls", g.number);
            let ws: u32 = value_after(tree, "[ws:").unwrap().parse().unwrap();
            let bs: u32 = value_after(tree, "[bs:").unwrap().parse().unwrap();
            assert_eq!(g.score, [ws, bs], "{name}: score before game {}", g.number);
        }
        // The final score: the last game's score plus its result (`RE[W+3R]`).
        let last = trees.last().unwrap();
        let re = value_after(last, "RE[").unwrap();
        let points: u32 = re[2..].trim_end_matches('R').parse().unwrap();
        let mut expected = m.games.last().unwrap().score;
        expected[usize::from(re.starts_with('B'))] += points;
        let (winner, won) = m.games.last().unwrap().result.unwrap();
        let mut fin = m.games.last().unwrap().score;
        fin[winner.index()] += won;
        assert_eq!(fin, expected, "{name}: final score");
        assert!(fin.iter().any(|&s| s >= length), "{name}: the match is won");
    }
}

/// Two records of the same game, compared on what both formats write: who
/// acted, the position and cube before, and the action (the move's text
/// only when `with_text`: a hand-written `.mat` need not mark hits).
fn assert_same_games(a: &[GameText], b: &[GameText], with_text: bool, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: games");
    for (ga, gb) in a.iter().zip(b) {
        let g = ga.number;
        assert_eq!((ga.number, ga.score, ga.result), (gb.number, gb.score, gb.result), "{what}: game {g}");
        assert_eq!(ga.records.len(), gb.records.len(), "{what}: game {g} records");
        for (i, (ra, rb)) in ga.records.iter().zip(&gb.records).enumerate() {
            let at = format!("{what}: game {g} record {i}");
            assert_eq!((ra.player, ra.position, ra.cube), (rb.player, rb.position, rb.cube), "{at}");
            match (&ra.action, &rb.action) {
                (MatAction::Move { dice: da, mv: ma, .. }, MatAction::Move { dice: db, mv: mb, .. }) if !with_text => {
                    assert_eq!((da, ma), (db, mb), "{at}")
                }
                (x, y) => assert_eq!(x, y, "{at}"),
            }
        }
    }
}

#[test]
fn the_same_match_written_by_hand_in_both_formats_reads_the_same() {
    let sgf = read("three_point.sgf");
    let mat = read("three_point.mat");
    assert_eq!((&sgf.players, sgf.match_length, sgf.crawford), (&mat.players, mat.match_length, mat.crawford));
    assert_same_games(&sgf.games, &mat.games, false, "three_point");
}

/// gnubg's own `.mat` export of an SGF file, when gnubg is installed.
fn gnubg_export(sgf: &Path, dir: &Path) -> Option<String> {
    let gnubg = Path::new("/usr/games/gnubg");
    if !gnubg.exists() {
        return None;
    }
    let out = dir.join(format!("{}.mat", sgf.file_stem().unwrap().to_str().unwrap()));
    let script = format!(
        "set confirm new off\nset confirm save off\nload match {}\nexport match mat {}\nquit\n",
        sgf.display(),
        out.display()
    );
    let run = gammon_testkit::run(gnubg, &["-t", "-q"], script.as_bytes());
    assert!(run.success(), "gnubg failed on {}", sgf.display());
    Some(std::fs::read_to_string(&out).unwrap_or_else(|e| panic!("gnubg wrote no {}: {e}", out.display())))
}

#[test]
fn gnubg_exports_of_the_sgf_files_read_the_same_as_the_sgf() {
    let dir = std::env::temp_dir().join(format!("gammon-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let files =
        [real("gnubgparser_charlot_7p.sgf"), real("gnubgscripts_match1486073_analyzed.sgf"), data("three_point.sgf")];
    for sgf in files {
        let Some(mat_text) = gnubg_export(&sgf, &dir) else {
            eprintln!("gnubg is not installed: the hand-written cross-format test stands alone");
            break;
        };
        let from_sgf = read_match_file(&sgf).unwrap_or_else(|e| panic!("{e}"));
        let from_mat = parse_mat(&mat_text).unwrap_or_else(|e| panic!("gnubg's export of {}: {e}", sgf.display()));
        assert_eq!(from_sgf.players, from_mat.players);
        assert_eq!(from_sgf.match_length, from_mat.match_length);
        assert_eq!(from_sgf.headers, from_mat.headers, "{}", sgf.display());
        assert_eq!(from_sgf.crawford, from_mat.crawford);
        assert_same_games(&from_sgf.games, &from_mat.games, true, &sgf.display().to_string());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_three_point_match_with_both_cube_actions_crawford_and_a_resignation() {
    let m = read("three_point.sgf");
    assert_eq!(m.players, ["Alice".to_string(), "Bob".to_string()]);
    assert_eq!((m.match_length, m.crawford), (3, true));
    let headers: Vec<(&str, &str)> = m.headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(
        headers,
        [
            ("Event", "Test [cup]"),
            ("EventDate", "2026.12.02"),
            ("Round", "Final"),
            ("Site", "The club"),
            ("Transcriber", "Carol")
        ]
    );
    let results: Vec<_> = m.games.iter().map(|g| g.result).collect();
    assert_eq!(results, [Some((Seat::One, 2)), Some((Seat::Zero, 1)), Some((Seat::Zero, 1)), None]);
    assert_eq!(m.games.iter().map(|g| g.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let g1 = &m.games[0].records;
    assert!(matches!(g1[2].action, MatAction::Double { value: 2 }));
    assert_eq!(g1[3].action, MatAction::Take);
    assert!(matches!(g1[5].action, MatAction::Double { value: 4 }));
    assert_eq!(g1[6].action, MatAction::Drop);
    assert_eq!(g1[7].action, MatAction::Win { points: 2, how: WinHow::Passed });
    // Move numbers are node indexes: the root is 0, the first move 1.
    assert_eq!(g1[0].move_number, Some(1));
    assert_eq!(g1[6].move_number, Some(7));
    // `RE[W+1R]`: Bob resigned a single game.
    let g2 = &m.games[1].records;
    assert_eq!(g2[2].player, Seat::One);
    assert_eq!(g2[2].action, MatAction::Resign { points: 1, level: GameResult::Single });
    assert_eq!(g2[3].action, MatAction::Win { points: 1, how: WinHow::Resigned(GameResult::Single) });
    // Game 4: Bob's 66 hits Alice's blot with 13/7: written as gnubg's export writes it.
    let g4 = &m.games[3].records;
    assert!(matches!(&g4[2].action, MatAction::Move { text, .. } if text == "24/18 24/18 13/7* 13/7"), "{g4:?}");
}

#[test]
fn a_money_session_with_a_beaver() {
    let m = read("money.sgf");
    assert_eq!(m.match_length, 0);
    assert_eq!(m.games[0].result, Some((Seat::One, 1)));
    let g2 = &m.games[1];
    assert_eq!(g2.result, None);
    let actions: Vec<_> = g2.records.iter().map(|r| &r.action).collect();
    assert!(matches!(actions[1], MatAction::Double { value: 2 }));
    // gnubg's `B[double]` answering a double is a beaver; the doubler's `take` after it is part of it.
    assert_eq!(actions[2], &MatAction::Beaver);
    assert!(matches!(actions[3], MatAction::Move { .. }));
    assert_eq!(g2.records[3].cube.value, 4);
    assert_eq!(g2.rolls(), 2);
}

/// gnubg's `.mat` export of `money.sgf` (gnubg 1.07): a beaver is written
/// `Beavers => 4`, and the doubler's take of it is not written.
const MONEY_MAT: &str = " 0 point match

 Game 1
 Alice : 0                      Bob : 0
  1) 31: 8/5 6/5                  Doubles => 2
  2)  Drops                       Wins 1 point

 Game 2
 Alice : 0                      Bob : 1
  1)                             42: 8/4 6/4
  2)  Doubles => 2                Beavers => 4
  3) 31: 8/5 6/5
";

#[test]
fn a_beaver_reads_the_same_from_gnubgs_mat_export_and_from_sgf() {
    let mat = parse_mat(MONEY_MAT).unwrap_or_else(|e| panic!("{e}"));
    assert_same_games(&read("money.sgf").games, &mat.games, true, "money");
    // The beaver's value is checked: 4 times the cube before the double.
    let e = parse_mat(&MONEY_MAT.replace("Beavers => 4", "Beavers => 8")).unwrap_err().to_string();
    assert!(e.contains("beaver"), "{e}");
}

#[test]
fn an_illegal_move_names_the_file_game_node_player_and_reason() {
    let e = chain(&read_match_file(data("illegal.sgf")).unwrap_err());
    for part in ["illegal.sgf", "line 4", "game 1", "move 3", "(Alice)", "illegal move \"24/12\""] {
        assert!(e.contains(part), "{part:?} missing from {e}");
    }
}

#[test]
fn dice_out_of_range_and_cube_actions_out_of_turn_are_refused() {
    let good = text("three_point.sgf");
    let e = parse_sgf(&good.replacen("W[31hefe]", "W[71hefe]", 1)).unwrap_err().to_string();
    assert!(e.contains("dice 71") && e.contains("move 1"), "{e}");
    // Bob takes a double nobody offered.
    let e = parse_sgf(&good.replacen(";W[double]\n;B[take]", ";B[take]", 1)).unwrap_err();
    assert!(e.to_string().contains("a take out of turn"), "{e}");
    assert_eq!((e.place.game, e.place.move_number, e.place.player.as_deref()), (Some(1), Some(3), Some("Bob")));
    // A double in the Crawford game.
    let e = parse_sgf(&good.replacen(";W[31hefe]\n;B[61lrqr]", ";W[double]", 1)).unwrap_err().to_string();
    assert!(e.contains("game 2") && e.contains("Crawford"), "{e}");
    // The score of game 2 does not follow from game 1.
    let e = parse_sgf(&good.replacen("[ws:0][bs:2]", "[ws:0][bs:1]", 1)).unwrap_err().to_string();
    assert!(e.contains("does not follow"), "{e}");
    // A result that is not a resignation must be reached by the moves.
    let e = parse_sgf(&good.replacen("RE[W+1R]", "RE[W+1]", 1)).unwrap_err().to_string();
    assert!(e.contains("game 2") && e.contains("not over"), "{e}");
    // The file says the Crawford game where the score says otherwise.
    let e = parse_sgf(&good.replacen(
        "[ws:1][bs:2]PW[Alice]PB[Bob]RU[Crawford]",
        "[ws:1][bs:2]PW[Alice]PB[Bob]RU[Crawford:CrawfordGame]",
        1,
    ))
    .unwrap_err()
    .to_string();
    assert!(e.contains("game 3") && e.contains("Crawford game"), "{e}");
}

#[test]
fn crlf_reads_as_lf() {
    let text = text("three_point.sgf");
    assert_eq!(parse_sgf(&text.replace('\n', "\r\n")).unwrap(), parse_sgf(&text).unwrap());
}

#[test]
fn a_file_that_starts_mid_match_starts_at_its_first_score() {
    let good = text("three_point.sgf");
    let from_game_3 = &good[good.find("(;FF[4]GM[6]CA[UTF-8]AP[hand-written]MI[length:3][game:2]").unwrap()..];
    let m = parse_sgf(from_game_3).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(m.games.iter().map(|g| g.number).collect::<Vec<_>>(), [3, 4]);
    assert_eq!(m.games[1].score, [2, 2]);
    // Post-Crawford at 1-2: Alice may double.
    assert!(matches!(m.games[0].records[0].action, MatAction::Double { value: 2 }));
}

#[test]
fn truncated_files_are_refused_with_the_reason() {
    let good = text("three_point.sgf");
    let last_tree = good.rfind("(;").unwrap();
    for cut in [last_tree + 1, last_tree + 40, good.len() - 8, good.len() - 2] {
        let e = parse_sgf(&good[..cut]).unwrap_err().to_string();
        assert!(e.contains("truncated"), "cut at {cut}: {e}");
    }
    assert!(parse_sgf("").is_err());
    assert!(parse_sgf("(;)").is_err(), "no GM[6]");
}

#[test]
fn escaped_brackets_comments_and_variations() {
    let m = read("comments.sgf");
    assert_eq!(m.players, ["Al ] ice".to_string(), "B\\ob".to_string()]);
    assert_eq!(m.headers.get("Site").map(String::as_str), Some("Club [1]"));
    let g = &m.games[0];
    // The main line only: the first variation (24/13), not the second (24/18).
    assert_eq!(g.rolls(), 3);
    assert!(matches!(&g.records[2].action, MatAction::Move { text, .. } if text == "24/13"), "{:?}", g.records[2]);
}

#[test]
fn set_positions_other_games_and_variants_are_refused() {
    let base = "(;GM[6]MI[length:3][game:0][ws:0][bs:0]PW[A]PB[B]";
    for (tail, why) in [
        ("\n;AE[a:y]AW[a][a]AB[x][x])", "set position"),
        ("\n;CV[2])", "set position"),
        ("RU[Nackgammon]\n;W[31hefe])", "Nackgammon"),
        ("CV[2]\n;W[31hefe])", "automatic doubles"),
        ("\n;PL[B]DI[31]\n;W[31hefe])", "dice set before"),
        ("\n;W[31hef])", "move 1 (A): cannot read the move"),
        ("\n;W[31hefe]B[42qusu])", "more than one move"),
        ("\n;W[31hefe][42hdfd])", "more than one move"),
    ] {
        let e = parse_sgf(&format!("{base}{tail}")).unwrap_err().to_string();
        assert!(e.contains(why), "{tail}: {e}");
    }
    assert!(parse_sgf(&format!("{base}\n;PL[W]DI[31]\n;W[31hefe])")).is_ok());
    let e = parse_sgf("(;GM[1]PW[A]PB[B])").unwrap_err().to_string();
    assert!(e.contains("not a backgammon game"), "{e}");
}

#[test]
fn read_match_file_chooses_the_format_by_content() {
    let dir = std::env::temp_dir().join(format!("gammon-sgf-by-content-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // An SGF named .mat (after blank lines) and a .mat named .sgf.
    let sgf_as_mat = dir.join("match.mat");
    let sgf_text = format!("\n  \n{}", text("three_point.sgf"));
    std::fs::write(&sgf_as_mat, &sgf_text).unwrap();
    let mat_as_sgf = dir.join("match.sgf");
    std::fs::write(&mat_as_sgf, text("three_point.mat")).unwrap();
    let a = read_match_file(&sgf_as_mat).unwrap_or_else(|e| panic!("{e}"));
    let b = read_match_file(&mat_as_sgf).unwrap_or_else(|e| panic!("{e}"));
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(a, parse_sgf(&sgf_text).unwrap());
    assert_eq!(b, read("three_point.mat"));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]
    /// The reader never panics on a damaged file (hand-written SGF with
    /// random cuts, insertions and replacements of the characters SGF
    /// files are made of), and what it accepts replays to consistent boards.
    #[test]
    fn damaged_sgf_is_refused_or_replayed_never_a_panic(
        file in 0usize..4,
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..8, "[a-zA-Z0-9();:\\[\\]\\\\+ \n]{0,6}"), 1..6),
    ) {
        let names = ["three_point.sgf", "money.sgf", "illegal.sgf", "comments.sgf"];
        let mut text = text(names[file]);
        for (at, cut, insert) in edits {
            let mut i = ((text.len() as f64) * at) as usize;
            while !text.is_char_boundary(i) {
                i -= 1;
            }
            let mut end = (i + cut).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.replace_range(i..end, &insert);
        }
        if let Ok(record) = parse_sgf(&text) {
            for game in &record.games {
                for entry in &game.records {
                    proptest::prop_assert!(entry.position.is_consistent());
                }
            }
        }
    }
}
