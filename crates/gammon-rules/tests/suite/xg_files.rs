//! eXtreme Gammon `.xg` files: the real ones in the shared folder against
//! their `.mat` exports, small hand-made ones, and broken ones.

use gammon_rules::{read_match_file_until_error, MatError, MatchRecord};
use std::path::PathBuf;

fn real_dir() -> PathBuf {
    gammon_testkit::shared_dir().join("matches/xg")
}

fn real_files() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(real_dir())
        .unwrap_or_else(|e| panic!("{}: {e}", real_dir().display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "xg"))
        .collect();
    files.sort();
    files
}

#[test]
fn probe() {
    for f in real_files() {
        let (m, e): (MatchRecord, Option<MatError>) = read_match_file_until_error(&f).unwrap();
        let mat = read_match_file_until_error(f.with_extension("mat"));
        println!(
            "{}: {} games, err {:?}; mat: {:?}",
            f.display(),
            m.games.len(),
            e.map(|e| e.to_string()),
            mat.map(|(m, e)| (m.games.len(), e.map(|e| e.to_string())))
        );
        if let Some(s) = &m.stored {
            println!("  stored {}", s.records.len());
        }
    }
}
