//! Program players: an AI that is a program on this machine, asked in the course's file format or by
//! lines on stdin and stdout (docs/programs.md).
//!
//! - Each game gets its own working folder, a private copy of the agent's folder ([`workdir`]), and, for
//!   the line format, its own process, started at the first move and killed with its process group when
//!   the game ends. Several games at once never share either.
//! - However gridarena ends, its programs and their folders end with it ([`supervise`]).
//! - Each player has a clock, the engine's [`CourseClock`] (the page keeps a code player's the same way):
//!   the total play time of a game, charged after each move with the CPU time of the program's processes
//!   where the system reports it, else the wall time ([`Measured`]). A move still running at its time
//!   left plus the grace is killed. The wall time of a game's moves is capped too, at [`WALL_FACTOR`]
//!   times the clock. Once the clock is spent the player answers [`ProgramFailure::OutOfTime`]; what
//!   that costs is the caller's policy (the course's: the game is lost; the arena's: no move).
//! - Every way a move fails is a [`ProgramFailure`], with the tail of the program's stderr where it
//!   helps: that is where a student's bug shows.
//! - A move can be cancelled from another thread ([`ProgramPlayer::cancel`]): a bridged page that starts
//!   a game again must not wait for the old game's move, nor hold up any other game.

mod cancel;
mod course;
mod lines;
pub(crate) mod live;
pub(crate) mod process;
mod quota;
mod signals;
mod workdir;

pub use workdir::{GameDir, MAX_BYTES, MAX_FILES, PREFIX};

use crate::code::sandbox::Sandbox;
use gridarena_engine::halma::code::{Charge, ClockSettings, CourseClock, HashedSource};
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::{Answer, Game, NoMove, Program, ProgramFailure, ProgramFormat, Team};
use std::fmt;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Readies this process to run programs: removes the game folders a gridarena killed outright left
/// behind, and, from now on, a SIGINT, SIGTERM or SIGHUP ends every program this process started and
/// removes their folders before it exits (with status 130, 143 or 129).
pub fn supervise() -> Result<(), String> {
    workdir::remove_stale();
    signals::end_programs_on_signals()
}

pub use signals::{before_exit_on_signal, signal_name};

// The clock's rules are the engine's, shared with the page; kept under these names for this crate.
pub use gridarena_engine::halma::code::clock::{DEFAULT_CLOCK, DEFAULT_GRACE, WALL_FACTOR};
pub use gridarena_engine::halma::code::Measured;

/// A program's clock settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Play time per game.
    pub total: Duration,
    /// How long past its time left a move may run before it is killed.
    pub grace: Duration,
    /// What a spent clock costs.
    pub out_of_time: OutOfTime,
}

impl Default for Clock {
    fn default() -> Clock {
        Clock {
            total: DEFAULT_CLOCK,
            grace: DEFAULT_GRACE,
            out_of_time: OutOfTime::default(),
        }
    }
}

/// What happens when a program's clock reaches zero.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutOfTime {
    /// The course's policy: it loses the game.
    #[default]
    Lose,
    /// The arena's lenient policy: every later move is no move, and the game goes on.
    NoMove,
}

impl Clock {
    /// The clock of `settings` (a tournament's), with what a spent one costs.
    pub fn of(settings: ClockSettings, out_of_time: OutOfTime) -> Clock {
        Clock {
            total: settings.total,
            grace: settings.grace,
            out_of_time,
        }
    }

    /// The engine clock's settings: these, with the wall time capped at [`WALL_FACTOR`] times the total.
    pub fn settings(&self) -> ClockSettings {
        ClockSettings {
            total: self.total,
            grace: self.grace,
            wall_factor: WALL_FACTOR,
        }
    }
}

impl std::str::FromStr for OutOfTime {
    type Err = String;
    fn from_str(s: &str) -> Result<OutOfTime, String> {
        match s.trim() {
            "lose" => Ok(OutOfTime::Lose),
            "no-move" => Ok(OutOfTime::NoMove),
            other => Err(format!(
                "{other:?} is not a policy: lose (the course's) or no-move (the arena's)"
            )),
        }
    }
}

/// What one move of a program came to.
#[derive(Clone, Debug)]
pub struct Reply {
    pub answer: Answer,
    /// Wall time from start to answer, when an answer (good or bad) came before the kill.
    pub latency: Option<Duration>,
    /// What the program was given: `input.txt`'s text, or the request line.
    pub request: String,
    /// What it answered: `output.txt`'s text, or its line.
    pub output: Option<String>,
    /// The stderr it wrote during the move (its tail).
    pub stderr: Option<String>,
    /// The time left on its clock before the move, in milliseconds.
    pub time_left_ms: u64,
    /// Whether the move was cancelled ([`ProgramPlayer::cancel`]) while it was asked or running: its
    /// answer (most often a kill, read as `timed_out`) is then no verdict on the program.
    pub cancelled: bool,
}

/// How much of its clock a player has used in the current (or last) game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockUse {
    pub used: Duration,
    pub total: Duration,
    /// How the last charged move was measured.
    pub measured: Measured,
}

/// One game's state of a program player.
struct GameState {
    dir: Option<GameDir>,
    lines: Option<lines::Bot>,
    /// Boxed: a player is kept in enums beside smaller ones.
    warm: Option<Box<course::Warm>>,
    clock: CourseClock,
}

impl GameState {
    fn new(clock: &Clock) -> GameState {
        GameState {
            dir: None,
            lines: None,
            warm: None,
            clock: CourseClock::new(clock.settings()),
        }
    }
}

impl Drop for GameState {
    /// The process goes before its folder (the fields would drop the other way round).
    fn drop(&mut self) {
        self.lines = None;
        self.warm = None;
    }
}

/// A program playing one side: its settings, and the state of the game it is playing.
pub struct ProgramPlayer {
    program: Program,
    clock: Clock,
    /// A code entry's files, written as each game's folder instead of a copy of `program.dir`, and the
    /// sandbox its processes run in.
    code: Option<(Arc<HashedSource>, Arc<Sandbox>)>,
    /// For a course-format code entry, the command of its warm interpreter ([`course`]): its moves
    /// are forks of it rather than processes of their own.
    warm: Option<String>,
    state: Mutex<GameState>,
    /// Read without the state's lock, which a running move holds.
    cancels: cancel::Cancels,
}

impl fmt::Debug for ProgramPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ProgramPlayer({})", self.program)
    }
}

/// One move asked of a program.
pub struct Ask<'a> {
    pub game: &'a Game,
    pub team: Team,
    /// The game's seed, for the request's `gameId`.
    pub seed: u64,
    /// A move of a game, or a single check (`SINGLE`, the roll call's).
    pub single: bool,
    /// A shorter limit than the clock's for this move (a bridged page's tick).
    pub limit: Option<Duration>,
    /// The request line to send a line-format program as it is, instead of one made from `game` (the
    /// bridge forwards the page's).
    pub request: Option<&'a str>,
}

impl ProgramPlayer {
    pub fn new(program: Program, clock: Clock) -> ProgramPlayer {
        ProgramPlayer {
            program,
            clock,
            code: None,
            warm: None,
            state: Mutex::new(GameState::new(&clock)),
            cancels: cancel::Cancels::default(),
        }
    }

    /// A course-format code entry played as a program: each game's folder is made from `source`'s
    /// files, and `program.command` runs confined by `sandbox` ([`crate::code`]).
    pub fn of_code(
        program: Program,
        clock: Clock,
        source: Arc<HashedSource>,
        sandbox: Arc<Sandbox>,
    ) -> ProgramPlayer {
        ProgramPlayer {
            code: Some((source, sandbox)),
            ..ProgramPlayer::new(program, clock)
        }
    }

    /// Plays each course move as a fork of a warm interpreter started with `command` once per game
    /// (code/warm.py), instead of running `program.command` once per move.
    #[must_use]
    pub fn warm(mut self, command: String) -> ProgramPlayer {
        self.warm = Some(command);
        self
    }

    /// The code entry's files, when this plays one.
    pub fn code_source(&self) -> Option<&Arc<HashedSource>> {
        self.code.as_ref().map(|(source, _)| source)
    }

    pub fn program(&self) -> &Program {
        &self.program
    }

    /// The clock so far in this game.
    pub fn clock_use(&self) -> ClockUse {
        let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        ClockUse {
            used: state.clock.used(),
            total: state.clock.total(),
            measured: state.clock.measured(),
        }
    }

    /// Cancels the moves asked so far, without waiting: one still running is killed by its own thread
    /// within [`cancel::POLL`] or so, and answers with [`Reply::cancelled`] set; one still waiting for
    /// the player is not run. Moves asked later run as usual.
    pub fn cancel(&self) {
        self.cancels.cancel();
    }

    /// Ends the game: a move still running is cancelled, then its process group is killed and its
    /// folder removed; the next move starts a new game with a full clock.
    pub fn end_game(&self) {
        self.cancel();
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        *state = GameState::new(&self.clock);
    }

    /// Asks for one move, blocking until the program answers, fails, is killed or is cancelled.
    pub fn ask(&self, ask: &Ask<'_>) -> Reply {
        // Taken before the lock, so a cancel reaches a move that waits for the one running too.
        let ticket = self.cancels.ticket();
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let time_left = state.clock.time_left();
        let time_left_ms = u64::try_from(time_left.as_millis()).unwrap_or(u64::MAX);
        let failed = |failure: ProgramFailure, request: String| Reply {
            answer: Answer::NoMove(NoMove::Program(failure)),
            latency: None,
            request,
            output: None,
            stderr: None,
            time_left_ms,
            cancelled: false,
        };
        if ticket.cancelled() {
            let failure = ProgramFailure::TimedOut { after_ms: 0 };
            return Reply {
                cancelled: true,
                ..failed(failure, String::new())
            };
        }
        if state.clock.spent() {
            return failed(ProgramFailure::OutOfTime, String::new());
        }
        let deadline = state.clock.deadline(ask.limit);
        let occasion = state.clock.occasion(ask.single);
        let GameState {
            dir, lines, warm, ..
        } = &mut *state;
        // The game's folder is made at its first move, so a player never asked costs no copy.
        let dir = match dir {
            Some(dir) => dir.path(),
            None => {
                let label = format!("{}-{}", ask.team, self.program.format);
                let made = match &self.code {
                    Some((source, _)) => GameDir::written(source, &label),
                    None => GameDir::copy_of(&PathBuf::from(&self.program.dir), &label),
                };
                match made {
                    Ok(copy) => dir.insert(copy).path(),
                    Err(why) => return failed(ProgramFailure::NotStarted { why }, String::new()),
                }
            }
        };
        let start = Instant::now();
        let sandbox = self.code.as_ref().map(|(_, sandbox)| &**sandbox);
        let moved = match self.program.format {
            ProgramFormat::Course => course::play(
                course::Runner {
                    command: &self.program.command,
                    sandbox,
                    warm: self.warm.as_deref().map(|command| (command, warm)),
                },
                dir,
                ask,
                time_left,
                occasion,
                deadline.after,
                ticket,
            ),
            ProgramFormat::Lines => {
                let body = match ask.request {
                    Some(request) => request.to_string(),
                    None => {
                        let limit = time_left.min(ask.limit.unwrap_or(Duration::MAX));
                        game_request_body(ask.game, ask.team, millis(limit), ask.seed)
                    }
                };
                lines::play(
                    lines,
                    &self.program.command,
                    sandbox,
                    dir,
                    body,
                    deadline.after,
                    ticket,
                )
            }
        };
        // A warm interpreter's start is not the move's time (code/warm.py).
        let wall = start.elapsed().saturating_sub(moved.setup);
        let mut reply = Reply {
            answer: moved.answer,
            latency: moved.answered.then_some(wall),
            request: moved.request,
            output: moved.output,
            stderr: Some(moved.stderr).filter(|s| !s.is_empty()),
            time_left_ms,
            cancelled: ticket.cancelled(),
        };
        let killed = matches!(
            reply.answer,
            Answer::NoMove(NoMove::Program(ProgramFailure::TimedOut { .. }))
        );
        state.clock.charge(Charge {
            cpu: moved.cpu,
            wall,
            // Killed at the clock's own deadline: it ran past all of it. A move cut sooner by the
            // request's limit (a page's tick, the doctor's 1 ms check) or by a cancel is charged what
            // it used.
            killed_at_clock_deadline: killed && deadline.own && !reply.cancelled,
        });
        if !killed && state.clock.spent() {
            reply.answer = Answer::NoMove(NoMove::Program(ProgramFailure::OutOfTime));
        }
        reply
    }
}

/// What a format's move came to, before the clock.
struct Moved {
    answer: Answer,
    /// Whether the program answered (well or badly) before it was killed.
    answered: bool,
    request: String,
    output: Option<String>,
    stderr: String,
    /// The move's CPU time, where measured.
    cpu: Option<Duration>,
    /// Time spent before the move proper began (a warm interpreter's start): not charged to it.
    setup: Duration,
}

impl Moved {
    /// A move not yet answered, with what the program is given.
    fn asked(request: String) -> Moved {
        Moved {
            answer: Answer::NoMove(NoMove::Missing),
            answered: false,
            request,
            output: None,
            stderr: String::new(),
            cpu: None,
            setup: Duration::ZERO,
        }
    }

    /// The move, ended by `failure`.
    fn failed(mut self, failure: ProgramFailure) -> Moved {
        self.answer = Answer::NoMove(NoMove::Program(failure));
        self
    }
}

/// A failure named from a process's exit: 127 and 126 are the shell saying the command could not run.
fn exit_failure(exit: &process::Exit, stderr: String) -> ProgramFailure {
    match exit.code() {
        Some(127) => ProgramFailure::NotStarted {
            why: format!("the command was not found ({})", stderr.trim()),
        },
        Some(126) => ProgramFailure::NotStarted {
            why: format!("the command is not executable ({})", stderr.trim()),
        },
        _ => ProgramFailure::Crashed {
            status: exit.describe(),
            stderr,
        },
    }
}

/// The ms of `d`, for messages.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}
