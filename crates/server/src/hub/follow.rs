//! Following the other instances (PostgreSQL): a move or an end stored elsewhere reaches this
//! instance's copy and its followers; a pairing made elsewhere for a connection here is told to it.
//!
//! Notifications come on a bounded channel, and a follower that falls behind loses some. So it never
//! reads the database for a move it can play from the notification itself, it takes everything
//! waiting at once and serves the games concurrently, and when events were lost all the same (the
//! channel overflowed, or the listening connection was lost and came back) it reloads every game held
//! here and every unfinished game of every player connected here: a lost pairing is found that way,
//! as a reconnecting player's games are.

use super::{lock, Hub};
use crate::games::{Conn, GameCell};
use crate::incident;
use crate::store::{Event, Millis};
use futures_util::future::join_all;
use gridarena_engine::go::online::GameId;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use tokio::sync::broadcast::Receiver;

/// The most events served in one round; the rest wait for the next.
const MAX_ROUND: usize = 4096;

/// What was heard since the last round, by game.
#[derive(Default)]
struct Heard {
    games: HashMap<GameId, News>,
    /// Pairings for connections here: (game, connection).
    matched: Vec<(GameId, u64)>,
    /// Events were lost: reload everything.
    lost: bool,
}

/// One game's moves heard, in order, and whether it ended.
#[derive(Default)]
struct News {
    moves: Vec<(u32, String, Millis)>,
    ended: bool,
}

impl Heard {
    fn add(&mut self, hub: &Hub, event: Event) {
        match event {
            Event::Moved {
                game,
                number,
                mv,
                deadline,
            } => self
                .games
                .entry(game)
                .or_default()
                .moves
                .push((number, mv, deadline)),
            Event::Ended { game } => self.games.entry(game).or_default().ended = true,
            Event::Matched {
                game,
                instance,
                conn,
            } => {
                if instance == hub.instance {
                    self.matched.push((game, conn));
                }
            }
            Event::Resync => self.lost = true,
        }
    }
}

impl Hub {
    pub(super) async fn follow(self: Arc<Self>, mut events: Receiver<Event>) {
        loop {
            let mut heard = Heard::default();
            match events.recv().await {
                Ok(event) => heard.add(&self, event),
                Err(RecvError::Lagged(_)) => heard.lost = true,
                Err(RecvError::Closed) => return,
            }
            let mut closed = false;
            for _ in 1..MAX_ROUND {
                match events.try_recv() {
                    Ok(event) => heard.add(&self, event),
                    Err(TryRecvError::Lagged(_)) => heard.lost = true,
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Closed) => {
                        closed = true;
                        break;
                    }
                }
            }
            self.serve(heard).await;
            if closed {
                return;
            }
        }
    }

    async fn serve(&self, heard: Heard) {
        join_all(
            heard
                .matched
                .iter()
                .map(|&(game, conn)| self.matched_here(game, conn)),
        )
        .await;
        if heard.lost {
            self.reload_everything().await;
            return;
        }
        let held: Vec<(Arc<GameCell>, News)> = {
            let games = lock(&self.games);
            heard
                .games
                .into_iter()
                .filter_map(|(id, news)| games.get(&id).map(|cell| (Arc::clone(cell), news)))
                .collect()
        };
        join_all(held.iter().map(|(cell, news)| self.hear(cell, news))).await;
    }

    /// Plays the moves heard for a held game; reads the game back only when the copy misses one
    /// before them, or the game ended.
    async fn hear(&self, cell: &GameCell, news: &News) {
        let mut st = cell.lock().await;
        let mut read_back = news.ended;
        for (number, mv, deadline) in &news.moves {
            let have = st.moves();
            if *number <= have {
                continue;
            }
            if *number > have + 1 || !cell.play_stored(&mut st, mv, *deadline) {
                read_back = true;
                break;
            }
        }
        if read_back {
            if let Err(e) = self.refresh(cell, &mut st).await {
                incident::report("following another instance", &e);
            }
        }
    }

    /// After events were lost: every held game is read back, and each player connected here is
    /// told of the games they play but do not follow yet (pairings made elsewhere meanwhile).
    async fn reload_everything(&self) {
        let held: Vec<Arc<GameCell>> = lock(&self.games).values().cloned().collect();
        join_all(held.iter().map(|cell| async move {
            let mut st = cell.lock().await;
            if let Err(e) = self.refresh(cell, &mut st).await {
                incident::report("following another instance", &e);
            }
        }))
        .await;
        // One read per player, however many connections (tabs) they have here.
        let mut here: HashMap<i64, Vec<Conn>> = HashMap::new();
        for (conn, player) in lock(&self.conns).values() {
            here.entry(*player).or_default().push(conn.clone());
        }
        join_all(here.iter().map(|(player, conns)| async move {
            match self.store.unfinished_of(*player).await {
                Ok(rows) => {
                    for row in rows {
                        for conn in conns {
                            self.tell_matched(row.id, conn, *player).await;
                        }
                    }
                }
                Err(e) => {
                    incident::report("finding pairings after lost events", &e);
                }
            }
        }))
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::tests::{hub, received, waiting_and_paired_elsewhere};
    use crate::store::now_ms;
    use gridarena_engine::go::online::ServerMsg;
    use tokio::sync::broadcast;

    #[tokio::test]
    async fn a_pairing_whose_event_was_lost_reaches_its_player() {
        let hub = hub().await;
        let (conn, mut rx, game) = waiting_and_paired_elsewhere(&hub).await;
        received(&mut rx);
        // The pairing's event and more than the channel holds: the follower hears only that it lagged.
        let (tx, events) = broadcast::channel(2);
        tx.send(Event::Matched {
            game,
            instance: hub.instance().clone(),
            conn: conn.id,
        })
        .unwrap();
        for other_game in 1000..1004 {
            tx.send(Event::Ended { game: other_game }).unwrap();
        }
        drop(tx);
        Arc::clone(&hub).follow(events).await;
        let told = received(&mut rx);
        assert!(
            matches!(&told[..], [ServerMsg::Matched { game: g, opponent, .. }, ServerMsg::Snapshot(s)]
                if *g == game && opponent == "Elsewhere" && s.game == game),
            "{told:?}"
        );
    }

    #[tokio::test]
    async fn a_move_heard_after_a_missed_one_reads_the_game_back() {
        let hub = hub().await;
        let (conn, mut rx, game) = waiting_and_paired_elsewhere(&hub).await;
        hub.matched_here(game, conn.id).await;
        let black_is_ada = received(&mut rx)
            .iter()
            .any(|m| matches!(m, ServerMsg::Matched { color, .. } if color == "black"));
        assert!(hub.live_games() == 1);
        let now = now_ms();
        let store = hub.store();
        for (n, (c, mv)) in [('B', "D4"), ('W', "E5"), ('B', "C3")].iter().enumerate() {
            let n = n as u32 + 1;
            store
                .add_move(game, n, *c, mv, now, now + 300_000 + i64::from(n))
                .await
                .unwrap()
                .unwrap();
        }
        // Only moves 2 and 3 are heard; the copy has none, so it reads all three back.
        let (tx, events) = broadcast::channel(16);
        for (number, mv) in [(2, "E5"), (3, "C3")] {
            tx.send(Event::Moved {
                game,
                number,
                mv: mv.into(),
                deadline: now + 300_000 + i64::from(number),
            })
            .unwrap();
        }
        drop(tx);
        Arc::clone(&hub).follow(events).await;
        let moves: Vec<(u32, String)> = received(&mut rx)
            .into_iter()
            .filter_map(|m| match m {
                ServerMsg::Move {
                    move_number, mv, ..
                } => Some((move_number, mv)),
                _ => None,
            })
            .collect();
        assert_eq!(
            moves,
            [(1, "D4".into()), (2, "E5".into()), (3, "C3".into())],
            "Ada plays {}",
            if black_is_ada { "black" } else { "white" }
        );
    }

    #[tokio::test]
    async fn a_move_heard_in_turn_is_played_from_the_event() {
        let hub = hub().await;
        let (conn, mut rx, game) = waiting_and_paired_elsewhere(&hub).await;
        hub.matched_here(game, conn.id).await;
        received(&mut rx);
        // Not stored: the copy could only have it from the event, and its deadline with it. Heard
        // twice (as an instance hears its own moves too), it is played once.
        let (tx, events) = broadcast::channel(16);
        let deadline = now_ms() + 123_456;
        let moved = Event::Moved {
            game,
            number: 1,
            mv: "D4".into(),
            deadline,
        };
        tx.send(moved.clone()).unwrap();
        tx.send(moved).unwrap();
        drop(tx);
        Arc::clone(&hub).follow(events).await;
        let told = received(&mut rx);
        assert!(
            matches!(&told[..], [ServerMsg::Move { move_number: 1, mv, clock_ms: Some(ms), .. }]
                if mv == "D4" && *ms > 120_000 && *ms <= 123_456),
            "{told:?}"
        );
    }
}
