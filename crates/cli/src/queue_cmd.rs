//! A tournament played by many machines: `gridarena halma tournament ROSTER --queue URL` coordinates
//! ([`coordinate`]: releases the games the engine's [`Tournament`] says to start, takes each result
//! the workers write back, pairs each Swiss round when the last one is in, writes `--out` as the
//! in-process tournament does) and `gridarena halma worker URL` ([`work`]) plays the games, any number
//! of them on any machines. The queue itself is [`gridarena_cli::queue`].

use crate::io::Failure;
use crate::progress::Progress;
use crate::tournament_cmd::{tell_game, OutFiles};
use gridarena_cli::queue::{self, sql, Claim, Counts, Db};
use gridarena_cli::runner::{parse_player, RunError};
use gridarena_cli::terminal::printable;
use gridarena_cli::tournament::{clock_of, play_one};
use gridarena_engine::halma::AiPlayer;
use gridarena_engine::tournament::event::{Tournament, TournamentError, Withdrawal};
use gridarena_engine::tournament::game::{Fixture, GameReport};
use gridarena_engine::tournament::roster::Roster;
use gridarena_engine::tournament::settings::{Settings, MAX_CONCURRENCY};
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError, TryLockError};
use std::thread;
use std::time::{Duration, Instant};

/// How often the coordinator looks for results.
const POLL: Duration = Duration::from_millis(200);
/// How often the coordinator's progress line is printed while something changes.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);
/// How often the coordinator writes `bundle.json` while games finish (and at each round's end and
/// the last game): the queue holds every result, so the bundle is a view, not what a resume needs, and
/// rewriting it after every game costs a course of 500 entries (its code alone 8 MB) gigabytes.
const BUNDLE_EVERY: Duration = Duration::from_secs(30);

/// `url` without its password, for messages.
fn shown_url(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let auth = &url[s + 3..at];
            match auth.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The coordinator's session lock on the tournament, taken again after the connection was opened
/// anew (the old session's lock went with it).
struct Lock {
    id: String,
    held_on: Option<u64>,
}

impl Lock {
    fn keep(&mut self, db: &mut Db) -> Result<(), Failure> {
        loop {
            if self.held_on.is_some() && self.held_on == Some(db.generation()) && db.connected() {
                return Ok(());
            }
            let (id, session) = (self.id.clone(), db.session().to_string());
            let got = db.retrying("coordinator", async |c| {
                sql::try_lock(c, &id, &session).await
            })?;
            if !got {
                return Err(Failure::Input(format!(
                    "another coordinator is running tournament {} on this database (it holds its lock); \
                     only one may: stop it first, or wait for it to finish",
                    short(&self.id)
                )));
            }
            self.held_on = Some(db.generation());
        }
    }
}

/// A result the queue holds, taken into `t`: the report and the withdrawals it caused. A result row
/// is written by a worker, which may be of another version or broken, so everything is checked;
/// `Err` says why the row cannot be used (not a game report; the report of another game; a game
/// not scheduled so). What a well-formed report of the right game says happened is taken as the
/// worker played it. A second report of a game taken already is taken as nothing new.
fn take(t: &mut Tournament, d: &queue::Done) -> Result<(GameReport, Vec<Withdrawal>), String> {
    let report: GameReport =
        serde_json::from_str(&d.result).map_err(|e| format!("it is not a game report: {e}"))?;
    if usize::try_from(d.number).ok() != Some(report.fixture.number) {
        return Err(format!(
            "it is the report of game {}",
            report.fixture.number.saturating_add(1)
        ));
    }
    match t.finish(report.clone()) {
        Ok(withdrawals) => Ok((report, withdrawals)),
        Err(TournamentError::AlreadyFinished { .. }) => Ok((report, Vec::new())),
        Err(TournamentError::UnknownGame { .. }) => Err(
            "its game (players, colours, seed or round) is not the one this tournament scheduled"
                .to_string(),
        ),
        Err(e) => Err(e.to_string()),
    }
}

/// Puts game `d` back on the queue after [`take`] refused its result, saying which game, who wrote
/// it and why: the tournament goes on, and the game counts once, when it is played properly. Its
/// fixture is written again from `t`'s schedule, in case the row's was what was wrong.
fn requeue(
    db: &mut Db,
    t: &Tournament,
    id: &str,
    d: &queue::Done,
    why: &str,
) -> Result<(), Failure> {
    let number = d.number;
    let fixture = usize::try_from(number)
        .ok()
        .and_then(|n| t.fixtures().get(n))
        .and_then(|f| serde_json::to_string(f).ok());
    let again = db.retrying("coordinator", async |c| {
        sql::requeue(c, id, number, fixture.as_deref()).await
    })?;
    eprintln!(
        "{}",
        printable(&format!(
            "coordinator: the result of game {} written by {} cannot be used: {why}; {}",
            i64::from(number) + 1,
            d.done_by,
            if again {
                "the game is queued to be played again (a worker of another version, or a damaged row?)"
            } else {
                "it was changed meanwhile, and is read again"
            }
        ))
    );
    Ok(())
}

/// The games `fixtures` as the queue stores them.
fn releases(fixtures: &[Fixture]) -> Vec<(i32, i32, String)> {
    fixtures
        .iter()
        .map(|f| {
            (
                f.number as i32,
                f.round as i32,
                serde_json::to_string(f).unwrap_or_default(),
            )
        })
        .collect()
}

/// Plays `tournament` on the queue at `url`: stores it (or finds it, resuming), releases the games
/// its engine says to start, takes each result in, and writes `files` as the in-process tournament
/// does. Returns when every game is in; `tournament` is then the finished one.
pub fn coordinate(
    url: &str,
    tournament: &mut Tournament,
    files: &OutFiles,
    verbose: bool,
) -> Result<(), Failure> {
    let who = "coordinator";
    let roster_json = tournament.roster().to_json();
    queue::check_roster_size(roster_json.len()).map_err(Failure::Input)?;
    let settings_json = serde_json::to_string(tournament.settings())
        .map_err(|e| Failure::Internal(format!("the settings as JSON: {e}")))?;
    let id = queue::tournament_id(&roster_json, &settings_json);
    let mut db = Db::new(url).map_err(Failure::Input)?;
    let mut lock = Lock {
        id: id.clone(),
        held_on: None,
    };
    lock.keep(&mut db)?;
    let created = db.retrying(who, async |c| {
        sql::create_tournament(c, &id, &roster_json, &settings_json).await
    })?;
    if created {
        // A tournament begun without the queue (its bundle in --out, or the page's export): its
        // games played so far come along, in the order they finished.
        let played: Vec<_> = tournament
            .finished()
            .filter(|r| r.played.ending.was_played())
            .map(|r| {
                let f = r.fixture;
                (
                    f.number as i32,
                    f.round as i32,
                    serde_json::to_string(&f).unwrap_or_default(),
                    serde_json::to_string(r).unwrap_or_default(),
                )
            })
            .collect();
        if !played.is_empty() {
            db.retrying(who, async |c| sql::import_done(c, &id, &played).await)?;
        }
    }
    eprintln!(
        "queue: tournament {} on {} ({}); start workers with: gridarena halma worker URL",
        short(&id),
        shown_url(url),
        if created { "new" } else { "resumed" }
    );
    // The tournament again from the queue, which holds every result (the bundle is written after).
    let mut t = Tournament::new(tournament.roster().clone(), tournament.settings().clone())
        .map_err(|e| Failure::Internal(e.to_string()))?;
    let done = db.retrying(who, async |c| sql::done(c, &id, false).await)?;
    let mut applied = 0i32;
    for d in &done {
        if let Err(why) = take(&mut t, d) {
            if d.applied.is_none() {
                requeue(&mut db, &t, &id, d, &why)?;
                continue;
            }
            // Taken before, and the games after it were paired on it: there is no playing it
            // again without playing those again too.
            return Err(Failure::Input(
                printable(&format!(
                "the result of game {} (written by {}), which this tournament took as its result \
                 number {}, cannot be used any more: {why}. The queue was changed after the \
                 coordinator took it, and later games depend on it; put the result back, or delete \
                 the tournament (DELETE FROM tq_tournaments WHERE id = '{id}') and play it again",
                i64::from(d.number) + 1,
                d.done_by,
                d.applied.map_or(0, i64::from) + 1
            ))
                .into_owned(),
            ));
        }
        if d.applied.is_none() {
            let number = d.number;
            db.retrying(who, async |c| sql::applied(c, &id, number, applied).await)?;
        }
        applied += 1;
        t.next_games();
    }
    // What the engine has running is what the queue must hold (a game released before a kill is
    // there already).
    t.next_games();
    let running = releases(&t.running());
    db.retrying(who, async |c| sql::release(c, &id, &running).await)?;
    files.bundle(&t)?;
    for r in t.finished() {
        if !files.record_path(r).exists() {
            files.record(&t, r).map_err(Failure::Output)?;
        }
    }
    if !done.is_empty() {
        eprintln!(
            "resuming: {} of {} games already played (the queue)",
            t.finished_count(),
            t.total_games()
        );
    }
    *tournament = t;
    let t = tournament;
    let names = t.names();
    let mut progress = Progress::new(false);
    let mut last_line = (String::new(), Instant::now());
    let mut counted: Option<Instant> = None;
    let (mut bundled, mut bundled_round) = (Instant::now(), t.current_round());
    while !t.is_over() {
        lock.keep(&mut db)?;
        let fresh = db.retrying(who, async |c| sql::done(c, &id, true).await)?;
        for d in &fresh {
            let (report, withdrawals) = match take(t, d) {
                Ok(taken) => taken,
                Err(why) => {
                    requeue(&mut db, t, &id, d, &why)?;
                    continue;
                }
            };
            let number = d.number;
            db.retrying(who, async |c| sql::applied(c, &id, number, applied).await)?;
            applied += 1;
            files.record(t, &report).map_err(Failure::Output)?;
            let round = t.current_round();
            if bundled.elapsed() >= BUNDLE_EVERY || round != bundled_round || t.is_over() {
                files.bundle(t)?;
                (bundled, bundled_round) = (Instant::now(), round);
            }
            tell_game(&mut progress, verbose, &names, &report, &withdrawals);
            let next = releases(&t.next_games());
            if !next.is_empty() {
                db.retrying(who, async |c| sql::release(c, &id, &next).await)?;
            }
        }
        if t.is_over() {
            break;
        }
        // The counts go over every game and worker: asked only as often as a line may be printed,
        // while the results are looked for at every poll.
        if counted.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY) {
            counted = Some(Instant::now());
            let counts = db.retrying(who, async |c| sql::counts(c, &id).await)?;
            let line = progress_line(t, &counts);
            if line != last_line.0 || last_line.1.elapsed() >= PROGRESS_EVERY * 15 {
                eprintln!("{}", printable(&line));
                last_line = (line, Instant::now());
            }
        }
        thread::sleep(POLL);
    }
    db.retrying(who, async |c| sql::finish_tournament(c, &id).await)?;
    eprintln!("queue: tournament {} played to its end", short(&id));
    Ok(())
}

/// The coordinator's progress: games done, in play, waiting; each worker; the expected end.
fn progress_line(t: &Tournament, c: &Counts) -> String {
    let total = t.total_games();
    let left = total.saturating_sub(t.finished_count());
    let busy = c.workers.iter().filter(|w| w.3.is_some()).count().max(1);
    let end = c
        .mean_game_s
        .map(|mean| {
            let rounds_of_games = (left as f64 / busy as f64).ceil();
            format!("; expected end in {:.0} s", rounds_of_games * mean)
        })
        .unwrap_or_default();
    let workers: Vec<String> = c
        .workers
        .iter()
        .map(|(name, host, done, playing)| {
            let at = if name.contains(host.as_str()) {
                String::new()
            } else {
                format!("@{host}")
            };
            match playing {
                Some(n) => format!("{name}{at} {done} done, plays game {}", n + 1),
                None => format!("{name}{at} {done} done"),
            }
        })
        .collect();
    format!(
        "queue: {} of {total} games done, {} in play, {} waiting, round {}; workers: {}{end}",
        t.finished_count(),
        c.playing,
        c.queued,
        t.current_round().map_or(0, |r| r + 1),
        if workers.is_empty() {
            format!(
                "none heard from in the last {} s",
                queue::HEARD_WITHIN.as_secs()
            )
        } else {
            workers.join(", ")
        }
    )
}

pub const WORKER_ABOUT: &str = "\
Play the games of tournaments queued in PostgreSQL by `gridarena halma tournament ROSTER --queue URL`,
on this machine, until stopped: claim a game, play it exactly as the in-process tournament does (the
same match, players and seeds), write its result, and take the next. Any number of workers may run, on
any machines that reach the database; they need no shared disk (the roster, its code included, is in
the database, checked by its SHA-256 before any game).

A worker holds its game on a lease (--lease-s), renewed while it plays: a worker killed mid-game loses
nothing, the game is played again by another once the lease runs out, and counted once. A result
written after the lease was lost is refused and said so. While the database is unreachable the worker
says so and tries again with a growing wait.";

#[derive(Debug, clap::Args)]
pub struct WorkerArgs {
    /// The queue's database: postgres://user:password@host:port/db (or ?host=/socket/dir)
    #[arg(value_name = "URL")]
    url: String,
    /// This worker's name in the coordinator's progress [default: HOST:PID]
    #[arg(long)]
    name: Option<String>,
    /// Seconds a claimed game stays this worker's without a renewal (renewed every third of it while
    /// the game plays); a killed worker's game is played elsewhere after this long
    #[arg(long, value_name = "S", default_value_t = 60.0, value_parser = lease_parser)]
    lease_s: f64,
    /// Milliseconds between looks at the queue while there is nothing to play
    #[arg(long, value_name = "MS", default_value_t = 1000,
        value_parser = clap::value_parser!(u64).range(10..=60_000))]
    poll_ms: u64,
    /// Stop after this many seconds with nothing to play [default: never]
    #[arg(long, value_name = "S")]
    idle_exit: Option<f64>,
    /// Games this worker plays at once, each on a lease of its own (a game of two course entries
    /// keeps about one core busy: a machine's cores is a good number)
    #[arg(long, value_name = "N", default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_CONCURRENCY)))]
    jobs: u32,
    /// Run tournaments' program entries (commands on this machine); without it a tournament with one
    /// is refused and its game given back
    #[arg(long)]
    allow_programs: bool,
    /// Run code entries even where this machine cannot confine them (only for code you trust)
    #[arg(long)]
    unconfined_code: bool,
}

fn lease_parser(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(s) if (0.5..=3600.0).contains(&s) => Ok(s),
        _ => Err("a number of seconds from 0.5 to 3600".to_string()),
    }
}

/// What a worker needs of a tournament to play its games.
struct Prepared {
    tournament: Tournament,
}

/// This machine's name.
fn host_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    match ok {
        true if end > 0 => String::from_utf8_lossy(&buf[..end]).into_owned(),
        _ => "unknown-host".to_string(),
    }
}

/// The tournament `id` as the queue holds it, checked: its roster and settings are what its id
/// (their SHA-256) says, each code entry's files match its own hash, and this worker may run it.
fn prepare(db: &mut Db, id: &str, args: &WorkerArgs) -> Result<Prepared, String> {
    let held = db
        .retrying("worker", async |c| sql::tournament(c, id).await)
        .map_err(|e| e.to_string())?;
    let Some((roster_json, settings_json)) = held else {
        return Err("it is not in the queue any more".to_string());
    };
    if queue::tournament_id(&roster_json, &settings_json) != id {
        return Err(
            "its roster or settings in the database do not match their SHA-256 (its id): changed or \
             damaged since the coordinator stored them"
                .to_string(),
        );
    }
    let roster = Roster::parse(&roster_json).map_err(|e| format!("its roster: {e}"))?;
    let settings: Settings =
        serde_json::from_str(&settings_json).map_err(|e| format!("its settings: {e}"))?;
    let programs: Vec<String> = roster
        .entries
        .iter()
        .filter_map(|e| match parse_player(&e.player) {
            Ok(AiPlayer::Program(p)) => Some(format!(
                "  {}: `{}` in the folder {}",
                printable(&e.name),
                printable(&p.command),
                printable(&p.dir)
            )),
            _ => None,
        })
        .collect();
    if !programs.is_empty() && !args.allow_programs {
        return Err(format!(
            "it has program entries, each a command this machine would run:\n{}\n\
             Nothing was run. If you trust them, start the worker with --allow-programs.",
            programs.join("\n")
        ));
    }
    let code = gridarena_cli::code::roster_code(&roster);
    gridarena_cli::code::announce(&code, args.unconfined_code)?;
    let tournament = Tournament::new(roster, settings).map_err(|e| e.to_string())?;
    Ok(Prepared { tournament })
}

/// The fixture `claim` holds, checked against `t` before anything indexes by it: its number is the
/// claim's, its entries are among the tournament's players, and a game scheduled from the start
/// (every game of a round robin, a Swiss tournament's first round) is the one scheduled. The row is
/// not covered by the tournament's id, and a worker of another version may read it otherwise.
fn fixture_of(t: &Tournament, claim: &Claim) -> Result<Fixture, String> {
    let fixture: Fixture = serde_json::from_str(&claim.fixture)
        .map_err(|e| format!("is not a game this worker reads: {e}"))?;
    if usize::try_from(claim.number).ok() != Some(fixture.number) {
        return Err(format!(
            "holds the fixture of game {}",
            fixture.number.saturating_add(1)
        ));
    }
    let entries = t.names().len();
    if fixture.red >= entries || fixture.blue >= entries {
        return Err(format!(
            "names entries {} and {} of a roster of {entries}",
            fixture.red, fixture.blue
        ));
    }
    match t.fixtures().get(fixture.number) {
        Some(scheduled) if *scheduled != fixture => {
            Err("is not the game the tournament scheduled".to_string())
        }
        _ => Ok(fixture),
    }
}

/// Renews `claim`'s lease every third of it, and at least every [`queue::HEARTBEAT`] (the renewal
/// says the worker is alive too), until told to stop; sets `lost` when the lease is gone.
fn renew_lease(
    who: &str,
    url: &str,
    claim: Claim,
    lease_s: f64,
    lost: Arc<AtomicBool>,
    stop: mpsc::Receiver<()>,
) {
    let Ok(mut db) = Db::new(url) else { return };
    let every = Duration::from_secs_f64(lease_s / 3.0).min(queue::HEARTBEAT);
    let mut said = false;
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(every) {
        match db.call(async |c| sql::renew(c, &claim, lease_s).await) {
            Ok(true) => said = false,
            Ok(false) => {
                eprintln!(
                    "{who}: the lease of game {} was lost (it ran out, or another worker holds it): \
                     its result will be refused",
                    claim.number + 1
                );
                lost.store(true, Ordering::Relaxed);
                return;
            }
            Err(e) if !said => {
                eprintln!(
                    "{who}: cannot renew the lease of game {}: {e}; trying again",
                    claim.number + 1
                );
                said = true;
            }
            Err(_) => {}
        }
    }
}

/// What a worker's claims and its stop hook share: the hook sets `stopping` and then takes
/// `claiming`, which the worker holds from before it looks at `stopping` until its claim is stored
/// in the database, so a game claimed as the signal comes is given back too, not left to its lease.
#[derive(Clone, Default)]
struct Stopping {
    stopping: Arc<AtomicBool>,
    claiming: Arc<Mutex<()>>,
}

impl Stopping {
    /// Has a SIGINT, SIGTERM or SIGHUP give every game of `owners` back at once and take the
    /// worker off the progress line, saying so, before the process exits (a worker preempted by
    /// Slurm or stopped with Ctrl-C frees its game for another worker now, rather than after its
    /// lease). Bounded: 2 s for a claim in progress, 5 s for the database; past that, the game is
    /// played again when its lease runs out, as after a kill.
    fn give_back_on_signal(&self, url: &str, owners: Vec<String>, name: &str) {
        let (this, url, name) = (self.clone(), url.to_string(), name.to_string());
        gridarena_cli::program::before_exit_on_signal(move |signal| {
            this.stopping.store(true, Ordering::SeqCst);
            let deadline = Instant::now() + Duration::from_secs(2);
            let _no_claim = loop {
                match this.claiming.try_lock() {
                    Ok(held) => break Some(held),
                    Err(TryLockError::Poisoned(held)) => break Some(held.into_inner()),
                    Err(TryLockError::WouldBlock) if Instant::now() < deadline => {
                        thread::sleep(Duration::from_millis(10));
                    }
                    Err(TryLockError::WouldBlock) => break None,
                }
            };
            let signal = gridarena_cli::program::signal_name(signal);
            let given = Db::new(&url).and_then(|mut db| {
                db.set_timeout(Duration::from_secs(5));
                db.call(async |c| sql::stop_worker(c, &owners).await)
                    .map_err(|e| e.to_string())
            });
            let line = match given {
                Ok(games) if games.is_empty() => {
                    format!("worker {name}: stopped by {signal}; it held no game")
                }
                Ok(games) => {
                    let games: Vec<String> = games
                        .iter()
                        .map(|(t, n)| {
                            format!("game {} of tournament {}", i64::from(*n) + 1, short(t))
                        })
                        .collect();
                    format!(
                        "worker {name}: stopped by {signal}; {} given back to the queue, for another \
                         worker to play now",
                        games.join(", ")
                    )
                }
                Err(why) => format!(
                    "worker {name}: stopped by {signal}; its game, if any, could not be given back \
                     ({why}): another worker plays it once its lease runs out"
                ),
            };
            eprintln!("{}", printable(&line));
        });
    }

    /// Runs `claim` unless the worker is stopping; when it is, waits for the stop hook to end the
    /// process.
    fn claim<T>(&self, claim: impl FnOnce() -> T) -> T {
        let claiming = self.claiming.lock().unwrap_or_else(PoisonError::into_inner);
        if self.stopping.load(Ordering::SeqCst) {
            drop(claiming);
            // The hook runs on the signal's thread and exits the process when it is done.
            loop {
                thread::park();
            }
        }
        claim()
    }
}

/// A tournament's id as messages show it: its first 12 characters.
fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// `gridarena halma worker URL`: plays queued games until stopped (or idle for --idle-exit), up to
/// --jobs at once.
pub fn work(args: &WorkerArgs) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    // A worker may be handed code entries at any time: refuse at once where they cannot be confined.
    for line in gridarena_cli::code::sandbox::Isolation::get()
        .check(args.unconfined_code)
        .map_err(|e| Failure::Input(format!("this worker would run students' code: {e}")))?
    {
        eprintln!("{line}");
    }
    // Checked before any job starts: a URL that cannot be a database's is the caller's mistake.
    Db::new(&args.url).map_err(Failure::Input)?;
    let host = host_name();
    let pid = std::process::id();
    let name = args.name.clone().unwrap_or_else(|| format!("{host}:{pid}"));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let jobs: Vec<Job> = (1..=args.jobs)
        .map(|k| {
            let name = match args.jobs {
                1 => name.clone(),
                _ => format!("{name}/{k}"),
            };
            // The lease's owner: unique to this process and job, so a restarted worker never holds
            // its old leases.
            let owner = format!("{name}#{pid}.{nanos:x}");
            Job { name, owner }
        })
        .collect();
    let shared = Shared {
        host,
        stopping: Stopping::default(),
        failed: AtomicBool::new(false),
        tournaments: Mutex::new(HashMap::new()),
        refused: Mutex::new(Vec::new()),
    };
    let owners = jobs.iter().map(|j| j.owner.clone()).collect();
    shared
        .stopping
        .give_back_on_signal(&args.url, owners, &name);
    eprintln!(
        "worker {name}: on {}, lease {} s{}",
        shown_url(&args.url),
        args.lease_s,
        match args.jobs {
            1 => String::new(),
            n => format!(", {n} games at once"),
        }
    );
    let ended: Vec<Result<(), Failure>> = thread::scope(|scope| {
        let running: Vec<_> = jobs
            .iter()
            .map(|job| scope.spawn(|| play_games(args, &shared, job)))
            .collect();
        running
            .into_iter()
            .map(|r| {
                r.join().unwrap_or_else(|_| {
                    Err(Failure::Internal(
                        "a job's thread stopped unexpectedly".to_string(),
                    ))
                })
            })
            .collect()
    });
    match ended.into_iter().find_map(Result::err) {
        Some(failure) => Err(failure),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// One of a worker's --jobs: its name on the progress line and its leases' owner.
struct Job {
    name: String,
    owner: String,
}

/// What a worker's jobs share.
struct Shared {
    host: String,
    stopping: Stopping,
    /// Set when a job ended with an error: the others finish their games and stop, and the worker
    /// exits saying why.
    failed: AtomicBool,
    /// The tournaments fetched and checked, once for all jobs (a roster may be tens of MiB).
    tournaments: Mutex<HashMap<String, Arc<Prepared>>>,
    /// Tournaments this worker will not play (changed in the database, or with programs it may not
    /// run): said once, and left to other workers, while it goes on with the others.
    refused: Mutex<Vec<String>>,
}

impl Shared {
    fn refuse(&self, tournament: &str) {
        lock(&self.tournaments).remove(tournament);
        lock(&self.refused).push(tournament.to_string());
    }
}

/// A mutex's data; a job that panicked holding it left nothing half-written that matters here.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// One job's loop: claims a game, plays it, writes its result, until idle for --idle-exit or
/// another job failed. An error gives its game back and stops the worker.
fn play_games(args: &WorkerArgs, shared: &Shared, job: &Job) -> Result<(), Failure> {
    let ended = play_games_until_error(args, shared, job);
    if ended.is_err() {
        shared.failed.store(true, Ordering::SeqCst);
    }
    ended
}

fn play_games_until_error(args: &WorkerArgs, shared: &Shared, job: &Job) -> Result<(), Failure> {
    let Job { name, owner } = job;
    let host = &shared.host;
    let mut db = Db::new(&args.url).map_err(Failure::Input)?;
    let who = format!("worker {name}");
    db.retrying(&who, async |c| sql::seen(c, owner, name, host, None).await)?;
    let mut idle_since = Instant::now();
    // An idle worker looks at the queue every --poll-ms but says it is alive every HEARTBEAT only:
    // a hundred idle workers polling each second would otherwise write a row a hundred times a second.
    let mut heard = Instant::now();
    let mut played = 0u64;
    loop {
        if shared.failed.load(Ordering::SeqCst) {
            let owners = [owner.clone()];
            db.retrying(&who, async |c| sql::stop_worker(c, &owners).await)?;
            return Ok(());
        }
        let lease = args.lease_s;
        let refused = lock(&shared.refused).clone();
        let claim = shared
            .stopping
            .claim(|| db.retrying(&who, async |c| sql::claim(c, owner, lease, &refused).await))?;
        let Some(claim) = claim else {
            if args
                .idle_exit
                .is_some_and(|s| idle_since.elapsed().as_secs_f64() >= s)
            {
                let owners = [owner.clone()];
                db.retrying(&who, async |c| sql::stop_worker(c, &owners).await)?;
                eprintln!("worker {name}: nothing to play; {played} games played, stopping");
                return Ok(());
            }
            if heard.elapsed() >= queue::HEARTBEAT {
                db.retrying(&who, async |c| sql::seen(c, owner, name, host, None).await)?;
                heard = Instant::now();
            }
            thread::sleep(Duration::from_millis(args.poll_ms));
            continue;
        };
        let prepared = {
            let mut tournaments = lock(&shared.tournaments);
            match tournaments.get(&claim.tournament) {
                Some(p) => Ok(Arc::clone(p)),
                None => prepare(&mut db, &claim.tournament, args).map(|p| {
                    let p = Arc::new(p);
                    tournaments.insert(claim.tournament.clone(), Arc::clone(&p));
                    p
                }),
            }
        };
        let prepared = match prepared {
            Ok(p) => p,
            Err(why) => {
                db.retrying(&who, async |c| sql::give_back(c, &claim).await)?;
                eprintln!(
                    "{}",
                    printable(&format!(
                        "worker {name}: refuses tournament {}: {why}\n(its game {} was given back \
                         to the queue; this worker plays none of its games, and goes on with \
                         other tournaments)",
                        short(&claim.tournament),
                        i64::from(claim.number) + 1
                    ))
                );
                shared.refuse(&claim.tournament);
                continue;
            }
        };
        let t = &prepared.tournament;
        let fixture = match fixture_of(t, &claim) {
            Ok(fixture) => fixture,
            Err(why) => {
                db.retrying(&who, async |c| sql::give_back(c, &claim).await)?;
                eprintln!(
                    "{}",
                    printable(&format!(
                        "worker {name}: refuses tournament {}: game {} in the queue {why} (a \
                         coordinator of another version, or a damaged row?); the game was given back, \
                         and this worker plays none of the tournament's games",
                        short(&claim.tournament),
                        i64::from(claim.number) + 1
                    ))
                );
                shared.refuse(&claim.tournament);
                continue;
            }
        };
        let names = t.names();
        eprintln!(
            "{}",
            printable(&format!(
                "worker {name}: game {} (round {}): {} (red) vs {} (blue){}",
                fixture.number + 1,
                fixture.round.saturating_add(1),
                names[fixture.red],
                names[fixture.blue],
                if claim.attempt > 1 {
                    format!(", attempt {}", claim.attempt)
                } else {
                    String::new()
                }
            ))
        );
        let lost = Arc::new(AtomicBool::new(false));
        let (stop, stopped) = mpsc::channel();
        let renewal = {
            let (who, url) = (who.clone(), args.url.clone());
            let (claim, lost) = (claim.clone(), Arc::clone(&lost));
            thread::spawn(move || renew_lease(&who, &url, claim, lease, lost, stopped))
        };
        let report = play_one(t, fixture, clock_of(t.settings())).play();
        let _ = stop.send(());
        let _ = renewal.join();
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                db.retrying(&who, async |c| sql::give_back(c, &claim).await)?;
                return Err(match e {
                    RunError::Output(e) => Failure::Output(e),
                    RunError::Internal(why) => Failure::Internal(format!(
                        "game {}: {why} (given back to the queue)",
                        fixture.number + 1
                    )),
                });
            }
        };
        let text = serde_json::to_string(&report)
            .map_err(|e| Failure::Internal(format!("the report as JSON: {e}")))?;
        match db.retrying(&who, async |c| sql::submit(c, &claim, &text).await)? {
            Ok(()) => {
                played += 1;
                eprintln!(
                    "worker {name}: game {}: {}, {} ticks",
                    fixture.number + 1,
                    report.played.ending,
                    report.played.ticks
                );
            }
            Err(refusal) => eprintln!(
                "worker {name}: the result of game {} was refused: {refusal}; it is discarded (the \
                 game counts once, as its lease's holder plays it)",
                fixture.number + 1
            ),
        }
        idle_since = Instant::now();
        heard = Instant::now();
    }
}
