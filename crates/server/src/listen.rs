//! The accept loop: every TCP connection is counted against a total and a per-address cap, and served
//! by hyper with a timer, so that a request's head has a deadline and an idle connection ends.
//!
//! `axum::serve` runs hyper without a timer: no header deadline (a client sending a byte a second holds
//! a connection for ever), idle keep-alive connections for ever, and no cap. Here:
//!
//! - **Caps.** A connection over [`Limits::max_connections`] in total, or over
//!   [`Limits::max_per_address`] from one address, is answered `503` at once (without reading its
//!   request) and closed; nothing waits in a backlog of ours. An address is a [`ClientKey`]: an IPv4
//!   address, or the /64 network of an IPv6 one (the block one subscriber gets), so that rotating
//!   addresses inside one's own block gains nothing. A WebSocket counts until it closes: the slot
//!   travels with the socket through the HTTP upgrade.
//! - **Headroom.** The per-address cap alone lets a few addresses take everything (eight at 512 fill
//!   4,096). So the last quarter of the connections ([`Limits::reserve`]) is kept for addresses that
//!   hold fewer than [`FEW`]: once the server is three quarters full, an address with [`FEW`] or more
//!   is refused, and a newcomer still gets in until the total is reached.
//! - **Timeouts.** hyper's `header_read_timeout` ([`Limits::header_timeout`]) starts whenever it waits
//!   for a request's head: at the connection's opening and after each answer, so it ends slow senders
//!   and idle kept-alive connections alike (`408` is not sent: the connection just closes). A write
//!   that makes no progress for [`Limits::write_timeout`] (the client stopped reading an answer or a
//!   WebSocket) fails, and the connection ends.
//! - HTTP/1.1 only, through hyper's own `http1` builder: without TLS no browser speaks HTTP/2 to a
//!   server. (`hyper_util`'s `auto::Builder` first reads up to 24 bytes to tell HTTP/2 from HTTP/1,
//!   even when told `http1_only`, and that read has no deadline: a connection that sends nothing would
//!   be held for ever. The idle-connection test in `tests/hostile.rs` caught it.)
//!
//! Each request carries the client's address as axum's `ConnectInfo<SocketAddr>`, for the API's rate
//! limit ([`crate::http`]).

use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, Ipv6Addr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower_service::Service;

/// What a server refuses and when it gives up on a client.
#[derive(Clone, Debug)]
pub struct Limits {
    pub header_timeout: Duration,
    pub write_timeout: Duration,
    pub max_connections: usize,
    pub max_per_address: usize,
    /// The last connections, kept for addresses with fewer than [`FEW`] ([`reserve_of`]).
    pub reserve: usize,
}

impl Limits {
    /// The limits `config` sets.
    pub fn of(config: &crate::Config) -> Limits {
        Limits {
            header_timeout: config.header_timeout,
            write_timeout: config.write_timeout,
            max_connections: config.max_connections,
            max_per_address: config.max_connections_per_address,
            reserve: reserve_of(config.max_connections),
        }
    }
}

/// The connections an address may hold and still be let into the reserve: a household, or a few
/// people behind one address, with a page each (a page loads with up to 6 HTTP connections and holds a
/// WebSocket).
pub const FEW: usize = 16;

/// The connections kept for addresses with few: a quarter of the total. It takes `reserve / FEW`
/// addresses (64 at the default total) to fill them, and the three quarters before are open to all.
pub fn reserve_of(max_connections: usize) -> usize {
    max_connections / 4
}

/// How long the loop pauses after a failed accept (out of file descriptors, say) before the next; the
/// failure repeats at once otherwise, and the loop would spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(50);

/// Which cap a connection hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Refusal {
    /// The total.
    Full,
    /// Its address's cap.
    Address,
    /// The reserve, which its address holds too many to enter.
    Reserve,
}

impl Refusal {
    /// What the client is told.
    fn text(self, limits: &Limits) -> String {
        match self {
            Refusal::Full => format!(
                "too many connections to this server ({} at once); try again shortly",
                limits.max_connections
            ),
            Refusal::Address => format!(
                "too many connections from your address ({} at once); try again shortly",
                limits.max_per_address
            ),
            Refusal::Reserve => format!(
                "too many connections from your address while this server is nearly full (its \
                 last {} are kept for addresses with fewer than {FEW}); try again shortly",
                limits.reserve
            ),
        }
    }

    /// The answer, written without reading the request.
    fn answer(self, limits: &Limits) -> Vec<u8> {
        let body = format!("{}\n", self.text(limits));
        format!(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n\
             Retry-After: 5\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .into_bytes()
    }
}

/// A client as every limit per address counts it (the connection caps, the API's rate, the house's
/// games): an IPv4 address (also written as IPv6, `::ffff:a.b.c.d`) as it is, an IPv6 one by its /64.
/// Only [`ClientKey::of`] makes one, so no limit can compare raw addresses, where one person's /64
/// would be 2^64 addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientKey(IpAddr);

impl ClientKey {
    /// The key of a client at `ip`.
    pub fn of(ip: IpAddr) -> ClientKey {
        ClientKey(match ip {
            IpAddr::V4(_) => ip,
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => IpAddr::V4(v4),
                None => {
                    let s = v6.segments();
                    IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
                }
            },
        })
    }
}

/// The open connections, in total and per address.
#[derive(Debug, Default)]
struct Counts {
    total: usize,
    per_address: HashMap<ClientKey, usize>,
}

/// A connection's place under the caps; given back when dropped.
#[derive(Debug)]
struct Slot {
    counts: Arc<Mutex<Counts>>,
    key: ClientKey,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.per_address.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                c.per_address.remove(&self.key);
            }
        }
    }
}

/// Takes a slot for a connection from `ip`, or says which cap refuses it.
fn admit(counts: &Arc<Mutex<Counts>>, limits: &Limits, ip: IpAddr) -> Result<Slot, Refusal> {
    let key = ClientKey::of(ip);
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    let mine = c.per_address.get(&key).copied().unwrap_or(0);
    if c.total >= limits.max_connections {
        return Err(Refusal::Full);
    }
    if mine >= limits.max_per_address {
        return Err(Refusal::Address);
    }
    if c.total >= limits.max_connections.saturating_sub(limits.reserve) && mine >= FEW {
        return Err(Refusal::Reserve);
    }
    c.total += 1;
    *c.per_address.entry(key).or_insert(0) += 1;
    Ok(Slot {
        counts: Arc::clone(counts),
        key,
    })
}

/// A TCP stream that holds its connection's [`Slot`], so the slot lives exactly as long as the socket,
/// through an HTTP upgrade to a WebSocket too; and that fails a write which makes no progress for
/// `write_timeout` (a client that asked for a download and stopped reading would hold its slot for
/// ever otherwise: hyper waits on a full socket without a deadline).
struct Counted {
    stream: TcpStream,
    _slot: Slot,
    write_timeout: Duration,
    /// Set when a write found the socket full; any progress clears it.
    stalled: Option<Pin<Box<tokio::time::Sleep>>>,
}

impl Counted {
    fn new(stream: TcpStream, slot: Slot, write_timeout: Duration) -> Counted {
        Counted {
            stream,
            _slot: slot,
            write_timeout,
            stalled: None,
        }
    }

    /// What a write's poll says, under the deadline: progress (or an error) ends a stall, waiting
    /// starts one or goes on with it, and a stall as long as `write_timeout` fails the write.
    fn deadline<T>(
        &mut self,
        cx: &mut Context<'_>,
        polled: Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>> {
        if polled.is_ready() {
            self.stalled = None;
            return polled;
        }
        let timeout = self.write_timeout;
        let stall = self
            .stalled
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stall.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client stopped reading",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, buf);
        self.deadline(cx, polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, bufs);
        self.deadline(cx, polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let polled = Pin::new(&mut self.stream).poll_flush(cx);
        self.deadline(cx, polled)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// Accepts connections on `listener` and serves `router` on each, under `limits`, until the process
/// ends.
pub async fn serve(listener: TcpListener, router: axum::Router, limits: Limits) -> io::Result<()> {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .keep_alive(true);
    let counts = Arc::new(Mutex::new(Counts::default()));
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(e) => {
                eprintln!("accepting a connection failed: {e}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        let slot = match admit(&counts, &limits, peer.ip()) {
            Ok(slot) => slot,
            Err(refusal) => {
                // At most one small write that never waits: a refused client costs no task.
                let _ = stream.try_write(&refusal.answer(&limits));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let io = TokioIo::new(Counted::new(stream, slot, limits.write_timeout));
        let router = router.clone();
        let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            router.clone().call(req)
        });
        let connection = builder.serve_connection(io, service).with_upgrades();
        tokio::spawn(async move {
            // An error here is the client's doing (a malformed request, a timeout, a reset): nothing to
            // report.
            let _ = connection.await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_count_per_address_and_in_total_and_slots_come_back() {
        let limits = Limits {
            header_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(1),
            max_connections: 3,
            max_per_address: 2,
            reserve: reserve_of(3),
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = admit(&counts, &limits, a).unwrap();
        let _a2 = admit(&counts, &limits, a).unwrap();
        assert_eq!(admit(&counts, &limits, a).err(), Some(Refusal::Address));
        let _b1 = admit(&counts, &limits, b).unwrap();
        let c: IpAddr = "10.0.0.3".parse().unwrap();
        assert_eq!(admit(&counts, &limits, c).err(), Some(Refusal::Full));
        drop(a1);
        assert!(admit(&counts, &limits, a).is_ok());
        assert_eq!(
            counts.lock().unwrap().per_address.len(),
            2,
            "an address with no connection is forgotten"
        );
    }

    #[test]
    fn ipv6_counts_by_its_64_and_mapped_ipv4_as_ipv4() {
        let one: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let two: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        let other: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(ClientKey::of(one), ClientKey::of(two));
        assert_ne!(ClientKey::of(one), ClientKey::of(other));
        let mapped: IpAddr = "::ffff:192.0.2.7".parse().unwrap();
        let v4: IpAddr = "192.0.2.7".parse().unwrap();
        assert_eq!(ClientKey::of(mapped), ClientKey::of(v4));
        assert_ne!(
            ClientKey::of(v4),
            ClientKey::of("192.0.2.8".parse().unwrap())
        );
    }

    #[test]
    fn the_last_quarter_is_kept_for_addresses_with_few_connections() {
        let limits = Limits {
            header_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(1),
            max_connections: 100,
            max_per_address: 100,
            reserve: reserve_of(100),
        };
        let counts = Arc::new(Mutex::new(Counts::default()));
        let big: IpAddr = "10.0.0.1".parse().unwrap();
        let mut held: Vec<Slot> = (0..75)
            .map(|_| admit(&counts, &limits, big).unwrap())
            .collect();
        assert_eq!(admit(&counts, &limits, big).err(), Some(Refusal::Reserve));
        let small: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..FEW {
            held.push(admit(&counts, &limits, small).unwrap());
        }
        assert_eq!(admit(&counts, &limits, small).err(), Some(Refusal::Reserve));
        let new: IpAddr = "10.0.0.3".parse().unwrap();
        while held.len() < 100 {
            held.push(admit(&counts, &limits, new).unwrap());
        }
        assert_eq!(admit(&counts, &limits, new).err(), Some(Refusal::Full));
        // Below three quarters again, the big address is let in.
        held.truncate(74);
        assert!(admit(&counts, &limits, big).is_ok());
    }

    #[test]
    fn each_refusal_is_a_whole_http_answer_that_says_why() {
        let limits = Limits {
            header_timeout: Duration::from_secs(1),
            write_timeout: Duration::from_secs(1),
            max_connections: 4096,
            max_per_address: 512,
            reserve: reserve_of(4096),
        };
        for refusal in [Refusal::Full, Refusal::Address, Refusal::Reserve] {
            let answer = String::from_utf8(refusal.answer(&limits)).unwrap();
            let (head, body) = answer.split_once("\r\n\r\n").unwrap();
            assert!(head.starts_with("HTTP/1.1 503"), "{head}");
            assert!(head.contains(&format!("Content-Length: {}", body.len())));
            assert!(body.starts_with("too many connections"), "{body}");
        }
        let reserve = String::from_utf8(Refusal::Reserve.answer(&limits)).unwrap();
        assert!(reserve.contains("last 1024"), "{reserve}");
    }
}
