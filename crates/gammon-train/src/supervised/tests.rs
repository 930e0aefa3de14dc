//! Tests of the supervised fit (`supervised.rs`).
use super::*;

fn labelled(weights: &NetWeights, n: usize) -> Dataset {
    let positions = crate::distill::sample_positions(weights, n, 11, 0.3);
    // A smooth target the nets can learn: the pip count decides.
    let labels = positions
        .iter()
        .map(|p| {
            let (me, him) = p.pip_count();
            let w = 1.0 / (1.0 + (-(him as f32 - me as f32) / 20.0).exp());
            [w, 0.3 * w, 0.01, 0.3 * (1.0 - w), 0.01]
        })
        .collect();
    Dataset { positions: positions.iter().map(Position::to_position_id).collect(), labels, ..Dataset::default() }
}

#[test]
fn an_empty_fit_is_an_error_and_a_stop_keeps_the_best_epoch() {
    let mut w = NetWeights::random(8, 8, 1);
    let settings = FitSettings { max_epochs: 3, ..FitSettings::default() };
    let empty = Dataset::default();
    assert!(matches!(fit_supervised(&mut w, &[&empty], &settings, |_| {}), Err(FitError::Empty)));
    assert!(matches!(fit_supervised(&mut w, &[], &settings, |_| {}), Err(FitError::Empty)));
    // Stopped after the first epoch: one row, the rest of the nets untouched.
    let data = labelled(&w, 300);
    let before = w.clone();
    let stop = AtomicBool::new(false);
    let report =
        fit_supervised_until(&mut w, &[&data], &settings, |_| stop.store(true, Ordering::Relaxed), &stop).expect("fit");
    assert!(report.stopped);
    assert_eq!(report.epochs.len(), 1);
    assert_eq!(w.race, before.race);
}

#[test]
fn validation_is_a_stable_fraction_of_the_positions() {
    let w = NetWeights::random(8, 8, 1);
    let d = labelled(&w, 2000);
    let held = d.positions.iter().filter(|id| is_validation(id, 0.1)).count();
    assert!((100..300).contains(&held), "{held}");
    assert!(d.positions.iter().all(|id| is_validation(id, 0.1) == is_validation(id, 0.1)));
    assert!(!d.positions.iter().any(|id| is_validation(id, 0.05) && !is_validation(id, 0.1)), "nested");
}

#[test]
fn settings_are_checked() {
    assert_eq!(FitSettings::default().validate(), Ok(()));
    let bad = [
        FitSettings { max_epochs: 0, ..FitSettings::default() },
        FitSettings { batch: 0, ..FitSettings::default() },
        FitSettings { rate: f32::NAN, ..FitSettings::default() },
        FitSettings { patience: 21, ..FitSettings::default() },
        FitSettings { validation: 0.0, ..FitSettings::default() },
        FitSettings { validation: 0.6, ..FitSettings::default() },
    ];
    let names: Vec<_> = bad
        .iter()
        .map(|s| match s.validate() {
            Err(FitError::Setting { setting, .. }) => setting,
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(names, ["max_epochs", "batch", "rate", "patience", "validation", "validation"]);
}

#[test]
fn fitting_lowers_the_validation_error_and_keeps_the_best() {
    let mut w = NetWeights::random(16, 8, 4);
    let d = labelled(&w, 3000);
    let settings = FitSettings { max_epochs: 8, batch: 16, rate: 2.0, patience: 1, ..FitSettings::default() };
    let mut rows = 0;
    let report = fit_supervised(&mut w, &[&d], &settings, |_| rows += 1).unwrap();
    assert_eq!(rows, report.epochs.len());
    let contact = &report.nets[NetKind::Contact.index()];
    assert!(contact.train > 1000 && contact.validation > 50, "{contact:?}");
    assert!(contact.validation_mse_best < 0.5 * contact.validation_mse_before, "{contact:?}");
    // The kept net is the best epoch's: its error is the reported best.
    let (train, val) = &split(&[&d], &FitData::default(), settings.validation).unwrap().0[NetKind::Contact.index()];
    assert!(train.len() > val.len());
    let (mse, _) = errors(&w.contact, val);
    assert!((mse - contact.validation_mse_best).abs() < 1e-9, "{mse} {contact:?}");
}

/// `only` fits one net and leaves the others, with positions or not,
/// as they were.
#[test]
fn only_the_named_net_is_fitted() {
    let start = NetWeights::random(16, 8, 4);
    let d = labelled(&start, 3000);
    let counts = split(&[&d], &FitData::default(), 0.05).unwrap().0.map(|(train, _)| train.len());
    assert!(counts[NetKind::Contact.index()] > 1000 && counts[NetKind::Race.index()] > 20, "{counts:?}");
    let settings = FitSettings { max_epochs: 2, only: Some(NetKind::Race), ..FitSettings::default() };
    let mut w = start.clone();
    let report = fit_supervised(&mut w, &[&d], &settings, |_| ()).unwrap();
    assert_eq!(report.nets.iter().map(|n| n.net).collect::<Vec<_>>(), ["race"]);
    assert!(report.epochs.iter().all(|r| r.net == "race"));
    assert_eq!((&w.contact, &w.crashed), (&start.contact, &start.crashed));
    assert_ne!(w.race, start.race);
    let json = serde_json::to_value(settings).unwrap();
    assert_eq!(json["only"], "race");
    // A net without positions to fit is refused, not written unchanged.
    let all = labelled(&start, 300);
    let contact =
        |id: &&String| NetKind::of_position(&Position::from_position_id(id).unwrap()) == Some(NetKind::Contact);
    let (positions, labels) =
        all.positions.iter().zip(&all.labels).filter(|(id, _)| contact(id)).map(|(id, l)| (id.clone(), *l)).unzip();
    let d = Dataset { positions, labels, ..Dataset::default() };
    let err = fit_supervised(&mut w, &[&d], &settings, |_| ()).unwrap_err();
    assert!(matches!(&err, FitError::NothingToFit(m) if m.contains("the race net has 0 training")), "{err}");
}

/// With `halve_after` N the rate halves only after N epochs in a row
/// without a new best, and the net goes on from where it is until then.
#[test]
fn the_rate_halves_after_the_misses_asked_for() {
    let start = NetWeights::random(16, 8, 4);
    // Labels that are noise: the validation error soon stops falling.
    let mut d = labelled(&start, 2000);
    for (i, label) in d.labels.iter_mut().enumerate() {
        let u = (i * 7919 % 1000) as f32 / 1000.0;
        *label = [u, 0.3 * u, 0.01, 0.3 * (1.0 - u), 0.01];
    }
    for halve_after in [1, 2, 3] {
        let settings =
            FitSettings { max_epochs: 60, batch: 16, rate: 2.0, patience: 4, halve_after, ..FitSettings::default() };
        let mut w = start.clone();
        let report = fit_supervised(&mut w, &[&d], &settings, |_| ()).unwrap();
        let rows: Vec<_> = report.epochs.iter().filter(|r| r.net == "contact").collect();
        let (mut misses, mut halvings, mut kept) = (0, 0, 0);
        for pair in rows.windows(2) {
            misses = if pair[0].best { 0 } else { misses + 1 };
            if pair[1].rate < pair[0].rate {
                assert_eq!(misses, halve_after, "{rows:?}");
                assert_eq!(pair[1].rate, pair[0].rate / 2.0);
                (misses, halvings) = (0, halvings + 1);
            } else {
                assert_eq!(pair[1].rate, pair[0].rate);
                kept += usize::from(misses > 0);
            }
        }
        assert!(halvings >= 1, "halve_after {halve_after}: {rows:?}");
        assert_eq!(kept > 0, halve_after > 1, "halve_after {halve_after}: {rows:?}");
    }
    let bad = FitSettings { halve_after: 0, ..FitSettings::default() };
    assert!(matches!(bad.validate(), Err(FitError::Setting { setting: "halve_after", .. })));
}

#[test]
fn cross_entropy_learns_too() {
    let mut w = NetWeights::random(16, 8, 4);
    let d = labelled(&w, 3000);
    let settings =
        FitSettings { loss: Loss::CrossEntropy, max_epochs: 6, batch: 16, rate: 0.5, ..FitSettings::default() };
    let report = fit_supervised(&mut w, &[&d], &settings, |_| {}).unwrap();
    let contact = &report.nets[NetKind::Contact.index()];
    assert!(contact.validation_mse_best < 0.5 * contact.validation_mse_before, "{contact:?}");
}

#[test]
fn a_fit_is_the_same_at_any_thread_count() {
    let w0 = NetWeights::random(16, 8, 4);
    let d = labelled(&w0, 600);
    let settings = FitSettings { max_epochs: 2, batch: 8, ..FitSettings::default() };
    let run = |threads| {
        let mut w = w0.clone();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let report = pool.install(|| fit_supervised(&mut w, &[&d], &settings, |_| {}).unwrap());
        (w, report)
    };
    assert_eq!(run(1), run(3));
}

/// Adam learns where plain descent at the same small rate barely
/// moves, and its fit is the same at any thread count too.
#[test]
fn adam_learns_at_a_rate_where_plain_descent_crawls() {
    let w0 = NetWeights::random(16, 8, 4);
    let d = labelled(&w0, 3000);
    let settings =
        FitSettings { loss: Loss::CrossEntropy, max_epochs: 4, batch: 16, rate: 0.003, ..FitSettings::default() };
    let best = |optimizer| {
        let mut w = w0.clone();
        let report = fit_supervised(&mut w, &[&d], &FitSettings { optimizer, ..settings }, |_| {}).unwrap();
        let contact = report.nets[NetKind::Contact.index()].clone();
        (w, contact)
    };
    let (_, sgd) = best(Optimizer::Sgd);
    let (adam_net, adam) = best(Optimizer::Adam);
    assert!(adam.validation_mse_best < 0.5 * adam.validation_mse_before, "{adam:?}");
    assert!(adam.validation_mse_best < 0.5 * sgd.validation_mse_best, "adam {adam:?}, sgd {sgd:?}");
    let pool = rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap();
    let mut w = w0.clone();
    pool.install(|| fit_supervised(&mut w, &[&d], &FitSettings { optimizer: Optimizer::Adam, ..settings }, |_| {}))
        .unwrap();
    assert_eq!(w, adam_net);
}

#[test]
fn a_dataset_met_more_often_an_epoch_weighs_more() {
    let start = NetWeights::random(8, 8, 5);
    let d = labelled(&start, 1600);
    // Two halves with contrary targets: as labelled, and with the sides'
    // chances swapped.
    let half = d.len() / 2;
    let a =
        Dataset { positions: d.positions[..half].to_vec(), labels: d.labels[..half].to_vec(), ..Dataset::default() };
    let swapped = d.labels[half..].iter().map(|l| [1.0 - l[0], l[3], l[4], l[1], l[2]]).collect();
    let b = Dataset { positions: d.positions[half..].to_vec(), labels: swapped, ..Dataset::default() };
    let settings = FitSettings { max_epochs: 4, batch: 16, rate: 1.0, patience: 1, ..FitSettings::default() };
    let stop = AtomicBool::new(false);
    let fitted = |repeats: Option<&[u32]>| {
        let mut w = start.clone();
        let data = FitData { repeats, ..FitData::default() };
        fit_supervised_with(&mut w, &[&a, &b], data, &settings, |_| {}, &stop).unwrap();
        w
    };
    // The training error of each half's contact positions.
    let error_on = |w: &NetWeights, d: &Dataset| {
        let (train, _) = &split(&[d], &FitData::default(), settings.validation).unwrap().0[NetKind::Contact.index()];
        errors(w.net(NetKind::Contact), train).0
    };
    let (more_a, more_b) = (fitted(Some(&[3, 1])), fitted(Some(&[1, 3])));
    assert!(error_on(&more_a, &a) < error_on(&more_b, &a), "a met three times fits a better");
    assert!(error_on(&more_b, &b) < error_on(&more_a, &b), "b met three times fits b better");
    // Once each is the plain fit, to the bit.
    let mut plain = start.clone();
    fit_supervised(&mut plain, &[&a, &b], &settings, |_| {}).unwrap();
    assert_eq!(fitted(Some(&[1, 1])), plain);
    // Counts that do not go with the datasets.
    for (repeats, why) in [
        (&[1u32][..], "repeats: 1 counts for 2 datasets"),
        (&[0, 1], "repeats: 0 is not 1 to 10"),
        (&[1, 11], "repeats: 11 is not 1 to 10"),
    ] {
        let mut w = start.clone();
        let data = FitData { repeats: Some(repeats), ..FitData::default() };
        let err = fit_supervised_with(&mut w, &[&a, &b], data, &settings, |_| {}, &stop).unwrap_err();
        assert_eq!(err.to_string(), why);
    }
}

#[test]
fn a_rank_only_dataset_is_never_validated_on_and_gives_way_to_value_labels() {
    let w = NetWeights::random(8, 8, 5);
    let d = labelled(&w, 600);
    let other: Vec<[f32; OUTPUTS]> = d.labels.iter().map(|l| [1.0 - l[0], l[3], l[4], l[1], l[2]]).collect();
    let ranked = Dataset { labels: other.clone(), ..d.clone() };
    // In either order, the value labels and their repeat counts are the
    // ones kept, and the rank-only file gives no pairs.
    for (sets, rank_only, repeats) in [([&d, &ranked], [false, true], [1, 3]), ([&ranked, &d], [true, false], [3, 1])] {
        let data = FitData { rank_only: Some(&rank_only), repeats: Some(&repeats), ..FitData::default() };
        let ([contact, ..], duplicates, locations) = split(&sets, &data, 0.1).unwrap();
        assert!(duplicates > 0);
        assert!(contact.0.valued.iter().chain(&contact.1.valued).all(|&v| v));
        assert!(contact.0.repeats.iter().chain(&contact.1.repeats).all(|&n| n == 1));
        let valued = if rank_only[0] { 1 } else { 0 };
        assert!(locations[1 - valued].iter().all(Option::is_none), "{rank_only:?}");
        for (k, at) in locations[valued].iter().enumerate() {
            let Some((0, is_val, i)) = *at else { continue };
            let examples = if is_val { &contact.1 } else { &contact.0 };
            // (d holds a few positions twice, with the same label: their mean.)
            assert!(examples.labels[i].iter().zip(&d.labels[k]).all(|(a, b)| (a - b).abs() < 1e-6));
        }
    }
    // Alone, a rank-only dataset's validation positions are left out and
    // its training positions fit no values.
    let data = FitData { rank_only: Some(&[true]), ..FitData::default() };
    let ([contact, ..], _, locations) = split(&[&ranked], &data, 0.1).unwrap();
    assert_eq!(contact.1.len(), 0);
    assert!(contact.0.len() > 300 && contact.0.valued.iter().all(|&v| !v));
    assert!(locations[0].iter().flatten().all(|&(_, is_val, _)| !is_val));
    // Marks that do not go with the datasets, or without a ranking term
    // with the rank-only dataset's groups.
    let stop = AtomicBool::new(false);
    let settings = FitSettings { max_epochs: 1, ..FitSettings::default() };
    let groups = vec![0u32; d.len()];
    let ungrouped = crate::ranking::Ranking { groups: vec![Some(&groups), None], weight: 1.0 };
    let needs = "ranking: dataset 2 is rank-only: it needs a ranking term with its groups";
    for (marks, ranking, why) in [
        (&[true][..], None, "ranking: rank-only marks for 1 datasets, the fit has 2"),
        (&[false, true], None, needs),
        (&[false, true], Some(&ungrouped), needs),
    ] {
        let mut net = w.clone();
        let data = FitData { rank_only: Some(marks), ranking, ..FitData::default() };
        let err = fit_supervised_with(&mut net, &[&d, &ranked], data, &settings, |_| {}, &stop).unwrap_err();
        assert_eq!(err.to_string(), why);
    }
}

/// Labels a constant step below the truth in level (as the campaign's
/// truncated rollouts are in backgammons) but right in their differences:
/// rank-only, they teach the differences and leave the level to the value
/// labels; as values, they pull the level down.
#[test]
fn a_rank_only_dataset_teaches_differences_not_its_level() {
    use crate::ranking::Ranking;
    use crate::siblings::sample_grouped;
    use gammon_eval::{Evaluator, NetEvaluator};
    let w0 = NetWeights::random(16, 8, 5);
    let grouped = sample_grouped(&w0, 1500, 3, 0.1, 4, f32::INFINITY);
    let net = NetEvaluator::new(w0.clone());
    // The truth: the net's value plus a sibling-specific step the inputs
    // carry (the pip count); the rank-only labels are 0.1 lower in win.
    let truth = |p: &Position| {
        let v = net.evaluate(p);
        let (me, him) = p.pip_count();
        let w = (v.win + (him as f32 - me as f32) / 400.0).clamp(0.2, 0.9);
        [w, v.win_gammon, v.win_backgammon, v.lose_gammon, v.lose_backgammon]
    };
    let ids: Vec<String> = grouped.positions.iter().map(Position::to_position_id).collect();
    let low = Dataset {
        positions: ids.clone(),
        labels: grouped.positions.iter().map(&truth).map(|[w, a, b, c, d]| [w - 0.1, a, b, c, d]).collect(),
        ..Dataset::default()
    };
    // Value labels for other positions: the truth, level and all.
    let others = labelled(&w0, 800);
    let valued = Dataset {
        labels: others.positions.iter().map(|id| truth(&Position::from_position_id(id).unwrap())).collect(),
        ..others
    };
    let settings =
        FitSettings { loss: Loss::CrossEntropy, max_epochs: 3, batch: 16, rate: 0.2, ..FitSettings::default() };
    let ranking = Ranking { groups: vec![Some(&grouped.groups), None], weight: 20.0 };
    let stop = AtomicBool::new(false);
    let fitted = |rank_only: [bool; 2]| {
        let mut w = w0.clone();
        let data = FitData { ranking: Some(&ranking), rank_only: Some(&rank_only), ..FitData::default() };
        fit_supervised_with(&mut w, &[&low, &valued], data, &settings, |_| {}, &stop).unwrap();
        NetEvaluator::new(w)
    };
    let (as_values, as_ranks) = (fitted([false, false]), fitted([true, false]));
    // The value labels alone: what the rank-only dataset adds to.
    let alone = {
        let mut w = w0.clone();
        let ranking = Ranking { groups: vec![None], weight: 20.0 };
        let data = FitData { ranking: Some(&ranking), ..FitData::default() };
        fit_supervised_with(&mut w, &[&valued], data, &settings, |_| {}, &stop).unwrap();
        NetEvaluator::new(w)
    };
    // Mean win below the truth, and mean |error| of sibling differences,
    // over the contact positions of the low labels.
    let measure = |e: &NetEvaluator| {
        let (mut level, mut diff, mut n, mut pairs) = (0.0, 0.0, 0, 0);
        for k in 0..grouped.positions.len() {
            let p = grouped.positions[k];
            if NetKind::of_position(&p) != Some(NetKind::Contact) {
                continue;
            }
            level += f64::from(e.evaluate(&p).win - truth(&p)[0]);
            n += 1;
            let q = grouped.positions[k.saturating_sub(1)];
            if k > 0 && grouped.groups[k] == grouped.groups[k - 1] && NetKind::of_position(&q) == Some(NetKind::Contact)
            {
                let de = e.evaluate(&p).win - e.evaluate(&q).win;
                diff += f64::from((de - (truth(&p)[0] - truth(&q)[0])).abs());
                pairs += 1;
            }
        }
        assert!(pairs > 300, "{pairs} pairs");
        (level / f64::from(n), diff / f64::from(pairs))
    };
    let (values, ranks, without) = (measure(&as_values), measure(&as_ranks), measure(&alone));
    assert!(values.0 - without.0 < -0.05, "as values the level follows the low labels: {values:?}, {without:?}");
    assert!(
        (ranks.0 - without.0).abs() < 0.3 * (values.0 - without.0).abs(),
        "rank-only keeps the value labels' level: {ranks:?}, {values:?}, {without:?}"
    );
    assert!(ranks.1 < 0.9 * without.1, "rank-only fits the differences better: {ranks:?} against {without:?}");
}
