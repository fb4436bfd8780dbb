//! The starter AIs (`ai/python`, `ai/php`) as real HTTP servers on free ports, for the tests that play
//! against them; and a plain HTTP/1.1 client that shows exactly what came back.

#![allow(dead_code)] // each test binary uses its own part of it

use serde_json::Value;
use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

pub const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Python,
    Php,
}

impl Kind {
    pub const ALL: [Kind; 2] = [Kind::Python, Kind::Php];

    pub fn program(self) -> &'static str {
        match self {
            Kind::Python => "python3",
            Kind::Php => "php",
        }
    }

    pub fn command(self, port: u16) -> Command {
        let mut c = Command::new(self.program());
        match self {
            Kind::Python => c.args([
                &format!("{ROOT}/ai/python/halma_ai.py"),
                "--quiet",
                "--port",
                &port.to_string(),
            ]),
            Kind::Php => c.args([
                "-q",
                "-S",
                &format!("127.0.0.1:{port}"),
                "-t",
                &format!("{ROOT}/ai/php"),
                &format!("{ROOT}/ai/php/index.php"),
            ]),
        };
        c
    }
}

/// A running starter; dropping it (also when a test fails) stops the server.
pub struct Starter {
    pub kind: Kind,
    pub port: u16,
    child: Child,
    /// The server's stderr, for failure messages.
    log: PathBuf,
}

impl Starter {
    /// The end of what the server wrote to stderr.
    pub fn log_tail(&self) -> String {
        let text = std::fs::read_to_string(&self.log).unwrap_or_default();
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(20)..].join("\n")
    }
}

impl Drop for Starter {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_file(&self.log);
    }
}

/// Starts `kind` on a free port and waits until it answers, or `None` (with a message) if its
/// interpreter is not installed.
pub fn start(kind: Kind) -> Option<Starter> {
    let program = kind.program();
    if let Err(e) = Command::new(program)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
    {
        eprintln!("SKIPPED: the {kind:?} starter needs `{program}`, which cannot be run here: {e}");
        return None;
    }
    // A port found free can be taken before the server binds it: then the server exits, and we retry.
    let mut last_log = String::new();
    for _ in 0..5 {
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let log = std::env::temp_dir().join(format!("gridarena-starter-{program}-{port}.log"));
        let stderr = File::create(&log).unwrap_or_else(|e| panic!("{}: {e}", log.display()));
        let child = kind
            .command(port)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start the {kind:?} starter: {e}"));
        let mut starter = Starter {
            kind,
            port,
            child,
            log,
        };
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            if starter.child.try_wait().ok().flatten().is_some() {
                break;
            }
            // The GET answer names the starter, so a stranger on the port is not mistaken for it.
            if let Ok(reply) = http(port, "GET", &[], b"") {
                if reply.status == 200 && reply.text().contains("GridArena Halma starter") {
                    return Some(starter);
                }
            }
            thread::sleep(Duration::from_millis(20));
        }
        last_log = starter.log_tail();
        drop(starter);
    }
    panic!("the {kind:?} starter did not come up on any of 5 ports; its stderr:\n{last_log}");
}

/// Every starter whose interpreter is installed.
pub fn start_all() -> Vec<Starter> {
    Kind::ALL.into_iter().filter_map(start).collect()
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("the answer is not JSON ({e}): {}", self.text()))
    }
}

/// One HTTP/1.1 request with `Content-Type: text/plain`, as the browser arena sends it.
pub fn http(port: u16, method: &str, headers: &[(&str, &str)], body: &[u8]) -> io::Result<Reply> {
    let mut stream = TcpStream::connect(("127.0.0.1", port))?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut head = format!(
        "{method} / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: text/plain\r\n\
         Content-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw)?;

    let bad = |why: &str| io::Error::new(io::ErrorKind::InvalidData, why.to_string());
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| bad("no end of headers"))?;
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    let length = headers
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case("content-length"))
        .and_then(|(_, v)| v.parse::<usize>().ok());
    if let Some(length) = length {
        body.truncate(length);
    }
    Ok(Reply {
        status,
        headers,
        body,
    })
}
