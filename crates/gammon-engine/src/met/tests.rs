//! The XML reader of match equity tables (`xml.rs`), and its file errors.
#![allow(clippy::unwrap_used)]

use super::*;

/// A table in gnubg's layout: `pre` rows, one `post` row.
fn xml(name: &str, pre: &[&[&str]], post: &[&str]) -> String {
    let row = |r: &[&str]| format!("<row>{}</row>", r.iter().map(|v| format!("<me>{v}</me>")).collect::<String>());
    let pre: String = pre.iter().map(|r| row(r)).collect();
    format!(
        "<?xml version=\"1.0\"?>\n<!DOCTYPE met PUBLIC \"-//GNU Backgammon//DTD Match Equity Tables//EN\" \"met.dtd\">\n\
         <met><info><name>{name}</name><description>d</description><length>2</length></info>\
         <pre-crawford-table type=\"explicit\">{pre}</pre-crawford-table>\
         <post-crawford-table type=\"explicit\" player=\"both\">{}</post-crawford-table></met>",
        row(post)
    )
}

#[test]
fn reads_an_explicit_table_with_its_name() {
    let met = Met::parse_xml(&xml("Two &amp; two", &[&["0.5", "0.7"], &["0.3", "0.5"]], &["0.5", "0.49"])).unwrap();
    assert_eq!((met.name(), met.max_away()), ("Two & two", 2));
    assert_eq!((met.mwc(1, 2), met.mwc(2, 1), met.post_crawford(2)), (0.7, 0.3, 0.49));
}

#[test]
fn a_short_post_crawford_row_cuts_the_table() {
    let met = Met::parse_xml(&xml("cut", &[&["0.5", "0.7"], &["0.3", "0.5"]], &["0.5"])).unwrap();
    assert_eq!(met.max_away(), 1);
}

#[test]
fn refusals_say_why() {
    let bad = Met::parse_xml(&xml("x", &[&["0.5", "1.2"], &["0.3", "0.5"]], &["0.5", "0.4"])).unwrap_err();
    assert_eq!(bad, MetError::Entry { table: "pre-crawford", row: 1, entry: 2, text: "1.2".into() });
    assert!(matches!(Met::parse_xml("<met>"), Err(MetError::Xml(_))));
    assert_eq!(Met::parse_xml("<table/>"), Err(MetError::Missing("met")));
    let zadeh = "<met><pre-crawford-table type=\"zadeh\"><parameters/></pre-crawford-table></met>";
    assert_eq!(Met::parse_xml(zadeh), Err(MetError::Formula { table: "pre-crawford", kind: "zadeh".into() }));
    let per_player = xml("p", &[&["0.5"]], &["0.5"]).replace("player=\"both\"", "player=\"0\"");
    assert_eq!(Met::parse_xml(&per_player), Err(MetError::PerPlayer("0".into())));
    let ragged = Met::parse_xml(&xml("r", &[&["0.5", "0.7"], &["0.3"]], &["0.5", "0.4"])).unwrap_err();
    assert!(matches!(ragged, MetError::Shape { rows: 2, .. }), "{ragged}");
}

#[test]
fn a_file_error_names_the_file() {
    let dir = tempfile_dir();
    let missing = dir.join("absent.xml");
    let e = Met::read_xml_file(&missing).unwrap_err().to_string();
    assert!(e.starts_with(&format!("match equity table: cannot read {}: ", missing.display())), "{e}");
    let big = dir.join("big.xml");
    std::fs::write(&big, vec![b' '; usize::try_from(MAX_MET_FILE_BYTES).unwrap() + 1]).unwrap();
    let e = Met::read_xml_file(&big).unwrap_err().to_string();
    assert!(e.contains(&format!("{} is larger than", big.display())), "{e}");
    let bad = dir.join("bad.xml");
    std::fs::write(&bad, "<met>").unwrap();
    let e = crate::api::error_chain(&Met::read_xml_file(&bad).unwrap_err());
    assert!(e.starts_with(&format!("match equity table {}: it is not well-formed XML", bad.display())), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("gammon-met-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
