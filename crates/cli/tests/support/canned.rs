//! An endpoint that answers every request with the same canned HTTP reply, as a broken AI server does
//! (HTTP 500 with a traceback, 502 with an error full of escape codes): it reads each request whole, so
//! keep-alive clients see one reply per request.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::thread;

/// Serves `reply` (a whole HTTP response) to every request on a free port of 127.0.0.1; returns the port.
pub fn canned(reply: &'static str) -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    let port = listener.local_addr().expect("an address").port();
    thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            thread::spawn(move || {
                let mut reader = BufReader::new(stream);
                while read_request(&mut reader) {
                    if reader.get_mut().write_all(reply.as_bytes()).is_err() {
                        return;
                    }
                }
            });
        }
    });
    port
}

/// Reads one request (headers and a Content-Length body); false once the client is gone.
fn read_request(reader: &mut BufReader<std::net::TcpStream>) -> bool {
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return false;
        }
        if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if line == "\r\n" {
            break;
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).is_ok()
}
