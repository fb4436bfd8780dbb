//! One game with its players: the [`GameLoop`] every host plays through, plus what each host used to add
//! on its own. The arena page, `gridarena halma match`, Compare and both tournaments (page and CLI) hold
//! a [`Match`], so a game is asked, timed, counted and judged alike wherever it is played:
//!
//! - **Its players' wires** ([`Seat`]): how each side's requests are labelled (a web AI's content type)
//!   and where its move is cut ([`Cut`]: at the tick, or on its course clock). The host reads
//!   [`Match::content_type`] and [`Match::deadline`] and obeys; it never decides these itself.
//! - **Its tally**: each side's answers ([`AnswerTally`]) and its last error.
//! - **Its error policy** ([`Policy`]): lenient in the arena (an error costs its tick), a forfeit on the
//!   N-th error or the N-th in a row in a tournament; under every policy a game that reaches the turn
//!   limit goes against the side with more error ticks ([`Ending::Stalled`]).
//! - **Its record** ([`GameLog`]): every answer as it arrived, a few bytes a tick, which
//!   [`GameLog::record`] plays again into the arena's record format.
//!
//! Like the loop, a match has no clock and no I/O: the host sends the requests, delivers the answers
//! with their latency, and says how long it waited.
//!
//! A side "answered" in a tick when a reply reached the referee in time, whatever it said (an HTTP 500
//! is an answer; a refused connection or a time-out is not): a tournament's withdrawal rule counts games
//! without one.

mod ending;
mod log;
mod policy;
mod seat;

pub use ending::Ending;
pub use log::{parse_path, path_text, GameLog, LogError, LoggedAnswer};
pub use policy::{Policy, DEFAULT_CONSECUTIVE_ERRORS};
pub use seat::{Cut, Deadline, Seat};

use crate::halma::{
    Answer, AnswerTally, Ask, ContentType, Game, GameLoop, GameResult, LoopError, NoMove, Path,
    ProgramFailure, Team, Teams, TickOutcome,
};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// A game in progress with its players.
#[derive(Clone, Debug)]
pub struct Match {
    game: GameLoop,
    seats: Teams<Seat>,
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
    /// The length of the tick in progress: its requests' `timeLimitMs`, and the deadline of a side cut at
    /// the tick.
    tick_ms: u64,
    ending: Option<Ending>,
}

/// A finished match: how it ended, and what each side did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchReport {
    pub ending: Ending,
    /// Ticks played.
    pub ticks: u32,
    /// What each side did. The answer times are not serialized (the log has them):
    /// [`MatchReport::restore_answer_times`] puts them back after reading one.
    pub sides: Teams<AnswerTally>,
    /// The last error of each side, for the standings' "why".
    #[serde(default)]
    pub last_error: Teams<Option<String>>,
    pub log: GameLog,
}

impl MatchReport {
    /// A game that never started: `team` had withdrawn (`cause` says why), so the other side wins.
    pub fn withdrawn(team: Team, cause: String) -> MatchReport {
        MatchReport {
            ending: Ending::Withdrawn { team, cause },
            ticks: 0,
            sides: Teams::default(),
            last_error: Teams::default(),
            log: GameLog::default(),
        }
    }

    /// Fills each side's answer times from the log, as a report read from a file needs.
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

impl Match {
    /// A match from `game` (a new game, or a position from anywhere: a record's tick, a state file),
    /// whose built-in AIs play with `seed`, judged by `policy`. The position's own rules, turn and turn
    /// limit stand. A game that has already ended is over before its first tick: its
    /// [`Match::report`] is the board's result after no ticks.
    pub fn new(game: Game, seed: u64, policy: Policy) -> Match {
        let ending = game.result().map(|result| Ending::Played { result });
        Match {
            game: GameLoop::new(game, seed),
            seats: Teams::default(),
            policy,
            out_of_time_loses: policy.out_of_time_loses(),
            sides: Teams::default(),
            last_error: Teams::default(),
            streak: Teams::default(),
            log: GameLog::default(),
            pending: Teams::default(),
            asked: Teams::default(),
            tick_ms: 0,
            ending,
        }
    }

    /// The same match with `seats` for its players' wires (every side defaults to `text/plain`, cut at
    /// the tick).
    pub fn with_seats(mut self, seats: Teams<Seat>) -> Match {
        self.seats = seats;
        self
    }

    /// The same match, where a program whose clock runs out forfeits at once (`loses`) or plays on with
    /// no move: `gridarena halma match --out-of-time` says so whatever the policy.
    pub fn with_out_of_time_loss(mut self, loses: bool) -> Match {
        self.out_of_time_loses = loses;
        self
    }

    /// Changes `team`'s wire, for its next request (the arena's player changed).
    pub fn set_seat(&mut self, team: Team, seat: Seat) {
        self.seats[team] = seat;
    }

    pub fn seat(&self, team: Team) -> Seat {
        self.seats[team]
    }

    /// The length of the tick in progress (or the last one).
    pub fn tick_ms(&self) -> u64 {
        self.tick_ms
    }

    /// How `team`'s requests are labelled.
    pub fn content_type(&self, team: Team) -> ContentType {
        self.seats[team].content_type
    }

    /// When `team`'s move in the tick in progress is given up on: the tick, or its course clock.
    pub fn deadline(&self, team: Team) -> Deadline {
        self.seats[team].cut.deadline(self.tick_ms)
    }

    pub fn game(&self) -> &Game {
        self.game.game()
    }

    /// The seed the built-in AIs play with.
    pub fn seed(&self) -> u64 {
        self.game.seed()
    }

    /// The tick collecting answers, by the game's turn when it began.
    pub fn round(&self) -> Option<u32> {
        self.game.round()
    }

    /// What `team` did so far.
    pub fn tally(&self, team: Team) -> &AnswerTally {
        &self.sides[team]
    }

    /// `team`'s last error, as said to people.
    pub fn last_error(&self, team: Team) -> Option<&str> {
        self.last_error[team].as_deref()
    }

    /// How it ended, once it has.
    pub fn ending(&self) -> Option<&Ending> {
        self.ending.as_ref()
    }

    /// Gives `team`'s move for the coming tick ahead of it, for a mover that is not asked (a person at
    /// the board): [`GameLoop::submit`].
    pub fn submit(&mut self, team: Team, path: Path) {
        self.game.submit(team, path);
    }

    /// Takes back `team`'s move given ahead.
    pub fn withdraw(&mut self, team: Team) {
        self.game.withdraw(team);
    }

    /// `team`'s move given ahead for the coming tick.
    pub fn submitted(&self, team: Team) -> Option<&Path> {
        self.game.submitted(team)
    }

    /// Starts a tick of `tick_ms`: the requests to send, one per side to move for which `ask` is true (a
    /// tournament asks every side; the arena not a person at the board). Refused once the game has
    /// ended, by its result or by a forfeit ([`LoopError::NotInProgress`] then).
    pub fn begin(
        &mut self,
        ask: impl Fn(Team) -> bool,
        tick_ms: u64,
    ) -> Result<Vec<Ask>, LoopError> {
        if self.ending.is_some() && self.game.game().result().is_none() {
            return Err(LoopError::NotInProgress);
        }
        let asks = self.game.begin(ask)?;
        self.tick_ms = tick_ms;
        self.asked = Teams::from_fn(|team| asks.iter().any(|a| a.team == team));
        for ask in &asks {
            self.sides[ask.team].ask();
        }
        Ok(asks)
    }

    /// The request body for `team` in the tick in progress: what a web AI receives, `timeLimitMs` the
    /// tick.
    pub fn request_body(&self, team: Team) -> String {
        self.game.request_body(team, self.tick_ms)
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

    /// [`Match::deliver`] with the latency as measured: the log keeps whole milliseconds, the tally the
    /// microseconds a built-in AI's sub-millisecond answers need for a meaningful mean.
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

    /// Whether an asked side's answer has not arrived (without building the list).
    pub fn is_awaiting(&self) -> bool {
        Team::ALL
            .into_iter()
            .any(|t| self.asked[t] && self.pending[t].is_none())
    }

    /// Ends the tick (a side still awaited timed out after `waited_ms`), logs it and applies the policy.
    pub fn finish(&mut self, waited_ms: u64) -> Result<TickOutcome, LoopError> {
        // A mover not asked (a person) plays the move it gave ahead: logged as an answer without a
        // latency, so the record plays it again.
        let movers = self.game.game().movers();
        let given: Teams<Option<LoggedAnswer>> = Teams::from_fn(|team| {
            let path = self.game.submitted(team).filter(|_| movers.contains(&team));
            path.map(|p| LoggedAnswer::new(&Answer::Move(p.clone()), None))
        });
        let outcome = self.game.finish(waited_ms)?;
        let asked = std::mem::take(&mut self.asked);
        let mut entry: [Option<LoggedAnswer>; 2] = [None, None];
        for team in Team::ALL {
            if !asked[team] {
                entry[team as usize] = given[team].clone();
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
        // The tally is of answers: a person at the board who has not moved yet is not an error.
        for e in outcome.errors.iter().filter(|e| asked[e.team]) {
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

    /// The finished match, once it has ended.
    pub fn report(&self) -> Option<MatchReport> {
        Some(MatchReport {
            ending: self.ending.clone()?,
            ticks: u32::try_from(self.log.ticks.len()).unwrap_or(u32::MAX),
            sides: self.sides.clone(),
            last_error: self.last_error.clone(),
            log: self.log.clone(),
        })
    }
}

#[cfg(test)]
mod tests;
