//! The function format on the command line: the runner shipped in this binary imports the student's
//! main file and calls `move(request)` once per move.
//!
//! - The runner is the page's: web/runners/function.py and function.mjs decide what a move is (seeding,
//!   module state, the global `files`, what is printed, each failure's name and the answer), and the
//!   small runner.py and runner.mjs here only speak lines to gridarena. So a class's code plays the same
//!   moves, fails the same way and prints the same text here as in the page (tests/conformance.rs).
//! - One process per side per game, started at the game's first move, so top-level variables last the
//!   game and start afresh with the next, as on the page. It is asked one request line on stdin and
//!   answers one line on stdout, a [`RunnerReply`] that carries what the code printed; what the code
//!   writes below the runner's capture (a file descriptor, a child process) reaches stderr and is added
//!   to it.
//! - Importing the module is not charged to the move (the page waits for its worker too), but it may
//!   take [`START_LIMIT`] at most. A start that fails (a syntax error, no `move`, an exception at the
//!   top level) fails every move of that game with the same message, without running the code again.
//! - A move past its tick is `timed_out`: the process group is killed, since nothing else stops an
//!   endless loop, and the next move starts a fresh process, with fresh module state (the message says
//!   so, as the page's restart loses it too).

use super::{quote, Interpreter};
use crate::program::process::{Line, Running, Started, Wiring};
use crate::program::GameDir;
use crate::web::Reply;
use gridarena_engine::halma::code::{
    CodeMove, Format, HashedSource, Lang, RunnerReply, MAX_OUTPUT_CHARS,
};
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::program::stderr_tail;
use gridarena_engine::halma::{Answer, CodeFailure, ContentType, Game, NoMove, Team, Wire};
use std::fmt;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The runners both hosts run (web/runners/), and this host's side of each.
const FUNCTION_PY: &str = include_str!("../../../../web/runners/function.py");
const FUNCTION_MJS: &str = include_str!("../../../../web/runners/function.mjs");
const RUNNER_PY: &str = include_str!("runner.py");
const RUNNER_MJS: &str = include_str!("runner.mjs");

/// The Python program a runner process runs: the shared runner, then this host's side.
fn python_program() -> String {
    format!("{FUNCTION_PY}\n{RUNNER_PY}")
}

/// The JavaScript program a runner process runs: this host's side, given the shared runner's text to
/// import (a module passed with `-e` cannot import a file of this binary).
fn node_program() -> String {
    let shared = serde_json::to_string(FUNCTION_MJS).unwrap_or_default();
    format!("const SHARED_RUNNER = {shared};\n{RUNNER_MJS}")
}

/// How long the import of a student's module may take, as the page's "ready within 20 s".
pub const START_LIMIT: Duration = Duration::from_secs(20);

/// A function-format code entry: its files, its interpreter, and the game it is playing.
pub struct FunctionPlayer {
    source: Arc<HashedSource>,
    interpreter: &'static Interpreter,
    state: Mutex<State>,
}

impl fmt::Debug for FunctionPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "FunctionPlayer({})", self.source.main)
    }
}

/// One game of a function player. The runner is declared first, so it is killed before its folder goes.
#[derive(Default)]
struct State {
    runner: Option<Runner>,
    dir: Option<GameDir>,
    /// Why this game's code could not start: every later move of the game answers it.
    broken: Option<CodeFailure>,
}

struct Runner {
    running: Running,
    stdin: Sender<Vec<u8>>,
    lines: Receiver<Line>,
}

impl FunctionPlayer {
    pub fn new(source: Arc<HashedSource>, interpreter: &'static Interpreter) -> FunctionPlayer {
        FunctionPlayer {
            source,
            interpreter,
            state: Mutex::new(State::default()),
        }
    }

    pub fn source(&self) -> &Arc<HashedSource> {
        &self.source
    }

    /// Ends the game: the runner's process group is killed and the folder removed.
    pub fn end_game(&self) {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        *state = State::default();
    }

    /// Asks for `team`'s move in `game` (of seed `seed`), waiting `limit` at most once the code is
    /// ready; returns the move and the request line it was asked.
    pub fn ask(&self, game: &Game, team: Team, seed: u64, limit: Duration) -> (CodeMove, String) {
        let limit_ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        let request = game_request_body(game, team, limit_ms, seed);
        let moved = self.ask_request(&request, team, seed, limit);
        (moved, request)
    }

    /// Asks `move` with `request` as it is (the conformance suite's requests), as `team` in a game of
    /// seed `seed`. At a game's first move what the import printed comes first in the printed text.
    pub fn ask_request(&self, request: &str, team: Team, seed: u64, limit: Duration) -> CodeMove {
        let limit_ms = u64::try_from(limit.as_millis()).unwrap_or(u64::MAX);
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let mut printed = String::new();
        let failed = |failure: CodeFailure, printed: String| CodeMove {
            answer: Answer::NoMove(NoMove::Code(failure)),
            body: None,
            printed: Some(printed).filter(|p| !p.is_empty()),
            // It answered, badly: a broken entry is told from one that never answers.
            ms: Some(0.0),
        };
        if let Some(broken) = &state.broken {
            return failed(broken.clone(), printed);
        }
        if state
            .runner
            .as_mut()
            .is_some_and(|r| r.running.exited().is_some())
        {
            state.runner = None;
        }
        if state.runner.is_none() {
            match self.start(&mut state, team, seed) {
                Ok(said) => printed = said,
                Err((failure, said)) => {
                    state.runner = None;
                    state.broken = Some(failure.clone());
                    return failed(failure, said);
                }
            }
        }
        let Some(runner) = state.runner.as_mut() else {
            let failure = CodeFailure::NotStarted {
                why: "its runner did not start".to_string(),
            };
            return failed(failure, printed);
        };
        let mark = runner.running.stderr_mark();
        let start = Instant::now();
        // One request is one line. A line break in JSON can only be whitespace (one inside a string is
        // escaped), so a request written over several lines means the same as a space, and cannot split
        // into two requests; text that is not JSON stays not JSON, and the runner says so.
        let mut line = request.replace(['\n', '\r'], " ").into_bytes();
        line.push(b'\n');
        let heard = match runner.stdin.send(line) {
            Ok(()) => runner.lines.recv_timeout(limit),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let mut end_runner = false;
        let mut moved = match heard {
            Ok(Line::Text(bytes)) => read_move(&bytes, ms),
            Ok(Line::TooLong { bytes }) => {
                end_runner = true;
                let why = format!("the answer is over {bytes} bytes, more than any move needs");
                CodeMove {
                    ms: Some(ms),
                    ..failed(CodeFailure::Malformed { why }, String::new())
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                end_runner = true;
                let message = format!(
                    "no answer: timed out after {limit_ms} ms; its process was stopped, and the next move \
                     starts a fresh one (the module's variables start afresh)"
                );
                let answer = Answer::NoMove(NoMove::Replayed {
                    code: "timed_out".to_string(),
                    message,
                });
                CodeMove::failed(answer)
            }
            Err(RecvTimeoutError::Disconnected) => {
                end_runner = true;
                let exit = runner.running.wait_for(Duration::from_secs(1));
                let status = exit.map_or("it stopped answering".to_string(), |e| e.describe());
                let tail = stderr_tail(&runner.running.stderr_since(mark));
                let failure = died(self.interpreter.lang, &status, &tail);
                CodeMove {
                    ms: Some(ms),
                    ..failed(failure, String::new())
                }
            }
        };
        if end_runner {
            runner.running.kill();
        }
        // What the import printed (at a game's first move), what the runner captured, then what reached
        // stderr below the capture.
        if let Some(said) = moved.printed.take() {
            printed.push_str(&said);
        }
        printed.push_str(&String::from_utf8_lossy(&runner.running.stderr_since(mark)));
        if end_runner {
            state.runner = None;
        }
        moved.printed = Some(printed).filter(|p| !p.is_empty());
        moved
    }

    /// Starts this game's runner and imports the module; returns what the import printed, or why it
    /// failed with what it printed.
    fn start(
        &self,
        state: &mut State,
        team: Team,
        seed: u64,
    ) -> Result<String, (CodeFailure, String)> {
        let not_started = |why: String| (CodeFailure::NotStarted { why }, String::new());
        let dir = match &state.dir {
            Some(dir) => dir.path().to_path_buf(),
            None => {
                let made = GameDir::written(&self.source, &format!("{team}-function"))
                    .map_err(not_started)?;
                state.dir.insert(made).path().to_path_buf()
            }
        };
        let exe = quote(&self.interpreter.exe.to_string_lossy());
        let command = match self.interpreter.lang {
            Lang::Python => format!("{exe} -c {}", quote(&python_program())),
            Lang::JavaScript => format!(
                // vm modules: the runner compiles a module that does not parse to find its line.
                "{exe} --max-old-space-size={} --experimental-vm-modules --no-warnings \
                 --input-type=module -e {}",
                super::sandbox::MEMORY_LIMIT >> 20,
                quote(&node_program())
            ),
        };
        let started = Running::start_in(
            &command,
            &dir,
            Wiring::Lines,
            Some(&self.interpreter.sandbox),
        )
        .map_err(not_started)?;
        let Started {
            running,
            stdin: Some(stdin),
            lines: Some(lines),
        } = started
        else {
            return Err(not_started(
                "its stdin and stdout could not be connected".to_string(),
            ));
        };
        let mut runner = Runner {
            running,
            stdin,
            lines,
        };
        let config = serde_json::json!({
            "seed": seed.to_string(),
            "main": self.source.main,
            "outputChars": MAX_OUTPUT_CHARS,
        });
        let mut line = config.to_string().into_bytes();
        line.push(b'\n');
        let mut imported = String::new();
        let heard = match runner.stdin.send(line) {
            Ok(()) => runner.lines.recv_timeout(START_LIMIT),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        let failure = match heard {
            Ok(Line::Text(bytes)) => match serde_json::from_slice::<RunnerReply>(&bytes) {
                Ok(said) => {
                    imported = said.printed().unwrap_or_default();
                    (!said.ok).then(|| {
                        CodeFailure::from_code(
                            said.code.as_deref().unwrap_or("could_not_start"),
                            said.message.unwrap_or_default(),
                        )
                    })
                }
                Err(e) => Some(CodeFailure::NotStarted {
                    why: format!("its runner said something unreadable: {e}"),
                }),
            },
            Ok(Line::TooLong { .. }) => Some(CodeFailure::NotStarted {
                why: "its runner said something unreadable".to_string(),
            }),
            Err(RecvTimeoutError::Timeout) => {
                runner.running.kill();
                Some(CodeFailure::NotStarted {
                    why: format!(
                        "the code was not ready {} s after {} had started: the top level of {} ran all \
                         that time (an endless loop there, or a long computation: keep that for move, \
                         or ship its result as a data file)",
                        START_LIMIT.as_secs(),
                        Interpreter::command(self.interpreter.lang),
                        self.source.main
                    ),
                })
            }
            Err(RecvTimeoutError::Disconnected) => {
                let exit = runner.running.wait_for(Duration::from_secs(1));
                let status = exit.map_or("it stopped answering".to_string(), |e| e.describe());
                let tail = stderr_tail(&runner.running.stderr_since(0));
                Some(match died(self.interpreter.lang, &status, &tail) {
                    CodeFailure::Exception { traceback } => {
                        CodeFailure::NotStarted { why: traceback }
                    }
                    other => other,
                })
            }
        };
        let mut printed = imported;
        printed.push_str(&String::from_utf8_lossy(&runner.running.stderr_since(0)));
        match failure {
            None => {
                state.runner = Some(runner);
                Ok(printed)
            }
            Some(failure) => {
                runner.running.kill();
                Err((failure, printed))
            }
        }
    }
}

/// A move as the runner's reply to the game loop: `move`'s JSON is the wire's body, what the code
/// printed is kept beside it as a program's stderr is.
pub fn reply((asked, request): (CodeMove, String), tick_ms: u64) -> (Reply, Option<String>) {
    let latency = asked
        .ms
        .map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1000.0));
    let wire = Wire {
        ms: latency.map(|l| u32::try_from(l.as_millis()).unwrap_or(u32::MAX)),
        body: asked.body,
        stderr: asked.printed,
        ..Wire::sent(ContentType::default(), tick_ms)
    };
    let reply = Reply {
        answer: asked.answer,
        latency,
        wire: Some(wire),
    };
    (reply, Some(request))
}

/// The move in a runner's line: the shared reading of a [`RunnerReply`], or a malformed answer when
/// the line is not one.
fn read_move(bytes: &[u8], ms: f64) -> CodeMove {
    match serde_json::from_slice::<RunnerReply>(bytes) {
        Ok(said) => said.into_move(Format::Function, Some(ms)),
        Err(e) => {
            let why = format!("the runner's line is not its answer ({e}): did the code write to gridarena's own channel?");
            CodeMove {
                ms: Some(ms),
                ..CodeMove::failed(Answer::NoMove(NoMove::Code(CodeFailure::Malformed { why })))
            }
        }
    }
}

/// The failure of a runner that ended in the middle of a move or of its start (`status`, with the end
/// of what it printed): out of memory when the interpreter says so, else an exception.
fn died(lang: Lang, status: &str, tail: &str) -> CodeFailure {
    let memory = match lang {
        Lang::Python => tail.contains("MemoryError") || tail.contains("Cannot allocate memory"),
        Lang::JavaScript => {
            tail.contains("heap out of memory") || tail.contains("Fatal process OOM")
        }
    };
    if memory {
        return CodeFailure::OutOfMemory {
            why: format!(
                "its process grew past {} MiB and ended ({status})",
                super::sandbox::MEMORY_LIMIT >> 20
            ),
        };
    }
    let mut traceback = format!(
        "its process ended ({status}); the next move starts a fresh one (the module's variables start afresh)"
    );
    if !tail.is_empty() {
        traceback.push_str(":\n");
        traceback.push_str(tail);
    }
    CodeFailure::Exception { traceback }
}
