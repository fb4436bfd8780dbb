//! `gridarena halma tournament`: a whole tournament from a roster file, headless, resumable.
//!
//! The schedule, the referee, the error policy, the standings and the rating are the engine's
//! ([`Tournament`]), exactly as on the tournament page; this module reads the command line and the
//! roster, and writes the progress, the table and the files in `--out`.

use crate::args::preset_parser;
use crate::io::{read_capped, CapError, Failure, Source};
use crate::progress::Progress;
use gridarena_cli::code::CodePlayer;
use gridarena_cli::durable;
use gridarena_cli::program::{self, Clock, ProgramPlayer};
use gridarena_cli::runner::parse_player;
use gridarena_cli::terminal::printable;
use gridarena_cli::tournament::{clock_of, play, Finished};
use gridarena_cli::web::WebAi;
use gridarena_engine::halma::game_loop::game_request_body;
use gridarena_engine::halma::play::{Deadline, Policy};
use gridarena_engine::halma::{AiPlayer, Answer, Game, Preset, Team, Teams};
use gridarena_engine::tournament::event::{Tournament, Withdrawal, MAX_BUNDLE_BYTES};
use gridarena_engine::tournament::game::GameReport;
use gridarena_engine::tournament::grades;
use gridarena_engine::tournament::milestone::Milestone;
use gridarena_engine::tournament::pairing::Format;
use gridarena_engine::tournament::plan::{self, EntryPlan, Occasion};
use gridarena_engine::tournament::roster::{Roster, MAX_ROSTER_BYTES};
use gridarena_engine::tournament::settings::{Settings, DEFAULT_WITHDRAW_AFTER};
use gridarena_engine::tournament::table::Table;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

pub const ABOUT: &str = "\
Play a tournament between the AIs of a roster, headless, with the tournament page's pairing, referee,
error policy, standings and rating.

The roster is JSON: {\"entries\": [{\"name\": \"Ada\", \"player\": \"http://127.0.0.1:8001/\"},
{\"name\": \"House\", \"player\": \"builtin:greedy\"}]}. Every game is played as `gridarena halma match`
plays one (the same requests, deadlines and seeds); --concurrency games run at once and no entry plays
two games at once, so a single-threaded AI server is never asked twice in one tick.

Formats: round-robin (every pair meets once), double (twice, sides swapped, the same seed for both
games), swiss (--rounds N rounds, equal scores meet, no pair twice while avoidable). Ranking: points (a
win 1, a draw 1/2), then head-to-head among the entries on equal points, then Sonneborn-Berger; the
rating (Weng-Lin, mean and a 95% interval) shows which entries the games cannot tell apart.

Errors: --policy consecutive:N (the default, consecutive:10: N error ticks in a row forfeit the game, so
a dead, crashing or closed-port entry loses each game in N ticks), strict:N (the N-th error tick in one
game forfeits it) or lenient (a bad answer is no move and the game goes on). Under every policy a game
that reaches the turn limit is lost by the side with more error ticks, and drawn on equal counts: in the
arena each error tick froze the other side's move too, so errors never turn a loss into a draw. An entry
that never answers in --withdraw-after K games in a row is withdrawn, and its games not yet played are
lost. Each forfeit, stalled game and withdrawal names its cause.

Programs (docs/programs.md): an entry may be a program on this machine, {\"name\": \"Ada\", \"program\":
{\"command\": \"python3 homework.py\", \"dir\": \"agents/ada\", \"format\": \"course\"}} (or the label
\"course:agents/ada:python3 homework.py\"). Each game gets its own copy of the folder and its own process. A
program has a clock of --clock seconds a game; under consecutive:N and strict:N a spent clock loses the
game at once (the course's rule), under lenient it makes every later move no move; a course-format
entry is never cut at the tick, only at its clock's deadline.

Roll call: before the first game every entry but the built-in AIs is asked once on the start position,
as the tournament page asks it, and its answer or failure is printed: a web AI and function-format code
get the first game's request within 3 ticks (at least 3 s), a program and course-format code one SINGLE
move on a whole clock. A program entry is a command this machine runs as you, so a roster with one is refused, its
commands listed, unless you give --allow-programs (read them first: a roster may come from anyone).

Files in --out DIR: bundle.json (roster, settings, every result and every game's log; rewritten after
each game), standings.csv (rank, name, played, wins, draws, losses, points, ...), grades.csv (one row per entry:
milestones passed, games, errors by kind, median answer time, the code's hash), games/game-N.jsonl
(each game's record, which the arena page's Load record replays). Run the same command again with the
same --out and the tournament resumes where it stopped, with the settings it started with; games that
were in progress are played again from their seed. A tournament exported by the tournament page (its
\"Export tournament (JSON)\") resumes here too: give that file in place of the roster, and a new --out.";

pub const AFTER: &str = "\
Exit status:
  0  the tournament was played to its end (AI errors are part of a tournament, not failures)
  2  usage: an unknown option or value, a roster that cannot be used, or --out holding another tournament
  3  a file could not be written, or an internal error (a bug: please report it)

Examples:
  gridarena halma tournament class.json --format double --tick-ms 500 --out results/
  gridarena halma tournament class.json --format swiss --rounds 5 --policy strict:5 --out results/
  gridarena halma tournament homework.json --allow-programs --preset classic --camp-rules course --first blue \
    --policy strict:3 --clock 300 --out results/";

#[derive(Debug, clap::Args)]
pub struct TournamentArgs {
    /// The roster: {"entries": [{"name": ..., "player": URL or builtin:NAME}, ...]}; or a tournament's
    /// bundle (the page's export, another run's bundle.json), which is resumed
    #[arg(value_name = "ROSTER.json")]
    roster: PathBuf,
    /// round-robin, double, or swiss (with --rounds)
    #[arg(long, default_value = "round-robin", value_parser = ["round-robin", "double", "swiss"])]
    format: String,
    /// Rounds of a Swiss tournament [default: 7]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1000))]
    rounds: Option<u32>,
    /// The board and how turns go
    #[arg(long, value_parser = preset_parser(), default_value = "arena")]
    preset: Preset,
    #[command(flatten)]
    rules: crate::args::RuleArgs,
    /// The tick length in milliseconds: how long each answer is waited for
    #[arg(long, value_name = "N", default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(1..=600_000))]
    tick_ms: u64,
    /// Ticks after which a game is a draw [default: the preset's, 1000]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_turns: Option<u32>,
    /// Games played at once
    #[arg(long, value_name = "N", default_value_t = 4,
        value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Games one entry plays at once
    #[arg(long, value_name = "N", default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=16))]
    per_entry: u32,
    #[command(flatten)]
    clock: crate::args::ClockArgs,
    /// consecutive:N (N errors in a row forfeit a game), strict:N (the N-th error in one game forfeits
    /// it) or lenient; under every policy the side with more errors loses at the turn limit
    #[arg(long, value_name = "consecutive:N|strict:N|lenient", default_value_t = Policy::default(),
        value_parser = str::parse::<Policy>)]
    policy: Policy,
    /// Withdraw an entry after K games in a row without a single answer; 0 never withdraws
    #[arg(long, value_name = "K", default_value_t = DEFAULT_WITHDRAW_AFTER,
        value_parser = clap::value_parser!(u32).range(0..=1000))]
    withdraw_after: u32,
    /// The tournament's seed: every game's seed comes from it [default: random, printed on stderr]
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// The folder for bundle.json, standings.csv and the game records; an existing bundle is resumed
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Print each finished game on stderr
    #[arg(long, short)]
    verbose: bool,
    /// Play the games on a queue in PostgreSQL (postgres://...): this command coordinates (pairs each
    /// round, writes --out) and any number of `gridarena halma worker URL`, on any machines, play
    /// them. Run again with the same roster, --out and URL and it resumes (docs/tournament.md)
    #[arg(long, value_name = "URL")]
    queue: Option<String>,
    /// Run the roster's program entries: each is a command on this machine, so without this flag they
    /// are listed and nothing runs (a roster may come from anyone; read the commands first)
    #[arg(long)]
    allow_programs: bool,
    /// Take only code entries and built-in AIs (a final: nobody can drive a web AI or a program by hand)
    #[arg(long)]
    code_only: bool,
    /// Run code entries even where this machine cannot confine them (no Landlock, seccomp or
    /// unprivileged namespaces): they could then reach your files, sockets or processes, so only for
    /// code you trust
    #[arg(long)]
    unconfined_code: bool,
    /// A milestone for grading: every entry plays this built-in AI twice (seats swapped) and passes by
    /// scoring at least PERCENT of the points; repeat for several (greedy:50 --milestone search-lite:50)
    #[arg(long = "milestone", value_name = "AI:PERCENT", value_parser = str::parse::<Milestone>)]
    milestones: Vec<Milestone>,
}

impl TournamentArgs {
    fn settings(&self) -> Result<Settings, Failure> {
        let format = match (self.format.as_str(), self.rounds) {
            ("round-robin", None) => Format::RoundRobin,
            ("double", None) => Format::Double,
            ("swiss", rounds) => {
                let text = rounds.map_or("swiss".to_string(), |n| format!("swiss:{n}"));
                text.parse().map_err(|e| Failure::Input(format!("{e}")))?
            }
            (other, Some(_)) => {
                return Err(Failure::Input(format!(
                    "--rounds is for --format swiss; a {other} tournament's rounds follow from the roster"
                )))
            }
            (other, None) => return Err(Failure::Input(format!("unknown format {other}"))),
        };
        Ok(Settings {
            format,
            preset: self.preset,
            tick_ms: self.tick_ms,
            max_turns: self.max_turns,
            concurrency: self.concurrency,
            per_entry: self.per_entry,
            policy: self.policy,
            withdraw_after: (self.withdraw_after > 0).then_some(self.withdraw_after),
            seed: self.seed.unwrap_or_else(crate::match_cmd::random_seed),
            camp_rules: self.rules.camp_rules,
            first_mover: self.rules.first.0,
            code_only: self.code_only,
            milestones: self.milestones.clone(),
            clock: self.clock.settings(),
        })
    }
}

/// What the ROSTER argument held: a roster, or a tournament's bundle (exported by the page or another
/// run's bundle.json), which is resumed.
struct Input {
    roster: Roster,
    bundle: Option<Tournament>,
}

/// Reads and checks the roster file, with the HTTP client's URL checks on top of the engine's. A
/// tournament's bundle is taken too: its roster, and the tournament to resume.
fn read_roster(path: &Path) -> Result<Input, Failure> {
    let named = |why: String| Failure::Input(format!("{}: {why}", path.display()));
    let text = read_text(path, MAX_ROSTER_BYTES.max(MAX_BUNDLE_BYTES)).map_err(named)?;
    let (roster, bundle) = if Tournament::is_bundle(&text) {
        let t = Tournament::from_bundle(&text).map_err(|e| named(e.to_string()))?;
        (t.roster().clone(), Some(t))
    } else {
        (
            Roster::parse(&text).map_err(|e| named(e.to_string()))?,
            None,
        )
    };
    // A code entry's label only names its files for people; the roster's check read the files.
    for (i, entry) in roster
        .entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.code.is_none())
    {
        parse_player(&entry.player)
            .map_err(|why| named(format!("Entry {} ({}): {why}", i + 1, entry.name)))?;
    }
    Ok(Input { roster, bundle })
}

/// The text of `path`, refused unread past `cap` bytes (a roster or a tournament's bundle checks its
/// own size after). Any file will do: a roster may come through a pipe.
fn read_text(path: &Path, cap: usize) -> Result<String, String> {
    let bytes =
        read_capped(Source::File(path), &path.display().to_string(), cap).map_err(|e| match e {
            CapError::TooLarge { .. } => format!(
                "{}, the most a roster or a tournament's bundle may be",
                e.why()
            ),
            CapError::Unreadable { .. } => e.why(),
        })?;
    String::from_utf8(bytes).map_err(|_| "it is not UTF-8 text".to_string())
}

/// The commands `roster`'s program entries would run on this machine, one line each, as the teacher
/// must read them before consenting.
fn program_commands(roster: &Roster) -> Vec<String> {
    roster
        .entries
        .iter()
        .enumerate()
        .filter_map(|(i, entry)| match parse_player(&entry.player) {
            Ok(AiPlayer::Program(p)) => Some(format!(
                "  entry {} ({}): `{}` in the folder {}",
                i + 1,
                printable(&entry.name),
                printable(&p.command),
                printable(&p.dir)
            )),
            _ => None,
        })
        .collect()
}

/// A roster is data from anyone, but its program entries are commands: none runs without the teacher's
/// `--allow-programs`, and the refusal lists exactly what would have run.
fn check_consent(roster: &Roster, allowed: bool) -> Result<(), Failure> {
    let commands = program_commands(roster);
    if commands.is_empty() {
        return Ok(());
    }
    let list = commands.join("\n");
    if allowed {
        eprintln!("running the roster's programs (--allow-programs):\n{list}");
        return Ok(());
    }
    Err(Failure::Input(format!(
        "the roster has {} program entr{}, each a command this machine would run as you:\n{list}\n\
         Nothing was run. If you trust this roster and these commands, run again with --allow-programs.",
        commands.len(),
        if commands.len() == 1 { "y" } else { "ies" }
    )))
}

/// The tournament to play: the one in `out` if there is one (it must be of this roster), else the
/// bundle given as the roster (a tournament exported by the page, resumed here), else a new one.
fn open(args: &TournamentArgs, input: Input) -> Result<Tournament, Failure> {
    let bundle = args.out.join("bundle.json");
    let (t, from) = match fs::read_to_string(&bundle) {
        Ok(text) => {
            let t = Tournament::from_bundle(&text)
                .map_err(|e| Failure::Input(format!("{}: {e}", bundle.display())))?;
            if t.roster() != &input.roster {
                return Err(Failure::Input(format!(
                    "{} holds a tournament of another roster; choose another --out, or delete it to start again",
                    bundle.display()
                )));
            }
            (t, bundle)
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => match input.bundle {
            Some(t) => (t, args.roster.clone()),
            None => {
                let settings = args.settings()?;
                if args.seed.is_none() {
                    eprintln!("seed: {}", settings.seed);
                }
                return Tournament::new(input.roster, settings)
                    .map_err(|e| Failure::Input(e.to_string()));
            }
        },
        Err(e) => return Err(Failure::Input(format!("{}: {e}", bundle.display()))),
    };
    // Without --seed the asked seed is a fresh random one, which says nothing.
    let asked = Settings {
        seed: args.seed.unwrap_or(t.settings().seed),
        ..args.settings()?
    };
    let kept = t.settings();
    if asked != *kept {
        eprintln!(
            "note: resuming {} with the settings it started with ({}, {}, tick {} ms, {}, seed {}, clock {} s, grace {} s), not the options given",
            from.display(),
            kept.format,
            kept.preset,
            kept.tick_ms,
            kept.policy,
            kept.seed,
            kept.clock.total.as_secs_f64(),
            kept.clock.grace.as_secs_f64()
        );
    }
    eprintln!(
        "resuming: {} of {} games already played ({})",
        t.finished_count(),
        t.total_games(),
        from.display()
    );
    Ok(t)
}

/// The roll call before the first game, as the tournament page calls it: each entry is asked what the
/// engine's plan says ([`EntryPlan`]) on the one position every roll call asks
/// ([`plan::roll_call_position`]), and its answer or failure is printed, in roster order. So a student
/// sees before the first game that their AI starts, reads the position and answers in time. Web
/// entries are asked at once, each on a thread of its own; programs and code one after the other.
/// Refuses a course-format entry in a game its format cannot describe.
fn roll_call(tournament: &Tournament, clock: Clock) -> Result<(), Failure> {
    let settings = tournament.settings();
    let (game, team) = plan::roll_call_position(settings).map_err(|e| {
        Failure::Input(format!("cannot set up the {} preset: {e}", settings.preset))
    })?;
    let entries = plan::roster_plans(tournament.roster(), settings)
        .map_err(|e| Failure::Input(e.to_string()))?;
    let asked = Asked {
        game: &game,
        team,
        settings,
        clock,
    };
    thread::scope(|scope| {
        let web: Vec<_> = entries
            .iter()
            .map(|(name, player, plan)| match player {
                AiPlayer::Web(url) => Some(scope.spawn(move || asked.web(name, url, plan))),
                _ => None,
            })
            .collect();
        for ((name, player, plan), web) in entries.iter().zip(web) {
            let said = match web {
                Some(handle) => handle.join().unwrap_or_else(|_| {
                    format!("roll call: {name} ({player}): internal error: its request's thread stopped")
                }),
                None => asked.local(name, player, plan)?,
            };
            eprintln!("{}", printable(&said));
        }
        Ok(())
    })
}

/// What every entry's roll call shares: the position, the team asked, the settings and the clock.
#[derive(Clone, Copy)]
struct Asked<'a> {
    game: &'a Game,
    team: Team,
    settings: &'a Settings,
    clock: Clock,
}

impl Asked<'_> {
    /// How long the roll call waits for an entry under `deadline`: its milliseconds, or the
    /// tournament's whole course clock and its grace.
    fn wait(&self, deadline: Deadline) -> Duration {
        Duration::from_millis(deadline.longest_ms(self.settings.clock))
    }

    /// A web entry's roll call: the first game's request, labelled as its plan says.
    fn web(&self, name: &str, url: &str, plan: &EntryPlan) -> String {
        let label = format!("{name} ({url})");
        let Some(call) = plan.roll_call else {
            return format!("roll call: {label}: ready");
        };
        let ai = match WebAi::new(url) {
            Ok(ai) => ai,
            Err(why) => return format!("roll call: {label}: {why}"),
        };
        let wait = self.wait(call.deadline);
        let wait_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX);
        let body = game_request_body(
            self.game,
            self.team,
            self.settings.tick_ms,
            self.settings.seed,
        );
        let reply = ai.ask(
            &body,
            plan.seat.content_type,
            Instant::now() + wait,
            wait_ms,
        );
        self.verdict(&label, plan, reply.answer, reply.latency)
    }

    /// The roll call of an entry this machine runs (a program, code) or needs not ask (a built-in).
    fn local(&self, name: &str, player: &AiPlayer, plan: &EntryPlan) -> Result<String, Failure> {
        let label = format!("{name} ({player})");
        let Some(call) = plan.roll_call else {
            return Ok(format!("roll call: {label}: a built-in AI, always ready"));
        };
        let refused = |e: String| Failure::Input(printable(&format!("{label}: {e}")).into_owned());
        let ask = program::Ask {
            game: self.game,
            team: self.team,
            seed: self.settings.seed,
            single: call.occasion == Occasion::Single,
            limit: call.deadline.limit(),
            request: None,
        };
        let (answer, latency) = match player {
            AiPlayer::Program(program) => {
                program
                    .can_play(self.game)
                    .map_err(|e| refused(e.to_string()))?;
                let player = ProgramPlayer::new(program.clone(), self.clock);
                let reply = player.ask(&ask);
                player.end_game();
                (reply.answer, reply.latency)
            }
            AiPlayer::Code(source) => {
                let player = CodePlayer::new(Arc::clone(source), self.clock).map_err(refused)?;
                let asked = match &player {
                    CodePlayer::Course(p) => {
                        p.program()
                            .can_play(self.game)
                            .map_err(|e| refused(e.to_string()))?;
                        let reply = p.ask(&ask);
                        (reply.answer, reply.latency)
                    }
                    CodePlayer::Function(f) => {
                        let wait = self.wait(call.deadline);
                        let (moved, _) = f.ask(self.game, self.team, self.settings.seed, wait);
                        let latency = moved
                            .ms
                            .map(|ms| Duration::from_secs_f64(ms.max(0.0) / 1000.0));
                        (moved.answer, latency)
                    }
                };
                player.end_game();
                asked
            }
            // Asked on a thread of its own (`web`), or not at all (a built-in AI has no roll call).
            AiPlayer::Web(_) | AiPlayer::BuiltIn(_) => {
                return Ok(format!("roll call: {label}: ready"))
            }
        };
        Ok(self.verdict(&label, plan, answer, latency))
    }

    /// What an entry's answer says: ready; an illegal move (judged by the referee on the roll call's
    /// position); a move slower than a game would wait for ([`EntryPlan::in_time`]); or why no move.
    fn verdict(
        &self,
        label: &str,
        plan: &EntryPlan,
        answer: Answer,
        latency: Option<Duration>,
    ) -> String {
        let ms = latency.map(|l| u64::try_from(l.as_millis()).unwrap_or(u64::MAX));
        let took = ms.map_or(String::new(), |ms| format!(" in {ms} ms"));
        match answer {
            Answer::Move(path) => match self.game.position().check(self.team, &path) {
                Err(e) => {
                    format!("roll call: {label} answered {path}{took}, an illegal move: {e}")
                }
                Ok(_) if ms.is_some_and(|ms| !plan.in_time(ms)) => format!(
                    "roll call: {label} answered {path}{took}, slower than the tick ({} ms): in a game it would time out",
                    self.settings.tick_ms
                ),
                Ok(_) => format!("roll call: {label} answered {path}{took}: ready"),
            },
            Answer::NoMove(why) => format!("roll call: {label}: {why} ({})", why.code()),
        }
    }
}

/// Writes `text` to `path` through a temporary file, so an interruption never leaves half a file, and
/// syncs it and its folder, so a power cut does not lose it either ([`durable`]).
fn write_atomically(path: &Path, text: &str) -> io::Result<()> {
    durable::write_atomically(path, text.as_bytes())
}

/// The files a tournament writes in `--out`, the same whether its games are played here
/// ([`play`]) or by a queue's workers ([`crate::queue_cmd`]): the bundle, each game's record, the
/// standings, the grades, and the table printed at the end.
pub(crate) struct OutFiles {
    dir: PathBuf,
    bundle: PathBuf,
    games: PathBuf,
}

/// A write to `path` that failed, naming it.
fn named(path: &Path, e: io::Error) -> Failure {
    Failure::Output(io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

impl OutFiles {
    /// The files of `dir`, its `games` folder made.
    pub(crate) fn open(dir: &Path) -> Result<OutFiles, Failure> {
        let games = dir.join("games");
        fs::create_dir_all(&games).map_err(|e| named(&games, e))?;
        Ok(OutFiles {
            dir: dir.to_path_buf(),
            bundle: dir.join("bundle.json"),
            games,
        })
    }

    /// Rewrites the bundle from `t`.
    pub(crate) fn bundle(&self, t: &Tournament) -> Result<(), Failure> {
        write_atomically(&self.bundle, &t.to_bundle()).map_err(|e| named(&self.bundle, e))
    }

    /// After a finished game: the bundle, and the game's record (`games/game-N.jsonl`).
    pub(crate) fn game(&self, t: &Tournament, r: &GameReport) -> io::Result<()> {
        write_atomically(&self.bundle, &t.to_bundle())?;
        self.record(t, r)
    }

    /// The record of `r` (`games/game-N.jsonl`), which the arena page's Load record replays.
    pub(crate) fn record(&self, t: &Tournament, r: &GameReport) -> io::Result<()> {
        let names = t.names();
        let labels = Teams::from_fn(|team: Team| names[r.fixture.entry(team)].clone());
        if let Ok(record) = r.record(t.settings(), labels) {
            durable::write_atomically(&self.record_path(r), record.as_bytes())?;
        }
        Ok(())
    }

    /// Where the record of `r` goes.
    pub(crate) fn record_path(&self, r: &GameReport) -> PathBuf {
        self.games
            .join(format!("game-{}.jsonl", r.fixture.number + 1))
    }

    /// At the end: `standings.csv` and `grades.csv`, and the table, the milestones and the
    /// withdrawals printed on `out`.
    pub(crate) fn finish(
        &self,
        tournament: &Tournament,
        out: &mut impl Write,
    ) -> Result<(), Failure> {
        let names = tournament.names();
        let table = Table::of(tournament).map_err(|e| Failure::Internal(e.to_string()))?;
        let csv = self.dir.join("standings.csv");
        write_atomically(&csv, &table.to_csv()).map_err(|e| named(&csv, e))?;
        let grades_csv =
            grades::to_csv(tournament).map_err(|e| Failure::Internal(e.to_string()))?;
        let grades_path = self.dir.join("grades.csv");
        write_atomically(&grades_path, &grades_csv).map_err(|e| named(&grades_path, e))?;
        out.write_all(printable(&table.to_text()).as_bytes())
            .map_err(Failure::Output)?;
        for row in grades::grades(tournament).map_err(|e| Failure::Internal(e.to_string()))? {
            if !row.milestones.is_empty() {
                let passed: Vec<String> = row
                    .milestones
                    .iter()
                    .filter(|m| m.passed)
                    .map(|m| m.milestone.bot.to_string())
                    .collect();
                let line = format!(
                    "milestones: {}: {} of {} passed{}",
                    row.name,
                    passed.len(),
                    row.milestones.len(),
                    match passed.is_empty() {
                        true => String::new(),
                        false => format!(" ({})", passed.join(", ")),
                    }
                );
                writeln!(out, "{}", printable(&line)).map_err(Failure::Output)?;
            }
        }
        for w in tournament.withdrawals() {
            let line = format!("withdrawn: {}: {}", names[w.entry], w.cause);
            writeln!(out, "{}", printable(&line)).map_err(Failure::Output)?;
        }
        writeln!(
            out,
            "{} games; files in {}",
            tournament.finished_count(),
            self.dir.display()
        )
        .map_err(Failure::Output)
    }
}

/// The lines a finished game prints on stderr: the game with `--verbose`, and the withdrawals it
/// caused.
pub(crate) fn tell_game(
    progress: &mut Progress,
    verbose: bool,
    names: &[String],
    r: &GameReport,
    withdrawals: &[Withdrawal],
) {
    if verbose {
        progress.clear();
        let line = format!(
            "game {} (round {}): {} (red) vs {} (blue): {}, {} ticks",
            r.fixture.number + 1,
            r.fixture.round + 1,
            names[r.fixture.red],
            names[r.fixture.blue],
            r.played.ending,
            r.played.ticks
        );
        eprintln!("{}", printable(&line));
    }
    for w in withdrawals {
        progress.clear();
        let line = format!("withdrawn: {}: {}", names[w.entry], w.cause);
        eprintln!("{}", printable(&line));
    }
}

/// Plays the tournament and prints its table on `out`.
pub fn run(args: &TournamentArgs, out: &mut impl Write) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    let input = read_roster(&args.roster)?;
    check_consent(&input.roster, args.allow_programs)?;
    let code = gridarena_cli::code::roster_code(&input.roster);
    gridarena_cli::code::announce(&code, args.unconfined_code).map_err(Failure::Input)?;
    let mut tournament = open(args, input)?;
    // The tournament's own clock, which a resumed bundle keeps, whatever --clock says now.
    let clock = clock_of(tournament.settings());
    roll_call(&tournament, clock)?;
    let files = OutFiles::open(&args.out)?;
    files.bundle(&tournament)?;
    let verbose = args.verbose;
    match &args.queue {
        Some(url) => crate::queue_cmd::coordinate(url, &mut tournament, &files, verbose)?,
        None => {
            let mut progress = Progress::new(true);
            let names = tournament.names();
            play(&mut tournament, clock, |done: Finished<'_>| {
                let t = done.tournament;
                let r = done.report;
                files.game(t, r)?;
                tell_game(&mut progress, verbose, &names, r, done.withdrawals);
                let running = t.running().len();
                progress.draw(
                    t.finished_count() as u64,
                    t.total_games() as u64,
                    &format!(
                        "games  round {}  {running} playing",
                        t.current_round().map_or(0, |r| r + 1)
                    ),
                );
                Ok(())
            })
            .map_err(|e| match e {
                gridarena_cli::runner::RunError::Output(e) => Failure::Output(e),
                gridarena_cli::runner::RunError::Internal(why) => Failure::Internal(why),
            })?;
            progress.clear();
        }
    }
    files.finish(&tournament, out)?;
    Ok(ExitCode::SUCCESS)
}
