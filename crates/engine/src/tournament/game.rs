//! One tournament game: the [`GameLoop`] every front-end plays through, with the tournament's error
//! policy on top and a log of what each side answered.
//!
//! - The front-end asks, delivers and finishes ticks exactly as for a single match; [`TournamentGame`]
//!   counts each side's errors and, under [`Policy::Strict`], ends the game as a forfeit on the N-th.
//! - Every answer is logged as it arrived (a move as `"x,y x,y"`, a no-move as its code and message, with
//!   the answer's latency), so a finished game is a few bytes a tick, and [`GameLog::record`] plays it
//!   again into the record format the arena page replays. Storing every state instead would make a class's
//!   tournament hundreds of megabytes.
//! - A side "answered" in a tick when a reply reached the referee in time, whatever it said (an HTTP 500
//!   is an answer; a refused connection or a time-out is not): the withdrawal rule counts games without one.

use super::settings::{Policy, Settings};
use super::{Pairing, Score};
use crate::halma::record::Recorder;
use crate::halma::{
    Answer, Ask, Game, GameLoop, GameResult, LoopError, NoMove, Path, Point, ProgramFailure,
    SetupError, Team, Teams, TickOutcome,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// A scheduled game: its number in the schedule, its round, who plays which side, and its seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Fixture {
    /// Its place in the schedule, from 0: games are rated and listed in this order.
    pub number: usize,
    /// Its round, from 0.
    pub round: usize,
    pub red: super::EntryId,
    pub blue: super::EntryId,
    pub seed: u64,
}

impl Fixture {
    pub fn pairing(&self) -> Pairing {
        Pairing {
            red: self.red,
            blue: self.blue,
        }
    }

    /// The entry playing `team`.
    pub fn entry(&self, team: Team) -> super::EntryId {
        match team {
            Team::Red => self.red,
            Team::Blue => self.blue,
        }
    }
}

/// How a tournament game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Ending {
    /// The game's own end: HALMATE, both finished together, or the turn limit.
    Played { result: GameResult },
    /// `team` reached the strict policy's error count and lost; `cause` is its last error.
    Forfeit { team: Team, cause: String },
    /// Both sides reached the error count in the same tick: a draw, neither earned the win.
    DoubleForfeit { cause: String },
    /// Never played: `team`'s entry had withdrawn (`cause` says why) before the game began.
    Withdrawn { team: Team, cause: String },
}

impl Ending {
    /// How the game counts in the standings.
    pub fn score(&self) -> Score {
        let winner = match self {
            Ending::Played { result } => result.winner(),
            Ending::Forfeit { team, .. } | Ending::Withdrawn { team, .. } => Some(team.other()),
            Ending::DoubleForfeit { .. } => None,
        };
        match winner {
            Some(Team::Red) => Score::RedWins,
            Some(Team::Blue) => Score::BlueWins,
            None => Score::Draw,
        }
    }

    /// Whether the board decided it (a game a rating learns from): a withdrawal's unplayed game does not.
    pub fn was_played(&self) -> bool {
        !matches!(self, Ending::Withdrawn { .. })
    }
}

impl fmt::Display for Ending {
    /// "red wins (HALMATE)", "blue wins: red forfeited (3 errors; last: ...)", ...
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Played { result } => match result {
                GameResult::Win { winner } => write!(f, "{winner} wins (HALMATE)"),
                GameResult::BothFinished => f.write_str("draw (both finished on the same tick)"),
                GameResult::TurnLimit => f.write_str("draw (turn limit)"),
            },
            Ending::Forfeit { team, cause } => {
                write!(f, "{} wins: {team} forfeited ({cause})", team.other())
            }
            Ending::DoubleForfeit { cause } => write!(f, "draw: both forfeited ({cause})"),
            Ending::Withdrawn { team, cause } => {
                write!(f, "{} wins: {team} had withdrawn ({cause})", team.other())
            }
        }
    }
}

/// One side's answer in one tick, as logged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedAnswer {
    /// Milliseconds from the request to the reply; absent when no reply came in time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ms: Option<u32>,
    /// The move as `"x,y x,y ..."`: the start, then each landing.
    #[serde(default, rename = "move", skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// A no-move's code (`timed_out`, `invalid_json`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// A no-move's message, as the live game showed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// The longest message a log keeps, in characters: a web AI's error can quote what it sent.
const MAX_LOGGED_MESSAGE: usize = 300;

/// `message` cut to [`MAX_LOGGED_MESSAGE`] characters, keeping its start (what failed) and its end (a
/// program's last lines of stderr, where a traceback names the bug).
fn clip_message(message: &str) -> String {
    let count = message.chars().count();
    if count <= MAX_LOGGED_MESSAGE {
        return message.to_string();
    }
    let head = MAX_LOGGED_MESSAGE * 2 / 5;
    let tail = MAX_LOGGED_MESSAGE - head - 1;
    let start: String = message.chars().take(head).collect();
    let end: String = message.chars().skip(count - tail).collect();
    format!("{start}…{end}")
}

impl LoggedAnswer {
    fn new(answer: &Answer, ms: Option<u32>) -> LoggedAnswer {
        match answer {
            Answer::Move(path) => LoggedAnswer {
                ms,
                path: Some(path_text(path)),
                ..LoggedAnswer::default()
            },
            Answer::NoMove(why) => LoggedAnswer {
                ms,
                code: Some(why.code().to_string()),
                message: Some(clip_message(&why.to_string())),
                ..LoggedAnswer::default()
            },
        }
    }

    /// The answer to play again: the move, or the no-move with its code and message.
    pub fn answer(&self) -> Result<Answer, String> {
        match (&self.path, &self.code) {
            (Some(text), None) => parse_path(text).map(Answer::Move),
            (None, Some(code)) => Ok(Answer::NoMove(NoMove::Replayed {
                code: code.clone(),
                message: self.message.clone().unwrap_or_default(),
            })),
            _ => Err("an answer must be either a move or a code".to_string()),
        }
    }

    /// Whether a reply came in time.
    pub fn answered(&self) -> bool {
        self.ms.is_some()
    }
}

/// `"2,14 3,13"`: a path as a log writes it.
pub fn path_text(path: &Path) -> String {
    std::iter::once(&path.from)
        .chain(&path.to)
        .map(|p| format!("{},{}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The most landings a logged path may have: more than any board allows a jump chain.
const MAX_LOGGED_LANDINGS: usize = 1024;

/// Reads what [`path_text`] wrote.
pub fn parse_path(text: &str) -> Result<Path, String> {
    let bad = || format!("{:?} is not a move written as \"x,y x,y\"", clip(text));
    let mut points = Vec::new();
    for word in text.split_whitespace() {
        if points.len() > MAX_LOGGED_LANDINGS {
            return Err(bad());
        }
        let (x, y) = word.split_once(',').ok_or_else(bad)?;
        let x = x.parse::<i64>().map_err(|_| bad())?;
        let y = y.parse::<i64>().map_err(|_| bad())?;
        points.push(Point { x, y });
    }
    let mut points = points.into_iter();
    let from = points.next().ok_or_else(bad)?;
    let to: Vec<Point> = points.collect();
    if to.is_empty() {
        return Err(bad());
    }
    Ok(Path { from, to })
}

fn clip(text: &str) -> String {
    text.chars().take(60).collect()
}

/// Every tick's answers, `[red, blue]`; `null` for a side not asked (the alternating presets ask one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameLog {
    pub ticks: Vec<[Option<LoggedAnswer>; 2]>,
}

/// Why a log could not be played again (a bundle from outside, edited or broken).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogError {
    /// The tick, from 1.
    pub tick: usize,
    pub why: String,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "tick {} of the game's log: {}", self.tick, self.why)
    }
}

impl std::error::Error for LogError {}

impl GameLog {
    /// The game played again from its fixture and settings, tick by tick, into the record format the
    /// arena page loads (`players` label the two sides). Every tick must be one the referee accepts.
    pub fn record(
        &self,
        fixture: &Fixture,
        settings: &Settings,
        players: Teams<String>,
    ) -> Result<String, LogError> {
        let setup = |why: SetupError| LogError {
            tick: 0,
            why: why.to_string(),
        };
        let mut game = GameLoop::new(
            Game::new(&settings.rules(), fixture.seed).map_err(setup)?,
            fixture.seed,
        );
        let mut recorder = Recorder::new(players, fixture.seed, game.game());
        for (i, answers) in self.ticks.iter().enumerate() {
            let at = |why: String| LogError { tick: i + 1, why };
            let asked = |team: Team| answers[team as usize].is_some();
            let asks = game
                .begin(asked)
                .map_err(|e: LoopError| at(e.to_string()))?;
            if asks.len() != answers.iter().flatten().count() {
                return Err(at("it answers for a side that was not to move".to_string()));
            }
            for ask in &asks {
                if let Some(logged) = &answers[ask.team as usize] {
                    game.deliver(ask.turn, ask.team, logged.answer().map_err(at)?);
                }
            }
            let outcome = game.finish(0).map_err(|e| at(e.to_string()))?;
            recorder.push(&outcome, game.game());
        }
        recorder.finish();
        Ok(recorder.text())
    }
}

/// What one side did in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideStats {
    /// Ticks it was asked in.
    pub asked: u32,
    /// Ticks a reply came in time.
    pub answered: u32,
    /// Ticks with an error: no move, an unreadable answer or an illegal move.
    pub errors: u32,
}

/// A finished tournament game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReport {
    pub fixture: Fixture,
    pub ending: Ending,
    /// Ticks played.
    pub ticks: u32,
    pub sides: Teams<SideStats>,
    /// The last error of each side, for the standings' "why".
    #[serde(default)]
    pub last_error: Teams<Option<String>>,
    pub log: GameLog,
}

/// A game in progress under a tournament's rules.
#[derive(Clone, Debug)]
pub struct TournamentGame {
    fixture: Fixture,
    game: GameLoop,
    policy: Policy,
    sides: Teams<SideStats>,
    last_error: Teams<Option<String>>,
    log: GameLog,
    /// This tick's answers as delivered, with their latency.
    pending: Teams<Option<LoggedAnswer>>,
    asked: Teams<bool>,
    ending: Option<Ending>,
}

impl TournamentGame {
    /// The game of `fixture` under `settings`, before its first tick.
    pub fn new(fixture: Fixture, settings: &Settings) -> Result<TournamentGame, SetupError> {
        let game = Game::new(&settings.rules(), fixture.seed)?;
        Ok(TournamentGame {
            fixture,
            game: GameLoop::new(game, fixture.seed),
            policy: settings.policy,
            sides: Teams::default(),
            last_error: Teams::default(),
            log: GameLog::default(),
            pending: Teams::default(),
            asked: Teams::default(),
            ending: None,
        })
    }

    /// A game that never starts: `team`'s entry withdrew before it, so the other side wins.
    pub fn withdrawn(fixture: Fixture, team: Team, cause: String) -> GameReport {
        GameReport {
            fixture,
            ending: Ending::Withdrawn { team, cause },
            ticks: 0,
            sides: Teams::default(),
            last_error: Teams::default(),
            log: GameLog::default(),
        }
    }

    pub fn fixture(&self) -> &Fixture {
        &self.fixture
    }

    pub fn game(&self) -> &Game {
        self.game.game()
    }

    /// How it ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Starts a tick: every side to move is asked (a tournament has no people at the board). Refused once
    /// the game has ended, by its result or by a forfeit ([`LoopError::NotInProgress`] then).
    pub fn begin(&mut self) -> Result<Vec<Ask>, LoopError> {
        if self.ending.is_some() && self.game.game().result().is_none() {
            return Err(LoopError::NotInProgress);
        }
        let asks = self.game.begin(|_| true)?;
        self.asked = Teams::from_fn(|team| asks.iter().any(|a| a.team == team));
        for ask in &asks {
            self.sides[ask.team].asked = self.sides[ask.team].asked.saturating_add(1);
        }
        Ok(asks)
    }

    /// The request body for `team` this tick.
    pub fn request_body(&self, team: Team, time_limit_ms: u64) -> String {
        self.game.request_body(team, time_limit_ms)
    }

    /// Takes `team`'s answer for the tick of `turn`, with the reply's latency (`None` when no reply came:
    /// a refused connection, say). Returns whether it was taken, as [`GameLoop::deliver`].
    pub fn deliver(
        &mut self,
        turn: u32,
        team: Team,
        answer: Answer,
        latency_ms: Option<u32>,
    ) -> bool {
        let logged = LoggedAnswer::new(&answer, latency_ms);
        if !self.game.deliver(turn, team, answer) {
            return false;
        }
        if logged.answered() {
            self.sides[team].answered = self.sides[team].answered.saturating_add(1);
        }
        self.pending[team] = Some(logged);
        true
    }

    /// The asked sides whose answer has not arrived.
    pub fn awaiting(&self) -> Vec<Team> {
        self.game.awaiting()
    }

    /// Ends the tick (a side still awaited timed out after `waited_ms`), logs it and applies the policy.
    pub fn finish(&mut self, waited_ms: u64) -> Result<TickOutcome, LoopError> {
        let outcome = self.game.finish(waited_ms)?;
        let mut entry: [Option<LoggedAnswer>; 2] = [None, None];
        for team in Team::ALL {
            if !std::mem::take(&mut self.asked[team]) {
                continue;
            }
            let logged = self.pending[team].take().unwrap_or_else(|| {
                LoggedAnswer::new(
                    &Answer::NoMove(NoMove::TimedOut {
                        after_ms: waited_ms,
                    }),
                    None,
                )
            });
            entry[team as usize] = Some(logged);
        }
        self.log.ticks.push(entry);
        for e in &outcome.errors {
            self.sides[e.team].errors = self.sides[e.team].errors.saturating_add(1);
            self.last_error[e.team] = Some(e.to_string());
        }
        if let Some(result) = outcome.result {
            self.ending = Some(Ending::Played { result });
        } else if let Policy::Strict { errors } = self.policy {
            // A program whose clock ran out loses at once, as in the course's games.
            let out_of_time = Teams::from_fn(|t| {
                outcome
                    .errors
                    .iter()
                    .any(|e| e.team == t && e.code == ProgramFailure::OUT_OF_TIME)
            });
            let out = Teams::from_fn(|t| self.sides[t].errors >= errors || out_of_time[t]);
            let cause = |t: Team| match self.last_error[t].as_deref() {
                Some(last) if out_of_time[t] => last.to_string(),
                last => format!("{errors} errors; the last: {}", last.unwrap_or("")),
            };
            self.ending = match (out.red, out.blue) {
                (true, true) => Some(Ending::DoubleForfeit {
                    cause: format!("{}; {}", cause(Team::Red), cause(Team::Blue)),
                }),
                (true, false) => Some(Ending::Forfeit {
                    team: Team::Red,
                    cause: cause(Team::Red),
                }),
                (false, true) => Some(Ending::Forfeit {
                    team: Team::Blue,
                    cause: cause(Team::Blue),
                }),
                (false, false) => None,
            };
        }
        Ok(outcome)
    }

    /// The finished game, once it has ended.
    pub fn report(&self) -> Option<GameReport> {
        let ending = self.ending.clone()?;
        Some(GameReport {
            fixture: self.fixture,
            ending,
            ticks: u32::try_from(self.log.ticks.len()).unwrap_or(u32::MAX),
            sides: self.sides.clone(),
            last_error: self.last_error.clone(),
            log: self.log.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_message_keeps_its_start_and_its_end() {
        assert_eq!(clip_message("short"), "short");
        let long = format!(
            "the program crashed (exit status 1); the end of its stderr: {}NameError: name 'x' is not defined",
            "  File \"agent.py\", line 9\n".repeat(40)
        );
        let clipped = clip_message(&long);
        assert_eq!(clipped.chars().count(), MAX_LOGGED_MESSAGE);
        assert!(
            clipped.starts_with("the program crashed (exit status 1)"),
            "{clipped}"
        );
        assert!(
            clipped.ends_with("NameError: name 'x' is not defined"),
            "{clipped}"
        );
        assert!(clipped.contains('…'));
    }
}
