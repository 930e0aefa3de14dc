//! The settings a job's saved work was made with. A job resumes its saved
//! work only with the same settings: games of another seed, labels of
//! another net, would mix two different things into one result. The
//! settings are kept by name, so a refusal names the ones that differ.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use thiserror::Error;

/// A job's settings by name, each as text (its `Display`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fingerprint {
    settings: BTreeMap<String, String>,
}

/// A resume refused: the saved work was made with other settings.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("it was made with other settings: {}", .0.join(", "))]
pub struct SettingsDiffer(pub Vec<String>);

impl Fingerprint {
    /// No settings yet.
    pub fn new() -> Self {
        Fingerprint::default()
    }

    /// Adds the setting `name` with the value `value`.
    #[must_use]
    pub fn with(mut self, name: &str, value: impl fmt::Display) -> Self {
        self.settings.insert(name.to_string(), value.to_string());
        self
    }

    /// A stable 64-bit hash of the settings (XXH3 of `name=value` lines in
    /// name order): the same on every machine and in every version that
    /// names the same settings.
    pub fn hash(&self) -> u64 {
        let mut text = String::new();
        for (name, value) in &self.settings {
            text.push_str(name);
            text.push('=');
            text.push_str(value);
            text.push('\n');
        }
        xxhash_rust::xxh3::xxh3_64(text.as_bytes())
    }

    /// Whether work saved with `saved` may be resumed with these settings.
    ///
    /// # Errors
    /// [`SettingsDiffer`] naming every setting that differs (or that only
    /// one of the two has), in name order.
    pub fn resume(&self, saved: &Fingerprint) -> Result<(), SettingsDiffer> {
        let mut names: Vec<String> = self
            .settings
            .keys()
            .chain(saved.settings.keys())
            .filter(|n| self.settings.get(*n) != saved.settings.get(*n))
            .cloned()
            .collect();
        names.sort();
        names.dedup();
        if names.is_empty() {
            Ok(())
        } else {
            Err(SettingsDiffer(names))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_settings_resume_and_others_are_named() {
        let saved = Fingerprint::new().with("seed", 1).with("trials", 36).with("net", "a");
        let same = Fingerprint::new().with("net", "a").with("trials", 36).with("seed", 1);
        assert_eq!(same.resume(&saved), Ok(()));
        assert_eq!(same.hash(), saved.hash());
        let other = Fingerprint::new().with("seed", 2).with("trials", 36).with("chunk", 5);
        let err = other.resume(&saved).unwrap_err();
        assert_eq!(err, SettingsDiffer(vec!["chunk".into(), "net".into(), "seed".into()]));
        assert_eq!(err.to_string(), "it was made with other settings: chunk, net, seed");
        assert_ne!(other.hash(), saved.hash());
    }

    #[test]
    fn the_hash_is_that_of_the_documented_lines_in_name_order() {
        let f = Fingerprint::new().with("b", "x").with("a", 1);
        assert_eq!(f.hash(), xxhash_rust::xxh3::xxh3_64(b"a=1\nb=x\n"));
    }
}
