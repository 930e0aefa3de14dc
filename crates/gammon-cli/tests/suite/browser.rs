//! `gammon serve`'s page in a real headless Chromium, driven through
//! WebDriver (chromedriver): what a player sees and clicks. Screenshots of
//! each screen go to `target/tmp/screenshots/` (test artefacts).
#![allow(clippy::unwrap_used)]

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when dropped.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// `gammon serve --port 0` and its URL.
fn server() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gammon"))
        .args(["serve", "--port", "0", "--threads", "2"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
    (Killed(child), url)
}

/// chromedriver on a free port, once it answers.
fn chromedriver() -> (Killed, String) {
    let port = free_port();
    let child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("chromedriver is needed for the browser tests: apt-get install chromium chromium-driver");
    let url = format!("http://127.0.0.1:{port}");
    let began = Instant::now();
    while ureq::get(&format!("{url}/status")).call().is_err() {
        assert!(began.elapsed() < Duration::from_secs(20), "chromedriver did not start");
        std::thread::sleep(Duration::from_millis(100));
    }
    (Killed(child), url)
}

async fn browser(driver: &str) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".into(),
        json!({"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000"]}),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    ClientBuilder::new(connector).capabilities(caps).connect(driver).await.unwrap()
}

async fn screenshot(client: &Client, name: &str) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Waits until `css` matches at least `n` elements.
async fn wait_for(client: &Client, css: &str, n: usize) -> Vec<Element> {
    let began = Instant::now();
    loop {
        let found = client.find_all(Locator::Css(css)).await.unwrap();
        if found.len() >= n {
            return found;
        }
        assert!(began.elapsed() < Duration::from_secs(30), "{css}: {} of {n} elements", found.len());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Checkers per (`data-player`, `data-point`) on the board.
async fn checkers(client: &Client) -> std::collections::BTreeMap<(String, String), usize> {
    let mut counts = std::collections::BTreeMap::new();
    for c in client.find_all(Locator::Css("#board [data-player][data-point]")).await.unwrap() {
        let player = c.attr("data-player").await.unwrap().unwrap();
        let point = c.attr("data-point").await.unwrap().unwrap();
        *counts.entry((player, point)).or_insert(0) += 1;
    }
    counts
}

/// The board the API gives for `position`, as (`data-player`, `data-point`)
/// counts: player 0 on roll, points in his numbering.
fn expected_checkers(api: &str, position: &str) -> std::collections::BTreeMap<(String, String), usize> {
    let query = position.replace(':', "%3A").replace('=', "%3D").replace('/', "%2F");
    let body: Value = ureq::get(&format!("{api}/api/position?position={query}")).call().unwrap().body_mut().read_json().unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for (player, side) in [("0", "on_roll"), ("1", "opponent")] {
        let board: Vec<usize> = serde_json::from_value(body["board"][side].clone()).unwrap();
        for (i, &n) in board.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let point = match (i, player) {
                (0, _) => "off".to_string(),
                (25, _) => "bar".to_string(),
                (p, "0") => p.to_string(),
                // The opponent's point p is the on-roll player's 25 - p.
                (p, _) => (25 - p).to_string(),
            };
            counts.insert((player.to_string(), point), n);
        }
    }
    counts
}
