//! The house player: the server's own Go AI, for a person who finds nobody waiting (`house`).
//!
//! It is a player like any other: a row in the players table, a connection that follows its games, and
//! moves that go through [`Hub::play`], so the rules, the move clock and the records are a person's,
//! and its games count on the leaderboard under [`HOUSE_NAME`]. Only a token is missing: nobody can say
//! hello as the house, and people cannot register its name (an emoji is not a name character).
//!
//! **Where it thinks.** On the instance that runs the game's clock: the one the person asked on, or the
//! one that took the clock over when that instance fell silent or stopped. Each instance asks the store
//! which games those are ([`crate::store::Store::clocked_games_of`]) every [`SWEEP`], so a game moves to
//! the instance that took its clock within a second, and only one instance searches for it.
//!
//! **CPU.** A person's requests could otherwise fill a server's cores: this instance plays at most
//! [`HouseConfig::games`] house games at once, one per person and a quarter of them per address
//! ([`HouseConfig::per_address`]: accounts are free, so one person with many could take them all),
//! and runs at most [`HouseConfig::searches`] searches at once, one core fewer than the machine has
//! ([`search_threads`]): one core is always left to the server itself (moves, clocks, the database),
//! however many house games are asked for. A search waiting for a core waits on the game's own clock,
//! which it then reads. Each search runs on a thread of its own at a lower priority ([`SEARCH_NICE`]),
//! so that on a machine shared with other work the server's own threads come first.

use super::{lock, ms, preset_size, Found, Hub};
use crate::games::{Conn, Out, Seat};
use crate::incident;
use crate::listen::ClientKey;
use crate::names;
use crate::store::{now_ms, NewGame, StoreError};
use gridarena_engine::go::mcts::{move_seed, RESIGN_BELOW};
use gridarena_engine::go::online::{ColorPref, GameId, ServerMsg};
use gridarena_engine::go::{Clock, Color, Game, Mcts, Memory, TimeControl};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, Semaphore};

/// The house player's name: on the board, in records and on the leaderboard.
pub const HOUSE_NAME: &str = "🤖 GridArena";

/// How long the house thinks for a move by default: at 1 s on one core it won 38 of 40 games against
/// GNU Go 3.8 at its default level on 9x9 (docs/gtp.md).
pub const HOUSE_THINK: Duration = Duration::from_secs(1);

/// How often the house looks over its games for a turn it has not taken (a message it missed, a move
/// the store refused), besides answering each move as it comes.
const SWEEP: Duration = Duration::from_secs(1);

/// The niceness of a search thread (Linux: 0 is normal, 19 the lowest): below the server's own
/// threads, which answer people, so a busy house slows its own moves first.
pub const SEARCH_NICE: i32 = 10;

/// Messages the house's connection may hold unread; it reads them at once.
const HOUSE_OUTBOX: usize = 1024;

/// How the house plays.
#[derive(Clone, Debug)]
pub struct HouseConfig {
    /// House games in play at once on this instance; 0: no house player.
    pub games: usize,
    /// The longest search for one move (the move clock may leave less).
    pub think: Duration,
    /// Searches at once: the cores it may take.
    pub searches: usize,
}

impl HouseConfig {
    /// No house player.
    pub fn none() -> HouseConfig {
        HouseConfig {
            games: 0,
            think: HOUSE_THINK,
            searches: 1,
        }
    }

    /// A house on every core but one: two games per core, a search per core but one
    /// ([`search_threads`]).
    pub fn on_every_core() -> HouseConfig {
        let cores = cores();
        HouseConfig {
            games: 2 * cores,
            think: HOUSE_THINK,
            searches: search_threads(cores, cores),
        }
    }

    /// House games one address may have in play at once: a quarter of [`HouseConfig::games`], at
    /// least one. A class behind one school address shares that quarter; raise `--house-games` for it.
    pub fn per_address(&self) -> usize {
        (self.games / 4).max(1)
    }
}

/// The cores this machine offers the process.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How many searches may run at once when `asked` are asked for on `cores` cores: at most one core
/// fewer than there are, so the server keeps one, and at least one (on one core the lower priority of
/// the search is all that is left).
pub fn search_threads(asked: usize, cores: usize) -> usize {
    asked.min(cores.saturating_sub(1)).max(1)
}

/// The house player of one instance.
pub(super) struct House {
    pub(super) seat: Seat,
    pub(super) conn: Conn,
    config: HouseConfig,
    /// The games it follows here, each with the tree of its last search.
    games: Mutex<HashMap<GameId, Turn>>,
    searches: Semaphore,
    /// House requests are taken one at a time, so two cannot both take the last place, and apart from
    /// the sweep's reading of the store.
    asking: tokio::sync::Mutex<()>,
}

/// Where the house stands in one game.
#[derive(Default)]
struct Turn {
    /// The address of the person who asked for the game here (none for a game taken up from the
    /// store: after a restart or from another instance, which no longer counts against it).
    address: Option<ClientKey>,
    /// A search for this game is running (or waits for a core).
    thinking: bool,
    /// What the last search learnt; out while a search runs.
    memory: Option<Memory>,
}

impl House {
    /// The house of an instance on `store`: its player row, made on first start; and the queue its
    /// connection's messages arrive in, for [`Hub::house_loop`].
    pub(super) async fn open(
        store: &crate::store::Store,
        config: HouseConfig,
        conn_id: u64,
    ) -> Result<(House, mpsc::Receiver<Out>), StoreError> {
        let key = names::name_key(HOUSE_NAME);
        let id = match store.player_id(&key).await? {
            Some(id) => id,
            None => {
                // A token nobody is given: the house cannot be logged into.
                let token = names::new_token().map_err(|e| StoreError(e.to_string()))?;
                match store
                    .create_player(HOUSE_NAME, &key, &names::token_hash(&token))
                    .await
                {
                    Ok(id) => id,
                    // Another instance made it a moment ago.
                    Err(_) => store.player_id(&key).await?.ok_or_else(|| {
                        StoreError("the house player could not be created".into())
                    })?,
                }
            }
        };
        let (tx, rx) = mpsc::channel(HOUSE_OUTBOX);
        let house = House {
            seat: Seat {
                id,
                name: HOUSE_NAME.to_string(),
            },
            conn: Conn::new(conn_id, tx),
            searches: Semaphore::new(search_threads(config.searches, cores())),
            config,
            games: Mutex::new(HashMap::new()),
            asking: tokio::sync::Mutex::new(()),
        };
        Ok((house, rx))
    }

    fn follow(&self, id: GameId, address: Option<ClientKey>) {
        lock(&self.games).entry(id).or_default().address = address;
    }

    /// The games the house plays here for people at `address`.
    fn playing_for(&self, address: ClientKey) -> usize {
        lock(&self.games)
            .values()
            .filter(|t| t.address == Some(address))
            .count()
    }

    fn forget(&self, id: GameId) {
        lock(&self.games).remove(&id);
    }

    /// Whether the house plays game `id` here.
    #[cfg(test)]
    pub(super) fn plays(&self, id: GameId) -> bool {
        lock(&self.games).contains_key(&id)
    }

    fn playing(&self) -> usize {
        lock(&self.games).len()
    }

    /// Marks a search for `id` as started and hands over its memory; `None` if the house does not play
    /// `id` here or already searches for it.
    fn start_search(&self, id: GameId) -> Option<Memory> {
        let mut games = lock(&self.games);
        let turn = games.get_mut(&id)?;
        if turn.thinking {
            return None;
        }
        turn.thinking = true;
        Some(turn.memory.take().unwrap_or_default())
    }

    /// The search for `id` is over; its memory is kept for the next move.
    fn end_search(&self, id: GameId, memory: Option<Memory>) {
        if let Some(turn) = lock(&self.games).get_mut(&id) {
            turn.thinking = false;
            turn.memory = memory;
        }
    }
}

/// Whether the person plays Black against the house, as they asked (either colour: a coin).
fn person_plays_black(color: ColorPref) -> bool {
    match color {
        ColorPref::Black => true,
        ColorPref::White => false,
        ColorPref::Any => names::random_below(2) == 0,
    }
}

impl Hub {
    /// `house`: a game against the house player at once, if it plays here, has room for one more
    /// game, and does not play this person already.
    pub async fn house_game(&self, conn: &Conn, me: &Seat, size: u32, color: ColorPref) {
        let Some(house) = &self.house else {
            conn.send(&ServerMsg::error(
                "this server has no AI player: find a game against a person instead",
            ));
            return;
        };
        let size = match preset_size(size) {
            Ok(size) => size,
            Err(why) => {
                conn.send(&ServerMsg::error(why));
                return;
            }
        };
        let asking = house.asking.lock().await;
        let already = match self.store.unfinished_of(me.id).await {
            Ok(games) => games
                .into_iter()
                .find(|g| g.black.0 == house.seat.id || g.white.0 == house.seat.id),
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report("loading games", &e)));
                return;
            }
        };
        if let Some(game) = already {
            conn.send(&ServerMsg::error(format!(
                "you are playing {HOUSE_NAME} already, in game {}: finish that game first",
                game.id
            )));
            return;
        }
        let playing = house.playing();
        if playing >= house.config.games {
            conn.send(&ServerMsg::error(format!(
                "{HOUSE_NAME} is playing as many games as this server allows at once ({playing}): \
                 try again in a few minutes, or find a game against a person"
            )));
            return;
        }
        if let Some(address) = conn.address {
            let mine = house.playing_for(address);
            if mine >= house.config.per_address() {
                conn.send(&ServerMsg::error(format!(
                    "{HOUSE_NAME} is playing {mine} games for people from your address already, the \
                     most one address may: try again when one is over, or find a game against a \
                     person"
                )));
                return;
            }
        }
        let (black, white) = if person_plays_black(color) {
            (me.id, house.seat.id)
        } else {
            (house.seat.id, me.id)
        };
        let now = now_ms();
        let new = NewGame {
            size: size.get(),
            black,
            white,
            instance: self.instance.clone(),
            now,
            first_deadline: now + ms(self.config.move_time),
        };
        let game = match self.store.create_game(&new).await {
            Ok(game) => game,
            Err(e) => {
                conn.send(&ServerMsg::error(incident::report(
                    "starting a game against the house",
                    &e,
                )));
                return;
            }
        };
        house.follow(game, conn.address);
        drop(asking);
        self.tell_matched(game, &house.conn, house.seat.id).await;
        self.tell_matched(game, conn, me.id).await;
    }

    /// Makes the house play, here, exactly the unfinished house games whose clock this instance runs:
    /// at start (its games from before a restart), and at each sweep, so it takes up the games of an
    /// instance that fell silent when this one takes their clocks, and lets go of a game whose clock
    /// another instance took.
    pub(super) async fn take_up_house_games(&self) {
        let Some(house) = &self.house else {
            return;
        };
        // Not while a request is taken: its game could be made after this reading and then dropped.
        let asking = house.asking.lock().await;
        let ids = match self
            .store
            .clocked_games_of(house.seat.id, &self.instance)
            .await
        {
            Ok(ids) => ids,
            Err(e) => {
                incident::report("loading the house's games", &e);
                return;
            }
        };
        let new: Vec<GameId> = {
            let mut games = lock(&house.games);
            games.retain(|id, _| ids.contains(id));
            ids.into_iter()
                .filter(|id| match games.entry(*id) {
                    Entry::Vacant(e) => {
                        e.insert(Turn::default());
                        true
                    }
                    Entry::Occupied(_) => false,
                })
                .collect()
        };
        drop(asking);
        for id in new {
            self.tell_matched(id, &house.conn, house.seat.id).await;
        }
    }

    /// The house's connection: it reads what the hub sends it, as a person's page would, and takes
    /// its turn in the game a message is about; every [`SWEEP`] it looks over all its games.
    pub(super) async fn house_loop(self: Arc<Self>, mut rx: mpsc::Receiver<Out>) {
        let Some(house) = &self.house else {
            return;
        };
        let mut sweep = tokio::time::interval(SWEEP);
        loop {
            tokio::select! {
                out = rx.recv() => match out {
                    None => return,
                    Some(Out::Text(text)) => match ServerMsg::parse(text.as_str()) {
                        Ok(ServerMsg::Ended { game, .. }) => house.forget(game),
                        Ok(ServerMsg::Matched { game, .. } | ServerMsg::Move { game, .. }) => {
                            self.house_turn(game);
                        }
                        Ok(ServerMsg::Snapshot(s)) => self.house_turn(s.game),
                        Ok(ServerMsg::Error { message, game }) => {
                            let about = game.map(|g| format!(" in game {g}")).unwrap_or_default();
                            incident::report(&format!("the house's move{about}"), &message);
                        }
                        Ok(_) | Err(_) => {}
                    },
                    Some(Out::Close(_) | Out::Ping(_)) => {}
                },
                _ = sweep.tick() => {
                    self.take_up_house_games().await;
                    let ids: Vec<GameId> = lock(&house.games).keys().copied().collect();
                    for id in ids {
                        self.house_turn(id);
                    }
                }
            }
        }
    }

    /// Starts the house's search in game `id` unless one runs; it plays if it is the house's turn.
    fn house_turn(self: &Arc<Self>, id: GameId) {
        let Some(house) = &self.house else {
            return;
        };
        let Some(memory) = house.start_search(id) else {
            return;
        };
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            let (memory, moved) = hub.house_move(id, memory).await;
            if let Some(house) = &hub.house {
                house.end_search(id, memory);
                // The person may have answered while the house was playing.
                if moved {
                    hub.house_turn(id);
                }
            }
        });
    }

    /// Searches and plays the house's move in game `id` if it is the house's turn. Returns the memory
    /// to keep and whether it played.
    async fn house_move(&self, id: GameId, memory: Memory) -> (Option<Memory>, bool) {
        let Some(house) = &self.house else {
            return (None, false);
        };
        let cell = match self.load(id).await {
            Ok(Found::Live(cell)) => cell,
            Ok(Found::Over(_) | Found::Missing) => {
                house.forget(id);
                return (None, false);
            }
            Err(e) => {
                incident::report("loading a house game", &e);
                return (Some(memory), false);
            }
        };
        let Some(color) = cell.seat_color(house.seat.id) else {
            house.forget(id);
            return (None, false);
        };
        let game = {
            let st = cell.lock().await;
            if st.ended.is_some() {
                drop(st);
                house.forget(id);
                return (None, false);
            }
            if st.game.to_move() != color {
                return (Some(memory), false);
            }
            st.game.clone()
        };
        let Ok(_core) = house.searches.acquire().await else {
            return (Some(memory), false);
        };
        let deadline = cell.lock().await.deadline;
        let left = Duration::from_millis(u64::try_from(deadline - now_ms()).unwrap_or(0));
        let (move_time, think) = (self.config.move_time, house.config.think);
        let searched = on_a_low_thread(move || {
            think_for_the_house(&game, color, id, memory, move_time, left, think)
        })
        .await;
        let (mv, memory) = match searched {
            Ok(found) => found,
            Err(e) => {
                incident::report("the house's search", &e);
                return (None, false);
            }
        };
        drop(_core);
        self.play(&house.conn, &house.seat, id, &mv).await;
        (Some(memory), true)
    }
}

/// Runs `work` on a thread of its own at [`SEARCH_NICE`] and waits for its answer without holding an
/// async thread. A thread per search (not tokio's blocking pool): a lowered priority stays with its
/// thread, and the pool's threads also read the app's files for people. Starting a thread costs tens
/// of microseconds, against a search of a second.
async fn on_a_low_thread<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    std::thread::Builder::new()
        .name("house-search".into())
        .spawn(move || {
            lower_priority();
            let _ = tx.send(work());
        })
        .map_err(|e| format!("cannot start a search thread: {e}"))?;
    rx.await
        .map_err(|_| "the search thread ended without an answer (it panicked)".to_string())
}

/// Lowers the calling thread's priority to [`SEARCH_NICE`] (a server started lower stays lower). On
/// Linux a thread has a nice value of its own (`setpriority` on its thread id), so the server's other
/// threads keep theirs; elsewhere `setpriority` would lower the whole process, so nothing is done
/// there. A failure is harmless (the search runs at the server's priority) and is not reported.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: gettid, getpriority and setpriority have no preconditions; they only read and set
        // this thread's scheduling attributes.
        unsafe {
            let tid = libc::gettid() as libc::id_t;
            if libc::getpriority(libc::PRIO_PROCESS, tid) < SEARCH_NICE {
                libc::setpriority(libc::PRIO_PROCESS, tid, SEARCH_NICE);
            }
        }
    }
}

/// The house's move in `game` as `color`, in GTP words: a search for at most `think`, and within the
/// `left` of its `move_time` clock; the seed is the game's number, so a game's moves follow from its
/// position.
fn think_for_the_house(
    game: &Game,
    color: Color,
    id: GameId,
    mut memory: Memory,
    move_time: Duration,
    left: Duration,
    think: Duration,
) -> (String, Memory) {
    let mut clock = Clock::new(TimeControl::per_move(move_time));
    clock.set_left(left, 1);
    let started = Instant::now();
    // The clock always sets the budget here, so the playout count (used only without one) is moot.
    let decision = Mcts::new(1)
        .with_resign_below(Some(RESIGN_BELOW))
        .think_on_clock(
            game,
            color,
            move_seed(id, game),
            &mut memory,
            Some(&mut clock),
            Some(think),
            || started.elapsed(),
        );
    (decision.mv.to_gtp(), memory)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_leave_a_core_to_the_server() {
        assert_eq!(search_threads(16, 16), 15);
        assert_eq!(search_threads(4, 16), 4);
        assert_eq!(search_threads(8, 2), 1);
        assert_eq!(
            search_threads(8, 1),
            1,
            "one core: one search, at a lower priority"
        );
        assert_eq!(search_threads(0, 8), 1);
        let cores = cores();
        assert_eq!(
            HouseConfig::on_every_core().searches,
            cores.saturating_sub(1).max(1)
        );
    }

    #[test]
    fn a_quarter_of_the_house_games_per_address() {
        let games = |games| HouseConfig {
            games,
            ..HouseConfig::none()
        };
        assert_eq!(games(32).per_address(), 8);
        assert_eq!(games(4).per_address(), 1);
        assert_eq!(games(1).per_address(), 1);
    }

    /// Asks `hub`'s house for a game for a new player `name` connected from `ip`; what the player
    /// is told first.
    async fn ask_house_from(hub: &Hub, name: &str, ip: &str) -> ServerMsg {
        let (_, _, token) = hub.register(name).await.unwrap();
        let (tx, mut rx) = mpsc::channel(1024);
        let conn = Conn::new(hub.next_conn_id(), tx).from(ip.parse().unwrap());
        let seat = hub.hello(&conn, &token).await.unwrap();
        super::super::tests::received(&mut rx);
        hub.house_game(&conn, &seat, 9, ColorPref::Black).await;
        let told = super::super::tests::received(&mut rx);
        told.into_iter().next().expect("an answer")
    }

    #[tokio::test]
    async fn house_games_per_address_count_an_ipv6_64_and_mapped_ipv4_as_one_address() {
        let store = crate::store::Store::open_in_memory().await.unwrap();
        let config = super::super::HubConfig {
            move_time: Duration::from_secs(300),
            lease: Duration::from_secs(5),
            house: HouseConfig {
                games: 4,
                think: Duration::from_millis(20),
                searches: 1,
            },
            sockets_per_player: crate::MAX_SOCKETS_PER_PLAYER,
        };
        let hub = Hub::start(store, config).await.unwrap();
        // One game per address (a quarter of 4): a second address of the same /64 is the same
        // person's, as is an IPv4 address written as IPv6.
        for (first, same, name) in [
            ("2001:db8:1:2::a", "2001:db8:1:2:ffff::b", "Six"),
            ("192.0.2.7", "::ffff:192.0.2.7", "Four"),
        ] {
            let matched = ask_house_from(&hub, &format!("{name}A"), first).await;
            assert!(matches!(matched, ServerMsg::Matched { .. }), "{matched:?}");
            let refused = ask_house_from(&hub, &format!("{name}B"), same).await;
            assert!(
                matches!(&refused, ServerMsg::Error { message, .. } if message.contains("from your address")),
                "{refused:?}"
            );
        }
        // The next /64 is another address.
        let other = ask_house_from(&hub, "Neighbour", "2001:db8:1:3::a").await;
        assert!(matches!(other, ServerMsg::Matched { .. }), "{other:?}");
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn a_search_runs_at_a_lower_priority_and_the_caller_keeps_its_own() {
        // SAFETY: getpriority and gettid have no preconditions.
        let nice =
            || unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        let before = nice();
        let searched = on_a_low_thread(nice).await.unwrap();
        assert_eq!(searched, before.max(SEARCH_NICE));
        assert_eq!(nice(), before, "the async thread's priority is untouched");
    }
}
