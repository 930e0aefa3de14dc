use super::*;
use gammon_rules::MoveList;

/// Every table of every layout, as (distribution, first-off
/// distribution, means) bits.
fn every_layout(db: &BearoffDb) -> Vec<(Vec<u32>, Vec<u32>, u32, u32)> {
    let bits = |d: &[f32]| d.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    (0..LAYOUTS)
        .map(|r| {
            let l = layout(r).unwrap();
            (
                bits(db.distribution(&l).unwrap()),
                bits(db.first_off_distribution(&l).unwrap()),
                db.expected_rolls(&l).unwrap().to_bits(),
                db.expected_rolls_to_first_off(&l).unwrap().to_bits(),
            )
        })
        .collect()
}

#[test]
fn the_cache_holds_the_same_database_and_a_damaged_one_is_rebuilt() {
    let dir = std::env::temp_dir().join(format!("gammon-bearoff1-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let (built, how) = BearoffDb::load_or_build(Some(&dir));
    assert_eq!(how, CacheOutcome::Built);
    assert!((0..built.parts.len()).all(|k| built.parts.peek(k).is_some_and(|p| p.is_whole(Part::layouts(k)))));
    let want = every_layout(&built);
    let (read, how) = BearoffDb::load_or_build(Some(&dir));
    assert_eq!(how, CacheOutcome::Read);
    // Opened, then read a part at a time as the layouts are asked for.
    assert_eq!(read.parts.held().count(), 0);
    read.evaluate_layouts(&[1, 0, 0, 0, 0, 0], &[0, 0, 0, 0, 0, 2]).unwrap();
    assert_eq!(read.parts.held().count(), 2);
    assert!(every_layout(&read) == want, "the cache gives back the same tables, bit for bit");
    // A damaged index: the file is rebuilt.
    let path = dir.join(CACHE_FILE);
    let good = std::fs::read(&path).unwrap();
    let mut bytes = good.clone();
    bytes[40] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    assert!(BearoffDb::read(&path).is_err());
    assert_eq!(BearoffDb::load_or_build(Some(&dir)).1, CacheOutcome::Built);
    // A damaged part opens, and is found when it is read: the process
    // builds the database, answers from the build, rewrites the file.
    let mut bytes = good.clone();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = BearoffDb::read(&path).unwrap();
    assert!(every_layout(&damaged) == want);
    assert!(damaged.parts.is_rebuilt());
    assert_eq!(std::fs::read(&path).unwrap(), good);
    // A part whose tables do not fit together is refused even with a
    // good checksum, and rebuilt.
    let mut broken: Vec<Vec<u8>> =
        (0..built.parts.len()).map(|k| encode(built.part(k * PART).unwrap().0).unwrap()).collect();
    let mut part = built.part(0).unwrap().0.clone();
    part.offsets.pop();
    broken[0] = encode(&part).unwrap();
    write_chunked(&path, FileKind::Bearoff1, CACHE_VERSION, &(PART as u32).to_le_bytes(), &broken).unwrap();
    let refused = BearoffDb::read(&path).unwrap();
    refused.part(PART).unwrap();
    assert!(!refused.parts.is_rebuilt(), "part 1 reads");
    refused.part(0).unwrap();
    assert!(refused.parts.is_rebuilt(), "part 0 is refused");
    // A file of another kind is not read as one.
    std::fs::write(&path, b"not a database").unwrap();
    assert!(BearoffDb::read(&path).is_err());
    assert_eq!(BearoffDb::load_or_build(Some(&dir)).1, CacheOutcome::Built);
    // A cache folder that is a file: built, not written, no error.
    let blocked = dir.join("file");
    std::fs::write(&blocked, b"x").unwrap();
    assert_eq!(BearoffDb::load_or_build(Some(&blocked)).1, CacheOutcome::NotWritten);
    assert_eq!(BearoffDb::load_or_build(None).1, CacheOutcome::NoCacheDir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn binomials() {
    assert_eq!(BINOM[20][6] + BINOM[20][5], LAYOUTS as u32); // C(21, 6) = C(20, 6) + C(20, 5)
    assert_eq!(BINOM[20][15], 15_504);
    assert_eq!(BINOM[5][5], 1);
    assert_eq!(BINOM[4][5], 0);
}

#[test]
fn index_is_a_bijection_and_successors_come_first() {
    for r in 0..LAYOUTS {
        let l = layout(r).unwrap();
        assert!(checkers(&l) <= MAX_CHECKERS);
        assert_eq!(index(&l), Ok(r));
        for die in 1..=6 {
            single_steps(&l, die, |m| assert!(rank(&m) < r, "{m:?} from {l:?}"));
        }
    }
    // Every layout of up to 15 checkers gets a distinct index.
    let mut seen = vec![false; LAYOUTS];
    let mut count = 0;
    for a in 0..16u8 {
        for b in 0..16 - a {
            for c in 0..16 - a - b {
                for d in 0..16 - a - b - c {
                    for e in 0..16 - a - b - c - d {
                        for f in 0..16 - a - b - c - d - e {
                            let r = index(&[a, b, c, d, e, f]).unwrap();
                            assert!(!seen[r]);
                            seen[r] = true;
                            count += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(count, LAYOUTS);
    assert_eq!(layout(LAYOUTS), Err(BearoffError::IndexOutOfRange { index: LAYOUTS }));
    assert_eq!(index(&[15, 1, 0, 0, 0, 0]), Err(BearoffError::TooManyCheckers { count: 16 }));
    assert_eq!(index(&[255; 6]), Err(BearoffError::TooManyCheckers { count: 1530 }));
}

/// Our bear-off results equal the rules crate's, with the opponent far
/// away (15 checkers on his ace point = my 24-point).
#[test]
fn successors_match_the_rules_move_generator() {
    let mut far = [0u8; 25];
    far[0] = 15;
    let mut list = MoveList::new();
    for r in (1..LAYOUTS).step_by(3) {
        let l = unrank(r);
        let mut board = [0u8; 25];
        board[..POINTS].copy_from_slice(&l);
        let pos = Position::from_boards(&board, &far).unwrap();
        for dice in ALL_ROLLS {
            list.generate(&pos, dice);
            let mut expected: Vec<Layout> = list
                .positions()
                .iter()
                .map(|p| {
                    let (me, _) = p.switched().to_boards();
                    assert!(me[POINTS..].iter().all(|&n| n == 0));
                    let mut out = [0u8; POINTS];
                    out.copy_from_slice(&me[..POINTS]);
                    out
                })
                .collect();
            expected.sort_unstable();
            assert_eq!(successors(&l, dice).unwrap(), expected, "{l:?} {dice}");
        }
    }
}
