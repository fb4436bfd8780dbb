//! Matchmaking: the oldest compatible request, the colour rules, one request per player, nobody
//! against themself, live instances only, leaving; and 50 players at once.

use super::*;
use gridarena_engine::go::online::ColorPref::{Any, Black, White};
use std::collections::HashSet;
use std::sync::Arc;

on_every_backend!(
    the_oldest_compatible_request_is_taken,
    a_new_request_replaces_the_old_and_nobody_plays_themself,
    requests_of_a_silent_instance_are_ignored_then_dropped,
    fifty_players_at_once_make_25_games,
    a_game_made_outside_the_queue_drops_both_requests_and_runs_on_its_instance,
);

const DEADLINE: Millis = T0 + 300_000;

async fn seek(s: &Store, r: &SeekRow, coin: bool) -> SeekOutcome {
    s.seek(r, coin, T0, LEASE, DEADLINE).await.expect("seek")
}

/// The game a seek made: (game, the waiting player, whether they play Black).
fn paired(o: SeekOutcome) -> (GameId, i64, bool) {
    match o {
        SeekOutcome::Paired {
            game,
            waiting,
            waiting_black,
        } => (game, waiting.player, waiting_black),
        SeekOutcome::Waiting => panic!("not paired"),
    }
}

async fn the_oldest_compatible_request_is_taken(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 10).await;
    s.keep_alive(&instance("A"), T0, LEASE).await.unwrap();
    s.keep_alive(&instance("B"), T0, LEASE).await.unwrap();
    let w = SeekOutcome::Waiting;
    assert_eq!(seek(s, &request(p[0], "A", 10, 9, Black), false).await, w);
    assert_eq!(seek(s, &request(p[1], "B", 11, 13, White), false).await, w);
    // Black does not pair with Black.
    assert_eq!(seek(s, &request(p[2], "A", 12, 9, Black), false).await, w);
    // White on 9: the oldest compatible is p0, not p2.
    let out = seek(s, &request(p[3], "B", 13, 9, White), true).await;
    let SeekOutcome::Paired {
        game, ref waiting, ..
    } = out
    else {
        panic!("not paired: {out:?}");
    };
    assert_eq!(
        *waiting,
        SeekRow {
            player: p[0],
            name: "P0".into(),
            instance: instance("A"),
            conn: 10,
            size: 9,
            color: Black
        }
    );
    assert_eq!(paired(out.clone()), (game, p[0], true));
    // A request taken waits no more; the one behind it still does.
    assert!(!s.is_waiting(&instance("A"), 10).await.unwrap());
    assert!(s.is_waiting(&instance("A"), 12).await.unwrap());
    assert!(!s.is_waiting(&instance("B"), 12).await.unwrap());
    let g = s.game(game).await.unwrap().unwrap();
    assert_eq!((g.size, g.black.0, g.white.0), (9, p[0], p[3]));
    assert_eq!((g.black.1.as_str(), g.white.1.as_str()), ("P0", "P3"));
    assert_eq!(
        (g.moves.len(), g.result.clone(), g.deadline),
        (0, None, DEADLINE)
    );
    // The clock is the seeking instance's.
    assert_eq!(s.due(&instance("B"), DEADLINE).await.unwrap(), [game]);
    assert!(s.due(&instance("A"), DEADLINE).await.unwrap().is_empty());
    // Any pairs with the waiting White on 13, who then plays White.
    let (_, with, waiting_black) = paired(seek(s, &request(p[4], "A", 14, 13, Any), true).await);
    assert_eq!((with, waiting_black), (p[1], false));
    // Any pairs with the waiting Black on 9.
    let (_, with, waiting_black) = paired(seek(s, &request(p[5], "A", 15, 9, Any), false).await);
    assert_eq!((with, waiting_black), (p[2], true));
    // Any with any: the coin decides.
    assert_eq!(seek(s, &request(p[6], "A", 16, 19, Any), false).await, w);
    let (game, with, waiting_black) = paired(seek(s, &request(p[7], "A", 17, 19, Any), true).await);
    assert_eq!((with, waiting_black), (p[6], true));
    assert_eq!(s.game(game).await.unwrap().unwrap().black.0, p[6]);
    assert_eq!(seek(s, &request(p[8], "A", 18, 19, Any), false).await, w);
    let (game, with, waiting_black) =
        paired(seek(s, &request(p[9], "A", 19, 19, Any), false).await);
    assert_eq!((with, waiting_black), (p[8], false));
    assert_eq!(s.game(game).await.unwrap().unwrap().black.0, p[9]);
    assert_eq!(s.unfinished().await.unwrap().len(), 5);
}

async fn a_new_request_replaces_the_old_and_nobody_plays_themself(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 8).await;
    s.keep_alive(&instance("A"), T0, LEASE).await.unwrap();
    s.keep_alive(&instance("B"), T0, LEASE).await.unwrap();
    let w = SeekOutcome::Waiting;
    assert_eq!(seek(s, &request(p[0], "A", 1, 9, Any), true).await, w);
    assert_eq!(seek(s, &request(p[0], "A", 1, 9, Any), true).await, w);
    assert_eq!(seek(s, &request(p[0], "A", 1, 19, Black), true).await, w);
    // p0's request on 9 is gone.
    assert_eq!(seek(s, &request(p[1], "A", 2, 9, Any), true).await, w);
    let (_, with, _) = paired(seek(s, &request(p[2], "A", 3, 19, White), true).await);
    assert_eq!(with, p[0]);
    assert!(s.cancel_seek(p[1]).await.unwrap());
    assert!(!s.cancel_seek(p[1]).await.unwrap());
    // Leaving removes the requests of that connection of that instance only.
    assert_eq!(seek(s, &request(p[3], "A", 44, 9, Any), true).await, w);
    s.leave(&instance("A"), 44).await.unwrap();
    assert_eq!(seek(s, &request(p[4], "B", 44, 9, Any), true).await, w);
    s.leave(&instance("A"), 44).await.unwrap();
    let (_, with, _) = paired(seek(s, &request(p[5], "A", 5, 9, Any), true).await);
    assert_eq!(with, p[4]);
    // A connection id beyond i64 survives the round trip.
    assert_eq!(
        seek(s, &request(p[6], "B", u64::MAX, 13, Any), true).await,
        w
    );
    let out = seek(s, &request(p[7], "A", 7, 13, Any), true).await;
    let SeekOutcome::Paired { waiting, .. } = out else {
        panic!("not paired")
    };
    assert_eq!(waiting.conn, u64::MAX);
}

async fn requests_of_a_silent_instance_are_ignored_then_dropped(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 4).await;
    let (a, bi) = (instance("A"), instance("B"));
    s.keep_alive(&a, T0, LEASE).await.unwrap();
    s.keep_alive(&bi, T0, LEASE).await.unwrap();
    let w = SeekOutcome::Waiting;
    // A request queued says its instance is alive, even one nobody had heard of (its keep_alive may
    // be late, just after a network partition).
    assert_eq!(seek(s, &request(p[3], "Z", 1, 9, Any), true).await, w);
    assert_eq!(s.others_alive(&a, T0, LEASE).await.unwrap(), 2);
    assert!(s.cancel_seek(p[3]).await.unwrap());
    assert_eq!(seek(s, &request(p[0], "A", 1, 9, Any), true).await, w);
    // Just within the lease: A's request is taken.
    let late = T0 + LEASE + 1;
    let out = s
        .seek(
            &request(p[1], "B", 2, 9, Black),
            true,
            T0 + LEASE,
            LEASE,
            DEADLINE,
        )
        .await
        .unwrap();
    assert_eq!(paired(out).1, p[0]);
    assert_eq!(seek(s, &request(p[0], "A", 1, 9, Any), true).await, w);
    // A said nothing for longer than the lease: its request is ignored...
    s.keep_alive(&bi, late, LEASE).await.unwrap();
    let out = s
        .seek(&request(p[2], "B", 3, 9, Any), true, late, LEASE, DEADLINE)
        .await
        .unwrap();
    assert_eq!(out, w);
    // ... and B's keep_alive dropped it.
    assert!(!s.cancel_seek(p[0]).await.unwrap());
    assert_eq!(s.others_alive(&bi, late, LEASE).await.unwrap(), 0);
    assert_eq!(s.others_alive(&a, late, LEASE).await.unwrap(), 1);
    // A comes back: its new request pairs with B's.
    s.keep_alive(&a, late, LEASE).await.unwrap();
    assert_eq!(s.others_alive(&bi, late, LEASE).await.unwrap(), 1);
    let out = s
        .seek(&request(p[0], "A", 1, 9, Any), true, late, LEASE, DEADLINE)
        .await
        .unwrap();
    assert_eq!(paired(out).1, p[2]);
    // Retiring drops an instance's requests at once.
    assert_eq!(seek(s, &request(p[1], "B", 2, 13, Any), true).await, w);
    s.retire(&bi).await.unwrap();
    assert!(!s.cancel_seek(p[1]).await.unwrap());
    assert_eq!(s.others_alive(&a, late, LEASE).await.unwrap(), 0);
}

/// 50 players seek at once from 50 tasks on two instances; every one is paired exactly once.
async fn fifty_players_at_once_make_25_games(b: Backend) {
    let db = Db::new(b).await;
    let store = Arc::new(db.store);
    let p = players(&store, 100).await;
    store.keep_alive(&instance("A"), T0, LEASE).await.unwrap();
    store.keep_alive(&instance("B"), T0, LEASE).await.unwrap();
    // Round one: 25 Black and 25 White; round two: 50 Any. Either way every order pairs everyone.
    for (round, players) in p.chunks(50).enumerate() {
        let tasks: Vec<_> = players
            .iter()
            .enumerate()
            .map(|(i, &player)| {
                let store = Arc::clone(&store);
                let color = match (round, i % 2) {
                    (0, 0) => Black,
                    (0, _) => White,
                    _ => Any,
                };
                let on = if i % 3 == 0 { "A" } else { "B" };
                let r = request(player, on, i as u64, 9, color);
                tokio::spawn(async move {
                    let out = store.seek(&r, i % 4 == 0, T0, LEASE, DEADLINE).await;
                    (player, out.expect("seek"))
                })
            })
            .collect();
        let mut games = HashSet::new();
        let mut seen = HashSet::new();
        for t in tasks {
            let (player, out) = t.await.unwrap();
            if let SeekOutcome::Paired { game, waiting, .. } = out {
                assert!(games.insert(game));
                assert!(seen.insert(player), "{player} paired twice");
                assert!(
                    seen.insert(waiting.player),
                    "{} paired twice",
                    waiting.player
                );
                let g = store.game(game).await.unwrap().unwrap();
                let mut both = [g.black.0, g.white.0];
                both.sort();
                let mut expected = [player, waiting.player];
                expected.sort();
                assert_eq!(both, expected);
            }
        }
        assert_eq!(games.len(), 25, "round {round}");
        assert_eq!(seen.len(), 50);
    }
    assert_eq!(store.unfinished().await.unwrap().len(), 50);
}

async fn a_game_made_outside_the_queue_drops_both_requests_and_runs_on_its_instance(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 3).await;
    assert_eq!(s.player_id("p1").await.unwrap(), Some(p[1]));
    assert_eq!(s.player_id("nobody").await.unwrap(), None);
    s.keep_alive(&instance("A"), T0, LEASE).await.unwrap();
    assert_eq!(
        seek(s, &request(p[0], "A", 1, 9, Any), true).await,
        SeekOutcome::Waiting
    );
    let new = NewGame {
        size: 13,
        black: p[1],
        white: p[0],
        instance: instance("A"),
        now: T0,
        first_deadline: DEADLINE,
    };
    let game = s.create_game(&new).await.unwrap();
    let row = s.game(game).await.unwrap().unwrap();
    assert_eq!((row.size, row.black.0, row.white.0), (13, p[1], p[0]));
    assert_eq!((row.moves.len(), row.deadline), (0, DEADLINE));
    // P0's request left the queue with the game: P2 waits rather than meeting a busy player.
    assert_eq!(
        seek(s, &request(p[2], "A", 3, 9, Any), true).await,
        SeekOutcome::Waiting
    );
    assert_eq!(
        s.clocked_games_of(p[0], &instance("A")).await.unwrap(),
        vec![game]
    );
    assert_eq!(
        s.clocked_games_of(p[1], &instance("A")).await.unwrap(),
        vec![game]
    );
    assert!(s
        .clocked_games_of(p[2], &instance("A"))
        .await
        .unwrap()
        .is_empty());
    assert!(s
        .clocked_games_of(p[0], &instance("B"))
        .await
        .unwrap()
        .is_empty());
    // When A falls silent, B takes the clock, and the game is B's to play.
    s.keep_alive(&instance("B"), T0 + LEASE + 1, LEASE)
        .await
        .unwrap();
    assert_eq!(
        s.clocked_games_of(p[0], &instance("B")).await.unwrap(),
        vec![game]
    );
    assert!(s
        .clocked_games_of(p[0], &instance("A"))
        .await
        .unwrap()
        .is_empty());
}
