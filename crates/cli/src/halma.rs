//! `gridarena halma ...`: the Halma engine for scripts and AI authors.
//!
//! Every rule lives in the engine; this module only moves JSON between stdin, the engine and stdout, so
//! that what the CLI says is legal is exactly what the referee will accept.

use crate::args::{preset_parser, team_parser};
use crate::io::{self, Failure};
use clap::{Args, Subcommand};
use gridarena_engine::halma::protocol::embedded_response;
use gridarena_engine::halma::{
    perft, AiRequest, Answer, CampRules, Game, GameState, NoMove, Position, Preset, Rules, Team,
    Teams, TickOutcome, MAX_BOARD_SIZE, MIN_BOARD_SIZE,
};
use serde::Serialize;
use serde_json::Value;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

/// Beyond this depth perft would not finish in a lifetime; the cap also bounds its recursion.
const MAX_PERFT_DEPTH: u32 = 20;

/// Exit status of `check` when the move is not legal.
const EXIT_ILLEGAL: u8 = 1;

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every legal move for the team asked in an AI request.
    #[command(long_about = "\
List every legal move for the team asked in an AI request.

Reads one AI request on stdin, in the protocol's shape:
  {\"boardSize\":18,\"pieces\":[{\"x\":0,\"y\":14,\"damage\":0},..],\"destinations\":[{\"x\":15,\"y\":0},..],
   \"enemy\":[..],\"enemydestinations\":[..]}
and prints one AI response per line, {\"from\":{\"x\":..,\"y\":..},\"to\":[{\"x\":..,\"y\":..},..]}: one line per
distinct (piece, final square) pair, with the shortest chain of landings that reaches it. Every line is an
answer the referee accepts for this position.

\"pieces\" belong to the team named by the request's \"team\" (red when absent). Damaged pieces only step.
The camp rule (a piece standing in its destination may not end a move outside it) follows the request's
\"campRule\" when present, else the preset: --preset, else the request's \"preset\", else arena.")]
    Moves(MovesArgs),

    /// Say whether a move is legal in the position of an AI request.
    #[command(long_about = "\
Say whether a move is legal in the position of an AI request.

Reads {\"request\": <AI request>, \"move\": <AI response>} on stdin. Prints \"ok\" and exits 0 when the referee
would accept the move; otherwise prints the reason on stdout and exits 1. A move the referee could not even
read (a list of moves, a missing \"to\", a coordinate of 2.5, over 64 KiB) is also a reason, exit 1.
Input that is not such a document, or a request that describes an impossible position, exits 2.

The camp rule is chosen as for `moves`.")]
    Check(CheckArgs),

    /// Count the move tree from a preset's start position (perft).
    #[command(long_about = "\
Count the move tree from a preset's start position (perft).

Prints the number of move sequences of the given depth, red first, sides alternating, no damage, one move
per distinct (piece, final square) pair; the time taken goes to stderr. The presets' camp rule applies
unless --no-camp-rule; the published figures (docs/halma.md) are counted without it, for example
  gridarena halma perft --preset classic --depth 3 --no-camp-rule   # 85440")]
    Perft(PerftArgs),

    /// Play one tick of a game: read a state and the teams' answers, print the outcome and the new state.
    #[command(long_about = "\
Play one tick of a game: read a state and the teams' answers, print the outcome and the new state.

Reads {\"state\": <game state>, \"red\": <AI response or null>, \"blue\": <AI response or null>} on stdin
(`gridarena halma new` makes a state to start from; an absent team counts as null). Prints
{\"outcome\": <tick outcome>, \"state\": <new game state>} as one line of JSON; feed the state to the next tick.

A null answer is a missing move, and an answer that is not a readable move is the AI's fault, not an input
error: both are reported in the outcome's \"errors\" and the tick still counts, as in a real match. In an
alternating game (classic, mini) only the team in the state's \"toMove\" may answer.
A state that is not a playable game, or a tick the referee refuses (the game is over, a move from the team
not to move), exits 2.")]
    Tick(TickArgs),

    /// Print the state of a new game, to start `tick` from.
    #[command(long_about = "\
Print the state of a new game, to start `tick` from.

The state is the format games are recorded in. In the alternating presets (classic, mini) the seed draws
the first mover, so a seed means the same game everywhere. Without --seed a random seed is drawn and
printed on stderr (\"--seed N makes this game again\"); stdout is the state alone.")]
    New(NewArgs),

    /// Print the AI request the referee would send to one team, from a game state on stdin.
    Request(RequestArgs),

    /// Play whole games between built-in and web AIs, headless, as the browser page referees them.
    #[command(long_about = crate::match_cmd::ABOUT, after_help = crate::match_cmd::AFTER)]
    Match(crate::match_cmd::MatchArgs),

    /// Play a tournament between the AIs of a roster: pairing, standings, rating; resumable
    #[command(long_about = crate::tournament_cmd::ABOUT, after_help = crate::tournament_cmd::AFTER)]
    Tournament(crate::tournament_cmd::TournamentArgs),

    /// Play the games of tournaments queued in PostgreSQL (`halma tournament --queue URL`), on this machine
    #[command(long_about = crate::queue_cmd::WORKER_ABOUT)]
    Worker(crate::queue_cmd::WorkerArgs),

    /// Did my change help? A against B, seats swapped, until one is shown stronger (a 95% interval)
    #[command(long_about = crate::compare_cmd::ABOUT, after_help = crate::compare_cmd::AFTER)]
    Compare(crate::compare_cmd::CompareArgs),

    /// Serve a program (course input.txt/output.txt, or stdin/stdout lines) as a web AI on this machine
    #[command(long_about = crate::bridge_cmd::ABOUT, after_help = crate::bridge_cmd::AFTER)]
    Bridge(crate::bridge_cmd::BridgeArgs),

    /// Test a web AI the way the arena will call it: CORS, content types, legal moves, latency
    #[command(long_about = crate::probe_cmd::ABOUT, after_help = crate::probe_cmd::AFTER)]
    Probe(crate::probe_cmd::ProbeArgs),
}

#[derive(Debug, Args)]
pub struct MovesArgs {
    /// Whose camp rule applies when the request has no "campRule" [default: the request's "preset", else arena]
    #[arg(long, value_parser = preset_parser())]
    preset: Option<Preset>,
    /// The camp rules when the request has no "campRules": seed, or course (USC CSCI 561: no move from outside one's own camp may end in it; while a piece is in one's own camp a piece must move out, or else further from one's own corner) [default: seed]
    #[arg(long, value_name = "RULES", value_parser = crate::args::camp_rules_parser())]
    camp_rules: Option<CampRules>,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Whose camp rule applies when the request has no "campRule" [default: the request's "preset", else arena]
    #[arg(long, value_parser = preset_parser())]
    preset: Option<Preset>,
    /// The camp rules when the request has no "campRules": seed, or course (USC CSCI 561: no move from outside one's own camp may end in it; while a piece is in one's own camp a piece must move out, or else further from one's own corner) [default: seed]
    #[arg(long, value_name = "RULES", value_parser = crate::args::camp_rules_parser())]
    camp_rules: Option<CampRules>,
}

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The start position to count from
    #[arg(long, value_parser = preset_parser(), default_value = "arena")]
    preset: Preset,
    /// Plies to count (0 counts the start position itself)
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_PERFT_DEPTH)))]
    depth: u32,
    /// Count without the camp rule, as the published figures do
    #[arg(long)]
    no_camp_rule: bool,
    /// The camp rules to count under: seed, or course (USC CSCI 561; classic only)
    #[arg(long, value_name = "RULES", default_value = "seed", value_parser = crate::args::camp_rules_parser())]
    camp_rules: CampRules,
    /// Print one line "move: count" per first move of red, then a blank line and the total
    #[arg(long)]
    divide: bool,
}

#[derive(Debug, Args)]
pub struct TickArgs {
    /// Indent the JSON output
    #[arg(long)]
    pretty: bool,
}

#[derive(Debug, Args)]
pub struct NewArgs {
    /// The starting setup
    #[arg(long, value_parser = preset_parser(), default_value = "arena")]
    preset: Preset,
    /// Draws the first mover of an alternating game [default: random, printed on stderr]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Ticks after which the game is a draw [default: the preset's, 1000]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    turn_limit: Option<u32>,
    /// Squares per side; arena only (the other presets' camps are drawn for their own board)
    #[arg(long, value_parser = clap::value_parser!(u8)
        .range(i64::from(MIN_BOARD_SIZE)..=i64::from(MAX_BOARD_SIZE)))]
    board_size: Option<u8>,
    /// Indent the JSON output
    #[arg(long)]
    pretty: bool,
}

#[derive(Debug, Args)]
pub struct RequestArgs {
    /// The team whose AI is asked
    #[arg(long, value_parser = team_parser())]
    team: Team,
    /// Indent the JSON output
    #[arg(long)]
    pretty: bool,
}

/// Runs one `halma` subcommand, writing its result to `out`.
pub fn run(command: Command, out: &mut impl Write) -> Result<ExitCode, Failure> {
    match command {
        Command::Moves(args) => moves(&args, out),
        Command::Check(args) => check(&args, out),
        Command::Perft(args) => perft_command(&args, out),
        Command::Tick(args) => tick(&args, out),
        Command::New(args) => new_game(&args, out),
        Command::Request(args) => request(&args, out),
        Command::Match(args) => crate::match_cmd::run(&args, out),
        Command::Tournament(args) => crate::tournament_cmd::run(&args, out),
        Command::Worker(args) => crate::queue_cmd::work(&args),
        Command::Compare(args) => crate::compare_cmd::run(&args, out),
        Command::Probe(args) => crate::probe_cmd::run(&args, out),
        Command::Bridge(args) => crate::bridge_cmd::run(&args, out),
    }
}

const REQUEST: &str = "an AI request";
const CHECK_INPUT: &str = "a check document {\"request\": <AI request>, \"move\": <AI response>}";
const TICK_INPUT: &str =
    "a tick document {\"state\": <game state>, \"red\": <response or null>, \"blue\": <response or null>}";
const STATE: &str = "a game state";

fn moves(args: &MovesArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let request: AiRequest = io::parse_object(&io::read_stdin(REQUEST)?, REQUEST)?;
    let (position, team) = request_position(&request, args.preset, args.camp_rules, "stdin")?;
    for mv in position.moves(team) {
        let path = position.path(team, mv).ok_or_else(|| {
            Failure::Internal(format!(
                "the engine generated the move {mv} but found no chain of landings for it"
            ))
        })?;
        io::write_json(out, &path, false)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn check(args: &CheckArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let value: Value = io::parse_json(&io::read_stdin(CHECK_INPUT)?, CHECK_INPUT)?;
    let mut doc = io::object(value, &["request", "move"], CHECK_INPUT)?;
    let missing =
        |field: &str| Failure::Input(format!("stdin has no \"{field}\": expected {CHECK_INPUT}"));
    let request = doc.remove("request").ok_or_else(|| missing("request"))?;
    let answer = doc.remove("move").ok_or_else(|| missing("move"))?;
    let request: AiRequest = io::from_field(request, "request", REQUEST)?;
    let (position, team) = request_position(&request, args.preset, args.camp_rules, "\"request\"")?;
    let verdict = embedded_response(&answer)
        .map_err(|e| e.to_string())
        .and_then(|path| position.check(team, &path).map_err(|e| e.to_string()));
    match verdict {
        Ok(_) => {
            writeln!(out, "ok")?;
            Ok(ExitCode::SUCCESS)
        }
        Err(reason) => {
            writeln!(out, "{reason}")?;
            Ok(ExitCode::from(EXIT_ILLEGAL))
        }
    }
}

/// The position a request describes, with the camp rule the user asked for (see `moves --help`).
/// The course's camp rules apply when the request says `"campRules": "course"`, or says nothing and
/// `--camp-rules course` was given.
fn request_position(
    request: &AiRequest,
    preset: Option<Preset>,
    camp_rules: Option<CampRules>,
    source: &str,
) -> Result<(Position, Team), Failure> {
    let preset = preset.or(request.preset).unwrap_or_default();
    let request = AiRequest {
        camp_rules: request.camp_rules.or(camp_rules),
        ..request.clone()
    };
    request
        .to_position(preset.rules().camp_rule)
        .map_err(|e| Failure::Input(format!("{source} is not a playable position: {e}")))
}

fn perft_command(args: &PerftArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let broken =
        |e: String| Failure::Internal(format!("the {} preset cannot be set up: {e}", args.preset));
    let game = Game::new(&args.preset.rules(), 0).map_err(|e| broken(e.to_string()))?;
    let start = game.position();
    let camp_rule = start.camp_rule() && !args.no_camp_rule;
    let rules = Rules {
        camp_rules: args.camp_rules,
        ..args.preset.rules()
    };
    rules.check_options().map_err(Failure::Input)?;
    let mut position = Position::new(
        start.size(),
        camp_rule,
        Teams::from_fn(|t| start.pieces(t).to_vec()),
        Teams::from_fn(|t| start.destinations(t).to_vec()),
    )
    .and_then(|p| p.with_camp_rules(args.camp_rules))
    .map_err(|e| broken(e.to_string()))?;

    let clock = Instant::now();
    let total = if args.divide && args.depth > 0 {
        let mut total = 0u64;
        for mv in position.moves(Team::Red) {
            let mut child = position.clone();
            child.play_unchecked(Team::Red, mv);
            let count = perft(&mut child, Team::Blue, args.depth - 1);
            writeln!(out, "{mv}: {count}")?;
            total = total.saturating_add(count);
        }
        writeln!(out)?;
        total
    } else {
        perft(&mut position, Team::Red, args.depth)
    };
    let seconds = clock.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;

    let rate = if seconds > 0.0 {
        format!(", {:.1} M leaves/s", total as f64 / seconds / 1e6)
    } else {
        String::new()
    };
    // Timing is for people; stdout stays the bare number so scripts can compare it.
    let _ = writeln!(
        std::io::stderr(),
        "perft {} depth {} (camp rule {}, {} camp rules): {total} in {seconds:.3} s{rate}",
        args.preset,
        args.depth,
        if camp_rule { "on" } else { "off" },
        args.camp_rules,
    );
    Ok(ExitCode::SUCCESS)
}

/// What `tick` prints: what happened, and the state to feed to the next tick.
#[derive(Serialize)]
struct TickOutput<'a> {
    outcome: &'a TickOutcome,
    state: &'a GameState,
}

fn tick(args: &TickArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let value: Value = io::parse_json(&io::read_stdin(TICK_INPUT)?, TICK_INPUT)?;
    let mut doc = io::object(value, &["state", "red", "blue"], TICK_INPUT)?;
    let state = doc
        .remove("state")
        .ok_or_else(|| Failure::Input(format!("stdin has no \"state\": expected {TICK_INPUT}")))?;
    let state: GameState = io::from_field(state, "state", STATE)?;
    let mut game = playable(&state, "\"state\"")?;
    let answer = |v: Option<&Value>| match v {
        None | Some(Value::Null) => Answer::NoMove(NoMove::Missing),
        Some(v) => Answer::from(embedded_response(v)),
    };
    let red = answer(doc.get("red"));
    let blue = answer(doc.get("blue"));
    let outcome = game
        .tick(red, blue)
        .map_err(|e| Failure::Input(format!("the referee refused the tick: {e}")))?;
    let output = TickOutput {
        outcome: &outcome,
        state: &game.state(),
    };
    io::write_json(out, &output, args.pretty)?;
    Ok(ExitCode::SUCCESS)
}

fn playable(state: &GameState, source: &str) -> Result<Game, Failure> {
    Game::from_state(state)
        .map_err(|e| Failure::Input(format!("{source} is not a playable game: {e}")))
}

fn new_game(args: &NewArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let mut rules: Rules = match (args.board_size, args.preset) {
        (None, preset) => preset.rules(),
        (Some(size), Preset::Arena) => Rules::arena(size),
        (Some(_), preset) => {
            let size = preset.rules().board_size;
            return Err(Failure::Input(format!(
                "--board-size applies to the arena preset only: the {preset} camps are laid out for \
                 their own {size}x{size} board"
            )));
        }
    };
    if let Some(limit) = args.turn_limit {
        rules.turn_limit = limit;
    }
    let seed = args.seed.unwrap_or_else(|| {
        let seed = crate::match_cmd::random_seed();
        // The state has no seed field, so stderr is where it is told; stdout stays one state.
        let _ = writeln!(
            std::io::stderr(),
            "gridarena: random seed {seed} (--seed {seed} makes this game again)"
        );
        seed
    });
    let game = Game::new(&rules, seed).map_err(|e| {
        Failure::Input(format!(
            "cannot set up the {} preset on a {n}x{n} board: {e}",
            args.preset,
            n = rules.board_size
        ))
    })?;
    io::write_json(out, &game.state(), args.pretty)?;
    Ok(ExitCode::SUCCESS)
}

fn request(args: &RequestArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    let state: GameState = io::parse_object(&io::read_stdin(STATE)?, STATE)?;
    let game = playable(&state, "stdin")?;
    io::write_json(out, &game.request(args.team), args.pretty)?;
    Ok(ExitCode::SUCCESS)
}
