//! The headless match runner: who plays each team, and the transport around the engine's
//! [`GameLoop`], which decides whom to ask, the built-in AIs' seeds and what a missing answer becomes,
//! exactly as on the browser page.
//!
//! - Each tick the movers are asked ([`Game::movers`]: both teams in the arena, the side to move in the
//!   alternating presets). Web AIs get the request JSON ([`request_body`]: `timeLimitMs` set to the
//!   tick length) by HTTP POST; both teams' requests run concurrently and are cut at the tick's deadline
//!   ([`crate::web`]). Built-in AIs answer on the calling thread, with no JSON round trip.
//! - An answer after the deadline is no move ("timed out after N ms"), for built-in AIs too, as on the
//!   page (only a slow `search` under a very short tick ever gets there). Nobody waits for the rest of the
//!   tick once every answer is in, so built-in games run as fast as the CPU allows.
//! - A seed gives the same game here and in the browser, as long as nobody times out: both play through
//!   the same loop.
//! - [`Game::tick`] judges everything else: an unreadable answer, an illegal move, a missing one.

use crate::code::{self, CodePlayer};
use crate::program::{self, Clock, ClockUse, ProgramPlayer};
use crate::web::{check_url, Reply, WebAi};
use gridarena_engine::halma::ai::BuiltIn;
use gridarena_engine::halma::game_loop::{game_request_body, Ask};
use gridarena_engine::halma::{
    AiPlayer, Answer, ContentType, Exchange, Game, GameLoop, GameResult, LoopError, NoMove,
    ProgramFailure, Team, TeamError, Teams, TickOutcome, Verdict, Wire,
};
use gridarena_engine::tournament::game::{GameReport as TournamentReport, TournamentGame};
use std::collections::BTreeMap;
use std::thread;
use std::time::{Duration, Instant};

/// Reads a player argument: the engine's label (`builtin:NAME`, a URL, or `FORMAT:DIR:COMMAND`), then,
/// for a URL, what the HTTP client needs on top ([`check_url`]); `code:PATH` reads a code entry from a
/// file or folder ([`code::player_of_path`]).
pub fn parse_player(text: &str) -> Result<AiPlayer, String> {
    if let Some(path) = text.strip_prefix("code:") {
        return code::player_of_path(path);
    }
    match text.parse::<AiPlayer>().map_err(|e| e.to_string())? {
        AiPlayer::Web(url) => check_url(&url).map(AiPlayer::Web),
        other => Ok(other),
    }
}

/// A player ready to be asked: a built-in AI, a web AI with its connection, a program, or a code entry.
#[derive(Debug)]
pub enum Player {
    BuiltIn(BuiltIn),
    Web(WebAi),
    Program(ProgramPlayer),
    Code(CodePlayer),
}

/// How the players of a match or tournament are set up, beyond their labels.
#[derive(Clone, Copy, Debug, Default)]
pub struct PlayerOptions {
    /// How a web AI's requests are labelled.
    pub content_type: ContentType,
    /// A program's clock.
    pub clock: Clock,
}

impl Player {
    /// The player for `spec` with the default options; fails only on a URL that cannot be sent.
    pub fn new(spec: &AiPlayer) -> Result<Player, String> {
        Player::with_options(spec, PlayerOptions::default())
    }

    /// The player for `spec`; each option applies to the kind of player it concerns.
    pub fn with_options(spec: &AiPlayer, options: PlayerOptions) -> Result<Player, String> {
        Ok(match spec {
            AiPlayer::BuiltIn(ai) => Player::BuiltIn(*ai),
            AiPlayer::Web(url) => {
                Player::Web(WebAi::new(url)?.with_content_type(options.content_type))
            }
            AiPlayer::Program(program) => {
                Player::Program(ProgramPlayer::new(program.clone(), options.clock))
            }
            AiPlayer::Code(source) => Player::Code(
                CodePlayer::new(source.clone(), options.clock)
                    .map_err(|e| format!("{spec}: {e}"))?,
            ),
        })
    }

    /// Whether this is a web AI.
    pub fn is_web(&self) -> bool {
        matches!(self, Player::Web(_))
    }

    /// Whether it is a web AI or a program: asked over a wire, slowly.
    pub fn is_remote(&self) -> bool {
        !self.is_builtin()
    }

    /// Whether it answers on the calling thread at once (a built-in AI) rather than over a wire.
    fn is_builtin(&self) -> bool {
        matches!(self, Player::BuiltIn(_))
    }

    /// What records and traces call it: the URL or the program's label.
    fn address(&self) -> Option<String> {
        match self {
            Player::BuiltIn(_) => None,
            Player::Web(ai) => Some(ai.url().to_string()),
            Player::Program(p) => Some(p.program().to_string()),
            Player::Code(c) => Some(c.label()),
        }
    }

    /// The program player behind this one: a program, or a course-format code entry, which is played
    /// as one (with its clock and out-of-time policy).
    pub fn as_program(&self) -> Option<&ProgramPlayer> {
        match self {
            Player::Program(p) | Player::Code(CodePlayer::Course(p)) => Some(p),
            _ => None,
        }
    }

    /// Ends a game for a program player or a code entry: its processes and folder go.
    fn end_game(&self) {
        match self {
            Player::Program(p) => p.end_game(),
            Player::Code(c) => c.end_game(),
            Player::BuiltIn(_) | Player::Web(_) => {}
        }
    }
}

/// Refuses a game the players cannot play: a course-format program needs the classic 16x16 game.
pub fn check_players(game: &Game, players: &Teams<Player>) -> Result<(), String> {
    for team in Team::ALL {
        if let Some(p) = players[team].as_program() {
            let program = p.program();
            program
                .can_play(game)
                .map_err(|e| format!("{team} ({program}): {e}"))?;
        }
    }
    Ok(())
}

/// One kind of error a team made, for the summary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cause {
    /// How many ticks had it.
    pub count: u32,
    /// The latest message of this kind.
    pub example: String,
}

/// How one team fared: requests, answers, latency and errors.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamStats {
    /// Times the team was asked for a move.
    pub asked: u32,
    /// Answers that arrived in time (any HTTP status or body): the ones latency is measured over.
    pub answered: u32,
    /// The sum of those answers' latencies: HTTP round trips, or a built-in AI's compute time.
    pub latency: Duration,
    /// Ticks in which the team had an error (no move, or an illegal one).
    pub errors: u32,
    /// The errors by their code (`timed_out`, `request_failed`, `jump_over_empty`, ...).
    pub causes: BTreeMap<String, Cause>,
}

impl TeamStats {
    /// The mean latency in milliseconds, if anything was answered.
    pub fn average_ms(&self) -> Option<f64> {
        (self.answered > 0).then(|| self.latency.as_secs_f64() * 1000.0 / f64::from(self.answered))
    }

    /// Adds another game's (or match's) figures.
    pub fn add(&mut self, other: &TeamStats) {
        self.asked += other.asked;
        self.answered += other.answered;
        self.latency += other.latency;
        self.errors += other.errors;
        for (code, cause) in &other.causes {
            let mine = self.causes.entry(code.clone()).or_default();
            mine.count += cause.count;
            mine.example.clone_from(&cause.example);
        }
    }

    fn reply(&mut self, latency: Option<Duration>) {
        self.asked += 1;
        if let Some(l) = latency {
            self.answered += 1;
            self.latency += l;
        }
    }

    fn error(&mut self, e: &TeamError) {
        self.errors += 1;
        let cause = self.causes.entry(e.code.clone()).or_default();
        cause.count += 1;
        cause.example = e.to_string();
    }
}

/// How one game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    pub seed: u64,
    /// The result: the board's, or a win for the other side when `lost_on_time` is set.
    pub result: GameResult,
    /// The team whose program ran out of time and lost the game under the course's policy.
    pub lost_on_time: Option<Team>,
    /// Ticks played.
    pub ticks: u32,
    pub teams: Teams<TeamStats>,
    /// Each program player's clock at the end.
    pub clocks: Teams<Option<ClockUse>>,
}

/// Something that follows a game tick by tick: a record writer, the `--verbose` printer, or nothing
/// (`()`, which costs nothing).
pub trait Watcher {
    /// Called once with the game before its first tick.
    fn start(&mut self, _game: &Game) -> std::io::Result<()> {
        Ok(())
    }
    /// Called after every tick with its outcome, the game as it stands after it, and each web AI's
    /// exchange in the tick (none for a built-in AI or a team not asked).
    fn tick(
        &mut self,
        _outcome: &TickOutcome,
        _game: &Game,
        _exchanges: &Teams<Option<Exchange>>,
    ) -> std::io::Result<()> {
        Ok(())
    }
}

impl Watcher for () {}

/// Why a game could not be played to its end.
#[derive(Debug)]
pub enum RunError {
    /// A watcher could not write (the record file, say).
    Output(std::io::Error),
    /// The referee refused a tick: the runner asked the wrong team, a bug.
    Internal(String),
}

impl From<std::io::Error> for RunError {
    fn from(e: std::io::Error) -> RunError {
        RunError::Output(e)
    }
}

/// Plays `game` to its end with `players`, `tick_ms` milliseconds a tick, built-in AIs seeded from `seed`.
pub fn play_game(
    game: Game,
    seed: u64,
    players: &Teams<Player>,
    tick_ms: u64,
    watcher: &mut impl Watcher,
) -> Result<GameReport, RunError> {
    let refused = |e: LoopError| RunError::Internal(format!("the referee refused a tick: {e}"));
    let _ending = EndsGames(players);
    let mut teams = Teams::<TeamStats>::default();
    let mut game = GameLoop::new(game, seed);
    watcher.start(game.game())?;
    let start_turn = game.game().turn();
    let mut lost_on_time = None;
    let result = loop {
        if let Some(result) = game.game().result() {
            break result;
        }
        let asks = game.begin(|_| true).map_err(refused)?;
        let (mut replies, mut requests) = ask(game.game(), seed, players, &asks, tick_ms);
        let mut wires = Teams::<Option<_>>::default();
        for a in &asks {
            if let Some(reply) = replies[a.team].take() {
                teams[a.team].reply(reply.latency);
                wires[a.team] = reply.wire;
                game.deliver(a.turn, a.team, reply.answer);
            }
        }
        // Every asked team has its reply by now (a time-out is one), so the time waited is never read.
        let outcome = game.finish(tick_ms).map_err(refused)?;
        for e in &outcome.errors {
            teams[e.team].error(e);
        }
        let exchanges = Teams::from_fn(|team| {
            let (Some(url), Some(wire), Some(request)) = (
                players[team].address(),
                wires[team].take(),
                requests[team].take(),
            ) else {
                return None;
            };
            Some(Exchange {
                tick: outcome.turn,
                team,
                url,
                request,
                wire,
                verdict: Verdict::of(&outcome, team),
            })
        });
        watcher.tick(&outcome, game.game(), &exchanges)?;
        let out = outcome.errors.iter().find(|e| {
            e.code == ProgramFailure::OUT_OF_TIME
                && players[e.team]
                    .as_program()
                    .is_some_and(ProgramPlayer::loses_on_time)
        });
        if let Some(e) = out {
            lost_on_time = Some(e.team);
            break GameResult::Win {
                winner: e.team.other(),
            };
        }
    };
    Ok(GameReport {
        seed,
        result,
        lost_on_time,
        ticks: game.game().turn() - start_turn,
        teams,
        clocks: Teams::from_fn(|team| players[team].as_program().map(ProgramPlayer::clock_use)),
    })
}

/// Ends the program players' game when dropped, however the game ended (an error included).
struct EndsGames<'a>(&'a Teams<Player>);

impl Drop for EndsGames<'_> {
    fn drop(&mut self) {
        for team in Team::ALL {
            self.0[team].end_game();
        }
    }
}

/// Plays a tournament game to its end, asking and timing exactly as [`play_game`] does; each answer is
/// delivered with its latency, so the tournament can tell an AI that never answers from one that
/// answers badly.
pub fn play_tournament_game(
    mut game: TournamentGame,
    players: &Teams<Player>,
    tick_ms: u64,
) -> Result<TournamentReport, RunError> {
    let refused = |e: LoopError| RunError::Internal(format!("the referee refused a tick: {e}"));
    let _ending = EndsGames(players);
    let seed = game.fixture().seed;
    loop {
        if let Some(report) = game.report() {
            return Ok(report);
        }
        let asks = game.begin().map_err(refused)?;
        let (mut replies, _) = ask(game.game(), seed, players, &asks, tick_ms);
        for a in &asks {
            if let Some(reply) = replies[a.team].take() {
                let ms = reply
                    .latency
                    .map(|l| u32::try_from(l.as_millis()).unwrap_or(u32::MAX));
                game.deliver(a.turn, a.team, reply.answer, ms);
            }
        }
        game.finish(tick_ms).map_err(refused)?;
    }
}

/// Asks every mover of a tick of `game` (set up from `seed`) and waits for the replies: a web AI's at
/// most `tick_ms`, a program's until its clock's deadline. Returns the replies and what was sent to
/// each web AI or program.
fn ask(
    game: &Game,
    seed: u64,
    players: &Teams<Player>,
    asks: &[Ask],
    tick_ms: u64,
) -> (Teams<Option<Reply>>, Teams<Option<String>>) {
    let limit = Duration::from_millis(tick_ms);
    let seeds = Teams::from_fn(|team| asks.iter().find(|a| a.team == team).map(|a| a.seed));
    let builtin =
        |team: Team, ai: BuiltIn, seed: u64| builtin_reply(game, ai, team, seed, limit, tick_ms);
    let remote_asked = |t: Team| seeds[t].is_some() && !players[t].is_builtin();
    if !remote_asked(Team::Red) && !remote_asked(Team::Blue) {
        // Built-in players only: no thread, no clock beyond the compute time.
        let replies = Teams::from_fn(|team| match (&players[team], seeds[team]) {
            (Player::BuiltIn(ai), Some(seed)) => Some(builtin(team, *ai, seed)),
            _ => None,
        });
        return (replies, Teams::default());
    }
    let deadline = Instant::now() + limit;
    // A web AI's body is known before it is sent; a program's request is what it was given.
    let bodies = Teams::from_fn(|team| {
        (seeds[team].is_some() && players[team].is_web())
            .then(|| game_request_body(game, team, tick_ms, seed))
    });
    let remote = |team: Team| -> (Reply, Option<String>) {
        match &players[team] {
            Player::Web(ai) => {
                let body = bodies[team].as_deref().unwrap_or_default();
                (ai.ask(body, deadline, tick_ms), bodies[team].clone())
            }
            Player::Program(p) | Player::Code(CodePlayer::Course(p)) => {
                program_reply(p, game, team, seed)
            }
            Player::Code(CodePlayer::Function(f)) => {
                let asked = f.ask(game, team, seed, limit);
                code::function::reply(asked, tick_ms)
            }
            // Not reached: built-in AIs are answered on the calling thread.
            Player::BuiltIn(ai) => (builtin(team, *ai, seeds[team].unwrap_or(seed)), None),
        }
    };
    let any_builtin = Team::ALL
        .into_iter()
        .any(|t| seeds[t].is_some() && players[t].is_builtin());
    // One remote player may be asked on this thread when it has nothing else to do; the others get a
    // thread each, so both teams' requests are in flight together.
    let inline = if any_builtin {
        None
    } else {
        Team::ALL.into_iter().rev().find(|&t| remote_asked(t))
    };
    thread::scope(|scope| {
        // A thread that cannot be had (the system is out of them) leaves its request to this thread.
        let mut handles = Teams::from_fn(|team| {
            (remote_asked(team) && Some(team) != inline)
                .then(|| {
                    thread::Builder::new()
                        .name(format!("{team} player"))
                        .spawn_scoped(scope, move || remote(team))
                        .ok()
                })
                .flatten()
        });
        let mut replies = Teams::<Option<Reply>>::default();
        let mut sent = Teams::<Option<String>>::default();
        for team in Team::ALL {
            match (&players[team], seeds[team]) {
                (Player::BuiltIn(ai), Some(seed)) => replies[team] = Some(builtin(team, *ai, seed)),
                _ if remote_asked(team) && handles[team].is_none() => {
                    let (reply, request) = remote(team);
                    replies[team] = Some(reply);
                    sent[team] = request;
                }
                _ => {}
            }
        }
        for team in Team::ALL {
            if let Some(h) = handles[team].take() {
                let (reply, request) = h.join().unwrap_or_else(|_| {
                    let reply = Reply {
                        answer: Answer::NoMove(NoMove::Failed(
                            "internal error: the request's thread stopped".to_string(),
                        )),
                        latency: None,
                        // Sent, nothing known of what came back: the trace still has the request's line.
                        wire: Some(Wire::sent(ContentType::default(), tick_ms)),
                    };
                    (reply, bodies[team].clone())
                });
                replies[team] = Some(reply);
                sent[team] = request;
            }
        }
        (replies, sent)
    })
}

/// A program's move as a reply: its output is the wire's body, its stderr kept beside it.
fn program_reply(
    player: &ProgramPlayer,
    game: &Game,
    team: Team,
    seed: u64,
) -> (Reply, Option<String>) {
    let reply = player.ask(&program::Ask {
        game,
        team,
        seed,
        single: false,
        limit: None,
        request: None,
    });
    let wire = Wire {
        ms: reply
            .latency
            .map(|l| u32::try_from(l.as_millis()).unwrap_or(u32::MAX)),
        body: reply.output,
        stderr: reply.stderr,
        ..Wire::sent(ContentType::default(), reply.time_left_ms)
    };
    let request = Some(reply.request);
    (
        Reply {
            answer: reply.answer,
            latency: reply.latency,
            wire: Some(wire),
        },
        request,
    )
}

/// A built-in AI's answer, timed like a web AI's: past `limit` it is too late.
fn builtin_reply(
    game: &Game,
    ai: BuiltIn,
    team: Team,
    seed: u64,
    limit: Duration,
    tick_ms: u64,
) -> Reply {
    let start = Instant::now();
    let answer = ai.answer(game, team, seed);
    let took = start.elapsed();
    if took > limit {
        return Reply {
            answer: Answer::NoMove(NoMove::TimedOut { after_ms: tick_ms }),
            latency: None,
            wire: None,
        };
    }
    Reply {
        answer,
        latency: Some(took),
        wire: None,
    }
}

/// "red wins", "blue wins: red ran out of time", "draw (turn limit)", ...: a game's end in a few words.
pub fn describe_report(report: &GameReport) -> String {
    match report.lost_on_time {
        Some(team) => format!("{} wins: {team} ran out of time", team.other()),
        None => describe(report.result),
    }
}

/// "red wins", "draw (turn limit)", ...: a result in a few words.
pub fn describe(result: GameResult) -> String {
    match result {
        GameResult::Win { winner } => format!("{winner} wins"),
        GameResult::BothFinished => "draw (both finished)".to_string(),
        GameResult::TurnLimit => "draw (turn limit)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::ai::{team_seed, tick_seed};
    use gridarena_engine::halma::Preset;

    #[test]
    fn players_parse_and_print_as_given() {
        for text in [
            "builtin:greedy",
            "builtin:search",
            "http://127.0.0.1:8001/move",
        ] {
            let spec = parse_player(text).expect(text);
            assert_eq!(spec.to_string(), text);
        }
        for bad in [
            "greedy",
            "builtin:random",
            "ftp://x",
            "http://",
            "",
            "human",
        ] {
            let why = parse_player(bad).expect_err(bad);
            assert!(!why.is_empty());
        }
        let why = parse_player("greedy").unwrap_err();
        assert!(why.contains(&AiPlayer::forms()), "{why}");
    }

    #[test]
    fn the_tick_seed_is_the_pages() {
        // src/halma/session.rs: seed ^ turn * 0x9E37_79B9_7F4A_7C15, then ^ team.
        assert_eq!(tick_seed(7, 0), 7);
        assert_eq!(tick_seed(0, 1), 0x9E37_79B9_7F4A_7C15);
        assert_eq!(
            team_seed(tick_seed(5, 2), Team::Blue),
            5 ^ 0x3C6E_F372_FE94_F82A ^ 1
        );
    }

    #[test]
    fn a_game_of_built_in_players_is_the_same_for_the_same_seed() {
        let players = Teams {
            red: Player::BuiltIn(BuiltIn::Greedy),
            blue: Player::BuiltIn(BuiltIn::Greedy),
        };
        let play = |seed| {
            let game = Game::new(&Preset::Mini.rules(), seed).expect("a preset");
            let mut report = play_game(game, seed, &players, 1000, &mut ()).expect("plays");
            for t in Team::ALL {
                report.teams[t].latency = Duration::ZERO;
            }
            report
        };
        let first = play(11);
        assert_eq!(first, play(11));
        assert!(first.ticks > 0);
        assert_eq!(first.teams.red.errors + first.teams.blue.errors, 0);
        // Alternating: each tick asks one side.
        assert_eq!(first.teams.red.asked + first.teams.blue.asked, first.ticks);
    }

    #[test]
    fn the_same_game_as_the_pages_loop() {
        // The page's loop without workers (Session::tick) reduced to its rule: per tick seed, per team.
        let seed = 99;
        let mut game = Game::new(&Preset::Arena.rules(), seed).expect("a preset");
        let players = Teams {
            red: Player::BuiltIn(BuiltIn::Greedy),
            blue: Player::BuiltIn(BuiltIn::Greedy),
        };
        let report = play_game(game.clone(), seed, &players, 60_000, &mut ()).expect("plays");
        while game.result().is_none() {
            let tick = tick_seed(seed, game.turn());
            let mv = |ai: BuiltIn, team| {
                ai.choose(game.position(), game.mode(), team, tick ^ team as u64)
                    .map_or(Answer::NoMove(NoMove::Missing), Answer::Move)
            };
            let (r, b) = (
                mv(BuiltIn::Greedy, Team::Red),
                mv(BuiltIn::Greedy, Team::Blue),
            );
            game.tick(r, b).expect("not over");
        }
        assert_eq!(Some(report.result), game.result());
        assert_eq!(report.ticks, game.turn());
    }
}
