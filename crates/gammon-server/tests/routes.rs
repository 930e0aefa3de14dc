//! Every route of the router, asked with `oneshot` (no socket): its answer
//! checked against what is known without the code under test (gnubg's
//! legal moves from the oracle, positions whose outcome is certain, the
//! match file's own moves), and its main refusals. `/api/play`'s game is
//! tested in `play.rs`; here only its refusal of a bad body.
#![allow(clippy::unwrap_used)]

mod common;

use axum::body::Body;
use axum::http::{header, Request};
use common::{call, post};
use gammon_server::AppState;
use gammon_testkit::{read_oracle, EdgeCase, MovegenFull};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use tower::ServiceExt;

/// The player on roll (X) has one checker left, on his ace point; the
/// opponent has all 15 on his own ace point, none borne off. Every roll
/// bears X's last checker off: a certain gammon (the opponent has no
/// checker in X's home board or on the bar, so no backgammon).
const SURE_GAMMON: &str = "XGID=-A----------------------o-:0:0:1:00:0:0:0:0:10";

/// X has borne off all his checkers: the game is over.
const FINISHED: &str = "XGID=------------------------o-:0:0:1:00:0:0:0:0:10";

/// The starting position with the cube at 2 on the opponent's side
/// (XGID's cube owner -1: the top player, X's opponent).
const OPPONENT_OWNS_CUBE: &str = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10";

/// gnubg's Position ID of the starting position.
const START_ID: &str = "4HPwATDgc/ABMA";

/// A one-point match of one move each, as gnubg exports it.
const TINY_MATCH: &str = " 1 point match\n\n Game 1\n Alice : 0                          Bob : 0\n  1) 31: 8/5 6/5                     42: 8/4 6/4\n";

/// `text` as a query value (the XGID's `:` and `=` encoded).
fn enc(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A").replace('=', "%3D").replace('/', "%2F")
}

/// A GET of `path` that must answer 200 with JSON.
async fn ok(state: &AppState, path: &str) -> Value {
    let (status, content_type, body) = call(state, "GET", path).await;
    assert_eq!(status, 200, "{path}: {body}");
    assert!(content_type.starts_with("application/json"), "{path}: {content_type}");
    body
}

/// The refusal of `path` (GET): its status and field, and its reason.
async fn refused(state: &AppState, path: &str) -> (u16, Option<String>, String) {
    let (status, content_type, body) = call(state, "GET", path).await;
    assert!(content_type.starts_with("application/json"), "{path}: {status} {content_type}");
    refusal(status, &body)
}

fn refusal(status: u16, body: &Value) -> (u16, Option<String>, String) {
    let reason = body["error"]["reason"].as_str().unwrap_or_else(|| panic!("{status}: not a refusal: {body}"));
    (status, body["error"]["field"].as_str().map(str::to_string), reason.to_string())
}

/// Asserts that each GET is refused with 400 naming its field.
async fn refused_naming(state: &AppState, cases: &[(&str, &str)]) {
    for &(path, field) in cases {
        let (status, got, reason) = refused(state, path).await;
        assert_eq!((status, got.as_deref()), (400, Some(field)), "{path}: {reason}");
    }
}

/// The answer to `request` unread: status, headers and body bytes.
async fn raw(state: &AppState, request: Request<Body>) -> (u16, axum::http::HeaderMap, Vec<u8>) {
    let response = gammon_server::router(state.clone()).oneshot(request).await.unwrap();
    let (parts, body) = response.into_parts();
    (parts.status.as_u16(), parts.headers, axum::body::to_bytes(body, usize::MAX).await.unwrap().to_vec())
}

/// Polls job `path` until it has left the queue and the pool.
async fn finished(state: &AppState, path: &str) -> Value {
    let began = Instant::now();
    loop {
        let job = ok(state, path).await;
        if !matches!(job["state"].as_str(), Some("queued" | "running")) {
            return job;
        }
        assert!(began.elapsed() < Duration::from_secs(120), "{path} never finished: {job}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A move's notation with its parts sorted.
fn parts(notation: &str) -> String {
    let mut parts: Vec<&str> = notation.split_whitespace().collect();
    parts.sort_unstable();
    parts.join(" ")
}

fn result_ids(moves: &Value) -> BTreeSet<String> {
    moves.as_array().unwrap().iter().map(|m| m["result"].as_str().unwrap().to_string()).collect()
}

/// Oracle records of positions with at least two legal results, spread
/// over the file.
fn oracle_rolls() -> Vec<MovegenFull> {
    read_oracle::<MovegenFull>("movegen_full.jsonl")
        .into_iter()
        .filter(|r| r.moves.len() > 1)
        .step_by(97)
        .take(12)
        .collect()
}

#[tokio::test]
async fn the_page_and_its_assets_are_served_with_their_types() {
    let state = common::state();
    for (path, content_type, needle) in [
        ("/", "text/html", "<html"),
        ("/assets/main.mjs", "text/javascript", "import "),
        ("/assets/api.mjs", "text/javascript", "fetch("),
        ("/assets/style.css", "text/css", "{"),
    ] {
        let (status, headers, body) = raw(&state, Request::get(path).body(Body::empty()).unwrap()).await;
        assert_eq!(status, 200, "{path}");
        let got = headers[header::CONTENT_TYPE].to_str().unwrap();
        assert!(got.starts_with(content_type), "{path}: {got}");
        assert!(headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap().contains("default-src 'self'"));
        assert!(String::from_utf8(body).unwrap().contains(needle), "{path}");
    }
    let (status, field, reason) = refused(&state, "/assets/jquery.js").await;
    assert_eq!((status, field), (404, None));
    assert!(reason.contains("/assets/jquery.js"), "{reason}");
    // Every module beside the page is served as JavaScript (a browser runs
    // no module of another type); their unit tests are not served.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let mut modules = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if !name.ends_with(".mjs") {
            continue;
        }
        let path = format!("/assets/{name}");
        let (status, headers, _) = raw(&state, Request::get(&path).body(Body::empty()).unwrap()).await;
        if name.ends_with(".test.mjs") {
            assert_eq!(status, 404, "{path}");
        } else {
            assert_eq!(status, 200, "{path} is not served: add it to page.rs");
            assert!(headers[header::CONTENT_TYPE].to_str().unwrap().starts_with("text/javascript"), "{path}");
            modules += 1;
        }
    }
    assert!(modules >= 8, "{modules} modules");
    let (status, _, reason) = refused(&state, "/api/nothing").await;
    assert_eq!(status, 404);
    assert!(reason.contains("/api/nothing"), "{reason}");
}

#[tokio::test]
async fn the_openapi_description_documents_every_route() {
    let state = common::state();
    let spec = ok(&state, "/api/openapi.json").await;
    assert!(spec["openapi"].as_str().unwrap().starts_with("3."), "{}", spec["openapi"]);
    for (path, methods) in [
        ("/api/position", &["get"][..]),
        ("/api/moves", &["get"]),
        ("/api/eval", &["get"]),
        ("/api/analyse", &["get"]),
        ("/api/cube", &["get"]),
        ("/api/rollouts", &["post"]),
        ("/api/rollouts/{id}", &["get", "delete"]),
        ("/api/reviews", &["post"]),
        ("/api/reviews/{id}", &["get", "delete"]),
        ("/api/play", &["post"]),
        ("/move", &["get"]),
    ] {
        for method in methods {
            assert!(spec["paths"][path][method].is_object(), "{method} {path} is not documented");
        }
    }
}

#[tokio::test]
async fn every_route_refuses_a_method_it_does_not_take_naming_the_ones_it_does() {
    let state = common::state();
    for (method, path, allowed) in [
        ("POST", "/", "GET"),
        ("DELETE", "/assets/main.mjs", "GET"),
        ("PUT", "/api/openapi.json", "GET"),
        ("PUT", "/api/position", "GET"),
        ("POST", "/api/moves", "GET"),
        ("DELETE", "/api/eval", "GET"),
        ("POST", "/api/analyse", "GET"),
        ("PATCH", "/api/cube", "GET"),
        ("GET", "/api/rollouts", "POST"),
        ("POST", "/api/rollouts/1", "DELETE"),
        ("GET", "/api/reviews", "POST"),
        ("PUT", "/api/reviews/1", "DELETE"),
        ("GET", "/api/play", "POST"),
        ("POST", "/move", "GET"),
    ] {
        let request = Request::builder().method(method).uri(path).body(Body::empty()).unwrap();
        let (status, headers, body) = raw(&state, request).await;
        assert_eq!(status, 405, "{method} {path}");
        let allow = headers[header::ALLOW].to_str().unwrap();
        assert!(allow.contains(allowed), "{method} {path}: Allow {allow}");
        let (_, field, reason) = refusal(status, &serde_json::from_slice(&body).unwrap());
        assert_eq!(field, None);
        assert!(reason.contains(method) && reason.contains(path) && reason.contains(allowed), "{reason}");
    }
}

#[tokio::test]
async fn position_shows_the_board_its_ids_and_pips() {
    let state = common::state();
    let start = ok(&state, "/api/position?position=start").await;
    assert_eq!(start["position_id"], START_ID);
    // 2 on the 24 point, 5 on 13, 3 on 8, 5 on 6: 48 + 65 + 24 + 30 pips.
    assert_eq!(start["pips"], json!([167, 167]));
    let mut board = [0u64; 26];
    (board[6], board[8], board[13], board[24]) = (5, 3, 5, 2);
    assert_eq!(start["board"]["on_roll"], json!(board));
    assert_eq!(start["board"]["opponent"], json!(board));
    assert_eq!(start["dice"], Value::Null);
    // One checker on the ace point; fifteen on the opponent's ace point.
    let sure = ok(&state, &format!("/api/position?position={}&dice=21", enc(SURE_GAMMON))).await;
    assert_eq!(sure["pips"], json!([1, 15]));
    assert_eq!((sure["board"]["on_roll"][0].as_u64(), sure["board"]["on_roll"][1].as_u64()), (Some(14), Some(1)));
    assert_eq!(sure["board"]["opponent"][1].as_u64(), Some(15));
    assert_eq!(sure["dice"], "21");
    refused_naming(
        &state,
        &[
            ("/api/position?position=nonsense", "position"),
            ("/api/position", "position"),
            ("/api/position?position=start&ply=1", "ply"),
            ("/api/position?position=start&position=start", "position"),
            ("/api/position?position=start&dice=71", "dice"),
            ("/api/position?position=start&match_id=AAAA", "match_id"),
        ],
    )
    .await;
}

#[tokio::test]
async fn moves_are_gnubg_s_legal_moves() {
    let state = common::state();
    for record in oracle_rolls() {
        let path = format!("/api/moves?position={}&dice={}{}", enc(&record.pos), record.dice[0], record.dice[1]);
        let answer = ok(&state, &path).await;
        let expected: BTreeSet<String> = record.moves.iter().cloned().collect();
        assert_eq!(result_ids(&answer["moves"]), expected, "{path}");
        assert_eq!(answer["dice_used"].as_u64(), Some(u64::from(record.max_dice)), "{path}");
    }
    // The hand-checked edge cases, with gnubg's notation (its parts in any
    // order: "bar/13 bar/19(2)" is "bar/19(2) bar/13").
    for case in read_oracle::<EdgeCase>("movegen_edge.jsonl").iter().take(6) {
        let path = format!("/api/moves?position={}&dice={}{}", enc(&case.pos), case.dice[0], case.dice[1]);
        let answer = ok(&state, &path).await;
        let mut got: Vec<(String, String)> = answer["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| (m["result"].as_str().unwrap().to_string(), parts(m["notation"].as_str().unwrap())))
            .collect();
        got.sort();
        let expected: Vec<(String, String)> =
            case.moves.iter().cloned().zip(case.notation.iter().map(|n| parts(n))).collect();
        assert_eq!(got, expected, "{}: {path}", case.name);
    }
    let (status, field, reason) = refused(&state, &format!("/api/moves?position={}&dice=31", enc(FINISHED))).await;
    assert_eq!((status, field.as_deref()), (400, Some("position")));
    assert!(reason.contains("over"), "{reason}");
    refused_naming(
        &state,
        &[
            ("/api/moves?position=start", "dice"),
            ("/api/moves?position=start&dice=71", "dice"),
            ("/api/moves?dice=31", "position"),
            ("/api/moves?position=4HPwATDgc/ABMB&dice=31", "position"),
            ("/api/moves?position=start&dice=31&ply=0", "ply"),
        ],
    )
    .await;
}

/// The steps `(from, to, die, hit)` of a JSON list of steps.
fn step_list(steps: &Value) -> Vec<(u64, u64, u64, bool)> {
    let field = |s: &Value, k: &str| s[k].as_u64().unwrap_or_else(|| panic!("{k} in {s}"));
    steps
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (field(s, "from"), field(s, "to"), field(s, "die"), s["hit"].as_bool().unwrap()))
        .collect()
}

#[tokio::test]
async fn moves_give_their_checker_steps_and_every_order_to_click_them() {
    let state = common::state();
    let answer = ok(&state, "/api/moves?position=start&dice=61").await;
    let moves = answer["moves"].as_array().unwrap();
    let point = moves.iter().position(|m| m["notation"] == "13/7 8/7").unwrap();
    // The order of `steps`, "13/7 8/7", with the dice.
    assert_eq!(moves[point]["steps"], "13/7 8/7");
    assert_eq!(step_list(&moves[point]["checker_steps"]), [(13, 7, 6, false), (8, 7, 1, false)]);
    // The graph: 8/7 first, then 13/7, completes the same move.
    let graph = answer["step_graph"].as_array().unwrap();
    let follow = |node: usize, from: u64, to: u64| -> usize {
        let steps = &graph[node]["steps"];
        let step = steps.as_array().unwrap().iter().find(|s| s["from"] == from && s["to"] == to);
        step.unwrap_or_else(|| panic!("no {from}/{to} from node {node}: {steps}"))["next"].as_u64().unwrap() as usize
    };
    let end = follow(follow(0, 8, 7), 13, 7);
    assert_eq!(graph[end]["move"].as_u64(), Some(point as u64));
    assert_eq!(graph[end]["steps"], json!([]));
    assert_eq!(graph[0]["move"], Value::Null);
    // Three on the bar with 6-6: every play starts by entering.
    let answer = ok(&state, "/api/moves?position=2zYAGAA8Bx8ADg&dice=66").await;
    let first = step_list(&answer["step_graph"][0]["steps"]);
    assert!(!first.is_empty() && first.iter().all(|s| s.0 == 25 && s.1 == 19), "{first:?}");
    // 7/6*/4 hits on 6 and not on 4.
    let answer = ok(&state, "/api/moves?position=kiSJBFQlJUmSAA&dice=21").await;
    let run = answer["moves"].as_array().unwrap().iter().find(|m| m["notation"] == "7/6*/4").unwrap();
    assert_eq!(step_list(&run["checker_steps"]), [(7, 6, 1, true), (6, 4, 2, false)]);
}

#[tokio::test]
async fn eval_values_a_certain_gammon_at_two_points() {
    let state = common::state();
    for ply in ["0", "1", "2"] {
        let value = ok(&state, &format!("/api/eval?position={}&ply={ply}", enc(SURE_GAMMON))).await;
        assert_eq!(
            (&value["win"], &value["win_gammon"], &value["win_backgammon"], &value["lose"], &value["equity"]),
            (&json!(1.0), &json!(1.0), &json!(0.0), &json!(0.0), &json!(2.0)),
            "ply {ply}: {value}"
        );
    }
    // Both sides' chances add up from the start.
    let start = ok(&state, "/api/eval?position=start").await;
    let (win, lose) = (start["win"].as_f64().unwrap(), start["lose"].as_f64().unwrap());
    assert!((win + lose - 1.0).abs() < 1e-5 && (0.4..0.6).contains(&win), "{start}");
    refused_naming(
        &state,
        &[
            ("/api/eval?position=start&ply=4", "ply"),
            ("/api/eval?position=start&ply=-1", "ply"),
            ("/api/eval?position=start&dice=31", "dice"),
            ("/api/eval?position=nonsense", "position"),
            ("/api/eval?position=start&match_id=AAAA", "match_id"),
        ],
    )
    .await;
}

#[tokio::test]
async fn analyse_ranks_every_legal_move_and_judges_the_cube() {
    let state = common::state();
    for record in oracle_rolls().iter().take(4) {
        let path = format!(
            "/api/analyse?position={}&dice={}{}&ply=0&prune=0",
            enc(&record.pos),
            record.dice[0],
            record.dice[1]
        );
        let answer = ok(&state, &path).await;
        let moves = answer["moves"].as_array().unwrap();
        assert_eq!(result_ids(&answer["moves"]), record.moves.iter().cloned().collect(), "{path}");
        let equities: Vec<f64> = moves.iter().map(|m| m["equity"].as_f64().unwrap()).collect();
        assert!(equities.windows(2).all(|w| w[0] >= w[1]), "best first: {path}: {equities:?}");
        assert_eq!(moves[0]["rank"], 1);
    }
    // The one move of the certain gammon, cubeless and cubeful.
    for cubeless in ["false", "true"] {
        let path = format!("/api/analyse?position={}&dice=21&ply=1&cubeless={cubeless}", enc(SURE_GAMMON));
        let answer = ok(&state, &path).await;
        assert_eq!(answer["moves"].as_array().unwrap().len(), 1, "{answer}");
        assert_eq!(answer["moves"][0]["move"], "1/off", "{answer}");
    }
    // Without dice: X wins a gammon for certain, so he is too good to
    // double (his opponent would pass and save a point).
    let answer = ok(&state, &format!("/api/analyse?position={}&ply=0", enc(SURE_GAMMON))).await;
    assert_eq!(answer["cube"]["doubles"], false, "{answer}");
    assert!(answer["cube"]["action"].as_str().unwrap().starts_with("Too good"), "{answer}");
    refused_naming(
        &state,
        &[
            ("/api/analyse?position=start&dice=31&ply=4", "ply"),
            ("/api/analyse?position=start&dice=31&plies=2", "plies"),
            ("/api/analyse?position=start&dice=31&prune=many", "prune"),
            ("/api/analyse?position=start&dice=31&cubeless=maybe", "cubeless"),
            ("/api/analyse?position=nonsense", "position"),
        ],
    )
    .await;
    let (status, field, reason) = refused(&state, &format!("/api/analyse?position={}&dice=31", enc(FINISHED))).await;
    assert_eq!((status, field.as_deref()), (400, Some("position")), "{reason}");
}

#[tokio::test]
async fn cube_plays_on_for_a_certain_gammon_and_refuses_what_it_cannot_decide() {
    let state = common::state();
    let answer = ok(&state, &format!("/api/cube?position={}&ply=1", enc(SURE_GAMMON))).await;
    assert_eq!(answer["doubles"], false, "{answer}");
    assert!(answer["action"].as_str().unwrap().starts_with("Too good"), "{answer}");
    assert_eq!(answer["cubeless_equity"], 2.0, "{answer}");
    let (status, field, reason) = refused(&state, &format!("/api/cube?position={}", enc(OPPONENT_OWNS_CUBE))).await;
    assert_eq!((status, field.as_deref()), (400, Some("position")));
    assert!(reason.contains("opponent owns the 2-cube"), "{reason}");
    let (status, field, reason) = refused(&state, &format!("/api/cube?position={}", enc(FINISHED))).await;
    assert_eq!((status, field.as_deref()), (400, Some("position")));
    assert!(reason.contains("no cube decision"), "{reason}");
    refused_naming(
        &state,
        &[
            ("/api/cube?position=start&ply=4", "ply"),
            ("/api/cube?position=start&dice=31", "dice"),
            ("/api/cube?position=nonsense", "position"),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_cube_matrix_is_the_cube_decision_at_each_score() {
    let state = common::state();
    let matrix = ok(&state, "/api/cube?position=start&ply=0&matrix=3").await;
    assert_eq!((&matrix["match_length"], &matrix["met"]), (&json!(3), &json!("Kazaross XG2 25 point MET")));
    let entries = matrix["matrix"].as_array().unwrap();
    assert_eq!(entries.len(), 4);
    for (entry, away) in entries.iter().zip([[2, 2], [2, 3], [3, 2], [3, 3]]) {
        // The same score asked alone: 3 - away points each, as a Match ID would say.
        let xgid = format!("XGID=-b----E-C---eE---c-e----B-:0:0:1:00:{}:{}:0:3:10", 3 - away[0], 3 - away[1]);
        let mut one = ok(&state, &format!("/api/cube?position={}&ply=0", enc(&xgid))).await;
        one.as_object_mut().unwrap().remove("schema_version");
        assert_eq!(entry["settings"]["away"], json!(away));
        assert_eq!(entry, &one, "{away:?}");
    }
    refused_naming(
        &state,
        &[
            ("/api/cube?position=start&matrix=1", "matrix"),
            ("/api/cube?position=start&matrix=26", "matrix"),
            ("/api/cube?position=start&matrix=x", "matrix"),
            (&format!("/api/cube?position={}&matrix=5", enc(OPPONENT_OWNS_CUBE)), "position"),
        ],
    )
    .await;
}

#[tokio::test]
async fn wildbg_move_bears_off_the_last_checker() {
    let state = common::state();
    // p1 = 1: X's checker on his ace point; p19 = -15: the opponent's 15
    // on X's 19 point, his own 6 point.
    let answer = ok(&state, "/move?die1=2&die2=1&p1=1&p19=-15").await;
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!(answer["moves"][0]["play"], json!([{"from": 1, "to": 0}]));
    let p = &answer["moves"][0]["probabilities"];
    assert_eq!((&p["win"], &p["winG"], &p["winBg"]), (&json!(1.0), &json!(1.0), &json!(0.0)), "{answer}");
    // The start in wildbg's numbering: as many moves as gnubg lists for 31.
    let start = "p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5";
    let answer = ok(&state, &format!("/move?die1=3&die2=1&{start}")).await;
    assert_eq!(answer["moves"].as_array().unwrap().len(), 16, "{answer}");
    refused_naming(
        &state,
        &[
            ("/move?die2=1&p1=1", "die1"),
            ("/move?die1=7&die2=1&p1=1", "die1"),
            ("/move?die1=2&die2=1&p0=1", "p0"),
            ("/move?die1=2&die2=1&p5=x", "p5"),
            ("/move?die1=2&die2=1&p26=1", "p26"),
        ],
    )
    .await;
}

#[tokio::test]
async fn a_rollout_job_of_a_certain_gammon_wins_two_points_every_game() {
    let state = common::state();
    let body = json!({"position": SURE_GAMMON, "games": 36, "seed": 3}).to_string();
    let (status, job) = post(&state, "/api/rollouts", &body).await;
    assert_eq!((status, &job["kind"]), (201, &json!("rollout")), "{job}");
    let path = format!("/api/rollouts/{}", job["id"]);
    let done = finished(&state, &path).await;
    assert_eq!(done["state"], "done", "{done}");
    let rollout = &done["result"]["rollout"];
    assert_eq!((&rollout["trials"], &rollout["equity"]["mean"]), (&json!(36), &json!(2.0)), "{done}");
    assert_eq!((&rollout["win"]["mean"], &rollout["win_gammon"]["mean"]), (&json!(1.0), &json!(1.0)));
    assert_eq!(done["progress"]["done"], 36);
    // A job is found under its own kind only.
    let (status, _, reason) = refused(&state, &format!("/api/reviews/{}", job["id"])).await;
    assert_eq!(status, 404, "{reason}");
}

#[tokio::test]
async fn match_and_cube_decision_rollouts_answer_what_the_cli_prints() {
    let state = common::state();
    // A 7-point match at 3-2: cubeful at the score unless asked otherwise.
    let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:2:0:7:10";
    let body = json!({"position": xgid, "games": 36, "truncate": 2}).to_string();
    let (status, job) = post(&state, "/api/rollouts", &body).await;
    assert_eq!(status, 201, "{job}");
    let done = finished(&state, &format!("/api/rollouts/{}", job["id"])).await;
    let result = &done["result"];
    assert_eq!((&result["settings"]["cubeful"], &result["settings"]["match"]["away"]), (&json!(true), &json!([4, 5])));
    let mwc = result["rollout"]["mwc"]["mean"].as_f64().unwrap();
    assert!(result["rollout"]["cubeful_equity"].is_null() && (0.0..1.0).contains(&mwc), "{result}");
    // The progress of a match rollout is in match winning chances too.
    assert!((done["progress"]["equity"].as_f64().unwrap() - mwc).abs() < 1e-9, "{done}");

    let body = json!({"position": "2t0hBgDbdI4BAA", "games": 36, "truncate": 4, "cube_decision": true}).to_string();
    let (status, job) = post(&state, "/api/rollouts", &body).await;
    assert_eq!(status, 201, "{job}");
    let done = finished(&state, &format!("/api/rollouts/{}", job["id"])).await;
    let result = &done["result"];
    assert_eq!((&result["games"], &result["double_pass"]), (&json!(36), &json!(1.0)), "{done}");
    assert!(result["standard_errors"]["double_take"].as_f64().unwrap() > 0.0, "{result}");
    assert!(result["action"].is_string() && result["explanation"].is_string(), "{result}");

    // A player who may not double has no cube decision to roll out.
    let owned = "XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10";
    for (body, field) in [
        (json!({"position": owned, "cube_decision": true}), "position"),
        (json!({"position": "start", "dice": "31", "cube_decision": true}), "dice"),
    ] {
        let (status, answer) = post(&state, "/api/rollouts", &body.to_string()).await;
        let (status, got, reason) = refusal(status, &answer);
        assert_eq!((status, got.as_deref()), (400, Some(field)), "{body}: {reason}");
    }
}

#[tokio::test]
async fn a_cancelled_rollout_stops_and_keeps_its_games() {
    let state = common::state();
    let body = json!({"position": "start", "games": 1_000_000, "truncate": 2}).to_string();
    let (status, job) = post(&state, "/api/rollouts", &body).await;
    assert_eq!(status, 201, "{job}");
    let path = format!("/api/rollouts/{}", job["id"]);
    let request = Request::delete(&path).body(Body::empty()).unwrap();
    let (status, _, cancelled) = raw(&state, request).await;
    assert_eq!(status, 200);
    let cancelled: Value = serde_json::from_slice(&cancelled).unwrap();
    assert_eq!(cancelled["id"], job["id"]);
    let done = finished(&state, &path).await;
    assert_eq!(done["state"], "cancelled", "{done}");
    assert!(done["progress"]["done"].as_u64().unwrap() < 1_000_000, "{done}");
    let (status, _, _) = call(&state, "DELETE", "/api/rollouts/999").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn rollout_requests_out_of_bounds_are_refused_naming_the_field() {
    let state = common::state();
    for (body, field) in [
        (json!({"position": "start", "games": 0}), Some("games")),
        (json!({"position": "start", "games": 2_000_000}), Some("games")),
        (json!({"position": "start", "ply": 3}), Some("ply")),
        (json!({"position": "start", "target_se": -1.0}), Some("target_se")),
        (json!({"position": "start", "dice": "77"}), Some("dice")),
        (json!({"position": "nonsense"}), Some("position")),
        (json!({"position": FINISHED, "dice": "31"}), Some("position")),
        (json!({"position": "start", "gamez": 10}), Some("gamez")),
        (json!({"games": 10}), Some("position")),
        (json!({"position": "start", "seed": "one"}), Some("seed")),
    ] {
        let (status, answer) = post(&state, "/api/rollouts", &body.to_string()).await;
        let (status, got, reason) = refusal(status, &answer);
        assert_eq!((status, got.as_deref()), (400, field), "{body}: {reason}");
    }
    let (status, answer) = post(&state, "/api/rollouts", "{").await;
    assert_eq!(refusal(status, &answer).0, 400);
    refused_naming(&state, &[("/api/rollouts/x", "id")]).await;
    let (status, _, _) = refused(&state, "/api/rollouts/999").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused_whether_declared_or_not() {
    let state = common::state();
    let big = format!(r#"{{"match": "{}"}}"#, "x".repeat(gammon_server::params::MAX_BODY_BYTES));
    for path in ["/api/rollouts", "/api/reviews", "/api/play"] {
        let declared = Request::post(path)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::CONTENT_LENGTH, big.len())
            .body(Body::from(big.clone()))
            .unwrap();
        let (status, headers, _) = raw(&state, declared).await;
        assert_eq!(status, 413, "{path}, declared");
        assert_eq!(headers[header::CONNECTION], "close");
        // No Content-Length: counted while read.
        let (status, answer) = post(&state, path, &big).await;
        let (status, field, reason) = refusal(status, &answer);
        assert_eq!((status, field), (413, None), "{path}: {reason}");
    }
}

#[tokio::test]
async fn a_review_job_reviews_the_moves_of_the_match_file() {
    let state = common::state();
    let (status, job) =
        post(&state, "/api/reviews", &json!({"match": TINY_MATCH, "ply": 0, "cube_ply": 0}).to_string()).await;
    assert_eq!((status, &job["kind"]), (201, &json!("review")), "{job}");
    let path = format!("/api/reviews/{}", job["id"]);
    let done = finished(&state, &path).await;
    assert_eq!(done["state"], "done", "{done}");
    let records = done["result"]["games"][0]["records"].as_array().unwrap();
    let played: Vec<(&str, &str)> =
        records.iter().map(|r| (r["dice"].as_str().unwrap(), r["move"].as_str().unwrap())).collect();
    assert_eq!(played, [("31", "8/5 6/5"), ("42", "8/4 6/4")]);
    // The opening 31 has 16 legal plays.
    assert_eq!(records[0]["legal_moves"], 16);
    // Cancelling a finished job leaves it done.
    let (status, _, after) = call(&state, "DELETE", &path).await;
    assert_eq!((status, &after["state"]), (200, &json!("done")), "{after}");
    for (body, field) in [
        (json!({"match": "this is not a match"}), "match"),
        (json!({"match": TINY_MATCH, "ply": 9}), "ply"),
        (json!({"match": TINY_MATCH, "cube_ply": 9}), "cube_ply"),
        (json!({"match": TINY_MATCH, "plies": 1}), "plies"),
        (json!({"match": 5}), "match"),
        (json!({}), "match"),
    ] {
        let (status, answer) = post(&state, "/api/reviews", &body.to_string()).await;
        let (status, got, reason) = refusal(status, &answer);
        assert_eq!((status, got.as_deref()), (400, Some(field)), "{body}: {reason}");
    }
    refused_naming(&state, &[("/api/reviews/x", "id")]).await;
    let (status, _, _) = call(&state, "DELETE", "/api/reviews/999").await;
    assert_eq!(status, 404);
}

/// A review job of `body`, finished: its result.
async fn reviewed(state: &AppState, body: Value) -> Value {
    let (status, job) = post(state, "/api/reviews", &body.to_string()).await;
    assert_eq!(status, 201, "{job}");
    let done = finished(state, &format!("/api/reviews/{}", job["id"])).await;
    assert_eq!(done["state"], "done", "{done}");
    done["result"].clone()
}

#[tokio::test]
async fn a_review_takes_any_match_file_s_bytes_and_keeps_its_stored_analysis() {
    use base64::Engine as _;
    let state = common::state();
    let shared = gammon_testkit::shared_dir().join("matches");
    // An eXtreme Gammon file, as bytes: XG's analysis beside gammon's.
    let xg = std::fs::read(shared.join("xg/B4_SrGcsKAQmoTyHlgJCbM.xg")).unwrap();
    let encoded = base64::engine::general_purpose::STANDARD.encode(&xg);
    // With line breaks every 76 characters, as `base64` writes it.
    let lines: Vec<&str> = encoded.as_bytes().chunks(76).map(|c| std::str::from_utf8(c).unwrap()).collect();
    let result = reviewed(&state, json!({"match_base64": lines.join("\n"), "ply": 0, "cube_ply": 0})).await;
    assert_eq!(result["stored_program"], "eXtreme Gammon", "{}", result["stored_program"]);
    let record = gammon_rules::read_match_file(shared.join("xg/B4_SrGcsKAQmoTyHlgJCbM.xg")).unwrap();
    assert_eq!(result["games"].as_array().unwrap().len(), record.games.len());
    // gnubg's SGF as text keeps gnubg's analysis, as `gammon review` does.
    let sgf = std::fs::read_to_string(shared.join("real/gnubgscripts_match1486073_analyzed.sgf")).unwrap();
    let result = reviewed(&state, json!({"match": sgf, "ply": 0, "cube_ply": 0})).await;
    assert!(result["stored_program"].as_str().unwrap().starts_with("GNU Backgammon"), "{}", result["stored_program"]);
    for (body, field, words) in [
        (json!({"match_base64": "not base64!"}), "match_base64", "not base64"),
        (json!({"match_base64": "gICA"}), "match_base64", "not a match file"),
        (json!({"match": TINY_MATCH, "match_base64": "AAEC"}), "match_base64", "not both"),
        (json!({"match": "OGXM\u{2}"}), "match", "send its bytes in base64 as `match_base64`"),
    ] {
        let (status, answer) = post(&state, "/api/reviews", &body.to_string()).await;
        let (status, got, reason) = refusal(status, &answer);
        assert_eq!((status, got.as_deref()), (400, Some(field)), "{body}: {reason}");
        assert!(reason.contains(words), "{body}: {reason}");
    }
}

#[tokio::test]
async fn play_refuses_a_bad_body_naming_the_field() {
    let state = common::state();
    for (body, field) in [
        (r#"{"action": "new", "sed": 1}"#, Some("sed")),
        (r#"{"action": "new", "seed": "one"}"#, Some("seed")),
        (r#"{"seed": 1}"#, Some("action")),
        (r#"{"action": "new", "seed": 1, "seed": 2}"#, Some("seed")),
        (r#"{"action": "new", "#, None),
        (r#"["new"]"#, None),
    ] {
        let (status, answer) = post(&state, "/api/play", body).await;
        let (status, got, reason) = refusal(status, &answer);
        assert_eq!((status, got.as_deref()), (400, field), "{body}: {reason}");
        assert!(reason.starts_with("bad JSON body: "), "{body}: {reason}");
    }
}

#[tokio::test]
async fn the_servers_match_equity_table_is_named_and_covers_its_matches() {
    // A made-up explicit 30-point table in gnubg's layout.
    let me = |a: u32, b: u32| 0.5 + (f64::from(b) - f64::from(a)) / 120.0;
    let row = |a: u32| (1..=30).map(|b| format!("<me>{}</me>", me(a, b))).collect::<String>();
    let pre: String = (1..=30).map(|a| format!("<row>{}</row>", row(a))).collect();
    let post: String = (1..=30).map(|a| format!("<me>{}</me>", me(a, 0).min(0.5))).collect();
    let xml = format!(
        "<met><info><name>Thirty</name></info><pre-crawford-table type=\"explicit\">{pre}</pre-crawford-table>\
         <post-crawford-table type=\"explicit\" player=\"both\"><row>{post}</row></post-crawford-table></met>"
    );
    let met = gammon_engine::met::Met::parse_xml(&xml).unwrap();
    let pool = std::sync::Arc::new(rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap());
    let net = gammon_eval::NetEvaluator::shipped().unwrap();
    let state = gammon_server::state_with_met(net, met, pool, gammon_server::JobLimits::default());
    let long = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:7:0:28:10";
    let answer = ok(&state, &format!("/api/cube?position={}&ply=0", enc(long))).await;
    assert_eq!((&answer["settings"]["met"], &answer["settings"]["away"]), (&json!("Thirty"), &json!([25, 21])));
    let matrix = ok(&state, "/api/cube?position=start&ply=0&matrix=27").await;
    assert_eq!((matrix["met"].as_str(), matrix["matrix"].as_array().map(Vec::len)), (Some("Thirty"), Some(26 * 26)));
    refused_naming(&state, &[("/api/cube?position=start&matrix=31", "matrix")]).await;
}
