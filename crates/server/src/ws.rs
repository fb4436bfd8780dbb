//! One WebSocket connection: reads the client's messages, enforces the size and rate limits, and hands
//! each message to the [`Hub`]; a writer task sends what the hub queues for it.
//!
//! **Heartbeat.** The server pings every connection each `heartbeat` ([`crate::HEARTBEAT`], 30 s);
//! browsers and WebSocket libraries answer with a pong by themselves. A connection that has sent
//! nothing at all (no message, no pong) for two heartbeats is taken for gone and closed, like one that
//! closed itself: its seek leaves the queue and its games stop sending to it. Without this a client
//! whose network vanished (no TCP close) would stay in the queue and be paired as a ghost.

use crate::games::{Conn, Out, Seat};
use crate::Hub;
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use gridarena_engine::go::online::{ClientMsg, ServerMsg};
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

/// A token bucket: `BURST` tokens, refilled at `RATE_PER_SECOND`; plus a count of refusals that decays
/// at the same rate, for telling a burst from sustained flooding.
#[derive(Debug)]
pub struct RateLimit {
    tokens: f64,
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
            tokens: BURST,
            refused: 0.0,
            last: now,
        }
    }

    pub fn check(&mut self, now: Instant) -> Verdict {
        let dt = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * RATE_PER_SECOND).min(BURST);
        self.refused = (self.refused - dt * RATE_PER_SECOND).max(0.0);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
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

/// Runs one connection to its end.
pub async fn run(socket: WebSocket, hub: Arc<Hub>, heartbeat: Duration) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Out>();
    let conn = Conn {
        id: hub.next_conn_id(),
        tx,
    };
    let writer = tokio::spawn(async move {
        while let Some(out) = rx.recv().await {
            match out {
                Out::Text(text) => {
                    if sink.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                Out::Ping => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
                Out::Close(reason) => {
                    let _ = sink
                        .send(Message::Close(Some(CloseFrame {
                            code: 1008,
                            reason: reason.into(),
                        })))
                        .await;
                    break;
                }
            }
        }
    });
    let mut me: Option<Seat> = None;
    let mut limit = RateLimit::new(Instant::now());
    let heartbeat = heartbeat.max(Duration::from_millis(10));
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + heartbeat, heartbeat);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_heard = Instant::now();
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
                let _ = conn.tx.send(Out::Ping);
                continue;
            }
        };
        last_heard = Instant::now();
        if matches!(msg, Message::Ping(_) | Message::Pong(_)) {
            continue;
        }
        if matches!(msg, Message::Close(_)) {
            break;
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
        handle(&hub, &conn, &mut me, msg).await;
    }
    hub.leave(conn.id).await;
    // Let queued messages (a last error) go out, then stop the writer, which drops the receiver so the
    // games this connection followed drop it on their next send.
    drop(conn);
    let abort = writer.abort_handle();
    if tokio::time::timeout(Duration::from_secs(1), writer)
        .await
        .is_err()
    {
        abort.abort();
    }
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
            let _ = conn.tx.send(Out::Close("flooding".into()));
        }
    }
    verdict
}

async fn handle(hub: &Arc<Hub>, conn: &Conn, me: &mut Option<Seat>, msg: ClientMsg) {
    match msg {
        ClientMsg::Hello { token } => {
            if me.is_some() {
                conn.send(&ServerMsg::error(
                    "hello was already accepted on this connection",
                ));
                return;
            }
            *me = hub.hello(conn, &token).await;
        }
        ClientMsg::Watch { game } => hub.watch(conn, game).await,
        other => {
            let Some(seat) = me.as_ref() else {
                conn.send(&ServerMsg::error(
                    "say hello with your token first (only watch needs none)",
                ));
                return;
            };
            match other {
                ClientMsg::Seek { size, color } => hub.seek(conn, seat, size, color).await,
                ClientMsg::Cancel => hub.cancel(conn, seat).await,
                ClientMsg::Move { game, mv } => hub.play(conn, seat, game, &mv).await,
                ClientMsg::Resign { game } => hub.resign(conn, seat, game).await,
                ClientMsg::Hello { .. } | ClientMsg::Watch { .. } => {}
            }
        }
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
}
