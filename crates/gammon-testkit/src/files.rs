//! The shared data folders and reading their files.

use serde::de::DeserializeOwned;
use std::ffi::OsString;
use std::fmt;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The largest file read (the biggest oracle file is about 3 MB): a wrong
/// path to a huge file fails at once instead of filling the memory.
pub const MAX_FILE_BYTES: u64 = 64 << 20;

/// How to provide the test data, for the messages.
const HOW_TO_GET_IT: &str = "set GAMMON_SHARED to the shared data folder (or GAMMON_ORACLE to its oracle \
     folder), or put the `shared` folder beside the repository; CI provides it";

/// Test data that is not where the tests look for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MissingData {
    /// The shared folder does not exist.
    Shared {
        /// Where it was looked for.
        dir: PathBuf,
        /// Where that place came from (`GAMMON_SHARED`, or the default).
        from: &'static str,
    },
    /// The oracle folder does not exist.
    Oracle {
        /// Where it was looked for.
        dir: PathBuf,
        /// Where that place came from.
        from: &'static str,
    },
    /// The folder exists, the file in it does not.
    File {
        /// The file.
        path: PathBuf,
        /// The folder it should be in.
        folder: PathBuf,
    },
}

impl fmt::Display for MissingData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MissingData::Shared { dir, from } => {
                write!(f, "the shared test data folder {} ({from}) is missing: {HOW_TO_GET_IT}", dir.display())
            }
            MissingData::Oracle { dir, from } => {
                write!(f, "the oracle folder {} ({from}) is missing: {HOW_TO_GET_IT}", dir.display())
            }
            MissingData::File { path, folder } => write!(
                f,
                "{} is missing: the folder {} exists but lacks this file; get a complete, current copy of the \
                 shared folder (CI provides it)",
                path.display(),
                folder.display()
            ),
        }
    }
}

/// The shared folder for the value of `GAMMON_SHARED`: that, else `shared`
/// beside the repository; an error if it does not exist.
fn find_shared(env: Option<OsString>) -> Result<PathBuf, MissingData> {
    let (dir, from) = match env {
        Some(d) => (PathBuf::from(d), "from GAMMON_SHARED"),
        None => (Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared"), "the default, beside the repository"),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(MissingData::Shared { dir, from })
    }
}

/// The oracle folder for the values of `GAMMON_ORACLE` and `GAMMON_SHARED`.
fn find_oracle(oracle_env: Option<OsString>, shared_env: Option<OsString>) -> Result<PathBuf, MissingData> {
    let (dir, from) = match oracle_env {
        Some(d) => (PathBuf::from(d), "from GAMMON_ORACLE"),
        None => (find_shared(shared_env)?.join("oracle"), "`oracle` in the shared folder"),
    };
    if dir.is_dir() {
        Ok(dir)
    } else {
        Err(MissingData::Oracle { dir, from })
    }
}

/// `folder/relative`, if that file exists.
fn find_file(folder: PathBuf, relative: &str) -> Result<PathBuf, MissingData> {
    let path = folder.join(relative);
    if path.exists() {
        Ok(path)
    } else {
        Err(MissingData::File { path, folder })
    }
}

#[track_caller]
fn or_panic<T>(found: Result<T, MissingData>) -> T {
    found.unwrap_or_else(|missing| panic!("{missing}"))
}

/// The `shared` folder beside the repository; `$GAMMON_SHARED` overrides it.
///
/// # Panics
/// If the folder does not exist, saying where it was looked for and how to
/// provide it: the shared data is part of the test environment.
#[track_caller]
pub fn shared_dir() -> PathBuf {
    or_panic(find_shared(std::env::var_os("GAMMON_SHARED")))
}

/// The GNU Backgammon oracle folder: `$GAMMON_ORACLE`, else `oracle` in
/// [`shared_dir`].
///
/// # Panics
/// If the folder does not exist, saying where it was looked for and how to
/// provide it: the oracle is part of the test environment, so a missing one
/// fails the test instead of skipping it.
#[track_caller]
pub fn oracle_dir() -> PathBuf {
    or_panic(find_oracle(std::env::var_os("GAMMON_ORACLE"), std::env::var_os("GAMMON_SHARED")))
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
/// As [`shared_dir`] and [`read_text`]; a missing file is named with the
/// folder it should be in.
pub fn read_shared(relative: &str) -> String {
    read_text(or_panic(find_file(shared_dir(), relative)))
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
    read_jsonl(or_panic(find_file(oracle_dir(), name)))
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
    #[test]
    fn a_missing_oracle_folder_says_where_it_was_looked_for_and_how_to_get_it() {
        let nowhere = std::env::temp_dir().join("gammon-testkit-no-such-oracle");
        let err = find_oracle(Some(nowhere.clone().into_os_string()), None).expect_err("no such folder");
        assert_eq!(err, MissingData::Oracle { dir: nowhere.clone(), from: "from GAMMON_ORACLE" });
        let message = std::panic::catch_unwind(|| or_panic(Err::<(), _>(err)))
            .expect_err("a missing oracle must fail")
            .downcast::<String>()
            .map_or_else(|_| String::new(), |s| *s);
        for part in [nowhere.to_str().unwrap_or("?"), "GAMMON_ORACLE", "GAMMON_SHARED", "beside the repository", "CI"] {
            assert!(message.contains(part), "{message:?} should say {part:?}");
        }
    }

    #[test]
    fn a_missing_shared_folder_is_named_before_its_oracle() {
        let nowhere = std::env::temp_dir().join("gammon-testkit-no-such-shared");
        let err = find_oracle(None, Some(nowhere.clone().into_os_string())).expect_err("no such folder");
        assert_eq!(err, MissingData::Shared { dir: nowhere, from: "from GAMMON_SHARED" });
        assert!(err.to_string().contains("set GAMMON_SHARED"), "{err}");
    }

    #[test]
    fn a_file_missing_from_the_oracle_names_the_file_and_the_folder() {
        let err = find_file(oracle_dir(), "no-such-records.jsonl").expect_err("no such file");
        let message = err.to_string();
        assert!(message.contains("no-such-records.jsonl is missing") && message.contains("shared folder"), "{message}");
        assert!(find_file(oracle_dir(), "eval.jsonl").is_ok());
    }
}
