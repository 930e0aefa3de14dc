//! `gammon label sample`, `gammon label rollout` and `gammon fit` end to
//! end: positions files, shards that together give the unsharded labels,
//! resuming, refusing a different run, and a fit that writes its report.
#![allow(clippy::unwrap_used)]

use crate::gammon;

fn temp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("gammon-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn labels(path: &std::path::Path) -> Vec<(String, [f32; 5], [f32; 5])> {
    let d = gammon_train::dataset::Dataset::load(path).unwrap();
    let mut v: Vec<_> =
        d.positions.iter().zip(&d.labels).zip(&d.standard_errors).map(|((p, l), s)| (p.clone(), *l, *s)).collect();
    v.sort_by(|a, b| a.0.cmp(&b.0));
    v
}

/// Labels `positions` into `out` cheaply (36 trials truncated after 2
/// half-moves): labels for tests of what reads them.
fn quick_labels(positions: &std::path::Path, out: &std::path::Path) {
    let (positions, out) = (positions.to_str().unwrap(), out.to_str().unwrap());
    let args = ["label", "rollout", "--positions", positions, "--trials", "36", "--truncate", "2", "--out", out];
    let labelled = gammon(&args);
    assert!(labelled.success(), "{}", labelled.stderr);
}

#[test]
fn sample_label_in_shards_resume_and_fit() {
    let dir = temp("label");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    let out =
        gammon(&["label", "sample", "--count", "24", "--afterstates", "3", "--seed", "4", "--out", &s("pos.txt")]);
    assert!(out.success(), "{}", out.stderr);
    let text = std::fs::read_to_string(dir.join("pos.txt")).unwrap();
    assert!(text.starts_with("# gammon label sample: 24 positions"), "{text}");
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 24);

    let positions = s("pos.txt");
    let label = |extra: &[&str], out: &str| {
        let mut args = vec!["label", "rollout", "--positions", &positions, "--trials", "36", "--truncate", "3"];
        args.extend_from_slice(extra);
        let o = s(out);
        args.extend_from_slice(&["--out", &o]);
        gammon(&args.iter().map(|a| &**a).collect::<Vec<_>>())
    };
    let whole = label(&["--chunk", "10"], "all.gds");
    assert!(whole.success(), "{}", whole.stderr);
    assert!(whole.stdout.contains("24 of 24 positions labelled"), "{}", whole.stdout);
    assert!(whole.stdout.contains("mean standard error: win 0."), "{}", whole.stdout);
    let mut parts = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let o = label(&["--shard", &shard, "--threads", "1"], &format!("part{k}.gds"));
        assert!(o.success(), "{}", o.stderr);
        parts.extend(labels(&dir.join(format!("part{k}.gds"))));
    }
    parts.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(parts, labels(&dir.join("all.gds")), "three shards label what one run labels");
    // Merged, in any order, they are the unsharded file byte for byte; the
    // index of a shard can come from a batch system's environment.
    let merged = gammon(&["merge", &s("part2.gds"), &s("part0.gds"), &s("part1.gds"), "--out", &s("merged.gds")]);
    assert!(merged.success() && merged.stdout.contains("24 positions from 3 shards"), "{}", merged.stderr);
    assert_eq!(std::fs::read(dir.join("merged.gds")).unwrap(), std::fs::read(dir.join("all.gds")).unwrap());
    for (k, var) in [(0, "SLURM_ARRAY_TASK_ID"), (1, "JOB_COMPLETION_INDEX")] {
        let mut args = vec!["label", "rollout", "--positions", &positions, "--trials", "36", "--truncate", "3"];
        let o = s(&format!("auto{k}.gds"));
        args.extend_from_slice(&["--shard", "auto/2", "--out", &o]);
        let out = gammon_testkit::run_with_env(env!("CARGO_BIN_EXE_gammon"), &args, b"", &[(var, &k.to_string())]);
        assert!(out.success(), "{}", out.stderr);
    }
    let merged = gammon(&["merge", &s("auto1.gds"), &s("auto0.gds"), "--out", &s("merged2.gds")]);
    assert!(merged.success(), "{}", merged.stderr);
    assert_eq!(std::fs::read(dir.join("merged2.gds")).unwrap(), std::fs::read(dir.join("all.gds")).unwrap());
    let missing = gammon(&["merge", &s("part0.gds"), &s("part2.gds"), "--out", &s("m.gds")]);
    assert!(
        !missing.success() && missing.stderr.contains("8 of the 24 positions are not labelled (shard 1/3)"),
        "{}",
        missing.stderr
    );
    let twice = gammon(&["merge", &s("part0.gds"), &s("part0.gds"), &s("part1.gds"), "--out", &s("m.gds")]);
    assert!(!twice.success() && twice.stderr.contains("shard 0/3 is given twice"), "{}", twice.stderr);
    let mixed = gammon(&["merge", &s("part0.gds"), &s("auto1.gds"), "--out", &s("m.gds")]);
    assert!(!mixed.success() && mixed.stderr.contains("auto1.gds: it labels"), "{}", mixed.stderr);

    // A finished file resumes to nothing new; other settings are refused.
    let again = label(&["--chunk", "10"], "all.gds");
    assert!(again.success() && again.stderr.contains("resuming: 24 positions"), "{}", again.stderr);
    let other = label(&["--seed", "9"], "all.gds");
    assert!(
        !other.success() && other.stderr.contains("was made with --seed 1, this run asks for --seed 9;"),
        "{}",
        other.stderr
    );
    let bad = label(&["--shard", "3/3"], "x.gds");
    assert!(!bad.success() && bad.stderr.contains("0 <= K < N"), "{}", bad.stderr);

    // Fit the shipped net (written out first) to the labels.
    let shipped = dir.join("shipped.gnn");
    std::fs::write(&shipped, gammon_eval::net::SHIPPED_WEIGHTS).unwrap();
    // `fit --from shipped --data all.gds --out OUT` and `more`.
    let fit_all = |out: &str, more: &[&str]| {
        let (from, data, out) = (shipped.to_str().unwrap(), s("all.gds"), s(out));
        gammon(
            &["fit", "--from", from, "--data", &data, "--out", &out]
                .into_iter()
                .chain(more.iter().copied())
                .collect::<Vec<_>>(),
        )
    };
    let fit = fit_all("fit", &["--max-epochs", "2", "--validation", "0.3"]);
    assert!(fit.success(), "{}", fit.stderr);
    assert!(fit.stdout.contains("contact net:"), "{}", fit.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("fit/fit-report.json")).unwrap()).unwrap();
    assert_eq!(report["settings"]["max_epochs"], 2);
    assert!(gammon_eval::NetWeights::load(&dir.join("fit/weights.gnn")).is_ok());
    // Chunks labelled alike but for their seed are named once in the net's
    // description, with their total.
    assert!(label(&["--seed", "9"], "seed9.gds").success());
    let two = fit_all("fit2", &["--data", &s("seed9.gds"), "--max-epochs", "1"]);
    assert!(two.success(), "{}", two.stderr);
    let notes = gammon_eval::NetWeights::load(&dir.join("fit2/weights.gnn")).unwrap().meta.notes;
    assert!(notes.contains("supervised fit (48 positions in 2 datasets: "), "{notes}");
    assert_eq!(notes.matches("0-ply rollout").count(), 1, "{notes}");
    assert!(!notes.contains("seed 9") && !notes.contains("seed 1;"), "{notes}");
    // --fresh starts the nets it names from random weights of their new
    // size and keeps the others of --from.
    let fresh = fit_all("fresh", &["--max-epochs", "1", "--validation", "0.3", "--fresh", "contact=6"]);
    assert!(fresh.success(), "{}", fresh.stderr);
    let (from, got) = (
        gammon_eval::NetWeights::from_bytes(gammon_eval::net::SHIPPED_WEIGHTS).unwrap(),
        gammon_eval::NetWeights::load(&dir.join("fresh/weights.gnn")).unwrap(),
    );
    assert_eq!(got.contact.hidden(), 6);
    assert_eq!(got.race, from.race, "a net not named (and without positions here) is --from's");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("fresh/fit-report.json")).unwrap()).unwrap();
    assert_eq!(report["fresh"], serde_json::json!([{"net": "contact", "hidden": 6}]));
    let both = fit_all("f3", &["--fresh", "race=5", "--race-hidden", "9"]);
    assert!(!both.success() && both.stderr.contains("it cannot go with --race-hidden"), "{}", both.stderr);
    for (more, why) in [
        (
            &["--fresh", "contact=5", "--hidden", "9"][..],
            "--fresh contact=... starts the contact net afresh; it cannot go with --hidden",
        ),
        (&["--fresh", "race=5", "--only", "contact"][..], "it cannot go with --only, which fits another net"),
        (&["--fresh", "race=5", "--fresh", "race=6"][..], "it cannot go with another --fresh"),
    ] {
        let o = fit_all("f4", more);
        assert!(!o.success() && o.stderr.contains(why), "{more:?}: {}", o.stderr);
    }
    // A net the data has no positions for is refused, not written as it was.
    std::fs::write(dir.join("contact.txt"), "4HPwATDgc/ABMA\nsGfwATDgc/ABMA\n").unwrap();
    let o = gammon(
        &["label", "rollout", "--positions", &s("contact.txt"), "--trials", "36", "--truncate", "3"]
            .into_iter()
            .chain(["--out", &s("contact.gds")])
            .collect::<Vec<_>>(),
    );
    assert!(o.success(), "{}", o.stderr);
    for more in [&["--only", "race"][..], &["--fresh", "race=5"][..]] {
        let o = gammon(
            &["fit", "--from", shipped.to_str().unwrap(), "--data", &s("contact.gds"), "--out", &s("f5")]
                .into_iter()
                .chain(more.iter().copied())
                .collect::<Vec<_>>(),
        );
        assert!(!o.success() && o.stderr.contains("race"), "{more:?}: {}", o.stderr);
        assert!(!dir.join("f5/weights.gnn").exists(), "{more:?}");
    }
    let bad = fit_all("f2", &["--rate", "nan"]);
    assert!(!bad.success() && bad.stderr.contains("rate must be a finite number"), "{}", bad.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sample_can_keep_one_class() {
    let dir = temp("label-only");
    let out = dir.join("race.txt");
    let o =
        gammon(&["label", "sample", "--count", "30", "--only", "race", "--seed", "2", "--out", out.to_str().unwrap()]);
    assert!(o.success(), "{}", o.stderr);
    let positions = gammon_train::labels::read_positions(&out).unwrap();
    assert_eq!(positions.len(), 30);
    assert!(positions.iter().all(|p| gammon_eval::PositionClass::of(p) == gammon_eval::PositionClass::Race));
    let bad = gammon(&["label", "sample", "--only", "bearoff", "--out", out.to_str().unwrap()]);
    assert!(!bad.success() && bad.stderr.contains("bearoff"), "{}", bad.stderr);
    let bad = gammon(&["label", "sample", "--only", "race", "--kind", "blitz", "--out", out.to_str().unwrap()]);
    assert!(!bad.success() && bad.stderr.contains("no race is a blitz position"), "{}", bad.stderr);
    // --kind keeps one kind of game (a few percent of self-play), with its
    // groups: the same positions as the unfiltered sample's of that kind.
    let (kind, groups) = (dir.join("bg.txt"), dir.join("bg.groups"));
    let o = gammon(&[
        "label",
        "sample",
        "--count",
        "40",
        "--kind",
        "back-game",
        "--afterstates",
        "2",
        "--seed",
        "2",
        "--out",
        kind.to_str().unwrap(),
        "--groups",
        groups.to_str().unwrap(),
    ]);
    assert!(o.success(), "{}", o.stderr);
    let backgames = gammon_train::labels::read_positions(&kind).unwrap();
    assert_eq!(backgames.len(), 40);
    use gammon_train::benchmark::GameKind;
    assert!(backgames.iter().all(|p| GameKind::of(p) == GameKind::BackGame));
    assert_eq!(gammon_train::siblings::read_groups(&groups).unwrap().positions, backgames);
    let o = gammon(&[
        "label",
        "sample",
        "--count",
        "3000",
        "--afterstates",
        "2",
        "--seed",
        "2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.success(), "{}", o.stderr);
    let all = gammon_train::labels::read_positions(&out).unwrap();
    let of_kind: Vec<_> = all.iter().filter(|p| GameKind::of(p) == GameKind::BackGame).copied().collect();
    assert!(of_kind.len() >= 40 && of_kind.len() < all.len() / 5, "{} of {}", of_kind.len(), all.len());
    assert_eq!(backgames[..], of_kind[..40]);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sample_can_keep_the_rolls_the_lookahead_decides_otherwise() {
    let dir = temp("label-disagree");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    let sample = |count: &str, afterstates: &str, more: &[&str], out: &str| {
        let (out, groups) = (s(&format!("{out}.txt")), s(&format!("{out}.groups")));
        let mut args = vec!["label", "sample", "--count", count, "--afterstates", afterstates, "--seed", "4"];
        args.extend(["--out", out.as_str(), "--groups", groups.as_str()]);
        args.extend(more);
        gammon(&args)
    };
    let o = sample("60", "3", &["--disagree", "1"], "d");
    assert!(o.success(), "{}", o.stderr);
    let kept = gammon_train::siblings::read_groups(&dir.join("d.groups")).unwrap();
    assert_eq!(gammon_train::labels::read_positions(&dir.join("d.txt")).unwrap(), kept.positions);
    assert!(std::fs::read_to_string(dir.join("d.txt")).unwrap().contains(", disagree 1,"));
    // The disagreeing rolls of the unfiltered stream (by the same net),
    // whole, as many as fit in --count.
    let o = sample("3000", "3", &[], "all");
    assert!(o.success(), "{}", o.stderr);
    let mut all = gammon_train::siblings::read_groups(&dir.join("all.groups")).unwrap();
    all.drop_last_roll();
    let net = gammon_eval::NetWeights::from_bytes(gammon_eval::net::SHIPPED_WEIGHTS).unwrap();
    let mut expected = gammon_train::choice::disagreeing_rolls(&net, 1, &all).unwrap();
    expected.truncate_to_whole_rolls(60);
    assert_eq!(kept, expected);
    let mut rolls = kept.groups.clone();
    rolls.dedup();
    let all_rolls =
        all.groups.iter().filter(|&&g| g <= *rolls.last().unwrap()).collect::<std::collections::BTreeSet<_>>();
    assert!(rolls.len() >= 2 && rolls.len() < all_rolls.len(), "{} of {} rolls kept", rolls.len(), all_rolls.len());
    assert!(kept.positions.len() <= 60 && kept.positions.len() > 50, "{}", kept.positions.len());
    for (afterstates, more, why) in [
        ("3", &["--disagree", "3"][..], "3 is not in 1..=2"),
        ("1", &["--disagree", "1"][..], "--disagree needs --afterstates 2 or more"),
    ] {
        let o = sample("60", afterstates, more, "bad");
        assert!(!o.success() && o.stderr.contains(why), "{more:?}: {}", o.stderr);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_bad_positions_file_names_the_line() {
    let dir = temp("label-bad");
    let p = dir.join("pos.txt");
    std::fs::write(&p, "# header\n4HPwATDgc/ABMA\nnonsense\n").unwrap();
    let out =
        gammon(&["label", "rollout", "--positions", p.to_str().unwrap(), "--out", dir.join("o.gds").to_str().unwrap()]);
    assert!(!out.success());
    assert!(out.stderr.contains("line 3") && out.stderr.contains("nonsense"), "{}", out.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Work that would do nothing is refused, not done silently: labelling a
/// positions file without positions, training zero games.
#[test]
fn empty_work_is_an_error_not_a_silent_success() {
    let dir = temp("empty-work");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    std::fs::write(dir.join("comments.txt"), "# only a comment\n\n").unwrap();
    let out = gammon(&["label", "rollout", "--positions", &s("comments.txt"), "--out", &s("l.gds")]);
    assert!(!out.success() && out.stderr.contains("holds no positions"), "{}", out.stderr);
    assert!(!dir.join("l.gds").exists());
    let out = gammon(&["train", "--games", "0", "--out", &s("run")]);
    assert!(!out.success() && out.stderr.contains("games must be at least 1"), "{}", out.stderr);
    assert!(!dir.join("run/weights.gnn").exists());
}

/// `fit --data L --data L` fitted and validated on copies of the same
/// positions without a word; now each position is fitted once (to the mean
/// of its labels) and the duplicates are counted and said.
#[test]
fn duplicate_positions_across_datasets_are_merged_and_said() {
    let dir = temp("fit-dup");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    assert!(gammon(&["label", "sample", "--count", "30", "--seed", "6", "--out", &s("pos.txt")]).success());
    quick_labels(&dir.join("pos.txt"), &dir.join("l.gds"));
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let fit = |data: &[&str], out: &str| {
        let mut args = vec!["fit", "--from", weights, "--max-epochs", "2", "--validation", "0.3", "--out", out];
        for d in data {
            args.extend(["--data", d]);
        }
        gammon(&args)
    };
    let once = fit(&[&s("l.gds")], &s("once"));
    let twice = fit(&[&s("l.gds"), &s("l.gds")], &s("twice"));
    assert!(once.success() && twice.success(), "{}{}", once.stderr, twice.stderr);
    assert!(twice.stderr.contains("30 positions were met more than once"), "{}", twice.stderr);
    assert!(!once.stderr.contains("more than once"), "{}", once.stderr);
    // The same examples, so the same fit.
    assert_eq!(once.stdout, twice.stdout);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("twice/fit-report.json")).unwrap()).unwrap();
    assert_eq!(report["report"]["duplicates"], 30);
}

#[test]
fn a_repeated_dataset_is_met_more_often_and_recorded() {
    let dir = temp("fit-repeat");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    assert!(gammon(&["label", "sample", "--count", "30", "--seed", "7", "--out", &s("pos.txt")]).success());
    quick_labels(&dir.join("pos.txt"), &dir.join("l.gds"));
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let data = s("l.gds");
    let fit = |more: &[&str], out: &str| {
        let mut args = vec!["fit", "--from", weights, "--max-epochs", "2", "--validation", "0.3", "--out", out];
        args.extend(["--data", &data]);
        args.extend(more);
        gammon(&args)
    };
    let once = fit(&[], &s("once"));
    let thrice = fit(&["--repeat", &format!("{}=3", s("l.gds"))], &s("thrice"));
    assert!(once.success() && thrice.success(), "{}{}", once.stderr, thrice.stderr);
    assert_ne!(once.stdout, thrice.stdout, "three passes over the positions an epoch fit otherwise");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("thrice/fit-report.json")).unwrap()).unwrap();
    assert_eq!(report["data"][0]["repeat"], 3);
    for (more, why) in [
        (vec!["--repeat".to_string(), format!("{}=2", s("other.gds"))], "not one of the --data files"),
        (vec!["--repeat".to_string(), format!("{}=0", s("l.gds"))], "N from 1 to 10"),
        (vec!["--repeat".to_string(), format!("{}=11", s("l.gds"))], "N from 1 to 10"),
        (vec!["--repeat".to_string(), s("l.gds")], "FILE=N"),
        (
            vec![
                "--repeat".to_string(),
                format!("{}=2", s("l.gds")),
                "--repeat".to_string(),
                format!("{}=3", s("l.gds")),
            ],
            "given twice",
        ),
    ] {
        let more: Vec<&str> = more.iter().map(String::as_str).collect();
        let o = fit(&more, &s("bad"));
        assert!(!o.success() && o.stderr.contains(why), "{more:?}: {}", o.stderr);
        assert!(!dir.join("bad/weights.gnn").exists(), "{more:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `label sample --groups` writes the same positions with the roll of each,
/// and `label choice` scores a net's choice in those rolls against their
/// labels.
#[test]
fn sibling_groups_and_the_choice_score() {
    let dir = temp("label-choice");
    let s = |p: &str| dir.join(p).to_str().unwrap().to_string();
    let sample = |extra: &[&str]| {
        let mut args = vec!["label", "sample", "--count", "40", "--afterstates", "3", "--window", "0.2", "--seed", "8"];
        args.extend_from_slice(extra);
        gammon(&args)
    };
    assert!(sample(&["--out", &s("plain.txt")]).success());
    let out = sample(&["--out", &s("pos.txt"), "--groups", &s("groups.txt")]);
    assert!(out.success(), "{}", out.stderr);
    assert!(out.stderr.contains("rolls in"), "{}", out.stderr);
    // The positions are the same with or without the groups.
    assert_eq!(std::fs::read(dir.join("plain.txt")).unwrap(), std::fs::read(dir.join("pos.txt")).unwrap());
    let grouped = gammon_train::siblings::read_groups(&dir.join("groups.txt")).unwrap();
    assert_eq!(grouped.positions, gammon_train::labels::read_positions(&dir.join("pos.txt")).unwrap());
    let no_afterstates = gammon(&["label", "sample", "--out", &s("x.txt"), "--groups", &s("g.txt")]);
    assert!(!no_afterstates.success() && no_afterstates.stderr.contains("--afterstates"), "{}", no_afterstates.stderr);
    let zero = gammon(&["label", "sample", "--afterstates", "0", "--out", &s("x.txt"), "--groups", &s("g.txt")]);
    assert!(!zero.success() && zero.stderr.contains("--groups needs --afterstates 1 or more"), "{}", zero.stderr);

    quick_labels(&dir.join("pos.txt"), &dir.join("l.gds"));
    let weights = concat!(env!("CARGO_MANIFEST_DIR"), "/../../weights/gammon.net");
    let (labels, groups) = (s("l.gds"), s("groups.txt"));
    let choice = |extra: &[&str]| {
        let mut args = vec!["label", "choice", "--labels", &labels, "--groups", &groups];
        args.extend_from_slice(extra);
        gammon(&args)
    };
    let text = choice(&["--baseline", weights]);
    assert!(text.success(), "{}", text.stderr);
    assert!(text.stdout.contains("0-ply choice between the results of a roll"), "{}", text.stdout);
    assert!(text.stdout.contains("picks the labels' best"), "{}", text.stdout);
    // The built-in net is the shipped one: paired with itself, no difference.
    assert!(text.stdout.contains("paired, net minus baseline: agreement +0.0000 ± 0.0000"), "{}", text.stdout);
    let json = choice(&["--json"]);
    assert!(json.success(), "{}", json.stderr);
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    let total = &v["total"];
    let groups = total["groups"].as_u64().unwrap();
    assert!(groups > 0 && total["siblings"].as_u64().unwrap() >= 2 * groups, "{total}");
    let agreement = total["agreement"]["mean"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&agreement), "{total}");
    assert!(total["given_up"]["mean"].as_f64().unwrap() >= 0.0, "{total}");
    assert!(v["paired"].is_null());

    // Labels of other positions, or a missing groups file, are refused.
    std::fs::write(dir.join("other.txt"), "# other\n0\t4HPwATDgc/ABMA\n").unwrap();
    let other = gammon(&["label", "choice", "--labels", &s("l.gds"), "--groups", &s("other.txt")]);
    assert!(!other.success() && other.stderr.contains("groups are of another positions file"), "{}", other.stderr);
    let unpaired =
        gammon(&["label", "choice", "--labels", &s("l.gds"), "--labels", &s("l.gds"), "--groups", &s("groups.txt")]);
    assert!(!unpaired.success() && unpaired.stderr.contains("one --groups per --labels"), "{}", unpaired.stderr);

    // `fit --ranking` with the groups: another net than the plain fit's.
    let groups_file = s("groups.txt");
    let fit = |out: &str, extra: &[&str]| {
        let mut args =
            vec!["fit", "--from", weights, "--data", &labels, "--max-epochs", "2", "--validation", "0.5", "--out", out];
        args.extend_from_slice(extra);
        gammon(&args)
    };
    let plain = fit(&s("plain"), &[]);
    let ranked = fit(&s("ranked"), &["--groups", &groups_file, "--ranking", "4"]);
    assert!(plain.success() && ranked.success(), "{}{}", plain.stderr, ranked.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ranked/fit-report.json")).unwrap()).unwrap();
    assert_eq!(
        (report["ranking_weight"].as_f64(), report["data"][0]["groups"].as_str()),
        (Some(4.0), Some(groups_file.as_str()))
    );
    // The term changes the training (the epochs' errors), whichever epoch
    // early stopping keeps.
    let curve = |net: &str| std::fs::read_to_string(dir.join(net).join("learning-curve.csv")).unwrap();
    assert_ne!(curve("plain"), curve("ranked"), "the ranking term changed nothing");
    // The groups must be those of the labels' positions, one per --data.
    let fewer = fit(&s("fewer"), &["--groups", &s("other.txt"), "--ranking", "4"]);
    assert!(
        !fewer.success() && fewer.stderr.contains("the labels hold 40 positions, the groups 1"),
        "{}",
        fewer.stderr
    );
    // The same groups with the positions moved by one: of other positions.
    let text = std::fs::read_to_string(&groups_file).unwrap();
    let rows: Vec<(&str, &str)> =
        text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split_once('\t').unwrap()).collect();
    let moved: String =
        rows.iter().zip(rows.iter().cycle().skip(1)).map(|((g, _), (_, id))| format!("{g}\t{id}\n")).collect();
    std::fs::write(dir.join("moved.txt"), moved).unwrap();
    let wrong = fit(&s("wrong"), &["--groups", &s("moved.txt"), "--ranking", "4"]);
    assert!(!wrong.success() && wrong.stderr.contains("not the groups of these labels"), "{}", wrong.stderr);
    let short = fit(&s("short"), &["--data", &labels, "--groups", &groups_file, "--ranking", "4"]);
    assert!(!short.success() && short.stderr.contains("one --groups per --data"), "{}", short.stderr);
    let zero = fit(&s("zero"), &["--groups", &groups_file, "--ranking", "0"]);
    assert!(!zero.success() && zero.stderr.contains("above 0 and at most 100"), "{}", zero.stderr);
    assert!(!dir.join("zero").exists(), "refused before anything is written");
    let alone = fit(&s("alone"), &["--ranking", "4"]);
    assert!(!alone.success() && alone.stderr.contains("--groups"), "{}", alone.stderr);
    // `--rank-only`: a second file fitted by the ranking term only, recorded.
    std::fs::copy(&labels, dir.join("copy.gds")).unwrap();
    let copy = s("copy.gds");
    let both = ["--groups", &groups_file, "--data", &copy, "--groups", &groups_file, "--ranking", "4"];
    let with = |out: &str, more: &[&str]| fit(&s(out), &[&both[..], more].concat());
    let ranks = with("ranks", &["--rank-only", &copy]);
    assert!(ranks.success(), "{}", ranks.stderr);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ranks/fit-report.json")).unwrap()).unwrap();
    assert_eq!(
        (report["data"][0]["rank_only"].as_bool(), report["data"][1]["rank_only"].as_bool()),
        (Some(false), Some(true))
    );
    for (more, why) in [
        (vec!["--rank-only", &s("other.gds")], "not one of the --data files"),
        (vec!["--rank-only", &copy, "--rank-only", &copy], "given twice"),
        (vec!["--rank-only", &copy, "--rank-only", &labels], "names every --data file"),
    ] {
        let o = with("bad", &more);
        assert!(!o.success() && o.stderr.contains(why), "{more:?}: {}", o.stderr);
        assert!(!dir.join("bad/weights.gnn").exists(), "{more:?}");
    }
    let unranked = fit(&s("unranked"), &["--data", &copy, "--rank-only", &copy]);
    assert!(!unranked.success() && unranked.stderr.contains("--ranking"), "{}", unranked.stderr);
    std::fs::remove_dir_all(&dir).unwrap();
}
