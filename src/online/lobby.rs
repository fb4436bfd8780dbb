//! The lobby of a signed-in player as plain Rust: the record, the seek in the queue, the games this page
//! follows, the one on screen and the notice line. The server's messages and the user's actions change
//! it and say what to send; the components only draw it and carry messages, so the lobby's behaviour is
//! tested natively, as `go::session` is for the Go page.

use super::api::Identity;
use super::game_view::{Applied, OnlineGame};
use crate::notice::{Line, Tone};
use gridarena_engine::go::online::{ClientMsg, ColorPref, GameId, PerColor, ServerMsg};
use gridarena_engine::go::{Color, Move};

/// The lobby's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Lobby {
    me: Identity,
    /// Wins and losses, once the server has said welcome.
    record: Option<(u32, u32)>,
    /// The board size and colour this player waits for.
    seeking: Option<(u32, ColorPref)>,
    /// The server's AI player's name, when it takes games.
    house: Option<String>,
    games: Vec<OnlineGame>,
    /// The game on screen; `None` shows the lobby.
    shown: Option<GameId>,
    notice: Option<Line>,
}

/// What the page must do after a server message, beyond drawing the lobby again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reaction {
    /// A message to send back: a `watch` that asks for a fresh snapshot of a game out of step.
    pub reply: Option<ClientMsg>,
    /// A line for the console, for whoever debugs the page rather than for the player.
    pub warning: Option<String>,
    /// A game ended, so the leaderboard has changed.
    pub refresh_leaderboard: bool,
}

/// The colour preference a value of the seek form's select stands for.
pub fn color_pref(value: &str) -> ColorPref {
    match value {
        "black" => ColorPref::Black,
        "white" => ColorPref::White,
        _ => ColorPref::Any,
    }
}

impl Lobby {
    pub fn new(me: Identity) -> Lobby {
        Lobby {
            me,
            record: None,
            seeking: None,
            house: None,
            games: Vec::new(),
            shown: None,
            notice: None,
        }
    }

    pub fn name(&self) -> &str {
        &self.me.name
    }

    /// " · 3 won, 1 lost", once the server has said.
    pub fn record_text(&self) -> Option<String> {
        self.record.map(|(w, l)| format!(" · {w} won, {l} lost"))
    }

    /// The name of the server's AI player, when the server has one.
    pub fn house(&self) -> Option<String> {
        self.house.clone()
    }

    /// The waiting line while a seek is in the queue.
    pub fn waiting_text(&self) -> Option<String> {
        self.seeking.map(|(n, c)| {
            let c = match c {
                ColorPref::Any => "either colour",
                ColorPref::Black => "Black",
                ColorPref::White => "White",
            };
            format!("Waiting for an opponent: {n}x{n}, {c}… ")
        })
    }

    pub fn shown(&self) -> Option<GameId> {
        self.shown
    }

    /// The game on screen, once its snapshot has come.
    pub fn current(&self) -> Option<&OnlineGame> {
        let id = self.shown?;
        self.games.iter().find(|g| g.id == id)
    }

    pub fn notice(&self) -> Option<&Line> {
        self.notice.as_ref()
    }

    /// The games in play that are not on screen, with a label for a button that shows each.
    pub fn other_games(&self) -> Vec<(GameId, String)> {
        self.games
            .iter()
            .filter(|g| !g.is_over() && Some(g.id) != self.shown)
            .map(|g| (g.id, format!("Game {}: {} vs {}", g.id, g.black, g.white)))
            .collect()
    }

    /// Puts a line in the notice.
    pub fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.notice = Some(Line::new(tone, text));
    }

    /// The connection (re)opened: the `hello` to send. A seek does not survive a lost connection, since
    /// the server forgot it.
    pub fn connected(&mut self) -> ClientMsg {
        self.seeking = None;
        ClientMsg::Hello {
            token: self.me.token.clone(),
        }
    }

    /// Takes in one message from the server.
    pub fn receive(&mut self, msg: ServerMsg, now: f64) -> Reaction {
        match msg {
            ServerMsg::Welcome {
                wins,
                losses,
                house,
                ..
            } => {
                self.record = Some((wins, losses));
                self.house = house;
            }
            ServerMsg::Waiting { size, color } => self.seeking = Some((size, color)),
            ServerMsg::Cancelled => self.seeking = None,
            ServerMsg::Unwatched { game } => {
                self.games.retain(|g| g.id != game || g.mine.is_some());
                if self.shown == Some(game) && self.current().is_none() {
                    self.shown = None;
                }
            }
            ServerMsg::Matched {
                game,
                color,
                opponent,
                size,
            } => {
                self.seeking = None;
                self.shown = Some(game);
                self.say(
                    Tone::Info,
                    format!("Matched with {opponent} on {size}x{size}: you play {color}"),
                );
            }
            ServerMsg::Snapshot(s) => match OnlineGame::from_snapshot(&s, Some(&self.me.name), now)
            {
                Ok(g) => {
                    let id = g.id;
                    match self.games.iter_mut().find(|x| x.id == id) {
                        Some(old) => *old = g,
                        None => self.games.push(g),
                    }
                    self.shown.get_or_insert(id);
                }
                Err(why) => self.say(Tone::Error, why.to_string()),
            },
            ServerMsg::Move {
                game,
                move_number,
                color,
                mv,
                clock_ms,
                ..
            } => {
                let applied = self
                    .games
                    .iter_mut()
                    .find(|g| g.id == game)
                    .map(|g| g.apply(move_number, &color, &mv, clock_ms, now));
                match applied {
                    Some(Applied::Played(text)) if self.shown == Some(game) => {
                        self.say(Tone::Info, text)
                    }
                    Some(Applied::OutOfStep(why)) => {
                        return Reaction {
                            reply: Some(ClientMsg::Watch { game }),
                            warning: Some(format!(
                                "game {game} is out of step ({why}): asking for a snapshot"
                            )),
                            refresh_leaderboard: false,
                        };
                    }
                    _ => {}
                }
            }
            ServerMsg::Ended {
                game,
                result,
                score,
            } => return self.ended(game, &result, score),
            ServerMsg::Error { message, game } => {
                let text = match game {
                    Some(g) => format!("game {g}: {message}"),
                    None => message,
                };
                self.say(Tone::Error, text);
            }
        }
        Reaction::default()
    }

    /// A game ended: its result in words, and this player's record counts it.
    fn ended(&mut self, game: GameId, result: &str, score: Option<PerColor>) -> Reaction {
        let Some(g) = self.games.iter_mut().find(|g| g.id == game) else {
            return Reaction::default();
        };
        if g.is_over() {
            return Reaction::default();
        }
        g.end(result);
        let mut text = g.result_words(result);
        if let Some(score) = score {
            text.push_str(&format!(
                " · area: Black {}, White {}",
                score.black, score.white
            ));
        }
        if let (Some(mine), Some((wins, losses))) = (g.mine, self.record.as_mut()) {
            let won = match result.as_bytes().first() {
                Some(b'B') => mine == Color::Black,
                Some(b'W') => mine == Color::White,
                _ => false,
            };
            if won {
                *wins += 1;
            } else {
                *losses += 1;
            }
        }
        self.say(Tone::Result, text);
        Reaction {
            refresh_leaderboard: true,
            ..Reaction::default()
        }
    }

    /// A click on the board or Pass: the move to send, or why not (in the notice). Checked here first so
    /// that an obviously illegal click is explained at once; the server checks it again.
    pub fn play(&mut self, mv: Move) -> Option<ClientMsg> {
        let id = self.shown?;
        match self.current()?.check(mv) {
            Ok(()) => Some(ClientMsg::Move {
                game: id,
                mv: mv.to_gtp(),
            }),
            Err(why) => {
                self.say(Tone::Error, why);
                None
            }
        }
    }

    /// Resigning the game on screen.
    pub fn resign(&self) -> Option<ClientMsg> {
        self.shown.map(|game| ClientMsg::Resign { game })
    }

    /// The watch form: shows the game numbered `text` ("12" or "#12") and asks for it.
    pub fn watch(&mut self, text: &str) -> Option<ClientMsg> {
        match text.trim().trim_start_matches('#').parse::<GameId>() {
            Ok(game) => {
                self.shown = Some(game);
                Some(ClientMsg::Watch { game })
            }
            Err(_) => {
                self.say(Tone::Error, format!("{text:?} is not a game number"));
                None
            }
        }
    }

    /// Stops following the game on screen, if this page only watches it (the server answers
    /// `unwatched`, and the game leaves the page then).
    pub fn unwatch(&self) -> Option<ClientMsg> {
        let game = self.current().filter(|g| g.mine.is_none())?;
        Some(ClientMsg::Unwatch { game: game.id })
    }

    /// Shows another game this page follows.
    pub fn show(&mut self, game: GameId) {
        self.shown = Some(game);
    }

    /// Back to the lobby.
    pub fn leave(&mut self) {
        self.shown = None;
        self.notice = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::online::game_view::test_snapshot;

    fn lobby(name: &str) -> Lobby {
        Lobby::new(Identity {
            name: name.into(),
            token: "secret".into(),
        })
    }

    fn snapshot(game: GameId, moves: &[&str]) -> ServerMsg {
        ServerMsg::Snapshot(test_snapshot(game, moves))
    }

    fn notice(l: &Lobby) -> (Tone, &str) {
        let line = l.notice().expect("a notice");
        (line.tone, line.text.as_str())
    }

    fn moved(game: GameId, n: u32, color: &str, mv: &str) -> ServerMsg {
        ServerMsg::Move {
            game,
            move_number: n,
            color: color.into(),
            mv: mv.into(),
            captured: Vec::new(),
            clock_ms: Some(300_000),
        }
    }

    #[test]
    fn hello_welcome_and_a_seek_until_matched() {
        let mut l = lobby("Ada");
        assert_eq!(
            l.connected(),
            ClientMsg::Hello {
                token: "secret".into()
            }
        );
        assert_eq!(l.record_text(), None);
        let welcome = ServerMsg::Welcome {
            name: "Ada".into(),
            wins: 3,
            losses: 1,
            house: Some("House".into()),
        };
        assert_eq!(l.house(), None, "no AI offered before the server says so");
        assert_eq!(l.receive(welcome, 0.0), Reaction::default());
        assert_eq!(l.record_text().as_deref(), Some(" · 3 won, 1 lost"));
        assert_eq!(l.house().as_deref(), Some("House"));
        let waiting = ServerMsg::Waiting {
            size: 9,
            color: color_pref("black"),
        };
        l.receive(waiting, 0.0);
        assert_eq!(
            l.waiting_text().as_deref(),
            Some("Waiting for an opponent: 9x9, Black… ")
        );
        l.receive(ServerMsg::Cancelled, 0.0);
        assert_eq!(l.waiting_text(), None);
        l.receive(
            ServerMsg::Waiting {
                size: 13,
                color: color_pref("either"),
            },
            0.0,
        );
        assert!(l.waiting_text().unwrap().contains("13x13, either colour"));
        l.connected();
        assert_eq!(l.waiting_text(), None, "a reconnection forgets the seek");
        let matched = ServerMsg::Matched {
            game: 4,
            color: "black".into(),
            opponent: "Bob".into(),
            size: 9,
        };
        l.receive(matched, 0.0);
        assert_eq!(l.shown(), Some(4));
        assert_eq!(
            notice(&l),
            (Tone::Info, "Matched with Bob on 9x9: you play black")
        );
        assert!(l.current().is_none(), "the snapshot has not come yet");
        l.receive(snapshot(4, &[]), 0.0);
        assert_eq!(l.current().unwrap().mine, Some(Color::Black));
    }

    #[test]
    fn moves_are_checked_before_sending_and_applied_when_announced() {
        let mut l = lobby("Ada");
        assert_eq!(l.play(Move::Pass), None, "no game on screen");
        l.receive(snapshot(4, &[]), 0.0);
        assert_eq!(l.shown(), Some(4), "the first snapshot is shown");
        let d4 = Move::from_gtp("D4", gridarena_engine::go::BoardSize::NINE).unwrap();
        assert_eq!(
            l.play(d4),
            Some(ClientMsg::Move {
                game: 4,
                mv: "D4".into()
            })
        );
        l.receive(moved(4, 1, "black", "D4"), 0.0);
        assert_eq!(notice(&l), (Tone::Info, "Ada played D4"));
        assert_eq!(l.play(Move::Pass), None);
        assert_eq!(notice(&l), (Tone::Error, "it is Bob's turn"));
        assert_eq!(l.resign(), Some(ClientMsg::Resign { game: 4 }));

        let out_of_step = l.receive(moved(4, 5, "white", "E5"), 0.0);
        assert_eq!(out_of_step.reply, Some(ClientMsg::Watch { game: 4 }));
        assert!(out_of_step.warning.unwrap().contains("out of step"));
        assert_eq!(
            l.receive(moved(9, 1, "black", "E5"), 0.0),
            Reaction::default(),
            "a game this page does not follow"
        );
        let error = ServerMsg::game_error(4, "it is not your turn");
        l.receive(error, 0.0);
        assert_eq!(notice(&l), (Tone::Error, "game 4: it is not your turn"));
        l.receive(snapshot(4, &["D4", "D4"]), 0.0);
        assert!(notice(&l).1.starts_with("game 4: move 2 (D4)"));
    }

    #[test]
    fn an_ended_game_is_counted_once_and_named_in_words() {
        let mut l = lobby("Bob");
        l.receive(
            ServerMsg::Welcome {
                name: "Bob".into(),
                wins: 0,
                losses: 0,
                house: None,
            },
            0.0,
        );
        l.receive(snapshot(4, &["D4"]), 0.0);
        let ended = || ServerMsg::Ended {
            game: 4,
            result: "B+3.5".into(),
            score: Some(PerColor {
                black: 41,
                white: 40,
            }),
        };
        let reaction = l.receive(ended(), 0.0);
        assert!(reaction.refresh_leaderboard);
        assert_eq!(
            notice(&l),
            (
                Tone::Result,
                "Black (Ada) wins by 3.5 points (B+3.5) · area: Black 41, White 40"
            )
        );
        assert_eq!(l.record_text().as_deref(), Some(" · 0 won, 1 lost"));
        assert_eq!(l.receive(ended(), 0.0), Reaction::default(), "told twice");
        assert_eq!(l.record_text().as_deref(), Some(" · 0 won, 1 lost"));
        assert!(l.current().unwrap().is_over());
    }

    #[test]
    fn watching_other_games_and_going_back_to_the_lobby() {
        let mut l = lobby("Cy");
        assert_eq!(l.watch(" #12 "), Some(ClientMsg::Watch { game: 12 }));
        assert_eq!(l.shown(), Some(12));
        assert_eq!(l.watch("twelve"), None);
        assert_eq!(notice(&l), (Tone::Error, "\"twelve\" is not a game number"));
        l.receive(snapshot(12, &[]), 0.0);
        l.receive(snapshot(13, &[]), 0.0);
        assert_eq!(
            l.shown(),
            Some(12),
            "a later snapshot does not take the screen"
        );
        assert_eq!(l.other_games(), [(13, "Game 13: Ada vs Bob".to_string())]);
        assert_eq!(l.current().unwrap().mine, None);
        l.show(13);
        assert_eq!(l.other_games()[0].0, 12);
        l.leave();
        assert_eq!((l.shown(), l.notice()), (None, None));
        assert_eq!(l.other_games().len(), 2);
        assert_eq!(l.name(), "Cy");
        // An unwatched game is no longer followed, and leaves the screen if it was on it.
        l.show(13);
        assert_eq!(l.unwatch(), Some(ClientMsg::Unwatch { game: 13 }));
        assert_eq!(
            l.receive(ServerMsg::Unwatched { game: 13 }, 0.0),
            Reaction::default()
        );
        assert_eq!(l.shown(), None);
        assert_eq!(l.other_games(), [(12, "Game 12: Ada vs Bob".to_string())]);
    }
}
