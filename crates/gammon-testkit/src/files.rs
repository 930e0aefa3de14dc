//! The shared data folders and reading their files.

use serde::de::DeserializeOwned;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file read (the biggest oracle file is about 3 MB): a wrong
/// path to a huge file fails at once instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// The `shared` folder beside the repository; `$GAMMON_SHARED` overrides it.
pub fn shared_dir() -> PathBuf {
    std::env::var_os("GAMMON_SHARED")
        .map_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"), PathBuf::from)
}

/// The GNU Backgammon oracle folder: `$GAMMON_ORACLE`, else `oracle` in
/// [`shared_dir`].
///
/// # Panics
/// If the folder does not exist: the oracle is part of the test
/// environment, so a missing one fails the test instead of skipping it.
pub fn oracle_dir() -> PathBuf {
    let dir = std::env::var_os("GAMMON_ORACLE").map_or_else(|| shared_dir().join("oracle"), PathBuf::from);
    assert!(
        dir.is_dir(),
        "the oracle folder {} is missing: the tests need it (set GAMMON_ORACLE to the oracle folder)",
        dir.display()
    );
    dir
}

/// The text of a file of at most [`MAX_FILE_BYTES`].
///
/// # Panics
/// If the file cannot be read, is larger, or is not UTF-8.
pub fn read_text(path: impl AsRef<Path>) -> String {
    let path = path.as_ref();
    let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    assert!(bytes.len() as u64 <= MAX_FILE_BYTES, "{} is larger than {MAX_FILE_BYTES} bytes", path.display());
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{} is not UTF-8: {e}", path.display()))
}

/// The text of a file of [`shared_dir`], e.g. `"bench/contact-1000.txt"`.
///
/// # Panics
/// As [`read_text`].
pub fn read_shared(relative: &str) -> String {
    read_text(shared_dir().join(relative))
}

/// Every line of a JSON Lines file, decoded as `T`; blank lines are skipped.
///
/// # Panics
/// As [`read_text`], and on a line that is not a valid `T`, naming the file
/// and the line.
pub fn read_jsonl<T: DeserializeOwned>(path: impl AsRef<Path>) -> Vec<T> {
    let path = path.as_ref();
    read_text(path)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{}:{}: bad record: {e}", path.display(), i + 1))
        })
        .collect()
}

/// Every record of an oracle file, e.g. `read_oracle::<EvalRecord>("eval.jsonl")`.
///
/// # Panics
/// As [`oracle_dir`] and [`read_jsonl`].
pub fn read_oracle<T: DeserializeOwned>(name: &str) -> Vec<T> {
    read_jsonl(oracle_dir().join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_file(name: &str, text: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("gammon-testkit-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        path
    }

    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Pair {
        a: u8,
    }

    #[test]
    fn reads_records_and_skips_blank_lines() {
        let path = temp_file("good.jsonl", "{\"a\":1}\n\n  \n{\"a\":2,\"extra\":true}\n");
        assert_eq!(read_jsonl::<Pair>(&path), vec![Pair { a: 1 }, Pair { a: 2 }]);
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_bad_line_names_the_file_and_the_line() {
        let path = temp_file("bad.jsonl", "{\"a\":1}\n\n{\"a\":300}\n");
        let message = std::panic::catch_unwind(|| read_jsonl::<Pair>(&path))
            .expect_err("a value out of range must fail")
            .downcast::<String>()
            .map_or_else(|_| String::new(), |s| *s);
        assert!(message.contains(&format!("{}:3: bad record", path.display())), "{message}");
        let _ = std::fs::remove_file(path);
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let path = std::env::temp_dir().join("gammon-testkit-no-such-file.jsonl");
        let message = std::panic::catch_unwind(|| read_text(&path))
            .expect_err("a missing file must fail")
            .downcast::<String>()
            .map_or_else(|_| String::new(), |s| *s);
        assert!(message.contains("cannot read") && message.contains("no-such-file"), "{message}");
    }

    #[test]
    fn the_oracle_folder_is_found() {
        assert!(oracle_dir().join("eval.jsonl").is_file());
    }
}
