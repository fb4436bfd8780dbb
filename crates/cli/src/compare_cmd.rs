//! `gridarena halma compare A B`: did my change help? Two players' games with the seats swapped every
//! other game, until one is shown stronger or the games run out.
//!
//! The schedule, the score, its interval and the stop rule are the engine's
//! ([`gridarena_engine::compare`]); the games are match games played by the library
//! ([`gridarena_cli::compare`]); this module reads the command line and writes the results.

use crate::game_args::GameArgs;
use crate::io::Failure;
use crate::progress::Progress;
use clap::Args;
use gridarena_cli::compare::{self as run_compare, Game, Plan, Sides};
use gridarena_cli::durable;
use gridarena_cli::runner::{describe, parse_player, RunError};
use gridarena_cli::terminal::printable;
use gridarena_engine::compare::{
    self, Interval, ScoreTally, StopRule, Verdict, DEFAULT_GAMES, DEFAULT_MIN_GAMES,
};
use gridarena_engine::halma::{AiPlayer, ContentType, Team, Teams};
use gridarena_engine::tournament::game::GameReport;
use serde::Serialize;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

pub const ABOUT: &str = "\
Did my change help? Play A against B, seats swapped every other game, until the games show one of them
stronger or the games run out.

A and B are players as `gridarena halma match` takes them: builtin:NAME, the URL of a web AI, a program
(course:DIR:COMMAND or lines:DIR:COMMAND) or code:PATH (a code entry, run sandboxed). Every game is a
match game: the same referee, error policy (--policy, lenient by default), deadlines (--tick-ms) and
seeding; a tick waits only for the answers, so built-in AIs play as fast as the CPU allows.

The schedule: game 1, 3, 5, ... puts A on red, game 2, 4, 6, ... on blue, and the two games of a pair share
a seed, so each player moves first in one game of each pair in the alternating presets (whether the first
mover is drawn from the seed or named with --first). Every game's seed comes from --seed S (random and
printed on stderr when not given), so the same command plays the same games again; each game's own seed
is printed, and `gridarena halma match --seed` with it and the seats replays that game alone.

The statistics: A's score is its share of the points (a win 1, a draw 1/2), shown with its 95% interval
(Wilson's). The verdict (\"A is stronger\", \"B is stronger\", or \"no difference shown\") reads the 99%
interval: a run looks after every pair of games, and each look is a new chance for luck to pass for a
difference, so the stricter interval keeps two equal players from being called different to about 5% of
50-game runs. The run stops early once a pair has ended, at least --min-games games are played and that
99% interval excludes 50%. --concurrency games run at once; games are counted in their numbers' order,
so where a run stops does not depend on which game finished first.

Output: a progress line on stderr (games, A's score, the interval) when stderr is a terminal; at the end
on stdout one line per game (its number, A's seat, its seed, the result, the ticks), then A's wins, draws
and losses, its score, the interval and the verdict. --out DIR writes DIR/games/game-N.jsonl (each game's
record, which the arena page's Load record replays) and DIR/summary.json. docs/match.md has the details.";

pub const AFTER: &str = "\
Exit status:
  0  the games were played (whatever they showed; AI errors and time-outs are part of a game)
  2  usage: an unknown player, option or value (the message says what is accepted)
  3  a file in --out or stdout could not be written, or an internal error (a bug: please report it)

Examples:
  gridarena halma compare code:my_ai_v2.py code:my_ai_v1.py --games 100
  gridarena halma compare http://127.0.0.1:8001/ builtin:search-lite --tick-ms 500 --out runs/v2
  gridarena halma compare builtin:search builtin:greedy --seed 1 --preset mini";

/// The most games in a run.
const MAX_GAMES: u32 = 100_000;
/// The most games at once by default, however many cores the machine has.
const DEFAULT_CONCURRENCY_CAP: u32 = 8;

#[derive(Debug, Args)]
#[command(mut_arg("tick_ms", |a| a.help(
    "The deadline of each answer in milliseconds (a tick ends as soon as the answers are in)"
)))]
pub struct CompareArgs {
    /// The player under test: builtin:NAME, a web AI's URL, course:DIR:COMMAND, lines:DIR:COMMAND or
    /// code:PATH
    #[arg(value_name = "A", value_parser = parse_player)]
    a: AiPlayer,
    /// The player it is compared with, in the same forms
    #[arg(value_name = "B", value_parser = parse_player)]
    b: AiPlayer,
    /// At most this many games
    #[arg(long, value_name = "N", default_value_t = DEFAULT_GAMES,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_GAMES)))]
    games: u32,
    /// No early stop before this many games (0: the first pair that shows a difference stops the run)
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MIN_GAMES,
        value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_GAMES)))]
    min_games: u32,
    /// Games played at once [default: the machine's cores, at most 8; 1 when a player is a web AI,
    /// which a single-threaded AI server could not answer twice in a tick]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: Option<u32>,
    #[command(flatten)]
    game: GameArgs,
    /// How A's requests are labelled, if A is a web AI: text (text/plain) or json (application/json)
    #[arg(long, value_name = "TYPE", default_value = "text", value_parser = str::parse::<ContentType>)]
    a_content_type: ContentType,
    /// How B's requests are labelled, if B is a web AI: text (text/plain) or json (application/json)
    #[arg(long, value_name = "TYPE", default_value = "text", value_parser = str::parse::<ContentType>)]
    b_content_type: ContentType,
    /// Write each game's record (DIR/games/game-N.jsonl) and the result (DIR/summary.json) here
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

impl CompareArgs {
    fn concurrency(&self) -> u32 {
        if let Some(n) = self.concurrency {
            return n;
        }
        if [&self.a, &self.b]
            .iter()
            .any(|p| matches!(p, AiPlayer::Web(_)))
        {
            return 1;
        }
        std::thread::available_parallelism()
            .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
            .clamp(1, DEFAULT_CONCURRENCY_CAP)
    }
}

/// One game of `summary.json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct GameSummary {
    /// From 1, as the record's file name.
    number: u32,
    a_seat: Team,
    seed: u64,
    /// "A wins", "draw" or "B wins".
    result: &'static str,
    /// How the game ended, by seats: "red wins", "draw (turn limit)", a forfeit and its cause, ...
    ending: String,
    ticks: u32,
}

/// `summary.json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary<'a> {
    a: String,
    b: String,
    preset: String,
    tick_ms: u64,
    seed: u64,
    games_planned: u32,
    min_games: u32,
    games_played: u64,
    stopped_early: bool,
    wins: u32,
    draws: u32,
    losses: u32,
    /// A's points: a win 1, a draw 1/2.
    score: f64,
    /// A's share of the points.
    share: Option<f64>,
    interval95: Interval,
    /// The interval the verdict and the stop rule read.
    interval99: Interval,
    verdict: Verdict,
    seconds: f64,
    games: &'a [GameSummary],
}

fn percent(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// "A 7.5/10 = 75.0%, 95% 47.2% to 91.1%": the progress line's tail.
fn score_line(tally: &ScoreTally) -> String {
    let i = tally.interval();
    format!(
        "A {}/{} = {}, 95% {} to {}",
        tally.points(),
        tally.games(),
        tally.share().map_or("-".to_string(), percent),
        percent(i.low),
        percent(i.high)
    )
}

/// Plays the comparison and prints its results on `out`.
pub fn run(args: &CompareArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    let code = gridarena_cli::code::code_players(&[("A", &args.a), ("B", &args.b)]);
    gridarena_cli::code::announce(&code, args.game.unconfined_code).map_err(Failure::Input)?;
    // A comparison's games are match games: these settings make the rules and the error policy.
    let settings = args.game.settings();
    settings.rules().check_options().map_err(Failure::Input)?;
    let sides = Sides {
        a: (&args.a, args.a_content_type),
        b: (&args.b, args.b_content_type),
        clock: args.game.clock(),
    };
    let seed = args.game.seed.unwrap_or_else(crate::match_cmd::random_seed);
    let plan = Plan {
        settings: &settings,
        seed,
        games: args.games,
        concurrency: args.concurrency(),
        stop: StopRule {
            min_games: args.min_games,
        },
        out_of_time_loss: args.game.out_of_time_loss(),
    };
    run_compare::check(&plan, &sides).map_err(Failure::Input)?;
    if args.game.seed.is_none() {
        let _ = writeln!(
            io::stderr(),
            "gridarena: random seed {seed} (--seed {seed} plays these games again)"
        );
    }
    let labels = [format!("A ({})", args.a), format!("B ({})", args.b)];
    let games_dir = args.out.as_ref().map(|dir| dir.join("games"));
    if let Some(dir) = &games_dir {
        std::fs::create_dir_all(dir).map_err(|e| named(dir, e))?;
    }
    let mut progress = Progress::new(true);
    let mut lines = Vec::new();
    let mut games = Vec::new();
    // Each counted game's report, by number: where the pairs parted is read from them at the end.
    let mut reports = Vec::new();
    let started = Instant::now();
    let ended = run_compare::play(&plan, &sides, |game: &Game, tally: &ScoreTally| {
        let report = &GameReport {
            fixture: compare::fixture(seed, game.k),
            played: game.played.report.clone(),
        };
        let number = game.k + 1;
        let ending = describe(&report.played.ending);
        lines.push(format!(
            "game {number}: A {}, seed {}: {} ({ending}), {} ticks",
            game.a_seat,
            report.fixture.seed,
            game.outcome.name(),
            report.played.ticks
        ));
        if let Some(dir) = &games_dir {
            let players = Teams::from_fn(|team| labels[report.fixture.entry(team)].clone());
            let record = report
                .record(&settings, players)
                .map_err(|e| io::Error::other(format!("game {number}'s record: {e}")))?;
            let path = dir.join(format!("game-{number}.jsonl"));
            durable::write_atomically(&path, record.as_bytes()).map_err(|e| named_io(&path, e))?;
        }
        reports.push(report.clone());
        games.push(GameSummary {
            number,
            a_seat: game.a_seat,
            seed: report.fixture.seed,
            result: game.outcome.name(),
            ending,
            ticks: report.played.ticks,
        });
        progress.draw(
            tally.games(),
            u64::from(args.games),
            &format!("games  {}", score_line(tally)),
        );
        Ok(())
    })
    .map_err(|e| match e {
        RunError::Output(e) => Failure::Output(e),
        RunError::Internal(why) => Failure::Internal(why),
    })?;
    let seconds = started.elapsed().as_secs_f64();
    progress.clear();
    let tally = ended.tally;
    let played = tally.games();
    let shown = tally.interval();
    let decision = tally.decision_interval();
    let verdict = tally.verdict();
    for line in &lines {
        writeln!(out, "{}", printable(line))?;
    }
    let plural = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(out)?;
    writeln!(out, "{}", printable(&format!("A: {}", args.a)))?;
    writeln!(out, "{}", printable(&format!("B: {}", args.b)))?;
    let stopped = if ended.early {
        format!("stopped early after {played} of {} games", args.games)
    } else {
        "played to the end".to_string()
    };
    writeln!(
        out,
        "{} ({}, tick {} ms, seed {seed}) in {seconds:.2} s ({:.2} games/s); {stopped}",
        plural(played, "game"),
        args.game.preset,
        args.game.tick_ms,
        played as f64 / seconds.max(1e-9),
    )?;
    writeln!(
        out,
        "A vs B: {}, {}, {}; A's score {} of {} = {}, 95% interval {} to {}",
        plural(tally.wins.into(), "win"),
        plural(tally.draws.into(), "draw"),
        match tally.losses {
            1 => "1 loss".to_string(),
            n => format!("{n} losses"),
        },
        tally.points(),
        played,
        tally.share().map_or("-".to_string(), percent),
        percent(shown.low),
        percent(shown.high)
    )?;
    let reason = if verdict == Verdict::NoDifference {
        format!(
            " after {} (the 99% interval, {} to {}, holds 50%)",
            plural(played, "game"),
            percent(decision.low),
            percent(decision.high)
        )
    } else {
        format!(
            " (the 99% interval, {} to {}, excludes 50%)",
            percent(decision.low),
            percent(decision.high)
        )
    };
    writeln!(out, "verdict: {verdict}{reason}")?;
    let parted = compare::divergences(played as u32 / 2, |k| reports.get(k as usize));
    if !parted.is_empty() {
        writeln!(
            out,
            "where A and B parted, the pairs that then ended most differently for the seat first:"
        )?;
    }
    for d in parted.iter().take(compare::TOP_DIVERGENCES) {
        writeln!(
            out,
            "{}",
            printable(&format!(
                "  games {} and {}, tick {}, {}: A {}, B {}; the seat's points with A minus with B: {:+}",
                2 * d.pair + 1,
                2 * d.pair + 2,
                d.tick,
                d.seat,
                compare::answer_text(d.a.as_ref()),
                compare::answer_text(d.b.as_ref()),
                d.swing
            ))
        )?;
    }
    if let Some(dir) = &args.out {
        let summary = Summary {
            a: args.a.to_string(),
            b: args.b.to_string(),
            preset: args.game.preset.to_string(),
            tick_ms: args.game.tick_ms,
            seed,
            games_planned: args.games,
            min_games: args.min_games,
            games_played: played,
            stopped_early: ended.early,
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            score: tally.points(),
            share: tally.share(),
            interval95: shown,
            interval99: decision,
            verdict,
            seconds,
            games: &games,
        };
        let text = serde_json::to_string_pretty(&summary)
            .map_err(|e| Failure::Internal(format!("the summary is not JSON: {e}")))?;
        let path = dir.join("summary.json");
        durable::write_atomically(&path, format!("{text}\n").as_bytes())
            .map_err(|e| named(&path, e))?;
        writeln!(out, "files in {}", printable(&dir.display().to_string()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn named_io(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn named(path: &Path, e: io::Error) -> Failure {
    Failure::Output(named_io(path, e))
}
