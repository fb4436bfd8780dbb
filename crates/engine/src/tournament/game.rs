//! One tournament game: the [`GameLoop`] every front-end plays through, with the tournament's error
//! policy on top and a log of what each side answered.
//!
//! - The front-end asks, delivers and finishes ticks exactly as for a single match; [`TournamentGame`]
//!   counts each side's answers ([`AnswerTally`]) and applies the error policy: a forfeit on the N-th error
//!   ([`Policy::Strict`]) or the N-th in a row ([`Policy::Consecutive`], the default), and under every
//!   policy a game that reaches the turn limit goes against the side with more error ticks
//!   ([`Ending::Stalled`]). `gridarena halma match` plays its games through this type too, so a match
//!   and a tournament game are judged alike.
//! - Every answer is logged as it arrived (a move as `"x,y x,y"`, a no-move as its code and message, with
//!   the answer's latency), so a finished game is a few bytes a tick, and [`GameLog::record`] plays it
//!   again into the record format the arena page replays. Storing every state instead would make a class's
//!   tournament hundreds of megabytes.
//! - A side "answered" in a tick when a reply reached the referee in time, whatever it said (an HTTP 500
//!   is an answer; a refused connection or a time-out is not): the withdrawal rule counts games without one.

use super::settings::{Policy, Settings};
use super::{Pairing, Score};
use crate::halma::record::Recorder;
use crate::halma::tally::clip as clip_message;
use crate::halma::{
    Answer, AnswerTally, Ask, Game, GameLoop, GameResult, LoopError, NoMove, Path, Point,
    ProgramFailure, SetupError, Team, Teams, TickOutcome,
};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::Duration;

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
    /// `team` reached the policy's error count (in the game, or in a row) and lost; `cause` says which
    /// count and its last error.
    Forfeit { team: Team, cause: String },
    /// Both sides reached the error count in the same tick: a draw, neither earned the win.
    DoubleForfeit { cause: String },
    /// Never played: `team`'s entry had withdrawn (`cause` says why) before the game began.
    Withdrawn { team: Team, cause: String },
    /// The game reached the turn limit and `team` had more error ticks than the other side, so it lost:
    /// in the arena each of its error ticks froze the other side's move too, and a draw would reward
    /// failing to answer.
    Stalled { team: Team, cause: String },
}

impl Ending {
    /// How the game counts in the standings.
    pub fn score(&self) -> Score {
        let winner = match self {
            Ending::Played { result } => result.winner(),
            Ending::Forfeit { team, .. }
            | Ending::Withdrawn { team, .. }
            | Ending::Stalled { team, .. } => Some(team.other()),
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
            Ending::Stalled { team, cause } => {
                write!(
                    f,
                    "{} wins at the turn limit: {team} lost ({cause})",
                    team.other()
                )
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

/// A finished tournament game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameReport {
    pub fixture: Fixture,
    pub ending: Ending,
    /// Ticks played.
    pub ticks: u32,
    /// What each side did. The answer times are not in the bundle (the log has them):
    /// [`GameReport::restore_answer_times`] puts them back after reading one.
    pub sides: Teams<AnswerTally>,
    /// The last error of each side, for the standings' "why".
    #[serde(default)]
    pub last_error: Teams<Option<String>>,
    pub log: GameLog,
}

impl GameReport {
    /// Fills each side's answer times from the log, as a report read from a bundle needs.
    pub fn restore_answer_times(&mut self) {
        for team in Team::ALL {
            let ms = self
                .log
                .ticks
                .iter()
                .filter_map(|tick| tick[team as usize].as_ref().and_then(|l| l.ms));
            self.sides[team].set_times_ms(ms);
        }
    }
}

/// A game in progress under a tournament's rules.
#[derive(Clone, Debug)]
pub struct TournamentGame {
    fixture: Fixture,
    game: GameLoop,
    policy: Policy,
    /// Whether a program whose clock ran out forfeits at once; the policy's choice unless overridden.
    out_of_time_loses: bool,
    sides: Teams<AnswerTally>,
    last_error: Teams<Option<String>>,
    /// Each side's error ticks in a row, up to the latest tick it was asked in.
    streak: Teams<u32>,
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
        Ok(TournamentGame::from_game(fixture, settings, game))
    }

    /// The game of `fixture` played on from `game`, a position from anywhere (a record's tick, a state
    /// file), under `settings`' error policy; the position's own rules, turn and turn limit stand, so its
    /// turn counter goes on from where it is. `settings`' preset and rules are not read. A game that has
    /// already ended is over before its first tick: its [`TournamentGame::report`] is the board's result
    /// after no ticks.
    pub fn from_game(fixture: Fixture, settings: &Settings, game: Game) -> TournamentGame {
        let ending = game.result().map(|result| Ending::Played { result });
        TournamentGame {
            fixture,
            game: GameLoop::new(game, fixture.seed),
            policy: settings.policy,
            out_of_time_loses: settings.policy.out_of_time_loses(),
            sides: Teams::default(),
            last_error: Teams::default(),
            streak: Teams::default(),
            log: GameLog::default(),
            pending: Teams::default(),
            asked: Teams::default(),
            ending,
        }
    }

    /// The same game, where a program whose clock runs out forfeits at once (`loses`) or plays on with
    /// no move: `gridarena halma match --out-of-time` says so whatever the policy.
    pub fn with_out_of_time_loss(mut self, loses: bool) -> TournamentGame {
        self.out_of_time_loses = loses;
        self
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

    /// What `team` did so far.
    pub fn tally(&self, team: Team) -> &AnswerTally {
        &self.sides[team]
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
            self.sides[ask.team].ask();
        }
        Ok(asks)
    }

    /// The request body for `team` this tick.
    pub fn request_body(&self, team: Team, time_limit_ms: u64) -> String {
        self.game.request_body(team, time_limit_ms)
    }

    /// Takes `team`'s answer for the tick of `turn`, with the reply's latency in whole milliseconds
    /// (`None` when no reply came: a refused connection, say). Returns whether it was taken, as
    /// [`GameLoop::deliver`].
    pub fn deliver(
        &mut self,
        turn: u32,
        team: Team,
        answer: Answer,
        latency_ms: Option<u32>,
    ) -> bool {
        let latency = latency_ms.map(|ms| Duration::from_millis(ms.into()));
        self.deliver_timed(turn, team, answer, latency)
    }

    /// [`TournamentGame::deliver`] with the latency as measured: the log keeps whole milliseconds, the
    /// tally the microseconds a built-in AI's sub-millisecond answers need for a meaningful mean.
    pub fn deliver_timed(
        &mut self,
        turn: u32,
        team: Team,
        answer: Answer,
        latency: Option<Duration>,
    ) -> bool {
        let ms = latency.map(|l| u32::try_from(l.as_millis()).unwrap_or(u32::MAX));
        let logged = LoggedAnswer::new(&answer, ms);
        if !self.game.deliver(turn, team, answer) {
            return false;
        }
        if let Some(latency) = latency {
            self.sides[team].answer(latency);
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
        for e in &outcome.errors {
            self.sides[e.team].error(e);
            self.last_error[e.team] = Some(e.to_string());
        }
        for team in Team::ALL {
            if entry[team as usize].is_some() {
                let erred = outcome.errors.iter().any(|e| e.team == team);
                self.streak[team] = if erred {
                    self.streak[team].saturating_add(1)
                } else {
                    0
                };
            }
        }
        self.log.ticks.push(entry);
        self.ending = self.judge(&outcome);
        Ok(outcome)
    }

    /// How the game ends after the tick of `outcome`, if it does. The board's own end (HALMATE, both
    /// finished) stands; then a forfeit under the policy; then, at the turn limit, the side with more
    /// error ticks loses and equal counts draw.
    fn judge(&self, outcome: &TickOutcome) -> Option<Ending> {
        match outcome.result {
            Some(GameResult::TurnLimit) | None => {}
            Some(result) => return Some(Ending::Played { result }),
        }
        let last = |t: Team| self.last_error[t].clone().unwrap_or_default();
        let out = Teams::from_fn(|t| {
            let out_of_time = self.out_of_time_loses
                && outcome
                    .errors
                    .iter()
                    .any(|e| e.team == t && e.code == ProgramFailure::OUT_OF_TIME);
            match self.policy {
                // The course's rule: a spent clock loses the game at once.
                _ if out_of_time => Some(last(t)),
                Policy::Strict { errors } if self.sides[t].errors >= errors => {
                    Some(format!("{errors} errors; the last: {}", last(t)))
                }
                Policy::Consecutive { errors } if self.streak[t] >= errors => {
                    Some(format!("{errors} errors in a row; the last: {}", last(t)))
                }
                _ => None,
            }
        });
        match (out.red, out.blue) {
            (Some(red), Some(blue)) => {
                return Some(Ending::DoubleForfeit {
                    cause: format!("{red}; {blue}"),
                })
            }
            (Some(cause), None) => {
                return Some(Ending::Forfeit {
                    team: Team::Red,
                    cause,
                })
            }
            (None, Some(cause)) => {
                return Some(Ending::Forfeit {
                    team: Team::Blue,
                    cause,
                })
            }
            (None, None) => {}
        }
        let result = outcome.result?;
        let errors = Teams::from_fn(|t| self.sides[t].errors);
        let team = match errors.red.cmp(&errors.blue) {
            std::cmp::Ordering::Equal => return Some(Ending::Played { result }),
            std::cmp::Ordering::Greater => Team::Red,
            std::cmp::Ordering::Less => Team::Blue,
        };
        Some(Ending::Stalled {
            team,
            cause: format!(
                "its errors stalled the game: {} error ticks in {}, the other side {}; the last: {}",
                errors[team],
                self.sides[team].asked,
                errors[team.other()],
                last(team)
            ),
        })
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
    use crate::halma::ai::BuiltIn;
    use crate::halma::Preset;

    fn settings(policy: Policy, max_turns: u32) -> Settings {
        Settings {
            preset: Preset::Arena,
            max_turns: Some(max_turns),
            policy,
            ..Settings::default()
        }
    }

    fn fixture(seed: u64) -> Fixture {
        Fixture {
            number: 0,
            round: 0,
            red: 0,
            blue: 1,
            seed,
        }
    }

    /// Plays a game where `errs(team, tick)` gives `team`'s error in that tick (from 1), if any;
    /// otherwise it plays greedy's move.
    fn play(settings: &Settings, errs: impl Fn(Team, u32) -> Option<NoMove>) -> GameReport {
        let mut game = TournamentGame::new(fixture(5), settings).unwrap();
        while game.ending().is_none() {
            let asks = game.begin().unwrap();
            for ask in asks {
                let tick = game.game().turn() + 1;
                let answer = match errs(ask.team, tick) {
                    Some(why) => Answer::NoMove(why),
                    None => BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed),
                };
                assert!(game.deliver(ask.turn, ask.team, answer, Some(1)));
            }
            game.finish(1000).unwrap();
        }
        let report = game.report().unwrap();
        assert_eq!(report.ticks as usize, report.log.ticks.len());
        report
    }

    fn http_500() -> NoMove {
        NoMove::Failed("HTTP 500 Internal Server Error".to_string())
    }

    #[test]
    fn at_the_turn_limit_the_side_with_more_error_ticks_loses_under_every_policy() {
        for policy in [
            Policy::Lenient,
            Policy::Strict { errors: 100 },
            Policy::Consecutive { errors: 10 },
        ] {
            let report = play(&settings(policy, 20), |team, tick| {
                (team == Team::Blue && tick % 2 == 0).then(http_500)
            });
            let Ending::Stalled { team, cause } = &report.ending else {
                panic!("{policy}: {:?}", report.ending)
            };
            assert_eq!(*team, Team::Blue, "{policy}");
            assert_eq!(report.ticks, 20);
            assert_eq!((report.sides.red.errors, report.sides.blue.errors), (0, 10));
            assert!(
                cause.starts_with(
                    "its errors stalled the game: 10 error ticks in 20, the other side 0; the last: blue: "
                ) && cause.contains("HTTP 500"),
                "{cause}"
            );
            assert_eq!(report.ending.score(), Score::RedWins);
            assert!(report.ending.was_played());
            assert!(report.ending.to_string().starts_with("red wins"));
        }
    }

    #[test]
    fn at_the_turn_limit_equal_error_counts_draw() {
        let clean = play(&settings(Policy::Lenient, 15), |_, _| None);
        assert_eq!(
            clean.ending,
            Ending::Played {
                result: GameResult::TurnLimit
            }
        );
        let both = play(&settings(Policy::Lenient, 15), |team, tick| {
            let bad = match team {
                Team::Red => tick <= 4,
                Team::Blue => tick > 11,
            };
            bad.then(http_500)
        });
        assert_eq!((both.sides.red.errors, both.sides.blue.errors), (4, 4));
        assert_eq!(both.ending.score(), Score::Draw);
        assert!(matches!(both.ending, Ending::Played { .. }));
    }

    #[test]
    fn the_consecutive_policy_forfeits_at_exactly_n_in_a_row_and_a_move_starts_again() {
        let policy = Policy::Consecutive { errors: 3 };
        // Errors on ticks 1, 2, 4, 5, 7, 8, 9: the moves on 3 and 6 start the count again; the 9th is the
        // third in a row.
        let report = play(&settings(policy, 100), |team, tick| {
            (team == Team::Blue && (tick % 3 != 0 || tick == 9)).then(http_500)
        });
        let Ending::Forfeit { team, cause } = &report.ending else {
            panic!("{:?}", report.ending)
        };
        assert_eq!(*team, Team::Blue);
        assert_eq!(report.ticks, 9);
        assert_eq!(report.sides.blue.errors, 7);
        assert!(
            cause.starts_with("3 errors in a row; the last: blue: ") && cause.contains("HTTP 500"),
            "{cause}"
        );
        assert_eq!(report.ending.score(), Score::RedWins);
        // Two in a row, then a move, all game long: never forfeited, and the turn limit goes against it.
        let report = play(&settings(policy, 30), |team, tick| {
            (team == Team::Red && tick % 3 != 0).then(http_500)
        });
        assert!(
            matches!(
                report.ending,
                Ending::Stalled {
                    team: Team::Red,
                    ..
                }
            ),
            "{:?}",
            report.ending
        );
    }

    #[test]
    fn both_sides_reaching_the_count_in_one_tick_is_a_double_forfeit() {
        let report = play(
            &settings(Policy::Consecutive { errors: 4 }, 100),
            |team, _| {
                Some(match team {
                    Team::Red => http_500(),
                    Team::Blue => NoMove::TimedOut { after_ms: 1000 },
                })
            },
        );
        let Ending::DoubleForfeit { cause } = &report.ending else {
            panic!("{:?}", report.ending)
        };
        assert_eq!(report.ticks, 4);
        assert!(
            cause.contains("red: request failed") && cause.contains("blue: no answer: timed out"),
            "{cause}"
        );
        assert_eq!(report.ending.score(), Score::Draw);
    }

    #[test]
    fn a_spent_clock_forfeits_at_once_under_strict_and_consecutive_but_not_lenient() {
        let out_of_time = |team: Team, tick: u32| {
            (team == Team::Red && tick >= 3).then_some(NoMove::Program(ProgramFailure::OutOfTime))
        };
        for policy in [
            Policy::Consecutive { errors: 10 },
            Policy::Strict { errors: 5 },
        ] {
            let report = play(&settings(policy, 50), out_of_time);
            let Ending::Forfeit { team, cause } = &report.ending else {
                panic!("{policy}: {:?}", report.ending)
            };
            assert_eq!((*team, report.ticks), (Team::Red, 3), "{policy}");
            assert!(cause.contains("out of time"), "{cause}");
        }
        let lenient = play(&settings(Policy::Lenient, 50), out_of_time);
        assert!(
            matches!(
                lenient.ending,
                Ending::Stalled {
                    team: Team::Red,
                    ..
                }
            ),
            "{:?}",
            lenient.ending
        );
        assert_eq!(lenient.ticks, 50);
    }

    #[test]
    fn a_match_may_make_a_spent_clock_lose_under_the_lenient_policy() {
        let mut game = TournamentGame::new(fixture(3), &settings(Policy::Lenient, 50))
            .unwrap()
            .with_out_of_time_loss(true);
        let asks = game.begin().unwrap();
        for ask in asks {
            let answer = match ask.team {
                Team::Red => BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed),
                Team::Blue => Answer::NoMove(NoMove::Program(ProgramFailure::OutOfTime)),
            };
            let took = Some(Duration::from_micros(1500));
            assert!(game.deliver_timed(ask.turn, ask.team, answer, took));
        }
        game.finish(1000).unwrap();
        assert!(matches!(
            game.ending(),
            Some(Ending::Forfeit {
                team: Team::Blue,
                ..
            })
        ));
        assert_eq!(game.begin(), Err(LoopError::NotInProgress));
        let report = game.report().unwrap();
        // The tally keeps the microseconds, the log whole milliseconds.
        assert_eq!(report.sides.red.mean_ms(), Some(1.5));
        assert_eq!(report.log.ticks[0][0].as_ref().and_then(|l| l.ms), Some(1));
        let mut read: GameReport =
            serde_json::from_str(&serde_json::to_string(&report).unwrap()).unwrap();
        assert_eq!(read.sides.red.median_ms(), None);
        read.restore_answer_times();
        assert_eq!(read.sides.red.median_ms(), report.sides.red.median_ms());
        assert_eq!(read.sides.blue.causes["out_of_time"].count, 1);
    }

    #[test]
    fn a_stalled_ending_is_in_the_bundle_as_a_kind_and_old_sides_still_read() {
        let ending = Ending::Stalled {
            team: Team::Red,
            cause: "x".to_string(),
        };
        let json = serde_json::to_string(&ending).unwrap();
        assert_eq!(json, r#"{"kind":"stalled","team":"red","cause":"x"}"#);
        assert_eq!(serde_json::from_str::<Ending>(&json).unwrap(), ending);
        let old = r#"{"fixture":{"number":0,"round":0,"red":0,"blue":1,"seed":1},
            "ending":{"kind":"played","result":{"kind":"turnLimit"}},"ticks":0,
            "sides":{"red":{"asked":2,"answered":1,"errors":1},"blue":{"asked":2,"answered":2,"errors":0}},
            "log":{"ticks":[]}}"#;
        let report: GameReport = serde_json::from_str(old).unwrap();
        assert_eq!(report.sides.red.errors, 1);
    }

    /// Plays `game` with greedy on both sides for at most `ticks` ticks, or to its end.
    fn greedy_ticks(game: &mut TournamentGame, ticks: u32) {
        for _ in 0..ticks {
            if game.ending().is_some() {
                break;
            }
            for ask in game.begin().unwrap() {
                let answer = BuiltIn::Greedy.answer(game.game(), ask.team, ask.seed);
                assert!(game.deliver(ask.turn, ask.team, answer, Some(1)));
            }
            game.finish(1000).unwrap();
        }
    }

    #[test]
    fn a_game_played_on_from_a_position_goes_on_from_its_turn_as_the_whole_game_did() {
        for preset in [Preset::Mini, Preset::Arena] {
            let settings = Settings {
                preset,
                max_turns: Some(60),
                ..Settings::default()
            };
            let mut whole = TournamentGame::new(fixture(9), &settings).unwrap();
            greedy_ticks(&mut whole, u32::MAX);
            let whole = (whole.game().clone(), whole.report().unwrap());

            let mut first = TournamentGame::new(fixture(9), &settings).unwrap();
            greedy_ticks(&mut first, 25);
            let at = first.game().clone();
            assert_eq!(at.turn(), 25, "{preset}");
            // Other settings than the position's: the position's rules stand.
            let other = Settings {
                preset: Preset::Classic,
                max_turns: Some(3),
                ..Settings::default()
            };
            let mut rest = TournamentGame::from_game(fixture(9), &other, at.clone());
            assert_eq!(rest.game(), &at);
            greedy_ticks(&mut rest, u32::MAX);
            let report = rest.report().unwrap();
            // The same seed and players give the same game: built-in seeds count from the game's turn.
            assert_eq!(rest.game(), &whole.0, "{preset}");
            assert_eq!(report.ending, whole.1.ending, "{preset}");
            assert_eq!(report.ticks, whole.1.ticks - 25, "{preset}");
        }
    }

    #[test]
    fn a_game_played_on_from_its_end_is_over_before_its_first_tick() {
        let settings = Settings {
            preset: Preset::Mini,
            max_turns: Some(4),
            ..Settings::default()
        };
        let mut game = TournamentGame::new(fixture(3), &settings).unwrap();
        greedy_ticks(&mut game, u32::MAX);
        let ended = game.game().clone();
        assert_eq!(ended.result(), Some(GameResult::TurnLimit));
        let mut again = TournamentGame::from_game(fixture(3), &settings, ended);
        let report = again.report().expect("over at once");
        assert_eq!(report.ticks, 0);
        assert_eq!(
            report.ending,
            Ending::Played {
                result: GameResult::TurnLimit
            }
        );
        assert!(again.begin().is_err(), "no tick is played");
    }
}
