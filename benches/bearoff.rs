//! Bearoff databases: the time to build the one-sided one, race
//! evaluations per second, and the two-sided one's build time and its load
//! time from a warm cache (the file exists: opened and one row read, as a
//! process evaluating one bearoff does; or every row read) and a cold one
//! (built and written).
//!
//! Before timing, the evaluations are checked against gnubg's own bearoff
//! database values (the oracle's `bearoff1` and `bearoff2` records, P(win)
//! within 1e-4); the two-sided sizes are printed.
//!
//! `cargo bench -p gammon-benches --bench bearoff`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gammon_eval::bearoff::{bearoff_db, layout, BearoffDb, LAYOUTS};
use gammon_eval::bearoff_two_sided::{bearoff_two_sided_db, CacheOutcome, TwoSidedDb, CACHE_FILE, MAX_CHECKERS};
use gammon_eval::{Evaluator, Probabilities};
use gammon_rules::Position;
use gammon_testkit::{oracle_dir, read_text};

/// 1,000 race positions from layouts spread over the whole index range
/// (a fixed multiplicative walk, so the set is the same on every run).
fn race_positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut r = 1usize;
    while out.len() < 1000 {
        r = (r * 7919 + 104_729) % LAYOUTS;
        let s = (r * 31 + 17) % LAYOUTS;
        let (mut a, mut b) = ([0u8; 25], [0u8; 25]);
        a[..6].copy_from_slice(&layout(r).unwrap());
        b[..6].copy_from_slice(&layout(s).unwrap());
        if let Ok(p) = Position::from_boards(&a, &b) {
            out.push(p);
        }
    }
    out
}

fn check_against_gnubg(db: &BearoffDb) {
    let mut checked = 0;
    for line in read_text(oracle_dir().join("eval.jsonl")).lines().filter(|l| l.contains("\"bearoff1\"")) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let pos = Position::from_position_id(v["pos"].as_str().unwrap()).unwrap();
        let gnubg = v["ply0"][0].as_f64().unwrap();
        let ours = db.evaluate(&pos).unwrap();
        assert!((f64::from(ours.win) - gnubg).abs() < 1e-4, "{}: {} vs {gnubg}", v["pos"], ours.win);
        checked += 1;
    }
    assert!(checked > 0, "no bearoff1 records in the oracle");
}

fn build(c: &mut Criterion) {
    let mut group = c.benchmark_group("bearoff");
    group.sample_size(10);
    group.bench_function("build one-sided database", |b| b.iter(BearoffDb::build));
    group.finish();
}

fn evaluate(c: &mut Criterion) {
    let db = bearoff_db();
    check_against_gnubg(db);
    let positions = race_positions();
    let mut out = vec![Probabilities::default(); positions.len()];
    let mut group = c.benchmark_group("bearoff");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("evaluate 1000 races", |b| {
        b.iter(|| db.evaluate_batch(black_box(&positions), &mut out));
    });
    group.finish();
}

fn check_two_sided_against_gnubg(db: &TwoSidedDb) {
    let mut checked = 0;
    for line in read_text(oracle_dir().join("eval.jsonl")).lines().filter(|l| l.contains("\"bearoff2\"")) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let pos = Position::from_position_id(v["pos"].as_str().unwrap()).unwrap();
        let gnubg = v["ply0"][0].as_f64().unwrap();
        let ours = db.evaluate(&pos).unwrap();
        assert!((f64::from(ours.win) - gnubg).abs() < 1e-4, "{}: {} vs {gnubg}", v["pos"], ours.win);
        checked += 1;
    }
    assert!(checked > 0, "no bearoff2 records in the oracle");
}

fn two_sided(c: &mut Criterion) {
    check_two_sided_against_gnubg(bearoff_two_sided_db());
    let dir = std::env::temp_dir().join(format!("gammon-bench-bearoff2-{}", std::process::id()));
    let (db, how) = TwoSidedDb::load_or_build(Some(&dir));
    assert_eq!(how, CacheOutcome::Built);
    let path = dir.join(CACHE_FILE);
    let file = std::fs::metadata(&path).unwrap().len();
    eprintln!(
        "two-sided bearoff database: {} layouts per side, {} bytes in memory, {file} bytes on disk",
        db.layouts(),
        db.memory_bytes()
    );
    let mut group = c.benchmark_group("bearoff2");
    group.sample_size(10);
    group.bench_function("build two-sided database", |b| b.iter(|| TwoSidedDb::build(MAX_CHECKERS).unwrap()));
    // One layout of each row of the table (at most 6 checkers).
    let rows: Vec<_> = (0..LAYOUTS)
        .filter_map(|r| layout(r).ok())
        .filter(|l| l.iter().map(|&c| u32::from(c)).sum::<u32>() <= MAX_CHECKERS)
        .collect();
    let one = [0, 0, 0, 0, 0, 1];
    group.bench_function("load two-sided database, warm cache, one row read", |b| {
        b.iter(|| {
            let (db, how) = TwoSidedDb::load_or_build(Some(&dir));
            assert_eq!(how, CacheOutcome::Read);
            black_box(db.values(&rows[1], &one));
            db
        });
    });
    group.bench_function("load two-sided database, warm cache, every row read", |b| {
        b.iter(|| {
            let (db, how) = TwoSidedDb::load_or_build(Some(&dir));
            assert_eq!(how, CacheOutcome::Read);
            for l in &rows {
                black_box(db.values(l, &one));
            }
            db
        });
    });
    group.bench_function("load two-sided database, cold cache (build and write)", |b| {
        b.iter(|| {
            std::fs::remove_file(&path).unwrap();
            let (db, how) = TwoSidedDb::load_or_build(Some(&dir));
            assert_eq!(how, CacheOutcome::Built);
            db
        });
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, build, evaluate, two_sided);
criterion_main!(benches);
