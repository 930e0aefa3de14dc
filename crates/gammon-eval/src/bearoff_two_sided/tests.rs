use super::*;
use crate::bearoff::bearoff_db;
use gammon_rules::Dice;
use std::collections::HashMap;

/// The full table, built once for these tests (no cache file).
fn full() -> &'static TwoSidedDb {
    static DB: OnceLock<TwoSidedDb> = OnceLock::new();
    DB.get_or_init(|| TwoSidedDb::build(MAX_CHECKERS).unwrap())
}

fn checkers(l: &Layout) -> u32 {
    l.iter().map(|&c| u32::from(c)).sum()
}

/// The same game solved by plain memoised recursion over `(a, b)` with
/// [`successors`], written from the rules of the game rather than the
/// table's numbering and order: `[win, own, centre, opp]`.
struct Reference {
    memo: HashMap<(Layout, Layout), [f64; 4]>,
}

impl Reference {
    fn value(&mut self, a: Layout, b: Layout) -> [f64; 4] {
        if checkers(&a) == 0 {
            return [1.0; 4];
        }
        if checkers(&b) == 0 {
            return [0.0, -1.0, -1.0, -1.0];
        }
        if let Some(v) = self.memo.get(&(a, b)) {
            return *v;
        }
        let mut sum = [0.0; 4];
        for dice in ALL_ROLLS {
            let p = f64::from(dice.weight()) / 36.0;
            // Each state's move is chosen for that state.
            let mut best = [f64::NEG_INFINITY; 4];
            for next in successors(&a, dice).unwrap() {
                let v = self.value(b, next);
                let mine = [1.0 - v[0], -v[3], -v[2], -v[1]];
                for (b, m) in best.iter_mut().zip(mine) {
                    *b = b.max(m);
                }
            }
            for (s, b) in sum.iter_mut().zip(best) {
                *s += p * b;
            }
        }
        // Double: the opponent takes (owning twice the cube) or passes.
        let after_double = (2.0 * sum[3]).min(1.0);
        let v = [sum[0], sum[1].max(after_double), sum[2].max(after_double), sum[3]];
        self.memo.insert((a, b), v);
        v
    }

    /// The same without the roller's cube action now.
    fn no_double(&mut self, a: Layout, b: Layout) -> [f64; 4] {
        let v = self.value(a, b);
        if checkers(&a) == 0 || checkers(&b) == 0 {
            return v;
        }
        let mut nd = [v[0], 0.0, 0.0, v[3]];
        for dice in ALL_ROLLS {
            let p = f64::from(dice.weight()) / 36.0;
            let (mut own, mut centre) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
            for next in successors(&a, dice).unwrap() {
                let o = self.value(b, next);
                own = own.max(-o[3]);
                centre = centre.max(-o[2]);
            }
            nd[1] += p * own;
            nd[2] += p * centre;
        }
        nd
    }
}

#[test]
fn the_layouts_are_those_of_few_enough_checkers_in_index_order() {
    for max in 0..=MAX_CHECKERS {
        let slow: Vec<Layout> =
            (0..LAYOUTS).filter_map(|r| crate::bearoff::layout(r).ok()).filter(|l| checkers(l) <= max).collect();
        assert_eq!(layouts_up_to(max), slow, "{max} checkers");
    }
}

#[test]
fn sizes() {
    assert_eq!(layouts_up_to(6).len(), 924);
    assert_eq!(layouts_up_to(3).len(), 84);
    assert!(TwoSidedDb::build(0).is_err());
    assert!(TwoSidedDb::build(7).is_err());
    let db = full();
    assert_eq!((db.layouts(), db.max_checkers()), (924, 6));
    assert!(db.values(&[7, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]).is_none());
    assert!(db.values(&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 7]).is_none());
}

/// Every pair of the 3-checker table equals the plain recursion, and the
/// 3-checker table equals the full one on those pairs.
#[test]
fn the_table_is_the_recursion() {
    let small = TwoSidedDb::build(3).unwrap();
    let layouts = layouts_up_to(3);
    let mut reference = Reference { memo: HashMap::new() };
    for &a in &layouts {
        for &b in &layouts {
            let v = small.values(&a, &b).unwrap();
            let optimal = [
                f64::from(v.win),
                v.cubeful(CubeOwner::OnRoll),
                v.cubeful(CubeOwner::Centered),
                v.cubeful(CubeOwner::Opponent),
            ];
            let stored = [v.win, v.owned, v.centred, v.opponent_owns].map(f64::from);
            for (got, expected) in [(optimal, reference.value(a, b)), (stored, reference.no_double(a, b))] {
                for (g, e) in got.iter().zip(expected) {
                    assert!((g - e).abs() < 1e-6, "{a:?} {b:?}: {got:?} vs {expected:?}");
                }
            }
            assert_eq!(full().values(&a, &b), Some(v));
        }
    }
}

/// Provable for every pair: values within [-1, 1], owned >= centred >=
/// opponent-owned, owned >= 2W - 1 >= opponent-owned.
#[test]
fn provable_orderings_hold_for_every_pair() {
    let db = full();
    let tol = 1e-6;
    for &[win, owned, centred, opponent_owns] in (0..db.layouts()).flat_map(|a| db.row(a).unwrap()) {
        let v = TwoSidedValues { win, owned, centred, opponent_owns };
        let w = f64::from(win);
        assert!((0.0..=1.0).contains(&w), "{v:?}");
        let owners = [CubeOwner::OnRoll, CubeOwner::Centered, CubeOwner::Opponent];
        for f in [TwoSidedValues::no_double, TwoSidedValues::cubeful] {
            let [own, centre, opp] = owners.map(|o| f(&v, o));
            for e in [own, centre, opp] {
                assert!((-1.0..=1.0).contains(&e), "{v:?}");
            }
            assert!(own + tol >= centre && centre + tol >= opp, "{v:?}");
            assert!(own + tol >= 2.0 * w - 1.0 && 2.0 * w - 1.0 + tol >= opp, "{v:?}");
        }
        for o in owners {
            assert!(v.cubeful(o) >= v.no_double(o), "{v:?}");
        }
    }
}

/// Best chance of bearing off everything with one roll.
fn finish_in_one(l: &Layout) -> f64 {
    ALL_ROLLS
        .iter()
        .filter(|&&d| successors(l, d).unwrap().iter().any(|m| checkers(m) == 0))
        .map(|d| f64::from(d.weight()) / 36.0)
        .sum()
}

/// Layouts from which no roll ever offers a choice (every reachable layout
/// has one result per roll): there the one-sided policy is the only play.
fn forced(layouts: &[Layout]) -> Vec<bool> {
    let one = |l: &Layout, d: Dice| successors(l, d).unwrap().len() <= 1;
    let mut forced: HashMap<Layout, bool> = HashMap::new();
    // Index order: successors first.
    for l in layouts {
        let ok = ALL_ROLLS
            .iter()
            .all(|&d| one(l, d) && successors(l, d).unwrap().iter().all(|m| checkers(m) == 0 || forced[m]));
        forced.insert(*l, ok);
    }
    layouts.iter().map(|l| forced[l]).collect()
}

/// Where play is forced for both sides, and where the roller finishes with
/// any roll, the one-sided database's race formula is exact and both agree;
/// everywhere the provable bounds `F_a >= ...` hold: the roller wins at
/// least when he can finish at once, and loses at least when he cannot
/// and the opponent then can.
#[test]
fn agrees_with_the_one_sided_database_where_it_must() {
    let db = full();
    let one = bearoff_db();
    let layouts = layouts_up_to(MAX_CHECKERS);
    let forced = forced(&layouts);
    let f1: Vec<f64> = layouts.iter().map(finish_in_one).collect();
    let (mut forced_pairs, mut sure) = (0, 0);
    for (i, a) in layouts.iter().enumerate().skip(1) {
        for (j, b) in layouts.iter().enumerate().skip(1) {
            let two = f64::from(db.values(a, b).unwrap().win);
            assert!(two + 1e-6 >= f1[i], "{a:?} {b:?}");
            assert!(two <= 1.0 - (1.0 - f1[i]) * f1[j] + 1e-6, "{a:?} {b:?}");
            let os = f64::from(one.evaluate_layouts(a, b).unwrap().win);
            if forced[i] && forced[j] {
                assert!((two - os).abs() < 1e-5, "{a:?} {b:?}: {two} vs {os}");
                forced_pairs += 1;
            }
            if f1[i] > 1.0 - 1e-12 {
                assert!(two == 1.0 && (os - 1.0).abs() < 1e-6, "{a:?} {b:?}");
                sure += 1;
            }
        }
    }
    assert!(forced_pairs > 100 && sure > 100, "{forced_pairs} {sure}");
}

/// The sure wins are worth +1 in every cube state; the sure losses (the
/// roller cannot finish, the opponent finishes with any roll) -1.
#[test]
fn sure_results_are_worth_the_cube() {
    let db = full();
    let v = db.values(&[2, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 6]).unwrap();
    assert_eq!((v.win, v.owned, v.centred, v.opponent_owns), (1.0, 1.0, 1.0, 1.0));
    assert_eq!(v.cubeful(CubeOwner::Centered), 1.0);
    // 3 on the ace point against 1 on the ace: only a double saves him.
    let v = db.values(&[3, 0, 0, 0, 0, 0], &[1, 0, 0, 0, 0, 0]).unwrap();
    assert!((f64::from(v.win) - 1.0 / 6.0).abs() < 1e-6);
    // He should not double (5/6 to lose); he loses 1 per cube otherwise.
    let e = 1.0 / 6.0 - 5.0 / 6.0;
    for o in [CubeOwner::OnRoll, CubeOwner::Centered, CubeOwner::Opponent] {
        assert!((v.cubeful(o) - e).abs() < 1e-6 && (v.no_double(o) - e).abs() < 1e-6, "{v:?}");
    }
    // One checker on his 4-point misses only with 2-1 against a sure
    // finisher: a double and a pass (2 * 32/36 > 1) unless he may not double.
    let v = db.values(&[0, 0, 0, 1, 0, 0], &[1, 0, 0, 0, 0, 0]).unwrap();
    assert!((f64::from(v.win) - 34.0 / 36.0).abs() < 1e-6);
    assert_eq!((v.cubeful(CubeOwner::OnRoll), v.cubeful(CubeOwner::Centered)), (1.0, 1.0));
    for o in [CubeOwner::OnRoll, CubeOwner::Centered, CubeOwner::Opponent] {
        assert!((v.no_double(o) - 32.0 / 36.0).abs() < 1e-6, "{v:?}");
    }
    assert!((v.cubeful(CubeOwner::Opponent) - 32.0 / 36.0).abs() < 1e-6);
}

#[test]
fn positions_are_read_from_the_side_on_roll() {
    let db = full();
    let (mut me, mut him) = ([0u8; 25], [0u8; 25]);
    me[..6].copy_from_slice(&[1, 2, 0, 0, 0, 1]);
    him[..6].copy_from_slice(&[0, 0, 3, 0, 0, 0]);
    let pos = Position::from_boards(&me, &him).unwrap();
    assert_eq!(db.evaluate(&pos), db.values(&[1, 2, 0, 0, 0, 1], &[0, 0, 3, 0, 0, 0]));
    let p = db.evaluate(&pos).unwrap().probabilities();
    assert_eq!((p.win_gammon, p.lose_gammon), (0.0, 0.0));
    assert!(db.evaluate(&Position::STARTING).is_none());
}

#[test]
fn the_cache_is_read_rebuilt_or_skipped() {
    let dir = std::env::temp_dir().join(format!("gammon-bearoff2-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let name = "small.gdb";
    let (built, how) = TwoSidedDb::load_or_build_sized(Some(&dir), name, 2);
    assert_eq!(how, CacheOutcome::Built);
    let (read, how) = TwoSidedDb::load_or_build_sized(Some(&dir), name, 2);
    assert_eq!(how, CacheOutcome::Read);
    // Opened, not read: the rows come as they are needed.
    assert_eq!(read.rows.held().count(), 0);
    assert_eq!(
        read.values(&[1, 1, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 1]),
        built.values(&[1, 1, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 1])
    );
    assert_eq!(read.rows.held().count(), 1);
    let every_row = |db: &TwoSidedDb| (0..db.layouts()).map(|a| db.row(a).unwrap().to_vec()).collect::<Vec<_>>();
    assert_eq!(every_row(&read), every_row(&built));
    // A table of another size is rebuilt.
    let (_, how) = TwoSidedDb::load_or_build_sized(Some(&dir), name, 1);
    assert_eq!(how, CacheOutcome::Built);
    // A damaged index: the file is rebuilt.
    let path = dir.join(name);
    let good = std::fs::read(&path).unwrap();
    let mut bytes = good.clone();
    bytes[40] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    assert!(TwoSidedDb::read(&path).is_err());
    let (_, how) = TwoSidedDb::load_or_build_sized(Some(&dir), name, 1);
    assert_eq!(how, CacheOutcome::Built);
    // A damaged row opens, and is found when it is read: the process builds
    // the table, answers from the build, and rewrites the file.
    let mut bytes = good.clone();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&path, &bytes).unwrap();
    let (damaged, how) = TwoSidedDb::load_or_build_sized(Some(&dir), name, 1);
    assert_eq!(how, CacheOutcome::Read);
    let small = TwoSidedDb::build(1).unwrap();
    assert!(!damaged.rows.is_rebuilt());
    assert_eq!(every_row(&damaged), every_row(&small));
    assert!(damaged.rows.is_rebuilt());
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // A cache folder that is a file: built, not written, no error.
    let blocked = dir.join("file");
    std::fs::write(&blocked, b"x").unwrap();
    let (db, how) = TwoSidedDb::load_or_build_sized(Some(&blocked), name, 1);
    assert_eq!((how, db.layouts()), (CacheOutcome::NotWritten, 7));
    let (_, how) = TwoSidedDb::load_or_build_sized(None, name, 1);
    assert_eq!(how, CacheOutcome::NoCacheDir);
    // Values out of range are refused as not a table, and rebuilt.
    let bad = vec![vec![0u8; 16 * 7]; 7].into_iter().map(|mut row| {
        row[..4].copy_from_slice(&2.0f32.to_le_bytes());
        row
    });
    write_chunked(&path, FileKind::Bearoff2, CACHE_VERSION, &1u32.to_le_bytes(), &bad.collect::<Vec<_>>()).unwrap();
    let opened = TwoSidedDb::read(&path).unwrap();
    assert_eq!(every_row(&opened), every_row(&small));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The measurement for the report: how far the one-sided database's race
/// formula (each side's min-expected-rolls policy) is from the exact
/// two-sided winning chances. `cargo test -p gammon-eval --release --
/// --ignored --nocapture one_sided_differences`
#[test]
#[ignore = "a measurement, printed"]
fn one_sided_differences() {
    let db = full();
    let one = bearoff_db();
    let layouts = layouts_up_to(MAX_CHECKERS);
    let (mut sum, mut max, mut n, mut worst) = (0.0f64, 0.0f64, 0usize, ([0u8; 6], [0u8; 6]));
    for a in layouts.iter().skip(1) {
        for b in layouts.iter().skip(1) {
            let d =
                (f64::from(db.values(a, b).unwrap().win) - f64::from(one.evaluate_layouts(a, b).unwrap().win)).abs();
            sum += d;
            n += 1;
            if d > max {
                max = d;
                worst = (*a, *b);
            }
        }
    }
    println!("pairs {n}: mean |two-sided - one-sided| {:.3e}, largest {max:.3e} at {worst:?}", sum / n as f64);
}

/// The evaluator answers from the two-sided table where both sides fit,
/// from the one-sided one beyond.
#[test]
fn the_evaluator_reads_the_table() {
    let weights = crate::NetWeights::random(8, 8, 1);
    let mut scratch = crate::net::Scratch::new(&weights);
    let boards = |us: &[u8], them: &[u8]| {
        let (mut me, mut him) = ([0u8; 25], [0u8; 25]);
        me[..6].copy_from_slice(us);
        him[..6].copy_from_slice(them);
        Position::from_boards(&me, &him).unwrap()
    };
    let small = boards(&[0, 2, 0, 2, 0, 2], &[1, 1, 1, 1, 1, 1]);
    let (p, _) = crate::net::evaluate_position(&weights, &small, &mut scratch);
    assert_eq!(p.win, bearoff_two_sided_db().evaluate(&small).unwrap().win);
    assert_eq!(crate::evaluated_by_position(&small), "bearoff database (two-sided, exact)");
    let big = boards(&[0, 2, 0, 2, 0, 3], &[1, 1, 1, 1, 1, 1]);
    let (p, _) = crate::net::evaluate_position(&weights, &big, &mut scratch);
    assert_eq!(p, bearoff_db().evaluate(&big).unwrap());
    assert_eq!(crate::evaluated_by_position(&big), "bearoff database (one-sided)");
    assert_eq!(crate::evaluated_by_position(&Position::STARTING), "contact net");
}
