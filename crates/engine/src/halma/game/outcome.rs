//! What a tick takes (one [`Answer`] per team) and what it gives (a [`TickOutcome`], or a
//! [`TickRefused`] when it cannot be played): plain data that the page, the CLI and records share.

use crate::halma::protocol::ResponseError;
use crate::halma::{Path, Square, Team};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum GameResult {
    /// One team filled its destinations: "HALMATE".
    Win { winner: Team },
    /// Both teams finished on the same tick.
    BothFinished,
    /// The turn limit was reached first.
    TurnLimit,
}

impl GameResult {
    /// The winner, if the game was not drawn.
    pub fn winner(self) -> Option<Team> {
        match self {
            GameResult::Win { winner } => Some(winner),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameResult::Win { winner } => write!(f, "HALMATE! {winner} wins"),
            GameResult::BothFinished => {
                f.write_str("HALMATE for both teams on the same tick: a draw")
            }
            GameResult::TurnLimit => f.write_str("the turn limit was reached: a draw"),
        }
    }
}

/// Why a team has no move this tick. The UI and the runner say which; the referee only needs to know
/// there is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoMove {
    /// No answer was given (a null in `gridarena halma tick`, a player that has nothing to say).
    Missing,
    /// The answer did not arrive before the deadline.
    TimedOut { after_ms: u64 },
    /// The answer arrived but is not a move.
    Unreadable(ResponseError),
    /// The request failed: refused connection, HTTP error status, blocked by CORS, ...
    Failed(String),
    /// A no-move known by its code and message only: read back from a tournament's game log (so a replay
    /// shows exactly what the live game showed), or handed over by the code players' module, which runs
    /// them for the arena in a wasm module of its own.
    Replayed { code: String, message: String },
    /// A program player gave no move (see [`ProgramFailure`](crate::halma::program::ProgramFailure)).
    Program(crate::halma::program::ProgramFailure),
    /// A code player (a student's Python or JavaScript run by the page) gave no move (see
    /// [`CodeFailure`](crate::halma::CodeFailure)).
    Code(crate::halma::CodeFailure),
}

impl NoMove {
    /// A stable identifier for programs.
    pub fn code(&self) -> &str {
        match self {
            NoMove::Missing => "missing",
            NoMove::TimedOut { .. } => "timed_out",
            NoMove::Unreadable(e) => e.code(),
            NoMove::Failed(_) => "request_failed",
            NoMove::Replayed { code, .. } => code,
            NoMove::Program(failure) => failure.code(),
            NoMove::Code(failure) => failure.code(),
        }
    }
}

impl fmt::Display for NoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoMove::Missing => f.write_str("no move was submitted"),
            NoMove::TimedOut { after_ms } => write!(f, "no answer: timed out after {after_ms} ms"),
            NoMove::Unreadable(e) => write!(f, "unreadable answer: {e}"),
            NoMove::Failed(why) => write!(f, "request failed: {why}"),
            NoMove::Replayed { message, .. } => f.write_str(message),
            NoMove::Program(failure) => failure.fmt(f),
            NoMove::Code(failure) => failure.fmt(f),
        }
    }
}

/// What a team submits for a tick.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    Move(Path),
    NoMove(NoMove),
}

impl From<Path> for Answer {
    fn from(p: Path) -> Answer {
        Answer::Move(p)
    }
}

impl From<Result<Path, ResponseError>> for Answer {
    fn from(r: Result<Path, ResponseError>) -> Answer {
        match r {
            Ok(p) => Answer::Move(p),
            Err(e) => Answer::NoMove(NoMove::Unreadable(e)),
        }
    }
}

/// Why the referee refused to play a tick at all (nothing changed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TickRefused {
    /// The game has ended.
    GameOver(GameResult),
    /// In an alternating game, a move came from the team that is not to move.
    NotYourTurn(Team),
}

impl fmt::Display for TickRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TickRefused::GameOver(r) => write!(f, "the game is over ({r}); it takes no more moves"),
            TickRefused::NotYourTurn(t) => write!(f, "it is not {t}'s turn"),
        }
    }
}

impl std::error::Error for TickRefused {}

/// A move the referee carried out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EnactedMove {
    pub team: Team,
    pub from: Square,
    /// Every landing square, the final one last.
    pub to: Vec<Square>,
}

/// A piece whose damage is above 0 after the tick.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DamagedPiece {
    pub team: Team,
    pub x: u8,
    pub y: u8,
    pub damage: u8,
}

/// Whether a team's error was the lack of a move or an illegal one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ErrorKind {
    NoMove,
    InvalidMove,
}

/// One team's problem in a tick.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamError {
    pub team: Team,
    pub kind: ErrorKind,
    /// A stable identifier such as `timed_out` or `jump_over_empty`.
    pub code: String,
    /// The explanation for people.
    pub message: String,
    /// The move that was refused, if one was submitted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submitted: Option<Path>,
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ErrorKind::NoMove => write!(f, "{}: {}", self.team, self.message),
            ErrorKind::InvalidMove => write!(f, "{}: invalid move: {}", self.team, self.message),
        }
    }
}

/// Everything a tick did, as plain data: enough to render the message field without any rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TickOutcome {
    /// Ticks played, this one included.
    pub turn: u32,
    /// The teams that were asked for a move.
    pub movers: Vec<Team>,
    /// The moves carried out: none if any mover had no move or an illegal one.
    pub moves: Vec<EnactedMove>,
    /// Squares where both teams' moves ended this tick.
    pub collisions: Vec<Square>,
    /// Every damaged piece after the tick.
    pub damaged: Vec<DamagedPiece>,
    /// Every team's problem this tick.
    pub errors: Vec<TeamError>,
    /// How the game ended, if it ended on this tick.
    pub result: Option<GameResult>,
}
