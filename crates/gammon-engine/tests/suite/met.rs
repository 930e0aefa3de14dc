//! gnubg's XML match equity tables (`--met`): read as gnubg reads them, and
//! the built-in Kazaross-XG2 table equal to gnubg's file. The files come
//! with Debian's `gnubg-data` (CI installs it); gnubg's own figures for
//! them are in `data/gnubg-met7.tsv` (`scripts/gnubg_met_fixture.sh`).

use gammon_engine::cube::{CubeError, CubeState};
use gammon_engine::met::{Met, KAZAROSS_XG2_NAME};
use gammon_rules::GameContext;
use gammon_testkit::needs;
use std::path::{Path, PathBuf};

const GNUBG_MET: &str = "/usr/share/gnubg/met";

/// gnubg's table `name`, or `None` (the test skipped) without gnubg-data.
fn gnubg_file(name: &str) -> Option<PathBuf> {
    let path = Path::new(GNUBG_MET).join(name);
    let missing = (!path.is_file()).then(|| format!("{} (apt-get install gnubg-data)", path.display()));
    needs("gnubg's match equity tables", missing).then_some(path)
}

#[test]
fn the_built_in_table_is_gnubgs_kazaross_xg2() {
    let Some(path) = gnubg_file("Kazaross-XG2.xml") else { return };
    let (file, built_in) = (Met::read_xml_file(&path).unwrap(), Met::kazaross_xg2());
    assert_eq!((file.name(), file.max_away()), (KAZAROSS_XG2_NAME, 25));
    for a in 1..=25 {
        assert_eq!(file.post_crawford(a), built_in.post_crawford(a), "post-Crawford {a}-away");
        for b in 1..=25 {
            assert_eq!(file.mwc(a, b), built_in.mwc(a, b), "{a}-away vs {b}-away");
        }
    }
}

#[test]
fn gnubg_tables_read_give_gnubgs_equities() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/data/gnubg-met7.tsv")).unwrap();
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.split('\t').collect();
        let Some(path) = gnubg_file(f[0]) else { return };
        let met = Met::read_xml_file(&path).unwrap();
        let (a, b): (u32, u32) = (f[2].parse().unwrap(), f[3].parse().unwrap());
        let got = if f[1] == "pre" { met.mwc(a, b) } else { met.post_crawford(a) };
        let want: f64 = f[4].parse::<f64>().unwrap() / 100.0;
        // gnubg prints percentages to 4 decimals.
        assert!((got - want).abs() <= 5.1e-7, "{line}: {got}");
        checked += 1;
    }
    assert_eq!(checked, 224);
}

#[test]
fn every_explicit_gnubg_table_reads_and_the_formulas_are_refused() {
    let Some(dir) = gnubg_file("mec26.xml").and_then(|p| p.parent().map(Path::to_path_buf)) else { return };
    for (file, name, max) in [
        ("mec26.xml", "mec", 24),
        ("woolsey.xml", "Kit Woolsey", 15),
        ("Rockwell-Kazaross.xml", "Rockwell/Kazaross 25 point MET", 25),
    ] {
        let met = Met::read_xml_file(&dir.join(file)).unwrap();
        assert_eq!((met.name(), met.max_away()), (name, max), "{file}");
    }
    for file in ["zadeh.xml", "mec.xml", "jac050.xml"] {
        let e = gammon_engine::api::error_chain(&Met::read_xml_file(&dir.join(file)).unwrap_err());
        assert!(e.starts_with(&format!("match equity table {}: it", dir.join(file).display())), "{e}");
    }
}

/// An explicit `n`-point table in gnubg's layout (any numbers will do).
fn long_table(n: u32) -> String {
    let me = |a: u32, b: u32| 0.5 + (f64::from(b) - f64::from(a)) / (4.0 * f64::from(n));
    let rows: String = (1..=n)
        .map(|a| format!("<row>{}</row>", (1..=n).map(|b| format!("<me>{}</me>", me(a, b))).collect::<String>()))
        .collect();
    let post: String = (1..=n).map(|a| format!("<me>{}</me>", me(a, 0).min(0.5))).collect();
    format!(
        "<met><info><name>long</name><description/><length>{n}</length></info>\
         <pre-crawford-table type=\"explicit\">{rows}</pre-crawford-table>\
         <post-crawford-table type=\"explicit\" player=\"both\"><row>{post}</row></post-crawford-table></met>"
    )
}

#[test]
fn a_longer_table_covers_longer_matches() {
    let ctx = GameContext { match_length: 40, score: (3, 5), ..GameContext::money() };
    let err = CubeState::from_context(&ctx, Met::kazaross_xg2()).unwrap_err();
    assert_eq!(err, CubeError::MatchTooLong { length: 40, max: 25 });
    let long = Met::parse_xml(&long_table(64)).unwrap();
    assert_eq!((long.name(), long.max_away()), ("long", 64));
    let state = CubeState::from_context(&ctx, &long).unwrap();
    assert_eq!(state.stakes, gammon_engine::cube::Stakes::Match { length: 40, away: (37, 35), crawford: false });
}
