//! Tests that need a program the machine may lack (Chromium, a local
//! Slurm): on a developer's machine without it they are skipped with a
//! printed reason, so that `cargo test --workspace` still runs every other
//! test; where `GAMMON_REQUIRE_ALL` is set (CI sets it) a missing program
//! fails the test, so nothing is ever skipped silently there.

use std::path::Path;

/// The variable that turns every skip into a failure.
pub const REQUIRE_ALL: &str = "GAMMON_REQUIRE_ALL";

/// Whether a test that needs `what` should run: `missing` is `None` when
/// everything it needs is here, else the reason it is not. Without it the
/// test is skipped (the reason printed) or, under [`REQUIRE_ALL`], fails.
///
/// # Panics
/// Under [`REQUIRE_ALL`], when something is missing.
pub fn needs(what: &str, missing: Option<String>) -> bool {
    let Some(why) = missing else { return true };
    if std::env::var_os(REQUIRE_ALL).is_some_and(|v| !v.is_empty()) {
        panic!("{what} is required ({REQUIRE_ALL} is set) but {why}");
    }
    eprintln!("skipped: {what} needs {why} (set {REQUIRE_ALL}=1 to make this a failure)");
    false
}

/// `None` if every one of `programs` is on the `PATH`, else which is not.
pub fn programs_missing(programs: &[&str]) -> Option<String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let missing: Vec<&str> = programs
        .iter()
        .copied()
        .filter(|p| !std::env::split_paths(&path).any(|dir| is_program(&dir.join(p))))
        .collect();
    (!missing.is_empty()).then(|| format!("{} (not on the PATH)", missing.join(" and ")))
}

fn is_program(path: &Path) -> bool {
    path.metadata().is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn programs_on_the_path_are_found_and_others_named() {
        assert_eq!(programs_missing(&["sh"]), None);
        let why = programs_missing(&["sh", "no-such-program-gammon"]).expect("missing");
        assert!(why.contains("no-such-program-gammon") && !why.contains("sh and"), "{why}");
        assert!(needs("a test", None));
    }
}
