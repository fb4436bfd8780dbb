//! What a match keeps of a game: every answer as it arrived (a move as `"x,y x,y"`, a no-move as its
//! code and message, with the answer's latency), a few bytes a tick. [`GameLog::record`] plays it again
//! into the record format the arena page replays; storing every state instead would make a class's
//! tournament hundreds of megabytes.

use crate::halma::record::Recorder;
use crate::halma::tally::clip as clip_message;
use crate::halma::{
    Answer, Game, GameLoop, LoopError, NoMove, Path, Point, Rules, SetupError, Team, Teams,
};
use serde::{Deserialize, Serialize};
use std::fmt;

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
    pub(super) fn new(answer: &Answer, ms: Option<u32>) -> LoggedAnswer {
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
    /// The game played again from its rules and seed, tick by tick, into the record format the
    /// arena page loads (`players` label the two sides). Every tick must be one the referee accepts.
    pub fn record(
        &self,
        rules: &Rules,
        seed: u64,
        players: Teams<String>,
    ) -> Result<String, LogError> {
        let setup = |why: SetupError| LogError {
            tick: 0,
            why: why.to_string(),
        };
        let mut game = GameLoop::new(Game::new(rules, seed).map_err(setup)?, seed);
        let mut recorder = Recorder::new(players, seed, game.game());
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
