//! However `gridarena` ends, the programs it started end with it and their folders go: a match stopped
//! with Ctrl-C (SIGINT), a tournament with SIGTERM, a bridge whose terminal closed (SIGHUP), and, as far
//! as the system allows, a gridarena killed outright (SIGKILL), whose folder the next run removes.
//!
//! The programs here never answer; each notes its processes and its folder in `$GRIDARENA_TEST_NOTES`.
#![cfg(unix)]

#[path = "support/timed.rs"]
mod timed;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Child;
use std::thread;
use std::time::{Duration, Instant};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/programs")
}

/// One interrupted run: its own temporary folder and notes file, and whatever the programs noted.
struct Case {
    tmp: PathBuf,
    notes: PathBuf,
}

impl Case {
    fn new(name: &str) -> Case {
        let tmp =
            std::env::temp_dir().join(format!("gridarena-interrupt-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(&tmp).expect("a scratch folder");
        let notes = tmp.join("notes.txt");
        Case { tmp, notes }
    }

    fn env(&self) -> [(String, String); 2] {
        [
            ("TMPDIR".to_string(), self.tmp.display().to_string()),
            (
                "GRIDARENA_TEST_NOTES".to_string(),
                self.notes.display().to_string(),
            ),
        ]
    }

    fn start(&self, args: &[&str]) -> Child {
        let env = self.env();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        timed::start(args, &env)
    }

    /// Waits until `programs` programs have noted themselves.
    fn wait_for_programs(&self, programs: usize, child: &mut Child) {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = fs::read_to_string(&self.notes).unwrap_or_default();
            if text.lines().filter(|l| *l == "ready").count() >= programs {
                return;
            }
            if let Ok(Some(status)) = child.try_wait() {
                panic!("gridarena ended before its programs started: {status}");
            }
            assert!(Instant::now() < deadline, "no program started: {text:?}");
            thread::sleep(Duration::from_millis(20));
        }
    }

    fn noted(&self, what: &str) -> Vec<String> {
        fs::read_to_string(&self.notes)
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.strip_prefix(what)?.strip_prefix(' ').map(str::to_string))
            .collect()
    }

    fn pids(&self) -> Vec<i32> {
        self.noted("pid")
            .iter()
            .filter_map(|p| p.parse().ok())
            .collect()
    }

    /// Checks that no noted process is alive (within a few seconds: a kill is not instant).
    fn no_program_left(&self) {
        let pids = self.pids();
        assert!(!pids.is_empty(), "the programs noted no pid");
        let deadline = Instant::now() + Duration::from_secs(5);
        while pids.iter().any(|&p| alive(p)) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(20));
        }
        let left: Vec<i32> = pids.iter().copied().filter(|&p| alive(p)).collect();
        assert!(left.is_empty(), "still running: {left:?}");
    }

    fn folders(&self) -> Vec<PathBuf> {
        self.noted("dir").into_iter().map(PathBuf::from).collect()
    }
}

impl Drop for Case {
    /// Whatever a failed run left is ended here, so that one failure does not leave sleeps behind.
    fn drop(&mut self) {
        for pid in self.pids() {
            // SAFETY: kill has no memory preconditions; these are the test's own programs.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
            }
        }
        let _ = fs::remove_dir_all(&self.tmp);
    }
}

/// Whether `pid` is a live process (a zombie, dead but not yet reaped, is not).
fn alive(pid: i32) -> bool {
    match fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with(['Z', 'X'])),
        Err(_) => false,
    }
}

fn signal(child: &Child, signal: i32) {
    let pid = i32::try_from(child.id()).expect("a pid");
    // SAFETY: kill has no memory preconditions.
    unsafe {
        libc::kill(pid, signal);
    }
}

/// Sends `sig` and checks the exit status, that no program is left and that no folder is.
fn interrupt(case: &Case, mut child: Child, programs: usize, sig: i32, code: i32) {
    case.wait_for_programs(programs, &mut child);
    signal(&child, sig);
    let out = timed::finish(child, Duration::from_secs(20));
    case.no_program_left();
    let out = out.expect("gridarena ended on the signal");
    for folder in case.folders() {
        assert!(!folder.exists(), "{} is left", folder.display());
    }
    assert_eq!(out.code, Some(code), "{out:?}");
}

#[test]
fn ctrl_c_ends_a_matchs_programs_and_removes_their_folders() {
    let case = Case::new("match");
    let label = format!("lines:{}:sh lines_sleeper.sh", fixtures().display());
    let child = case.start(&[
        "halma", "match", "--red", &label, "--blue", &label, "--seed", "1",
    ]);
    interrupt(&case, child, 2, libc::SIGINT, 130);
}

#[test]
fn sigterm_ends_a_tournaments_programs_and_removes_their_folders() {
    let case = Case::new("tournament");
    let course = fixtures().display().to_string();
    let roster = serde_json::json!({"entries": [
        {"name": "Ada", "program": {"command": "sh sleeper.sh", "dir": course, "format": "course"}},
        {"name": "Bo", "program": {"command": "sh sleeper.sh", "dir": course, "format": "course"}},
        {"name": "Greedy", "player": "builtin:greedy"},
        {"name": "Search", "player": "builtin:search"},
    ]});
    let roster_path = case.tmp.join("roster.json");
    fs::write(&roster_path, roster.to_string()).expect("the roster is written");
    let out_dir = case.tmp.join("out").display().to_string();
    let roster_arg = roster_path.display().to_string();
    let child = case.start(&[
        "halma",
        "tournament",
        &roster_arg,
        "--allow-programs",
        "--preset",
        "classic",
        "--concurrency",
        "2",
        "--seed",
        "4",
        "--out",
        &out_dir,
    ]);
    interrupt(&case, child, 2, libc::SIGTERM, 143);
}

#[test]
fn a_closed_terminal_ends_a_bridges_programs_and_removes_their_folders() {
    let case = Case::new("bridge");
    let dir = fixtures().display().to_string();
    let mut child = case.start(&[
        "halma",
        "bridge",
        "--port",
        "0",
        "--format",
        "lines",
        "--dir",
        &dir,
        "--",
        "sh",
        "lines_sleeper.sh",
    ]);
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line)
        .expect("the bridge prints its address");
    let url = line
        .trim()
        .rsplit(' ')
        .next()
        .unwrap_or_default()
        .to_string();
    let game =
        gridarena_engine::halma::Game::new(&gridarena_engine::halma::Preset::Arena.rules(), 1)
            .expect("a game");
    let request =
        serde_json::to_string(&game.request(gridarena_engine::halma::Team::Red)).expect("JSON");
    // The move never comes: the request is left waiting on a thread of its own.
    thread::spawn(move || {
        let _ = ureq::post(&url).send(&request);
    });
    interrupt(&case, child, 1, libc::SIGHUP, 129);
}

#[test]
fn a_killed_gridarena_takes_its_program_along_and_the_next_run_removes_its_folder() {
    let case = Case::new("killed");
    let label = format!("lines:{}:sh lines_sleeper.sh", fixtures().display());
    let mut child = case.start(&[
        "halma",
        "match",
        "--red",
        &label,
        "--blue",
        "builtin:greedy",
        "--seed",
        "1",
    ]);
    case.wait_for_programs(1, &mut child);
    signal(&child, libc::SIGKILL);
    let _ = timed::finish(child, Duration::from_secs(20));
    // The program is its process group's leader (a simple command runs with exec), and it hears of
    // its parent's death.
    case.no_program_left();
    let folders = case.folders();
    assert_eq!(folders.len(), 1, "{folders:?}");
    assert!(folders[0].exists(), "nobody was left to remove it yet");
    // The next run finds it: its owner is dead.
    let env = case.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let out = timed::run(
        &[
            "halma",
            "match",
            "--red",
            "builtin:greedy",
            "--blue",
            "builtin:greedy",
            "--max-turns",
            "2",
        ],
        &env,
        Duration::from_secs(30),
    )
    .expect("a match of two built-ins ends");
    assert_eq!(out.code, Some(0), "{out:?}");
    assert!(!folders[0].exists(), "{} is left", folders[0].display());
}
