//! Match files and position texts built to hurt: huge lines and names,
//! other encodings and other programs' files, rules pushed to their edges
//! (issue 26).

use crate::chain;
use gammon_rules::{
    parse_mat, parse_match_text, parse_position_text, parse_sgf, read_match_file, Dice, MatchRecord, Position,
    ReadMatchError, Xgid,
};
use std::path::Path;

/// A message short enough to read: the longest quote is 80 characters.
fn assert_short(message: &str) {
    assert!(message.len() < 400, "{} bytes: {}…", message.len(), &message[..400.min(message.len())]);
}

const ONE_POINT: &str = " 1 point match\n\n Game 1\n A : 0         B : 0\n";

#[test]
fn a_huge_illegal_move_line_gives_a_short_error() {
    let moves = "8/5 ".repeat(250_000);
    let text = format!("{ONE_POINT}  1) 31: {moves}\n");
    let e = parse_mat(&text).unwrap_err().to_string();
    assert_short(&e);
    assert!(e.contains("illegal move \"8/5 8/5") && e.contains("characters)"), "{e}");
}

#[test]
fn huge_unreadable_words_give_short_errors() {
    let junk = "x".repeat(1_000_000);
    for text in [
        format!("{junk} point match\n"),
        format!(" 1 point match\n\n Game {junk}\n"),
        format!(" 1 point match\n\n Game 1\n {junk}\n"),
        format!("{ONE_POINT}  1) {junk}\n"),
        format!("{ONE_POINT}  1) 31: 8/5 6/5   Doubles => {junk}\n"),
        format!("{ONE_POINT}  1) 31: 8/5 6/5\n      Wins {junk} point\n"),
    ] {
        let e = parse_mat(&text).unwrap_err().to_string();
        assert_short(&e);
        assert!(e.contains("xxxxxxxx"), "the quote shows the start of what is refused: {e}");
    }
}

#[test]
fn a_huge_player_name_is_cut_in_errors() {
    let name = "N".repeat(1_000_000);
    let text = format!(" 1 point match\n\n Game 1\n {name} : 0         B : 0\n  1) 31: 8/3\n");
    let e = parse_mat(&text).unwrap_err().to_string();
    assert_short(&e);
    assert!(e.contains(&format!("({}…)", "N".repeat(64))), "{e}");
}

#[test]
fn huge_sgf_values_give_short_errors() {
    let junk = "q".repeat(1_000_000);
    let upper = "Q".repeat(1_000_000);
    for text in [
        format!("(;GM[{junk}])"),
        format!("(;GM[6]MI[length:{junk}])"),
        format!("(;GM[6]RE[{junk}])"),
        format!("(;GM[6]CV[{junk}])"),
        format!("(;GM[6]MI[length:1]PW[A]PB[B];B[{junk}])"),
        format!("(;GM[6]MI[length:1]PW[A]PB[B];PL[B]DI[{junk}];B[31qtst])"),
        format!("(;GM[6];{upper})"),
    ] {
        let e = parse_sgf(&text).unwrap_err().to_string();
        assert_short(&e);
    }
}

#[test]
fn huge_positions_and_moves_give_short_errors() {
    let junk = "Z".repeat(1_000_000);
    for text in [junk.clone(), format!("XGID={junk}:0:0:1:00:0:0:0:0:10"), format!("{junk}:{junk}")] {
        let e = parse_position_text(&text).unwrap_err();
        assert_short(&chain(&e));
    }
    let xgid = format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:{junk}:0:0:0:0:10");
    assert_short(&chain(&Xgid::parse(&xgid).unwrap_err()));
    let dice: Result<Dice, _> = junk.parse();
    assert_short(&chain(&dice.unwrap_err()));
    let bad_move = gammon_rules::parse_move(&Position::STARTING, "31".parse().unwrap(), &junk).unwrap_err();
    assert_short(&chain(&bad_move));
}

/// A folder of its own for one test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-hostile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn utf16(text: &str, little_endian: bool) -> Vec<u8> {
    let mut bytes = if little_endian { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
    for unit in text.encode_utf16() {
        bytes.extend(if little_endian { unit.to_le_bytes() } else { unit.to_be_bytes() });
    }
    bytes
}

fn sample(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)).unwrap()
}

#[test]
fn a_match_file_reads_the_same_in_every_encoding_and_line_end() {
    let dir = scratch("encodings");
    for name in ["three_point.mat", "three_point.sgf"] {
        let text = sample(name);
        let expected = parse_match_text(&text).unwrap();
        let lf = text.replace("\r\n", "\n");
        let variants: [(&str, Vec<u8>); 6] = [
            ("utf8-bom", [b"\xEF\xBB\xBF".as_slice(), text.as_bytes()].concat()),
            ("utf16le", utf16(&text, true)),
            ("utf16be", utf16(&text, false)),
            ("crlf", lf.replace('\n', "\r\n").into_bytes()),
            ("cr", lf.replace('\n', "\r").into_bytes()),
            ("utf16le-cr-bom", utf16(&format!("\u{feff}{}", lf.replace('\n', "\r")), true)),
        ];
        for (how, bytes) in variants {
            let path = dir.join(format!("{how}-{name}"));
            std::fs::write(&path, &bytes).unwrap();
            let read = read_match_file(&path).unwrap_or_else(|e| panic!("{how} {name}: {}", chain(&e)));
            assert_eq!(read.games.len(), expected.games.len(), "{how} {name}");
            assert_eq!(read.players, expected.players, "{how} {name}");
            let moves = |m: &MatchRecord| m.games.iter().map(|g| g.records.len()).collect::<Vec<_>>();
            assert_eq!(moves(&read), moves(&expected), "{how} {name}");
            // An upload (text already read) gets the same treatment.
            if let Ok(text) = String::from_utf8(bytes) {
                assert_eq!(parse_match_text(&text).unwrap().games.len(), expected.games.len(), "{how} {name}");
            }
        }
    }
    // A BOM before SGF text is still SGF (it was read as .mat).
    let bom_sgf = format!("\u{feff}{}", sample("three_point.sgf"));
    assert!(parse_match_text(&bom_sgf).is_ok());
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn other_programs_files_are_named_by_their_content() {
    let shared = gammon_testkit::shared_dir().join("matches");
    let first = |folder: &str, ext: &str| {
        let mut files: Vec<_> = std::fs::read_dir(shared.join(folder))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == ext))
            .collect();
        files.sort();
        files.into_iter().next().unwrap_or_else(|| panic!("no .{ext} file in {folder}"))
    };
    let dir = scratch("kinds");
    for (path, says) in [
        (first("xg", "xg"), "an eXtreme Gammon .xg file"),
        (first("ogxm", "ogxm"), "an OGXM binary match file"),
        (first("ogxm", "gvab"), "an OGXM binary match file"),
    ] {
        // The content decides, not the name.
        let renamed = dir.join("match.mat");
        std::fs::copy(&path, &renamed).unwrap();
        for p in [&path, &renamed] {
            let e = read_match_file(p).unwrap_err();
            assert!(matches!(e, ReadMatchError::NotReadYet { .. }), "{}: {e:?}", p.display());
            assert!(e.to_string().contains(says) && e.to_string().contains("not read yet"), "{e}");
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
    let e = parse_match_text("RGMH\u{1}\u{0}").unwrap_err().to_string();
    assert!(e.contains("eXtreme Gammon") && e.contains("not read yet"), "{e}");
}

#[test]
fn binary_junk_is_not_text() {
    let dir = scratch("junk");
    let path = dir.join("junk.mat");
    std::fs::write(&path, [0x00, 0xC3, 0x28, 0xFF]).unwrap();
    let e = read_match_file(&path).unwrap_err();
    assert!(matches!(e, ReadMatchError::NotText { .. }), "{e:?}");
    std::fs::remove_dir_all(dir).unwrap();
}
