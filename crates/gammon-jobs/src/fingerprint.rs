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

/// A resume refused: the saved work was made with other settings. Its text
/// names each with both values: `was made with --trials 72, this run asks
/// for --trials 144` (a setting only one side has reads `no --name`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("was made with {}, this run asks for {}", side(.0, |d| &d.saved), side(.0, |d| &d.now))]
pub struct SettingsDiffer(pub Vec<Differ>);

/// One setting that differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Differ {
    /// Its name.
    pub name: String,
    /// Its value in the saved work (`None`: the saved work has no such setting).
    pub saved: Option<String>,
    /// Its value in this run (`None`: this run has no such setting).
    pub now: Option<String>,
}

impl SettingsDiffer {
    /// The names of the settings that differ, in name order.
    pub fn names(&self) -> Vec<&str> {
        self.0.iter().map(|d| d.name.as_str()).collect()
    }
}

/// `name value, name value` of one side of the differences.
fn side(differ: &[Differ], value: impl Fn(&Differ) -> &Option<String>) -> String {
    let each = differ.iter().map(|d| match value(d) {
        Some(v) => format!("{} {v}", d.name),
        None => format!("no {}", d.name),
    });
    each.collect::<Vec<_>>().join(", ")
}

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
    /// one of the two has), in name order, with both values.
    pub fn resume(&self, saved: &Fingerprint) -> Result<(), SettingsDiffer> {
        let mut names: Vec<&String> = self
            .settings
            .keys()
            .chain(saved.settings.keys())
            .filter(|n| self.settings.get(*n) != saved.settings.get(*n))
            .collect();
        names.sort();
        names.dedup();
        if names.is_empty() {
            return Ok(());
        }
        let differ = names
            .into_iter()
            .map(|n| Differ {
                name: n.clone(),
                saved: saved.settings.get(n).cloned(),
                now: self.settings.get(n).cloned(),
            })
            .collect();
        Err(SettingsDiffer(differ))
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
        assert_eq!(err.names(), ["chunk", "net", "seed"]);
        assert_eq!(err.0[2], Differ { name: "seed".into(), saved: Some("1".into()), now: Some("2".into()) });
        assert_eq!(err.to_string(), "was made with no chunk, net a, seed 1, this run asks for chunk 5, no net, seed 2");
        assert_ne!(other.hash(), saved.hash());
    }

    #[test]
    fn the_hash_is_that_of_the_documented_lines_in_name_order() {
        let f = Fingerprint::new().with("b", "x").with("a", 1);
        assert_eq!(f.hash(), xxhash_rust::xxh3::xxh3_64(b"a=1\nb=x\n"));
    }
}
