use super::*;
use gammon_eval::NetKind;
use gammon_jobs::Shared;

fn temp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-distill-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn settings() -> DistillSettings {
    DistillSettings {
        positions: 1500,
        ply: 1,
        candidates: 2,
        afterstates: 0,
        rounds: 1,
        epochs: 3,
        rate: 1.0,
        explore: 0.1,
        seed: 3,
        threads: 2,
        benchmark_pairs: 0,
    }
}

/// A small random net and its file.
fn start(dir: &Path) -> PathBuf {
    let path = dir.join("start.gnn");
    NetWeights::random(16, 8, 4).save(&path).unwrap();
    path
}

#[test]
fn a_round_fits_its_labels_through_the_supervised_fitter() {
    let dir = temp("round");
    let from = start(&dir);
    let weights = NetWeights::load(&from).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let progress: Shared<()> = Shared::new();
    let dataset = dir.join("dataset.gds");
    let round = distill_round(&settings(), &pool, &weights, &dataset, 3, &progress, &StopFlag::new()).unwrap();
    let Round::Trained(trained, report) = round else { panic!("{round:?}") };
    // The labels are saved, one per sampled position.
    assert_eq!(Dataset::load(&dataset).unwrap().len(), 1500);
    // A 1-ply label is a better target than the random net's own value:
    // the fit lowers the held-out error of the net with the most positions.
    let contact = &report.nets[NetKind::Contact.index()];
    assert!(contact.validation > 20, "{contact:?}");
    assert!(contact.validation_mse_best < contact.validation_mse_before, "{contact:?}");
    assert!(report.epochs.len() <= 3 * 3, "at most --epochs per net");
    assert_ne!(trained.contact, weights.contact);
    // The same round again resumes the labels and fits the same net.
    let again = distill_round(&settings(), &pool, &weights, &dataset, 3, &progress, &StopFlag::new()).unwrap();
    let Round::Trained(same, _) = again else { panic!("{again:?}") };
    assert_eq!(same.contact, trained.contact);
    assert_eq!(progress.snapshot().phase.as_deref(), Some(report.nets[2].to_string().as_str()));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_stop_keeps_the_labels_and_fits_nothing() {
    let dir = temp("stop");
    let run = DistillRun { settings: settings(), from: start(&dir), out: dir.join("run") };
    let stop = StopFlag::new();
    stop.stop();
    let end = distill(&run, &Shared::<()>::new(), &stop, |_, _| {}).unwrap();
    let dataset = run.out.join("round-1/dataset.gds");
    assert_eq!(end, DistillEnd::StoppedLabelling { round: 1, dataset: dataset.clone() });
    assert!(!run.out.join("round-1/weights.gnn").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_run_with_other_settings_is_refused_naming_them() {
    let dir = temp("refuse");
    let from = start(&dir);
    let small = DistillSettings { positions: 40, epochs: 1, ..settings() };
    let run = DistillRun { settings: small.clone(), from, out: dir.join("run") };
    assert!(matches!(distill(&run, &Shared::<()>::new(), &StopFlag::new(), |_, _| {}), Ok(DistillEnd::Finished(_))));
    let other = DistillRun { settings: DistillSettings { seed: 4, epochs: 2, ..small.clone() }, ..run.clone() };
    let err = distill(&other, &Shared::<()>::new(), &StopFlag::new(), |_, _| {}).unwrap_err();
    let text = err.to_string();
    let file = run.out.join(RUN_SETTINGS);
    assert_eq!(
        text,
        format!(
            "{} was made with --epochs 1, --seed 3, this run asks for --epochs 2, --seed 4; \
             use the same settings to resume it or add rounds, or another --out",
            file.display()
        )
    );
    // More rounds and other threads are the same run.
    let more = DistillRun { settings: DistillSettings { rounds: 2, threads: 1, ..small }, ..run };
    assert!(matches!(distill(&more, &Shared::<()>::new(), &StopFlag::new(), |_, _| {}), Ok(DistillEnd::Finished(_))));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_round_of_other_labels_is_refused_naming_them() {
    let dir = temp("labels");
    let dataset = dir.join("dataset.gds");
    Dataset { ply: 2, candidates: 2, afterstates: 0, ..Dataset::default() }.save(&dataset).unwrap();
    let weights = NetWeights::random(8, 8, 1);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let err =
        distill_round(&settings(), &pool, &weights, &dataset, 1, &Shared::<()>::new(), &StopFlag::new()).unwrap_err();
    assert!(err.to_string().contains("was made with --ply 2, this run asks for --ply 1;"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
