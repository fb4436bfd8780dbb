//! The hub: live games in memory, the matchmaking queue, the clocks, and the connections that follow
//! each game.
//!
//! **Locks.** `games` (the table) and `queue` are held only to look up, insert or remove; a game's own
//! `state` lock is held while a move is checked by the engine, stored and announced, so each game's
//! moves are stored and sent in order, and games never wait on each other. The table lock is never
//! taken first and then a game's lock, so the one place that takes the table lock inside a game's lock
//! (removing a finished game) cannot deadlock. The database's lock is innermost.
//!
//! **Subscribers.** A game keeps a sender for each connection that follows it (its players' and
//! spectators'); a send that fails (the connection is gone) drops that sender.

use crate::db::{CreatePlayerError, Db, DbError, GameRow};
use crate::matchmaking::{Queue, Seek};
use crate::names::{self, NameError};
use axum::extract::ws::Utf8Bytes;
use gridarena_engine::go::online::{ColorPref, GameId, PerColor, ServerMsg, Snapshot};
use gridarena_engine::go::sgf::{self, GameInfo};
use gridarena_engine::go::{BoardSize, Color, Game, GameResult, Move, ReplayError};
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Notify};

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

/// One WebSocket connection as the hub sees it: an id and a way to send to it. Its queue is bounded
/// ([`crate::ws::OUTBOX`]): a send to a full queue fails and asks the connection to close, since a
/// client that lets that many messages pile up does not read.
#[derive(Clone, Debug)]
pub struct Conn {
    pub id: u64,
    tx: mpsc::Sender<Out>,
    closing: Arc<Notify>,
}

impl Conn {
    /// A connection that sends through `tx`.
    pub fn new(id: u64, tx: mpsc::Sender<Out>) -> Conn {
        Conn {
            id,
            tx,
            closing: Arc::new(Notify::new()),
        }
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

/// Why registering a name failed.
#[derive(Debug)]
pub enum RegisterError {
    Name(NameError),
    Taken(String),
    Internal(String),
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::Name(e) => e.fmt(f),
            RegisterError::Taken(name) => write!(f, "the name {name} is taken"),
            RegisterError::Internal(e) => write!(f, "internal error: {e}"),
        }
    }
}

/// A live game: who plays it (fixed) and its state (behind its own lock).
pub struct GameCell {
    pub id: GameId,
    pub size: BoardSize,
    pub black: Seat,
    pub white: Seat,
    state: Mutex<LiveState>,
}

struct LiveState {
    game: Game,
    /// When the player to move loses on time.
    deadline: Instant,
    ended: bool,
    subscribers: HashMap<u64, Conn>,
}

impl GameCell {
    fn lock(&self) -> MutexGuard<'_, LiveState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn seat_color(&self, player: i64) -> Option<Color> {
        if self.black.id == player {
            Some(Color::Black)
        } else if self.white.id == player {
            Some(Color::White)
        } else {
            None
        }
    }

    fn seat(&self, c: Color) -> &Seat {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    fn snapshot(&self, st: &LiveState, now: Instant) -> Snapshot {
        let clock = if st.ended {
            Duration::ZERO
        } else {
            st.deadline.saturating_duration_since(now)
        };
        snapshot_of(
            self.id,
            &st.game,
            &self.black.name,
            &self.white.name,
            clock,
            st.game.result().map(|r| r.to_string()),
        )
    }

    fn broadcast(&self, st: &mut LiveState, msg: &ServerMsg) {
        let text = Utf8Bytes::from(msg.to_json());
        st.subscribers.retain(|_, c| c.send_text(text.clone()));
    }
}

fn color_name(c: Color) -> String {
    c.name().to_string()
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

fn snapshot_of(
    id: GameId,
    game: &Game,
    black: &str,
    white: &str,
    clock: Duration,
    result: Option<String>,
) -> Snapshot {
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
        to_move: color_name(game.to_move()),
        captures: PerColor {
            black: game.captures(Color::Black),
            white: game.captures(Color::White),
        },
        clock_ms: Some(millis(clock)),
        result,
    }
}

/// A stored game rebuilt by the engine. A stored move it refuses (a database edited by hand) ends the
/// replay, and the game goes on from before it rather than being lost.
fn rebuild(row: &GameRow) -> (Game, Option<ReplayError>) {
    let size = BoardSize::new(u32::from(row.size)).unwrap_or(BoardSize::NINE);
    let mut game = Game::new(size);
    let refused = game.play_gtp(&row.moves).err();
    (game, refused)
}

/// The server's shared state.
pub struct Hub {
    db: Db,
    move_time: Duration,
    games: Mutex<HashMap<GameId, Arc<GameCell>>>,
    queue: Mutex<Queue<(String, Conn)>>,
    next_conn: AtomicU64,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hub {
    /// A hub over an opened database; call [`Hub::recover`] inside the runtime before serving.
    pub fn new(db: Db, move_time: Duration) -> Arc<Hub> {
        Arc::new(Hub {
            db,
            move_time,
            games: Mutex::new(HashMap::new()),
            queue: Mutex::new(Queue::default()),
            next_conn: AtomicU64::new(1),
        })
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// Loads every unfinished game from the database by replaying its moves through the engine. The
    /// player to move gets a fresh clock. A game whose stored moves already end it (two passes stored
    /// just before a crash) is finished now, and counted. Returns how many games resumed.
    pub fn recover(self: &Arc<Self>) -> Result<usize, DbError> {
        let mut resumed = 0;
        for row in self.db.unfinished_games()? {
            let (game, refused) = rebuild(&row);
            if let Some(why) = refused {
                eprintln!("game {}: stored {why}; resuming before it", row.id);
            }
            let cell = Arc::new(GameCell {
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
                    deadline: Instant::now() + self.move_time,
                    ended: false,
                    subscribers: HashMap::new(),
                }),
            });
            let over = cell.lock().game.is_over();
            if over {
                let mut st = cell.lock();
                self.finish(&cell, &mut st);
                continue;
            }
            lock(&self.games).insert(row.id, Arc::clone(&cell));
            self.start_clock(cell);
            resumed += 1;
        }
        Ok(resumed)
    }

    /// A new connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// How many games are in play.
    pub fn live_games(&self) -> usize {
        lock(&self.games).len()
    }

    /// Registers a name; returns the id, the name as stored and the token.
    pub fn register(&self, name: &str) -> Result<(i64, String, String), RegisterError> {
        let name = names::validate_name(name).map_err(RegisterError::Name)?;
        let token = names::new_token().map_err(|e| RegisterError::Internal(e.to_string()))?;
        match self
            .db
            .create_player(&name, &names::name_key(&name), &names::token_hash(&token))
        {
            Ok(id) => Ok((id, name, token)),
            Err(CreatePlayerError::Taken) => Err(RegisterError::Taken(name)),
            Err(CreatePlayerError::Db(e)) => Err(RegisterError::Internal(e.to_string())),
        }
    }

    /// `hello`: checks the token; on success sends `welcome` and a snapshot of each of the player's
    /// unfinished games, and makes the connection follow them.
    pub fn hello(&self, conn: &Conn, token: &str) -> Option<Seat> {
        if token.is_empty() || token.chars().count() > names::MAX_TOKEN_CHARS {
            conn.send(&ServerMsg::error("unknown token: register a name first"));
            return None;
        }
        let player = match self.db.player_by_token(&names::token_hash(token)) {
            Ok(Some(p)) => p,
            Ok(None) => {
                conn.send(&ServerMsg::error("unknown token: register a name first"));
                return None;
            }
            Err(e) => {
                conn.send(&ServerMsg::error(format!("internal error: {e}")));
                return None;
            }
        };
        conn.send(&ServerMsg::Welcome {
            name: player.name.clone(),
            wins: player.wins,
            losses: player.losses,
        });
        let mut mine: Vec<Arc<GameCell>> = lock(&self.games)
            .values()
            .filter(|g| g.black.id == player.id || g.white.id == player.id)
            .cloned()
            .collect();
        mine.sort_by_key(|g| g.id);
        let now = Instant::now();
        for cell in mine {
            let mut st = cell.lock();
            if st.ended {
                continue;
            }
            st.subscribers.insert(conn.id, conn.clone());
            conn.send(&ServerMsg::Snapshot(cell.snapshot(&st, now)));
        }
        Some(Seat {
            id: player.id,
            name: player.name,
        })
    }

    /// `seek`: pairs the player or queues them.
    pub fn seek(self: &Arc<Self>, conn: &Conn, me: &Seat, size: u32, color: ColorPref) {
        let Some(size) = BoardSize::PRESETS
            .into_iter()
            .find(|s| u32::from(s.get()) == size)
        else {
            conn.send(&ServerMsg::error(format!(
                "size must be 9, 13 or 19 (not {size})"
            )));
            return;
        };
        let seek = Seek {
            player: me.id,
            conn: conn.id,
            size: size.get(),
            color,
            data: (me.name.clone(), conn.clone()),
        };
        let coin = names::random_below(2) == 0;
        let paired = lock(&self.queue).seek(seek, coin);
        let Some((waiting, mine, waiting_black)) = paired else {
            conn.send(&ServerMsg::Waiting {
                size: u32::from(size.get()),
                color,
            });
            return;
        };
        let (black, white) = if waiting_black {
            (waiting, mine)
        } else {
            (mine, waiting)
        };
        let id = match self.db.create_game(size.get(), black.player, white.player) {
            Ok(id) => id,
            Err(e) => {
                let msg =
                    ServerMsg::error(format!("internal error: could not create the game: {e}"));
                black.data.1.send(&msg);
                white.data.1.send(&msg);
                return;
            }
        };
        let (black_name, black_conn) = black.data;
        let (white_name, white_conn) = white.data;
        let mut subscribers = HashMap::new();
        subscribers.insert(black_conn.id, black_conn.clone());
        subscribers.insert(white_conn.id, white_conn.clone());
        let cell = Arc::new(GameCell {
            id,
            size,
            black: Seat {
                id: black.player,
                name: black_name.clone(),
            },
            white: Seat {
                id: white.player,
                name: white_name.clone(),
            },
            state: Mutex::new(LiveState {
                game: Game::new(size),
                deadline: Instant::now() + self.move_time,
                ended: false,
                subscribers,
            }),
        });
        {
            let st = cell.lock();
            lock(&self.games).insert(id, Arc::clone(&cell));
            let snap = ServerMsg::Snapshot(cell.snapshot(&st, Instant::now()));
            black_conn.send(&ServerMsg::Matched {
                game: id,
                color: "black".into(),
                opponent: white_name,
                size: size.get(),
            });
            black_conn.send(&snap);
            white_conn.send(&ServerMsg::Matched {
                game: id,
                color: "white".into(),
                opponent: black_name,
                size: size.get(),
            });
            white_conn.send(&snap);
        }
        self.start_clock(cell);
    }

    /// `cancel`: leaves the queue (answered `cancelled` whether or not the player was waiting).
    pub fn cancel(&self, conn: &Conn, me: &Seat) {
        lock(&self.queue).cancel_player(me.id);
        conn.send(&ServerMsg::Cancelled);
    }

    /// A connection closed: its requests leave the queue. (Its game subscriptions drop on the next
    /// failed send.)
    pub fn leave(&self, conn_id: u64) {
        lock(&self.queue).leave_conn(conn_id);
    }

    fn cell(&self, id: GameId) -> Option<Arc<GameCell>> {
        lock(&self.games).get(&id).cloned()
    }

    /// Why there is no live game `id`: it is over, or it never was.
    fn not_live(&self, conn: &Conn, id: GameId) {
        let msg = match self.db.game(id) {
            Ok(Some(row)) => format!(
                "game {id} is over ({})",
                row.result.as_deref().unwrap_or("?")
            ),
            Ok(None) => format!("there is no game {id}"),
            Err(e) => format!("internal error: {e}"),
        };
        conn.send(&ServerMsg::game_error(id, msg));
    }

    /// `watch`: a snapshot of the game, then its moves as they come. `watched` is the set of games the
    /// connection follows as a spectator (not as a player), at most [`MAX_WATCHED`] of them in play.
    pub fn watch(&self, conn: &Conn, id: GameId, watched: &mut HashSet<GameId>) {
        if let Some(cell) = self.cell(id) {
            // Games that ended since no longer count.
            watched.retain(|&g| g == id || self.cell(g).is_some());
            let mut st = cell.lock();
            if !st.ended {
                let new = !st.subscribers.contains_key(&conn.id);
                if new && watched.len() >= MAX_WATCHED {
                    conn.send(&ServerMsg::game_error(
                        id,
                        format!(
                            "you watch {MAX_WATCHED} games already, the most one connection may: \
                             unwatch one first"
                        ),
                    ));
                    return;
                }
                if new {
                    watched.insert(id);
                }
                st.subscribers.insert(conn.id, conn.clone());
                conn.send(&ServerMsg::Snapshot(cell.snapshot(&st, Instant::now())));
                return;
            }
        }
        match self.db.game(id) {
            Ok(Some(row)) => {
                let (game, _) = rebuild(&row);
                conn.send(&ServerMsg::Snapshot(snapshot_of(
                    id,
                    &game,
                    &row.black.1,
                    &row.white.1,
                    Duration::ZERO,
                    row.result.clone(),
                )));
            }
            Ok(None) => {
                conn.send(&ServerMsg::game_error(id, format!("there is no game {id}")));
            }
            Err(e) => {
                conn.send(&ServerMsg::game_error(id, crate::internal_error(e)));
            }
        }
    }

    /// `unwatch`: the connection stops following a game it watches as a spectator.
    pub fn unwatch(&self, conn: &Conn, id: GameId, watched: &mut HashSet<GameId>) {
        if !watched.remove(&id) {
            conn.send(&ServerMsg::game_error(
                id,
                format!("you are not watching game {id}"),
            ));
            return;
        }
        if let Some(cell) = self.cell(id) {
            cell.lock().subscribers.remove(&conn.id);
        }
        conn.send(&ServerMsg::Unwatched { game: id });
    }

    /// The live game `id` and the colour `me` plays in it; otherwise `conn` is told why not.
    fn my_seat(&self, conn: &Conn, me: &Seat, id: GameId) -> Option<(Arc<GameCell>, Color)> {
        let Some(cell) = self.cell(id) else {
            self.not_live(conn, id);
            return None;
        };
        let Some(color) = cell.seat_color(me.id) else {
            conn.send(&ServerMsg::game_error(
                id,
                format!("you are not playing in game {id}"),
            ));
            return None;
        };
        Some((cell, color))
    }

    /// `move`: the engine checks it; it is stored, then announced to everyone following the game.
    pub fn play(&self, conn: &Conn, me: &Seat, id: GameId, text: &str) {
        let Some((cell, color)) = self.my_seat(conn, me, id) else {
            return;
        };
        let mut st = cell.lock();
        if st.ended {
            drop(st);
            return self.not_live(conn, id);
        }
        st.subscribers
            .entry(conn.id)
            .or_insert_with(|| conn.clone());
        let mv = match Move::from_gtp(text, cell.size) {
            Ok(Move::Resign) => {
                drop(st);
                return self.resign(conn, me, id);
            }
            Ok(mv) => mv,
            Err(e) => {
                let shown: String = text.chars().take(12).collect();
                conn.send(&ServerMsg::game_error(
                    id,
                    format!("{shown:?} is not a move: {e}"),
                ));
                return;
            }
        };
        if st.game.to_move() != color {
            conn.send(&ServerMsg::game_error(id, "it is not your turn"));
            return;
        }
        if let Err(e) = st.game.check(mv) {
            conn.send(&ServerMsg::game_error(id, e.to_string()));
            return;
        }
        let number = u32::try_from(snapshot_moves(&st.game) + 1).unwrap_or(u32::MAX);
        let spelled = mv.to_gtp();
        if let Err(e) = self.db.add_move(id, number, color.letter(), &spelled) {
            conn.send(&ServerMsg::game_error(
                id,
                format!("the server could not store the move, try again: {e}"),
            ));
            return;
        }
        if let Err(e) = st.game.play(mv) {
            // Checked just above, so this cannot happen; say so rather than panic.
            conn.send(&ServerMsg::game_error(id, e.to_string()));
            return;
        }
        let captured: Vec<String> = st
            .game
            .last_captures()
            .into_iter()
            .map(|p| p.to_gtp())
            .collect();
        st.deadline = Instant::now() + self.move_time;
        let over = st.game.is_over();
        let msg = ServerMsg::Move {
            game: id,
            move_number: number,
            color: color_name(color),
            mv: spelled,
            captured,
            clock_ms: Some(if over { 0 } else { millis(self.move_time) }),
        };
        cell.broadcast(&mut st, &msg);
        if over {
            self.finish(&cell, &mut st);
        }
    }

    /// `resign`: the opponent wins at once.
    pub fn resign(&self, conn: &Conn, me: &Seat, id: GameId) {
        let Some((cell, color)) = self.my_seat(conn, me, id) else {
            return;
        };
        let mut st = cell.lock();
        if st.ended || st.game.play_as(color, Move::Resign).is_err() {
            drop(st);
            return self.not_live(conn, id);
        }
        st.subscribers
            .entry(conn.id)
            .or_insert_with(|| conn.clone());
        self.finish(&cell, &mut st);
    }

    /// The clock of a game: wakes at the deadline; if no move came, the player to move loses.
    fn start_clock(self: &Arc<Self>, cell: Arc<GameCell>) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            loop {
                let deadline = {
                    let st = cell.lock();
                    if st.ended {
                        return;
                    }
                    st.deadline
                };
                tokio::time::sleep_until(tokio::time::Instant::from_std(deadline)).await;
                let mut st = cell.lock();
                if st.ended {
                    return;
                }
                if Instant::now() >= st.deadline {
                    let loser = st.game.to_move();
                    if st.game.time_out(loser).is_ok() {
                        hub.finish(&cell, &mut st);
                    }
                    return;
                }
            }
        });
    }

    /// The game has a result: stores it and counts it (once), announces it, and retires the game.
    fn finish(&self, cell: &GameCell, st: &mut LiveState) {
        let Some(result) = st.game.result() else {
            return;
        };
        let winner_loser = result
            .winner()
            .map(|w| (cell.seat(w).id, cell.seat(w.other()).id));
        let score = match result {
            GameResult::Points { .. } | GameResult::Draw => {
                let s = st.game.score();
                Some(PerColor {
                    black: u32::from(s.black),
                    white: u32::from(s.white),
                })
            }
            GameResult::Resignation { .. } | GameResult::Time { .. } => None,
        };
        let text = result.to_string();
        let area = score.map(|s| {
            (
                u16::try_from(s.black).unwrap_or(u16::MAX),
                u16::try_from(s.white).unwrap_or(u16::MAX),
            )
        });
        if let Err(e) = self.db.finish_game(cell.id, &text, winner_loser, area) {
            eprintln!("game {}: could not store the result {text}: {e}", cell.id);
        }
        st.ended = true;
        let msg = ServerMsg::Ended {
            game: cell.id,
            result: text,
            score,
        };
        cell.broadcast(st, &msg);
        st.subscribers.clear();
        lock(&self.games).remove(&cell.id);
    }

    /// The SGF record of a game, in play or over.
    pub fn sgf(&self, id: GameId) -> Result<Option<String>, DbError> {
        if let Some(cell) = self.cell(id) {
            let st = cell.lock();
            let info = GameInfo {
                black: Some(cell.black.name.clone()),
                white: Some(cell.white.name.clone()),
                ..GameInfo::default()
            };
            return Ok(Some(sgf::to_sgf(&st.game, &info)));
        }
        let Some(row) = self.db.game(id)? else {
            return Ok(None);
        };
        Ok(Some(sgf_of_row(&row)))
    }
}

fn snapshot_moves(game: &Game) -> usize {
    game.moves()
        .iter()
        .filter(|(_, m)| *m != Move::Resign)
        .count()
}

fn sgf_of_row(row: &GameRow) -> String {
    let (game, _) = rebuild(row);
    let info = GameInfo {
        black: Some(row.black.1.clone()),
        white: Some(row.white.1.clone()),
        result: row.result.clone(),
        ..GameInfo::default()
    };
    sgf::to_sgf(&game, &info)
}
