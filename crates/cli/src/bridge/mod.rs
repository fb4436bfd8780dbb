//! `gridarena halma bridge`: a program served as a web AI, so the arena page, the page's tournament and
//! the endpoint doctor play it unchanged.
//!
//! Each request names its game (`gameId`) and its team: each (game, team) gets its own program player,
//! so its own working folder and, in the line format, its own process. A request for a game at a lower
//! `turn` than the last one seen is a new game from the same seed (the page's "New game"): it gets a new
//! player at once, and a move of the old game still running is cancelled (its program killed by its own
//! thread) and answered HTTP 409. No request ever waits for another game's move: the games' table is
//! locked only to look a player up. A game not asked for [`IDLE`] is ended, and at most [`MAX_GAMES`]
//! are kept at once.
//!
//! A game's requests wait for its program one at a time, each holding a thread: so at most
//! [`MAX_IN_FLIGHT_PER_GAME`] requests of one `gameId` and [`MAX_IN_FLIGHT`] in all are taken at once,
//! and any more are refused at once (HTTP 429 and 503), so that a client that floods one game never
//! holds up the others, and nothing queues without bound.
//!
//! A move is answered with the web protocol's JSON; a program's failure with HTTP 502 and
//! `{"error": ..., "code": ...}`, so the page's inspector shows what went wrong. The program's stderr
//! stays in the bridge's log unless the bridge was told to share it ([`Bridge::share_stderr`]): it can
//! hold anything the program read, and the answer goes to a web page.
//!
//! Who may ask at all is [`access`]'s question, answered before a request reaches [`Bridge::answer`].

pub mod access;

use crate::program::{self, Clock, ProgramPlayer};
use gridarena_engine::halma::{AiRequest, Answer, NoMove, Program, ProgramFailure, Team};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most games played at once.
pub const MAX_GAMES: usize = 64;
/// How long a game may go unasked before it is ended.
pub const IDLE: Duration = Duration::from_secs(600);
/// The largest request read.
pub const MAX_REQUEST_BYTES: usize = 256 * 1024;
/// The longest `gameId`: the page's are 16 hex digits.
pub const MAX_GAME_ID: usize = 64;
/// Requests of one `gameId` (both teams) taken at once. The page asks each team once a tick, and a
/// tick's move may still be ending when the next tick's request comes: four at most, and room for more.
pub const MAX_IN_FLIGHT_PER_GAME: usize = 8;
/// Requests taken at once in all, each a thread and often a process: the page's comparisons play 8
/// games at once, two teams each, four times over.
pub const MAX_IN_FLIGHT: usize = 64;

/// One (game, team) the bridge is playing.
struct Slot {
    player: Arc<ProgramPlayer>,
    last_turn: u32,
    asked: Instant,
}

/// The program and the games it is playing.
pub struct Bridge {
    program: Program,
    clock: Clock,
    share_stderr: bool,
    games: Mutex<HashMap<(String, Team), Slot>>,
    in_flight: Mutex<InFlight>,
}

/// The requests being answered: in all, and per `gameId`.
#[derive(Default)]
struct InFlight {
    total: usize,
    per_game: HashMap<String, usize>,
}

/// One request's place among those in flight, given back when dropped.
struct Taken<'a> {
    in_flight: &'a Mutex<InFlight>,
    id: String,
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        let mut f = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        f.total = f.total.saturating_sub(1);
        if let Some(n) = f.per_game.get_mut(&self.id) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                f.per_game.remove(&self.id);
            }
        }
    }
}

/// An HTTP answer: status, JSON body, and a line for the bridge's log.
#[derive(Debug)]
pub struct Answered {
    pub status: u16,
    pub body: String,
    pub log: String,
}

impl Bridge {
    pub fn new(program: Program, clock: Clock) -> Bridge {
        Bridge {
            program,
            clock,
            share_stderr: false,
            games: Mutex::new(HashMap::new()),
            in_flight: Mutex::new(InFlight::default()),
        }
    }

    /// Sends the program's stderr with a failure's answer (`--share-stderr`), as well as to the log.
    #[must_use]
    pub fn share_stderr(mut self, share: bool) -> Bridge {
        self.share_stderr = share;
        self
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// Answers one request body (blocking while the program thinks).
    pub fn answer(&self, body: &[u8]) -> Answered {
        let refuse = |status: u16, why: String| Answered {
            status,
            body: json!({ "error": why }).to_string(),
            log: format!("refused: {why}"),
        };
        if body.len() > MAX_REQUEST_BYTES {
            return refuse(
                413,
                format!("the request is over {MAX_REQUEST_BYTES} bytes"),
            );
        }
        let value: Value = match serde_json::from_slice(body) {
            Ok(v) => v,
            Err(e) => return refuse(400, format!("the request is not JSON: {e}")),
        };
        let request: AiRequest = match serde_json::from_value(value.clone()) {
            Ok(r) => r,
            Err(e) => return refuse(400, format!("the request is not the arena's request: {e}")),
        };
        let game = match request.to_game() {
            Ok(g) => g,
            Err(e) => return refuse(400, format!("the request's position is not playable: {e}")),
        };
        let team = request.team.unwrap_or(Team::Red);
        let turn = request.turn.unwrap_or(0);
        let id = request.game_id.clone().unwrap_or_default();
        if let Err(why) = check_game_id(&id) {
            return refuse(400, why);
        }
        let _taken = match self.take(&id) {
            Ok(taken) => taken,
            Err((status, why)) => return refuse(status, why),
        };
        let Some(player) = self.player_for(&id, team, turn) else {
            return refuse(
                503,
                format!(
                    "each of the bridge's {MAX_GAMES} games has a move in progress; try again when \
                     one is answered"
                ),
            );
        };
        let line = value.to_string();
        let reply = player.ask(&program::Ask {
            game: &game,
            team,
            seed: 0,
            single: false,
            limit: request.time_limit_ms.map(Duration::from_millis),
            request: Some(&line),
        });
        let took = reply
            .latency
            .map_or_else(|| "killed".to_string(), |l| format!("{} ms", l.as_millis()));
        let game_name = if id.is_empty() { "-".to_string() } else { id };
        if reply.cancelled {
            return Answered {
                status: 409,
                body: json!({
                    "error": format!("game {game_name} was started again while this move ran: the move was cancelled"),
                    "code": "cancelled",
                })
                .to_string(),
                log: format!("game {game_name} {team} turn {turn}: cancelled, the game was started again ({took})"),
            };
        }
        match reply.answer {
            Answer::Move(path) => Answered {
                status: 200,
                body: serde_json::to_string(&path).unwrap_or_default(),
                log: format!("game {game_name} {team} turn {turn}: {path} ({took})"),
            },
            Answer::NoMove(why) => {
                let body = if self.share_stderr {
                    let stderr = match &why {
                        NoMove::Program(f) => f.stderr().map(str::to_string),
                        _ => None,
                    };
                    json!({ "error": why.to_string(), "code": why.code(), "stderr": stderr })
                } else {
                    json!({ "error": without_stderr(&why), "code": why.code() })
                };
                Answered {
                    status: 502,
                    body: body.to_string(),
                    // One line per move, whatever the program wrote on stderr.
                    log: format!(
                        "game {game_name} {team} turn {turn}: {} ({took})",
                        why.to_string().replace('\n', " / ")
                    ),
                }
            }
        }
    }

    /// A place for a request of game `id` among those in flight, or the refusal's status and reason.
    fn take(&self, id: &str) -> Result<Taken<'_>, (u16, String)> {
        let mut f = self.in_flight.lock().unwrap_or_else(|p| p.into_inner());
        let game = f.per_game.get(id).copied().unwrap_or(0);
        if game >= MAX_IN_FLIGHT_PER_GAME {
            let name = if id.is_empty() { "-" } else { id };
            return Err((
                429,
                format!(
                    "game {name} has {game} requests in progress already, the most one game may: \
                     ask again when one is answered"
                ),
            ));
        }
        if f.total >= MAX_IN_FLIGHT {
            return Err((
                503,
                format!(
                    "the bridge is answering {} requests already, the most it takes at once: ask \
                     again when one is answered",
                    f.total
                ),
            ));
        }
        f.total += 1;
        *f.per_game.entry(id.to_string()).or_insert(0) += 1;
        Ok(Taken {
            in_flight: &self.in_flight,
            id: id.to_string(),
        })
    }

    /// The player of `team` in game `id`, a new one when `turn` went back; `None` when every one of
    /// the [`MAX_GAMES`] games has a move in progress.
    ///
    /// The table is locked only while the player is looked up: an old game's player is cancelled
    /// (which never waits) and dropped here, and its last request's thread, which holds it too, kills
    /// its program and removes its folder. Idle games are dropped after the lock is let go. A full
    /// table makes room by ending the game asked least recently that has no move in progress: every
    /// "Ask about this position" on the page is a game of its own, and a student asks many.
    fn player_for(&self, id: &str, team: Team, turn: u32) -> Option<Arc<ProgramPlayer>> {
        let now = Instant::now();
        let mut gone = Vec::new();
        let player = {
            let mut games = self.games.lock().unwrap_or_else(|p| p.into_inner());
            let idle: Vec<_> = games
                .iter()
                .filter(|(_, slot)| now.duration_since(slot.asked) >= IDLE)
                .map(|(key, _)| key.clone())
                .collect();
            gone.extend(idle.iter().filter_map(|key| games.remove(key)));
            let key = (id.to_string(), team);
            let room = games.contains_key(&key) || games.len() < MAX_GAMES || {
                // Only the table holds the player of a game with no move in progress.
                let oldest = games
                    .iter()
                    .filter(|(_, slot)| Arc::strong_count(&slot.player) == 1)
                    .min_by_key(|(_, slot)| slot.asked)
                    .map(|(key, _)| key.clone());
                let freed = oldest.and_then(|key| games.remove(&key));
                let made = freed.is_some();
                gone.extend(freed);
                made
            };
            room.then(|| {
                let slot = games.entry(key).or_insert_with(|| Slot {
                    player: self.new_player(),
                    last_turn: turn,
                    asked: now,
                });
                if turn < slot.last_turn {
                    let old = std::mem::replace(&mut slot.player, self.new_player());
                    gone.push(Slot {
                        player: old,
                        last_turn: slot.last_turn,
                        asked: slot.asked,
                    });
                }
                slot.last_turn = turn;
                slot.asked = now;
                Arc::clone(&slot.player)
            })
        };
        for slot in gone {
            // A player no request holds ends here (its process, then its folder); one still asked is
            // cancelled and ends with its request.
            slot.player.cancel();
        }
        player
    }

    fn new_player(&self) -> Arc<ProgramPlayer> {
        Arc::new(ProgramPlayer::new(self.program.clone(), self.clock))
    }

    /// Ends every game: processes killed, folders removed.
    pub fn end_all(&self) {
        let games = std::mem::take(&mut *self.games.lock().unwrap_or_else(|p| p.into_inner()));
        for slot in games.values() {
            slot.player.end_game();
        }
    }
}

/// A `gameId` is a plain name: it is printed in the log and names a game the page may start again.
fn check_game_id(id: &str) -> Result<(), String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.:".contains(c);
    if id.len() <= MAX_GAME_ID && id.chars().all(plain) {
        return Ok(());
    }
    let shown: String = id.chars().take(MAX_GAME_ID).collect();
    let more = if id.chars().count() > MAX_GAME_ID {
        "…"
    } else {
        ""
    };
    Err(format!(
        "the request's gameId must be at most {MAX_GAME_ID} letters, digits, '-', '_', '.' or ':' \
         (the page sends the game's seed in hex), not {shown:?}{more}"
    ))
}

/// A failure's message without the program's stderr, which stays in the bridge's log.
fn without_stderr(why: &NoMove) -> String {
    let NoMove::Program(failure) = why else {
        return why.to_string();
    };
    let mut failure = failure.clone();
    let had = failure.stderr().is_some();
    match &mut failure {
        ProgramFailure::Crashed { stderr, .. }
        | ProgramFailure::NoOutput { stderr }
        | ProgramFailure::Malformed { stderr, .. } => stderr.clear(),
        _ => {}
    }
    if had {
        format!(
            "{failure}; its stderr is in the bridge's log (start the bridge with --share-stderr to send \
             it with its answers)"
        )
    } else {
        failure.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::ProgramFormat;

    fn bridge(command: &str) -> Bridge {
        let dir = std::env::temp_dir();
        let program = Program::new(ProgramFormat::Lines, &dir.display().to_string(), command)
            .expect("a program");
        Bridge::new(program, Clock::default())
    }

    #[test]
    fn hostile_requests_are_refused_with_a_reason() {
        let b = bridge("cat");
        for (body, status, says) in [
            (&b"not json"[..], 400, "not JSON"),
            (b"[1]", 400, "not the arena's request"),
            (b"{\"boardSize\": 99, \"pieces\": [], \"destinations\": [], \"enemy\": [], \"enemydestinations\": []}", 400, "not playable"),
        ] {
            let a = b.answer(body);
            assert_eq!(a.status, status, "{a:?}");
            assert!(a.body.contains(says), "{a:?}");
        }
        assert_eq!(b.answer(&vec![b' '; MAX_REQUEST_BYTES + 1]).status, 413);
    }

    #[test]
    fn a_game_asked_again_from_turn_zero_is_a_new_game() {
        let b = bridge("cat");
        let p1 = b.player_for("g", Team::Red, 4).expect("room");
        let p2 = b.player_for("g", Team::Red, 6).expect("room");
        assert!(Arc::ptr_eq(&p1, &p2), "one game, one player");
        let other = b.player_for("g", Team::Blue, 6).expect("room");
        assert!(!Arc::ptr_eq(&p1, &other), "each team its own");
        // A turn that went back is a new game: a new player, never the old one's lock.
        let again = b.player_for("g", Team::Red, 2).expect("room");
        assert!(!Arc::ptr_eq(&p1, &again), "a new game, a new player");
        let next = b.player_for("g", Team::Red, 3).expect("room");
        assert!(Arc::ptr_eq(&again, &next), "the new game goes on");
        b.end_all();
    }

    #[test]
    fn a_full_bridge_ends_the_game_asked_least_recently_that_has_no_move_in_progress() {
        let b = bridge("cat");
        // Each held player stands for a move in progress: its request's thread holds it.
        let mut held: Vec<_> = (0..MAX_GAMES)
            .map(|i| b.player_for(&format!("g{i}"), Team::Red, 1).expect("room"))
            .collect();
        assert!(
            b.player_for("x", Team::Red, 0).is_none(),
            "every game has a move in progress"
        );
        // Games 7 and 3 are answered, and 3 is asked (and answered) once more since.
        drop(held.remove(7));
        drop(held.remove(3));
        let three = b.player_for("g3", Team::Red, 2).expect("a game it plays");
        let three_at = Arc::as_ptr(&three);
        drop(three);
        let x = b.player_for("x", Team::Red, 0).expect("g7 made room");
        let three = b.player_for("g3", Team::Red, 3).expect("g3 kept");
        assert_eq!(Arc::as_ptr(&three), three_at, "g3 is still the same game");
        drop(three);
        let y = b.player_for("y", Team::Red, 0).expect("g3 made room");
        assert!(
            b.player_for("g7", Team::Red, 2).is_none(),
            "every game left has a move in progress"
        );
        drop((x, y, held));
        b.end_all();
    }

    #[test]
    fn requests_in_flight_are_bounded_per_game_and_in_all_and_given_back() {
        let b = bridge("cat");
        let mut held: Vec<_> = (0..MAX_IN_FLIGHT_PER_GAME)
            .map(|_| b.take("a").expect("room"))
            .collect();
        let (status, why) = b.take("a").err().expect("game a is full");
        assert_eq!(status, 429);
        assert!(why.contains("game a has 8 requests"), "{why}");
        held.pop();
        held.push(b.take("a").expect("a place came back"));
        let mut game = 0;
        while held.len() < MAX_IN_FLIGHT {
            held.push(b.take(&format!("g{}", game / 4)).expect("room"));
            game += 1;
        }
        let (status, why) = b.take("new").err().expect("the bridge is full");
        assert_eq!(status, 503);
        assert!(why.contains("64 requests"), "{why}");
        drop(held);
        let f = b.in_flight.lock().unwrap();
        assert_eq!(
            (f.total, f.per_game.len()),
            (0, 0),
            "every place given back"
        );
    }

    #[test]
    fn a_game_id_is_a_plain_name() {
        for ok in [
            "",
            "00000000000004d2",
            "game-1.red_2:b",
            &"x".repeat(MAX_GAME_ID),
        ] {
            assert_eq!(check_game_id(ok), Ok(()), "{ok}");
        }
        for bad in [
            "a b",
            "a\u{1b}[2J",
            "é",
            "a\nb",
            "a/b",
            &"x".repeat(MAX_GAME_ID + 1),
        ] {
            let why = check_game_id(bad).unwrap_err();
            assert!(why.contains("gameId"), "{why}");
        }
    }

    #[test]
    fn a_failures_message_keeps_the_programs_stderr_out_unless_shared() {
        let failure = NoMove::Program(ProgramFailure::Crashed {
            status: "exit status 1".into(),
            stderr: "secret".into(),
        });
        let message = without_stderr(&failure);
        assert!(!message.contains("secret"), "{message}");
        assert!(message.contains("crashed (exit status 1)"), "{message}");
        assert!(message.contains("--share-stderr"), "{message}");
        let timed_out = NoMove::Program(ProgramFailure::TimedOut { after_ms: 5 });
        assert_eq!(without_stderr(&timed_out), timed_out.to_string());
    }
}
