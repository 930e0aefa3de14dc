//! Every refusal is `{"error": {"field", "reason"}}`, the router's own
//! too, and no reason echoes a large input or Rust debug text.
#![allow(clippy::unwrap_used)]

mod common;

use common::{call, post};
use serde_json::Value;

/// The reason of a JSON refusal, failing when the answer is not one.
fn reason(status: u16, content_type: &str, body: &Value) -> String {
    assert!((400..600).contains(&status), "{status}: {body}");
    assert!(content_type.starts_with("application/json"), "{status} with {content_type:?}: {body}");
    let reason = body["error"]["reason"].as_str().unwrap_or_else(|| panic!("no error reason: {body}"));
    assert!(!reason.is_empty());
    reason.to_string()
}

#[tokio::test]
async fn methods_a_route_does_not_take_get_a_json_405_naming_them() {
    let state = common::state();
    for (method, path) in [
        ("PUT", "/api/eval"),
        ("DELETE", "/api/position"),
        ("OPTIONS", "/"),
        ("PATCH", "/api/rollouts/1"),
        ("GET", "/api/play"),
    ] {
        let (status, content_type, body) = call(&state, method, path).await;
        assert_eq!(status, 405, "{method} {path}: {body}");
        let reason = reason(status, &content_type, &body);
        assert!(reason.contains(method) && reason.contains(path), "{method} {path}: {reason}");
        assert_eq!(body["error"]["field"], Value::Null);
    }
}

#[tokio::test]
async fn paths_that_do_not_decode_get_a_json_refusal() {
    let state = common::state();
    for path in ["/assets/%ff%fe", "/api/rollouts/%ff", "/api/reviews/%C3%28"] {
        let (status, content_type, body) = call(&state, "GET", path).await;
        assert!((400..500).contains(&status), "{path}: {status} {body}");
        reason(status, &content_type, &body);
    }
}

#[tokio::test]
async fn an_unknown_play_action_is_named_with_the_actions() {
    let state = common::state();
    let (status, body) = post(&state, "/api/play", r#"{"action": "fly"}"#).await;
    assert_eq!((status, body["error"]["field"].as_str()), (400, Some("action")), "{body}");
    let reason = body["error"]["reason"].as_str().unwrap();
    assert!(reason.contains(r#"unknown action "fly""#), "{reason}");
    for action in ["new", "roll", "double", "move", "take", "pass"] {
        assert!(reason.contains(action), "{reason}");
    }
}

#[tokio::test]
async fn no_reason_quotes_more_than_a_line_of_a_large_input() {
    let state = common::state();
    let big = "x".repeat(900_000);
    let posts = [
        ("/api/play", serde_json::json!({"action": big}).to_string()),
        ("/api/play", serde_json::json!({"action": "new", "seed": big}).to_string()),
        (
            "/api/play",
            serde_json::json!({"action": "roll", "seed": 1, "step": 1, "state": big, "signature": "00"}).to_string(),
        ),
        ("/api/rollouts", serde_json::json!({"position": big}).to_string()),
        ("/api/rollouts", serde_json::json!({"position": "start", "dice": big}).to_string()),
        ("/api/reviews", serde_json::json!({"match": big}).to_string()),
        ("/api/rollouts", format!(r#"{{"{big}": 1}}"#)),
        ("/api/rollouts", format!("{{{big}")),
    ];
    for (path, body) in posts {
        let (status, answer) = post(&state, path, &body).await;
        assert!((400..500).contains(&status), "{path}: {status}");
        let text = answer.to_string();
        assert!(text.len() < 1_000, "{path} {}: {} bytes: {}…", &body[..40], text.len(), &text[..200]);
        assert!(!text.contains(&"x".repeat(100)), "{path}: {text}");
    }
    // The longest URI the http crate reads is 65534 bytes.
    let big = &big[..60_000];
    for path in [
        format!("/api/eval?position={big}"),
        format!("/api/moves?position=start&dice={big}"),
        format!("/api/eval?{big}=1"),
    ] {
        let (status, content_type, answer) = call(&state, "GET", &path).await;
        reason(status, &content_type, &answer);
        assert!(answer.to_string().len() < 1_000, "{}: {answer}", &path[..30]);
    }
}

#[tokio::test]
async fn no_reason_holds_rust_debug_text() {
    let state = common::state();
    let posts = [
        ("/api/play", r#"{"action": "fly"}"#),
        ("/api/play", r#"{"action": "new"}"#),
        ("/api/play", r#"{"action": "new", "seed": 1, "match_length": -1}"#),
        ("/api/play", r#"{"action": "new", "seed": 1, "jacoby": "yes"}"#),
        ("/api/play", r#"{"action": "roll", "seed": 1}"#),
        ("/api/play", r#"{"action": "move", "seed": 1, "position": "start"}"#),
        ("/api/play", r#"{"action": null}"#),
        ("/api/play", r#"[]"#),
        ("/api/rollouts", r#"["start"]"#),
        ("/api/play", r#""#),
        ("/api/rollouts", r#"{"position": "start", "truncate": -3}"#),
        ("/api/rollouts", r#"{"position": "start", "target_se": "x"}"#),
        ("/api/reviews", r#"{"match": 5}"#),
    ];
    let mut reasons = Vec::new();
    for (path, body) in posts {
        let (status, answer) = post(&state, path, body).await;
        assert!((400..500).contains(&status), "{path} {body}: {status} {answer}");
        reasons.push(answer["error"]["reason"].as_str().unwrap().to_string());
    }
    for path in [
        // A beaver in a match; an impossible score.
        "/api/eval?position=XGID%3D-b----E-C---eE---c-e----B-%3A0%3A0%3A1%3AB%3A0%3A0%3A0%3A5%3A10",
        "/api/eval?position=XGID%3D-b----E-C---eE---c-e----B-%3A0%3A0%3A1%3A00%3A7%3A0%3A0%3A5%3A10",
        "/api/moves?position=start&dice=0",
        "/move?die1=3",
    ] {
        let (status, content_type, answer) = call(&state, "GET", path).await;
        reasons.push(reason(status, &content_type, &answer));
    }
    for reason in reasons {
        for debug in ["Some(", "None", "Rolled(", "Dice {", "Seat::", "Zero", " { ", "struct "] {
            assert!(!reason.contains(debug), "{debug:?} in {reason}");
        }
    }
}
