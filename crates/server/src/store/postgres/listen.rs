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

use crate::store::{Event, InstanceId};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::task::JoinHandle;
use tokio_postgres::{AsyncMessage, Client, Config, NoTls};

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

/// Opens the listening connection and says LISTEN; the returned task turns its notifications into
/// events until the connection ends (it ends when the [`Client`] is dropped, or when the server goes).
pub(super) async fn listen(
    config: &Config,
    events: &broadcast::Sender<Event>,
) -> Result<(Client, JoinHandle<()>), tokio_postgres::Error> {
    let mut config = config.clone();
    config.application_name(APPLICATION_NAME);
    let (client, mut connection) = config.connect(NoTls).await?;
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
    if let Err(e) = client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
        driver.abort();
        return Err(e);
    }
    Ok((client, driver))
}

/// Keeps a listening connection open for good: waits for `driver` to end, then opens a new one with
/// backoff and sends [`Event::Resync`]. Runs until aborted (the store is dropped).
pub(super) async fn keep_listening(
    config: Config,
    events: broadcast::Sender<Event>,
    mut client: Client,
    mut driver: JoinHandle<()>,
) {
    loop {
        let _ = (&mut driver).await;
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
