//! Where the bearoff databases keep their cache: the folder
//! ([`cache_dir`]), reading the cache file or building and writing it
//! (`load_or_build_cached`), and the one warning when it cannot be
//! written. Shared by the one-sided (`bearoff.rs`) and the two-sided
//! (`bearoff_two_sided.rs`) databases, so that neither imports the other for it.

use crate::file_format::FileError;
use std::path::{Path, PathBuf};

/// A table from the cache file `name` in `dir` when `read` takes it, else
/// built and written there (atomically); the build is used as it is when
/// the file cannot be written or no folder is known. Both bearoff
/// databases are cached this way.
pub(crate) fn load_or_build_cached<T>(
    dir: Option<&Path>,
    name: &str,
    read: impl FnOnce(&Path) -> Option<T>,
    build: impl FnOnce() -> T,
    write: impl FnOnce(&T, &Path) -> Result<(), FileError>,
) -> (T, CacheOutcome) {
    let Some(dir) = dir else {
        return (build(), CacheOutcome::NoCacheDir);
    };
    let path = dir.join(name);
    if let Some(table) = read(&path) {
        return (table, CacheOutcome::Read);
    }
    let table = build();
    let written = std::fs::create_dir_all(dir).is_ok() && write(&table, &path).is_ok();
    (table, if written { CacheOutcome::Built } else { CacheOutcome::NotWritten })
}

/// How a bearoff database got its table (for example
/// [`TwoSidedDb::load_or_build`](crate::bearoff_two_sided::TwoSidedDb::load_or_build)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CacheOutcome {
    /// Read from the cache file.
    Read,
    /// Built and written to the cache file.
    Built,
    /// Built; the cache file could not be written.
    NotWritten,
    /// Built; no cache folder is known.
    NoCacheDir,
}

/// Says once per process, on standard error, that a bearoff database could
/// not be cached: otherwise every process rebuilds it silently (0.55 s
/// instead of 0.006 s).
pub(crate) fn warn_if_not_cached(outcome: CacheOutcome) {
    static SAID: std::sync::Once = std::sync::Once::new();
    if outcome == CacheOutcome::NotWritten {
        SAID.call_once(|| {
            let dir = cache_dir().map_or_else(String::new, |d| format!(" in {}", d.display()));
            eprintln!(
                "warning: cannot write the bearoff databases' cache{dir}: every run rebuilds them (about half a second); \
                 set GAMMON_CACHE_DIR to a folder this user can write"
            );
        });
    }
}

/// The cache folder: `$GAMMON_CACHE_DIR`, else `$XDG_CACHE_HOME/gammon`,
/// else `$HOME/.cache/gammon` (empty variables count as unset).
pub fn cache_dir() -> Option<PathBuf> {
    let var = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("GAMMON_CACHE_DIR")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("gammon")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("gammon")))
}
