//! One WebSocket connection: reads the client's messages, enforces the size and rate limits, and hands
//! each message to the [`Hub`]; a writer task sends what the hub queues for it.
//!
//! **Heartbeat.** The server pings every connection each `heartbeat` ([`crate::HEARTBEAT`], 30 s), each
//! ping carrying a new number; browsers and WebSocket libraries answer with a pong carrying it back by
//! themselves. Only two things count as a sign of life: a message that is handled (it passed the rate
//! limit and was read), or the pong of the latest ping. A connection without one for two heartbeats is
//! taken for gone and closed, like one that closed itself: its seek leaves the queue and its games stop
//! sending to it. Without this a client whose network vanished (no TCP close) would stay in the queue
//! and be paired as a ghost; and since pongs nobody asked for do not count, a client cannot hold a
//! connection open by sending them without ever reading.
//!
//! **Memory.** What the server sends a connection waits in a queue of at most [`OUTBOX`] messages. A
//! client that lets it fill does not read: the connection is closed. The writer gives each send two
//! heartbeats; a socket write stalled longer (the client's receive window stays shut) closes it too.
//!
//! **Hello.** A connection must say `hello` within `hello_timeout` ([`crate::HELLO_TIMEOUT`]) or it is
//! told why and closed; everything but `hello` needs it first.
//!
//! **Idle.** A connection that said hello, follows nothing ([`Hub::follows_something`]: no game of its
//! player in play, no game watched, no seek waiting) and has had no message handled for
//! `idle_timeout` ([`crate::IDLE_TIMEOUT`]) is told why and closed: it holds a slot for nothing. It
//! is looked at once that long has passed; one found following something gets another
//! `idle_timeout`.

use crate::bucket::TokenBucket;
use crate::games::{Conn, Out, Seat};
use crate::Hub;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{Sink, SinkExt, StreamExt};
use gridarena_engine::go::online::{ClientMsg, GameId, ServerMsg};
use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// The largest message handled: 4 KiB. Up to [`HARD_MAX_MESSAGE`] a longer one is answered with an
/// error; beyond that the WebSocket layer closes the connection.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// The largest message the WebSocket layer accepts at all.
pub const HARD_MAX_MESSAGE: usize = 64 * 1024;

/// Messages a second a connection may send, sustained.
pub const RATE_PER_SECOND: f64 = 20.0;

/// Messages a connection may send at once after being quiet.
pub const BURST: f64 = 40.0;

/// Refused messages (decaying by [`RATE_PER_SECOND`] a second) after which a flooding client is
/// disconnected.
pub const FLOOD_LIMIT: f64 = 200.0;

/// Messages waiting to be sent to one connection, at most. A busy spectator gets a move a second from
/// each of [`crate::games::MAX_WATCHED`] games; a client that reads lets no more than a handful wait,
/// so 256 is minutes of backlog, and at most a few hundred KiB (a snapshot is under 4 KiB).
pub const OUTBOX: usize = 256;

/// The WebSocket close code for a refusal (RFC 6455: "policy violation").
const POLICY: u16 = 1008;

/// What a connection is told before it is closed for not saying hello.
const NO_HELLO: &str = "no hello: say hello with your token first";

/// What a connection closed for idleness is told (and the close frame's reason).
const IDLE: &str = "idle";

/// How each connection is run: the ping interval, the deadline for `hello`, and how long it may
/// follow nothing.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub heartbeat: Duration,
    pub hello_timeout: Duration,
    pub idle_timeout: Duration,
}

/// The per-connection rate limit: a [`TokenBucket`] ([`BURST`], refilled at [`RATE_PER_SECOND`]), plus
/// a count of refusals that decays at the same rate, for telling a burst from sustained flooding.
#[derive(Debug)]
pub struct RateLimit {
    bucket: TokenBucket,
    refused: f64,
    last: Instant,
}

/// What the rate limit says about one message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Allow,
    Refuse,
    Disconnect,
}

impl RateLimit {
    pub fn new(now: Instant) -> RateLimit {
        RateLimit {
            bucket: TokenBucket::full(RATE_PER_SECOND, BURST, now),
            refused: 0.0,
            last: now,
        }
    }

    pub fn check(&mut self, now: Instant) -> Verdict {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = self.last.max(now);
        self.refused = (self.refused - dt * RATE_PER_SECOND).max(0.0);
        if self.bucket.take(now) {
            return Verdict::Allow;
        }
        self.refused += 1.0;
        if self.refused > FLOOD_LIMIT {
            Verdict::Disconnect
        } else {
            Verdict::Refuse
        }
    }
}

/// Sends what the hub queues until the queue closes, a close frame is sent, or a send fails or takes
/// longer than `deadline`.
pub async fn write_out<S>(mut sink: S, mut rx: mpsc::Receiver<Out>, deadline: Duration)
where
    S: Sink<Message> + Unpin,
{
    while let Some(out) = rx.recv().await {
        let (msg, last) = match out {
            Out::Text(text) => (Message::Text(text), false),
            Out::Ping(n) => (Message::Ping(n.to_be_bytes().to_vec().into()), false),
            Out::Close(reason) => (
                Message::Close(Some(CloseFrame {
                    code: POLICY,
                    reason: reason.into(),
                })),
                true,
            ),
        };
        match tokio::time::timeout(deadline, sink.send(msg)).await {
            Ok(Ok(())) if !last => {}
            _ => break,
        }
    }
}

/// Runs one connection, from the client at `address`, to its end.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, address: Option<IpAddr>, settings: Settings) {
    let heartbeat = settings.heartbeat.max(Duration::from_millis(10));
    let (sink, mut stream) = socket.split();
    let (tx, rx) = mpsc::channel::<Out>(OUTBOX);
    let mut conn = Conn::new(hub.next_conn_id(), tx);
    if let Some(ip) = address {
        conn = conn.from(ip);
    }
    let closing = conn.closing();
    let writer = {
        let closing = conn.closing();
        tokio::spawn(async move {
            write_out(sink, rx, heartbeat * 2).await;
            closing.notify_one();
        })
    };
    let mut me: Option<Seat> = None;
    let mut watched: HashSet<GameId> = HashSet::new();
    let mut limit = RateLimit::new(Instant::now());
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let hello_by = tokio::time::Instant::now() + settings.hello_timeout;
    let mut last_heard = Instant::now();
    // The last handled message, or the last time the connection was found following something.
    let mut last_useful = tokio::time::Instant::now();
    let mut pings: u64 = 0;
    loop {
        let msg = tokio::select! {
            next = stream.next() => match next {
                Some(Ok(msg)) => msg,
                _ => break,
            },
            _ = ticks.tick() => {
                if last_heard.elapsed() >= heartbeat * 2 {
                    // Gone without a word: no close frame can reach it either.
                    break;
                }
                pings += 1;
                conn.push(Out::Ping(pings));
                continue;
            }
            _ = tokio::time::sleep_until(idle_at(last_useful, settings.idle_timeout)),
                if me.is_some() => {
                let follows = match me.as_ref() {
                    Some(seat) => hub.follows_something(&conn, seat, &watched).await,
                    None => true,
                };
                if follows {
                    last_useful = tokio::time::Instant::now();
                    continue;
                }
                conn.send(&ServerMsg::error(format!(
                    "{IDLE} for {} s: no game of yours in play, none watched, no seek waiting; \
                     closing (connect again to play or watch)",
                    settings.idle_timeout.as_secs_f64()
                )));
                conn.push(Out::Close(IDLE.into()));
                break;
            }
            _ = tokio::time::sleep_until(hello_by), if me.is_none() => {
                conn.send(&ServerMsg::error(format!(
                    "{NO_HELLO} within {} s of connecting; closing",
                    settings.hello_timeout.as_secs_f64()
                )));
                conn.push(Out::Close(NO_HELLO.into()));
                break;
            }
            _ = closing.notified() => break,
        };
        match msg {
            Message::Pong(payload) => {
                if pings > 0 && payload.as_ref() == pings.to_be_bytes() {
                    last_heard = Instant::now();
                }
                continue;
            }
            Message::Ping(_) => continue,
            Message::Close(_) => break,
            Message::Text(_) | Message::Binary(_) => {}
        }
        match gate(&mut limit, &conn) {
            Verdict::Allow => {}
            Verdict::Refuse => continue,
            Verdict::Disconnect => break,
        }
        let Message::Text(text) = msg else {
            conn.send(&ServerMsg::error(
                "send JSON text messages, not binary ones",
            ));
            continue;
        };
        if text.len() > MAX_MESSAGE {
            conn.send(&ServerMsg::error(format!(
                "message too long: {} bytes (at most {MAX_MESSAGE})",
                text.len()
            )));
            continue;
        }
        let msg = match ClientMsg::parse(text.as_str()) {
            Ok(m) => m,
            Err(e) => {
                conn.send(&ServerMsg::error(format!("malformed message: {e}")));
                continue;
            }
        };
        last_heard = Instant::now();
        last_useful = tokio::time::Instant::now();
        handle(&hub, &conn, &mut me, &mut watched, msg).await;
    }
    hub.leave(conn.id).await;
    // Let queued messages (a last error) go out for a moment (a second, or a heartbeat if shorter),
    // then stop the writer, which drops the receiver so the games this connection followed drop it on
    // their next send.
    drop(conn);
    let abort = writer.abort_handle();
    if tokio::time::timeout(heartbeat.min(Duration::from_secs(1)), writer)
        .await
        .is_err()
    {
        abort.abort();
    }
}

/// When a connection useful at `since` becomes idle (a timeout too long to add is never).
fn idle_at(since: tokio::time::Instant, idle: Duration) -> tokio::time::Instant {
    since
        .checked_add(idle)
        .unwrap_or_else(|| since + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// Applies the rate limit to one message and tells the client about a refusal (and closes on a flood);
/// the verdict says whether to handle the message, skip it, or stop reading.
fn gate(limit: &mut RateLimit, conn: &Conn) -> Verdict {
    let verdict = limit.check(Instant::now());
    match verdict {
        Verdict::Allow => {}
        Verdict::Refuse => {
            conn.send(&ServerMsg::error(format!(
                "too many messages: at most {RATE_PER_SECOND} a second (bursts of {BURST})"
            )));
        }
        Verdict::Disconnect => {
            conn.send(&ServerMsg::error("disconnected for flooding"));
            conn.push(Out::Close("flooding".into()));
        }
    }
    verdict
}

async fn handle(
    hub: &Arc<Hub>,
    conn: &Conn,
    me: &mut Option<Seat>,
    watched: &mut HashSet<GameId>,
    msg: ClientMsg,
) {
    if let ClientMsg::Hello { token } = msg {
        if me.is_some() {
            conn.send(&ServerMsg::error(
                "hello was already accepted on this connection",
            ));
        } else {
            *me = hub.hello(conn, &token).await;
        }
        return;
    }
    let Some(seat) = me.as_ref() else {
        conn.send(&ServerMsg::error("say hello with your token first"));
        return;
    };
    match msg {
        ClientMsg::Seek { size, color } => hub.seek(conn, seat, size, color).await,
        ClientMsg::Cancel => hub.cancel(conn, seat).await,
        ClientMsg::House { size, color } => hub.house_game(conn, seat, size, color).await,
        ClientMsg::Watch { game } => hub.watch(conn, game, watched).await,
        ClientMsg::Unwatch { game } => hub.unwatch(conn, game, watched).await,
        ClientMsg::Move { game, mv } => hub.play(conn, seat, game, &mv).await,
        ClientMsg::Resign { game } => hub.resign(conn, seat, game).await,
        ClientMsg::Hello { .. } => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bucket_allows_a_burst_then_the_rate_then_disconnects_a_flood() {
        let t0 = Instant::now();
        let mut l = RateLimit::new(t0);
        for _ in 0..40 {
            assert_eq!(l.check(t0), Verdict::Allow);
        }
        assert_eq!(l.check(t0), Verdict::Refuse);
        // 50 ms later one more token.
        assert_eq!(l.check(t0 + Duration::from_millis(50)), Verdict::Allow);
        // A steady 20 a second is fine for ever.
        let mut t = t0 + Duration::from_secs(10);
        let mut l = RateLimit::new(t0);
        for _ in 0..1000 {
            t += Duration::from_millis(50);
            assert_eq!(l.check(t), Verdict::Allow);
        }
        // A flood is cut off.
        let mut verdicts = (0..300).map(|_| l.check(t));
        assert!(verdicts.any(|v| v == Verdict::Disconnect));
    }

    #[test]
    fn a_full_queue_refuses_and_asks_the_connection_to_close() {
        let (tx, mut rx) = mpsc::channel(2);
        let conn = Conn::new(1, tx);
        assert!(conn.send(&ServerMsg::Cancelled));
        assert!(conn.push(Out::Ping(1)));
        assert!(!conn.send(&ServerMsg::Cancelled), "the third does not fit");
        let closing = conn.closing();
        let asked = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(async {
                tokio::time::timeout(Duration::from_secs(1), closing.notified())
                    .await
                    .is_ok()
            });
        assert!(asked, "the connection is asked to close");
        rx.close();
        assert!(!conn.send(&ServerMsg::Cancelled));
    }

    /// A sink whose socket never takes a byte: the client's receive window stays shut.
    struct Stuck;

    impl Sink<Message> for Stuck {
        type Error = std::io::Error;
        fn poll_ready(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Result<(), Self::Error>> {
            std::task::Poll::Pending
        }
        fn start_send(self: std::pin::Pin<&mut Self>, _: Message) -> Result<(), Self::Error> {
            Ok(())
        }
        fn poll_flush(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Result<(), Self::Error>> {
            std::task::Poll::Pending
        }
        fn poll_close(
            self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Result<(), Self::Error>> {
            std::task::Poll::Pending
        }
    }

    #[test]
    fn a_stalled_write_ends_the_writer_at_its_deadline() {
        let (tx, rx) = mpsc::channel(4);
        let conn = Conn::new(1, tx);
        conn.send(&ServerMsg::Cancelled);
        let started = Instant::now();
        let ended = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap()
            .block_on(async {
                tokio::time::timeout(
                    Duration::from_secs(2),
                    write_out(Stuck, rx, Duration::from_millis(100)),
                )
                .await
                .is_ok()
            });
        assert!(ended, "the writer gave up");
        assert!(started.elapsed() >= Duration::from_millis(100));
        drop(conn);
    }
}
