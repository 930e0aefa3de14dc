//! `.mat` match files: small hand-written ones, and every real file in the
//! shared folder, replayed through the rules.

use crate::chain;
use gammon_rules::{parse_mat, read_match_file, GameResult, MatAction, MatchRecord, Seat, WinHow};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)
}

pub fn read(name: &str) -> MatchRecord {
    read_match_file(data(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// Rolls written in each game, counted from the text alone: every
/// `DD:` token (two digits and a colon) after the `Game K` line.
fn written_rolls(text: &str) -> Vec<usize> {
    let mut counts = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Game ") {
            counts.push(0);
            continue;
        }
        if let Some(c) = counts.last_mut() {
            *c += t
                .split_whitespace()
                .filter(|w| {
                    let b = w.as_bytes();
                    b.len() >= 3 && b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b':'
                })
                .count();
        }
    }
    counts
}

/// The score line under each `Game K`: `name : a    name : b`.
fn written_scores(text: &str) -> Vec<[u32; 2]> {
    let lines: Vec<&str> = text.lines().collect();
    let mut scores = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim().starts_with("Game ") {
            let next = lines[i + 1..].iter().find(|l| !l.trim().is_empty()).unwrap();
            let parts: Vec<&str> = next.split(':').collect();
            let a = parts[1].split_whitespace().next().unwrap().parse().unwrap();
            let b = parts.last().unwrap().trim().parse().unwrap();
            scores.push([a, b]);
        }
    }
    scores
}

fn check_counts(text: &str, m: &MatchRecord, what: &str) {
    let rolls = written_rolls(text);
    assert_eq!(m.games.len(), rolls.len(), "{what}: games");
    for (g, n) in m.games.iter().zip(&rolls) {
        assert_eq!(g.rolls(), *n, "{what}: game {} rolls", g.number);
    }
    let scores = written_scores(text);
    for (i, g) in m.games.iter().enumerate().skip(1) {
        let (winner, points) = m.games[i - 1].result.unwrap_or_else(|| panic!("{what}: game {} unfinished", i));
        let mut s = scores[i - 1];
        s[winner.index()] += points;
        assert_eq!(g.score, s, "{what}: score before game {}", g.number);
        assert_eq!(scores[i], s, "{what}: written score before game {}", g.number);
    }
}

#[test]
fn every_real_match_file_imports_with_its_rolls_and_scores() {
    let dir = gammon_testkit::shared_dir().join("matches/real");
    let mut seen = 0;
    let mut failures = Vec::new();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the real match files are the shared folder's matches/real (see README.md, Test)",
            dir.display()
        )
    });
    for entry in entries {
        let path = entry.unwrap_or_else(|e| panic!("{}: {e}", dir.display())).path();
        if !matches!(path.extension().and_then(|e| e.to_str()), Some("mat" | "txt")) {
            continue;
        }
        seen += 1;
        match read_match_file(&path) {
            Ok(m) => check_counts(&std::fs::read_to_string(&path).unwrap(), &m, &path.display().to_string()),
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(seen >= 18, "only {seen} real match files in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_three_point_match_with_cube_crawford_resignation_and_an_unfinished_game() {
    let m = read("three_point.mat");
    assert_eq!(m.players, ["Alice".to_string(), "Bob".to_string()]);
    assert_eq!((m.match_length, m.crawford), (3, true));
    assert_eq!(m.headers.get("Site").map(String::as_str), Some("hand-written"));
    let results: Vec<_> = m.games.iter().map(|g| g.result).collect();
    assert_eq!(results, [Some((Seat::One, 2)), Some((Seat::Zero, 1)), Some((Seat::Zero, 1)), None]);
    let g1 = &m.games[0].records;
    assert!(matches!(g1[2].action, MatAction::Double { value: 2 }));
    assert!(matches!(g1[5].action, MatAction::Double { value: 4 }));
    assert_eq!(g1[6].action, MatAction::Drop);
    assert_eq!(g1[7].action, MatAction::Win { points: 2, how: WinHow::Passed });
    // Game 2 ends with `Wins` before it is over: Bob resigned a single game.
    let g2 = &m.games[1].records;
    assert_eq!(g2[2].player, Seat::One);
    assert_eq!(g2[2].action, MatAction::Resign { points: 1, level: GameResult::Single });
    // The position before Bob's first move in game 4 is the start; Alice's reply sees his 8/5 6/5.
    let g4 = &m.games[3].records;
    assert_eq!(g4[0].player, Seat::One);
    assert_eq!(g4[0].position, gammon_rules::Position::STARTING);
    assert_ne!(g4[1].position, gammon_rules::Position::STARTING);
    assert!(matches!(g4[2].action, MatAction::Move { .. }));
    let text = std::fs::read_to_string(data("three_point.mat")).unwrap();
    check_counts(&text, &m, "three_point.mat");
}

#[test]
fn crlf_reads_as_lf() {
    let text = std::fs::read_to_string(data("three_point.mat")).unwrap();
    assert_eq!(parse_mat(&text.replace('\n', "\r\n")).unwrap(), parse_mat(&text).unwrap());
}

#[test]
fn a_money_session() {
    let m = read("money.mat");
    assert_eq!(m.match_length, 0);
    assert_eq!(m.games[0].result, Some((Seat::One, 1)));
    assert_eq!(m.games[1].result, None);
    assert_eq!(m.games[1].rolls(), 1);
}

#[test]
fn an_illegal_move_names_the_file_game_move_player_and_reason() {
    let e = chain(&read_match_file(data("illegal.mat")).unwrap_err());
    for part in ["illegal.mat", "line 6", "game 1", "move 2", "(Alice)", "illegal move \"24/12\""] {
        assert!(e.contains(part), "{part:?} missing from {e}");
    }
}

#[test]
fn a_double_in_the_crawford_game_is_refused() {
    let e = chain(&read_match_file(data("crawford_double.mat")).unwrap_err());
    assert!(e.contains("game 2") && e.contains("(Bob)") && e.contains("Crawford"), "{e}");
}

#[test]
fn bad_dice_and_truncated_text_are_refused() {
    let good = std::fs::read_to_string(data("money.mat")).unwrap();
    let e = parse_mat(&good.replace("31: 8/5", "71: 8/5")).unwrap_err().to_string();
    assert!(e.contains("dice 71") && e.contains("move 1"), "{e}");
    assert!(parse_mat(" 3 point match\n").is_err());
    assert!(parse_mat(&good.replace("Doubles => 2", "Doubles => 4")).is_err());
    let e = parse_mat(&good.replace("Wins 1 point", "Wins 2 points")).unwrap_err().to_string();
    assert!(e.contains("wins 2 points"), "{e}");
}

#[test]
fn a_missing_file_is_named_once_with_the_reason_once() {
    let e = chain(&read_match_file(data("no-such-file.mat")).unwrap_err());
    assert_eq!(e.matches("no-such-file.mat").count(), 1, "{e}");
    assert_eq!(e.matches("No such file or directory").count(), 1, "{e}");
}

#[cfg(unix)]
#[test]
fn a_named_pipe_is_refused_without_waiting_for_a_writer() {
    let dir = std::env::temp_dir().join(format!("gammon-mat-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("pipe.mat");
    let _ = std::fs::remove_file(&fifo);
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let e = chain(&read_match_file(&fifo).unwrap_err());
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(e.contains("not a regular file"), "{e}");
}

#[test]
fn a_directory_is_refused() {
    let e = chain(&read_match_file(data("")).unwrap_err());
    assert!(e.contains("not a regular file") || e.contains("Is a directory"), "{e}");
}

#[test]
fn crawford_off_allows_the_double_after_one_away() {
    let text = std::fs::read_to_string(data("crawford_double.mat")).unwrap();
    let m = parse_mat(&format!("; [Crawford \"Off\"]\n{text}")).unwrap_or_else(|e| panic!("{e}"));
    assert!(!m.crawford);
    assert!(matches!(m.games[1].records[0].action, MatAction::Double { value: 2 }));
}

#[test]
fn real_files_have_dances_and_resignations() {
    let dir = gammon_testkit::shared_dir().join("matches/real");
    let m = read_match_file(dir.join("bglib_DianaIN-bgnori_5p.mat")).unwrap();
    // Game 1 ends `Wins 2 points` with the cube at 2 before bgnori has borne off: DianaIN resigned a single game.
    let last = &m.games[0].records[m.games[0].records.len() - 2..];
    assert_eq!(last[0].player, Seat::Zero);
    assert_eq!(last[0].action, MatAction::Resign { points: 2, level: GameResult::Single });
    assert_eq!(last[1].action, MatAction::Win { points: 2, how: WinHow::Resigned(GameResult::Single) });
    // Galaxy writes a resignation as `Losses N point` then the winner's `Wins`.
    let g = read_match_file(dir.join("galaxy_match9034558_17p.txt")).unwrap();
    assert!(g.games.iter().flat_map(|g| &g.records).any(|r| matches!(r.action, MatAction::Resign { .. })));
    // Galaxy's `Cannot Move` and FIBS's bare `66:` are dances.
    for name in ["galaxy_match9034558_17p.txt", "fibs_Kalagh-nori_3p.mat"] {
        let m = read_match_file(dir.join(name)).unwrap();
        assert!(m.games.iter().flat_map(|g| &g.records).any(|r| matches!(r.action, MatAction::Dance { .. })), "{name}");
    }
}

#[test]
fn cube_actions_out_of_turn_are_refused() {
    let text = std::fs::read_to_string(data("three_point.mat")).unwrap();
    // Bob takes a double nobody offered.
    let e =
        parse_mat(&text.replace("  2)  Doubles => 2               Takes", "  2)                             Takes"))
            .unwrap_err();
    assert!(e.to_string().contains("a take out of turn"), "{e}");
    assert_eq!((e.place.game, e.place.move_number, e.place.player.as_deref()), (Some(1), Some(2), Some("Bob")));
    // Alice doubles again when Bob owns the cube.
    let e = parse_mat(&text.replace("52: 13/8 13/11               Doubles => 4", " Doubles => 4")).unwrap_err();
    assert!(e.to_string().contains("may not double"), "{e}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 256, ..Default::default() })]
    /// The reader never panics on a damaged file (a hand-written match with
    /// random cuts, insertions and replacements of the characters match
    /// files are made of), and what it accepts replays to consistent boards.
    #[test]
    fn damaged_files_are_refused_or_replayed_never_a_panic(
        file in 0usize..4,
        edits in proptest::collection::vec((0.0f64..1.0, 0usize..8, "[0-9/*:() \n=>a-zA-Z-]{0,6}"), 1..6),
    ) {
        let names = ["three_point.mat", "money.mat", "illegal.mat", "crawford_double.mat"];
        let mut text = std::fs::read_to_string(data(names[file])).unwrap();
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
        if let Ok(record) = parse_mat(&text) {
            for game in &record.games {
                for entry in &game.records {
                    proptest::prop_assert!(entry.position.is_consistent());
                }
            }
        }
    }
}

#[test]
fn each_game_carries_the_match_state_it_was_played_in() {
    let text = std::fs::read_to_string(data("three_point.mat")).unwrap();
    let m = parse_mat(&text).unwrap();
    let mut crawford_games = 0;
    for (game, next) in m.games.iter().zip(m.games.iter().skip(1)) {
        // The score the file writes before each game is the state's.
        assert_eq!(game.state.score(), game.score);
        assert_eq!(next.state.score(), next.score);
        let away = game.state.away().unwrap();
        let earlier_one_away = m.games.iter().take_while(|g| g.number < game.number).any(|g| {
            let a = g.state.away().unwrap();
            a[0] == 1 || a[1] == 1
        });
        // The Crawford game is the first game played with a player one away.
        assert_eq!(game.state.is_crawford(), (away[0] == 1 || away[1] == 1) && !earlier_one_away);
        crawford_games += usize::from(game.state.is_crawford());
    }
    assert_eq!(crawford_games, 1, "three_point.mat has a Crawford game");
    assert_eq!(m.rules.length, 3);
}

#[test]
fn until_error_keeps_the_games_before_the_bad_one() {
    let text = std::fs::read_to_string(data("three_point.mat")).unwrap();
    let whole = parse_mat(&text).unwrap();
    // Game 2's first move made illegal: 31 cannot play 8/4.
    let bad = text.replacen(
        "  1) 31: 8/5 6/5                 61: 13/7 8/7",
        "  1) 31: 8/4 6/5                 61: 13/7 8/7",
        1,
    );
    assert_ne!(bad, text);
    let err = parse_mat(&bad).unwrap_err();
    assert_eq!(err.place.game, Some(2));
    let (before, error) = gammon_rules::parse_mat_until_error(&bad).unwrap();
    assert_eq!(error, Some(err));
    assert_eq!(before.games.len(), 1);
    assert_eq!(before.games[0], whole.games[0]);
    let (all, none) = gammon_rules::parse_mat_until_error(&text).unwrap();
    assert_eq!((all, none), (whole, None));
}

/// Every real file of the shared folder (.mat, .txt, .sgf, .xg, OGXM), and
/// the hand-made ones, read from its bytes as from the file: the same
/// record with the same stored analysis, or the same reason without the
/// path.
#[test]
fn a_match_file_s_bytes_read_as_the_file() {
    use gammon_rules::{parse_match_bytes_with_analysis, read_match_file_with_analysis};
    let equity = crate::ogxm_files::kazaross();
    let shared = gammon_testkit::shared_dir().join("matches");
    let mut files = Vec::new();
    for dir in [shared.join("real"), shared.join("xg"), shared.join("ogxm"), data("")] {
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            files.push(entry.unwrap().path());
        }
    }
    files.retain(|p| p.is_file() && !p.extension().is_some_and(|e| e == "json" || e == "md"));
    let (mut read, mut refused) = (0, 0);
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        match (read_match_file_with_analysis(path, equity), parse_match_bytes_with_analysis(&bytes, equity)) {
            (Ok(file), Ok(upload)) => {
                assert_eq!(file, upload, "{}", path.display());
                read += 1;
            }
            (Err(file), Err(upload)) => {
                let file = chain(&file);
                let reason = chain(&upload);
                let reason = reason.strip_prefix("in the eXtreme Gammon file: ").unwrap_or(&reason);
                let reason = reason.strip_prefix("in the OGXM file: ").unwrap_or(reason);
                assert!(file.ends_with(reason), "{}: {file} / {reason}", path.display());
                refused += 1;
            }
            (file, upload) => panic!("{}: {:?} / {:?}", path.display(), file.err(), upload.err()),
        }
        // And the games before the first that does not replay.
        let file = gammon_rules::read_match_file_until_error_with_analysis(path, equity);
        let upload = gammon_rules::parse_match_bytes_until_error_with_analysis(&bytes, equity);
        match (file, upload) {
            (Ok((a, e)), Ok((b, f))) => assert_eq!((a, e), (b, f), "{}", path.display()),
            (Err(_), Err(_)) => {}
            (file, upload) => panic!("{}: {:?} / {:?}", path.display(), file.err(), upload.err()),
        }
    }
    assert!(read >= 40 && refused >= 5, "{read} read, {refused} refused");
    let too_large = vec![b' '; gammon_rules::MAX_MATCH_FILE_BYTES as usize + 1];
    assert!(parse_match_bytes_with_analysis(&too_large, equity).unwrap_err().to_string().starts_with("larger than"));
    // Bytes that are not text: both refuse them as not text.
    let bytes = b"\x80\x81 not UTF-8 \xfe";
    let e = parse_match_bytes_with_analysis(bytes, equity).unwrap_err().to_string();
    assert!(e.starts_with("not a match file: not text"), "{e}");
    let path = std::env::temp_dir().join(format!("gammon-not-text-{}.mat", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    let e = read_match_file_with_analysis(&path, equity).unwrap_err().to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(e.ends_with(": not text (UTF-8, or UTF-16 with a byte order mark)"), "{e}");
}
