//! `gammon review` and `gammon cube` against a hostile tester's files
//! (issue 26): huge names and lines, other encodings, other programs'
//! files, an owned cube of 1. Reviews run at 0 plies.

use crate::gammon;
use std::path::PathBuf;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-hostile-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A one-point match of one roll, with `name` on the left.
fn one_roll(name: &str) -> String {
    format!(" 1 point match\n\n Game 1\n {name} : 0     Bob : 0\n  1) 31: 8/5 6/5\n")
}

#[test]
fn a_megabyte_name_gives_a_small_report() {
    let dir = temp("name");
    let name = "N".repeat(1 << 20);
    let file = dir.join("name.mat");
    std::fs::write(&file, one_roll(&name)).unwrap();
    let html = dir.join("name.html");
    let out =
        gammon(&["review", file.to_str().unwrap(), "--ply", "0", "--cube-ply", "0", "--html", html.to_str().unwrap()]);
    assert!(out.success(), "{}", out.stderr);
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.len() < 200_000, "a {} byte page for a 1 MB name", page.len());
    assert!(page.contains(&format!("{}…", "N".repeat(64))), "the name is shown, cut");
    for args in [vec!["--json"], vec![]] {
        let mut all = vec!["review", file.to_str().unwrap(), "--ply", "0", "--cube-ply", "0"];
        all.extend(args);
        let out = gammon(&all);
        assert!(out.success(), "{}", out.stderr);
        assert!(out.stdout.len() < 100_000, "{all:?}: {} bytes", out.stdout.len());
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_huge_illegal_line_gives_a_one_line_error() {
    let dir = temp("line");
    let file = dir.join("line.mat");
    let moves = "8/5 ".repeat(1 << 20);
    std::fs::write(&file, format!(" 1 point match\n\n Game 1\n A : 0     B : 0\n  1) 31: {moves}\n")).unwrap();
    let out = gammon(&["review", file.to_str().unwrap(), "--ply", "0"]);
    assert!(!out.success());
    assert!(out.stderr.len() < 1_000, "{} bytes of error", out.stderr.len());
    assert!(out.stderr.contains("illegal move \"8/5 8/5"), "{}", out.stderr);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn utf16_and_bom_files_are_reviewed() {
    let dir = temp("utf16");
    let text = one_roll("Jörg").replace('\n', "\r");
    let mut le = vec![0xFF, 0xFE];
    le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    let bom = [b"\xEF\xBB\xBF".as_slice(), one_roll("Jörg").as_bytes()].concat();
    for (name, bytes) in [("le.mat", le), ("bom.mat", bom)] {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap();
        let out = gammon(&["review", file.to_str().unwrap(), "--ply", "0", "--cube-ply", "0", "--json"]);
        assert!(out.success(), "{name}: {}", out.stderr);
        assert!(out.stdout.contains("Jörg"), "{name}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn xg_and_ogxm_files_are_named_not_called_binary_junk() {
    let matches = gammon_testkit::shared_dir().join("matches");
    let first = |folder: &str, ext: &str| {
        let mut files: Vec<_> = std::fs::read_dir(matches.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        files.into_iter().next().unwrap_or_else(|| panic!("no .{ext} file in {folder}"))
    };
    // An OGXM file is read and reviewed.
    let out = gammon(&["review", first("ogxm", "ogxm").to_str().unwrap(), "--ply", "0", "--cube-ply", "0"]);
    assert!(out.success(), "{}", out.stderr);
    // An .xg file is read: the first one has an illegal play in its first
    // game, which stops the review naming game and move (no line: binary).
    let out = gammon(&["review", first("xg", "xg").to_str().unwrap()]);
    assert!(!out.success());
    assert!(out.stderr.contains("game 1, move 11") && out.stderr.contains("illegal move"), "{}", out.stderr);
    assert!(!out.stderr.contains("UTF-8") && !out.stderr.contains(": line "), "{}", out.stderr);
}

#[test]
fn an_owner_for_a_cube_of_one_is_refused_like_a_centred_cube_of_two() {
    let owned_one = gammon(&["cube", "start", "--owner", "me"]);
    assert!(!owned_one.success());
    assert!(
        owned_one.stderr.contains("--owner") && owned_one.stderr.contains("a cube of 1 is centred"),
        "{}",
        owned_one.stderr
    );
    let centred_two = gammon(&["cube", "start", "--cube", "2", "--owner", "centre"]);
    assert!(!centred_two.success() && centred_two.stderr.contains("--owner"), "{}", centred_two.stderr);
    // The consistent cases are accepted.
    assert!(gammon(&["cube", "start", "--owner", "centre"]).success());
    assert!(gammon(&["cube", "start", "--cube", "2", "--owner", "me"]).success());
    // An XGID with an owned cube of 1 is refused the same way.
    let xgid = gammon(&["cube", "XGID=-b----E-C---eE---c-e----B-:0:1:1:00:0:0:0:0:10"]);
    assert!(!xgid.success() && xgid.stderr.contains("a cube of 1 is centred"), "{}", xgid.stderr);
}
