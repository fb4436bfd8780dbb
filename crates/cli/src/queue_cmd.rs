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
use gridarena_engine::tournament::event::{Tournament, TournamentError};
use gridarena_engine::tournament::game::{Fixture, GameReport};
use gridarena_engine::tournament::roster::Roster;
use gridarena_engine::tournament::settings::Settings;
use std::collections::HashMap;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread;
use std::time::{Duration, Instant};

/// How often the coordinator looks for results.
const POLL: Duration = Duration::from_millis(200);
/// How often the coordinator's progress line is printed while something changes.
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

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
            let id = self.id.clone();
            let got = db.retrying("coordinator", async |c| sql::try_lock(c, &id).await)?;
            if !got {
                return Err(Failure::Input(format!(
                    "another coordinator is running tournament {} on this database (it holds its lock); \
                     only one may: stop it first, or wait for it to finish",
                    &self.id[..12]
                )));
            }
            self.held_on = Some(db.generation());
        }
    }
}

/// A report the queue holds, read back.
fn report_of(number: i32, text: &str) -> Result<GameReport, Failure> {
    serde_json::from_str(text).map_err(|e| {
        Failure::Internal(format!(
            "the queue's result of game {} is not a game report: {e}",
            number + 1
        ))
    })
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
        &id[..12],
        shown_url(url),
        if created { "new" } else { "resumed" }
    );
    // The tournament again from the queue, which holds every result (the bundle is written after).
    let mut t = Tournament::new(tournament.roster().clone(), tournament.settings().clone())
        .map_err(|e| Failure::Internal(e.to_string()))?;
    let done = db.retrying(who, async |c| sql::done(c, &id, false).await)?;
    let mut applied = 0i32;
    for d in &done {
        let report = report_of(d.number, &d.result)?;
        match t.finish(report) {
            Ok(_) | Err(TournamentError::AlreadyFinished { .. }) => {}
            Err(e) => return Err(Failure::Internal(e.to_string())),
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
    let mut last_line = (String::new(), Instant::now() - PROGRESS_EVERY);
    while !t.is_over() {
        lock.keep(&mut db)?;
        let fresh = db.retrying(who, async |c| sql::done(c, &id, true).await)?;
        for d in &fresh {
            let report = report_of(d.number, &d.result)?;
            let withdrawals = match t.finish(report.clone()) {
                Ok(w) => w,
                // Taken already (a worker wrote it twice? the queue refuses that; a bundle's game).
                Err(TournamentError::AlreadyFinished { .. }) => Vec::new(),
                Err(e) => return Err(Failure::Internal(e.to_string())),
            };
            let number = d.number;
            db.retrying(who, async |c| sql::applied(c, &id, number, applied).await)?;
            applied += 1;
            files.game(t, &report).map_err(Failure::Output)?;
            tell_game(&mut progress, verbose, &names, &report, &withdrawals);
            let next = releases(&t.next_games());
            if !next.is_empty() {
                db.retrying(who, async |c| sql::release(c, &id, &next).await)?;
            }
        }
        if t.is_over() {
            break;
        }
        let counts = db.retrying(who, async |c| sql::counts(c, &id).await)?;
        let line = progress_line(t, &counts);
        if line != last_line.0 && last_line.1.elapsed() >= PROGRESS_EVERY
            || last_line.1.elapsed() >= PROGRESS_EVERY * 15
        {
            eprintln!("{}", printable(&line));
            last_line = (line, Instant::now());
        }
        thread::sleep(POLL);
    }
    db.retrying(who, async |c| sql::finish_tournament(c, &id).await)?;
    eprintln!("queue: tournament {} played to its end", &id[..12]);
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
            "none seen in the last minute".to_string()
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
        return Err(format!("tournament {} is not in the queue", &id[..12]));
    };
    if queue::tournament_id(&roster_json, &settings_json) != id {
        return Err(format!(
            "tournament {}: its roster or settings in the database do not match their SHA-256 (its id): \
             changed or damaged since the coordinator stored them; nothing of it is played",
            &id[..12]
        ));
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
            "tournament {} has program entries, each a command this machine would run:\n{}\n\
             Nothing was run. If you trust them, start the worker with --allow-programs.",
            &id[..12],
            programs.join("\n")
        ));
    }
    let code = gridarena_cli::code::roster_code(&roster);
    gridarena_cli::code::announce(&code, args.unconfined_code)?;
    let tournament = Tournament::new(roster, settings).map_err(|e| e.to_string())?;
    Ok(Prepared { tournament })
}

/// Renews `claim`'s lease every third of it until told to stop; sets `lost` when the lease is gone.
fn renew_lease(
    url: &str,
    claim: Claim,
    lease_s: f64,
    lost: Arc<AtomicBool>,
    stop: mpsc::Receiver<()>,
) {
    let Ok(mut db) = Db::new(url) else { return };
    let every = Duration::from_secs_f64(lease_s / 3.0);
    let mut said = false;
    while let Err(mpsc::RecvTimeoutError::Timeout) = stop.recv_timeout(every) {
        match db.call(async |c| sql::renew(c, &claim, lease_s).await) {
            Ok(true) => said = false,
            Ok(false) => {
                eprintln!(
                    "worker: the lease of game {} was lost (it ran out, or another worker holds it): \
                     its result will be refused",
                    claim.number + 1
                );
                lost.store(true, Ordering::Relaxed);
                return;
            }
            Err(e) if !said => {
                eprintln!(
                    "worker: cannot renew the lease of game {}: {e}; trying again",
                    claim.number + 1
                );
                said = true;
            }
            Err(_) => {}
        }
    }
}

/// `gridarena halma worker URL`: plays queued games until stopped (or idle for --idle-exit).
pub fn work(args: &WorkerArgs) -> Result<ExitCode, Failure> {
    gridarena_cli::program::supervise().map_err(Failure::Internal)?;
    // A worker may be handed code entries at any time: refuse at once where they cannot be confined.
    for line in gridarena_cli::code::sandbox::Isolation::get()
        .check(args.unconfined_code)
        .map_err(|e| Failure::Input(format!("this worker would run students' code: {e}")))?
    {
        eprintln!("{line}");
    }
    let mut db = Db::new(&args.url).map_err(Failure::Input)?;
    let host = host_name();
    let pid = std::process::id();
    let name = args.name.clone().unwrap_or_else(|| format!("{host}:{pid}"));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    // The lease's owner: unique to this process, so a restarted worker never holds its old leases.
    let owner = format!("{name}#{pid}.{nanos:x}");
    let who = format!("worker {name}");
    db.retrying(&who, async |c| {
        sql::seen(c, &owner, &name, &host, None).await
    })?;
    eprintln!(
        "worker {name}: on {}, lease {} s",
        shown_url(&args.url),
        args.lease_s
    );
    let mut tournaments: HashMap<String, Prepared> = HashMap::new();
    let mut idle_since = Instant::now();
    let mut played = 0u64;
    loop {
        let lease = args.lease_s;
        let claim = db.retrying(&who, async |c| sql::claim(c, &owner, lease).await)?;
        let Some(claim) = claim else {
            if args
                .idle_exit
                .is_some_and(|s| idle_since.elapsed().as_secs_f64() >= s)
            {
                eprintln!("worker {name}: nothing to play; {played} games played, stopping");
                return Ok(ExitCode::SUCCESS);
            }
            db.retrying(&who, async |c| {
                sql::seen(c, &owner, &name, &host, None).await
            })?;
            thread::sleep(Duration::from_millis(args.poll_ms));
            continue;
        };
        if !tournaments.contains_key(&claim.tournament) {
            match prepare(&mut db, &claim.tournament, args) {
                Ok(p) => {
                    tournaments.insert(claim.tournament.clone(), p);
                }
                Err(why) => {
                    db.retrying(&who, async |c| sql::give_back(c, &claim).await)?;
                    return Err(Failure::Input(format!(
                        "worker {name}: {why}\n(the game was given back to the queue)"
                    )));
                }
            }
        }
        let t = &tournaments[&claim.tournament].tournament;
        let fixture: Fixture = serde_json::from_str(&claim.fixture).map_err(|e| {
            Failure::Internal(format!("game {} in the queue: {e}", claim.number + 1))
        })?;
        if fixture.number as i32 != claim.number {
            return Err(Failure::Internal(format!(
                "game {} in the queue holds the fixture of game {}",
                claim.number + 1,
                fixture.number + 1
            )));
        }
        let names = t.names();
        eprintln!(
            "{}",
            printable(&format!(
                "worker {name}: game {} (round {}): {} (red) vs {} (blue){}",
                fixture.number + 1,
                fixture.round + 1,
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
            let (url, claim, lost) = (args.url.clone(), claim.clone(), Arc::clone(&lost));
            thread::spawn(move || renew_lease(&url, claim, lease, lost, stopped))
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
    }
}
