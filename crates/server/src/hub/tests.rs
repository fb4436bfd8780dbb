//! The hub without sockets: connections are queues the tests read, and other instances are played by
//! writing to the store directly.

use super::*;
use crate::games::Out;
use crate::store::SeekRow;
use gridarena_engine::SplitMix64;
use tokio::sync::mpsc;

/// A hub on a private database, with no follower of its own: the tests feed it events.
pub(super) async fn hub() -> Arc<Hub> {
    let store = Store::open_in_memory().await.unwrap();
    let config = HubConfig {
        move_time: Duration::from_secs(300),
        lease: Duration::from_secs(5),
        house: HouseConfig::none(),
        sockets_per_player: crate::MAX_SOCKETS_PER_PLAYER,
    };
    Hub::start(store, config).await.unwrap()
}

/// A player who said hello on a connection of `hub`, and what the connection receives.
pub(super) async fn player(
    hub: &Hub,
    name: &str,
) -> (Conn, crate::games::Seat, mpsc::Receiver<Out>) {
    let (_, _, token) = hub.register(name).await.unwrap();
    let (tx, rx) = mpsc::channel(1024);
    let conn = Conn::new(hub.next_conn_id(), tx);
    let seat = hub.hello(&conn, &token).await.unwrap();
    (conn, seat, rx)
}

pub(super) fn received(rx: &mut mpsc::Receiver<Out>) -> Vec<ServerMsg> {
    let mut out = Vec::new();
    while let Ok(Out::Text(text)) = rx.try_recv() {
        out.push(serde_json::from_str(&text).unwrap());
    }
    out
}

/// Ada, connected to `hub`, asks for a 9x9 game and is paired with a player who asks on another
/// instance, as that instance would pair them: nobody tells `hub`. Ada's connection, what it receives
/// (read up to the pairing), and the game.
pub(super) async fn waiting_and_paired_elsewhere(hub: &Hub) -> (Conn, mpsc::Receiver<Out>, GameId) {
    let (conn, seat, mut rx) = player(hub, "Ada").await;
    hub.seek(&conn, &seat, 9, ColorPref::Any).await;
    let (other, _, _) = hub.register("Elsewhere").await.unwrap();
    let now = now_ms();
    let request = SeekRow {
        player: other,
        name: "Elsewhere".into(),
        instance: InstanceId("another instance".into()),
        conn: 1,
        size: 9,
        color: ColorPref::Any,
    };
    let outcome = hub
        .store()
        .seek(&request, true, now, 5000, now + 300_000)
        .await
        .unwrap();
    let SeekOutcome::Paired { game, .. } = outcome else {
        panic!("not paired: {outcome:?}")
    };
    received(&mut rx);
    (conn, rx, game)
}

/// Two players of `hub` paired with each other: (game, black's conn, seat and queue, white's).
type Side = (Conn, crate::games::Seat, mpsc::Receiver<Out>);

async fn paired(hub: &Hub) -> (GameId, Side, Side) {
    let ada = player(hub, "Ada").await;
    let bob = player(hub, "Bob").await;
    hub.seek(&ada.0, &ada.1, 9, ColorPref::Any).await;
    hub.seek(&bob.0, &bob.1, 9, ColorPref::Any).await;
    let (mut ada, bob) = (ada, bob);
    let told = received(&mut ada.2);
    let Some((game, ada_black)) = told.iter().find_map(|m| match m {
        ServerMsg::Matched { game, color, .. } => Some((*game, color == "black")),
        _ => None,
    }) else {
        panic!("Ada was not paired: {told:?}")
    };
    let (mut black, mut white) = if ada_black { (ada, bob) } else { (bob, ada) };
    received(&mut black.2);
    received(&mut white.2);
    (game, black, white)
}

/// `n` legal 9x9 moves with no two passes in a row, from a seeded random player that may fill its own
/// eyes: groups die, the board empties again, and the game goes long.
fn long_game(n: usize) -> Vec<String> {
    let mut rng = SplitMix64::new(7);
    let mut game = Game::new(BoardSize::NINE);
    let mut moves = Vec::with_capacity(n);
    while moves.len() < n {
        let stones: Vec<Move> = game
            .legal_moves()
            .into_iter()
            .filter(|m| matches!(m, Move::Play(_)))
            .collect();
        let mv = match stones.len() {
            0 => Move::Pass,
            len => stones[rng.below(len as u64) as usize],
        };
        game.play(mv).unwrap();
        assert!(
            !game.is_over(),
            "the seeded game ends by passes at move {}",
            moves.len() + 1
        );
        moves.push(mv.to_gtp());
    }
    moves
}

fn no_errors(told: &[ServerMsg]) {
    for m in told {
        assert!(!matches!(m, ServerMsg::Error { .. }), "{m:?}");
    }
}

#[tokio::test]
async fn a_game_ends_at_the_move_cap_counted_by_area() {
    let hub = hub().await;
    let (game, mut black, mut white) = paired(&hub).await;
    let cap = policy::max_moves(BoardSize::NINE) as usize;
    let moves = long_game(cap + 1);
    for (i, mv) in moves[..cap].iter().enumerate() {
        let mover = if i % 2 == 0 { &black } else { &white };
        hub.play(&mover.0, &mover.1, game, mv).await;
        let told = received(&mut black.2);
        no_errors(&told);
        received(&mut white.2);
        if i + 1 < cap {
            assert!(
                !told.iter().any(|m| matches!(m, ServerMsg::Ended { .. })),
                "ended at move {}",
                i + 1
            );
        } else {
            let ended = told.iter().find_map(|m| match m {
                ServerMsg::Ended { result, score, .. } => Some((result.clone(), *score)),
                _ => None,
            });
            let Some((result, Some(_))) = ended else {
                panic!("no counted end at the cap: {told:?}")
            };
            assert!(!result.contains('R') && !result.contains('T'), "{result}");
        }
    }
    assert_eq!(hub.live_games(), 0);
    let stored = hub.store().game(game).await.unwrap().unwrap();
    assert_eq!(stored.moves.len(), cap);
    assert!(stored.result.is_some());
    // Nothing after the cap.
    let mover = if cap % 2 == 0 { &black } else { &white };
    hub.play(&mover.0, &mover.1, game, &moves[cap]).await;
    let told = received(if cap % 2 == 0 {
        &mut black.2
    } else {
        &mut white.2
    });
    assert!(
        matches!(&told[..], [ServerMsg::Error { message, .. }] if message.contains("is over")),
        "{told:?}"
    );
}

#[tokio::test]
async fn a_finished_game_is_served_from_memory_not_replayed_from_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.sqlite3");
    let store = Store::open(&path.display().to_string()).await.unwrap();
    let config = HubConfig {
        move_time: Duration::from_secs(300),
        lease: Duration::from_secs(5),
        house: HouseConfig::none(),
        sockets_per_player: crate::MAX_SOCKETS_PER_PLAYER,
    };
    let hub = Hub::start(store, config).await.unwrap();
    let (game, black, white) = paired(&hub).await;
    for (i, mv) in crate::store::testing::OPENING.iter().enumerate() {
        let mover = if i % 2 == 0 { &black } else { &white };
        hub.play(&mover.0, &mover.1, game, mv).await;
    }
    hub.resign(&white.0, &white.1, game).await;
    assert_eq!(hub.live_games(), 0);
    // The moves leave the database behind the hub's back: what is served does not change.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute("DELETE FROM moves WHERE game_id = ?1", [game])
        .unwrap();
    drop(raw);
    let sgf = hub.sgf(game).await.unwrap().unwrap();
    assert_eq!(
        sgf.matches(";B[").count() + sgf.matches(";W[").count(),
        10,
        "{sgf}"
    );
    assert!(sgf.contains("RE[B+R]"), "{sgf}");
    let (spectator, _, mut seen) = player(&hub, "Cy").await;
    let mut watched = HashSet::new();
    hub.watch(&spectator, game, &mut watched).await;
    let told = received(&mut seen);
    assert!(
        told.iter().any(|m| matches!(m, ServerMsg::Snapshot(s)
            if s.game == game && s.moves.len() == 10 && s.result.as_deref() == Some("B+R"))),
        "{told:?}"
    );
}
