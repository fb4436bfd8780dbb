//! Moves and the end of a game: in order only, in time only, never after the end; one winner among
//! concurrent writers; a game ends once and counts once.

use super::*;
use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

on_every_backend!(
    moves_are_stored_in_order_and_in_time,
    of_two_concurrent_moves_one_is_stored,
    many_moves_at_once_are_each_judged_on_their_own_game,
    a_game_ends_once_and_counts_once,
    a_move_and_a_finish_racing_do_not_both_win,
    a_players_unfinished_games_come_with_their_moves,
);

const DEADLINE: Millis = T0 + 300_000;

async fn moves_are_stored_in_order_and_in_time(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 2).await;
    let g = new_game(s, p[0], p[1], 9, DEADLINE).await;
    let next = DEADLINE + 300_000;
    assert_eq!(
        s.add_move(g, 2, 'W', "E5", T0, next).await.unwrap(),
        Err(MoveRefusal::OutOfStep { stored: 0 })
    );
    assert_eq!(
        s.add_move(g, 0, 'W', "E5", T0, next).await.unwrap(),
        Err(MoveRefusal::OutOfStep { stored: 0 })
    );
    assert_eq!(s.add_move(g, 1, 'B', "D4", T0, next).await.unwrap(), Ok(()));
    assert_eq!(
        s.add_move(g, 1, 'B', "D4", T0, next).await.unwrap(),
        Err(MoveRefusal::OutOfStep { stored: 1 })
    );
    // After the deadline: too late; at it exactly: in time.
    assert_eq!(
        s.add_move(g, 2, 'W', "pass", next + 1, next + 10)
            .await
            .unwrap(),
        Err(MoveRefusal::TooLate)
    );
    assert_eq!(
        s.add_move(g, 2, 'W', "pass", next, next + 10)
            .await
            .unwrap(),
        Ok(())
    );
    let game = s.game(g).await.unwrap().unwrap();
    assert_eq!(game.moves, ["D4", "pass"]);
    assert_eq!(game.deadline, next + 10);
    assert!(s.finish(g, &win(p[0], p[1], 2, true)).await.unwrap());
    assert_eq!(
        s.add_move(g, 3, 'B', "C3", T0, next).await.unwrap(),
        Err(MoveRefusal::Over)
    );
    assert_eq!(
        s.add_move(g + 1000, 1, 'B', "C3", T0, next).await.unwrap(),
        Err(MoveRefusal::Over)
    );
    assert_eq!(
        s.add_move(u64::MAX, 1, 'B', "C3", T0, next).await.unwrap(),
        Err(MoveRefusal::Over)
    );
    assert!(s.game(g + 1000).await.unwrap().is_none());
    assert!(s.game(u64::MAX).await.unwrap().is_none());
}

async fn of_two_concurrent_moves_one_is_stored(b: Backend) {
    let db = Db::new(b).await;
    let store = Arc::new(db.store);
    let p = players(&store, 2).await;
    for _ in 0..20 {
        let g = new_game(&store, p[0], p[1], 9, DEADLINE).await;
        let tasks: Vec<_> = ["D4", "Q16"]
            .into_iter()
            .map(|mv| {
                let store = Arc::clone(&store);
                tokio::spawn(async move {
                    let out = store.add_move(g, 1, 'B', mv, T0, DEADLINE).await;
                    (mv, out.expect("add_move"))
                })
            })
            .collect();
        let mut won = Vec::new();
        for t in tasks {
            match t.await.unwrap() {
                (mv, Ok(())) => won.push(mv),
                (_, refused) => assert_eq!(refused, Err(MoveRefusal::OutOfStep { stored: 1 })),
            }
        }
        assert_eq!(won.len(), 1);
        assert_eq!(store.game(g).await.unwrap().unwrap().moves, won);
    }
}

/// Moves of many games arriving together (PostgreSQL stores them several to a statement): each is
/// stored or refused for its own game's reasons, and each stored one is heard of once.
async fn many_moves_at_once_are_each_judged_on_their_own_game(b: Backend) {
    let db = Db::new(b).await;
    let store = Arc::new(db.store);
    let mut heard = store.events();
    let p = players(&store, 2).await;
    let mut games = Vec::new();
    for _ in 0..60 {
        games.push(new_game(&store, p[0], p[1], 9, DEADLINE).await);
    }
    let late = DEADLINE + 1;
    // By the game's place in the list: a first move in time; one out of step; one too late; and a
    // game that does not exist.
    let tasks: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let (game, number, now) = match i % 4 {
                    0 => (g, 1, T0),
                    1 => (g, 2, T0),
                    2 => (g, 1, late),
                    _ => (g + 1_000_000, 1, T0),
                };
                let mv = format!("C{}", i % 9 + 1);
                let out = store
                    .add_move(game, number, 'B', &mv, now, DEADLINE + 5)
                    .await
                    .expect("add_move");
                (i, mv, out)
            })
        })
        .collect();
    let mut stored = 0;
    for t in tasks {
        let (i, mv, out) = t.await.unwrap();
        let g = games[i];
        let expected = match i % 4 {
            0 => Ok(()),
            1 => Err(MoveRefusal::OutOfStep { stored: 0 }),
            2 => Err(MoveRefusal::TooLate),
            _ => Err(MoveRefusal::Over),
        };
        assert_eq!(out, expected, "game {i}");
        let row = store.game(g).await.unwrap().unwrap();
        if out.is_ok() {
            stored += 1;
            assert_eq!(row.moves, [mv]);
            assert_eq!(row.deadline, DEADLINE + 5);
        } else {
            assert!(row.moves.is_empty(), "game {i}: {:?}", row.moves);
            assert_eq!(row.deadline, DEADLINE);
        }
    }
    assert_eq!(stored, 15);
    if let Some(events) = heard.as_mut() {
        let mut moved = HashSet::new();
        while moved.len() < stored {
            match tokio::time::timeout(Duration::from_secs(5), events.recv()).await {
                Ok(Ok(Event::Moved {
                    game,
                    number: 1,
                    deadline,
                    ..
                })) => {
                    assert_eq!(deadline, DEADLINE + 5);
                    assert!(moved.insert(game), "game {game} heard twice");
                }
                Ok(Ok(_)) => {}
                other => panic!("{other:?} after {} moves heard", moved.len()),
            }
        }
    }
}

async fn a_game_ends_once_and_counts_once(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 2).await;
    let g = new_game(s, p[0], p[1], 13, DEADLINE).await;
    s.add_move(g, 1, 'B', "D4", T0, DEADLINE + 1000)
        .await
        .unwrap()
        .unwrap();
    let before = now_ms();
    // The caller's copy lacks the move: refused.
    assert!(!s.finish(g, &win(p[0], p[1], 0, true)).await.unwrap());
    // A clock that woke before the stored deadline: refused; at it: the game ends.
    let timeout = Finish {
        result: "B+T".into(),
        reason: EndReason::Time,
        late_at: Some(DEADLINE + 999),
        ..win(p[0], p[1], 1, true)
    };
    assert!(!s.finish(g, &timeout).await.unwrap());
    let timeout = Finish {
        late_at: Some(DEADLINE + 1000),
        ..timeout
    };
    assert!(s.finish(g, &timeout).await.unwrap());
    assert!(!s.finish(g, &timeout).await.unwrap());
    assert!(!s.finish(g, &win(p[1], p[0], 1, true)).await.unwrap());
    let game = s.game(g).await.unwrap().unwrap();
    assert_eq!(game.result.as_deref(), Some("B+T"));
    assert_eq!(game.moves, ["D4"]);
    assert!(s.unfinished().await.unwrap().is_empty());
    let r = s.record("p0").await.unwrap().unwrap();
    assert_eq!((r.wins, r.losses, r.by_size[1]), (1, 0, (13, 1, 0)));
    let r = s.record("p1").await.unwrap().unwrap();
    assert_eq!((r.wins, r.losses, r.by_size[1]), (0, 1, (13, 0, 1)));
    assert_eq!(s.rated_between(p[1], p[0], before).await.unwrap(), 1);
    assert_eq!(
        s.rated_between(p[0], p[1], now_ms() + 60_000)
            .await
            .unwrap(),
        0
    );
    // An unrated game ends but counts nowhere.
    let g = new_game(s, p[0], p[1], 13, DEADLINE).await;
    assert!(s.finish(g, &win(p[1], p[0], 0, false)).await.unwrap());
    let r = s.record("p1").await.unwrap().unwrap();
    assert_eq!((r.wins, r.losses), (0, 1));
    assert_eq!(s.rated_between(p[0], p[1], before).await.unwrap(), 1);
    assert!(!s
        .finish(u64::MAX, &win(p[1], p[0], 0, false))
        .await
        .unwrap());
}

async fn a_move_and_a_finish_racing_do_not_both_win(b: Backend) {
    let db = Db::new(b).await;
    let store = Arc::new(db.store);
    let p = players(&store, 2).await;
    for _ in 0..20 {
        let g = new_game(&store, p[0], p[1], 9, DEADLINE).await;
        let mover = {
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.add_move(g, 1, 'B', "D4", T0, DEADLINE).await })
        };
        let resigner = {
            let store = Arc::clone(&store);
            let f = win(p[0], p[1], 0, true);
            tokio::spawn(async move { store.finish(g, &f).await })
        };
        let moved = mover.await.unwrap().unwrap();
        let ended = resigner.await.unwrap().unwrap();
        let game = store.game(g).await.unwrap().unwrap();
        match (moved, ended) {
            (Ok(()), false) => assert_eq!((game.moves.len(), game.result.as_deref()), (1, None)),
            (Err(MoveRefusal::Over), true) => assert!(game.moves.is_empty()),
            other => panic!("both or neither: {other:?}"),
        }
        if game.result.is_none() {
            assert!(store.finish(g, &win(p[0], p[1], 1, false)).await.unwrap());
        }
    }
}

async fn a_players_unfinished_games_come_with_their_moves(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 3).await;
    let g1 = new_game(s, p[0], p[1], 9, DEADLINE).await;
    let g2 = new_game(s, p[2], p[0], 13, DEADLINE).await;
    let g3 = new_game(s, p[1], p[2], 19, DEADLINE).await;
    let g4 = new_game(s, p[0], p[2], 9, DEADLINE).await;
    for (n, mv) in ["D4", "E5", "pass"].into_iter().enumerate() {
        let n = n as u32 + 1;
        let color = if n % 2 == 1 { 'B' } else { 'W' };
        s.add_move(g2, n, color, mv, T0, DEADLINE)
            .await
            .unwrap()
            .unwrap();
    }
    assert!(s.finish(g4, &win(p[0], p[2], 0, true)).await.unwrap());
    let mine = s.unfinished_of(p[0]).await.unwrap();
    assert_eq!(mine.iter().map(|g| g.id).collect::<Vec<_>>(), [g1, g2]);
    assert_eq!(mine[1].moves, ["D4", "E5", "pass"]);
    assert_eq!(
        (mine[1].black.clone(), mine[1].white.clone()),
        ((p[2], "P2".to_string()), (p[0], "P0".to_string()))
    );
    assert_eq!(s.unfinished().await.unwrap(), [g1, g2, g3]);
    assert!(s.unfinished_of(999_999).await.unwrap().is_empty());
}
