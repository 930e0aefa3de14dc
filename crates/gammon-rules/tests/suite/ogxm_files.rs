//! OGXM files: the real ones in the shared folder, files the reference
//! codec writes from small JSON documents, gammon's writer read back by the
//! codec and by gammon, and damaged files.

use gammon_rules::{read_ogxm, read_ogxm_until_error};
use std::path::PathBuf;

fn ogxm_dir() -> PathBuf {
    gammon_testkit::shared_dir().join("matches/ogxm")
}

fn real_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(ogxm_dir())
        .unwrap_or_else(|e| panic!("{e}: the OGXM files are the shared folder's matches/ogxm"))
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    files
}

#[test]
fn every_real_file_reads() {
    for path in real_files() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        match read_ogxm_until_error(&bytes) {
            Ok((m, e)) => {
                let rolls: usize = m.games.iter().map(|g| g.rolls()).sum();
                let stored = m.stored.as_ref().map(|s| (s.program.clone(), s.records.len()));
                eprintln!("{name}: {} games, {rolls} rolls, stored {stored:?}, error {e:?}", m.games.len());
            }
            Err(e) => eprintln!("{name}: {e}"),
        }
        let _ = read_ogxm(&bytes);
    }
}
