//! `POST /api/play` continues only the states it issued, and refuses a
//! match it could not play at the start.
#![allow(clippy::unwrap_used)]

mod common;

use common::post;
use serde_json::{json, Value};

/// The request that continues `answer` with `action` (its xgid, seed,
/// step and signature echoed as the page does).
fn next(answer: &Value, action: &str) -> Value {
    json!({
        "action": action,
        "position": answer["xgid"],
        "seed": answer["seed"],
        "step": answer["next_step"],
        "signature": answer["signature"],
    })
}

/// A state where the human has rolled and must move, from a new match of
/// `length` points.
async fn at_move(state: &gammon_server::AppState, length: u32) -> Value {
    let (status, mut answer) =
        post(state, "/api/play", &json!({"action": "new", "match_length": length, "seed": 7}).to_string()).await;
    assert_eq!(status, 200, "{answer}");
    for _ in 0..10 {
        if answer["turn"] == "move" {
            return answer;
        }
        let (status, rolled) = post(state, "/api/play", &next(&answer, "roll").to_string()).await;
        assert_eq!(status, 200, "{rolled}");
        answer = rolled;
    }
    panic!("never at a move: {answer}");
}

/// The XGID with field `index` (after `XGID=`, `:`-separated) set to `value`.
fn edit(xgid: &str, index: usize, value: &str) -> String {
    let mut fields: Vec<String> = xgid.split(':').map(str::to_string).collect();
    fields[index] = value.to_string();
    fields.join(":")
}

#[tokio::test]
async fn the_issued_state_continues_and_every_edit_is_refused() {
    let state = common::state();
    let answer = at_move(&state, 5).await;
    let xgid = answer["xgid"].as_str().unwrap();
    assert_eq!(answer["signature"].as_str().unwrap().len(), 64, "{answer}");
    // The legal first move of the issued dice is played.
    let moves =
        common::call(&state, "GET", &format!("/api/moves?position={}", xgid.replace(':', "%3A").replace('=', "%3D")))
            .await
            .2;
    let first = moves["moves"][0]["notation"].as_str().unwrap();
    let mut played = next(&answer, "move");
    played["move"] = first.into();
    let (status, after) = post(&state, "/api/play", &played.to_string()).await;
    assert_eq!(status, 200, "{after}");

    // Dice 66 written in, the score made 4-0, another seed or step, no
    // signature, a signature of another state: each refused, naming it.
    let mut edits = Vec::new();
    for (field, value) in [(4, "66"), (5, "4"), (6, "4")] {
        let mut body = played.clone();
        body["position"] = edit(xgid, field, value).into();
        edits.push(body);
    }
    for (key, value) in [("seed", json!(8)), ("step", json!(answer["next_step"].as_u64().unwrap() + 1))] {
        let mut body = played.clone();
        body[key] = value;
        edits.push(body);
    }
    let mut other = played.clone();
    other["signature"] = after["signature"].clone();
    edits.push(other);
    for (position, edited) in edits.iter().enumerate() {
        let (status, refused) = post(&state, "/api/play", &edited.to_string()).await;
        assert_eq!(
            (status, refused["error"]["field"].as_str()),
            (400, Some("signature")),
            "edit {position}: {refused}"
        );
        assert!(refused["error"]["reason"].as_str().unwrap().contains("not one this server issued"), "{refused}");
    }
    let mut unsigned = played.clone();
    unsigned.as_object_mut().unwrap().remove("signature");
    let (status, refused) = post(&state, "/api/play", &unsigned.to_string()).await;
    assert_eq!((status, refused["error"]["field"].as_str()), (400, Some("signature")), "{refused}");
}

#[tokio::test]
async fn another_server_process_does_not_continue_the_state() {
    let answer = at_move(&common::state(), 0).await;
    let mut body = next(&answer, "move");
    body["move"] = "".into();
    let (status, refused) = post(&common::state(), "/api/play", &body.to_string()).await;
    assert_eq!((status, refused["error"]["field"].as_str()), (400, Some("signature")), "{refused}");
}

#[tokio::test]
async fn a_match_longer_than_the_match_equity_table_is_refused_at_new() {
    let state = common::state();
    for length in [26, 30, 1000] {
        let body = json!({"action": "new", "match_length": length, "seed": 1}).to_string();
        let (status, refused) = post(&state, "/api/play", &body).await;
        assert_eq!((status, refused["error"]["field"].as_str()), (400, Some("match_length")), "{refused}");
        assert!(refused["error"]["reason"].as_str().unwrap().contains("up to 25 points"), "{refused}");
    }
    let (status, answer) = post(&state, "/api/play", r#"{"action": "new", "match_length": 25, "seed": 1}"#).await;
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn fields_an_action_does_not_take_are_refused() {
    let state = common::state();
    let (_, answer) = post(&state, "/api/play", r#"{"action": "new", "seed": 3}"#).await;
    let cases = [
        (json!({"action": "new", "seed": 1, "step": 4}), "step"),
        (json!({"action": "new", "seed": 1, "position": answer["xgid"]}), "position"),
        (
            {
                let mut b = next(&answer, "roll");
                b["match_length"] = 3.into();
                b
            },
            "match_length",
        ),
        (
            {
                let mut b = next(&answer, "roll");
                b["move"] = "8/5".into();
                b
            },
            "move",
        ),
        (
            {
                let mut b = next(&answer, "roll");
                b.as_object_mut().unwrap().remove("step");
                b
            },
            "step",
        ),
        (
            {
                let mut b = next(&answer, "roll");
                b.as_object_mut().unwrap().remove("seed");
                b
            },
            "seed",
        ),
    ];
    for (body, field) in cases {
        let (status, refused) = post(&state, "/api/play", &body.to_string()).await;
        assert_eq!((status, refused["error"]["field"].as_str()), (400, Some(field)), "{body}: {refused}");
    }
}
