//! Clients that hold connections without finishing their requests: a
//! real server on a free loopback port, asked through raw sockets.
#![allow(clippy::unwrap_used)]

mod common;

use gammon_server::ConnectionLimits;
use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

/// A server with `limits` on a runtime of its own, stopped when dropped.
struct Server {
    address: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn start(limits: ConnectionLimits) -> Server {
        let mut state = common::state();
        state.connections = limits;
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
        let listener = runtime.block_on(tokio::net::TcpListener::bind("127.0.0.1:0")).unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            runtime
                .block_on(gammon_server::serve(listener, state, async {
                    let _ = stopped.await;
                }))
                .unwrap();
        });
        Server { address, stop: Some(stop), thread: Some(thread) }
    }

    /// A connection that gives up reading after `patience`.
    fn connect(&self, patience: Duration) -> TcpStream {
        let stream = TcpStream::connect(self.address).unwrap();
        stream.set_read_timeout(Some(patience)).unwrap();
        stream
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.stop.take().map(|s| s.send(()));
        let _ = self.thread.take().map(std::thread::JoinHandle::join);
    }
}

const SHORT: ConnectionLimits = ConnectionLimits {
    header_timeout: Duration::from_millis(800),
    body_timeout: Duration::from_millis(800),
    max_connections: 64,
};

/// What the server sends before it closes `stream`, and how long it took;
/// fails if it is still open after the stream's read timeout.
fn read_until_closed(stream: &mut TcpStream) -> (String, Duration) {
    let began = Instant::now();
    let mut text = Vec::new();
    let mut buffer = [0; 4096];
    loop {
        match stream.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => text.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => {
                panic!("still open after {:?} ({e}); read so far: {}", began.elapsed(), String::from_utf8_lossy(&text))
            }
        }
    }
    (String::from_utf8_lossy(&text).into_owned(), began.elapsed())
}

/// The status code of an HTTP answer's first line.
fn status(answer: &str) -> u16 {
    answer.split_whitespace().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// The JSON body of an HTTP answer.
fn json_body(answer: &str) -> serde_json::Value {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {answer}"))
}

#[test]
fn a_half_sent_request_head_is_closed_within_the_header_timeout() {
    let server = Server::start(SHORT);
    let mut stream = server.connect(Duration::from_secs(5));
    stream.write_all(b"GET /api/eval?position=start HTTP/1.1\r\nHost: gammon\r\n").unwrap();
    let (_, took) = read_until_closed(&mut stream);
    assert!(took < Duration::from_secs(3), "closed after {took:?}");
}

#[test]
fn an_idle_connection_is_closed_within_the_header_timeout() {
    let server = Server::start(SHORT);
    let mut stream = server.connect(Duration::from_secs(5));
    // One request answered, then nothing: the kept-alive connection closes.
    stream.write_all(b"GET /api/openapi.json HTTP/1.1\r\nHost: gammon\r\n\r\n").unwrap();
    let (answer, took) = read_until_closed(&mut stream);
    assert_eq!(status(&answer), 200, "{answer}");
    assert!(took < Duration::from_secs(3), "closed after {took:?}");
    // Never a byte sent.
    let mut silent = server.connect(Duration::from_secs(5));
    let (nothing, took) = read_until_closed(&mut silent);
    assert!(nothing.is_empty() && took < Duration::from_secs(3), "{took:?}: {nothing}");
}

#[test]
fn a_half_sent_body_gets_408_within_the_body_timeout() {
    let server = Server::start(SHORT);
    let mut stream = server.connect(Duration::from_secs(5));
    let head =
        "POST /api/play HTTP/1.1\r\nHost: gammon\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(br#"{"action": "#).unwrap();
    let (answer, took) = read_until_closed(&mut stream);
    assert_eq!(status(&answer), 408, "{answer}");
    assert!(json_body(&answer)["error"]["reason"].as_str().unwrap().contains("did not arrive"), "{answer}");
    assert!(took < Duration::from_secs(3), "closed after {took:?}");
}

#[test]
fn a_declared_huge_body_gets_413_at_once() {
    // Long timeouts: the answer must not wait for them.
    let server = Server::start(ConnectionLimits::default());
    let mut stream = server.connect(Duration::from_secs(3));
    let head = "POST /api/reviews HTTP/1.1\r\nHost: gammon\r\nContent-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n";
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(br#"{"match": "#).unwrap();
    let began = Instant::now();
    let mut buffer = [0; 4096];
    let n = stream.read(&mut buffer).unwrap();
    let answer = String::from_utf8_lossy(&buffer[..n]).into_owned();
    assert!(began.elapsed() < Duration::from_secs(1), "answered after {:?}", began.elapsed());
    assert_eq!(status(&answer), 413, "{answer}");
    let reason = json_body(&answer)["error"]["reason"].as_str().unwrap().to_string();
    assert!(reason.contains("99999999999"), "{reason}");
}

#[test]
fn connections_beyond_the_limit_wait_for_a_free_slot() {
    let limits = ConnectionLimits { header_timeout: Duration::from_secs(30), max_connections: 2, ..SHORT };
    let server = Server::start(limits);
    let idle = [server.connect(Duration::from_secs(1)), server.connect(Duration::from_secs(1))];
    // Let the server accept both before the third arrives.
    std::thread::sleep(Duration::from_millis(200));
    let mut third = server.connect(Duration::from_millis(700));
    third.write_all(b"GET /api/openapi.json HTTP/1.1\r\nHost: gammon\r\nConnection: close\r\n\r\n").unwrap();
    let mut buffer = [0; 64];
    let early = third.read(&mut buffer);
    assert!(
        matches!(&early, Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut)),
        "answered beyond the limit: {early:?}"
    );
    // One idle client leaves: the third is served.
    drop(idle);
    third.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let (answer, _) = read_until_closed(&mut third);
    assert_eq!(status(&answer), 200, "{answer}");
}
