//! `gridarena halma match`: whole games between built-in AIs, web AIs and programs, headless.
//!
//! The game loop is the library's ([`gridarena_cli::runner`]); this module reads the command line,
//! writes the result lines, the summary, `--verbose` errors, the progress bar and `--record` files.

use crate::game_args::GameArgs;
use crate::io::Failure;
use crate::progress::Progress;
use clap::Args;
use gridarena_cli::runner::{
    check_players, describe, match_game, match_game_from, parse_player, play_game, seat, Played,
    Player, RunError, Watcher,
};
use gridarena_cli::terminal::printable;
use gridarena_engine::halma::record::Recorder;
use gridarena_engine::halma::{
    AiPlayer, AnswerTally, ContentType, Exchange, Game, Preset, Team, Teams, TickOutcome,
};
use gridarena_engine::tournament::Score;
use serde::Serialize;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

pub const ABOUT: &str = "\
Play whole games between built-in AIs, web AIs and programs on this machine, headless, with the browser
page's referee and timing.

Each tick, every team to move is asked for its move: a web AI gets the request JSON by HTTP POST (the body
is the JSON, sent with Content-Type: text/plain exactly as the page sends it, or application/json with
--red-content-type json / --blue-content-type json, with \"timeLimitMs\" set to the tick length), a
built-in AI answers directly. Both teams' requests are sent together; an answer that has not arrived by
the end of the tick length is no move (\"timed out after N ms\") and its request is closed before the next
tick, so a team never has two requests in flight. The next tick starts as soon as every answer is in:
built-in games run as fast as the CPU allows. The alternating presets (classic, mini) ask only the side
to move.

Everything a web AI does wrong is an error tick: a refused connection, an HTTP status other than 2xx, a
redirect (never followed, as in the browser), an answer over 64 KiB (at most 64 KiB + 1 byte is read), a
body that is not one move (empty, HTML, invalid JSON, wrong shape, a list of moves, bad coordinates), or
an illegal move. In the arena neither team moves in such a tick. What errors cost is --policy: lenient
(the default: the tick is lost and the game goes on), consecutive:N (N error ticks in a row forfeit the
game, the tournament's default) or strict:N (the N-th error tick in a game forfeits it). Under every
policy a game that reaches the turn limit is lost by the side with more error ticks (each of them froze
the other side's move too) and drawn on equal counts, so errors never turn a loss into a draw.

Programs (docs/programs.md): a player written FORMAT:DIR:COMMAND is a program run by sh -c in a fresh copy
of the folder DIR made for each game. FORMAT course is the USC CSCI 561 homework's: each move it is run
once, reads input.txt and writes output.txt (the classic preset only). FORMAT lines is started once per
game, reads one request JSON per line on stdin and writes one answer JSON per line on stdout. A program is
not cut at the tick: it has a clock (--clock seconds a game, charged in CPU time where the system reports
it), and a move still running at its time left plus --grace is killed with its process group. A spent
clock loses the game (--out-of-time lose, the course's rule) or makes every later move no move
(--out-of-time no-move). Each failure is named: could_not_start, crashed (with its exit status and the end
of its stderr), no_output, malformed_output, output_too_large, timed_out, out_of_time.

Output (stdout): one line per game (a forfeit or a game lost at the turn limit names its cause), then a
summary: wins, draws, each team's average latency over the
requests answered in time (a built-in AI's compute time) and its errors by kind. With --verbose each
tick's errors go to stderr as they happen. With --games above 1 and stderr a terminal, a progress bar
is drawn on stderr.

Seeds: --seed S is the first game's seed, game k (counting from 1) plays seed S + k - 1. Without --seed
a random first seed is drawn and printed on stderr. The seed draws the first mover of an alternating
game and seeds the built-in AIs exactly as the page does, so a seed gives the same game as on the page
(unless a player times out).

Records: --record FILE writes each game as a JSON Lines record, the format of the page's Download record
(it loads in the page's replay). With --games above 1, game k is written to FILE with -k before the
extension: --record out.jsonl --games 3 writes out-1.jsonl, out-2.jsonl, out-3.jsonl. A record keeps each
web AI's exchange (status, time, the start of its answer) for the replay's inspector.

Continue from a position: --from FILE plays every game on from a position instead of the preset's
opening, with the players given by --red and --blue (seats as given). FILE is told by what it holds: a
record (JSON Lines: the page's Download record or a --record file), where --turn N picks the game after
its tick N (0 is the record's start; the default is its last tick); or one JSON object, either a game
state (the engine's format: `gridarena halma tick`'s, the page link's) or a web AI's request (an object
with \"pieces\" and \"enemy\", as the inspector shows it: the asked team moves next, turns are
simultaneous when its preset is the arena, the turn limit is its preset's). The position's own rules
stand: preset, board, camp rules, damage, who moves next, the turn and the turn limit, so the turn counter
goes on from the position's turn and the limit counts from the start of the original game (--max-turns
sets another limit, above the position's turn); --preset, --camp-rules and --first cannot be given with
it. --seed seeds the built-in AIs as usual. A --record file starts at the position (its header holds it)
and replays from there in the page. A position that is not a playable game is refused with the engine's
reason, and so is a game that is already over.

Traces: --trace FILE writes one JSON line per request to a web AI, written as each tick ends: the game,
tick, team, url, the exact request body, content type, time limit, HTTP status, milliseconds, the answer
as received (at most 64 KiB) and the verdict (enacted, refused with the referee's code and message, ...).
Built-in AIs have no lines. docs/match.md shows a line.";

pub const AFTER: &str = "\
Exit status:
  0  the match was played (AI errors, time-outs and illegal moves are part of a match, not failures)
  2  usage: an unknown player, option or value (the message says what is accepted), or a --from file
     that cannot be read or is not a playable position
  3  a record file or stdout could not be written, or an internal error (a bug: please report it)

Examples:
  gridarena halma match --red builtin:search --blue builtin:greedy --games 100 --seed 1
  gridarena halma match --red http://127.0.0.1:8001/ --blue builtin:greedy --tick-ms 500 --verbose
  gridarena halma match --red http://127.0.0.1:5000/ --red-content-type json --blue builtin:greedy \\
    --trace trace.jsonl
  gridarena halma match --red builtin:greedy --blue builtin:search --preset mini --record game.jsonl
  gridarena halma match --preset classic --red 'course:ai/course:python3 halma_course.py' \
    --blue builtin:search --trace trace.jsonl
  gridarena halma match --red 'lines:ai/lines:python3 halma_lines.py' --blue builtin:greedy
  gridarena halma match --from game.jsonl --turn 40 --red builtin:search --blue builtin:greedy --games 10
  gridarena halma match --from state.json --red http://127.0.0.1:8001/ --blue builtin:search";

#[derive(Debug, Args)]
#[command(mut_arg("max_turns", |a| a.help(
    "Ticks after which a game is a draw [default: the preset's, 1000; with --from, the position's]"
)))]
#[command(mut_arg("seed", |a| a.help(
    "The first game's seed; game k plays S + k - 1 [default: random, printed on stderr]"
)))]
pub struct MatchArgs {
    /// Red's player: builtin:greedy, builtin:search, the http:// or https:// URL of a web AI, or a program
    /// as course:DIR:COMMAND or lines:DIR:COMMAND
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    red: AiPlayer,
    /// Blue's player, in the same forms as red's
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    blue: AiPlayer,
    /// How red's requests are labelled, if red is a web AI: text (text/plain) or json (application/json)
    #[arg(long, value_name = "TYPE", default_value = "text", value_parser = str::parse::<ContentType>)]
    red_content_type: ContentType,
    /// How blue's requests are labelled, if blue is a web AI: text (text/plain) or json (application/json)
    #[arg(long, value_name = "TYPE", default_value = "text", value_parser = str::parse::<ContentType>)]
    blue_content_type: ContentType,
    #[command(flatten)]
    game: GameArgs,
    /// Play on from a position: a record (JSON Lines, with --turn), a game state or a web AI's request
    /// (JSON); the position's rules, turn and turn limit stand
    #[arg(long, value_name = "FILE", conflicts_with_all = ["preset", "camp_rules", "first"])]
    from: Option<PathBuf>,
    /// With a record in --from: the position after its tick N (0 is its start) [default: its last tick]
    #[arg(long, value_name = "N", requires = "from")]
    turn: Option<u32>,
    /// Write each game's record (JSON Lines) here; with --games N, FILE-k.jsonl for game k
    #[arg(long, value_name = "FILE.jsonl")]
    record: Option<PathBuf>,
    /// Write one JSON line per request to a web AI here (request, answer, verdict), tick by tick
    #[arg(long, value_name = "FILE.jsonl")]
    trace: Option<PathBuf>,
    /// How many games to play
    #[arg(long, value_name = "N", default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Print each tick's errors (no move, illegal move) on stderr as they happen
    #[arg(long, short)]
    verbose: bool,
}

/// Plays the match and prints its results on `out`.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    let code = gridarena_cli::code::code_players(&[("red", &args.red), ("blue", &args.blue)]);
    gridarena_cli::code::announce(&code, args.game.unconfined_code).map_err(Failure::Input)?;
    let players = Teams {
        red: Player::on_clock(&args.red, args.game.clock()).map_err(Failure::Input)?,
        blue: Player::on_clock(&args.blue, args.game.clock()).map_err(Failure::Input)?,
    };
    // Where each side's move is cut and how its requests are labelled: the engine's word for its kind.
    let seats = Teams {
        red: seat(&args.red, args.red_content_type),
        blue: seat(&args.blue, args.blue_content_type),
    };
    let labels = Teams {
        red: args.red.to_string(),
        blue: args.blue.to_string(),
    };
    // A match is a tournament game with no tournament around it: its settings make the rules and the
    // error policy.
    let settings = args.game.settings();
    let start = match &args.from {
        Some(path) => Some(
            crate::match_from::load(path, args.turn, args.game.max_turns)
                .map_err(Failure::Input)?,
        ),
        None => {
            settings.rules().check_options().map_err(Failure::Input)?;
            None
        }
    };
    let first_seed = args.game.seed.unwrap_or_else(|| {
        let seed = random_seed();
        let _ = writeln!(
            io::stderr(),
            "gridarena: random seed {seed} (--seed {seed} plays this match again)"
        );
        seed
    });
    let mut trace = match &args.trace {
        Some(path) => Some(TraceFile::create(path).map_err(Failure::Output)?),
        None => None,
    };
    let mut progress = Progress::new(args.games > 1);
    let mut totals = Totals::default();
    let started = Instant::now();
    for k in 1..=args.games {
        let seed = first_seed.wrapping_add(u64::from(k - 1));
        let game = match &start {
            Some(start) => match_game_from(&settings, seed, start.game.clone(), seats.clone()),
            None => match_game(&settings, seed, seats.clone()).map_err(|e| {
                Failure::Input(format!(
                    "cannot set up the {} preset: {e}",
                    args.game.preset
                ))
            })?,
        }
        .with_out_of_time_loss(args.game.out_of_time_loss());
        check_players(game.game(), &players).map_err(Failure::Input)?;
        let mut watcher = CliWatcher {
            game: k,
            verbose: args.verbose,
            progress: &mut progress,
            trace: trace.as_mut(),
            record: args.record.as_ref().map(|path| RecordFile {
                path: record_path(path, k, args.games),
                labels: labels.clone(),
                seed,
                // Web and program games are slow enough to keep the file current tick by tick.
                flush_each_tick: players.red.is_remote() || players.blue.is_remote(),
                file: None,
                recorder: None,
            }),
        };
        let played =
            play_game(game, &players, args.game.tick_ms, &mut watcher).map_err(|e| match e {
                RunError::Output(e) => Failure::Output(e),
                RunError::Internal(why) => Failure::Internal(why),
            })?;
        if let Some(record) = watcher.record.as_mut() {
            record.close().map_err(Failure::Output)?;
        }
        progress.clear_for_stdout();
        let from_turn = start.as_ref().map(|s| s.game.turn());
        writeln!(
            out,
            "{}",
            printable(&game_line(k, args.games, seed, from_turn, &played))
        )?;
        out.flush()?;
        totals.add(&played);
        progress.draw(
            u64::from(k),
            u64::from(args.games),
            &format!(
                "games  red {} blue {} draws {}",
                totals.wins.red, totals.wins.blue, totals.draws
            ),
        );
    }
    progress.clear();
    let setup = match &start {
        Some(start) => format!(
            "{} from {}, turn {}",
            start.game.preset().map_or("custom", Preset::name),
            start.source,
            start.game.turn()
        ),
        None => args.game.preset.to_string(),
    };
    write_summary(out, args, &setup, &labels, &totals, started.elapsed())?;
    Ok(ExitCode::SUCCESS)
}

/// A seed nobody chose: the standard library's per-process random hash keys, mixed with the clock and
/// the process id.
pub fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(now);
    h.write_u32(std::process::id());
    h.finish()
}

/// `path` for game `k` of `games`: as given for a single game, else with `-k` before the extension.
pub fn record_path(path: &Path, k: u32, games: u32) -> PathBuf {
    if games == 1 {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{k}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{k}"),
    };
    path.with_file_name(name)
}

/// "game 2/3: seed 8, red wins after 57 ticks; errors: red 0, blue 3", then each program's clock. A game
/// played on from turn T (`from_turn`) says which turns it played: "after 20 ticks (turns 31 to 50)".
fn game_line(k: u32, games: u32, seed: u64, from_turn: Option<u32>, played: &Played) -> String {
    let report = &played.report;
    let turns = match from_turn {
        Some(t) => format!(
            " (turns {} to {})",
            t.saturating_add(1),
            t.saturating_add(report.ticks)
        ),
        None => String::new(),
    };
    let mut line = format!(
        "game {k}/{games}: seed {}, {} after {} ticks{turns}; errors: red {}, blue {}",
        seed,
        describe(&report.ending),
        report.ticks,
        report.sides.red.errors,
        report.sides.blue.errors
    );
    for team in Team::ALL {
        if let Some(clock) = played.clocks[team] {
            line.push_str(&format!(
                "; {team} clock {:.2} s of {:.0} s ({})",
                clock.used.as_secs_f64(),
                clock.total.as_secs_f64(),
                clock.measured
            ));
        }
    }
    line
}

/// The match so far.
#[derive(Default)]
struct Totals {
    games: u32,
    wins: Teams<u32>,
    draws: u32,
    ticks: u64,
    teams: Teams<AnswerTally>,
}

impl Totals {
    fn add(&mut self, played: &Played) {
        let report = &played.report;
        self.games += 1;
        match report.ending.score() {
            Score::RedWins => self.wins.red += 1,
            Score::BlueWins => self.wins.blue += 1,
            Score::Draw => self.draws += 1,
        }
        self.ticks += u64::from(report.ticks);
        for t in Team::ALL {
            self.teams[t].add(&report.sides[t]);
        }
    }
}

/// How many kinds of error the summary lists per team, most frequent first.
const CAUSES_SHOWN: usize = 5;

fn write_summary(
    out: &mut impl Write,
    args: &MatchArgs,
    setup: &str,
    labels: &Teams<String>,
    totals: &Totals,
    elapsed: Duration,
) -> io::Result<()> {
    let seconds = elapsed.as_secs_f64();
    let plural = |n: u32, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    writeln!(out)?;
    writeln!(
        out,
        "{} ({}, tick {} ms) in {seconds:.2} s, {} ticks: red {} vs blue {}",
        plural(totals.games, "game"),
        setup,
        args.game.tick_ms,
        totals.ticks,
        labels.red,
        labels.blue
    )?;
    writeln!(
        out,
        "wins: red {}, blue {}; draws: {}",
        totals.wins.red, totals.wins.blue, totals.draws
    )?;
    for team in Team::ALL {
        let stats = &totals.teams[team];
        let latency = match stats.mean_ms() {
            Some(ms) => format!(
                "{ms:.3} ms average over {}",
                plural(stats.answered, "answer")
            ),
            None => "no answer in time".to_string(),
        };
        let late = stats.asked - stats.answered;
        let late = if late > 0 {
            format!(" ({late} of {} requests unanswered)", stats.asked)
        } else {
            String::new()
        };
        writeln!(
            out,
            "{team}: latency {latency}{late}; {}",
            plural(stats.errors, "error")
        )?;
        let causes = stats.causes_by_count();
        for (code, cause) in causes.iter().take(CAUSES_SHOWN) {
            let example = printable(&cause.example);
            writeln!(out, "  {} x {code}, latest: {example}", cause.count)?;
        }
        if causes.len() > CAUSES_SHOWN {
            writeln!(out, "  ... and {} more kinds", causes.len() - CAUSES_SHOWN)?;
        }
    }
    Ok(())
}

/// What follows each game: `--verbose` errors, the `--trace` file and the `--record` file.
struct CliWatcher<'a> {
    game: u32,
    verbose: bool,
    progress: &'a mut Progress,
    trace: Option<&'a mut TraceFile>,
    record: Option<RecordFile>,
}

impl Watcher for CliWatcher<'_> {
    fn start(&mut self, game: &Game) -> io::Result<()> {
        match &mut self.record {
            Some(r) => r.start(game),
            None => Ok(()),
        }
    }

    fn tick(
        &mut self,
        outcome: &TickOutcome,
        game: &Game,
        exchanges: &Teams<Option<Exchange>>,
    ) -> io::Result<()> {
        if let Some(trace) = self.trace.as_mut() {
            trace.write(self.game, exchanges)?;
        }
        if self.verbose && !outcome.errors.is_empty() {
            self.progress.clear();
            let mut err = io::stderr().lock();
            for e in &outcome.errors {
                // Nothing is left to tell anyone if stderr is gone, so a failed write is ignored.
                let e = e.to_string();
                let _ = writeln!(
                    err,
                    "game {} turn {}: {}",
                    self.game,
                    outcome.turn,
                    printable(&e)
                );
            }
        }
        match &mut self.record {
            Some(r) => r.tick(outcome, game, exchanges),
            None => Ok(()),
        }
    }
}

/// One line of a `--trace` file: the game it belongs to, then the exchange's own fields.
#[derive(Serialize)]
struct TraceLine<'a> {
    game: u32,
    #[serde(flatten)]
    exchange: &'a Exchange,
}

/// The `--trace` file of the whole match, flushed at the end of every tick, so that the trace of a
/// match stopped midway is whole up to its last tick.
struct TraceFile {
    path: PathBuf,
    file: BufWriter<File>,
}

impl TraceFile {
    fn create(path: &Path) -> io::Result<TraceFile> {
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let file = File::create(path).map_err(named)?;
        Ok(TraceFile {
            path: path.to_path_buf(),
            file: BufWriter::new(file),
        })
    }

    /// Writes the tick's exchanges of game `game`, red's first, in one write: a match killed at any
    /// moment leaves whole lines only.
    fn write(&mut self, game: u32, exchanges: &Teams<Option<Exchange>>) -> io::Result<()> {
        let mut text = String::new();
        for exchange in Team::ALL.into_iter().filter_map(|t| exchanges[t].as_ref()) {
            let line = serde_json::to_string(&TraceLine { game, exchange })
                .map_err(|e| io::Error::other(format!("an exchange is not JSON: {e}")))?;
            text.push_str(&line);
            text.push('\n');
        }
        if text.is_empty() {
            return Ok(());
        }
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))
    }
}

/// One game's record file, written line by line as the game goes.
struct RecordFile {
    path: PathBuf,
    labels: Teams<String>,
    seed: u64,
    flush_each_tick: bool,
    file: Option<BufWriter<File>>,
    recorder: Option<Recorder>,
}

impl RecordFile {
    /// The error, with the file's name in it.
    fn named(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("{}: {e}", self.path.display()))
    }

    fn start(&mut self, game: &Game) -> io::Result<()> {
        let file = File::create(&self.path).map_err(|e| self.named(e))?;
        let recorder = Recorder::new(self.labels.clone(), self.seed, game);
        let mut file = BufWriter::new(file);
        for line in recorder.lines() {
            writeln!(file, "{line}").map_err(|e| self.named(e))?;
        }
        self.file = Some(file);
        self.recorder = Some(recorder);
        Ok(())
    }

    fn tick(
        &mut self,
        outcome: &TickOutcome,
        game: &Game,
        exchanges: &Teams<Option<Exchange>>,
    ) -> io::Result<()> {
        let (Some(recorder), Some(file)) = (self.recorder.as_mut(), self.file.as_mut()) else {
            return Ok(());
        };
        let wires = exchanges.map(|_, e| e.as_ref().map(|e| e.wire.clone()));
        let mut result = Ok(());
        if let Some(line) = recorder.push_with_wires(outcome, game, Some(&wires)) {
            result = writeln!(file, "{line}");
        }
        if game.result().is_some() {
            if let Some(line) = recorder.finish() {
                result = result.and_then(|()| writeln!(file, "{line}"));
            }
        }
        if self.flush_each_tick {
            result = result.and_then(|()| file.flush());
        }
        result.map_err(|e| self.named(e))
    }

    /// Flushes the file; the record is complete.
    fn close(&mut self) -> io::Result<()> {
        match self.file.take() {
            Some(mut file) => file.flush().map_err(|e| self.named(e)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_of_several_games_are_numbered_before_the_extension() {
        let p = Path::new("out/game.jsonl");
        assert_eq!(record_path(p, 1, 1), PathBuf::from("out/game.jsonl"));
        assert_eq!(record_path(p, 3, 5), PathBuf::from("out/game-3.jsonl"));
        assert_eq!(
            record_path(Path::new("game"), 2, 2),
            PathBuf::from("game-2")
        );
        assert_eq!(
            record_path(Path::new("a.b/g.tar.jsonl"), 2, 2),
            PathBuf::from("a.b/g.tar-2.jsonl")
        );
    }
}
