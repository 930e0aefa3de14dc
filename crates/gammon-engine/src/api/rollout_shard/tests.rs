use super::*;
use crate::rollout::RolloutError;
use gammon_eval::NetEvaluator;

fn engine() -> Engine<NetEvaluator> {
    Engine::new(NetEvaluator::shipped().unwrap())
}

fn settings(trials: u64) -> RolloutSettings {
    RolloutSettings { trials, truncate: Some(3), candidates: Some(4), ..RolloutSettings::default() }
}

fn shard_of(
    e: &Engine<NetEvaluator>,
    dice: Option<Dice>,
    s: &RolloutSettings,
    shard: Shard,
    threads: usize,
) -> RolloutShard {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let p = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    pool.install(|| {
        e.rollout_shard(
            (&Request { dice, ..Request::money(p) }, false),
            s,
            shard,
            7,
            None,
            |_| {},
            |_| {},
            &AtomicBool::new(false),
        )
    })
    .unwrap()
}

/// The merge of shards of a position or moves rollout.
fn merge(shards: &[RolloutShard], partial: bool) -> Result<(RolloutReport, MergeSummary), MergeError> {
    match merge_rollout_shards(shards, partial, Met::kazaross_xg2())? {
        (MergedRollout::Rollout(r), summary) => Ok((*r, summary)),
        (MergedRollout::CubeDecision(_), _) => panic!("a cube decision"),
    }
}

fn whole(e: &Engine<NetEvaluator>, dice: Option<Dice>, s: &RolloutSettings) -> RolloutReport {
    let p = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    e.rollout(&Request { dice, ..Request::money(p) }, s, |_| {}, &AtomicBool::new(false)).unwrap()
}

#[test]
fn shards_merged_in_any_order_are_the_whole_rollout_to_the_last_bit() {
    let e = engine();
    let s = settings(101);
    for dice in [None, Some(Dice::new(3, 1).unwrap())] {
        let one = whole(&e, dice, &s);
        for n in [1, 2, 3, 7] {
            let mut shards: Vec<RolloutShard> =
                (0..n).map(|k| shard_of(&e, dice, &s, Shard::new(k, n).unwrap(), 1 + k as usize % 3)).collect();
            assert!(shards.iter().all(RolloutShard::is_complete));
            shards.reverse();
            shards.rotate_left(n as usize / 2);
            let (merged, summary) = merge(&shards, false).unwrap();
            assert_eq!(summary, MergeSummary { shards: n as usize, missing: vec![], missing_shards: vec![] });
            assert_eq!(merged.outcome, one.outcome, "{n} shards, dice {dice:?}");
            assert_eq!((merged.settings, merged.legal_moves), (one.settings, one.legal_moves));
            // Equal f64s can still differ in bits only for 0.0 and -0.0;
            // the text of the numbers shows every bit.
            assert_eq!(format!("{:?}", merged.outcome), format!("{:?}", one.outcome));
        }
    }
}

#[test]
fn a_merge_refuses_other_rollouts_duplicates_and_gaps() {
    let e = engine();
    let s = settings(30);
    let part = |k, n| shard_of(&e, None, &s, Shard::new(k, n).unwrap(), 1);
    let (a, b, c) = (part(0, 3), part(1, 3), part(2, 3));
    let err = merge_rollout_shards(&[a.clone(), b.clone(), a.clone()], false, Met::kazaross_xg2()).unwrap_err();
    assert!(matches!(err, MergeError::Duplicate { shard: 2, other: 0, .. }), "{err:?}");
    let err = merge_rollout_shards(&[a.clone(), c.clone()], false, Met::kazaross_xg2()).unwrap_err();
    assert_eq!(err.to_string(), "games 10-19 of 30 are missing (shard 1/3); rerun those shards, or merge with --partial for the estimate so far");
    let (partial, summary) = merge(&[a.clone(), c.clone()], true).unwrap();
    assert_eq!(summary.missing, vec![10..20]);
    assert!(partial.interrupted());
    assert_eq!(partial.trials(), 20);
    let other_seed = shard_of(&e, None, &RolloutSettings { seed: 2, ..s }, Shard::new(1, 3).unwrap(), 1);
    let err = merge_rollout_shards(&[a.clone(), other_seed, c.clone()], false, Met::kazaross_xg2()).unwrap_err();
    assert!(matches!(err, MergeError::Different { shard: 1, what: "seed", .. }), "{err:?}");
    let mut other_net = b.clone();
    other_net.job.fingerprint = 8;
    let err = merge_rollout_shards(&[a.clone(), other_net, c.clone()], false, Met::kazaross_xg2()).unwrap_err();
    assert!(matches!(err, MergeError::Different { what: "net", .. }), "{err:?}");
    // A failed shard rerun as two finer ones fills its place.
    let (b1, b2) = (part(2, 6), part(3, 6));
    let (fine, _) = merge(&[a, b1, b2, c], false).unwrap();
    assert_eq!(fine.outcome, whole(&e, None, &s).outcome);
    assert_eq!(merge_rollout_shards(&[], false, Met::kazaross_xg2()).unwrap_err(), MergeError::Empty);
}

#[test]
fn a_stopped_shard_resumes_to_the_same_sums() {
    let e = engine();
    let s = settings(400);
    let p = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    let shard = Shard::new(1, 2).unwrap();
    let stop = AtomicBool::new(false);
    let saved = std::sync::Mutex::new(None);
    let first = e
        .rollout_shard(
            (&Request::money(p), false),
            &s,
            shard,
            7,
            None,
            |_| stop.store(true, std::sync::atomic::Ordering::SeqCst),
            |x| *saved.lock().unwrap() = Some(x.clone()),
            &stop,
        )
        .unwrap();
    assert!(!first.is_complete() && !first.tally.trials().is_empty());
    assert_eq!(saved.lock().unwrap().as_ref().map(|x| &x.tally), Some(&first.tally));
    let go = AtomicBool::new(false);
    let resumed =
        e.rollout_shard((&Request::money(p), false), &s, shard, 7, Some(first.clone()), |_| {}, |_| {}, &go).unwrap();
    assert_eq!(resumed.tally, shard_of(&e, None, &s, shard, 2).tally);
    // Another shard's file is not resumed.
    let err = e.rollout_shard(
        (&Request::money(p), false),
        &s,
        Shard::new(0, 2).unwrap(),
        7,
        Some(first),
        |_| {},
        |_| {},
        &go,
    );
    assert_eq!(err.unwrap_err(), EngineError::Rollout(RolloutError::Resume));
    // Nor does a shard stop at a target standard error.
    let target = RolloutSettings { target_se: Some(0.01), ..s };
    let err = e.rollout_shard((&Request::money(p), false), &target, shard, 7, None, |_| {}, |_| {}, &go);
    assert_eq!(err.unwrap_err(), EngineError::Rollout(RolloutError::ShardTarget));
}

#[test]
fn shard_files_round_trip_and_are_checked() {
    let e = engine();
    let s = shard_of(&e, Some(Dice::new(6, 4).unwrap()), &settings(12), Shard::new(0, 2).unwrap(), 1);
    let dir = std::env::temp_dir().join(format!("gammon-shard-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.gsh");
    s.save(&path).unwrap();
    assert_eq!(RolloutShard::load(&path).unwrap(), s);
    let mut bad = s.clone();
    bad.job.candidates.pop();
    bad.save(&path).unwrap();
    let err = RolloutShard::load(&path).unwrap_err().to_string();
    assert!(err.contains("not of the moves named"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_and_cube_decision_shards_merge_into_the_whole_rollout() {
    let e = engine();
    let s = RolloutSettings { candidates: None, ..settings(60) };
    let p = Position::from_position_id("4HPwATDgc/ABMA").unwrap();
    let context = gammon_rules::GameContext { match_length: 7, score: (3, 2), ..gammon_rules::GameContext::money() };
    let request = Request { context, ..Request::money(p) };
    let go = AtomicBool::new(false);
    let shards = |cube_decision: bool| -> Vec<RolloutShard> {
        (0..3)
            .map(|k| {
                let shard = Shard::new(k, 3).unwrap();
                e.rollout_shard((&request, cube_decision), &s, shard, 7, None, |_| {}, |_| {}, &go).unwrap()
            })
            .collect()
    };
    let settings_of_lines = RolloutSettings { cubeful: true, ..s };
    let (merged, _) = merge_rollout_shards(&shards(false), false, Met::kazaross_xg2()).unwrap();
    let MergedRollout::Rollout(merged) = merged else { panic!("a rollout") };
    let whole = e.rollout(&request, &s, |_| {}, &go).unwrap();
    assert_eq!(format!("{:?}", merged.outcome), format!("{:?}", whole.outcome));
    assert_eq!(merged.match_units, whole.match_units);
    assert!(merged.match_units.is_some());

    let (merged, _) = merge_rollout_shards(&shards(true), false, Met::kazaross_xg2()).unwrap();
    let MergedRollout::CubeDecision(merged) = merged else { panic!("a cube decision") };
    let whole = e.cube_rollout(&request, &s, |_| {}, &go).unwrap();
    assert_eq!(format!("{:?}", merged.report), format!("{:?}", whole.report));
    assert_eq!((merged.no_double, merged.double_take, merged.mwc), (whole.no_double, whole.double_take, whole.mwc));
    assert_eq!((merged.games, merged.settings), (60, settings_of_lines));
    // A match is merged with the table it was rolled out with.
    let other = Met::kazaross_xg2().clone().named("another table");
    let err = merge_rollout_shards(&shards(false), false, &other).unwrap_err();
    assert!(matches!(&err, MergeError::Table { given, .. } if given == "another table"), "{err:?}");
    // A money shard and a match shard of the same position are not one rollout.
    let mut money = shards(false);
    money[1].job.context = None;
    let err = merge_rollout_shards(&money, false, Met::kazaross_xg2()).unwrap_err();
    assert!(matches!(err, MergeError::Different { shard: 1, what: "context", .. }), "{err:?}");
}

#[test]
fn a_version_1_shard_reads_as_the_money_rollout_it_is() {
    #[derive(serde::Serialize)]
    struct JobV1<'a> {
        position: &'a str,
        dice: &'a Option<String>,
        settings: &'a RolloutSettings,
        evaluator: &'a str,
        fingerprint: u64,
        legal_moves: Option<usize>,
        candidates: &'a [(String, f64)],
    }
    #[derive(serde::Serialize)]
    struct ShardV1<'a> {
        job: JobV1<'a>,
        shard: Shard,
        tally: &'a RolloutTally,
        seconds: f64,
        threads: usize,
    }
    let e = engine();
    let now = shard_of(&e, Some(Dice::new(3, 1).unwrap()), &settings(20), Shard::new(0, 2).unwrap(), 1);
    let j = &now.job;
    let old = ShardV1 {
        job: JobV1 {
            position: &j.position,
            dice: &j.dice,
            settings: &j.settings,
            evaluator: &j.evaluator,
            fingerprint: j.fingerprint,
            legal_moves: j.legal_moves,
            candidates: &j.candidates,
        },
        shard: now.shard,
        tally: &now.tally,
        seconds: now.seconds,
        threads: now.threads,
    };
    let dir = std::env::temp_dir().join(format!("gammon-shard-v1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old.shard");
    file_format::write_file_atomic(&path, FileKind::RolloutShard, 1, &old).unwrap();
    assert_eq!(RolloutShard::load(&path).unwrap(), now);
    // A version this program does not know is refused, naming it.
    file_format::write_file_atomic(&path, FileKind::RolloutShard, 9, &old).unwrap();
    let err = RolloutShard::load(&path).unwrap_err().to_string();
    assert!(err.contains("format version 9"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
