//! `.mat` match files: small hand-written ones, and every real file in the
//! shared folder, replayed through the rules.

use gammon_rules::{parse_mat, read_match_file, GameResult, MatAction, MatchRecord, Seat, WinHow};
use std::path::{Path, PathBuf};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/matches").join(name)
}

fn read(name: &str) -> MatchRecord {
    read_match_file(data(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// Rolls written in each game, counted from the text alone: every
/// `DD:` token (two digits and a colon) after the `Game K` line.
fn written_rolls(text: &str) -> Vec<usize> {
    let mut counts = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with("Game ") {
            counts.push(0);
            continue;
        }
        if let Some(c) = counts.last_mut() {
            *c += t
                .split_whitespace()
                .filter(|w| {
                    let b = w.as_bytes();
                    b.len() >= 3 && b[0].is_ascii_digit() && b[1].is_ascii_digit() && b[2] == b':'
                })
                .count();
        }
    }
    counts
}

/// The score line under each `Game K`: `name : a    name : b`.
fn written_scores(text: &str) -> Vec<[u32; 2]> {
    let lines: Vec<&str> = text.lines().collect();
    let mut scores = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim().starts_with("Game ") {
            let next = lines[i + 1..].iter().find(|l| !l.trim().is_empty()).unwrap();
            let parts: Vec<&str> = next.split(':').collect();
            let a = parts[1].split_whitespace().next().unwrap().parse().unwrap();
            let b = parts.last().unwrap().trim().parse().unwrap();
            scores.push([a, b]);
        }
    }
    scores
}

fn check_counts(text: &str, m: &MatchRecord, what: &str) {
    let rolls = written_rolls(text);
    assert_eq!(m.games.len(), rolls.len(), "{what}: games");
    for (g, n) in m.games.iter().zip(&rolls) {
        assert_eq!(g.rolls(), *n, "{what}: game {} rolls", g.number);
    }
    let scores = written_scores(text);
    for (i, g) in m.games.iter().enumerate().skip(1) {
        let (winner, points) = m.games[i - 1].result.unwrap_or_else(|| panic!("{what}: game {} unfinished", i));
        let mut s = scores[i - 1];
        s[winner.index()] += points;
        assert_eq!(g.score, s, "{what}: score before game {}", g.number);
        assert_eq!(scores[i], s, "{what}: written score before game {}", g.number);
    }
}

#[test]
fn every_real_match_file_imports_with_its_rolls_and_scores() {
    let dir = gammon_testkit::shared_dir().join("matches/real");
    let mut seen = 0;
    let mut failures = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if !matches!(path.extension().and_then(|e| e.to_str()), Some("mat" | "txt")) {
            continue;
        }
        seen += 1;
        match read_match_file(&path) {
            Ok(m) => check_counts(&std::fs::read_to_string(&path).unwrap(), &m, &path.display().to_string()),
            Err(e) => failures.push(e.to_string()),
        }
    }
    assert!(seen >= 18, "only {seen} real match files in {}", dir.display());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
