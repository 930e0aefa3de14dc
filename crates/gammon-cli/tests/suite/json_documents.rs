//! Every JSON document the commands print starts with `schema_version`
//! (docs/json.md): version 2, the first key, beside the document's own keys.

use super::ok;

/// The version docs/json.md documents.
const VERSION: u64 = 2;

fn assert_versioned(what: &str, text: &str) {
    let v: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{what}: {e}: {text}"));
    assert_eq!(v["schema_version"], VERSION, "{what}: {text}");
    // The first key, so that a reader sees the version before the rest.
    let first = text.trim_start().trim_start_matches('{').trim_start();
    assert!(first.starts_with("\"schema_version\""), "{what}: {text}");
}

#[test]
fn every_json_answer_starts_with_its_schema_version() {
    let start = "4HPwATDgc/ABMA";
    for args in [
        vec!["eval", start, "--json"],
        vec!["moves", start, "31", "--json"],
        vec!["analyse", start, "--dice", "31", "--ply", "0", "--json"],
        vec!["analyse", start, "--dice", "31", "--ply", "0", "--cubeless", "--json"],
        vec!["analyse", start, "--ply", "0", "--json"],
        vec!["cube", start, "--ply", "0", "--json"],
        vec!["duel", "--a", "net", "--b", "pubeval", "--games", "2", "--seed", "1", "--json"],
    ] {
        assert_versioned(&args.join(" "), &ok(&args));
    }
}

#[test]
fn the_two_renamed_keys_mean_one_thing() {
    let start = "4HPwATDgc/ABMA";
    // `ply` is the depth everywhere; `plies` is gone.
    let analysis = ok(&["analyse", start, "--dice", "31", "--ply", "0", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&analysis).unwrap();
    assert_eq!(v["ply"], 0, "{v}");
    assert_eq!(v["moves"][0]["ply"], 0, "{v}");
    assert!(!analysis.contains("\"plies\""), "{analysis}");
    // `evaluator` names the net; `class` the part that answers.
    let eval: serde_json::Value = serde_json::from_str(&ok(&["eval", start, "--json"])).unwrap();
    assert_eq!(eval["class"], "contact net", "{eval}");
    assert!(eval.get("evaluator").is_none(), "{eval}");
    let net = v["evaluator"].as_str().unwrap();
    assert!(net.starts_with("gammon"), "{net}");
    let cube: serde_json::Value = serde_json::from_str(&ok(&["cube", start, "--ply", "0", "--json"])).unwrap();
    assert_eq!(cube["class"], "contact net", "{cube}");
    assert!(cube.get("evaluator").is_none(), "{cube}");
}
