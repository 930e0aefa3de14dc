//! Move generation speed: distinct resulting positions per second.
//!
//! Each benchmark first asserts the exact number of results against data
//! that did not come from gammon (gnubg's oracle counts; wildbg's published
//! counts for its own benchmark positions), then times the same loop.
//!
//! `cargo bench -p gammon-benches --bench movegen`
#![allow(clippy::unwrap_used, missing_docs)]

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use gammon_benches::{oracle_positions, positions_from_lines, read_shared};
use gammon_rules::{Dice, MoveList, Position, ALL_ROLLS};

/// Results over `rolls` for every position; a roll with no move counts one
/// (the unchanged position), as wildbg counts.
fn count(positions: &[Position], rolls: &[Dice], list: &mut MoveList) -> u64 {
    let mut total = 0;
    for pos in positions {
        for &dice in rolls {
            list.generate(pos, dice);
            total += list.len().max(1) as u64;
        }
    }
    total
}

fn oracle(c: &mut Criterion) {
    let data = oracle_positions();
    let positions: Vec<Position> = data.iter().map(|(p, _)| *p).collect();
    let expected: u64 = data.iter().flat_map(|(_, n)| n.iter()).map(|&n| n.max(1)).sum();
    let mut list = MoveList::new();
    assert_eq!(count(&positions, &ALL_ROLLS, &mut list), expected, "gnubg's counts");
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(expected));
    group.bench_function("oracle positions, 21 rolls", |b| {
        b.iter(|| count(black_box(&positions), &ALL_ROLLS, &mut list));
    });
    group.finish();
}

fn wildbg_positions(c: &mut Criterion) {
    let mixed: Vec<Dice> = ALL_ROLLS.iter().copied().filter(|d| !d.is_double()).collect();
    let doubles: Vec<Dice> = ALL_ROLLS.iter().copied().filter(|d| d.is_double()).collect();
    let mut list = MoveList::new();
    let mut group = c.benchmark_group("movegen wildbg positions");
    // Expected counts from shared/bench/README.md (wildbg's own figures).
    for (file, expect_mixed, expect_doubles) in
        [("bench/contact-1000.txt", 185_957, 218_356), ("bench/race-1000.txt", 122_570, 140_720)]
    {
        let positions = positions_from_lines(&read_shared(file));
        let name = if file.contains("contact") { "contact" } else { "race" };
        for (rolls, expected, kind) in
            [(&mixed, expect_mixed, "15 mixed rolls"), (&doubles, expect_doubles, "6 doubles")]
        {
            assert_eq!(count(&positions, rolls, &mut list), expected, "{name} {kind}");
            group.throughput(Throughput::Elements(expected));
            group.bench_function(format!("{name}, {kind}"), |b| {
                b.iter(|| count(black_box(&positions), rolls, &mut list));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, oracle, wildbg_positions);
criterion_main!(benches);
