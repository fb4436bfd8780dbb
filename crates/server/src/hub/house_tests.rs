//! The house player through the hub, as a person's connection meets it.

use super::tests::player;
use super::*;
use crate::games::Out;
use crate::store::NewGame;
use tokio::sync::mpsc;

/// A hub whose house plays `games` games at once, thinking 20 ms a move.
async fn hub_with_house(games: usize) -> Arc<Hub> {
    let store = Store::open_in_memory().await.unwrap();
    let config = HubConfig {
        move_time: Duration::from_secs(300),
        lease: Duration::from_secs(5),
        house: HouseConfig {
            games,
            think: Duration::from_millis(20),
            searches: 1,
        },
        sockets_per_player: crate::MAX_SOCKETS_PER_PLAYER,
    };
    Hub::start(store, config).await.unwrap()
}

/// The next message on a connection, waiting for it (the house answers from another task).
async fn next(rx: &mut mpsc::Receiver<Out>) -> ServerMsg {
    loop {
        let out = tokio::time::timeout(Duration::from_secs(30), rx.recv())
            .await
            .expect("a message within 30 s")
            .expect("the connection is open");
        if let Out::Text(text) = out {
            return ServerMsg::parse(&text).unwrap();
        }
    }
}

/// Reads up to the next move of `color` in `game` (or the end), checking there is no error on the way.
async fn until_move_of(rx: &mut mpsc::Receiver<Out>, color: Color) -> ServerMsg {
    loop {
        match next(rx).await {
            m @ ServerMsg::Move { .. } if matches!(&m, ServerMsg::Move { color: c, .. } if c == color.name()) => {
                return m
            }
            m @ ServerMsg::Ended { .. } => return m,
            m @ ServerMsg::Error { .. } => panic!("{m:?}"),
            _ => {}
        }
    }
}

/// The first of `wanted` that is empty and legal for the side to move, else a pass.
fn first_legal(game: &Game, wanted: &[&str]) -> String {
    wanted
        .iter()
        .filter_map(|w| Move::from_gtp(w, game.size()).ok())
        .find(|&mv| game.check(mv).is_ok())
        .unwrap_or(Move::Pass)
        .to_gtp()
}

#[tokio::test]
async fn a_person_plays_the_house_through_the_same_rules_clock_and_records() {
    let hub = hub_with_house(2).await;
    let (conn, me, mut rx) = player(&hub, "Ada").await;
    assert!(
        matches!(next(&mut rx).await, ServerMsg::Welcome { house: Some(h), .. } if h == HOUSE_NAME)
    );
    hub.house_game(&conn, &me, 9, ColorPref::Black).await;
    let ServerMsg::Matched {
        game: id,
        color,
        opponent,
        size: 9,
    } = next(&mut rx).await
    else {
        panic!("not matched")
    };
    assert_eq!((color.as_str(), opponent.as_str()), ("black", HOUSE_NAME));
    assert!(matches!(next(&mut rx).await, ServerMsg::Snapshot(s) if s.white == HOUSE_NAME));
    // Ada plays six moves; the house answers each with a move the engine accepts.
    let mut game = Game::new(BoardSize::NINE);
    let wanted = [
        "C3", "G7", "C7", "G3", "E5", "D4", "F6", "D6", "F4", "E3", "E7", "C5",
    ];
    for _ in 0..6 {
        let mv = first_legal(&game, &wanted);
        hub.play(&conn, &me, id, &mv).await;
        game.play(Move::from_gtp(&mv, game.size()).unwrap())
            .unwrap();
        let ServerMsg::Move { mv: answer, .. } = until_move_of(&mut rx, Color::White).await else {
            panic!("the house did not answer")
        };
        let answer = Move::from_gtp(&answer, game.size()).unwrap();
        assert!(answer != Move::Resign, "the house resigned an even game");
        game.play(answer).unwrap();
    }
    hub.resign(&conn, &me, id).await;
    assert!(
        matches!(until_move_of(&mut rx, Color::White).await, ServerMsg::Ended { result, .. } if result == "W+R")
    );
    // Twelve moves: a rated game, on the leaderboard under the house's name.
    let board = hub.store().leaderboard(10).await.unwrap();
    assert!(board.contains(&(HOUSE_NAME.to_string(), 1, 0)), "{board:?}");
    let stored = hub.store().game(id).await.unwrap().unwrap();
    assert_eq!(stored.moves.len(), 12);
    assert_eq!(stored.white.1, HOUSE_NAME);
}

#[tokio::test]
async fn the_house_opens_as_black_and_a_request_waiting_in_the_queue_is_dropped() {
    let hub = hub_with_house(2).await;
    let (conn, me, mut rx) = player(&hub, "Ada").await;
    next(&mut rx).await;
    hub.seek(&conn, &me, 9, ColorPref::Any).await;
    assert!(matches!(next(&mut rx).await, ServerMsg::Waiting { .. }));
    hub.house_game(&conn, &me, 13, ColorPref::White).await;
    assert!(
        matches!(next(&mut rx).await, ServerMsg::Matched { color, size: 13, .. } if color == "white")
    );
    assert!(matches!(
        until_move_of(&mut rx, Color::Black).await,
        ServerMsg::Move { move_number: 1, .. }
    ));
    // Bob's seek finds nobody: Ada's request left the queue when her game began.
    let (bob, bob_seat, mut bob_rx) = player(&hub, "Bob").await;
    next(&mut bob_rx).await;
    hub.seek(&bob, &bob_seat, 9, ColorPref::Any).await;
    assert!(matches!(next(&mut bob_rx).await, ServerMsg::Waiting { .. }));
}

#[tokio::test]
async fn the_house_plays_one_game_per_person_and_no_more_than_its_cap() {
    let hub = hub_with_house(1).await;
    let (ada, ada_seat, mut ada_rx) = player(&hub, "Ada").await;
    let (bob, bob_seat, mut bob_rx) = player(&hub, "Bob").await;
    next(&mut ada_rx).await;
    next(&mut bob_rx).await;
    hub.house_game(&ada, &ada_seat, 10, ColorPref::Any).await;
    assert!(
        matches!(next(&mut ada_rx).await, ServerMsg::Error { message, .. } if message.contains("9, 13 or 19"))
    );
    hub.house_game(&ada, &ada_seat, 9, ColorPref::Black).await;
    assert!(matches!(next(&mut ada_rx).await, ServerMsg::Matched { .. }));
    next(&mut ada_rx).await;
    hub.house_game(&ada, &ada_seat, 9, ColorPref::Black).await;
    assert!(
        matches!(next(&mut ada_rx).await, ServerMsg::Error { message, .. } if message.contains("already")),
    );
    hub.house_game(&bob, &bob_seat, 9, ColorPref::Black).await;
    assert!(
        matches!(next(&mut bob_rx).await, ServerMsg::Error { message, .. } if message.contains("as many games")),
    );
    // A server without a house says so.
    let plain = super::tests::hub().await;
    let (cy, cy_seat, mut cy_rx) = player(&plain, "Cy").await;
    assert!(matches!(
        next(&mut cy_rx).await,
        ServerMsg::Welcome { house: None, .. }
    ));
    plain.house_game(&cy, &cy_seat, 9, ColorPref::Any).await;
    assert!(
        matches!(next(&mut cy_rx).await, ServerMsg::Error { message, .. } if message.contains("no AI player"))
    );
}

#[tokio::test]
async fn the_house_plays_the_games_whose_clock_this_instance_runs_and_only_those() {
    // A game from before a restart: in the store, the house to move, unknown to the hub.
    let hub = hub_with_house(2).await;
    let (_, me, _rx) = player(&hub, "Ada").await;
    let house_id = hub.house.as_ref().unwrap().seat.id;
    let now = now_ms();
    let new = NewGame {
        size: 9,
        black: house_id,
        white: me.id,
        instance: hub.instance().clone(),
        now,
        first_deadline: now + 300_000,
    };
    let id = hub.store().create_game(&new).await.unwrap();
    hub.take_up_house_games().await;
    let started = std::time::Instant::now();
    while hub
        .store()
        .game(id)
        .await
        .unwrap()
        .unwrap()
        .moves
        .is_empty()
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the house never moved"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Another instance takes the clock over (this one looked silent to it): the house lets go.
    let later = now_ms() + 60_000;
    let other = InstanceId("another instance".into());
    assert_eq!(
        hub.store().keep_alive(&other, later, 5_000).await.unwrap(),
        1
    );
    let house = hub.house.as_ref().unwrap();
    while house.plays(id) {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the house kept a game another instance runs"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
