//! The server against hostile clients: clients that never read, never say hello, send headers a byte a
//! second, hold connections open by the thousand, come from other sites' pages, flood the API or pick
//! look-alike names; and what a client learns when the server fails. Real servers on 127.0.0.1:0, real
//! WebSocket clients and raw TCP.

mod support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::{self, Message};

fn config() -> gridarena_server::Config {
    gridarena_server::Config {
        db: temp_db().display().to_string(),
        dist: PathBuf::from("/nonexistent-dist"),
        ..gridarena_server::Config::default()
    }
}

/// A server with a fresh database and the defaults, but for what `change` sets.
async fn start_changed(change: impl FnOnce(&mut gridarena_server::Config)) -> SocketAddr {
    let mut config = config();
    change(&mut config);
    start_config(config).await
}

/// Reads until the server closes the connection (or resets it); how long that took, or None if it
/// stayed open for `limit`.
async fn closed_within(stream: &mut TcpStream, limit: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((started + limit).into(), stream.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0)) | Ok(Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// A TCP connection to `addr` from the loopback address `from` (127.0.0.2 is a second client address
/// on the same machine).
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    socket.connect(addr).await.unwrap()
}

/// The server refused `stream` over a cap: a 503 with the reason, at once, and closed.
async fn assert_refused(mut stream: TcpStream) {
    let mut text = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut text))
        .await
        .expect("refused at once")
        .ok();
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("too many connections"), "{text}");
}

/// Once the server has seen the connections that were over a cap go, a request is served again.
async fn served_again(addr: SocketAddr) {
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _, _) = http(addr, "GET", "/api/leaderboard", "").await;
    assert_eq!(status, 200);
}

/// A GET on an open connection, kept alive; the status and the head.
async fn get_on(stream: &mut TcpStream, addr: SocketAddr, path: &str) -> (u16, String) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    stream.write_all(req.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    let mut chunk = [0u8; 4096];
    while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
        let n = tokio::time::timeout(WAIT, stream.read(&mut chunk))
            .await
            .expect("an answer within 5 s")
            .unwrap();
        assert!(n > 0, "closed before answering");
        buf.extend_from_slice(&chunk[..n]);
    }
    let head = String::from_utf8_lossy(&buf).to_lowercase();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    (status, head)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unsolicited_pongs_do_not_keep_a_connection_that_never_reads() {
    let heartbeat = Duration::from_millis(100);
    let addr = start_changed(|c| c.heartbeat = heartbeat).await;
    let token = register(addr, "Pongy").await;
    let mut c = Client::hello(addr, &token).await;
    c.send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    // From here on the client never reads (so its library never answers a ping), and sends pongs
    // that answer nothing, as fast as it can.
    let started = Instant::now();
    let mut sent = 0u64;
    let closed = loop {
        if started.elapsed() > Duration::from_secs(3) {
            break None;
        }
        let pong = Message::Pong(sent.to_be_bytes().to_vec().into());
        if c.ws.send(pong).await.is_err() {
            break Some(started.elapsed());
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    let closed = closed.expect("the server closed the connection");
    assert!(closed < heartbeat * 8, "closed after {closed:?}");
    // It left the queue too: the next seeker waits rather than being paired with it.
    let mut other = Client::hello(addr, &register(addr, "Other").await).await;
    other
        .send(json!({"type": "seek", "size": 9, "color": "any"}))
        .await;
    other.expect("waiting").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_never_says_hello_is_told_and_closed() {
    let addr = start_changed(|c| c.hello_timeout = Duration::from_millis(300)).await;
    let started = Instant::now();
    let mut c = Client::connect(addr).await;
    c.expect_error("say hello").await;
    let close = loop {
        match tokio::time::timeout(WAIT, c.ws.next()).await.unwrap() {
            Some(Ok(Message::Close(frame))) => break frame,
            Some(Ok(Message::Ping(_))) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    let frame = close.expect("a close frame with a reason");
    assert_eq!(u16::from(frame.code), 1008);
    assert!(frame.reason.contains("hello"), "{}", frame.reason);
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    // One that says hello in time stays.
    let token = register(addr, "Prompt").await;
    let mut c = Client::hello(addr, &token).await;
    c.quiet(600).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_header_sender_and_idle_connections_are_cut_off() {
    let addr = start_changed(|c| c.header_timeout = Duration::from_secs(2)).await;
    // One header byte a second: slowloris.
    let mut slow = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: 1\r\n\r\n");
    let started = Instant::now();
    let mut cut_after = None;
    for b in request.bytes() {
        if slow.write_all(&[b]).await.is_err() {
            cut_after = Some(started.elapsed());
            break;
        }
        let mut buf = [0u8; 256];
        match tokio::time::timeout(Duration::from_secs(1), slow.read(&mut buf)).await {
            Err(_) => continue,
            Ok(Ok(n)) if n > 0 => panic!("answered a request sent a byte a second"),
            Ok(_) => {
                cut_after = Some(started.elapsed());
                break;
            }
        }
    }
    let cut_after = cut_after.expect("the slow sender was disconnected");
    assert!(
        cut_after >= Duration::from_millis(1500) && cut_after < Duration::from_secs(4),
        "{cut_after:?}"
    );
    // A connection that sends nothing at all.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    let waited = closed_within(&mut idle, Duration::from_secs(5))
        .await
        .expect("an idle connection is closed");
    assert!(waited >= Duration::from_millis(1500), "{waited:?}");
    // A kept-alive connection after its answer.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    assert_eq!(get_on(&mut kept, addr, "/api/leaderboard").await.0, 200);
    closed_within(&mut kept, Duration::from_secs(5))
        .await
        .expect("an idle kept-alive connection is closed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_a_download_loses_its_connection() {
    // A file far larger than the socket buffers on both sides, so the server's writes stall.
    let dist = temp_db().with_file_name("dist");
    std::fs::create_dir_all(&dist).unwrap();
    std::fs::write(dist.join("big.bin"), vec![b'x'; 48 << 20]).unwrap();
    let addr = start_changed(|c| {
        c.dist = dist.clone();
        c.write_timeout = Duration::from_millis(300);
        c.max_connections_per_address = 1;
    })
    .await;
    let mut reader = connect_from("127.0.0.3", addr).await;
    let (status, _) = get_on(&mut reader, addr, "/big.bin").await;
    assert_eq!(status, 200);
    // It reads no more. While its connection holds the address's one slot, another is refused...
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_refused(connect_from("127.0.0.3", addr).await).await;
    // ...until the stalled write ends it.
    let started = Instant::now();
    loop {
        let mut again = connect_from("127.0.0.3", addr).await;
        let mut head = [0u8; 12];
        again
            .write_all(format!("GET /api/leaderboard HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
            .await
            .unwrap();
        let n = tokio::time::timeout(WAIT, again.read(&mut head))
            .await
            .unwrap()
            .unwrap_or(0);
        if head[..n].starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "the stalled download still holds the slot"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(reader);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thousand_idle_connections_from_one_address_do_not_shut_out_another() {
    let addr = start_changed(|c| c.max_connections_per_address = 100).await;
    let mut hoard = Vec::new();
    for _ in 0..1000 {
        hoard.push(TcpStream::connect(addr).await.unwrap());
    }
    // Another address is served at once.
    let started = Instant::now();
    let mut other = connect_from("127.0.0.2", addr).await;
    let (status, head) = get_on(&mut other, addr, "/api/leaderboard").await;
    assert_eq!(status, 200, "{head}");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    // The hoarding address's connections beyond its 100 were refused with a reason and closed.
    assert_refused(hoard.pop().unwrap()).await;
    // Once they go, the address is served again.
    hoard.clear();
    served_again(addr).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_total_cap_refuses_and_websockets_count_until_they_close() {
    let addr = start_changed(|c| c.max_connections = 3).await;
    let token = register(addr, "Capped").await;
    // The registration's connection is closed; let the server see it go.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut sockets = Vec::new();
    for _ in 0..3 {
        sockets.push(Client::hello(addr, &token).await);
    }
    assert_refused(connect_from("127.0.0.2", addr).await).await;
    sockets.pop().unwrap().ws.close(None).await.unwrap();
    served_again(addr).await;
}

/// Opens the WebSocket with these extra headers; the status of the answer and its body.
async fn upgrade_with(addr: SocketAddr, headers: &[(&'static str, &str)]) -> (u16, String) {
    let mut req = format!("ws://{addr}/api/ws").into_client_request().unwrap();
    for (name, value) in headers {
        req.headers_mut().insert(*name, value.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(req).await {
        Ok((_, response)) => (response.status().as_u16(), String::new()),
        Err(tungstenite::Error::Http(response)) => (
            response.status().as_u16(),
            String::from_utf8_lossy(response.body().as_deref().unwrap_or_default()).into_owned(),
        ),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_pages_of_this_server_or_allowed_origins_open_the_websocket() {
    let addr = start_changed(|c| c.allowed_origins = vec!["https://school.example".into()]).await;
    let own = format!("http://{addr}");
    assert_eq!(
        upgrade_with(addr, &[]).await.0,
        101,
        "no Origin: not a page"
    );
    assert_eq!(upgrade_with(addr, &[("origin", &own)]).await.0, 101);
    let allowed = upgrade_with(addr, &[("origin", "https://school.example")]).await;
    assert_eq!(allowed.0, 101);
    for origin in [
        "http://evil.example",
        "http://127.0.0.1:1",
        "null",
        "https://school.example.evil",
    ] {
        let (status, body) = upgrade_with(addr, &[("origin", origin)]).await;
        assert_eq!(status, 403, "{origin}");
        let v: Value = serde_json::from_str(&body).unwrap();
        assert!(
            v["error"].as_str().unwrap().contains("may not open"),
            "{body}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_has_the_security_headers_and_the_page_its_script_hash() {
    let dist = temp_db().with_file_name("dist");
    std::fs::create_dir_all(&dist).unwrap();
    let script = "import init from './app.js';init();";
    std::fs::write(
        dist.join("index.html"),
        format!("<html><head><script type=\"module\">{script}</script></head></html>"),
    )
    .unwrap();
    std::fs::write(dist.join("app.js"), "export default function init() {}").unwrap();
    let addr = start_changed(|c| c.dist = dist).await;
    use base64::Engine;
    use sha2::Digest;
    let hash = base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(script));
    for (path, status) in [
        ("/", 200),
        ("/index.html", 200),
        ("/app.js", 200),
        ("/missing.js", 404),
        ("/api/leaderboard", 200),
        ("/api/players/nobody", 404),
        ("/api/nothing", 404),
    ] {
        let (got, head, _) = http(addr, "GET", path, "").await;
        assert_eq!(got, status, "{path}");
        for header in [
            "x-content-type-options: nosniff",
            "referrer-policy: no-referrer",
            "x-frame-options: deny",
            "content-security-policy: default-src 'self'",
            "frame-ancestors 'none'",
            "'wasm-unsafe-eval'",
            "worker-src 'self' blob:",
            "connect-src 'self' http: https:",
            "cache-control: no-cache",
            "cross-origin-opener-policy: same-origin",
            "cross-origin-embedder-policy: credentialless",
        ] {
            assert!(head.contains(header), "{path} lacks {header}: {head}");
        }
        let page = path == "/" || path == "/index.html";
        let hashed = head.contains(&format!("'sha256-{}'", hash.to_lowercase()));
        assert_eq!(hashed, page, "{path}: {head}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_failures_reach_clients_as_a_logged_number_only() {
    let config = config();
    let db = config.db.clone();
    let addr = start_config(config).await;
    register(addr, "Ada").await;
    // The tables vanish under the running server.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch("DROP TABLE records; DROP TABLE players;")
        .unwrap();
    for (method, path, body) in [
        ("GET", "/api/players/ada", ""),
        ("GET", "/api/leaderboard", ""),
        ("POST", "/api/players", r#"{"name":"Bob"}"#),
    ] {
        let (status, _, body) = http(addr, method, path, body).await;
        assert_eq!(status, 500, "{path}: {body}");
        let v: Value = serde_json::from_str(&body).unwrap();
        let message = v["error"].as_str().unwrap();
        let number = message
            .strip_prefix("internal error (logged as E")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("{message}"));
        assert!(number.parse::<u64>().is_ok(), "{message}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_api_is_rate_limited_per_address() {
    let addr = start_changed(|c| {
        c.api_rate = 2.0;
        c.api_burst = 5.0;
    })
    .await;
    for _ in 0..5 {
        assert_eq!(http(addr, "GET", "/api/leaderboard", "").await.0, 200);
    }
    let (status, head, body) = http(addr, "GET", "/api/players/ada", "").await;
    assert_eq!(status, 429, "{body}");
    assert!(head.contains("retry-after: 1"), "{head}");
    assert!(head.contains("content-type: application/json"), "{head}");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert!(
        v["error"].as_str().unwrap().contains("too many requests"),
        "{body}"
    );
    // The app's files and other addresses are not limited.
    assert_eq!(http(addr, "GET", "/", "").await.0, 200);
    let mut other = connect_from("127.0.0.2", addr).await;
    assert_eq!(get_on(&mut other, addr, "/api/leaderboard").await.0, 200);
    // A token comes back each half second.
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(http(addr, "GET", "/api/leaderboard", "").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_are_one_name_and_mixed_scripts_are_refused() {
    let addr = start_config(config()).await;
    register(addr, "Ada").await;
    register(addr, "TOP").await;
    for (name, status, says) in [
        ("\u{410}da", 400, "mixes Cyrillic and Latin"),
        ("B\u{39f}b", 400, "mixes Latin and Greek"),
        ("\u{ff21}\u{ff24}\u{ff21}", 409, "is taken"),
        ("\u{422}\u{41e}\u{420}", 409, "is taken"),
        ("ADA", 409, "is taken"),
    ] {
        let (got, _, body) = http(
            addr,
            "POST",
            "/api/players",
            &json!({ "name": name }).to_string(),
        )
        .await;
        assert_eq!(got, status, "{name}: {body}");
        assert!(body.contains(says), "{name}: {body}");
    }
    // A look-alike finds the record of the name it looks like.
    assert_eq!(record(addr, "%EF%BC%A1da").await["name"], "Ada"); // Ａda
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_body_sent_a_byte_at_a_time_is_cut_off_on_every_route() {
    let addr = start_changed(|c| c.request_timeout = Duration::from_secs(1)).await;
    // A 4 KiB body, one byte every 50 ms, would take over 3 minutes: each route ends it (or never
    // reads it) well before the 100 bytes sent here.
    for (method, path) in [
        ("POST", "/api/players"),
        ("GET", "/api/leaderboard"),
        ("POST", "/"),
        ("POST", "/index.html"),
        ("PUT", "/app.js"),
        ("POST", "/api/nowhere"),
    ] {
        let mut slow = TcpStream::connect(addr).await.unwrap();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
             Content-Length: 4096\r\n\r\n{{\"name\": \""
        );
        slow.write_all(head.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let mut closed = false;
        for _ in 0..100 {
            let mut buf = [0u8; 4096];
            match tokio::time::timeout(Duration::from_millis(50), slow.read(&mut buf)).await {
                Err(_) => {}
                Ok(Ok(0)) | Ok(Err(_)) => {
                    closed = true;
                    break;
                }
                Ok(Ok(n)) => answer.extend_from_slice(&buf[..n]),
            }
            if slow.write_all(b"a").await.is_err() {
                closed = true;
                break;
            }
        }
        let answer = String::from_utf8_lossy(&answer);
        assert!(closed, "{method} {path}: still open: {answer:?}");
        if path == "/api/players" {
            assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
            assert!(answer.contains("came too slowly"), "{answer}");
            assert!(
                answer
                    .to_lowercase()
                    .contains("x-content-type-options: nosniff"),
                "{answer}"
            );
        }
    }
    served_again(addr).await;
}
