//! `gammon serve`'s page in a real headless Chromium, driven through
//! WebDriver (chromedriver): what a player sees and clicks. Screenshots of
//! each screen go to `target/tmp/screenshots/` (test artefacts).
#![allow(clippy::unwrap_used)]

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{json, Value};
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

/// chromedriver on a free port, once it answers; `None` (the test skipped,
/// or failed under GAMMON_REQUIRE_ALL) where Chromium is not installed.
fn chromedriver() -> Option<(Killed, String)> {
    let missing = gammon_testkit::programs_missing(&["chromedriver", "chromium"]);
    if !gammon_testkit::needs("the browser test (apt-get install chromium chromium-driver)", missing) {
        return None;
    }
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
    Some((Killed(child), url))
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
    // A screen never scrolls sideways: nothing is wider than the window.
    let widths = client
        .execute("return [document.documentElement.scrollWidth, document.documentElement.clientWidth];", vec![])
        .await
        .unwrap();
    assert!(widths[0].as_u64() <= widths[1].as_u64(), "{name}: the page is wider than the window: {widths}");
    let png = client.screenshot().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"), "a PNG");
    std::fs::write(dir.join(format!("{name}.png")), png).unwrap();
}

/// Clicks the element of `css`, finding it again if the page redrew it
/// between the find and the click.
async fn click(client: &Client, css: &str) {
    for _ in 0..20 {
        match client.find(Locator::Css(css)).await.unwrap().click().await {
            Ok(()) => return,
            Err(e) if e.is_stale_element_reference() => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(e) => panic!("{css}: {e}"),
        }
    }
    panic!("{css} kept being redrawn");
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

/// Checkers per (`data-player`, `data-point`) on the board, read in one
/// script call (the board may be redrawn between two WebDriver calls).
async fn checkers(client: &Client) -> std::collections::BTreeMap<(String, String), usize> {
    let script = "return Array.from(document.querySelectorAll('#board [data-player][data-point]'))\
        .map(e => [e.getAttribute('data-player'), e.getAttribute('data-point')]);";
    let found: Vec<(String, String)> = serde_json::from_value(client.execute(script, vec![]).await.unwrap()).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for key in found {
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

/// The board the API gives for `position`, as (`data-player`, `data-point`)
/// counts: player 0 on roll, points in his numbering.
fn expected_checkers(api: &str, position: &str) -> std::collections::BTreeMap<(String, String), usize> {
    let query = position.replace(':', "%3A").replace('=', "%3D").replace('/', "%2F");
    let body: Value =
        ureq::get(&format!("{api}/api/position?position={query}")).call().unwrap().body_mut().read_json().unwrap();
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

fn api(url: &str, path: &str) -> Value {
    ureq::get(&format!("{url}{path}")).call().unwrap().body_mut().read_json().unwrap()
}

/// The counts of a move's `result` (seen by the next player) drawn from the
/// mover's side, as the page previews it: sides swapped, points mirrored.
fn mover_view(
    counts: &std::collections::BTreeMap<(String, String), usize>,
) -> std::collections::BTreeMap<(String, String), usize> {
    counts
        .iter()
        .map(|((player, point), &n)| {
            let other = if player == "0" { "1" } else { "0" };
            let point = point.parse::<usize>().map_or_else(|_| point.clone(), |p| (25 - p).to_string());
            ((other.to_string(), point), n)
        })
        .collect()
}

const MIDDLE_GAME: &str = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10";

#[test]
fn the_page_shows_a_position_its_moves_and_a_move_on_the_board() {
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        // A shared link opens the position with its ranked moves, no click.
        client.goto(&format!("{url}/?position=4HPwATDgc/ABMA&dice=31")).await.unwrap();
        let legal = api(&url, "/api/moves?position=4HPwATDgc/ABMA&dice=31");
        let rows = wait_for(&client, "#move-list [data-move]", legal["moves"].as_array().unwrap().len()).await;
        let analysis = api(&url, "/api/analyse?position=4HPwATDgc/ABMA&dice=31&ply=0");
        assert_eq!(rows[0].attr("data-move").await.unwrap().as_deref(), analysis["moves"][0]["move"].as_str());
        let equity: f64 = rows[0].attr("data-equity").await.unwrap().unwrap().parse().unwrap();
        assert!((equity - analysis["moves"][0]["equity"].as_f64().unwrap()).abs() < 1e-6);
        let drawn = checkers(&client).await;
        assert_eq!(drawn.values().sum::<usize>(), 30, "{drawn:?}");
        assert_eq!(drawn, expected_checkers(&url, "4HPwATDgc/ABMA"));
        screenshot(&client, "1-linked-start-31").await;

        // Paste an XGID and load it: the board shows its 15 + 15 checkers.
        let input = client.find(Locator::Css("#position-input")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys(MIDDLE_GAME).await.unwrap();
        client.find(Locator::Css("#dice-input")).await.unwrap().clear().await.unwrap();
        client.find(Locator::Css("#load-button")).await.unwrap().click().await.unwrap();
        let want = expected_checkers(&url, MIDDLE_GAME);
        let began = Instant::now();
        while checkers(&client).await != want {
            assert!(
                began.elapsed() < Duration::from_secs(20),
                "the pasted XGID is not drawn: {:?}",
                checkers(&client).await
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Without dice: the cube decision with its explanation.
        let cube = client.find(Locator::Css("#cube-panel")).await.unwrap();
        let began = Instant::now();
        while !cube.text().await.unwrap().to_lowercase().contains("double") {
            assert!(began.elapsed() < Duration::from_secs(30), "no cube decision: {}", cube.text().await.unwrap());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        screenshot(&client, "2-pasted-xgid-cube").await;

        // Pick 64; the list ranks its moves; clicking the best shows it.
        client.find(Locator::Css("[data-dice=\"64\"]")).await.unwrap().click().await.unwrap();
        let query = MIDDLE_GAME.replace(':', "%3A").replace('=', "%3D");
        let legal = api(&url, &format!("/api/moves?position={query}&dice=64"));
        let rows = wait_for(&client, "#move-list [data-move]", legal["moves"].as_array().unwrap().len()).await;
        let best = rows[0].attr("data-move").await.unwrap().unwrap();
        let after = legal["moves"].as_array().unwrap().iter().find(|m| m["notation"] == best.as_str()).unwrap();
        rows[0].click().await.unwrap();
        let want = mover_view(&expected_checkers(&url, after["result"].as_str().unwrap()));
        let began = Instant::now();
        while checkers(&client).await != want {
            assert!(began.elapsed() < Duration::from_secs(10), "the board does not show {best}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        screenshot(&client, "3-move-shown").await;
        assert!(client.current_url().await.unwrap().as_str().contains("dice=64"), "the address bar holds the dice");

        // A bad ID is refused with the server's reason, naming the field.
        let input = client.find(Locator::Css("#position-input")).await.unwrap();
        input.clear().await.unwrap();
        input.send_keys("garbage").await.unwrap();
        client.find(Locator::Css("#load-button")).await.unwrap().click().await.unwrap();
        let error = client.find(Locator::Css("#error")).await.unwrap();
        let began = Instant::now();
        while !error.text().await.unwrap().contains("position") {
            assert!(began.elapsed() < Duration::from_secs(10), "no error shown");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        screenshot(&client, "4-error").await;
        client.close().await.unwrap();
    });
}

/// A match file of the shared folder (`matches/NAME`), by the canonical
/// path the browser takes for an upload.
fn shared_match(name: &str) -> std::path::PathBuf {
    let file = gammon_testkit::shared_dir().join("matches").join(name);
    file.canonicalize().unwrap_or_else(|e| {
        panic!(
            "{}: {e} (the match file the test uploads is missing from the shared data folder, gammon_testkit::shared_dir)",
            file.display()
        )
    })
}

/// Opens the page's review tab at 0 plies and chooses `file`.
async fn upload_for_review(client: &Client, url: &str, file: &std::path::Path) {
    client.goto(&format!("{url}/")).await.unwrap();
    client.find(Locator::Css("#tab-review")).await.unwrap().click().await.unwrap();
    client.find(Locator::Css("#review-ply option[value=\"0\"]")).await.unwrap().click().await.unwrap();
    client.find(Locator::Css("#review-file")).await.unwrap().send_keys(file.to_str().unwrap()).await.unwrap();
}

#[test]
fn a_match_file_uploaded_to_the_page_is_reviewed_and_stepped_through() {
    let file = shared_match("real/fibs_NIUSHA-nori_1p.mat");
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        upload_for_review(&client, &url, &file).await;
        let button = client.find(Locator::Css("#review-button")).await.unwrap();
        let began = Instant::now();
        while !button.is_enabled().await.unwrap() {
            assert!(began.elapsed() < Duration::from_secs(10), "the file was not read");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        button.click().await.unwrap();
        // The review the API gives for the same file and depth.
        let text = std::fs::read_to_string(&file).unwrap();
        let mut response = ureq::post(&format!("{url}/api/reviews"))
            .send_json(json!({"match": text, "ply": 0, "cube_ply": 0}))
            .unwrap();
        let job: Value = response.body_mut().read_json().unwrap();
        let review = loop {
            let j = api(&url, &format!("/api/reviews/{}", job["id"]));
            if j["state"] == "done" {
                break j["result"].clone();
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let with_position = review["games"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|g| g["records"].as_array().unwrap())
            .filter(|r| r["position_id"].is_string())
            .count();
        let rows = wait_for(&client, "#review-panel li[data-index]", with_position).await;
        assert_eq!(rows.len(), with_position);
        let panel = client.find(Locator::Css("#review-panel")).await.unwrap().text().await.unwrap();
        for player in review["players"].as_array().unwrap() {
            assert!(panel.contains(player.as_str().unwrap()), "{player} missing from the summary");
        }
        // Stepping through the match changes the board.
        let before = checkers(&client).await;
        assert_eq!(before.values().sum::<usize>(), 30);
        let mut moved = false;
        for _ in 0..4 {
            click(&client, "#review-next").await;
            tokio::time::sleep(Duration::from_millis(150)).await;
            moved |= checkers(&client).await != before;
        }
        assert!(moved, "the board follows the match");
        screenshot(&client, "5-review").await;
        client.close().await.unwrap();
    });
}

#[test]
fn an_xg_file_uploaded_to_the_page_is_reviewed_beside_xg_s_own_analysis() {
    let file = shared_match("xg/B4_SrGcsKAQmoTyHlgJCbM.xg");
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        // Choosing the file starts its review.
        upload_for_review(&client, &url, &file).await;
        wait_for(&client, "#review-panel li[data-index]", 1).await;
        let panel = client.find(Locator::Css("#review-panel")).await.unwrap().text().await.unwrap();
        assert!(panel.contains("PR by XG") && panel.contains("Fox"), "{panel}");
        // A decision XG analysed shows XG's verdict beside gammon's.
        let detail = client.find(Locator::Css("#review-detail")).await.unwrap();
        let mut seen = detail.text().await.unwrap();
        for _ in 0..20 {
            if seen.contains("XG: move lost") || seen.contains("XG: cube lost") {
                break;
            }
            click(&client, "#review-next").await;
            tokio::time::sleep(Duration::from_millis(100)).await;
            seen = detail.text().await.unwrap();
        }
        assert!(seen.contains("XG: move lost") || seen.contains("XG: cube lost"), "{seen}");
        screenshot(&client, "5-review-xg").await;
        client.close().await.unwrap();
    });
}

#[test]
fn a_rollout_on_the_page_shows_its_progress_and_a_cancel_keeps_its_games() {
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        client.goto(&format!("{url}/?position=4HPwATDgc/ABMA")).await.unwrap();
        wait_for(&client, "#board [data-player]", 30).await;
        let games = client.find(Locator::Css("#rollout-games")).await.unwrap();
        games.clear().await.unwrap();
        games.send_keys("2000").await.unwrap();
        click(&client, "#rollout-button").await;
        // The status line shows games done and the running estimate.
        let status = client.find(Locator::Css("#rollout-status")).await.unwrap();
        let began = Instant::now();
        let text = loop {
            let text = status.text().await.unwrap();
            if text.contains("of 2000 games") && text.contains('±') {
                break text;
            }
            assert!(began.elapsed() < Duration::from_secs(60), "no progress shown: {text}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        screenshot(&client, "6-rollout-running").await;
        // Cancelled, it keeps the games it finished.
        if text.starts_with("running") {
            click(&client, "#rollout-cancel").await;
        }
        let began = Instant::now();
        loop {
            let text = status.text().await.unwrap();
            if text.starts_with("cancelled") || text.starts_with("done") {
                break;
            }
            assert!(began.elapsed() < Duration::from_secs(60), "the rollout did not end: {text}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let result = client.find(Locator::Css("#rollout-result")).await.unwrap().text().await.unwrap();
        assert!(result.contains("games"), "{result}");
        // The result table fits its column; the screenshot shows it.
        let fits = client
            .execute(
                "const box = document.getElementById('rollout-result'); box.scrollIntoView({block: 'end'}); \
                 return box.scrollWidth <= box.clientWidth;",
                vec![],
            )
            .await
            .unwrap();
        assert_eq!(fits, json!(true), "the rollout table is wider than its column");
        screenshot(&client, "7-rollout-ended").await;
        client.close().await.unwrap();
    });
}

#[test]
fn the_cube_panel_shows_a_score_matrix_and_a_cube_decision_is_rolled_out() {
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        let xgid = "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:3:2:0:7:10";
        client.goto(&format!("{url}/?position={xgid}")).await.unwrap();
        wait_for(&client, "#board [data-player]", 30).await;
        // A 3-point matrix: 2-away and 3-away for each side, four cells, as
        // the API gives them.
        let length = client.find(Locator::Css("#matrix-length")).await.unwrap();
        length.select_by_value("3").await.unwrap();
        click(&client, "#matrix-button").await;
        let cells = wait_for(&client, "table.cube-matrix td[data-action]", 4).await;
        let mut shown = Vec::new();
        for cell in &cells {
            shown.push(cell.attr("data-action").await.unwrap().unwrap());
        }
        // The caption names the depth; the API at that depth gives the
        // same actions, row by row.
        let caption = client.find(Locator::Css("table.cube-matrix caption")).await.unwrap().text().await.unwrap();
        let ply = caption.split(" at ").nth(1).and_then(|t| t.split('-').next()).unwrap().to_string();
        let answer = api(&url, &format!("/api/cube?position={}&ply={ply}&matrix=3", xgid.replace('=', "%3D")));
        let want: Vec<String> = answer["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["action_short"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(shown, want, "{caption}");
        screenshot(&client, "8-score-matrix").await;

        // The cube decision, rolled out: the three equities and the action.
        let games = client.find(Locator::Css("#rollout-games")).await.unwrap();
        games.clear().await.unwrap();
        games.send_keys("72").await.unwrap();
        client.find(Locator::Css("#rollout-cube")).await.unwrap().select_by_value("decision").await.unwrap();
        click(&client, "#rollout-button").await;
        let began = Instant::now();
        let result = loop {
            let text = client.find(Locator::Css("#rollout-result")).await.unwrap().text().await.unwrap();
            if text.contains("Proper action") {
                break text;
            }
            assert!(began.elapsed() < Duration::from_secs(90), "no cube decision shown: {text}");
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        for row in ["No double", "Double, take", "Double, pass", "MWC %"] {
            assert!(result.contains(row), "{row}: {result}");
        }
        assert!(result.contains("at 3-2 in a 7-point match"), "{result}");
        screenshot(&client, "9-cube-decision-rollout").await;
        client.close().await.unwrap();
    });
}

/// The `data-turn` of the play status once the page is not busy.
async fn play_turn(client: &Client) -> String {
    let began = Instant::now();
    loop {
        let status = client.find(Locator::Css("#play-status")).await.unwrap();
        let turn = status.attr("data-turn").await.unwrap().unwrap_or_default();
        if !matches!(turn.as_str(), "" | "busy" | "none") {
            return turn;
        }
        assert!(began.elapsed() < Duration::from_secs(30), "the page stays busy");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[test]
fn a_game_is_played_on_the_page_by_clicking_checkers_and_a_double_answered() {
    let server = super::serve::Server::start();
    let url = server.url.clone();
    let Some((_driver, driver_url)) = chromedriver() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    runtime.block_on(async {
        let client = browser(&driver_url).await;
        // Seed 7 with the first legal move each turn: the engine, well
        // ahead, doubles before the human's third move (found by replaying
        // seeds through POST /api/play, which the page's seed replays).
        client.goto(&format!("{url}/?seed=7")).await.unwrap();
        click(&client, "#tab-play").await;
        let length = client.find(Locator::Css("#play-length")).await.unwrap();
        length.clear().await.unwrap();
        length.send_keys("0").await.unwrap();
        click(&client, "#play-new").await;
        let (mut clicked_moves, mut doubles_answered, mut refused) = (0, 0, false);
        let (mut entered, mut borne_off) = (false, false);
        for _ in 0..200 {
            match play_turn(&client).await.as_str() {
                "roll_or_double" | "roll" => click(&client, "#play-roll").await,
                "answer_double" => {
                    let status = client.find(Locator::Css("#play-status")).await.unwrap().text().await.unwrap();
                    assert!(status.contains("gammon doubles to"), "{status}");
                    if doubles_answered == 0 {
                        screenshot(&client, "9-engine-doubles").await;
                    }
                    let log_before = client.find_all(Locator::Css("#play-log li")).await.unwrap().len();
                    click(&client, "#play-take").await;
                    wait_for(&client, "#play-log li", log_before + 1).await;
                    doubles_answered += 1;
                }
                "move" => {
                    if !refused {
                        // A typed move the dice do not allow shows the server's reason.
                        let input = client.find(Locator::Css("#play-move-input")).await.unwrap();
                        input.send_keys("24/1").await.unwrap();
                        click(&client, "#play-move-submit").await;
                        let error = client.find(Locator::Css("#error")).await.unwrap();
                        let began = Instant::now();
                        while error.text().await.unwrap().is_empty() {
                            assert!(began.elapsed() < Duration::from_secs(10), "an illegal move was not refused");
                            tokio::time::sleep(Duration::from_millis(50)).await;
                        }
                        refused = true;
                        input.clear().await.unwrap();
                    }
                    // Once the page has the legal moves it marks where a
                    // checker may start; then a move is clicked step by step
                    // along the server's step graph, taking the last step
                    // offered each time (often not the order of the move's
                    // own `checker_steps`: the page must accept any order).
                    wait_for(&client, "#board .play-target.source", 1).await;
                    let xgid = client.find(Locator::Css("#position-ids")).await.unwrap().text().await.unwrap();
                    let moves =
                        api(&url, &format!("/api/moves?position={}", xgid.replace(':', "%3A").replace('=', "%3D")));
                    let graph = moves["step_graph"].as_array().unwrap();
                    let name = |n: &Value| match n.as_u64().unwrap() {
                        25 => "bar".to_string(),
                        0 => "off".to_string(),
                        p => p.to_string(),
                    };
                    let log_before = client.find_all(Locator::Css("#play-log li")).await.unwrap().len();
                    let mut node = 0;
                    while let Some(step) = graph[node]["steps"].as_array().unwrap().last() {
                        let (from, to) = (name(&step["from"]), name(&step["to"]));
                        entered |= from == "bar";
                        borne_off |= to == "off";
                        click(&client, &format!("#board [data-point=\"{from}\"]")).await;
                        click(&client, &format!("#board [data-point=\"{to}\"]")).await;
                        node = step["next"].as_u64().unwrap() as usize;
                    }
                    let played = &moves["moves"][graph[node]["move"].as_u64().unwrap() as usize]["notation"];
                    if clicked_moves == 0 {
                        screenshot(&client, "8-played-by-clicks").await;
                    }
                    wait_for(&client, "#play-log li", log_before + 1).await;
                    let log = client.find(Locator::Css("#play-log")).await.unwrap().text().await.unwrap();
                    assert!(log.contains(&format!("You played {}.", played.as_str().unwrap())), "{played}: {log}");
                    clicked_moves += 1;
                }
                "answer_resignation" => click(&client, "#play-accept").await,
                "match_over" => break,
                other => panic!("unknown turn {other}"),
            }
            if clicked_moves >= 12 && doubles_answered >= 1 {
                break;
            }
        }
        assert!(clicked_moves >= 12, "{clicked_moves} moves played by clicks");
        // Seed 7 puts a checker of the human's on the bar: it was entered by clicks.
        assert!(entered, "no checker entered from the bar by clicks: pick another seed");
        assert!(refused);
        assert!(doubles_answered >= 1, "the engine never doubled in {clicked_moves} moves: pick another seed");
        let log = client.find(Locator::Css("#play-log")).await.unwrap().text().await.unwrap();
        assert!(log.contains("gammon doubled to 2.") && log.contains("You took."), "{log}");
        assert!(log.contains("gammon") || log.to_lowercase().contains("engine"), "{log}");
        screenshot(&client, "10-game-in-progress").await;
        // Resign a backgammon with the new button: worth more to gammon
        // than any game, so it accepts, and the log says so.
        loop {
            match play_turn(&client).await.as_str() {
                "answer_double" => click(&client, "#play-take").await,
                "roll" | "roll_or_double" | "move" => break,
                other => panic!("no resignation offered at turn {other}"),
            }
        }
        let results = client.find(Locator::Css("#play-resign-result")).await.unwrap();
        results.select_by_value("backgammon").await.unwrap();
        let log_before = client.find_all(Locator::Css("#play-log li")).await.unwrap().len();
        click(&client, "#play-resign").await;
        wait_for(&client, "#play-log li", log_before + 3).await;
        let log = client.find(Locator::Css("#play-log")).await.unwrap().text().await.unwrap();
        assert!(
            log.contains("You offered to resign a backgammon.") && log.contains("gammon accepted the resignation."),
            "{log}"
        );
        screenshot(&client, "11-resignation-accepted").await;
        eprintln!(
            "played {clicked_moves} moves by clicks (entered from the bar: {entered}, bore off: {borne_off}), \
             answered {doubles_answered} doubles, resigned"
        );
        client.close().await.unwrap();
    });
}
