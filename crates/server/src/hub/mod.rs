//! The hub: what one server instance does for its connections. It pairs players through the store's
//! queue, checks each move with the engine, stores it, and announces it to the connections here that
//! follow the game; it runs the clocks the store gives it; and (on PostgreSQL) it follows what the
//! other instances store, so a game whose players sit on two instances plays as one.
//!
//! Every rule that must hold across instances (one pairing per request, one move per number, one end
//! per game, no move after the deadline) is the store's, in a transaction; the hub acts on the answer.
//! Its in-memory games ([`GameCell`]) are copies that catch up from the store whenever they are behind.

use crate::games::{
    move_message, rebuild, snapshot_of, Conn, Ended, GameCell, LiveState, Out, Seat, MAX_WATCHED,
};
use crate::incident;
use crate::names::{self, NameError};
use crate::policy;
use crate::store::{
    now_ms, CreatePlayerError, EndReason, Finish, GameRow, InstanceId, Millis, MoveRefusal,
    OpenError, SeekOutcome, SeekRow, Store, StoreError,
};
use gridarena_engine::go::online::{ColorPref, GameId, ServerMsg, Snapshot};
use gridarena_engine::go::sgf::{self, GameInfo};
use gridarena_engine::go::{BoardSize, Color, Game, GameResult, Move};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

mod clock;
mod follow;
mod house;

use house::House;
pub use house::{HouseConfig, HOUSE_NAME, HOUSE_THINK};

/// Why registering a name failed.
#[derive(Debug)]
pub enum RegisterError {
    Name(NameError),
    Taken(String),
    /// The words for the client (the details are in the log).
    Internal(String),
}

impl fmt::Display for RegisterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RegisterError::Name(e) => e.fmt(f),
            RegisterError::Taken(name) => write!(f, "the name {name} is taken"),
            RegisterError::Internal(e) => f.write_str(e),
        }
    }
}

/// A finished game as followers and downloads see it, built once from its row.
pub struct FinishedGame {
    pub snapshot: Snapshot,
    pub sgf: String,
}

impl FinishedGame {
    /// A finished game from its stored row.
    fn of(row: &GameRow) -> FinishedGame {
        let (game, _) = rebuild(row);
        FinishedGame::new(
            row.id,
            &game,
            &row.black.1,
            &row.white.1,
            row.result.clone(),
        )
    }

    /// The game this instance just ended.
    fn of_cell(cell: &GameCell, st: &LiveState) -> FinishedGame {
        let result = st.ended.as_ref().map(|e| e.result.clone());
        FinishedGame::new(
            cell.id,
            &st.game,
            &cell.black.name,
            &cell.white.name,
            result,
        )
    }

    fn new(id: GameId, game: &Game, black: &str, white: &str, result: Option<String>) -> Self {
        let mut snapshot = snapshot_of(id, game, black, white, 0);
        snapshot.result = result.clone();
        let info = GameInfo {
            black: Some(black.to_owned()),
            white: Some(white.to_owned()),
            result,
            ..GameInfo::default()
        };
        FinishedGame {
            snapshot,
            sgf: sgf::to_sgf(game, &info),
        }
    }
}

/// How many finished games are kept built: watching or downloading a finished game is then a lookup,
/// not a replay of its moves from the database each time.
const FINISHED_KEPT: usize = 256;

/// The finished games built most recently, oldest dropped first.
#[derive(Default)]
struct FinishedCache {
    games: HashMap<GameId, Arc<FinishedGame>>,
    order: VecDeque<GameId>,
}

impl FinishedCache {
    fn get(&self, id: GameId) -> Option<Arc<FinishedGame>> {
        self.games.get(&id).cloned()
    }

    fn put(&mut self, id: GameId, game: Arc<FinishedGame>) {
        if self.games.insert(id, game).is_none() {
            self.order.push_back(id);
        }
        while self.order.len() > FINISHED_KEPT {
            if let Some(old) = self.order.pop_front() {
                self.games.remove(&old);
            }
        }
    }
}

/// A game as a lookup finds it.
enum Found {
    Live(Arc<GameCell>),
    Over(Arc<FinishedGame>),
    Missing,
}

/// How the hub runs.
#[derive(Clone, Debug)]
pub struct HubConfig {
    /// Time for each move.
    pub move_time: Duration,
    /// How long an instance may be silent before another takes its clocks over.
    pub lease: Duration,
    /// The house player ([`HouseConfig::none`]: none).
    pub house: HouseConfig,
    /// WebSockets one player may hold here at once ([`crate::MAX_SOCKETS_PER_PLAYER`]).
    pub sockets_per_player: usize,
}

/// One instance's shared state.
pub struct Hub {
    store: Store,
    instance: InstanceId,
    config: HubConfig,
    games: Mutex<HashMap<GameId, Arc<GameCell>>>,
    /// The connections that said hello here, with their player, for pairings made by other instances.
    conns: Mutex<HashMap<u64, (Conn, i64)>>,
    finished: Mutex<FinishedCache>,
    next_conn: AtomicU64,
    /// The server's own AI player, when it takes games.
    house: Option<House>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn ms(d: Duration) -> Millis {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

impl Hub {
    /// Opens the store, says this instance is alive, ends the games whose stored moves already end
    /// them, and starts the clock keeper and (on PostgreSQL) the follower of other instances. When no
    /// other instance is alive (a restart), every unfinished game gets a full move time: nobody could
    /// move while the server was down. Must run inside a tokio runtime.
    pub async fn start(store: Store, config: HubConfig) -> Result<Arc<Hub>, OpenError> {
        let token = names::new_token().map_err(|e| OpenError::Other(StoreError(e.to_string())))?;
        // Connection 0 is the house's; the sockets' count from 1.
        let (house, house_rx) = if config.house.games > 0 {
            let (house, rx) = House::open(&store, config.house.clone(), 0)
                .await
                .map_err(OpenError::Other)?;
            (Some(house), Some(rx))
        } else {
            (None, None)
        };
        let hub = Arc::new(Hub {
            store,
            instance: InstanceId(token[..16].to_string()),
            config,
            games: Mutex::new(HashMap::new()),
            conns: Mutex::new(HashMap::new()),
            finished: Mutex::new(FinishedCache::default()),
            next_conn: AtomicU64::new(1),
            house,
        });
        let rekeyed = hub
            .store
            .rekey_players(names::name_key)
            .await
            .map_err(OpenError::Other)?;
        if rekeyed > 0 {
            eprintln!("{rekeyed} players' name keys follow the look-alike rule now");
        }
        let now = now_ms();
        let lease = ms(hub.config.lease);
        // A SQLite file is locked to one process, so whatever instance it names is dead: this one takes
        // every clock and drops every request at once. On PostgreSQL others may be alive.
        let shared = hub.store.is_shared();
        let alone = !shared
            || hub
                .store
                .others_alive(&hub.instance, now, lease)
                .await
                .map_err(OpenError::Other)?
                == 0;
        if alone {
            hub.store
                .grace(now + ms(hub.config.move_time))
                .await
                .map_err(OpenError::Other)?;
        }
        hub.store
            .keep_alive(&hub.instance, now, if shared { lease } else { 0 })
            .await
            .map_err(OpenError::Other)?;
        for id in hub.store.unfinished().await.map_err(OpenError::Other)? {
            if let Ok(Found::Live(cell)) = hub.load(id).await {
                let mut st = cell.lock().await;
                if let Some(reason) = over_by_moves(&cell, &st) {
                    let game = st.game.clone();
                    let _ = hub.end(&cell, &mut st, &game, reason, None).await;
                }
                drop(st);
                hub.forget_if_unfollowed(&cell).await;
            }
        }
        if let Some(events) = hub.store.events() {
            tokio::spawn(Arc::clone(&hub).follow(events));
        }
        if let Some(rx) = house_rx {
            tokio::spawn(Arc::clone(&hub).house_loop(rx));
            hub.take_up_house_games().await;
        }
        tokio::spawn(Arc::clone(&hub).keep_clocks());
        Ok(hub)
    }

    /// The store (the HTTP side reads records from it).
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// This instance's name in the store.
    pub fn instance(&self) -> &InstanceId {
        &self.instance
    }

    /// A clean stop: this instance's requests leave the queue and its clocks are free for the other
    /// instances at once, rather than after the lease.
    pub async fn retire(&self) {
        if let Err(e) = self.store.retire(&self.instance).await {
            incident::report("retiring the instance", &e);
        }
    }

    /// A new connection id.
    pub fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// How many games this instance holds in memory.
    pub fn live_games(&self) -> usize {
        lock(&self.games).len()
    }

    /// Registers a name; returns the id, the name as stored and the token.
    pub async fn register(&self, name: &str) -> Result<(i64, String, String), RegisterError> {
        let name = names::validate_name(name).map_err(RegisterError::Name)?;
        let token = names::new_token()
            .map_err(|e| RegisterError::Internal(incident::report("making a token", &e)))?;
        match self
            .store
            .create_player(&name, &names::name_key(&name), &names::token_hash(&token))
            .await
        {
            Ok(id) => Ok((id, name, token)),
            Err(CreatePlayerError::Taken) => Err(RegisterError::Taken(name)),
            Err(CreatePlayerError::Store(e)) => Err(RegisterError::Internal(incident::report(
                "registering a player",
                &e,
            ))),
        }
    }

    /// `hello`: checks the token; on success sends `welcome` and a snapshot of each of the player's
    /// unfinished games, and makes the connection follow them.
    pub async fn hello(&self, conn: &Conn, token: &str) -> Option<Seat> {
        if token.is_empty() || token.chars().count() > names::MAX_TOKEN_CHARS {
            conn.send(&ServerMsg::error("unknown token: register a name first"));
            return None;
        }
        let player = match self.store.player_by_token(&names::token_hash(token)).await {
            Ok(Some(p)) => p,
            Ok(None) => {
                conn.send(&ServerMsg::error("unknown token: register a name first"));
                return None;
            }
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report("checking a token", &e)));
                return None;
            }
        };
        let games = match self.store.unfinished_of(player.id).await {
            Ok(games) => games,
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report("loading games", &e)));
                return None;
            }
        };
        if !self.seat_connection(conn, player.id) {
            return None;
        }
        conn.send(&ServerMsg::Welcome {
            name: player.name.clone(),
            wins: player.wins,
            losses: player.losses,
            house: self.house.as_ref().map(|h| h.seat.name.clone()),
        });
        for row in games {
            let cell = self.adopt(&row).await;
            let mut st = cell.lock().await;
            if st.ended.is_none() {
                st.subscribers.insert(conn.id, conn.clone());
                conn.send(&ServerMsg::Snapshot(cell.snapshot(&st)));
            }
        }
        Some(Seat {
            id: player.id,
            name: player.name,
        })
    }

    /// Counts `conn` among `player`'s connections here, unless they hold as many as one player may: then
    /// the connection is told why and closed (a refusal the page shows, and retries later).
    fn seat_connection(&self, conn: &Conn, player: i64) -> bool {
        let mut conns = lock(&self.conns);
        let open = conns.values().filter(|(_, p)| *p == player).count();
        if open >= self.config.sockets_per_player {
            drop(conns);
            conn.send(&ServerMsg::error(format!(
                "you have {open} connections open already, the most one player may: close another \
                 tab or window of GridArena, then reload"
            )));
            conn.push(Out::Close(
                "too many connections for one player: close another tab".into(),
            ));
            return false;
        }
        conns.insert(conn.id, (conn.clone(), player));
        true
    }

    /// Whether connection `conn` of `me` follows anything here: a game of theirs in play, a game in
    /// play it watches (`watched`), or a seek waiting in the queue. One that follows nothing for long is
    /// closed ([`crate::IDLE_TIMEOUT`]). A database that cannot say counts as a seek (keep it).
    pub async fn follows_something(
        &self,
        conn: &Conn,
        me: &Seat,
        watched: &HashSet<GameId>,
    ) -> bool {
        {
            let games = lock(&self.games);
            if watched.iter().any(|id| games.contains_key(id))
                || games.values().any(|cell| cell.seat_color(me.id).is_some())
            {
                return true;
            }
        }
        self.store
            .is_waiting(&self.instance, conn.id)
            .await
            .unwrap_or(true)
    }

    /// `seek`: pairs the player through the store's queue, or queues them.
    pub async fn seek(&self, conn: &Conn, me: &Seat, size: u32, color: ColorPref) {
        let size = match preset_size(size) {
            Ok(size) => size,
            Err(why) => {
                conn.send(&ServerMsg::error(why));
                return;
            }
        };
        let request = SeekRow {
            player: me.id,
            name: me.name.clone(),
            instance: self.instance.clone(),
            conn: conn.id,
            size: size.get(),
            color,
        };
        let coin = names::random_below(2) == 0;
        let now = now_ms();
        let first_deadline = now + ms(self.config.move_time);
        let outcome = self
            .store
            .seek(&request, coin, now, ms(self.config.lease), first_deadline)
            .await;
        match outcome {
            Ok(SeekOutcome::Waiting) => {
                conn.send(&ServerMsg::Waiting {
                    size: u32::from(size.get()),
                    color,
                });
            }
            Ok(SeekOutcome::Paired { game, waiting, .. }) => {
                self.tell_matched(game, conn, me.id).await;
                if waiting.instance == self.instance {
                    self.matched_here(game, waiting.conn).await;
                }
            }
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report("matchmaking", &e)));
            }
        }
    }

    /// A pairing made elsewhere (or here) for connection `conn_id` of this instance.
    async fn matched_here(&self, game: GameId, conn_id: u64) {
        let found = lock(&self.conns).get(&conn_id).cloned();
        if let Some((conn, player)) = found {
            self.tell_matched(game, &conn, player).await;
        }
    }

    /// Makes `conn` (player `player`'s) follow the new game `game` and tells it: `matched`, then the
    /// snapshot. Once only, however often the pairing is heard of.
    async fn tell_matched(&self, game: GameId, conn: &Conn, player: i64) {
        let cell = match self.load(game).await {
            Ok(Found::Live(cell)) => cell,
            Ok(_) => return,
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report(
                    "loading a new game",
                    &e,
                )));
                return;
            }
        };
        let Some(color) = cell.seat_color(player) else {
            return;
        };
        let mut st = cell.lock().await;
        if st.subscribers.contains_key(&conn.id) {
            return;
        }
        st.subscribers.insert(conn.id, conn.clone());
        conn.send(&ServerMsg::Matched {
            game,
            color: color.name().into(),
            opponent: cell.seat(color.other()).name.clone(),
            size: cell.size.get(),
        });
        conn.send(&ServerMsg::Snapshot(cell.snapshot(&st)));
    }

    /// `cancel`: leaves the queue (answered `cancelled` whether or not the player was waiting).
    pub async fn cancel(&self, conn: &Conn, me: &Seat) {
        match self.store.cancel_seek(me.id).await {
            Ok(_) => {
                conn.send(&ServerMsg::Cancelled);
            }
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report("leaving the queue", &e)));
            }
        }
    }

    /// A connection closed: its request leaves the queue and its games stop sending to it; a game
    /// nobody here follows any more is dropped from memory (the store keeps it).
    pub async fn leave(&self, conn_id: u64) {
        lock(&self.conns).remove(&conn_id);
        if let Err(e) = self.store.leave(&self.instance, conn_id).await {
            incident::report("removing a closed connection's request", &e);
        }
        let cells: Vec<Arc<GameCell>> = lock(&self.games).values().cloned().collect();
        for cell in cells {
            let mut st = cell.lock().await;
            if st.subscribers.remove(&conn_id).is_some() && st.subscribers.is_empty() {
                drop(st);
                self.forget_if_unfollowed(&cell).await;
            }
        }
    }

    /// Drops `cell` from memory if nobody here follows it.
    async fn forget_if_unfollowed(&self, cell: &Arc<GameCell>) {
        let st = cell.lock().await;
        if st.subscribers.is_empty() {
            let mut games = lock(&self.games);
            if games.get(&cell.id).is_some_and(|c| Arc::ptr_eq(c, cell)) {
                games.remove(&cell.id);
            }
        }
    }

    /// Game `id`: this instance's copy if it holds one; else from the store (a live game is kept as a
    /// copy, a finished one is built once and kept among the recent finished games).
    async fn load(&self, id: GameId) -> Result<Found, StoreError> {
        if let Some(cell) = lock(&self.games).get(&id).cloned() {
            return Ok(Found::Live(cell));
        }
        if let Some(done) = lock(&self.finished).get(id) {
            return Ok(Found::Over(done));
        }
        let Some(row) = self.store.game(id).await? else {
            return Ok(Found::Missing);
        };
        if row.result.is_some() {
            let done = Arc::new(FinishedGame::of(&row));
            lock(&self.finished).put(id, Arc::clone(&done));
            return Ok(Found::Over(done));
        }
        Ok(Found::Live(self.adopt(&row).await))
    }

    /// This instance's copy of the unfinished game `row`: the one held, or a new one made from the row.
    /// (Another task may have made one meanwhile: the first copy is the one.) On a shared database a
    /// new copy reads the game once more after it is held: a move stored by another instance between
    /// the row's read and now was announced while no copy here could hear it.
    async fn adopt(&self, row: &GameRow) -> Arc<GameCell> {
        let (cell, new) = {
            let mut games = lock(&self.games);
            match games.get(&row.id) {
                Some(cell) => (Arc::clone(cell), false),
                None => {
                    let cell = Arc::new(GameCell::from_row(row));
                    games.insert(row.id, Arc::clone(&cell));
                    (cell, true)
                }
            }
        };
        if new && self.store.is_shared() {
            let mut st = cell.lock().await;
            if let Err(e) = self.refresh(&cell, &mut st).await {
                incident::report("loading a game", &e);
            }
        }
        cell
    }

    /// The live game `id`; otherwise `conn` is told why there is none.
    async fn live(&self, conn: &Conn, id: GameId) -> Option<Arc<GameCell>> {
        let msg = match self.load(id).await {
            Ok(Found::Live(cell)) => return Some(cell),
            Ok(Found::Over(done)) => format!(
                "game {id} is over ({})",
                done.snapshot.result.as_deref().unwrap_or("?")
            ),
            Ok(Found::Missing) => format!("there is no game {id}"),
            Err(e) => incident::report("loading a game", &e),
        };
        conn.send(&ServerMsg::game_error(id, msg));
        None
    }

    /// Brings a copy up to the store, announcing what it lacked; a game found over leaves memory.
    async fn refresh(&self, cell: &GameCell, st: &mut LiveState) -> Result<(), StoreError> {
        let Some(row) = self.store.game(cell.id).await? else {
            return Ok(());
        };
        if cell.catch_up(st, &row) {
            self.retire_cell(cell, st, FinishedGame::of(&row));
        }
        Ok(())
    }

    /// A game found over: its followers were told; it leaves memory for the finished games.
    fn retire_cell(&self, cell: &GameCell, st: &mut LiveState, done: FinishedGame) {
        st.subscribers.clear();
        lock(&self.finished).put(cell.id, Arc::new(done));
        let mut games = lock(&self.games);
        if games
            .get(&cell.id)
            .is_some_and(|c| std::ptr::eq(Arc::as_ptr(c), cell))
        {
            games.remove(&cell.id);
        }
    }

    /// `watch`: a snapshot of the game, then its moves as they come. `watched` is the set of games the
    /// connection follows as a spectator (not as a player), at most [`MAX_WATCHED`] of them in play.
    pub async fn watch(&self, conn: &Conn, id: GameId, watched: &mut HashSet<GameId>) {
        match self.load(id).await {
            Ok(Found::Live(cell)) => {
                // Games that ended since no longer count.
                let held: HashSet<GameId> = lock(&self.games).keys().copied().collect();
                watched.retain(|g| *g == id || held.contains(g));
                let mut st = cell.lock().await;
                if st.ended.is_none() {
                    let new = !st.subscribers.contains_key(&conn.id);
                    if new && watched.len() >= MAX_WATCHED {
                        conn.send(&ServerMsg::game_error(
                            id,
                            format!(
                                "you watch {MAX_WATCHED} games already, the most one connection \
                                 may: unwatch one first"
                            ),
                        ));
                        return;
                    }
                    if new {
                        watched.insert(id);
                    }
                    st.subscribers.insert(conn.id, conn.clone());
                }
                conn.send(&ServerMsg::Snapshot(cell.snapshot(&st)));
            }
            Ok(Found::Over(done)) => {
                conn.send(&ServerMsg::Snapshot(done.snapshot.clone()));
            }
            Ok(Found::Missing) => {
                conn.send(&ServerMsg::game_error(id, format!("there is no game {id}")));
            }
            Err(e) => {
                conn.send(&ServerMsg::game_error(
                    id,
                    incident::report("loading a game", &e),
                ));
            }
        }
    }

    /// `unwatch`: the connection stops following a game it watches as a spectator.
    pub async fn unwatch(&self, conn: &Conn, id: GameId, watched: &mut HashSet<GameId>) {
        if !watched.remove(&id) {
            conn.send(&ServerMsg::game_error(
                id,
                format!("you are not watching game {id}"),
            ));
            return;
        }
        let cell = lock(&self.games).get(&id).cloned();
        if let Some(cell) = cell {
            let emptied = {
                let mut st = cell.lock().await;
                st.subscribers.remove(&conn.id).is_some() && st.subscribers.is_empty()
            };
            if emptied {
                self.forget_if_unfollowed(&cell).await;
            }
        }
        conn.send(&ServerMsg::Unwatched { game: id });
    }

    /// The live game `id` and the colour `me` plays in it; otherwise `conn` is told why not.
    async fn my_seat(&self, conn: &Conn, me: &Seat, id: GameId) -> Option<(Arc<GameCell>, Color)> {
        let cell = self.live(conn, id).await?;
        let Some(color) = cell.seat_color(me.id) else {
            conn.send(&ServerMsg::game_error(
                id,
                format!("you are not playing in game {id}"),
            ));
            return None;
        };
        Some((cell, color))
    }

    /// `move`: the engine checks it; the store takes it if it is the game's next move and in time; it
    /// is announced to everyone here following the game (and heard by the other instances). A copy
    /// found behind the store catches up and the move is judged again, once.
    pub async fn play(&self, conn: &Conn, me: &Seat, id: GameId, text: &str) {
        let Some((cell, color)) = self.my_seat(conn, me, id).await else {
            return;
        };
        let mut st = cell.lock_for(conn).await;
        let mv = match Move::from_gtp(text, cell.size) {
            Ok(Move::Resign) => {
                drop(st);
                return self.resign(conn, me, id).await;
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
        for fresh in [false, true] {
            if fresh || (self.store.is_shared() && self.judge(&st, color, mv).is_err()) {
                // The other instances' moves reach this copy a moment after they are stored.
                if let Err(e) = self.refresh(&cell, &mut st).await {
                    conn.send(&ServerMsg::game_error(
                        id,
                        incident::report("loading a game", &e),
                    ));
                    return;
                }
            }
            if let Some(ended) = &st.ended {
                conn.send(&ServerMsg::game_error(
                    id,
                    format!("game {id} is over ({})", ended.result),
                ));
                return;
            }
            if let Err(why) = self.judge(&st, color, mv) {
                conn.send(&ServerMsg::game_error(id, why));
                return;
            }
            let number = st.moves() + 1;
            let now = now_ms();
            let next = now + ms(self.config.move_time);
            let stored = self
                .store
                .add_move(id, number, color.letter(), &mv.to_gtp(), now, next)
                .await;
            let why = match stored {
                Ok(Ok(())) => {
                    if st.game.play(mv).is_err() {
                        // Judged just above; say so in the log rather than panic.
                        incident::report("playing a checked move", &mv.to_gtp());
                    }
                    st.deadline = next;
                    let msg = move_message(id, &st.game, number as usize, color, mv, next);
                    st.broadcast(&msg);
                    if let Some(reason) = over_by_moves(&cell, &st) {
                        let game = st.game.clone();
                        if let Err(e) = self.end(&cell, &mut st, &game, reason, None).await {
                            // The move is stored; the clock keeper ends the game when it can.
                            incident::report("ending a game", &e);
                        }
                    }
                    return;
                }
                Ok(Err(MoveRefusal::OutOfStep { .. })) if !fresh => continue,
                Ok(Err(MoveRefusal::OutOfStep { .. })) => {
                    "the game moved on while your move was on its way: look again".to_string()
                }
                Ok(Err(MoveRefusal::TooLate)) => {
                    "too late: your time for this move ran out".to_string()
                }
                Ok(Err(MoveRefusal::Over)) if !fresh => continue,
                Ok(Err(MoveRefusal::Over)) => format!("game {id} is over"),
                Err(e) => format!(
                    "the server could not store the move, try again: {}",
                    incident::report("storing a move", &e)
                ),
            };
            conn.send(&ServerMsg::game_error(id, why));
            return;
        }
    }

    /// Whether `color` may play `mv` in the copy as it stands, and if not, why.
    fn judge(&self, st: &LiveState, color: Color, mv: Move) -> Result<(), String> {
        if st.game.to_move() != color {
            return Err("it is not your turn".into());
        }
        st.game.check(mv).map_err(|e| e.to_string())
    }

    /// `resign`: the opponent wins at once, once the store has it; if it cannot be stored the game
    /// goes on and the player is told to try again.
    pub async fn resign(&self, conn: &Conn, me: &Seat, id: GameId) {
        let Some((cell, color)) = self.my_seat(conn, me, id).await else {
            return;
        };
        let mut st = cell.lock_for(conn).await;
        for fresh in [false, true] {
            if let Some(ended) = &st.ended {
                conn.send(&ServerMsg::game_error(
                    id,
                    format!("game {id} is over ({})", ended.result),
                ));
                return;
            }
            let mut after = st.game.clone();
            if let Err(e) = after.play_as(color, Move::Resign) {
                conn.send(&ServerMsg::game_error(id, e.to_string()));
                return;
            }
            match self
                .end(&cell, &mut st, &after, EndReason::Resignation, None)
                .await
            {
                Ok(true) => return,
                Ok(false) if !fresh => {
                    if let Err(e) = self.refresh(&cell, &mut st).await {
                        conn.send(&ServerMsg::game_error(
                            id,
                            incident::report("loading a game", &e),
                        ));
                        return;
                    }
                }
                Ok(false) => {
                    conn.send(&ServerMsg::game_error(
                        id,
                        "the game moved on while your resignation was on its way: look again",
                    ));
                    return;
                }
                Err(e) => {
                    conn.send(&ServerMsg::game_error(
                        id,
                        format!(
                            "the server could not store the resignation, try again: {}",
                            incident::report("storing a resignation", &e)
                        ),
                    ));
                    return;
                }
            }
        }
    }

    /// Ends the game as `after` (the copy with the last act applied: its result, or at the move cap
    /// its count) says, if the store agrees it is unfinished and at the copy's move. Only then is the
    /// copy changed and the end announced. `Ok(false)`: the store disagreed (a move came in, or another
    /// instance ended it); the caller refreshes.
    async fn end(
        &self,
        cell: &GameCell,
        st: &mut LiveState,
        after: &Game,
        reason: EndReason,
        late_at: Option<Millis>,
    ) -> Result<bool, StoreError> {
        let result = after.result().unwrap_or_else(|| after.score().result());
        let score = match result {
            GameResult::Points { .. } | GameResult::Draw => {
                let s = after.score();
                Some((s.black, s.white))
            }
            GameResult::Resignation { .. } | GameResult::Time { .. } => None,
        };
        let winner_loser = result
            .winner()
            .map(|w| (cell.seat(w).id, cell.seat(w.other()).id));
        let moves = st.moves();
        // The farming check reads the store, so only for a game long enough to be rated.
        let rated = moves >= policy::MIN_RATED_MOVES
            && policy::is_rated(
                moves,
                self.store
                    .rated_between(cell.black.id, cell.white.id, now_ms() - policy::DAY_MS)
                    .await?,
            );
        let finish = Finish {
            result: result.to_string(),
            winner_loser,
            score,
            reason,
            counted: policy::is_counted(moves),
            rated,
            moves,
            late_at,
        };
        if !self.store.finish(cell.id, &finish).await? {
            return Ok(false);
        }
        st.game = after.clone();
        let ended = Ended {
            result: finish.result.clone(),
            score,
        };
        st.broadcast(&ended.message(cell.id));
        st.ended = Some(ended);
        let done = FinishedGame::of_cell(cell, st);
        self.retire_cell(cell, st, done);
        Ok(true)
    }

    /// The SGF record of a game, in play or over.
    pub async fn sgf(&self, id: GameId) -> Result<Option<String>, StoreError> {
        match self.load(id).await? {
            Found::Live(cell) => {
                let st = cell.lock().await;
                let info = GameInfo {
                    black: Some(cell.black.name.clone()),
                    white: Some(cell.white.name.clone()),
                    result: st.ended.as_ref().map(|e| e.result.clone()),
                    ..GameInfo::default()
                };
                Ok(Some(sgf::to_sgf(&st.game, &info)))
            }
            Found::Over(done) => Ok(Some(done.sgf.clone())),
            Found::Missing => Ok(None),
        }
    }
}

/// The board size of a request, if it is one the server offers.
fn preset_size(size: u32) -> Result<BoardSize, String> {
    BoardSize::PRESETS
        .into_iter()
        .find(|s| u32::from(s.get()) == size)
        .ok_or_else(|| format!("size must be 9, 13 or 19 (not {size})"))
}

/// Whether the stored moves already end the game (two passes), or reach the move cap; and how.
fn over_by_moves(cell: &GameCell, st: &LiveState) -> Option<EndReason> {
    if st.game.is_over() {
        Some(EndReason::Passes)
    } else if st.moves() >= policy::max_moves(cell.size) {
        Some(EndReason::MoveCap)
    } else {
        None
    }
}

#[cfg(test)]
mod house_tests;
#[cfg(test)]
mod tests;
