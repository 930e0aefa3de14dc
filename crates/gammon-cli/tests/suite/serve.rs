//! `gammon serve` end to end: a real server on a free local port, asked over
//! HTTP, its answers compared with the CLI's `--json` for the same input.
//!
//! Over the CLI's 600 lines on purpose: every test here needs the spawned
//! server and the CLI side by side (the helpers at the top); the routes'
//! own answers and refusals are tested without a socket in
//! crates/gammon-server/tests/routes.rs.
#![allow(clippy::unwrap_used)]

use crate::gammon;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The CLI's `--json` answer.
fn cli_json(args: &[&str]) -> Value {
    let out = gammon(&[args, &["--json"]].concat());
    assert!(out.success(), "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// A running `gammon serve --port 0`, killed when dropped (the browser
/// tests use it too).
pub(crate) struct Server {
    child: Child,
    pub(crate) url: String,
    agent: ureq::Agent,
}

impl Server {
    pub(crate) fn start() -> Server {
        Self::start_with_threads(2)
    }

    fn start_with_threads(threads: usize) -> Server {
        Self::start_with(&["--threads", &threads.to_string()])
    }

    /// `gammon serve --port 0` with `args`.
    fn start_with(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        // "gammon serve: http://127.0.0.1:PORT/ (Ctrl-C stops)"
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "binds the loopback by default: {line}");
        let config = ureq::Agent::config_builder().http_status_as_error(false).build();
        Server { child, url, agent: config.into() }
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let mut response = self.agent.get(&format!("{}{path}", self.url)).call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_json().unwrap())
    }

    fn ok(&self, path: &str) -> Value {
        let (status, body) = self.get(path);
        assert_eq!(status, 200, "{path}: {body}");
        body
    }

    fn post(&self, path: &str, body: &str) -> (u16, Value) {
        let mut response = self
            .agent
            .post(&format!("{}{path}", self.url))
            .header("content-type", "application/json")
            .send(body)
            .unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_json().unwrap())
    }

    fn delete(&self, path: &str) -> (u16, Value) {
        let mut response = self.agent.delete(&format!("{}{path}", self.url)).call().unwrap();
        let status = response.status().as_u16();
        (status, response.body_mut().read_json().unwrap())
    }

    /// Polls job `path` until it leaves the queue and the pool.
    fn finished(&self, path: &str) -> Value {
        let began = Instant::now();
        loop {
            let job = self.ok(path);
            if !matches!(job["state"].as_str(), Some("queued" | "running")) {
                return job;
            }
            assert!(began.elapsed() < Duration::from_secs(120), "{path} never finished: {job}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Server {
    /// What the server wrote on standard error until it was killed.
    fn killed_stderr(mut self) -> String {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let mut text = String::new();
        std::io::Read::read_to_string(&mut self.child.stderr.take().unwrap(), &mut text).unwrap();
        text
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `value` without the fields that measure time.
fn timeless(mut value: Value) -> Value {
    if let Value::Object(map) = &mut value {
        for key in ["seconds", "elapsed_seconds", "games_per_second", "elapsed", "stats"] {
            map.remove(key);
        }
        for v in map.values_mut() {
            *v = timeless(v.take());
        }
    }
    value
}

/// A one-point match of one move each, as gnubg exports it.
const TINY_MATCH: &str = " 1 point match\n\n Game 1\n Alice : 0                          Bob : 0\n  1) 31: 8/5 6/5                     42: 8/4 6/4\n";

const XGID: &str = "XGID=-b----E-C---eE---c-e----B-:1:1:1:31:3:1:0:5:10";

#[test]
fn every_endpoint_answers_what_the_cli_prints() {
    let server = Server::start();
    let pos = "4HPwATDgc/ABMA";
    assert_eq!(server.ok(&format!("/api/moves?position={pos}&dice=31")), cli_json(&["moves", pos, "31"]));
    assert_eq!(server.ok("/api/eval?position=start"), cli_json(&["eval", "start"]));
    for ply in ["0", "1", "2"] {
        let served = server.ok(&format!("/api/analyse?position={pos}&dice=31&ply={ply}"));
        assert_eq!(timeless(served), timeless(cli_json(&["analyse", pos, "--dice", "31", "--ply", ply])));
        let served = server.ok(&format!("/api/analyse?position={pos}&dice=64&ply={ply}&cubeless=true"));
        assert_eq!(timeless(served), timeless(cli_json(&["analyse", pos, "--dice", "64", "--ply", ply, "--cubeless"])));
    }
    // The screen inside the lookahead: none, another size.
    for prune in ["0", "3"] {
        let served = server.ok(&format!("/api/analyse?position={pos}&dice=31&ply=2&prune={prune}"));
        assert_eq!(
            timeless(served),
            timeless(cli_json(&["analyse", pos, "--dice", "31", "--ply", "2", "--prune", prune]))
        );
    }
    // A match context travels in the XGID (its own dice are overridden).
    let encoded = XGID.replace(':', "%3A").replace('=', "%3D");
    let served = server.ok(&format!("/api/analyse?position={encoded}&dice=52&ply=0"));
    assert_eq!(served["context"]["match_length"], 5);
    assert_eq!(timeless(served), timeless(cli_json(&["analyse", XGID, "--dice", "52", "--ply", "0"])));
    let without_dice = XGID.replace(":31:", ":00:");
    let served = server.ok(&format!("/api/analyse?position={}&ply=1", without_dice.replace(':', "%3A")));
    assert!(served["cube"].is_object(), "{served}");
    assert_eq!(timeless(served), timeless(cli_json(&["analyse", &without_dice, "--ply", "1"])));
    for ply in ["1", "2"] {
        let served = server.ok(&format!("/api/cube?position={}&ply={ply}", without_dice.replace(':', "%3A")));
        assert_eq!(timeless(served), timeless(cli_json(&["cube", &without_dice, "--ply", ply])));
    }
    // A Position ID with a separate Match ID is the same as gnubg's pair.
    let pair = server.ok("/api/eval?position=4HPwATDgc/ABMA&match_id=cAkAAAAAAAAA");
    assert_eq!(pair["position"], pos);
    let board = server.ok(&format!("/api/position?position={encoded}"));
    assert_eq!(board["position_id"], pos);
    assert_eq!(board["xgid"], XGID);
    assert_eq!(board["pips"], json!([167, 167]));
    let on_roll: Vec<u64> = serde_json::from_value(board["board"]["on_roll"].clone()).unwrap();
    assert_eq!((on_roll.iter().sum::<u64>(), on_roll[6], on_roll[24]), (15, 5, 2));
    let (status, spec) = server.get("/api/openapi.json");
    assert_eq!(status, 200);
    for path in ["/api/position", "/api/moves", "/api/eval", "/api/analyse", "/api/cube", "/api/rollouts/{id}"] {
        assert!(spec["paths"][path].is_object(), "{path} is not documented");
    }
}

#[test]
fn bad_requests_get_a_4xx_naming_the_field() {
    let server = Server::start();
    let cases: &[(&str, u16, Option<&str>)] = &[
        ("/api/moves?position=nonsense&dice=31", 400, Some("position")),
        // 15 checkers each are required: a Position ID with the key of 16.
        ("/api/eval?position=4HPwATDgc/ABMB", 400, Some("position")),
        ("/api/moves?position=start&dice=71", 400, Some("dice")),
        ("/api/moves?position=start", 400, Some("dice")),
        ("/api/moves?dice=31", 400, Some("position")),
        ("/api/analyse?position=start&dice=31&ply=4", 400, Some("ply")),
        ("/api/analyse?position=start&dice=31&ply=-1", 400, Some("ply")),
        ("/api/analyse?position=start&dice=31&plies=2", 400, Some("plies")),
        ("/api/analyse?position=start&dice=31&prune=many", 400, Some("prune")),
        ("/api/analyse?position=start&dice=31&dice=42", 400, Some("dice")),
        ("/api/analyse?position=start&dice=31&cubeless=maybe", 400, Some("cubeless")),
        ("/api/eval?position=start&match_id=AAAA", 400, Some("match_id")),
        ("/api/moves?position=AAAAAAAA/38AAA&dice=31", 400, Some("position")),
        ("/api/rollouts/99", 404, None),
        ("/api/rollouts/x", 400, Some("id")),
        ("/api/nothing", 404, None),
    ];
    for &(path, status, field) in cases {
        let (got, body) = server.get(path);
        assert_eq!(got, status, "{path}: {body}");
        assert_eq!(body["error"]["field"].as_str(), field, "{path}: {body}");
        assert!(!body["error"]["reason"].as_str().unwrap().is_empty(), "{path}: {body}");
    }
    let posts: &[(&str, &str, u16, Option<&str>)] = &[
        ("/api/rollouts", "{", 400, None),
        ("/api/rollouts", r#"{"position": "start", "gamez": 10}"#, 400, Some("gamez")),
        ("/api/rollouts", r#"{"games": 10}"#, 400, Some("position")),
        ("/api/rollouts", r#"{"position": "start", "games": 0}"#, 400, Some("games")),
        ("/api/rollouts", r#"{"position": "start", "games": 2000000}"#, 400, Some("games")),
        ("/api/rollouts", r#"{"position": "start", "ply": 3}"#, 400, Some("ply")),
        ("/api/rollouts", r#"{"position": "start", "dice": "77"}"#, 400, Some("dice")),
        ("/api/reviews", r#"{"match": "this is not a match"}"#, 400, Some("match")),
        ("/api/reviews", r#"{"match": "", "ply": 9}"#, 400, Some("match")),
        ("/api/play", r#"{"action": "new", "seed": 1, "ply": 3}"#, 400, Some("ply")),
        ("/api/play", r#"{"action": "new", "seed": 1, "match_length": 65}"#, 400, Some("match_length")),
    ];
    for &(path, body, status, field) in posts {
        let (got, answer) = server.post(path, body);
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["error"]["field"].as_str(), field, "{body}: {answer}");
    }
    // A match that reads, so that the depth is the field at fault.
    for (field, depth) in [("ply", 4), ("cube_ply", 9)] {
        let body = json!({"match": TINY_MATCH, field: depth}).to_string();
        let (got, answer) = server.post("/api/reviews", &body);
        assert_eq!((got, answer["error"]["field"].as_str()), (400, Some(field)), "{body}: {answer}");
    }
    let (got, answer) = server.post("/api/reviews", &json!({"match": TINY_MATCH, "ply": 0, "cube_ply": 0}).to_string());
    assert_eq!(got, 201, "the same match at a legal depth is reviewed: {answer}");
    let huge = format!(r#"{{"match": "{}"}}"#, "x".repeat(2 << 20));
    let (got, answer) = server.post("/api/reviews", &huge);
    assert_eq!(got, 413, "{answer}");
}

#[test]
fn a_rollout_job_gives_the_cli_result_and_cancels() {
    let server = Server::start();
    let (status, job) = server.post("/api/rollouts", r#"{"position": "start", "games": 72, "truncate": 4, "seed": 5}"#);
    assert_eq!(status, 201, "{job}");
    let id = job["id"].as_u64().unwrap();
    let done = server.finished(&format!("/api/rollouts/{id}"));
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["progress"]["done"], 72);
    let cli = cli_json(&["rollout", "start", "--games", "72", "--truncate", "4", "--seed", "5", "--threads", "2"]);
    assert_eq!(timeless(done["result"].clone()), timeless(cli));
    // A job of the other kind is not found under this one.
    assert_eq!(server.get(&format!("/api/reviews/{id}")).0, 404);

    // Cancelled while running: it stops soon and keeps the games it finished.
    let (_, long) = server.post("/api/rollouts", r#"{"position": "start", "games": 1000000}"#);
    let long_id = long["id"].as_u64().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = server.delete(&format!("/api/rollouts/{long_id}"));
    assert_eq!(status, 200);
    let cancelled = server.finished(&format!("/api/rollouts/{long_id}"));
    assert_eq!(cancelled["state"], "cancelled", "{cancelled}");
    let games = cancelled["result"]["rollout"]["trials"].as_u64().unwrap_or(0);
    assert!(games < 1_000_000, "{cancelled}");
}

#[test]
fn a_full_queue_is_refused_with_429_and_queued_jobs_cancel() {
    let server = Server::start();
    let mut ids = Vec::new();
    let mut refused = None;
    for _ in 0..40 {
        let (status, body) = server.post("/api/rollouts", r#"{"position": "start", "games": 1000000}"#);
        if status == 429 {
            refused = Some(body);
            break;
        }
        assert_eq!(status, 201, "{body}");
        ids.push(body["id"].as_u64().unwrap());
    }
    let refused = refused.expect("the queue has a limit");
    assert!(refused["error"]["reason"].as_str().unwrap().contains("waiting"), "{refused}");
    let last = server.ok(&format!("/api/rollouts/{}", ids.last().unwrap()));
    assert_eq!(last["state"], "queued");
    assert_eq!(last["queue_position"].as_u64(), last["limits"]["queued"].as_u64());
    for id in &ids {
        assert_eq!(server.delete(&format!("/api/rollouts/{id}")).0, 200);
    }
    for id in &ids {
        let job = server.finished(&format!("/api/rollouts/{id}"));
        assert_eq!(job["state"], "cancelled", "{job}");
    }
}

#[test]
fn a_running_review_job_cancels() {
    let file = gammon_testkit::shared_dir().join("matches/real/fibs_NIUSHA-nori_1p.mat");
    let text = std::fs::read_to_string(&file).unwrap();
    let server = Server::start();
    // 2 plies: each decision takes long enough that the job is still
    // running when the DELETE comes.
    let (status, job) = server.post("/api/reviews", &json!({"match": text, "ply": 2, "cube_ply": 2}).to_string());
    assert_eq!(status, 201, "{job}");
    let path = format!("/api/reviews/{}", job["id"]);
    let began = Instant::now();
    // Running, and some records reviewed (the total is known once the
    // match is read; a job cancelled before that has done 0 of 0).
    let done_before = loop {
        let view = server.ok(&path);
        let done = view["progress"]["done"].as_u64().unwrap_or(0);
        if view["state"] == "running" && done > 0 {
            break done;
        }
        assert!(began.elapsed() < Duration::from_secs(20), "never started: {view}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let (status, answer) = server.delete(&path);
    assert_eq!(status, 200, "{answer}");
    let cancelled = server.finished(&path);
    assert_eq!(cancelled["state"], "cancelled", "{cancelled}");
    // Stopped part way: the review of the records finished, marked partial.
    assert_eq!(cancelled["error"], Value::Null, "{cancelled}");
    let review = &cancelled["result"];
    assert_eq!(review["partial"], true, "{cancelled}");
    let reviewed = review["records_reviewed"].as_u64().unwrap();
    assert!(reviewed >= done_before && reviewed < review["records"].as_u64().unwrap(), "{cancelled}");
    // Its slot is free: the next job runs.
    let (_, next) = server.post("/api/reviews", &json!({"match": TINY_MATCH, "ply": 0, "cube_ply": 0}).to_string());
    assert_eq!(server.finished(&format!("/api/reviews/{}", next["id"]))["state"], "done");
}

#[test]
fn every_documented_path_is_routed_with_its_methods() {
    let server = Server::start();
    let spec = server.ok("/api/openapi.json");
    let paths = spec["paths"].as_object().unwrap();
    assert!(paths.len() >= 12, "{paths:?}");
    for (path, item) in paths {
        let url = format!("{}{}", server.url, path.replace("{id}", "999999"));
        for method in item.as_object().unwrap().keys() {
            // No parameters and an empty body: each answers its own
            // refusal, not the router's 404 (no such path) or 405.
            let mut response = match method.as_str() {
                "get" => server.agent.get(&url).call(),
                "post" => server.agent.post(&url).header("content-type", "application/json").send("{}"),
                "delete" => server.agent.delete(&url).call(),
                other => panic!("{path}: a method the test does not know: {other}"),
            }
            .unwrap();
            let status = response.status().as_u16();
            let body = response.body_mut().read_to_string().unwrap();
            assert_ne!(status, 405, "{method} {path} is not routed: {body}");
            assert!(!body.contains("no such endpoint"), "{method} {path} is not routed: {status} {body}");
            assert!(status < 500, "{method} {path}: {status} {body}");
        }
    }
}

#[test]
fn a_review_job_gives_the_cli_review() {
    let file = gammon_testkit::shared_dir().join("matches/real/fibs_NIUSHA-nori_1p.mat");
    let text = std::fs::read_to_string(&file).unwrap();
    let server = Server::start();
    let (status, job) = server.post("/api/reviews", &json!({"match": text, "ply": 0, "cube_ply": 0}).to_string());
    assert_eq!(status, 201, "{job}");
    let done = server.finished(&format!("/api/reviews/{}", job["id"]));
    assert_eq!(done["state"], "done", "{done}");
    assert!(done["progress"]["total"].as_u64().unwrap() > 0);
    let cli = cli_json(&["review", file.to_str().unwrap(), "--ply", "0", "--cube-ply", "0"]);
    assert_eq!(timeless(done["result"].clone()), timeless(cli));
}

/// `gammon serve --port 0 --bind BIND`: the URL it prints, and its stderr
/// once stopped.
fn serve_bound(bind: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(["serve", "--port", "0", "--threads", "1", "--bind", bind])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let _ = child.kill();
    let _ = child.wait();
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    (line, stderr)
}

#[test]
fn bind_takes_host_names_and_warns_off_loopback() {
    // A host name is resolved, to a loopback address: no warning.
    let (line, stderr) = serve_bound("localhost");
    assert!(line.contains("http://127.0.0.1:") || line.contains("http://[::1]:"), "{line}");
    assert!(!stderr.contains("warning"), "{stderr}");
    // Every interface: a warning that anyone who reaches it can use it.
    let (line, stderr) = serve_bound("0.0.0.0");
    assert!(line.contains("http://0.0.0.0:"), "{line}");
    assert!(stderr.contains("warning") && stderr.contains("not a loopback address"), "{stderr}");
    // A name that does not resolve is refused, naming it.
    let out = gammon(&["serve", "--port", "0", "--bind", "no-such-host.invalid"]);
    assert!(!out.success());
    assert!(out.stderr.contains("no-such-host.invalid"), "{}", out.stderr);
}

#[cfg(unix)]
#[test]
fn sigterm_stops_the_server_cleanly() {
    let mut server = Server::start();
    assert_eq!(server.get("/api/eval?position=start").0, 200);
    let pid = server.child.id().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().unwrap().success());
    let began = Instant::now();
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(began.elapsed() < Duration::from_secs(20), "the server did not stop");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(server.child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("stopped"), "{stderr}");
}

#[test]
fn wildbg_move_requests_are_answered_in_wildbgs_shape() {
    let server = Server::start();
    // wildbg's own example: the starting position, x positive, o negative.
    let board = "p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5";
    let answer = server.ok(&format!("/move?die1=3&die2=1&{board}"));
    let moves = answer["moves"].as_array().unwrap();
    let ours = server.ok("/api/analyse?position=start&dice=31&ply=0&cubeless=true");
    assert_eq!(moves.len(), ours["moves"].as_array().unwrap().len());
    let mut steps: Vec<(u64, u64)> = moves[0]["play"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["from"].as_u64().unwrap(), s["to"].as_u64().unwrap()))
        .collect();
    steps.sort_unstable();
    assert_eq!(steps, [(6, 5), (8, 5)], "the best 31 at the start is 8/5 6/5: {answer}");
    let best = &ours["moves"][0]["probabilities"];
    assert_eq!(moves[0]["probabilities"]["win"], best["win"]);
    assert_eq!(moves[0]["probabilities"]["loseBg"], best["lose_backgammon"]);
    // x on the bar cannot enter o's closed home board (x's points 19-24).
    let closed = "p25=1&p14=14&p19=-2&p20=-2&p21=-2&p22=-2&p23=-2&p24=-2&p12=-3";
    let answer = server.ok(&format!("/move?die1=6&die2=6&{closed}"));
    assert_eq!(answer["moves"].as_array().unwrap().len(), 1, "{answer}");
    assert_eq!(answer["moves"][0]["play"], json!([]));
    for (query, field) in [
        (format!("die1=7&die2=1&{board}"), "die1"),
        (format!("die1=3&{board}"), "die2"),
        ("die1=3&die2=1&p24=16".to_string(), "p0"),
        (format!("die1=3&die2=1&p0=2&{board}"), "p0"),
        (format!("die1=3&die2=1&p26=1&{board}"), "p26"),
    ] {
        let (status, body) = server.get(&format!("/move?{query}"));
        assert_eq!((status, body["error"]["field"].as_str()), (400, Some(field)), "{query}: {body}");
    }
}

#[test]
fn a_game_against_the_engine_is_played_through_the_api_with_no_server_state() {
    let server = Server::start();
    let (status, mut state) = server.post("/api/play", r#"{"action": "new", "match_length": 3, "seed": 42}"#);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["events"][0]["event"], "opening_roll");
    let mut games_over = 0;
    let mut refused_illegal = false;
    for _ in 0..400 {
        let xgid = state["xgid"].as_str().unwrap().to_string();
        // The state as issued, echoed back with its signature.
        let act = |action: &str| json!({"action": action, "state": state["state"], "seed": 42, "step": state["next_step"], "signature": state["signature"]});
        let body = match state["turn"].as_str().unwrap() {
            "match_over" => break,
            "roll" | "roll_or_double" => act("roll"),
            "answer_double" => act("take"),
            "answer_resignation" => act("accept_resignation"),
            "move" => {
                let mut body = act("move");
                if !refused_illegal {
                    // A move the dice do not allow is refused, naming the move.
                    body["move"] = "24/1".into();
                    let (status, answer) = server.post("/api/play", &body.to_string());
                    assert_eq!((status, answer["error"]["field"].as_str()), (400, Some("move")), "{answer}");
                    refused_illegal = true;
                }
                let moves = server.ok(&format!("/api/moves?position={}", xgid.replace(':', "%3A").replace('=', "%3D")));
                body["move"] = moves["moves"][0]["notation"].clone();
                body
            }
            other => panic!("unknown turn {other}: {state}"),
        };
        let (status, next) = server.post("/api/play", &body.to_string());
        assert_eq!(status, 200, "{body}: {next}");
        games_over += next["events"].as_array().unwrap().iter().filter(|e| e["event"] == "game_over").count();
        state = next;
    }
    assert_eq!(state["turn"], "match_over", "{state}");
    assert!(games_over >= 1);
    assert!(state["score"][0].as_u64().unwrap() >= 3 || state["score"][1].as_u64().unwrap() >= 3, "{state}");
    let (status, answer) = server.post("/api/play", r#"{"action": "fly", "seed": 1}"#);
    assert_eq!((status, answer["error"]["field"].as_str()), (400, Some("action")), "{answer}");
    // An action that does not fit the issued state.
    let (_, new) = server.post("/api/play", r#"{"action": "new", "seed": 1}"#);
    let take = json!({"action": "take", "state": new["state"], "seed": 1, "step": 1, "signature": new["signature"]});
    let (status, answer) = server.post("/api/play", &take.to_string());
    assert_eq!((status, answer["error"]["field"].as_str()), (400, Some("action")), "{answer}");
    // A state the server did not issue.
    let (status, answer) =
        server.post("/api/play", r#"{"action": "roll", "state": "1:x", "seed": 1, "step": 1, "signature": "0000"}"#);
    assert_eq!((status, answer["error"]["field"].as_str()), (400, Some("signature")), "{answer}");
}

/// A position text as a query value (an XGID's `:` and `=`).
fn encode(text: &str) -> String {
    text.replace(':', "%3A").replace('=', "%3D")
}

/// A number of a JSON object, or a failure naming the field.
fn num(value: &Value, key: &str) -> f64 {
    value[key].as_f64().unwrap_or_else(|| panic!("{key} is not a number in {value}"))
}

#[test]
fn cube_facts_are_the_tables_numbers_in_the_cli_and_the_server() {
    let server = Server::start();
    // The opening 3-1 played (no double); a race, X 70 pips to O's 78 (a
    // double), in money play and at 3-1 in a 5-point match.
    let race = "XGID=-----CCCB--------c-cccc---:0:0:1:00:0:0:0:0:10";
    let race_match = "XGID=-----CCCB--------c-cccc---:0:0:1:00:3:1:0:5:10";
    let spec = server.ok("/api/openapi.json");
    let schemas = &spec["components"]["schemas"];
    let mut verdicts = Vec::new();
    for pos in ["4HPwATDgc/ABMA", race, race_match] {
        let cli = cli_json(&["cube", pos, "--ply", "0"]);
        assert_eq!(server.ok(&format!("/api/cube?position={}&ply=0", encode(pos))), cli, "{pos}");
        let facts = cli["facts"].as_array().unwrap_or_else(|| panic!("{pos}: no facts in {cli}"));
        let fact = |kind: &str| {
            facts.iter().find(|f| f["kind"] == kind).unwrap_or_else(|| panic!("{pos}: no {kind} fact in {cli}"))
        };
        // Each fact's text is its line of the explanation.
        let lines: Vec<&str> = cli["explanation"].as_str().unwrap().lines().collect();
        let texts: Vec<&str> = facts.iter().map(|f| f["text"].as_str().unwrap()).collect();
        assert_eq!(lines, texts, "{pos}");
        // docs/openapi.json names exactly the fields each kind of fact has.
        for f in facts {
            let schema = &schemas[format!("CubeFact_{}", f["kind"].as_str().unwrap())];
            let mut documented: Vec<&String> = schema["properties"].as_object().expect("documented").keys().collect();
            let mut written: Vec<&String> = f.as_object().unwrap().keys().collect();
            documented.sort();
            written.sort();
            assert_eq!(documented, written, "{f}");
        }

        let chances = fact("chances");
        assert!((num(chances, "x_wins") + num(chances, "o_wins") - 1.0).abs() < 1e-12, "{chances}");
        assert!((num(chances, "x_wins") - num(&cli["probabilities"], "win")).abs() < 1e-6, "{pos}");
        assert!((num(chances, "o_gammons") - num(&cli["probabilities"], "lose_gammon")).abs() < 1e-6, "{pos}");
        for side in ["x", "o"] {
            let (w, g, bg) = (
                num(chances, &format!("{side}_wins")),
                num(chances, &format!("{side}_gammons")),
                num(chances, &format!("{side}_backgammons")),
            );
            assert!(w >= g && g >= bg && bg >= 0.0, "{side}: {chances}");
        }

        let take_point = fact("take_point");
        for key in ["model", "dead_cube", "live_cube", "no_gammons"] {
            assert_eq!(take_point[key], cli["take_point"][key], "{pos}: {key}");
        }
        let percent = format!("at least {:.1}% winning chances", 100.0 * num(take_point, "model"));
        assert!(take_point["text"].as_str().unwrap().contains(&percent), "{percent}: {take_point}");
        let taker = fact("taker_chances");
        assert_eq!(taker["chances"], cli["take_point"]["taker_chances"]);
        assert_eq!(num(taker, "chances"), num(chances, "o_wins"));
        assert_eq!(taker["takes"], num(taker, "chances") >= num(take_point, "model"));

        let equities = fact("equities");
        for key in ["no_double", "double_take", "double_pass"] {
            assert_eq!(equities[key], cli[key], "{pos}: {key}");
        }
        assert_eq!(fact("answer")["response"], cli["response"]);
        let verdict = fact("verdict");
        let doubling = matches!(verdict["reason"]["kind"].as_str(), Some("double" | "optional"));
        assert_eq!(Some(doubling), cli["doubles"].as_bool(), "{verdict}");
        verdicts.push(verdict["action"].clone());

        if cli["settings"]["match_length"] == 0 {
            let setting = fact("money_setting");
            assert_eq!((&setting["cube"], &setting["owner"]), (&cli["settings"]["cube"], &cli["settings"]["owner"]));
            assert_eq!(equities["match_chances"], Value::Null);
        } else {
            let setting = fact("match_setting");
            assert_eq!(json!([setting["x_away"], setting["o_away"]]), cli["settings"]["away"]);
            assert_eq!(fact("gammon_prices")["prices"], cli["gammon_prices"]);
            for key in ["no_double", "double_take", "double_pass"] {
                assert_eq!(equities["match_chances"][key], cli["mwc"][key], "{pos}: {key}");
            }
        }
    }
    assert_eq!(verdicts[0], "no_double_take");
    assert_ne!(verdicts[1], "no_double_take", "the race is a double");
}

/// CPU seconds (user and system) the process `pid` has used so far.
fn cpu_seconds(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // The fields after the command name (which may hold spaces): utime and
    // stime are the 12th and 13th of them, in clock ticks (100 a second).
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<u64> = after.split(' ').skip(11).take(2).map(|f| f.parse().unwrap()).collect();
    (fields[0] + fields[1]) as f64 / 100.0
}

#[test]
fn a_client_that_hangs_up_frees_its_search() {
    let server = Server::start_with_threads(1);
    let impatient: ureq::Agent =
        ureq::Agent::config_builder().timeout_global(Some(Duration::from_millis(50))).build().into();
    // Four 3-ply analyses of 1-1 in four crowded middle games (wildbg's
    // benchmark positions with the most work for this roll), each about half
    // a second of CPU in a release build and more in a test build; each
    // client gives up after 0.05 s. The first is running when its client
    // goes, the others wait for the one worker. Four different positions, so
    // that none finds the others' work in the cache; no pubeval screen
    // inside the lookahead (prune=0), which would make them several times
    // faster.
    let asks: Vec<String> = ["NG/BAQaKz8EHAA", "zM6FAQZw58gBMA", "2N42AQBsvoIDEA", "nLspBgDbOIMHAA"]
        .iter()
        .map(|p| format!("{}/api/analyse?position={p}&dice=11&ply=3&cubeless=true&prune=0", server.url))
        .collect();
    for url in &asks {
        let answer = impatient.get(url).call();
        assert!(
            matches!(answer, Err(ureq::Error::Timeout(_))),
            "{url} did not time out after 0.05 s: pick slower work ({answer:?})"
        );
    }
    // Once the hang-ups are noticed the server is idle: no search runs on
    // for nobody (four of them would take seconds of CPU).
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id();
    let before = cpu_seconds(pid);
    std::thread::sleep(Duration::from_secs(1));
    let busy = cpu_seconds(pid) - before;
    assert!(busy < 0.3, "the server used {busy:.2} s of CPU in a second after its clients hung up");
    // And the stopped searches left nothing wrong behind in the shared
    // cache: the same question, asked patiently, is the CLI's answer.
    let served = server.ok("/api/analyse?position=4HPwATDgc/ABMA&dice=11&ply=3&cubeless=true&prune=0");
    let cli = cli_json(&["analyse", "start", "--dice", "11", "--ply", "3", "--cubeless", "--prune", "0"]);
    assert_eq!(timeless(served), timeless(cli));
}

#[test]
fn log_writes_one_line_per_request_and_no_flag_writes_none() {
    for log in [true, false] {
        let server = Server::start_with(if log { &["--threads", "1", "--log"][..] } else { &["--threads", "1"] });
        server.ok("/api/eval?position=start");
        assert_eq!(server.get("/api/nothing").0, 404);
        let stderr = server.killed_stderr();
        let lines: Vec<&str> = stderr.lines().collect();
        if log {
            assert_eq!(lines.len(), 2, "{stderr}");
            // `2026-…Z  INFO GET /api/eval 200 0.596 ms`: no query string.
            for (line, request) in lines.iter().zip(["GET /api/eval 200 ", "GET /api/nothing 404 "]) {
                assert!(line.contains(&format!(" INFO {request}")) && line.ends_with(" ms"), "{line}");
                assert!(!line.contains("position"), "{line}");
            }
        } else {
            assert_eq!(stderr, "", "nothing without --log");
        }
    }
}
