//! Events between instances: PostgreSQL's LISTEN/NOTIFY on one channel, [`CHANNEL`].
//!
//! The store's writes send `pg_notify` inside their transaction, so a notification is delivered when,
//! and only if, the write commits. Payloads are short words:
//!
//! | payload | event |
//! |---|---|
//! | `m <game> <number> <deadline> <move>` | [`Event::Moved`] (the move in GTP words, the deadline in ms) |
//! | `e <game>` | [`Event::Ended`] |
//! | `p <game> <instance> <conn>` | [`Event::Matched`] (the instance and connection of the request that waited) |
//!
//! Each `PgStore` holds one connection of its own that LISTENs and turns notifications into events on a
//! broadcast channel. PostgreSQL also delivers an instance's own notifications back to it (the hub
//! ignores what it already has). If that connection drops, it is opened again with backoff (100 ms
//! doubling to 5 s), and [`Event::Resync`] says that events may have been missed meanwhile.
//!
//! A connection that only listens sends nothing, so a silent network partition (no reset) would leave
//! it deaf for as long as TCP takes to notice, hours without keepalives. So it is probed: a `SELECT 1`
//! every [`PROBE_EVERY`] that must be answered within [`PROBE_TIMEOUT`], or the connection is dropped
//! and opened again; and opening one must succeed within [`OPEN_TIMEOUT`].

use crate::store::{Event, InstanceId, StoreError};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_postgres::{AsyncMessage, Client, Config, NoTls};

/// How often the listening connection is asked whether it still hears.
pub(super) const PROBE_EVERY: Duration = Duration::from_secs(5);

/// How long a probe may take before the listening connection is taken for lost.
pub(super) const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// How long opening a listening connection (TCP, start-up, LISTEN) may take.
pub(super) const OPEN_TIMEOUT: Duration = Duration::from_secs(5);

/// The one channel every instance listens on.
pub(super) const CHANNEL: &str = "gridarena";

/// The `application_name` of the listening connection (tests find it by this).
pub(in crate::store) const APPLICATION_NAME: &str = "gridarena-listen";

/// Reads a notification's payload; `None` for anything else.
pub(in crate::store) fn parse(payload: &str) -> Option<Event> {
    let (kind, rest) = payload.split_once(' ')?;
    match kind {
        "m" => {
            let mut words = rest.split(' ');
            let event = Event::Moved {
                game: words.next()?.parse().ok()?,
                number: words.next()?.parse().ok()?,
                deadline: words.next()?.parse().ok()?,
                mv: words.next().filter(|mv| !mv.is_empty())?.to_owned(),
            };
            words.next().is_none().then_some(event)
        }
        "e" => Some(Event::Ended {
            game: rest.parse().ok()?,
        }),
        "p" => {
            let (game, rest) = rest.split_once(' ')?;
            let (instance, conn) = rest.rsplit_once(' ')?;
            Some(Event::Matched {
                game: game.parse().ok()?,
                instance: InstanceId(instance.to_owned()),
                conn: conn.parse().ok()?,
            })
        }
        _ => None,
    }
}

/// Opens the listening connection and says LISTEN, each within [`OPEN_TIMEOUT`]; the returned task
/// turns its notifications into events until the connection ends (it ends when the [`Client`] is
/// dropped, or when the server goes; aborting the task closes it at once).
pub(super) async fn listen(
    config: &Config,
    events: &broadcast::Sender<Event>,
) -> Result<(Client, JoinHandle<()>), StoreError> {
    let mut config = config.clone();
    config.application_name(APPLICATION_NAME);
    let timed_out = |what: &str| {
        StoreError(format!(
            "PostgreSQL: {what} took over {} s",
            OPEN_TIMEOUT.as_secs()
        ))
    };
    let (client, mut connection) = tokio::time::timeout(OPEN_TIMEOUT, config.connect(NoTls))
        .await
        .map_err(|_| timed_out("connecting to listen"))??;
    let events = events.clone();
    let driver = tokio::spawn(async move {
        while let Some(message) = std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            match message {
                Ok(AsyncMessage::Notification(n)) => {
                    if let Some(event) = parse(n.payload()) {
                        // No receiver now is fine: nobody is listening yet.
                        let _ = events.send(event);
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
    });
    let listen = format!("LISTEN {CHANNEL}");
    match tokio::time::timeout(OPEN_TIMEOUT, client.batch_execute(&listen)).await {
        Ok(Ok(())) => Ok((client, driver)),
        Ok(Err(e)) => {
            driver.abort();
            Err(e.into())
        }
        Err(_) => {
            driver.abort();
            Err(timed_out("LISTEN"))
        }
    }
}

/// Waits until the listening connection ends (its `driver` returns) or stops answering probes.
async fn until_lost(client: &Client, driver: &mut JoinHandle<()>) {
    let mut probes = tokio::time::interval(PROBE_EVERY);
    probes.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = &mut *driver => return,
            _ = probes.tick() => {
                let probe = client.simple_query("SELECT 1");
                if !matches!(tokio::time::timeout(PROBE_TIMEOUT, probe).await, Ok(Ok(_))) {
                    return;
                }
            }
        }
    }
}

/// Keeps a listening connection open for good: waits until it is lost (it ended, or stopped answering
/// probes), then opens a new one with backoff and sends [`Event::Resync`]. Runs until aborted (the
/// store is dropped).
pub(super) async fn keep_listening(
    config: Config,
    events: broadcast::Sender<Event>,
    mut client: Client,
    mut driver: JoinHandle<()>,
) {
    loop {
        until_lost(&client, &mut driver).await;
        // Dropping the connection's task closes its socket, however silent the other end.
        driver.abort();
        drop(client);
        let mut delay = Duration::from_millis(100);
        loop {
            tokio::time::sleep(delay).await;
            match listen(&config, &events).await {
                Ok((c, d)) => {
                    client = c;
                    driver = d;
                    let _ = events.send(Event::Resync);
                    break;
                }
                Err(_) => delay = (delay * 2).min(Duration::from_secs(5)),
            }
        }
    }
}
