//! One game driven tick by tick from the outside: who is asked, with which seed, which answers count,
//! and what an answer that never came becomes.
//!
//! The page, the command-line runner and a tournament all play games this way; they differ only in how
//! they reach a player (a Web Worker, a thread, an HTTP request) and in their clocks. So the rules of a
//! tick's assembly live here, with no clock and no I/O: the caller sends the requests, passes in what
//! comes back, and says how long it waited. A [`GameLoop`] is a plain value, so a tournament can hold
//! thousands and feed each as its answers arrive.
//!
//! - The movers ([`Game::movers`]) are the teams a tick needs. The caller says which of them to ask (an
//!   AI); a mover it does not ask (a person at the board) plays what it [submitted](GameLoop::submit)
//!   before the tick, else it has no move.
//! - A tick's answers are tagged with the turn they are for, so an answer that arrives after its tick
//!   ended is dropped, never applied to the next one; so is a second answer, or one from a team not asked.
//! - An asked team that has not answered when the tick ends has timed out after the time waited.
//! - Built-in AIs play tick `turn` with [`ai::tick_seed`] and [`ai::team_seed`], so a seed gives the same
//!   game wherever it is played.

use super::{ai, Answer, Game, NoMove, Path, Team, Teams, TickOutcome, TickRefused};
use std::fmt;

/// A game and the tick whose answers are being collected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLoop {
    game: Game,
    seed: u64,
    /// Moves given before the tick by movers that are not asked.
    submitted: Teams<Option<Path>>,
    round: Option<Round>,
}

/// A tick in progress: who was asked and what has arrived.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Round {
    /// The game's turn when the tick began: the tick's name in [`Ask`] and [`GameLoop::deliver`].
    turn: u32,
    asked: Teams<bool>,
    answers: Teams<Option<Answer>>,
}

/// A request the caller must send for the tick in progress.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ask {
    /// The tick it belongs to: the game's turn when the tick began.
    pub turn: u32,
    pub team: Team,
    /// The seed a built-in AI plays this tick with.
    pub seed: u64,
}

/// Why the loop refused a call (nothing changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoopError {
    /// The referee refuses the tick: the game is over.
    Refused(TickRefused),
    /// A tick is already collecting answers; it must end first.
    InProgress,
    /// No tick is collecting answers.
    NotInProgress,
}

impl fmt::Display for LoopError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopError::Refused(e) => e.fmt(f),
            LoopError::InProgress => f.write_str("a tick is already in progress"),
            LoopError::NotInProgress => f.write_str("no tick is in progress"),
        }
    }
}

impl std::error::Error for LoopError {}

impl GameLoop {
    /// Drives `game`; `seed` seeds its built-in AIs (the seed the game was set up with, so that one
    /// number gives the whole game).
    pub fn new(game: Game, seed: u64) -> GameLoop {
        GameLoop {
            game,
            seed,
            submitted: Teams::default(),
            round: None,
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The tick collecting answers, if any: the turn its [`Ask`]s carry.
    pub fn round(&self) -> Option<u32> {
        self.round.as_ref().map(|r| r.turn)
    }

    /// Gives `team`'s move for the coming tick ahead of it, for a mover that will not be asked. The last
    /// one given before the tick ends is played; whether it is legal is the referee's question.
    pub fn submit(&mut self, team: Team, path: Path) {
        self.submitted[team] = Some(path);
    }

    /// Takes back `team`'s move given ahead (its player changed, say).
    pub fn withdraw(&mut self, team: Team) {
        self.submitted[team] = None;
    }

    /// `team`'s move given ahead for the coming tick.
    pub fn submitted(&self, team: Team) -> Option<&Path> {
        self.submitted[team].as_ref()
    }

    /// Starts a tick: the requests to send, one per mover for which `ask` is true, in team order. When
    /// nothing is asked the tick may [`finish`](Self::finish) at once.
    ///
    /// ```
    /// use gridarena_engine::halma::{Answer, Game, GameLoop, Preset, Team};
    /// use gridarena_engine::halma::ai::BuiltIn;
    ///
    /// let mut game = GameLoop::new(Game::new(&Preset::Arena.rules(), 7).unwrap(), 7);
    /// let asks = game.begin(|_| true).unwrap();
    /// assert_eq!(asks.len(), 2, "the arena asks both teams");
    /// // Red's AI answers in time; blue's never does.
    /// let red = &asks[0];
    /// let answer = BuiltIn::Greedy.answer(game.game(), red.team, red.seed);
    /// assert!(game.deliver(red.turn, red.team, answer));
    /// assert_eq!(game.awaiting(), vec![Team::Blue]);
    /// let outcome = game.finish(500).unwrap();
    /// assert_eq!(outcome.errors[0].message, "no answer: timed out after 500 ms");
    /// assert!(outcome.moves.is_empty(), "in the arena neither move is enacted then");
    /// ```
    pub fn begin(&mut self, ask: impl Fn(Team) -> bool) -> Result<Vec<Ask>, LoopError> {
        if let Some(r) = self.game.result() {
            return Err(LoopError::Refused(TickRefused::GameOver(r)));
        }
        if self.round.is_some() {
            return Err(LoopError::InProgress);
        }
        let turn = self.game.turn();
        let tick_seed = ai::tick_seed(self.seed, turn);
        let mut round = Round {
            turn,
            asked: Teams::default(),
            answers: Teams::default(),
        };
        let mut asks = Vec::new();
        for team in self.game.movers() {
            if ask(team) {
                round.asked[team] = true;
                asks.push(Ask {
                    turn,
                    team,
                    seed: ai::team_seed(tick_seed, team),
                });
            }
        }
        self.round = Some(round);
        Ok(asks)
    }

    /// Takes `team`'s answer for the tick of `turn`. Returns whether it was taken: an answer for another
    /// tick (a late one), from a team not asked, or a second one is dropped, so a slow AI never moves in a
    /// tick it did not answer in time.
    pub fn deliver(&mut self, turn: u32, team: Team, answer: Answer) -> bool {
        let Some(round) = self.round.as_mut().filter(|r| r.turn == turn) else {
            return false;
        };
        if !round.asked[team] || round.answers[team].is_some() {
            return false;
        }
        round.answers[team] = Some(answer);
        true
    }

    /// The asked teams whose answer has not arrived; empty when no tick is in progress.
    pub fn awaiting(&self) -> Vec<Team> {
        self.round.as_ref().map_or_else(Vec::new, |r| {
            Team::ALL
                .into_iter()
                .filter(|&t| r.asked[t] && r.answers[t].is_none())
                .collect()
        })
    }

    /// Ends the tick in progress and plays it: what arrived is the asked teams' answer, an asked team
    /// with none timed out after `waited_ms`, a mover not asked plays the move it submitted (else none).
    /// Every move given ahead is used up.
    pub fn finish(&mut self, waited_ms: u64) -> Result<TickOutcome, LoopError> {
        let mut round = self.round.take().ok_or(LoopError::NotInProgress)?;
        let movers = self.game.movers();
        let mut submitted = std::mem::take(&mut self.submitted);
        let mut answer = |team: Team| -> Answer {
            if !movers.contains(&team) {
                Answer::NoMove(NoMove::Missing)
            } else if round.asked[team] {
                round.answers[team]
                    .take()
                    .unwrap_or(Answer::NoMove(NoMove::TimedOut {
                        after_ms: waited_ms,
                    }))
            } else {
                submitted[team]
                    .take()
                    .map_or(Answer::NoMove(NoMove::Missing), Answer::Move)
            }
        };
        let (red, blue) = (answer(Team::Red), answer(Team::Blue));
        self.game.tick(red, blue).map_err(LoopError::Refused)
    }

    /// The request body for `team` in the coming tick: what a web AI receives, with the game's
    /// [`game_id`].
    pub fn request_body(&self, team: Team, time_limit_ms: u64) -> String {
        game_request_body(&self.game, team, time_limit_ms, self.seed)
    }
}

/// The body for `team` in a game set up from `seed`: [`request_body`] with the game's [`game_id`].
pub fn game_request_body(game: &Game, team: Team, time_limit_ms: u64, seed: u64) -> String {
    let mut request = game.request(team);
    request.time_limit_ms = Some(time_limit_ms);
    request.game_id = Some(game_id(seed));
    body(&request)
}

/// The `gameId` of the game set up from `seed`: its seed in hex, so the page, the command line and a
/// record all name a game alike.
pub fn game_id(seed: u64) -> String {
    format!("{seed:016x}")
}

/// The body a web AI is sent outside a game loop (a one-off check such as the doctor's):
/// [`Game::request`] with `timeLimitMs`, compact JSON, and no `gameId`.
pub fn request_body(game: &Game, team: Team, time_limit_ms: u64) -> String {
    let mut request = game.request(team);
    request.time_limit_ms = Some(time_limit_ms);
    body(&request)
}

fn body(request: &super::AiRequest) -> String {
    // Plain data with string keys: serialising it cannot fail.
    serde_json::to_string(request).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halma::ai::BuiltIn;
    use crate::halma::{Preset, Square};

    fn arena(seed: u64) -> GameLoop {
        GameLoop::new(Game::new(&Preset::Arena.rules(), seed).unwrap(), seed)
    }

    fn mini(seed: u64) -> GameLoop {
        GameLoop::new(Game::new(&Preset::Mini.rules(), seed).unwrap(), seed)
    }

    fn greedy(l: &GameLoop, ask: &Ask) -> Answer {
        BuiltIn::Greedy.answer(l.game(), ask.team, ask.seed)
    }

    fn step(x: u8, y: u8, to: (u8, u8)) -> Path {
        let sq = |x, y| Square::new(x, y).unwrap();
        Path::new(sq(x, y), vec![sq(to.0, to.1)])
    }

    #[test]
    fn the_movers_asked_and_their_seeds() {
        // (loop, who may be asked, teams asked)
        type Case = (GameLoop, fn(Team) -> bool, Vec<Team>);
        let cases: [Case; 4] = [
            (arena(3), |_| true, Team::ALL.to_vec()),
            (arena(3), |t| t == Team::Blue, vec![Team::Blue]),
            (arena(3), |_| false, vec![]),
            (mini(3), |_| true, mini(3).game().movers()),
        ];
        for (mut l, ask, teams) in cases {
            let asks = l.begin(ask).unwrap();
            let tick = ai::tick_seed(3, l.game().turn());
            let expected: Vec<Ask> = teams
                .into_iter()
                .map(|team| Ask {
                    turn: 0,
                    team,
                    seed: ai::team_seed(tick, team),
                })
                .collect();
            assert_eq!(asks, expected);
            assert_eq!(l.round(), Some(0));
            assert_eq!(
                l.awaiting(),
                expected.iter().map(|a| a.team).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn late_repeated_and_unasked_answers_are_dropped() {
        let mut l = arena(8);
        let asks = l.begin(|t| t == Team::Red).unwrap();
        let red = greedy(&l, &asks[0]);
        let missing = || Answer::NoMove(NoMove::Missing);
        // (turn, team, taken)
        let cases = [
            (1, Team::Red, false),
            (0, Team::Blue, false),
            (0, Team::Red, true),
            (0, Team::Red, false),
        ];
        for (turn, team, taken) in cases {
            let answer = if taken { red.clone() } else { missing() };
            assert_eq!(l.deliver(turn, team, answer), taken, "{turn} {team}");
        }
        assert!(l.awaiting().is_empty());
        assert_eq!(l.begin(|_| true), Err(LoopError::InProgress));
        let outcome = l.finish(10).unwrap();
        assert!(outcome.errors.iter().all(|e| e.team == Team::Blue));
        assert_eq!(outcome.errors[0].code, "missing", "blue was not asked");
        assert!(!l.deliver(0, Team::Red, red), "its tick is over");
        assert_eq!(l.finish(10), Err(LoopError::NotInProgress));
    }

    #[test]
    fn what_each_team_plays_when_the_tick_ends() {
        // (asked, delivered, submitted ahead, the error code each team gets; None: no error)
        type Case = (fn(Team) -> bool, bool, bool, Teams<Option<&'static str>>);
        let cases: [Case; 4] = [
            (
                |_| true,
                true,
                false,
                Teams {
                    red: None,
                    blue: None,
                },
            ),
            (
                |_| true,
                false,
                false,
                Teams {
                    red: Some("timed_out"),
                    blue: Some("timed_out"),
                },
            ),
            (
                |_| false,
                false,
                true,
                Teams {
                    red: None,
                    blue: None,
                },
            ),
            (
                |_| false,
                false,
                false,
                Teams {
                    red: Some("missing"),
                    blue: Some("missing"),
                },
            ),
        ];
        for (ask, deliver, ahead, codes) in cases {
            let mut l = arena(1);
            if ahead {
                l.submit(Team::Red, step(2, 14, (2, 13)));
                l.submit(Team::Blue, step(15, 14, (15, 13)));
            }
            for a in l.begin(ask).unwrap() {
                if deliver {
                    let answer = greedy(&l, &a);
                    l.deliver(a.turn, a.team, answer);
                }
            }
            let outcome = l.finish(250).unwrap();
            let got = Teams::from_fn(|t| {
                outcome
                    .errors
                    .iter()
                    .find(|e| e.team == t)
                    .map(|e| e.code.as_str())
            });
            assert_eq!(got, codes);
            assert_eq!(outcome.moves.len(), if codes.red.is_none() { 2 } else { 0 });
            assert_eq!(l.submitted(Team::Red), None, "used up");
        }
    }

    #[test]
    fn a_move_given_ahead_can_be_withdrawn_and_a_non_mover_has_none() {
        let mut l = mini(5);
        let mover = l.game().to_move().unwrap();
        l.submit(mover.other(), step(0, 0, (1, 1)));
        l.submit(mover, step(0, 0, (1, 1)));
        l.withdraw(mover);
        assert!(l.begin(|_| false).unwrap().is_empty());
        let outcome = l.finish(0).unwrap();
        assert_eq!(outcome.movers, vec![mover]);
        assert_eq!(outcome.errors.len(), 1);
        assert_eq!(
            (outcome.errors[0].team, outcome.errors[0].code.as_str()),
            (mover, "missing")
        );
    }

    #[test]
    fn a_finished_game_takes_no_tick_and_the_turn_names_each_tick() {
        let mut rules = Preset::Arena.rules();
        rules.turn_limit = 2;
        let mut l = GameLoop::new(Game::new(&rules, 4).unwrap(), 4);
        for turn in 0..2 {
            let asks = l.begin(|_| true).unwrap();
            assert!(asks.iter().all(|a| a.turn == turn));
            for a in asks {
                let answer = greedy(&l, &a);
                assert!(l.deliver(a.turn, a.team, answer));
            }
            l.finish(0).unwrap();
        }
        let over = l.game().result().unwrap();
        let e = l.begin(|_| true).unwrap_err();
        assert_eq!(e, LoopError::Refused(TickRefused::GameOver(over)));
        assert!(e.to_string().starts_with("the game is over"), "{e}");
    }

    #[test]
    fn the_request_body_carries_the_time_limit() {
        let l = arena(2);
        let body = l.request_body(Team::Blue, 750);
        let value: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(value["timeLimitMs"], 750);
        assert_eq!(value["team"], "blue");
        assert_eq!(value["boardSize"], 18);
    }
}
