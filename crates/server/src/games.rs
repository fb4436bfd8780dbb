//! Connections and the games an instance holds in memory.
//!
//! The database is the truth about a game (see [`crate::store`]); a [`GameCell`] is this instance's
//! copy of one, kept for the connections here that follow it (its players and spectators). Several
//! instances may hold copies of the same game: each stores a move only if the database agrees it is the
//! next one, and the others catch up from the database when they hear of it.
//!
//! **Locks.** A cell's `state` is an async lock, held while a move is checked, stored and announced, so
//! this instance stores and sends each game's moves in order; games never wait on each other.

use crate::listen::ClientKey;
use crate::store::{now_ms, GameRow, Millis};
use axum::extract::ws::Utf8Bytes;
use gridarena_engine::go::online::{GameId, PerColor, ServerMsg, Snapshot};
use gridarena_engine::go::{BoardSize, Color, Game, Move, ReplayError};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Arc;
use tokio::sync::{mpsc, Mutex, MutexGuard, Notify};

/// What the hub hands a connection's writer.
#[derive(Debug)]
pub enum Out {
    /// A JSON text message.
    Text(Utf8Bytes),
    /// Close the connection with this reason.
    Close(String),
    /// A WebSocket ping (the heartbeat; browsers answer it by themselves), numbered so that only the
    /// pong of the latest one counts as a sign of life.
    Ping(u64),
}

/// One WebSocket connection as the hub sees it: an id, the client's address, and a way to send to it.
/// Its queue is bounded ([`crate::ws::OUTBOX`]): a send to a full queue fails and asks the connection
/// to close, since a client that lets that many messages pile up does not read.
#[derive(Clone, Debug)]
pub struct Conn {
    pub id: u64,
    /// The client as the caps count it ([`ClientKey`]: an IPv6 address by its /64), for the limits
    /// per address beyond the connection caps (house games); `None` for the house's own connection.
    pub address: Option<ClientKey>,
    tx: mpsc::Sender<Out>,
    closing: Arc<Notify>,
}

impl Conn {
    /// A connection that sends through `tx`, from no address.
    pub fn new(id: u64, tx: mpsc::Sender<Out>) -> Conn {
        Conn {
            id,
            address: None,
            tx,
            closing: Arc::new(Notify::new()),
        }
    }

    /// The connection, from the client at `ip`.
    pub fn from(mut self, ip: IpAddr) -> Conn {
        self.address = Some(ClientKey::of(ip));
        self
    }

    /// Notified when the connection must end: its queue overflowed, or its writer gave up.
    pub fn closing(&self) -> Arc<Notify> {
        Arc::clone(&self.closing)
    }

    /// Sends a message; false if the connection is gone (or is being closed for not reading).
    pub fn send(&self, msg: &ServerMsg) -> bool {
        self.send_text(Utf8Bytes::from(msg.to_json()))
    }

    fn send_text(&self, text: Utf8Bytes) -> bool {
        self.push(Out::Text(text))
    }

    /// Queues anything for the writer without waiting; false if the connection is gone or its queue
    /// is full (then it is asked to close).
    pub fn push(&self, out: Out) -> bool {
        match self.tx.try_send(out) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.closing.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        }
    }
}

/// How many games in play one connection may watch as a spectator at once. A person follows a game or
/// two; a projector wall of a class's games, 8. Each watched game sends every move to the connection,
/// so without a cap one socket could ask for all of them.
pub const MAX_WATCHED: usize = 8;

/// A player who said hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub id: i64,
    pub name: String,
}

/// This instance's copy of a game: who plays it (fixed) and its state (behind its own lock).
pub struct GameCell {
    pub id: GameId,
    pub size: BoardSize,
    pub black: Seat,
    pub white: Seat,
    state: Mutex<LiveState>,
}

/// A game as this instance last knew it.
pub struct LiveState {
    pub game: Game,
    /// When the player to move loses on time (as stored).
    pub deadline: Millis,
    /// The stored result, once the game is over.
    pub ended: Option<Ended>,
    pub subscribers: HashMap<u64, Conn>,
}

/// A finished game's result as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ended {
    pub result: String,
    pub score: Option<(u16, u16)>,
}

impl Ended {
    /// The announcement of the end.
    pub fn message(&self, game: GameId) -> ServerMsg {
        ServerMsg::Ended {
            game,
            result: self.result.clone(),
            score: self.score.map(|(black, white)| PerColor {
                black: u32::from(black),
                white: u32::from(white),
            }),
        }
    }
}

impl LiveState {
    /// Stones and passes played (a resignation is not a move here, as in the database).
    pub fn moves(&self) -> u32 {
        u32::try_from(
            self.game
                .moves()
                .iter()
                .filter(|(_, m)| *m != Move::Resign)
                .count(),
        )
        .unwrap_or(u32::MAX)
    }

    /// Sends `msg` to every follower; followers whose connection is gone are dropped.
    pub fn broadcast(&mut self, msg: &ServerMsg) {
        let text = Utf8Bytes::from(msg.to_json());
        self.subscribers.retain(|_, c| c.send_text(text.clone()));
    }
}

/// A stored game rebuilt by the engine. A stored move it refuses (a database edited by hand) ends the
/// replay, and the game goes on from before it rather than being lost.
pub fn rebuild(row: &GameRow) -> (Game, Option<ReplayError>) {
    let size = BoardSize::new(u32::from(row.size)).unwrap_or(BoardSize::NINE);
    let mut game = Game::new(size);
    let refused = game.play_gtp(&row.moves).err();
    (game, refused)
}

impl GameCell {
    /// A copy of a stored game, followed by nobody yet.
    pub fn from_row(row: &GameRow) -> GameCell {
        let (game, refused) = rebuild(row);
        if let Some(why) = refused {
            eprintln!("game {}: stored {why}; resuming before it", row.id);
        }
        GameCell {
            id: row.id,
            size: game.size(),
            black: Seat {
                id: row.black.0,
                name: row.black.1.clone(),
            },
            white: Seat {
                id: row.white.0,
                name: row.white.1.clone(),
            },
            state: Mutex::new(LiveState {
                game,
                deadline: row.deadline,
                ended: ended_of(row),
                subscribers: HashMap::new(),
            }),
        }
    }

    pub async fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().await
    }

    /// The state, locked, with `conn` among its followers (a player acting on a game follows it).
    pub async fn lock_for(&self, conn: &Conn) -> MutexGuard<'_, LiveState> {
        let mut st = self.lock().await;
        st.subscribers
            .entry(conn.id)
            .or_insert_with(|| conn.clone());
        st
    }

    /// The colour `player` plays here, if they play.
    pub fn seat_color(&self, player: i64) -> Option<Color> {
        if self.black.id == player {
            Some(Color::Black)
        } else if self.white.id == player {
            Some(Color::White)
        } else {
            None
        }
    }

    pub fn seat(&self, c: Color) -> &Seat {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    /// The whole game as it stands, for a follower.
    pub fn snapshot(&self, st: &LiveState) -> Snapshot {
        let clock = match st.ended {
            Some(_) => 0,
            None => u64::try_from(st.deadline.saturating_sub(now_ms())).unwrap_or(0),
        };
        let mut snap = snapshot_of(self.id, &st.game, &self.black.name, &self.white.name, clock);
        snap.result = st.ended.as_ref().map(|e| e.result.clone());
        snap
    }

    /// Brings the copy up to the stored `row` (which holds at least the moves the copy has, the
    /// database being the truth): announces each move the copy lacked, then the end if the row is
    /// finished. Returns whether the game is now over.
    pub fn catch_up(&self, st: &mut LiveState, row: &GameRow) -> bool {
        for text in row.moves.iter().skip(st.moves() as usize) {
            if !self.play_stored(st, text, row.deadline) {
                break;
            }
        }
        st.deadline = row.deadline;
        if st.ended.is_none() {
            if let Some(ended) = ended_of(row) {
                st.broadcast(&ended.message(self.id));
                st.ended = Some(ended);
            }
        }
        st.ended.is_some()
    }

    /// Plays the stored move `text` that comes next, announces it with the `deadline` that follows it,
    /// and says whether it was played (a stored move the engine refuses, from a database edited by
    /// hand, is logged and stops the copy there).
    pub fn play_stored(&self, st: &mut LiveState, text: &str, deadline: Millis) -> bool {
        let Ok(mv) = Move::from_gtp(text, self.size) else {
            eprintln!("game {}: stored move {text:?} is not a move", self.id);
            return false;
        };
        let color = st.game.to_move();
        if let Err(e) = st.game.play(mv) {
            eprintln!("game {}: stored move {text} refused: {e}", self.id);
            return false;
        }
        st.deadline = deadline;
        let number = st.moves() as usize;
        st.broadcast(&move_message(
            self.id, &st.game, number, color, mv, deadline,
        ));
        true
    }
}

/// What a finished row says of its end.
fn ended_of(row: &GameRow) -> Option<Ended> {
    row.result.as_ref().map(|result| Ended {
        result: result.clone(),
        score: row.score,
    })
}

/// The announcement of move `number`, just played by `color` in `game`, with the next deadline.
pub fn move_message(
    id: GameId,
    game: &Game,
    number: usize,
    color: Color,
    mv: Move,
    deadline: Millis,
) -> ServerMsg {
    let captured = game
        .last_captures()
        .into_iter()
        .map(|p| p.to_gtp())
        .collect();
    let clock = if game.is_over() {
        0
    } else {
        u64::try_from(deadline.saturating_sub(now_ms())).unwrap_or(0)
    };
    ServerMsg::Move {
        game: id,
        move_number: u32::try_from(number).unwrap_or(u32::MAX),
        color: color.name().to_string(),
        mv: mv.to_gtp(),
        captured,
        clock_ms: Some(clock),
    }
}

/// A game's snapshot for followers (with no result: the caller adds it).
pub fn snapshot_of(id: GameId, game: &Game, black: &str, white: &str, clock_ms: u64) -> Snapshot {
    let moves: Vec<String> = game
        .moves()
        .iter()
        .filter(|(_, m)| *m != Move::Resign)
        .map(|(_, m)| m.to_gtp())
        .collect();
    Snapshot {
        game: id,
        size: game.size().get(),
        komi: game.komi().points(),
        black: black.to_string(),
        white: white.to_string(),
        move_number: u32::try_from(moves.len()).unwrap_or(u32::MAX),
        moves,
        to_move: game.to_move().name().to_string(),
        captures: PerColor {
            black: game.captures(Color::Black),
            white: game.captures(Color::White),
        },
        clock_ms: Some(clock_ms),
        result: None,
    }
}
