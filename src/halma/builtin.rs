//! Built-in AIs as a job: a game state in, an answer body out.
//!
//! The page runs them in a Web Worker (see `crate::ai_worker`) so the search never holds up the page. The
//! worker loads the AI module (`src/bin/gridarena-ai-halma.rs`), which answers with [`halma_builtin_answer`]; a page
//! without workers loads that module on its own thread. The page's own module only writes jobs and reads
//! replies, so it carries no search. The answer goes through the parser that reads web AIs' answers, so a
//! built-in AI gets no shortcut past the referee.
//!
//! The job carries the game-state format the page already reads and writes for records, rather than the
//! web-AI request, because a second JSON format in the page costs about 10 KB of gzipped wasm.

use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::protocol::parse_response;
use gridarena_engine::halma::{Answer, Game, GameState, NoMove, Team};
use serde::Deserialize;
#[cfg(test)]
use serde::Serialize;

/// The AI module that answers the jobs (`src/bin/gridarena-ai-halma.rs`).
pub const MODULE: &str = "gridarena-ai-halma";

/// What a reply starts with when the AI has no move to give, followed by why.
const ERROR: &str = crate::ai_worker::NO_MOVE;

/// One job for the worker, as it reads it ([`job_with_state`] writes it).
#[derive(Deserialize)]
#[cfg_attr(test, derive(Serialize))]
struct Job {
    ai: String,
    team: Team,
    /// A string, because a JavaScript number cannot hold every u64.
    seed: String,
    state: GameState,
}

/// The worker's message asking `ai` for `team`'s move in `game`, played with `seed`.
pub fn job(ai: BuiltIn, game: &Game, team: Team, seed: u64) -> String {
    job_with_state(ai, &state_text(game), team, seed)
}

/// `game`'s state as a job carries it.
fn state_text(game: &Game) -> String {
    serde_json::to_string(&game.state()).unwrap_or_default()
}

/// A tick's game state as the players' messages carry it (a built-in's job, a code player's request),
/// written the first time a player of the tick asks for it and not again for the other.
pub struct TickState<'a> {
    game: &'a Game,
    text: std::cell::OnceCell<String>,
}

impl<'a> TickState<'a> {
    pub fn new(game: &'a Game) -> TickState<'a> {
        TickState {
            game,
            text: std::cell::OnceCell::new(),
        }
    }

    /// [`TickState::new`], with the state's JSON where it is written already (the record's last tick
    /// line holds it: see [`super::session::Session::state_json`]).
    pub fn written(game: &'a Game, text: Option<&str>) -> TickState<'a> {
        TickState {
            game,
            text: text.map(str::to_owned).map(Into::into).unwrap_or_default(),
        }
    }

    /// The state's JSON, written on the first call.
    pub fn text(&self) -> &str {
        self.text.get_or_init(|| state_text(self.game))
    }
}

/// [`job`] with the state already written (by [`TickState::text`]).
pub fn job_with_state(ai: BuiltIn, state: &str, team: Team, seed: u64) -> String {
    let text = |v: &str| serde_json::to_string(v).unwrap_or_default();
    format!(
        "{{\"ai\":{},\"team\":{},\"seed\":\"{seed}\",\"state\":{state}}}",
        text(ai.name()),
        text(team.name())
    )
}

/// Runs one job. The reply is the move as a response body, or [`ERROR`] and why there is none.
/// The AI module exports it for the worker (`src/bin/gridarena-ai-halma.rs`).
pub fn halma_builtin_answer(job: &str) -> String {
    // Through a `Value`, as records are read: a second way of reading JSON would double the code size.
    let job = serde_json::from_str(job).and_then(serde_json::from_value::<Job>);
    let job = match job {
        Ok(j) => j,
        Err(e) => return format!("{ERROR}unreadable job: {e}"),
    };
    let Ok(ai) = job.ai.parse::<BuiltIn>() else {
        return format!("{ERROR}unknown built-in AI {:?}", job.ai);
    };
    let Ok(seed) = job.seed.parse::<u64>() else {
        return format!("{ERROR}seed {:?} is not a whole number", job.seed);
    };
    let game = match Game::from_state(&job.state) {
        Ok(g) => g,
        Err(e) => return format!("{ERROR}the state is not a valid game: {e}"),
    };
    match ai.answer(&game, job.team, seed) {
        Answer::Move(path) => serde_json::to_string(&path).unwrap_or_default(),
        // The engine's words, read back by `read_reply` as the same failure.
        Answer::NoMove(NoMove::Failed(why)) => format!("{ERROR}{why}"),
        Answer::NoMove(other) => format!("{ERROR}{other}"),
    }
}

/// Reads what [`halma_builtin_answer`] returned as the team's answer.
pub fn read_reply(reply: &str) -> Answer {
    match reply.strip_prefix(ERROR) {
        Some(why) => Answer::NoMove(NoMove::Failed(why.to_string())),
        None => Answer::from(parse_response(reply.as_bytes())),
    }
}

/// `ai`'s answer for `team` in `game`, worked out on this thread (tests and native tools; a page asks
/// the worker).
pub fn answer(ai: BuiltIn, game: &Game, team: Team, seed: u64) -> Answer {
    read_reply(&halma_builtin_answer(&job(ai, game, team, seed)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::Preset;

    #[test]
    fn a_job_answers_as_the_ai_chooses_on_the_game() {
        for preset in Preset::ALL {
            let game = Game::new(&preset.rules(), 4).unwrap();
            for team in Team::ALL {
                for ai in BuiltIn::ALL {
                    let direct = ai.choose(game.position(), game.mode(), team, u64::MAX);
                    let got = answer(ai, &game, team, u64::MAX);
                    assert_eq!(got, Answer::Move(direct.unwrap()), "{preset} {team} {ai}");
                }
            }
        }
    }

    #[test]
    fn a_job_written_from_the_state_text_is_the_job_serde_writes() {
        let game = Game::new(&Preset::Arena.rules(), 9).unwrap();
        for team in Team::ALL {
            let by_serde = serde_json::to_value(Job {
                ai: BuiltIn::Search.name().to_string(),
                team,
                seed: u64::MAX.to_string(),
                state: game.state(),
            })
            .unwrap();
            let state = TickState::new(&game);
            let written = job_with_state(BuiltIn::Search, state.text(), team, u64::MAX);
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&written).unwrap(),
                by_serde
            );
        }
    }

    #[test]
    fn a_bad_job_is_an_error_answer_not_a_panic() {
        let game = Game::new(&Preset::Mini.rules(), 1).unwrap();
        let good = job(BuiltIn::Greedy, &game, Team::Red, 1);
        let bad_state = good.replace("\"boardSize\":8", "\"boardSize\":3");
        let bad_ai = good.replace("greedy", "genius");
        for bad in ["", "[]", "{\"ai\":\"greedy\"}", &bad_state, &bad_ai] {
            let reply = halma_builtin_answer(bad);
            assert!(
                matches!(read_reply(&reply), Answer::NoMove(NoMove::Failed(_))),
                "{bad}: {reply}"
            );
        }
    }
}
