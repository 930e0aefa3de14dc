//! `POST /api/play` continues only the states it issued, says which
//! actions the rules allow, and refuses a match it could not play at the
//! start.
#![allow(clippy::unwrap_used)]

mod common;

use common::post;
use serde_json::{json, Value};

/// The request that continues `answer` with `action` (its state, seed,
/// step and signature echoed as the page does).
fn next(answer: &Value, action: &str) -> Value {
    json!({
        "action": action,
        "state": answer["state"],
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

/// The game state with field `index` (`:`-separated) set to `value`.
fn edit(game: &str, index: usize, value: &str) -> String {
    let mut fields: Vec<String> = game.split(':').map(str::to_string).collect();
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

    // Dice 66 written in, the score made 4-0, the cube turned, another
    // seed or step, no signature, a signature of another state: each
    // refused, naming it.
    let game = answer["state"].as_str().unwrap();
    let mut edits = Vec::new();
    for (field, value) in [(6, "m66"), (13, "4"), (3, "2")] {
        let mut body = played.clone();
        body["state"] = edit(game, field, value).into();
        assert_ne!(body["state"], answer["state"]);
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
        (json!({"action": "new", "seed": 1, "state": answer["state"]}), "state"),
        (json!({"action": "new", "seed": 1, "murphy": 11}), "murphy"),
        (next(&answer, "resign"), "result"),
        (
            {
                let mut b = next(&answer, "resign");
                b["result"] = "double".into();
                b
            },
            "result",
        ),
        (
            {
                let mut b = next(&answer, "roll");
                b["result"] = "single".into();
                b
            },
            "result",
        ),
        (
            {
                let mut b = next(&answer, "roll");
                b["beavers"] = true.into();
                b
            },
            "beavers",
        ),
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

#[tokio::test]
async fn the_answer_lists_the_actions_allowed_and_a_refused_one_names_the_rule() {
    let state = common::state();
    let body = json!({"action": "new", "match_length": 0, "beavers": true, "murphy": 2, "seed": 5});
    let (status, answer) = post(&state, "/api/play", &body.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let mut answer = answer;
    // To the human's roll (the engine may have started).
    for _ in 0..10 {
        if answer["turn"] == "roll_or_double" {
            break;
        }
        let (_, _, moves) = common::call(
            &state,
            "GET",
            &format!(
                "/api/moves?position={}",
                answer["xgid"].as_str().unwrap().replace(':', "%3A").replace('=', "%3D")
            ),
        )
        .await;
        let mut body = next(&answer, "move");
        body["move"] = moves["moves"][0]["notation"].clone();
        answer = post(&state, "/api/play", &body.to_string()).await.1;
    }
    assert_eq!(answer["turn"], "roll_or_double", "{answer}");
    assert_eq!(answer["actions"], json!(["roll", "double", "resign"]), "{answer}");
    assert_eq!(answer["resign"], json!(["single", "gammon", "backgammon"]));
    assert_eq!(answer["on_roll"], "human");
    // A take with no double pending: refused, naming the action and the rule.
    let (status, refused) = post(&state, "/api/play", &next(&answer, "take").to_string()).await;
    assert_eq!((status, refused["error"]["field"].as_str()), (400, Some("action")), "{refused}");
    assert_eq!(refused["error"]["reason"], "a take is not allowed now: the side on roll rolls or doubles");
    // A backgammon offered: the engine accepts 3 points, and a new game starts.
    let mut resign = next(&answer, "resign");
    resign["result"] = "backgammon".into();
    let (status, after) = post(&state, "/api/play", &resign.to_string()).await;
    assert_eq!(status, 200, "{after}");
    let events: Vec<&str> = after["events"].as_array().unwrap().iter().map(|e| e["event"].as_str().unwrap()).collect();
    assert_eq!(events[..3], ["resigned", "resignation_accepted", "game_over"], "{after}");
    assert_eq!(after["events"][0]["result"], "backgammon");
    assert!(after["events"][2]["points"].as_u64().unwrap() >= 3, "{after}");
    assert!(events.contains(&"opening_roll"), "{after}");
}
