//! Match review on small hand-written match files: every record reviewed,
//! the figures consistent with the records, the same at any thread count.

use gammon_engine::api::Engine;
use gammon_engine::review::{
    review_match, review_match_until, CubeChoice, Mark, MatchReview, ReviewError, ReviewSettings,
};
use gammon_eval::NetEvaluator;
use gammon_rules::{read_match_file, MatAction, MatchRecord};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

fn match_file(name: &str) -> MatchRecord {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../gammon-rules/tests/data/matches").join(name);
    read_match_file(path).unwrap()
}

fn shallow() -> ReviewSettings {
    ReviewSettings { plies: 0, cube_plies: 0, ..ReviewSettings::default() }
}

fn review(record: &MatchRecord, settings: &ReviewSettings, threads: usize) -> MatchReview {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    pool.install(|| review_match(&engine, record, settings, |_, _| {})).unwrap()
}

#[test]
fn every_record_is_reviewed_with_its_move_cube_and_luck() {
    let record = match_file("three_point.mat");
    let r = review(&record, &shallow(), 2);
    assert_eq!(r.games.len(), record.games.len());
    for (g, text) in r.games.iter().zip(&record.games) {
        assert_eq!(g.records.len(), text.records.len());
        for (rec, entry) in g.records.iter().zip(&text.records) {
            assert_eq!(rec.action, entry.action);
            match &entry.action {
                MatAction::Move { .. } => {
                    let c = rec.chequer.as_ref().expect("a move is reviewed");
                    assert!(rec.luck.is_some());
                    assert!(c.loss >= 0.0 && (c.loss - (c.best.equity - c.played.equity)).abs() < 1e-12);
                    assert_eq!(c.mark, if c.forced { Mark::None } else { Mark::of_loss(c.loss) });
                    assert_eq!(c.forced, c.legal_moves <= 1);
                    assert_eq!(c.candidates[0], c.best);
                    assert!(c.candidates.iter().any(|m| m.result == c.played.result));
                    assert_eq!(c.loss_mwc.is_some(), record.match_length > 0);
                }
                MatAction::Dance { .. } => assert!(rec.chequer.is_none() && rec.luck.is_some()),
                MatAction::Double { .. } => assert_eq!(rec.cube.as_ref().unwrap().choice, CubeChoice::Double),
                MatAction::Take => assert_eq!(rec.cube.as_ref().unwrap().choice, CubeChoice::Take),
                MatAction::Drop => assert_eq!(rec.cube.as_ref().unwrap().choice, CubeChoice::Pass),
                _ => assert!(rec.chequer.is_none() && rec.luck.is_none()),
            }
            // Nobody may double in the Crawford game: no cube decision there.
            if g.crawford {
                assert!(rec.cube.is_none());
            }
        }
    }
}

#[test]
fn the_summary_adds_up_the_records() {
    for (name, record) in [
        ("three_point.mat", match_file("three_point.mat")),
        ("money.sgf", match_file("money.sgf")),
        (
            "a real FIBS match",
            read_match_file(gammon_testkit::shared_dir().join("matches/real/fibs_Kalagh-nori_3p.mat")).unwrap(),
        ),
    ] {
        let r = review(&record, &shallow(), 1);
        for (seat, s) in r.summary.iter().enumerate() {
            let mine = || r.games.iter().flat_map(|g| &g.records).filter(|rec| rec.player.index() == seat);
            let rolls = mine().filter(|rec| rec.luck.is_some()).count();
            let unforced: Vec<f64> =
                mine().filter_map(|rec| rec.chequer.as_ref()).filter(|c| !c.forced).map(|c| c.loss).collect();
            let close: Vec<f64> =
                mine().filter_map(|rec| rec.cube.as_ref()).filter(|c| c.close).map(|c| c.error).collect();
            assert_eq!(s.name, record.players[seat]);
            assert_eq!(s.total_moves, rolls, "{name}");
            assert_eq!(s.unforced_moves, unforced.len());
            assert_eq!(s.close_cube_decisions, close.len());
            let total = unforced.iter().sum::<f64>() + close.iter().sum::<f64>();
            let n = unforced.len() + close.len();
            if n > 0 {
                assert!((s.overall_error_rate().unwrap() - total / n as f64).abs() < 1e-12);
                assert!((s.pr().unwrap() - 500.0 * total / n as f64).abs() < 1e-9);
            }
            let both: usize = r.summary.iter().map(|s| s.total_moves).sum();
            assert_eq!(s.both_players_moves, both);
        }
    }
}

#[test]
fn a_review_is_the_same_at_any_thread_count() {
    let record = match_file("three_point.mat");
    let settings = ReviewSettings { plies: 1, ..shallow() };
    let one = review(&record, &settings, 1);
    let two = review(&record, &settings, 2);
    assert_eq!(one.games, two.games);
    assert_eq!(one.summary, two.summary);
}

#[test]
fn the_played_move_is_valued_at_full_depth() {
    let record = match_file("three_point.mat");
    let r = review(&record, &ReviewSettings { plies: 1, ..shallow() }, 2);
    let moves: Vec<_> = r.games.iter().flat_map(|g| &g.records).filter_map(|rec| rec.chequer.as_ref()).collect();
    assert!(!moves.is_empty());
    for c in moves {
        assert_eq!(c.played.plies, 1);
        assert_eq!(c.best.plies, 1);
    }
}

#[test]
fn depths_beyond_three_plies_are_refused() {
    let record = match_file("money.mat");
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    let settings = ReviewSettings { plies: 4, ..shallow() };
    let err = review_match(&engine, &record, &settings, |_, _| {}).unwrap_err();
    assert_eq!(err, ReviewError::TooDeep { what: "--ply", plies: 4 });
}

/// A review stopped part way keeps every record finished: its games are
/// the start of the whole review, record for record, whatever the threads.
#[test]
fn a_stopped_review_is_the_start_of_the_whole_one() {
    let record = match_file("three_point.mat");
    let settings = shallow();
    let whole = review(&record, &settings, 1);
    assert!(!whole.is_partial());
    assert_eq!(whole.records_reviewed, whole.records);
    assert_eq!(whole.records, record.games.iter().map(|g| g.records.len()).sum::<usize>());
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    for (threads, stop_after) in [(1, 5), (2, 5), (3, 11), (2, 1)] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let stop = AtomicBool::new(false);
        let progress = |done: usize, _: usize| {
            if done >= stop_after {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let part = pool.install(|| review_match_until(&engine, &record, &settings, progress, &stop)).unwrap();
        assert!(part.is_partial(), "{threads} threads");
        // Every record begun is finished: at least `stop_after`, at most one more per thread.
        let n = part.records_reviewed;
        assert!(n >= stop_after && n < stop_after + threads, "{n} records after a stop at {stop_after}");
        let kept: Vec<_> = part.games.iter().flat_map(|g| &g.records).collect();
        let first: Vec<_> = whole.games.iter().flat_map(|g| &g.records).take(n).collect();
        assert_eq!(kept, first);
        // Each game kept is the whole one's, but for the last, cut after its reviewed records.
        let last = part.games.len() - 1;
        for (i, (g, w)) in part.games.iter().zip(&whole.games).enumerate() {
            assert_eq!((g.number, g.score, g.result), (w.number, w.score, w.result));
            assert!(i == last || g.records == w.records);
        }
        // The summary counts only the records kept.
        let moves = kept.iter().filter(|r| r.chequer.as_ref().is_some_and(|c| !c.forced)).count();
        assert_eq!(part.summary.iter().map(|s| s.unforced_moves).sum::<usize>(), moves);
    }
}

#[test]
fn a_review_stopped_before_it_began_is_an_error() {
    let record = match_file("money.mat");
    let engine = Engine::new(NetEvaluator::shipped().unwrap());
    let err = review_match_until(&engine, &record, &shallow(), |_, _| {}, &AtomicBool::new(true)).unwrap_err();
    assert_eq!(err, ReviewError::Interrupted);
}

#[test]
fn a_stored_analysis_is_read_beside_gammons() {
    // gammon's own review stored in the match and read back: by those
    // numbers every error is gammon's own, but for one move made worse by
    // 0.1 in the stored numbers.
    let mut record = match_file("three_point.mat");
    let first = review(&record, &shallow(), 2);
    assert_eq!(first.stored_program, None);
    let mut stored = first.to_stored("gammon");
    let (&key, changed) = stored
        .records
        .iter_mut()
        .find(|(_, r)| r.chequer.as_ref().is_some_and(|c| c.played.is_some_and(|k| k > 0)))
        .expect("a move that was not the best");
    let chequer = changed.chequer.as_mut().unwrap();
    chequer.candidates[chequer.played.unwrap()].equity -= 0.1;
    record.stored = Some(stored);
    let second = review(&record, &shallow(), 2);
    assert_eq!(second.stored_program.as_deref(), Some("gammon"));
    let mut cube_errors = [0.0; 2];
    for (g, game) in second.games.iter().enumerate() {
        for (i, r) in game.records.iter().enumerate() {
            let Some(s) = &r.stored else {
                assert!(r.chequer.is_none() && r.cube.is_none(), "game {g} record {i} not stored");
                continue;
            };
            if let Some(c) = &r.chequer {
                let expected = if (g, i) == key { c.loss + 0.1 } else { c.loss };
                let loss = s.loss.unwrap();
                assert!((loss - expected).abs() < 1e-9, "game {g} record {i}: {loss} against {expected}");
            }
            if let Some(c) = &r.cube {
                let error = s.cube_error.unwrap();
                assert!((error - c.error).abs() < 1e-12, "game {g} record {i}: {error} against {}", c.error);
                if c.close {
                    cube_errors[r.player.index()] += error;
                }
            }
        }
    }
    let worse = second.games[key.0].records[key.1].player.index();
    for (seat, (s, first)) in second.summary.iter().zip(&first.summary).enumerate() {
        let x = s.stored;
        assert_eq!((x.moves, x.cube_decisions), (first.unforced_moves, first.close_cube_decisions));
        let extra = if seat == worse { 0.1 } else { 0.0 };
        assert!((x.chequer_error - first.chequer_error - extra).abs() < 1e-9);
        assert!((x.cube_error - cube_errors[seat]).abs() < 1e-9);
    }
}
