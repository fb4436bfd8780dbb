//! PostgreSQL only: another instance hears what one does (LISTEN/NOTIFY), and a lost listening
//! connection comes back with `Resync`.

use super::*;
use std::time::Duration;
use tokio::sync::broadcast;

/// The next event, within a few seconds.
async fn next(rx: &mut broadcast::Receiver<Event>) -> Event {
    tokio::time::timeout(Duration::from_secs(10), rx.recv())
        .await
        .expect("no event within 10 s")
        .expect("the event channel closed")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_store_hears_moves_ends_and_matches() {
    let url = testing::fresh_database().await;
    let one = Store::open(&url).await.unwrap();
    let two = Store::open(&url).await.unwrap();
    assert!(one.is_shared() && two.events().is_some());
    let mut heard = two.events().unwrap();
    let mut own = one.events().unwrap();
    let p = players(&one, 2).await;
    one.keep_alive(&instance("A"), T0, LEASE).await.unwrap();
    one.keep_alive(&instance("B"), T0, LEASE).await.unwrap();
    let wait = request(p[0], "B", 77, 9, ColorPref::Any);
    assert_eq!(
        one.seek(&wait, true, T0, LEASE, T0 + 1000).await.unwrap(),
        SeekOutcome::Waiting
    );
    let out = one
        .seek(
            &request(p[1], "A", 5, 9, ColorPref::Any),
            true,
            T0,
            LEASE,
            T0 + 1000,
        )
        .await
        .unwrap();
    let SeekOutcome::Paired { game, .. } = out else {
        panic!("not paired")
    };
    let matched = Event::Matched {
        game,
        instance: instance("B"),
        conn: 77,
    };
    assert_eq!(next(&mut heard).await, matched);
    one.add_move(game, 1, 'B', "D4", T0, T0 + 2000)
        .await
        .unwrap()
        .unwrap();
    let moved = Event::Moved {
        game,
        number: 1,
        mv: "D4".into(),
        deadline: T0 + 2000,
    };
    assert_eq!(next(&mut heard).await, moved);
    // Refused writes say nothing.
    assert_eq!(
        one.add_move(game, 1, 'B', "D4", T0, T0 + 2000)
            .await
            .unwrap(),
        Err(MoveRefusal::OutOfStep { stored: 1 })
    );
    assert!(!one.finish(game, &win(p[0], p[1], 0, true)).await.unwrap());
    assert!(one.finish(game, &win(p[0], p[1], 1, true)).await.unwrap());
    assert_eq!(next(&mut heard).await, Event::Ended { game });
    assert!(!one.finish(game, &win(p[0], p[1], 1, true)).await.unwrap());
    // A connection id beyond i64 in the payload, and nothing between.
    one.seek(
        &request(p[0], "B", u64::MAX, 13, ColorPref::Any),
        true,
        T0,
        LEASE,
        T0,
    )
    .await
    .unwrap();
    let out = one
        .seek(
            &request(p[1], "A", 6, 13, ColorPref::Any),
            true,
            T0,
            LEASE,
            T0,
        )
        .await
        .unwrap();
    let SeekOutcome::Paired { game: second, .. } = out else {
        panic!("not paired")
    };
    assert_eq!(
        next(&mut heard).await,
        Event::Matched {
            game: second,
            instance: instance("B"),
            conn: u64::MAX
        }
    );
    // The instance hears itself too, in the same order.
    assert_eq!(next(&mut own).await, matched);
    assert_eq!(next(&mut own).await, moved);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_listener_comes_back_with_resync() {
    let url = testing::fresh_database().await;
    let store = Store::open(&url).await.unwrap();
    let mut events = store.events().unwrap();
    let admin = super::super::postgres::connect_raw(&url).await.unwrap();
    let killed = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE application_name = $1 AND datname = current_database()",
            &[&super::super::postgres::APPLICATION_NAME],
        )
        .await
        .unwrap();
    assert_eq!(killed.get::<_, i64>(0), 1);
    assert_eq!(next(&mut events).await, Event::Resync);
    // Listening again.
    let p = players(&store, 2).await;
    let g = new_game(&store, p[0], p[1], 9, T0 + 1000).await;
    assert!(matches!(next(&mut events).await, Event::Matched { game, .. } if game == g));
}

#[test]
fn payloads_read_back() {
    use super::super::postgres::parse_payload as parse;
    assert_eq!(
        parse("m 12 3 1700000000123 pass"),
        Some(Event::Moved {
            game: 12,
            number: 3,
            mv: "pass".into(),
            deadline: 1_700_000_000_123
        })
    );
    assert_eq!(parse("e 12"), Some(Event::Ended { game: 12 }));
    assert_eq!(
        parse("p 12 host a:1 18446744073709551615"),
        Some(Event::Matched {
            game: 12,
            instance: instance("host a:1"),
            conn: u64::MAX
        })
    );
    for bad in [
        "",
        "m",
        "m 1",
        "m x 1",
        "e -1",
        "p 1 2",
        "q 1",
        "m 1 2 3",
        "m 1 2",
        "m 1 2 3 ",
        "m 1 2 x D4",
        "m 1 2 3 D4 x",
    ] {
        assert_eq!(parse(bad), None, "{bad:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_connection_has_the_timeouts_a_partition_needs() {
    let url = testing::fresh_database().await;
    let Store::Postgres(store) = Store::open(&url).await.unwrap() else {
        panic!("not PostgreSQL")
    };
    for (name, value) in [
        ("statement_timeout", "5s"),
        ("lock_timeout", "3s"),
        ("idle_in_transaction_session_timeout", "10s"),
        ("synchronous_commit", "off"),
    ] {
        assert_eq!(store.show(name).await.unwrap(), value, "{name}");
    }
    // A URL's own setting wins.
    let own = format!(
        "{url}{}options=-c%20statement_timeout%3D1min",
        if url.contains('?') { '&' } else { '?' }
    );
    let Store::Postgres(store) = Store::open(&own).await.unwrap() else {
        panic!("not PostgreSQL")
    };
    assert_eq!(store.show("statement_timeout").await.unwrap(), "1min");
}
