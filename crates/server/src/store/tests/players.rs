//! Players, tokens, records and the leaderboard.

use super::*;
use std::sync::Arc;

on_every_backend!(
    names_are_unique_and_tokens_find_players,
    concurrent_registrations_of_one_name_give_it_once,
    records_count_rated_games_per_size,
    a_counted_unrated_game_is_in_the_records_and_not_on_the_leaderboard,
    old_keys_follow_the_look_alike_rule_after_a_rekey,
);

async fn names_are_unique_and_tokens_find_players(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let ada = s.create_player("Ada", "ada", &[1; 32]).await.unwrap();
    let bob = s.create_player("Bob", "bob", &[2; 32]).await.unwrap();
    assert_ne!(ada, bob);
    assert!(matches!(
        s.create_player("ADA", "ada", &[3; 32]).await,
        Err(CreatePlayerError::Taken)
    ));
    // A token is unique too, but a clash there is not a taken name.
    assert!(matches!(
        s.create_player("Cy", "cy", &[1; 32]).await,
        Err(CreatePlayerError::Store(_))
    ));
    let found = s.player_by_token(&[2; 32]).await.unwrap().unwrap();
    assert_eq!(
        found,
        PlayerRow {
            id: bob,
            name: "Bob".into(),
            wins: 0,
            losses: 0
        }
    );
    assert!(s.player_by_token(&[9; 32]).await.unwrap().is_none());
    let record = s.record("ada").await.unwrap().unwrap();
    assert_eq!(record.name, "Ada");
    assert_eq!(record.by_size, [(9, 0, 0), (13, 0, 0), (19, 0, 0)]);
    assert!(s.record("nobody").await.unwrap().is_none());
    // Still usable after the refusals (SQLite: each request in its own savepoint).
    s.create_player("Cy", "cy", &[3; 32]).await.unwrap();
}

async fn concurrent_registrations_of_one_name_give_it_once(b: Backend) {
    let db = Db::new(b).await;
    let store = Arc::new(db.store);
    let tasks: Vec<_> = (0..100u8)
        .map(|i| {
            let store = Arc::clone(&store);
            tokio::spawn(async move {
                let key = format!("n{}", i / 2);
                store.create_player(&key, &key, &[i; 32]).await
            })
        })
        .collect();
    let (mut made, mut taken) = (0, 0);
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => made += 1,
            Err(CreatePlayerError::Taken) => taken += 1,
            Err(CreatePlayerError::Store(e)) => panic!("{e}"),
        }
    }
    assert_eq!((made, taken), (50, 50));
    for i in 0..50 {
        assert!(store.record(&format!("n{i}")).await.unwrap().is_some());
    }
}

async fn records_count_rated_games_per_size(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 4).await;
    let (a, bo, c) = (p[0], p[1], p[2]);
    let far = T0 + 1_000_000;
    // a beats b on 9 and c on 13; b beats c on 9; c beats a on 19 unrated; a draw, rated.
    for (winner, loser, size, rated) in [
        (a, bo, 9, true),
        (a, c, 13, true),
        (bo, c, 9, true),
        (c, a, 19, false),
    ] {
        let g = new_game(s, winner, loser, size, far).await;
        assert!(s.finish(g, &win(winner, loser, 0, rated)).await.unwrap());
    }
    let g = new_game(s, a, bo, 9, far).await;
    let draw = Finish {
        result: "0".into(),
        winner_loser: None,
        score: Some((40, 41)),
        reason: EndReason::Passes,
        counted: true,
        rated: true,
        moves: 0,
        late_at: None,
    };
    assert!(s.finish(g, &draw).await.unwrap());
    assert_eq!(s.game(g).await.unwrap().unwrap().score, Some((40, 41)));

    let ra = s.record("p0").await.unwrap().unwrap();
    assert_eq!((ra.wins, ra.losses), (2, 0));
    assert_eq!(ra.by_size, [(9, 1, 0), (13, 1, 0), (19, 0, 0)]);
    let rc = s.record("p2").await.unwrap().unwrap();
    assert_eq!((rc.wins, rc.losses), (0, 2));
    assert_eq!(rc.by_size, [(9, 0, 1), (13, 0, 1), (19, 0, 0)]);
    let by_token = s.player_by_token(b"token 1").await.unwrap().unwrap();
    assert_eq!((by_token.wins, by_token.losses), (1, 1));
    // p3 has no game: not on the board. Most wins, then fewest losses, then name.
    assert_eq!(
        s.leaderboard(20).await.unwrap(),
        [
            ("P0".to_string(), 2, 0),
            ("P1".to_string(), 1, 1),
            ("P2".to_string(), 0, 2)
        ]
    );
    assert_eq!(s.leaderboard(1).await.unwrap().len(), 1);
}

/// A short game, or a fourth a day between two players, counts in both records but not on the
/// leaderboard, which ranks rated games only.
async fn a_counted_unrated_game_is_in_the_records_and_not_on_the_leaderboard(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let p = players(s, 3).await;
    let far = T0 + 1_000_000;
    let g = new_game(s, p[0], p[1], 9, far).await;
    assert!(s.finish(g, &counted_win(p[1], p[0], 0)).await.unwrap());
    let g = new_game(s, p[2], p[0], 13, far).await;
    assert!(s.finish(g, &win(p[2], p[0], 0, true)).await.unwrap());
    let winner = s.record("p1").await.unwrap().unwrap();
    assert_eq!(
        (winner.wins, winner.losses, winner.by_size[0]),
        (1, 0, (9, 1, 0))
    );
    let loser = s.player_by_token(b"token 0").await.unwrap().unwrap();
    assert_eq!((loser.wins, loser.losses), (0, 2));
    assert_eq!(
        s.record("p0").await.unwrap().unwrap().by_size,
        [(9, 0, 1), (13, 0, 1), (19, 0, 0)]
    );
    assert_eq!(s.rated_between(p[0], p[1], 0).await.unwrap(), 0);
    assert_eq!(
        s.leaderboard(20).await.unwrap(),
        [("P2".to_string(), 1, 0), ("P0".to_string(), 0, 1)],
        "P1's win is not rated"
    );
}

/// Players registered when keys were the lower-cased name: after the re-key, `Tom` is found by its
/// look-alike key, and `Тоm` (Cyrillic Т and о), registered later, keeps a key of its own.
async fn old_keys_follow_the_look_alike_rule_after_a_rekey(b: Backend) {
    let db = Db::new(b).await;
    let s = &db.store;
    let tom = s.create_player("Tom", "tom", &[1; 32]).await.unwrap();
    let fake = s.create_player("Тоm", "тоm", &[2; 32]).await.unwrap();
    s.create_player("Ada", "ada", &[3; 32]).await.unwrap();
    let key = crate::names::name_key;
    assert_eq!(
        s.rekey_players(key).await.unwrap(),
        2,
        "Ada's key is already right"
    );
    assert_eq!(s.record(&key("TOM")).await.unwrap().unwrap().name, "Tom");
    assert_eq!(s.record(&key("ada")).await.unwrap().unwrap().name, "Ada");
    let own = format!("{}#{fake}", key("Тоm"));
    assert_eq!(s.record(&own).await.unwrap().unwrap().name, "Тоm");
    assert!(matches!(
        s.create_player("TOM", &key("TOM"), &[4; 32]).await,
        Err(CreatePlayerError::Taken)
    ));
    // A second re-key changes nothing.
    assert_eq!(s.rekey_players(key).await.unwrap(), 0);
    assert!(tom < fake);
}
