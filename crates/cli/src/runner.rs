//! The headless game runner: who plays each team, and the transport around the engine's [`Match`] (a
//! [`GameLoop`](gridarena_engine::halma::GameLoop) with its players' wires, the error policy and the
//! tally of each side's answers), which decides whom to ask, how each request is labelled and when it is
//! given up on, the built-in AIs' seeds, what a missing answer becomes and how a game ends, exactly as on
//! the browser page. A match's game and a tournament's
//! are played by the one function [`play_game`]: a match is a tournament game with no tournament around it.
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
use gridarena_engine::halma::game_loop::Ask;
use gridarena_engine::halma::play::{Ending, MatchReport, Seat};
use gridarena_engine::halma::tick_clock::{Pace, TickClock};
use gridarena_engine::halma::SetupError;
use gridarena_engine::halma::{
    AiPlayer, Answer, ContentType, Exchange, Game, GameResult, LoopError, Match, NoMove, Team,
    Teams, TickOutcome, Verdict, Wire,
};
use gridarena_engine::tournament::plan::EntryKind;
use gridarena_engine::tournament::settings::Settings;
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

impl Player {
    /// The player for `spec` on the default course clock; fails only on a URL that cannot be sent.
    pub fn new(spec: &AiPlayer) -> Result<Player, String> {
        Player::on_clock(spec, Clock::default())
    }

    /// The player for `spec`, a program or code entry on `clock` (the others have none). How its
    /// requests are labelled and where its moves are cut is its match seat's ([`seat`]).
    pub fn on_clock(spec: &AiPlayer, clock: Clock) -> Result<Player, String> {
        Ok(match spec {
            AiPlayer::BuiltIn(ai) => Player::BuiltIn(*ai),
            AiPlayer::Web(url) => Player::Web(WebAi::new(url)?),
            AiPlayer::Program(program) => {
                Player::Program(ProgramPlayer::new(program.clone(), clock))
            }
            AiPlayer::Code(source) => Player::Code(
                CodePlayer::new(source.clone(), clock).map_err(|e| format!("{spec}: {e}"))?,
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

    /// Its kind, as the engine's tournament plan reads it ([`gridarena_engine::tournament::plan`]).
    pub fn kind(&self) -> EntryKind {
        match self {
            Player::BuiltIn(_) => EntryKind::BuiltIn,
            Player::Web(_) => EntryKind::Web,
            Player::Program(_) => EntryKind::Program,
            Player::Code(CodePlayer::Course(_)) => EntryKind::CourseCode,
            Player::Code(CodePlayer::Function(_)) => EntryKind::FunctionCode,
        }
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

/// A game played to its end: the engine's report, and what only the CLI knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub report: MatchReport,
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

/// A match's game under `settings` (preset, turn limit, rules, error policy), played from `seed`, its
/// sides on `seats`: judged as a tournament's game is.
pub fn match_game(settings: &Settings, seed: u64, seats: Teams<Seat>) -> Result<Match, SetupError> {
    let game = Game::new(&settings.rules(), seed)?;
    Ok(match_game_from(settings, seed, game, seats))
}

/// A match's game played on from `start` (a record's tick, a state file) under `settings`' error
/// policy: the position's rules, turn and turn limit stand, `seed` seeds the built-in AIs.
pub fn match_game_from(settings: &Settings, seed: u64, start: Game, seats: Teams<Seat>) -> Match {
    Match::new(start, seed, settings.policy).with_seats(seats)
}

/// The seat of the player `spec`: where the engine cuts its kind's moves, and its requests labelled
/// `content_type` if it is a web AI.
pub fn seat(spec: &AiPlayer, content_type: ContentType) -> Seat {
    EntryKind::of(spec).seat(content_type)
}

/// Plays `game` to its end with `players`, `tick_ms` milliseconds a tick, built-in AIs seeded from the
/// game's seed. Each answer is delivered with its latency, so the game's tally can tell an AI that never
/// answers from one that answers badly; how the game ends (the board, a forfeit, the turn limit's
/// adjudication) is the engine's.
pub fn play_game(
    mut game: Match,
    players: &Teams<Player>,
    tick_ms: u64,
    watcher: &mut impl Watcher,
) -> Result<Played, RunError> {
    let refused = |e: LoopError| RunError::Internal(format!("the referee refused a tick: {e}"));
    let _ending = EndsGames(players);
    watcher.start(game.game())?;
    let report = loop {
        if let Some(report) = game.report() {
            break report;
        }
        let asks = game.begin(|_| true, tick_ms).map_err(refused)?;
        let (mut replies, mut requests) = ask(&game, players, &asks);
        let mut wires = Teams::<Option<_>>::default();
        for a in &asks {
            if let Some(reply) = replies[a.team].take() {
                wires[a.team] = reply.wire;
                game.deliver_timed(a.turn, a.team, reply.answer, reply.latency);
            }
        }
        // Every asked team has its reply by now (a time-out is one), so the time waited is never read.
        let outcome = game.finish(tick_ms).map_err(refused)?;
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
    };
    Ok(Played {
        report,
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

/// Asks every mover of the tick `m` began and waits for the replies, each as long as the match's seat
/// says ([`Match::deadline`]): a web AI's, a built-in's and function code's at most the tick, a
/// program's and course code's until its clock's deadline. The cut-offs are kept in the engine's
/// [`TickClock`], as the page's ticks keep theirs; the command line never waits out a tick (its pace is
/// early, with no minimum), so the tick ends when the last thread is back. Returns the replies and what
/// was sent to each web AI or program.
fn ask(
    m: &Match,
    players: &Teams<Player>,
    asks: &[Ask],
) -> (Teams<Option<Reply>>, Teams<Option<String>>) {
    let (game, seed, tick_ms) = (m.game(), m.seed(), m.tick_ms());
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
    let mut clock = TickClock::new(tick_ms, Pace::Early { min_ms: 0 });
    for team in Team::ALL.into_iter().filter(|&t| remote_asked(t)) {
        // A seat on its course clock has no cut of the host's: the program player keeps its clock.
        let cut = m.deadline(team).limit();
        clock.ask_until(
            team,
            cut.map(|l| u64::try_from(l.as_millis()).unwrap_or(u64::MAX)),
        );
    }
    let start = Instant::now();
    let cut = |team: Team| clock.cut_ms(team).map(Duration::from_millis);
    // A web AI's body is known before it is sent; a program's request is what it was given.
    let bodies = Teams::from_fn(|team| {
        (seeds[team].is_some() && players[team].is_web()).then(|| m.request_body(team))
    });
    let remote = |team: Team| -> (Reply, Option<String>) {
        match &players[team] {
            Player::Web(ai) => {
                let body = bodies[team].as_deref().unwrap_or_default();
                let deadline = start + cut(team).unwrap_or(limit);
                let content_type = m.content_type(team);
                (
                    ai.ask(body, content_type, deadline, tick_ms),
                    bodies[team].clone(),
                )
            }
            Player::Program(p) | Player::Code(CodePlayer::Course(p)) => {
                program_reply(p, game, team, seed, cut(team))
            }
            Player::Code(CodePlayer::Function(f)) => {
                let asked = f.ask(game, team, seed, cut(team).unwrap_or(limit));
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

/// A program's move as a reply, cut at `limit` if there is one (else at its clock's deadline): its
/// output is the wire's body, its stderr kept beside it.
fn program_reply(
    player: &ProgramPlayer,
    game: &Game,
    team: Team,
    seed: u64,
    limit: Option<Duration>,
) -> (Reply, Option<String>) {
    let reply = player.ask(&program::Ask {
        game,
        team,
        seed,
        single: false,
        limit,
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

/// "red wins", "draw (turn limit)", "blue wins: red forfeited (10 errors in a row; the last: ...)", "red
/// wins at the turn limit: blue lost (its errors stalled the game: ...)": a game's end in a few words,
/// with the cause of any end the board did not decide.
pub fn describe(ending: &Ending) -> String {
    match ending {
        Ending::Played { result } => match result {
            GameResult::Win { winner } => format!("{winner} wins"),
            GameResult::BothFinished => "draw (both finished)".to_string(),
            GameResult::TurnLimit => "draw (turn limit)".to_string(),
        },
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridarena_engine::halma::ai::{team_seed, tick_seed};
    use gridarena_engine::halma::play::Policy;
    use gridarena_engine::halma::Preset;

    /// A match's game of built-ins: `preset`, lenient, played from `seed`.
    fn game_of(preset: Preset, seed: u64) -> Match {
        let settings = Settings {
            preset,
            policy: Policy::Lenient,
            ..Settings::default()
        };
        match_game(&settings, seed, Teams::default()).expect("a preset")
    }

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
            let played = play_game(game_of(Preset::Mini, seed), &players, 1000, &mut ());
            let report = played.expect("plays").report;
            // Everything but the answer times, which are the machine's.
            let moves: Vec<[Option<String>; 2]> = report
                .log
                .ticks
                .iter()
                .map(|t| t.clone().map(|a| a.and_then(|a| a.path)))
                .collect();
            (report, moves)
        };
        let (first, moves) = play(11);
        let (again, moves_again) = play(11);
        assert_eq!(
            (&first.ending, first.ticks, &moves),
            (&again.ending, again.ticks, &moves_again)
        );
        assert!(first.ticks > 0);
        assert_eq!(first.sides.red.errors + first.sides.blue.errors, 0);
        // Alternating: each tick asks one side, and a built-in AI always answers in time.
        assert_eq!(first.sides.red.asked + first.sides.blue.asked, first.ticks);
        assert_eq!(
            first.sides.red.answered + first.sides.blue.answered,
            first.ticks
        );
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
        let report = play_game(game_of(Preset::Arena, seed), &players, 60_000, &mut ())
            .expect("plays")
            .report;
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
        let result = game.result().expect("over");
        assert_eq!(report.ending, Ending::Played { result });
        assert_eq!(report.ticks, game.turn());
    }
}
